"""SCATE, fourth round of issue 24's trial: the round-3 leftovers and fresh mistakes that used to cost score in
silence, refuse more than what is wrong, or get a message pointing elsewhere. Each class is generated on the
synthetic sample (no ../shared needed) and checked for its message (quoted), its position and the score (a
warning changes no number; a refused file scores as a file that predicts nothing; a dropped entity scores as the
file without it).

Classes (before -> now):
- a span ending after the text (an offset one past the end): the whole document refused -> that entity alone is
  dropped, one warning per file (count, first entity and span, likely causes);
- a UTF-16 file whose XML declaration says UTF-8, bytes that are not UTF-8 under a UTF-8 declaration: expat's own
  words -> the encoding found and the one declared;
- every entity of the submission of one type (a constant type column): per-file schema warnings only -> one
  warning for the submission naming the constant;
- a document read empty while a second file of it, ignored, holds the entities: "if your system found no time
  expression there, this is right" -> the second file named;
- files for test documents on the development phase: a did-you-mean to a dev document at most -> "documents of the
  test split" (the development reference holds the test names as digests, never the names);
- a file that is not XML (the document's text, JSON): "syntax error" -> what it starts with; XML going on after
  the root element: "junk after document element" / "invalid token" -> where the root ended;
- spans written ``16-20``, ``(16, 20)``, ``16.0,20.0``, with a negative offset, as ``start,length``, with a
  trailing ``;``: the form expected -> how to write that span;
- one file for every document (``predictions.xml``): "did you mean predictions/predictions..." (a name that scores
  nothing) -> the file names no document of the phase.
"""
import io
import json
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import layout, lines
from evalkit.messages import DataError
from evalkit.timenorm import anafora
from evalkit.timenorm import kind as anafora_kind

from test_trial3_scate import EMPTY, SETTINGS, score, submission, texts
from test_scate_warnings import DOCS, GOLD, SAMPLE, TEXT, reference, scate_data


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("scate_round4"))
    reference.build(SAMPLE, out)
    return out


def _span_pieces(xml):
    """``[(entity text, id, first span start)]`` of the entities of ``xml``, in order."""
    return [(m.group(0), re.search(r"<id>(.*?)</id>", m.group(0)).group(1),
             int(re.search(r"<span>([0-9]+),", m.group(0)).group(1)))
            for m in re.finditer(r"<entity>.*?</entity>", xml, flags=re.S)]


# --------------------------------------------------------------------------- a span past the text drops its entity

@settings(**SETTINGS)
@given(picks=st.lists(st.booleans(), min_size=6, max_size=6), past=st.integers(1, 40))
def test_a_span_past_the_text_drops_its_entity_alone(refs, tmp_path, picks, past):
    ref = os.path.join(refs, "dev")
    moved, removed, first = {}, {}, None
    for doc in DOCS:
        new, without = GOLD[doc], GOLD[doc]
        for index, (piece, ident, start) in enumerate(_span_pieces(GOLD[doc])):
            if picks[index % len(picks)]:
                end = len(TEXT[doc]) + past
                changed = re.sub(r"<span>[^<]*</span>", "<span>%d,%d</span>" % (start, end), piece, count=1)
                new, without = new.replace(piece, changed), without.replace(piece, "")
                first = first or (doc, ident, start, end)
        moved[doc], removed[doc] = new, without
    report = score(ref, submission(moved), tmp_path)
    found = texts(report, "with a span ending after the document's text")
    if first is None:
        assert not found
        return
    assert not [m for m in report["messages"] if m["severity"] == "error"], report["messages"]
    doc, ident, start, end = first
    assert found[0]["file"] == scate_data.submission_name(doc)
    assert found[0]["where"].startswith("entity %s (line " % ident)
    assert "(%d characters; first: span %d,%d)" % (len(TEXT[doc]), start, end) in found[0]["text"]
    assert "the rest of the file is scored" in found[0]["text"]
    assert len(found) == len(set(m["file"] for m in found)), "one message per file"
    assert not texts(report, "file without any entity"), "a file whose entities were dropped is not called empty"
    assert score(ref, submission(removed), tmp_path, "removed.zip")["scores"] == report["scores"]


def test_the_reference_reader_still_refuses_a_span_past_the_text():
    xml = b"<data><annotations><entity><id>1</id><span>0,9</span><type>Year</type></entity></annotations></data>"
    with pytest.raises(DataError) as err:
        anafora.read_anafora(xml, "gold.xml", "1998")
    assert "span 0,9 ends outside the document (4 characters)" in str(err.value)
    document = anafora.read_anafora(xml, "pred.xml", "1998", drop_outside=True)
    assert document.entities == [] and document.dropped == [("1", 1, (0, 9))]


# --------------------------------------------------------------------------- encodings against their declaration

@pytest.mark.parametrize("codec,found", [("utf-16", "UTF-16LE"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_a_utf16_file_declared_utf8_says_both(refs, tmp_path, codec, found):
    ref = os.path.join(refs, "dev")
    data = GOLD[DOCS[0]]
    assert "encoding='UTF-8'" in data
    report = score(ref, {scate_data.submission_name(DOCS[0]): data.encode(codec),
                         scate_data.submission_name(DOCS[1]): GOLD[DOCS[1]]}, tmp_path)
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["file"] == scate_data.submission_name(DOCS[0])
    assert ("(the file is %s, but its XML declaration says encoding='UTF-8': write it in UTF-8, or declare "
            "encoding='UTF-16')" % found) in errors[0]["text"]
    assert errors[0]["where"].startswith("line 1, column ")
    plain = score(ref, submission({DOCS[0]: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "plain.zip")
    assert plain["scores"] == report["scores"]
    right = data.replace("encoding='UTF-8'", "encoding='UTF-16'").encode(codec)
    fine = score(ref, {scate_data.submission_name(DOCS[0]): right,
                       scate_data.submission_name(DOCS[1]): GOLD[DOCS[1]]}, tmp_path, "fine.zip")
    assert fine["scores"]["avg_score"] == 1.0, "a UTF-16 file declared so is read"


def test_latin1_bytes_under_a_utf8_declaration_say_so():
    data = GOLD[DOCS[0]].replace("<data>", "<data><!-- syst\u00e8me -->").encode("latin-1")
    with pytest.raises(DataError) as err:
        anafora.read_anafora(data, "d.xml")
    offset = data.index(b"\xe8")
    assert ("(the file is not UTF-8, though its XML declaration says so: byte 0xe8 at offset %d" % offset
            in str(err.value))


# --------------------------------------------------------------------------- a constant type

def _types(xml, kind):
    return re.sub(r"<type>[^<]*</type>", "<type>%s</type>" % kind, xml)


@pytest.mark.parametrize("kind", ["Year", "Month-Of-Year", "Last"])
def test_every_entity_of_one_type_is_said_once(refs, tmp_path, monkeypatch, kind):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, _types(GOLD[doc], kind)) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "is the type written as a constant")
    total = sum(len(_span_pieces(GOLD[doc])) for doc in DOCS)
    gold = sum(len(re.findall(r"<type>%s</type>" % kind, GOLD[doc])) for doc in DOCS)
    assert len(found) == 1, [m["text"] for m in report["messages"]]
    assert found[0]["text"].startswith("all %d entities of the submission have the type '%s', while the gold of this "
                                       "phase has " % (total, kind))
    assert "('%s' is %d of its %d entities)" % (kind, gold, total) in found[0]["text"]
    first = _span_pieces(GOLD[DOCS[0]])[0][1]
    assert report["messages"].index(found[0]) < min(
        [report["messages"].index(m) for m in texts(report, "SCATE schema")] or [len(report["messages"])]), \
        "the cause comes before the warnings that follow from it"
    assert found[0]["file"] == scate_data.submission_name(DOCS[0])
    assert found[0]["where"].startswith("entity %s (line " % first)
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind.AnaforaKind, "_constant_type", lambda *args: None)
        assert score(ref, submission(xml), tmp_path, "off.zip")["scores"] == report["scores"]


def test_the_gold_and_a_few_entities_get_no_constant_warning(refs, tmp_path):
    ref = os.path.join(refs, "dev")
    assert not texts(score(ref, submission(GOLD), tmp_path), "is the type written as a constant")
    few = dict((doc, "<data><annotations>%s</annotations></data>" % "".join(
        piece for piece, _, _ in _span_pieces(_types(GOLD[doc], "Year"))[:2])) for doc in DOCS)
    assert not texts(score(ref, submission(few), tmp_path, "few.zip"), "is the type written as a constant")


# --------------------------------------------------------------------------- an empty file and its ignored second

@settings(**SETTINGS)
@given(empties=st.lists(st.booleans(), min_size=2, max_size=2).filter(any))
def test_an_empty_file_names_the_second_file_ignored(refs, tmp_path, empties):
    ref = os.path.join(refs, "dev")
    members, read = {}, {}
    assert len(DOCS) == len(empties)
    for index, doc in enumerate(DOCS):
        empty, name = empties[index], scate_data.submission_name(doc)
        members[name] = read[name] = EMPTY if empty else GOLD[doc]
        if empty:
            members["run2/" + name] = GOLD[doc]
    assert members
    report = score(ref, members, tmp_path)
    found = texts(report, "documents have a file without any entity")
    empty = [doc for index, doc in enumerate(DOCS) if empties[index]]
    assert len(found) == 1 and found[0]["file"] == scate_data.submission_name(empty[0])
    assert "%d of them also have a second file, ignored (the first file found is the one read): %s read for %s, " \
           "run2/%s ignored" % (len(empty), scate_data.submission_name(empty[0]), empty[0],
                                scate_data.submission_name(empty[0])) in found[0]["text"]
    assert "this is right" not in found[0]["text"]
    assert score(ref, read, tmp_path, "read.zip")["scores"] == report["scores"]


def test_an_empty_file_alone_keeps_its_message(refs, tmp_path):
    report = score(os.path.join(refs, "dev"), submission({DOCS[0]: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path)
    found = texts(report, "documents have a file without any entity")
    assert len(found) == 1 and "If your system found no time expression there, this is right" in found[0]["text"]


# --------------------------------------------------------------------------- test documents on the dev phase

def test_files_for_test_documents_on_the_dev_phase_are_named_so(refs, tmp_path):
    ref = os.path.join(refs, "dev")
    test = scate_data.documents(SAMPLE, "test")
    assert test
    members = dict((scate_data.submission_name(doc), EMPTY) for doc in test)
    members.update(submission(GOLD))
    report = score(ref, members, tmp_path)
    found = texts(report, "file(s) for documents this phase does not have")
    assert len(found) == 1 and found[0]["where"] == "layout"
    assert found[0]["text"].endswith("These are documents of the test split: were these predictions made for another "
                                     "split than this phase's?")
    assert "Did you mean" not in found[0]["text"], "another split's file is no misspelt document of this one"
    assert score(ref, submission(GOLD), tmp_path, "own.zip")["scores"] == report["scores"]
    with io.open(os.path.join(ref, "norm_en.json"), encoding="utf-8") as handle:
        assert not any(doc in handle.read() for doc in test)


def test_name_digests_and_names_are_both_members():
    ref = anafora_kind.Reference([], "full", 0, {"test": frozenset([anafora_kind.name_digest("T1")]),
                                                "train": frozenset(["A1"])})
    assert anafora_kind.other_split(["T1"], ref) == "test"
    assert anafora_kind.other_split(["A1"], ref) == "train"
    assert anafora_kind.other_split(["Z9"], ref) == ""


# --------------------------------------------------------------------------- refusals that name their cause

REFUSED = [
    ("the document's text", lambda doc: TEXT[doc], "(the file does not start with '<' but with '%s"),
    ("JSON", lambda doc: json.dumps({"entities": []}), "(the file does not start with '<' but with '{\"entities\": []}'"),
    ("a second root", lambda doc: GOLD[doc] + "<data><annotations></annotations></data>\n",
     "(the root element <data> ended on line {end}: the file goes on after it"),
    ("a stray end tag", lambda doc: GOLD[doc] + "</data>\n", "(the root element <data> ended on line {end}: the file "
                                                              "goes on after it; two documents in one file, or a stray"),
]


@pytest.mark.parametrize("label,make,expected", REFUSED, ids=[r[0] for r in REFUSED])
def test_files_that_are_not_one_xml_document_say_why(refs, tmp_path, label, make, expected):
    ref = os.path.join(refs, "dev")
    end = GOLD[DOCS[0]].rstrip().count("\n") + 1
    report = score(ref, {scate_data.submission_name(DOCS[0]): make(DOCS[0]),
                         scate_data.submission_name(DOCS[1]): GOLD[DOCS[1]]}, tmp_path)
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["file"] == scate_data.submission_name(DOCS[0])
    assert (expected % DOCS[0] if "%s" in expected else expected.replace("{end}", str(end))) in errors[0]["text"], errors[0]
    assert errors[0]["where"].startswith("line ")
    plain = score(ref, submission({DOCS[0]: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "plain.zip")
    assert plain["scores"] == report["scores"]


SPANS = [
    ("dash", lambda s, e: "%d-%d" % (s, e), "got '{s}-{e}' (write it '{s},{e}': two integers separated by a comma)"),
    ("tuple", lambda s, e: "(%d, %d)" % (s, e), "got '({s}, {e})' (write it '{s},{e}': two integers separated by a "
                                                "comma)"),
    ("floats", lambda s, e: "%d.0,%d.0" % (s, e), "got '{s}.0,{e}.0' (write it '{s},{e}': two integers separated"),
    ("negative", lambda s, e: "-1,%d" % e, "got '-1,{e}' (offsets count characters from 0: -1 is no position)"),
    ("trailing ;", lambda s, e: "%d,%d;" % (s, e), "got '' (an empty span: a ';' with nothing after it, or two in a "
                                                  "row?)"),
    ("start,length", lambda s, e: "%d,%d" % (s, e - s), "expected span start <= end, got {s},{n} (a span is start,end, "
                                                        "the end excluded: if {n} is a length, the span is {s},{e})"),
]


@pytest.mark.parametrize("label,write,expected", SPANS, ids=[s[0] for s in SPANS])
def test_spans_written_otherwise_say_how_to_write_them(refs, tmp_path, label, write, expected):
    ref = os.path.join(refs, "dev")
    doc = DOCS[0]
    ends = [(p, int(re.search(r"<span>[0-9]+,([0-9]+)", p[0]).group(1))) for p in _span_pieces(GOLD[doc])]
    (piece, ident, start), end = [(p, e) for p, e in ends if p[2] > e - p[2]][-1]   # start,length is no start,end
    changed = re.sub(r"<span>[^<]*</span>", "<span>%s</span>" % write(start, end), piece, count=1)
    report = score(ref, submission({doc: GOLD[doc].replace(piece, changed), DOCS[1]: GOLD[DOCS[1]]}), tmp_path)
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["where"].startswith("entity %s (line " % ident), report["messages"]
    assert expected.format(s=start, e=end, n=end - start) in errors[0]["text"], errors[0]["text"]
    plain = score(ref, submission({doc: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "plain.zip")
    assert plain["scores"] == report["scores"]


# --------------------------------------------------------------------------- one file for the whole submission

@pytest.mark.parametrize("member", ["predictions.xml", "output/all.xml", "run1.xml"])
def test_a_file_named_after_no_document_gets_no_renaming_to_another_non_document(refs, tmp_path, member):
    ref = os.path.join(refs, "dev")
    with pytest.raises(layout.NothingToScore) as err:
        score(ref, {member: "".join(GOLD[doc] for doc in DOCS)}, tmp_path)
    text = str(err.value)
    assert "Did you mean" not in text
    assert ("%s names no document of this phase (such as %s): a submission holds one file per document, named after "
            "the document, as <doc>/<doc>.TimeNorm.system.completed.xml." % (member, ", ".join(sorted(DOCS)[:2]))
            in text)


def test_a_document_name_still_gets_its_renaming():
    hint = lines.document_name_hint(["D1.xml"], "{doc}/{doc}.system.xml", ["D1", "D2"])
    assert hint == "Did you mean D1/D1.system.xml for D1.xml?"


# --------------------------------------------------------------------------- one file copied to every document

@pytest.mark.parametrize("plain_ids", [False, True])
def test_one_documents_file_copied_to_the_others_is_said_first(refs, tmp_path, monkeypatch, plain_ids):
    ref = os.path.join(refs, "dev")
    copy = GOLD[DOCS[0]]
    if plain_ids:   # ids that name no document: the swapped-files warning cannot say it
        copy = re.sub(r"([0-9]+)@e@[^<]*@gold", r"\1", copy)
    kept = [piece for piece, _, _ in _span_pieces(copy) if int(re.search(r",([0-9]+)</span>", piece).group(1))
            <= min(len(TEXT[doc]) for doc in DOCS)]
    copy = "<data><annotations>%s</annotations></data>" % "".join(kept)
    assert len(kept) >= anafora_kind.CONSTANT_MIN
    report = score(ref, submission(dict((doc, copy) for doc in DOCS)), tmp_path)
    found = texts(report, "holding the same entities (spans and types) as another document's file")
    assert len(found) == 1 and found[0]["where"] == "whole file"
    assert found[0]["file"] == scate_data.submission_name(DOCS[1])
    assert found[0]["text"].startswith("%d of %d documents have a file holding the same entities (spans and types) as "
                                       "another document's file (%s): is one document's prediction written for the "
                                       "others?" % (len(DOCS), len(DOCS), ", ".join(DOCS)))
    assert report["messages"].index(found[0]) == min(report["messages"].index(m) for m in report["messages"]
                                                     if m["file"].startswith(DOCS[1])), "the cause comes first"
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind.AnaforaKind, "_copied_files", lambda *args: None)
        assert score(ref, submission(dict((doc, copy) for doc in DOCS)), tmp_path, "off.zip")["scores"] == \
            report["scores"]
    assert not texts(score(ref, submission(GOLD), tmp_path, "gold.zip"), "holding the same entities")


# --------------------------------------------------------------------------- an end offset one too far

def test_end_offsets_one_too_far_are_named_not_called_a_shift(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, re.sub(r"<span>(\d+),(\d+)</span>", lambda m: "<span>%s,%d</span>" % (
        m.group(1), int(m.group(2)) + 1), GOLD[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "spans start or end inside a word")
    named = [m for m in found if "With the end offset one nearer, " in m["text"]]
    assert named and "does each end count one character too many" in named[0]["text"], [m["text"] for m in found]
    assert not [m for m in found if "Shifted by" in m["text"]], "no shift is named (a sample file has too few cut spans)"
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind, "check_document", lambda *args, **kwargs: [])
        assert score(ref, submission(xml), tmp_path, "off.zip")["scores"] == report["scores"]


# --------------------------------------------------------------------------- links that name no entity

@pytest.mark.parametrize("how,expected", [
    ("a span", "'{s},{e}': names no entity of the file (a link holds the <id> of the entity it names, not its span)"),
    ("another suffix", "'{n}@e@{doc}@gold': names no entity of the file x1 (did you mean {n}@e@{doc}@system?)"),
])
def test_links_that_name_no_entity_say_what_they_hold(refs, tmp_path, monkeypatch, how, expected):
    ref = os.path.join(refs, "dev")
    doc = DOCS[0]
    link = re.search(r"<(Sub-Interval|Repeating-Interval)>([0-9]+)@e@[^<]*</\1>", GOLD[doc])
    assert link, "the sample links entities"
    target = [p for p in _span_pieces(GOLD[doc]) if p[1].startswith(link.group(2) + "@")][0]
    start, end = re.search(r"<span>([0-9]+),([0-9]+)</span>", target[0]).groups()
    if how == "a span":
        xml = GOLD[doc].replace(link.group(0), "<%s>%s,%s</%s>" % (link.group(1), start, end, link.group(1)), 1)
    else:   # every entity's id says system, the links still say gold
        xml = re.sub(r"<id>([^<]*)@gold</id>", r"<id>\1@system</id>", GOLD[doc])
    report = score(ref, submission({doc: xml, DOCS[1]: GOLD[DOCS[1]]}), tmp_path)
    found = texts(report, "names no entity of the file")
    assert len(found) == 1 and found[0]["file"] == scate_data.submission_name(doc)
    assert expected.format(s=start, e=end, n=link.group(2), doc=doc) in found[0]["text"], found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind, "check_document", lambda *args, **kwargs: [])
        assert score(ref, submission({doc: xml, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "off.zip")["scores"] == \
            report["scores"]
