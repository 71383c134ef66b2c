"""Metrics as small pure functions over already-parsed sentences.

Each function scores ONE sentence (or one token) exactly as the 2024 official program did for
well-formed input; the callers average the sentence scores. Every docstring states the rule for
empty input and division by zero, and carries a worked example that the test suite executes
(``python -m doctest``).
"""
from collections import Counter

_MISSING = object()


def _count_loop(counts, labels):
    """Add the occurrences of ``labels`` to the dict ``counts``."""
    get = counts.get
    for label in labels:
        counts[label] = get(label, 0) + 1


try:
    from collections import _count_elements as count_into   # the same loop in C (private, stable since 3.2)
except ImportError:   # pragma: no cover
    count_into = _count_loop


def _count(labels):
    """``{label: occurrences}`` of a sequence, labels in the order of their first occurrence (cheaper than a
    Counter for one sentence).

    >>> _count(["b", "a", "b"])
    {'b': 2, 'a': 1}
    """
    counts = {}
    count_into(counts, labels)
    return counts


def tag_counts(gold, pred):
    """Return ``(hits, gold_counts, pred_counts)``: dicts label -> count for one sentence.

    ``hits`` counts, per label, the positions where ``pred`` equals ``gold`` (true positives).
    Raises ValueError when the two sequences differ in length (callers check that first).

    >>> hits, g, p = tag_counts(["NOUN", "VERB"], ["NOUN", "NOUN"])
    >>> hits, g, p
    ({'NOUN': 1}, {'NOUN': 1, 'VERB': 1}, {'NOUN': 2})
    """
    if len(gold) != len(pred):
        raise ValueError("gold has %d labels, prediction %d" % (len(gold), len(pred)))
    return _count([g for g, p in zip(gold, pred) if g == p]), _count(gold), _count(pred)


def accuracy_macro_f1(n, hits, gold_counts, pred_counts):
    """Return ``(accuracy, macro_f1)`` of one sentence of ``n`` labels from its :func:`tag_counts`.

    accuracy = sum(hits) / n. macro-F1 = mean, over every label occurring in the gold or the
    prediction, of F1 = 2TP / (2TP + FP + FN) = 2TP / (gold count + predicted count); a label only
    predicted or only gold contributes 0, as scikit-learn's ``f1_score(average="macro")`` with its
    default zero division. ``n == 0`` (empty sentence): ``(0.0, 0.0)``; callers skip such sentences.

    >>> acc, f1 = accuracy_macro_f1(3, *tag_counts(["NOUN", "VERB", "NOUN"], ["NOUN", "NOUN", "NOUN"]))
    >>> round(acc, 4), round(f1, 4)   # NOUN: 2*2/(2+3) = 0.8, VERB: 0 -> macro-F1 0.4
    (0.6667, 0.4)
    """
    if n == 0:
        return 0.0, 0.0
    f1_sum = 0.0
    for label, tp in hits.items():
        f1_sum += 2.0 * tp / (gold_counts[label] + pred_counts[label])
    n_labels = len(gold_counts.keys() | pred_counts.keys())
    return sum(hits.values()) / float(n), f1_sum / n_labels


def tag_accuracy_f1(gold, pred):
    """Return ``(accuracy, macro_f1)`` of one sentence's tags: :func:`accuracy_macro_f1` of :func:`tag_counts`.

    >>> tag_accuracy_f1(["ADP", "NOUN"], ["ADP", "NOUN"])
    (1.0, 1.0)
    >>> tag_accuracy_f1(["PUNCT"], ["NOUN"])   # a label only gold and a label only predicted: both 0
    (0.0, 0.0)
    """
    return accuracy_macro_f1(len(gold), *tag_counts(gold, pred))


def topk_accuracies(gold, candidates, misses=None):
    """Return ``(acc1, acc3, hits1, hits3)`` of one sentence's ranked candidates.

    ``gold`` is a sequence of gold strings; ``candidates`` an equal-length sequence of candidate
    tuples, already cut to at most 3 (the caller does that; a length mismatch raises ValueError). acc@1 = share of items whose first
    candidate equals the gold; acc@3 = share whose gold is among the candidates. An empty candidate
    tuple matches nothing. Empty sentence: ``(0.0, 0.0, 0, 0)`` (callers skip such sentences).
    ``misses`` (optional list): receives the gold and then the candidates of every item missed at rank 1.

    >>> misses = []
    >>> topk_accuracies(["ego", "sum"], [("ego", "me"), ("esse", "sum", "est")], misses), misses
    ((0.5, 1.0, 1, 2), ['sum', 'esse', 'sum', 'est'])
    """
    n = len(gold)
    if len(candidates) != n:
        raise ValueError("gold has %d items, candidates %d" % (n, len(candidates)))
    if n == 0:
        return 0.0, 0.0, 0, 0
    hits1 = hits3 = 0
    for g, cands in zip(gold, candidates):
        if g in cands:
            hits3 += 1
            if cands[0] == g:
                hits1 += 1
                continue
        if misses is not None:
            misses.append(g)
            misses.extend(cands)
    return hits1 / float(n), hits3 / float(n), hits1, hits3


def morph_marks(gold_feats, pred_feats, ignored=()):
    """Return ``(hits, extra)``: the gold features predicted with exactly the same value, and the
    predicted features the gold does not have (both lists of feature names). Keys in ``ignored``
    (the form, UPOS, lemma) are never features of the prediction.

    >>> morph_marks({"Case": "Nom", "Number": "Sing"}, {"Case": "Nom", "Number": "Plur", "Tense": "Pres"})
    (['Case'], ['Tense'])
    >>> morph_marks({"Case": "Nom"}, {"Token": "rex", "UPOS": "NOUN", "Case": "Nom"}, ignored={"Token", "UPOS"})
    (['Case'], [])
    """
    get = pred_feats.get
    hits = [key for key, value in gold_feats.items() if get(key, _MISSING) == value]
    extra = [key for key in pred_feats if key not in gold_feats and key not in ignored]
    return hits, extra


def morph_score_from_marks(n_gold, n_hits, n_extra):
    """The 2024 token score from counts: 1.0 when the gold token has no features, else the mean of
    its marks (+1 per hit, 0 per gold feature missed or wrong, -1 per extra predicted feature):
    ``(hits - extra) / (gold + extra)``. It can be negative; never a division by zero.

    >>> morph_score_from_marks(0, 0, 2), morph_score_from_marks(2, 1, 1), morph_score_from_marks(1, 0, 2)
    (1.0, 0.0, -0.6666666666666666)
    """
    if not n_gold:
        return 1.0
    return (n_hits - n_extra) / float(n_gold + n_extra)


def morph_token_score(gold_feats, pred_feats):
    """Return the score of one token's features (form already checked by the caller).

    ``gold_feats`` and ``pred_feats`` are dicts feature -> value, without the form, UPOS or lemma.
    A reference token without features scores 1.0 whatever is predicted. Otherwise the token's list
    of marks gets +1 per gold feature predicted with exactly the same value, 0 per gold feature
    missing or wrong, and -1 per predicted feature the gold does not have; the score is the mean of
    that list, so it can be negative (see :func:`morph_score_from_marks`).

    >>> morph_token_score({"Case": "Nom", "Number": "Sing"}, {"Case": "Nom", "Number": "Plur", "Tense": "Pres"})
    0.0
    >>> morph_token_score({}, {"Case": "Nom"})
    1.0
    >>> morph_token_score({"Case": "Nom"}, {"Gender": "Fem", "Tense": "Pres"})
    -0.6666666666666666
    """
    hits, extra = morph_marks(gold_feats, pred_feats)
    return morph_score_from_marks(len(gold_feats), len(hits), len(extra))


def mean(values, count=None):
    """Arithmetic mean of ``values`` (``count`` overrides ``len``); 0.0 when there is nothing to average.

    >>> mean([1.0, 0.5]), mean([])
    (0.75, 0.0)
    """
    count = len(values) if count is None else count
    return (sum(values) / float(count)) if count else 0.0


# --------------------------------------------------------------------------- corpus-level label metrics
# Used by the line-aligned label files (evalkit.lines): unlike the functions above, each scores a whole
# file at once (all tokens or all posts pooled), as the benchmarks that use them define their metrics.

def accuracy(gold, pred):
    """Share of positions where ``pred`` equals ``gold`` (pooled over the whole file).

    Both are equal-length sequences of labels (ValueError otherwise). Empty input: 0.0.

    >>> accuracy(["lang1", "lang2", "other", "ne"], ["lang1", "lang1", "other", "ne"])
    0.75
    >>> accuracy([], [])
    0.0
    """
    if len(gold) != len(pred):
        raise ValueError("gold has %d labels, prediction %d" % (len(gold), len(pred)))
    return mean([1 for g, p in zip(gold, pred) if g == p], len(gold)) if gold else 0.0


def label_counts(gold, pred):
    """``{label: (tp, fp, fn)}`` over every label that occurs in ``gold`` or ``pred`` (equal lengths).

    >>> sorted(label_counts(["a", "a", "b"], ["a", "b", "b"]).items())
    [('a', (1, 0, 1)), ('b', (1, 1, 0))]
    """
    hits, gold_counts, pred_counts = tag_counts(gold, pred)
    return dict((label, (hits.get(label, 0), pred_counts.get(label, 0) - hits.get(label, 0),
                         gold_counts.get(label, 0) - hits.get(label, 0)))
                for label in set(gold_counts) | set(pred_counts))


def precision_recall_f1(tp, fp, fn):
    """``(precision, recall, f1)`` from counts; each is 0.0 when its denominator is 0.

    precision = tp / (tp + fp), recall = tp / (tp + fn), F1 = 2 P R / (P + R) (0 when P + R = 0),
    as scikit-learn with its default ``zero_division``.

    >>> precision_recall_f1(1, 1, 0)
    (0.5, 1.0, 0.6666666666666666)
    >>> precision_recall_f1(0, 0, 3)
    (0.0, 0.0, 0.0)
    """
    precision = tp / float(tp + fp) if tp + fp else 0.0
    recall = tp / float(tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def weighted_f1(gold, pred):
    """Support-weighted mean of the per-label F1 (scikit-learn's ``f1_score(average="weighted")``).

    Every label of ``gold`` weighs its number of gold occurrences; a label only predicted has weight 0
    (but its false positives lower the precision of no other label). Empty gold: 0.0.

    >>> round(weighted_f1(["a", "a", "b"], ["a", "b", "b"]), 4)   # a: F1 2/3 (w 2), b: F1 2/3 (w 1)
    0.6667
    >>> weighted_f1(["a", "b"], ["c", "c"])
    0.0
    """
    counts = label_counts(gold, pred).values()
    return weighted_f1_from_counts([(tp, tp + fp, tp + fn) for tp, fp, fn in counts], len(gold))


def _bio_split(tag):
    """``(prefix, type)`` of a BIO tag: ``"B-PER"`` -> ``("B", "PER")``, ``"O"`` -> ``("O", "")``."""
    if tag == "O" or not isinstance(tag, str) or len(tag) < 3 or tag[1] != "-" or tag[0] not in "BI":
        return "O", ""
    return tag[0], tag[2:]


def bio_spans(tags):
    """The entity spans ``(start, end, type)`` (end exclusive) of one sentence's BIO tags.

    conlleval / seqeval default semantics: a span starts at ``B-X``, or at ``I-X`` that does not
    continue a span of type X (after ``O``, at the start, or after a span of another type: an
    ``I-`` without its ``B-`` still opens a span); it ends before ``O``, ``B-`` or a tag of another
    type. Anything that is not ``B-<type>``, ``I-<type>`` or ``O`` counts as ``O``.

    >>> bio_spans(["B-PER", "I-PER", "O", "I-LOC", "B-LOC", "I-ORG"])
    [(0, 2, 'PER'), (3, 4, 'LOC'), (4, 5, 'LOC'), (5, 6, 'ORG')]
    >>> bio_spans([])
    []
    """
    spans = []
    start, current = None, None
    for i, tag in enumerate(tags):
        prefix, kind = _bio_split(tag)
        if start is not None and (prefix != "I" or kind != current):
            spans.append((start, i, current))
            start, current = None, None
        if prefix != "O" and start is None:
            start, current = i, kind
    if start is not None:
        spans.append((start, len(tags), current))
    return spans


def span_counts(gold_sentences, pred_sentences):
    """``(correct, gold_spans, predicted_spans)`` over sentences of BIO tags (equal lengths per sentence).

    A predicted span is correct when a gold span has exactly its boundaries and type.

    >>> span_counts([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    (0, 1, 1)
    """
    correct = n_gold = n_pred = 0
    if len(gold_sentences) != len(pred_sentences):
        raise ValueError("%d gold sentences, %d predicted" % (len(gold_sentences), len(pred_sentences)))
    for gold, pred in zip(gold_sentences, pred_sentences):
        if len(gold) != len(pred):
            raise ValueError("gold has %d tags, prediction %d" % (len(gold), len(pred)))
        gold_spans, pred_spans = set(bio_spans(gold)), bio_spans(pred)
        n_gold += len(gold_spans)
        n_pred += len(pred_spans)
        correct += sum(1 for span in pred_spans if span in gold_spans)
    return correct, n_gold, n_pred


def span_f1(gold_sentences, pred_sentences):
    """Micro-F1 over entity spans (conlleval / seqeval default): ``2 P R / (P + R)`` from :func:`span_counts`.

    Precision = correct / predicted spans, recall = correct / gold spans, each 0.0 when its
    denominator is 0, so no gold span (or no predicted span) gives 0.0, as seqeval does.

    >>> span_f1([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]])   # P 1, R 1/2
    0.6666666666666666
    >>> span_f1([["O", "O"]], [["O", "O"]])
    0.0
    """
    correct, n_gold, n_pred = span_counts(gold_sentences, pred_sentences)
    return f1_from_counts(correct, n_pred, n_gold)


# --------------------------------------------------------------------------- corpus-level metrics from counts
# A corpus-level metric is a function of counts summed over the sentences of a file. These functions are that
# last step. They take numbers or numpy arrays alike (no branch on a value: a zero denominator divides a zero
# numerator by 1), so the organisers' bootstrap recomputes a metric from resampled sums with the scorer's own
# arithmetic (evalkit.lines: each sentence's counts, then these functions on their sums).

def ratio(part, whole):
    """``part / whole`` for a count ``part`` within ``whole`` (so ``part`` is 0 when ``whole`` is): 0.0 then.

    >>> ratio(3, 4), ratio(0, 0)
    (0.75, 0.0)
    """
    return part / (whole + (whole == 0))


def f1_from_counts(correct, predicted, gold):
    """F1 = 2PR / (P + R) with P = correct / predicted, R = correct / gold (each 0 when its denominator is 0),
    as :func:`precision_recall_f1` computes it.

    >>> f1_from_counts(1, 1, 2)
    0.6666666666666666
    >>> f1_from_counts(0, 0, 3)
    0.0
    """
    precision, recall = ratio(correct, predicted), ratio(correct, gold)
    return ratio(2 * precision * recall, precision + recall)


def weighted_f1_from_counts(per_label, total):
    """Support-weighted F1 from ``(tp, predicted, gold)`` counts per label, ``total`` gold items
    (:func:`weighted_f1`): the sum of gold count x F1 over the labels, divided by ``total`` (0 when 0).

    >>> round(weighted_f1_from_counts([(1, 1, 2), (1, 2, 1)], 3), 4)
    0.6667
    """
    return ratio(sum(n_gold * f1_from_counts(tp, n_pred, n_gold) for tp, n_pred, n_gold in per_label), total)


def macro_f1_from_counts(per_label):
    """Macro-F1 from ``(tp, predicted, gold)`` counts per label: the plain mean of the per-label F1 over the labels
    that occur, in the gold or in the prediction (``predicted + gold > 0``), as scikit-learn's
    ``f1_score(average="macro")`` with its default labels (those of ``y_true`` and ``y_pred``) and zero division.
    A label that occurs nowhere does not count (it may occur in another resample of the same file); no label at all
    gives 0.0. Numbers or numpy arrays alike (see :func:`ratio`).

    >>> round(macro_f1_from_counts([(2, 3, 2), (0, 0, 1)]), 4)   # F1 0.8 and 0 (a label never predicted)
    0.4
    >>> macro_f1_from_counts([(0, 0, 0)])
    0.0
    """
    total, labels = 0.0, 0
    for tp, n_pred, n_gold in per_label:
        present = (n_pred + n_gold) > 0
        total = total + present * f1_from_counts(tp, n_pred, n_gold)
        labels = labels + present
    return ratio(total, labels)


# --------------------------------------------------------------------------- correlations over items
# A graded task scores one number per item (a word's degree of change, a pair's similarity) by its correlation with
# the gold over a whole file. A correlation is no sum over items: the organisers' bootstrap recomputes it on each
# resample of the items (a kind's ``from_items``).

def average_ranks(values):
    """The ranks (1-based) of ``values``, ties given the mean of the ranks they span (scipy's
    ``rankdata(method="average")``).

    >>> average_ranks([0.5, 0.1, 0.5, 0.9])
    [2.5, 1.0, 2.5, 4.0]
    >>> average_ranks([])
    []
    """
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        rank = (start + end) / 2.0 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = rank
        start = end + 1
    return ranks


def pearson(gold, pred):
    """Pearson's correlation coefficient of two equal-length sequences of numbers (ValueError otherwise).

    Undefined when either sequence is constant (every value equal, one value, or none): scipy returns NaN there;
    the kit scores it 0.0 (no correlation shown), and says so to the participant. A negative coefficient stays
    negative (never clipped to 0). Two passes (the means, then the centred sums), as scipy computes it.

    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4)
    0.8
    >>> pearson([1, 2, 3], [3, 2, 1]), pearson([1, 2, 3], [5, 5, 5])
    (-1.0, 0.0)
    """
    if len(gold) != len(pred):
        raise ValueError("gold has %d values, prediction %d" % (len(gold), len(pred)))
    if len(gold) < 2 or min(gold) == max(gold) or min(pred) == max(pred):
        return 0.0
    n = float(len(gold))
    mean_gold, mean_pred = sum(gold) / n, sum(pred) / n
    dg = [g - mean_gold for g in gold]
    dp = [p - mean_pred for p in pred]
    covariance = sum(a * b for a, b in zip(dg, dp))
    spread = (sum(a * a for a in dg) * sum(b * b for b in dp)) ** 0.5
    if spread == 0.0:
        return 0.0
    return max(-1.0, min(1.0, covariance / spread))


def spearman(gold, pred):
    """Spearman's rank correlation of two equal-length sequences of numbers: Pearson's coefficient of their
    :func:`average_ranks` (ties share the mean of their ranks, as scipy's ``spearmanr``). Undefined when either
    sequence is constant: 0.0, as :func:`pearson`. A negative rho stays negative.

    >>> spearman([0.1, 0.4, 0.2, 0.8], [1, 3, 2, 10])    # the same order: 1.0 whatever the spacing
    1.0
    >>> round(spearman([1, 2, 3, 4], [1, 1, 2, 2]), 4)   # ties: average ranks 1.5, 1.5, 3.5, 3.5
    0.8944
    >>> spearman([1, 2, 3], [7, 7, 7])
    0.0
    """
    if len(gold) != len(pred):
        raise ValueError("gold has %d values, prediction %d" % (len(gold), len(pred)))
    return pearson(average_ranks(gold), average_ranks(pred))
