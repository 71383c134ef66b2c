"""Interval-based precision and recall (the SCATE paper, Section 3) and the entity metrics.

Interval metric, as ``scate/TimeNormScorer.scala``: every system annotation gets the interval precision of its
intervals against the intervals of all gold annotations whose text overlaps it (sharing at least one character);
every gold annotation gets the interval recall the same way; P and R are the means over all system / gold
annotations, F1 their harmonic mean. Lengths are whole seconds.

Division by zero: an annotation whose overlap is empty scores 0; P is 0 when there is no system annotation, R is 0
when there is no gold annotation, F1 is 0 when P + R is 0.

>>> import datetime
>>> day = lambda d: (datetime.datetime(1998, 3, d), datetime.datetime(1998, 3, d + 1))
>>> gold = [Item((0, 10), [day(1), day(2)])]       # "March 1 and 2"
>>> system = [Item((0, 7), [day(1)]), Item((8, 10), [day(5)])]
>>> interval_scores(gold, system)
(0.5, 0.5, 0.5)
"""
from .anafora import link_properties
from .calendar import epoch_seconds


class Item(object):
    """An annotation to score: its character span (start, end) and its list of (start, end) date-time intervals."""

    __slots__ = ("span", "intervals", "key")

    def __init__(self, span, intervals, key=None):
        self.span = span
        self.intervals = [tuple(i) for i in intervals]
        self.key = key

    def __repr__(self):
        return "Item(%r, %r)" % (self.span, self.intervals)


def text_overlaps(a, b):
    """Whether spans a and b share a character (touching spans do not).

    >>> text_overlaps((0, 4), (3, 8)), text_overlaps((0, 4), (4, 8))
    (True, False)
    """
    return a[0] < b[1] and b[0] < a[1]


def size(intervals):
    """Total length in seconds of (start, end) intervals (overlaps counted twice, as the reference)."""
    return sum(epoch_seconds(end) - epoch_seconds(start) for start, end in intervals)


def compact(intervals):
    """Merge overlapping or touching intervals; sorted.

    >>> compact([(3, 5), (1, 2), (2, 3), (7, 8)])
    [(1, 5), (7, 8)]
    """
    merged = []
    for start, end in sorted(intervals):
        if merged and not merged[-1][1] < start:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def intersection(intervals1, intervals2):
    """COMPACT of all pairwise intersections between two lists of intervals.

    >>> intersection([(0, 10)], [(2, 4), (3, 6), (12, 15)])
    [(2, 6)]
    """
    return compact([(max(a[0], b[0]), min(a[1], b[1])) for a in intervals1 for b in intervals2
                    if a[0] < b[1] and b[0] < a[1]])


def interval_precision(reference, intervals):
    """P_int: length of ``intervals`` in common with ``reference`` over the length of ``intervals``; 0 if none.

    With the roles swapped it is R_int. An empty intersection scores 0 (even for zero-length intervals).
    """
    common = size(intersection(reference, intervals))
    if common == 0:
        return 0.0
    return common / float(size(intervals))


def harmonic(precision, recall):
    """F1 = 2PR / (P + R), 0 when P + R is 0.

    >>> harmonic(0.5, 1.0), harmonic(0.0, 0.0)
    (0.6666666666666666, 0.0)
    """
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _mean(values):
    return sum(values) / float(len(values)) if values else 0.0


def interval_item_scores(gold, system):
    """(per-system-item precisions, per-gold-item recalls) for one document, as TimeNormScorer.intervalScores."""
    precisions = []
    for item in system:
        overlapping = [i for g in gold if text_overlaps(item.span, g.span) for i in g.intervals]
        precisions.append(interval_precision(overlapping, item.intervals))
    recalls = []
    for item in gold:
        overlapping = [i for s in system if text_overlaps(item.span, s.span) for i in s.intervals]
        recalls.append(interval_precision(overlapping, item.intervals))
    return precisions, recalls


def interval_scores(gold, system):
    """(P, R, F1) of the interval metric for one list of items (see the module doc)."""
    precisions, recalls = interval_item_scores(gold, system)
    precision, recall = _mean(precisions), _mean(recalls)
    return precision, recall, harmonic(precision, recall)


def pooled_interval_scores(documents):
    """(P, R, F1) over several documents: ``documents`` is a list of (gold items, system items); means are taken
    over all items of all documents (the reference's corpus-level figure)."""
    precisions, recalls = [], []
    for gold, system in documents:
        p, r = interval_item_scores(gold, system)
        precisions.extend(p)
        recalls.extend(r)
    precision, recall = _mean(precisions), _mean(recalls)
    return precision, recall, harmonic(precision, recall)


# ---------------------------------------------------------------- the scorer's interval metric: text regions

def shares_text(a, b):
    """Whether spans a and b share at least one character (an empty span shares none).

    >>> shares_text((0, 4), (3, 8)), shares_text((0, 4), (4, 8)), shares_text((2, 2), (0, 4))
    (True, False, False)
    """
    return a[0] < b[1] and b[0] < a[1] and a[0] < a[1] and b[0] < b[1]


def regions(gold, system):
    """The items of one document in text regions: ``[(gold items, system items), ...]`` in text order, where a
    region is a group of items connected by shared text (:func:`shares_text`, across and within sides); an item
    sharing text with no other is a region of its own. Linear after sorting."""
    tagged = sorted([(item.span, 0, n) for n, item in enumerate(gold)] +
                    [(item.span, 1, n) for n, item in enumerate(system)])
    result, current, end = [], None, None
    for span, side, n in tagged:
        item = (gold, system)[side][n]
        if span[0] >= span[1]:       # an empty span shares no text: a region of its own
            result.append(([item], []) if side == 0 else ([], [item]))
            continue
        if current is None or span[0] >= end:
            current, end = ([], []), span[1]
            result.append(current)
        current[side].append(item)
        end = max(end, span[1])
    return result


def region_scores(gold, system):
    """(P_int, R_int) of one region: the length of time the union of the system items' intervals and the union of
    the gold items' intervals have in common, over the length of each union (COMPACT, so an instant claimed twice
    counts once); 0 when nothing is in common.

    >>> import datetime
    >>> day = lambda d: (datetime.datetime(1998, 3, d), datetime.datetime(1998, 3, d + 1))
    >>> region_scores([Item((0, 9), [day(1), day(2)])], [Item((0, 3), [day(1)]), Item((2, 5), [day(1), day(9)])])
    (0.5, 0.5)
    """
    system_intervals = compact([i for item in system for i in item.intervals])
    gold_intervals = compact([i for item in gold for i in item.intervals])
    common = size(intersection(gold_intervals, system_intervals))
    if common == 0:
        return 0.0, 0.0
    return common / float(size(system_intervals)), common / float(size(gold_intervals))


def interval_sums(gold, system):
    """The interval metric's sums for one document: (precision sum, system items, recall sum, gold items).

    The items are grouped in text regions (:func:`regions`). A region of s system and g gold items pairs at most
    min(s, g) of them, as a one-to-one alignment of time expressions would (S and H are sets of annotations): it
    adds min(s, g) times its P_int to the precision sum and min(s, g) times its R_int to the recall sum
    (:func:`region_scores`); every system item counts in the precision's denominator, every gold item in the
    recall's. P = precision sum / system items and R = recall sum / gold items, pooled over documents
    (:func:`region_interval_scores`). Where each system item shares text with at most one gold item and each
    gold item with at most one system item, this is the SCATE paper's Section 3 metric exactly
    (:func:`interval_item_scores`, up to COMPACT within an item); see docs/metric_cards.md.
    """
    p_sum, r_sum = 0.0, 0.0
    for gold_items, system_items in regions(gold, system):
        paired = min(len(gold_items), len(system_items))
        if paired:
            precision, recall = region_scores(gold_items, system_items)
            p_sum += paired * precision
            r_sum += paired * recall
    return p_sum, len(system), r_sum, len(gold)


def region_interval_scores(documents):
    """(P, R, F1) of the scorer's interval metric over ``documents``, a list of (gold items, system items).

    Copies, pieces and wholes of one claim do not count twice: a region pairs at most as many items as its smaller
    side holds, so a system repeating an item, splitting a gold expression's text into several items, or covering
    several gold expressions with one item gains nothing from it (the unpaired items score 0).

    >>> import datetime
    >>> day = lambda d: (datetime.datetime(1998, 3, d), datetime.datetime(1998, 3, d + 1))
    >>> gold = [Item((0, 5), [day(1)]), Item((10, 15), [day(2)])]
    >>> region_interval_scores([(gold, [Item((0, 5), [day(1)])])])           # one right, one missed
    (1.0, 0.5, 0.6666666666666666)
    >>> p, r, f = region_interval_scores([(gold, [Item((0, 5), [day(1)])] * 100 + [Item((0, 15), [day(9)])])])
    >>> round(p, 4), r, round(f, 4)         # one region of 101 system and 2 gold items: 2 pairs at most
    (0.0099, 0.5, 0.0194)
    """
    return pooled_scores(documents, interval_sums)


def pooled_scores(documents, document_sums):
    """(P, R, F1) from the sums over ``documents`` (a list of (gold items, system items)) of ``document_sums(gold,
    system)`` = (precision sum, its denominator, recall sum, its denominator); each 0 on an empty denominator."""
    totals = [0, 0, 0, 0]
    for gold, system in documents:
        for index, value in enumerate(document_sums(gold, system)):
            totals[index] += value
    precision = totals[0] / float(totals[1]) if totals[1] else 0.0
    recall = totals[2] / float(totals[3]) if totals[3] else 0.0
    return precision, recall, harmonic(precision, recall)


def pair_scores(gold, system):
    """(precision, recall) of one system item against one gold item: common length over each one's length."""
    common = size(intersection(gold.intervals, system.intervals))
    system_size, gold_size = size(system.intervals), size(gold.intervals)
    return (common / float(system_size) if system_size else 0.0,
            common / float(gold_size) if gold_size else 0.0)


def cross_scheme_sums(gold, system):
    """The sums of ``timeml/TimeMLScorer.scala`` for one document: (sum of pair precisions, sum of best recalls,
    number of gold items, number of system items). Items pair when their spans overlap or touch (gold spans are
    expanded to their linked entities by the caller); each pair adds its precision; each gold item adds its best
    recall. See :func:`cross_scheme_scores`."""
    sum_precision = sum_recall = 0.0
    for g in gold:
        recalls = []
        for s in system:
            if g.span[0] <= s.span[1] and g.span[1] >= s.span[0]:
                precision, recall = pair_scores(g, s)
                sum_precision += precision
                recalls.append(recall)
        if recalls:
            sum_recall += max(recalls)
    return sum_precision, sum_recall, len(gold), len(system)


def cross_scheme_scores(documents):
    """(P, R, F1) comparing two schemes (the SCATE paper's Table 2): P = sum of pair precisions / system items,
    R = sum of best recalls / gold items, pooled over ``documents`` (a list of (gold items, system items)).

    >>> import datetime
    >>> d = lambda n: datetime.datetime(1998, 3, n)
    >>> gold = [Item((0, 10), [(d(1), d(3))])]
    >>> system = [Item((0, 4), [(d(1), d(2))]), Item((20, 24), [(d(9), d(10))])]
    >>> cross_scheme_scores([(gold, system)])
    (0.5, 0.5, 0.5)
    """
    def sums(gold, system):
        sum_precision, sum_recall, n_gold, n_system = cross_scheme_sums(gold, system)
        return sum_precision, n_system, sum_recall, n_gold
    return pooled_scores(documents, sums)


# ---------------------------------------------------------------- entity metrics

def prf(matched, n_system, n_gold):
    """(P, R, F1) from counts: P = matched / system, R = matched / gold, each 0 when its denominator is 0.

    >>> prf(3, 4, 6)
    (0.75, 0.5, 0.6)
    """
    precision = matched / float(n_system) if n_system else 0.0
    recall = matched / float(n_gold) if n_gold else 0.0
    return precision, recall, harmonic(precision, recall)


def identification_key(entity):
    """Span(s) and type."""
    return (tuple(entity.spans), entity.type)


def composition_key(document, entity, _seen=None):
    """Span(s), type and properties; a link property (by the SCATE schema, :func:`.anafora.link_properties`) naming
    another entity compares that entity's key, recursively (a link cycle compares the entity's span and type at the
    point it repeats); any other value compares as written."""
    seen = (_seen or frozenset()) | {entity.id}
    props = []
    names = link_properties(entity.type)
    for name in sorted(entity.properties):
        values = []
        for value in entity.properties[name]:
            linked = document.by_id.get(value) if name in names else None
            if linked is None:
                values.append(value)
            elif linked.id in seen:
                values.append(identification_key(linked))
            else:
                values.append(composition_key(document, linked, seen))
        if values:
            props.append((name, tuple(sorted(values, key=repr))))
    return identification_key(entity) + (tuple(props),)


def _keys(document, key, skip):
    """The set of ``(type, key)`` of ``document``'s entities whose type is not in ``skip``."""
    entities = [e for e in document.entities if e.type not in skip]
    if key == "identification":
        return set((e.type, identification_key(e)) for e in entities)
    return set((e.type, composition_key(document, e)) for e in entities)


def entity_counts(gold_document, system_document, key="identification", skip=()):
    """(matched, system count, gold count) of the *sets* of entity keys under ``key`` ("identification": span +
    type; "composition": span + type + properties and linked entities, recursively); types in ``skip`` are left
    out. As SemEval 2018 Task 6 defines them: S and H are sets, matched = |S & H|, so an entity repeated with the
    same key counts once on its side (a system gains nothing by repeating one).

    >>> from .anafora import read_anafora
    >>> def doc(*spans):
    ...     entities = "".join("<entity><id>%d</id><span>%s</span><type>Year</type></entity>" % (i, span)
    ...                        for i, span in enumerate(spans))
    ...     return read_anafora(("<data><annotations>%s</annotations></data>" % entities).encode(), "x.xml")
    >>> entity_counts(doc("0,4", "9,13"), doc("0,4", "0,4", "0,4", "20,24"))
    (1, 2, 2)
    """
    gold, system = _keys(gold_document, key, skip), _keys(system_document, key, skip)
    return len(gold & system), len(system), len(gold)


def entity_counts_by_type(gold_document, system_document, key="identification", skip=()):
    """{entity type: (matched, system count, gold count)} under ``key`` (sets, as :func:`entity_counts`), for the
    types on either side."""
    gold, system = _keys(gold_document, key, skip), _keys(system_document, key, skip)
    result = {}
    for entity_type in sorted(set(t for t, _ in gold) | set(t for t, _ in system)):
        gold_keys = set(k for t, k in gold if t == entity_type)
        system_keys = set(k for t, k in system if t == entity_type)
        result[entity_type] = (len(gold_keys & system_keys), len(system_keys), len(gold_keys))
    return result
