"""SCATE, sixth round: well-formed predictions that lose score in silence or get the wrong cause. Each class is
generated on the synthetic sample and checked for its message (quoted), its position and the score: no message
changes a number (the check switched off gives the same scores). The release's files are checked too (skipped
without ../shared/scate).

Classes (before -> now):
1. spans holding the punctuation a whitespace tokenizer keeps (``Friday,`` ``1998.`` ``(Monday)``): silent ->
   "spans include punctuation at their edges that the gold leaves out", priced on the dev gold (trimmed); the gold
   (``Aug.``, ``a.m.``) does not trigger it;
2. TimeML-style phrase spans (every entity spans the whole expression): silent -> "entities share a span of several
   words with entities of other types"; no gold needed, the gold does not trigger it;
3. spans starting on the space before the word (byte-level BPE offsets): "Shifted by +1" -> "spans start or end on
   whitespace ... strip the whitespace from each span ..., do not shift the offsets", priced;
4. a property outside the schema: "(they are not read)" -> composition F1 compares every property, priced on it;
5. numeric values with a leading zero, a decimal part, as words: silent or "expected ..." -> "values of numeric
   properties are not written as the gold writes them", priced;
6. offsets counted on the text with its line ends removed, or its whitespace collapsed: spans "off by one?" ->
   "the offsets look counted on another text than this document's: on the text with its line ends removed ...",
   priced;
7. files rotated (each holds the next document's predictions, ids like ``e12``): "off by one?" -> "documents have
   a file whose spans fit another document's text far better than their own", first.
"""
import io
import os
import re

import pytest

from evalkit.messages import LOSS_NOTE
from evalkit.timenorm import kind as anafora_kind
from evalkit.timenorm import mends, schema

from test_trial3_scate import score, submission, texts
from test_trial5_scate import (RELEASE, _of_file, _per_document, _pieces, _release_gold, _validate, _zip, needs_release,
                               refs)
from test_scate_warnings import DOCS, GOLD, TEXT, scate_data

assert refs   # the module fixture: the sample's references, the dev gold public

PUNCTUATION = "spans include punctuation at their edges that the gold leaves out"
BLANK = "spans start or end on whitespace (their offsets include the space before or after the word"
PHRASE = "entities share a span of several words with entities of other types"
PROPERTY = "composition F1 compares every property of an entity"
NUMBER = "values of numeric properties are not written as the gold writes them (digits, no leading zero, no decimal part"


def _spans(xml, change):
    """``xml`` with every span ``start,end`` replaced by ``change(start, end)``."""
    return re.sub(r"<span>(\d+),(\d+)</span>", lambda m: "<span>%d,%d</span>" % change(int(m.group(1)),
                                                                                    int(m.group(2))), xml)


def tokenized(xml, text):
    """Every span ended after the punctuation that follows it up to a space (a whitespace tokenizer's tokens)."""
    def change(start, end):
        stop = end
        while stop < len(text) and text[stop] in ",.;:)" and (stop + 1 == len(text) or text[stop + 1].isspace()):
            stop += 1
        return start, stop
    return _spans(xml, change)


def on_space(xml, text):
    """Every span started on the space before it (byte-level BPE offsets, trim_offsets=False)."""
    return _spans(xml, lambda start, end: (start - 1 if start and text[start - 1] == " " else start, end))


def _quiet(monkeypatch, ref, members, tmp_path):
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind, "check_document", lambda *args, **kwargs: [])
        patch.setattr(mends, "mend", lambda *args: None)
        return score(ref, members, tmp_path, "quiet.zip")


def _first_changed(written, gold):
    """The id of the first entity of ``written`` that differs from ``gold``."""
    for (piece, ident, _), (old, _, _) in zip(_pieces(written), _pieces(gold)):
        if piece != old:
            return ident
    return None


@pytest.mark.parametrize("how,said,priced", [(tokenized, PUNCTUATION, "spans including punctuation the gold leaves out"),
                                             (on_space, BLANK, "spans starting or ending on whitespace")])
def test_spans_with_punctuation_or_a_space_at_an_edge_are_named_and_priced(refs, tmp_path, monkeypatch, how, said,
                                                                           priced):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, how(GOLD[doc], TEXT[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    spans = _per_document(report, "spans")
    assert min(spans.values()) < 1.0
    for doc in DOCS:
        changed = sum(1 for (_, _, a), (_, _, b) in zip(_pieces(xml[doc]), _pieces(GOLD[doc])) if a != b)
        found = [m for m in _of_file(report, doc) if said in m["text"]]
        if changed < schema.MIN_PUNCTUATION:
            continue
        assert len(found) == 1 and found[0]["text"].startswith("%d %s" % (changed, said)), found
        first = _first_changed(xml[doc], GOLD[doc])
        assert found[0]["where"].startswith("entity %s " % first)
        assert "Shifted by" not in found[0]["text"] and "off by one" not in found[0]["text"]
        price = [m for m in _of_file(report, doc) if m["text"].startswith(priced + " (")]
        assert len(price) == 1 and ("its identification F1 is %.4f as written and 1.0000 read as meant" % spans[doc]
                                    in price[0]["text"]), price
        assert (LOSS_NOTE in price[0]["text"]) == (2 * spans[doc] < 1.0)
    assert _quiet(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


def test_the_gold_triggers_none_of_the_new_classes(refs, tmp_path):
    report = score(os.path.join(refs, "dev"), submission(GOLD), tmp_path)
    for part in (PUNCTUATION, BLANK, PHRASE, PROPERTY, NUMBER, "priced on this phase's gold",
                 "fit another document's text"):
        assert not texts(report, part), part


def phrases(xml, text):
    """Every entity given the span from the first start to the last end of the entities linked to it (its own
    included, transitively): a TimeML TIMEX3's extent."""
    pieces = _pieces(xml)
    span = dict((ident, tuple(int(n) for n in spans.split(";")[0].split(","))) for _, ident, spans in pieces)
    links = dict((ident, [v for v in re.findall(r">([^<>]+)</", piece) if v in span and v != ident])
                 for piece, ident, _ in pieces)
    parent = dict((ident, ident) for ident in span)

    def root(ident):
        while parent[ident] != ident:
            ident = parent[ident]
        return ident
    for ident, targets in links.items():
        for target in targets:
            parent[root(target)] = root(ident)
    extent = {}
    for ident in span:
        low, high = extent.get(root(ident), span[ident])
        extent[root(ident)] = (min(low, span[ident][0]), max(high, span[ident][1]))
    out = xml
    for piece, ident, spans in pieces:
        out = out.replace(piece, piece.replace("<span>%s</span>" % spans, "<span>%d,%d</span>" % extent[root(ident)]),
                          1)
    return out


def _shared(xml, text):
    """The entities of ``xml`` sharing a span of several words with one of another type."""
    groups = {}
    for piece, ident, spans in _pieces(xml):
        groups.setdefault(spans, []).append(re.search(r"<type>(.*?)</type>", piece).group(1))
    return sum(len(types) for spans, types in groups.items() if len(set(types)) > 1 and len(" ".join(
        text[int(a):int(b)] for a, b in (p.split(",") for p in spans.split(";"))).split()) > 1)


def test_phrase_spans_are_named_without_gold(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, phrases(GOLD[doc], TEXT[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    for doc in DOCS:
        count = _shared(xml[doc], TEXT[doc])
        found = [m for m in _of_file(report, doc) if PHRASE in m["text"]]
        if not count:
            assert not found
            continue
        assert len(found) == 1 and found[0]["text"].startswith("%d of the %d %s" % (
            count, len(_pieces(xml[doc])), PHRASE)), found
        assert "give each entity the span of its own words" in found[0]["text"]
    assert any(_shared(xml[doc], TEXT[doc]) for doc in DOCS)
    with monkeypatch.context() as patch:
        patch.setattr(schema, "phrase_spans", lambda *args: [])
        assert score(ref, submission(xml), tmp_path, "off.zip")["scores"] == report["scores"]


def test_a_property_outside_the_schema_is_priced_on_composition(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, GOLD[doc].replace("<properties>", "<properties><confidence>0.93</confidence>")) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    assert report["scores"]["avg_score"] == 1.0   # the intervals are whole
    for doc in DOCS:
        found = [m for m in _of_file(report, doc) if PROPERTY in m["text"]]
        assert len(found) == 1 and "'confidence' on " in found[0]["text"] and "remove them" in found[0]["text"]
        price = [m for m in _of_file(report, doc) if m["text"].startswith(
            "properties outside the SCATE schema (composition F1 compares every property) ('confidence' on ")]
        assert len(price) == 1 and "its composition F1 is 0.0000 as written and 1.0000 read as meant (%s)" % LOSS_NOTE \
            in price[0]["text"], price
    assert _quiet(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]
    status, out = _validate(_zip(tmp_path / "confidence.zip", submission(xml)))
    assert status == 1 and "will lose most of their score" in out.strip().splitlines()[-1], out


NUMBERS = {"leading zero": lambda value: "0" + value if len(value) < 4 else value,
           "decimal part": lambda value: value + ".0",
           "number word": lambda value: dict((v, k) for k, v in schema.NUMBER_WORDS.items()).get(value, value)}


def _numbers_written(xml, form):
    """``xml`` with its numeric Values written in ``form`` (number words for a Number's alone); the count changed."""
    count = [0]

    def entity(piece):
        kind = re.search(r"<type>(.*?)</type>", piece).group(1)
        if form == "number word" and kind != "Number":
            return piece

        def value(match):
            written = NUMBERS[form](match.group(1))
            count[0] += written != match.group(1)
            return "<Value>%s</Value>" % written
        return re.sub(r"<Value>([0-9]+)</Value>", value, piece)
    out = xml
    for piece, _, _ in _pieces(xml):
        out = out.replace(piece, entity(piece), 1)
    return out, count[0]


@pytest.mark.parametrize("form", sorted(NUMBERS))
def test_numeric_values_written_otherwise_are_named_and_priced(refs, tmp_path, monkeypatch, form):
    ref = os.path.join(refs, "dev")
    written = dict((doc, _numbers_written(GOLD[doc], form)) for doc in DOCS)
    xml = dict((doc, written[doc][0]) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    composition = dict((doc, [m for m in _of_file(report, doc) if m["text"].startswith(
        "numeric values written otherwise than the gold writes them (%s)" % form)]) for doc in DOCS)
    for doc in DOCS:
        found = [m for m in _of_file(report, doc) if NUMBER in m["text"] or "not written as the gold writes it" in
                 m["text"]]
        changed = written[doc][1]
        if not changed or (form == "leading zero" and changed < schema.MIN_ZEROS):
            assert not found
            continue
        assert len(found) == 1 and found[0]["text"].startswith("%d " % changed), found
        assert "(%s)" % form in found[0]["text"] and "did you mean '" in found[0]["text"]
        assert found[0]["where"].startswith("entity %s " % _first_changed(xml[doc], GOLD[doc]))
        assert len(composition[doc]) == 1 and "read as meant" in composition[doc][0]["text"]
    assert any(composition.values()) or not any(count for _, count in written.values())
    assert _quiet(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


# --------------------------------------------------------------------------- the release

@needs_release
def test_the_release_gold_triggers_none_of_the_new_classes(tmp_path):
    members = dict((scate_data.submission_name(doc), xml) for doc, (xml, _) in _release_gold().items())
    status, out = _validate(_zip(tmp_path / "gold.zip", members), RELEASE)
    for part in (PUNCTUATION, BLANK, PHRASE, PROPERTY, NUMBER, "priced on this phase's gold",
                 "fit another document's text"):
        assert part not in out, part


@needs_release
@pytest.mark.parametrize("how,said,cause", [
    (tokenized, PUNCTUATION, "spans including punctuation the gold leaves out"),
    (on_space, BLANK, "spans starting or ending on whitespace"),
    (phrases, PHRASE, None)])
def test_the_release_spans_are_named(tmp_path, how, said, cause):
    gold = _release_gold()
    members = dict((scate_data.submission_name(doc), how(xml, text)) for doc, (xml, text) in gold.items())
    status, out = _validate(_zip(tmp_path / "spans.zip", members), RELEASE)
    expected = []
    for doc, (xml, text) in sorted(gold.items()):
        written = how(xml, text)
        count = _shared(written, text) if how is phrases else sum(
            1 for (_, _, a), (_, _, b) in zip(_pieces(written), _pieces(xml)) if a != b)
        if count >= (1 if how is phrases else schema.MIN_PUNCTUATION):
            expected.append(scate_data.submission_name(doc))
    assert expected
    lines = out.splitlines()
    assert sorted(set(line.split(",")[0][len("warning: "):] for line in lines if said in line)) == expected, out
    assert "Shifted by" not in out
    if cause is not None:
        assert len([line for line in lines if line.startswith("warning: ") and ": %s (" % cause in line
                    and "identification F1 is" in line]) == len(expected), out
    if how is on_space:
        assert status == 1


@needs_release
def test_the_release_test_split_punctuation_is_flagged_without_gold(tmp_path):
    folder = os.path.join(RELEASE, "test_te3_spans_only")
    if not os.path.isdir(folder):
        pytest.skip("no spans-only test gold in the release")
    members = {}
    for path in sorted(os.listdir(folder))[:10]:
        gold = scate_data.gold_path(folder, path)
        if not os.path.isfile(gold):
            continue
        with io.open(gold, encoding="utf-8") as handle:
            xml = handle.read()
        text, _ = scate_data.read_text(RELEASE, "test", path)
        members[scate_data.submission_name(path)] = (xml, tokenized(xml, text))
    if not members:
        pytest.skip("no test documents found")
    status, out = _validate(_zip(tmp_path / "gold.zip", dict((k, v[0]) for k, v in members.items())), RELEASE, "test")
    assert PUNCTUATION not in out and PHRASE not in out, out
    status, out = _validate(_zip(tmp_path / "tok.zip", dict((k, v[1]) for k, v in members.items())), RELEASE, "test")
    assert PUNCTUATION in out, out


# --------------------------------------------------------------------------- 6. offsets counted on a text with less whitespace

#: How each text counts the characters before a position (written independently of mends.OTHER_TEXTS): the line ends
#: removed; the whitespace collapsed (a prefix ending in whitespace after a word keeps one space of it).
LESS = {
    "nolf": (lambda prefix: len(prefix.replace("\n", "")),
             "on the text with its line ends removed (text.replace('\\n', '')), where the shift grows by minus one "
             "per line"),
    "collapsed": (lambda prefix: len(" ".join(prefix.split())) + (1 if prefix.strip() and prefix[-1].isspace() else 0),
                  "on the text with its whitespace collapsed (' '.join(text.split()): one space for each run of "
                  "spaces and line ends), where the shift grows by minus one at each whitespace character after the "
                  "first of its run"),
}


@pytest.mark.parametrize("key", sorted(LESS))
def test_offsets_counted_on_a_text_with_less_whitespace_are_named(refs, tmp_path, monkeypatch, key):
    from test_trial5_scate import counted_on
    ref = os.path.join(refs, "dev")
    count, words = LESS[key]
    xml = dict((doc, counted_on(GOLD[doc], TEXT[doc], count)) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    for doc in DOCS:
        found = _of_file(report, doc)
        said = [m for m in found if m["text"].startswith("the offsets look counted on another text")]
        assert said and found[0] is said[0], [m["text"] for m in found]
        assert said[0]["text"].startswith("the offsets look counted on another text than this document's: %s" % words)
        assert "Shifted by" not in " ".join(m["text"] for m in found)
        priced = [m for m in found if "priced on this phase's gold" in m["text"]]
        assert priced and "1.0000 read as meant" in priced[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(mends, "other_text", lambda *args: None)
        patch.setattr(mends, "mend", lambda *args: None)
        patch.setattr(anafora_kind, "check_document", lambda *args, **kwargs: [])
        assert score(ref, submission(xml), tmp_path, "quiet.zip")["scores"] == report["scores"]


@needs_release
@pytest.mark.parametrize("key", sorted(LESS))
def test_the_release_offsets_on_less_whitespace_are_named_per_file(tmp_path, key):
    from test_trial5_scate import counted_on
    gold = _release_gold()
    members = dict((scate_data.submission_name(doc), counted_on(xml, text, LESS[key][0]))
                   for doc, (xml, text) in gold.items())
    status, out = _validate(_zip(tmp_path / "less.zip", members), RELEASE)
    assert status == 1
    said = [line for line in out.splitlines() if "the offsets look counted on another text than this document's: %s"
            % LESS[key][1] in line]
    assert len(said) == len(gold), out
    assert "off by one" not in out and "Shifted by" not in out


# --------------------------------------------------------------------------- 7. files rotated (ids naming no document)

ROTATED = "documents have a file whose spans fit another document's text far better than their own"


def test_the_gold_fits_its_own_texts(refs, tmp_path):
    assert not texts(score(os.path.join(refs, "dev"), submission(GOLD), tmp_path), ROTATED)


@needs_release
def test_the_release_files_rotated_are_named_first(tmp_path, monkeypatch):
    gold = _release_gold()
    docs = sorted(gold)
    members = {}
    for i, doc in enumerate(docs):
        xml = gold[docs[(i + 1) % len(docs)]][0]
        members[scate_data.submission_name(doc)] = re.sub(r">([0-9]+)@e@[^<]*<", r">e\1<", xml)   # ids like e12
    status, out = _validate(_zip(tmp_path / "rotated.zip", members), RELEASE)
    lines = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert ROTATED in lines[0] and lines[0].startswith("warning: %s, whole file: %d of %d %s (the file of %s: " % (
        scate_data.submission_name(docs[0]), len(docs), len(docs), ROTATED, docs[0])), out
    assert "in the text of %s, " % docs[1] in lines[0]
