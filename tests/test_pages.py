"""Competition pages (organiser/pages.py and pages/*.html): counted sizes, valid self-contained HTML5."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import needs_shared, SHARED
import st2024
from evalkit import keys
from organiser import schedule as schedule_module
from organiser import bundle, pages
from html_check import NestingParser
from test_bundle import CONLLU, make_data, write

class Auditor(NestingParser):
    """Collects structure problems (``problems``) and external references of an HTML document."""

    def __init__(self):
        NestingParser.__init__(self)
        self.problems = self.errors
        self.doctype, self.charset, self.tables = None, False, 0

    def handle_decl(self, decl):
        self.doctype = decl

    def check_start(self, tag, attrs):
        if tag == "meta" and attrs.get("charset", "").lower() == "utf-8":
            self.charset = True
        if tag in ("script", "iframe", "object", "embed", "link"):
            self.problems.append("<%s> is not allowed" % tag)
        if tag in ("img", "source") and attrs.get("src"):
            self.problems.append("external image %s" % attrs["src"])
        if "style" in attrs:
            self.problems.append("inline style attribute on <%s>" % tag)
        if tag == "table":
            self.tables += 1


def audit(text):
    """Parse ``text``; return the auditor after checking the document as a whole."""
    auditor = Auditor()
    auditor.feed(text)
    auditor.close()
    if auditor.stack:
        auditor.problems.append("unclosed tags: %s" % auditor.stack)
    if "url(" in text or "@import" in text:
        auditor.problems.append("external resource in CSS")
    return auditor


@pytest.fixture(scope="module")
def sizes(tmp_path_factory):
    """Sizes counted from the tiny fake release tree."""
    return pages.count_sizes(make_data(str(tmp_path_factory.mktemp("data"))))


@pytest.fixture(scope="module")
def rendered(sizes):
    """``{subtask: {member: html}}`` with a baseline table for the unconstrained pages only."""
    result = {}
    for subtask in st2024.SUBTASKS:
        competition = bundle.derive_competition(bundle.load_competition(), subtask, {"dev", "test"})
        table = "<table class=\"baselines\"><tr><td>b</td></tr></table>" if subtask == "unconstrained" else None
        result[subtask] = pages.build_pages(competition, subtask, sizes, table)
    return result


# --------------------------------------------------------------------------- counting

def test_count_conllu_includes_ranges_and_skips_empty_nodes(tmp_path):
    path = tmp_path / "x.conllu"
    path.write_text(CONLLU, encoding="utf-8")
    assert pages.count_conllu(str(path)) == (2, 5)
    path.write_text("1\ta\n2\tb", encoding="utf-8")  # no metadata, no final blank line (Old Hungarian)
    assert pages.count_conllu(str(path)) == (1, 2)


def test_count_tsv_with_and_without_header_and_quotes(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("masked\tsrc\na [MASK]\ta b\n^x\ty^\t^x\ty^ z\n", encoding="utf-8")
    assert pages.count_tsv(str(path)) == (2, 2 + 3)
    path.write_text("a [MASK] c\nd\n", encoding="utf-8")
    assert pages.count_tsv(str(path)) == (2, 4)


def test_count_sizes(sizes):
    assert sizes["lat"]["valid"] == {"sentences": 2, "tokens": 5, "source": "morphology"}
    assert sizes["san"]["train"]["sentences"] == 2, "the sanv_ alias is found"
    assert sizes["sga"]["valid"] == {"sentences": 2, "tokens": 3 + 3, "source": "fill_mask_word"}
    assert sizes["sga"]["test"]["sentences"] == 2
    assert sizes["lzh"]["valid"]["tokens"] is None, "whitespace words of Chinese are not tokens"
    assert sizes["got"]["valid"] is None


@needs_shared
def test_sizes_of_the_release_match_its_readme():
    counted = pages.count_sizes(SHARED, ["lat", "cop", "hbo"])
    # The README's table: tokens are CoNLL-U rows, multiword ranges included.
    for lang, sentences, tokens in (("lat", 2096, 23279), ("cop", 216, 7282), ("hbo", 158, 4862)):
        entry = counted[lang]["valid"]
        if entry is None or entry["source"] != "morphology":
            pytest.skip("%s valid CoNLL-U is not in this checkout" % lang)
        assert (entry["sentences"], entry["tokens"]) == (sentences, tokens)


# --------------------------------------------------------------------------- HTML

def test_every_page_is_valid_self_contained_html5(rendered):
    for subtask, members in rendered.items():
        assert sorted(members) == ["data.html", "evaluation.html", "overview.html", "terms.html", "timeline.html"]
        for member, text in members.items():
            text.encode("utf-8")
            assert text.startswith("<!DOCTYPE html>\n<html lang=\"en\">"), member
            assert "{{" not in text and "}}" not in text, member
            auditor = audit(text)
            assert auditor.doctype and auditor.doctype.lower() == "doctype html"
            assert auditor.charset, member
            assert auditor.problems == [], (subtask, member, auditor.problems)


def test_pages_survive_a_markdown_renderer(rendered):
    """Codabench may render page content as Markdown: raw HTML passes through when every block starts
    with a tag (a line after a blank line that is text, or indented, would become a paragraph or code)."""
    for members in rendered.values():
        for member, text in members.items():
            outside_pre = re.sub(r"<pre>.*?</pre>", "<pre></pre>", text, flags=re.S)
            lines = outside_pre.split("\n")
            for previous, line in zip(lines, lines[1:]):
                if not previous.strip() and line.strip():
                    assert line.startswith("<"), (member, line)


def test_css_is_scoped_to_the_page():
    layout = pages.read_template("_layout")
    rules = re.findall(r"^([^{\n]+)\{", layout.split("<style>")[1].split("</style>")[0], re.M)
    assert rules and all(all(sel.strip().startswith(".st2024-page") for sel in rule.split(",")) for rule in rules)


def test_overview_lists_the_languages_with_facts_and_counted_sizes(rendered):
    for subtask, members in rendered.items():
        text = members["overview.html"]
        languages = st2024.SUBTASKS[subtask]["languages"]
        for lang in st2024.LANGUAGES:
            name, family, branch, script, dating = st2024.LANGUAGES[lang]
            shown = "<code>%s</code>" % lang in text
            assert shown == (lang in languages), (subtask, lang)
            if shown:
                assert pages.escape(dating) in text and pages.escape(script) in text and family in text
        assert st2024.SUBTASKS[subtask]["title"] in text
    unconstrained = rendered["unconstrained"]["overview.html"]
    row = re.search(r"<code>lat</code>.*?</tr>", unconstrained, re.S).group(0)
    assert '<td class="num">2</td>' in row and '<td class="num">5</td>' in row
    assert "2&#8224;" in re.search(r"<code>sga</code>.*?</tr>", unconstrained, re.S).group(0)
    assert "Not found in the data directory" in unconstrained


def test_evaluation_states_every_key_metric_and_difference(rendered):
    for subtask, members in rendered.items():
        text = members["evaluation.html"]
        tasks = [st2024.TASKS_BY_FOLDER[f] for f in st2024.SUBTASKS[subtask]["tasks"]]
        for task in tasks:
            assert keys.task_mean_key(task) in text and task.folder + "/" in text
            for component in task.components:
                assert pages.escape(keys.component_key("<lang>", task, component)) in text
        others = [t for t in st2024.TASKS if t not in tasks]
        assert not any("<code>%s/&lt;lang&gt;.json</code>" % t.folder in text for t in others)
        for phrase in ("avg_score", "2&#183;TP / (2&#183;TP + FP + FN)", "can be negative", "acc@3",
                       "first 3 candidates", "both counts", "scores 0 on every metric", "wrapping top-level folder",
                       "did you mean", "<code>\"Form\"</code>", "byte-order mark", "Lemma</code> keys"):
            assert phrase in " ".join(text.split()), (subtask, phrase)
        columns = len(bundle.leaderboard_columns(subtask))
        assert "has %d columns" % columns in text
    assert 'class="baselines"' in rendered["unconstrained"]["evaluation.html"]
    assert "make baselines" in rendered["constrained"]["evaluation.html"]
    assert "Phase 2: embeddings" in rendered["constrained"]["evaluation.html"]
    assert "Phase 2: embeddings" not in rendered["unconstrained"]["evaluation.html"]


def test_timeline_lists_the_phases(rendered):
    text = rendered["constrained"]["timeline.html"]
    schedule = schedule_module.load()
    for name in ("dev", "test", "embeddings"):
        window = schedule.window(name)
        assert schedule_module.human(window.opens) in text and schedule_module.human(window.closes) in text
    assert schedule_module.human(schedule.results_notification) in text
    assert "Phase 2: embeddings" in text and "Phase 2 (embeddings) closes" in text
    assert "Phase 2 (embeddings)" not in rendered["unconstrained"]["timeline.html"]


def test_baseline_table_is_embedded_as_a_fragment(tmp_path):
    write(str(tmp_path / "baselines" / "table.html"),
          "<!DOCTYPE html><html><head><style>td{color:red}</style></head><body><table><tr><td>1</td></tr>"
          "</table><script>x()</script></body></html>")
    assert pages.read_baseline_html(str(tmp_path)) == "<table><tr><td>1</td></tr></table>"
    assert pages.read_baseline_html(str(tmp_path / "absent")) is None


def test_fill_reports_a_missing_value():
    with pytest.raises(KeyError):
        pages.fill("a {{ b }}", {})
    assert pages.fill("a {{ b }} {{c}}", {"b": "1", "c": "2"}) == "a 1 2"


def test_generated_strings_are_escaped(monkeypatch):
    monkeypatch.setitem(st2024.LANGUAGES, "lat", ("<b>Latin</b> & co", "F", "B", "S", "D"))
    table = pages.languages_table(["lat"], {})
    assert "&lt;b&gt;Latin&lt;/b&gt; &amp; co" in table and "<b>" not in table


def examples(rendered):
    """Every example sentence string of the data and evaluation pages (quoted JSON strings of 2+ words)."""
    found = set()
    for members in rendered.values():
        for member in ("data.html", "evaluation.html"):
            for block in re.findall(r"<pre>(.*?)</pre>", members[member], re.S):
                found.update(s for s in re.findall(r'"(\w[^"\n]* [^"\n]*\w[.]?)"', block) if "[" not in s)
                found.update(line.split("\t")[1] for line in block.splitlines()
                             if line.count("\t") == 1 and not line.startswith("masked"))
    return found


@needs_shared
def test_examples_are_invented_not_cut_from_the_release(rendered):
    sentences = examples(rendered)
    assert "nautae carmina laeta canunt." in sentences
    for folder, _, files in os.walk(SHARED):
        for name in files:
            if name.endswith((".conllu", ".tsv", ".json")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                for sentence in sentences:
                    assert sentence not in text, (sentence, name)
                for words in ("li reis vint del bois", "carmina laeta"):
                    assert words not in text, (words, name)


def test_pages_render_in_a_headless_browser(rendered, tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("chromium is not installed")
    path = tmp_path / "overview.html"
    path.write_text(rendered["unconstrained"]["overview.html"], encoding="utf-8")
    try:
        process = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                                  path.as_uri()], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.skip("chromium did not answer in time")
    dom = process.stdout.decode("utf-8")
    assert "Classical Chinese" in dom and "<table>" in dom
