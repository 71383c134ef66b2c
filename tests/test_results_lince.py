"""Organiser results (issue 13) on LinCE, the kit's competition of line-aligned text files and corpus-level metrics.

Teams are made from the LinCE sample data's development reference with controlled label noise
(tests/results_synth.py ``write_text_team``): less noise is a better team. LinCE's metrics pool every token
(or post) of a file, so the bootstrap resamples each sentence's counts and recomputes the metric from their
sums; one test recomputes the same resamples from scratch (scikit-learn, seqeval). With ../shared/lince, a
real system's predictions (mBERT on lid_spaeng dev) are ranked against the kit's baselines.
"""
import os
import shutil
import subprocess
import warnings
import zipfile

import numpy as np
import pytest

import results_synth
from evalkit import keys, lines, scoring
from conftest import ROOT
from lince_helpers import (EVALUATE, LINCE_SHARED, SAMPLE, baseline_table, build_sample_reference, lince,
                           lince_baselines)
from organiser.results import bootstrap
from organiser.results.rescoring import compact

TEAMS = (("gold", 0.0), ("ten", 0.1), ("quarter", 0.25), ("half", 0.5))
SEED = 12345


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The LinCE sample data's references (``make COMPETITION=lince`` builds the same); the dev folder."""
    out = tmp_path_factory.mktemp("lince-results-ref")
    build_sample_reference(out)
    return os.path.join(str(out), "dev")


def run_results(ref, submissions, out, *extra):
    """``python -m organiser results --competition lince`` in-process; returns the parsed results.json."""
    return results_synth.run_results(["--competition", "lince", "--reference", ref, "--submissions", submissions,
                                      "--resamples", "400", "--jobs", "1"] + list(extra), out)


@pytest.fixture(scope="module")
def synthetic(reference, tmp_path_factory):
    """Four teams of known order, two teams with byte-identical zips, one team that left out a dataset and
    the kit's baselines (the starting kit's floor and baseline systems on the sample's dev files)."""
    work = str(tmp_path_factory.mktemp("lince-results-run"))
    teams = os.path.join(work, "teams")
    for seed, (team, noise) in enumerate(TEAMS):
        results_synth.write_text_team(lince, reference, os.path.join(teams, team, "final.zip"), noise, seed)
    twin = results_synth.write_text_team(lince, reference, os.path.join(teams, "twin-a", "final.zip"), 0.25, 99)
    os.makedirs(os.path.join(teams, "twin-b"))
    shutil.copyfile(twin, os.path.join(teams, "twin-b", "final.zip"))
    results_synth.write_text_team(lince, reference, os.path.join(teams, "partial", "final.zip"), 0.5, 7,
                                  skip=[("sa", "spa_eng")])
    baselines = os.path.join(work, "baselines")
    os.makedirs(baselines)
    for system in ("floor", "baseline"):
        lince_baselines.make(lince, SAMPLE, "dev", system, os.path.join(baselines, "lince-dev-%s.zip" % system))
    out = os.path.join(work, "out")
    results = run_results(reference, teams, out, "--baselines", baselines)
    return {"results": results, "out": out, "teams": teams, "ref": reference, "baselines": baselines}


def overall(results):
    return results_synth.named_ranking(results["subtasks"][0], keys.OVERALL_KEY)


def test_ranking_matches_the_true_order(synthetic):
    order = overall(synthetic["results"])["order"]
    assert order[:2] == ["gold", "ten"] and order[-2:] == ["half", "partial"] and len(order) == 7
    assert set(order[2:5]) == {"quarter", "twin-a", "twin-b"}
    for task in lince.TASKS:
        ranking = results_synth.named_ranking(synthetic["results"]["subtasks"][0], keys.task_mean_key(task))["order"]
        assert ranking[0] == "gold", task


def test_reference_baselines_and_columns_come_from_the_declaration(synthetic):
    sub = synthetic["results"]["subtasks"][0]
    assert sub["name"] == "lince" and len(sub["entries"]) == len(lince.DATASETS)
    declared = sorted(keys.entry_key(pair, task) for task, pair in lince.DATASETS)
    assert sorted(e["key"] for e in sub["entries"]) == declared
    baselines = dict((row["name"], row) for row in sub["rows"] if row["baseline"])
    assert sorted(baselines) == ["baseline", "floor"]
    values = dict((name, row["scores"][keys.OVERALL_KEY]["value"]) for name, row in baselines.items())
    assert values["baseline"] > values["floor"]
    assert sub["signature"].startswith("lince|metrics:" + lince.METRICS_VERSION)


def test_numbers_equal_the_scorers_own_scores_json(synthetic, tmp_path):
    sub = synthetic["results"]["subtasks"][0]
    for row in sub["rows"]:
        if row["baseline"]:
            zip_path = os.path.join(synthetic["baselines"], "lince-dev-%s.zip" % row["name"])
        else:
            zip_path = os.path.join(synthetic["teams"], row["name"], "final.zip")
        official = results_synth.official_scores(EVALUATE, synthetic["ref"], zip_path, str(tmp_path / row["name"]))
        assert official.pop("signature") == sub["signature"]
        assert set(official) == set(row["scores"])
        for key, value in official.items():
            assert row["scores"][key]["value"] == pytest.approx(value, abs=1e-11), (row["name"], key)
    partial = [row for row in sub["rows"] if row["name"] == "partial"][0]
    assert partial["scores"][keys.entry_key("spa_eng", lince.TASKS_BY_FOLDER["sa"])] == {"value": 0.0, "lo": 0.0,
                                                                                         "hi": 0.0}


def test_intervals_contain_the_point_estimates(synthetic):
    widths = []
    for row in synthetic["results"]["subtasks"][0]["rows"]:
        for key, score in row["scores"].items():
            assert score["lo"] - 1e-12 <= score["value"] <= score["hi"] + 1e-12, (row["name"], key, score)
        widths.append(row["scores"][keys.OVERALL_KEY]["hi"] - row["scores"][keys.OVERALL_KEY]["lo"])
    assert max(widths) > 0.01     # the intervals are not degenerate


def test_identical_teams_are_not_significantly_different(synthetic):
    ranking = overall(synthetic["results"])
    tests = [t for t in ranking["adjacent"] if {t["above"], t["below"]} == {"twin-a", "twin-b"}]
    assert len(tests) == 1 and tests[0]["p_value"] == 1.0 and not tests[0]["significant"]
    assert ranking["ranks"]["twin-a"] == ranking["ranks"]["twin-b"]


def test_a_clearly_better_team_is_significant(synthetic):
    ranking = overall(synthetic["results"])
    first = ranking["adjacent"][0]
    assert (first["above"], first["below"]) == ("gold", "ten") and first["significant"] and first["p_value"] < 0.01
    assert ranking["clusters"][0] == ["gold"]


def test_outputs_are_written(synthetic):
    out = synthetic["out"]
    for name in ("ranking.csv", "results.md", "results.tex", "results.html"):
        assert os.path.getsize(os.path.join(out, name)) > 0
    with open(os.path.join(out, "results.md"), encoding="utf-8") as handle:
        text = handle.read()
    assert "corpus-level metric from summed counts" in text
    assert sorted(os.listdir(os.path.join(out, "figures"))) == ["lince-languages.svg", "lince-scores.svg"]


def test_make_results_names_the_competitions_folders():
    dry = subprocess.run(["make", "-n", "results", "COMPETITION=lince", "SUBMISSIONS=dl.zip"], cwd=ROOT,
                         stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    if os.path.isfile(os.path.join(ROOT, "reference_data", "lince", "private", "test", "split.json")):
        # a split test phase (issue 23): ranked on the part kept apart, the platform's part for the public rank
        assert "results --competition lince --reference reference_data/lince/private/test" in dry
        assert "--public-reference reference_data/lince/test --phase test" in dry
    else:
        assert "results --competition lince --reference reference_data/lince/test" in dry
    assert "--baselines dist/lince/submissions --out dist/lince/results" in dry


# --------------------------------------------------------------------------- the bootstrap against a recomputation

def _labels_of(zip_path, task, pair):
    """The team's labels of one file: per sentence a list of labels (a post: its label)."""
    with zipfile.ZipFile(zip_path) as archive:
        text = archive.read(lince.SUBMISSION_FILE.format(task=task.key, lang=pair)).decode("utf-8")
    if task.kind == "sentence_labels":
        return text.split()
    return [block.split("\n") for block in text.strip("\n").split("\n\n")]


def _from_scratch(task, gold, pred):
    """The file's components computed by scikit-learn and seqeval (independent of the scorer)."""
    from seqeval.metrics import f1_score as span_f1
    from sklearn.metrics import accuracy_score, f1_score
    flat_gold = gold if task.kind == "sentence_labels" else [label for sent in gold for label in sent]
    flat_pred = pred if task.kind == "sentence_labels" else [label for sent in pred for label in sent]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = {"acc": lambda: accuracy_score(flat_gold, flat_pred),
                  "weighted_f1": lambda: f1_score(flat_gold, flat_pred, average="weighted", zero_division=0),
                  "span_f1": lambda: span_f1(gold, pred)}
        return dict((name, values[name]()) for name in task.components)


@pytest.mark.parametrize("dataset", [("lid", "spa_eng"), ("ner", "spa_eng"), ("sa", "spa_eng")])
def test_bootstrap_equals_a_recomputation_from_scratch(reference, tmp_path, dataset):
    """The same resamples (the bootstrap's own seeded generator), the metric recomputed on each resampled file."""
    task, pair = lince.TASKS_BY_FOLDER[dataset[0]], dataset[1]
    ref_path = os.path.join(reference, lines.reference_name(lince, task, pair))
    ref = results_synth.read_text_reference(lince, task, pair, ref_path)
    gold = [g for _, g in ref.sentences]
    zips = [results_synth.write_text_team(lince, reference, str(tmp_path / ("t%d.zip" % i)), noise, i)
            for i, noise in enumerate((0.15, 0.4))]
    rows = [compact(scoring.evaluate(lince, reference, z, per_sentence=True)).entries[(task.folder, pair)]
            for z in zips]
    resamples = 60
    score, components = bootstrap.entry_arrays(lince, task, pair, rows, resamples, SEED)
    draws = bootstrap.pair_rng(lince, task, pair, SEED).integers(0, len(gold), size=(resamples, len(gold)))
    for r, zip_path in enumerate(zips):
        pred = _labels_of(zip_path, task, pair)
        assert _from_scratch(task, gold, pred)[task.metric] == pytest.approx(rows[r]["score"], abs=1e-12)
        for b in range(resamples):
            expected = _from_scratch(task, [gold[i] for i in draws[b]], [pred[i] for i in draws[b]])
            for name, value in expected.items():
                assert components[name][b, r] == pytest.approx(value, abs=1e-12), (name, b, r)
            assert score[b, r] == pytest.approx(expected[task.metric], abs=1e-12)
    assert np.ptp(score[:, 0]) > 0     # the resamples differ


def test_from_sums_is_the_scorers_own_arithmetic(reference, tmp_path):
    """A file's sums through the kind's from_sums give the scorer's score exactly (numbers and numpy arrays)."""
    zip_path = results_synth.write_text_team(lince, reference, str(tmp_path / "t.zip"), 0.3, 5)
    report = scoring.evaluate(lince, reference, zip_path, per_sentence=True)
    for entry in report["entries"]:
        task = lince.TASKS_BY_FOLDER[entry["task"]]
        kind = scoring.KINDS[task.kind]
        stats = entry["per_sentence"]
        sums = dict((name, sum(values)) for name, values in stats.items())
        arrays = dict((name, np.array([float(sum(values))] * 3)) for name, values in stats.items())
        assert kind.score_value(kind.from_sums(sums, len(stats["items"]), task)) == entry["score"]
        assert list(kind.score_value(kind.from_sums(arrays, len(stats["items"]), task))) == [entry["score"]] * 3


# --------------------------------------------------------------------------- a real system (../shared/lince)

@pytest.mark.skipif(not os.path.isfile(os.path.join(LINCE_SHARED, "systems", "mbert_dev_predictions.conll")),
                    reason="../shared/lince absent")
def test_real_system_ranked_against_the_baselines(tmp_path):
    """mBERT's lid_spaeng dev predictions (../shared/lince/PROVENANCE.md) as a team, beside the kit's baselines."""
    from lince_helpers import reference as lince_reference
    lince_reference.build(LINCE_SHARED, str(tmp_path / "ref"), None)
    ref = str(tmp_path / "ref" / "dev")
    teams = tmp_path / "teams"
    os.makedirs(str(teams / "mbert"))
    mbert = str(teams / "mbert" / "submission.zip")
    baseline_table.conll_to_submission(os.path.join(LINCE_SHARED, "systems", "mbert_dev_predictions.conll"),
                                       "lid_spaeng", mbert)
    for system in ("floor", "baseline"):
        os.makedirs(str(teams / system))
        lince_baselines.make(lince, LINCE_SHARED, "dev", system, str(teams / system / "submission.zip"))
    results = run_results(ref, str(teams), str(tmp_path / "out"), "--no-baselines", "--resamples", "200")
    sub = results["subtasks"][0]
    assert [e["key"] for e in sub["entries"]] == ["spa_eng_lid"]
    ranking = results_synth.named_ranking(sub, keys.OVERALL_KEY)
    assert ranking["order"] == ["mbert", "baseline", "floor"]
    assert all(test["significant"] for test in ranking["adjacent"])
    own = scoring.evaluate(lince, ref, mbert)["scores"]
    row = [r for r in sub["rows"] if r["name"] == "mbert"][0]
    for key, value in own.items():
        assert row["scores"][key]["value"] == value
    assert row["scores"][keys.OVERALL_KEY]["value"] == pytest.approx(0.9839, abs=5e-5)
    assert row["scores"][keys.OVERALL_KEY]["lo"] < row["scores"][keys.OVERALL_KEY]["value"] \
        < row["scores"][keys.OVERALL_KEY]["hi"]

