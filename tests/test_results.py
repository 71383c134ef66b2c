"""Organiser results (issue 13) on a synthetic competition whose true order is known.

Teams are made from the sample data's development reference with controlled item noise
(tests/results_synth.py): less noise is a better team. The platforms' bulk-download layouts are
fixtures built here from what the platforms' source writes (see each builder's docstring).
"""
import csv
import glob
import io
import json
import os
import re
import shutil
import subprocess
import types
import zipfile

import numpy as np
import pytest

from conftest import ROOT, SCORING_PROGRAM
import results_synth
import st2024
from evalkit import keys, scoring
from html_check import NestingParser
from organiser.results import bootstrap, layouts
from organiser.results import main as results_main

SAMPLE = os.path.join(ROOT, "sample_data")
NASTY = "R&D_{team} 100% <b>x</b> \"q\" | *y*"
TEAMS = (("gold", 0.0), ("ten", 0.1), ("quarter", 0.25), ("half", 0.5))


@pytest.fixture(scope="session")
def reference(tmp_path_factory):
    """The development reference built from the synthetic sample data (``make reference`` does the same)."""
    if not os.path.isdir(os.path.join(SAMPLE, "morphology")):
        pytest.skip("sample_data/ has not been generated")
    from competitions.st2024 import reference as build
    work = str(tmp_path_factory.mktemp("results-ref"))
    assert build.main(["--data", SAMPLE, "--out", os.path.join(work, "ref"),
                       "--report", os.path.join(work, "dq.md")]) in (0, None)
    return os.path.join(work, "ref", "dev")


def plain_folder(ref, root, teams=TEAMS, twins=True):
    """``<team>/<name>.zip`` for ``teams`` ((name, noise)); ``twins``: two more teams with byte-identical zips."""
    for seed, (team, noise) in enumerate(teams):
        results_synth.write_team(st2024, ref, os.path.join(root, team, "final.zip"), noise, seed)
    if twins:
        twin = results_synth.write_team(st2024, ref, os.path.join(root, "twin-a", "final.zip"), 0.25, 99)
        os.makedirs(os.path.join(root, "twin-b"))
        shutil.copyfile(twin, os.path.join(root, "twin-b", "final.zip"))
    return root


def run_results(ref, submissions, out, *extra):
    """``python -m organiser results`` in-process; returns the parsed results.json."""
    return results_synth.run_results(["--reference", ref, "--submissions", submissions, "--no-baselines",
                                      "--resamples", "300", "--jobs", "1"] + list(extra), out)


@pytest.fixture(scope="session")
def synthetic(reference, tmp_path_factory):
    """One results run on the plain-folder layout: 4 teams of known order and two identical twins."""
    work = str(tmp_path_factory.mktemp("results-run"))
    teams = plain_folder(reference, os.path.join(work, "teams"))
    out = os.path.join(work, "out")
    results = results_synth.run_results(["--reference", reference, "--submissions", teams, "--no-baselines",
                                         "--resamples", "500", "--jobs", "2"], out)
    return {"results": results, "out": out, "teams": teams, "ref": reference}


def subtask(results):
    return results["subtasks"][0]


def ranked(sub, key=keys.OVERALL_KEY):
    """The names of the teams in the order of the ranking on ``key`` (rankings are made on identities)."""
    names = dict((row["id"], row["name"]) for row in sub["rows"])
    return [names[ident] for ident in sub["rankings"][key]["order"]]


def test_ranking_matches_true_order(synthetic):
    sub = subtask(synthetic["results"])
    order = ranked(sub)
    assert sub["rankings"][keys.OVERALL_KEY]["order"][:2] == ["team:gold", "team:ten"]
    assert order[:2] == ["gold", "ten"] and order[-1] == "half" and len(order) == 6
    assert set(order[2:5]) == {"quarter", "twin-a", "twin-b"}
    with open(os.path.join(synthetic["out"], "ranking.csv"), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["team"] for r in rows] == order
    assert rows[0]["rank"] == "1" and rows[1]["rank"] == "2"
    assert list(rows[0])[:5] == ["team", "rank", "avg_score", "avg_score_lo", "avg_score_hi"]
    for task in st2024.TASKS:
        assert keys.task_mean_key(task) in rows[0]
        ranking = ranked(sub, keys.task_mean_key(task))
        assert ranking[0] == "gold" and ranking[-1] == "half"


def test_numbers_equal_the_scorers_own_scores_json(synthetic, tmp_path):
    sub = subtask(synthetic["results"])
    for row in sub["rows"]:
        zip_path = os.path.join(synthetic["teams"], row["name"], "final.zip")
        official = results_synth.official_scores(os.path.join(SCORING_PROGRAM, "evaluate.py"), synthetic["ref"],
                                                 zip_path, str(tmp_path / row["name"]))
        assert official.pop("signature") == sub["signature"]
        assert set(official) == set(row["scores"])
        for key, value in official.items():
            assert row["scores"][key]["value"] == pytest.approx(value, abs=1e-11), (row["name"], key)


def test_intervals_contain_the_point_estimates(synthetic):
    for row in subtask(synthetic["results"])["rows"]:
        for key, score in row["scores"].items():
            assert score["lo"] - 1e-12 <= score["value"] <= score["hi"] + 1e-12, (row["name"], key, score)
    gold = [r for r in subtask(synthetic["results"])["rows"] if r["name"] == "gold"][0]
    assert gold["scores"][keys.OVERALL_KEY] == {"value": 1.0, "lo": 1.0, "hi": 1.0}


def test_identical_predictions_are_not_significantly_different(synthetic):
    sub = subtask(synthetic["results"])
    tests = [t for t in sub["rankings"][keys.OVERALL_KEY]["adjacent"]
             if {t["above"], t["below"]} == {"team:twin-a", "team:twin-b"}]
    assert len(tests) == 1 and tests[0]["p_value"] == 1.0 and not tests[0]["significant"]
    ranks = sub["rankings"][keys.OVERALL_KEY]["ranks"]
    assert ranks["team:twin-a"] == ranks["team:twin-b"] and ranks["team:twin-a"][0] < ranks["team:twin-a"][1]


def test_a_clearly_better_team_is_significant(synthetic):
    sub = subtask(synthetic["results"])
    first = sub["rankings"][keys.OVERALL_KEY]["adjacent"][0]
    assert (first["above"], first["below"]) == ("team:gold", "team:ten") and first["significant"]
    assert first["p_value"] < 0.01 and sub["rankings"][keys.OVERALL_KEY]["clusters"][0] == ["team:gold"]


def test_intervals_shrink_with_more_sentences(reference, tmp_path):
    big = str(tmp_path / "big")
    for path in glob.glob(os.path.join(reference, "*", "*.json")):
        with open(path, encoding="utf-8") as handle:
            sentences = json.load(handle)
        target = os.path.join(big, os.path.basename(os.path.dirname(path)), os.path.basename(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(sentences * 4, handle, ensure_ascii=False)
    widths = []
    for name, ref in (("small", reference), ("big", big)):
        teams = plain_folder(ref, str(tmp_path / ("teams-" + name)), TEAMS[1:3], twins=False)
        results = run_results(ref, teams, str(tmp_path / ("out-" + name)))
        widths.append(dict((row["name"], row["scores"][keys.OVERALL_KEY]["hi"] - row["scores"][keys.OVERALL_KEY]["lo"])
                           for row in subtask(results)["rows"]))
    for team in ("ten", "quarter"):
        assert 0 < widths[1][team] < 0.75 * widths[0][team], widths


def test_outputs_state_the_method_seed_and_count(synthetic):
    results = synthetic["results"]
    assert results["bootstrap"]["resamples"] == 500 and results["bootstrap"]["seed"] == 12345
    for name in ("results.md", "results.html", "results.tex"):
        with open(os.path.join(synthetic["out"], name), encoding="utf-8") as handle:
            text = handle.read()
        assert "Paired bootstrap over sentences (500 resamples, seed 12345)" in text, name
        assert subtask(results)["signature"].split("|")[0] in text
    assert sorted(os.listdir(os.path.join(synthetic["out"], "figures"))) == [
        "unconstrained-languages.svg", "unconstrained-scores.svg"]


def test_same_seed_same_intervals_other_seed_others(reference, synthetic, tmp_path):
    again = run_results(reference, synthetic["teams"], str(tmp_path / "a"), "--resamples", "500")
    other = run_results(reference, synthetic["teams"], str(tmp_path / "b"), "--resamples", "500", "--seed", "7")
    first = dict((r["name"], r["scores"][keys.OVERALL_KEY]) for r in subtask(synthetic["results"])["rows"])
    assert dict((r["name"], r["scores"][keys.OVERALL_KEY]) for r in subtask(again)["rows"]) == first
    assert dict((r["name"], r["scores"][keys.OVERALL_KEY]) for r in subtask(other)["rows"]) != first


# --------------------------------------------------------------------------- official submissions, failures

def test_last_submission_is_official_and_failures_are_listed(reference, tmp_path):
    root = str(tmp_path / "teams")
    old = results_synth.write_team(st2024, reference, os.path.join(root, "ada", "1-old.zip"), 0.0, 1)
    new = results_synth.write_team(st2024, reference, os.path.join(root, "ada", "2-new.zip"), 0.5, 2)
    good = results_synth.write_team(st2024, reference, os.path.join(root, "bob", "1-good.zip"), 0.1, 3)
    with open(os.path.join(root, "bob", "2-broken.zip"), "wb") as handle:
        handle.write(b"this is not a zip")
    os.makedirs(os.path.join(root, "cyd"))
    with zipfile.ZipFile(os.path.join(root, "cyd", "only.zip"), "w") as archive:
        archive.writestr("notes.txt", "nothing to score")
    for i, path in enumerate((old, good, new, os.path.join(root, "bob", "2-broken.zip"))):
        os.utime(path, (1e9 + i, 1e9 + i))
    results = run_results(reference, root, str(tmp_path / "out"))
    rows = dict((r["name"], r) for r in subtask(results)["rows"])
    assert sorted(rows) == ["ada", "bob"]
    assert rows["ada"]["submission"]["label"] == "2-new.zip"          # the last, although worse
    assert rows["bob"]["submission"]["label"] == "1-good.zip"         # the last could not be scored
    failed = dict((r["label"], r) for r in results["failures"])
    assert set(failed) == {"2-broken.zip", "only.zip"}
    assert "not a readable zip" in failed["2-broken.zip"]["reason"]
    assert "no usable submission" in failed["only.zip"]["reason"]
    with open(str(tmp_path / "out" / "results.md"), encoding="utf-8") as handle:
        text = handle.read()
    assert "2-broken.zip" in text and "only.zip" in text
    best = run_results(reference, root, str(tmp_path / "best"), "--official", "best")
    assert dict((r["name"], r["submission"]["label"]) for r in subtask(best)["rows"])["ada"] == "1-old.zip"


def test_baselines_are_marked_rows_and_never_ranked(reference, tmp_path):
    teams = plain_folder(reference, str(tmp_path / "teams"), TEAMS[1:3], twins=False)
    kit = str(tmp_path / "kit")
    results_synth.write_team(st2024, reference, os.path.join(kit, "baseline-unconstrained-valid.zip"), 0.3, 5)
    results_synth.write_team(st2024, reference, os.path.join(kit, "floor-unconstrained-valid.zip"), 0.9, 6)
    results_synth.write_team(st2024, reference, os.path.join(kit, "baseline-constrained-valid.zip"), 0.0, 7)
    out = str(tmp_path / "out")
    assert results_main(["--reference", reference, "--submissions", teams, "--out", out, "--baselines", kit,
                         "--resamples", "200", "--jobs", "1"]) == 0
    with open(os.path.join(out, "results.json"), encoding="utf-8") as handle:
        sub = subtask(json.load(handle))
    marked = [(r["name"], r["baseline"]) for r in sub["rows"]]
    assert marked == [("ten", False), ("quarter", False), ("baseline", True), ("floor", True)]
    assert ranked(sub) == ["ten", "quarter"]
    with open(os.path.join(out, "ranking.csv"), encoding="utf-8") as handle:
        assert [r["rank"] for r in csv.DictReader(handle)] == ["1", "2", "baseline", "baseline"]
    with open(os.path.join(out, "results.tex"), encoding="utf-8") as handle:
        assert r"\textit{floor (baseline)}" in handle.read()


def test_constrained_subtask_scores_its_own_files_only(reference, tmp_path):
    teams = plain_folder(reference, str(tmp_path / "teams"), TEAMS[:2], twins=False)
    results = run_results(reference, "constrained=" + teams, str(tmp_path / "out"))
    sub = subtask(results)
    assert sub["name"] == "constrained"
    assert [t["folder"] for t in sub["tasks"]] == list(st2024.SUBTASKS["constrained"]["tasks"])
    assert all(e["lang"] in st2024.SUBTASKS["constrained"]["languages"] for e in sub["entries"])


def test_bad_input_names_the_file(reference, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert results_main(["--reference", reference, "--submissions", str(tmp_path / "empty"),
                         "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "empty") in err and "expected a download of submissions" in err
    teams = tmp_path / "teams.csv"
    teams.write_text("name,group\nx,y\n", encoding="utf-8")
    assert results_main(["--reference", reference, "--submissions", str(tmp_path / "empty"), "--teams", str(teams),
                         "--out", str(tmp_path / "out")]) == 2
    assert "teams.csv, line 1: expected a header with the columns user and team" in capsys.readouterr().err


# --------------------------------------------------------------------------- the platforms' layouts

def codalab_download(path, ref):
    """Legacy CodaLab's "download all results" zip of a phase, as ``download_leaderboard_results`` in
    codalab/apps/web/views.py writes it: per leaderboard entry ``<who> - <n> submission.zip``,
    ``<who> - <n> output.zip``, ``<who> - <n> profile.txt`` and ``<who> - <n> method.txt``, where ``<who>`` is
    the user name or ``"Team %s " % team_name``; plus ``team_names_and_members.txt``
    (``"Team: %s; members: %s\\n"``)."""
    entries = (("Team Owls ", 3, 0.1, 0.7), ("carol", 5, 0.4, 0.3), ("Team " + NASTY + " ", 2, 0.2, 0.5))
    with zipfile.ZipFile(path, "w") as download:
        download.writestr("team_names_and_members.txt", "Team: Owls; members: ann, ben\n")
        for i, (who, number, noise, platform_avg) in enumerate(entries):
            sub = io.BytesIO()
            results_synth.write_team(st2024, ref, sub, noise, i)
            download.writestr("%s - %s submission.zip" % (who, number), sub.getvalue())
            output = io.BytesIO()
            with zipfile.ZipFile(output, "w") as scores:
                scores.writestr("scores.txt", "avg_score: %.12f\n" % platform_avg)
            download.writestr("%s - %s output.zip" % (who, number), output.getvalue())
            download.writestr("%s - %s profile.txt" % (who, number), "Organization: None\nTeam Name: %s" % who)
            download.writestr("%s - %s method.txt" % (who, number), "method_name: m\nteam_name: %s" % who)
    return path


def codabench_download(folder, ref):
    """Codabench's "download selected submissions": ``bulk_submissions.zip`` as ``bulk_download`` in
    src/static/riot/competitions/detail/submission_manager.tag zips the list ``SubmissionViewSet.download_many``
    (src/apps/api/views/submissions.py) returns: members ``f"{sub.id}_{sub.owner}_PhaseId{sub.phase.id}_"
    f"{created_when.strftime('%Y-%m-%d:%M-%S')}_{file name}"`` with ``:``, ``/`` and ``\\`` replaced by ``_``,
    and ``failed.txt`` for files the browser could not fetch. Beside it, the submissions list rendered by the
    same viewset as CSV (rest_framework_csv, fields of ``SubmissionSerializer`` in
    src/apps/api/serializers/submissions.py, columns sorted)."""
    os.makedirs(folder)
    subs = ((101, "dana_x", 0.3, "2024-01-03T09:15:42Z", "Finished", "first.zip"),
            (117, "dana_x", 0.1, "2024-01-05T11:02:09Z", "Finished", "second.zip"),
            (120, "eve", 0.2, "2024-01-05T12:30:00Z", "Finished", "preds.zip"),
            (131, "eve", 0.0, "2024-01-06T08:00:00Z", "Failed", "late.zip"))
    with zipfile.ZipFile(os.path.join(folder, "bulk_submissions.zip"), "w") as download:
        for i, (sub_id, owner, noise, when, status, name) in enumerate(subs):
            data = io.BytesIO()
            results_synth.write_team(st2024, ref, data, noise, i)
            stamp = "%s:%s-%s" % (when[:10], when[14:16], when[17:19])          # '%Y-%m-%d:%M-%S'
            member = re.sub(r"[:/\\]", "_", "%d_%s_PhaseId7_%s_%s" % (sub_id, owner, stamp, name))
            download.writestr(member, data.getvalue())
        download.writestr("failed.txt", "The following submissions failed to download:\n\n"
                                        "140_frank_PhaseId7_2024-01-06_10-11_x.zip (HTTP 404)")
    header = ["auto_run", "created_when", "description", "filename", "id", "is_public", "is_soft_deleted", "name",
              "owner", "parent", "phase", "phase_name", "pk", "status", "status_details"]
    with open(os.path.join(folder, "submissions.csv"), "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for sub_id, owner, _, when, status, name in subs:
            writer.writerow(["True", when, "", name, sub_id, "False", "False", "", owner, "", 7, "Test", sub_id,
                             status, ""])
    return folder


def test_codalab_layout(reference, tmp_path):
    path = codalab_download(str(tmp_path / "codalab.zip"), reference)
    download = layouts.read_download(path)
    assert download.platform == "codalab"
    found = sorted((c.team, c.user, c.label, c.status) for c in download.candidates)
    assert found == sorted([("Owls", None, "#3", "Finished"), ("carol", "carol", "#5", "Finished"),
                            (NASTY, None, "#2", "Finished")])
    assert any("Owls; members: ann, ben" in note for note in download.notes)
    results = run_results(reference, path, str(tmp_path / "out"))
    assert subtask(results)["rankings"][keys.OVERALL_KEY]["order"] == ["team:Owls", "team:" + NASTY, "user:carol"]
    assert ranked(subtask(results)) == ["Owls", NASTY, "carol"]
    assert any("Owls scored 0.700000 on the platform" in note for note in results["notes"])


def test_codabench_layout(reference, tmp_path):
    folder = codabench_download(str(tmp_path / "codabench"), reference)
    download = layouts.read_download(folder)
    assert download.platform == "codabench"
    found = sorted((c.team, c.label, c.status, c.time) for c in download.candidates)
    assert found[0] == ("dana_x", "id 101", "Finished", "2024-01-03T09:15:42Z")
    assert ("eve", "id 131", "Failed", "2024-01-06T08:00:00Z") in found
    assert any("140_frank" in note for note in download.notes)
    results = run_results(reference, folder, str(tmp_path / "out"))
    rows = dict((r["name"], r["submission"]["label"]) for r in subtask(results)["rows"])
    assert rows == {"dana_x": "id 117", "eve": "id 120"}               # eve's last one failed on the platform
    assert [(f["label"], f["state"], f["reason"]) for f in results["failures"]] == [
        ("id 131", "not scored", "platform status Failed")]
    without_csv = layouts.read_download(os.path.join(folder, "bulk_submissions.zip"))
    assert all(c.status is None for c in without_csv.candidates)
    assert [c.order for c in sorted(without_csv.candidates, key=lambda c: c.order)] == [(101,), (117,), (120,), (131,)]


def test_teams_csv_renames_users(reference, tmp_path):
    folder = codabench_download(str(tmp_path / "codabench"), reference)
    teams = tmp_path / "teams.csv"
    teams.write_text("user,team\ndana_x,Team Dana\n", encoding="utf-8")
    assert sorted(set(c.team for c in layouts.read_download(folder, layouts.read_teams(str(teams))).candidates)) == [
        "Team Dana", "eve"]


# --------------------------------------------------------------------------- rendering

def test_participant_strings_are_escaped(reference, tmp_path):
    results = run_results(reference, codalab_download(str(tmp_path / "c.zip"), reference), str(tmp_path / "out"))
    assert NASTY in [r["name"] for r in subtask(results)["rows"]]
    out = str(tmp_path / "out")
    with open(os.path.join(out, "results.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    parser = NestingParser()
    parser.feed(page)
    parser.close()
    assert parser.errors == [] and "b" not in parser.tags
    for svg in glob.glob(os.path.join(out, "figures", "*.svg")):
        with open(svg, encoding="utf-8") as handle:
            text = handle.read()
        assert "<b>" not in text and "&lt;b&gt;" in text
    with open(os.path.join(out, "results.md"), encoding="utf-8") as handle:
        md = handle.read()
    assert "R\\&D\\_\\{team\\} 100% \\<b\\>x\\</b\\> \"q\" \\| \\*y\\*" in md
    with open(os.path.join(out, "results.tex"), encoding="utf-8") as handle:
        tex = handle.read()
    assert r"R\&D\_\{team\} 100\% \textless{}b\textgreater{}x" in tex


def test_latex_compiles_with_pdflatex(synthetic, tmp_path):
    if not shutil.which("pdflatex"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("pdflatex is missing: .ci/run installs texlive-latex-base and texlive-latex-recommended")
        pytest.skip("pdflatex is not installed (Debian: texlive-latex-base texlive-latex-recommended); "
                    "CI installs it and fails without it")
    shutil.copyfile(os.path.join(synthetic["out"], "results.tex"), str(tmp_path / "results.tex"))
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "results.tex"],
                          cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    assert os.path.getsize(str(tmp_path / "results.pdf")) > 1000
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "results.pdf", "-"], cwd=str(tmp_path), stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
        assert "Morphological features" in text and "twin-a" in text
    with open(os.path.join(synthetic["out"], "results.tex"), encoding="utf-8") as handle:
        tex = handle.read()
    # overall, one per task, and the leaderboard's other columns (the language averages)
    assert tex.count(r"\begin{table}") == 1 + len(st2024.TASKS) + 1 and r"\toprule" in tex and r"\textbf{100.00}" in tex


# --------------------------------------------------------------------------- the scorer hook and the bootstrap

def test_per_sentence_opt_in_is_off_by_default_and_averages_to_the_entry(reference, tmp_path):
    sub = results_synth.write_team(st2024, reference, str(tmp_path / "s.zip"), 0.3, 1)
    plain = scoring.evaluate(st2024, reference, sub)
    assert all("per_sentence" not in entry for entry in plain["entries"])
    detailed = scoring.evaluate(st2024, reference, sub, per_sentence=True)
    for entry in detailed["entries"]:
        values = entry["per_sentence"]
        assert set(len(v) for v in values.values()) == {entry["scored_sentences"]}
        means = [sum(v) / len(v) for v in values.values()]
        assert sum(means) / len(means) == pytest.approx(entry["score"], abs=1e-12)
    for entry in detailed["entries"]:
        del entry["per_sentence"]
    assert detailed == plain


def test_details_opt_out_gives_the_same_scores_without_the_tables(reference, tmp_path):
    """The results' re-scoring leaves out the detail tables: every score and per-sentence value is unchanged."""
    sub = results_synth.write_team(st2024, reference, str(tmp_path / "s.zip"), 0.3, 2)
    full = scoring.evaluate(st2024, reference, sub, per_sentence=True)
    lean = scoring.evaluate(st2024, reference, sub, per_sentence=True, details=False)
    assert lean["scores"] == full["scores"] and lean["signature"] == full["signature"]
    tables = 0
    for short, entry in zip(lean["entries"], full["entries"]):
        assert (short["task"], short["lang"], short["score"], short["components"], short["per_sentence"]) == \
            (entry["task"], entry["lang"], entry["score"], entry["components"], entry["per_sentence"])
        if short["details"] != entry["details"]:
            assert short["details"] == {} and short["micro"] == {}
            tables += 1
    assert tables == len([e for e in full["entries"] if e["details"]]) > 0


def test_reference_cache_gives_the_same_reports(reference, tmp_path):
    cache = {}
    for noise in (0.0, 0.4):
        sub = results_synth.write_team(st2024, reference, str(tmp_path / ("%s.zip" % noise)), noise, 3)
        cached = scoring.evaluate(st2024, reference, sub, reference_cache=cache)
        assert cached == scoring.evaluate(st2024, reference, sub)
    files = [key for key in cache if isinstance(key, str)]   # one entry per reference file, plus its hash
    assert len(files) == len(glob.glob(os.path.join(reference, "*", "*.json")))
    assert len(cache) == len(files) + 1


def test_bootstrap_uses_the_declared_aggregation_of_any_competition(tmp_path):
    """A made-up competition (other task, keys, languages): the results code takes all of it from the
    declaration, and the bootstrapped overall of constant sentences is that constant."""
    comp = types.ModuleType("made_up")
    comp.COMPETITION_ID, comp.TITLE, comp.METRICS_VERSION = "made-up", "Made up", "m-1"
    comp.LANGUAGES = {"xx": ("Lang X",), "yy": ("Lang Y",)}
    comp.TASKS = (st2024.Task("tags", "tg", "Tags", "tagging", ("acc", "f1"), ("xx", "yy")),)
    comp.MAX_FILE_BYTES, comp.MAX_UPLOAD_BYTES, comp.MAX_MEMBERS = 1 << 20, 1 << 22, 100
    task = comp.TASKS[0]
    rows = [{("tags", "xx"): {"status": "scored", "score": 0.75, "components": {"acc": 1.0, "f1": 0.5},
                              "per_sentence": {"acc": np.ones(5), "f1": np.full(5, 0.5)}},
             ("tags", "yy"): {"status": "missing", "score": 0.0, "components": {"acc": 0.0, "f1": 0.0},
                              "per_sentence": None}}]
    intervals, kept = bootstrap.bootstrap(comp, [(task, "xx"), (task, "yy")], rows, 50, 1, ["avg_tg"])
    assert sorted(intervals) == sorted(["avg_score", "avg_tg", "xx_avg_score", "yy_avg_score", "xx_tg", "yy_tg",
                                        "xx_tg_acc", "xx_tg_f1", "yy_tg_acc", "yy_tg_f1"])
    assert intervals["avg_score"][0][0] == pytest.approx(0.375) and intervals["avg_score"][1][0] == pytest.approx(0.375)
    assert kept["avg_tg"].shape == (50, 1)


def test_results_code_names_no_task_language_or_key():
    """Everything competition-specific comes from the declaration: no st2024 name appears as a literal."""
    names = set(t.folder for t in st2024.TASKS) | set(t.key for t in st2024.TASKS) | set(st2024.LANGUAGES)
    names |= set(st2024.SUBTASKS) | {keys.OVERALL_KEY}
    for path in glob.glob(os.path.join(ROOT, "organiser", "results", "*.py")):
        with open(path, encoding="utf-8") as handle:
            literals = re.findall(r"[\"']([A-Za-z_]+)[\"']", handle.read())
        assert not names & set(literals), (path, names & set(literals))


def test_p_value_and_clusters():
    same = np.full(100, 0.5)
    assert bootstrap.p_value(same, same) == 1.0
    samples = np.array([[0.9, 0.9, 0.2], [0.91, 0.89, 0.21], [0.89, 0.92, 0.19]] * 20)
    ranked = bootstrap.rank(["a", "b", "c"], [0.9, 0.9, 0.2], samples)
    assert ranked["clusters"] == [["a", "b"], ["c"]] and ranked["ranks"] == {"a": (1, 2), "b": (1, 2), "c": (3, 3)}


def test_platform_scores_are_compared_with_the_part_the_platform_scored():
    """In a phase with a private part the platform scored the public part: its overall score is compared with the
    kit's re-score of that part (the shake-up's public scores), never with the private ranking; equal scores are
    counted in one note."""
    from organiser.results.compute import _platform_notes

    def row(ident, name, ranked, shipped):
        return {"id": ident, "name": name, "baseline": False, "submission": {"platform_avg_score": shipped},
                "scores": {"avg_score": {"value": ranked}}}

    result = {"overall_key": "avg_score",
              "rows": [row("team:a", "A", 0.50, 0.80), row("team:b", "B", 0.40, 0.70), row("team:c", "C", 0.3, None)],
              "shakeup": {"teams": {"team:a": {"public_score": 0.80}, "team:b": {"public_score": 0.65}}}}
    assert _platform_notes("s", result) == [
        "s: B scored 0.700000 on the platform, 0.650000 re-scored on the public part",
        "s: the platform's overall score equals the kit's re-score of the public part for 1 submission(s)"]
    del result["shakeup"]
    assert _platform_notes("s", result) == ["s: A scored 0.800000 on the platform, 0.500000 re-scored",
                                            "s: B scored 0.700000 on the platform, 0.400000 re-scored"]
    result["rows"][0]["submission"]["platform_avg_score"] = 0.5
    assert _platform_notes("s", result)[-1] == (
        "s: the platform's overall score equals the kit's re-score of the reference for 1 submission(s)")


def test_manifest_scores_are_read_as_numbers():
    assert layouts._manifest_scores({"avg_score": "0.8775446429", "note": "n/a", "x": None}) == {
        "avg_score": 0.8775446429}
    assert layouts._manifest_scores(None) is None and layouts._manifest_scores(["0.5"]) is None
