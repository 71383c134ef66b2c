"""Interpret an Anafora SCATE annotation graph into time expressions anchored at the document creation time.

The mapping from entity types and properties to expressions is that of the reference implementation's
``scate/Readers.scala`` (AnaforaReader), with one extension: ``NthFromEnd`` is read like ``NthFromStart`` counting
from the interval's end (the reference has the types but no reading for it). :func:`interpret_document` returns,
for every top entity, its expression and its intervals, or no interval and a message; it never raises.

>>> import datetime
>>> from .anafora import read_anafora
>>> doc = read_anafora(b'''<data><annotations>
... <entity><id>1</id><span>0,5</span><type>Month-Of-Year</type><properties><Type>March</Type></properties></entity>
... <entity><id>2</id><span>0,5</span><type>Last</type><properties><Semantics>Interval-Not-Included</Semantics>
... <Interval-Type>DocTime</Interval-Type><Repeating-Interval>1</Repeating-Interval></properties></entity>
... </annotations></data>''', "d.xml")
>>> dct = parse_dct("1998-08-07")
>>> [(t.entity.id, t.intervals) for t in interpret_document(doc, dct)]
[('2', [SimpleInterval(1998-03-01T00:00:00, 1998-04-01T00:00:00)])]
"""
import datetime
import re

from ..messages import quoted
from . import calendar as cal
from . import types as T
from .calendar import TimeError

SKIP_TYPES = frozenset(["NotNormalizable", "Frequency", "PreAnnotation"])
MAX_DEPTH = 60
#: A numeric value (a Value, a Number) has at most this many characters: enough for any date or count, and
#: no big-integer arithmetic on a participant's thousand-digit string.
MAX_DIGITS = 18
_INTEGER = re.compile(r"^[0-9]{1,%d}$" % MAX_DIGITS)
_DECIMAL = re.compile(r"^[0-9]{0,%d}[.][0-9]{1,%d}$" % (MAX_DIGITS, MAX_DIGITS))

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_CALENDAR = {"Century": cal.CENTURIES, "Quarter-Century": cal.QUARTER_CENTURIES, "Quarter-Year": cal.QUARTER_YEARS,
             "Millennium": cal.MILLENNIA, "Decade": cal.DECADES, "Year": cal.YEARS, "Month": cal.MONTHS,
             "Week": cal.WEEKS, "Day": cal.DAYS, "Hour": cal.HOURS, "Minute": cal.MINUTES, "Second": cal.SECONDS}
_PERIOD_UNITS = {"Millennia": cal.MILLENNIA, "Centuries": cal.CENTURIES, "Decades": cal.DECADES,
                 "Years": cal.YEARS, "Months": cal.MONTHS, "Weeks": cal.WEEKS, "Days": cal.DAYS,
                 "Hours": cal.HOURS, "Minutes": cal.MINUTES, "Seconds": cal.SECONDS}
_SEASONS = {"Spring": cal.SPRING_OF_YEAR, "Summer": cal.SUMMER_OF_YEAR, "Fall": cal.FALL_OF_YEAR,
            "Winter": cal.WINTER_OF_YEAR}
_PARTS_OF_DAY = {"Morning": cal.MORNING_OF_DAY, "Afternoon": cal.AFTERNOON_OF_DAY, "Evening": cal.EVENING_OF_DAY,
                 "Night": cal.NIGHT_OF_DAY}
_FIELDS = {"Day-Of-Month": cal.DAY_OF_MONTH, "Minute-Of-Hour": cal.MINUTE_OF_HOUR,
           "Second-Of-Minute": cal.SECOND_OF_MINUTE}
_MODIFIERS = {"Approx", "Less-Than", "More-Than", "Start", "Mid", "End", "Fiscal"}
_EXC, _INC = "Interval-Not-Included", "Interval-Included"


def parse_dct(text):
    """The document creation time as an interval: a year, month, day, hour, minute or second.

    >>> parse_dct("1998-03-01T14:11").end
    datetime.datetime(1998, 3, 1, 14, 12)
    """
    match = re.match(r"^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2}))?)?)?)?)?$", text.strip())
    if not match:
        raise TimeError("expected a creation time YYYY[-MM[-DD[THH[:MM[:SS]]]]], got %r" % text[:40])
    parts = [int(p) for p in match.groups() if p is not None]
    units = [cal.YEARS, cal.MONTHS, cal.DAYS, cal.HOURS, cal.MINUTES, cal.SECONDS]
    try:
        start = datetime.datetime(*(parts + [1] * (3 - len(parts)) if len(parts) < 3 else parts))
    except ValueError as error:
        raise TimeError("creation time %r: %s" % (text, error))
    return T.unit_interval(start, units[len(parts) - 1])


def _digit_like(value):
    """Whether ``value`` is written with digits only (any script, superscripts included) or is ASCII digits
    longer than :data:`MAX_DIGITS`: a number that cannot be read, not a vague word."""
    return bool(value) and all(c.isdigit() or c == "." for c in value) and any(c.isdigit() for c in value)


#: Schema types that are read as nothing (as in the reference): no interval, and no message of a mistake.
_NOT_INTERPRETED = frozenset(["Every-Nth", "Difference"])


class NotInterpreted(TimeError):
    """A construct the SCATE schema allows but that is not interpreted (as in the reference): Every-Nth,
    Difference, Part-Of-Week Weekdays, Part-Of-Day Day, quarter periods."""


class Interpreter(object):
    """Builds time expressions from the entities of one :class:`.anafora.Document` and a creation time."""

    def __init__(self, document, dct):
        self.doc = document
        self.dct = dct
        self.depth = 0

    # ------------------------------------------------------------ property access (as the reference)
    def get(self, entity, name):
        """The one non-empty value of ``name``, or None; several values are an error."""
        values = entity.values(name)
        if len(values) > 1:
            raise TimeError("%s %s: expected 0 or 1 %s, found %d" % (entity.type, entity.id, name, len(values)))
        return values[0] if values else None

    def require(self, entity, name):
        """The one non-empty value of ``name``; none or several are an error."""
        value = self.get(entity, name)
        if value is None:
            raise TimeError("%s %s: expected a %s value, found none" % (entity.type, entity.id, name))
        return value

    def get_entity(self, entity, name):
        """The entity named by ``name`` (None if empty or unknown)."""
        value = self.get(entity, name)
        return self.doc.by_id.get(value) if value is not None else None

    def get_entities(self, entity, name):
        """The entities named by all values of ``name`` (unknown ids skipped)."""
        return [self.doc.by_id[v] for v in entity.values(name) if v in self.doc.by_id]

    def linked(self, entity, name):
        """The entity named by ``name``; missing is an error."""
        value = self.require(entity, name)
        if value not in self.doc.by_id:
            raise TimeError("%s %s: %s names entity %s, which does not exist" % (entity.type, entity.id, name, value))
        return self.doc.by_id[value]

    def _enter(self, entity):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TimeError("%s %s: links nested deeper than %d (a cycle?)" % (entity.type, entity.id, MAX_DEPTH))

    # ------------------------------------------------------------ numbers, modifiers, periods
    def number(self, entity):
        """A Number entity: integer, decimal fraction, "?" or other vague value."""
        value = self.require(entity, "Value")
        if value == "?":
            return T.VagueNumber(self.text(entity))
        if _DECIMAL.match(value):
            before, after = value.split(".")
            return T.FractionalNumber(int(before or "0"), int(after), 10 ** len(after))
        if _INTEGER.match(value):
            return T.IntNumber(int(value))
        if _digit_like(value):
            raise TimeError("%s %s: expected a Value of at most %d digits 0-9 (or a decimal, '?' or words), "
                            "found %s" % (entity.type, entity.id, MAX_DIGITS, quoted(value, 40)))
        return T.VagueNumber(value[:40])

    def text(self, entity):
        """The entity's text if the document text is known, else ''."""
        if self.doc.text is None:
            return ""
        return "...".join(self.doc.text[s:e] for s, e in entity.spans)

    def long_value(self, entity):
        """The entity's Value as a non-negative integer."""
        value = self.get(entity, "Value")
        if value is None:
            raise TimeError("%s %s: expected a numeric Value, found none" % (entity.type, entity.id))
        return self._int(value, entity)

    def modifier(self, entity):
        """The Modifier linked from ``entity``, or None."""
        linked = self.get_entity(entity, "Modifier")
        if linked is None:
            return None
        kind = self.require(linked, "Type")
        if kind not in _MODIFIERS:
            raise TimeError("Modifier %s: unknown Type %s" % (linked.id, quoted(kind, 40)))
        return T.Modifier(kind)

    def period(self, entity):
        """A Period or Sum entity."""
        self._enter(entity)
        try:
            return self._period(entity)
        finally:
            self.depth -= 1

    def _period(self, entity):
        mod = self.modifier(entity)
        if entity.type == "Sum":
            return T.SumP([self.period(e) for e in self.get_entities(entity, "Periods")], mod)
        if entity.type in _NOT_INTERPRETED:
            raise NotInterpreted("%s %s" % (entity.type, entity.id))
        if entity.type != "Period":
            raise TimeError("%s %s: expected a Period or Sum, found %s" % (entity.type, entity.id, entity.type))
        kind = self.require(entity, "Type")
        if kind == "Unknown":
            if self.get(entity, "Number") or self.get(entity, "Modifier"):
                raise TimeError("Period %s: expected no Number nor Modifier with Type Unknown" % entity.id)
            return T.UnknownPeriod()
        unit = _PERIOD_UNITS.get(kind)
        if unit is None and kind in ("Quarter-Years", "Quarter-Centuries"):
            raise NotInterpreted("Period %s: Type %s" % (entity.id, kind))
        if unit is None:
            raise TimeError("Period %s: cannot interpret Type %s" % (entity.id, quoted(kind, 40)))
        number_entity = self.get_entity(entity, "Number")
        if number_entity is not None:
            n = self.number(number_entity)
        else:
            n = T.VagueNumber("2+") if self.text(entity).endswith("s") else T.IntNumber(1)
        return T.SimplePeriod(unit, n, mod)

    # ------------------------------------------------------------ intervals
    def included(self, entity, prefix=""):
        """Whether ``prefix``Included says Included."""
        value = self.get(entity, prefix + "Included")
        if value in (None, "Not-Included"):
            return False
        if value == "Included":
            return True
        raise TimeError("%s %s: cannot read %sIncluded %s" % (entity.type, entity.id, prefix, quoted(value, 40)))

    def anchor(self, entity, prefix=""):
        """The interval an operator applies to, from ``prefix``Interval-Type (Link, DocTime, ...)."""
        kind = self.get(entity, prefix + "Interval-Type")
        if kind == "Link":
            return self.interval(self.linked(entity, prefix + "Interval"))
        if kind == "DocTime":
            return self.dct
        if kind == "DocTime-Year":
            return T.Year(self.dct.start.year)
        if kind == "DocTime-Era":
            return T.SimpleInterval(datetime.datetime.min, datetime.datetime.max)
        if kind == "Unknown":
            return T.UnknownInterval()
        raise TimeError("%s %s: cannot read %sInterval-Type %s" % (entity.type, entity.id, prefix, quoted(kind, 40)))

    def _links(self, entity):
        ris = self.get_entities(entity, "Repeating-Interval") + self.get_entities(entity, "Repeating-Intervals")
        numbers = [self.get_entity(e, "Number") for e in ris]
        return ris, [n for n in numbers if n is not None]

    def interval(self, entity):
        """An entity read as one interval."""
        self._enter(entity)
        try:
            result = self._interval(entity)
            sub = self.get_entity(entity, "Sub-Interval")
            if sub is not None:
                result = T.ThisRI(result, self.repeating(sub))
            return result
        finally:
            self.depth -= 1

    def _interval(self, entity):
        kind = entity.type
        value = self.get(entity, "Value")
        periods = [self.period(e) for e in self.get_entities(entity, "Period")]
        ri_entities, number_entities = self._links(entity)
        ris = [self.repeating(e) for e in ri_entities]
        numbers = [self.number(e) for e in number_entities]
        semantics = self.get(entity, "Semantics")
        plain = value is None and not ris and not numbers
        if kind == "Event" and plain and not periods and semantics is None:
            return T.Event(self.text(entity))
        if kind == "Year" and value is not None and not periods and not ris and semantics is None:
            digits = self._year_digits(value, entity)
            return T.Year(self._int(digits, entity), len(value) - len(digits))
        if kind == "Two-Digit-Year" and value is not None and not periods and not ris and semantics is None:
            digits = self._year_digits(value, entity)
            return T.YearSuffix(self.anchor(entity), self._int(digits, entity), len(digits),
                                len(value) - len(digits))
        if kind == "Between" and plain and not periods and semantics is None:
            return T.Between(self.anchor(entity, "Start-"), self.anchor(entity, "End-"),
                             self.included(entity, "Start-"), self.included(entity, "End-"))
        if kind in ("This", "Last", "Next", "Before", "After") and value is None:
            return self._operator(entity, kind, periods, ris, numbers, semantics)
        if kind in ("NthFromStart", "NthFromEnd") and value is not None and not numbers and semantics is None:
            index = self._int(value, entity)
            from_end = kind == "NthFromEnd"
            if not ris:
                period = periods[0] if len(periods) == 1 else T.UnknownPeriod()
                if len(periods) <= 1:
                    return T.NthP(self.anchor(entity), index, period, from_end)
            elif len(ris) == 1 and not periods:
                return T.NthRI(self.anchor(entity), index, ris[0], from_end)
        if kind == "Intersection" and plain and not periods and semantics is None:
            return T.IntersectionI([self.interval(e) for e in self.get_entities(entity, "Intervals")])
        year = self.root_year(entity) if kind != "Year" else None
        if year is not None:
            return T.ThisRI(year, self.repeating(entity))
        raise TimeError("%s %s: cannot interpret as an interval%s" % (
            kind, entity.id, " (expected a Value)" if kind in ("Year", "Two-Digit-Year") and value is None else ""))

    def _operator(self, entity, kind, periods, ris, numbers, semantics):
        if len(periods) > 1 or len(ris) > 1 or (periods and ris):
            raise TimeError("%s %s: expected one Period or one Repeating-Interval" % (kind, entity.id))
        anchor = self.anchor(entity)
        if not ris:
            if numbers or (kind == "This" and semantics is not None):
                raise TimeError("%s %s: cannot interpret as an interval" % (kind, entity.id))
            period = periods[0] if periods else T.UnknownPeriod()
            return {"This": T.ThisP, "Last": T.LastP, "Next": T.NextP, "Before": T.BeforeP,
                    "After": T.AfterP}[kind](anchor, period)
        ri = ris[0]
        if kind == "This":
            if numbers or semantics is not None:
                raise TimeError("This %s: cannot interpret as an interval" % entity.id)
            return T.ThisRI(anchor, ri)
        if semantics not in (_EXC, _INC) or (numbers and kind in ("Last", "Next")):
            raise TimeError("%s %s: cannot interpret with Semantics %s" % (kind, entity.id, quoted(semantics, 40)))
        inc = semantics == _INC
        number = numbers[0] if numbers else T.IntNumber(1)
        if kind == "Last":
            return T.LastRI(anchor, ri, T.last_point if inc else T.first_point)
        if kind == "Next":
            return T.NextRI(anchor, ri, T.first_point if inc else T.last_point)
        if kind == "Before":
            return T.BeforeRI(anchor, ri, number, T.last_point if inc else T.first_point)
        return T.AfterRI(anchor, ri, number, T.first_point if inc else T.last_point)

    def _int(self, text, entity):
        """``text`` (a Value, or its digits) as an int: 1 to :data:`MAX_DIGITS` ASCII digits, else TimeError."""
        if not _INTEGER.match(text):
            raise TimeError("%s %s: expected a numeric Value (1 to %d digits 0-9), found %s"
                            % (entity.type, entity.id, MAX_DIGITS, quoted(text, 40)))
        return int(text)

    def _year_digits(self, value, entity):
        """The digits of a year Value (digits then '?' for unknown ones, at most :data:`MAX_DIGITS` in all)."""
        if len(value) > MAX_DIGITS:
            raise TimeError("%s %s: expected a year Value of at most %d characters, found %s"
                            % (entity.type, entity.id, MAX_DIGITS, quoted(value, 40)))
        return value.replace("?", "")

    def intervals(self, entity):
        """An entity read as several intervals (an Intersection with repeating intervals, Last/Next/Nth N)."""
        self._enter(entity)
        try:
            return self._intervals(entity)
        finally:
            self.depth -= 1

    def _intervals(self, entity):
        kind = entity.type
        value = self.get(entity, "Value")
        periods = self.get_entities(entity, "Period")
        ri_entities, number_entities = self._links(entity)
        ris = [self.repeating(e) for e in ri_entities]
        numbers = [self.number(e) for e in number_entities]
        intervals = [self.interval(e) for e in self.get_entities(entity, "Intervals")]
        if kind == "Intersection" and value is None and not periods and not numbers and len(intervals) == 1 and ris:
            ri = ris[0] if len(ris) == 1 else T.IntersectionRI(ris)
            return T.ThisRIs(intervals[0], ri)
        if not periods and len(ris) == 1 and len(numbers) == 1 and not intervals:
            if kind == "Last" and value is None:
                return T.LastRIs(self.anchor(entity), ris[0], numbers[0])
            if kind == "Next" and value is None:
                return T.NextRIs(self.anchor(entity), ris[0], numbers[0])
            if kind in ("NthFromStart", "NthFromEnd") and value is not None:
                return T.NthRIs(self.anchor(entity), self._int(value, entity), ris[0], numbers[0],
                                kind == "NthFromEnd")
        raise TimeError("%s %s: cannot interpret as intervals" % (kind, entity.id))

    # ------------------------------------------------------------ repeating intervals
    def repeating(self, entity):
        """An entity read as a repeating interval, merged with its Super-Interval (not a Year) and Sub-Interval."""
        self._enter(entity)
        try:
            result = self._repeating(entity)
            supers = [e for e in [self.get_entity(entity, "Super-Interval")] if e is not None and e.type != "Year"]
            subs = self.get_entities(entity, "Sub-Interval")[:1]
            merged = []
            for linked in supers + subs:
                item = self.repeating(linked)
                merged.extend(item.repeatings if isinstance(item, T.IntersectionRI) else [item])
            return T.IntersectionRI(merged + [result]) if merged else result
        finally:
            self.depth -= 1

    def _repeating(self, entity):
        kind, sub_type = entity.type, self.get(entity, "Type")
        mod = self.modifier(entity)
        if sub_type == "Unknown":
            return T.UnknownRepeatingInterval()
        if kind == "Union" and sub_type is None:
            return T.UnionRI([self.repeating(e) for e in self.get_entities(entity, "Repeating-Intervals")])
        if kind == "Intersection" and sub_type is None:
            if entity.values("Intervals"):
                raise TimeError("Intersection %s: cannot interpret as a repeating interval" % entity.id)
            return T.IntersectionRI([self.repeating(e) for e in self.get_entities(entity, "Repeating-Intervals")])
        if kind == "Calendar-Interval" and sub_type in _CALENDAR:
            return T.RepeatingUnit(_CALENDAR[sub_type], mod)
        if kind == "Week-Of-Year" and sub_type is None:
            return T.RepeatingField(cal.WEEK_OF_YEAR, self.long_value(entity), mod)
        if kind == "Season-Of-Year" and sub_type in _SEASONS:
            return T.RepeatingField(_SEASONS[sub_type], 1, mod)
        if kind == "Part-Of-Week" and sub_type == "Weekend":
            return T.RepeatingField(cal.WEEKEND_OF_WEEK, 1, mod)
        if kind == "Part-Of-Day":
            return self._part_of_day(entity, sub_type, mod)
        if kind == "Hour-Of-Day":
            value = self.long_value(entity)
            ampm = self.get_entity(entity, "AMPM-Of-Day")
            if ampm is not None:
                return T.IntersectionRI([T.RepeatingField(cal.CLOCK_HOUR_OF_AMPM, value, mod),
                                         self.repeating(ampm)])
            return T.RepeatingField(cal.CLOCK_HOUR_OF_DAY, value, mod)
        if kind == "Month-Of-Year" and sub_type in _MONTHS:
            return T.RepeatingField(cal.MONTH_OF_YEAR, _MONTHS.index(sub_type) + 1, mod)
        if kind == "Day-Of-Week" and sub_type in _DAYS:
            return T.RepeatingField(cal.DAY_OF_WEEK, _DAYS.index(sub_type) + 1, mod)
        if kind == "AMPM-Of-Day" and sub_type in ("AM", "PM"):
            return T.RepeatingField(cal.AMPM_OF_DAY, 0 if sub_type == "AM" else 1, mod)
        if kind in _FIELDS:
            return T.RepeatingField(_FIELDS[kind], self.long_value(entity), mod)
        if kind in _NOT_INTERPRETED or (kind, sub_type) == ("Part-Of-Week", "Weekdays"):
            raise NotInterpreted("%s %s%s" % (kind, entity.id, " Type %s" % sub_type if sub_type else ""))
        raise TimeError("%s %s: cannot interpret as a repeating interval (Type %s)"
                        % (kind, entity.id, quoted(sub_type, 40)))

    def _part_of_day(self, entity, sub_type, mod):
        if sub_type in _PARTS_OF_DAY:
            return T.RepeatingField(_PARTS_OF_DAY[sub_type], 1, mod)
        if sub_type == "Dawn":
            return T.RepeatingField(cal.SECOND_OF_DAY, 5 * 3600, T.Modifier("Approx"))
        if sub_type == "Dusk":
            return T.RepeatingField(cal.SECOND_OF_DAY, 19 * 3600, T.Modifier("Approx"))
        if sub_type == "Noon":
            return T.RepeatingField(cal.MINUTE_OF_DAY, 12 * 60, mod)
        if sub_type == "Midnight":
            return T.RepeatingField(cal.SECOND_OF_DAY, 0, mod)
        if sub_type == "Day":
            raise NotInterpreted("Part-Of-Day %s Type Day" % entity.id)
        raise TimeError("Part-Of-Day %s: cannot interpret Type %s" % (entity.id, quoted(sub_type, 40)))

    def root_year(self, entity, seen=None):
        """The Year at the end of ``entity``'s chain of Super-Intervals, read as an interval, or None."""
        seen = seen or set()
        if entity.id in seen:
            return None
        seen.add(entity.id)
        if entity.type == "Year":
            return self.interval(entity)
        parent = self.get_entity(entity, "Super-Interval")
        return self.root_year(parent, seen) if parent is not None else None

    # ------------------------------------------------------------ any entity
    def temporal(self, entity):
        """Any entity: a number, modifier, period, interval, intervals, time zone or repeating interval."""
        self.depth = 0
        kind = entity.type
        intervals = entity.values("Intervals")
        ri_entities, number_entities = self._links(entity)
        if kind == "Number":
            return self.number(entity)
        if kind == "Modifier":
            return T.Modifier(self.require(entity, "Type"))
        if kind in ("Period", "Sum"):
            return self.period(entity)
        if kind == "Intersection" and len(intervals) > 1 and not ri_entities:
            return self.interval(entity)
        if kind == "Intersection" and len(intervals) == 1 and ri_entities:
            return self.intervals(entity)
        if kind in ("Event", "Year", "Two-Digit-Year", "Between", "This", "Before", "After"):
            return self.interval(entity)
        if kind in ("Last", "Next", "NthFromStart", "NthFromEnd"):
            if not number_entities:
                return self.interval(entity)
            if len(number_entities) == 1:
                return self.intervals(entity)
            raise TimeError("%s %s: expected at most one Number" % (kind, entity.id))
        if kind == "Time-Zone":
            return T.TimeZone(self.text(entity))
        year = self.root_year(entity)
        if year is not None:
            return T.ThisRI(year, self.repeating(entity))
        return self.repeating(entity)


class Timex(object):
    """One interpreted top entity: the entity, its expression, its intervals (empty if none), whether the
    expression itself is defined, a message saying why there is no interval, and the message's ``reason``:

    - ``"interpret"``: the graph cannot be read as a time expression (a value or link the reading does not
      accept: the message says which and what was expected);
    - ``"undefined"``: an expression that denotes no definite time (vague, modified, unknown, an event), or not
      an interval at all (a period, a number): as in the reference, no interval;
    - ``"compute"``: its intervals cannot be computed (outside years 1-9999, intervals that never meet...);
    - ``"limit"``: its search was stopped by the step or time budget (:class:`.types.Budget`);
    - ``"internal"``: an unexpected failure of the interpreter (reported, never raised);
    - ``""``: intervals were found (or none, without failure: ``"no interval"``).
    """

    __slots__ = ("entity", "expression", "intervals", "defined", "message", "reason")

    def __init__(self, entity, expression, intervals, defined=True, message="", reason=""):
        self.entity = entity
        self.expression = expression
        self.intervals = intervals
        self.defined = defined
        self.message = message
        self.reason = reason

    @property
    def span(self):
        """The entity's full character span."""
        return self.entity.full_span

    def __repr__(self):
        return "Timex(%s, %r, %r)" % (self.entity.id, self.intervals, self.message)


def bounded_intervals(expression):
    """The intervals of an interval or intervals expression (computing them), [] for anything else."""
    if isinstance(expression, T.Interval):
        return [T.SimpleInterval(expression.start, expression.end)]
    if isinstance(expression, T.Intervals):
        return [T.SimpleInterval(i.start, i.end) for i in expression.intervals]
    return []


_FAILURES = (TimeError, ValueError, OverflowError, RecursionError)


def interpret(interpreter, entity, budget=None):
    """A :class:`Timex` for ``entity``; any failure gives no interval and a message instead of an exception.

    As the reference scorer: an undefined interval (vague, modified, unknown anchor...) has no interval; an
    undefined *sequence* of intervals (e.g. "this" matching several) keeps its intervals with ``defined`` False.
    Every search is bounded by ``budget`` (default: :data:`.types.DEFAULT_STEPS` steps).
    """
    with T.using(budget if budget is not None else T.Budget(T.DEFAULT_STEPS)):
        try:
            return _interpret(interpreter, entity)
        except T.SearchLimit as error:
            return Timex(entity, None, [], False, str(error), "limit")
        except Exception as error:  # never raised: the caller reports it with the entity's position
            return Timex(entity, None, [], False, "internal error of the interpreter (%s: %s)"
                         % (type(error).__name__, error), "internal")


def _interpret(interpreter, entity):
    try:
        expression = interpreter.temporal(entity)
    except T.SearchLimit:
        raise
    except NotInterpreted as error:
        return Timex(entity, None, [], False, "not interpreted: %s" % error, "undefined")
    except _FAILURES as error:
        return Timex(entity, None, [], False, "cannot interpret: %s" % error, "interpret")
    if not isinstance(expression, (T.Interval, T.Intervals)):
        return Timex(entity, expression, [], False, "not an interval (%s)" % type(expression).__name__,
                     "undefined")
    try:
        defined = expression.defined
    except T.SearchLimit:
        raise
    except _FAILURES:
        defined = False
    if isinstance(expression, T.Interval) and not defined:
        return Timex(entity, expression, [], False, "not a defined interval (%s)" % type(expression).__name__,
                     "undefined")
    try:
        intervals = bounded_intervals(expression)
    except T.SearchLimit:
        raise
    except _FAILURES as error:
        if not defined:   # e.g. "the last few days": an undefined sequence, whose intervals cannot be counted
            return Timex(entity, expression, [], False, "not a defined sequence (%s: %s)"
                         % (type(expression).__name__, error), "undefined")
        return Timex(entity, expression, [], False, "cannot compute intervals: %s" % error, "compute")
    return Timex(entity, expression, intervals, defined, "" if intervals else "no interval")


def interpret_document(document, dct, skip=SKIP_TYPES):
    """A :class:`Timex` for every top entity whose type is not skipped (NotNormalizable, Frequency,
    PreAnnotation), in document order."""
    interpreter = Interpreter(document, dct)
    return [interpret(interpreter, entity) for entity in document.top_entities() if entity.type not in skip]
