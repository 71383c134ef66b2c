#!/usr/bin/env python3
"""SpanglishEval's reference builder: the paper's recipe -> reference data for the dev and test phases.

    python -m organiser reference --competition spanglisheval --data DIR [--test-gold DIR] --out REF [--jobs 2]

``DIR`` is a SpanglishEval folder (``bangor_raw/``, ``generation_resources/``, ``mappings/``, as in
``../shared/spanglisheval``). The set builder (:mod:`competitions.spanglisheval.build`, the heavy work,
organiser side only) writes its sets into ``<out>/sets/``; then, after parsing every set back with the
scorer's own reader:

- ``<out>/dev/reference.jsonl`` and ``<out>/test/reference.jsonl``: the phases' references (with the gold);
- ``<out>/public/dev/dev/``: what participants get with the starting kit (under ``data/``): the dev sets without
  their gold (``sets.jsonl``) and the dev reference (its gold is public, for local scoring);
- ``<out>/public/test/test/sets.jsonl``: the test sets without their gold, released when the test phase opens;
- ``<out>/statistics.md``: the statistics of the rebuilt sets (the pages show them).

The test sets are built from ``bangor_raw/bangor_test_gold``. Its sentences are the public Bangor Miami corpus's,
so anyone can look the gold sentence of a set up: ``<out>/public_gold.json`` says so, and the bundle's test phase is
a labelled practice phase. ``--test-gold DIR`` takes the test sentences from ``DIR/bangor_test_gold`` instead (a
file in the same format that participants cannot see): the test phase is then a real one. A split whose quotas
cannot be filled (a small dataset, such as the embedded sample) is built with what there is, loudly.
Organiser tooling (run with the repository's Python).
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _path in (ROOT, os.path.join(ROOT, "scoring_program")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from competitions.spanglisheval import build as builder  # noqa: E402
from evalkit import choice  # noqa: E402
from evalkit.messages import DataError  # noqa: E402

REFERENCE = "reference.jsonl"
SETS = "sets.jsonl"
PHASES = (("dev", "dev"), ("test", "test"))


def check_reference(path):
    """The number of sets of a written reference, parsed back with the scorer; DataError when broken."""
    with open(path, "rb") as handle:
        data = handle.read()
    return len(choice.ChoiceKind().parse_reference_text(data, path, None, None))


def copy(source, target):
    """Copy one file, creating the target's folder."""
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        os.makedirs(folder)
    shutil.copyfile(source, target)


#: Why the test gold built from the data's own test split is public (``public_gold.json``).
PUBLIC_TEST_GOLD = ("the gold sentences are those of the public Bangor Miami corpus's test split, "
                    "bangor_raw/bangor_test_gold: anyone can look them up")


def with_test_gold(data, test_gold, folder):
    """A data folder in ``folder`` that is ``data`` with its test split taken from ``test_gold``
    (``DIR/bangor_test_gold`` or that file itself), by symbolic links."""
    source = os.path.join(test_gold, "bangor_test_gold") if os.path.isdir(test_gold) else test_gold
    if not os.path.isfile(source):
        raise DataError(source, "", "no test gold file (expected bangor_test_gold, one tagged sentence a line)")
    for name in os.listdir(data):
        if name != "bangor_raw":
            os.symlink(os.path.abspath(os.path.join(data, name)), os.path.join(folder, name))
    raw = os.path.join(folder, "bangor_raw")
    os.makedirs(raw)
    for split in ("train", "dev"):
        os.symlink(os.path.abspath(builder.gold_path(data, split)), builder.gold_path(folder, split))
    os.symlink(os.path.abspath(source), builder.gold_path(folder, "test"))
    return folder


def build(data, out, jobs=2, limit=None, quotas=None, test_gold=None):
    """Build the sets and lay out the phases and the public folder; return ``{phase: (sets, funnel)}``."""
    sets_dir = os.path.join(out, "sets")
    staging = tempfile.mkdtemp(prefix="spanglisheval-data-") if test_gold else None
    try:
        source = with_test_gold(data, test_gold, staging) if test_gold else data
        built = builder.build(source, sets_dir, quotas=quotas, jobs=jobs, limit=limit)
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)
    public = os.path.join(out, "public")
    if os.path.isdir(public):
        shutil.rmtree(public)
    summary = {}
    for phase, split in PHASES:
        records, funnel = built[split]
        if not records:
            raise DataError(builder.gold_path(data, split), "", "no set could be built from this split")
        target = os.path.join(out, phase, REFERENCE)
        copy(os.path.join(sets_dir, split, REFERENCE), target)
        summary[phase] = (check_reference(target), funnel)
        copy(os.path.join(sets_dir, split, SETS), os.path.join(public, phase, phase, SETS))
    copy(os.path.join(sets_dir, "dev", REFERENCE), os.path.join(public, "dev", "dev", REFERENCE))
    copy(os.path.join(sets_dir, "statistics.md"), os.path.join(out, "statistics.md"))
    public_gold = os.path.join(out, "public_gold.json")
    if test_gold:
        if os.path.isfile(public_gold):
            os.remove(public_gold)
    else:
        with open(public_gold, "w", encoding="utf-8") as handle:
            json.dump({"test": PUBLIC_TEST_GOLD}, handle, indent=1)
    return summary


def main(argv=None):
    """Command line; exit status 0 (built, possibly short of the quotas) or 1 (the data cannot make sets)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="SpanglishEval folder (bangor_raw/, generation_resources/, mappings/)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--test-gold", help="hidden test sentences: DIR/bangor_test_gold (default: the data's own, "
                        "which is public: the test phase is then a practice phase)")
    parser.add_argument("--report", help="where the builder's report goes (the statistics are also written there)")
    parser.add_argument("--jobs", type=int, default=2, help="builder processes (the sets do not depend on it)")
    parser.add_argument("--limit", type=int, help="use only the first N lines of each split (quick builds)")
    parser.add_argument("--cs", type=int, help="code-switched golds per split (default: the data's quotas.json, "
                        "else %d)" % builder.QUOTAS["cs"])
    parser.add_argument("--mono", type=int, help="monolingual golds per split (default: the data's quotas.json, "
                        "else %d)" % builder.QUOTAS["mono"])
    args = parser.parse_args(argv)
    started = time.time()
    try:
        summary = build(args.data, args.out, args.jobs, args.limit, builder.command_line_quotas(args), args.test_gold)
    except DataError as err:
        sys.stderr.write("Cannot build the SpanglishEval reference: %s\n" % err)
        return 1
    for phase, (count, funnel) in summary.items():
        print("%s: %d sets in %s" % (phase, count, os.path.join(args.out, phase, REFERENCE)))
        short = dict((kind, n) for kind, n in funnel["shortfall"].items() if n > 0)
        if short:
            sys.stderr.write("WARNING: the %s phase is short of its quotas (%s): the data has too few usable "
                             "lines\n" % (phase, ", ".join("%d %s" % (n, kind) for kind, n in sorted(short.items()))))
    print("statistics of the rebuilt sets (the paper's Table 2): %s" % os.path.join(args.out, "statistics.md"))
    if args.report:
        copy(os.path.join(args.out, "statistics.md"), args.report)
    if not args.test_gold:
        sys.stderr.write("WARNING: the test sets are built from the public corpus (%s): the test phase will be a "
                         "practice phase; give --test-gold (TEST_GOLD=DIR) with hidden test sentences for a real "
                         "one\n" % PUBLIC_TEST_GOLD)
    print("reference built in %.1f s with %d process(es)" % (time.time() - started, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
