"""Finding the files of a submission (a directory or a zip) and of a reference.

The submission layout is ``<task folder>/<language>.json`` at the root. This module forgives the
commonest mistakes and says so: one wrapping top-level folder (or a zip inside the upload) is
accepted with a warning; ``metadata`` at the root (Codabench writes it) and operating-system junk
(``__MACOSX/``, ``.DS_Store``) are ignored; any other unexpected name is listed with a "did you
mean" suggestion. Zip members with unsafe paths (absolute, ``..``) are refused, and so are uploads of
absurd size.
"""
import difflib
import os
import posixpath
import shutil
import tempfile
import zipfile
from collections import Counter

from .messages import DataError, Message, ERROR, WARNING, INFO

JUNK_NAMES = frozenset((".DS_Store", "Thumbs.db", "desktop.ini"))
ROOT_IGNORED = frozenset(("metadata",))   # written into res/ by Codabench


class ReferenceError(Exception):
    """The reference data itself is unusable: nothing can be scored."""


class NothingToScore(Exception):
    """The submission holds no file the scorer recognises."""


def _too_big(path, size, limit):
    """The DataError for a file of ``size`` bytes over the ``limit``."""
    return DataError(path, "", "the file is %d bytes; at most %d are accepted" % (size, limit))


def _is_junk(path):
    parts = path.split("/")
    return parts[0] == "__MACOSX" or parts[-1] in JUNK_NAMES or parts[-1].startswith("._")


def _unsafe(name):
    """Why zip member ``name`` is unsafe to use, or None."""
    if name.startswith("/") or name.startswith("\\") or (len(name) > 1 and name[1] == ":"):
        return "absolute path"
    if ".." in name.replace("\\", "/").split("/"):
        return "path goes up with '..'"
    return None


class Source(object):
    """Read access to a submission's files by relative POSIX path."""

    def names(self):
        """Relative paths of every file."""
        raise NotImplementedError

    def read(self, path, limit):
        """Bytes of ``path`` (at most ``limit`` + 1, so callers can detect oversize files)."""
        raise NotImplementedError


class DirSource(Source):
    """A submission unpacked in a directory (the platforms' ``input/res``)."""

    def __init__(self, root):
        self.root = root
        self._names = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root)
            for filename in sorted(filenames):
                path = filename if rel == "." else posixpath.join(rel.replace(os.sep, "/"), filename)
                if not os.path.islink(os.path.join(dirpath, filename)):
                    self._names.append(path)

    def names(self):
        """Relative paths of every regular file (symbolic links are skipped)."""
        return list(self._names)

    def read(self, path, limit):
        """Bytes of ``path``; DataError when it is over ``limit`` bytes or cannot be read."""
        full = os.path.join(self.root, *path.split("/"))
        try:
            size = os.path.getsize(full)
            if size > limit:
                raise _too_big(path, size, limit)
            with open(full, "rb") as handle:
                return handle.read(limit + 1)
        except (IOError, OSError) as err:
            raise DataError(path, "", "cannot be read: %s" % err.strerror)


class ZipSource(Source):
    """A submission zip read in place; unsafe member names are refused and reported."""

    def __init__(self, path, limits, messages, label=None):
        try:
            self.zip = zipfile.ZipFile(path)
            infos = self.zip.infolist()
        except Exception as err:  # hostile bytes make zipfile raise many kinds of errors (BadZipFile,
            # NotImplementedError for an unknown version, struct.error, ...): all mean "unreadable"
            raise NothingToScore("%s is not a readable zip file (%s: %s)."
                                 % (label or os.path.basename(path), type(err).__name__, err))
        if len(infos) > limits["members"]:
            raise NothingToScore("the zip has %d members; at most %d are accepted." % (len(infos), limits["members"]))
        total = sum(info.file_size for info in infos)
        if total > limits["upload"]:
            raise NothingToScore("the zip would unpack to %d bytes; at most %d are accepted." % (total, limits["upload"]))
        self.infos = {}
        for info in infos:
            if info.filename.endswith("/"):
                continue
            reason = _unsafe(info.filename)
            if reason:
                messages.append(Message(info.filename, ERROR, "zip member", "refused (%s)" % reason))
                continue
            self.infos[info.filename.replace("\\", "/")] = info

    def names(self):
        """Member paths of every safe file of the zip."""
        return sorted(self.infos)

    def read(self, path, limit):
        """Bytes of member ``path`` (at most ``limit`` + 1 even if the zip lies about its size);
        DataError when it is over ``limit`` bytes or cannot be unpacked."""
        info = self.infos[path]
        if info.file_size > limit:
            raise _too_big(path, info.file_size, limit)
        try:
            with self.zip.open(info) as handle:
                return handle.read(limit + 1)
        except Exception as err:  # as above: any failure to unpack hostile bytes is "unreadable"
            raise DataError(path, "", "cannot be read from the zip (%s: %s)" % (type(err).__name__, err))


class Submission(object):
    """The recognised files of a submission: ``files[(task_folder, lang)] = relative path``."""

    def __init__(self, source, prefix, files, messages):
        self.source = source
        self.prefix = prefix
        self.files = files
        self.messages = messages

    def read(self, task_folder, lang, limit):
        """Bytes of the file for (task folder, language); DataError when unreadable."""
        return self.source.read(self.prefix + self.files[(task_folder, lang)], limit)


INNER_ZIP_WARNING = ("the upload holds a zip inside the zip, %s, and nothing else: it was opened and scored, "
                     "but upload that inner zip itself next time")


def lone_inner_zip(names):
    """The name of the one ``.zip`` among ``names`` when it is the only candidate (junk and
    ``metadata`` aside), else None: such an upload is a zip inside the zip."""
    names = [n for n in names if not _is_junk(n) and n not in ROOT_IGNORED]
    return names[0] if len(names) == 1 and names[0].lower().endswith(".zip") else None


def _open_inner_zip(outer, name, limits, messages):
    """The :class:`ZipSource` of member ``name`` of zip source ``outer``, copied to a temporary file
    (at most the upload limit, so the copy is bounded like any upload)."""
    info = outer.infos[name]
    if info.file_size > limits["upload"]:
        raise NothingToScore("the zip inside the zip, %s, is %d bytes; at most %d are accepted."
                             % (name, info.file_size, limits["upload"]))
    copy = tempfile.TemporaryFile()
    try:
        with outer.zip.open(info) as handle:
            shutil.copyfileobj(handle, copy)
    except Exception as err:  # as in ZipSource.read: any failure to unpack hostile bytes is "unreadable"
        copy.close()
        raise NothingToScore("the zip inside the zip, %s, cannot be unpacked (%s: %s)."
                             % (name, type(err).__name__, err))
    copy.seek(0)
    return ZipSource(copy, limits, messages, label=name)


def open_source(path, limits, messages):
    """A :class:`Source` for a submission directory or zip at ``path``.

    One rule for both (the platform form unpacks the upload into a directory, the local form reads
    the zip): when the only candidate inside is one zip, that inner zip is opened, with a warning
    naming it (only one level deep).
    """
    if os.path.isdir(path):
        source = DirSource(path)
        inner = lone_inner_zip(source.names())
        if inner:
            messages.append(Message(inner, WARNING, "layout", INNER_ZIP_WARNING % inner))
            return ZipSource(os.path.join(path, *inner.split("/")), limits, messages, label=inner)
        return source
    if os.path.isfile(path):
        source = ZipSource(path, limits, messages)
        inner = lone_inner_zip(source.names())
        if inner:
            messages.append(Message(inner, WARNING, "layout", INNER_ZIP_WARNING % inner))
            return _open_inner_zip(source, inner, limits, messages)
        return source
    raise NothingToScore("%s does not exist." % path)


def _wrapping_prefix(names, task_folders):
    """The one wrapping folder to strip ("name/"), or "" when the task folders are at the root."""
    tops = set(n.split("/", 1)[0] for n in names if "/" in n)
    if tops & task_folders or len(tops) != 1 or any("/" not in n for n in names):
        return ""
    top = tops.pop()
    inner = set(n.split("/")[1] for n in names if n.count("/") >= 2)
    return top + "/" if inner & task_folders else ""


def _suggest(word, choices, aliases=None):
    """A "did you mean" for ``word`` among ``choices``, or ""."""
    lowered = dict((c.lower(), c) for c in choices)
    key = word.lower()
    if aliases and key in aliases:
        key = aliases[key]
    if key in lowered:
        return lowered[key]
    key = key.replace("-", "_").replace("lemmatization", "lemmatisation")
    if key in lowered:
        return lowered[key]
    close = difflib.get_close_matches(key, list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else ""


def _classify(path, expected, task_folders, languages, aliases):
    """Return (task, lang) for an expected file, else a Message explaining why ``path`` is not scored."""
    parts = path.split("/")
    if len(parts) == 2 and parts[0] in task_folders:
        folder, name = parts
        stem = name[:-5] if name.lower().endswith(".json") else name
        if name.endswith(".json") and (folder, stem) in expected:
            return folder, stem
        if name.endswith(".json") and stem in languages:
            return Message(path, INFO, "layout", "%s is not scored in this phase (ignored)" % stem)
        guess = _suggest(stem, languages, aliases)
        hint = " Did you mean %s/%s.json?" % (folder, guess) if guess else ""
        return Message(path, WARNING, "layout", "unexpected file name (ignored); files are named <language code>.json "
                       "in lower case.%s" % hint)
    guess = _suggest(parts[0], task_folders) if len(parts) > 1 else ""
    hint = " Did you mean %s/?" % guess if guess and guess != parts[0] else ""
    what = "folder" if len(parts) > 1 else "file"
    return Message(path, WARNING, "layout", "unexpected %s (ignored); expected <task>/<language>.json with task one of %s.%s"
                   % (what, ", ".join(sorted(task_folders)), hint))


def _folder_message(folder, count, task_folders):
    """One message for an unexpected top-level folder holding ``count`` files (one line per folder)."""
    guess = _suggest(folder, task_folders)
    hint = " Did you mean %s/?" % guess if guess and guess != folder else ""
    return Message(folder + "/", WARNING, "layout", "unexpected folder (%s ignored); expected <task>/<language>.json "
                   "with task one of %s.%s" % (_files(count), ", ".join(sorted(task_folders)), hint))


def _files(count):
    """``"1 file"``, ``"2 files"``."""
    return "%d file%s" % (count, "" if count == 1 else "s")


def _nothing_found(names):
    """The NothingToScore for a submission without any expected file (naming a zip inside, if any)."""
    zips = [n for n in names if n.lower().endswith(".zip")]
    if zips:
        return NothingToScore("no expected file was found in the submission, but it holds a zip inside the zip (%s): "
                              "upload that zip itself, with the task folders at its root." % ", ".join(zips[:5]))
    return NothingToScore("no expected file was found in the submission.")


def find_submission_files(source, expected, task_folders, languages, aliases, messages):
    """Recognise the files of ``source`` against the ``expected`` (task folder, lang) pairs.

    Returns a :class:`Submission`; every name that is not scored gets a message in ``messages``
    (one per unexpected top-level folder, however many files it holds). Raises NothingToScore when
    no expected file is present.
    """
    names = [n for n in source.names() if not _is_junk(n)]
    prefix = _wrapping_prefix([n for n in names if n not in ROOT_IGNORED], task_folders)
    if prefix:
        messages.append(Message(prefix, WARNING, "layout", "the task folders are inside the folder '%s'; they must be at "
                                "the root of the zip. Scored anyway; zip the folders themselves next time." % prefix))
    files = {}
    relatives = [n[len(prefix):] for n in names if n not in ROOT_IGNORED and n.startswith(prefix)]
    folders = Counter(r.split("/", 1)[0] for r in relatives if "/" in r and r.split("/", 1)[0] not in task_folders)
    for relative in relatives:
        top = relative.split("/", 1)[0]
        if top in folders:
            if folders[top]:
                messages.append(_folder_message(top, folders[top], task_folders))
                folders[top] = 0        # one message per folder
            continue
        found = _classify(relative, expected, task_folders, languages, aliases)
        if isinstance(found, Message):
            messages.append(found)
        else:
            files[found] = relative
    if not files:
        raise _nothing_found([n for n in names if n not in ROOT_IGNORED])
    return Submission(source, prefix, files, messages)


def scan_reference(ref_dir, task_folders, languages):
    """Return the sorted (task folder, lang, path) of every reference file under ``ref_dir``.

    Files that are not ``<known task>/<known language>.json`` are ignored. Raises ReferenceError
    when the directory is missing or holds no reference file.
    """
    if not os.path.isdir(ref_dir):
        raise ReferenceError("the reference directory %s does not exist" % ref_dir)
    found = []
    for task in sorted(os.listdir(ref_dir)):
        folder = os.path.join(ref_dir, task)
        if task not in task_folders or not os.path.isdir(folder):
            continue
        for filename in sorted(os.listdir(folder)):
            lang = filename[:-5] if filename.endswith(".json") else None
            if lang in languages:
                found.append((task, lang, os.path.join(folder, filename)))
    if not found:
        raise ReferenceError("the reference directory %s holds no <task>/<language>.json file" % ref_dir)
    return found
