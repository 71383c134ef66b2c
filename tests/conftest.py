"""Shared fixtures: paths of the project, the scoring program and the shared release data."""
import os
import sys

import pytest
from hypothesis import settings

# CI runs the property tests with a fixed derandomised seed, so a red run can be reproduced exactly;
# local runs explore new random examples each time (and keep failures in .hypothesis/).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORING_PROGRAM = os.path.join(ROOT, "scoring_program")
SHARED = os.environ.get("ST2024_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "st2024"))
for path in (ROOT, SCORING_PROGRAM):
    if path not in sys.path:
        sys.path.insert(0, path)



def load_by_path(name, path):
    """Import the file at ``path`` as module ``name`` (the competitions reuse file names such as ``reference.py``
    and ``validate.py``, so each test gives its own unique name)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


needs_shared = pytest.mark.skipif(
    not os.path.isdir(SHARED), reason="the ST2024 release is not at %s (set ST2024_SHARED)" % SHARED)


@pytest.fixture
def shared_data():
    """Path of the ST2024 release checkout; the test is skipped when it is absent."""
    if not os.path.isdir(SHARED):
        pytest.skip("the ST2024 release is not at %s" % SHARED)
    return SHARED


#: The split seed of the tests' builds (``build_competition``): a build of the tests is reproducible, as a build from a
#: kept split state is; ``make`` itself draws a random seed once and keeps it.
TEST_SPLIT_SEED = "tests-fixed-split-seed-0123456789abcdef"


def build_competition(cid, root, data=None, test_gold="sample", baselines=True, schedule=None, split_state=None,
                      split_seed=TEST_SPLIT_SEED):
    """Build competition ``cid`` as ``make COMPETITION=<cid>`` does (its reference builder, its baselines, the one
    bundle builder, each ``python -m organiser`` in its own process), into ``root/ref`` and ``root/dist``; ``data``
    defaults to its embedded sample and ``test_gold`` to the sample's own (``None``: no test gold); ``schedule``
    (a schedule file) replaces the competition's own, as ``make SCHEDULE=...`` does; ``split_state``: the split state
    file (default: a new one beside the reference folder); ``split_seed``: the seed of its first draw (default
    :data:`TEST_SPLIT_SEED`; None: a random one). Returns ``(reference folder, dist folder)``."""
    import subprocess
    from organiser import declarations
    hosted = declarations.Hosted(cid)
    sample = os.path.join(ROOT if hosted.top_level else hosted.folder, "sample_data")
    data = data or sample
    if test_gold == "sample":
        test_gold = os.path.join(sample, "test_gold") if os.path.isdir(os.path.join(sample, "test_gold")) else None
    ref, out = os.path.join(str(root), "ref"), os.path.join(str(root), "dist")
    gold = ["--test-gold", test_gold] if test_gold else []
    override = ["--schedule", schedule] if schedule else []
    state = (["--split-state", split_state] if split_state else []) + (
        ["--split-seed", split_seed] if split_seed and not (split_state and os.path.isfile(split_state)) else [])
    steps = [["reference", "--data", data, "--out", ref, "--report", os.path.join(out, "data_quality.md")] + gold
             + override + state]
    if baselines:
        steps.append(["baselines", "--data", data, "--reference", ref, "--out", out])
    steps.append(["bundle", "--data", data, "--reference", ref, "--out", out] + gold + override)
    for step in steps:
        process = subprocess.run([sys.executable, "-m", "organiser", step[0], "--competition", cid] + step[1:],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if process.returncode:
            raise AssertionError("%s %s failed (exit %d): %s" % (step[0], cid, process.returncode,
                                                                process.stderr[-2000:]))
    return ref, out
