"""The organisers' results tool against hostile downloads: names are data, and no team can stop the others.

- Team and user names of every kind (formula starts, TeX specials, characters pdflatex lacks, CJK, right-to-left,
  emoji, combining marks, control characters, a team named like a user) go through every output: ranking.csv
  shows them as text, results.tex compiles, results.md / results.html / the SVG figures stay well-formed, a team
  and a user of one name stay two rows, and entries that could be confused are reported.
- A submission that hangs the scorer, kills it or eats memory is stopped and listed with the reason; the others
  are ranked. A zip inside a submission inside the download is never unpacked to disk.
"""
import csv
import glob
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unicodedata
import zipfile
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from evalkit import scoring
from html_check import NestingParser
from organiser.results import main as results_main
from organiser.results import names, render
from peak import run_scorer
from test_validation import GOOD, REF, write_tree

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
HOSTILE = ["=HYPERLINK(\"http://x.example\")", "+1+1", "-2", "@SUM(A1)", " =1", "\uff1dcmd", "\u0138\u017f",
           "\u540d\u524d", "\u0645\u0631\u062d\u0628\u0627", "\U0001F600\u200d\U0001F525", "e\u0301", "\x1b[31mred",
           "\\input{/etc/passwd}", "$x^2$ & 100% #_{}~", "a\nb\tc", "\u202eevil", "[opt]", "Owls", "owls",
           "\uff2fwls", "Team", "x" * 300]


def submission_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for rel, content in GOOD.items():
            archive.writestr(rel, json.dumps(content))
    return buffer.getvalue()


def codalab(path, entries):
    """A legacy CodaLab download: ``entries`` is ``[(kind, name)]``; a team's member is ``Team <name> - <n>
    submission.zip`` (with CodaLab's trailing space), a user's ``<name> - <n> submission.zip``."""
    data = submission_zip()
    with zipfile.ZipFile(path, "w") as download:
        for number, (kind, name) in enumerate(entries, 1):
            who = "Team %s " % name if kind == "team" else name
            download.writestr("%s - %d submission.zip" % (who, number), data)
    return path


def run_tool(argv, capsys):
    status = results_main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err, captured.err
    return status, captured.err


def pdflatex(folder):
    if not shutil.which("pdflatex"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("pdflatex is missing: .ci/run installs texlive-latex-base and texlive-latex-recommended")
        return None
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "results.tex"], cwd=folder,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, encoding="utf-8", errors="replace", timeout=120)
    return done


name_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=24)
entry = st.tuples(st.sampled_from(["team", "user"]), name_text | st.sampled_from(HOSTILE))


def usable(entries):
    """Entries a CodaLab download can hold: distinct, a user's name not empty nor starting with ``Team ``
    (CodaLab user names have no spaces: such a member is a team's)."""
    seen, kept = set(), []
    for kind, name in entries:
        if (kind, name) in seen or (kind == "user" and (not name or name.startswith("Team "))):
            continue
        seen.add((kind, name))
        kept.append((kind, name))
    return kept


def unescaped_pipes(line):
    return len(re.findall(r"(?<!\\)\|", line))


@settings(max_examples=int(os.environ.get('NAMES_EXAMPLES', 12)), **SETTINGS)
@given(st.lists(entry, min_size=1, max_size=6).map(usable).filter(bool), st.booleans())
def test_any_names_go_through_every_output(tmp_path_factory, capsys, entries, twin):
    """Generated team and user names (plus a team named exactly like a user when ``twin``): one row per entry,
    every output well-formed for its format, and a warning for every pair that could be confused."""
    if twin and any(kind == "user" for kind, _ in entries):
        user = [name for kind, name in entries if kind == "user"][0]
        if ("team", user) not in entries:
            entries = entries + [("team", user)]
    tmp = str(tmp_path_factory.mktemp("names"))
    ref = write_tree(os.path.join(tmp, "ref"), REF)
    download = codalab(os.path.join(tmp, "codalab.zip"), entries)
    out = os.path.join(tmp, "out")
    status, err = run_tool(["--reference", ref, "--submissions", download, "--out", out, "--no-baselines",
                            "--resamples", "20", "--jobs", "2"], capsys)
    assert status == 0, err
    with open(os.path.join(out, "results.json"), encoding="utf-8") as handle:
        results = json.load(handle)
    rows = results["subtasks"][0]["rows"]
    assert sorted(row["id"] for row in rows) == sorted("%s:%s" % e for e in entries)     # none merged
    shown = [row["name"] for row in rows]
    assert len(set(shown)) == len(shown)                                               # no two rows read alike
    for (kind, name), other in ((a, b) for a in entries for b in entries if a < b):
        if names.confusion_key(name) == names.confusion_key(other[1]) or \
                unicodedata.normalize("NFKC", name).casefold() == unicodedata.normalize("NFKC", other[1]).casefold():
            confused = [w for w in results["warnings"] if names.shown(name) in w and names.shown(other[1]) in w]
            assert confused, (name, other, results["warnings"])
            assert "warning: entries that could be confused" in err
    with open(os.path.join(out, "ranking.csv"), encoding="utf-8", newline="") as handle:
        cells = [r[0] for r in list(csv.reader(handle))[1:]]
    assert sorted(cells) == sorted(render.csv_cell(s) for s in shown)
    assert not [c for c in cells if c.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r", "\uff1d"))]
    with open(os.path.join(out, "results.md"), encoding="utf-8") as handle:
        markdown = handle.read()
    assert not RAW_CONTROL.search(markdown)
    for table in re.findall(r"(?:^\|.*\|\n)+", markdown, re.M):
        counts = set(unescaped_pipes(line) for line in table.splitlines())
        assert len(counts) == 1, table
    with open(os.path.join(out, "results.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert not RAW_CONTROL.search(page)
    parser = NestingParser()
    parser.feed(page)
    parser.close()
    assert parser.errors == []
    for svg in glob.glob(os.path.join(out, "figures", "*.svg")):
        with open(svg, encoding="utf-8") as handle:
            ElementTree.fromstring(handle.read())
    done = pdflatex(out)
    if done is not None:
        assert done.returncode == 0, done.stdout[-2000:]


def test_every_character_declared_typeset_compiles(tmp_path):
    """latex.TYPESET is what pdflatex typesets: a document with all of it (and the rest written as code points)
    compiles."""
    from organiser.results import latex
    text = "".join(sorted(latex.TYPESET)) + " \u0138\u017f\u540d\U0001F600\u0301\x1b{}\\[]"
    body = latex.tex_escape(text)
    document = latex.document({"competition": {"title": text}, "method": text, "rule": "last", "subtasks": []})
    assert body in document
    (tmp_path / "results.tex").write_text(document, encoding="utf-8")
    done = pdflatex(str(tmp_path))
    if done is None:
        pytest.skip("pdflatex is not installed")
    assert done.returncode == 0, done.stdout[-2000:]


def test_a_team_and_a_user_of_one_name_are_two_rows(tmp_path, capsys):
    """Legacy CodaLab names a team's entries "Team <name> ": the team Owls and the user Owls are two entries
    (before, the user's row was taken over by the team's newer submission)."""
    ref = write_tree(tmp_path / "ref", REF)
    download = codalab(str(tmp_path / "c.zip"), [("user", "Owls"), ("team", "Owls"), ("team", "=cmd")])
    status, err = run_tool(["--reference", ref, "--submissions", download, "--out", str(tmp_path / "out"),
                            "--no-baselines", "--resamples", "20", "--jobs", "1"], capsys)
    assert status == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert sorted((r["id"], r["name"]) for r in results["subtasks"][0]["rows"]) == [
        ("team:=cmd", "=cmd"), ("team:Owls", "Owls (team)"), ("user:Owls", "Owls (user)")]
    assert "team 'Owls' (shown as 'Owls (team)'), user 'Owls'" in err
    markdown = (tmp_path / "out" / "results.md").read_text(encoding="utf-8")
    assert "## Warnings" in markdown and "Owls (team)" in markdown
    with open(str(tmp_path / "out" / "ranking.csv"), encoding="utf-8", newline="") as handle:
        assert "'=cmd" in [row[0] for row in csv.reader(handle)]


# --------------------------------------------------------------------------- no team stops the others

SLOW, CRASH, HOG = "slow", "crash", "hog"


def misbehaving_evaluate(real):
    """``scoring.evaluate`` that hangs, dies or eats memory for the teams named so (in the scoring process)."""
    def evaluate(competition, ref_dir, path, **kwargs):
        where = str(path)
        if os.sep + SLOW + os.sep in where:
            time.sleep(3600)
        if os.sep + CRASH + os.sep in where:
            os.kill(os.getpid(), signal.SIGKILL)
        if os.sep + HOG + os.sep in where:
            hog = []
            while True:
                hog.append(bytearray(200 << 20))   # over the 300 MB limit at the second one
        return real(competition, ref_dir, path, **kwargs)
    return evaluate


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_team_that_hangs_crashes_or_eats_memory_does_not_stop_the_results(tmp_path, capsys, monkeypatch, jobs):
    """Each misbehaving team is stopped (time limit, its process killed, memory limit) and listed with the
    reason; the others are ranked; the whole run stays short."""
    monkeypatch.setattr(scoring, "evaluate", misbehaving_evaluate(scoring.evaluate))
    ref = write_tree(tmp_path / "ref", REF)
    data = submission_zip()
    for team in ("good", "also-good", SLOW, CRASH, HOG):
        os.makedirs(str(tmp_path / "teams" / team))
        (tmp_path / "teams" / team / "final.zip").write_bytes(data)
    started = time.time()
    status, err = run_tool(["--reference", ref, "--submissions", str(tmp_path / "teams"), "--out",
                            str(tmp_path / "out"), "--no-baselines", "--resamples", "20", "--jobs", str(jobs),
                            "--time-limit", "3", "--memory-limit", "300"], capsys)
    assert status == 0, err
    assert time.time() - started < 60
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert sorted(r["name"] for r in results["subtasks"][0]["rows"]) == ["also-good", "good"]
    reasons = dict((f["team"], f["reason"]) for f in results["failures"])
    assert reasons[SLOW].startswith("the scoring took longer than 3 s: stopped")
    assert reasons[CRASH].startswith("the scoring process was killed by SIGKILL")
    assert reasons[HOG].startswith("the scoring ran out of memory")
    markdown = (tmp_path / "out" / "results.md").read_text(encoding="utf-8")
    assert "took longer than 3 s" in markdown and "killed by SIGKILL" in markdown
    assert not os.listdir(str(tmp_path / "out" / "figures")) == []
    assert sorted(os.listdir(str(tmp_path / "out"))) == sorted(
        ["figures", "ranking.csv", "ranking-unconstrained.csv", "results.html", "results.json", "results.md",
         "results.tex"])   # its scratch folders are gone


def test_a_broken_reference_still_stops_everything_with_its_message(tmp_path, capsys):
    ref = dict(REF)
    ref["pos_tagging/lat.json"] = b"[[[\"a\", null]]]"
    ref_dir = write_tree(tmp_path / "ref", ref)
    os.makedirs(str(tmp_path / "teams" / "a"))
    (tmp_path / "teams" / "a" / "final.zip").write_bytes(submission_zip())
    status, err = run_tool(["--reference", ref_dir, "--submissions", str(tmp_path / "teams"), "--out",
                            str(tmp_path / "out"), "--no-baselines", "--jobs", "1"], capsys)
    assert status == 2 and "the reference data is broken" in err


def test_a_zip_inside_a_submission_inside_the_download_is_not_unpacked(tmp_path):
    """A download (stored, or compressed) holding a 0.2 MB submission whose inner zip unpacks to 200 MB: before,
    the results tool wrote those 200 MB to a temporary file; it is listed as failed, nothing is written but the
    outputs, and the other team is ranked."""
    ref = write_tree(tmp_path / "ref", REF)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_STORED) as archive:
        for rel, content in GOOD.items():
            archive.writestr(rel, json.dumps(content))
        archive.writestr("padding.bin", b"\0" * (200 * 1000 * 1000))
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("submission.zip", inner.getvalue())
    del inner
    for compression in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        download = str(tmp_path / ("download%d.zip" % compression))
        with zipfile.ZipFile(download, "w", compression) as archive:
            archive.writestr("Team padded  - 1 submission.zip", outer.getvalue())
            archive.writestr("Team fine  - 2 submission.zip", submission_zip())
        out = str(tmp_path / ("out%d" % compression))
        script = str(tmp_path / "results.py")
        with open(script, "w") as handle:
            handle.write("import sys\nsys.path[:0] = [%r, %r]\nfrom organiser.results import main\n"
                         "sys.exit(main())\n" % (ROOT, os.path.join(ROOT, "scoring_program")))
        run = run_scorer(["--reference", ref, "--submissions", download, "--out", out, "--no-baselines",
                          "--resamples", "20", "--jobs", "2"], str(tmp_path), limit=4 << 30, evaluate=script)
        assert run.status == 0, run.stderr
        assert run.written < 5 * 1000 * 1000, run.written
        results = json.loads(open(os.path.join(out, "results.json"), encoding="utf-8").read())
        assert [r["name"] for r in results["subtasks"][0]["rows"]] == ["fine"]
        assert "a compressed zip inside the zip is read only up to" in results["failures"][0]["reason"]


def test_a_team_folder_whose_name_is_not_utf8_is_ranked_and_written(tmp_path, capsys):
    """A plain folder layout whose team folder name is not UTF-8 (a lone surrogate once decoded): ranked, shown
    with the byte escaped, and results.json keeps the exact name as a JSON escape."""
    ref = write_tree(tmp_path / "ref", REF)
    teams = os.fsencode(str(tmp_path / "teams"))
    os.makedirs(teams + b"/caf\xe9")
    os.makedirs(teams + b"/plain")
    for team in (b"caf\xe9", b"plain"):
        with open(teams + b"/" + team + b"/final.zip", "wb") as handle:
            handle.write(submission_zip())
    status, err = run_tool(["--reference", ref, "--submissions", str(tmp_path / "teams"), "--out",
                            str(tmp_path / "out"), "--no-baselines", "--resamples", "20", "--jobs", "1"], capsys)
    assert status == 0, err
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert sorted((r["id"], r["name"]) for r in results["subtasks"][0]["rows"]) == [
        ("team:caf\udce9", "caf\\udce9"), ("team:plain", "plain")]
    done = pdflatex(str(tmp_path / "out"))
    assert done is None or done.returncode == 0
