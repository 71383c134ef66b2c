"""LinCE on the real lid_spaeng data in ../shared/lince (skipped when it is absent)."""
import os
import subprocess
import sys

import pytest

from evalkit.scoring import evaluate
from lince_helpers import KIT, LINCE_SHARED, baseline_table, lince, lince_baselines, lince_data, reference

sklearn_metrics = pytest.importorskip("sklearn.metrics")

pytestmark = pytest.mark.skipif(not os.path.isdir(os.path.join(LINCE_SHARED, "lid_spaeng")),
                                reason="the LinCE data is not at %s (set LINCE_SHARED)" % LINCE_SHARED)
MBERT_DEV = os.path.join(LINCE_SHARED, "systems", "mbert_dev_predictions.conll")
MBERT_TEST = os.path.join(LINCE_SHARED, "systems", "mbert_test_submission.zip")


@pytest.fixture(scope="module")
def shared_ref(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("lince_shared_ref"))
    summary = reference.build(LINCE_SHARED, out)
    assert summary["dev"]["written"] == ["lid_spaeng"]
    assert "lid_spaeng" in summary["test"]["missing"] and "no gold" in summary["test"]["missing"]["lid_spaeng"]
    assert len(summary["dev"]["missing"]) == 9
    return out


def gold_and_predicted(path_gold, path_pred):
    gold = [row[-1] for _, rows in lince_data.read_conll(path_gold) for row in rows]
    pred = [row[-1] for _, rows in lince_data.read_conll(path_pred) for row in rows]
    return gold, pred


def test_mbert_dev_predictions_score_exactly_what_scikit_learn_gives(shared_ref, tmp_path):
    sub = str(tmp_path / "mbert.zip")
    baseline_table.conll_to_submission(MBERT_DEV, "lid_spaeng", sub)
    report = evaluate(lince, os.path.join(shared_ref, "dev"), sub)
    gold, pred = gold_and_predicted(os.path.join(LINCE_SHARED, "lid_spaeng", "dev.conll"), MBERT_DEV)
    scores = report["scores"]
    assert len(gold) == len(pred) == 40391
    assert abs(scores["spa_eng_lid_acc"] - sklearn_metrics.accuracy_score(gold, pred)) <= 1e-12
    assert abs(scores["spa_eng_lid_weighted_f1"] - sklearn_metrics.f1_score(gold, pred, average="weighted")) <= 1e-12
    assert scores["avg_score"] == scores["spa_eng_lid"] == scores["spa_eng_lid_acc"]
    assert not [m for m in report["messages"] if m["severity"] == "error"]


def test_mbert_test_submission_validates_against_the_public_test_file():
    proc = subprocess.run([sys.executable, os.path.join(KIT, "validate.py"), MBERT_TEST, "--data", LINCE_SHARED,
                           "--split", "test"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "lid_spa_eng.txt  scored   8289 sentences, 8289 aligned" in proc.stdout
    assert "0 errors, 0 warnings" in proc.stdout


def test_a_broken_test_submission_is_caught_by_the_validator(tmp_path):
    import zipfile
    with zipfile.ZipFile(MBERT_TEST) as zf:
        text = zf.read("lid_spa_eng.txt").decode("utf-8")
    lines = text.split("\n")
    del lines[100]
    with zipfile.ZipFile(str(tmp_path / "bad.zip"), "w") as zf:
        zf.writestr("lid_spaeng.txt", "\n".join(lines))
        zf.writestr("lid_spa_eng.txt", "\n".join(lines))
    proc = subprocess.run([sys.executable, os.path.join(KIT, "validate.py"), str(tmp_path / "bad.zip"), "--data",
                           LINCE_SHARED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 1
    # line 101 held the one label of a one-token sentence: two blank lines in a row, read as that sentence with no
    # labels (issue 33, round 6), the others aligned around it
    assert "Did you mean lid_spa_eng.txt?" in proc.stdout and "sentence 15 has no labels (two blank lines in a row " \
        "at line 101)" in proc.stdout


def test_baseline_beats_the_floor_on_lid_spaeng_dev(shared_ref, tmp_path):
    scores = {}
    for system in ("floor", "baseline"):
        sub = str(tmp_path / (system + ".zip"))
        lince_baselines.make(lince, LINCE_SHARED, "dev", system, sub)
        scores[system] = evaluate(lince, os.path.join(shared_ref, "dev"), sub)["scores"]["spa_eng_lid"]
    assert scores["baseline"] > scores["floor"] + 0.3
    assert scores["baseline"] > 0.9
