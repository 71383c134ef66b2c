"""Baseline systems (starting_kit/baseline_models.py), `python -m organiser baselines` and the
starting kit's make_submission.py: unit tests on tiny hand-made data, an end-to-end run on the
synthetic sample data, and the "Measured" claims of issue 2 on the shared release (skipped when
it is absent): every baseline beats its trivial floor on valid wherever train data exists."""
import json
import os
import subprocess
import sys
import time
import zipfile

import pytest

from conftest import ROOT, SHARED, needs_shared

sys.path.insert(0, os.path.join(ROOT, "starting_kit"))
import baseline_models as M  # noqa: E402
import st2024  # noqa: E402

SAMPLE = os.path.join(ROOT, "sample_data")
needs_sample = pytest.mark.skipif(not os.path.isdir(os.path.join(SAMPLE, "morphology")),
                                  reason="sample_data/ has not been generated")
TASK = st2024.TASKS_BY_FOLDER


def row(form, lemma="_", upos="_", feats=(), is_range=False):
    return M.Row(form, lemma, upos, tuple(feats), is_range)


TRAIN = [
    [row("puella", "puella", "NOUN", [("Case", "Nom"), ("Number", "Sing")]),
     row("cantat", "canto", "VERB", [("Number", "Sing"), ("Person", "3")]),
     row(".", ".", "PUNCT")],
    [row("puellam", "puella", "NOUN", [("Case", "Acc"), ("Number", "Sing")]),
     row("amat", "amo", "VERB", [("Number", "Sing"), ("Person", "3")]),
     row("puella", "puella", "NOUN", [("Case", "Nom"), ("Number", "Sing")])],
    [row("ad", "ad", "ADP"), row("rosam", "rosa", "NOUN", [("Case", "Acc"), ("Number", "Sing")])],
]


# --------------------------------------------------------------------------- small pieces

def test_ranked_breaks_ties_by_label():
    assert M.ranked({"b": 2, "a": 2, "c": 3}) == ["c", "a", "b"]
    assert M.ranked({"b": 1, "a": 1}, 1) == ["a"]
    assert M.ranked({"x": 5}) == ["x"]


def test_suffixes_longest_first_at_most_four():
    assert M.suffixes("puellam") == ["llam", "lam", "am", "m"]
    assert M.suffixes("ad") == ["ad", "d"]


def test_rewrite_rules_round_trip():
    assert M.rewrite_rule("hominem", "homo") == (4, "o")
    assert M.apply_rule("hominem", (4, "o")) == "homo"
    assert M.apply_rule("x", (3, "")) is None
    for form, lemma in (("amat", "amo"), ("sum", "esse"), ("a", "a")):
        assert M.apply_rule(form, M.rewrite_rule(form, lemma)) == lemma


def test_parse_feats():
    assert M.parse_feats("_") == ()
    assert M.parse_feats("Number=Sing|Case=Nom") == (("Case", "Nom"), ("Number", "Sing"))
    assert M.parse_feats("Case=Acc,Nom") == (("Case", "Acc,Nom"),)


# --------------------------------------------------------------------------- tagging-like tasks

def test_pos_known_form_suffix_and_majority():
    model = M.PosBaseline(TRAIN)
    assert model.predict(row("cantat")) == "VERB"
    assert model.predict(row("Puella")) == "NOUN"                    # lower-cased lookup
    assert model.predict(row("vocat")) == "VERB"                     # suffix "at"
    assert model.predict(row("xyz")) == "NOUN"                       # majority tag
    assert model.predict(row("della", is_range=True)) == "_"         # multiword range


def test_majority_floor():
    assert M.MajorityTagFloor(TRAIN).predict(row("cantat")) == "NOUN"
    # no training rows: UD's most frequent class, so that the floor of such a language is no 0.0
    assert M.MajorityTagFloor([]).predict(row("x")) == M.UNTRAINED_TAG == "NOUN"


def test_lemma_candidates():
    model = M.LemmaBaseline(TRAIN)
    assert model.predict(row("puellam"))[0] == "puella"
    guessed = model.predict(row("vocat"))                            # unseen: rule of "at" -> "o"
    assert guessed[0] == "voco" and "vocat" in guessed and len(guessed) <= 3
    assert len(set(guessed)) == len(guessed)
    assert model.predict(row("zz")) == ["zz"]
    assert model.predict(row("della", is_range=True)) == ["_"]
    assert M.IdentityLemmaFloor(TRAIN).predict(row("vocat")) == ["vocat"]


def test_morph_bundles():
    model = M.MorphBaseline(TRAIN)
    assert model.predict(row("puellam")) == {"Token": "puellam", "UPOS": "NOUN", "Case": "Acc", "Number": "Sing"}
    assert model.predict(row("vocat"))["UPOS"] == "VERB"
    assert model.predict(row("qqq"))["UPOS"] == "NOUN"               # bundle of the majority UPOS
    assert model.predict(row("della", is_range=True)) == {"Token": "della", "UPOS": "_"}
    assert M.EmptyFeaturesFloor(TRAIN).predict(row("amat")) == {"Token": "amat", "UPOS": "NOUN"}


# --------------------------------------------------------------------------- fill the gaps

def test_units_of_masked_lines():
    assert M.word_units("a [MASK]. b", "[MASK]") == ["a", None, ".", "b"]
    assert M.word_units("是[MASK]罪之", "[MASK]", spaceless=True) == ["是", None, "罪", "之"]
    assert M.char_units("ab[_]c", "[_]") == ["a", "b", None, "c"]
    assert M.char_units("丨𠁼[_]", "[_]") == ["丨", "𠁼", None]       # strokes outside the BMP
    assert M.is_spaceless(["東有琅邪", "是則罪之大者"]) and not M.is_spaceless(["a b c", "de f"])


def test_restore_and_gap_golds():
    assert M.restore(["a", None, "c"], ["a", "b", "c"]) == ["a", "b", "c"]
    assert M.restore(["a", None], ["x", "b"]) == ["a", None]
    assert M.gap_golds("Sith do [MASK] doib iar sin [MASK]", "Sith do denamh doib iar sin.", "[MASK]") == \
        ["denamh", "."]
    assert M.gap_golds("[MASK] [MASK] x", "a b x", "[MASK]") is None  # adjacent markers: unknown
    assert M.gap_golds("a [MASK]", "b c", "[MASK]") is None


def test_char_gap_filler_backs_off():
    lines = [list("abcabc"), list("abcx"), list("zbcq")]
    model = M.GapFiller(lines, M.CHAR_CONTEXTS, chars=True)
    assert model.fill(list("a") + [None] + list("cab"))[0][0] == "b"
    assert model.fill([None]) == [["a", "z", "c"]]          # line start, then line end
    assert model.fill(list("ww") + [None] + list("ww")) == [["b", "c", "a"]]   # unseen: unigrams
    assert model.fill(list("abc")) == []


def test_word_gap_filler_uses_both_neighbours():
    lines = [["et", "dixit", "deus"], ["et", "dixit", "dominus"], ["et", "fecit", "deus"],
             ["et", "vidit", "lucem"], ["et", None, "terram"]]
    model = M.WordGapFiller(lines)
    assert model.fill(["et", None, "dominus"])[0][0] == "dixit"
    assert model.fill(["et", None, "lucem"])[0][0] == "vidit"
    out = model.fill([None, None])
    assert len(out) == 2 and all(len(c) == 3 for c in out)


def test_fill_mask_item_one_list_per_marker_and_text():
    task = TASK["fill_mask_word"]
    training = M.fill_mask_training(task, [("a [MASK] c", "a b c"), ("a b c", "a b c")])
    filler = M.train_systems(task, training)["baseline"]
    item = M.fill_mask_item(task, filler, "a [MASK] c [MASK]")
    assert item["masked"] == "a [MASK] c [MASK]" and len(item["masked_tokens"]) == 2
    assert item["masked_tokens"][0][0] == "b" and item["text"].startswith("a b c ")
    empty = M.fill_mask_item(task, None, "[MASK] x [MASK]")
    assert empty == {"masked": "[MASK] x [MASK]", "text": " x ", "masked_tokens": [[], []]}


def test_classical_chinese_strokes_like_any_language():
    task = TASK["fill_mask_char"]
    rows = [("一丨八口一𠂇冂二", "東有"), ("丨㇕二乚冫丶一", "琅邪")]        # src in hanzi: gaps unknown
    lines, spaceless = M.fill_mask_training(task, rows)
    assert lines[0] == list("一丨八口一𠂇冂二")
    filler = M.train_systems(task, (lines, spaceless))["baseline"]
    item = M.fill_mask_item(task, filler, "一丨[_]口")
    assert item["masked_tokens"] == [["八", "㇕", "一"]]      # "丨" is followed by 八 or ㇕
    assert item["text"] == "一丨八口"


def test_predict_without_training_keeps_the_shape():
    sentences = [[row("a"), row("bc", is_range=True)]]
    assert M.predict(TASK["pos_tagging"], None, sentences) == [[["a", ""], ["bc", ""]]]
    assert M.predict(TASK["lemmatisation"], None, sentences) == [[["a", []], ["bc", []]]]
    assert M.predict(TASK["morph_features"], None, sentences) == [[{"Token": "a"}, {"Token": "bc"}]]
    assert M.train_systems(TASK["pos_tagging"], None) is None


def test_training_is_deterministic():
    task = TASK["fill_mask_word"]
    rows = [("x [MASK] z", "x y z"), ("x w z", "x w z"), ("q [MASK]", "q r")] * 3
    first = M.predict(task, M.train_systems(task, M.fill_mask_training(task, rows))["baseline"], ["x [MASK] z"])
    again = M.predict(task, M.train_systems(task, M.fill_mask_training(task, list(rows)))["baseline"], ["x [MASK] z"])
    assert first == again


# --------------------------------------------------------------------------- whole runs

_RUNS = {}


def baseline_run(data_dir, tmp_root, splits="valid,test"):
    """Build the development reference of ``data_dir`` and run ``organiser baselines`` on it, once
    per data folder for the whole test session (the validator tests reuse it). Returns a dict of
    paths (``ref``, ``out``) and the run's duration in seconds."""
    key = (data_dir, splits)
    if key not in _RUNS:
        from competitions.st2024 import baselines, reference
        work = os.path.join(str(tmp_root), "run-%d" % len(_RUNS))
        ref = os.path.join(work, "reference_data")
        assert reference.main(["--data", data_dir, "--out", ref, "--report", os.path.join(work, "dq.md")]) in (0, None)
        start = time.time()
        status = baselines.main(["--data", data_dir, "--reference", ref, "--out", os.path.join(work, "dist"),
                                 "--splits", splits])
        _RUNS[key] = {"status": status, "ref": ref, "out": os.path.join(work, "dist"),
                      "seconds": time.time() - start}
    return _RUNS[key]


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory):
    if not os.path.isdir(os.path.join(SAMPLE, "morphology")):
        pytest.skip("sample_data/ has not been generated")
    return baseline_run(SAMPLE, tmp_path_factory.mktemp("sample"))


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory):
    if not os.path.isdir(SHARED):
        pytest.skip("the ST2024 release is not at %s" % SHARED)
    return baseline_run(SHARED, tmp_path_factory.mktemp("shared"))


def scores_of(run, system, subtask="unconstrained"):
    with open(os.path.join(run["out"], "baselines", "scores-%s-%s-valid.json" % (system, subtask)),
              encoding="utf-8") as handle:
        report = json.load(handle)
    return dict(((e["task"], e["lang"]), e) for e in report["entries"]), report


def trained_pairs(data_dir):
    """(task folder, lang) pairs whose train file exists in ``data_dir``."""
    from competitions.st2024 import baselines
    release = baselines.release
    return set((task.folder, lang) for task in st2024.TASKS for lang in task.languages
               if release.find(data_dir, baselines.release_kind(task), "train", lang))


def check_run_outputs(run):
    assert run["status"] == 0
    for subtask in st2024.SUBTASKS:
        for system in M.SYSTEMS:
            for split in ("valid", "test"):
                path = os.path.join(run["out"], "submissions", "%s-%s-%s.zip" % (system, subtask, split))
                with zipfile.ZipFile(path) as archive:
                    names = archive.namelist()
                assert names and all(n.count("/") == 1 for n in names)       # task folders at the root
                spec = st2024.SUBTASKS[subtask]
                assert all(n.split("/")[0] in spec["tasks"] and n.split("/")[1][:-5] in spec["languages"]
                           for n in names)
    for name in ("table.md", "table.html"):
        assert os.path.isfile(os.path.join(run["out"], "baselines", name))


@needs_sample
def test_sample_run_writes_zips_scores_and_tables(sample_run):
    check_run_outputs(sample_run)
    entries, report = scores_of(sample_run, "baseline")
    assert report["messages"] == []
    floors, _ = scores_of(sample_run, "floor")
    for pair in trained_pairs(SAMPLE):
        if pair in entries:
            assert entries[pair]["score"] >= floors[pair]["score"], pair
    html = open(os.path.join(sample_run["out"], "baselines", "table.html"), encoding="utf-8").read()
    assert html.startswith('<table class="baselines">') and "Classical Chinese (lzh)" in html


@needs_sample
def test_make_submission_reproduces_the_organiser_zips(sample_run, tmp_path):
    for system in M.SYSTEMS:
        for split in ("valid", "test"):
            out = tmp_path / ("%s-%s.zip" % (system, split))
            subprocess.check_call([sys.executable, "-I", os.path.join(ROOT, "starting_kit", "make_submission.py"),
                                   "--data", SAMPLE, "--split", split, "--system", system, "--out", str(out)],
                                  stdout=subprocess.DEVNULL)
            organiser = os.path.join(sample_run["out"], "submissions", "%s-unconstrained-%s.zip" % (system, split))
            assert out.read_bytes() == open(organiser, "rb").read()


def test_table_escapes_html():
    from competitions.st2024 import baselines
    html = baselines.table_html(["<b>POS</b>"], [("Lang & <i>", ["1 / 0"], "x")], ("Mean", ["1"], "1"), "a<b")
    assert "<b>POS</b>" not in html and "&lt;b&gt;POS&lt;/b&gt;" in html and "Lang &amp; &lt;i&gt;" in html
    assert "a&lt;b" in html


@needs_shared
def test_shared_every_baseline_beats_its_floor(shared_run):
    check_run_outputs(shared_run)
    entries, _ = scores_of(shared_run, "baseline")
    floors, _ = scores_of(shared_run, "floor")
    compared = 0
    for pair in sorted(trained_pairs(SHARED)):
        if pair in entries:                       # scored on valid (its input and reference exist)
            assert entries[pair]["status"] == "scored"
            assert entries[pair]["score"] > floors[pair]["score"], pair
            compared += 1
    assert compared >= 20
    constrained, _ = scores_of(shared_run, "baseline", "constrained")
    assert set(t for t, _ in constrained) <= set(st2024.SUBTASKS["constrained"]["tasks"])
    for pair, entry in constrained.items():
        assert entry["score"] == pytest.approx(entries[pair]["score"])
    print("baselines on %s: %.1f s" % (SHARED, shared_run["seconds"]))
