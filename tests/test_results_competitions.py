"""Organiser results (issue 13) on the kit's other competitions: SCATE (a folder of per-document Anafora files,
metrics pooled over the items of every document) and SpanglishEval (one JSON file, accuracy and WER over sets).

The bootstrap resamples documents (SCATE) or sets (SpanglishEval): the kinds return per-document or per-set
statistics whose sums give their components (``from_sums``), as for LinCE. Teams are made from the embedded
samples: the gold as a system, the kits' baselines, a team with part of the gold, twins with identical zips.
"""
import json
import os
import random
import shutil
import zipfile

import pytest

import results_synth
from conftest import ROOT, load_by_path
from evalkit import keys, scoring
from organiser import declarations

SCATE_DIR = os.path.join(ROOT, "competitions", "scate")
SPAN_DIR = os.path.join(ROOT, "competitions", "spanglisheval")


def write_zip(path, members):
    """A zip at ``path`` holding ``members`` (``{name: bytes or text}``); its path."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def twin(teams, source, name):
    """Copy team zip ``source`` as team ``name`` (byte-identical predictions)."""
    os.makedirs(os.path.join(teams, name))
    shutil.copyfile(source, os.path.join(teams, name, "final.zip"))


def run_results(cid, ref, teams, out):
    """``python -m organiser results --competition CID`` in-process; the parsed results.json."""
    return results_synth.run_results(["--competition", cid, "--reference", ref, "--submissions", teams,
                                      "--resamples", "300", "--jobs", "1"], out)


def scate_teams(work):
    """SCATE's sample reference (dev) and teams: gold, the kit's baseline and its twin, gold of one document."""
    kit = os.path.join(SCATE_DIR, "starting_kit")
    data = load_by_path("results_scate_data", os.path.join(kit, "scate_data.py"))
    baseline = load_by_path("results_scate_baseline", os.path.join(kit, "scate_baseline.py"))
    reference = load_by_path("results_scate_reference", os.path.join(SCATE_DIR, "reference.py"))
    sample = os.path.join(SCATE_DIR, "sample_data")
    reference.build(sample, os.path.join(work, "ref"), os.path.join(sample, "test_gold"))
    gold = {}
    for doc in data.documents(sample, "dev"):
        with open(data.gold_path(os.path.join(sample, "train_dev", "AQUAINT"), doc), "rb") as handle:
            gold[data.submission_name(doc)] = handle.read()
    teams = os.path.join(work, "teams")
    write_zip(os.path.join(teams, "gold", "final.zip"), gold)
    first = sorted(gold)[0]
    write_zip(os.path.join(teams, "one-document", "final.zip"), {first: gold[first]})
    os.makedirs(os.path.join(teams, "baseline-a"))
    baseline.make(sample, "dev", os.path.join(teams, "baseline-a", "final.zip"))
    twin(teams, os.path.join(teams, "baseline-a", "final.zip"), "baseline-b")
    return os.path.join(work, "ref", "dev"), teams, os.path.join(SCATE_DIR, "evaluate.py")


def span_teams(work):
    """SpanglishEval's sample reference (dev) and teams choosing the gold except with probability ``noise``."""
    reference = load_by_path("results_span_reference", os.path.join(SPAN_DIR, "reference.py"))
    reference.build(os.path.join(SPAN_DIR, "sample_data"), os.path.join(work, "ref"), jobs=1)
    ref = os.path.join(work, "ref", "dev")
    with open(os.path.join(ref, "reference.jsonl"), encoding="utf-8") as handle:
        sets = [json.loads(line) for line in handle if line.strip()]
    teams = os.path.join(work, "teams")
    for seed, (team, noise) in enumerate((("gold", 0.0), ("most", 0.2), ("twin-a", 0.6), ("none", 1.0))):
        rng = random.Random(seed)
        answers = dict((s["id"], (s["gold"] + 1) % len(s["sentences"]) if rng.random() < noise else s["gold"])
                       for s in sets)
        write_zip(os.path.join(teams, team, "final.zip"), {"predictions.json": json.dumps(answers)})
    twin(teams, os.path.join(teams, "twin-a", "final.zip"), "twin-b")
    return ref, teams, os.path.join(SPAN_DIR, "evaluate.py")


@pytest.fixture(scope="module", params=["scate", "spanglisheval"])
def ran(request, tmp_path_factory):
    """(competition id, reference, teams folder, scoring program, results.json) of one competition's run."""
    cid = request.param
    work = str(tmp_path_factory.mktemp("results-" + cid))
    ref, teams, evaluate = (scate_teams if cid == "scate" else span_teams)(work)
    return cid, ref, teams, evaluate, run_results(cid, ref, teams, os.path.join(work, "out"))


def overall(results):
    return results_synth.named_ranking(results["subtasks"][0], keys.OVERALL_KEY)


def test_numbers_equal_the_scorers_own_scores_json(ran, tmp_path):
    cid, ref, teams, evaluate, results = ran
    sub = results["subtasks"][0]
    assert sorted(row["name"] for row in sub["rows"]) == sorted(os.listdir(teams))
    for row in sub["rows"]:
        official = results_synth.official_scores(evaluate, ref, os.path.join(teams, row["name"], "final.zip"),
                                                 str(tmp_path / row["name"]))
        assert official.pop("signature") == sub["signature"]
        assert set(official) == set(row["scores"])
        for key, value in official.items():
            assert row["scores"][key]["value"] == pytest.approx(value, abs=1e-11), (cid, row["name"], key)


def test_the_gold_is_first_and_twins_share_a_rank_without_a_significant_difference(ran):
    cid, _, _, _, results = ran
    ranking = overall(results)
    assert ranking["order"][0] == "gold"
    pair = {"scate": ("baseline-a", "baseline-b"), "spanglisheval": ("twin-a", "twin-b")}[cid]
    tests = [t for t in ranking["adjacent"] if {t["above"], t["below"]} == set(pair)]
    assert len(tests) == 1 and tests[0]["p_value"] == 1.0 and not tests[0]["significant"]
    assert ranking["ranks"][pair[0]] == ranking["ranks"][pair[1]]


def test_intervals_contain_the_point_estimates(ran):
    for row in ran[4]["subtasks"][0]["rows"]:
        for key, score in row["scores"].items():
            assert score["lo"] - 1e-12 <= score["value"] <= score["hi"] + 1e-12, (row["name"], key, score)


@pytest.mark.parametrize("ran", ["spanglisheval"], indirect=True)   # SCATE's sample has two dev documents only
def test_a_clearly_better_team_is_significant_over_enough_sets(ran):
    ranking = overall(ran[4])
    first = ranking["adjacent"][0]
    assert (first["above"], first["below"]) == ("gold", "most") and first["significant"]
    assert ranking["order"][-1] == "none"


@pytest.mark.parametrize("cid", ["scate", "spanglisheval"])
def test_per_item_statistics_sum_to_the_scorers_components(cid, tmp_path):
    """What the bootstrap resamples: each kind's per-document / per-set statistics, summed and passed through
    ``from_sums``, give the entry's own components (the scorer computes them that way)."""
    work = str(tmp_path)
    ref, teams, _ = (scate_teams if cid == "scate" else span_teams)(work)
    competition = declarations.load(cid)
    for team in sorted(os.listdir(teams)):
        report = scoring.evaluate(competition, ref, os.path.join(teams, team, "final.zip"), per_sentence=True)
        for entry in report["entries"]:
            if entry["status"] != "scored":
                continue
            task = competition.TASKS_BY_FOLDER[entry["task"]]
            stats = entry["per_sentence"]
            lengths = set(len(values) for values in stats.values())
            assert lengths == {entry["sentences"]}, (team, entry["task"])
            sums = dict((name, sum(values)) for name, values in stats.items())
            components = scoring.KINDS[task.kind].from_sums(sums, entry["sentences"], task)
            assert dict(components) == pytest.approx(entry["components"], abs=1e-12), (team, entry["task"])
