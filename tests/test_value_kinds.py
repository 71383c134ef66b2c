"""The value kinds (evalkit/values.py: one ``key<TAB>value`` line per item): their metrics against scipy and
scikit-learn as oracles, every class of message (located, with its did-you-mean), the report's wording (items, a
negative correlation shown as it is), and the floor warning on few items or on a file with errors (issue 31)."""
import doctest
import json
import os
import random
from collections import OrderedDict

import pytest
from hypothesis import assume, given, settings, strategies as st

from evalkit import floor, kindspec, metrics, scoring, values
from evalkit.declare import ValueTask
from evalkit.messages import ZERO_NOTE, MessageLog

scipy_stats = pytest.importorskip("scipy.stats")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


class Declared(object):
    """A competition of two value tasks over two languages (SemEval-2020 Task 1's shape: binary and graded change)."""
    COMPETITION_ID = "valuetest"
    TITLE = "Value kinds"
    METRICS_VERSION = "1"
    LANGUAGES = OrderedDict([("en", ("English",)), ("de", ("German",))])
    TASKS = (ValueTask("binary", "Binary change", "item_labels", ("acc", "macro_f1"), tuple(LANGUAGES),
                       labels=("0", "1"), unit="word"),
             ValueTask("graded", "Graded change", "item_values", ("spearman", "pearson"), tuple(LANGUAGES),
                       unit="word"))
    TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)
    SUBMISSION_FILE = "{task}_{lang}.txt"
    REFERENCE_FILE = "{task}_{lang}.tsv"
    SUBTASKS = OrderedDict([("valuetest", {"title": TITLE, "tasks": ("binary", "graded"),
                                           "languages": tuple(LANGUAGES)})])
    MAX_FILE_BYTES = 1 << 20
    MAX_UPLOAD_BYTES = 1 << 22
    MAX_MEMBERS = 20
    SIGNATURE_OPTIONS = "values"


BINARY, GRADED = Declared.TASKS
WORDS = ["abbau", "bit", "circle", "drift", "edge", "fiction", "graft", "head", "ball", "lass", "tip", "plane"]


def write(folder, files):
    """Write ``{name: text}`` into ``folder``; return it."""
    os.makedirs(str(folder), exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(str(folder), name), "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    return str(folder)


def lines(pairs):
    return "".join("%s\t%s\n" % pair for pair in pairs)


def reference(tmp_path, golds=None):
    """A reference folder: the English files of both tasks over :data:`WORDS`."""
    rng = random.Random(7)
    graded = golds or [round(rng.random(), 4) for _ in WORDS]
    return write(tmp_path / "ref", {"binary_en.tsv": lines((w, int(g > 0.5)) for w, g in zip(WORDS, graded)),
                                    "graded_en.tsv": lines(zip(WORDS, graded))})


def evaluate(tmp_path, files, golds=None):
    """The report of the submission ``files`` (``{name: text}``) against :func:`reference`."""
    ref = reference(tmp_path, golds)
    return scoring.evaluate(Declared, ref, write(tmp_path / "sub", files))


def said(report, file_name=None):
    """``[(severity, where, text)]`` of the report's messages (of one file)."""
    return [(m["severity"], m["where"], m["text"]) for m in report["messages"]
            if file_name is None or m["file"] == file_name]


# --------------------------------------------------------------------------- the metrics against the oracles

def test_the_worked_examples_run():
    for module in (metrics, values):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


NUMBERS = st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, -1.0]), min_size=2, max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_spearman_and_pearson_equal_scipy_ties_included(data):
    gold = data.draw(NUMBERS)
    pred = data.draw(st.lists(st.sampled_from([0.0, 0.3, 0.5, 0.9, 1.0, -0.2]), min_size=len(gold),
                              max_size=len(gold)))
    assert metrics.average_ranks(gold) == list(scipy_stats.rankdata(gold))
    if min(gold) == max(gold) or min(pred) == max(pred):   # undefined: scipy says nan, the kit 0.0
        assert metrics.spearman(gold, pred) == 0.0 and metrics.pearson(gold, pred) == 0.0
        return
    assert metrics.spearman(gold, pred) == pytest.approx(scipy_stats.spearmanr(gold, pred)[0], abs=1e-12)
    assert metrics.pearson(gold, pred) == pytest.approx(scipy_stats.pearsonr(gold, pred)[0], abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-1e3, 1e3, allow_nan=False), st.floats(-1e3, 1e3, allow_nan=False)),
                min_size=3, max_size=60))
def test_the_item_values_kind_scores_as_scipy_on_any_numbers(pairs):
    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    assume(len(set(gold)) > 1 and len(set(pred)) > 1)
    assume(scipy_stats.tstd(gold) > 1e-6 and scipy_stats.tstd(pred) > 1e-6)   # far from constant: a stable oracle
    ref = values.ValueReference(["w%d" % i for i in range(len(gold))], gold, list(range(len(gold))), 0)
    entry = values.KINDS["item_values"].score(ref, pred, GRADED)
    assert entry.components["spearman"] == pytest.approx(scipy_stats.spearmanr(gold, pred)[0], abs=1e-9)
    assert entry.components["pearson"] == pytest.approx(scipy_stats.pearsonr(gold, pred)[0], abs=1e-9)
    assert list(entry.components) == ["spearman", "pearson"] and entry.per_sentence["pred"] == pred


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc")), min_size=1, max_size=40))
def test_the_item_labels_kind_scores_as_scikit_learn(pairs):
    task = ValueTask("cls", "Classes", "item_labels", ("macro_f1", "acc"), ("xx",), labels=("a", "b", "c"))
    gold = [g for g, _ in pairs]
    pred = [p for _, p in pairs]
    ref = values.ValueReference(["w%d" % i for i in range(len(gold))], gold, list(range(len(gold))), 0)
    ref.lang = "xx"
    entry = values.KINDS["item_labels"].score(ref, pred, task)
    assert entry.components["acc"] == pytest.approx(sklearn_metrics.accuracy_score(gold, pred), abs=1e-12)
    assert entry.components["macro_f1"] == pytest.approx(
        sklearn_metrics.f1_score(gold, pred, average="macro", zero_division=0), abs=1e-12)
    assert list(entry.components) == ["macro_f1", "acc"]   # the task's metric first: the entry score
    sums = dict((name, sum(column)) for name, column in entry.per_sentence.items())
    assert values.KINDS["item_labels"].from_sums(sums, len(gold), task) == entry.components


def test_a_negative_correlation_stays_negative_and_a_constant_one_scores_0():
    assert metrics.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert metrics.pearson([1, 2, 3, 4], [4, 3, 1, 2]) < 0
    assert metrics.spearman([1, 2, 3], [0.5, 0.5, 0.5]) == 0.0 and metrics.pearson([7], [1]) == 0.0
    with pytest.raises(ValueError):
        metrics.spearman([1, 2], [1])


# --------------------------------------------------------------------------- files and messages

def test_a_perfect_submission_scores_1_and_says_nothing(tmp_path):
    ref = reference(tmp_path)
    files = {}
    for task in Declared.TASKS:
        kind = scoring.KINDS[task.kind]
        with open(os.path.join(ref, "%s_en.tsv" % task.key), "rb") as handle:
            files["%s_en.txt" % task.key] = kind.gold_prediction(handle.read(), task, "en").decode("utf-8")
    report = scoring.evaluate(Declared, ref, write(tmp_path / "sub", files))
    assert report["scores"]["avg_score"] == 1.0 and report["messages"] == []
    assert report["scores"]["en_graded_spearman"] == 1.0 and report["scores"]["en_binary_macro_f1"] == 1.0


def test_every_class_of_mistake_is_said_with_its_line_and_what_was_expected(tmp_path):
    graded = ["abbau\t0.3\n", "bit\t0.2\n", "bit\t0.9\n", "Circle\t0.5\n", "drift\thigh\n", "edge\t0,5\n",
              "fiction 0.4\n", "graft\n", "head\tnan\n", "lass\t0.1\textra\n", "tip\t0.8\n", "plain\t0.7\n",
              "nonsense line\n"]
    binary = ["abbau\t1\n", "bit\t1.0\n", "circle\tyes\n", "drift\t0\n"]
    report = evaluate(tmp_path, {"graded_en.txt": "".join(graded), "binary_en.txt": "".join(binary)})
    text = "\n".join("%s %s: %s" % m for m in said(report, "graded_en.txt"))
    for expected in (
            "warning line 3: the key 'bit' is given again (first on line 2): the first line is scored, this one ignored",
            "warning line 4: the key 'Circle' is not a word of the reference (ignored). Did you mean 'circle' (letter "
            "case differs: keys are matched exactly)?",
            "error line 5: the value 'high' of 'drift' is not a number (expected a decimal number such as 0.25): the word "
            "is scored as the mean of the file's valid values, which says nothing of it",
            "error line 8: the word 'graft' has no value (expected key<TAB>value): it is scored as the mean",
            "warning line 7: the key and the value are separated by spaces, not a tab: read as 'fiction' and '0.4'",
            "warning line 10: 3 tab-separated fields, expected key<TAB>value: the first is read as the key and the last",
            "error line 13: expected key<TAB>value, got 'nonsense line' (no tab)",
            "error whole file: 3 of the 12 words of the reference have no line (first: 'circle', 'ball', 'plane'): they "
            "are each scored as the mean"):
        assert expected in text, (expected, text)
    assert "'0,5' of 'edge' is not a number (a decimal comma? write 0.5)" in text
    assert "'nan' of 'head' is not a finite number" in text
    assert "[2 in this file: unknown key; first at line 4; line 12]" in text   # 'plain': counted with the first
    assert "well-formed" not in json.dumps(report)
    labels = "\n".join("%s %s: %s" % m for m in said(report, "binary_en.txt"))
    assert "error line 2: the label '1.0' of 'bit' is not one of 0, 1 (did you mean '1'?): the word counts as wrong" \
        in labels
    assert "[2 in this file: label outside the set; first at line 2; line 3]" in labels   # 'yes': counted
    assert "8 of the 12 words of the reference have no line (first: 'edge', 'fiction', 'graft'): they each count " \
           "as wrong" in labels
    entry = dict(((e["task"], e["lang"]), e) for e in report["entries"])[("binary", "en")]
    assert entry["zeroed_sentences"] == 10 and entry["sentences"] == 12
    report = evaluate(tmp_path / "b", {"graded_en.txt": "plain\t0.7\n" + lines((w, 0.5) for w in WORDS[:3])})
    assert any("the key 'plain' is not a word of the reference (ignored). Did you mean 'plane'?" in text
               for _, _, text in said(report, "graded_en.txt"))


def test_a_file_for_another_split_and_a_header_and_another_normalisation(tmp_path):
    report = evaluate(tmp_path, {"graded_en.txt": lines([("zebra", 0.1), ("yak", 0.2)]),
                                 "binary_en.txt": "word\tlabel\n" + lines((w, 1) for w in WORDS[:6])})
    graded = said(report, "graded_en.txt")
    assert graded[0][0] == "error" and "none of the 2 keys of the file is a key of the reference (first: 'zebra', " \
        "'yak'; the reference's first: 'abbau', 'bit', 'circle'): predictions for another file or split? (%s)" \
        % ZERO_NOTE in graded[0][2]
    binary = said(report, "binary_en.txt")
    assert ("warning", "line 1", "the key 'word' is not a word of the reference (ignored). A header line? The file "
            "holds no header: one key<TAB>value line per word.") in binary


def test_a_word_in_another_unicode_normalisation_is_matched_with_a_warning(tmp_path):
    ref = write(tmp_path / "ref", {"graded_en.tsv": "\u00e7a\t0.5\nb\t0.1\nc\t0.9\n"})
    report = scoring.evaluate(Declared, ref, write(tmp_path / "sub", {"graded_en.txt": "c\u0327a\t1\nb\t0\nc\t2\n"}))
    assert report["scores"]["en_graded_spearman"] == 1.0
    assert [m[0] for m in said(report)] == ["warning"] and "another Unicode normalisation" in said(report)[0][2]


def test_constant_and_binary_predictions_are_said_before_they_are_scored(tmp_path):
    report = evaluate(tmp_path, {"graded_en.txt": lines((w, 0.5) for w in WORDS),
                                 "binary_en.txt": lines((w, "0") for w in WORDS)})
    graded = said(report, "graded_en.txt")
    assert graded == [("error", "line 1", "every valid value is 0.5: the correlation of a constant prediction with the "
                       "gold is undefined, and scores 0 (%s). Check that the system's values were written" % ZERO_NOTE)]
    assert report["scores"]["en_graded"] == 0.0
    binary = said(report, "binary_en.txt")
    assert len(binary) == 1 and binary[0][0] == "warning" and "every one of the 12 words is labelled '0': a constant " \
        "prediction" in binary[0][2]
    report = evaluate(tmp_path / "b", {"graded_en.txt": lines((w, i % 2) for i, w in enumerate(WORDS))})
    assert any("every value is 0 or 1: binary labels where graded values are expected" in m[2] for m in said(report))
    report = evaluate(tmp_path / "c", {"graded_en.txt": lines((w, "NaN") for w in WORDS)})
    assert said(report, "graded_en.txt")[-1] == ("error", "whole file", "not one of the 12 words of the reference has "
                                                 "a valid value (see the errors above): %s" % ZERO_NOTE)
    assert "[12 in this file: value that is not a finite number" in said(report, "graded_en.txt")[0][2]


def test_the_report_speaks_of_items_and_shows_a_negative_correlation_as_it_is(tmp_path):
    golds = [i / 10.0 for i in range(len(WORDS))]
    reversed_values = lines((w, 1.0 - g) for w, g in zip(WORDS, golds))
    ref = reference(tmp_path, golds)
    out = str(tmp_path / "out")
    from evalkit import cli
    status = cli.main(Declared, ["--ref", ref, "--submission", write(tmp_path / "sub", {"graded_en.txt":
                                                                                          reversed_values}),
                                 "--out", out])
    assert status == 0
    with open(os.path.join(out, "scores.json")) as handle:
        scores = json.load(handle)
    assert scores["en_graded_spearman"] == -1.0 and scores["en_graded"] == -1.0
    with open(os.path.join(out, "detailed_results.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "sentence-averaged" not in page and "mean over sentences" not in page
    assert "Official (over the file&#x27;s items)" in page and "Spearman&#x27;s rho" in page
    assert "Bars are clipped to [-1, 1]" in page


def test_a_reference_refuses_a_key_twice_a_bad_gold_and_a_label_outside_the_set():
    kind = values.KINDS["item_values"]
    for data, said_text in ((b"a\t0.1\na\t0.2\n", "line 2: the key 'a' is given twice (lines 1 and 2)"),
                            (b"a\t0.1\nb\tx\n", "line 2: the gold of 'b': 'x' is not a number: expected a decimal"),
                            (b"a\n", "line 1: expected key<TAB>value, got 'a'"), (b"\n\n", "the file is empty")):
        with pytest.raises(Exception) as caught:
            kind.parse_reference_text(data, "ref.tsv", GRADED, "en")
        assert said_text in str(caught.value), str(caught.value)
    assert len(kind.parse_reference_text(b"a\nb\t0.5\n", "ref.tsv", GRADED, "en", redacted=True)) == 2
    with pytest.raises(Exception) as caught:
        values.KINDS["item_labels"].parse_reference_text(b"a\t2\n", "ref.tsv", BINARY, "en")
    assert "expected one of 0, 1, got '2'" in str(caught.value)
    with pytest.raises(ValueError):
        ValueTask("x", "X", "item_labels", ("acc",), ("en",))   # an item_labels task declares its labels


def test_the_value_kinds_are_whole_kinds():
    for kind in values.KINDS.values():
        assert kindspec.missing_parts(kind) == [] and scoring.KINDS[kind.name] is kind
    assert kindspec.resampling(values.KINDS["item_values"]) == "items"
    assert kindspec.resampling(values.KINDS["item_labels"]) == "sums"


def test_the_item_side_round_trips_and_scrambles_every_gold():
    items = values.KINDS["item_values"].items
    data = b"a\t0.25\nb\t0.5\n"
    read = items.read(data)
    assert items.write(read, data) == data and items.redact(read[0], GRADED) == "a"
    assert items.gold(read[0], GRADED) == ["0.25"] and items.gold("a", GRADED) == []
    assert items.public_texts(read[1], GRADED) == ["b 0.5"] and items.label(1, read[1]) == "item 2 ('b')"
    assert items.scramble(data, GRADED, "en") == b"a\t0.75\nb\t0.5\n"   # 1 - value: 0.5 stays, the rest changes
    labels = values.KINDS["item_labels"].items
    assert labels.scramble(b"a\t0\nb\t1\n", BINARY, "en") == b"a\t1\nb\t0\n"
    assert values.KINDS["item_values"].trivial_prediction(data, "ref") == b"a\nb\n"


# --------------------------------------------------------------------------- the floor on few items

def floor_entry(items, score=0.0):
    return {"task": "graded", "lang": "en", "file": "graded_en.txt", "status": "scored", "score": score,
            "sentences": items}


def test_the_floor_says_how_little_it_can_tell_on_few_items_and_never_calls_an_invalid_file_well_formed():
    tasks = {"graded": GRADED}
    few = floor.below_floor([floor_entry(10)], {"graded/en": 0.0}, "floor", tasks, scoring.KINDS)[0].text
    assert "On 10 items this tells little" in few and "systematic mistake" not in few.split("(at least")[0]
    many = floor.below_floor([floor_entry(500, -0.2)], {"graded/en": 0.0}, "floor", tasks, scoring.KINDS)[0].text
    assert "scores -0.2000, below the floor" in many and "almost always holds a systematic mistake" in many
    assert "values in reversed order" in many
    invalid = floor.below_floor([dict(floor_entry(500), zeroed_sentences=500)], {"graded/en": 0.0}, "floor", tasks,
                                scoring.KINDS)[0].text
    assert "well-formed" not in invalid and "500 of its 500 items are not scored as submitted (their errors are " \
        "reported), the first cause" in invalid
    lines_kind = {"ner": type("T", (), {"kind": "token_labels", "label": "NER"})()}
    entry = dict(floor_entry(5), task="ner")
    kept = floor.below_floor([entry], {"ner/en": 0.0}, "floor", lines_kind, scoring.KINDS)[0].text
    assert "a well-formed file that does no better almost always holds a systematic mistake" in kept   # unchanged
