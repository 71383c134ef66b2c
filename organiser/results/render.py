"""Writing the results: ranking.csv, results.json, results.md, results.tex, results.html, figures/*.svg.

Every string that comes from a participant (team, user, file names, messages) is escaped for the
format it lands in: Markdown (:func:`md_escape`), LaTeX (:func:`organiser.results.latex.tex_escape`),
HTML and SVG (``html.escape``), CSV (:func:`csv_cell`: quoted by the writer, and a cell a spreadsheet would
take for a formula is prefixed with ``'``); JSON quotes by construction (a lone surrogate of a file name is
written as its JSON escape). Team names are shown as :func:`organiser.results.names.shown` makes them.
"""
import csv
import json
import os
import re

from evalkit.messages import MAX_TEXT_CHARS, printable

from . import figures, html_page, latex, shakeup
from .tables import subtask_tables

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~&])")
#: What a spreadsheet reads as the start of a formula (OWASP's list, with the full-width forms some accept).
_FORMULA = tuple("=+-@\t\r\n") + tuple("\uff1d\uff0b\uff0d\uff20")


def csv_cell(text):
    """``text`` for a CSV cell that a spreadsheet shows as text: prefixed with ``'`` when it would start a
    formula (``=``, ``+``, ``-``, ``@``, a tab or line break, after any spaces).

    >>> csv_cell("=HYPERLINK(1)"), csv_cell(" @x"), csv_cell("Owls")
    ("'=HYPERLINK(1)", "' @x", 'Owls')
    """
    text = str(text)
    return "'" + text if text.lstrip(" ").startswith(_FORMULA) else text


def md_escape(text):
    """``text`` safe inside a Markdown table cell (no markup, no cell break, one printable line: control and
    format characters written as visible escapes).

    >>> md_escape("a|b *c*\\n<x>\\x1b")
    'a\\\\|b \\\\*c\\\\* \\\\<x\\\\>\\\\\\\\x1b'
    """
    return _MD_SPECIAL.sub(r"\\\1", printable(" ".join(str(text).split()), MAX_TEXT_CHARS))


def fmt(value):
    """A score as the Markdown and HTML tables show it (4 decimals)."""
    return "%.4f" % value


def write_all(results, out):
    """Write every output of ``results`` under ``out`` (created as needed)."""
    os.makedirs(os.path.join(out, "figures"), exist_ok=True)
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8", errors="backslashreplace") as handle:
        json.dump(results, handle, indent=1, ensure_ascii=False, allow_nan=False)
        handle.write("\n")
    for i, sub in enumerate(results["subtasks"]):
        write_ranking_csv(sub, os.path.join(out, "ranking-%s.csv" % sub["name"]))
        if i == 0:
            write_ranking_csv(sub, os.path.join(out, "ranking.csv"))
    svgs = {}
    for sub in results["subtasks"]:
        svgs[sub["name"]] = figures.subtask_figures(sub)
        for slug, svg in svgs[sub["name"]]:
            with open(os.path.join(out, "figures", slug + ".svg"), "w", encoding="utf-8") as handle:
                handle.write(svg)
    _write(os.path.join(out, "results.md"), markdown(results))
    _write(os.path.join(out, "results.tex"), latex.document(results))
    _write(os.path.join(out, "results.html"), html_page.page(results, svgs))


def _write(path, text):
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
        handle.write(text)


def write_ranking_csv(sub, path):
    """``team,rank,avg_score,avg_score_lo,avg_score_hi`` then each task mean with its interval, one row per
    team in ranking order, then the baselines (rank ``baseline``)."""
    overall = sub["overall_key"]
    keys = [overall] + [t["mean_key"] for t in sub["tasks"]]
    header = ["team", "rank"]
    for key in keys:
        header += [key, key + "_lo", key + "_hi"]
    by_name = dict((row["name"], row["id"]) for row in sub["rows"] if not row["baseline"])
    header += shakeup.csv_header(sub)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in subtask_tables(sub)[0].rows:
            cells = [csv_cell(row.name), row.rank_text("-") if not row.baseline else "baseline"]
            for key in keys:
                cells += [repr(row.value(key)), repr(row.interval(key)[0]), repr(row.interval(key)[1])]
            cells += shakeup.csv_cells(sub, None if row.baseline else by_name.get(row.name))
            writer.writerow(cells)


def _md_table(table):
    """One Markdown table (rank, team, the ranking score with its interval, the other columns, the test)."""
    key, label = table.columns[0]
    head = ["Rank", "Team", label, "95% CI"] + [lab for _, lab in table.columns[1:]] + ["p vs next"]
    lines = ["| " + " | ".join(md_escape(h) for h in head) + " |", "|" + "---|" * len(head)]
    best = dict((k, table.best(k, fmt)) for k, _ in table.columns)
    for row in table.rows:
        name = md_escape(row.name) + (" *(baseline)*" if row.baseline else "")
        cells = [row.rank_text() or "-", name]
        for k, _ in table.columns:
            value = row.value(k)
            text = fmt(value) if value is not None else "-"
            cells.append("**%s**" % text if text == best[k] and not row.baseline else text)
            if k == key:
                cells.append("[%s, %s]" % tuple(fmt(v) for v in row.interval(k)))
        cells.append("" if row.p_next is None else "%.3f%s" % (row.p_next, " *" if row.significant_next else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(results):
    """``results.md``: method, every table, the submissions that failed, the notes."""
    out = ["# Results: %s" % md_escape(results["competition"]["title"]), "",
           "**Method.** %s" % md_escape(results["method"]), "",
           "Official submission of each team: the **%s** one. Ranks are rank ranges (clusters); *p vs next* "
           "is the paired bootstrap p-value against the next team, `*` when below 0.05. Best team value of each "
           "column in bold; baselines are marked and not ranked." % results["rule"], ""]
    for sub in results["subtasks"]:
        out += ["## %s" % md_escape(sub["title"]), "",
                "Scorer signature: `%s`" % sub["signature"], ""]
        if results.get("ranked_on"):
            out += ["Ranked on %s." % md_escape(results["ranked_on"]), ""]
        for table in subtask_tables(sub):
            out += ["### %s" % md_escape(table.title), "", _md_table(table), ""]
        out += shakeup.markdown(sub, md_escape)
    out += ["## Submissions not in the tables", ""]
    if results["failures"]:
        out += ["| Subtask | Team | Submission | Platform | What happened |", "|---|---|---|---|---|"]
        for rec in results["failures"]:
            out.append("| %s | %s | %s | %s | %s: %s |" % tuple(md_escape(x) for x in (
                rec["subtask"], rec["team"], rec["label"], rec["platform"], rec["state"], rec["reason"])))
    else:
        out.append("None: every team's official submission was re-scored.")
    out += ["", "## Every submission", "", "| Subtask | Team | Submission | Time | Platform status | State | "
            "Re-scored overall | Platform's overall |", "|---|---|---|---|---|---|---|---|"]
    for rec in results["submissions"]:
        cells = [rec["subtask"], rec["team"], rec["label"], rec["time"] or "", rec["status"] or "", rec["state"]]
        cells = [md_escape(c) for c in cells] + [_num(rec.get("overall_score")), _num(rec.get("platform_avg_score"))]
        out.append("| " + " | ".join(cells) + " |")
    if results.get("warnings"):
        out += ["", "## Warnings", ""] + ["- %s" % md_escape(warning) for warning in results["warnings"]]
    if results["notes"]:
        out += ["", "## Notes", ""] + ["- %s" % md_escape(note) for note in results["notes"]]
    return "\n".join(out) + "\n"


def _num(value):
    return "" if value is None else fmt(value)
