"""The pages and phase descriptions of the built bundles, rendered through each platform's real sanitiser
(DOMPurify for legacy CodaLab, marked for Codabench; see tests/browser/platforms.py) in headless Chromium:
what a reader sees there is what a reader sees locally."""
import os
import re
import sys

import pytest

from conftest import ROOT, SHARED, build_competition
import st2024
from organiser import pages
from competitions.st2024 import baselines
from test_bundle import build_tree, write
from test_pages import fake_detailed_results

sys.path.insert(0, os.path.join(ROOT, "tests", "browser"))
import platforms  # noqa: E402

NUMBER = re.compile(r"^[\d,.]+(?: / [\d,.]+)?[\u2020*]?$")


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """``{bundle name: (pages, phase descriptions)}`` of every bundle built from the fake release, with
    per-subtask baseline tables and a bibliography."""
    from organiser import bundle
    base = tmp_path_factory.mktemp("browser")
    argv = build_tree(base, phases=("dev", "test"))
    out = argv[argv.index("--out") + 1]
    data = argv[argv.index("--data") + 1]
    scores = dict(((system, subtask), fake_detailed_results(subtask, 0.5 if system == "baseline" else 0.0))
                  for system in baselines.SYSTEMS for subtask in st2024.SUBTASKS)
    baselines.write_table(out, scores, data, [("morphology", "cop")])
    bib = os.path.join(SHARED, "bibliography.bib")
    if os.path.isfile(bib):
        with open(bib, encoding="utf-8") as handle:
            write(os.path.join(data, "bibliography.bib"), handle.read())
    else:
        write(os.path.join(data, "bibliography.bib"),
              "@misc{x2024,\n  title = {{An \\emph{invented} entry} <lang> & co},\n  author = {Doe, Jane},\n}\n")
    assert bundle.main(argv) == 0
    result = {}
    for name in sorted(os.listdir(os.path.join(out, "bundles"))):  # every bundle the build writes
        if name.endswith(".zip"):
            with open(os.path.join(out, "bundles", name), "rb") as handle:
                result[name[:-len(".zip")]] = platforms.bundle_contents(handle.read())
    assert set("st2024-%s" % subtask for subtask in st2024.SUBTASKS) <= set(result)
    result.update(competition_bundles(base))
    return result


def competition_bundles(base):
    """``{bundle name: (pages, phase descriptions)}`` of every bundle of each further competition
    (``competitions/<id>/``), built from its embedded sample as ``make`` builds it."""
    from organiser import declarations
    result = {}
    further = [cid for cid in declarations.hosted_ids() if cid != declarations.top_level_id()]
    assert {"lince", "scate", "spanglisheval"} <= set(further)
    for cid in further:
        _, dist = build_competition(cid, os.path.join(str(base), cid))
        folder = os.path.join(dist, "bundles")
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as handle:
                result[name[:-len(".zip")]] = platforms.bundle_contents(handle.read())
    assert {"lince", "lince-codabench", "scate", "spanglisheval-codabench"} <= set(result)
    return result


@pytest.fixture(scope="module")
def measured(bundles):
    """``{(bundle, kind, name, platform): measures}`` for every page and phase description."""
    try:
        platforms.chromium()
    except platforms.BrowserUnavailable as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(str(error))
    items = []
    for bundle, (page_texts, descriptions) in bundles.items():
        for member, text in page_texts.items():
            items += [(p, "page", "%s|page|%s|%s" % (bundle, member, p), text) for p in platforms.PLATFORMS]
        for label, text in descriptions.items():
            items += [(p, "description", "%s|description|%s|%s" % (bundle, label, p), text)
                      for p in ("legacy", "codabench")]
    found = platforms.measure(items)
    return dict((tuple(key.split("|")), value) for key, value in found.items())


def renders(measured, kind):
    """``{(bundle, name): {platform: measures}}`` of one kind."""
    grouped = {}
    for (bundle, found_kind, name, platform), value in measured.items():
        if found_kind == kind:
            grouped.setdefault((bundle, name), {})[platform] = value
    return grouped


def test_every_page_and_description_is_rendered(bundles, measured):
    pages_seen = renders(measured, "page")
    assert len(pages_seen) == sum(len(p) for p, _ in bundles.values()) >= 10
    assert all(set(v) == set(platforms.PLATFORMS) for v in pages_seen.values())
    labels = set(name for (_, name) in renders(measured, "description"))
    assert "Phase 2: embeddings" in labels and len(labels) >= 3


def test_nothing_in_the_bundles_is_taken_for_a_code_block_or_latex_by_codabench(bundles):
    for bundle, (page_texts, descriptions) in bundles.items():
        for name, text in list(page_texts.items()) + list(descriptions.items()):
            platforms.assert_markdown_neutral("%s %s" % (bundle, name), text)


def test_pages_read_the_same_on_every_platform(measured):
    for (bundle, name), by_platform in renders(measured, "page").items():
        local = by_platform["local"]
        assert local["text"] and local["styleElements"] == 0, (bundle, name)
        for platform in ("legacy", "codabench"):
            seen = by_platform[platform]
            assert seen["text"] == local["text"], (bundle, name, platform, first_difference(local, seen))
            assert seen["links"] == local["links"] and seen["pre"] == local["pre"], (bundle, name, platform)


def first_difference(local, seen):
    """The text around the first character where two renderings differ (for failure messages)."""
    a, b = local["text"], seen["text"]
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return a[max(0, index - 60):index + 60], b[max(0, index - 60):index + 60]


def test_every_lang_placeholder_is_visible_everywhere(bundles, measured):
    for (bundle, name), by_platform in renders(measured, "page").items():
        expected = bundles[bundle][0][name].count("&lt;lang&gt;")
        for platform, seen in by_platform.items():
            assert seen["text"].count("<lang>") == expected, (bundle, name, platform)
    assert any(page["text"].count("<lang>") > 5 for page in measured.values())


def test_tables_keep_their_borders_alignment_and_unwrapped_numbers(measured):
    tables = 0
    for (bundle, name), by_platform in renders(measured, "page").items():
        local = by_platform["local"]
        for platform, seen in by_platform.items():
            assert len(seen["tables"]) == len(local["tables"]), (bundle, name, platform)
            for table, local_table in zip(seen["tables"], local["tables"]):
                tables += 1
                assert len(table) == len(local_table), (bundle, name, platform)
                for cell, local_cell in zip(table, local_table):
                    where = (bundle, name, platform, cell["text"][:40])
                    assert all(float(w[:-2]) >= 1 for w in cell["borders"]), where
                    assert "none" not in cell["styles"] and "hidden" not in cell["styles"], where
                    assert cell["align"] == local_cell["align"], where
                    if table[0]["text"] == "Language" and NUMBER.match(cell["text"]) and cell["tag"] == "td":
                        assert cell["align"] == "right" and cell["lines"] == 1, where
    assert tables >= 20


def test_baseline_cells_do_not_wrap(measured):
    for (bundle, name), by_platform in renders(measured, "page").items():
        if name != "evaluation.html" or not bundle.startswith("st2024-"):
            continue  # the further competitions' pages carry no baseline table
        for platform, seen in by_platform.items():
            baseline = [t for t in seen["tables"] if t and t[0]["text"] == "Language"]
            assert baseline, (bundle, platform)
            cells = [c for c in baseline[-1] if "/" in c["text"]]
            assert cells and all(c["lines"] == 1 for c in cells), (bundle, platform)


def test_phase_descriptions_read_the_same_on_both_platforms(bundles, measured):
    for (bundle, label), by_platform in renders(measured, "description").items():
        raw = " ".join(bundles[bundle][1][label].split())
        assert by_platform["legacy"]["text"] == raw, (bundle, label)
        assert by_platform["codabench"]["text"] == raw, (bundle, label, by_platform["codabench"]["text"])


def test_competition_pages_are_rendered_and_say_what_the_data_is_for(bundles, measured):
    seen = renders(measured, "page")
    for bundle in ("lince", "lince-codabench"):
        names = set(name for (b, name) in seen if b == bundle)
        assert {"overview.html", "data.html", "evaluation.html", "timeline.html"} <= names, (bundle, names)
        overview = seen[(bundle, "overview.html")]
        for platform, page in overview.items():
            assert "for building and testing the competition kit" in page["text"], (bundle, platform)
            assert "LID SPA-ENG" not in page["text"] and "lid_spa_eng.txt" in page["text"], (bundle, platform)
        timeline = seen[(bundle, "timeline.html")]["codabench"]["text"]
        assert "the organiser's to set" in timeline
