"""Every worked example in the machinery's docstrings runs (the metrics' edge-case rules, the kinds' item sides, the
verdicts, the names' hints...): each module of ``scoring_program/evalkit`` and of ``organiser`` is run through
doctest, and a module that has examples must pass them all."""
import doctest
import importlib
import os
import pkgutil

import pytest

import evalkit
import organiser

MODULES = sorted(
    [name for _, name, _ in pkgutil.walk_packages(evalkit.__path__, "evalkit.")] +
    [name for _, name, _ in pkgutil.walk_packages(organiser.__path__, "organiser.") if name != "organiser.__main__"])


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, "%s: %d of %d examples failed" % (name, result.failed, result.attempted)


def test_the_modules_are_found():
    assert "evalkit.items" in MODULES and "evalkit.timenorm.kind" in MODULES and "organiser.split" in MODULES
    assert os.path.basename(os.path.dirname(evalkit.__file__)) == "evalkit"
