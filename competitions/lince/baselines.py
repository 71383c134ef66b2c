#!/usr/bin/env python3
"""LinCE's baseline table on the dev phase: floor, baseline and reference systems, scored by the scorer.

    python -m organiser baselines --competition lince --data DIR --reference REF_DIR --out DIR [--system NAME=PATH ...]

Writes ``<out>/submissions/lince-dev-{floor,baseline}.zip`` (the starting kit's systems, trained on
each dataset's train split) and, when the data has public test files, ``lince-test-{floor,baseline}.zip``
(the baseline rows of the organiser's final results, ``make results COMPETITION=lince``), scores the dev
ones and every reference system given with ``--system`` (a
system's dev predictions in the release's CoNLL layout, ``token<TAB>label`` lines and ``# sent_enum``
headers, e.g. ``mbert=../shared/lince/systems/mbert_dev_predictions.conll`` for ``lid_spaeng``: the
dataset is ``NAME@DATASET=PATH``, default ``lid_spaeng``; every ``<DIR>/systems/<name>_dev_predictions.conll``
is added by itself, as the release's lid_spaeng predictions) and writes ``<out>/baselines/table.md`` and
``<out>/baselines.json``: one row per system, one column per dataset, then the mean.
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
import lince  # noqa: E402
import lince_baselines  # noqa: E402
import lince_data  # noqa: E402
from evalkit import scoring  # noqa: E402


def conll_to_submission(path, dataset, out_zip):
    """Write a submission zip holding one dataset's predictions taken from a CoNLL prediction file."""
    task, pair = next((t, p) for t, p in lince.DATASETS if lince.dataset_id(t, p) == dataset)
    sentences = lince_data.read_conll(path)
    if task.kind == "sentence_labels":
        text = "".join(header[-1].strip() + "\n" for header, _ in sentences)
    else:
        text = "".join("".join(row[-1] + "\n" for row in rows) + "\n" for _, rows in sentences)
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(lince.SUBMISSION_FILE.format(task=task.key, lang=pair), text)


def test_submission(data, name, subs):
    """Write system ``name``'s predictions for the public test files, ``<subs>/lince-test-<name>.zip``; return
    its path, or None (and no file) when the data has no test file."""
    path = os.path.join(subs, "lince-test-%s.zip" % name)
    done = lince_baselines.make(lince, data, "test", name, path)
    if all(what.startswith("skipped") for _, what in done):
        os.remove(path)
        return None
    return path


def row(name, report):
    """One table row: the system's dataset scores (None when the dataset was not submitted) and the mean."""
    scores = dict((lince.dataset_id(lince.TASKS_BY_FOLDER[e["task"]], e["lang"]),
                   e["score"] if e["status"] != "missing" else None) for e in report["entries"])
    return {"system": name, "scores": scores, "avg_score": report["scores"]["avg_score"],
            "signature": report["signature"]}


def table(rows, datasets):
    """The Markdown table of ``rows``."""
    head = "| system | " + " | ".join(datasets) + " | avg_score |\n|---|" + "---:|" * (len(datasets) + 1) + "\n"
    body = ""
    for r in rows:
        cells = ["-" if r["scores"].get(d) is None else "%.4f" % r["scores"][d] for d in datasets]
        body += "| %s | %s | %.4f |\n" % (r["system"], " | ".join(cells), r["avg_score"])
    return head + body


def table_path(out, name):
    """``<out>/baselines/<name>`` (its folder created): where the bundle builder looks for the baseline table."""
    os.makedirs(os.path.join(out, "baselines"), exist_ok=True)
    return os.path.join(out, "baselines", name)


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--reference", required=True, help="the reference folder (its dev/ scores the rows)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--system", action="append", default=[], help="NAME[@DATASET]=PATH of dev predictions")
    args = parser.parse_args(argv)
    dev_reference = os.path.join(args.reference, "dev")
    subs = os.path.join(args.out, "submissions")
    os.makedirs(subs, exist_ok=True)
    systems = []
    for name in ("floor", "baseline"):
        path = os.path.join(subs, "lince-dev-%s.zip" % name)
        lince_baselines.make(lince, args.data, "dev", name, path)
        systems.append((name, path))
        test_submission(args.data, name, subs)
    found = os.path.join(args.data, "systems")
    if os.path.isdir(found):
        for name in sorted(os.listdir(found)):
            if name.endswith("_dev_predictions.conll"):
                args.system.append("%s=%s" % (name[:-len("_dev_predictions.conll")], os.path.join(found, name)))
    for spec in args.system:
        label, path = spec.split("=", 1)
        name, _, dataset = label.partition("@")
        if not os.path.isfile(path):
            print("reference system %s: %s is absent, row skipped" % (name, path))
            continue
        zipped = os.path.join(subs, "lince-dev-%s.zip" % name)
        conll_to_submission(path, dataset or "lid_spaeng", zipped)
        systems.append((name, zipped))
    rows = [row(name, scoring.evaluate(lince, dev_reference, path)) for name, path in systems]
    datasets = [d for d in (lince.dataset_id(t, p) for t, p in lince.DATASETS)
                if any(r["scores"].get(d) is not None or d in r["scores"] for r in rows)]
    with io.open(table_path(args.out, "table.md"), "w", encoding="utf-8") as handle:
        handle.write(table(rows, datasets))
    with io.open(table_path(args.out, "table.json"), "w", encoding="utf-8") as handle:
        json.dump(rows, handle, indent=1)
    sys.stdout.write(table(rows, datasets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
