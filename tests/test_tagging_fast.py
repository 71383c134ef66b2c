"""The tagging kind's fast paths against the pure metric functions: per-sentence scores, whole-file counts, the
reference read on first use, the tag and blank-row checks over flat lists. Every number must be the same float."""
import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from evalkit import blank, inventory, kinds, metrics
from evalkit.messages import DataError, MessageLog

KIND = kinds.KINDS["tagging"]
TASK = st2024.TASKS_BY_FOLDER["pos_tagging"]

# (gold tags, predicted tags) of hand-made sentences; None as prediction: a token too many (the sentence scores 0).
SENTENCES = [
    (["NOUN", "VERB", "NOUN"], ["NOUN", "VERB", "NOUN"]),          # all right
    (["NOUN", "VERB", "NOUN"], ["NOUN", "NOUN", "NOUN"]),          # VERB only gold
    (["PUNCT"], ["X"]),                                             # a label only gold, one only predicted
    ([], []),                                                       # an empty sentence: not scored
    (["ADP", "NOUN", "ADP", "DET"], ["ADP", "ADJ", "ADP", "NOUN"]),
    (["NOUN", "NOUN"], None),                                       # scored 0
    ([], None),                                                     # empty, a token too many: skipped
    (["ADJ", "ADJ", "ADJ"], [3, None, "ADJ"]),                      # tags that are not strings never match
    (["caf\u00e9", "NOUN"], ["cafe\u0301", "NOUN"]),                # canonically equivalent: compared in NFC
    (["X" * 120 + "a", "X" * 120 + "b"], ["X" * 120 + "b", "X" * 120 + "a"]),   # two labels, one detail row
    (["_", "PRON", "VERB"], ["PRON", "_", "VERB"]),                 # blank rows given another label
    (["VERB", "VERB", "NOUN", "VERB"], ["VERB", "NOUN", "NOUN", "ADV"]),
]


def _files(sentences):
    """The reference and prediction JSON values of ``sentences`` (forms ``w<i>``)."""
    ref = [[["w%d" % ti, gold] for ti, gold in enumerate(golds)] for golds, _ in sentences]
    pred = [[["w%d" % ti, tag] for ti, tag in enumerate(tags)] if tags is not None
            else [["w%d" % ti, "NOUN"] for ti in range(len(golds) + 1)] for golds, tags in sentences]
    return ref, pred


def _oracle(ref_sentences, pred):
    """The entry of a parsed reference and prediction computed with the pure functions alone, token by token."""
    acc, f1, all_gold, all_pred, all_hits, zeroed = [], [], [], [], [], 0
    for (_, gold), tags in kinds.paired(ref_sentences, pred):
        if not gold:
            continue
        all_gold.extend(gold)
        if tags is None:
            zeroed += 1
            acc.append(0.0)
            f1.append(0.0)
            continue
        tags = [g if kinds.same_text(t, g) else t for t, g in kinds.paired(tags, gold)]
        a, f = metrics.tag_accuracy_f1(gold, tags)
        acc.append(a)
        f1.append(f)
        all_pred.extend(tags)
        all_hits.extend(g for g, t in kinds.paired(gold, tags) if g == t)
    return {"components": {"acc": metrics.mean(acc), "f1": metrics.mean(f1)},
            "micro": {"acc": metrics.mean([len(all_hits)], len(all_gold))},
            "per_sentence": {"acc": acc, "f1": f1}, "sentences": len(ref_sentences), "scored": len(acc),
            "items": len(all_gold), "zeroed": zeroed, "details": {"per_tag": kinds._per_tag(all_gold, all_pred, all_hits)}}


def _entry(entry):
    return {"components": entry.components, "micro": entry.micro, "per_sentence": entry.per_sentence,
            "sentences": entry.sentences, "scored": entry.scored_sentences, "items": entry.items,
            "zeroed": entry.zeroed_sentences, "details": entry.details}


def _parse(ref_value, pred_value):
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    log = MessageLog("pos_tagging/xx.json")
    pred = KIND.parse_prediction(pred_value, ref, log, TASK)
    return ref, pred, log


def _scored_every_way(sentences):
    """The entry of ``sentences`` scored as the scorer does (a PairReference, the parsed prediction) and as plain
    lists; both must equal the oracle's, number for number."""
    ref_value, pred_value = _files(sentences)
    ref, pred, _ = _parse(ref_value, pred_value)
    eager = [(list(forms), list(golds)) for forms, golds in ref]
    expected = _oracle(eager, list(pred))
    assert _entry(KIND.score(ref, pred, TASK)) == expected
    assert _entry(KIND.score(eager, [None if tags is None else list(tags) for tags in pred], TASK)) == expected
    lean = KIND.score(ref, pred, TASK, details=False)
    assert (lean.components, lean.per_sentence, lean.micro, lean.details) == (
        expected["components"], expected["per_sentence"], {}, {})
    return expected


@pytest.mark.parametrize("index", range(len(SENTENCES)))
def test_tag_scores_equal_the_pure_metric(index):
    gold, tags = SENTENCES[index]
    if tags is None:
        return
    tags = [t if type(t) is str else None for t in tags]   # as the kind passes them
    assert kinds.tag_scores(gold, tags) == metrics.tag_accuracy_f1(gold, tags)


def test_tag_scores_corners():
    assert kinds.tag_scores([], []) == metrics.tag_accuracy_f1([], []) == (0.0, 0.0)
    assert kinds.tag_scores(["A", "B", "C"], ["D", "E", "F"]) == (0.0, 0.0)
    assert kinds.tag_scores(["A", "B", "A", "C", "B"], ["A", "A", "A", "C", "D"]) == metrics.tag_accuracy_f1(
        ["A", "B", "A", "C", "B"], ["A", "A", "A", "C", "D"])
    with pytest.raises(ValueError):
        kinds.tag_scores(["A"], ["A", "B"])


LABELS = st.sampled_from(["NOUN", "VERB", "ADJ", "_", "noun", "caf\u00e9", "cafe\u0301", "X" * 101, "X" * 102])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(LABELS, st.one_of(LABELS, st.none(), st.integers(0, 2))), max_size=12))
def test_tag_scores_equal_the_pure_metric_on_any_sentence(pairs):
    gold = [g for g, _ in pairs]
    tags = [t if type(t) is str else None for _, t in pairs]
    assert kinds.tag_scores(gold, tags) == metrics.tag_accuracy_f1(gold, tags)


def test_the_whole_file_scores_equal_the_pure_functions():
    expected = _scored_every_way(SENTENCES)
    assert expected["zeroed"] == 1 and expected["scored"] == len(SENTENCES) - 2
    assert any(key.endswith("\u2026") or len(key) <= 100 for key in expected["details"]["per_tag"])


@pytest.mark.parametrize("which", ["gold", "wrong", "none", "nfc", "empty"])
def test_each_kind_of_file_scores_as_the_pure_functions(which):
    golds = [["NOUN", "VERB"], ["ADP", "NOUN", "PUNCT"], [], ["_", "DET"]]
    preds = {"gold": [list(g) for g in golds],
             "wrong": [["NOUN", "NOUN"], ["ADP", "NOUNx", "PUNCT"], [], ["DET", "DET"]],
             "none": [["NOUN", "VERB"], None, [], ["_", "DET"]],
             "nfc": [["NOUN", "VERB"], ["ADP", "NOUN", "PUNCT"], [], ["_", "DET"]],
             "empty": [[], [], [], []]}[which]
    if which == "nfc":
        golds[1][1] = "caf\u00e9"
        preds[1][1] = "cafe\u0301"
    if which == "empty":
        golds = [[] for _ in golds]
    _scored_every_way([(g, p) for g, p in zip(golds, preds)])   # (test data: equal lengths by construction)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.tuples(LABELS, st.one_of(LABELS, st.none(), st.integers(0, 2))), max_size=6)
                .map(lambda pairs: ([g for g, _ in pairs], [t for _, t in pairs])), max_size=8))
def test_any_file_scores_as_the_pure_functions(sentences):
    _scored_every_way(sentences)


def test_a_file_equal_to_the_reference_is_accepted_as_its_golds():
    ref_value, pred_value = _files(SENTENCES[:3])
    ref, pred, log = _parse(ref_value, copy.deepcopy(ref_value))
    assert type(ref) is kinds.PairReference and isinstance(pred, kinds.Accepted)
    assert list(pred) == [gold for _, gold in ref] and pred.distinct == {"NOUN", "VERB", "PUNCT"}
    assert pred.counts == {"NOUN": 4, "VERB": 2, "PUNCT": 1} and not log.close()


def test_a_reference_whose_golds_are_not_strings_never_makes_a_prediction_right_by_equality():
    ref_value = [[["w0", 1], ["w1", "NOUN"]]]
    ref, pred, log = _parse(ref_value, copy.deepcopy(ref_value))
    assert list(pred) == [[None, "NOUN"]]
    assert "expected a string" in log.close()[0].text


def test_the_reference_is_split_on_first_use_as_it_was_split_at_once():
    ref_value, _ = _files(SENTENCES)
    ref = KIND.parse_reference(copy.deepcopy(ref_value), "reference", TASK)
    assert type(ref) is kinds.PairReference and len(ref) == len(SENTENCES)
    eager = [([tok[0] for tok in sent], [tok[1] for tok in sent]) for sent in ref_value]
    assert ref[4] == eager[4] and ref[-2] == eager[-2] and "sentences" not in ref._known   # a sample: split alone
    assert list(ref) == eager and ref[1] == eager[1] and ref[-1] == eager[-1] and ref[2:4] == eager[2:4]
    assert ref.golds() == [golds for _, golds in eager] and ref.lengths() == [len(s) for s in ref_value]
    assert ref.flat_forms() == [form for forms, _ in eager for form in forms]
    assert ref.gold_counts()["NOUN"] == sum(golds.count("NOUN") for _, golds in eager)
    assert ref.golds()[0] is ref[0][1]   # one list per sentence, shared


def test_a_broken_or_null_reference_is_still_said_where():
    with pytest.raises(DataError) as err:
        KIND.parse_reference([[["a", "NOUN"]], [["b", "NOUN", "x"]]], "reference", TASK)
    assert "$[1][0]" in str(err.value)
    with pytest.raises(DataError) as err:
        KIND.parse_reference([[["a", "NOUN"]], ["b"]], "reference", TASK)
    assert "$[1][0]" in str(err.value)
    ref = KIND.parse_reference([[["a", "NOUN"]], [["b", "VERB"], ["c", None]]], "reference", TASK)
    with pytest.raises(DataError) as err:
        KIND.check_golds(ref, "reference")
    assert "$[1][1][1]" in str(err.value)


def _messages(log):
    return [message.as_dict() for message in log.close()]


def _checked(ref, pred, inv):
    log = MessageLog("pos_tagging/xx.json")
    KIND.check_labels(pred, log, TASK, inv)
    blank.check_blank_rows(ref, pred, TASK, log, KIND.item_where)
    return _messages(log)


@pytest.mark.parametrize("unknown", [1, 5, inventory.MAX_FLAT_KEYS + 3])
def test_the_tag_and_blank_row_checks_say_the_same_over_flat_lists(unknown):
    golds = [["NOUN", "_", "VERB"], [], ["ADP", "NOUN"], ["_", "_", "DET"], ["PUNCT"]] * 3
    tags = [list(sent) for sent in golds]
    made = 0
    for si, sent in enumerate(tags):
        for ti in range(len(sent)):
            if (si + ti) % 2 and made < 2 * unknown:
                sent[ti] = ("noun%d" % (made % unknown)) if made % 3 else "NOUNx%d" % (made % unknown)
                made += 1
    ref_value = [[["w", g] for g in sent] for sent in golds]
    pred_value = [[["w", t] for t in sent] for sent in tags]
    ref, pred, _ = _parse(ref_value, pred_value)
    assert getattr(pred, "flat", None) is not None
    inv = inventory.for_file(TASK, "lat", {"pos_tagging/lat": {"labels": ["NOUN", "VERB", "ADP", "DET", "PUNCT"]}})
    fast = _checked(ref, pred, inv)
    slow = _checked([(list(f), list(g)) for f, g in ref], [list(t) for t in pred], inv)
    assert fast == slow
    assert any("outside the task's tag set" in m["text"] for m in fast)
    assert any(blank.MARK in m["text"] for m in fast) == any(
        g == "_" and t != "_" for gs, ts in zip(golds, tags) for g, t in zip(gs, ts))


def test_the_blank_row_check_reads_candidates_too():
    class Lemmas(object):
        blank_rows = ("_", "multiword-token rows")
    candidates = kinds.KINDS["candidates"]
    ref = candidates.parse_reference([[["a", "_"], ["b", "x"]], [["c", "_"]]], "reference", TASK)
    log = MessageLog("lemmatisation/xx.json")
    blank.check_blank_rows(ref, [[["y", "_"], ["x"]], [["_"]]], Lemmas(), log, kinds._lemma_where)
    texts = [m["text"] for m in _messages(log)]
    assert len(texts) == 1 and texts[0].startswith("1 of the 2 " + blank.MARK)


def test_the_count_helper_keeps_first_occurrence_order():
    counts = {}
    metrics._count_loop(counts, ["b", "a", "b"])
    assert counts == metrics._count(["b", "a", "b"]) and list(metrics._count(["b", "a", "b"])) == ["b", "a"]
    assert json.dumps(metrics.tag_counts(["A", "B"], ["A", "A"])) == '[{"A": 1}, {"A": 1, "B": 1}, {"A": 2}]'


def test_a_remembered_guess_is_the_guess_of_its_own_inventory():
    for labels in (("Noun", "NOUN", "VERB"), ("NOUN", "Noun", "VERB")):   # the same set, another order
        known = (tuple(labels), ())
        assert inventory._suggested("noun", labels, {}, known) == inventory.suggest("noun", labels, {})
    assert inventory._suggested("ZZZ", ("CCONJ",), {"ZZZ": "CCONJ"}, (("CCONJ",), (("ZZZ", "CCONJ"),))) == "CCONJ"
    assert inventory._suggested("ZZZ", ("CCONJ",), {}, (("CCONJ",), ())) == ""


@pytest.mark.parametrize("first", [(), ("golds",), ("golds", "flat_forms"), ("flat_forms",), ("gold_counts",)])
def test_the_reference_splits_the_same_whatever_was_read_first(first):
    ref_value, _ = _files(SENTENCES)
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    for name in first:
        getattr(ref, name)()
    eager = [([tok[0] for tok in sent], [tok[1] for tok in sent]) for sent in ref_value]
    assert list(ref) == eager and ref.golds() == [golds for _, golds in eager]
    assert ref.flat_forms() == [form for forms, _ in eager for form in forms]
    assert ref.distinct_golds() == set(gold for _, golds in eager for gold in golds)


def test_a_kind_that_reads_the_sentences_has_its_reference_split_at_once():
    class Eager(kinds.CandidatesKind):   # (both pair kinds of the kit read only the golds: lazy)
        lazy_reference = False
    assert kinds.KINDS["candidates"].lazy_reference and KIND.lazy_reference
    ref = Eager().parse_reference([[["a", "x"], ["b", "y"]]], "reference", TASK)
    assert "sentences" in ref._known and list(ref) == [(["a", "b"], ["x", "y"])]
    assert ref.flat_golds() == ["x", "y"] and ref.golds() == [["x", "y"]]


def test_a_file_equal_to_a_reference_with_tags_outside_the_set_gets_the_same_warning():
    ref_value = [[["a", "NOUN"], ["b", "noun"]], [], [["c", "_"], ["d", "Verb"]]]
    ref, pred, _ = _parse(ref_value, copy.deepcopy(ref_value))
    assert isinstance(pred, kinds.Accepted) and getattr(pred, "flat", None) is None
    inv = inventory.for_file(TASK, "lat", {"pos_tagging/lat": {"labels": ["NOUN", "VERB"]}})
    fast = _checked(ref, pred, inv)
    assert fast == _checked([(list(f), list(g)) for f, g in ref], [list(t) for t in pred], inv)
    assert len(fast) == 1 and "outside the task's tag set" in fast[0]["text"] and "sentence 1, token 2" in fast[0]["where"]


# -- TaggingKind._fast_parse_pairs: PairKind._fast_parse's checks with the forms compared as they stream ------------

FORMS = st.sampled_from(["w0", "w1", "W0", "", 0, None, ["w0"]])
TOKENS = st.one_of(st.tuples(FORMS, st.one_of(LABELS, st.none(), st.integers(0, 2))).map(list),
                   st.lists(LABELS, max_size=3), LABELS, st.none())


def _accepted_as(parsed):
    """What a fast parse says, comparable: None, or the values per sentence with the flat list, distinct and counts."""
    if parsed is None:
        return None
    return (list(parsed), parsed.flat, parsed.distinct, dict(parsed.counts))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["w0", "w1"]), LABELS).map(list), max_size=4), max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), TOKENS), max_size=3), st.booleans())
def test_the_streamed_form_comparison_accepts_what_the_pair_parse_accepts(ref_value, changes, drop):
    pred_value = copy.deepcopy(ref_value)
    for si, ti, token in changes:   # a token replaced (another form, tag or shape), or a sentence cut short
        if si < len(pred_value) and ti < len(pred_value[si]):
            pred_value[si][ti] = token
    if drop and pred_value and pred_value[-1]:
        pred_value[-1].pop()
    streamed = KIND.parse_reference(copy.deepcopy(ref_value), "reference", TASK)
    plain = KIND.parse_reference(copy.deepcopy(ref_value), "reference", TASK)
    got = _accepted_as(KIND._fast_parse_pairs(copy.deepcopy(pred_value), streamed, TASK))
    assert got == _accepted_as(kinds.PairKind._fast_parse(KIND, copy.deepcopy(pred_value), plain, TASK))
    if got is not None:   # the reference's gold counts are made with an accepted file, and are its gold counts
        assert streamed._known["gold_counts"] == plain.gold_counts()


def test_a_file_whose_forms_differ_only_at_the_end_is_not_accepted_as_it_is():
    ref_value = [[["a", "NOUN"], ["b", "VERB"]], [["c", "DET"]]]
    pred_value = [[["a", "NOUN"], ["b", "NOUN"]], [["C", "DET"]]]
    ref = KIND.parse_reference(ref_value, "reference", TASK)
    assert KIND._fast_parse_pairs(pred_value, ref, TASK) is None and "flat_forms" not in ref._known
    pred_value[1][0][0] = "c"
    assert list(KIND._fast_parse_pairs(pred_value, ref, TASK)) == [["NOUN", "NOUN"], ["DET"]]
