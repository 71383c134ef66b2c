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


def subtask_tables(sub):
    """``[Table]`` of one subtask of ``results.json``: the overall table, then one per task."""
    overall = sub["overall_key"]
    tables = [Table("%s-overall" % sub["name"], "%s: overall" % sub["title"], overall,
                    [(overall, "Average")] + [(t["mean_key"], t["label"]) for t in sub["tasks"]],
                    _rows(sub, overall))]
    names = dict((lang["code"], lang["code"]) for lang in sub["languages"])
    for task in sub["tasks"]:
        columns = [(task["mean_key"], "Mean")]
        columns += [(e["key"], names[e["lang"]]) for e in sub["entries"] if e["task"] == task["folder"]]
        tables.append(Table("%s-%s" % (sub["name"], task["folder"]), "%s: %s" % (sub["title"], task["label"]),
                            task["mean_key"], columns, _rows(sub, task["mean_key"])))
    return tables
