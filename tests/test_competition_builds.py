"""Every hosted competition (organiser.declarations.hosted_ids: a competition added under ``competitions/`` is in
at once) built from its release (``../shared/<id>``, for those :data:`RELEASES` names; SpanglishEval's full build
takes minutes, so its sample; any other competition its embedded sample with the sample's own test gold), as
``make COMPETITION=<id> DATA=...`` builds it: what each platform derives from its bundles (phase
windows at the schedule's instants, each team's last submission official, detailed results off the leaderboard, a
development and a test phase from the first upload), what participants get and when, and ``make check`` passing
(static rules, both workers on every phase, the leak audit; PENDING, PRACTICE and LACKING notes allowed)."""
import io
import os
import zipfile

import pytest
import yaml

from conftest import ROOT, build_competition
from evalkit import floor
from organiser import bundle, check, declarations, platforms
from organiser import schedule as schedule_module

SHARED = os.path.join(os.path.dirname(ROOT), "shared")
#: The competitions built from a release, and what that release holds: competition -> (release folder under
#: ../shared or None for the sample, build the baselines, expected test phase). Every other hosted competition is
#: built from its sample (:func:`build_of`).
RELEASES = {
    "st2024": ("st2024", False, "pending"),      # the release's test files carry no gold
    "lince": ("lince", True, "pending"),         # no LinCE test gold is public
    "scate": ("scate", True, "practice"),        # the only test gold is the public spans-only one
    "spanglisheval": (None, True, "real"),       # the sample keeps hidden test sentences apart
}


def build_of(cid):
    """``(release, build the baselines, expected test phase)`` of a hosted competition: its :data:`RELEASES` entry,
    else its sample with the baselines, whose test phase is real when the sample keeps a test gold apart."""
    if cid in RELEASES:
        return RELEASES[cid]
    sample = os.path.join(declarations.Hosted(cid).folder, "sample_data")
    return None, True, "real" if os.path.isdir(os.path.join(sample, "test_gold")) else "pending"


@pytest.fixture(scope="module", params=declarations.hosted_ids())
def built(request, tmp_path_factory):
    cid = request.param
    release, baselines, expected = build_of(cid)
    data = os.path.join(SHARED, release) if release else None
    if data and not os.path.isdir(data):
        pytest.skip("%s is not here" % data)
    ref, dist = build_competition(cid, tmp_path_factory.mktemp(cid), data=data,
                                  test_gold=None if release else "sample", baselines=baselines)
    return cid, ref, dist, expected


def bundles_of(dist):
    manifest = bundle.read_manifest(dist)
    return [(os.path.join(dist, "bundles", name), platform) for platform in (platforms.CODALAB, platforms.CODABENCH)
            for name in manifest["bundles"][platform]]


def competition_of(path):
    with zipfile.ZipFile(path) as archive:
        return yaml.safe_load(archive.read("competition.yaml").decode("utf-8")), \
            dict((name, archive.read(name)) for name in archive.namelist())


def test_each_platform_derives_the_declared_phases_and_rules(built):
    cid, ref, dist, expected = built
    hosted = declarations.Hosted(cid)
    schedule = schedule_module.load(hosted.schedule)
    for path, platform in bundles_of(dist):
        competition, _ = competition_of(path)
        view = platforms.view(competition, platform)
        names = [w.reference for w in view.phases]
        assert names[:2] == ["dev", "test"], path
        assert platforms.schedule_failures(view, schedule, schedule_module.CODABENCH_GAP) == [], path
        for window in view.phases:
            assert window.closes == schedule.window(window.reference).closes
        assert view.official_rule == platforms.LAST and view.details_hidden is True, path
        if platform == platforms.CODALAB:
            assert competition["disallow_leaderboard_modifying"] is True and competition["hide_chart"] is True
            test = [p for p in competition["phases"].values() if p["reference_data"].endswith("_test.zip")][0]
            assert test["leaderboard_management_mode"] == "hide_results"
        else:
            test = [p for p in competition["phases"] if p["tasks"] == [1]][0]
            assert test["hide_output"] is True and competition["leaderboards"][0]["submission_rule"] == "Force_Last"


def test_participants_get_the_development_data_in_the_kit_and_the_test_input_when_the_phase_opens(built):
    cid, ref, dist, expected = built
    manifest = bundle.read_manifest(dist)
    assert manifest["test_state"] == expected
    for path, platform in bundles_of(dist)[:1]:
        competition, members = competition_of(path)
        kit = zipfile.ZipFile(io.BytesIO(members["starting_kit.zip"])).namelist()
        assert any("/reference_data/dev/" in name for name in kit)   # the kit scores development locally
        assert any(name.endswith("/scoring_program/evaluate.py") for name in kit)
        test = [p for p in competition["phases"].values() if p["reference_data"].endswith("_test.zip")][0]
        assert bundle.is_pending_public(zipfile.ZipFile(io.BytesIO(members[test["public_data"]])).namelist())
        assert test["label"].endswith("(practice)") == (expected == "practice")
        names = zipfile.ZipFile(io.BytesIO(members[test["reference_data"]])).namelist()
        assert bundle.is_pending_reference(names) == (expected == "pending")
    assert manifest["test_input"] and all(os.path.isfile(os.path.join(dist, t)) for t in manifest["test_input"])


def test_make_check_passes(built, capsys):
    """Every rule and the leak audit; both workers on every phase too, except for ST2024's release build, whose
    development reference takes a minute per run (its workers are run on the sample build by test_check.py)."""
    cid, ref, dist, expected = built
    workers = ["--no-workers"] if cid == declarations.top_level_id() and build_of(cid)[0] else []
    status = check.main(["--dist", dist, "--submissions", os.path.join(dist, "submissions")] + workers)
    out = capsys.readouterr().out
    assert status == 0, [line for line in out.splitlines() if line.startswith("FAIL")][:10]
    assert "leak audit" in out


def test_the_build_writes_the_floor_beside_the_dev_reference(built):
    """The baselines step writes the floor file (the floor baseline's dev scores) into the development reference, and
    the bundle ships it there; a build without baselines (ST2024's release build) has none."""
    cid, ref, dist, expected = built
    path = os.path.join(ref, "dev", floor.FILE_NAME)
    if not build_of(cid)[1]:
        assert not os.path.exists(path), path
        return
    label, floors = floor.read_floor(path)
    assert label == "floor" and floors, path
    assert all(0.0 <= value[0] <= 1.0 for value in floors.values()), path
    zips = [name for name in sorted(os.listdir(os.path.join(dist, "reference"))) if name.endswith("-dev.zip")]
    assert zips, dist
    for name in zips:   # every subtask's development reference ships it
        with zipfile.ZipFile(os.path.join(dist, "reference", name)) as archive:
            assert floor.FILE_NAME in archive.namelist(), name
