"""The whole-file paths of ranked candidates against their specification.

``kinds.topk_entry`` scores a file in whole-file C-level passes (``kinds._topk_whole_file``); the checks of
candidate strings count and locate at C level (``inventory._tally_members``, ``_tally_marked``). Each must give
exactly what the sentence-by-sentence path gives: ``metrics.topk_accuracies`` per sentence (the metric's pure
function), ``inventory._tally_items``' walk. Hand-made sentences cover the corners: empty candidate lists, fewer
than three candidates, more than three (cut by the parse), duplicates, NFC against NFD, candidates that are not
strings, sentences without a gap or excluded, sentences scored 0 for their format.
"""
import json
import random
import unicodedata

import pytest

import st2024
from evalkit import inventory, kinds, metrics
from evalkit.messages import MessageLog

NFD_E = unicodedata.normalize("NFD", "\u00e9")


def spec(ref_golds, pred):
    """``(acc1, acc3, hits1, hits3, items, zeroed)`` sentence by sentence with ``metrics.topk_accuracies`` (every
    string of these cases compared as it is; a sentence predicted None scores 0)."""
    scored = [(gold, cands) for gold, cands in zip(ref_golds, pred) if gold]
    results = [(0.0, 0.0, 0, 0) if cands is None else metrics.topk_accuracies(gold, cands) for gold, cands in scored]
    return ([r[0] for r in results], [r[1] for r in results], sum(r[2] for r in results),
            sum(r[3] for r in results), sum(len(gold) for gold, _ in scored),
            sum(cands is None for _, cands in scored))


def assert_same_entry(entry, other):
    assert entry.per_sentence == other.per_sentence
    assert [repr(x) for x in entry.per_sentence["acc1"]] == [repr(x) for x in other.per_sentence["acc1"]]
    assert entry.components == other.components and entry.micro == other.micro
    assert (entry.sentences, entry.scored_sentences, entry.items, entry.zeroed_sentences) == \
        (other.sentences, other.scored_sentences, other.items, other.zeroed_sentences)


def sentence_path(ref_golds, pred):
    """``topk_entry`` as it was before its whole-file path: the sentence-by-sentence path, NFC pass included."""
    misses = []
    entry = kinds._topk_entry(ref_golds, pred, len(ref_golds), misses)
    if misses and not kinds._all_nfc(misses):
        entry = kinds._topk_entry(ref_golds, pred, len(ref_golds), None)
    return entry


CASES = [
    # every item right at rank 1
    ([["a", "b"], ["c"]], [[("a", "x", "y"), ("b",)], [("c", "c")]]),
    # empty candidate lists, fewer than three, duplicates, a hit at rank 2 and 3
    ([["a", "b", "c"], ["d"]], [[(), ("x", "b"), ("x", "x", "c")], [("d", "d", "d")]]),
    ([["a"], ["b", "c"]], [[[]], [["b"], []]]),
    # sentences without a gap, excluded (None), scored 0 for their format (None prediction)
    ([[], None, ["a", "b"], ["c"], None], [[], None, None, [("c",)], None]),
    ([["a"], ["b"], ["c"]], [None, [("x", "b")], None]),
    # candidates that are not strings (the parse puts None in their place), a None gold (gold-less reference)
    ([["a", "b"], [None]], [[(None, "a"), ("b", None)], [(None,)]]),
    # lists and tuples mixed, a miss everywhere
    ([["q", "r", "s"]], [[["x", "y", "z"], ("y",), ["q", "r", "s"]]]),
    # misses, none of them rescued at rank 2 or 3 (acc@3 is acc@1), and the same with one rescued
    ([["a", "b"], ["c"], ["d"]], [[("x", "y"), ("b",)], [("z", "q")], [("d",)]]),
    ([["a", "b"], ["c"], ["d"]], [[("x", "y"), ("b",)], [("z", "c")], [("d",)]]),
    # no sentence scored at all
    ([[], None], [[], None]),
    ([], []),
]


@pytest.mark.parametrize("golds,pred", CASES)
def test_whole_file_path_equals_the_metric_sentence_by_sentence(golds, pred):
    fast = kinds._topk_whole_file(golds, pred, len(golds))
    assert fast is not None   # every string here is in NFC: the whole-file passes decide
    acc1, acc3, hits1, hits3, items, zeroed = spec(golds, pred)
    assert fast.per_sentence == {"acc1": acc1, "acc3": acc3}
    assert fast.components == {"acc1": metrics.mean(acc1), "acc3": metrics.mean(acc3)}
    assert fast.micro == {"acc1": metrics.mean([hits1], items), "acc3": metrics.mean([hits3], items)}
    assert (fast.items, fast.zeroed_sentences, fast.scored_sentences) == (items, zeroed, len(acc1))
    assert_same_entry(kinds.topk_entry(golds, pred, len(golds)), sentence_path(golds, pred))


def test_strings_outside_nfc_are_left_to_the_sentence_path():
    golds = [["\u00e9", "b"], ["c"]]
    pred = [[(NFD_E, "x"), ("b",)], [("y", "c")]]
    assert kinds._topk_whole_file(golds, pred, 2) is None
    entry = kinds.topk_entry(golds, pred, 2)
    assert entry.per_sentence == {"acc1": [1.0, 0.0], "acc3": [1.0, 1.0]}   # compared in NFC
    assert_same_entry(entry, sentence_path(golds, pred))
    # an NFD candidate among items right at rank 1 is never looked at: the whole-file passes decide
    assert kinds._topk_whole_file([["a"]], [[("a", NFD_E)]], 1) is not None


def test_shapes_the_whole_file_path_does_not_take():
    assert kinds._topk_whole_file([["a"]], [[("a",)], [("b",)]], 1) is None   # sentence counts differ
    assert kinds._topk_whole_file([["a", "b"]], [[("a",)]], 1) is None   # lengths differ
    with pytest.raises(ValueError):
        kinds.topk_entry([["a", "b"]], [[("a",)]], 1)   # the sentence path's error, as before
    assert kinds._topk_whole_file([["a"]], [["abc"]], 1) is None   # an item that is not a candidate sequence


def random_case(rng):
    alphabet = ["a", "b", "c", "\u00e9", "d"]
    golds, pred = [], []
    for _ in range(rng.randrange(0, 12)):
        kind = rng.random()
        if kind < 0.08:
            golds.append(None)
            pred.append(None)
            continue
        n = rng.randrange(0, 6)
        gold = [rng.choice(alphabet) for _ in range(n)]
        golds.append(gold)
        if n and rng.random() < 0.1:
            pred.append(None)
            continue
        pred.append([tuple(rng.choice(alphabet + [None]) for _ in range(rng.randrange(0, 4))) for _ in range(n)])
    return golds, pred


def test_whole_file_path_on_random_files():
    rng = random.Random(24)
    decided = 0
    for _ in range(3000):
        golds, pred = random_case(rng)
        fast = kinds._topk_whole_file(golds, pred, len(golds))
        if fast is not None:
            decided += 1
            acc1, acc3, hits1, hits3, items, zeroed = spec(golds, pred)
            assert fast.per_sentence == {"acc1": acc1, "acc3": acc3}
            assert fast.micro == {"acc1": metrics.mean([hits1], items), "acc3": metrics.mean([hits3], items)}
        assert_same_entry(kinds.topk_entry(golds, pred, len(golds)), sentence_path(golds, pred))
    assert decided > 1000


def task_of(kind):
    return next(t for t in st2024.TASKS if t.kind == kind)


def fill_mask_files():
    """A reference and predictions that take the fast parse (Accepted) and the sentence path (a plain list)."""
    ref = [{"masked": "a[MASK] b[MASK]", "masked_tokens": ["x", "y"]},
           {"masked": "c", "masked_tokens": []},
           {"masked": "d[MASK]", "masked_tokens": None, "excluded": "no gold"},
           {"masked": "e[MASK]", "masked_tokens": ["\u00e9"]},
           {"masked": "f[MASK][MASK][MASK]", "masked_tokens": ["p", "q", "r"]}]
    flawless = [{"masked": s["masked"], "masked_tokens": c} for s, c in zip(ref, [
        [["x", "z", "x"], ["w", "y"]], [], [], [["e"]], [[], ["q"], ["s", "t", "r"]]])]
    messy = json.loads(json.dumps(flawless))
    messy[0]["masked_tokens"] = [["q", "r", "s", "x", "x"], "y"]   # five candidates (cut to three), a bare string
    messy[3]["masked_tokens"] = [[NFD_E, 5]]                          # NFD, a number
    messy[4]["masked_tokens"] = [["p"], ["q"]]                          # a wrong count: scored 0
    return ref, flawless, messy


def score_both_parses(kind_name, ref_value, flawless, messy):
    """The entry of ``messy`` after checking that each file (``flawless``: accepted as it is, ``messy``: through
    the sentence path) scores as the sentence-by-sentence path does, with and without what the parses keep."""
    kind, task = kinds.KINDS[kind_name], task_of(kind_name)
    ref = kind.parse_reference(ref_value, "ref", task)
    for value, accepted in ((flawless, True), (messy, False)):
        log = MessageLog("f.json")
        pred = kind.parse_prediction(value, ref, log, task)
        assert isinstance(pred, kinds.Accepted) is accepted
        kind.check_labels(pred, log, task, inventory.Inventory(task, "lat"))
        entry = kind.score(ref, pred, task)
        assert_same_entry(entry, sentence_path([golds for _, golds in ref], list(pred)))
        assert_same_entry(entry, kind.score(list(ref), list(pred), task))   # no gold columns, no items kept
    return entry


def test_fill_mask_kind_scores_both_parses_as_the_metric_does():
    ref, flawless, messy = fill_mask_files()
    assert isinstance(kinds.KINDS["fill_mask"].parse_reference(ref, "ref", task_of("fill_mask")), kinds.GoldColumns)
    entry = score_both_parses("fill_mask", ref, flawless, messy)
    # the messy file: NFD candidate matched in NFC, the five candidates cut to three, the wrong count scored 0
    assert entry.per_sentence == {"acc1": [0.5, 1.0, 0.0], "acc3": [0.5, 1.0, 0.0]}


def random_fill_mask(rng):
    """A random fill-mask reference (gaps, no gap, excluded sentences, lines given or not) and a flawless prediction
    for it (candidate lists of every length up to three, empty ones, hits at every rank, no hit, "masked" left out)."""
    pool = ["a", "b", "\u00e9", "cd", " ", ""]
    ref, pred = [], []
    for si in range(rng.randrange(0, 10)):
        golds = None if rng.random() < 0.1 else [rng.choice(pool[:4]) for _ in range(rng.randrange(0, 4))]
        ref.append({"masked": "line %d" % si, "masked_tokens": golds})
        cands = [[rng.choice(pool) for _ in range(rng.randrange(0, 4))] for _ in golds or ()]
        sent = {"masked_tokens": cands} if rng.random() < 0.1 else {"masked": "line %d" % si, "masked_tokens": cands}
        pred.append(sent)
    return ref, pred


def test_fill_mask_parse_and_scorer_on_random_files():
    """The reference's columns (GoldColumns, a lazy sequence of the walk's sentences), the prediction accepted
    against them (read as it is by the scorer) and the whole-file scorer give what the walk and the metric give."""
    kind, task = kinds.KINDS["fill_mask"], task_of("fill_mask")
    rng = random.Random(2024)
    taken = 0
    for _ in range(1500):
        ref_value, value = random_fill_mask(rng)
        ref = kind.parse_reference(ref_value, "ref", task)
        assert type(ref) is kinds.GoldColumns and ref.golds_checked
        walked = [(sent.get("masked"), kind._golds(sent, "ref", si)) for si, sent in enumerate(ref_value)]
        assert len(ref) == len(walked) and list(ref) == walked and ref[-1:] == walked[-1:]
        assert [ref[i] for i in range(len(ref))] == walked
        pred = kind.parse_prediction(value, ref, MessageLog("f.json"), task)
        assert isinstance(pred, kinds.Accepted) and pred.columns is ref.columns
        golds = [g for _, g in walked]
        entry = kind.score(ref, pred, task)
        assert_same_entry(entry, sentence_path(golds, list(pred)))
        assert_same_entry(entry, kind.score(walked, list(pred), task))   # no columns: the checks of shape again
        taken += entry.scored_sentences > 0
    assert taken > 500


def test_few_long_bounds_the_count_of_long_first_candidates():
    """``_few_long`` says "fewer than the share" only when fewer first candidates than that share are of several
    characters (as ``_long_first`` counts them), whether the distinct candidates are known or not."""
    rng = random.Random(5)
    pool = ["a", "", "ab", "e\u0301", "xyz", " ", "  "]
    said = 0
    for _ in range(3000):
        firsts = [rng.choice(pool) for _ in range(rng.randrange(0, 9))]
        long = sum(inventory._long_first((c,)) is not None for c in firsts)
        for distinct in (None, set(firsts)):
            if inventory._few_long(firsts, distinct, len(firsts)):
                said += 1
                assert long < inventory.UNIT_SHARE * len(firsts)
    assert said > 1000
    assert not inventory._few_long(["a", inventory.NO_CANDIDATE], None, 2)   # not strings: unsure


def test_candidates_kind_scores_both_parses_as_the_metric_does():
    ref = [[["a", "x"], ["b", "y"]], [["c", "z"]], [["d", "\u00e9"], ["e", "w"]]]
    flawless = [[["a", ["x"]], ["b", ["q", "y"]]], [["c", []]], [["d", ["e"]], ["e", ["w", "w", "w"]]]]
    messy = [[["a", "x"], ["b", ["q", "y", "r", "s"]]], [["c", [None]]], [["d", [NFD_E]], ["e", ["w", 3]]]]
    entry = score_both_parses("candidates", ref, flawless, messy)
    assert entry.per_sentence == {"acc1": [0.5, 0.0, 1.0], "acc3": [1.0, 0.0, 1.0]}


# --------------------------------------------------------------------------- the checks' C-level tallies

def tally_state(tally):
    return dict(tally.counts), list(tally.first.items()), tally.positions, tally.tokens


def test_tally_members_equals_the_walk():
    rng = random.Random(7)
    pool = ["a", " a", "b|c", "##x", "d", "", "e e"]
    for _ in range(500):
        pred = []
        for _ in range(rng.randrange(0, 8)):
            if rng.random() < 0.15:
                pred.append(None if rng.random() < 0.5 else [])
                continue
            pred.append([[rng.choice(pool) for _ in range(rng.randrange(0, 4))] for _ in range(rng.randrange(1, 5))])
        members = frozenset(rng.sample(pool, rng.randrange(0, 4)))
        fast, items = inventory._tally_members(pred, members)
        walk, walked = inventory._tally_items(pred, lambda cands: next((c for c in cands if c in members), None))
        assert (tally_state(fast), items) == (tally_state(walk), walked)
        long = frozenset(c for c in pool if inventory._long_first((c,)) is not None)
        flat = inventory.candidate_items(pred)
        firsts = inventory.first_candidates(None, flat)
        marks = bytes(map(long.__contains__, firsts))
        fast, items = inventory._tally_marked(pred, flat, marks, lambda at: [firsts[k] for k in at])
        walk, walked = inventory._tally_items(pred, inventory._long_first)
        assert (tally_state(fast), items) == (tally_state(walk), walked)


def messages_of(check, pred, *args):
    log = MessageLog("f.json")
    check(pred, log, *args)
    return [(m.severity, m.where, m.text) for m in log.close()]


def test_checks_say_what_the_walk_says(monkeypatch):
    task = task_of("fill_mask")
    char = next((t for t in st2024.TASKS if getattr(t, "gap_unit", None) == "character"), None)
    where = kinds._mask_where
    preds = [
        [[["a b c"], ["d|e|f", "g"]], None, [["h i"]]],                       # joined
        [[[" x", "y"], ["z\n"]], [["[MASK]"], ["w"]]],                       # never match
        [[["##ab", "c"], ["\u2581d"]], [["e"], ["##f"]]],                     # subword pieces
        [[["ab", "c"], ["de"]], [["fg", "h"], ["i"]], []],                    # several characters
        [[[], [""]], None, [[None]]],                                          # no candidate
    ]
    checks = [(inventory.check_joined_candidates, (3, where)), (inventory.check_unmatchable_candidates, (where, ("[MASK]",))),
              (inventory.check_subword_pieces, (where,)), (inventory.check_no_candidate, (where,))]
    if char is not None:
        checks.append((inventory.check_gap_units, (char, where)))
    said = 0
    for pred in preds:
        for check, args in checks:
            fast = messages_of(check, pred, *args)
            with monkeypatch.context() as patch:   # the walk of every item, as before the C-level passes
                patch.setattr(inventory, "_sequence_items", lambda pred: None)
                walked = messages_of(check, pred, *args)
            assert fast == walked
            said += len(fast)
    assert said >= 4
