"""Choice tasks: in every set of sentences, pick the gold one (SpanglishEval's evaluation).

Standard library only, Python 3.7. Small pure metric functions with worked examples (executed by the
test suite), a reader of the reference, and a parser/validator of submissions that reports every problem as
a located :class:`~evalkit.messages.Message` (set id, sentence index, expected vs got) and never raises
anything but :class:`~evalkit.messages.DataError` (for a file that is unusable as a whole).

Reference (JSON Lines, one set a line)::

    {"id": "dev-0001", "sentences": ["...", ...], "gold": 3, "gold_type": "cs" | "en" | "sp", ...}

Submission (one JSON object): for every set id, either the list of its sentences' scores (higher = more
likely, one finite number per sentence, in the order of the set) or the 0-based index of the chosen
sentence::

    {"dev-0001": [-42.1, -40.3, ...], "dev-0002": 7}

Rules for edge cases (the metric card):

* **Ties are split.** When several sentences share the highest score, the set earns ``1/k`` if the gold is
  among the ``k`` tied sentences, and the WER is the mean over the tied sentences: exactly the expectation
  of breaking the tie uniformly at random. So a constant scorer earns the random chooser's expected accuracy
  (mean of 1/set size) and no more. The authors' evaluation code sorted the gold first among equal scores,
  which gives a constant scorer 100%; counting a tie as wrong would instead punish a model for two sentences
  that are honestly equally likely more than a coin flip does. Scores are compared as parsed numbers
  (exact equality).
* **A set without a valid answer** (missing, wrong number of scores, a score that is not a finite number, an
  index out of range) counts as wrong, and its WER is that of an empty choice (every gold word deleted).
  Unknown set ids are reported and ignored.
* **WER** is word-level: tokens are the whitespace-separated strings of the sentences (``word__lang``
  tokens and punctuation), so a word with a different language tag is a substitution. The corpus WER is
  the total edit distance over the total number of gold tokens.
"""
import json
import math

from .loading import parse_json_bytes
from .messages import ERROR, WARNING, DataError, MessageLog

MAX_SUBMISSION_BYTES = 64 * 1024 * 1024

GOLD_TYPES = ("cs", "en", "sp")


def edit_distance(ref, hyp):
    """Word-level Levenshtein distance between token lists (substitution, insertion, deletion cost 1).

    >>> edit_distance("a b c".split(), "a x c d".split())
    2
    >>> edit_distance([], ["a"]), edit_distance(["a"], [])
    (1, 1)
    """
    previous = list(range(len(hyp) + 1))
    for i, ref_token in enumerate(ref, 1):
        current = [i]
        for j, hyp_token in enumerate(hyp, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref_token != hyp_token)))
        previous = current
    return previous[-1]


def wer(ref, hyp):
    """Word error rate of ``hyp`` against ``ref`` (strings, split on whitespace).

    edit distance / number of reference words. An empty reference gives 0.0 when the hypothesis is empty
    too and 1.0 otherwise (no division by zero; references of this task are never empty).

    >>> wer("vamos a ser juntos", "vamos hacer juntos")
    0.5
    >>> wer("", ""), wer("", "a")
    (0.0, 1.0)
    """
    ref_tokens, hyp_tokens = ref.split(), hyp.split()
    if not ref_tokens:
        return 0.0 if not hyp_tokens else 1.0
    return float(edit_distance(ref_tokens, hyp_tokens)) / len(ref_tokens)


def top_indices(scores):
    """Indices of the highest score (all of them when tied); ``[]`` for no scores.

    >>> top_indices([0.1, 0.7, 0.7, -2])
    [1, 2]
    """
    if not scores:
        return []
    best = max(scores)
    return [i for i, score in enumerate(scores) if score == best]


def choices(answer, size):
    """The chosen sentences of one set as ``[(weight, index), ...]`` (weights sum to 1; ``[]`` = no answer).

    ``answer`` is a list of scores (ties split evenly), an index, or None (no valid answer).

    >>> choices([1, 3, 3], 3)
    [(0.5, 1), (0.5, 2)]
    >>> choices(0, 3), choices(None, 3)
    ([(1.0, 0)], [])
    """
    if answer is None:
        return []
    if isinstance(answer, list):
        top = top_indices(answer)
        return [(1.0 / len(top), i) for i in top]
    return [(1.0, answer)] if 0 <= answer < size else []


def set_accuracy(answer, gold, size):
    """Credit of one set: the weight its answer puts on the gold (1, 1/k for a k-way tie, or 0).

    >>> set_accuracy([2, 5, 5, 1], 1, 4), set_accuracy([2, 5, 5, 1], 0, 4), set_accuracy(3, 3, 4)
    (0.5, 0.0, 1.0)
    >>> set_accuracy([0, 0, 0, 0], 2, 4)  # a constant scorer earns 1/set size
    0.25
    """
    return float(sum(weight for weight, index in choices(answer, size) if index == gold))


def set_edits(answer, sentences, gold):
    """Expected word edits of the chosen sentence against the gold (empty choice: every gold word deleted).

    >>> set_edits([0, 1, 1], ["a b", "a c", "d c"], 0)
    1.5
    >>> set_edits(None, ["a b", "a c"], 0)
    2.0
    """
    ref = sentences[gold].split()
    picked = choices(answer, len(sentences))
    if not picked:
        return float(len(ref))
    return sum(weight * edit_distance(ref, sentences[index].split()) for weight, index in picked)


def accuracy(credits):
    """Mean credit (0.0 for no sets).

    >>> accuracy([1.0, 0.0, 0.5, 0.5]), accuracy([])
    (0.5, 0.0)
    """
    return float(sum(credits)) / len(credits) if credits else 0.0


def evaluate(reference, answers):
    """Scores of ``answers`` ({set id: answer or None}) on ``reference`` (list of set dicts).

    Returns ``accuracy`` (all sets), ``accuracy_cs`` (code-switched golds), ``accuracy_mono``
    (monolingual golds), ``wer`` (corpus WER of the chosen sentences), and the counts of each group.
    A group without sets has accuracy 0.0.

    >>> ref = [{"id": "a", "sentences": ["x y", "x z"], "gold": 0, "gold_type": "cs"},
    ...        {"id": "b", "sentences": ["p q r", "p q s"], "gold": 1, "gold_type": "en"}]
    >>> scores = evaluate(ref, {"a": [5, 5], "b": 0})
    >>> scores["accuracy"], scores["accuracy_cs"], scores["accuracy_mono"], scores["wer"]
    (0.25, 0.5, 0.0, 0.3)
    """
    credits = {"cs": [], "mono": []}
    edits = 0.0
    words = 0
    for entry in reference:
        answer = answers.get(entry["id"])
        group = "cs" if entry["gold_type"] == "cs" else "mono"
        credits[group].append(set_accuracy(answer, entry["gold"], len(entry["sentences"])))
        edits += set_edits(answer, entry["sentences"], entry["gold"])
        words += len(entry["sentences"][entry["gold"]].split())
    return {"accuracy": accuracy(credits["cs"] + credits["mono"]), "accuracy_cs": accuracy(credits["cs"]),
            "accuracy_mono": accuracy(credits["mono"]), "wer": edits / words if words else 0.0,
            "sets": len(reference), "sets_cs": len(credits["cs"]), "sets_mono": len(credits["mono"])}


def _describe(value):
    """A short, display-safe description of a JSON value for messages."""
    if isinstance(value, bool) or value is None:
        return "JSON %s" % {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return "the string %r" % (value[:40] + ("..." if len(value) > 40 else ""))
    if isinstance(value, (list, dict)):
        return "a %s of %d item(s)" % ("list" if isinstance(value, list) else "JSON object", len(value))
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_number(value):
    """A finite int or float that is not a boolean."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_answer(set_id, value, size, log):
    """Validate one set's answer; return it (scores as floats, or an int index) or None, logging why."""
    where = "set %s" % set_id
    if isinstance(value, list):
        if len(value) != size:
            log.add(ERROR, where, "expected %d scores (one per sentence), got %d: the set counts as wrong"
                    % (size, len(value)), kind="wrong number of scores")
            return None
        for index, score in enumerate(value):
            if not _is_number(score):
                log.add(ERROR, "%s, sentence %d" % (where, index), "expected a finite number, got %s: the set "
                        "counts as wrong" % _describe(score), kind="score not a number")
                return None
        return [float(score) for score in value]
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < size:
            return value
        log.add(ERROR, where, "expected a sentence index from 0 to %d, got %s: the set counts as wrong"
                % (size - 1, _describe(value)), kind="index out of range")
        return None
    log.add(ERROR, where, "expected a list of %d scores or a sentence index from 0 to %d, got %s: the set "
            "counts as wrong" % (size, size - 1, _describe(value)), kind="answer of the wrong type")
    return None


def parse_submission(data, reference, file="predictions.json"):
    """Validate a parsed submission against the reference; return ({set id: answer or None}, messages).

    Raises DataError only when ``data`` is not a JSON object (nothing can be scored).

    >>> ref = [{"id": "a", "sentences": ["x", "y"], "gold": 0, "gold_type": "en"}]
    >>> answers, messages = parse_submission({"a": [1, "high"], "zz": 0}, ref)
    >>> answers
    {'a': None}
    >>> for message in messages:
    ...     print(message)
    error: predictions.json, set a, sentence 1: expected a finite number, got the string 'high': the set counts as wrong
    warning: predictions.json, set zz: not a set of the reference: ignored
    """
    if not isinstance(data, dict):
        raise DataError(file, "", "expected a JSON object {set id: list of scores or sentence index}, got %s"
                        % _describe(data))
    log = MessageLog(file)
    answers = {}
    for entry in reference:
        if entry["id"] not in data:
            log.add(ERROR, "set %s" % entry["id"], "missing: the set counts as wrong", kind="missing set")
            answers[entry["id"]] = None
            continue
        answers[entry["id"]] = check_answer(entry["id"], data[entry["id"]], len(entry["sentences"]), log)
    known = set(answers)
    for set_id in data:
        if set_id not in known:
            log.add(WARNING, "set %s" % set_id[:60], "not a set of the reference: ignored", kind="unknown set")
    return answers, log.close()


def read_submission(data, reference, file="predictions.json", max_bytes=MAX_SUBMISSION_BYTES):
    """Parse submission bytes (UTF-8 JSON) and validate them: ({set id: answer or None}, messages).

    Raises DataError when the file is unusable as a whole (size, encoding, JSON syntax with line and
    column, not an object).

    >>> ref = [{"id": "a", "sentences": ["x", "y"], "gold": 1, "gold_type": "cs"}]
    >>> read_submission(b'{"a": 1}', ref)
    ({'a': 1}, [])
    >>> read_submission(b'{"a": [1, 2}', ref)
    Traceback (most recent call last):
    ...
    evalkit.messages.DataError: predictions.json, line 1, column 12: invalid JSON: Expecting ',' delimiter
    """
    if not data.strip():
        raise DataError(file, "", "the file is empty; expected a JSON object {set id: list of scores or index}")
    return parse_submission(parse_json_bytes(data, file, max_bytes), reference, file)


def parse_reference(lines, file="reference.jsonl"):
    """Read reference sets from JSON Lines (an iterable of strings); raise DataError on the first problem.

    >>> parse_reference(['{"id": "a", "sentences": ["x", "y"], "gold": 1, "gold_type": "sp"}'])[0]["gold"]
    1
    """
    sets = []
    seen = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = "line %d" % number
        try:
            entry = json.loads(line)
        except ValueError as err:
            raise DataError(file, where, "invalid JSON: %s" % getattr(err, "msg", err))
        _check_reference_entry(entry, file, where, seen)
        sets.append(entry)
    return sets


def _check_reference_entry(entry, file, where, seen):
    """Raise DataError unless ``entry`` is a well-formed reference set with a new id."""
    if not isinstance(entry, dict):
        raise DataError(file, where, "expected a JSON object, got %s" % _describe(entry))
    set_id, sentences, gold = entry.get("id"), entry.get("sentences"), entry.get("gold")
    if not isinstance(set_id, str) or set_id in seen:
        raise DataError(file, where, "expected a new string id, got %s" % _describe(set_id))
    seen.add(set_id)
    if not isinstance(sentences, list) or len(sentences) < 2 or not all(isinstance(s, str) for s in sentences):
        raise DataError(file, where, "set %s: expected a list of at least 2 sentences" % set_id)
    if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold < len(sentences):
        raise DataError(file, where, "set %s: expected a gold index from 0 to %d, got %s"
                        % (set_id, len(sentences) - 1, _describe(gold)))
    if entry.get("gold_type") not in GOLD_TYPES:
        raise DataError(file, where, "set %s: expected gold_type one of %s, got %s"
                        % (set_id, ", ".join(GOLD_TYPES), _describe(entry.get("gold_type"))))
