"""Leaderboard layouts (issue 31): ``LEADERBOARD = "tasks"`` gives the overall score, each task's mean and the
entries, and no average over a language's tasks (which would mix accuracy with a rank correlation); the scorer then
writes no language averages either, and its summary table says "-" where there is none."""
import types

from evalkit import keys, scoring, writers
from evalkit.declare import TextTask
from organiser import bundle

TASKS = (TextTask("task1", "Binary change", "token_labels", "acc", ("acc",), [("en", ("0", "1")), ("de", ("0", "1"))]),
         TextTask("task2", "Graded change", "token_labels", "rho", ("rho",), [("en", ("0", "1")), ("de", ("0", "1"))]))
PAIRS = [(task, lang) for task in TASKS for lang in task.languages]


def declaration(**extra):
    return types.SimpleNamespace(TASKS=TASKS, LANGUAGES={"en": ("English",), "de": ("German",)},
                                 OVERALL_LABEL="Overall", **extra)


def entries(scores):
    assert len(scores) == len(PAIRS)
    return [{"task": task.folder, "lang": lang, "score": score, "components": {task.metric: score}}
            for (task, lang), score in zip(PAIRS, scores)]


def test_the_tasks_layout_has_task_means_and_entries_only():
    decl = declaration(LEADERBOARD="tasks")
    columns = [key for key, _ in bundle.declared_columns(decl, ["en", "de"], PAIRS)]
    assert columns == ["avg_score", "avg_task1", "avg_task2", "en_task1", "en_task2", "de_task1", "de_task2"]
    assert not keys.language_means(decl)
    values = dict(scoring.aggregate(decl, entries([1.0, 0.5, -0.5, 0.25]), PAIRS))
    assert "en_avg_score" not in values and "de_avg_score" not in values
    assert values["avg_task1"] == 0.75 and values["avg_task2"] == -0.125 and values["avg_score"] == 0.3125
    assert values["de_task2"] == 0.25   # a negative rho stays negative
    table = writers._table({"scores": values, "tasks": [{"key": t.key} for t in TASKS],
                            "languages": [{"code": "en"}, {"code": "de"}]})
    assert table[1].split() == ["en", "1.0000", "-0.5000", "-"]


def test_the_default_layout_keeps_its_language_averages_unless_declared_otherwise():
    default = [key for key, _ in bundle.declared_columns(declaration(), ["en", "de"], PAIRS)]
    assert default[3:5] == ["en_avg_score", "de_avg_score"]
    plain = [key for key, _ in bundle.declared_columns(declaration(LANGUAGE_MEANS=False), ["en", "de"], PAIRS)]
    assert plain == [key for key in default if not key.endswith("_avg_score") or key == "avg_score"]
    values = dict(scoring.aggregate(declaration(), entries([1.0, 0.5, 0.0, 0.25]), PAIRS))
    assert values["en_avg_score"] == 0.5 and values["de_avg_score"] == 0.375
