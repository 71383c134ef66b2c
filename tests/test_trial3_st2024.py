"""Issue 24, the hidden trial's third round on ST2024: mistakes of its classes that still slipped through, each
generated, with its message (quoted), its position and the unchanged score (the check switched off gives the same
scores).

1. candidates ranked best last (a list reversed, scores sorted the wrong way): the first candidate right less than
   half as often as a random one of the first 3 would be; said where the gold is public, from the scores already
   computed;
2. ``""`` as the first candidate (padding put in front, a space stripped from a character gap): one warning per
   file with its count and first positions;
4. an expected file submitted under a misnamed name or folder (``la.json``, ``lat.json.bz2``, ``pos/``), and a
   submission with no expected file at all: the validator counts them as files that will score 0 and exits 1 (a
   file simply left out is still a subset: exit 0);
3. a did-you-mean for a short form of one task folder (``pos/`` -> ``pos_tagging/``).
"""
import io
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from evalkit import floor, inventory, layout, scoring, verdict
from test_message_classes import SETTINGS, V, as_prediction, submission, write_release
from test_warning_classes import fill_mask_release, of_file, write_json

LAT_LEMMA = "lemmatisation/lat.json"
LAT_POS = "pos_tagging/lat.json"
token = st.fixed_dictionaries({"upos": st.sampled_from(["NOUN", "VERB", "ADJ"]),
                               "lemma": st.text("abcdef", min_size=1, max_size=5), "feats": st.just({})})
#: At least :data:`evalkit.floor.MIN_RANKED_ITEMS` tokens.
many = st.lists(st.lists(token, min_size=4, max_size=8), min_size=5, max_size=8)


def _public(ref):
    """Make the phase's gold public (its floor file and phase.json), as the development reference is."""
    write_json(os.path.join(ref, floor.FILE_NAME), {"label": "floor", "files": {"lemmatisation/lat": 0.0}})
    write_json(os.path.join(ref, "phase.json"), {"phase": "dev", "gold": "public"})


def _same_scores_without(monkeypatch, module, check, root, sub, report, off=None):
    """The scores of ``sub`` with ``module.check`` switched off (returning ``off``) are ``report``'s: the warning
    changes no number. Returns the messages of ``report`` that the check alone gave."""
    with monkeypatch.context() as patch:
        patch.setattr(module, check, lambda *args, **kwargs: off)
        quiet = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    assert quiet["scores"] == report["scores"]
    return [m for m in report["messages"] if m not in quiet["messages"]]


def _entry(report, name):
    return [e for e in report["entries"] if e["file"] == name][0]


# --------------------------------------------------------------------------- 1. best last

@settings(**SETTINGS)
@given(sents=many, share=st.sampled_from([0.0, 0.2, 0.5, 1.0]), hits=st.sampled_from([0, 1, 2]))
def test_candidates_ranked_best_last_get_one_warning_where_the_gold_is_public(tmp_path_factory, monkeypatch, sents,
                                                                                share, hits):
    """The first ``share`` of the tokens get their lemma last (``["x", "y", lemma]``); ``hits`` tokens after them
    keep it first: a warning exactly when top-3 is above 2 x 3 times top-1 over the file's items."""
    root = str(tmp_path_factory.mktemp("ranks"))
    refs = write_release(root, sents)
    ref = os.path.join(root, "ref")
    pred = as_prediction(refs)
    items = sum(map(len, sents))
    last = int(share * items)
    flat = [tok for sent in pred[LAT_LEMMA] for tok in sent]
    for k, tok in enumerate(flat):
        if k < last:
            tok[1] = ["x0", "y0", tok[1][0]]
        elif k >= last + hits:
            tok[1] = ["x0"]   # wrong at every rank
    sub = submission(root, pred)
    hidden = scoring.evaluate(st2024, ref, sub)
    _public(ref)
    report = scoring.evaluate(st2024, ref, sub)
    micro = _entry(report, LAT_LEMMA)["micro"]
    said = of_file(report["messages"], LAT_LEMMA, "the first candidate is right less than half as often")
    expected = micro["acc3"] >= floor.MIN_RANKED_SHARE and micro["acc3"] > floor.RANKED_MARGIN * 3 * micro["acc1"]
    assert len(said) == (1 if expected else 0), (micro, report["messages"])
    if said:
        assert said[0]["severity"] == "warning" and said[0]["where"] == "whole file"
        assert said[0]["text"] == (
            "acc1 %.4f but acc3 %.4f: the first candidate is right less than half as often as a random one of the "
            "first 3 would be. The candidates are probably ranked best last (a list reversed, or sorted by a score where "
            "lower is better) or padded in front (\"\" first); write each list best first." % (
                micro["acc1"], micro["acc3"]))
        # the kit's validator scores the valid split against the gold it ships and says the same
        checked, _, _, _ = V.check(sub, os.path.join(root, "data"), "valid", gold=ref)
        assert [m["text"] for m in of_file(checked["messages"], LAT_LEMMA, "half as often")] == [said[0]["text"]]
    assert not of_file(hidden["messages"], LAT_LEMMA, "half as often")   # hidden gold: never a word on it
    assert hidden["scores"] == report["scores"]
    assert _same_scores_without(monkeypatch, floor, "inverted_ranks", root, sub, report, []) == said


def test_a_small_file_or_a_chance_ranking_is_not_said_to_be_reversed():
    entry = {"task": "lemmatisation", "lang": "lat", "file": LAT_LEMMA, "status": "scored", "items": 19,
             "micro": {"acc1": 0.0, "acc3": 1.0}}
    tasks = dict((task.folder, task) for task in st2024.TASKS)
    assert floor.inverted_ranks([entry], tasks, scoring.KINDS) == []   # too few items to tell
    entry.update(items=20)
    assert len(floor.inverted_ranks([entry], tasks, scoring.KINDS)) == 1
    entry.update(micro={"acc1": 0.1, "acc3": 0.3})   # a random order of 3 candidates: no more than 3 times
    assert floor.inverted_ranks([entry], tasks, scoring.KINDS) == []
    entry.update(micro={"acc1": 0.0183, "acc3": 0.0669})   # the same 3 units for every gap (a floor): 3.7 times
    assert floor.inverted_ranks([entry], tasks, scoring.KINDS) == []
    entry.update(micro={"acc1": 0.05, "acc3": 0.7})   # a top-3 written best last: 14 times
    assert len(floor.inverted_ranks([entry], tasks, scoring.KINDS)) == 1
    entry.update(task="pos_tagging", micro={"acc": 0.0, "f1": 1.0})   # a kind without ranked candidates
    assert floor.inverted_ranks([entry], tasks, scoring.KINDS) == []


# --------------------------------------------------------------------------- 2. "" first

@settings(**SETTINGS)
@given(sents=many, emptied=st.integers(0, 12))
def test_an_empty_first_candidate_gets_one_warning(tmp_path_factory, monkeypatch, sents, emptied):
    """The first ``emptied`` lemma lists get ``""`` in front (padding put first): one warning from
    :data:`evalkit.inventory.EMPTY_FIRST_SHARE` of the items on, naming the count and the first position."""
    root = str(tmp_path_factory.mktemp("empty"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    items = sum(map(len, sents))
    flat = [tok for sent in pred[LAT_LEMMA] for tok in sent]
    for tok in flat[:emptied]:
        tok[1] = [""] + tok[1]
    for tok in flat[emptied:]:
        tok[1] = tok[1] + [""]   # padding where it belongs: never said
    sub = submission(root, pred)
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    said = of_file(report["messages"], LAT_LEMMA, "as their first candidate")
    expected = emptied >= inventory.EMPTY_FIRST_SHARE * items
    assert len(said) == (1 if expected else 0), report["messages"]
    if said:
        assert said[0]["severity"] == "warning" and said[0]["where"] == "sentence 1, token 1 ($[0][0][1])"
        assert said[0]["text"].startswith("%d of %d items have \"\" as their first candidate; first at sentence 1, "
                                          "token 1 ($[0][0][1])" % (emptied, items)), said[0]["text"]
        assert "\"\" never matches, so the first rank is lost on each: write each list best first, with \"\" " \
               "(padding, not needed) last or left out." in said[0]["text"]
        assert "hide a space" not in said[0]["text"]   # lemmas are no character gaps
    assert _same_scores_without(monkeypatch, inventory, "check_empty_first", root, sub, report) == said


@settings(**SETTINGS)
@given(words=st.lists(st.text("abc", min_size=3, max_size=8), min_size=3, max_size=8))
def test_a_space_stripped_from_a_character_gap_is_said(tmp_path_factory, monkeypatch, words):
    """Every gap hides a space, a system's candidates ``.strip()``-ed: ``""`` first, with the space hint."""
    root = str(tmp_path_factory.mktemp("space"))
    gaps = [[" "] * 2 for _ in words]
    task, value = fill_mask_release(root, gaps, char=True)
    pred = [dict(sent, masked_tokens=[[c.strip(), "e"] for c in sent["masked_tokens"]]) for sent in value]
    name = "%s/lat.json" % task
    sub = submission(root, {name: pred})
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    said = of_file(report["messages"], name, "as their first candidate")
    assert len(said) == 1 and said[0]["where"] == 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
    assert said[0]["text"].startswith("%d of %d gaps have" % (2 * len(words), 2 * len(words))) or \
        said[0]["text"].startswith("%d of %d items have" % (2 * len(words), 2 * len(words))), said[0]["text"]
    assert said[0]["text"].endswith("A gap of this task may hide a space: keep \" \" as it is (a candidate is not "
                                    "stripped).")
    assert _entry(report, name)["score"] == 0.0
    assert _same_scores_without(monkeypatch, inventory, "check_empty_first", root, sub, report) == said


# --------------------------------------------------------------------------- 4. misnamed files score 0

@pytest.mark.parametrize("mistake", ["la.json", "lat.json.bz2", "lat.txt", "pos/", "subset"])
def test_a_misnamed_file_or_folder_counts_as_a_file_that_will_score_0(tmp_path, capsys, mistake):
    root = str(tmp_path)
    refs = write_release(root, [[{"upos": "NOUN", "lemma": "a", "feats": {}}] * 3] * 2)
    pred = as_prediction(refs)
    value = pred.pop(LAT_POS)
    subset = scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, dict(pred), "subset"))
    if mistake == "pos/":
        pred["pos/lat.json"] = value
    elif mistake != "subset":
        pred["pos_tagging/" + mistake] = json.dumps(value)
    sub = submission(root, pred)
    report, _, _, _ = V.check(sub, os.path.join(root, "data"), "valid")
    status, summary = verdict.conclude(report)
    capsys.readouterr()
    assert V.main([sub, "--data", os.path.join(root, "data"), "--split", "valid"]) == status
    printed = capsys.readouterr().out
    if mistake == "subset":   # a file left out on purpose: a subset, still exit 0
        assert status == verdict.OK and "0 files will score 0" in summary
        assert any("not submitted" in m["text"] and LAT_POS in m["text"] for m in report["messages"])
    else:
        assert status == verdict.FAILED, summary
        assert "1 file will score 0 (%s)" % LAT_POS in summary and "fix it before uploading" in summary
        texts = " ".join(m["text"] for m in report["messages"])
        assert ("Did you mean %s?" % ("pos_tagging/" if mistake == "pos/" else LAT_POS)) in texts
        assert summary in printed
        assert verdict.misnamed_files(report) == {LAT_POS: "pos/" if mistake == "pos/" else "pos_tagging/" + mistake}
    scored = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    assert _entry(scored, LAT_POS)["status"] == "missing" and _entry(scored, LAT_POS)["score"] == 0
    assert scored["scores"] == subset["scores"]   # the verdict changes no number: scored as the file left out


def test_a_submission_without_any_expected_file_says_every_file_will_score_0(tmp_path, capsys):
    root = str(tmp_path)
    refs = write_release(root, [[{"upos": "NOUN", "lemma": "a", "feats": {}}] * 3] * 2)
    flat = dict((path.replace("/", "_"), value) for path, value in as_prediction(refs).items())
    sub = submission(root, flat)
    capsys.readouterr()
    assert V.main([sub, "--data", os.path.join(root, "data"), "--split", "valid"]) == verdict.FAILED
    last = capsys.readouterr().out.strip().splitlines()[-1]
    expected = len(refs)   # the three CoNLL-U tasks of lat: every one will score 0
    assert "0 of %d expected files found" % expected in last
    assert "1 error, 0 warnings, %d files will score 0 (" % expected in last, last


def test_a_short_form_of_one_task_folder_gets_a_did_you_mean():
    folders = [task.folder for task in st2024.TASKS]
    assert layout._suggest("pos", folders) == "pos_tagging"
    assert layout._suggest("morph", folders) == "morph_features"
    assert layout._suggest("lemma", folders) == "lemmatisation"
    assert layout._suggest("fill", folders) == ""     # two folders begin so: no guess
    assert layout._suggest("po", folders) == ""       # too short to tell


@pytest.mark.parametrize("wrap", ["out/predictions/", "a/b/c/"])
def test_task_folders_wrapped_twice_are_named_as_such(tmp_path, wrap):
    """One wrapping folder is forgiven; deeper, nothing is scored and the message names the folders that wrap the
    task folders (before: "unexpected folder" for the top one, which pointed elsewhere)."""
    root = str(tmp_path)
    refs = write_release(root, [[{"upos": "NOUN", "lemma": "a", "feats": {}}] * 3] * 2)
    pred = as_prediction(refs)
    sub = submission(root, dict((wrap + path, value) for path, value in pred.items()))
    with pytest.raises(layout.NothingToScore) as caught:
        scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    depth = wrap.count("/")
    assert str(caught.value).startswith(
        "no expected file was found in the submission: the task folders are inside %s, %d folders deep; they must "
        "be at the root of the zip (one wrapping folder is forgiven, not %d). Zip the task folders themselves: "
        "cd %s && zip -r ../submission.zip ." % (wrap, depth, depth, wrap)), str(caught.value)
    once = submission(root, dict(("x/" + path, value) for path, value in pred.items()), "once")
    assert scoring.evaluate(st2024, os.path.join(root, "ref"), once)["scores"] == \
        scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, pred, "flat"))["scores"]
