"""TIMEX3 values as intervals (the paper's Section 3 example and every value form) and the TimeML body span."""
import datetime as dt

import pytest

from evalkit.messages import DataError
from evalkit.timenorm.timeml import body_span, timex3_interval

D = dt.datetime


@pytest.mark.parametrize("value, start, end", [
    ("1989-03-05", D(1989, 3, 5), D(1989, 3, 6)),             # the paper's Section 3 example
    ("19", D(1900, 1, 1), D(2000, 1, 1)),
    ("198", D(1980, 1, 1), D(1990, 1, 1)),
    ("1998", D(1998, 1, 1), D(1999, 1, 1)),
    ("1998-02", D(1998, 2, 1), D(1998, 3, 1)),
    ("1998-Q4", D(1998, 10, 1), D(1999, 1, 1)),
    ("1998-SP", D(1998, 3, 20), D(1998, 6, 21)),
    ("1998-WI", D(1998, 12, 21), D(1999, 3, 20)),
    ("1998-W01", D(1997, 12, 29), D(1998, 1, 5)),
    ("1998-W53", D(1998, 12, 28), D(1999, 1, 4)),
    ("1998-W10-WE", D(1998, 3, 7), D(1998, 3, 9)),
    ("1998-08-07TMO", D(1998, 8, 7, 0), D(1998, 8, 7, 12)),
    ("1998-08-07TAF", D(1998, 8, 7, 12), D(1998, 8, 7, 18)),
    ("1998-08-07TEV", D(1998, 8, 7, 17), D(1998, 8, 8, 0)),
    ("1998-08-07TNI", D(1998, 8, 7, 21), D(1998, 8, 8, 4)),
    ("1998-08-07T10", D(1998, 8, 7, 10), D(1998, 8, 7, 11)),
    ("1998-08-07T10:35", D(1998, 8, 7, 10, 35), D(1998, 8, 7, 10, 36)),
    ("1998-08-07T10:35:20", D(1998, 8, 7, 10, 35, 20), D(1998, 8, 7, 10, 35, 21)),
    ("1998-08-07T10:35:20-05", D(1998, 8, 7, 10, 35, 20), D(1998, 8, 7, 10, 35, 21)),
])
def test_values(value, start, end):
    interval = timex3_interval(value)
    assert (interval.start, interval.end) == (start, end)


@pytest.mark.parametrize("value, mod", [
    ("P3Y", None), ("PT2H", None), ("XXXX-08", None), ("1998-WXX", None), ("PRESENT_REF", None),
    ("PAST_REF", None), ("", None), ("1998-02-30", None), ("1999-W53", None), ("1998-Q5", None),
    ("1998", "APPROX"), ("T10:00", None),
])
def test_not_intervals(value, mod):
    assert timex3_interval(value, mod) is None


def test_body_span_and_refusals():
    tml = (b"<TimeML><DOCID>d</DOCID>\n<DCT><TIMEX3 tid='t0'>1998</TIMEX3></DCT>\n"
           b"<TEXT>A <TIMEX3>day</TIMEX3>.</TEXT>\n</TimeML>")
    text = "d\n1998\nA day.\n"
    start, end = body_span(tml, "d.tml")
    assert text[start:end] == "A day."
    with pytest.raises(DataError) as info:
        body_span(b'<!DOCTYPE x [<!ENTITY a "b">]><TimeML><TEXT>&a;</TEXT></TimeML>', "d.tml")
    assert "d.tml" in str(info.value) and "DTD" in str(info.value)
    with pytest.raises(DataError) as info:
        body_span(b"<TimeML><DCT/></TimeML>", "e.tml")
    assert "expected a <TEXT> element" in str(info.value)
