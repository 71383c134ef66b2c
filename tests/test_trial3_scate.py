"""SCATE, third round of issue 24's trial: mistakes a participant makes that used to cost score in silence, or got a
message pointing elsewhere, and now get one message per file (or submission) and class, naming the cause and the
first position. Each class is generated on the synthetic sample (no ../shared needed) and checked three ways: the
message (quoted), its position, and the score, identical with and without the check that says it (a warning
changes no number; a refused file scores as a file that predicts nothing).

Classes (before -> now):
- properties outside ``<properties>`` (bare under ``<entity>``, in a ``<property>`` wrapper, or values held in an
  attribute): "entities lack a property the SCATE schema requires" (wrong cause) -> "properties are outside their
  entity's <properties> element ...";
- the same entity written twice under two ids: silence (interval precision lost) -> "entities repeat an earlier
  entity of the file";
- every span shifted by a few characters: "is an offset off by one?" whatever the shift -> the shift that puts
  the spans on word boundaries;
- a TimeML file (TIMEX3, DATE, EVENT): "did you mean Event?" -> "is this a TimeML annotation";
- a file holding another document's entities (swapped files): span warnings only -> "ids name another document";
- entities written as ``<relation>`` or inside a nested ``<annotations>``: "a file without any entity ... this is
  right" -> the elements ignored; only Event/PreAnnotation/NotNormalizable entities: silence -> said;
- a Year whose Value has two digits ('98): silence -> "the year 98 of our era";
- files for documents the phase lacks: a did-you-mean for a close spelling or a ``.tml`` left on, and the split
  they belong to (``other_splits`` of the reference);
- refused files: an empty file, bytes that are not UTF-8, an HTML entity, attributes instead of child elements,
  spans joined by commas: each names its cause;
- misnamed files: a folder cut before the document's dot, no ``.xml``, one zip per document;
- the validator: a submission whose ranking task (intervals) scores 0 while the spans task does not exits 1 and
  counts the file (before: exit 0, "0 files will score 0", the spans task's score hid the interval one).
"""
import io
import os
import re
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalkit import floor, layout, lines, scoring
from evalkit.timenorm import anafora, schema
from evalkit.timenorm import kind as anafora_kind

from test_scate_warnings import DOCS, GOLD, KIT, SAMPLE, TEXT, reference, scate, scate_data

EMPTY = "<data><annotations></annotations></data>\n"
SETTINGS = dict(max_examples=10, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("scate_round3"))
    reference.build(SAMPLE, out)
    return out


def score(ref, members, tmp_path, name="s.zip"):
    """The report of the scoring program on ``members`` ({member name: text or bytes})."""
    path = os.path.join(str(tmp_path), name)
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data if isinstance(data, bytes) else data.encode("utf-8"))
    return scoring.evaluate(scate, ref, path)


def submission(xml_by_doc):
    return dict((scate_data.submission_name(doc), xml) for doc, xml in xml_by_doc.items())


def entities(xml):
    return re.findall(r"<entity>.*?</entity>", xml, flags=re.S)


def with_checks_off(monkeypatch, ref, members, tmp_path):
    """The report with every warning of the reading and of the submission-wide classes switched off."""
    with monkeypatch.context() as patch:
        patch.setattr(anafora_kind, "check_document", lambda *args, **kwargs: [])
        patch.setattr(anafora_kind.AnaforaKind, "_empty_documents", lambda *args: None)
        patch.setattr(anafora_kind.AnaforaKind, "_other_documents_ids", lambda *args: None)
        return score(ref, members, tmp_path, "off.zip")


def texts(report, part):
    return [m for m in report["messages"] if part in m["text"]]


# --------------------------------------------------------------------------- properties not where Anafora reads them

def _misplace(piece, style):
    """``piece`` (one <entity>) with its properties moved as ``style`` says; the number of values moved."""
    props = re.search(r"<properties>(.*?)</properties>", piece, flags=re.S)
    if not props or not re.search(r"<([A-Za-z-]+)>[^<]+</\1>", props.group(1)):
        return piece, 0
    inner = props.group(1)
    moved = len(re.findall(r"<([A-Za-z-]+)>[^<]+</\1>", inner))
    if style == "bare":
        return piece.replace(props.group(0), inner), moved
    if style == "wrapper":
        return piece.replace(props.group(0), "<property>%s</property>" % inner), moved
    return piece.replace(props.group(0), "<properties>%s</properties>" % re.sub(
        r"<([A-Za-z-]+)>([^<]+)</\1>", r'<\1 value="\2"/>', inner)), moved


@settings(**SETTINGS)
@given(style=st.sampled_from(["bare", "wrapper", "attribute"]), picks=st.lists(st.booleans(), min_size=8, max_size=8))
def test_properties_outside_properties_are_said_not_called_missing(refs, tmp_path, monkeypatch, style, picks):
    ref = os.path.join(refs, "dev")
    xml, moved, first = {}, 0, None
    for doc in DOCS:
        pieces = entities(GOLD[doc])
        new = GOLD[doc]
        for index, piece in enumerate(pieces):
            if picks[index % len(picks)]:
                changed, count = _misplace(piece, style)
                new = new.replace(piece, changed)
                moved += count
                if count and first is None:
                    first = (doc, re.search(r"<id>(.*?)</id>", piece).group(1))
        xml[doc] = new
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "outside their entity's <properties>") + texts(report, "outside its entity's <properties>")
    if not moved:
        assert not found
        return
    assert sum(int(m["text"].split(" ", 1)[0]) for m in found) == moved, [m["text"] for m in found]
    where = {"bare": "outside <properties>", "wrapper": "in <property>, not <properties>,",
             "attribute": "in an attribute"}[style]
    assert all(where in m["text"] and "write <properties><Value>1998</Value></properties>" in m["text"] for m in found)
    assert found[0]["file"] == scate_data.submission_name(first[0])
    assert found[0]["where"].startswith("entity %s (line " % first[1])
    assert not texts(report, "lack a property the SCATE schema requires") + texts(
        report, "lacks a property the SCATE schema requires"), "the cause is the place, not a missing property"
    assert with_checks_off(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


def test_the_validator_counts_a_file_whose_ranking_task_scores_0(tmp_path):
    """Every property outside <properties>: no interval (the ranking task) but every span right (the spans task):
    the validator exits 1 and counts the files, by their names (issue 33: not the pattern); before, the spans task's
    score hid the 0 (exit 0)."""
    xml = dict((doc, GOLD[doc].replace("<properties>", "").replace("</properties>", "")) for doc in DOCS)
    path = tmp_path / "moved.zip"
    with zipfile.ZipFile(str(path), "w") as archive:
        for member, text in submission(xml).items():
            archive.writestr(member, text)
    proc = subprocess.run([sys.executable, "-I", os.path.join(KIT, "validate.py"), str(path), "--data", SAMPLE,
                           "--split", "dev"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "%d files will score 0 (%s) -- fix them before uploading" % (
        len(DOCS), ", ".join(scate_data.submission_name(doc) for doc in DOCS)) in proc.stdout, proc.stdout
    assert re.search(r"^norm .*interval_f1 0\.0000", proc.stdout, flags=re.M), proc.stdout
    assert re.search(r"^spans .*identification_f1 1\.0000", proc.stdout, flags=re.M), proc.stdout


def test_gold_scores_keep_the_lowest_score_of_a_file_two_tasks_score():
    entries = [{"file": "f", "task": "norm", "status": "scored", "score": 0.0},
               {"file": "f", "task": "spans", "status": "scored", "score": 0.9},
               {"file": "g", "task": "spans", "status": "scored", "score": 0.5}]
    assert floor.gold_scores({"entries": entries}, lambda entry: True) == {"f": 0.0, "g": 0.5}
    assert floor.gold_scores({"entries": entries[::-1]}, lambda entry: True) == {"f": 0.0, "g": 0.5}


# --------------------------------------------------------------------------- the same entity twice

@settings(**SETTINGS)
@given(picks=st.lists(st.booleans(), min_size=8, max_size=8))
def test_repeated_entities_get_one_warning_per_file_and_the_same_score(refs, tmp_path, monkeypatch, picks):
    ref = os.path.join(refs, "dev")
    xml, copies = {}, {}
    for doc in DOCS:
        pieces = entities(GOLD[doc])
        chosen = [p for i, p in enumerate(pieces) if picks[i % len(picks)]]
        extra = "".join(re.sub(r"<id>([^<]*)</id>", r"<id>\1-again</id>", p) for p in chosen)
        xml[doc] = GOLD[doc].replace("</annotations>", extra + "</annotations>")
        copies[doc] = chosen
    report = score(ref, submission(xml), tmp_path)
    for doc in DOCS:
        found = [m for m in texts(report, "repeat an earlier entity") + texts(report, "repeats an earlier entity")
                 if m["file"] == scate_data.submission_name(doc)]
        if not copies[doc]:
            assert not found
            continue
        first = re.search(r"<id>(.*?)</id>", copies[doc][0]).group(1)
        assert len(found) == 1 and found[0]["text"].startswith("%d entit" % len(copies[doc])), found
        assert "(as entity '%s')" % first in found[0]["text"] and "costs interval precision" in found[0]["text"]
        assert found[0]["where"].startswith("entity %s-again (line " % first)
    assert with_checks_off(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


def test_the_public_gold_repeats_nothing_and_misplaces_nothing():
    for doc in DOCS:
        document = anafora.read_anafora(GOLD[doc].encode("utf-8"), "d.xml", TEXT[doc])
        assert schema.check_document(document, "d.xml", ("placement", "repeat")) == []


# --------------------------------------------------------------------------- spans shifted by a constant

@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdefghij", min_size=4, max_size=9), min_size=6, max_size=30),
       delta=st.sampled_from([-3, -2, -1, 1, 2, 3]), lead=st.integers(0, 3))
def test_a_constant_shift_is_named(words, delta, lead):
    text = "\n" * lead + " ".join(words)
    spans, start = [], lead
    for word in words:
        spans.append((start, start + len(word)))
        start += len(word) + 1
    shifted = [(s + delta, e + delta) for s, e in spans if 0 <= s + delta and e + delta <= len(text)]
    cut = [(s, e) for s, e in shifted if schema._cuts(text, s, e)]
    sentence = schema.shifted_spans(text, cut)
    if len(cut) < 3:
        assert sentence == ""
        return
    def fixed(shift):
        return sum(1 for s, e in cut if 0 <= s + shift < e + shift <= len(text)
                   and not schema._cuts(text, s + shift, e + shift))
    best = max(fixed(shift) for shift in schema.SHIFTS)
    assert fixed(-delta) == best == len(cut)   # the true shift puts every one back on word boundaries
    named = int(re.match(r" Shifted by ([+-][0-9]) characters, ", sentence).group(1))
    assert fixed(named) == best and sentence.startswith(" Shifted by %+d characters, %d of these %d spans" % (
        named, best, len(cut))), sentence
    if [shift for shift in schema.SHIFTS if fixed(shift) == best] == [-delta]:   # words of a period: either shift
        assert named == -delta


def test_inclusive_end_offsets_are_named():
    text = "On Friday the 7th of August 1998, at 10 a.m. local time"
    words = [(m.start(), m.end() - 1) for m in re.finditer(r"[A-Za-z]{2,}", text)]
    assert "are the end offsets inclusive?" in schema.shifted_spans(text, words)


def test_a_shifted_submission_says_the_shift_and_keeps_its_score(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, re.sub(r"<span>(\d+),(\d+)</span>", lambda m: "<span>%d,%d</span>" % (
        int(m.group(1)) + 1, int(m.group(2)) + 1), GOLD[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "spans start or end inside a word")
    assert found and any("Shifted by -1 characters" in m["text"] for m in found), [m["text"] for m in found]
    assert with_checks_off(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


# --------------------------------------------------------------------------- TimeML, swapped files, Years, elements

@pytest.mark.parametrize("timeml", ["TIMEX3", "DATE", "EVENT", "Signal"])
def test_timeml_types_say_timeml_not_did_you_mean(refs, tmp_path, monkeypatch, timeml):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, re.sub(r"<type>[^<]*</type>", "<type>%s</type>" % timeml, GOLD[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "type outside the SCATE schema")
    assert len(found) == len(DOCS)
    assert all("%s is TimeML: is this a TimeML annotation" % timeml in m["text"] for m in found)
    assert not any("did you mean" in m["text"] for m in found)
    assert with_checks_off(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


def test_a_file_with_another_documents_entities_is_said(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    first, second = DOCS[0], DOCS[1]
    swapped = {first: GOLD[second], second: GOLD[first]}
    members = submission(swapped)
    report = score(ref, members, tmp_path)
    found = texts(report, "whose entity ids name another document of this phase")
    readable = [doc for doc in (first, second) if not [m for m in report["messages"] if m["severity"] == "error"
                                                       and m["file"] == scate_data.submission_name(doc)]]
    assert len(found) == 1 and found[0]["where"] == "whole file", report["messages"]
    assert found[0]["text"].startswith("%d of 2 documents" % len(readable))
    assert "the file of %s holds ids of %s" % (readable[0], second if readable[0] == first else first) in found[0]["text"]
    assert with_checks_off(monkeypatch, ref, members, tmp_path)["scores"] == report["scores"]


def test_a_two_digit_year_is_said(refs, tmp_path, monkeypatch):
    ref = os.path.join(refs, "dev")
    xml = dict((doc, re.sub(r"(<type>Year</type><properties><Value>)19(\d\d)<", r"\g<1>\2<", GOLD[doc]))
               for doc in DOCS)
    changed = sum(len(re.findall(r"<type>Year</type><properties><Value>\d\d<", x)) for x in xml.values())
    assert changed
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, "of our era (write '98 as a Two-Digit-Year, or as the Year 1998)")
    assert sum(int(m["text"].split(" ", 1)[0]) for m in found) == changed
    assert with_checks_off(monkeypatch, ref, submission(xml), tmp_path)["scores"] == report["scores"]


@pytest.mark.parametrize("how,expected", [
    ("relation", "documents hold elements other than <entity> inside <annotations> ('relation' x"),
    ("nested", "documents hold <entity> elements outside <annotations>"),
    ("event", "documents hold only entities of the types no metric scores (Event, NotNormalizable, PreAnnotation"),
])
def test_elements_the_reader_ignores_are_named_not_called_empty(refs, tmp_path, monkeypatch, how, expected):
    ref = os.path.join(refs, "dev")
    change = {"relation": lambda x: x.replace("<entity>", "<relation>").replace("</entity>", "</relation>"),
              "nested": lambda x: x.replace("<annotations>", "<annotations><annotations>").replace(
                  "</annotations>", "</annotations></annotations>"),
              "event": lambda x: re.sub(r"<type>[^<]*</type>", "<type>Event</type>", x)}[how]
    xml = {DOCS[0]: change(GOLD[DOCS[0]]), DOCS[1]: GOLD[DOCS[1]]}
    report = score(ref, submission(xml), tmp_path)
    found = texts(report, expected)
    assert len(found) == 1 and found[0]["text"].startswith("1 of 2 "), report["messages"]
    assert found[0]["file"] == scate_data.submission_name(DOCS[0])
    assert not texts(report, "file without any entity")
    plain = score(ref, submission({DOCS[0]: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "plain.zip")
    assert plain["scores"] == report["scores"]


# --------------------------------------------------------------------------- document names and splits

@pytest.mark.parametrize("wrong", ["{doc}.tml", "{doc}X"])
def test_a_document_name_off_by_a_suffix_or_a_letter_gets_a_did_you_mean(refs, tmp_path, wrong):
    ref = os.path.join(refs, "dev")
    bad = wrong.format(doc=DOCS[0])
    members = {"%s/%s.TimeNorm.system.completed.xml" % (bad, bad): GOLD[DOCS[0]],
               scate_data.submission_name(DOCS[1]): GOLD[DOCS[1]]}
    report = score(ref, members, tmp_path)
    found = texts(report, "file(s) for documents this phase does not have")
    assert len(found) == 1 and "Did you mean %s for %s?" % (DOCS[0], bad) in found[0]["text"], found
    without = score(ref, submission({DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "without.zip")
    assert without["scores"] == report["scores"]


def test_files_of_another_split_are_named_so(refs, tmp_path):
    ref = os.path.join(refs, "dev")
    train = scate_data.documents(SAMPLE, "train")
    assert train
    folder = os.path.join(SAMPLE, "train_dev", "TimeBank")
    members = dict((scate_data.submission_name(doc), io.open(scate_data.gold_path(folder, doc), encoding="utf-8").read())
                   for doc in train)
    members[scate_data.submission_name(DOCS[0])] = GOLD[DOCS[0]]
    report = score(ref, members, tmp_path)
    found = texts(report, "These are documents of the train split: were these predictions made for another split")
    assert len(found) == 1 and found[0]["where"] == "layout"
    assert score(ref, submission({DOCS[0]: GOLD[DOCS[0]]}), tmp_path, "own.zip")["scores"] == report["scores"]


def test_the_development_reference_writes_no_test_document_name(refs):
    import json
    with io.open(os.path.join(refs, "dev", "norm_en.json"), encoding="utf-8") as handle:
        text = handle.read()
    others = json.loads(text)["other_splits"]
    assert others["train"] == scate_data.documents(SAMPLE, "train")
    test = scate_data.documents(SAMPLE, "test")
    assert test and sorted(others["test"]) == sorted(anafora_kind.name_digest(doc) for doc in test)
    assert not any(doc in text for doc in test)


def _inner_zip(doc):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as inner:
        inner.writestr(scate_data.submission_name(doc), GOLD[doc])
    return buffer.getvalue()


#: Misnamed document files: how each document's member is named (and what it holds), and the hint expected.
MISNAMED = [
    ("folder cut", lambda doc: ("%s/%s.TimeNorm.system.completed.xml" % (doc.rsplit("_", 1)[0], doc), GOLD[doc]),
     "Did you mean {doc}/{doc}.TimeNorm.system.completed.xml for {cut}/{doc}.TimeNorm.system.completed.xml"),
    ("no .xml", lambda doc: ("%s/%s.TimeNorm.system.completed" % (doc, doc), GOLD[doc]),
     "The file name lacks its extension .xml. Did you mean {doc}/{doc}.TimeNorm.system.completed.xml for "
     "{doc}/{doc}.TimeNorm.system.completed (and the same for 1 more of these files)?"),
    ("a zip per document", lambda doc: (doc + ".zip", _inner_zip(doc)),
     "The file is an archive (zip) inside the uploaded zip: put the files it holds in the uploaded zip itself (the "
     "scorer does not unpack archives inside it). Did you mean {doc}/{doc}.TimeNorm.system.completed.xml for "
     "{doc}.zip"),
]


@pytest.mark.parametrize("label,member,expected", MISNAMED, ids=[m[0] for m in MISNAMED])
def test_misnamed_document_files_get_the_right_name(refs, tmp_path, label, member, expected):
    ref = os.path.join(refs, "dev")
    with pytest.raises(layout.NothingToScore) as err:
        score(ref, dict(member(doc) for doc in DOCS), tmp_path)
    assert expected.format(doc=DOCS[0], cut=DOCS[0].rsplit("_", 1)[0]) in str(err.value), str(err.value)


def test_a_folder_cut_at_the_documents_dot_suggests_the_whole_name():
    hint = lines.document_name_hint(["APW19980807/APW19980807.0261.TimeNorm.system.completed.xml"],
                                    "{doc}/{doc}.TimeNorm.system.completed.xml", ["APW19980807.0261"])
    assert hint == ("Did you mean APW19980807.0261/APW19980807.0261.TimeNorm.system.completed.xml for "
                    "APW19980807/APW19980807.0261.TimeNorm.system.completed.xml?")


# --------------------------------------------------------------------------- refusals that name their cause

@pytest.mark.parametrize("label,data,expected", [
    ("empty", b"", "got an empty file (0 bytes)"),
    ("blank", b"\n \n", "got an empty file (3 bytes)"),
    ("latin-1", "<data><annotations><!-- syst\u00e8me --></annotations></data>".encode("latin-1"),
     "(the file is not UTF-8: byte 0xe8 at offset 28; write it in UTF-8, or declare its encoding"),
    ("html entity", b"<data><annotations><entity><id>1</id><span>0,4</span><type>Year</type><properties><Value>1999"
                    b"&nbsp;</Value></properties></entity></annotations></data>",
     "(&nbsp; is an HTML entity: XML knows only &amp; &lt; &gt; &quot; &apos;"),
    ("attributes", b'<data><annotations><entity id="1" span="0,4" type="Year"/></annotations></data>',
     "expected one <id>, got 0 (the <entity> element has the attribute(s) 'id', 'span', 'type': Anafora writes "
     "each as a child element"),
    ("commas", b"<data><annotations><entity><id>1</id><span>0,4,5,9</span><type>Year</type></entity></annotations>"
               b"</data>", "(several spans are separated by ';': '0,4;5,9')"),
])
def test_refused_files_name_their_cause_and_score_as_predicting_nothing(refs, tmp_path, label, data, expected):
    ref = os.path.join(refs, "dev")
    report = score(ref, {scate_data.submission_name(DOCS[0]): data,
                         scate_data.submission_name(DOCS[1]): GOLD[DOCS[1]]}, tmp_path)
    found = [m for m in report["messages"] if m["severity"] == "error" and expected in m["text"]]
    assert len(found) == 1 and found[0]["file"] == scate_data.submission_name(DOCS[0]), report["messages"]
    assert found[0]["text"].endswith("(this document counts as predicting nothing)")
    plain = score(ref, submission({DOCS[0]: EMPTY, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "plain.zip")
    assert plain["scores"] == report["scores"]


def test_a_declared_encoding_is_not_second_guessed():
    data = "<?xml version='1.0' encoding='ISO-8859-1'?><data><annotations><!-- \u00e8 --></annotations></data>"
    document = anafora.read_anafora(data.encode("latin-1"), "d.xml")
    assert document.entities == []


@settings(**SETTINGS)
@given(copies=st.integers(1, 4), empty_first=st.booleans())
def test_second_files_of_a_document_are_one_message_whatever_the_tasks(refs, tmp_path, copies, empty_first):
    """Every document submitted again under other folders: one message for the submission (before: one per file
    and per task reading it, 2 x documents x copies lines), naming the file read; the score is that of the files
    read alone."""
    ref = os.path.join(refs, "dev")
    members, read = {}, {}
    for doc in DOCS:
        first = EMPTY if empty_first else GOLD[doc]
        members[scate_data.submission_name(doc)] = first
        read[scate_data.submission_name(doc)] = first
        for copy in range(copies):
            members["run%d/%s" % (copy, scate_data.submission_name(doc))] = GOLD[doc] if empty_first else EMPTY
    report = score(ref, members, tmp_path)
    found = texts(report, "for documents that already have one")
    assert len(found) == 1 and found[0]["where"] == "layout", [m["text"] for m in report["messages"]]
    assert found[0]["text"].startswith("%d file(s) for documents that already have one (ignored: the first file found "
                                       "for a document is the one read): run0/%s ignored, %s read for %s" % (
                                           copies * len(DOCS), scate_data.submission_name(DOCS[0]),
                                           scate_data.submission_name(DOCS[0]), DOCS[0]))
    assert score(ref, read, tmp_path, "read.zip")["scores"] == report["scores"]
