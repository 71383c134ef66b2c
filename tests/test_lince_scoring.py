"""LinCE through the shared scorer: sample data end to end, alignment and label messages, names, guarantees."""
import json
import os
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evalkit import cli, report_html
from evalkit.scoring import evaluate
from lince_helpers import (EVALUATE, SAMPLE, build_sample_reference, gold_submission, lince, sample_gold,
                           write_files)

LID_NAME = "lid_spa_eng.txt"


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("lince_ref")
    summary = build_sample_reference(out)
    assert all(len(info["written"]) == 10 and not info["missing"] for info in summary.values())
    return str(out)


@pytest.fixture(scope="module")
def gold_files():
    return gold_submission(sample_gold("dev"))


def score(ref, files, tmp_path, name="sub"):
    return evaluate(lince, os.path.join(ref, "dev"), write_files(tmp_path / name, files))


def messages(report, severity=None):
    return [m for m in report["messages"] if severity is None or m["severity"] == severity]


def entry(report, task, pair):
    return next(e for e in report["entries"] if e["task"] == task and e["lang"] == pair)


def test_perfect_submission_scores_one_everywhere(ref, gold_files, tmp_path):
    report = score(ref, gold_files, tmp_path)
    assert report["scores"]["avg_score"] == 1.0
    assert len(report["entries"]) == 10 and all(e["score"] == 1.0 for e in report["entries"])
    assert not messages(report)
    assert report["signature"].startswith("lince|metrics:lince-metrics-1|avg:dataset-mean|")


def test_leaderboard_is_the_plain_mean_of_the_dataset_scores(ref, gold_files, tmp_path):
    files = dict(gold_files)
    files["sa_spa_eng.txt"] = "".join("neutral\n" for _ in files["sa_spa_eng.txt"].splitlines())
    del files["pos_hin_eng.txt"]
    report = score(ref, files, tmp_path)
    scores = [e["score"] for e in report["entries"]]
    assert entry(report, "pos", "hin_eng")["status"] == "missing"
    assert 0 < entry(report, "sa", "spa_eng")["score"] < 1
    assert report["scores"]["avg_score"] == sum(scores) / 10
    assert report["scores"]["avg_score"] != report["scores"]["avg_lid"]


def lid_lines(gold_files):
    return gold_files[LID_NAME].split("\n")


def test_missing_line_is_located_and_the_rest_still_scores(ref, gold_files, tmp_path):
    lines = lid_lines(gold_files)
    first_sentence_end = lines.index("")
    bad = lines[:first_sentence_end + 2] + lines[first_sentence_end + 3:]   # drop a label of sentence 2
    report = score(ref, dict(gold_files, **{LID_NAME: "\n".join(bad)}), tmp_path)
    lid = entry(report, "lid", "spa_eng")
    assert lid["status"] == "scored" and lid["zeroed_sentences"] == 1 and 0.9 < lid["score"] < 1
    errors = [m for m in messages(report, "error") if m["file"] == LID_NAME]
    assert errors and "sentence 2" in errors[0]["where"] and "line %d" % (first_sentence_end + 2) in errors[0]["where"]


def test_missing_blank_line_shifts_and_only_the_unambiguous_sentences_score(ref, gold_files, tmp_path):
    lines = lid_lines(gold_files)
    blanks = [i for i, line in enumerate(lines) if line == ""]
    bad = lines[:blanks[3]] + lines[blanks[3] + 1:]     # sentences 4 and 5 merged
    del bad[blanks[10]]                                 # and one label dropped further on
    report = score(ref, dict(gold_files, **{LID_NAME: "\n".join(bad)}), tmp_path)
    lid = entry(report, "lid", "spa_eng")
    text = " ".join(m["text"] for m in messages(report, "error"))
    assert "first misalignment" in text and "could not be aligned" in text
    assert 0 < lid["scored_sentences"] < lid["sentences"] and 0 < lid["score"] < 1
    assert "sentence 4" in messages(report, "error")[0]["where"]


def test_no_blank_lines_but_the_right_count_is_paired_in_order(ref, gold_files, tmp_path):
    flat = "\n".join(line for line in lid_lines(gold_files) if line) + "\n"
    report = score(ref, dict(gold_files, **{LID_NAME: flat}), tmp_path)
    assert entry(report, "lid", "spa_eng")["score"] == 1.0
    assert any("paired with tokens in order" in m["text"] for m in messages(report, "warning"))


def test_labels_outside_the_label_set_are_reported_and_never_match(ref, gold_files, tmp_path):
    text = gold_files[LID_NAME].replace("lang1\n", "Lang1\n", 1).replace("other\n", "punct\n")
    report = score(ref, dict(gold_files, **{LID_NAME: text}), tmp_path)
    texts = [m["text"] for m in messages(report, "warning") if m["file"] == LID_NAME]
    assert len(texts) == 1 and "'Lang1' once" in texts[0] and "did you mean 'lang1'?" in texts[0]
    assert "'punct'" in texts[0] and "did you mean 'other'?" in texts[0]
    assert entry(report, "lid", "spa_eng")["score"] < 1


def test_did_you_mean_for_the_release_dataset_id(ref, gold_files, tmp_path):
    files = dict(gold_files)
    files["lid_spaeng.txt"] = files.pop(LID_NAME)
    report = score(ref, files, tmp_path)
    hints = [m["text"] for m in report["messages"] if m["file"] == "lid_spaeng.txt"]
    assert hints and "Did you mean lid_spa_eng.txt?" in hints[0]
    assert entry(report, "lid", "spa_eng")["status"] == "missing"


def test_wrapping_folder_is_forgiven_with_a_warning(ref, gold_files, tmp_path):
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for name, text in gold_files.items():
            zf.writestr("my_team/" + name, text)
    report = evaluate(lince, os.path.join(ref, "dev"), archive)
    assert report["scores"]["avg_score"] == 1.0
    assert any("inside the folder 'my_team/'" in m["text"] for m in messages(report, "warning"))


def test_sentence_labels_with_the_wrong_count_score_zero_with_a_clear_message(ref, gold_files, tmp_path):
    files = dict(gold_files, **{"sa_spa_eng.txt": "positive\n"})
    report = score(ref, files, tmp_path)
    sa = entry(report, "sa", "spa_eng")
    assert sa["score"] == 0.0 and sa["status"] == "sentence_count_mismatch"
    assert any("the file has 1 labels, the input file has 24 sentences" in m["text"] for m in messages(report, "error"))


def test_tab_separated_lines_take_the_last_field(ref, gold_files, tmp_path):
    text = "".join(("tok\t" + line if line else line) + "\n" for line in gold_files["pos_spa_eng.txt"].split("\n")[:-1])
    report = score(ref, dict(gold_files, **{"pos_spa_eng.txt": text}), tmp_path)
    assert entry(report, "pos", "spa_eng")["score"] == 1.0
    assert any("last one was taken as the label" in m["text"] for m in messages(report, "warning"))


def test_crlf_bom_and_sent_enum_headers_are_accepted(ref, gold_files, tmp_path):
    sentences = gold_files["ner_spa_eng.txt"].split("\n\n")
    text = "\ufeff" + "\r\n\r\n".join("# sent_enum = %d\r\n%s" % (i, s.replace("\n", "\r\n"))
                                      for i, s in enumerate(sentences) if s)
    report = score(ref, dict(gold_files, **{"ner_spa_eng.txt": text}), tmp_path)
    assert entry(report, "ner", "spa_eng")["score"] == 1.0


def test_entry_point_runs_isolated_from_any_directory(ref, gold_files, tmp_path):
    sub = write_files(tmp_path / "sub", gold_files)
    proc = subprocess.run([sys.executable, "-I", "-S", EVALUATE, "--ref", os.path.join(ref, "dev"), "--submission", sub,
                           "--out", str(tmp_path / "out")], cwd=str(tmp_path), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0, proc.stderr
    scores = (tmp_path / "out" / "scores.txt").read_text(encoding="utf-8").splitlines()
    assert scores[0] == "avg_score: 1.000000000000" and "spa_eng_lid_weighted_f1: 1.000000000000" in scores
    assert json.loads((tmp_path / "out" / "scores.json").read_text())["avg_score"] == 1.0


def test_platform_form_and_nothing_recognisable(ref, tmp_path):
    (tmp_path / "input" / "res").mkdir(parents=True)
    os.symlink(os.path.join(ref, "dev"), str(tmp_path / "input" / "ref"))
    (tmp_path / "input" / "res" / "predictions.json").write_text("[]")
    proc = subprocess.run([sys.executable, EVALUATE, str(tmp_path / "input"), str(tmp_path / "out")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 1
    assert "lid_spa_eng.txt" in proc.stderr and "Traceback" not in proc.stderr


def test_hostile_labels_and_names_are_escaped_in_the_html(ref, gold_files, tmp_path):
    text = gold_files[LID_NAME].replace("lang1\n", "<script>alert(1)</script>\n", 1)
    files = dict(gold_files, **{LID_NAME: text, "<img src=x onerror=alert(1)>.txt": "x"})
    page = report_html.render(score(ref, files, tmp_path))
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


LABELS = st.sampled_from(["lang1", "lang2", "other", "ne", "B-PER", "I-PER", "O", "positive", "", "\t", "#",
                          "# sent_enum = 1", "\u00e9", "\ud800", "x" * 50, "\r"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(st.sampled_from(["lid_spa_eng.txt", "ner_msa_ea.txt", "sa_spa_eng.txt", "x/lid_spa_eng.txt",
                                              "lid_spaeng.txt", "pos_hin_eng.txt"]),
                             st.one_of(st.lists(LABELS, max_size=80).map("\n".join), st.binary(max_size=40)),
                             min_size=1, max_size=4))
def test_hostile_uploads_never_give_a_traceback(ref, tmp_path, capsys, files):
    sub = tmp_path / "hostile"
    if sub.exists():
        import shutil
        shutil.rmtree(str(sub))
    for name, content in files.items():
        path = sub / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8", "surrogatepass"))
    status = cli.main(lince, ["--ref", os.path.join(ref, "dev"), "--submission", str(sub), "--out",
                              str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert status in (0, 1), err
    assert "Traceback" not in err and "Internal error" not in err
    if status == 0:
        assert (tmp_path / "out" / "scores.txt").read_text().startswith("avg_score: ")


def test_sample_test_phase_scores_the_test_gold(ref, tmp_path):
    files = gold_submission(sample_gold("test"))
    report = evaluate(lince, os.path.join(ref, "test"), write_files(tmp_path / "t", files))
    assert report["scores"]["avg_score"] == 1.0


def test_sample_data_generator_is_deterministic(tmp_path):
    from lince_helpers import generate_sample
    generate_sample.generate(str(tmp_path))
    for folder, _, names in os.walk(str(tmp_path)):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), str(tmp_path))
            with open(os.path.join(SAMPLE, rel), encoding="utf-8") as a, open(os.path.join(folder, name), encoding="utf-8") as b:
                assert a.read() == b.read(), rel


def test_long_labels_are_cut_in_messages(ref, gold_files, tmp_path):
    text = gold_files[LID_NAME].replace("lang1\n", "z" * 5000 + "\n", 1)
    report = score(ref, dict(gold_files, **{LID_NAME: text}), tmp_path)
    texts = [m["text"] for m in messages(report)]
    assert any("(5,000 characters)" in t for t in texts) and all(len(t) < 1000 for t in texts)


def test_validator_on_the_sample_test_split_checks_structure_and_on_dev_scores(tmp_path):
    import subprocess
    from lince_helpers import KIT
    files = gold_submission(sample_gold("test"))
    files["ner_hin_eng.txt"] = files["ner_hin_eng.txt"].replace("O\n", "", 1)
    sub = write_files(tmp_path / "sub", files)
    proc = subprocess.run([sys.executable, os.path.join(KIT, "validate.py"), sub, "--data", SAMPLE, "--split", "test"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ner_hin_eng.txt" in proc.stdout and "counts as wrong" in proc.stdout and " acc " not in proc.stdout
    dev = write_files(tmp_path / "dev", gold_submission(sample_gold("dev")))
    proc = subprocess.run([sys.executable, os.path.join(KIT, "validate.py"), dev, "--data", SAMPLE, "--split", "dev"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0 and "lid_spa_eng.txt  scored" in proc.stdout and "acc 1.0000" in proc.stdout
    assert "span_f1 1.0000" in proc.stdout and "0 errors, 0 warnings" in proc.stdout


def test_sample_baselines_beat_their_floors(ref, tmp_path):
    from lince_helpers import lince_baselines
    scores = {}
    for system in ("floor", "baseline"):
        sub = str(tmp_path / (system + ".zip"))
        lince_baselines.make(lince, SAMPLE, "dev", system, sub)
        scores[system] = evaluate(lince, os.path.join(ref, "dev"), sub)
    assert all(e["status"] == "scored" for e in scores["baseline"]["entries"])
    assert scores["baseline"]["scores"]["avg_score"] > scores["floor"]["scores"]["avg_score"]
    assert scores["baseline"]["scores"]["spa_eng_lid"] > scores["floor"]["scores"]["spa_eng_lid"]


def test_local_no_reference_message_is_worded_from_the_declaration(tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "sub").mkdir()
    proc = subprocess.run([sys.executable, EVALUATE, "--ref", str(tmp_path / "ref"), "--submission",
                           str(tmp_path / "sub"), "--out", str(tmp_path / "out")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 2
    assert "No usable reference data at the path given to --ref" in proc.stderr
    assert "named <task>_<language>.conll (e.g. lid_spa_eng.conll)" in proc.stderr
    assert ".json" not in proc.stderr and "Traceback" not in proc.stderr
    helped = subprocess.run([sys.executable, EVALUATE, "--help"], stdout=subprocess.PIPE, universal_newlines=True)
    assert "reference directory (<task>_<language>.conll)" in helped.stdout and ".json" not in helped.stdout
