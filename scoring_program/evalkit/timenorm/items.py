"""From read documents to scorable :class:`.metrics.Item`s: SCATE graphs and TimeML TIMEX3s.

Two selections of SCATE items follow the two reference programs: :func:`scate_items` (``TimeNormScorer``: top
entities whose intervals could be computed; a sequence of intervals counts even when "this" found several) and
:func:`scate_cross_items` (``TimeMLScorer``: only defined expressions, each with the span expanded over its linked
entities). :func:`timeml_items` reads TIMEX3 entities of an Anafora TimeML file.
"""
from .metrics import Item
from .scate import interpret_document
from .timeml import timex3_interval


def _pairs(intervals):
    return [(i.start, i.end) for i in intervals]


def scate_items(document, dct):
    """Items for the interval metric: (items, timexes) where timexes are all interpreted top entities."""
    timexes = interpret_document(document, dct)
    items = [Item(t.span, _pairs(t.intervals), t.entity.id) for t in timexes if t.intervals]
    return items, timexes


def scate_cross_items(document, dct):
    """Items for the cross-scheme comparison: defined expressions only, spans expanded over linked entities,
    sorted by span."""
    timexes = [t for t in interpret_document(document, dct) if t.intervals and t.defined]
    items = [Item(document.expanded_span(t.entity), _pairs(t.intervals), t.entity.id) for t in timexes]
    return sorted(items, key=lambda item: item.span)


def timeml_items(document):
    """Items for every TIMEX3 whose value names an interval (no ``mod``, not a duration, no unknown digits)."""
    items = []
    for entity in document.entities:
        if entity.type != "TIMEX3":
            continue
        values, mods = entity.values("value"), entity.values("mod")
        interval = timex3_interval(values[0] if values else "", mods[0] if mods else None)
        if interval is not None:
            items.append(Item(entity.full_span, [(interval.start, interval.end)], entity.id))
    return sorted(items, key=lambda item: item.span)


def within(items, span):
    """The items whose span lies inside ``span`` (start, end)."""
    return [item for item in items if span[0] <= item.span[0] and item.span[1] <= span[1]]
