"""Whole-file fast paths of the morphology kind (:class:`evalkit.kinds.MorphKind`).

A morphology file holds about five values per token and ten tokens per sentence: a Python-level step per value
costs more than decoding the JSON, and so does a pass over the tokens that another pass already made (the token
objects lie far apart in memory). These functions read a file in C-level passes over flat lists (``map``,
``compress``, ``Counter``, list comparisons) and walk in Python only the sentences that differ from their gold,
once, for everything the checks and the score need:

- :func:`parse_reference` gives the parsed sentences the kind's per-sentence path gives (per sentence ``(forms,
  token objects)``) as a :class:`Reference` that also keeps every token in file order and the sentence lengths;
- :func:`reference_features` counts the reference's (feature, value) pairs once (cached in the :class:`Reference`):
  the per-feature totals of the detail table, and the gold's share of the pairs that
  :func:`evalkit.inventory.check_features` classifies;
- :func:`parse_prediction` accepts a flawless prediction as a :class:`Prediction`: one C-level comparison of each
  sentence with its gold (``!=``, the kind's own comparison: an equal sentence scores 1 and holds exactly the gold's
  features), then :func:`token_marks` walks the tokens of the other sentences, checking each token that differs
  from its gold (an object with the reference's form) and scoring it as :func:`evalkit.metrics.morph_marks` and
  :func:`evalkit.metrics.morph_score_from_marks` do (a test compares them on varied tokens);
- :func:`sentence_scores` adds each sentence's token scores in token order from 0.0 and divides by its length, as
  the kind's loop does, so every number is the same to the last bit.

A file that does not fit (a sentence that is not a list, a token that is not an object, another form, a gold token
without a form under the first form key) goes through the kind's per-sentence path, which says what is wrong where.
"""
from bisect import bisect_right
from collections import Counter
from functools import reduce
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, is_not, itemgetter, ne, not_, truediv

_ONLY_LIST = frozenset((list,))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
#: The predicted value of a gold feature the token lacks.
MISSING = object()


class Reference(list):
    """A parsed morphology reference (per sentence ``(forms, token objects)``) whose every token holds its form
    under the first form key (``form_key``), with ``tokens`` (every token object, in file order) and ``lens``
    (tokens per sentence). ``features`` caches :func:`reference_features` per set of ignored keys."""

    def __init__(self, sentences, tokens, lens, form_key):
        list.__init__(self, sentences)
        self.tokens, self.lens, self.form_key = tokens, lens, form_key
        self.features = {}


class Marks(object):
    """What :func:`token_marks` finds over a list of (gold, predicted) token pairs, in file order: ``scores`` (each
    token's score, 1.0 for a token equal to its gold); per gold feature not hit, its token's index
    (``missed_at``), name (``missed``), gold value (``missed_values``) and predicted value (``missed_got``,
    :data:`MISSING` when absent); per predicted feature the gold lacks, its token's index (``extra_at``), name
    (``extra``) and value (``extra_values``)."""

    def __init__(self):
        self.scores = []
        self.missed_at, self.missed, self.missed_values, self.missed_got = [], [], [], []
        self.extra_at, self.extra, self.extra_values = [], [], []
        self._pairs = self._distinct = None

    def pairs(self):
        """``(pairs, at)``: the predicted (name, value) pairs that are not the gold's (a wrong value, an extra
        feature), and the index of the token of each; made once (:meth:`distinct_pairs` and
        :func:`candidates` share them)."""
        if self._pairs is None:
            present = list(map(is_not, self.missed_got, repeat(MISSING)))
            if False in present:
                pairs = list(compress(_paired(self.missed, self.missed_got), present))
                at = list(compress(self.missed_at, present))
            else:   # every gold feature missed has a predicted value (C-level: no compress)
                pairs, at = list(_paired(self.missed, self.missed_got)), list(self.missed_at)
            pairs.extend(_paired(self.extra, self.extra_values))
            at.extend(self.extra_at)
            self._pairs = pairs, at
        return self._pairs

    def distinct_pairs(self):
        """The set of :meth:`pairs`, in C-level passes (TypeError when a value is unhashable); made once."""
        if self._distinct is None:
            self._distinct = set(self.pairs()[0])
        return self._distinct


class Prediction(list):
    """A parsed morphology prediction accepted as it is (per sentence ``(forms, token objects)``, the reference's
    forms) with ``reference`` (the parsed reference it was checked against), ``differ`` (per sentence, whether its
    tokens were compared one by one: every sentence that differs from its gold, see :data:`SAMPLE`), ``ignored`` (the keys that are not features) and ``marks`` (the :class:`Marks` of the
    tokens of the differing sentences, in file order)."""

    def __init__(self, sentences, reference, differ, ignored, marks):
        list.__init__(self, sentences)
        self.reference, self.differ, self.ignored, self.marks = reference, differ, ignored, marks

    def position(self, index):
        """``(si, ti)`` of token ``index`` of :attr:`marks` (counted over the differing sentences)."""
        if not hasattr(self, "_starts"):
            self._sentences = list(compress(range(len(self.differ)), self.differ))
            self._starts = [0]
            self._starts.extend(accumulate(map(len, map(_SECOND, compress(self, self.differ)))))
        at = bisect_right(self._starts, index) - 1
        return self._sentences[at], index - self._starts[at]


def _paired(first, second):
    """The pairs of two lists of the same length (a mismatch is a bug: ValueError, never a silent cut)."""
    if len(first) != len(second):
        raise ValueError("cannot pair %d items with %d" % (len(first), len(second)))
    return zip(first, second)


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
    if not all(forms) and None in forms:   # (a truth test is cheaper than a comparison with None)
        return None
    lens = list(map(len, value))
    rest = iter(forms)
    return Reference(_paired(list(map(list, map(islice, repeat(rest), lens))), value), tokens, lens, form_key)


def _lens(ref, form_key):
    """The sentence lengths of the parsed reference ``ref`` when every gold token holds its parsed form under
    ``form_key`` (always so in a :class:`Reference`), else None."""
    if type(ref) is Reference and ref.form_key == form_key:
        return ref.lens
    golds = list(map(_SECOND, ref))
    forms = list(map(dict.get, chain.from_iterable(golds), repeat(form_key)))
    if None in forms or forms != list(chain.from_iterable(map(_FIRST, ref))):
        return None
    return list(map(len, golds))


#: The sentences compared first: when most of them differ from their gold, so will most of the file's, and the
#: sentences are not compared as wholes (each of their tokens is compared in :func:`token_marks` anyway; a
#: sentence whose tokens all equal their gold scores n x 1.0 / n = 1.0 there, exactly as a whole equal sentence).
SAMPLE = 100


def parse_prediction(value, ref, form_key, ignored):
    """The parsed prediction ``value`` (a JSON list of the reference's length) as a :class:`Prediction` when the
    whole file is flawless: every sentence a list of the reference's length, every token an object whose
    ``form_key`` holds the reference's form; else None. The files the kind's per-sentence path accepts without a
    message: a sentence equal to its gold (one C-level comparison) holds the gold's forms; the tokens of the others
    are checked, and scored, by :func:`token_marks` (keys in ``ignored`` are not features). ``differ`` is True for
    every non-empty sentence when most of the first :data:`SAMPLE` differ."""
    if set(map(type, value)) - _ONLY_LIST:
        return None
    lens = _lens(ref, form_key)
    if lens is None or list(map(len, value)) != lens:
        return None
    golds = list(map(_SECOND, ref))
    if list(map(ne, value[:SAMPLE], golds[:SAMPLE])).count(True) * 2 > SAMPLE:
        differ = list(map(bool, lens))   # most sentences differ: the tokens of each non-empty one are compared alone
    else:
        differ = list(map(ne, value, golds))
    marks = Marks()
    if True in differ:
        marks = token_marks(list(chain.from_iterable(compress(golds, differ))),
                            list(chain.from_iterable(compress(value, differ))), form_key, ignored)
        if marks is None:
            return None
    return Prediction(_paired(list(map(_FIRST, ref)), value), ref, differ, ignored, marks)


def token_marks(golds, preds, form_key, ignored):
    """The :class:`Marks` of each pair of gold and predicted token objects (equal-length lists), or None when a
    predicted token that differs from its gold is not an object whose ``form_key`` holds the gold's. A token's
    score is :func:`evalkit.metrics.morph_score_from_marks` of :func:`evalkit.metrics.morph_marks` of its
    features (the keys in ``ignored`` dropped); a token equal to its gold scores 1.0. One Python-level loop over the
    values of the differing gold tokens, and over a predicted token's keys only when it has a key its gold lacks
    (it has more keys than it shares with its gold)."""
    marks = Marks()
    add_score = marks.scores.append
    miss_at, miss_key, miss_value, miss_got = (marks.missed_at.append, marks.missed.append, marks.missed_values.append,
                                               marks.missed_got.append)
    missing = MISSING
    at = -1
    for gold, pred in _paired(golds, preds):
        at += 1
        if pred == gold:   # the gold token itself: every feature right, nothing extra
            add_score(1.0)
            continue
        if type(pred) is not dict or pred.get(form_key) != gold.get(form_key):
            return None
        get = pred.get
        # per gold key: a hit costs one lookup and one comparison; the counts follow from the gold's length
        n_ignored = n_missed = n_absent = 0   # n_absent: the gold's keys that the prediction lacks
        for key, value in gold.items():
            if key in ignored:
                n_ignored += 1
                if key not in pred:
                    n_absent += 1
                continue
            got = get(key, missing)
            if got == value:   # as metrics.morph_marks: the predicted value first
                continue
            n_missed += 1
            miss_at(at)
            miss_key(key)
            miss_value(value)
            miss_got(got)
            if got is missing:
                n_absent += 1
        n_gold = len(gold) - n_ignored
        # metrics.morph_score_from_marks, inline (a call per token costs more than the arithmetic; the int
        # division is the float one, both operands being exact doubles)
        if len(gold) - n_absent == len(pred):   # no key the gold lacks
            add_score((n_gold - n_missed) / n_gold if n_gold else 1.0)
            continue
        n_extra = 0
        for key in pred:
            if key not in gold and key not in ignored:
                n_extra += 1
                marks.extra_at.append(at)
                marks.extra.append(key)
                marks.extra_values.append(pred[key])
        add_score((n_gold - n_missed - n_extra) / (n_gold + n_extra) if n_gold else 1.0)
    return marks


def sentence_scores(lens, differ, scores):
    """Each non-empty sentence's mean token score, in C-level passes: per sentence of ``lens`` tokens that
    ``differ``s from its gold, the next of its tokens' ``scores`` added in token order from 0.0, then divided by its
    length, as the kind's loop computes it; 1.0 for a sentence equal to its gold."""
    dlens = list(compress(lens, differ))
    if len(scores) != sum(dlens):
        raise ValueError("%d token scores for %d tokens" % (len(scores), sum(dlens)))
    if not dlens:
        return [1.0] * (len(lens) - lens.count(0))
    totals = map(reduce, repeat(add), map(islice, repeat(iter(scores)), dlens), repeat(0.0))
    means = map(truediv, totals, dlens)
    return list(compress(map(next, map((repeat(1.0), means).__getitem__, differ)), lens))


def reference_features(ref, ignored):
    """``{(feature, value): tokens}`` over the gold tokens of ``ref`` (keys in ``ignored`` are not features), or
    None when a gold value is unhashable (a list, an object). One C-level count of the pairs, cached in a
    :class:`Reference`. A reference's tokens usually hold their form first: the pairs are counted from each token's
    second key on, which spares the form pairs (nearly all distinct, they cost a third of the count); it is so for
    every token exactly when no form pair is counted (every token has one), else every pair is counted."""
    cache = ref.features if type(ref) is Reference else {}
    if ignored not in cache:
        tokens = ref.tokens if type(ref) is Reference else chain.from_iterable(map(_SECOND, ref))
        try:
            counts = None
            if type(ref) is Reference and ref.form_key in ignored:
                counts = Counter(chain.from_iterable(map(islice, map(dict.items, tokens), repeat(1), repeat(None))))
                if ref.form_key in set(map(_FIRST, counts)):   # a token whose form is not its first key
                    counts = None
            if counts is None:
                counts = Counter(chain.from_iterable(map(dict.items, tokens)))
        except TypeError:   # an unhashable value
            counts = None
        cache[ignored] = None if counts is None else dict(
            compress(counts.items(), map(not_, map(ignored.__contains__, map(_FIRST, counts)))))
    return cache[ignored]


def feature_totals(ref, ignored):
    """``{feature: gold tokens that have it}`` over ``ref`` (keys in ``ignored`` are not features)."""
    pairs = reference_features(ref, ignored)
    if pairs is None:   # an unhashable gold value: count the names alone
        tokens = ref.tokens if type(ref) is Reference else chain.from_iterable(map(_SECOND, ref))
        counts = Counter(chain.from_iterable(tokens))
        return dict((key, count) for key, count in counts.items() if key not in ignored)
    totals = {}
    for (key, _), count in pairs.items():
        totals[key] = totals.get(key, 0) + count
    return totals


def missed_values(pred):
    """``(gold, got)``: values among which are every gold value and every predicted value of the features that
    ``pred`` (a :class:`Prediction`) misses, as few as already known (for a check that holds for each of them when
    it holds for each value given): the distinct values of the reference's (feature, value) pairs when
    :func:`reference_features` has counted them, the distinct predicted values of :meth:`Marks.distinct_pairs` when
    it has been made; else the marks' own lists (one value per feature missed)."""
    marks = pred.marks
    ref = pred.reference
    gold_pairs = ref.features.get(pred.ignored) if type(ref) is Reference else None
    gold = marks.missed_values if gold_pairs is None else list(map(_SECOND, gold_pairs))
    got = marks.missed_got if marks._distinct is None else list(map(_SECOND, marks._distinct))
    return gold, got


def candidates(pred):
    """A function of a set of (feature, value) pairs ``bad`` that gives ``(si, ti, token)`` for each token of
    ``pred`` that holds one among the pairs that are not the gold's (:meth:`Marks.pairs`), in file order: where
    :func:`evalkit.inventory.check_features` looks when the gold holds none."""
    def find(bad):
        pairs, at = pred.marks.pairs()
        found = []
        for index in sorted(set(compress(at, map(bad.__contains__, pairs)))):
            si, ti = pred.position(index)
            found.append((si, ti, pred[si][1][ti]))
        return found
    return find
