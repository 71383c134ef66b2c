"""The organiser-side builders of a competition whose release is one file per dataset and split (``evalkit.conll``,
each task's kind's release: CoNLL-style sentences, ``key<TAB>value`` items, or a competition's own): what its
``reference.py`` and ``baselines.py`` call, so that a competition started by ``python -m organiser new`` holds
no copy of them.

``reference_main(folder, argv)``: ``--data DIR [--test-gold DIR] --out REF [--report FILE]`` writes
``REF/dev/<REFERENCE_FILE>`` from each dataset's ``dev`` file, ``REF/test/<REFERENCE_FILE>`` from the test gold
(``--test-gold DIR``, the ``test`` files of the declared ``RELEASE_FILE`` layout under ``DIR``, checked record by
record against the public test file), ``REF/public/dev/`` (the annotated train and dev files, in the starting kit)
and ``REF/public/test/`` (the test input alone, released when the test phase opens); a dataset without a file is
listed on stderr and in ``REF/MISSING.txt``.
``baselines_main(folder, argv)``: ``--data DIR --reference REF --out OUT`` writes
``OUT/submissions/<id>-<phase>-{baseline,floor}.zip`` (the names ``make check`` looks for) and
``OUT/baselines/table.md`` (the dev scores, shown on the pages and in the starting kit's README).
"""
import argparse
import os
import shutil
import sys

from organiser import builders, declarations
from evalkit import conll, lines, scoring
from evalkit.messages import DataError


class BuildError(Exception):
    """The release's files cannot make a reference (a label outside the declared set, test gold that does not
    match the public test file)."""


def declaration_of(folder):
    """The declaration of the competition whose builders are in ``folder``."""
    return declarations.load(os.path.basename(os.path.abspath(folder)))


def write_checked(data, task, lang, path):
    """Write the reference text ``data`` (bytes) to ``path`` once the scorer's kind has parsed it (every label checked
    against the declaration); BuildError, naming the line, when it cannot."""
    try:
        scoring.KINDS[task.kind].parse_reference_text(data, os.path.basename(path), task, lang)
    except DataError as err:
        raise BuildError(str(err))
    with open(path, "wb") as handle:
        handle.write(data)


def write_reference(decl, task, lang, sentences, path):
    """Write a reference file from a release file's records (CoNLL-style sentences, ...) in the task's form: a text
    kind's checked by the scorer (:func:`write_checked`), a JSON kind's gold tags checked against the declared tag
    set."""
    if lines.declares_names(decl):
        write_checked(conll.release_of(decl, task).reference_bytes(decl, task, sentences), task, lang, path)
        return
    known = set(conll.label_set(task, lang))
    for number, rows in enumerate(sentences, 1):
        for position, row in enumerate(rows, 1):
            if known and row[-1] not in known:
                raise BuildError("%s: sentence %d, token %d: gold tag %r is not one of %s"
                                 % (path, number, position, row[-1], ", ".join(sorted(known))))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(conll.reference_bytes(decl, task, sentences))


def same_tokens(release, public, gold, where):
    """Raise BuildError unless ``gold`` has exactly the records' input (sentences and tokens, keys) of the public
    test file ``public`` (both read by ``release``)."""
    if not release.same_input(public, gold):
        raise BuildError("%s: its %s differ from the public test file's" % (where, release.input_name))


def gold_of(decl, data, test_gold, split, task, lang):
    """The annotated records of one dataset's ``split`` (the test split: from ``test_gold``), or (None, why)."""
    release = conll.release_of(decl, task)
    public = conll.release_path(decl, data, split, task, lang)
    path = conll.release_path(decl, test_gold, split, task, lang) if split == "test" and test_gold else public
    if not os.path.isfile(path):
        return None, "no %s" % path
    records = release.read(path)
    if not release.has_gold(records):
        return None, "%s has no gold labels" % path
    if path != public and os.path.isfile(public):
        same_tokens(release, release.read(public), records, path)
    return records, None


def write_public(decl, data, out):
    """``<out>/public/dev/`` (train and dev files as released) and ``<out>/public/test/`` (the test input only,
    whatever the release's file carries); return the number of files written."""
    public = os.path.join(out, "public")
    if os.path.isdir(public):
        shutil.rmtree(public)
    written = 0
    for task, lang in conll.datasets(decl):
        for split, phase in (("train", "dev"), ("dev", "dev"), ("test", "test")):
            source = conll.release_path(decl, data, split, task, lang)
            if not os.path.isfile(source):
                continue
            target = conll.release_path(decl, os.path.join(public, phase), split, task, lang)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            release = conll.release_of(decl, task)
            with open(target, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(release.text(release.read(source), gold=split != "test"))
            written += 1
    return written


def build_reference(decl, data, out, test_gold=None):
    """Every phase's references; ``{phase: {"written": [...], "missing": {file: why}}}``."""
    summary = {}
    for phase in ("dev", "test"):
        folder = os.path.join(out, phase)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        written, missing = [], {}
        for task, lang in conll.datasets(decl):
            name = conll.reference_name(decl, task, lang)
            sentences, why = gold_of(decl, data, test_gold, phase, task, lang)
            if sentences is None:
                missing[name] = why
                continue
            write_reference(decl, task, lang, sentences, os.path.join(folder, name))
            written.append(name)
        summary[phase] = {"written": written, "missing": missing}
    with open(os.path.join(out, "MISSING.txt"), "w", encoding="utf-8") as handle:
        handle.write("".join("%s\t%s\t%s\n" % (phase, name, why) for phase, info in summary.items()
                             for name, why in info["missing"].items()))
    write_public(decl, data, out)
    return summary


def reference_main(folder, argv=None):
    """The reference builder of the competition in ``folder``; exit status 0 (built) or 1 (bad release files)."""
    decl = declaration_of(folder)
    args = builders.reference_parser("python -m organiser reference --competition %s" % decl.COMPETITION_ID
                                     ).parse_args(argv)
    try:
        summary = build_reference(decl, args.data, args.out, args.test_gold)
    except BuildError as err:
        sys.stderr.write("Cannot build the reference of %s: %s\n" % (decl.COMPETITION_ID, err))
        return 1
    if args.report:
        os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
        shutil.copyfile(os.path.join(args.out, "MISSING.txt"), args.report)
    for phase, info in summary.items():
        print("%s: %d of %d datasets" % (phase, len(info["written"]), len(conll.datasets(decl))))
        for name, why in info["missing"].items():
            sys.stderr.write("WARNING: the %s phase LACKS %s (%s); it will not be scored\n" % (phase, name, why))
    return 0


def table(decl, rows):
    """The Markdown table of the baselines' dev scores: one row per system, one column per dataset, the mean."""
    names = [conll.reference_name(decl, task, lang) for task, lang in conll.datasets(decl)]
    heads = ["%s %s" % (task.label, decl.LANGUAGES[lang][0]) for task, lang in conll.datasets(decl)]
    out = "| system | %s | average |\n|---|%s---:|\n" % (" | ".join(heads), "---:|" * len(heads))
    for system, report in rows:
        scores = dict((conll.reference_name(decl, decl.TASKS_BY_FOLDER[e["task"]], e["lang"]), e["score"])
                      for e in report["entries"] if e["status"] != "missing")
        cells = ["-" if name not in scores else "%.4f" % scores[name] for name in names]
        out += "| %s | %s | %.4f |\n" % (system, " | ".join(cells), report["scores"]["avg_score"])
    return out


def baselines_main(folder, argv=None):
    """The baselines builder of the competition in ``folder``: its baseline and floor submissions for each phase
    with input, and the table of their dev scores; exit status 0."""
    decl = declaration_of(folder)
    parser = argparse.ArgumentParser(prog="python -m organiser baselines --competition %s" % decl.COMPETITION_ID)
    parser.add_argument("--data", required=True)
    parser.add_argument("--reference", required=True, help="the reference folder (its dev/ scores the table)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    subs = os.path.join(args.out, "submissions")
    os.makedirs(subs, exist_ok=True)
    rows = []
    for system in ("baseline", "floor"):
        for phase in ("dev", "test"):
            path = os.path.join(subs, "%s-%s-%s.zip" % (decl.COMPETITION_ID, phase, system))
            done = conll.make_submission(decl, args.data, phase, system, path)
            if all(what.startswith("skipped") for _, what in done):
                os.remove(path)
            elif phase == "dev":
                rows.append((system, scoring.evaluate(decl, os.path.join(args.reference, "dev"), path)))
    os.makedirs(os.path.join(args.out, "baselines"), exist_ok=True)
    text = table(decl, rows)
    with open(os.path.join(args.out, "baselines", "table.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    sys.stdout.write(text)
    return 0
