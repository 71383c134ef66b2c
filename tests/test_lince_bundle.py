"""LinCE's bundle (organiser/bundle.py, the one bundle builder): members, leaderboard, and the scoring program and starting kit
run from the zips as a platform worker and a participant would."""
import io
import os
import subprocess
import sys
import zipfile

import pytest
import yaml

from conftest import build_competition
from lince_helpers import LINCE_DIR, SAMPLE, build_sample_reference, gold_submission, lince, sample_gold, write_files
from organiser import bundle, check


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """LinCE built from its sample (with the sample's test gold) as ``make COMPETITION=lince`` builds it."""
    root = tmp_path_factory.mktemp("lince_bundle")
    build_competition("lince", root)
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "lince.zip")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
    return root, [competition["phases"][n]["label"] for n in sorted(competition["phases"])]


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
                 "overview.html", "evaluation.html", "data.html", "terms.html", bundle.PUBLIC_DATA_MEMBER):
        assert name in names
    assert competition["phases"][2]["public_data"] == bundle.PUBLIC_DATA_MEMBER
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


# --------------------------------------------------------------------------- make check on LinCE's bundles

def _columns(competition):
    return [key for key, _ in sorted(competition["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])]


def test_leaderboard_is_avg_then_the_ten_datasets_in_table_5_order(built):
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "lince.zip")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
    columns = competition["leaderboard"]["columns"]
    assert _columns(competition) == ["avg_score"] + ["%s_%s" % (pair, task.key) for task, pair in lince.DATASETS]
    assert columns["avg_score"]["label"] == "Avg" and columns["spa_eng_lid"]["label"] == "LID SPA-ENG"
    assert not [key for key in columns if key.startswith("avg_") and key != "avg_score" or key.endswith("avg_score")
                and key != "avg_score"]


def test_phases_are_dated_by_lince_own_schedule(built):
    from organiser import schedule as schedule_module
    root, _ = built
    schedule = schedule_module.load(os.path.join(LINCE_DIR, "schedule.yaml"))
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "lince.zip")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
    assert competition["phases"][1]["start_date"] == schedule_module.platform_text(schedule.window("dev").opens)
    assert competition["phases"][2]["start_date"] == schedule_module.platform_text(schedule.window("test").opens)
    assert competition["end_date"] == schedule_module.platform_text(schedule.window("test").closes)


@pytest.mark.parametrize("name", ["lince.zip", "lince-codabench.zip"])
def test_check_passes_on_both_bundles_and_both_workers_score(built, name):
    from organiser import check, schedule as schedule_module
    root, _ = built
    schedule = schedule_module.load(os.path.join(LINCE_DIR, "schedule.yaml"))
    lines = []
    failures = check.check_one(str(root / "dist" / "bundles" / name), None, timeout=120, report=lines.append,
                               schedule=schedule, decl="lince")
    # One note, no failure: the test input is attached when the test phase opens.
    assert [(f.rule, check.is_note(f)) for f in failures] == [("phase.test-input", True)]
    runs = [line for line in lines if line.strip().startswith("phase")]
    assert len(runs) == (2 if name.endswith("codabench.zip") else 4) and all(" ok " in line for line in runs)


def test_check_refuses_st2024_schedule_and_foreign_columns(built, tmp_path):
    from organiser import check, schedule as schedule_module
    root, _ = built
    path = str(root / "dist" / "bundles" / "lince.zip")
    failures, _, _ = check.check_bundle(path, schedule_module.load(), "lince")
    assert [f for f in failures if f.rule == "schedule.windows"]
    with zipfile.ZipFile(path) as archive:
        members = dict((n, archive.read(n)) for n in archive.namelist())
    competition = yaml.safe_load(members["competition.yaml"])
    competition["leaderboard"]["columns"]["avg_lid"] = competition["leaderboard"]["columns"].pop("msa_ea_ner")
    members["competition.yaml"] = yaml.safe_dump(competition).encode("utf-8")
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(str(bad), "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    schedule = schedule_module.load(os.path.join(LINCE_DIR, "schedule.yaml"))
    failures, _, _ = check.check_bundle(str(bad), schedule, "lince")
    failures = [f for f in failures if not check.is_note(f)]
    assert [f.rule for f in failures] == ["column.declaration"]
    assert "avg_lid" in failures[0].text


def test_trivial_submission_follows_the_text_kinds(built, tmp_path):
    from organiser import check
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "reference" / "lince-dev.zip")) as archive:
        archive.extractall(str(tmp_path / "ref"))
    members = check.trivial_submission(str(tmp_path / "ref"), "lince")
    assert sorted(members) == sorted(lince.SUBMISSION_FILE.format(task=t.key, lang=p) for t, p in lince.DATASETS)
    gold = sample_gold("dev")
    sa = [(t, p) for t, p in lince.DATASETS if t.kind == "sentence_labels"][0]
    assert members["sa_spa_eng.txt"].decode().split() == ["positive"] * len(gold[sa])
    lid = lince.DATASETS[0]
    assert members["lid_spa_eng.txt"].decode().split() == ["lang1"] * sum(len(rows) for _, rows in gold[lid])


def test_a_bundle_without_some_datasets_says_which_on_its_pages(tmp_path):
    import shutil
    build_sample_reference(tmp_path / "ref")
    for phase in ("dev", "test"):
        for name in os.listdir(str(tmp_path / "ref" / phase)):
            if name != "lid_spa_eng.conll":
                os.remove(str(tmp_path / "ref" / phase / name))
    shutil.rmtree(str(tmp_path / "ref" / "test"))
    # Without test gold the test phase exists all the same, with the placeholder reference.
    assert bundle.build("lince", str(tmp_path / "ref"), str(tmp_path / "dist")) == ["Development", "Test"]
    with zipfile.ZipFile(str(tmp_path / "dist" / "bundles" / "lince.zip")) as archive:
        overview = archive.read("overview.html").decode("utf-8")
        evaluation = archive.read("evaluation.html").decode("utf-8")
        competition = yaml.safe_load(archive.read("competition.yaml"))
        test_reference = zipfile.ZipFile(io.BytesIO(archive.read("reference_data_test.zip"))).namelist()
    assert bundle.is_pending_reference(test_reference)
    assert bundle.read_manifest(str(tmp_path / "dist"))["test_state"] == "pending"
    assert "LACKS 9 of 10 datasets" in overview and overview.count("<strong>LACKING</strong>") == 9
    assert "<code>ner_msa_ea.conll</code>" in overview and "<style" not in overview
    assert list(competition["leaderboard"]["columns"]) == ["avg_score", "spa_eng_lid"]
    assert "LID SPA-ENG" in evaluation and "MSA-EA" not in evaluation.split("Leaderboard columns")[1]


def test_the_machinery_imports_no_competition_by_name():
    import re
    from organiser import declarations
    from conftest import ROOT
    assert declarations.top_level_id() == "st2024"
    assert declarations.load("lince").COMPETITION_ID == "lince" and declarations.load() is declarations.load("st2024")
    for name in ("bundle", "pages", "check", "audit", "builders", "schedule", "platforms", "declarations"):
        with open(os.path.join(ROOT, "organiser", name + ".py"), encoding="utf-8") as handle:
            text = handle.read()
        assert not re.search(r"^\s*(import|from) (st2024|lince)\b", text, re.M), name
        assert not re.search(r"\b(st2024|lince)\.[A-Z]", text), name
