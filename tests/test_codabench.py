"""``python -m organiser codabench`` (issue 32) against the responses recorded on a real Codabench instance, replayed
by a local server (tests/codabench_replay.py: no network), with zips of the tests' own as the files served.

The tests that replay the recordings are skipped when ``../shared/platforms/codabench-api`` is absent. Where a recording holds no answer (a task's or a
phase's update, a dataset's download address, a failed unpacking, a paginated list), the answer is built from what
Codabench's source says (marked ``source`` in the replay).
"""
import csv
import io
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import zipfile
from urllib.parse import parse_qsl, urlsplit

import pytest

from conftest import ROOT, build_competition
import codabench_replay as cr
from codabench_replay import Answer, body_of
from organiser.codabench import main as codabench_main
from organiser.codabench import client as client_module, manifest
from organiser.results import layouts
from evalkit.messages import DataError

FAST = ["--backoff", "0.01", "--retries", "2", "--timeout", "5"]
WAITS = ["--poll", "0.05", "--settle", "0.3", "--score-wait", "5"]


def small_zips():
    """``{submission id: zip bytes}``: a small zip of our own per recorded submission, each different."""
    zips = {}
    for sub_id in cr.REMOVED:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("pos_tagging/chu.json", json.dumps({"submission": sub_id, "pad": "x" * sub_id}))
        zips[sub_id] = out.getvalue()
    return zips


@pytest.fixture
def replay():
    """The stand-in (every test that replays the recordings uses it: skipped without them)."""
    if not cr.available():
        pytest.skip("the recorded Codabench responses are not at %s" % cr.RECORDED)
    server = cr.Replay()
    yield server
    server.close()


@pytest.fixture
def token_file(tmp_path):
    path = tmp_path / "token"
    path.write_text(cr.TOKEN + "\n")
    os.chmod(str(path), 0o600)
    return str(path)


@pytest.fixture
def cli(replay, token_file, capsys, monkeypatch, tmp_path):
    """``cli(command, *args)`` -> ``(exit status, stdout, stderr)`` of the command run in-process against the
    stand-in, with the token file, from a folder of its own (the defaults relative to the kit's folder, such as
    ``reference_data/private/test``, find nothing there); every output is kept in ``cli.outputs``."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(str(work))
    monkeypatch.delenv("CODABENCH_TOKEN", raising=False)
    monkeypatch.delenv("CODABENCH_URL", raising=False)
    outputs = []

    def run(command, *args, **options):
        base = options.get("base", replay.base)
        argv = [command, "--base-url", base] + (["--token-file", options.get("token", token_file)]
                                                if options.get("token", token_file) else []) + FAST + list(args)
        status = codabench_main(argv)
        captured = capsys.readouterr()
        outputs.append(captured.out + captured.err)
        return status, captured.out, captured.err
    run.outputs = outputs
    return run


@pytest.fixture
def life(replay):
    """The recorded competition with small zips as the teams' files."""
    zips = small_zips()
    model = cr.life(replay, zips)
    model.zips = zips
    return model


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def private_requests(replay):
    return [r for r in replay.requests if r["path"].startswith("/private/")]


# ------------------------------------------------------------------------------------------------ upload, publish
def test_upload_prints_the_competition_its_address_and_phases(cli, replay, life, tmp_path):
    bundle = tmp_path / "st2024-unconstrained-codabench.zip"
    with zipfile.ZipFile(str(bundle), "w") as archive:
        archive.writestr("competition.yaml", "title: x\n")
    status, out, err = cli("upload", str(bundle), "--poll", "0.05")
    assert status == 0, err
    assert "competition 2: SIGTYP 2024 ST" in out
    assert "address: %s/competitions/2/" % replay.base in out
    assert "3      Development    closed" in out and "4      Test           open" in out
    assert "Starting" in err and "Finished" in err
    stored = [data for path, data in replay.stored.items() if path.endswith("/st2024-unconstrained-codabench.zip")]
    assert stored == [bundle.read_bytes()]
    assert replay.calls("PUT", "/api/datasets/completed/") == ["PUT /api/datasets/completed/%s/"
                                                               % body_of(3)["key"]]
    assert not replay.unmatched


def test_upload_says_the_unpacking_error_codabench_reports(cli, replay, life, tmp_path):
    bundle = tmp_path / "b-codabench.zip"
    with zipfile.ZipFile(str(bundle), "w") as archive:
        archive.writestr("competition.yaml", "x")
    # source: CompetitionCreationTaskStatus FAILED with its details
    replay.route("GET", "/api/competitions/2/creation_status/", 6, Answer(200, {
        "status": "Failed", "details": "Error: competition.yaml: phases[1] has no tasks", "resulting_competition": None,
        "created_by": 1}))
    status, out, err = cli("upload", str(bundle), "--poll", "0.05")
    assert status == 1
    assert last_line(err) == ("codabench upload: Codabench could not unpack b-codabench.zip: Error: competition.yaml: "
                              "phases[1] has no tasks")


def test_upload_refuses_what_is_not_a_zip_before_any_call(cli, replay, life, tmp_path):
    text = tmp_path / "notes-codabench.zip"
    text.write_text("not a zip")
    assert cli("upload", str(text))[0] == 2
    assert cli("upload", str(tmp_path / "missing.zip"))[0] == 2
    assert replay.requests == []


def test_an_unknown_unpacking_status_is_a_404_said_in_one_line(cli, replay, life, tmp_path):
    bundle = tmp_path / "b-codabench.zip"
    with zipfile.ZipFile(str(bundle), "w") as archive:
        archive.writestr("competition.yaml", "x")
    replay.prefix_route("PUT", "/api/datasets/completed/", lambda request: Answer(200, {"status_id": 999999}))
    replay.routes.clear()
    replay.route("POST", "/api/datasets/", 3)
    replay.recorded_route(76)
    status, out, err = cli("upload", str(bundle), "--poll", "0.05")
    assert status == 1
    assert last_line(err) == ("codabench upload: unpacking b-codabench.zip: no such unpacking status 999999 on %s, or "
                              "not one this account can see (404 No CompetitionCreationTaskStatus matches the given "
                              "query.)" % replay.base)


def test_publish_then_approve_the_pending_participants(cli, replay, life):
    status, out, err = cli("publish", "--competition", "2")
    assert status == 0, err
    assert "competition 2 is published" in out and "--approve" in out
    assert cli("publish", "--competition", "2")[1].startswith("competition 2 is already published")
    assert replay.calls("POST", "/api/competitions/2/toggle_publish/") == ["POST /api/competitions/2/toggle_publish/"]
    status, out, err = cli("participants", "--competition", "2", "--match", "TEAM-A*", "--approve")
    assert status == 0 and "1 participant(s) listed, 1 set to approved" in out
    status, out, err = cli("participants", "--competition", "2", "--approve")
    assert status == 0 and "4 participant(s) listed, 2 set to approved" in out
    patched = [(r["path"], json.loads(r["body"].decode())) for r in replay.requests if r["method"] == "PATCH"]
    assert patched == [("/api/participants/%d/" % pid, {"status": "approved"}) for pid in (3, 4, 5)]
    assert cli("participants", "--competition", "2", "--status", "approved")[1].count("approved") >= 4
    assert "0 set to approved" in cli("participants", "--competition", "2", "--approve")[1]


def test_approving_one_already_approved_is_taken_as_done(cli, replay, life):
    # source: CompetitionParticipantViewSet.update refuses a status the participant already has with a 400
    replay.route("PATCH", "/api/participants/3/", Answer(400, {"error": "Status is already set to `approved`"}))
    status, out, err = cli("participants", "--competition", "2", "--match", "team-a", "--approve")
    assert status == 0, err
    assert "approved (was pending)" in out


def test_a_toggle_whose_answer_is_lost_is_not_repeated(cli, replay, life):
    def lost(request):
        life.published = True
        return Answer(503, "<html>Service Unavailable</html>", "text/html")
    replay.route("POST", "/api/competitions/2/toggle_publish/", lost)
    status, out, err = cli("publish", "--competition", "2")
    assert status == 0, err
    assert len(replay.calls("POST", "/api/competitions/2/toggle_publish/")) == 1
    assert "the answer was lost" in err and "competition 2 is published" in out


def test_phases_lists_ids_dates_and_states(cli, life):
    status, out, err = cli("phases", "--competition", "2")
    assert status == 0, err
    assert "3      Development    closed        2026-11-01T00:00:00Z   2026-11-28T00:00:00Z" in out
    assert "4      Test           open          2026-11-28T00:00:01Z   2027-06-01T12:00:00Z" in out
    assert "leaderboard rule: Force_Last" in out
    rows = json.loads(cli("phases", "--competition", "2", "--json")[1])
    assert [(r["id"], r["state"], r["tasks"][0]["id"]) for r in rows] == [(3, "closed", 3), (4, "open", 4)]


# ------------------------------------------------------------------------------------------------------- pull
def manifest_of(folder):
    with open(os.path.join(folder, manifest.MANIFEST), encoding="utf-8") as handle:
        return json.load(handle)


def test_pull_writes_one_zip_per_team_byte_identical_with_its_manifest(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    files = sorted(os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out) for f in fs)
    assert files == sorted(["codabench-manifest.csv", "codabench-manifest.json",
                            "team-a/5_team-a-v2-no-fill_mask_char.zip", "team-b/6_baseline-unconstrained-test.zip",
                            "team-c/7_team-c-v2-no-pos-no-morph.zip"])
    record = manifest_of(out)
    counted = dict((e["id"], e) for e in record["submissions"] if e["state"] == "counted")
    assert sorted(counted) == [5, 6, 7]
    listing = dict((s["id"], s) for s in body_of(22))
    for sub_id, entry in counted.items():
        with open(os.path.join(out, entry["file"]), "rb") as handle:
            data = handle.read()
        assert data == life.zips[sub_id]
        assert entry["size"] == len(data) and entry["sha256"] == manifest.sha256_of(os.path.join(out, entry["file"]))
        assert (entry["team"], entry["created_when"], entry["status"]) == (
            listing[sub_id]["owner"], listing[sub_id]["created_when"], "Finished")
        assert entry["scores"]["avg_score"] == listing[sub_id]["scores"][0]["score"]
    assert sorted((e["id"], e["state"]) for e in record["submissions"] if e["id"] not in counted) == [
        (2, "superseded"), (3, "superseded"), (4, "superseded")]
    assert (record["phase"], record["base_url"], record["primary_column"]) == (4, replay.base, "avg_score")
    assert all("Authorization" not in r["headers"] for r in private_requests(replay))
    assert "next: make results SUBMISSIONS=%s" % out in stdout
    assert not replay.unmatched


def test_a_second_pull_downloads_nothing(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, *WAITS)[0] == 0
    before = len(replay.requests)
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    again = ["%s %s" % (r["method"], r["path"]) for r in replay.requests[before:]]
    assert again == ["GET /api/phases/4/get_leaderboard/", "GET /api/submissions/"]
    assert "0 file(s) fetched, 3 already here" in stdout


def test_a_file_changed_on_disk_is_fetched_again(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, *WAITS)[0] == 0
    changed = os.path.join(out, "team-b", "6_baseline-unconstrained-test.zip")
    with open(changed, "ab") as handle:
        handle.write(b"x")
    before = len(private_requests(replay))
    assert "1 file(s) fetched, 2 already here" in cli("pull", "--phase", "4", "--out", out, *WAITS)[1]
    assert len(private_requests(replay)) == before + 1
    with open(changed, "rb") as handle:
        assert handle.read() == life.zips[6]


def test_a_team_that_submitted_again_is_fetched_and_its_old_file_removed(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, *WAITS)[0] == 0
    replay.route("GET", "/api/submissions/", Answer(200, cr.after_rerun_list()), phase=4)
    replay.recorded_route(46)
    before = len(private_requests(replay))
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    assert len(private_requests(replay)) == before + 1
    assert sorted(os.listdir(os.path.join(out, "team-a"))) == ["8_baseline-unconstrained-test.zip"]
    assert "removed team-a/5_team-a-v2-no-fill_mask_char.zip (submission 5 no longer counts: 8 does)" in err
    states = dict((e["id"], e["state"]) for e in manifest_of(out)["submissions"])
    assert states == {2: "superseded", 3: "superseded", 4: "superseded", 5: "superseded", 6: "counted",
                      7: "counted", 8: "counted", 9: "running"}
    assert "not fetched: platform status Submitting when pulled" in stdout


def test_pull_waits_for_the_scores_of_a_submission_marked_finished_before_them(cli, replay, life, tmp_path):
    replay.route("GET", "/api/submissions/", 21, 21, 22, phase=4)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, "--poll", "0.05", "--settle", "5")
    assert status == 0, err
    assert "1 finished submission(s) without every score yet (46 of 93 columns): waiting" in err
    assert len(replay.calls("GET", "/api/submissions/")) == 3
    assert sorted(e["id"] for e in manifest_of(out)["submissions"] if e["state"] == "counted") == [5, 6, 7]


def test_scores_still_missing_when_the_wait_ends_are_not_fetched(cli, replay, life, tmp_path):
    replay.route("GET", "/api/submissions/", 21, phase=4)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, "--poll", "0.05", "--settle", "60",
                              "--score-wait", "0.3")
    assert status == 0, err
    entries = dict((e["id"], e) for e in manifest_of(out)["submissions"])
    assert all(e["file"] is None for e in entries.values())
    assert entries[2]["reason"] == "Finished with 46 of 93 scores stored when pulled: pull again"
    assert entries[3]["reason"] == "platform status Preparing when pulled: pull again once it finished"
    assert private_requests(replay) == []


def test_a_phase_whose_scoring_writes_fewer_columns_is_taken_as_whole_once_settled(cli, replay, life, tmp_path):
    listing = body_of(22)
    for sub in listing:     # as a blind test phase: one column written of the leaderboard's 93
        sub["scores"] = sub["scores"][:1]
    replay.route("GET", "/api/submissions/", Answer(200, listing), phase=4)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, "--poll", "0.05", "--settle", "0.3")
    assert status == 0, err
    assert "no finished submission has more than 1 of its 93 columns, unchanged for 0.3 s: taken as whole" in err
    assert sorted(e["id"] for e in manifest_of(out)["submissions"] if e["file"]) == [5, 6, 7]


def test_failed_and_running_submissions_are_listed_not_fetched(cli, replay, life, tmp_path):
    listing = body_of(22)
    for sub in listing:
        if sub["id"] == 7:
            sub.update(status="Failed", scores=[], leaderboard=None, on_leaderboard=False)
        if sub["id"] == 4:
            sub.update(status="Running", scores=[])
    replay.route("GET", "/api/submissions/", Answer(200, listing), phase=4)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    entries = dict((e["id"], e) for e in manifest_of(out)["submissions"])
    assert (entries[7]["state"], entries[7]["file"], entries[7]["reason"]) == ("failed", None, "platform status Failed")
    assert (entries[4]["state"], entries[4]["file"]) == ("running", None)
    assert not os.path.exists(os.path.join(out, "team-c"))
    assert "not fetched: platform status Failed" in stdout
    download = layouts.read_download(out)
    states = sorted((c.label, c.ineligible()) for c in download.candidates)
    assert ("id 7", "platform status Failed") in states and ("id 4", "platform status Running") in states


def test_a_paginated_answer_is_read_to_its_end(cli, replay, life, tmp_path):
    listing = body_of(22)
    replay.route("GET", "/api/submissions/", Answer(200, {
        "count": 6, "next": "%s/api/submissions/?page=2&phase=4" % replay.base, "previous": None,
        "results": listing[:4]}), phase=4)
    replay.route("GET", "/api/submissions/", Answer(200, {"count": 6, "next": None, "results": listing[4:]}),
                 phase=4, page=2)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    assert sorted(e["id"] for e in manifest_of(out)["submissions"] if e["state"] == "counted") == [5, 6, 7]
    assert len(manifest_of(out)["submissions"]) == 6


def test_pull_asks_each_file_when_the_bulk_call_is_refused(cli, replay, life, tmp_path):
    replay.route("POST", "/api/submissions/download_many/", Answer(405, {"detail": "Method \"POST\" not allowed."}))
    urls = cr.file_urls()
    for sub_id in (5, 6, 7):
        details = dict(body_of(32), data_file=urls[sub_id])
        replay.route("GET", "/api/submissions/%d/get_details/" % sub_id, Answer(200, details))
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    assert "download_many refused (405)" in err
    for entry in manifest_of(out)["submissions"]:
        if entry["file"]:
            with open(os.path.join(out, entry["file"]), "rb") as handle:
                assert handle.read() == life.zips[entry["id"]]


def test_the_rule_auto_takes_the_leaderboard_s_last_the_newest(cli, replay, life, tmp_path):
    listing = body_of(22)
    for sub in listing:          # rule Add: team-a put its first submission on the leaderboard
        if sub["owner"] == "team-a":
            sub["on_leaderboard"] = sub["id"] == 2
    replay.route("GET", "/api/submissions/", Answer(200, listing), phase=4)
    auto, last = str(tmp_path / "auto"), str(tmp_path / "last")
    assert cli("pull", "--phase", "4", "--out", auto, *WAITS)[0] == 0
    assert cli("pull", "--phase", "4", "--out", last, "--rule", "last", *WAITS)[0] == 0
    assert os.listdir(os.path.join(auto, "team-a")) == ["2_baseline-unconstrained-test.zip"]
    assert os.listdir(os.path.join(last, "team-a")) == ["5_team-a-v2-no-fill_mask_char.zip"]
    every = str(tmp_path / "all")
    assert cli("pull", "--phase", "4", "--out", every, "--all", "--exclude", "team-c", *WAITS)[0] == 0
    assert sorted(e["id"] for e in manifest_of(every)["submissions"] if e["file"]) == [2, 3, 5, 6]
    assert [e["state"] for e in manifest_of(every)["submissions"] if e["team"] == "team-c"] == ["excluded"] * 2


def test_team_names_become_safe_folders_and_stay_whole_in_the_manifest(cli, replay, life, tmp_path):
    hostile = {2: "../../escape", 3: "Owls", 4: "owls", 5: "con", 6: "a/b\\c", 7: "\u202etxt.exe\x07"}
    listing = body_of(22)
    for sub in listing:
        sub["owner"] = hostile[sub["id"]]
        sub["filename"] = "../%s.zip" % hostile[sub["id"]]
    replay.route("GET", "/api/submissions/", Answer(200, listing), phase=4)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    record = manifest_of(out)
    assert sorted(record["teams"].values()) == sorted(["escape", "Owls", "owls-2", "_con", "a_b_c", "txt.exe"])
    for dirpath, dirnames, filenames in os.walk(out):
        for name in dirnames + filenames:
            assert os.path.realpath(os.path.join(dirpath, name)).startswith(os.path.realpath(out) + os.sep)
    assert not os.path.exists(str(tmp_path / "escape"))
    assert sorted(c.team for c in layouts.read_download(out).candidates) == sorted(hostile.values())
    assert "\x07" not in stdout and "\u202e" not in stdout


def test_pull_refuses_a_folder_of_another_pull_or_of_other_files(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, *WAITS)[0] == 0
    replay.recorded_route(74)
    replay.route("GET", "/api/phases/3/get_leaderboard/", 37)
    status, stdout, err = cli("pull", "--phase", "3", "--out", out, *WAITS)
    assert status == 2 and "holds the pull of phase 4" in err
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    status, stdout, err = cli("pull", "--phase", "4", "--out", str(other), *WAITS)
    assert status == 2 and "is not empty and holds no codabench-manifest.json" in err


# --------------------------------------------------------------------------------------- results of a pulled folder
def test_results_read_the_manifest_not_the_file_times(cli, replay, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, "--all", *WAITS)[0] == 0
    for dirpath, _, filenames in os.walk(out):     # times that would reverse the order
        for name in filenames:
            sub_id = int(name.split("_")[0]) if name[0].isdigit() else 0
            os.utime(os.path.join(dirpath, name), (2e9 - sub_id, 2e9 - sub_id))
    download = layouts.read_download(out)
    found = sorted((c.team, c.label, c.order, c.time, c.status) for c in download.candidates)
    listing = dict((s["id"], s) for s in body_of(22))
    assert found == sorted((listing[i]["owner"], "id %d" % i, (i,), listing[i]["created_when"], "Finished")
                           for i in range(2, 8))
    assert download.platform == "codabench"
    (tmp_path / "pull" / "team-a" / "by-hand.zip").write_bytes(life.zips[2])
    assert any("ignored: team-a/by-hand.zip" in note for note in layouts.read_download(out).notes)


def test_results_refuse_a_pulled_file_changed_or_missing(cli, life, tmp_path):
    out = str(tmp_path / "pull")
    assert cli("pull", "--phase", "4", "--out", out, *WAITS)[0] == 0
    target = os.path.join(out, "team-c", "7_team-c-v2-no-pos-no-morph.zip")
    with open(target, "wb") as handle:
        handle.write(life.zips[2])
    with pytest.raises(DataError, match="changed since the pull"):
        layouts.read_download(out)
    os.remove(target)
    with pytest.raises(DataError, match="is missing: run `python -m organiser codabench pull` again"):
        layouts.read_download(out)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_results_runs_on_the_folder_pull_wrote(replay, token_file, tmp_path, monkeypatch):
    """The recorded competition played through with the build's own test baseline as the teams' files (as the
    recorded teams made them): pull, a rerun, pull again, then ``make results SUBMISSIONS=<pull>``."""
    ref, dist = build_competition("st2024", tmp_path / "build")
    with open(os.path.join(dist, "submissions", "baseline-unconstrained-test.zip"), "rb") as handle:
        zips = cr.scenario_zips(handle.read())
    cr.life(replay, zips)
    out = str(tmp_path / "pull")
    argv = ["pull", "--base-url", replay.base, "--token-file", token_file, "--phase", "4", "--out", out] + WAITS
    monkeypatch.delenv("CODABENCH_TOKEN", raising=False)
    assert codabench_main(argv) == 0
    replay.route("GET", "/api/submissions/", Answer(200, cr.after_rerun_list()), phase=4)
    replay.recorded_route(46)
    assert codabench_main(argv) == 0
    process = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.stamp", "results",
                              "SUBMISSIONS=%s" % out, "DIST=%s" % dist, "REF=%s" % ref,
                              "PY=%s" % sys.executable, "RESULTS_OPTIONS=--jobs 1 --resamples 200"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode == 0, process.stderr[-3000:]
    with open(os.path.join(dist, "results", "results.json"), encoding="utf-8") as handle:
        results = json.load(handle)
    records = dict((r["label"], r) for r in results["submissions"] if not r["baseline"])
    assert dict((label, (r["team"], r["state"])) for label, r in records.items()) == {
        "id 8": ("team-a", "official"), "id 6": ("team-b", "official"), "id 7": ("team-c", "official"),
        "id 9": ("team-a", "not scored")}
    ranked = dict((row["name"], row) for row in results["subtasks"][0]["rows"] if not row["baseline"])
    assert ranked["team-a"]["scores"]["avg_score"]["value"] == ranked["team-b"]["scores"]["avg_score"]["value"]
    assert ranked["team-c"]["scores"]["avg_score"]["value"] < ranked["team-b"]["scores"]["avg_score"]["value"]
    # the platform's scores, as the manifest recorded them, reach the results and are compared with the kit's
    # re-score of the part the platform scored (the public part), not with the private ranking
    with open(os.path.join(out, "codabench-manifest.json"), encoding="utf-8") as handle:
        manifest = dict((e["id"], e) for e in json.load(handle)["submissions"])
    shakeup = results["subtasks"][0]["shakeup"]["teams"]
    for label, team in (("id 8", "team-a"), ("id 6", "team-b"), ("id 7", "team-c")):
        shipped = float(manifest[int(label[3:])]["scores"]["avg_score"])
        assert records[label]["platform_avg_score"] == shipped
        public = shakeup[ranked[team]["id"]]["public_score"]
        assert ("unconstrained: %s scored %.6f on the platform, %.6f re-scored on the public part"
                % (team, shipped, public)) in results["notes"]


# ----------------------------------------------------------------------------------------------- the leaderboard
def test_leaderboard_snapshot_waits_for_every_column_then_writes_json_and_csv(cli, replay, life, tmp_path):
    early = body_of(37)
    early["submissions"][0]["scores"] = early["submissions"][0]["scores"][:40]   # a row shown before its scores
    replay.route("GET", "/api/phases/4/get_leaderboard/", Answer(200, early), 37)
    out = str(tmp_path / "boards")
    status, stdout, err = cli("leaderboard", "--phase", "4", "--out", out, "--poll", "0.05", "--settle", "5")
    assert status == 0, err
    assert len(replay.calls("GET", "/api/phases/4/get_leaderboard/")) == 2
    names = sorted(os.listdir(out))
    assert len(names) == 2 and names[0].endswith(".csv") and names[1].endswith(".json")
    with open(os.path.join(out, names[1]), encoding="utf-8") as handle:
        snapshot = json.load(handle)
    assert [(r["position"], r["team"], r["submission"]) for r in snapshot["rows"]] == [
        (1, "team-b", 6), (2, "team-a", 5), (3, "team-c", 7)]
    assert all(len(r["scores"]) == 93 and r["missing"] == [] for r in snapshot["rows"])
    assert snapshot["taken_at"].replace("-", "").replace(":", "") in names[1]
    with open(os.path.join(out, names[0]), encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:6] == ["taken_at", "position", "team", "submission", "created_when", "Average score [avg_score]"]
    assert [row[2] for row in rows[1:]] == ["team-b", "team-a", "team-c"] and rows[1][5] == "0.8775"


# ------------------------------------------------------------------------------------- reference, open-test, connect
def reference_zip(path, split=None, private=False, placeholder=False):
    """A test reference zip: one reference file and its split.json (``split``: the indices made public)."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("phase.json", json.dumps({"gold": "hidden", "phase": "test"}))
        if placeholder:
            archive.writestr("TEST_REFERENCE_PENDING.txt", "pending")
        if split is not None:
            archive.writestr("split.json", json.dumps({
                "mode": "public_private", "part": "private" if private else "public", "public_fraction": 0.3,
                "seed_digest": "29cc9a8913b7", "unit": "sentences",
                "files": {"pos_tagging/chu.json": {"indices": split, "items": 8, "scored": len(split)}}}))
        archive.writestr("pos_tagging/chu.json", "[]")
    return str(path)


def test_reference_replaces_the_task_s_reference_keeping_the_split(cli, replay, tmp_path):
    current = reference_zip(tmp_path / "current.zip", [2, 5])
    with open(current, "rb") as handle:
        model = cr.life(replay, small_zips(), handle.read())
    fixed = reference_zip(tmp_path / "unconstrained-test.zip", [2, 5])
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip", fixed, "--private",
                           str(tmp_path / "none"))
    assert status == 0, err
    patch = [json.loads(r["body"].decode()) for r in replay.requests if r["path"] == "/api/tasks/4/"]
    recorded_task = [t for p in body_of(8)["phases"] if p["id"] == 4 for t in p["tasks"]][0]
    scoring = [d["key"] for d in recorded_task["public_datasets"] if d["type"] == "scoring_program"][0]
    assert patch == [{"reference_data": patch[0]["reference_data"], "scoring_program": scoring,
                      "ingestion_program": None, "input_data": None}]
    assert model.datasets[patch[0]["reference_data"]]["type"] == "reference_data"
    assert "reference data is now unconstrained-test.zip" in out and "seed digest 29cc9a8913b7, as before" in out
    with open(fixed, "rb") as handle:
        assert handle.read() in replay.stored.values()


def test_reference_refuses_a_split_drawn_otherwise_before_any_upload(cli, replay, tmp_path):
    current = reference_zip(tmp_path / "current.zip", [2, 5])
    with open(current, "rb") as handle:
        cr.life(replay, small_zips(), handle.read())
    moved = reference_zip(tmp_path / "moved.zip", [2, 6])
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip", moved)
    assert status == 2
    assert "the public part would change (pos_tagging/chu.json: 1 item(s) made public that were not (6), 1 no " \
           "longer public)" in err
    assert replay.calls("POST", "/api/datasets/") == [] and replay.calls("PATCH") == []
    assert cli("reference", "--competition", "2", "--phase", "4", "--zip", moved, "--new-draw")[0] == 0
    private = tmp_path / "private"
    private.mkdir()
    (private / "split.json").write_text(json.dumps({"seed_digest": "000000000000", "part": "private"}))
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip", current, "--private",
                           str(private))
    assert status == 2 and "drawn with another seed (29cc9a8913b7) than the private part" in err
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip",
                           reference_zip(tmp_path / "p.zip", [0, 1, 3], private=True))
    assert status == 2 and "holds the private part of the test gold" in err
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip",
                           reference_zip(tmp_path / "pending.zip", placeholder=True))
    assert status == 2 and "is the placeholder" in err


def test_reference_says_when_the_current_reference_cannot_be_read(cli, replay, tmp_path):
    cr.life(replay, small_zips())
    replay.prefix_route("GET", "/datasets/download/", lambda request: Answer(403, "<html>Forbidden</html>",
                                                                             "text/html"))
    fixed = reference_zip(tmp_path / "fixed.zip", [2, 5])
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip", fixed)
    assert status == 2 and "Codabench answered 403; give --previous <the reference zip uploaded before>" in err
    previous = reference_zip(tmp_path / "previous.zip", [2, 5])
    assert cli("reference", "--competition", "2", "--phase", "4", "--zip", fixed, "--previous", previous)[0] == 0


def test_reference_refused_to_a_collaborator_says_who_may(cli, replay, tmp_path):
    cr.life(replay, small_zips(), open(reference_zip(tmp_path / "c.zip", [2, 5]), "rb").read())
    # source: TaskViewSet.update refuses anyone but the task's creator or a superuser
    replay.route("PATCH", "/api/tasks/4/", Answer(403, {"detail": "Cannot update a task that is not yours"}))
    status, out, err = cli("reference", "--competition", "2", "--phase", "4", "--zip",
                           reference_zip(tmp_path / "f.zip", [2, 5]))
    assert status == 1
    assert "refused (403 Cannot update a task that is not yours)" in last_line(err)


def test_open_test_attaches_the_test_input_once_the_phase_is_open(cli, replay, life, tmp_path):
    test_input = tmp_path / "unconstrained-test.zip"
    with zipfile.ZipFile(str(test_input), "w") as archive:
        archive.writestr("morphology/test/chu_test.conllu", "# text = x\n")
    life.phase_status[4] = "Next"
    status, out, err = cli("open-test", "--competition", "2", "--phase", "4", "--zip", str(test_input))
    assert status == 2 and "opens at 2026-11-28T00:00:01Z: attached now, its test input would be shown" in err
    assert replay.calls("POST") == []
    life.phase_status[4] = "Current"
    status, out, err = cli("open-test", "--competition", "2", "--phase", "4", "--zip", str(test_input))
    assert status == 0, err
    patched = [json.loads(r["body"].decode()) for r in replay.requests if r["path"] == "/api/phases/4/"]
    assert len(patched) == 1 and life.public[4]["id"] == patched[0]["public_data"]
    assert "public data is now unconstrained-test.zip" in out


def test_connect_puts_each_team_s_newest_finished_submission_on_the_leaderboard(cli, replay, life):
    listing = body_of(22)
    for sub in listing:          # a v1.5 bundle's rule Add: nothing on the leaderboard
        sub.update(leaderboard=None, on_leaderboard=False)
    replay.route("GET", "/api/submissions/", Answer(200, listing), phase=4)
    for sub_id in (5, 6, 7):     # source: submission_leaderboard_connection answers {}
        replay.route("POST", "/api/submissions/%d/submission_leaderboard_connection/" % sub_id, Answer(200, {}))
    status, out, err = cli("connect", "--phase", "4")
    assert status == 0, err
    assert replay.calls("POST") == ["POST /api/submissions/%d/submission_leaderboard_connection/" % i
                                    for i in (5, 6, 7)]
    assert "3 submission(s) put on the leaderboard of phase 4" in out


# ------------------------------------------------------------------------------------------------ error paths
def test_a_bad_token_is_said_in_one_line(cli, replay, life, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text("0000wrongtoken0000\n")
    os.chmod(str(wrong), 0o600)
    status, out, err = cli("phases", "--competition", "2", token=str(wrong))
    assert status == 1
    assert err.strip() == ("codabench phases: reading competition 2: %s refused the token (403 Invalid token.): a "
                           "wrong or revoked token, or one of another Codabench instance; get one with `python -m "
                           "organiser codabench login --base-url %s`" % (replay.base, replay.base))
    status, out, err = cli("leaderboard", "--phase", "4", "--out", str(tmp_path / "b"), token=str(wrong))
    assert status == 1 and "refused the token (403 Invalid token.)" in err
    assert "0000wrongtoken0000" not in "".join(cli.outputs)


@pytest.mark.parametrize("number, command", [(61, ["publish", "--competition", "2"]),
                                             (57, ["pull", "--phase", "4"])])
def test_a_participant_s_token_is_told_it_is_not_an_organiser(cli, replay, life, tmp_path, number, command):
    request = cr.recorded(number)["request"]
    replay.route(request["method"], request["path"], number)
    extra = ["--out", str(tmp_path / "pull")] + WAITS if command[0] == "pull" else []
    status, out, err = cli(*(command + extra))
    assert status == 1
    detail = body_of(number)["detail"]
    assert last_line(err).endswith("refused (403 %s): the account of this token is not an organiser (owner or "
                                   "collaborator) of this competition, or may not do this" % detail)


@pytest.mark.parametrize("number, command, thing", [
    (74, ["pull", "--phase", "999999"], "phase 999999"),
    (74, ["leaderboard", "--phase", "999999"], "phase 999999"),
    (72, ["phases", "--competition", "999999"], "competition 999999"),
    (72, ["publish", "--competition", "999999"], "competition 999999")])
def test_no_such_phase_or_competition_is_said_in_one_line(cli, replay, life, tmp_path, number, command, thing):
    replay.recorded_route(number)
    extra = ["--out", str(tmp_path / "x")] + WAITS if command[0] in ("pull", "leaderboard") else []
    status, out, err = cli(*(command + extra))
    assert status == 1
    assert len(err.strip().splitlines()) == 1
    assert "no such %s on %s, or not one this account can see (404 %s)" % (thing, replay.base,
                                                                          body_of(number)["detail"]) in err


def test_an_unknown_submission_in_the_bulk_call_is_said(cli, replay, life, tmp_path):
    replay.route("POST", "/api/submissions/download_many/", 36)
    status, out, err = cli("pull", "--phase", "4", "--out", str(tmp_path / "p"), *WAITS)
    assert status == 1 and "(404 One or more submission IDs are invalid)" in err


def test_5xx_answers_are_retried_with_backoff_then_succeed(cli, replay, life):
    replay.route("GET", "/api/competitions/2/", Answer(503, "<html>busy</html>", "text/html"),
                 Answer(502, "<html>bad gateway</html>", "text/html"), life.detail)
    status, out, err = cli("phases", "--competition", "2")
    assert status == 0, err
    assert err.count("Codabench answered") == 2 and "trying again in 0.0 s (attempt 2 of 3)" in err
    assert len(replay.calls("GET", "/api/competitions/2/")) == 3


def test_5xx_answers_every_time_give_up_in_one_line(cli, replay, life):
    replay.route("GET", "/api/competitions/2/", Answer(503, "<html>busy</html>", "text/html"))
    status, out, err = cli("phases", "--competition", "2")
    assert status == 1
    assert last_line(err) == ("codabench phases: reading competition 2: Codabench failed (503 an HTML page) "
                              "(3 attempts); try again later")
    assert len(replay.calls("GET", "/api/competitions/2/")) == 3


def test_an_unreachable_address_is_said_in_one_line(cli):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, out, err = cli("phases", "--competition", "2", base="http://127.0.0.1:%d" % port)
    assert status == 1
    assert last_line(err) == ("codabench phases: reading competition 2: cannot reach http://127.0.0.1:%d (connection "
                              "refused): is the address right and the server up? (after 3 attempts)" % port)
    status, out, err = cli("phases", "--competition", "2", base="ftp://example.org")
    assert status == 2 and "is not an http(s) address" in err


def test_a_timeout_is_retried_then_said(cli, replay, life):
    slow = Answer(200, {}, delay=1.5)
    replay.route("GET", "/api/competitions/2/", slow, life.detail)
    status, out, err = cli("phases", "--competition", "2", "--timeout", "0.5")
    assert status == 0 and "no answer from %s within 0.5 s" % replay.base in err
    replay.route("GET", "/api/competitions/2/", slow)
    status, out, err = cli("phases", "--competition", "2", "--timeout", "0.5", "--retries", "1")
    assert status == 1
    assert last_line(err) == ("codabench phases: reading competition 2: no answer from %s within 0.5 s: the server is "
                              "slow or unreachable; try again or raise --timeout (after 2 attempts)" % replay.base)


def test_a_token_file_others_can_read_is_refused(cli, replay, token_file):
    os.chmod(token_file, 0o644)
    status, out, err = cli("phases", "--competition", "2")
    assert status == 2
    assert err.strip() == ("codabench phases: token file %s can be read or changed by others (mode 644): run `chmod "
                           "600 %s`; it is not used until then" % (token_file, token_file))
    assert replay.requests == []
    status, out, err = cli("phases", "--competition", "2", token=str(os.path.join(os.path.dirname(token_file), "none")))
    assert status == 2 and "no Codabench token: set CODABENCH_TOKEN" in err


def test_the_token_from_the_environment_is_used(cli, replay, life, monkeypatch):
    monkeypatch.setenv("CODABENCH_TOKEN", cr.TOKEN)
    assert cli("phases", "--competition", "2", token=None)[0] == 0
    assert replay.requests[-1]["headers"]["Authorization"] == "Token %s" % cr.TOKEN


def test_login_writes_the_token_readable_by_its_owner_only(cli, replay, tmp_path, monkeypatch):
    replay.recorded_route(1)
    monkeypatch.setenv("CODABENCH_PASSWORD", "s3cret-password")
    target = str(tmp_path / "conf" / "token")
    status, out, err = cli("login", "--username", "organiser", token=target)
    assert status == 0, err
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert open(target).read().strip() == body_of(1)["token"]
    assert dict(parse_qsl(replay.requests[-1]["body"].decode())) == {
        "username": "organiser", "password": "s3cret-password"}
    replay.recorded_route(2)
    status, out, err = cli("login", "--username", "organiser", token=target)
    assert status == 1 and "(400 Unable to log in with provided credentials.)" in err
    status, out, err = cli("login", "--username", "organiser", token=os.path.join(ROOT, "dist", "token"))
    assert status == 2 and "inside dist/" in err
    assert "s3cret-password" not in "".join(cli.outputs)


def test_no_token_appears_in_any_output_or_file(cli, replay, life, tmp_path):
    """The whole life with a known token, and its failures: the token is in no output and no file written, and is
    sent only to the API, never to the file store."""
    bundle = tmp_path / "x-codabench.zip"
    with zipfile.ZipFile(str(bundle), "w") as archive:
        archive.writestr("competition.yaml", "x")
    pulled, boards = str(tmp_path / "pull"), str(tmp_path / "boards")
    assert cli("upload", str(bundle), "--poll", "0.05")[0] == 0
    assert cli("publish", "--competition", "2")[0] == 0
    assert cli("participants", "--competition", "2", "--approve")[0] == 0
    assert cli("pull", "--phase", "4", "--out", pulled, *WAITS)[0] == 0
    assert cli("leaderboard", "--phase", "4", "--out", boards, *WAITS[:4])[0] == 0
    replay.route("GET", "/api/competitions/2/", Answer(500, {"detail": "Token %s" % cr.TOKEN}))
    assert cli("phases", "--competition", "2")[0] == 1
    assert cli("phases", "--competition", "2", base="http://127.0.0.1:1/?token=%s" % cr.TOKEN)[0] == 1
    text = "".join(cli.outputs)
    assert cr.TOKEN not in text and "Signature=" not in text
    for folder in (pulled, boards):
        for dirpath, _, filenames in os.walk(folder):
            for name in filenames:
                with open(os.path.join(dirpath, name), "rb") as handle:
                    data = handle.read()
                assert cr.TOKEN.encode() not in data and b"Signature=" not in data, name
    sent = [r for r in replay.requests if "Authorization" in r["headers"]]
    assert sent and all(not r["path"].startswith("/private/") for r in sent)
    assert all(r["headers"]["Authorization"] == "Token %s" % cr.TOKEN for r in sent)


def test_sanitise_takes_out_the_token_and_queries():
    client = client_module.Client("http://127.0.0.1:9", "tok123")
    text = client.sanitise("failed: GET http://h/private/x.zip?Signature=abc&Expires=1 with tok123 and /p?a=b")
    assert text == "failed: GET http://h/private/x.zip?<query> with <token> and /p?<query>"
    assert "tok123" not in repr(client)


def test_safe_folder_names():
    taken = {}
    assert [manifest.folder_name(n, taken) for n in ("Owls", "owls", "OWLS", "Owls")] == ["Owls", "owls-2", "OWLS-3",
                                                                                         "Owls"]
    assert manifest.safe_component("..") == "team" and manifest.safe_component("a" * 200) == "a" * 64
    assert manifest.file_name(8, "../../x y.zip") == "8_x_y.zip"


# ---------------------------------------------------------------------------------------------------------- docs
def test_the_procedure_gives_the_whole_life_in_order_with_targets_that_exist():
    with open(os.path.join(ROOT, "docs", "organisers.md"), encoding="utf-8") as handle:
        text = handle.read()
    steps = ["make COMPETITION=<id> DATA=<release>", "make check COMPETITION=<id>", "make codabench-upload",
             "make codabench-publish", "make codabench-approve", "make codabench-phases", "make codabench-open-test",
             "make codabench-reference ...` again", "make pull PHASE=", "make leaderboard PHASE=",
             "make results COMPETITION=<id> SUBMISSIONS=<the folder pull wrote>"]
    table = text[text.index("**The whole life of a competition, in order.**"):text.index("## 1. Build and check")]
    places = [table.find(step) for step in steps]
    assert -1 not in places and places == sorted(places), list(zip(steps, places))
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as handle:
        targets = set(line.split(":")[0] for line in handle if line[:1].isalpha() and ":" in line.split("=")[0])
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    named = set(word for doc in (text, readme) for word in re.findall(r"`make ([a-z][a-z-]*[a-z])\b(?!-)", doc))
    assert named - targets == set()
    assert set(["codabench-login", "codabench-upload", "codabench-publish", "codabench-approve", "codabench-phases",
                "codabench-reference", "codabench-open-test", "pull", "leaderboard"]) <= named


def test_a_failed_download_leaves_a_manifest_make_results_refuses_until_pulled_again(cli, replay, life, tmp_path):
    url = cr.file_urls()[6]
    saved = replay.files.pop(urlsplit(replay.rewrite(url)).path)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 1
    assert last_line(err) == ("codabench pull: downloading team-b: submission 6: the file store has no file at %s "
                              "(404 NoSuchKey: The specified key does not exist.)"
                              % client_module.shown_url(replay.rewrite(url)))
    assert "Signature" not in err
    entries = dict((e["id"], e) for e in manifest_of(out)["submissions"])
    assert entries[6]["file"] is None and entries[6]["reason"].endswith("its download failed: pull again")
    with pytest.raises(DataError, match="counts for team-b but was not fetched"):
        layouts.read_download(out)
    replay.serve(url, saved)
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    assert "2 file(s) fetched, 1 already here" in stdout and len(layouts.read_download(out).candidates) == 3


def test_a_long_download_says_how_far_it_is(cli, replay, life, tmp_path):
    big = os.urandom(5 << 20)
    replay.serve(cr.file_urls()[6], big)
    out = str(tmp_path / "pull")
    status, stdout, err = cli("pull", "--phase", "4", "--out", out, *WAITS)
    assert status == 0, err
    progress = [line for line in err.splitlines() if line.startswith("downloading team-b: submission 6: ")]
    assert progress[0] == "downloading team-b: submission 6: 0.5 of 5.2 MB (10%)"
    assert progress[-1] == "downloading team-b: submission 6: 5.2 of 5.2 MB (100%)" and len(progress) == 10
    with open(os.path.join(out, "team-b", "6_baseline-unconstrained-test.zip"), "rb") as handle:
        assert handle.read() == big


def test_split_changes_compare_positions_only_where_the_items_are_the_same():
    from organiser.codabench.commands import split_changes

    def split(seed, **files):
        return {"seed_digest": seed, "files": dict((name.replace("_", "/", 1) + ".json",
                                                    {"items": items, "indices": indices})
                                                   for name, (items, indices) in files.items())}
    assert split_changes(split("a", pos_chu=(8, [2, 5])), split("a", pos_chu=(8, [2, 5]))) == ([], [])
    assert split_changes(split("a", pos_chu=(8, [2, 5])), split("b", pos_chu=(8, [2, 5])))[0] == [
        "drawn with another seed (seed digest b, was a)"]
    assert split_changes(split("a", pos_chu=(8, [2, 5])), split("a", pos_chu=(8, [2, 6])))[0] == [
        "pos/chu.json: 1 item(s) made public that were not (6), 1 no longer public"]
    assert split_changes(split("a", pos_chu=(8, [2, 5])), split("a", pos_chu=(9, [2, 6]))) == (
        [], ["pos/chu.json: 9 items, was 8 (not compared by position)"])
    assert split_changes(None, split("a", pos_chu=(8, [2, 5]))) == ([], [])


def test_make_results_reads_a_pulled_folder_without_the_http_library():
    code = "import sys, organiser.results.layouts; print('requests' in sys.modules)"
    process = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, universal_newlines=True)
    assert process.stdout.strip() == "False"
