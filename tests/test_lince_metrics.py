"""LinCE's metrics: worked examples, scikit-learn and seqeval as oracles (to 1e-12), Table 5's average."""
import doctest

import pytest
from hypothesis import given, settings, strategies as st

from evalkit import lines, metrics

sklearn_metrics = pytest.importorskip("sklearn.metrics")
seqeval_metrics = pytest.importorskip("seqeval.metrics")

LID = ["lang1", "lang2", "other", "ne", "ambiguous", "mixed", "fw", "unk"]
BIO = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def test_worked_examples_of_the_new_functions_run():
    assert doctest.testmod(lines).failed == 0 and doctest.testmod(lines).attempted >= 7
    names = [name for name in ("accuracy", "label_counts", "precision_recall_f1", "weighted_f1", "bio_spans",
                               "span_counts", "span_f1")]
    finder = doctest.DocTestFinder()
    for name in names:
        tests = finder.find(getattr(metrics, name), name, globs={name: getattr(metrics, name)})
        assert tests and tests[0].examples, name
        runner = doctest.DocTestRunner()
        runner.run(tests[0])
        assert runner.failures == 0, name


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LID), st.sampled_from(LID)), min_size=1, max_size=40))
def test_accuracy_and_weighted_f1_equal_scikit_learn(pairs):
    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    assert abs(metrics.accuracy(gold, pred) - sklearn_metrics.accuracy_score(gold, pred)) <= 1e-12
    expected = sklearn_metrics.f1_score(gold, pred, average="weighted", zero_division=0)
    assert abs(metrics.weighted_f1(gold, pred) - expected) <= 1e-12


def test_weighted_f1_corners_against_scikit_learn():
    cases = [(["a"], ["a"]), (["a", "a"], ["b", "b"]), (["a", "b", "c"], ["a", "a", "a"]),
             (["lang1"] * 5 + ["ne"], ["lang1"] * 6)]
    for gold, pred in cases:
        expected = sklearn_metrics.f1_score(gold, pred, average="weighted", zero_division=0)
        assert abs(metrics.weighted_f1(gold, pred) - expected) <= 1e-12
    assert metrics.weighted_f1([], []) == 0.0 and metrics.accuracy([], []) == 0.0


def seqeval_f1(gold, pred):
    return seqeval_metrics.f1_score(gold, pred, zero_division=0)


EDGE_CASES = [
    ([["I-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]]),          # I- without B- opens a span
    ([["B-PER", "B-PER", "I-PER"]], [["B-PER", "I-PER", "I-PER"]]),  # adjacent spans of one type
    ([["B-LOC", "B-LOC"]], [["B-LOC", "B-LOC"]]),
    ([["O", "O", "O"]], [["B-ORG", "O", "O"]]),                      # empty gold
    ([["O", "O"], ["O"]], [["O", "O"], ["O"]]),                      # no span anywhere
    ([["B-PER", "I-PER"], ["B-LOC"]], [["O", "O"], ["O"]]),          # all-O prediction
    ([["B-PER", "I-LOC", "I-LOC"]], [["B-PER", "B-LOC", "I-LOC"]]),  # type change inside
    ([["I-ORG"]], [["I-ORG"]]),
    ([[]], [[]]),
]


@pytest.mark.parametrize("gold,pred", EDGE_CASES)
def test_span_f1_edge_cases_equal_seqeval(gold, pred):
    assert abs(metrics.span_f1(gold, pred) - seqeval_f1(gold, pred)) <= 1e-12


def test_edge_case_values_by_hand():
    assert metrics.bio_spans(["I-PER", "I-PER", "O"]) == [(0, 2, "PER")]
    assert metrics.bio_spans(["B-PER", "B-PER", "I-PER"]) == [(0, 1, "PER"), (1, 3, "PER")]
    assert metrics.span_f1([["O", "O"]], [["B-ORG", "O"]]) == 0.0
    assert metrics.span_f1([["B-PER"]], [["O"]]) == 0.0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(BIO), st.sampled_from(BIO)), max_size=12), min_size=1, max_size=6))
def test_span_f1_equals_seqeval_on_generated_sentences(sentences):
    gold = [[g for g, _ in sent] for sent in sentences]
    pred = [[p for _, p in sent] for sent in sentences]
    assert abs(metrics.span_f1(gold, pred) - seqeval_f1(gold, pred)) <= 1e-12


# The paper's Table 5 (test set), as printed: Avg, then the ten dataset scores in the table's order.
TABLE5 = {
    "BiLSTM": (73.20, [94.16, 92.34, 93.29, 74.26, 94.80, 81.84, 44.92, 48.36, 62.64, 45.39]),
    "ELMo": (78.64, [98.12, 96.21, 96.19, 80.54, 96.30, 88.42, 53.80, 65.83, 61.00, 49.97]),
    "ML-BERT": (82.93, [98.53, 96.44, 96.57, 84.14, 97.00, 89.28, 63.56, 75.96, 67.61, 60.20]),
}


@pytest.mark.parametrize("model", sorted(TABLE5))
def test_table5_avg_is_the_plain_mean_of_the_ten_dataset_scores(model):
    avg, scores = TABLE5[model]
    assert len(scores) == 10
    assert round(metrics.mean(scores), 2) == avg
    # and not a mean of the four task means (LID, POS, NER, SA), which differs
    task_means = [metrics.mean(scores[0:4]), metrics.mean(scores[4:6]), metrics.mean(scores[6:9]), scores[9]]
    assert round(metrics.mean(task_means), 2) != avg
