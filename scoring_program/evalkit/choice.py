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
import operator
import re
import unicodedata
from collections import Counter, OrderedDict

from .floor import price_text
from .items import SetItems
from .kinds import Entry, paired
from .loading import decode_utf8, parse_json_bytes
from .metrics import ratio
from .messages import CHANCE_NOTE, ERROR, INFO, WARNING, DataError, Message, MessageLog, printable, quoted

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


#: An integer literal longer than this is not converted to a number (the conversion takes time quadratic in its
#: length, and Python 3.11 refuses more than 4,300 digits); no 64-bit float holds more than 309 integer digits.
MAX_INT_DIGITS = 400


class LongInteger(object):
    """A JSON integer literal of more than :data:`MAX_INT_DIGITS` digits, kept unconverted: never a valid answer."""

    __slots__ = ("digits",)

    def __init__(self, text):
        self.digits = len(text.lstrip("-"))

    def __repr__(self):
        return "an integer of %s digits" % "{:,}".format(self.digits)


def _parse_int(text):
    """``json.loads``'s ``parse_int``: an int, or a :class:`LongInteger` when the literal is too long."""
    return int(text) if len(text) <= MAX_INT_DIGITS else LongInteger(text)


class DuplicateKeys(object):
    """``json.loads``'s ``object_pairs_hook``: builds the dicts as ``json`` does (the last value of a key repeated
    in an object wins) and remembers, per object, the keys given more than once (:meth:`of`)."""

    def __init__(self):
        self.found = []

    def __call__(self, pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen, repeated = set(), OrderedDict()
            for key, _ in pairs:
                if key in seen:
                    repeated[key] = repeated.get(key, 1) + 1
                seen.add(key)
            self.found.append((obj, repeated))
        return obj

    def of(self, obj):
        """``{key: times given}`` of the keys that ``obj`` (a dict this hook built) had more than once."""
        return next((repeated for built, repeated in self.found if built is obj), {})


def _describe(value):
    """A short, display-safe description of a JSON value for messages."""
    if isinstance(value, bool) or value is None:
        return "JSON %s" % {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return "the string %s" % quoted(value, 40)
    if isinstance(value, (list, dict)):
        return "a %s of %d item(s)" % ("list" if isinstance(value, list) else "JSON object", len(value))
    if isinstance(value, int) and not _fits_float(value):
        return "an integer of %s digits" % _digits(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "%sInfinity" % ("-" if value < 0 else "")
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _digits(value):
    """The number of digits of the int ``value`` (written with a thousands separator), without converting one
    of more than :data:`MAX_INT_DIGITS` digits to text.

    >>> _digits(-12345), _digits(10 ** 5000)
    ('5', 'more than 400')
    """
    if value.bit_length() > 4 * MAX_INT_DIGITS:
        return "more than %d" % MAX_INT_DIGITS
    return "{:,}".format(len(str(abs(value))))


def _fits_float(value):
    """Whether the int ``value`` converts to a float (at most about 1.8e308 in absolute value)."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _is_number(value):
    """A finite int or float that is not a boolean (an int too large for a float is not finite)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return _fits_float(value) and math.isfinite(value)


def _score_problem(score):
    """The problem class (see :data:`PROBLEMS`) of one element of a list of scores, or None when it is a number."""
    if _is_number(score):
        return None
    if isinstance(score, bool):
        return "boolean"
    if isinstance(score, (list, dict)):
        return "nested"
    if isinstance(score, (int, float, LongInteger)):
        return "not_finite"
    if isinstance(score, str) and _is_number(_number_in(score)):
        return "quoted"
    return "not_number"


def _number_in(text):
    """The number a string spells (``"-42.1"``), or None."""
    try:
        return float(text.strip()) if len(text) <= 64 else None
    except ValueError:
        return None


#: The problems of a submission, one message each per file: ``class: (severity, what, expected, consequence)``.
PROBLEMS = OrderedDict([
    ("missing", (ERROR, "no answer", "an answer for every set id of the phase (its sets.jsonl)",
                 "each of these sets counts as wrong")),
    ("count", (ERROR, "a list with the wrong number of scores", "one score per sentence, in the set's order",
               "each of these sets counts as wrong")),
    ("quoted", (ERROR, "a score written as a string", "numbers without quotes (-42.1, not \"-42.1\")",
                "each of these sets counts as wrong")),
    ("boolean", (ERROR, "a score that is true or false", "a number per sentence (higher = more likely)",
                 "each of these sets counts as wrong")),
    ("nested", (ERROR, "a list or object among the scores", "a flat list of numbers, one per sentence",
                "each of these sets counts as wrong")),
    ("not_finite", (ERROR, "a score that is not a finite number (NaN, Infinity, or beyond a 64-bit float such as "
                           "1e400)", "a finite number such as a log-probability", "each of these sets counts as wrong")),
    ("not_number", (ERROR, "a score that is not a number", "a number per sentence (higher = more likely)",
                    "each of these sets counts as wrong")),
    ("range", (ERROR, "an index outside the set", "a 0-based index of one of the set's sentences",
               "each of these sets counts as wrong")),
    ("answer_type", (ERROR, "an answer of the wrong type", "a list of one score per sentence, or a 0-based "
                     "sentence index written as an integer (7, not 7.0 or \"7\")", "each of these sets counts as wrong")),
    ("duplicate", (WARNING, "a set id given more than once in the object", "each set id once",
                   "only the last answer of each was read")),
    ("unknown", (WARNING, "an id that is not a set of this phase", "the set ids of this phase's sets.jsonl",
                 "ignored")),
])
#: At most this many sets are named in a problem's message (the count says how many there are).
SHOWN_SETS = 3
#: The least share of the sets answered with scores that must look like ranks for the ranks warning.
RANKS_SHARE = 0.5


class Problems(object):
    """The problems of one submission by class (:data:`PROBLEMS`): each class becomes one message with its
    count, the first :data:`SHOWN_SETS` sets (and sentence) and what was expected."""

    def __init__(self):
        self.found = OrderedDict()

    def add(self, problem, set_id, detail="", sentence=None):
        """Record ``problem`` in set ``set_id`` (at ``sentence``), ``detail`` saying what was found."""
        self.found.setdefault(problem, []).append((set_id, sentence, detail))

    def count(self, problem):
        """How many sets have ``problem``."""
        return len(self.found.get(problem, ()))

    def report(self, log, extra=None, total=None):
        """One message per class into ``log`` (``extra``: ``{class: sentence appended to its message}``; ``total``:
        the number of sets of the reference, said beside each count of sets)."""
        for problem, cases in sorted(self.found.items(), key=lambda item: list(PROBLEMS).index(item[0])):
            severity, what, expected, consequence = PROBLEMS[problem]
            shown = ["%s%s" % (_where(set_id, sentence), ": " + detail if detail else "")
                     for set_id, sentence, detail in cases[:SHOWN_SETS]]
            more = "; and %d more" % (len(cases) - SHOWN_SETS) if len(cases) > SHOWN_SETS else ""
            unit = "id" if problem in ("duplicate", "unknown") else "set"
            of = " of %d" % total if total and unit == "set" else ""
            log.add(severity, _where(cases[0][0], cases[0][1]), "%s: %d%s %s%s (%s%s); expected %s; %s.%s" % (
                what, len(cases), of, unit, "" if len(cases) == 1 and not of else "s", "; ".join(shown), more,
                expected, consequence,
                (" " + extra[problem]) if extra and problem in extra else ""), kind=problem)


def _where(set_id, sentence=None):
    """``set <id>`` (quoted and cut when it is not a set of the reference), with the sentence when given."""
    return "set %s%s" % (printable(set_id, 60), "" if sentence is None else ", sentence %d" % sentence)


def check_answer(set_id, value, size, problems):
    """Validate one set's answer; return it (scores as floats, or an int index) or None, recording why in
    ``problems`` (a :class:`Problems`)."""
    if isinstance(value, list):
        if len(value) != size:
            problems.add("count", set_id, "%d score%s for %d sentences" % (len(value), "" if len(value) == 1 else "s",
                                                                         size))
            return None
        for index, score in enumerate(value):
            problem = _score_problem(score)
            if problem:
                problems.add(problem, set_id, _describe(score), index)
                return None
        return [float(score) for score in value]
    if _is_index(value):
        if 0 <= value < size:
            return value
        problems.add("range", set_id, "%s for sentences 0 to %d" % (_describe(value), size - 1))
        return None
    if isinstance(value, LongInteger):
        problems.add("range", set_id, "%r for sentences 0 to %d" % (value, size - 1))
        return None
    problems.add("answer_type", set_id, _describe(value))
    return None


def _is_index(value):
    """Whether ``value`` is an int (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def looks_like_ranks(scores):
    """Whether a set's scores are the integers 0 to n-1 (or 1 to n), each once: ranks, where 0 (or 1) is the best
    sentence, rather than scores (higher = more likely). Sets of fewer than 3 sentences never look like ranks.

    >>> looks_like_ranks([2.0, 0.0, 1.0]), looks_like_ranks([3, 1, 2]), looks_like_ranks([0.0, 0.0, 1.0])
    (True, True, False)
    >>> looks_like_ranks([-1.5, -3.0, -2.0]), looks_like_ranks([1.0, 0.0])
    (False, False)
    """
    if len(scores) < 3 or not all(float(score).is_integer() for score in scores):
        return False
    ordered = sorted(int(score) for score in scores)
    return ordered == list(range(len(scores))) or ordered == list(range(1, len(scores) + 1))


def _ranks_warning(answers, log, reference=()):
    """One warning when most of the sets answered with scores have scores that look like ranks. Their direction is
    not told without the gold (the highest number may already be the best: pandas' rank() over scores); the
    sentences' lengths hint at it (a language model prefers shorter sentences): said when they do clearly, else how
    to check. On dev, :func:`rank_counts` compares every reading against the gold."""
    scored = [(set_id, answer) for set_id, answer in answers.items() if isinstance(answer, list)]
    ranked = [set_id for set_id, answer in scored if looks_like_ranks(answer)]
    if len(ranked) >= 2 and len(ranked) > RANKS_SHARE * len(scored):
        chosen = set(ranked)
        fits = []
        for entry in reference:
            if entry["id"] in chosen and len(fits) < ORDER_SAMPLE:
                fit = _fit(answers[entry["id"]], *_shortness(entry["sentences"]))
                if fit is not None:
                    fits.append(fit)
        fit = sum(fits) / len(fits) if len(fits) >= ORDER_MIN_SETS else 0.0
        if fit >= ORDER_FIT:
            hint = ("They follow the sentences' lengths as log-probabilities do (the higher the number, the shorter "
                    "the sentence: mean correlation with the word counts %+.2f over %d sets): the highest number is "
                    "likely the best sentence already (pandas' rank() over scores), which is right here; leave them "
                    "so. Submit -rank, or the log-probability of each sentence, only if 0 (or 1) is your best "
                    "sentence." % (-fit, len(fits)))
        elif fit <= -ORDER_FIT:
            hint = ("They follow the sentences' lengths the other way round (the lower the number, the shorter the "
                    "sentence: mean correlation with the word counts %+.2f over %d sets): 0 (or 1) is likely the best "
                    "sentence, which counts as the worst here. Submit -rank, or the log-probability of each "
                    "sentence." % (-fit, len(fits)))
        else:
            hint = ("Their direction cannot be told without the gold: if 0 (or 1) is your best sentence, it counts as "
                    "the worst here: Submit -rank, or the log-probability of each sentence; if your highest number is "
                    "the best (pandas' rank() over scores), leave them. Check one set: the sentence your model likes "
                    "best must have the highest number (on dev, the validator compares both directions against the "
                    "gold).")
        log.add(WARNING, _where(ranked[0]), "the scores of %d of the %d sets answered with scores are the integers "
                "0 to n-1 (or 1 to n), each once: they look like ranks (e.g. set %s). Higher is better here: the "
                "sentence with the highest score is chosen. %s (Sentence indices sorted by score, an argsort, look "
                "the same: they are not a score per sentence, and -argsort is no better.)" % (
                    len(ranked), len(scored), printable(ranked[0], 60), hint), kind="ranks")


#: How a set's scores that look like ranks (:func:`looks_like_ranks`) may be read (:func:`rank_counts`): ``name:
#: (what, reading)``, ``reading(answer)`` giving a score per sentence (higher = more likely).
RANK_READINGS = OrderedDict([
    ("as written", ("as written (the highest number chosen)", lambda answer: answer)),
    ("negated", ("with every rank negated (0 or 1 the best)", lambda answer: [-x for x in answer])),
    ("argsort", ("read as sentence indices sorted by score, best first (an argsort)",
                 lambda answer: _from_argsort(answer, -1.0))),
    ("argsort worst first", ("read as sentence indices sorted by score, worst first (an ascending argsort)",
                             lambda answer: _from_argsort(answer, 1.0))),
])


def _from_argsort(answer, sign):
    """A score per sentence from ``answer``, a permutation of 0..n-1 (or 1..n) listing the sentences by score: the
    r-th listed gets ``sign * r``.

    >>> _from_argsort([2.0, 0.0, 1.0], -1.0)   # sentence 2 first: the best
    [-1.0, -2.0, -0.0]
    """
    low = min(int(x) for x in answer)
    scores = [0.0] * len(answer)
    for place, index in enumerate(answer):
        scores[int(index) - low] = sign * place
    return scores


def rank_counts(reference, answers):
    """Where the gold is public and the scores look like ranks (as for :func:`_ranks_warning`), the credits their
    sets win in each reading of :data:`RANK_READINGS` (``readings``), the best reading (``best``, as written unless
    another wins clearly: by two standard errors of a sign test and one set), and the whole file priced with those
    sets read so (:func:`_priced`); or None. Said by :func:`rank_message`."""
    scored = [(e, answers.get(e["id"])) for e in reference if type(answers.get(e["id"])) is list]
    ranked = [(e, answer) for e, answer in scored if looks_like_ranks(answer)]
    if len(ranked) < 2 or len(ranked) <= RANKS_SHARE * len(scored):
        return None
    readings = OrderedDict((name, sum(set_accuracy(reading(answer), e["gold"], len(e["sentences"]))
                                      for e, answer in ranked)) for name, (_, reading) in RANK_READINGS.items())
    best = max(readings, key=lambda name: (readings[name], name == "as written"))
    written = readings["as written"]
    if best != "as written" and readings[best] - written < max(1.0, 2.0 * math.sqrt(readings[best] + written)):
        best = None   # no reading wins clearly
    elif best == "as written":
        second = max(v for name, v in readings.items() if name != best)
        if written - second < max(1.0, 2.0 * math.sqrt(written + second)):
            best = None
    mended = dict(answers)
    if best:
        for e, answer in ranked:
            mended[e["id"]] = RANK_READINGS[best][1](answer)
    return dict(_priced(reference, answers, mended), sets=len(ranked), readings=list(readings.items()), best=best)


def rank_message(entry, ranks):
    """The message of :func:`rank_counts`: a note that the ranks' direction is right (the warning given without the
    gold does not apply), a warning priced (:func:`evalkit.floor.price_text`) when another reading wins clearly, else
    a note that the sets are too few to tell."""
    said = "the %d sets whose scores look like ranks are won %s" % (ranks["sets"], ", ".join(
        "%.1f times %s" % (won, RANK_READINGS[name][0]) for name, won in ranks["readings"]))
    best = ranks["best"]
    if best == "as written":
        return Message(entry["file"], INFO, "whole file", "%s: in them the highest number is the best sentence, as it "
                       "must be here; leave them as they are (the warning about ranks does not apply to them)." % said)
    if best is None:
        return Message(entry["file"], INFO, "whole file", "%s: too few to tell which reading is right; the model's own "
                       "ranking of one set (is its best sentence the highest number?) says which." % said)
    fix = ("in them 0 (or 1) is the best sentence, while the highest score is chosen here: submit -rank, or the "
           "log-probability of each sentence" if best == "negated" else
           "they are sentence indices sorted by score, not a score per sentence: give each sentence its own score "
           "(the log-probability), or the index of the chosen sentence")
    return Message(entry["file"], WARNING, "whole file", "%s: %s. %s" % (
        said, fix, price_text(ranks, "read so")))


#: Every tie at the top of a set is said (one warning, with the count); the warning says the ties make these sets
#: score like a random choice when at least this share of the sets answered with scores has one of 3 sentences or
#: more, or of the whole set (constant scores, probabilities that underflowed to one number)...
TIES_SHARE = 0.1
#: ... or when at least this share has a tie of any size; below both, a few ties are what an honest model may give
#: (two sentences with the same unknown word, for a model with one unknown-word class), and the warning says so.
PAIR_TIES_SHARE = 0.3
#: Scores rounded to at most this many decimals are named as rounded when they tie (every score of the file so).
ROUNDED_DECIMALS = 3


def rounded_decimals(scored):
    """The fewest decimals (0 to :data:`ROUNDED_DECIMALS`) that every score of ``scored`` (``[(set id, scores)]``)
    is written with, or None: scores rounded (``round(x)``, ``int(x)``, ``"%.1f"``), which makes sentences whose
    scores differ tie. Called only where a set has a tie at the top.

    >>> rounded_decimals([("a", [-42.0, -40.0]), ("b", [-7.0, -7.0])]), rounded_decimals([("a", [-4.2, -4.25])])
    (0, 2)
    >>> rounded_decimals([("a", [-42.123456, -40.0])]) is None
    True
    """
    for decimals in range(ROUNDED_DECIMALS + 1):
        if all(score == round(score, decimals) for _, answer in scored for score in answer):
            return decimals
    return None


def _ties_warning(answers, log):
    """One warning when any set answered with scores has its top score shared by several sentences, with the count and
    how a tie is scored (no order breaks it: k sentences at the top earn 1/k with the gold among them), and the likely
    cause: every score rounded (:func:`rounded_decimals`), constant scores, probabilities that underflowed to 0; when
    many sets tie (:data:`TIES_SHARE` of them by 3 or more or by the whole set, or :data:`PAIR_TIES_SHARE` by any
    number), that these sets score like a random choice. Counts the sets, names the first ones and the fix."""
    scored = [(set_id, answer) for set_id, answer in answers.items() if isinstance(answer, list) and len(answer) > 1]
    tied = []
    for set_id, answer in scored:
        top = max(answer)
        if answer.count(top) > 1:
            tied.append((set_id, answer.count(top), len(answer), top))
    if not tied:
        return
    wide = sum(1 for _, count, size, _ in tied if count >= 3 or count == size)
    many = wide >= TIES_SHARE * len(scored) or len(tied) >= PAIR_TIES_SHARE * len(scored)
    constant = sum(1 for _, count, size, _ in tied if count == size)
    zero = sum(1 for _, _, _, top in tied if top == 0)
    decimals = rounded_decimals(scored) if constant * 2 < len(tied) else None   # constant scores are not rounded ones
    if decimals is not None:
        fix = ("Every score of the file is %s: rounded (%s)? Rounding gives sentences whose scores differ the same "
               "score; write the scores unrounded (the floats as they are, json.dump rounds nothing)." % (
                   "a whole number" if decimals == 0 else "written with at most %d decimal%s" % (
                       decimals, "" if decimals == 1 else "s"),
                   "round(x), int(x), '%.0f'" if decimals == 0 else "round(x, %d), '%%.%df'" % (decimals, decimals)))
    elif many or constant * 2 >= len(tied):
        fix = ("Give each sentence its own score: the log-probability (a sum of log-probabilities does not underflow "
               "as a product of probabilities does), not a rounded or constant value.")
    else:
        fix = ("A model may give two sentences the same score now and then (the same unknown word in both); where "
               "yours should differ, give each sentence its own score (the log-probability).")
    log.add(WARNING, _where(tied[0][0]), "%d of the %d sets answered with scores %s highest score shared by "
            "several sentences (%d with the same score for every sentence%s; first at %s). No order breaks a tie "
            "here. A tie splits the credit: k sentences sharing the top score with the gold earn 1/k (what a random "
            "pick among them earns), and the set's WER is the mean over them%s. %s" % (
                len(tied), len(scored), "has its" if len(tied) == 1 else "have their", constant,
                ", %d of them at 0 (probabilities that underflowed?)" % zero if zero else "",
                "; ".join("set %s (%d of %d tied)" % (printable(set_id, 40), count, size)
                          for set_id, count, size, _ in tied[:3]),
                ", so these sets score like a random choice" if many else "", fix),
            kind="ties at the top of a set")



def _underflow_warning(answers, log):
    """One error when most sets answered with scores (at least :data:`SAME_INDEX_SETS`) have every score 0:
    probabilities that underflowed to 0 (a product of the words' probabilities, or exp of a log-probability, rounded or in float32);
    each such set is a tie of the whole set, chosen at random. Only where other sets hold probabilities (at most 1, one
    above 0): every set at 0 is a constant scorer, which the ties warning says."""
    scored = [(set_id, answer) for set_id, answer in answers.items() if type(answer) is list and len(answer) > 1]
    zero = [set_id for set_id, answer in scored if not any(answer)]
    if len(zero) < SAME_INDEX_SETS or 2 * len(zero) < len(scored):
        return
    if not any(0.0 <= min(answer) and 0.0 < max(answer) <= 1.0 for _, answer in scored):
        return   # no set holds probabilities: a constant scorer (the ties warning says it), not an underflow
    log.add(ERROR, _where(zero[0]), "%d of the %d sets answered with scores have every score 0 (first at sets %s): "
            "probabilities that underflowed to 0 (a product of the words' probabilities, or exp() of a "
            "log-probability, then rounded or stored in float32), so each of these sets is a tie of all its "
            "sentences and is chosen at random. Submit log-probabilities (the sum of the words' log-probabilities), "
            "which never underflow." % (len(zero), len(scored), _ids_shown(zero)),
            kind="probabilities that underflowed to 0")

#: Positive scores are reported when at least this share of the sets answered with scores has them (see
#: :func:`_direction_warning`).
DIRECTION_SHARE = 0.1


def looks_reversed(scores):
    """Whether a set's scores are all at least 0 with one above 1: no log-probability (at most 0) nor probability
    (at most 1) looks so, perplexities, losses and surprisals (lower = more likely) do. Ranks are left to the ranks
    warning.

    >>> looks_reversed([12.5, 40.1, 33.0]), looks_reversed([-12.5, -3.0]), looks_reversed([0.2, 0.9, 1.0])
    (True, False, False)
    >>> looks_reversed([2.0, 0.0, 1.0])   # ranks
    False
    """
    return min(scores) >= 0 and max(scores) > 1 and not looks_like_ranks(scores)


def _direction_warning(answers, log):
    """One warning when many sets answered with scores have only positive scores, some above 1 (:func:`looks_reversed`):
    perplexities or losses, where lower means more likely, choose the least likely sentence here. Counts the sets,
    names the first ones, and says when the other sets have scores at most 0 (two kinds of score in one file)."""
    scored = [(set_id, answer) for set_id, answer in answers.items() if type(answer) is list and len(answer) > 1]
    positive = [(set_id, answer) for set_id, answer in scored if looks_reversed(answer)]
    if not positive or len(positive) < DIRECTION_SHARE * len(scored):
        return
    negative = sum(1 for _, answer in scored if max(answer) <= 0)
    log.add(WARNING, _where(positive[0][0]), "%d of the %d sets answered with scores have only scores of 0 or more, "
            "some above 1 (first at %s): log-probabilities are at most 0 and probabilities at most 1, so these may "
            "be perplexities, losses or surprisals, where lower means more likely, or scores where higher already "
            "means more likely (logits, reranker or classifier scores). The highest score is chosen here: negate "
            "them only if lower means more likely in them (or submit log-probabilities); leave them as they are "
            "otherwise. On dev, the validator compares both directions against the gold.%s" % (
                len(positive), len(scored), "; ".join("set %s: %.6g to %.6g" % (printable(set_id, 40), min(a), max(a))
                                                      for set_id, a in positive[:3]),
                " The other %d sets have scores of at most 0: two kinds of score in one file?" % negative
                if negative else ""), kind="scores whose direction looks reversed")


def direction_counts(reference, answers):
    """Where the gold is public, which direction the scores of the sets that look reversed (:func:`looks_reversed`,
    when they are at least :data:`DIRECTION_SHARE` of the sets answered with scores, as for the warning) choose the
    gold in: ``{"sets", "as_written", "negated", "total", "unit"}`` (credits summed over those sets, as written and
    with every score negated; ``total``: the reference's sets), or None. Read by :func:`evalkit.floor.reversed_scores`.

    >>> ref = [{"id": "a", "sentences": ["x", "y", "z"], "gold": 0, "gold_type": "cs"},
    ...        {"id": "b", "sentences": ["x", "y"], "gold": 1, "gold_type": "en"}]
    >>> direction_counts(ref, {"a": [1.5, 9.0, 4.0], "b": [7.0, 3.0]})   # perplexities: negated, both are won
    {'sets': 2, 'as_written': 0.0, 'negated': 2.0, 'total': 2, 'unit': 'sets'}
    >>> direction_counts(ref, {"a": [-1.5, -9.0, -4.0], "b": [-7.0, -3.0]}) is None   # log-probabilities
    True
    """
    scored = positive = 0
    as_written = negated = 0.0
    for entry in reference:
        answer = answers.get(entry["id"])
        if type(answer) is not list or len(answer) < 2:
            continue
        scored += 1
        if looks_reversed(answer):
            positive += 1
            size = len(entry["sentences"])
            as_written += set_accuracy(answer, entry["gold"], size)
            negated += set_accuracy([-score for score in answer], entry["gold"], size)
    if not positive or positive < DIRECTION_SHARE * scored:
        return None
    return {"sets": positive, "as_written": as_written, "negated": negated, "total": len(reference), "unit": "sets"}


def direction_price(entry, direction):
    """The file priced with the sets whose scores look reversed negated (``details["direction"]``,
    :func:`direction_counts`), where negating them wins clearly (as :func:`evalkit.floor.reversed_scores` judges): a
    warning whose price (:func:`evalkit.floor.price_text`) says when the file loses most of its score; else nothing."""
    written, negated, total = direction["as_written"], direction["negated"], direction["total"]
    if negated - written < max(1.0, 2.0 * math.sqrt(written + negated)) or entry.get("score") is None or not total:
        return []
    priced = {"as_written": entry["score"], "mended": entry["score"] + (negated - written) / float(total)}
    return [Message(entry["file"], WARNING, "whole file", "the %d sets whose scores look reversed (all 0 or more, some "
                    "above 1), negated: %s Negate the scores of these sets, or submit log-probabilities for every "
                    "set." % (direction["sets"], price_text(priced, "with them negated")))]

#: Indices are reported when at least this share of the sets answered with an index give the same one (and at
#: least :data:`SAME_INDEX_SETS` sets do): the gold's place in a set says nothing, so one index for all is a bug.
SAME_INDEX_SHARE = 0.9
SAME_INDEX_SETS = 5


def _same_index_warning(answers, log):
    """One warning when (nearly) every set answered with an index gives the same index: an argmax over the wrong
    axis, or a constant; such a file scores like a random choice."""
    indices = [(set_id, answer) for set_id, answer in answers.items() if _is_index(answer)]
    if len(indices) < SAME_INDEX_SETS:
        return
    common, count = Counter(answer for _, answer in indices).most_common(1)[0]
    if count < SAME_INDEX_SHARE * len(indices):
        return
    first = next(set_id for set_id, answer in indices if answer == common)
    log.add(WARNING, _where(first), "%d of the %d sets answered with an index choose sentence %d: the gold sentence "
            "is anywhere in its set, so one index for every set scores like a random choice. Was the index taken "
            "over the wrong axis, or from a constant score? Give each set the index of its own most likely sentence, "
            "or the scores of its sentences." % (count, len(indices), common), kind="the same index for every set")


def _same_top_warning(answers, log):
    """One warning when (nearly) every set answered with scores has its single highest score on the same sentence
    (:data:`SAME_INDEX_SHARE` of them, at least :data:`SAME_INDEX_SETS`): the gold's place in a set says nothing,
    so such scores no longer follow the set's sentences (sorted, or written in another order) and the file scores
    like a constant chooser. A shared top is left to the ties warning."""
    tops = []
    for set_id, answer in answers.items():
        if type(answer) is list and len(answer) > 1:
            top = max(answer)
            if answer.count(top) == 1:
                tops.append((set_id, answer.index(top), answer))
    if len(tops) < SAME_INDEX_SETS:
        return
    common, count = Counter(index for _, index, _ in tops).most_common(1)[0]
    if count < SAME_INDEX_SHARE * len(tops):
        return
    ordered = sum(1 for _, _, answer in tops if answer == sorted(answer, reverse=True))
    first = next(set_id for set_id, index, _ in tops if index == common)
    log.add(WARNING, _where(first), "%d of the %d sets answered with scores have their highest score on sentence %d"
            "%s: the gold sentence is anywhere in its set, so such scores choose like a constant chooser. Were the "
            "scores sorted, or written in another order than the set's sentences? Give the i-th score to the i-th "
            "sentence of the set (sets.jsonl order)." % (
                count, len(tops), common, " (%d of them sorted from highest to lowest)" % ordered if ordered else ""),
            kind="the same top sentence in every set")


def _shapes(reference):
    """:func:`_shortness` of every set of ``reference``, computed once per :class:`ChoiceReference` (kept on it)."""
    kept = getattr(reference, "shapes", None)
    if kept is not None and len(kept) == len(reference):
        return kept
    shapes = [_shortness(entry["sentences"]) for entry in reference]
    if isinstance(reference, ChoiceReference):
        reference.shapes = shapes
    return shapes


def _memo(function):
    """``function(reference, answers)`` computed once for the same answers (the same objects, in the same order: the
    check when parsing and the details of the scored file read the same answers) on a :class:`ChoiceReference`."""
    def cached(reference, answers):
        if not isinstance(reference, ChoiceReference):
            return function(reference, answers)
        memo = reference.__dict__.setdefault("memo", {})
        values = list(answers.values())
        kept = memo.get(function.__name__)
        if kept and len(kept[0]) == len(values) and all(a is b for a, b in zip(kept[0], values)):
            return kept[1]
        found = function(reference, answers)
        memo[function.__name__] = (values, found)
        return found
    cached.__name__, cached.__doc__ = function.__name__, function.__doc__
    return cached


def _sorted_warning(answers, log):
    """One error when most sets answered with 5 scores or more (at least :data:`SAME_INDEX_SETS`) have them sorted, from
    highest to lowest or the other way: a ranking of the scores, which no longer says which sentence has which score;
    such a file chooses like a constant chooser (:data:`evalkit.messages.CHANCE_NOTE`). No order of the sentences is
    its cause (none is priced)."""
    scored = [(set_id, answer) for set_id, answer in answers.items() if type(answer) is list and len(answer) > 4
              and min(answer) != max(answer)]   # of 5 sentences or more: 1 in 60 is sorted by chance
    ordered = [(set_id, answer[0] >= answer[-1]) for set_id, answer in scored if not _unsorted(answer)]
    if len(ordered) < SAME_INDEX_SETS or 2 * len(ordered) < len(scored):
        return
    falling = sum(1 for _, down in ordered if down)
    log.add(ERROR, _where(ordered[0][0]), "the scores of %d of the %d sets answered with scores are sorted (%d from "
            "highest to lowest, %d from lowest to highest): a ranking of the scores (sorted(scores, reverse=True), a "
            "top-k over the whole set), which no longer says which sentence each score belongs to, so the same place "
            "is chosen in every set (%s). Give the i-th score to the i-th sentence of the set, in sets.jsonl order, "
            "unsorted." % (len(ordered), len(scored), falling, len(ordered) - falling, CHANCE_NOTE),
            kind="scores sorted in most sets")

# --------------------------------------------------------------------------- scores in another order of the sentences

def _by_text(sentences, fold=False, reverse=False):
    """The indices of ``sentences`` in alphabetical order (code points; ``fold``: ignoring case), stable."""
    return sorted(range(len(sentences)), key=(lambda i: sentences[i].casefold()) if fold else sentences.__getitem__,
                  reverse=reverse)


#: The orders a program may have written a set's scores in instead of the set's own: ``name: (what, order)``, where
#: ``order(sentences)`` lists the indices of the sentences in that order (the i-th score written is that of sentence
#: ``order[i]``). Sorts of the sentences (a sort for batching, a groupby that sorts its groups, as pandas does by
#: default) and their neighbours: the other direction, another key, the set reversed, numbered ids sorted as text.
SENTENCE_ORDERS = OrderedDict([
    ("alphabetical", ("the alphabetical order of each set's sentences (a sort, or a groupby that sorts its groups as "
                      "pandas does by default)", _by_text)),
    ("alphabetical ignoring case", ("the alphabetical order of each set's sentences ignoring letter case (a sort on "
                                    "lower-cased text)", lambda sentences: _by_text(sentences, fold=True))),
    ("reverse alphabetical", ("the reverse alphabetical order of each set's sentences (a sort in descending order)",
                              lambda sentences: _by_text(sentences, reverse=True))),
    ("shortest first", ("each set's sentences sorted by length, shortest first (a sort for batching, not undone)",
                        lambda sentences: sorted(range(len(sentences)), key=lambda i: len(sentences[i])))),
    ("longest first", ("each set's sentences sorted by length, longest first (a sort for batching, not undone)",
                       lambda sentences: sorted(range(len(sentences)), key=lambda i: -len(sentences[i])))),
    ("fewest words first", ("each set's sentences sorted by their number of words (a sort for batching, not undone)",
                            lambda sentences: sorted(range(len(sentences)), key=lambda i: len(sentences[i].split())))),
    ("reversed", ("each set's sentences in reverse order (the set read from its end)",
                  lambda sentences: list(range(len(sentences) - 1, -1, -1)))),
    ("ids as text", ("the sentences' numbers sorted as text (0, 1, 10, 11, ..., 2, 20, ...: sentence ids such as "
                     "set-10 sorted as strings)", lambda sentences: sorted(range(len(sentences)), key=str))),
    ("ids from 1 as text", ("the sentences' numbers counted from 1 and sorted as text (1, 10, 11, ..., 2, 20, ...: "
                            "sentence ids such as set-10 sorted as strings)",
                            lambda sentences: sorted(range(len(sentences)), key=lambda i: str(i + 1)))),
])
#: The orders of :data:`SENTENCE_ORDERS` that follow the sentences' lengths: scores put back from them follow the
#: lengths whatever set they were written for (the scores of a language model written shortest first decrease in every
#: set), so only scores (not indices), and scores that are not sorted themselves, can be said to be written so.
LENGTH_ORDERS = ("shortest first", "longest first", "fewest words first")
#: The sets a file's order is judged on: at most this many of those answered with scores, evenly spaced; an index
#: says less of its set than a list of scores: where these sets name an order, up to ten times as many sets answered
#: with an index are judged.
ORDER_SAMPLE = 300
#: ... of which at least this many must say something (three sentences or more of different lengths; scores that
#: differ).
ORDER_MIN_SETS = 10
#: A language model's scores follow the sentences' lengths (the longer, the lower a log-probability), and the sentence
#: it chooses is shorter than most of its set: over the sample, the mean correlation of a set's scores with minus its
#: sentences' word counts (the kit's own baselines: 0.38 to 0.95 in the set's order), or how many standard deviations
#: the chosen sentence is shorter than its set's mean (0.34 to 1.4), is at least this far from 0 in the order named...
ORDER_FIT = 0.25
#: ... at most this share of it in the set's own order, and above it by this many standard errors.
ORDER_AS_WRITTEN = 0.4
ORDER_ERRORS = 5.0


def put_back(answer, order):
    """An answer written in ``order`` (the i-th score is sentence ``order[i]``'s; an index counts in that order) put
    back in the set's order.

    >>> put_back([-1.0, -2.0, -3.0], [2, 0, 1]), put_back(0, [2, 0, 1]), put_back(None, [2, 0, 1])
    ([-2.0, -3.0, -1.0], 2, None)
    """
    if type(answer) is not list:
        return order[answer] if _is_index(answer) and 0 <= answer < len(order) else answer
    placed = [0.0] * len(answer)
    for position, index in enumerate(order):
        placed[index] = answer[position]
    return placed


def _order_sample(reference, answers, scores, size):
    """``[(sentences, answer, shortness, spread, norm)]`` of at most ``size`` sets answered with ``scores`` (a list of
    scores that differ) or else with an index, evenly spaced, of three sentences or more whose word counts differ (the
    sets a length can say something of). ``shortness``: each sentence's word count below its set's mean; ``spread``:
    its norm; ``norm``: that of the centred scores (None for an index): :func:`_length_fit` divides by them."""
    sets = []
    for entry in reference:
        answer = answers.get(entry["id"])
        if len(entry["sentences"]) < 3:
            continue
        if scores and type(answer) is list and len(answer) == len(entry["sentences"]) and min(answer) != max(answer):
            sets.append((entry["sentences"], answer))
        elif not scores and _is_index(answer) and 0 <= answer < len(entry["sentences"]):
            sets.append((entry["sentences"], answer))
    step = max(1.0, len(sets) / float(size))
    sample = []
    for n in range(min(len(sets), size)):
        sentences, answer = sets[int(n * step)]
        words = [len(sentence.split()) for sentence in sentences]
        mean = sum(words) / float(len(words))
        shortness = [mean - count for count in words]
        spread = math.sqrt(sum(x * x for x in shortness))
        norm = None
        if scores:
            centre = sum(answer) / float(len(answer))
            norm = math.sqrt(sum((score - centre) ** 2 for score in answer))
        if spread and norm != 0.0:
            sample.append((sentences, answer, shortness, spread, norm))
    return sample


def _length_fit(answer, norm, order, shortness, spread):
    """How well ``answer`` read in ``order`` (scores, or an index) follows the sentences' lengths as a language
    model's does: Pearson's correlation of the scores with ``shortness`` (their products over ``norm`` and
    ``spread``, the norms of the centred scores and of ``shortness``), or how many standard deviations the chosen
    sentence is shorter than its set's mean.

    >>> round(_length_fit([-3.0, -1.0, -2.0], 2 ** 0.5, [0, 1, 2], [-1.0, 1.0, 0.0], 2 ** 0.5), 2)   # shortest highest
    1.0
    >>> shortness, spread = [-1.0, 1.0, 0.0], 2 ** 0.5   # the second sentence is the shortest
    >>> [round(_length_fit(1, None, order, shortness, spread), 2) for order in ([0, 1, 2], [1, 0, 2])]
    [1.22, -1.22]
    """
    if norm is None:
        return shortness[order[answer]] * math.sqrt(len(shortness)) / spread
    return sum(score * shortness[index] for score, index in paired(answer, order)) / (norm * spread)


def _mean_gain(fits, others, sign):
    """``(mean, standard error)`` of ``sign`` times ``fits`` minus ``others`` (pairs with None left out), or None
    when fewer than :data:`ORDER_MIN_SETS` pairs remain."""
    gains = [(fit - other) * sign for fit, other in paired(fits, others) if other is not None]
    if len(gains) < ORDER_MIN_SETS:
        return None
    mean = sum(gains) / len(gains)
    return mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains))


def _named_order(sample, errors=ORDER_ERRORS):
    """The order of :data:`SENTENCE_ORDERS` that ``sample`` (:func:`_order_sample`) looks written in (see
    :func:`written_order`), or None. The answers, put back from it, must follow the lengths better than as written
    and, but for an order of :data:`LENGTH_ORDERS`, better than the answers of other sets of the same size put back
    from it (what the order alone gives: a constant index), each by ``errors`` standard errors. Scores sorted in most
    sets (the same top sentence everywhere: another warning's) name no order."""
    if len(sample) < ORDER_MIN_SETS:
        return None
    as_written = [_length_fit(answer, norm, range(len(sentences)), shortness, spread)
                  for sentences, answer, shortness, spread, norm in sample]
    written = sum(as_written) / len(as_written)
    scores = sample[0][4] is not None
    if scores and (abs(written) >= ORDER_FIT or 2 * sum(1 for item in sample if item[1] in (
            sorted(item[1]), sorted(item[1], reverse=True))) >= len(sample)):
        return None   # the scores follow the lengths as written (or are sorted themselves): nothing to put back
    # (indices are judged on every order: an index tells little of its set, and a sort that leaves the first
    # positions in place, as the ids sorted as text do, keeps part of their fit as written)
    by_size = {}
    for n, item in enumerate(sample):
        by_size.setdefault(len(item[0]), []).append(n)
    partner = {}   # each set's next set of the same size (its answers read against this set's sentences)
    for group in by_size.values():
        for k, n in enumerate(group):
            partner[n] = group[(k + 1) % len(group)] if len(group) > 1 else None
    best = None
    for name, (what, order) in SENTENCE_ORDERS.items():
        if name in LENGTH_ORDERS and not scores:
            continue
        orders = [order(item[0]) for item in sample]
        fits = [_length_fit(answer, norm, orders[n], shortness, spread)
                for n, (_, answer, shortness, spread, norm) in enumerate(sample)]
        fit = sum(fits) / len(fits)
        if abs(fit) < ORDER_FIT or abs(written) > ORDER_AS_WRITTEN * abs(fit) or \
                (best is not None and abs(fit) <= abs(best["fit"])):
            continue
        sign = 1.0 if fit > 0 else -1.0
        gains = [_mean_gain(fits, as_written, sign)]
        if name not in LENGTH_ORDERS:
            gains.append(_mean_gain(fits, [None if partner[n] is None else _length_fit(
                sample[partner[n]][1], sample[partner[n]][4], orders[n], shortness, spread)
                for n, (_, _, shortness, spread, _) in enumerate(sample)], sign))
        if all(gain is not None and gain[0] >= errors * gain[1] for gain in gains):
            best = {"order": name, "what": what, "sets": len(fits), "fit": fit, "as_written": written}
    return best


@_memo
def written_order(reference, answers):
    """The order of :data:`SENTENCE_ORDERS` the answers look written in instead of each set's own, read without the
    gold: put back from that order, they follow the sentences' lengths as a language model's do (the scores' mean
    correlation with minus the word counts, or the chosen sentences' shortness in standard deviations, at least
    :data:`ORDER_FIT` from 0 over a sample of the sets), and as written they hardly do (at most
    :data:`ORDER_AS_WRITTEN` of it, :data:`ORDER_ERRORS` standard errors below). Judged on the sets answered with
    scores, else on those answered with an index. ``{"order": name, "what": words, "answers": "scores" or "indices",
    "sets": sets judged, "fit": mean fit so, "as_written": as written}``, or None. A file whose answers already follow
    the lengths as written costs one pass over the sample.

    >>> import random
    >>> rng = random.Random(1)
    >>> ref = [{"id": str(n), "sentences": [" ".join(rng.choice("abcdef") for _ in range(rng.randint(1, 6)))
    ...                                     for _ in range(8)], "gold": 0, "gold_type": "cs"} for n in range(30)]
    >>> honest = dict((e["id"], [-1.5 * len(s.split()) - rng.random() for s in e["sentences"]]) for e in ref)
    >>> written_order(ref, honest) is None
    True
    >>> found = written_order(ref, dict((e["id"], [honest[e["id"]][i] for i in _by_text(e["sentences"])]) for e in ref))
    >>> found["order"], found["answers"], found["sets"], round(found["fit"], 2)
    ('alphabetical', 'scores', 30, 0.99)
    """
    for scores in (True, False):
        found = _named_order(_order_sample(reference, answers, scores, ORDER_SAMPLE), ORDER_ERRORS if scores else 0.0)
        if found and not scores:   # a candidate: judged on more sets
            found = _named_order(_order_sample(reference, answers, scores, 10 * ORDER_SAMPLE))
        if found:
            return dict(found, answers="scores" if scores else "indices")
    return None


def _order_warning(answers, reference, log):
    """One error when the answers look written in another order than each set's sentences (:func:`written_order`,
    read without the gold): as written, most scores (or indices) stand on other sentences than their own. Scores are
    unchanged."""
    found = written_order(reference, answers)
    if not found:
        return
    order = SENTENCE_ORDERS[found["order"]][1]
    scores = found["answers"] == "scores"
    first = next((entry["id"] for entry in reference if (type(answers.get(entry["id"])) is list) == scores
                  and answers.get(entry["id"]) is not None
                  and order(entry["sentences"]) != list(range(len(entry["sentences"])))), reference[0]["id"])
    if scores:
        head = ("the scores look written in %s, not in the set's order: put back from that order, they follow the "
                "sentences' lengths as a language model's scores do (the longer the sentence, the %s its score: mean "
                "correlation with the word counts %+.2f over %d sets), and as written they do not (%+.2f). The i-th "
                "score must be the i-th sentence's, in sets.jsonl order; as written, most scores stand on other "
                "sentences than their own" % (found["what"], "lower" if found["fit"] > 0 else "higher", -found["fit"],
                                              found["sets"], -found["as_written"]))
        fix = "Put each score back on its own sentence (or score the sentences in the set's order, unsorted)."
    else:
        head = ("the indices look counted in %s, not in the set's order: counted so, they choose %s sentences than "
                "most of their set, as a language model does (the chosen sentence's word count, in standard deviations "
                "from its set's mean: %+.2f over %d sets), and as written they do not (%+.2f). An index is the chosen "
                "sentence's position in the set, in sets.jsonl order; as written, most indices point at other "
                "sentences than the chosen ones" % (found["what"], "shorter" if found["fit"] > 0 else "longer",
                                                    -found["fit"], found["sets"], -found["as_written"]))
        fix = "Give the position of the chosen sentence in the set itself (its place in the unsorted list)."
    log.add(ERROR, _where(first), "%s, and these sets are chosen almost at random. %s" % (head, fix),
            kind="answers in another order of the sentences")


# --------------------------------------------------------------------------- some sets in another order, or shifted

#: The orders a part of the sets may be written in (:func:`part_order`): those of :data:`SENTENCE_ORDERS`, and each
#: set's scores rotated by one place either way (an ``np.roll``, a start symbol's score left in front).
PART_ORDERS = OrderedDict(list(SENTENCE_ORDERS.items()) + [
    ("rotated by one", ("each set's scores rotated by one place (the first score moved to the end, v[1:] + v[:1]: an "
                        "np.roll, or a start symbol's score left in front)",
                        lambda sentences: list(range(1, len(sentences))) + [0])),
    ("rotated back by one", ("each set's scores rotated by one place (the last score moved to the front, "
                             "v[-1:] + v[:-1]: an np.roll the other way)",
                             lambda sentences: [len(sentences) - 1] + list(range(len(sentences) - 1)))),
])
#: A set counts as written in an order (or for a neighbouring set) when, put back so, its scores' correlation with
#: minus the word counts is at least :data:`PART_FIT` and at least :data:`PART_GAIN` above its correlation as written.
PART_GAIN = 0.3
PART_FIT = 0.2
#: A group of such sets is said when it is at least this many sets above what the file's other orders (or the other
#: neighbour) give by chance, at least twice that, and :data:`PART_ERRORS` square roots of it above it.
PART_MIN_SETS = 10
PART_ERRORS = 5.0


def _shortness(sentences):
    """``(shortness, spread)``: each sentence's word count below its set's mean, and its norm (0.0: one length)."""
    words = [len(sentence.split()) for sentence in sentences]
    mean = sum(words) / float(len(words))
    shortness = [mean - count for count in words]
    return shortness, math.sqrt(sum(x * x for x in shortness))



def _fit(scores, shortness, spread, order=None):
    """Pearson's correlation of ``scores`` (read in ``order``: the i-th score is sentence ``order[i]``'s; None: as
    written) with ``shortness`` (of norm ``spread``), or None (constant scores, or sentences of one length, or sets of
    other sizes).

    >>> shortness, spread = [-1.0, 1.0, 0.0], 2 ** 0.5
    >>> round(_fit([-3.0, -1.0, -2.0], shortness, spread), 2)
    1.0
    >>> round(_fit([-1.0, -3.0, -2.0], shortness, spread, [1, 0, 2]), 2)   # read in that order
    1.0
    """
    if not spread or len(scores) != len(shortness):
        return None
    centred, norm = _centred(scores)
    return _read_fit(centred, norm, shortness, spread, order)


def _centred(scores):
    """``(scores minus their mean, the norm of that)``."""
    centre = sum(scores) / float(len(scores))
    centred = [score - centre for score in scores]
    return centred, math.sqrt(sum(map(operator.mul, centred, centred)))


def _read_fit(centred, norm, shortness, spread, order=None):
    """:func:`_fit` from the centred scores and their norm (a permutation changes neither); None when a norm is 0."""
    if not norm or not spread:
        return None
    if order is None:
        return sum(map(operator.mul, centred, shortness)) / (norm * spread)
    return sum(map(operator.mul, centred, map(shortness.__getitem__, order))) / (norm * spread)


def _unsorted(answer):
    """Whether ``answer`` is neither in ascending nor in descending order."""
    pairs = list(zip(answer, answer[1:]))
    return not all(a <= b for a, b in pairs) and not all(a >= b for a, b in pairs)


def _part_sets(reference, answers):
    """``[(position, entry, centred, norm, shortness, spread, fit as written)]`` of the sets of three sentences or more
    answered with scores that differ and are not sorted themselves (a sorted list follows any sort of the sentences),
    whose sentences' lengths differ."""
    found = []
    shapes = _shapes(reference)
    for position, entry in enumerate(reference):
        answer = answers.get(entry["id"])
        if type(answer) is not list or len(answer) < 3 or len(answer) != len(entry["sentences"]) or \
                not _unsorted(answer):
            continue
        shortness, spread = shapes[position]
        centred, norm = _centred(answer)
        fit = _read_fit(centred, norm, shortness, spread)
        if fit is not None:
            found.append((position, entry, centred, norm, shortness, spread, fit))
    return found


def _better(fit, written):
    """Whether a set read another way (``fit``) follows the lengths clearly better than as written."""
    return fit is not None and fit >= PART_FIT and fit - written >= PART_GAIN


def _clear_group(count, null):
    """Whether ``count`` sets read another way stand clearly above ``null``, what chance gives in this file."""
    return count - null >= max(PART_MIN_SETS, PART_ERRORS * math.sqrt(null)) and count >= 2 * null


@_memo
def part_order(reference, answers):
    """The order of :data:`PART_ORDERS` a group of the sets answered with scores looks written in, read without the
    gold: put back from it, each of these sets follows its sentences' lengths clearly better than as written
    (:func:`_better`), in clearly more sets than any order does by chance in this file (the median count over
    :data:`PART_ORDERS`, over a sample of :data:`ORDER_SAMPLE` sets: a weak or odd scorer gains by chance from every
    order alike). ``{"order", "what", "ids": [the sets so], "answered": sets judged, "fit", "as_written"}`` (the mean
    fits of those sets put back and as written), or None.

    >>> import random
    >>> rng = random.Random(3)
    >>> ref = [{"id": str(n), "sentences": [" ".join("ab" for _ in range(rng.randint(1, 9))) for _ in range(12)],
    ...         "gold": 0, "gold_type": "cs"} for n in range(80)]
    >>> honest = dict((e["id"], [-2.0 * len(s.split()) - 3 * rng.random() for s in e["sentences"]]) for e in ref)
    >>> part_order(ref, honest) is None
    True
    >>> mixed = dict(honest)
    >>> for e in ref[::4]:
    ...     mixed[e["id"]] = honest[e["id"]][1:] + honest[e["id"]][:1]
    >>> found = part_order(ref, mixed)
    >>> found["order"], len(found["ids"]), found["ids"][:2]
    ('rotated by one', 20, ['0', '4'])
    """
    sets = _part_sets(reference, answers)
    if len(sets) < PART_MIN_SETS:
        return None
    step = max(1.0, len(sets) / float(ORDER_SAMPLE))
    sample = [sets[int(n * step)] for n in range(min(len(sets), ORDER_SAMPLE))]
    counts = []
    for n, (name, (what, order)) in enumerate(PART_ORDERS.items()):
        count = sum(1 for _, entry, centred, norm, shortness, spread, fit in sample
                    if _better(_read_fit(centred, norm, shortness, spread, order(entry["sentences"])), fit))
        counts.append((count, -n, name))
    null = sorted(count for count, _, _ in counts)[len(counts) // 2]
    count, _, name = max(counts)
    if not _clear_group(count, null):
        return None
    order = PART_ORDERS[name][1]
    ids, fits, written = [], [], []
    for _, entry, centred, norm, shortness, spread, fit in sets:
        mended = _read_fit(centred, norm, shortness, spread, order(entry["sentences"]))
        if _better(mended, fit):
            ids.append(entry["id"])
            fits.append(mended)
            written.append(fit)
    return {"order": name, "what": PART_ORDERS[name][0], "ids": ids, "answered": len(sets),
            "fit": sum(fits) / len(fits), "as_written": sum(written) / len(written)}


@_memo
def shifted_sets(reference, answers):
    """The answers paired with a neighbouring set's id, read without the gold: each set's scores follow the lengths
    of the sentences of the set one id before (``"previous"``: ``{ids[n + 1]: scores[n]}``) or after (``"next"``)
    rather than its own, in the whole file (the mean fits, as :func:`written_order` judges an order) or in a group
    of sets (:func:`_better` in clearly more sets than for the other neighbour). Only sets of the same size as their
    neighbour are read. ``{"direction", "whole", "ids", "first", "answered", "fit", "as_written"}`` (``first``: the
    first set read, for a whole file, else the first of ``ids``), or None.

    >>> ref = [{"id": "s%d" % n, "sentences": ["a " * ((n * 7 + i * 3) % 9 + 1) for i in range(10)], "gold": 0,
    ...         "gold_type": "cs"} for n in range(40)]
    >>> honest = dict((e["id"], [-float(len(s.split())) for s in e["sentences"]]) for e in ref)
    >>> shifted_sets(ref, honest) is None
    True
    >>> found = shifted_sets(ref, dict((ref[n + 1]["id"], honest[ref[n]["id"]]) for n in range(39)))
    >>> found["direction"], found["whole"], found["first"]
    ('previous', True, 's1')
    """
    shapes = _shapes(reference)
    judged = {"previous": [], "next": []}
    for position, entry in enumerate(reference):
        answer = answers.get(entry["id"])
        if type(answer) is not list or len(answer) < 3 or not _unsorted(answer):
            continue
        centred, norm = _centred(answer)
        fits = {}
        for direction, other in (("own", position), ("previous", position - 1), ("next", position + 1)):
            if 0 <= other < len(reference) and len(reference[other]["sentences"]) == len(answer):
                fits[direction] = _read_fit(centred, norm, shapes[other][0], shapes[other][1])
        written = fits.get("own")
        if written is None:
            continue
        for direction in ("previous", "next"):
            if fits.get(direction) is not None:
                judged[direction].append((entry["id"], fits[direction], written))
    best = None
    for direction, other in (("previous", "next"), ("next", "previous")):
        pairs = judged[direction]
        if len(pairs) < ORDER_MIN_SETS:
            continue
        fit = sum(f for _, f, _ in pairs) / len(pairs)
        written = sum(w for _, _, w in pairs) / len(pairs)
        gains = [f - w for _, f, w in pairs]
        error = math.sqrt(sum((g - (fit - written)) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
        whole = fit >= ORDER_FIT and abs(written) <= ORDER_AS_WRITTEN * fit and fit - written >= ORDER_ERRORS * error
        ids = [set_id for set_id, f, w in pairs if _better(f, w)]
        if whole or _clear_group(len(ids), sum(1 for _, f, w in judged[other] if _better(f, w))):
            if best is None or len(ids) > len(best["ids"]):
                block = None if whole else _densest_block(reference, ids)
                best = {"direction": direction, "whole": whole, "ids": ids, "answered": len(pairs),
                        "first": pairs[0][0] if whole else (block[0] if block else ids[0]), "block": block,
                        "fit": fit if whole else None, "as_written": written if whole else None}
    return best


#: Sets read as paired with a neighbour (:func:`shifted_sets`) at most this many positions apart are one block.
BLOCK_GAP = 8


def _densest_block(reference, ids):
    """``(first id, last id, sets in it, of them in ids)`` of the largest run of ``ids`` (in reference order) whose
    neighbours are at most :data:`BLOCK_GAP` positions apart, when it holds at least a third of ``ids`` (a shard
    merged out of step: the sets read so by chance are scattered), else None.

    >>> ref = [{"id": str(n)} for n in range(40)]
    >>> _densest_block(ref, ["3", "20", "21", "23", "26", "27"])
    ('20', '27', 8, 5)
    """
    wanted = set(ids)
    positions = [n for n, entry in enumerate(reference) if entry["id"] in wanted]
    runs, start = [], 0
    for k in range(1, len(positions) + 1):
        if k == len(positions) or positions[k] - positions[k - 1] > BLOCK_GAP:
            runs.append((k - start, positions[start], positions[k - 1]))
            start = k
    count, first, last = max(runs) if runs else (0, 0, 0)
    if count * 3 < len(ids) or count < 3:
        return None
    return reference[first]["id"], reference[last]["id"], last - first + 1, count


def _ids_shown(ids):
    """The first :data:`SHOWN_SETS` set ids of ``ids``, said."""
    return ", ".join(printable(set_id, 40) for set_id in ids[:SHOWN_SETS]) + (", ..." if len(ids) > SHOWN_SETS else "")


def _part_order_warning(answers, reference, log):
    """One error when a group of the sets (not the whole file: :func:`_order_warning` says that) looks written in
    another order of the sentences (:func:`part_order`), read without the gold. Scores are unchanged."""
    if written_order(reference, answers):
        return
    found = part_order(reference, answers)
    if not found:
        return
    log.add(ERROR, _where(found["ids"][0]), "%d of the %d sets answered with scores look written in %s, not in the "
            "set's order (first at sets %s): put back from that order, these sets' scores follow their sentences' "
            "lengths as the rest of the file's do (the longer the sentence, the lower its score: mean correlation "
            "with the word counts %+.2f), and as written they do not (%+.2f). Likely causes: the order not restored "
            "after bucketing or sorting by length in some batches (one worker, one bucket), shards merged out of "
            "step. The i-th score must be the i-th sentence's, in sets.jsonl order: put each score of these sets "
            "back on its own sentence." % (len(found["ids"]), found["answered"], found["what"],
                                          _ids_shown(found["ids"]), -found["fit"], -found["as_written"]),
            kind="some sets in another order of the sentences")


def _shift_warning(answers, reference, log):
    """One error when the answers look paired with the neighbouring set's id (:func:`shifted_sets`), read without
    the gold: said before the problems it causes (a set without an answer at one end). Scores are unchanged."""
    found = shifted_sets(reference, answers)
    if not found:
        return
    before = found["direction"] == "previous"
    if found["whole"]:
        head = ("the answers look shifted by one set: the scores given for each set follow the lengths of the "
                "sentences of the set one id %s (mean correlation with their word counts %+.2f over %d sets), not "
                "its own (%+.2f): answers paired with the wrong ids (%s)" % (
                    "before" if before else "after", -found["fit"], found["answered"], -found["as_written"],
                    "ids[n + 1] zipped with scores[n], a header or first line skipped on one side" if before else
                    "ids[n] zipped with scores[n + 1], one line more on one side"))
    else:
        block = found.get("block")
        head = ("%d of the %d sets answered with scores look paired with the set one id %s (%s): their "
                "scores follow the lengths of that set's sentences, not their own. Likely causes: shards or batches "
                "merged out of step, ids and answers taken in different orders in one part of the file" % (
                    len(found["ids"]), found["answered"], "before" if before else "after",
                    "%d of them in the block of %d sets from set %s to set %s" % (
                        block[3], block[2], printable(block[0], 40), printable(block[1], 40)) if block else
                    "first at sets %s" % _ids_shown(found["ids"])))
    log.add(ERROR, _where(found["first"]), "%s; these sets are chosen almost at random (a set without an answer at "
            "one end follows from it). Pair each set's id with its own scores." % head, kind="answers shifted by a set")


def _priced(reference, answers, mended):
    """``{"won": [as written, mended], "as_written", "mended", "total"}``: the credits of ``answers`` and of ``mended``
    (``{set id: answer}``) summed over ``reference``, and the accuracies so."""
    written = sum(set_accuracy(answers.get(e["id"]), e["gold"], len(e["sentences"])) for e in reference)
    undone = sum(set_accuracy(mended.get(e["id"]), e["gold"], len(e["sentences"])) for e in reference)
    total = len(reference)
    return {"won": [written, undone], "as_written": written / total, "mended": undone / total, "total": total}


def part_counts(reference, answers):
    """Where the gold is public, the group of sets :func:`part_order` says are written in another order, priced:
    the whole file's credits as written and with those sets put back (:func:`_priced`), with ``what`` and ``sets``
    (how many), or None. Said by :func:`part_message`."""
    found = None if written_order(reference, answers) else part_order(reference, answers)
    if not found:
        return None
    order, chosen = PART_ORDERS[found["order"]][1], set(found["ids"])
    mended = dict(answers)
    for entry in reference:
        if entry["id"] in chosen:
            mended[entry["id"]] = put_back(answers[entry["id"]], order(entry["sentences"]))
    return dict(_priced(reference, answers, mended), what=found["what"], sets=len(chosen), cause="order")


def shift_counts(reference, answers):
    """Where the gold is public, the answers :func:`shifted_sets` says are paired with a neighbouring set, priced: the
    credits as written and with each of them given back to the set it follows (every set, for a whole file), with
    ``direction`` and ``sets``, or None. Said by :func:`part_message`."""
    found = shifted_sets(reference, answers)
    if not found:
        return None
    step = -1 if found["direction"] == "previous" else 1
    chosen = set(entry["id"] for entry in reference) if found["whole"] else set(found["ids"])
    if found.get("block"):   # a block merged out of step: every set of it
        at = dict((entry["id"], n) for n, entry in enumerate(reference))
        chosen = set(entry["id"] for entry in reference[at[found["block"][0]]:at[found["block"][1]] + 1])
    mended = dict(answers)
    for position, entry in enumerate(reference):
        if entry["id"] in chosen and 0 <= position + step < len(reference):
            mended[reference[position + step]["id"]] = answers.get(entry["id"])
    return dict(_priced(reference, answers, mended), direction=found["direction"], sets=len(chosen),
                block=bool(found.get("block")),
                whole=found["whole"], cause="shift")


def part_message(entry, priced):
    """The message of :func:`part_counts` or :func:`shift_counts` against the gold: a warning priced
    (:func:`evalkit.floor.price_text`) when mended the answers win more sets, else a note that the message given
    without the gold does not apply."""
    if priced["cause"] == "order":
        said = ("put back from %s into each set's own order, the %d sets that look written so make the file win "
                "%.1f of its %d sets, against %.1f as written" % (priced["what"], priced["sets"], priced["won"][1],
                                                                 priced["total"], priced["won"][0]))
        how, fix = ("with these sets' scores put back on their own sentences", "Write the i-th score for the i-th "
                    "sentence of each set, in sets.jsonl order.")
        about = "their order"
    else:
        said = ("paired back with the set one id %s (%s), the answers win %.1f of the %d sets, against %.1f as "
                "written" % ("before" if priced["direction"] == "previous" else "after",
                             "every answer" if priced["whole"] else "the %d sets %s" % (
                                 priced["sets"], "of the block" if priced.get("block") else "that look so"),
                             priced["won"][1], priced["total"], priced["won"][0]))
        how, fix = "with the answers paired back", "Pair each set's id with its own scores."
        about = "their pairing"
    if priced["mended"] <= priced["as_written"]:
        return Message(entry["file"], INFO, "whole file", "%s: %s is right; the message about %s does not apply to "
                       "them." % (said, about, about))
    return Message(entry["file"], WARNING, "whole file", "%s. %s %s" % (said, price_text(priced, how), fix))


def _won(answered, order=None):
    """The credits of ``answered`` (``[(set, answer)]``) summed, as written or put back from ``order`` (a name of
    :data:`SENTENCE_ORDERS`)."""
    put = SENTENCE_ORDERS[order][1] if order else None
    return sum(set_accuracy(put_back(answer, put(entry["sentences"])) if put else answer, entry["gold"],
                            len(entry["sentences"])) for entry, answer in answered)


def order_counts(reference, answers):
    """Where the gold is public, how many sets the answers win as written and once put back from another order of
    the sentences (:data:`SENTENCE_ORDERS`, :func:`put_back`): the order :func:`written_order` names without the
    gold, else, for a file that scores at most twice a random choice, the order that wins clearly more sets put back
    over a sample of :data:`ORDER_SAMPLE` sets than as written and than a random choice (by three standard errors of
    a sign test, at least one set).
    ``{"order", "what", "detected", "won", "as_written", "mended", "total"}`` (``won``: the credits summed over every
    set, as written and put back; ``as_written``, ``mended``: the accuracies so; ``total``: the sets), or None. Said
    by :func:`order_message`.

    >>> ref = [{"id": str(n), "sentences": ["b", "a", "c"], "gold": 0, "gold_type": "cs"} for n in range(40)]
    >>> found = order_counts(ref, dict((str(n), [-2.0, -1.0, -3.0]) for n in range(40)))   # b is written second
    >>> found["order"], found["detected"], found["won"], found["as_written"], found["mended"]
    ('alphabetical', False, [0.0, 40.0], 0.0, 1.0)
    """
    found = written_order(reference, answers)
    answered = [(entry, answers.get(entry["id"])) for entry in reference if answers.get(entry["id"]) is not None]
    written = _won(answered)
    if found:
        name = found["order"]
    elif written <= 2.0 * sum(1.0 / len(entry["sentences"]) for entry, _ in answered):
        if 2 * sum(1 for _, answer in answered if type(answer) is list and answer in (
                sorted(answer), sorted(answer, reverse=True))) >= len(answered):
            return None   # scores sorted in most sets (a ranking): no order of the sentences is their cause
        step = max(1.0, len(answered) / float(ORDER_SAMPLE))
        sample = [answered[int(n * step)] for n in range(min(len(answered), ORDER_SAMPLE))]
        # put back, the answers must win clearly more than as written and than a random choice (a file worse than
        # chance, an argmin, gains from any other order: no order is its cause)
        before = max(_won(sample), sum(1.0 / len(entry["sentences"]) for entry, _ in sample))
        wins = [(_won(sample, other), -n, other) for n, other in enumerate(SENTENCE_ORDERS)]
        after, _, name = max(wins)
        if after - before < max(1.0, 3.0 * math.sqrt(after + before)):
            return None
    else:
        return None
    undone, total = _won(answered, name), len(reference)
    return {"order": name, "what": SENTENCE_ORDERS[name][0], "detected": bool(found), "won": [written, undone],
            "as_written": written / total, "mended": undone / total, "total": total}


def order_message(entry, order):
    """The message of a file whose answers look written in another order of the sentences (``details["order"]``,
    :func:`order_counts`), priced against the gold (:func:`evalkit.floor.price_text`): a warning when put back they
    win more sets, else a note that their order is right."""
    said = ("put back from %s into each set's own order, the answers win %.1f of the %d sets, against %.1f as "
            "written" % (order["what"], order["won"][1], order["total"], order["won"][0]))
    if order["mended"] <= order["as_written"]:
        return Message(entry["file"], INFO, "whole file", "%s: their order is right; the message about their order "
                       "does not apply to them." % said)
    return Message(entry["file"], WARNING, "whole file", "%s. %s Write the i-th score (or count an index) for the i-th "
                   "sentence of each set, in sets.jsonl order." % (
                       said, price_text(order, "with every answer put back on its own sentence")))


def _id_prefix(set_id):
    """The prefix of a set id made of a prefix and a number (``dev-0001`` -> ``dev-``), else None."""
    found = re.match(r"^(.*[^0-9])[0-9]+$", set_id)
    return found.group(1) if found else None


def _other_phase_hint(unknown, reference):
    """A sentence saying that most unknown set ids look like another phase's (their prefix differs from the one
    every set of the reference shares, ``test-`` against ``dev-``), else ""."""
    own = set(_id_prefix(entry["id"]) for entry in reference)
    prefixes = Counter(_id_prefix(set_id) for set_id in unknown)
    if len(own) != 1 or None in own or not prefixes:
        return ""
    prefix, count = prefixes.most_common(1)[0]
    if prefix is None or prefix in own or count * 2 <= len(unknown):
        return ""
    return ("Most of them look like the ids of other sets (%s...), and this phase scores the %s... sets: "
            "predictions made for another phase?" % (printable(prefix, 30), printable(own.pop(), 30)))


def _id_key(set_id):
    """A set id with what a participant's program may change in it undone: Unicode form, surrounding spaces, letter
    case, the zero padding of its numbers (``' DEV-1'`` and ``'dev-0001'`` have the same key).

    >>> _id_key(" DEV-01 ") == _id_key("dev-0001"), _id_key("dev-0010") == _id_key("dev-0001")
    (True, False)
    """
    text = unicodedata.normalize("NFC", set_id).strip().casefold()
    return re.sub(r"[0-9]+", lambda found: found.group(0).lstrip("0") or "0", text)


def _pandas_hint(unknown, data, reference):
    """A sentence naming a pandas DataFrame written in another layout than ``{set id: [scores]}``, else "": the
    ``orient="split"`` layout (``{"columns", "index", "data"}``), or a wide frame (a column per sentence) written
    with ``to_json()``'s default ``orient="columns"`` (the sentences' positions as keys, the set ids one level down)."""
    own = set(entry["id"] for entry in reference)
    if {"index", "data"} <= set(unknown) and type(data.get("index")) is list:
        return ("The file is a pandas DataFrame written with to_json(orient=\"split\") ({\"columns\", \"index\", "
                "\"data\"}: the set ids under \"index\", the answers under \"data\"): write one object keyed by set "
                "id instead, e.g. json.dump(dict(zip(df.index, df[\"scores\"])), f), or df[\"scores\"].to_json() "
                "(a Series of lists).")
    inner = [data[key] for key in unknown if isinstance(data.get(key), dict) and key.strip().isdigit()]
    if len(inner) >= 2 and len(inner) * 2 > len(unknown) and \
            sum(1 for value in inner if sum(1 for key in value if key in own) * 2 > len(value)) * 2 > len(inner):
        return ("The file looks transposed: its keys are the sentences' positions (%s) and the set ids are one level "
                "down ({\"0\": {\"%s\": ...}}): a DataFrame with a column per sentence written with to_json(), "
                "whose default orient=\"columns\" puts the columns first. Transpose it (df.T) and write a list per "
                "set: json.dump(df.T.to_dict(orient=\"list\"), f), or df.apply(list, axis=1).to_json()." % (
                    ", ".join(printable(key, 10) for key in unknown[:3]) + (", ..." if len(unknown) > 3 else ""),
                    printable(reference[0]["id"], 30)))
    return ""

def _unknown_ids_hint(unknown, data, reference, missing):
    """A sentence naming why the unknown ids of ``data`` are unknown, else "": set ids of this phase written
    differently (letter case, spaces, zero padding), positions of the sets instead of their ids, or the answers
    wrapped in one object under a key of their own. Only called when some ids are unknown (no cost otherwise)."""
    if not unknown or not reference:
        return ""
    keys = dict((_id_key(set_id), set_id) for set_id in missing)
    respelt = [(set_id, keys[_id_key(set_id)]) for set_id in unknown if _id_key(set_id) in keys]
    if respelt:
        return ("%d of them are ids of this phase's sets written differently (%s): write every id exactly as "
                "sets.jsonl does (letter case, spaces, zero padding); until then those sets count as missing." % (
                    len(respelt), "; ".join("%s for %s" % (quoted(given, 30), quoted(own, 30))
                                            for given, own in respelt[:SHOWN_SETS])))
    hint = _pandas_hint(unknown, data, reference)
    if hint:
        return hint
    # the digits alone are converted: int() refuses some characters that \s matches (U+001F)
    numbers = [int(found.group(1)) for found in (re.match(r"^\s*([0-9]{1,9})\s*$", set_id) for set_id in unknown)
               if found]
    if len(numbers) * 2 > len(unknown) and all(n <= len(reference) for n in numbers):
        return ("%d of them are numbers from %d to %d: positions of the sets (line numbers, list indices), not their "
                "ids. Key every answer by its set's id (\"%s\": ...), as sets.jsonl names it." % (
                    len(numbers), min(numbers), max(numbers),
                    printable(reference[0]["id"], 30)))
    own = set(entry["id"] for entry in reference)
    for set_id in unknown:
        inner = data.get(set_id)
        if isinstance(inner, dict) and sum(1 for key in inner if key in own) * 2 > len(own):
            return ("The answers are inside the object under %s: the set ids must be the keys of the file's "
                    "top-level object ({\"%s\": ...}), not nested one level down." % (
                        quoted(set_id, 30), printable(reference[0]["id"], 30)))
    return ""


def _count_hint(data, reference, cases):
    """A sentence naming why the lists of ``cases`` (the sets with the wrong number of scores) are so, else "": their
    lengths are the sizes of other sets (answers paired with the wrong ids), the number of the set's words (one score
    per token), more than that (one score per subword piece), one integer in a list (an index written as a list),
    distinct indices (a top-k), or one score more or less than the set's size in every one (an off-by-one). Only
    called when some set has such a list."""
    sizes = dict((entry["id"], entry) for entry in reference)
    given = [(set_id, data[set_id]) for set_id, _, _ in cases]
    if all(len(value) == 1 and _is_index(value[0]) for _, value in given):
        return "Each is one integer in a list: write a chosen index without brackets (7, not [7])."
    picked = sum(1 for set_id, value in given if 2 <= len(value) < len(sizes[set_id]["sentences"])
                 and all(_is_index(i) and 0 <= i < len(sizes[set_id]["sentences"]) for i in value)
                 and len(set(value)) == len(value))
    if picked * 2 > len(given):
        return ("%d of them are lists of distinct sentence indices shorter than their set: the indices of the top "
                "sentences (a top-k)? Give the index of the one chosen sentence (7), or one score per sentence." % picked)
    words = sum(1 for set_id, value in given if len(value) in (
        sum(len(sentence.split()) for sentence in sizes[set_id]["sentences"]),
        sum(len(sentence.split()) + 1 for sentence in sizes[set_id]["sentences"])))
    if words * 2 > len(given):
        return ("%d of them have as many scores as the set has words: one score per token? Give one score per "
                "sentence (the sum of its tokens' log-probabilities)." % words)
    pieces = sum(1 for set_id, value in given
                 if len(value) > sum(len(sentence.split()) + 1 for sentence in sizes[set_id]["sentences"]))
    if pieces * 2 > len(given):
        return ("%d of them have more scores than the set has words: one score per subword piece (a tokenizer's "
                "tokens)? Give one score per sentence (the sum of its pieces' log-probabilities)." % pieces)
    offsets = set(len(value) - len(sizes[set_id]["sentences"]) for set_id, value in given)
    if len(given) >= 2 and len(offsets) == 1 and abs(next(iter(offsets))) == 1:
        more = next(iter(offsets)) == 1
        return ("Every one has one score %s than its set has sentences: an off-by-one (%s); give exactly one score "
                "per sentence of the set." % ("more" if more else "less", "a score for an empty last line, a header "
                "or an end-of-set symbol?" if more else "the last or the first sentence left out of a loop?"))
    if len(given) >= 2 and sorted(len(value) for _, value in given) == sorted(
            len(sizes[set_id]["sentences"]) for set_id, _ in given):
        return ("Their lengths are the sizes of other sets of this phase: the answers were paired with the wrong set "
                "ids (ids and answers taken in different orders, or shifted by one). Among sets of the same size such "
                "a pairing cannot be seen, so other sets may be wrong too: pair each set's id with its own scores.")
    return ""


def _not_finite_hint(data, cases):
    """A sentence naming why the scores of ``cases`` (sets with a score that is not finite, or not a number) are so,
    else "": most are -Infinity, the log of a probability of 0 (a word the model never saw, without smoothing), or
    null, a sentence left unscored. Only called when some set has such a score."""
    strings = [data[set_id][sentence] for set_id, sentence, _ in cases if type(data.get(set_id)) is list and
               sentence is not None and sentence < len(data[set_id]) and isinstance(data[set_id][sentence], str)]
    typographic = sum(1 for text in strings if "\u2212" in text and _is_number(_number_in(text.replace("\u2212", "-"))))
    if typographic * 2 > len(cases):
        return ("%d of them are numbers written with the Unicode minus sign '\u2212' (U+2212), not the ASCII "
                "hyphen-minus '-' (a typographic minus: a spreadsheet, a locale-aware formatter, copied text), and as "
                "strings: write JSON numbers (-42.1), e.g. float(x.replace('\u2212', '-'))." % typographic)
    comma = sum(1 for text in strings if re.match(r"^\s*[-\u2212+]?[0-9]+,[0-9]+\s*$", text))
    if comma * 2 > len(cases):
        return ("%d of them are numbers written with a decimal comma (-42,1: a locale's formatting, such as de_DE or "
                "es_ES), and as strings: write JSON numbers with a decimal point (-42.1), e.g. "
                "float(x.replace(',', '.'))." % comma)
    minus = sum(1 for set_id, sentence, _ in cases if type(data.get(set_id)) is list and sentence is not None
                and sentence < len(data[set_id]) and data[set_id][sentence] == -float("inf"))
    null = sum(1 for set_id, sentence, _ in cases if type(data.get(set_id)) is list and sentence is not None
               and sentence < len(data[set_id]) and data[set_id][sentence] is None)
    if null * 2 > len(cases):
        return ("%d of them are null (None): a sentence the model did not score? One such score makes the whole set "
                "count as wrong: give every sentence a finite score (a very low one, -1e9, for a sentence the model "
                "cannot score)." % null)
    if minus * 2 > len(cases):
        return ("%d of them are -Infinity: the log of a probability of 0 (a word the model never saw, without "
                "smoothing?). One such score makes the whole set count as wrong: smooth the model, or give such a "
                "sentence a finite low score (-1e9) so that the set is still chosen among the others." % minus)
    return ""


def _nested_hint(data, cases):
    """A sentence naming why the scores of ``cases`` (sets with a list among their scores) are nested, else "": every
    score in a one-item list (an array of shape (n, 1)), or a list of numbers per sentence (its tokens' or subword
    pieces' log-probabilities). Only called when some set has a nested score."""
    column = sum(1 for set_id, _, _ in cases if all(type(score) is list and len(score) == 1 and _is_number(score[0])
                                                     for score in data[set_id]))
    if column * 2 > len(cases):
        return ("%d of them hold every score in a one-item list ([[-42.1], [-40.3], ...]: an array of shape (n, 1)?): "
                "flatten it to one number per sentence." % column)
    tokens = sum(1 for set_id, _, _ in cases if all(type(score) is list and score and all(_is_number(x) for x in score)
                                                    for score in data[set_id]))
    if tokens * 2 > len(cases):
        return ("%d of them hold a list of numbers for each sentence: one score per token or subword piece? Give one "
                "score per sentence: the sum of its tokens' log-probabilities." % tokens)
    return ""


def _answer_type_hint(data, reference, cases):
    """A sentence naming what most answers of the wrong type (``cases``) are, else "": one number per set that is not
    an index (a single score for the set), objects (the list or index wrapped in an object), or the chosen
    sentence's text. Only called when some set has such an answer."""
    sets = dict((entry["id"], entry) for entry in reference)
    values = [(set_id, data[set_id]) for set_id, _, _ in cases]
    half = len(values) / 2.0
    floats = sum(1 for _, value in values if _is_number(value) and not _is_index(value) and
                 not float(value).is_integer())
    if floats > half:
        return ("%d of them are one number for the set that is not an index: one score per set? Give the list of "
                "every sentence's score (or the integer index of the chosen sentence)." % floats)
    objects = [value for _, value in values if isinstance(value, dict)]
    by_text = sum(1 for set_id, value in values if isinstance(value, dict) and value and
                  set(value) <= set(sets[set_id]["sentences"]))
    if by_text > half:
        return ("%d of them are JSON objects keyed by the sentences' text: give a list of the scores instead, the i-th "
                "score for the i-th sentence of the set (sets.jsonl order)." % by_text)
    if len(objects) > half:
        keys = Counter(key for value in objects for key in list(value)[:5]).most_common(3)
        return ("%d of them are JSON objects (keys such as %s): give the list of scores, or the index, itself as the "
                "value of the set id ({\"%s\": [-42.1, ...]})." % (
                    len(objects), ", ".join(quoted(key, 30) for key, _ in keys), printable(reference[0]["id"], 30)))
    texts = sum(1 for set_id, value in values if isinstance(value, str) and value in sets[set_id]["sentences"])
    if texts > half:
        return ("%d of them are the text of one of the set's sentences: give the 0-based index of the chosen sentence "
                "(its position in the set's list), or the scores of all its sentences." % texts)
    return ""


def _not_an_object_hint(data, reference):
    """A sentence saying what a submission that is a JSON list looks like (one answer per set in a list, or
    records with an id), and how to key it by set id; "" for other values."""
    if not isinstance(data, list) or not data:
        return ""
    example = printable(reference[0]["id"], 30) if reference else "the set id"
    if all(isinstance(item, dict) for item in data[:50]):
        return (" Its items are objects (records%s): turn them into one object {\"%s\": [scores...], ...}, one key "
                "per set." % (" with \"id\"" if "id" in data[0] else "", example))
    if len(data) == len(reference):
        return (" It has one item per set of this phase, in a list: key each answer by its set's id "
                "({\"%s\": ...}); a list loses the pairing of answers and sets." % example)
    return ""


def parse_submission(data, reference, file="predictions.json", log=None, duplicates=None):
    """Validate a parsed submission against the reference; return ({set id: answer or None}, messages).

    Raises DataError only when ``data`` is not a JSON object (nothing can be scored). With ``log`` (a
    :class:`~evalkit.messages.MessageLog` the caller closes) the messages go there and ``[]`` is returned.
    ``duplicates``: ``{set id: times given}`` of the ids the JSON object repeated (:class:`DuplicateKeys`).
    Every class of problem is one message (:data:`PROBLEMS`, and a warning when the scores look like ranks).

    >>> ref = [{"id": "a", "sentences": ["x", "y"], "gold": 0, "gold_type": "en"}]
    >>> answers, messages = parse_submission({"a": [1, "high"], "zz": 0}, ref)
    >>> answers
    {'a': None}
    >>> for message in messages:
    ...     print(message)
    error: predictions.json, set a, sentence 1: a score that is not a number: 1 of 1 sets (set a, sentence 1: the string 'high'); expected a number per sentence (higher = more likely); each of these sets counts as wrong.
    warning: predictions.json, set zz: an id that is not a set of this phase: 1 id (set zz); expected the set ids of this phase's sets.jsonl; ignored.
    """
    if not isinstance(data, dict):
        raise DataError(file, "", "expected a JSON object {set id: list of scores or sentence index}, got %s.%s"
                        % (_describe(data), _not_an_object_hint(data, reference)))
    own = log is None
    log = MessageLog(file) if own else log
    problems = Problems()
    answers = OrderedDict()
    for entry in reference:
        if entry["id"] not in data:
            problems.add("missing", entry["id"])
            answers[entry["id"]] = None
            continue
        answers[entry["id"]] = check_answer(entry["id"], data[entry["id"]], len(entry["sentences"]), problems)
    for set_id, times in (duplicates or {}).items():
        problems.add("duplicate", set_id, "%d times" % times)
    unknown = [set_id for set_id in data if set_id not in answers]
    for set_id in unknown:
        problems.add("unknown", set_id)
    extra = {}
    hint = _unknown_ids_hint(unknown, data, reference, [set_id for set_id, _, _ in problems.found.get("missing", ())]) \
        or _other_phase_hint(unknown, reference)
    if hint:
        extra["unknown"] = hint
        if problems.count("missing") * 2 > len(reference):
            extra["missing"] = hint
    one_based = sum(1 for entry in reference if _is_index(data.get(entry["id"])) and
                    data[entry["id"]] == len(entry["sentences"]))
    if problems.count("answer_type"):
        hint = _answer_type_hint(data, reference, problems.found["answer_type"])
        if hint:
            extra["answer_type"] = hint
    for problem in ("not_finite", "not_number"):
        hint = _not_finite_hint(data, problems.found[problem]) if problems.count(problem) else ""
        if hint:
            extra[problem] = hint
    if problems.count("nested"):
        hint = _nested_hint(data, problems.found["nested"])
        if hint:
            extra["nested"] = hint
    if problems.count("count"):
        hint = _count_hint(data, reference, problems.found["count"])
        if hint:
            extra["count"] = hint
    if one_based * 2 >= max(problems.count("range"), 1):
        extra["range"] = "Most of them are the set's size: indices start at 0 (were these 1-based?)."
    _shift_warning(answers, reference, log)
    problems.report(log, extra, len(reference))
    _ranks_warning(answers, log, reference)
    _ties_warning(answers, log)
    _underflow_warning(answers, log)
    _direction_warning(answers, log)
    _same_index_warning(answers, log)
    _same_top_warning(answers, log)
    _sorted_warning(answers, log)
    _order_warning(answers, reference, log)
    _part_order_warning(answers, reference, log)
    return dict(answers), log.close() if own else []


def load_submission(data, file, max_bytes):
    """The JSON value of submission bytes and ``{set id: times given}`` of the ids its object repeats; DataError
    when the file is unusable (size, encoding, syntax). Integer literals too long to convert stay
    :class:`LongInteger` (never a traceback, never a long conversion)."""
    hook = DuplicateKeys()
    try:
        value = parse_json_bytes(data, file, max_bytes, parse_int=_parse_int, object_pairs_hook=hook)
    except DataError as err:
        hint = _table_hint(data)
        if hint:
            err.message.text = "%s. %s" % (err.message.text.rstrip("."), hint)
        raise
    return value, hook.of(value) if isinstance(value, dict) else {}


def _table_hint(data):
    """A sentence saying that bytes that are no JSON look like a table (tab- or comma-separated lines, a TSV or CSV
    saved as predictions.json), else "". Called only on a file that is not JSON.

    >>> _table_hint(b"id\\ts0\\ts1\\ndev-0001\\t-4.2\\t-3.1\\n")[:60]
    'The file looks like a table of tab-separated columns (a TSV,'
    >>> _table_hint(b'{"a": [1,')
    ''
    """
    lines = [line for line in data[:65536].decode("utf-8", "replace").lstrip("\ufeff").splitlines() if line.strip()]
    if len(lines) < 2 or lines[0].lstrip()[:1] in ("{", "["):
        return ""
    for separator, name, kind in (("\t", "tab", "TSV"), (",", "comma", "CSV"), (";", "semicolon", "CSV")):
        counts = set(line.count(separator) for line in lines[:20])
        if len(counts) == 1 and min(counts) >= 1:
            return ("The file looks like a table of %s-separated columns (a %s, e.g. df.to_csv(), saved under the name "
                    "predictions.json): write one JSON object {set id: [one score per sentence]} instead, e.g. "
                    "json.dump(dict(zip(ids, scores)), f)." % (name, kind))
    return ""


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
    >>> print(read_submission(b'{"a": [1, 1%s]}' % (b"0" * 400), ref)[1][0].text)  # doctest: +ELLIPSIS
    a score that is not a finite number ...: 1 of 1 sets (set a, sentence 1: an integer of 401 digits); expected ...
    """
    if not data.strip():
        raise DataError(file, "", "the file is empty; expected a JSON object {set id: list of scores or index}")
    value, duplicates = load_submission(data, file, max_bytes)
    return parse_submission(value, reference, file, duplicates=duplicates)


def parse_reference(lines, file="reference.jsonl", redacted=False):
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
        if redacted and isinstance(entry, dict) and entry.get("gold") is None and entry.get("gold_type") is None:
            entry = dict(entry, gold=0, gold_type=GOLD_TYPES[0], redacted=True)   # checked as a set, never scored
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


# --------------------------------------------------------------------------- the scorer's kind

#: Sets of the detailed results' sample of wrong sets (the first ones in reference order).
WRONG_SAMPLE = 25
#: A sentence shown in the detailed results is cut to this many characters.
SHOWN_CHARS = 160
#: The groups of the detailed results: every gold type, then the paper's monolingual group.
GROUP_LABELS = OrderedDict([("cs", "code-switched"), ("en", "English"), ("sp", "Spanish"),
                            ("mono", "monolingual (English + Spanish)")])


class ChoiceReference(list):
    """The parsed reference sets (a list of set dicts) and the size of the file they were read from."""

    def __init__(self, sets, size):
        list.__init__(self, sets)
        self.size = size


def _cut_text(text):
    """``text`` cut to :data:`SHOWN_CHARS` characters."""
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def group_scores(reference, answers):
    """Per group of :data:`GROUP_LABELS`: sets, accuracy and corpus WER (groups without sets left out).

    >>> ref = [{"id": "a", "sentences": ["x y", "x z"], "gold": 0, "gold_type": "cs"},
    ...        {"id": "b", "sentences": ["p q", "p s"], "gold": 1, "gold_type": "sp"}]
    >>> [(g["group"], g["sets"], g["accuracy"], g["wer"]) for g in group_scores(ref, {"a": 0, "b": 0})]
    [('cs', 1, 1.0, 0.0), ('sp', 1, 0.0, 0.5), ('mono', 1, 0.0, 0.5)]
    """
    out = []
    for group in GROUP_LABELS:
        sets = [s for s in reference if s["gold_type"] == group or (group == "mono" and s["gold_type"] != "cs")]
        if sets:
            scores = evaluate(sets, answers)
            out.append({"group": group, "label": GROUP_LABELS[group], "sets": len(sets),
                        "accuracy": scores["accuracy"], "wer": scores["wer"]})
    return out


def wrong_sample(reference, answers, limit=WRONG_SAMPLE):
    """The first ``limit`` sets not fully won: id, gold type, credit, gold and chosen sentences (cut)."""
    sample = []
    for entry in reference:
        answer = answers.get(entry["id"])
        credit = set_accuracy(answer, entry["gold"], len(entry["sentences"]))
        if credit < 1.0:
            picked = choices(answer, len(entry["sentences"]))
            chosen = "(no valid answer)" if not picked else _cut_text(entry["sentences"][picked[0][1]])
            if len(picked) > 1:
                chosen += " (and %d more tied)" % (len(picked) - 1)
            sample.append([entry["id"], entry["gold_type"], round(credit, 4), _cut_text(entry["sentences"][entry["gold"]]),
                           chosen])
            if len(sample) >= limit:
                break
    return sample


def details(reference, answers):
    """The detailed results of one scored file: counts per group and a sample of wrong sets, as the generic
    ``tables`` the report writers show (``{"title", "columns", "rows", "note"}``), and ``direction``
    (:func:`direction_counts`) when many sets' scores look reversed (a hidden phase's report keeps no details)."""
    groups = group_scores(reference, answers)
    wrong = sum(1 for s in reference if set_accuracy(answers.get(s["id"]), s["gold"], len(s["sentences"])) < 1.0)
    sample = wrong_sample(reference, answers)
    found = {"groups": groups, "wrong_sets": wrong, "tables": [
        {"title": "Per gold type", "columns": ["Gold type", "Sets", "Accuracy", "WER"],
         "rows": [[g["label"], g["sets"], g["accuracy"], g["wer"]] for g in groups],
         "note": "Accuracy: share of sets whose gold is chosen (a k-way tie with the gold earns 1/k). WER: word "
                 "edits of the chosen sentence over the gold's words, pooled over the group's sets."},
        {"title": "Sets not won (first %d of %d)" % (len(sample), wrong),
         "columns": ["Set", "Gold type", "Credit", "Gold sentence", "Chosen sentence"], "rows": sample,
         "note": "Credit below 1: the gold was not chosen, or shared the top score with other sentences."}]}
    direction = direction_counts(reference, answers)
    if direction:   # only when many sets' scores look reversed: a normal report is unchanged
        found["direction"] = direction
    order = order_counts(reference, answers)
    if order:   # only when the scores look written in another order of the sentences
        found["order"] = order
    for name, counts in (("shift", shift_counts), ("part", part_counts)):
        priced = counts(reference, answers)
        if priced:   # only when a group of sets looks paired with a neighbour, or written in another order
            found[name] = priced
    ranks = rank_counts(reference, answers)
    if ranks:   # only when the scores look like ranks
        found["ranks"] = ranks
    return found


def set_statistics(reference, answers):
    """``{statistic: [value per set]}``: ``credit_cs`` / ``credit_mono`` (the set's credit in its group, else 0),
    ``cs`` / ``mono`` (1 for the set's group), ``edits`` (expected word edits of the choice) and ``words`` (gold
    words): their sums give every component (:meth:`ChoiceKind.from_sums`).

    >>> ref = [{"id": "a", "sentences": ["x y", "x z"], "gold": 0, "gold_type": "cs"}]
    >>> dict(set_statistics(ref, {"a": [1, 1]}))
    {'credit_cs': [0.5], 'credit_mono': [0.0], 'cs': [1], 'mono': [0], 'edits': [0.5], 'words': [2]}
    """
    stats = OrderedDict((name, []) for name in ("credit_cs", "credit_mono", "cs", "mono", "edits", "words"))
    for entry in reference:
        answer, cs = answers.get(entry["id"]), entry["gold_type"] == "cs"
        credit = set_accuracy(answer, entry["gold"], len(entry["sentences"]))
        stats["credit_cs"].append(credit if cs else 0.0)
        stats["credit_mono"].append(0.0 if cs else credit)
        stats["cs"].append(1 if cs else 0)
        stats["mono"].append(0 if cs else 1)
        stats["edits"].append(set_edits(answer, entry["sentences"], entry["gold"]))
        stats["words"].append(len(entry["sentences"][entry["gold"]].split()))
    return stats


#: The chance band above the floor (:meth:`ChoiceKind.floor_margin`) is used over at least this many sets.
MIN_CHANCE_SETS = 100


class ChoiceKind(object):
    """The scorer's kind for choice sets (``reads_text``: JSON Lines reference, one JSON object submitted).

    The protocol of :class:`evalkit.lines.TextKind`: parse the reference file's bytes, parse and check the
    submission's bytes against it (messages in ``log``), score.
    """

    name = "choice"
    items = SetItems()
    #: What usually puts a file of this kind at its floor (evalkit/floor.py).
    floor_causes = ("scores whose direction is reversed (perplexities, losses or surprisals, where a higher "
                    "score must mean more likely: negate them), probabilities that underflow to the same number "
                    "(use log-probabilities), indices counted from 1, indices of the lowest score (an argmin "
                    "over log-probabilities), scores for another order of the sentences, answers "
                    "paired with the wrong set ids (ids and answers taken in different orders)")
    reads_text = True

    @staticmethod
    def floor_margin(floor, count):
        """Two standard errors of a random choice's accuracy over ``count`` sets whose expected accuracy is ``floor``
        (the constant chooser's, the floor): a file that scores within it of the floor chooses no better than chance
        (answers paired with the wrong sets, sentences in another order) and is said as such (:mod:`evalkit.floor`).

        Only where the sample can tell a weak model from chance: over at least :data:`MIN_CHANCE_SETS` sets, and
        while the band is no wider than the floor itself (else a file scoring nearly twice a random choice, a weak
        but honest model such as a unigram one on a small sample, would be said to hold a mistake); elsewhere 0.0
        (the exact floor alone is said).

        >>> round(ChoiceKind.floor_margin(0.0323, 1000), 4)   # the real dev set: 0.033 is said
        0.0112
        >>> ChoiceKind.floor_margin(0.0325, 40), ChoiceKind.floor_margin(0.5, 50)   # too few sets
        (0.0, 0.0)
        """
        if count < MIN_CHANCE_SETS:
            return 0.0
        margin = 2.0 * math.sqrt(max(floor * (1.0 - floor), 0.0) / count)
        return margin if margin <= floor else 0.0

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        """The parsed :class:`ChoiceReference` of a ``reference.jsonl`` file; DataError when broken or empty.
        ``redacted`` (a test phase's part, :mod:`evalkit.split`): a set whose ``gold`` and ``gold_type`` are
        null is read with a stand-in gold and marked ``redacted`` (it is never scored)."""
        sets = parse_reference(decode_utf8(data, name).split("\n"), name, redacted)
        if not sets:
            raise DataError(name, "", "no set found; expected one JSON object a line")
        return ChoiceReference(sets, len(data))

    def gold_prediction(self, data, task, lang):
        """The submission that predicts the gold of the reference bytes ``data`` (the conformance check's perfect
        submission, organiser/conformance.py): each set's gold index, ``{set id: index}``."""
        answers = OrderedDict()
        for line in data.decode("utf-8-sig").split("\n"):
            if line.strip():
                item = json.loads(line)
                answers[item["id"]] = item["gold"]
        return (json.dumps(answers) + "\n").encode("utf-8")

    def prediction_limit(self, ref, file_limit):
        """The largest submission accepted: 64 bytes a sentence of the reference (plus 1 MiB), within the
        platform's limit (an honest file, scores with 17 digits, takes about 25)."""
        return min(file_limit, 64 * sum(len(s["sentences"]) for s in ref) + (1 << 20))

    @staticmethod
    def oversize_cause(ref):
        """What usually makes a submission larger than :meth:`prediction_limit` (said by the scorer's error): one
        score per token or subword piece instead of one per sentence."""
        sentences = sum(len(entry["sentences"]) for entry in ref)
        return ("one score per sentence takes about 20 bytes, {:,} for these {:,} sentences, so a file this large "
                "usually holds a score per token or subword piece; give one score per sentence, the sum of its tokens' "
                "log-probabilities".format(20 * sentences, sentences))

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        """``{set id: answer or None}`` of a submission (messages in ``log``); DataError when unusable as a whole."""
        if len(data) > max_bytes:
            raise DataError(log.file, "", "the file is %d bytes; at most %d are accepted for these %d sets"
                            % (len(data), max_bytes, len(ref)))
        if not data.strip():
            raise DataError(log.file, "", "the file is empty; expected a JSON object {set id: list of scores or index}")
        value, duplicates = load_submission(data, log.file, max_bytes)
        answers, _ = parse_submission(value, ref, log.file, log, duplicates)
        return answers

    def trivial_prediction(self, data, name):
        """A well-shaped, content-free submission for reference bytes ``data``: the index 0 for every set."""
        sets = self.parse_reference_text(data, name, None, None, redacted=True)   # ids alone: a split phase's too
        return (json.dumps(dict((s["id"], 0) for s in sets), sort_keys=True) + "\n").encode("utf-8")

    def restrict(self, ref, answers, indices):
        """The sets ``indices`` alone (see :meth:`evalkit.kinds.Kind.restrict`); the answers are looked up by id."""
        return ChoiceReference([ref[i] for i in indices], ref.size), answers

    def predictions(self, ref, answers):
        """The answer of each set, in reference order (None: no valid answer)."""
        return [answers.get(entry["id"]) for entry in ref]

    def scorable(self, ref):
        """Every set is scored."""
        return list(range(len(ref)))

    def score(self, ref, answers, task):
        """:func:`evaluate` as an :class:`~evalkit.kinds.Entry`: the components (``task.metric`` first), the
        per-set statistics of :func:`set_statistics` as ``per_sentence`` (what :meth:`from_sums` computes the
        components from), the sets without a valid answer as zeroed."""
        stats = set_statistics(ref, answers)
        sums = dict((name, sum(values)) for name, values in stats.items())
        components = self.from_sums(sums, len(ref), task)
        invalid = sum(1 for s in ref if answers.get(s["id"]) is None)
        return Entry(components, {}, len(ref), len(ref) - invalid, int(sums["words"]), invalid,
                     details(ref, answers), per_sentence=stats)

    def from_sums(self, sums, count, task):
        """The components (``task.metric`` first) from the sums of :func:`set_statistics` over ``count`` sets:
        the same numbers as :func:`evaluate` (numbers, or numpy arrays of resampled sums alike).

        >>> ref = [{"id": "a", "sentences": ["x y", "x z"], "gold": 0, "gold_type": "cs"},
        ...        {"id": "b", "sentences": ["p q r", "p q s"], "gold": 1, "gold_type": "en"}]
        >>> sums = dict((k, sum(v)) for k, v in set_statistics(ref, {"a": [5, 5], "b": 0}).items())
        >>> task = type("Task", (), {"metric": "accuracy", "components": ("accuracy", "accuracy_cs", "wer")})
        >>> ChoiceKind().from_sums(sums, 2, task)
        OrderedDict([('accuracy', 0.25), ('accuracy_cs', 0.5), ('wer', 0.3)])
        """
        values = {"accuracy": lambda: ratio(sums["credit_cs"] + sums["credit_mono"], sums["cs"] + sums["mono"]),
                  "accuracy_cs": lambda: ratio(sums["credit_cs"], sums["cs"]),
                  "accuracy_mono": lambda: ratio(sums["credit_mono"], sums["mono"]),
                  "wer": lambda: ratio(sums["edits"], sums["words"])}
        names = [task.metric] + [c for c in task.components if c != task.metric]
        return OrderedDict((name, values[name]()) for name in names)

    def score_value(self, components):
        """The entry score: the first component (the declared official metric, accuracy)."""
        return next(iter(components.values())) if components else 0.0

    def public_gold_messages(self, entry, task):
        """The answers written in another order of the sentences, priced against the gold (``details["order"]``,
        :func:`order_message`). Only where the gold is public (:func:`evalkit.floor.public_gold_messages`)."""
        found = entry.get("details") or {}
        said = [order_message(entry, found["order"])] if type(found.get("order")) is dict else []
        said += [part_message(entry, found[name]) for name in ("shift", "part") if type(found.get(name)) is dict]
        if type(found.get("ranks")) is dict:
            said.append(rank_message(entry, found["ranks"]))
        if type(found.get("direction")) is dict:
            said.extend(direction_price(entry, found["direction"]))
        return said

    def explains_score(self, entry):
        """Whether the messages of ``entry`` already say why it scores low: its answers, put back from another order
        of the sentences, win more sets (:func:`order_message`); a floor's generic causes are then not given."""
        found = entry.get("details") or {}
        return any(type(found.get(name)) is dict and found[name]["mended"] > found[name]["as_written"]
                   for name in ("order", "shift", "part", "ranks"))


#: The kinds this module adds to the scorer (:data:`evalkit.scoring.KINDS`).
KINDS = {ChoiceKind.name: ChoiceKind()}
