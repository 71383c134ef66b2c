"""Paired bootstrap over sentences: intervals for every score, significance of adjacent ranks, rank clusters.

Method (stated in every output, see :data:`METHOD`): within each (task, language) file, the scored
sentences are drawn with replacement as many times as there are (one resample); the same draws
are applied to every team (paired). Each resample sums every sentence's per-sentence values (what the
scorer's kind returns per sentence: the values a component is the mean of, or the counts a corpus-level
metric is computed from) and gives every entry's components through the kind's own ``from_sums``, the
entry score through its ``score_value``, and every aggregate through the scorer's own
:func:`evalkit.scoring.aggregate` (so task means, language means and the overall score follow the
competition's aggregation exactly). The interval is the 2.5th-97.5th percentile of the resampled
values. Two teams adjacent in a ranking differ significantly when the two-sided paired bootstrap
p-value ``2 * min(P(d <= 0), P(d >= 0))`` of the resampled difference ``d`` (with the usual +1
correction) is below 0.05; teams joined by non-significant adjacent differences form a rank cluster.
"""
import numpy as np

from evalkit import keys, scoring

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


class BootstrapError(Exception):
    """The per-sentence values do not fit together (a scorer without the per-sentence hook, or a bug)."""


def resample_sums(values, resamples, rng):
    """``(resamples, columns)`` sums of ``values`` (``(n, columns)``) over sentence resamples.

    Each resample draws ``n`` sentence indices with replacement; the sum is taken through the count
    matrix (how often each sentence was drawn) so that all columns share the draws. ``n == 0``
    gives zeros.
    """
    n, columns = values.shape
    out = np.zeros((resamples, columns))
    if n == 0:
        return out
    for start in range(0, resamples, BLOCK):
        size = min(BLOCK, resamples - start)
        draws = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n)
        out[start:start + size] = counts.astype(np.float64) @ values
    return out


def pair_rng(competition, task, lang, seed):
    """The generator of one (task, language) file: seeded by the bootstrap seed and the file's place in
    the competition's declaration, so the same file gets the same resamples whatever else is scored."""
    task_index = [t.folder for t in competition.TASKS].index(task.folder)
    lang_index = list(competition.LANGUAGES).index(lang)
    return np.random.default_rng([seed, task_index, lang_index])


def entry_arrays(competition, task, lang, rows, resamples, seed):
    """``(entry scores, {component: values})`` of one file over the resamples, ``(resamples, rows)`` each.

    ``rows`` holds each row's entry dict for this file (as :func:`organiser.results.rescoring.compact`
    writes it). The kind's per-sentence values are summed over each resample and turned into components
    by its ``from_sums``. A failed entry counts 0 on every sentence, as in the scorer.
    """
    kind = scoring.KINDS[task.kind]
    scored = [row for row in rows if row["per_sentence"] is not None]
    for row in rows:
        if row["status"] == "scored" and row["per_sentence"] is None:
            raise BootstrapError("%s/%s: a scored entry without per-sentence values (the scoring program "
                                 "lacks the per_sentence option)" % (task.folder, lang))
    if not scored:   # every row failed: 0 everywhere, as in the scorer
        components = dict((name, np.zeros((resamples, len(rows)))) for name in list(task.components) or ["score"])
        return kind.score_value(components), components
    names = list(scored[0]["per_sentence"])
    n = len(scored[0]["per_sentence"][names[0]])
    for row in scored:
        _check_row(task, lang, kind, row, names, n)
    rng = pair_rng(competition, task, lang, seed)
    columns = np.zeros((n, len(rows) * len(names)))
    for r, row in enumerate(rows):
        for c, name in enumerate(names):
            if row["per_sentence"] is not None:
                columns[:, r * len(names) + c] = row["per_sentence"][name]
    sums = resample_sums(columns, resamples, rng).reshape(resamples, len(rows), len(names))
    components = kind.from_sums(dict((name, sums[:, :, c]) for c, name in enumerate(names)), n, task)
    return kind.score_value(components), components


def _check_row(task, lang, kind, row, names, n):
    """Every row has the same per-sentence values and sentence count, and their sums give the scorer's own score."""
    where = "%s/%s" % (task.folder, lang)
    if sorted(row["per_sentence"]) != sorted(names) or any(len(row["per_sentence"][k]) != n for k in names):
        raise BootstrapError("%s: per-sentence values of different shapes across teams (%s)" % (where, names))
    sums = dict((k, float(np.sum(row["per_sentence"][k]))) for k in names)
    point = kind.score_value(kind.from_sums(sums, n, task))
    if abs(point - row["score"]) > 1e-9:
        raise BootstrapError("%s: the per-sentence values give %r, the scorer says %r"
                             % (where, point, row["score"]))


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
    "significant"}], "clusters": [[name]]}``.
    """
    order = sorted(range(len(names)), key=lambda i: (-points[i], names[i]))
    adjacent, clusters = [], [[order[0]]] if order else []
    for position in range(1, len(order)):
        above, below = order[position - 1], order[position]
        p = p_value(samples[:, above], samples[:, below])
        adjacent.append({"above": names[above], "below": names[below], "difference": points[above] - points[below],
                         "p_value": p, "significant": p < ALPHA})
        if p < ALPHA:
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
