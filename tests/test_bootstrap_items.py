"""The final ranking for any metric (issue 31): a kind whose metric is no sum over items (``resampling = "items"``:
Spearman) is recomputed on each resample of the items by its own ``from_items``, checked against scipy on the very
same resamples; the ranking without resamples; the message that names the real cause of a missing per-item value."""
from collections import OrderedDict

import numpy as np
import pytest

from evalkit.declare import ValueTask
from organiser.results import bootstrap, cli

scipy_stats = pytest.importorskip("scipy.stats")


class Declared(object):
    """One graded task over two languages, one classification task."""
    COMPETITION_ID = "boot"
    LANGUAGES = OrderedDict([("en", ("English",)), ("de", ("German",))])
    TASKS = (ValueTask("graded", "Graded", "item_values", ("spearman", "pearson"), tuple(LANGUAGES)),
             ValueTask("binary", "Binary", "item_labels", ("acc", "macro_f1"), tuple(LANGUAGES), labels=("0", "1")))
    AVERAGE = "entries"


GRADED, BINARY = Declared.TASKS


def graded_row(gold, pred):
    """A scored entry of the graded task as the results keep it (per-item values as numpy arrays)."""
    from evalkit import values
    ref = values.ValueReference(["w%d" % i for i in range(len(gold))], list(gold), list(range(len(gold))), 0)
    entry = values.KINDS["item_values"].score(ref, list(pred), GRADED)
    return {"status": "scored", "score": entry.components["spearman"], "components": dict(entry.components),
            "per_sentence": dict((k, np.asarray(v, dtype=np.float64)) for k, v in entry.per_sentence.items())}


def draws(n, resamples, seed, task=GRADED, lang="en"):
    """The item indices of every resample, as the bootstrap draws them for (task, lang)."""
    rng = bootstrap.pair_rng(Declared, task, lang, seed)
    return np.concatenate([block for _, block in bootstrap.draw_blocks(n, resamples, rng)])


@pytest.mark.parametrize("way", ["numpy twins", "from_items"])
def test_spearman_on_every_resample_equals_scipy_on_the_same_items(way, monkeypatch):
    from evalkit import values
    if way == "from_items":   # the kind's own standard-library metric on every resample
        monkeypatch.setattr(values.KINDS["item_values"], "item_metrics", {})
    rng = np.random.default_rng(3)
    gold = np.round(rng.random(40), 1)                      # ties in the gold
    teams = [np.round(gold + rng.normal(0, s, 40), 2) for s in (0.1, 0.4, 2.0)]
    rows = [graded_row(gold, pred) for pred in teams]
    resamples, seed = 300, 12345
    score, components = bootstrap.entry_arrays(Declared, GRADED, "en", rows, resamples, seed)
    indices = draws(40, resamples, seed)
    assert score.shape == (resamples, 3)
    for r in range(resamples):
        idx = indices[r]
        for t, pred in enumerate(teams):
            expected = scipy_stats.spearmanr(gold[idx], pred[idx])[0]
            expected = 0.0 if np.isnan(expected) else expected   # a constant resample: undefined, 0 in the kit
            assert components["spearman"][r, t] == pytest.approx(expected, abs=1e-9)
            assert components["pearson"][r, t] == pytest.approx(
                np.nan_to_num(scipy_stats.pearsonr(gold[idx], pred[idx])[0]), abs=1e-9)
    assert np.array_equal(score, components["spearman"])   # the entry score is the task's metric


def test_the_paired_comparison_and_intervals_of_a_correlation():
    rng = np.random.default_rng(5)
    gold = rng.random(60)
    good, poor = gold + rng.normal(0, 0.05, 60), gold + rng.normal(0, 1.5, 60)
    rows = [{(GRADED.folder, "en"): graded_row(gold, good)}, {(GRADED.folder, "en"): graded_row(gold, poor)}]
    intervals, kept = bootstrap.bootstrap(Declared, [(GRADED, "en")], rows, 500, 1, ["avg_score"])
    lo, hi = intervals["avg_score"]
    assert lo[0] <= rows[0][(GRADED.folder, "en")]["score"] <= hi[0] and hi[1] < lo[0]
    ranking = bootstrap.rank(["good", "poor"], [rows[0][("graded", "en")]["score"],
                                                rows[1][("graded", "en")]["score"]], kept["avg_score"])
    assert ranking["order"] == ["good", "poor"] and ranking["adjacent"][0]["significant"]
    assert ranking["ranks"] == {"good": (1, 1), "poor": (2, 2)}


def test_a_negative_correlation_is_resampled_as_it_is():
    gold = np.arange(30, dtype=float)
    rows = [graded_row(gold, -gold + np.sin(gold))]
    score, _ = bootstrap.entry_arrays(Declared, GRADED, "en", rows, 100, 9)
    assert (score < -0.9).all()


def test_without_resamples_the_teams_are_ranked_by_their_scores_alone():
    gold = np.arange(20, dtype=float)
    rows = [{("graded", "en"): graded_row(gold, gold)}, {("graded", "en"): graded_row(gold, gold[::-1])},
            {("graded", "en"): graded_row(gold, gold)}]
    intervals, kept = bootstrap.bootstrap(Declared, [(GRADED, "en")], rows, 0, 1, ["avg_score"])
    assert list(intervals["avg_score"][0]) == list(intervals["avg_score"][1]) == [1.0, -1.0, 1.0]
    ranking = bootstrap.rank(["a", "b", "c"], [1.0, -1.0, 1.0], kept["avg_score"])
    assert ranking["order"] == ["a", "c", "b"] and ranking["ranks"] == {"a": (1, 2), "c": (1, 2), "b": (3, 3)}
    assert all(test["p_value"] is None and test["significant"] is None for test in ranking["adjacent"])
    assert bootstrap.method(Declared, 0, 1).startswith("No bootstrap (0 resamples)")
    assert cli.parse_args(["--reference", "r", "--submissions", "s", "--out", "o", "--resamples", "0"]).resamples == 0
    with pytest.raises(SystemExit):
        cli.parse_args(["--reference", "r", "--submissions", "s", "--out", "o", "--resamples", "5"])


def test_a_sums_kind_beside_an_items_kind_and_the_method_says_which_is_which():
    golds = np.array(["0", "1"] * 10)
    from evalkit import values
    ref = values.ValueReference(["w%d" % i for i in range(20)], list(golds), list(range(20)), 0)
    ref.lang = "en"
    pred = ["0"] * 20
    entry = values.KINDS["item_labels"].score(ref, pred, BINARY)
    row = {"status": "scored", "score": entry.components["acc"], "components": dict(entry.components),
           "per_sentence": dict((k, np.asarray(v, dtype=np.float64)) for k, v in entry.per_sentence.items())}
    score, components = bootstrap.entry_arrays(Declared, BINARY, "en", [row], 200, 4)
    indices = draws(20, 200, 4, BINARY)
    assert np.allclose(score[:, 0], [(golds[idx] == "0").mean() for idx in indices])
    text = bootstrap.method(Declared, 200, 4)
    assert "Paired bootstrap over items (200 resamples, seed 4)" in text   # the kinds' unit (report_notes)
    assert "Graded (pearson, spearman) are no sum over items: each resample's items are scored anew" in text


def test_a_scored_entry_without_per_item_values_names_the_kind_as_the_cause():
    row = dict(graded_row(np.arange(5.0), np.arange(5.0)), per_sentence=None)
    with pytest.raises(bootstrap.BootstrapError) as caught:
        bootstrap.entry_arrays(Declared, GRADED, "en", [row], 10, 1)
    text = str(caught.value)
    assert "the kind item_values returns none from its score (its Entry's per_sentence)" in text
    assert "per_sentence option" not in text
    wrong = graded_row(np.arange(5.0), np.arange(5.0))
    wrong["score"] = 0.5
    with pytest.raises(bootstrap.BootstrapError) as caught:
        bootstrap.entry_arrays(Declared, GRADED, "en", [wrong], 10, 1)
    assert "the kind item_values's from_items does not recompute its score" in str(caught.value)


def test_the_numpy_twins_are_used_only_where_they_give_the_kinds_own_from_items(monkeypatch):
    from evalkit import values
    kind = values.KINDS["item_values"]
    rng = np.random.default_rng(8)
    gold = rng.random(25)
    columns = [dict((k, np.asarray(v)) for k, v in graded_row(gold, gold + rng.normal(0, .3, 25))["per_sentence"]
                    .items())]
    assert set(bootstrap.numpy_twins(kind, GRADED, columns)) == {"spearman", "pearson"}
    monkeypatch.setattr(kind, "item_metrics", {"spearman": ("pearson", ("gold", "pred")),
                                               "pearson": ("pearson", ("gold", "pred"))})
    assert bootstrap.numpy_twins(kind, GRADED, columns) is None   # a wrong declaration: from_items scores them
    monkeypatch.setattr(kind, "item_metrics", {"spearman": ("kendall", ("gold", "pred"))})
    assert bootstrap.numpy_twins(kind, GRADED, columns) is None   # no twin of that metric
