"""SCATE, fifth round (issue 33): files as real tools write them. Each class is generated on the synthetic sample
(texts altered where a neighbour needs characters the sample lacks) and checked for its message (quoted), its
position and the score: every message here changes no number (the check switched off gives the same scores; a
refused file scores as a file that predicts nothing). The release's own files are checked too (skipped without
../shared/scate).

Classes (before -> now):
- 2, another convention: entity ids used twice that close a cycle of links: "a cycle of links through this entity"
  (the consequence) -> the ids used twice named as the cause, at the second use; ids used twice that the link check
  took for a cycle the links do not have (two entities sharing an id taken for one): the file refused -> read, as
  without the check, their warning before the schema warnings that follow from them;
- 5, offsets counted on another text (``\\r\\n`` line ends of a Windows checkout, and the neighbours: UTF-8 bytes,
  XML escapes, tabs expanded, NFD): "is an offset off by one?" / "counted from 1, in bytes, or over another
  document's text?" -> one warning first, naming the text, how the shift grows (CRLF: by one per line, shown on two
  spans) and the fix; the span warnings that follow say so; a byte-order mark counted (a constant +1) is named in
  the shift sentence;
- 7, words that promise too much: links written as bare numbers (or with the gold's suffix, or as spans) and the
  schema's names lower-cased (or upper-cased, or with ``_``): exit 0 with a score lost in silence -> priced on the
  development gold, file by file and for the whole submission ("0.0435 as written and 0.8571 with every such file
  read as meant" for the sample baseline), "this file loses most of its score" and exit 1; the summary line named
  the pattern ``<doc>/<doc>.TimeNorm.system.completed.xml`` as a file that scores 0 -> the document files;
- 8, the kit README explains that the test phase scores a public part and the final ranking the private rest.
"""
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from evalkit import floor, policy
from evalkit.messages import LOSS_NOTE
from evalkit.timenorm import kind as anafora_kind
from evalkit.timenorm import mends, schema

from test_trial3_scate import EMPTY, SETTINGS, score, submission, texts
from test_scate_warnings import DOCS, GOLD, KIT, SAMPLE, TEXT, reference, scate_data

RELEASE = os.path.join(os.path.dirname(ROOT), "shared", "scate")
needs_release = pytest.mark.skipif(not os.path.isdir(os.path.join(RELEASE, "train_dev")),
                                   reason="../shared/scate absent (the public SCATE release)")
ENTITY = re.compile(r"<entity>.*?</entity>", re.S)


def _built(data, out):
    """The references of ``data`` built into ``out``, the development phase's gold public (its phase.json, as the
    organiser's build writes it): the scorer's development report prices what it reads as meant."""
    reference.build(data, out)
    with io.open(os.path.join(out, "dev", policy.PHASE_FILE), "w", encoding="utf-8") as handle:
        json.dump({"phase": "dev", "gold": policy.PUBLIC}, handle)
    return out


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    return _built(SAMPLE, str(tmp_path_factory.mktemp("scate_round5")))


def _pieces(xml):
    """``[(entity text, id, spans text)]`` of ``xml``, in order."""
    return [(m.group(0), re.search(r"<id>(.*?)</id>", m.group(0)).group(1),
             re.search(r"<span>(.*?)</span>", m.group(0)).group(1)) for m in ENTITY.finditer(xml)]


def _line(xml, piece):
    """The line of ``xml`` on which ``piece`` starts."""
    return xml[:xml.index(piece)].count("\n") + 1


def _of_file(report, doc):
    return [m for m in report["messages"] if m["file"] == scate_data.submission_name(doc)]


def _validate(path, data=SAMPLE, split="dev"):
    """The starting kit's validator on ``path``: (exit status, stdout)."""
    proc = subprocess.run([sys.executable, "-I", os.path.join(KIT, "validate.py"), str(path), "--data", data,
                           "--split", split], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout


def _zip(path, members):
    with zipfile.ZipFile(str(path), "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return str(path)


def _per_document(report, task="norm"):
    """``{document: the task's official metric for it}`` from the report's per-document table."""
    entry = [e for e in report["entries"] if e["task"] == task][0]
    table = entry["details"]["tables"][0]
    column = table["columns"].index("Interval F1" if task == "norm" else "F1")
    return dict((row[0], row[column]) for row in table["rows"])


# --------------------------------------------------------------------------- 5. offsets counted on another text

#: How each other text counts the characters before a position (written independently of mends.OTHER_TEXTS).
COUNTED = {
    "crlf": lambda prefix: len(prefix.replace("\n", "\r\n")),
    "utf8": lambda prefix: len(prefix.encode("utf-8")),
    "nfd": lambda prefix: len(unicodedata.normalize("NFD", prefix)),
    "escaped": lambda prefix: len(html.escape(prefix, quote=False)),
    "tabs": lambda prefix: len(prefix.expandtabs()),
    "crlf+bom": lambda prefix: len("\ufeff" + prefix.replace("\n", "\r\n")),
    "header": lambda prefix: len(prefix) - HEADER,
}
#: The characters a text without its header lines leaves out (the sample's: its name, its date, two blank lines).
HEADER = len("SAMPLE_AQ_0001\n\n1999-03-12\n\n")
#: The words each other text is named with, and the characters the sample's texts get (outside the gold's spans,
#: one for one, so that the gold keeps its offsets) for it to differ from them.
OTHER = {
    "crlf": ("on one with line ends of two characters, \\r\\n (a Windows checkout", None),
    "utf8": ("on its bytes of UTF-8 rather than its characters", ("e", "\u00e9")),
    "nfd": ("on the text decomposed (Unicode NFD)", ("e", "\u00e9")),
    "escaped": ("on the text escaped for XML (&amp;, &lt;, &gt;", (" ", "&")),
    "tabs": ("on the text with its tabs expanded to spaces", (" ", "\t")),
    "crlf+bom": ("on one with line ends of two characters, \\r\\n (a Windows checkout, or the text read without "
                 "newline translation), and +1 from its start (a byte-order mark counted?)", None),
    "header": ("on one that leaves out the first %d characters of this one" % HEADER, None),
}


def _without_header(xml):
    """``xml`` without the entities of the header lines (a system that reads the body alone finds none there)."""
    return ENTITY.sub(lambda m: "" if int(re.search(r"<span>([0-9]+),", m.group(0)).group(1)) < HEADER else m.group(0),
                      xml)


def counted_on(xml, text, count):
    """``xml`` with every span's offsets counted as ``count(text[:offset])``."""
    return re.sub(r"<span>([^<]*)</span>", lambda m: "<span>%s</span>" % ";".join(
        "%d,%d" % (count(text[:int(s)]), count(text[:int(e)])) for s, e in (p.split(",") for p in m.group(1).split(";"))),
        xml)


@pytest.fixture(scope="module")
def altered(tmp_path_factory, refs):
    """``{key: (data folder, dev reference folder, {doc: text})}``: the sample for ``crlf``; for the others, a copy
    whose dev texts have every character of OTHER[key][1][0] outside the gold's spans replaced by the second."""
    found = dict((key, (SAMPLE, os.path.join(refs, "dev"), TEXT)) for key in OTHER if OTHER[key][1] is None)
    for key, (_, swap) in OTHER.items():
        if swap is None:
            continue
        data = str(tmp_path_factory.mktemp("scate_" + key))
        shutil.rmtree(data)
        shutil.copytree(SAMPLE, data)
        text = {}
        for doc in DOCS:
            inside = set()
            for _, _, spans in _pieces(GOLD[doc]):
                for part in spans.split(";"):
                    start, end = (int(n) for n in part.split(","))
                    inside.update(range(start, end))
            old = TEXT[doc]
            text[doc] = "".join(swap[1] if c == swap[0] and i not in inside else c for i, c in enumerate(old))
            assert text[doc] != old and len(text[doc]) == len(old)
            with io.open(scate_data.text_path(data, "dev", doc), "w", encoding="utf-8", newline="") as handle:
                handle.write(text[doc])
        out = _built(data, str(tmp_path_factory.mktemp("scate_ref_" + key)))
        found[key] = (data, os.path.join(out, "dev"), text)
    return found


@pytest.mark.parametrize("key", sorted(OTHER))
@settings(**dict(SETTINGS, max_examples=4))
@given(picks=st.lists(st.booleans(), min_size=2, max_size=2).filter(any))
def test_offsets_counted_on_another_text_are_named_before_what_follows(altered, tmp_path, monkeypatch, key, picks):
    data, ref, text = altered[key]
    assert len(picks) == len(DOCS)
    gold = dict((doc, _without_header(GOLD[doc]) if key == "header" else GOLD[doc]) for doc in DOCS)
    xml = dict((doc, counted_on(gold[doc], text[doc], COUNTED[key]) if picks[i] else GOLD[doc])
               for i, doc in enumerate(DOCS))
    report = score(ref, submission(xml), tmp_path)
    as_meant = score(ref, submission(dict((doc, gold[doc] if picks[i] else GOLD[doc]) for i, doc in enumerate(DOCS))),
                     tmp_path, "meant.zip")   # the file read as meant: its offsets counted on the document's text
    per_doc, spans_doc = _per_document(report), _per_document(report, "spans")
    whole = []
    for i, doc in enumerate(DOCS):
        found = _of_file(report, doc)
        said = [m for m in found if m["text"].startswith("the offsets look counted on another text")]
        if not picks[i]:
            assert not said
            continue
        assert said and found[0] is said[0], "the cause is the file's first message"
        message = said[0]
        assert message["text"].startswith("the offsets look counted on another text than this document's: %s"
                                          % OTHER[key][0]) or (key == "nfd" and "(or %s: on this text it counts "
                                                               "alike; " % OTHER[key][0] in message["text"]), message["text"]
        spans = [(ident, tuple(int(n) for n in spans.split(";")[0].split(","))) for _, ident, spans in
                 _pieces(gold[doc])]
        moved = min(span for _, span in spans if COUNTED[key](text[doc][:span[0]]) != span[0])
        assert message["where"].split(" (line ")[0] in ["entity %s" % ident for ident, span in spans if span == moved]
        assert "Read back onto this document's text, %d of the %d spans start and end on word boundaries" % (
            len(spans), len(spans)) in message["text"]
        if key.startswith("crlf"):   # the shift grows by one per line: +k on line k + 1 (one more after a BOM)
            shown = re.findall(r"\+(\d+) at span \d+,\d+ on line (\d+)", message["text"])
            assert len(shown) == 2 and all(int(shift) == int(line) - 1 + (key == "crlf+bom") for shift, line in shown)
            assert "where the shift grows by one per line" in message["text"]
        assert not [m for m in found if "off by one" in m["text"] or "another document's text" in m["text"]]
        assert all("this follows from the offsets counted on another text" in m["text"].lower() for m in found
                   if "spans start or end inside a word" in m["text"] or "with a span ending after" in m["text"])
        priced = [m for m in found if "priced on this phase's gold" in m["text"]]
        assert len(priced) == 1 and priced[0]["text"].startswith("offsets counted on another text than the "
                                                                 "document's (")
        meant = _per_document(as_meant)[doc], _per_document(as_meant, "spans")[doc]
        assert "its interval F1 is %.4f as written and %.4f read as meant" % (per_doc[doc], meant[0]) in \
            priced[0]["text"]
        if spans_doc[doc] < meant[1]:
            assert "its identification F1 is %.4f as written and %.4f read as meant" % (spans_doc[doc], meant[1]) in \
                priced[0]["text"]
        assert (LOSS_NOTE in priced[0]["text"]) == (2 * per_doc[doc] < meant[0] or 2 * spans_doc[doc] < meant[1])
        whole.append(priced[0])
    assert "the whole submission's interval F1 is %.4f as written and %.4f with every such file read as meant" % (
        report["scores"]["avg_score"], as_meant["scores"]["avg_score"]) in whole[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(mends, "other_text", lambda *args: None)
        quiet = score(ref, submission(xml), tmp_path, "quiet.zip")
    assert quiet["scores"] == report["scores"]
    assert not texts(quiet, "the offsets look counted on another text")


def test_a_byte_order_mark_counted_is_named_in_the_shift_sentence(refs, tmp_path):
    xml = dict((doc, counted_on(GOLD[doc], TEXT[doc], lambda prefix: len("\ufeff" + prefix))) for doc in DOCS)
    report = score(os.path.join(refs, "dev"), submission(xml), tmp_path)
    assert not texts(report, "the offsets look counted on another text")
    found = texts(report, "Shifted by -1 characters")
    assert len(found) == len(DOCS) and all(
        "A byte-order mark (U+FEFF) at the start of the text counted as a character shifts every offset by +1: count "
        "on the text without it (Python: encoding='utf-8-sig')." in m["text"] for m in found)


def test_the_gold_and_a_few_cut_spans_are_not_read_on_another_text(refs, tmp_path):
    report = score(os.path.join(refs, "dev"), submission(GOLD), tmp_path)
    assert not texts(report, "the offsets look counted") and not texts(report, "priced on this phase's gold")
    doc = DOCS[0]
    piece, ident, spans = [p for p in _pieces(GOLD[doc]) if TEXT[doc][slice(*map(int, p[2].split(",")))].isalpha()][0]
    start, end = (int(n) for n in spans.split(","))
    cut = GOLD[doc].replace(piece, piece.replace("<span>%s</span>" % spans, "<span>%d,%d</span>" % (start, end - 1)))
    report = score(os.path.join(refs, "dev"), submission({doc: cut, DOCS[1]: GOLD[DOCS[1]]}), tmp_path, "cut.zip")
    assert texts(report, "is an offset off by one?") and not texts(report, "the offsets look counted")


# --------------------------------------------------------------------------- 2. ids used twice, the cause first

def _linked_pairs(xml):
    """``[(parent piece, parent id, child piece, child id)]``: the links of ``xml`` between two of its entities."""
    pieces = _pieces(xml)
    by_id = dict((ident, piece) for piece, ident, _ in pieces)
    pairs = []
    for piece, ident, _ in pieces:
        for target in re.findall(r"<(?:Sub-Interval|Repeating-Interval|Interval|Period)>([^<]+)</", piece):
            if target in by_id and target != ident:
                pairs.append((piece, ident, by_id[target], target))
    return pairs


@settings(**SETTINGS)
@given(data=st.data())
def test_ids_used_twice_are_named_before_what_follows_from_them(refs, tmp_path, monkeypatch, data):
    """A child entity given its parent's id, and the parent's link to it rewritten to that id. Written after the
    parent, the child is what the link reaches, as before: no cycle, although the file used to be refused for "a
    cycle of links through this entity and ..." (the check took the two entities for one); it is read now, exactly
    as without the check. Written before it, the parent's link reaches the parent itself: a cycle, refused when the
    check finds it (as it always was), the id used twice named as its cause. Then a true cycle through an id used
    twice: refused, the id named as the cause, at its second use."""
    ref = os.path.join(refs, "dev")
    doc = data.draw(st.sampled_from(DOCS))
    other = [d for d in DOCS if d != doc][0]
    parent, pid, child, cid = data.draw(st.sampled_from(_linked_pairs(GOLD[doc])))
    after = data.draw(st.booleans())
    renamed = child.replace("<id>%s</id>" % cid, "<id>%s</id>" % pid)
    linked = parent.replace(">%s</" % cid, ">%s</" % pid)
    xml = GOLD[doc].replace(child, "").replace(parent, linked + "\n" + renamed if after else renamed + "\n" + linked)
    members = submission({doc: xml, other: GOLD[other]})
    report = score(ref, members, tmp_path)
    found = _of_file(report, doc)
    second = "entity %s (line %d)" % (pid, _line(xml, renamed if after else linked))
    errors = [m for m in found if m["severity"] == "error"]
    assert not texts(report, "expected links without cycles"), "the consequence is not named instead of the cause"
    if errors:   # the parent's link to itself
        assert not after and len(errors) == 1 and errors[0]["where"] == second
        assert errors[0]["text"].startswith("expected every entity id used once, got 1 id used more than once on a "
                                            "link of entity %s to itself (%r): a link to such an id reaches only the "
                                            "last entity that has it" % (pid, pid)), errors[0]["text"]
        assert score(ref, submission({doc: EMPTY, other: GOLD[other]}), tmp_path, "empty.zip")["scores"] == \
            report["scores"]
    else:
        said = [m for m in found if "entity id used more than once" in m["text"]]
        assert len(said) == 1 and said[0]["where"] == second
        assert found.index(said[0]) == min(found.index(m) for m in found if "SCATE schema" in m["text"]
                                           or m is said[0])
        with monkeypatch.context() as patch:
            patch.setattr(anafora_kind, "check_graph", lambda *args: None)
            assert score(ref, members, tmp_path, "unchecked.zip")["scores"] == report["scores"]

    # a true cycle: the child links back to its parent (by a Sub-Interval, a link of its type), and an entity written
    # between them takes the child's id (the child, last, is the one links reach)
    parent, pid, child, cid = data.draw(st.sampled_from([pair for pair in _linked_pairs(GOLD[doc]) if "Sub-Interval" in
                                                         schema.TYPES[re.search(r"<type>(.*?)</type>", pair[2]).group(1)]]))
    back = child.replace("<properties>", "<properties><Sub-Interval>%s</Sub-Interval>" % pid, 1)
    extra = re.sub(r"<id>[^<]*</id>", "<id>%s</id>" % cid, _pieces(GOLD[doc])[-1][0], 1)
    xml = GOLD[doc].replace(child, "").replace(parent, parent + "\n" + extra + "\n" + back)
    report = score(ref, submission({doc: xml, other: GOLD[other]}), tmp_path, "cycle.zip")
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["where"] == "entity %s (line %d)" % (cid, _line(xml, back)), errors
    assert errors[0]["text"] == (
        "expected every entity id used once, got 1 id used more than once on a cycle of links through entity %s and "
        "%s (%r): a link to such an id reaches only the last entity that has it, so links meant for other entities "
        "close the cycle. Give every entity an id of its own (Anafora's <number>@e@<document>@system) (this document "
        "counts as predicting nothing)" % (pid, cid, cid))
    assert not texts(report, "expected links without cycles")
    empty = score(ref, submission({doc: EMPTY, other: GOLD[other]}), tmp_path, "empty.zip")
    assert empty["scores"] == report["scores"]


def test_a_cycle_of_unique_ids_keeps_its_message(refs, tmp_path):
    doc = DOCS[0]
    parent, pid, child, cid = _linked_pairs(GOLD[doc])[0]
    back = child.replace("<properties>", "<properties><Sub-Interval>%s</Sub-Interval>" % pid, 1)
    assert back != child
    report = score(os.path.join(refs, "dev"), submission({doc: GOLD[doc].replace(child, back), DOCS[1]: GOLD[DOCS[1]]}),
                   tmp_path)
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    assert len(errors) == 1 and "expected links without cycles, got a cycle of links through this entity" in \
        errors[0]["text"] and "used more than once" not in errors[0]["text"]


# --------------------------------------------------------------------------- 7. links and names, priced

def _rewrite_links(xml, form):
    """``xml`` with every link to an entity of the file written as ``form`` says: its number, its id with the gold's
    suffix changed, or its span; and the same with only the links whose form names one entity (a span two entities
    share names none): what the file reads as meant."""
    pieces = _pieces(xml)
    spans = dict((ident, spans) for _, ident, spans in pieces)
    shared = set(s for s in spans.values() if list(spans.values()).count(s) > 1)

    def written(match, meant):
        target = match.group(2)
        if target not in spans:
            return match.group(0)
        value = {"bare": target.split("@")[0], "suffix": target.replace("@gold", "@run1"),
                 "span": spans[target]}[form]
        if meant and (form != "span" or spans[target] not in shared):   # a shared span names no one entity
            value = target
        return "<%s>%s</%s>" % (match.group(1), value, match.group(1))

    pattern = r"<(Sub-Interval|Repeating-Interval|Interval|Period|Periods|Intervals|Repeating-Intervals)>([^<]+)</\1>"
    return re.sub(pattern, lambda m: written(m, False), xml), re.sub(pattern, lambda m: written(m, True), xml)


LINK_WORDS = {"bare": "links written as bare numbers", "span": "links written as spans",
              "suffix": "links written as another form of the id they name"}


@settings(**SETTINGS)
@given(form=st.sampled_from(sorted(LINK_WORDS)), picks=st.lists(st.booleans(), min_size=2, max_size=2).filter(any))
def test_links_written_otherwise_are_priced_on_the_gold(refs, tmp_path, monkeypatch, form, picks):
    ref = os.path.join(refs, "dev")
    written, meant = {}, {}
    for i, doc in enumerate(DOCS):
        written[doc], meant[doc] = _rewrite_links(GOLD[doc], form) if picks[i] else (GOLD[doc], GOLD[doc])
    report = score(ref, submission(written), tmp_path)
    as_meant = score(ref, submission(meant), tmp_path, "meant.zip")
    before, after = _per_document(report), _per_document(as_meant)
    priced = [m for m in texts(report, "priced on this phase's gold")]
    for i, doc in enumerate(DOCS):
        said = [m for m in priced if m["file"] == scate_data.submission_name(doc)]
        if not picks[i] or after[doc] <= before[doc]:
            assert not said
            continue
        assert len(said) == 1 and said[0]["text"].startswith(LINK_WORDS[form] + " ("), said[0]["text"]
        assert "its interval F1 is %.4f as written and %.4f read as meant" % (before[doc], after[doc]) in said[0]["text"]
        assert (LOSS_NOTE in said[0]["text"]) == (2 * before[doc] < after[doc])
        first = re.search(r"<(?:Sub-Interval|Repeating-Interval|Interval|Period)>([^<]+)</", written[doc]).group(1)
        assert said[0]["text"].startswith("%s (%r for " % (LINK_WORDS[form], first)) or form == "span"
    assert priced, "the sample's links carry its interval score"
    assert "the whole submission's interval F1 is %.4f as written and %.4f with every such file read as meant" % (
        report["scores"]["avg_score"], as_meant["scores"]["avg_score"]) in priced[0]["text"]
    if form != "span":
        assert texts(report, "names no entity of the file x1 (did you mean "), "the value warning names the id too"
    with monkeypatch.context() as patch:
        patch.setattr(mends, "mend", lambda *args: None)
        quiet = score(ref, submission(written), tmp_path, "quiet.zip")
    assert quiet["scores"] == report["scores"] and not texts(quiet, "priced on this phase's gold")


NAMES = {
    "lower-cased types": (lambda xml: re.sub(r"<type>([^<]*)</type>", lambda m: "<type>%s</type>" % m.group(1).lower(),
                                             xml), "the SCATE schema's names lower-cased"),
    "upper-cased types": (lambda xml: re.sub(r"<type>([^<]*)</type>", lambda m: "<type>%s</type>" % m.group(1).upper(),
                                             xml), "the SCATE schema's names upper-cased"),
    "snake_case types": (lambda xml: re.sub(r"<type>([^<]*)</type>", lambda m: "<type>%s</type>" % m.group(1).replace(
        "-", "_"), xml), "the SCATE schema's names written in another letter case or with other separators"),
    "lower-cased values": (lambda xml: re.sub(r"<(Type|Semantics|Interval-Type)>([^<]*)</", lambda m: "<%s>%s</" % (
        m.group(1), m.group(2).lower()), xml), "the SCATE schema's names lower-cased"),
}


@pytest.mark.parametrize("style", sorted(NAMES))
def test_names_in_another_case_are_priced_and_the_files_named(refs, tmp_path, monkeypatch, style):
    ref = os.path.join(refs, "dev")
    change, words = NAMES[style]
    xml = dict((doc, change(GOLD[doc])) for doc in DOCS)
    report = score(ref, submission(xml), tmp_path)
    before = _per_document(report)
    priced = texts(report, "priced on this phase's gold")
    assert [m["file"] for m in priced] == [scate_data.submission_name(doc) for doc in DOCS if before[doc] < 1.0]
    for message in priced:
        doc = message["file"].split("/")[0]
        old, new = re.findall(r">([^<]*)<", GOLD[doc]), re.findall(r">([^<]*)<", xml[doc])
        assert len(old) == len(new)
        changed = sum(1 for i, value in enumerate(old) if value != new[i])
        assert message["text"].startswith("%s (" % words) and "; %d in this file)" % changed in message["text"]
        assert "its interval F1 is %.4f as written and 1.0000 read as meant" % before[doc] in message["text"]
        assert (LOSS_NOTE in message["text"]) == (2 * before[doc] < 1.0)
    with monkeypatch.context() as patch:
        patch.setattr(mends, "mend", lambda *args: None)
        assert score(ref, submission(xml), tmp_path, "quiet.zip")["scores"] == report["scores"]


@pytest.fixture(scope="module")
def sample_baseline(tmp_path_factory):
    """The starting kit's baseline submission for the sample's dev split: {member: text}."""
    path = str(tmp_path_factory.mktemp("scate_baseline") / "baseline.zip")
    subprocess.run([sys.executable, os.path.join(KIT, "scate_baseline.py"), "--data", SAMPLE, "--split", "dev",
                    "--out", path], check=True, stdout=subprocess.PIPE)
    with zipfile.ZipFile(path) as archive:
        return dict((name, archive.read(name).decode("utf-8")) for name in archive.namelist())


def test_the_validator_prices_bare_links_and_exits_1(sample_baseline, tmp_path):
    bare = dict((name, _rewrite_links(xml, "bare")[0]) for name, xml in sample_baseline.items())
    status, out = _validate(_zip(tmp_path / "bare.zip", bare))
    assert status == 1, out
    assert ("the whole submission's interval F1 is 0.0435 as written and 0.8571 with every such file read as meant "
            "(this file loses most of its score).") in out, out
    assert out.strip().splitlines()[-1] == (
        "0 errors, 4 warnings, 0 files will score 0, 2 files will lose most of their score (%s) -- fix them before "
        "uploading" % ", ".join(scate_data.submission_name(doc) for doc in DOCS))
    status, out = _validate(_zip(tmp_path / "baseline.zip", sample_baseline))
    assert status == 0 and "priced" not in out, out


def test_the_summary_names_the_document_files_not_the_pattern(tmp_path):
    xml = dict((doc, NAMES["lower-cased types"][0](GOLD[doc])) for doc in DOCS)
    status, out = _validate(_zip(tmp_path / "lower.zip", submission(xml)))
    last = out.strip().splitlines()[-1]
    assert status == 1 and "<doc>" not in last, out
    assert "%d files will score 0 (%s) -- fix them before uploading" % (
        len(DOCS), ", ".join(scate_data.submission_name(doc) for doc in DOCS)) in last


def test_gold_scores_name_the_files_an_entry_read():
    report = {"entries": [{"file": "<doc>/<doc>.xml", "task": "norm", "status": "scored", "score": 0.0,
                           "details": {"files": ["A/A.xml", "B/B.xml"]}},
                          {"file": "<doc>/<doc>.xml", "task": "spans", "status": "scored", "score": 0.5,
                           "details": {"files": ["A/A.xml"]}}]}
    assert floor.gold_scores(report, lambda entry: True) == {"A/A.xml": 0.0, "B/B.xml": 0.0}


# --------------------------------------------------------------------------- 8. the test phase in the kit README

def test_the_kit_readme_explains_the_public_part_and_the_final_ranking():
    with io.open(os.path.join(KIT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    section = readme.split("## The test phase", 1)[1].split("\n## ", 1)[0]
    assert "public part" in section and "about 30%" in section
    assert "final ranking re-scores each team's official submission (its last scored one) on the private rest" in \
        section.replace("**", "").replace("\n", " ")


# --------------------------------------------------------------------------- the release (../shared/scate)

def _release_gold():
    folder = os.path.join(RELEASE, "train_dev", "AQUAINT")
    found = {}
    for doc in sorted(os.listdir(folder)):
        with io.open(scate_data.gold_path(folder, doc), encoding="utf-8") as handle:
            xml = handle.read()
        text, _ = scate_data.read_text(RELEASE, "dev", doc)
        found[doc] = (xml, text)
    return found


@needs_release
def test_the_release_crlf_offsets_are_named_per_file_and_the_files_counted(tmp_path):
    gold = _release_gold()
    members = dict((scate_data.submission_name(doc), counted_on(xml, text, COUNTED["crlf"]))
                   for doc, (xml, text) in gold.items())
    status, out = _validate(_zip(tmp_path / "crlf.zip", members), RELEASE)
    assert status == 1
    said = [line for line in out.splitlines() if "the offsets look counted on another text than this document's: on "
            "one with line ends of two characters, \\r\\n" in line]
    assert len(said) == len(gold), out
    assert "off by one" not in out and "over another document's text" not in out
    assert "%d files will score 0 (%s, and %d more)" % (len(gold), ", ".join(
        scate_data.submission_name(doc) for doc in sorted(gold)[:5]), len(gold) - 5) in out.splitlines()[-1]


@needs_release
def test_the_release_ids_numbered_per_line_name_the_duplicates_not_the_cycle(tmp_path):
    members = {}
    for doc, (xml, text) in _release_gold().items():
        ids, count = {}, {}
        for piece, ident, spans in _pieces(xml):
            line = text.count("\n", 0, int(spans.split(",")[0]))
            count[line] = count.get(line, 0) + 1
            ids[ident] = re.sub(r"^[0-9]+", str(count[line]), ident)
        members[scate_data.submission_name(doc)] = re.sub(r">([^<]*@[^<]*)</", lambda m: ">%s</" % ids.get(
            m.group(1), m.group(1)), xml)
    status, out = _validate(_zip(tmp_path / "ids.zip", members), RELEASE)
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert status == 1 and errors, out
    assert all(": expected every entity id used once, got " in line and "close the cycle" in line for line in errors)
    assert "expected links without cycles" not in out


@needs_release
def test_the_release_bare_links_lose_most_of_their_score_and_exit_1(tmp_path):
    members = dict((scate_data.submission_name(doc), _rewrite_links(xml, "bare")[0])
                   for doc, (xml, _) in _release_gold().items())
    status, out = _validate(_zip(tmp_path / "bare.zip", members), RELEASE)
    assert status == 1
    assert re.search(r"^norm .*interval_f1 0\.1134", out, flags=re.M), out
    assert "the whole submission's interval F1 is 0.1134 as written and 1.0000 with every such file read as meant" \
        in out
    assert "10 files will lose most of their score" in out.splitlines()[-1]
