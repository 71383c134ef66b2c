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
    assert "No usable reference data at the path given to --ref" in stderr and "expected a [form, tag] pair" in stderr
    assert "organisers" not in stderr


def test_mistyped_ref_locally_says_the_path_holds_no_reference(tmp_path):
    """Locally the reference is the participant's own path: no blame on the organisers (issue 9, point 7)."""
    status, _, stderr = run(["--ref", str(tmp_path / "reference_data" / "deev"), "--submission",
                             os.path.join(GOLDEN, "sub")])
    assert status == 2
    assert stderr.startswith("No usable reference data at the path given to --ref, nothing was scored: the reference "
                             "folder %s does not exist." % (tmp_path / "reference_data" / "deev"))
    assert "--ref reference_data/dev" in stderr and "organisers" not in stderr


def test_broken_reference_on_the_platform_is_the_organisers_side(tmp_path):
    (tmp_path / "input" / "ref").mkdir(parents=True)
    shutil.copytree(os.path.join(GOLDEN, "sub"), str(tmp_path / "input" / "res"))
    status, _, stderr = run([str(tmp_path / "input"), str(tmp_path / "output")])
    assert status == 2
    assert "The reference data is broken, nothing was scored" in stderr and "please tell them" in stderr


def test_help_lists_the_exit_statuses():
    status, stdout, _ = run(["--help"])
    assert status == 0
    assert "exit status:" in stdout
    for line in ("  0  scored", "  1  nothing recognisable", "  2  usage error", "  3  internal error"):
        assert line in stdout


def test_summary_counts_use_plural_forms(tmp_path):
    status, stdout, _ = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", os.path.join(GOLDEN, "sub"),
                             "--out", str(tmp_path)])
    assert status == 0
    assert "messages: 3 errors, 4 warnings\n" in stdout


def _zip_of(path, members):
    """Write a zip at ``path`` holding ``members`` ({name: bytes})."""
    with zipfile.ZipFile(str(path), "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return str(path)


def _golden_members():
    members = {}
    for folder, _, files in os.walk(os.path.join(GOLDEN, "sub")):
        for name in files:
            full = os.path.join(folder, name)
            with open(full, "rb") as handle:
                members[os.path.relpath(full, os.path.join(GOLDEN, "sub")).replace(os.sep, "/")] = handle.read()
    return members


def test_zip_inside_the_zip_is_scored_with_a_warning_locally_and_on_the_platform(tmp_path):
    """One rule for both forms (issue 9, point 3; issue 8): the lone inner zip is opened and named."""
    inner = _zip_of(tmp_path / "inner.zip", _golden_members())
    with open(inner, "rb") as handle:
        outer = _zip_of(tmp_path / "outer.zip", {"my_submission.zip": handle.read(), "__MACOSX/._x": b""})
    status, stdout, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", outer,
                                  "--out", str(tmp_path / "local")])
    assert status == 0, stderr
    local = messages_text(str(tmp_path / "local"))
    inner_zip = ("warning | my_submission.zip | layout | the upload holds a zip inside the zip, my_submission.zip, and "
                 "nothing else: it was opened and scored, but upload that inner zip itself next time\n")
    assert inner_zip in local   # the first warning, after the errors
    assert local.replace(inner_zip, "") == read(os.path.join(GOLDEN, "expected_messages.txt"))
    assert local.index(inner_zip) == local.index("warning |")
    assert read(str(tmp_path / "local" / "scores.txt")) == read(os.path.join(GOLDEN, "expected_scores.txt"))
    (tmp_path / "input" / "res").mkdir(parents=True)
    shutil.copytree(os.path.join(GOLDEN, "ref"), str(tmp_path / "input" / "ref"))
    shutil.copy(inner, str(tmp_path / "input" / "res" / "my_submission.zip"))
    status, _, stderr = run([str(tmp_path / "input"), str(tmp_path / "platform")])
    assert status == 0, stderr
    assert messages_text(str(tmp_path / "platform")) == local


def test_zip_inside_the_zip_beside_other_files_is_named(tmp_path):
    inner = _zip_of(tmp_path / "inner.zip", _golden_members())
    with open(inner, "rb") as handle:
        outer = _zip_of(tmp_path / "outer.zip", {"preds/inner.zip": handle.read(), "notes.txt": b"x"})
    status, _, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission", outer])
    assert status == 1
    assert ("no expected file was found in the submission, but it holds a zip inside the zip (preds/inner.zip): "
            "upload that zip itself, with the task folders at its root.") in stderr


def test_misnamed_folder_gives_one_line_per_folder(tmp_path):
    members = dict(("POS-tagging/%s.json" % lang, b"[]") for lang in ("lat", "got", "grc", "chu"))
    members.update(("lemmatization/%s.json" % lang, b"[]") for lang in ("lat", "got", "grc"))
    members["pos_tagging/lat.json"] = _golden_members()["pos_tagging/lat.json"]
    status, _, stderr = run(["--ref", os.path.join(GOLDEN, "ref"), "--submission",
                             _zip_of(tmp_path / "s.zip", members), "--out", str(tmp_path / "out")])
    assert status == 0, stderr
    layout = [line for line in messages_text(str(tmp_path / "out")).splitlines() if "| layout |" in line]
    assert layout == [
        "warning | POS-tagging/ | layout | unexpected folder (4 files ignored); expected <task>/<language>.json with "
        "task one of fill_mask_char, fill_mask_word, lemmatisation, morph_features, pos_tagging. Did you mean "
        "pos_tagging/?",
        "warning | lemmatization/ | layout | unexpected folder (3 files ignored); expected <task>/<language>.json "
        "with task one of fill_mask_char, fill_mask_word, lemmatisation, morph_features, pos_tagging. Did you mean "
        "lemmatisation/?"]


def test_usage_error_exits_2():
    status, _, stderr = run(["only-one-argument"])
    assert status == 2 and "usage" in stderr
