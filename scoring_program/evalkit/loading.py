"""Reading participant and reference JSON safely: size, encoding, BOM, syntax, nesting.

:func:`parse_json_bytes` never raises anything but :class:`~evalkit.messages.DataError`, whose
message says what is wrong and where (line and column for syntax errors, byte offset for bad
UTF-8).
"""
import codecs
import json

from .messages import DataError

_DECODER = json.JSONDecoder()


def _line_col(text, pos):
    """1-based (line, column) of character offset ``pos`` in ``text``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


#: :func:`utf16_without_bom` reads at most this many bytes of a file.
UTF16_SAMPLE = 4096


def utf16_without_bom(data):
    r""""little-endian" or "big-endian" when ``data`` looks like UTF-16 text saved without a byte-order mark (a NUL byte
    at every other position: at least half of the odd bytes and almost none of the even ones, or the reverse), else "".
    Valid UTF-8 when read as such (NUL is a character), so said before the text is read.

    >>> utf16_without_bom("lang1\n".encode("utf-16-le")), utf16_without_bom("lang1\n".encode("utf-16-be"))
    ('little-endian', 'big-endian')
    >>> utf16_without_bom(b"lang1\n"), utf16_without_bom("lang1\n".encode("utf-16"))   # (with a mark: said apart)
    ('', '')
    """
    head = data[:UTF16_SAMPLE]
    if len(head) < 4 or b"\x00" not in head or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return ""
    even, odd = head[0::2], head[1::2]
    even_nul, odd_nul = even.count(0), odd.count(0)
    if odd_nul * 2 >= len(odd) and even_nul * 10 < len(even):
        return "little-endian"
    if even_nul * 2 >= len(even) and odd_nul * 10 < len(odd):
        return "big-endian"
    return ""


def decode_utf8(data, name):
    """Decode ``data`` as UTF-8 (a leading BOM is accepted and dropped) or raise DataError (also for UTF-16 without a
    byte-order mark, :func:`utf16_without_bom`, which would read as text with a NUL in every other character)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    order = utf16_without_bom(data)
    if order:
        first = data.index(b"\x00")
        raise DataError(name, "byte %d (line 1)" % first, "the file is not UTF-8: it holds a NUL byte at every other "
                        "position (bytes %d, %d, %d, ...), so it was saved as UTF-16 (%s) without a byte-order mark; "
                        "save it as UTF-8" % (first, first + 2, first + 4, order))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        raise DataError(name, "byte %d (line %d)" % (err.start, line),
                        "the file is not valid UTF-8 (%s)%s; save it as UTF-8" % (
                            err.reason, ": it starts with a UTF-16 byte-order mark, so it was saved as UTF-16"
                            if utf16 else ""))


def _syntax_hint(text, msg, pos, col):
    r"""A sentence naming the usual cause of a JSON syntax error, else "" (only called on an error): more than one
    value, one a line (JSON Lines where one JSON value is expected), single quotes (Python's ``repr``/``str`` of
    a dict instead of ``json.dump``), a comment (``//``, ``/*``, ``#``), or a comma after the last item.

    >>> _syntax_hint('{"a": 1}\n{"b": 2}\n', "Extra data", 9, 1)[:44]
    ' (the file holds one JSON value a line, as J'
    >>> _syntax_hint("{'a': 1}", "Expecting property name enclosed in double quotes", 1, 2)[:35]
    " (single quotes: Python's repr or s"
    >>> _syntax_hint('// run 3\n{"a": 1}', "Expecting value", 0, 1)[:34]
    ' (a comment: JSON has none; remove'
    >>> _syntax_hint('{"a": 1,\n}', "Expecting property name enclosed in double quotes", 9, 1)[:55]
    ' (a comma after the last item, before the closing }: JS'
    """
    if msg == "Extra data" and col == 1:
        return (" (the file holds one JSON value a line, as JSON Lines does; this task expects one JSON value for the "
                "whole file: write it with one json.dump)")
    if "double quotes" in msg and text[pos:pos + 1] == "'":
        return (" (single quotes: Python's repr or str of the data, not JSON; write the file with json.dump, "
                "which writes double quotes)")
    if text[pos:pos + 2] in ("//", "/*") or text[pos:pos + 1] == "#":
        return " (a comment: JSON has none; remove it, or write the file with json.dump alone)"
    if text[pos:pos + 1] in ("}", "]") and text[max(0, pos - 200):pos].rstrip().endswith(","):
        return (" (a comma after the last item, before the closing %s: JSON allows none; write the file with "
                "json.dump)" % text[pos])
    return ""


def parse_json_bytes(data, name, max_bytes, **decoder):
    """Parse JSON ``data`` (bytes) from file ``name``; raise DataError when it is not usable.

    Checks, in order: size (at most ``max_bytes``), emptiness, UTF-8 (BOM accepted), JSON syntax
    (with line and column), and nesting too deep for the parser. ``decoder``: hooks of ``json.loads``
    (``parse_int``, ``object_pairs_hook``).
    """
    if len(data) > max_bytes:
        raise DataError(name, "", "the file is %d bytes; at most %d are accepted" % (len(data), max_bytes))
    text = decode_utf8(data, name)
    if not text or text.isspace():   # (no stripped copy of the whole text)
        raise DataError(name, "", "the file is empty; expected a JSON list")
    try:
        return json.loads(text, **decoder)
    except ValueError as err:
        line, col = _line_col(text, getattr(err, "pos", 0) or 0)
        msg = getattr(err, "msg", str(err))
        raise DataError(name, "line %d, column %d" % (line, col), "invalid JSON: %s%s" % (
            msg, _syntax_hint(text, msg, getattr(err, "pos", 0) or 0, col)))
    except RecursionError:
        raise DataError(name, "", "the JSON is nested far too deeply for this task's format")


def read_bounded(path, name, max_bytes):
    """At most ``max_bytes + 1`` bytes of the file at ``path`` (displayed as ``name``: one byte more than the
    limit, so that the parser can say the file is too large); DataError when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1)
    except (IOError, OSError) as err:
        raise DataError(name, "", "cannot be read: %s" % err.strerror)


def read_json_file(path, name, max_bytes):
    """Read and parse the JSON file at ``path`` (displayed as ``name``); raise DataError on problems."""
    return parse_json_bytes(read_bounded(path, name, max_bytes), name, max_bytes)


def read_optional_json(path, max_bytes):
    """The JSON value of the optional organiser-side file at ``path`` (a hint such as a phase's baseline
    scores), or None when it is absent, over ``max_bytes``, not UTF-8 or not JSON: such a file never
    stops the scoring."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        return json.loads(data.decode("utf-8")) if len(data) <= max_bytes else None
    except (IOError, OSError, ValueError):
        return None
