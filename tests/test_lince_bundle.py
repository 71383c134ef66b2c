"""LinCE's bundle (organiser/competition_bundle.py): members, leaderboard, and the scoring program and starting kit
run from the zips as a platform worker and a participant would."""
import io
import os
import subprocess
import sys
import zipfile

import pytest
import yaml

from lince_helpers import SAMPLE, build_sample_reference, gold_submission, sample_gold, write_files
from organiser import competition_bundle


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("lince_bundle")
    build_sample_reference(root / "ref")
    phases = competition_bundle.build("lince", str(root / "ref"), str(root / "dist"))
    return root, phases


def unzip(data, target):
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(str(target))
    return str(target)


def test_bundle_members_and_leaderboard(built):
    root, phases = built
    assert phases == ["Development", "Test"]
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "lince.zip")) as archive:
        names = archive.namelist()
        competition = yaml.safe_load(archive.read("competition.yaml"))
    assert names[0] == "competition.yaml"
    for name in ("scoring_program.zip", "reference_data_dev.zip", "reference_data_test.zip", "starting_kit.zip", "logo.png",
                 "overview.html", "evaluation.html", "data.html", "terms.html"):
        assert name in names
    columns = competition["leaderboard"]["columns"]
    assert list(columns)[0] == "avg_score" and "spa_eng_lid" in columns and "msa_ea_ner" in columns
    assert len([k for k in columns if k.count("_") == 2 and not k.endswith("avg_score")]) == 10


def test_scoring_program_from_the_bundle_runs_as_a_worker(built, tmp_path):
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "lince.zip")) as archive:
        program = unzip(archive.read("scoring_program.zip"), tmp_path / "program")
        unzip(archive.read("reference_data_test.zip"), tmp_path / "input" / "ref")
        columns = yaml.safe_load(archive.read("competition.yaml"))["leaderboard"]["columns"]
    write_files(tmp_path / "input" / "res", gold_submission(sample_gold("test")))
    for cwd in (str(tmp_path), program):
        out = tmp_path / ("out-" + os.path.basename(cwd))
        proc = subprocess.run([sys.executable, "-I", os.path.join(program, "evaluate.py"), str(tmp_path / "input"),
                               str(out)], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        assert proc.returncode == 0, proc.stderr
        scores = dict(line.split(": ") for line in (out / "scores.txt").read_text().splitlines())
        assert scores["avg_score"] == "1.000000000000"
        assert set(columns) <= set(scores)


def test_starting_kit_from_the_zip_validates(built, tmp_path):
    root, _ = built
    with open(str(root / "dist" / "starting_kit.zip"), "rb") as handle:
        kit = os.path.join(unzip(handle.read(), tmp_path / "kit"), "lince-starting-kit")
    sub = write_files(tmp_path / "sub", gold_submission(sample_gold("test")))
    proc = subprocess.run([sys.executable, "-I", os.path.join(kit, "validate.py"), sub, "--data", SAMPLE, "--split", "test"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout
    proc = subprocess.run([sys.executable, "-I", os.path.join(kit, "make_submission.py"), "--data", SAMPLE, "--split",
                           "test", "--out", str(tmp_path / "b.zip")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(str(tmp_path / "b.zip")) as archive:
        assert len(archive.namelist()) == 10
