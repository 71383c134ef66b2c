"""Port of the reference implementation's scate/TypesTest.scala (clulab/timenorm) as the oracle for
evalkit.timenorm.types: all 33 tests, every expected interval equal. Each test names the Scala test it ports.
Departures (documented in docs/timenorm.md): Scala's exceptions (MatchError, DateTimeException,
UnsupportedOperationException) are all TimeError here; java's ``getUnits``/``get(unit)`` are ``units()``."""
import datetime as dt
import itertools

import pytest

from evalkit.timenorm import calendar as cal
from evalkit.timenorm import types as T
from evalkit.timenorm.calendar import TimeError

EXACT = T.Modifier("Exact")
D = dt.datetime


def of(*parts):
    """The reference's SimpleInterval.of: one year, month, day, hour, minute or second."""
    units = [cal.YEARS, cal.MONTHS, cal.DAYS, cal.HOURS, cal.MINUTES, cal.SECONDS]
    padded = list(parts) + [1] * (3 - len(parts)) if len(parts) < 3 else list(parts)
    return T.unit_interval(D(*padded), units[len(parts) - 1])


def b(interval):
    return (interval.start, interval.end)


def nth(iterator, n):
    """The reference's ``drop(n - 1).next``."""
    return next(itertools.islice(iterator, n - 1, None))


def seq(intervals):
    return [b(i) for i in intervals.intervals]


INTERVAL = T.SimpleInterval(D(2002, 3, 22, 11, 30, 30), D(2003, 5, 10, 22, 10, 20))
MAY = T.RepeatingField(cal.MONTH_OF_YEAR, 5, EXACT)
DAY = T.RepeatingUnit(cal.DAYS, EXACT)


def sum_of_three():
    return T.SumP([T.SimplePeriod(cal.YEARS, 1, EXACT), T.SimplePeriod(cal.YEARS, 2, T.Modifier("Fiscal")),
                   T.SimplePeriod(cal.MONTHS, 3, T.Modifier("Approx"))], EXACT)


def test_simple_interval():
    """TypesTest "SimpleInterval"."""
    assert b(of(1985)) == (D(1985, 1, 1), D(1986, 1, 1))
    assert b(of(1985, 6)) == (D(1985, 6, 1), D(1985, 7, 1))
    assert b(of(1985, 6, 17)) == (D(1985, 6, 17), D(1985, 6, 18))
    assert b(of(1985, 6, 17, 23)) == (D(1985, 6, 17, 23), D(1985, 6, 18))
    assert b(of(1985, 6, 17, 23, 0)) == (D(1985, 6, 17, 23, 0), D(1985, 6, 17, 23, 1))


def test_year():
    """TypesTest "Year"."""
    assert b(T.Year(1985)) == (D(1985, 1, 1), D(1986, 1, 1))
    assert b(T.Year(198, 1)) == (D(1980, 1, 1), D(1990, 1, 1))
    assert b(T.Year(17, 2)) == (D(1700, 1, 1), D(1800, 1, 1))


def test_year_suffix():
    """TypesTest "YearSuffix"."""
    assert T.YearSuffix(T.Year(1903), 37, 2) == of(1937)
    assert T.YearSuffix(T.Year(2016), 418, 3) == of(2418)
    assert T.YearSuffix(T.Year(132, 1), 85, 2) == of(1385)
    assert T.YearSuffix(T.Year(23, 2), 22, 2) == of(2322)
    assert b(T.YearSuffix(T.Year(1903), 3, 1, 1)) == (D(1930, 1, 1), D(1940, 1, 1))
    assert b(T.YearSuffix(T.Year(132, 1), 8, 1, 1)) == (D(1380, 1, 1), D(1390, 1, 1))
    assert b(T.YearSuffix(T.Year(132, 1), 240, 3, 1)) == (D(2400, 1, 1), D(2410, 1, 1))


def test_simple_period():
    """TypesTest "SimplePeriod"."""
    moment = D(2000, 1, 1)
    simple = T.SimplePeriod(cal.YEARS, T.IntNumber(5))
    assert simple.add_to(moment) == D(2005, 1, 1)
    assert simple.subtract_from(moment) == D(1995, 1, 1)
    assert simple.units() == {cal.YEARS: 5}
    with pytest.raises(TimeError):
        T.SimplePeriod(cal.YEARS, T.VagueNumber("A few")).add_to(moment)


def test_sum_p():
    """TypesTest "SumP"."""
    moment = D(2000, 6, 10)
    period_sum = sum_of_three()
    assert period_sum.add_to(moment) == D(2003, 9, 10)
    assert period_sum.subtract_from(moment) == D(1997, 3, 10)
    assert period_sum.units() == {cal.YEARS: 3, cal.MONTHS: 3}
    period_sum2 = T.SumP([T.SimplePeriod(cal.DAYS, 2, T.Modifier("Mid")), period_sum], T.Modifier("Fiscal"))
    assert period_sum2.add_to(moment) == D(2003, 9, 12)
    assert period_sum2.subtract_from(moment) == D(1997, 3, 8)
    assert period_sum2.units() == {cal.YEARS: 3, cal.MONTHS: 3, cal.DAYS: 2}
    assert cal.HOURS not in period_sum2.units()


def test_last_p():
    """TypesTest "LastP"."""
    year = T.Year(2000)
    last = T.LastP(year, T.SimplePeriod(cal.YEARS, 1, EXACT))
    assert b(last) == (D(1999, 1, 1), year.start)
    assert b(T.LastP(year, sum_of_three())) == (D(1996, 10, 1), year.start)


def test_next_p():
    """TypesTest "NextP"."""
    assert T.NextP(T.Year(2000), T.SimplePeriod(cal.YEARS, 1)) == of(2001)
    assert b(T.NextP(of(2017, 8, 16), T.SimplePeriod(cal.WEEKS, 2))) == (D(2017, 8, 17), D(2017, 8, 31))
    assert b(T.NextP(T.Year(2000), sum_of_three())) == (D(2001, 1, 1), D(2004, 4, 1))


def test_before_p():
    """TypesTest "BeforeP"."""
    year = T.Year(2000)
    assert b(T.BeforeP(year, T.SimplePeriod(cal.YEARS, 1, EXACT))) == (D(1999, 1, 1), D(2000, 1, 1))
    assert b(T.BeforeP(year, sum_of_three())) == (D(1996, 10, 1), D(1997, 10, 1))
    assert b(T.BeforeP(of(2017, 7, 28), T.SimplePeriod(cal.WEEKS, 2))) == (D(2017, 7, 11), D(2017, 7, 18))


def test_after_p():
    """TypesTest "AfterP"."""
    year = T.Year(2000)
    assert b(T.AfterP(year, T.SimplePeriod(cal.YEARS, 1, EXACT))) == (D(2001, 1, 1), D(2002, 1, 1))
    assert b(T.AfterP(year, sum_of_three())) == (D(2003, 4, 1), D(2004, 4, 1))
    assert b(T.AfterP(of(2000, 1, 25), T.SimplePeriod(cal.MONTHS, 3))) == (D(2000, 4, 10), D(2000, 5, 10))


def test_this_p():
    """TypesTest "ThisP"."""
    assert b(T.ThisP(T.Year(2002), T.SimplePeriod(cal.YEARS, 1, EXACT))) == (D(2002, 1, 1), D(2003, 1, 1))
    instant = T.SimpleInterval(D(2001, 1, 1), D(2001, 1, 1))
    assert b(T.ThisP(instant, T.SimplePeriod(cal.DAYS, 5, EXACT))) == (D(2000, 12, 29, 12), D(2001, 1, 3, 12))


def test_between():
    """TypesTest "Between"."""
    assert b(T.Between(T.Year(1999), T.Year(2002))) == (D(2000, 1, 1), D(2002, 1, 1))
    assert T.Between(T.Year(2002), T.Year(1999)).defined is False


def test_nth_p():
    """TypesTest "NthP"."""
    assert T.NthP(T.Year(2001), 2, T.SimplePeriod(cal.YEARS, 1)) == of(2002)
    assert T.NthP(T.Year(2001), 2, T.SimplePeriod(cal.YEARS, 1), from_end=True) == of(2000)
    period_sum = T.SumP([T.SimplePeriod(cal.YEARS, 1), T.SimplePeriod(cal.MINUTES, 20)])
    assert b(T.NthP(T.Year(2001), 4, period_sum)) == (D(2004, 1, 1, 1, 0), D(2005, 1, 1, 1, 20))


def test_repeating_unit():
    """TypesTest "RepeatingUnit"."""
    interval = T.SimpleInterval(D(2002, 3, 22, 11, 30, 30), D(2003, 5, 11, 22, 10, 20))
    months = T.RepeatingUnit(cal.MONTHS, EXACT)
    pre = months.preceding(interval.start)
    assert [next(pre), next(pre)] == [of(2002, 2), of(2002, 1)]
    follow = months.following(interval.end)
    assert [next(follow), next(follow)] == [of(2003, 6), of(2003, 7)]
    end = T.Modifier("End")
    century, decade, weeks = (T.RepeatingUnit(u, end) for u in (cal.CENTURIES, cal.DECADES, cal.WEEKS))
    assert b(next(century.preceding(interval.start))) == (D(1900, 1, 1), D(2000, 1, 1))
    assert b(next(century.following(interval.end))) == (D(2100, 1, 1), D(2200, 1, 1))
    assert b(next(decade.preceding(interval.start))) == (D(1990, 1, 1), D(2000, 1, 1))
    assert b(next(decade.following(interval.end))) == (D(2010, 1, 1), D(2020, 1, 1))
    assert b(next(weeks.preceding(interval.start))) == (D(2002, 3, 11), D(2002, 3, 18))
    assert b(next(weeks.following(interval.end))) == (D(2003, 5, 12), D(2003, 5, 19))
    interval2 = T.SimpleInterval(D(2001, 2, 12, 3, 3), D(2001, 2, 14, 22, 0))
    assert next(DAY.preceding(interval2.start)) == of(2001, 2, 11)
    assert next(DAY.following(interval2.end)) == of(2001, 2, 15)
    interval3 = T.SimpleInterval(D(2001, 2, 12), D(2001, 2, 14))
    assert next(DAY.preceding(interval3.start)) == of(2001, 2, 11)
    assert next(DAY.following(interval3.end)) == of(2001, 2, 14)
    assert b(next(weeks.preceding(D(2013, 1, 8)))) == (D(2012, 12, 31), D(2013, 1, 7))


def test_repeating_field():
    """TypesTest "RepeatingField"."""
    pre = MAY.preceding(INTERVAL.start)
    assert [next(pre), next(pre)] == [of(2001, 5), of(2000, 5)]
    post = MAY.following(INTERVAL.end)
    assert [next(post), next(post)] == [of(2004, 5), of(2005, 5)]
    day29 = T.RepeatingField(cal.DAY_OF_MONTH, 29, EXACT)
    pre2 = day29.preceding(INTERVAL.start)
    assert [next(pre2), next(pre2)] == [of(2002, 1, 29), of(2001, 12, 29)]
    post2 = day29.following(INTERVAL.end)
    assert [next(post2), next(post2)] == [of(2003, 5, 29), of(2003, 6, 29)]
    nov = T.RepeatingField(cal.MONTH_OF_YEAR, 11)
    assert next(nov.preceding(D(1989, 11, 2))) == of(1988, 11)
    assert next(nov.following(D(1989, 11, 2))) == of(1990, 11)
    day300 = T.RepeatingField(cal.DAY_OF_MONTH, 300, T.Modifier("Approx"))
    with pytest.raises(TimeError):
        next(day300.preceding(INTERVAL.start))
    day31 = T.RepeatingField(cal.DAY_OF_MONTH, 31)
    assert next(day31.following(D(1980, 3, 1))) == of(1980, 3, 31)
    assert next(day31.following(D(2000, 2, 15))) == of(2000, 3, 31)
    assert next(day31.preceding(D(2000, 2, 15))) == of(2000, 1, 31)


def test_last_ri():
    """TypesTest "LastRI"."""
    friday = T.RepeatingField(cal.DAY_OF_WEEK, 5)
    assert T.LastRI(INTERVAL, MAY) == of(2001, 5)
    assert T.LastRI(INTERVAL, DAY) == of(2002, 3, 21)
    assert T.LastRI(of(2017, 7, 7), DAY) == of(2017, 7, 6)
    assert T.LastRI(of(2017, 7, 7), friday) == of(2017, 6, 30)
    assert T.LastRI(of(2017, 7, 8), friday) == of(2017, 7, 7)
    assert T.LastRI(of(2017, 7, 6), friday) == of(2017, 6, 30)
    assert b(T.LastRI(of(2017, 1, 9), T.RepeatingUnit(cal.WEEKS))) == (D(2017, 1, 2), D(2017, 1, 9))
    assert b(T.LastRI(INTERVAL, T.RepeatingUnit(cal.QUARTER_YEARS))) == (D(2001, 10, 1), D(2002, 1, 1))
    end = T.last_point
    assert T.LastRI(of(2017, 7, 7), DAY, end) == of(2017, 7, 7)
    assert T.LastRI(of(2017, 7, 7), friday, end) == of(2017, 7, 7)
    assert T.LastRI(of(2017, 7, 8), friday, end) == of(2017, 7, 7)
    assert T.LastRI(of(2017, 7, 6), friday, end) == of(2017, 6, 30)


def test_last_ris():
    """TypesTest "LastRIs"."""
    assert seq(T.LastRIs(INTERVAL, MAY, 3)) == [b(of(y, 5)) for y in (2001, 2000, 1999)]
    assert seq(T.LastRIs(INTERVAL, DAY, 5)) == [b(of(2002, 3, d)) for d in (21, 20, 19, 18, 17)]
    assert seq(T.LastRIs(INTERVAL, DAY, 1, T.last_point)) == [b(of(2003, 5, 9))]


def test_next_ri():
    """TypesTest "NextRI"."""
    assert T.NextRI(INTERVAL, MAY) == of(2004, 5)
    assert T.NextRI(INTERVAL, T.RepeatingUnit(cal.DAYS)) == of(2003, 5, 11)
    assert b(T.NextRI(of(2017, 1, 8), T.RepeatingUnit(cal.WEEKS))) == (D(2017, 1, 9), D(2017, 1, 16))
    assert T.NextRI(INTERVAL, MAY, T.first_point) == of(2002, 5)


def test_next_ris():
    """TypesTest "NextRIs"."""
    assert seq(T.NextRIs(INTERVAL, MAY, 3)) == [b(of(y, 5)) for y in (2004, 2005, 2006)]
    assert seq(T.NextRIs(INTERVAL, DAY, 5)) == [b(of(2003, 5, d)) for d in range(11, 16)]
    assert seq(T.NextRIs(INTERVAL, DAY, 3, T.first_point)) == [b(of(2002, 3, d)) for d in range(23, 26)]


def test_after_ri():
    """TypesTest "AfterRI"."""
    assert T.AfterRI(INTERVAL, MAY) == of(2004, 5)
    assert T.AfterRI(INTERVAL, MAY, 10) == of(2013, 5)
    assert T.AfterRI(INTERVAL, DAY) == of(2003, 5, 11)
    assert T.AfterRI(INTERVAL, DAY, 11) == of(2003, 5, 21)
    assert T.AfterRI(INTERVAL, MAY, point=T.first_point) == of(2002, 5)
    assert T.AfterRI(INTERVAL, DAY, point=T.first_point) == of(2002, 3, 23)


def test_before_ri():
    """TypesTest "BeforeRI"."""
    assert T.BeforeRI(INTERVAL, MAY) == of(2001, 5)
    assert T.BeforeRI(INTERVAL, MAY, 5) == of(1997, 5)
    assert T.BeforeRI(INTERVAL, DAY) == of(2002, 3, 21)
    assert T.BeforeRI(INTERVAL, DAY, 20) == of(2002, 3, 2)
    assert T.BeforeRI(INTERVAL, MAY, point=T.last_point) == of(2002, 5)
    assert T.BeforeRI(INTERVAL, DAY, point=T.last_point) == of(2003, 5, 9)


def test_nth_ri():
    """TypesTest "NthRI"."""
    may = T.RepeatingField(cal.MONTH_OF_YEAR, 5)
    assert T.NthRI(INTERVAL, 1, may) == of(2002, 5)
    assert T.NthRI(INTERVAL, 1, may, from_end=True) == of(2002, 5)
    assert T.NthRI(INTERVAL, 3, T.RepeatingUnit(cal.DAYS)) == of(2002, 3, 25)
    assert T.NthRI(INTERVAL, 3, T.RepeatingUnit(cal.DAYS), from_end=True) == of(2003, 5, 7)
    with pytest.raises(TimeError):
        T.NthRI(INTERVAL, 5, may).bounds()
    with pytest.raises(TimeError):
        T.NthRI(INTERVAL, 2, may, from_end=True).bounds()
    assert b(T.NthRI(of(2017), 4, T.RepeatingUnit(cal.QUARTER_YEARS))) == (D(2017, 10, 1), D(2018, 1, 1))
    assert T.NthRI(INTERVAL, 1, T.RepeatingField(cal.MONTH_OF_YEAR, 6)).defined
    assert not T.NthRI(INTERVAL, 2, T.RepeatingField(cal.MONTH_OF_YEAR, 6)).defined


def test_this_ri():
    """TypesTest "ThisRI"."""
    with pytest.raises(TimeError):
        T.ThisRI(T.Year(2016), T.RepeatingUnit(cal.DAYS)).bounds()
    assert b(T.ThisRI(T.Year(2016), T.RepeatingField(cal.MONTH_OF_YEAR, 4))) == (D(2016, 4, 1), D(2016, 5, 1))
    july1 = T.SimpleInterval(D(2016, 7, 1), D(2016, 7, 2))
    assert b(T.ThisRI(july1, T.RepeatingUnit(cal.MONTHS))) == (D(2016, 7, 1), D(2016, 8, 1))
    assert b(T.ThisRI(july1, T.RepeatingField(cal.SUMMER_OF_YEAR, 1))) == (D(2016, 6, 21), D(2016, 9, 22))
    assert b(T.ThisRI(july1, T.RepeatingField(cal.WINTER_OF_YEAR, 1))) == (D(2016, 12, 21), D(2017, 3, 20))
    assert b(T.ThisRI(july1, T.RepeatingField(cal.NIGHT_OF_DAY, 1))) == (D(2016, 7, 1, 21), D(2016, 7, 2, 4))


def test_this_ris():
    """TypesTest "ThisRIs"."""
    tuesday = T.SimpleInterval(D(2005, 2, 1, 3, 22), D(2005, 2, 2))
    week_apr = T.SimpleInterval(D(2003, 4, 10), D(2003, 4, 17))
    months11 = T.SimpleInterval(D(2002, 3, 22, 11, 30, 30), D(2003, 2, 10, 22, 10, 20))
    friday = T.RepeatingField(cal.DAY_OF_WEEK, 5)
    march = T.RepeatingField(cal.MONTH_OF_YEAR, 3)
    assert seq(T.ThisRIs(tuesday, friday)) == [b(of(2005, 2, 4))]
    sat_to_fri = T.SimpleInterval(D(2003, 3, 8), D(2003, 3, 14))
    assert seq(T.ThisRIs(sat_to_fri, friday)) == [b(of(2003, 3, 7)), b(of(2003, 3, 14))]
    assert seq(T.ThisRIs(week_apr, friday)) == [b(of(2003, 4, 11)), b(of(2003, 4, 18))]
    assert seq(T.ThisRIs(months11, march)) == [b(of(2002, 3)), b(of(2003, 3))]
    assert seq(T.ThisRIs(week_apr, march)) == [b(of(2003, 3))]
    assert len(seq(T.ThisRIs(months11, friday))) == 48
    assert seq(T.ThisRIs(tuesday, T.RepeatingUnit(cal.WEEKS))) == [(D(2005, 1, 31), D(2005, 2, 7))]
    assert seq(T.ThisRIs(week_apr, T.RepeatingUnit(cal.MONTHS))) == [b(of(2003, 4))]
    assert seq(T.ThisRIs(months11, T.RepeatingUnit(cal.YEARS))) == [b(T.Year(2002)), b(T.Year(2003))]
    assert len(seq(T.ThisRIs(week_apr, T.RepeatingUnit(cal.DAYS)))) == 7


def test_union_ri():
    """TypesTest "UnionRI"."""
    interval = T.SimpleInterval(D(2003, 1, 1), D(2003, 1, 30))
    feb = T.RepeatingField(cal.MONTH_OF_YEAR, 2, EXACT)
    day20 = T.RepeatingField(cal.DAY_OF_MONTH, 20, EXACT)
    union = T.UnionRI([feb, day20])
    assert union.base is cal.DAYS and union.range is cal.YEARS
    pre = union.preceding(interval.start)
    assert [b(next(pre)), b(next(pre))] == [b(of(2002, 12, 20)), b(of(2002, 11, 20))]
    post = union.following(interval.end)
    assert [b(next(post)), b(next(post))] == [b(of(2003, 2)), b(of(2003, 2, 20))]
    interval = T.SimpleInterval(D(2011, 7, 1), D(2011, 7, 30))
    days, weeks, months = (T.RepeatingUnit(u) for u in (cal.DAYS, cal.WEEKS, cal.MONTHS))
    union = T.UnionRI([days, weeks, months])
    assert union.base is cal.DAYS and union.range is cal.MONTHS
    pre = union.preceding(interval.start)
    assert [b(next(pre)), b(next(pre))] == [b(of(2011, 6)), b(of(2011, 6, 30))]
    post = union.following(interval.end)
    assert [b(next(post)) for _ in range(4)] == [b(of(2011, 7, 30)), b(of(2011, 7, 31)), b(of(2011, 8, 1)),
                                                 (D(2011, 8, 1), D(2011, 8, 8))]
    union = T.UnionRI([weeks, day20])
    pre = union.preceding(interval.start)
    assert [b(next(pre)), b(next(pre))] == [(D(2011, 6, 20), D(2011, 6, 27)), b(of(2011, 6, 20))]
    post = union.following(interval.end)
    assert [b(next(post)) for _ in range(4)] == [(D(2011, 8, 1), D(2011, 8, 8)), (D(2011, 8, 8), D(2011, 8, 15)),
                                                 (D(2011, 8, 15), D(2011, 8, 22)), b(of(2011, 8, 20))]
    assert seq(T.ThisRIs(interval, union)) == [(D(2011, 7, 4), D(2011, 7, 11)), (D(2011, 7, 11), D(2011, 7, 18)),
                                               (D(2011, 7, 18), D(2011, 7, 25)), b(of(2011, 7, 20)),
                                               (D(2011, 7, 25), D(2011, 8, 1))]


def test_intersection_ri():
    """TypesTest "IntersectionRI"."""
    year = T.Year(2016)
    friday13_january = T.IntersectionRI([T.RepeatingField(cal.DAY_OF_WEEK, 5, EXACT),
                                         T.RepeatingField(cal.DAY_OF_MONTH, 13, EXACT),
                                         T.RepeatingField(cal.MONTH_OF_YEAR, 1, EXACT)])
    assert friday13_january.base is cal.DAYS and friday13_january.range is cal.YEARS
    following = friday13_january.following(year.end)
    assert [b(next(following)), b(next(following))] == [b(of(2017, 1, 13)), b(of(2023, 1, 13))]
    preceding = friday13_january.preceding(year.start)
    assert [b(next(preceding)), b(next(preceding))] == [b(of(2012, 1, 13)), b(of(2006, 1, 13))]
    hours = T.IntersectionRI([T.RepeatingField(cal.DAY_OF_WEEK, 5, EXACT),
                              T.RepeatingField(cal.DAY_OF_MONTH, 13, EXACT), T.RepeatingUnit(cal.HOURS)])
    following = hours.following(year.end)
    assert b(next(following)) == b(of(2017, 1, 13, 0))
    assert b(nth(following, 10)) == b(of(2017, 1, 13, 10))
    preceding = hours.preceding(year.start)
    assert b(next(preceding)) == b(of(2015, 11, 13, 23))
    assert b(nth(preceding, 10)) == b(of(2015, 11, 13, 13))
    mar31 = T.IntersectionRI([T.RepeatingField(cal.MONTH_OF_YEAR, 3), T.RepeatingField(cal.DAY_OF_MONTH, 31)])
    assert next(mar31.following(D(1980, 1, 1))) == of(1980, 3, 31)
    with pytest.raises(TimeError):
        T.IntersectionRI([T.RepeatingField(cal.MONTH_OF_YEAR, 4), T.RepeatingField(cal.DAY_OF_MONTH, 31)])
    evening31 = T.IntersectionRI([T.RepeatingField(cal.DAY_OF_MONTH, 31), T.RepeatingField(cal.EVENING_OF_DAY, 1)])
    following = evening31.following(of(2012, 3, 1).start)
    assert [b(next(following)), b(next(following))] == [(D(2012, 3, 31, 17), D(2012, 4, 1)),
                                                        (D(2012, 5, 31, 17), D(2012, 6, 1))]
    assert b(next(evening31.preceding(of(2012, 3, 1).start))) == (D(2012, 1, 31, 17), D(2012, 2, 1))


def test_intersection_i():
    """TypesTest "IntersectionI"."""
    assert T.IntersectionI([of(1998), of(1998, 2)]) == of(1998, 2)
    three = [T.SimpleInterval(D(2017, 4, 25), D(2017, 6, 30)), T.SimpleInterval(D(2017, 2, 2), D(2017, 5, 7)),
             T.SimpleInterval(D(2017, 3, 15), D(2017, 4, 28))]
    assert b(T.IntersectionI(three)) == (D(2017, 4, 25), D(2017, 4, 28))
    with pytest.raises(TimeError):
        T.IntersectionI([of(1998), of(2000)]).bounds()
    pairwise = three[:2] + [T.SimpleInterval(D(2017, 3, 15), D(2017, 4, 25))]
    with pytest.raises(TimeError):
        T.IntersectionI(pairwise).bounds()


def test_is_defined():
    """TypesTest "isDefined"."""
    three_days = T.SimplePeriod(cal.DAYS, 3)
    fridays = T.RepeatingField(cal.DAY_OF_WEEK, 5)
    assert three_days.defined is True
    assert T.UnknownPeriod().defined is False
    assert T.SumP([three_days, three_days]).defined is True
    assert T.SumP([three_days, T.UnknownPeriod()]).defined is False
    assert T.LastRI(of(1998, 2, 16), fridays).defined is True
    assert T.AfterRI(T.Year(1965), fridays).defined is True


def test_last_week():
    """TypesTest "PRI19980216.2000.0170 (349,358) last week"."""
    assert b(T.LastRI(of(1998, 2, 16), T.RepeatingUnit(cal.WEEKS))) == (D(1998, 2, 9), D(1998, 2, 16))


def test_monday():
    """TypesTest "APW19980322.0749 (988,994) Monday"."""
    assert T.NextRI(of(1998, 3, 22, 14, 57), T.RepeatingField(cal.DAY_OF_WEEK, 1)) == of(1998, 3, 23)


def test_thursday_night():
    """TypesTest "APW19990206.0090 (767,781) Thursday night"."""
    thursday_night = T.IntersectionRI([T.RepeatingField(cal.DAY_OF_WEEK, 4), T.RepeatingField(cal.NIGHT_OF_DAY, 1)])
    assert b(T.LastRI(of(1999, 2, 6, 6, 22, 26), thursday_night)) == (D(1999, 2, 4, 21), D(1999, 2, 5, 4))


def test_nov_13():
    """TypesTest "wsj_0124 (450,457) Nov. 13"."""
    nov13 = T.IntersectionRI([T.RepeatingField(cal.MONTH_OF_YEAR, 11), T.RepeatingField(cal.DAY_OF_MONTH, 13)])
    assert T.NextRI(of(1989, 11, 2), nov13) == of(1989, 11, 13)
    assert T.LastRI(of(1989, 11, 14), nov13) == of(1989, 11, 13)
    assert T.NextRI(of(1989, 11, 12), nov13) == of(1989, 11, 13)


def test_first_nine_months():
    """TypesTest "NYT19980206.0460 (2979,3004) first nine months of 1997"."""
    assert seq(T.NthRIs(T.Year(1997), 1, T.RepeatingUnit(cal.MONTHS), 9)) == [b(of(1997, m)) for m in range(1, 10)]


def test_year_ended_march_31():
    """TypesTest "wsj_0346 (889,894) year ended March 31"."""
    march31 = T.IntersectionRI([T.RepeatingField(cal.MONTH_OF_YEAR, 3), T.RepeatingField(cal.DAY_OF_MONTH, 31)])
    last_year = T.LastP(T.LastRI(of(1989, 11, 1), march31), T.SimplePeriod(cal.YEARS, 1))
    assert b(last_year) == (D(1988, 3, 31), D(1989, 3, 31))
