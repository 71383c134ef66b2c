"""Validation messages and the one error class for bad data.

Every problem found in a file becomes a :class:`Message` that names the file, the position
(sentence, token, JSON path) and what was expected versus what was found. A :class:`DataError`
carries one message for problems that make a whole file unusable.
"""

ERROR = "error"      # something was scored 0 because of it
WARNING = "warning"  # scored, but not exactly as submitted (e.g. a 4th candidate ignored)
INFO = "info"


class Message(object):
    """One located validation message."""

    __slots__ = ("file", "severity", "where", "text")

    def __init__(self, file, severity, where, text):
        self.file = file
        self.severity = severity
        self.where = where
        self.text = text

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


class MessageLog(object):
    """Collects messages for one file, keeping at most ``limit`` of each kind of problem.

    ``kind`` groups repetitive problems ("token count", "form differs"): the first ``limit`` are
    kept in full, the rest are only counted and summarised by :meth:`close`.
    """

    def __init__(self, file, limit=10):
        self.file = file
        self.limit = limit
        self.messages = []
        self._counts = {}
        self._severity = {}

    def add(self, severity, where, text, kind=None):
        """Record a message; repeated ``kind``s beyond the limit are only counted."""
        kind = kind or text
        count = self._counts.get(kind, 0) + 1
        self._counts[kind] = count
        self._severity[kind] = severity
        if count <= self.limit:
            self.messages.append(Message(self.file, severity, where, text))

    def count(self, kind):
        """How many times ``kind`` was reported."""
        return self._counts.get(kind, 0)

    def close(self):
        """Append one summary line per kind that went over the limit; return all messages."""
        for kind, count in sorted(self._counts.items()):
            if count > self.limit:
                self.messages.append(Message(self.file, self._severity[kind], "",
                                             "%d more like this: %s" % (count - self.limit, kind)))
        self._counts = {}
        return self.messages
