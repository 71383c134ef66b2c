"""Issue 33, the hidden trial's fifth round on ST2024: files as real tools write them, each class generated, with
its message (quoted), its position and the unchanged score (the check switched off gives the same scores).

1. text changed on the way: candidates that lost their accents or other marks (said where the gold is public,
   with the score as written and with the marks kept; NFD alone is no mistake), forms and masked lines that lost
   them, lone UTF-16 surrogates (not text);
2. another convention of the same scheme: UD v1's CONJ (did you mean CCONJ, and where the language's training data
   is not known, from the gold), the reverse for a treebank that keeps UD v1's (Old Hungarian), UD v1's feature
   names, lemmas with sense numbers (``venio1``), features written as a list;
7. words that promise too much: a file the development gold prices as losing most of its score makes the
   validator exit 1; a subset of the files is never "ready to upload";
8. the kit README explains the test phase (a public part, the final ranking on the private rest) and the hints of
   label ids and one row per subword piece are given.
"""
import io
import json
import os
import re
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from conftest import ROOT, SHARED, needs_shared
from evalkit import inventory, kinds, mended, messages, scoring, verdict
from test_message_classes import SETTINGS, V, submission
from test_trial3_st2024 import _same_scores_without
from test_warning_classes import of_file, write_json

LAT_LEMMA, LAT_POS, LAT_MORPH = "lemmatisation/lat.json", "pos_tagging/lat.json", "morph_features/lat.json"
PUBLIC = {"gold": "public", "phase": "dev"}


def strip(text):
    """``text`` without its combining marks (NFD, marks dropped, NFC): what a normalisation step leaves."""
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", text)
                                                if not unicodedata.combining(c)))


def _entry(report, name):
    return [e for e in report["entries"] if e["file"] == name][0]


def _one(said):
    assert len(said) == 1, said
    return said[0]


def _price(report, name, what, mended_score):
    """The price sentence a message of file ``name`` ends with (the file's score as written, and mended)."""
    return mended.price_text(_entry(report, name)["score"], mended_score, what)


def _release(root, sents, train=None, public=True):
    """A release of ``lat`` (its valid CoNLL-U; ``train``: the training file's text, or none) and the phase's
    reference (POS, morphology, lemmas) in ``root/ref``, its gold public or not. ``sents``: per sentence its tokens
    ``(form, upos, lemma, feats)``, feats a dict."""
    refs = {"pos_tagging": [], "morph_features": [], "lemmatisation": []}
    conllu = []
    for sent in sents:
        rows = []
        for ti, (form, upos, lemma, feats) in enumerate(sent):
            rows.append("%d\t%s\t%s\t%s\t_\t%s\t0\tdep\t_\t_" % (
                ti + 1, form, lemma, upos, "|".join("%s=%s" % kv for kv in sorted(feats.items())) or "_"))
        refs["pos_tagging"].append([[form, upos] for form, upos, _, _ in sent])
        refs["morph_features"].append([dict({"Token": form, "UPOS": upos}, **feats) for form, upos, _, feats in sent])
        refs["lemmatisation"].append([[form, lemma] for form, _, lemma, _ in sent])
        conllu.append("\n".join(rows) + "\n")
    for split, text in (("valid", "\n".join(conllu) + "\n"), ("train", train)):
        if text:
            path = os.path.join(root, "data", "morphology", split, "lat_%s.conllu" % split)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with io.open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    for folder, value in refs.items():
        write_json(os.path.join(root, "ref", folder, "lat.json"), value)
    if train:
        pairs = [(task, "lat") for task in st2024.TASKS if task.folder in refs]
        V.write_inventory(os.path.join(root, "data"), pairs, os.path.join(root, "ref"), inventory)
    write_json(os.path.join(root, "ref", "phase.json"), PUBLIC if public else dict(PUBLIC, gold="hidden"))
    write_json(os.path.join(root, "ref", "floor_scores.json"), {"label": "floor", "files": {}})
    return refs


def _evaluate(root, files):
    sub = submission(root, files)
    return sub, scoring.evaluate(st2024, os.path.join(root, "ref"), sub)


# --------------------------------------------------------------------------- 1. text changed on the way

MARKS = ("\u0301", "\u0300", "\u0313\u0301", "\u0342", "\u0304")
#: Accented words: a few letters, a mark after the first (or none).
accented = st.tuples(st.text("aeiouklmnprst", min_size=2, max_size=6), st.sampled_from(("",) + MARKS)).map(
    lambda pair: unicodedata.normalize("NFC", pair[0][:1] + pair[1] + pair[0][1:]))
gap_words = st.lists(accented, min_size=20, max_size=40)


def _fill_mask(root, golds, char=False):
    """A phase reference of one fill-mask file, one gap a sentence, whose masked line holds the text's words (its
    gold among them, marks and all); its gold public."""
    task = "fill_mask_char" if char else "fill_mask_word"
    marker = "[_]" if char else "[MASK]"
    value = [{"masked": "%s %s" % (gold, marker), "text": "", "masked_tokens": [gold]} for gold in golds]
    write_json(os.path.join(root, "ref", task, "lat.json"), value)
    write_json(os.path.join(root, "ref", "phase.json"), PUBLIC)
    return "%s/lat.json" % task, value


@settings(**SETTINGS)
@given(golds=gap_words, mode=st.sampled_from(["stripped", "nfd", "hidden"]), lemmas=st.booleans())
def test_candidates_that_lost_their_marks_are_said_where_the_gold_is_public(tmp_path_factory, monkeypatch, golds,
                                                                             mode, lemmas):
    """Every candidate whose gold carries a mark is written without it (or in NFD): where the gold is public, one
    warning from MIN_STRIPPED items and MIN_STRIPPED_DISTINCT distinct candidates on, at the first such item, with
    the score as written and with the marks kept (every item right); NFD is no mistake; a hidden gold says
    nothing. Lemmas and gaps alike."""
    root = str(tmp_path_factory.mktemp("marks"))
    change = (lambda gold: unicodedata.normalize("NFD", gold)) if mode == "nfd" else strip
    if lemmas:
        _release(root, [[(gold, "NOUN", gold, {}) for gold in golds]], public=mode != "hidden")
        name = LAT_LEMMA
        files = {name: [[[gold, [change(gold), "zz"]] for gold in golds]]}
        where = lambda k: "sentence 1, token %d ($[0][%d][1])" % (k + 1, k)
    else:
        name, value = _fill_mask(root, golds)
        if mode == "hidden":
            write_json(os.path.join(root, "ref", "phase.json"), dict(PUBLIC, gold="hidden"))
        files = {name: [dict(sent, masked_tokens=[[change(sent["masked_tokens"][0]), "zz"]]) for sent in value]}
        where = lambda k: 'sentence %d, mask 1 ($[%d]["masked_tokens"][0])' % (k + 1, k)
    sub, report = _evaluate(root, files)
    said = of_file(report["messages"], name, "have as their first candidate the gold without them")
    marked = [k for k, gold in enumerate(golds) if strip(gold) != gold]
    if mode != "stripped" or len(marked) < mended.MIN_STRIPPED or \
            len(set(strip(golds[k]) for k in marked)) < mended.MIN_STRIPPED_DISTINCT:
        assert not said, said
        if mode == "nfd":   # canonically equivalent: every item right
            assert _entry(report, name)["score"] == 1.0
        return
    message = _one(said)
    assert message["severity"] == "warning" and message["where"] == where(marked[0])
    assert message["text"].startswith("%d of the %d items whose gold has accents, other marks or letters such as "
                                      "\u00fe and \u00e6 have as their first candidate the gold without them, and 0 "
                                      "the gold itself: " % (len(marked), len(marked))), message["text"]
    assert "The text lost its marks on the way (a normalisation that strips them" in message["text"]
    assert message["text"].endswith(_price(report, name, "with the marks kept", 1.0)), message["text"]
    assert (messages.LOSS_NOTE in message["text"]) == (_entry(report, name)["score"] < 0.5)
    assert _same_scores_without(monkeypatch, mended, "stripped_marks", root, sub, report) == said


def test_a_few_candidates_without_their_accent_are_not_a_stripped_text(tmp_path_factory):
    """A model that writes the marks it knows (half the accented gaps right, half without their accent: a
    frequent unaccented letter chosen), and a floor that copies forms whose lemmas carry marks the forms never
    have (Gothic's macrons): no warning."""
    root = str(tmp_path_factory.mktemp("few"))
    golds = ["%s\u00e1%s" % ("klmnprst"[k % 8], "aeiou"[k % 5]) for k in range(40)]
    name, value = _fill_mask(root, golds)
    files = {name: [dict(sent, masked_tokens=[[sent["masked_tokens"][0] if k % 2 else strip(sent["masked_tokens"][0])]])
                    for k, sent in enumerate(value)]}
    _, report = _evaluate(root, files)
    assert not of_file(report["messages"], name, "without them"), report["messages"]
    lemmas = ["j\u016bs", "\u016bt", "w\u00e1ila", "s\u00ed", "b\u00f3k"] * 4
    _release(root, [[(strip(lemma), "NOUN", lemma, {}) for lemma in lemmas]])
    _, report = _evaluate(root, {LAT_LEMMA: [[[strip(lemma), [strip(lemma)]] for lemma in lemmas]]})
    assert not of_file(report["messages"], LAT_LEMMA, "without them"), report["messages"]


def test_an_ascii_folding_is_a_stripped_text(tmp_path_factory, monkeypatch):
    """Icelandic words folded to ASCII as unidecode writes them (\u00fe -> th, \u00f0 -> d, \u00e6 -> ae, accents
    dropped): said as text that lost its marks, priced (every gap right once restored)."""
    root = str(tmp_path_factory.mktemp("ascii"))
    folded = {"\u00feeir": "their", "ma\u00f0ur": "madur", "\u00e6tt": "aett", "\u00fea\u00f0": "thad",
              "h\u00fas": "hus", "k\u00e1lfr": "kalfr"}
    golds = ["\u00feeir", "ma\u00f0ur", "\u00e6tt", "\u00fea\u00f0", "h\u00fas", "k\u00e1lfr"] * 4
    name, value = _fill_mask(root, golds)
    sub, report = _evaluate(root, {name: [dict(sent, masked_tokens=[[folded[sent["masked_tokens"][0]]]])
                                          for sent in value]})
    message = _one(of_file(report["messages"], name, "have as their first candidate the gold without them"))
    assert message["where"] == 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
    assert message["text"].startswith("24 of the 24 items whose gold has accents, other marks or letters such as "
                                      "\u00fe and \u00e6 have as their first candidate the gold without them, and 0 "
                                      "the gold itself: 'their' for '\u00feeir' (4 times)"), message["text"]
    assert message["text"].endswith(mended.price_text(0.0, 1.0, "with the marks kept"))
    assert _same_scores_without(monkeypatch, mended, "stripped_marks", root, sub, report) == [message]


@settings(**SETTINGS)
@given(golds=gap_words, task=st.sampled_from(["pos", "morph", "gaps"]))
def test_forms_and_masked_lines_that_lost_their_marks_are_named(tmp_path_factory, golds, task):
    """The input's own text written without its marks: the form (or masked line) message says so, in place of
    "check the sentence order", with or without the gold (its class of its own)."""
    root = str(tmp_path_factory.mktemp("forms"))
    _release(root, [[(gold, "NOUN", gold, {}) for gold in golds]], public=False)
    marked = [k for k, gold in enumerate(golds) if strip(gold) != gold]
    if task == "gaps":
        name, value = _fill_mask(root, golds)
        files = {name: [dict(sent, masked=strip(sent["masked"]), masked_tokens=[sent["masked_tokens"]])
                        for sent in value]}
        where, needle = (lambda k: 'sentence %d ($[%d]["masked"])' % (k + 1, k)), '"masked" differs from the input'
    else:
        name = LAT_POS if task == "pos" else LAT_MORPH
        tokens = [[strip(gold), "NOUN"] for gold in golds] if task == "pos" else [
            {"Token": strip(gold), "UPOS": "NOUN"} for gold in golds]
        files = {name: [tokens]}
        where, needle = (lambda k: "sentence 1, token %d ($[0][%d])" % (k + 1, k)), "differs from the reference form"
    _, report = _evaluate(root, files)
    said = of_file(report["messages"], name, needle)
    if not marked:
        assert not said
        return
    message = _one(said)
    assert message["where"] == where(marked[0])
    assert " only by the accents or other marks it lost: the text was normalised on its way (NFD then dropping the " \
           "combining characters, unidecode, an accent folding); write the input's text as it is" in message["text"]
    assert "check the sentence order" not in message["text"]
    if len(marked) > 1:
        assert "%d in this file: " % len(marked) in message["text"] and "only by its marks" in message["text"]


ASTRAL = "\U00020087\U0002007c\U00020089\U000200ca\U0002A6A5"


@settings(**SETTINGS)
@given(golds=st.lists(st.sampled_from("\u4e00\u53e3\u4e3f" + ASTRAL), min_size=10, max_size=40))
def test_lone_surrogates_are_refused_as_not_text(tmp_path_factory, monkeypatch, golds):
    """A character model that counts UTF-16 code units (Java, JavaScript) writes the high surrogate alone for a
    character beyond the Basic Multilingual Plane (``"\\ud840"`` in the JSON): one warning, at the first such gap,
    that names it not text; the score is what it was (it never matched)."""
    root = str(tmp_path_factory.mktemp("surrogates"))
    name, value = _fill_mask(root, golds, char=True)
    halves = [chr(0xD800 + ((ord(gold) - 0x10000) >> 10)) if ord(gold) > 0xFFFF else gold for gold in golds]
    path = os.path.join(root, "sub", *name.split("/"))
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as handle:   # json.dump's ensure_ascii writes a lone surrogate as \\udXXX, as JSON.stringify
        json.dump([dict(sent, masked_tokens=[[halves[k]]]) for k, sent in enumerate(value)], handle)
    sub = os.path.join(root, "sub")
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    said = of_file(report["messages"], name, "hold a candidate that is not text")
    astral = [k for k, gold in enumerate(golds) if ord(gold) > 0xFFFF]
    if not astral:
        assert not said
        return
    message = _one(said)
    assert message["where"] == 'sentence %d, mask 1 ($[%d]["masked_tokens"][0])' % (astral[0] + 1, astral[0])
    assert message["text"].startswith("%d of %d item%s hold a candidate that is not text: '\\ud8" % (
        len(astral), len(golds), "" if len(golds) == 1 else "s")), message["text"]
    assert "lone UTF-16 surrogate (U+D8" in message["text"] and "Give whole characters (code points)" in \
        message["text"]
    assert _entry(report, name)["score"] == pytest.approx(1.0 - float(len(astral)) / len(golds))
    assert _same_scores_without(monkeypatch, inventory, "check_lone_surrogates", root, sub, report) == said


# --------------------------------------------------------------------------- 2. another convention of the scheme

#: Tokens of a generated sentence: (form, upos) with some CCONJ among them.
tagged = st.lists(st.lists(st.sampled_from(["NOUN", "VERB", "CCONJ"]), min_size=2, max_size=7), min_size=3,
                  max_size=6).filter(lambda sents: any("CCONJ" in sent for sent in sents))
TRAIN_V2 = "1\tt\tt\tNOUN\t_\t_\t0\troot\t_\t_\n2\tet\tet\tCCONJ\t_\t_\t1\tcc\t_\t_\n\n"
TRAIN_V1 = "1\tt\tt\tNOUN\t_\t_\t0\troot\t_\t_\n2\tes\tes\tCONJ\t_\t_\t1\tcc\t_\t_\n\n"


def _tag_release(root, sents, gold_tag, train, public=True):
    return _release(root, [[("w%d_%d" % (si, ti), gold_tag if tag == "CCONJ" else tag, "l", {})
                            for ti, tag in enumerate(sent)] for si, sent in enumerate(sents)], train, public)


@settings(**SETTINGS)
@given(sents=tagged, train=st.sampled_from([TRAIN_V2, None]), public=st.booleans())
def test_ud_v1_tags_are_named_with_the_v2_renaming(tmp_path_factory, monkeypatch, sents, train, public):
    """CONJ (UD v1) for every CCONJ: with the language's training data known, the tag warning's did-you-mean is
    CCONJ (UD v1's tag, renamed in UD v2), not SCONJ; without it, where the gold is public, a warning of its own
    from the gold; either way priced (every tag right once renamed) where the gold is public."""
    root = str(tmp_path_factory.mktemp("conj"))
    refs = _tag_release(root, sents, "CCONJ", train, public)
    pred = [[[form, "CONJ" if tag == "CCONJ" else tag] for form, tag in sent] for sent in refs["pos_tagging"]]
    sub, report = _evaluate(root, {LAT_POS: pred})
    at = next((si, ti) for si, sent in enumerate(pred) for ti, (_, tag) in enumerate(sent) if tag == "CONJ")
    where = "sentence %d, token %d ($[%d][%d][1])" % (at[0] + 1, at[1] + 1, at[0], at[1])
    count = sum(tag == "CONJ" for sent in pred for _, tag in sent)
    price = _price(report, LAT_POS, "with 'CONJ' written 'CCONJ'", 1.0)
    if train:
        message = _one(of_file(report["messages"], LAT_POS, "outside the task's tag set"))
        assert "Did you mean CCONJ for 'CONJ' (UD v1's tag, renamed in UD v2)?" in message["text"]
        assert "SCONJ" not in message["text"].split("Did you mean")[1]
        assert message["text"].endswith(price) == public, message["text"]
        check, module = "check_tags", inventory
    else:
        said = of_file(report["messages"], LAT_POS, "a tag this file's gold never uses")
        if not public:
            assert not said and not of_file(report["messages"], LAT_POS, "CONJ")
            return
        message = _one(said)
        assert message["text"] == ("%d tokens are tagged 'CONJ', a tag this file's gold never uses: it writes 'CCONJ' "
                                   "(UD v1's CONJ, renamed CCONJ in UD v2). A tag is compared as it is: write the "
                                   "gold's scheme.%s" % (count, price)), message["text"]
        check, module = "older_labels", mended
    assert message["where"] == where
    said = _same_scores_without(monkeypatch, module, check, root, sub, report)
    assert message in said


@settings(**SETTINGS)
@given(sents=tagged, train=st.sampled_from([TRAIN_V1, None]))
def test_a_treebank_that_keeps_ud_v1_tags_is_told_the_other_way(tmp_path_factory, monkeypatch, sents, train):
    """A gold that keeps UD v1's CONJ (Old Hungarian's) and a file that writes CCONJ: with the training data known
    (it writes CONJ, never CCONJ), a warning without the gold; without it, one from the public gold; priced."""
    root = str(tmp_path_factory.mktemp("v1"))
    refs = _tag_release(root, sents, "CONJ", train)
    pred = [[[form, "CCONJ" if tag == "CONJ" else tag] for form, tag in sent] for sent in refs["pos_tagging"]]
    sub, report = _evaluate(root, {LAT_POS: pred})
    at = next((si, ti) for si, sent in enumerate(pred) for ti, (_, tag) in enumerate(sent) if tag == "CCONJ")
    price = _price(report, LAT_POS, "with 'CCONJ' written 'CONJ'", 1.0)
    if train:
        message = _one(of_file(report["messages"], LAT_POS, "The language's training data writes 'CONJ'"))
        assert "the UD v1 spelling, and never 'CCONJ': so does its gold, and a tag is compared as it is. Write " \
               "'CONJ' for 'CCONJ' here." in message["text"]
        check, module = "check_older_tags", inventory
    else:
        message = _one(of_file(report["messages"], LAT_POS, "a tag this file's gold never uses: it writes 'CONJ' "
                               "(the UD v1 name of CCONJ, which this language's treebank keeps)"))
        check, module = "older_labels", mended
    assert message["where"] == "sentence %d, token %d ($[%d][%d][1])" % (at[0] + 1, at[1] + 1, at[0], at[1])
    assert message["text"].endswith(price), message["text"]
    assert message in _same_scores_without(monkeypatch, module, check, root, sub, report)


XPOS = {"NOUN": "Nb", "VERB": "V-", "CCONJ": "C-"}
TRAIN_XPOS = "".join("%d\tw\tw\t%s\t%s\t_\t0\tdep\t_\t_\n" % (k + 1, upos, xpos)
                     for k, (upos, xpos) in enumerate(sorted(XPOS.items()))) + "\n"


@settings(**SETTINGS)
@given(sents=tagged)
def test_xpos_tags_are_named_with_the_upos_the_training_data_gives_them(tmp_path_factory, monkeypatch, sents):
    """A tagger trained on the CoNLL-U's fifth column (PROIEL's XPOS: Nb, V-, C-) writes XPOS tags: the tag warning
    says so, names the UPOS tag the training data gives each most often, and, the gold public, the price."""
    root = str(tmp_path_factory.mktemp("xpos"))
    refs = _tag_release(root, sents, "CCONJ", TRAIN_XPOS)
    pred = [[[form, XPOS[tag]] for form, tag in sent] for sent in refs["pos_tagging"]]
    sub, report = _evaluate(root, {LAT_POS: pred})
    message = _one(of_file(report["messages"], LAT_POS, "outside the task's tag set"))
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert "Most are the treebank's XPOS tags (the fifth column of its CoNLL-U files), not the UPOS tags (the " \
           "fourth) that the task asks for" in message["text"]
    used = sorted(set(tag for sent in pred for _, tag in sent))
    for tag in used:
        upos = [u for u, x in XPOS.items() if x == tag][0]
        assert "%s for %r" % (upos, tag) in message["text"].split("Did you mean")[1]
    assert message["severity"] == "error" and messages.ZERO_NOTE in message["text"]
    assert message["text"].endswith(_price(report, LAT_POS, "with %s" % ", ".join(
        "%r written %r" % (tag, [u for u, x in XPOS.items() if x == tag][0]) for tag in used), 1.0)), message["text"]
    assert message in _same_scores_without(monkeypatch, inventory, "check_tags", root, sub, report)


lemma_words = st.lists(st.text("abcdefg", min_size=2, max_size=6), min_size=10, max_size=40)


@settings(**SETTINGS)
@given(lemmas=lemma_words, numbered=st.integers(0, 40), sense=st.sampled_from(["1", "#2", "_1", "12"]))
def test_lemmas_with_sense_numbers_are_said(tmp_path_factory, monkeypatch, lemmas, numbered, sense):
    """The first ``numbered`` lemmas written with a sense number (``venio1``, ``sum#2``): one warning from
    MIN_SENSES items and SENSE_SHARE of the items on, at the first one, with the fix and, the gold being public,
    the price (every lemma right once the numbers are stripped)."""
    root = str(tmp_path_factory.mktemp("senses"))
    _release(root, [[("f%d" % k, "NOUN", lemma, {}) for k, lemma in enumerate(lemmas)]])
    write_json(os.path.join(root, "ref", "floor_scores.json"), {"label": "floor", "files": {"lemmatisation/lat": 1.0}})
    numbered = min(numbered, len(lemmas))
    pred = [[["f%d" % k, [lemma + sense if k < numbered else lemma]] for k, lemma in enumerate(lemmas)]]
    sub, report = _evaluate(root, {LAT_LEMMA: pred})
    said = of_file(report["messages"], LAT_LEMMA, "ends in a sense number")
    at_floor = of_file(report["messages"], LAT_LEMMA, "the trivial baseline of the starting kit")
    if numbered < max(inventory.MIN_SENSES, inventory.SENSE_SHARE * len(lemmas)):
        assert not said and bool(at_floor) == (numbered > 0)   # (a floor at 1: every file below 1 is at it)
        return
    assert not at_floor   # the file's own message names and prices the cause: no generic floor causes
    message = _one(said)
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert message["text"].startswith("%d of %d items have a first candidate that ends in a sense number: " % (
        numbered, len(lemmas))), message["text"]
    assert "strip the number (%r, not %r)." % (lemmas[0], lemmas[0] + sense) in message["text"]
    assert message["text"].endswith(_price(report, LAT_LEMMA, "with the sense numbers stripped", 1.0))
    assert _same_scores_without(monkeypatch, inventory, "check_sense_numbers", root, sub, report) == said


feature_tokens = st.lists(st.dictionaries(st.sampled_from(["Case", "Number", "Gender"]), st.just(None), min_size=1,
                                          max_size=3), min_size=3, max_size=20)
VALUES = {"Case": "Nom", "Number": "Sing", "Gender": "Masc"}


@settings(**SETTINGS)
@given(tokens=feature_tokens, how=st.sampled_from(["feats list", "value list", "pairs"]))
def test_features_written_as_a_list_are_told_the_format_the_task_asks_for(tmp_path_factory, monkeypatch, tokens,
                                                                        how):
    """Features as a list (``"feats": ["Case=Nom"]``, ``[["Case", "Nom"]]``) or a value as a list (``"Case":
    ["Nom"]``): the warning names the format the task asks for (one key per feature, its value a string), not
    "write them as strings"; priced (every token right once written so)."""
    root = str(tmp_path_factory.mktemp("lists"))
    sent = [("w%d" % k, "NOUN", "l", dict((name, VALUES[name]) for name in tok)) for k, tok in enumerate(tokens)]
    _release(root, [sent])
    if how == "value list":
        pred = [[dict({"Token": form, "UPOS": upos}, **dict((n, [v]) for n, v in feats.items()))
                 for form, upos, _, feats in sent]]
        needle, fix = "give a feature's value as a list: ", "The task asks for each value as one string, several " \
            "values joined by a comma as CoNLL-U writes them"
    else:
        pred = [[{"Token": form, "UPOS": upos, "feats": ["%s=%s" % kv for kv in sorted(feats.items())] if how ==
                  "feats list" else [list(kv) for kv in sorted(feats.items())]} for form, upos, _, feats in sent]]
        needle, fix = "give their features as a list: ", "The task asks for one key per feature, its value a string, " \
            "not a list of features"
    sub, report = _evaluate(root, {LAT_MORPH: pred})
    message = _one(of_file(report["messages"], LAT_MORPH, needle))
    key = next(iter(tokens[0])) if how == "value list" else "feats"
    assert message["where"] == 'sentence 1, token 1 ($[0][0]["%s"])' % key
    assert message["text"].startswith("%d token%s %s" % (len(tokens), "" if len(tokens) == 1 else "s", needle))
    assert fix in message["text"] and "write them as strings" not in message["text"]
    assert message["text"].endswith(_price(report, LAT_MORPH, "with the features written as the task asks (one key "
                                           "per feature, its value a string, UD v1's names renamed)", 1.0))
    assert messages.LOSS_NOTE in message["text"]   # no feature of any token matches
    assert _same_scores_without(monkeypatch, inventory, "check_features", root, sub, report) == [message]


@settings(**SETTINGS)
@given(tokens=feature_tokens, older=st.sampled_from(["name", "value"]))
def test_ud_v1_feature_spellings_are_said_from_the_gold(tmp_path_factory, monkeypatch, tokens, older):
    """UD v1's ``Negative`` (v2: Polarity) or ``VerbForm=Trans`` (v2: Conv) where the gold writes v2's, in a
    language whose training data is not known: one warning from the public gold, priced."""
    root = str(tmp_path_factory.mktemp("v1feats"))
    new, old = (("Polarity", "Neg"), ("Negative", "Neg")) if older == "name" else (("VerbForm", "Conv"),
                                                                                  ("VerbForm", "Trans"))
    sent = [("w%d" % k, "VERB", "l", dict([(n, VALUES[n]) for n in tok] + [new])) for k, tok in enumerate(tokens)]
    _release(root, [sent])
    pred = [[dict([("Token", form), ("UPOS", upos)] + [(n, v) for n, v in sorted(feats.items()) if n != new[0]]
                  + [old]) for form, upos, _, feats in sent]]
    sub, report = _evaluate(root, {LAT_MORPH: pred})
    message = _one(of_file(report["messages"], LAT_MORPH, "a feature name or value that this file's gold never "
                           "uses"))
    assert message["where"] == 'sentence 1, token 1 ($[0][0]["%s"])' % old[0]
    assert message["text"] == (
        "%d tokens use a feature name or value that this file's gold never uses, the other spelling of the gold's (UD "
        "v2 renamed a few of UD v1's names and values): %s=%r for %s=%r (%d time%s), the gold's first. A feature "
        "is compared as it is: write the gold's spelling.%s" % (
            len(tokens), new[0], new[1], old[0], old[1], len(tokens), "" if len(tokens) == 1 else "s",
            _price(report, LAT_MORPH, "with the gold's spellings", 1.0))), message["text"]
    assert message in _same_scores_without(monkeypatch, mended, "older_features", root, sub, report)


# --------------------------------------------------------------------------- 7. words that promise too much

def test_the_validator_exits_1_for_a_file_that_loses_most_of_its_score_and_names_a_subset(tmp_path):
    """On the valid split with the development gold: a lemma file whose candidates lost their marks (two lemmas in
    three accented) loses most of its score: the validator says so and exits 1; the same file right exits 0, and
    its summary calls the submission a subset (the other files score 0), never "ready to upload"."""
    root = str(tmp_path)
    lemmas = ["%s%s%s" % ("klmnprst"[k % 8], "\u00e9" if k % 3 else "e", "aiou"[k % 4]) for k in range(24)]
    _release(root, [[(lemma, "NOUN", lemma, {}) for lemma in lemmas[:12]], [(lemma, "NOUN", lemma, {})
                                                                            for lemma in lemmas[12:]]])
    data, ref = os.path.join(root, "data"), os.path.join(root, "ref")
    for name, change in (("stripped", strip), ("right", lambda lemma: lemma)):
        sub = submission(root, {LAT_LEMMA: [[[lemma, [change(lemma)]] for lemma in lemmas[:12]],
                                            [[lemma, [change(lemma)]] for lemma in lemmas[12:]]]}, name)
        report, _, _, _ = V.check(sub, data, "valid", gold=ref)
        status, summary = verdict.conclude(report)
        assert V.main([sub, "--data", data, "--split", "valid", "--gold", ref]) == status
        assert "ready to upload" not in summary
        if name == "stripped":
            said = _one(of_file(report["messages"], LAT_LEMMA, "without them"))
            assert said["text"].endswith(mended.price_text(1 / 3.0, 1.0, "with the marks kept"))
            assert status == verdict.FAILED and summary.endswith(
                "1 file will lose most of its score (%s) -- fix it before uploading" % LAT_LEMMA), summary
        else:
            assert status == verdict.OK and summary.endswith(
                "-- it can be uploaded as a subset: the 2 expected files not submitted (pos_tagging/lat.json, "
                "morph_features/lat.json) score 0 and count as 0 in every average"), summary


@settings(**SETTINGS)
@given(files=st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True, min_size=1, max_size=4),
       left=st.integers(0, 4), told=st.booleans())
def test_a_subset_is_never_ready_to_upload(files, left, told):
    """Whatever else the report holds, a summary never says "ready to upload" while expected files are missing:
    it counts them and says they score 0 (exit 0: a subset may be submitted; none at all is nothing to score);
    with nothing missing and nothing told, it does."""
    left = min(left, len(files))
    entries = [{"file": name, "status": "missing" if k < left else "scored"} for k, name in enumerate(files)]
    report = {"entries": entries, "messages": [{"severity": "warning", "file": files[-1], "text": "x"}] if told
              else []}
    status, summary = verdict.conclude(report)
    assert status == (verdict.FAILED if left == len(files) else verdict.OK)   # nothing submitted at all: 0
    assert ("ready to upload" in summary) == (not left and not told), summary
    if left and left < len(files):
        assert "the %d expected file%s not submitted (%s) score%s 0" % (
            left, "" if left == 1 else "s", ", ".join(files[:left]), "s" if left == 1 else "") in summary, summary


def test_doctests():
    import doctest
    for module in (mended, verdict, inventory, kinds):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module


# --------------------------------------------------------------------------- 8. the test phase, the hints

def test_the_kit_readme_explains_the_test_phase_as_the_schedule_declares_it():
    """The kit README says that the test phase scores a public part (the schedule's share) and that the final
    ranking re-scores the private rest; and it names the hints the scorer gives (label ids, subword rows)."""
    from organiser import schedule
    spec = schedule.test_feedback(os.path.join(ROOT, "schedule.yaml"))
    with io.open(os.path.join(ROOT, "starting_kit", "README.md"), encoding="utf-8") as handle:
        text = " ".join(handle.read().split())
    assert spec["mode"] == "public_private"
    assert "the platform scores **a public part** of the test set only: about %d%% of the sentences" % round(
        100 * spec["public_fraction"]) in text
    assert "**The final ranking re-scores every team's official submission (its last one that the platform scored) " \
           "on the private rest**" in text
    for hint in ("a model's label ids", "one row per subword piece", "sense numbers", "UD v1's spellings",
                 "lost their accents or other marks", "lone UTF-16 surrogate", "features written as a list"):
        assert hint in text, hint


@settings(**SETTINGS)
@given(sents=tagged)
def test_label_ids_and_subword_rows_are_named(tmp_path_factory, sents):
    """Tags written as a model's label ids (numbers): the warning says so and how to map them; a sentence given one
    row per subword piece (a token split as ``ca`` + ``##dulat``): its error names the pieces, not only the
    count."""
    root = str(tmp_path_factory.mktemp("ids"))
    refs = _tag_release(root, sents, "CCONJ", TRAIN_V2, public=False)
    ids = [[[form, st2024.UPOS_TAGS.index(tag)] for form, tag in sent] for sent in refs["pos_tagging"]]
    _, report = _evaluate(root, {LAT_POS: ids})
    message = _one(of_file(report["messages"], LAT_POS, "the tag is a number"))
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert message["text"].startswith("the tag is a number, expected a string; it never matches (a model's label id? "
                                      "map each id to its tag with the model's own table, id2label in its config")
    pieces = [[row for ti, (form, tag) in enumerate(sent)
               for row in ([[form[:2], tag], ["##" + form[2:], tag]] if ti == 0 else [[form, tag]])]
              for sent in refs["pos_tagging"]]
    _, report = _evaluate(root, {LAT_POS: pieces})
    message = _one(of_file(report["messages"], LAT_POS, "one row per subword piece"))
    first = refs["pos_tagging"][0]
    assert message["where"] == "sentence 1 ($[0])" and message["severity"] == "error"
    assert message["text"].startswith("%d tokens, the reference has %d: one row per subword piece of a tokeniser "
                                      "('##%s'), whose pieces join into the input's tokens: this sentence scores 0"
                                      % (len(first) + 1, len(first), first[0][0][2:])), message["text"]


# --------------------------------------------------------------------------- the real release

@needs_shared
def test_real_greek_gaps_without_their_marks_lose_most_of_their_score(tmp_path, monkeypatch):
    """On the release's valid split (Ancient Greek, word gaps; its gold derived as the reference builder derives
    it): a system right on every gap whose candidates lost their marks scores a fraction of what it would score with
    them, and the scorer, the gold public, says so with both scores and LOSS_NOTE; the score is unchanged."""
    from competitions.st2024 import reference
    found = reference.derive_fill_mask(SHARED, "fill_mask_word", "valid", "grc")
    if found is None:
        pytest.skip("no fill_mask_word/valid/grc_valid.tsv in %s" % SHARED)
    rows, derived = found
    assert len(rows) == len(derived)
    value = [{"masked": masked, "text": src or "", "masked_tokens": derived[k].golds}
             for k, (masked, src) in enumerate(rows)]
    root = str(tmp_path)
    write_json(os.path.join(root, "ref", "fill_mask_word", "grc.json"), value)
    write_json(os.path.join(root, "ref", "phase.json"), PUBLIC)
    name = "fill_mask_word/grc.json"
    pred = [dict(sent, masked_tokens=[[strip(gold)] for gold in sent["masked_tokens"]]) if sent["masked_tokens"]
            is not None else dict(sent, masked_tokens=[[""]] * sent["masked"].count("[MASK]")) for sent in value]
    sub, report = _evaluate(root, {name: pred})
    message = _one(of_file(report["messages"], name, "without them"))
    first = next(k for k, sent in enumerate(value) if sent["masked_tokens"] and
                 strip(sent["masked_tokens"][0]) != sent["masked_tokens"][0])
    assert message["where"].startswith("sentence %d, mask " % (first + 1))
    assert re.search(r"Priced on this phase's gold, the file scores 0\.[01]\d{3} as written and 1\.0000 with the marks "
                     r"kept \(%s\)\.$" % messages.LOSS_NOTE, message["text"]), message["text"]
    assert _same_scores_without(monkeypatch, mended, "stripped_marks", root, sub, report) == [message]
