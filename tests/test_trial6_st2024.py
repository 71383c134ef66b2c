"""Issue 33, the hidden trial's sixth round on ST2024: each class generated, with its message (quoted), its position
and the unchanged score (the check switched off gives the same scores).

1. the floor of a language without training data is read from its input (``make_submission.py --system floor``),
   so that ``floor_scores.json`` has a floor above 0 for every file;
2. UPOS is a closed set even where the language's training data is not known (another tag set's tags, Perseus's
   or PROIEL's XPOS, are named); range rows (``_``) do not hide that every tag of a word is outside it;
3. invisible characters (Unicode category Cf) added to candidates: named, counted, priced;
4. mojibake counted among the items that are not ASCII, and priced;
5. text changed on its way, the other normalisations of the marks-stripped class (lower-cased, final sigma, u for
   v, marks added, an apostrophe for U+0313): one check over a table of them, priced; the gold never triggers it.
"""
import json
import os
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from conftest import ROOT, SHARED, needs_shared
from evalkit import inventory, mended, messages
from test_message_classes import SETTINGS
from test_trial3_st2024 import _same_scores_without
from test_trial5_st2024 import LAT_LEMMA, LAT_POS, _entry, _evaluate, _fill_mask, _one, _price, _release
from test_warning_classes import of_file, write_json


# --------------------------------------------------------------------------- 1. the floor of every language

def test_the_floor_of_a_language_without_training_data_is_read_from_its_input(tmp_path):
    """The organiser's floor submission of a language without a train file is what ``make_submission.py --system
    floor`` writes (NOUN for every row, the form as its lemma, frequent units for the gaps), not the empty
    baseline; the table's note says so."""
    from competitions.st2024 import baselines
    models = baselines.models

    class Job(object):
        lang, kind = "xyz", "morphology"
        splits = ("valid",)
        inputs = {"valid": "x"}
        tasks = [task for task in st2024.TASKS if task.kind in ("tagging", "candidates")]

        def load_training(self):
            return None

        def load_input(self, split):
            path = tmp_path / "in.conllu"
            path.write_text("1\tRoma\t_\t_\t_\t_\t0\troot\t_\t_\n2\test\t_\t_\t_\t_\t1\tdep\t_\t_\n\n", encoding="utf-8")
            return baselines.make_submission.read_kind(str(path), "morphology")

    report = baselines.Report()
    baselines.run_job(Job(), str(tmp_path / "staging"), report)
    read = lambda system, folder: json.loads((tmp_path / "staging" / ("%s-valid" % system) / folder / "xyz.json")
                                             .read_text(encoding="utf-8"))
    assert read("floor", "pos_tagging") == [[["Roma", models.UNTRAINED_TAG], ["est", models.UNTRAINED_TAG]]]
    assert read("floor", "lemmatisation") == [[["Roma", ["Roma"]], ["est", ["est"]]]]
    assert read("baseline", "pos_tagging") == [[["Roma", ""], ["est", ""]]]
    assert "the floor is read from the input alone (NOUN for every row" in baselines.table_note("d", True)


@needs_shared
def test_the_shipped_floor_scores_are_above_0_for_every_file(tmp_path):
    """The floor scores a build ships (``reference_data/dev/floor_scores.json``, from ``organiser baselines``) are
    above 0 for every file (a floor of 0 switches the below-the-floor check off): built here from the release's Latin
    (no training data for its morphology) and Ancient Greek files, copied into a temporary release layout."""
    import glob
    import shutil
    from conftest import build_competition
    data = tmp_path / "release"
    for path in glob.glob(os.path.join(SHARED, "*", "*", "*")):
        kind, split, name = path.split(os.sep)[-3:]
        if name.split("_")[0] in ("lat", "grc"):
            os.makedirs(str(data / kind / split), exist_ok=True)
            shutil.copyfile(path, str(data / kind / split / name))
    ref, _ = build_competition("st2024", tmp_path / "build", data=str(data), test_gold=None)
    with open(os.path.join(ref, "dev", "floor_scores.json"), encoding="utf-8") as handle:
        files = json.load(handle)["files"]
    assert "pos_tagging/lat" in files and not [name for name, score in files.items() if not score], files
    assert files["pos_tagging/lat"] > 0.1 and files["lemmatisation/lat"] > 0.3 and files["fill_mask_word/grc"] > 0.05


# --------------------------------------------------------------------------- 2. UPOS, a closed set everywhere

PTB = {"NOUN": "NN", "VERB": "VB", "CCONJ": "CC"}
PERSEUS = {"NOUN": "n-s---mn-", "VERB": "v3spia---", "CCONJ": "c--------"}
tag_sents = st.lists(st.lists(st.sampled_from(["NOUN", "VERB", "CCONJ"]), min_size=2, max_size=7), min_size=2,
                     max_size=6)


@settings(**SETTINGS)
@given(sents=tag_sents, scheme=st.sampled_from(["ptb", "perseus", "proiel"]), ranges=st.booleans())
def test_tags_of_another_tag_set_are_outside_upos_without_training_data(tmp_path_factory, monkeypatch, sents, scheme,
                                                                        ranges):
    """A language whose training data is not known, every tag written in another tag set (Penn Treebank's NN,
    Perseus's positional ``n-s---mn-``, PROIEL's ``Nb``), with or without multiword-token range rows (``_``, which
    the file writes right): one error from the first tag on; XPOS tags are named as the fifth column; with range
    rows, every tag of a word outside UPOS is said with LOSS_NOTE (the validator exits 1), else ZERO_NOTE."""
    root = str(tmp_path_factory.mktemp("upos"))
    refs = _release(root, [[("w%d_%d" % (si, ti), tag, "l", {}) for ti, tag in enumerate(sent)]
                           for si, sent in enumerate(sents)], public=False)
    gold = refs["pos_tagging"]
    if ranges:   # a range row before each sentence's first word
        gold = [[["1-2", "_"]] + sent for sent in gold]
        write_json(os.path.join(root, "ref", "pos_tagging", "lat.json"), gold)
    mapping = {"ptb": PTB, "perseus": PERSEUS, "proiel": {"NOUN": "Nb", "VERB": "V-", "CCONJ": "C-"}}[scheme]
    pred = [[[form, "_" if tag == "_" else mapping[tag]] for form, tag in sent] for sent in gold]
    sub, report = _evaluate(root, {LAT_POS: pred})
    message = _one(of_file(report["messages"], LAT_POS, "outside the task's tag set"))
    words = sum(len(sent) for sent in refs["pos_tagging"])
    assert message["severity"] == "error"
    assert message["where"] == "sentence 1, token %d ($[0][%d][1])" % ((2, 1) if ranges else (1, 0))
    assert message["text"].startswith("%s of %s tags are outside the task's tag set (ADJ, ADP, ADV, AUX, CCONJ, " % (
        "{:,}".format(words), "{:,}".format(words))), message["text"]
    assert ("Most are the treebank's XPOS tags (the fifth column of its CoNLL-U files)" in message["text"]) == (
        scheme != "ptb")
    if ranges:
        assert message["text"].endswith("Every tag of a word is outside the set (only the %d rows '_', multiword-token "
                                        "ranges, can match): %s." % (len(gold), messages.LOSS_NOTE))
    else:
        assert message["text"].endswith("Every tag is outside the set: %s." % messages.ZERO_NOTE)
    assert message in _same_scores_without(monkeypatch, inventory, "check_tags", root, sub, report)


def test_ud_v1_conj_of_a_language_without_training_data_is_no_tag_outside_upos(tmp_path):
    """Old Hungarian's gold keeps UD v1's CONJ (its training data is not known): a file right on it is not told its
    tags are outside UPOS."""
    root = str(tmp_path)
    refs = _release(root, [[("es", "CONJ", "es", {}), ("w", "NOUN", "w", {})]], public=False)
    _, report = _evaluate(root, {LAT_POS: refs["pos_tagging"]})
    assert not of_file(report["messages"], LAT_POS, "outside the task's tag set")


# --------------------------------------------------------------------------- 3. invisible characters

LEMMAS = ["%s%s" % ("klmnprst"[k % 8], "aeiou"[k % 5] * (1 + k % 3)) for k in range(40)]


@settings(**SETTINGS)
@given(char=st.sampled_from(["\u200b", "\u200f", "\u2060", "\ufeff", "\u200e"]), share=st.sampled_from(
    [0.0, 0.1, 0.5, 1.0]), before=st.booleans())
def test_invisible_characters_are_named_counted_and_priced(tmp_path_factory, monkeypatch, char, share, before):
    """A share of the lemmas get an invisible character (a zero-width space, a right-to-left mark...) before or
    after them: one warning from MIN_INVISIBLE items on, naming the character by code point and name, at the first
    such item, with the fix and the price (every lemma right once removed)."""
    root = str(tmp_path_factory.mktemp("invisible"))
    _release(root, [[(lemma, "NOUN", lemma, {}) for lemma in LEMMAS]])
    changed = int(share * len(LEMMAS))
    add = (lambda lemma: char + lemma) if before else (lambda lemma: lemma + char)
    sub, report = _evaluate(root, {LAT_LEMMA: [[[lemma, [add(lemma) if k < changed else lemma]]
                                                for k, lemma in enumerate(LEMMAS)]]})
    said = of_file(report["messages"], LAT_LEMMA, "invisible character")
    if changed < inventory.MIN_INVISIBLE:
        assert not said
        return
    message = _one(said)
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert message["text"].startswith("%d of %d items hold a candidate with an invisible character (U+%04X %s; "
                                      "Unicode's format characters, category Cf): " % (
                                          changed, len(LEMMAS), ord(char), unicodedata.name(char))), message["text"]
    assert "remove it from every candidate" in message["text"]
    assert message["text"].endswith(_price(report, LAT_LEMMA, "with the invisible characters removed", 1.0))
    assert _same_scores_without(monkeypatch, inventory, "check_invisible", root, sub, report) == said


def test_a_gold_with_a_soft_hyphen_or_a_bom_now_and_then_is_no_invisible_text(tmp_path):
    """A gold that holds a soft hyphen or a BOM in a few items (sga, orv): the gold itself is not told."""
    root = str(tmp_path)
    golds = ["a\u00adb", "\ufeffc"] + LEMMAS
    name, value = _fill_mask(root, golds)
    _, report = _evaluate(root, {name: [dict(sent, masked_tokens=[sent["masked_tokens"]]) for sent in value]})
    assert not of_file(report["messages"], name, "invisible")


# --------------------------------------------------------------------------- 4. mojibake

@settings(**SETTINGS)
@given(accented=st.integers(5, 20), plain=st.sampled_from([0, 100, 400]))
def test_mojibake_is_counted_among_the_non_ascii_items_and_priced(tmp_path_factory, monkeypatch, accented, plain):
    """Every lemma that is not ASCII garbled (UTF-8 read as Windows-1252), however many ASCII lemmas around them
    (Old French: 5% of the items): one warning at the first, with the fix and the price; LOSS_NOTE when most is
    lost."""
    root = str(tmp_path_factory.mktemp("moji"))
    lemmas = ["%s\u00e9%s" % ("klmnprst"[k % 8], "aiou"[k % 4] * (1 + k // 32)) for k in range(accented)] + [
        "%s%s" % ("klmnprst"[k % 8], "aiou"[k % 4] * (1 + k // 32)) for k in range(plain)]
    _release(root, [[(lemma, "NOUN", lemma, {}) for lemma in lemmas]])
    sub, report = _evaluate(root, {LAT_LEMMA: [[[lemma, [lemma.encode("utf-8").decode("cp1252")]]
                                                for lemma in lemmas]]})
    message = _one(of_file(report["messages"], LAT_LEMMA, "(mojibake)"))
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert message["text"].startswith("%d of %d items have a first candidate that looks like UTF-8 read as Latin-1 "
                                      "or Windows-1252 (mojibake)" % (accented, len(lemmas))), message["text"]
    assert "read and write every file with encoding=\"utf-8\"." in message["text"]
    assert message["text"].endswith(_price(report, LAT_LEMMA, "with the text read back as UTF-8 (encoded as cp1252 "
                                           "or latin-1, decoded as UTF-8)", 1.0))
    assert (messages.LOSS_NOTE in message["text"]) == (_entry(report, LAT_LEMMA)["score"] < 0.5)
    assert not of_file(report["messages"], LAT_LEMMA, "punctuation")
    assert _same_scores_without(monkeypatch, inventory, "check_candidate_forms", root, sub, report, off=()) == [
        message]


# --------------------------------------------------------------------------- 5. other normalisations

CHANGES = {
    "lower": (lambda gold: gold.lower(), lambda k: "Kl%s" % "aeiou"[k % 5] * (1 + k % 4), "the gold lower-cased",
              "with the capitals kept"),
    "sigma": (lambda gold: gold.replace("\u03c2", "\u03c3"), lambda k: "\u03bb%s\u03c2" % "\u03b1\u03b5\u03bf"[k % 3]
              * (1 + k % 4), "the gold with the final sigma \u03c2 written \u03c3", "with the final sigma kept"),
    "u for v": (lambda gold: gold.replace("v", "u"), lambda k: "v%si" % "aeo"[k % 3] * (1 + k % 4),
                "the gold with v written u", "with v kept"),
    "macrons": (lambda gold: gold[:-1] + gold[-1] + "\u0304", lambda k: "k%so" % "aei"[k % 3] * (1 + k % 4),
                "the gold with marks added that the gold does not write", "without the added marks"),
    "apostrophe": (lambda gold: gold.replace("\u0313", "\u2019"), lambda k: "\u03b4%s\u0313" % "\u03b1\u03b5"[k % 2]
                   * (1 + k % 4), "the gold with the elision or koronis mark U+0313 written as an apostrophe",
                   "with U+0313 for the apostrophe"),
}


@settings(**SETTINGS)
@given(change=st.sampled_from(sorted(CHANGES)), count=st.integers(0, 30), gaps=st.booleans())
def test_normalisations_on_the_way_are_named_and_priced(tmp_path_factory, monkeypatch, change, count, gaps):
    """``count`` items whose first candidate is their gold gone through a normalisation (lower-cased, the final
    sigma written σ, u for v, macrons added, an apostrophe for U+0313), among 20 right ones: where the gold is
    public, one warning from MIN_STRIPPED items and MIN_STRIPPED_DISTINCT distinct candidates on, at the first
    such item, priced (every item right once undone); the gold itself never triggers it. Lemmas and gaps alike."""
    root = str(tmp_path_factory.mktemp("norm"))
    normalise, gold_of, name_text, how = CHANGES[change]
    golds = [gold_of(k) for k in range(count)] + ["w%d" % k for k in range(20)]
    changed = [normalise(gold) if k < count else gold for k, gold in enumerate(golds)]
    if gaps:
        name, value = _fill_mask(root, golds)
        files = {name: [dict(sent, masked_tokens=[[changed[k]]]) for k, sent in enumerate(value)]}
        where = 'sentence 1, mask 1 ($[0]["masked_tokens"][0])'
        right = {name: [dict(sent, masked_tokens=[sent["masked_tokens"]]) for sent in value]}
    else:
        _release(root, [[("f%d" % k, "NOUN", gold, {}) for k, gold in enumerate(golds)]])
        name = LAT_LEMMA
        files = {name: [[["f%d" % k, [c]] for k, c in enumerate(changed)]]}
        where = "sentence 1, token 1 ($[0][0][1])"
        right = {name: [[["f%d" % k, [gold]] for k, gold in enumerate(golds)]]}
    _, report = _evaluate(root, right)
    assert not of_file(report["messages"], name, "items have as their first candidate the gold")
    sub, report = _evaluate(root, files)
    said = of_file(report["messages"], name, "items have as their first candidate the gold")
    if len(set(changed[:count])) < mended.MIN_STRIPPED_DISTINCT or count < mended.MIN_STRIPPED:
        assert not said
        return
    message = _one(said)
    assert message["where"] == where
    assert message["text"].startswith("%d items have as their first candidate %s" % (count, name_text)), \
        message["text"]
    assert "The text was changed on its way" in message["text"]
    assert message["text"].endswith(_price(report, name, how, 1.0)), message["text"]
    assert _same_scores_without(monkeypatch, mended, "normalised", root, sub, report) == said


def test_a_floor_copying_forms_is_no_normalisation(tmp_path):
    """Forms written with marks their lemmas lack (Hebrew points, Church Slavonic's), copied as lemmas by the floor:
    no "marks added" warning (the candidates are the input's own text)."""
    root = str(tmp_path)
    lemmas = ["%s%s" % ("\u05d0\u05d1\u05d2\u05d3\u05d4"[k % 5], "\u05d5\u05d6\u05d7"[k % 3] * (1 + k % 4))
              for k in range(30)]
    forms = [lemma[0] + "\u05b8" + lemma[1:] for lemma in lemmas]
    _release(root, [[(form, "NOUN", lemma, {}) for form, lemma in zip(forms, lemmas)]])
    _, report = _evaluate(root, {LAT_LEMMA: [[[form, [form]] for form in forms]]})
    assert not of_file(report["messages"], LAT_LEMMA, "items have as their first candidate the gold")


def test_mojibake_holding_a_soft_hyphen_is_no_invisible_character(tmp_path, monkeypatch):
    """Greek read as Windows-1252 holds U+00AD where UTF-8 has the byte 0xAD (\u03ad, \u1f10...): said as mojibake
    (priced), never as an invisible character."""
    root = str(tmp_path)
    golds = ["\u03bb\u03ad\u03b3%s" % "\u03b1\u03b5\u03bf\u03c9"[k % 4] * (1 + k // 4) for k in range(24)]
    name, value = _fill_mask(root, golds)
    sub, report = _evaluate(root, {name: [dict(sent, masked_tokens=[[sent["masked_tokens"][0].encode("utf-8").decode(
        "latin-1")]]) for sent in value]})
    assert not of_file(report["messages"], name, "invisible")
    message = _one(of_file(report["messages"], name, "(mojibake)"))
    assert message["text"].endswith(_price(report, name, "with the text read back as UTF-8 (encoded as cp1252 or "
                                           "latin-1, decoded as UTF-8)", 1.0))


# --------------------------------------------------------------------------- 6. morphology

@settings(**SETTINGS)
@given(column=st.sampled_from(["XPOS", "DEPREL", "MISC"]), count=st.integers(1, 12))
def test_a_conllu_column_written_as_a_feature_is_named_and_priced(tmp_path_factory, monkeypatch, column, count):
    """A key ``XPOS`` (another CoNLL-U column) on every token: named as a column, not a feature, never "did you
    mean ExtPos", and priced (every token right once removed)."""
    root = str(tmp_path_factory.mktemp("column"))
    sent = [("w%d" % k, "NOUN", "l", {"Case": "Nom"}) for k in range(count)]
    _release(root, [sent], train="1\tw\tl\tNOUN\t_\tCase=Nom\t0\troot\t_\t_\n\n")
    name = "morph_features/lat.json"
    sub, report = _evaluate(root, {name: [[{"Token": form, "UPOS": upos, "Case": "Nom", column: "Nb"}
                                           for form, upos, _, _ in sent]]})
    message = _one(of_file(report["messages"], name, "feature names outside the inventory"))
    assert message["where"] == 'sentence 1, token 1 ($[0][0]["%s"])' % column
    assert "%r: a column of the CoNLL-U files, not a feature (the task asks for FEATS, the sixth column, one key per " \
        "feature): remove it from the tokens." % column \
        in message["text"] and "Did you mean" not in message["text"], message["text"]
    assert message["text"].endswith(_price(report, name, "with the features written as the task asks (one key per "
                                           "feature, its value a string, UD v1's names renamed)", 1.0))
    assert message in _same_scores_without(monkeypatch, inventory, "check_features", root, sub, report)


@settings(**SETTINGS)
@given(spelling=st.sampled_from(["%sPsor", "%s_psor", "%s.psor."]), count=st.integers(1, 12), train=st.booleans())
def test_layered_features_written_without_brackets_are_named_and_priced(tmp_path_factory, monkeypatch, spelling, count,
                                                                        train):
    """``Number[psor]`` written ``NumberPsor`` (or ``Number_psor``, ``Number.psor.``), with or without the language's
    training data: one warning naming the layered name, priced."""
    root = str(tmp_path_factory.mktemp("psor"))
    sent = [("w%d" % k, "NOUN", "l", {"Number[psor]": "Sing", "Case": "Nom"}) for k in range(count)]
    _release(root, [sent], train="1\tw\tl\tNOUN\t_\tCase=Nom|Number[psor]=Sing\t0\troot\t_\t_\n\n" if train else None)
    name, written = "morph_features/lat.json", spelling % "Number"
    sub, report = _evaluate(root, {name: [[{"Token": form, "UPOS": upos, "Case": "Nom", written: "Sing"}
                                           for form, upos, _, _ in sent]]})
    message = _one(of_file(report["messages"], name, "feature names outside the inventory"))
    assert message["where"] == 'sentence 1, token 1 ($[0][0]["%s"])' % written
    assert "Did you mean Number[psor] for %r?" % written in message["text"], message["text"]
    assert message["text"].endswith(_price(report, name, "with the features written as the task asks (one key per "
                                           "feature, its value a string, UD v1's names renamed)", 1.0))
    assert message in _same_scores_without(monkeypatch, inventory, "check_features", root, sub, report)


@settings(**SETTINGS)
@given(how=st.sampled_from(["pipe", "order"]), count=st.integers(1, 12), train=st.booleans())
def test_multi_values_joined_otherwise_are_named_and_priced(tmp_path_factory, monkeypatch, how, count, train):
    """``Gender=Masc,Neut`` written ``Masc|Neut`` or ``Neut,Masc``: one warning saying how UD joins several values,
    with the did-you-mean, priced; the gold's own spelling is never told."""
    root = str(tmp_path_factory.mktemp("multi"))
    sent = [("w%d" % k, "NOUN", "l", {"Gender": "Masc,Neut"}) for k in range(count)]
    _release(root, [sent], train="1\tw\tl\tNOUN\t_\tGender=Masc,Neut\t0\troot\t_\t_\n\n" if train else None)
    name = "morph_features/lat.json"
    _, report = _evaluate(root, {name: [[{"Token": form, "UPOS": upos, "Gender": "Masc,Neut"}
                                         for form, upos, _, _ in sent]]})
    assert not of_file(report["messages"], name, "feature values outside")
    written = "Masc|Neut" if how == "pipe" else "Neut,Masc"
    sub, report = _evaluate(root, {name: [[{"Token": form, "UPOS": upos, "Gender": written}
                                           for form, upos, _, _ in sent]]})
    message = _one(of_file(report["messages"], name, "feature values outside the inventory"))
    assert message["where"] == 'sentence 1, token 1 ($[0][0]["Gender"])'
    assert "Several values of a feature are joined by a comma, in alphabetical order, as UD writes them (and the " \
           "gold): a value joined otherwise never matches. Did you mean Masc,Neut for Gender=%r?" % written in \
        message["text"], message["text"]
    assert message["text"].endswith(_price(report, name, "with the features written as the task asks (one key per "
                                           "feature, its value a string, UD v1's names renamed)", 1.0))
    assert message in _same_scores_without(monkeypatch, inventory, "check_features", root, sub, report)


# --------------------------------------------------------------------------- 7. minor

@settings(**SETTINGS)
@given(number=st.integers(0, 999))
def test_a_numeral_lemma_written_as_a_json_number_is_told_to_be_a_string(tmp_path_factory, number):
    """A lemma ``3`` written as the JSON number 3: the warning says to write it as a string first."""
    root = str(tmp_path_factory.mktemp("numeral"))
    lemmas = [str(number)] + LEMMAS[:5]
    _release(root, [[(lemma, "NUM", lemma, {}) for lemma in lemmas]])
    _, report = _evaluate(root, {LAT_LEMMA: [[[lemma, [number if k == 0 else lemma]]
                                              for k, lemma in enumerate(lemmas)]]})
    message = _one(of_file(report["messages"], LAT_LEMMA, "a candidate is a number"))
    assert message["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert "(a numeral such as a lemma written as a JSON number? write it as a string, \"%d\", as the gold does" % (
        number) in message["text"], message["text"]


@settings(**SETTINGS)
@given(key=st.sampled_from(["predictions", "candidates", "masked_token"]))
def test_a_renamed_candidates_key_is_named(tmp_path_factory, key):
    """``masked_tokens`` under another key: the error names the missing key and the unknown one."""
    root = str(tmp_path_factory.mktemp("key"))
    name, value = _fill_mask(root, LEMMAS[:5])
    _, report = _evaluate(root, {name: [{"masked": sent["masked"], key: [sent["masked_tokens"]]} for sent in value]})
    message = _one(of_file(report["messages"], name, "expected a list with one candidate list per mask"))
    assert message["where"] == 'sentence 1 ($[0]["masked_tokens"])'
    assert message["text"].startswith("expected a list with one candidate list per mask, got null: the sentence has "
                                      "no key \"masked_tokens\", and a key the task does not know (%r): name the "
                                      "candidates \"masked_tokens\"" % key), message["text"]


@settings(**SETTINGS)
@given(sents=st.lists(st.integers(0, 3), min_size=1, max_size=5), at=st.integers(0, 3))
def test_input_rows_left_out_are_named(tmp_path_factory, sents, at):
    """A sentence written per syntactic word, its multiword-token range row left out: the error names the rows
    left out and the range rows, not only the count."""
    root = str(tmp_path_factory.mktemp("ranges"))
    refs = _release(root, [[("w%d_%d" % (si, ti), "NOUN", "l", {}) for ti in range(4)] for si in range(len(sents))],
                    public=False)
    gold = [sent[:at] + [["w%d_%d-w" % (si, at), "_"]] + sent[at:] for si, sent in enumerate(refs["pos_tagging"])]
    write_json(os.path.join(root, "ref", "pos_tagging", "lat.json"), gold)
    _, report = _evaluate(root, {LAT_POS: refs["pos_tagging"]})
    message = _one(of_file(report["messages"], LAT_POS, "leaves out the input's rows"))
    assert message["where"] == "sentence 1 ($[0])" and message["severity"] == "error"
    assert message["text"].startswith("4 tokens, the reference has 5: this sentence scores 0. It leaves out the "
                                      "input's rows 'w0_%d-w' (token %d), the others in order: give one row per input "
                                      "row (a multiword-token range such as 4-5" % (at, at + 1)), message["text"]


@settings(**SETTINGS)
@given(where=st.sampled_from(["first", "last"]), empty=st.sampled_from([[], None]))
def test_an_empty_sentence_added_is_named(tmp_path_factory, where, empty):
    """An empty sentence appended or prepended: the sentence count error names it."""
    root = str(tmp_path_factory.mktemp("empty"))
    refs = _release(root, [[("a", "NOUN", "a", {})], [("b", "NOUN", "b", {})]], public=False)
    pred = [empty] + refs["pos_tagging"] if where == "first" else refs["pos_tagging"] + [empty]
    _, report = _evaluate(root, {LAT_POS: pred})
    message = _one(of_file(report["messages"], LAT_POS, "the file has 3 sentences"))
    at = 0 if where == "first" else 2
    assert message["text"].startswith("the file has 3 sentences, the reference has 2: every sentence of the input "
                                      "must be present, in order; sentence %d ($[%d]) is empty: an empty sentence "
                                      "added (a blank line read as a sentence?): remove it" % (at + 1, at)), \
        message["text"]


@settings(**SETTINGS)
@given(inside=st.integers(1, 3))
def test_nearly_every_tag_outside_upos_loses_most_of_the_score(tmp_path_factory, inside):
    """Penn Treebank's tags, a few of which are UPOS too (SYM): not every tag is outside, but 90% or more are: the
    warning says at most how many can match, with LOSS_NOTE (the validator exits 1)."""
    root = str(tmp_path_factory.mktemp("most"))
    tags = ["SYM"] * inside + ["NOUN"] * 30
    refs = _release(root, [[("w%d" % k, tag, "l", {}) for k, tag in enumerate(tags)]], public=False)
    pred = [[[form, "SYM" if tag == "SYM" else "NN"] for form, tag in sent] for sent in refs["pos_tagging"]]
    _, report = _evaluate(root, {LAT_POS: pred})
    message = _one(of_file(report["messages"], LAT_POS, "outside the task's tag set"))
    assert message["severity"] == "warning"
    assert message["text"].endswith(" At most %d%% of the tags can match: %s." % (
        100 - int(100.0 * 30 / len(tags)), messages.LOSS_NOTE)), message["text"]
