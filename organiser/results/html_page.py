"""``results.html``: the method, the same tables as results.md and the figures, in one self-contained page.

Every participant string (team, user, file names, reasons, notes) is made one printable line and goes
through ``html.escape`` (:func:`esc`); team names are isolated from the text around them (``<bdi>``: a name
written right to left does not reorder its row). The figures are the SVG files of
:mod:`organiser.results.figures`, embedded as they are (their text is escaped there).
"""
import html

from evalkit.messages import MAX_TEXT_CHARS, printable

from . import shakeup
from .tables import subtask_tables

CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #222; max-width: 1400px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
th { border-bottom: 2px solid #444; background: #f4f4f4; }
td.name, th.name { text-align: left; }
tr.baseline td { color: #666; font-style: italic; background: #fafafa; }
tr.first-baseline td { border-top: 2px solid #444; }
td.best { font-weight: bold; }
td.ci { color: #555; }
span.tag { font-size: 11px; border: 1px solid #999; border-radius: 3px; padding: 0 3px; font-style: normal; }
.figure { overflow-x: auto; margin-bottom: 2em; }
code { font-size: 12px; }
"""


def esc(text):
    """``text`` escaped for HTML text and attribute values (one printable line: control characters, which HTML
    forbids, and format characters, which reorder text, written as visible escapes)."""
    return html.escape(printable(" ".join(str(text).split()), MAX_TEXT_CHARS), quote=True)


def name_html(text):
    """A team name in a cell: escaped and isolated (``<bdi>``)."""
    return "<bdi>%s</bdi>" % esc(text)


def fmt(value):
    """A score as the HTML tables show it (4 decimals)."""
    return "%.4f" % value


def table_html(tab):
    """One ``<table>`` for :class:`~organiser.results.tables.Table` ``tab``."""
    key, label = tab.columns[0]
    heads = ['<th>Rank</th>', '<th class="name">Team</th>', "<th>%s</th>" % esc(label), "<th>95% CI</th>"]
    heads += ["<th>%s</th>" % esc(lab) for _, lab in tab.columns[1:]] + ["<th>p vs next</th>"]
    best = dict((k, tab.best(k, fmt)) for k, _ in tab.columns)
    out = ['<table id="%s">' % esc(tab.slug), "<thead><tr>%s</tr></thead>" % "".join(heads), "<tbody>"]
    first_baseline = True
    for row in tab.rows:
        classes = []
        if row.baseline:
            classes.append("baseline")
            if first_baseline:
                classes.append("first-baseline")
                first_baseline = False
        name = name_html(row.name) + (' <span class="tag">baseline</span>' if row.baseline else "")
        cells = ["<td>%s</td>" % esc(row.rank_text()), '<td class="name">%s</td>' % name]
        for k, _ in tab.columns:
            value = row.value(k)
            text = fmt(value) if value is not None else "&ndash;"
            bold = value is not None and not row.baseline and text == best[k]
            cells.append('<td%s>%s</td>' % (' class="best"' if bold else "", text))
            if k == key:
                cells.append('<td class="ci">[%s, %s]</td>' % tuple(fmt(v) for v in row.interval(k)))
        test = "" if row.p_next is None else "%.3f%s" % (row.p_next, " *" if row.significant_next else "")
        cells.append("<td>%s</td>" % test)
        out.append('<tr class="%s">%s</tr>' % (" ".join(classes), "".join(cells)))
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def failures_html(results):
    """The table of submissions that failed or were not scored (or a sentence saying there are none)."""
    if not results["failures"]:
        return "<p>None: every team's official submission was re-scored.</p>"
    rows = ["<tr><td class=\"name\">%s</td><td class=\"name\">%s</td><td class=\"name\">%s</td>"
            "<td class=\"name\">%s</td><td class=\"name\">%s: %s</td></tr>"
            % (esc(rec["subtask"]), name_html(rec["team"]), esc(rec["label"]), esc(rec["platform"]), esc(rec["state"]),
               esc(rec["reason"])) for rec in results["failures"]]
    return ("<table><thead><tr><th class=\"name\">Subtask</th><th class=\"name\">Team</th><th class=\"name\">"
            "Submission</th><th class=\"name\">Platform</th><th class=\"name\">What happened</th></tr></thead>"
            "<tbody>%s</tbody></table>" % "\n".join(rows))


def submissions_html(results):
    """Every submission found: team, name, time, platform status, what became of it, its scores."""
    heads = ("Subtask", "Team", "Submission", "Time", "Platform status", "State", "Re-scored overall",
             "Platform's overall")
    rows = []
    for rec in results["submissions"]:
        texts = [rec["subtask"], rec["team"], rec["label"], rec["time"] or "", rec["status"] or "", rec["state"]]
        nums = [rec.get("overall_score"), rec.get("platform_avg_score")]
        texts = [esc(t) for t in texts]
        texts[1] = "<bdi>%s</bdi>" % texts[1]
        rows.append("<tr>%s%s</tr>" % ("".join('<td class="name">%s</td>' % t for t in texts),
                                       "".join("<td>%s</td>" % ("" if n is None else fmt(n)) for n in nums)))
    return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (
        "".join('<th%s>%s</th>' % (' class="name"' if i < 6 else "", esc(h)) for i, h in enumerate(heads)),
        "\n".join(rows))


def page(results, svgs):
    """The whole page; ``svgs`` maps a subtask name to its ``[(slug, svg)]``."""
    title = "Results: %s" % results["competition"]["title"]
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">', "<title>%s</title>" % esc(title),
           "<style>%s</style>" % CSS, "</head>", "<body>", "<h1>%s</h1>" % esc(title),
           "<p><strong>Method.</strong> %s</p>" % esc(results["method"]),
           "<p>Official submission of each team: the <strong>%s</strong> one. Ranks are rank ranges (clusters); "
           "<em>p vs next</em> is the paired bootstrap p-value against the next team, * when below 0.05. Best team "
           "value of each column in bold; baselines are marked and not ranked.</p>" % esc(results["rule"])]
    for sub in results["subtasks"]:
        out += ["<h2>%s</h2>" % esc(sub["title"]),
                "<p>Scorer signature: <code>%s</code></p>" % esc(sub["signature"])]
        for slug, svg in svgs.get(sub["name"], []):
            out.append('<div class="figure" id="fig-%s">%s</div>' % (esc(slug), svg))
        if results.get("ranked_on"):
            out.append("<p>Ranked on %s.</p>" % esc(results["ranked_on"]))
        for tab in subtask_tables(sub):
            out += ["<h3>%s</h3>" % esc(tab.title), table_html(tab)]
        out += shakeup.html(sub, esc)
    out += ["<h2>Submissions not in the tables</h2>", failures_html(results), "<h2>Every submission</h2>",
            submissions_html(results)]
    if results.get("warnings"):
        out += ["<h2>Warnings</h2>", "<ul>%s</ul>" % "".join("<li>%s</li>" % esc(w) for w in results["warnings"])]
    if results["notes"]:
        out += ["<h2>Notes</h2>", "<ul>%s</ul>" % "".join("<li>%s</li>" % esc(n) for n in results["notes"])]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
