"""SCATE time expressions: numbers, periods, intervals, repeating intervals and the operators on them.

Each class follows the semantics of the reference implementation's ``scate/Types.scala``. Intervals are half-open
``[start, end)`` naive date-times. ``defined`` says whether an expression denotes a computable time (a vague number,
a modifier other than exact, an unknown period or interval make it undefined); computing the bounds of an undefined
or impossible expression raises :class:`TimeError`, never anything else that a caller must know.

>>> import datetime
>>> dct = SimpleInterval(datetime.datetime(1998, 3, 1, 14, 11), datetime.datetime(1998, 3, 1, 14, 12))
>>> since_1985 = Between(Year(1985), dct)
>>> since_1985.start, since_1985.end
(datetime.datetime(1986, 1, 1, 0, 0), datetime.datetime(1998, 3, 1, 14, 11))
>>> from .calendar import YEARS
>>> next_3_years = NextP(Year(1985), SimplePeriod(YEARS, IntNumber(3)))
>>> next_3_years.start, next_3_years.end
(datetime.datetime(1986, 1, 1, 0, 0), datetime.datetime(1989, 1, 1, 0, 0))
"""
import datetime
import time

from .calendar import (TimeError, MONTH_OF_YEAR, DAY_OF_MONTH, truncate, add_months)
from .calendar import MILLENNIA as cal_MILLENNIA

#: At most this many intervals from one repeating interval, for one question (an impossible combination, or
#: "the last million seconds", ends here with a message instead of a silently shortened answer).
MAX_STEPS = 20000
#: The steps (one per interval stepped over, candidate tried or period added, in every search along the
#: timeline) that computing one time expression may take: at most about 0.3 s of CPU on the 2-core reference
#: machine (2-3 microseconds a step); the public gold needs at most 166 for one expression.
DEFAULT_STEPS = 100000
ONE_TICK = datetime.timedelta(microseconds=1)


class SearchLimit(TimeError):
    """A computation stopped by its :class:`Budget` (``reason``: "steps" or "time")."""

    def __init__(self, message, reason="steps"):
        TimeError.__init__(self, message)
        self.reason = reason


class Budget(object):
    """The steps (and optionally the ``deadline``, a :func:`time.process_time` value) that the searches
    may still take; :func:`tick` spends them. Computing an expression is bounded by the budget in force
    (:func:`using`), so that no input makes a search run for long: every loop along the timeline ticks, a step
    whose work grows with the size of the expression (a union of many repeating intervals) spending as many.

    >>> from .calendar import DAYS
    >>> with using(Budget(3)):
    ...     try:
    ...         NthP(Year(1998), 10, SimplePeriod(DAYS, 1)).start
    ...     except SearchLimit as error:
    ...         print(error)
    search stopped after 3 steps (an expression that steps along the timeline too long)
    """

    #: The clock is read every this many steps.
    CLOCK_STEPS = 1024

    def __init__(self, steps, deadline=None):
        self.steps = steps
        self.left = steps
        self.deadline = deadline
        self.check = max(0, steps - self.CLOCK_STEPS)

    @property
    def used(self):
        """The steps spent so far."""
        return self.steps - self.left

    def checkpoint(self):
        """Raise :class:`SearchLimit` when no step is left or the deadline has passed; else plan the next check."""
        if self.left < 0:
            self.left = 0
            raise SearchLimit("search stopped after %d steps (an expression that steps along the timeline too long)"
                              % self.steps)
        if self.deadline is not None and time.process_time() > self.deadline:
            raise SearchLimit("search stopped: the document's time budget is used up", "time")
        self.check = max(0, self.left - self.CLOCK_STEPS)


_current = Budget(DEFAULT_STEPS)


class using(object):
    """Context manager: ``budget`` is the one in force inside the block (the previous one is restored)."""

    def __init__(self, budget):
        self.budget = budget
        self.previous = None

    def __enter__(self):
        global _current
        self.previous, _current = _current, self.budget
        return self.budget

    def __exit__(self, *exc):
        global _current
        _current = self.previous
        return False


def tick(cost=1):
    """Spend ``cost`` steps of the budget in force; :class:`SearchLimit` when they run out or its deadline has
    passed (the clock is read every :attr:`Budget.CLOCK_STEPS` steps)."""
    budget = _current
    budget.left -= cost
    if budget.left < budget.check:
        budget.checkpoint()


def _capped(what):
    """The error of a generator that reached :data:`MAX_STEPS` intervals."""
    return TimeError("more than %d %s (an expression with too many intervals, or no end to its search)"
                     % (MAX_STEPS, what))


class TimeExpression(object):
    """Base of all time expressions."""

    defined = True

    def __repr__(self):
        fields = ", ".join("%s=%r" % item for item in sorted(vars(self).items()) if not item[0].startswith("_"))
        return "%s(%s)" % (type(self).__name__, fields)


# ---------------------------------------------------------------- numbers and modifiers

class Number(TimeExpression):
    """A number (integer, fractional or vague)."""


class IntNumber(Number):
    """An integer number."""

    def __init__(self, n):
        self.n = n


class FractionalNumber(Number):
    """``number`` + ``numerator``/``denominator`` (defined, but periods do not support it)."""

    def __init__(self, number, numerator, denominator):
        self.number = number
        self.numerator = numerator
        self.denominator = denominator


class VagueNumber(Number):
    """A number like "several" or "2+": undefined."""

    defined = False

    def __init__(self, description):
        self.description = description


def integer_of(number, owner):
    """The int of an :class:`IntNumber`; other numbers raise :class:`TimeError` naming ``owner``."""
    if isinstance(number, IntNumber):
        return number.n
    raise TimeError("%s does not support %s" % (owner, type(number).__name__))


class Modifier(TimeExpression):
    """A modifier (Approx, Less-Than, More-Than, Start, Mid, End, Fiscal): undefined."""

    defined = False

    def __init__(self, kind):
        self.kind = kind


def _unmodified(modifier):
    return modifier is None or modifier.kind == "Exact"


class TimeZone(TimeExpression):
    """A time zone: recognised, never interpreted (undefined)."""

    defined = False

    def __init__(self, name):
        self.name = name


# ---------------------------------------------------------------- periods

class Period(TimeExpression):
    """An amount of time made of units; ``cost``: the steps one addition of it is worth (its parts)."""

    cost = 1

    def units(self):
        """{unit: amount}."""
        raise TimeError("%s has no units" % type(self).__name__)

    def add_to(self, moment):
        """``moment`` plus the period (largest unit first)."""
        for unit, amount in sorted(self.units().items(), key=lambda item: -item[0].seconds):
            moment = unit.add(moment, amount)
        return moment

    def subtract_from(self, moment):
        """``moment`` minus the period (largest unit first)."""
        for unit, amount in sorted(self.units().items(), key=lambda item: -item[0].seconds):
            moment = unit.add(moment, -amount)
        return moment


class SimplePeriod(Period):
    """``n`` times ``unit``; with a non-exact modifier or a vague number it is undefined."""

    def __init__(self, unit, n, modifier=None):
        self.unit = unit
        self.n = n if isinstance(n, Number) else IntNumber(n)
        self.modifier = modifier
        self.defined = self.n.defined and _unmodified(modifier)

    def units(self):
        """{unit: n}."""
        return {self.unit: integer_of(self.n, "SimplePeriod")}


class UnknownPeriod(Period):
    """A period of unknown length: undefined."""

    defined = False


class SumP(Period):
    """The sum of periods."""

    def __init__(self, periods, modifier=None):
        self.periods = list(periods)
        self.modifier = modifier
        self.defined = all(p.defined for p in self.periods) and _unmodified(modifier)
        self.cost = 1 + sum(p.cost for p in self.periods)

    def units(self):
        """The units of all periods, amounts summed per unit."""
        total = {}
        for period in self.periods:
            for unit, amount in period.units().items():
                total[unit] = total.get(unit, 0) + amount
        return total


def one_unit(period):
    """One of the period's largest unit."""
    return SimplePeriod(max(period.units(), key=lambda unit: unit.seconds), 1)


# ---------------------------------------------------------------- intervals

class Interval(TimeExpression):
    """A half-open interval ``[start, end)``; subclasses compute :meth:`bounds`."""

    _cache = None

    def bounds(self):
        """(start, end), computed once."""
        if self._cache is None:
            self._cache = self._bounds()
        return self._cache

    def _bounds(self):
        raise TimeError("%s has no bounds" % type(self).__name__)

    @property
    def start(self):
        """The first instant."""
        return self.bounds()[0]

    @property
    def end(self):
        """The first instant after the interval."""
        return self.bounds()[1]

    def contains(self, other):
        """Whether ``other`` lies inside this interval."""
        return other.start >= self.start and other.end <= self.end


class SimpleInterval(Interval):
    """An interval given by its bounds."""

    def __init__(self, start, end):
        self._cache = (start, end)

    def __eq__(self, other):
        return isinstance(other, Interval) and self.bounds() == other.bounds()

    def __hash__(self):
        return hash(self.bounds())

    def __repr__(self):
        return "SimpleInterval(%s, %s)" % (self.start.isoformat(), self.end.isoformat())


def unit_interval(start, unit):
    """``[start, start + 1 unit)``."""
    return SimpleInterval(start, unit.add(start, 1))


class UnknownInterval(Interval):
    """An interval that is not known: undefined."""

    defined = False


class Event(Interval):
    """An event: undefined (events have no position on the timeline here)."""

    defined = False

    def __init__(self, description=""):
        self.description = description


class Year(Interval):
    """A year, or a decade/century with ``n_missing`` trailing digits unknown ("199?" is the 1990s)."""

    def __init__(self, digits, n_missing=0):
        self.digits = digits
        self.n_missing = n_missing

    def _bounds(self):
        span = 10 ** self.n_missing
        year = self.digits * span
        if not 1 <= year <= 9999:
            raise TimeError("year %d is outside 1-9999" % year)
        start = datetime.datetime(year, 1, 1)
        return start, add_months(start, 12 * span)


class YearSuffix(Interval):
    """The last digits of a year, completed from the digits of ``interval``'s start year ("'98" in 1997)."""

    def __init__(self, interval, last_digits, n_suffix, n_missing=0):
        self.interval = interval
        self.last_digits = last_digits
        self.n_suffix = n_suffix
        self.n_missing = n_missing
        self.defined = interval.defined

    def _bounds(self):
        divider = 10 ** (self.n_suffix + self.n_missing)
        multiplier = 10 ** self.n_suffix
        year = self.interval.start.year // divider * multiplier + self.last_digits
        return Year(year, self.n_missing).bounds()


class _IP(Interval):
    """An operator on an interval and a period."""

    def __init__(self, interval, period):
        self.interval = interval
        self.period = period
        self.defined = interval.defined and period.defined


def expand(interval, period):
    """An interval of length ``period`` centred on ``interval``'s middle."""
    start, end = interval.bounds()
    middle = start + (end - start) / 2
    half = (start - period.subtract_from(start)) / 2
    new_start = middle - half
    return SimpleInterval(new_start, period.add_to(new_start))


def expand_if_larger(interval, period):
    """``interval`` itself, or :func:`expand` when ``period`` is longer than it."""
    if interval.end < period.add_to(interval.start):
        return expand(interval, period)
    return interval


class ThisP(_IP):
    """"this year" as a period around an interval: a period-long interval centred on the interval."""

    def _bounds(self):
        return expand(self.interval, self.period).bounds()


class LastP(_IP):
    """The period just before the interval's start ("the last three years")."""

    def _bounds(self):
        return self.period.subtract_from(self.interval.start), self.interval.start


class NextP(_IP):
    """The period just after the interval's end ("the next three years")."""

    def _bounds(self):
        return self.interval.end, self.period.add_to(self.interval.end)


class BeforeP(_IP):
    """The interval shifted back by the period ("three years ago"), widened to one unit of the period if shorter."""

    def _bounds(self):
        shifted = SimpleInterval(self.period.subtract_from(self.interval.start),
                                 self.period.subtract_from(self.interval.end))
        return expand_if_larger(shifted, one_unit(self.period)).bounds()


class AfterP(_IP):
    """The interval shifted forward by the period ("three years later"), widened to one unit if shorter."""

    def _bounds(self):
        shifted = SimpleInterval(self.period.add_to(self.interval.start), self.period.add_to(self.interval.end))
        return expand_if_larger(shifted, one_unit(self.period)).bounds()


class NthP(_IP):
    """The ``index``-th period-long stretch from the interval's start (or, ``from_end``, from its end)."""

    def __init__(self, interval, index, period, from_end=False):
        _IP.__init__(self, interval, period)
        self.index = index
        self.from_end = from_end

    def _bounds(self):
        if self.index < 1:
            raise TimeError("expected an index of at least 1, got %d" % self.index)
        if self.from_end:
            end = self.interval.end
            for _ in range(self.index - 1):
                tick(self.period.cost)
                end = self.period.subtract_from(end)
            return self.period.subtract_from(end), end
        start = self.interval.start
        for _ in range(self.index - 1):
            tick(self.period.cost)
            start = self.period.add_to(start)
        return start, self.period.add_to(start)


class Between(Interval):
    """From the end of one interval to the start of another (each bound optionally included)."""

    def __init__(self, start_interval, end_interval, start_included=False, end_included=False):
        self.start_interval = start_interval
        self.end_interval = end_interval
        self.start_included = start_included
        self.end_included = end_included

    @property
    def defined(self):
        """Both intervals defined and the first ending strictly before the second starts."""
        return (self.start_interval.defined and self.end_interval.defined
                and self.start_interval.end < self.end_interval.start)

    def _bounds(self):
        start = self.start_interval.start if self.start_included else self.start_interval.end
        end = self.end_interval.end if self.end_included else self.end_interval.start
        return start, end


class IntersectionI(Interval):
    """The intersection of intervals (an error if they do not all overlap)."""

    def __init__(self, intervals):
        self.intervals = list(intervals)
        self.defined = all(i.defined for i in self.intervals)

    def _bounds(self):
        if not self.intervals:
            raise TimeError("an intersection of no intervals")
        ordered = sorted(self.intervals, key=lambda i: i.start)
        start, end = ordered[0].bounds()
        for other in ordered[1:]:
            if not end > other.start:
                raise TimeError("intervals do not intersect")
            start, end = max(start, other.start), min(end, other.end)
        return start, end


def first_point(interval):
    """The interval's start (the reference's Interval.Start)."""
    return interval.start


def last_point(interval):
    """The interval's end (the reference's Interval.End)."""
    return interval.end


def _take(iterator, count):
    """The first ``count`` items (fewer if the iterator ends); never asks for one more."""
    result = []
    if count < 1:
        return result
    for item in iterator:
        tick()
        result.append(item)
        if len(result) >= count:
            break
    return result


def _nth(iterator, index):
    """The ``index``-th (1-based) item."""
    if index < 1:
        raise TimeError("expected an index of at least 1, got %d" % index)
    for position, item in enumerate(iterator, 1):
        tick()
        if position == index:
            return item
    raise TimeError("no item %d" % index)


class _IRI(TimeExpression):
    """An operator on an interval, a repeating interval and a count."""

    def _setup(self, interval, repeating, number, point):
        self.interval = interval
        self.repeating = repeating
        self.number = number if isinstance(number, Number) else IntNumber(number)
        self.point = point

    @property
    def defined(self):
        """Interval, repeating interval and number all defined."""
        return self.interval.defined and self.repeating.defined and self.number.defined

    @property
    def count(self):
        """The number as an int."""
        return integer_of(self.number, type(self).__name__)


class Intervals(TimeExpression):
    """A sequence of intervals; subclasses compute :meth:`_intervals`."""

    _list = None

    @property
    def intervals(self):
        """The intervals, computed once."""
        if self._list is None:
            self._list = list(self._intervals())
        return self._list


def _single(intervals, owner):
    if len(intervals) != 1:
        raise TimeError("%s expected exactly one interval, found %d" % (owner, len(intervals)))
    return intervals[0].bounds()


def _this_intervals(interval, repeating):
    if repeating.range is None:
        raise TimeError("%s cannot be located" % type(repeating).__name__)
    range_start = truncate(interval.start, repeating.range)
    range_end = repeating.range.add(truncate(interval.end - ONE_TICK, repeating.range), 1)
    result = []
    for item in repeating.following(range_start):
        tick()
        if not item.start < range_end:
            break
        result.append(item)
    return result


class ThisRI(Interval):
    """The one repeating interval inside the range-unit span of ``interval`` ("this January" in 1998)."""

    def __init__(self, interval, repeating):
        self.interval = interval
        self.repeating = repeating

    @property
    def defined(self):
        """Both defined and exactly one repeating interval in the span."""
        return self.interval.defined and self.repeating.defined and len(_this_intervals(self.interval,
                                                                                        self.repeating)) == 1

    def _bounds(self):
        return _single(_this_intervals(self.interval, self.repeating), "This")


class ThisRIs(Intervals):
    """All the repeating intervals inside the range-unit span of ``interval`` ("Saturdays in March")."""

    def __init__(self, interval, repeating):
        self.interval = interval
        self.repeating = repeating

    @property
    def defined(self):
        """As the reference: both defined and exactly one interval found."""
        return self.interval.defined and self.repeating.defined and len(self.intervals) == 1

    def _intervals(self):
        return _this_intervals(self.interval, self.repeating)


class LastRI(Interval, _IRI):
    """The latest repeating interval ending before the interval's start (or end, when included)."""

    def __init__(self, interval, repeating, point=first_point):
        self._setup(interval, repeating, 1, point)

    def _bounds(self):
        return _single(_take(self.repeating.preceding(self.point(self.interval)), 1), "Last")


class LastRIs(Intervals, _IRI):
    """The ``number`` latest repeating intervals ending before the interval's start (or end)."""

    def __init__(self, interval, repeating, number=1, point=first_point):
        self._setup(interval, repeating, number, point)

    def _intervals(self):
        return _take(self.repeating.preceding(self.point(self.interval)), self.count)


class NextRI(Interval, _IRI):
    """The earliest repeating interval starting after the interval's end (or start, when included)."""

    def __init__(self, interval, repeating, point=last_point):
        self._setup(interval, repeating, 1, point)

    def _bounds(self):
        return _single(_take(self.repeating.following(self.point(self.interval)), 1), "Next")


class NextRIs(Intervals, _IRI):
    """The ``number`` earliest repeating intervals starting after the interval's end (or start)."""

    def __init__(self, interval, repeating, number=1, point=last_point):
        self._setup(interval, repeating, number, point)

    def _intervals(self):
        return _take(self.repeating.following(self.point(self.interval)), self.count)


class BeforeRI(Interval, _IRI):
    """The ``number``-th repeating interval before the interval's start (or end)."""

    def __init__(self, interval, repeating, number=1, point=first_point):
        self._setup(interval, repeating, number, point)

    def _bounds(self):
        return _nth(self.repeating.preceding(self.point(self.interval)), self.count).bounds()


class AfterRI(Interval, _IRI):
    """The ``number``-th repeating interval after the interval's end (or start)."""

    def __init__(self, interval, repeating, number=1, point=last_point):
        self._setup(interval, repeating, number, point)

    def _bounds(self):
        return _nth(self.repeating.following(self.point(self.interval)), self.count).bounds()


def _from_point(interval, repeating, from_end):
    if from_end:
        return repeating.preceding(interval.end)
    return repeating.following(interval.start)


class NthRI(Interval, _IRI):
    """The ``index``-th repeating interval counted from the interval's start (or end), inside the interval."""

    def __init__(self, interval, index, repeating, from_end=False):
        self._setup(interval, repeating, 1, first_point)
        self.index = index
        self.from_end = from_end

    def _found(self):
        return _nth(_from_point(self.interval, self.repeating, self.from_end), self.index)

    @property
    def defined(self):
        """Defined parts and the found interval inside ``interval``."""
        return _IRI.defined.fget(self) and self.interval.contains(self._found())

    def _bounds(self):
        found = self._found()
        if not self.interval.contains(found):
            raise TimeError("the %d-th repeating interval is outside the interval" % self.index)
        return found.bounds()


class NthRIs(Intervals, _IRI):
    """The ``index``-th group of ``number`` repeating intervals from the interval's start (or end), inside it."""

    def __init__(self, interval, index, repeating, number=1, from_end=False):
        self._setup(interval, repeating, number, first_point)
        self.index = index
        self.from_end = from_end

    def _intervals(self):
        if self.index < 1 or self.count < 1:
            raise TimeError("expected an index and a number of at least 1")
        items = _take(_from_point(self.interval, self.repeating, self.from_end), self.index * self.count)
        group = items[(self.index - 1) * self.count:]
        if len(group) != self.count or not all(self.interval.contains(i) for i in group):
            raise TimeError("one of the repeating intervals is outside the interval")
        return group


# ---------------------------------------------------------------- repeating intervals

class RepeatingInterval(TimeExpression):
    """Intervals that repeat along the timeline (every January, every day); ``base`` and ``range`` units."""

    def preceding(self, moment):
        """Generator of the repeating intervals that end no later than ``moment``, latest first."""
        raise TimeError("%s cannot be located" % type(self).__name__)

    def following(self, moment):
        """Generator of the repeating intervals that start no earlier than ``moment``, earliest first."""
        raise TimeError("%s cannot be located" % type(self).__name__)


class UnknownRepeatingInterval(RepeatingInterval):
    """A repeating interval of unknown type: undefined."""

    defined = False
    base = range = None


class RepeatingUnit(RepeatingInterval):
    """Every calendar unit (every month, every week...)."""

    def __init__(self, unit, modifier=None):
        self.unit = unit
        self.base = unit
        self.range = unit
        self.modifier = modifier
        self.defined = _unmodified(modifier)

    def _month_start(self, index):
        """The start of month number ``index`` (year * 12 + month - 1); year 0 is clipped to 0001-01-01."""
        year, month = divmod(index, 12)
        if year > 9999:
            raise TimeError("year %d is outside 1-9999" % year)
        return datetime.datetime(year, month + 1, 1) if year >= 1 else datetime.datetime(1, 1, 1)

    def _calendar_index(self, moment):
        """The month number where ``moment``'s unit starts (units of whole months, aligned as java's truncation,
        so that the century of year 1 starts at year 0), or None for other units."""
        if self.unit.months and self.unit is not cal_MILLENNIA:
            months = moment.year * 12 + moment.month - 1
            return months // self.unit.months * self.unit.months
        return None

    def preceding(self, moment):
        """Whole units ending at or before the start of ``moment``'s unit, latest first."""
        index = self._calendar_index(moment)
        if index is not None:
            for _ in range(MAX_STEPS):
                tick()
                index -= self.unit.months
                yield SimpleInterval(self._month_start(index), self._month_start(index + self.unit.months))
            raise _capped(self.unit.name)
        start = truncate(moment, self.unit)
        for _ in range(MAX_STEPS):
            tick()
            end = start
            start = self.unit.add(start, -1)
            yield SimpleInterval(start, end)
        raise _capped(self.unit.name)

    def following(self, moment):
        """Whole units starting at or after ``moment``, earliest first."""
        index = self._calendar_index(moment)
        if index is not None:
            if self._month_start(index) < moment:
                index += self.unit.months
            for _ in range(MAX_STEPS):
                tick()
                yield SimpleInterval(self._month_start(index), self._month_start(index + self.unit.months))
                index += self.unit.months
            raise _capped(self.unit.name)
        truncated = truncate(moment, self.unit)
        end = self.unit.add(truncated, 1) if truncated < moment else truncated
        for _ in range(MAX_STEPS):
            tick()
            start = end
            end = self.unit.add(start, 1)
            yield SimpleInterval(start, end)
        raise _capped(self.unit.name)


class RepeatingField(RepeatingInterval):
    """Every stretch where a field has a value (every March, every 15th, every morning)."""

    def __init__(self, field, value, modifier=None):
        self.field = field
        self.value = value
        self.modifier = modifier
        self.base = field.base
        self.range = field.range
        self.defined = field.valid(value) and _unmodified(modifier)

    def _with_value(self, moment, sign):
        if not self.field.valid(self.value):
            raise TimeError("%s value %s is outside %d-%d" % (self.field.name, self.value, self.field.low,
                                                             self.field.high))
        for step in range(MAX_STEPS):
            tick()
            try:
                return self.field.set(self.field.range.add(moment, sign * step), self.value)
            except TimeError:
                continue
        raise TimeError("no %s %s found" % (self.field.name, self.value))

    def _step_range(self, moment, sign):
        for step in range(1, MAX_STEPS):
            tick()
            candidate = self.field.range.add(moment, sign * step)
            if self.field.get(candidate) == self.value:
                return candidate
        raise TimeError("no %s %s found" % (self.field.name, self.value))

    def _interval(self, start):
        return SimpleInterval(start, self.field.base.add(start, 1))

    def preceding(self, moment):
        """The stretches ending before ``moment`` (as the reference steps them), latest first."""
        start = truncate(self._with_value(moment, 1), self.field.base)
        if not moment < self.field.base.add(start, 1):
            start = self._step_range(start, 1)
        for _ in range(MAX_STEPS):
            start = self._step_range(start, -1)
            yield self._interval(start)
        raise _capped(self.field.name)

    def following(self, moment):
        """The stretches starting at or after ``moment``, earliest first."""
        start = truncate(self._with_value(moment, -1), self.field.base)
        if not start < moment:
            start = self._step_range(start, -1)
        for _ in range(MAX_STEPS):
            start = self._step_range(start, 1)
            yield self._interval(start)
        raise _capped(self.field.name)


def _locatable(repeating):
    """TimeError when ``repeating`` has no units (one of its parts is of unknown type)."""
    if repeating.base is None:
        raise TimeError("%s with a part of unknown type cannot be located" % type(repeating).__name__)


def _length(interval):
    return interval.end - interval.start


def _combined(repeatings):
    """(defined, smallest base unit, largest range unit) of the repeating intervals of a union or intersection;
    with one of unknown type (no units) the whole is undefined and has no units: it cannot be located."""
    if any(r.base is None or r.range is None for r in repeatings):
        return False, None, None
    return (all(r.defined for r in repeatings), min((r.base for r in repeatings), key=lambda u: u.seconds),
            max((r.range for r in repeatings), key=lambda u: u.seconds))


class UnionRI(RepeatingInterval):
    """Every interval of any of the repeating intervals, merged in time order."""

    def __init__(self, repeatings):
        self.repeatings = list(repeatings)
        if not self.repeatings:
            raise TimeError("a union of no repeating intervals")
        self.defined, self.base, self.range = _combined(self.repeatings)

    def preceding(self, moment):
        """Latest first: the interval with the latest end (the longer one on ties) next."""
        _locatable(self)
        iterators = [_Peek(r.preceding(moment)) for r in self.repeatings]
        for _ in range(MAX_STEPS):
            tick(len(iterators))
            best = max(iterators, key=lambda it: (it.head.end, _length(it.head)))
            yield best.next()
        raise _capped("intervals of a union")

    def following(self, moment):
        """Earliest first: the interval with the earliest start (the shorter one on ties) next."""
        _locatable(self)
        iterators = [_Peek(r.following(moment)) for r in self.repeatings]
        for _ in range(MAX_STEPS):
            tick(len(iterators))
            best = min(iterators, key=lambda it: (it.head.start, _length(it.head)))
            yield best.next()
        raise _capped("intervals of a union")


class _Peek(object):
    """An iterator with a look at its next item."""

    def __init__(self, iterator):
        self.iterator = iter(iterator)
        self._head = []

    @property
    def head(self):
        """The next item, not consumed."""
        if not self._head:
            try:
                self._head.append(next(self.iterator))
            except StopIteration:
                raise TimeError("a repeating interval ran out of intervals")
        return self._head[0]

    def next(self):
        """Consume and return the next item."""
        item = self.head
        self._head.pop()
        return item

    def take_while(self, predicate):
        """Consume and return the leading items that satisfy ``predicate``."""
        result = []
        while predicate(self.head):
            tick()
            result.append(self.next())
        return result


def _overlaps(interval, intervals):
    return any(interval.start < other.end and other.start < interval.end for other in intervals)


class IntersectionRI(RepeatingInterval):
    """Intervals of the largest-range repeating interval narrowed by the others ("Thursday nights")."""

    def __init__(self, repeatings):
        self.repeatings = list(repeatings)
        if not self.repeatings:
            raise TimeError("an intersection of no repeating intervals")
        self.defined, self.base, self.range = _combined(self.repeatings)
        self._check_month_day()
        if self.base is not None:
            self.sorted = sorted(self.repeatings, key=lambda r: (r.range.seconds, r.base.seconds), reverse=True)

    def _check_month_day(self):
        fields = dict((r.field, r.value) for r in self.repeatings if isinstance(r, RepeatingField))
        month, day = fields.get(MONTH_OF_YEAR), fields.get(DAY_OF_MONTH)
        if month is not None and day is not None:
            if not (1 <= month <= 12 and 1 <= day <= (29, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month]):
                raise TimeError("month %s has no day %s" % (month, day))

    def preceding(self, moment):
        """Latest first."""
        _locatable(self)
        first = next(iter(self.sorted[0].preceding(moment)))
        point = first.end
        if self.range.add(first.start, 1) < moment:
            point = self.range.add(point, 1)
        return self._walk(point, -1)

    def following(self, moment):
        """Earliest first."""
        _locatable(self)
        first = next(iter(self.sorted[0].following(moment)))
        point = first.start
        if self.range.add(first.end, -1) > moment:
            point = self.range.add(point, -1)
        return self._walk(point, 1)

    def _walk(self, point, sign):
        """The reference's walk: step ``point`` by the range unit, take the next interval of the first repeating
        interval, and narrow it by the intervals of each other one that lie before ``point`` and overlap."""
        lead = _Peek(self.sorted[0].preceding(point) if sign < 0 else self.sorted[0].following(point))
        others = [_Others(r, point, sign) for r in self.sorted[1:]]
        previous = None
        empty = 0
        while empty < MAX_STEPS:
            while True:
                tick(len(others) + 1)
                point = self.range.add(point, sign)
                heads = [lead.head] + [o.head(previous) for o in others]
                if sign < 0 and not any(point > h.start for h in heads):
                    break
                if sign > 0 and not any(point < h.end for h in heads):
                    break
            found = [lead.next()]
            for other in others:
                found = other.group(found, previous, point)
            previous = point
            empty = 0 if found else empty + 1
            for item in found:
                yield item
        raise TimeError("the repeating intervals never intersect")


class _Others(object):
    """One of the narrowing repeating intervals of an :class:`IntersectionRI` walk.

    The reference consumes every interval up to the walk's point (every second of a year, for a second-of-minute).
    For a unit or a plain field, whose ``following(t)``/``preceding(t)`` are exactly the intervals starting at or
    after t / ending at or before t, the same groups are found by asking only around the intervals to narrow.
    Other repeating intervals are consumed as the reference does.
    """

    def __init__(self, repeating, origin, sign):
        self.r = repeating
        self.origin = origin
        self.sign = sign
        self.fast = isinstance(repeating, RepeatingUnit) or (
            isinstance(repeating, RepeatingField) and not hasattr(repeating.field, "partial"))
        if not self.fast:
            self.peek = _Peek(repeating.preceding(origin) if sign < 0 else repeating.following(origin))

    def _after(self, moment):
        return iter(self.r.following(moment))

    def _before(self, moment, previous):
        upper = self.origin if previous is None else min(self.origin, self.r.base.add(previous, 2))
        for item in self.r.preceding(upper):
            tick()
            if previous is None or item.start <= previous:
                yield item

    def head(self, previous):
        """The first interval not yet consumed."""
        if not self.fast:
            return self.peek.head
        if self.sign > 0:
            return next(self._after(self.origin if previous is None else previous))
        return next(self._before(self.origin, previous))

    def group(self, found, previous, point):
        """The intervals consumed by this step that overlap ``found``, in time order of the walk."""
        if not self.fast:
            if self.sign < 0:
                items = self.peek.take_while(lambda i: i.start > point)
            else:
                items = self.peek.take_while(lambda i: i.start < point)
            return [i for i in items if _overlaps(i, found)]
        result = {}
        for interval in found:
            for item in self._around(interval, previous, point):
                result[item.bounds()] = item
        return [result[key] for key in sorted(result, reverse=self.sign < 0)]

    def _around(self, interval, previous, point):
        if self.sign > 0:
            lower = self.r.base.add(interval.start, -2)
            lower = max(lower, self.origin if previous is None else previous)
            for item in self._after(lower):
                tick()
                if item.start >= point or item.start >= interval.end:
                    return
                if item.end > interval.start:
                    yield item
        else:
            upper = min(self.origin, self.r.base.add(interval.end, 2))
            for item in self.r.preceding(upper):
                tick()
                if item.start <= point or item.end <= interval.start:
                    return
                if (previous is None or item.start <= previous) and item.start < interval.end:
                    yield item
