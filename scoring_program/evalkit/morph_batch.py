"""Whole-file fast paths of the morphology kind (:class:`evalkit.kinds.MorphKind`).

A morphology file holds about five values per token and ten tokens per sentence: one Python-level step per value
costs more than decoding the JSON. These functions read a file in C-level passes over flat lists (``map``, ``zip``,
``compress``, ``Counter``, set operations) and keep Python-level loops for the tokens that differ from their gold:

- :func:`parse_reference` and :func:`parse_prediction` give the parsed sentences the kind's per-sentence path gives
  (per sentence ``(forms, token objects)``), as a :class:`Reference` and a :class:`Prediction` that also keep the
  flat views read to check them: every token in file order, each token's form, and whether each predicted token
  differs from its gold (``!=``, as the kind's own comparison of whole tokens);
- :func:`reference_features` counts the reference's distinct (feature, value) pairs once (cached in the
  :class:`Reference`): the per-feature totals of the detail table and the gold's share of the distinct pairs that
  :func:`evalkit.inventory.check_features` classifies;
- :func:`token_marks` scores the differing tokens as :func:`evalkit.metrics.morph_marks` and
  :func:`evalkit.metrics.morph_score_from_marks` do (tests compare them on varied tokens), and
  :func:`sentence_scores` adds each sentence's token scores in token order, as the kind's loop does, so every
  number is the same to the last bit.

A file that does not fit a fast path (a sentence that is not a list, a token that is not an object, a missing
form, an unhashable value) is read by the kind's per-sentence path, which reports what is wrong where.
"""
from bisect import bisect_right
from collections import Counter
from functools import reduce
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, itemgetter, ne, not_, truediv

_ONLY_LIST = frozenset((list,))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_MISSING = object()


class Reference(list):
    """A parsed morphology reference (per sentence ``(forms, token objects)``) with its flat views: ``tokens``
    (every token object, in file order), ``forms`` (each token's value under the first form key, never None) and
    ``lens`` (tokens per sentence). ``features`` caches :func:`reference_features` per set of ignored keys."""

    def __init__(self, sentences, tokens, forms, lens):
        list.__init__(self, sentences)
        self.tokens, self.forms, self.lens = tokens, forms, lens
        self.features = {}


class Prediction(list):
    """A parsed morphology prediction accepted as it is (per sentence ``(forms, token objects)``, the reference's
    forms) with ``reference`` (the parsed reference it was checked against), ``tokens`` (every token object, in file
    order) and ``differ`` (per token, whether it differs from its gold token: one that does not scores 1 and holds
    exactly the gold's features)."""

    def __init__(self, sentences, reference, tokens, differ):
        list.__init__(self, sentences)
        self.reference, self.tokens, self.differ = reference, tokens, differ


def parse_reference(value, form_key):
    """The parsed reference of ``value`` (a JSON list) as a :class:`Reference` when every sentence is a list of
    token objects that each hold a value other than null under ``form_key``, in C-level passes; else None (the
    kind's per-sentence path says what is wrong, or finds forms under the other form keys)."""
    if set(map(type, value)) - _ONLY_LIST:
        return None
    tokens = list(chain.from_iterable(value))
    try:
        forms = list(map(dict.get, tokens, repeat(form_key)))
    except TypeError:   # a token that is not an object
        return None
    if None in forms:
        return None
    lens = list(map(len, value))
    rest = iter(forms)
    sentence_forms = list(map(list, map(islice, repeat(rest), lens)))
    return Reference(_paired(sentence_forms, value), tokens, forms, lens)


def _paired(first, second):
    """The pairs of two lists of the same length (a mismatch is a bug: ValueError, never a silent cut)."""
    if len(first) != len(second):
        raise ValueError("cannot pair %d items with %d" % (len(first), len(second)))
    return zip(first, second)


def _flat(ref, form_key):
    """``(tokens, forms, lens)`` of the parsed reference ``ref`` (see :class:`Reference`), or None when some token
    has no form under ``form_key`` (or one that is not its parsed form)."""
    if type(ref) is Reference:
        return ref.tokens, ref.forms, ref.lens
    golds = list(map(_SECOND, ref))
    tokens = list(chain.from_iterable(golds))
    forms = list(map(dict.get, tokens, repeat(form_key)))
    if None in forms or forms != list(chain.from_iterable(map(_FIRST, ref))):
        return None
    return tokens, forms, list(map(len, golds))


def parse_prediction(value, ref, form_key):
    """The parsed prediction ``value`` (a JSON list of the reference's length) as a :class:`Prediction` when the
    whole file is flawless: every sentence a list of the reference's length, every token the gold token itself or
    an object whose ``form_key`` holds the reference's form; else None. The same files as the kind's per-sentence
    path accepts without a message, found by one C-level comparison of each token with its gold (``!=``: a token
    equal to its gold holds the gold's form) and the forms of the tokens that differ."""
    if set(map(type, value)) - _ONLY_LIST:
        return None
    flat = _flat(ref, form_key)
    if flat is None or list(map(len, value)) != flat[2]:
        return None
    gold_tokens, gold_forms, _ = flat
    tokens = list(chain.from_iterable(value))
    differ = list(map(ne, tokens, gold_tokens))
    if True in differ:
        try:
            forms = list(map(dict.get, compress(tokens, differ), repeat(form_key)))
        except TypeError:   # a token that is not an object
            return None
        if forms != list(compress(gold_forms, differ)):
            return None
    return Prediction(_paired(list(map(_FIRST, ref)), value), ref, tokens, differ)


def reference_features(ref, ignored):
    """``{(feature, value): tokens}`` over the gold tokens of ``ref`` (keys in ``ignored`` are not features), or
    None when a gold value is unhashable (a list, an object). One C-level count of every pair, cached in a
    :class:`Reference`."""
    cache = ref.features if type(ref) is Reference else {}
    if ignored not in cache:
        tokens = ref.tokens if type(ref) is Reference else list(chain.from_iterable(map(_SECOND, ref)))
        try:
            counts = Counter(chain.from_iterable(map(dict.items, tokens)))
        except TypeError:   # an unhashable value
            counts = None
        cache[ignored] = None if counts is None else dict(
            (pair, count) for pair, count in counts.items() if pair[0] not in ignored)
    return cache[ignored]


def feature_totals(ref, ignored):
    """``{feature: gold tokens that have it}`` over ``ref`` (keys in ``ignored`` are not features)."""
    pairs = reference_features(ref, ignored)
    if pairs is None:   # an unhashable gold value: count the names alone
        tokens = ref.tokens if type(ref) is Reference else list(chain.from_iterable(map(_SECOND, ref)))
        counts = Counter(chain.from_iterable(tokens))
        return dict((key, count) for key, count in counts.items() if key not in ignored)
    totals = {}
    for (key, _), count in pairs.items():
        totals[key] = totals.get(key, 0) + count
    return totals


def differing(pred):
    """``(indices, gold tokens, predicted tokens)`` of the tokens of ``pred`` (a :class:`Prediction`) that differ
    from their gold, in file order."""
    ref_tokens = pred.reference.tokens if type(pred.reference) is Reference else list(
        chain.from_iterable(map(_SECOND, pred.reference)))
    return (list(compress(range(len(pred.differ)), pred.differ)), list(compress(ref_tokens, pred.differ)),
            list(compress(pred.tokens, pred.differ)))


def token_marks(golds, preds, ignored):
    """``(scores, missed, extra, values)`` of each pair of gold and predicted token objects (equal-length lists):
    per pair its 2024 token score (:func:`evalkit.metrics.morph_score_from_marks` of
    :func:`evalkit.metrics.morph_marks` of its features, the keys in ``ignored`` dropped), and over all pairs the
    names of the gold features not hit, the names of the extra predicted features, and the gold and predicted
    values of every feature missed (what must be in NFC for the values to compare as they are). One Python-level
    loop over the values of the gold tokens, and over a predicted token's keys only when it has a key its gold
    lacks (one C-level comparison of the two key sets)."""
    scores, missed, extra, values = [], [], [], []
    add_score, add_missed, add_extra, add_value = scores.append, missed.append, extra.append, values.append
    missing = _MISSING
    for gold, pred in _paired(golds, preds):
        get = pred.get
        n_gold = n_hits = n_extra = 0
        for key, value in gold.items():
            if key in ignored:
                continue
            n_gold += 1
            got = get(key, missing)
            if got == value:   # as metrics.morph_marks: the predicted value first
                n_hits += 1
            else:
                add_missed(key)
                add_value(value)
                add_value("" if got is missing else got)
        if not pred.keys() <= gold.keys():
            for key in pred:
                if key not in gold and key not in ignored:
                    n_extra += 1
                    add_extra(key)
        # metrics.morph_score_from_marks, inline (a call per token costs more than the arithmetic)
        add_score((n_hits - n_extra) / float(n_gold + n_extra) if n_gold else 1.0)
    return scores, missed, extra, values


def sentence_scores(lens, differ, scores):
    """Each non-empty sentence's mean token score: per sentence of ``lens`` tokens, its tokens' scores added in
    token order from 0.0 (1.0 for a token that does not ``differ``, the next of ``scores`` for one that does), then
    divided by its length, as the kind's loop computes it, in C-level passes."""
    if len(scores) != differ.count(True):
        raise ValueError("%d token scores for %d differing tokens" % (len(scores), differ.count(True)))
    if not scores:
        return [1.0] * (len(lens) - lens.count(0))
    flat = map(next, map((repeat(1.0), iter(scores)).__getitem__, differ))
    totals = map(reduce, repeat(add), map(islice, repeat(flat), lens), repeat(0.0))
    return list(map(truediv, compress(totals, lens), filter(None, lens)))


def candidates(pred, indices, tokens):
    """A function of a set of (feature, value) pairs ``bad`` that gives ``(si, ti, token)`` for each token of
    ``tokens`` (the differing tokens of ``pred``, at the flat ``indices``) that holds one, in file order: where
    :func:`evalkit.inventory.check_features` looks for them when the gold holds none."""
    def find(bad):
        starts = [0]
        starts.extend(accumulate(map(len, map(_SECOND, pred))))
        clean = list(map(bad.isdisjoint, map(dict.items, tokens)))
        found = []
        for at, tok in compress(_paired(indices, tokens), map(not_, clean)):
            si = bisect_right(starts, at) - 1
            found.append((si, at - starts[si], tok))
        return found
    return find
