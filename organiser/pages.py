"""Competition pages: HTML5 documents built from the templates in ``pages/`` and the competition's facts.

The prose lives in ``pages/*.html`` (templates with ``{{ name }}`` placeholders, wrapped in
``pages/_layout.html``); everything that could drift is generated here: the languages table (from
``st2024.LANGUAGES`` with sentence and token counts counted from the data directory), the tasks and
score keys (from ``st2024.TASKS`` and ``evalkit.keys``), the submission layout, the phases (from the
competition's own ``phases``) and the baseline table (``dist/baselines/table.html`` when it exists).
Pages are self-contained: inline CSS scoped to ``.st2024-page``, no scripts, no external assets.
"""
import html
import os
import re
import sys

from organiser import ROOT, release
from organiser import schedule as schedule_module
import st2024
import validate  # the starting kit's standard-library readers of the release
from evalkit import keys

PAGES_DIR = os.path.join(ROOT, "pages")
PAGE_NAMES = ("overview", "data", "evaluation", "terms", "timeline")
SPLITS = ("train", "valid", "test")
#: Only the first N lemma / gap candidates count (declared on st2024.Task by the scorer).
MAX_CANDIDATES = getattr(st2024.Task, "max_candidates", getattr(st2024, "MAX_CANDIDATES", 3))
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")

SUBTASK_TEXT = {
    "unconstrained": (
        "This is the <strong>unconstrained</strong> subtask (subtask B): any additional data in any "
        "language may be used, including pre-trained embeddings and large language models."),
    "constrained": (
        "This is the <strong>constrained</strong> subtask (subtask A): no data beyond the training "
        "data provided may be used (reducing or rebalancing the provided training sets is allowed). "
        "Its Phase 2 collects the embeddings your system was built on."),
}


def escape(value):
    """HTML-escape any value (quotes included)."""
    return html.escape(str(value), quote=True)


# --------------------------------------------------------------------------- data sizes

def count_conllu(path):
    """Return (sentences, tokens) of a CoNLL-U file, read as the starting kit's validator reads it.

    Tokens are counted as the submission layout does: one per row, multiword-token ranges included,
    empty nodes (decimal ids) excluded.
    """
    sentences = validate.read_conllu(path)
    return len(sentences), sum(len(sentence) for sentence in sentences)


def count_tsv(path):
    """Return (sentences, tokens) of a fill-mask TSV (``quotechar="^"``; header line optional).

    Tokens are the whitespace-separated words of the ``src`` column (of ``masked`` when the file has
    no ``src``, as in the test split).
    """
    rows = validate.read_tsv(path)
    return len(rows), sum(len((masked if src is None else src).split()) for masked, src in rows)


def count_sizes(data_dir, languages=None):
    """Count sentences and tokens per language and split from a release-layout directory.

    Returns ``{lang: {split: {"sentences": n, "tokens": n, "source": "morphology"|"fill_mask_word"}
    or None}}``. CoNLL-U files are used where they exist; otherwise the word-level fill-mask TSV
    (whose whitespace words are the tokens only for the languages without CoNLL-U at all; for the
    others ``tokens`` is None).
    """
    languages = list(st2024.LANGUAGES) if languages is None else list(languages)
    sizes = {}
    for lang in languages:
        sizes[lang] = {}
        for split in SPLITS:
            found = None
            conllu = release.find(data_dir, "morphology", split, lang)
            if conllu and lang not in st2024.FILL_MASK_ONLY:
                found = dict(zip(("sentences", "tokens"), count_conllu(conllu)), source="morphology")
            else:
                tsv = release.find(data_dir, "fill_mask_word", split, lang)
                if tsv:
                    found = dict(zip(("sentences", "tokens"), count_tsv(tsv)), source="fill_mask_word")
                    if lang not in st2024.FILL_MASK_ONLY:
                        found["tokens"] = None  # whitespace words are not the CoNLL-U tokens
            sizes[lang][split] = found
    return sizes


# --------------------------------------------------------------------------- templates

def read_template(name, pages_dir=PAGES_DIR):
    """Return the text of ``pages/<name>.html``."""
    with open(os.path.join(pages_dir, name + ".html"), encoding="utf-8") as handle:
        return handle.read()


def fill(template, values):
    """Replace every ``{{ name }}`` of ``template`` by ``values[name]``; a missing value is an error."""
    def replace(match):
        name = match.group(1)
        if name not in values:
            raise KeyError("page template placeholder {{ %s }} has no value" % name)
        return values[name]
    return PLACEHOLDER.sub(replace, template)


def _table(headers, rows, caption=None, numeric_from=None):
    """An HTML table; cells are already-escaped HTML strings. Columns from ``numeric_from`` align right."""
    parts = ["<table>"]
    if caption:
        parts.append("<caption>%s</caption>" % caption)
    parts.append("<thead><tr>%s</tr></thead>" % "".join("<th>%s</th>" % h for h in headers))
    parts.append("<tbody>")
    for row in rows:
        cells = []
        for index, cell in enumerate(row):
            numeric = numeric_from is not None and index >= numeric_from
            cells.append('<td class="num">%s</td>' % cell if numeric else "<td>%s</td>" % cell)
        parts.append("<tr>%s</tr>" % "".join(cells))
    parts.append("</tbody></table>")
    return "\n".join(parts)


def _subtask(name):
    """The subtask declaration and its Task objects."""
    declaration = st2024.SUBTASKS[name]
    tasks = [st2024.TASKS_BY_FOLDER[folder] for folder in declaration["tasks"]]
    return declaration, tasks


def subtask_pairs(name):
    """The (task, lang) pairs a subtask scores: its tasks x its languages, filtered by task.languages."""
    declaration, tasks = _subtask(name)
    return [(task, lang) for task in tasks for lang in declaration["languages"] if lang in task.languages]


# --------------------------------------------------------------------------- generated blocks

def _count_cell(entry, field):
    """A formatted count, a dagger when counted from the fill-mask TSV, a dash when missing."""
    if entry is None or entry[field] is None:
        return "&#8212;"
    mark = "&#8224;" if entry["source"] == "fill_mask_word" else ""
    return "{:,}{}".format(entry[field], mark)


def languages_table(languages, sizes):
    """The languages with family, branch, script, dating and counted sizes."""
    headers = ["Language", "Code", "Family", "Branch", "Script", "Dating"]
    headers += ["%s sent." % split.capitalize() for split in SPLITS]
    headers += ["%s tokens" % split.capitalize() for split in SPLITS]
    rows = []
    for lang in languages:
        name, family, branch, script, dating = st2024.LANGUAGES[lang]
        row = [escape(name), "<code>%s</code>" % escape(lang), escape(family), escape(branch),
               escape(script), escape(dating)]
        entries = sizes.get(lang, {})
        row += [_count_cell(entries.get(split), "sentences") for split in SPLITS]
        row += [_count_cell(entries.get(split), "tokens") for split in SPLITS]
        rows.append(row)
    return _table(headers, rows, numeric_from=6)


def missing_files_note(languages, sizes):
    """A sentence naming the (language, split) files missing from the data directory, or ''."""
    missing = ["%s %s" % (lang, split) for lang in languages for split in SPLITS
               if sizes.get(lang, {}).get(split) is None]
    if not missing:
        return ""
    return ("<p class=\"note\">Not found in the data directory these pages were built from: %s.</p>"
            % escape(", ".join(missing)))


def tasks_list(tasks):
    """A list of the subtask's tasks with their submission folder."""
    items = ["<li>%s (folder <code>%s/</code>)</li>" % (escape(t.label), escape(t.folder)) for t in tasks]
    return "<ul>\n%s\n</ul>" % "\n".join(items)


def _key_html(key):
    """A score key as HTML code, with the language placeholder shown as ``<lang>``."""
    return "<code>%s</code>" % escape(key).replace("LANG", "&lt;lang&gt;")


def score_keys_table(tasks, languages):
    """Score keys written by the scorer for each task of the subtask (entry and component keys)."""
    rows = []
    for task in tasks:
        langs = [lang for lang in languages if lang in task.languages]
        components = ", ".join(_key_html(keys.component_key("LANG", task, component))
                               for component in task.components) or "&#8212;"
        rows.append([escape(task.label), "<code>%s/</code>" % escape(task.folder),
                     _key_html(keys.entry_key("LANG", task)), components,
                     _key_html(keys.task_mean_key(task)), escape(" ".join(langs)) or "&#8212;"])
    return _table(["Task", "Folder", "Score key", "Component keys", "Task mean", "Languages"], rows)


def submission_tree(tasks, languages):
    """The submission zip layout as a preformatted tree."""
    lines = ["submission.zip"]
    for t_index, task in enumerate(tasks):
        last_task = t_index == len(tasks) - 1
        lines.append("%s %s/" % ("\u2514\u2500\u2500" if last_task else "\u251c\u2500\u2500", task.folder))
        langs = [lang for lang in languages if lang in task.languages]
        shown = langs[:3] + (["..."] if len(langs) > 3 else [])
        for l_index, lang in enumerate(shown):
            branch = "\u2514\u2500\u2500" if l_index == len(shown) - 1 else "\u251c\u2500\u2500"
            lines.append("%s   %s %s" % (" " if last_task else "\u2502", branch,
                                         lang if lang == "..." else lang + ".json"))
    return "<pre>%s</pre>" % escape("\n".join(lines))


def _phase_window(phase, schedule):
    """The schedule's Window of a phase of the competition (found by its reference member's name)."""
    match = re.match(r"^reference_data_([a-z0-9]+)\.zip$", str(phase.get("reference_data", "")))
    return schedule.window(match.group(1)) if match else None


def phases_table(competition, schedule):
    """The competition's phases: label, when it opens and closes (from the schedule), submission limits."""
    rows = []
    for number in sorted(competition.get("phases", {})):
        phase = competition["phases"][number]
        window = _phase_window(phase, schedule)
        rows.append([escape(phase.get("phasenumber", number)), escape(phase.get("label", "")),
                     escape(schedule_module.human(window.opens)) if window else "",
                     escape(schedule_module.human(window.closes)) if window else "",
                     escape(phase.get("max_submissions", "")), escape(phase.get("max_submissions_per_day", "")),
                     escape(phase.get("description", ""))])
    note = ("<p>A phase accepts submissions from the moment it opens until the moment it closes; the next "
            "phase opens when it closes. In the test phase the last submission of each team is its official "
            "result: it replaces the team's previous entry on the leaderboard without any action, and other "
            "teams' detailed results are not shown (on CodaLab the test leaderboard stays hidden until the "
            "results are notified).</p>")
    return _table(["#", "Phase", "Opens (UTC)", "Closes (UTC)", "Max. submissions", "Per day", "What is scored"],
                  rows) + "\n" + note


def important_dates(competition, schedule):
    """The Timeline page's dates: data releases, deadlines and notification from the schedule, then the rest."""
    names = [re.sub(r"^reference_data_|\.zip$", "", str(p.get("reference_data", "")))
             for p in competition.get("phases", {}).values()]
    rows = [(schedule.window("dev").opens, "Release of training and validation data; development phase opens")]
    if "test" in schedule.phases and "test" in names:
        test = schedule.window("test")
        rows.append((test.opens, "Release of test data; test phase opens"))
        rows.append((test.closes, "Submission of results: the test phase closes"))
    if "embeddings" in schedule.phases and "embeddings" in names:
        rows.append((schedule.window("embeddings").closes, "Phase 2 (embeddings) closes"))
    rows.append((schedule.results_notification, "Notification of results"))
    cells = [[escape(schedule_module.human(when)), escape(text)] for when, text in rows]
    cells += [[escape("%d %s" % (day.day, day.strftime("%B %Y"))), escape(text)] for day, text in schedule.later]
    return _table(["Date", "Event"], cells)


def baseline_block(baseline_html):
    """The baseline scores table, or a sentence saying it was not built."""
    if baseline_html:
        return baseline_html
    return ("<p class=\"note\">The baseline table is generated by <code>make baselines</code>; it was not "
            "available when these pages were built.</p>")


def metrics_section(tasks):
    """One metric definition per task, from ``pages/_metric_<kind>.html``."""
    parts = []
    for task in tasks:
        values = {
            "task_label": escape(task.label),
            "task_key": escape(keys.entry_key("<lang>", task)),
            "components": escape(", ".join(keys.component_key("<lang>", task, c) for c in task.components)),
            "marker": escape(task.mask_marker or ""),
            "max_candidates": str(MAX_CANDIDATES),
        }
        parts.append(fill(read_template("_metric_" + task.kind), values))
    return "\n".join(parts)


def submission_examples(tasks):
    """One example file per task, from ``pages/_submission_<folder>.html``."""
    return "\n".join(read_template("_submission_" + task.folder) for task in tasks)


def embeddings_block(subtask, schedule):
    """The Phase 2 (embeddings) section with its dates, constrained subtask only."""
    if subtask != "constrained":
        return ""
    window = schedule.window("embeddings")
    return fill(read_template("_embeddings"), {"embeddings_opens": escape(schedule_module.human(window.opens)),
                                               "embeddings_closes": escape(schedule_module.human(window.closes))})


# --------------------------------------------------------------------------- pages

def page_values(competition, subtask, sizes, baseline_html=None, schedule=None):
    """All placeholder values of the page templates for ``subtask`` (dates from ``schedule``, default
    schedule.yaml)."""
    schedule = schedule if schedule is not None else schedule_module.load()
    declaration, tasks = _subtask(subtask)
    languages = list(declaration["languages"])
    return {
        "competition_title": escape(competition.get("title", declaration["title"])),
        "subtask": escape(subtask),
        "subtask_text": SUBTASK_TEXT[subtask],
        "language_count": str(len(languages)),
        "task_count": str(len(tasks)),
        "languages_table": languages_table(languages, sizes),
        "missing_files_note": missing_files_note(languages, sizes),
        "tasks_list": tasks_list(tasks),
        "score_keys_table": score_keys_table(tasks, languages),
        "column_count": str(len(keys.leaderboard_columns(st2024.TASKS, languages,
                                                         subtask_pairs(subtask)))),
        "submission_tree": submission_tree(tasks, languages),
        "phases_table": phases_table(competition, schedule),
        "important_dates": important_dates(competition, schedule),
        "baseline_table": baseline_block(baseline_html),
        "embeddings_section": embeddings_block(subtask, schedule),
        "metrics_section": metrics_section(tasks),
        "submission_examples": submission_examples(tasks),
        "max_candidates": str(MAX_CANDIDATES),
    }


def render_page(name, values, pages_dir=PAGES_DIR):
    """Render ``pages/<name>.html`` inside ``pages/_layout.html``."""
    body = fill(read_template(name, pages_dir), values)
    titles = {"overview": "Overview", "data": "Data", "evaluation": "Evaluation",
              "terms": "Terms and conditions", "timeline": "Timeline"}
    layout_values = dict(values, body=body, page_title=escape(titles.get(name, name.capitalize())))
    return fill(read_template("_layout", pages_dir), layout_values)


def build_pages(competition, subtask, sizes, baseline_html=None, schedule=None):
    """Return ``{file name: HTML text}`` for every page of the ``html`` section of ``competition``."""
    values = page_values(competition, subtask, sizes, baseline_html, schedule)
    result = {}
    for key, member in competition["html"].items():
        result[member] = render_page(key, values)
    return result


def html_fragment(text):
    """The embeddable part of an HTML text: the body of a full document, without scripts and styles."""
    body = re.search(r"<body[^>]*>(.*)</body>", text, re.S | re.I)
    if body:
        text = body.group(1)
    text = re.sub(r"<(script|style)\b.*?</\1\s*>", "", text, flags=re.S | re.I)
    return text.strip()


def read_baseline_html(out_dir):
    """The baseline table written by ``make baselines`` (as an embeddable fragment), or None."""
    path = os.path.join(out_dir, "baselines", "table.html")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return html_fragment(handle.read()) or None


def main(argv=None):
    """``python -m organiser.pages --data DIR --out DIR``: render the pages of both subtasks."""
    import argparse
    import yaml
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", default="dist")
    parser.add_argument("--competition", default=os.path.join(ROOT, "competition.yaml"))
    args = parser.parse_args(argv)
    with open(args.competition, encoding="utf-8") as handle:
        competition = yaml.safe_load(handle)
    sizes = count_sizes(args.data)
    for subtask in st2024.SUBTASKS:
        target = os.path.join(args.out, "pages", subtask)
        os.makedirs(target, exist_ok=True)
        for member, text in build_pages(competition, subtask, sizes, read_baseline_html(args.out)).items():
            with open(os.path.join(target, member), "w", encoding="utf-8") as handle:
                handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
