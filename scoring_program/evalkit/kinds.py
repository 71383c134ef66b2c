"""Task kinds: how a file of each kind is parsed and scored.

A kind turns the JSON of a reference file and of a prediction file into parsed sentences (checking
every shape, with located messages) and then scores them with the pure functions of
:mod:`evalkit.metrics`. A competition declares which kind each of its tasks is; the kinds know no
language or task name. Four kinds exist:

- ``tagging``: ``[[[form, tag], ...], ...]``; components ``acc``, ``f1``.
- ``candidates``: ``[[[form, [c1, c2, c3]], ...], ...]`` against ``[[[form, gold], ...], ...]``;
  components ``acc1``, ``acc3``.
- ``morph``: ``[[{"Token": form, feature: value, ...}, ...], ...]``; one score, the mean token score.
- ``fill_mask``: ``[{"masked": str, "masked_tokens": [[c1, c2, c3], ...]}, ...]``; ``acc1``, ``acc3``.

Rules shared by all kinds: a file whose sentence count differs from the reference scores 0; a
sentence whose token (or mask) count differs scores 0 on every metric; a wrong container shape (a
sentence that is not a list, a token that is not a pair...) makes the file unusable (DataError with
its JSON path); a leaf value of the wrong type (a tag that is not a string) is reported and never
matches.

The parsers check whole sentences with list comprehensions and C-level list comparisons, and walk
token by token only to locate a problem: scoring stays within a small factor of ``json.load``. Ranked
candidates are scored in whole-file passes too (:func:`topk_entry`), over the items end to end that the parse
keeps (:class:`Accepted`, :class:`GoldColumns`); the sentence-by-sentence path with the metric's pure function
scores what those passes leave.
"""
import unicodedata
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate, chain, compress, islice, repeat, zip_longest
from functools import partial
from operator import add, contains, eq, getitem, is_not, itemgetter, ne, not_, sub, truediv, truth

from . import inventory as labels, mended, metrics, morph_batch
from .items import FillMaskItems, MorphItems, PairItems
from .messages import DataError, ERROR, WARNING, printable, quoted

_SEQ = (list, tuple)
_SEQ_TYPES = frozenset(_SEQ)
_STR = str


def _nfc(text):
    """``text`` in Unicode normalisation form C (an ASCII string is returned as it is)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def same_text(first, second):
    """Whether two values are equal, or are canonically equivalent strings (equal in normalisation form C).

    The scorer compares strings in NFC on both sides, but only where they differ: a file already in the
    reference's form costs nothing more and scores exactly as if compared byte for byte.

    >>> same_text("caf\u00e9", "cafe\u0301"), same_text("a", "b"), same_text(None, None)
    (True, False, True)
    """
    return first == second or (type(first) is _STR and type(second) is _STR and _nfc(first) == _nfc(second))


#: ``unicodedata.is_normalized`` (Python 3.8+): a C-level check that builds no normalised copy.
_IS_NORMALIZED = getattr(unicodedata, "is_normalized", None)


def _all_nfc(values):
    """Whether every string of ``values`` is in NFC (values that are not strings are skipped): one C-level
    check of the strings joined by NUL (a character that never composes, so the joined text is in NFC
    exactly when each string is).

    >>> _all_nfc(["caf\u00e9", None, "abc"]), _all_nfc(["abc", "cafe\u0301"])
    (True, False)
    """
    strings = values if type(values) is list else list(values)
    try:
        joined = "\x00".join(strings)
    except TypeError:   # a value that is not a string
        joined = "\x00".join(filter(_STR.__instancecheck__, strings))
    return _text_nfc(joined)


def _text_nfc(text):
    """Whether ``text`` (strings joined by NUL, :func:`_all_nfc`) is in NFC, in one C-level check."""
    if text.isascii():
        return True
    if _IS_NORMALIZED is not None:
        return _IS_NORMALIZED("NFC", text)
    return unicodedata.normalize("NFC", text) == text


class NfcMemo(dict):
    """``memo[text]``: ``text`` in NFC, computed once per distinct string (a C-level lookup afterwards);
    a value that is not a string maps to itself."""

    def __missing__(self, text):
        value = self[text] = _nfc(text) if type(text) is _STR else text
        return value


def _canonical_values(pred, gold, memo):
    """``pred`` (a list) with every value that differs from its gold (same position) but is canonically
    equivalent to it replaced by the gold; ``pred`` itself when there is none. ``memo``: an :class:`NfcMemo`."""
    fixes = [i for i, (p, g) in enumerate(paired(pred, gold))
             if p != g and type(p) is _STR and type(g) is _STR and memo[p] == memo[g]]
    if not fixes:
        return pred
    pred = list(pred)
    for i in fixes:
        pred[i] = gold[i]
    return pred


def _canonical_candidates(golds, cands, memo):
    """``cands`` (one candidate tuple per gold) with every candidate canonically equivalent to its gold
    replaced by the gold; ``cands`` itself when there is none. ``memo``: an :class:`NfcMemo`."""
    get = memo.__getitem__
    fixed = list(cands)
    changed = False
    normalize = unicodedata.normalize
    for i, (g, c) in enumerate(paired(golds, cands)):
        if type(c) not in _SEQ or (c and c[0] == g) or type(g) is not _STR:
            continue   # a hit
        try:
            joined = "\x00".join((g,) + tuple(c))   # NUL never composes: NFC as a whole iff each string is
        except TypeError:   # a candidate that is not a string
            joined = "\x00".join([g] + [x for x in c if type(x) is _STR])
        if joined.isascii() or normalize("NFC", joined) == joined:
            continue   # every string already in NFC: equal strings are the only equivalent ones
        ng, normal = get(g), list(map(get, c))
        if normal.count(ng) > list(c).count(g):   # a candidate that differs from the gold but is equivalent
            fixed[i] = tuple(g if n == ng else x for x, n in paired(c, normal))
            changed = True
    return fixed if changed else cands


def paired(first, second):
    """``zip`` that refuses sequences of different lengths (a mismatch is a bug, never silently cut)."""
    if len(first) != len(second):
        raise ValueError("cannot pair %d items with %d" % (len(first), len(second)))
    return zip(first, second)


def _type_name(value):
    """Name of a JSON value's type as a participant would say it."""
    if value is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "a string",
            list: "a list", tuple: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _where(si, ti=None, extra=""):
    """Human and JSON-path position of sentence ``si`` and token ``ti`` (both 0-based)."""
    if ti is None:
        return "sentence %d ($[%d]%s)" % (si + 1, si, extra)
    return "sentence %d, token %d ($[%d][%d]%s)" % (si + 1, ti + 1, si, ti, extra)


def _mask_where(si, mi):
    """Position of mask ``mi`` of sentence ``si`` (both 0-based) in a fill-mask file."""
    return "sentence %d, mask %d ($[%d][\"masked_tokens\"][%d])" % (si + 1, mi + 1, si, mi)


def _tag_where(si, ti):
    """Position of the tag of token ``ti`` of sentence ``si`` in a pair file."""
    return _where(si, ti, "[1]")


def _lemma_where(si, ti):
    """Position of the candidates of token ``ti`` of sentence ``si`` in a pair file."""
    return _where(si, ti, "[1]")


def check_sentence_list(value, name, ref_count=None):
    """Check that ``value`` is a JSON list of sentences (of ``ref_count`` items); raise DataError if not."""
    if type(value) not in _SEQ:
        raise DataError(name, "whole file", "expected a list of sentences at the top level, got %s"
                        % _type_name(value))
    if ref_count is not None and len(value) != ref_count:
        raise DataError(name, "whole file", "the file has %d sentence%s, the reference has %d: every sentence of "
                        "the input must be present, in order%s" % (len(value), "" if len(value) == 1 else "s", ref_count,
                                                                   _empty_sentences(value, ref_count)),
                        status="sentence_count_mismatch")


def _empty_sentences(value, ref_count):
    """Where a file has more sentences than the reference and the extra ones are empty (``[]``, ``{}``, null: a
    blank line read as a sentence, a list initialised with one): what to say of them, else ``""``.

    >>> _empty_sentences([[1], []], 1), _empty_sentences([[], [1], [2]], 2), _empty_sentences([[1], [2]], 1)
    ('; sentence 2 ($[1]) is empty: an empty sentence added (a blank line read as a sentence?): remove it', '; sentence 1 ($[0]) is empty: an empty sentence added (a blank line read as a sentence?): remove it', '')
    """
    extra = len(value) - ref_count
    if extra <= 0:
        return ""
    empty = [si for si, sent in enumerate(value) if sent in ([], {}, None, "")]
    if len(empty) != extra:
        return ""
    return "; %s %s: %s (a blank line read as a sentence?): remove %s" % (
        ", ".join("sentence %d ($[%d])" % (si + 1, si) for si in empty[:3]) + (", ..." if extra > 3 else ""),
        "is empty" if extra == 1 else "are empty", "an empty sentence added" if extra == 1 else
        "empty sentences added", "it" if extra == 1 else "them")


#: The marks subword tokenisers put on a piece (WordPiece's ``##``, SentencePiece's U+2581, byte-level BPE's U+0120)
#: and on a piece followed by another (subword-nmt's ``@@``).
_PIECE_MARKS = ("##", "\u2581", "\u0120")


def _subword_rows(sent, ref_forms):
    """The first pieces of ``sent`` (more rows than ``ref_forms``) shown, when its rows are the subword pieces of
    the reference's tokens (their forms, tokeniser marks aside, join into the reference's forms joined), else "".

    >>> _subword_rows([["cad", "V"], ["##ulat", "V"], ["et", "C"]], ["cadulat", "et"])
    "'##ulat'"
    """
    forms = [tok[0] if type(tok) in _SEQ and tok else tok.get("Token") if type(tok) is dict else None for tok in sent]
    if not all(type(form) is _STR for form in forms) or not all(type(form) is _STR for form in ref_forms):
        return ""
    joined = []
    for form in forms:
        for mark in _PIECE_MARKS:
            if form.startswith(mark):
                form = form[len(mark):]
        joined.append(form[:-2] if form.endswith("@@") else form)
    if "".join(joined).replace(" ", "") != "".join(ref_forms).replace(" ", ""):
        return ""
    marked = [form for form, piece in paired(forms, joined) if form != piece] or forms
    return ", ".join(quoted(form, 20) for form in marked[:3]) + (", ..." if len(marked) > 3 else "")


def _dropped_rows(sent, ref_forms):
    """The reference rows ``sent`` (fewer rows than ``ref_forms``) leaves out, shown (``'ⲛⲧⲉⲣⲉ' (token 3)``), when its
    forms are the reference's with those rows left out, else "".

    >>> _dropped_rows([["a", "X"], ["b", "X"]], ["ab", "a", "b"])
    "'ab' (token 1)"
    >>> _dropped_rows([["b", "X"]], ["a", "c"])
    ''
    """
    forms = [tok[0] if type(tok) in _SEQ and tok else tok.get("Token") if type(tok) is dict else None for tok in sent]
    missing, at = [], 0
    for ti, ref_form in enumerate(ref_forms):
        if at < len(forms) and same_text(forms[at], ref_form):
            at += 1
        else:
            missing.append(ti)
    if at != len(forms) or not missing:
        return ""
    return ", ".join("%s (token %d)" % (quoted(ref_forms[ti], 20), ti + 1) for ti in missing[:3]) + (
        ", ..." if len(missing) > 3 else "")


def _check_sentence(sent, name, si, expected):
    """Raise DataError unless sentence ``si`` is a list (of ``expected``, named in the message)."""
    if type(sent) not in _SEQ:
        raise DataError(name, _where(si), "expected a list of %s, got %s" % (expected, _type_name(sent)))


def _token_count_error(log, si, got, expected, unit):
    log.add(ERROR, _where(si), "%d %ss, the reference has %d: this sentence scores 0"
            % (got, unit, expected), kind="sentence with a wrong %s count (scored 0)" % unit)


#: Said of a form or a masked line that is the input's without some of its accents or other combining marks.
LOST_MARKS = ("only by the accents or other marks it lost: the text was normalised on its way (NFD then dropping "
              "the combining characters, unidecode, an accent folding); write the input's text as it is, and check "
              "your labels and candidates: normalised the same way, they never match a gold that keeps its marks")


def _report_forms(log, si, forms, ref_forms, consequence=""):
    """Report every position where ``forms`` differs from ``ref_forms`` (same length); a form that is the
    reference's without its marks is a class of its own (:data:`LOST_MARKS`)."""
    for ti, (form, ref_form) in enumerate(paired(forms, ref_forms)):
        if not same_text(form, ref_form):
            lost = type(ref_form) is _STR and mended.is_stripped(form, ref_form)
            log.add(WARNING if not consequence else ERROR, _where(si, ti),
                    "form %s differs from the reference form %s%s%s" % (
                        quoted(form), quoted(ref_form), (" " + LOST_MARKS) if lost else "", consequence),
                    kind="form that differs from the reference%s%s" % (" only by its marks" if lost else "",
                                                                        " (token scored 0)" if consequence else ""))


def _candidate_lists(values, log, max_candidates, where_fn, si):
    """Normalise the candidate lists of one sentence (see :func:`_candidates`).

    Fast path: when every value is a list of at most ``max_candidates`` strings (checked with two
    C-level passes) the lists are returned as they are.
    """
    if _flawless_candidate_lists(values, max_candidates):
        return values
    return [_candidates(v, log, max_candidates, where_fn(si, ti)) for ti, v in enumerate(values)]


_ONLY_STR = frozenset((str,))
_ONLY_LIST = frozenset((list,))
_ONLY_DICT = frozenset((dict,))
_ONLY_TWO = frozenset((2,))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_NOT_NONE = partial(is_not, None)


def _flawless_candidate_lists(lists, max_candidates):
    """Whether every item of ``lists`` is a list of at most ``max_candidates`` strings (C-level passes)."""
    if set(map(type, lists)) - _ONLY_LIST:
        return False
    if lists and max(map(len, lists)) > max_candidates:
        return False
    return not set(map(type, chain.from_iterable(lists))) - _ONLY_STR


def _distinct_candidates(lists, max_candidates):
    """``(distinct, text, firsts)`` of ``lists`` when every item is a list of at most ``max_candidates`` strings (the
    whole-file form of :func:`_flawless_candidate_lists`), else None: the set of the distinct candidates,
    :func:`evalkit.inventory.candidate_text` of it and :func:`evalkit.inventory.first_candidates` of ``lists``.

    C-level passes, each check made by a pass that is needed anyway: the lengths by ``len`` (an item without one
    refused), the candidates' types by their join (``str.join`` refuses anything but a string; the set refuses a
    list or an object), the items' type by ``list.__getitem__`` when the first candidates are read (it refuses
    anything but a list: a string or an object, whose characters or keys the set would have taken)."""
    try:
        if lists and max(map(len, lists)) > max_candidates:
            return None
        distinct = set(chain.from_iterable(lists))
        text = (distinct, "\x00".join(distinct)) if distinct else ([], "")   # (as candidate_text gives them)
        firsts = list(map(list.__getitem__, lists, repeat(0)))
    except TypeError:   # an item that is not a list, an unhashable candidate (a list, an object), a candidate that
        return None     # is not a string
    except IndexError:   # an empty candidate list: each item's type checked apart
        if set(map(type, lists)) - _ONLY_LIST:
            return None
        firsts = labels.first_candidates(None, lists)
    return distinct, text, firsts


def _accepted_candidates(sentences, flat, max_candidates):
    """An :class:`Accepted` of ``sentences`` (per sentence its candidate lists, None for a sentence not scored) whose
    items ``flat`` (end to end) are all lists of at most ``max_candidates`` strings, else None: its distinct
    candidates, their text and its first candidates (:func:`_distinct_candidates`), read while the parse has the
    lists and strings at hand: a later pass over them costs several times more once the file's other objects have
    been read in between."""
    known = _distinct_candidates(flat, max_candidates)
    if known is None:
        return None
    accepted = Accepted(sentences, known[0], flat)
    accepted.text, accepted.firsts = known[1], known[2]
    return accepted


def check_candidate_lists(pred, log, task, where, markers=()):
    """The checks of ranked candidate lists (lemmas, gap filling; :mod:`evalkit.inventory`), in this order:
    candidates joined into one string (``"a|b|c"``, ``"a b c"``); whole words for character gaps (a task whose
    ``gap_unit`` is ``"character"``); text changed on its way to the file (quotes, escapes, mojibake,
    punctuation); candidates that can never match (whitespace, ``markers`` such as the gap marker); subword
    pieces; ``""`` first; a space spelt otherwise in character gaps; a candidate repeated in one list; capitals;
    and no candidate at all (an error). The distinct candidates and their text are read once for all. Mojibake
    read as whitespace or capitals is no cause of its own: those two are not said of a garbled file."""
    distinct = labels.distinct_candidates(pred)
    text = _candidate_text(pred, distinct)
    labels.check_joined_candidates(pred, log, task.max_candidates, where, distinct=distinct, text=text)
    labels.check_gap_units(pred, log, task, where)
    labels.check_lone_surrogates(pred, log, where, distinct=distinct, text=text)
    garbled = "garbled" in labels.check_candidate_forms(pred, log, where)
    if not garbled:   # (mojibake holds U+00AD, a soft hyphen, where UTF-8 has the byte 0xAD: no cause of its own)
        labels.check_invisible(pred, log, where, distinct=distinct, text=text)
    if not garbled:
        labels.check_unmatchable_candidates(pred, log, where, markers, distinct=distinct, text=text)
    labels.check_subword_pieces(pred, log, where, distinct=distinct, text=text)
    labels.check_empty_first(pred, log, where, task, distinct=distinct)
    labels.check_space_spellings(pred, log, task, where, distinct=distinct)
    labels.check_repeated_candidates(pred, log, where)
    if not garbled:
        labels.check_capitals(pred, log, where)
    labels.check_no_candidate(pred, log, where)


class Accepted(list):
    """A file's parsed predictions (one item per sentence) accepted as they are, with the set of their distinct
    values (``distinct``: the tags, or the candidates), known from the check that accepted them: the warnings of
    :mod:`evalkit.inventory` use it instead of reading every value again.

    For ranked candidates, ``flat`` holds the candidate lists of every item of the sentences that have any, in
    file order (``chain.from_iterable(filter(None, sentences))``), ``firsts`` their first candidates (see
    :func:`evalkit.inventory.first_candidates`) and ``text`` the distinct candidates joined
    (:func:`evalkit.inventory.candidate_text`): known from the parse or computed by the first check that needs
    them, then shared by the other checks and by :func:`topk_entry`. Nothing may change the sentences once
    accepted (they are read as they are by every later step)."""

    def __init__(self, sentences, distinct, flat=None):
        list.__init__(self, sentences)
        self.distinct = distinct
        self.flat = flat
        self.firsts = None
        self.text = None   # evalkit.inventory.candidate_text of ``distinct``, once a check has joined them


#: The keys under which a model's output object keeps its candidate string (a fill-mask pipeline's ``token_str``).
_CANDIDATE_KEYS = ("token_str", "token", "word", "text", "candidate", "lemma", "form", "label")


#: An integer candidate below this is said to be a numeral written as a JSON number first (a lemma ``3``), then
#: perhaps a token id; from it on, a token id.
SMALL_NUMBER = 1000


def _candidate_hint(cand):
    """What a candidate that is not a string probably is, for its warning (called only for such a candidate): a
    model's output object (``{"token_str": "et", "score": 0.9}``, a fill-mask pipeline's), a candidate beside its
    score (``["et", 0.9]``) or a token id (an integer); else ``""``.

    >>> _candidate_hint({"token_str": "et", "score": 0.9})[:21], _candidate_hint(["et", 0.9])[:30]
    (' (an object such as a', ' (a candidate beside its score')
    >>> _candidate_hint(3.5)
    ''
    >>> _candidate_hint(2077)[:20]
    ' (a token id of a mo'
    >>> 'write it as a string, "3"' in _candidate_hint(3)
    True
    """
    if type(cand) is dict:
        key = next((k for k in _CANDIDATE_KEYS if type(cand.get(k)) is _STR), None)
        if key is not None:
            return (" (an object such as a model's output, {\"%s\": %s, ...}: give its \"%s\" string alone, the "
                    "list best first)" % (key, quoted(cand[key], 40), key))
    if type(cand) in _SEQ and len(cand) == 2:
        text = [c for c in cand if type(c) is _STR]
        if len(text) == 1 and any(type(c) in (int, float) for c in cand):
            return (" (a candidate beside its score, %s: give the string alone, the list sorted best first)"
                    % quoted(text[0], 40))
    if type(cand) is int and 0 <= cand < SMALL_NUMBER:
        return (" (a numeral such as a lemma written as a JSON number? write it as a string, \"%d\", as the gold "
                "does; or a token id of a model's vocabulary? decode the ids into text)" % cand)
    if type(cand) is int:
        return (" (a token id of a model's vocabulary? decode the ids into text, with the tokenizer's decode or "
                "convert_ids_to_tokens, and give whole words)")
    return ""


def _scored_candidates_hint(value):
    """For a candidate list that is an object: ``{candidate: score}`` read as such (its keys best first), else
    ``""``."""
    if type(value) is dict and value and all(type(k) is _STR for k in value) and \
            all(type(v) in (int, float) for v in value.values()):
        return " (candidates mapped to their scores? give a list of the candidates sorted best first, such as %s)" % (
            quoted(sorted(value, key=lambda k: -value[k])[:3], 60))
    return ""


def _candidates(value, log, max_candidates, where):
    """Normalise one candidate list (a bare string is one candidate) to a tuple of at most N items.

    ``where`` is the position used in messages. Candidates past ``max_candidates`` are dropped and
    reported; a candidate that is not a string is reported and replaced by None (it never matches).
    """
    if type(value) is _STR:
        return (value,)
    if type(value) not in _SEQ:
        raise DataError(log.file, where, "expected a list of up to %d candidate strings (or one string), got %s%s"
                        % (max_candidates, _type_name(value), _scored_candidates_hint(value)))
    if len(value) > max_candidates:
        log.add(WARNING, where, "%d candidates given; only the first %d count"
                % (len(value), max_candidates), kind="more than %d candidates (the rest ignored)" % max_candidates)
        value = value[:max_candidates]
    for cand in value:
        if type(cand) is not _STR:
            log.add(WARNING, where, "a candidate is %s, expected a string; it never matches%s"
                    % (_type_name(cand), _candidate_hint(cand)), kind="candidate that is not a string")
            return tuple(c if type(c) is _STR else None for c in value)
    return tuple(value)


class Entry(object):
    """The result of scoring one file: official components, corpus-level accuracies, details.

    ``per_sentence`` holds the per-sentence values (one per scored sentence, in file order) whose sums the
    kind's ``from_sums`` turns into the components: here, per component, the values it is the mean of (a
    corpus-level kind of :mod:`evalkit.lines` gives counts instead). The input of confidence intervals.
    """

    def __init__(self, components, micro, sentences, scored, items, zeroed, details, per_sentence=None):
        self.per_sentence = per_sentence
        self.components = components
        self.micro = micro
        self.sentences = sentences
        self.scored_sentences = scored
        self.items = items
        self.zeroed_sentences = zeroed
        self.details = details


class Kind(object):
    """Base class: parse a reference, parse a prediction against it, score the pair."""

    name = None
    #: Whether :meth:`score` takes ``details=False`` (no detail tables or pooled accuracies: same scores, less work).
    optional_details = False
    #: Whether the kind takes facts of its reference files from the phase's gold index (:mod:`evalkit.gold_index`):
    #: then the scorer hashes such a file's bytes and, when the index describes them, calls :meth:`attach_facts`.
    uses_facts = False

    def index_facts(self, ref, task):
        """The facts the gold index keeps for the parsed reference file ``ref`` (JSON data derived from its gold
        alone, written when the reference is built), or None: the kind has none for it."""
        return None

    def attach_facts(self, ref, facts, task):
        """Give ``facts`` (what :meth:`index_facts` gave for these very bytes, read back from JSON) to the freshly
        parsed ``ref``; facts of an unexpected shape are ignored (the kind then computes what it needs, with the
        same results). Never raises."""

    def parse_reference(self, value, name, task):
        """Return the parsed reference sentences of ``value`` (JSON of file ``name``)."""
        raise NotImplementedError

    def check_golds(self, ref, name):
        """Raise DataError when a gold of the parsed reference ``ref`` (file ``name``) is ``null``: it would
        be matched by a ``null`` prediction. Called only for a file whose text holds ``null`` and whose parsed
        reference does not carry ``golds_checked = True`` (set by a parse that proved every gold non-null, see
        :func:`evalkit.scoring._parse_reference`); gold-less public references (the starting kit's validator) skip
        this check."""
        raise NotImplementedError

    def parse_prediction(self, value, ref, log, task):
        """Return one parsed prediction per reference sentence (None for a sentence that scores 0).

        The file must have the reference's number of sentences (else DataError). A flawless file is
        accepted by :meth:`_fast_parse` at once; any other goes sentence by sentence through
        :meth:`_parse_sentence`, which reports what is wrong where.
        """
        check_sentence_list(value, log.file, len(ref))
        fast = self._fast_parse(value, ref, task)
        if fast is not None:
            return fast
        return [self._parse_sentence(sent, ref_sent, log, si, task)
                for si, (sent, ref_sent) in enumerate(paired(value, ref))]

    def _fast_parse(self, value, ref, task):
        """The parsed prediction when the whole file is flawless (nothing to report), else None."""
        return None

    def check_labels(self, pred, log, task, inventory):
        """Warn (once per file and class of mistake, :mod:`evalkit.inventory`) about well-formed predictions that
        will score badly: labels outside the task's ``inventory`` (an :class:`~evalkit.inventory.Inventory`),
        values of the wrong type. ``pred`` is what :meth:`parse_prediction` returned; it is not changed."""

    def _parse_sentence(self, sent, ref_sent, log, si, task):
        """Parse sentence ``si`` against its parsed reference; None when it scores 0."""
        raise NotImplementedError

    def _parse_tokens(self, sent, ref_forms, log, si):
        """Shared first step for token lists: a list (else DataError) of the reference's length
        (else the sentence scores 0: returns False after reporting; one row per subword piece is said so)."""
        _check_sentence(sent, log.file, si, "tokens")
        if len(sent) != len(ref_forms):
            pieces = _subword_rows(sent, ref_forms) if len(sent) > len(ref_forms) else None
            if pieces:
                log.add(ERROR, _where(si), "%d tokens, the reference has %d: one row per subword piece of a "
                        "tokeniser (%s), whose pieces join into the input's tokens: this sentence scores 0. Give one "
                        "row per token of the input, with the label of its first piece (word_ids() of a fast "
                        "tokenizer says which pieces make a token)" % (len(sent), len(ref_forms), pieces),
                        kind="sentence with one row per subword piece (scored 0)")
            else:
                dropped = _dropped_rows(sent, ref_forms) if len(sent) < len(ref_forms) else None
                if dropped:
                    log.add(ERROR, _where(si), "%d tokens, the reference has %d: this sentence scores 0. It leaves "
                            "out the input's rows %s, the others in order: give one row per input row (a multiword-"
                            "token range such as 4-5 in the CoNLL-U input, whose words have rows of their own, is a row "
                            "too, labelled '_')" % (len(sent), len(ref_forms), dropped),
                            kind="sentence with a wrong token count (scored 0)")
                else:
                    _token_count_error(log, si, len(sent), len(ref_forms), "token")
            return False
        return True

    def score(self, ref, pred, task):
        """Return an :class:`Entry` for the parsed reference ``ref`` and prediction ``pred``."""
        raise NotImplementedError

    def score_value(self, components):
        """The entry score from its components: their mean."""
        return metrics.mean(list(components.values()))

    def explains_score(self, entry):
        """Whether the messages of ``entry`` already say why it scores low: a mistake priced against the gold
        (``details["priced"]``, :func:`evalkit.mended.price_file`); a floor's generic causes are then not given."""
        return bool((entry.get("details") or {}).get("priced"))

    def restrict(self, ref, pred, indices):
        """The parsed reference and prediction of the items ``indices`` alone (a test phase's part,
        :mod:`evalkit.split`): scoring them is scoring a file that holds only these items."""
        return [ref[i] for i in indices], [pred[i] for i in indices]

    def predictions(self, ref, pred):
        """The prediction of each reference item, in order (None: the item scores 0 for its format)."""
        return list(pred)

    def scorable(self, ref):
        """The indices of the items that are scored (every one, unless the kind skips some)."""
        return list(range(len(ref)))

    def gold_prediction(self, data, task, lang):
        """The submission file that predicts the gold of the reference bytes ``data`` (the conformance check's
        perfect submission, organiser/conformance.py): the reference itself, in the submission layout already."""
        return data

    def from_sums(self, sums, count, task=None):
        """The components from ``sums`` (``{name: sum of its per-sentence values}``, see :class:`Entry`) over
        ``count`` sentences: each component is the mean of its per-sentence values (0 for no sentence).
        Numbers or numpy arrays alike (the organisers' bootstrap passes resampled sums)."""
        return dict((name, total / count if count else total * 0.0) for name, total in sums.items())


class PairReference(Sequence):
    """A pair file's parsed reference: the sequence of its sentences ``(forms, golds)``, made from the JSON
    sentences (``raw``, lists of two-item lists, checked) on first use, and what the whole-file fast paths read
    instead, each made once when first asked for: the golds of each sentence (the lists the sentences hold), all
    the golds in order, their counts and distinct values, the sentence lengths, all the forms in order (the forms
    and the golds in order read together from the tokens end to end, ``tokens``, which the parse's check made). A
    file scored on its fast paths never has its sentences split, and the golds of each sentence are cut from the
    golds in order only when read (a kind whose scoring reads the sentences has them split at once:
    :attr:`PairKind.lazy_reference`). A parsed reference is never changed."""

    def __init__(self, raw, tokens=None):
        self.raw = raw
        self._known = {}
        self._tokens = tokens   # every token of ``raw`` end to end, when the parse has them (else made on first use)

    def __len__(self):
        return len(self.raw)

    def __getitem__(self, index):
        if type(index) is int and "sentences" not in self._known:   # one sentence (a sample): split alone
            sent = self.raw[index]
            return list(map(_FIRST, sent)), list(map(_SECOND, sent))
        return self.sentences()[index]

    def __iter__(self):
        return iter(self.sentences())

    def _once(self, key, make):
        known = self._known
        if key not in known:
            known[key] = make()
        return known[key]

    def sentences(self):
        """The parsed sentences, ``[(forms, golds), ...]`` (with the golds of :meth:`golds` when they are known)."""
        return self._once("sentences", self._split)

    def _split(self):
        known = self._known
        if "golds" not in known:
            return [(list(map(_FIRST, sent)), list(map(_SECOND, sent))) for sent in self.raw]
        forms = _cut(known["flat_forms"], self.lengths()) if "flat_forms" in known else map(list, map(
            map, repeat(_FIRST), self.raw))
        return list(paired(list(forms), known["golds"]))

    def tokens(self):
        """Every token (``[form, gold]``) of the file, in order."""
        if self._tokens is None:
            self._tokens = list(chain.from_iterable(self.raw))
        return self._tokens

    def golds(self):
        """The gold values of each sentence (the lists the parsed sentences hold): the golds end to end cut into
        sentences when those are known (C-level), else read sentence by sentence."""
        known = self._known
        if "golds" not in known and "sentences" not in known and "flat_golds" in known:
            known["golds"] = _cut(known["flat_golds"], self.lengths())
        return self._once("golds", lambda: list(map(_SECOND, known["sentences"])) if "sentences" in known
                          else [list(map(_SECOND, sent)) for sent in self.raw])

    def lengths(self):
        """The token count of each sentence."""
        return self._once("lengths", lambda: list(map(len, self.raw)))

    def flat_forms(self):
        """Every form of the file, in order."""
        known = self._known
        return self._once("flat_forms", lambda: list(chain.from_iterable(map(_FIRST, known["sentences"])))
                          if "sentences" in known else self._columns()[0])

    def flat_golds(self):
        """Every gold value of the file, in order (read from the tokens when the golds of each sentence are not
        known yet: those are then cut from them)."""
        known = self._known
        return self._once("flat_golds", lambda: list(chain.from_iterable(known["golds"])) if "golds" in known
                          else self._columns()[1])

    def _columns(self):
        """``(forms, golds)``, every form and every gold of the file in order, read from the tokens in one C-level
        pass (``zip(*tokens)``: each token a checked two-item list) and kept: both are asked for by every kind."""
        known = self._known
        if "columns" not in known:
            tokens = self.tokens()
            forms, golds = zip(*tokens) if tokens else ((), ())
            known["columns"] = (known.get("flat_forms") or list(forms), known.get("flat_golds") or list(golds))
        return known["columns"]

    def gold_columns(self):
        """:func:`gold_columns` of :meth:`golds`, from the golds end to end and the sentence lengths (C-level)."""
        lengths = self.lengths()
        if 0 not in lengths:
            return None, lengths, self.flat_golds()
        return list(map(truth, lengths)), list(filter(None, lengths)), self.flat_golds()

    def gold_counts(self):
        """``{gold value: occurrences}`` over the whole file (a Counter)."""
        return self._once("gold_counts", lambda: Counter(self._all_golds()))

    def _all_golds(self):
        """Every gold value in order: the flat list when it is known, else an iterator over the sentences' golds."""
        known = self._known
        return known["flat_golds"] if "flat_golds" in known else chain.from_iterable(self.golds())

    def distinct_golds(self):
        """The set of the distinct gold values, or None when one is unhashable (a list, an object)."""
        return self._once("distinct_golds", self._distinct_golds)

    def _distinct_golds(self):
        try:   # the keys of the counts when they are known, else a set (cheaper than counting)
            return set(self._known["gold_counts"] if "gold_counts" in self._known else self._all_golds())
        except TypeError:
            return None


def _pair_tokens(value, lengths):
    """Every token of the JSON sentences ``value``, in order, when every sentence is a list of ``lengths[si]``
    tokens and every token a two-item list (``list.__len__`` refuses anything but a list: one C-level pass checks
    each token's type and length), else None."""
    if set(map(type, value)) - _ONLY_LIST or list(map(len, value)) != lengths:
        return None
    tokens = list(chain.from_iterable(value))
    try:
        return None if set(map(list.__len__, tokens)) - _ONLY_TWO else tokens
    except TypeError:   # a token that is not a list
        return None


def _cut(flat, lengths):
    """``flat`` cut into consecutive lists of ``lengths`` items (C-level)."""
    rest = iter(flat)
    return list(map(list, map(islice, repeat(rest), lengths)))


def _lengths(ref):
    """The token count of each sentence of a parsed pair reference."""
    return ref.lengths() if isinstance(ref, PairReference) else list(map(len, map(_FIRST, ref)))


def _flat_forms(ref):
    """Every form of a parsed pair reference, in order."""
    return ref.flat_forms() if isinstance(ref, PairReference) else list(chain.from_iterable(map(_FIRST, ref)))


def _golds(ref):
    """The gold values of each sentence of a parsed pair reference."""
    return ref.golds() if isinstance(ref, PairReference) else list(map(_SECOND, ref))


class PairKind(Kind):
    """Shared parsing for kinds whose sentences are lists of ``[form, value]`` pairs."""

    value_label = "value"
    #: Whether the parsed reference (:class:`PairReference`) is split into sentences only when they are read: a kind
    #: whose scoring reads only the golds (:func:`_golds`) says so; otherwise the reference is split at once.
    lazy_reference = False

    def _bad_pairs(self, sent):
        """Indices of the tokens of ``sent`` that are not two-item lists."""
        return [ti for ti, tok in enumerate(sent) if type(tok) not in _SEQ or len(tok) != 2]

    def _bad_pair_error(self, name, sent, si, ti):
        tok = sent[ti]
        got = _type_name(tok) if type(tok) not in _SEQ else "a list of %d items" % len(tok)
        return DataError(name, _where(si, ti), "expected a [form, %s] pair, got %s" % (self.value_label, got))

    def _split(self, sent, name, si):
        """Check one sentence of pairs; return (forms, values) or raise DataError at the first bad token."""
        bad = self._bad_pairs(sent)
        if bad:
            raise self._bad_pair_error(name, sent, si, bad[0])
        return [tok[0] for tok in sent], [tok[1] for tok in sent]

    def parse_reference(self, value, name, task):
        """Parsed sentences ``(forms, gold values)``; any token that is not a pair is a DataError.

        A file whose sentences are all lists of two-item lists (C-level checks: ``list.__len__`` refuses
        anything but a list, so one pass checks each token's type and length) is a :class:`PairReference`
        (split on first use); any other goes sentence by sentence, which says where the first bad token is."""
        check_sentence_list(value, name)
        if not set(map(type, value)) - _ONLY_LIST:
            tokens = list(chain.from_iterable(value))
            try:
                lengths = set(map(list.__len__, tokens))
            except TypeError:   # a token that is not a list
                lengths = _ONLY_TWO | {None}
            if not lengths - _ONLY_TWO:
                ref = PairReference(value, tokens)
                if not self.lazy_reference:
                    ref.sentences()
                return ref
        ref = []
        for si, sent in enumerate(value):
            _check_sentence(sent, name, si, "tokens")
            ref.append(self._split(sent, name, si))
        return ref

    def check_golds(self, ref, name):
        """Raise DataError at the first null gold (see :meth:`Kind.check_golds`)."""
        distinct = ref.distinct_golds() if isinstance(ref, PairReference) else None
        if distinct is None:
            distinct = set(chain.from_iterable(golds for _, golds in ref))
        if None in distinct:
            si, ti = next((si, ti) for si, (_, golds) in enumerate(ref) for ti, gold in enumerate(golds) if gold is None)
            raise DataError(name, _where(si, ti, "[1]"), "expected a gold string, got null")

    def _parse_sentence(self, sent, ref_sent, log, si, task):
        ref_forms = ref_sent[0]
        if not self._parse_tokens(sent, ref_forms, log, si):
            return None
        forms, values = self._split(sent, log.file, si)
        if forms != ref_forms:
            _report_forms(log, si, forms, ref_forms)
        return self._values(values, log, si, task)

    def _fast_parse(self, value, ref, task):
        """The parsed prediction when the whole file is flawless (nothing to report), else None.

        Whole-file checks with C-level passes: every sentence a list of the reference's length,
        every token a two-item list (``list.__len__``: a list, and its length, in one pass), every form
        equal to the reference's (the forms and values read together by ``zip(*tokens)``), every value acceptable
        (:meth:`_accepted`). Anything else goes through
        the sentence-by-sentence path, which gives the same result and says what is wrong where.
        """
        lengths = _lengths(ref)
        tokens = _pair_tokens(value, lengths)
        if tokens is None:
            return None
        forms, flat = zip(*tokens) if tokens else ((), ())   # (both in one C-level pass, no call per token)
        if list(forms) != _flat_forms(ref):
            return None
        return self._accepted_flat(list(flat), lengths, task)

    def _accepted_flat(self, flat, lengths, task):
        """:meth:`_accepted` of the file's values ``flat`` (in order) cut into sentences of ``lengths`` tokens, which
        keeps ``flat`` (None when a value is not acceptable as it is)."""
        accepted = self._accepted(_cut(flat, lengths), flat, task)
        if accepted is not None:
            accepted.flat = flat
        return accepted

    def _accepted(self, values, flat, task):
        """The parsed prediction, an :class:`Accepted` of ``values`` (per sentence its values; ``flat``: all of the
        file's, in order), when every value is acceptable as it is, else None."""
        raise NotImplementedError

    def _values(self, values, log, si, task):
        """Check and normalise the values of one sentence."""
        raise NotImplementedError


#: Said of a tag written as a number.
LABEL_ID = (" (a model's label id? map each id to its tag with the model's own table, id2label in its config, and "
            "write the tags: \"NOUN\", not 7)")


class TaggingKind(PairKind):
    """One label per token; accuracy and macro-F1 per sentence."""

    #: The position of a token's value in a message (:mod:`evalkit.blank`).
    item_where = staticmethod(_tag_where)
    name = "tagging"
    items = PairItems()
    value_label = "tag"
    lazy_reference = True
    #: What usually puts a file of this kind at its floor (evalkit/floor.py).
    floor_causes = ("tags of another tag set or another case, tags shifted by one token, two tags swapped "
                    "throughout, predictions made for the other split or in another sentence order")

    def _fast_parse(self, value, ref, task):
        """The parsed prediction when the whole file is flawless, else None (:meth:`PairKind._fast_parse`).

        First one C-level comparison with the reference's JSON sentences (:class:`PairKind`): a file equal to
        them holds the reference's forms and gold tags, strings all, and is accepted as the golds themselves."""
        raw = getattr(ref, "raw", None)
        if raw is not None and value == raw:
            counts = ref.gold_counts()   # (what the per-tag table counts: the distinct golds are then its keys)
            distinct = ref.distinct_golds()
            if distinct is not None and not set(map(type, distinct)) - _ONLY_STR:
                accepted = Accepted(ref.golds(), distinct)
                accepted.counts = counts   # (inventory.flat_counts)
                return accepted
        if raw is None:
            return PairKind._fast_parse(self, value, ref, task)
        return self._fast_parse_pairs(value, ref, task)

    def _fast_parse_pairs(self, value, ref, task):
        """:meth:`PairKind._fast_parse` for a :class:`PairReference`, with the same whole-file checks in the same
        order, but the forms compared as they stream out of the two files' tokens (``all(map(eq, ...))``, C-level,
        stopping at the first difference), so neither file's list of forms is built: the reference's JSON sentences
        (``ref.raw``) hold its forms as the prediction's hold theirs. The token counts are checked first, so the two
        streams have the same length. Any difference: None (the sentence-by-sentence path says what and where)."""
        lengths = ref.lengths()
        tokens = _pair_tokens(value, lengths)
        if tokens is None or not all(map(eq, map(_FIRST, tokens), map(_FIRST, chain.from_iterable(ref.raw)))):
            return None
        accepted = self._accepted_flat(list(map(_SECOND, tokens)), lengths, task)
        if accepted is not None:
            try:   # what the per-tag table counts, made now: the distinct golds (blank rows, NFC) are then its keys
                ref.gold_counts()
            except TypeError:   # a gold that is not hashable: counted (or not) where it is read, as before
                pass
        return accepted

    def _accepted(self, values, flat, task):
        try:   # (the counts: what the per-tag table and the tag checks read; their keys are the distinct tags)
            counts = Counter(flat)
        except TypeError:   # an unhashable tag (a list, an object): not a string
            return None
        distinct = set(counts)
        if set(map(type, distinct)) - _ONLY_STR:
            return None
        accepted = Accepted(values, distinct)
        accepted.counts = counts   # (inventory.flat_counts)
        return accepted

    def _values(self, tags, log, si, task):
        bad = [ti for ti, tag in enumerate(tags) if type(tag) is not _STR]
        for ti in bad:
            log.add(WARNING, _where(si, ti, "[1]"), "the tag is %s, expected a string; it never matches%s"
                    % (_type_name(tags[ti]), LABEL_ID if type(tags[ti]) is int else ""),
                    kind="tag that is not a string")
            tags[ti] = None
        return tags

    def label_sets(self, ref, pred):
        """``(gold tags, predicted tags)``: the distinct tags of ``ref`` and of ``pred`` (sets), for
        :func:`evalkit.mended.older_labels`."""
        return set(_distinct_golds(ref)), set(_distinct_tags(pred))

    def check_labels(self, pred, log, task, inventory):
        """Tags outside the task's tag set (lower-case UPOS, another tag set): one warning with a "did you mean";
        no tag that is a string: one error."""
        labels.check_tags(pred, log, inventory, _tag_where)
        labels.check_older_tags(pred, log, inventory, _tag_where)
        labels.check_no_tag(pred, log, _tag_where)

    optional_details = True

    def score(self, ref, pred, task, details=True):
        """Per sentence accuracy and macro-F1 (components ``acc``, ``f1``); per-tag tp/fp/fn over the file
        (``details=False``: no per-tag table and no pooled accuracy, for callers that need only the scores).

        The sentences whose tags equal the gold (one C-level comparison each) score 1 on both, as the general
        path gives: only the others are scored one by one (:func:`tag_scores`, the C-level form of
        :func:`metrics.tag_accuracy_f1`). The per-tag counts are whole-file counts (:func:`_tag_counts`)."""
        golds = _golds(ref)
        n = len(golds)
        if len(pred) != n:
            raise ValueError("cannot pair %d items with %d" % (n, len(pred)))
        same = list(map(eq, pred, golds))
        acc = list(map(float, same))   # 1.0 where the tags are the gold's
        f1 = list(acc)
        memo = NfcMemo()
        nfc = None   # whether some tag is outside NFC: found out at the first sentence with a wrong tag
        zeroed = 0
        fixed = {}   # sentence -> its tags with those canonically equivalent to the gold replaced by the gold
        missing = False   # some sentence scored 0 (its tags None)
        hit_counts = {}   # the hits of the sentences scored one by one
        for si in compress(range(n), map(not_, same)):
            tags = pred[si]
            if tags is None:
                missing = True
            gold = golds[si]
            if not gold:
                continue
            if tags is None:
                zeroed += 1
                continue
            if nfc is None:   # the distinct predicted tags, when the file was accepted as it is, stand for them all
                nfc = not _all_nfc(chain(_distinct_golds(ref), _distinct_tags(pred)))
            if nfc:
                canonical = _canonical_values(tags, gold, memo)
                if canonical is not tags:
                    fixed[si] = tags = canonical
            acc[si], f1[si] = tag_scores(gold, tags, hit_counts)
        if not all(golds):   # empty sentences are not scored
            acc, f1 = list(compress(acc, golds)), list(compress(f1, golds))
        items = sum(map(len, golds))
        entry = Entry({"acc": metrics.mean(acc), "f1": metrics.mean(f1)}, {}, len(ref), len(acc), items, zeroed, {},
                      per_sentence={"acc": acc, "f1": f1})
        if details:
            if fixed:
                pred = [fixed.get(si, tags) for si, tags in enumerate(pred)]
            gold_counts, pred_counts, hit_counts = _tag_counts(ref, golds, pred, same, missing or fixed, hit_counts)
            entry.micro = {"acc": metrics.mean([sum(hit_counts.values())], items)}
            entry.details = {"per_tag": _per_tag_counts(gold_counts, pred_counts, hit_counts)}
        return entry


def _distinct_golds(ref):
    """The distinct gold values of a parsed pair reference (every gold when they cannot be a set)."""
    distinct = ref.distinct_golds() if isinstance(ref, PairReference) else None
    return chain.from_iterable(map(_SECOND, ref)) if distinct is None else distinct


def _distinct_tags(pred):
    """The distinct tags of a parsed prediction when known (:class:`Accepted`), else all of them."""
    predicted = getattr(pred, "distinct", None)
    return chain.from_iterable(filter(None, pred)) if predicted is None else predicted


def tag_scores(gold, tags, hit_counts=None):
    """``(accuracy, macro_f1)`` of one sentence, exactly :func:`metrics.tag_accuracy_f1`, with C-level counting;
    ``hit_counts`` (optional dict): the sentence's hits (true positives) per label are added to it.

    It relies on what :func:`metrics.accuracy_macro_f1` adds up: 2TP / (gold count + predicted count) for each
    label with a hit, in the order of the labels' first hits (the order of ``tag_counts``' hits), over the
    number of labels in the gold or the prediction; one dict of gold and predicted counts together gives both
    the denominators and that number.

    >>> tag_scores(["NOUN", "VERB", "NOUN"], ["NOUN", "NOUN", "NOUN"]) == metrics.tag_accuracy_f1(
    ...     ["NOUN", "VERB", "NOUN"], ["NOUN", "NOUN", "NOUN"])
    True
    """
    n = len(gold)
    if len(tags) != n:
        raise ValueError("gold has %d labels, prediction %d" % (n, len(tags)))
    if n == 0:
        return 0.0, 0.0
    hits = {}
    count = metrics.count_into
    count(hits, compress(gold, map(eq, gold, tags)))
    both = {}
    count(both, gold)
    count(both, tags)
    f1_sum = 0.0
    if hit_counts is None:
        for label, tp in hits.items():
            f1_sum += 2.0 * tp / both[label]
    else:
        get = hit_counts.get
        for label, tp in hits.items():
            f1_sum += 2.0 * tp / both[label]
            hit_counts[label] = get(label, 0) + tp
    return sum(hits.values()) / float(n), f1_sum / len(both)


def _tag_counts(ref, golds, pred, same, general, scored_hits):
    """``(gold_counts, pred_counts, hit_counts)`` over a whole file, as the lists of every gold, predicted and hit
    tag count them (a sentence scored 0 has gold tags only). ``same``: per sentence whether its tags are the gold's;
    ``general``: some sentence is scored 0 or was compared in NFC (``pred`` then holds the compared tags);
    ``scored_hits``: the hits per label of the sentences whose tags are not the gold's (:func:`tag_scores`).

    Without ``general``, the counts of the gold stand for all three where every tag is right; else the hits are
    those of the sentences scored one by one plus the gold tags of the others, the predictions are counted once
    over the file (C-level; :func:`evalkit.inventory.flat_counts`, shared with the tag checks)."""
    gold_counts = ref.gold_counts() if isinstance(ref, PairReference) else Counter(chain.from_iterable(golds))
    if general:
        kept = list(map(_NOT_NONE, pred))
        kept_golds = list(chain.from_iterable(compress(golds, kept)))
        tags = list(chain.from_iterable(compress(pred, kept)))
        if len(tags) != len(kept_golds):
            raise ValueError("cannot pair %d items with %d" % (len(kept_golds), len(tags)))
        return gold_counts, Counter(tags), Counter(compress(kept_golds, map(eq, kept_golds, tags)))
    if all(same):
        return gold_counts, gold_counts, gold_counts
    hit_counts = dict(scored_hits)
    metrics.count_into(hit_counts, chain.from_iterable(compress(golds, same)))
    return gold_counts, labels.flat_counts(pred), hit_counts


#: A detail table (per tag, per feature) lists every label of the reference but at most this many labels
#: found only in the prediction (a participant can invent one per token): the others are added up in one
#: row. Labels are shown with at most MAX_LABEL_CHARS characters (see :func:`evalkit.messages.printable`).
MAX_PREDICTED_ONLY_ROWS = 200
MAX_LABEL_CHARS = 100


def detail_label(label):
    """The key of ``label`` in a detail table: ``"null"`` for None, else a printable string of at most
    :data:`MAX_LABEL_CHARS` characters (labels that only differ past that limit share one row)."""
    if label is None:
        return "null"
    if type(label) is _STR and len(label) <= MAX_LABEL_CHARS and label.isprintable():
        return label
    return printable(label, MAX_LABEL_CHARS)


def _add_row(rows, key, row):
    """Add the counts of ``row`` to ``rows[key]`` (two labels can share a shown key)."""
    if key in rows:
        rows[key] = dict((name, rows[key][name] + count) for name, count in row.items())
    else:
        rows[key] = row


def _capped_rows(rows, in_reference, weight, what):
    """``rows`` (key -> counts) sorted by key, with every row ``in_reference`` but at most
    :data:`MAX_PREDICTED_ONLY_ROWS` others (the heaviest by ``weight``); the rest are summed in one row."""
    extra = sorted((key for key in rows if not in_reference(rows[key])), key=lambda key: (-weight(rows[key]), key))
    kept = set(key for key in rows if in_reference(rows[key])) | set(extra[:MAX_PREDICTED_ONLY_ROWS])
    out = dict((key, rows[key]) for key in sorted(kept))
    rest = extra[MAX_PREDICTED_ONLY_ROWS:]
    if rest:
        total = dict((name, sum(rows[key][name] for key in rest)) for name in rows[rest[0]])
        out["(%s other %s found only in the prediction)" % ("{:,}".format(len(rest)), what)] = total
    return out


def _per_tag(gold, pred, hits):
    """``{tag: {"tp", "fp", "fn"}}`` over a whole file from flat lists of gold, predicted and hit labels
    (tags shown as :func:`detail_label`; at most :data:`MAX_PREDICTED_ONLY_ROWS` tags never in the gold)."""
    return _per_tag_counts(Counter(gold), Counter(pred), Counter(hits))


def _per_tag_counts(gold_counts, pred_counts, hit_counts):
    """:func:`_per_tag` from the counts of the gold, predicted and hit labels (dicts label -> count > 0)."""
    per_tag = {}
    for label in set(gold_counts) | set(pred_counts):
        tp = hit_counts.get(label, 0)
        _add_row(per_tag, detail_label(label), {
            "tp": tp, "fp": pred_counts.get(label, 0) - tp, "fn": gold_counts.get(label, 0) - tp})
    return _capped_rows(per_tag, lambda row: row["tp"] + row["fn"] > 0, lambda row: row["fp"], "tags")


def topk_entry(ref_golds, pred, sentences, columns=None):
    """Score ranked candidates sentence by sentence: an :class:`Entry` with acc1/acc3 (shared by two kinds).

    ``ref_golds`` holds one gold sequence per sentence (None or empty: the sentence is skipped);
    ``pred`` one candidate-tuple sequence per sentence (None: the sentence scores 0).

    Strings are compared in NFC where they differ: the golds and candidates of the items missed at rank 1
    are gathered and checked at once (:func:`_all_nfc`); only when some of them are not in NFC is the file
    scored again, each sentence with a miss comparing its strings in NFC (:func:`_canonical_candidates`).

    A file is first scored in whole-file passes (:func:`_topk_whole_file`; ``columns``: :func:`gold_columns` of
    ``ref_golds`` when the caller has them); the sentence-by-sentence path below, with
    :func:`metrics.topk_accuracies`, scores what those passes leave (and remains the specification).
    """
    entry = _topk_whole_file(ref_golds, pred, sentences, columns)
    if entry is not None:
        return entry
    misses = []
    entry = _topk_entry(ref_golds, pred, sentences, misses)
    if misses and not _all_nfc(misses):
        entry = _topk_entry(ref_golds, pred, sentences, None)
    return entry


def gold_columns(ref_golds):
    """``(scored, lens, flat)`` of ``ref_golds`` (per sentence its gold sequence; None or empty: not scored), in
    C-level passes: which sentences are scored (a list of booleans, None when every one is), the item count of each
    scored sentence, and their golds end to end. A kind's parse may give them with its reference
    (:class:`GoldColumns`)."""
    try:
        lens = list(map(len, ref_golds))
    except TypeError:   # a sentence without a gold list (None: excluded)
        scored = list(map(truth, ref_golds))
    else:
        if 0 not in lens:
            return None, lens, list(chain.from_iterable(ref_golds))
        scored = list(map(truth, lens))
    golds = list(compress(ref_golds, scored))
    return scored, list(map(len, golds)), list(chain.from_iterable(golds))


class GoldColumns(Sequence):
    """A fill-mask reference parsed in columns: the sequence of its sentences ``(masked line, golds)`` (as the kind's
    walk returns them), made from the columns on first use, and what its parse computed while it read the golds:
    ``golds``, each sentence's gold sequence; ``columns``, their :func:`gold_columns` (read by the scorer instead of
    walking the sentences again); ``lines``, each sentence's masked line; ``given``, which sentences have a gold
    list (booleans, None when every one has); ``sizes``, the length of each such list (read by
    ``FillMaskKind._fast_parse``). A file scored on its fast paths never has its sentence pairs made. Every gold of a
    scored sentence is a string (its parse checked them all): no ``null`` gold to look for (``golds_checked``, read
    by :func:`evalkit.scoring.load_reference`). A parsed reference is never changed."""

    golds_checked = True

    def __init__(self, lines, golds, columns, given=None, sizes=None):
        self.lines, self.golds, self.columns, self.given, self.sizes = lines, golds, columns, given, sizes
        self._sentences = None

    def __len__(self):
        return len(self.golds)

    def __getitem__(self, index):
        return self.sentences()[index]

    def __iter__(self):
        return iter(self.sentences())

    def sentences(self):
        """The parsed sentences, ``[(masked line, golds), ...]``, made once."""
        if self._sentences is None:
            self._sentences = list(paired(self.lines, self.golds))
        return self._sentences


def _topk_whole_file(ref_golds, pred, sentences, columns=None):
    """:func:`topk_entry` in whole-file C-level passes (the same :class:`Entry`, every number equal), or None when
    it cannot decide: sentence counts or lengths that differ (the sentence-by-sentence path raises their error), an
    item that is not a candidate list or tuple, or strings missed at rank 1 that are not all in NFC (that path
    compares them in NFC). ``columns``: :func:`gold_columns` of ``ref_golds`` when the caller has them.

    The items of the sentences scored and predicted are laid end to end (``pred``'s own when it is an
    :class:`Accepted`: :func:`evalkit.inventory.candidate_items`, :func:`~evalkit.inventory.first_candidates`).
    A file whose first candidates are its golds gives 1.0 to each such sentence. Otherwise the items missed at rank
    1 (``first != gold``, as :func:`metrics.topk_accuracies` tests ``cands[0] == g``) are marked in bytes (1:
    missed), and those alone are asked whether their gold is among their candidates (``g in cands``: an item right
    at rank 1 always is); each sentence counts its misses on its slice of the marks (``bytes.count``), and its
    rescued misses on its slice of those (when no miss is rescued, each sentence's acc@3 is its acc@1). A ``pred``
    that its parse accepted against these very ``columns`` (an :class:`Accepted` whose ``columns`` attribute is
    them, :meth:`FillMaskKind._fast_parse`) is taken as it is: every scored sentence has one candidate list per
    gold, and its items end to end are those of the scored sentences. A sentence's share is its hits divided by its item count as that function
    divides them (integers exactly represented as floats: the same correctly rounded quotient), so the per-sentence
    lists, and their sums in file order, are the same numbers."""
    if len(ref_golds) != len(pred):
        return None
    scored, lens, flat_golds = columns or gold_columns(ref_golds)
    items = len(flat_golds)
    zeroed, made = 0, None
    if columns is not None and getattr(pred, "columns", None) is columns and type(pred) is Accepted:
        # accepted by its parse against these very columns (FillMaskKind._fast_parse): every scored sentence has one
        # candidate list per gold, and its items end to end are those of the scored sentences
        flat, owned, scored_count = pred.flat, True, len(lens)
    else:
        cands = pred if scored is None else list(compress(pred, scored))
        zeroed = cands.count(None)
        if zeroed:   # sentences scored 0 for their format: their golds aside
            made = list(map(_NOT_NONE, cands))
            cands, lens = list(compress(cands, made)), list(compress(lens, made))
            flat_golds = list(chain.from_iterable(compress(
                ref_golds if scored is None else compress(ref_golds, scored), made)))
        try:
            if list(map(len, cands)) != lens:
                return None
        except TypeError:   # a sentence that is not a list
            return None
        flat = labels.candidate_items(pred)
        owned = type(pred) is Accepted
        if flat is None or len(flat) != len(flat_golds):   # pred's items are not those of the scored sentences alone
            flat, owned = list(chain.from_iterable(cands)), False
        if not owned and set(map(type, flat)) - _SEQ_TYPES:
            return None
        scored_count = len(cands)
    firsts = labels.first_candidates(pred if owned else None, flat)
    if firsts == flat_golds:   # every item right at rank 1 (and so within the candidates)
        hits1 = hits3 = len(flat_golds)
        acc1 = [1.0] * scored_count if made is None else list(map(float, made))
        acc3 = list(acc1)
    else:
        missed = bytes(map(ne, firsts, flat_golds))
        missed_golds, missed_cands = list(compress(flat_golds, missed)), list(compress(flat, missed))
        text = pred.text if owned else None   # every distinct candidate joined, when a check has done it
        # checked in NFC as a whole when it holds about as few strings as the missed items (else those items' own)
        if text is not None and len(text[0]) <= 3 * len(missed_golds) and _text_nfc(text[1]):
            # then the missed golds alone may be outside NFC
            if not _all_nfc(missed_golds):
                return None
        else:
            strings = list(missed_golds)
            strings.extend(chain.from_iterable(missed_cands))
            if not _all_nfc(strings):
                return None
        rescued = bytes(map(contains, missed_cands, missed_golds))
        ends = list(accumulate(lens))
        hits1 = len(flat_golds) - len(missed_golds)
        hits3 = hits1 + rescued.count(1)
        if hits3 == hits1:   # no miss rescued at rank 2 or 3: each sentence's acc@3 is its acc@1 (one pass)
            acc1 = list(map(truediv, map(sub, lens, map(missed.count, repeat(1), chain((0,), ends), ends)), lens))
            acc3 = list(acc1)
        else:
            misses = list(map(missed.count, repeat(1), chain((0,), ends), ends))
            hits = list(map(sub, lens, misses))
            acc1 = list(map(truediv, hits, lens))
            ends = list(accumulate(misses))
            acc3 = list(map(truediv, map(add, hits, map(rescued.count, repeat(1), chain((0,), ends), ends)), lens))
        if made is not None:   # the sentences scored 0 for their format, in their places
            got1, got3 = iter(acc1), iter(acc3)
            acc1 = [next(got1) if m else 0.0 for m in made]
            acc3 = [next(got3) if m else 0.0 for m in made]
    return Entry({"acc1": metrics.mean(acc1), "acc3": metrics.mean(acc3)},
                 {"acc1": metrics.mean([hits1], items), "acc3": metrics.mean([hits3], items)},
                 sentences, len(acc1), items, zeroed, {}, per_sentence={"acc1": acc1, "acc3": acc3})


def _topk_entry(ref_golds, pred, sentences, misses):
    """:func:`topk_entry` itself. With ``misses`` a list, strings are compared as they are and the golds and
    candidates of the items missed at rank 1 are added to it; with ``misses`` None, each sentence with a
    miss compares its strings in NFC."""
    acc1, acc3 = [], []
    items = zeroed = hits1_all = hits3_all = 0
    memo = NfcMemo()
    topk, first = metrics.topk_accuracies, _FIRST
    for gold, cands in paired(ref_golds, pred):
        if not gold:
            continue
        items += len(gold)
        if cands is None:
            zeroed += 1
            acc1.append(0.0)
            acc3.append(0.0)
            continue
        try:
            right = list(map(first, cands)) == gold
        except (IndexError, TypeError):   # an empty candidate list: item by item
            right = False
        if right:   # every item right at rank 1, as item by item in topk
            acc1.append(1.0)
            acc3.append(1.0)
            hits1_all += len(gold)
            hits3_all += len(gold)
            continue
        a1, a3, h1, h3 = topk(gold, cands, misses)
        if h1 < len(gold) and misses is None:   # compare in NFC where they differ
            fixed = _canonical_candidates(gold, cands, memo)
            if fixed is not cands:
                a1, a3, h1, h3 = metrics.topk_accuracies(gold, fixed)
        acc1.append(a1)
        acc3.append(a3)
        hits1_all += h1
        hits3_all += h3
    return Entry({"acc1": metrics.mean(acc1), "acc3": metrics.mean(acc3)},
                 {"acc1": metrics.mean([hits1_all], items), "acc3": metrics.mean([hits3_all], items)},
                 sentences, len(acc1), items, zeroed, {}, per_sentence={"acc1": acc1, "acc3": acc3})


def _candidate_text(pred, distinct):
    """:func:`evalkit.inventory.candidate_text` of ``distinct`` (None when None), kept by an :class:`Accepted`
    ``pred`` for :func:`topk_entry` (its NFC check)."""
    text = getattr(pred, "text", None)
    if text is None:
        text = labels.candidate_text(distinct) if distinct is not None else None
        if type(pred) is Accepted:
            pred.text = text
    return text


def _score_candidates(ref, pred):
    """:func:`topk_entry` of a parsed reference (per sentence ``(forms or masked line, golds)``, or a
    :class:`GoldColumns`) and its parsed prediction."""
    if isinstance(ref, GoldColumns):
        return topk_entry(ref.golds, pred, len(ref), ref.columns)
    if isinstance(ref, PairReference):   # its golds end to end, shared with the checks; cut into sentences if read
        return topk_entry(_ReferenceGolds(ref), pred, len(ref), ref.gold_columns())
    return topk_entry(_golds(ref), pred, len(ref))


class _ReferenceGolds(Sequence):
    """The gold values of each sentence of a :class:`PairReference` (:meth:`PairReference.golds`), made only when
    one is read: :func:`topk_entry` given the reference's :meth:`~PairReference.gold_columns` reads only their
    count unless it scores sentence by sentence."""

    def __init__(self, ref):
        self.ref = ref

    def __len__(self):
        return len(self.ref)

    def __getitem__(self, index):
        return self.ref.golds()[index]

    def __iter__(self):
        return iter(self.ref.golds())


class CandidatesKind(PairKind):
    """Up to N ranked candidates per token (lemmas); acc@1 and acc@3 per sentence."""

    name = "candidates"
    items = PairItems(secret_golds=True)
    #: The position of a token's value in a message (:mod:`evalkit.blank`).
    item_where = staticmethod(_lemma_where)
    value_label = "candidates"
    floor_causes = ("the candidates of another token (shifted by one), the form copied where its lemma is "
                    "expected, several candidates joined into one string, the best candidate last, candidates "
                    "upper-cased or capitalised")
    #: Ranked candidates, of which only the first ``task.max_candidates`` count (said when a file is refused).
    ranks_candidates = True
    #: The top-1 and top-k components of its score, and k (:func:`evalkit.floor.inverted_ranks`).
    ranked_components = ("acc1", "acc3", 3)
    #: Its scoring reads only the golds (:meth:`PairReference.gold_columns`), its parse the forms end to end.
    lazy_reference = True

    def _fast_parse(self, value, ref, task):
        """:meth:`PairKind._fast_parse` with the forms and values read together, and the tokens' shapes checked, by
        one ``zip_longest(*tokens)``: it gives two columns exactly when the longest token has two items, and a token
        of fewer items gets None for its value. Every value must be a list (:func:`_distinct_candidates`), so a
        token that is not a pair is refused all the same: None, or a string (the second character of a string, the
        second key of an object); anything else has no items at all."""
        lengths = _lengths(ref)
        if set(map(type, value)) - _ONLY_LIST or list(map(len, value)) != lengths:
            return None
        tokens = list(chain.from_iterable(value))
        try:   # one C-level pass for both, no call per token: exactly two columns when the longest token has two
            forms, flat = zip_longest(*tokens) if tokens else ((), ())
        except (TypeError, ValueError):   # a token that is not a sequence, a token of more than two items
            return None
        if list(forms) != _flat_forms(ref):
            return None
        return self._accepted_flat(list(flat), lengths, task)

    def _accepted(self, values, flat, task):
        return _accepted_candidates(values, flat, task.max_candidates)

    def _values(self, values, log, si, task):
        return _candidate_lists(values, log, task.max_candidates, _lemma_where, si)

    def item_golds(self, ref):
        """The golds of each sentence (for :func:`evalkit.mended.stripped_marks`)."""
        return _golds(ref)

    def item_text(self, ref):
        """The input's text: every form (for :func:`evalkit.mended.stripped_marks`)."""
        return _flat_forms(ref)

    def check_labels(self, pred, log, task, inventory):
        """The ranked candidates' checks (:func:`check_candidate_lists`) and lemmas with sense numbers: one warning
        per class, no candidate at all one error."""
        check_candidate_lists(pred, log, task, _lemma_where)
        labels.check_sense_numbers(pred, log, _lemma_where)

    def score(self, ref, pred, task):
        """Per sentence acc@1 and acc@3 over the tokens (components ``acc1``, ``acc3``)."""
        return _score_candidates(ref, pred)


class MorphKind(Kind):
    """A feature bundle per token; the 2024 token score (+1 / 0 / -1 marks), averaged per sentence."""

    name = "morph"
    items = MorphItems()
    floor_causes = ("features written otherwise than as one key per feature (a FEATS string, an object), "
                    "values of another case or tag set, the features of another token (shifted by one)")

    def _form(self, tok, task):
        for key in task.form_keys:
            if key in tok:
                return tok[key]
        return None

    def _tokens(self, sent, name, si, task):
        """Check one sentence of token objects; return their forms (raise DataError at a non-object)."""
        bad = [ti for ti, tok in enumerate(sent) if type(tok) is not dict] if set(map(type, sent)) - _ONLY_DICT else []
        if bad:
            raise DataError(name, _where(si, bad[0]), "expected a token object like {\"Token\": ..., \"UPOS\": ..., "
                            "<feature>: <value>}, got %s" % _type_name(sent[bad[0]]))
        forms = list(map(dict.get, sent, repeat(task.form_keys[0])))
        if None in forms:
            forms = [self._form(tok, task) for tok in sent]
        return forms

    def _feats(self, tok, ignored):
        feats = dict(tok)
        for key in ignored:
            if key in feats:
                del feats[key]
        return feats

    def _fast_parse(self, value, ref, task):
        """The parsed prediction when the whole file is flawless (see :meth:`PairKind._fast_parse`): every
        sentence a list of the reference's length, every token an object whose first form key holds the
        reference's form (the parsed sentences then share the reference's forms). A
        :class:`~evalkit.morph_batch.Prediction` (:func:`evalkit.morph_batch.parse_prediction`): the sentences that
        differ from their gold are walked once, their tokens checked and scored for :meth:`check_labels` and
        :meth:`score`."""
        return morph_batch.parse_prediction(value, ref, task.form_keys[0], task.ignored_keys)

    def parse_reference(self, value, name, task):
        """Parsed sentences ``(forms, token objects)``; features are taken from the objects when needed. A
        reference whose every token holds its form under the first form key is read in C-level passes
        (:func:`evalkit.morph_batch.parse_reference`)."""
        check_sentence_list(value, name)
        fast = morph_batch.parse_reference(value, task.form_keys[0])
        if fast is not None:
            return fast
        ref = []
        for si, sent in enumerate(value):
            _check_sentence(sent, name, si, "tokens")
            ref.append((self._tokens(sent, name, si, task), sent))
        return ref

    uses_facts = True

    def index_facts(self, ref, task):
        """The gold's (feature, value) counts of ``ref`` (:func:`evalkit.morph_batch.features_facts`), or None."""
        return morph_batch.features_facts(ref, task.ignored_keys)

    def attach_facts(self, ref, facts, task):
        """Cache the gold's (feature, value) counts of the index in ``ref`` (:func:`evalkit.morph_batch.
        attach_features`): :func:`evalkit.morph_batch.reference_features` then need not count them."""
        morph_batch.attach_features(ref, facts, task.ignored_keys)

    def check_golds(self, ref, name):
        """Raise DataError at the first reference token with a null value (a null gold feature value would
        be matched by a null prediction)."""
        for si, (_, sent) in enumerate(ref):
            for ti, tok in enumerate(sent):
                for key, item in tok.items():
                    if item is None:
                        raise DataError(name, _where(si, ti, "[\"%s\"]" % key), "expected a string value, got null")

    def _parse_sentence(self, sent, ref_sent, log, si, task):
        ref_forms = ref_sent[0]
        if not self._parse_tokens(sent, ref_forms, log, si):
            return None
        forms = self._tokens(sent, log.file, si, task)
        if forms != ref_forms:
            self._report_forms(log, si, forms, ref_forms, task)
        return forms, sent

    def _canonical_marks(self, gfeats, ptok, ignored, hits, extra, memo):
        """The marks of a token once its feature values canonically equivalent to the gold's count as equal
        (``memo``: an :class:`NfcMemo`)."""
        try:   # C-level: every gold value and every predicted value of the same features ASCII?
            if "".join(gfeats.values()).isascii() and "".join(map(ptok.get, gfeats, repeat(""))).isascii():
                return hits, extra   # ASCII strings are equivalent only when equal
        except TypeError:   # a value that is not a string: the exact check below
            pass
        get = memo.__getitem__
        fixes = dict((key, value) for key, value in gfeats.items()
                     if type(ptok.get(key)) is _STR and type(value) is _STR and ptok[key] != value
                     and get(ptok[key]) == get(value))
        if not fixes:
            return hits, extra
        fixed = dict(ptok)
        fixed.update(fixes)
        return metrics.morph_marks(gfeats, fixed, ignored)

    def check_labels(self, pred, log, task, inventory):
        """Feature mistakes (a FEATS string, nested features, ``"_"`` or NaN for an absent feature, numbers, names
        and values outside the inventory): one warning per class. For a file accepted as it is
        (:class:`~evalkit.morph_batch.Prediction`), the pairs checked are the gold's (counted once per reference)
        and the predicted pairs that are not the gold's (found when the file was read), and only the tokens that
        hold one of the latter are walked when the gold holds no pair with a mistake."""
        labels.check_features(pred, log, inventory, task.ignored_keys, _where, **self._feature_hints(pred, task))

    def _feature_hints(self, pred, task):
        """The keyword arguments of :func:`evalkit.inventory.check_features` for ``pred`` (see :meth:`check_labels`):
        none unless ``pred`` is a :class:`~evalkit.morph_batch.Prediction` whose values are all hashable."""
        if type(pred) is not morph_batch.Prediction or pred.ignored != task.ignored_keys:
            return {}
        gold_pairs = morph_batch.reference_features(pred.reference, task.ignored_keys)
        try:
            pairs = pred.marks.distinct_pairs()
        except TypeError:   # an unhashable value: the whole file is walked
            return {}
        if gold_pairs is None:
            return {}
        pairs.update(gold_pairs)
        return {"pairs": pairs, "gold_pairs": gold_pairs, "candidates": morph_batch.candidates(pred)}

    #: The position of a token's features in a message (:mod:`evalkit.mended`).
    item_where = staticmethod(_where)

    def feature_sets(self, ref, pred, ignored):
        """``(gold pairs, predicted pairs)``: the (feature, value) pairs of the gold of ``ref`` (a dict or set) and
        those of ``pred`` that are not the gold's where they are known apart (a set), for
        :func:`evalkit.mended.older_features`; None when a value is unhashable."""
        golds = morph_batch.reference_features(ref, ignored)
        if golds is None:
            return None
        try:
            if type(pred) is morph_batch.Prediction and pred.reference is ref and pred.ignored == ignored:
                predicted = pred.marks.distinct_pairs()
            else:
                predicted = set(chain.from_iterable(map(dict.items, chain.from_iterable(
                    sent[1] for sent in pred if sent is not None))))
        except TypeError:   # an unhashable value
            return None
        return golds, set(pair for pair in predicted if pair[0] not in ignored)

    def _report_forms(self, log, si, forms, ref_forms, task):
        for ti, form in enumerate(forms):
            if form is None:
                log.add(ERROR, _where(si, ti), "no %s key: the token scores 0" % " or ".join(task.form_keys),
                        kind="token without a form (scored 0)")
        _report_forms(log, si, [ref if f is None else f for f, ref in paired(forms, ref_forms)], ref_forms,
                      ": the token scores 0")

    optional_details = True

    def score(self, ref, pred, task, details=True):
        """Per sentence the mean token score (one component); per-feature counts over the file
        (``details=False``: no per-feature table and no feature accuracy, for callers that need only the scores).

        Feature values are compared in NFC where they differ: the gold and predicted values of the tokens
        with a feature missed are gathered and checked at once (:func:`_all_nfc`); only when some of them
        are not in NFC is the file scored again, each such token comparing its values in NFC
        (:meth:`_canonical_marks`). A file accepted as it is (:class:`~evalkit.morph_batch.Prediction`) was scored
        when it was read: the values of its features missed are checked (among the distinct values already known,
        :func:`evalkit.morph_batch.missed_values`: a value not in NFC there sends the file to the exact path), then
        :meth:`_batch_score` sums it up."""
        if type(pred) is morph_batch.Prediction and pred.reference is ref and pred.ignored == task.ignored_keys:
            if not pred.marks.missed or all(map(_all_nfc, morph_batch.missed_values(pred))):
                return self._batch_score(ref, pred, task, details)
            return self._score(ref, pred, task, None, details)
        misses = []
        entry = self._score(ref, pred, task, misses, details)
        if misses and not _all_nfc(misses):
            entry = self._score(ref, pred, task, None, details)
        return entry

    def _batch_score(self, ref, pred, task, details):
        """:meth:`_score` of a file accepted as it is (``pred``, a :class:`~evalkit.morph_batch.Prediction` of
        ``ref``: no sentence scored 0, every form the reference's, the tokens of the sentences that differ from
        their gold scored when it was read), with values compared as they are. The per-feature totals are the
        reference's (:func:`evalkit.morph_batch.feature_totals`); a feature's hits are its total less its misses,
        since every gold feature of a token equal to its gold is a hit."""
        lens = ref.lens if type(ref) is morph_batch.Reference else list(map(len, map(_SECOND, ref)))
        sent_scores = morph_batch.sentence_scores(lens, pred.differ, pred.marks.scores)
        items = sum(lens)
        if not details:
            return Entry({"score": metrics.mean(sent_scores)}, {}, len(ref), len(sent_scores), items, 0, {},
                         per_sentence={"score": sent_scores})
        ignored = task.ignored_keys
        total = morph_batch.feature_totals(ref, ignored)
        misses = Counter(pred.marks.missed)
        correct = dict((key, count - misses.get(key, 0)) for key, count in total.items())
        return self._entry(ref, sent_scores, items, 0,
                           _per_feature(total, correct, Counter(pred.marks.extra), ignored))

    def _entry(self, ref, sent_scores, items, zeroed, per_feature):
        """The :class:`Entry` of a file from its sentence scores and its per-feature table."""
        correct = sum(row["correct"] for row in per_feature.values())
        total = sum(row["total"] for row in per_feature.values())
        return Entry({"score": metrics.mean(sent_scores)}, {"feature_acc": metrics.mean([correct], total)},
                     len(ref), len(sent_scores), items, zeroed, {"per_feature": per_feature},
                     per_sentence={"score": sent_scores})

    def _score(self, ref, pred, task, misses, details=True):
        """:meth:`score` itself. With ``misses`` a list, values are compared as they are and the gold values
        of every token with a feature missed, and its predicted values of the same features, are added to
        it; with ``misses`` None, such a token compares its values in NFC."""
        sent_scores = []
        items = zeroed = 0
        ignored = task.ignored_keys
        gold_keys, hit_keys, extra_keys = [], [], []  # feature names; ignored keys are dropped at the end
        same_keys = []   # the keys of the sentences equal to the reference's: each is gold and hit
        memo = NfcMemo()
        note = None if misses is None else misses.extend
        feats, marks, token_score = self._feats, metrics.morph_marks, metrics.morph_score_from_marks
        for (ref_forms, gold), sent in paired(ref, pred):
            if not gold:
                continue
            items += len(gold)
            if sent is None:
                if details:
                    gold_keys.extend(chain.from_iterable(gold))
                zeroed += 1
                sent_scores.append(0.0)
                continue
            forms, toks = sent
            if not len(ref_forms) == len(gold) == len(forms) == len(toks):
                raise ValueError("sentence lengths differ: %d, %d, %d, %d"
                                 % (len(ref_forms), len(gold), len(forms), len(toks)))
            if toks == gold:   # every token the reference's own: each scores 1, as token by token below
                sent_scores.append(1.0)
                if details:
                    same_keys.extend(chain.from_iterable(gold))
                continue
            if details:
                gold_keys.extend(chain.from_iterable(gold))
            total = 0.0
            for gform, gtok, pform, ptok in zip(ref_forms, gold, forms, toks):  # lengths checked above
                if ptok == gtok:  # the reference token itself: every feature right, nothing extra
                    total += 1.0
                    if details:
                        hit_keys.extend(gtok)
                elif pform == gform or same_text(pform, gform):
                    gfeats = feats(gtok, ignored)
                    hits, extra = marks(gfeats, ptok, ignored)
                    if len(hits) < len(gfeats) and note is not None:
                        note(gfeats.values())
                        note(map(ptok.get, gfeats, repeat("")))
                    elif len(hits) < len(gfeats):   # compare in NFC where they differ
                        hits, extra = self._canonical_marks(gfeats, ptok, ignored, hits, extra, memo)
                    total += token_score(len(gfeats), len(hits), len(extra))
                    if details:
                        hit_keys.extend(hits)
                        extra_keys.extend(extra)
            sent_scores.append(total / len(gold))
        if not details:
            return Entry({"score": metrics.mean(sent_scores)}, {}, len(ref), len(sent_scores), items, zeroed, {},
                         per_sentence={"score": sent_scores})
        same = Counter(same_keys)
        return self._entry(ref, sent_scores, items, zeroed, _per_feature(
            same + Counter(gold_keys), same + Counter(hit_keys), Counter(extra_keys), ignored))


def _per_feature(total, correct, spurious, ignored):
    """``{feature: {"correct", "total", "spurious"}}`` over a whole file from the Counters of key names (in the
    gold, hit, predicted but not in the gold).

    Keys in ``ignored`` (form, UPOS, lemma) are not features and are dropped; names are shown as
    :func:`detail_label`, with at most :data:`MAX_PREDICTED_ONLY_ROWS` features the reference never has.
    """
    rows = {}
    for key in set(total) | set(spurious):
        if key not in ignored:
            _add_row(rows, detail_label(key), {"correct": correct.get(key, 0), "total": total.get(key, 0),
                                               "spurious": spurious.get(key, 0)})
    return _capped_rows(rows, lambda row: row["total"] > 0, lambda row: row["spurious"], "features")


class FillMaskKind(Kind):
    """Ranked candidates per masked position; acc@1 and acc@3 per sentence with at least one mask."""

    name = "fill_mask"
    items = FillMaskItems()
    #: The position of a gap's candidates in a message (:mod:`evalkit.mended`).
    item_where = staticmethod(_mask_where)
    floor_causes = ("candidates in the wrong unit (whole words for character gaps, characters for word gaps), "
                    "the candidates of another gap or sentence, several candidates in one string, the best "
                    "candidate last, candidates upper-cased or capitalised, a space written \"_\" or stripped")
    ranks_candidates = True   # see CandidatesKind
    ranked_components = CandidatesKind.ranked_components

    def parse_reference(self, value, name, task):
        """Parsed sentences ``(masked line, golds)``; golds ``None`` for an excluded sentence."""
        check_sentence_list(value, name)
        try:   # C-level passes; a TypeError (a sentence that is not an object, golds that are not a list) is the
            # walk's to locate: dict.get and list.__len__ accept only their own type. The lines are read while the
            # sentence objects are at hand (a later pass comes back to them at a higher cost)
            golds = list(map(dict.get, value, repeat("masked_tokens")))
            lines = list(map(dict.get, value, repeat("masked")))
            given = list(map(is_not, golds, repeat(None)))   # (a partial costs a call more)
            present = golds if False not in given else list(compress(golds, given))
            sizes = list(map(list.__len__, present))
        except TypeError:
            sizes = None
        if sizes is not None:
            flat = list(chain.from_iterable(present))
            if not set(map(type, flat)) - _ONLY_STR:   # plain gold strings: the scorer's columns at once
                scored = list(map(truth, golds))
                return GoldColumns(lines, golds,
                                   (None if False not in scored else scored, list(filter(None, sizes)), flat),
                                   None if False not in given else given, sizes)
        ref = []
        for si, sent in enumerate(value):
            if type(sent) is not dict:
                raise DataError(name, _where(si), "expected a sentence object, got %s" % _type_name(sent))
            ref.append((sent.get("masked"), self._golds(sent, name, si)))
        return ref

    def _golds(self, sent, name, si):
        golds = sent.get("masked_tokens")
        if golds is None:
            return None  # excluded sentence: not scored, prediction not checked
        if type(golds) not in _SEQ:
            raise DataError(name, _where(si, extra="[\"masked_tokens\"]"),
                            "expected a list of gold strings, got %s" % _type_name(golds))
        out = [gold["masked_token"] if type(gold) is dict and "masked_token" in gold else gold for gold in golds]
        for gold in out:
            if gold is not None and type(gold) is not _STR:
                raise DataError(name, _where(si, extra="[\"masked_tokens\"]"),
                                "expected gold strings, got %s" % _type_name(gold))
        return out

    def check_golds(self, ref, name):
        """Raise DataError at the first null gold of a scored sentence (see :meth:`Kind.check_golds`). A
        :class:`GoldColumns` reference has none: its parse found every gold a string."""
        if type(ref) is GoldColumns:
            return
        for si, (_, golds) in enumerate(ref):
            if golds is not None and None in golds:
                raise DataError(name, _mask_where(si, golds.index(None)), "expected a gold string, got null")

    def _fast_parse(self, value, ref, task):
        """The parsed prediction when the whole file is flawless (see :meth:`PairKind._fast_parse`), in C-level
        passes: every sentence an object whose ``"masked"`` (when given) is the reference's and, where the
        reference scores the sentence, whose ``"masked_tokens"`` is a list of one candidate list per gap. The
        :class:`Accepted` it returns against a :class:`GoldColumns` carries the reference's ``columns`` (the
        attribute): :func:`_topk_whole_file` then reads its items as they are, with no check of its shape again."""
        lines, given, sizes = getattr(ref, "lines", None), getattr(ref, "given", None), getattr(ref, "sizes", None)
        if sizes is None:   # a reference that is not a GoldColumns (a test phase's part): its columns now
            lines, golds = list(map(_FIRST, ref)), list(map(_SECOND, ref))
            given = list(map(_NOT_NONE, golds))
            sizes = list(map(len, compress(golds, given)))
            if False not in given:
                given = None
        try:   # C-level passes; dict.get and list.__len__ raise TypeError for any other type than their own. A
            # sentence without "masked" has the reference's line in its place (as the walk reads it); the lines are
            # compared without a list of them (``all`` stops at the first that differs)
            cands = list(map(dict.get, value, repeat("masked_tokens")))
            if not all(map(eq, map(dict.get, value, repeat("masked"), lines), lines)):
                return None
            kept = cands if given is None else list(compress(cands, given))
            if list(map(list.__len__, kept)) != sizes:
                return None
        except TypeError:   # a sentence that is not an object, candidates that are not a list
            return None
        accepted = _accepted_candidates(cands if given is None else list(map(getitem, zip(repeat(None), cands),
                                                                                  given)),
                                        list(chain.from_iterable(kept)), task.max_candidates)
        if accepted is not None and type(ref) is GoldColumns:   # its shape checked against these columns
            accepted.columns = ref.columns
        return accepted

    def _parse_sentence(self, sent, ref_sent, log, si, task):
        masked, golds = ref_sent
        if type(sent) is not dict:
            raise DataError(log.file, _where(si), "expected a sentence object {\"masked\": ..., \"text\": ..., "
                            "\"masked_tokens\": [...]}, got %s" % _type_name(sent))
        if golds is None:
            return None
        given = sent.get("masked", masked)
        if masked is not None and not same_text(given, masked):
            if type(masked) is _STR and mended.is_stripped(given, masked):
                log.add(WARNING, _where(si, extra="[\"masked\"]"), "\"masked\" differs from the input line %s"
                        % LOST_MARKS, kind="\"masked\" that differs from the input line only by its marks")
            else:
                log.add(WARNING, _where(si, extra="[\"masked\"]"), "\"masked\" differs from the input line; "
                        "check the sentence order", kind="\"masked\" that differs from the input line")
        return self._parse_candidates(sent, len(golds), log, si, task)

    def _parse_candidates(self, sent, n_masks, log, si, task):
        cands = sent.get("masked_tokens")
        if cands is None and n_masks == 0:
            return []
        if type(cands) not in _SEQ:
            hint = (": the candidates of every gap joined into one string (%s)? Give one list per gap, best first: "
                    "[[\"a\", \"b\"], [\"c\"]]" % quoted(cands, 60)) if type(cands) is _STR else ""
            unknown = [key for key in sent if key not in ("masked", "text", "masked_tokens")]
            if cands is None and "masked_tokens" not in sent and unknown:
                hint = (": the sentence has no key \"masked_tokens\", and a key the task does not know (%s): name the "
                        "candidates \"masked_tokens\"" % ", ".join(quoted(key, 30) for key in unknown[:3]))
            raise DataError(log.file, _where(si, extra="[\"masked_tokens\"]"),
                            "expected a list with one candidate list per mask, got %s%s" % (_type_name(cands), hint))
        if len(cands) != n_masks:
            _token_count_error(log, si, len(cands), n_masks, "candidate list")
            return None
        return _candidate_lists(cands, log, task.max_candidates, _mask_where, si)

    def check_labels(self, pred, log, task, inventory):
        """The ranked candidates' checks (:func:`check_candidate_lists`; the task's gap marker never matches): one
        warning per class, no candidate at all one error."""
        marker = getattr(task, "mask_marker", None)
        check_candidate_lists(pred, log, task, _mask_where, (marker,) if marker else ())

    def item_golds(self, ref):
        """The golds of each sentence (None: excluded), for :func:`evalkit.mended.stripped_marks`."""
        return ref.golds if isinstance(ref, GoldColumns) else [golds for _, golds in ref]

    def item_text(self, ref):
        """The input's text: every masked line (for :func:`evalkit.mended.stripped_marks`)."""
        return ref.lines if isinstance(ref, GoldColumns) else [line for line, _ in ref]

    def scorable(self, ref):
        """The sentences with at least one gap (an excluded sentence, ``null`` gold, is never scored)."""
        return [si for si, (_, golds) in enumerate(ref) if golds]

    def score(self, ref, pred, task):
        """Per sentence with a gap, acc@1 and acc@3 over its gaps (components ``acc1``, ``acc3``)."""
        return _score_candidates(ref, pred)


KINDS = dict((kind.name, kind) for kind in (TaggingKind(), CandidatesKind(), MorphKind(), FillMaskKind()))
