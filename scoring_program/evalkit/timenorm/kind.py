"""The scorer's kinds for Anafora time annotations: a submission is a folder of per-document XML files.

Two kinds, wired through the kit's kind protocol (``reads_text`` for the reference file, ``reads_documents`` for
the submission, see :func:`evalkit.scoring.score_file` and :func:`evalkit.lines.find_named_files`):

- ``scate_intervals``: full SCATE gold. Official metric: the interval F1 of the SCATE paper, Section 3, over
  text regions (:func:`.metrics.interval_sums`, pooled over every document: the reference's formula where items
  pair one to one, no double counting where they do not); components also hold the interval precision and recall
  and the entity identification (span + type) and composition (span + type + properties, links compared
  recursively) F1, over sets (SemEval 2018 Task 6).
- ``scate_spans``: gold that has spans and types only (such as the public test gold of the SCATE data).
  Official metric: entity identification F1 over the sets of (span, type) pairs.

Reference file (one per task, what the competition's reference builder writes), JSON::

    {"format": "anafora-documents-1", "gold": "full" | "spans",
     "documents": [{"name": "<doc>", "dct": "1998-08-07", "text": "...", "xml": "<data>...</data>"}, ...],
     "other_splits": {"<split>": ["<doc>", ...], ...}}

``other_splits`` (optional): the names of the documents of the data's other splits, so that files submitted for
another split's documents are said to be so. A name may be given as its digest, ``"sha256:<hex>"``
(:func:`name_digest`): a split whose input is not yet released (the test split, from the development phase's
reference) is named without its document names being written.

The document creation time reaches the interpreter as a date only (``dct[:10]``). Every XML file, the reference's
and the participant's, is read by :mod:`.anafora` (no DTD, no entities, bounded; spans checked against the text).
Standard library only, Python 3.7+.
"""
import difflib
import hashlib
import json
import re
import time
from collections import OrderedDict

from .. import naming
from ..items import DocumentItems
from ..kinds import Entry
from ..metrics import f1_from_counts, ratio
from ..messages import DataError, Message, ERROR, WARNING, printable, quoted
from . import mends
from . import types as T
from .anafora import MAX_BYTES, Document, read_anafora
from .calendar import TimeError
from .items import scate_items
from .metrics import Item, entity_counts, entity_counts_by_type, harmonic, interval_sums, prf
from .schema import ProblemClass, _cuts, check_document
from .scate import SKIP_TYPES, Interpreter, interpret, parse_dct

#: The entity types left out of the entity metrics on both sides: the spans-only gold has none of them.
ENTITY_SKIP = frozenset(["Event", "PreAnnotation", "NotNormalizable"])
REFERENCE_FORMAT = "anafora-documents-1"
#: A prediction file may be this many times its gold file's size (plus :data:`SLACK_BYTES`), never more.
SIZE_FACTOR = 16
SLACK_BYTES = 256 * 1024


class Gold(object):
    """One reference document: name, creation time (as given), text, parsed gold and the gold file's size."""

    __slots__ = ("name", "dct", "text", "document", "size")

    def __init__(self, name, dct, text, document, size):
        self.name = name
        self.dct = dct
        self.text = text
        self.document = document
        self.size = size


class Reference(object):
    """A parsed reference file: its documents in order, whether the gold is ``full`` or ``spans``, and the document
    names of the data's other splits (``{split: set of names}``, empty when the file does not give them)."""

    def __init__(self, documents, gold, size, other_splits=None):
        self.documents = documents
        self.gold = gold
        self.size = size
        self.by_name = OrderedDict((doc.name, doc) for doc in documents)
        self.other_splits = other_splits or {}

    def __len__(self):
        return len(self.documents)


def _field(value, key, kind, name, where):
    """``value[key]`` checked to be of ``kind``; DataError otherwise."""
    got = value.get(key) if isinstance(value, dict) else None
    if not isinstance(got, kind):
        raise DataError(name, where, "expected %r as a %s, got %s" % (key, kind.__name__, type(got).__name__))
    return got


#: What a redacted document's gold is read as (``redacted``): a document without any entity.
_NO_ENTITY = b"<data><annotations></annotations></data>"


def parse_reference(data, name, expect_gold, redacted=False):
    """The :class:`Reference` in ``data`` (bytes of the JSON above); DataError when it is broken.

    ``expect_gold``: "full" or "spans", what the task needs ("spans" accepts full gold too). A document whose
    ``xml`` is null is a redacted one (the private part of a split test phase, :mod:`evalkit.split`): with
    ``redacted``, it is read as a document without any entity (it is not scored); without, the file is refused as
    not whole gold.
    """
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise DataError(name, "", "expected a JSON reference file, got: %s" % err)
    if _field(value, "format", str, name, "") != REFERENCE_FORMAT:
        raise DataError(name, "format", "expected %r, got %r" % (REFERENCE_FORMAT, value.get("format")))
    gold = _field(value, "gold", str, name, "")
    if gold not in ("full", "spans") or (expect_gold == "full" and gold != "full"):
        raise DataError(name, "gold", "expected %s, got %r" % ("'full'" if expect_gold == "full" else
                                                               "'full' or 'spans'", gold))
    documents = []
    for index, item in enumerate(_field(value, "documents", list, name, "")):
        where = "documents[%d]" % index
        doc = _field(item, "name", str, name, where)
        text = _field(item, "text", str, name, where)
        if redacted and item.get("xml", "") is None:
            xml = _NO_ENTITY
        elif item.get("xml", "") is None:
            raise DataError(name, where, "document %s: expected its gold XML, got null: a redacted document, so this "
                            "file is the public part of a split test phase, not whole gold" % doc)
        else:
            xml = _field(item, "xml", str, name, where).encode("utf-8")
        document = read_anafora(xml, "%s: document %s" % (name, doc), text)
        dct = _field(item, "dct", str, name, where)
        try:
            parse_dct(dct[:10])
        except TimeError as err:
            raise DataError(name, where, "document %s: %s" % (doc, err))
        documents.append(Gold(doc, dct, text, document, len(xml)))
    if not documents:
        raise DataError(name, "documents", "expected at least one document, got none")
    others = value.get("other_splits")
    others = dict((split, frozenset(n for n in names if isinstance(n, str))) for split, names in others.items()
                  if isinstance(split, str) and isinstance(names, list)) if isinstance(others, dict) else {}
    return Reference(documents, gold, len(data), others)


def name_digest(name):
    """The digest of a document name as :data:`Reference.other_splits` may hold it: ``"sha256:<hex>"`` of its UTF-8.

    >>> name_digest("a")[:15]
    'sha256:ca978112'
    """
    return "sha256:" + hashlib.sha256(name.encode("utf-8")).hexdigest()


def _member(doc, names):
    """Whether the document name ``doc`` is among ``names`` (names or their :func:`name_digest`)."""
    return doc in names or name_digest(doc) in names


def other_split(extra, ref):
    """The split of the data (:attr:`Reference.other_splits`, names or their :func:`name_digest`) that at least
    half of the ``extra`` document names (files for documents this phase does not have) belong to, or ""."""
    counts = sorted(((sum(1 for doc in extra if _member(doc, names)), split)
                     for split, names in ref.other_splits.items()), reverse=True)
    return counts[0][1] if counts and counts[0][0] and 2 * counts[0][0] >= len(extra) else ""


def extra_hints(extra, missing):
    """``[(extra document, the missing document it most likely is)]``: names that differ from one of ``missing``
    only in letter case, by a file extension left on (``.tml``, ``.txt``), or by a close spelling."""
    found = []
    for doc in extra:
        known = naming.case_match(doc, missing) or next((m for m in missing if doc.lower().startswith(m.lower() + ".")
                                                         and doc[len(m) + 1:].isalpha()), "")
        if not known:
            close = difflib.get_close_matches(doc, missing, n=1, cutoff=0.85)
            known = close[0] if close else ""
        if known:
            found.append((doc, known))
    return found


#: A submission whose scored entities all have one type gets a warning from this many entities on.
CONSTANT_MIN = 5

#: A prediction's link graph may unfold (every entity's tree of linked entities, shared parts repeated, summed
#: over all entities) into at most this many entities: the interpreter and the composition metric walk those
#: trees, so a graph that shares sub-graphs many times over would take exponential time. The public gold
#: documents unfold into at most 186 (less than a twentieth of the bound).
MAX_UNFOLDED = 4000


def check_graph(document, name):
    """Raise DataError when ``document``'s links form a cycle or unfold into more than :data:`MAX_UNFOLDED`
    entities (see above); iterative, linear in the number of links.

    Entities are known by their id, as always. Where ids are used more than once, that takes two entities for one
    and may see a cycle or a size that the links, followed as the reader follows them (to the last entity with the
    id), do not have: the graph is then checked again with each entity as itself, and the file is refused only
    for what that finds, the ids used twice named first when they are on it (:func:`_duplicates_first`)."""
    try:
        _check_graph(document, name, lambda entity: entity.id)
    except DataError:
        if not document.duplicate_ids:
            raise
        _check_graph(document, name, id)


def _check_graph(document, name, key):
    """:func:`check_graph` with the entities known by ``key(entity)``."""
    size, state, parent = {}, {}, {}
    for root in document.entities:
        if key(root) in size:
            continue
        stack = [(root, False)]
        while stack:
            entity, done = stack.pop()
            if done:
                state[key(entity)] = 2
                size[key(entity)] = min(MAX_UNFOLDED + 1, 1 + sum(size[key(c)] for c in document.children(entity)))
                continue
            if state.get(key(entity)) == 2:
                continue
            state[key(entity)] = 1
            stack.append((entity, True))
            for child in document.children(entity):
                if state.get(key(child)) == 1:
                    cycle, step = [child, entity], entity
                    while step is not child and key(step) in parent and len(cycle) <= len(state):
                        step = parent[key(step)]
                        cycle.append(step)
                    raise _duplicates_first(document, name, [e.id for e in cycle], child, "expected links without "
                                            "cycles, got a cycle of links through this entity and %s" % entity.id,
                                            "on a link of entity %s to itself" % entity.id if child is entity else
                                            "on a cycle of links through entity %s and %s" % (child.id, entity.id))
                if state.get(key(child)) != 2:
                    parent[key(child)] = entity
                    stack.append((child, False))
    total = sum(size.values())
    if total > MAX_UNFOLDED:
        worst = max(document.entities, key=lambda e: size[key(e)])
        raise _duplicates_first(document, name, [e.id for e in document.descendants(worst)], worst, "expected a "
                                "graph of time entities whose links unfold into at most %d entities in all, got more "
                                "(entities linked many times over)" % MAX_UNFOLDED, "among the entities linked from "
                                "entity %s, whose links unfold into more than %d entities" % (worst.id, MAX_UNFOLDED))


def _duplicates_first(document, name, ids, entity, text, where):
    """The DataError of a link graph refused at ``entity`` for ``text``. When entity ids of ``ids`` (the entities
    concerned) are used more than once in ``document``, they are the cause and the error names them instead, at the
    second use of the first one: a link to such an id reaches only the last entity that has it, so links meant for
    other entities made the graph refused (``where``: where they are on it)."""
    on_graph = set(ids)
    duplicated = [ident for ident in OrderedDict.fromkeys(document.duplicate_ids) if ident in on_graph]
    if not duplicated:
        return DataError(name, _where(entity), text)
    second = [e for e in document.entities if e.id == duplicated[0]][1]
    return DataError(name, _where(second), (
        "expected every entity id used once, got %d id%s used more than once %s (%s): a link to such an id reaches "
        "only the last entity that has it, so links meant for other entities %s. Give every entity an id of its own "
        "(Anafora's <number>@e@<document>@system)" % (
            len(duplicated), "" if len(duplicated) == 1 else "s", where,
            ", ".join(quoted(ident, 60) for ident in duplicated[:3]) + (", ..." if len(duplicated) > 3 else ""),
            "are followed many times over" if where.startswith("among") else "close the cycle")))


def dropped_entities(document, name, length, explained=False):
    """One warning when entities of ``document`` (file ``name``, of a text of ``length`` characters) were dropped
    for a span ending after the text (:func:`.anafora.read_anafora`'s ``drop_outside``), else none: the count, the
    first, and the likely causes (``explained``: the offsets were found counted on another text, said before,
    :func:`.mends.other_text`); the rest of the file is scored."""
    if not getattr(document, "dropped", None):
        return []
    ident, line, (start, end) = document.dropped[0]
    count = len(document.dropped)
    return [Message(name, WARNING, "entity %s (line %d)" % (ident, line), (
        "%d entit%s with a span ending after the document's text (%d characters; first: span %d,%d): %s dropped "
        "(%s nothing), the rest of the file is scored. %s" % (
            count, "y" if count == 1 else "ies", length, start, end, "it is" if count == 1 else "they are",
            "it predicts" if count == 1 else "they predict",
            "This follows from the offsets counted on another text (the warning before)." if explained else
            "Spans are 0-based character offsets, end excluded, into the document's text as given: are these offsets "
            "counted from 1, in bytes, or over another document's text?")))]


def duplicate_ids(document, name):
    """One warning when entity ids of ``document`` (file ``name``) are used more than once, else none: a link to
    such an id reaches only the last entity that has it, and the others can never be linked to."""
    if not document.duplicate_ids:
        return []
    counts = OrderedDict()
    for ident in document.duplicate_ids:
        counts[ident] = counts.get(ident, 1) + 1
    first = [e for e in document.entities if e.id == document.duplicate_ids[0]][1]   # its second use
    shown = ", ".join("%s x%d" % (quoted(ident, 60) if ident else "'' (an empty <id>)", count)
                      for ident, count in list(counts.items())[:3])
    return [Message(name, WARNING, _where(first), "%d entity id%s used more than once: %s%s. A link to such an id "
                    "reaches only the last entity that has it; the others are never linked to. Give every entity an "
                    "id of its own (Anafora's <number>@e@<document>@system)." % (
                        len(counts), "" if len(counts) == 1 else "s", shown,
                        ", and %d more" % (len(counts) - 3) if len(counts) > 3 else ""))]


#: Anafora's entity ids: ``<number>@e@<document>@<annotator>``.
_ANAFORA_ID = re.compile(r"^[0-9]+@e@(.+)@[^@]*$")


def named_document(document, own):
    """The other document that most of ``document``'s entity ids name (Anafora ids ``<n>@e@<document>@...``),
    when at least half of its entities name one same document other than ``own``; else None (ids of another form
    name nothing).

    >>> from .anafora import Entity
    >>> named_document(Document([Entity("1@e@B@gold", "Year", "", [(0, 4)], {})]), "A")
    'B'
    """
    named = {}
    for entity in document.entities:
        match = _ANAFORA_ID.match(entity.id)
        if match:
            named[match.group(1)] = named.get(match.group(1), 0) + 1
    if not named:
        return None
    best = max(sorted(named), key=lambda doc: named[doc])
    return best if best != own and 2 * named[best] >= len(document.entities) else None


#: A prediction's time expressions may have at most this many intervals in all, per document (an expression
#: such as "the last ten thousand seconds" has 10,000); the public gold documents have at most 36.
MAX_INTERVALS = 50000
#: A prediction's time expressions may take at most this many steps of search in all, per document (each one
#: at most :data:`.types.DEFAULT_STEPS`), and at most :data:`DOCUMENT_SECONDS` of CPU: together about a second
#: or two on the 2-core reference machine. The public gold documents take at most 556 steps.
DOCUMENT_STEPS = 500000
DOCUMENT_SECONDS = 5.0

#: The classes of top entities without an interval that get a message (:attr:`.scate.Timex.reason`); an
#: undefined expression (vague, modified, an event...) gets none: the gold has many.
_REFUSALS = OrderedDict([
    ("interpret", ("top entity cannot be interpreted as a time expression (it gets no interval)",
                   "top entities cannot be interpreted as time expressions (they get no interval)")),
    ("compute", ("top entity has no computable interval", "top entities have no computable interval")),
    ("limit", ("top entity took too long a search, stopped after %d steps (it gets no interval)" % T.DEFAULT_STEPS,
               "top entities took too long a search, each stopped after %d steps (they get no interval)"
               % T.DEFAULT_STEPS)),
    ("internal", ("top entity met an internal error of the interpreter, please report it (it gets no interval)",
                  "top entities met an internal error of the interpreter, please report it (they get no interval)")),
])


def system_items(document, dct, name, steps=DOCUMENT_STEPS, seconds=DOCUMENT_SECONDS):
    """The interval items of a prediction (as :func:`.items.scate_items`), interpreting one top entity at a time
    within the document's budget: ``(items, messages, refusal)``.

    ``messages``: one warning per class of top entity left without an interval (:data:`_REFUSALS`), and one when
    the budget (``steps`` and ``seconds`` of CPU: :data:`DOCUMENT_STEPS`, :data:`DOCUMENT_SECONDS`) runs out: the
    entities interpreted until then are scored, the rest count as predicting no interval. ``refusal``: a DataError
    when the intervals number more than :data:`MAX_INTERVALS` (the document then counts as predicting nothing in
    the interval metric). ``document.spent``: the steps and seconds used.
    """
    interpreter = Interpreter(document, dct)
    found = OrderedDict((reason, ProblemClass(what)) for reason, what in _REFUSALS.items())
    tops = [entity for entity in document.top_entities() if entity.type not in SKIP_TYPES]
    items, messages, total, left = [], [], 0, steps
    started = time.process_time()
    deadline = started + seconds
    document.spent = (0, 0.0)
    for index, entity in enumerate(tops):
        budget = T.Budget(min(T.DEFAULT_STEPS, left), deadline)
        timex = interpret(interpreter, entity, budget)
        left -= budget.used
        document.spent = (steps - left, time.process_time() - started)
        exhausted = left <= 0 or time.process_time() > deadline
        if timex.reason in found and not (exhausted and timex.reason == "limit"):
            found[timex.reason].add(entity, entity.type if timex.reason == "limit" else quoted(
                timex.message.split(": ", 1)[-1] if timex.reason in ("interpret", "compute") else timex.message, 160))
        total += len(timex.intervals)
        if total > MAX_INTERVALS:
            return items, messages, DataError(name, _where(entity), "expected time expressions with at most %d "
                                              "intervals in all, got more by this one (this document counts as "
                                              "predicting nothing)" % MAX_INTERVALS)
        if timex.intervals:
            items.append(Item(timex.span, [(i.start, i.end) for i in timex.intervals], entity.id))
        if exhausted:
            after = len(tops) - index - 1
            if after or not timex.intervals:
                messages.append(Message(name, WARNING, _where(entity), "the document's interpretation budget (%d "
                                        "steps of search, %g s of CPU) ran out at this entity: %s %d top entities "
                                        "after it count as predicting no interval; the %d before it%s are scored as "
                                        "interpreted" % (DOCUMENT_STEPS, DOCUMENT_SECONDS, "the" if timex.intervals
                                                         else "it and the", after, index,
                                                         " and it" if timex.intervals else "")))
            break
    return items, [p.message(name) for p in found.values() if p.count] + messages, None


def _where(entity):
    """An entity's position for a message."""
    return "entity %s (line %d)" % (entity.id, entity.line)


class AnaforaKind(object):
    """Base of the two kinds: the reference file, the per-document prediction files, the score."""

    name = None
    #: What usually puts a file of this kind at its floor (evalkit/floor.py).
    floor_causes = ("entities outside the <annotations> element, spans in another unit (bytes instead of "
                    "characters, offsets from 1, or end offsets inclusive), files under other document names, "
                    "times interpreted without the document creation time")
    reads_text = True
    reads_documents = True
    gold = "full"
    items = DocumentItems()

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        """The parsed :class:`Reference` of one reference file (``redacted``: a document whose gold is null, in the
        public part of a split test phase, :mod:`evalkit.split`, is read as one without any entity)."""
        return parse_reference(data, name, self.gold, redacted)

    def restrict(self, ref, pred, indices):
        """The documents ``indices`` alone (see :meth:`evalkit.kinds.Kind.restrict`); predictions by name."""
        return Reference([ref.documents[i] for i in indices], ref.gold, ref.size), pred

    def predictions(self, ref, pred):
        """The read prediction of each document, in reference order (None: no usable file)."""
        return [pred.get(doc.name) for doc in ref.documents]

    def scorable(self, ref):
        """Every document is scored."""
        return list(range(len(ref)))

    def gold_prediction(self, data, task, lang):
        """The submission files that predict the gold of the reference bytes ``data`` (the conformance check's perfect
        submission, organiser/conformance.py): ``{member path: bytes}``, each document's gold Anafora XML under the
        task's per-document name."""
        documents = json.loads(data.decode("utf-8-sig"))["documents"]
        return dict((task.documents.replace("{doc}", document["name"]), document["xml"].encode("utf-8"))
                    for document in documents)

    def parse_prediction_documents(self, submission, task, lang, ref, log, file_limit):
        """``{document name: Document or None}`` for every reference document, read from the submission's
        per-document files (``submission.documents[(task folder, lang)]``, ``{document name: member path}``).

        A missing, oversized or unreadable file is reported (file, position, expected vs got) and the document
        scores as if nothing were predicted; a file for a document the reference lacks is reported and ignored.
        """
        found = submission.documents.get((task.folder, lang), {})
        first_message = len(log.messages)
        predictions = OrderedDict()
        missing = [doc.name for doc in ref.documents if doc.name not in found]
        if getattr(submission, "parsed_documents", None) is None:
            submission.parsed_documents = {}   # shared by the tasks that score the same files: one read, one message
        cache = submission.parsed_documents
        if missing and not cache.get(("missing", tuple(missing))):
            cache[("missing", tuple(missing))] = True
            log.add(ERROR, "", "%d of %d documents have no file (they count as predicting nothing): %s%s"
                    % (len(missing), len(ref), ", ".join(missing[:5]), ", ..." if len(missing) > 5 else ""))
        for doc in ref.documents:
            path = found.get(doc.name)
            if path is not None and path not in cache:
                cache[path] = self._read(submission, path, doc, log, file_limit)
            predictions[doc.name] = self._prepared(cache, path, doc, log)
        self._empty_documents(predictions, found, cache, log, getattr(submission, "second_files", {}))
        self._other_documents_ids(predictions, found, ref, cache, log)
        self._other_documents_texts(predictions, found, ref, cache, log, first_message)
        self._constant_type(predictions, found, ref, cache, log, first_message)
        self._copied_files(predictions, found, cache, log, first_message)
        extra = sorted(set(found) - set(ref.by_name))
        if extra and not cache.get(("extra", tuple(extra))):
            cache[("extra", tuple(extra))] = True
            hints = [(doc, known) for doc, known in extra_hints(extra, missing)   # not for another split's files
                     if not any(_member(doc, names) for names in ref.other_splits.values())]
            cased = [(doc, known) for doc, known in hints if doc.lower() == known.lower()]
            hint = (" Document names are compared with their letter case: did you mean %s?" % ", ".join(
                "%s for %s" % (known, doc) for doc, known in cased[:5])) if cased else ""
            other = [(doc, known) for doc, known in hints if doc.lower() != known.lower()]
            hint += (" Did you mean %s?" % ", ".join("%s for %s" % (known, doc) for doc, known in other[:5])
                     if other else "")
            split = other_split(extra, ref)
            if split:
                hint += (" These are documents of the %s split: were these predictions made for another split than "
                         "this phase's?" % split)
            log.messages.append(Message(found[extra[0]], WARNING, "layout",
                                        "%d file(s) for documents this phase does not have (ignored): %s%s.%s"
                                        % (len(extra), ", ".join(extra[:5]), ", and %d more" % (len(extra) - 5)
                                           if len(extra) > 5 else "", hint)))
        return predictions

    def _empty_documents(self, predictions, found, cache, log, seconds=None):
        """One warning per class, for the whole submission (once, whatever the tasks that read it): documents whose
        entities are outside the ``<annotations>`` element (ignored, as by Anafora's reader), and documents read
        without any entity. Counts, the first documents, and the fix; ``seconds`` (``{document: a second file of
        it, ignored}``) names the second files of the documents read empty: the entities may be there."""
        stray, empty, other, unscored = [], [], [], []
        for name, document in predictions.items():
            if document is None:
                continue
            count, line = getattr(document, "stray_entities", (0, None))
            others, other_line, tags = getattr(document, "other_elements", (0, None, {}))
            if count:
                stray.append((name, count, line))
            elif others:
                other.append((name, others, other_line, tags))
            elif not document.entities and not getattr(document, "dropped", None):
                empty.append(name)
            elif all(entity.type in ENTITY_SKIP for entity in document.entities):
                unscored.append(name)
        if unscored and not cache.get(("unscored", len(unscored))):
            cache[("unscored", len(unscored))] = True
            log.messages.append(Message(found[unscored[0]], WARNING, "whole file", (
                "%d of %d documents hold only entities of the types no metric scores (%s; first: %s): they predict "
                "nothing that scores. Time expressions have the SCATE schema's other types (Year, Month-Of-Year, "
                "Last, ...)." % (len(unscored), len(predictions), ", ".join(sorted(ENTITY_SKIP)),
                                 ", ".join(unscored[:3]) + (", ..." if len(unscored) > 3 else "")))))
        if other and not cache.get(("other", len(other))):
            cache[("other", len(other))] = True
            name, count, line, _ = other[0]
            tags = {}
            for _, _, _, tagged in other:
                for tag, number in tagged.items():
                    tags[tag] = tags.get(tag, 0) + number
            log.messages.append(Message(found[name], WARNING, "line %d" % line, (
                "%d of %d documents hold elements other than <entity> inside <annotations> (%s; first: %s): they are "
                "ignored (the annotations scored are <entity> elements only), so these documents predict less than "
                "they hold. Write every time expression as <entity><id>..</id><span>..</span><type>..</type>"
                "<properties>..</properties></entity>." % (
                    len(other), len(predictions), ", ".join("%s x%d" % (quoted(tag, 30), number)
                                                            for tag, number in sorted(tags.items())[:3]),
                    "; ".join("%s (%d, line %d)" % (n, c, l) for n, c, l, _ in other[:3])))))
        if stray and not cache.get(("stray", len(stray))):
            cache[("stray", len(stray))] = True
            name, count, line = stray[0]
            log.messages.append(Message(found[name], WARNING, "line %d" % line, (
                "%d of %d documents hold <entity> elements outside <annotations> (%d in all; first: %s): they are "
                "ignored, as Anafora's reader ignores them, so these documents predict less than they hold. Put every "
                "<entity> inside <data><annotations>...</annotations></data>." % (
                    len(stray), len(predictions), sum(c for _, c, _ in stray),
                    "; ".join("%s (%d, line %d)" % (n, c, l) for n, c, l in stray[:3])))))
        if empty and not cache.get(("empty", len(empty))):
            cache[("empty", len(empty))] = True
            twice = [(doc, seconds[doc]) for doc in empty if doc in (seconds or {})]
            log.messages.append(Message(found[empty[0]], WARNING, "whole file", (
                "%d of %d documents have a file without any entity (first: %s): they predict nothing and score as "
                "missing. %s" % (
                    len(empty), len(predictions), ", ".join(empty[:3]) + (", ..." if len(empty) > 3 else ""), (
                        "%d of them also have a second file, ignored (the first file found is the one read): %s%s. "
                        "Keep one file per document, the one with the entities." % (
                            len(twice), "; ".join("%s read for %s, %s ignored" % (
                                printable(found[doc], 80), doc, printable(other, 80)) for doc, other in twice[:3]),
                            ", ..." if len(twice) > 3 else "")
                        if twice else "If your system found no time expression there, this is right; otherwise check "
                        "that the file written is the one your system produced.")))))

    def _other_documents_ids(self, predictions, found, ref, cache, log):
        """One warning for the whole submission (once) when files hold entities whose Anafora ids name another
        document of the phase (:func:`named_document`): files swapped or written under the wrong document's name,
        whose offsets then count another text. The documents and the names their ids give."""
        swapped = [(name, named_document(document, name)) for name, document in predictions.items()
                   if document is not None]
        swapped = [(name, other) for name, other in swapped if other is not None and other in ref.by_name]
        if not swapped or cache.get(("swapped", tuple(swapped))):
            return
        cache[("swapped", tuple(swapped))] = True
        log.messages.append(Message(found[swapped[0][0]], WARNING, "whole file", (
            "%d of %d documents have a file whose entity ids name another document of this phase (%s%s): is each the "
            "other document's file, written under the wrong name? Spans count the characters of the document the "
            "file is named after, so another document's entities match nothing there." % (
                len(swapped), len(predictions), "; ".join("the file of %s holds ids of %s" % pair for pair in swapped[:3]),
                ", ..." if len(swapped) > 3 else ""))))

    def _other_documents_texts(self, predictions, found, ref, cache, log, before):
        """One warning for the whole submission (once), ahead of the files' span warnings (at ``before``), when files
        whose spans mostly cut words or end after their document's text would start and end on word boundaries in
        another document's text (files rotated: each holds the next document's predictions, with ids that name no
        document): the files and the documents whose texts they fit. Runs only for files whose spans are off."""
        moved = []
        for name, document in predictions.items():
            if document is None or named_document(document, name) is not None:
                continue   # ids naming another document: said by _other_documents_ids
            spans = [span for entity in document.entities + list(getattr(document, "dropped_entities", ()))
                     for span in entity.spans]
            if len(spans) < mends.MIN_SPANS:
                continue
            written = _fitting(document.text, spans)
            if 3 * written >= 2 * len(spans):
                continue
            best = max(((_fitting(doc.text, spans), doc.name) for doc in ref.documents if doc.name != name),
                       default=(0, ""))
            if 3 * best[0] >= 2 * len(spans) and best[0] - written >= max(2, len(spans) / 5.0):
                moved.append((name, best[1], best[0], len(spans), written))
        if not moved or cache.get(("rotated", tuple(moved))):
            return
        cache[("rotated", tuple(moved))] = True
        log.messages.insert(before, Message(found[moved[0][0]], WARNING, "whole file", (
            "%d of %d documents have a file whose spans fit another document's text far better than their own (%s%s): "
            "is each file another document's prediction (files rotated, or written under the wrong document's name)? "
            "Spans count the characters of the document a file is named after: write each document's predictions to "
            "the file named after it. The warnings on these files' spans follow from it." % (
                len(moved), len(predictions), "; ".join(
                    "the file of %s: %d of %d spans on word boundaries in the text of %s, %d in its own" % (
                        name, fit, total, other, written) for name, other, fit, total, written in moved[:3]),
                "; ..." if len(moved) > 3 else ""))))

    def _constant_type(self, predictions, found, ref, cache, log, before):
        """One warning for the whole submission (once) when every scored entity of its files (at least
        :data:`CONSTANT_MIN` of them) has one same type while the phase's gold has several, and that type is less
        than half of the gold's entities: a type written as a constant (a default, a column read wrong) matches
        only the gold entities of that type. It goes at ``before`` in ``log.messages``, ahead of the files'
        warnings that follow from it (properties of other types, required properties missing)."""
        types, first = {}, None
        for name, document in predictions.items():
            for entity in (document.entities if document is not None else ()):
                if entity.type not in ENTITY_SKIP:
                    types[entity.type] = types.get(entity.type, 0) + 1
                    first = first or (name, entity)
        if len(types) != 1 or sum(types.values()) < CONSTANT_MIN:
            return
        gold = {}
        for doc in ref.documents:
            for entity in doc.document.entities:
                if entity.type not in ENTITY_SKIP:
                    gold[entity.type] = gold.get(entity.type, 0) + 1
        kind = next(iter(types))
        if len(gold) < 2 or 2 * gold.get(kind, 0) >= sum(gold.values()) or cache.get(("constant", kind)):
            return
        cache[("constant", kind)] = True
        log.messages.insert(before, Message(found[first[0]], WARNING, _where(first[1]), (
            "all %d entities of the submission have the type %s, while the gold of this phase has %d types (%s is %d "
            "of its %d entities): is the type written as a constant (a default, a column read wrong)? An entity "
            "matches only a gold entity of its own type; give each its SCATE type (Year, Month-Of-Year, Day-Of-Week, "
            "Last, ...). The warnings on these files' properties follow from it." % (
                types[kind], quoted(kind, 40), len(gold), quoted(kind, 40), gold.get(kind, 0), sum(gold.values())))))

    def _copied_files(self, predictions, found, cache, log, before):
        """One warning for the whole submission (once) when files of several documents hold the same entities
        (spans and types, at least :data:`CONSTANT_MIN` of them): one document's prediction written for others,
        whose texts differ; the groups of documents, the first three. It goes at ``before`` in ``log.messages``,
        ahead of the files' span warnings that follow from it."""
        groups = OrderedDict()
        for name, document in predictions.items():
            if document is not None and len(document.entities) >= CONSTANT_MIN:
                key = frozenset((tuple(entity.spans), entity.type) for entity in document.entities)
                groups.setdefault(key, []).append(name)
        copies = [names for names in groups.values() if len(names) > 1]
        if not copies or cache.get(("copies", tuple(tuple(names) for names in copies))):
            return
        cache[("copies", tuple(tuple(names) for names in copies))] = True
        log.messages.insert(before, Message(found[copies[0][1]], WARNING, "whole file", (
            "%d of %d documents have a file holding the same entities (spans and types) as another document's file "
            "(%s%s): is one document's prediction written for the others? Spans count the characters of the document "
            "a file is named after, so a copy matches little there." % (
                sum(len(names) for names in copies), len(predictions),
                "; ".join(", ".join(names[:4]) + (", ..." if len(names) > 4 else "") for names in copies[:3]),
                "; ..." if len(copies) > 3 else ""))))

    def _read(self, submission, path, doc, log, file_limit):
        """The parsed prediction of ``doc`` at member ``path``, or None after a message."""
        limit = min(file_limit, MAX_BYTES, SIZE_FACTOR * doc.size + SLACK_BYTES)
        try:
            size = submission.source.size(path)
            data = submission.source.read(path, limit) if size <= limit else b""
            if size > limit or len(data) > limit:
                raise DataError(path, "", "the file has %s bytes; at most %d are accepted for this document (%d times "
                                "its gold file, plus %d)" % (size if size > limit else "more than %d" % limit, limit,
                                                             SIZE_FACTOR, SLACK_BYTES))
            document = read_anafora(data, path, doc.text, drop_outside=True)
            check_graph(document, path)
        except DataError as err:
            err.message.text += " (this document counts as predicting nothing)"
            log.messages.append(err.message)
            return None
        offsets = mends.other_text(document)   # the cause first: its consequences are the span warnings
        if offsets is not None:
            log.messages.append(offsets.message(path, doc.text))
        log.messages.extend(dropped_entities(document, path, len(doc.text), offsets is not None))
        log.messages.extend(duplicate_ids(document, path))
        log.messages.extend(check_document(document, path, explained=offsets is not None))
        document.mend = mends.mend(document, offsets)   # what it meant, priced where the gold is public
        return document

    def _prepared(self, cache, path, doc, log):
        """The read document at ``path`` (None when absent or refused) after :meth:`prepare`; a refusal there
        is reported once and kept in ``cache``."""
        document = cache.get(path)
        if document is None:
            return None
        try:
            log.messages.extend(self.prepare(document, doc, path))
        except DataError as err:
            log.messages.append(err.message)
            cache[path] = None
            return None
        return document

    def trivial_members(self, data, task):
        """A well-formed, content-free submission for the reference file ``data``: one empty Anafora file per
        document, named by ``task.documents`` (what ``make check`` submits when it has no baseline)."""
        ref = parse_reference(data, "reference", "spans", redacted=True)   # the documents' names alone
        return dict((task.documents.replace("{doc}", doc.name), b"<data><annotations></annotations></data>\n")
                    for doc in ref.documents)

    def prepare(self, document, doc, path):
        """Work on a read prediction ``document`` of reference document ``doc`` that may refuse it (DataError);
        return the messages of that work (given once per document)."""
        return []

    def price(self, task, names, sums, mended):
        """``details["mended"]`` of a scored entry (:func:`evalkit.floor.mended_prices` says it where the gold is
        public): ``mended`` lists ``(prediction, its mends.Mend, its statistics as written, read as meant)`` (in the
        order of ``names``); ``sums``, every document's statistics summed as written. Per file and for the whole
        submission (every such file read as meant), ``task.metric`` as written and read as meant."""
        whole, files = dict(sums), []
        also = [name for name in ALSO_PRICED if name != task.metric and name in task.components]
        for system, mend, written, meant in mended:
            if len(written) != len(names) or len(meant) != len(names):
                raise ValueError("expected %d statistics, got %d and %d" % (len(names), len(written), len(meant)))
            for index, name in enumerate(names):
                whole[name] += meant[index] - written[index]
            as_written = self.from_sums(dict((name, written[i]) for i, name in enumerate(names)), 1, task)
            as_meant = self.from_sums(dict((name, meant[i]) for i, name in enumerate(names)), 1, task)
            files.append({"file": system.file, "where": mend.where(), "cause": mend.said(),
                          "written": as_written[task.metric], "mended": as_meant[task.metric],
                          "also": [[_said(name), as_written[name], as_meant[name]] for name in also]})
        return {"metric": _said(task.metric), "files": files,
                "whole": {"written": self._metric(sums, task), "mended": self._metric(whole, task)}}

    def _metric(self, sums, task):
        """``task.metric`` from the sums of its statistics."""
        return self.from_sums(sums, 1, task)[task.metric]

    def score_value(self, components):
        """The entry score: the first component, the task's official metric."""
        return next(iter(components.values())) if components else 0.0


#: The components priced besides a task's official metric when a file is read as meant (a property outside the
#: schema, a value written otherwise, cost composition F1 alone).
ALSO_PRICED = ("identification_f1", "composition_f1")


def _said(metric):
    """``interval_f1`` -> ``interval F1``."""
    return metric.replace("_f1", " F1").replace("_", " ")


def _fitting(text, spans):
    """How many of ``spans`` lie in ``text`` and start and end on its word boundaries."""
    if text is None:
        return 0
    return sum(1 for start, end in spans if end <= len(text) and not _cuts(text, start, end))


def _empty(document):
    """A stand-in for a missing prediction: a document without entities."""
    return Document([], "", document.text)


def _per_tag(by_type_totals):
    """``{type: {"tp", "fp", "fn"}}`` from summed (matched, system, gold) counts."""
    return dict((kind, {"tp": m, "fp": s - m, "fn": g - m}) for kind, (m, s, g) in by_type_totals.items())


def _add_counts(totals, counts):
    """Add ``{type: (matched, system, gold)}`` into ``totals``."""
    for kind, values in counts.items():
        old = totals.get(kind, (0, 0, 0))
        totals[kind] = _plus(old, values)


def _plus(first, second):
    """The sum of two (matched, system, gold) triples."""
    return tuple(first[i] + second[i] for i in range(3))


def _table(title, head, rows, note=""):
    """A detail table for the HTML report (cells: strings or numbers, escaped by the writer)."""
    return {"title": title, "columns": head, "rows": rows, "note": note}


#: Per-document statistics of :class:`IntervalsKind` (``Entry.per_sentence``: one value per document, in the
#: reference's order); their sums give the components (:meth:`IntervalsKind.from_sums`).
INTERVAL_STATISTICS = ("interval_p_sum", "interval_p_weight", "interval_r_sum", "gold_items", "identification_matched",
                       "identification_system", "identification_gold", "composition_matched", "composition_system",
                       "composition_gold")
#: Per-document statistics of :class:`SpansKind`.
SPAN_STATISTICS = ("identification_matched", "identification_system", "identification_gold")


def _append(stats, names, values):
    """Append one document's ``values`` (in the order of ``names``) to the per-document lists of ``stats``."""
    if len(values) != len(names):
        raise ValueError("expected %d statistics, got %d" % (len(names), len(values)))
    for name, value in zip(names, values):
        stats[name].append(value)


def _sums(stats):
    """``{statistic: sum over the documents}``."""
    return dict((name, sum(values)) for name, values in stats.items())


def _ordered(values, task):
    """The components of ``task`` (``values``: name -> thunk), its official metric first."""
    names = [task.metric] + [c for c in task.components if c != task.metric]
    return OrderedDict((name, values[name]()) for name in names)


class IntervalsKind(AnaforaKind):
    """Full SCATE gold: interval precision/recall/F1 (official: F1) and the entity metrics."""

    name = "scate_intervals"
    gold = "full"
    items = DocumentItems(properties=True)   # its gold is the entities' properties too (a spans-only copy lacks them)

    def prepare(self, document, doc, path):
        """Interpret the prediction once (``document.interval_items``); return the warnings on its time expressions
        (missing required properties, top entities without an interval, the budget); DataError when they have
        too many intervals."""
        if getattr(document, "interval_items", None) is not None:
            return []
        items, messages, refusal = system_items(document, parse_dct(doc.dct[:10]), path)
        if refusal is not None:
            raise refusal
        document.interval_items = items
        return check_document(document, path, ("required",)) + messages

    def score(self, ref, pred, task):
        """Pool the interval item scores and the entity counts over the documents; per-document rows."""
        per_doc, by_type, mended = [], {}, []
        stats = dict((name, []) for name in INTERVAL_STATISTICS)
        for doc in ref.documents:
            system = pred.get(doc.name) or _empty(doc.document)
            dct = parse_dct(doc.dct[:10])
            gold_items, _ = scate_items(doc.document, dct)
            predicted = getattr(system, "interval_items", None) or []
            values = self._statistics(doc, gold_items, system, predicted)
            interval, i_counts = values[:4], values[4:7]
            _append(stats, INTERVAL_STATISTICS, values)
            _add_counts(by_type, entity_counts_by_type(doc.document, system, "identification", ENTITY_SKIP))
            mend = getattr(system, "mend", None)
            if mend is not None and self._interpret_mended(system, mend, dct):   # priced (evalkit/timenorm/mends.py)
                mended.append((system, mend, values, self._statistics(doc, gold_items, mend.document,
                                                                      mend.interval_items)))
            doc_p, doc_r = ratio(interval[0], interval[1]), ratio(interval[2], interval[3])
            per_doc.append([doc.name, "yes" if pred.get(doc.name) is not None else "no", len(gold_items),
                            len(predicted), doc_p, doc_r, harmonic(doc_p, doc_r), prf(*i_counts)[2]])
        sums = _sums(stats)
        components = self.from_sums(sums, len(ref), task)
        details = {"per_tag": _per_tag(by_type), "tables": [_table(
            "Per document", ["Document", "File", "Gold items", "System items", "Interval P", "Interval R",
                             "Interval F1", "Identification F1"], per_doc,
            "Items are the top entities whose intervals could be computed. Interval P and R compare the system's "
            "and the gold's intervals region by region (items sharing text form one region, counted once per gold "
            "item it holds); the official figures pool every region of every document.")],
            "entities": dict((metric, [sums["%s_%s" % (metric, count)] for count in ("matched", "system", "gold")])
                             for metric in ("identification", "composition"))}
        details["files"] = [pred[doc.name].file for doc in ref.documents if pred.get(doc.name) is not None]
        if mended:
            details["mended"] = self.price(task, INTERVAL_STATISTICS, sums, mended)
        scored = sum(1 for doc in ref.documents if pred.get(doc.name) is not None)
        return Entry(components, {}, len(ref), scored, sums["gold_items"], len(ref) - scored, details,
                     per_sentence=stats)

    def _interpret_mended(self, system, mend, dct):
        """Whether the prediction ``system`` read as meant (``mend``) has its interval items (``mend.interval_items``,
        interpreted once, within what the prediction itself left of the document's budget: reading a file as meant
        never doubles the time a document may take); False when nothing was left."""
        if getattr(mend, "interval_items", None) is None:
            steps, seconds = getattr(system, "spent", (0, 0.0))
            if steps >= DOCUMENT_STEPS or seconds >= DOCUMENT_SECONDS:
                return False
            items, _, refusal = system_items(mend.document, dct, system.file, DOCUMENT_STEPS - steps,
                                             DOCUMENT_SECONDS - seconds)
            mend.interval_items = items if refusal is None else []
        return True

    def _statistics(self, doc, gold_items, system, predicted):
        """One document's statistics (:data:`INTERVAL_STATISTICS`) for the prediction ``system`` whose interval
        items are ``predicted``."""
        return (interval_sums(gold_items, predicted)
                + tuple(entity_counts(doc.document, system, "identification", ENTITY_SKIP))
                + tuple(entity_counts(doc.document, system, "composition", ENTITY_SKIP)))

    def from_sums(self, sums, count, task):
        """The components, ``task.metric`` first, from the sums of the per-document statistics
        (:data:`INTERVAL_STATISTICS`; ``count``, the number of documents, is not needed: the metrics pool items).

        Interval P = sum of the regions' precisions / their weight, R = sum of the gold items' recalls / gold items
        (:func:`.metrics.interval_sums`), F1 their harmonic mean; identification and composition F1 from their (matched, system, gold) counts; each 0 on
        an empty denominator. The scorer computes its scores this way; the organisers' bootstrap does the same
        from resampled sums (numpy arrays, element by element).
        """
        precision = ratio(sums["interval_p_sum"], sums["interval_p_weight"])
        recall = ratio(sums["interval_r_sum"], sums["gold_items"])
        values = {"interval_f1": lambda: ratio(2 * precision * recall, precision + recall),
                  "interval_p": lambda: precision, "interval_r": lambda: recall,
                  "identification_f1": lambda: f1_from_counts(
                      sums["identification_matched"], sums["identification_system"], sums["identification_gold"]),
                  "composition_f1": lambda: f1_from_counts(
                      sums["composition_matched"], sums["composition_system"], sums["composition_gold"])}
        return _ordered(values, task)



class SpansKind(AnaforaKind):
    """Spans-and-types gold: entity identification precision/recall/F1 (official: F1) over unique pairs."""

    name = "scate_spans"
    gold = "spans"

    def score(self, ref, pred, task):
        """Identification counts over the sets of (spans, type) of every document; per-type and per-document."""
        by_type, per_doc, mended = {}, [], []
        stats = dict((name, []) for name in SPAN_STATISTICS)
        for doc in ref.documents:
            system = pred.get(doc.name) or _empty(doc.document)
            counts = entity_counts(doc.document, system, "identification", ENTITY_SKIP)
            _append(stats, SPAN_STATISTICS, counts)
            mend = getattr(system, "mend", None)
            if mend is not None:   # the file read as meant, priced (evalkit/timenorm/mends.py)
                mended.append((system, mend, counts, entity_counts(doc.document, mend.document, "identification",
                                                                   ENTITY_SKIP)))
            _add_counts(by_type, entity_counts_by_type(doc.document, system, "identification", ENTITY_SKIP))
            per_doc.append([doc.name, "yes" if pred.get(doc.name) is not None else "no", counts[2], counts[1],
                            counts[0]] + list(prf(*counts)))
        sums = _sums(stats)
        components = self.from_sums(sums, len(ref), task)
        details = {"per_tag": _per_tag(by_type), "tables": [_table(
            "Per document", ["Document", "File", "Gold entities", "System entities", "Matched", "Precision",
                             "Recall", "F1"], per_doc,
            "An entity matches when its character span(s) and its type equal a gold entity's; each (spans, type) "
            "pair counts once. Event, PreAnnotation and NotNormalizable entities are left out on both sides.")]}
        details["files"] = [pred[doc.name].file for doc in ref.documents if pred.get(doc.name) is not None]
        if mended:
            details["mended"] = self.price(task, SPAN_STATISTICS, sums, mended)
        scored = sum(1 for doc in ref.documents if pred.get(doc.name) is not None)
        return Entry(components, {}, len(ref), scored, sums["identification_gold"], len(ref) - scored, details,
                     per_sentence=stats)

    def from_sums(self, sums, count, task):
        """The components, ``task.metric`` first, from the sums of the per-document (matched, system, gold)
        counts (:data:`SPAN_STATISTICS`): P = matched / system, R = matched / gold, F1 their harmonic mean, each
        0 on an empty denominator (plain numbers or numpy arrays alike)."""
        precision = ratio(sums["identification_matched"], sums["identification_system"])
        recall = ratio(sums["identification_matched"], sums["identification_gold"])
        values = {"identification_f1": lambda: ratio(2 * precision * recall, precision + recall),
                  "identification_p": lambda: precision, "identification_r": lambda: recall}
        return _ordered(values, task)


KINDS = dict((kind.name, kind) for kind in (IntervalsKind(), SpansKind()))
