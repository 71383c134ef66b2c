"""Validation messages and the one error class for bad data.

Every problem found in a file becomes a :class:`Message` that names the file, the position
(sentence, token, JSON path) and what was expected versus what was found. A :class:`DataError`
carries one message for problems that make a whole file unusable.
"""

ERROR = "error"      # something was scored 0 because of it
WARNING = "warning"  # scored, but not exactly as submitted (e.g. a 4th candidate ignored)
INFO = "info"
#: Said (at the end of an error's text) when a whole file scores 0 because of it; the starting kits' validators
#: count such files (evalkit/verdict.py).
ZERO_NOTE = "this file scores 0"
#: Said (at the end of an error's text) when a whole file is scored but its labels stand against other items than
#: those they were made for (predictions for another split, the input's own tokens as labels): it scores no better
#: than chance. The kits' validators count such files apart (evalkit/verdict.py).
CHANCE_NOTE = "this file scores no better than chance"
#: Said (at the end of a message's text, error or warning) when the kit can price a file's loss against a public
#: gold (the development phase) and the file loses most of what it would score with the mistake mended (SCATE links
#: written as bare numbers, LinCE ISO codes for labels): it is scored, and its score is mostly lost. The kits'
#: validators count such files apart and exit 1 (evalkit/verdict.py).
LOSS_NOTE = "this file loses most of its score"

#: At most this many characters of a participant string (a form, a tag, a file name) are shown in a
#: message, a report or on stdout; longer strings keep a prefix, an ellipsis and their true length.
MAX_SHOWN = 200
#: Limits of the parts of a message (they hold at most a few shown strings).
MAX_FILE_CHARS = 300
MAX_TEXT_CHARS = 2000


def _escape(text):
    """``text`` with every non-printable character (control characters, line and paragraph separators,
    lone surrogates, format characters) written as a visible Python escape (``\\n``, ``\\x1b``, ``\\ud800``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _cut(text, limit):
    """``(prefix, true length)`` of ``text``: the prefix is ``text`` itself when it is at most ``limit`` long."""
    return (text, None) if len(text) <= limit else (text[:limit], len(text))


def printable(text, limit=MAX_SHOWN):
    """``text`` as one printable line: non-printable characters escaped visibly, at most ``limit`` of its
    characters kept (then an ellipsis and the true length). Anything that is not a string is ``str()``-ed.

    >>> printable("a\\nb\\x1b]0;x\\x07"), printable("abcdef", 3)
    ('a\\\\nb\\\\x1b]0;x\\\\x07', 'abc\u2026 (6 characters)')
    """
    if type(text) is str and len(text) <= limit and text.isprintable():   # the common case, as it is
        return text
    text, length = _cut(text if isinstance(text, str) else str(text), limit)
    text = _escape(text)
    return text if length is None else "%s\u2026 (%s characters)" % (text, "{:,}".format(length))


def quoted(value, limit=MAX_SHOWN):
    """A participant value quoted for a message, like ``%r`` but at most ``limit`` characters of a string
    (then an ellipsis inside the quotes and the true length after them).

    >>> quoted("ab"), quoted("a" * 5, 3), quoted(None)
    ("'ab'", "'aaa\u2026' (5 characters)", 'None')
    """
    if not isinstance(value, str):
        return printable(repr(value), limit)
    text, length = _cut(value, limit)
    if length is None:
        return repr(text)
    return "%s\u2026%s (%s characters)" % (repr(text)[:-1], repr(text)[-1], "{:,}".format(length))


class Message(object):
    """One located validation message."""

    __slots__ = ("file", "severity", "where", "text")

    def __init__(self, file, severity, where, text):
        self.file = printable(file, MAX_FILE_CHARS)
        self.severity = severity
        self.where = printable(where, MAX_FILE_CHARS)
        self.text = printable(text, MAX_TEXT_CHARS)

    def as_dict(self):
        """Return the message as the dict stored in ``detailed_results.json``."""
        return {"file": self.file, "severity": self.severity, "where": self.where, "text": self.text}

    def __str__(self):
        where = (", " + self.where) if self.where else ""
        return "%s: %s%s: %s" % (self.severity, self.file, where, self.text)


class DataError(Exception):
    """Bad data that makes one whole file unusable (its entry scores 0).

    ``status`` is the entry status recorded in ``detailed_results.json`` (``unreadable`` unless the file is
    well-formed but has the wrong number of sentences: ``sentence_count_mismatch``).
    """

    def __init__(self, file, where, text, status="unreadable"):
        Exception.__init__(self, "%s%s: %s" % (file, (", " + where) if where else "", text))
        self.message = Message(file, ERROR, where, text)
        self.status = status


#: A class of problem found more than once in a file is said once: its first message, its count and at most this
#: many first positions.
MAX_POSITIONS = 3


class MessageLog(object):
    """Collects messages for one file: ONE message per class of problem (``kind``: "form that differs from the
    reference", "more than 3 candidates"), however often it occurs.

    The first occurrence of a kind is kept in full (its position and text); every later one is only counted, and
    :meth:`close` adds to the first one's text how many there are and their first :data:`MAX_POSITIONS` positions,
    so a file with a systematic mistake gives one line, not one per token. ``limit`` is kept for callers that
    pass it (the old "first N in full" rule); it is not used.

    ``mends``: ``{kind: (what, mend)}``, what a check that reported a systematic mistake knows of undoing it
    (:meth:`mend`): where the gold is public, the scorer prices it (``evalkit/mended.py``).
    """

    def __init__(self, file, limit=1):
        self.file = file
        self.limit = limit
        self.messages = []
        self.mends = {}
        self._counts = {}
        self._first = {}
        self._wheres = {}

    def add(self, severity, where, text, kind=None):
        """Record a message; a ``kind`` already recorded is only counted (and its position kept among the first)."""
        kind = kind or text
        count = self._counts.get(kind, 0) + 1
        self._counts[kind] = count
        if count == 1:
            self._first[kind] = len(self.messages)
            self._wheres[kind] = [where]
            self.messages.append(Message(self.file, severity, where, text))
            return
        wheres = self._wheres[kind]
        if len(wheres) < MAX_POSITIONS:
            wheres.append(where)
        if severity == ERROR:   # the class counts as an error as soon as one occurrence is one
            self.messages[self._first[kind]].severity = ERROR

    def count(self, kind):
        """How many times ``kind`` was reported."""
        return self._counts.get(kind, 0)

    def find(self, kind):
        """The message of ``kind`` (its first), or None."""
        at = self._first.get(kind)
        return None if at is None else self.messages[at]

    def mend(self, kind, what, mend):
        """Say how the mistake reported as ``kind`` is undone: ``mend(parsed prediction)`` gives the prediction
        mended (a new one; the parsed prediction is never changed), ``what`` says it ("with CONJ written CCONJ")."""
        self.mends[kind] = (what, mend)

    def close(self):
        """Fold every kind reported more than once into its first message (count and first positions); return all
        messages."""
        for kind, count in self._counts.items():
            if count > 1:
                message = self.messages[self._first[kind]]
                message.text = printable("%s [%s in this file: %s; first at %s%s]" % (
                    message.text, "{:,}".format(count), kind, "; ".join(self._wheres[kind]),
                    "; ..." if count > len(self._wheres[kind]) else ""), MAX_TEXT_CHARS)
        self._counts = {}
        return self.messages
