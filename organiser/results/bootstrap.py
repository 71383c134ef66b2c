"""Paired bootstrap over items: intervals for every score, significance of adjacent ranks, rank clusters.

Method (stated in every output, see :func:`method`): within each (task, language) file, the scored
items (sentences, documents, sets, words: the competition's unit) are drawn with replacement as many times as
there are (one resample); the same draws are applied to every team (paired). How a resample is scored is the
kind's (:mod:`evalkit.kindspec`, ``resampling``): a kind whose metric is a function of sums over items
(``"sums"``: a mean of item scores, or a corpus-level metric from pooled counts) gets each resample's sums of the
per-item values, through the count matrix of the draws (numpy), and turns them into components with its own
``from_sums``; a kind whose metric is no sum (``"items"``: a rank correlation, any corpus-level score) gets each
resample's per-item values themselves and recomputes its components with its own ``from_items`` (the scoring
program's standard-library code, one call per resample and team). The entry score follows through the kind's
``score_value``, and every aggregate through the scorer's own :func:`evalkit.scoring.aggregate` (so task means,
language means and the overall score follow the competition's aggregation exactly). The interval is the
2.5th-97.5th percentile of the resampled values. Two teams adjacent in a ranking differ significantly when the
two-sided paired bootstrap p-value ``2 * min(P(d <= 0), P(d >= 0))`` of the resampled difference ``d`` (with the
usual +1 correction) is below 0.05; teams joined by non-significant adjacent differences form a rank cluster.
With no resamples (``--resamples 0``) there is no interval (each is the score itself) and no test: teams are
ranked by their scores alone, equal scores sharing a rank.
"""
import numpy as np

from evalkit import keys, kindspec, scoring

CONFIDENCE = 0.95
ALPHA = 0.05
BLOCK = 200          # resamples drawn at a time (bounds the memory of the count matrices)
ROW_CHUNK = 32       # rows aggregated at a time (bounds the memory of the aggregate arrays)

METHOD = ("Paired bootstrap over sentences (%d resamples, seed %d): within each task x language file the scored "
          "sentences are resampled with replacement, the same resamples for every team; entry scores are recomputed "
          "from each resample's per-sentence values with the scoring program's own metric (a mean of sentence "
          "scores, or a corpus-level metric from summed counts), task-mean, language and overall scores with its "
          "own aggregation. "
          "Intervals: 95%% percentile intervals. Adjacent teams in a ranking differ significantly when the two-sided "
          "paired bootstrap p-value is below 0.05 (no correction for multiple comparisons); teams joined by "
          "non-significant adjacent differences share a rank range (cluster).")


#: What :data:`METHOD` says of a resample's scoring, and what it says instead when every metric is no sum over items.
SUMS_CLAUSE = ("from each resample's per-sentence values with the scoring program's own metric (a mean of sentence "
               "scores, or a corpus-level metric from summed counts)")
ITEMS_CLAUSE = ("from each resample's items themselves with the scoring program's own metric (the kind's from_items: "
                "%s %s no sum over %s)")
#: Said after :data:`METHOD` when some kinds' metrics are no sum over items (their ``resampling`` is ``"items"``).
ITEMS_METHOD = (" %s (%s) %s no sum over %s: each resample's %s are scored anew with the scoring program's own "
                "metric (the kind's from_items).")
#: The method without resamples (``--resamples 0``).
NO_RESAMPLES = ("No bootstrap (0 resamples): teams are ranked by their scores alone, equal scores sharing a rank; no "
                "interval (each is the score itself) and no significance test.")


def method(competition, resamples, seed):
    """The method of the results, in words (:data:`METHOD`, its unit the competition's: ``REPORT_NOTES["unit"]``,
    sentences by default; for the kinds resampled by items :data:`ITEMS_CLAUSE` or :data:`ITEMS_METHOD`;
    :data:`NO_RESAMPLES`)."""
    if not resamples:
        return NO_RESAMPLES
    unit = unit_of(competition)
    text = METHOD % (resamples, seed)
    by_items = [task for task in competition.TASKS if kindspec.resampling(scoring.KINDS[task.kind]) == "items"]
    components = sorted(set(c for task in by_items for c in task.components))
    verb = "are" if len(components) > 1 else "is"
    if by_items and len(by_items) == len(competition.TASKS):
        text = text.replace(SUMS_CLAUSE, ITEMS_CLAUSE % (", ".join(components), verb, unit))
    elif by_items:
        text += ITEMS_METHOD % (", ".join(task.label for task in by_items), ", ".join(components), verb, unit, unit)
    if unit != "sentences":
        text = text.replace("sentences", unit).replace("per-sentence", "per-item").replace("sentence scores",
                                                                                          "item scores")
    return text


def unit_of(competition):
    """What the competition's items are: its ``REPORT_NOTES["unit"]``, else its first task kind's (``report_notes``,
    as the scorer's report says), sentences by default."""
    kinds = [getattr(scoring.KINDS.get(task.kind), "report_notes", None) or {} for task in competition.TASKS]
    return ((getattr(competition, "REPORT_NOTES", None) or {}).get("unit")
            or next((notes["unit"] for notes in kinds if notes.get("unit")), None) or "sentences")


class BootstrapError(Exception):
    """The per-item values do not fit together (a kind whose score gives none, or a bug)."""


def draw_blocks(n, resamples, rng):
    """The item draws of every resample, :data:`BLOCK` resamples at a time: ``(start, (size, n) array of item
    indices)``. The same generator gives the same draws to both ways of resampling."""
    for start in range(0, resamples, BLOCK):
        size = min(BLOCK, resamples - start)
        yield start, rng.integers(0, n, size=(size, n))


def resample_sums(values, resamples, rng):
    """``(resamples, columns)`` sums of ``values`` (``(n, columns)``) over item resamples.

    Each resample draws ``n`` item indices with replacement; the sum is taken through the count
    matrix (how often each item was drawn) so that all columns share the draws. ``n == 0``
    gives zeros.
    """
    n, columns = values.shape
    out = np.zeros((resamples, columns))
    if n == 0:
        return out
    for start, draws in draw_blocks(n, resamples, rng):
        size = len(draws)
        draws = draws + (np.arange(size) * n)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n)
        out[start:start + size] = counts.astype(np.float64) @ values
    return out


def resample_items(kind, task, rows, names, n, resamples, rng):
    """``{component: (resamples, rows) array}`` of a kind resampled by items (``resampling = "items"``): on each
    resample, every row's per-item values at the drawn indices (numpy) go to the kind's own ``from_items`` (plain
    lists: the scoring program's standard-library metric), or, where the kind declares that its components are
    metrics of :mod:`evalkit.metrics` this module has in numpy (``item_metrics``, :data:`NUMPY_METRICS`) and they
    give its ``from_items`` on the file itself, to their numpy twins, every resample of a block at once. A row
    without values (a failed entry) counts 0, as in the scorer. ``n == 0`` gives zeros."""
    components = {}
    if n == 0:
        return components
    columns = [None if row["per_sentence"] is None else
               dict((name, np.asarray(row["per_sentence"][name], dtype=np.float64)) for name in names) for row in rows]
    fast = numpy_twins(kind, task, [values for values in columns if values is not None])
    for start, draws in draw_blocks(n, resamples, rng):
        for r, values in enumerate(columns):
            if values is None:
                continue
            if fast:
                found = dict((name, twin(values, draws)) for name, twin in fast.items())
            else:
                found = {}
                for drawn in draws:
                    point = kind.from_items(dict((name, values[name][drawn].tolist()) for name in names), task)
                    for name, value in point.items():
                        found.setdefault(name, []).append(value)
            for name, value in found.items():
                if name not in components:
                    components[name] = np.zeros((resamples, len(rows)))
                components[name][start:start + len(draws), r] = value
    return components


# --------------------------------------------------------------------------- numpy twins of item metrics

def _average_ranks(values, draws):
    """The average ranks (ties: the mean of their ranks, as :func:`evalkit.metrics.average_ranks`) of ``values``
    (``(n,)``) at every resample's drawn indices ``draws`` (``(size, n)``): the counts of each distinct value in a
    resample, cumulated in value order, give each value's ranks at once."""
    distinct, inverse = np.unique(values, return_inverse=True)
    size, n = draws.shape
    codes = inverse[draws]                                          # (size, n): the distinct value of each draw
    flat = (codes + (np.arange(size) * len(distinct))[:, None]).ravel()
    counts = np.bincount(flat, minlength=size * len(distinct)).reshape(size, len(distinct)).astype(np.float64)
    ranks = np.cumsum(counts, axis=1) - (counts - 1.0) / 2.0      # the mean of the ranks each value spans
    return np.take_along_axis(ranks, codes, axis=1)


def _pearson_rows(x, y):
    """Pearson's coefficient of each row of ``x`` with the same row of ``y`` (:func:`evalkit.metrics.pearson`: 0.0
    where a row is constant, clipped to [-1, 1])."""
    constant = (x.min(axis=1) == x.max(axis=1)) | (y.min(axis=1) == y.max(axis=1))
    dx = x - x.mean(axis=1, keepdims=True)
    dy = y - y.mean(axis=1, keepdims=True)
    spread = np.sqrt((dx * dx).sum(axis=1) * (dy * dy).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        found = np.clip((dx * dy).sum(axis=1) / spread, -1.0, 1.0)
    return np.where(constant | (spread == 0), 0.0, found)


#: The metrics of evalkit.metrics that the bootstrap has in numpy, by name: ``twin(first values, second values,
#: draws)`` -> one value per resample of the block.
NUMPY_METRICS = {
    "pearson": lambda x, y, draws: _pearson_rows(x[draws], y[draws]),
    "spearman": lambda x, y, draws: _pearson_rows(_average_ranks(x, draws), _average_ranks(y, draws)),
}


def numpy_twins(kind, task, columns):
    """``{component: twin(values, draws)}`` when every component of ``kind`` is declared (its ``item_metrics``,
    ``{component: (metric name, (first value name, second value name))}``) as a metric of :data:`NUMPY_METRICS` and
    the twins give the kind's own ``from_items`` on each file's items (within 1e-9); else None (``from_items`` then
    scores every resample)."""
    declared = getattr(kind, "item_metrics", None) or {}
    if not columns or not set(task.components) <= set(declared) or \
            any(declared[name][0] not in NUMPY_METRICS for name in task.components):
        return None
    twins = dict((name, _twin(NUMPY_METRICS[declared[name][0]], declared[name][1])) for name in task.components)
    for values in columns:   # the declaration must say what from_items computes: checked on the whole file
        n = len(next(iter(values.values())))
        whole = np.arange(n)[None, :]
        point = kind.from_items(dict((name, column.tolist()) for name, column in values.items()), task)
        if any(abs(twin(values, whole)[0] - point[name]) > 1e-9 for name, twin in twins.items()):
            return None
    return twins


def _twin(metric, names):
    first, second = names
    return lambda values, draws: metric(values[first], values[second], draws)


def pair_rng(competition, task, lang, seed):
    """The generator of one (task, language) file: seeded by the bootstrap seed and the file's place in
    the competition's declaration, so the same file gets the same resamples whatever else is scored."""
    task_index = [t.folder for t in competition.TASKS].index(task.folder)
    lang_index = list(competition.LANGUAGES).index(lang)
    return np.random.default_rng([seed, task_index, lang_index])


def entry_arrays(competition, task, lang, rows, resamples, seed):
    """``(entry scores, {component: values})`` of one file over the resamples, ``(resamples, rows)`` each.

    ``rows`` holds each row's entry dict for this file (as :func:`organiser.results.rescoring.compact`
    writes it). By the kind's ``resampling``: the per-item values summed over each resample and turned into
    components by its ``from_sums``, or the per-item values of each resample given to its ``from_items``. A failed
    entry counts 0 on every item, as in the scorer.
    """
    kind = scoring.KINDS[task.kind]
    scored = [row for row in rows if row["per_sentence"] is not None]
    for row in rows:
        if row["status"] == "scored" and row["per_sentence"] is None:
            raise BootstrapError("%s/%s: a scored entry without per-item values: the kind %s returns none from its "
                                 "score (its Entry's per_sentence), so the final ranking cannot resample it; give "
                                 "each scored item's values there (docs/new_competition.md, Writing a kind)"
                                 % (task.folder, lang, task.kind))
    if not scored:   # every row failed: 0 everywhere, as in the scorer
        components = dict((name, np.zeros((resamples, len(rows)))) for name in list(task.components) or ["score"])
        return kind.score_value(components), components
    names = list(scored[0]["per_sentence"])
    n = len(scored[0]["per_sentence"][names[0]])
    for row in scored:
        _check_row(task, lang, kind, row, names, n)
    rng = pair_rng(competition, task, lang, seed)
    if kindspec.resampling(kind) == "items":
        components = resample_items(kind, task, rows, names, n, resamples, rng)
        if not components:
            components = dict((name, np.zeros((resamples, len(rows)))) for name in task.components)
        return kind.score_value(components), components
    columns = np.zeros((n, len(rows) * len(names)))
    for r, row in enumerate(rows):
        for c, name in enumerate(names):
            if row["per_sentence"] is not None:
                columns[:, r * len(names) + c] = row["per_sentence"][name]
    sums = resample_sums(columns, resamples, rng).reshape(resamples, len(rows), len(names))
    components = kind.from_sums(dict((name, sums[:, :, c]) for c, name in enumerate(names)), n, task)
    return kind.score_value(components), components


def _check_row(task, lang, kind, row, names, n):
    """Every row has the same per-item values and item count, and they give the scorer's own score (their sums
    through ``from_sums``, or the values themselves through ``from_items``)."""
    where = "%s/%s" % (task.folder, lang)
    if sorted(row["per_sentence"]) != sorted(names) or any(len(row["per_sentence"][k]) != n for k in names):
        raise BootstrapError("%s: per-item values of different shapes across teams (%s)" % (where, names))
    point = kind.score_value(recompute(kind, task, row["per_sentence"]))
    if abs(point - row["score"]) > 1e-9:
        raise BootstrapError("%s: the per-item values give %r, the scorer says %r (the kind %s's %s does not "
                             "recompute its score)" % (where, point, row["score"], task.kind,
                                                       "from_items" if kindspec.resampling(kind) == "items"
                                                       else "from_sums"))


def recompute(kind, task, per_item):
    """The components ``kind`` recomputes from one entry's per-item values ``per_item`` (``{name: values}``): their
    sums through ``from_sums``, or the values through ``from_items`` (what the scorer's components must equal)."""
    names = list(per_item)
    n = len(per_item[names[0]]) if names else 0
    if kindspec.resampling(kind) == "items":
        return kind.from_items(dict((name, [float(v) for v in per_item[name]]) for name in names), task)
    return kind.from_sums(dict((name, float(np.sum(per_item[name]))) for name in names), n, task)


def bootstrap(competition, pairs, rows, resamples, seed, keep):
    """Resampled scores of every row at every level.

    ``pairs``: the ``(task, lang)`` scored (ordered as the scorer orders them); ``rows``: one
    ``{(task folder, lang): entry dict}`` per row. Returns ``(intervals, kept)``: ``{key: (lo, hi)}``
    arrays over rows for every key :func:`evalkit.scoring.aggregate` writes, and ``{key: (resamples, rows)
    array}`` for the keys in ``keep`` (the rankings' keys).
    """
    entries = []
    for task, lang in pairs:
        score, components = entry_arrays(competition, task, lang, [row[(task.folder, lang)] for row in rows],
                                         resamples, seed)
        entries.append({"task": task.folder, "lang": lang, "score": score, "components": components})
    if not resamples:   # no bootstrap: each interval the score itself, kept as one "resample" for the rankings
        return point_scores(competition, pairs, rows, keep)
    intervals, kept = {}, dict((key, np.zeros((resamples, len(rows)))) for key in keep)
    tail = (1.0 - CONFIDENCE) / 2 * 100
    for start in range(0, len(rows), ROW_CHUNK):
        part = slice(start, min(start + ROW_CHUNK, len(rows)))
        chunk = [dict(e, score=e["score"][:, part],
                      components=dict((k, v[:, part]) for k, v in e["components"].items())) for e in entries]
        for key, values in scoring.aggregate(competition, chunk, pairs):
            values = np.broadcast_to(values, (resamples, part.stop - part.start))
            lo, hi = np.percentile(values, [tail, 100 - tail], axis=0)
            if key not in intervals:
                intervals[key] = (np.zeros(len(rows)), np.zeros(len(rows)))
            intervals[key][0][part], intervals[key][1][part] = lo, hi
            if key in kept:
                kept[key][:, part] = values
    return intervals, kept


def point_scores(competition, pairs, rows, keep):
    """:func:`bootstrap`'s answer without resamples: every interval ``(score, score)`` and, for the keys in ``keep``,
    a ``(0, rows)`` array (no resample: :func:`rank` then ranks by score alone)."""
    entries = [{"task": task.folder, "lang": lang,
                "score": np.array([[row[(task.folder, lang)]["score"] for row in rows]]),
                "components": dict((c, np.array([[row[(task.folder, lang)]["components"].get(c, 0.0) for row in rows]]))
                                   for c in task.components)} for task, lang in pairs]
    intervals = {}
    for key, values in scoring.aggregate(competition, entries, pairs):
        values = np.broadcast_to(values, (1, len(rows)))[0]
        intervals[key] = (np.array(values, dtype=np.float64), np.array(values, dtype=np.float64))
    return intervals, dict((key, np.zeros((0, len(rows)))) for key in keep)


def p_value(upper, lower):
    """Two-sided paired bootstrap p-value that ``upper`` (resampled scores) differs from ``lower``.

    >>> import numpy as np
    >>> p_value(np.array([0.5, 0.5]), np.array([0.5, 0.5]))   # identical: no evidence at all
    1.0
    >>> round(p_value(np.array([0.9] * 999), np.array([0.1] * 999)), 4)   # always better: 2/(B+1)
    0.002
    """
    diff = upper - lower
    tail = min(int(np.sum(diff <= 0)), int(np.sum(diff >= 0)))
    return min(1.0, 2.0 * (tail + 1) / (len(diff) + 1))


def rank(names, points, samples):
    """Rank the rows ``names`` by ``points`` (highest first; ties by name) with adjacent tests and clusters.

    ``samples`` is the ``(resamples, rows)`` array of the same score. Returns ``{"order": [name],
    "ranks": {name: (first, last)}, "adjacent": [{"above", "below", "difference", "p_value",
    "significant"}], "clusters": [[name]]}``. Without resamples (no row in ``samples``) nothing is tested
    (``p_value`` and ``significant`` None): each score is its own cluster, equal scores share one.
    """
    order = sorted(range(len(names)), key=lambda i: (-points[i], names[i]))
    adjacent, clusters = [], [[order[0]]] if order else []
    for position in range(1, len(order)):
        above, below = order[position - 1], order[position]
        p = p_value(samples[:, above], samples[:, below]) if len(samples) else None
        adjacent.append({"above": names[above], "below": names[below], "difference": points[above] - points[below],
                         "p_value": p, "significant": None if p is None else p < ALPHA})
        if p is None and points[above] == points[below]:
            clusters[-1].append(below)
        elif p is None or p < ALPHA:
            clusters.append([below])
        else:
            clusters[-1].append(below)
    ranks, position = {}, 0
    for cluster in clusters:
        for i in cluster:
            ranks[names[i]] = (position + 1, position + len(cluster))
        position += len(cluster)
    return {"order": [names[i] for i in order], "ranks": ranks, "adjacent": adjacent,
            "clusters": [[names[i] for i in cluster] for cluster in clusters]}


def ranking_keys(tasks):
    """The keys rankings are made on: the overall score, then each task's mean."""
    return [keys.OVERALL_KEY] + [keys.task_mean_key(task) for task in tasks]
