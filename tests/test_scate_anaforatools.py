"""SCATE's entity identification and composition against an independent oracle: the Anafora project's own
evaluator (anaforatools 1.2.0, ``anafora.evaluate.score_data``; tests only, pinned in requirements-dev.txt).

Both count sets (SemEval 2018 Task 6: S and H are sets of annotations, equal when span, type and properties
are, recursively). Systems are built from the gold (and the starting kit's baseline) of the synthetic sample and,
when ../shared/scate is present, of AQUAINT and TimeBank: the gold itself, the baseline, shifted spans, retyped
entities, duplicated entities, dropped properties. Identification agrees exactly everywhere. Composition agrees
exactly once the two documented differences of anaforatools are applied to our side (docs/metric_cards.md):
it keeps one value per property name (the last) and drops a property that names an excluded entity (Event,
PreAnnotation, NotNormalizable); the scorer keeps every value and compares such a linked entity too.

    .venv/bin/python tests/test_scate_anaforatools.py     # prints the agreement table
"""
import copy
import os
import sys
import xml.etree.ElementTree as ElementTree

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KIT = os.path.join(ROOT, "competitions", "scate", "starting_kit")
for _path in (os.path.join(ROOT, "scoring_program"), KIT):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import scate_baseline  # noqa: E402
import scate_data  # noqa: E402
from evalkit.timenorm import metrics  # noqa: E402
from evalkit.timenorm.anafora import Document, Entity, read_anafora  # noqa: E402
from evalkit.timenorm.kind import ENTITY_SKIP  # noqa: E402

SAMPLE = os.path.join(ROOT, "competitions", "scate", "sample_data")
SCATE_SHARED = os.environ.get("SCATE_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "scate"))
#: (label, data folder, split): the full-gold splits of scate_data (dev = AQUAINT, train = TimeBank).
CORPORA = [("sample AQUAINT", SAMPLE, "dev"), ("sample TimeBank", SAMPLE, "train"),
           ("AQUAINT", SCATE_SHARED, "dev"), ("TimeBank", SCATE_SHARED, "train")]
OTHER_TYPES = ("Year", "Month-Of-Year", "Day-Of-Week", "Calendar-Interval", "Period", "This", "Last")


# ------------------------------------------------------------------ systems built from the gold

def _entities(root):
    return [e for a in root.findall("annotations") for e in a.findall("entity")]


def _variant(gold_xml, change):
    """The gold XML with ``change(index, entity element, annotations element)`` applied to every entity."""
    root = ElementTree.fromstring(gold_xml)
    for annotations in root.findall("annotations"):
        for index, entity in enumerate(list(annotations.findall("entity"))):
            change(index, entity, annotations)
    return ElementTree.tostring(root)


def shifted(gold_xml, text):
    """Every second entity's spans moved one character right (inside the text)."""
    def change(index, entity, _):
        if index % 2 == 0 and entity.find("span") is not None:
            spans = [tuple(int(x) for x in part.split(",")) for part in entity.find("span").text.split(";")]
            entity.find("span").text = ";".join("%d,%d" % (min(s + 1, len(text)), min(e + 1, len(text)))
                                                for s, e in spans)
    return _variant(gold_xml, change)


def retyped(gold_xml, text):
    """Every third entity of a scored type gets another scored type."""
    def change(index, entity, _):
        kind = entity.findtext("type")
        if index % 3 == 0 and kind not in ENTITY_SKIP:
            entity.find("type").text = next(t for t in OTHER_TYPES if t != kind)
    return _variant(gold_xml, change)


def duplicated(gold_xml, text):
    """Every entity twice (the copy with a new id, its properties naming the same entities); every fifth one
    five times more."""
    def change(index, entity, annotations):
        for copy_index in range(1 if index % 5 else 6):
            twin = copy.deepcopy(entity)
            twin.find("id").text = "%s-copy%d" % (entity.findtext("id"), copy_index)
            annotations.append(twin)
    return _variant(gold_xml, change)


def dropped(gold_xml, text):
    """Every second entity loses its first property."""
    def change(index, entity, _):
        properties = entity.find("properties")
        if index % 2 == 1 and properties is not None and len(properties):
            properties.remove(properties[0])
    return _variant(gold_xml, change)


def systems(data, split):
    """``{system: [(gold XML, system XML, text) per document]}`` for ``split`` of ``data``."""
    regexes = scate_baseline.load_regexes(os.path.join(data, scate_baseline.REGEX_FILE))
    gold_folder = os.path.join(data, scate_data.SPLITS[split][1])
    docs = []
    for doc in scate_data.documents(data, split):
        text, _ = scate_data.read_text(data, split, doc)
        with open(scate_data.gold_path(gold_folder, doc), "rb") as handle:
            docs.append((doc, handle.read(), text))
    builders = [("gold", lambda g, t, d: g),
                ("baseline", lambda g, t, d: scate_baseline.annotate(t, d, regexes).encode("utf-8")),
                ("shifted spans", lambda g, t, d: shifted(g, t)), ("retyped entities", lambda g, t, d: retyped(g, t)),
                ("duplicated entities", lambda g, t, d: duplicated(g, t)),
                ("dropped properties", lambda g, t, d: dropped(g, t))]
    return [(name, [(gold, build(gold, text, doc), text) for doc, gold, text in docs]) for name, build in builders]


# ------------------------------------------------------------------ the two evaluators

VIEWS = (("identification", ("*", "<span>")), ("composition", "*"))


def anaforatools_counts(pairs, full=False):
    """{"identification" | "composition": (correct, predicted, reference)} summed over ``pairs`` by anaforatools,
    the skipped types excluded: its views ``("*", "<span>")`` (span + type) and ``"*"`` (span + type +
    properties, recursively), built as ``score_data`` builds them. ``full``: through ``score_data`` itself,
    which also scores every type, property and value (much slower; the same two views)."""
    anafora = pytest.importorskip("anafora")
    evaluate = pytest.importorskip("anafora.evaluate")
    import anafora.select
    select = anafora.select.Select(exclude=set(ENTITY_SKIP))
    to_set = {"*": evaluate.ToSet(select=select), ("*", "<span>"): evaluate.ToSet(select=select, prop_name=None)}
    totals = {"identification": [0, 0, 0], "composition": [0, 0, 0]}
    for gold_xml, system_xml, _ in pairs:
        gold = anafora.AnaforaData(ElementTree.fromstring(gold_xml)).annotations
        system = anafora.AnaforaData(ElementTree.fromstring(system_xml)).annotations
        if full:
            scores = evaluate.score_data(anafora.AnaforaData(ElementTree.fromstring(gold_xml)),
                                         anafora.AnaforaData(ElementTree.fromstring(system_xml)),
                                         exclude=set(ENTITY_SKIP))
        else:
            scores = {}
            for _, view in VIEWS:
                scores[view] = evaluate.Scores()
                scores[view].add(to_set[view](gold), to_set[view](system))
        for metric, view in VIEWS:
            found = scores[view]
            for index, value in enumerate((found.correct, found.predicted, found.reference)):
                totals[metric][index] += value
    return dict((metric, tuple(values)) for metric, values in totals.items())


def as_anaforatools_reads(document):
    """``document`` with anaforatools' two documented readings applied: one value per property name (the last)
    and no property naming an entity of a skipped type."""
    entities = []
    for entity in document.entities:
        properties = {}
        for name, values in entity.properties.items():
            last = values[-1:]
            if last and last[0] in document.by_id and document.by_id[last[0]].type in ENTITY_SKIP:
                last = []
            properties[name] = last
        entities.append(Entity(entity.id, entity.type, entity.parents_type, entity.spans, properties, entity.line))
    return Document(entities, document.file, document.text)


def our_counts(pairs):
    """({"identification" | "composition": (matched, system, gold)} summed over ``pairs`` by the scorer's
    :func:`metrics.entity_counts`, the same with both sides read as anaforatools reads them)."""
    raw, adapted = {"identification": [0, 0, 0], "composition": [0, 0, 0]}, {"composition": [0, 0, 0]}
    for gold_xml, system_xml, text in pairs:
        gold, system = read_anafora(gold_xml, "gold.xml", text), read_anafora(system_xml, "system.xml", text)
        for totals, sides in ((raw, (gold, system)), (adapted, map(as_anaforatools_reads, (gold, system)))):
            gold_side, system_side = sides
            for metric in totals:
                for index, value in enumerate(metrics.entity_counts(gold_side, system_side, metric, ENTITY_SKIP)):
                    totals[metric][index] += value
    adapted["identification"] = raw["identification"]   # the two readings concern properties only
    return tuple(dict((metric, tuple(values)) for metric, values in totals.items()) for totals in (raw, adapted))


def _available(data, split):
    return bool(scate_data.documents(data, split)) and os.path.isdir(os.path.join(data, scate_data.SPLITS[split][1]))


def comparisons():
    """One row per (corpus, system, metric): ours raw, ours read as anaforatools reads, anaforatools."""
    rows = []
    for label, data, split in CORPORA:
        if not _available(data, split):
            continue
        for system, pairs in systems(data, split):
            (ours, adapted), theirs = our_counts(pairs), anaforatools_counts(pairs)
            for metric in ("identification", "composition"):
                rows.append((label, system, metric, ours[metric], adapted[metric], theirs[metric]))
    return rows


@pytest.fixture(scope="module")
def rows():
    pytest.importorskip("anafora.evaluate")
    return comparisons()


def test_the_oracle_scores_every_available_corpus(rows):
    labels = set(row[0] for row in rows)
    assert {"sample AQUAINT", "sample TimeBank"} <= labels
    if os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")):
        assert {"AQUAINT", "TimeBank"} <= labels
    assert len(rows) == 2 * 6 * len(labels)


def test_the_two_views_are_those_score_data_computes():
    """The fast path (two anaforatools views) gives what ``anafora.evaluate.score_data`` gives, on the sample."""
    pytest.importorskip("anafora.evaluate")
    for _, data, split in CORPORA[:2]:
        for system, pairs in systems(data, split):
            assert anaforatools_counts(pairs) == anaforatools_counts(pairs, full=True), system


def test_identification_agrees_exactly_everywhere(rows):
    for label, system, metric, ours, _, theirs in rows:
        if metric == "identification":
            assert ours == theirs, (label, system)
            for a, b in zip(metrics.prf(*ours), _prf_anaforatools(theirs)):
                assert abs(a - b) <= 1e-9, (label, system)


def test_composition_differs_only_by_the_documented_readings(rows):
    """Read as anaforatools reads properties, our composition counts are anaforatools' exactly; the raw counts
    differ only where those readings change something (and then both tools still agree on the gold itself
    matching fully)."""
    differing = []
    for label, system, metric, ours, adapted, theirs in rows:
        if metric != "composition":
            continue
        assert adapted == theirs, (label, system)
        if ours != theirs:
            differing.append((label, system))
        if system == "gold":
            assert ours[0] == ours[1] == ours[2] and theirs[0] == theirs[1] == theirs[2], label
    for label, system in differing:
        assert label in ("AQUAINT", "TimeBank"), (label, system)   # the synthetic sample has neither reading


def test_duplicates_count_once_on_both_sides(rows):
    """A system that repeats every entity scores as the gold itself (sets), in both tools."""
    by_key = dict(((label, system, metric), (ours, theirs)) for label, system, metric, ours, _, theirs in rows)
    for (label, system, metric), (ours, theirs) in by_key.items():
        if system == "duplicated entities":
            assert ours == by_key[(label, "gold", metric)][0]
            assert theirs == by_key[(label, "gold", metric)][1]


def _prf_anaforatools(counts):
    """anaforatools' P, R, F1 from (correct, predicted, reference), as ``anafora.evaluate.Scores``."""
    evaluate = pytest.importorskip("anafora.evaluate")
    scores = evaluate.Scores()
    scores.correct, scores.predicted, scores.reference = counts
    return scores.precision(), scores.recall(), scores.f1()


def table(rows):
    """The agreement table (Markdown): F1 of the identification and composition of every system."""
    lines = ["| corpus | system | metric | ours P/R/F1 | anaforatools P/R/F1 | agree? |", "|---|---|---|---|---|---|"]
    for label, system, metric, ours, adapted, theirs in rows:
        a, b = metrics.prf(*ours), _prf_anaforatools(theirs)
        same = all(abs(x - y) <= 1e-9 for x, y in zip(a, b))
        note = "yes" if same else ("no: documented readings (same once applied)" if adapted == theirs else "NO")
        lines.append("| %s | %s | %s | %.4f/%.4f/%.4f | %.4f/%.4f/%.4f | %s |" % ((label, system, metric) + a + b
                                                                                  + (note,)))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(comparisons()))
