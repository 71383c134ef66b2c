#!/usr/bin/env python3
"""Benchmark of the organiser results (``make bench-results``; not a timed test).

Target (issue 13): 100 submissions on the release's full validation set (every reference file of the
dev phase) re-scored and ranked with 1000 bootstrap resamples in under 60 s on a 2-core machine.
The script builds the dev references of the release (``python -m organiser reference``, cached under
dist/bench/), writes 100 synthetic teams as ``<team>/<name>.zip`` (item noise from 2% to 50%, seeded:
cached too), then times one ``python -m organiser results`` run (without baselines) and prints the wall
time, the CPU time of the run and its worker processes, and the machine's load average before and after.
"""
import argparse
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import st2024  # noqa: E402
import results_synth  # noqa: E402
from bench import build_reference  # noqa: E402

TARGET = 60.0


def write_teams(ref_dir, out, count):
    """``count`` teams ``team-NNN/submission.zip`` with noise spread evenly over [0.02, 0.5] (cached)."""
    stamp = os.path.join(out, ".complete-%d" % count)
    if os.path.exists(stamp):
        return out
    cache = {}
    for i in range(count):
        noise = 0.02 + 0.48 * i / max(1, count - 1)
        path = os.path.join(out, "team-%03d" % i, "submission.zip")
        if not os.path.exists(path):
            results_synth.write_team(st2024, ref_dir, path + ".part", noise, i, cache=cache)
            os.replace(path + ".part", path)
    open(stamp, "w").close()
    return out


def main():
    """Build (or reuse) the reference and the teams, time one results run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "st2024"))
    parser.add_argument("--work", default=os.path.join(ROOT, "dist", "bench"))
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        print("bench-results: the release is not at %s; give --data (or SHARED=... to make)" % args.data)
        return 2
    ref_dir = build_reference(args.data, os.path.join(args.work, "ref"))
    files = sum(len(files) for _, _, files in os.walk(ref_dir) if files) - 1   # minus excluded.json
    teams = write_teams(ref_dir, os.path.join(args.work, "results-teams"), args.teams)
    out = os.path.join(args.work, "results-out")
    load_before = os.getloadavg()
    started = time.perf_counter()
    command = [sys.executable, "-m", "organiser", "results", "--reference", ref_dir, "--submissions", teams,
               "--out", out, "--no-baselines", "--resamples", str(args.resamples)]
    status = subprocess.call(command, cwd=ROOT)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_after = os.getloadavg()
    print("bench-results: %d submissions x %d reference files, %d resamples: %.1f s wall (target < %.0f s), "
          "%.1f s CPU in the run and its workers, peak RSS of the largest process %.0f MB; load average %.2f "
          "before, %.2f after (%d cores)" % (args.teams, files, args.resamples, wall, TARGET,
                                             usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0,
                                             load_before[0], load_after[0], os.cpu_count() or 1))
    if status != 0:
        print("bench-results: the results command exited with %d" % status)
        return 1
    print("bench-results: %s" % ("OK" if wall < TARGET else "OVER TARGET"))
    return 0 if wall < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
