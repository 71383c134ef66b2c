"""Peak memory of the scoring program, measured on a child process (``os.wait4``'s ``ru_maxrss``).

Linux keeps a process's peak resident size across ``exec`` and starts a forked child from its parent's
size, so a child forked straight from the (large) test process would report the test process's size.
:func:`run_scorer` therefore starts a small launcher (a bare Python interpreter), which forks and
execs the scorer and waits for it with ``os.wait4``: the figure is the scorer's own peak, give or take
the launcher's few megabytes. An address-space limit (``RLIMIT_AS``) keeps a regression from taking
the machine down: the scorer then fails with a MemoryError instead, which fails the test too.
"""
import json
import os
import subprocess
import sys

from conftest import SCORING_PROGRAM

EVALUATE = os.path.join(SCORING_PROGRAM, "evaluate.py")

LAUNCHER = r"""
import json, os, resource, sys
limit, out_path, err_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
argv = sys.argv[4:]
pid = os.fork()
if pid == 0:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
print(json.dumps({"status": code, "maxrss_kb": usage.ru_maxrss, "oublock": usage.ru_oublock}))
"""


class Run(object):
    """The outcome of one scorer run: exit ``status``, ``peak`` resident bytes, ``stdout``, ``stderr`` (bytes),
    ``written``: bytes the scorer wrote to files (``ru_oublock``, 512-byte blocks: temporary files count too)."""

    def __init__(self, status, peak, stdout, stderr, written=0):
        self.status = status
        self.peak = peak
        self.stdout = stdout
        self.stderr = stderr
        self.written = written


def run_scorer(args, tmp_dir, limit=2 * 1024 ** 3, evaluate=None):
    """Run ``evaluate.py args`` (``evaluate``: another scoring program's script) under an address-space ``limit``
    (bytes); return a :class:`Run`."""
    out_path, err_path = os.path.join(tmp_dir, "stdout"), os.path.join(tmp_dir, "stderr")
    proc = subprocess.run([sys.executable, "-c", LAUNCHER, str(limit), out_path, err_path,
                           sys.executable, evaluate or EVALUATE] + list(args), stdout=subprocess.PIPE, check=True)
    result = json.loads(proc.stdout.decode("ascii"))
    with open(out_path, "rb") as out, open(err_path, "rb") as err:
        return Run(result["status"], result["maxrss_kb"] * 1024, out.read(), err.read(), result["oublock"] * 512)
