"""Public files read as sequences of words, for the contamination search (organiser/contamination.py).

A public file (a release's train and development files, the starting kit, a corpus the organiser names with
``PUBLIC=``) is read, whatever its format, into *segments*: word sequences the search matches the test items
against. Words are those of :data:`evalkit.items.WORD` (the test items' own unit, :meth:`evalkit.items.Items.tokens`)
of the file's text after NFC and case folding. A segment is a tuple ``(where, words, rows, annotate, wild, role)``:

- ``where``: ``(unit, number)``, how a report names it (``("sentence", 12)``, 1-based);
- ``words``: its words;
- ``rows``: None, or beside each word what annotates it in the file (a CoNLL-U row, a tab-separated line), read
  only when a match asks whether the copy carries an item's gold: ``annotate(row)`` is then the set of strings the
  row holds (lemma, UPOS, XPOS, ``upos=<tag>``, ``<feature>=<value>``; the other fields of a line and its
  sentence's label), case folded;
- ``wild``: None, or beside each word whether it is a wildcard (the syntactic words of a CoNLL-U multiword token,
  which treebank versions tokenise differently: the ``WILD`` view matches an item whose other words are the
  same);
- ``role``: which matches it takes part in: ``UNIT`` (the segment as a whole: an item that is this whole segment,
  or one word apart from it), ``RUN`` (any stretch of it: long n-grams, an item found inside it), ``WILD``
  (:data:`WILD` views only), ``STANDOFF`` (an annotation file without its text: ``words`` is then the file's gold
  units, :func:`evalkit.items.anafora_units`, matched against :meth:`evalkit.items.Items.gold_units`).

Readers by content: zip archives (recursed), CoNLL-U (each sentence's forms, multiword tokens included as the kit's
references hold them, its multiword-token view and its ``# text``), tab-separated lines (blocks of token lines by
their first field, and each field that is a text), JSON and JSON Lines (every string; a list of rows by their first
field), Anafora XML (stand-off gold), other XML (its text), plain text (each line, and the whole file as one run;
``word__tag`` tokens are read without their tag). Files that are not UTF-8 text are skipped and counted.
"""
import io
import json
import re
import unicodedata
import xml.etree.ElementTree as ElementTree
import zipfile

from evalkit.items import WORD, anafora_units

UNIT, RUN, WILD, STANDOFF = 1, 2, 4, 8
BOTH = UNIT | RUN
#: File names never read: code, images and compressed files that are not zips.
SKIPPED_SUFFIXES = (".py", ".pyc", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf", ".gz", ".bz2", ".xz", ".tgz",
                    ".so", ".bin", ".pt", ".npy", ".sha256")
#: Nested zips are opened this deep.
MAX_DEPTH = 3
_TAGGED = re.compile(r"(?<=\S)__[^\s_]+(?=\s|$)")


def untagged(words):
    """``words`` with a ``word__tag`` read as ``word`` (a tagged corpus's convention: ``yeah__en``, ``New_York__en``),
    as every reader reads them.

    >>> untagged(["yeah__en", "new_york__en", "?", "a__b_c"])
    ['yeah', 'new_york', '?', 'a__b_c']
    """
    return [_TAGGED.sub("", word) if "__" in word else word for word in words]


def no_annotation(row):
    """What a file without annotations says of a word: nothing."""
    return frozenset()


# --------------------------------------------------------------------------- files

def read(name, data, depth=0):
    """``(member name, segments or None)`` for every file ``data`` holds: a zip's members (recursively), else the file
    itself (None: not read, not UTF-8 text or of a skipped kind). ``name``: how reports name it; a zip's members are
    ``<zip>!<member>``."""
    if data[:4] == b"PK\x03\x04" and depth < MAX_DEPTH:
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            members = [info for info in archive.infolist() if not info.is_dir()]
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError):
            members = None
        if members is not None:
            for info in members:
                try:
                    member = archive.read(info)
                except (zipfile.BadZipFile, RuntimeError, NotImplementedError, ValueError):
                    yield "%s!%s" % (name, info.filename), None
                    continue
                for found in read("%s!%s" % (name, info.filename), member, depth + 1):
                    yield found
            return
    yield name, segments(name, data)


def segments(name, data):
    """The segments of one file (an iterator: a large file's are made as they are searched), or None when it is not
    read."""
    lower = name.lower()
    if lower.endswith(SKIPPED_SUFFIXES) or b"\0" in data[:4096]:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    head = text.lstrip()[:1]
    if head == "<":
        found = xml_segments(data)
        if found is not None:
            return found
    if head in ("{", "[") or lower.endswith((".json", ".jsonl")):
        found = json_segments(text)
        if found is not None:
            return found
    if is_conllu(text):
        return conllu_segments(text)
    if "\t" in text:
        return tsv_segments(text)
    return plain_segments(text)


# --------------------------------------------------------------------------- CoNLL-U

def is_conllu(text):
    """Whether ``text`` reads as CoNLL-U: its first token lines have ten tab-separated fields and a numeric id."""
    seen = 0
    for line in text.split("\n", 400)[:400]:
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 10 or not fields[0].split("-")[0].split(".")[0].isdigit():
            return False
        seen += 1
        if seen >= 20:
            break
    return seen > 0


def conllu_annotation(line):
    """The annotation strings of a CoNLL-U row (case folded): lemma, UPOS, XPOS, ``upos=<tag>`` and every
    ``<feature>=<value>``."""
    fields = line.split("\t")
    if len(fields) < 6:
        return frozenset()
    found = set([fields[2], fields[3], fields[4], "upos=" + fields[3]])
    if fields[5] != "_":
        found.update(fields[5].split("|"))
    return frozenset(found)


def conllu_segments(text):
    """Each sentence's views: its forms (every row but empty nodes, multiword tokens included: the kit's references
    are built so), the same with the syntactic words of its multiword tokens as wildcards (``WILD``, only when it
    has one), and the words of its ``# text`` when they are other words."""
    text = text.casefold()
    rows, parts, sentence_text = [], [], None
    number = 0
    for line in text.split("\n") + [""]:
        if not line.strip():
            if rows:
                number += 1
                for view in _conllu_views(number, rows, parts, sentence_text):
                    yield view
            rows, parts, sentence_text = [], [], None
            continue
        if line[0] == "#":
            if line.startswith("# text =") or line.startswith("# text="):
                sentence_text = line.split("=", 1)[1]
            continue
        tab = line.find("\t")
        ident = line[:tab]
        if "." in ident or tab < 0:
            continue
        end = line.find("\t", tab + 1)
        rows.append((line[tab + 1:end if end >= 0 else len(line)], line))
        span = 0
        if "-" in ident:
            first, _, last = ident.partition("-")
            if first.isdigit() and last.isdigit():
                span = int(last) - int(first) + 1
        parts.append(span)


def _conllu_views(number, rows, parts, sentence_text):
    """The views of one CoNLL-U sentence."""
    words, notes, wild = [], [], []
    inside = 0
    for (form, line), span in zip(rows, parts):
        row_words = WORD.findall(form)
        words.extend(row_words)
        notes.extend([line] * len(row_words))
        wild.extend([inside > 0] * len(row_words))
        if span:
            inside = span
        elif inside:
            inside -= 1
    where = ("sentence", number)
    found = [(where, words, notes, conllu_annotation, None, BOTH)]
    if any(parts):
        found.append((where, words, notes, conllu_annotation, wild, WILD))
    if sentence_text is not None:
        text_words = WORD.findall(sentence_text)
        if text_words != words:
            found.append((where, text_words, None, no_annotation, None, BOTH))
    return found


# --------------------------------------------------------------------------- tab-separated lines

def tsv_segments(text):
    """Blocks of lines (separated by blank lines) by their first field (a token a line; the other fields, and the
    fields of the block's comment lines, annotate it), and every field of a line that is a text of two words or
    more."""
    text = text.casefold()
    block, header = [], []
    number = 0
    lines = text.split("\n")
    for index, line in enumerate(lines + [""]):
        if not line.strip():
            if block:
                number += 1
                yield _tsv_block(number, block, header)
            block, header = [], []
            continue
        if line.startswith("#"):
            header.extend(field.strip() for field in line.split("\t")[1:])
        else:
            block.append(line)
        for field in line.split("\t"):
            field_words = WORD.findall(field)
            if len(field_words) > 1:
                yield ("line", index + 1), field_words, None, no_annotation, None, BOTH


def _tsv_block(number, block, header):
    """The segment of one block of token lines."""
    labels = frozenset(header)

    def annotate(line):
        return labels.union(field.strip() for field in line.split("\t")[1:])

    words, notes = [], []
    for line in block:
        row_words = WORD.findall(line.split("\t", 1)[0])
        words.extend(row_words)
        notes.extend([line] * len(row_words))
    return (("block", number), words, notes, annotate, None, BOTH)


# --------------------------------------------------------------------------- plain text

def plain_segments(text):
    """Each line and, in a text of blocks (lines between blank lines: a token a line, a sentence a block), each block
    (``UNIT``), and the whole text as one run (``RUN``); a token ``word__tag`` (a tagged corpus's convention) is read
    as ``word``, a comment line (``# sent_enum = 1``, as CoNLL-style files have) is not read."""
    every, block, blocks = [], [], 0
    text = text.casefold()
    in_blocks = "\n\n" in text.strip()
    for index, line in enumerate(text.split("\n") + [""]):
        if line.startswith("# "):
            continue
        if "__" in line:
            line = _TAGGED.sub("", line)
        line_words = WORD.findall(line)
        if line_words:
            yield ("line", index + 1), line_words, None, no_annotation, None, UNIT
            every.extend(line_words)
            block.append(line_words)
        elif not line.strip():
            if len(block) > 1 and in_blocks:
                blocks += 1
                yield ("block", blocks), [word for words in block for word in words], None, no_annotation, None, UNIT
            block = []
    if every:
        yield ("file", 0), every, None, no_annotation, None, RUN


# --------------------------------------------------------------------------- JSON

def json_segments(text):
    """Every string of a JSON document (or of each line of JSON Lines; a string holding an Anafora file: its
    stand-off gold), and every list of rows by its rows' first strings: lists whose first element is a string
    (``[[form, tag], ...]``: the other strings annotate it) or mappings whose first value is (``[{"Token": form,
    "UPOS": tag, ...}, ...]``: ``<key>=<value>`` and the values annotate it); None when it is not JSON."""
    try:
        values = [json.loads(text)]
    except ValueError:
        values = []
        for line in text.split("\n"):
            if not line.strip():
                continue
            try:
                values.append(json.loads(line))
            except ValueError:
                return None
        if not values:
            return None
    return _walk_all(values)


def _walk_all(values):
    """The segments of every JSON value of ``values``, as they are walked."""
    count = [0]
    for value in values:
        for found in _walk(value, count):
            yield found


def _row_annotation(row):
    """The strings of a JSON row beside its first element (a mapping's: its values and ``<key>=<value>``), case
    folded."""
    if isinstance(row, dict):
        pairs = [(key, value) for key, value in list(row.items())[1:] if isinstance(value, str)]
        return frozenset([value.casefold() for _, value in pairs] + ["%s=%s" % (key.casefold(), value.casefold())
                                                                     for key, value in pairs])
    return frozenset(cell.casefold() for cell in row[1:] if isinstance(cell, str))


def _first(row):
    """The string a JSON row is read by: a list's first element, a mapping's first value; None for anything else."""
    if isinstance(row, list) and row and isinstance(row[0], str):
        return row[0]
    if isinstance(row, dict) and row and isinstance(next(iter(row.values())), str):
        return next(iter(row.values()))
    return None


def _walk(value, count):
    """The segments of one JSON value (strings numbered in document order: ``count``, a one-element list, counts
    them across the values of a file)."""
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value.startswith("<") and "<annotations>" in value:
                for found in xml_segments(value.encode("utf-8")) or []:
                    yield found
                continue
            value = value.casefold()   # the document was NFC before it was parsed
            value_words = WORD.findall(_TAGGED.sub("", value) if "__" in value else value)
            if value_words:
                count[0] += 1
                yield ("string", count[0]), value_words, None, no_annotation, None, BOTH
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            if value and all(_first(row) is not None for row in value):
                words, notes = [], []
                for row in value:
                    row_words = WORD.findall(_first(row).casefold())
                    words.extend(row_words)
                    notes.extend([row] * len(row_words))
                if words:
                    count[0] += 1
                    yield ("rows", count[0]), words, notes, _row_annotation, None, BOTH
            else:
                stack.extend(reversed(value))


# --------------------------------------------------------------------------- XML

def xml_segments(data):
    """An Anafora file: its gold units (``STANDOFF``: ``<type>@<span>``, and with the properties' values); another
    XML file: its text, read as plain text; None when it is not XML."""
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError):
        return None
    if root.tag == "data" and root.find("annotations") is not None:
        units = [unit.casefold() for unit in anafora_units(data) + anafora_units(data, True)]
        return [(("file", 0), sorted(set(units)), None, no_annotation, None, STANDOFF)] if units else []
    return plain_segments(unicodedata.normalize("NFC", "".join(root.itertext())))
