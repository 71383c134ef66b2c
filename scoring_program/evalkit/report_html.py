"""``detailed_results.html``: a self-contained HTML page built from the report (``detailed_results.json``).

The page has inline CSS only, no JavaScript and no external resource (fonts, images, scripts), so
it displays the same way in a platform's sandboxed iframe, offline, or from a saved file. Every
string taken from the report is escaped with :func:`html.escape`: file names, messages, tag and
feature labels and language names can all come from a participant. The output depends only on
the report (no timestamp), so the same report always gives the same page.

Use :func:`render`; the other functions are internal helpers, each building one part of the page.
Standard library only, Python 3.7+.
"""
import html
import math
from collections import OrderedDict

#: At most this many messages are shown per file; the rest are counted.
MAX_MESSAGES_PER_FILE = 200
#: At most this many rows are shown in a per-tag or per-feature table (labels can be
#: participant-controlled, e.g. one spurious tag per token); the rest are counted.
MAX_DETAIL_ROWS = 200

SEVERITIES = ("error", "warning", "info")
METRIC_LABELS = {"acc": "accuracy", "f1": "macro-F1", "acc1": "acc@1", "acc3": "acc@3",
                 "score": "score", "feature_acc": "feature accuracy", "macro_f1": "macro-F1",
                 "spearman": "Spearman's rho", "pearson": "Pearson's r"}
#: Short labels of entry statuses for the flags of the languages x tasks table.
STATUS_LABELS = {"missing": "missing", "unreadable": "unreadable", "sentence_count_mismatch": "wrong sentence count"}
MORPH_NOTE = ("A token whose reference has no feature (punctuation, many particles, multiword-token ranges) scores 1 "
              "when no feature is predicted for it, whatever else is predicted. So the task score can be well above "
              "0 while the feature accuracy (over the tokens that do carry features) is 0: a prediction without any "
              "feature scores exactly the share of feature-less tokens.")
STATUS_SCORED = "scored"

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  margin: 0; padding: 0 1.5rem 3rem; color: #1d232b; background: #fff; line-height: 1.45; }
header { border-bottom: 3px solid #3b6ea5; padding: 1.2rem 0 .8rem; margin-bottom: 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .4rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; border-bottom: 1px solid #d5dbe3; padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
code, .sig { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .85rem; }
.sig { word-break: break-all; background: #f3f5f8; padding: .1rem .3rem; border-radius: 3px; }
.meta { color: #56606c; font-size: .9rem; margin: .2rem 0; }
nav { font-size: .9rem; margin: .6rem 0; }
nav a { margin-right: .9rem; }
a { color: #2a5b8f; }
.overall { display: flex; flex-wrap: wrap; gap: 1.2rem; align-items: flex-start; }
.big { font-size: 2.4rem; font-weight: 700; color: #2a5b8f; line-height: 1.1; }
.card { border: 1px solid #d5dbe3; border-radius: 6px; padding: .7rem 1rem; background: #fafbfc; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; font-size: .88rem; }
th, td { border: 1px solid #d5dbe3; padding: .25rem .55rem; text-align: left; vertical-align: top; }
th { background: #eef2f7; font-weight: 600; }
th[colspan] { text-align: center; }
tbody tr:nth-child(even) td { background: #f8f9fb; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.na { color: #8a939e; text-align: center; }
td.text { max-width: 46rem; overflow-wrap: anywhere; }
tr.total td { font-weight: 600; border-top: 2px solid #aab4c0; }
.bad { color: #a4262c; font-weight: 600; }
.flag { display: inline-block; margin-left: .3rem; padding: 0 .3rem; border-radius: 3px;
  background: #fde7e9; color: #a4262c; font-size: .78rem; font-weight: 600; }
td.num .flag { display: block; margin: .15rem 0 0; white-space: normal; text-align: left; }
.matrix td:first-child .meta { display: block; font-size: .8rem; }
.base { color: #56606c; }
.sev { display: inline-block; min-width: 4.2rem; padding: 0 .3rem; border-radius: 3px;
  font-size: .78rem; font-weight: 600; text-align: center; }
.sev-error { background: #fde7e9; color: #a4262c; }
.sev-warning { background: #fff4ce; color: #7a5800; }
.sev-info { background: #e8eef5; color: #34495e; }
.sev-other { background: #eeeeee; color: #333333; }
details { margin: .3rem 0; border: 1px solid #e1e6ec; border-radius: 5px; padding: .2rem .6rem; }
details[open] { padding-bottom: .5rem; }
summary { cursor: pointer; padding: .2rem 0; }
.note { color: #56606c; font-size: .85rem; margin: .3rem 0; }
.more { font-style: italic; color: #56606c; }
svg { max-width: 100%; height: auto; font-family: system-ui, "DejaVu Sans", sans-serif; }
"""


# --------------------------------------------------------------------------- small helpers

def _e(value):
    """Escape any value for HTML text or a quoted attribute (``None`` gives an empty string)."""
    if value is None:
        return ""
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def _key(value):
    """A hashable text key for a report value (``None`` gives an empty string); not escaped."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _as_dict(value):
    """``value`` if it is a dict, else an empty dict."""
    return value if isinstance(value, dict) else {}


def _as_list(value):
    """``value`` if it is a list or tuple, else an empty list."""
    return list(value) if isinstance(value, (list, tuple)) else []


def _number(value):
    """``value`` as a float, or ``None`` when it is not a number (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _count(value):
    """``value`` as an int count (0 for anything that is not a finite number)."""
    number = _number(value)
    if number is None or not math.isfinite(number):
        return 0
    return int(number)


def _fmt(value):
    """A score with 4 decimals; "n/a" for a missing or non-numeric value."""
    number = _number(value)
    return "n/a" if number is None else "%.4f" % number


def _fmt_count(value):
    """An integer count for display ("n/a" when absent)."""
    number = _number(value)
    if number is None or not math.isfinite(number):
        return "n/a"
    return "%d" % number


def _ratio(num, den):
    """``num / den``, defined as 0 when ``den`` is 0."""
    return float(num) / den if den else 0.0


def _num_td(value, counts=False):
    """A right-aligned table cell for a score (or a count); "n/a" cells are greyed."""
    text = _fmt_count(value) if counts else _fmt(value)
    return '<td class="%s">%s</td>' % ("na" if text == "n/a" else "num", text)


def _base_td(base, key):
    """A muted cell with the baseline's score for ``key`` (nothing when no baseline was given)."""
    if not base:
        return ""
    text = _fmt(base.get(key))
    return '<td class="%s">%s</td>' % ("na" if text == "n/a" else "num base", text)


def _base_note(view):
    """One sentence naming the baseline shown beside the scores (empty without a baseline)."""
    if not view.baseline_scores:
        return ""
    return (" The baseline columns and the black ticks of the chart are the scores of the %s (the starting "
            "kit's make_submission.py, trained on train only) on the same reference." % _e(view.baseline_label))


def _metric_label(name):
    """Human label of a component/micro metric name, escaped."""
    return _e(METRIC_LABELS.get(name, name))


def _sev_class(severity):
    """CSS class of a severity (whitelisted, never taken from the data)."""
    return "sev-" + severity if severity in SEVERITIES else "sev-other"


def _table(head_html, rows, css_class=""):
    """A table in a horizontally scrolling wrapper; ``rows`` are ``<tr>`` strings."""
    cls = ' class="%s"' % css_class if css_class else ""
    return ('<div class="scroll"><table%s><thead>%s</thead><tbody>%s</tbody></table></div>'
            % (cls, head_html, "".join(rows)))


def _head_row(labels, numeric_from=1):
    """A header row; columns from index ``numeric_from`` are right-aligned. Labels are HTML."""
    cells = ['<th%s>%s</th>' % (' class="num"' if i >= numeric_from else "", label)
             for i, label in enumerate(labels)]
    return "<tr>%s</tr>" % "".join(cells)


# --------------------------------------------------------------------------- report model

class _View(object):
    """The report, normalised once: ordered tasks and languages, entries indexed by pair.

    Tolerates any missing or empty key: tasks or languages that only appear in entries are
    added after the declared ones, in order of first appearance.
    """

    def __init__(self, report):
        report = _as_dict(report)
        self.title = report.get("title") or report.get("competition") or "Detailed results"
        self.competition = report.get("competition")
        self.signature = report.get("signature")
        self.scores = _as_dict(report.get("scores"))
        self.notes = _as_dict(report.get("notes"))   # wording a competition declares (REPORT_NOTES)
        self.entries = [entry for entry in _as_list(report.get("entries")) if isinstance(entry, dict)]
        self.messages = [msg for msg in _as_list(report.get("messages")) if isinstance(msg, dict)]
        baseline = _as_dict(report.get("baseline"))
        self.baseline_scores = _as_dict(baseline.get("scores"))
        self.baseline_label = _key(baseline.get("label")) or "baseline"
        self.tasks = self._tasks(_as_list(report.get("tasks")))
        self.languages = self._languages(_as_list(report.get("languages")))
        self.by_pair = {}
        for entry in self.entries:
            self.by_pair.setdefault((_key(entry.get("task")), _key(entry.get("lang"))), entry)
        self.message_anchor = self._message_anchors()

    def _tasks(self, declared):
        """Ordered ``{folder: task dict}`` from the declared tasks, then the entries' tasks."""
        tasks = OrderedDict()
        for task in declared:
            if isinstance(task, dict) and _key(task.get("folder")) not in tasks:
                tasks[_key(task.get("folder"))] = task
        for entry in self.entries:
            folder = _key(entry.get("task"))
            if folder not in tasks:
                tasks[folder] = {"folder": entry.get("task"), "key": entry.get("task"),
                                 "label": entry.get("task"), "kind": "", "components": []}
        return tasks

    def _languages(self, declared):
        """Ordered ``{code: name}`` from the declared languages, then the entries' languages."""
        languages = OrderedDict()
        for lang in declared:
            if isinstance(lang, dict) and _key(lang.get("code")) not in languages:
                languages[_key(lang.get("code"))] = _key(lang.get("name") or lang.get("code"))
        for entry in self.entries:
            languages.setdefault(_key(entry.get("lang")), _key(entry.get("lang")))
        return languages

    def _message_anchors(self):
        """``{file: anchor id}`` for every file that has messages, in order of appearance."""
        anchors = OrderedDict()
        for msg in self.messages:
            key = _key(msg.get("file"))
            if key not in anchors:
                anchors[key] = "messages-%d" % (len(anchors) + 1)
        return anchors

    def task_entries(self, folder):
        """The entries of one task, in language order."""
        return [self.by_pair[(folder, code)] for code in self.languages if (folder, code) in self.by_pair]

    def lang_label(self, code):
        """Escaped HTML label "code name" of a language code (a raw key)."""
        name = self.languages.get(code)
        if not name or name == code:
            return _e(code)
        return '%s <span class="meta">%s</span>' % (_e(code), _e(name))


# --------------------------------------------------------------------------- page parts

def _header(view):
    """Title, competition id, reproducibility signature and the in-page navigation."""
    parts = ["<header><h1>%s</h1>" % _e(view.title)]
    if view.competition:
        parts.append('<p class="meta">Competition: <code>%s</code></p>' % _e(view.competition))
    signature = _e(view.signature) if view.signature else "not recorded"
    parts.append('<p class="meta">Reproducibility signature: <span class="sig">%s</span></p>' % signature)
    links = [("overview", "Overview"), ("matrix", "Languages &times; tasks"), ("chart", "Chart")]
    links += [("task-%d" % (i + 1), _e(task.get("label") or folder))
              for i, (folder, task) in enumerate(view.tasks.items())]
    links.append(("messages", "Messages (%d)" % len(view.messages)))
    parts.append("<nav>%s</nav></header>" % "".join('<a href="#%s">%s</a>' % link for link in links))
    return "".join(parts)


def _overview(view):
    """The overall score and the per-task means (``avg_score``, ``avg_<task key>``)."""
    overall = _fmt(view.scores.get("avg_score"))
    rows = []
    for i, (folder, task) in enumerate(view.tasks.items()):
        key = "avg_%s" % (task.get("key") or folder)
        rows.append('<tr><td><a href="#task-%d">%s</a></td><td><code>%s</code></td>%s%s%s</tr>' % (
            i + 1, _e(task.get("label") or folder), _e(key), _num_td(view.scores.get(key)),
            _base_td(view.baseline_scores, key), _num_td(len(view.task_entries(folder)), counts=True)))
    base = ["Baseline"] if view.baseline_scores else []
    table = (_table(_head_row(["Task", "Score key", "Mean"] + base + ["Languages"], 2), rows) if rows
             else '<p class="note">No tasks in the report.</p>')
    return ('<section id="overview"><h2>Overview</h2><div class="overall">'
            '<div class="card"><div class="meta">Overall score (<code>avg_score</code>)</div>'
            '<div class="big">%s</div><div class="note">%s%s'
            '</div></div><div>%s</div></div>%s</section>'
            % (overall, _e(view.notes.get("overall") or "Mean of the task means; each task weighs the same."),
               _overall_base(view), table, _status_summary(view)))


def _overall_base(view):
    """The baseline's overall score under the participant's (empty without a baseline)."""
    value = _number(view.baseline_scores.get("avg_score"))
    if value is None:
        return ""
    return '<br><span class="base">%s: %s</span>' % (_e(view.baseline_label), _fmt(value))


def _status_summary(view):
    """A line counting entries by status (so missing or unreadable files stand out)."""
    counts = OrderedDict()
    for entry in view.entries:
        status = _key(entry.get("status")) or "unknown"
        counts[status] = counts.get(status, 0) + 1
    if not counts:
        return '<p class="note">No entries were scored.</p>'
    parts = []
    for status, count in counts.items():
        css = "" if status == STATUS_SCORED else ' class="bad"'
        parts.append("<span%s>%d %s</span>" % (css, count, _e(STATUS_LABELS.get(status, status))))
    return '<p class="note">Entries: %s.</p>' % ", ".join(parts)


def _status_flag(view, entry):
    """A visible marker for an entry whose status is not "scored", linking to its messages."""
    status = entry.get("status")
    if status == STATUS_SCORED:
        return ""
    label = "&#9888; %s" % _e(STATUS_LABELS.get(_key(status)) or _key(status).replace("_", " ") or "unknown")
    anchor = view.message_anchor.get(_key(entry.get("file")))
    if anchor:
        label = '<a href="#%s">%s</a>' % (anchor, label)
    return '<span class="flag">%s</span>' % label


def _matrix_cell(view, folder, code):
    """One cell of the languages x tasks table."""
    entry = view.by_pair.get((folder, code))
    if entry is None:
        return '<td class="na">&ndash;</td>'
    return '<td class="num">%s%s</td>' % (_fmt(entry.get("score")), _status_flag(view, entry))


def _matrix(view):
    """Languages x tasks table of entry scores, with each language's average and the task means."""
    if not view.languages or not view.tasks:
        return '<section id="matrix"><h2>Languages &times; tasks</h2><p class="note">Nothing to show.</p></section>'
    base = view.baseline_scores
    head = _head_row(["Language"] + [_e(t.get("label") or f) for f, t in view.tasks.items()] + ["Average"]
                     + (["Baseline average"] if base else []))
    rows = []
    for code in view.languages:
        cells = "".join(_matrix_cell(view, folder, code) for folder in view.tasks)
        rows.append("<tr><td>%s</td>%s%s%s</tr>" % (view.lang_label(code), cells,
                                                   _num_td(view.scores.get(code + "_avg_score")),
                                                   _base_td(base, code + "_avg_score")))
    means = "".join(_num_td(view.scores.get("avg_%s" % (t.get("key") or f))) for f, t in view.tasks.items())
    rows.append('<tr class="total"><td>Task mean</td>%s%s%s</tr>' % (means, _num_td(view.scores.get("avg_score")),
                                                                    _base_td(base, "avg_score")))
    return ('<section id="matrix"><h2>Languages &times; tasks</h2>%s<p class="note">&ndash; : the pair is not '
            'scored. A flag marks an entry that was not scored as submitted (missing file, unreadable file, '
            'wrong sentence count); it scores 0 and counts in the averages.%s</p></section>'
            % (_table(head, rows, "matrix"), _base_note(view)))


def _chart_rows(view):
    """``[(code, label, value)]`` of the per-language averages present in the scores."""
    rows = []
    for code in view.languages:
        value = _number(view.scores.get(code + "_avg_score"))
        if value is not None:
            name = view.languages.get(code) or ""
            name = name if len(name) <= 24 else name[:23] + "\u2026"
            rows.append((code, code if not name or name == code else "%s \u00b7 %s" % (code, name), value))
    return rows


def _chart(view):
    """Inline SVG horizontal bar chart of the per-language averages (``<lang>_avg_score``): on [0, 1], or on [-1, 1]
    when an average is negative (a correlation below 0 is drawn as it is, left of 0, never clipped to 0)."""
    rows = _chart_rows(view)
    if not rows:
        return '<section id="chart"><h2>Per-language averages</h2><p class="note">No language averages.</p></section>'
    low = -1.0 if any(math.isfinite(value) and value < 0 for _, _, value in rows) else 0.0
    left, width, row_h, top = 200, 440, 24, 26
    height = top + row_h * len(rows) + 10
    parts = ['<svg role="img" aria-label="Bar chart of the per-language average scores" width="%d" height="%d" '
             'viewBox="0 0 %d %d">' % (left + width + 80, height, left + width + 80, height)]
    parts.append(_chart_axis(left, width, top, height, low))
    for i, (code, label, value) in enumerate(rows):
        parts.append(_chart_bar(left, width, top + i * row_h, row_h, label, value, low))
        parts.append(_chart_base(view, code, left, width, top + i * row_h, row_h, low))
    parts.append(_chart_overall(view, left, width, top, height, low))
    parts.append("</svg>")
    return ('<section id="chart"><h2>Per-language averages</h2><div class="scroll">%s</div>'
            '<p class="note">Mean of each language&#8217;s task scores; the dashed line is the overall score. '
            'Bars are clipped to [%g, 1]; the number is the exact value.%s</p></section>'
            % ("".join(parts), low, _base_note(view)))


def _position(value, low):
    """Where ``value`` stands on the axis [``low``, 1], as a fraction of its width (clipped to the axis)."""
    return (min(1.0, max(low, value)) - low) / (1.0 - low)


def _chart_base(view, code, left, width, y, row_h, low=0.0):
    """A black tick at the baseline's average for language ``code`` (nothing without one)."""
    value = _number(view.baseline_scores.get(code + "_avg_score"))
    if value is None or not math.isfinite(value):
        return ""
    x = left + width * _position(value, low)
    return ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1d232b" stroke-width="3">'
            '<title>%s: %.4f</title></line>' % (x, y + 1, x, y + row_h - 2, _e(view.baseline_label), value))


def _chart_axis(left, width, top, height, low=0.0):
    """Grid lines and tick labels at five even steps of [``low``, 1] (0, 0.25, ..., 1 by default)."""
    parts = []
    for i in range(5):
        x = left + width * i / 4.0
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#d5dbe3" stroke-width="1"/>'
                     % (x, top - 4, x, height - 6))
        parts.append('<text x="%.1f" y="%d" font-size="11" fill="#56606c" text-anchor="middle">%.2f</text>'
                     % (x, top - 9, low + (1.0 - low) * i / 4.0))
    return "".join(parts)


def _chart_bar(left, width, y, row_h, label, value, low=0.0):
    """One labelled bar from 0 to the value (the label is escaped; the bar is clipped to [``low``, 1])."""
    zero = _position(0.0, low) if math.isfinite(value) else 0.0
    shown = _position(value, low) if math.isfinite(value) else 0.0
    start, end = min(zero, shown), max(zero, shown)
    return ('<g><title>%s: %.4f</title>'
            '<text x="%d" y="%.1f" font-size="12" fill="#1d232b" text-anchor="end">%s</text>'
            '<rect x="%d" y="%.1f" width="%.1f" height="%.1f" fill="#3b6ea5" rx="2"/>'
            '<text x="%.1f" y="%.1f" font-size="12" fill="#1d232b">%s</text></g>'
            % (_e(label), value, left - 8, y + row_h * 0.65, _e(label), left + width * start, y + 3,
               width * (end - start), row_h - 6, left + width * end + 5, y + row_h * 0.65, _fmt(value)))


def _chart_overall(view, left, width, top, height, low=0.0):
    """Dashed vertical line at the overall score (nothing when it is absent or off the axis)."""
    value = _number(view.scores.get("avg_score"))
    if value is None or not math.isfinite(value) or not low <= value <= 1.0:
        return ""
    x = left + width * _position(value, low)
    return ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#a4262c" stroke-width="1.5" '
            'stroke-dasharray="4 3"><title>overall %.4f</title></line>' % (x, top - 4, x, height - 6, value))


# --------------------------------------------------------------------------- per-task sections

def _metric_columns(task, entries, field):
    """Ordered metric names for ``field`` ("components" or "micro") of a task's entries."""
    names = [str(name) for name in _as_list(task.get("components"))] if field == "components" else []
    for entry in entries:
        for name in _as_dict(entry.get(field)):
            if name not in names:
                names.append(name)
    return names


def _task_summary(view, task, entries):
    """One row per language: status, score, official components, corpus-level micro, counts."""
    comps = _metric_columns(task, entries, "components")
    micro = _metric_columns(task, entries, "micro")
    counts = ("sentences", "scored_sentences", "items", "zeroed_sentences")
    base = view.baseline_scores
    top = ('<tr><th rowspan="2">Language</th><th rowspan="2">Status</th><th rowspan="2" class="num">Score</th>%s%s%s'
           '<th colspan="4">Counts</th></tr>'
           % ('<th rowspan="2" class="num">Baseline</th>' if base else "",
              '<th colspan="%d">%s</th>' % (len(comps), _e(view.notes.get("official") or "Official (sentence-averaged)"))
              if comps else "",
              '<th colspan="%d">Corpus-level (token-micro)</th>' % len(micro) if micro else ""))
    second = "".join('<th class="num">%s</th>' % _metric_label(n) for n in comps + micro)
    second += "".join('<th class="num">%s</th>' % _e(_count_label(view, c)) for c in counts)
    rows = []
    for entry in entries:
        cells = [_num_td(entry.get("score"))]
        cells += [_base_td(base, "%s_%s" % (_key(entry.get("lang")), task.get("key") or _key(entry.get("task"))))]
        cells += [_num_td(_as_dict(entry.get("components")).get(n)) for n in comps]
        cells += [_num_td(_as_dict(entry.get("micro")).get(n)) for n in micro]
        cells += [_num_td(entry.get(c), counts=True) for c in counts]
        status = _e(STATUS_LABELS.get(_key(entry.get("status"))) or entry.get("status") or "unknown")
        status = status if entry.get("status") == STATUS_SCORED else '<span class="bad">%s</span>' % status
        rows.append("<tr><td>%s</td><td>%s</td>%s</tr>" % (view.lang_label(_key(entry.get("lang"))), status,
                                                          "".join(cells)))
    return _table(top + "<tr>%s</tr>" % second, rows)


def _count_label(view, name):
    """The label of a count field (``sentences``, ``scored_sentences``, ...) in the competition's unit (the
    ``unit`` of its REPORT_NOTES, e.g. "documents"; sentences by default)."""
    unit = view.notes.get("unit") or "sentences"
    return name.replace("sentences", unit).replace("_", " ")


def _comparison_table(view, entry):
    """Official vs corpus-level (token-micro) value of each metric; the official column alone when the kind
    computes no corpus-level value."""
    comps, micro = _as_dict(entry.get("components")), _as_dict(entry.get("micro"))
    names = list(comps) + [name for name in micro if name not in comps]
    rows = ["<tr><td>task score</td>%s%s</tr>" % (_num_td(entry.get("score")),
                                                  '<td class="na">&ndash;</td>' if micro else "")]
    for name in names:
        rows.append("<tr><td>%s</td>%s%s</tr>" % (_metric_label(name), _num_td(comps.get(name)),
                                                  _num_td(micro.get(name)) if micro else ""))
    head = ["Metric", _e(view.notes.get("official") or "Official (mean over sentences)")]
    return _table(_head_row(head + (["Corpus-level (over all items)"] if micro else [])), rows)


def _tag_row(tag, counts):
    """One per-tag row: counts, precision, recall, F1 (0 when a denominator is 0)."""
    tp, fp, fn = _count(counts.get("tp")), _count(counts.get("fp")), _count(counts.get("fn"))
    prec, rec, f1 = _ratio(tp, tp + fp), _ratio(tp, tp + fn), _ratio(2 * tp, 2 * tp + fp + fn)
    return (tp + fn, fp, "<tr><td>%s</td>%s%s%s%s%s%s%s</tr>" % (
        _e(tag), _num_td(tp, True), _num_td(fp, True), _num_td(fn, True), _num_td(tp + fn, True),
        _num_td(prec), _num_td(rec), _num_td(f1)), (prec, rec, f1))


def _per_tag_table(per_tag):
    """Per-tag precision/recall/F1 from tp/fp/fn counts, most frequent gold tags first."""
    per_tag = _as_dict(per_tag)
    if not per_tag:
        return '<p class="note">No per-tag counts in the report.</p>'
    rows = sorted((_tag_row(tag, _as_dict(counts)) for tag, counts in per_tag.items()),
                  key=lambda row: (-row[0], -row[1]))
    macro = [sum(row[3][i] for row in rows) / len(rows) for i in range(3)]
    shown = [row[2] for row in rows[:MAX_DETAIL_ROWS]]
    shown.append('<tr class="total"><td>macro average (%d tags)</td><td colspan="4"></td>%s%s%s</tr>'
                 % (len(rows), _num_td(macro[0]), _num_td(macro[1]), _num_td(macro[2])))
    head = _head_row(["Tag", "TP", "FP", "FN", "Gold count", "Precision", "Recall", "F1"])
    return (_table(head, shown) + _more_rows(len(rows), "tags") +
            '<p class="note">Corpus-level counts over all scored tokens. Precision = TP/(TP+FP), recall = '
            'TP/(TP+FN), F1 = 2TP/(2TP+FP+FN); each is defined as 0 when its denominator is 0.</p>')


def _per_feature_table(per_feature):
    """Per-feature accuracy (correct/total) and spurious predictions, most frequent first."""
    per_feature = _as_dict(per_feature)
    if not per_feature:
        return '<p class="note">No per-feature counts in the report.</p>'
    rows = []
    for name, counts in per_feature.items():
        counts = _as_dict(counts)
        correct, total, spurious = (_count(counts.get(k)) for k in ("correct", "total", "spurious"))
        rows.append((total, spurious, "<tr><td>%s</td>%s%s%s%s</tr>" % (
            _e(name), _num_td(correct, True), _num_td(total, True), _num_td(_ratio(correct, total)),
            _num_td(spurious, True))))
    rows.sort(key=lambda row: (-row[0], -row[1]))
    head = _head_row(["Feature", "Correct", "Total (gold)", "Accuracy", "Spurious"])
    return (_table(head, [row[2] for row in rows[:MAX_DETAIL_ROWS]]) + _more_rows(len(rows), "features") +
            '<p class="note">Accuracy = correct/total over the reference tokens that carry the feature (0 when '
            'the total is 0); spurious = predicted on a token whose reference lacks the feature.</p>')


def _detail_cell(value):
    """One cell of a generic detail table: a number right-aligned (4 decimals, or an integer), text escaped."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _num_td(value, True)
    if _number(value) is not None:
        return _num_td(value)
    return "<td>%s</td>" % _e(value)


def _detail_tables(tables):
    """The generic detail tables a kind may give (``details["tables"]``: ``{"title", "columns", "rows",
    "note"}`` each), every value escaped, at most MAX_DETAIL_ROWS rows each."""
    parts = []
    for table in _as_list(tables):
        table = _as_dict(table)
        rows = [row for row in _as_list(table.get("rows")) if isinstance(row, (list, tuple))]
        shown = ["<tr>%s</tr>" % "".join(_detail_cell(v) for v in row) for row in rows[:MAX_DETAIL_ROWS]]
        labels = [_e(label) for label in _as_list(table.get("columns"))]
        numeric = [i for i, v in enumerate(rows[0]) if _number(v) is not None] if rows else []
        head = "<tr>%s</tr>" % "".join('<th%s>%s</th>' % (' class="num"' if i in numeric else "", label)
                                       for i, label in enumerate(labels))
        parts.append("<h3>%s</h3>" % _e(table.get("title")) + (_table(head, shown) if rows else
                                                               '<p class="note">None.</p>'))
        parts.append(_more_rows(len(rows), "rows"))
        if table.get("note"):
            parts.append('<p class="note">%s</p>' % _e(table.get("note")))
    return "".join(parts)


def _more_rows(total, what):
    """A line saying how many detail rows were not shown (empty when all were)."""
    if total <= MAX_DETAIL_ROWS:
        return ""
    return '<p class="more">%d more %s not shown.</p>' % (total - MAX_DETAIL_ROWS, what)


def _entry_counts(view, entry):
    """One-line summary of an entry's sentence (or the competition's unit) and item counts."""
    names = ("sentences", "scored_sentences", "items", "zeroed_sentences")
    return '<p class="note">%s; file <code>%s</code>.</p>' % (
        ", ".join("%s: %s" % (_e(_count_label(view, n)), _fmt_count(entry.get(n))) for n in names),
        _e(entry.get("file")))


def _entry_details(view, task, entry):
    """Collapsible block of one language's detail tables for one task."""
    kind = task.get("kind")
    details = _as_dict(entry.get("details"))
    body = [_entry_counts(view, entry)]
    if entry.get("status") == "missing":   # a subset is allowed: said once for the whole submission
        body.append('<p class="bad">Not submitted: this entry scores 0.</p>')
    elif entry.get("status") != STATUS_SCORED:
        body.append('<p class="bad">Not scored as submitted (%s); see the messages for this file.</p>'
                    % _e(STATUS_LABELS.get(_key(entry.get("status"))) or entry.get("status") or "unknown"))
    body.append(_comparison_table(view, entry))
    if kind == "tagging" or details.get("per_tag"):   # the tagging kind and the line-aligned label kinds
        body.append("<h3>Per tag</h3>" + _per_tag_table(details.get("per_tag")))
    elif kind == "morph":
        body.append("<h3>Per feature</h3>" + _per_feature_table(details.get("per_feature")))
        body.append('<p class="note">%s</p>' % MORPH_NOTE)
    if details.get("tables"):   # generic tables of any kind (e.g. evalkit.choice: per gold type, wrong sets)
        body.append(_detail_tables(details.get("tables")))
    return "<details><summary>%s: <b>%s</b>%s</summary>%s</details>" % (
        view.lang_label(_key(entry.get("lang"))), _fmt(entry.get("score")), _status_flag(view, entry), "".join(body))


def _task_base(view, key):
    """", baseline 0.1234" for a task mean key (empty without a baseline)."""
    value = _number(view.baseline_scores.get(key))
    return "" if value is None else ', %s <span class="base">%s</span>' % (_e(view.baseline_label), _fmt(value))


def _task_section(view, index, folder, task):
    """The section of one task: mean, summary table and per-language collapsible details."""
    entries = view.task_entries(folder)
    key = "avg_%s" % (task.get("key") or folder)
    parts = ['<section id="task-%d"><h2>%s</h2>' % (index, _e(task.get("label") or folder)),
             '<p class="meta">Folder <code>%s</code>, mean <b>%s</b> (<code>%s</code>)%s.</p>'
             % (_e(folder), _fmt(view.scores.get(key)), _e(key), _task_base(view, key))]
    if not entries:
        parts.append('<p class="note">No entries for this task.</p></section>')
        return "".join(parts)
    parts.append(_task_summary(view, task, entries))
    parts.append('<p class="note">%s%s</p>' % (
        _e(view.notes.get("task") or "The official metrics are means over sentences (as in 2024); the corpus-level "
           "ones pool all items of the file. Expand a language for its detail tables."),
        (" " + MORPH_NOTE) if task.get("kind") == "morph" else ""))
    parts.extend(_entry_details(view, task, entry) for entry in entries)
    parts.append("</section>")
    return "".join(parts)


# --------------------------------------------------------------------------- messages

def _group_messages(messages):
    """``OrderedDict{file: [message, ...]}`` in order of first appearance."""
    groups = OrderedDict()
    for msg in messages:
        groups.setdefault(_key(msg.get("file")), []).append(msg)
    return groups


def _severity_counts(messages):
    """``[errors, warnings, infos, others]`` counts of a list of messages."""
    counts = [0, 0, 0, 0]
    for msg in messages:
        severity = msg.get("severity")
        counts[SEVERITIES.index(severity) if severity in SEVERITIES else 3] += 1
    return counts


def _message_group(anchor, file_label, messages):
    """Collapsible table of one file's messages (at most ``MAX_MESSAGES_PER_FILE`` rows)."""
    counts = _severity_counts(messages)
    rows = []
    for msg in messages[:MAX_MESSAGES_PER_FILE]:
        severity = msg.get("severity")
        rows.append('<tr><td><span class="sev %s">%s</span></td><td class="text">%s</td><td class="text">%s</td></tr>'
                    % (_sev_class(severity), _e(severity), _e(msg.get("where")), _e(msg.get("text"))))
    hidden = len(messages) - MAX_MESSAGES_PER_FILE
    more = ('<p class="more">%d more messages for this file are not shown.</p>' % hidden) if hidden > 0 else ""
    summary = "<code>%s</code>: %d error(s), %d warning(s), %d info" % (file_label, counts[0], counts[1], counts[2])
    return '<details id="%s"%s><summary>%s</summary>%s%s</details>' % (
        anchor, " open" if counts[0] else "", summary, _table(_head_row(["Severity", "Where", "Message"], 9), rows),
        more)


def _messages(view):
    """Every validation message, grouped by file, with counts per file and overall."""
    if not view.messages:
        return '<section id="messages"><h2>Validation messages</h2><p class="note">No messages.</p></section>'
    groups = _group_messages(view.messages)
    total = _severity_counts(view.messages)
    rows, blocks = [], []
    for file_key, msgs in groups.items():
        anchor = view.message_anchor[file_key]
        label = _e(file_key) or "(general)"
        counts = _severity_counts(msgs)
        rows.append('<tr><td><a href="#%s"><code>%s</code></a></td>%s%s%s%s</tr>' % (
            anchor, label, _num_td(counts[0], True), _num_td(counts[1], True), _num_td(counts[2], True),
            _num_td(len(msgs), True)))
        blocks.append(_message_group(anchor, label, msgs))
    head = _head_row(["File", "Errors", "Warnings", "Info", "Total"])
    return ('<section id="messages"><h2>Validation messages</h2><p>%d message(s): %d error(s), %d warning(s), '
            '%d info. Errors mean something was scored 0; warnings mean it was scored, but not exactly as '
            'submitted. At most %d messages are shown per file.</p>%s%s</section>'
            % (len(view.messages), total[0], total[1], total[2], MAX_MESSAGES_PER_FILE,
               _table(head, rows), "".join(blocks)))


def _gold_note(view):
    """The report's own statement that the phase's gold is hidden (evalkit.policy), or nothing."""
    note = view.notes.get("gold")
    return '<p class="note"><b>%s</b></p>' % _e(note) if note else ""


def _split_note(view):
    """The report's statement of the part of a split test phase it scores (evalkit.split), or nothing."""
    note = view.notes.get("split")
    return '<p class="note"><b>%s</b></p>' % _e(note) if note else ""


def _all_scores(view):
    """Collapsible list of every score key and value (what ``scores.txt`` holds)."""
    rows = ["<tr><td><code>%s</code></td>%s</tr>" % (_e(key), _num_td(value)) for key, value in view.scores.items()]
    if not rows:
        return ""
    return ('<section id="all-scores"><h2>All scores</h2><details><summary>%d score keys</summary>%s</details>'
            '</section>' % (len(rows), _table(_head_row(["Key", "Value"]), rows)))


# --------------------------------------------------------------------------- entry point

def render(report):
    """Return ``detailed_results.html`` for ``report`` as one string (a complete HTML5 document).

    ``report`` is a dict shaped like ``detailed_results.json`` (see ``docs/architecture.md``): keys
    ``competition``, ``title``, ``signature``, ``scores``, ``tasks``, ``languages``, ``entries``,
    ``messages``; any of them may be missing or empty. Every string from the report is escaped;
    the page uses inline CSS and inline SVG only (no JavaScript, no external resources). Write the
    result encoded as UTF-8.
    """
    view = _View(report)
    body = [_header(view), "<main>", _gold_note(view), _split_note(view), _overview(view), _matrix(view), _chart(view)]
    body.extend(_task_section(view, i + 1, folder, task) for i, (folder, task) in enumerate(view.tasks.items()))
    body.extend([_messages(view), _all_scores(view), "</main>"])
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="color-scheme" content="light">\n'
            "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n</body>\n</html>\n"
            % (_e(view.title), CSS, "\n".join(body)))
