"""Load -> evaluate -> aggregate: scoring a submission against a reference directory.

:func:`evaluate` is the one entry point used by the platform command, the local CLI and the
starting kit's validator. It processes one (task, language) file at a time, so memory stays
bounded by the largest file, and returns the report dict (``detailed_results.json``, see
docs/architecture.md).
"""
import contextlib
import gc
import hashlib
import os
from collections import OrderedDict

from . import __version__, blank, choice, fingerprint, floor, gold_index, inventory, keys, lines, mended, metrics, \
    policy, split
from .kindspec import KINDS, register, use as use_kinds
from .kinds import KINDS as JSON_KINDS
from .layout import ReferenceError, find_submission_files, open_source, scan_reference
from .loading import parse_json_bytes, read_optional_json
from .messages import DataError, Message, MessageLog, ERROR, WARNING, ZERO_NOTE
from .timenorm.kind import KINDS as DOCUMENT_KINDS
from .values import KINDS as VALUE_KINDS

#: Every kind by name (evalkit.kindspec.KINDS): the kit's own, the JSON kinds (evalkit.kinds), the line-aligned text
#: kinds (evalkit.lines), the other ``reads_text`` kinds (evalkit.choice, evalkit.timenorm.kind), the value kinds
#: (evalkit.values), then those a competition declares in its folder (registered by evalkit.kindspec.use when the
#: competition is evaluated).
for _kinds in (JSON_KINDS, lines.TEXT_KINDS, choice.KINDS, DOCUMENT_KINDS, VALUE_KINDS):
    for _kind in _kinds.values():
        register(_kind)


#: A prediction file out of all proportion to its reference is refused before it is parsed (parsing
#: costs memory per JSON value, up to about 30 bytes of memory per byte of file): at most SIZE_FACTOR
#: times the reference's bytes and SIZE_FACTOR times its JSON values (see :func:`json_values`). Honest
#: files stay far below (pretty-printed, every character escaped, three candidates per token: about 8
#: times the bytes and 2 times the values of a release reference). Tiny references get the floors.
#: Values are only counted for a file over COUNT_FROM times the reference's bytes (below that, even the
#: densest file costs a few hundred megabytes at most for the largest reference), which keeps the cost of
#: counting away from ordinary files.
SIZE_FACTOR = 16
COUNT_FROM = 4
MIN_BYTES = 1024 * 1024
MIN_VALUES = 64 * 1024


def _limits(competition):
    return {"file": competition.MAX_FILE_BYTES, "upload": competition.MAX_UPLOAD_BYTES,
            "members": competition.MAX_MEMBERS}


def json_values(data):
    """An upper bound of the number of JSON values in ``data`` (bytes): its commas and opening brackets
    (every value but the first of a container follows a comma). Commas and brackets inside strings
    count too, in the reference as in the prediction. Three C-level passes.

    >>> json_values(b'[["a", "b"], {"c": [1]}]')
    6
    """
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def file_limits(limits, ref_stats):
    """``limits`` for the prediction of a reference of ``ref_stats`` (its ``bytes``, and its ``data`` for
    :func:`values_limit`): ``file`` is :data:`SIZE_FACTOR` times the reference's size (at least
    :data:`MIN_BYTES`), never above the platform limit."""
    out = dict(limits)
    out["ref"] = ref_stats
    out["platform_file"] = limits["file"]
    out["file"] = min(limits["file"], max(MIN_BYTES, SIZE_FACTOR * ref_stats["bytes"]))
    return out


def values_limit(limits):
    """The most JSON values accepted in the prediction: :data:`SIZE_FACTOR` times the reference's (at least
    :data:`MIN_VALUES`). Counts the reference's values once (kept in ``limits["ref"]["values"]``)."""
    ref = limits["ref"]
    if "values" not in ref:
        ref["values"] = json_values(ref["data"])
    return max(MIN_VALUES, SIZE_FACTOR * ref["values"])


#: Said of a refused file of ranked candidates: the likeliest cause, and that the file is refused, not cut.
TOO_MANY_CANDIDATES = ("; only the first %d candidates of each item count, and a file this large usually holds "
                       "dozens of candidates per item: such a file is refused before it is read (it is not cut to "
                       "%d), so keep the first %d")


def _out_of_proportion(name, got, what, limits, key, task=None):
    """The DataError for a prediction with ``got`` (text: a number of bytes or values) over ``limits``; for a task
    of ranked candidates (its kind's ``ranks_candidates``) the message says what usually causes it."""
    floor = MIN_BYTES if key == "bytes" else MIN_VALUES
    ranked = task is not None and getattr(KINDS.get(task.kind), "ranks_candidates", False)
    cause = TOO_MANY_CANDIDATES % ((task.max_candidates,) * 3) if ranked else ""
    if key == "bytes" and limits["file"] == limits["platform_file"]:   # the platform's limit, not the reference's
        return DataError(name, "", "the file has %s bytes; at most %s are accepted%s"
                         % (got, "{:,}".format(limits["file"]), cause))
    return DataError(name, "", "the file has %s %s, out of all proportion to its reference file (%s): at most %s are "
                     "accepted (%d times the reference's, and never less than %s)%s" % (
                         got, what, "{:,}".format(limits["ref"][key]),
                         "{:,}".format(limits[key if key == "values" else "file"]), SIZE_FACTOR,
                         "{:,}".format(floor), cause or "; a prediction for these sentences cannot usefully be larger"))


def read_prediction(submission, task, lang, limits, name):
    """The bytes of the prediction for (task, lang) after the size checks of :func:`file_limits`
    (declared size, actual size, number of JSON values); DataError when it is out of proportion."""
    declared = submission.size(task.folder, lang)
    if declared > limits["file"]:
        raise _out_of_proportion(name, "{:,}".format(declared), "bytes", limits, "bytes", task)
    data = submission.read(task.folder, lang, limits["file"])
    if len(data) > limits["file"]:
        raise _out_of_proportion(name, "more than {:,}".format(limits["file"]), "bytes", limits, "bytes", task)
    if len(data) > COUNT_FROM * limits["ref"]["bytes"]:
        values, most = json_values(data), values_limit(limits)
        if values > most:
            raise _out_of_proportion(name, "{:,}".format(values), "JSON values (counted as commas and opening "
                                     "brackets)", dict(limits, values=most), "values", task)
    return data


def signature(competition, ref_hash):
    """The reproducibility signature, sacrebleu-style: the options actually applied, scorer version last.

    Competition, metric-definition version, the candidate cut-off of ranked tasks, the averaging
    (sentence-level means, each task weighing the same), the first 16 hex digits of the reference
    data's SHA-256, then the evalkit version.
    """
    options = getattr(competition, "SIGNATURE_OPTIONS", None)   # declared by competitions without top-k
    if options:
        return "%s|metrics:%s|%s|ref:sha256:%s|evalkit:%s" % (
            competition.COMPETITION_ID, competition.METRICS_VERSION, options, ref_hash[:16], __version__)
    topk = sorted(set(task.max_candidates for task in competition.TASKS))
    return "%s|metrics:%s|topk:%s|avg:sentence-macro|ref:sha256:%s|evalkit:%s" % (
        competition.COMPETITION_ID, competition.METRICS_VERSION, ",".join(str(k) for k in topk),
        ref_hash[:16], __version__)


def load_reference(task, lang, path, competition, digest, stats=None, gold=True, cache=None, redacted=False,
                   index=None, relative=None):
    """Parse one reference file; feed its bytes to ``digest``; raise ReferenceError when it is broken
    (with ``gold``, a ``null`` gold is broken too; with ``redacted``, a test phase's part (:mod:`evalkit.split`),
    the items whose gold is redacted are read as such).

    ``index``: the phase's gold index (:func:`evalkit.gold_index.read_index`) and ``relative`` the file's path in
    it: a kind that uses facts (``uses_facts``) gets the file's facts when the index describes these very bytes
    (:func:`evalkit.gold_index.file_facts`), else computes them itself, with the same results.

    When ``stats`` is a dict, it receives the file's size in ``bytes`` and its content in ``data`` (see
    :func:`values_limit`). ``cache`` (opt-in, a dict the caller keeps between calls, off by default): the
    bytes and parsed sentences of ``path`` are kept there and reused, so a caller scoring many
    submissions against one reference parses each file once (the digest still gets the same bytes).
    """
    name = "reference %s/%s.json" % (task.folder, lang)
    if lines.declares_names(competition):
        name = "reference " + lines.reference_name(competition, task, lang)
    try:
        if cache is not None and path in cache:
            data, ref = cache[path]
        else:
            with open(path, "rb") as handle:
                data = handle.read()
            kind = KINDS[task.kind]
            facts = None
            if index and getattr(kind, "uses_facts", False):
                facts = gold_index.file_facts(index, relative, data)
            ref = _parse_reference(kind, data, name, task, lang, gold, redacted, facts)
            if cache is not None:
                cache[path] = (data, ref)
        digest.update(("%s/%s\0%d\0" % (task.folder, lang, len(data))).encode("utf-8"))
        digest.update(data)
        if stats is not None:
            stats.update(bytes=len(data), data=data)
        return ref
    except DataError as err:
        raise ReferenceError(str(err))
    except (IOError, OSError) as err:
        raise ReferenceError("%s cannot be read: %s" % (name, err))


def _parse_reference(kind, data, name, task, lang, gold, redacted=False, facts=None):
    """The parsed reference file ``data`` (bytes) of ``kind``; DataError when it is broken. ``facts``: those the
    phase's gold index holds for these bytes (see :func:`load_reference`), given to the kind (``attach_facts``)
    before the golds are checked; None: none.

    With ``gold``, a null gold is broken (:meth:`Kind.check_golds`), looked for only when the text may hold a ``null``
    (:func:`may_hold_null`, a scan of the file's bytes) and the parsed reference does not already say that none of
    its golds is null: a kind whose parse of the reference proved every gold non-null (e.g. it found the distinct
    golds all strings) sets ``golds_checked = True`` on the parsed reference, and the scan is skipped."""
    if getattr(kind, "reads_text", False):
        if redacted:
            return kind.parse_reference_text(data, name, task, lang, redacted=True)
        return kind.parse_reference_text(data, name, task, lang)
    ref = kind.parse_reference(parse_json_bytes(data, name, len(data)), name, task)
    if facts is not None:
        kind.attach_facts(ref, facts, task)
    # a null gold would be matched by a null prediction; a parse that found every gold a string (``golds_checked``)
    # spares the scan of the text
    if gold and not getattr(ref, "golds_checked", False) and may_hold_null(data):
        kind.check_golds(ref, name)
    return ref


def may_hold_null(data):
    """Whether the JSON text ``data`` (bytes) may hold a ``null`` value: some ``null`` that follows ``[``,
    ``,`` or ``:`` (spaces between) or opens the text. A word such as ``"nullus"`` does not count; a string
    that merely looks like a null value (``": null"``) does, and only costs the check it guards.

    The text is searched from its end (``rfind`` runs faster than ``find`` over JSON text, and every
    occurrence is looked at either way: ``null`` cannot overlap itself).

    >>> may_hold_null(b'[{"m": null}]'), may_hold_null(b'[["nullus", "x"]]'), may_hold_null(b'[1,\\n  null]')
    (True, False, True)
    >>> may_hold_null(b'null'), may_hold_null(b'["a nullnull", "nullus"]'), may_hold_null(b'[null, "nullus"]')
    (True, False, True)
    """
    at = data.rfind(b"null")
    while at >= 0:
        before = data[max(0, at - 64):at].rstrip()
        if not before or before[-1:] in (b"[", b",", b":"):
            return True
        at = data.rfind(b"null", 0, at)
    return False


def submission_file_name(competition, task, lang):
    """The name of (task, lang)'s file in a submission: the declared pattern, else ``<folder>/<lang>.json``."""
    if lines.declares_names(competition):
        return lines.submission_name(competition, task, lang)
    return "%s/%s.json" % (task.folder, lang)


def _failed_entry(task, lang, status, name=None):
    name = name or "%s/%s.json" % (task.folder, lang)
    return {"task": task.folder, "lang": lang, "file": name, "status": status,
            "score": 0.0, "components": dict((c, 0.0) for c in task.components), "micro": {},
            "sentences": 0, "scored_sentences": 0, "items": 0, "zeroed_sentences": 0, "details": {}}


def score_file(task, lang, ref, submission, limits, messages, other=None, name=None, per_sentence=False,
               details=True, inventories=None, part=None, public_gold=False, priced=False):
    """Score one (task, language) file of ``submission`` against parsed ``ref``; return its entry dict.

    ``other``: the phase's ``other_split.json`` (:mod:`evalkit.fingerprint`), or None. ``name``: the
    file's name in the submission (default ``<folder>/<lang>.json``).
    ``per_sentence`` (opt-in): a scored entry also carries ``"per_sentence"``, ``{name: [value per scored
    sentence]}`` as the kind computed it, whose sums the kind's ``from_sums`` turns into the components (a
    failed entry has none: every sentence counts 0).
    ``details=False`` (opt-in): a kind that can (``optional_details``) skips its detail tables and pooled
    accuracies (``details`` and ``micro`` stay empty); the scores are the same.
    ``inventories``: the phase's ``inventory.json`` (:mod:`evalkit.inventory`, what the training data uses), or None
    (the declared inventory alone); a JSON prediction outside it gets warnings, never another score.
    ``part``: the file's :class:`evalkit.split.Part` in a test phase split into parts (None: every item scored):
    the whole prediction is read and checked, only the part's items are scored (or, blind, only counted).
    ``public_gold``: the phase's gold is public (its ``phase.json``), or the reference is gold-less (a kit's
    validator): the checks that read the reference's labels run (:mod:`evalkit.blank`); never where the gold is
    hidden. ``priced``: the reference holds the phase's public gold: a systematic mistake is priced against it
    (:mod:`evalkit.mended`: what the file would score with it undone).
    """
    kind = KINDS[task.kind]
    name = name or "%s/%s.json" % (task.folder, lang)
    if (task.folder, lang) not in submission.files:   # a subset is allowed: one summary line (not_submitted)
        return _part_entry(kind, ref, part, _failed_entry(task, lang, "missing", name))
    log = MessageLog(name)
    try:
        if getattr(kind, "reads_documents", False):   # a folder of per-document files (evalkit.timenorm.kind)
            pred = kind.parse_prediction_documents(submission, task, lang, ref, log, limits["file"])
        elif getattr(kind, "reads_text", False):   # the line-aligned text kinds (evalkit.lines)
            limit = kind.prediction_limit(ref, limits["file"])
            data = _read_text(kind, submission, task, lang, ref, limit)
            _check_text_split(kind, name, data, ref, other, messages)
            pred = kind.parse_prediction_text(data, ref, log, task, limit)
            del data
        else:
            pred = _parse_json_prediction(kind, task, lang, ref, submission, limits, name, other, log, messages)
            kind.check_labels(pred, log, task, inventory.for_file(task, lang, inventories))
            if public_gold and getattr(task, "blank_rows", None) and getattr(kind, "item_where", None):
                blank.check_blank_rows(ref, pred, task, log, kind.item_where)
    except DataError as err:
        messages.extend(log.close())
        err.message.text += " (%s)" % ZERO_NOTE
        messages.append(err.message)
        return _part_entry(kind, ref, part, _failed_entry(task, lang, err.status, name))
    if part is not None and part.blind:   # nothing is scored: the items validly predicted are counted
        messages.extend(log.close())
        return _part_entry(kind, ref, part, _failed_entry(task, lang, "scored", name), pred)
    scored_ref, scored_pred = (ref, pred) if part is None else kind.restrict(ref, pred, part.indices)
    if details or not getattr(kind, "optional_details", False):
        result = kind.score(scored_ref, scored_pred, task)
    else:
        result = kind.score(scored_ref, scored_pred, task, details=False)
    if part is not None:   # the file's items, those of the part scored, and the whole file's items zeroed
        made = kind.predictions(ref, pred)
        result.sentences, result.scored_sentences = len(ref), len(part.indices)
        result.zeroed_sentences = sum(1 for i in kind.scorable(ref) if made[i] is None)
    elif priced and not getattr(kind, "reads_text", False) and not getattr(kind, "reads_documents", False):
        if mended.price_file(kind, ref, pred, task, log, kind.score_value(result.components)):
            result.details = dict(result.details or {}, priced=True)   # (its messages say why it scores low)
    messages.extend(log.close())
    entry = _failed_entry(task, lang, "scored", name)
    entry.update({"score": kind.score_value(result.components), "micro": result.micro,
                  "sentences": result.sentences, "scored_sentences": result.scored_sentences,
                  "items": result.items, "zeroed_sentences": result.zeroed_sentences, "details": result.details})
    entry["components"] = dict((c, result.components[c]) for c in task.components)
    if per_sentence:
        entry["per_sentence"] = getattr(result, "per_sentence", None)
    return entry


def _part_entry(kind, ref, part, entry, pred=None):
    """``entry`` as a split phase reports it: its file's item count, and in a blind phase (``part.blind``) the items
    expected and those validly predicted by ``pred`` (None: none) instead of any score."""
    if part is None:
        return entry
    entry["sentences"] = len(ref)
    entry["scored_sentences"] = 0 if part.blind else len(part.indices)
    if part.blind:
        expected = kind.scorable(ref)
        made = kind.predictions(ref, pred) if pred is not None else [None] * len(ref)
        entry["expected_items"] = len(expected)
        entry["valid_items"] = sum(1 for i in expected if made[i] is not None)
        entry["zeroed_sentences"] = entry["expected_items"] - entry["valid_items"]
    return entry


def _parse_json_prediction(kind, task, lang, ref, submission, limits, name, other, log, messages):
    """The parsed JSON prediction for (task, lang), after the size checks of :func:`read_prediction`
    (when ``limits`` carries the reference's size) and the other-split check; DataError when unusable."""
    if "ref" in limits:
        data = read_prediction(submission, task, lang, limits, name)
    else:
        data = submission.read(task.folder, lang, limits["file"])
    value = parse_json_bytes(data, name, limits["file"])
    del data
    _check_split(task, lang, name, value, ref, other, messages)
    return kind.parse_prediction(value, ref, log, task)


def _check_split(task, lang, name, value, ref, other, messages):
    """Add one message when ``value`` looks like predictions for the other split (see :mod:`evalkit.fingerprint`)."""
    if other is None:
        return
    found = fingerprint.wrong_split_message(
        name, task.kind, value, ref, other["files"].get("%s/%s" % (task.folder, lang)), other["split"],
        other["phase_split"], other["samples"])
    if found is not None:
        messages.append(found)


def _check_text_split(kind, name, data, ref, other, messages):
    """Add one message when the line-aligned text ``data`` has the other split's number of labels (see
    :func:`evalkit.fingerprint.wrong_split_count_message`); only for kinds that count labels."""
    if other is None or not hasattr(kind, "label_count"):
        return
    blocks = (lambda: kind.block_lengths(data)) if hasattr(kind, "block_lengths") and not kind.sentence_level \
        else None
    found = fingerprint.wrong_split_count_message(name, kind.label_count(data), kind.expected_labels(ref),
                                                  other["files"].get(name), other["split"], other["phase_split"],
                                                  blocks)
    if found is not None:
        messages.append(found)


def aggregate(competition, entries, pairs):
    """Return the ordered ``{key: value}`` of every score from the entry dicts (see :mod:`evalkit.keys`).

    Entry score per (language, task); language average = mean of its task scores; task mean = mean
    over the languages where the task is scored; ``avg_score`` = mean of the task means (each task
    weighs the same). An entry that failed counts as 0 everywhere. A competition that declares
    ``AVERAGE = "entries"`` ranks by the plain mean of its entry scores instead (each dataset weighs the same);
    ``AVERAGE = "first"`` by the score of the first declared task the phase scores (a fallback ranking task). A
    competition without language averages (:func:`evalkit.keys.language_means`: its tasks measure different things,
    accuracy beside a rank correlation) has none.
    """
    by_pair = dict(((e["task"], e["lang"]), e) for e in entries)
    languages = list(competition.LANGUAGES)
    values = {}
    for task, lang in pairs:
        entry = by_pair[(task.folder, lang)]
        values[keys.entry_key(lang, task)] = entry["score"]
        for comp in task.components:
            values[keys.component_key(lang, task, comp)] = entry["components"][comp]
    task_means = []
    for task in competition.TASKS:
        scores = [by_pair[(task.folder, lang)]["score"] for t, lang in pairs if t is task]
        if scores:
            values[keys.task_mean_key(task)] = metrics.mean(scores)
            task_means.append(values[keys.task_mean_key(task)])
    language_means = keys.language_means(competition)
    for lang in languages if language_means else ():
        scores = [by_pair[(task.folder, l)]["score"] for task, l in pairs if l == lang]
        if scores:
            values[keys.language_key(lang)] = metrics.mean(scores)
    values[keys.OVERALL_KEY] = metrics.mean(task_means)
    if getattr(competition, "AVERAGE", "tasks") == "entries":
        values[keys.OVERALL_KEY] = metrics.mean([by_pair[(task.folder, lang)]["score"] for task, lang in pairs])
    if getattr(competition, "AVERAGE", "tasks") == "first" and pairs:   # the first declared task scored ranks
        first = min(pairs, key=lambda pair: competition.TASKS.index(pair[0]))
        values[keys.OVERALL_KEY] = by_pair[(first[0].folder, first[1])]["score"]
    return [(key, values[key]) for key in keys.all_score_keys(competition.TASKS, languages, pairs, language_means)]


@contextlib.contextmanager
def cyclic_gc_paused():
    """Pause the cyclic garbage collector (memory is still freed by reference counting).

    Parsing builds millions of small lists and dicts; every collection would walk all of them again,
    which costs about a quarter of the scoring time. Nothing here creates reference cycles.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _SkippedDigest(object):
    """Stands for the reference's SHA-256 when a ``reference_cache`` already holds it (same files, same bytes)."""

    def update(self, data):
        """Nothing to do: the digest of these bytes is known."""


def evaluate(competition, ref_dir, submission_path, gold=True, per_sentence=False, reference_cache=None,
             details=True):
    """Score the submission at ``submission_path`` (directory or zip, or a seekable binary file holding a zip)
    against ``ref_dir``.

    ``gold=False`` is for a gold-less public reference (``null`` golds: the starting kit's validator
    checks shapes with it, its scores mean nothing); otherwise a null gold is a broken reference.

    Returns the report dict (``detailed_results.json``). Raises :class:`~evalkit.layout.ReferenceError` when the
    reference is unusable and :class:`~evalkit.layout.NothingToScore` when the submission holds no
    expected file; every other problem becomes a message and a zero for the entry concerned.
    Opt-ins for the organisers' re-scoring (off by default, the platforms never use them):
    ``per_sentence`` adds each scored entry's per-sentence values (see :func:`score_file`);
    ``reference_cache`` is a dict kept between calls (see :func:`load_reference`); ``details=False`` leaves
    out the entries' detail tables (see :func:`score_file`).
    """
    with cyclic_gc_paused():
        return _evaluate(competition, ref_dir, submission_path, gold, per_sentence, reference_cache, details)


def _evaluate(competition, ref_dir, submission_path, gold=True, per_sentence=False, reference_cache=None,
              details=True):
    """:func:`evaluate` itself: find the files, then load, check and score them one at a time.

    A competition that declares flat file names (``SUBMISSION_FILE``, :mod:`evalkit.lines`) has its
    reference and submission files found by that declaration; the others by ``<task>/<lang>.json``.
    """
    use_kinds(competition)   # the kinds the competition brings in its folder (a no-op once registered)
    tasks, named, pairs, paths = _reference_files(competition, ref_dir)
    limits = _limits(competition)
    messages = []
    source = open_source(submission_path, limits, messages)
    if named:
        submission = lines.find_named_files(source, competition, pairs, messages,
                                            lambda: _document_names(competition, pairs, paths))
    else:
        submission = find_submission_files(source, set(paths), set(tasks), competition.LANGUAGES,
                                           getattr(competition, "LANGUAGE_ALIASES", {}), messages)
    other = fingerprint.read_fingerprint(os.path.join(ref_dir, fingerprint.FILE_NAME))
    inventories = inventory.read_inventory(os.path.join(ref_dir, inventory.FILE_NAME))
    manifest = split.read_split(ref_dir)
    redacted = manifest is not None and manifest["part"] != "all"
    index = gold_index.read_index(os.path.join(ref_dir, gold_index.FILE_NAME))
    digest_key = _digest_key(pairs, paths)
    known_hash = reference_cache.get(digest_key) if reference_cache is not None else None
    digest = _SkippedDigest() if known_hash else hashlib.sha256()
    entries, relatives = [], []
    # the checks that read the reference's labels: where the gold is public, or in a gold-less reference (the kits'
    # validators: its few labels are written from the public input)
    phase_public = policy.read(ref_dir)["gold"] == policy.PUBLIC   # the phase's phase.json, read once
    public_gold = not gold or (not redacted and phase_public)
    priced = gold and not redacted and phase_public   # the phase's own gold, public: mistakes priced against it
    for task, lang in pairs:
        stats = {}
        path = paths[(task.folder, lang)]
        relatives.append(_relative(path, ref_dir))
        ref = load_reference(task, lang, path, competition, digest, stats, gold and not redacted,
                             reference_cache, redacted, index, relatives[-1])
        part = split.file_part(manifest, relatives[-1], len(ref))
        name = submission_file_name(competition, task, lang) if named else None
        entries.append(score_file(task, lang, ref, submission, file_limits(limits, stats), messages, other,
                                  name=name, per_sentence=per_sentence, details=details, inventories=inventories,
                                  part=part, public_gold=public_gold, priced=priced))
        del ref
    summary = not_submitted(entries, len(pairs), named)
    if summary is not None:
        messages.append(summary)
    if phase_public:
        messages.extend(floor_messages(ref_dir, entries, tasks))
    ref_hash = known_hash or digest.hexdigest()
    if reference_cache is not None:   # the cached bytes never change: hash them once, not once per submission
        reference_cache[digest_key] = ref_hash
    report = build_report(competition, entries, pairs, messages, ref_hash)
    if manifest is not None:
        split_report(report, split.scored_files(manifest, relatives), competition)
    baseline = read_baseline(os.path.join(ref_dir, BASELINE_FILE))
    if baseline is not None:
        report["baseline"] = baseline
    return report


def _read_text(kind, submission, task, lang, ref, limit):
    """The bytes of a text kind's submitted file (DataError when unreadable); a file over the kind's ``limit`` gets,
    in the error, what usually makes a file of this kind that large, when the kind says (its
    ``oversize_cause(ref)``: a sentence)."""
    try:
        return submission.read(task.folder, lang, limit)
    except DataError as err:
        cause = getattr(kind, "oversize_cause", None)
        if cause is not None and submission.size(task.folder, lang) > limit:
            err.message.text += ": " + cause(ref)
        raise


def split_report(report, manifest, competition):
    """Say in ``report`` which part of a split test phase was scored (``manifest``: that of the files scored;
    ``report["split"]`` and ``notes.split``: counts, never which items); a blind phase's scores are only
    :data:`evalkit.split.VALID_KEY`, and its entries carry no score."""
    text = split.describe(manifest, competition, report["entries"])
    report["split"] = {"mode": manifest.get("mode"), "part": manifest["part"],
                       "unit": split.unit(manifest, competition), "text": text}
    report["notes"] = dict(report.get("notes") or {}, split=text)
    if manifest["part"] == "none":
        report["scores"] = OrderedDict([(split.VALID_KEY, split.valid_fraction(report["entries"]))])
        for entry in report["entries"]:
            entry["score"] = None
            entry["components"] = {}


def _document_names(competition, pairs, paths):
    """The document names of the first per-document reference file of ``pairs`` (public names: the phase's input
    texts), for a did-you-mean that keeps their letter case; [] when there is none or it cannot be read."""
    for task, lang in pairs:
        if getattr(task, "documents", None):
            try:
                ref = load_reference(task, lang, paths[(task.folder, lang)], competition, hashlib.sha256(),
                                     gold=False)
            except ReferenceError:
                return []
            return list(getattr(ref, "by_name", ()))
    return []


def floor_messages(ref_dir, entries, tasks):
    """The warnings of the files at or below the phase's floor (:mod:`evalkit.floor`; none without a floor file) and
    of those with two labels swapped, labels shifted by a line or candidates ranked best last
    (:func:`evalkit.floor.public_gold_messages`). The caller asks only where the phase's gold is public (its
    ``phase.json``), so a message never depends on a hidden gold."""
    path = os.path.join(ref_dir, floor.FILE_NAME)
    label, floors = floor.read_floor(path) if os.path.isfile(path) else ("", {})
    found = floor.below_floor(entries, floors, label, tasks, KINDS) if floors else []
    return found + floor.public_gold_messages(entries, tasks, KINDS)   # above the floor too


def _reference_files(competition, ref_dir):
    """``(tasks by folder, named, pairs, paths)``: the reference files of ``ref_dir`` (ReferenceError when none),
    found by the declared flat names (``named``, :mod:`evalkit.lines`) or as ``<task>/<lang>.json``."""
    tasks = dict((task.folder, task) for task in competition.TASKS)
    named = lines.declares_names(competition)
    if named:
        found = lines.scan_reference(ref_dir, competition)
    else:
        found = scan_reference(ref_dir, set(tasks), competition.LANGUAGES)
    pairs = keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES),
                               [(tasks[folder], lang) for folder, lang, _ in found])
    return tasks, named, pairs, dict(((folder, lang), path) for folder, lang, path in found)


def _relative(path, ref_dir):
    """``path``'s name relative to the phase folder ``ref_dir``, with ``/`` (the key of the split manifest and of
    the gold index)."""
    return os.path.relpath(path, ref_dir).replace(os.sep, "/")


def _digest_key(pairs, paths):
    """The ``reference_cache`` key of the reference's SHA-256 (see :func:`load_reference`)."""
    return ("sha256 of the reference",) + tuple(paths[(task.folder, lang)] for task, lang in pairs)


def fill_reference_cache(competition, ref_dir, reference_cache, gold=True):
    """Parse every reference file of ``ref_dir`` into ``reference_cache`` (and its SHA-256) as :func:`evaluate`
    does on its first call: an opt-in of the organisers' re-scoring, whose scoring processes, started afterwards,
    then share the parsed reference. ReferenceError when the reference is broken."""
    _, _, pairs, paths = _reference_files(competition, ref_dir)
    key = _digest_key(pairs, paths)
    if key in reference_cache:
        return
    manifest = split.read_split(ref_dir)   # a test phase's part: its redacted items read as such
    redacted = manifest is not None and manifest["part"] != "all"
    digest = hashlib.sha256()
    index = gold_index.read_index(os.path.join(ref_dir, gold_index.FILE_NAME))
    for task, lang in pairs:
        path = paths[(task.folder, lang)]
        load_reference(task, lang, path, competition, digest, None, gold and not redacted, reference_cache, redacted,
                       index, _relative(path, ref_dir))
    reference_cache[key] = digest.hexdigest()


#: Optional file of a phase's reference folder: the baseline's scores on this phase (not a scored file).
BASELINE_FILE = "baseline_scores.json"


def read_baseline(path, max_bytes=4 * 1024 * 1024):
    """``{"label", "scores"}`` from the optional baseline file at ``path``; None when it is absent or
    unusable (the report works without it). Only numeric scores are kept."""
    value = read_optional_json(path, max_bytes)
    if type(value) is not dict or type(value.get("scores")) is not dict:
        return None
    scores = OrderedDict((key, number) for key, number in value["scores"].items()
                         if type(number) in (int, float) and number == number)
    label = value.get("label") if type(value.get("label")) is str else "baseline"
    return {"label": label[:80], "scores": scores} if scores else None


#: At most this many file names are listed in the one line about the files not submitted.
MAX_LISTED_NAMES = 40


def not_submitted(entries, expected, named=False):
    """The one message about the expected files the submission does not hold (each scores 0; submitting a
    subset is allowed, so it is a warning), or None when every file is there. With ``<folder>/<lang>.json``
    names the languages are grouped by folder; flat names (``named``) are listed as they are; at most
    :data:`MAX_LISTED_NAMES` names are shown.

    >>> entries = [{"task": "t1", "lang": l, "file": "t1/%s.json" % l, "status": "missing"} for l in ("a", "b")]
    >>> not_submitted(entries + [{"task": "t2", "lang": "a", "file": "t2/a.json", "status": "scored"}], 3).text
    '2 of 3 expected files not submitted (each scores 0): t1/{a,b}.json'
    """
    missing = [entry for entry in entries if entry["status"] == "missing"]
    if not missing:
        return None
    if named:
        names = [entry["file"] for entry in missing]
        shown = ", ".join(names[:MAX_LISTED_NAMES]) + (", and %d more" % (len(names) - MAX_LISTED_NAMES)
                                                       if len(names) > MAX_LISTED_NAMES else "")
    else:
        by_folder = OrderedDict()
        for entry in missing:
            by_folder.setdefault(entry["task"], []).append(entry["lang"])
        shown = ", ".join("%s/%s.json" % (folder, langs[0] if len(langs) == 1 else "{%s}" % ",".join(langs))
                          for folder, langs in by_folder.items())
    return Message("", WARNING, "submission", "%d of %d expected file%s not submitted (each scores 0): %s"
                   % (len(missing), expected, "" if expected == 1 else "s", shown))


#: The order of the messages in a report: what scored 0 first, then warnings, then the rest (stable within each).
SEVERITY_ORDER = {ERROR: 0, WARNING: 1}


def errors_first(messages):
    """``messages`` (Message objects) with the errors first, then the warnings, then the others, each group in
    its original order: a real error is never hidden behind a screenful of warnings."""
    return sorted(messages, key=lambda message: SEVERITY_ORDER.get(message.severity, 2))


def build_report(competition, entries, pairs, messages, ref_hash):
    """Assemble the report dict (``detailed_results.json``) from scored entries and messages."""
    used_tasks = [task for task in competition.TASKS if any(t is task for t, _ in pairs)]
    used_langs = [lang for lang in competition.LANGUAGES if any(l == lang for _, l in pairs)]
    report = {
        "competition": competition.COMPETITION_ID,
        "title": competition.TITLE,
        "signature": signature(competition, ref_hash),
        "scores": OrderedDict(aggregate(competition, entries, pairs)),
        "tasks": [{"folder": t.folder, "key": t.key, "label": t.label, "kind": t.kind,
                   "components": list(t.components)} for t in used_tasks],
        "languages": [{"code": lang, "name": competition.LANGUAGES[lang][0]} for lang in used_langs],
        "entries": entries,
        "messages": [m.as_dict() for m in errors_first(messages)],
    }
    notes = {}
    for task in reversed(used_tasks):   # a kind's own wording (its ``report_notes``), the first task's first
        notes.update(getattr(KINDS[task.kind], "report_notes", None) or {})
    notes.update(getattr(competition, "REPORT_NOTES", None) or {})   # the competition's own wording comes first
    if notes:   # wording for the HTML page
        report["notes"] = notes
    return report
