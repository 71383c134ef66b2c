"""Port of the reference implementation's scate/TimeNormScorerTest.scala (clulab/timenorm) as the oracle for the
interval metric: all 6 tests, every expected value equal. Each test names the Scala test it ports."""
import datetime as dt

import pytest

from evalkit.timenorm import calendar as cal
from evalkit.timenorm import metrics as M
from evalkit.timenorm import types as T
from evalkit.timenorm.scate import parse_dct


def of(*parts):
    """The reference's SimpleInterval.of: one year, month, day, hour, minute or second."""
    units = [cal.YEARS, cal.MONTHS, cal.DAYS, cal.HOURS, cal.MINUTES, cal.SECONDS]
    padded = list(parts) + [1] * (3 - len(parts)) if len(parts) < 3 else list(parts)
    return T.unit_interval(dt.datetime(*padded), units[len(parts) - 1])


# ------------------------------------------------------------------ TimeNormScorerTest

def items_of(expression):
    if isinstance(expression, T.Intervals):
        return [(i.start, i.end) for i in expression.intervals]
    return [(expression.start, expression.end)]


def score(gold, system):
    """The reference's score(gold, system) = (precision, recall)."""
    return M.pair_scores(M.Item((0, 1), items_of(gold)), M.Item((0, 1), items_of(system)))


def assert_score(timex1, timex2, precision, recall):
    assert score(timex2, timex1) == pytest.approx((recall, precision), rel=1e-12)
    assert score(timex1, timex2) == pytest.approx((precision, recall), rel=1e-12)


def test_scorer_parse_dct():
    """TimeNormScorerTest "parseDCT"."""
    assert parse_dct("1998-05-31") == of(1998, 5, 31)
    assert parse_dct("2017-08-01T12") == of(2017, 8, 1, 12)
    assert parse_dct("2017-08-01T12:59") == of(2017, 8, 1, 12, 59)
    assert parse_dct("2017-08-01T12:59:33") == of(2017, 8, 1, 12, 59, 33)


def test_scorer_first_nine_months():
    """TimeNormScorerTest "NYT19980206.0460 (2979,3004) first nine months of 1997"."""
    months = T.RepeatingUnit(cal.MONTHS)
    gold = T.NthRIs(T.Year(1997), 1, months, 9)
    assert_score(gold, T.NthRIs(T.Year(1997), 1, months, 9), 1.0, 1.0)
    assert_score(gold, T.NthRIs(T.Year(1997), 1, months, 1), 1.0, 31.0 / 273)
    assert_score(gold, T.NthRIs(T.Year(1997), 1, months, 11), 273.0 / 334, 1.0)


def test_scorer_thursday_night():
    """TimeNormScorerTest "APW19990206.0090 (767,781) Thursday night"."""
    dct = of(1999, 2, 6, 6, 22, 26)
    thursday = T.RepeatingField(cal.DAY_OF_WEEK, 4)
    night = T.RepeatingField(cal.NIGHT_OF_DAY, 1)
    gold = T.LastRI(dct, T.IntersectionRI([thursday, night]))
    assert_score(gold, T.LastRI(dct, T.IntersectionRI([thursday, night])), 1.0, 1.0)
    assert_score(gold, T.LastRI(dct, thursday), 3.0 / 24, 3.0 / 7)


def test_scorer_nov_13():
    """TimeNormScorerTest "wsj_0124 (450,457) Nov. 13"."""
    nov = T.RepeatingField(cal.MONTH_OF_YEAR, 11)
    nov13 = T.IntersectionRI([nov, T.RepeatingField(cal.DAY_OF_MONTH, 13)])
    gold = T.LastRI(of(1989, 11, 14), nov13)
    assert_score(gold, T.LastRI(of(1989, 11, 14), nov13), 1.0, 1.0)
    assert_score(gold, T.LastRI(of(1989, 12), nov), 1.0 / 30, 1.0)


def test_scorer_interval_precision():
    """TimeNormScorerTest "intervalPrecision"."""
    year1999 = items_of(of(1999))
    feb_jul = items_of(T.NextP(of(1999, 1), T.SimplePeriod(cal.MONTHS, 6)))
    aug_feb = items_of(T.NextP(of(1999, 7), T.SimplePeriod(cal.MONTHS, 7)))
    assert M.interval_precision(year1999, feb_jul + aug_feb) == (365 - 31) / (365.0 + 29)
    assert M.interval_precision(feb_jul + aug_feb, year1999) == (365 - 31) / 365.0


def test_scorer_interval_scores():
    """TimeNormScorerTest "intervalScores"."""
    gold = [M.Item((0, 3), items_of(of(1980, 5))), M.Item((5, 10), items_of(of(1985, 2, 1))),
            M.Item((11, 12), items_of(of(1985, 2, 2)))]
    system = [M.Item((0, 1), items_of(of(1980, 5, 1))), M.Item((2, 3), items_of(of(1980, 5, 31))),
              M.Item((3, 5), items_of(of(1980, 5))), M.Item((9, 12), items_of(of(1985, 2)))]
    precisions, recalls = M.interval_item_scores(gold, system)
    assert precisions == [1.0, 1.0, 0.0, 2 / 28.0]
    assert recalls == [2 / 31.0, 1.0, 1.0]
