"""ST2024's part of its bundles: the page values only ST2024's templates use, and its logo.

The machinery (organiser/bundle.py, organiser/pages.py) renders every competition's pages from its templates with
the generic values (phases, dates, columns, baselines, links, notes); a competition may add its own through a
``bundle_hooks.py`` in its builders folder (organiser.declarations.Hosted.hooks). ST2024's are generated from its
release and its declaration: the languages table with sentence and token counts counted from the data directory,
the tasks, score keys and submission layout, the metric and submission-example sections (``pages/_metric_<kind>.html``,
``pages/_submission_<folder>.html``), the fill-mask TSV columns and reader, and the BibTeX of the release
(``<data>/bibliography.bib``). What is missing is said to the organiser (never on the pages).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)
import st2024  # noqa: E402
import st2024_release as release  # noqa: E402
validate = competition_paths.kit_module(__file__, "validate")   # the kit's standard-library readers of the release
from evalkit import keys  # noqa: E402
from organiser import declarations, logo  # noqa: E402
from organiser.pages import _link, _table, escape, fill, read_template  # noqa: E402

DECLARATION = st2024
PAGES_DIR = os.path.join(competition_paths.ROOT, "pages")
BIBLIOGRAPHY = "bibliography.bib"
#: Columns of the fill-mask TSV files per split, as released: train and valid start with the header line
#: ``masked<TAB>src``; test files have no header line and only the masked sentences (checked on the release
#: by tests/test_pages.py).
TSV_COLUMNS = {"train": ("masked", "src"), "valid": ("masked", "src"), "test": ("masked",)}
TSV_HEADER_SPLITS = ("train", "valid")
#: The reader the Data page shows (executed on the release by tests/test_pages.py).
READ_TSV_EXAMPLE = os.path.join(PAGES_DIR, "read_tsv_example.py")
SPLITS = ("train", "valid", "test")
#: Only the first N lemma / gap candidates count (declared on the declaration's Task by the scorer).
MAX_CANDIDATES = getattr(DECLARATION.Task, "max_candidates", getattr(DECLARATION, "MAX_CANDIDATES", 3))

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
                        found["no_conllu"] = True
            sizes[lang][split] = found
    return sizes


def _subtask(name):
    """The subtask declaration and its Task objects."""
    declaration = DECLARATION.SUBTASKS[name]
    tasks = [DECLARATION.TASKS_BY_FOLDER[folder] for folder in declaration["tasks"]]
    return declaration, tasks


# --------------------------------------------------------------------------- generated blocks

MISSING_MARK = "&#8212;"
NO_CONLLU_MARK = "&#8225;"
TSV_MARK = "&#8224;"


def _count_cell(entry, field):
    """A formatted count, a dagger when counted from the fill-mask TSV, a double dagger for the tokens of a split
    whose CoNLL-U file the release lacks, a dash when not counted."""
    if entry is not None and entry[field] is None and entry.get("no_conllu"):
        return NO_CONLLU_MARK
    if entry is None or entry[field] is None:
        return MISSING_MARK
    mark = TSV_MARK if entry["source"] == _size_folders()[1] else ""
    return "{:,}{}".format(entry[field], mark)


def languages_table(languages, sizes, left_out=()):
    """The languages with family, branch, script, dating and counted sizes, and a legend of its marks; a language
    the test phase leaves out (``left_out``: no test gold for it) is marked so."""
    headers = ["Language", "Code", "Family", "Branch", "Script", "Dating"]
    headers += ["%s sent." % split.capitalize() for split in SPLITS]
    headers += ["%s tokens" % split.capitalize() for split in SPLITS]
    rows = []
    for lang in languages:
        name, family, branch, script, dating = DECLARATION.LANGUAGES[lang]
        row = [escape(name) + (" <em>(left out of the test phase)</em>" if lang in left_out else ""),
               "<code>%s</code>" % escape(lang), escape(family), escape(branch), escape(script), escape(dating)]
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
    if any(cell == NO_CONLLU_MARK for cell in cells):
        items.append("<li>%s the release has no CoNLL-U file of this split for this language: POS tagging, "
                     "morphology and lemmatisation are not scored for it in the phase built from this split "
                     "(its sentences were counted from the gap-filling file).</li>" % NO_CONLLU_MARK)
    if any(cell == MISSING_MARK for cell in cells):
        items.append("<li>%s not counted: the split has no file for this language.</li>" % MISSING_MARK)
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


# --------------------------------------------------------------------------- citation, metrics, examples

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
        parts.append(fill(read_template("_metric_" + task.kind, PAGES_DIR), values))
    return "\n".join(parts)


def submission_examples(tasks):
    """One example file per task, from ``pages/_submission_<folder>.html``."""
    return "\n".join(read_template("_submission_" + task.folder, PAGES_DIR) for task in tasks)




# --------------------------------------------------------------------------- the hooks

_SIZES = {}


def sizes(data_dir, warn):
    """The size table's counts of ``data_dir`` (counted once per build); what has no file is said to the organiser."""
    if data_dir not in _SIZES:
        if not os.path.isdir(data_dir):
            warn("data folder %s not found: the overview's size table will be empty" % data_dir)
        _SIZES[data_dir] = count_sizes(data_dir)
        missing = missing_files(list(DECLARATION.LANGUAGES), _SIZES[data_dir])
        if missing and os.path.isdir(data_dir):
            warn("no file in %s for %s: the size table shows a dash there" % (data_dir, ", ".join(missing)))
        if read_bibliography(data_dir) is None:
            warn("no %s in %s: the Data page links the citation file instead of showing it" % (BIBLIOGRAPHY, data_dir))
    return _SIZES[data_dir]


def page_values(context):
    """The placeholders only ST2024's templates use, for ``context.subtask`` (see organiser.bundle.PageContext)."""
    declaration, tasks = _subtask(context.subtask)
    languages = list(declaration["languages"])
    counted = sizes(context.data, context.warn)
    return {
        "subtask": escape(context.subtask),
        "subtask_text": context.wording.get("page_text", ""),
        "language_count": str(len(languages)),
        "task_count": str(len(tasks)),
        "languages_table": languages_table(languages, counted, context.left_out),
        "tasks_list": tasks_list(tasks),
        "score_keys_table": score_keys_table(tasks, languages),
        "submission_tree": submission_tree(tasks, languages),
        "metrics_section": metrics_section(tasks),
        "submission_examples": submission_examples(tasks),
        "max_candidates": str(MAX_CANDIDATES),
        "tsv_table": tsv_table(),
        "read_tsv_example": read_tsv_example(),
        "citation": citation_block(read_bibliography(context.data), context.links),
    }


# --------------------------------------------------------------------------- the logo

SIZE = 160
INK = (38, 52, 84)
PAGE = (244, 232, 200)
EDGE = (176, 142, 92)
GAP = (196, 72, 52)
BACKGROUND = (30, 44, 74)
LABEL = (244, 232, 200)

# 5x7 bitmap glyphs for the label (rows top to bottom, "#" = ink).
GLYPHS = {
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    " ": (".....",) * 7,
}


def _canvas(width, height, colour):
    """A ``height`` x ``width`` grid of RGB tuples filled with ``colour``."""
    return [[colour] * width for _ in range(height)]


def _rect(pixels, x0, y0, x1, y1, colour):
    """Fill the rectangle [x0, x1) x [y0, y1) (clipped to the canvas)."""
    for y in range(max(0, y0), min(len(pixels), y1)):
        row = pixels[y]
        for x in range(max(0, x0), min(len(row), x1)):
            row[x] = colour


def _text(pixels, text, x0, y0, scale, colour):
    """Draw ``text`` with the 5x7 glyphs, each dot a ``scale`` x ``scale`` square."""
    for index, char in enumerate(text):
        glyph = GLYPHS[char]
        left = x0 + index * 6 * scale
        for row, line in enumerate(glyph):
            for col, dot in enumerate(line):
                if dot == "#":
                    _rect(pixels, left + col * scale, y0 + row * scale,
                          left + (col + 1) * scale, y0 + (row + 1) * scale, colour)


def draw_logo():
    """Return the logo as rows of RGB tuples."""
    pixels = _canvas(SIZE, SIZE, BACKGROUND)
    _rect(pixels, 22, 14, 138, 106, EDGE)
    _rect(pixels, 25, 17, 135, 103, PAGE)
    # Lines of "text": runs of ink separated by spaces; one run is a gap marker.
    lines = ((18, 26, 14, 30), (30, 12, 22, 20), (16, 34, 20, 0), (26, 20, 28, 0), (22, 30, 0, 0))
    for number, runs in enumerate(lines):
        y = 26 + number * 15
        x = 34
        for run_index, length in enumerate(runs):
            if not length:
                continue
            colour = GAP if (number, run_index) == (1, 1) else INK
            height = 8 if colour == GAP else 4
            top = y - 2 if colour == GAP else y
            _rect(pixels, x, top, min(x + length, 126), top + height, colour)
            x += length + 6
    label = "ST 2024"
    scale = 3
    width = len(label) * 6 * scale - scale
    _text(pixels, label, (SIZE - width) // 2, 118, scale, LABEL)
    return pixels



def logo_png():
    """ST2024's logo: a parchment page with lines of text, one word of which is a masked gap, and the label
    "ST 2024" underneath."""
    return logo.png_bytes(draw_logo())
