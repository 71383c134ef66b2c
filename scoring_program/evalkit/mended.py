"""Where the gold is public: what a file would score with a systematic mistake undone, said with its price.

A file written in another convention than the task's (lemmas with sense numbers, tags or features of an older
scheme, features written otherwise than one key per feature) or whose text changed on its way (accents and other
combining marks stripped) is scored as it is; a warning says what happened. Where the phase's gold is public (the
development phase, and the starting kits' validators, which score the development split against the gold they
ship), this module scores the file once more with the mistake undone and says both scores in the warning, in the
words every priced mistake ends with (:func:`evalkit.floor.price_text`): "Priced on this phase's gold, the file
scores 0.1203 as written and 0.8516 with the marks kept". A file that would score more than
:data:`evalkit.floor.LOSS_FACTOR` times as much mended ends its message with :data:`evalkit.messages.LOSS_NOTE`: the
kits' validators count it and exit 1 (:func:`evalkit.verdict.loss_files`). Scores are never changed.

Two sources:
- a check that reported the mistake (:mod:`evalkit.inventory`) says how to undo it
  (:meth:`evalkit.messages.MessageLog.mend`); :func:`price_file` scores the mended prediction and appends the price
  to that check's message;
- mistakes only the gold shows: candidates whose gold carries accents or other marks that they lost
  (:func:`stripped_marks`), candidates that went through another normalisation of the same class (a table of named
  ones, :data:`NORMALISATIONS`: lower-cased, the final sigma, u for v, marks added, an apostrophe for U+0313;
  :func:`normalised`), and tags of the other scheme than the gold's, in a language whose training data is not
  known (:func:`older_labels`).

Everything here runs only where the gold is public and on a file that has something to say: a file right at rank 1,
or whose golds carry no mark, costs a set operation or two.
"""
import unicodedata
from collections import Counter
from itertools import chain

from . import floor
from .messages import WARNING, printable, quoted, MAX_TEXT_CHARS

#: What every price says first (:func:`evalkit.floor.price_text`; a validator that checks a submission without the
#: gold, then scores it against the gold apart, picks the priced messages by it: :func:`gold_messages`).
PRICE_MARK = "Priced on this phase's gold, the file scores "
#: Candidates that lost their marks are said from this many items on, with at least this many distinct candidates
#: (a constant chooser, the floor's three most frequent characters, meets a gold without its marks now and then; a
#: gap that hid a lone mark, left "", counts as its gold).
MIN_STRIPPED = 5
MIN_STRIPPED_DISTINCT = 3
#: ... once this many items whose gold carries marks were looked at without one, the file is left alone.
SAMPLE_MARKED = 64
#: ... and only when the first candidates of the file hold the marks (and letters) the stripped ones lost at most
#: this share of the times the golds do: a system that writes them now and then (a character model choosing "i"
#: where "\u00ed" is less frequent, a floor copying forms that have fewer accents than their lemmas) does not
#: strip them.
MAX_KEPT_SHARE = 0.1
#: ... and when the input's text (the forms, the masked lines) holds them at least this share of the times the golds
#: do: marks that only the golds write (Gothic lemmas' macrons, which its forms lack) were never in the text to lose.
MIN_INPUT_SHARE = 0.25
#: The kind (class) of the warning of :func:`stripped_marks`.
STRIPPED_KIND = "candidates without the marks of their gold"
#: Letters that an ASCII folding (unidecode, an accent-folding filter) writes otherwise than by dropping a mark.
_FOLDED = str.maketrans({"\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE", "\u00df": "ss",
                         "\u00fe": "th", "\u00de": "Th", "\u00f0": "d", "\u00d0": "D", "\u00f8": "o", "\u00d8": "O",
                         "\u0142": "l", "\u0141": "L", "\u0111": "d", "\u0110": "D", "\u0131": "i", "\u0127": "h",
                         "\u0126": "H", "\u014b": "ng", "\u017f": "s", "\u021d": "g", "\u01bf": "w"})


#: No marks (shared, never changed).
_NO_MARKS = Counter()
#: Whether a character is a combining mark (categories Mn and Me), learnt once per character.
_IS_MARK = {}


def _is_mark(char):
    known = _IS_MARK.get(char)
    if known is None:
        known = _IS_MARK[char] = unicodedata.category(char) in ("Mn", "Me")
    return known


def decompose(text):
    """``(letters, marks)`` of ``text``: its text with every combining mark (Unicode categories Mn and Me: accents,
    breathings, Hebrew points, the Cyrillic titlo) removed and the letters an ASCII folding rewrites folded
    (``\u00e6`` -> ``ae``), in NFC; and how many times it carries each mark (a Counter, in NFD). C-level passes over
    the text, a Python step per distinct character only.

    >>> decompose("\u1f04\u03bd\u03b8\u03c1\u03c9\u03c0\u03bf\u03c2")[0], decompose("\u00fe\u00e1")
    ('\u03b1\u03bd\u03b8\u03c1\u03c9\u03c0\u03bf\u03c2', ('tha', Counter({'\u0301': 1})))
    """
    if text.isascii():
        return text, _NO_MARKS
    nfd = unicodedata.normalize("NFD", text)
    counts = Counter(nfd)
    marks = Counter(dict((char, counts[char]) for char in counts if _is_mark(char)))
    letters = nfd.translate(dict.fromkeys(map(ord, marks))) if marks else nfd
    return unicodedata.normalize("NFC", letters.translate(_FOLDED)), marks


class _Decomposed(dict):
    """``memo[text]``: :func:`decompose` of ``text``, once per distinct string."""

    def __missing__(self, text):
        value = self[text] = decompose(text)
        return value


def marked(text, memo=None):
    """Whether ``text`` carries a combining mark or a letter an ASCII folding rewrites (its letters are not itself)."""
    letters, marks = (memo or _Decomposed())[text]
    return bool(marks) or letters != text


def is_stripped(candidate, gold, memo=None):
    """Whether ``candidate`` is ``gold`` with some or all of its marks removed (or its letters ASCII-folded): the same
    letters, none of the marks ``gold`` lacks, and not ``gold`` itself (NFC and NFD count as the same).

    >>> is_stripped("\u03ba\u03b1\u03b9", "\u03ba\u03b1\u1f76"), is_stripped("\u03b5\u03bd", "\u1f10\u03bd")
    (True, True)
    >>> is_stripped("thing", "\u00feing")
    True
    >>> is_stripped("\u1f70", "\u03ac"), is_stripped("cafe\u0301", "caf\u00e9"), is_stripped("a", "b")
    (False, False, False)
    """
    if type(candidate) is not str or candidate == gold:
        return False
    memo = _Decomposed() if memo is None else memo
    letters, marks = memo[gold]
    if not marks and letters == gold:
        return False
    got, got_marks = memo[candidate]
    if got != letters or got_marks - marks:
        return False
    return unicodedata.normalize("NFC", candidate) != unicodedata.normalize("NFC", gold)


def price_text(as_written, mended, how):
    """The sentence a priced message ends with (:func:`evalkit.floor.price_text`): both scores, and
    :data:`evalkit.messages.LOSS_NOTE` when the mistake costs most of the score.

    >>> price_text(0.1, 0.8, "with the marks kept")
    " Priced on this phase's gold, the file scores 0.1000 as written and 0.8000 with the marks kept (this file \
loses most of its score)."
    """
    return " " + floor.price_text({"as_written": as_written, "mended": mended}, how)


def paired(first, second):
    """``zip`` that refuses sequences of different lengths (a mismatch is a bug, never silently cut)."""
    if len(first) != len(second):
        raise ValueError("cannot pair %d items with %d" % (len(first), len(second)))
    return zip(first, second)


def _priced(message, text):
    """Append ``text`` to ``message`` (a :class:`~evalkit.messages.Message`), its end kept."""
    message.text = printable(message.text + text, MAX_TEXT_CHARS)


def score_of(kind, ref, pred, task):
    """The file score of ``pred`` against ``ref`` (details left out where the kind allows it)."""
    if getattr(kind, "optional_details", False):
        entry = kind.score(ref, pred, task, details=False)
    else:
        entry = kind.score(ref, pred, task)
    return kind.score_value(entry.components)


def _gain(kind, ref, pred, task, mend, as_written):
    """The file score of ``pred`` mended (``mend(pred)``) when it is above ``as_written``, else None."""
    mended = score_of(kind, ref, mend(pred), task)
    return mended if mended > as_written else None


def price_file(kind, ref, pred, task, log, as_written):
    """Where the gold is public: the messages of ``log`` whose check said how to undo its mistake
    (``log.mends``) get the file's score as written (``as_written``) and mended; then the mistakes only the gold
    shows (:func:`stripped_marks`, :func:`older_labels`, :func:`older_features`) are said with their price. Returns
    whether a message was priced (the file's messages then say why it scores low: a floor's generic causes are not
    needed). A file that scores 1 as written has nothing to gain: nothing is done."""
    if as_written >= 1.0:
        return False
    scored, priced = {}, False
    for key, (what, mend) in log.mends.items():
        message = log.find(key)
        if message is None:
            continue
        if mend not in scored:
            scored[mend] = score_of(kind, ref, mend(pred), task)
        if scored[mend] > as_written:
            _priced(message, price_text(as_written, scored[mend], what))
            priced = True
    for check in (stripped_marks, normalised, older_labels, older_features):
        priced = check(kind, ref, pred, task, log, as_written) or priced
    return priced


# --------------------------------------------------------------------------- marks stripped on the way

def _marked_chars(golds, memo):
    """The characters of ``golds`` (per sentence its gold strings, None or empty for a sentence not scored) that carry
    a mark or that an ASCII folding rewrites: C-level passes over the distinct golds joined, a Python step per distinct
    character that is not ASCII."""
    distinct = set(chain.from_iterable(filter(None, golds)))
    try:
        chars = set("".join(distinct))
    except TypeError:   # a gold that is not a string
        chars = set(chain.from_iterable(gold for gold in distinct if type(gold) is str))
    return frozenset(char for char in chars if not char.isascii() and marked(char, memo))


def _stripped_items(golds, pred, memo):
    """``(stripped, kept, marked)`` over the items of ``golds`` (per sentence its golds, None or empty for a sentence
    not scored) and ``pred`` (per sentence one candidate sequence per item, None for a sentence scored 0) whose gold
    carries marks: the ``(si, ti, first candidate, gold)`` of those whose first candidate is the gold with its marks
    removed, the count of those whose first candidate is the gold itself, and how many were looked at. Stops at
    :data:`SAMPLE_MARKED` items looked at without one stripped."""
    stripped, kept, looked = [], 0, 0
    golds_marked = {}
    chars = _marked_chars(golds, memo)
    if not chars:
        return stripped, kept, looked
    for si, (sent_golds, cands) in enumerate(paired(golds, pred)):
        if not sent_golds or cands is None or len(cands) != len(sent_golds) or chars.isdisjoint("".join(sent_golds)):
            continue
        for ti, (gold, items) in enumerate(paired(sent_golds, cands)):
            if type(gold) is not str:
                continue
            if gold not in golds_marked:
                golds_marked[gold] = marked(gold, memo)
            if not golds_marked[gold]:
                continue
            looked += 1
            first = items[0] if type(items) in (list, tuple) and items else None
            if type(first) is str and (first == gold or unicodedata.normalize("NFC", first) == gold):
                kept += 1
            elif is_stripped(first, gold, memo):
                stripped.append((si, ti, first, gold))
        if looked >= SAMPLE_MARKED and not stripped:
            break
    return stripped, kept, looked


def _lost_units(stripped, memo):
    """The characters (combining marks in NFD, and letters an ASCII folding rewrites) that the first candidates of
    ``stripped`` (:func:`_stripped_items`) lost from their golds."""
    lost = set()
    for _, _, first, gold in stripped:
        lost.update(memo[gold][1] - memo[first][1])
        lost.update(char for char in gold if ord(char) in _FOLDED and char not in first)
    return lost


def _shares(golds, pred, text, lost):
    """``(kept, input)``: how often the first candidates of ``pred``, and the input's ``text`` (strings), hold the
    characters of ``lost``, each as a share of how often the golds of ``golds`` do (counted in NFD over the whole
    file, C-level counts of the texts joined)."""
    gold_text = unicodedata.normalize("NFD", "\x00".join(chain.from_iterable(filter(None, golds))))
    in_golds = float(sum(map(gold_text.count, lost)))
    if not in_golds:
        return 1.0, 0.0
    firsts = [items[0] for sent in pred if sent for items in sent
              if type(items) in (list, tuple) and items and type(items[0]) is str]
    first_text = unicodedata.normalize("NFD", "\x00".join(firsts))
    input_text = unicodedata.normalize("NFD", "\x00".join(item for item in text if type(item) is str))
    return sum(map(first_text.count, lost)) / in_golds, sum(map(input_text.count, lost)) / in_golds


def _restore(golds, pred, memo):
    """``pred`` with every candidate that is its item's gold without its marks replaced by the gold ("" only at
    rank 1: ``""`` after a candidate is padding, not a stripped gold)."""
    mended = []
    for sent_golds, cands in paired(golds, pred):
        if not sent_golds or cands is None or len(cands) != len(sent_golds):
            mended.append(cands)
            continue
        mended.append([tuple(gold if (c or not rank) and type(gold) is str and is_stripped(c, gold, memo) else c
                             for rank, c in enumerate(items)) if type(items) in (list, tuple) else items
                       for gold, items in paired(sent_golds, cands)])
    return mended


def _pairs_shown(found):
    """The three commonest ``(first candidate, gold)`` pairs of ``found`` (``(sentence, item, first, gold)``), for a
    message: ``'a' for 'á' (3 times), ...``."""
    pairs = Counter((first, gold) for _, _, first, gold in found)
    return ", ".join("%s for %s (%s time%s)" % (quoted(first, 30), quoted(gold, 30), "{:,}".format(count),
                                               "" if count == 1 else "s")
                     for (first, gold), count in pairs.most_common(3))


def stripped_marks(kind, ref, pred, task, log, as_written):
    """One warning when the candidates of ``pred`` lost their accents or other combining marks on the way (a
    normalisation that strips them: NFD then dropping the marks, unidecode, an accent folding): at least
    :data:`MIN_STRIPPED` items, :data:`MIN_STRIPPED_DISTINCT` distinct candidates, have as their first candidate the
    gold without some or all of its marks, the file's first candidates hold the marks they lost at most
    :data:`MAX_KEPT_SHARE` of the times the golds do, and the input's text at least :data:`MIN_INPUT_SHARE` of them
    (so that they were there to lose). Said with the score as written and with the marks kept. A kind of ranked
    candidates that gives the golds of its items (``item_golds``) and its input's text (``item_text``) only; the
    items are walked only in a file whose golds carry marks, and no further than :data:`SAMPLE_MARKED` of them when
    none is stripped."""
    golds_of, text_of = getattr(kind, "item_golds", None), getattr(kind, "item_text", None)
    if golds_of is None or text_of is None:
        return
    golds = golds_of(ref)
    if len(golds) != len(pred):
        return
    memo = _Decomposed()
    stripped, kept, looked = _stripped_items(golds, pred, memo)
    distinct = set(first or gold for _, _, first, gold in stripped)   # ("" for a lone mark: its gold's own)
    if len(stripped) < MIN_STRIPPED or len(distinct) < MIN_STRIPPED_DISTINCT:
        return
    kept_share, input_share = _shares(golds, pred, text_of(ref), _lost_units(stripped, memo))
    if kept_share > MAX_KEPT_SHARE or input_share < MIN_INPUT_SHARE:
        return
    mended = _gain(kind, ref, pred, task, lambda written: _restore(golds, written, memo), as_written)
    if mended is None:
        return
    shown = _pairs_shown(stripped)
    where = kind.item_where
    first_at = "; ".join(where(si, ti) for si, ti, _, _ in stripped[:3])
    log.add(WARNING, where(stripped[0][0], stripped[0][1]), (
        "%s of the %s items whose gold has accents, other marks or letters such as \u00fe and \u00e6 have as "
        "their first candidate the gold without them, and %s the gold itself: %s; first at %s. The text lost its "
        "marks on the way (a normalisation that strips them: NFD then dropping the combining characters, "
        "unidecode, an accent or ASCII folding). Candidates are compared with their marks (NFC and NFD count as "
        "the same, nothing else): keep the accents, breathings, points and titlos of the text.%s" % (
            "{:,}".format(len(stripped)), "{:,}".format(looked), "{:,}".format(kept), shown, first_at,
            price_text(as_written, mended, "with the marks kept"))),
        kind=STRIPPED_KIND)
    return True


# --------------------------------------------------------------------------- other normalisations on the way

def _without_marks(text):
    """``text`` without its combining marks (NFD, Mn and Me dropped, NFC)."""
    if text.isascii():
        return text
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in nfd if not _is_mark(c)))


_ELISION = str.maketrans({"\u2019": "\u0313", "\u1fbd": "\u0313", "\u02bc": "\u0313", "\u1fbf": "\u0313"})


class Normalisation(object):
    """A normalisation a text may go through on its way to the file, as :func:`normalised` looks for it: ``name``
    (what the text went through), ``change(text)``, ``direction``: ``"lost"`` (the candidate is ``change(gold)``:
    something the gold holds was lost) or ``"added"`` (``change(candidate)`` is the gold: something was added),
    ``applies(gold)`` (a cheap test that the gold can be changed so), ``fix`` (what to do) and ``how`` (the price's
    words)."""

    def __init__(self, name, change, direction, applies, fix, how):
        self.name, self.change, self.direction, self.applies = name, change, direction, applies
        self.fix, self.how = fix, how

    def hit(self, first, gold):
        """Whether ``first`` (a string other than ``gold``) is ``gold`` gone through this normalisation."""
        if self.direction == "lost":
            return self.applies(gold) and self.change(gold) == first
        return self.applies(first) and self.change(first) == gold


#: The normalisations :func:`normalised` looks for, in order (a candidate is counted under the first that explains
#: it); the marks stripped are :func:`stripped_marks`'s.
NORMALISATIONS = (
    Normalisation("lower-cased", str.lower, "lost", lambda gold: gold != gold.lower(),
                  "keep the capitals of the text (the gold capitalises proper names and their lemmas): do not "
                  "lower-case candidates", "with the capitals kept"),
    Normalisation("with the final sigma \u03c2 written \u03c3", lambda text: text.replace("\u03c2", "\u03c3"), "lost",
                  lambda gold: "\u03c2" in gold, "write \u03c2 (U+03C2) at the end of a word, as the gold does",
                  "with the final sigma kept"),
    Normalisation("with v written u (u for v, as LASLA writes Latin)",
                  lambda text: text.replace("v", "u").replace("V", "U"), "lost", lambda gold: "v" in gold or "V" in gold,
                  "write v where the gold has it (the treebank distinguishes u and v)", "with v kept"),
    Normalisation("with marks added that the gold does not write (macrons, vowel points, accents)", _without_marks,
                  "added", lambda first: not first.isascii(),
                  "write the text as the treebank does, without the marks it does not write (a lexicon's macrons or "
                  "vowel points)", "without the added marks"),
    Normalisation("with the elision or koronis mark U+0313 written as an apostrophe (\u2019, \u1fbd or \u02bc)",
                  lambda text: text.translate(_ELISION), "added",
                  lambda first: "\u2019" in first or "\u1fbd" in first or "\u02bc" in first or "\u1fbf" in first,
                  "write the mark as the gold does: U+0313 COMBINING COMMA ABOVE", "with U+0313 for the apostrophe"),
)
#: A normalisation is said from :data:`MIN_STRIPPED` items and :data:`MIN_STRIPPED_DISTINCT` distinct candidates
#: on; a "lost" one only when the first candidates keep what it loses at most :data:`MAX_KEPT_SHARE` of the times.
#: At most this many wrong first candidates are looked at without a hit.
SAMPLE_WRONG = 256
#: An "added" normalisation is said only when it explains at least this share of the wrong first candidates (a
#: model that writes the marks of the text now and then where the gold has none is no normalisation).
MIN_ADDED_SHARE = 0.25


def _normalised_items(golds, pred):
    """``{normalisation: [(si, ti, first, gold)]}`` over the items whose first candidate is not the gold, and under
    None how many such items were looked at."""
    hits = dict((norm, []) for norm in NORMALISATIONS)
    hits[None] = wrong = 0
    for si, (sent_golds, cands) in enumerate(paired(golds, pred)):
        if not sent_golds or cands is None or len(cands) != len(sent_golds):
            continue
        for ti, (gold, items) in enumerate(paired(sent_golds, cands)):
            first = items[0] if type(items) in (list, tuple) and items else None
            if type(gold) is not str or type(first) is not str or first == gold or not first:
                continue
            wrong += 1
            for norm in NORMALISATIONS:
                if norm.hit(first, gold):
                    hits[norm].append((si, ti, first, gold))
                    break
        if wrong >= SAMPLE_WRONG and not any(found for norm, found in hits.items() if norm is not None):
            break
    hits[None] = wrong
    return hits


def _kept(golds, pred, norm):
    """How many items whose gold ``norm`` (a "lost" one) changes have the gold itself as their first candidate."""
    kept = 0
    for sent_golds, cands in paired(golds, pred):
        if not sent_golds or cands is None or len(cands) != len(sent_golds):
            continue
        for gold, items in paired(sent_golds, cands):
            if type(gold) is str and type(items) in (list, tuple) and items and items[0] == gold and \
                    norm.applies(gold) and norm.change(gold) != gold:
                kept += 1
    return kept


def _undone(golds, pred, norm):
    """``pred`` with every candidate that is its item's gold gone through ``norm`` replaced by the gold."""
    mended = []
    for sent_golds, cands in paired(golds, pred):
        if not sent_golds or cands is None or len(cands) != len(sent_golds):
            mended.append(cands)
            continue
        mended.append([tuple(gold if type(gold) is str and type(c) is str and c and c != gold and norm.hit(c, gold)
                             else c for c in items) if type(items) in (list, tuple) else items
                       for gold, items in paired(sent_golds, cands)])
    return mended


def normalised(kind, ref, pred, task, log, as_written):
    """One warning per normalisation of :data:`NORMALISATIONS` that the candidates of ``pred`` went through on
    their way (lower-cased, final sigma, u for v, marks added, an apostrophe for U+0313): where the gold is public,
    the items whose first candidate equals the gold only after it (never the gold itself), from
    :data:`MIN_STRIPPED` items and :data:`MIN_STRIPPED_DISTINCT` distinct candidates on, with the price (every such
    candidate replaced by its gold). A kind that gives its items' golds (``item_golds``) only; the wrong first
    candidates are walked no further than :data:`SAMPLE_WRONG` without a hit."""
    golds_of = getattr(kind, "item_golds", None)
    if golds_of is None or log.find(STRIPPED_KIND):
        return
    golds = golds_of(ref)
    if len(golds) != len(pred):
        return
    said, inputs = False, None
    hits = _normalised_items(golds, pred)
    wrong = hits.pop(None)
    for norm, found in hits.items():
        if len(found) < MIN_STRIPPED or (norm.direction == "added" and len(found) < MIN_ADDED_SHARE * wrong):
            continue
        if inputs is None:   # a candidate that is the input's own text (a floor copying forms) went through nothing
            inputs = frozenset(item for item in (getattr(kind, "item_text", lambda ref: ())(ref)) if type(item) is str)
        found = [hit for hit in found if hit[2] not in inputs]
        if len(found) < MIN_STRIPPED or len(set(first for _, _, first, _ in found)) < MIN_STRIPPED_DISTINCT:
            continue
        if norm.direction == "lost" and _kept(golds, pred, norm) > MAX_KEPT_SHARE * (len(found) + _kept(golds, pred,
                                                                                                       norm)):
            continue
        mended = _gain(kind, ref, pred, task, lambda written, norm=norm: _undone(golds, written, norm), as_written)
        if mended is None:
            continue
        shown = _pairs_shown(found)
        where = kind.item_where
        log.add(WARNING, where(found[0][0], found[0][1]), (
            "%s items have as their first candidate the gold %s: %s; first at %s. The text was changed on its way "
            "(a normalisation step, a lexicon or a tool of another convention); candidates are compared as they are: "
            "%s.%s" % ("{:,}".format(len(found)), norm.name, shown,
                       "; ".join(where(si, ti) for si, ti, _, _ in found[:3]), norm.fix,
                       price_text(as_written, mended, norm.how))),
            kind="candidates %s" % norm.name)
        said = True
    return said


# --------------------------------------------------------------------------- tags of the other scheme

class LabelMend(object):
    """A mend that renames labels (``mapping``: ``{label as written: label meant}``), for a kind whose parsed
    prediction holds one label per item (per sentence a list, None for a sentence scored 0)."""

    def __init__(self, mapping):
        self.mapping = dict(mapping)

    def __call__(self, pred):
        get = self.mapping.get
        return [None if tags is None else [get(tag, tag) if type(tag) is str else tag for tag in tags]
                for tags in pred]


def _scheme_renaming(task, golds, predicted):
    """``{tag as written: the gold's tag}`` for the tags of ``predicted`` that the gold (``golds``) never uses while
    it uses their other spelling in the task's older scheme (``task.older_scheme``): an older tag for a newer one
    (UD v1's CONJ for CCONJ) or the reverse (a language whose gold keeps the older tag)."""
    scheme = getattr(task, "older_scheme", None)
    older = (scheme[2].get("labels") or {}) if scheme else {}
    pairs = list(older.items()) + [(new, old) for old, new in older.items()]
    return dict((written, meant) for written, meant in pairs
                if written in predicted and written not in golds and meant in golds)


def older_labels(kind, ref, pred, task, log, as_written):
    """One warning when tags of ``pred`` are the other spelling of the gold's in the task's older scheme
    (``task.older_scheme``), the gold never using them: UD v1's CONJ where the gold has CCONJ, or CCONJ where a
    language's gold keeps CONJ. Said only where no check already named them (a language whose training data is not
    known: those checks say only what they are sure of) and with the price. A tagging kind that gives its gold and
    predicted tag sets (``label_sets``) only."""
    sets = getattr(kind, "label_sets", None)
    if sets is None or not getattr(task, "older_scheme", None):
        return
    golds, predicted = sets(ref, pred)
    renaming = _scheme_renaming(task, golds, predicted)
    for _, mend in log.mends.values():   # already named (and priced) by a check
        for written in getattr(mend, "mapping", ()):
            renaming.pop(written, None)
    if not renaming:
        return
    mended = _gain(kind, ref, pred, task, LabelMend(renaming), as_written)
    if mended is None:
        return
    found = Counter()
    first = None
    for si, tags in enumerate(pred):
        if not tags or renaming.keys().isdisjoint(tags):
            continue
        for ti, tag in enumerate(tags):
            if tag in renaming:
                found[tag] += 1
                first = first or (si, ti)
    older, newer, renamed = task.older_scheme
    olds = renamed.get("labels") or {}
    said = "; ".join("%s tokens are tagged %s, a tag this file's gold never uses: it writes %s (%s)" % (
        "{:,}".format(found[written]), quoted(written, 20), quoted(meant, 20),
        "%s's %s, renamed %s in %s" % (older, written, meant, newer) if written in olds else
        "the %s name of %s, which this language's treebank keeps" % (older, written))
        for written, meant in sorted(renaming.items()))
    what = "with %s" % ", ".join("%s written %s" % (quoted(w, 20), quoted(m, 20)) for w, m in sorted(renaming.items()))
    log.add(WARNING, kind.item_where(*first), "%s. A tag is compared as it is: write the gold's scheme.%s" % (
        said, price_text(as_written, mended, what)), kind="tags of the gold's other scheme")
    return True


class CandidateMend(object):
    """A mend that rewrites every candidate string (``rewrite(candidate)``), for a kind whose parsed prediction holds
    per sentence one candidate sequence per item (None for a sentence scored 0)."""

    def __init__(self, rewrite):
        self.rewrite = rewrite

    def __call__(self, pred):
        rewrite = self.rewrite
        return [None if sent is None else [tuple(rewrite(c) for c in items) if type(items) in (list, tuple)
                                           else items for items in sent] for sent in pred]


# --------------------------------------------------------------------------- features of the other scheme

class FeatureRename(object):
    """A mend that renames (feature, value) pairs (``mapping``: ``{(name, value) as written: (name, value)
    meant}``), for a kind whose parsed prediction holds per sentence ``(forms, token objects)`` (None for a
    sentence scored 0)."""

    def __init__(self, mapping):
        self.mapping = dict(mapping)

    def __call__(self, pred):
        return [None if sent is None else (sent[0], [self.token(tok) for tok in sent[1]]) for sent in pred]

    def token(self, tok):
        """``tok`` with its pairs renamed (a new object; ``tok`` itself when it holds none)."""
        get = self.mapping.get
        try:
            if self.mapping.keys().isdisjoint(tok.items()):
                return tok
        except TypeError:   # an unhashable value: pair by pair
            pass
        out = {}
        for key, value in tok.items():
            try:
                key, value = get((key, value), (key, value))
            except TypeError:
                pass
            out[key] = value
        return out


def _parts(pairs):
    """``{feature: the values it takes}`` over ``pairs`` ((feature, value) pairs; a multi-value ``Int,Rel`` gives
    both)."""
    found = {}
    for name, value in pairs:
        if type(value) is str:
            found.setdefault(name, set()).update(value.split(","))
    return found


def _feature_renaming(renamed, golds, predicted):
    """``{(name, value) as written: (name, value) of the gold's scheme}`` for the pairs of ``predicted`` that the gold
    (``golds``, its pairs) never uses while it uses the other spelling of their name or value in an older scheme
    (``renamed``: ``Task.older_scheme``'s third item), either way."""
    names = dict(renamed.get("features") or {})
    names.update((new, old) for old, new in (renamed.get("features") or {}).items())
    gold_values = _parts(golds)
    found = {}
    for name, value in predicted:
        if type(value) is not str or (name, value) in golds:
            continue
        meant = names.get(name)
        if meant is None or name in gold_values or meant not in gold_values:
            meant = name
        values = dict(renamed.get("values", {}).get(meant) or {})
        values.update((new, old) for old, new in (renamed.get("values", {}).get(meant) or {}).items())
        known = gold_values.get(meant, set())
        parts = [values[part] if part not in known and values.get(part) in known else part
                 for part in value.split(",")]
        if (meant, ",".join(parts)) != (name, value):
            found[(name, value)] = (meant, ",".join(parts))
    return found


def older_features(kind, ref, pred, task, log, as_written):
    """One warning when feature names or values of ``pred`` are the other spelling of the gold's in the task's
    older scheme (``task.older_scheme``), the gold never using them: UD v1's ``Negative`` or ``VerbForm=Trans``
    where the gold has ``Polarity`` or ``VerbForm=Conv``, or the reverse in a language whose gold keeps UD v1's.
    Said only where no check already named a name or value outside the inventory (those say what they are sure
    of), and with the price. A kind that gives its gold and predicted (feature, value) pairs (``feature_sets``)
    only."""
    sets = getattr(kind, "feature_sets", None)
    scheme = getattr(task, "older_scheme", None)
    renamed = scheme[2] if scheme else {}
    if sets is None or not (renamed.get("features") or renamed.get("values")):
        return
    if log.find("feature mistake: name") or log.find("feature mistake: value"):
        return
    known = sets(ref, pred, task.ignored_keys)
    if known is None:
        return
    renaming = _feature_renaming(renamed, *known)
    if not renaming:
        return
    mended = _gain(kind, ref, pred, task, FeatureRename(renaming), as_written)
    if mended is None:
        return
    found, first = Counter(), None
    for si, sent in enumerate(pred):
        for ti, tok in enumerate(sent[1] if sent is not None else ()):
            for pair in tok.items():
                try:
                    hit = pair in renaming
                except TypeError:
                    continue
                if hit:
                    found[pair] += 1
                    first = first or (si, ti, pair[0])
    if first is None:
        return
    shown = ", ".join("%s=%s for %s=%s (%s time%s)" % (
        printable(renaming[pair][0], 30), quoted(renaming[pair][1], 30), printable(pair[0], 30), quoted(pair[1], 30),
        "{:,}".format(count), "" if count == 1 else "s") for pair, count in found.most_common(3))
    log.add(WARNING, kind.item_where(first[0], first[1], '["%s"]' % printable(first[2], 20)), (
        "%s tokens use a feature name or value that this file's gold never uses, the other spelling of the gold's "
        "(%s renamed a few of %s's names and values): %s, the gold's first. A feature is compared as it is: write "
        "the gold's spelling.%s" % ("{:,}".format(sum(found.values())), scheme[1], scheme[0], shown,
                                    price_text(as_written, mended, "with the gold's spellings"))),
        kind="features of the gold's other scheme")
    return True


# --------------------------------------------------------------------------- the kits' validators

def gold_messages(report):
    """The priced messages of ``report`` (a report scored against a public gold), for a validator that checks a
    submission against a gold-less reference and scores it against the development gold apart: each replaces the
    unpriced message it extends, or is added (:func:`merge`)."""
    return [message for message in report.get("messages", []) if PRICE_MARK in message.get("text", "")]


def merge(messages, priced):
    """``messages`` (a gold-less check's message dicts) with each of ``priced`` (:func:`gold_messages`) in the place
    of the message of the same file whose text it extends (the same check, priced), or added at the end."""
    out = list(messages)
    for message in priced:
        at = next((i for i, m in enumerate(out) if m.get("file") == message["file"] and m.get("text")
                   and message["text"].startswith(m["text"].rstrip("."))), None)
        if at is None:
            if message not in out:
                out.append(message)
        else:
            out[at] = message
    return out
