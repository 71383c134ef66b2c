"""detailed_results.html as a participant reads it (issue 9, point 8): no overflow at 1400 px with flags
shown (headless Chromium), the baseline beside the participant's scores, feature-less tokens explained in
morphology, and no internal words."""
import os
import re
import shutil
import tempfile

from evalkit import report_html
from test_report_html import TASKS, _chromium, _entry, _page_errors, _run_chromium, make_report, parse

import st2024

STATUSES = ("sentence_count_mismatch", "unreadable", "missing")
#: Measures, after load, every horizontally scrolling wrapper whose content is wider than itself.
PROBE = ("<script>window.addEventListener('load',function(){var out=[];"
         "document.querySelectorAll('.scroll').forEach(function(e,i){if(e.scrollWidth>e.clientWidth+1)"
         "out.push((e.closest('section')||{}).id+':'+e.scrollWidth+'>'+e.clientWidth)});"
         "var p=document.createElement('pre');p.id='probe';p.textContent='OVERFLOW['+out.join(',')+']';"
         "document.body.appendChild(p);});</script>")


def flagged_report(baseline=True):
    """16 languages with their real names x 5 tasks, every third entry flagged, with a baseline."""
    entries, scores = [], {"avg_score": 0.4123}
    for i, lang in enumerate(st2024.LANGUAGES):
        scores[lang + "_avg_score"] = 0.3 + i / 50.0
        for j, task in enumerate(TASKS):
            status = STATUSES[(i + j) % 3] if (i + j) % 2 == 0 else "scored"
            entries.append(_entry(task["folder"], lang, 0.0 if status != "scored" else 0.5, status=status,
                                  components=dict((c, 0.5) for c in task["components"]), micro={"acc1": 0.5}))
            scores["%s_%s" % (lang, task["key"])] = 0.5
    for task in TASKS:
        scores["avg_" + task["key"]] = 0.45
    report = {"competition": "st2024", "title": st2024.TITLE, "signature": "st2024|sig", "scores": scores,
              "tasks": TASKS, "entries": entries, "messages": [],
              "languages": [{"code": code, "name": facts[0]} for code, facts in st2024.LANGUAGES.items()]}
    if baseline:
        report["baseline"] = {"label": "baseline", "scores": dict((key, value / 2) for key, value in scores.items())}
    return report


def overflow_at(page, width):
    """The scrolling wrappers wider than their content box at a window ``width`` px wide (Chromium)."""
    binary = _chromium()
    workdir = tempfile.mkdtemp(prefix="report_width_")
    try:
        path = os.path.join(workdir, "detailed_results.html")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page.replace("</body>", PROBE + "</body>"))
        dom, err = _run_chromium(binary, os.path.join(workdir, "profile"),
                                 ["--window-size=%d,1000" % width, "--virtual-time-budget=3000", "--dump-dom",
                                  "file://" + path])
        assert _page_errors(err, "detailed_results.html") == []
        found = re.search(r'<pre id="probe">OVERFLOW\[(.*?)\]</pre>', dom)
        assert found, dom[-500:]
        return [item for item in found.group(1).split(",") if item]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def test_languages_by_tasks_table_fits_1400_px_with_flags_and_baseline():
    page = report_html.render(flagged_report())
    assert page.count('class="flag"') >= 40
    overflowing = overflow_at(page, 1400)
    assert not [item for item in overflowing if item.startswith(("matrix:", "overview:", "chart:"))], overflowing


def test_overflow_probe_is_not_vacuous():
    """The same probe does report a table that is wider than the window."""
    page = report_html.render(flagged_report())
    assert [item for item in overflow_at(page, 500) if item.startswith("matrix:")]


def test_baseline_is_shown_beside_the_scores():
    page = report_html.render(flagged_report())
    parse(page)
    assert "<th class=\"num\">Baseline average</th>" in page and "<th class=\"num\">Baseline</th>" in page
    assert '<td class="num base">%.4f</td>' % (0.4123 / 2) in page     # the baseline's avg_score
    assert 'stroke="#1d232b" stroke-width="3"><title>baseline: ' in page   # ticks in the chart
    assert "the scores of the baseline (the starting kit&#x27;s make_submission.py" in page or \
        "the scores of the baseline (the starting kit's make_submission.py" in page
    plain = report_html.render(flagged_report(baseline=False))
    assert "Baseline" not in plain and "baseline:" not in plain


def test_morphology_explains_feature_less_tokens():
    page = report_html.render(make_report())
    assert page.count(report_html.MORPH_NOTE) == 1 + 2          # task note, then each language's details
    assert "feature accuracy" in report_html.MORPH_NOTE and "scores 1" in report_html.MORPH_NOTE


def test_no_internal_words():
    report = flagged_report()
    report["messages"] = [{"file": "pos_tagging/lat.json", "severity": "error", "where": "whole file",
                           "text": "the file has 1 sentence, the reference has 2"}]
    page = report_html.render(report)
    for word in ("kind <code>", "kind candidates", "kind fill_mask", "kind tagging", ">$<", "sentence_count_mismatch<"):
        assert word not in page, word
    assert "&#9888; wrong sentence count" in page
