"""The item side of a kind: what one item of a reference file is, for everything that is not scoring.

A kind (:mod:`evalkit.kindspec`) scores a file; its ``items`` (an :class:`Items`) says what one item of its reference
files is, and every organiser tool takes it from there, never from a table of its own:

- the test phase's public/private split (``organiser/split.py``): :meth:`Items.read` and :meth:`Items.write` the
  file's items, :meth:`Items.scorable`, :meth:`Items.redact` (the item without its gold, as the uploaded part holds
  it), :meth:`Items.unscored`, :meth:`Items.key` (its input), :meth:`Items.identity` (what makes two items one:
  they are public together or not at all) and :meth:`Items.near_keys` (near copies, joined with them the same way);
- the leak audit (``organiser/audit.py``): :meth:`Items.public_texts` (the item as it would read in public text),
  :meth:`Items.label` (how a report names it), :meth:`Items.scramble` (the file with other gold, same inputs),
  :meth:`Items.secrets` (gold strings that must not show in any output);
- the contamination search (``organiser/contamination.py``): :meth:`Items.tokens` (the item's input as a sequence
  of words) and :meth:`Items.gold` (its gold strings, to say whether a public copy carries the same gold);
- what a participant is given (:attr:`Items.given`, a :class:`Given`): the test input a reference builder releases
  keeps that and nothing else (:meth:`Given.released`), and ``python -m organiser reference`` refuses a build whose
  test input holds more (:meth:`Given.beyond`). The defaults: a CoNLL-U input (:class:`ConlluInput`: the tagging,
  lemma and morphology kinds) keeps the ID and FORM columns, ``# text``, MISC ``SpaceAfter=No`` and sentence ids of
  the kit's own, every other column ``_`` (HEAD, DEPREL, DEPS are gold-derived; a corpus's ``sent_id``, ``# source``
  or MISC ``ref=`` would join the input back to a public treebank); a gap-filling line keeps the masked line alone
  (:class:`Columns`); a CoNLL-style test file the tokens alone (:class:`TokenLines`); a choice set its id and
  sentences (:class:`JsonFields`); a document its text and creation time (:class:`DocumentInput`).

Items are addressed by their 0-based position in :meth:`Items.read`'s list, the split's unit (``split.json``
``indices``). Standard library only: this module is part of every scoring program.
"""
import json
import os
import re
import unicodedata
import xml.etree.ElementTree as ElementTree

_WORD = re.compile(r"[\w\u0300-\u036f\u0483-\u0489\u0591-\u05c7]+", re.U)


def normal(text):
    """``text`` with its whitespace collapsed and stripped (how public texts are compared).

    >>> normal("  a\\t b\\n")
    'a b'
    """
    return " ".join(text.split())


def dump(value):
    """The canonical JSON text of ``value`` (how two JSON elements are compared)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def text_tokens(text):
    """The words of ``text`` (NFC, word characters and combining marks), for the contamination search.

    >>> text_tokens("In principio, erat verbum.")
    ['In', 'principio', 'erat', 'verbum']
    """
    return _WORD.findall(unicodedata.normalize("NFC", text)) if isinstance(text, str) else []


# --------------------------------------------------------------------------- what a participant is given

#: The ten columns of a CoNLL-U word line, in order (universaldependencies.org/format.html).
CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


class Findings(object):
    """What a released file holds beyond what is given, by class: how many times, and the first line."""

    def __init__(self):
        self.found = {}

    def add(self, what, line):
        """One more occurrence of ``what`` at (1-based) ``line``."""
        count, first = self.found.get(what, (0, line))
        self.found[what] = (count + 1, first)

    def lines(self):
        """One sentence per class, in the order first found."""
        return ["%s (%d, first at line %d)" % (what, count, first)
                for what, (count, first) in sorted(self.found.items(), key=lambda kv: kv[1][1])]


def _text_lines(data):
    """The lines of a released file's bytes (UTF-8, a BOM and ``\r`` dropped), numbered from 1."""
    text = data.decode("utf-8-sig", "replace")
    return [(number, line[:-1] if line.endswith("\r") else line)
            for number, line in enumerate(text.split("\n"), 1)]


class Given(object):
    """What a participant is given of a kind's items: a released input file (the test phase's public data, in the
    release's own layout) keeps this and nothing else. Each kind's :class:`Items` declares it (``given``); the
    reference builder writes the test input through :meth:`released`, and ``python -m organiser reference`` refuses
    a test input in which :meth:`beyond` finds anything.

    ``what``: what is given, in words; ``suffixes``: the endings of the released file names it is the input of
    (empty: every file). This default gives everything and checks nothing (a kind that declares no input of its
    own)."""

    what = "the input"
    suffixes = ()

    def claims(self, name):
        """Whether the released file ``name`` is this kind's input."""
        return not self.suffixes or name.endswith(tuple(self.suffixes))

    def released(self, data, name):
        """The bytes of the released file ``name`` keeping only what is given (``data``: the file as the release has
        it)."""
        return data

    def beyond(self, data, name):
        """What the released file ``name`` holds beyond what is given: one sentence per class of thing (how many,
        the first line), empty when nothing."""
        return []


class TokenLines(Given):
    """A CoNLL-style test file (``token<TAB>...<TAB>label`` files of a release, ``.conll``): one token a line (a
    token may start with ``#``: a hashtag), a blank line after each sentence, no label; a ``# sent_enum = N`` line may
    open the N-th sentence (the kit's own numbering, without the sentence's label)."""

    what = "the tokens, one a line (and `# sent_enum = N`, the kit's sentence numbers)"
    suffixes = (".conll",)

    def beyond(self, data, name):
        """Labels after a token or on a ``# sent_enum`` line, other sentence numbers."""
        found, number, fresh = Findings(), 0, True
        for line_number, line in _text_lines(data):
            if not line.strip():
                fresh = True
                continue
            if fresh:
                number, fresh = number + 1, False
            if line.startswith("# sent_enum"):
                value = line.partition("=")[2]
                if "\t" in value:
                    found.add("a label on the `# sent_enum` line", line_number)
                elif value.strip() != str(number):
                    found.add("sentence numbers other than the kit's own (1, 2, ...)", line_number)
            elif "\t" in line:
                found.add("a column after the token (a label)", line_number)
        return found.lines()


class ConlluInput(Given):
    """A CoNLL-U input file (``.conllu``; a CoNLL-style ``.conll`` file is read as :class:`TokenLines`).

    ``columns``: the CoNLL-U columns kept (the others are written ``_``); ``comments``: the comment lines kept, by
    key (``# text = ...``: ``text``); ``misc``: the MISC entries kept (the others are dropped, MISC ``_`` when none
    is left); ``own_ids``: every sentence gets the kit's own ``# sent_id = <file stem>-<n>`` (``n`` from 1), whatever
    id the release gave it. Empty nodes (decimal ids) are dropped: no task scores them, and their rows come from the
    enhanced graph. The defaults keep what a tagging task needs (the forms, multiword-token ranges, ``SpaceAfter=No``,
    the sentence's text); the gold (LEMMA, UPOS, XPOS, FEATS), what is derived from a gold (HEAD, DEPREL, DEPS, MISC
    such as ``LId=``, ``Gloss=``) and the ids that point into a public corpus (``sent_id``, ``# source``,
    ``# newdoc id``, MISC ``ref=``) are not given."""

    what = "the forms (ID and FORM, multiword-token ranges), `# text`, MISC `SpaceAfter=No` and sentence ids of the kit's own"
    suffixes = (".conllu", ".conll")

    def __init__(self, columns=("ID", "FORM"), comments=("text",), misc=("SpaceAfter=No",), own_ids=True):
        unknown = [column for column in columns if column not in CONLLU_COLUMNS]
        if unknown:
            raise ValueError("not CoNLL-U columns: %s (the columns are %s)" % (", ".join(unknown),
                                                                                 ", ".join(CONLLU_COLUMNS)))
        self.columns, self.comments, self.misc = tuple(columns), tuple(comments), tuple(misc)
        self.own_ids = own_ids
        self.kept = [column in columns for column in CONLLU_COLUMNS]

    @staticmethod
    def sentence_id(name, number):
        """The kit's own id of the ``number``-th (1-based) sentence of the released file ``name``."""
        return "%s-%d" % (os.path.basename(name).split(".")[0], number)

    def _sentences(self, data):
        """``[(comments, rows)]``: each sentence's comment lines ``(line number, key, line)`` and word lines ``(line
        number, columns)`` (padded to ten columns)."""
        sentences, comments, rows = [], [], []
        for number, line in _text_lines(data) + [(0, "")]:
            if not line.strip():
                if comments or rows:
                    sentences.append((comments, rows))
                comments, rows = [], []
            elif line.startswith("#"):
                comments.append((number, line[1:].partition("=")[0].strip(), line))
            else:
                columns = line.split("\t")
                rows.append((number, columns + ["_"] * (len(CONLLU_COLUMNS) - len(columns))))
        return sentences

    def _misc(self, value):
        kept = [entry for entry in value.split("|") if entry in self.misc]
        return "|".join(kept) if kept else "_"

    def released(self, data, name):
        """The file with the kept columns, comments and MISC entries, the kit's sentence ids, no empty node."""
        if not name.endswith(".conllu"):
            return data
        out = []
        for number, (comments, rows) in enumerate(self._sentences(data), 1):
            if self.own_ids:
                out.append("# sent_id = %s" % self.sentence_id(name, number))
            out.extend(line for _, key, line in comments if key in self.comments)
            for _, columns in rows:
                if "." in columns[0]:
                    continue
                cells = [columns[index] if keep else "_" for index, keep in enumerate(self.kept)]
                if not self.kept[-1]:
                    cells[-1] = self._misc(columns[len(CONLLU_COLUMNS) - 1])
                out.append("\t".join(cells))
            out.append("")
        return ("\n".join(out) + "\n").encode("utf-8") if out else b""

    def beyond(self, data, name):
        """Comment lines not kept, ids other than the kit's, values in columns not kept, MISC entries not kept,
        empty nodes."""
        if not name.endswith(".conllu"):
            return TokenLines().beyond(data, name)
        found = Findings()
        for number, (comments, rows) in enumerate(self._sentences(data), 1):
            for line_number, key, line in comments:
                if key == "sent_id" and self.own_ids:
                    if line[1:].partition("=")[2].strip() != self.sentence_id(name, number):
                        found.add("`# sent_id` other than the kit's own", line_number)
                elif key not in self.comments:
                    found.add("`# %s` lines" % key, line_number)
            for line_number, columns in rows:
                if "." in columns[0]:
                    found.add("empty nodes", line_number)
                    continue
                if len(columns) > len(CONLLU_COLUMNS):
                    found.add("more than %d columns" % len(CONLLU_COLUMNS), line_number)
                for index, column in enumerate(CONLLU_COLUMNS):
                    value = columns[index]
                    if self.kept[index] or value == "_":
                        continue
                    if column != "MISC":
                        found.add("%s values (not `_`)" % column, line_number)
                        continue
                    for entry in value.split("|"):
                        if entry not in self.misc:
                            found.add("MISC `%s`" % entry.partition("=")[0], line_number)
        return found.lines()


class Columns(Given):
    """A tab-separated input file whose lines hold the first ``count`` columns only (a gap-filling test TSV: the
    masked line, without the source column that is its gold)."""

    suffixes = (".tsv",)

    def __init__(self, what, count=1):
        self.what, self.count = what, count

    def beyond(self, data, name):
        """Lines with more columns."""
        found = Findings()
        for line_number, line in _text_lines(data):
            if line.count("\t") >= self.count:
                found.add("more than %d column%s" % (self.count, "" if self.count == 1 else "s"), line_number)
        return found.lines()


class JsonFields(Given):
    """JSON Lines whose objects hold ``fields`` alone (choice sets: the id and the candidate sentences)."""

    suffixes = (".jsonl",)

    def __init__(self, fields):
        self.fields = tuple(fields)
        self.what = "per line, a JSON object of %s" % ", ".join("`%s`" % field for field in self.fields)

    def beyond(self, data, name):
        """Other keys, and lines that are no JSON object."""
        found = Findings()
        for line_number, line in _text_lines(data):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except ValueError:
                value = None
            if not isinstance(value, dict):
                found.add("lines that are no JSON object", line_number)
                continue
            for key in sorted(set(value) - set(self.fields)):
                found.add("`%s`" % key, line_number)
        return found.lines()


#: Markup of a gold annotation in a document file (Anafora XML, TimeML).
_ANNOTATION = re.compile(r"<(?:annotations|entity|relation|TIMEX3|EVENT|SIGNAL|TLINK|MAKEINSTANCE)\b")


class DocumentInput(Given):
    """A folder of documents: each document's text and its creation time, as plain text files (any name); no
    annotation (Anafora XML, TimeML markup)."""

    what = "each document's text and creation time (plain text)"

    def beyond(self, data, name):
        """Annotation files and markup."""
        found = Findings()
        if name.endswith(".xml"):
            found.add("an XML file (annotations)", 1)
        for line_number, line in _text_lines(data):
            if _ANNOTATION.search(line):
                found.add("annotation markup", line_number)
        return found.lines()


#: The CoNLL-U input of the kinds that read forms (tagging, lemmas, morphology), with its defaults.
CONLLU_INPUT = ConlluInput()


class Items(object):
    """The items of one kind's reference files. Subclasses give :meth:`read`, :meth:`write`, :meth:`key`,
    :meth:`redact` and :meth:`gold`; the rest has defaults."""

    #: How a report names one item: ``"<unit> <number>"`` (1-based), e.g. "sentence 3".
    unit = "item"
    #: What a participant is given of the items (:class:`Given`): what a released input file keeps.
    given = Given()

    def read(self, data):
        """The items of a reference file's ``data`` (bytes), in order."""
        raise NotImplementedError

    def write(self, items, original):
        """The bytes of a reference file holding ``items`` (``original``: the bytes they were read from)."""
        raise NotImplementedError

    def scorable(self, item):
        """Whether the item is scored (a reference builder may exclude some: they stay as they are)."""
        return True

    def key(self, item, task):
        """The item's input (what a participant is given of it), as JSON data."""
        raise NotImplementedError

    def identity(self, item, task):
        """What makes two items one (None: nothing): the gold of one would give away the other's, so they are public
        together or not at all. Default: the input (:meth:`key`)."""
        return json.dumps(self.key(item, task), sort_keys=True, ensure_ascii=False)

    def redact(self, item, task):
        """The item without its gold, as the uploaded part of a split phase holds it; the scorer reads it as an
        item with no gold (it checks the prediction's format against the input and scores it only where listed)."""
        raise NotImplementedError

    def unscored(self, item):
        """An item that is not scored, as the uploaded folder holds it (default: as it is)."""
        return item

    def gold(self, item, task):
        """The item's gold, as strings (the audit's and the contamination search's comparison)."""
        raise NotImplementedError

    def label(self, index, item):
        """How reports name the item at 0-based ``index``."""
        return "%s %d" % (self.unit, index + 1)

    def public_texts(self, item, task):
        """The item as it would read in public text (the leak audit's atoms: see ``organiser.audit.atoms``): its
        canonical JSON text by default."""
        return [dump(item)]

    def tokens(self, item, task):
        """The item's input as words (the contamination search's unit): the words of :meth:`key`'s strings."""
        found = []
        _strings(self.key(item, task), found)
        return [word for text in found for word in text_tokens(text)]

    def near_keys(self, item, task):
        """Keys that two items share when they are near copies of each other (their gold nearly gives each other's
        away: the split keeps them public together or not at all). None by default."""
        return []

    def scramble(self, data, task, lang):
        """``data`` with every gold replaced by another (same inputs): the leak audit compares the outputs of the
        two. None: this kind cannot scramble its gold (the audit's report rule then says so)."""
        return None

    def secrets(self, data, task, lang):
        """Gold strings of ``data`` that no output may show (none by default: labels from a small set are not
        secrets)."""
        return []


def _strings(value, found):
    """Every string in ``value`` (JSON data), in order."""
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _strings(item, found)
    elif isinstance(value, dict):
        for key in sorted(value):
            _strings(value[key], found)


def _json(data):
    return json.loads(data.decode("utf-8-sig"))


def _other_tag(tag):
    return "X" if tag != "X" else "NOUN"


def _scrambled_string(text):
    return text[::-1] + "q" if isinstance(text, str) else text


#: Sentences of fewer tokens than this are not joined with their near copies (one token apart is most of them).
NEAR_MIN_TOKENS = 4


def one_token_apart(tokens):
    """The keys two token sequences share when they are one token apart (one replaced, added or removed), and only
    then or when equal: the sequence itself, and for each position the sequence with that token replaced by a
    wildcard and with it removed. Sequences shorter than :data:`NEAR_MIN_TOKENS` have none.

    >>> a, b, c = one_token_apart(["in", "the", "old", "house"]), one_token_apart(["in", "the", "new", "house"]), \
    ...     one_token_apart(["in", "the", "old", "big", "house"])
    >>> bool(set(a) & set(b)), bool(set(a) & set(c)), bool(set(b) & set(c))
    (True, True, False)
    """
    if len(tokens) < NEAR_MIN_TOKENS:
        return []
    tokens = [token if isinstance(token, str) else "" for token in tokens]
    keys = ["\x1f".join(tokens)]
    for position in range(len(tokens)):
        keys.append("\x1f".join(tokens[:position] + ["\x00"] + tokens[position + 1:]))
        keys.append("\x1f".join(tokens[:position] + tokens[position + 1:]))
    return keys


class JsonItems(Items):
    """A reference file that is a JSON list, one item per sentence (the JSON kinds of :mod:`evalkit.kinds`)."""

    unit = "sentence"

    def read(self, data):
        """The file's items."""
        return _json(data)

    def write(self, items, original):
        """The bytes of a file holding ``items``."""
        return (json.dumps(items, ensure_ascii=False) + "\n").encode("utf-8")


class PairItems(JsonItems):
    """``[[form, gold], ...]`` sentences (tagging, lemmas). ``secret_golds``: the golds are open strings (lemmas),
    secrets of the audit; tags from a small set are not. Given: the forms of a CoNLL-U (or CoNLL-style) input."""

    given = CONLLU_INPUT

    def __init__(self, secret_golds=False):
        self.secret_golds = secret_golds

    def key(self, item, task):
        """The forms."""
        return [row[0] for row in item]

    def near_keys(self, item, task):
        """A sentence one token apart from another is one item with it (:func:`one_token_apart`)."""
        return one_token_apart(self.key(item, task))

    def redact(self, item, task):
        """Each row keeps its form; its gold is null."""
        return [[row[0], None] for row in item]

    def gold(self, item, task):
        """The gold strings."""
        return [row[1] for row in item if len(row) > 1 and isinstance(row[1], str)]

    def scramble(self, data, task, lang):
        """Every gold tag replaced by another tag, or every gold lemma by another string."""
        other = _scrambled_string if self.secret_golds else _other_tag
        return json.dumps([[[row[0], other(row[1])] + list(row[2:]) if isinstance(row, list) and len(row) > 1
                            else row for row in sentence] for sentence in _json(data)],
                          ensure_ascii=False).encode("utf-8")

    def secrets(self, data, task, lang):
        """The gold lemmas (none for tags)."""
        if not self.secret_golds:
            return []
        return [row[1] for sentence in _json(data) for row in sentence if isinstance(row, list) and len(row) > 1
                and isinstance(row[1], str)]


class MorphItems(JsonItems):
    """``[{"Token": form, "UPOS": ..., <feature>: <value>}, ...]`` sentences. Given: the forms of a CoNLL-U input."""

    given = CONLLU_INPUT

    def key(self, item, task):
        """The forms."""
        return [next((tok[k] for k in task.form_keys if k in tok), None) for tok in item]

    def near_keys(self, item, task):
        """A sentence one token apart from another is one item with it (:func:`one_token_apart`)."""
        return one_token_apart(self.key(item, task))

    def redact(self, item, task):
        """Each token keeps its form only."""
        return [dict((k, tok[k]) for k in task.form_keys if k in tok) for tok in item]

    def gold(self, item, task):
        """The values of every token but its form."""
        return ["%s=%s" % (k, v) for tok in item for k, v in sorted(tok.items()) if k not in task.form_keys]

    def scramble(self, data, task, lang):
        """Another UPOS and every feature value changed."""
        out = []
        for sentence in _json(data):
            rows = []
            for token in sentence:
                if not isinstance(token, dict):
                    rows.append(token)
                    continue
                row = {}
                for key, value in token.items():
                    if key in task.form_keys:
                        row[key] = value
                    elif key == "UPOS":
                        row[key] = _other_tag(value)
                    else:
                        row[key] = _scrambled_string(value)
                rows.append(row)
            out.append(rows)
        return json.dumps(out, ensure_ascii=False).encode("utf-8")


class FillMaskItems(JsonItems):
    """``{"masked", "text", "masked_tokens"}`` sentences; ``masked_tokens: null`` is an excluded sentence. Given: the
    masked line alone (a one-column TSV; the release's ``src`` column is the gold)."""

    given = Columns("the masked line (one column)")

    def key(self, item, task):
        """The masked line."""
        return item.get("masked")

    def scorable(self, item):
        """A sentence with at least one gap and a gold."""
        return bool(item.get("masked_tokens"))

    def redact(self, item, task):
        """The masked line and one null per gap (the unmasked text is gold too)."""
        return {"masked": item.get("masked"), "masked_tokens": [None] * len(item["masked_tokens"])}

    def identity(self, item, task):
        """The unmasked sentence: the word-level and the character-level lines of one sentence are one item (the
        one's text gives the other's gold)."""
        text = item.get("text")
        return " ".join(text.split()) if isinstance(text, str) and text.strip() else None

    def unscored(self, item):
        """An excluded sentence without its unmasked text (it may be another line's gold); the rest as it is."""
        return dict((key, value) for key, value in item.items() if key != "text")

    def gold(self, item, task):
        """The gap fillers and the unmasked text."""
        golds = [g.get("masked_token") if isinstance(g, dict) else g for g in item["masked_tokens"]]
        return [g for g in golds if isinstance(g, str)] + ([item["text"]] if isinstance(item.get("text"), str) else [])

    def public_texts(self, item, task):
        """Its canonical text and its unmasked text (the gold is readable from any public copy of the sentence); a
        line without gaps has no gold, so nothing."""
        if not (isinstance(item, dict) and item.get("masked_tokens")):
            return []
        return [dump(item)] + ([normal(item["text"])] if isinstance(item.get("text"), str) else [])

    def tokens(self, item, task):
        """The words of the unmasked text when the reference has it (the whole sentence), else of the masked line."""
        text = item.get("text") if isinstance(item.get("text"), str) else item.get("masked")
        return text_tokens(text)

    def scramble(self, data, task, lang):
        """Every gold gap filler changed (and the text with it)."""
        value = _json(data)
        for sentence in value:
            golds = sentence.get("masked_tokens") if isinstance(sentence, dict) else None
            if isinstance(golds, list):
                sentence["masked_tokens"] = [_scrambled_string(g) if isinstance(g, str) else g for g in golds]
                sentence["text"] = sentence.get("masked", "")
        return json.dumps(value, ensure_ascii=False).encode("utf-8")

    def secrets(self, data, task, lang):
        """The gold gap fillers."""
        return [g for sentence in _json(data) if isinstance(sentence, dict)
                for g in (sentence.get("masked_tokens") or []) if isinstance(g, str)]


class BlockItems(Items):
    """Line-aligned text (:mod:`evalkit.lines`): one item per blank-line separated sentence (a list of lines).
    ``sentence_level``: the label is on the ``# sent_enum`` line, not on the token lines. Given: the tokens alone
    (:class:`TokenLines`)."""

    unit = "sentence"
    given = TokenLines()

    def __init__(self, sentence_level):
        self.sentence_level = sentence_level

    def read(self, data):
        """The sentences (lists of lines, ``\\r`` dropped), as the scorer's reference parser groups them."""
        blocks, block = [], []
        for line in data.decode("utf-8").split("\n") + [""]:
            line = line[:-1] if line.endswith("\r") else line
            if not line.strip():
                if block:
                    blocks.append(block)
                block = []
            else:
                block.append(line)
        return blocks

    def write(self, items, original):
        """Sentences separated by one blank line."""
        return ("\n\n".join("\n".join(block) for block in items) + "\n").encode("utf-8")

    def key(self, item, task):
        """The tokens."""
        return [line.split("\t")[0] for line in item if not line.startswith("# sent_enum")]

    def redact(self, item, task):
        """Token lines keep the token alone and ``# sent_enum`` lines lose their label, as in the test input: a
        redacted sentence has no tab."""
        return [line.split("\t")[0] for line in item]

    def gold(self, item, task):
        """The labels."""
        if self.sentence_level:
            return [line.split("\t")[-1].strip() for line in item if line.startswith("# sent_enum") and "\t" in line]
        return [line.split("\t")[-1] for line in item if not line.startswith("# sent_enum") and "\t" in line]

    def public_texts(self, item, task):
        """The sentence with its labels, line by line normalised (nothing for a redacted sentence: no label)."""
        if not any("\t" in line for line in item):
            return []
        return ["\n".join(normal(line) for line in item)]

    def scramble(self, data, task, lang):
        """Each label rotated to the next of the dataset's label set."""
        labels = list(task.labels[lang])
        rotate = dict((label, labels[(index + 1) % len(labels)]) for index, label in enumerate(labels))
        out = []
        for line in data.decode("utf-8-sig").split("\n"):
            head, tab, label = line.rpartition("\t")
            out.append(head + tab + rotate.get(label.strip(), label) if tab else line)
        return "\n".join(out).encode("utf-8")


class SetItems(Items):
    """JSON Lines choice sets (:mod:`evalkit.choice`): one item per set. Two sets whose gold sentence is the same
    (one sentence under two ids) are one item: the gold of one gives the other's away. Given: each set's id and
    candidate sentences."""

    unit = "set"
    given = JsonFields(("id", "sentences"))

    def read(self, data):
        """The sets."""
        return [json.loads(line) for line in data.decode("utf-8-sig").split("\n") if line.strip()]

    def write(self, items, original):
        """One set a line."""
        return "".join(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items).encode("utf-8")

    def key(self, item, task):
        """The set's id and candidate sentences."""
        return [item.get("id"), item.get("sentences")]

    def identity(self, item, task):
        """The gold sentence (normalised), else the candidates."""
        gold = _gold_sentence(item)
        if gold is not None:
            return "gold:" + normal(gold)
        return json.dumps(self.key(item, task)[1:], sort_keys=True, ensure_ascii=False)

    def redact(self, item, task):
        """The id and the candidates; gold and gold type null (anything else the set carries is left out)."""
        return {"id": item.get("id"), "sentences": item.get("sentences"), "gold": None, "gold_type": None}

    def gold(self, item, task):
        """The gold index and the gold type, as strings (the gold sentence itself is one of the candidates)."""
        return ["gold=%s" % item.get("gold"), "gold_type=%s" % item.get("gold_type")]

    def label(self, index, item):
        """``set <n>``."""
        return "set %d" % (index + 1)

    def public_texts(self, item, task):
        """The set's canonical text."""
        return [dump(item)]

    def tokens(self, item, task):
        """The words of the gold sentence (the one a public corpus would hold), else of every candidate."""
        gold = _gold_sentence(item)
        if gold is not None:
            return text_tokens(gold)
        return Items.tokens(self, item, task)

    def scramble(self, data, task, lang):
        """Each gold moved to the next sentence of its set."""
        out = []
        for line in data.decode("utf-8-sig").split("\n"):
            if not line.strip():
                out.append(line)
                continue
            item = json.loads(line)
            count = len(item.get("sentences") or [])
            if count > 1 and isinstance(item.get("gold"), int):
                item["gold"] = (item["gold"] + 1) % count
                types = item.get("types")
                if isinstance(types, list) and len(types) == count:
                    item["gold_type"] = types[item["gold"]]
            out.append(json.dumps(item, ensure_ascii=False, sort_keys=True))
        return "\n".join(out).encode("utf-8")

    def secrets(self, data, task, lang):
        """The gold sentence of each set."""
        return [gold for gold in (_gold_sentence(item) for item in self.read(data)) if gold is not None]


def _gold_sentence(item):
    """The gold sentence of a choice set, or None."""
    sentences = item.get("sentences") if isinstance(item, dict) else None
    gold = item.get("gold") if isinstance(item, dict) else None
    if isinstance(gold, int) and not isinstance(gold, bool) and isinstance(sentences, list) \
            and 0 <= gold < len(sentences) and isinstance(sentences[gold], str):
        return sentences[gold]
    return None


class DocumentItems(Items):
    """A JSON object of Anafora documents (:mod:`evalkit.timenorm.kind`): one item per document. Given: each
    document's text and creation time."""

    unit = "document"
    given = DocumentInput()

    def read(self, data):
        """The documents."""
        return _json(data)["documents"]

    def write(self, items, original):
        """The original object with these documents."""
        value = _json(original)
        value["documents"] = items
        return (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8")

    def key(self, item, task):
        """The document's name."""
        return item.get("name")

    def redact(self, item, task):
        """The document with a null gold (read as a document without any entity where the scorer knows the file is
        a part, refused as not whole gold elsewhere: a part is never split again)."""
        return dict(item, xml=None)

    def gold(self, item, task):
        """The gold XML."""
        return [item.get("xml") or ""]

    def label(self, index, item):
        """The document's name."""
        name = item.get("name") if isinstance(item, dict) else None
        return name if isinstance(name, str) and name else "document %d" % (index + 1)

    def public_texts(self, item, task):
        """The gold XML, normalised (nothing for a redacted document)."""
        xml = item.get("xml") if isinstance(item, dict) else None
        return [normal(xml)] if isinstance(xml, str) and xml else []

    def tokens(self, item, task):
        """The words of the document's text when the file carries it (``text``), else none."""
        return text_tokens(item.get("text")) if isinstance(item, dict) else []

    def scramble(self, data, task, lang):
        """Every other entity that nothing points to removed."""
        value = _json(data)
        for document in value.get("documents") or []:
            if not isinstance(document.get("xml"), str):   # a redacted document (a split test phase): no gold
                continue
            root = ElementTree.fromstring(document["xml"].encode("utf-8"))
            annotations = root.find("annotations")
            if annotations is None:
                continue
            entities = list(annotations.findall("entity"))
            referenced = set(prop.text.strip() for entity in entities for properties in entity.findall("properties")
                             for prop in properties.iter() if prop.text)
            dropped = [e for e in entities if (e.findtext("id") or "").strip() not in referenced][::2]
            for entity in dropped:
                annotations.remove(entity)
            document["xml"] = ElementTree.tostring(root, encoding="unicode")
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
