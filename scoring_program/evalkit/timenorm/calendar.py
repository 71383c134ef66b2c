"""Calendar arithmetic on naive date-times (no time zone, no daylight saving: UTC semantics).

Units (:class:`Unit`) add to a date-time and truncate it; fields (:class:`Field`) read and set a value of a date-time
(month of year, day of week, morning of day, ...). Their behaviour follows java.time as the reference implementation
uses it: adding months clamps the day to the month's length, weeks truncate to Monday but never before January 1st,
clock hours run 1-24, the parts of the day, the weekend and the seasons are "partial ranges" of a day, week or year.

>>> import datetime
>>> MONTHS.add(datetime.datetime(2000, 1, 31), 1)
datetime.datetime(2000, 2, 29, 0, 0)
>>> truncate(datetime.datetime(2002, 3, 22, 11, 30), WEEKS)
datetime.datetime(2002, 3, 18, 0, 0)
"""
import calendar as _calendar
import datetime

YEAR_SECONDS = 31556952  # java.time's estimated year: 365.2425 days


class TimeError(Exception):
    """A time expression that cannot be computed (an impossible date, a missing value, an unsupported unit)."""


def add_months(moment, months):
    """``moment`` plus ``months`` calendar months, the day clamped to the target month's length."""
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise TimeError("year %d is outside 1-9999" % year)
    day = min(moment.day, _calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def _add_delta(moment, delta):
    try:
        return moment + delta
    except OverflowError:
        raise TimeError("date-time outside years 1-9999")


class Unit(object):
    """A temporal unit: a name, an estimated duration in seconds (for ordering) and an ``add`` method."""

    def __init__(self, name, seconds, months=0, delta=None):
        self.name = name
        self.seconds = seconds
        self.months = months
        self.delta = delta

    def add(self, moment, amount):
        """``moment`` plus ``amount`` of this unit (negative amounts subtract)."""
        if self.months:
            return add_months(moment, self.months * amount)
        if self.delta is not None:
            return _add_delta(moment, self.delta * amount)
        raise TimeError("cannot add %s" % self.name)

    def __repr__(self):
        return self.name


SECONDS = Unit("Seconds", 1, delta=datetime.timedelta(seconds=1))
MINUTES = Unit("Minutes", 60, delta=datetime.timedelta(minutes=1))
HOURS = Unit("Hours", 3600, delta=datetime.timedelta(hours=1))
HALF_DAYS = Unit("HalfDays", 43200, delta=datetime.timedelta(hours=12))
DAYS = Unit("Days", 86400, delta=datetime.timedelta(days=1))
WEEKS = Unit("Weeks", 7 * 86400, delta=datetime.timedelta(days=7))
MONTHS = Unit("Months", YEAR_SECONDS / 12.0, months=1)
QUARTER_YEARS = Unit("QuarterYears", YEAR_SECONDS / 4.0, months=3)
YEARS = Unit("Years", YEAR_SECONDS, months=12)
DECADES = Unit("Decades", YEAR_SECONDS * 10, months=120)
QUARTER_CENTURIES = Unit("QuarterCenturies", YEAR_SECONDS * 25, months=300)
CENTURIES = Unit("Centuries", YEAR_SECONDS * 100, months=1200)
MILLENNIA = Unit("Millennia", YEAR_SECONDS * 1000, months=12000)

# the reference's Period/Calendar-Interval Type names
UNITS_BY_PLURAL = {"Seconds": SECONDS, "Minutes": MINUTES, "Hours": HOURS, "Days": DAYS, "Weeks": WEEKS,
                   "Months": MONTHS, "Quarter-Years": QUARTER_YEARS, "Years": YEARS, "Decades": DECADES,
                   "Quarter-Centuries": QUARTER_CENTURIES, "Centuries": CENTURIES, "Millennia": MILLENNIA}


def _floor(moment, unit_seconds):
    since = moment - datetime.datetime(moment.year, moment.month, moment.day)
    kept = (since // datetime.timedelta(seconds=unit_seconds)) * datetime.timedelta(seconds=unit_seconds)
    return datetime.datetime(moment.year, moment.month, moment.day) + kept


def truncate(moment, unit):
    """The start of the ``unit`` that contains ``moment`` (weeks start on Monday but never before January 1st).

    >>> truncate(datetime.datetime(2001, 1, 3, 5), WEEKS)
    datetime.datetime(2001, 1, 1, 0, 0)
    >>> truncate(datetime.datetime(1999, 7, 8), QUARTER_CENTURIES)
    datetime.datetime(1975, 1, 1, 0, 0)
    """
    if unit is CENTURIES:
        return datetime.datetime(max(1, moment.year // 100 * 100), 1, 1)
    if unit is QUARTER_CENTURIES:
        return datetime.datetime(max(1, moment.year // 25 * 25), 1, 1)
    if unit is DECADES:
        return datetime.datetime(max(1, moment.year // 10 * 10), 1, 1)
    if unit is YEARS:
        return datetime.datetime(moment.year, 1, 1)
    if unit is QUARTER_YEARS:
        return datetime.datetime(moment.year, (moment.month - 1) // 3 * 3 + 1, 1)
    if unit is MONTHS:
        return datetime.datetime(moment.year, moment.month, 1)
    if unit is WEEKS:
        day_of_year = moment.timetuple().tm_yday
        start = max(1, day_of_year - moment.isoweekday() + 1)
        return datetime.datetime(moment.year, 1, 1) + datetime.timedelta(days=start - 1)
    if isinstance(unit, PartialRange):
        return unit.truncate(moment)
    if unit in (DAYS, HALF_DAYS, HOURS, MINUTES, SECONDS):
        return _floor(moment, unit.seconds)
    raise TimeError("%s is too large a unit to truncate to" % unit.name)


class Field(object):
    """A date-time field: ``get`` reads its value, ``set`` returns the date-time with the value changed.

    ``base`` is the unit one value lasts, ``range`` the unit the values repeat in, ``low``/``high`` the valid values.
    """

    def __init__(self, name, base, range, low, high, get, set):
        self.name = name
        self.base = base
        self.range = range
        self.low = low
        self.high = high
        self._get = get
        self._set = set

    def valid(self, value):
        """Whether ``value`` is within the field's range."""
        return self.low <= value <= self.high

    def get(self, moment):
        """The field's value at ``moment``."""
        return self._get(moment)

    def set(self, moment, value):
        """``moment`` with the field set to ``value`` (raises :class:`TimeError` when impossible)."""
        if not self.valid(value):
            raise TimeError("%s value %s is outside %d-%d" % (self.name, value, self.low, self.high))
        try:
            return self._set(moment, value)
        except (ValueError, OverflowError) as error:
            raise TimeError(str(error))

    def __repr__(self):
        return self.name


def _day_of_year(moment):
    return moment.timetuple().tm_yday


def _set_day_of_year(moment, value):
    if value > (366 if _calendar.isleap(moment.year) else 365):
        raise TimeError("day of year %d does not exist in %d" % (value, moment.year))
    return moment + datetime.timedelta(days=value - _day_of_year(moment))


def _iso_week_of_year(moment):
    """java.time's WeekFields.ISO.weekOfYear(): Monday-first weeks, week 1 has at least 4 days, earlier days are 0."""
    day = _day_of_year(moment)
    dow = moment.isoweekday()
    week_start = (day - dow) % 7
    offset = -week_start
    if week_start + 1 > 4:
        offset = 7 - week_start
    return (7 + offset + (day - 1)) // 7


def _set_minute_of_day(moment, value):
    return moment + datetime.timedelta(minutes=value - (moment.hour * 60 + moment.minute))


def _set_second_of_day(moment, value):
    return moment + datetime.timedelta(seconds=value - (moment.hour * 3600 + moment.minute * 60 + moment.second))


MONTH_OF_YEAR = Field("MonthOfYear", MONTHS, YEARS, 1, 12, lambda m: m.month,
                      lambda m, v: m.replace(month=v, day=min(m.day, _calendar.monthrange(m.year, v)[1])))
DAY_OF_MONTH = Field("DayOfMonth", DAYS, MONTHS, 1, 31, lambda m: m.day, lambda m, v: m.replace(day=v))
DAY_OF_WEEK = Field("DayOfWeek", DAYS, WEEKS, 1, 7, lambda m: m.isoweekday(),
                    lambda m, v: m + datetime.timedelta(days=v - m.isoweekday()))
DAY_OF_YEAR = Field("DayOfYear", DAYS, YEARS, 1, 366, _day_of_year, _set_day_of_year)
HOUR_OF_DAY = Field("HourOfDay", HOURS, DAYS, 0, 23, lambda m: m.hour, lambda m, v: m.replace(hour=v))
CLOCK_HOUR_OF_DAY = Field("ClockHourOfDay", HOURS, DAYS, 1, 24, lambda m: m.hour or 24,
                          lambda m, v: m.replace(hour=v % 24))
CLOCK_HOUR_OF_AMPM = Field("ClockHourOfAmPm", HOURS, HALF_DAYS, 1, 12, lambda m: (m.hour % 12) or 12,
                           lambda m, v: m.replace(hour=m.hour // 12 * 12 + v % 12))
AMPM_OF_DAY = Field("AmPmOfDay", HALF_DAYS, DAYS, 0, 1, lambda m: m.hour // 12,
                    lambda m, v: m.replace(hour=m.hour % 12 + 12 * v))
MINUTE_OF_HOUR = Field("MinuteOfHour", MINUTES, HOURS, 0, 59, lambda m: m.minute, lambda m, v: m.replace(minute=v))
SECOND_OF_MINUTE = Field("SecondOfMinute", SECONDS, MINUTES, 0, 59, lambda m: m.second,
                         lambda m, v: m.replace(second=v))
MINUTE_OF_DAY = Field("MinuteOfDay", MINUTES, DAYS, 0, 1439, lambda m: m.hour * 60 + m.minute, _set_minute_of_day)
SECOND_OF_DAY = Field("SecondOfDay", SECONDS, DAYS, 0, 86399,
                      lambda m: m.hour * 3600 + m.minute * 60 + m.second, _set_second_of_day)
WEEK_OF_YEAR = Field("WeekOfYear", WEEKS, YEARS, 0, 54, _iso_week_of_year,
                     lambda m, v: m + datetime.timedelta(weeks=v - _iso_week_of_year(m)))


def _partial_size(first, last, low, high):
    if first < last:
        return last - first + 1
    return (high - first + 1) + (last - low + 1)


class PartialRange(Unit):
    """A unit that is a stretch of a field's values (mornings: hours 0-11, weekends: days 6-7, seasons)."""

    def __init__(self, name, field):
        Unit.__init__(self, name, 0)
        self.field = field

    def first(self, moment):
        """The field value the stretch starts at, for the range containing ``moment``."""
        raise NotImplementedError

    def last(self, moment):
        """The field value the stretch ends at (inclusive), for the range containing ``moment``."""
        raise NotImplementedError

    def size(self, moment, amount):
        """How many base units one stretch lasts, seen from ``moment`` moving by ``amount``."""
        raise NotImplementedError

    def add(self, moment, amount):
        """``moment`` plus ``amount`` stretches (each as many base units as :meth:`size`)."""
        return self.field.base.add(moment, amount * self.size(moment, amount))

    def truncate(self, moment):
        """The stretch's first value set on ``moment``, truncated to the field's base unit."""
        return truncate(self.field.set(moment, self.first(moment)), self.field.base)

    def contains(self, moment):
        """Whether ``moment``'s field value is inside the stretch."""
        first, last, value = self.first(moment), self.last(moment), self.field.get(moment)
        return first <= value <= last if first < last else (value >= first or value <= last)


class ConstantPartialRange(PartialRange):
    """A partial range with fixed first and last values (parts of the day, the weekend)."""

    def __init__(self, name, field, first, last):
        PartialRange.__init__(self, name, field)
        self._first = first
        self._last = last
        self.fixed = _partial_size(first, last, field.low, field.high)
        self.seconds = self.fixed * field.base.seconds

    def first(self, moment):
        """The constant first value."""
        return self._first

    def last(self, moment):
        """The constant last value."""
        return self._last

    def size(self, moment, amount):
        """The constant size."""
        return self.fixed


class MonthDayPartialRange(PartialRange):
    """A partial range of the year between two month-days (the seasons)."""

    def __init__(self, name, first, last):
        PartialRange.__init__(self, name, DAY_OF_YEAR)
        self.first_md = first
        self.last_md = last
        self.seconds = min(self.size(datetime.datetime(y, 1, 1), 1) for y in (1999, 2000)) * 86400

    @staticmethod
    def _doy(month_day, year):
        month, day = month_day
        day = min(day, _calendar.monthrange(year, month)[1])
        return _day_of_year(datetime.datetime(year, month, day))

    def first(self, moment):
        """Day of year of the first month-day in ``moment``'s year."""
        return self._doy(self.first_md, moment.year)

    def last(self, moment):
        """Day of year of the last month-day in ``moment``'s year."""
        return self._doy(self.last_md, moment.year)

    def size(self, moment, amount):
        """Days in the stretch; a stretch over new year counts the days of the two years it touches."""
        first, last = self.first(moment), self.last(moment)
        days = 366 if _calendar.isleap(moment.year) else 365
        if first < last:
            return _partial_size(first, last, 1, days)
        if amount < 0:
            previous = add_months(moment, -12)
            prev_days = 366 if _calendar.isleap(previous.year) else 365
            return _partial_size(self.first(previous), last, 1, prev_days)
        following = add_months(moment, 12)
        return _partial_size(first, self.last(following), 1, days)

    def truncate(self, moment):
        """``moment`` moved to the first month-day of its year, at midnight."""
        month, day = self.first_md
        day = min(day, _calendar.monthrange(moment.year, month)[1])
        return datetime.datetime(moment.year, month, day)


class PartialOfRange(Field):
    """A 0/1 field: 1 inside the partial range (a morning, a weekend, a season), 0 outside."""

    def __init__(self, name, partial):
        Field.__init__(self, name, partial, partial.field.range, 0, 1, None, None)
        self.partial = partial

    def get(self, moment):
        """1 inside the partial range, else 0."""
        return 1 if self.partial.contains(moment) else 0

    def set(self, moment, value):
        """Value 1 moves ``moment`` to the range's first value unless already inside; 0 is not supported."""
        if value != 1:
            raise TimeError("%s can only be set to 1, got %s" % (self.name, value))
        if self.partial.contains(moment):
            return moment
        return self.partial.field.set(moment, self.partial.first(moment))


MORNINGS = ConstantPartialRange("Mornings", HOUR_OF_DAY, 0, 11)
AFTERNOONS = ConstantPartialRange("Afternoons", HOUR_OF_DAY, 12, 17)
EVENINGS = ConstantPartialRange("Evenings", HOUR_OF_DAY, 17, 23)
NIGHTS = ConstantPartialRange("Nights", HOUR_OF_DAY, 21, 3)
WEEKENDS = ConstantPartialRange("Weekends", DAY_OF_WEEK, 6, 7)
SPRINGS = MonthDayPartialRange("Springs", (3, 20), (6, 20))
SUMMERS = MonthDayPartialRange("Summers", (6, 21), (9, 21))
FALLS = MonthDayPartialRange("Falls", (9, 22), (12, 20))
WINTERS = MonthDayPartialRange("Winters", (12, 21), (3, 19))
MORNING_OF_DAY = PartialOfRange("MorningOfDay", MORNINGS)
AFTERNOON_OF_DAY = PartialOfRange("AfternoonOfDay", AFTERNOONS)
EVENING_OF_DAY = PartialOfRange("EveningOfDay", EVENINGS)
NIGHT_OF_DAY = PartialOfRange("NightOfDay", NIGHTS)
WEEKEND_OF_WEEK = PartialOfRange("WeekendOfWeek", WEEKENDS)
SPRING_OF_YEAR = PartialOfRange("SpringOfYear", SPRINGS)
SUMMER_OF_YEAR = PartialOfRange("SummerOfYear", SUMMERS)
FALL_OF_YEAR = PartialOfRange("FallOfYear", FALLS)
WINTER_OF_YEAR = PartialOfRange("WinterOfYear", WINTERS)


def epoch_seconds(moment):
    """Whole seconds from 1970-01-01T00:00 to ``moment`` (floored), as java's toEpochSecond in UTC."""
    return (moment - datetime.datetime(1970, 1, 1)) // datetime.timedelta(seconds=1)
