"""LinCE's scoring entry point, declaration and starting kit: standard library only, Python 3.7."""
import ast
import os
import subprocess
import sys

from lince_helpers import KIT, LINCE_DIR

VERMIN = os.path.join(os.path.dirname(sys.executable), "vermin")
PROGRAMS = [os.path.join(LINCE_DIR, "evaluate.py"), os.path.join(LINCE_DIR, "lince.py"), KIT,
            os.path.join(os.path.dirname(os.path.dirname(LINCE_DIR)), "scoring_program", "evalkit", "lines.py")]


def test_vermin_says_python_3_7_is_enough():
    for program in PROGRAMS:
        proc = subprocess.run([VERMIN, "--no-tips", "--violations", "-t=3.7-", program], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        assert proc.returncode == 0, proc.stdout


def test_no_third_party_imports():
    allowed = set(getattr(sys, "stdlib_module_names", ())) | {"evalkit", "lince", "lince_data", "lince_baselines"}
    if len(allowed) < 10:
        return
    files = [os.path.join(LINCE_DIR, "evaluate.py"), os.path.join(LINCE_DIR, "lince.py")]
    files += [os.path.join(KIT, name) for name in os.listdir(KIT) if name.endswith(".py")]
    for path in files:
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [node.module.split(".")[0]]
            else:
                continue
            assert all(root in allowed for root in roots), (path, roots)
