"""The SCATE schema table of the scoring program (evalkit/timenorm/schema.py) against the release's schema file
(../shared/scate/schema/timenorm-schema.xml, skipped when absent) and the competition's declaration; the
did-you-mean and the per-class messages of check_document."""
import os
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT
from evalkit.timenorm import schema
from evalkit.timenorm.anafora import read_anafora

SCHEMA_FILE = os.path.join(os.path.dirname(ROOT), "shared", "scate", "schema", "timenorm-schema.xml")
sys.path.insert(0, os.path.join(ROOT, "competitions", "scate"))
import scate  # noqa: E402


def release_schema():
    """{type: {property: (input, required, instanceOf or choices, maxlink)}} of the release's schema file."""
    types = {}
    for entity in ET.parse(SCHEMA_FILE).getroot().iter("entity"):
        props = {}
        for prop in entity.iter("property"):
            values = prop.get("instanceOf") or (prop.text or "")
            props[prop.get("type")] = (prop.get("input"), prop.get("required", "True") == "True",
                                       frozenset(v for v in values.split(",") if v), prop.get("maxlink"))
        types[entity.get("type")] = props
    return types


@pytest.mark.skipif(not os.path.isfile(SCHEMA_FILE), reason="../shared/scate/schema is absent")
def test_the_table_is_the_release_schema():
    release = release_schema()
    assert list(schema.TYPES) == list(release)
    for kind, props in release.items():
        assert list(schema.TYPES[kind]) == list(props), kind
        for name, (input_kind, required, values, maxlink) in props.items():
            prop = schema.TYPES[kind][name]
            assert prop.kind == {"choice": "choice", "list": "link", "text": "text"}[input_kind], (kind, name)
            assert prop.required == required, (kind, name)
            if prop.kind != "text":
                assert frozenset(prop.values) == values, (kind, name)
            if prop.kind == "link":
                assert prop.many == (maxlink is None), (kind, name)


def test_the_declaration_lists_the_schema_types():
    assert sorted(scate.ENTITY_TYPES) == sorted(schema.TYPES)


@pytest.mark.parametrize("name,choices,expected", [
    ("year", schema.TYPES, "Year"), ("DayOfWeek", schema.TYPES, "Day-Of-Week"), ("nth", schema.TYPES, "NthFromStart"),
    ("SEASON", schema.TYPES, "Season-Of-Year"), ("interval_type", schema.TYPES["Last"], "Interval-Type"),
    ("Repeating-Intervals", schema.TYPES["Last"], "Repeating-Interval"), ("march", schema.TYPES["Month-Of-Year"]["Type"].values,
                                                                            "March"),
    ("Zorglub", schema.TYPES, ""),
])
def test_did_you_mean(name, choices, expected):
    assert schema.suggest(name, choices) == expected


E = "<entity><id>%s</id><span>%s</span><type>%s</type><properties>%s</properties></entity>"


def doc(text, *entities):
    return read_anafora(("<data><annotations>%s</annotations></data>" % "".join(entities)).encode(), "d.xml", text)


def test_one_message_per_class_with_counts_positions_and_suggestions():
    text = "On Thursday, March 12 1999, at noon."
    document = doc(text,
                   E % ("1", "3,11", "Day-Of-Week", "<type>Thursday</type>"),       # property 'type'
                   E % ("2", "3,11", "DayOfWeek", ""),                              # type outside
                   E % ("3", "13,18", "Month-Of-Year", "<Type>march</Type><Sub-Interval>4</Sub-Interval>"),
                   E % ("4", "19,21", "Day-Of-Month", "<Value>32</Value>"),          # value out of range
                   E % ("5", "22,26", "Year", "<Value>1999</Value><Sub-Interval>3</Sub-Interval>"),
                   E % ("6", "31,35", "Part-Of-Day", "<Type>Noon</Type>"),
                   E % ("7", "3,10", "Last", "<Repeating-Interval>1</Repeating-Interval>"),  # span cuts, required
                   E % ("8", "31,34", "Last", "<Semantics>Interval-Included</Semantics><Interval-Type>Link"
                                         "</Interval-Type><Repeating-Interval>6</Repeating-Interval>"))
    messages = schema.check_document(document, "d.xml", ("type", "property", "value", "required", "span"))
    texts = [m.text for m in messages]
    assert len(messages) == 5, texts
    assert texts[0].startswith("1 entity has a type outside") and "'DayOfWeek' x1 (did you mean Day-Of-Week?)" in texts[0]
    assert texts[1].startswith("1 property is not") and "'type' on Day-Of-Week x1 (did you mean Type?)" in texts[1]
    assert texts[2].startswith("2 property values") and "(did you mean March?)" in texts[2] and "'32'" in texts[2]
    assert texts[3].startswith("3 entities lack") and "Last without Semantics x1" in texts[3] and (
        "Last with Interval-Type Link without Interval x1" in texts[3])
    assert texts[4].startswith("2 spans") and "3,10 'Thursda'" in texts[4] and "31,34 'noo'" in texts[4]
    assert all(m.where.startswith("entity ") and m.file == "d.xml" for m in messages)
    # the classes a caller does not ask for are not reported; a document that fits the schema has no message
    assert [m.text[:1] for m in schema.check_document(document, "d.xml")] == ["1", "1", "2", "2"]
    assert schema.check_document(doc(text, E % ("5", "22,26", "Year", "<Value>1999</Value>")), "d.xml") == []


def test_messages_stay_bounded():
    text = "x " * 5000
    document = doc(text, *[E % (str(i), "%d,%d" % (2 * i, 2 * i + 1), "Bogus%d" % (i % 50), "<bad%d>1</bad%d>" % (i, i))
                           for i in range(3000)])
    messages = schema.check_document(document, "d.xml", ("type", "property", "value", "required", "span"))
    assert len(messages) == 1 and messages[0].text.startswith("3000 entities")
    assert len(messages[0].text) < 600 and "and 47 more" in messages[0].text
