"""Uploads of many members and zips inside the zip: what the scorer keeps in memory and writes to disk is bounded.

- The files and folders of an upload (a zip's central directory, or the platform's unpacked folder) are counted
  against the competition's ``MAX_MEMBERS`` before anything is kept per member; within the limit, the names
  that are not scored get at most ``MAX_LISTED_NAMES`` messages of each kind, then one with the count.
- A zip inside the zip is read where it lies (stored) or in memory (compressed, up to
  ``MAX_INNER_ZIP_IN_MEMORY``), never unpacked to disk; the scores and messages are those of the inner zip
  uploaded itself.
Generated uploads (Hypothesis) check each rule; child processes measure peak memory and bytes written.
"""
import io
import json
import os
import shutil
import tempfile
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import st2024
from conftest import ROOT
from evalkit import layout, lines
from evalkit.layout import NothingToScore
from evalkit.scoring import evaluate
from organiser import declarations
from peak import run_scorer
from test_validation import GOOD, REF, write_tree

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
MB = 1000 * 1000


def zip_bytes(members, compression=zipfile.ZIP_DEFLATED, folders=True):
    """A zip of ``{name: bytes}`` (with an entry of its own for every folder when ``folders``, as ``zip -r``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        if folders:
            for folder in sorted(set(n.rsplit("/", 1)[0] + "/" for n in members if "/" in n)):
                parts = folder.split("/")[:-1]
                for depth in range(1, len(parts)):
                    archive.writestr("/".join(parts[:depth]) + "/", b"")
                archive.writestr(folder, b"")
        for name, data in members.items():
            archive.writestr(name, data if isinstance(data, bytes) else json.dumps(data))
    return buffer.getvalue()


def unpacked(root, members):
    """The members written under ``root`` (the platform form); return ``root``."""
    for name, data in members.items():
        path = os.path.join(root, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data if isinstance(data, bytes) else json.dumps(data).encode("utf-8"))
    return root


# --------------------------------------------------------------------------- counted before listed

upload_shape = st.fixed_dictionaries({
    "root_files": st.integers(0, 14),
    "folders": st.integers(0, 14),
    "files_per_folder": st.integers(0, 3),
    "depth": st.integers(1, 4),
})


def shaped_members(shape):
    members = {"pos_tagging/lat.json": GOOD["pos_tagging/lat.json"]}
    members.update(("stray%d.txt" % i, b"x") for i in range(shape["root_files"]))
    for i in range(shape["folders"]):
        folder = "/".join("f%d_%d" % (i, d) for d in range(shape["depth"]))
        members.update(("%s/x%d" % (folder, j), b"y") for j in range(shape["files_per_folder"]))
        members.setdefault(folder + "/keep", b"")
    return members


def expected_counts(members):
    folders = set()
    for name in members:
        parts = name.split("/")[:-1]
        folders.update(tuple(parts[:d]) for d in range(1, len(parts) + 1))
    return len(members), len(folders)


@settings(max_examples=40, **SETTINGS)
@given(upload_shape, st.booleans())
def test_members_are_counted_before_anything_is_listed(tmp_path_factory, monkeypatch, shape, zip_folders):
    """Over the limit (files or folders), both forms are refused with the same message, before zipfile lists the
    members and before the folder's names are kept; within it, both forms list the same files."""
    limit = 12
    members = shaped_members(shape)
    files, folders = expected_counts(members)
    tmp = str(tmp_path_factory.mktemp("count"))
    archive = os.path.join(tmp, "sub.zip")
    with open(archive, "wb") as handle:
        handle.write(zip_bytes(members, folders=zip_folders))
    platform = unpacked(os.path.join(tmp, "res"), members)
    listed = []
    real_listing = zipfile.ZipFile._RealGetContents
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: listed.append(1) or real_listing(self))
    kept = []
    real_file_type = layout._file_type
    monkeypatch.setattr(layout, "_file_type", lambda path: kept.append(path) or real_file_type(path))
    limits = {"members": limit, "upload": 1 << 30, "file": 1 << 30}
    outcomes = []
    for path in (archive, platform):
        try:
            outcomes.append(sorted(layout.open_source(path, limits, []).names()))
        except NothingToScore as err:
            outcomes.append(str(err).replace("the zip", "the submission"))
    if files > limit or folders > limit:   # over both: whichever count goes over first is named
        whats = [what for what, count in (("files", files), ("folders", folders)) if count > limit]
        allowed = ["the submission holds more than 12 %s; at most 12 are accepted." % what for what in whats]
        assert outcomes[0] in allowed and outcomes[1] in allowed, outcomes
        assert not listed, "zipfile listed the members of a zip over the limit"
    else:
        assert outcomes == [sorted(members)] * 2
    assert len(kept) <= limit


def test_a_deep_folder_chain_counts_every_folder(tmp_path):
    """One member 20 folders deep holds 20 folders, listed or not: refused by a limit of 10 in both forms."""
    name = "/".join("d%d" % i for i in range(20)) + "/x"
    archive = tmp_path / "deep.zip"
    archive.write_bytes(zip_bytes({name: b"x"}, folders=False))
    limits = {"members": 10, "upload": 1 << 20, "file": 1 << 20}
    for path in (str(archive), unpacked(str(tmp_path / "res"), {name: b"x"})):
        with pytest.raises(NothingToScore, match="more than 10 folders"):
            layout.open_source(path, limits, [])


# --------------------------------------------------------------------------- ignored names summarised

@settings(max_examples=25, **SETTINGS)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_names_that_are_not_scored_get_bounded_messages_with_counts(tmp_path_factory, monkeypatch, root_files,
                                                                     folders, misnamed, other_phase):
    """Each kind of ignored name (stray files, stray folders, misnamed language files, files of languages the
    phase does not score) is listed up to the limit, then counted in one message; the scores do not change."""
    monkeypatch.setattr(layout, "MAX_LISTED_NAMES", 4)
    tmp = str(tmp_path_factory.mktemp("ignored"))
    members = dict(GOOD)
    members.update(("stray%d.txt" % i, b"x") for i in range(root_files))
    members.update(("folder%d/x.json" % i, b"x") for i in range(folders))
    members.update(("pos_tagging/LAT%d.json" % i, b"[]") for i in range(misnamed))
    languages = [lang for lang in st2024.LANGUAGES if lang not in ("lat", "san")][:other_phase]
    members.update(("pos_tagging/%s.json" % lang, b"[]") for lang in languages)
    report = evaluate(st2024, write_tree(os.path.join(tmp, "ref"), REF), write_tree(os.path.join(tmp, "sub"), members))
    assert report["scores"]["avg_score"] == 1.0
    layout_messages = [m for m in report["messages"] if m["where"] == "layout"]
    for count, listed_text, kind in ((root_files, "unexpected file (ignored)", "unexpected files"),
                                     (folders, "unexpected folder (1 file ignored)", "unexpected folders"),
                                     (misnamed, "unexpected file name (ignored)", "unexpected file names in a task"),
                                     (len(languages), "is not scored in this phase", "files not scored in this phase")):
        listed = [m for m in layout_messages if listed_text in m["text"]]
        summary = [m for m in layout_messages if "more of this kind (%s" % kind in m["text"]]
        assert len(listed) == min(count, 4)
        if count > 4:
            assert len(summary) == 1 and summary[0]["text"].startswith("%d more of this kind (%s" % (count - 4, kind))
        else:
            assert summary == []
    assert len(layout_messages) <= 4 * (4 + 1)


def test_named_files_and_documents_are_summarised_too(tmp_path, monkeypatch):
    """The flat-name layout (a competition declaring SUBMISSION_FILE) and second files for one document."""
    monkeypatch.setattr(layout, "MAX_LISTED_NAMES", 3)
    competition = declarations.load("lince")
    task = competition.TASKS[0]
    pairs = [(task, task.languages[0])]
    names = [lines.submission_name(competition, *pairs[0])] + ["junk%d.txt" % i for i in range(10)]
    messages = []

    class Names(object):
        def names(self):
            return names
    submission = lines.find_named_files(Names(), competition, pairs, messages)
    assert list(submission.files) == [(task.folder, task.languages[0])]
    assert [m.text.split(";")[0] for m in messages[:3]] == ["unexpected file (ignored)"] * 3
    assert messages[3].text.startswith("7 more of this kind (unexpected files, ignored)") and len(messages) == 4
    documents = []
    ignored = layout.IgnoredNames(documents)
    doc_task = type("Task", (), {"documents": "{doc}/{doc}.xml", "folder": "docs"})()
    found, rest = lines._claim_documents(["a/a.xml"] + ["run%d/a/a.xml" % i for i in range(8)],
                                         [(doc_task, "x")], {}, ignored)
    ignored.close()
    assert found == {("docs", "x"): {"a": "a/a.xml"}} and rest == []
    assert len(documents) == 1 and documents[0].text.startswith(
        "8 file(s) for documents that already have one (ignored: the first file found for a document is the one read): "
        "run0/a/a.xml ignored, a/a.xml read for a; run1/a/a.xml ignored"), documents[0].text
    assert documents[0].text.endswith(", and 5 more. Keep one file per document.") and documents[0].file == "run0/a/a.xml"


# --------------------------------------------------------------------------- peak memory of every scorer

def scorer_of(cid):
    if cid == declarations.top_level_id():
        return os.path.join(ROOT, "scoring_program", "evaluate.py")
    return os.path.join(declarations.folder(cid), "evaluate.py")


def reference_of(cid, folder):
    """A reference folder holding one declared reference file (the upload is refused before it is read)."""
    competition = declarations.load(cid)
    task = competition.TASKS[0]
    name = (lines.reference_name(competition, task, task.languages[0]) if lines.declares_names(competition)
            else "%s/%s.json" % (task.folder, task.languages[0]))
    return write_tree(folder, {name: b"[]"})


@pytest.fixture(scope="module")
def many_members(tmp_path_factory):
    """100,000 empty members: a zip of about 10 MB, and the same unpacked (the platform form)."""
    root = tmp_path_factory.mktemp("many")
    archive = str(root / "many.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        for i in range(100000):
            out.writestr(zipfile.ZipInfo("f%06d.txt" % i), b"")
    res = root / "res"
    res.mkdir()
    for i in range(100000):
        open(str(res / ("f%06d.txt" % i)), "wb").close()
    return archive, str(res)


@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_an_upload_of_many_members_is_refused_in_little_memory(cid, many_members, tmp_path):
    """Every competition's scorer, both forms: exit 1 with the count's message, a small peak (listing the
    100,000 members took about 60 MB more; 450,000 took the scorers over 1 GB), nothing written."""
    ref = reference_of(cid, tmp_path / "ref")
    for submission in many_members:
        run = run_scorer(["--ref", ref, "--submission", submission, "--out", str(tmp_path / "out")], str(tmp_path),
                         limit=1 << 30, evaluate=scorer_of(cid))
        assert run.status == 1, run.stderr
        assert b"holds more than" in run.stderr and b"files; at most" in run.stderr
        assert b"Traceback" not in run.stderr
        assert run.peak < 45 * MB, run.peak
        assert run.written < 1 * MB


# --------------------------------------------------------------------------- a zip inside the zip

def no_file_is_written(monkeypatch):
    """Make every way of writing a file fail (a temporary file, an open for writing)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a file was written: %r" % (args[:1],))
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refuse)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    real_open = io.open

    def guarded(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+"):
            refuse(file)
        return real_open(file, mode, *args, **kwargs)
    monkeypatch.setattr("builtins.open", guarded)
    monkeypatch.setattr(io, "open", guarded)


inner_members = st.fixed_dictionaries({}, optional={
    rel: st.just(content) for rel, content in GOOD.items()}).map(
    lambda chosen: chosen or {"pos_tagging/lat.json": GOOD["pos_tagging/lat.json"]})


@settings(max_examples=30, **SETTINGS)
@given(inner_members, st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]),
       st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]), st.binary(max_size=64), st.booleans())
def test_a_zip_inside_the_zip_is_read_where_it_lies(tmp_path_factory, monkeypatch, members, inner_compression,
                                                   outer_compression, prefix, macosx):
    """Stored or compressed (inner members and the inner zip itself), with bytes prepended to the outer zip (as
    a self-extracting archive has): the same report as the inner zip uploaded itself, and no file written."""
    tmp = str(tmp_path_factory.mktemp("inner"))
    ref = write_tree(os.path.join(tmp, "ref"), REF)
    inner = zip_bytes(members, inner_compression)
    outer_members = {"my submission.zip": inner}
    if macosx:
        outer_members["__MACOSX/._my submission.zip"] = b"junk"
    outer = os.path.join(tmp, "outer.zip")
    with open(outer, "wb") as handle:
        handle.write(prefix + zip_bytes(outer_members, outer_compression))
    direct = os.path.join(tmp, "inner.zip")
    with open(direct, "wb") as handle:
        handle.write(inner)
    expected = evaluate(st2024, ref, direct)
    with monkeypatch.context() as guarded:
        no_file_is_written(guarded)
        report = evaluate(st2024, ref, outer)
    assert report["messages"][0]["text"].startswith("the upload holds a zip inside the zip, my submission.zip")
    assert report["messages"][1:] == expected["messages"]
    assert report["scores"] == expected["scores"]


def test_a_large_compressed_zip_inside_the_zip_is_refused_without_writing(tmp_path, monkeypatch):
    """Over MAX_INNER_ZIP_IN_MEMORY once unpacked, a compressed inner zip is refused with a message that says
    what to do; stored, the same inner zip is read where it lies."""
    monkeypatch.setattr(layout, "MAX_INNER_ZIP_IN_MEMORY", 50000)
    ref = write_tree(tmp_path / "ref", REF)
    inner = zip_bytes(dict(GOOD, padding=b"\0" * 100000), zipfile.ZIP_STORED)
    limits = {"file": 1 << 20, "upload": 1 << 20, "members": 100}
    for compression in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED):
        outer = tmp_path / ("outer%d.zip" % compression)
        outer.write_bytes(zip_bytes({"inner.zip": inner}, compression))
        with monkeypatch.context() as guarded:
            no_file_is_written(guarded)
            if compression == zipfile.ZIP_DEFLATED:
                with pytest.raises(NothingToScore, match="is compressed and unpacks to 1[0-9,]* bytes; a compressed zip "
                                                         "inside the zip is read only up to 50,000 bytes: upload inner.zip"):
                    layout.open_source(str(outer), limits, [])
            else:
                assert evaluate(st2024, ref, str(outer))["scores"]["avg_score"] == 1.0


def test_a_zip_inside_a_zip_over_the_upload_limit_is_refused(tmp_path):
    """The outer zip's own total refuses it first; a member of an organisers' download is checked itself."""
    outer = tmp_path / "outer.zip"
    outer.write_bytes(zip_bytes({"inner.zip": zip_bytes({"padding": b"\0" * 5000}, zipfile.ZIP_STORED)}))
    limits = {"file": 4000, "upload": 4000, "members": 10}
    with pytest.raises(NothingToScore, match="the zip would unpack to 5[0-9]* bytes; at most 4000"):
        layout.open_source(str(outer), limits, [])
    with zipfile.ZipFile(str(outer)) as archive:
        with pytest.raises(NothingToScore, match="the zip inside the zip, inner.zip, is 5,[0-9]* bytes; at most 4,000"):
            layout.zip_member_file(archive, archive.getinfo("inner.zip"), limits, "inner.zip")


def test_bytes_written_and_peak_memory_of_a_padded_zip_inside_the_zip(tmp_path):
    """A 0.2 MB upload holding an inner zip padded to 200 MB used to write those 200 MB to a temporary file:
    compressed it is now refused (exit 1), stored (a 30 MB upload) it is scored in place; nothing is written
    either way but the outputs."""
    ref = write_tree(tmp_path / "ref", REF)
    for size, compression, status in ((200 * MB, zipfile.ZIP_DEFLATED, 1), (30 * MB, zipfile.ZIP_STORED, 0)):
        inner = tmp_path / "inner.zip"
        with zipfile.ZipFile(str(inner), "w", zipfile.ZIP_STORED) as archive:
            for rel, content in GOOD.items():
                archive.writestr(rel, json.dumps(content))
            archive.writestr("padding.bin", b"\0" * size)
        outer = str(tmp_path / "outer.zip")
        with zipfile.ZipFile(outer, "w", compression) as archive:
            archive.write(str(inner), "submission.zip")
        inner.unlink()
        out = str(tmp_path / "out")
        run = run_scorer(["--ref", ref, "--submission", outer, "--out", out], str(tmp_path), limit=1 << 30)
        assert run.status == status, run.stderr
        assert run.written < 1 * MB, run.written
        assert run.peak < 60 * MB, run.peak
        shutil.rmtree(out, ignore_errors=True)
