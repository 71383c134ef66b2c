"""Golden-file tests of the scoring program's command line (numbers worked out in golden/README.md)."""
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

from conftest import ROOT

GOLDEN = os.path.join(ROOT, "tests", "golden")
EVALUATE = os.path.join(ROOT, "scoring_program", "evaluate.py")


def run(args, cwd=None):
    """Run evaluate.py with ``args``; return (exit status, stdout, stderr)."""
    proc = subprocess.run([sys.executable, EVALUATE] + args, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def read(path):
    with io.open(path, encoding="utf-8") as handle:
        return handle.read()


def messages_text(out_dir):
    report = json.loads(read(os.path.join(out_dir, "detailed_results.json")))
    return "".join("%s | %s | %s | %s\n" % (m["severity"], m["file"], m["where"], m["text"])
                   for m in report["messages"])


def test_local_form_matches_golden_files(tmp_path):
    status, stdout, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", os.path.join(GOLDEN, "sub"),
                                  "--out", str(tmp_path)])
    assert status == 0, stderr
    assert read(os.path.join(str(tmp_path), "scores.txt")) == read(os.path.join(GOLDEN, "expected_scores.txt"))
    assert messages_text(str(tmp_path)) == read(os.path.join(GOLDEN, "expected_messages.txt"))
    assert "overall score (avg_score): 0.3139" in stdout
    assert "signature: st2024|metrics:" in stdout and "|evalkit:" in stdout
    assert not os.path.exists(os.path.join(str(tmp_path), "metadata"))


def test_scores_json_is_the_flat_object_codabench_posts(tmp_path):
    """Codabench reads scores.json before scores.txt: it must hold the same numbers, flat."""
    status, stdout, _ = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", os.path.join(GOLDEN, "sub"),
                             "--out", str(tmp_path)])
    assert status == 0
    flat = json.loads(read(os.path.join(str(tmp_path), "scores.json")))
    expected = [line.split(": ") for line in read(os.path.join(GOLDEN, "expected_scores.txt")).splitlines()]
    assert list(flat) == [key for key, _ in expected] + ["signature"]
    assert all(flat[key] == float(value) for key, value in expected)
    assert flat["signature"] in stdout


def test_platform_form_from_any_working_directory(tmp_path):
    """CodaLab runs from the run dir, Codabench from the program dir: the result must not change."""
    run_dir = tmp_path / "run"
    shutil.copytree(os.path.join(GOLDEN, "ref"), str(run_dir / "input" / "ref"))
    shutil.copytree(os.path.join(GOLDEN, "sub"), str(run_dir / "input" / "res"))
    for cwd, out in ((str(run_dir), "out1"), (os.path.dirname(EVALUATE), "out2")):
        status, _, stderr = run([str(run_dir / "input"), str(run_dir / out)], cwd=cwd)
        assert status == 0, stderr
        assert read(str(run_dir / out / "scores.txt")) == read(os.path.join(GOLDEN, "expected_scores.txt"))


def test_zip_submission_with_wrapping_folder_scores_the_same(tmp_path):
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for folder, _, files in os.walk(os.path.join(GOLDEN, "sub")):
            for name in files:
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, os.path.join(GOLDEN, "sub")).replace(os.sep, "/")
                if rel != "metadata":
                    zf.write(path, "my_team/" + rel)
        zf.writestr("__MACOSX/._x", b"junk")
    status, _, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", archive, "--out", str(tmp_path / "o")])
    assert status == 0, stderr
    assert read(str(tmp_path / "o" / "scores.txt")) == read(os.path.join(GOLDEN, "expected_scores.txt"))
    text = messages_text(str(tmp_path / "o"))
    assert "inside the folder 'my_team/'" in text
    assert "__MACOSX" not in text


def test_scores_txt_is_what_the_platforms_read():
    for line in read(os.path.join(GOLDEN, "expected_scores.txt")).splitlines():
        key, value = line.split(": ")
        assert line.count(":") == 1
        assert len(key) <= 36 and key.replace("_", "").isalnum() and key == key.lower()
        assert "e" not in value.lower() and len(value.split(".")[1]) >= 10
        float(value)


def test_nothing_recognisable_exits_1_with_a_paragraph(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "predictions.txt").write_text("hello")
    status, stdout, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", str(tmp_path / "sub")])
    assert status == 1
    assert "Nothing could be scored" in stderr and "pos_tagging" in stderr and "Traceback" not in stderr


def test_broken_reference_exits_2(tmp_path):
    ref = tmp_path / "ref" / "pos_tagging"
    ref.mkdir(parents=True)
    (ref / "lat.json").write_text("[[[\"a\"]]]")
    status, _, stderr = run(["--ref", str(tmp_path / "ref"), "--submission", os.path.join(GOLDEN, "sub")])
    assert status == 2
    assert "reference data is broken" in stderr and "expected a [form, tag] pair" in stderr


def test_usage_error_exits_2():
    status, _, stderr = run(["only-one-argument"])
    assert status == 2 and "usage" in stderr
