"""Hostile uploads (issue 8): whatever is uploaded within the platform limits, the scorer stays within its
memory and output budgets, writes all four outputs, exits 0 or 1, prints nothing raw, and compares strings
in NFC. Property-based generators for each class: lone surrogates and control characters in names and
values, bombs that stay under the byte caps, long distinct labels and forms, forged log lines; then the
smaller decisions one by one. Peak memory is measured on a child process (tests/peak.py)."""
import io
import json
import os
import re
import unicodedata
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import st2024
from evalkit import cli, kinds, scoring
from evalkit.layout import ReferenceError
from evalkit.messages import printable, quoted
from peak import run_scorer
from test_validation import GOOD, REF, write_tree

OUTPUTS = ("scores.txt", "scores.json", "detailed_results.json", "detailed_results.html")
MB = 1000 * 1000
#: Raw control characters (a newline ends a printed line and is allowed; nothing else is).
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
member_name = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1,
                      max_size=12) | st.just("x\n\noverall score (avg_score): 1.0000 \x1b]0;PWNED\x07")
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

odd_char = st.characters(whitelist_categories=("Cc", "Cs", "Cf", "Zl", "Zp", "Mn", "Lo"))
odd_text = st.text(odd_char, min_size=1, max_size=12) | st.sampled_from(
    ["\ud800", "\udfff", "x\n\noverall score (avg_score): 1.0000 \x1b]0;PWNED\x07", "\u202eevil", "\x00"])


def score_cli(tmp, sub, capsys, ref=None):
    """Run the command line in-process on ``sub``; check the common targets; return (status, printed, out)."""
    out = os.path.join(tmp, "out")
    status = cli.main(st2024, ["--ref", ref or os.path.join(tmp, "ref"), "--submission", sub, "--out", out])
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert status in (0, 1), printed
    assert "Internal error" not in printed
    assert not RAW_CONTROL.search(printed), repr(printed[:300])
    assert len(printed.encode("utf-8")) <= 1 * MB
    if status == 0:
        for name in OUTPUTS:
            assert 0 < os.path.getsize(os.path.join(out, name)) <= 50 * MB, name
        with io.open(os.path.join(out, "detailed_results.json"), encoding="utf-8") as handle:
            json.load(handle)
    return status, printed, out


# --------------------------------------------------------------------------- 1, 4, 5: odd strings anywhere

@settings(max_examples=60, **SETTINGS)
@given(st.data())
def test_odd_strings_in_values_and_names_never_crash_nor_print_raw(tmp_path_factory, capsys, data):
    """Lone surrogates, control and format characters as tags, feature names and values, forms,
    candidates and zip member names: exit 0, every output written, nothing raw printed."""
    tmp = str(tmp_path_factory.mktemp("odd"))
    write_tree(os.path.join(tmp, "ref"), REF)
    s = lambda: data.draw(odd_text)
    files = dict(GOOD)
    files["pos_tagging/lat.json"] = [[[s(), s()], ["b", s()]], [["c", "VERB"]]]
    files["morph_features/lat.json"] = [[{"Token": s(), s(): s()}, {"Token": "b", "Case": s()}], [{"Token": "c"}]]
    files["lemmatisation/lat.json"] = [[["a", [s(), s()]], [s(), "y"]], [["c", [s()]]]]
    files["fill_mask_word/lat.json"] = [{"masked": s(), "masked_tokens": [[s()]]}]
    archive = os.path.join(tmp, "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for rel, content in files.items():
            zf.writestr(rel, json.dumps(content))   # lone surrogates become valid \ud800 escapes
        zf.writestr(data.draw(member_name), b"junk")
    status, printed, out = score_cli(tmp, archive, capsys)
    assert status == 0
    assert len([line for line in printed.splitlines() if line.startswith("overall score")]) == 1


def test_non_utf8_file_names_in_res_are_reported_escaped(tmp_path, capsys):
    write_tree(tmp_path / "ref", REF)
    sub = write_tree(tmp_path / "sub", GOOD)
    with open(os.fsencode(sub) + b"/notes\xff\x1b.json", "wb") as handle:
        handle.write(b"[]")
    status, printed, out = score_cli(str(tmp_path), sub, capsys)
    assert status == 0
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    assert report["scores"]["avg_score"] == 1.0
    assert any(m["file"] == "notes\\udcff\\x1b.json" for m in report["messages"])


def test_forged_log_line_in_a_member_name_is_printed_escaped(tmp_path, capsys):
    write_tree(tmp_path / "ref", REF)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pos_tagging/lat.json", json.dumps(GOOD["pos_tagging/lat.json"]))
        zf.writestr("x\n\noverall score (avg_score): 1.0000 \x1b]0;PWNED\x07", b"x")
    status, printed, _ = score_cli(str(tmp_path), archive, capsys)
    assert status == 0
    assert len([line for line in printed.splitlines() if line.startswith("overall score")]) == 1
    assert "x\\n\\noverall score (avg_score): 1.0000 \\x1b]0;PWNED\\x07" in printed


def test_printable_and_quoted_cut_long_strings_and_escape_controls():
    assert printable("a\nb\x1b") == "a\\nb\\x1b"
    assert printable("\ud800") == "\\ud800"
    assert printable("x" * 1048576, 3) == "xxx\u2026 (1,048,576 characters)"
    assert quoted("abc" * 1000, 3) == "'abc\u2026' (3,000 characters)"
    assert quoted("it's") == repr("it's") and quoted("ab") == "'ab'"


# --------------------------------------------------------------------------- 3, 4: long distinct labels and forms

@settings(max_examples=15, **SETTINGS)
@given(st.data())
def test_long_distinct_labels_and_forms_stay_within_the_report_budgets(tmp_path_factory, capsys, data):
    """Many distinct long tags, feature names and forms: every shown string is cut, detail tables list at
    most MAX_PREDICTED_ONLY_ROWS labels found only in the prediction, the totals are kept."""
    tmp = str(tmp_path_factory.mktemp("long"))
    tokens = data.draw(st.integers(50, 400))
    length = data.draw(st.integers(1, 400000 // tokens))   # within the 1 MiB floor of a tiny reference
    ref = dict(REF)
    ref["pos_tagging/lat.json"] = [[["w%d" % i, "NOUN"] for i in range(tokens)]]
    ref["morph_features/lat.json"] = [[{"Token": "w%d" % i, "Case": "Nom"} for i in range(tokens)]]
    ref["phase.json"] = {"phase": "dev", "gold": "public"}   # a public-gold phase: its report has the detail tables
    write_tree(os.path.join(tmp, "ref"), ref)
    files = dict(GOOD)
    files["pos_tagging/lat.json"] = [[["w%d" % i, "%d%s" % (i, "T" * length)] for i in range(tokens)]]
    files["morph_features/lat.json"] = [[{"Token": "w%d%s" % (i, "F" * length) if i % 2 else "w%d" % i,
                                          "%d%s" % (i, "K" * length): "v"} for i in range(tokens)]]
    status, printed, out = score_cli(tmp, write_tree(os.path.join(tmp, "sub"), files), capsys)
    assert status == 0
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    by_task = dict((e["task"], e) for e in report["entries"] if e["lang"] == "lat")
    per_tag = by_task["pos_tagging"]["details"]["per_tag"]
    per_feature = by_task["morph_features"]["details"]["per_feature"]
    for rows in (per_tag, per_feature):
        assert len(rows) <= 1 + kinds.MAX_PREDICTED_ONLY_ROWS + 1
        assert all(len(key) <= kinds.MAX_LABEL_CHARS + 40 for key in rows)
    assert sum(row["fp"] for row in per_tag.values()) == tokens
    assert sum(row["spurious"] for row in per_feature.values()) == len(range(0, tokens, 2))   # odd forms differ
    assert all(len(m["text"]) <= 1000 and len(m["file"]) <= 400 for m in report["messages"])


# --------------------------------------------------------------------------- 2: bombs under the byte caps

BOMBS = {"empty lists": b"[],", "empty objects": b"{},", "short strings": b'"ab",', "numbers": b"1.5,",
         "sentences": b'[["a","NOUN"]],'}


@settings(max_examples=5, **SETTINGS)
@given(shape=st.sampled_from(sorted(BOMBS)), megabytes=st.integers(1, 48), lie=st.booleans())
def test_bombs_under_the_byte_caps_stay_within_one_gibibyte(tmp_path_factory, shape, megabytes, lie):
    """A small zip that unpacks to many megabytes of tiny JSON values (parsing 255 MB of ``[],`` took
    6.9 GB): refused for being out of proportion to its reference before it is parsed. Measured on a
    child process under a 1.5 GiB address-space limit (a regression fails here, not the machine)."""
    tmp = str(tmp_path_factory.mktemp("bomb"))
    ref = write_tree(os.path.join(tmp, "ref"), REF)
    unit = BOMBS[shape]
    count = megabytes * 1024 * 1024 // len(unit)
    archive = os.path.join(tmp, "sub.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("pos_tagging/lat.json", b"[" + unit * count + unit[:-1] + b"]")
        zf.writestr("pos_tagging/san.json", json.dumps(GOOD["pos_tagging/san.json"]))
    if lie:   # the central directory claims a tiny unpacked size
        data = bytearray(open(archive, "rb").read())
        central = data.index(b"PK\x01\x02")
        data[central + 24:central + 28] = (100).to_bytes(4, "little")
        open(archive, "wb").write(bytes(data))
    out = os.path.join(tmp, "out")
    run = run_scorer(["--ref", ref, "--submission", archive, "--out", out], tmp, limit=int(1.5 * 1024 ** 3))
    assert run.status == 0, run.stderr
    assert run.peak <= 400 * 1024 ** 2, run.peak
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    entry = [e for e in report["entries"] if e["file"] == "pos_tagging/lat.json"][0]
    assert entry["status"] == "unreadable" and entry["score"] == 0.0
    texts = [m["text"] for m in report["messages"] if m["file"] == "pos_tagging/lat.json"]
    assert lie or any("out of all proportion to its reference" in text for text in texts), texts


def test_the_bound_is_proportional_to_the_reference():
    platform = {"file": 256 * 1024 ** 2, "upload": 1, "members": 1}
    ref = b"[" + b'["w", "NOUN"],' * 300000 + b'["w", "NOUN"]]'
    limits = scoring.file_limits(platform, {"bytes": len(ref), "data": ref})
    assert limits["file"] == scoring.SIZE_FACTOR * len(ref)
    assert scoring.values_limit(limits) == scoring.SIZE_FACTOR * scoring.json_values(ref)
    tiny = scoring.file_limits(platform, {"bytes": 3, "data": b"[1]"})
    assert (tiny["file"], scoring.values_limit(tiny)) == (scoring.MIN_BYTES, scoring.MIN_VALUES)
    assert scoring.json_values(b'[{"a": [1, 2]}, "x,y"]') == 6   # commas in strings count (on both sides)


def test_an_honest_pretty_printed_escaped_file_is_well_within_the_bound(tmp_path):
    """Indented, every non-ASCII character escaped, three candidates per token: still scored."""
    ref = dict(REF)
    ref["lemmatisation/lat.json"] = [[["\u0444\u043e\u0440\u043c\u0430%d" % i, "\u043b\u0435\u043c\u043c\u0430"]
                                      for i in range(3000)]]
    files = dict(GOOD)
    files["lemmatisation/lat.json"] = json.dumps(
        [[[form, [lemma, lemma + "a", lemma + "b"]] for form, lemma in ref["lemmatisation/lat.json"][0]]],
        indent=4).encode("ascii")
    from evalkit.scoring import evaluate
    report = evaluate(st2024, write_tree(tmp_path / "ref", ref), write_tree(tmp_path / "sub", files))
    assert report["scores"]["lat_lemma_acc1"] == 1.0


# --------------------------------------------------------------------------- 6: the smaller decisions

@pytest.mark.parametrize("rel, change", [
    ("pos_tagging/lat.json", lambda r: r[0][1].__setitem__(1, None)),
    ("lemmatisation/lat.json", lambda r: r[1][0].__setitem__(1, None)),
    ("morph_features/lat.json", lambda r: r[0][1].__setitem__("Case", None)),
    ("fill_mask_word/lat.json", lambda r: r[0]["masked_tokens"].__setitem__(0, None)),
])
def test_null_golds_are_refused_when_reading_the_reference(tmp_path, rel, change):
    ref = json.loads(json.dumps(REF))
    change(ref[rel])
    from evalkit.scoring import evaluate
    with pytest.raises(ReferenceError) as raised:
        evaluate(st2024, write_tree(tmp_path / "ref", ref), write_tree(tmp_path / "sub", GOOD))
    assert "reference %s, sentence" % rel in str(raised.value) and "got null" in str(raised.value)


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                     max_leaves=20)


def _holds_null(value):
    if value is None:
        return True
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return any(_holds_null(item) for item in items)


@settings(max_examples=300, **SETTINGS)
@given(_JSON, st.sampled_from([None, 0, 2]), st.booleans())
def test_the_null_prefilter_never_misses_a_null_value(value, indent, ascii_only):
    """The byte-level pre-check of the null-gold check finds every null value, however the JSON is spaced."""
    data = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode("utf-8")
    if _holds_null(value):
        assert scoring.may_hold_null(data), data
    if b"null" not in data:
        assert not scoring.may_hold_null(data)


def test_a_word_containing_null_is_no_null_gold(tmp_path):
    """A reference word such as "nullus" neither passes for a null gold nor hides a real one."""
    from evalkit.scoring import evaluate
    assert not scoring.may_hold_null(b'[[["nullus", "ADJ"], ["nullum", "null"]]]')
    ref = json.loads(json.dumps(REF))
    ref["pos_tagging/lat.json"][0][0][0] = "nullus"
    report = evaluate(st2024, write_tree(tmp_path / "ref", ref), write_tree(tmp_path / "sub", GOOD))
    assert report["scores"]["lat_pos"] == 1.0   # scored, not refused
    ref["pos_tagging/lat.json"][0][1][1] = None
    tree = tmp_path / "ref2"
    write_tree(tree, ref)
    with open(os.path.join(str(tree), "pos_tagging", "lat.json"), "w") as handle:
        json.dump(ref["pos_tagging/lat.json"], handle, indent=6)
    with pytest.raises(ReferenceError):
        evaluate(st2024, str(tree), write_tree(tmp_path / "sub2", GOOD))


def test_null_gold_exits_2(tmp_path):
    ref = json.loads(json.dumps(REF))
    ref["pos_tagging/lat.json"][0][0][1] = None
    run = run_scorer(["--ref", write_tree(tmp_path / "ref", ref), "--submission", write_tree(tmp_path / "sub", GOOD),
                      "--out", str(tmp_path / "out")], str(tmp_path))
    assert run.status == 2 and b"expected a gold string, got null" in run.stderr


def test_unusable_output_directory_is_a_usage_error(tmp_path):
    ref, sub = write_tree(tmp_path / "ref", REF), write_tree(tmp_path / "sub", GOOD)
    plain = tmp_path / "plain"
    plain.write_text("x")
    for out in (str(plain), str(plain / "below")):
        run = run_scorer(["--ref", ref, "--submission", sub, "--out", out], str(tmp_path))
        assert run.status == 2, run.stderr
        assert b"The output directory" in run.stderr and b"Internal error" not in run.stderr


def test_fifo_and_other_special_files_in_res_are_skipped(tmp_path, capsys):
    write_tree(tmp_path / "ref", REF)
    sub = write_tree(tmp_path / "sub", GOOD)
    os.remove(os.path.join(sub, "pos_tagging", "san.json"))
    os.mkfifo(os.path.join(sub, "pos_tagging", "san.json"))
    status, printed, out = score_cli(str(tmp_path), sub, capsys)
    assert status == 0
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    assert "a named pipe (FIFO), not a regular file: skipped" in [m["text"] for m in report["messages"]]
    assert report["scores"]["san_pos"] == 0.0 and report["scores"]["lat_pos"] == 1.0


def test_member_with_an_invalid_utf8_name_is_skipped_not_the_whole_zip(tmp_path, capsys):
    write_tree(tmp_path / "ref", REF)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for rel, content in GOOD.items():
            zf.writestr(rel, json.dumps(content))
        zf.writestr("junk\u00e9.txt", b"x")   # the UTF-8 flag is set for this name
    data = bytearray(open(archive, "rb").read())
    for _ in range(2):   # local header and central directory: make the name invalid UTF-8
        at = data.index("junk\u00e9".encode("utf-8"))
        data[at + 4] = 0xff
    open(archive, "wb").write(bytes(data))
    status, printed, out = score_cli(str(tmp_path), archive, capsys)
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    assert status == 0 and report["scores"]["avg_score"] == 1.0
    assert any("marked as UTF-8 but is not valid UTF-8: skipped" in m["text"] for m in report["messages"])


def test_duplicate_member_names_are_reported(tmp_path, capsys):
    write_tree(tmp_path / "ref", REF)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pos_tagging/lat.json", "[]")
        with pytest.warns(UserWarning):
            zf.writestr("pos_tagging/lat.json", json.dumps(GOOD["pos_tagging/lat.json"]))
    status, printed, out = score_cli(str(tmp_path), archive, capsys)
    report = json.load(open(os.path.join(out, "detailed_results.json"), encoding="utf-8"))
    assert report["scores"]["lat_pos"] == 1.0
    assert "several members of the zip have this name; the last one is used" in printed


# --------------------------------------------------------------------------- 7: NFC on both sides

ACCENTED = ["caf\u00e9", "\u1f00\u03bd\u03b4\u03c1\u03b1", "\u00c5ngstr\u00f6m", "\u0171r", "na\u00efve"]


def _forms(text, form):
    return unicodedata.normalize(form, text) if form else text


@settings(max_examples=40, **SETTINGS)
@given(st.data())
def test_canonically_equivalent_strings_compare_equal(tmp_path_factory, data):
    """A reference in any form, a submission in NFC, NFD or the reference's own form: the same scores."""
    from evalkit.scoring import evaluate
    tmp = str(tmp_path_factory.mktemp("nfc"))
    ref_form = data.draw(st.sampled_from([None, "NFC", "NFD"]))
    words = [_forms(w, ref_form) for w in data.draw(st.lists(st.sampled_from(ACCENTED), min_size=3, max_size=3))]
    ref = dict(REF)
    ref["pos_tagging/lat.json"] = [[[words[0], words[1]], ["b", "NOUN"]]]
    ref["lemmatisation/lat.json"] = [[[words[0], words[2]], ["b", "y"]]]
    ref["morph_features/lat.json"] = [[{"Token": words[1], "Case": words[2]}]]
    ref["fill_mask_word/lat.json"] = [{"masked": words[0] + " [MASK]", "text": "", "masked_tokens": [words[1]]}]
    sub_form = data.draw(st.sampled_from([None, "NFC", "NFD", "NFKC"]))
    n = lambda w: _forms(w, sub_form)
    files = dict(GOOD)
    files["pos_tagging/lat.json"] = [[[n(words[0]), n(words[1])], ["b", "NOUN"]]]
    files["lemmatisation/lat.json"] = [[[n(words[0]), ["x", n(words[2])]], ["b", "y"]]]
    files["morph_features/lat.json"] = [[{"Token": n(words[1]), "Case": n(words[2])}]]
    files["fill_mask_word/lat.json"] = [{"masked": n(words[0]) + " [MASK]", "masked_tokens": [[n(words[1])]]}]
    ascii_json = data.draw(st.booleans())
    files = dict((rel, json.dumps(content, ensure_ascii=ascii_json).encode("utf-8")) for rel, content in files.items())
    report = evaluate(st2024, write_tree(os.path.join(tmp, "ref"), ref), write_tree(os.path.join(tmp, "sub"), files))
    scores = report["scores"]
    assert (scores["lat_pos"], scores["lat_lemma_acc3"], scores["lat_full_morph"], scores["lat_fill_mask_word"]) == \
        (1.0, 1.0, 1.0, 1.0), report["messages"]
    assert scores["lat_lemma_acc1"] == 0.5
    assert not [m for m in report["messages"] if "differs" in m["text"]]


def test_canonical_equivalence_does_not_make_different_strings_equal():
    assert kinds.same_text("e\u0301", "\u00e9") and not kinds.same_text("e", "\u00e9")
    assert not kinds.same_text("\ufb01", "fi")   # compatibility (NFKC) equivalence is not enough
    memo = kinds.NfcMemo()
    assert kinds._canonical_values(["a", "e\u0301", "x"], ["a", "\u00e9", "y"], memo) == ["a", "\u00e9", "x"]
    assert kinds._canonical_candidates(["\u00e9", "b"], [("x", "e\u0301"), ("b",)], memo) == [("x", "\u00e9"), ("b",)]


def test_one_equivalent_string_among_plain_misses_still_counts():
    """The file-level NFC check over the missed items finds one decomposed string among many plain misses,
    and only that item changes: per-sentence scores as if each pair had been compared in NFC."""
    golds = [["a", "b"], ["c"], ["\u00e9", "d"]]
    cands = [[("x",), ("b",)], [("y", "c")], [("e\u0301",), ("z",)]]
    entry = kinds.topk_entry(golds, cands, 3)
    assert entry.per_sentence == {"acc1": [0.5, 0.0, 0.5], "acc3": [0.5, 1.0, 0.5]}
    plain = kinds.topk_entry(golds, cands[:2] + [[("e",), ("z",)]], 3)
    assert plain.per_sentence == {"acc1": [0.5, 0.0, 0.0], "acc3": [0.5, 1.0, 0.0]}
    task = next(t for t in st2024.TASKS if t.kind == "morph")
    ref = [(["w"], [{"Token": "w", "Case": "Nom", "Mood": "Ind"}]), (["v"], [{"Token": "v", "Case": "Caf\u00e9"}])]
    pred = [(["w"], [{"Token": "w", "Case": "Acc", "Mood": "Ind"}]), (["v"], [{"Token": "v", "Case": "Cafe\u0301"}])]
    assert kinds.KINDS["morph"].score(ref, pred, task).per_sentence == {"score": [0.5, 1.0]}
    pred[1][1][0]["Case"] = "Cafe"
    assert kinds.KINDS["morph"].score(ref, pred, task).per_sentence == {"score": [0.5, 0.0]}


def test_a_huge_list_of_members_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """10,000 members with names of 64 KB would take gigabytes to list: the central directory is bounded."""
    from evalkit import layout
    from evalkit.layout import NothingToScore
    from evalkit.scoring import evaluate
    monkeypatch.setattr(layout, "MAX_CENTRAL_DIRECTORY", 50000)
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pos_tagging/lat.json", json.dumps(GOOD["pos_tagging/lat.json"]))
        for i in range(20):
            zf.writestr("%d%s" % (i, "n" * 4000), b"")
    with pytest.raises(NothingToScore) as raised:
        evaluate(st2024, write_tree(tmp_path / "ref", REF), archive)
    assert "list of members takes" in str(raised.value)
    monkeypatch.setattr(layout, "MAX_CENTRAL_DIRECTORY", 200000)
    assert evaluate(st2024, str(tmp_path / "ref"), archive)["scores"]["lat_pos"] == 1.0
