"""Line-aligned label files: a second family of kinds, for plain-text submissions.

A competition that declares ``SUBMISSION_FILE`` (a name pattern such as ``"{task}_{lang}.txt"``) is
scored from flat, named files instead of ``<task folder>/<lang>.json``: this module finds them
(did-you-mean against the declared names and their release aliases, one wrapping folder forgiven),
reads the references (``REFERENCE_FILE``, CoNLL-style text) and parses the predictions.

Reference text (what the organiser's reference builder writes; a LinCE-style ``dev.conll`` is one):
``# sent_enum = N`` optionally followed by ``<TAB>sentence label``, then one ``token<TAB>...<TAB>label``
line per token (the last field is the gold label), a blank line after each sentence.

Two kinds:

- ``token_labels``: one label per line, aligned line by line with the input file (the phase's split), a blank line between
  sentences. Sentence headers (``# sent_enum = N``) are skipped; of a line with tabs, the last field is
  the label. When the number of labels equals the number of tokens the labels are paired in order
  (blank lines that differ are only reported). Otherwise the blank lines delimit the sentences: a
  sentence whose label count differs scores nothing, and when the number of sentences differs too
  only the sentences before the first misalignment and after the last one are scored (the first
  misalignment is reported with its line). Metrics: accuracy and weighted F1, or entity-span F1.
- ``sentence_labels``: one label per line, one line per sentence (blank lines are ignored); a file
  with another number of labels scores 0.

A label outside the dataset's declared label set is reported (with a suggestion) and never matches.
Standard library only, Python 3.7+.
"""
import difflib
import os
import re
import unicodedata
from collections import Counter, OrderedDict
from operator import itemgetter

from . import metrics, naming
from .floor import price_text, swapped_pairs
from .inventory import upos_of_ptb
from .items import BlockItems
from .kinds import Entry
from .layout import IgnoredNames, NothingToScore, ReferenceError, Submission, _is_junk, ROOT_IGNORED
from .loading import decode_utf8
from .messages import CHANCE_NOTE, DataError, Message, ERROR, WARNING, INFO, ZERO_NOTE, printable, quoted

#: A prediction may not be larger than this many times its reference (plus 1 MiB): labels are
#: shorter than the token + label lines of the reference, so anything larger is refused unread.
MAX_PREDICTION_RATIO = 4


# --------------------------------------------------------------------------- names

def declares_names(competition):
    """Whether ``competition`` uses flat named files (``SUBMISSION_FILE``) rather than task folders."""
    return bool(getattr(competition, "SUBMISSION_FILE", None))


def submission_name(competition, task, lang):
    """The submission file name of (task, language), e.g. ``lid_spa_eng.txt``; for a task whose submission
    is a folder of per-document files, its declared ``documents`` pattern (e.g. ``<doc>/<doc>.xml``)."""
    if getattr(task, "documents", None):
        return task.documents.replace("{doc}", "<doc>")
    return competition.SUBMISSION_FILE.format(task=task.key, lang=lang)


def document_matcher(pattern):
    """A function from a member path to its document name (or None) for a per-document ``pattern`` such as
    ``{doc}/{doc}.TimeNorm.system.completed.xml``: the pattern must match the path's last components (any
    folders above are forgiven) and every ``{doc}`` must be the same name.

    >>> match = document_matcher("{doc}/{doc}.xml")
    >>> match("run1/APW1998.0261/APW1998.0261.xml"), match("APW1998/other.xml"), match("a/b.xml")
    ('APW1998.0261', None, None)
    """
    pieces = [re.escape(piece) for piece in pattern.split("{doc}")]
    regex = re.compile("(?:^|/)" + pieces[0] + "(?P<doc>[^/]+)" + "".join(p + "(?P=doc)" for p in pieces[1:-1])
                       + (pieces[-1] if len(pieces) > 1 else "") + "$")

    def match(path):
        found = regex.search(path)
        return found.group("doc") if found else None
    return match


def _claim_documents(names, pairs, files, ignored, seconds=None):
    """Claim the member ``names`` that match a per-document task's pattern (``task.documents``): sets
    ``files[pair]`` (the pattern) and returns ``{pair: {document: path}}``; the rest of ``names``. A second
    file for one document is reported in ``ignored`` (:class:`~evalkit.layout.IgnoredNames`): one message for the
    whole submission, however many documents and tasks, with the count and the first files read and ignored;
    ``seconds`` (an OrderedDict, when given) receives ``{ignored name: (document, the name read)}``."""
    documents, rest = {}, []
    seconds = OrderedDict() if seconds is None else seconds   # ignored name -> (document, the name read)
    matchers = [(pair, document_matcher(pair[0].documents)) for pair in pairs if getattr(pair[0], "documents", None)]
    for name in names:
        claimed = False
        for (task, lang), match in matchers:
            doc = match(name)
            if doc is None:
                continue
            claimed = True
            found = documents.setdefault((task.folder, lang), {})
            if doc in found and found[doc] != name:
                seconds.setdefault(name, (doc, found[doc]))
                continue
            found.setdefault(doc, name)
            files[(task.folder, lang)] = task.documents
        if not claimed:
            rest.append(name)
    if seconds:
        shown = list(seconds.items())[:3]
        ignored.messages.append(Message(shown[0][0], WARNING, "layout", (
            "%d file(s) for documents that already have one (ignored: the first file found for a document is the one "
            "read): %s%s. Keep one file per document." % (
                len(seconds), "; ".join("%s ignored, %s read for %s" % (printable(name, 80), printable(first, 80), doc)
                                        for name, (doc, first) in shown),
                ", and %d more" % (len(seconds) - 3) if len(seconds) > 3 else ""))))
    return documents, rest


#: At most this many member names are listed in a message about per-document names.
SHOWN_DOCUMENT_NAMES = 5


def _listed(names):
    """Up to :data:`SHOWN_DOCUMENT_NAMES` of ``names`` (each cut and escaped), comma-separated, with how many
    more."""
    more = len(names) - SHOWN_DOCUMENT_NAMES
    return ", ".join(printable(name, 80) for name in names[:SHOWN_DOCUMENT_NAMES]) + (
        ", and %d more" % more if more > 0 else "")


def _document_stem(name, known=None):
    """The document a member name most likely holds, or "": the folder of ``<doc>/<doc>...`` when the file
    name starts with it, else the file name without its trailing extensions (dot-separated words of letters
    only: ``.TimeNorm.gold.completed.xml``, ``.xml``; a numeric part such as ``.0261`` is kept). When the file
    name gives a longer document name than its folder (a folder named ``APW19980807`` for the file
    ``APW19980807.0261...``), or a name of the phase's ``known`` documents (lower-cased), the file name's stem wins.

    >>> _document_stem("APW19980807/APW19980807.0261.TimeNorm.system.completed.xml"), _document_stem("d1/d1.gold.xml")
    ('APW19980807.0261', 'd1')
    """
    parts = name.split("/")
    base = parts[-1]
    if len(parts) > 1 and base.startswith(parts[-2] + ".") and parts[-2]:
        stem = _document_stem(base, known)
        if stem.startswith(parts[-2] + ".") and (known is None or stem.lower() in known):
            return stem
        return parts[-2]
    pieces = base.split(".")
    while len(pieces) > 1 and pieces[-1].isalpha():
        pieces.pop()
    return ".".join(pieces) if pieces != [base] or "." not in base else ""


def document_name_hint(names, pattern, known=None):
    """What a list of member ``names`` that a per-document ``pattern`` does not match probably meant: "" or a
    sentence with the first renaming and how many more names it fits (names with the pattern's extension).
    ``known``: the phase's document names (public: the test texts are released), or None; a stem that differs
    from one of them only in letter case is written as the phase writes it, so the suggested name scores.

    >>> document_name_hint(["d1/d1.gold.xml", "d2/d2.gold.xml", "notes.txt"], "{doc}/{doc}.system.xml")
    'Did you mean d1/d1.system.xml for d1/d1.gold.xml (and the same for 1 more of these files)?'
    >>> document_name_hint(["APW1998.0261.xml"], "{doc}/{doc}.system.xml")
    'Did you mean APW1998.0261/APW1998.0261.system.xml for APW1998.0261.xml?'
    >>> document_name_hint(["predictions.xml"], "{doc}/{doc}.system.xml", ["d1", "d2"])
    'predictions.xml names no document of this phase (such as d1, d2): a submission holds one file per document, \
named after the document, as <doc>/<doc>.system.xml.'
    """
    extension = "." + pattern.rsplit(".", 1)[-1].lower() if "." in pattern.rsplit("/", 1)[-1] else ""
    unpacked = [(n, (naming.compressed(n) or (n,))[0]) for n in names]   # d/d.xml.gz stands for d/d.xml
    cased = dict((doc.lower(), doc) for doc in known or ())
    lowered = set(cased) if known is not None else None
    stems = [(name, stem) for name, stem in ((n, _document_stem(u, lowered)) for n, u in unpacked)
             if stem and (naming.compressed(name) or (name,))[0].lower().endswith(extension)
             or stem.lower() in cased and (naming.compressed(name) or _without_extension(name, pattern))]
    others = []
    if cased:   # the phase's documents are known: a name that is none of them is no document's file
        others = [name for name, stem in stems if stem.lower() not in cased]
        stems = [(name, stem) for name, stem in stems if stem.lower() in cased]
        if others and not stems:
            return ("%s names no document of this phase (such as %s): a submission holds one file per document, "
                    "named after the document, as %s." % (printable(others[0], 80), ", ".join(sorted(known)[:2]),
                                                         pattern.replace("{doc}", "<doc>")))
    renamed = [(name, pattern.replace("{doc}", cased.get(stem.lower(), stem))) for name, stem in stems]
    if not renamed:
        return ""
    first, target = renamed[0]
    packed = _archive_why(first, extension) or naming.compressed_why(first) or _without_extension(first, pattern)
    return "%sDid you mean %s for %s%s?%s" % (
        packed[:1].upper() + packed[1:] + ". " if packed else "", target, first,
        " (and the same for %d more of these files)" % (len(renamed) - 1) if len(renamed) > 1 else "",
        " %d other file(s) name no document of this phase (first: %s)." % (len(others), printable(others[0], 80))
        if others else "")


#: The compressed formats (:data:`evalkit.naming.COMPRESSED`) that hold several files.
ARCHIVES = ("zip", "7-Zip", "RAR", "tar")


def _archive_why(name, extension):
    """The sentence saying that the member ``name`` is an archive of files (``<doc>.zip``, not ``<doc>.xml.zip``)
    inside the uploaded zip, or ""."""
    found = naming.compressed(name)
    if found is None or found[1] not in ARCHIVES or found[0].lower().endswith(extension):
        return ""
    return ("the file is an archive (%s) inside the uploaded zip: put the files it holds in the uploaded zip itself "
            "(the scorer does not unpack archives inside it)" % found[1])


def _without_extension(name, pattern):
    """The sentence saying that the member ``name`` ends as ``pattern`` does but for its extension (``.xml``
    left out), or ""."""
    tail = pattern.rsplit("/", 1)[-1].replace("{doc}", "")
    stem, extension = tail.rsplit(".", 1) if "." in tail else (tail, "")
    if extension and stem and name.endswith(stem) and not name.lower().endswith("." + extension.lower()):
        return "the file name lacks its extension .%s" % extension
    return ""


def _unmatched_documents(names, pattern, messages, known_documents=None):
    """One warning for every member name that the per-document ``pattern`` does not match (ignored);
    ``known_documents`` as for :func:`find_named_files`."""
    if names:
        messages.append(Message(names[0], WARNING, "layout", "%d file(s) not named like %s (ignored): %s. %s"
                                % (len(names), pattern.replace("{doc}", "<doc>"), _listed(names),
                                   document_name_hint(names, pattern,
                                                      known_documents() if known_documents else None))))


def reference_name(competition, task, lang):
    """The reference file name of (task, language), e.g. ``lid_spa_eng.conll``."""
    return competition.REFERENCE_FILE.format(task=task.key, lang=lang)


def _all_pairs(competition):
    """Every declared (task, language) pair, in declaration order."""
    return [(task, lang) for task in competition.TASKS for lang in task.languages]


def scan_reference(ref_dir, competition):
    """Return the (task folder, lang, path) of every declared reference file present in ``ref_dir``.

    Raises ReferenceError when the directory is missing or holds none of them.
    """
    if not os.path.isdir(ref_dir):
        raise ReferenceError("the reference directory %s does not exist" % ref_dir)
    present = set(os.listdir(ref_dir))
    found = [(task.folder, lang, os.path.join(ref_dir, reference_name(competition, task, lang)))
             for task, lang in _all_pairs(competition) if reference_name(competition, task, lang) in present]
    if not found:
        raise ReferenceError("the reference directory %s holds none of the declared reference files (e.g. %s)"
                             % (ref_dir, reference_name(competition, *_all_pairs(competition)[0])))
    return found


def suggest_name(name, choices, aliases):
    """A "did you mean" among ``choices`` for a file ``name``, or "".

    ``aliases`` maps other spellings of a stem (the release's dataset ids, e.g. ``lid_spaeng``) to
    the declared stem (``lid_spa_eng``). Case, ``-`` or a space for ``_`` and the extension are forgiven;
    then the words of one declared stem (or alias) in another order or among other words; then the
    closest spelling.

    >>> suggest_name("lid_spaeng.txt", ["lid_spa_eng.txt", "pos_spa_eng.txt"], {})
    'lid_spa_eng.txt'
    >>> suggest_name("LID-SPA-ENG.TXT", ["lid_spa_eng.txt"], {})
    'lid_spa_eng.txt'
    >>> suggest_name("dev/spa_eng_lid_predictions.txt", ["lid_spa_eng.txt", "pos_spa_eng.txt"], {})
    'lid_spa_eng.txt'
    >>> suggest_name("readme.md", ["lid_spa_eng.txt"], {})
    ''

    Declared names may be paths (``SUBMISSION_FILE = "answer/{task}/{lang}.txt"``): a name is then compared on as
    many of its last folders as the declared paths have, each folder forgiven as the file name is.

    >>> suggest_name("Answer/Task1/English.TXT", ["answer/task1/english.txt", "answer/task2/english.txt"], {})
    'answer/task1/english.txt'
    >>> suggest_name("task2/english.tsv", ["answer/task1/english.txt", "answer/task2/english.txt"], {})
    'answer/task2/english.txt'
    >>> suggest_name("answers/english_task1.txt", ["answer/task1/english.txt", "answer/task2/english.txt"], {})
    'answer/task1/english.txt'
    """
    depth = max([choice.count("/") for choice in choices] or [0]) + 1
    base = name.rsplit("/", depth)[-depth:] if depth > 1 else [name.rsplit("/", 1)[-1]]
    base = "/".join(base[:-1] + [(naming.compressed(base[-1]) or (base[-1],))[0]])   # x.txt.gz stands for x.txt
    stem = re.sub(r"[- ]", "_", base.rsplit(".", 1)[0].lower())
    by_stem = dict((choice.rsplit(".", 1)[0], choice) for choice in choices)
    stem = aliases.get(stem, stem)
    if stem in by_stem:
        return by_stem[stem]
    segments = stem.split("/")
    tail = [known for known in by_stem if known.split("/")[-len(segments):] == segments or (
        len(segments) > 1 and len(known.split("/")) == len(segments) and known.split("/")[1:] == segments[1:])]
    if len(tail) == 1:   # the same last folders and file without the top folder, or under another one
        return by_stem[tail[0]]
    words = set(word for word in re.split(r"[_/]", stem) if word)
    common = os.path.commonprefix([known.rsplit("/", 1)[0] + "/" for known in by_stem]) if depth > 1 else ""
    common = common[:common.rfind("/") + 1]   # the folders every declared path starts with need not be given
    spellings = [(known[len(common):], known) for known in by_stem] + [
        (alias, known) for alias, known in aliases.items() if known in by_stem]
    contained = [(len(re.split(r"[_/]", spelling)), known) for spelling, known in spellings
                 if set(re.split(r"[_/]", spelling)) <= words]
    if contained:
        most = max(size for size, _ in contained)
        best = set(known for size, known in contained if size == most)
        if len(best) == 1:
            return by_stem[best.pop()]
    close = difflib.get_close_matches(stem, list(by_stem), n=1, cutoff=0.75)
    return by_stem[close[0]] if close else ""


#: At most this many uploaded names are listed (each with its did-you-mean) when nothing could be scored.
SHOWN_NAMES = 10


def nothing_found(names, prefix, expected, declared, aliases):
    """The text of the NothingToScore of :func:`find_named_files`: the expected names, and the names found (at
    most :data:`SHOWN_NAMES`, each cut and escaped, with the closest expected name or why it is not scored).

    >>> print(nothing_found(["lid_spaeng.txt", "notes.md"], "", ["lid_spa_eng.txt"], ["lid_spa_eng.txt"], {}))
    no expected file was found in the submission (expected names: lid_spa_eng.txt). It holds 2 files: lid_spaeng.txt (did you mean lid_spa_eng.txt?), notes.md (no expected name is close).
    """
    text = "no expected file was found in the submission (expected names: %s)." % ", ".join(sorted(expected))
    if not names:
        return text + " It holds no file."
    shown = []
    for name in names[:SHOWN_NAMES]:
        rel = name[len(prefix):] if prefix and name.startswith(prefix) else name
        if rel in declared:
            note = "not scored in this phase"
        else:
            guess = suggest_name(rel, declared, aliases)
            why = naming.name_fault(rel, guess) if guess else naming.compressed_why(rel)
            note = "did you mean %s?" % guess if guess else "no expected name is close"
            note = "%s; %s" % (why, note) if why else note
        shown.append("%s (%s)" % (printable(name, 80), note))
    more = len(names) - len(shown)
    return "%s It holds %d file%s: %s%s." % (text, len(names), "" if len(names) == 1 else "s", ", ".join(shown),
                                              " and %d more" % more if more else "")


def _wrapping_prefix(names, expected):
    """The one wrapping folder to strip ("name/"), or "" when the files are at the root."""
    if any("/" not in name for name in names) or not names:
        return ""
    tops = set(name.split("/", 1)[0] for name in names)
    if len(tops) != 1:
        return ""
    prefix = tops.pop() + "/"
    return prefix if any(name[len(prefix):] in expected for name in names) else ""


def _unexpected_file(rel, declared, aliases):
    """The message for a file ``rel`` that is none of the ``declared`` names (with a did-you-mean)."""
    guess = suggest_name(rel, declared, aliases)
    why = naming.name_fault(rel, guess) if guess else naming.compressed_why(rel)
    hint = " Did you mean %s?" % guess if guess else ""
    where = "(paths from the root of the zip)" if "/" in declared[0] else "at the root of the zip"
    return Message(rel, WARNING, "layout", "unexpected file (ignored)%s; expected files named like %s %s.%s"
                   % (": " + why if why else "", declared[0], where, hint))


def find_named_files(source, competition, pairs, messages, known_documents=None):
    """Recognise the files of ``source`` against the declared names of the scored ``pairs``.

    ``known_documents``: a function giving the phase's document names (read only when no per-document file is
    found, for the did-you-mean of :func:`document_name_hint`), or None.

    Returns a :class:`~evalkit.layout.Submission` (``files[(task folder, lang)] = path``); every other
    name gets a message (did-you-mean, or "not scored in this phase"), up to
    :data:`~evalkit.layout.MAX_LISTED_NAMES` of each kind and then one with the count of the others
    (:class:`~evalkit.layout.IgnoredNames`). Raises NothingToScore when no expected file is present.
    """
    expected = dict((submission_name(competition, task, lang), (task.folder, lang)) for task, lang in pairs)
    declared = [submission_name(competition, task, lang) for task, lang in _all_pairs(competition)]
    aliases = getattr(competition, "NAME_ALIASES", {})
    names = [n for n in source.names() if not _is_junk(n) and n not in ROOT_IGNORED]
    files = {}
    ignored = IgnoredNames(messages)
    seconds = OrderedDict()
    documents, names = _claim_documents(names, pairs, files, ignored, seconds)
    patterns = [task.documents for task, _ in pairs if getattr(task, "documents", None)]
    if patterns and len(patterns) == len(pairs):   # only per-document files are expected: one message for the rest
        _unmatched_documents(names, patterns[0], messages, known_documents)
        ignored.close()
        if not documents:
            raise NothingToScore("no file named like %s was found in the submission (%d file(s) found%s). %s"
                                 % (patterns[0].replace("{doc}", "<doc>"), len(names),
                                    (": " + _listed(names)) if names else "", document_name_hint(
                                        names, patterns[0], known_documents() if known_documents else None)))
        names = []
    prefix = _wrapping_prefix(names, expected)
    if prefix:
        messages.append(Message(prefix, WARNING, "layout", "the files are inside the folder '%s'; they must be at "
                                "the root of the zip. Scored anyway; zip the files themselves next time." % prefix))
    for name in names:
        rel = name[len(prefix):] if name.startswith(prefix) else name
        if rel in expected:
            files[expected[rel]] = rel
        elif rel in declared:
            ignored.add("files not scored in this phase", rel, INFO,
                        lambda: Message(rel, INFO, "layout", "%s is not scored in this phase (ignored)" % rel))
        else:
            ignored.add("unexpected files", rel, WARNING, lambda: _unexpected_file(rel, declared, aliases))
    ignored.close()
    if not files:
        raise NothingToScore(nothing_found(names, prefix, expected, declared, aliases))
    submission = Submission(source, prefix, files, messages)
    submission.documents = documents
    submission.second_files = dict((doc, name) for name, (doc, _) in reversed(list(seconds.items())))
    return submission


# --------------------------------------------------------------------------- reading text

def _text_lines(data, name, max_bytes, log=None):
    """The lines of UTF-8 ``data`` (``\\r`` dropped); DataError when too large, not UTF-8 or empty.

    A text whose lines end with a carriage return alone (classic Mac OS; no ``\\n`` at all) is split at the
    ``\\r``: read as it was meant, with one warning in ``log`` (a MessageLog) when one is given.
    """
    if len(data) > max_bytes:
        raise DataError(name, "", "the file is %d bytes; at most %d are accepted for this dataset"
                        % (len(data), max_bytes))
    text = decode_utf8(data, name)
    if not text or text.isspace():
        raise DataError(name, "", "the file is empty; expected one label per line")
    if "\n" not in text and "\r" in text.rstrip("\r"):
        text = text.replace("\r", "\n")
        if log is not None:
            log.add(WARNING, "line 1", "the lines end with a carriage return alone (CR, the line end of classic "
                    "Mac OS), not a line feed: read as line ends, nothing lost. Save the file with LF (\\n) "
                    "line ends", kind="lines ended by CR alone")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _is_comment(line):
    """Whether ``line`` is a sentence header (``# sent_enum = 3``); tokens such as ``#`` or ``#tag`` are not."""
    return line.startswith("# sent_enum")


# --------------------------------------------------------------------------- what table writers add

#: :func:`table_habits` reads the columns of a file's first this many non-blank lines.
TABLE_SAMPLE = 200
#: The column separators of a table writer: tab, comma (CSV), semicolon (a spreadsheet's CSV in a decimal-comma
#: locale), spaces (``DataFrame.to_string``, a printed table: columns aligned with runs of spaces), in the order
#: they are tried.
TABLE_SEPARATORS = ("\t", ",", ";", " ")
#: A column is a table's index when at least this share of the sampled rows hold the row number there.
INDEX_SHARE = 0.9


def _unquoted(field):
    """``field`` without the double quotes of a CSV writer (``'"a""b"'`` -> ``'a"b'``), stripped.

    >>> _unquoted(' "lang1" '), _unquoted('""'), _unquoted('lang1')
    ('lang1', '', 'lang1')
    """
    field = field.strip()
    if len(field) >= 2 and field[0] == field[-1] == '"':
        return field[1:-1].replace('""', '"').strip()
    return field


def _index_columns(rows, sep):
    """How many leading columns of ``rows`` (``[(line number, fields)]``) are a table's index (the row number,
    counted on from one row to the next, restarting at 0 when each sentence was written as its own table): 0, 1 or 2
    (a table read back without its index and written again keeps the old index as a column, ``Unnamed: 0``)."""
    if sep is None:   # a line of digits alone is a label id, not an index
        return 0
    found = 0
    for column in (0, 1):
        values = [fields[column].strip() if len(fields) > column else "" for _, fields in rows]
        numbers = [int(v) for v in values if v.isdigit() and len(v) < 10]
        counted = sum(1 for a, b in zip(numbers, numbers[1:]) if b == a + 1 or b == 0)
        wider = sum(1 for _, fields in rows if len(fields) > column + 1)   # something after the column
        if len(numbers) < INDEX_SHARE * len(rows) or counted < INDEX_SHARE * (len(numbers) - 1) or \
                wider * 2 < len(rows):
            break
        found += 1
    return found


def _sep_join(fields, sep):
    """A row's ``fields`` joined again by their separator (two spaces for columns aligned with spaces)."""
    return (sep if sep != " " else "  ").join(fields)


def table_habits(lines, allowed, extra):
    """What a table writer (pandas' ``DataFrame.to_csv`` and ``to_string``, Python's csv module, a spreadsheet's CSV
    export) added to the labels of ``lines`` (the file's lines; ``allowed``: the label set; ``extra``: how many more
    labels the file holds than the input has items), as a dict, or None when nothing of the kind is found:

    - ``sep``: the column separator, when most lines hold one (``"\\t"``, ``","``, ``";"``, or ``" "`` for columns
      aligned with spaces);
    - ``header``: ``(line number, text, how many blocks start with it)``: a first line that is no label, with its
      empty index column name (``"\\tlabel"``) or in a file longer than the input, and whose other lines are labels;
    - ``index``: ``(columns, line number, text)``: leading columns holding the row number (0, 1, 2, ...);
    - ``empty``: ``(count, line number, text)``: rows with nothing after the index (``"4\\t"``), or the ``""`` a CSV
      writer writes for an empty row of one column: the blank lines between sentences written as rows, read as labels;
    - ``quoted``: ``(count, line number, text)``: labels in double quotes;
    - ``single``: True when the rows hold one column after the index (the labels alone).

    Read only when something is already wrong (labels outside the set, or a misalignment): a sample of lines, then one
    pass for the empty and quoted rows when a table was recognised.

    >>> found = table_habits(["\\tlabel", "0\\tlang1", "1\\tother", "2\\t", "3\\tlang2"], {"lang1", "lang2", "other"}, 2)
    >>> found["header"], found["index"][:2], found["empty"][:2]
    ((1, '\\tlabel', 1), (1, 2), (1, 4))
    """
    rows = [(number, line) for number, line in enumerate(lines, 1) if line.strip() and not _is_comment(line)]
    if len(rows) < 2:
        return None
    sample = rows[:TABLE_SAMPLE]
    sep = next((s for s in TABLE_SEPARATORS if sum(1 for _, line in sample if s in line) * 2 > len(sample)), None)
    split = (lambda line: line.split()) if sep == " " else (lambda line: line.split(sep)) if sep else (
        lambda line: [line])
    head_number, head = sample[0]
    first = split(head)
    # the rows after the first line, less those that repeat it (a header at the start of each block)
    body = [(number, split(line)) for number, line in sample[1:] if line != head] or \
        [(number, split(line)) for number, line in sample[1:]]
    columns = _index_columns(body, sep)
    header = None
    if _unquoted(first[-1]) not in allowed and (extra > 0 or len(first) > 1 and not first[0].strip()) and \
            sum(1 for _, fields in body if not any(map(_unquoted, fields[columns:])) or
                _unquoted(fields[-1]) in allowed) >= INDEX_SHARE * len(body):
        header = (head_number, head, sum(1 for _, line in rows if line == head))
    index = None
    if columns:
        number, fields = body[0] if header else (head_number, first)
        index = (columns, number, _sep_join(fields, sep))
    empty, quoted_rows, widths = [0, None, None], [0, None, None], Counter()
    if header or index or sep in (",", ";") or any(line.strip()[:1] == '"' for _, line in sample):
        for number, line in rows:
            if header and line == head:
                continue
            fields = split(line)[columns:]
            widths[len(fields)] += 1
            if not any(_unquoted(field) for field in fields):
                empty = [empty[0] + 1, empty[1] or number, empty[2] or line]
            elif fields[-1].strip()[:1] == '"' and _unquoted(fields[-1]) in allowed:
                quoted_rows = [quoted_rows[0] + 1, quoted_rows[1] or number, quoted_rows[2] or line]
    if not (header or index or empty[0] or quoted_rows[0] or sep in (",", ";") and widths and
            max(widths.values()) >= INDEX_SHARE * sum(widths.values()) and max(widths, key=widths.get) > 1):
        return None
    return {"sep": sep, "header": header, "index": index, "empty": tuple(empty) if empty[0] else None,
            "quoted": tuple(quoted_rows) if quoted_rows[0] else None,
            "single": bool(widths) and max(widths, key=widths.get) == 1}


def table_message(habits, sentence_level=False):
    """The text of the one message about what a table writer added (:func:`table_habits`): each habit with its first
    line, and the one-line fix (``sentence_level``: one label per sentence, no blank line between them)."""
    parts = []
    header, index, empty, quoted_rows, sep = (habits["header"], habits["index"], habits["empty"], habits["quoted"],
                                              habits["sep"])
    if header:
        parts.append("a header row (line %d: %s%s; header=False leaves it out)" % (
            header[0], quoted(header[1], 60), (", and at the start of %d blocks in all: each sentence written as a "
                                               "table of its own" % header[2]) if header[2] > 1 else ""))
    if index:
        parts.append("%s (each line starts with its row number: line %d, %s; index=False leaves it out)" % (
            "an index column" if index[0] == 1 else "two index columns (a table read back with read_csv keeps its "
            "old index as a column, 'Unnamed: 0', and writing it again adds another)", index[1], quoted(index[2], 60)))
    if sep in (",", ";", " "):
        parts.append("columns %s (a label is read after a line's last tab, so each whole line is read as one label)" % (
            "separated by commas" if sep == "," else "separated by semicolons" if sep == ";" else
            "aligned with spaces, as DataFrame.to_string or print(df) writes them"))
    if empty:
        parts.append("the blank line after each sentence written as a row (%s line%s such as line %d, %s), so no "
                     "line is blank where a sentence ends" % ("{:,}".format(empty[0]), "" if empty[0] == 1 else "s",
                                                              empty[1], quoted(empty[2], 60)))
    if quoted_rows:
        parts.append("labels in double quotes (%s line%s such as line %d, %s: the quotes are read as part of the "
                     "label)" % ("{:,}".format(quoted_rows[0]), "" if quoted_rows[0] == 1 else "s", quoted_rows[1],
                                 quoted(quoted_rows[2], 60)))
    fix = "df.to_csv(path, sep='\\t', index=False, header=False%s)" % (
        ", quoting=csv.QUOTE_NONE" if quoted_rows else "")
    if empty and habits["single"]:
        fix += (", and the blank lines written as blank lines (a CSV writer writes an empty row of one column as "
                "\"\": write the file as text, e.g. handle.write('\\n'.join(labels) + '\\n\\n') for each sentence)")
    return ("the file looks written by a table writer (pandas' DataFrame.to_csv, Python's csv module, a spreadsheet's "
            "CSV export): %s. The scorer reads one label per line, so these lines and columns are read as labels that "
            "never match or that shift the labels after them. Write the labels alone, one per line%s: %s" % (
                _alternatives_and(parts), "" if sentence_level else ", a blank line after each sentence", fix))


def _alternatives_and(parts):
    """``parts`` joined as a phrase: "a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else "%s and %s" % (", ".join(parts[:-1]), parts[-1])


def table_where(habits):
    """The position of the message of :func:`table_message`: the first line a habit shows on."""
    numbers = [found[0] if key == "header" else found[1] for key, found in habits.items()
               if key in ("header", "index", "empty", "quoted") and found]
    return "line %d" % min(numbers) if numbers else "line 1"


class Reference(object):
    """A parsed reference: sentences of ``(tokens, gold)`` and where each sentence starts."""

    #: Whether the reference's sentences open with a ``# sent_enum`` line, as the input files' do.
    headed = False

    def __init__(self, sentences, first_lines, labels, size, lang=None):
        self.lang = lang
        self.sentences = sentences
        self.first_lines = first_lines
        self.labels = labels
        self.size = size

    def __len__(self):
        return len(self.sentences)


def parse_reference_text(data, name, labels, sentence_level, redacted=False):
    """Parse reference text (see the module docstring) into a :class:`Reference`; DataError when broken.

    Token level: gold = the last tab-separated field of each token line. Sentence level: gold = the
    field after the ``# sent_enum = N`` comment. Every gold label must be in ``labels``. With ``redacted`` (a
    test phase's part, :mod:`evalkit.split`), a redacted gold is None: a token line without a label (the token
    alone, as in the test input), a ``# sent_enum`` line without a label.
    """
    lines = _text_lines(data, name, len(data))
    sentences, first_lines = [], []
    tokens, golds, meta, start = [], [], None, None
    headed = False
    for number, line in enumerate(lines + [""], 1):
        if not line.strip():
            if tokens:
                gold = golds if not sentence_level else meta
                if sentence_level and meta is None and not redacted:
                    raise DataError(name, "line %d" % start, "the sentence has no label after its '# sent_enum' line")
                sentences.append((tokens, gold))
                first_lines.append(start)
            tokens, golds, meta, start = [], [], None, None
            continue
        start = start or number
        if _is_comment(line):
            headed = True
            fields = line.split("\t")
            meta = fields[-1].strip() if len(fields) > 1 else meta
            if sentence_level and meta is not None and meta not in labels:
                raise DataError(name, "line %d" % number, "gold label %r is not one of %s" % (meta, ", ".join(labels)))
            continue
        fields = line.split("\t")
        tokens.append(fields[0])
        if not sentence_level:
            if redacted and len(fields) == 1:
                golds.append(None)
                continue
            if len(fields) < 2 or fields[-1] not in labels:
                raise DataError(name, "line %d" % number, "expected token<TAB>gold label with a label among %s, got %r"
                                % (", ".join(labels), line[:80]))
            golds.append(fields[-1])
    if not sentences:
        raise DataError(name, "", "no sentence found")
    ref = Reference(sentences, first_lines, tuple(labels), len(data))
    ref.headed = headed
    return ref


def _label_blocks(lines, token_column=False):
    """Group prediction lines into blocks of ``(line number, label)`` separated by blank lines; return them and the
    number of the first line whose tab-separated fields :func:`_tabs_warning` speaks of (or None), and the empty
    blocks (``(index of the block they stand before, line)``: a blank line after a blank line, or before the first
    label).

    Of a line with tabs the last field is the label. A task that declares ``token_column`` (the CoNLL form
    ``token<TAB>label``) takes two fields silently; otherwise (or with more fields) the first such line gets one
    warning for the file.
    """
    blocks, block, tabs, first_tabs = [], [], 0, None
    empties, blank = [], 0   # empty blocks: (index of the block they stand before, the line), see _with_empty_blocks
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            if block:
                blocks.append(block)
            elif blank or not blocks:   # a second blank line in a row, or a blank line before the first label
                empties.append((len(blocks), number))
            blank += 1
            block = []
            continue
        blank = 0
        if _is_comment(line):
            continue
        if "\t" in stripped:
            declared = token_column and stripped.count("\t") == 1
            tabs += 0 if declared else 1
            if tabs == 1 and not declared:
                first_tabs = number
            stripped = stripped.rsplit("\t", 1)[-1].strip()
        block.append((number, stripped))
    if block:
        blocks.append(block)
    return blocks, first_tabs, empties


class EmptyBlock(list):
    """A sentence written with no labels: two blank lines in a row (or a blank line opening the file), at ``line``."""

    def __init__(self, line):
        list.__init__(self)
        self.line = line


def _with_empty_blocks(blocks, empties, lengths):
    """``blocks`` with an :class:`EmptyBlock` at each of ``empties`` (``(index, line)`` from :func:`_label_blocks`) when
    the file's blocks and empty blocks are then as many as the input's sentences (``lengths``) and the labels are not
    as many as the tokens (paired in order then, whatever the blank lines); else ``blocks`` unchanged: a sentence
    written as an empty block is read as that sentence with no labels, not as a missing line that shifts the rest.

    >>> [len(b) for b in _with_empty_blocks([[1], [2]], [(1, 3)], [1, 2, 1])]
    [1, 0, 1]
    >>> _with_empty_blocks([[1], [2]], [(1, 3)], [1, 1])
    [[1], [2]]
    """
    if not empties or len(blocks) + len(empties) != len(lengths) or \
            sum(len(block) for block in blocks) == sum(lengths):
        return blocks
    out, at = [], dict()
    for index, line in empties:
        at.setdefault(index, []).append(line)
    for index in range(len(blocks) + 1):
        out.extend(EmptyBlock(line) for line in at.get(index, ()))
        if index < len(blocks):
            out.append(blocks[index])
    return out


def _empty_block_where(block):
    """Where the empty ``block`` (an :class:`EmptyBlock`) stands, as words."""
    return ("two blank lines in a row at line %d" % block.line if block.line > 1
            else "the file opens with a blank line")


def _tabs_warning(log, number):
    """The one warning of a file whose line ``number`` (None: no such line) has several tab-separated fields."""
    if number is not None:
        log.add(WARNING, "line %d" % number, "the line has several tab-separated fields; the last one was taken as "
                "the label (submit the label alone)")


def _sentence_where(ref, si, block=None):
    """Position of sentence ``si`` (0-based): its number, and the line of the file where it starts."""
    line = " (line %d of the file)" % block[0][0] if block else ""
    return "sentence %d%s" % (si + 1, line)


def align_blocks(blocks, lengths):
    """Pair label blocks with sentences of ``lengths`` tokens; return ``(per sentence labels or None, first bad)``.

    Equal totals: labels are paired in order whatever the blank lines (first bad = the first sentence
    whose block differs, or None). Otherwise, same number of blocks: block by block, a block of the
    wrong length gives None. Otherwise: the sentences before the first block of the wrong length and
    after the last one (counted from the end) are paired; the rest are None.

    >>> align_blocks([[1, 2], [3]], [2, 1])
    ([[1, 2], [3]], None)
    >>> align_blocks([[1, 2, 3]], [2, 1])
    ([[1, 2], [3]], 0)
    >>> align_blocks([[1], [2, 3], [4]], [2, 2, 1])
    ([None, [2, 3], [4]], 0)
    >>> align_blocks([[1, 2], [3, 4], [5]], [2, 1, 2, 1])
    ([[1, 2], None, [3, 4], [5]], 1)
    """
    sizes = [len(block) for block in blocks]
    first_bad = next((i for i, (a, b) in enumerate(zip(sizes, lengths)) if a != b),
                     None if len(sizes) == len(lengths) else min(len(sizes), len(lengths)))
    if sum(sizes) == sum(lengths):
        flat = [item for block in blocks for item in block]
        out, pos = [], 0
        for length in lengths:
            out.append(flat[pos:pos + length])
            pos += length
        return out, first_bad
    if len(sizes) == len(lengths):
        return [block if len(block) == length else None for block, length in zip(blocks, lengths)], first_bad
    head = first_bad
    tail = 0
    while tail < min(len(sizes), len(lengths)) - head and sizes[-1 - tail] == lengths[-1 - tail]:
        tail += 1
    out = [blocks[i] for i in range(head)] + [None] * (len(lengths) - head - tail)
    out += [blocks[len(blocks) - tail + i] for i in range(tail)]
    return out, first_bad


#: At most this many distinct labels outside the label set are described in a file's message, each with at
#: most this many line numbers.
SHOWN_LABELS = 5
SHOWN_LINES = 3


#: How a table writer or a program writes a missing value as text (pandas' NaN and NA, Python's None, JSON's null).
MISSING_VALUES = frozenset(("nan", "NaN", "NAN", "None", "none", "null", "NULL", "<NA>", "NA", "N/A", "n/a"))


def guess_label(label, labels, aliases=None):
    """The label of ``labels`` that ``label`` most likely means, or "": the same label in another case, a declared
    alias (``aliases``: ``{spelling lower-cased: label}``), else the closest spelling.

    >>> guess_label("Lang1", ["lang1", "lang2"]), guess_label("eng", ["lang1"], {"eng": "lang1"})
    ('lang1', 'lang1')
    >>> guess_label("", ["lang1"]), guess_label("B-PRE", ["O", "B-PER"]), guess_label("None", ["ne"])
    ('', 'B-PER', '')
    """
    key = unicodedata.normalize("NFKC", label).strip().lower()   # full-width letters, ligatures: their plain form
    if not key:
        return ""
    lowered = dict((choice.lower(), choice) for choice in labels)
    found = lowered.get(key) or (aliases or {}).get(key)
    if found or label in MISSING_VALUES:   # a missing value written as text is no spelling of a label
        return found or ""
    ptb = upos_of_ptb(label, labels)   # a Penn Treebank tag where the label set is UPOS: its tag, never a spelling
    if ptb:
        return ptb
    close = difflib.get_close_matches(label[:100], list(labels), n=1, cutoff=0.6)
    return close[0] if close else ""


def _alternatives(names):
    """``names`` as a phrase: "a", "a or b", "a, b or c", "a, b or 2 others".

    >>> _alternatives(["a"]), _alternatives(["a", "b", "c"]), _alternatives(["a", "b", "c", "d"])
    ('a', 'a, b or c', 'a, b or 2 others')
    """
    if len(names) > 3:
        return "%s or %d others" % (", ".join(names[:2]), len(names) - 2)
    return " or ".join(names) if len(names) < 3 else "%s, %s or %s" % tuple(names)


def _other_label_set(bad, flat_count, own, label_sets):
    """The other datasets (a phrase) whose label set holds most of the labels outside ``own``'s (``bad``: a
    Counter), when these are at least half of the file's ``flat_count`` labels; else ""."""
    outside = sum(bad.values())
    if outside * 2 < flat_count:
        return ""
    counts = OrderedDict((name, sum(n for label, n in bad.items() if label in set(labels)))
                         for name, labels in label_sets.items() if name != own)
    best = max(counts.values()) if counts else 0
    if best * 2 < outside:
        return ""
    return _alternatives([name for name, count in counts.items() if count == best])


def _check_labels(flat, labels, log, task=None, lang=None, tokens=None, table=None):
    """Report the predicted labels outside ``labels`` in one message (count, first lines, did-you-mean); return
    the set of them (they never match).

    ``tokens``: a function giving the input's tokens in order (one per label line), called only when labels are
    outside the set: when most of those are the input's own tokens at their lines, the message says the file
    holds the tokens. ``table``: the position of the message about what a table writer added (:func:`table_habits`),
    or None: the labels outside the set are then said to be its rows and columns, not given another shape's cause.

    ``task`` may carry ``label_aliases[lang]`` (other spellings, for the did-you-mean) and ``label_sets``
    (every dataset's label set by file name: a file holding another dataset's labels is told so); both are
    the declaration's, never the reference's.
    """
    allowed = set(labels)
    bad = Counter(label for _, label in flat if label not in allowed)
    if not bad:
        return set()
    lines = OrderedDict()
    for number, label in flat:
        if label in bad:
            seen = lines.setdefault(label, [])
            if len(seen) < SHOWN_LINES:
                seen.append(number)
    aliases = (getattr(task, "label_aliases", None) or {}).get(lang, {})
    label_sets = getattr(task, "label_sets", None) or {}
    parts, said = [], set()
    for label in list(lines)[:SHOWN_LABELS]:
        parts.append(_describe_label(label, bad[label], lines[label], labels, aliases, label_sets, log.file, said))
    more = len(bad) - len(parts)
    total = sum(bad.values())
    other = _other_label_set(bad, len(flat), log.file, label_sets)
    first = next(iter(lines.values()))[0]
    every = total == len(flat)   # not one label can match: the whole file scores 0 (an error, not a warning)
    shape = (" They are what the table writer added (see the message at %s)." % table) if table else (
        _line_shape_hint(bad, lines, allowed) or _tokens_hint(flat, bad, tokens() if tokens else None))
    chance = CHANCE_NOTE in shape   # the input's tokens on nearly every line: the few others match by chance at best
    log.add(ERROR if every or chance else WARNING, "line %d" % first, "%d label%s of %d (%d distinct) %s not in this "
            "dataset's label set and never match: %s%s.%s%s This dataset's labels: %s.%s" % (
                total, "" if total == 1 else "s", len(flat), len(bad), "is" if total == 1 else "are", "; ".join(parts),
                "; and %d more distinct label%s" % (more, "" if more == 1 else "s") if more else "",
                " Most of them are labels of %s: is this that dataset's file?" % other if other else "", shape,
                ", ".join(labels), (" Every label is outside the set: %s." % ZERO_NOTE) if every else ""),
            kind="label outside the label set")
    return set(bad)


#: When at least this share of a file's lines hold the input's own token at that line, the file is the input's tokens
#: (an error: the few other lines, tokens that happen to be labels, match by chance at best).
TOKENS_FILE_SHARE = 0.9


def _tokens_hint(flat, bad, tokens):
    """A sentence saying the file holds the input's tokens when at least half of its labels outside the set (``bad``,
    a Counter) are the token of the input (``tokens``, in order, or None) at their line; else "".

    >>> _tokens_hint([(1, "hola"), (2, "lang1"), (3, "amigo")], {"hola": 1, "amigo": 1}, ["hola", "x", "amigo"])[:79]
    " 2 of them are the input file's own tokens at their lines (e.g. line 1, 'hola')"
    """
    if not tokens or len(tokens) != len(flat):
        return ""
    same = [(number, label) for (number, label), token in zip_checked(flat, tokens) if label == token and label in bad]
    if not same or len(same) * 2 < sum(bad.values()):
        return ""
    nearly = len(same) >= TOKENS_FILE_SHARE * len(flat) and len(same) < len(flat)
    return (" %d of them are the input file's own tokens at their lines (e.g. line %d, %s): the file holds the tokens, "
            "not their labels (the columns mixed up?).%s" % (
                len(same), same[0][0], quoted(same[0][1], 40),
                " Only %d of %d lines hold something else, and those match by chance at best: %s." % (
                    len(flat) - len(same), len(flat), CHANCE_NOTE) if nearly else ""))


#: A label id as a system writes it: a number, a number written as a float (``2.0``), a Hugging Face model's default
#: label name (``LABEL_2``).
LABEL_ID = re.compile(r"(?:LABEL_)?[0-9]{1,9}(?:\.0*)?$", re.IGNORECASE)


def _line_shape_hint(bad, lines, allowed):
    """A sentence naming what the lines of labels outside the set hold when it is a shape, not a spelling ("" when
    not): JSON (the first starts with ``[`` or ``{``), several labels of the set on one line (separated by spaces,
    commas or semicolons: a sentence per line), or other words beside a label (``token label`` with a space, a
    label and its probability).
    ``bad``: a Counter of the labels outside the set; ``lines``: their first line numbers; ``allowed``: the set.

    >>> _line_shape_hint({"a b a": 2}, {"a b a": [1, 2]}, {"a", "b"})[:55]
    ' 2 lines hold several labels of the set (e.g. line 1: 3'
    """
    first = next(iter(lines))
    if first.lstrip()[:1] in ("[", "{"):
        return (" The file looks like JSON (line %d starts with %s): write plain text, one label per line and a blank "
                "line after each sentence." % (lines[first][0], quoted(first.lstrip()[:1])))
    numbers = sum(count for label, count in bad.items() if LABEL_ID.match(label))
    if numbers * 2 > sum(bad.values()) and not any(LABEL_ID.match(label) for label in allowed):
        label = next(label for label in lines if LABEL_ID.match(label))
        written = ("label ids in a Hugging Face model's default names, LABEL_<id> (e.g. line %d, %s: the names a "
                   "model gets when its config has no id2label)" if label[:1] in "Ll" else
                   "numbers written as floats (e.g. line %d, %s: ids kept in a float column or array)"
                   if "." in label else "numbers (e.g. line %d, %s)") % (lines[label][0], quoted(label, 20))
        return (" %d of them are %s: the system's label ids rather than the label names? Map each id to its label "
                "through the model's id-to-label table%s." % (
                    numbers, written, " (set the config's id2label from the training labels)" if label[:1] in "Ll"
                    else " (each id as an integer)" if "." in label else ""))
    bioes = _bioes_labels(bad, allowed)
    if bioes:
        label = next(label for label in lines if label in bioes)
        return (" %d of them open with S-, E-, L- or U- (e.g. line %d, %s): the BIOES (BILOU) scheme, while this "
                "dataset's is BIO: write S-X and U-X as B-X, E-X and L-X as I-X." % (
                    sum(bioes.values()), lines[label][0], quoted(label, 40)))
    several, worded = Counter(), Counter()
    for label, count in bad.items():
        words = [word.strip("\"'") for word in re.split(r"[\s,;]+", label.strip("[]() ")) if word.strip("\"'")]
        if len(words) > 1 and all(word in allowed for word in words):
            several[label] = count
        elif len(words) > 1 and (words[-1] in allowed or words[0] in allowed):
            worded[label] = count
    if several and sum(several.values()) >= sum(worded.values()):
        label = next(iter(several))
        return (" %d line%s hold%s several labels of the set (e.g. line %d: %d labels): write one label per line, one "
                "line per token, and a blank line after each sentence." % (
                    sum(several.values()), "" if sum(several.values()) == 1 else "s",
                    "s" if sum(several.values()) == 1 else "", lines[label][0], len(re.split(r"[\s,;]+", label))))
    if worded:
        label = next(iter(worded))
        return (" %d line%s hold%s other words beside a label (e.g. line %d, %s): write the label alone on each "
                "line." % (sum(worded.values()), "" if sum(worded.values()) == 1 else "s",
                                           "s" if sum(worded.values()) == 1 else "", lines[label][0],
                                           quoted(label, 40)))
    return ""


def _bioes_labels(bad, allowed):
    """The labels of ``bad`` (a Counter) written in the BIOES or BILOU scheme where ``allowed`` is BIO (``S-X``,
    ``E-X``, ``L-X``, ``U-X`` whose ``B-X`` is allowed), as a Counter, when they are at least half of ``bad``; else
    an empty Counter.

    >>> dict(_bioes_labels({"S-PER": 2, "E-LOC": 1, "x": 1}, {"O", "B-PER", "I-PER", "B-LOC", "I-LOC"}))
    {'S-PER': 2, 'E-LOC': 1}
    """
    found = Counter(dict((label, count) for label, count in bad.items()
                         if label[:2] in ("S-", "E-", "L-", "U-") and "B-" + label[2:] in allowed))
    return found if found and sum(found.values()) * 2 >= sum(bad.values()) else Counter()


#: A file of at least this many labels, all one label of the set, gets the constant-prediction warning.
CONSTANT_MIN_LABELS = 20


def check_degenerate(flat, bad, log, task):
    """Predictions that no system means, whatever the gold: one message per file.

    - A task scored by entity spans (``task.metric == "span_f1"``) whose file opens no span (no ``B-`` or ``I-``
      label of the set: every label ``O``, or outside the set): its span F1 is 0 whatever the gold, an error that
      says the file scores 0 (:data:`~evalkit.messages.ZERO_NOTE`).
    - Otherwise, a file of at least :data:`CONSTANT_MIN_LABELS` labels that are all one label of the set: a
      constant prediction (a model collapsed to one class, or a default label written on every line); a warning.

    ``flat``: the file's ``(line number, label)``; ``bad``: the labels outside the set (already reported, and a
    file of them alone is already an error). A C-level pass over the labels on the happy path.
    """
    labels = list(map(itemgetter(1), flat))
    if not labels or len(bad) and not (set(labels) - set(bad)):
        return
    if getattr(task, "metric", None) == "span_f1":
        joined = "\x00" + "\x00".join(label for label in labels if label not in bad) if bad else \
            "\x00" + "\x00".join(labels)
        if "\x00B-" in joined or "\x00I-" in joined:
            return
        outside = sum(1 for label in labels if label in bad)
        log.add(ERROR, "line %d" % flat[0][0], "not one entity is predicted (no B- or I- label of the set in %d "
                "labels%s): entity-span F1 is 0 whatever the gold, %s. Write B-<type> on the first token of each "
                "entity found and I-<type> on the tokens after it" % (
                    len(labels), "; the %d outside the label set, reported apart, never open one" % outside
                    if outside else "", ZERO_NOTE), kind="no entity predicted")
        return
    if len(labels) < CONSTANT_MIN_LABELS or labels.count(labels[0]) != len(labels) or labels[0] in bad:
        return
    log.add(WARNING, "line %d" % flat[0][0], "every one of the %d labels is %s: a constant prediction (a model "
            "collapsed to one class, or one default label written on every line) scores as a majority baseline at "
            "best. Check that the system's predictions were written" % (len(labels), quoted(labels[0], 40)),
            kind="constant prediction")


#: Spans opened by ``I-`` are reported when at least this share of the predicted spans is (a few are the usual
#: slips of a tagger; most of them is a file written in the IO or IOB1 scheme).
I_OPENING_SHARE = 0.5


def check_span_openings(blocks, flat, log):
    """One warning when at least :data:`I_OPENING_SHARE` of the entity spans of a BIO file open with ``I-X`` (after
    ``O``, at a sentence start or after another type) rather than ``B-X``: the file is written in the IO or IOB1
    scheme. Read as conlleval does, such an ``I-`` still opens a span, but two entities of one type side by side
    (``I-PER I-PER``) are one span, so both are lost; the gold writes ``B-`` on every entity's first token.
    ``blocks``: the file's sentences of ``(line number, label)``; ``flat``: the same items in one list. A file
    without an ``I-`` label costs one C-level scan."""
    if "\x00I-" not in "\x00" + "\x00".join(map(itemgetter(1), flat)):
        return
    spans = opened = 0
    lines = []
    for block in blocks:
        previous = "O"
        for number, label in block:
            head = label[:2]
            if head == "B-" or (head == "I-" and (previous[:2] not in ("B-", "I-") or previous[2:] != label[2:])):
                spans += 1
                if head == "I-":
                    opened += 1
                    if len(lines) < SHOWN_LINES:
                        lines.append(number)
            previous = label
    if not opened or opened < I_OPENING_SHARE * spans:
        return
    log.add(WARNING, "line %d" % lines[0], "%d of %d entity spans open with I- rather than B- (lines %s%s): the file "
            "looks written in the IO or IOB1 scheme. The gold is BIO (B- on the first token of every entity); an I- "
            "after O still opens a span, but two entities of one type side by side (I-PER I-PER) are read as ONE "
            "span, and both are lost. Write B- on each entity's first token." % (
                opened, spans, ", ".join(map(str, lines)), ", ..." if opened > len(lines) else ""),
            kind="spans opened by I-")


def _describe_label(label, count, numbers, labels, aliases, label_sets, own, said=None):
    """One label outside the set, for :func:`_check_labels`: shown, count, first lines, and a hint (``said``: the
    hints on odd characters given already, each said once)."""
    shown = "'' (an empty label)" if not label else quoted(label, 60)
    where = "line%s %s%s" % ("" if len(numbers) == 1 else "s", ", ".join(str(n) for n in numbers),
                             ", ..." if count > len(numbers) else "")
    guess = guess_label(label, labels, aliases)
    if guess:
        odd = _odd_characters(label)
        if said is not None and odd:
            odd, _ = ("", None) if odd in said else (odd, said.add(odd))
        hint = "; did you mean %r?%s" % (guess, odd)
    elif label in MISSING_VALUES:
        hint = "; a missing value written as text (pandas' NaN, Python's None): a token left without a prediction?"
    else:
        home = _alternatives([name for name, held in label_sets.items() if name != own and label in held])
        hint = "; a label of %s" % home if home else ""
    return "%s %s (%s%s)" % (shown, "once" if count == 1 else "%d times" % count, where, hint)


def _odd_characters(label):
    """Words naming the characters of ``label`` a reader cannot see or tell from ASCII (a byte-order mark, a fullwidth
    or other compatibility form), with their fix, or "".

    >>> _odd_characters("\ufefflang1")[:50]
    ' It opens with a byte-order mark (U+FEFF, invisibl'
    >>> _odd_characters("lang\uff11")
    " It holds the fullwidth character '\uff11' (U+FF11 FULLWIDTH DIGIT ONE) for '1': write it in ASCII"
    """
    if "\ufeff" in label:
        return (" It %s a byte-order mark (U+FEFF, invisible: each chunk written with encoding='utf-8-sig', or files "
                "joined that each began with one?): write the file once, with encoding='utf-8'" % (
                    "opens with" if label.startswith("\ufeff") else "holds"))
    odd = [c for c in label if unicodedata.normalize("NFKC", c) != c]
    if not odd:
        return ""
    c = odd[0]
    name = unicodedata.name(c, "")
    return " It holds the %s character %s (U+%04X%s) for %s: write it in ASCII" % (
        "fullwidth" if "FULLWIDTH" in name else "compatibility", quoted(c), ord(c), " " + name if name else "",
        quoted(unicodedata.normalize("NFKC", c)))


def _table_said(lines, labels, flat, extra, misaligned, log, sentence_level=False):
    """Say what a table writer added to the file (:func:`table_habits`) in one error, when something is already wrong
    (``misaligned``, or a label of ``flat`` outside ``labels``); return the message's position, or None when nothing
    of the kind was found. ``extra``: how many more labels the file holds than the input has items."""
    if not misaligned and not set(map(itemgetter(1), flat)) - set(labels):
        return None
    habits = table_habits(lines, set(labels), extra)
    if habits is None:
        return None
    where = table_where(habits)
    log.add(ERROR, where, table_message(habits, sentence_level), kind="what a table writer added")
    return where


class Prediction(list):
    """A file's predicted labels (per sentence, or per post), with ``renamed`` (:func:`renaming`) when labels outside
    the label set have a did-you-mean: what the file would hold with them renamed, priced where the gold is public;
    and ``table``, the position of the message about what a table writer added (:func:`_table_said`), or None."""

    renamed = None
    table = None
    #: A file written twice whose copies differ (:func:`second_copy`), with ``mended``: the labels per sentence with
    #: the second copy read instead of the first.
    second_copy = None
    #: Blocks one sentence late or early (:func:`blocks_shift`), with ``mended``: each block read for its sentence.
    blocks_shifted = None


#: :func:`renaming` prices a file whose labels outside the set are at most this many distinct labels per label of the
#: set (a renaming of the label set; more are not one).
RENAMED_DISTINCT_RATIO = 3
#: A priced mistake is said when mending it raises the file's score by at least this much.
PRICE_MIN_GAIN = 0.01
#: At most this many renamings are named in a priced message.
SHOWN_RENAMINGS = 4


def renaming(bad, flat, task, lang, labels, apply):
    """``{"map": [[label outside the set, the label it stands for], ...], "count": lines renamed, "mended": apply(map
    as a dict)}`` for the labels of ``bad`` (outside ``labels``) that have a did-you-mean (:func:`guess_label` with the
    task's aliases: letter case, another spelling such as an ISO code, a scheme's other prefix), most frequent first;
    None when none has one or they are too many to be a renaming (:data:`RENAMED_DISTINCT_RATIO`). ``flat``: the
    file's ``(line number, label)``; ``apply``: the file's labels with a map applied. Computed only when labels are
    outside the set; priced against the gold by the kind's ``score``."""
    if len(bad) > RENAMED_DISTINCT_RATIO * len(labels):
        return None
    counts = Counter(label for _, label in flat if label in bad)
    aliases = (getattr(task, "label_aliases", None) or {}).get(lang, {})
    rename = OrderedDict()
    for label, _ in counts.most_common():
        guess = guess_label(label, labels, aliases)
        if guess:
            rename[label] = guess
    if not rename:
        return None
    return {"map": [[printable(label, 40), guess] for label, guess in rename.items()],
            "count": sum(counts[label] for label in rename), "mended": apply(rename)}


def _priced(entry_score, mended_score, what):
    """``{"as_written", "mended", ...what}`` when mending raises the score by :data:`PRICE_MIN_GAIN` or more; else None."""
    if mended_score < entry_score + PRICE_MIN_GAIN:
        return None
    found = dict(what)
    found.update(as_written=entry_score, mended=mended_score)
    return found


def renamed_message(entry, renamed):
    """The message of a file whose labels outside the set a did-you-mean renames (``details["renamed"]``), priced."""
    shown = ", ".join("%s as %s" % (quoted(label, 40), quoted(guess, 40))
                      for label, guess in renamed["map"][:SHOWN_RENAMINGS])
    more = len(renamed["map"]) - SHOWN_RENAMINGS
    return Message(entry["file"], WARNING, "whole file", "%s of its labels are outside this dataset's label set, and "
                   "each has a label of the set it stands for. %s Rename them before writing the file%s." % (
                       "{:,}".format(renamed["count"]), price_text(renamed, "with them renamed (%s%s)%s" % (
                           shown, ", and %d more" % more if more > 0 else "", " and each run of B- labels of one type "
                           "read as one entity" if renamed.get("runs") else "")),
                       ", and write I-<type> on each token of an entity after its first" if renamed.get("runs")
                       else ""))


def second_copy_message(entry, copy):
    """The price of a file written twice whose copies differ (``details["second_copy"]``, :func:`second_copy`): the
    score of its first copy, as scored, and with the second copy read instead."""
    return Message(entry["file"], WARNING, "whole file", "the file was written twice and its copies differ (see the "
                   "error): its first copy was scored. %s Keep only the run you mean." % price_text(
                       copy, "with its second copy (the later run, in an appended file) read instead"))


def blocks_shifted_message(entry, shifted):
    """The price of blocks of labels one sentence late or early (``details["blocks_shifted"]``, :func:`blocks_shift`):
    the score as written and with each block read for the sentence it was written for."""
    return Message(entry["file"], WARNING, "whole file", "the blocks of labels stand one sentence %s from sentence %d "
                   "on (see the error there). %s" % (shifted["how"], shifted["first"] + 1, price_text(
                       shifted, "with each block read for the sentence it was written for")))


#: :func:`inside_lost` speaks when the gold has at least this many entities of more than one token, and this share of
#: its entities.
MULTI_TOKEN_MIN = 3
MULTI_TOKEN_SHARE = 0.05


def _runs_as_entities(sent):
    """A BIO sentence's labels with every ``B-X`` that follows a label of type X written ``I-X``: each run of one
    type read as one entity (what a file that writes B- on every token of an entity means).

    >>> _runs_as_entities(["B-PER", "B-PER", "O", "B-LOC", "B-PER"])
    ['B-PER', 'I-PER', 'O', 'B-LOC', 'B-PER']
    """
    out, previous = [], None
    for label in sent:
        if label is not None and label[:2] == "B-" and previous is not None and previous[:2] in ("B-", "I-") \
                and previous[2:] == label[2:]:
            out.append("I-" + label[2:])
        else:
            out.append(label)
        previous = label
    return out


def _entity_lengths(sents):
    """``(entities, of more than one token)`` of BIO sentences, read as :func:`evalkit.metrics.span_counts` reads
    them (an I- after O opens an entity)."""
    entities = multi = 0
    for sent in sents:
        previous, size = "O", 0
        for label in list(sent) + ["O"]:
            label = label or "O"
            if label[:2] == "I-" and previous[:2] in ("B-", "I-") and previous[2:] == label[2:]:
                size += 1
            else:
                if size:
                    entities += 1
                    multi += size > 1
                size = 1 if label[:2] in ("B-", "I-") else 0
            previous = label
    return entities, multi


def _without_inside(sents):
    """Whether the BIO sentences ``sents`` (None: a sentence or label not read) open entities (a B- label) and none
    spans more than one token (not one I- label). A C-level scan of the labels."""
    joined = "\x00" + "\x00".join(label for sent in sents if sent is not None for label in sent if label is not None)
    return "\x00B-" in joined and "\x00I-" not in joined


def _multi_token(gold_sents):
    """``(entities, of more than one token)`` of the gold when the multi-token ones are enough to say their inside is
    lost (:data:`MULTI_TOKEN_MIN`, :data:`MULTI_TOKEN_SHARE`); else None."""
    entities, multi = _entity_lengths(gold_sents)
    return (entities, multi) if multi >= MULTI_TOKEN_MIN and multi >= MULTI_TOKEN_SHARE * entities else None


def inside_lost(gold_sents, pred_sents, score, rescore):
    """``details["inside_lost"]`` of an entity file none of whose predicted entities spans more than one token (not
    one I- label) while the gold has multi-token entities (:func:`_multi_token`): the gold's entity counts, and the
    file priced with each run of B- labels of one type read as one entity (``rescore(pred_sents)``: the file's score
    for other predictions) when that reading scores more (:func:`_priced`); else None. A C-level scan on a file with
    an I- label."""
    counts = _multi_token(gold_sents) if _without_inside(pred_sents) else None
    if counts is None:
        return None
    what = {"gold_entities": counts[0], "gold_multi": counts[1]}
    return _priced(score, rescore([None if sent is None else _runs_as_entities(sent) for sent in pred_sents]),
                   what) or what


def inside_lost_message(entry, lost):
    """The message of an entity file that writes B- on every token of an entity (``details["inside_lost"]``)."""
    return Message(entry["file"], WARNING, "whole file", (
        "not one predicted entity spans more than one token (no I- label in the file), while %s of the development "
        "gold's %s entities do: B- written on every token of an entity? Each B- opens a new entity, so an entity of "
        "two tokens written B-PER B-PER counts as two wrong ones. Write I-<type> on each token of an entity after its "
        "first.%s" % ("{:,}".format(lost["gold_multi"]), "{:,}".format(lost["gold_entities"]), " " + price_text(
            lost, "with each run of B- labels of one type read as one entity") if "mended" in lost else "")))


class TextKind(object):
    """Base class of the line-aligned kinds: read text, parse against the reference, score."""

    name = None
    reads_text = True
    sentence_level = False
    #: Where the gold is public, two labels swapped throughout are said (evalkit/floor.py, from ``per_tag``).
    label_swaps = True

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        """The parsed :class:`Reference` of one reference file (``task.labels[lang]`` is its label set; ``redacted``:
        see :func:`parse_reference_text`)."""
        ref = parse_reference_text(data, name, task.labels[lang], self.sentence_level, redacted)
        ref.lang = lang
        return ref

    def restrict(self, ref, pred, indices):
        """The reference and prediction of the sentences ``indices`` alone (see :meth:`evalkit.kinds.Kind.restrict`)."""
        part = Reference([ref.sentences[i] for i in indices], [ref.first_lines[i] for i in indices], ref.labels,
                         ref.size, ref.lang)
        part.headed = ref.headed
        return part, [pred[i] for i in indices]

    def predictions(self, ref, pred):
        """The predicted labels of each sentence (None: it could not be aligned)."""
        return list(pred)

    def scorable(self, ref):
        """Every sentence is scored."""
        return list(range(len(ref)))

    def prediction_limit(self, ref, file_limit):
        """The largest prediction (bytes) accepted for ``ref``: a few times the reference, within the file limit."""
        return min(file_limit, MAX_PREDICTION_RATIO * ref.size + (1 << 20))

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        """Per reference sentence, its predicted labels (None: the sentence could not be aligned)."""
        raise NotImplementedError

    def gold_prediction(self, data, task, lang):
        """The submission file that predicts the gold of the reference bytes ``data`` (the conformance check's perfect
        submission, organiser/conformance.py): one label a line and a blank line after each sentence (a task that
        declares ``token_column``: ``token<TAB>label``), or one label a line per sentence at sentence level."""
        ref = self.parse_reference_text(data, "reference", task, lang)
        if self.sentence_level:
            return "".join("%s\n" % gold for _, gold in ref.sentences).encode("utf-8")
        column = getattr(task, "token_column", False)
        rows = []
        for tokens, golds in ref.sentences:
            if len(tokens) != len(golds):
                raise ValueError("a sentence of %d tokens with %d labels" % (len(tokens), len(golds)))
            rows.append("".join(("%s\t%s\n" % pair if column else "%s\n" % pair[1]) for pair in zip(tokens, golds)))
        return "\n".join(rows).encode("utf-8") + b"\n"

    def score_value(self, components):
        """The entry score: the first component, the dataset's official metric."""
        return next(iter(components.values())) if components else 0.0

    #: The priced mistakes of ``details`` (set by :meth:`score`) and the message of each (two labels swapped are said
    #: by :func:`evalkit.floor.swapped_labels`, with their price).
    PRICED = (("renamed", renamed_message), ("inside_lost", inside_lost_message),
              ("second_copy", second_copy_message), ("blocks_shifted", blocks_shifted_message))

    def public_gold_messages(self, entry, task):
        """The messages of the mistakes :meth:`score` priced against the gold (``details``: labels outside the set
        that a did-you-mean renames, entities without their inside), each with the score as written and mended, and
        :data:`evalkit.messages.LOSS_NOTE` when the mistake costs most of it. Only where the gold is public
        (:func:`evalkit.floor.public_gold_messages`)."""
        details = entry.get("details") or {}
        return [say(entry, details[key]) for key, say in self.PRICED if type(details.get(key)) is dict]

    def explains_score(self, entry):
        """Whether the messages of ``entry`` already say why it scores low: a mistake priced against the gold
        (:meth:`public_gold_messages`), what a table writer added (``details["table_writer"]``), or every sentence
        left unaligned (the alignment's errors); a floor's generic causes are then not given."""
        details = entry.get("details") or {}
        return any(type(details.get(key)) is dict for key in ("renamed", "inside_lost", "swapped", "second_copy",
                                                                  "blocks_shifted")) or \
            "table_writer" in details or 0 < entry.get("sentences", 0) <= entry.get("zeroed_sentences", 0)

    def _price(self, details, gold_sents, pred, pred_sents, task, labels, score):
        """Add to ``details`` what :meth:`public_gold_messages` says: ``pred``'s renamed labels (a
        :class:`Prediction`'s ``renamed``), two labels swapped throughout (``details["per_tag"]``,
        :func:`evalkit.floor.swapped_pairs`) and, for an entity task, an inside lost (:func:`inside_lost`), each
        priced (``score``: the file's score as written; ``gold_sents``, ``pred_sents``: the gold and the predictions
        per sentence, lists of labels; ``labels``: the label set); and where a table writer's additions were said
        (:class:`Prediction`)."""
        def rescore(sents):
            stats = sentence_statistics(gold_sents, [[None] * len(gold) if got is None else got
                                                     for gold, got in zip_checked(gold_sents, sents)],
                                        labels, task.components)
            return self.score_value(_file_components(self, stats, task))

        if getattr(pred, "table", None):
            details["table_writer"] = pred.table
        renamed = getattr(pred, "renamed", None)
        if renamed:
            mended, what = renamed["mended"], dict((k, renamed[k]) for k in ("map", "count"))
            if task.metric == "span_f1" and _without_inside(mended) and _multi_token(gold_sents):   # bare types
                mended, what["runs"] = [None if sent is None else _runs_as_entities(sent) for sent in mended], True
            found = _priced(score, rescore(mended), what)
            if found:
                details["renamed"] = found
        shifted = getattr(pred, "blocks_shifted", None)
        if shifted:
            found = _priced(score, rescore(shifted["mended"]), {"how": shifted["how"], "first": shifted["first"]})
            if found:
                details["blocks_shifted"] = found
        copy = getattr(pred, "second_copy", None)
        if copy:
            found = _priced(score, rescore(copy["mended"]), {"start": copy["start"], "blocks": copy["blocks"],
                                                             "differ": copy["differ"]})
            if found:
                details["second_copy"] = found
        pairs = swapped_pairs(details["per_tag"]) if self.label_swaps else []
        if pairs:
            swap = dict((a, b) for first, second, _, _ in pairs for a, b in ((first, second), (second, first)))
            found = _priced(score, rescore([None if sent is None else [swap.get(label, label) for label in sent]
                                            for sent in pred_sents]), {"pairs": [[a, b] for a, b, _, _ in pairs]})
            if found:
                details["swapped"] = found
        if task.metric == "span_f1":
            found = inside_lost(gold_sents, pred_sents, score, rescore)
            if found:
                details["inside_lost"] = found

    #: What a label stands for, one per line (see :meth:`expected_labels`).
    unit = "tokens"

    def expected_labels(self, ref):
        """How many labels a prediction for ``ref`` holds: one per token (one per sentence at sentence level)."""
        return len(ref) if self.sentence_level else sum(len(tokens) for tokens, _ in ref.sentences)

    def label_count(self, data):
        """How many labels the prediction text ``data`` (bytes) holds: its lines that are neither blank nor a
        ``# sent_enum`` comment (text that is not UTF-8 counts as none)."""
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return 0
        return sum(1 for line in text.split("\n") if line.strip() and not _is_comment(line))

    def block_lengths(self, data):
        """The number of labels of each block of the prediction text ``data`` (bytes), blocks being separated by
        blank lines (``# sent_enum`` comments skipped; text that is not UTF-8 has none). Read only when something
        is already known to be wrong (:func:`evalkit.fingerprint.wrong_split_count_message`)."""
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return []
        lengths, size = [], 0
        for line in text.split("\n") + [""]:
            if not line.strip():
                if size:
                    lengths.append(size)
                size = 0
            elif not _is_comment(line):
                size += 1
        return lengths

    def from_sums(self, sums, count, task):
        """The components, ``task.metric`` first, from the sums of the per-sentence statistics of
        :func:`sentence_statistics` over ``count`` sentences (not needed: the metrics pool counts).

        The scorer computes every score this way from the file's sums; the organisers' bootstrap does the
        same from resampled sums (numpy arrays: the same arithmetic, element by element).
        """
        labels = [name[len("tp:"):] for name in sums if name.startswith("tp:")]
        values = {"acc": lambda: metrics.ratio(sums["correct"], sums["items"]),
                  "weighted_f1": lambda: metrics.weighted_f1_from_counts(
                      [(sums["tp:" + label], sums["predicted:" + label], sums["gold:" + label]) for label in labels],
                      sums["items"]),
                  "span_f1": lambda: metrics.f1_from_counts(sums["span_correct"], sums["span_predicted"],
                                                            sums["span_gold"])}
        names = [task.metric] + [c for c in task.components if c != task.metric]
        return OrderedDict((name, values[name]()) for name in names)


def sentence_statistics(gold_sents, pred_sents, labels, components):
    """``{statistic: [count per sentence]}``: what the corpus-level ``components`` of a file are computed from.

    Always ``items`` (gold labels) and ``correct`` (labels equal to the gold); for ``weighted_f1``,
    ``tp:<label>``, ``predicted:<label>`` and ``gold:<label>`` for every label of ``labels`` (the declared set:
    a prediction outside it is None and weighs nothing); for ``span_f1``, ``span_correct``, ``span_predicted``
    and ``span_gold`` (:func:`evalkit.metrics.span_counts`). A sentence is a list of labels (a post: one).

    >>> dict(sentence_statistics([["a", "b"], ["a"]], [["a", "a"], [None]], ["a", "b"], ["acc"]))
    {'items': [2, 1], 'correct': [1, 0]}
    """
    by_label, spans = "weighted_f1" in components, "span_f1" in components
    names = ["items", "correct"]
    if by_label:
        names += ["%s:%s" % (what, label) for label in labels for what in ("tp", "predicted", "gold")]
    if spans:
        names += ["span_correct", "span_predicted", "span_gold"]
    stats = OrderedDict((name, []) for name in names)
    for gold, pred in zip_checked(gold_sents, pred_sents):
        hits, gold_counts, pred_counts = metrics.tag_counts(gold, pred)
        stats["items"].append(len(gold))
        stats["correct"].append(sum(hits.values()))
        if by_label:
            for label in labels:
                stats["tp:" + label].append(hits.get(label, 0))
                stats["predicted:" + label].append(pred_counts.get(label, 0))
                stats["gold:" + label].append(gold_counts.get(label, 0))
        if spans:
            correct, n_gold, n_pred = metrics.span_counts([gold], [pred])
            stats["span_correct"].append(correct)
            stats["span_predicted"].append(n_pred)
            stats["span_gold"].append(n_gold)
    return stats


def _file_components(kind, stats, task):
    """The components of a file from its :func:`sentence_statistics` (their sums, through ``kind.from_sums``)."""
    return kind.from_sums(OrderedDict((name, sum(values)) for name, values in stats.items()),
                          len(stats["items"]), task)


def _per_tag(counts):
    """``{label: {"tp", "fp", "fn"}}`` from :func:`evalkit.metrics.label_counts` (None shown as "null")."""
    return dict(("null" if label is None else label, {"tp": tp, "fp": fp, "fn": fn})
                for label, (tp, fp, fn) in counts.items())


class TokenLabelsKind(TextKind):
    """One label per token and line, a blank line between sentences (LID, POS, NER)."""

    name = "token_labels"
    items = BlockItems(sentence_level=False)
    #: What usually puts a file of this kind at its floor (evalkit/floor.py).
    floor_causes = ("labels swapped between two classes (two languages, or two tags) throughout, labels "
                    "shifted by one line, another dataset's label set, predictions for another split")

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        """Align the file's labels with the reference tokens; report misalignments and unknown labels."""
        lines = _text_lines(data, log.file, max_bytes, log)
        blocks, tabs, empties = _label_blocks(lines, getattr(task, "token_column", False))
        lengths = [len(tokens) for tokens, _ in ref.sentences]
        blocks = _with_empty_blocks(blocks, empties, lengths)
        aligned, first_bad = align_blocks(blocks, lengths)
        flat = [item for block in blocks for item in block]
        table = _table_said(lines, ref.labels, flat, len(flat) - sum(lengths), first_bad is not None, log)
        _tabs_warning(log, tabs)
        copy = self._report_alignment(blocks, lengths, aligned, first_bad, log, ref.headed, table,
                                      lambda: [" ".join(tokens) for tokens, _ in ref.sentences], empties,
                                      lambda: [tokens for tokens, _ in ref.sentences])
        bad = _check_labels(flat, ref.labels, log, task, ref.lang,
                            lambda: [token for tokens, _ in ref.sentences for token in tokens], table)
        check_degenerate(flat, bad, log, task)
        if getattr(task, "metric", None) == "span_f1":
            check_span_openings(blocks, flat, log)
        pred = Prediction([None if sent is None else [None if label in bad else label for _, label in sent]
                           for sent in aligned])
        pred.table = table
        lost = [i for i, sent in enumerate(aligned) if sent is None and not isinstance(blocks[i], EmptyBlock)] \
            if first_bad is not None and len(blocks) == len(lengths) else []
        shift = blocks_shift(blocks, lengths, lost) if lost else None
        if shift:   # blocks one sentence late or early: what the file scores with each block read for its sentence
            step = 1 if shift[0] == "late" else -1
            back = [blocks[i + step] if 0 <= i + step < len(blocks) and len(blocks[i + step]) == lengths[i] else sent
                    for i, sent in enumerate(aligned)]
            pred.blocks_shifted = {"how": shift[0], "first": shift[1], "mended": [
                None if sent is None else [None if label in bad else label for _, label in sent] for sent in back]}
        if copy:   # the file written twice, the copies differ: what it would score with the second copy instead
            second = list(aligned)
            for k, block in enumerate(blocks[first_bad:first_bad + copy["blocks"]]):
                if len(block) == lengths[copy["start"] + k]:
                    second[copy["start"] + k] = block
            pred.second_copy = dict(copy, mended=[[None if label in bad else label for _, label in sent]
                                                  for sent in second])
        if bad:
            pred.renamed = renaming(bad, flat, task, ref.lang, ref.labels, lambda rename: [
                None if sent is None else [rename.get(label, label) if label in bad else label for _, label in sent]
                for sent in aligned])
        return pred

    def _report_alignment(self, blocks, lengths, aligned, first_bad, log, headed=False, table=None, texts=None,
                          empties=(), tokens=None):
        """Messages for blank lines that differ from the input file and for sentences left unscored (``headed``: the
        input's sentences open with a ``# sent_enum`` line; ``table``: the position of the message about what a table
        writer added, which then stands for the hints of a cause; ``texts``: a function giving the input's sentences
        as text, for the order of a sort)."""
        if first_bad is None:
            return
        told = ". The table writer's rows are read as labels (see the message at %s)" % table if table else ""
        n_labels, n_tokens = sum(len(b) for b in blocks), sum(lengths)
        block = blocks[first_bad] if first_bad < len(blocks) else None
        where = _sentence_where(None, first_bad, block)
        got = "%d labels" % len(block) if block else "no labels"
        if n_labels == n_tokens:
            order = _reordered(blocks, lengths, texts)
            if order:
                log.add(ERROR, where, "the file's blocks of labels have the lengths of the input file's sentences, but "
                        "in another order (%s: %d of %d blocks are not as long as their sentence): the sentences were "
                        "written in another order than the input file's, so the labels, paired with the tokens in "
                        "order, stand against other tokens (%s). Write the sentences in the input file's order"
                        % (order[0], order[1], len(lengths), CHANCE_NOTE), kind="sentences in another order")
                return
            inside = _boundaries_inside(blocks, lengths)
            log.add(WARNING, where, "the blank lines differ from the input file's from here on (%s in this block, the "
                    "sentence has %d tokens); the label count is right, so labels were paired with tokens in order%s"
                    % (got, lengths[first_bad], "" if inside * 2 <= len(blocks) - 1 else (
                        ", but %d of the file's %d blank lines between blocks fall inside a sentence of the input "
                        "file: blank lines that disagree this much usually mean labels written for another input "
                        "(another dataset's file?) or in another order; check the file against the input file"
                        % (inside, len(blocks) - 1))))
            return
        lost = [i for i, sent in enumerate(aligned) if sent is None]
        if not lost:   # more blocks than sentences, and every sentence aligned: the extra blocks alone are left out
            copy = second_copy(blocks, lengths, first_bad)
            if copy and copy["differ"]:
                _report_second_copy(blocks, lengths, first_bad, copy, log)
                return copy
            _report_extra_blocks(blocks, lengths, first_bad, log)
            return
        if len(blocks) == len(lengths):   # the blank lines match: each wrong sentence stays on its own
            empty = [i for i in lost if isinstance(blocks[i], EmptyBlock)]
            for i in empty:
                log.add(ERROR, _sentence_where(None, i), "sentence %d has no labels (%s): the empty block was read as "
                        "that sentence, with no labels, since the file then has as many blocks as the input file has "
                        "sentences; it counts as wrong (%d tokens), the sentences after it were aligned and scored. "
                        "Write a label for each of its tokens" % (i + 1, _empty_block_where(blocks[i]), lengths[i]),
                        kind="sentence with no labels (an empty block)")
            lost = [i for i in lost if not isinstance(blocks[i], EmptyBlock)]
            hint = told or _shifted_blocks_hint(blocks, lengths, lost) or _wrong_lengths_hint(blocks, lengths, lost,
                                                                                               headed)
            for i in lost:
                log.add(ERROR, _sentence_where(None, i, blocks[i]), "%d labels where the input file has %d tokens: "
                        "this sentence counts as wrong%s" % (len(blocks[i]), lengths[i], hint),
                        kind="sentence with a wrong number of labels (counted as wrong)")
                hint = ""
            return
        log.add(ERROR, where, "first misalignment: %s where the input file has %d tokens (the file has %d labels in "
                "%d blocks for %d tokens in %d sentences); a missing or extra line shifts everything after it%s"
                % (got, lengths[first_bad], n_labels, len(blocks), n_tokens, len(lengths),
                   told or _empty_block_hint(blocks, lengths, first_bad, empties) or
                   _quoted_token_hint(first_bad, tokens() if tokens else None) or
                   _empty_label_hint(blocks, lengths, first_bad) or (
                       ". The file holds one label per sentence (%d labels for %d sentences): this dataset takes one "
                       "label per token, a blank line after each sentence" % (n_labels, len(lengths))
                       if n_labels == len(lengths) else "") or _blank_line_labels_hint(blocks, lengths)))
        if lost:
            log.add(ERROR, "", "%d of %d sentences (%d tokens) could not be aligned and count as wrong (the first is "
                    "sentence %d); the others were scored" % (len(lost), len(lengths), sum(lengths[i] for i in lost),
                                                             lost[0] + 1))

    def score(self, ref, pred, task):
        """Corpus-level metrics over all tokens: ``task.metric`` first, then the other components."""
        gold_sents = [gold for _, gold in ref.sentences]
        pred_sents = [[None] * len(gold) if labels is None else labels for gold, labels in zip_checked(gold_sents, pred)]
        gold = [label for sent in gold_sents for label in sent]
        flat = [label for sent in pred_sents for label in sent]
        stats = sentence_statistics(gold_sents, pred_sents, ref.labels, task.components)
        components = _file_components(self, stats, task)
        details = {"per_tag": _per_tag(metrics.label_counts(gold, flat))}
        shifted = shifted_agreement(gold_sents, pred_sents, sum(stats["correct"]), len(gold))
        if shifted:   # only when the labels match better one line away: a normal report is unchanged
            details["shifted"] = shifted
        if task.metric == "span_f1":
            details["spans"] = {"correct": sum(stats["span_correct"]), "gold": sum(stats["span_gold"]),
                                "predicted": sum(stats["span_predicted"])}
        self._price(details, gold_sents, pred, pred_sents, task, ref.labels, self.score_value(components))
        zeroed = sum(1 for labels in pred if labels is None)
        return Entry(components, {}, len(ref), len(ref) - zeroed, len(gold), zeroed, details, per_sentence=stats)


#: :func:`_wrong_lengths_hint` speaks of a pattern once at least this many sentences show it.
WRONG_LENGTHS_MIN = 3
#: ... and of sentences cut at a maximum length when each of them is at least as long as this share of the input's
#: sentences.
LONGEST_SHARE = 0.9


def _wrong_lengths_hint(blocks, lengths, lost, headed=False):
    """What the sentences ``lost`` (their block of labels has another length than the sentence, the blank lines
    matching) have in common, as a sentence, or "": every block exactly one label longer than its sentence (a label
    written for the ``# sent_enum`` line that opens each sentence of the input, when ``headed``, or a start symbol's
    label kept), longer by more or by varying counts (labels per subword, or padding), every block a single label
    (one per sentence), or every block shorter and the sentences the input's longest (cut at a maximum sequence
    length).

    >>> _wrong_lengths_hint([[1, 1, 1]] * 3, [1, 1, 1], [0, 1, 2])[:58]
    '. Every one of the 3 sentences counted as wrong has more l'
    >>> _wrong_lengths_hint([[1, 1]] * 3, [1, 1, 1], [0, 1, 2], True)[52:138]
    "exactly one label more than its tokens: a label written for the '# sent_enum = N' line"
    """
    if len(lost) < WRONG_LENGTHS_MIN:
        return ""
    extra = [len(blocks[i]) - lengths[i] for i in lost]
    if min(extra) == max(extra) == 1:
        return (". Every one of the %s sentences counted as wrong has exactly one label more than its tokens: %sa "
                "start or end symbol's label kept ([CLS], <s>, </s>)? Write one label per token line of the input "
                "file, and none for %s" % ("{:,}".format(len(lost)), (
                    "a label written for the '# sent_enum = N' line that opens each sentence of the input file (it "
                    "is no token: skip the lines that start with '# sent_enum'), or " if headed else ""),
                    "its '# sent_enum' lines or the model's special symbols" if headed else
                    "the model's special symbols"))
    if min(extra) > 0:
        return (". Every one of the %s sentences counted as wrong has more labels than tokens (%s labels too "
                "many in all): labels written per subword (word piece) rather than per token, or padding labels? "
                "Write one label per token of the input file (e.g. the label of each token's first subword)"
                % ("{:,}".format(len(lost)), "{:,}".format(sum(extra))))
    if all(len(blocks[i]) == 1 for i in lost):
        return (". Every one of the %s sentences counted as wrong has a single label: one label per sentence? This "
                "dataset takes one label per token" % "{:,}".format(len(lost)))
    ranked = sorted(lengths)
    longest = ranked[min(len(ranked) - 1, int(LONGEST_SHARE * len(ranked)))]
    if max(extra) < 0 and min(lengths[i] for i in lost) >= longest:
        return (". Every one of the %s sentences counted as wrong has fewer labels than tokens, and they are the "
                "input file's longest (%d tokens or more; at most %d labels each): the predictions look cut at a "
                "maximum length (the model's maximum sequence length?). Predict every token (split long sentences "
                "into windows, or raise the limit)" % ("{:,}".format(len(lost)), min(lengths[i] for i in lost),
                                                       max(len(blocks[i]) for i in lost)))
    return ""


#: :func:`_reordered` calls a file's sentences reordered when at least this many of its blocks, and half of them, are
#: not as long as their sentence (one misplaced blank line makes two blocks of another length: not a reordering).
REORDERED_MIN_BLOCKS = 3


#: The orders of the sentences a sort gives that :func:`_reordered` names, with the fix: ``(how, key of sentence i)``
#: (``texts``: the input's sentences as text).
SORTED_ORDERS = (
    ("in the order of their numbers read as text (1, 10, 100, 2, ...: the sentence ids sorted as strings; sort them "
     "as integers, or keep the input's order)", lambda i, texts: str(i + 1)),
    ("sorted alphabetically by their text (a groupby or a sort on the sentences, which sorts them; groupby(..., "
     "sort=False) keeps the input's order)", lambda i, texts: texts[i]),
)


def _reordered(blocks, lengths, texts=None):
    """``(how, count of blocks not as long as their sentence)`` when the blocks of labels ``blocks`` are the input's
    sentences of ``lengths`` tokens in another order ("reversed", "sorted by length", in the order of a sort of their
    numbers or of their text (:data:`SORTED_ORDERS`; ``texts``: a function giving the input's sentences as text, or
    None), or "shuffled": the same lengths, at least :data:`REORDERED_MIN_BLOCKS` and half of them out of place); else
    None. Read only when the blank lines already differ.

    >>> _reordered([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]], [4, 3, 2, 1])
    ('reversed', 4)
    >>> _reordered([[1], [1, 2, 3], [1, 2], [1, 2, 3, 4]], [3, 1, 2, 4]) is None
    True
    >>> _reordered([[1] * n for n in (1, 10, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9)], list(range(1, 13)))[0][:42]
    'in the order of their numbers read as text'
    """
    found = [len(block) for block in blocks]
    if len(found) != len(lengths) or sorted(found) != sorted(lengths):
        return None
    wrong = sum(1 for got, want in zip_checked(found, lengths) if got != want)
    if wrong < REORDERED_MIN_BLOCKS or wrong * 2 < len(lengths):
        return None
    how = "reversed" if found == lengths[::-1] else "sorted by length" if found in (
        sorted(lengths), sorted(lengths, reverse=True)) else "shuffled"
    if how == "shuffled":
        sentences = texts() if texts else None
        for name, key in SORTED_ORDERS:
            if (sentences is not None or name.startswith("in the order")) and found == [
                    lengths[i] for i in sorted(range(len(lengths)), key=lambda i: key(i, sentences))]:
                return name, wrong
    return how, wrong


def _boundaries_inside(blocks, lengths):
    """How many of the blank lines between the blocks of labels ``blocks`` fall inside a sentence of the input (of
    ``lengths`` tokens): the label offsets where a block ends that are no sentence's end."""
    ends, offset = set(), 0
    for length in lengths:
        offset += length
        ends.add(offset)
    inside, offset = 0, 0
    for block in blocks[:-1]:
        offset += len(block)
        inside += offset not in ends
    return inside


#: :func:`second_copy` calls the extra blocks a copy when at least this share of them is as long as the block of the
#: sentence they repeat, and (for fewer than :data:`COPY_MIN_BLOCKS` blocks, whose lengths say little) at least this
#: share of their labels agree with it.
COPY_SHARE = 0.9
COPY_MIN_BLOCKS = 3


def second_copy(blocks, lengths, first_bad):
    """``{"start", "blocks", "differ", "first"}`` when the blocks of labels that match no sentence (the file has more
    blocks than the input has sentences, every sentence aligned by :func:`align_blocks` around them, from ``first_bad``)
    are a second copy of the blocks of sentences ``start`` ... (0-based): the file written twice, an earlier run then
    the new one (appended to), a whole run or part of one. ``differ``: how many of the copy's labels differ from the
    first copy's (a block of another length counts all its labels), ``first``: the first such ``(line, sentence
    index)``; else None. Only read when the file already has more blocks than sentences.

    >>> blocks = [[(1, "a")], [(3, "b")], [(5, "c")], [(7, "a")], [(9, "b")], [(11, "x")]]
    >>> second_copy(blocks, [1, 1, 1], 3)["differ"], second_copy(blocks, [1, 1, 1], 3)["first"]
    (1, (11, 2))
    >>> second_copy([[(1, "a")], [(3, "b"), (4, "b")]], [1], 1) is None
    True
    """
    n = len(blocks) - len(lengths)
    if n <= 0:
        return None
    extra = blocks[first_bad:first_bad + n]

    def scored(sentence):   # the block aligned with a sentence
        return blocks[sentence] if sentence < first_bad else blocks[sentence + n]

    best = None
    for start in sorted(set((0, max(first_bad - n, 0)))):
        if start + n > len(lengths):
            continue
        pairs = [(scored(start + k), block) for k, block in enumerate(extra)]
        same = sum(1 for first, block in pairs if len(first) == len(block))
        labels = sum(len(block) for _, block in pairs)
        agree = sum(1 for first, block in pairs if len(first) == len(block)
                    for (_, a), (_, b) in zip(first, block) if a == b)
        if same < COPY_SHARE * n or (n < COPY_MIN_BLOCKS and agree < COPY_SHARE * labels):
            continue
        differ, where = 0, None
        for k, (first, block) in enumerate(pairs):
            wrong = [number for (_, a), (number, b) in zip(first, block) if a != b] if len(first) == len(block) else \
                [block[0][0]] * max(len(block), 1)
            if wrong and where is None:
                where = (wrong[0], start + k)
            differ += len(wrong) if len(first) == len(block) else max(len(first), len(block))
        if best is None or differ < best["differ"]:
            best = {"start": start, "blocks": n, "differ": differ, "first": where, "labels": labels}
    return best


def _report_second_copy(blocks, lengths, first_bad, copy, log):
    """The error of a file written twice whose copies differ (:func:`second_copy`): which run was scored, how many
    labels differ, the fix. The score is that of the first copy, as for any block that matches no sentence."""
    extra = blocks[first_bad:first_bad + copy["blocks"]]
    start, n = copy["start"], copy["blocks"]
    whole = start == 0 and n == len(lengths)
    log.add(ERROR, "line %d" % extra[0][0][0], "the file was written twice (appended to an earlier run?): from line %d "
            "(%s) it holds a second copy of %s, %d block%s of labels, and %s of its %s labels differ from the first "
            "copy's (the first at line %d, sentence %d). The first copy was scored, the second left out: the kit "
            "cannot know which run is meant. Keep only the newest run (write the file with open(path, 'w'), not 'a')"
            % (extra[0][0][0], "after the last sentence of the input file" if first_bad >= len(lengths) else
               "after sentence %d of the input file" % first_bad,
               "the whole file" if whole else "sentence %d" % (start + 1) if n == 1 else
               "sentences %d to %d" % (start + 1, start + n), n, "" if n == 1 else "s",
               "{:,}".format(copy["differ"]), "{:,}".format(copy["labels"]), copy["first"][0], copy["first"][1] + 1),
            kind="file written twice, the copies differ")


def _report_extra_blocks(blocks, lengths, first_bad, log):
    """One warning for the blocks of labels that match no sentence (the file has more blocks than the input has
    sentences, and :func:`align_blocks` paired every sentence with the blocks before and after them): a sentence
    written twice, or labels after the last sentence. They were left out; nothing of the score is lost."""
    extra = blocks[first_bad:first_bad + len(blocks) - len(lengths)]
    where = "line %d" % extra[0][0][0]
    after = ("after the last sentence of the input file" if first_bad >= len(lengths)
             else "between sentences %d and %d of the input file" % (first_bad, first_bad + 1) if first_bad
             else "before its first sentence")
    log.add(WARNING, where, "%d block%s of labels (%d labels, from %s, %s) match%s no sentence of the input file "
            "(%d blocks for %d sentences): left out; every sentence of the input file was aligned and scored. Remove "
            "%s (a sentence written twice, or predictions of sentences that are not in the input file?)"
            % (len(extra), "" if len(extra) == 1 else "s", sum(len(b) for b in extra), where, after,
               "es" if len(extra) == 1 else "", len(blocks), len(lengths), "it" if len(extra) == 1 else "them"),
            kind="blocks of labels that match no sentence")


#: The labels read one line away must match the gold at least this much more often (a share of the labels) than
#: as written for :func:`shifted_agreement` to report them (neighbouring gold labels agree often: one line away, a
#: right file matches less, never more).
SHIFT_GAIN = 0.1


def shifted_agreement(gold_sents, pred_sents, correct, items):
    """``{"direction", "shifted", "pairs", "in_place", "items"}`` when the predicted labels, read one line away
    within each sentence, match the gold at least :data:`SHIFT_GAIN` more often than as written (``correct`` of
    ``items``); else None. ``direction`` "later": each label stands one line after its token (``pred[i + 1]``
    matches ``gold[i]``, as when a start symbol's label is kept and the last token's dropped); "earlier": one line
    before. Only the predictions' own sentences are compared (a sentence not aligned counts for nothing).

    >>> shifted_agreement([["a", "b", "c"]], [["x", "a", "b"]], 0, 3)["direction"]
    'later'
    >>> shifted_agreement([["a", "b", "c"]], [["a", "b", "c"]], 3, 3) is None
    True
    """
    if not items or float(correct) / items + SHIFT_GAIN > 1:   # no reading can match that much better: no pass
        return None
    later = earlier = pairs = 0
    for gold, pred in zip_checked(gold_sents, pred_sents):
        if len(gold) < 2:
            continue
        pairs += len(gold) - 1
        later += sum(1 for g, p in zip_checked(gold[:-1], pred[1:]) if p is not None and g == p)
        earlier += sum(1 for g, p in zip_checked(gold[1:], pred[:-1]) if p is not None and g == p)
    best, direction = max((later, "later"), (earlier, "earlier"))
    if not pairs or not items or float(best) / pairs < float(correct) / items + SHIFT_GAIN:
        return None
    return {"direction": direction, "shifted": best, "pairs": pairs, "in_place": correct, "items": items}


#: :func:`_shifted_blocks_hint` names a shift when at least this share of the sentences counted as wrong have the
#: length of the sentence before (or after) them.
SHIFTED_SHARE = 0.8


def blocks_shift(blocks, lengths, lost):
    """``(how, first, count)`` when the blocks of labels (as many as the input's sentences, ``lost``: the indices of
    those of another length than their sentence) stand one sentence ``how`` ("late": block i as long as sentence
    i - 1; "early": as long as sentence i + 1) for at least :data:`SHIFTED_SHARE` of ``lost``: the first such block and
    how many; else None."""
    if len(lost) < WRONG_LENGTHS_MIN:
        return None
    late = [i for i in lost if i > 0 and len(blocks[i]) == lengths[i - 1]]
    early = [i for i in lost if i + 1 < len(lengths) and len(blocks[i]) == lengths[i + 1]]
    found, how = max((len(late), "late"), (len(early), "early"))
    if found < SHIFTED_SHARE * len(lost):
        return None
    return how, (late if how == "late" else early)[0], found


def _shifted_blocks_hint(blocks, lengths, lost):
    """When the blocks of labels (as many as the input's sentences, ``lost``: those of another length than their
    sentence) stand one sentence late (block i as long as sentence i - 1) or early (as long as sentence i + 1) for most
    of the sentences counted as wrong, a sentence naming it with its first position, else "".

    >>> _shifted_blocks_hint([[(1, "a")], [(3, "a")], [(5, "a"), (6, "a")], [(8, "a")] * 3, [(12, "a")] * 4],
    ...                      [1, 2, 3, 4, 5], [1, 2, 3, 4])[:60]
    '. The blocks of labels stand one sentence late from sentence'
    """
    shift = blocks_shift(blocks, lengths, lost)
    if not shift:
        return ""
    how, first, found = shift
    return (". The blocks of labels stand one sentence %s from sentence %d (line %d of the file) on: %s of the %s "
            "sentences counted as wrong have the length of the sentence %s them (block %d is as long as sentence %d). "
            "%s Write the block of sentence i for sentence i" % (
                how, first + 1, blocks[first][0][0] if blocks[first] else 0, "{:,}".format(found),
                "{:,}".format(len(lost)), "before" if how == "late" else "after", first + 1,
                first if how == "late" else first + 2,
                "The predictions were written one sentence late (a batch index off by one: a sentence written twice, "
                "the last one lost?)." if how == "late" else "The predictions were written one sentence early (a "
                "sentence skipped, and a block added at the end?)."))


#: The characters a CSV reader takes as opening a quoted field when a field starts with one.
QUOTE_CHARACTERS = "\"'"


def _quoted_token_hint(first_bad, sentences):
    """When the input's sentence at the first misalignment ``first_bad`` (or the one before it) has a token that starts
    with a quote character, a sentence naming it: a reader that honours CSV quoting (pandas' ``read_csv`` by default)
    reads from there to the next quote as one field, swallowing lines; else "". ``sentences``: the input's tokens per
    sentence, or None.

    >>> _quoted_token_hint(1, [["a"], ["b", '"hola', "c"]])[:70]
    '. Sentence 2 of the input file has a token that starts with a quote ch'
    """
    if not sentences:
        return ""
    for index in (first_bad, first_bad - 1):
        if 0 <= index < len(sentences):
            found = next((i for i, token in enumerate(sentences[index]) if token[:1] in QUOTE_CHARACTERS), None)
            if found is not None:
                return (". Sentence %d of the input file has a token that starts with a quote character (token %d, "
                        "%s): a reader that honours CSV quoting (pandas' read_csv by default, csv.reader) reads from it to "
                        "the next quote as one field, swallowing the lines between; read the input with "
                        "quoting=csv.QUOTE_NONE (pd.read_csv(path, sep='\\t', quoting=csv.QUOTE_NONE), or line by "
                        "line)" % (index + 1, found + 1, quoted(sentences[index][found], 40)))
    return ""


def _empty_block_hint(blocks, lengths, first_bad, empties):
    """When an empty block (two blank lines in a row, ``empties`` from :func:`_label_blocks`) stands at the first
    misalignment ``first_bad``, a sentence naming the sentence written with no labels, else "" (the file's blocks and
    empty blocks are not as many as the input's sentences: :func:`_with_empty_blocks` could not read it so)."""
    found = [line for index, line in empties if index in (first_bad, first_bad + 1)]
    if not found:
        return ""
    index = next(index for index, line in empties if line == found[0])
    return (". Sentence %d has no labels (%s): an empty block where a sentence was expected; write a label for each of "
            "its tokens" % (index + 1, "two blank lines in a row at line %d" % found[0] if found[0] > 1 else
                            "the file opens with a blank line"))


def _blank_line_labels_hint(blocks, lengths):
    """When the file has almost no blank line and as many labels as the input has tokens and blank lines between or
    after its sentences, a label was written on each blank line: a sentence of the hint, else "".

    >>> _blank_line_labels_hint([[1, 2, 3, 4, 5]], [2, 2])[:64]
    '. The file has no blank line between sentences and 5 labels: as '
    """
    n_labels, n_tokens = sum(len(block) for block in blocks), sum(lengths)
    if len(lengths) < 2 or len(blocks) * 2 > len(lengths) or n_labels - n_tokens not in (len(lengths) - 1,
                                                                                          len(lengths)):
        return ""
    return (". The file has %s between sentences and %s labels: as many as the input file has tokens (%s) and blank "
            "lines after its sentences (%s). A label written on each blank line? Leave the line after each sentence "
            "blank" % ("no blank line" if len(blocks) == 1 else "%d blank lines" % (len(blocks) - 1),
                       "{:,}".format(n_labels), "{:,}".format(n_tokens), "{:,}".format(n_labels - n_tokens)))


def _empty_label_hint(blocks, lengths, first_bad):
    """When the block at ``first_bad`` and the next one hold one label less than that sentence has tokens between
    them, the blank line that splits them stands where a label was expected: a sentence of the hint, else "".

    >>> _empty_label_hint([[(1, "a")], [(3, "b")]], [3], 0)
    '. Line 2 is empty where a label was expected (the sentence has 3 tokens, the labels around it are 1 and 1): write a label on every line of a sentence'
    """
    if first_bad + 1 >= len(blocks) or first_bad >= len(lengths):
        return ""
    before, after = blocks[first_bad], blocks[first_bad + 1]
    if len(before) + len(after) + 1 != lengths[first_bad]:
        return ""
    return (". Line %d is empty where a label was expected (the sentence has %d tokens, the labels around it are %d "
            "and %d): write a label on every line of a sentence" % (before[-1][0] + 1, lengths[first_bad],
                                                                    len(before), len(after)))


def zip_checked(first, second):
    """``zip`` that refuses sequences of different lengths."""
    if len(first) != len(second):
        raise ValueError("cannot pair %d items with %d" % (len(first), len(second)))
    return zip(first, second)


class SentenceLabelsKind(TextKind):
    """One label per sentence and line (SA)."""

    name = "sentence_labels"
    items = BlockItems(sentence_level=True)
    floor_causes = ("labels swapped between two classes (positive and negative) throughout, labels shifted by "
                    "one line, another dataset's label set, predictions for another split")
    sentence_level = True
    unit = "sentences"

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        """One label per reference sentence, or DataError when the number of labels differs."""
        lines = _text_lines(data, log.file, max_bytes, log)
        flat, blank, headed = [], [], []
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped and not _is_comment(line):
                flat.append((number, stripped.rsplit("\t", 1)[-1].strip()))
            elif not stripped:
                blank.append(number)
            elif "\t" in stripped and stripped.rsplit("\t", 1)[-1].strip() in ref.labels:
                headed.append(number)
        table = _table_said(lines, ref.labels, flat, len(flat) - len(ref), len(flat) != len(ref), log, True)
        if len(flat) != len(ref):
            hint = ""
            tokens = sum(len(tokens) for tokens, _ in ref.sentences)
            if len(flat) == tokens:   # a label per token (the token kinds' form)
                hint = (" (one label per token: the input file has %d tokens in its %d sentences; this dataset takes "
                        "one label per sentence)" % (tokens, len(ref)))
            elif headed:   # the reference's form: the label after the sentence header, a line that is skipped
                hint = (" (%d line%s such as line %d %s a '# sent_enum' header with the label after a tab, as in the "
                        "reference files; headers are skipped: write each label alone on its line)" % (
                            len(headed), "" if len(headed) == 1 else "s", headed[0],
                            "is" if len(headed) == 1 else "are"))
            elif blank and len(flat) < len(ref):
                hint = (" (blank lines are skipped, and the file has %d: line%s %s%s; an empty line where a label was "
                        "expected?)" % (len(blank), "" if len(blank) == 1 else "s",
                                        ", ".join(str(n) for n in blank[:SHOWN_LINES]),
                                        ", ..." if len(blank) > SHOWN_LINES else ""))
            outside = Counter(label for _, label in flat if label not in ref.labels)
            firsts = OrderedDict()
            for number, label in flat:
                if label in outside:
                    firsts.setdefault(label, [number])
            shape = _line_shape_hint(outside, firsts, set(ref.labels)) if outside and not table else ""
            shape = shape or (" The lines the table writer added are read as labels (see the message at %s)." % table
                              if table else "")
            raise DataError(log.file, "", "the file has %d labels, the input file has %d sentences%s: give exactly one "
                            "label per line for each sentence, in order.%s" % (len(flat), len(ref), hint, shape),
                            status="sentence_count_mismatch")
        bad = _check_labels(flat, ref.labels, log, task, ref.lang, table=table)
        check_degenerate(flat, bad, log, task)
        pred = Prediction(None if label in bad else label for _, label in flat)
        pred.table = table
        if bad:
            pred.renamed = renaming(bad, flat, task, ref.lang, ref.labels, lambda rename: [
                [rename.get(label, label) if label in bad else label] for _, label in flat])
        return pred

    def score(self, ref, pred, task):
        """Accuracy (and weighted F1) over the sentences' labels, ``task.metric`` first."""
        gold = [label for _, label in ref.sentences]
        stats = sentence_statistics([[label] for label in gold], [[label] for label in pred], ref.labels,
                                    task.components)
        components = _file_components(self, stats, task)
        details = {"per_tag": _per_tag(metrics.label_counts(gold, pred))}
        self._price(details, [[label] for label in gold], pred, [[label] for label in pred], task, ref.labels,
                    self.score_value(components))
        return Entry(components, {}, len(ref), len(ref), len(gold), 0, details, per_sentence=stats)


TEXT_KINDS = dict((kind.name, kind) for kind in (TokenLabelsKind(), SentenceLabelsKind()))
