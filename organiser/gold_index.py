"""Write each phase folder's gold index (``gold_index.json``, :mod:`evalkit.gold_index`): per reference file of a
kind that uses facts, the SHA-256 of its bytes and the facts its kind derives from its gold, so the scorer need not
derive them on every run.

The last step of ``python -m organiser reference`` (after the test split and the phase files): each index describes
the files of its own folder exactly as they are written, so the uploaded public part of a split test phase gets the
facts of its public part alone, and ``private/test`` its own. A folder without such a file gets no index (an old one
is removed). The scorer trusts an entry only for the bytes it was written for.
"""
import hashlib
import json
import os

from evalkit import gold_index, scoring, split as evalkit_split
from evalkit.layout import ReferenceError

__all__ = ["build_index", "write_index", "write_indexes"]


def build_index(decl, phase_dir):
    """The gold index of ``phase_dir`` (``{"version", "files"}``) for declaration ``decl``: each reference file is
    read as the scorer reads it (a split part's redacted items as such) and its kind's ``index_facts`` kept when
    not None. A file that does not read is left out (the scorer reports it)."""
    files = {}
    try:
        _, _, pairs, paths = scoring._reference_files(decl, phase_dir)
    except ReferenceError:   # no reference file here
        pairs, paths = [], {}
    manifest = evalkit_split.read_split(phase_dir)
    redacted = manifest is not None and manifest["part"] != "all"
    for task, lang in pairs:
        kind = scoring.KINDS[task.kind]
        if not getattr(kind, "uses_facts", False):
            continue
        path = paths[(task.folder, lang)]
        stats = {}
        try:
            ref = scoring.load_reference(task, lang, path, decl, hashlib.sha256(), stats, gold=False,
                                         redacted=redacted)
        except ReferenceError:
            continue
        facts = kind.index_facts(ref, task)
        if facts is not None:
            files[scoring._relative(path, phase_dir)] = gold_index.entry(stats["data"], facts)
    return {"version": gold_index.VERSION, "files": dict(sorted(files.items()))}


def write_index(decl, phase_dir):
    """Write ``phase_dir/gold_index.json`` (:func:`build_index`) when it has an entry, else remove an old one;
    return the number of files it describes."""
    index = build_index(decl, phase_dir)
    target = os.path.join(phase_dir, gold_index.FILE_NAME)
    if not index["files"]:
        if os.path.isfile(target):
            os.remove(target)
        return 0
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(index, handle, ensure_ascii=False, separators=(",", ":"))
    return len(index["files"])


def write_indexes(reference_dir, hosted, folders):
    """Write the gold index of each phase folder ``folders`` (relative to ``reference_dir``) that exists; return
    ``{folder: files described}``."""
    written = {}
    for folder in folders:
        phase_dir = os.path.join(reference_dir, folder)
        if os.path.isdir(phase_dir):
            written[folder] = write_index(hosted.declaration, phase_dir)
    return written
