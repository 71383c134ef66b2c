"""The contamination audit on the real releases (issue 30; skipped without ../shared): ST2024 with a test gold taken
from the public UD treebanks (Gothic whole, Vedic Sanskrit and Ancient Hebrew in part: tests/ud_test_gold.py) is found
in ../shared/ud and fails until the schedule acknowledges it; SCATE's spans-only test copy is found in its own
release without any PUBLIC corpus."""
import os
import subprocess
import sys

import pytest

import ud_test_gold
from conftest import ROOT

SHARED = os.path.join(os.path.dirname(ROOT), "shared")
ST2024, UD, SCATE = (os.path.join(SHARED, name) for name in ("st2024", "ud", "scate"))
pytestmark = pytest.mark.skipif(not all(os.path.isdir(p) for p in (ST2024, UD, SCATE)),
                                reason="needs ../shared/st2024, ../shared/ud and ../shared/scate (the releases)")
PYTHON = sys.executable


def organiser(*argv):
    """``(exit status, stdout)`` of ``python -m organiser ARGV``."""
    done = subprocess.run([PYTHON, "-m", "organiser"] + list(argv), cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    return done.returncode, done.stdout


@pytest.fixture(scope="module")
def st2024(tmp_path_factory):
    """ST2024's reference built from the release with a TEST_GOLD holding Gothic, Vedic Sanskrit and Ancient
    Hebrew, their gold taken from ../shared/ud where the treebank has the sentence (made here, never committed)."""
    root = tmp_path_factory.mktemp("st2024-ud")
    gold = str(root / "test_gold")
    counts = ud_test_gold.write_test_gold(ST2024, UD, gold)
    ref = str(root / "ref")
    status, _ = organiser("reference", "--competition", "st2024", "--data", ST2024, "--test-gold", gold, "--out",
                          ref, "--report", str(root / "data_quality.md"))
    assert status == 0
    return root, gold, ref, counts


def audit(st2024, *more):
    root, gold, ref, _ = st2024
    return organiser("contamination", "--competition", "st2024", "--reference", ref, "--data", ST2024,
                     "--test-gold", gold, "--out", str(root / "dist"), *more)


def schedule(root, acknowledged):
    """ST2024's schedule acknowledging ``acknowledged`` (a copy)."""
    with open(os.path.join(ROOT, "schedule.yaml"), encoding="utf-8") as handle:
        text = handle.read()
    old = "    acknowledged: []"
    assert text.count(old) == 1
    path = str(root / ("schedule-%s.yaml" % "-".join(acknowledged)))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace(old, "    acknowledged: [%s]" % ", ".join(acknowledged)))
    return path


def share_of(line):
    return float(line.split("with their gold (")[1].split("%")[0])


def line_of(out, name):
    return next(line for line in out.split("\n") if line.strip().startswith(name + ":"))


def test_the_fixture_holds_ud_gold_for_all_gothic_and_part_of_the_others(st2024):
    counts = st2024[3]
    assert counts["got"] == (541, 541)
    assert 0 < counts["san"][1] < counts["san"][0] and 0 < counts["hbo"][1] < counts["hbo"][0]


def test_gothic_is_found_whole_in_ud_and_fails_until_acknowledged(st2024):
    status, out = audit(st2024, "--public", UD)
    assert status == 1
    for task in ("pos_tagging", "lemmatisation", "morph_features"):
        line = line_of(out, "%s/got.json" % task)
        assert "541 of 541 item(s) found (541 exact" in line and "541 with their gold" in line
        assert "(100.0%)" in line and "UD_Gothic-PROIEL" in line
        assert "FAIL [contamination] %s/got.json: 100.0%%" % task in out
    for lang in ("san", "hbo"):
        line = line_of(out, "morph_features/%s.json" % lang)
        assert 5.0 < share_of(line) < 100.0, line
        assert "FAIL [contamination] morph_features/%s.json" % lang in out
    status, out = audit(st2024, "--public", UD, "--schedule", schedule(st2024[0], ["got"]))
    assert status == 1 and "FAIL [contamination] pos_tagging/got.json" not in out
    assert "FAIL [contamination] pos_tagging/san.json" in out and "FAIL [contamination] pos_tagging/hbo.json" in out
    status, out = audit(st2024, "--public", UD, "--schedule", schedule(st2024[0], ["got", "san", "hbo"]))
    assert status == 0 and "FAIL" not in out and "[acknowledged]" in line_of(out, "pos_tagging/got.json")


def test_hebrew_is_found_though_the_treebank_splits_its_words_otherwise(st2024):
    counts = st2024[3]
    status, out = audit(st2024, "--public", UD)
    line = line_of(out, "lemmatisation/hbo.json")
    assert line.split(" of ")[0].strip().endswith(str(counts["hbo"][1])), line
    assert "%d with their gold" % counts["hbo"][1] in line


def test_without_public_the_ud_sources_are_named_not_searched(st2024):
    status, out = audit(st2024)
    assert "NOT SEARCHED" in out and "UD_Gothic-PROIEL (UD 2.12 treebank, got)" in out
    assert "UD_Latin-ITTB" not in out   # no Latin test gold in this build: its source is not asked for
    line = line_of(out, "pos_tagging/got.json")   # the release repeats a few test verses in its train and valid files
    assert share_of(line) < 10.0 and "ud/" not in line


def test_scate_spans_only_copy_is_found_in_its_own_release(tmp_path):
    ref = str(tmp_path / "ref")
    status, _ = organiser("reference", "--competition", "scate", "--data", SCATE, "--out", ref, "--report",
                          str(tmp_path / "missing.txt"))
    assert status == 0
    status, out = organiser("contamination", "--competition", "scate", "--reference", ref, "--data", SCATE,
                            "--out", str(tmp_path / "dist"))
    assert status == 0   # a practice phase: its gold is declared public, no threshold
    line = line_of(out, "spans_en.json").strip()
    assert line.startswith("spans_en.json: 20 of 20 item(s) found") and "20 with their gold" in line
    assert "20 stand-off" in line
    assert "release test_te3_spans_only/" in line and "practice phase" in out
