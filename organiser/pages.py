"""Competition pages (machinery): HTML5 documents built from a competition's templates and its facts.

The prose lives in each competition's ``pages/*.html`` (templates with ``{{ name }}`` placeholders, wrapped in the
folder's ``_layout.html`` or :data:`DEFAULT_LAYOUT`); everything that could drift is generated: the phases and
their dates (from the competition's own ``phases`` and its schedule), the leaderboard columns and datasets (from
its declaration), the baseline table, the links (its ``pages/links.yaml``, when it has one), and the notes on what
participants get and when (the test input released when the test phase opens, a practice test phase). The generic
values are :class:`PageValues`, computed on demand; a competition adds its own through the ``page_values`` hook of
its ``bundle_hooks.py`` (organiser.declarations.Hosted.hooks).
Pages are self-contained: no scripts, no external assets, and no ``<style>`` element: both platforms drop it
(legacy CodaLab's DOMPurify forbids ``<style>``; Codabench keeps only ``<body>``), so the look is given by
``style`` attributes that :func:`inline_styles` adds from :data:`STYLES` (tests/test_pages_browser.py checks
the pages through both platforms' sanitisers).
"""
import html
import os
import re

from organiser import declarations, feedback
from organiser import schedule as schedule_module
from evalkit import conll
from evalkit.messages import DataError

LINKS_FILE = "links.yaml"
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
#: How the pages name the official metrics.
METRIC_NAMES = {"acc": "accuracy", "span_f1": "entity-span micro-F1", "weighted_f1": "weighted F1",
                "macro_f1": "macro-F1", "spearman": "Spearman's rho", "pearson": "Pearson's r"}
PAGE_TITLES = {"overview": "Overview", "data": "Data", "evaluation": "Evaluation", "terms": "Terms and conditions",
               "timeline": "Timeline"}


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



# --------------------------------------------------------------------------- templates

def read_template(name, pages_dir):
    """Return the text of ``<pages_dir>/<name>.html``."""
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


def _phase_window(phase, schedule):
    """The schedule's Window of a phase of the competition (found by its reference member's name)."""
    match = re.match(r"^reference_data_([a-z0-9]+)\.zip$", str(phase.get("reference_data", "")))
    return schedule.window(match.group(1)) if match else None


#: What every phases table says under it: the rules the bundles set on both platforms (docs/organisers.md).
PHASES_NOTE = (
    "<p>A phase accepts submissions from the moment it opens until the moment it closes; the next phase opens when "
    "it closes. Each team's last submission that was scored in the test phase is its official result: the "
    "organisers' final results re-score exactly that submission. The report of a test-phase submission holds "
    "your scores and the messages about your submission's format, and nothing of the test gold; what the test "
    "phase scores, and how the final ranking is made, is said on the Overview page.</p>")


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
    return _table(["#", "Phase", "Opens (UTC)", "Closes (UTC)", "Max. submissions", "Per day", "What is scored"],
                  rows, classes=["num", None, None, None, "num", "num", None]) + "\n" + PHASES_NOTE


def phase_names(competition):
    """The reference folders of the competition's phases (``dev``, ``test``, an extra phase's name), in order."""
    return [re.sub(r"^reference_data_|\.zip$", "", str(competition["phases"][n].get("reference_data", "")))
            for n in sorted(competition.get("phases", {}))]


def important_dates(competition, schedule, cid=None):
    """The Timeline page's dates: data releases, deadlines and notification from the schedule, then the rest."""
    names = phase_names(competition)
    rows = [(schedule.window("dev").opens, "Release of training and validation data; development phase opens")]
    if "test" in schedule.phases and "test" in names:
        test = schedule.window("test")
        rows.append((test.opens, "Release of test data; test phase opens"))
        rows.append((test.closes, "Submission of results: the test phase closes"))
    for extra in _extra_phases(names, cid):
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


# --------------------------------------------------------------------------- links

def _url(value, where, path):
    """``value`` if it is an http(s) or mailto URL (or empty), else a DataError naming ``where``."""
    value = "" if value is None else str(value).strip()
    if value and not re.match(r"^(https?://|mailto:)[^\s\"<>]+$", value):
        raise DataError(path, where, "expected an http(s):// or mailto: URL, got %r" % value)
    return value


def load_links(path, subtasks):
    """The links declaration (``pages/links.yaml``), checked: ``{registration, competitions: {subtask: url},
    citation, contact: {name, url}}``; ``subtasks``: the competition's subtask ids. A competition without the file
    gets no links (only "Contact: the organisers")."""
    import yaml
    data = {}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    if not isinstance(data, dict):
        raise DataError(path, "", "expected a mapping of links, got %s" % type(data).__name__)
    competitions = data.get("competitions") or {}
    contact = data.get("contact") or {}
    if not isinstance(competitions, dict) or not isinstance(contact, dict):
        raise DataError(path, "competitions, contact", "expected mappings")
    unknown = sorted(set(competitions) - set(subtasks))
    if unknown:
        raise DataError(path, "competitions", "unknown subtask(s) %s (expected %s)"
                        % (", ".join(map(str, unknown)), ", ".join(subtasks)))
    return {"registration": _url(data.get("registration"), "registration", path),
            "competitions": dict((name, _url(competitions.get(name), "competitions." + name, path))
                                 for name in subtasks),
            "citation": _url(data.get("citation"), "citation", path),
            "contact": {"name": str(contact.get("name") or "the organisers"),
                        "url": _url(contact.get("url"), "contact.url", path)},
            "declared": bool(data)}


def _link(url, text):
    """``<a href>`` to ``url`` (already checked), or the plain text when there is no URL."""
    return '<a href="%s">%s</a>' % (escape(url), text) if url else text


def links_line(links, subtask, subtasks):
    """One line with the registration form, the other subtask(s), the citation and the contact ('' for a
    competition that declares no links)."""
    if not links.get("declared", True):
        return ""
    parts = []
    if links["registration"]:
        parts.append(_link(links["registration"], "Registration form"))
    for other in subtasks:
        if other != subtask and links["competitions"].get(other):
            parts.append(_link(links["competitions"][other], "The %s subtask" % escape(other)))
    if links["citation"]:
        parts.append(_link(links["citation"], "How to cite (BibTeX)"))
    parts.append("Contact: %s" % _link(links["contact"]["url"], escape(links["contact"]["name"])))
    return '<p class="links">%s</p>' % " &#183; ".join(parts)


# --------------------------------------------------------------------------- extra phases

def _extra_phases(names, cid=None):
    """The extra phases any subtask of ``cid`` declares whose name is among the phase ``names``, each once."""
    found = {}
    for subtask in declarations.wording(cid)["subtasks"]:
        for extra in declarations.extra_phases(subtask, cid):
            if extra["name"] in names:
                found.setdefault(extra["name"], extra)
    return list(found.values())


def phase_sections(subtask, schedule, cid, pages_dir):
    """The page sections of the extra phases ``subtask`` declares (``page_section``), with their dates."""
    parts = []
    for extra in declarations.extra_phases(subtask, cid):
        if extra.get("page_section"):
            window = schedule.window(extra["name"])
            parts.append(fill(read_template(extra["page_section"], pages_dir),
                              {"opens": escape(schedule_module.human(window.opens)),
                               "closes": escape(schedule_module.human(window.closes))}))
    return "\n".join(parts)


# --------------------------------------------------------------------------- datasets, columns, Markdown

def datasets_table(competition, present):
    """Every declared dataset: task, pair, official metric, label count, and whether this bundle scores it."""
    rows = []
    for task, lang in pairs_of_tasks(competition):
        name = conll.reference_name(competition, task, lang)
        state = "scored" if name in present else "<strong>LACKING</strong> (not in this bundle)"
        rows.append([escape(task.label), escape(competition.LANGUAGES[lang][0]),
                     "<code>%s</code>" % escape(conll.submission_name(competition, task, lang)),
                     escape(METRIC_NAMES.get(task.metric, task.metric)), str(len(conll.label_set(task, lang))) if hasattr(task, "labels") else "-", state])
    return _table(["Task", getattr(competition, "LANGUAGE_LABEL", "Language"), "Submission file", "Metric", "Labels",
                   "In this bundle"], rows)


def lacking_note(competition, present):
    """A loud paragraph naming the declared datasets this bundle has no reference for (empty when none)."""
    declared = [conll.reference_name(competition, t, l) for t, l in pairs_of_tasks(competition)]
    lacking = [name for name in declared if name not in present]
    if not lacking:
        return ""
    # ``present`` also holds the reference zips' other members (phase.json, baseline_scores.json): count the
    # declared datasets, not the members.
    return ('<p class="note"><strong>This bundle LACKS %d of %d datasets</strong> (no reference data when it was '
            'built, so they are not scored and have no leaderboard column): %s.</p>'
            % (len(lacking), len(declared), ", ".join("<code>%s</code>" % escape(n) for n in lacking)))


def columns_table(columns):
    """The leaderboard columns ``[(key, label)]`` as a table."""
    return _table(["Column", "Score key"], [[escape(label), "<code>%s</code>" % escape(key)]
                                                  for key, label in columns])


def _inline_md(text):
    """Escaped text with Markdown ``code`` spans as <code> elements."""
    parts = text.split("`")
    return "".join(("<code>%s</code>" if i % 2 else "%s") % escape(part) for i, part in enumerate(parts))


def markdown_html(text):
    """The HTML of the small Markdown the builders write: ``#`` headings (as h3/h4), ``|`` tables, ``-`` lists,
    paragraphs; every text escaped (inline ``code`` kept). None for empty text."""
    blocks, out = [block for block in re.split(r"\n\s*\n", text or "") if block.strip()], []
    for block in blocks:
        rows = [line.strip() for line in block.strip().split("\n")]
        if all(row.startswith("|") for row in rows):
            cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows
                     if not re.match(r"^\|[-:| ]+\|$", row)]
            out.append(_table([_inline_md(c) for c in cells[0]],
                                    [[_inline_md(c) for c in row] for row in cells[1:]]))
        elif rows[0].startswith("#"):
            level = min(4, 2 + len(rows[0]) - len(rows[0].lstrip("#")))
            out.append("<h%d>%s</h%d>" % (level, _inline_md(rows[0].lstrip("# ")), level))
            if rows[1:]:
                out.append(markdown_html("\n".join(rows[1:])))
        elif all(row.startswith("- ") for row in rows):
            out.append("<ul>%s</ul>" % "".join("<li>%s</li>" % _inline_md(row[2:]) for row in rows))
        else:
            out.append("<p>%s</p>" % _inline_md(" ".join(rows)))
    return "\n".join(out) or None


def pairs_of_tasks(competition):
    """Every declared (task, language) pair in the declared task order (the paper's table order)."""
    return [(task, lang) for task in competition.TASKS for lang in task.languages]


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


def layout_template(pages_dir):
    """The text of ``<pages_dir>/_layout.html``, or :data:`DEFAULT_LAYOUT` when the folder has none."""
    if os.path.isfile(os.path.join(pages_dir, "_layout.html")):
        return read_template("_layout", pages_dir)
    return DEFAULT_LAYOUT


def render_page(name, values, pages_dir):
    """Render ``<pages_dir>/<name>.html`` inside the folder's layout (:func:`layout_template`), with the inline
    styles. ``values``: a mapping of placeholder values (a :class:`PageValues` computes the generic ones)."""
    body = fill(read_template(name, pages_dir), values)
    layout_values = _Extended(values, {"body": body, "page_title": escape(PAGE_TITLES.get(name, name.capitalize()))})
    return separate_pre_blocks(inline_styles(fill(layout_template(pages_dir), layout_values)))


class _Extended(object):
    """``values`` with a few more entries, without copying (a :class:`PageValues` keeps computing on demand)."""

    def __init__(self, values, more):
        self.values, self.more = values, more

    def __contains__(self, name):
        return name in self.more or name in self.values

    def __getitem__(self, name):
        return self.more[name] if name in self.more else self.values[name]


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



# --------------------------------------------------------------------------- the generic values

class PageContext(object):
    """What one subtask's pages are rendered from.

    ``hosted`` (organiser.declarations.Hosted), ``competition`` (the subtask's v1.5 ``competition.yaml``, dated),
    ``subtask``, ``schedule``, ``data`` (the release folder), ``reference`` (its reference folder), ``present``
    (the reference file names of the bundle's phases), ``baseline_html`` (the subtask's baseline table, or None),
    ``links`` (:func:`load_links`), ``warn`` (tells the organiser, never the pages), ``test_state`` (``"real"``,
    ``"pending"``: no test gold yet, or ``"practice"``: the test gold is public, with ``practice_reason``),
    ``left_out`` (the languages the test phase leaves out: its gold has none of their files).
    """

    def __init__(self, hosted, competition, subtask, schedule, data, reference, present, baseline_html, links,
                 warn, test_state="real", practice_reason="", left_out=()):
        self.hosted, self.competition, self.subtask, self.schedule = hosted, competition, subtask, schedule
        self.data, self.reference, self.present, self.baseline_html = data, reference, present, baseline_html
        self.links, self.warn, self.test_state, self.practice_reason = links, warn, test_state, practice_reason
        self.left_out = tuple(left_out)
        self.wording = declarations.subtask_wording(subtask, hosted.cid)

    @property
    def declaration(self):
        """The competition's declaration module."""
        return self.hosted.declaration

    def columns(self):
        """The leaderboard columns ``[(key, label)]`` in rank order."""
        columns = self.competition["leaderboard"]["columns"]
        return [(key, column["label"]) for key, column in sorted(columns.items(), key=lambda kv: kv[1]["rank"])]


def read_text(path):
    """The UTF-8 text of ``path``, or None when it is absent."""
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return handle.read()


#: A reference builder may write this file beside the phases: the statistics of the data, shown on the pages
#: (``{{ data_statistics }}``).
STATISTICS_FILE = "statistics.md"


def test_phase_note(context):
    """A loud paragraph when the test phase is a practice phase (its gold is public); otherwise what the test phase
    shows participants and how the final ranking is made (:func:`feedback_note`); then the languages it leaves out
    (:func:`left_out_note`)."""
    if context.test_state != "practice":
        return feedback_note(context) + left_out_note(context)
    return ('<p class="note"><strong>The test phase of this bundle is a practice phase:</strong> its gold is public '
            '(%s), so its leaderboard is no official result. The official test phase needs gold that participants '
            'cannot see.</p>' % escape(context.practice_reason)) + left_out_note(context)


def left_out_note(context):
    """The languages the test phase leaves out (``context.left_out``), named; '' when it covers every language."""
    if not context.left_out:
        return ""
    names = context.declaration.LANGUAGES
    return ('\n<p class="note"><strong>Left out of the test phase</strong> (no test gold for them: not scored there): '
            '%s.</p>' % ", ".join("%s (<code>%s</code>)" % (escape(names[lang][0]), escape(lang))
                                          for lang in context.left_out))


def feedback_note(context):
    """What participants see during the test phase and how the final ranking is made (organiser.feedback): from
    the build's test split (``<reference>/test/split.json``, its sizes over the subtask's files), else from the
    mode the competition's schedule declares."""
    try:
        split = feedback.read_split(os.path.join(context.reference or "", "test"))
    except ValueError:
        split = None
    split = feedback.shown_split(split, context.test_state == "pending", context.hosted.schedule)
    names = set(context.present or ()) or None   # the subtask's reference files (the split counts them only)
    return '<p class="note"><strong>Test phase.</strong> %s</p>' % escape(feedback.what_participants_see(split, names))


def data_release_note(context):
    """When participants get which data: the development data with the starting kit, the test input when the
    test phase opens (never before: it is not in the starting kit or in the bundle)."""
    names = phase_names(context.competition)
    text = ("<p>The development data come with the starting kit (its <code>reference_data/dev/</code> scores your "
            "development predictions locally).")
    if "test" in names and "test" in context.schedule.phases:
        text += (" The test input is released when the test phase opens (%s) as the test phase's public data; it "
                 "is in no file you can download before." % escape(schedule_module.human(
                     context.schedule.window("test").opens)))
    return text + "</p>"


#: What the pages say of the reports of each phase (evalkit/policy.py writes them so).
REPORT_POLICY = (
    "<p>What the detailed results show depends on the phase. In the development phase, whose gold you have, they "
    "show everything above. In the test phase they show your scores and the messages about your submission's "
    "format only: no table per label, item or document, nothing that depends on the hidden test gold. The "
    "platform may serve a submission's detailed results to other users (Codabench serves any submission's "
    "detailed results to anyone once the competition is published), so treat them as public.</p>")


#: The generic placeholders and how each is computed from a :class:`PageContext`.
GENERIC = {
    "competition_title": lambda c: escape(c.competition.get("title", c.declaration.TITLE)),
    "phases_table": lambda c: phases_table(c.competition, c.schedule),
    "important_dates": lambda c: important_dates(c.competition, c.schedule, c.hosted.cid),
    "column_count": lambda c: str(len(c.columns())),
    "columns_table": lambda c: columns_table(c.columns()),
    "datasets_table": lambda c: datasets_table(c.declaration, c.present),
    "lacking_note": lambda c: lacking_note(c.declaration, c.present),
    "baselines_table": lambda c: baseline_block(c.baseline_html),
    "baseline_table": lambda c: baseline_block(c.baseline_html),
    "data_statistics": lambda c: markdown_html(read_text(os.path.join(c.reference, STATISTICS_FILE)))
    or '<p class="note">No statistics in this build.</p>',
    "links_line": lambda c: links_line(c.links, c.subtask, c.hosted.subtasks()),
    "registration_link": lambda c: _link(c.links["registration"], "registration form"),
    "phase_sections": lambda c: phase_sections(c.subtask, c.schedule, c.hosted.cid, c.hosted.pages),
    "test_phase_note": test_phase_note,
    "data_release_note": data_release_note,
    "report_policy": lambda c: REPORT_POLICY,
}


class PageValues(dict):
    """The placeholder values of a competition's templates: its own (the ``page_values`` hook), then each generic
    value of :data:`GENERIC`, computed the first time a template asks for it."""

    def __init__(self, context, own=None):
        dict.__init__(self, own or {})
        self.context = context

    def __contains__(self, name):
        return dict.__contains__(self, name) or name in GENERIC

    def __missing__(self, name):
        if name not in GENERIC:
            raise KeyError(name)
        self[name] = GENERIC[name](self.context)
        return self[name]


def build_pages(context):
    """``{member: HTML text}`` of every page of the ``html`` section of ``context.competition``."""
    hook = context.hosted.hook("page_values")
    values = PageValues(context, hook(context) if hook else None)
    return dict((member, render_page(key, values, context.hosted.pages))
                for key, member in (context.competition.get("html") or {}).items())
