"""One value per item: ``key<TAB>value`` files, the kinds of what shared tasks ask most besides tagging.

A reference file and a submission file alike hold one line per item, ``key<TAB>value`` (a word and its degree of
change, a pair id and its similarity, a text id and its class), UTF-8, blank lines ignored, each key once; a
submission may list its keys in any order (SemEval-2020 Task 1's ``answer/task2/<lang>.txt``: ``word<TAB>value``).
In a test phase split into parts (:mod:`evalkit.split`) a redacted item is its key alone. Two kinds:

- ``item_labels`` (classification): the value is a label of the task's declared set (``ValueTask.labels``);
  components ``acc`` (accuracy) and ``macro_f1`` (the mean of the per-label F1 over the labels that occur, as
  scikit-learn's ``f1_score(average="macro")``), from per-item counts (``resampling = "sums"``);
- ``item_values`` (graded values): the value is a number; components ``spearman`` (rank correlation, ties given
  their average rank, as scipy's ``spearmanr``) and ``pearson``, recomputed on resampled items by the final
  ranking (``resampling = "items"``: a correlation is no sum over items). A correlation of constant values is
  undefined: the kit scores it 0.0 and says so. A negative correlation stays negative.

An item without a valid value (its key missing, given no value, or a value that is not a number / not a label of
the set) is said once per file with its count and first lines, and counts as wrong (``item_labels``) or is scored
as the mean of the file's valid values, a value that carries no information (``item_values``). An unknown key, a
key given twice, a line that is not ``key<TAB>value`` are said with their line and what was expected (did you mean
the reference's key?); a constant prediction is said before it is scored. Reports speak of items, or of the unit the
task declares (``ValueTask.unit``: "word").

Standard library only, Python 3.7+.
"""
import difflib
import re
import unicodedata
from collections import OrderedDict

from . import metrics
from .items import Columns, Items, normal
from .kinds import Entry
from .lines import guess_label, zip_checked
from .loading import decode_utf8
from .messages import DataError, ERROR, WARNING, ZERO_NOTE, quoted

#: A prediction may not be larger than this many times its reference (plus 1 MiB).
MAX_PREDICTION_RATIO = 4
#: A decimal number as a value is written (no thousands separators, no "nan" or "inf").
NUMBER = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")
#: A number written with a decimal comma.
DECIMAL_COMMA = re.compile(r"^[-+]?\d+,\d+$")
#: A file of at least this many items, every one given the same label, gets the constant-prediction warning.
CONSTANT_MIN_ITEMS = 10
#: How many keys a message lists.
SHOWN_KEYS = 3


def unit_of(task):
    """What the task's items are called in messages: its declared ``unit`` ("word"), else "item"."""
    return getattr(task, "unit", None) or "item"


def _plural(count, unit):
    """``"1 word"``, ``"3 words"``."""
    return "%d %s%s" % (count, unit, "" if count == 1 else "s")


def parse_number(text):
    """``(value, why)``: the float that ``text`` writes, or None and why not (a predicate).

    >>> parse_number("0.25"), parse_number("-1e-3")
    ((0.25, ''), (-0.001, ''))
    >>> parse_number("0,25")[1], parse_number("nan")[1], parse_number("high")[1]
    ('is not a number (a decimal comma? write 0.25)', 'is not a finite number', 'is not a number')
    """
    if NUMBER.match(text):
        return float(text), ""
    if DECIMAL_COMMA.match(text):
        return None, "is not a number (a decimal comma? write %s)" % text.replace(",", ".")
    try:
        float(text)
    except ValueError:
        return None, "is not a number"
    return None, "is not a finite number"


# --------------------------------------------------------------------------- reading

class ValueReference(object):
    """A parsed reference: ``keys``, ``golds`` (None: redacted), the line of each item, its ``index`` by key."""

    def __init__(self, keys, golds, lines, size):
        self.keys, self.golds, self.lines, self.size = keys, golds, lines, size
        self.index = dict((key, i) for i, key in enumerate(keys))
        self._folded = None

    def __len__(self):
        return len(self.keys)

    def folded(self):
        """``{NFC lower-cased key: key}`` (built once, when a key of a prediction is not found as it is)."""
        if self._folded is None:
            self._folded = dict((unicodedata.normalize("NFC", key).lower(), key) for key in self.keys)
        return self._folded


def text_lines(data, name):
    """``[(line number, text)]`` of the non-blank lines of UTF-8 ``data`` (``\\r`` dropped); DataError when it is not
    UTF-8 or holds no line."""
    text = decode_utf8(data, name)
    found = [(number, line.rstrip("\r")) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not found:
        raise DataError(name, "", "the file is empty; expected one key<TAB>value line per item")
    return found


def parse_reference(data, name, read_gold, redacted=False):
    """The :class:`ValueReference` of reference bytes ``data``; DataError (naming the line) when a line is not
    ``key<TAB>value`` (with ``redacted``, a key alone is an item whose gold is redacted), a key is given twice or
    ``read_gold(value)`` refuses a value (it raises ValueError with what was expected)."""
    keys, golds, lines, seen = [], [], [], {}
    for number, line in text_lines(data, name):
        fields = line.split("\t")
        key = fields[0].strip()
        if len(fields) > 2 or not key or (len(fields) == 1 and not redacted):
            raise DataError(name, "line %d" % number, "expected key<TAB>value, got %s" % quoted(line, 80))
        if key in seen:
            raise DataError(name, "line %d" % number, "the key %s is given twice (lines %d and %d)"
                            % (quoted(key, 80), seen[key], number))
        seen[key] = number
        gold = None
        if len(fields) == 2:
            try:
                gold = read_gold(fields[1].strip())
            except ValueError as err:
                raise DataError(name, "line %d" % number, "the gold of %s: %s" % (quoted(key, 80), err))
        keys.append(key)
        golds.append(gold)
        lines.append(number)
    return ValueReference(keys, golds, lines, len(data))


class ValueItems(Items):
    """The items of a ``key<TAB>value`` reference file: one line each (the split, the leak audit, the contamination
    search). ``scramble_value``: the gold a scrambled reference gives an item instead of ``value`` (a string). Given:
    the keys alone (the test input's ``.tsv``, as :class:`ValueRelease` writes it)."""

    given = Columns("the keys alone, one a line")

    def __init__(self, scramble_value):
        self.scramble_value = scramble_value

    def read(self, data):
        """The non-blank lines."""
        return [line for _, line in text_lines(data, "reference")]

    def write(self, items, original):
        """One line per item."""
        return "".join(line + "\n" for line in items).encode("utf-8")

    def key(self, item, task):
        """The key."""
        return item.split("\t")[0].strip()

    def redact(self, item, task):
        """The key alone."""
        return self.key(item, task)

    def gold(self, item, task):
        """The value (none for a redacted item)."""
        return [item.split("\t", 1)[1].strip()] if "\t" in item else []

    def label(self, index, item):
        """``item <n> (<key>)``."""
        return "item %d (%s)" % (index + 1, quoted(item.split("\t")[0].strip(), 40))

    def public_texts(self, item, task):
        """The line, normalised (nothing for a redacted item: it has no gold)."""
        return [normal(item)] if "\t" in item else []

    def scramble(self, data, task, lang):
        """Every gold value replaced by :attr:`scramble_value`'s."""
        out = []
        for item in self.read(data):
            key, tab, value = item.partition("\t")
            out.append(key + tab + self.scramble_value(value.strip(), task, lang) if tab else item)
        return self.write(out, data)


def _other_label(value, task, lang):
    labels = list(label_set(task, lang))
    return labels[(labels.index(value) + 1) % len(labels)] if value in labels else value


def _other_number(value, task, lang):
    number, _ = parse_number(value)
    return repr(1.0 - number) if number is not None else value


def label_set(task, lang):
    """The labels of an ``item_labels`` task in ``lang``: one set for every language, or ``{lang: set}``."""
    labels = getattr(task, "labels", ()) or ()
    return labels[lang] if isinstance(labels, dict) else labels


# --------------------------------------------------------------------------- the release (the kit's tools)

class ValueRelease(object):
    """Release files of ``key<TAB>value`` lines (``evalkit.conll.Release``, the kind's ``release`` part): train and
    dev with their values, test with the keys alone. A record is ``(key, value or None)``. ``numeric``: the values
    are numbers (graded), else labels. Its systems are the skeleton's: for the baseline, the mean training value
    (or the most frequent label) of the training keys of the same length, a toy that learns something on the
    sample; for the floor, the mean training value (or the most frequent label) for every key."""

    unit = "items"
    input_name = "keys"

    def __init__(self, numeric):
        self.numeric = numeric

    def read(self, path):
        with open(path, "rb") as handle:
            lines = ValueItems(None).read(handle.read())
        return [(line.split("\t")[0].strip(), line.split("\t", 1)[1].strip() if "\t" in line else None)
                for line in lines]

    def has_gold(self, records):
        return bool(records) and all(value is not None for _, value in records)

    def text(self, records, gold=True):
        return "".join((key + "\t" + value if gold and value is not None else key) + "\n" for key, value in records)

    def same_input(self, public, gold):
        return [key for key, _ in public] == [key for key, _ in gold]

    def reference_bytes(self, decl, task, records, labels=None):
        return "".join("%s\t%s\n" % (key, value if labels is None else labels[i])
                       for i, (key, value) in enumerate(records)).encode("utf-8")

    def placeholder(self, task, lang, records):
        return ["0" if self.numeric else label_set(task, lang)[0]] * len(records)

    def submission_bytes(self, decl, task, records, labels):
        return self.reference_bytes(decl, task, records, labels)

    def systems(self, task, lang, train):
        """``{"baseline", "floor"}`` (see the class docstring)."""
        overall = self._best([value for _, value in train or []]) if train else None
        by_length = {}
        for key, value in train or []:
            by_length.setdefault(len(key), []).append(value)
        best = dict((length, self._best(found)) for length, found in by_length.items())
        default = overall if overall is not None else ("0" if self.numeric else label_set(task, lang)[0])
        return {"baseline": lambda records: [best.get(len(key), default) for key, _ in records],
                "floor": lambda records: [default] * len(records)}

    def _best(self, values):
        """The mean of ``values`` (numbers, written with 4 decimals) or the most frequent one (labels)."""
        if self.numeric:
            return "%.4f" % (sum(float(v) for v in values) / len(values))
        return max(sorted(set(values)), key=values.count)

    def summary(self, entry):
        return "%d %s (%d without a valid value)" % (entry["sentences"], self.unit, entry["zeroed_sentences"])


# --------------------------------------------------------------------------- the two kinds

class ValueKind(object):
    """What the two kinds share: the files, the checks of a prediction, the parts of a file (see the module
    docstring). A subclass gives :meth:`read_gold`, :meth:`read_value`, :meth:`check_values` and :meth:`score`."""

    name = None
    reads_text = True
    floor_causes = None
    #: The detailed-results page's wording (a competition's REPORT_NOTES says more): its scores are over items.
    report_notes = {"official": "Official (over the file's items)", "unit": "items",
                    "task": "Each score is computed over the items of a file at once (a correlation, or a "
                            "classification score over its items); a negative correlation is shown as it is."}
    #: Below this many items a score at the floor tells little (evalkit/floor.py says so instead of claiming a
    #: systematic mistake): an honest system's score on so few items spreads too widely (about 1/sqrt(n): 0.1 on 100).
    floor_min_items = 100

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        """The :class:`ValueReference` of one reference file (the gold read by :meth:`read_gold`)."""
        return parse_reference(data, name, lambda value: self.read_gold(value, task, lang), redacted)

    def prediction_limit(self, ref, file_limit):
        """The largest prediction (bytes) accepted: a few times the reference, within the file limit."""
        return min(file_limit, MAX_PREDICTION_RATIO * ref.size + (1 << 20))

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        """Per reference item, its value (None: the item has no valid value); every problem said in ``log``, once
        per class of problem with its count and first lines. DataError when the file is too large, not UTF-8,
        empty, or names no key of the reference (predictions for another file or split)."""
        if len(data) > max_bytes:
            raise DataError(log.file, "", "the file is %d bytes; at most %d are accepted for this file"
                            % (len(data), max_bytes))
        lines = text_lines(data, log.file)
        unit = unit_of(task)
        pred, given, unknown = [None] * len(ref), {}, []
        for number, line in lines:
            key, value = self._split(line, number, ref, log, unit)
            if key is None:
                continue
            i = ref.index.get(key)
            if i is None:
                i = self._other_spelling(key, number, ref, log)
            if i is None:
                unknown.append((number, key, value))
                continue
            if i in given:
                log.add(WARNING, "line %d" % number, "the key %s is given again (first on line %d): the first line is "
                        "scored, this one ignored" % (quoted(key, 80), given[i]), kind="key given twice")
                continue
            given[i] = number
            if value is not None:   # a key without a value is said already
                pred[i] = self.read_value(value, key, number, log, task, ref)
        if unknown and not given:
            raise DataError(log.file, "", "none of the %s of the file is a key of the reference (first: %s; the "
                            "reference's first: %s): predictions for another file or split?" % (
                                _plural(len(unknown), "key"), ", ".join(quoted(k, 40) for _, k, _ in unknown[:3]),
                                ", ".join(quoted(k, 40) for k in ref.keys[:3])))
        for number, key, value in unknown:
            self._unknown(number, key, value, ref, log, task)
        missing = [i for i in range(len(ref)) if i not in given]
        if missing:
            log.add(ERROR, "whole file", "%d of the %s of the reference %s no line (first: %s): %s %s" % (
                len(missing), _plural(len(ref), unit), "has" if len(missing) == 1 else "have",
                ", ".join(quoted(ref.keys[i], 40) for i in missing[:SHOWN_KEYS]),
                "it" if len(missing) == 1 else "they", self.without_value(len(missing))), kind="missing key")
        if len(ref) and all(value is None for value in pred):
            log.add(ERROR, "whole file", "not one of the %s of the reference has a valid value (see the errors "
                    "above): %s" % (_plural(len(ref), unit), ZERO_NOTE), kind="no valid value")
        self.check_values(pred, lines, log, task, ref)
        return pred

    def _split(self, line, number, ref, log, unit):
        """``(key, value)`` of one prediction line; ``(key, None)`` for a key of the reference without a value, and
        ``(None, None)`` for a line that cannot be read, after saying why."""
        fields = line.split("\t")
        if len(fields) == 2:
            return fields[0].strip(), fields[1].strip()
        if len(fields) > 2:
            log.add(WARNING, "line %d" % number, "%d tab-separated fields, expected key<TAB>value: the first is read "
                    "as the key and the last as the value" % len(fields), kind="more than two fields")
            return fields[0].strip(), fields[-1].strip()
        words = line.split()
        if len(words) >= 2 and " ".join(words[:-1]) in ref.index:
            log.add(WARNING, "line %d" % number, "the key and the value are separated by spaces, not a tab: read "
                    "as %s and %s; write key<TAB>value" % (quoted(" ".join(words[:-1]), 40), quoted(words[-1], 40)),
                    kind="spaces for a tab")
            return " ".join(words[:-1]), words[-1]
        key = line.strip()
        if key in ref.index:
            log.add(ERROR, "line %d" % number, "the %s %s has no value (expected key<TAB>value): it %s" % (
                unit, quoted(key, 80), self.without_value(1)), kind="key without a value")
            return key, None
        log.add(ERROR, "line %d" % number, "expected key<TAB>value, got %s (no tab)" % quoted(line, 80),
                kind="line without a tab")
        return None, None

    def _other_spelling(self, key, number, ref, log):
        """The index of the reference key that ``key`` writes in another Unicode normalisation (NFC matches it:
        read, with a warning), else None."""
        found = ref.index.get(unicodedata.normalize("NFC", key))
        if found is not None:
            log.add(WARNING, "line %d" % number, "the key %s is written in another Unicode normalisation than the "
                    "reference's (NFC): matched; write the keys as the input file does" % quoted(key, 40),
                    kind="key in another normalisation")
        return found

    def _unknown(self, number, key, value, ref, log, task):
        """Say that ``key`` (line ``number``) is none of the reference's (ignored), with the closest key, or that the
        first line looks like a header."""
        kind, unit = "unknown key", unit_of(task)
        hint = ""
        if not log.count(kind):   # the did-you-mean of the first one only (the others are counted)
            folded = ref.folded().get(unicodedata.normalize("NFC", key).lower())
            close = [folded] if folded else difflib.get_close_matches(key[:100], ref.keys, n=1, cutoff=0.75)
            if close:
                hint = " Did you mean %s%s?" % (quoted(close[0], 80), " (letter case differs: keys are matched "
                                                "exactly)" if folded else "")
            elif number == 1 and self.read_quietly(value, task, ref) is None:
                hint = " A header line? The file holds no header: one key<TAB>value line per %s." % unit
        log.add(WARNING, "line %d" % number, "the key %s is not a %s of the reference (ignored).%s"
                % (quoted(key, 80), unit, hint), kind=kind)

    def read_quietly(self, value, task, ref):
        """The value ``value`` reads as, or None (nothing said)."""
        raise NotImplementedError

    def without_value(self, count):
        """What ``count`` items without a valid value become (a phrase after their subject)."""
        raise NotImplementedError

    def restrict(self, ref, pred, indices):
        """The items ``indices`` alone."""
        part = ValueReference([ref.keys[i] for i in indices], [ref.golds[i] for i in indices],
                              [ref.lines[i] for i in indices], ref.size)
        return part, [pred[i] for i in indices]

    def predictions(self, ref, pred):
        """Each item's value (None: no valid value)."""
        return list(pred)

    def scorable(self, ref):
        """Every item is scored."""
        return list(range(len(ref)))

    def score_value(self, components):
        """The entry score: the first component, the task's official metric."""
        return next(iter(components.values())) if components else 0.0

    def trivial_prediction(self, data, name):
        """A content-free submission for reference bytes ``data`` (what ``make check`` submits without a baseline, and
        the leak audit beside it): every key, without a value."""
        return "".join(self.items.key(item, None) + "\n" for item in self.items.read(data)).encode("utf-8")

    def gold_prediction(self, data, task, lang):
        """The submission file that predicts the gold of reference bytes ``data`` (the conformance check's perfect
        submission): the reference's own lines, each ``key<TAB>gold``."""
        return "".join("\t".join(field.strip() for field in line.split("\t")) + "\n"
                       for line in self.items.read(data)).encode("utf-8")


def _components(task, values):
    """``values`` (``{component: function}``) computed for the task's components, its metric first."""
    names = [task.metric] + [c for c in task.components if c != task.metric]
    return OrderedDict((name, values[name]()) for name in names)


class ItemLabelsKind(ValueKind):
    """Classification: one label per item, accuracy and macro-F1 over the file's items."""

    name = "item_labels"
    items = ValueItems(_other_label)
    release = ValueRelease(numeric=False)
    label_swaps = True
    floor_causes = ("labels swapped between two classes throughout (the system's label ids mapped to the wrong "
                    "names), predictions made for another file, a constant label")

    def read_gold(self, value, task, lang):
        """A label of the task's set."""
        labels = label_set(task, lang)
        if labels and value not in labels:
            raise ValueError("expected one of %s, got %s" % (", ".join(labels), quoted(value, 40)))
        return value

    def read_quietly(self, value, task, ref):
        labels = label_set(task, ref.lang)
        return value if value in labels or (not labels and value) else None

    def without_value(self, count):
        return "counts as wrong" if count == 1 else "each count as wrong"

    def read_value(self, value, key, number, log, task, ref):
        """The label, or None after saying why it is not one of the set."""
        labels = label_set(task, ref.lang)
        if value in labels or (not labels and value):
            return value
        guess = guess_label(value, labels, getattr(task, "label_aliases", None))
        number_guess = [label for label in labels if parse_number(label)[0] is not None
                        and parse_number(label)[0] == parse_number(value)[0]]
        guess = number_guess[0] if number_guess else guess
        log.add(ERROR, "line %d" % number, "the label %s of %s is not one of %s%s: the %s counts as wrong" % (
            quoted(value, 40), quoted(key, 40), ", ".join(labels), " (did you mean %s?)" % quoted(guess, 40)
            if guess else "", unit_of(task)), kind="label outside the set")
        return None

    def check_values(self, pred, lines, log, task, ref):
        """A constant prediction (every item one label) on a file of at least :data:`CONSTANT_MIN_ITEMS` items."""
        given = [p for p in pred if p is not None]
        if len(given) >= CONSTANT_MIN_ITEMS and len(given) == len(pred) and given.count(given[0]) == len(given):
            log.add(WARNING, "line %d" % lines[0][0], "every one of the %s is labelled %s: a constant prediction (a "
                    "model collapsed to one class, or one default written on every line) scores as a majority "
                    "baseline at best, and its macro-F1 is low. Check that the system's predictions were written"
                    % (_plural(len(given), unit_of(task)), quoted(given[0], 40)), kind="constant prediction")

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        ref = ValueKind.parse_reference_text(self, data, name, task, lang, redacted)
        ref.lang = lang
        return ref

    def restrict(self, ref, pred, indices):
        part, pred = ValueKind.restrict(self, ref, pred, indices)
        part.lang = getattr(ref, "lang", None)
        return part, pred

    def score(self, ref, pred, task):
        """Accuracy and macro-F1 (``task.metric`` first) from the per-item counts of :func:`label_statistics`."""
        labels = label_set(task, ref.lang) or sorted(set(gold for gold in ref.golds if gold is not None))
        stats = label_statistics(ref.golds, pred, labels)
        sums = dict((name, sum(values)) for name, values in stats.items())
        invalid = sum(1 for p in pred if p is None)
        per_tag = dict((label, {"tp": sums["tp:" + label], "fp": sums["predicted:" + label] - sums["tp:" + label],
                                "fn": sums["gold:" + label] - sums["tp:" + label]}) for label in labels)
        return Entry(self.from_sums(sums, len(ref), task), {}, len(ref), len(ref), len(ref), invalid,
                     {"per_tag": per_tag}, per_sentence=stats)

    resampling = "sums"

    def from_sums(self, sums, count, task):
        """The components from the sums of the per-item counts over ``count`` items (numbers or numpy arrays)."""
        labels = [name[len("tp:"):] for name in sums if name.startswith("tp:")]
        return _components(task, {
            "acc": lambda: metrics.ratio(sums["correct"], sums["items"]),
            "macro_f1": lambda: metrics.macro_f1_from_counts(
                [(sums["tp:" + label], sums["predicted:" + label], sums["gold:" + label]) for label in labels])})


def label_statistics(golds, pred, labels):
    """``{statistic: [count per item]}``: ``items`` (1 each), ``correct``, and per label of ``labels``
    ``tp:<label>``, ``predicted:<label>``, ``gold:<label>`` (a prediction outside the set, None, counts for no label).

    >>> dict(label_statistics(["a", "b"], ["a", None], ["a", "b"]))["gold:b"]
    [0, 1]
    """
    stats = OrderedDict([("items", [1] * len(golds)), ("correct", [])])
    for label in labels:
        for what in ("tp", "predicted", "gold"):
            stats["%s:%s" % (what, label)] = []
    for gold, guess in zip_checked(golds, pred):
        stats["correct"].append(int(gold == guess))
        for label in labels:
            stats["tp:" + label].append(int(gold == guess == label))
            stats["predicted:" + label].append(int(guess == label))
            stats["gold:" + label].append(int(gold == label))
    return stats


class ItemValuesKind(ValueKind):
    """Graded values: one number per item, Spearman's and Pearson's correlation with the gold over the file."""

    name = "item_values"
    items = ValueItems(_other_number)
    release = ValueRelease(numeric=True)
    resampling = "items"
    #: What :meth:`from_items` computes, by name (the final ranking resamples these metrics of evalkit.metrics in
    #: numpy, after checking that they give from_items on the file itself).
    item_metrics = {"spearman": ("spearman", ("gold", "pred")), "pearson": ("pearson", ("gold", "pred"))}
    floor_causes = ("values in reversed order (higher written for less), predictions made for another file or in "
                    "another order of the keys, a constant prediction")

    def read_gold(self, value, task, lang):
        """A finite decimal number."""
        number, why = parse_number(value)
        if number is None:
            raise ValueError("%s %s: expected a decimal number" % (quoted(value, 40), why))
        return number

    def read_quietly(self, value, task, ref):
        return parse_number(value)[0]

    def without_value(self, count):
        return "%s scored as the mean of the file's valid values, which says nothing of %s" % (
            "is" if count == 1 else "are each", "it" if count == 1 else "them")

    def read_value(self, value, key, number, log, task, ref):
        """The number, or None after saying why it is not one."""
        found, why = parse_number(value)
        if found is None:
            log.add(ERROR, "line %d" % number, "the value %s of %s %s (expected a decimal number such as 0.25): "
                    "the %s %s" % (quoted(value, 40), quoted(key, 40), why, unit_of(task), self.without_value(1)),
                    kind="value with a decimal comma" if "comma" in why else "value that " + why)
        return found

    def check_values(self, pred, lines, log, task, ref):
        """A constant prediction (its correlation is undefined: an error that says the file scores 0), and values
        that are all 0 or 1 (labels of a classification, where graded values are expected: a warning)."""
        given = [p for p in pred if p is not None]
        if not given:
            return
        unit = unit_of(task)
        if min(given) == max(given) and len(ref) > 1:
            log.add(ERROR, "line %d" % lines[0][0], "every valid value is %s%s: the correlation of a constant "
                    "prediction with the gold is undefined, and scores 0 (%s). Check that the system's values "
                    "were written" % (repr(given[0]), "" if len(given) == len(pred) else " (and the %s without "
                                      "one are given the mean)" % _plural(len(pred) - len(given), unit), ZERO_NOTE),
                    kind="constant prediction")
        elif len(given) >= CONSTANT_MIN_ITEMS and set(given) <= {0.0, 1.0}:
            log.add(WARNING, "line %d" % lines[0][0], "every value is 0 or 1: binary labels where graded values are "
                    "expected (another subtask's file?). They rank the %ss in two tied groups only" % unit,
                    kind="binary values")

    def score(self, ref, pred, task):
        """Spearman and Pearson (``task.metric`` first) over the items, an item without a valid value given the
        mean of the valid values; ``per_sentence``: each item's ``gold`` and ``pred`` (what :meth:`from_items`
        recomputes the components from)."""
        given = [p for p in pred if p is not None]
        fill = sum(given) / len(given) if given else 0.0
        values = OrderedDict([("gold", list(ref.golds)), ("pred", [fill if p is None else p for p in pred])])
        invalid = len(pred) - len(given)
        return Entry(self.from_items(values, task), {}, len(ref), len(ref), len(ref), invalid, {},
                     per_sentence=values)

    def from_items(self, values, task):
        """The components from each item's ``gold`` and ``pred`` (lists; a resample of the file's items)."""
        return _components(task, {"spearman": lambda: metrics.spearman(values["gold"], values["pred"]),
                                  "pearson": lambda: metrics.pearson(values["gold"], values["pred"])})


KINDS = OrderedDict((kind.name, kind) for kind in (ItemLabelsKind(), ItemValuesKind()))
