"""Port of the reference implementation's scate/ReadersTest.scala (clulab/timenorm) as the oracle for the SCATE
interpreter (evalkit.timenorm.scate): all 18 tests, every expected interval and expression kind equal. Not ported:
the ``charSpan`` assertions (the reference's expressions carry the character span they cover; here the span of
an expression is its entity's, kept on the Timex, so those assertions have no counterpart)."""
import datetime as dt

import pytest

from evalkit.timenorm import calendar as cal
from evalkit.timenorm import types as T
from evalkit.timenorm.anafora import read_anafora
from evalkit.timenorm.scate import Interpreter
from timenorm_readers_fixtures import FIXTURES

D = dt.datetime


def of(*parts):
    """The reference's SimpleInterval.of."""
    units = [cal.YEARS, cal.MONTHS, cal.DAYS, cal.HOURS, cal.MINUTES, cal.SECONDS]
    padded = list(parts) + [1] * (3 - len(parts)) if len(parts) < 3 else list(parts)
    return T.unit_interval(D(*padded), units[len(parts) - 1])


def read(name):
    """(expressions of every entity in document order, creation time), as ``data.entities.map(temporal)``."""
    text, dct_parts, xml = FIXTURES[name]
    document = read_anafora(xml.encode("utf-8"), name, text)
    dct = of(*dct_parts)
    interpreter = Interpreter(document, dct)
    return [interpreter.temporal(entity) for entity in document.entities], dct


def kinds(expressions):
    return [type(e).__name__ for e in expressions]


def first_after(repeating, moment):
    return next(iter(repeating.following(moment)))


def not_nested(intersection):
    return not any(isinstance(r, T.IntersectionRI) for r in intersection.repeatings)


def test_noon():
    """ReadersTest "Noon"."""
    (year, month, day, noon), dct = read("Noon")
    assert kinds([year, month, day, noon]) == ["ThisRI", "IntersectionRI", "IntersectionRI", "RepeatingField"]
    assert year == of(2000, 10, 25, 12, 0)
    assert first_after(month, dct.end) == of(1998, 10, 25, 12, 0)
    assert first_after(day, dct.end) == of(1998, 2, 25, 12, 0)
    assert noon.field is cal.MINUTE_OF_DAY
    assert not_nested(month) and not_nested(day)


def test_noon_super_interval():
    """ReadersTest "NoonSuperInterval"."""
    (year, month, day, noon), dct = read("NoonSuperInterval")
    assert kinds([year, month, day, noon]) == ["Year", "ThisRI", "ThisRI", "ThisRI"]
    assert year == of(2000) and month == of(2000, 10) and day == of(2000, 10, 25)
    assert noon == of(2000, 10, 25, 12, 0)
    assert not_nested(day.repeating) and not_nested(noon.repeating)


def test_after_december_2017():
    """ReadersTest "after December 2017"."""
    (after, month, year), dct = read("after December 2017")
    assert kinds([after, month, year]) == ["AfterP", "ThisRI", "Year"]
    assert not after.defined
    assert month == of(2017, 12) and year == of(2017)


def test_last_december_25():
    """ReadersTest "last December 25"."""
    (last, month, day), dct = read("last December 25")
    assert kinds([last, month, day]) == ["LastRI", "RepeatingField", "IntersectionRI"]
    assert last == of(2017, 12, 25)
    assert first_after(month, dct.end) == of(2018, 12)
    assert first_after(day, dct.end) == of(2018, 12, 25)


def test_this_december_25():
    """ReadersTest "this December 25"."""
    (this, month, day), dct = read("this December 25")
    assert kinds([this, month, day]) == ["ThisRI", "RepeatingField", "IntersectionRI"]
    assert this == of(2018, 12, 25)
    assert first_after(month, dct.end) == of(2018, 12)
    assert first_after(day, dct.end) == of(2018, 12, 25)


def test_december_17():
    """ReadersTest "December 17"."""
    (month, day), dct = read("December 17")
    assert kinds([month, day]) == ["RepeatingField", "IntersectionRI"]
    assert first_after(month, dct.end) == of(1998, 12)
    assert first_after(day, dct.end) == of(1998, 12, 17)


def test_december_2017_to_january_2018():
    """ReadersTest "December 2017 to January 2018"."""
    (dec, y2017, between, jan, y2018), dct = read("December 2017 to January 2018")
    assert kinds([dec, y2017, between, jan, y2018]) == ["ThisRI", "Year", "Between", "ThisRI", "Year"]
    assert dec == of(2017, 12) and y2017 == of(2017) and jan == of(2018, 1) and y2018 == of(2018)
    assert between == T.SimpleInterval(dec.start, jan.end)


def test_december_17_and_18():
    """ReadersTest "December 17 and 18"."""
    (dec, day17, day18, union), dct = read("December 17 and 18")
    assert kinds([dec, day17, day18, union]) == ["RepeatingField", "IntersectionRI", "IntersectionRI", "UnionRI"]
    assert first_after(dec, dct.end) == of(1998, 12)
    assert first_after(day17, dct.end) == of(1998, 12, 17)
    following = union.following(dct.end)
    assert [next(following) for _ in range(4)] == [of(1998, 12, 17), of(1998, 12, 18), of(1999, 12, 17),
                                                   of(1999, 12, 18)]
    assert first_after(day18, dct.end) == of(1998, 12, 18)


def test_first_nine_months_of_1997():
    """ReadersTest "NYT19980206.0460 (2979,3004) first nine months of 1997"."""
    (nth, number, month, year), dct = read("NYT19980206.0460 (2979,3004) first nine months of 1997")
    assert kinds([nth, number, month, year]) == ["NthRIs", "IntNumber", "RepeatingUnit", "Year"]
    assert nth.intervals == [of(1997, m) for m in range(1, 10)]
    assert number.n == 9
    assert month.unit is cal.MONTHS
    assert first_after(month, dct.end) == of(1998, 3)
    assert year == of(1997)


def test_last_few_months():
    """ReadersTest "NYT19980206.0460 (3441,3445) last few months"."""
    (last, number, months), dct = read("NYT19980206.0460 (3441,3445) last few months")
    assert kinds([last, number, months]) == ["LastRIs", "VagueNumber", "RepeatingUnit"]
    assert not last.defined and not number.defined
    assert months.unit is cal.MONTHS
    assert first_after(months, dct.end) == of(2021, 7)


def test_19980331():
    """ReadersTest "VOA19980331.1700.1533 (25,29) 19980331"."""
    (year, month, day), dct = read("VOA19980331.1700.1533 (25,29) 19980331")
    assert kinds([year, month, day]) == ["ThisRI", "IntersectionRI", "RepeatingField"]
    assert year == of(1998, 3, 31)
    assert first_after(month, dct.end) == of(2022, 3, 31)
    assert first_after(day, dct.end) == of(2021, 7, 31)


def test_friday():
    """ReadersTest "APW19980306.1001 (1705,1711) Friday"."""
    (friday, last), dct = read("APW19980306.1001 (1705,1711) Friday")
    assert kinds([friday, last]) == ["RepeatingField", "LastRI"]
    assert last == dct
    assert first_after(friday, dct.end) == of(1998, 3, 13)


def test_earlier_sunday():
    """ReadersTest "APW19980322.0749 (3918,3925) Earlier Sunday"."""
    (sunday, last, before, event, intersection), dct = read("APW19980322.0749 (3918,3925) Earlier Sunday")
    assert kinds([sunday, last, before, event, intersection]) == ["RepeatingField", "LastRI", "BeforeP", "Event",
                                                                  "IntersectionI"]
    assert first_after(sunday, dct.end) == of(1998, 3, 29)
    assert last == of(1998, 3, 22)
    assert not before.defined and not event.defined and not intersection.defined


def test_january_this_year():
    """ReadersTest "APW19980219.0476 (1164,1171) January this year"."""
    (january, year, this, intersection), dct = read("APW19980219.0476 (1164,1171) January this year")
    assert kinds([january, year, this, intersection]) == ["RepeatingField", "RepeatingUnit", "ThisRI", "ThisRIs"]
    assert first_after(january, dct.end) == of(1999, 1)
    assert first_after(year, dct.end) == of(1999)
    assert this == of(1998)
    assert intersection.intervals == [of(1998, 1)]


def test_quarter_century():
    """ReadersTest "NYT19980206.0460 (1095,1110) quarter-century"."""
    (quarter_century,), dct = read("NYT19980206.0460 (1095,1110) quarter-century")
    assert isinstance(quarter_century, T.RepeatingInterval)
    assert next(iter(quarter_century.preceding(dct.start))) == T.SimpleInterval(D(1950, 1, 1), D(1975, 1, 1))


def test_20th_century():
    """ReadersTest "wsj_0266 (489,496) 20th century"."""
    (century, nth), dct = read("wsj_0266 (489,496) 20th century")
    assert kinds([century, nth]) == ["RepeatingUnit", "NthRI"]
    assert first_after(century, dct.end) == T.SimpleInterval(D(2000, 1, 1), D(2100, 1, 1))
    assert nth == T.SimpleInterval(D(1900, 1, 1), D(2000, 1, 1))


def test_third_quarter():
    """ReadersTest "wsj_0348 (293,300) third quarter"."""
    (quarter, third), dct = read("wsj_0348 (293,300) third quarter")
    assert kinds([quarter, third]) == ["RepeatingUnit", "NthRI"]
    assert first_after(quarter, dct.end) == T.SimpleInterval(D(1990, 1, 1), D(1990, 4, 1))
    assert third == T.SimpleInterval(D(1989, 7, 1), D(1989, 10, 1))


def test_00():
    """ReadersTest "ID036_clinic_108 (6422,6424) 00"."""
    (year,), dct = read("ID036_clinic_108 (6422,6424) 00")
    assert kinds([year]) == ["YearSuffix"]
    assert year == of(2000)


def test_every_fixture_is_tested():
    tested = [name for name, value in globals().items() if name.startswith("test_") and value.__doc__]
    assert len(tested) == len(FIXTURES) == 18
