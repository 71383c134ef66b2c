"""Reading participant and reference JSON safely: size, encoding, BOM, syntax, nesting.

:func:`parse_json_bytes` never raises anything but :class:`~evalkit.messages.DataError`, whose
message says what is wrong and where (line and column for syntax errors, byte offset for bad
UTF-8). With ``nfc=True`` every string of the result is in Unicode normalisation form C (see
:func:`nfc_strings`), so that canonically equivalent strings compare equal.
"""
import codecs
import json
import unicodedata

from .messages import DataError

_DECODER = json.JSONDecoder()


def _line_col(text, pos):
    """1-based (line, column) of character offset ``pos`` in ``text``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def decode_utf8(data, name):
    """Decode ``data`` as UTF-8 (a leading BOM is accepted and dropped) or raise DataError."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise DataError(name, "byte %d (line %d)" % (err.start, line),
                        "the file is not valid UTF-8 (%s); save it as UTF-8" % err.reason)


def _nfc(text):
    """``text`` in normalisation form C (the same object when it already is)."""
    if text.isascii():
        return text
    normal = unicodedata.normalize("NFC", text)
    return text if normal == text else normal


def _nfc_walk(value):
    """``value`` (parsed JSON) with every string, keys included, in NFC; iterative, so any depth is fine."""
    root = [value]
    stack = [root]
    while stack:
        container = stack.pop()
        if type(container) is dict:
            items = list(container.items())
            container.clear()
            for key, item in items:
                container[_nfc(key)] = item
            keys = list(container)
            for key in keys:
                item = container[key]
                if type(item) is str:
                    container[key] = _nfc(item)
                elif type(item) in (list, dict):
                    stack.append(item)
        else:
            for i, item in enumerate(container):
                if type(item) is str:
                    container[i] = _nfc(item)
                elif type(item) in (list, dict):
                    stack.append(item)
    return root[0]


def nfc_strings(value, text):
    """``value``, parsed from the JSON ``text``, with every string in Unicode normalisation form C.

    Fast paths, as normalising string by string costs about a tenth of the parsing time: a text
    without non-ASCII characters or ``\\u`` escapes has nothing to normalise; a text without escapes
    is in NFC exactly when all its strings are (a quotation mark never composes with a neighbour), and
    one C-level pass over the text tells; a text with escapes is checked the same way once re-serialised
    without them. Only a file that really holds a string outside NFC is walked string by string.
    """
    if text.isascii() and "\\u" not in text:
        return value
    if "\\u" in text:
        text = json.dumps(value, ensure_ascii=False, check_circular=False)
    if _nfc(text) is text:
        return value
    return _nfc_walk(value)


def parse_json_bytes(data, name, max_bytes, nfc=False):
    """Parse JSON ``data`` (bytes) from file ``name``; raise DataError when it is not usable.

    Checks, in order: size (at most ``max_bytes``), emptiness, UTF-8 (BOM accepted), JSON syntax
    (with line and column), and nesting too deep for the parser. With ``nfc``, every string of the
    result is in normalisation form C (:func:`nfc_strings`).
    """
    if len(data) > max_bytes:
        raise DataError(name, "", "the file is %d bytes; at most %d are accepted" % (len(data), max_bytes))
    text = decode_utf8(data, name)
    if not text.strip():
        raise DataError(name, "", "the file is empty; expected a JSON list")
    try:
        value = json.loads(text)
        return nfc_strings(value, text) if nfc else value
    except ValueError as err:
        line, col = _line_col(text, getattr(err, "pos", 0) or 0)
        msg = getattr(err, "msg", str(err))
        raise DataError(name, "line %d, column %d" % (line, col), "invalid JSON: %s" % msg)
    except RecursionError:
        raise DataError(name, "", "the JSON is nested far too deeply for this task's format")


def read_json_file(path, name, max_bytes):
    """Read and parse the JSON file at ``path`` (displayed as ``name``); raise DataError on problems."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except (IOError, OSError) as err:
        raise DataError(name, "", "cannot be read: %s" % err.strerror)
    return parse_json_bytes(data, name, max_bytes)
