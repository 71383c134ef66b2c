"""Competition pages (organiser/pages.py, ST2024's page values in competitions/st2024/bundle_hooks.py, and
pages/*.html): counted sizes, valid self-contained HTML5."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import needs_shared, SHARED
import st2024
from competitions.st2024 import bundle_hooks as hooks
from evalkit import keys
from organiser import schedule as schedule_module
from organiser import bundle, check, declarations, pages
from evalkit.messages import DataError
from html_check import NestingParser
from test_bundle import CONLLU, make_data, make_reference, write

HOSTED = declarations.Hosted("st2024")

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
        if tag in ("script", "iframe", "object", "embed", "link", "style"):
            self.problems.append("<%s> is not allowed" % tag)
        if tag in ("img", "source") and attrs.get("src"):
            self.problems.append("external image %s" % attrs["src"])
        if "url(" in attrs.get("style", "") or "expression(" in attrs.get("style", ""):
            self.problems.append("external resource in the style of <%s>" % tag)
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
    return hooks.count_sizes(make_data(str(tmp_path_factory.mktemp("data"))))


BIB = "@misc{doe2024,\n  title = {{An \\emph{invented} entry: <lang> \\& co}},\n  author = {Doe, Jane},\n}\n"


def links():
    """ST2024's links (pages/links.yaml)."""
    return pages.load_links(os.path.join(HOSTED.pages, pages.LINKS_FILE), HOSTED.subtasks())


def render(subtask, data, reference, baseline_html, warnings, test_state="real", reason=""):
    """``{member: html}``: the pages of ``subtask`` as the bundle builder renders them (organiser.bundle)."""
    schedule = schedule_module.load(HOSTED.schedule)
    states = bundle.PhaseStates(reference, HOSTED)
    competition = bundle.derive_competition(HOSTED, bundle.load_competition(HOSTED.source), subtask, states, schedule)
    present = set(bundle.reference_file(st2024, t, l) for t, l in bundle.subtask_pairs(st2024, subtask))
    context = pages.PageContext(HOSTED, competition, subtask, schedule, data, reference, present, baseline_html,
                                links(), warnings.append, test_state, reason)
    return pages.build_pages(context)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """``{subtask: {member: html}}``; the unconstrained pages only get a baseline table and a bibliography (the
    release's ``bibliography.bib``)."""
    result = {}
    reference = make_reference(str(tmp_path_factory.mktemp("reference")), ("dev", "test"))
    for subtask in st2024.SUBTASKS:
        data = make_data(str(tmp_path_factory.mktemp("data")))
        if subtask == "unconstrained":
            write(os.path.join(data, hooks.BIBLIOGRAPHY), BIB)
        table = "<table class=\"baselines\"><tr><td>b</td></tr></table>" if subtask == "unconstrained" else None
        warnings = []
        result[subtask] = render(subtask, data, reference, table, warnings)
        # What is missing is said to the organiser, never on the pages.
        assert any("no file in %s for" % data in w for w in warnings)
        assert any(hooks.BIBLIOGRAPHY in w for w in warnings) == (subtask != "unconstrained")
    return result


# --------------------------------------------------------------------------- counting

def test_count_conllu_includes_ranges_and_skips_empty_nodes(tmp_path):
    path = tmp_path / "x.conllu"
    path.write_text(CONLLU, encoding="utf-8")
    assert hooks.count_conllu(str(path)) == (2, 5)
    path.write_text("1\ta\n2\tb", encoding="utf-8")  # no metadata, no final blank line (Old Hungarian)
    assert hooks.count_conllu(str(path)) == (1, 2)


def test_count_tsv_with_and_without_header_and_quotes(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("masked\tsrc\na [MASK]\ta b\n^x\ty^\t^x\ty^ z\n", encoding="utf-8")
    assert hooks.count_tsv(str(path)) == (2, 2 + 3)
    path.write_text("a [MASK] c\nd\n", encoding="utf-8")
    assert hooks.count_tsv(str(path)) == (2, 4)


def test_count_sizes(sizes):
    assert sizes["lat"]["valid"] == {"sentences": 2, "tokens": 5, "source": "morphology"}
    assert sizes["san"]["train"]["sentences"] == 2, "the sanv_ alias is found"
    assert sizes["sga"]["valid"] == {"sentences": 2, "tokens": 3 + 3, "source": "fill_mask_word"}
    assert sizes["sga"]["test"]["sentences"] == 2
    assert sizes["lzh"]["valid"]["tokens"] is None, "whitespace words of Chinese are not tokens"
    assert sizes["got"]["valid"] is None


@needs_shared
def test_sizes_of_the_release_match_its_readme():
    counted = hooks.count_sizes(SHARED, ["lat", "cop", "hbo"])
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
            assert not pages.PLACEHOLDER.search(text), member
            auditor = audit(text)
            assert auditor.doctype and auditor.doctype.lower() == "doctype html"
            assert auditor.charset, member
            assert auditor.problems == [], (subtask, member, auditor.problems)


def test_pages_survive_a_markdown_renderer(rendered):
    """Codabench may render page content as Markdown: raw HTML passes through when every block starts
    with a tag (a line after a blank line that is text, or indented, would become a paragraph or code)."""
    for members in rendered.values():
        for member, text in members.items():
            outside_pre = re.sub(r"<pre[^>]*>.*?</pre>", "<pre></pre>", text, flags=re.S)
            lines = outside_pre.split("\n")
            for previous, line in zip(lines, lines[1:]):
                if not previous.strip() and line.strip():
                    assert line.startswith("<"), (member, line)


def test_pages_have_no_style_element_and_inline_the_look():
    """Both platforms drop a <style> element: the look is in style attributes, on every table cell."""
    assert "<style" not in pages.read_template("_layout", HOSTED.pages)
    styled = pages.inline_styles('<table><tr><th>a</th><td class="num">1</td><td style="color: red">x</td>'
                                 '</tr></table><p class="note">n</p><p>p</p>')
    assert '<td class="num" style="%s; %s">' % (pages.STYLES["td"], pages.STYLES["td.num"]) in styled
    assert '<td style="%s; color: red">' % pages.STYLES["td"] in styled, "an existing style comes last"
    assert '<th style="%s">' % pages.STYLES["th"] in styled and "<p>p</p>" in styled
    assert '<p class="note" style="%s">' % pages.STYLES["p.note"] in styled


def test_pre_blocks_start_a_markdown_block():
    text = pages.separate_pre_blocks("<p>a</p>\n<pre>x\n\ny</pre>\n<p>b</p>\n\n\n<pre>z</pre>")
    assert text == "<p>a</p>\n\n<pre>x\n\ny</pre>\n<p>b</p>\n\n<pre>z</pre>"


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
    assert re.search(r'<td class="num"[^>]*>2</td>', row) and re.search(r'<td class="num"[^>]*>5</td>', row)
    assert "2&#8224;" in re.search(r"<code>sga</code>.*?</tr>", unconstrained, re.S).group(0)
    legend = unconstrained.split("</table>", 1)[1].split("</ul>", 1)[0]
    assert "&#8224; counted from the word-level gap-filling file" in legend
    assert "&#8212; not counted" in legend


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
        columns = len(check.subtask_columns(subtask, st2024))
        assert "has %d columns" % columns in text
    assert 'class="baselines"' in rendered["unconstrained"]["evaluation.html"]
    assert "will be published here" in rendered["constrained"]["evaluation.html"]
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


def test_the_pages_say_when_the_test_input_comes_and_what_a_test_report_shows(rendered):
    schedule = schedule_module.load(HOSTED.schedule)
    opens = pages.escape(schedule_module.human(schedule.window("test").opens))
    for subtask, members in rendered.items():
        data = " ".join(members["data.html"].split())
        assert "The test input is released when the test phase opens (%s)" % opens in data, subtask
        assert "<code>reference_data/dev/</code>" in data
        assert pages.PHASES_NOTE in members["timeline.html"]
        timeline = " ".join(re.sub(r"<[^>]*>", " ", members["timeline.html"]).split())
        assert "nothing of the test gold" in timeline and "last submission" in timeline
        assert "practice phase" not in members["overview.html"]


def test_a_practice_test_phase_is_said_on_the_overview(rendered, tmp_path):
    reference = make_reference(str(tmp_path / "reference"), ("dev", "test"))
    members = render("unconstrained", make_data(str(tmp_path / "data")), reference, None, [], "practice",
                     "the <gold> was published")
    overview = " ".join(members["overview.html"].split())
    assert "The test phase of this bundle is a practice phase:" in overview
    assert "the &lt;gold&gt; was published" in overview and "<gold>" not in overview


def test_baseline_table_is_embedded_as_a_fragment(tmp_path):
    write(str(tmp_path / "baselines" / "table-constrained.html"),
          "<!DOCTYPE html><html><head><style>td{color:red}</style></head><body><table><tr><td>1</td></tr>"
          "</table><script>x()</script></body></html>")
    assert pages.read_baseline_html(str(tmp_path), "constrained") == "<table><tr><td>1</td></tr></table>"
    assert pages.read_baseline_html(str(tmp_path), "unconstrained") is None, "never another subtask's table"
    assert pages.read_baseline_html(str(tmp_path / "absent"), "constrained") is None


def test_fill_reports_a_missing_value():
    with pytest.raises(KeyError):
        pages.fill("a {{ b }}", {})
    assert pages.fill("a {{ b }} {{c}}", {"b": "1", "c": "2"}) == "a 1 2"


def test_generated_strings_are_escaped(monkeypatch):
    monkeypatch.setitem(st2024.LANGUAGES, "lat", ("<b>Latin</b> & co", "F", "B", "S", "D"))
    table = hooks.languages_table(["lat"], {})
    assert "&lt;b&gt;Latin&lt;/b&gt; &amp; co" in table and "<b>" not in table


def examples(rendered):
    """Every example sentence string of the data and evaluation pages (quoted JSON strings of 2+ words)."""
    found = set()
    for members in rendered.values():
        for member in ("data.html", "evaluation.html"):
            for block in re.findall(r"<pre[^>]*>(.*?)</pre>", members[member], re.S):
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
    assert "Classical Chinese" in dom and "<table " in dom


# --------------------------------------------------------------------------- links, citation, wording

def test_links_declaration_defaults_and_checks(tmp_path):
    declared = links()
    assert declared["registration"].startswith("https://docs.google.com/forms/")
    assert set(declared["competitions"]) == set(st2024.SUBTASKS) and all(declared["competitions"].values())
    assert declared["citation"].endswith("bibliography.bib") and "organisers" in declared["contact"]["name"]
    subtasks = list(st2024.SUBTASKS)
    path = tmp_path / "links.yaml"
    path.write_text("registration: javascript:alert(1)\n", encoding="utf-8")
    with pytest.raises(DataError) as error:
        pages.load_links(str(path), subtasks)
    assert "registration" in str(error.value) and "http(s)://" in str(error.value)
    path.write_text("competitions: {subtask_c: https://x.org}\n", encoding="utf-8")
    with pytest.raises(DataError, match="unknown subtask"):
        pages.load_links(str(path), subtasks)
    path.write_text("contact: {url: mailto:st@example.org}\n", encoding="utf-8")
    assert pages.load_links(str(path), subtasks)["contact"] == {"name": "the organisers",
                                                                "url": "mailto:st@example.org"}
    # A competition without a links file gets no links line (only its contact, "the organisers").
    absent = pages.load_links(str(tmp_path / "absent.yaml"), subtasks)
    assert absent["declared"] is False and pages.links_line(absent, subtasks[0], subtasks) == ""


def test_every_page_links_registration_other_subtask_citation_and_contact(rendered):
    declared = links()
    for subtask, members in rendered.items():
        (other,) = [s for s in st2024.SUBTASKS if s != subtask]
        for member, text in members.items():
            hrefs = re.findall(r'href="([^"]*)"', text)
            for url in (declared["registration"], declared["competitions"][other], declared["citation"],
                        declared["contact"]["url"]):
                assert pages.escape(url) in hrefs, (subtask, member, url)
            assert pages.escape(declared["competitions"][subtask]) not in hrefs, (subtask, member)


def test_the_bibliography_is_shown_or_linked(rendered, tmp_path):
    shown = rendered["unconstrained"]["data.html"]
    assert "\\emph{invented} entry: &lt;lang&gt; \\&amp; co" in shown
    linked = rendered["constrained"]["data.html"].split("<h2")[-1]
    assert "Citation" in linked and pages.escape(links()["citation"]) in linked
    assert hooks.read_bibliography(str(tmp_path)) is None
    (tmp_path / "bibliography.bib").write_text("\ufeff@misc{a,}\n\n", encoding="utf-8")
    assert hooks.read_bibliography(str(tmp_path)) == "@misc{a,}"


def test_no_organiser_side_wording_on_participant_pages(rendered):
    for subtask, members in rendered.items():
        for member, text in members.items():
            for phrase in ("data directory", "checkout", "these pages were built", "make baselines",
                           "Not found in"):
                assert phrase not in text, (subtask, member, phrase)


def test_one_candidate_rule_and_optional_fill_mask_fields(rendered):
    for subtask, members in rendered.items():
        text = " ".join(members["evaluation.html"].split())
        assert "pad" not in re.sub(r"<[^>]*>", " ", text).lower(), subtask
        assert "up to 3 candidates count, in order" in text.lower() and "fewer is fine" in text
        assert "an empty string is accepted and never matches" in text
        if "fill_mask_word" in st2024.SUBTASKS[subtask]["tasks"]:
            assert "<code>text</code> (your restored sentence) are optional" in text


def test_component_is_defined_once_for_classical_chinese(rendered):
    for members in rendered.values():
        text = " ".join(members["data.html"].split())
        assert text.count("A <strong>component</strong> is") == 1
        assert "one <code>[_]</code> hides one component" in text and "strokes are masked" not in text


def test_size_table_legend_lists_only_the_marks_it_uses():
    sizes = {"lat": {split: {"sentences": 3, "tokens": 9, "source": "morphology"} for split in hooks.SPLITS}}
    table = hooks.languages_table(["lat"], sizes)
    assert "&#8224;" not in table and "&#8212;" not in table and "<ul" not in table
    sizes["lat"]["test"] = None
    assert "&#8212; not counted" in hooks.languages_table(["lat"], sizes)
    assert hooks.missing_files(["lat"], sizes) == ["lat test"]


# --------------------------------------------------------------------------- the fill-mask TSV files

def tsv_files(root):
    """``(split, path)`` of every fill-mask TSV of a release checkout."""
    found = []
    for kind in ("fill_mask_word", "fill_mask_char"):
        for split in hooks.SPLITS:
            folder = os.path.join(root, kind, split)
            if os.path.isdir(folder):
                found += [(split, os.path.join(folder, name)) for name in sorted(os.listdir(folder))
                          if name.endswith(".tsv")]
    return found


def example_readers():
    """The functions of pages/read_tsv_example.py (the code the Data page shows)."""
    namespace = {}
    with open(hooks.READ_TSV_EXAMPLE, encoding="utf-8") as handle:
        exec(compile(handle.read(), hooks.READ_TSV_EXAMPLE, "exec"), namespace)
    return namespace["read_tsv"], namespace["read_tsv_plain"]


def test_data_page_states_the_header_of_each_split_and_shows_the_reader(rendered):
    text = rendered["unconstrained"]["data.html"]
    rows = re.findall(r"<tr><td[^>]*>(train|valid|test)</td><td[^>]*>(yes|no[^<]*)</td>", text)
    assert rows == [("train", "yes"), ("valid", "yes"), ("test", "no: the first line is a sentence")]
    text = " ".join(text.split())
    assert "header=None" in text and "405,781 bytes" in text and "field larger than field limit" in text


def test_example_readers_on_a_fake_split_of_each_kind(tmp_path):
    read_tsv, read_tsv_plain = example_readers()
    with_header = tmp_path / "a_valid.tsv"
    with_header.write_text("masked\tsrc\nNA [MASK]\tNA b\n\"q [MASK]\t\"q r\n", encoding="utf-8")
    no_header = tmp_path / "a_test.tsv"
    no_header.write_text("masked [MASK]\nnull\n", encoding="utf-8")
    assert read_tsv(str(with_header)).values.tolist() == [["NA [MASK]", "NA b"], ["\"q [MASK]", "\"q r"]]
    assert read_tsv(str(no_header))["masked"].tolist() == ["masked [MASK]", "null"]
    assert read_tsv_plain(str(with_header)) == [["NA [MASK]", "NA b"], ["\"q [MASK]", "\"q r"]]
    assert read_tsv_plain(str(no_header)) == [["masked [MASK]"], ["null"]]


@needs_shared
def test_header_facts_and_the_reader_hold_on_every_release_tsv():
    read_tsv, read_tsv_plain = example_readers()
    files = tsv_files(SHARED)
    assert set(split for split, _ in files) == set(hooks.SPLITS)
    for split, path in files:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        header = split in hooks.TSV_HEADER_SPLITS
        assert (lines[0] == "\t".join(hooks.TSV_COLUMNS[split])) == header, path
        body = lines[1:] if header else lines
        assert all(line.count("\t") == len(hooks.TSV_COLUMNS[split]) - 1 for line in body), path
        table, plain = read_tsv(path), read_tsv_plain(path)
        assert len(table) == len(plain) == len(body), path
        assert table["masked"].tolist() == [row[0] for row in plain] == [l.split("\t")[0] for l in body], path


@needs_shared
def test_the_long_line_the_data_page_names():
    path = os.path.join(SHARED, "fill_mask_word", "valid", "ghc_valid.tsv")
    if not os.path.isfile(path):
        pytest.skip("ghc_valid.tsv is not in this copy of the release")
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    assert len(lines[857]) == 405781, "the Data page says line 858 is 405,781 bytes long"
    import csv
    raised = csv.field_size_limit(131072)  # the default (the starting kit's reader raises it for itself)
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            with pytest.raises(csv.Error, match="field larger than field limit"):
                list(csv.reader(handle, delimiter="\t", quotechar="^"))
    finally:
        csv.field_size_limit(raised)
    assert len(example_readers()[0](path)) == len([l for l in lines if l]) - 1


# --------------------------------------------------------------------------- baseline tables

def fake_detailed_results(subtask, offset):
    """A ``detailed_results.json`` shaped dict for every pair of ``subtask`` (scores are made up)."""
    pairs = bundle.subtask_pairs(st2024, subtask)
    tasks = list(dict.fromkeys(task for task, _ in pairs))
    langs = list(st2024.SUBTASKS[subtask]["languages"])
    scores = {"avg_score": 0.5 + offset}
    scores.update(("avg_" + task.key, 0.4 + offset) for task in tasks)
    scores.update((lang + "_avg_score", 0.3 + offset) for lang in langs)
    return {"tasks": [{"folder": task.folder} for task in tasks], "languages": [{"code": lang} for lang in langs],
            "entries": [{"task": task.folder, "lang": lang, "score": 0.25 + offset} for task, lang in pairs],
            "scores": scores}


def test_each_subtask_gets_its_own_baseline_table_with_legends(tmp_path):
    from competitions.st2024 import baselines
    os.makedirs(str(tmp_path / "baselines"))
    scores = dict(((system, subtask), fake_detailed_results(subtask, 0.5 if system == "baseline" else 0.0))
                  for system in baselines.SYSTEMS for subtask in st2024.SUBTASKS)
    scores[("baseline", "unconstrained")]["entries"] = [
        e for e in scores[("baseline", "unconstrained")]["entries"] if e["lang"] != "sga" or "fill" in e["task"]]
    markdown = baselines.write_table(str(tmp_path), scores, "st2024", [("morphology", "cop")])
    constrained = pages.read_baseline_html(str(tmp_path), "constrained")
    unconstrained = pages.read_baseline_html(str(tmp_path), "unconstrained")
    assert "Filling the gaps" not in constrained and "(sga)" not in constrained and "(lat)" in constrained
    assert "Filling the gaps" in unconstrained and "(sga)" in unconstrained
    assert (tmp_path / "baselines" / "table.html").read_text(encoding="utf-8") == unconstrained + "\n"
    assert markdown == (tmp_path / "baselines" / "table.md").read_text(encoding="utf-8")
    assert '<td class="num">0.750 / 0.250\u2020</td>' in constrained
    assert "\u2020: no training data in the release" in constrained and "checkout" not in constrained
    assert "\u2014: the task does not apply" in unconstrained and "\u2014: the task" not in constrained
    assert '<td class="num">\u2014</td>' in unconstrained
