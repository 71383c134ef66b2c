"""The whole life of a competition on Codabench, from the command line, against the recorded instance.

``python tests/codabench_life.py [--work DIR]`` starts the stand-in of tests/codabench_replay.py (every answer
recorded on a real Codabench, or derived from its source where no recording holds one: see there), serves as the
teams' files zips made from the build's test baseline as the recorded teams made theirs, and runs, each as a user
would in a shell, with its output: ``upload``, ``publish``, ``participants`` (then ``--approve``), ``phases``,
``open-test``, ``reference`` (a rebuilt reference, then one drawn otherwise: refused), ``pull`` (while a
submission's scores are still arriving), ``pull`` again once a team's submission was rerun, ``leaderboard`` and
``make results`` on the pulled folder. Needs a build (``make``) and ``../shared/platforms/codabench-api``.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import codabench_replay as replay_module  # noqa: E402
from conftest import ROOT  # noqa: E402

SUBTASK = "unconstrained"


def moved_split(source, target):
    """A copy of the reference zip ``source`` whose split makes one more item public (as a rebuild that drew the
    split again would)."""
    import json
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "split.json":
                split = json.loads(data.decode("utf-8"))
                name = sorted(split["files"])[0]
                spec = split["files"][name]
                extra = min(set(range(spec["items"])) - set(spec["indices"]))
                spec["indices"] = sorted(spec["indices"] + [extra])
                data = json.dumps(split, indent=1).encode("utf-8")
            zout.writestr(info, data)
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--ref", default=os.path.join(ROOT, "reference_data"))
    parser.add_argument("--work", help="folder for the token, the pull and the snapshots (default: a temporary one)")
    args = parser.parse_args(argv)
    if not replay_module.available():
        sys.exit("the recorded responses are not at %s" % replay_module.RECORDED)
    work = args.work or tempfile.mkdtemp(prefix="codabench-life-")
    os.makedirs(work, exist_ok=True)
    replay = replay_module.Replay()
    with open(os.path.join(args.dist, "submissions", "baseline-%s-test.zip" % SUBTASK), "rb") as handle:
        zips = replay_module.scenario_zips(handle.read())
    test_reference = os.path.join(args.dist, "reference", "%s-test.zip" % SUBTASK)
    with open(test_reference, "rb") as handle:
        replay_module.life(replay, zips, handle.read())
    replay.route("GET", "/api/submissions/", 21, 22, phase=4)
    token_file = os.path.join(work, "codabench-token")
    with open(token_file, "w") as handle:
        handle.write(replay_module.TOKEN + "\n")
    os.chmod(token_file, 0o600)
    env = dict(os.environ, CODABENCH_URL=replay.base, CODABENCH_TOKEN_FILE=token_file)
    env.pop("CODABENCH_TOKEN", None)

    def rel(path):
        return os.path.relpath(path, ROOT)
    pulled, snapshots = os.path.join(work, "pull"), os.path.join(work, "leaderboards")
    py = [sys.executable, "-m", "organiser", "codabench"]

    def run(argv, note=None):
        if note:
            print("\n# %s" % note)
        shown = ["python" if a == sys.executable else a for a in argv]
        print("$ %s" % " ".join(shown))
        process = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True)
        sys.stdout.write(process.stdout)
        print("[exit %d]" % process.returncode)
        return process

    print("# the stand-in Codabench: %s (CODABENCH_URL); token in %s (mode 600, CODABENCH_TOKEN_FILE)"
          % (replay.base, token_file))
    run(py + ["upload", rel(os.path.join(args.dist, "bundles", "st2024-%s-codabench.zip" % SUBTASK)), "--poll", "0.5"],
        "upload the bundle")
    run(py + ["publish", "--competition", "2"], "publish it")
    run(py + ["participants", "--competition", "2"], "three teams registered")
    run(py + ["participants", "--competition", "2", "--approve"], "approve the pending ones")
    run(py + ["phases", "--competition", "2"])
    run(py + ["open-test", "--competition", "2", "--phase", "4", "--zip",
              rel(os.path.join(args.dist, "public_data", "%s-test.zip" % SUBTASK))],
        "the test phase opens: release its input")
    fixed = os.path.join(work, "%s-test.zip" % SUBTASK)
    shutil.copyfile(test_reference, fixed)
    run(py + ["reference", "--competition", "2", "--phase", "4", "--zip", fixed, "--private",
              rel(os.path.join(args.ref, "private", "test"))],
        "a gold fixed and rebuilt with the same split: replace the test phase's reference")
    run(py + ["reference", "--competition", "2", "--phase", "4", "--zip",
              moved_split(test_reference, os.path.join(work, "redrawn-test.zip")), "--private",
              rel(os.path.join(args.ref, "private", "test"))],
        "a rebuild that drew the split again is refused")
    run(py + ["pull", "--phase", "4", "--out", pulled, "--poll", "0.3", "--settle", "2"],
        "the teams submitted (two each); one submission is Finished, its scores still arriving")
    replay.route("GET", "/api/submissions/", replay_module.Answer(200, replay_module.after_rerun_list()), phase=4)
    replay.recorded_route(46)
    run(py + ["pull", "--phase", "4", "--out", pulled, "--poll", "0.3", "--settle", "2"],
        "the organiser reran team-a's first submission (8), then 8 again (9, not scored yet): pull again")
    run(["cat", os.path.join(pulled, "codabench-manifest.csv")])
    run(py + ["leaderboard", "--phase", "4", "--out", snapshots], "the leaderboard as it stands")
    run(["make", "--no-print-directory", "-o", ".venv/.stamp", "results", "SUBMISSIONS=%s" % pulled,
         "DIST=%s" % rel(args.dist), "REF=%s" % rel(args.ref), "RESULTS_OPTIONS=--jobs 1"],
        "the final results, ranked on the private part (the platform's scores the pull kept are compared with the "
        "kit's re-score of the public part: the stand-in's are those the recorded instance gave its own build's "
        "files, so its notes name a difference)")
    run(["cat", os.path.join(args.dist, "results", "ranking.csv")])
    run(["sed", "-n", "/^## Submissions not in/,$p", os.path.join(args.dist, "results", "results.md")])
    replay.close()
    if replay.unmatched:
        print("calls the stand-in could not answer: %s" % replay.unmatched)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
