"""Why a submitted file name is not the expected one: compressed, another letter case, another extension.

Shared by every layout (``<task>/<lang>.json`` in :mod:`evalkit.layout`, flat names in :mod:`evalkit.lines`,
per-document files in :mod:`evalkit.timenorm.kind`), so that a misnamed file gets the same hint whether it is
the only one or every file of the submission is misnamed. A did-you-mean is always an expected name as
declared (the reference's letter case): a suggestion that would still score 0 is worse than none.
"""
import posixpath

#: Endings of compressed files, and the format each stands for (a member inside the uploaded zip is never
#: unpacked: the scorer reads the file itself).
COMPRESSED = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bzip2", ".xz": "xz", ".lzma": "xz", ".zst": "zstd",
              ".zip": "zip", ".7z": "7-Zip", ".rar": "RAR", ".tgz": "gzip", ".tar": "tar"}


def compressed(name):
    """``(inner name, format)`` when the file ``name`` is a compressed (or archived) file, else None.

    >>> compressed("task/xx.json.gz"), compressed("task_pair.txt.bz2"), compressed("xx.json")
    (('task/xx.json', 'gzip'), ('task_pair.txt', 'bzip2'), None)
    >>> compressed("d/d.system.xml.zip")
    ('d/d.system.xml', 'zip')
    """
    stem, ext = posixpath.splitext(name)
    fmt = COMPRESSED.get(ext.lower())
    if fmt is None or not posixpath.basename(stem):
        return None
    return stem, fmt


def compressed_why(name):
    """The sentence saying that ``name`` is compressed (see :func:`compressed`), or ""."""
    found = compressed(name)
    if found is None:
        return ""
    return ("the file is compressed (%s): put the %s file itself in the zip, uncompressed (the zip already "
            "compresses it)" % (found[1], posixpath.basename(found[0])))


def case_match(name, choices):
    """The member of ``choices`` that ``name`` equals but for letter case, or ""."""
    lowered = name.lower()
    return next((choice for choice in choices if choice.lower() == lowered and choice != name), "")


def name_fault(name, expected):
    """Why the submitted file ``name`` is not the ``expected`` name it most likely stands for ("" when no
    single reason explains it): compressed, letter case, extension.

    >>> name_fault("task_pair.txt.gz", "task_pair.txt")
    'the file is compressed (gzip): put the task_pair.txt file itself in the zip, uncompressed (the zip already compresses it)'
    >>> name_fault("TASK_PAIR.txt", "task_pair.txt"), name_fault("task_pair.conll", "task_pair.txt")
    ('names are compared with their letter case: task_pair.txt, not TASK_PAIR.txt', 'the extension is .txt, not .conll')

    An expected path with folders is compared on as many last folders as both have:

    >>> name_fault("Task2/German.txt", "answer/task2/german.txt")
    'names are compared with their letter case: task2/german.txt, not Task2/German.txt'
    """
    depth = min(expected.count("/"), name.count("/")) + 1
    base, target = "/".join(name.split("/")[-depth:]), "/".join(expected.split("/")[-depth:])
    why = compressed_why(base)
    if why:
        return why
    if base != target and base.lower() == target.lower():
        return "names are compared with their letter case: %s, not %s" % (target, base)
    stem, ext = posixpath.splitext(base)
    target_stem, target_ext = posixpath.splitext(target)
    if ext != target_ext and stem.lower() == target_stem.lower():
        return "the extension is %s, not %s" % (target_ext, ext or "missing")
    return ""
