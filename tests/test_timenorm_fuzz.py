"""Random SCATE graphs (any schema type, any property, random links and values) never crash the interpreter:
every top entity gets a list of intervals (possibly empty) and, when empty, a message."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalkit.timenorm.anafora import Document, Entity
from evalkit.timenorm.scate import interpret_document, parse_dct

TYPES = ["Period", "Calendar-Interval", "Season-Of-Year", "Month-Of-Year", "Week-Of-Year", "Day-Of-Month",
         "Day-Of-Week", "Part-Of-Week", "Part-Of-Day", "AMPM-Of-Day", "Hour-Of-Day", "Minute-Of-Hour",
         "Second-Of-Minute", "Time-Zone", "Year", "Sum", "Difference", "Union", "Intersection", "Every-Nth",
         "Two-Digit-Year", "This", "Last", "Next", "Before", "After", "Between", "NthFromStart", "NthFromEnd",
         "Number", "Modifier", "Frequency", "Event", "PreAnnotation", "NotNormalizable"]
LINKS = ["Sub-Interval", "Super-Interval", "Interval", "Intervals", "Period", "Periods", "Repeating-Interval",
         "Repeating-Intervals", "Number", "Modifier", "AMPM-Of-Day", "Start-Interval", "End-Interval", "Period1"]
VALUES = {"Value": ["0", "1", "3", "12", "31", "53", "99", "1998", "19??", "?", "2.5", "several", "-4", "99999"],
          "Type": ["Years", "Months", "Days", "Weeks", "Hours", "Unknown", "Millennium", "Century", "Quarter-Year",
                   "Week", "Day", "Spring", "Winter", "March", "Friday", "Weekdays", "Weekend", "Night", "Noon",
                   "Dawn", "Day", "AM", "PM", "Approx", "Exact", "Bogus"],
          "Interval-Type": ["Link", "DocTime", "DocTime-Year", "DocTime-Era", "Unknown", "Bad"],
          "Start-Interval-Type": ["Link", "DocTime", "DocTime-Era", "Unknown"],
          "End-Interval-Type": ["Link", "DocTime", "DocTime-Year", "Unknown"],
          "Semantics": ["Interval-Included", "Interval-Not-Included", "Other"],
          "Start-Included": ["Included", "Not-Included", "x"], "End-Included": ["Included", "Not-Included"]}


@st.composite
def graphs(draw):
    count = draw(st.integers(1, 8))
    ids = [str(i) for i in range(count)]
    entities = []
    for entity_id in ids:
        properties = {}
        for name in draw(st.lists(st.sampled_from(LINKS), max_size=4)):
            properties.setdefault(name, []).extend(draw(st.lists(st.sampled_from(ids + ["missing"]), max_size=2)))
        for name in draw(st.lists(st.sampled_from(sorted(VALUES)), max_size=4)):
            properties[name] = [draw(st.sampled_from(VALUES[name]))]
        start = draw(st.integers(0, 50))
        entities.append(Entity(entity_id, draw(st.sampled_from(TYPES)), "", [(start, start + 3)], properties))
    return Document(entities, "fuzz.xml")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.sampled_from(["1998-08-07", "2001-01-01T00:00", "1989-11-01T12:30:15"]))
def test_random_graphs_never_crash(document, dct):
    for timex in interpret_document(document, parse_dct(dct)):
        assert isinstance(timex.intervals, list)
        assert timex.intervals or timex.message
        for interval in timex.intervals:
            assert interval.start <= interval.end
