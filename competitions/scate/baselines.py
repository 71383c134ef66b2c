#!/usr/bin/env python3
"""SCATE's baseline table on the dev phase: the starting kit's rule-based baseline and an empty floor, scored
by the scoring program.

    python -m organiser baselines --competition scate --data DIR --reference REF_DIR --out DIR

Writes ``<out>/submissions/scate-dev-{floor,baseline}.zip`` (and ``scate-test-baseline.zip`` when the data has
the test texts: what ``make check`` submits to the test phase), scores the dev ones against ``REF_DIR/dev``
and writes ``<out>/baselines/table.md`` and ``<out>/baselines/table.json``: one row per system with the ranking score, the
interval precision, recall and F1 and the entity identification and composition F1. Organiser tooling.
"""
import argparse
import io
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)

import scate  # noqa: E402
import scate_baseline  # noqa: E402
import scate_data  # noqa: E402
from evalkit import scoring  # noqa: E402
from evalkit.layout import NothingToScore, ReferenceError  # noqa: E402

#: The table's columns: (score key, heading).
COLUMNS = (("avg_score", "ranking score"), ("en_norm_interval_p", "interval P"),
           ("en_norm_interval_r", "interval R"), ("en_norm_interval_f1", "interval F1"),
           ("en_spans_identification_f1", "identification F1"), ("en_norm_composition_f1", "composition F1"))


def floor(data, split, out_zip):
    """The floor: one empty Anafora file per document (every score is 0)."""
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as archive:
        for doc in scate_data.documents(data, split):
            archive.writestr(scate_data.submission_name(doc), "<data><annotations></annotations></data>\n")


def table(rows):
    """The Markdown table of ``rows`` (a score the phase lacks is shown as -)."""
    head = "| system | " + " | ".join(label for _, label in COLUMNS) + " |\n|---|" + "---:|" * len(COLUMNS) + "\n"
    body = ""
    for row in rows:
        cells = ["-" if row["scores"].get(key) is None else "%.4f" % row["scores"][key] for key, _ in COLUMNS]
        body += "| %s | %s |\n" % (row["system"], " | ".join(cells))
    return head + body


def table_path(out, name):
    """``<out>/baselines/<name>`` (its folder created): where the bundle builder looks for the baseline table."""
    os.makedirs(os.path.join(out, "baselines"), exist_ok=True)
    return os.path.join(out, "baselines", name)


def main(argv=None):
    """Command line; exit status 0, or 1 when the dev reference cannot be used."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--reference", required=True, help="the reference folder (its dev/ scores the rows)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    dev_reference = os.path.join(args.reference, "dev")
    subs = os.path.join(args.out, "submissions")
    os.makedirs(subs, exist_ok=True)
    regexes = os.path.join(args.data, scate_baseline.REGEX_FILE)
    systems = []
    for name in ("floor", "baseline"):
        path = os.path.join(subs, "scate-dev-%s.zip" % name)
        if name == "floor":
            floor(args.data, "dev", path)
        else:
            scate_baseline.make(args.data, "dev", path, regexes)
        systems.append((name, path))
    if scate_data.documents(args.data, "test"):
        scate_baseline.make(args.data, "test", os.path.join(subs, "scate-test-baseline.zip"), regexes)
    rows = []
    for name, path in systems:
        try:
            report = scoring.evaluate(scate, dev_reference, path)
        except (ReferenceError, NothingToScore) as err:
            sys.stderr.write("Cannot score the %s on %s: %s\n" % (name, dev_reference, err))
            return 1
        rows.append({"system": name, "scores": dict(report["scores"]), "signature": report["signature"]})
    with io.open(table_path(args.out, "table.md"), "w", encoding="utf-8") as handle:
        handle.write(table(rows))
    with io.open(table_path(args.out, "table.json"), "w", encoding="utf-8") as handle:
        json.dump(rows, handle, indent=1)
    sys.stdout.write(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
