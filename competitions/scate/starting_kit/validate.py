#!/usr/bin/env python3
"""Check a SCATE submission against the documents of a split before uploading it.

    python3 validate.py SUBMISSION.zip --data DATA_DIR [--split test|dev|train]

``DATA_DIR`` is laid out as the data release (``text/<corpus>/<doc>/<doc>``, ...; see ``scate_data.py``). This
builds in a temporary folder a reference for the split's documents and runs the scoring program's own reading
and checking code on the submission, so the messages are exactly those the platform will give: file names,
documents without a file, XML that is refused (a DTD, entities, malformed XML), spans outside the text, and the
warnings (types, properties and values outside the SCATE schema, spans cutting words, time expressions left
without an interval: see the scoring program's ``evalkit/timenorm/schema.py``). When the
split has full gold (dev, train) the interval and entity scores are printed too; with the public spans-only test
gold, the identification scores; without any gold, the structure only.

Exit status: 0 when no error was found and no file is known to score 0 or to lose most of its score (warnings may
remain), 1 when errors were found, a file will score 0, or the gold prices a file as losing most of its score to a
mistake that can be undone (links written as bare numbers, names in another letter case, offsets counted on another
text: the warning says what it scores as written and read as meant), counted in the summary line by the files'
names; with full gold, a file at or below the floor baseline is said too. 2 when the data or the scoring
program could not be found or the Python is older than 3.7 (said plainly, whatever the Python), 3 on an
internal error of the validator (one sentence, never a traceback). Standard library only, Python 3.7 or newer.
"""
import argparse
import io
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

import scate_data  # noqa: E402

EMPTY = "<data><annotations></annotations></data>\n"


def find_program(scorer=None):
    """Return (folder of scate.py, folder of evalkit/) or None: beside this kit, or in the repository."""
    candidates = [scorer] if scorer else [os.path.join(HERE, "scoring_program"), os.path.join(HERE, os.pardir)]
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "scate.py")):
            for kit in (folder, os.path.join(folder, os.pardir, os.pardir, "scoring_program")):
                if os.path.isfile(os.path.join(kit, "evalkit", "scoring.py")):
                    return os.path.abspath(folder), os.path.abspath(kit)
    return None


def load_program(found):
    """Import ``scate`` and ``evalkit`` from the folders of :func:`find_program`."""
    for folder in reversed(found):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    import scate
    from evalkit import layout, scoring
    from evalkit.timenorm.kind import REFERENCE_FORMAT
    return scate, layout, scoring, REFERENCE_FORMAT


def build_reference(scate, data, split, out, reference_format):
    """Write the split's reference files into ``out``; return (documents, gold kind: "full", "spans" or None)."""
    _, gold_folder, full = scate_data.SPLITS[split]
    documents, with_gold = [], 0
    for doc in scate_data.documents(data, split):
        text, dct = scate_data.read_text(data, split, doc)
        path = scate_data.gold_path(os.path.join(data, gold_folder), doc)
        xml = EMPTY
        if os.path.isfile(path):
            with io.open(path, encoding="utf-8") as handle:
                xml = handle.read()
            with_gold += 1
        documents.append({"name": doc, "dct": dct or "2000-01-01", "text": text, "xml": xml})
    gold = ("full" if full else "spans") if with_gold == len(documents) and documents else None
    others = dict((other, scate_data.documents(data, other)) for other in sorted(scate_data.SPLITS) if other != split)
    value = {"format": reference_format, "gold": gold or "spans", "documents": documents,
             "other_splits": dict((other, docs) for other, docs in others.items() if docs)}
    for task in scate.TASKS:
        if task.kind == "scate_intervals" and gold != "full":
            continue
        with io.open(os.path.join(out, scate.REFERENCE_FILE.format(task=task.key, lang="en")), "w",
                     encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False)
    return len(documents), gold


def report(result, gold, scate=None):
    """Print the messages (and the scores when the split has gold); return the exit status (evalkit/verdict.py).
    With gold, the checks that read the scores against it (evalkit/floor.py): a file read as meant where it breaks
    a convention that can be undone (links written as bare numbers, names in another letter case, offsets counted
    on another text) priced, and said to lose most of its score when it does; with full gold (dev, train), a file
    at or below the kit's floor. A score of 0 names the document files that have it (evalkit/floor.py
    ``gold_scores``)."""
    from evalkit import floor, scoring, verdict
    path = floor.kit_floor_file(HERE, scate.COMPETITION_ID) if scate is not None and gold == "full" else None
    if gold and scate is not None:
        result["messages"] = result["messages"] + floor.check_report(result, path, scate, scoring.KINDS)
    if gold:
        result["gold_scores"] = floor.gold_scores(result, lambda entry: True)
    for message in result["messages"]:
        where = (", " + message["where"]) if message["where"] else ""
        print("%s: %s%s: %s" % (message["severity"], message["file"], where, message["text"]))
    for entry in result["entries"]:
        shown = ", ".join("%s %.4f" % (name, value) for name, value in entry["components"].items())
        print("%-9s %s documents, %s with a file%s" % (entry["task"], entry["sentences"], entry["scored_sentences"],
                                                       (": " + shown) if gold else ""))
    if not gold:
        print("(no gold for this split: structure checked only)")
    status, summary = verdict.conclude(result)
    print(summary)
    return status


def main(argv=None):
    """Command line: validate a submission; exit status 0 (fine), 1 (errors) or 2 (cannot check)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("submission", help="the submission zip (or a folder)")
    parser.add_argument("--data", required=True, help="the data folder (text/, train_dev/, ...)")
    parser.add_argument("--split", default="test", choices=sorted(scate_data.SPLITS))
    parser.add_argument("--scorer", help="folder holding scate.py (and evalkit/ or ../../scoring_program)")
    args = parser.parse_args(argv)
    found = find_program(args.scorer)
    if not found:
        sys.stderr.write("The scoring program (scate.py and evalkit/) was not found; give --scorer DIR.\n")
        return 2
    scate, layout, scoring, reference_format = load_program(found)
    tmp = tempfile.mkdtemp(prefix="scate-validate-")
    try:
        count, gold = build_reference(scate, args.data, args.split, tmp, reference_format)
        if not count:
            sys.stderr.write("No document text of the %s split under %s (expected %s/<doc>/<doc>).\n"
                             % (args.split, args.data, os.path.join(args.data, scate_data.SPLITS[args.split][0])))
            return 2
        try:
            result = scoring.evaluate(scate, tmp, args.submission)
        except layout.NothingToScore as err:
            print(scate.NOTHING_HELP % err)
            return 1
        except layout.ReferenceError as err:
            sys.stderr.write("The %s data cannot be read as a reference: %s\n" % (args.split, err))
            return 2
        return report(result, gold, scate)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(ENTRY["run"](main, "validate.py", "validate.py") if "run" in ENTRY else main())
