#!/usr/bin/env python3
"""SCATE's reference builder: the data layout -> reference data for the dev and test phases.

    python -m organiser reference --competition scate --data DIR [--test-gold DIR] --out reference_data/scate

``DIR`` is laid out as ``../shared/scate`` (see ``starting_kit/scate_data.py``). The dev phase is AQUAINT with
full SCATE gold: ``<out>/dev/norm_en.json`` (interval F1, the ranking task) and ``<out>/dev/spans_en.json``
(identification F1 on the same gold). The test phase is TempEval-2013 platinum: with full test gold
(``--test-gold DIR/<doc>/<doc>.TimeNorm.gold.completed.xml``), both files as for dev; without it, the public
spans-only gold (``test_te3_spans_only/``) gives ``<out>/test/spans_en.json`` alone (the identification
leaderboard). That spans-only gold is in the public release, so ``<out>/public_gold.json`` says so and the bundle's
test phase is a labelled practice phase. Every gold file is read by the scorer's safe reader, its spans checked
against its text. Documents or files it lacks are listed loudly on stderr and in ``<out>/MISSING.txt``. What
participants get, in the release's layout: ``<out>/public/dev/`` (the texts and full gold of AQUAINT and TimeBank,
and the schema: in the starting kit) and ``<out>/public/test/`` (the test texts and creation times, released when
the test phase opens). Organiser tooling.
"""
import argparse
import io
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)

import scate  # noqa: E402
import scate_data  # noqa: E402
from evalkit.messages import DataError  # noqa: E402
from evalkit.timenorm.kind import KINDS, REFERENCE_FORMAT, name_digest  # noqa: E402

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


def other_splits(data, phase):
    """``{split: [document names]}`` of the data's splits other than ``phase`` (the reference's ``other_splits``:
    files submitted for another split's documents are said to be so); splits without documents are left out. The
    test split's input is released when the test phase opens: the other phases' references give its documents as
    digests (:func:`evalkit.timenorm.kind.name_digest`), which name the split of a file a participant sends for
    one of them without writing the names."""
    found = {}
    for split in sorted(scate_data.SPLITS):
        docs = scate_data.documents(data, split) if split != phase else []
        if docs:
            found[split] = [name_digest(doc) for doc in docs] if split == "test" else docs
    return found


def reference_bytes(gold, found, others=None):
    """The reference file (JSON bytes) of the documents ``found``; ``others``: :func:`other_splits`."""
    documents = []
    for doc, path, text, dct in found:
        with open(path, "rb") as handle:
            xml = handle.read().decode("utf-8")
        documents.append({"name": doc, "dct": dct, "text": text, "xml": xml})
    value = {"format": REFERENCE_FORMAT, "gold": gold, "documents": documents}
    if others:
        value["other_splits"] = others
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
            payload = reference_bytes(gold, found, other_splits(data, phase))
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
    write_public(data, out, test_gold)
    return summary


#: Why the spans-only test gold is public (``public_gold.json``).
PUBLIC_TEST_GOLD = ("the spans-only test gold is the public TempEval-2013 one, test_te3_spans_only/ in the release: "
                    "resubmitting it scores 1.0")
#: The release's folders participants get, by phase (the test gold is never among them).
PUBLIC = {"dev": ("text/AQUAINT", "text/TimeBank", "train_dev/AQUAINT", "train_dev/TimeBank", "schema"),
          "test": ("text/te3-platinum",)}


def write_public(data, out, test_gold):
    """``<out>/public/<phase>/``: the release's folders of :data:`PUBLIC`, and ``<out>/public_gold.json`` when the
    test gold is the public spans-only one; return the number of files written."""
    public = os.path.join(out, "public")
    if os.path.isdir(public):
        shutil.rmtree(public)
    written = 0
    for phase, folders in PUBLIC.items():
        for folder in folders:
            source = os.path.join(data, folder)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(public, phase, folder))
                written += sum(len(files) for _, _, files in os.walk(source))
    marker = os.path.join(out, "public_gold.json")
    if test_gold and os.path.isfile(marker):
        os.remove(marker)
    elif not test_gold and os.path.isdir(os.path.join(out, "test")) and os.listdir(os.path.join(out, "test")):
        with io.open(marker, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"test": PUBLIC_TEST_GOLD}, indent=1) + "\n")
    return written


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
    parser.add_argument("--report", help="also write the list of what is missing there")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.data):
        sys.stderr.write("Cannot build the SCATE reference: %s is not a folder\n" % args.data)
        return 1
    try:
        summary = build(args.data, args.out, args.test_gold)
    except BuildError as err:
        sys.stderr.write("Cannot build the SCATE reference: %s\n" % err)
        return 1
    if args.report:
        os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
        shutil.copyfile(os.path.join(args.out, "MISSING.txt"), args.report)
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
