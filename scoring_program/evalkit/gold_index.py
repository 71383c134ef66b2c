"""The gold index of a phase's reference folder: facts derived from each reference file's gold, computed once when
the reference is built (``organiser/gold_index.py``) so that the scorer need not compute them on every run.

``gold_index.json`` (beside the reference files, like ``inventory.json``)::

    {"version": 1, "files": {"<reference file, relative to the phase folder>": {"sha256": "<hex of its bytes>",
                                                                                 "facts": <JSON, the kind's own>}}}

A kind that uses facts says so (``uses_facts = True``) and has two methods: ``index_facts(ref, task)`` (the JSON
facts of a parsed reference file, or None when it has none: written by the organiser) and ``attach_facts(ref,
facts, task)`` (hands them to a freshly parsed reference: a kind checks their shape and ignores facts it cannot
use). The scorer trusts an entry only when the SHA-256 of the file's bytes is the one written beside the facts
(:func:`file_facts`): a missing, unreadable, malformed or stale index means the kind computes its facts as without
an index, and every score and message is the same either way. The hash is computed only for the files of kinds that
use facts.
"""
import hashlib

from .loading import read_optional_json

FILE_NAME = "gold_index.json"
VERSION = 1
#: An index larger than this is ignored (it holds a few counts per file: far smaller in practice).
MAX_BYTES = 64 * 1024 * 1024


def read_index(path, max_bytes=MAX_BYTES):
    """``{relative path: {"sha256", "facts"}}`` from the optional index at ``path``; ``{}`` when it is absent,
    unreadable, of another version or malformed at the top (a malformed entry is ignored by :func:`file_facts`)."""
    value = read_optional_json(path, max_bytes)
    if type(value) is not dict or value.get("version") != VERSION or type(value.get("files")) is not dict:
        return {}
    return value["files"]


def file_facts(index, relative, data):
    """The facts of reference file ``relative`` (its ``data``, bytes) in ``index`` (:func:`read_index`), or None
    when the index has no well-formed entry for it or the entry describes other bytes (its SHA-256 differs)."""
    entry = index.get(relative) if index else None
    if type(entry) is not dict or type(entry.get("sha256")) is not str or "facts" not in entry:
        return None
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return None
    return entry["facts"]


def entry(data, facts):
    """The index entry of a reference file's ``data`` (bytes) and its ``facts``."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "facts": facts}
