"""One gold sentence -> its alternatives of the three types (code-switched, English only, Spanish only).

The recipe (paper section 4 and appendix A.1, read from the authors' scripts and re-implemented):

* the gold's words become phones through the dictionary of their language tag (first pronunciation);
* **monolingual** alternatives decode the whole phone sequence with one language's words: the 100 best
  paths, distinct word sequences different from the gold, the first 10 kept, the gold's final punctuation
  appended;
* **code-switched** alternatives re-decode a random segment of 4 to 8 words (the whole sentence when it is
  shorter) with the words of both languages: the 1000 best, kept when they differ from the segment and make
  the sentence code-switched; re-scored by the heuristic (more words, more words of the language that was
  less dominant in the segment, longer words of that language), the 50 best by it kept, and of those the
  10 that share fewest words with the segment (recall + precision of the segment's words). Up to 5 segments
  are tried until one gives an alternative.

Sentences are lists of ``word__lang`` tokens, lower-cased, plus an optional final punctuation token.
Punctuation inside a sentence is dropped from the gold as well as the alternatives (the recipe dropped it
from the alternatives only, which marks the gold).
"""
from competitions.spanglisheval import decoder

MONO_KBEST = 100
CS_KBEST = 1000
KEEP = 10
CS_RESCORED = 50
SEGMENT = (4, 8)
SEGMENT_TRIES = 5


class Gold(object):
    """A parsed gold line: ``words`` [(WORD, lang), ...] (upper-cased), ``final`` punctuation or ''."""

    def __init__(self, line):
        tokens = line.split()
        self.words = []
        for token in tokens:
            word, sep, lang = token.rpartition("__")
            if sep and word and lang in ("en", "sp"):
                self.words.append((word.upper(), lang))
        self.final = tokens[-1] if tokens and "__" not in tokens[-1] else ""

    def is_cs(self):
        """Code-switched: words of both languages (the authors' ``detect_lang`` rule)."""
        return len(set(lang for _, lang in self.words)) == 2

    def kind(self):
        """'cs', 'en' or 'sp' (a sentence without tagged words counts as 'en' and is filtered as short)."""
        if self.is_cs():
            return "cs"
        return self.words[0][1] if self.words else "en"

    def tokens(self):
        """The tagged tokens, upper-cased as in the search."""
        return tuple("%s__%s" % pair for pair in self.words)

    def text(self):
        """The gold as written in the sets."""
        return render(self.tokens(), self.final)


def render(tokens, final):
    """A sentence as written in the sets: lower-cased tagged tokens, then the final punctuation."""
    words = [t.lower() for t in tokens]
    return " ".join(words + ([final] if final else []))


def in_vocabulary(words, lexicons):
    """Every (WORD, lang) is in its language's lexicon."""
    return all(word in lexicons[lang] for word, lang in words)


def phones_of(words, lexicons):
    """The phone sequence of (WORD, lang) pairs (first pronunciation of each)."""
    phones = []
    for word, lang in words:
        phones.extend(lexicons[lang].first_pron(word))
    return phones


def monolingual(gold, lang, lexicons, tries, changes):
    """Up to 10 alternatives in ``lang`` only, best first."""
    phones = phones_of(gold.words, lexicons)
    original = gold.tokens()
    found = []
    for _, words in decoder.kbest(phones, [tries[lang]], changes, MONO_KBEST):
        if words != original:
            found.append(render(words, gold.final))
            if len(found) == KEEP:
                break
    return found


def count_per_lang(tokens):
    """(total, English, Spanish) word counts of tagged tokens."""
    english = sum(1 for t in tokens if t.endswith("__en"))
    return len(tokens), english, len(tokens) - english


def avg_len(tokens, lang):
    """Mean spelling length of the words of ``lang`` (0 when there are none)."""
    lengths = [len(t.rpartition("__")[0]) for t in tokens if t.endswith("__" + lang)]
    return float(sum(lengths)) / len(lengths) if lengths else 0.0


def heuristic(segment, option):
    """The recipe's score of a code-switched option (higher is better).

    More words than the segment, fewer words of the segment's dominant language and more of the other,
    and longer words of the other language (English dominates only when it has more words).
    """
    total0, en0, sp0 = count_per_lang(segment)
    total, en, sp = count_per_lang(option)
    score = -(total0 - total)
    if en0 > sp0:
        return score + (en0 - en) - (sp0 - sp) + 3 * avg_len(option, "sp")
    return score + (sp0 - sp) - (en0 - en) + 3 * avg_len(option, "en")


def overlap(segment, option):
    """Recall + precision of the segment's distinct words in the option (lower = more different)."""
    original, words = set(segment), set(option)
    shared = len(original & words)
    return float(shared) / len(original) + float(shared) / len(words)


def choose_segment(rng, length):
    """(start, length) of the segment to re-decode, drawn with ``rng``."""
    low, high = SEGMENT[0], min(SEGMENT[1], length)
    low = min(low, high)
    size = rng.randint(low, high)
    return rng.randint(0, length - size), size


def cs_options(gold, start, size, lexicons, tries, changes):
    """Distinct decodings of a segment that differ from it and make the sentence code-switched."""
    tokens = gold.tokens()
    segment = tokens[start:start + size]
    phones = phones_of(gold.words[start:start + size], lexicons)
    rest = tokens[:start] + tokens[start + size:]
    langs_rest = set(t.rpartition("__")[2] for t in rest)
    options = []
    for _, words in decoder.kbest(phones, [tries["en"], tries["sp"]], changes, CS_KBEST):
        langs = langs_rest | set(w.rpartition("__")[2] for w in words)
        if words != segment and len(langs) == 2:
            options.append(words)
    return segment, options


def code_switched(gold, rng, lexicons, tries, changes):
    """Up to 10 code-switched alternatives (segment re-decoded with both languages, re-scored)."""
    tokens = gold.tokens()
    segment, options, start, size = (), [], 0, 0
    for _ in range(SEGMENT_TRIES):
        start, size = choose_segment(rng, len(tokens))
        if not in_vocabulary(gold.words[start:start + size], lexicons):
            continue
        segment, options = cs_options(gold, start, size, lexicons, tries, changes)
        if options:
            break
    ranked = sorted(range(len(options)), key=lambda i: (-heuristic(segment, options[i]), i))[:CS_RESCORED]
    ranked = sorted(ranked, key=lambda i: (overlap(segment, options[i]), i))[:KEEP]
    return [render(tokens[:start] + options[i] + tokens[start + size:], gold.final) for i in ranked]


def alternatives(gold, rng, lexicons, tries, changes):
    """{"cs": [...], "en": [...], "sp": [...]} for a gold whose words are all in the vocabulary."""
    found = {"cs": code_switched(gold, rng, lexicons, tries, changes)}
    for lang in ("en", "sp"):
        found[lang] = monolingual(gold, lang, lexicons, tries, changes)
    return found
