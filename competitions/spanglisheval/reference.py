#!/usr/bin/env python3
"""SpanglishEval's reference builder: the paper's recipe -> reference data for the dev and test phases.

    python3 competitions/spanglisheval/reference.py --data DIR --out reference_data/spanglisheval [--jobs 2]

``DIR`` is a SpanglishEval folder (``bangor_raw/``, ``generation_resources/``, ``mappings/``, as in
``../shared/spanglisheval``). The set builder (:mod:`competitions.spanglisheval.build`, the heavy work,
organiser side only) writes its sets into ``<out>/sets/``; then, after parsing every set back with the
scorer's own reader:

- ``<out>/dev/reference.jsonl`` and ``<out>/test/reference.jsonl``: the phases' references (with the gold);
- ``<out>/public/``: what participants get (the bundle puts it in the starting kit under ``data/``): the
  sets of both splits without their gold (``{dev,test}/sets.jsonl``), the dev reference (its gold is public,
  for local scoring) and the statistics of the rebuilt sets (``statistics.md``).

The test gold is built from public data (``bangor_test_gold``), so the pages say so. A split whose quotas
cannot be filled (a small dataset, such as the embedded sample) is built with what there is, loudly.
Organiser tooling (run with the repository's Python).
"""
import argparse
import os
import shutil
import sys
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


def build(data, out, jobs=2, limit=None, quotas=None):
    """Build the sets and lay out the phases and the public folder; return ``{phase: (sets, funnel)}``."""
    sets_dir = os.path.join(out, "sets")
    built = builder.build(data, sets_dir, quotas=quotas, jobs=jobs, limit=limit)
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
        copy(os.path.join(sets_dir, split, SETS), os.path.join(public, phase, SETS))
    copy(os.path.join(sets_dir, "dev", REFERENCE), os.path.join(public, "dev", REFERENCE))
    copy(os.path.join(sets_dir, "statistics.md"), os.path.join(public, "statistics.md"))
    return summary


def main(argv=None):
    """Command line; exit status 0 (built, possibly short of the quotas) or 1 (the data cannot make sets)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="SpanglishEval folder (bangor_raw/, generation_resources/, mappings/)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=2, help="builder processes (the sets do not depend on it)")
    parser.add_argument("--limit", type=int, help="use only the first N lines of each split (quick builds)")
    parser.add_argument("--cs", type=int, help="code-switched golds per split (default: the data's quotas.json, "
                        "else %d)" % builder.QUOTAS["cs"])
    parser.add_argument("--mono", type=int, help="monolingual golds per split (default: the data's quotas.json, "
                        "else %d)" % builder.QUOTAS["mono"])
    args = parser.parse_args(argv)
    started = time.time()
    try:
        summary = build(args.data, args.out, args.jobs, args.limit, builder.command_line_quotas(args))
    except DataError as err:
        sys.stderr.write("Cannot build the SpanglishEval reference: %s\n" % err)
        return 1
    for phase, (count, funnel) in summary.items():
        print("%s: %d sets in %s" % (phase, count, os.path.join(args.out, phase, REFERENCE)))
        short = dict((kind, n) for kind, n in funnel["shortfall"].items() if n > 0)
        if short:
            sys.stderr.write("WARNING: the %s phase is short of its quotas (%s): the data has too few usable "
                             "lines\n" % (phase, ", ".join("%d %s" % (n, kind) for kind, n in sorted(short.items()))))
    print("statistics of the rebuilt sets (the paper's Table 2): %s" % os.path.join(args.out, "sets", "statistics.md"))
    print("reference built in %.1f s with %d process(es)" % (time.time() - started, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
