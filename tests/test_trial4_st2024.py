"""Issue 24, the hidden trial's fourth round on ST2024: ranks lost without a word before, each generated, with its
message (quoted), its position and the unchanged score (the check switched off gives the same scores).

1. the same candidate twice in one list (``["et", "et", "in"]``): a rank lost, said from
   :data:`evalkit.inventory.REPEAT_SHARE` of the items on (a fixed padding that meets its gold now and then is not);
2. first candidates in capitals or capitalised (``"ET"``, ``"Et"``): said from
   :data:`evalkit.inventory.CAPITAL_SHARE` of the cased first candidates on (a name's capital is not);
3. a space written ``"_"`` (or another spelling) in character gaps, more often first than ``" "`` itself;
4. ``[""]`` alone where a character gap's answer is a space (a single-candidate list ``.strip()``-ed), no
   candidate of the file being ``" "``.
"""
import json
import os
import shutil
import zipfile

from hypothesis import given, settings, strategies as st

import st2024
from evalkit import inventory, scoring
from test_participant_messages import SAMPLE, kit, needs_sample
from test_message_classes import SETTINGS, as_prediction, submission, write_release
from test_trial3_st2024 import LAT_LEMMA, _same_scores_without, many
from test_warning_classes import fill_mask_release, of_file

words = st.lists(st.text("abcdef", min_size=2, max_size=6), min_size=20, max_size=40)


def _fill_mask(tmp_path_factory, golds, char, cands):
    """A one-file fill-mask phase (one gap per sentence, gold ``golds``) and a submission whose lists are
    ``cands(k, gold)``: ``(root, file name, submission, report)``."""
    root = str(tmp_path_factory.mktemp("r4"))
    task, value = fill_mask_release(root, [[gold] for gold in golds], char=char)
    pred = [dict(sent, masked_tokens=[cands(k, sent["masked_tokens"][0])]) for k, sent in enumerate(value)]
    name = "%s/lat.json" % task
    sub = submission(root, {name: pred})
    return root, name, sub, scoring.evaluate(st2024, os.path.join(root, "ref"), sub)


def _first(said):
    assert len(said) == 1, said
    return said[0]


def _said_at_the_first_space(report, name, chars, needle):
    """``(message, spaces)``: the one message of file ``name`` holding ``needle``, at the first gap whose gold (in
    ``chars``) is a space, or None (asserted absent) when the spaces are fewer than EMPTY_FIRST_SHARE of the gaps;
    ``spaces`` the indices of those gaps."""
    said = of_file(report["messages"], name, needle)
    spaces = [k for k, c in enumerate(chars) if c == " "]
    if len(spaces) < inventory.EMPTY_FIRST_SHARE * len(chars):
        assert not said
        return None, spaces
    message = _first(said)
    assert message["where"] == 'sentence %d, mask 1 ($[%d]["masked_tokens"][0])' % (spaces[0] + 1, spaces[0])
    return message, spaces


# --------------------------------------------------------------------------- 1. a candidate repeated

@settings(**SETTINGS)
@given(golds=words, repeated=st.integers(0, 40))
def test_a_candidate_repeated_in_one_list_is_said(tmp_path_factory, monkeypatch, golds, repeated):
    """The first ``repeated`` gaps get ``["zz", "zz", gold]`` (a repeat pushing the gold out of a rank), the others
    ``[gold, "zy"]``: one warning exactly from REPEAT_SHARE of the gaps on, its count, first position and examples."""
    repeated = min(repeated, len(golds))
    root, name, sub, report = _fill_mask(tmp_path_factory, golds, False, lambda k, gold: (
        ["zz", "zz", gold] if k < repeated else [gold, "zy"]))
    said = of_file(report["messages"], name, "give the same candidate twice in one list")
    if repeated < inventory.REPEAT_SHARE * len(golds):
        assert not said
        return
    message = _first(said)
    assert message["severity"] == "warning" and message["where"] == 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
    assert message["text"].startswith("%d of %d items give the same candidate twice in one list: 'zz' (%d time"
                                      % (repeated, len(golds), repeated)), message["text"]
    assert "Only the first candidates count, so a repeat takes the place of another guess" in message["text"]
    assert _same_scores_without(monkeypatch, inventory, "check_repeated_candidates", root, sub, report) == said


def test_repeated_empty_padding_or_a_few_repeats_are_not_said(tmp_path_factory):
    """``["a", "", ""]`` (padding) and a fixed padding meeting its gold in one gap of 30 are no warning."""
    golds = ["w%02d" % k for k in range(30)]
    for cands in (lambda k, gold: [gold, "", ""], lambda k, gold: [gold, "w00", "b"]):
        _, name, _, report = _fill_mask(tmp_path_factory, golds, False, cands)
        assert not of_file(report["messages"], name, "twice in one list"), report["messages"]


# --------------------------------------------------------------------------- 2. capitals

@settings(**SETTINGS)
@given(sents=many, change=st.sampled_from([str.upper, str.capitalize]), share=st.sampled_from([0.0, 0.3, 0.6, 1.0]))
def test_lemmas_in_capitals_are_said(tmp_path_factory, monkeypatch, sents, change, share):
    """The first ``share`` of the lemma lists upper-cased or capitalised: one warning from CAPITAL_SHARE of the
    cased first candidates on (with at least MIN_CASED of them), the score unchanged by it."""
    root = str(tmp_path_factory.mktemp("caps"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    flat = [tok for sent in pred[LAT_LEMMA] for tok in sent]
    changed = int(share * len(flat))
    for tok in flat[:changed]:
        tok[1] = [change(c) for c in tok[1]]
    sub = submission(root, pred)
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    said = of_file(report["messages"], LAT_LEMMA, "first candidates with a cased letter begin with a capital")
    if len(flat) < inventory.MIN_CASED or changed < inventory.CAPITAL_SHARE * len(flat):
        assert not said
        return
    message = _first(said)
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert message["text"].startswith("%d of the %d first candidates with a cased letter begin with a capital ("
                                      % (changed, len(flat))), message["text"]
    assert "candidates are compared as they are, case included: keep the text's own case" in message["text"]
    assert _same_scores_without(monkeypatch, inventory, "check_capitals", root, sub, report) == said


def test_capitals_of_names_are_not_said(tmp_path_factory):
    """A third of the words capitalised in the gold itself (names, a sentence's first word) and predicted as they
    are: no warning."""
    golds = [("Roma" if k % 3 == 0 else "et") + "abc"[k % 3] for k in range(40)]
    _, name, _, report = _fill_mask(tmp_path_factory, golds, False, lambda k, gold: [gold])
    assert not of_file(report["messages"], name, "begin with a capital"), report["messages"]


# --------------------------------------------------------------------------- 3. a space spelled "_"

@settings(**SETTINGS)
@given(chars=st.lists(st.sampled_from("ab "), min_size=20, max_size=60),
       spelling=st.sampled_from(inventory.SPACE_SPELLINGS[:4]))
def test_a_space_written_another_way_in_character_gaps_is_said(tmp_path_factory, monkeypatch, chars, spelling):
    """Every gap hiding a space gets ``[spelling]``: one warning when they reach EMPTY_FIRST_SHARE of the gaps (and
    outnumber the spaces written, none here), with the count, the first position and the fix."""
    root, name, sub, report = _fill_mask(tmp_path_factory, chars, True, lambda k, gold: [
        spelling if gold == " " else gold])
    message, spaces = _said_at_the_first_space(report, name, chars, "as their first candidate, and only 0 have \" \"")
    if message is None:
        return
    assert message["text"].startswith("%d of %d gaps have %s as their first candidate" % (
        len(spaces), len(chars), inventory._quoted(spelling))), message["text"]
    assert message["text"].endswith("never matches it, so those ranks are lost: write \" \" for a space.")
    assert _same_scores_without(monkeypatch, inventory, "check_space_spellings", root, sub, report) == [message]


def test_a_gold_underscore_predicted_as_it_is_is_not_said(tmp_path_factory):
    """A character file whose gold holds ``_`` now and then (Old Hungarian's does) and more spaces: no warning."""
    chars = list("a_ b c d e f g_h i j k l m n ")
    _, name, _, report = _fill_mask(tmp_path_factory, chars, True, lambda k, gold: [gold])
    assert not of_file(report["messages"], name, "as their first candidate"), report["messages"]


# --------------------------------------------------------------------------- 4. [""] alone for a space

@settings(**SETTINGS)
@given(chars=st.lists(st.sampled_from("ab "), min_size=20, max_size=60))
def test_a_lone_empty_candidate_for_a_space_is_said(tmp_path_factory, monkeypatch, chars):
    """Single-candidate lists ``.strip()``-ed: every space becomes ``[""]``; one warning from EMPTY_FIRST_SHARE of
    the gaps on."""
    root, name, sub, report = _fill_mask(tmp_path_factory, chars, True, lambda k, gold: [gold.strip()])
    message, spaces = _said_at_the_first_space(report, name, chars, "as their only candidate, and no candidate of "
                                               "the file is")
    if message is None:
        return
    assert message["text"].startswith("%d of %d gaps have \"\" as their only candidate" % (len(spaces), len(chars)))
    assert "a candidate stripped (.strip()) leaves \"\", which never matches: keep \" \" as it is." in message["text"]
    assert _same_scores_without(monkeypatch, inventory, "check_empty_first", root, sub, report) == [message]


def test_a_lone_empty_candidate_beside_real_spaces_or_in_word_gaps_is_not_said(tmp_path_factory):
    """``[""]`` alone is no answer where the file writes spaces elsewhere, or where the gaps hide words."""
    chars = list("a b c d e f g h i j ")
    _, name, _, report = _fill_mask(tmp_path_factory, chars, True, lambda k, gold: [""] if k % 4 == 1 else [gold])
    assert not of_file(report["messages"], name, "only candidate"), report["messages"]
    _, name, _, report = _fill_mask(tmp_path_factory, ["w%d" % k for k in range(20)], False,
                                    lambda k, gold: [""] if k % 2 else [gold])
    assert not of_file(report["messages"], name, "only candidate"), report["messages"]


# --------------------------------------------------------------------------- 5. a candidate's text changed on its way

FORMS = {
    "quoted": (lambda w: '"%s"' % w, "written with its quotes",
               "write the strings themselves (json.dump the whole list, not str(), repr() or json.dumps of each "
               "candidate)."),
    "escaped": (lambda w: "".join("\\u%04x" % ord(c) for c in w), "holding escape sequences",
                "the text was escaped twice (json.dumps of each string, then the file); write the characters "
                "themselves."),
    "garbled": (lambda w: w.encode("utf-8").decode("latin-1"), "that looks like UTF-8 read as Latin-1",
                "read and write every file with encoding=\"utf-8\"."),
    "punctuation": (lambda w: w + ",", "with punctuation attached", "strip it from your candidates."),
}
accented = st.lists(st.text("\u00e9\u00e8abc\u03b1\u03b2", min_size=2, max_size=6).filter(
    lambda w: not w.isascii()), min_size=20, max_size=40, unique=True)


@settings(**SETTINGS)
@given(golds=accented, form=st.sampled_from(sorted(FORMS)), share=st.sampled_from([0.0, 0.04, 0.6, 1.0]))
def test_a_candidate_text_changed_on_its_way_is_said(tmp_path_factory, monkeypatch, golds, form, share):
    """The first ``share`` of the gaps get their gold changed (quoted, escaped, mojibake, a comma attached), the
    others their gold: one warning of the class from its share (FORM_SHARES) on, with count, position and fix."""
    change, what, fix = FORMS[form]
    changed = int(share * len(golds))
    root, name, sub, report = _fill_mask(tmp_path_factory, golds, False, lambda k, gold: [
        change(gold) if k < changed else gold])
    said = of_file(report["messages"], name, "have a first candidate")
    if changed < inventory.FORM_SHARES[form] * len(golds):
        assert not said
        return
    message = _first(said)
    assert message["where"] == 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
    assert message["text"].startswith("%d of %d items have a first candidate %s" % (changed, len(golds), what)), \
        message["text"]
    assert message["text"].endswith(fix), message["text"]
    assert not of_file(report["messages"], name, "begin with a capital")   # (mojibake's capitals are no cause)
    assert _same_scores_without(monkeypatch, inventory, "check_candidate_forms", root, sub, report,
                                off=()) == said


def test_a_language_s_own_punctuated_words_are_not_said(tmp_path_factory):
    """Old Irish's ``.i.`` predicted for every gap (the kit's floor on the real data) and a few ``S'``: no warning."""
    golds = ["w%02d" % k for k in range(30)]
    for cands in (lambda k, gold: [".i."], lambda k, gold: ["S'" if k % 5 == 0 else gold]):
        _, name, _, report = _fill_mask(tmp_path_factory, golds, False, cands)
        assert not of_file(report["messages"], name, "punctuation attached"), report["messages"]


def test_a_model_s_output_objects_and_scores_are_named(tmp_path_factory):
    """A fill-mask pipeline's objects, candidates beside their scores, and ``{candidate: score}`` for a lemma list:
    the message says what they are and what to give instead."""
    golds = ["w%02d" % k for k in range(20)]
    for cands, needle in (
            (lambda k, gold: [{"token_str": gold, "score": 0.9}], "(an object such as a model's output, "
             "{\"token_str\": 'w00', ...}: give its \"token_str\" string alone, the list best first)"),
            (lambda k, gold: [[gold, 0.9]], "(a candidate beside its score, 'w00': give the string alone, the list "
             "sorted best first)")):
        _, name, _, report = _fill_mask(tmp_path_factory, golds, False, cands)
        said = of_file(report["messages"], name, "expected a string; it never matches")
        assert len(said) == 1 and needle in said[0]["text"], said
        assert said[0]["where"] == 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
    root = str(tmp_path_factory.mktemp("dict"))
    refs = write_release(root, [[{"upos": "NOUN", "lemma": "ab", "feats": {}}] * 4] * 5)
    pred = as_prediction(refs)
    for sent in pred[LAT_LEMMA]:
        for tok in sent:
            tok[1] = {"ab": 0.2, "ba": 0.7}
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, pred))
    said = of_file(report["messages"], LAT_LEMMA, "candidates mapped to their scores")
    assert len(said) == 1 and "give a list of the candidates sorted best first, such as ['ba', 'ab']" in \
        said[0]["text"], report["messages"]


# --------------------------------------------------------------------------- 6. a floor without a train file

@needs_sample
def test_the_floor_of_a_language_without_a_train_file_is_read_from_its_input(tmp_path):
    """``--system floor`` with no train file writes predictions from the input alone (the development floor is no
    0.0 that never fires) and says so on the file's line; the baseline still writes the empty shape."""
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, str(data))
    os.remove(str(data / "morphology" / "train" / "lat_train.conllu"))
    os.remove(str(data / "fill_mask_word" / "train" / "lat_train.tsv"))
    status, output = kit("make_submission.py", "--data", data, "--split", "valid", "--system", "floor",
                         "--out", tmp_path / "floor.zip")
    assert status == 0, output
    lines = dict(line.split(": ", 1) for line in output.splitlines() if line.split(": ")[0].count("/") == 1)
    assert lines["pos_tagging/lat"].endswith("no train file (morphology/train/lat_train.conllu): the floor is read "
                                             "from the input alone (NOUN for every row)"), lines["pos_tagging/lat"]
    assert lines["lemmatisation/lat"].endswith("(the form as its lemma)")
    assert lines["fill_mask_word/lat"].endswith("(the three most frequent units of the input's text for every gap)")
    with zipfile.ZipFile(str(tmp_path / "floor.zip")) as archive:
        pos = json.loads(archive.read("pos_tagging/lat.json").decode("utf-8"))
        lemmas = json.loads(archive.read("lemmatisation/lat.json").decode("utf-8"))
        gaps = json.loads(archive.read("fill_mask_word/lat.json").decode("utf-8"))
    assert set(tag for sent in pos for _, tag in sent) == {"NOUN"}
    assert all(cands == [form] for sent in lemmas for form, cands in sent)
    filled = [cands for sent in gaps for cands in sent["masked_tokens"]]
    assert filled and all(len(cands) == 3 for cands in filled)
    status, output = kit("make_submission.py", "--data", data, "--split", "valid", "--out", tmp_path / "base.zip")
    assert status == 0 and "NO MODEL" in output
