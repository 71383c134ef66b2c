"""Random SCATE graphs (any schema type, any property, random links and values, odd values) never crash the
interpreter nor the reading side of the scorer's kind: every top entity gets a list of intervals (possibly empty)
and, when empty, a message; every top entity refused for a mistake is counted in a warning; no input makes the
interpretation of a document take more than a few seconds (every search spends a step budget)."""
import contextlib
import re
import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalkit.timenorm import kind, schema, scate
from evalkit.timenorm import types as T
from evalkit.timenorm.anafora import Document, Entity, read_anafora
from evalkit.timenorm.scate import interpret_document, parse_dct

TYPES = list(schema.TYPES) + ["year", "DayOfWeek", "TIMEX3", ""]
LINKS = ["Sub-Interval", "Super-Interval", "Interval", "Intervals", "Period", "Periods", "Repeating-Interval",
         "Repeating-Intervals", "Number", "Modifier", "AMPM-Of-Day", "Start-Interval", "End-Interval", "Period1",
         "Every", "Time-Zone", "sub-interval"]
#: JSON- and number-like odd values besides ordinary ones.
ODD = ["1e400", "NaN", "-0", "0x10", "1_000", "\u00b2", "199\u00b2", "\u0661\u0669\u0669\u0668", "\uff11\uff19\uff19\uff18",
       "9" * 30, "1" * 5000, "{\"a\": 1}", "[1, 2]", "null", "true", " 12 ", "12.", ".5", "1.5e3", "\u221e", "?",
       "??", "1998?", "0.0000000000000000001", "2-6", "several", "-4", "+7"]
VALUES = {"Value": ["0", "1", "3", "12", "24", "25", "31", "53", "54", "99", "1998", "19??", "2.5", "99999",
                    "999999999999"] + ODD,
          "Type": ["Years", "Months", "Days", "Weeks", "Hours", "Seconds", "Unknown", "Millennium", "Century",
                   "Quarter-Year", "Quarter-Years", "Week", "Day", "Second", "Spring", "Winter", "March", "Friday",
                   "Weekdays", "Weekend", "Night", "Noon", "Dawn", "Afternoon", "Morning", "AM", "PM", "Approx",
                   "Exact", "Bogus", "march"] + ODD[:6],
          "Interval-Type": ["Link", "DocTime", "DocTime-Year", "DocTime-Era", "Unknown", "Bad"],
          "Start-Interval-Type": ["Link", "DocTime", "DocTime-Era", "Unknown"],
          "End-Interval-Type": ["Link", "DocTime", "DocTime-Year", "Unknown"],
          "Semantics": ["Interval-Included", "Interval-Not-Included", "Other"],
          "Start-Included": ["Included", "Not-Included", "x"], "End-Included": ["Included", "Not-Included"],
          "value": ["1998"]}
DCTS = ["1998-08-07", "2001-01-01T00:00", "1989-11-01T12:30:15", "0001-01-01", "9999-12-30"]
TEXT = "On Thursday, March 12 1999, at noon, the last 3 days of the year. " * 3


@st.composite
def graphs(draw, max_entities=8):
    count = draw(st.integers(1, max_entities))
    ids = [str(i) for i in range(count)]
    entities = []
    for entity_id in ids:
        properties = {}
        for name in draw(st.lists(st.sampled_from(LINKS), max_size=4)):
            properties.setdefault(name, []).extend(draw(st.lists(st.sampled_from(ids + ["missing"]), max_size=2)))
        for name in draw(st.lists(st.sampled_from(sorted(VALUES)), max_size=4)):
            properties[name] = [draw(st.sampled_from(VALUES[name]))]
        start = draw(st.integers(0, len(TEXT) - 10))
        end = start + draw(st.integers(0, 9))
        entities.append(Entity(entity_id, draw(st.sampled_from(TYPES)), "", [(start, end)], properties))
    return Document(entities, "fuzz.xml", TEXT)


_FIELDS = [("Day-Of-Week", "Type", ["Monday", "Friday", "Sunday"]), ("Month-Of-Year", "Type", ["February", "March"]),
           ("Day-Of-Month", "Value", ["29", "30", "31", "1", "32"]), ("Hour-Of-Day", "Value", ["3", "12", "24", "0"]),
           ("Part-Of-Day", "Type", ["Morning", "Afternoon", "Night", "Noon", "Midnight"]),
           ("Part-Of-Week", "Type", ["Weekend"]), ("Season-Of-Year", "Type", ["Summer", "Winter", "Unknown"]),
           ("Week-Of-Year", "Value", ["1", "53", "54"]), ("Minute-Of-Hour", "Value", ["0", "59"]),
           ("Second-Of-Minute", "Value", ["3", "59"]),
           ("Calendar-Interval", "Type", ["Second", "Minute", "Day", "Week", "Month", "Year", "Century", "Unknown"])]
_HUGE = ["0", "1", "2", "20000", "19999", "100000", "3000000", "999999999999999999"]


@st.composite
def search_graphs(draw):
    """Operators over intersections and unions of repeating intervals, with huge or zero counts: the inputs that
    make a search along the timeline long."""
    parts, ids = [], []
    for index in range(draw(st.integers(1, 4))):
        kind_, prop, values = draw(st.sampled_from(_FIELDS))
        ids.append("r%d" % index)
        parts.append(Entity(ids[-1], kind_, "", [(0, 4)], {prop: [draw(st.sampled_from(values))]}))
    for index in range(draw(st.integers(0, 2))):
        members = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
        ids.append("c%d" % index)
        parts.append(Entity(ids[-1], draw(st.sampled_from(["Intersection", "Union"])), "", [(0, 4)],
                            {"Repeating-Intervals": members}))
    for index in range(draw(st.integers(1, 3))):
        operator = draw(st.sampled_from(["Last", "Next", "Before", "After", "This", "NthFromStart", "NthFromEnd"]))
        props = {"Interval-Type": [draw(st.sampled_from(["DocTime", "DocTime-Era", "DocTime-Year"]))],
                 "Semantics": [draw(st.sampled_from(["Interval-Included", "Interval-Not-Included"]))]}
        if operator.startswith("Nth"):
            props["Value"] = [draw(st.sampled_from(_HUGE))]
            del props["Semantics"]
        if operator == "This":
            del props["Semantics"]
        if draw(st.booleans()):
            number = "n%d" % index
            parts.append(Entity(number, "Number", "", [(0, 4)], {"Value": [draw(st.sampled_from(_HUGE))]}))
            if draw(st.booleans()) and operator != "This":
                props["Number"] = [number]
            else:
                period = "p%d" % index
                parts.append(Entity(period, "Period", "", [(0, 4)], {"Type": [draw(st.sampled_from(
                    ["Seconds", "Days", "Months", "Years", "Centuries"]))], "Number": [number]}))
                props["Period"] = [period]
        if "Period" not in props:
            props["Repeating-Interval"] = [draw(st.sampled_from(ids))]
        parts.append(Entity("o%d" % index, operator, "", [(0, 4)], props))
    return Document(parts, "search.xml", TEXT)


class _Hung(Exception):
    pass


@contextlib.contextmanager
def small_budgets(seconds=60):
    """Budgets a tenth of the scorer's (the bounds are the same code; the tests run faster), and an alarm that
    turns a search without a bound into a failure instead of a hung test run."""
    saved = T.DEFAULT_STEPS, kind.DOCUMENT_STEPS

    def alarm(*_):
        raise _Hung("no result after %d s" % seconds)
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    T.DEFAULT_STEPS, kind.DOCUMENT_STEPS = 10000, 50000
    try:
        yield
    finally:
        T.DEFAULT_STEPS, kind.DOCUMENT_STEPS = saved
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def counted(messages):
    """{reason: count} from the warnings about top entities without an interval ("3 top entities cannot ...")."""
    result = {}
    for message in messages:
        count, _, rest = message.text.partition(" ")
        for reason, whats in kind._REFUSALS.items():
            if any(rest.startswith(what + ":") for what in whats):
                result[reason] = int(count)
    return result


def check_document_reading(document, dct):
    """Interpret ``document`` as the scorer does; assert the time bound, the messages and no internal error."""
    start = time.process_time()
    items, messages, refusal = kind.system_items(document, parse_dct(dct), document.file)
    spent = time.process_time() - start
    assert spent < 5.0, "interpretation took %.1f s of CPU" % spent
    schema_messages = schema.check_document(document, document.file, ("type", "property", "value", "required",
                                                                      "span"))
    assert len(schema_messages) <= 5 and all(len(m.text) < 2100 for m in schema_messages + messages)
    stopped = [m for m in messages if "budget" in m.text]
    interpreter = scate.Interpreter(document, parse_dct(dct))
    expected = {}
    for entity in document.top_entities():
        if entity.type in scate.SKIP_TYPES:
            continue
        timex = scate.interpret(interpreter, entity)
        assert timex.reason != "internal", timex.message
        assert timex.intervals or timex.message
        if timex.reason in kind._REFUSALS:
            expected[timex.reason] = expected.get(timex.reason, 0) + 1
    if refusal is None and not stopped:
        assert counted(messages) == expected, [m.text for m in messages]
    return items


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.sampled_from(DCTS))
def test_random_graphs_never_crash(document, dct):
    for timex in interpret_document(document, parse_dct(dct)):
        assert isinstance(timex.intervals, list)
        assert timex.intervals or timex.message
        assert timex.reason != "internal", timex.message
        for interval in timex.intervals:
            assert interval.start <= interval.end


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.sampled_from(DCTS))
def test_random_graphs_are_read_within_bounds_with_a_message_per_refused_entity(document, dct):
    with small_budgets():
        check_document_reading(document, dct)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(search_graphs(), st.sampled_from(DCTS[:3]))
def test_long_searches_stop_at_the_budget_with_a_message(document, dct):
    with small_budgets():
        check_document_reading(document, dct)


def _xml(*entities):
    parts = ["<entity><id>%s</id><span>0,4</span><type>%s</type><properties>%s</properties></entity>" % e
             for e in entities]
    return ("<data><annotations>%s</annotations></data>" % "".join(parts)).encode()


HANGING = {
    # NthFromStart with a huge index and a zero-length period: the loop never moved
    "nth huge zero period": _xml(("z", "Number", "<Value>0</Value>"),
                                 ("p", "Period", "<Type>Seconds</Type><Number>z</Number>"),
                                 ("n", "NthFromStart", "<Interval-Type>DocTime</Interval-Type>"
                                                       "<Value>99999999999999</Value><Period>p</Period>")),
    # 200 Last sharing one intersection that never meets (3 o'clock in the afternoon): a second each
    "200 Last of a never-meeting intersection": _xml(
        ("a", "Hour-Of-Day", "<Value>3</Value>"), ("b", "Part-Of-Day", "<Type>Afternoon</Type>"),
        ("i", "Intersection", "<Repeating-Intervals>a</Repeating-Intervals><Repeating-Intervals>b"
                              "</Repeating-Intervals>"),
        *[("l%d" % k, "Last", "<Semantics>Interval-Not-Included</Semantics><Interval-Type>DocTime</Interval-Type>"
                              "<Repeating-Interval>i</Repeating-Interval>") for k in range(200)]),
}


def test_the_hanging_cases_end_at_the_scorers_own_budget_with_a_message():
    """With the scorer's budgets (not the tests' smaller ones): a few seconds at most, and a located message."""
    with small_budgets(seconds=120):
        T.DEFAULT_STEPS, kind.DOCUMENT_STEPS = 100000, 500000
        nth = read_anafora(HANGING["nth huge zero period"], "nth.xml", "x" * 10)
        start = time.process_time()
        items, messages, _ = kind.system_items(nth, parse_dct("1998-08-07"), "nth.xml")
        assert time.process_time() - start < 5.0 and items == []
        assert [m.where for m in messages] == ["entity n (line 1)"]
        assert messages[0].text.startswith("1 top entity took too long a search, stopped after 100000 steps")
        lasts = read_anafora(HANGING["200 Last of a never-meeting intersection"], "last.xml", "x" * 10)
        start = time.process_time()
        items, messages, _ = kind.system_items(lasts, parse_dct("1998-08-07"), "last.xml")
        assert time.process_time() - start < 6.0
        assert messages[-1].where == "entity l4 (line 1)" and (
            "it and the 195 top entities after it count as predicting no interval; the 4 before it are scored"
            in messages[-1].text)


def _wide(operator, members):
    """A Last over a ``operator`` of many repeating intervals, counted 19,000 times: each step of the search
    looks at every member."""
    parts = [("r%d" % i, "Second-Of-Minute", "<Value>%d</Value>" % (i % 60)) for i in range(members)]
    parts.append(("n", "Number", "<Value>19000</Value>"))
    parts.append(("u", operator, "".join("<Repeating-Intervals>r%d</Repeating-Intervals>" % i for i in range(members))
                  + "<Number>n</Number>"))
    parts.append(("l", "Last", "<Semantics>Interval-Included</Semantics><Interval-Type>DocTime</Interval-Type>"
                               "<Repeating-Interval>u</Repeating-Interval>"))
    return _xml(*parts)


def _wide_sum(periods):
    """NthFromStart of a Sum of many zero-length periods, with a huge index."""
    parts = [("z", "Number", "<Value>0</Value>")]
    parts += [("p%d" % i, "Period", "<Type>Seconds</Type><Number>z</Number>") for i in range(periods)]
    parts.append(("s", "Sum", "".join("<Periods>p%d</Periods>" % i for i in range(periods))))
    parts.append(("n", "NthFromStart", "<Interval-Type>DocTime</Interval-Type><Value>999999999</Value>"
                                       "<Period>s</Period>"))
    return _xml(*parts)


@pytest.mark.parametrize("label,xml", [("union of 1300", _wide("Union", 1300)),
                                       ("intersection of 1300", _wide("Intersection", 1300)),
                                       ("sum of 1900 periods", _wide_sum(1900))])
def test_steps_grow_with_the_work_of_wide_expressions(label, xml):
    """Each step of a search over a wide union, intersection or sum costs as many steps as it has parts, so the
    step budget bounds the time (without that, the union took 22 s of CPU for one expression)."""
    with small_budgets(seconds=120):
        T.DEFAULT_STEPS, kind.DOCUMENT_STEPS = 100000, 500000
        document = read_anafora(xml, "wide.xml", "x" * 10)
        start = time.process_time()
        items, messages, _ = kind.system_items(document, parse_dct("1998-08-07"), "wide.xml")
        assert time.process_time() - start < 3.0 and items == []
        assert len(messages) == 1 and "took too long a search" in messages[0].text
