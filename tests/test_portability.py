"""What runs on the platforms' Python 3.7 images or on participants' machines needs Python 3.7 syntax and the
standard library only: for every hosted competition, its scoring program, its starting kit and its sample
generator (the top-level competition: ``scoring_program/``, ``embeddings_scoring_program/``, ``starting_kit/``;
a competition under ``competitions/<id>/``: ``evaluate.py``, its declaration, ``starting_kit/`` and
``sample_data/generate.py``; ``evalkit`` is checked with the top-level scoring program)."""
import ast
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from organiser import declarations

VERMIN = os.path.join(os.path.dirname(sys.executable), "vermin")


def programs(cid):
    """The files and folders of competition ``cid`` that must run on Python 3.7 with the standard library only."""
    if cid == declarations.top_level_id():
        return [os.path.join(ROOT, name) for name in ("scoring_program", "embeddings_scoring_program", "starting_kit")]
    folder = declarations.folder(cid)
    found = [os.path.join(folder, "evaluate.py"), os.path.join(folder, cid + ".py"),
             os.path.join(folder, "starting_kit")]
    generator = os.path.join(folder, "sample_data", "generate.py")
    return found + ([generator] if os.path.isfile(generator) else [])


def python_files(paths):
    """Every ``.py`` file of ``paths`` (files, or folders walked)."""
    for path in paths:
        if path.endswith(".py"):
            yield path
            continue
        for folder, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


def imported_roots(path):
    """The top-level module names that the file at ``path`` imports absolutely."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def vermin(paths):
    """Run vermin's violation check for Python 3.7 on ``paths``; return (status, output)."""
    proc = subprocess.run([VERMIN, "--no-tips", "--violations", "-t=3.7-"] + list(paths), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_vermin_says_python_3_7_is_enough(cid):
    status, output = vermin(programs(cid))
    assert status == 0, output


def test_vermin_would_catch_newer_syntax(tmp_path):
    (tmp_path / "new.py").write_text("if (n := 3):\n    print(n)\n")
    status, output = vermin([str(tmp_path)])
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


@pytest.mark.skipif(not hasattr(sys, "stdlib_module_names"), reason="needs Python 3.10+ (sys.stdlib_module_names)")
@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_no_third_party_imports(cid):
    """Only the standard library, ``evalkit``, the declaration and the modules at the top of the program's folders
    (a scoring program's or starting kit's own ``.py`` files)."""
    paths = programs(cid)
    local = set(name[:-3] for folder in paths if os.path.isdir(folder) for name in os.listdir(folder)
                if name.endswith(".py")) | {"evalkit", cid}
    for path in python_files(paths):
        for root in imported_roots(path):
            assert root in sys.stdlib_module_names or root in local, "%s imports %s" % (path, root)
