"""The SCATE competition (competitions/scate/): scoring program on the synthetic sample (golden files), hostile
uploads, the reference builder, the bundle and `make check`, the starting kit, and the baseline on ../shared/scate."""
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
import yaml

from conftest import ROOT, build_competition, load_by_path
from organiser import bundle, check, declarations

SCATE_DIR = os.path.join(ROOT, "competitions", "scate")
SAMPLE = os.path.join(SCATE_DIR, "sample_data")
KIT = os.path.join(SCATE_DIR, "starting_kit")
EVALUATE = os.path.join(SCATE_DIR, "evaluate.py")
GOLDEN = os.path.join(ROOT, "tests", "golden", "scate")
SCATE_SHARED = os.environ.get("SCATE_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "scate"))
for _path in (SCATE_DIR, KIT):
    if _path not in sys.path:
        sys.path.append(_path)

import scate  # noqa: E402
import scate_baseline  # noqa: E402
import scate_data  # noqa: E402
from evalkit import lines, scoring  # noqa: E402
from evalkit.timenorm import kind as anafora_kind  # noqa: E402


reference = load_by_path("scate_reference", os.path.join(SCATE_DIR, "reference.py"))
baselines = load_by_path("scate_baselines", os.path.join(SCATE_DIR, "baselines.py"))
generate = load_by_path("scate_generate", os.path.join(SAMPLE, "generate.py"))


@pytest.fixture(scope="module")
def sample_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("scate_ref")
    summary = reference.build(SAMPLE, str(out), os.path.join(SAMPLE, "test_gold"))
    assert summary["dev"]["written"] == ["norm_en.json", "spans_en.json"]
    # Each phase folder says whose gold it is, as `python -m organiser reference` stamps it (organiser/builders.py).
    assert bundle.stamp_phases(str(out), declarations.Hosted("scate")) == {"dev": False, "test": True}
    return str(out)


def gold_files(split, gold_folder):
    """``{member: bytes}``: the gold of ``split`` renamed as a system submission."""
    members = {}
    for doc in scate_data.documents(SAMPLE, split):
        with open(scate_data.gold_path(os.path.join(SAMPLE, gold_folder), doc), "rb") as handle:
            members[scate_data.submission_name(doc)] = handle.read()
    return members


def write_zip(path, members):
    with zipfile.ZipFile(str(path), "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return str(path)


def run(ref, submission, out):
    """The scoring program as a participant runs it: (exit status, stdout, stderr, scores)."""
    proc = subprocess.run([sys.executable, "-I", "-S", EVALUATE, "--ref", ref, "--submission", submission, "--out", str(out)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    scores = {}
    if os.path.isfile(os.path.join(str(out), "scores.txt")):
        with open(os.path.join(str(out), "scores.txt"), encoding="utf-8") as handle:
            scores = dict((k, float(v)) for k, v in (line.split(": ") for line in handle.read().splitlines()))
    return proc.returncode, proc.stdout, proc.stderr, scores


# --------------------------------------------------------------------------- scoring on the sample

def test_golden_scores_and_details_of_the_baseline_on_the_sample(sample_ref, tmp_path):
    sub = str(tmp_path / "baseline.zip")
    scate_baseline.make(SAMPLE, "dev", sub)
    status, out, err, _ = run(os.path.join(sample_ref, "dev"), sub, tmp_path / "out")
    assert status == 0, err
    with open(os.path.join(GOLDEN, "expected_scores.txt"), encoding="utf-8") as handle:
        assert (tmp_path / "out" / "scores.txt").read_text(encoding="utf-8") == handle.read()
    report = json.loads((tmp_path / "out" / "detailed_results.json").read_text(encoding="utf-8"))
    entry = next(e for e in report["entries"] if e["task"] == "norm")
    table = entry["details"]["tables"][0]
    assert [row[0] for row in table["rows"]] == ["SAMPLE_AQ_0001", "SAMPLE_AQ_0002"]
    assert "Day-Of-Week" in entry["details"]["per_tag"]
    html = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "Per document" in html and "SAMPLE_AQ_0002" in html


def test_gold_as_system_scores_one_and_nothing_scores_zero(sample_ref, tmp_path):
    status, _, err, scores = run(os.path.join(sample_ref, "test"), write_zip(tmp_path / "g.zip", gold_files(
        "test", "test_gold")), tmp_path / "g")
    assert status == 0, err
    assert scores["avg_score"] == 1.0 and scores["en_norm_interval_p"] == 1.0 and scores["en_spans"] == 1.0
    empty = dict((name, b"<data><annotations></annotations></data>") for name in gold_files("test", "test_gold"))
    status, _, err, scores = run(os.path.join(sample_ref, "test"), write_zip(tmp_path / "e.zip", empty), tmp_path / "e")
    assert status == 0 and scores["avg_score"] == 0.0 and scores["en_spans_identification_p"] == 0.0


def test_the_ranking_score_is_the_first_task_the_phase_scores(sample_ref, tmp_path):
    spans_only = tmp_path / "ref"
    spans_only.mkdir()
    shutil.copy(os.path.join(sample_ref, "dev", "spans_en.json"), str(spans_only))
    sub = str(tmp_path / "b.zip")
    scate_baseline.make(SAMPLE, "dev", sub)
    full = scoring.evaluate(scate, os.path.join(sample_ref, "dev"), sub)["scores"]
    partial = scoring.evaluate(scate, str(spans_only), sub)["scores"]
    assert full["avg_score"] == full["en_norm"] == full["en_norm_interval_f1"] != full["en_spans"]
    assert partial["avg_score"] == partial["en_spans"] == full["en_spans"] and "en_norm" not in partial


def test_document_files_are_found_under_any_folder_and_only_by_their_pattern():
    match = lines.document_matcher(scate.DOCUMENT_FILE)
    assert match("run/SAMPLE_AQ_0001/SAMPLE_AQ_0001.TimeNorm.system.completed.xml") == "SAMPLE_AQ_0001"
    assert match("SAMPLE_AQ_0001/SAMPLE_AQ_0002.TimeNorm.system.completed.xml") is None
    assert match("SAMPLE_AQ_0001.TimeNorm.system.completed.xml") is None
    assert match("SAMPLE_AQ_0001/SAMPLE_AQ_0001.TimeNorm.gold.completed.xml") is None


# --------------------------------------------------------------------------- hostile uploads

DOC = "SAMPLE_AQ_0001"
NAME = scate_data.submission_name(DOC)
LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
          b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><data><annotations>&c;</annotations></data>')
EXTERNAL = (b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<data><annotations><entity><id>&x;</id></entity></annotations></data>')


def entity(ident, span, kind, props=""):
    return "<entity><id>%s</id><span>%s</span><type>%s</type><properties>%s</properties></entity>" % (
        ident, span, kind, props)


def doc_xml(*entities):
    return ("<data><annotations>%s</annotations></data>" % "".join(entities)).encode("utf-8")


def doubling(count):
    """Intersections each naming the next one twice: 2**count trees when unfolded."""
    parts = [entity(str(i), "0,4", "Intersection", "<Intervals>%d</Intervals><Intervals>%d</Intervals>" % (i + 1, i + 1))
             for i in range(count)]
    return doc_xml(*(parts + [entity(str(count), "0,4", "Year", "<Value>1999</Value>")]))


HOSTILE = [
    ("billion laughs", {NAME: LAUGHS}, "document type declaration"),
    ("external entity", {NAME: EXTERNAL}, "document type declaration"),
    ("span past the text", {NAME: doc_xml(entity("1", "5,99999", "Year", "<Value>1999</Value>"))},
     "a span ending after the document's text"),
    ("span not numbers", {NAME: doc_xml(entity("1", "a,b", "Year"))}, "expected a span 'start,end'"),
    ("not XML", {NAME: b"\xff\xfe garbage <<<"}, "expected well-formed XML"),
    ("wrong root", {NAME: b"<html><body/></html>"}, "expected root element <data>"),
    ("link cycle", {NAME: doc_xml(entity("a", "0,4", "Intersection", "<Intervals>b</Intervals>"),
                                  entity("b", "0,4", "Intersection", "<Intervals>a</Intervals>"))}, "cycle"),
    ("exponential graph", {NAME: doubling(40)}, "unfold into at most"),
    ("many intervals", {NAME: doc_xml(*[
        part for i in range(3) for part in (
            entity("n%d" % i, "0,4", "Number", "<Value>19000</Value>"),
            entity("s%d" % i, "0,4", "Calendar-Interval", "<Type>Second</Type><Number>n%d</Number>" % i),
            entity("l%d" % i, "0,4", "Last", "<Interval-Type>DocTime</Interval-Type><Repeating-Interval>s%d"
                   "</Repeating-Interval>" % i))])}, "at most 50000 intervals"),
    ("one expression with too many intervals", {NAME: doc_xml(
        entity("n", "0,4", "Number", "<Value>100000000</Value>"),
        entity("s", "0,4", "Calendar-Interval", "<Type>Second</Type><Number>n</Number>"),
        entity("l", "0,4", "Last", "<Interval-Type>DocTime</Interval-Type><Repeating-Interval>s</Repeating-Interval>"))},
     "more than 20000 Seconds"),
    ("gold file name", {NAME.replace(".system.", ".gold."): doc_xml(), scate_data.submission_name("SAMPLE_AQ_0002"):
                        doc_xml()}, "Did you mean %s for %s?" % (NAME, NAME.replace(".system.", ".gold."))),
    ("unsafe member", {"../" + NAME: doc_xml(), scate_data.submission_name("SAMPLE_AQ_0002"): doc_xml()},
     "path goes up"),
    ("unknown document", {scate_data.submission_name("NOT_A_DOC"): doc_xml(),
                          scate_data.submission_name("SAMPLE_AQ_0002"): doc_xml()}, "does not have"),
]


@pytest.mark.parametrize("label,members,expected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_uploads_give_messages_not_tracebacks(sample_ref, tmp_path, label, members, expected):
    status, out, err, scores = run(os.path.join(sample_ref, "dev"), write_zip(tmp_path / "h.zip", members),
                                   tmp_path / "out")
    assert status == 0, err
    assert "Traceback" not in out + err and expected in out, out
    assert scores["avg_score"] < 1.0


def test_names_that_match_nothing_and_zip_bombs_are_refused_with_a_message(sample_ref, tmp_path):
    flat = write_zip(tmp_path / "flat.zip", {DOC + ".xml": doc_xml()})
    status, out, err, _ = run(os.path.join(sample_ref, "dev"), flat, tmp_path / "flat")
    assert status == 1 and "Traceback" not in err and "<doc>/<doc>.TimeNorm.system.completed.xml" in err
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(str(bomb), "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(3):
            archive.writestr(scate_data.submission_name("SAMPLE_%d" % index), b"\0" * (100 * 1024 * 1024))
    status, out, err, _ = run(os.path.join(sample_ref, "dev"), str(bomb), tmp_path / "bomb")
    assert status == 1 and "would unpack to" in err and "Traceback" not in err


def test_an_oversized_document_file_is_refused_before_parsing(sample_ref, tmp_path):
    big = doc_xml(*[entity(str(i), "0,4", "Year", "<Value>1999</Value>") for i in range(12000)])
    status, out, err, _ = run(os.path.join(sample_ref, "dev"), write_zip(tmp_path / "big.zip", {NAME: big}),
                              tmp_path / "out")
    assert status == 0 and "at most" in out and "times its gold file" in out


# --------------------------------------------------------------------------- reference builder

def test_reference_builder_says_what_is_missing(tmp_path):
    data = tmp_path / "data"
    generate.generate(str(data))
    os.remove(str(data / "text" / "AQUAINT" / "SAMPLE_AQ_0002" / "SAMPLE_AQ_0002.dct"))
    shutil.rmtree(str(data / "text" / "te3-platinum"))
    summary = reference.build(str(data), str(tmp_path / "ref"))
    assert summary["dev"]["documents"] == 1 and "no creation time" in summary["dev"]["missing"].values()
    assert summary["test"]["written"] == [] and "no document texts" in summary["test"]["missing"].values()
    assert "no creation time" in (tmp_path / "ref" / "MISSING.txt").read_text(encoding="utf-8")
    bad = tmp_path / "data" / "train_dev" / "AQUAINT" / "SAMPLE_AQ_0001" / ("SAMPLE_AQ_0001" + scate_data.GOLD_SUFFIX)
    bad.write_bytes(doc_xml(entity("1", "0,99999", "Year")))
    assert reference.main(["--data", str(data), "--out", str(tmp_path / "ref2")]) == 1


def test_a_spans_only_test_phase_has_the_identification_task_alone(tmp_path):
    summary = reference.build(SAMPLE, str(tmp_path))
    assert summary["test"]["written"] == ["spans_en.json"]
    assert "norm_en.json" in summary["test"]["missing"]
    with open(str(tmp_path / "test" / "spans_en.json"), "rb") as handle:
        ref = anafora_kind.KINDS["scate_spans"].parse_reference_text(handle.read(), "spans_en.json", None, "en")
    assert ref.gold == "spans" and len(ref) == 2


# --------------------------------------------------------------------------- bundle, make check, starting kit

@pytest.mark.parametrize("full_test_gold", [True, False], ids=["full test gold", "spans-only test gold"])
def test_the_bundle_builds_and_make_check_passes(tmp_path, full_test_gold, capsys):
    ref, dist = build_competition("scate", tmp_path, test_gold="sample" if full_test_gold else None)
    assert os.path.isfile(os.path.join(dist, "baselines", "table.md"))
    with zipfile.ZipFile(os.path.join(dist, "bundles", "scate.zip")) as archive:
        overview = archive.read("overview.html").decode("utf-8")
        competition = yaml.safe_load(archive.read("competition.yaml"))
    # The spans-only test gold is public (test_te3_spans_only/ of the release): a labelled practice phase.
    assert [p["label"] for p in competition["phases"].values()] == [
        "Development", "Test" if full_test_gold else "Test" + bundle.PRACTICE_SUFFIX]
    assert bundle.read_manifest(dist)["test_state"] == ("real" if full_test_gold else "practice")
    assert ">baseline</td>" in overview and ">floor</td>" in overview
    assert ("practice phase" in overview) != full_test_gold
    status = check.main(["--dist", dist, "--submissions", os.path.join(dist, "submissions")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.count(" ok ") == 6 and ("OPTIONAL: norm_en.json" in out) != full_test_gold
    assert ("WARNING [phase.report-policy]" in out and "PRACTICE" in out) != full_test_gold
    assert "leak audit" in out and "LEAK" not in out


def test_the_starting_kit_validates_and_reports(sample_ref, tmp_path):
    sub = str(tmp_path / "b.zip")
    proc = subprocess.run([sys.executable, "-I", os.path.join(KIT, "scate_baseline.py"), "--data", SAMPLE, "--split",
                           "test", "--out", sub], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0, proc.stderr
    for split, code, text in (("test", 0, "identification_f1"), ("dev", 1, "2 of 2 documents have no file")):
        proc = subprocess.run([sys.executable, "-I", os.path.join(KIT, "validate.py"), sub, "--data", SAMPLE, "--split",
                               split], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        assert proc.returncode == code and text in proc.stdout, proc.stdout + proc.stderr


# --------------------------------------------------------------------------- the public data (../shared/scate)

needs_scate = pytest.mark.skipif(not os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")),
                                 reason="../shared/scate is absent")


@needs_scate
def test_baseline_scores_on_the_public_dev_data(tmp_path):
    summary = reference.build(SCATE_SHARED, str(tmp_path / "ref"))
    assert summary["dev"]["documents"] == 10 and summary["test"]["written"] == ["spans_en.json"]
    sub = str(tmp_path / "dev.zip")
    assert scate_baseline.make(SCATE_SHARED, "dev", sub) == 10
    scores = scoring.evaluate(scate, str(tmp_path / "ref" / "dev"), sub)["scores"]
    # the figures quoted in competitions/scate/README.md, the starting kit's README and the overview page
    assert round(scores["en_norm_interval_p"], 4) == 0.7325 and round(scores["en_norm_interval_r"], 4) == 0.8955
    assert round(scores["avg_score"], 4) == 0.8058 and round(scores["en_spans_identification_f1"], 4) == 0.7541
    scate_baseline.make(SCATE_SHARED, "test", str(tmp_path / "test.zip"))
    test = scoring.evaluate(scate, str(tmp_path / "ref" / "test"), str(tmp_path / "test.zip"))["scores"]
    assert round(test["avg_score"], 4) == 0.6270 and "en_norm" not in test
    gold = {}
    for doc in scate_data.documents(SCATE_SHARED, "dev"):
        with open(scate_data.gold_path(os.path.join(SCATE_SHARED, "train_dev", "AQUAINT"), doc), "rb") as handle:
            gold[scate_data.submission_name(doc)] = handle.read()
    assert scoring.evaluate(scate, str(tmp_path / "ref" / "dev"), write_zip(tmp_path / "g.zip", gold))[
        "scores"]["avg_score"] == 1.0


def test_make_check_without_a_baseline_submits_empty_document_files(sample_ref, tmp_path):
    members = check.trivial_submission(os.path.join(sample_ref, "test"), "scate")
    assert sorted(members) == [scate_data.submission_name(d) for d in scate_data.documents(SAMPLE, "test")]
    report = scoring.evaluate(scate, os.path.join(sample_ref, "test"), write_zip(tmp_path / "t.zip", members))
    # the one message: every document file holds no entity (issue 24, class 2), a warning that changes no score
    assert report["scores"]["avg_score"] == 0.0
    assert [(m["severity"], m["text"].split(" (first: ")[0]) for m in report["messages"]] == [
        ("warning", "%d of %d documents have a file without any entity" % (len(members), len(members)))]
