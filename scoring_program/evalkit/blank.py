"""Rows that a task declares as having no label of their own, given one (where the gold is public).

A task may declare ``blank_rows = (label, what)``: the rows whose gold is ``label`` are rows the input gives no
label of their own (``what`` says which, in the competition's words), and a prediction that gives them another
label loses them. Which rows these are is read from the gold, so the check runs only where the phase's gold is
public (the development phase; :mod:`evalkit.policy`): one warning per file, with the count, the labels given
instead, the first positions and the fix. It never changes a score.
"""
from bisect import bisect_right
from collections import Counter
from itertools import accumulate, chain, compress, repeat
from operator import contains, ne

from .messages import WARNING, quoted

#: At most this many positions are named.
MAX_POSITIONS = 3
#: The words every message of this module holds (a validator that scores the development gold apart picks them).
MARK = "rows whose gold is "


def _first(value):
    """The label a prediction gives a token: the tag itself, or the first of its candidates (None: none)."""
    if type(value) is str:
        return value
    if type(value) in (list, tuple) and value and type(value[0]) is str:
        return value[0]
    return None


def check_blank_rows(ref, pred, task, log, where):
    """One warning when tokens whose gold is the task's declared blank label (``task.blank_rows[0]``) are given
    another non-empty label (a tag, or a first candidate; an empty one is told by the other checks) in ``pred`` (per
    sentence one value per token, None for a sentence
    scored 0). ``ref``: per sentence ``(forms, golds)``. ``where(si, ti)``: a position. A file its kind accepted as
    it is, against a :class:`~evalkit.kinds.PairReference`, is read from whole-file lists (:func:`_flat_blank_rows`:
    only the blank rows are looked at); any other sentence by sentence (:func:`_walked_blank_rows`)."""
    declared = getattr(task, "blank_rows", None)
    if not declared:
        return
    blank, what = declared
    fast = _flat_blank_rows(ref, pred, blank)
    if fast is not None:
        given, positions, rows = fast
    else:
        given, positions, rows = _walked_blank_rows(ref, pred, blank)
    wrong = sum(given.values())
    if not wrong:
        return
    shown = ", ".join("%s %d time%s" % (quoted(label, 30), count,
                                       "" if count == 1 else "s") for label, count in given.most_common(3))
    log.add(WARNING, where(*positions[0]), ("%d of the %d " + MARK + "%s (%s) got another label: %s%s; first "
            "at %s. These rows have no label of their own and score only with %s: give them %s.") % (
                wrong, rows, quoted(blank, 10), what, shown, ", ..." if len(given) > 3 else "",
                "; ".join(where(si, ti) for si, ti in positions), quoted(blank, 10), quoted(blank, 10)),
            kind="rows without a label of their own")


def _walked_blank_rows(ref, pred, blank):
    """``(given, positions, rows)`` of :func:`check_blank_rows` sentence by sentence: the labels given to blank rows
    instead (a Counter, in file order), the first positions of those rows, and the count of blank rows predicted. The
    distinct golds (known once for a :class:`~evalkit.kinds.PairReference`) say whether any sentence has a blank row; a
    C-level scan per sentence finds those that do, and only a sentence whose prediction differs from its golds is
    walked."""
    golds = ref.golds() if hasattr(ref, "golds") else [gold for _, gold in ref]   # (kinds.PairReference)
    distinct = ref.distinct_golds() if hasattr(ref, "distinct_golds") else None
    given, positions, rows = Counter(), [], 0
    if blank not in (set(chain.from_iterable(golds)) if distinct is None else distinct):
        return given, positions, rows
    if len(golds) != len(pred):
        raise ValueError("cannot pair %d items with %d" % (len(golds), len(pred)))
    for si in compress(range(len(golds)), map(contains, golds, repeat(blank))):   # the sentences with blank rows
        sent_golds, got = golds[si], pred[si]
        if got is None:
            continue
        if got == sent_golds:   # every row given its gold (C-level): each blank row is given the blank label
            rows += sent_golds.count(blank)
            continue
        for ti, gold in enumerate(sent_golds):
            if gold != blank or ti >= len(got):
                continue
            rows += 1
            label = _first(got[ti])
            if label and label != blank:   # nothing given ("", no candidate) is the other checks' to say
                given[label] += 1
                if len(positions) < MAX_POSITIONS:
                    positions.append((si, ti))
    return given, positions, rows


def _flat_blank_rows(ref, pred, blank):
    """:func:`_walked_blank_rows` read from whole-file lists, or None when they are not at hand: ``ref`` a
    :class:`~evalkit.kinds.PairReference` (its golds end to end) and ``pred`` a file its kind accepted as it is,
    every sentence predicted (``kinds.Accepted``: its values end to end in ``flat``, as many as the golds). The blank
    rows are found by C-level ``list.index`` scans of the golds (one pass over them in all), their labels read at
    C level (the first candidates, ``firsts``, when the file has them), and only when some differs from the blank
    label are they looked at one by one; the positions named are found from the sentence lengths for the first few
    alone."""
    flat = getattr(pred, "flat", None)
    flat_golds = getattr(ref, "flat_golds", None)
    if flat is None or flat_golds is None or len(pred) != len(ref) or None in pred:
        return None
    golds = flat_golds()
    if len(golds) != len(flat):
        return None
    at, index, i = [], golds.index, -1
    try:
        while True:   # each blank row, in file order: one scan of the golds in all
            i = index(blank, i + 1)
            at.append(i)
    except ValueError:   # no blank row after the last one found
        pass
    given, positions, rows = Counter(), [], len(at)
    if not rows:
        return given, positions, rows
    firsts = getattr(pred, "firsts", None)   # (each item's first candidate, kinds.Accepted)
    got = list(map((flat if firsts is None else firsts).__getitem__, at))
    for k in compress(range(rows), map(ne, got, repeat(blank))):   # the rows given another label (C-level)
        value = got[k]
        label = _first(value) if firsts is None else value if type(value) is str else None
        if label and label != blank:   # nothing given ("", no candidate) is the other checks' to say
            given[label] += 1
            if len(positions) < MAX_POSITIONS:
                positions.append(at[k])
    if positions:
        ends = list(accumulate(map(len, pred)))
        positions = [_position(ends, at) for at in positions]
    return given, positions, rows


def _position(ends, at):
    """``(sentence, token)`` of item ``at`` of a file whose sentences end at ``ends`` (accumulated lengths)."""
    si = bisect_right(ends, at)
    return si, at - (ends[si - 1] if si else 0)


def gold_messages(report):
    """The messages of this module in ``report`` (a report scored on a gold-public reference), for a validator
    that checks a submission on a gold-less reference and scores it on the development gold apart."""
    return [message for message in report.get("messages", []) if MARK in message.get("text", "")]
