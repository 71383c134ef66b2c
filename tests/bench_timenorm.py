#!/usr/bin/env python3
"""Benchmark of the time normalisation library on ../shared/scate (AQUAINT + TimeBank, 78 documents).

Times, best of N rounds on CPU time (wall time printed too):
  read:  reading the texts and the SCATE and TimeML Anafora files;
  score: read + interpret every SCATE graph (both selections), interpret the TimeML values, the interval metric
         (gold against the TimeML items), the Table 2 comparison and the entity composition counts.
Exits 1 when scoring takes more than TARGET seconds of CPU time. Usage: python tests/bench_timenorm.py [--data DIR]
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from evalkit.timenorm import items, metrics  # noqa: E402
from scate_documents import read_documents  # noqa: E402

TARGET = 10.0


def read_all(data):
    """Every (gold, system, creation time) of AQUAINT and TimeBank."""
    return [(gold, system, dct) for corpus in ("AQUAINT", "TimeBank")
            for _, gold, system, dct in read_documents(data, corpus)]


def score_all(data):
    """Read and score everything; return the figures (so nothing is optimised away)."""
    docs = read_all(data)
    interval_pairs, cross_pairs, composition = [], [], [0, 0, 0]
    for gold, system, dct in docs:
        gold_items, _ = items.scate_items(gold, dct)
        system_items = items.timeml_items(system)
        interval_pairs.append((gold_items, system_items))
        cross_pairs.append((items.scate_cross_items(gold, dct), system_items))
        for index, value in enumerate(metrics.entity_counts(gold, gold, "composition")):
            composition[index] += value
    return (metrics.pooled_interval_scores(interval_pairs), metrics.cross_scheme_scores(cross_pairs), composition,
            len(docs))


def timed(function, data):
    """(cpu seconds, wall seconds, result)."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = function(data)
    return time.process_time() - cpu, time.perf_counter() - wall, result


def main():
    """Run the rounds, print the timings, return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "scate"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best = {"read": None, "score": None}
    result = None
    for _ in range(args.rounds):
        for name, function in (("read", read_all), ("score", score_all)):
            cpu, wall, value = timed(function, args.data)
            if best[name] is None or cpu < best[name][0]:
                best[name] = (cpu, wall)
            if name == "score":
                result = value
    print("documents: %d" % result[3])
    for name in ("read", "score"):
        print("%-6s cpu %.2f s  wall %.2f s" % (name, best[name][0], best[name][1]))
    print("interval P/R/F1 %.3f/%.3f/%.3f; Table 2 P/R/F1 %.3f/%.3f/%.3f" % (result[0] + result[1]))
    if best["score"][0] > TARGET:
        print("FAIL: scoring took %.2f s of CPU, target %.1f s" % (best["score"][0], TARGET))
        return 1
    print("OK: scoring within %.1f s of CPU" % TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
