"""The scoring program runs on the platforms' Python 3.7 images: standard library only, 3.7 syntax."""
import os
import subprocess
import sys

from conftest import ROOT

# What runs on the platforms' Python 3.7 images or on participants' machines: standard library only.
PROGRAMS = [os.path.join(ROOT, name) for name in ("scoring_program", "embeddings_scoring_program", "starting_kit")]


VERMIN = os.path.join(os.path.dirname(sys.executable), "vermin")


def vermin(path):
    """Run vermin's violation check for Python 3.7 on ``path``; return (status, output)."""
    proc = subprocess.run([VERMIN, "--no-tips", "--violations", "-t=3.7-", path], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def test_vermin_says_python_3_7_is_enough():
    for program in PROGRAMS:
        status, output = vermin(program)
        assert status == 0, output


def test_vermin_would_catch_newer_syntax(tmp_path):
    (tmp_path / "new.py").write_text("if (n := 3):\n    print(n)\n")
    status, output = vermin(str(tmp_path))
    assert status != 0, output


def test_runs_isolated_without_site_packages(tmp_path):
    """`python3 -I -S`: no site-packages, no user paths, no PYTHON* variables: standard library only."""
    golden = os.path.join(ROOT, "tests", "golden")
    proc = subprocess.run([sys.executable, "-I", "-S", os.path.join(ROOT, "scoring_program", "evaluate.py"),
                           "--ref", os.path.join(golden, "ref"), "--submission", os.path.join(golden, "sub"),
                           "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    with open(os.path.join(golden, "expected_scores.txt"), encoding="utf-8") as handle:
        assert (tmp_path / "scores.txt").read_text(encoding="utf-8") == handle.read()


def test_no_third_party_imports():
    allowed = set(sys.stdlib_module_names) if hasattr(sys, "stdlib_module_names") else None
    if allowed is None:
        return
    import ast
    for program in PROGRAMS:
        local = set(name[:-3] for name in os.listdir(program) if name.endswith(".py")) | {"evalkit", "st2024"}
        for folder, _, files in os.walk(program):
            for name in files:
                if not name.endswith(".py"):
                    continue
                tree = ast.parse(open(os.path.join(folder, name), encoding="utf-8").read())
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        roots = [a.name.split(".")[0] for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0:
                        roots = [node.module.split(".")[0]]
                    else:
                        continue
                    for root in roots:
                        assert root in allowed or root in local, "%s imports %s" % (name, root)
