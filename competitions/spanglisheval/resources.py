"""Generation resources of the SpanglishEval recipe: pronunciation lexicons, unigram costs, phone changes.

Layout read (``DATA`` = a folder like ``../shared/spanglisheval``)::

    generation_resources/dict_en        WORD<TAB>PHONES (CMU inventory, one pronunciation per line)
    generation_resources/dict_sp        word<TAB>PHONES<TAB>PHONES... (mapped to the CMU inventory)
    generation_resources/probs_en.txt   WORD<TAB>count   (likewise probs_sp.txt)
    mappings/mappings.json              {"map_phones_l1": {English phone: replacement phones}, ...}
    mappings/mappings_subs.json         {"all_phones": [...], "subs_mapping": {phone: [similar phones]}}

Costs are negative natural logarithms. A word costs ``-ln p(word)`` with ``p`` its unigram probability in
its own language (favouring frequent words). The vocabulary follows the recipe's noise filter: words with a
zero count, words ending in ``)`` or ``.`` and one-letter words other than the listed ones are left out.
"""
import io
import json
import math
import os

from evalkit.messages import DataError

LANGS = ("en", "sp")
SINGLE_LETTERS = {"en": "AI", "sp": "AEOUY"}
# Phone-change probabilities of the recipe: phones with similar phones are substituted with probability
# 0.25 (substitution preferred 100:1 over dropping), the others are dropped with probability 0.0025.
SUBSTITUTE_PROB = 0.25
EMIT_PROB = 0.0025
PREFER_SUB = 100.0


def _path(data, *parts):
    """Return ``data/parts`` or raise DataError naming the missing file."""
    path = os.path.join(data, *parts)
    if not os.path.isfile(path):
        raise DataError(path, "", "missing file (expected the SpanglishEval layout under %s)" % data)
    return path


def _lines(path):
    """Yield (line number, stripped line) of a UTF-8 text file, skipping blank lines."""
    with io.open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\r\n")
            if line.strip():
                yield number, line


def read_counts(path):
    """Return {WORD: probability} from a ``WORD<TAB>count`` file (counts normalised to sum to one)."""
    counts = {}
    for number, line in _lines(path):
        parts = line.split("\t")
        try:
            counts[parts[0].upper()] = float(parts[1])
        except (IndexError, ValueError):
            raise DataError(path, "line %d" % number, "expected WORD<TAB>count, got %r" % line[:80])
    total = sum(counts.values()) or 1.0
    return {word: count / total for word, count in counts.items()}


def keep_word(word, lang):
    """The recipe's noise filter: no ``)``/``.`` endings, one-letter words only from the listed ones."""
    if word.endswith(")") or word.endswith("."):
        return False
    return len(word) != 1 or word in SINGLE_LETTERS[lang]


def map_phones(phones, mapping):
    """Replace phones by their mapped sequences (``{"AE": "AA", "EY": "EY Y"}``); return a list of phones."""
    out = []
    for phone in phones.split():
        out.extend(mapping.get(phone, phone).split())
    return out


def read_dictionary(path, mapping):
    """Return {WORD: [phones of its first pronunciation, ...pronunciations]} (keys upper-cased)."""
    prons = {}
    for number, line in _lines(path):
        parts = line.split("\t")
        if len(parts) < 2:
            raise DataError(path, "line %d" % number, "expected WORD<TAB>PHONES, got %r" % line[:80])
        word = parts[0].strip().upper()
        prons.setdefault(word, []).extend(map_phones(p, mapping) for p in parts[1:] if p.strip())
    return prons


class Lexicon(object):
    """One language's vocabulary: pronunciations and costs of the words kept by the noise filter."""

    def __init__(self, lang, prons, probs):
        self.lang = lang
        self.prons = {}
        self.cost = {}
        for word, word_prons in prons.items():
            prob = probs.get(word, 0.0)
            if prob > 0 and keep_word(word, lang) and word_prons:
                self.prons[word] = word_prons
                self.cost[word] = -math.log(prob)

    def __contains__(self, word):
        return word in self.prons

    def first_pron(self, word):
        """The pronunciation used to turn a gold word into phones: the dictionary's first."""
        return self.prons[word][0]


class PhoneChanges(object):
    """Costs of keeping, substituting and dropping each phone (the recipe's phone-change transducer)."""

    def __init__(self, subs_mapping, all_phones):
        self.keep, self.subs, self.drop = {}, {}, {}
        for phone in all_phones:
            similar = [s for s in subs_mapping.get(phone, [])]
            if phone in subs_mapping:
                others = PREFER_SUB * len(similar) + 1
                sub_prob = SUBSTITUTE_PROB * PREFER_SUB / others
                drop_prob = SUBSTITUTE_PROB / others
                if "" in similar:          # a substitution by nothing is one more way to drop the phone
                    drop_prob += sub_prob
                self.keep[phone] = -math.log(1 - SUBSTITUTE_PROB)
                self.subs[phone] = tuple((s, -math.log(sub_prob)) for s in similar if s)
                self.drop[phone] = -math.log(drop_prob)
            else:
                self.keep[phone] = -math.log(1 - EMIT_PROB)
                self.subs[phone] = ()
                self.drop[phone] = -math.log(EMIT_PROB)

    def options(self, phone):
        """(keep cost, ((similar phone, cost), ...), drop cost) of one input phone."""
        return self.keep.get(phone, 0.0), self.subs.get(phone, ()), self.drop.get(phone, -math.log(EMIT_PROB))


def _json(path):
    """Load one JSON file, errors named by file."""
    try:
        with io.open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except ValueError as error:
        raise DataError(path, "", "not valid JSON (%s)" % error)


def load(data):
    """Return (lexicons {"en": Lexicon, "sp": Lexicon}, PhoneChanges) from a SpanglishEval folder."""
    mappings = _json(_path(data, "mappings", "mappings.json"))
    subs = _json(_path(data, "mappings", "mappings_subs.json"))
    phone_maps = {"en": mappings.get("map_phones_l1") or {}, "sp": mappings.get("map_phones_l2") or {}}
    lexicons = {}
    for lang in LANGS:
        prons = read_dictionary(_path(data, "generation_resources", "dict_" + lang), phone_maps[lang])
        probs = read_counts(_path(data, "generation_resources", "probs_%s.txt" % lang))
        lexicons[lang] = Lexicon(lang, prons, probs)
    return lexicons, PhoneChanges(subs.get("subs_mapping") or {}, subs.get("all_phones") or [])
