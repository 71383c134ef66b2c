"""Entity metrics and the metric functions' docstring examples (executed)."""
import datetime
import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit.timenorm import anafora, calendar, metrics, scate, timeml, types
from evalkit.timenorm.anafora import read_anafora

E = "<entity><id>%s</id><span>%s</span><type>%s</type><properties>%s</properties></entity>"


def doc(*entities):
    return read_anafora(("<data><annotations>%s</annotations></data>" % "".join(entities)).encode(), "x.xml")


@pytest.mark.parametrize("module", [anafora, calendar, metrics, scate, timeml, types])
def test_docstring_examples(module):
    failures, attempted = doctest.testmod(module)
    assert attempted > 0 and failures == 0


def test_identification_and_composition():
    gold = doc(E % ("1", "0,3", "Month-Of-Year", "<Type>May</Type><Sub-Interval>2</Sub-Interval>"),
               E % ("2", "4,5", "Day-Of-Month", "<Value>3</Value>"),
               E % ("3", "10,14", "Year", "<Value>1998</Value>"))
    system = doc(E % ("a", "0,3", "Month-Of-Year", "<Type>May</Type><Sub-Interval>b</Sub-Interval>"),
                 E % ("b", "4,5", "Day-Of-Month", "<Value>4</Value>"),     # wrong value
                 E % ("c", "10,14", "Year", "<Value>1998</Value>"),
                 E % ("d", "20,24", "Year", "<Value>1999</Value>"))       # spurious
    assert metrics.entity_counts(gold, system, "identification") == (3, 4, 3)
    # the month links to a different day, so it differs too: only the year is composed right
    assert metrics.entity_counts(gold, system, "composition") == (1, 4, 3)
    assert metrics.prf(*metrics.entity_counts(gold, system, "composition")) == (0.25, 1 / 3.0, pytest.approx(2 / 7.0))
    assert metrics.entity_counts_by_type(gold, system, "composition") == {
        "Day-Of-Month": (0, 1, 1), "Month-Of-Year": (0, 1, 1), "Year": (1, 2, 1)}
    assert metrics.entity_counts(gold, system, "identification", skip=("Year",)) == (2, 2, 2)


def test_empty_sides_score_zero():
    assert metrics.prf(0, 0, 5) == (0.0, 0.0, 0.0)
    assert metrics.interval_scores([], []) == (0.0, 0.0, 0.0)
    assert metrics.cross_scheme_scores([]) == (0.0, 0.0, 0.0)


# ------------------------------------------------------------------ the scorer's interval metric (text regions)

DAY = datetime.datetime(1998, 3, 1)


def days(numbers):
    """Disjoint one-day intervals, from DAY plus each number of days."""
    return [(DAY + datetime.timedelta(days=n), DAY + datetime.timedelta(days=n + 1)) for n in sorted(set(numbers))]


@st.composite
def one_to_one(draw):
    """(gold, system) items where every system item shares text with at most one gold item and every gold item
    with at most one system item (slots of 10 characters, 20 apart): the reference formula's usual case."""
    gold, system = [], []
    for slot in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["gold", "system", "both"]))
        base = 20 * slot
        intervals = lambda: days(draw(st.lists(st.integers(0, 40), min_size=1, max_size=3)))
        if kind in ("gold", "both"):
            gold.append(metrics.Item((base, base + 10), intervals()))
        if kind in ("system", "both"):
            start = draw(st.integers(base, base + 9))
            system.append(metrics.Item((start, draw(st.integers(start + 1, base + 10))), intervals()))
    return gold, system


@settings(max_examples=200, deadline=None)
@given(st.lists(one_to_one(), min_size=1, max_size=3))
def test_regions_are_the_reference_formula_when_items_pair_one_to_one(documents):
    region = metrics.region_interval_scores(documents)
    reference = metrics.pooled_interval_scores(documents)
    assert region == pytest.approx(reference, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(one_to_one(), st.integers(1, 50), st.integers(1, 5))
def test_copies_and_pieces_of_a_claim_never_raise_the_score(document, copies, pieces):
    """Repeating every system item, or adding pieces of its span claiming the same intervals, leaves the recall and
    never raises the precision: a region pairs at most as many items as its smaller side holds, the others are
    spurious annotations."""
    gold, system = document
    repeated = [metrics.Item(item.span, item.intervals) for item in system for _ in range(copies)]
    cut = [metrics.Item((s, s + 1), item.intervals) for item in system for s in range(item.span[0], item.span[1])
           ][:pieces * len(system)] + system
    precision, recall, f1 = metrics.region_interval_scores([(gold, system)])
    for more in (repeated, cut):
        p, r, f = metrics.region_interval_scores([(gold, more)])
        assert r == pytest.approx(recall, abs=1e-12) and p <= precision + 1e-12 and f <= f1 + 1e-12
    if system and copies > 1:
        assert metrics.region_interval_scores([(gold, repeated)])[0] == pytest.approx(precision / copies, abs=1e-12)


def test_one_claim_over_several_gold_expressions_pairs_with_one_of_them():
    """A system item sharing text with two gold items is one region that pairs one item on each side (the other
    gold item is missed); an empty span shares no text (its own region: spurious)."""
    gold = [metrics.Item((0, 5), days([0])), metrics.Item((10, 15), days([1]))]
    assert metrics.interval_sums(gold, [metrics.Item((0, 15), days([0]))]) == (1.0, 1, 0.5, 2)
    assert metrics.region_interval_scores([(gold, [metrics.Item((0, 15), days([0]))])]) == (1.0, 0.25, 0.4)
    assert metrics.interval_sums(gold, [metrics.Item((2, 2), days([0]))]) == (0.0, 1, 0.0, 2)
    assert metrics.regions([], []) == [] and metrics.interval_sums([], []) == (0.0, 0, 0.0, 0)
