"""Predictions outside a task's inventory: well-formed and scored as they are, but almost certainly a mistake
that costs most of a file's score (lower-case tags, the features of a token written as one CoNLL-U FEATS string
or nested in an object, ``"_"``, ``null`` or NaN for an absent feature, numbers as values, several candidates
joined into one string). Each class of mistake gets ONE warning per file, with a count, the first positions and
a "did you mean"; warnings never change a score.

The inventory of a (task, language) is
- what the competition declares: ``Task.labels`` (a closed tag set, or one per language), ``Task.label_aliases``
  (other spellings of a tag), ``Task.features`` (feature name -> its values, None for any value);
- plus, when the phase's reference folder holds :data:`FILE_NAME`, the tags, feature names and values that the
  language's public TRAINING data uses. That file is written from the training split only (the starting kit's
  validator writes it from the released data; a reference builder may too), never from the reference files,
  whose gold is hidden: a message listing "the values the reference uses" would reveal it. Its shape::

      {"source": "train", "files": {"<task folder>/<lang>": {"labels": ["NOUN"], "features": {"Case": ["Nom"]}}}}

Without the training data of a language (no entry in that file), feature names and values are judged only where
the mistake is certain: a case variant of a known name or value (``case``, ``nom``), a name or value that is not
written as UD writes them (a capital or a digit first), and the wrong types and absent-value markers.

Every check first looks at the file's distinct labels with C-level set operations (a file the kind accepted as it
is comes with them: ``kinds.Accepted``) and walks the tokens only to locate a problem in a file that gets the
warning, so a file without one costs a few set operations.
"""
import difflib
import json
import re
import unicodedata
from bisect import bisect_right
from collections import Counter, OrderedDict
from heapq import heapify, heappop, heappush
from itertools import accumulate, chain, compress, count, repeat
from operator import eq, itemgetter

from .loading import read_optional_json
from .mended import CandidateMend, LabelMend
from .messages import ERROR, LOSS_NOTE, WARNING, ZERO_NOTE, printable, quoted

FILE_NAME = "inventory.json"
#: Keys under which a token's features are commonly written as one CoNLL-U FEATS string or nested object.
FEATS_KEYS = frozenset(("feats", "feat", "features", "feature", "ufeats", "morphological_features", "msd"))
#: How UD writes a feature name (``Case``, ``Number[psor]``) and a value (``Nom``, ``3``, ``Prs,Rel``).
UD_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*(\[[a-z0-9]+\])?$")
UD_VALUE = re.compile(r"^[A-Z0-9]")
#: How UD writes a tag (``NOUN``, ``_``): a tag written otherwise (``noun``, an XPOS such as ``VERcjg``) is reported
#: even when the language's own tags are not known.
UD_TAG = re.compile(r"^([A-Z]+|_)$")
#: At most this many distinct examples are named in a warning, each shown with at most SHOWN characters.
MAX_EXAMPLES = 3
SHOWN = 60
#: Candidates joined into one string are reported when at least this share of the items has one (a lemma may
#: itself hold a ``|``: a few such items are not a mistake).
JOINED_SHARE = 0.1


def read_inventory(path, max_bytes=64 * 1024 * 1024):
    """``{"<task folder>/<lang>": {"labels": [...], "features": {...}}}`` from the optional file at ``path``;
    ``{}`` when it is absent or unusable (the declared inventory is used alone)."""
    value = read_optional_json(path, max_bytes)
    files = value.get("files") if type(value) is dict else None
    return files if type(files) is dict else {}


def feature_inventory(feats_strings):
    """``{feature: sorted values}`` of CoNLL-U FEATS strings (``"Case=Nom|Number=Sing"``; ``"_"`` is none; a
    multi-value ``PronType=Int,Rel`` gives both values).

    >>> feature_inventory(["Case=Nom|Number=Sing", "_", "PronType=Int,Rel"])
    {'Case': ['Nom'], 'Number': ['Sing'], 'PronType': ['Int', 'Rel']}
    """
    found = {}
    for feats in feats_strings:
        if not feats or feats == "_":
            continue
        for pair in feats.split("|"):
            name, _, value = pair.partition("=")
            found.setdefault(name, set()).update(part for part in value.split(",") if part)
    return dict((name, sorted(values)) for name, values in sorted(found.items()))


class Inventory(object):
    """The inventory of one (task, language): ``labels`` (a frozenset, or None when the task has no tag set),
    ``label_aliases``, ``features`` (``{name: frozenset of values, or None for any}``), and ``closed``: whether
    the language's training data is known (then a name or value outside the inventory is reported). ``older``: the
    task's older scheme (``Task.older_scheme``: its name, the current scheme's, and what was renamed), or None;
    ``trained_labels``: the tags of the language's training data alone; ``xpos``: ``{XPOS tag: the tag it has most
    often}`` in the language's training data (another column of the same rows, which a tagger may be trained on)."""

    def __init__(self, task, lang, extra=None):
        extra = extra if type(extra) is dict else {}
        labels = getattr(task, "labels", None)
        if isinstance(labels, dict):
            labels = labels.get(lang)
        self.trained_labels = frozenset(_strings(extra.get("labels")))
        self.labels = frozenset(labels) | self.trained_labels if labels else None
        self.labels_closed = bool(self.trained_labels)
        #: the task's tag set is the same for every language (UPOS): a tag outside it is wrong even where the
        #: language's training data is not known
        self.universal = bool(getattr(task, "universal_labels", False))
        #: the gold label of rows that have no value of their own (multiword-token ranges), or None
        self.blank = (getattr(task, "blank_rows", None) or (None,))[0]
        xpos = extra.get("xpos") if type(extra.get("xpos")) is dict else {}
        self.xpos = dict((tag, upos) for tag, upos in xpos.items() if type(upos) is str and self.labels
                         and upos in self.labels)
        self.older = getattr(task, "older_scheme", None)
        self.label_aliases = dict(getattr(task, "label_aliases", None) or {})
        declared = getattr(task, "features", None) or {}
        trained = extra.get("features") if type(extra.get("features")) is dict else {}
        self.closed = bool(trained)
        self.features = {}
        for name in set(declared) | set(trained):
            values = declared.get(name, ())
            self.features[name] = None if values is None else frozenset(values) | frozenset(
                _strings(trained.get(name)))
        self.describe = ("UD's features and those of the language's training data" if self.closed
                         else "UD's features (the language's training data is not known here: only certain mistakes "
                              "are reported)")

    def renamed(self, what):
        """What the older scheme renamed (``"labels"``, ``"features"``, ``"values"``): ``{older: current}`` (for
        ``"values"``, per feature); ``{}`` without an older scheme."""
        return (self.older[2].get(what) or {}) if self.older else {}

    def older_note(self, what):
        """``"UD v1's tag, renamed in UD v2"``: how a hint names an older spelling (``what``: "tag", "name")."""
        return "%s's %s, renamed in %s" % (self.older[0], what, self.older[1])

    def known_name(self, name):
        """Whether ``name`` (``Number[psor]``: its layer aside) is a feature of the inventory."""
        return name in self.features or name.split("[", 1)[0] in self.features

    def values(self, name):
        """The values of feature ``name`` (its layer aside), or None for any."""
        return self.features[name] if name in self.features else self.features.get(name.split("[", 1)[0])


def _strings(values):
    """The strings of a JSON list (anything else: none)."""
    return [value for value in values if type(value) is str] if type(values) is list else []


def for_file(task, lang, inventories):
    """The :class:`Inventory` of (task, lang) from the declaration and ``inventories`` (see :func:`read_inventory`)."""
    return Inventory(task, lang, (inventories or {}).get("%s/%s" % (task.folder, lang)))


#: The Penn Treebank's part-of-speech tags and the universal tag (UPOS, UD v2 then UD v1) each stands for, the usual
#: conversion (the tags of a tagger trained on the PTB, written where the label set is UPOS): :func:`upos_of_ptb`.
#: The first of the alternatives the label set holds is taken.
PTB_TO_UPOS = dict([(tag, ("NOUN",)) for tag in ("NN", "NNS")] +
                   [(tag, ("PROPN",)) for tag in ("NNP", "NNPS")] +
                   [(tag, ("VERB",)) for tag in ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")] +
                   [(tag, ("ADJ",)) for tag in ("JJ", "JJR", "JJS")] +
                   [(tag, ("ADV",)) for tag in ("RB", "RBR", "RBS", "WRB")] +
                   [(tag, ("PRON",)) for tag in ("PRP", "PRP$", "WP", "WP$", "EX")] +
                   [(tag, ("PUNCT",)) for tag in (".", ",", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP")] +
                   [("MD", ("AUX", "VERB")), ("IN", ("ADP", "SCONJ")), ("DT", ("DET",)), ("PDT", ("DET",)),
                    ("WDT", ("DET", "PRON")), ("CC", ("CCONJ", "CONJ")), ("CD", ("NUM",)), ("UH", ("INTJ",)),
                    ("TO", ("PART",)), ("RP", ("ADP", "PART")), ("POS", ("PART",)), ("FW", ("X",)), ("LS", ("X",)),
                    ("SYM", ("SYM", "X")), ("$", ("SYM", "X")), ("#", ("SYM", "X")), ("XX", ("X",)),
                    ("ADD", ("X",)), ("AFX", ("X",)), ("GW", ("X",))])
#: A label set is UPOS (UD v1 or v2) when it holds these.
UPOS_CORE = frozenset(("NOUN", "VERB", "ADP", "DET", "PRON"))


def upos_of_ptb(tag, known):
    """The UPOS tag of ``known`` that the Penn Treebank tag ``tag`` stands for (:data:`PTB_TO_UPOS`), when ``known`` is
    a UPOS label set; else "". Beside the UD v1 -> v2 renamings (``older_scheme``): a fuzzy spelling would call IN INTJ.

    >>> upos = ["ADP", "DET", "INTJ", "NOUN", "PRON", "VERB"]
    >>> upos_of_ptb("IN", upos), upos_of_ptb("CC", ["CONJ"] + upos)
    ('ADP', 'CONJ')
    >>> upos_of_ptb("IN", ["B-PER", "O"])
    ''
    """
    choices = PTB_TO_UPOS.get(tag.strip()) if type(tag) is str else None
    if not choices or not UPOS_CORE <= set(known):
        return ""
    return next((choice for choice in choices if choice in known), "")


def suggest(value, known, aliases=None):
    """The known label ``value`` most likely stands for: an alias, the same but for case, a Penn Treebank tag's UPOS
    tag (:func:`upos_of_ptb`), or a close spelling; "" when none.

    >>> suggest("noun", ["NOUN", "VERB"]), suggest("CONJ", ["CCONJ"], {"CONJ": "CCONJ"}), suggest("zzz", ["X"])
    ('NOUN', 'CCONJ', '')
    """
    if type(value) is not str:
        return ""
    if aliases and value in aliases:
        return aliases[value]
    lowered = dict((label.lower(), label) for label in known)
    if value.lower() in lowered:
        return lowered[value.lower()]
    ptb = upos_of_ptb(value, known)
    if ptb:
        return ptb
    close = difflib.get_close_matches(value.lower(), list(lowered), n=1, cutoff=0.8)
    return lowered[close[0]] if close else ""


def _count(count, noun, plural=None):
    """``"1 tag"``, ``"1,234 tags"``."""
    return "%s %s" % ("{:,}".format(count), noun if count == 1 else (plural or noun + "s"))


#: At most this many positions are named in a warning.
MAX_POSITIONS = 3


class _Tally(object):
    """Occurrences of the distinct offending items of one class: counts, the first position of each, the first
    positions overall, and how many tokens (or items) hold one."""

    def __init__(self):
        self.counts = Counter()
        self.first = OrderedDict()
        self.positions = []
        self.tokens = 0

    def add(self, key, position):
        self.counts[key] += 1
        if key not in self.first:
            self.first[key] = position
        if len(self.positions) < MAX_POSITIONS and all(seen[:2] != position[:2] for seen in self.positions):
            self.positions.append(position)   # the first tokens (a token with several such keys: once)

    def examples(self, show, where, limit=MAX_EXAMPLES):
        """The most frequent items with their counts, how many others, then the first positions."""
        keys = sorted(self.counts, key=lambda key: (-self.counts[key], list(self.first).index(key)))
        parts = ["%s (%s)" % (show(key), _count(self.counts[key], "time")) for key in keys[:limit]]
        if len(keys) > limit:
            parts.append("and %s more" % "{:,}".format(len(keys) - limit))
        return "%s; first at %s" % (", ".join(parts), "; ".join(where(*position) for position in self.positions))


# --------------------------------------------------------------------------- tags

def _distinct(pred, sentences):
    """The distinct values of ``sentences`` (those of ``pred`` that hold any), known to ``pred`` when the kind
    accepted the file as it is (its ``distinct``), else read once."""
    known = getattr(pred, "distinct", None)
    return set(chain.from_iterable(sentences)) if known is None else known


def check_no_tag(pred, log, where):
    """One ERROR when not one tag of ``pred`` (per sentence a list of tags, None for a sentence scored 0; a tag that
    is not a string is already None) is a string: nothing can match, the whole file scores 0 (each token's own
    warning is folded into one line already; this one says what it costs)."""
    known = getattr(pred, "distinct", None)
    if known is not None and known != {None}:   # a file accepted as it is (kinds.Accepted): the same verdict below
        return
    present = list(filter(None, pred))
    if not present or _distinct(pred, present) != {None}:
        return
    first = next((si, 0) for si, tags in enumerate(pred) if tags)
    _warn(log, where(*first), "none of the %s is a string (a list, a number, null...): %s. Give each token its tag as "
          "a string, e.g. [\"form\", \"NOUN\"]." % (_count(sum(map(len, present)), "tag"), ZERO_NOTE),
          kind="no tag in the whole file", severity=ERROR)


#: The guesses of :func:`suggest` already made for tags (the same tags recur from file to file), by tag and
#: inventory; forgotten past _SUGGESTED_MAX entries.
_SUGGESTED = {}
_SUGGESTED_MAX = 4096


def _suggested(tag, labels, aliases, known):
    """:func:`suggest` of ``tag`` among ``labels`` and ``aliases`` (``known``: both as a key, labels in order)."""
    key = (tag, known)
    if key not in _SUGGESTED:
        if len(_SUGGESTED) >= _SUGGESTED_MAX:
            _SUGGESTED.clear()
        _SUGGESTED[key] = suggest(tag, labels, aliases)
    return _SUGGESTED[key]


#: The "did you mean" of a warning about tags is cut to about this many characters (:func:`_cut_list`).
HINT_CHARS = 200
#: A whole-file tally (:func:`_flat_tally`) looks each distinct offending value up once in the file's values: it is
#: used for at most this many distinct values (more are walked token by token).
MAX_FLAT_KEYS = 64


def flat_counts(pred):
    """``{value: occurrences}`` over the values of ``pred`` (per sentence a list, None for a sentence scored 0),
    counted once (C-level) and kept with a file the kind accepted as it is (``kinds.Accepted``, its ``flat``)."""
    counts = getattr(pred, "counts", None)
    if counts is None:
        flat = getattr(pred, "flat", None)
        counts = Counter(chain.from_iterable(filter(None, pred)) if flat is None else flat)
        if flat is not None:
            pred.counts = counts
    return counts


def _flat_tally(pred, flat, keys):
    """The :class:`_Tally` of the values of ``flat`` (every value of ``pred``, one list per sentence with no None,
    in order) that are in ``keys`` (all of them in ``flat``), as :meth:`_Tally.add` makes it token by token: the
    counts of the file's values (:func:`flat_counts`), each key's first position by ``list.index``, then the next
    positions of the keys in order until the first :data:`MAX_POSITIONS` are known."""
    tally = _Tally()
    counts = flat_counts(pred)
    ends = list(accumulate(map(len, pred)))

    def position(at):
        si = bisect_right(ends, at)
        return si, at - (ends[si - 1] if si else 0)

    firsts = sorted((flat.index(key), key) for key in keys)
    for at, key in firsts:
        tally.first[key] = position(at)
        tally.counts[key] = counts[key]
    heapify(firsts)
    while firsts and len(tally.positions) < MAX_POSITIONS:
        at, key = heappop(firsts)
        tally.positions.append(position(at))
        if counts[key] > 1:
            try:
                heappush(firsts, (flat.index(key, at + 1), key))
            except ValueError:
                pass
    return tally


def _tag_tally(pred, keys):
    """``(tally, total)``: the tags of ``pred`` (per sentence a list of tags, None for a sentence scored 0) that are in
    ``keys``, tallied at their positions (:func:`_flat_tally` when the file's tags end to end are known), and how many
    tags the file has."""
    flat = getattr(pred, "flat", None)
    if flat is not None and len(keys) <= MAX_FLAT_KEYS:
        return _flat_tally(pred, flat, keys), len(flat)
    tally, total = _Tally(), 0
    for si, tags in enumerate(pred):
        if not tags:
            continue
        total += len(tags)
        if keys.isdisjoint(tags):
            continue
        for ti, tag in enumerate(tags):
            if tag in keys:
                tally.add(tag, (si, ti))
    return tally, total


#: Tags that are XPOS, not UPOS: Perseus's positional tags (``n-s---mn-``, nine places, ``-`` for none) and PROIEL's
#: (``Nb``, ``V-``), written in a UPOS file (the fifth column of the CoNLL-U files for the fourth).
XPOS_LIKE = re.compile(r"^(?:[a-z-](?=[a-z0-9-]*-)[a-z0-9-]{7,9}|[A-Z][a-z-])$")


#: A file whose tags are outside the tag set this share of the times or more loses most of its score (said so).
MOST_OUTSIDE = 0.9


def _blank_count(pred, blank):
    """How many tags of ``pred`` (per sentence a list, None for a sentence scored 0) are ``blank`` (range rows)."""
    flat = getattr(pred, "flat", None)
    if flat is not None:
        return flat.count(blank)
    return sum(tags.count(blank) for tags in pred if tags)


def check_tags(pred, log, inventory, where):
    """One warning when tags of ``pred`` (per sentence a list of tags, None for a sentence scored 0; a tag that
    is not a string is already None) are outside ``inventory.labels``. ``where(si, ti)``: a tag's position."""
    labels = inventory.labels
    if not labels:
        return
    unknown = _distinct(pred, filter(None, pred)) - labels
    unknown.discard(None)
    if not inventory.labels_closed and not inventory.universal:   # the language's own tags are not known: only
        unknown = set(tag for tag in unknown if not UD_TAG.match(tag))   # tags not written as UD writes them
    elif not inventory.labels_closed:   # a universal set: its older scheme's tags may be the language's (ohu's CONJ)
        unknown.difference_update(inventory.renamed("labels"))
    if not unknown:
        return
    tally, total = _tag_tally(pred, unknown)
    hints, length = [], -2
    known = (tuple(labels), tuple(sorted(inventory.label_aliases.items())))   # (suggest reads the labels in order)
    older = inventory.renamed("labels")
    for tag in tally.first:   # guessed until the hint is cut (_cut_list: what follows is not shown)
        if older.get(tag) in labels:
            said = "%s for %s (%s)" % (older[tag], _quoted(tag), inventory.older_note("tag"))
        elif tag in inventory.xpos:
            said = "%s for %s" % (inventory.xpos[tag], _quoted(tag))
        else:
            guess = _suggested(tag, labels, inventory.label_aliases, known)
            said = ("%s for %s" % (guess, _quoted(tag))) if guess else ""
        if said:
            hints.append(said)
            length += len(said) + 2
            if length > HINT_CHARS:
                break
    hint = ", ".join(hints)
    _mend_tags(log, "tag outside the tag set", _sure_renaming(tally.first, labels, inventory))
    first = next(iter(tally.first.values()))
    outside = sum(tally.counts.values())
    blanks = _blank_count(pred, inventory.blank) if inventory.blank in labels else 0
    total -= blanks   # range rows (their tag "_") are no tag of a word: not counted
    every = outside >= total   # not one tag can match: the whole file scores 0 (an error, not a warning)
    xpos = sum(count for tag, count in tally.counts.items()
               if tag in inventory.xpos or (inventory.universal and XPOS_LIKE.match(tag)))
    _warn(log, where(*first), "%s of %s are outside the task's tag set (%s%s): %s. A tag is compared as it is, "
            "so these score as wrong tags.%s%s%s" % (
                "{:,}".format(outside), _count(total, "tag"), ", ".join(sorted(labels)),
                ", and the language's training data" if inventory.labels_closed else "",
                tally.examples(_quoted, where),
                (" Most are the treebank's XPOS tags (the fifth column of its CoNLL-U files), not the UPOS tags (the "
                 "fourth) that the task asks for: train on, or write, the fourth column."
                 if 2 * xpos > outside else ""),
                (" Did you mean %s?" % _cut_list(hint, HINT_CHARS)) if hint else "",
                (" Every tag is outside the set: %s." % ZERO_NOTE) if every and not blanks else
                (" Every tag of a word is outside the set (only the %s rows %s, multiword-token ranges, can match): "
                 "%s." % ("{:,}".format(blanks), _quoted(inventory.blank), LOSS_NOTE)) if every else
                (" At most %d%% of the tags can match: %s." % (100 - int(100.0 * outside / total), LOSS_NOTE))
                if total and outside >= MOST_OUTSIDE * total else ""),
            kind="tag outside the tag set", severity=ERROR if every else WARNING)


#: A warning of this module never holds more characters than this (its examples are cut first).
MAX_WARNING_CHARS = 1000


def _warn(log, where, text, kind, severity=WARNING):
    """Add one warning (or, where a whole file scores 0, an error) to ``log``, cut to :data:`MAX_WARNING_CHARS`
    characters; a cut keeps the end of the text (what it costs)."""
    if len(text) > MAX_WARNING_CHARS:
        tail = (" Every %s" % text.rsplit(" Every ", 1)[1]) if ZERO_NOTE in text else ""
        text = text[:MAX_WARNING_CHARS - 1 - len(tail)] + "\u2026" + tail
    log.add(severity, where, text, kind=kind)


def _quoted(value):
    """A participant's label quoted for a warning, with at most :data:`SHOWN` characters."""
    return quoted(value, SHOWN)


def _cut_list(text, limit=200):
    """A comma-separated list cut to about ``limit`` characters."""
    return text if len(text) <= limit else text[:limit].rsplit(", ", 1)[0] + ", ..."


def _sure_renaming(tags, labels, inventory):
    """``{tag: the label meant}`` for the ``tags`` outside ``labels`` whose label is certain: an older scheme's
    spelling (UD v1's CONJ), an XPOS tag of the training data (its most frequent tag there), a declared alias, or
    the same but for case."""
    older = inventory.renamed("labels")
    lowered = dict((label.lower(), label) for label in labels)
    found = {}
    for tag in tags:
        if type(tag) is not str:
            continue
        meant = older.get(tag) if older.get(tag) in labels else inventory.xpos.get(tag) or \
            inventory.label_aliases.get(tag) or lowered.get(tag.lower())
        if meant in labels and meant != tag:
            found[tag] = meant
    return found


def _mend_tags(log, kind, renaming):
    """Say in ``log`` how the tags of ``kind``'s warning are undone (``renaming``: ``{tag: meant}``), for the price
    where the gold is public (:mod:`evalkit.mended`)."""
    if renaming:
        log.mend(kind, "with %s" % (", ".join("%s written %s" % (_quoted(tag), _quoted(meant))
                                              for tag, meant in sorted(renaming.items())[:3])
                                    + (", ..." if len(renaming) > 3 else "")), LabelMend(renaming))


def check_older_tags(pred, log, inventory, where):
    """One warning when tags of ``pred`` are a newer scheme's spelling (UD v2's CCONJ) of a tag that the language's
    training data writes in the task's older scheme (UD v1's CONJ, kept by a treebank), never using the newer
    one: its gold writes the older one too, and a tag is compared as it is. Needs the training data's tags
    (``inventory.trained_labels``); a file without such a tag costs a set operation."""
    trained = inventory.trained_labels
    newer = dict((new, old) for old, new in inventory.renamed("labels").items()
                 if old in trained and new not in trained)
    if not newer:
        return
    used = _distinct(pred, filter(None, pred)).intersection(newer)
    if not used:
        return
    tally, items = _tag_tally(pred, used)
    first = next(iter(tally.first.values()))
    renaming = dict((tag, newer[tag]) for tag in used)
    _warn(log, where(*first), "%s of %s are %s: %s. The language's training data writes %s, the %s spelling, and "
          "never %s: so does its gold, and a tag is compared as it is. Write %s here." % (
              "{:,}".format(sum(tally.counts.values())), _count(items, "tag"),
              " or ".join(_quoted(tag) for tag in sorted(used)),
              tally.examples(_quoted, where), ", ".join(_quoted(newer[tag]) for tag in sorted(used)),
              inventory.older[0], ", ".join(_quoted(tag) for tag in sorted(used)),
              ", ".join("%s for %s" % (_quoted(newer[tag]), _quoted(tag)) for tag in sorted(used))),
          kind="tags of the language's older scheme")
    _mend_tags(log, "tags of the language's older scheme", renaming)


# --------------------------------------------------------------------------- morphological features

#: The classes of feature mistakes, in the order a key is tested and reported.
FEATS_STRING, NESTED, ABSENT, NOT_STRING, NAME, VALUE = "feats", "nested", "absent", "type", "name", "value"
#: ... and a token's features as a list (of ``Name=Value`` strings or pairs), a feature's value as a list.
FEATS_LIST, LIST = "feats list", "list"
CLASSES = (FEATS_STRING, FEATS_LIST, NESTED, LIST, ABSENT, NOT_STRING, NAME, VALUE)


def _is_nan(value):
    return type(value) is float and value != value


#: CoNLL-U columns that are not features: a key named so counts as a feature the reference does not have.
CONLLU_COLUMNS = frozenset(("ID", "XPOS", "HEAD", "DEPREL", "DEPS", "MISC"))


def case_variant(value, known):
    """The member of ``known`` that ``value`` equals but for case, or "" (``nom`` -> ``Nom``)."""
    if type(value) is not str or value in known:
        return ""
    lowered = value.lower()
    return next((label for label in known if label.lower() == lowered), "")


def _feature_item(item):
    """Whether ``item`` (of a list) is one feature: a ``Name=Value`` string or a ``[name, value]`` pair."""
    return (type(item) is str and "=" in item) or (type(item) in (list, tuple) and len(item) == 2
                                                   and type(item[0]) is str)


def _value_class(name, value, inventory, ignored=()):
    """The class of mistake of feature ``name`` with ``value`` (None when it is fine): see :func:`check_features`."""
    kind = type(value)
    if kind is list and (name.lower() in FEATS_KEYS or (value and all(map(_feature_item, value)))):
        return FEATS_LIST
    if (name.lower() in FEATS_KEYS and kind in (str, dict)) or (kind is str and "=" in value):
        return FEATS_STRING if kind is str else NESTED
    if kind is dict:
        return NESTED
    if kind is list:
        return LIST
    if value is None or _is_nan(value) or (kind is str and value.strip() in ("", "_")):
        return ABSENT
    if kind is not str:
        return NOT_STRING
    if not inventory.known_name(name):
        certain = name.upper() in CONLLU_COLUMNS or not UD_NAME.match(name) or case_variant(name, ignored) \
            or case_variant(name, inventory.features) or layered(name, inventory)
        return NAME if certain or inventory.closed else None
    values = inventory.values(name)
    joined = multi_value(value)
    if joined is not None and (values is None or all(part in values for part in joined.split(","))):
        return VALUE   # several values joined otherwise than UD joins them (a comma, in alphabetical order)
    parts = value.split(",")
    if values is None or all(part in values for part in parts):
        return None
    if inventory.closed or any(not UD_VALUE.match(part) or case_variant(part, values) for part in parts):
        return VALUE
    return None


#: A layered feature name written without its brackets (``NumberPsor``, ``Number_psor``, ``Number.psor.``): UD
#: writes ``Number[psor]``.
_UNBRACKETED = re.compile(r"^([A-Z][A-Za-z]*?)[._\- ]?(psor|psed|abs|erg|dat|Psor|Psed|Abs|Erg|Dat)[._\-]?$")


def layered(name, inventory):
    """``Number[psor]`` for ``NumberPsor`` (or ``Number_psor``, ``Number.psor.``) when ``Number`` is a feature of
    ``inventory``, else None.

    >>> class I(object): features = {"Number": None}
    >>> layered("NumberPsor", I), layered("Number.psor.", I), layered("Number", I), layered("CasePsor", I)
    ('Number[psor]', 'Number[psor]', None, None)
    """
    found = _UNBRACKETED.match(name) if type(name) is str else None
    if found is None or found.group(1) not in inventory.features:
        return None
    return "%s[%s]" % (found.group(1), found.group(2).lower())


def multi_value(value):
    """``Masc,Neut`` for ``Neut,Masc`` or ``Masc|Neut``: several values as UD joins them (a comma, in alphabetical
    order), or None when ``value`` is one value or already so.

    >>> multi_value("Neut,Masc"), multi_value("Masc|Neut"), multi_value("Masc,Neut"), multi_value("Masc")
    ('Masc,Neut', 'Masc,Neut', None, None)
    """
    if type(value) is not str or ("," not in value and "|" not in value):
        return None
    joined = ",".join(sorted(value.replace("|", ",").split(",")))
    return joined if joined != value else None


def _column(name):
    """Whether feature name ``name`` is a column of CoNLL-U's rows (:data:`CONLLU_COLUMNS`, any case): no feature."""
    return type(name) is str and name.upper() in CONLLU_COLUMNS


class FeatureMend(object):
    """The mend of a file's feature mistakes (:meth:`evalkit.messages.MessageLog.mend`): each token written as the
    task asks, one key per feature and its value a string: a FEATS string, a list of features or an object spread
    into keys, a list of values joined by commas, an absent value left out, a number written as a string, a case
    variant of a known name or value renamed, and, where the language's training data is known (so that an older
    spelling is not its own: Old Hungarian keeps UD v1's), an older scheme's name or value renamed. For a kind whose
    parsed prediction holds per sentence ``(forms, token objects)`` (None for a sentence scored 0). ``bad``: the
    (name, value) pairs that have a mistake (:func:`check_features`), or None (some value is not hashable): a token
    that holds none of them is kept as it is (C-level)."""

    def __init__(self, inventory, ignored, bad=None):
        self.inventory, self.ignored, self.bad = inventory, ignored, bad

    def __call__(self, pred):
        return [None if sent is None else (sent[0], [self.token(tok) for tok in sent[1]]) for sent in pred]

    def fixes(self, name, value):
        """Whether the mend writes feature ``name`` with ``value`` otherwise (a name or value outside the inventory
        that it renames)."""
        return _column(name) or (type(value) is str and self._renamed(name, value) != (name, value))

    def token(self, tok):
        """``tok`` written as the task asks (a new object; ``tok`` itself when it holds no pair with a mistake)."""
        if self.bad is not None:
            try:
                if self.bad.isdisjoint(tok.items()):
                    return tok
            except TypeError:   # an unhashable value: mended below
                pass
        out = {}
        for key, value in tok.items():
            if key in self.ignored:
                out[key] = value
                continue
            if _column(key):   # another column of the CoNLL-U row, no feature: left out
                continue
            for name, item in self._pairs(key, value):
                item = self._value(item)
                if item is not None:
                    name, item = self._renamed(name, item)
                    out[name] = item
        return out

    def _pairs(self, key, value):
        """The (name, value) pairs one key of a token stands for."""
        kind = type(value)
        if key.lower() in FEATS_KEYS or kind is dict or (kind is str and "=" in value) or (
                kind is list and value and all(map(_feature_item, value))):
            if kind is str:
                items = [part.partition("=") for part in value.split("|") if "=" in part]
                return [(name, item) for name, _, item in items]
            if kind is dict:
                return list(value.items())
            if kind is list:
                return [tuple(item.partition("=")[::2]) if type(item) is str else tuple(item)
                        for item in value if _feature_item(item)]
            return []
        if kind is list:
            return [(key, ",".join(item for item in value if type(item) is str))]
        return [(key, value)]

    @staticmethod
    def _value(value):
        """A value as a string, None for an absent one."""
        if value is None or _is_nan(value) or type(value) is bool:
            return None
        if type(value) in (int, float):
            return str(int(value)) if value == int(value) else str(value)
        if type(value) is not str or value.strip() in ("", "_"):
            return None
        return value

    def _renamed(self, name, value):
        """An older scheme's name or value, or a case variant of a known one, renamed."""
        inventory = self.inventory
        closed = inventory.closed and not inventory.known_name(name)
        name = (closed and inventory.renamed("features").get(name)) or case_variant(name, inventory.features) or \
            layered(name, inventory) or name
        values = inventory.values(name) or ()
        joined = multi_value(value)
        if joined is not None and (not values or all(part in values for part in joined.split(","))):
            value = joined
        older = dict((old, new) for old, new in inventory.renamed("values").get(name, {}).items()
                     if inventory.closed and old not in values)
        return name, ",".join(older.get(part) or case_variant(part, values) or part for part in value.split(","))


def _hashable_pairs(tokens, ignored):
    """The distinct (name, value) pairs of ``tokens`` (dicts), or None when a value is unhashable (a list or an
    object: the slow path reports it)."""
    try:
        pairs = set(chain.from_iterable(map(dict.items, tokens)))
    except TypeError:
        return None
    return set(pair for pair in pairs if pair[0] not in ignored)


def check_features(pred, log, inventory, ignored, where, pairs=None, gold_pairs=None, candidates=None):
    """One warning per class of mistake among the features of ``pred`` (per sentence ``(forms, token objects)``,
    None for a sentence scored 0). ``ignored``: the keys that are not features (form, UPOS, lemma);
    ``where(si, ti, extra)``: a position. The classes: a CoNLL-U FEATS string (a FEATS-like key, or a value with
    ``=``); features nested in an object; ``"_"``, ``""``, ``null`` or NaN for an absent feature; a value that is
    not a string; a name outside the inventory; a value outside the inventory.

    What a caller already knows spares passes over the file: ``pairs``, a set holding every distinct (name, value)
    pair of ``pred`` (it may hold more: each is classified, only those found in a token are reported);
    ``gold_pairs``, those of the tokens that equal their gold, and ``candidates(bad)``, the ``(si, ti, token)`` of
    the other tokens that hold a pair of ``bad``, in file order: when no pair of ``gold_pairs`` has a mistake, only
    those tokens are walked."""
    if pairs is None:
        tokens = list(chain.from_iterable(sent[1] for sent in pred if sent is not None))
        pairs = _hashable_pairs(tokens, ignored)
    else:
        pairs = set(pair for pair in pairs if pair[0] not in ignored)
    if pairs is not None:
        classes = dict((pair, _value_class(pair[0], pair[1], inventory, ignored)) for pair in pairs)
        bad = set(pair for pair, found in classes.items() if found)
        if not bad:
            return
    else:
        classes, bad = None, None
    tallies = OrderedDict((name, _Tally()) for name in CLASSES)
    shown = _ShownKeys()
    if candidates is not None and bad.isdisjoint(gold_pairs):
        for si, ti, tok in candidates(bad):
            _tally_token(tallies, si, ti, tok, ignored, inventory, bad, classes, shown)
    else:
        for si, sent in enumerate(pred):
            if sent is None or (bad is not None and bad.isdisjoint(chain.from_iterable(map(dict.items, sent[1])))):
                continue   # (C-level: not one bad pair in the sentence)
            for ti, tok in enumerate(sent[1]):
                if bad is None or not bad.isdisjoint(tok.items()):
                    _tally_token(tallies, si, ti, tok, ignored, inventory, bad, classes, shown)
    mend = FeatureMend(inventory, ignored, bad)
    for found, tally in tallies.items():
        if tally.counts:
            first = next(iter(tally.first.values()))
            _warn(log, where(*first), _features_text(found, tally, inventory, ignored, where),
                    kind="feature mistake: %s" % found)
            if found not in (NAME, VALUE) or any(mend.fixes(*((key, "") if found == NAME else key))
                                                 for key in tally.first):   # (a name or value renamed for sure)
                log.mend("feature mistake: %s" % found, "with the features written as the task asks (one key per "
                         "feature, its value a string%s)" % (", %s's names renamed" % inventory.older[0]
                                                             if inventory.older else ""), mend)


class _ShownKeys(dict):
    """``shown[name]``: the JSON-path step of a feature name in a position (``'["Case"]'``), written once per name."""

    def __missing__(self, name):
        value = self[name] = '["%s"]' % printable(name, 20)
        return value


def _tally_token(tallies, si, ti, tok, ignored, inventory, bad, classes, shown):
    """Add the feature mistakes of token ``ti`` of sentence ``si`` to ``tallies`` (see :func:`check_features`):
    its pairs in ``bad`` (their class in ``classes``), or with ``bad`` None each pair classified here; ``shown``: a
    :class:`_ShownKeys`."""
    seen = set()
    for name, value in tok.items():
        if name in ignored:
            continue
        if bad is not None:
            if (name, value) not in bad:
                continue
            found = classes[(name, value)]
        else:
            found = _value_class(name, value, inventory, ignored)
        if found:
            tallies[found].add(_example_key(found, name, value), (si, ti, shown[name]))
            if found not in seen:
                tallies[found].tokens += 1
                seen.add(found)


def _example_key(found, name, value):
    """The distinct item a warning counts: the name, or the (name, value) pair (a shown, hashable copy)."""
    if found == NAME:
        return name
    return (name, value if type(value) is str else _shown_value(value))


class _Shown(str):
    """A value already written for a message (see :func:`_shown_value`)."""


def _shown_value(value):
    """A value as a participant wrote it in JSON (``NaN``, ``3``, ``null``, ``{...}``; a string quoted), bounded."""
    if type(value) is str:
        return _Shown(quoted(value, SHOWN))
    if _is_nan(value):
        return _Shown("NaN")
    try:
        return _Shown(printable(json.dumps(value, ensure_ascii=False, sort_keys=True), SHOWN))
    except (TypeError, ValueError):
        return _Shown(printable(repr(value), SHOWN))


def _pair(key):
    """``Case='Nom'`` for a (name, value) example key."""
    name, value = key
    return "%s=%s" % (printable(name, SHOWN), value if isinstance(value, _Shown) else _shown_value(value))


def _features_text(found, tally, inventory, ignored, where):
    """The text of the warning of one class (see :func:`check_features`)."""
    tokens = _count(tally.tokens, "token")
    if found == FEATS_STRING:
        example = next((key for key in tally.first if type(key[1]) is str and "=" in key[1]), next(iter(tally.first)))
        return ("%s give their features as one CoNLL-U FEATS string: %s. The scorer reads one key per feature, so "
                "such a key never matches and counts as a feature the reference does not have. Write each feature as "
                "its own key, e.g. %s." % (tokens, tally.examples(_pair, where), _split_example(example[1])))
    if found == FEATS_LIST:
        return ("%s give their features as a list: %s. The task asks for one key per feature, its value a string, "
                "not a list of features: such a key never matches and counts as a feature the reference does not "
                "have. Write each feature as its own key: {\"Token\": ..., \"Case\": \"Nom\", \"Number\": "
                "\"Sing\"}." % (tokens, tally.examples(_pair, where)))
    if found == LIST:
        name, shown = next(iter(tally.first))
        return ("%s give a feature's value as a list: %s. The task asks for each value as one string, several values "
                "joined by a comma as CoNLL-U writes them (\"PronType\": \"Int,Rel\"): a list never matches. Write "
                "\"%s\": \"%s\", not %s." % (tokens, tally.examples(_pair, where), printable(name, SHOWN),
                                           _joined_list(shown), shown))
    if found == NESTED:
        return ("%s hold their features in an object: %s. The scorer reads the features at the token's top level, "
                "so the object never matches and counts as a feature the reference does not have. Write them as the "
                "token's own keys: {\"Token\": ..., \"Case\": \"Nom\", \"Number\": \"Sing\"}."
                % (tokens, tally.examples(_pair, where)))
    if found == ABSENT:
        return ("%s give a value for a feature they do not have: %s. Leave an absent feature out of the token: each "
                "such key counts as a feature the reference does not have." % (tokens, tally.examples(_pair, where)))
    if found == NOT_STRING:
        name, shown = next(iter(tally.first))
        values = inventory.values(name)
        if shown.isdigit() and values and not any(value.isdigit() for value in values):   # Case=4: an id
            return ("%s have feature values that are numbers: %s. %s has no value %s: these look like a model's "
                    "label ids. Map each id to its value with the model's own table (id2label in its config) and "
                    "write the value as a string (\"%s\": \"%s\")." % (
                        tokens, tally.examples(_pair, where), printable(name, SHOWN), shown, printable(name, SHOWN),
                        sorted(values)[0]))
        return ("%s have feature values that are not strings: %s. Values are compared as strings, so these never "
                "match: write them as strings (\"%s\": \"%s\", not %s)."
                % (tokens, tally.examples(_pair, where), printable(name, SHOWN), shown, shown))
    if found == NAME:
        known = sorted(inventory.features) + sorted(ignored)
        older = inventory.renamed("features")
        guesses = ", ".join("%s for %s (%s)" % (older[name], _quoted(name), inventory.older_note("name"))
                            if name in older else "%s for %s" % (suggest(name, known), _quoted(name))
                            for name in tally.first if not _column(name) and not layered(name, inventory) and (
                                name in older or suggest(name, known)))
        layers = ", ".join("%s for %s" % (layered(name, inventory), _quoted(name)) for name in tally.first
                           if layered(name, inventory))
        guesses = ", ".join(hint for hint in (layers, guesses) if hint)
        columns = [name for name in tally.first if _column(name)]
        return ("%s use feature names outside the inventory (%s): %s. They never match and count as features the "
                "reference does not have.%s%s" % (
                    tokens, inventory.describe, tally.examples(_quoted, where),
                    (" %s: a column of the CoNLL-U files, not a feature (the task asks for FEATS, the sixth "
                     "column, one key per feature): remove %s from the tokens." % (", ".join(map(_quoted, columns)), "it" if len(columns) == 1 else "them"))
                    if columns else "", (" Did you mean %s?" % _cut_list(guesses)) if guesses else ""))
    guessed = [(_value_guess(name, value, inventory), (name, value)) for name, value in tally.first]
    older = inventory.renamed("values")
    guesses = ", ".join("%s for %s%s" % (guess, _pair(key), (" (%s)" % inventory.older_note("value")) if any(
        part in older.get(key[0], {}) for part in key[1].split(",")) else "") for guess, key in guessed if guess)
    multi = any(multi_value(value) for _, value in tally.first)
    return ("%s use feature values outside the inventory (%s): %s. They never match.%s%s"
            % (tokens, inventory.describe, tally.examples(_pair, where),
               " Several values of a feature are joined by a comma, in alphabetical order, as UD writes them (and the "
               "gold): a value joined otherwise never matches." if multi else "",
               (" Did you mean %s?" % _cut_list(guesses)) if guesses else ""))


def _joined_list(shown):
    """``Int,Rel`` from a shown JSON list of strings (``["Int", "Rel"]``), bounded."""
    try:
        items = json.loads(shown)
    except ValueError:
        return "..."
    return printable(",".join(item for item in items if type(item) is str), SHOWN) if type(items) is list else "..."


def _value_guess(name, value, inventory):
    """The known value that ``value`` of feature ``name`` most likely stands for ("" when none): an older scheme's
    renaming first."""
    values = inventory.values(name)
    if multi_value(value) is not None and (not values or all(part in values for part in multi_value(value).split(
            ","))):
        return multi_value(value)
    if not values or type(value) is not str:
        return ""
    older = inventory.renamed("values").get(name, {})
    parts = [older.get(part) or suggest(part, values) or part for part in value.split(",")]
    guess = ",".join(parts)
    return guess if guess != value else ""


def _split_example(shown):
    """``{"Case": "Nom", "Number": "Sing"}`` from a shown FEATS string (``'Case=Nom|Number=Sing'``), bounded."""
    text = shown if type(shown) is str else ""
    pairs = [pair.partition("=") for pair in text.split("|")[:4] if "=" in pair]
    if not pairs:
        return '{"Case": "Nom", "Number": "Sing"}'
    return "{%s}" % ", ".join('"%s": "%s"' % (name, value) for name, _, value in pairs)


# --------------------------------------------------------------------------- ranked candidates

#: The types of a candidate sequence, and its first candidate.
_SEQUENCES = frozenset((list, tuple))
_FIRST_ITEM = itemgetter(0)
#: The first candidate of an empty candidate list (:func:`first_candidates`): equal to no gold, not a string.
NO_CANDIDATE = object()


def candidate_items(pred):
    """The candidate sequences of the items of ``pred`` (per sentence one candidate sequence per item, None for a
    sentence not scored), in file order, in one C-level pass; None when ``pred`` is not that shape. A
    :class:`kinds.Accepted` keeps them (its ``flat``, when its parse did not give them already) for the next check
    and for the scorer."""
    known = getattr(pred, "flat", None)
    if known is not None:
        return known
    try:
        flat = list(chain.from_iterable(filter(None, pred)))
    except TypeError:   # a sentence that is not a sequence
        return None
    if hasattr(pred, "flat"):
        pred.flat = flat
    return flat


def first_candidates(pred, flat):
    """The first candidate of each item of ``flat`` (:func:`candidate_items` of ``pred``; every item a candidate
    sequence), :data:`NO_CANDIDATE` for an empty one, in one C-level pass; kept by a :class:`kinds.Accepted` ``pred``
    (its ``firsts``) for the scorer. ``pred`` None: ``flat`` belongs to no parsed file (nothing kept)."""
    known = getattr(pred, "firsts", None)
    if known is not None:
        return known
    try:
        firsts = list(map(_FIRST_ITEM, flat))
    except IndexError:   # an empty candidate list
        firsts = list(map(next, map(iter, flat), repeat(NO_CANDIDATE)))
    if pred is not None and hasattr(pred, "firsts"):
        pred.firsts = firsts
    return firsts


def _file_firsts(pred, flat):
    """:func:`first_candidates` of ``flat``, the items of ``pred``: kept by ``pred`` when the kind accepted the file as
    it is (a :class:`kinds.Accepted`, which knows its distinct candidates), so every check and the scorer share them."""
    return first_candidates(pred if getattr(pred, "distinct", None) is not None else None, flat)

def _joined(candidate):
    """Whether a candidate string looks like several candidates in one string (``"a|b|c"``, ``"['a', 'b']"``,
    ``"a b c"``: joined by whitespace).

    >>> _joined("a|b"), _joined("a b c"), _joined(" "), _joined("a"), _joined("['a', 'b']")
    (True, True, False, False, True)
    """
    if "|" in candidate and sum(1 for part in candidate.split("|") if part.strip()) >= 2:
        return True
    stripped = candidate.strip()
    if len(stripped) > 2 and stripped[0] == "[" and stripped[-1] == "]" and ("'" in stripped or '"' in stripped):
        return True
    return len(stripped.split()) >= 2


def _may_be_spaced(joined_text):
    """Whether some string of ``joined_text`` (strings joined by NUL) may hold words joined by a space or a tab:
    C-level passes, a candidate that is one space (a valid answer for a character gap) aside.

    >>> _may_be_spaced(chr(0).join(["a", " ", "b"])), _may_be_spaced(chr(0).join([" ", "a b"]))
    (False, True)
    """
    if " " not in joined_text and "\t" not in joined_text:
        return False
    return "\t" in joined_text or " " in ("\x00%s\x00" % joined_text).replace("\x00 \x00", "\x00\x00").replace(
        "\x00 \x00", "\x00\x00")


#: A string of a NUL-joined text that holds ``|``, ``[`` or whitespace (as ``str.split`` means it): the only
#: strings :func:`_joined` can accept.
_MAY_BE_JOINED = re.compile(r"(?<![^\x00])[^\x00]*[|\[\s][^\x00]*")


#: One character that :func:`_joined` looks for (``|``, ``[``, whitespace as ``str.split`` means it).
_JOINED_MARK = re.compile(r"[|\[\s]")
#: :func:`_may_be_joined` finds at most this many strings one by one, then all of them with :data:`_MAY_BE_JOINED`.
MAX_MARKED = 64


def _may_be_joined(strings, joined_text):
    """The strings of ``strings`` (``joined_text``: them joined by NUL) that :func:`_joined` may accept: those
    holding ``|``, ``[`` or whitespace, in order (all of them when a string holds a NUL itself). The marks are found
    by one scan for the character class, each string holding one cut out at its NULs; past :data:`MAX_MARKED` such
    strings, one pass of :data:`_MAY_BE_JOINED` finds them all (the same strings: it matches each whole string that
    holds a mark)."""
    if joined_text.count("\x00") != max(len(strings) - 1, 0):
        return strings
    found, end = [], -1
    find, rfind = joined_text.find, joined_text.rfind
    for mark in _JOINED_MARK.finditer(joined_text):
        at = mark.start()
        if at < end:   # (a string already found)
            continue
        if len(found) == MAX_MARKED:
            return _MAY_BE_JOINED.findall(joined_text)
        end = find("\x00", at)
        end = len(joined_text) if end < 0 else end
        found.append(joined_text[rfind("\x00", 0, at) + 1:end])
    return found


def _tally_items(pred, pick):
    """``(tally, items)``: the items of ``pred`` (per sentence one candidate sequence per item, None for a sentence
    not scored) counted, and in the :class:`_Tally` those for which ``pick(candidates)`` gives a key (not None), at
    their ``(sentence, item)`` positions; an item that is not a sequence is counted, never picked."""
    tally, items = _Tally(), 0
    for si, sent in enumerate(pred):
        if not sent:
            continue
        for ti, cands in enumerate(sent):
            items += 1
            hit = pick(cands) if type(cands) in (list, tuple) else None
            if hit is not None:
                tally.add(hit, (si, ti))
                tally.tokens += 1
    return tally, items


def _sequence_items(pred):
    """:func:`candidate_items` of ``pred`` when every item is a candidate sequence (a list or a tuple: always so in a
    file a kind accepted as it is, :class:`kinds.Accepted`, else checked in one C-level pass), else None (the walk
    of :func:`_tally_items` decides)."""
    flat = candidate_items(pred)
    if flat is None or (getattr(pred, "distinct", None) is None and set(map(type, flat)) - _SEQUENCES):
        return None
    return flat


def _tally_marked(pred, flat, marks, keys):
    """``(tally, items)`` as :func:`_tally_items` gives them, for the items of ``flat`` (:func:`candidate_items` of
    ``pred``) whose byte in ``marks`` (one per item) is 1: ``keys(indices)`` gives the key of each of those items
    (their indices in ``flat``). C-level passes, the positions of the few items a warning names aside."""
    tally = _Tally()
    if 1 not in marks:
        return tally, len(flat)
    at = list(compress(count(), marks))
    found = keys(at)
    tally.counts = Counter(found)
    tally.tokens = len(at)
    rows = list(compress(count(), map(bool, pred)))   # the sentences that hold items, and where each one ends
    ends = list(accumulate(map(len, filter(None, pred))))

    def position(k):
        row = bisect_right(ends, k)
        return rows[row], k - (ends[row - 1] if row else 0)

    firsts = dict(zip(reversed(found), reversed(at)))   # each key's first item (the earliest pair written last)
    tally.first = OrderedDict((key, position(firsts[key])) for key in dict.fromkeys(found))
    tally.positions = [position(k) for k in at[:MAX_POSITIONS]]
    return tally, len(flat)


def _tally_members(pred, members, flat=None):
    """``(tally, items)`` as ``_tally_items(pred, first candidate in members)`` gives them: the items that hold a
    candidate of ``members`` found in one C-level pass (``set.isdisjoint``), each counted under its first such
    candidate. ``flat``: :func:`_sequence_items` of ``pred`` when the caller has it."""
    flat = _sequence_items(pred) if flat is None else flat
    if flat is None:
        return _tally_items(pred, lambda cands: next((c for c in cands if c in members), None))
    marks = bytes(map(members.isdisjoint, flat)).translate(_FLIP)

    def keys(at):   # the first candidate of each marked item that is in members, at C level
        return list(map(next, map(filter, repeat(members.__contains__), map(flat.__getitem__, at))))
    return _tally_marked(pred, flat, marks, keys)


#: Turns bytes of 0 and 1 into bytes of 1 and 0.
_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


def _few_joined(flat, joined, items):
    """Whether fewer than :data:`JOINED_SHARE` of the ``items`` items of ``flat`` (:func:`_sequence_items`; None:
    unsure, the walk decides) hold a candidate of ``joined``, counted in one C-level pass, so the walk that says
    where they are runs only for a file that gets the warning."""
    if flat is None:
        return False
    held = len(flat) - sum(map(joined.isdisjoint, flat))
    return not held or held < JOINED_SHARE * items


def distinct_candidates(pred):
    """The distinct candidates of ``pred`` (per sentence one candidate sequence per item, None for a sentence not
    scored) in one C-level pass, or None when ``pred`` is not that shape: computed once per file and given to each
    check of candidate strings below (``distinct=``)."""
    known = getattr(pred, "distinct", None)   # known when the kind accepted the file as it is (kinds.Accepted)
    if known is not None:
        return known
    try:
        return set(chain.from_iterable(chain.from_iterable(filter(None, pred))))
    except TypeError:
        return None


def candidate_text(distinct):
    """``(strings, text)``: the candidate strings of ``distinct`` (:func:`distinct_candidates`) and the same joined by
    NUL, in C-level passes (a filtered copy only when some candidate is not a string); computed once per file and
    given to the checks below (``text=``)."""
    if not distinct:
        return [], ""
    try:
        return distinct, "\x00".join(distinct)
    except TypeError:   # None, a number, a list: the strings alone
        strings = [c for c in distinct if type(c) is str]
        return strings, "\x00".join(strings)


def check_joined_candidates(pred, log, max_candidates, where, distinct=False, text=None):
    """One warning when at least :data:`JOINED_SHARE` of the items of ``pred`` (per sentence one candidate sequence
    per item, None for a sentence not scored) hold several candidates joined into one string (``"a|b|c"``, or a
    list written as a string): it is one candidate, which never matches. ``where(si, ti)``: a position.
    ``distinct``: :func:`distinct_candidates` of ``pred``, ``text``: :func:`candidate_text`, when the caller has
    them."""
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if distinct is None:   # not the shape the kinds return: nothing to say here
        return
    strings, joined_text = text or candidate_text(distinct)
    if "|" not in joined_text and "[" not in joined_text and not _may_be_spaced(joined_text):
        return
    joined = frozenset(filter(_joined, _may_be_joined(strings, joined_text)))
    if not joined:
        return
    flat = _sequence_items(pred)
    items = len(flat) if flat is not None else sum(map(len, filter(None, pred)))
    if not items or _few_joined(flat, joined, items):
        return
    tally, _ = _tally_members(pred, joined, flat)
    if not tally.tokens or tally.tokens < JOINED_SHARE * items:
        return
    first = next(iter(tally.first.values()))
    example = next(iter(tally.first))
    cleaned = example.strip("[]").replace("'", "").replace('"', "").replace(",", "|")
    parts = [part.strip() for part in (cleaned.split("|") if "|" in cleaned else cleaned.split()) if part.strip()]
    parts = parts[:max_candidates]
    _warn(log, where(*first), "%s of %s hold several candidates joined into one string: %s. A string is one "
            "candidate, which matches only if the whole string equals the gold. Give a list, best first: %s."
            % ("{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2),
               "[%s]" % ", ".join('"%s"' % part for part in parts)), kind="candidates joined into one string")


# --------------------------------------------------------------------------- candidates that are not text

#: A lone UTF-16 surrogate: half of a character as UTF-16 counts them, never text of its own.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _holding(pred, pattern, distinct=False, text=None, keep=None):
    """``(tally, items, candidates)``: :func:`_tally_members` of the distinct candidates of ``pred`` that hold a
    character of ``pattern`` (and that ``keep`` keeps), and those candidates; None when none does: a C-level scan of the distinct candidates joined (``distinct``:
    :func:`distinct_candidates`, ``text``: :func:`candidate_text`, when the caller has them); an ASCII file, none."""
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if distinct is None:
        return None
    strings, joined = text or candidate_text(distinct)
    if joined.isascii() or not pattern.search(joined):
        return None
    held = frozenset(c for c in strings if pattern.search(c) and (keep is None or keep(c)))
    return _tally_members(pred, held) + (held,)


def check_lone_surrogates(pred, log, where, distinct=False, text=None):
    """One warning when candidates of ``pred`` (per sentence one candidate sequence per item, None for a sentence not
    scored) hold a lone UTF-16 surrogate (``"\\ud840"`` in the JSON, which Python reads as such): half of a
    character outside the Basic Multilingual Plane, as a tool that counts UTF-16 code units writes it (a Java
    ``char``, a JavaScript string index). It is not text: no gold holds one, so it never matches (the score is what
    it is). A file without one costs a C-level scan of its distinct candidates joined (``distinct``:
    :func:`distinct_candidates`, ``text``: :func:`candidate_text`, when the caller has them); an ASCII one, none."""
    found = _holding(pred, _SURROGATE, distinct, text)
    if found is None:
        return
    tally, items, _ = found
    if not tally.tokens:
        return
    half = _SURROGATE.search(next(iter(tally.first))).group()
    _warn(log, where(*next(iter(tally.first.values()))), "%s of %s hold a candidate that is not text: %s. It holds a "
          "lone UTF-16 surrogate (U+%04X), half of a character as UTF-16 counts them (a Java char, a JavaScript "
          "string index; \\u%04x in the JSON): no gold holds one, so it never matches. Give whole characters "
          "(code points): Java's codePoints() or Character.toChars, JavaScript's Array.from(text) or for...of." % (
              "{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2), ord(half),
              ord(half)), kind="candidates that are not text (lone surrogates)")


#: Invisible formatting characters (Unicode category Cf) that a tool adds to a string (a zero-width space from a
#: web page or a tokeniser, a right-to-left mark from a bidirectional editor, a byte order mark, a soft hyphen, a
#: word joiner, the bidirectional controls, the tag characters); the zero-width joiner and non-joiner, which Indic
#: and Persian texts write inside words, are left out.
_INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
                        "\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f]")
#: Invisible characters are said from this many items on (a gold holds one now and then: a soft hyphen, a BOM).
MIN_INVISIBLE = 5


def without_invisible(candidate):
    """``candidate`` without the invisible formatting characters of :data:`_INVISIBLE`.

    >>> without_invisible("\u200fet\u200b"), without_invisible(3)
    ('et', 3)
    """
    return _INVISIBLE.sub("", candidate) if type(candidate) is str else candidate


def _char_name(char):
    """``U+200B ZERO WIDTH SPACE``."""
    return "U+%04X %s" % (ord(char), unicodedata.name(char, "(unnamed)"))


def check_invisible(pred, log, where, distinct=False, text=None):
    """One warning when :data:`MIN_INVISIBLE` items or more of ``pred`` (per sentence one candidate sequence per
    item, None for a sentence not scored) hold a candidate with an invisible formatting character
    (:data:`_INVISIBLE`: a zero-width space, a right-to-left mark): a candidate is compared as it is, so it never
    matches. Named by code point and name, counted, with the fix; the mend strips them (priced where the gold is
    public). A file without one costs a C-level scan of its distinct candidates joined (``distinct``, ``text``: as
    :func:`check_lone_surrogates`)."""
    found = _holding(pred, _INVISIBLE, distinct, text, lambda c: _garbled(c) is None)
    if found is None:
        return
    tally, items, bad = found
    if tally.tokens < MIN_INVISIBLE:
        return
    chars = Counter(chain.from_iterable(_INVISIBLE.findall(c) for c in bad))
    names = ", ".join(_char_name(char) for char, _ in chars.most_common(3)) + (", ..." if len(chars) > 3 else "")
    _warn(log, where(*next(iter(tally.first.values()))), "%s of %s hold a candidate with an invisible character (%s; "
          "Unicode's format characters, category Cf): %s. A candidate is compared as it is, so these never match: "
          "the character came with the text (a web page, an editor, a tokeniser's output); remove it from every "
          "candidate (re.sub(\"[\\u200b-\\u200f\\u2060\\ufeff]\", \"\", text))." % (
              "{:,}".format(tally.tokens), _count(items, "item"), names, tally.examples(_quoted, where, 2)),
          kind="candidates with invisible characters")
    log.mend("candidates with invisible characters", "with the invisible characters removed",
             CandidateMend(without_invisible))


# --------------------------------------------------------------------------- lemmas with sense numbers

#: A first candidate that ends in a sense number (``venio1``, ``sum#2``, ``cum_1``): a letter, then one or two
#: digits, found in one C-level scan of the first candidates joined by NUL.
_SENSE_MARK = re.compile(r"[^\W\d_][#_]?\d{1,2}(?=\x00|$)")
_SENSE = re.compile(r"^(\D*[^\W\d_])[#_]?\d{1,2}$")
#: Sense numbers are said from this many items on, and this share of the items.
MIN_SENSES = 5
SENSE_SHARE = 0.01


def without_sense(candidate):
    """``candidate`` without its sense number (``venio1`` -> ``venio``), or itself.

    >>> without_sense("venio1"), without_sense("sum#2"), without_sense("1"), without_sense("et")
    ('venio', 'sum', '1', 'et')
    """
    found = _SENSE.match(candidate) if type(candidate) is str and candidate[-1:].isdigit() else None
    return found.group(1) if found else candidate


def check_sense_numbers(pred, log, where):
    """One warning when at least :data:`MIN_SENSES` items and :data:`SENSE_SHARE` of the items of ``pred`` (lemma
    candidates: per sentence one candidate sequence per item, None for a sentence not scored) have a first
    candidate that ends in a sense number (``venio1``, ``sum#2``: the homograph numbers of a dictionary or a
    treebank's own lemma list, as Perseus- and PROIEL-style lemmatisers write them), while a treebank's lemma
    carries none: compared as it is, it never matches. One C-level scan of the first candidates (shared with the
    scorer) joined; the items are walked only for a file that gets the warning. ``where(si, ti)``: a position."""
    flat = _sequence_items(pred)
    if not flat:
        return
    firsts = _file_firsts(pred, flat)
    try:
        joined = "\x00".join(firsts)
    except TypeError:   # a first candidate that is not a string
        joined = "\x00".join(c for c in firsts if type(c) is str)
    if not any(map(joined.__contains__, "0123456789")):   # (ten C-level scans: most files hold no digit)
        return
    found = len(_SENSE_MARK.findall(joined))
    if found < max(MIN_SENSES, SENSE_SHARE * len(flat)):
        return
    marks = bytes(1 if type(c) is str and without_sense(c) != c else 0 for c in firsts)
    if marks.count(1) < max(MIN_SENSES, SENSE_SHARE * len(flat)):
        return
    tally, items = _tally_marked(pred, flat, marks, lambda at: list(map(firsts.__getitem__, at)))
    example = next(iter(tally.first))
    _warn(log, where(*tally.positions[0]), "%s of %s have a first candidate that ends in a sense number: %s. The "
          "gold's lemmas carry none (homograph numbers of a dictionary or of a treebank's lemma list, as Perseus- "
          "and PROIEL-style lemmatisers write them), and a candidate is compared as it is, so each such rank is "
          "lost: strip the number (%s, not %s)." % (
              "{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2),
              _quoted(without_sense(example)), _quoted(example)), kind="lemmas with sense numbers")
    log.mend("lemmas with sense numbers", "with the sense numbers stripped", CandidateMend(without_sense))


# --------------------------------------------------------------------------- candidates that can never match

#: Whitespace at either end of a candidate string (``"venir\n"``, ``" cadulat "``), found in one C-level scan of
#: the file's distinct candidates joined by NUL.
_PADDED = re.compile(r"(?:^|\x00)\s+[^\s\x00]|[^\s\x00]\s+(?:\x00|$)")


def _has_whitespace(text):
    """Whether ``text`` holds a common whitespace character (C-level scans before any regular expression)."""
    return " " in text or "\n" in text or "\t" in text or "\r" in text or "\u00a0" in text


def _unmatchable(candidate, markers):
    """Whether ``candidate`` can never match a gold: whitespace around a non-blank string (a gold never has any;
    one space alone is a valid answer for a character gap) or the input's own gap marker (``[MASK]``)."""
    return candidate in markers or (candidate != candidate.strip() and bool(candidate.strip()))


def check_unmatchable_candidates(pred, log, where, markers=(), distinct=False, text=None):
    """One warning when candidates of ``pred`` (per sentence one candidate sequence per item, None for a sentence
    not scored) can never match: whitespace left around them (a line read with its newline, a token padded with
    spaces) or the input's gap marker itself (``markers``, a declared fact such as ``("[MASK]",)``) offered as an
    answer. Candidates are compared as they are, so such a candidate is a lost rank. A file without one costs a
    few C-level scans of its distinct candidates (``distinct``: :func:`distinct_candidates`, ``text``:
    :func:`candidate_text`, when the caller has them). ``where(si, ti)``: a position."""
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if distinct is None:   # not the shape the kinds return: nothing to say here
        return
    strings, joined = text or candidate_text(distinct)
    marked = distinct.intersection(markers) if markers else ()
    if not marked and not (_has_whitespace(joined) and _PADDED.search(joined)):
        return
    bad = frozenset(c for c in strings if _unmatchable(c, markers))
    if not bad:
        return
    tally, items = _tally_members(pred, bad)
    if not tally.tokens:
        return
    first = next(iter(tally.first.values()))
    example = next(iter(tally.first))
    fix = ("strip each candidate (%s, not %s)" % (_quoted(example.strip()), _quoted(example))
           if example not in markers else "predict the hidden word or character, not the marker %s" % _quoted(example))
    _warn(log, where(*first), "%s of %s hold a candidate that can never match: %s. Candidates are compared as "
          "they are: whitespace around a candidate (a line read with its newline, padding) or the gap marker of the "
          "input is never a gold, so that rank is lost; %s." % (
              "{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2), fix),
          kind="candidate that can never match")


#: The marks that subword tokenisers put on their pieces (WordPiece ``##``, SentencePiece ``\u2581``, byte-level BPE
#: ``\u0120``): a candidate still carrying one is a token id's text, not a word; it never matches.
_SUBWORD = re.compile("(?:^|\x00)(?:##|\u2581|\u0120)")
#: Subword pieces are reported when at least this share of the items has one (``\u0120`` may begin a real word).
SUBWORD_SHARE = 0.1


def check_subword_pieces(pred, log, where, distinct=False, text=None):
    """One warning when at least :data:`SUBWORD_SHARE` of the items of ``pred`` (per sentence one candidate sequence
    per item, None for a sentence not scored) hold a candidate that is a subword tokeniser's piece (``"##ulat"``,
    ``"\u2581cadulat"``): the model's vocabulary entry, never equal to the gold. A file without one costs three
    C-level scans of its distinct candidates (``distinct``: :func:`distinct_candidates`, ``text``:
    :func:`candidate_text`, when the caller has them). ``where(si, ti)``: a position."""
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if distinct is None:   # not the shape the kinds return: nothing to say here
        return
    strings, joined = text or candidate_text(distinct)
    if ("##" not in joined and "\u2581" not in joined and "\u0120" not in joined) or not _SUBWORD.search(joined):
        return
    pieces = frozenset(c for c in strings if _SUBWORD.match(c))
    flat = _sequence_items(pred)
    if flat is not None:   # fewer than the share: said without walking the items (C-level count)
        held = len(flat) - sum(map(pieces.isdisjoint, flat))
        if not held or held < SUBWORD_SHARE * len(flat):
            return
    tally, items = _tally_members(pred, pieces, flat)
    if not tally.tokens or tally.tokens < SUBWORD_SHARE * items:
        return
    first = next(iter(tally.first.values()))
    _warn(log, where(*first), "%s of %s hold a subword tokeniser's piece as a candidate: %s. A piece that still "
          "carries its tokeniser's mark (## of WordPiece, U+2581 of SentencePiece, U+0120 of byte-level BPE) is a "
          "vocabulary entry, never equal to the gold. Decode the pieces into text (the tokeniser's decode or "
          "convert_tokens_to_string) and give whole words." % (
              "{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2)),
          kind="subword tokeniser pieces")


# --------------------------------------------------------------------------- the unit of a gap

#: Whole words for character gaps are reported when at least this share of the gaps has one (a few gaps may hide
#: an undecomposed unit of several characters).
UNIT_SHARE = 0.5


def _units(text):
    """The number of characters of ``text``, combining marks aside (``e`` + acute accent is one)."""
    return sum(1 for char in text if not unicodedata.combining(char))


def _long_first(cands):
    """The first candidate of ``cands`` when it is a string of several characters (combining marks aside), else
    None."""
    return cands[0] if cands and type(cands[0]) is str and len(cands[0]) > 1 \
        and _units(cands[0].strip() or cands[0]) > 1 else None


def _few_long(firsts, distinct, items):
    """Whether fewer than :data:`UNIT_SHARE` of ``items`` gaps can have a first candidate of several characters,
    bounded from the first candidates ``firsts`` (strings; else False: unsure) joined, in C-level passes: each first
    candidate of several characters adds at least one character beyond one per gap, each empty one takes one away
    (counted only when ``""`` is among the ``distinct`` candidates, or these are not known), so such candidates
    number at most ``len(joined) - len(firsts) + empty``.

    >>> _few_long(["a", "b", "cd"], None, 3), _few_long(["ab", "", "cd"], {"ab", "", "cd"}, 3)
    (True, False)
    """
    try:
        length = len("".join(firsts))
    except TypeError:   # a first candidate that is not a string (NO_CANDIDATE: an empty list)
        return False
    empty = firsts.count("") if distinct is None or "" in distinct else 0
    return length - len(firsts) + empty < UNIT_SHARE * items


def check_gap_units(pred, log, task, where):
    """One warning when the task's gaps hide one character each (``task.gap_unit == "character"``, a declared fact)
    and at least :data:`UNIT_SHARE` of the gaps of ``pred`` (per sentence one candidate sequence per gap, None for a
    sentence not scored) have a first candidate of several characters: whole words offered for character gaps,
    which never match. ``where(si, mi)``: a position.

    The strings of several characters are found among the distinct candidates (those of the file the kind accepted
    as it is, else the distinct first candidates), the first candidates (:func:`first_candidates`, shared with the
    scorer) marked and counted at C level, so a file without the warning costs a few set operations and one pass
    (none when the first candidates joined are too short to hold that many of several characters, :func:`_few_long`);
    the items are walked only when some gap is not a candidate sequence (:func:`_tally_items`)."""
    if getattr(task, "gap_unit", None) != "character":
        return
    known = getattr(pred, "distinct", None)   # the file's distinct candidates, when the kind accepted it as it is
    if known is not None and max(map(len, known), default=0) <= 1:
        return   # not one candidate of several characters
    flat = _sequence_items(pred)
    long = None
    if flat is not None:
        firsts = first_candidates(pred if known is not None else None, flat)
        if _few_long(firsts, known, len(flat)):
            return
        try:   # the strings of several characters among the distinct candidates (or first candidates)
            long = frozenset(c for c in (set(firsts) if known is None else known) if _long_first((c,)) is not None)
        except TypeError:   # an unhashable first candidate (a list): the walk decides
            long = None
    if long is None:
        tally, gaps = _tally_items(pred, _long_first)
    else:
        if not long:
            return
        marks = bytes(map(long.__contains__, firsts))   # 1: a first candidate of several characters
        if marks.count(1) < UNIT_SHARE * len(flat):
            return
        tally, gaps = _tally_marked(pred, flat, marks, lambda at: list(map(firsts.__getitem__, at)))
    if not tally.tokens or tally.tokens < UNIT_SHARE * gaps:
        return
    first = next(iter(tally.first.values()))
    _warn(log, where(*first), "%s of %s offer several characters as their first candidate: %s. Each gap of this "
          "task hides ONE character (a marker per character), so a whole word never matches. Predict the hidden "
          "character itself, best first: [\"t\", \"d\", \"r\"]." % (
              "{:,}".format(tally.tokens), _count(gaps, "gap"), tally.examples(_quoted, where, 2)),
          kind="several characters for a character gap")


#: An empty first candidate is reported when at least this share of the items has one.
EMPTY_FIRST_SHARE = 0.05


def _any_string(candidates):
    """Whether ``candidates`` hold a non-empty string (a candidate that could match)."""
    return any(type(c) is str and c for c in candidates)


def check_empty_first(pred, log, where, task=None, distinct=False):
    """One warning when at least :data:`EMPTY_FIRST_SHARE` of the items of ``pred`` (per sentence one candidate
    sequence per item, None for a sentence not scored) have ``""`` as their first candidate and a non-empty one
    after it: ``""`` never matches, so the first rank (acc@1) is lost on them (``[""]`` alone is no answer, as
    ``[]``: nothing is said). ``""`` is padding, a list reversed or padded in front puts it first; and
    where the gaps hide one character (``task.gap_unit == "character"``), a space stripped away (``.strip()``)
    leaves ``""`` where the answer was a space. A file without ``""`` among its candidates costs one set lookup
    (``distinct``: :func:`distinct_candidates`, when the caller has it); one with ``""`` one C-level count over the
    first candidates the scorer uses (:func:`first_candidates`), then a look at the items whose first is ``""``.
    ``where(si, ti)``: a position."""
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if not distinct or "" not in distinct:
        return
    flat = _sequence_items(pred)
    if not flat:
        return
    firsts = _file_firsts(pred, flat)
    if firsts.count("") < EMPTY_FIRST_SHARE * len(flat):
        return
    empty = list(compress(count(), map(eq, firsts, repeat(""))))
    lost = [i for i in empty if _any_string(flat[i][1:])]
    if len(lost) < EMPTY_FIRST_SHARE * len(flat):   # "" alone is no answer, as an empty list: no rank lost
        _check_stripped_spaces(pred, log, where, task, distinct, flat, empty, lost)
        return
    marks = bytearray(len(flat))   # 1: "" first, a candidate that could match after it
    for i in lost:
        marks[i] = 1
    tally, items = _tally_marked(pred, flat, bytes(marks), lambda at: [""] * len(at))
    if not tally.tokens:
        return
    space = (" A gap of this task may hide a space: keep \" \" as it is (a candidate is not stripped)."
             if getattr(task, "gap_unit", None) == "character" else "")
    _warn(log, where(*tally.positions[0]), "%s of %s have \"\" as their first candidate; first at %s. \"\" never "
          "matches, so the first rank is lost on each: write each list best first, with \"\" (padding, not needed) "
          "last or left out.%s" % ("{:,}".format(tally.tokens), _count(items, "item"),
                                   "; ".join(where(*position) for position in tally.positions), space),
          kind="empty first candidate")


def _check_stripped_spaces(pred, log, where, task, distinct, flat, empty, lost):
    """One warning when the task's gaps hide one character each (``task.gap_unit == "character"``), no candidate of
    the file is ``" "`` (``distinct``) and at least :data:`EMPTY_FIRST_SHARE` of its gaps (``flat``) have ``""`` as
    their only answer (``empty``: the indices of the items whose first candidate is ``""``, ``lost``: those with a
    candidate after it): spaces stripped away (``.strip()``), where the gold is ``" "``. Called only for a file that
    has ``""`` first often enough."""
    if getattr(task, "gap_unit", None) != "character" or " " in distinct:
        return
    alone = sorted(set(empty) - set(lost))
    if len(alone) < EMPTY_FIRST_SHARE * len(flat):
        return
    marks = bytearray(len(flat))
    for i in alone:
        marks[i] = 1
    tally, items = _tally_marked(pred, flat, bytes(marks), lambda at: [""] * len(at))
    _warn(log, where(*tally.positions[0]), "%s of %s have \"\" as their only candidate, and no candidate of the file "
          "is \" \": first at %s. A gap of this task may hide a space, which the gold writes \" \"; a candidate "
          "stripped (.strip()) leaves \"\", which never matches: keep \" \" as it is." % (
              "{:,}".format(tally.tokens), _count(items, "gap"),
              "; ".join(where(*position) for position in tally.positions)),
          kind="spaces stripped from character gaps")


# --------------------------------------------------------------------------- lost ranks: repeats, case, spellings

#: The checks below that sample look at this many first items of a file (a file right there costs nothing more).
SAMPLE_ITEMS = 256


#: Repeated candidates are reported when at least this share of the items has one.
REPEAT_SHARE = 0.05


def _repeat(cands):
    """The first candidate of ``cands`` that could match (a non-empty string) and is given again in the same list,
    else None.

    >>> _repeat(["a", "b", "a"]), _repeat(["a", "", ""]), _repeat(["a", "b"])
    ('a', None, None)
    """
    seen = set()
    for cand in cands:
        if type(cand) is str and cand:
            if cand in seen:
                return cand
            seen.add(cand)
    return None


def _has_repeat(cands):
    """Whether the candidate sequence ``cands`` holds one value twice (a C-level test, any value)."""
    try:
        return len(set(cands)) < len(cands)
    except TypeError:   # an unhashable candidate: the walk of _repeat decides
        return True


def check_repeated_candidates(pred, log, where):
    """One warning when at least :data:`REPEAT_SHARE` of the items of ``pred`` (per sentence one candidate sequence per item, None for a sentence not
    scored) give the same candidate twice in one list (``["et", "et", "in"]``, a case or a space folded after the
    ranking): only the first candidates count, so the repeat takes the place of another guess (a rank lost; a few
    such items, a fixed padding that meets its gold, are not said). Only a file whose first :data:`SAMPLE_ITEMS`
    items hold that share is walked (a file right there costs one C-level test per sampled item). ``where(si, ti)``: a position."""
    flat = _sequence_items(pred)
    if not flat:
        return
    sample = flat[:SAMPLE_ITEMS]
    try:   # the values repeated in the sample, at C level: at least as many as the items that repeat one
        repeats = sum(map(len, sample)) - sum(map(len, map(set, sample)))
    except TypeError:   # an unhashable candidate
        repeats = sum(map(_has_repeat, sample))
    if repeats < REPEAT_SHARE * len(sample):
        return
    marks = bytes(1 if _has_repeat(cands) and _repeat(cands) is not None else 0 for cands in flat)
    if marks.count(1) < REPEAT_SHARE * len(flat):
        return
    tally, items = _tally_marked(pred, flat, marks, lambda at: [_repeat(flat[i]) for i in at])
    _warn(log, where(*tally.positions[0]), "%s of %s give the same candidate twice in one list: %s. Only the first "
          "candidates count, so a repeat takes the place of another guess (that rank is lost): give each candidate "
          "once (drop a repeat after lower-casing or stripping, and take the next one)." % (
              "{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2)),
          kind="the same candidate twice in one list")


#: First candidates that begin with a capital are reported when at least this share of the cased ones do (a gold
#: begins with one only where the text has one: a proper name, a sentence's first word).
CAPITAL_SHARE = 0.5
#: ... and at least this many first candidates are cased.
MIN_CASED = 20


def _capital(candidate):
    """1 when ``candidate`` is a string whose first character is a capital letter, 0 when a lower-case one, None
    when it is not a string or its first character has no case.

    >>> _capital("Et"), _capital("et"), _capital("1"), _capital(None)
    (1, 0, None, None)
    """
    if type(candidate) is not str or not candidate:
        return None
    head = candidate[0]
    if head.isupper():
        return 1
    return 0 if head.islower() else None


def _capital_counts(firsts):
    """``(capitals, cased)``: how many of ``firsts`` begin with a capital, how many with a cased letter (their first
    characters joined, then counted at C level)."""
    try:
        heads = "".join([c[:1] for c in firsts])
    except TypeError:   # a first candidate that is not a string
        found = [c for c in map(_capital, firsts) if c is not None]
        return sum(found), len(found)
    capitals = sum(map(str.isupper, heads))
    return capitals, capitals + sum(map(str.islower, heads))


def check_capitals(pred, log, where):
    """One warning when at least :data:`CAPITAL_SHARE` of the cased first candidates of ``pred`` (per sentence one
    candidate sequence per item, None for a sentence not scored) begin with a capital (``"ET"``, ``"Et"``: a list
    upper-cased or capitalised), while a gold begins with one only where the text has one; candidates are compared
    as they are, so each such rank is lost. The first :data:`SAMPLE_ITEMS` first candidates (:func:`_file_firsts`,
    shared with the scorer) decide whether the whole file is counted (C-level), and only a file that holds that
    share is marked item by item. ``where(si, ti)``: a position."""
    flat = _sequence_items(pred)
    if not flat:
        return
    firsts = _file_firsts(pred, flat)
    capitals, cased = _capital_counts(firsts[:SAMPLE_ITEMS])
    if cased < MIN_CASED or capitals < CAPITAL_SHARE * cased:
        return
    capitals, cased = _capital_counts(firsts)
    if capitals < CAPITAL_SHARE * cased:
        return
    marks = bytes(1 if c == 1 else 0 for c in map(_capital, firsts))
    tally, items = _tally_marked(pred, flat, marks, lambda at: list(map(firsts.__getitem__, at)))
    upper = all(c.isupper() for c in list(tally.first)[:MAX_EXAMPLES])
    _warn(log, where(*tally.positions[0]), "%s of the %s first candidates with a cased letter begin with a capital "
          "(%s): %s. A gold begins with a capital only where the text has one (a name), and candidates are compared "
          "as they are, case included: keep the text's own case (a model's output %s is lost)." % (
              "{:,}".format(capitals), "{:,}".format(cased), "in capitals" if upper else "capitalised",
              tally.examples(_quoted, where, 2), "upper-cased" if upper else "capitalised"),
          kind="candidates in capitals")


#: A candidate's text changed on its way to the file, by class: the share of the first candidates (of the sample,
#: then of the file) from which it is said, and what it is (:func:`_form_class`).
FORM_SHARES = OrderedDict([("quoted", 0.5), ("escaped", 0.05), ("garbled", 0.05), ("punctuation", 0.5)])
#: Punctuation attached is said only when the first candidates that carry it are at least this many distinct
#: strings (a text split on spaces gives many; a language's own abbreviation predicted everywhere, one).
MIN_PUNCTUATED = 5
#: A backslash escape written into a string (``\u03c4``, ``\xe9``, ``\n``): the text escaped twice.
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|U[0-9a-fA-F]{8}|[nt\"'\\])")


#: A Latin-1 letter that opens a UTF-8 sequence of two or three bytes (``\u00c2``-``\u00ef``) followed by a byte
#: that continues one, read as Latin-1 or Windows-1252: every mojibake holds one (``"Ã©"``), a real text hardly ever.
_MOJIBAKE_PAIR = ("[\u00c2-\u00ef][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
                  "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]")
_LATIN1_LEAD = re.compile(_MOJIBAKE_PAIR)
#: The punctuation a text split on spaces leaves on its words, and quotes (a regular expression's class).
_EDGE_PUNCTUATION = "!\"'(),.:;?\\[\\]\u00ab\u00bb\u201c\u201d\u2018\u2019\u00b7\u2026-"
#: What a candidate of a class of :data:`FORM_SHARES` but ``"escaped"`` holds: :data:`_EDGE_PUNCTUATION` at
#: either end of a string, next to a letter or digit (quotes, punctuation), or a :data:`_MOJIBAKE_PAIR`; counted
#: in one scan of the sampled strings joined by NUL (fewer than the smallest share of them: nothing to say).
_FORM_MARK = re.compile("(?:^|\x00)[%s]+\\w|\\w[%s]+(?:\x00|$)|%s" % (_EDGE_PUNCTUATION, _EDGE_PUNCTUATION,
                                                                     _MOJIBAKE_PAIR))


def _garbled(text):
    """What ``text`` read as UTF-8 was before being read as Latin-1 or Windows-1252 (mojibake: ``"Ã©"`` for
    ``"é"``), else None. A real text never survives the round trip (``"é"`` alone is no UTF-8).

    >>> _garbled("cÅ“ur"), _garbled("cœur"), _garbled("et")
    ('cœur', None, None)
    """
    if text.isascii() or not _LATIN1_LEAD.search(text):
        return None
    for codec in ("cp1252", "latin-1"):
        try:
            before = text.encode(codec).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if before != text:
            return before
    return None


def _form_class(candidate):
    r"""The class of :data:`FORM_SHARES` a first candidate falls in (a string only), else None: ``"quoted"`` (its
    quotes kept, ``'"et"'``), ``"escaped"`` (``"\\u03c4"``), ``"garbled"`` (mojibake), ``"punctuation"`` (a word
    with punctuation attached at an end, ``"et,"``).

    >>> [_form_class(c) for c in ('"et"', "\\u03c4\\u03bf", "Î¼Î¿Ï\x85", "et,", "et", "S'", ",", None)]
    ['quoted', 'escaped', 'garbled', 'punctuation', None, 'punctuation', None, None]
    """
    if type(candidate) is not str or len(candidate) < 2:
        return None
    if len(candidate) > 2 and candidate[0] == candidate[-1] and candidate[0] in "\"'":
        return "quoted"
    if "\\" in candidate and _ESCAPE.search(candidate):
        return "escaped"
    if _garbled(candidate) is not None:
        return "garbled"
    if (unicodedata.category(candidate[-1])[0] == "P" or unicodedata.category(candidate[0])[0] == "P") and \
            any(map(str.isalpha, candidate)):
        return "punctuation"
    return None


def _form_text(kind, tally, where, items):
    """The warning of a class of :func:`_form_class` found in ``tally`` (first candidates of ``items`` items)."""
    example = next(iter(tally.first))
    head = "%s of %s have a first candidate %%s: %s. Candidates are compared as they are, so those ranks are " \
        "lost" % ("{:,}".format(tally.tokens), _count(items, "item"), tally.examples(_quoted, where, 2))
    if kind == "quoted":
        return head % "written with its quotes" + (": write the strings themselves (json.dump the whole list, not "
                                                   "str(), repr() or json.dumps of each candidate).")
    if kind == "escaped":
        text = example
        try:
            text = json.loads('"%s"' % example.replace('"', '\\"'))
        except ValueError:
            pass
        return head % "holding escape sequences" + (" (%s is %s): the text was escaped twice (json.dumps of each "
                                                    "string, then the file); write the characters themselves." % (
                                                        _quoted(example), _quoted(text)))
    if kind == "garbled":
        return head % "that looks like UTF-8 read as Latin-1 or Windows-1252 (mojibake)" + (
            " (%s was %s): the text was read or written with the wrong encoding (a string written so is mended by "
            "text.encode(\"cp1252\").decode(\"utf-8\")); read and write every file with encoding=\"utf-8\"." % (
                _quoted(example), _quoted(_garbled(example))))
    return head % "with punctuation attached" + (": a gap hides the word alone, with punctuation only where the "
                                                  "text writes it inside the word; a restored sentence split on "
                                                  "spaces keeps it (%s): strip it from your candidates." % _quoted(
                                                      example))


def check_candidate_forms(pred, log, where):
    """One warning per class of :data:`FORM_SHARES` when at least its share of the first candidates of ``pred``
    (per sentence one candidate sequence per item, None for a sentence not scored) are candidates whose text was
    changed on its way to the file: quotes kept (``'"et"'``), escape sequences (``"\\u03c4"``), mojibake
    (``"Ã©"``), punctuation attached (``"et,"``); none ever matches a gold. The first :data:`SAMPLE_ITEMS` first
    candidates (:func:`first_candidates`, shared with the scorer) decide which classes are counted over the file.
    Returns the classes said. ``where(si, ti)``: a position."""
    flat = _sequence_items(pred)
    if not flat:
        return ()
    firsts = _file_firsts(pred, flat)
    head = firsts[:SAMPLE_ITEMS]
    try:
        joined = "\x00".join(head)
    except TypeError:   # a first candidate that is not a string
        joined = "\x00".join(c for c in head if type(c) is str)
    lead = not joined.isascii() and _LATIN1_LEAD.search(joined)   # mojibake: counted among non-ASCII items
    if "\\" not in joined and not lead and len(_FORM_MARK.findall(joined)) < min(FORM_SHARES.values()) * len(head):
        return ()   # (C-level scans of the sample alone)
    sample = Counter(map(_form_class, head))
    size = len(head)
    sizes = {"garbled": _non_ascii(head)} if lead else {}
    suspects = [kind for kind, share in FORM_SHARES.items() if sample[kind] and sample[kind] >= share * sizes.get(
        kind, size) and (kind != "garbled" or sample[kind] >= MIN_GARBLED)]
    if not suspects:
        return ()
    classes = list(map(_form_class, firsts))
    said = []
    for kind in suspects:
        marks = bytes(map(eq, classes, repeat(kind)))
        if marks.count(1) < FORM_SHARES[kind] * (_non_ascii(firsts) if kind == "garbled" else len(firsts)):
            continue
        tally, items = _tally_marked(pred, flat, marks, lambda at: list(map(firsts.__getitem__, at)))
        if kind == "punctuation" and len(tally.counts) < MIN_PUNCTUATED:
            continue   # a few words a language writes so (Old Irish ".i."), predicted for every gap: no split text
        _warn(log, where(*tally.positions[0]), _form_text(kind, tally, where, items),
              kind="candidates %s" % {"quoted": "written with their quotes", "escaped": "escaped twice",
                                      "garbled": "in mojibake", "punctuation": "with punctuation attached"}[kind])
        if kind == "garbled":
            log.mend("candidates in mojibake", "with the text read back as UTF-8 (encoded as cp1252 or latin-1, "
                     "decoded as UTF-8)", CandidateMend(_ungarbled))
        said.append(kind)
    return tuple(said)


#: Mojibake is said from this many garbled first candidates on (in the sample), whatever their share.
MIN_GARBLED = 3


def _non_ascii(strings):
    """How many of ``strings`` are strings that are not ASCII (the items mojibake can touch)."""
    return sum(1 for text in strings if type(text) is str and not text.isascii())


def _ungarbled(candidate):
    """``candidate`` read back as UTF-8 when it is mojibake (:func:`_garbled`), else itself."""
    return (_garbled(candidate) or candidate) if type(candidate) is str else candidate


#: Other spellings of a space that a character gap's candidates may hold instead of ``" "`` (the gap marker's
#: underscore, the open-box sign, a name for it, the no-break space).
SPACE_SPELLINGS = ("_", "\u2423", "<space>", "<SPACE>", "[SPACE]", "<sp>", "\u00a0", "space", "SPACE")


def check_space_spellings(pred, log, task, where, distinct=False):
    """One warning when the task's gaps hide one character each (``task.gap_unit == "character"``, a declared fact)
    and one spelling of :data:`SPACE_SPELLINGS` (``"_"``) is the first candidate of at least
    :data:`EMPTY_FIRST_SHARE` of the gaps of ``pred`` and more often than ``" "`` itself: a space written another
    way, which never matches the gold's ``" "`` (a gold ``"_"`` is rare, far rarer than a space). A file without
    such a spelling among its candidates costs one set operation (``distinct``: :func:`distinct_candidates`, when
    the caller has it). ``where(si, mi)``: a position."""
    if getattr(task, "gap_unit", None) != "character":
        return
    distinct = distinct_candidates(pred) if distinct is False else distinct
    if not distinct or distinct.isdisjoint(SPACE_SPELLINGS):
        return
    flat = _sequence_items(pred)
    if not flat:
        return
    firsts = _file_firsts(pred, flat)
    spelling = max((s for s in SPACE_SPELLINGS if s in distinct), key=firsts.count)
    written = firsts.count(spelling)
    spaces = firsts.count(" ")
    if written < EMPTY_FIRST_SHARE * len(flat) or spaces >= written:
        return
    tally, items = _tally_marked(pred, flat, bytes(map(eq, firsts, repeat(spelling))),
                                 lambda at: [spelling] * len(at))
    _warn(log, where(*tally.positions[0]), "%s of %s have %s as their first candidate, and only %s have \" \": first "
          "at %s. A gap of this task may hide a space, which the gold writes \" \" (a space character); %s is "
          "another string and never matches it, so those ranks are lost: write \" \" for a space." % (
              "{:,}".format(written), _count(items, "gap"), _quoted(spelling), "{:,}".format(spaces),
              "; ".join(where(*position) for position in tally.positions), _quoted(spelling)),
          kind="a space written another way")


# --------------------------------------------------------------------------- nothing to match

def check_no_candidate(pred, log, where):
    """One ERROR when no item of ``pred`` (per sentence one candidate sequence per item, None for a sentence not
    scored) holds a non-empty candidate string (every list empty, every candidate ``""`` or not a string): nothing
    can match, the whole file scores 0. One C-level pass when some candidate is non-empty."""
    flat = candidate_items(pred)
    if flat is not None and any(chain.from_iterable(flat)):
        return
    present = [sent for sent in pred if sent]
    if not present or any(chain.from_iterable(chain.from_iterable(present))):
        return
    items = sum(map(len, present))
    if not items:
        return
    first = next((si, 0) for si, sent in enumerate(pred) if sent)
    _warn(log, where(*first), "none of the %s has a candidate to match (every list empty, every candidate \"\" or "
          "not a string): %s. Give each item its candidates, best first." % (_count(items, "item"), ZERO_NOTE),
          kind="no candidate in the whole file", severity=ERROR)
