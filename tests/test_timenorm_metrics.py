"""Entity metrics and the metric functions' docstring examples (executed)."""
import doctest

import pytest

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
