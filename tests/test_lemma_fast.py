"""The ranked-candidate (lemmatisation) fast paths give what the sentence-by-sentence paths give: the lazy pair
reference, the kind's own whole-file parse (token lengths read by ``len``, candidate types checked by their join),
and the blank-row check read from whole-file lists."""
import random

import pytest

from evalkit import blank, inventory, kinds
from evalkit.messages import MessageLog

KIND = kinds.KINDS["candidates"]


class Task(object):
    """A lemmatisation-like task: three ranked candidates, blank rows ``_``."""
    max_candidates = 3
    blank_rows = ("_", "multiword-token rows")


TASK = Task()


def _messages(log):
    return [message.as_dict() for message in log.close()]


def _parse(ref_value, pred_value):
    log = MessageLog("lemmatisation/xx.json")
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    pred = KIND.parse_prediction(pred_value, ref, log, TASK)
    return ref, pred, log


def _slow(ref_value, pred_value):
    """The same file parsed by the sentence-by-sentence path alone (a plain list reference, no fast parse)."""
    log = MessageLog("lemmatisation/xx.json")
    ref = [KIND._split(sent, "reference", si) for si, sent in enumerate(ref_value)]
    pred = [KIND._parse_sentence(sent, ref_sent, log, si, TASK)
            for si, (sent, ref_sent) in enumerate(kinds.paired(pred_value, ref))]
    return ref, pred, log


def _corpus(seed, sentences=40):
    rng = random.Random(seed)
    golds = [[rng.choice(["a", "b", "_", "caf\u00e9", "x y", "d"]) for _ in range(rng.randint(0, 6))]
             for _ in range(sentences)]
    ref_value = [[["w%d" % ti, g] for ti, g in enumerate(sent)] for sent in golds]
    pred_value = []
    for sent in golds:
        row = []
        for ti, g in enumerate(sent):
            roll = rng.random()
            if roll < 0.5:
                cands = [g, g + "a", g + "b"][:rng.randint(1, 3)]
            elif roll < 0.7:
                cands = [rng.choice(["_", "e", "a", "b"]), g]
            elif roll < 0.8:
                cands = []
            else:
                cands = [rng.choice(["_e", "", "z", "_"])]
            row.append(["w%d" % ti, cands])
        pred_value.append(row)
    return ref_value, pred_value


def test_the_reference_is_not_split_until_read_and_gives_the_same_sentences():
    ref_value, _ = _corpus(1)
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    assert isinstance(ref, kinds.PairReference) and "sentences" not in ref._known
    flat_golds = ref.flat_golds()
    golds = ref.golds()   # cut from the golds end to end
    assert golds == [[g for _, g in sent] for sent in ref_value]
    assert flat_golds == [g for sent in ref_value for _, g in sent]
    assert ref.flat_forms() == [f for sent in ref_value for f, _ in sent]
    assert list(ref) == [([f for f, _ in sent], [g for _, g in sent]) for sent in ref_value]
    assert ref[3] == list(ref)[3]
    assert ref.gold_columns() == kinds.gold_columns(golds)
    empty = KIND.parse_reference([[["a", "x"]], []], "reference", TASK)
    assert empty.gold_columns() == kinds.gold_columns(empty.golds())


@pytest.mark.parametrize("seed", range(6))
def test_fast_scores_and_messages_equal_the_sentence_path(seed):
    ref_value, pred_value = _corpus(seed)
    ref, pred, log = _parse(ref_value, pred_value)
    assert type(pred) is kinds.Accepted
    slow_ref, slow_pred, slow_log = _slow(ref_value, pred_value)
    assert list(pred) == slow_pred
    KIND.check_labels(pred, log, TASK, None)
    blank.check_blank_rows(ref, pred, TASK, log, KIND.item_where)
    KIND.check_labels(slow_pred, slow_log, TASK, None)
    blank.check_blank_rows(slow_ref, slow_pred, TASK, slow_log, KIND.item_where)
    assert _messages(log) == _messages(slow_log)
    fast, slow = KIND.score(ref, pred, TASK), KIND.score(slow_ref, slow_pred, TASK)
    assert (fast.components, fast.micro, fast.per_sentence) == (slow.components, slow.micro, slow.per_sentence)


def test_the_blank_row_check_over_flat_lists_names_the_same_rows():
    golds = [["_", "a", "_"], [], ["_"], ["b", "_", "_", "_"]]
    ref_value = [[["w", g] for g in sent] for sent in golds]
    given = [[["_"], ["a"], ["x", "_"]], [], [[]], [["b"], ["_e"], [""], ["x"]]]
    pred_value = [[["w", c] for c in sent] for sent in given]
    ref, pred, _ = _parse(ref_value, pred_value)
    assert blank._flat_blank_rows(ref, pred, "_") is not None
    log = MessageLog("lemmatisation/xx.json")
    blank.check_blank_rows(ref, pred, TASK, log, KIND.item_where)
    texts = [m["text"] for m in _messages(log)]
    assert len(texts) == 1 and texts[0].startswith("3 of the 6 " + blank.MARK)
    assert "'x' 2 times, '_e' 1 time" in texts[0] and "sentence 1, token 3" in texts[0]
    assert "sentence 4, token 2" in texts[0] and "sentence 4, token 4" in texts[0]
    right = [[["w", [g, "q"]] for g in sent] for sent in golds]
    ref, pred, _ = _parse(ref_value, right)
    assert blank._flat_blank_rows(ref, pred, "_") == (blank.Counter(), [], 6)


@pytest.mark.parametrize("token", ["ab", {"a": 1, "b": 2}, 7, None, ["a", "x", "y"]])
def test_a_token_of_two_items_that_is_not_a_pair_is_refused_as_before(token):
    ref_value = [[["a", "x"], ["b", "y"]]]
    pred_value = [[token, ["b", ["y"]]]]
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    assert KIND._fast_parse(pred_value, ref, TASK) is None
    with pytest.raises(kinds.DataError):
        KIND.parse_prediction(pred_value, ref, MessageLog("lemmatisation/xx.json"), TASK)


@pytest.mark.parametrize("cands", [[1], [None], ["a", 2.5], [True], "ay", ["a", "b", "c", "d"], [["a"]], {"a": 1},
                                   "abcd", 5])
def test_candidates_that_are_not_strings_take_the_sentence_path(cands):
    ref_value = [[["a", "a"], ["b", "y"]]]
    pred_value = [[["a", cands], ["b", ["y"]]]]
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    assert KIND._fast_parse(pred_value, ref, TASK) is None
    assert kinds._distinct_candidates([cands, ["y"]], 3) is None


def test_the_distinct_candidates_come_with_their_text():
    distinct, text, firsts = kinds._distinct_candidates([["a", "b"], ["b"]], 3)
    assert distinct == {"a", "b"} and text[0] is distinct and sorted(text[1].split("\x00")) == ["a", "b"]
    assert firsts == ["a", "b"]
    assert kinds._distinct_candidates([[], []], 3) == (set(), ([], ""), [inventory.NO_CANDIDATE] * 2)
    assert kinds._distinct_candidates([["a"], [], ["b", "c"]], 3)[2] == ["a", inventory.NO_CANDIDATE, "b"]
    for lists in (["ab", ["c"]], [["c"], {"a": 1}], [[], "ab"], [{"a": 1}, []], [["a"], 3]):
        assert kinds._distinct_candidates(lists, 3) is None


@pytest.mark.parametrize("seed", range(4))
def test_the_strings_that_may_be_joined_are_those_the_pattern_finds(seed):
    rng = random.Random(seed)
    marks = ["a", "b", "|", "[", " ", "\t", "\u00a0", "\x1c", "\u00e9", ""]
    for _ in range(300):
        strings = list(set("".join(rng.choice(marks) for _ in range(rng.randint(0, 5)))
                           for _ in range(rng.randint(0, 3 * inventory.MAX_MARKED))))
        text = "\x00".join(strings)
        assert inventory._may_be_joined(strings, text) == inventory._MAY_BE_JOINED.findall(text)


@pytest.mark.parametrize("tokens", [[["a"], ["b", ["y"]]], [[], ["b", ["y"]]], [["a", ["x"], "z"], ["b", ["y"]]],
                                    [["a", ["x"]], ["b"]], [["a", ["x"], ["q"]], ["b", ["y"], ["r"]]]])
def test_tokens_of_another_length_are_refused_by_the_columns_pass(tokens):
    ref = KIND.parse_reference([[["a", "x"], ["b", "y"]]], "reference", TASK)
    assert KIND._fast_parse([tokens], ref, TASK) is None
    with pytest.raises(kinds.DataError):
        KIND.parse_prediction([tokens], ref, MessageLog("lemmatisation/xx.json"), TASK)
