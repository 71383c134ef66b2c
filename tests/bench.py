#!/usr/bin/env python3
"""Benchmark of the scoring program (``make bench``).

Targets: scoring the whole validation set, with every check, takes at most 1.5 times as long as merely
``json.load``-ing the reference and submission files for the gold submission (issue 24's measure: its 1.76x and
1.98x were that submission's), and at most 2.1 times for the noisy one (every warning class fires on it; a guard
against regressions: its best measured 1.78-1.95 when the gold one's measured 1.35-1.46, and at 1.5 it would have to
cost what the gold one costs, its per-item work being what the metrics define). The script builds the dev
references from the release (``python -m organiser reference``, cached under dist/bench/), writes two submissions
derived from them (the gold one, and a deterministic noisy one where about a fifth of the items are wrong,
which takes the slow paths of the scorer), then times, best of N runs each:
  load:  json.load of every reference and submission file;
  score: the whole scoring program in-process (load, check, score, write scores.txt/json/html).
Rounds are interleaved and the best of each side is kept; the ratio is taken on CPU time, which
other processes on the machine disturb far less than wall time (both are printed).
It prints both times and their ratio per submission and exits 1 when a ratio exceeds the target.

``--by-task`` adds each task folder's times and ratio (where the time goes). ``--before REV`` (``make bench
BEFORE=REV``) measures the scoring program of git revision REV and this tree's in one
run: REV's ``scoring_program/`` is extracted under the work folder, and the two scorers are timed in worker processes
taking turns, round after round, so that both see the same machine; each side's best ratios are compared.
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



#: The highest CPU ratio (scoring / json.load) each submission may take (see above).
TARGETS = {"gold": 1.5, "noisy": 2.1}


def verdict(ratios):
    """``(exit status, line)`` for ``{submission: ratio}`` against :data:`TARGETS`: 1 and "TOO SLOW" naming the
    submissions over their target when any is, else 0 and "OK"."""
    over = ["%s %.2f > %.1f" % (name, ratios[name], TARGETS[name]) for name in sorted(ratios)
            if ratios[name] > TARGETS[name]]
    targets = ", ".join("%s <= %.1f" % (name, TARGETS[name]) for name in sorted(ratios))
    if over:
        return 1, "bench: TOO SLOW (%s; targets: %s)" % ("; ".join(over), targets)
    return 0, "bench: OK (targets: %s)" % targets


def build_reference(data, out):
    """Build (once) the dev references of release ``data`` into ``out``; return the dev folder."""
    dev = os.path.join(out, "dev")
    if not os.path.isdir(dev):
        subprocess.check_call([sys.executable, "-m", "organiser", "reference", "--data", data, "--out", out,
                               "--report", os.path.join(out, "data_quality.md")], cwd=ROOT)
    return dev


def _noisy(value, rng):
    """A wrong but well-formed prediction for a gold string."""
    return value + "x" if rng.random() < 0.2 else value


def prediction(task, sentences, rng, noisy):
    """A submission file's JSON for reference ``sentences`` of ``task`` (gold, or about 20% wrong)."""
    noise = (lambda v: _noisy(v, rng)) if noisy else (lambda v: v)
    if task.kind == "tagging":
        return [[[form, noise(tag)] for form, tag in sent] for sent in sentences]
    if task.kind == "candidates":
        return [[[form, [noise(lemma), (lemma + "a").strip(), (lemma + "b").strip()]] for form, lemma in sent]
                for sent in sentences]
    if task.kind == "morph":
        return [[dict((k, noise(v) if k != "Token" else v) for k, v in tok.items()) for tok in sent]
                for sent in sentences]
    out = []
    for sent in sentences:
        golds = [m["masked_token"] if isinstance(m, dict) else m for m in (sent.get("masked_tokens") or [])]
        out.append({"masked": sent["masked"], "text": sent.get("text", ""),
                    "masked_tokens": [[noise(g), (g + "a").strip() or "a", "b"] for g in golds]})
    return out


def _scorer():
    """This tree's ST2024 declaration and the command-line entry point (imported when first needed, so that a
    worker imports the scoring program it was given)."""
    import st2024
    from evalkit import cli
    return st2024, cli


def write_submission(ref_dir, out_dir, noisy):
    """Write a submission derived from the references; return the list of files written."""
    rng = random.Random(2024)
    tasks = dict((task.folder, task) for task in _scorer()[0].TASKS)
    written = []
    for path in sorted(glob.glob(os.path.join(ref_dir, "*", "*.json"))):
        folder = os.path.basename(os.path.dirname(path))
        if folder not in tasks:
            continue
        with open(path, encoding="utf-8") as handle:
            sentences = json.load(handle)
        target = os.path.join(out_dir, folder, os.path.basename(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(prediction(tasks[folder], sentences, rng, noisy), handle, ensure_ascii=False)
        written.append(target)
    return written


def load_once(paths):
    """json.load every file of ``paths`` once."""
    for path in paths:
        with open(path, "rb") as handle:
            json.load(handle)


def score_once(ref_dir, sub_dir):
    """One full in-process run of the scoring program (outputs written to a temporary folder)."""
    out = tempfile.mkdtemp(prefix="bench-out-")
    devnull = open(os.devnull, "w")
    saved, sys.stdout = sys.stdout, devnull
    st2024, cli = _scorer()
    try:
        status = cli.main(st2024, ["--ref", ref_dir, "--submission", sub_dir, "--out", out, "--quiet"])
    finally:
        sys.stdout = saved
        devnull.close()
        shutil.rmtree(out)
    if status != 0:
        raise SystemExit("the scoring program exited with %d" % status)


def measure(action, *args):
    """(CPU seconds, wall seconds) of one call of ``action``."""
    cpu, wall = time.process_time(), time.perf_counter()
    action(*args)
    return time.process_time() - cpu, time.perf_counter() - wall


def compare(paths, ref_dir, sub_dir, runs):
    """Best (CPU, wall) times of loading and of scoring, measured in interleaved rounds.

    Interleaving and taking the best of each keep a busy machine from favouring one side; the
    ratio uses CPU time, which other processes disturb far less than wall time.
    """
    load = score = (float("inf"), float("inf"))
    for _ in range(runs):
        load = min(load, measure(load_once, paths))
        score = min(score, measure(score_once, ref_dir, sub_dir))
    return load, score


SUBMISSIONS = (("gold", False), ("noisy", True))


def by_task(ref_files, subs, ref_dir, runs):
    """``--by-task``: per task folder, the CPU time of json.load-ing its reference and submission files against the
    scorer's time on them (reading its reference, then scoring its submission file: ``scoring.load_reference`` and
    ``scoring.score_file``, timed from the outside), best of ``runs`` whole runs; what the whole run spends outside
    the files (finding them, the report, the outputs, freeing each reference) is printed apart. The ratios read a
    little higher than the whole run's (the timers' own cost)."""
    from evalkit import scoring
    timed = {}

    def timer(stage, function):
        def wrapper(task, *args, **kwargs):
            start = time.process_time()
            try:
                return function(task, *args, **kwargs)
            finally:
                key = (stage, task.folder)
                timed[key] = timed.get(key, 0.0) + time.process_time() - start
        return wrapper

    for name, _ in SUBMISSIONS:
        sub_dir, sub_files = subs[name]
        loads, best, best_total = {}, None, float("inf")
        for _ in range(runs):
            for path in ref_files + sub_files:
                folder = os.path.basename(os.path.dirname(path))
                cpu = measure(load_once, [path])[0]
                loads[path] = (folder, min(cpu, loads.get(path, (folder, cpu))[1]))
            timed.clear()
            saved = scoring.load_reference, scoring.score_file
            scoring.load_reference, scoring.score_file = timer("ref", saved[0]), timer("score", saved[1])
            try:
                total = measure(score_once, ref_dir, sub_dir)[0]
            finally:
                scoring.load_reference, scoring.score_file = saved
            if total < best_total:
                best_total, best = total, dict(timed)
        per_folder = {}
        for folder, cpu in loads.values():
            per_folder[folder] = per_folder.get(folder, 0.0) + cpu
        print("bench %s, by task folder (best of %d):" % (name, runs))
        for folder in sorted(set(folder for _, folder in best)):
            spent = best.get(("ref", folder), 0.0) + best.get(("score", folder), 0.0)
            print("  %-16s json.load %.3f s; scorer %.3f s (reference %.3f, submission %.3f); ratio %.2f"
                  % (folder, per_folder.get(folder, 0.0), spent, best.get(("ref", folder), 0.0),
                     best.get(("score", folder), 0.0), spent / per_folder[folder] if per_folder.get(folder) else 0))
        print("  outside the files: %.3f s of the run's %.3f s" % (best_total - sum(best.values()), best_total))


def prepare(data, work):
    """Build the references and write the two submissions; return ``(ref_dir, ref_files, {name: (sub_dir,
    sub_files)})``."""
    ref_dir = build_reference(data, os.path.join(work, "ref"))
    ref_files = [p for p in glob.glob(os.path.join(ref_dir, "*", "*.json"))]
    subs = {}
    for name, noisy in SUBMISSIONS:
        sub_dir = os.path.join(work, "sub-" + name)
        shutil.rmtree(sub_dir, ignore_errors=True)
        subs[name] = (sub_dir, write_submission(ref_dir, sub_dir, noisy))
    return ref_dir, ref_files, subs


def measure_all(ref_dir, ref_files, subs, runs):
    """``{name: (load, score)}``: the best (CPU, wall) times of each submission (:func:`compare`)."""
    return dict((name, compare(ref_files + subs[name][1], ref_dir, subs[name][0], runs)) for name, _ in SUBMISSIONS)


def worker(args):
    """``--worker``: time the scoring program on the submissions already written under ``--work``; print one JSON
    line ``{name: [load CPU, score CPU]}``."""
    ref_dir = os.path.join(args.work, "ref", "dev")
    ref_files = [p for p in glob.glob(os.path.join(ref_dir, "*", "*.json"))]
    subs = dict((name, (os.path.join(args.work, "sub-" + name),
                        glob.glob(os.path.join(args.work, "sub-" + name, "*", "*.json")))) for name, _ in SUBMISSIONS)
    times = measure_all(ref_dir, ref_files, subs, args.runs)
    print(json.dumps(dict((name, [load[0], score[0]]) for name, (load, score) in times.items())))
    return 0


def extract(revision, work):
    """The folder holding git revision ``revision``'s ``scoring_program/`` (extracted once under ``work``)."""
    try:
        commit = subprocess.check_output(["git", "rev-parse", "--verify", "--quiet", revision + "^{commit}"],
                                         cwd=ROOT, universal_newlines=True).strip()
    except subprocess.CalledProcessError:
        raise SystemExit("bench: %s is not a git revision of this repository" % revision)
    target = os.path.join(work, "before-" + commit[:12])
    if not os.path.isdir(os.path.join(target, "scoring_program")):
        os.makedirs(target, exist_ok=True)
        archive = subprocess.Popen(["git", "archive", commit, "scoring_program"], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.check_call(["tar", "-x", "-C", target], stdin=archive.stdout)
        if archive.wait() != 0:
            raise SystemExit("bench: git archive %s failed" % revision)
    return target, commit[:12]


def before_after(args, before, commit, rounds=3):
    """``--before REV``: REV's scorer (extracted in folder ``before``, :func:`extract`; ``commit`` its short hash)
    and this tree's, timed in worker processes taking turns for ``rounds`` rounds; print each round and each side's
    best ratios; return the exit status of this tree's best ratios."""
    sides = (("before %s" % commit, os.path.join(before, "scoring_program")),
             ("after (this tree)", os.path.join(ROOT, "scoring_program")))
    best = dict((label, dict((name, float("inf")) for name, _ in SUBMISSIONS)) for label, _ in sides)
    for number in range(1, rounds + 1):
        for label, program in sides:
            out = subprocess.check_output([sys.executable, os.path.abspath(__file__), "--worker", "--work", args.work,
                                           "--runs", str(args.runs), "--program", program], universal_newlines=True)
            times = json.loads(out.strip().splitlines()[-1])
            ratios = dict((name, score / load) for name, (load, score) in times.items())
            print("round %d, %-20s %s" % (number, label + ":", "; ".join(
                "%s %.2f" % (name, ratios[name]) for name, _ in SUBMISSIONS)))
            for name in ratios:
                best[label][name] = min(best[label][name], ratios[name])
    for label, _ in sides:
        print("best, %-21s %s" % (label + ":", "; ".join("%s %.2f" % (name, best[label][name])
                                                         for name, _ in SUBMISSIONS)))
    status, line = verdict(best[sides[1][0]])
    print(line)
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "st2024"))
    parser.add_argument("--work", default=os.path.join(ROOT, "dist", "bench"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", metavar="REV", help="also time git revision REV's scorer, taking turns")
    parser.add_argument("--by-task", action="store_true", help="also the time of each task folder")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--program", default=os.path.join(ROOT, "scoring_program"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, args.program)   # the scoring program timed (a worker's: the one it was given)
    if args.worker:
        return worker(args)
    if not os.path.isdir(args.data):
        print("bench: the release is not at %s; give --data (or SHARED=... to make)" % args.data)
        return 2
    before = extract(args.before, args.work) if args.before else None   # an unknown revision stops here
    ref_dir, ref_files, subs = prepare(args.data, args.work)
    if before:
        return before_after(args, *before)
    ratios = {}
    for name, (load, score) in sorted(measure_all(ref_dir, ref_files, subs, args.runs).items()):
        sub_files = subs[name][1]
        ratio = ratios[name] = score[0] / load[0]
        print("bench %-5s: %d files, %.1f MB; json.load %.3f s CPU (%.3f wall); scoring %.3f s CPU (%.3f wall); "
              "ratio %.2f (target <= %.1f)" % (name, len(ref_files) + len(sub_files),
                                               sum(os.path.getsize(p) for p in ref_files + sub_files) / 1e6,
                                               load[0], load[1], score[0], score[1], ratio, TARGETS[name]))
    if args.by_task:
        by_task(ref_files, subs, ref_dir, args.runs)
    status, line = verdict(ratios)
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
