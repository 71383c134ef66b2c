#!/usr/bin/env python3
"""Check an ST2024 submission against the public input of a split before uploading it.

    python3 validate.py SUBMISSION.zip --data RELEASE_DIR --split valid|test [--subtask constrained]

No gold is needed: from the release's input files (``morphology/<split>/<lang>_<split>.conllu`` and
``fill_mask_{word,char}/<split>/<lang>_<split>.tsv``) this builds, in a temporary folder, a
"public reference" holding every form and every ``[MASK]`` / ``[_]`` marker but no gold, and runs
the scoring program's own loading and checking code on it (``evalkit.scoring.evaluate``): the
messages are exactly those the platform will give. Scores are meaningless here and not printed.

It checks that every expected ``<task>/<lang>.json`` is present; sentence counts; per sentence,
the token count and the forms (one per CoNLL-U row, multiword ranges included, empty nodes
excluded); for the gaps, one candidate list per marker, at most 3 candidates, strings only; and
the layout (task folders at the root of the zip). Exit status: 0 when no error was found, 1 when
errors were found or a file is known to score 0 or (valid split, priced on the development gold) to lose most of
its score, 2 when the input or the scoring program could not be found.

Standard library only, Python 3.7 or newer. The scoring program is looked for in
``./scoring_program`` and ``../scoring_program`` next to this file (or give ``--scorer DIR``).
"""
import argparse
import csv
import json
import os
import sys
import tempfile
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
#: Where the scoring program is looked for when ``--scorer`` is not given: in the kit, or beside it.
SCORER_FOLDERS = (os.path.join(HERE, "scoring_program"), os.path.join(os.path.dirname(HERE), "scoring_program"))
#: evalkit/entry.py (the Python version check, output safe on any terminal, no traceback), run from its path
#: before anything that needs Python 3.7 (it runs on any Python, and checks it at once). No functions when no
#: scoring program is found here (then the check runs once --scorer is found).
ENTRY = {"__name__": "evalkit_entry", "PROGRAM": "validate.py"}
for _path in [p for p in (os.path.join(f, "evalkit", "entry.py") for f in SCORER_FOLDERS) if os.path.isfile(p)][:1]:
    with open(_path) as _handle:
        exec(compile(_handle.read(), _path, "exec"), ENTRY)
SPLITS = ("valid", "test")
#: Phase of the references built from a split (``reference_data/<phase>``).
PHASES = {"valid": "dev", "test": "test"}
TSV_HEADER = ("masked", "src")
EXIT_HELP = """exit status:
  0  no error found and no file known to score 0 or to lose most of its score (warnings may remain: read them;
     a subset of the expected files is said to be one: each file left out scores 0)
  1  errors found (each is listed with its file and position), or a file known to score 0 (counted in the
     summary line: unreadable, the wrong number of sentences, every sentence or label unusable), or, on the
     valid split, a file that the development gold prices as losing most of its score (its warning gives its
     score as written and with the mistake undone)
  2  nothing could be checked: no such submission, no input of the split under --data, no scoring program,
     or a Python older than 3.7
  3  internal error of validate.py (a bug: please report it)"""


# --------------------------------------------------------------------------- the release's files

def read_conllu(path):
    """Sentences of a CoNLL-U file as lists of rows (lists of the 10 columns).

    Multiword-token ranges (``4-5``) are kept in file order, empty nodes (``5.1``) are dropped,
    comment lines are skipped (some files have none).
    """
    sentences, current = [], []
    with open(path, encoding="utf-8-sig") as handle:
        for line in handle:
            line = line.rstrip("\r\n")
            if not line.strip():
                if current:
                    sentences.append(current)
                current = []
            elif not line.startswith("#"):
                columns = line.split("\t")
                if "." not in columns[0]:
                    current.append(columns)
    if current:
        sentences.append(current)
    return sentences


def read_tsv(path):
    """Rows of a fill-mask TSV as ``(masked, src)`` pairs (``src`` is ``None`` when absent).

    Tab-separated with ``quotechar="^"``; the ``masked<TAB>src`` header is dropped when present
    (the public test files have no header and only the ``masked`` column).
    """
    csv.field_size_limit(2 ** 31 - 1)     # some lines are longer than the default 128 KiB
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = [tuple(row) for row in csv.reader(handle, delimiter="\t", quotechar="^")]
    if rows and rows[0] == TSV_HEADER[:len(rows[0])]:
        rows = rows[1:]
    return [(row[0] if row else "", row[1] if len(row) > 1 else None) for row in rows]


def find_input(data_dir, kind, split, lang, aliases=None):
    """Path of ``<kind>/<split>/<lang>_<split>.<ext>`` (or an alias prefix: ``sanv_``), or None."""
    ext = "conllu" if kind == "morphology" else "tsv"
    prefixes = [lang] + sorted(a for a, code in (aliases or {}).items() if code == lang)
    for prefix in prefixes:
        path = os.path.join(data_dir, kind, split, "%s_%s.%s" % (prefix, split, ext))
        if os.path.isfile(path):
            return path
    return None


def input_kind(task):
    """The release folder holding the input of ``task``."""
    return task.folder if task.kind == "fill_mask" else "morphology"


# --------------------------------------------------------------------------- the public reference

def public_tagging(task, sentences):
    """A gold-less reference of a CoNLL-U task: the forms, ``null`` labels, no features; where the task declares
    rows without a label of their own (``blank_rows``: the multiword-token rows, ``4-5``, public in the input),
    their label, so that a prediction giving them another is told so on the test split too."""
    if task.kind == "morph":
        return [[{"Token": row[1]} for row in sentence] for sentence in sentences]
    blank = (getattr(task, "blank_rows", None) or (None,))[0]
    return [[[row[1], blank if blank is not None and "-" in row[0] else None] for row in sentence]
            for sentence in sentences]


def public_fill_mask(task, rows, excluded):
    """A gold-less reference of a fill-mask task: one ``null`` per marker of each masked line;
    sentences listed in ``excluded`` (``{"<0-based index>": reason}``) are skipped like the scorer
    skips them (``"masked_tokens": null``)."""
    out = []
    for number, (masked, src) in enumerate(rows):
        entry = {"masked": masked, "text": src if src is not None else "",
                 "masked_tokens": [None] * masked.count(task.mask_marker)}
        reason = excluded.get(str(number))
        if reason is not None:
            entry["masked_tokens"] = None
            entry["excluded"] = reason
        out.append(entry)
    return out


def write_public_reference(competition, data_dir, split, pairs, out_dir, excluded=None):
    """Write the public reference of ``pairs`` ((task, lang)) under ``out_dir``.

    Returns ``(written, missing)``: the pairs written and ``(task, lang, expected path)`` of the
    pairs whose input file is absent from ``data_dir``.
    """
    excluded = excluded or {}
    aliases = getattr(competition, "LANGUAGE_ALIASES", {})
    written, missing = [], []
    cache = {}
    for task, lang in pairs:
        kind = input_kind(task)
        path = find_input(data_dir, kind, split, lang, aliases)
        if path is None:
            ext = "conllu" if kind == "morphology" else "tsv"
            missing.append((task, lang, os.path.join(data_dir, kind, split, "%s_%s.%s" % (lang, split, ext))))
            continue
        if task.kind == "fill_mask":
            value = public_fill_mask(task, read_tsv(path), excluded.get(task.folder, {}).get(lang, {}))
        else:
            if path not in cache:
                cache.clear()
                cache[path] = read_conllu(path)
            value = public_tagging(task, cache[path])
        target = os.path.join(out_dir, task.folder, lang + ".json")
        if not os.path.isdir(os.path.dirname(target)):
            os.makedirs(os.path.dirname(target))
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False)
        written.append((task, lang))
    return written, missing


def write_other_split(data_dir, split, pairs, out_dir, fingerprint, aliases=None):
    """Write ``other_split.json`` (the fingerprint of the other split's input, see the scoring program's
    ``evalkit/fingerprint.py``) under ``out_dir``, so that predictions made for the other split are
    recognised. Returns False when the other split's input is absent."""
    other = "test" if split == "valid" else "valid"
    keys, cache = {}, {}
    for task, lang in pairs:
        kind = input_kind(task)
        path = find_input(data_dir, kind, other, lang, aliases)
        if path is None:
            continue
        if task.kind == "fill_mask":
            keys["%s/%s" % (task.folder, lang)] = [masked for masked, _ in read_tsv(path)]
        else:
            if path not in cache:
                cache.clear()
                cache[path] = [[row[1] for row in sentence] for sentence in read_conllu(path)]
            keys["%s/%s" % (task.folder, lang)] = cache[path]
    if not keys:
        return False
    with open(os.path.join(out_dir, fingerprint.FILE_NAME), "w", encoding="utf-8") as handle:
        json.dump(fingerprint.document(other, split, keys), handle)
    return True


def train_inventory(path):
    """``(UPOS tags, FEATS strings, XPOS)``: the distinct tags and feature strings of a CoNLL-U file, read line by
    line (a training file can hold half a million rows), and ``{XPOS tag: the UPOS tag it has most often}`` for the
    XPOS tags (the fifth column) that are no UPOS tag themselves: a tagger trained on the wrong column writes them."""
    tags, feats, pairs = set(), set(), {}
    with open(path, encoding="utf-8-sig") as handle:
        for line in handle:
            if line.startswith("#") or "\t" not in line:
                continue
            columns = line.rstrip("\r\n").split("\t")
            if len(columns) >= 6 and "." not in columns[0]:
                tags.add(columns[3])
                feats.add(columns[5])
                pair = (columns[4], columns[3])
                pairs[pair] = pairs.get(pair, 0) + 1
    xpos = {}
    for (tag, upos), _ in sorted(pairs.items(), key=lambda item: (-item[1], item[0])):
        if tag not in ("", "_") and tag not in tags:
            xpos.setdefault(tag, upos)
    return tags, feats, xpos


def write_inventory(data_dir, pairs, out_dir, inventory, aliases=None):
    """Write the scorer's ``inventory.json`` (``evalkit/inventory.py``) under ``out_dir``: for each tagging task
    (``labels``, and ``xpos``: each XPOS tag's most frequent UPOS) and features task (``features``) of ``pairs``,
    what the language's TRAIN file uses (never the checked split's file), so that a tag or feature of the language's
    own is not reported as outside the inventory. Returns the number of languages whose training file was found."""
    files, found = {}, set()
    langs = []
    for task, lang in pairs:
        if lang not in langs and (getattr(task, "labels", None) or getattr(task, "features", None)):
            langs.append(lang)
    for lang in langs:
        path = find_input(data_dir, "morphology", "train", lang, aliases)
        if path is None:
            continue
        tags, feats, xpos = train_inventory(path)
        found.add(lang)
        for task, pair_lang in pairs:
            if pair_lang != lang:
                continue
            if getattr(task, "labels", None):
                files["%s/%s" % (task.folder, lang)] = dict({"labels": sorted(tags)},
                                                            **({"xpos": xpos} if xpos else {}))
            elif getattr(task, "features", None):
                files["%s/%s" % (task.folder, lang)] = {"features": inventory.feature_inventory(feats)}
    with open(os.path.join(out_dir, inventory.FILE_NAME), "w", encoding="utf-8") as handle:
        json.dump({"source": "train", "files": files}, handle, ensure_ascii=False)
    return len(found)


def expected_pairs(competition, subtask):
    """``(task, lang)`` pairs of a subtask, in the competition's order."""
    spec = competition.SUBTASKS[subtask]
    return [(task, lang) for task in competition.TASKS if task.folder in spec["tasks"]
            for lang in task.languages if lang in spec["languages"]]


# --------------------------------------------------------------------------- running the scorer

def find_scorer(explicit=None):
    """The scoring program folder (holding ``evaluate.py`` and ``evalkit/``), or None."""
    candidates = [explicit] if explicit else list(SCORER_FOLDERS)
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "evalkit", "scoring.py")):
            return os.path.abspath(folder)
    return None


def load_scorer(folder):
    """Import the competition module and ``evalkit`` from the scoring program ``folder``."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    from evalkit.entry import require_python
    require_python("validate.py")   # a scoring program given with --scorer: checked before it is used
    import st2024
    from evalkit import layout, scoring
    return st2024, scoring, layout


def find_excluded(explicit, split):
    """The ``excluded.json`` of the split's phase: ``--excluded``, else shipped beside this file
    (``excluded/<phase>.json``) or found in a reference folder (``reference_data/<phase>/``)."""
    if explicit:
        return explicit
    phase = PHASES[split]
    for path in (os.path.join(HERE, "excluded", phase + ".json"),
                 os.path.join(HERE, "reference_data", phase, "excluded.json"),
                 os.path.join(os.path.dirname(HERE), "reference_data", phase, "excluded.json")):
        if os.path.isfile(path):
            return path
    return None


def validate(submission, data_dir, split, subtask="unconstrained", scorer=None, excluded=None):
    """Check ``submission`` against the public input of ``split``.

    Returns ``(messages, missing_inputs, expected, found)``: the scorer's message dicts
    (``file``, ``severity``, ``where``, ``text``); the ``(task folder, lang, path)`` whose input is
    absent (not checked); the number of files expected (those whose input is present) and how many
    of them the submission holds. Raises ``RuntimeError`` when nothing can be checked.
    """
    report, missing, expected, found = check(submission, data_dir, split, subtask, scorer, excluded)
    return report["messages"], missing, expected, found


def find_gold(split, explicit=None):
    """The development reference (gold) that answers ``split``, with its ``floor_scores.json``: ``--gold``, else
    the kit's ``reference_data/dev`` (or the repository's); None for the test split or when there is none."""
    if PHASES.get(split) != "dev":
        return None
    for folder in ([explicit] if explicit else [os.path.join(HERE, "reference_data", "dev"),
                                                os.path.join(os.path.dirname(HERE), "reference_data", "dev")]):
        if folder and os.path.isfile(os.path.join(folder, "floor_scores.json")):
            return folder
    return None


def gold_check(report, submission, gold_dir, competition, scoring):
    """Score ``submission`` against the development gold ``gold_dir`` and add to ``report`` (the public-reference
    check) the files at or below the floor (the scoring program's evalkit/floor.py), the messages that only the
    gold can give (evalkit/blank.py: rows without a label of their own given one; evalkit/mended.py: a systematic
    mistake priced, each in the place of the same message unpriced) and, as ``gold_scores``, the score of each file;
    only files whose public check found their sentence count right are judged."""
    from evalkit import blank, floor, layout, mended
    try:
        scored = scoring.evaluate(competition, gold_dir, submission, details=False)
    except (layout.NothingToScore, layout.ReferenceError):
        return report
    checked = dict((entry["file"], entry) for entry in report["entries"] if entry["status"] == "scored")
    entries = [entry for entry in scored["entries"] if entry["status"] == "scored" and entry["file"] in checked
               and entry["sentences"] == checked[entry["file"]]["sentences"]]
    warnings = floor.check_report({"entries": entries}, os.path.join(gold_dir, floor.FILE_NAME), competition,
                                  scoring.KINDS)
    known = set((m["file"], m["text"]) for m in report["messages"])
    said = [m for m in blank.gold_messages(scored) if m["file"] in checked and (m["file"], m["text"]) not in known]
    priced = [m for m in mended.gold_messages(scored) if m["file"] in checked and m not in warnings]
    report["messages"] = mended.merge(report["messages"], priced) + said + warnings
    report["gold_scores"] = dict((entry["file"], entry["score"]) for entry in entries)
    return report


def check(submission, data_dir, split, subtask="unconstrained", scorer=None, excluded=None, gold=None):
    """:func:`validate` with the whole report: ``(report, missing_inputs, expected, found)``; on the development
    split, with the kit's gold at hand (:func:`find_gold`), the files at or below the floor are said too."""
    folder = find_scorer(scorer)
    if folder is None:
        raise RuntimeError("the scoring program was not found (looked in %s; give --scorer DIR)"
                           % " and ".join(SCORER_FOLDERS))
    competition, scoring, layout = load_scorer(folder)
    from evalkit import fingerprint, inventory
    if subtask not in competition.SUBTASKS:
        raise RuntimeError("unknown subtask %r (choose from %s)" % (subtask, ", ".join(competition.SUBTASKS)))
    skipped = {}
    if excluded:
        with open(excluded, encoding="utf-8") as handle:
            skipped = json.load(handle)
    tmp = tempfile.mkdtemp(prefix="st2024-validate-")
    pairs = expected_pairs(competition, subtask)
    try:
        written, missing = write_public_reference(competition, data_dir, split, pairs, tmp, skipped)
        if not written:
            raise RuntimeError("no input file of the %s split was found under %s" % (split, data_dir))
        aliases = getattr(competition, "LANGUAGE_ALIASES", {})
        write_other_split(data_dir, split, written, tmp, fingerprint, aliases)
        write_inventory(data_dir, written, tmp, inventory, aliases)
        try:
            report = scoring.evaluate(competition, tmp, submission, gold=False)
        except layout.NothingToScore as err:
            return ({"messages": [{"file": os.path.basename(submission), "severity": "error", "where": "layout",
                                   "text": "%s Expected <task>/<lang>.json at the root of the zip, e.g. %s/%s.json."
                                   % (err, written[0][0].folder, written[0][1])}],
                     "entries": [{"file": "%s/%s.json" % (t.folder, l), "status": "missing"} for t, l in written]},
                    [(t.folder, l, p) for t, l, p in missing], len(written), 0)
    finally:
        _remove_tree(tmp)
    found = sum(1 for entry in report["entries"] if entry["status"] != "missing")
    gold_dir = find_gold(split, gold)
    if gold_dir:
        report = gold_check(report, submission, gold_dir, competition, scoring)
    return report, [(t.folder, l, p) for t, l, p in missing], len(written), found


def _remove_tree(path):
    """Remove the temporary public reference."""
    import shutil
    shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------- output

def print_messages(messages, out=sys.stdout):
    """The messages grouped by file, in order of first appearance."""
    by_file = OrderedDict()
    for message in messages:
        by_file.setdefault(message["file"], []).append(message)
    for name, group in by_file.items():
        out.write("%s\n" % (name or "the submission as a whole"))
        for message in group:
            where = (message["where"] + ": ") if message["where"] and message["file"] else ""
            out.write("  %s: %s%s\n" % (message["severity"], where, message["text"]))


def parse_args(argv):
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="validate.py", description=__doc__.split("\n\n")[0], epilog=EXIT_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submission", help="the submission zip (or a folder holding the task folders)")
    parser.add_argument("--data", required=True, help="the release folder (morphology/, fill_mask_word/, ...)")
    parser.add_argument("--split", choices=SPLITS, default="valid", help="which inputs it answers (default valid)")
    parser.add_argument("--subtask", default="unconstrained",
                        help="unconstrained (5 tasks, 16 languages; default) or constrained (3 tasks, 13 languages)")
    parser.add_argument("--excluded", help="the excluded.json of the split's phase (found automatically when shipped)")
    parser.add_argument("--scorer", help="the scoring program folder (found automatically in the starting kit)")
    parser.add_argument("--gold", help="the development reference with its floor_scores.json (--split valid; found "
                        "automatically in the starting kit: reference_data/dev)")
    return parser.parse_args(argv)


def main(argv=None):
    """Validate and print; return the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not os.path.exists(args.submission):
        sys.stderr.write("no such file or folder: %s\n" % args.submission)
        return 2
    if not os.path.isdir(args.data):
        sys.stderr.write("no release folder at %s\n" % args.data)
        return 2
    try:
        report, missing, expected, found = check(args.submission, args.data, args.split, args.subtask,
                                                 args.scorer, find_excluded(args.excluded, args.split), args.gold)
    except RuntimeError as err:
        sys.stderr.write("cannot validate: %s\n" % err)
        return 2
    from evalkit import verdict
    messages = report["messages"]
    print_messages(messages)
    by_task = OrderedDict()
    for folder, lang, _ in missing:
        by_task.setdefault(folder, []).append(lang)
    for folder, langs in by_task.items():
        print("not checked (no %s input in %s): %s/ %s" % (args.split, args.data, folder, ", ".join(langs)))
    status, summary = verdict.conclude(report, scored=False)
    print("%s: %d of %s found and checked against the %s input; %s"
          % (args.submission, found, plural(expected, "expected file"), args.split, summary))
    return status


def plural(count, noun):
    """``"1 error"``, ``"2 errors"``."""
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


if __name__ == "__main__":
    sys.exit(ENTRY["run"](main, "validate.py", "validate.py") if "run" in ENTRY else main())
