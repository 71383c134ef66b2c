#!/usr/bin/env python3
"""Check a LinCE submission against the public files of a split before uploading it.

    python3 validate.py SUBMISSION.zip --data LINCE_DIR [--split test|dev]

``LINCE_DIR`` holds the release's datasets (``lid_spaeng/test.conll``, ...). For every dataset whose
split file is there, this builds in a temporary folder a reference with the file's sentences and
tokens, and runs the scoring program's own loading and checking code on the submission, so the
messages are exactly those the platform will give: file names (with a "did you mean"), one label
per token line and a blank line between sentences (the first misalignment is located), labels
outside the dataset's label set. When the split file carries gold labels (dev), the scores are
printed too; otherwise (test) only the structure is checked. Datasets absent from ``LINCE_DIR``
are not checked (the tool says which).

Exit status: 0 when no error was found and no file is known to score 0 (warnings may remain), 1 when errors
were found or a file will score 0, no better than chance, or (on dev, priced against the gold) lose most of its score
(counted in the summary line; on dev, a file at or below the floor baseline is said too), 2 when the data or the scoring
program could not be found or the Python is older than 3.7 (said plainly, whatever the Python), 3 on an
internal error of the validator (one sentence, never a traceback). Standard library only, Python 3.7 or newer.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
#: evalkit/entry.py (the Python version check, output safe on any terminal, no traceback), run from its path
#: before anything that needs Python 3.7 (it runs on any Python, and checks it at once). In the kit it is in
#: scoring_program/, in the repository in the top-level scoring_program/.
SCORER_FOLDERS = (os.path.join(HERE, "scoring_program"),
                  os.path.join(HERE, os.pardir, os.pardir, os.pardir, "scoring_program"))
ENTRY = {"__name__": "evalkit_entry", "PROGRAM": "validate.py"}
for _path in [p for p in (os.path.join(f, "evalkit", "entry.py") for f in SCORER_FOLDERS) if os.path.isfile(p)][:1]:
    with open(_path) as _handle:
        exec(compile(_handle.read(), _path, "exec"), ENTRY)

from lince_data import (find_program, has_gold, load_program, no_data_message, other_split_document,  # noqa: E402
                        read_conll, reference_text)


def build_reference(lince, data, split, out):
    """Write one reference per dataset found in ``data``; return (written, with gold, absent) dataset ids."""
    written, gold, absent = [], [], []
    for task, pair in lince.DATASETS:
        ident = lince.dataset_id(task, pair)
        path = os.path.join(data, ident, split + ".conll")
        if not os.path.isfile(path):
            absent.append(ident)
            continue
        sentences = read_conll(path)
        with_gold = has_gold(sentences, task, pair)
        name = lince.REFERENCE_FILE.format(task=task.key, lang=pair)
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(reference_text(sentences, task, pair, with_gold))
        written.append(ident)
        if with_gold:
            gold.append(ident)
    return written, gold, absent


def plural(count, word):
    """``"1 error"``, ``"2 errors"``."""
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def judge(lince, result, gold):
    """``result`` with, on the datasets whose split has gold, the files at or below the kit's floor
    (``floor_scores.json`` of the development reference), two labels swapped or labels shifted by a line, and their
    scores (evalkit/verdict.py counts a 0 as a file that will score 0): evalkit/floor.py's ``judge``."""
    from evalkit import floor, scoring
    return floor.judge(result, lince, scoring.KINDS, HERE, lambda entry: lince.dataset_id(
        lince.TASKS_BY_FOLDER[entry["task"]], entry["lang"]) in gold)


def report(lince, result, gold, absent, split):
    """Print the messages (and the scores of datasets with gold); return the exit status (evalkit/verdict.py)."""
    from evalkit import verdict
    result = judge(lince, result, gold)
    for message in result["messages"]:   # a message about the whole submission has no file: "warning: submission: ..."
        place = ", ".join(part for part in (message["file"], message["where"]) if part)
        print("%s: %s%s" % (message["severity"], place + ": " if place else "", message["text"]))
    for entry in result["entries"]:
        task = lince.TASKS_BY_FOLDER[entry["task"]]
        ident = lince.dataset_id(task, entry["lang"])
        score = " %s %.4f" % (task.metric, entry["score"]) if ident in gold else ""
        print("%-16s %-8s %s sentences, %s aligned%s" % (entry["file"], entry["status"], entry["sentences"],
                                                         entry["scored_sentences"], score))
    if absent:
        print("not checked (no %s file in the data): %s" % (split, ", ".join(absent)))
    status, summary = verdict.conclude(result)
    print(summary)
    return status


def main(argv=None):
    """Command line: validate a submission; exit status 0 (fine), 1 (errors) or 2 (cannot check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission", help="the submission zip (or a folder)")
    parser.add_argument("--data", required=True, help="folder of the LinCE datasets (lid_spaeng/, ...)")
    parser.add_argument("--split", default="test", choices=("test", "dev"))
    parser.add_argument("--scorer", help="folder holding lince.py (and evalkit/ or ../../scoring_program)")
    args = parser.parse_args(argv)
    found = find_program(args.scorer)
    if not found:
        sys.stderr.write("The scoring program (lince.py and evalkit/) was not found; give --scorer DIR.\n")
        return 2
    lince, layout, scoring = load_program(found)
    tmp = tempfile.mkdtemp(prefix="lince-validate-")
    try:
        written, gold, absent = build_reference(lince, args.data, args.split, tmp)
        if not written:
            sys.stderr.write(no_data_message(args.data, args.split, ""))
            return 2
        other = other_split_document(lince, args.data, args.split)
        if other:   # predictions for the other split are named as such, as on the platform
            with open(os.path.join(tmp, scoring.fingerprint.FILE_NAME), "w", encoding="utf-8") as handle:
                json.dump(other, handle)
        try:
            result = scoring.evaluate(lince, tmp, args.submission)
        except layout.NothingToScore as err:
            print(lince.NOTHING_HELP % err)
            return 1
        return report(lince, result, gold, absent, args.split)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(ENTRY["run"](main, "validate.py", "validate.py") if "run" in ENTRY else main())
