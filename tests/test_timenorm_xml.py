"""The Anafora XML reader refuses hostile or broken input with a located message (synthetic payloads)."""
import pytest

from evalkit.messages import DataError
from evalkit.timenorm import anafora
from evalkit.timenorm.anafora import read_anafora
from evalkit.timenorm.scate import interpret_document, parse_dct

ENTITY = (b"<entity><id>%s</id><span>%s</span><type>%s</type><properties>%s</properties></entity>")


def doc(*entities):
    return b"<?xml version='1.0'?><data><annotations>" + b"".join(entities) + b"</annotations></data>"


def refused(data, text=None):
    with pytest.raises(DataError) as info:
        read_anafora(data, "sub/x.xml", text)
    return str(info.value)


def test_billion_laughs_refused():
    payload = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
               b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
               b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
               b'<data><annotations>&lol3;</annotations></data>')
    message = refused(payload)
    assert "sub/x.xml" in message and "line 1" in message and "document type declaration" in message


def test_external_entity_refused():
    payload = (b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
               b'<data><annotations>&xxe;</annotations></data>')
    assert "refused" in refused(payload)


def test_undeclared_entity_reference_refused():
    message = refused(b"<data><annotations>&xxe;</annotations></data>")
    assert "undefined entity" in message and "line 1" in message


def test_malformed_xml_located():
    message = refused(b"<data>\n<annotations>\n<entity></annotations></data>")
    assert "line 3" in message and "well-formed" in message


def test_span_outside_document_reported():
    message = refused(doc(ENTITY % (b"7", b"3,40", b"Year", b"<Value>1998</Value>")), text="short text")
    assert "entity 7" in message and "3,40" in message and "outside the document (10 characters)" in message


def test_bad_span_expected_vs_got():
    message = refused(doc(ENTITY % (b"7", b"3;x", b"Year", b"")))
    assert "expected a span 'start,end'" in message and "'3'" in message


def test_size_bound(monkeypatch):
    monkeypatch.setattr(anafora, "MAX_BYTES", 100)
    assert "at most 100 bytes" in refused(doc(ENTITY % (b"1", b"0,4", b"Year", b"<Value>1998</Value>")))


def test_element_count_bound(monkeypatch):
    monkeypatch.setattr(anafora, "MAX_ELEMENTS", 10)
    many = doc(*[ENTITY % (str(i).encode(), b"0,4", b"Year", b"") for i in range(5)])
    assert "more than 10 elements" in refused(many)


def test_wrong_root():
    assert "expected root element <data>, got <html>" in refused(b"<html/>")


def test_cycle_gives_message_not_crash():
    data = doc(ENTITY % (b"1", b"0,4", b"Month-Of-Year", b"<Type>May</Type><Sub-Interval>2</Sub-Interval>"),
               ENTITY % (b"2", b"5,6", b"Day-Of-Month", b"<Value>3</Value><Sub-Interval>1</Sub-Interval>"),
               ENTITY % (b"9", b"7,9", b"Last", b"<Semantics>Interval-Not-Included</Semantics>"
                         b"<Interval-Type>DocTime</Interval-Type><Repeating-Interval>1</Repeating-Interval>"))
    timexes = interpret_document(read_anafora(data, "c.xml"), parse_dct("1998-08-07"))
    assert [t.intervals for t in timexes] == [[]]
    assert "deeper than" in timexes[0].message


def test_uninterpretable_graph_gives_message():
    data = doc(ENTITY % (b"1", b"0,4", b"Last", b"<Semantics>Bogus</Semantics><Interval-Type>DocTime</Interval-Type>"
                         b"<Repeating-Interval>2</Repeating-Interval>"),
               ENTITY % (b"2", b"0,4", b"Day-Of-Week", b"<Type>Funday</Type>"))
    (timex,) = interpret_document(read_anafora(data, "c.xml"), parse_dct("1998-08-07"))
    assert timex.intervals == [] and "Funday" in timex.message
