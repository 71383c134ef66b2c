"""SpanglishEval as a hosted competition: the scorer's choice kind through the command line (golden files on the
embedded sample), scores equal to an independent computation with jiwer, the bundle built and checked (both
workers score every phase), the starting kit run from its zip, hostile uploads answered with messages."""
import io
import json
import os
import random
import re
import subprocess
import sys
import zipfile
from html import unescape

import pytest
import yaml

from conftest import ROOT, build_competition, load_by_path
from test_choice import make_submission, oracle

jiwer = pytest.importorskip("jiwer")

SPAN_DIR = os.path.join(ROOT, "competitions", "spanglisheval")
SAMPLE = os.path.join(SPAN_DIR, "sample_data")
EVALUATE = os.path.join(SPAN_DIR, "evaluate.py")
GOLDEN = os.path.join(ROOT, "tests", "golden", "spanglisheval")
sys.path.insert(0, SPAN_DIR)

import spanglisheval  # noqa: E402
from evalkit import scoring  # noqa: E402

baselines = load_by_path("spanglisheval_baselines_for_tests", os.path.join(SPAN_DIR, "baselines.py"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(root, phases): the sample's reference (with the sample's hidden test gold), baselines and both bundles,
    built as `make` builds them."""
    root = tmp_path_factory.mktemp("spanglisheval")
    build_competition("spanglisheval", root)
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "spanglisheval.zip")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
    return root, [competition["phases"][n]["label"] for n in sorted(competition["phases"])]


def read_sets(path):
    with io.open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_phase_sets(ref, phase):
    """The sets of a phase's reference with their gold: the test phase's split into its public part (``ref/test``)
    and its private part (``ref/private/test``, docs/test_feedback.md) joined again."""
    sets = read_sets(os.path.join(str(ref), phase, "reference.jsonl"))
    private = os.path.join(str(ref), "private", phase, "reference.jsonl")
    if os.path.isfile(private):
        kept = read_sets(private)
        assert len(kept) == len(sets)
        sets = [shown if shown["gold"] is not None else kept[i] for i, shown in enumerate(sets)]
    return sets


def write_zip(path, members):
    with zipfile.ZipFile(str(path), "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return str(path)


def run(args, cwd=None):
    proc = subprocess.run([sys.executable] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def golden_submission(sets):
    """Every rule in turn: the gold's index, a wrong index, a 2-way tie with the gold, all tied, the wrong number
    of scores, a score that is text, an index out of range, a missing set; plus an unknown id."""
    submission = {}
    for number, entry in enumerate(sets):
        size, gold, rule = len(entry["sentences"]), entry["gold"], number % 8
        scores = [-float(i) for i in range(size)]
        if rule == 0:
            submission[entry["id"]] = gold
        elif rule == 1:
            submission[entry["id"]] = (gold + 1) % size
        elif rule == 2:
            submission[entry["id"]] = [10.0 if i in (gold, (gold + 3) % size) else s for i, s in enumerate(scores)]
        elif rule == 3:
            submission[entry["id"]] = [0] * size
        elif rule == 4:
            submission[entry["id"]] = scores[:-2]
        elif rule == 5:
            submission[entry["id"]] = scores[:-1] + ["<b>high</b>"]
        elif rule == 6:
            submission[entry["id"]] = size
    submission["dev-9999"] = 0
    return submission


def test_golden_files_of_the_command_line_on_the_sample(built, tmp_path):
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    sub = write_zip(tmp_path / "sub.zip", {"predictions.json": json.dumps(golden_submission(sets))})
    status, stdout, stderr = run([EVALUATE, "--ref", str(root / "ref" / "dev"), "--submission", sub,
                                  "--out", str(tmp_path / "out")])
    assert status == 0, stderr
    with io.open(str(tmp_path / "out" / "scores.txt"), encoding="utf-8") as handle:
        scores = handle.read()
    report = json.load(io.open(str(tmp_path / "out" / "detailed_results.json"), encoding="utf-8"))
    messages = "".join("%s | %s | %s | %s\n" % (m["severity"], m["file"], m["where"], m["text"])
                       for m in report["messages"])
    if os.environ.get("REGENERATE_GOLDEN"):
        io.open(os.path.join(GOLDEN, "expected_scores.txt"), "w", encoding="utf-8").write(scores)
        io.open(os.path.join(GOLDEN, "expected_messages.txt"), "w", encoding="utf-8").write(messages)
    assert scores == io.open(os.path.join(GOLDEN, "expected_scores.txt"), encoding="utf-8").read()
    assert messages == io.open(os.path.join(GOLDEN, "expected_messages.txt"), encoding="utf-8").read()
    assert "signature: spanglisheval|metrics:spanglisheval-metrics-1|ties:split" in stdout


def test_the_golden_scores_are_the_rules_worked_out_independently(built, tmp_path):
    """The numbers of the golden file, recomputed from the rules (jiwer for the WER), not from the scorer."""
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    submission = golden_submission(sets)
    credits, hyps, refs, removed = {"cs": [], "mono": []}, [], [], 0
    for number, entry in enumerate(sets):
        rule, gold = number % 8, entry["sentences"][entry["gold"]]
        group = "cs" if entry["gold_type"] == "cs" else "mono"
        credit = {0: 1.0, 1: 0.0, 2: 0.5, 3: 1.0 / len(entry["sentences"])}.get(rule, 0.0)
        credits[group].append(credit)
        if rule in (0, 1):
            refs.append(gold)
            hyps.append(entry["sentences"][submission[entry["id"]]])
    everything = credits["cs"] + credits["mono"]
    report = scoring.evaluate(spanglisheval, str(root / "ref" / "dev"),
                              write_zip(tmp_path / "s.zip", {"predictions.json": json.dumps(submission)}))
    components = report["entries"][0]["components"]
    assert components["accuracy"] == pytest.approx(sum(everything) / len(everything))
    assert components["accuracy_cs"] == pytest.approx(sum(credits["cs"]) / len(credits["cs"]))
    assert components["accuracy_mono"] == pytest.approx(sum(credits["mono"]) / len(credits["mono"]))
    # rules 0 and 1 through jiwer's corpus WER; the ties and malformed sets added by hand
    words = sum(len(e["sentences"][e["gold"]].split()) for e in sets)
    pooled = jiwer.process_words(refs, hyps)
    edits = pooled.substitutions + pooled.deletions + pooled.insertions
    for number, entry in enumerate(sets):
        rule, gold = number % 8, entry["sentences"][entry["gold"]]
        if rule == 2:
            other = entry["sentences"][(entry["gold"] + 3) % len(entry["sentences"])]
            edits += 0.5 * jiwer.wer(gold, other) * len(gold.split())
        elif rule == 3:
            edits += sum(jiwer.wer(gold, s) * len(gold.split()) for s in entry["sentences"]) / len(entry["sentences"])
        elif rule >= 4:
            edits += len(gold.split())
    assert components["wer"] == pytest.approx(edits / words)
    assert report["scores"]["avg_score"] == components["accuracy"]


@pytest.mark.parametrize("seed", range(3))
def test_generated_submissions_through_the_scorer_equal_the_oracle(built, tmp_path, seed):
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    submission, problems = make_submission(random.Random(seed), sets)
    text = json.dumps(submission)   # NaN written as Python's json writes it: a score that is not finite
    report = scoring.evaluate(spanglisheval, str(root / "ref" / "dev"),
                              write_zip(tmp_path / "s.zip", {"predictions.json": text}))
    expected = oracle(sets, submission, problems)
    components = report["entries"][0]["components"]
    for key, value in expected.items():
        assert components[key] == pytest.approx(value), key
    assert report["entries"][0]["zeroed_sentences"] == sum(1 for p in problems.values() if p)


def test_detailed_results_show_each_gold_type_and_wrong_sets_escaped(built, tmp_path):
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    sub = write_zip(tmp_path / "sub.zip", {"predictions.json": json.dumps(golden_submission(sets))})
    assert run([EVALUATE, "--ref", str(root / "ref" / "dev"), "--submission", sub, "--out", str(tmp_path / "o")])[0] == 0
    report = json.load(io.open(str(tmp_path / "o" / "detailed_results.json"), encoding="utf-8"))
    details = report["entries"][0]["details"]
    groups = dict((g["group"], g) for g in details["groups"])
    assert groups["cs"]["sets"] + groups["mono"]["sets"] == len(sets)
    assert groups["mono"]["sets"] == sum(groups[t]["sets"] for t in ("en", "sp") if t in groups)
    wrong = details["tables"][1]["rows"]
    assert wrong and all(row[2] < 1 for row in wrong) and details["wrong_sets"] >= len(wrong)
    html = io.open(str(tmp_path / "o" / "detailed_results.html"), encoding="utf-8").read()
    assert "Per gold type" in html and "Sets not won" in html and "<b>high</b>" not in html
    assert "&lt;b&gt;high&lt;/b&gt;" in html   # the participant's text, escaped in its message


def test_bundle_leaderboard_is_accuracy_then_each_group_and_wer_ascending(built):
    from organiser import bundle
    root, phases = built
    assert phases == ["Development", "Test"]
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "spanglisheval.zip")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
        kit = zipfile.ZipFile(io.BytesIO(archive.read("starting_kit.zip"))).namelist()
        pages = dict((name, archive.read(name).decode("utf-8")) for name in ("data.html", "evaluation.html"))
    columns = sorted(competition["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])
    assert [(k, c["sort"]) for k, c in columns] == [
        ("avg_score", "desc"), ("en_es_sets_accuracy_cs", "desc"), ("en_es_sets_accuracy_mono", "desc"),
        ("en_es_sets_wer", "asc")]
    assert "spanglisheval-starting-kit/data/dev/sets.jsonl" in kit
    assert "spanglisheval-starting-kit/data/dev/reference.jsonl" in kit
    assert not [n for n in kit if n.endswith("test/reference.jsonl")]   # the test gold stays the organiser's
    # The test input is written apart, released when the test phase opens: in no kit and no bundle.
    assert not [n for n in kit if "/test/" in n or "reference_data/test" in n]
    with zipfile.ZipFile(str(root / "dist" / "public_data" / "spanglisheval-test.zip")) as archive:
        assert archive.namelist() == ["test/sets.jsonl"]
    assert bundle.read_manifest(str(root / "dist"))["test_state"] == "real"
    assert "sets with a code-switched gold" in pages["data.html"] and "built from public" in pages["data.html"]
    assert "kneser_ney_3" in pages["evaluation.html"] and "57.9%" in pages["evaluation.html"]


@pytest.mark.parametrize("name", ["spanglisheval.zip", "spanglisheval-codabench.zip"])
def test_check_passes_and_both_workers_score_every_phase(built, name):
    from organiser import check, schedule as schedule_module
    root, _ = built
    schedule = schedule_module.load(os.path.join(SPAN_DIR, "schedule.yaml"))
    lines = []
    failures = check.check_one(str(root / "dist" / "bundles" / name), str(root / "dist" / "submissions"),
                               timeout=120, report=lines.append, schedule=schedule, decl="spanglisheval")
    # One note, no failure: the test input is attached when the test phase opens.
    assert [(f.rule, check.is_note(f)) for f in failures] == [("phase.test-input", True)]
    runs = [line for line in lines if line.strip().startswith("phase")]
    assert len(runs) == (2 if name.endswith("codabench.zip") else 4) and all(" ok " in line for line in runs)


def test_trivial_submission_of_the_check_is_one_index_per_set(built, tmp_path):
    from organiser import check
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "reference" / "spanglisheval-test.zip")) as archive:
        archive.extractall(str(tmp_path / "ref"))
    members = check.trivial_submission(str(tmp_path / "ref"), "spanglisheval")
    sets = read_sets(str(tmp_path / "ref" / "reference.jsonl"))
    assert json.loads(members["predictions.json"]) == dict((s["id"], 0) for s in sets)


def test_starting_kit_from_its_zip_makes_validates_and_scores(built, tmp_path):
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "starting_kit.zip")) as archive:
        archive.extractall(str(tmp_path))
    kit = str(tmp_path / "spanglisheval-starting-kit")
    train = os.path.join(SAMPLE, "bangor_raw", "bangor_train_gold")
    assert run(["make_submission.py", "--train", train, "--out", "dev.zip"], cwd=kit)[0] == 0
    status, stdout, _ = run(["validate.py", "dev.zip"], cwd=kit)
    assert status == 0 and "accuracy " in stdout and "0 errors" in stdout
    # The kit has no test input: validating for the test split says so, without a traceback.
    status, stdout, stderr = run(["validate.py", "dev.zip", "--split", "test"], cwd=kit)
    assert status == 2 and "data/test/sets.jsonl: no such file" in stderr and "Traceback" not in stdout + stderr
    # When the test phase opens, participants get the test input (the test phase's public data) into data/.
    with zipfile.ZipFile(str(root / "dist" / "public_data" / "spanglisheval-test.zip")) as archive:
        archive.extractall(os.path.join(kit, "data"))
    status, stdout, _ = run(["validate.py", "dev.zip", "--split", "test"], cwd=kit)   # dev ids on test: located
    assert status == 1 and "error: predictions.json, set test-0001: no answer: 40 of 40 sets" in stdout
    assert run(["make_submission.py", "--system", "constant", "--split", "test", "--out", "t.zip"], cwd=kit)[0] == 0
    status, stdout, _ = run(["validate.py", "t.zip", "--split", "test"], cwd=kit)
    assert status == 0 and "accuracy " not in stdout
    status, stdout, _ = run(["scoring_program/evaluate.py", "--ref", "data/dev", "--submission", "dev.zip", "--out", "s"],
                            cwd=kit)
    assert status == 0 and "overall score (avg_score)" in stdout


HOSTILE = [
    ("not JSON", {"predictions.json": "{'dev-0001': 1"}, 0, "line 1, column 2: invalid JSON"),
    ("a list", {"predictions.json": "[1, 2]"}, 0, "expected a JSON object {set id"),
    ("empty", {"predictions.json": ""}, 0, "the file is empty"),
    ("not UTF-8", {"predictions.json": b"{\"dev-0001\": \xff}"}, 0, "UTF-8"),
    ("too deep", {"predictions.json": "[" * 100000 + "]" * 100000}, 0, "nested far too deeply"),
    ("huge numbers", {"predictions.json": lambda sets: '{"dev-0001": [1e999%s]}' % (", 1" * (len(sets[0]["sentences"]) - 1))},
     0, "set dev-0001, sentence 0: a score that is not a finite number"),
    ("wrong name", {"prediction.json": "{}"}, 1, "predictions.json"),
    ("nested folder", {"sub/predictions.json": "{}"}, 0, "inside the folder 'sub/'"),
    ("html id", {"predictions.json": '{"<script>x</script>": 1}'}, 0, "not a set of this phase"),
]


@pytest.mark.parametrize("label,members,status,expected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_uploads_get_messages_never_a_traceback(built, tmp_path, label, members, status, expected):
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    sub = write_zip(tmp_path / "h.zip", dict((n, d(sets) if callable(d) else d) for n, d in members.items()))
    code, stdout, stderr = run([EVALUATE, "--ref", str(root / "ref" / "dev"), "--submission", sub,
                                "--out", str(tmp_path / "o")])
    assert code == status, stderr
    assert "Traceback" not in stdout + stderr and "Internal error" not in stderr
    if status == 0:
        report = json.load(io.open(str(tmp_path / "o" / "detailed_results.json"), encoding="utf-8"))
        assert expected in " ".join("%s, %s: %s" % (m["file"], m["where"], m["text"]) for m in report["messages"])
        html = io.open(str(tmp_path / "o" / "detailed_results.html"), encoding="utf-8").read()
        assert "<script>x" not in html
    else:
        assert "Nothing could be scored" in stderr and "expected names: %s" % expected in stderr


def test_kit_doctests_run():
    import doctest
    kit = os.path.join(SPAN_DIR, "starting_kit")
    sys.path.insert(0, kit)
    for name in ("spanglisheval_kit", "make_submission"):
        module = load_by_path("spanglisheval_kit_test_" + name, os.path.join(kit, name + ".py"))
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


def test_the_committed_sample_is_what_its_generator_writes(tmp_path):
    generate = load_by_path("spanglisheval_sample_generate", os.path.join(SAMPLE, "generate.py"))
    generate.generate(str(tmp_path))
    for folder, _, names in os.walk(str(tmp_path)):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as mine, open(os.path.join(SAMPLE, os.path.relpath(path, str(tmp_path))), "rb") as kept:
                assert mine.read() == kept.read(), name


@pytest.mark.parametrize("seed", range(3))
def test_the_per_set_statistics_sum_to_the_scores(built, seed):
    """What a bootstrap over sets resamples: the sums of the per-set statistics give the scorer's components."""
    from evalkit import choice
    root, _ = built
    sets = read_sets(str(root / "ref" / "dev" / "reference.jsonl"))
    submission, _ = make_submission(random.Random(seed), sets)
    answers, _ = choice.parse_submission(submission, sets)
    entry = choice.ChoiceKind().score(sets, answers, spanglisheval.TASKS[0])
    sums = dict((name, sum(values)) for name, values in entry.per_sentence.items())
    again = choice.ChoiceKind().from_sums(sums, len(sets), spanglisheval.TASKS[0])
    assert list(again) == list(entry.components) == list(spanglisheval.TASKS[0].components)
    for name, value in entry.components.items():
        assert again[name] == pytest.approx(value, abs=1e-12), name


def test_the_sample_fills_its_own_quotas_without_a_shortfall(built):
    """The sample's quotas.json sets what it can fill: every phase gets exactly its quotas, so `make` is quiet."""
    from competitions.spanglisheval import build as builder
    root, _ = built
    quotas = builder.data_quotas(SAMPLE)
    assert quotas == {"cs": 10, "mono": 30}
    for phase in ("dev", "test"):
        sets = read_phase_sets(root / "ref", phase)
        assert sum(s["gold_type"] == "cs" for s in sets) == quotas["cs"]
        assert sum(s["gold_type"] != "cs" for s in sets) == quotas["mono"]


@pytest.mark.parametrize("text, expected", [
    (None, {"cs": 250, "mono": 750}),
    ('{"cs": 3, "mono": 4}', {"cs": 3, "mono": 4}),
    ('{"cs": 3}', "positive integers"),
    ('{"cs": 0, "mono": 4}', "positive integers"),
    ('{"cs": true, "mono": 4}', "positive integers"),
    ('[1, 2]', "positive integers"),
    ('{"cs": 3,', "unreadable JSON"),
])
def test_a_data_folder_may_set_its_quotas_and_a_bad_file_is_a_located_error(tmp_path, text, expected):
    from competitions.spanglisheval import build as builder
    from evalkit.messages import DataError
    if text is not None:
        (tmp_path / "quotas.json").write_text(text)
    if isinstance(expected, dict):
        assert builder.data_quotas(str(tmp_path)) == expected
        return
    with pytest.raises(DataError) as error:
        builder.data_quotas(str(tmp_path))
    assert "quotas.json" in str(error.value) and expected in str(error.value)


def test_command_line_quotas_override_the_data_folder_one_by_one():
    from competitions.spanglisheval import build as builder

    class Args(object):
        data, cs, mono = SAMPLE, None, 7
    assert builder.command_line_quotas(Args()) == {"cs": 10, "mono": 7}


def baseline_rows(markdown):
    """{row name: accuracy (a fraction of the sets, as the leaderboard shows it)} of the build's baselines table."""
    rows = {}
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and re.match(r"^[0-9.]+$", cells[1]):
            rows[cells[0]] = float(cells[1])
    return rows


def test_every_starting_kit_system_has_its_row_computed_by_the_kit_itself(built, tmp_path):
    root, _ = built
    maker = os.path.join(SPAN_DIR, "starting_kit", "make_submission.py")
    usage = run([maker, "--help"])[1]
    systems = re.search(r"--system \{([a-z,]+)\}", usage).group(1).split(",")
    assert sorted(system for _, system in baselines.KIT_SYSTEMS) == sorted(systems)
    rows = baseline_rows(io.open(str(root / "dist" / "baselines" / "table.md"), encoding="utf-8").read())
    train = os.path.join(SAMPLE, "bangor_raw", "bangor_train_gold")
    for name, system in baselines.KIT_SYSTEMS:
        out = str(tmp_path / (system + ".zip"))
        assert run([maker, "--system", system, "--train", train, "--data", str(root / "ref" / "public" / "dev"),
                    "--split", "dev", "--out", out])[0] == 0
        accuracy = scoring.evaluate(spanglisheval, str(root / "ref" / "dev"), out)["scores"]["avg_score"]
        assert rows[name] == round(accuracy, 4), (name, rows)


def test_the_pages_and_the_readme_follow_the_numbers_of_the_build(built):
    """No count, percentage or comparison the build does not show: the set counts are the build's (its statistics
    on the Data page, the baselines table's header), and the medoid sentence says what its row says."""
    root, _ = built
    with zipfile.ZipFile(str(root / "dist" / "bundles" / "spanglisheval.zip")) as archive:
        pages = dict((name, archive.read(name).decode("utf-8")) for name in archive.namelist() if name.endswith(".html"))
        kit = zipfile.ZipFile(io.BytesIO(archive.read("starting_kit.zip")))
        readme = kit.read("spanglisheval-starting-kit/README.md").decode("utf-8")
    sets = len(read_sets(str(root / "ref" / "dev" / "reference.jsonl")))
    assert sets == 40
    text = " ".join(re.sub(r"<[^>]+>", " ", page) for page in pages.values())
    assert "Each split has 1,000 sets" not in text and "beats the random chooser" not in text
    assert "about 3.2%" not in text and "tends to be the sentence closest" not in readme
    assert re.search(r">sets</td><td[^>]*>%d</td><td[^>]*>%d</td>" % (sets, sets), pages["data.html"])
    assert "Baselines on the dev phase (%d sets" % sets in readme and "(%d sets" % sets in pages["evaluation.html"]
    markdown = io.open(str(root / "dist" / "baselines" / "table.md"), encoding="utf-8").read()
    medoid = baseline_rows(markdown)[baselines.MEDOID]
    expected = float(re.search(r"expected accuracy \(mean of 1/set size over \d+ sets\): ([0-9.]+)\.", markdown).group(1))
    word = "above" if round(medoid, 3) > round(expected, 3) else "below" if medoid < expected else "about"
    sentence = "The medoid chooser (no language model) scores %.4f, %s the random chooser's" % (medoid, word)
    assert sentence in markdown and sentence in readme and sentence in unescape(pages["evaluation.html"])
    for name, _ in baselines.KIT_SYSTEMS:
        assert "| %s |" % name in readme
