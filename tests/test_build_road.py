"""One build road: every hosted competition, ST2024 included, is built by the same commands (the competition's own
reference and baselines builders through ``python -m organiser``, then the one bundle builder), and ``make
COMPETITION=st2024 DATA=...`` is exactly ``make DATA=...``."""
import os
import re
import subprocess

import pytest

from conftest import ROOT, build_competition
from organiser import builders, bundle, declarations


def make_commands(*arguments):
    """The commands ``make -n`` prints for ``arguments`` (recursive makes expanded, a command continued over several
    lines joined into one), without make's own chatter."""
    process = subprocess.run(["make", "-n", "--no-print-directory"] + list(arguments), cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode == 0, process.stderr
    text = process.stdout.replace("\\\n", " ")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("make")]


@pytest.mark.parametrize("data", ["sample_data", "../shared/st2024", "/some/release"])
def test_make_competition_st2024_is_plain_make(data):
    top = declarations.top_level_id()
    # On the sample, plain `make` also builds every further competition: compare the top-level competition's steps.
    targets = ("reference", "baselines", "bundle", "summary") if data == "sample_data" else ()
    plain = make_commands("DATA=%s" % data, *targets)
    assert plain and plain == make_commands("COMPETITION=%s" % top, "DATA=%s" % data, *targets)


@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_every_competition_goes_through_the_same_commands(cid):
    commands = make_commands("COMPETITION=%s" % cid, "reference", "baselines", "bundle")
    road = [re.sub(r"^\.venv/bin/python -m organiser (\w+) --competition (\S+).*$", r"\1 \2", c) for c in commands]
    assert road == ["reference %s" % cid, "baselines %s" % cid, "bundle %s" % cid], commands


def test_plain_make_builds_every_competition_on_its_sample():
    commands = make_commands()
    built = [m.group(1) for m in (re.search(r"organiser bundle --competition (\S+)", c) for c in commands) if m]
    assert built == declarations.hosted_ids()


@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_every_competition_has_both_builders_with_one_calling_convention(cid):
    hosted = declarations.Hosted(cid)
    for command in builders.BUILDERS:
        module = builders.load_builder(hosted, command)
        assert callable(module.main)
        with pytest.raises(SystemExit):   # argparse refuses: the convention's required options are declared
            module.main(["--no-such-option"])


def test_the_same_road_gives_identical_bundles_twice(tmp_path):
    """Two builds of one competition from the same inputs (the split state one of them) give byte-identical bundles
    (the road is deterministic, so equal commands give equal outputs)."""
    state = str(tmp_path / "split.json")
    first = build_competition("lince", tmp_path / "a", split_state=state)[1]
    second = build_competition("lince", tmp_path / "b", split_state=state)[1]
    for name in sorted(os.listdir(os.path.join(first, "bundles"))):
        with open(os.path.join(first, "bundles", name), "rb") as a, open(os.path.join(second, "bundles", name),
                                                                          "rb") as b:
            assert a.read() == b.read(), name
    manifest = bundle.read_manifest(first)
    assert manifest["competition"] == "lince" and manifest["test_state"] == "real"
    assert manifest["test_input"] == ["public_data/lince-test.zip"]
