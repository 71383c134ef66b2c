"""The morphology kind's whole-file fast paths (evalkit.morph_batch) against the pure metric functions and the
kind's per-sentence path: the same token scores, sentence scores, detail tables and messages, to the last bit."""
import copy
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from evalkit import inventory, kinds, metrics, morph_batch
from evalkit.messages import MessageLog

TASK = next(task for task in st2024.TASKS if task.kind == "morph")
KIND = kinds.KINDS["morph"]
IGNORED = TASK.ignored_keys
NFD_E = unicodedata.normalize("NFD", "\u00e9")

#: Hand-made (gold, predicted) token pairs: every rule of the 2024 token score and the values that compare oddly.
TOKEN_PAIRS = [
    ({"Token": "rex", "UPOS": "NOUN", "Case": "Nom"}, {"Token": "rex", "UPOS": "NOUN", "Case": "Nom"}),   # equal
    ({"Token": "rex", "UPOS": "NOUN", "Case": "Nom"}, {"Token": "rex", "UPOS": "VERB", "Case": "Nom"}),   # ignored key
    ({"Token": "rex", "Case": "Nom", "Number": "Sing"}, {"Token": "rex", "Case": "Nom"}),   # a feature missing
    ({"Token": "rex", "Case": "Nom"}, {"Token": "rex", "Case": "Nom", "Gender": "Masc", "Tense": "Pres"}),   # extra
    ({"Token": "rex", "Case": "Nom"}, {"Token": "rex", "Case": "Acc", "Mood": "Ind"}),   # wrong and extra: negative
    ({"Token": "rex", "UPOS": "NOUN"}, {"Token": "rex", "Case": "Nom", "Lemma": "rex"}),   # empty gold: 1.0
    ({"Token": "rex"}, {"Token": "rex", "Lemma": "rex", "UPOS": "X"}),   # empty gold, only ignored extras
    ({"Token": "rex", "Person": "1"}, {"Token": "rex", "Person": 1}),   # a number never matches a string
    ({"Token": "rex", "Person": "1"}, {"Token": "rex", "Person": None}),
    ({"Token": "rex", "Person": "1"}, {"Token": "rex", "Person": float("nan")}),
    ({"Token": "rex", "Person": "1"}, {"Token": "rex", "Person": ["1"]}),   # unhashable values
    ({"Token": "rex", "Person": "1"}, {"Token": "rex", "Feats": {"Person": "1"}}),
    ({"Token": "rex", "Case": "Caf\u00e9"}, {"Token": "rex", "Case": "Cafe\u0301"}),   # NFC / NFD: as they are here
    ({"Token": "rex", "Case": "Nom", "Number": "Sing"}, {"Number": "Sing", "Case": "Nom", "Token": "rex"}),   # order
    ({"Token": "rex", "UPOS": "NOUN", "Case": "Nom"}, {"Token": "rex", "UPOS": "NOUN", "Case": "Nom", "upos": "x"}),
    ({"Token": "rex", "Case": "Nom", "Number": "Sing"}, {"Token": "rex", "Case=Nom|Number=Sing": "_"}),
]


def _pure(gold, pred):
    """The token's score, missed names and extra names by the pure functions of evalkit.metrics."""
    feats = dict((key, value) for key, value in gold.items() if key not in IGNORED)
    hits, extra = metrics.morph_marks(feats, pred, IGNORED)
    return (metrics.morph_score_from_marks(len(feats), len(hits), len(extra)),
            sorted(key for key in feats if key not in hits), sorted(extra))


@pytest.mark.parametrize("gold,pred", TOKEN_PAIRS)
def test_token_marks_score_each_token_as_the_pure_functions(gold, pred):
    marks = morph_batch.token_marks([gold], [pred], "Token", IGNORED)
    score, missed, extra = _pure(gold, pred)
    assert marks.scores == [score] and type(marks.scores[0]) is float
    assert sorted(marks.missed) == missed and sorted(marks.extra) == extra
    assert len(marks.missed_values) == len(marks.missed_got) == len(marks.missed_at) == len(missed)
    assert [value for value in marks.missed_got if value is not morph_batch.MISSING] == [
        pred[key] for key in marks.missed if key in pred]


def test_token_marks_over_many_tokens_and_a_wrong_form():
    golds, preds = [pair[0] for pair in TOKEN_PAIRS], [pair[1] for pair in TOKEN_PAIRS]
    marks = morph_batch.token_marks(golds, preds, "Token", IGNORED)
    assert marks.scores == [_pure(gold, pred)[0] for gold, pred in TOKEN_PAIRS]
    assert marks.missed_at == sorted(marks.missed_at) and marks.extra_at == sorted(marks.extra_at)
    # a token that is not an object, or whose form is not the gold's: not for the fast path
    assert morph_batch.token_marks(golds + [{"Token": "a"}], preds + [{"Token": "b"}], "Token", IGNORED) is None
    assert morph_batch.token_marks([{"Token": "a"}], [["a"]], "Token", IGNORED) is None
    assert morph_batch.token_marks([{"Token": "a"}], [{"Form": "a"}], "Token", IGNORED) is None
    with pytest.raises(ValueError):
        morph_batch.token_marks(golds, preds[:-1], "Token", IGNORED)


def test_sentence_scores_add_in_token_order_as_the_kind_loop():
    lens = [3, 0, 2, 1, 4]
    differ = [True, False, True, False, True]
    scores = [1.0, 0.1, 0.7, 0.2, 0.3, -0.5, 1.0, 0.1, 1.0 / 3]
    expected, rest = [], iter(scores)
    for n, changed in zip(lens, differ):
        if not n:
            continue
        total = 0.0
        for _ in range(n if changed else 0):
            total += next(rest)
        expected.append(total / n if changed else 1.0)
    assert morph_batch.sentence_scores(lens, differ, scores) == expected
    assert morph_batch.sentence_scores([2, 0, 1], [False, False, False], []) == [1.0, 1.0]
    with pytest.raises(ValueError):
        morph_batch.sentence_scores(lens, differ, scores[:-1])


# --------------------------------------------------------------------------- whole files: fast path vs per sentence

NAMES = ("Case", "Number", "Gender", "Mood", "Person")
VALUES = ("Nom", "Acc", "Sing", "Plur", "Masc", "Ind", "1", "Caf\u00e9", "Caf" + NFD_E)
#: Ways a predicted token may differ from its gold (each keeps the file flawless for the fast path).
MUTATIONS = ("same", "upos", "value", "drop", "extra", "lemma", "int", "null", "nan", "list", "nfd", "feats",
             "order", "underscore", "unknown", "case")


def _mutate(gold, how, draw_value):
    tok = dict(gold)
    feats = [key for key in tok if key not in IGNORED]
    if how == "upos":
        tok["UPOS"] = "X"
    elif how == "value" and feats:
        tok[feats[0]] = draw_value
    elif how == "drop" and feats:
        del tok[feats[-1]]
    elif how == "extra":
        tok["Tense"] = "Pres"
    elif how == "lemma":
        tok["Lemma"] = "x"
    elif how == "int" and feats:
        tok[feats[0]] = 3
    elif how == "null" and feats:
        tok[feats[0]] = None
    elif how == "nan" and feats:
        tok[feats[0]] = float("nan")
    elif how == "list" and feats:
        tok[feats[0]] = [tok[feats[0]]]
    elif how == "nfd" and feats:
        tok[feats[0]] = "Caf" + NFD_E
    elif how == "feats":
        tok = {"Token": tok["Token"], "feats": "|".join("%s=%s" % (key, tok[key]) for key in feats)}
    elif how == "order":
        tok = dict(reversed(list(tok.items())))
    elif how == "underscore":
        tok["Polarity"] = "_"
    elif how == "unknown":
        tok["Zzz"] = "Yes"
    elif how == "case" and feats:
        tok[feats[0]] = str(tok[feats[0]]).lower()
    return tok


@st.composite
def files(draw):
    """A reference (a JSON list of sentences of token objects) and a flawless prediction of it."""
    ref, pred = [], []
    for si in range(draw(st.integers(0, 6))):
        gold_sent, pred_sent = [], []
        for ti in range(draw(st.integers(0, 4))):
            gold = {"Token": "w%d_%d" % (si, ti)} if draw(st.booleans()) else {"UPOS": "NOUN", "Token": "w%d" % ti}
            gold.setdefault("UPOS", draw(st.sampled_from(("NOUN", "VERB"))))
            for name in draw(st.lists(st.sampled_from(NAMES), max_size=3, unique=True)):
                gold[name] = draw(st.sampled_from(VALUES))
            gold_sent.append(gold)
            pred_sent.append(_mutate(gold, draw(st.sampled_from(MUTATIONS)), draw(st.sampled_from(VALUES))))
        if draw(st.integers(0, 3)) == 0:
            pred_sent = copy.deepcopy(gold_sent)   # a sentence equal to its gold
        ref.append(gold_sent)
        pred.append(pred_sent)
    return ref, pred


def _run(ref_value, pred_value, inv, fast, sample=morph_batch.SAMPLE):
    """(entry, messages, parsed prediction type) of the morph kind on copies of the two files (``sample``: how many
    sentences the fast path compares first)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(morph_batch, "SAMPLE", sample)
        if not fast:
            patch.setattr(morph_batch, "parse_reference", lambda value, form_key: None)
            patch.setattr(morph_batch, "parse_prediction", lambda value, ref, form_key, ignored: None)
        ref = KIND.parse_reference(copy.deepcopy(ref_value), "reference", TASK)
        log = MessageLog("morph_features/xx.json")
        pred = KIND.parse_prediction(copy.deepcopy(pred_value), ref, log, TASK)
        KIND.check_labels(pred, log, TASK, inv)
        entry = KIND.score(ref, pred, TASK)
        short = KIND.score(ref, pred, TASK, details=False)
    assert short.components == entry.components and short.per_sentence == entry.per_sentence
    messages = [(m.severity, m.where, m.text) for m in log.close()]
    return entry, messages, type(pred)


@settings(max_examples=300, deadline=None)
@given(files(), st.booleans(), st.sampled_from((1, 2, morph_batch.SAMPLE)))
def test_fast_path_scores_and_warns_as_the_per_sentence_path(data, closed, sample):
    ref_value, pred_value = data
    inv = inventory.Inventory(TASK, "xx", {"features": {"Case": ["Nom", "Acc"], "Number": ["Sing"]}} if closed else
                              None)
    fast, fast_messages, kind = _run(ref_value, pred_value, inv, True, sample)
    slow, slow_messages, slow_kind = _run(ref_value, pred_value, inv, False)
    assert kind is morph_batch.Prediction and slow_kind is list
    assert fast.per_sentence == slow.per_sentence   # exact floats, in order
    assert fast.components == slow.components and fast.micro == slow.micro and fast.details == slow.details
    assert (fast.sentences, fast.scored_sentences, fast.items, fast.zeroed_sentences) == (
        slow.sentences, slow.scored_sentences, slow.items, slow.zeroed_sentences)
    assert fast_messages == slow_messages


def test_fast_path_refuses_what_the_per_sentence_path_reports():
    gold = [[{"Token": "a", "Case": "Nom"}, {"Token": "b"}]]
    ref = KIND.parse_reference(copy.deepcopy(gold), "reference", TASK)
    assert type(ref) is morph_batch.Reference and ref == [(["a", "b"], gold[0])]
    for pred in ([[{"Token": "a"}, {"Token": "c"}]], [[{"Token": "a"}, ["b"]]], [[{"Token": "a"}]],
                 [{"Token": "a"}], [[{"Form": "a"}, {"Token": "b"}]]):
        assert morph_batch.parse_prediction(pred, ref, "Token", IGNORED) is None
    accepted = morph_batch.parse_prediction([[{"Token": "a", "Case": "Acc"}, {"Token": "b"}]], ref, "Token", IGNORED)
    assert type(accepted) is morph_batch.Prediction and accepted.differ == [True]
    assert accepted.marks.scores == [0.0, 1.0] and accepted.marks.missed == ["Case"]
    # a reference token without its form under the first form key: the per-sentence path
    assert morph_batch.parse_reference([[{"Form": "a"}]], "Token") is None
    assert KIND.parse_reference([[{"Form": "a"}]], "reference", TASK) == [(["a"], [{"Form": "a"}])]


def test_gold_pairs_are_counted_whatever_the_key_order():
    gold = [[{"Token": "a", "UPOS": "X", "Case": "Nom"}, {"Case": "Nom", "Token": "b"}, {"Token": "c", "Case": "Acc"}]]
    for value in (gold, [list(reversed(gold[0]))], [[dict(reversed(list(tok.items()))) for tok in gold[0]]]):
        ref = morph_batch.parse_reference(copy.deepcopy(value), "Token")
        assert morph_batch.reference_features(ref, IGNORED) == {("Case", "Nom"): 2, ("Case", "Acc"): 1}
        assert morph_batch.feature_totals(ref, IGNORED) == {"Case": 3}
    ref = morph_batch.parse_reference([[{"Token": "a", "Case": ["Nom"]}]], "Token")
    assert morph_batch.reference_features(ref, IGNORED) is None and morph_batch.feature_totals(ref, IGNORED) == {
        "Case": 1}


def test_a_file_whose_first_sentences_differ_compares_every_token_one_by_one():
    """Most of the first sentences differ: every sentence is walked token by token, and a sentence equal to its gold
    still scores exactly 1.0 with every feature a hit."""
    gold = [[{"Token": "w%d" % si, "UPOS": "NOUN", "Case": "Nom", "Number": "Sing"}] * 2 for si in range(150)]
    pred = copy.deepcopy(gold)
    for si in range(0, 150, 3):
        pred[si][1] = dict(pred[si][1], Case="Acc")
    for si in range(1, 150, 3):
        pred[si][0] = dict(pred[si][0], UPOS="VERB")
    fast, fast_messages, kind = _run(gold, pred, inventory.Inventory(TASK, "xx"), True)
    slow, slow_messages, _ = _run(gold, pred, inventory.Inventory(TASK, "xx"), False)
    assert kind is morph_batch.Prediction and fast.per_sentence == slow.per_sentence
    assert fast.per_sentence["score"][2] == 1.0 and fast.details == slow.details and fast_messages == slow_messages
    accepted = KIND.parse_prediction(copy.deepcopy(pred), KIND.parse_reference(copy.deepcopy(gold), "r", TASK),
                                     MessageLog("x"), TASK)
    assert accepted.differ == [True] * 150


def test_missed_values_are_the_distinct_values_known_or_every_value_missed():
    """The NFC check of the values missed reads the reference's counted pairs and the inventory check's distinct
    predicted pairs once they exist (supersets of the values missed), else one value per feature missed."""
    gold = [[{"Token": "a", "Case": "Nom", "Number": "Sing"}, {"Token": "b", "Case": "Acc"}],
            [{"Token": "c", "Case": "Nom"}]]
    ref = KIND.parse_reference(copy.deepcopy(gold), "reference", TASK)
    pred = morph_batch.parse_prediction([[{"Token": "a", "Case": "Acc", "Number": "Sing"}, {"Token": "b"}],
                                         [{"Token": "c", "Case": "Acc", "Mood": "Ind"}]], ref, "Token", IGNORED)
    assert morph_batch.missed_values(pred) == (["Nom", "Acc", "Nom"], ["Acc", morph_batch.MISSING, "Acc"])
    assert sorted(pred.marks.distinct_pairs()) == [("Case", "Acc"), ("Mood", "Ind")]
    morph_batch.reference_features(ref, IGNORED)
    gold_values, got_values = morph_batch.missed_values(pred)
    assert sorted(gold_values) == ["Acc", "Nom", "Sing"] and sorted(got_values) == ["Acc", "Ind"]


def test_a_value_not_in_nfc_anywhere_in_the_reference_sends_the_file_to_the_exact_path():
    """A gold value not in NFC on a token predicted right, and a miss elsewhere: the check over the reference's
    distinct values fails, and the exact path scores the file as the per-sentence path does (the NFD gold value
    predicted in NFC is a hit there)."""
    gold = [[{"Token": "a", "Case": "Caf" + NFD_E}, {"Token": "b", "Case": "Nom", "Number": "Sing"}],
            [{"Token": "c", "Case": "Caf" + NFD_E}]]
    pred = [[{"Token": "a", "Case": "Caf" + NFD_E}, {"Token": "b", "Case": "Acc", "Number": "Sing"}],
            [{"Token": "c", "Case": "Caf\u00e9"}]]
    inv = inventory.Inventory(TASK, "xx")
    calls = []
    with pytest.MonkeyPatch.context() as patch:
        exact = KIND._score
        patch.setattr(KIND, "_score", lambda *args, **kwargs: calls.append(args[-1]) or exact(*args, **kwargs),
                      raising=False)
        fast, fast_messages, kind = _run(gold, pred, inv, True)
    slow, slow_messages, _ = _run(gold, pred, inv, False)
    assert kind is morph_batch.Prediction and calls   # the exact path ran for the accepted file
    assert fast.per_sentence == slow.per_sentence == {"score": [0.75, 1.0]}
    assert fast.details == slow.details and fast_messages == slow_messages
