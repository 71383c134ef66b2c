"""What each platform derives from each bundle (organiser/platforms.py): phase windows, official rule, details.

For every bundle and the platform it is built for (CodaLab v1.5 bundle: legacy CodaLab rules; native
bundle: Codabench v2 rules), every phase opens and closes at the instants of schedule.yaml, the official
leaderboard rule is "last submission" and detailed results are hidden on the test leaderboard, with and
without test gold. Also: the schedule's defaults are the task description's dates, a changed schedule moves
every date (none is in Python), the schedule refuses what a platform cannot express, the native Codabench
rules each have a bundle that breaks them, and `make check` refuses to mix data sets.
"""
import datetime
import os
import re

import pytest
import yaml

import st2024
from organiser import bundle, check, platforms
from organiser import schedule as schedule_module
from evalkit.messages import DataError
from test_bundle import build_tree, competition_of, read_zip, run_bundle, write
from test_check import _phase_file, _release_test_input, rewrite

PLATFORM_OF_BUNDLE = {"st2024-%s.zip": platforms.CODALAB, "st2024-%s-codabench.zip": platforms.CODABENCH}


@pytest.fixture(scope="module", params=["with test gold", "without test gold"])
def dist(request, tmp_path_factory):
    """Bundles built with and without test gold (the latter has the placeholder test phase)."""
    phases = ("dev", "test") if request.param == "with test gold" else ("dev",)
    return run_bundle(tmp_path_factory.mktemp("platforms"), phases=phases)


def derived(dist, subtask, pattern):
    """The PlatformView of the platform the bundle ``pattern % subtask`` is built for."""
    return platforms.view(competition_of(os.path.join(dist, "bundles", pattern % subtask)), PLATFORM_OF_BUNDLE[pattern])


@pytest.mark.parametrize("pattern", sorted(PLATFORM_OF_BUNDLE))
@pytest.mark.parametrize("subtask", sorted(st2024.SUBTASKS))
def test_every_phase_closes_at_its_declared_instant(dist, subtask, pattern):
    schedule = schedule_module.load()
    view = derived(dist, subtask, pattern)
    expected = ["dev", "test"] + (["embeddings"] if subtask == "constrained" else [])
    assert [w.reference for w in view.phases] == expected
    for index, window in enumerate(view.phases):
        declared = schedule.window(window.reference)
        assert window.closes == declared.closes
        if view.platform == platforms.CODABENCH and index > 0:
            # Codabench refuses a phase starting when the previous one ends: it opens one second later.
            assert window.opens == declared.opens + schedule_module.CODABENCH_GAP
        else:
            assert window.opens == declared.opens
    assert platforms.schedule_failures(view, schedule, schedule_module.CODABENCH_GAP) == []


@pytest.mark.parametrize("pattern", sorted(PLATFORM_OF_BUNDLE))
@pytest.mark.parametrize("subtask", sorted(st2024.SUBTASKS))
def test_official_rule_is_the_last_submission_and_details_are_hidden(dist, subtask, pattern):
    view = derived(dist, subtask, pattern)
    assert view.official_rule == platforms.LAST
    assert view.details_hidden is True


def test_the_codalab_bundle_is_not_for_codabench(dist):
    # Codabench's v1.5 unpacker ignores force_submission_to_leaderboard and ends a phase a day before the
    # next: that is why the native bundle exists and the README says which to upload where.
    view = platforms.codabench(competition_of(os.path.join(dist, "bundles", "st2024-unconstrained.zip")))
    assert view.unpacker == "v1.5" and view.official_rule == platforms.MANUAL
    schedule = schedule_module.load()
    assert view.phases[0].closes == schedule.window("test").opens - datetime.timedelta(days=1)


def test_without_schedule_dates_the_old_bundle_never_closed():
    # The behaviour the issue describes: no end_date, no per-phase end: the last phase never closes.
    old = {"phases": {1: {"phasenumber": 1, "label": "Dev", "start_date": datetime.date(2023, 11, 5)},
                      2: {"phasenumber": 2, "label": "Test", "start_date": datetime.date(2024, 1, 2)}}}
    assert platforms.codalab(old).phases[-1].closes is None
    assert platforms.codabench(old).phases[-1].closes is None
    assert platforms.codalab(old).official_rule == platforms.MANUAL


def test_codabench_drops_the_time_of_an_unquoted_yaml_datetime():
    competition = yaml.safe_load("version: 2\nphases:\n- {name: a, start: 2024-01-02 10:30:00, "
                                 "end: '2024-01-03 10:30:00', tasks: [0]}\ntasks: []\n")
    window = platforms.codabench(competition).phases[0]
    assert window.opens == datetime.datetime(2024, 1, 2) and window.closes == datetime.datetime(2024, 1, 3, 10, 30)


# --------------------------------------------------------------------------- the schedule


def test_defaults_are_the_task_description_dates(shared_data):
    with open(os.path.join(shared_data, "README.md"), encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("## Important Dates"):text.index("## Important Links")]
    dates = {}
    for line in section.splitlines():
        match = re.match(r"^\s*-\s*\*\*(?:~~[^~]*~~\s*)?(\d{1,2} \w{3} \d{4}):\*\*\s*(.*)$", line)
        if match:
            dates[match.group(2).strip()] = datetime.datetime.strptime(match.group(1), "%d %b %Y").date()
    schedule = schedule_module.load()
    assert schedule.window("dev").opens.date() == dates["Release of training and validation data"]
    assert schedule.window("test").opens.date() == dates["Release of test data"]
    assert schedule.window("test").closes.date() == dates["Submission of results"]
    assert schedule.results_notification.date() == dates["Notification of results"]
    # Phase 2 (embeddings) has its own deadline, before the results are notified.
    assert schedule.window("embeddings").closes < schedule.results_notification
    later = dict((event, day) for day, event in schedule.later)
    assert later["Submission of shared task papers"] == dates["Submission of shared task papers"]
    assert later["SIGTYP workshop"] == dates["SIGTYP workshop"]


def test_a_changed_schedule_moves_every_date(tmp_path):
    text = open(schedule_module.SCHEDULE_YAML, encoding="utf-8").read()
    text = text.replace('"2024-01-15 12:00"', '"2024-02-01 18:30"').replace('"2024-01-15 21:00"', '"2024-02-03 09:00"')
    text = text.replace('"2024-01-15 22:00"', '"2024-02-04 00:00"')
    write(str(tmp_path / "schedule.yaml"), text)
    argv = build_tree(tmp_path / "tree", phases=("dev", "test")) + ["--schedule", str(tmp_path / "schedule.yaml")]
    assert bundle.main(argv) == 0
    dist = argv[argv.index("--out") + 1]
    legacy = platforms.codalab(competition_of(os.path.join(dist, "bundles", "st2024-constrained.zip")))
    assert [w.closes for w in legacy.phases] == [datetime.datetime(2024, 1, 2), datetime.datetime(2024, 2, 1, 18, 30),
                                                 datetime.datetime(2024, 2, 3, 9, 0)]
    native = platforms.codabench(competition_of(os.path.join(dist, "bundles", "st2024-constrained-codabench.zip")))
    assert native.phases[-1].closes == datetime.datetime(2024, 2, 3, 9, 0)
    timeline = read_zip(os.path.join(dist, "bundles", "st2024-constrained.zip"))["timeline.html"].decode("utf-8")
    assert "1 February 2024, 18:30 UTC" in timeline and "3 February 2024, 09:00 UTC" in timeline
    assert "15 January 2024" not in timeline


@pytest.mark.parametrize("old, new, where", [
    ('test:         # Phase 1, test: opens with the release of the test data; closes at the submission of results\n'
     '    opens: "2024-01-02 00:00"', 'test:\n    opens: "2024-01-03 00:00"', "phases.test.opens"),
    ('closes: "2024-01-15 21:00"', 'closes: "2024-01-15 11:00"', "phases.embeddings.closes"),
    ('results_notification: "2024-01-15 22:00"', 'results_notification: "2024-01-15 20:00"', "results_notification"),
    ('opens: "2023-11-05 00:00"', 'opens: "5 Nov 2023"', "phases.dev.opens"),
])
def test_the_schedule_refuses_what_a_platform_cannot_express(tmp_path, old, new, where):
    text = open(schedule_module.SCHEDULE_YAML, encoding="utf-8").read()
    assert old in text
    path = tmp_path / "schedule.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError) as error:
        schedule_module.load(str(path))
    assert str(path) in str(error.value) and where in str(error.value)


# --------------------------------------------------------------------------- native Codabench rules

@pytest.fixture(scope="module")
def native(tmp_path_factory):
    """A native Codabench bundle (constrained, with test gold)."""
    dist = run_bundle(tmp_path_factory.mktemp("native"), phases=("dev", "test"))
    return os.path.join(dist, "bundles", "st2024-constrained-codabench.zip")


def _phase(index, **values):
    return lambda c: c["phases"][index].update(values)


def _board(**values):
    return lambda c: c["leaderboards"][0].update(values)


NATIVE_CASES = [
    ("v2.version", lambda c: c.update({"version": "2.1"}), None),
    ("v2.required", lambda c: c.pop("terms"), None),
    ("v2.members", lambda c: c.update({"image": "missing.png"}), None),
    ("v2.members", _phase(1, public_data="nowhere.zip"), None),
    ("v2.pages", lambda c: c["pages"][0].pop("title"), None),
    ("v2.pages", None, lambda m: m.update({"overview.html": b""})),
    ("v2.tasks", lambda c: c["tasks"][1].update({"index": 0}), None),
    ("v2.tasks", None, lambda m: m.update({"scoring_program.zip": bundle.zip_bytes({"evaluate.py": b"x"})})),
    ("v2.phases", _phase(0, start=datetime.datetime(2023, 11, 5, 10, 0)), None),
    ("v2.phases", _phase(1, tasks=[7]), None),
    ("v2.phases", _phase(1, max_submissions_per_day=0), None),
    ("v2.sequential", _phase(1, start="2024-01-02 00:00:00"), None),
    ("v2.sequential", _phase(0, end=None), None),
    ("v2.leaderboard", lambda c: c["leaderboards"].append(dict(c["leaderboards"][0], key="other")), None),
    ("v2.leaderboard", lambda c: c["leaderboards"][0]["columns"].pop(), None),
    ("v2.leaderboard", _board(primary_index=3), None),
    ("v2.official-rule", _board(submission_rule="Force_Best"), None),
    ("v2.official-rule", lambda c: c["leaderboards"][0].pop("submission_rule"), None),
    ("v2.details-hidden", lambda c: c.pop("show_detailed_results_in_leaderboard"), None),
    ("v2.test-output-hidden", _phase(1, hide_output=False), None),
    ("v2.test-output-hidden", lambda c: c["phases"][1].pop("hide_output"), None),
    ("phase.report-policy", None, _phase_file("reference_data_test.zip", b'{"phase": "test", "gold": "public"}')),
    ("phase.report-policy", None, _phase_file("reference_data_dev.zip", None)),
    ("phase.test-input", None, _release_test_input),
    ("schedule.windows", _phase(2, end="2024-01-16 21:00:00"), None),
    ("phase.reference-coverage", None, lambda m: m.update({"reference_data_dev.zip": bundle.zip_bytes(
        dict((n, d) for n, d in read_zip(m["reference_data_dev.zip"]).items() if n != "pos_tagging/lat.json"))})),
]


def test_the_native_bundle_passes_every_rule(native):
    failures, competition, _ = check.check_bundle(native)
    assert check.is_codabench_v2(competition)
    # The one note (a warning, no failure): the test input is attached when the test phase opens.
    assert [(f.rule, f.where) for f in failures] == [("phase.test-input", "phases.2.public_data")]
    assert check.is_note(failures[0]) and failures[0].text.startswith("PENDING")
    assert competition["phases"][1]["hide_output"] is True
    assert not any("hide_output" in phase for phase in competition["phases"] if phase is not competition["phases"][1])


@pytest.mark.parametrize("rule, edit_yaml, edit_members", NATIVE_CASES,
                         ids=["%s-%d" % (case[0], i) for i, case in enumerate(NATIVE_CASES)])
def test_native_rule_is_enforced(native, tmp_path, rule, edit_yaml, edit_members):
    assert rule in check.CODABENCH_RULES
    failures, _, _ = check.check_bundle(rewrite(native, tmp_path / "bad.zip", edit_yaml, edit_members))
    assert rule in set(f.rule for f in failures if not check.is_note(f))


def test_every_native_rule_has_a_breaking_case():
    assert set(check.CODABENCH_RULES) - set(case[0] for case in NATIVE_CASES) == set()


# --------------------------------------------------------------------------- make check on the last build

def test_check_refuses_to_mix_data_sets_and_checks_the_last_build(tmp_path, capsys):
    dist = run_bundle(tmp_path, phases=("dev", "test"))
    data = os.path.join(str(tmp_path), "data")
    assert check.main(["--dist", dist, "--data", os.path.join(str(tmp_path), "other"), "--static-only"]) == 2
    err = capsys.readouterr().err
    assert "REFUSED" in err and data in err
    assert check.main(["--dist", dist, "--data", data, "--static-only"]) == 0
    out = capsys.readouterr().out
    for subtask in st2024.SUBTASKS:
        for pattern in PLATFORM_OF_BUNDLE:
            path = os.path.join(dist, "bundles", pattern % subtask)
            assert re.search(r"\d+\.\d (KiB|MiB)  %s\n" % re.escape(path), out), path
    assert check.main(["--dist", str(tmp_path / "nothing-built"), "--static-only"]) == 2


def test_a_placeholder_test_phase_is_a_warning_not_a_pass_in_silence(tmp_path, capsys):
    dist = run_bundle(tmp_path)
    assert check.main(["--dist", dist]) == 0
    out = capsys.readouterr().out
    assert "WARNING [phase.reference-coverage]" in out and "PENDING" in out
    assert "not run: its reference is the test placeholder" in out


def test_public_test_data_never_carries_gold(tmp_path, capsys):
    from competitions.st2024 import reference
    argv = build_tree(tmp_path, phases=("dev", "test"))
    data = argv[argv.index("--data") + 1]
    write(os.path.join(data, "fill_mask_char", "test", "sga_test.tsv"), "masked\tsrc\na[_]c\tabc\n")
    write(os.path.join(data, "morphology", "test", "lat_test.conllu"), "1\taa\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    # ST2024's reference builder picks the public test input (<reference>/public/test/<subtask>/).
    build = reference.Build(data, None)
    reference.write_public(build, data, argv[argv.index("--reference") + 1])
    assert any("sga_test.tsv carries gold annotations" in warning for warning in build.warnings)
    assert bundle.main(argv) == 0
    dist = argv[argv.index("--out") + 1]
    public = read_zip(os.path.join(dist, "public_data", "unconstrained-test.zip"))
    assert sorted(public) == ["fill_mask_word/test/sga_test.tsv", "morphology/test/lat_test.conllu"]
    competition = competition_of(os.path.join(dist, "bundles", "st2024-unconstrained.zip"))
    assert competition["phases"][2]["public_data"] == bundle.PUBLIC_DATA_MEMBER
    native = competition_of(os.path.join(dist, "bundles", "st2024-unconstrained-codabench.zip"))
    assert native["phases"][1]["public_data"] == bundle.PUBLIC_DATA_MEMBER
    assert bundle.PUBLIC_DATA_MEMBER in read_zip(os.path.join(dist, "bundles", "st2024-unconstrained.zip"))


# --------------------------------------------------------------------------- Phase 2: Python 3.9 loaders, the page

PY39_LOADERS = [
    "def load_model(path, /):\n    return path\n",                                            # 3.8 positional-only
    # 3.8 walrus and f'{x=}'
    "def load_model(path):\n    if (n := len(path)) > 3:\n        return n\n    return f'{path=}'\n",
    "import functools\n@functools.lru_cache()[0] if False else functools.cache\ndef load_model(p):\n    return p\n",
    "from gensim.models import KeyedVectors\n\n\ndef load_model(path: str) -> dict[str, list]:\n"
    "    return KeyedVectors.load_word2vec_format(path, binary=True)\n",                     # 3.9 generics
    "with (open('a') as f,\n      open('b') as g):\n    pass\nload_model = lambda p: p\n",   # 3.9 parser
]


@pytest.mark.parametrize("source", PY39_LOADERS, ids=[str(i) for i in range(len(PY39_LOADERS))])
def test_python39_loaders_are_accepted_whatever_the_worker_python(tmp_path, source):
    from test_bundle import GOOD, embeddings_run
    files = dict(GOOD, **{"load_embeddings.py": source.encode("utf-8")})
    status, scores, _, out = embeddings_run(tmp_path, files)
    assert status == 0 and scores["avg_score"] == 1.0, out


@pytest.mark.parametrize("source, message", [
    ("def load_model(p)):\n    return p\n", "unmatched ')'"),
    ("s = '''\ndef load_model(p): pass\n", "does not parse"),
    ("class Loader:\n    def load_model(self, p):\n        return p\n", "does not define"),
])
def test_broken_or_nested_loaders_score_zero(tmp_path, source, message):
    from test_bundle import GOOD, embeddings_run
    files = dict(GOOD, **{"load_embeddings.py": source.encode("utf-8")})
    status, scores, _, out = embeddings_run(tmp_path, files)
    assert status == 0 and scores["avg_score"] == 0.0 and message in out


def test_embeddings_page_shows_the_loader_rules_dates_and_upload_limits(tmp_path):
    from test_bundle import make_data, make_reference
    from test_pages import render
    data, reference = make_data(str(tmp_path / "data")), make_reference(str(tmp_path / "ref"), ("dev", "test"))
    text = render("constrained", data, reference, None, [])["evaluation.html"]
    window = schedule_module.load().window("embeddings")
    for needle in ("Python 3.9", "load_model(path)", "model[word]", "requirements.txt", "metadata.txt",
                   "KeyedVectors.load_word2vec_format", "300 MB", "15 GB", schedule_module.human(window.closes)):
        assert needle in text, needle
    assert "Python 3.9" not in render("unconstrained", data, reference, None, [])["evaluation.html"]
