#!/usr/bin/env python3
"""Check a SpanglishEval submission before uploading it (and score it on dev).

    python3 validate.py SUBMISSION.zip [--split dev|test] [--data DATA_DIR]

``DATA_DIR`` (default: the kit's ``data/``) holds ``<split>/sets.jsonl`` and, for dev, ``dev/reference.jsonl``
(the dev gold). On dev the scoring program scores the submission against the gold and prints every message
and the scores; on test it builds, in a temporary folder, a reference from the test sets with a placeholder
gold and runs the same checks (file name, JSON, one entry per set, the number of scores of each set, numbers
that are finite, indices in range), so the messages are those the platform will give; the scores mean nothing
there and are not printed.

Exit status: 0 when no error was found and no file is known to score 0 (warnings may remain), 1 when errors
were found, a file will score 0 or, on dev, a file is priced against the gold as losing most of its score (counted
in the summary line; on dev, a file at or below the floor baseline is said too), 2 when the data or the scoring
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

from spanglisheval_kit import DATA_DIR, KitError, load_program, read_sets  # noqa: E402


def placeholder_reference(sets, folder, name):
    """Write a reference of ``sets`` with the gold at index 0 (structure checks only)."""
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as handle:
        for entry in sets:
            handle.write(json.dumps({"id": entry["id"], "sentences": entry["sentences"], "gold": 0,
                                     "gold_type": "en"}, ensure_ascii=False) + "\n")


def report(result, with_gold, declaration=None):
    """Print the messages (and the scores on dev); return the exit status (evalkit/verdict.py). On dev, a file at
    or below the kit's floor is said (evalkit/floor.py)."""
    from evalkit import floor, scoring, verdict
    path = floor.kit_floor_file(HERE, declaration.COMPETITION_ID) if declaration is not None and with_gold else None
    if path:
        result["messages"] = result["messages"] + floor.check_report(result, path, declaration, scoring.KINDS)
    if with_gold:
        result["gold_scores"] = floor.gold_scores(result, lambda entry: True)
    for message in result["messages"]:
        where = (", " + message["where"]) if message["where"] else ""
        print("%s: %s%s: %s" % (message["severity"], message["file"], where, message["text"]))
    for entry in result["entries"]:
        print("%s: %s, %d sets, %d with a valid answer" % (entry["file"], entry["status"], entry["sentences"],
                                                          entry["scored_sentences"]))
        if with_gold:
            for name, value in entry["components"].items():
                print("  %-14s %.4f" % (name, value))
    status, summary = verdict.conclude(result)
    print(summary)
    return status


def main(argv=None):
    """Command line: validate a submission; exit status 0 (fine), 1 (errors) or 2 (cannot check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission", help="the submission zip (or a folder holding predictions.json)")
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--data", default=DATA_DIR, help="folder of <split>/sets.jsonl (default: the kit's data/)")
    parser.add_argument("--scorer", help="folder holding spanglisheval.py (and evalkit/)")
    args = parser.parse_args(argv)
    try:
        declaration = load_program(args.scorer)
        from evalkit.layout import NothingToScore, ReferenceError
        from evalkit.scoring import evaluate
        gold = os.path.join(args.data, args.split, declaration.REFERENCE_FILE)
        with_gold = args.split == "dev" and os.path.isfile(gold)
        folder = tempfile.mkdtemp(prefix="spanglisheval-validate-")
        try:
            if with_gold:
                shutil.copyfile(gold, os.path.join(folder, declaration.REFERENCE_FILE))
            else:
                placeholder_reference(read_sets(os.path.join(args.data, args.split, "sets.jsonl")), folder,
                                      declaration.REFERENCE_FILE)
            result = evaluate(declaration, folder, args.submission)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    except KitError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    except ReferenceError as err:
        sys.stderr.write("error: the %s data is unusable: %s\n" % (args.split, err))
        return 2
    except NothingToScore as err:
        print("error: nothing could be checked: %s %s" % (err, declaration.NOTHING_HELP.split(": %s ", 1)[-1]))
        return 1
    return report(result, with_gold, declaration)


if __name__ == "__main__":
    sys.exit(ENTRY["run"](main, "validate.py", "validate.py") if "run" in ENTRY else main())
