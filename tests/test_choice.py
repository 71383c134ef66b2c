"""evalkit.choice: worked examples, an independent re-computation of accuracy and WER on generated
submissions (ties and malformed sets included), jiwer as the WER oracle, and located validation messages."""
import doctest
import math
import os
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import SCORING_PROGRAM
from evalkit import choice
from evalkit.messages import DataError

jiwer = pytest.importorskip("jiwer")

WORDS = ["la__sp", "casa__sp", "the__en", "house__en", "es__sp", "is__en", "big__en", "grande__sp", "."]


def test_docstring_examples_run():
    result = doctest.testmod(choice)
    assert result.failed == 0 and result.attempted >= 15


sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)


@given(sentence, st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))
@settings(max_examples=300, deadline=None)
def test_wer_equals_jiwer(ref, hyp):
    assert choice.wer(ref, hyp) == pytest.approx(jiwer.wer(ref, hyp))


@given(st.lists(st.tuples(sentence, sentence), min_size=1, max_size=8))
@settings(max_examples=100, deadline=None)
def test_corpus_wer_of_index_submissions_equals_jiwer(pairs):
    reference = [{"id": "s%d" % i, "sentences": [gold, other], "gold": 0, "gold_type": "en"}
                 for i, (gold, other) in enumerate(pairs)]
    answers = {"s%d" % i: 1 for i in range(len(pairs))}
    scores = choice.evaluate(reference, answers)
    assert scores["wer"] == pytest.approx(jiwer.wer([g for g, _ in pairs], [o for _, o in pairs]))


def make_reference(rng, sets=40):
    """Synthetic sets of 3..8 distinct sentences, a gold index and a gold type."""
    reference = []
    for number in range(sets):
        size = rng.randint(3, 8)
        sentences = set()
        while len(sentences) < size:
            sentences.add(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))))
        reference.append({"id": "dev-%03d" % number, "sentences": sorted(sentences), "gold": rng.randrange(size),
                          "gold_type": rng.choice(["cs", "en", "sp"])})
    return reference


def make_submission(rng, reference):
    """Scores with many ties, indices, and every kind of malformed answer; returns (submission, the expected
    class of problem of each set, a key of ``choice.PROBLEMS``, or None)."""
    submission, problems = {}, {}
    for entry in reference:
        size = len(entry["sentences"])
        kind = rng.choice(["scores", "scores", "ties", "index", "missing", "short", "text", "nan", "bool",
                           "range", "float_index"])
        problems[entry["id"]] = None
        if kind == "scores":
            submission[entry["id"]] = [rng.uniform(-50, 0) for _ in range(size)]
        elif kind == "ties":
            submission[entry["id"]] = [float(rng.randint(0, 2)) for _ in range(size)]
        elif kind == "index":
            submission[entry["id"]] = rng.randrange(size)
        elif kind == "missing":
            problems[entry["id"]] = "missing"
        elif kind == "short":
            submission[entry["id"]] = [0.0] * (size - 1)
            problems[entry["id"]] = "count"
        elif kind == "text":
            submission[entry["id"]] = [0.0] * (size - 1) + ["high"]
            problems[entry["id"]] = "not_number"
        elif kind == "nan":
            submission[entry["id"]] = [float("nan")] + [0.0] * (size - 1)
            problems[entry["id"]] = "not_finite"
        elif kind == "bool":
            submission[entry["id"]] = [True] * size
            problems[entry["id"]] = "boolean"
        elif kind == "range":
            submission[entry["id"]] = size
            problems[entry["id"]] = "range"
        else:
            submission[entry["id"]] = 1.0
            problems[entry["id"]] = "answer_type"
    submission["dev-unknown"] = 0
    return submission, problems


def levenshtein(a, b):
    """Independent edit distance (recursive with memo) for the oracle."""
    memo = {}

    def d(i, j):
        if (i, j) not in memo:
            if i == 0 or j == 0:
                memo[(i, j)] = i + j
            else:
                memo[(i, j)] = min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
        return memo[(i, j)]
    return d(len(a), len(b))


def oracle(reference, submission, problems):
    """Accuracy by group and corpus WER computed independently: ties split by rank counting."""
    credit = {"cs": [], "mono": []}
    edits, words = 0.0, 0
    for entry in reference:
        group = "cs" if entry["gold_type"] == "cs" else "mono"
        gold_tokens = entry["sentences"][entry["gold"]].split()
        words += len(gold_tokens)
        answer = submission.get(entry["id"])
        if problems[entry["id"]] is not None:
            credit[group].append(0.0)
            edits += len(gold_tokens)
        elif isinstance(answer, int):
            credit[group].append(1.0 if answer == entry["gold"] else 0.0)
            edits += levenshtein(gold_tokens, entry["sentences"][answer].split())
        else:
            ranked = sorted(range(len(answer)), key=lambda i: -answer[i])
            tied = [i for i in ranked if answer[i] == answer[ranked[0]]]
            credit[group].append(1.0 / len(tied) if entry["gold"] in tied else 0.0)
            edits += sum(levenshtein(gold_tokens, entry["sentences"][i].split()) for i in tied) / len(tied)
    everything = credit["cs"] + credit["mono"]
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    return {"accuracy": mean(everything), "accuracy_cs": mean(credit["cs"]), "accuracy_mono": mean(credit["mono"]),
            "wer": edits / words}


@pytest.mark.parametrize("seed", range(8))
def test_scores_equal_independent_computation_with_ties_and_malformed_sets(seed):
    rng = random.Random(seed)
    reference = make_reference(rng)
    submission, problems = make_submission(rng, reference)
    answers, messages = choice.parse_submission(submission, reference, "sub.json")
    scores = choice.evaluate(reference, answers)
    expected = oracle(reference, submission, problems)
    for key, value in expected.items():
        assert scores[key] == pytest.approx(value), key
    assert scores["sets"] == len(reference)
    assert scores["sets_cs"] + scores["sets_mono"] == len(reference)
    # every class of malformed set is one message: located at its first set, with the count of its sets
    assert_one_message_per_class(messages, problems, len(reference))
    text = "\n".join(str(m) for m in messages)
    assert "set dev-unknown: an id that is not a set of this phase: 1 id (set dev-unknown)" in text


def assert_one_message_per_class(messages, problems, total):
    """One error per class of ``problems`` ({set id: class or None}), at its first set, counting its sets."""
    classes = {}
    for set_id, problem in problems.items():
        if problem:
            classes.setdefault(problem, []).append(set_id)
    errors = [m for m in messages if m.severity == "error"]
    assert len(errors) == len(classes), "\n".join(str(m) for m in messages)
    for problem, ids in classes.items():
        what = choice.PROBLEMS[problem][1]
        found = [m for m in errors if m.text.startswith(what + ": ")]
        assert len(found) == 1, (problem, [str(m) for m in errors])
        assert found[0].where.startswith("set %s" % ids[0])
        assert "%s: %d of %d sets (set %s" % (what, len(ids), total, ids[0]) in found[0].text


def test_constant_scorer_earns_the_random_expectation_not_more():
    reference = make_reference(random.Random(1), sets=30)
    answers, messages = choice.parse_submission({e["id"]: [1.0] * len(e["sentences"]) for e in reference}, reference)
    # constant scores tie inside every set: one warning (issue 24, class 2); the score is the tie rule's
    assert [m.severity for m in messages] == ["warning"]
    assert "30 of the 30 sets answered with scores have their highest score shared" in messages[0].text
    assert "(30 with the same score for every sentence" in messages[0].text
    expected = sum(1.0 / len(e["sentences"]) for e in reference) / len(reference)
    assert choice.evaluate(reference, answers)["accuracy"] == pytest.approx(expected)
    assert expected < 0.5


def test_a_tie_with_the_gold_is_split_not_won():
    reference = [{"id": "a", "sentences": ["x", "y", "z"], "gold": 2, "gold_type": "cs"}]
    assert choice.evaluate(reference, {"a": [0.0, 5.0, 5.0]})["accuracy"] == 0.5
    assert choice.evaluate(reference, {"a": [5.0, 5.0, 5.0]})["accuracy"] == pytest.approx(1.0 / 3)
    assert choice.evaluate(reference, {"a": [0.0, 1.0, 5.0]})["accuracy"] == 1.0


def test_groups_without_sets_score_zero_and_missing_answers_delete_every_gold_word():
    reference = [{"id": "a", "sentences": ["x y z", "y"], "gold": 0, "gold_type": "sp"}]
    scores = choice.evaluate(reference, {"a": None})
    assert (scores["accuracy"], scores["accuracy_cs"], scores["wer"]) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("data", [[], "text", 3, None])
def test_a_submission_that_is_not_an_object_is_one_located_data_error(data):
    with pytest.raises(DataError) as caught:
        choice.parse_submission(data, [], "predictions.json")
    assert "predictions.json" in str(caught.value) and "expected a JSON object" in str(caught.value)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=3), max_leaves=8)


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), json_values))
@settings(max_examples=300, deadline=None)
def test_any_json_answers_give_messages_never_a_traceback(data):
    reference = [{"id": "a", "sentences": ["x", "y"], "gold": 0, "gold_type": "en"},
                 {"id": "b", "sentences": ["x", "y", "z"], "gold": 2, "gold_type": "cs"}]
    answers, messages = choice.parse_submission(data, reference)
    scores = choice.evaluate(reference, answers)
    assert 0.0 <= scores["accuracy"] <= 1.0 and not math.isnan(scores["wer"])
    counted = sum(int(re.search(r": (\d+) of 2 sets \(", m.text).group(1)) for m in messages if m.severity == "error")
    assert counted == sum(1 for answer in answers.values() if answer is None), [str(m) for m in messages]


@pytest.mark.parametrize("line, expected", [
    ('{"id": "a", "sentences": ["x"], "gold": 0, "gold_type": "en"}', "at least 2 sentences"),
    ('{"id": "a", "sentences": ["x", "y"], "gold": 2, "gold_type": "en"}', "gold index from 0 to 1, got 2"),
    ('{"id": "a", "sentences": ["x", "y"], "gold": 0, "gold_type": "fr"}', "gold_type one of cs, en, sp"),
    ('{"id": "a", "sentences": ["x", "y"], "gold": 0', "invalid JSON"),
    ('[1]', "expected a JSON object"),
])
def test_reference_problems_are_located(line, expected):
    with pytest.raises(DataError) as caught:
        choice.parse_reference(["", line], "ref.jsonl")
    assert "ref.jsonl, line 2" in str(caught.value) and expected in str(caught.value)


def test_duplicate_reference_ids_are_refused():
    line = '{"id": "a", "sentences": ["x", "y"], "gold": 0, "gold_type": "en"}'
    with pytest.raises(DataError) as caught:
        choice.parse_reference([line, line], "ref.jsonl")
    assert "line 2" in str(caught.value)


def test_the_portability_run_covers_choice_py():
    """tests/test_portability.py runs vermin on scoring_program/: that run analyses this module too."""
    vermin = os.path.join(os.path.dirname(sys.executable), "vermin")
    proc = subprocess.run([vermin, "--no-tips", "-v", "-t=3.7-", SCORING_PROGRAM], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    assert proc.returncode == 0, proc.stdout
    assert os.path.join("evalkit", "choice.py") in proc.stdout


@pytest.mark.parametrize("data, where, expected", [
    (b"", "", "the file is empty; expected a JSON object"),
    (b'{"a": [1, 2', "line 1, column 12", "invalid JSON"),
    (b"\xff{}", "byte 0 (line 1)", "not valid UTF-8"),
    (b"[]", "", "expected a JSON object"),
])
def test_unusable_submission_files_are_one_located_error(data, where, expected):
    reference = [{"id": "a", "sentences": ["x", "y"], "gold": 1, "gold_type": "cs"}]
    with pytest.raises(DataError) as caught:
        choice.read_submission(data, reference, "sub.json")
    assert caught.value.message.where == where and expected in caught.value.message.text
