"""Strict validation: every malformed input gets a located message, a zero where due, and no crash."""
import codecs
import json
import os
import zipfile

import pytest

import st2024
from evalkit.layout import NothingToScore
from evalkit.scoring import evaluate

REF = {
    "pos_tagging/lat.json": [[["a", "DET"], ["b", "NOUN"]], [["c", "VERB"]]],
    "lemmatisation/lat.json": [[["a", "x"], ["b", "y"]], [["c", "z"]]],
    "morph_features/lat.json": [[{"Token": "a", "UPOS": "DET"}, {"Token": "b", "UPOS": "NOUN", "Case": "Nom"}],
                                [{"Token": "c", "UPOS": "VERB"}]],
    "fill_mask_word/lat.json": [{"masked": "[MASK] b", "text": "a b", "masked_tokens": ["a"]}],
    "pos_tagging/san.json": [[["d", "NOUN"]]],
}
GOOD = {
    "pos_tagging/lat.json": [[["a", "DET"], ["b", "NOUN"]], [["c", "VERB"]]],
    "lemmatisation/lat.json": [[["a", ["x"]], ["b", ["y"]]], [["c", ["z"]]]],
    "morph_features/lat.json": [[{"Token": "a", "UPOS": "DET"}, {"Token": "b", "UPOS": "NOUN", "Case": "Nom"}],
                                [{"Token": "c", "UPOS": "VERB"}]],
    "fill_mask_word/lat.json": [{"masked": "[MASK] b", "text": "a b", "masked_tokens": [["a"]]}],
    "pos_tagging/san.json": [[["d", "NOUN"]]],
}


def write_tree(root, files):
    for rel, content in files.items():
        path = os.path.join(str(root), *rel.split("/"))
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path))
        data = content if isinstance(content, bytes) else json.dumps(content).encode("utf-8")
        with open(path, "wb") as handle:
            handle.write(data)
    return str(root)


def score(tmp_path, changes, drop=()):
    files = dict(GOOD)
    files.update(changes)
    for rel in drop:
        files.pop(rel)
    ref = write_tree(tmp_path / "ref", REF)
    return evaluate(st2024, ref, write_tree(tmp_path / "sub", files))


def entry(report, task, lang="lat"):
    return [e for e in report["entries"] if e["task"] == task and e["lang"] == lang][0]


def texts(report):
    return " || ".join("%s, %s: %s" % (m["file"], m["where"], m["text"]) for m in report["messages"])


def test_good_submission_scores_one_without_messages(tmp_path):
    report = score(tmp_path, {})
    assert report["scores"]["avg_score"] == 1.0
    assert report["messages"] == []


@pytest.mark.parametrize("data, expected", [
    (b"", "the file is empty"),
    (b"   \n", "the file is empty"),
    (b"[[[\"a\", \"DET\"]", "invalid JSON"),
    (b"[\n  [[\"a\", \"DET\"],,\n]", "line 2, column"),
    (b"\xff\xfe[]", "not valid UTF-8"),
    (b"{\"a\": 1}", "expected a list of sentences at the top level, got an object"),
    (b"[" * 50000 + b"]" * 50000, "nested far too deeply"),
    (b"[[[\"a\", \"DET\"], [\"b\"]], [[\"c\", \"VERB\"]]]", "sentence 1, token 2 ($[0][1]): expected a [form, tag] pair, got a list of 1 items"),
    (b"[[[\"a\", \"DET\"], 7], [[\"c\", \"VERB\"]]]", "expected a [form, tag] pair, got a number"),
    (b"[\"a DET\", [[\"c\", \"VERB\"]]]", "sentence 1 ($[0]): expected a list of tokens, got a string"),
])
def test_unreadable_pos_file_scores_zero_and_says_where(tmp_path, data, expected):
    report = score(tmp_path, {"pos_tagging/lat.json": data})
    e = entry(report, "pos_tagging")
    assert e["status"] == "unreadable" and e["score"] == 0.0
    assert expected in texts(report)
    assert entry(report, "lemmatisation")["score"] == 1.0   # everything else still scored


def test_bom_is_accepted(tmp_path):
    data = codecs.BOM_UTF8 + json.dumps(GOOD["pos_tagging/lat.json"]).encode("utf-8")
    report = score(tmp_path, {"pos_tagging/lat.json": data})
    assert entry(report, "pos_tagging")["score"] == 1.0


def test_sentence_count_mismatch_scores_zero_with_both_counts(tmp_path):
    report = score(tmp_path, {"pos_tagging/lat.json": GOOD["pos_tagging/lat.json"][:1] + GOOD["pos_tagging/lat.json"] })
    e = entry(report, "pos_tagging")
    assert e["status"] == "sentence_count_mismatch" and e["score"] == 0.0
    assert "the file has 3 sentences, the reference has 2" in texts(report)


def test_token_count_mismatch_zeroes_only_that_sentence(tmp_path):
    report = score(tmp_path, {"pos_tagging/lat.json": [[["a", "DET"]], [["c", "VERB"]]]})
    e = entry(report, "pos_tagging")
    assert e["zeroed_sentences"] == 1 and e["score"] == 0.5
    assert "sentence 1 ($[0]): 1 tokens, the reference has 2: this sentence scores 0" in texts(report)


def test_forms_that_differ_are_reported_but_not_scored_for_pos_and_lemmas(tmp_path):
    report = score(tmp_path, {"pos_tagging/lat.json": [[["A", "DET"], ["b", "NOUN"]], [["c", "VERB"]]]})
    assert entry(report, "pos_tagging")["score"] == 1.0
    assert "form 'A' differs from the reference form 'a'" in texts(report)


def test_non_string_tag_never_matches(tmp_path):
    report = score(tmp_path, {"pos_tagging/lat.json": [[["a", None], ["b", "NOUN"]], [["c", "VERB"]]]})
    assert entry(report, "pos_tagging")["components"]["acc"] == pytest.approx(0.75)
    assert "the tag is null, expected a string" in texts(report)


def test_more_than_three_candidates_only_three_count(tmp_path):
    lemmas = [[["a", ["q", "r", "s", "x"]], ["b", "y"]], [["c", ["z"]]]]
    report = score(tmp_path, {"lemmatisation/lat.json": lemmas})
    assert entry(report, "lemmatisation")["components"] == {"acc1": 0.75, "acc3": 0.75}
    assert "4 candidates given; only the first 3 count" in texts(report)


def test_candidate_shapes(tmp_path):
    report = score(tmp_path, {"lemmatisation/lat.json": [[["a", 5], ["b", "y"]], [["c", ["z"]]]]})
    assert entry(report, "lemmatisation")["status"] == "unreadable"
    assert "sentence 1, token 1 ($[0][0][1]): expected a list of up to 3 candidate strings" in texts(report)
    report = score(tmp_path, {"lemmatisation/lat.json": [[["a", [5, "x"]], ["b", "y"]], [["c", ["z"]]]]})
    assert entry(report, "lemmatisation")["components"] == {"acc1": 0.75, "acc3": 1.0}


def test_morph_form_key_upos_and_lemma_rules(tmp_path):
    morph = [[{"Form": "a"}, {"Token": "b", "Case": "Nom", "Lemma": "bb"}], [{"Token": "c", "UPOS": "X"}]]
    report = score(tmp_path, {"morph_features/lat.json": morph})
    assert entry(report, "morph_features")["score"] == 1.0
    morph = [[{"UPOS": "DET"}, {"Token": "b", "Case": "Nom"}], [7]]
    report = score(tmp_path, {"morph_features/lat.json": morph})
    assert "sentence 2, token 1 ($[1][0]): expected a token object" in texts(report)


def test_morph_token_without_form_scores_zero(tmp_path):
    morph = [[{"UPOS": "DET"}, {"Token": "b", "Case": "Nom"}], [{"Token": "c"}]]
    report = score(tmp_path, {"morph_features/lat.json": morph})
    assert entry(report, "morph_features")["score"] == pytest.approx((0.5 + 1) / 2)
    assert "no Token or Form key: the token scores 0" in texts(report)


def test_fill_mask_rules(tmp_path):
    report = score(tmp_path, {"fill_mask_word/lat.json": [{"masked": "[MASK] b", "masked_tokens": "a"}]})
    assert "expected a list with one candidate list per mask, got a string" in texts(report)
    report = score(tmp_path, {"fill_mask_word/lat.json": [{"masked": "[MASK] b", "masked_tokens": ["a"]}]})
    assert entry(report, "fill_mask_word")["score"] == 1.0   # a bare string is one candidate
    report = score(tmp_path, {"fill_mask_word/lat.json": [{"masked": "x", "masked_tokens": [["a"], ["b"]]}]})
    assert entry(report, "fill_mask_word")["zeroed_sentences"] == 1
    assert "2 candidate lists, the reference has 1" in texts(report)
    assert "\"masked\" differs from the input line" in texts(report)


def test_missing_file_scores_zero_and_counts_in_averages(tmp_path):
    report = score(tmp_path, {}, drop=["pos_tagging/san.json"])
    assert entry(report, "pos_tagging", "san")["status"] == "missing"
    assert report["scores"]["avg_pos"] == 0.5
    assert report["scores"]["san_avg_score"] == 0.0
    assert "expected files not submitted (each scores 0): pos_tagging/san.json" in texts(report)
    assert not [m for m in report["messages"] if m["severity"] == "error"]   # a subset may be submitted


@pytest.mark.parametrize("name, hint", [
    ("lemmatization/lat.json", "Did you mean lemmatisation/?"),
    ("POS_tagging/lat.json", "Did you mean pos_tagging/?"),
    ("pos_tagging/sanv.json", "Did you mean pos_tagging/san.json?"),
    ("pos_tagging/lat.JSON", "Did you mean pos_tagging/lat.json?"),
    ("pos_tagging/lat", "Did you mean pos_tagging/lat.json?"),
    ("pos_tagging/latin.json", "unexpected file name (ignored)"),
    ("pos_tagging/LAT.json", "Did you mean pos_tagging/lat.json?"),
])
def test_did_you_mean(tmp_path, name, hint):
    report = score(tmp_path, {name: []})
    assert hint in texts(report), texts(report)


def test_codabench_metadata_is_ignored_silently(tmp_path):
    report = score(tmp_path, {"metadata": b"ignored"})
    assert report["messages"] == []


def test_unsafe_zip_members_are_refused(tmp_path):
    ref = write_tree(tmp_path / "ref", REF)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for rel, content in GOOD.items():
            zf.writestr(rel, json.dumps(content))
        zf.writestr("../evil.json", "[]")
        zf.writestr("/abs.json", "[]")
    report = evaluate(st2024, ref, archive)
    assert report["scores"]["avg_score"] == 1.0
    assert "refused (path goes up with '..')" in texts(report)
    assert "refused (absolute path)" in texts(report)


def test_nothing_to_score(tmp_path):
    ref = write_tree(tmp_path / "ref", REF)
    with pytest.raises(NothingToScore):
        evaluate(st2024, ref, write_tree(tmp_path / "sub", {"readme.txt": b"hi"}))
    bad_zip = tmp_path / "bad.zip"
    bad_zip.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(NothingToScore):
        evaluate(st2024, ref, str(bad_zip))


def test_zip_inside_the_upload_is_opened(tmp_path):
    ref = write_tree(tmp_path / "ref", REF)
    inner = tmp_path / "res"
    inner.mkdir()
    with zipfile.ZipFile(str(inner / "submission.zip"), "w") as zf:
        for rel, content in GOOD.items():
            zf.writestr(rel, json.dumps(content))
    report = evaluate(st2024, ref, str(inner))
    assert report["scores"]["avg_score"] == 1.0
    assert "zip inside the zip" in texts(report)


def test_oversize_files_are_refused_without_reading_them(tmp_path, monkeypatch):
    monkeypatch.setattr(st2024, "MAX_FILE_BYTES", 100)
    ref = write_tree(tmp_path / "ref", REF)
    big = json.dumps([[["a", "DET"], ["b", "NOUN" + " " * 200]], [["c", "VERB"]]]).encode("utf-8")
    files = dict(GOOD)
    files["pos_tagging/lat.json"] = big
    report = evaluate(st2024, ref, write_tree(tmp_path / "sub", files))
    assert "the file has {:,} bytes; at most 100 are accepted".format(len(big)) in texts(report)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("pos_tagging/lat.json", big)
    report = evaluate(st2024, ref, archive)
    assert entry(report, "pos_tagging")["status"] == "unreadable"
    assert "the file has {:,} bytes; at most 100 are accepted".format(len(big)) in texts(report)


def test_zip_of_an_unsupported_version_is_reported_not_crashed(tmp_path):
    """zipfile raises NotImplementedError for a 'version needed' it does not know (found by fuzzing)."""
    ref = write_tree(tmp_path / "ref", REF)
    archive = tmp_path / "sub.zip"
    with zipfile.ZipFile(str(archive), "w") as zf:
        zf.writestr("pos_tagging/lat.json", json.dumps(GOOD["pos_tagging/lat.json"]))
    data = bytearray(archive.read_bytes())
    central = data.index(b"PK\x01\x02")
    data[central + 6:central + 8] = (64).to_bytes(2, "little")   # version needed to extract: 6.4
    archive.write_bytes(bytes(data))
    with pytest.raises(NothingToScore) as raised:
        evaluate(st2024, ref, str(archive))
    assert "is not a readable zip file (NotImplementedError" in str(raised.value)
