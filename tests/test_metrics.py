"""Metric functions: their worked examples, hand-computed corners, and scikit-learn as an oracle."""
import doctest

import pytest
from hypothesis import given, settings, strategies as st

from evalkit import metrics, writers

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def test_docstring_examples_run():
    for module in (metrics, writers):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


def test_single_label_sentence_all_right_and_all_wrong():
    assert metrics.tag_accuracy_f1(["NOUN"], ["NOUN"]) == (1.0, 1.0)
    assert metrics.tag_accuracy_f1(["NOUN", "NOUN"], ["NOUN", "NOUN"]) == (1.0, 1.0)
    assert metrics.tag_accuracy_f1(["NOUN"], ["VERB"]) == (0.0, 0.0)


def test_label_only_predicted_counts_as_zero_in_the_macro_average():
    # NOUN: 2*1/(1+1) = 1; X is only predicted: 0 -> (1 + 0) / 2
    acc, f1 = metrics.tag_accuracy_f1(["NOUN", "NOUN"], ["NOUN", "X"])
    assert acc == 0.5
    assert f1 == pytest.approx((2.0 / 3 + 0) / 2)


def test_morph_token_scores():
    assert metrics.morph_token_score({"Case": "Nom"}, {"Case": "Nom"}) == 1.0
    assert metrics.morph_token_score({"Case": "Nom"}, {}) == 0.0
    assert metrics.morph_token_score({}, {"Case": "Nom", "Number": "Sing"}) == 1.0
    assert metrics.morph_token_score({"Case": "Nom"}, {"Case": "Acc", "Number": "Sing"}) == -0.5
    assert metrics.morph_token_score({"Person": "1"}, {"Person": 1}) == 0.0   # values are strings


def test_topk_rules():
    assert metrics.topk_accuracies(["a"], [()]) == (0.0, 0.0, 0, 0)
    assert metrics.topk_accuracies(["a", "b"], [("b", "a"), ("b",)]) == (0.5, 1.0, 1, 2)
    with pytest.raises(ValueError):
        metrics.topk_accuracies(["a"], [])
    with pytest.raises(ValueError):
        metrics.tag_counts(["a"], ["a", "b"])


def test_mean_of_nothing_is_zero():
    assert metrics.mean([]) == 0.0 and metrics.mean([0], 0) == 0.0


LABELS = st.sampled_from(["NOUN", "VERB", "ADJ", "ADP", "PUNCT", "X", "_"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(LABELS, LABELS), min_size=1, max_size=30))
def test_tag_metrics_equal_scikit_learn(pairs):
    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    acc, f1 = metrics.tag_accuracy_f1(gold, pred)
    assert acc == pytest.approx(sklearn_metrics.accuracy_score(gold, pred), abs=1e-12)
    assert f1 == pytest.approx(sklearn_metrics.f1_score(gold, pred, average="macro", zero_division=0), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.lists(st.sampled_from("abcde"), max_size=3)),
                min_size=1, max_size=20))
def test_topk_equals_a_plain_definition(items):
    gold = [g for g, _ in items]
    cands = [tuple(c) for _, c in items]
    acc1, acc3, _, _ = metrics.topk_accuracies(gold, cands)
    assert acc1 == pytest.approx(sum(1 for g, c in items if c and c[0] == g) / float(len(items)))
    assert acc3 == pytest.approx(sum(1 for g, c in items if g in c) / float(len(items)))


FEATS = st.dictionaries(st.sampled_from(["Case", "Number", "Gender", "Tense"]), st.sampled_from(["A", "B"]), max_size=4)


@settings(max_examples=200, deadline=None)
@given(FEATS, FEATS)
def test_morph_token_equals_the_list_of_marks(gold, pred):
    if not gold:
        expected = 1.0
    else:
        marks = [1 if pred.get(k) == v else 0 for k, v in gold.items()] + [-1 for k in pred if k not in gold]
        expected = sum(marks) / float(len(marks))
    assert metrics.morph_token_score(gold, pred) == pytest.approx(expected)
