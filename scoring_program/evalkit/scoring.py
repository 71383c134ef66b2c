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

from . import __version__, fingerprint, keys, lines, metrics
from .kinds import KINDS as JSON_KINDS
from .layout import ReferenceError, find_submission_files, open_source, scan_reference
from .loading import parse_json_bytes
from .messages import DataError, Message, MessageLog, ERROR

#: Every kind by name: the JSON kinds (evalkit.kinds) and the line-aligned text kinds (evalkit.lines).
KINDS = dict(JSON_KINDS, **lines.TEXT_KINDS)


def _limits(competition):
    return {"file": competition.MAX_FILE_BYTES, "upload": competition.MAX_UPLOAD_BYTES,
            "members": competition.MAX_MEMBERS}


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


def load_reference(task, lang, path, competition, digest, cache=None):
    """Parse one reference file; feed its bytes to ``digest``; raise ReferenceError when it is broken.

    ``cache`` (opt-in, a dict the caller keeps between calls, off by default): the bytes and parsed
    sentences of ``path`` are kept there and reused, so a caller scoring many submissions against one
    reference parses each file once (the digest still gets the same bytes).
    """
    name = "reference %s/%s.json" % (task.folder, lang)
    if lines.declares_names(competition):
        name = "reference " + lines.reference_name(competition, task, lang)
    if cache is not None and path in cache:
        data, ref = cache[path]
        digest.update(("%s/%s\0%d\0" % (task.folder, lang, len(data))).encode("utf-8"))
        digest.update(data)
        return ref
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        digest.update(("%s/%s\0%d\0" % (task.folder, lang, len(data))).encode("utf-8"))
        digest.update(data)
        if getattr(KINDS[task.kind], "reads_text", False):
            ref = KINDS[task.kind].parse_reference_text(data, name, task, lang)
        else:
            ref = KINDS[task.kind].parse_reference(parse_json_bytes(data, name, len(data)), name, task)
        if cache is not None:
            cache[path] = (data, ref)
        return ref
    except DataError as err:
        raise ReferenceError(str(err))
    except (IOError, OSError) as err:
        raise ReferenceError("%s cannot be read: %s" % (name, err))


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


def score_file(task, lang, ref, submission, limits, messages, other=None, name=None, per_sentence=False):
    """Score one (task, language) file of ``submission`` against parsed ``ref``; return its entry dict.

    ``other``: the phase's ``other_split.json`` (:mod:`evalkit.fingerprint`), or None. ``name``: the
    file's name in the submission (default ``<folder>/<lang>.json``).
    ``per_sentence`` (opt-in): a scored entry also carries ``"per_sentence"``, ``{component: [value per
    scored sentence]}`` as the kind computed it (a failed entry has none: every sentence counts 0).
    """
    if getattr(KINDS[task.kind], "reads_text", False):
        return _score_text_file(task, lang, ref, submission, limits, messages, name)
    name = "%s/%s.json" % (task.folder, lang)
    if (task.folder, lang) not in submission.files:
        messages.append(Message(name, ERROR, "", "missing: expected %s in the submission (scored 0)" % name))
        return _failed_entry(task, lang, "missing")
    kind = KINDS[task.kind]
    log = MessageLog(name)
    try:
        value = parse_json_bytes(submission.read(task.folder, lang, limits["file"]), name, limits["file"])
        _check_split(task, lang, name, value, ref, other, messages)
        pred = kind.parse_prediction(value, ref, log, task)
    except DataError as err:
        messages.extend(log.close())
        err.message.text += " (this file scores 0)"
        messages.append(err.message)
        return _failed_entry(task, lang, err.status)
    del value
    result = kind.score(ref, pred, task)
    messages.extend(log.close())
    entry = _failed_entry(task, lang, "scored")
    entry.update({"score": kind.score_value(result.components), "micro": result.micro,
                  "sentences": result.sentences, "scored_sentences": result.scored_sentences,
                  "items": result.items, "zeroed_sentences": result.zeroed_sentences, "details": result.details})
    entry["components"] = dict((c, result.components[c]) for c in task.components)
    if per_sentence:
        entry["per_sentence"] = result.per_sentence
    return entry


def _score_text_file(task, lang, ref, submission, limits, messages, name):
    """:func:`score_file` for the line-aligned text kinds (:mod:`evalkit.lines`)."""
    kind = KINDS[task.kind]
    if (task.folder, lang) not in submission.files:
        messages.append(Message(name, ERROR, "", "missing: expected %s in the submission (scored 0)" % name))
        return _failed_entry(task, lang, "missing", name)
    log = MessageLog(name)
    limit = kind.prediction_limit(ref, limits["file"])
    try:
        pred = kind.parse_prediction_text(submission.read(task.folder, lang, limit), ref, log, task, limit)
    except DataError as err:
        messages.extend(log.close())
        err.message.text += " (this file scores 0)"
        messages.append(err.message)
        return _failed_entry(task, lang, err.status, name)
    result = kind.score(ref, pred, task)
    messages.extend(log.close())
    entry = _failed_entry(task, lang, "scored", name)
    entry.update({"score": kind.score_value(result.components), "micro": result.micro,
                  "sentences": result.sentences, "scored_sentences": result.scored_sentences,
                  "items": result.items, "zeroed_sentences": result.zeroed_sentences, "details": result.details})
    entry["components"] = dict((c, result.components[c]) for c in task.components)
    return entry


def _check_split(task, lang, name, value, ref, other, messages):
    """Add one message when ``value`` looks like predictions for the other split (see :mod:`evalkit.fingerprint`)."""
    if other is None:
        return
    found = fingerprint.wrong_split_message(
        name, task.kind, value, ref, other["files"].get("%s/%s" % (task.folder, lang)), other["split"],
        other["phase_split"], other["samples"])
    if found is not None:
        messages.append(found)


def aggregate(competition, entries, pairs):
    """Return the ordered ``{key: value}`` of every score from the entry dicts (see :mod:`evalkit.keys`).

    Entry score per (language, task); language average = mean of its task scores; task mean = mean
    over the languages where the task is scored; ``avg_score`` = mean of the task means (each task
    weighs the same). An entry that failed counts as 0 everywhere. A competition that declares
    ``AVERAGE = "entries"`` ranks by the plain mean of its entry scores instead (each dataset weighs the same).
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
    for lang in languages:
        scores = [by_pair[(task.folder, l)]["score"] for task, l in pairs if l == lang]
        if scores:
            values[keys.language_key(lang)] = metrics.mean(scores)
    values[keys.OVERALL_KEY] = metrics.mean(task_means)
    if getattr(competition, "AVERAGE", "tasks") == "entries":
        values[keys.OVERALL_KEY] = metrics.mean([by_pair[(task.folder, lang)]["score"] for task, lang in pairs])
    return [(key, values[key]) for key in keys.all_score_keys(competition.TASKS, languages, pairs)]


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


def evaluate(competition, ref_dir, submission_path, per_sentence=False, reference_cache=None):
    """Score the submission at ``submission_path`` (directory or zip) against ``ref_dir``.

    Returns the report dict (``detailed_results.json``). Raises :class:`~evalkit.layout.ReferenceError` when the
    reference is unusable and :class:`~evalkit.layout.NothingToScore` when the submission holds no
    expected file; every other problem becomes a message and a zero for the entry concerned.
    Opt-ins for the organisers' re-scoring (off by default, the platforms never use them):
    ``per_sentence`` adds each scored entry's per-sentence values (see :func:`score_file`);
    ``reference_cache`` is a dict kept between calls (see :func:`load_reference`).
    """
    with cyclic_gc_paused():
        return _evaluate(competition, ref_dir, submission_path, per_sentence, reference_cache)


def _evaluate(competition, ref_dir, submission_path, per_sentence=False, reference_cache=None):
    """:func:`evaluate` itself: find the files, then load, check and score them one at a time."""
    tasks = dict((task.folder, task) for task in competition.TASKS)
    if lines.declares_names(competition):
        return _evaluate_named(competition, ref_dir, submission_path)
    found = scan_reference(ref_dir, set(tasks), competition.LANGUAGES)
    pairs = keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES),
                               [(tasks[folder], lang) for folder, lang, _ in found])
    paths = dict(((folder, lang), path) for folder, lang, path in found)
    limits = _limits(competition)
    messages = []
    source = open_source(submission_path, limits, messages)
    aliases = getattr(competition, "LANGUAGE_ALIASES", {})
    submission = find_submission_files(source, set(paths), set(tasks), list(competition.LANGUAGES),
                                       aliases, messages)
    digest = hashlib.sha256()
    entries = []
    other = fingerprint.read_fingerprint(os.path.join(ref_dir, fingerprint.FILE_NAME))
    for task, lang in pairs:
        ref = load_reference(task, lang, paths[(task.folder, lang)], competition, digest, reference_cache)
        entries.append(score_file(task, lang, ref, submission, limits, messages, other, per_sentence=per_sentence))
        del ref
    report = build_report(competition, entries, pairs, messages, digest.hexdigest())
    baseline = read_baseline(os.path.join(ref_dir, BASELINE_FILE))
    if baseline is not None:
        report["baseline"] = baseline
    return report


#: Optional file of a phase's reference folder: the baseline's scores on this phase (not a scored file).
BASELINE_FILE = "baseline_scores.json"


def read_baseline(path, max_bytes=4 * 1024 * 1024):
    """``{"label", "scores"}`` from the optional baseline file at ``path``; None when it is absent or
    unusable (the report works without it). Only numeric scores are kept."""
    import json
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
        value = json.loads(data.decode("utf-8")) if len(data) <= max_bytes else None
    except (IOError, OSError, ValueError):
        return None
    if type(value) is not dict or type(value.get("scores")) is not dict:
        return None
    scores = OrderedDict((key, number) for key, number in value["scores"].items()
                         if type(number) in (int, float) and number == number)
    label = value.get("label") if type(value.get("label")) is str else "baseline"
    return {"label": label[:80], "scores": scores} if scores else None


def _evaluate_named(competition, ref_dir, submission_path):
    """:func:`_evaluate` for competitions that declare flat file names (``SUBMISSION_FILE``)."""
    tasks = dict((task.folder, task) for task in competition.TASKS)
    found = lines.scan_reference(ref_dir, competition)
    pairs = keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES),
                               [(tasks[folder], lang) for folder, lang, _ in found])
    paths = dict(((folder, lang), path) for folder, lang, path in found)
    limits = _limits(competition)
    messages = []
    source = open_source(submission_path, limits, messages)
    submission = lines.find_named_files(source, competition, pairs, messages)
    digest = hashlib.sha256()
    entries = []
    for task, lang in pairs:
        ref = load_reference(task, lang, paths[(task.folder, lang)], competition, digest)
        entries.append(score_file(task, lang, ref, submission, limits, messages,
                                  name=submission_file_name(competition, task, lang)))
        del ref
    report = build_report(competition, entries, pairs, messages, digest.hexdigest())
    baseline = read_baseline(os.path.join(ref_dir, BASELINE_FILE))
    if baseline is not None:
        report["baseline"] = baseline
    return report


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
        "messages": [m.as_dict() for m in messages],
    }
    if getattr(competition, "REPORT_NOTES", None):   # wording for the HTML page, when the competition has its own
        report["notes"] = dict(competition.REPORT_NOTES)
    return report
