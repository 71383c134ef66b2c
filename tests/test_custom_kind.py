"""A competition with a kind of its own, written in its folder only (issue 31): the guide's example ("Writing a kind":
`python -m organiser new <id> --kind custom`, a ``word<TAB>value`` kind scored by Spearman's rho) run on a fresh copy
of the repository builds, checks (the conformance of its kind included), is scored, split, audited and ranked by
`make results`, and passes its own tests, which `make test` collects; so do the value kinds' skeletons, one of them
with a schedule that leaves the test feedback to its default (no ``test_feedback`` block); `git status` then lists
only their folders."""
import glob
import json
import os
import re

import pytest

from conftest import ROOT
from test_new_competition import GUIDE, fresh_copy, run, run_all

#: The value kinds' skeletons run after the guide's example in the same copy: ``(id, kind, schedule edit)``.
VALUE_KINDS = (("histclass", "item_labels", "default feedback"), ("histgrade", "item_values", None))


def kind_commands():
    """The shell commands of the guide's "Writing a kind" example (its ``sh`` block)."""
    with open(GUIDE, encoding="utf-8") as handle:
        text = handle.read()
    section = text.split("## Writing a kind", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```sh\n(.*?)```", section, re.S)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def without_test_feedback(copy, cid):
    """Remove the ``test_feedback`` block (and its comment) from the competition's schedule: the mode is left to its
    default."""
    path = os.path.join(copy, "competitions", cid, "schedule.yaml")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    kept = text.split("# What the platform's test phase can score")[0]
    assert "test_feedback" in text and "test_feedback" not in kept
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(kept)


def value_commands(cid, kind, edit):
    """Build, check, rank (with the schedule's default feedback) and test a value kind's skeleton ``cid``."""
    kit = "competitions/%s/starting_kit/make_submission.py --data competitions/%s/sample_data --split test" % (cid, cid)
    steps = [".venv/bin/python -m organiser new %s --kind %s --languages 'ang=Old English,goh=Old High German'"
             % (cid, kind), "make COMPETITION=%s" % cid, "make check COMPETITION=%s" % cid]
    if edit:
        steps += [".venv/bin/python %s --out dist/%s/teams/alpha/a.zip" % (kit, cid),
                  ".venv/bin/python %s --system floor --out dist/%s/teams/beta/b.zip" % (kit, cid),
                  "make results COMPETITION=%s SUBMISSIONS=dist/%s/teams" % (cid, cid)]
    return steps + [".venv/bin/python -m pytest -q competitions/%s/tests" % cid]


@pytest.fixture(scope="module")
def worked(tmp_path_factory):
    """The guide's kind example, then the value kinds' skeletons, on a fresh copy: ``(copy, steps, {id: steps})``."""
    copy = str(tmp_path_factory.mktemp("fresh") / "repo")
    os.makedirs(copy)
    fresh_copy(copy)
    stamp = os.path.getmtime(os.path.join(os.path.realpath(os.path.join(ROOT, ".venv")), ".stamp"))
    for name in ("requirements.txt", "requirements-dev.txt"):   # the linked venv is up to date: never rebuilt
        os.utime(os.path.join(copy, name), (stamp - 1, stamp - 1))
    steps = run_all(kind_commands(), copy)
    others = {}
    for cid, kind, edit in VALUE_KINDS:
        commands = value_commands(cid, kind, edit)
        others[cid] = run_all(commands[:1], copy)
        if edit and not others[cid][-1][1]:
            without_test_feedback(copy, cid)
        others[cid] += run_all(commands[1:], copy) if not others[cid][-1][1] else []
    return copy, steps, others


def outputs(steps):
    return dict((command.split()[0] + " " + command.split()[1], out) for command, _, out, _ in steps)


def test_the_guides_kind_of_its_own_builds_checks_ranks_and_passes_its_tests(worked):
    copy, steps, _ = worked
    for command, status, out, _ in steps:
        assert status == 0, "%s failed:\n%s" % (command, out[-3000:])
    assert len(steps) == len(kind_commands())
    said = outputs(steps)
    check = said["make check"]
    assert "all rules pass" in check
    assert re.search(r"conformance: kind semchange_values \(graded\): perfect submission: 2 file\(s\), every one 1; "
                     r"split round trip: 2 file\(s\), 48 items, no public gold lost; audit: .* planted in an uploaded "
                     r"test reference, found; recompute: 4 entries, from_items equals the scorer", check), check
    assert "split audit: mode public_private" in check and "none found" in check
    with open(os.path.join(copy, "dist", "semchange", "results", "results.json"), encoding="utf-8") as handle:
        results = json.load(handle)
    subtask = results["subtasks"][0]
    ranking = subtask["rankings"]["avg_score"]
    assert ranking["order"] == ["team:alpha", "team:beta"] and ranking["adjacent"][0]["significant"]
    assert "each resample's items themselves" in results["method"] and results["ranked_on"].startswith("private part")
    assert results["bootstrap"]["unit"].startswith("word")
    assert re.search(r"\b5 passed\b", steps[-1][2]), steps[-1][2]
    kind = os.path.join(copy, "competitions", "semchange", "semchange_kind.py")
    with open(kind, encoding="utf-8") as handle:
        size = len(handle.read().splitlines())
    with open(GUIDE, encoding="utf-8") as handle:
        assert "`<id>_kind.py` (%d lines:" % size in handle.read()   # the guide says the template's true size
    seconds = sum(step[3] for step in steps[:-1])
    print("a kind of its own: %d lines; skeleton to a green make check and make results in %.1f s (%s)" % (
        size, seconds, ", ".join("%s %.1f s" % (" ".join(c.split()[:2]), t) for c, _, _, t in steps[:-1])))


def test_the_value_kinds_skeletons_build_check_and_pass_their_tests_with_the_default_feedback(worked):
    copy, _, others = worked
    for cid, kind, edit in VALUE_KINDS:
        for command, status, out, _ in others[cid]:
            assert status == 0, "%s failed:\n%s" % (command, out[-3000:])
        said = outputs(others[cid])
        assert "all rules pass" in said["make check"] and "conformance: kind %s" % kind in said["make check"]
        assert re.search(r"\b4 passed\b", others[cid][-1][2]), others[cid][-1][2]
    with open(os.path.join(copy, "competitions", "histclass", "schedule.yaml"), encoding="utf-8") as handle:
        assert "test_feedback" not in handle.read()
    with open(os.path.join(copy, "reference_data", "histclass", "test", "split.json"), encoding="utf-8") as handle:
        assert json.load(handle)["mode"] == "public_private"   # the documented default
    with open(os.path.join(copy, "dist", "histclass", "results", "results.json"), encoding="utf-8") as handle:
        results = json.load(handle)
    assert results["subtasks"][0]["rankings"]["avg_score"]["order"][0] == "team:alpha"
    assert results["subtasks"][0]["shakeup"]["public_part"].startswith("public part:")


def test_make_test_collects_their_tests_and_git_status_lists_only_their_folders(worked):
    copy = worked[0]
    status, out, _ = run(".venv/bin/python -m pytest -q --collect-only competitions", copy)
    assert status == 0, out[-2000:]
    for cid in ("semchange", "histclass", "histgrade"):
        assert "competitions/%s/tests/test_%s.py::test_make_check_passes" % (cid, cid) in out
    assert "test_the_competitions_own_kind_scores_a_perfect_a_reversed_and_a_constant_prediction" in out
    status, out, _ = run("git status --porcelain --untracked-files=all", copy)
    changed = [line[3:] for line in out.splitlines()]
    folders = ("competitions/semchange/", "competitions/histclass/", "competitions/histgrade/")
    assert changed and all(name.startswith(folders) for name in changed), changed
    assert glob.glob(os.path.join(copy, "competitions", "semchange", "semchange_kind.py"))
