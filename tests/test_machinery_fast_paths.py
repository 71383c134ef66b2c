"""The scorer machinery's fast paths (issue 24) against the plain rule they stand for: a directory file read by its
size, the other-split check that stops sampling early, :func:`printable`'s shortcut, the report budget checked
without an encoded copy. Each plain rule is written here as it was before its fast path, and both must agree on
varied inputs, the edge cases included."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evalkit import fingerprint, layout, scoring, writers
from evalkit.messages import MAX_SHOWN, DataError, _cut, _escape, printable

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- DirSource.read: by the file's size, then on to the limit only when the file grew --------------------------

def _dir_source(tmp_path, content):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.json").write_bytes(content)
    return layout.DirSource(str(tmp_path))


def test_a_file_is_read_whole_up_to_one_byte_over_the_limit(tmp_path):
    source = _dir_source(tmp_path, b"x" * 100)
    assert source.read("t/a.json", 100) == b"x" * 100
    assert source.read("t/a.json", 1000) == b"x" * 100


def test_a_file_that_grew_after_its_size_was_taken_is_read_on_to_the_limit(tmp_path, monkeypatch):
    """The size said 10 bytes, the file holds 100: everything within the limit is read, and one byte over it."""
    source = _dir_source(tmp_path, bytes(range(100)))
    monkeypatch.setattr(layout.os.path, "getsize", lambda path: 10)
    assert source.read("t/a.json", 1000) == bytes(range(100))
    assert source.read("t/a.json", 50) == bytes(range(51))      # the caller sees it is over the limit
    assert source.read("t/a.json", 10) == bytes(range(11))
    monkeypatch.setattr(layout.os.path, "getsize", lambda path: 0)
    assert source.read("t/a.json", 1000) == bytes(range(100))


def test_a_file_that_shrank_is_read_as_it_is(tmp_path, monkeypatch):
    source = _dir_source(tmp_path, b"abc")
    monkeypatch.setattr(layout.os.path, "getsize", lambda path: 50)
    assert source.read("t/a.json", 60) == b"abc"


# -- wrong_split_message: the sampling stops once two thirds cannot be reached -----------------------------------

def _plain_wrong_split(name, kind, value, ref, fp, other, phase_split, samples):
    """The rule as written before its fast path: every sample hashed, both sides, then the counts compared."""
    if type(value) is not list or type(fp) is not dict:
        return None
    hashes = fp.get("hashes")
    places = fingerprint.positions(len(value), samples)
    if fp.get("sentences") != len(value) or type(hashes) is not list or len(hashes) != len(places) or not places:
        return None
    like_other = like_own = 0
    for number, place in enumerate(places):
        got = fingerprint.sentence_hash(fingerprint.prediction_key(kind, value[place]))
        if got is None:
            continue
        like_other += got == hashes[number]
        like_own += place < len(ref) and got == fingerprint.sentence_hash(fingerprint._reference_key(ref[place]))
    if 3 * like_other < 2 * len(places) or like_other <= like_own:
        return None
    return like_other


WORDS = st.sampled_from(["a", "b", "c"])
SENTENCE = st.lists(WORDS, min_size=1, max_size=2)


@settings(max_examples=400, **SETTINGS)
@given(st.lists(SENTENCE | st.just(None), min_size=1, max_size=20), st.lists(SENTENCE, max_size=20),
       st.lists(SENTENCE, min_size=20, max_size=20), st.lists(st.booleans(), min_size=20, max_size=20),
       st.integers(1, 20))
def test_the_early_stop_says_what_the_plain_rule_says(sentences, ref_forms, other_forms, take_other, samples):
    """Predictions partly like the other split's input (``take_other``), partly not, some with no forms (None);
    a reference partly like them too: the message (and its count) is the plain rule's."""
    value = [[[word, "X"] for word in (other_forms[i] if take_other[i] else sent)] if sent is not None else "?"
             for i, sent in enumerate(sentences)]
    places = fingerprint.positions(len(value), samples)
    fp = {"sentences": len(value), "hashes": [fingerprint.sentence_hash(other_forms[i]) for i in places]}
    ref = [(forms, None) for forms in ref_forms]
    found = fingerprint.wrong_split_message("t/a.json", "tagging", value, ref, fp, "test", "valid", samples)
    expected = _plain_wrong_split("t/a.json", "tagging", value, ref, fp, "test", "valid", samples)
    assert (found is None) == (expected is None)
    if found is not None:
        assert "%d of %d sampled sentences" % (expected, len(places)) in found.text


def test_two_thirds_exactly_is_enough_and_one_less_is_not():
    other = [["o%d" % i] for i in range(3)]
    fp = {"sentences": 3, "hashes": [fingerprint.sentence_hash(forms) for forms in other]}
    two = [[["o0", "X"]], [["o1", "X"]], [["z", "X"]]]
    one = [[["o0", "X"]], [["y", "X"]], [["z", "X"]]]
    assert fingerprint.wrong_split_message("f", "tagging", two, [], fp, "test", "valid", 16) is not None
    assert fingerprint.wrong_split_message("f", "tagging", one, [], fp, "test", "valid", 16) is None
    # as many like this phase's own input: not another split's
    assert fingerprint.wrong_split_message("f", "tagging", two, [(["o0"], 0), (["o1"], 0)], fp, "test", "valid",
                                           16) is None


# -- printable: a printable string within its limit is returned as it is ---------------------------------------

def _plain_printable(text, limit):
    text, length = _cut(text if isinstance(text, str) else str(text), limit)
    text = _escape(text)
    return text if length is None else "%s\u2026 (%s characters)" % (text, "{:,}".format(length))


class _Name(str):
    pass


@settings(max_examples=300, **SETTINGS)
@given(st.text(max_size=12) | st.text(st.characters(whitelist_categories=("Cc", "Cs", "Zl", "Lo")), max_size=8)
       | st.integers() | st.none(), st.sampled_from([0, 1, 5, 8, MAX_SHOWN]))
def test_printable_shortcut_says_what_the_plain_rule_says(text, limit):
    assert printable(text, limit) == _plain_printable(text, limit)
    if isinstance(text, str):
        assert printable(_Name(text), limit) == _plain_printable(_Name(text), limit)


# -- within_budget: no encoded copy of a text that cannot be over the budget -------------------------------------

def _kept_messages(text, budget):
    report = {"messages": [{"text": "m%d" % i} for i in range(2000)], "entries": []}
    rendered = writers.within_budget(report, lambda r: text if len(r["messages"]) == 2000 else "cut", budget)
    return rendered != "cut"


def test_the_budget_counts_the_bytes_written_not_the_characters():
    """A lone surrogate is written as a 6-byte escape: 10 of them fit 60 bytes, not 59; 4-byte characters too."""
    assert writers._size("\udc80") == writers.MAX_BYTES_PER_CHAR
    assert _kept_messages("\udc80" * 10, 60)
    assert not _kept_messages("\udc80" * 10, 59)
    assert _kept_messages("\U0001F600" * 10, 40)
    assert not _kept_messages("\U0001F600" * 10, 39)
    assert _kept_messages("a" * 10, 10)
    assert not _kept_messages("a" * 10, 9)


# -- _parse_reference: a reference whose parse proved its golds non-null skips the scan for null ------------------

class _Golds(list):
    """A parsed reference that may say its golds were checked."""


class _CountingKind(object):
    """A JSON kind whose parse says (or not) that every gold is non-null, and that counts its null checks."""

    def __init__(self, proved):
        self.proved, self.checked = proved, 0

    def parse_reference(self, value, name, task):
        ref = _Golds(value)
        if self.proved and None not in value:
            ref.golds_checked = True
        return ref

    def check_golds(self, ref, name):
        self.checked += 1
        if None in ref:
            raise DataError(name, "", "expected a gold string, got null")


@pytest.mark.parametrize("text, proved, checks", [
    (b'["a", "b"]', False, 0),          # no null in the text: no check, proved or not
    (b'["a", ", null"]', False, 1),     # a string that looks like a null value: checked (it finds nothing)
    (b'["a", ", null"]', True, 0),      # ... unless the parse proved every gold non-null
    (b'["a", null]', True, 1),          # a parse that could not prove it: checked, and the null gold is said
])
def test_a_reference_whose_golds_are_proved_non_null_is_not_scanned(text, proved, checks):
    kind = _CountingKind(proved)
    if text == b'["a", null]':
        with pytest.raises(DataError):
            scoring._parse_reference(kind, text, "reference t/a.json", None, "a", True)
    else:
        assert scoring._parse_reference(kind, text, "reference t/a.json", None, "a", True) == _Golds(
            json.loads(text.decode()))
    assert kind.checked == checks
    kind.checked = 0
    scoring._parse_reference(kind, b'["a", null]', "reference t/a.json", None, "a", False)   # gold-less: never
    assert kind.checked == 0
