"""The conformance check of ``make check`` (organiser/conformance.py, issue 31): a whole kind passes its four checks,
and a kind broken in one part fails the check of that part, named with the part."""
import os
import random
from collections import OrderedDict

import pytest

from evalkit import metrics, values
from evalkit.declare import ValueTask
from organiser import conformance, split


class KeptGold(values.ValueItems):
    """Redaction that keeps the gold (a broken items.redact)."""

    def redact(self, item, task):
        return item


class HiddenTexts(values.ValueItems):
    """Public texts that no file holds (a broken items.public_texts: the audit cannot find the item)."""

    def public_texts(self, item, task):
        return ["gold of %s" % item] if "\t" in item else []


class WrongScore(values.ItemValuesKind):
    """A score that is not what from_items recomputes (Pearson where from_items gives Spearman)."""

    name = "test_wrong_score"

    def score(self, ref, pred, task):
        entry = values.ItemValuesKind.score(self, ref, pred, task)
        entry.components["spearman"] = metrics.pearson(entry.per_sentence["gold"], entry.per_sentence["pred"])
        return entry


class KeepsGold(values.ItemValuesKind):
    name = "test_keeps_gold"
    items = KeptGold(values._other_number)


class Hidden(values.ItemValuesKind):
    name = "test_hidden_texts"
    items = HiddenTexts(values._other_number)


class ReversedGold(values.ItemValuesKind):
    """Its gold_prediction writes every value negated."""

    name = "test_reversed_gold"

    def gold_prediction(self, data, task, lang):
        return "".join("%s\t%r\n" % (line.split("\t")[0], -float(line.split("\t")[1]))
                       for line in self.items.read(data)).encode("utf-8")


class NoGoldPrediction(values.ItemValuesKind):
    name = "test_no_gold_prediction"
    gold_prediction = None


KINDS = (WrongScore(), KeepsGold(), Hidden(), ReversedGold(), NoGoldPrediction())


class Declared(object):
    COMPETITION_ID = "conformancetest"
    TITLE = "Conformance"
    METRICS_VERSION = "1"
    LANGUAGES = OrderedDict([("en", ("English",))])
    KINDS = KINDS
    TASKS = tuple(ValueTask(key, key, kind, ("spearman", "pearson"), ("en",)) for key, kind in (
        ("whole", "item_values"), ("score", WrongScore.name), ("redact", KeepsGold.name),
        ("texts", Hidden.name), ("gold", ReversedGold.name), ("none", NoGoldPrediction.name)))
    TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)
    SUBMISSION_FILE = "{task}_{lang}.txt"
    REFERENCE_FILE = "{task}_{lang}.tsv"
    SUBTASKS = OrderedDict([("conformancetest", {"title": "C", "tasks": tuple(TASKS_BY_FOLDER), "languages": ("en",)})])
    MAX_FILE_BYTES = 1 << 20
    MAX_UPLOAD_BYTES = 1 << 22
    MAX_MEMBERS = 20
    SIGNATURE_OPTIONS = "c"
    REPORT_NOTES = {"unit": "items"}


def reference_folder(folder, seed):
    """Every task's file of 30 made-up words and values in ``folder``."""
    rng = random.Random(seed)
    os.makedirs(folder)
    for task in Declared.TASKS:
        with open(os.path.join(folder, "%s_en.tsv" % task.key), "w", encoding="utf-8") as handle:
            handle.write("".join("w%d_%d\t%.4f\n" % (seed, i, rng.random()) for i in range(30)))


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """The conformance check of a build whose test gold is split public/private: ``{kind name: (findings, line)}``."""
    from evalkit import kindspec
    kindspec.use(Declared)
    ref = str(tmp_path_factory.mktemp("conformance") / "ref")
    reference_folder(os.path.join(ref, "dev"), 1)
    reference_folder(os.path.join(ref, "full"), 2)
    split.split_phase(os.path.join(ref, "full"), Declared, "public_private", 0.3, "seed",
                      os.path.join(ref, "test"), os.path.join(ref, "private", "test"))
    baseline = str(tmp_path_factory.mktemp("baseline"))   # a system's predictions: noisy values of the dev words
    rng = random.Random(3)
    for task in Declared.TASKS:
        with open(os.path.join(ref, "dev", "%s_en.tsv" % task.key), encoding="utf-8") as source, \
                open(os.path.join(baseline, "%s_en.txt" % task.key), "w", encoding="utf-8") as handle:
            for line in source:
                word, value = line.split("\t")
                handle.write("%s\t%.4f\n" % (word, float(value) + rng.gauss(0, 0.3)))
    found = conformance.check_build(Declared, str(tmp_path_factory.mktemp("dist")), {"reference": ref}, [baseline])
    by_kind = {}
    for line in found.lines:
        name = line.split("kind ", 1)[1].split(" ", 1)[0]
        by_kind[name] = ([f for f in found.findings if f.where == "kind %s" % name], line)
    return by_kind


def test_a_whole_kind_passes_its_four_checks(checked):
    findings, line = checked["item_values"]
    assert findings == []
    for said in ("perfect submission: 1 file(s), every one 1", "split round trip: 1 file(s), 30 items, no public gold "
                 "lost", "planted in an uploaded test reference, found", "recompute: 2 entries, from_items equals the "
                 "scorer"):
        assert said in line, line


@pytest.mark.parametrize("kind, rule, part", [
    (WrongScore.name, "conformance.recompute", "from_items of the per-item values gives"),
    (KeepsGold.name, "conformance.split", "keeps its gold once redacted (items.redact)"),
    (Hidden.name, "conformance.audit", "is not found by the leak audit (items.public_texts"),
    (ReversedGold.name, "conformance.perfect", "the gold written as a prediction (gold_prediction) does not score 1"),
])
def test_a_kind_broken_in_one_part_fails_that_check_naming_the_part(checked, kind, rule, part):
    findings, line = checked[kind]
    assert [f.rule for f in findings] == [rule], (line, [f.text for f in findings])
    assert part in findings[0].text and findings[0].where == "kind %s" % kind


def test_a_kind_without_a_gold_prediction_is_noted_not_failed(checked):
    findings, line = checked[NoGoldPrediction.name]
    assert findings == [] and "perfect submission: not checked (the kind has no gold_prediction part)" in line


def test_a_build_without_a_development_reference_has_nothing_to_check(tmp_path):
    found = conformance.check_build(Declared, str(tmp_path), {"reference": str(tmp_path / "none")})
    assert found.findings == [] and "nothing to check" in found.lines[0]
