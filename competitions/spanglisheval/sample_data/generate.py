#!/usr/bin/env python3
"""Write SpanglishEval's synthetic sample (the layout of a SpanglishEval folder, see ../README.md).

    python3 competitions/spanglisheval/sample_data/generate.py [--out competitions/spanglisheval/sample_data]

Everything here is invented for the kit: a few dozen short English and Spanish words, pronunciations made
by a letter-to-phone rule of this script (in the CMU phone inventory), invented unigram counts, a small
similar-phone table, and seeded random sentences (tagged ``word__en`` / ``word__sp``): monolingual,
code-switched, some too short and some with a word missing from the dictionaries, so that every filter of
the set builder has something to do. The same output on every run (seeded); ``make`` builds the
competition on it in seconds.
"""
import argparse
import io
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20181101

ENGLISH = ("a bat bad pat pad mat map tap tab sad sat pit bit bid kit kid lip lid top mop pot dot dog log bus "
           "sun man pan pen ten net bet bed led big pig dig go no so do to be me soda data polo memo demo tuba "
           "gala").split()
SPANISH = ("a o e y pan mal sol mes sal dos tos tal gol mil son don tan van ven sin luna mesa pesa besa boca "
           "toca loca pato gato dato mano sano pelo palo malo bala pala sopa nada todo lodo moda boda bota gota "
           "nota tela vela sed lid tic tac bit bot mig dep gat pop").split()
#: The words of each language's sentences that no dictionary lists (for the builder's filter).
UNLISTED = {"en": ["zorp"], "sp": ["xilofo"]}
LETTERS = {"b": "B", "p": "P", "d": "D", "t": "T", "m": "M", "n": "N", "s": "S", "k": "K", "c": "K", "g": "G",
           "l": "L", "v": "V", "y": "IY", "u": "UW", "o": "OW", "i": "IY", "e": "EY", "a": "AA"}
ENGLISH_VOWELS = {"a": "AE", "e": "EH", "i": "IH", "o": "AO", "u": "AH"}
#: English phones as the builder maps them to the shared inventory (``map_phones_l1``).
MAP_L1 = {"AE": "AA", "EH": "EY", "AH": "EY", "AO": "OW", "IH": "IY"}
PHONES = ["AA", "EY", "IY", "OW", "UW", "B", "P", "D", "T", "M", "N", "S", "Z", "K", "G", "L", "V"]
SIMILAR = {"B": ["P", "V"], "P": ["B"], "V": ["B"], "D": ["T"], "T": ["D"], "M": ["N"], "N": ["M", "L"],
           "L": ["N"], "S": ["Z"], "Z": ["S"], "K": ["G"], "G": ["K"], "AA": ["EY"], "EY": ["AA", "IY"],
           "IY": ["EY"], "OW": ["UW"], "UW": ["OW"]}


def phones(word, lang):
    """The pronunciation of ``word`` by this script's letter rule (English vowels in their own phones)."""
    return [ENGLISH_VOWELS[c] if lang == "en" and c in ENGLISH_VOWELS else LETTERS[c] for c in word]


def sentence(rng, kind):
    """One tagged sentence of ``kind``: en, sp, cs, short or unlisted."""
    if kind == "short":
        lang = rng.choice(["en", "sp"])
        return "%s__%s %s__%s ." % (rng.choice(ENGLISH if lang == "en" else SPANISH), lang,
                                    rng.choice(ENGLISH if lang == "en" else SPANISH), lang)
    length = rng.randint(3, 7)
    if kind == "cs":
        switch = rng.randint(1, length - 1)
        first = rng.choice(["en", "sp"])
        langs = [first] * switch + [("sp" if first == "en" else "en")] * (length - switch)
    else:
        langs = [kind if kind in ("en", "sp") else rng.choice(["en", "sp"])] * length
    words = ["%s__%s" % (rng.choice(ENGLISH if lang == "en" else SPANISH), lang) for lang in langs]
    if kind == "unlisted":
        spot = rng.randrange(length)
        words[spot] = "%s__%s" % (UNLISTED[langs[spot]][0], langs[spot])
    return " ".join(words) + rng.choice([" .", " ?", ""])


def sentences(rng, count):
    """``count`` sentences: about a quarter code-switched, some short, a few with an unlisted word."""
    kinds = ["en"] * 8 + ["sp"] * 6 + ["cs"] * 6 + ["short", "unlisted"]
    return [sentence(rng, rng.choice(kinds)) for _ in range(count)]


def write(path, text):
    """Write UTF-8 text with LF line ends, creating the folder."""
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        os.makedirs(folder)
    with io.open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


#: The sample's own quotas (read by the set builder from ``quotas.json``): what its few sentences can fill, so
#: that ``make`` builds it without a shortfall.
QUOTAS = {"cs": 10, "mono": 30}


def generate(out):
    """Write the sample under ``out``."""
    rng = random.Random(SEED)
    write(os.path.join(out, "generation_resources", "dict_en"),
          "".join("%s\t%s\n" % (w.upper(), " ".join(phones(w, "en"))) for w in sorted(ENGLISH)))
    write(os.path.join(out, "generation_resources", "dict_sp"),
          "".join("%s\t%s\n" % (w, " ".join(phones(w, "sp"))) for w in sorted(SPANISH)))
    for lang, words in (("en", ENGLISH), ("sp", SPANISH)):
        write(os.path.join(out, "generation_resources", "probs_%s.txt" % lang),
              "".join("%s\t%d\n" % (w.upper(), rng.randint(5, 5000)) for w in sorted(words)))
    write(os.path.join(out, "mappings", "mappings.json"),
          json.dumps({"map_phones_l1": MAP_L1, "map_phones_l2": {}}, indent=1, sort_keys=True) + "\n")
    write(os.path.join(out, "mappings", "mappings_subs.json"),
          json.dumps({"all_phones": PHONES, "subs_mapping": SIMILAR}, indent=1, sort_keys=True) + "\n")
    for split, count in (("train", 300), ("dev", 90), ("test", 90)):
        write(os.path.join(out, "bangor_raw", "bangor_%s_gold" % split), "\n".join(sentences(rng, count)) + "\n")
    # The hidden test sentences, kept apart as a release's test gold would be (`make` builds the test sets from them,
    # so the sample's test phase is a real one; its public bangor_test_gold would make it a practice phase).
    write(os.path.join(out, "test_gold", "bangor_test_gold"), "\n".join(sentences(random.Random(SEED + 1), 90)) + "\n")
    write(os.path.join(out, "quotas.json"), json.dumps(QUOTAS, sort_keys=True) + "\n")
    write(os.path.join(out, "PROVENANCE.md"),
          "# SpanglishEval sample (synthetic)\n\nWritten by `generate.py` (seeded): invented words, pronunciations "
          "by a letter rule, invented counts and sentences. Nothing here comes from the Bangor corpus or the "
          "CMU dictionaries; it only has their layout.\n")


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=HERE)
    generate(parser.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
