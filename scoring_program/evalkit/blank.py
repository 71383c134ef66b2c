"""Rows that a task declares as having no label of their own, given one (where the gold is public).

A task may declare ``blank_rows = (label, what)``: the rows whose gold is ``label`` are rows the input gives no
label of their own (``what`` says which, in the competition's words), and a prediction that gives them another
label loses them. Which rows these are is read from the gold, so the check runs only where the phase's gold is
public (the development phase; :mod:`evalkit.policy`): one warning per file, with the count, the labels given
instead, the first positions and the fix. It never changes a score.
"""
from collections import Counter
from itertools import chain, compress, repeat
from operator import contains

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
    another non-empty label (a tag, or a first candidate; an empty one is told by the other checks) in ``pred`` (per sentence one value per token, None for a sentence
    scored 0). ``ref``: per sentence ``(forms, golds)``. ``where(si, ti)``: a position. The distinct golds (known
    once for a :class:`~evalkit.kinds.PairReference`) say whether any sentence has a blank row; a C-level scan per
    sentence finds those that do, and only a sentence whose prediction differs from its golds is walked."""
    declared = getattr(task, "blank_rows", None)
    if not declared:
        return
    blank, what = declared
    golds = ref.golds() if hasattr(ref, "golds") else [gold for _, gold in ref]   # (kinds.PairReference)
    distinct = ref.distinct_golds() if hasattr(ref, "distinct_golds") else None
    if blank not in (set(chain.from_iterable(golds)) if distinct is None else distinct):
        return
    if len(golds) != len(pred):
        raise ValueError("cannot pair %d items with %d" % (len(golds), len(pred)))
    given, positions, rows = Counter(), [], 0
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


def gold_messages(report):
    """The messages of this module in ``report`` (a report scored on a gold-public reference), for a validator
    that checks a submission on a gold-less reference and scores it on the development gold apart."""
    return [message for message in report.get("messages", []) if MARK in message.get("text", "")]
