"""Finding the files of a submission (a directory or a zip) and of a reference.

The submission layout is ``<task folder>/<language>.json`` at the root. This module forgives the
commonest mistakes and says so: one wrapping top-level folder (or a zip inside the upload) is
accepted with a warning; ``metadata`` at the root (Codabench writes it) and operating-system junk
(``__MACOSX/``, ``.DS_Store``) are ignored; any other unexpected name is listed with a "did you
mean" suggestion. Zip members with unsafe paths (absolute, ``..``) are refused, and so are uploads of
absurd size.
"""
import difflib
import io
import os
import posixpath
import shutil
import tempfile
import stat
import struct
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

    def size(self, path):
        """The size of ``path`` in bytes as the file system or the zip declares it (0 when unknown)."""
        raise NotImplementedError


def _file_type(path):
    """What the directory entry at ``path`` is, when it is not a regular file ("" when it is one)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as err:
        return "unreadable entry (%s)" % err.strerror
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISLNK(mode):
        return "symbolic link"
    return {stat.S_IFIFO: "named pipe (FIFO)", stat.S_IFSOCK: "socket", stat.S_IFCHR: "character device",
            stat.S_IFBLK: "block device"}.get(stat.S_IFMT(mode), "special file")


class DirSource(Source):
    """A submission unpacked in a directory (the platforms' ``input/res``).

    Only regular files are listed: symbolic links are skipped silently, and anything else (a named
    pipe, a device, a socket: reading one could hang) with a warning in ``messages``.
    """

    def __init__(self, root, messages=None):
        self.root = root
        self._names = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root)
            for filename in sorted(filenames):
                path = filename if rel == "." else posixpath.join(rel.replace(os.sep, "/"), filename)
                kind = _file_type(os.path.join(dirpath, filename))
                if not kind:
                    self._names.append(path)
                elif kind != "symbolic link" and messages is not None:
                    messages.append(Message(path, WARNING, "layout", "a %s, not a regular file: skipped" % kind))

    def names(self):
        """Relative paths of every regular file (symbolic links and special files are skipped)."""
        return list(self._names)

    def size(self, path):
        """The size of file ``path`` in bytes (0 when it cannot be read: :meth:`read` says why)."""
        try:
            return os.path.getsize(os.path.join(self.root, *path.split("/")))
        except (IOError, OSError):
            return 0

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


_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")   # a central directory header (the zip specification, 4.3.12)
_UTF8_FLAG = 0x800


#: At most this many bytes of central directory (the list of members, with their names) are read: 10,000
#: members with names of several kilobytes each would otherwise take gigabytes of memory to list.
MAX_CENTRAL_DIRECTORY = 64 * 1024 * 1024


def _central_directory(handle, read=True):
    """``(offset, bytes)`` of the central directory of the zip open in ``handle``, or None when not found;
    with ``read=False``, ``(offset, size)`` without reading it.

    Located as :mod:`zipfile` does (end record, zip64 end record, data prepended to the zip).
    """
    handle.seek(0, 2)
    size = handle.tell()
    handle.seek(max(0, size - 22 - 65535))
    tail = handle.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None
    end = size - len(tail) + at
    cd_size = struct.unpack("<L", tail[at + 12:at + 16])[0]
    if at >= 20 and end >= 76 and tail[at - 20:at - 16] == b"PK\x06\x07":   # zip64: the sizes are in the zip64 end record
        handle.seek(end - 76)
        record = handle.read(56)
        cd_size = struct.unpack("<Q", record[40:48])[0] if record[:4] == b"PK\x06\x06" else cd_size
        end -= 76
    start = end - cd_size
    if start < 0:
        return None
    if not read:
        return start, cd_size
    handle.seek(start)
    return start, handle.read(cd_size)


def _bad_utf8_members(handle):
    """``{index: (offset of its flags, flags, raw name)}`` of the central-directory entries whose name is
    marked as UTF-8 but is not (:mod:`zipfile` refuses the whole zip for one of them)."""
    found = _central_directory(handle)
    bad = {}
    if found is None:
        return bad
    start, data = found
    pos = index = 0
    while pos + _CENTRAL.size <= len(data) and data[pos:pos + 4] == b"PK\x01\x02":
        fields = _CENTRAL.unpack(data[pos:pos + _CENTRAL.size])
        name = data[pos + _CENTRAL.size:pos + _CENTRAL.size + fields[12]]
        if fields[5] & _UTF8_FLAG:
            try:
                name.decode("utf-8")
            except UnicodeDecodeError:
                bad[index] = (start + pos + 8, fields[5], name)
        pos += _CENTRAL.size + fields[12] + fields[13] + fields[14]
        index += 1
    return bad


class _PatchedFile(io.FileIO):
    """A zip file whose bytes at some offsets read differently: used to clear the UTF-8 flag of the members
    with an invalid name, so that :mod:`zipfile` reads the others (those members are then skipped)."""

    def __init__(self, path, patches):
        io.FileIO.__init__(self, path, "rb")
        self.patches = patches   # [(offset, bytes)]

    def read(self, size=-1):
        """Read like a file, with the patched bytes replaced."""
        start = self.tell()
        data = io.FileIO.read(self, size)
        if not data:
            return data
        out = None
        for offset, value in self.patches:
            for i, byte in enumerate(value):
                if start <= offset + i < start + len(data):
                    out = out if out is not None else bytearray(data)
                    out[offset + i - start] = byte
        return data if out is None else bytes(out)


def _open_zip(path, messages):
    """``(ZipFile, indices of the members to skip)``; members whose name is marked as UTF-8 but is not are
    reported in ``messages`` and skipped instead of making the whole zip unreadable. A central directory
    over :data:`MAX_CENTRAL_DIRECTORY` bytes is refused (NothingToScore) before it is read."""
    with open(path, "rb") as handle:
        found = _central_directory(handle, read=False)
    if found and found[1] > MAX_CENTRAL_DIRECTORY:
        raise NothingToScore("the zip's list of members takes %s bytes; at most %s are accepted (are the file "
                             "names that long?)." % ("{:,}".format(found[1]), "{:,}".format(MAX_CENTRAL_DIRECTORY)))
    try:
        return zipfile.ZipFile(path), set()
    except UnicodeDecodeError:
        pass
    with open(path, "rb") as handle:
        bad = _bad_utf8_members(handle)
    if not bad:
        raise zipfile.BadZipFile("a member name is not valid UTF-8")
    for index in sorted(bad):
        messages.append(Message(bad[index][2].decode("utf-8", "backslashreplace"), WARNING, "zip member",
                                "the name is marked as UTF-8 but is not valid UTF-8: skipped"))
    patches = [(offset, struct.pack("<H", flags & ~_UTF8_FLAG)) for offset, flags, _ in bad.values()]
    return zipfile.ZipFile(_PatchedFile(path, patches)), set(bad)


class ZipSource(Source):
    """A submission zip read in place; unsafe member names are refused and reported, members with an
    invalid name are skipped, and a name given to several members is reported (the last one is used)."""

    def __init__(self, path, limits, messages, label=None):
        try:
            self.zip, skipped = _open_zip(path, messages)
            infos = [info for i, info in enumerate(self.zip.infolist()) if i not in skipped]
        except NothingToScore:
            raise
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
        duplicates = set()
        for info in infos:
            if info.filename.endswith("/"):
                continue
            reason = _unsafe(info.filename)
            if reason:
                messages.append(Message(info.filename, ERROR, "zip member", "refused (%s)" % reason))
                continue
            name = info.filename.replace("\\", "/")
            if name in self.infos and name not in duplicates:
                duplicates.add(name)
                messages.append(Message(name, WARNING, "zip member", "several members of the zip have this name; "
                                        "the last one is used"))
            self.infos[name] = info

    def names(self):
        """Member paths of every safe file of the zip."""
        return sorted(self.infos)

    def size(self, path):
        """The unpacked size of member ``path`` that the zip declares (it may lie: :meth:`read` is capped)."""
        return self.infos[path].file_size

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

    def size(self, task_folder, lang):
        """The declared size in bytes of the file for (task folder, language) (see :meth:`Source.size`)."""
        return self.source.size(self.prefix + self.files[(task_folder, lang)])


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
    copy = tempfile.NamedTemporaryFile(suffix=".zip")   # removed when closed (with the source)
    try:
        with outer.zip.open(info) as handle:
            shutil.copyfileobj(handle, copy)
        copy.flush()
    except Exception as err:  # as in ZipSource.read: any failure to unpack hostile bytes is "unreadable"
        copy.close()
        raise NothingToScore("the zip inside the zip, %s, cannot be unpacked (%s: %s)."
                             % (name, type(err).__name__, err))
    source = ZipSource(copy.name, limits, messages, label=name)
    source.copy = copy
    return source


def open_source(path, limits, messages):
    """A :class:`Source` for a submission directory or zip at ``path``.

    One rule for both (the platform form unpacks the upload into a directory, the local form reads
    the zip): when the only candidate inside is one zip, that inner zip is opened, with a warning
    naming it (only one level deep).
    """
    if os.path.isdir(path):
        source = DirSource(path, messages)
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


def _suggest(word, choices, aliases=None, fuzzy=True):
    """A "did you mean" for ``word`` among ``choices`` (``fuzzy=False``: only the same word but for case, an alias
    or ``-`` for ``_``), or ""."""
    lowered = dict((c.lower(), c) for c in choices)
    key = word.lower()
    if aliases and key in aliases:
        key = aliases[key]
    if key in lowered:
        return lowered[key]
    key = key.replace("-", "_")   # other close spellings are found by difflib below
    if key in lowered or not fuzzy:
        return lowered.get(key, "")
    close = difflib.get_close_matches(key, list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else ""


#: Split names a participant may leave in a file name (``<code>_valid.json``): the submission's names have none.
SPLIT_SUFFIXES = ("train", "valid", "validation", "dev", "test", "pred", "preds", "predictions", "output")
#: Extensions of text formats a participant may submit where JSON is expected, and what they are.
OTHER_FORMATS = {".conllu": "CoNLL-U", ".conll": "CoNLL", ".txt": "plain text", ".tsv": "TSV", ".csv": "CSV",
                 ".jsonl": "JSON Lines", ".xml": "XML", ".pkl": "a pickle", ".npy": "a NumPy array"}


def _language_names(languages):
    """``{code: lower-case name}`` when ``languages`` maps codes to declarations whose first item is the
    language's name (``LANGUAGES``), else ``{}``."""
    return dict((code, name.lower()) for code, name in _declared_names(languages).items())


def _declared_names(languages):
    """``{code: name}`` as declared (see :func:`_language_names`)."""
    names = {}
    if isinstance(languages, dict):
        for code, value in languages.items():
            name = value[0] if isinstance(value, (tuple, list)) and value else value
            if isinstance(name, str):
                names[code] = name
    return names


def _words(text):
    """The lower-case words of a file stem or a language name (``Middle_Low-Name`` -> ``["middle", "low", "name"]``)."""
    return [w for w in "".join(c if c.isalnum() else " " for c in text.lower()).split() if w]


def _codes_by_name(stem, languages):
    """The language codes whose declared name contains every word of ``stem`` (a name written out, or one word
    of it shared by at most three languages), else whose name is a close spelling of it; else ``[]``."""
    names = _language_names(languages)
    words = _words(stem)
    if not names or not words:
        return []
    found = [code for code, name in names.items() if all(w in _words(name) for w in words)]
    if not found:
        close = difflib.get_close_matches(" ".join(words), list(names.values()), n=1, cutoff=0.8)
        found = [code for code, name in names.items() if close and name == close[0]]
    return found if len(found) <= 3 else []


def _name_hint(folder, stem, ext, languages, aliases):
    """``(why, suggestions)`` for a file of a task folder whose name is not ``<language code>.json``."""
    codes = list(languages)
    suffix = ""
    lowered = stem.lower()
    for split in SPLIT_SUFFIXES:
        for sep in ("_", "-", "."):
            if lowered.endswith(sep + split) and len(lowered) > len(split) + 1:
                suffix, lowered = split, lowered[:-len(split) - 1]
                break
        if suffix:
            break
    doubled = lowered.endswith(".json")
    lowered = lowered[:-5] if doubled else lowered
    guess = _suggest(lowered, codes, aliases, fuzzy=False) if lowered else ""
    by_name = [] if guess else _codes_by_name(lowered, languages)
    if not guess and not by_name and lowered:
        guess = _suggest(lowered, codes, aliases)
    choices = [guess] if guess else by_name
    if ext.lower() in OTHER_FORMATS:
        why = ("a %s file: the submission holds JSON, one <language code>.json per language in the shape the "
               "Evaluation page shows; convert it (json.dump of the lists), or write it with the starting kit's "
               "make_submission.py" % OTHER_FORMATS[ext.lower()])
    elif suffix:
        why = "the file names have no split (no _%s): <language code>.json, the same in every phase" % suffix
    elif by_name:
        why = "files are named by language code, not by language name: %s" % ", ".join(
            "%s for %s" % (code, _declared_names(languages)[code]) for code in by_name)
    elif doubled:
        why = "the name ends in .json twice"
    elif ext != ".json" and ext.lower() == ".json":
        why = "the extension is .json, in lower case"
    elif ext.lower() != ".json":
        why = "files are named <language code>.json"
    elif guess and guess == lowered:
        why = "files are named <language code>.json in lower case"
    elif guess:
        why = "files are named by language code: %s, not %s" % (guess, stem)
    else:
        why = "files are named <language code>.json, with one of the codes %s" % ", ".join(sorted(codes))
    return why, ["%s/%s.json" % (folder, code) for code in choices]


def _classify(path, expected, task_folders, languages, aliases):
    """Return (task, lang) for an expected file, else a Message explaining why ``path`` is not scored.

    ``languages``: the language codes, or the declaration's ``LANGUAGES`` (code -> (name, ...)), whose names
    let a file named after its language (its name written out) get a "did you mean" too."""
    parts = path.split("/")
    if len(parts) == 2 and parts[0] in task_folders:
        folder, name = parts
        stem, ext = posixpath.splitext(name)
        if ext == ".json" and (folder, stem) in expected:
            return folder, stem
        if ext == ".json" and stem in languages:
            return Message(path, INFO, "layout", "%s is not scored in this phase (ignored)" % stem)
        why, guesses = _name_hint(folder, stem, ext, languages, aliases)
        hint = " Did you mean %s?" % " or ".join(guesses) if guesses else ""
        return Message(path, WARNING, "layout", "unexpected file name (ignored): %s.%s" % (why, hint))
    guess = _suggest(parts[0], task_folders) if len(parts) > 1 else ""
    hint = " Did you mean %s/?" % guess if guess and guess != parts[0] else ""
    if len(parts) == 1:
        hint = _root_file_hint(parts[0], task_folders, languages, aliases)
    what = "folder" if len(parts) > 1 else "file"
    return Message(path, WARNING, "layout", "unexpected %s (ignored); expected <task>/<language>.json with task one of %s.%s"
                   % (what, ", ".join(sorted(task_folders)), hint))


def _root_file_hint(name, task_folders, languages, aliases):
    """A "did you mean" for a file at the root whose name holds a task folder and a language
    (``<task>_<code>.json`` -> ``<task>/<code>.json``), or ""."""
    stem = posixpath.splitext(name)[0].lower()
    code = _suggest(stem, list(languages), aliases, fuzzy=False)
    if code:
        return " Put it in its task's folder, e.g. %s/%s.json." % (sorted(task_folders)[0], code)
    for folder in sorted(task_folders, key=len, reverse=True):
        if stem.startswith(folder.lower()) and len(stem) > len(folder) + 1:
            rest = stem[len(folder) + 1:]
            guess = _suggest(rest, list(languages), aliases, fuzzy=False)
            codes = [guess] if guess else _codes_by_name(rest, languages)
            if codes:
                return " Did you mean %s?" % " or ".join("%s/%s.json" % (folder, code) for code in codes)
    return ""


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
