"""Finding the files of a submission (a directory or a zip) and of a reference.

The submission layout is ``<task folder>/<language>.json`` at the root. This module forgives the
commonest mistakes and says so: one wrapping top-level folder (or a zip inside the upload) is
accepted with a warning; ``metadata`` at the root (Codabench writes it) and operating-system junk
(``__MACOSX/``, ``.DS_Store``) are ignored; any other unexpected name is listed with a "did you
mean" suggestion. Zip members with unsafe paths (absolute, ``..``) are refused, and so are uploads of
absurd size.

Memory and disk stay bounded whatever the upload holds: the files and folders of an upload (a zip's central
directory, a directory's entries) are counted against the competition's ``MAX_MEMBERS`` before anything is kept
per member; the names that are not scored get a message each up to :data:`MAX_LISTED_NAMES` of a kind, then one
with the count of the others; a zip inside the zip is read where it lies (:func:`zip_member_file`), never
unpacked to disk.
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

from . import naming
from .messages import DataError, Message, ERROR, WARNING, INFO, printable

JUNK_NAMES = frozenset((".DS_Store", "Thumbs.db", "desktop.ini"))
ROOT_IGNORED = frozenset(("metadata",))   # written into res/ by Codabench


#: At most this many names of one kind that are not scored (unexpected files, unexpected folders, files not
#: scored in this phase...) get a message each; the others of that kind are counted in one more message.
MAX_LISTED_NAMES = 100
#: A zip inside the uploaded zip that is compressed in it is read into memory when it unpacks to at most this
#: many bytes, and refused when larger (upload it itself); stored uncompressed, it is read where it lies.
MAX_INNER_ZIP_IN_MEMORY = 64 * 1024 * 1024


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
    pipe, a device, a socket: reading one could hang) with a warning in ``messages``. With ``limit``, a
    directory tree of more than ``limit`` files (or folders) is refused (NothingToScore) as soon as the
    count goes over, before their names are kept.
    """

    def __init__(self, root, messages=None, limit=None):
        self.root = root
        self._names = []
        counter = _MemberCounter(limit, "the submission")
        pending = [(root, "")]          # depth first; in each folder its files, then its sub-folders, sorted
        while pending:
            folder, rel = pending.pop()
            files, folders = [], []
            for entry in _entries(folder):
                is_folder = entry.is_dir(follow_symlinks=False)
                counter.add(rel + entry.name, is_folder)
                (folders if is_folder else files).append(entry.name)
            for filename in sorted(files):
                kind = _file_type(os.path.join(folder, filename))
                if not kind:
                    self._names.append(rel + filename)
                elif kind != "symbolic link" and messages is not None:
                    messages.append(Message(rel + filename, WARNING, "layout",
                                            "a %s, not a regular file: skipped" % kind))
            pending.extend((os.path.join(folder, name), rel + name + "/") for name in sorted(folders, reverse=True))

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
        """Bytes of ``path`` (at most ``limit`` + 1); DataError when it is over ``limit`` bytes or cannot be read.

        The file is read by its size (and one byte more, should it have grown since), then on up to the limit
        only when it did grow: a read of ``limit`` + 1 bytes at once takes a fresh buffer of the limit's size (16
        times the reference's, :mod:`evalkit.scoring`) for every file, then shrinks it."""
        full = os.path.join(self.root, *path.split("/"))
        try:
            size = os.path.getsize(full)
            if size > limit:
                raise _too_big(path, size, limit)
            with open(full, "rb") as handle:
                data = handle.read(size + 1)
                if len(data) > size:   # it grew after its size was read: on to the limit's one byte more
                    data += handle.read(limit + 1 - len(data))
                return data
        except (IOError, OSError) as err:
            raise DataError(path, "", "cannot be read: %s" % err.strerror)


def _entries(folder):
    """The entries of ``folder``, one at a time (none when it cannot be read: :func:`os.walk` skips it too)."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                yield entry
    except OSError:
        return


class _MemberCounter(object):
    """Counts the files and the folders of an upload as they are found; NothingToScore as soon as either count
    is over ``limit`` (None: no limit), so that nothing is kept for the members of an absurd upload. A folder is
    counted once however it is found (an entry of its own, or the path of a file within it: a zip need not list
    its folders), so a zip and the same files unpacked count alike."""

    def __init__(self, limit, what):
        self.limit, self.what = limit, what
        self.files = 0
        self.folders = set()

    def add(self, path, is_folder):
        """Count member ``path`` (``/``-separated, str or bytes), a folder or a file, and the folders above it."""
        parts = path.rstrip("/" if isinstance(path, str) else b"/").split("/" if isinstance(path, str) else b"/")
        if not is_folder:
            self.files += 1
            parts = parts[:-1]
        for depth in range(len(parts), 0, -1):
            folder = tuple(parts[:depth])
            if folder in self.folders:
                break               # and so are the ones above it
            self.folders.add(folder)
            self._check()
        self._check()

    def _check(self):
        if self.limit is not None and max(self.files, len(self.folders)) > self.limit:
            raise NothingToScore("%s holds more than %s %s; at most %s are accepted." % (
                self.what, "{:,}".format(self.limit), "folders" if len(self.folders) > self.limit else "files",
                "{:,}".format(self.limit)))


_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")   # a central directory header (the zip specification, 4.3.12)
_LOCAL = struct.Struct("<4s5H3L2H")          # a local file header (4.3.7)
_UTF8_FLAG = 0x800
_ENCRYPTED_FLAG = 0x1


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


def _count_members(handle, found, limit, what):
    """Count the files and folders listed by the central directory at ``found`` (``(offset, size)``) of the zip
    open in ``handle``, one entry at a time as :mod:`zipfile` lists them; NothingToScore as soon as either count
    is over ``limit`` (:class:`_MemberCounter`), before :mod:`zipfile` builds anything per member."""
    start, size = found
    counter = _MemberCounter(limit, what)
    pos = 0
    while pos + _CENTRAL.size <= size:
        handle.seek(start + pos)
        head = handle.read(_CENTRAL.size)
        if len(head) < _CENTRAL.size or head[:4] != b"PK\x01\x02":
            return          # zipfile reports the damage
        fields = _CENTRAL.unpack(head)
        name = handle.read(fields[12]).replace(b"\\", b"/")
        counter.add(name, name.endswith(b"/"))
        pos += _CENTRAL.size + fields[12] + fields[13] + fields[14]


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


class _ReadOnly(io.RawIOBase):
    """A read-only, seekable binary file over another one (``raw``): the base of :class:`_PatchedFile` and
    :class:`_Window`, which say what :meth:`read` returns."""

    def __init__(self, raw):
        io.RawIOBase.__init__(self)
        self.raw = raw
        self.name = getattr(raw, "name", None)

    def readable(self):
        """Always."""
        return True

    def seekable(self):
        """Always."""
        return True

    def readinto(self, buffer):
        """Read into ``buffer`` (see ``read``)."""
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


class _PatchedFile(_ReadOnly):
    """A zip file whose bytes at some offsets read differently: used to clear the UTF-8 flag of the members
    with an invalid name, so that :mod:`zipfile` reads the others (those members are then skipped)."""

    def __init__(self, raw, patches):
        _ReadOnly.__init__(self, raw)
        self.patches = patches   # [(offset, bytes)]

    def seek(self, offset, whence=0):
        """Move in the file."""
        return self.raw.seek(offset, whence)

    def tell(self):
        """The position in the file."""
        return self.raw.tell()

    def read(self, size=-1):
        """Read like a file, with the patched bytes replaced."""
        start = self.raw.tell()
        data = self.raw.read(size)
        if not data:
            return data
        out = None
        for offset, value in self.patches:
            for i, byte in enumerate(value):
                if start <= offset + i < start + len(data):
                    out = out if out is not None else bytearray(data)
                    out[offset + i - start] = byte
        return data if out is None else bytes(out)


class _Window(_ReadOnly):
    """Bytes ``start`` to ``start + size`` of the seekable binary file ``raw`` as a file of their own: a member
    stored uncompressed in a zip, read where it lies. Every read seeks ``raw`` first, so other readers of
    ``raw`` (the outer :class:`zipfile.ZipFile`) may share it."""

    def __init__(self, raw, start, size, name):
        _ReadOnly.__init__(self, raw)
        self.start, self.size, self.name, self._pos = start, size, name, 0

    def seek(self, offset, whence=0):
        """Move within the window (``whence`` as :meth:`io.IOBase.seek`)."""
        base = {0: 0, 1: self._pos, 2: self.size}[whence]
        if base + offset < 0:
            raise ValueError("negative seek position %d" % (base + offset))
        self._pos = base + offset
        return self._pos

    def tell(self):
        """The position within the window."""
        return self._pos

    def read(self, size=-1):
        """At most ``size`` bytes (all that is left when negative), never beyond the window."""
        left = max(0, self.size - self._pos)
        size = left if size is None or size < 0 else min(size, left)
        if not size:
            return b""
        self.raw.seek(self.start + self._pos)
        data = self.raw.read(size)
        self._pos += len(data)
        return data


def _is_file(path):
    """Whether ``path`` is an open binary file object rather than a path."""
    return hasattr(path, "read")


def _open_zip(path, messages, limits=None, what="the zip"):
    """``(ZipFile, indices of the members to skip)`` of the zip at ``path`` (a path or a seekable binary file);
    members whose name is marked as UTF-8 but is not are reported in ``messages`` and skipped instead of making
    the whole zip unreadable. A central directory over :data:`MAX_CENTRAL_DIRECTORY` bytes, or one that lists
    more than ``limits["members"]`` files or folders, is refused (NothingToScore) before :mod:`zipfile` reads it."""
    handle = path if _is_file(path) else open(path, "rb")
    try:
        found = _central_directory(handle, read=False)
        if found and found[1] > MAX_CENTRAL_DIRECTORY:
            raise NothingToScore("the zip's list of members takes %s bytes; at most %s are accepted (are the file "
                                 "names that long?)." % ("{:,}".format(found[1]), "{:,}".format(MAX_CENTRAL_DIRECTORY)))
        if found and limits is not None:
            _count_members(handle, found, limits["members"], what)
        try:
            return zipfile.ZipFile(path), set()
        except UnicodeDecodeError:
            pass
        bad = _bad_utf8_members(handle)
    finally:
        if not _is_file(path):
            handle.close()
    if not bad:
        raise zipfile.BadZipFile("a member name is not valid UTF-8")
    for index in sorted(bad):
        messages.append(Message(bad[index][2].decode("utf-8", "backslashreplace"), WARNING, "zip member",
                                "the name is marked as UTF-8 but is not valid UTF-8: skipped"))
    patches = [(offset, struct.pack("<H", flags & ~_UTF8_FLAG)) for offset, flags, _ in bad.values()]
    return zipfile.ZipFile(_PatchedFile(path if _is_file(path) else io.FileIO(path, "rb"), patches)), set(bad)


def open_zip(path, messages, limits=None, what="the zip"):
    """``(ZipFile, names of the members it lists that were skipped)``: see :func:`_open_zip`. For other readers
    of zips (the organisers' downloads), with the same bounds and the same tolerance of invalid names."""
    archive, skipped = _open_zip(path, messages, limits, what)
    return archive, set(info.filename for i, info in enumerate(archive.infolist()) if i in skipped)


def zip_member_file(archive, info, limits, label, spill=None):
    """A seekable binary file holding member ``info`` of :class:`zipfile.ZipFile` ``archive`` (a zip inside a
    zip), without unpacking it to disk: a member stored uncompressed is read where it lies (a window over the
    outer zip); a compressed one is read into memory when it unpacks to at most
    :data:`MAX_INNER_ZIP_IN_MEMORY` bytes. A larger compressed one is refused (NothingToScore), unless ``spill``
    names a folder (the organisers' tools) where it is copied, within the upload limit.

    ``limits["upload"]`` bounds the member in every case; ``label`` names it in messages.
    """
    if info.file_size > limits["upload"]:
        raise NothingToScore("the zip inside the zip, %s, is %s bytes; at most %s are accepted."
                             % (label, "{:,}".format(info.file_size), "{:,}".format(limits["upload"])))
    try:
        if info.compress_type == zipfile.ZIP_STORED and not info.flag_bits & _ENCRYPTED_FLAG:
            return _Window(archive.fp, _data_offset(archive.fp, info), info.file_size, label)
        if info.file_size <= MAX_INNER_ZIP_IN_MEMORY:
            copy = io.BytesIO()     # zipfile stops at the declared size, whatever the data holds
            with archive.open(info) as handle:
                shutil.copyfileobj(handle, copy, 1 << 20)
            copy.seek(0)
            return copy
        if spill is not None:
            copy = tempfile.NamedTemporaryFile(dir=spill, suffix=".zip")   # removed when closed
            with archive.open(info) as handle:
                shutil.copyfileobj(handle, copy, 1 << 20)
            copy.seek(0)
            return copy
    except Exception as err:  # as in ZipSource.read: any failure to unpack hostile bytes is "unreadable"
        raise NothingToScore("the zip inside the zip, %s, cannot be unpacked (%s: %s)."
                             % (label, type(err).__name__, err))
    raise NothingToScore("the zip inside the zip, %s, is compressed and unpacks to %s bytes; a compressed zip "
                         "inside the zip is read only up to %s bytes: upload %s itself (or store it uncompressed "
                         "in the outer zip)." % (label, "{:,}".format(info.file_size),
                                                 "{:,}".format(MAX_INNER_ZIP_IN_MEMORY), label))


def _data_offset(raw, info):
    """Where the data of member ``info`` starts in the zip file ``raw`` (after its local header)."""
    raw.seek(info.header_offset)
    header = raw.read(_LOCAL.size)
    if len(header) < _LOCAL.size or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("bad local header of %s" % info.filename)
    fields = _LOCAL.unpack(header)
    return info.header_offset + _LOCAL.size + fields[-2] + fields[-1]


#: The first bytes of the formats an upload is mistaken for a zip with, and what each is.
MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
         (b"Rar!\x1a\x07", "RAR"), (b"\x28\xb5\x2f\xfd", "zstd"))


def not_a_zip_why(path, label="the file"):
    """What the upload at ``path`` (a path or a seekable binary file; ``label``: its name as shown) holds when it is
    not a zip, as a phrase, or "" when it cannot be told (a broken zip, unknown bytes): another archive or
    compression format (its first bytes), a tar archive, or plain text (a file uploaded by itself, unzipped), with
    what to upload instead. Read only once the upload is known not to open as a zip."""
    try:
        if _is_file(path):
            where = path.tell()
            path.seek(0)
            head = path.read(512)
            path.seek(where)
        else:
            with open(path, "rb") as handle:
                head = handle.read(512)
    except (OSError, ValueError):
        return ""
    if head[:2] == b"PK":
        return ""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return ("it is a %s file, not a zip: upload a zip (.zip) whose root holds the prediction files"
                    % name)
    if head[257:262] == b"ustar":
        return "it is a tar archive, not a zip: upload a zip (.zip) whose root holds the prediction files"
    if head and b"\x00" not in head:
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as err:
            if err.start < len(head) - 3:   # not a UTF-8 character cut by the 512 bytes read
                return ""
        example = " (e.g. zip submission.zip %s)" % os.path.basename(str(label)) if not _is_file(path) else ""
        return "it is a plain text file, uploaded by itself: put it in a zip%s and upload the zip" % example
    return ""


class ZipSource(Source):
    """A submission zip read in place (``path``: a path or a seekable binary file); unsafe member names are
    refused and reported, members with an invalid name are skipped, and a name given to several members is
    reported (the last one is used)."""

    def __init__(self, path, limits, messages, label=None):
        label = label or (getattr(path, "name", None) or "the submission" if _is_file(path)
                          else os.path.basename(path))
        try:
            self.zip, skipped = _open_zip(path, messages, limits)
            infos = [info for i, info in enumerate(self.zip.infolist()) if i not in skipped]
        except NothingToScore:
            raise
        except Exception as err:  # hostile bytes make zipfile raise many kinds of errors (BadZipFile,
            # NotImplementedError for an unknown version, struct.error, ...): all mean "unreadable"
            why = not_a_zip_why(path, label)
            raise NothingToScore("%s is not a readable zip file (%s)." % (
                label, why or "%s: %s" % (type(err).__name__, err)))
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


def open_source(path, limits, messages):
    """A :class:`Source` for a submission directory or zip at ``path`` (or a seekable binary file holding a zip).

    One rule for both (the platform form unpacks the upload into a directory, the local form reads
    the zip): when the only candidate inside is one zip, that inner zip is opened, with a warning
    naming it (only one level deep), where it lies (:func:`zip_member_file`).
    """
    if _is_file(path) or os.path.isfile(path):
        source = ZipSource(path, limits, messages)
        inner = lone_inner_zip(source.names())
        if inner:
            messages.append(Message(inner, WARNING, "layout", INNER_ZIP_WARNING % inner))
            opened = ZipSource(zip_member_file(source.zip, source.infos[inner], limits, inner), limits, messages,
                               label=inner)
            opened.outer = source       # the outer zip stays open as long as the inner one is read
            return opened
        return source
    if os.path.isdir(path):
        source = DirSource(path, messages, limits["members"])
        inner = lone_inner_zip(source.names())
        if inner:
            messages.append(Message(inner, WARNING, "layout", INNER_ZIP_WARNING % inner))
            return ZipSource(os.path.join(path, *inner.split("/")), limits, messages, label=inner)
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
    if not close and len(key) >= 3:   # a short form of one choice only (the first letters of one folder name)
        close = [choice for choice in lowered if choice.startswith(key)]
    return lowered[close[0]] if len(close) == 1 else ""


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
    packed = naming.compressed_why(stem + ext)
    if packed:   # x.json.gz: the hint is about x.json
        stem, ext = posixpath.splitext(naming.compressed(stem + ext)[0])
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
    if packed:
        why = packed
    elif ext.lower() in OTHER_FORMATS:
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


class IgnoredNames(object):
    """The messages about the names of a submission that are not scored: each of the first
    :data:`MAX_LISTED_NAMES` of a kind gets its own; the others of that kind are only counted, and
    :meth:`close` adds one message saying how many there were (an upload of thousands of stray files
    gets a bounded report). A message is built only when it is kept (a did-you-mean costs time)."""

    def __init__(self, messages, limit=None):
        self.messages, self.limit = messages, MAX_LISTED_NAMES if limit is None else limit
        self.counts = Counter()
        self.unlisted = {}          # kind -> (severity, the first name not listed)

    def add(self, kind, name, severity, make):
        """One more ``name`` of ``kind`` (a plural noun: "unexpected files"); ``make()`` builds its Message."""
        self.counts[kind] += 1
        if self.counts[kind] <= self.limit:
            self.messages.append(make())
        elif kind not in self.unlisted:
            self.unlisted[kind] = (severity, name)

    def close(self):
        """Add one message per kind that had more than the limit."""
        for kind, (severity, name) in self.unlisted.items():
            self.messages.append(Message(name, severity, "layout", "%s more of this kind (%s, ignored): only the "
                                         "first %d are listed one by one" % ("{:,}".format(self.counts[kind] - self.limit),
                                                                             kind, self.limit)))
        self.unlisted = {}


def _classify(path, expected, task_folders, languages, aliases):
    """``(task, lang)`` for an expected file, else ``(kind, severity, make)``: what :meth:`IgnoredNames.add` takes
    for a name that is not scored (``make()`` builds the message saying why). ``languages``: the language codes,
    or the declaration's ``LANGUAGES`` (code -> (name, ...)), whose names let a file named after its language (its
    name written out) get a "did you mean" too."""
    parts = path.split("/")
    if len(parts) == 2 and parts[0] in task_folders:
        folder, name = parts
        stem, ext = posixpath.splitext(name)
        if ext == ".json" and (folder, stem) in expected:
            return folder, stem
        if ext == ".json" and stem in languages:
            return ("files not scored in this phase", INFO,
                    lambda: Message(path, INFO, "layout", "%s is not scored in this phase (ignored)" % stem))

        def misnamed():
            why, guesses = _name_hint(folder, stem, ext, languages, aliases)
            hint = " Did you mean %s?" % " or ".join(guesses) if guesses else ""
            return Message(path, WARNING, "layout", "unexpected file name (ignored): %s.%s" % (why, hint))
        return "unexpected file names in a task folder", WARNING, misnamed

    def unexpected():
        guess = _suggest(parts[0], task_folders) if len(parts) > 1 else ""
        hint = " Did you mean %s/?" % guess if guess and guess != parts[0] else ""
        if len(parts) == 1:
            hint = _root_file_hint(parts[0], task_folders, languages, aliases)
        what = "folder" if len(parts) > 1 else "file"
        return Message(path, WARNING, "layout", "unexpected %s (ignored); expected <task>/<language>.json with task "
                       "one of %s.%s" % (what, ", ".join(sorted(task_folders)), hint))
    return "unexpected files", WARNING, unexpected


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


#: At most this many per-file hints are repeated in the "nothing could be scored" message.
SHOWN_HINTS = 6


def each_file_hint(messages):
    """The layout ``messages`` (one per name not scored) as one sentence to add to a NothingToScore: when every
    file is misnamed, each still gets its own hint, as when only some are (at most :data:`SHOWN_HINTS`)."""
    hints = [m for m in messages if m.where == "layout" and m.file]
    if not hints:
        return ""
    shown = ["%s: %s" % (printable(m.file, 80), m.text) for m in hints[:SHOWN_HINTS]]
    more = len(hints) - len(shown)
    return " Each file: %s%s" % (" | ".join(shown), " | and %d more" % more if more else "")


def _deep_prefix(names, task_folders):
    """The one folder path (``"out/predictions/"``) that holds the task folders of ``names`` deeper than the one
    wrapping folder forgiven (:func:`_wrapping_prefix`), or "" when there is none or several."""
    found = set()
    for name in names:
        parts = name.split("/")
        inner = [k for k in range(2, len(parts) - 1) if parts[k] in task_folders]
        if inner:
            found.add("/".join(parts[:inner[0]]) + "/")
    return found.pop() if len(found) == 1 else ""


def _nothing_found(names, messages=(), task_folders=()):
    """The NothingToScore for a submission without any expected file (naming a zip inside, if any, or the folders
    that wrap the task folders), with the hint of each name not scored (``messages``, see :func:`each_file_hint`)."""
    zips = [n for n in names if n.lower().endswith(".zip") and not posixpath.splitext(n[:-4])[1]]
    if zips:
        return NothingToScore("no expected file was found in the submission, but it holds a zip inside the zip (%s): "
                              "upload that zip itself, with the task folders at its root." % ", ".join(zips[:5]))
    deep = _deep_prefix(names, task_folders)
    if deep:
        return NothingToScore("no expected file was found in the submission: the task folders are inside %s, %d "
                              "folders deep; they must be at the root of the zip (one wrapping folder is forgiven, "
                              "not %d). Zip the task folders themselves: cd %s && zip -r ../submission.zip ."
                              % (printable(deep, 120), deep.count("/"), deep.count("/"), printable(deep, 120)))
    return NothingToScore("no expected file was found in the submission." + each_file_hint(messages))


def find_submission_files(source, expected, task_folders, languages, aliases, messages):
    """Recognise the files of ``source`` against the ``expected`` (task folder, lang) pairs.

    Returns a :class:`Submission`; every name that is not scored gets a message in ``messages``
    (one per unexpected top-level folder, however many files it holds), up to :data:`MAX_LISTED_NAMES` of
    each kind (:class:`IgnoredNames`). Raises NothingToScore when no expected file is present.
    """
    names = [n for n in source.names() if not _is_junk(n)]
    prefix = _wrapping_prefix([n for n in names if n not in ROOT_IGNORED], task_folders)
    if prefix:
        messages.append(Message(prefix, WARNING, "layout", "the task folders are inside the folder '%s'; they must be at "
                                "the root of the zip. Scored anyway; zip the folders themselves next time." % prefix))
    files = {}
    start = len(messages)
    ignored = IgnoredNames(messages)
    relatives = [n[len(prefix):] for n in names if n not in ROOT_IGNORED and n.startswith(prefix)]
    folders = Counter(r.split("/", 1)[0] for r in relatives if "/" in r and r.split("/", 1)[0] not in task_folders)
    for relative in relatives:
        top = relative.split("/", 1)[0]
        if top in folders:
            if folders[top]:            # one message per folder
                ignored.add("unexpected folders", top + "/", WARNING,
                            lambda: _folder_message(top, folders[top], task_folders))
                folders[top] = 0
            continue
        found = _classify(relative, expected, task_folders, languages, aliases)
        if len(found) == 3:             # (kind, severity, make): not scored
            ignored.add(found[0], relative, found[1], found[2])
        else:
            files[found] = relative
    ignored.close()
    if not files:
        raise _nothing_found([n for n in names if n not in ROOT_IGNORED], messages[start:], task_folders)
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
