"""Writers: ``scores.txt`` (read by CodaLab, and as YAML by Codabench), ``scores.json`` (read by
Codabench in preference to ``scores.txt``: a flat ``{key: value}`` object), ``detailed_results.json``
(the whole report), ``detailed_results.html`` and the human-readable summary on stdout."""
import io
import json
import math
import os
import re
from collections import OrderedDict

from .messages import MAX_FILE_CHARS, MAX_TEXT_CHARS, printable

KEY_PATTERN = re.compile(r"^[a-z0-9_]{1,36}$")
DECIMALS = 12
#: Size budget of each report (``detailed_results.json``, ``detailed_results.html``), in bytes. Participant
#: strings are already cut and detail tables capped; should a report still be larger, messages (then
#: detail tables) are left out of it, and a message says so.
REPORT_BUDGET = 50 * 1000 * 1000


def format_value(value):
    """A score as a plain decimal with 12 decimal places, never in exponent notation.

    Non-finite values cannot occur (every mean guards its division); should one appear it is
    written as 0 rather than produce a line the platforms cannot read.

    >>> format_value(0.5), format_value(1e-20), format_value(-0.25)
    ('0.500000000000', '0.000000000000', '-0.250000000000')
    """
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        value = 0.0
    text = "%.*f" % (DECIMALS, value)
    return "0.000000000000" if text == "-0.000000000000" else text


def scores_txt(scores):
    """The text of ``scores.txt``: one ``key: value`` line per score, in order.

    Raises ValueError for a key the platforms would not accept (``[a-z0-9_]``, at most 36 chars).
    """
    lines = []
    for key, value in scores.items():
        if not KEY_PATTERN.match(key):
            raise ValueError("score key %r is not [a-z0-9_]{1,36}" % key)
        lines.append("%s: %s\n" % (key, format_value(value)))
    return "".join(lines)


def _write(path, text):
    """Write ``text`` as UTF-8; a lone surrogate, should one reach this point, is written as its escape."""
    with io.open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
        handle.write(text)


#: The most bytes :func:`_write` writes for one character: a lone surrogate's escape ``\udc80`` (any other
#: character takes at most 4 bytes of UTF-8).
MAX_BYTES_PER_CHAR = 6


def _size(text):
    """Size in bytes of ``text`` once written by :func:`_write`."""
    return len(text.encode("utf-8", "backslashreplace"))


def _trimmed(report, keep, details):
    """A copy of ``report`` with its first ``keep`` messages only (and a message saying how many were
    left out) and, unless ``details``, no detail tables."""
    out = dict(report)
    messages = report.get("messages", [])
    if len(messages) > keep:
        out["messages"] = messages[:keep] + [{
            "file": "", "severity": "warning", "where": "report",
            "text": "%d more messages are left out of this report to keep it under %d MB; fix the problems "
                    "above first" % (len(messages) - keep, REPORT_BUDGET // 1000000)}]
    if not details:
        out["entries"] = [dict(entry, details={}) for entry in report.get("entries", [])]
        out["messages"] = out.get("messages", messages) + [{
            "file": "", "severity": "warning", "where": "report",
            "text": "the detail tables are left out of this report to keep it under %d MB"
                    % (REPORT_BUDGET // 1000000)}]
    return out


def within_budget(report, render, budget=REPORT_BUDGET):
    """``render(report)``, or the rendering of a :func:`_trimmed` report when that is over ``budget`` bytes."""
    text = render(report)
    for keep, details in ((1000, True), (100, True), (10, True), (10, False), (0, False)):
        if len(text) * MAX_BYTES_PER_CHAR <= budget or _size(text) <= budget:   # (no encoded copy when it is small)
            break
        text = render(_trimmed(report, keep, details))
    return text


def report_json(report):
    """The text of ``detailed_results.json``."""
    return json.dumps(report, ensure_ascii=False, indent=1) + "\n"


def scores_json(report):
    """The text of ``scores.json``: the numbers of ``scores.txt`` as one flat object, then the signature.

    Codabench posts this object as the submission's scores when the file exists; it keeps the
    keys that are leaderboard columns and skips the others (the components, the signature).
    """
    flat = OrderedDict((key, float(format_value(value))) for key, value in report["scores"].items())
    flat["signature"] = report["signature"]
    return json.dumps(flat, indent=1) + "\n"


def write_outputs(report, out_dir, render_html):
    """Write ``scores.txt``, ``scores.json``, ``detailed_results.json`` and ``detailed_results.html``.

    ``render_html(report) -> str`` renders the HTML page. ``metadata`` is never written (the
    platforms reserve that name).
    """
    if not os.path.isdir(out_dir):
        os.makedirs(out_dir)
    _write(os.path.join(out_dir, "scores.txt"), scores_txt(report["scores"]))
    _write(os.path.join(out_dir, "scores.json"), scores_json(report))
    _write(os.path.join(out_dir, "detailed_results.json"), within_budget(report, report_json))
    _write(os.path.join(out_dir, "detailed_results.html"), within_budget(report, render_html))


def _table(report):
    """Rows of the stdout table: language, its task scores, its average."""
    scores = report["scores"]
    tasks = report["tasks"]
    head = ["lang"] + [t["key"] for t in tasks] + ["avg"]
    rows = [head]
    for lang in report["languages"]:
        code = lang["code"]
        cells = [code]
        for task in tasks:
            value = scores.get("%s_%s" % (code, task["key"]))
            cells.append("-" if value is None else "%.4f" % value)
        average = scores.get(code + "_avg_score")   # none where the competition has no language averages
        cells.append("-" if average is None else "%.4f" % average)
        rows.append(cells)
    rows.append(["avg"] + ["%.4f" % scores.get("avg_" + t["key"], 0.0) for t in tasks]
                + ["%.4f" % scores.get("avg_score", 0.0)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return ["  ".join(cell.rjust(w) for cell, w in zip(row, widths)) for row in rows]


def _count_label(count, severity):
    """``"1 error"``, ``"5 errors"``, ``"3 warnings"``, ``"2 info"`` (info is not counted in the plural).

    >>> _count_label(1, "error"), _count_label(5, "error"), _count_label(2, "info")
    ('1 error', '5 errors', '2 info')
    """
    return "%d %s%s" % (count, severity, "" if count == 1 or severity == "info" else "s")


def summary(report, max_messages=20):
    """A short human-readable summary: signature, overall score, table, message counts, the first messages
    (participant text printed escaped and cut: no line break, no control character)."""
    lines = ["%s" % report["title"], "signature: %s" % report["signature"]]
    split = (report.get("notes") or {}).get("split")
    if split:   # a test phase split into parts (evalkit.split): what was scored, never which items
        lines.append(split)
    if "valid" in report["scores"] and "avg_score" not in report["scores"]:   # a blind phase: no score
        lines.extend(["validly predicted (valid): %.4f" % report["scores"]["valid"], ""])
    else:
        lines.extend(["overall score (avg_score): %.4f" % report["scores"].get("avg_score", 0.0), ""])
        lines.extend(_table(report))
    messages = report["messages"]
    counts = {}
    for msg in messages:
        counts[msg["severity"]] = counts.get(msg["severity"], 0) + 1
    lines.append("")
    lines.append("messages: %s" % (", ".join(_count_label(n, s) for s, n in sorted(counts.items())) or "none"))
    shown = [m for m in messages if m["severity"] != "info"]   # errors first (see evalkit.scoring.errors_first)
    for msg in shown[:max_messages]:
        place = ", ".join(printable(part, MAX_FILE_CHARS) for part in (msg["file"], msg["where"]) if part)
        lines.append("  %s: %s: %s" % (printable(msg["severity"]), place, printable(msg["text"], MAX_TEXT_CHARS)))
    if len(messages) > max_messages:
        rest = {}
        for msg in shown[max_messages:]:
            rest[msg["severity"]] = rest.get(msg["severity"], 0) + 1
        more = ", ".join(_count_label(n, s) for s, n in sorted(rest.items()))
        lines.append("  ... %sall messages are in detailed_results.json and detailed_results.html"
                     % ("%s more not shown here; " % more if more else ""))
    if (report.get("notes") or {}).get("gold"):
        lines.append(report["notes"]["gold"])
    return "\n".join(lines) + "\n"
