"""TimeML TIMEX3 ``value``s as intervals, and the body text (``<TEXT>``) of a TimeML document.

A value is an interval when it names one calendar stretch: a century ("19"), decade ("199"), year, season
("1998-SU"), quarter ("1998-Q3"), month, ISO week ("1998-W32", "1998-W32-WE" its weekend), day, part of a day
("1998-08-07TNI"), hour, minute or second. Weeks are ISO 8601 weeks (Monday to Sunday, week 1 holding the
year's first Thursday). Durations ("P3Y"), values with unknown digits ("XXXX-08"), the
references PRESENT_REF, PAST_REF, FUTURE_REF and TIMEX3s with a ``mod`` are not intervals, as in the reference
comparison (``timeml/TimeMLScorer.scala``). A time zone offset after the seconds is dropped.

>>> timex3_interval("1989-03-05")
SimpleInterval(1989-03-05T00:00:00, 1989-03-06T00:00:00)
>>> timex3_interval("1998-Q3")
SimpleInterval(1998-07-01T00:00:00, 1998-10-01T00:00:00)
>>> timex3_interval("P3Y") is None
True
"""
import datetime
import re
import xml.parsers.expat

from . import calendar as cal
from .types import SimpleInterval, unit_interval
from .calendar import TimeError
from ..messages import DataError

_SEASONS = {"SP": cal.SPRINGS, "SU": cal.SUMMERS, "FA": cal.FALLS, "WI": cal.WINTERS}
_PARTS = {"MO": (0, 12), "AF": (12, 18), "EV": (17, 24), "NI": (21, 28)}


def interval_value(value):
    """Whether a TIMEX3 value can name an interval at all (not a duration, not partly unknown)."""
    return bool(value) and not value.startswith("P") and not value.startswith("T") and "X" not in value


def timex3_interval(value, mod=None):
    """The interval a TIMEX3 ``value`` names, or None when it names none (see the module doc).

    >>> timex3_interval("1998-08-07TNI")
    SimpleInterval(1998-08-07T21:00:00, 1998-08-08T04:00:00)
    >>> timex3_interval("1998-W32-WE")
    SimpleInterval(1998-08-08T00:00:00, 1998-08-10T00:00:00)
    >>> timex3_interval("1998-W01")
    SimpleInterval(1997-12-29T00:00:00, 1998-01-05T00:00:00)
    """
    if mod or not interval_value(value):
        return None
    value = re.sub(r"(:\d{2})-\d+$", r"\1", value.strip())
    try:
        return _parse(re.split(r"[-T:]", value))
    except (TimeError, ValueError, OverflowError):
        return None


def _year(text):
    if not re.match(r"^\d{4}$", text):
        raise ValueError(text)
    return datetime.datetime(int(text), 1, 1)


def _week(year, text):
    """Monday of ISO 8601 week ``text`` of ``year`` (week 1 holds the year's first Thursday)."""
    week = int(text)
    if not 1 <= week <= 53:
        raise ValueError("week %d" % week)
    january4 = year.replace(day=4)
    monday = january4 - datetime.timedelta(days=january4.isoweekday() - 1) + datetime.timedelta(weeks=week - 1)
    if (monday + datetime.timedelta(days=3)).year != year.year:
        raise ValueError("%d has no ISO week %d" % (year.year, week))
    return monday


def _parse(parts):
    if len(parts) == 1:
        digits = parts[0]
        if not digits.isdigit() or len(digits) not in (2, 3, 4):
            return None
        span = {2: 100, 3: 10, 4: 1}[len(digits)]
        start = datetime.datetime(max(1, int(digits) * span), 1, 1)
        return SimpleInterval(start, cal.add_months(start, 12 * span))
    year = _year(parts[0])
    if len(parts) == 2:
        return _year_part(year, parts[1])
    if len(parts) == 3:
        if parts[1].startswith("W"):
            if parts[2] != "WE":
                return None
            saturday = _week(year, parts[1][1:]) + datetime.timedelta(days=5)
            return SimpleInterval(saturday, saturday + datetime.timedelta(days=2))
        return unit_interval(datetime.datetime(year.year, int(parts[1]), int(parts[2])), cal.DAYS)
    day = datetime.datetime(year.year, int(parts[1]), int(parts[2]))
    if len(parts) == 4:
        if parts[3] in _PARTS:
            first, last = _PARTS[parts[3]]
            return SimpleInterval(day + datetime.timedelta(hours=first), day + datetime.timedelta(hours=last))
        return unit_interval(day.replace(hour=int(parts[3])), cal.HOURS)
    if len(parts) == 5:
        return unit_interval(day.replace(hour=int(parts[3]), minute=int(parts[4])), cal.MINUTES)
    if len(parts) == 6:
        return unit_interval(day.replace(hour=int(parts[3]), minute=int(parts[4]), second=int(parts[5])),
                             cal.SECONDS)
    return None


def _year_part(year, part):
    if part in _SEASONS:
        season = _SEASONS[part]
        start = season.truncate(year)
        return SimpleInterval(start, season.add(start, 1))
    if part.startswith("W"):
        return unit_interval(_week(year, part[1:]), cal.WEEKS)
    if part.startswith("Q"):
        quarter = int(part[1:])
        if not 1 <= quarter <= 4:
            return None
        return unit_interval(year.replace(month=3 * quarter - 2), cal.QUARTER_YEARS)
    return unit_interval(year.replace(month=int(part)), cal.MONTHS)


def body_span(data, file, element="TEXT"):
    """(start, end) character offsets of ``element`` in the document text of TimeML ``data`` (bytes).

    The document text is the concatenation of all character data (``itertext()``), the rule that derives the text
    files the Anafora offsets refer to. Document type declarations and entity declarations are refused.

    >>> body_span(b"<TimeML><DCT>1998</DCT><TEXT>Body.</TEXT> </TimeML>", "a.tml")
    (4, 9)
    """
    parser = xml.parsers.expat.ParserCreate()
    state = {"length": 0, "start": None, "end": None}

    def refuse(*args):
        raise DataError(file, "line %d" % parser.CurrentLineNumber, "expected TimeML without a DTD or entities")

    def start(tag, attributes):
        if tag == element and state["start"] is None:
            state["start"] = state["length"]

    def end(tag):
        if tag == element and state["end"] is None:
            state["end"] = state["length"]

    def chars(text):
        state["length"] += len(text)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        raise DataError(file, "line %d" % error.lineno, "expected well-formed TimeML: %s"
                        % xml.parsers.expat.ErrorString(error.code))
    if state["start"] is None or state["end"] is None:
        raise DataError(file, "", "expected a <%s> element, found none" % element)
    return state["start"], state["end"]
