"""End to end on the release's validation data (skipped when ../shared/st2024 is absent).

References are built from the release by the organiser tooling once per session; submissions are
derived from them: the gold one must score 1.0 everywhere, and known corruptions give values that
are computed here independently, from the references alone.
"""
import json
import os
import subprocess
import sys

import pytest

import st2024
from bench import write_submission
from conftest import ROOT, SHARED, needs_shared
from evalkit.scoring import evaluate

pytestmark = needs_shared


@pytest.fixture(scope="session")
def dev_reference(tmp_path_factory):
    """The dev references built from the release (`python -m organiser reference`)."""
    out = str(tmp_path_factory.mktemp("shared-ref"))
    subprocess.check_call([sys.executable, "-m", "organiser", "reference", "--data", SHARED, "--out", out,
                           "--report", os.path.join(out, "data_quality.md")], cwd=ROOT)
    return os.path.join(out, "dev")


@pytest.fixture(scope="session")
def gold_submission(dev_reference, tmp_path_factory):
    sub = str(tmp_path_factory.mktemp("gold-sub"))
    write_submission(dev_reference, sub, noisy=False)
    return sub


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def dump(path, value):
    if not os.path.isdir(os.path.dirname(path)):
        os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, ensure_ascii=False)


def test_gold_submission_scores_one_everywhere(dev_reference, gold_submission):
    report = evaluate(st2024, dev_reference, gold_submission)
    assert len(report["entries"]) >= 40
    assert all(entry["status"] == "scored" for entry in report["entries"])
    assert all(value == 1.0 for value in report["scores"].values()), \
        [(k, v) for k, v in report["scores"].items() if v != 1.0][:5]
    assert [m for m in report["messages"] if m["severity"] != "info"] == []


def test_known_corruptions_give_known_values(dev_reference, gold_submission, tmp_path):
    """lat: one token dropped in sentence 1 of POS; lemmas shifted; an extra feature on every token."""
    sub = str(tmp_path / "sub")
    subprocess.check_call(["cp", "-r", gold_submission, sub])
    pos = load(os.path.join(sub, "pos_tagging", "lat.json"))
    n_sent = len(pos)
    pos[0] = pos[0][1:]
    dump(os.path.join(sub, "pos_tagging", "lat.json"), pos)
    lemmas = load(os.path.join(dev_reference, "lemmatisation", "lat.json"))
    dump(os.path.join(sub, "lemmatisation", "lat.json"),
         [[[form, ["~" + lemma, lemma]] for form, lemma in sent] for sent in lemmas])
    morph = load(os.path.join(dev_reference, "morph_features", "lat.json"))
    dump(os.path.join(sub, "morph_features", "lat.json"),
         [[dict(tok, ExtraFeature="x") for tok in sent] for sent in morph])
    # a token with k > 0 gold features, all right, plus one extra: marks k * [+1] + [-1] -> (k - 1) / (k + 1)
    feats = lambda tok: len([key for key in tok if key not in ("Token", "UPOS")])
    expected_morph = sum(
        sum(1.0 if not feats(tok) else (feats(tok) - 1) / float(feats(tok) + 1) for tok in sent) / len(sent)
        for sent in morph) / len(morph)

    scores = evaluate(st2024, dev_reference, sub)["scores"]
    assert scores["lat_pos"] == pytest.approx(1 - 1.0 / n_sent, abs=1e-12)
    assert scores["lat_lemma_acc1"] == 0.0 and scores["lat_lemma_acc3"] == 1.0
    assert scores["lat_lemma"] == 0.5
    assert scores["lat_full_morph"] == pytest.approx(expected_morph, abs=1e-12)
    assert scores["lat_fill_mask_word"] == 1.0


def test_missing_sentence_zeroes_the_entry(dev_reference, gold_submission, tmp_path):
    sub = str(tmp_path / "sub")
    subprocess.check_call(["cp", "-r", gold_submission, sub])
    path = os.path.join(sub, "fill_mask_char", "cop.json")
    sentences = load(path)
    dump(path, sentences[1:])
    report = evaluate(st2024, dev_reference, sub)
    assert report["scores"]["cop_fill_mask_char"] == 0.0
    texts = [m["text"] for m in report["messages"] if m["file"] == "fill_mask_char/cop.json"]
    assert any("the file has %d sentences, the reference has %d" % (len(sentences) - 1, len(sentences)) in t
               for t in texts)
