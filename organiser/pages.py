"""Competition pages: HTML5 documents built from the templates in ``pages/`` and the competition's facts.

The prose lives in ``pages/*.html`` (templates with ``{{ name }}`` placeholders, wrapped in
``pages/_layout.html``); everything that could drift is generated here: the languages table (from
the declaration's ``LANGUAGES`` with sentence and token counts counted from the data directory), the tasks and
score keys (from its ``TASKS`` and ``evalkit.keys``), the submission layout, the phases (from the
competition's own ``phases``), the baseline table of the subtask (``dist/baselines/table-<subtask>.html``
when it exists), the links (``pages/links.yaml``: registration form, the other subtask, citation, contact) and
the BibTeX of the release (``<data>/bibliography.bib``).
Pages are self-contained: no scripts, no external assets, and no ``<style>`` element: both platforms drop it
(legacy CodaLab's DOMPurify forbids ``<style>``; Codabench keeps only ``<body>``), so the look is given by
``style`` attributes that :func:`inline_styles` adds from :data:`STYLES` (tests/test_pages_browser.py checks
the pages through both platforms' sanitisers).
"""
import html
import os
import re
import sys

from organiser import ROOT, declarations, release
from organiser import schedule as schedule_module
import validate  # the starting kit's standard-library readers of the release
from evalkit import keys
from evalkit.messages import DataError

#: The declaration of the competition these pages are for (the top-level one; see organiser.declarations).
DECLARATION = declarations.load()

PAGES_DIR = os.path.join(ROOT, "pages")
LINKS_YAML = os.path.join(PAGES_DIR, "links.yaml")
BIBLIOGRAPHY = "bibliography.bib"
#: Columns of the fill-mask TSV files per split, as released: train and valid start with the header line
#: ``masked<TAB>src``; test files have no header line and only the masked sentences (checked on the release
#: by tests/test_pages.py).
TSV_COLUMNS = {"train": ("masked", "src"), "valid": ("masked", "src"), "test": ("masked",)}
TSV_HEADER_SPLITS = ("train", "valid")
#: The reader the Data page shows (executed on the release by tests/test_pages.py).
READ_TSV_EXAMPLE = os.path.join(PAGES_DIR, "read_tsv_example.py")
PAGE_NAMES = ("overview", "data", "evaluation", "terms", "timeline")
SPLITS = ("train", "valid", "test")
#: Only the first N lemma / gap candidates count (declared on the declaration's Task by the scorer).
MAX_CANDIDATES = getattr(DECLARATION.Task, "max_candidates", getattr(DECLARATION, "MAX_CANDIDATES", 3))
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")

def escape(value):
    """HTML-escape any value (quotes included); ``$`` too, which Codabench would take for LaTeX."""
    return html.escape(str(value), quote=True).replace("$", "&#36;")


# --------------------------------------------------------------------------- inline styles

#: The look of the pages, as ``style`` attributes: ``tag`` or ``tag.class`` -> CSS declarations (a class
#: rule adds to its tag's rule and wins over it).
STYLES = {
    "main": "line-height: 1.5; max-width: 68rem",
    "h2": "font-size: 1.25rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid #d8dce5; padding-bottom: 0.2rem",
    "h3": "font-size: 1.05rem; margin: 1.2rem 0 0.4rem",
    "table": "border-collapse: collapse; margin: 0.6rem 0 1rem; font-size: 0.9rem",
    "th": ("border: 1px solid #d8dce5; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; "
           "background: #eef1f6"),
    "td": "border: 1px solid #d8dce5; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top",
    "td.num": "text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap",
    "th.num": "text-align: right; white-space: nowrap",
    "caption": "caption-side: top; text-align: left; font-weight: 600; padding-bottom: 0.3rem",
    "pre": ("background: #f5f6f8; border: 1px solid #d8dce5; padding: 0.6rem 0.8rem; overflow-x: auto; "
            "font-size: 0.85rem; line-height: 1.35; white-space: pre"),
    "p.note": "color: #4a5366; font-size: 0.9rem",
    "ul.note": "color: #4a5366; font-size: 0.9rem",
    "p.links": "border-top: 1px solid #d8dce5; margin-top: 2rem; padding-top: 0.4rem; font-size: 0.9rem",
}
START_TAG = re.compile(r"<([a-z][a-z0-9]*)(\s[^<>]*)?>")
ATTRIBUTE = re.compile(r'\s([a-z-]+)="([^"]*)"')


def inline_styles(text):
    """``text`` with a ``style`` attribute on every element :data:`STYLES` has a rule for (by tag and class).

    An existing ``style`` attribute is kept after the generated declarations (so it wins).
    """
    def styled(match):
        tag, attrs = match.group(1), match.group(2) or ""
        found = dict(ATTRIBUTE.findall(attrs))
        rules = [STYLES.get(tag)] + [STYLES.get("%s.%s" % (tag, c)) for c in found.get("class", "").split()]
        rules = [rule for rule in rules if rule]
        if not rules:
            return match.group(0)
        if "style" in found:
            rules.append(html.unescape(found["style"]))
            attrs = ATTRIBUTE.sub(lambda m: "" if m.group(1) == "style" else m.group(0), attrs)
        return '<%s%s style="%s">' % (tag, attrs, escape("; ".join(rules)))
    return START_TAG.sub(styled, text)


def separate_pre_blocks(text):
    """``text`` with a blank line before every line that opens a ``<pre>`` block.

    Codabench renders pages as Markdown: raw HTML that starts a line is kept as is up to the next blank line,
    except a ``<pre>`` block that starts a block, which is kept up to ``</pre>``. A ``<pre>`` that continued
    the block of a preceding ``<p>`` would end at its first blank line, and the rest would be read as
    Markdown (backslashes, ``*`` and ``_`` eaten).
    """
    return re.sub(r"\n+(<pre[\s>])", r"\n\n\1", text)


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


def _size_folders():
    """The release folders the size table counts from: ``(CoNLL-U folder, TSV folder)`` (``sizes`` of the
    competition's subtasks.yaml)."""
    declared = declarations.wording()["sizes"]
    return declared.get("conllu"), declared.get("tsv")


def count_sizes(data_dir, languages=None):
    """Count sentences and tokens per language and split from a release-layout directory.

    Returns ``{lang: {split: {"sentences": n, "tokens": n, "source": <release folder>} or None}}``. CoNLL-U
    files of the ``sizes.conllu`` folder of the competition's subtasks.yaml are used where they exist;
    otherwise the word-level fill-mask TSV of its ``sizes.tsv`` folder (whose whitespace words are the
    tokens only for the languages without CoNLL-U at all; for the others ``tokens`` is None).
    """
    languages = list(DECLARATION.LANGUAGES) if languages is None else list(languages)
    conllu_folder, tsv_folder = _size_folders()
    sizes = {}
    for lang in languages:
        sizes[lang] = {}
        for split in SPLITS:
            found = None
            conllu = release.find(data_dir, conllu_folder, split, lang)
            if conllu and lang not in DECLARATION.FILL_MASK_ONLY:
                found = dict(zip(("sentences", "tokens"), count_conllu(conllu)), source=conllu_folder)
            else:
                tsv = release.find(data_dir, tsv_folder, split, lang)
                if tsv:
                    found = dict(zip(("sentences", "tokens"), count_tsv(tsv)), source=tsv_folder)
                    if lang not in DECLARATION.FILL_MASK_ONLY:
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


def _table(headers, rows, caption=None, numeric_from=None, classes=None):
    """An HTML table; cells are already-escaped HTML strings. Columns from ``numeric_from`` align right;
    ``classes`` (one class name or None per column) styles other columns (see :data:`STYLES`)."""
    parts = ["<table>"]
    if caption:
        parts.append("<caption>%s</caption>" % caption)
    parts.append("<thead><tr>%s</tr></thead>" % "".join("<th>%s</th>" % h for h in headers))
    parts.append("<tbody>")
    for row in rows:
        cells = []
        for index, cell in enumerate(row):
            numeric = numeric_from is not None and index >= numeric_from
            name = "num" if numeric else (classes[index] if classes and index < len(classes) else None)
            cells.append('<td class="%s">%s</td>' % (name, cell) if name else "<td>%s</td>" % cell)
        parts.append("<tr>%s</tr>" % "".join(cells))
    parts.append("</tbody></table>")
    return "\n".join(parts)


def _subtask(name):
    """The subtask declaration and its Task objects."""
    declaration = DECLARATION.SUBTASKS[name]
    tasks = [DECLARATION.TASKS_BY_FOLDER[folder] for folder in declaration["tasks"]]
    return declaration, tasks


def subtask_pairs(name):
    """The (task, lang) pairs a subtask scores: its tasks x its languages, filtered by task.languages."""
    declaration, tasks = _subtask(name)
    return [(task, lang) for task in tasks for lang in declaration["languages"] if lang in task.languages]


# --------------------------------------------------------------------------- generated blocks

MISSING_MARK = "&#8212;"
TSV_MARK = "&#8224;"


def _count_cell(entry, field):
    """A formatted count, a dagger when counted from the fill-mask TSV, a dash when not counted."""
    if entry is None or entry[field] is None:
        return MISSING_MARK
    mark = TSV_MARK if entry["source"] == _size_folders()[1] else ""
    return "{:,}{}".format(entry[field], mark)


def languages_table(languages, sizes):
    """The languages with family, branch, script, dating and counted sizes, and a legend of its marks."""
    headers = ["Language", "Code", "Family", "Branch", "Script", "Dating"]
    headers += ["%s sent." % split.capitalize() for split in SPLITS]
    headers += ["%s tokens" % split.capitalize() for split in SPLITS]
    rows = []
    for lang in languages:
        name, family, branch, script, dating = DECLARATION.LANGUAGES[lang]
        row = [escape(name), "<code>%s</code>" % escape(lang), escape(family), escape(branch),
               escape(script), escape(dating)]
        entries = sizes.get(lang, {})
        row += [_count_cell(entries.get(split), "sentences") for split in SPLITS]
        row += [_count_cell(entries.get(split), "tokens") for split in SPLITS]
        rows.append(row)
    return _table(headers, rows, numeric_from=6) + "\n" + sizes_legend(rows)


def sizes_legend(rows):
    """The legend of the marks that occur in the size table's ``rows`` ('' when none does)."""
    cells = [cell for row in rows for cell in row[6:]]
    items = []
    if any(TSV_MARK in cell for cell in cells):
        items.append("<li>%s counted from the word-level gap-filling file of that split (the language or "
                     "the split has no CoNLL-U file): sentences, and for Irish, tokens as the "
                     "whitespace-separated words of the source sentences.</li>" % TSV_MARK)
    if any(cell == MISSING_MARK for cell in cells):
        items.append("<li>%s not counted: the split has no file for this language, or (tokens) it was "
                     "counted from the gap-filling file, whose words are not the tokens you predict.</li>"
                     % MISSING_MARK)
    return '<ul class="note">\n%s\n</ul>' % "\n".join(items) if items else ""


def missing_files(languages, sizes):
    """The ``"<lang> <split>"`` pairs with no file in the data (said to the organiser at build time)."""
    return ["%s %s" % (lang, split) for lang in languages for split in SPLITS
            if sizes.get(lang, {}).get(split) is None]


def tsv_table():
    """Which splits' fill-mask TSV files have a header line, and their columns."""
    rows = [[escape(split), "yes" if split in TSV_HEADER_SPLITS else "no: the first line is a sentence",
             ", ".join("<code>%s</code>" % escape(c) for c in TSV_COLUMNS[split])] for split in SPLITS]
    return _table(["Split", "Header line", "Columns"], rows)


def read_tsv_example():
    """The Python reader shown on the Data page, escaped for a ``<pre>`` block."""
    with open(READ_TSV_EXAMPLE, encoding="utf-8") as handle:
        return "<pre>%s</pre>" % escape(handle.read().strip("\n"))


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
                  rows, classes=["num", None, None, None, "num", "num", None]) + "\n" + note


def important_dates(competition, schedule):
    """The Timeline page's dates: data releases, deadlines and notification from the schedule, then the rest."""
    names = [re.sub(r"^reference_data_|\.zip$", "", str(p.get("reference_data", "")))
             for p in competition.get("phases", {}).values()]
    rows = [(schedule.window("dev").opens, "Release of training and validation data; development phase opens")]
    if "test" in schedule.phases and "test" in names:
        test = schedule.window("test")
        rows.append((test.opens, "Release of test data; test phase opens"))
        rows.append((test.closes, "Submission of results: the test phase closes"))
    for extra in _extra_phases(names):
        if extra["name"] in schedule.phases and extra.get("closes_event"):
            rows.append((schedule.window(extra["name"]).closes, extra["closes_event"]))
    rows.append((schedule.results_notification, "Notification of results"))
    cells = [[escape(schedule_module.human(when)), escape(text)] for when, text in rows]
    cells += [[escape("%d %s" % (day.day, day.strftime("%B %Y"))), escape(text)] for day, text in schedule.later]
    return _table(["Date", "Event"], cells)


def baseline_block(baseline_html):
    """The baseline scores table, or a sentence saying it is to come."""
    if baseline_html:
        return baseline_html
    return "<p class=\"note\">The scores of the baseline systems will be published here.</p>"


# --------------------------------------------------------------------------- links and citation

def _url(value, where):
    """``value`` if it is an http(s) or mailto URL (or empty), else a DataError naming ``where``."""
    value = "" if value is None else str(value).strip()
    if value and not re.match(r"^(https?://|mailto:)[^\s\"<>]+$", value):
        raise DataError(LINKS_YAML, where, "expected an http(s):// or mailto: URL, got %r" % value)
    return value


def load_links(path=LINKS_YAML):
    """The links declaration (``pages/links.yaml``), checked: ``{registration, competitions: {subtask: url},
    citation, contact: {name, url}}``."""
    import yaml
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    if not isinstance(data, dict):
        raise DataError(path, "", "expected a mapping of links, got %s" % type(data).__name__)
    competitions = data.get("competitions") or {}
    contact = data.get("contact") or {}
    if not isinstance(competitions, dict) or not isinstance(contact, dict):
        raise DataError(path, "competitions, contact", "expected mappings")
    unknown = sorted(set(competitions) - set(DECLARATION.SUBTASKS))
    if unknown:
        raise DataError(path, "competitions", "unknown subtask(s) %s (expected %s)"
                        % (", ".join(map(str, unknown)), ", ".join(DECLARATION.SUBTASKS)))
    return {"registration": _url(data.get("registration"), "registration"),
            "competitions": dict((name, _url(competitions.get(name), "competitions." + name))
                                 for name in DECLARATION.SUBTASKS),
            "citation": _url(data.get("citation"), "citation"),
            "contact": {"name": str(contact.get("name") or "the organisers"),
                        "url": _url(contact.get("url"), "contact.url")}}


def _link(url, text):
    """``<a href>`` to ``url`` (already checked), or the plain text when there is no URL."""
    return '<a href="%s">%s</a>' % (escape(url), text) if url else text


def links_line(links, subtask):
    """One line with the registration form, the other subtask(s), the citation and the contact."""
    parts = []
    if links["registration"]:
        parts.append(_link(links["registration"], "Registration form"))
    for other in DECLARATION.SUBTASKS:
        if other != subtask and links["competitions"].get(other):
            parts.append(_link(links["competitions"][other], "The %s subtask" % escape(other)))
    if links["citation"]:
        parts.append(_link(links["citation"], "How to cite (BibTeX)"))
    parts.append("Contact: %s" % _link(links["contact"]["url"], escape(links["contact"]["name"])))
    return '<p class="links">%s</p>' % " &#183; ".join(parts)


def read_bibliography(data_dir):
    """The text of ``<data_dir>/bibliography.bib`` (the release's citation file), or None when absent."""
    path = os.path.join(data_dir, BIBLIOGRAPHY)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read().strip("\n") or None


def citation_block(bibliography, links):
    """The BibTeX of the release in a ``<pre>`` block, or where to find it."""
    if bibliography:
        return ("<p>If you use the data, please cite the works below (the release's <code>%s</code>).</p>\n"
                "<pre>%s</pre>" % (BIBLIOGRAPHY, escape(bibliography)))
    where = _link(links["citation"], "the <code>%s</code> file of the shared task's repository" % BIBLIOGRAPHY)
    return "<p>If you use the data, please cite the works listed in %s.</p>" % where


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


def _extra_phases(names):
    """The extra phases any subtask declares whose name is among the phase ``names``, each once."""
    found = {}
    for subtask in DECLARATION.SUBTASKS:
        for extra in declarations.extra_phases(subtask):
            if extra["name"] in names:
                found.setdefault(extra["name"], extra)
    return list(found.values())


def phase_sections(subtask, schedule):
    """The page sections of the extra phases ``subtask`` declares (``page_section``), with their dates."""
    parts = []
    for extra in declarations.extra_phases(subtask):
        if extra.get("page_section"):
            window = schedule.window(extra["name"])
            parts.append(fill(read_template(extra["page_section"]),
                              {"opens": escape(schedule_module.human(window.opens)),
                               "closes": escape(schedule_module.human(window.closes))}))
    return "\n".join(parts)


# --------------------------------------------------------------------------- pages

def page_values(competition, subtask, sizes, baseline_html=None, schedule=None, bibliography=None, links=None):
    """All placeholder values of the page templates for ``subtask``.

    ``baseline_html`` is the baseline table of this subtask, ``schedule`` the dates (default
    schedule.yaml), ``bibliography`` the release's BibTeX text, ``links`` the checked links declaration
    (read from ``pages/links.yaml`` when None).
    """
    schedule = schedule if schedule is not None else schedule_module.load()
    declaration, tasks = _subtask(subtask)
    languages = list(declaration["languages"])
    links = load_links() if links is None else links
    return {
        "competition_title": escape(competition.get("title", declaration["title"])),
        "subtask": escape(subtask),
        "subtask_text": declarations.subtask_wording(subtask).get("page_text", ""),
        "language_count": str(len(languages)),
        "task_count": str(len(tasks)),
        "languages_table": languages_table(languages, sizes),
        "tasks_list": tasks_list(tasks),
        "score_keys_table": score_keys_table(tasks, languages),
        "column_count": str(len(keys.leaderboard_columns(DECLARATION.TASKS, languages,
                                                         subtask_pairs(subtask)))),
        "submission_tree": submission_tree(tasks, languages),
        "phases_table": phases_table(competition, schedule),
        "important_dates": important_dates(competition, schedule),
        "baseline_table": baseline_block(baseline_html),
        "phase_sections": phase_sections(subtask, schedule),
        "metrics_section": metrics_section(tasks),
        "submission_examples": submission_examples(tasks),
        "max_candidates": str(MAX_CANDIDATES),
        "tsv_table": tsv_table(),
        "read_tsv_example": read_tsv_example(),
        "citation": citation_block(bibliography, links),
        "links_line": links_line(links, subtask),
        "registration_link": _link(links["registration"], "registration form"),
    }


#: The page layout of a competition whose ``pages/`` folder has no ``_layout.html`` of its own.
DEFAULT_LAYOUT = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ page_title }} &#8212; {{ competition_title }}</title>
</head>
<body>
<main>
{{ body }}
{{ links_line }}
</main>
</body>
</html>
"""


def layout_template(pages_dir=PAGES_DIR):
    """The text of ``<pages_dir>/_layout.html``, or :data:`DEFAULT_LAYOUT` when the folder has none."""
    if os.path.isfile(os.path.join(pages_dir, "_layout.html")):
        return read_template("_layout", pages_dir)
    return DEFAULT_LAYOUT


def render_page(name, values, pages_dir=PAGES_DIR):
    """Render ``<pages_dir>/<name>.html`` inside the folder's layout (:func:`layout_template`), with the inline
    styles."""
    body = fill(read_template(name, pages_dir), values)
    titles = {"overview": "Overview", "data": "Data", "evaluation": "Evaluation",
              "terms": "Terms and conditions", "timeline": "Timeline"}
    layout_values = dict(values, body=body, page_title=escape(titles.get(name, name.capitalize())))
    return separate_pre_blocks(inline_styles(fill(layout_template(pages_dir), layout_values)))


def build_pages(competition, subtask, sizes, baseline_html=None, schedule=None, bibliography=None, links=None):
    """Return ``{file name: HTML text}`` for every page of the ``html`` section of ``competition``."""
    values = page_values(competition, subtask, sizes, baseline_html, schedule, bibliography, links)
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


def read_baseline_html(out_dir, subtask):
    """The baseline table of ``subtask`` written by ``make baselines`` (an embeddable fragment), or None."""
    path = os.path.join(out_dir, "baselines", "table-%s.html" % subtask)
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
    bibliography = read_bibliography(args.data)
    for subtask in DECLARATION.SUBTASKS:
        target = os.path.join(args.out, "pages", subtask)
        os.makedirs(target, exist_ok=True)
        for member, text in build_pages(competition, subtask, sizes, read_baseline_html(args.out, subtask),
                                        bibliography=bibliography).items():
            with open(os.path.join(target, member), "w", encoding="utf-8") as handle:
                handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
