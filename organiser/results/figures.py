"""SVG figures of a subtask (written as files and embedded in results.html).

- ``<subtask>-scores``: one panel per ranking (overall, then each task mean) on a common x axis from the
  lowest to the highest interval bound; a row per team in the order of the overall ranking, then the
  baselines (grey, hollow); a dot at the score and a bar over its 95% interval.
- ``<subtask>-languages``: a language x team heat map of the language averages, with the value in
  each cell (white to dark blue; a blank cell when the language has no score).

Plain SVG 1.1 with text as text; every label is one printable line (no character XML forbids), XML-escaped,
and the row labels of a figure are all different (:func:`row_labels`).
"""
import html

from evalkit.messages import printable

ROW = 18          # px per row
PANEL = 150       # px per panel
CELL_W, CELL_H = 44, 18


MAX_LABEL = 40    # characters of a team name shown in a figure


def label_text(text):
    """``text`` as a figure shows it: one printable line, at most :data:`MAX_LABEL` characters."""
    text = printable(" ".join(str(text).split()), 10 * MAX_LABEL)
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "\u2026"


def esc(text):
    """``text`` escaped for SVG text and attributes (:func:`label_text`)."""
    return html.escape(label_text(text), quote=True)


def _label(row):
    return row["name"] + (" (baseline)" if row["baseline"] else "")


def row_labels(rows):
    """The row labels of a figure (:func:`label_text` of each row's name), made all different: two names that
    read alike once cut get ``#2``, ``#3``... appended to the later ones."""
    labels, seen = [], {}
    for row in rows:
        label = label_text(_label(row))
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else label_text(label[:MAX_LABEL - 4]) + " #%d" % seen[label])
    return labels


def _label_width(labels):
    """Pixels for the row labels: about 6.5 px per character of the longest one (11 px sans-serif)."""
    return int(max([60] + [len(label) * 6.5 + 12 for label in labels]))


def _svg(width, height, body, title):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="Helvetica, Arial, sans-serif" font-size="11" role="img">\n<title>%s</title>\n'
            '<rect width="100%%" height="100%%" fill="white"/>\n%s\n</svg>\n'
            % (width, height, width, height, esc(title), "\n".join(body)))


def _rows(sub):
    """Rows in table order: teams by overall rank, then the baselines."""
    return sub["rows"]


def _extent(sub, keys):
    """The common x range of the panels: the lowest to the highest interval bound, padded by 5%."""
    lows = [row["scores"][k]["lo"] for row in sub["rows"] for k in keys]
    highs = [row["scores"][k]["hi"] for row in sub["rows"] for k in keys]
    lo, hi = min(lows), max(highs)
    pad = (hi - lo) * 0.05 or 0.05
    return lo - pad, hi + pad


def scores_figure(sub):
    """The per-ranking scores with interval bars (see the module docstring)."""
    keys = [(sub["overall_key"], "Overall")] + [(t["mean_key"], t["label"]) for t in sub["tasks"]]
    rows = _rows(sub)
    lo, hi = _extent(sub, [k for k, _ in keys])
    top, gap = 34, 30
    labels = row_labels(rows)
    label_width = _label_width(labels)
    width = label_width + len(keys) * (PANEL + gap)
    height = top + len(rows) * ROW + 28
    body = []
    for i, row in enumerate(rows):
        y = top + i * ROW + ROW / 2
        body.append('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle"%s>%s</text>'
                    % (label_width - 6, y, ' fill="#666" font-style="italic"' if row["baseline"] else "",
                       html.escape(labels[i], quote=True)))
    for p, (key, title) in enumerate(keys):
        x0 = label_width + p * (PANEL + gap)
        scale = lambda v: x0 + (v - lo) / (hi - lo) * PANEL  # noqa: E731  (one panel's x mapping)
        body.append('<text x="%.1f" y="16" text-anchor="middle" font-weight="bold">%s</text>'
                    % (x0 + PANEL / 2, esc(title)))
        body.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f7f7f7" stroke="#ccc"/>'
                    % (x0, top - 4, PANEL, len(rows) * ROW + 8))
        for tick in (lo, (lo + hi) / 2, hi):
            body.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>'
                        % (scale(tick), scale(tick), top - 4, top + len(rows) * ROW + 4))
            body.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="9" fill="#555">%.2f</text>'
                        % (scale(tick), top + len(rows) * ROW + 16, tick))
        for i, row in enumerate(rows):
            score = row["scores"][key]
            y = top + i * ROW + ROW / 2
            colour = "#888" if row["baseline"] else "#1f5fa8"
            body.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2">'
                        '<title>%s: %.4f [%.4f, %.4f]</title></line>'
                        % (scale(score["lo"]), scale(score["hi"]), y, y, colour, esc(row["name"]), score["value"],
                           score["lo"], score["hi"]))
            body.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" stroke="%s"/>'
                        % (scale(score["value"]), y, "white" if row["baseline"] else colour, colour))
    return _svg(width, height, body, "%s: scores with 95%% intervals" % sub["title"])


def _colour(value, lo, hi):
    """White (lowest) to dark blue (highest)."""
    t = 0.0 if hi <= lo else min(1.0, max(0.0, (value - lo) / (hi - lo)))
    start, end = (247, 251, 255), (8, 48, 107)
    return "#%02x%02x%02x" % tuple(int(round(start[i] + (end[i] - start[i]) * t)) for i in range(3))


def heatmap_figure(sub):
    """The language x team heat map of language averages (see the module docstring)."""
    rows = _rows(sub)
    langs = sub["languages"]
    values = [row["scores"][lang["key"]]["value"] for row in rows for lang in langs if lang["key"] in row["scores"]]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    top = 40
    labels = row_labels(rows)
    label_width = _label_width(labels)
    width = label_width + len(langs) * CELL_W + 10
    height = top + len(rows) * CELL_H + 30
    body = ['<text x="%d" y="14" font-weight="bold">Language averages (colour: %.2f to %.2f)</text>'
            % (label_width, lo, hi)]
    for j, lang in enumerate(langs):
        body.append('<text x="%.1f" y="%d" text-anchor="middle"><title>%s</title>%s</text>'
                    % (label_width + j * CELL_W + CELL_W / 2, top - 8, esc(lang["name"]), esc(lang["code"])))
    for i, row in enumerate(rows):
        y = top + i * CELL_H
        body.append('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle"%s>%s</text>'
                    % (label_width - 6, y + CELL_H / 2, ' fill="#666" font-style="italic"' if row["baseline"] else "",
                       html.escape(labels[i], quote=True)))
        for j, lang in enumerate(langs):
            score = row["scores"].get(lang["key"])
            if score is None:
                continue
            fill = _colour(score["value"], lo, hi)
            dark = (score["value"] - lo) > 0.55 * (hi - lo)
            x = label_width + j * CELL_W
            body.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="white"><title>%s, %s: '
                        '%.4f [%.4f, %.4f]</title></rect>' % (x, y, CELL_W, CELL_H, fill, esc(row["name"]),
                                                             esc(lang["code"]), score["value"], score["lo"],
                                                             score["hi"]))
            body.append('<text x="%.1f" y="%.1f" text-anchor="middle" dominant-baseline="middle" font-size="9" '
                        'fill="%s">%.2f</text>' % (x + CELL_W / 2, y + CELL_H / 2, "white" if dark else "#111",
                                                  score["value"]))
    return _svg(width, height, body, "%s: language x team" % sub["title"])


def subtask_figures(sub):
    """``[(slug, svg text)]`` of one subtask (nothing when it has no row)."""
    if not sub["rows"]:
        return []
    return [("%s-scores" % sub["name"], scores_figure(sub))] + (
        [("%s-languages" % sub["name"], heatmap_figure(sub))] if sub["languages"] else [])
