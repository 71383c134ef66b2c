"""What a prediction meant where it breaks a convention of the SCATE annotations in a way that can be undone exactly.

Three classes of mistake leave a file well formed, lose most of its score, and can be read back as meant:

- offsets counted on another text than the document's (:data:`OTHER_TEXTS`): with ``\\r\\n`` line ends (a Windows
  checkout), in bytes of UTF-8, in UTF-16 code units, on XML-escaped text, with tabs expanded, decomposed (NFD):
  the shift grows along the text, so no constant shift puts the spans back; or with a constant besides (a
  byte-order mark), or on the text shifted by more than a few characters (its header lines left out);
  :func:`other_text` finds the reading on which most spans start and end on word boundaries (it runs only when some
  span cuts a word or ends after the text);
- names of the SCATE schema written in another letter case or with other separators (``day-of-month``,
  ``Month_Of_Year``, ``august``): a type, a property or a value that folds to exactly one of the schema's;
- links holding another form of the id they name: a bare number (``32`` for ``32@e@APW19980807.0261@system``),
  the gold's suffix, a span (``16,20`` for the one entity with that span).

:func:`mend` returns the file read as meant (a :class:`Mend`: the mended :class:`.anafora.Document` and what was
mended), or None. Nothing here changes a score: the scorer scores every file as written; the kinds price a mend
against a public gold (``details["mended"]``, turned into a message by :func:`evalkit.floor.mended_prices` only
where the gold is public), so that a file that loses most of its score to such a mistake is said so
(:data:`evalkit.messages.LOSS_NOTE`). Standard library only, Python 3.7+.
"""
import bisect
import re
import unicodedata
from collections import OrderedDict

from ..messages import WARNING, Message, quoted
from .anafora import Document, Entity, link_properties
from .schema import TYPES, _cuts, _ends_too_far, _folded, _same_number, edge_trim, numeric_reading

#: A file is read on another text only when at least this many of its spans can be compared.
MIN_SPANS = 3


class OtherText(object):
    """A text the offsets may have been counted on instead of the document's: ``key``, ``name`` (short);
    ``applies(text)``, whether it differs from ``text`` at all; ``positions(text)``, the offset in the other text of
    each position of ``text`` (``len(text) + 1`` values, None where no position of the other text corresponds);
    ``what``, the other text in words; ``grows``, how the shift grows along the text; ``fix``, how to count on the
    document's text."""

    def __init__(self, key, name, applies, positions, what, grows, fix):
        self.key = key
        self.name = name
        self.applies = applies
        self.positions = positions
        self.what = what
        self.grows = grows
        self.fix = fix


def _weighted(weight):
    """``positions(text)`` of a text in which each character ``c`` of ``text`` takes ``weight(text, i)`` places."""
    def positions(text):
        found, total = [0], 0
        for index in range(len(text)):
            total += weight(text, index)
            found.append(total)
        return found
    return positions


def _tabs(text):
    """The positions of ``text`` in ``text.expandtabs()`` (a tab fills up to the next multiple of 8 columns)."""
    found, total, column = [0], 0, 0
    for char in text:
        width = 8 - column % 8 if char == "\t" else 1
        column = 0 if char in "\r\n" else column + width
        total += width
        found.append(total)
    return found


def _clusters(form):
    """``positions(text)`` of ``text`` normalised to ``form`` (NFC, NFD), one base character and its combining marks
    at a time (a position inside such a cluster has none)."""
    def positions(text):
        found, total, index = [0], 0, 0
        while index < len(text):
            end = index + 1
            while end < len(text) and unicodedata.combining(text[end]):
                end += 1
            total += len(unicodedata.normalize(form, text[index:end]))
            found.extend([None] * (end - index - 1) + [total])
            index = end
        return found
    return positions


def _ascii(text):
    return not text.isascii() if hasattr(text, "isascii") else any(ord(c) > 127 for c in text)


def _crlf(text, index):
    return 2 if text[index] == "\n" and (index == 0 or text[index - 1] != "\r") else 1


def _utf8(text, index):
    return len(text[index].encode("utf-8", "surrogatepass"))


_READ = "read the text in Python's text mode (which reads \\r\\n as \\n)"
_GIT = "check the data out without line-end conversion (git config core.autocrlf false)"
_CHARACTERS = "count characters of the text decoded from UTF-8 (Python string indices)"

def _collapsed(text):
    """The positions of ``text`` in ``" ".join(text.split())`` (its whitespace collapsed: none at the start, one
    space for each run)."""
    found, total, seen = [0], 0, False
    for index, char in enumerate(text):
        if not char.isspace():
            total, seen = total + 1, True
        elif seen and (index + 1 == len(text) or not text[index + 1].isspace()):
            total += 1   # the last character of a run stands for the one space the run becomes
        found.append(total)
    return found


#: The other texts :func:`other_text` tries, in this order (the first of two that fit as well wins).
OTHER_TEXTS = (
    OtherText("crlf", "\\r\\n line ends", lambda text: "\n" in text, _weighted(_crlf),
              "one with line ends of two characters, \\r\\n (a Windows checkout, or the text read without newline "
              "translation)", "by one per line",
              "its line ends are \\n, one character each: %s, or %s" % (_READ, _GIT)),
    OtherText("lf", "\\n line ends", lambda text: "\r\n" in text,
              _weighted(lambda text, i: 0 if text[i] == "\r" and text[i + 1:i + 2] == "\n" else 1),
              "one with line ends of one character, \\n, where this text has \\r\\n", "by minus one per line",
              "its line ends are \\r\\n, two characters each: read it with newline='' (Python) to keep them"),
    OtherText("utf8", "UTF-8 bytes", _ascii, _weighted(_utf8), "its bytes of UTF-8 rather than its characters",
              "at each character outside ASCII (2 to 4 bytes each)", _CHARACTERS + ", not bytes"),
    OtherText("crlf+utf8", "UTF-8 bytes and \\r\\n line ends", lambda text: "\n" in text and _ascii(text),
              _weighted(lambda text, i: _crlf(text, i) * _utf8(text, i)),
              "its bytes of UTF-8 with line ends of two bytes, \\r\\n (a Windows checkout)",
              "at each line end and each character outside ASCII",
              _CHARACTERS + ", with \\n line ends: %s, or %s" % (_READ, _GIT)),
    OtherText("utf16", "UTF-16 code units", lambda text: any(ord(c) > 0xFFFF for c in text),
              _weighted(lambda text, i: 2 if ord(text[i]) > 0xFFFF else 1),
              "its UTF-16 code units (string indices of Java, JavaScript or C#)",
              "by one at each character beyond U+FFFF (an emoji, a rare CJK character)",
              "count code points (Python string indices)"),
    OtherText("nfd", "decomposed text (NFD)", lambda text: unicodedata.normalize("NFD", text) != text,
              _clusters("NFD"), "the text decomposed (Unicode NFD)", "at each accented letter (a letter and a mark)",
              "count on the text as given, without normalising it"),
    OtherText("nfc", "composed text (NFC)", lambda text: unicodedata.normalize("NFC", text) != text,
              _clusters("NFC"), "the text composed (Unicode NFC)", "by minus one at each letter written with a "
              "combining mark", "count on the text as given, without normalising it"),
    OtherText("escaped", "XML-escaped text", lambda text: any(c in text for c in "&<>"),
              _weighted(lambda text, i: {"&": 5, "<": 4, ">": 4}.get(text[i], 1)),
              "the text escaped for XML (&amp;, &lt;, &gt;: the .tml source, or an XML copy of the text)",
              "by 4 at each & and by 3 at each < or >", "count on the plain text, where & < > are one character each"),
    OtherText("tabs", "tabs expanded", lambda text: "\t" in text, _tabs, "the text with its tabs expanded to spaces",
              "at each tab (up to 7)", "count a tab as one character"),
    OtherText("nolf", "line ends removed", lambda text: "\n" in text,
              _weighted(lambda text, i: 0 if text[i] in "\r\n" else 1),
              "the text with its line ends removed (text.replace('\\n', ''))", "by minus one per line",
              "count on the text as given, each line end one character"),
    OtherText("collapsed", "whitespace collapsed", lambda text: " ".join(text.split()) != text.rstrip(), _collapsed,
              "the text with its whitespace collapsed (' '.join(text.split()): one space for each run of spaces and "
              "line ends)", "by minus one at each whitespace character after the first of its run",
              "count on the text as given, every space and line end one character"),
)


#: The text itself, read with a constant shift (what :func:`other_text` tries for a text stripped of its first
#: characters, or with characters added before it); a shift of at most :data:`SMALL_SHIFT` is the span warning's own
#: sentence (:func:`.schema.shifted_spans`).
SAME = OtherText("same", "a shifted text", lambda text: True, lambda text: list(range(len(text) + 1)), "", "",
                 "count from its first character, its first lines included")
SMALL_SHIFT = 3
#: A constant shift is looked for within this many characters of each span, on at most about this many spans.
WINDOW = 400
VOTES = 100


class Offsets(object):
    """What :func:`other_text` found: the :class:`OtherText`, ``back`` (its offsets -> positions of the text) and
    ``shift`` (a constant added to its offsets: a byte-order mark, a header left out), the number of spans compared
    (``total``), on word boundaries as written (``written``) and read back (``fixed``), the spans moved,
    ``[(entity, (start, end), (new start, new end))]`` in text order, and ``alike``, the other texts of
    :data:`OTHER_TEXTS` that read every span back alike on this text (UTF-8 bytes and NFD count an accented letter
    alike), named too."""

    def __init__(self, other, back, total, written, fixed, moved, alike=(), shift=0, back_start=None):
        self.other = other
        self.back = back
        self.back_start = back if back_start is None else back_start   # a start: the last position at an offset
        self.total = total
        self.written = written
        self.fixed = fixed
        self.moved = moved
        self.alike = list(alike)
        self.shift = shift

    def span(self, span):
        """``span`` read back onto the document's text, or None when one of its offsets has no position there."""
        start, end = self.back_start.get(span[0] - self.shift), self.back.get(span[1] - self.shift)
        return None if start is None or end is None else (start, end)

    def what(self, text):
        """The other text in words."""
        if self.other is SAME:
            return ("one that %s, where every span is shifted by %+d" % (
                "leaves out the first %d characters of this one (%s: a header or blank lines stripped?)" % (
                    -self.shift, quoted(text[:-self.shift], 40)) if self.shift < 0 else
                "has %d characters more before it (a header or a byte-order mark added?)" % self.shift, self.shift))
        return "%s%s, where the shift grows %s" % (self.other.what, (
            ", and %+d from its start (%s)" % (self.shift, "a byte-order mark counted?" if self.shift in (1, 3) else
                                                "a header added or left out?")) if self.shift else "",
            self.other.grows)

    def message(self, file, text):
        """The warning, at the first entity whose span moves: the other text, how the shift grows, the counts."""
        entity = self.moved[0][0]
        shown = [self.moved[0], self.moved[-1]] if len(self.moved) > 1 else self.moved[:1]
        grows = ", ".join("%+d at span %d,%d on line %d" % (span[0] - new[0], span[0], span[1],
                                                           text.count("\n", 0, new[0]) + 1) for _, span, new in shown)
        alike = "".join(" (or on %s: on this text it counts alike; %s)" % (other.what, other.fix)
                        for other in self.alike)
        return Message(file, WARNING, "entity %s (line %d)" % (entity.id, entity.line), (
            "the offsets look counted on another text than this document's: on %s (%s)%s. Read back onto this "
            "document's text, %d of the %d spans start and end on word boundaries, against %d as written. Spans count "
            "the characters of the document's text as given: %s. The warnings on this file's spans follow from it." % (
                self.what(text), grows, alike, self.fixed, self.total, self.written, self.other.fix)))


def _all_spans(entities):
    return [(entity, span) for entity in entities for span in entity.spans]


def _word_starts(text):
    """The positions of ``text`` where a run of letters or digits starts."""
    return [i for i, char in enumerate(text) if char.isalnum() and (i == 0 or not text[i - 1].isalnum())]


def _likely_shift(positions, starts, offsets):
    """The constant most of ``offsets`` (span starts) exceed a word start by, in the other text whose ``positions``
    are given (word ``starts`` of the document's text); 0 when none stands out."""
    counted = sorted(positions[w] for w in starts if positions[w] is not None)
    votes = {}
    for offset in offsets[::max(1, len(offsets) // VOTES)]:
        for found in counted[bisect.bisect_left(counted, offset - WINDOW):bisect.bisect_right(counted, offset + WINDOW)]:
            votes[offset - found] = votes.get(offset - found, 0) + 1
    if not votes:
        return 0
    return min(votes, key=lambda shift: (-votes[shift], abs(shift)))


def other_text(document):
    """The :class:`Offsets` of ``document`` (a prediction read with its text) when its spans start and end on word
    boundaries much more often read back from one of :data:`OTHER_TEXTS` (or from this text shifted by a constant of
    more than :data:`SMALL_SHIFT`; either with such a constant added: a byte-order mark, a header) than as written:
    at least two thirds of them, and at least a fifth of them (two at least) more than as written; else None. Runs
    only when something is wrong already: a span that cuts a word or ends after the text.

    >>> from .anafora import Entity
    >>> spans = [(0, 3), (5, 9), (15, 19), (20, 24)]   # May, 1998, June, 2001 counted with \\r\\n line ends
    >>> entities = [Entity(str(n), "Year", "", [s], {}) for n, s in enumerate(spans)]
    >>> found = other_text(Document(entities, "d", "May\\n1998\\nand June 2001"))
    >>> found.other.key, found.shift, found.written, found.fixed, [found.span(s) for s in spans]
    ('crlf', 0, 1, 4, [(0, 3), (4, 8), (13, 17), (18, 22)])
    """
    text = document.text
    if text is None:
        return None
    spans = _all_spans(document.entities + list(getattr(document, "dropped_entities", ())))
    written = sum(1 for _, (start, end) in spans if end <= len(text) and not _cuts(text, start, end))
    if len(spans) < MIN_SPANS or written == len(spans):
        return None
    starts = _word_starts(text)
    tried = []   # (fixed, other text, shift, back, spans read back), the best first
    for rank, other in enumerate(OTHER_TEXTS + (SAME,)):
        if not other.applies(text):
            continue
        positions = other.positions(text)
        back, back_start = {}, {}   # offset in the other text -> the first (an end) and last (a start) position
        for index, offset in enumerate(positions):   # of this text at it (they differ past a character left out)
            if offset is not None:
                back.setdefault(offset, index)
                back_start[offset] = index
        likely = _likely_shift(positions, starts, [start for _, (start, _) in spans])
        for shift in ([likely] if other is SAME else [0, likely] if likely else [0]):
            read = [(back_start.get(start - shift), back.get(end - shift)) for _, (start, end) in spans]
            fixed = sum(1 for start, end in read if start is not None and end is not None and not _cuts(text, start,
                                                                                                        end))
            tried.append((-fixed, (other is not SAME) + (shift != 0), rank, other, shift, (back, back_start), read))
    if not tried:
        return None
    tried.sort(key=lambda item: item[:3])   # the most spans fixed; then the simplest reading (one part, not two)
    _, _, _, other, shift, back, read = tried[0]
    fixed = -tried[0][0]
    if 3 * fixed < 2 * len(spans) or fixed - written < max(2, len(spans) / 5.0) or (
            other is SAME and abs(shift) <= SMALL_SHIFT):   # a small shift: the span warning's own sentence says it
        return None
    if fixed <= _stripped(text, spans):   # the spans hold a space at an edge (a tokenizer's offsets): said so
        return None
    alike = [item[3] for item in tried[1:] if item[6] == read and item[4] == shift and item[3] is not SAME]
    moved = sorted(((spans[i][0], spans[i][1], new) for i, new in enumerate(read)
                    if new[0] is not None and new[1] is not None and new != spans[i][1]), key=lambda item: item[1])
    return Offsets(other, back[0], len(spans), written, fixed, moved, alike, shift, back[1]) if moved else None


def _stripped(text, spans):
    """How many of ``spans`` start and end on word boundaries once whitespace at their edges is stripped."""
    found = 0
    for _, (start, end) in spans:
        if end > len(text):
            continue
        trim = edge_trim(text, start, end)
        if trim is not None and trim[2] == "whitespace":
            start, end = trim[:2]
        found += not _cuts(text, start, end)
    return found


def _folding(names):
    """``{folded name: name}`` of ``names`` (:func:`.schema._folded`), without the folded names two of them share."""
    found, shared = {}, set()
    for name in names:
        key = _folded(name)
        if key in found and found[key] != name:
            shared.add(key)
        found[key] = name
    return dict((key, name) for key, name in found.items() if key not in shared)


_TYPES = _folding(TYPES)
_PROPERTIES = dict((kind, _folding(props)) for kind, props in TYPES.items())
_VALUES = dict(((kind, name), _folding(prop.values)) for kind, props in TYPES.items() for name, prop in props.items()
               if prop.kind == "choice")


class Mend(object):
    """A prediction read as meant: ``document`` (a :class:`.anafora.Document`) and ``causes``, ``{key: [count,
    first entity, example, forms]}`` for ``names``, ``links`` and ``offsets``, in the order mended (``forms``: the
    forms of what was mended, such as "lower-cased" or "bare number")."""

    def __init__(self, document, causes):
        self.document = document
        self.causes = causes

    def said(self):
        """The causes in words, e.g. ``the schema's names lower-cased ('day-of-month' for Day-Of-Month; 21 in this
        file)``, joined by ``and``."""
        found = []
        for key, (count, _, example, forms) in self.causes.items():
            form = next(iter(forms)) if len(forms) == 1 else ""
            if key == "names":
                what = ("the SCATE schema's names %s" % form if form in ("lower-cased", "upper-cased") else
                        "the SCATE schema's names written in another letter case or with other separators")
            elif key == "links":
                what = ("links written as %ss" % form if form in ("bare number", "span") else
                        "links written as another form of the id they name")
            elif key == "spans":
                what = ("spans %s" % {"whitespace": "starting or ending on whitespace",
                                      "punctuation": "including punctuation the gold leaves out"}.get(
                    form, "with whitespace or punctuation at their edges"))
            elif key == "extra":
                what = "properties outside the SCATE schema (composition F1 compares every property)"
            elif key == "numbers":
                what = "numeric values written otherwise than the gold writes them (%s)" % (
                    form or "leading zeros, decimal parts, number words")
            else:
                what = "offsets counted on another text than the document's"
            found.append("%s (%s; %d in this file)" % (what, example, count))
        return " and ".join(found)

    def where(self):
        """The position of the first cause: its first entity."""
        entity = next(iter(self.causes.values()))[1]
        return "entity %s (line %d)" % (entity.id, entity.line)


def _count(causes, key, entity, changed, form):
    """Count the ``changed`` pairs (as written, as meant) of ``entity`` under the cause ``key`` (its first entity and
    example kept), and their forms (``form(written, meant)``)."""
    found = causes.setdefault(key, [0, entity, "%s for %s" % (quoted(changed[0][0], 40), quoted(changed[0][1], 60)),
                                    set()])
    found[0] += len(changed)
    found[3].update(form(written, meant) for written, meant in changed)


def _case(written, meant):
    """How a name ``written`` differs from the schema's ``meant``."""
    return "lower-cased" if written == meant.lower() else "upper-cased" if written == meant.upper() else "other"


def _link_form(written, meant):
    """What a link value ``written`` holds instead of the id ``meant``."""
    return "bare number" if written.strip().isdigit() else "span" if _SPAN.match(written) else "other"


def _renamed(entities, causes):
    """``entities`` with their types, property names and choice values read as the schema's when they differ from
    exactly one of its names only by letter case or separators (``causes["names"]`` counts them)."""
    result = []
    for entity in entities:
        kind = entity.type if entity.type in TYPES else _TYPES.get(_folded(entity.type), entity.type)
        changed = [(entity.type, kind)] if kind != entity.type else []
        properties = {}
        for name, values in entity.properties.items():
            real = name
            if kind in TYPES and name not in TYPES[kind]:
                real = _PROPERTIES[kind].get(_folded(name), name)
                changed += [(name, real)] if real != name else []
            choices = _VALUES.get((kind, real))
            if choices is not None:
                read = []
                for value in values:
                    read.append(value if value in TYPES[kind][real].values else choices.get(_folded(value), value))
                    changed += [(value, read[-1])] if read[-1] != value else []
                values = read
            properties.setdefault(real, []).extend(values)
        if changed:
            _count(causes, "names", entity, changed, _case)
            entity = Entity(entity.id, kind, entity.parents_type, entity.spans, properties, entity.line,
                            entity.misplaced)
        result.append(entity)
    return result


_SPAN = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*$")


def _relinked(entities, causes):
    """``entities`` whose link values that name no entity name the one entity they identify otherwise: by the
    number of its id (``32`` or ``32@e@doc@gold`` for ``32@e@doc@system``: :func:`.schema._same_number`), or by its
    span (``16,20`` for the one entity whose span that is); ``causes["links"]`` counts them."""
    document = Document(entities)
    by_span = {}
    for entity in entities:
        by_span[tuple(entity.spans)] = entity.id if tuple(entity.spans) not in by_span else None
    result = []
    for entity in entities:
        names = link_properties(entity.type)
        properties, changed = {}, []
        for name, values in entity.properties.items():
            read = values
            if name in names:
                read = []
                for value in values:
                    read.append(value if value in document.by_id else _link_target(value, document, by_span) or value)
                    changed += [(value, read[-1])] if read[-1] != value else []
            properties[name] = read
        if changed:
            _count(causes, "links", entity, changed, _link_form)
            entity = Entity(entity.id, entity.type, entity.parents_type, entity.spans, properties, entity.line,
                            entity.misplaced)
        result.append(entity)
    return result


def _link_target(value, document, by_span):
    """The id that a link ``value`` naming no entity of ``document`` identifies otherwise, or ""."""
    span = _SPAN.match(value)
    if span:
        return by_span.get(((int(span.group(1)), int(span.group(2))),)) or ""
    return _same_number(value, document)


def _moved(entities, offsets, causes, length):
    """``entities`` (those dropped for a span after the text included) whose spans all read back onto the text
    (:class:`Offsets`) with them read back; the others as they were, but those still ending after the text
    (``length`` characters) left out; ``causes["offsets"]`` counts the spans moved."""
    result = []
    for entity in entities:
        spans = [offsets.span(span) for span in entity.spans]
        if None in spans:
            spans = entity.spans
        if any(end > length for _, end in spans):
            continue
        if spans != entity.spans:
            entity = Entity(entity.id, entity.type, entity.parents_type, spans, entity.properties, entity.line,
                            entity.misplaced)
        result.append(entity)
    entity, span, new = offsets.moved[0]
    causes["offsets"] = [len(offsets.moved), entity, "%s: %d,%d read as %d,%d" % (
        offsets.other.name, span[0], span[1], new[0], new[1]), set([offsets.other.key])]
    return result


def _trimmed(entities, causes, text):
    """``entities`` with their spans trimmed of the whitespace and the punctuation the gold leaves out at their edges
    (:func:`.schema.edge_trim`); ``causes["spans"]`` counts them. Not where the ends are one too far (the span
    warning's end-offset sentence says so)."""
    if _ends_too_far(entities, text):
        return entities
    result = []
    for entity in entities:
        spans, changed = [], []
        for start, end in entity.spans:
            trim = edge_trim(text, start, end)
            if trim is None or _cuts(text, trim[0], trim[1]):
                spans.append((start, end))
                continue
            spans.append(trim[:2])
            changed.append(("%d,%d %s" % (start, end, quoted(text[start:end], 30)), "%d,%d" % trim[:2], trim[2]))
        if changed:
            found = causes.setdefault("spans", [0, entity, "%s read as %s" % changed[0][:2], set()])
            found[0] += len(changed)
            found[3].update(form for _, _, form in changed)
            entity = Entity(entity.id, entity.type, entity.parents_type, spans, entity.properties, entity.line,
                            entity.misplaced)
        result.append(entity)
    if 0 < causes.get("spans", [MIN_TRIMMED])[0] < MIN_TRIMMED:   # one such span: the gold has one now and then
        del causes["spans"]
        return entities
    return result


#: Spans trimmed, and leading zeros read, are a cause from this many on (:data:`.schema.MIN_PUNCTUATION`).
MIN_TRIMMED = 2
MIN_ZEROS = 2


def _pruned(entities, causes):
    """``entities`` without the properties their (schema) type does not have; ``causes["extra"]`` counts them."""
    result = []
    for entity in entities:
        props = TYPES.get(entity.type)
        extra = [name for name in entity.properties if props is not None and name not in props]
        if extra:
            found = causes.setdefault("extra", [0, entity, "%s on %s" % (quoted(extra[0], 40), entity.type), set()])
            found[0] += len(extra)
            entity = Entity(entity.id, entity.type, entity.parents_type, entity.spans,
                            dict((name, values) for name, values in entity.properties.items() if name not in extra),
                            entity.line, entity.misplaced)
        result.append(entity)
    return result


def _numbers(entities, causes):
    """``entities`` with the values of their numeric properties written as the gold writes them
    (:func:`.schema.numeric_reading`); ``causes["numbers"]`` counts them."""
    result = []
    for entity in entities:
        props = TYPES.get(entity.type) or {}
        properties, changed = {}, []
        for name, values in entity.properties.items():
            read = []
            for value in values:
                reading = numeric_reading(props[name], value) if name in props else None
                read.append(value if reading is None else reading[0])
                changed += [(value, reading[0], reading[1])] if reading is not None else []
            properties[name] = read
        if changed:
            found = causes.setdefault("numbers", [0, entity, "%s for %s" % (quoted(changed[0][0], 40),
                                                                         quoted(changed[0][1], 40)), set()])
            found[0] += len(changed)
            found[3].update(form for _, _, form in changed)
            entity = Entity(entity.id, entity.type, entity.parents_type, entity.spans, properties, entity.line,
                            entity.misplaced)
        result.append(entity)
    found = causes.get("numbers")
    if found is not None and found[3] == set(["leading zero"]) and found[0] < MIN_ZEROS:
        del causes["numbers"]   # an hour '07' of the gold's
        return entities
    return result


def mend(document, offsets=None):
    """The :class:`Mend` of a prediction ``document`` (its offsets read back from another text when ``offsets``,
    :func:`other_text`, found one), or None when nothing in it can be read otherwise. Names first (a type decides
    which properties are links), then links, then offsets."""
    causes = OrderedDict()
    entities = document.entities
    if offsets is not None:   # the entities dropped for a span after the text may be inside it once read back
        entities = entities + list(getattr(document, "dropped_entities", ()))
    entities = _relinked(_renamed(entities, causes), causes)
    if offsets is not None:
        entities = _moved(entities, offsets, causes, len(document.text))
    elif document.text is not None:
        entities = _trimmed(entities, causes, document.text)
    entities = _numbers(_pruned(entities, causes), causes)
    if not causes:
        return None
    return Mend(Document(entities, document.file, document.text), causes)
