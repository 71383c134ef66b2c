#!/usr/bin/env python3
"""SCATE's reference builder: the data layout -> reference data for the dev and test phases.

    python3 competitions/scate/reference.py --data DIR [--test-gold DIR] --out reference_data/scate

``DIR`` is laid out as ``../shared/scate`` (see ``starting_kit/scate_data.py``). The dev phase is AQUAINT with
full SCATE gold: ``<out>/dev/norm_en.json`` (interval F1, the ranking task) and ``<out>/dev/spans_en.json``
(identification F1 on the same gold). The test phase is TempEval-2013 platinum: with full test gold
(``--test-gold DIR/<doc>/<doc>.TimeNorm.gold.completed.xml``), both files as for dev; without it, the public
spans-only gold (``test_te3_spans_only/``) gives ``<out>/test/spans_en.json`` alone (the identification
leaderboard). Every gold file is read by the scorer's safe reader, its spans checked against its text. Documents
or files it lacks are listed loudly on stderr and in ``<out>/MISSING.txt``. Organiser tooling.
"""
import argparse
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)

import scate  # noqa: E402
import scate_data  # noqa: E402
from evalkit.messages import DataError  # noqa: E402
from evalkit.timenorm.kind import KINDS, REFERENCE_FORMAT  # noqa: E402

PHASES = ("dev", "test")


class BuildError(Exception):
    """The data cannot make a reference (a gold file the scorer refuses)."""


def phase_documents(data, phase, test_gold=None):
    """``(gold kind, [(doc, gold path, text, dct)], {what: why missing})`` of one phase; gold kind None when the
    phase has no gold at all."""
    text_folder, gold_folder, full = scate_data.SPLITS[phase]
    if phase == "test" and test_gold:
        gold_folder, full = test_gold, True
    else:
        gold_folder = os.path.join(data, gold_folder)
    docs = scate_data.documents(data, phase)
    missing = {}
    if not docs:
        missing[text_folder + "/"] = "no document texts"
        return None, [], missing
    found = []
    for doc in docs:
        path = scate_data.gold_path(gold_folder, doc)
        if not os.path.isfile(path):
            missing[os.path.relpath(path, data) if not test_gold or phase != "test" else path] = "no gold file"
            continue
        text, dct = scate_data.read_text(data, phase, doc)
        if not dct:
            missing[os.path.relpath(scate_data.text_path(data, phase, doc), data) + ".dct"] = "no creation time"
            continue
        found.append((doc, path, text, dct))
    return ("full" if full else "spans") if found else None, found, missing


def reference_bytes(gold, found):
    """The reference file (JSON bytes) of the documents ``found``."""
    documents = []
    for doc, path, text, dct in found:
        with open(path, "rb") as handle:
            xml = handle.read().decode("utf-8")
        documents.append({"name": doc, "dct": dct, "text": text, "xml": xml})
    value = {"format": REFERENCE_FORMAT, "gold": gold, "documents": documents}
    return json.dumps(value, ensure_ascii=False, indent=0).encode("utf-8")


def write_reference(task, data, path):
    """Parse ``data`` back with the scorer's kind (every gold file, its spans against its text), then write it."""
    try:
        KINDS[task.kind].parse_reference_text(data, os.path.basename(path), task, "en")
    except DataError as err:
        raise BuildError(str(err))
    with open(path, "wb") as handle:
        handle.write(data)


def build(data, out, test_gold=None):
    """Build every phase's references; return ``{phase: {"written": [...], "documents": n, "missing": {...}}}``."""
    summary = {}
    for phase in PHASES:
        folder = os.path.join(out, phase)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(".json"):
                os.remove(os.path.join(folder, name))
        gold, found, missing = phase_documents(data, phase, test_gold)
        written = []
        if gold is not None:
            payload = reference_bytes(gold, found)
            for task in scate.TASKS:
                if task.kind == "scate_intervals" and gold != "full":
                    missing[scate.REFERENCE_FILE.format(task=task.key, lang="en")] = (
                        "the gold has spans and types only: no interval scoring (give --test-gold)")
                    continue
                name = scate.REFERENCE_FILE.format(task=task.key, lang="en")
                write_reference(task, payload, os.path.join(folder, name))
                written.append(name)
        summary[phase] = {"written": written, "documents": len(found), "missing": missing}
    write_missing(out, summary)
    return summary


def write_missing(out, summary):
    """``<out>/MISSING.txt``: per phase, what is missing and why (empty when nothing is)."""
    rows = ["%s\t%s\t%s" % (phase, what, why) for phase, info in summary.items() for what, why in info["missing"].items()]
    with io.open(os.path.join(out, "MISSING.txt"), "w", encoding="utf-8") as handle:
        handle.write("".join(row + "\n" for row in rows))


def main(argv=None):
    """Command line; exit status 0 (built, possibly with files missing), 1 (a gold file the scorer refuses)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--test-gold", help="full SCATE test gold: <doc>/<doc>.TimeNorm.gold.completed.xml")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if not os.path.isdir(args.data):
        sys.stderr.write("Cannot build the SCATE reference: %s is not a folder\n" % args.data)
        return 1
    try:
        summary = build(args.data, args.out, args.test_gold)
    except BuildError as err:
        sys.stderr.write("Cannot build the SCATE reference: %s\n" % err)
        return 1
    for phase, info in summary.items():
        print("%s: %d documents, %s" % (phase, info["documents"], ", ".join(info["written"]) or "no reference file"))
        if info["missing"]:
            sys.stderr.write("WARNING: the %s phase LACKS %d item(s):\n" % (phase, len(info["missing"])))
            for what, why in sorted(info["missing"].items())[:20]:
                sys.stderr.write("  MISSING %s: %s\n" % (what, why))
            if len(info["missing"]) > 20:
                sys.stderr.write("  ... and %d more (see %s)\n" % (len(info["missing"]) - 20,
                                                                   os.path.join(args.out, "MISSING.txt")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
