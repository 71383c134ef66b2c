"""Tests of ``evalkit.report_html``: escaping, structure, robustness, speed, and a real browser."""
import ast
import copy
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import time

import pytest

from evalkit import report_html
from html_check import NestingParser

HOSTILE_TAG = "<script>alert(1)</script>"
HOSTILE_FEATURE = "\"&'<b>Case</b>"
HOSTILE_FILE = "pos_tagging/<img src=x onerror=alert(1)>.json"
HOSTILE_TEXT = "expected \"a\" & 'b' <script>alert('x')</script>"
SVG_SELF_CLOSING = {"line", "rect"}
TASKS = [
    {"folder": "pos_tagging", "key": "pos", "label": "POS tagging", "kind": "tagging", "components": ["acc", "f1"]},
    {"folder": "morph_features", "key": "full_morph", "label": "Morphological features", "kind": "morph",
     "components": []},
    {"folder": "lemmatisation", "key": "lemma", "label": "Lemmatisation", "kind": "candidates",
     "components": ["acc1", "acc3"]},
    {"folder": "fill_mask_word", "key": "fill_mask_word", "label": "Filling the gaps (word)", "kind": "fill_mask",
     "components": ["acc1", "acc3"]},
    {"folder": "fill_mask_char", "key": "fill_mask_char", "label": "Filling the gaps (character)",
     "kind": "fill_mask", "components": ["acc1", "acc3"]},
]


def _entry(task, lang, score, status="scored", **extra):
    """One entry of the report with plausible counts."""
    entry = {"task": task, "lang": lang, "file": "%s/%s.json" % (task, lang), "status": status, "score": score,
             "components": {}, "micro": {}, "sentences": 120, "scored_sentences": 118, "items": 1530,
             "zeroed_sentences": 2, "details": {}}
    entry.update(extra)
    return entry


def make_report():
    """A realistic report: 3 languages, all 5 task kinds, a missing and an unreadable entry, hostile strings."""
    entries = [
        _entry("pos_tagging", "lat", 0.9, components={"acc": 0.93, "f1": 0.87}, micro={"acc": 0.94},
               details={"per_tag": {"NOUN": {"tp": 8, "fp": 2, "fn": 0}, "VERB": {"tp": 5, "fp": 1, "fn": 3},
                                    "X": {"tp": 0, "fp": 0, "fn": 4}, HOSTILE_TAG: {"tp": 0, "fp": 7, "fn": 0}}}),
        _entry("morph_features", "lat", 0.81, micro={"acc": 0.8},
               details={"per_feature": {"Case": {"correct": 3, "total": 4, "spurious": 1},
                                        HOSTILE_FEATURE: {"correct": 0, "total": 0, "spurious": 5}}}),
        _entry("lemmatisation", "lat", 0.77, components={"acc1": 0.7, "acc3": 0.84},
               micro={"acc1": 0.71, "acc3": 0.85}),
        _entry("fill_mask_word", "lat", 0.25, components={"acc1": 0.2, "acc3": 0.3},
               micro={"acc1": 0.21, "acc3": 0.31}),
        _entry("fill_mask_char", "lat", 0.55, components={"acc1": 0.5, "acc3": 0.6},
               micro={"acc1": 0.52, "acc3": 0.61}),
        _entry("pos_tagging", "grc", 0.0, status="missing", sentences=0, scored_sentences=0, items=0,
               zeroed_sentences=0, details=None, components={"acc": 0.0, "f1": 0.0}),
        dict(_entry("morph_features", "grc", 0.0, status="unreadable"), file=HOSTILE_FILE),
        _entry("lemmatisation", "grc", 0.6, components={"acc1": 0.5, "acc3": 0.7}, micro={"acc1": 0.55}),
        _entry("fill_mask_word", "sga", 0.1, components={"acc1": 0.05, "acc3": 0.15}),
        _entry("fill_mask_char", "sga", 0.2, components={"acc1": 0.15, "acc3": 0.25}),
    ]
    del entries[-1]["details"]
    scores = {"avg_score": 0.4605, "avg_pos": 0.45, "avg_full_morph": 0.405, "avg_lemma": 0.685,
              "avg_fill_mask_word": 0.175, "avg_fill_mask_char": 0.375, "lat_avg_score": 0.656,
              "grc_avg_score": 0.2, "sga_avg_score": 0.15, "lat_pos": 0.9, "lat_pos_acc": 0.93}
    messages = [
        {"file": "pos_tagging/grc.json", "severity": "error", "where": "", "text": "file not found"},
        {"file": HOSTILE_FILE, "severity": "error", "where": "line 1, column 2", "text": HOSTILE_TEXT},
        {"file": "lemmatisation/grc.json", "severity": "warning", "where": "sentence 3, token <2>",
         "text": "4 candidates; only the first 3 count"},
        {"file": "lemmatisation/grc.json", "severity": "<b>bold</b>", "where": None,
         "text": "link: \"><a href=\"https://evil.example/\">click</a>"},
        {"file": "", "severity": "info", "where": "", "text": "unknown folder ignored: res/metadata"},
    ]
    return {"competition": "st2024", "title": "ST2024 <dev> & \"friends\"",
            "signature": "st2024|metrics:st2024-metrics-2|ref:sha256:0123abcd|evalkit:1.0.0",
            "scores": scores, "tasks": TASKS,
            "languages": [{"code": "lat", "name": "Classical and Late Latin"},
                          {"code": "grc", "name": "Ancient Greek <script>"},
                          {"code": "sga", "name": "Old Irish"}],
            "entries": entries, "messages": messages}


def big_report(n_messages=5000):
    """16 languages x 5 tasks with many tags and features, and thousands of messages."""
    codes = ["l%02d" % i for i in range(16)]
    tags = dict(("T%d" % i, {"tp": i * 10, "fp": i, "fn": 2}) for i in range(300))
    feats = dict(("F%d" % i, {"correct": i, "total": i + 3, "spurious": 1}) for i in range(50))
    entries, scores = [], {"avg_score": 0.5}
    for code in codes:
        scores[code + "_avg_score"] = 0.5
        for task in TASKS:
            details = {"per_tag": tags} if task["kind"] == "tagging" else {"per_feature": feats}
            entries.append(_entry(task["folder"], code, 0.5, details=details,
                                  components=dict((c, 0.5) for c in task["components"]), micro={"acc": 0.5}))
    messages = [{"file": "pos_tagging/l%02d.json" % (i % 4), "severity": "warning", "where": "sentence %d" % i,
                 "text": "form differs <%d>" % i} for i in range(n_messages)]
    return {"title": "big", "signature": "sig", "scores": scores, "tasks": TASKS,
            "languages": [{"code": c, "name": "Language " + c} for c in codes], "entries": entries,
            "messages": messages}


def parse(page):
    """Parse ``page`` with ``html.parser`` and return the parser (asserting a well-nested document)."""
    parser = NestingParser()
    parser.feed(page)
    parser.close()
    assert parser.errors == []
    assert parser.stack == []
    return parser


def rows_of(page, first_cell):
    """The ``<tr>`` rows of ``page`` whose first cell text is ``first_cell`` (an HTML fragment)."""
    return re.findall(r"<tr><td>%s</td>.*?</tr>" % re.escape(first_cell), page)


# --------------------------------------------------------------------------- content and escaping

def test_escapes_every_participant_string():
    page = report_html.render(make_report())
    assert "<script" not in page.lower()
    assert "<img" not in page.lower()
    assert "<b>Case" not in page and "<b>bold" not in page and "<a href=\"https" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page                    # the hostile tag, as text
    assert "&quot;&amp;&#x27;&lt;b&gt;Case&lt;/b&gt;" in page                  # the hostile feature
    assert "pos_tagging/&lt;img src=x onerror=alert(1)&gt;.json" in page      # the hostile file name
    assert "expected &quot;a&quot; &amp; &#x27;b&#x27; &lt;script&gt;" in page  # the hostile message
    assert "Ancient Greek &lt;script&gt;" in page
    assert "<title>ST2024 &lt;dev&gt; &amp; &quot;friends&quot;</title>" in page
    text = "".join(parse(page).text)
    assert HOSTILE_TAG in text and HOSTILE_TEXT in text and HOSTILE_FEATURE in text


def test_no_script_and_no_external_resources():
    parser = parse(report_html.render(make_report()))
    assert not set(parser.tags) & {"script", "link", "img", "iframe", "object", "embed", "image", "use", "base"}
    for tag, name, value in parser.attrs:
        assert not name.startswith("on"), (tag, name)
        assert name not in ("src", "srcset", "xlink:href", "action", "formaction"), (tag, name)
        if name == "href":
            assert value.startswith("#"), value
        if name == "style":
            assert "url(" not in value
    page = report_html.render(make_report())
    style = page[page.index("<style>"):page.index("</style>")]
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    clean = report_html.render(big_report(10))
    assert "http://" not in clean and "https://" not in clean


def test_structure():
    page = report_html.render(make_report())
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page
    parser = parse(page)
    assert parser.tags.count("table") >= 10
    assert "svg" in parser.tags and "details" in parser.tags
    for anchor in ("overview", "matrix", "chart", "task-1", "task-5", "messages"):
        assert 'id="%s"' % anchor in page
    assert "st2024|metrics:st2024-metrics-2|ref:sha256:0123abcd|evalkit:1.0.0" in page
    ids = [value for _, name, value in parser.attrs if name == "id"]
    assert len(ids) == len(set(ids))
    for _, name, value in parser.attrs:                  # every in-page link has its target
        if name == "href":
            assert value[1:] in ids


def test_overall_matrix_and_chart():
    page = report_html.render(make_report())
    assert '<div class="big">0.4605</div>' in page
    assert "<code>avg_fill_mask_char</code></td><td class=\"num\">0.3750</td>" in page
    lat = rows_of(page, 'lat <span class="meta">Classical and Late Latin</span>')[0]
    assert re.findall(r'<td class="num">([0-9.]+)', lat) == ["0.9000", "0.8100", "0.7700", "0.2500", "0.5500", "0.6560"]
    sga = [row for row in rows_of(page, 'sga <span class="meta">Old Irish</span>') if "0.1500" in row][0]
    assert sga.count('<td class="na">&ndash;</td>') == 3                     # pairs that are not scored
    grc = rows_of(page, 'grc <span class="meta">Ancient Greek &lt;script&gt;</span>')[0]
    assert "&#9888; missing" in grc and "&#9888; unreadable" in grc         # visible marker
    assert re.search(r'<svg role="img"[^>]*>.*</svg>', page, re.S)
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert svg.count("<rect") == 3
    assert "lat \u00b7 Classical and Late Latin" in svg and "0.6560" in svg
    assert "Ancient Greek &lt;script&gt;" in svg


def test_per_tag_precision_recall_f1():
    page = report_html.render(make_report())
    noun = rows_of(page, "NOUN")[0]
    assert re.findall(r'<td class="num">([0-9.]+)</td>', noun) == [
        "8", "2", "0", "8", "0.8000", "1.0000", "0.8889"]
    verb = rows_of(page, "VERB")[0]
    assert re.findall(r'<td class="num">([0-9.]+)</td>', verb)[4:] == ["0.8333", "0.6250", "0.7143"]
    only_gold = rows_of(page, "X")[0]                     # tp+fp = 0: precision defined as 0
    assert re.findall(r'<td class="num">([0-9.]+)</td>', only_gold)[4:] == ["0.0000", "0.0000", "0.0000"]
    assert "defined as 0 when its denominator is 0" in page
    assert page.index(">NOUN<") < page.index(">VERB<") < page.index(">X<")  # most frequent gold tag first
    macro = re.search(r"macro average \(4 tags\)</td><td colspan=\"4\"></td>(.*?)</tr>", page).group(1)
    assert re.findall(r"[0-9.]+", macro) == ["0.4083", "0.4062", "0.4008"]  # (0.8 + 5/6 + 0 + 0) / 4, ...


def test_per_feature_and_candidates():
    page = report_html.render(make_report())
    case = rows_of(page, "Case")[0]
    assert re.findall(r'<td class="num">([0-9.]+)</td>', case) == ["3", "4", "0.7500", "1"]
    spurious_only = rows_of(page, "&quot;&amp;&#x27;&lt;b&gt;Case&lt;/b&gt;")[0]
    assert re.findall(r'<td class="num">([0-9.]+)</td>', spurious_only) == ["0", "0", "0.0000", "5"]
    assert "acc@1" in page and "acc@3" in page
    assert "Official (sentence-averaged)" in page and "Corpus-level (token-micro)" in page
    # lemmatisation, lat: official acc@1/acc@3 beside the corpus-level ones, then the counts
    lemma = page[page.index('id="task-3"'):page.index('id="task-4"')]
    lat = rows_of(lemma, 'lat <span class="meta">Classical and Late Latin</span>')[0]
    assert re.findall(r'<td class="num">([0-9.]+)</td>', lat) == [
        "0.7700", "0.7000", "0.8400", "0.7100", "0.8500", "120", "118", "1530", "2"]
    assert "<tr><td>acc@1</td><td class=\"num\">0.7000</td><td class=\"num\">0.7100</td></tr>" in lemma
    # grc has no micro acc@3: shown as n/a
    grc = rows_of(lemma, 'grc <span class="meta">Ancient Greek &lt;script&gt;</span>')[0]
    assert '<td class="na">n/a</td>' in grc


def test_messages_grouped_with_counts():
    page = report_html.render(make_report())
    section = page[page.index('id="messages"'):]
    assert "5 message(s): 2 error(s), 1 warning(s), 1 info." in section
    assert "<code>lemmatisation/grc.json</code>: 0 error(s), 1 warning(s), 0 info" in section
    assert "(general)" in section and "unknown folder ignored: res/metadata" in section
    assert "sentence 3, token &lt;2&gt;" in section
    assert '<span class="sev sev-other">&lt;b&gt;bold&lt;/b&gt;</span>' in section
    # the matrix marker of the missing file links to its messages
    assert re.search(r'<a href="#(messages-\d+)">&#9888; missing</a>', page)


def test_messages_capped_per_file():
    report = make_report()
    report["messages"] = [{"file": "a.json", "severity": "warning", "where": "sentence %d" % i, "text": "m%d" % i}
                          for i in range(250)] + [{"file": "b.json", "severity": "error", "where": "", "text": "x"}]
    page = report_html.render(report)
    assert page.count("<span class=\"sev sev-warning\">") == report_html.MAX_MESSAGES_PER_FILE
    assert "50 more messages for this file are not shown." in page
    assert ">m199<" in page and ">m200<" not in page
    assert "251 message(s): 1 error(s), 250 warning(s), 0 info." in page


def test_detail_rows_capped():
    report = make_report()
    report["entries"][0]["details"]["per_tag"] = dict(("T%d" % i, {"tp": 1, "fp": 0, "fn": 0}) for i in range(450))
    page = report_html.render(report)
    assert "250 more tags not shown." in page
    assert "macro average (450 tags)" in page


# --------------------------------------------------------------------------- robustness

@pytest.mark.parametrize("report", [
    {},
    {"competition": "st2024", "title": "", "signature": "", "scores": {}, "tasks": [], "languages": [],
     "entries": [], "messages": []},
    {"scores": {"avg_score": 0.0}, "tasks": TASKS, "languages": [{"code": "lat", "name": "Latin"}],
     "entries": [], "messages": []},
    {"tasks": TASKS[:1], "languages": [], "entries": [{"task": "pos_tagging", "lang": "lat"}], "messages": []},
    {"entries": [{"task": "odd_task", "lang": "xx", "status": "missing", "score": None, "details": {},
                  "components": None, "micro": {}}],
     "messages": [{"file": None, "severity": None, "where": None, "text": None}]},
    {"scores": {"avg_score": float("nan"), "x_avg_score": 7.0}, "languages": [{"code": "x", "name": None}],
     "tasks": [{"folder": "pos_tagging"}], "entries": [
         {"task": "pos_tagging", "lang": "x", "status": "scored", "score": -0.5,
          "details": {"per_tag": {"A": {}, "B": {"tp": "3", "fp": None}}, "per_feature": []}}]},
])
def test_sparse_reports_render(report):
    page = report_html.render(report)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    parse(page)


def test_empty_report_says_so():
    page = report_html.render({"scores": {}, "tasks": [], "languages": [], "entries": [], "messages": []})
    assert "No messages." in page and "No language averages." in page
    assert '<div class="big">n/a</div>' in page


def test_input_is_not_modified_and_output_is_deterministic():
    report = make_report()
    before = copy.deepcopy(report)
    assert report_html.render(report) == report_html.render(report)
    assert report == before


def test_big_report_is_fast():
    report = big_report()
    start = time.perf_counter()
    page = report_html.render(report)
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0, elapsed
    assert page.count('<span class="sev sev-warning">') == 4 * report_html.MAX_MESSAGES_PER_FILE
    assert "1050 more messages for this file are not shown." in page
    assert len(page) < 8 * 1024 * 1024
    parse(page)


def test_python37_syntax():
    path = report_html.__file__
    with open(path, encoding="utf-8") as handle:
        ast.parse(handle.read(), filename=path, feature_version=(3, 7))


# --------------------------------------------------------------------------- headless Chromium

def _chromium():
    """Path of the Chromium binary, or skip (locally) / fail (in CI) when it is absent."""
    path = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if path:
        return path
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed, but CI is set: .ci/run must install Debian's chromium")
    pytest.skip("chromium is not installed (apt-get install chromium); the CI run installs it and fails without it")


def _run_chromium(binary, profile, args, timeout=120):
    """Run headless Chromium with ``args``; return (stdout, stderr). Kills its process group on timeout."""
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",  # page console lines on stderr
           "--user-data-dir=" + profile] + args
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("chromium did not finish within %d s: %s" % (timeout, " ".join(args)))
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _page_errors(stderr, page_name):
    """Lines of Chromium's stderr that are about the page (console messages, uncaught errors)."""
    return [line for line in stderr.splitlines()
            if page_name in line or "Uncaught" in line or "CONSOLE" in line]


def _png_size(path):
    """(width, height) of a PNG file, checking its signature."""
    with open(path, "rb") as handle:
        head = handle.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_renders_in_headless_chromium():
    binary = _chromium()
    workdir = tempfile.mkdtemp(prefix="report_html_")
    try:
        page_path = os.path.join(workdir, "detailed_results.html")
        with open(page_path, "w", encoding="utf-8") as handle:
            handle.write(report_html.render(make_report()))
        url = "file://" + page_path
        dom, err = _run_chromium(binary, os.path.join(workdir, "profile-dom"), ["--dump-dom", url])
        assert _page_errors(err, "detailed_results.html") == []
        assert dom.count("<table") >= 10 and "<svg" in dom and "<details" in dom
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<script" not in dom
        assert "Classical and Late Latin" in dom and "0.4605" in dom
        shot = os.path.join(os.environ.get("REPORT_HTML_SCREENSHOT_DIR", workdir), "detailed_results.png")
        _, err = _run_chromium(binary, os.path.join(workdir, "profile-shot"),
                               ["--hide-scrollbars", "--window-size=1280,2400", "--screenshot=" + shot, url])
        assert _page_errors(err, "detailed_results.html") == []
        assert os.path.getsize(shot) > 30000                  # a blank page of this size is a few KB
        assert _png_size(shot) == (1280, 2400)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def test_missing_chromium_skips_locally_and_fails_in_ci(monkeypatch):
    exists = os.path.exists
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(os.path, "exists", lambda path: False if path == "/usr/bin/chromium" else exists(path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        _chromium()
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception):
        _chromium()


def test_console_error_detection_is_not_vacuous():
    """The stderr filter does catch a page error (so an empty list above means something)."""
    binary = _chromium()
    workdir = tempfile.mkdtemp(prefix="report_html_")
    try:
        page_path = os.path.join(workdir, "broken_page.html")
        with open(page_path, "w", encoding="utf-8") as handle:
            handle.write("<!DOCTYPE html><title>t</title><p>x</p><script>throw new Error('boom')</script>")
        _, err = _run_chromium(binary, os.path.join(workdir, "profile"), ["--dump-dom", "file://" + page_path])
        assert any("Uncaught" in line for line in _page_errors(err, "broken_page.html"))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def test_a_competition_unit_and_official_wording_name_the_counts_and_no_empty_corpus_column():
    """REPORT_NOTES' ``unit`` and ``official`` reach the counts and the comparison table; a kind without corpus-level
    values gets no column of n/a; the wording is escaped like everything else."""
    report = make_report()
    for entry in report["entries"]:
        entry["micro"] = {}
    report["notes"] = {"unit": "documents<b>", "official": "Official (pooled <i>)"}
    page = report_html.render(report)
    assert "scored documents&lt;b&gt;" in page and "documents&lt;b&gt;: 120" in page
    assert "scored sentences" not in page and "documents<b>" not in page
    assert "Official (pooled &lt;i&gt;)" in page and "<i>" not in page
    assert "Corpus-level (over all items)" not in page
    default = report_html.render(make_report())
    assert "scored sentences" in default and "Corpus-level (over all items)" in default
