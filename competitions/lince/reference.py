#!/usr/bin/env python3
"""LinCE's reference builder: release layout -> reference data for the dev and test phases.

    python -m organiser reference --competition lince --data DIR [--test-gold DIR] --out reference_data/lince

``DIR`` holds the release's datasets (``lid_spaeng/{train,dev,test}.conll``, ...). For each of the
ten datasets it writes ``<out>/dev/<task>_<pair>.conll`` from ``dev.conll`` and, when test gold exists
(``--test-gold DIR/<dataset>/test.conll``, or a ``test.conll`` that carries the labels),
``<out>/test/<task>_<pair>.conll``, after checking that the gold has exactly the public test file's
sentences and tokens. Every gold label must be in the declared label set. Datasets it lacks are
listed loudly on stderr and in ``<out>/MISSING.txt``: a bundle built from this reference scores only
the datasets present. What participants get, in the release's layout: ``<out>/public/dev/<dataset>/`` (the
annotated ``train.conll`` and ``dev.conll``, in the starting kit) and ``<out>/public/test/<dataset>/test.conll``
(the test tokens only, whatever the release's file carries: released when the test phase opens). Organiser
tooling (run with the repository's Python).
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)
import lince  # noqa: E402
import lince_data  # noqa: E402  (the starting kit's reader of the release's files)
from evalkit import fingerprint  # noqa: E402

from organiser import builders  # noqa: E402  (the options every reference builder takes)
from organiser.line_builders import BuildError, write_checked  # noqa: E402  (the scorer's check of a reference)

PHASES = (("dev", "dev"), ("test", "test"))


def gold_sentences(data, test_gold, task, pair, split):
    """The annotated sentences of one dataset's ``split``, or (None, why) when there is no gold."""
    ident = lince.dataset_id(task, pair)
    public = os.path.join(data, ident, split + ".conll")
    candidates = [os.path.join(test_gold, ident, "test.conll")] if split == "test" and test_gold else []
    candidates.append(public)
    for path in candidates:
        if os.path.isfile(path):
            sentences = lince_data.read_conll(path)
            if lince_data.has_gold(sentences, task, pair):
                if path != public and os.path.isfile(public):
                    check_same_tokens(lince_data.read_conll(public), sentences, path)
                return sentences, None
    if not os.path.isfile(public):
        return None, "no %s" % os.path.relpath(public, data)
    return None, "%s has no gold labels" % os.path.relpath(public, data)


def check_same_tokens(public, gold, gold_path):
    """Raise BuildError unless ``gold`` has exactly the sentences and tokens of the public file."""
    if len(public) != len(gold):
        raise BuildError("%s: %d sentences, the public test file has %d" % (gold_path, len(gold), len(public)))
    for number, ((_, rows), (_, gold_rows)) in enumerate(zip(public, gold), 1):
        if [row[0] for row in rows] != [row[0] for row in gold_rows]:
            raise BuildError("%s: sentence %d differs from the public test file's tokens" % (gold_path, number))


def write_reference(sentences, task, pair, path):
    """Write the reference text and parse it back with the scorer (labels checked against the declaration)."""
    write_checked(lince_data.reference_text(sentences, task, pair, True).encode("utf-8"), task, pair, path)


def write_public(data, out):
    """``<out>/public/``: per dataset, its annotated train and dev files (development phase) and its test tokens
    without any label (test phase); return the number of files written."""
    public = os.path.join(out, "public")
    if os.path.isdir(public):
        shutil.rmtree(public)
    written = 0
    for task, pair in lince.DATASETS:
        ident = lince.dataset_id(task, pair)
        for split, phase in (("train", "dev"), ("dev", "dev"), ("test", "test")):
            source = os.path.join(data, ident, split + ".conll")
            if not os.path.isfile(source):
                continue
            target = os.path.join(public, phase, ident, split + ".conll")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if split == "test":   # the tokens only: a release's test file must never carry its labels to participants
                with open(target, "w", encoding="utf-8") as handle:
                    handle.write(tokens_text(lince_data.read_conll(source)))
            else:
                shutil.copyfile(source, target)
            written += 1
    return written


def tokens_text(sentences):
    """The release's test layout without labels: ``# sent_enum = N`` (no sentiment), one token a line, a blank line
    after each sentence."""
    lines_out = []
    for number, (_, rows) in enumerate(sentences, 1):
        lines_out.append("# sent_enum = %d" % number)
        lines_out.extend(row[0] for row in rows)
        lines_out.append("")
    return "\n".join(lines_out) + "\n"


def build(data, out, test_gold=None):
    """Build every phase's references; return ``{phase: {"written": [...], "missing": {dataset: why}}}``."""
    summary = {}
    for phase, split in PHASES:
        folder = os.path.join(out, phase)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(".conll"):
                os.remove(os.path.join(folder, name))
        written, missing = [], {}
        for task, pair in lince.DATASETS:
            sentences, why = gold_sentences(data, test_gold, task, pair, split)
            if sentences is None:
                missing[lince.dataset_id(task, pair)] = why
                continue
            write_reference(sentences, task, pair, os.path.join(folder, lince.REFERENCE_FILE.format(task=task.key, lang=pair)))
            written.append(lince.dataset_id(task, pair))
        summary[phase] = {"written": written, "missing": missing}
    write_missing(out, summary)
    write_public(data, out)
    write_other_split(data, out)
    return summary


def write_other_split(data, out):
    """``<out>/<phase>/other_split.json`` (:mod:`evalkit.fingerprint`), as the kit's validator writes it for its own
    reference (``lince_data.other_split_document``): the label counts of a prediction for the other split."""
    for phase, split in PHASES:
        folder = os.path.join(out, phase)
        path = os.path.join(folder, fingerprint.FILE_NAME)
        if os.path.isfile(path):
            os.remove(path)
        document = lince_data.other_split_document(lince, data, split)
        if document and os.path.isdir(folder):
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(document, handle, indent=1, sort_keys=True)


def write_missing(out, summary):
    """``<out>/MISSING.txt``: per phase, the datasets without a reference and why (empty when none)."""
    lines_out = []
    for phase, info in summary.items():
        for ident, why in info["missing"].items():
            lines_out.append("%s\t%s\t%s" % (phase, ident, why))
    with open(os.path.join(out, "MISSING.txt"), "w", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines_out))


def main(argv=None):
    """Command line; exit status 0 (built, possibly with datasets missing), 1 (bad release files)."""
    args = builders.reference_parser(None, __doc__.split("\n\n")[0]).parse_args(argv)
    try:
        summary = build(args.data, args.out, args.test_gold)
    except BuildError as err:
        sys.stderr.write("Cannot build the LinCE reference: %s\n" % err)
        return 1
    if args.report:
        os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
        shutil.copyfile(os.path.join(args.out, "MISSING.txt"), args.report)
    for phase, info in summary.items():
        print("%s: %d of %d datasets (%s)" % (phase, len(info["written"]), len(lince.DATASETS),
                                              ", ".join(info["written"]) or "none"))
        if info["missing"]:
            sys.stderr.write("WARNING: the %s phase LACKS %d dataset(s); they will not be scored:\n" % (phase, len(info["missing"])))
            for ident, why in info["missing"].items():
                sys.stderr.write("  MISSING %s: %s\n" % (ident, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
