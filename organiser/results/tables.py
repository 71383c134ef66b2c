"""The tables of the results, independent of the output format (Markdown, LaTeX, HTML).

Per subtask: one overall table (rank, team, overall score and its interval, every task mean) and one
table per task (rank by the task mean, team, task mean and its interval, every language's entry
score). Rows are teams in ranking order, then the baselines (marked, never ranked). The best team
value of every score column is marked for bold (on the displayed value, so ties are all bold).
"""


class Table(object):
    """One table: ``title``, ``ranking`` (the key it is ranked by), score ``columns`` (``[(key, label)]``;
    the first is the ranking key, shown with its interval) and ``rows``."""

    def __init__(self, slug, title, ranking, columns, rows):
        self.slug, self.title, self.ranking, self.columns, self.rows = slug, title, ranking, columns, rows

    def best(self, key, fmt):
        """The displayed best team value of column ``key`` under format ``fmt`` (None without teams)."""
        values = [fmt(row.value(key)) for row in self.rows if not row.baseline and row.value(key) is not None]
        return max(values, key=float) if values else None


class Row(object):
    """One row: team (or baseline) ``name`` (as shown), ``rank`` (first, last) or None, ``scores`` of the results
    row, and the test against the next ranked team (``p_next``, ``significant_next``)."""

    def __init__(self, name, baseline, rank, scores, p_next=None, significant_next=None):
        self.name, self.baseline, self.rank, self.scores = name, baseline, rank, scores
        self.p_next, self.significant_next = p_next, significant_next

    def value(self, key):
        """The point estimate of ``key`` (None when the row has no such score)."""
        return self.scores[key]["value"] if key in self.scores else None

    def interval(self, key):
        """``(lo, hi)`` of ``key``."""
        return self.scores[key]["lo"], self.scores[key]["hi"]

    def rank_text(self, dash="\u2013"):
        """``"3"`` or ``"2-4"`` (with ``dash``); ``""`` for a baseline."""
        if not self.rank:
            return ""
        first, last = self.rank
        return str(first) if first == last else "%d%s%d" % (first, dash, last)


def _rows(sub, key):
    """The rows of subtask ``sub`` ordered by the ranking on ``key`` (baselines last, best first)."""
    ranking = sub["rankings"].get(key, {"order": [], "ranks": {}, "adjacent": []})
    by_id = dict((row["id"], row) for row in sub["rows"] if not row["baseline"])
    tests = dict((test["above"], test) for test in ranking["adjacent"])
    rows = []
    for ident in ranking["order"]:      # rankings are made on identities, rows show names
        test = tests.get(ident, {})
        rows.append(Row(by_id[ident]["name"], False, tuple(ranking["ranks"][ident]), by_id[ident]["scores"],
                        test.get("p_value"), test.get("significant")))
    baselines = sorted((row for row in sub["rows"] if row["baseline"]),
                       key=lambda row: (-row["scores"][key]["value"], row["name"]))
    rows.extend(Row(row["name"], True, None, row["scores"]) for row in baselines)
    return rows


def overall_columns(sub):
    """The overall table's columns: the average, then every task mean; a single task has no mean column (it would
    repeat the average) but the other columns of its leaderboard (:func:`leaderboard_rest`), or else its languages'
    scores (when there are several)."""
    overall = sub["overall_key"]
    if len(sub["tasks"]) > 1:
        return [(overall, "Average")] + [(t["mean_key"], t["label"]) for t in sub["tasks"]]
    board = leaderboard_rest(sub, (overall,))
    if board:
        return [(overall, "Average")] + board
    return [(overall, "Average")] + (language_columns(sub, sub["tasks"][0]) if len(sub["entries"]) > 1 else [])


def language_columns(sub, task):
    """``[(entry key, language code)]`` of one task's entries."""
    return [(e["key"], e["lang"]) for e in sub["entries"] if e["task"] == task["folder"]]


def leaderboard_rest(sub, shown):
    """The columns of the subtask's leaderboard (``leaderboard`` of ``results.json``: what participants saw) that
    no table of ``shown`` (keys) holds and the rows have, with their leaderboard labels."""
    held = set(key for row in sub["rows"] for key in row["scores"])
    return [(key, label) for key, label in sub.get("leaderboard") or [] if key not in shown and key in held]


def subtask_tables(sub):
    """``[Table]`` of one subtask of ``results.json``: the overall table (:func:`overall_columns`), one per task
    when there are several, and one of the leaderboard's other columns (:func:`leaderboard_rest`: every column of
    the leaderboard is in some table), each ranked as its first column."""
    overall = sub["overall_key"]
    tables = [Table("%s-overall" % sub["name"], "%s: overall" % sub["title"], overall, overall_columns(sub),
                    _rows(sub, overall))]
    if len(sub["tasks"]) > 1:
        for task in sub["tasks"]:
            tables.append(Table("%s-%s" % (sub["name"], task["folder"]), "%s: %s" % (sub["title"], task["label"]),
                                task["mean_key"], [(task["mean_key"], "Mean")] + language_columns(sub, task),
                                _rows(sub, task["mean_key"])))
    rest = leaderboard_rest(sub, set(key for table in tables for key, _ in table.columns))
    if rest:
        tables.append(Table("%s-leaderboard" % sub["name"], "%s: the other leaderboard columns" % sub["title"],
                            overall, [(overall, "Average")] + rest, _rows(sub, overall)))
    return tables
