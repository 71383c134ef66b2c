"""Final results of a split test phase (issue 23): ranked on the private part, each team's public rank beside
(organiser/results/shakeup.py, ``--public-reference``), on ST2024's sample with the kit's baselines and noisy teams
(tests/shakeup_demo.py)."""
import csv
import json
import os
import subprocess
import sys

import pytest

import shakeup_demo
from conftest import ROOT
from organiser import feedback
from organiser.results import cli, shakeup

EVALUATE = os.path.join(ROOT, "scoring_program", "evaluate.py")


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("shakeup"))
    return work, shakeup_demo.run("st2024", work)


def scores_json(ref, submission, out):
    subprocess.check_call([sys.executable, EVALUATE, "--ref", ref, "--submission", submission, "--out", out,
                           "--quiet"], stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "scores.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_ranked_on_the_private_part_with_the_public_rank_beside(ran):
    work, results = ran
    sub = results["subtasks"][0]
    assert results["ranked_on"].startswith("private part: ")
    teams = [row for row in sub["rows"] if not row["baseline"]]
    assert set(sub["shakeup"]["teams"]) == set(row["id"] for row in teams)
    final = sub["rankings"]["avg_score"]["order"]
    assert [i for i, t in sorted(sub["shakeup"]["teams"].items(), key=lambda kv: kv[1]["final_rank"])][0] == final[0]
    assert sub["shakeup"]["public_part"].startswith("public part: ")


def test_public_and_final_scores_are_the_scorers_own_on_each_part(ran, tmp_path):
    work, results = ran
    sub = results["subtasks"][0]
    team = "team-c"
    ident = next(row["id"] for row in sub["rows"] if row["name"] == team)
    submission = os.path.join(work, "teams", team, "final.zip")
    public = scores_json(os.path.join(work, "ref", "test"), submission, str(tmp_path / "public"))
    private = scores_json(os.path.join(work, "ref", "private", "test"), submission, str(tmp_path / "private"))
    assert sub["shakeup"]["teams"][ident]["public_score"] == pytest.approx(public["avg_score"], abs=1e-9)
    assert sub["shakeup"]["teams"][ident]["final_score"] == pytest.approx(private["avg_score"], abs=1e-9)
    assert public["avg_score"] != private["avg_score"]


def test_every_table_shows_both_ranks(ran):
    work, results = ran
    out = os.path.join(work, "results")
    sub = results["subtasks"][0]
    with open(os.path.join(out, "results.md"), encoding="utf-8") as handle:
        markdown = handle.read()
    assert "### Public rank and final rank" in markdown and "Ranked on private part: " in markdown
    assert "Spearman's rho" in markdown and "Kendall's tau-b" in markdown
    for name in ("team-a", "team-g"):
        assert "| %s |" % name in markdown
    with open(os.path.join(out, "results.tex"), encoding="utf-8") as handle:
        tex = handle.read()
    assert "Public rank & Public score" in tex
    with open(os.path.join(out, "results.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "<h3>Public rank and final rank</h3>" in page
    with open(os.path.join(out, "ranking.csv"), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_name = dict((row["team"], row) for row in rows)
    for ident, team in sub["shakeup"]["teams"].items():
        name = next(row["name"] for row in sub["rows"] if row["id"] == ident)
        assert by_name[name]["public_rank"] == str(team["public_rank"])


def test_a_public_reference_of_another_seed_or_mode_is_refused_or_ignored(ran, tmp_path):
    work, _ = ran
    private, public = os.path.join(work, "ref", "private", "test"), os.path.join(work, "ref", "test")
    assert cli.feedback_options(private, public)["public_part"].startswith("public part: ")
    other = tmp_path / "other"
    other.mkdir()
    with open(os.path.join(public, feedback.SPLIT_FILE), encoding="utf-8") as handle:
        manifest = json.load(handle)
    (other / feedback.SPLIT_FILE).write_text(json.dumps(dict(manifest, seed_digest="ffff")))
    with pytest.raises(cli.DataError, match="another seed"):
        cli.feedback_options(private, str(other))
    with pytest.raises(cli.DataError, match="not the gold kept apart for the final ranking: rank on %s" % private):
        cli.feedback_options(public, public)   # the public part is never ranked on, whatever is beside it
    (other / feedback.SPLIT_FILE).write_text(json.dumps(dict(manifest, mode="blind", part="none")))
    assert "public_reference" not in cli.feedback_options(private, str(other))


def test_rank_statistics():
    assert shakeup.competition_ranks(["a", "b", "c"], [0.5, 0.9, 0.5]) == {"a": 2, "b": 1, "c": 2}
    assert shakeup.spearman([1, 2, 3, 4], [1, 2, 3, 4]) == 1.0
    assert shakeup.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert shakeup.spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    assert shakeup.kendall([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.6)
    assert shakeup.spearman([1], [1]) is None and shakeup.kendall([1, 1], [1, 2]) is None
    with pytest.raises(ValueError):
        shakeup.spearman([1, 2], [1])
    found = shakeup.summary(["x", "y", "z"], [0.9, 0.8, 0.1], [0.7, 0.8, 0.1])
    assert found["teams"]["x"]["move"] == -1 and found["teams"]["y"]["move"] == 1
    assert (found["moved"], found["largest_move"]) == (2, 1)
