"""Every hosted competition built on its sample in the test feedback modes ``blind`` and ``full`` (issue 23; the
default ``public_private`` is built by test_competition_builds.py and test_split.py), as ``make COMPETITION=<id>
SCHEDULE=<schedule>`` builds it: a copy of the competition's schedule whose ``test_feedback.mode`` is changed, given
to the reference step (the split) and the bundle step alike. Each build passes ``organiser check`` (rules, both
workers on every phase, the leak audit); in mode blind the platform's test phase writes only ``valid`` (and the
signature), the leaderboard has its column, the pages and ORGANISERS.md say the phase is blind; in mode full the
pages say that teams see their test scores, and the test phase's scores are those of the scoring program run on the
whole test gold, key for key."""
import csv
import html
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

import shakeup_demo
from conftest import ROOT, build_competition
from organiser import bundle, check, declarations, feedback, platforms

MODES = (feedback.BLIND, feedback.FULL)


def schedule_in_mode(cid, mode, folder):
    """A copy of competition ``cid``'s schedule in ``folder`` whose test feedback mode is ``mode``: the schedule read
    as the kit reads it (YAML), its ``test_feedback`` given ``mode`` (added when the schedule leaves the mode to its
    default), the rest as it is (dates, fraction)."""
    import yaml
    with open(declarations.Hosted(cid).schedule, encoding="utf-8") as handle:
        value = yaml.safe_load(handle)
    value["test_feedback"] = dict(value.get("test_feedback") or {}, mode=mode)
    path = os.path.join(str(folder), "schedule.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(value, handle, sort_keys=False, allow_unicode=True)
    return path


BUILDS = {}


def build_in_mode(cid, mode, tmp_path_factory):
    """``(cid, mode, reference folder, dist folder)``: the competition's sample built in ``mode`` (once per run;
    ``public_private``: its own schedule, the default build)."""
    if (cid, mode) not in BUILDS:
        root = tmp_path_factory.mktemp("%s-%s" % (cid, mode))
        schedule = None if mode == feedback.PUBLIC_PRIVATE else schedule_in_mode(cid, mode, root)
        ref, dist = build_competition(cid, root, schedule=schedule)
        BUILDS[(cid, mode)] = cid, mode, ref, dist
    return BUILDS[(cid, mode)]


@pytest.fixture(scope="module", params=[(cid, mode) for cid in declarations.hosted_ids() for mode in MODES],
                ids=lambda pair: "%s-%s" % pair)
def built(request, tmp_path_factory):
    """Each competition in each of the two modes."""
    return build_in_mode(request.param[0], request.param[1], tmp_path_factory)


@pytest.fixture(scope="module", params=declarations.hosted_ids())
def blind(request, tmp_path_factory):
    """Each competition in mode blind."""
    return build_in_mode(request.param, feedback.BLIND, tmp_path_factory)


@pytest.fixture(scope="module", params=declarations.hosted_ids())
def full(request, tmp_path_factory):
    """Each competition in mode full."""
    return build_in_mode(request.param, feedback.FULL, tmp_path_factory)


def official_bundles(dist):
    """``[(path, platform, competition, members)]`` of every bundle built in ``dist``."""
    manifest = bundle.read_manifest(dist)
    found = []
    for platform in (platforms.CODALAB, platforms.CODABENCH):
        for name in manifest["bundles"][platform]:
            path = os.path.join(dist, "bundles", name)
            _, members, competition, failures = check.read_bundle(path)
            assert competition and not failures, (path, failures)
            found.append((path, platform, competition, members))
    return found


def official_test_phase(competition, members):
    """``(program zip, reference zip, label)`` of a bundle's test phase (the one whose reference holds a split)."""
    phases = competition["phases"]
    for phase in (phases.values() if isinstance(phases, dict) else phases):
        reference = members.get(phase.get("reference_data") or "")
        if reference is None or feedback.zipped_split(reference) is None:
            continue
        return members[phase["scoring_program"]], reference, phase.get("label") or phase.get("name")
    raise AssertionError("no test phase with a split.json")


def v15_bundles(dist):
    """The CodaLab v1.5 bundles of ``dist`` (their phases are a mapping: the worker simulation reads them)."""
    return [(p, c, m) for p, platform, c, m in official_bundles(dist) if platform == platforms.CODALAB]


def baseline_submission(dist, cid, competition):
    """A baseline submission of the test phase (``dist/submissions``), as ``make check`` picks one."""
    subtask = check.subtask_of(competition, declarations.Hosted(cid).declaration)
    chosen = check.choose_submission(os.path.join(dist, "submissions"), subtask, "test",
                                     declarations.wording(cid)["phase_splits"])
    assert chosen, "no baseline test submission in %s" % dist
    return chosen


def run_scores(program, reference, submission, workdir):
    """The scores.json the Codabench worker reads after one run of ``program`` on ``reference`` (zip bytes)."""
    process, output, _ = check.execute("codabench", program, reference, submission, str(workdir), 600)
    assert not isinstance(process, str) and process.returncode == 0, process
    with open(os.path.join(output, "scores.json"), encoding="utf-8") as handle:
        return json.load(handle)


def zip_folder(folder):
    """The files of ``folder`` as zip bytes (a reference zip)."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for base, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(base, name)
                archive.write(path, os.path.relpath(path, folder).replace(os.sep, "/"))
    return data.getvalue()


def text_of(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def page_texts(dist):
    """``{page path: text}`` of every page the build wrote (``dist/pages/``), character references resolved."""
    found = {}
    for base, _, names in os.walk(os.path.join(dist, "pages")):
        for name in names:
            if name.endswith((".html", ".md")):
                found[os.path.join(base, name)] = html.unescape(text_of(os.path.join(base, name)))
    return found


def test_make_check_passes(built, capsys):
    """Rules, both workers on every phase (a blind test phase: its ``valid`` column), the leak audit."""
    cid, mode, ref, dist = built
    status = check.main(["--dist", dist, "--submissions", os.path.join(dist, "submissions")])
    out = capsys.readouterr().out
    assert status == 0, [line for line in out.splitlines() if line.startswith("FAIL")][:10]
    assert "leak audit" in out
    assert "mode %s" % mode in out


def test_the_split_is_the_schedules_mode(built):
    cid, mode, ref, dist = built
    public = feedback.read_split(os.path.join(ref, "test"))
    private = feedback.read_split(feedback.private_folder(ref, "test"))
    assert public["mode"] == private["mode"] == mode
    assert public["part"] == ("none" if mode == feedback.BLIND else "all") and private["part"] == "all"
    scored = feedback.part_sizes(public)[0]
    whole = feedback.part_sizes(private)[0]   # every scorable item (excluded ones aside)
    assert whole > 0 and scored == (0 if mode == feedback.BLIND else whole)


#: The competitions whose starting kit README asks for the paragraph on the test phase (``<!-- TEST_PHASE -->``).
MARKED = [cid for cid in declarations.hosted_ids() if os.path.isfile(os.path.join(
    declarations.Hosted(cid).starting_kit, "README.md")) and bundle.TEST_PHASE_MARKER in io.open(os.path.join(
        declarations.Hosted(cid).starting_kit, "README.md"), encoding="utf-8").read()]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cid", MARKED)
def test_the_kit_readme_says_the_builds_mode(cid, mode, tmp_path_factory):
    """The starting kit's README says what this build's test phase shows (issue 33, class 8): in mode blind, only the
    share of valid items, the final ranking on the whole test gold; in mode full, every team's test scores."""
    cid, mode, ref, dist = build_in_mode(cid, mode, tmp_path_factory)
    with zipfile.ZipFile(os.path.join(dist, "starting_kit.zip")) as archive:
        readme = archive.read("%s-starting-kit/README.md" % cid).decode("utf-8")
    assert bundle.TEST_PHASE_MARKER not in readme and "public part" not in readme
    assert feedback.kit_readme_text(feedback.read_split(os.path.join(ref, "test"))) in readme
    assert ("only the share of items validly predicted" in readme) == (mode == feedback.BLIND)
    assert ("every team sees its own test scores" in readme) == (mode == feedback.FULL)


def test_blind_writes_only_valid_and_says_so(blind, tmp_path):
    cid, mode, ref, dist = blind
    for path, platform, competition, members in official_bundles(dist):
        columns = competition["leaderboard"]["columns"] if platform == platforms.CODALAB else \
            dict((c["key"], c) for board in competition["leaderboards"] for c in board["columns"])
        assert feedback.VALID_KEY in columns, path
    path, competition, members = v15_bundles(dist)[0]
    program, reference, label = official_test_phase(competition, members)
    scores = run_scores(program, reference, baseline_submission(dist, cid, competition), tmp_path)
    assert set(scores) - set(["signature"]) == set([feedback.VALID_KEY]), scores
    assert 0 < scores[feedback.VALID_KEY] <= 1
    pages = page_texts(dist)
    assert pages and any(feedback.VALID_LABEL in text and "Blind" in text for text in pages.values())
    assert any(feedback.BLIND_ORDER in text for text in pages.values())   # the empty overall score, the order
    assert not any("every team sees its own test scores" in text for text in pages.values())
    organisers = text_of(os.path.join(dist, "ORGANISERS.md"))
    assert "Test feedback: mode `blind` (this build)" in organisers
    assert feedback.VALID_LABEL in organisers and feedback.BLIND_ORDER in organisers
    assert "Codabench orders the test leaderboard by that share, then by submission time" in organisers


def test_full_scores_are_the_whole_golds(full, tmp_path):
    cid, mode, ref, dist = full
    pages = page_texts(dist)
    assert any("every team sees its own test scores" in text for text in pages.values())
    assert not any("public part:" in text for text in pages.values())
    organisers = text_of(os.path.join(dist, "ORGANISERS.md"))
    assert "Test feedback: mode `full` (this build)" in organisers
    if cid != declarations.top_level_id():
        return
    # ST2024: the test phase's scores as uploaded are the scorer's on the whole gold (no split), key for key
    whole = shakeup_demo.full_gold(cid, str(tmp_path / "whole"))
    path, competition, members = v15_bundles(dist)[0]
    program, reference, label = official_test_phase(competition, members)
    submission = baseline_submission(dist, cid, competition)
    uploaded = run_scores(program, reference, submission, tmp_path / "uploaded")
    today = run_scores(program, zip_folder(whole), submission, tmp_path / "today")
    assert len(uploaded) > 3 and uploaded == today


# --------------------------------------------------------------------------- make results on each default build

def results_argv(cid, ref, dist, submissions, out, public=None):
    """``python -m organiser results`` as ``make results COMPETITION=<cid> SUBMISSIONS=...`` calls it on the build
    (``ref``, ``dist``): ranked on ``REF/private/test``, the public part ``REF/test`` beside when it is one (fewer
    bootstrap resamples, one worker: the sample is small)."""
    public = os.path.join(ref, "test") if public is None else public
    return [sys.executable, "-m", "organiser", "results", "--competition", cid,
            "--reference", feedback.private_folder(ref, "test"), "--submissions", submissions,
            "--public-reference", public, "--phase", "test", "--baselines", os.path.join(dist, "submissions"),
            "--out", out, "--resamples", "200", "--jobs", "1"]


def one_by_one(cid, dist, work):
    """A folder ``<team>/<name>.zip`` as an organiser fills it from Codabench's submission rows, one file at a time
    ("download selected submissions" fails with HTTP 405, codabench#2184): the build's test baselines and the
    made-up teams of tests/shakeup_demo.py (each one ``final.zip``), and team-g's earlier, better submission
    ``first.zip``, older by an hour (the file's time orders a team's submissions: its last one is official)."""
    decl = declarations.Hosted(cid).declaration
    full = shakeup_demo.full_gold(cid, work)
    teams = shakeup_demo.teams_folder(cid, decl, full, work, dist=dist)
    last = os.path.join(teams, "team-g", "final.zip")
    earlier = shakeup_demo.noisy_team(decl, full, os.path.join(teams, "team-g", "first.zip"), 0.0, 99)
    when = os.path.getmtime(last)
    os.utime(earlier, (when - 3600, when - 3600))
    return teams


@pytest.fixture(scope="module", params=declarations.hosted_ids())
def ranked(request, tmp_path_factory):
    """``(cid, ref, dist, teams folder, results folder, results.json)`` of ``make results`` on the default build."""
    cid = request.param
    _, _, ref, dist = build_in_mode(cid, feedback.PUBLIC_PRIVATE, tmp_path_factory)
    work = str(tmp_path_factory.mktemp("results-%s" % cid))
    teams = one_by_one(cid, dist, work)
    out = os.path.join(work, "results")
    process = subprocess.run(results_argv(cid, ref, dist, teams, out), cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode == 0, process.stderr[-3000:]
    return cid, ref, dist, teams, out, json.loads(text_of(os.path.join(out, "results.json")))


def test_results_rank_on_the_private_part_with_the_public_rank_beside(ranked):
    cid, ref, dist, teams, out, results = ranked
    private = feedback.read_split(feedback.private_folder(ref, "test"))
    assert results["ranked_on"] == "private part: %d of %d %s" % feedback.part_sizes(private)
    made_up = set(name for name, _ in shakeup_demo.NOISY)
    markdown, tex = text_of(os.path.join(out, "results.md")), text_of(os.path.join(out, "results.tex"))
    page = text_of(os.path.join(out, "results.html"))
    with open(os.path.join(out, "ranking.csv"), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert "Ranked on private part: " in markdown and "### Public rank and final rank" in markdown
    assert "Public rank & Public score" in tex and "<h3>Public rank and final rank</h3>" in page
    for sub in results["subtasks"]:
        names = dict((row["id"], row["name"]) for row in sub["rows"])
        shaken = sub["shakeup"]
        assert shaken["public_part"].startswith("public part: ")
        assert made_up <= set(names[ident] for ident in shaken["teams"])
        assert any(names[ident].startswith("kit-") for ident in shaken["teams"])   # the baselines, as teams
        for ident, team in shaken["teams"].items():
            assert 1 <= team["public_rank"] <= len(shaken["teams"]) and 1 <= team["final_rank"]
            listed = [row for row in rows if row["team"] == names[ident] and row.get("public_rank")]
            assert any(row["public_rank"] == str(team["public_rank"]) for row in listed), names[ident]
        official = next(row for row in sub["rows"] if row["name"] == "team-g")
        assert official["submission"]["label"] == "final.zip"   # the later file, not the better earlier one


def test_results_refuse_a_public_part_of_another_seed(ranked, tmp_path):
    cid, ref, dist, teams, out, results = ranked
    other = str(tmp_path / "public")
    shutil.copytree(os.path.join(ref, "test"), other)
    manifest = json.loads(text_of(os.path.join(other, feedback.SPLIT_FILE)))
    with open(os.path.join(other, feedback.SPLIT_FILE), "w", encoding="utf-8") as handle:
        json.dump(dict(manifest, seed_digest="0" * 12), handle)
    process = subprocess.run(results_argv(cid, ref, dist, teams, str(tmp_path / "out"), public=other), cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode != 0 and not os.path.exists(str(tmp_path / "out" / "results.json"))
    assert "drawn with another seed" in process.stderr and other in process.stderr
    assert "Traceback" not in process.stderr


def test_blind_and_full_results_rank_on_the_whole_test_set(built, tmp_path):
    """In modes blind and full the final ranking scores the whole gold; the uploaded reference gives no public
    rank (blind: no gold; full: the same gold)."""
    cid, mode, ref, dist = built
    teams = shakeup_demo.teams_folder(cid, declarations.Hosted(cid).declaration,
                                      shakeup_demo.full_gold(cid, str(tmp_path)), str(tmp_path), dist=dist)
    out = str(tmp_path / "out")
    process = subprocess.run(results_argv(cid, ref, dist, teams, out), cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode == 0, process.stderr[-3000:]
    results = json.loads(text_of(os.path.join(out, "results.json")))
    assert results["ranked_on"] == "the whole test set"
    assert "no public rank to show" in process.stderr
    assert all(not sub.get("shakeup") for sub in results["subtasks"])


def test_the_procedure_says_how_to_download_from_codabench_one_by_one():
    """Codabench's bulk download fails (HTTP 405, codabench#2184): docs/organisers.md says to download each row's
    file into ``<team>/<name>.zip`` (what test_results_rank_on_the_private_part_with_the_public_rank_beside reads)."""
    with open(os.path.join(ROOT, "docs", "organisers.md"), encoding="utf-8") as handle:
        text = " ".join(handle.read().split())
    assert "HTTP 405 since 2026-02 (codabench#2184)" in text
    assert "from its row, one by one, into a folder `<team>/<name>.zip`" in text
    assert "SUBMISSIONS=<download zip or folder>" in text and "`seed_digest` differ" in text
