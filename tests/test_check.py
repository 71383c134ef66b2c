"""Bundle validator (organiser/check.py): every rule has a bundle that breaks it; both workers are simulated."""
import datetime
import io
import json
import os
import zipfile

import pytest
import yaml

import st2024
from conftest import build_competition
from organiser import audit, bundle, check
from test_bundle import build_tree, read_zip, run_bundle


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """Valid bundles with development and test phases."""
    return run_bundle(tmp_path_factory.mktemp("check"), phases=("dev", "test"))


@pytest.fixture(scope="module")
def good(dist):
    """Path of the valid constrained bundle (3 phases, two scoring programs)."""
    return os.path.join(dist, "bundles", "st2024-constrained.zip")


def rewrite(src, dst, edit_yaml=None, edit_members=None, raw_yaml=None):
    """Copy bundle ``src`` to ``dst`` after editing its parsed YAML and/or its members (order kept)."""
    members = read_zip(str(src))
    competition = yaml.safe_load(members["competition.yaml"])
    if edit_yaml:
        edit_yaml(competition)
    members["competition.yaml"] = raw_yaml if raw_yaml is not None else yaml.safe_dump(
        competition, sort_keys=False, allow_unicode=True).encode("utf-8")
    if edit_members:
        result = edit_members(members)
        members = result if result is not None else members
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    with open(str(dst), "wb") as handle:
        handle.write(buffer.getvalue())
    return str(dst)


def rules_of(path):
    """The rule names that fail on a bundle (notes, printed as warnings, aside: the good bundle's test phase has
    the PENDING note of its test input, see test_the_good_bundles_fail_no_rule)."""
    failures, _, _ = check.check_bundle(path)
    return set(f.rule for f in failures if not check.is_note(f))


def test_the_good_bundles_fail_no_rule(dist):
    for name in ("st2024-constrained.zip", "st2024-unconstrained.zip"):
        failures, _, _ = check.check_bundle(os.path.join(dist, "bundles", name))
        assert [(f.rule, f.where) for f in failures] == [("phase.test-input", "phases.2.public_data")]
        assert check.is_note(failures[0]) and failures[0].text.startswith("PENDING")


def set_key(*path_and_value):
    """A YAML editor setting ``competition[a][b]... = value``."""
    *path, value = path_and_value

    def edit(competition):
        target = competition
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def del_key(*path):
    """A YAML editor deleting ``competition[a][b]...``."""
    def edit(competition):
        target = competition
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return edit


def first_column(competition):
    """The column mapping of avg_score."""
    return competition["leaderboard"]["columns"]["avg_score"]


def _swap_first_ranks(competition):
    columns = competition["leaderboard"]["columns"]
    columns["avg_score"]["rank"], columns["avg_pos"]["rank"] = 2, 1


def _drop_column(competition):
    columns = competition["leaderboard"]["columns"]
    del columns["lat_pos"]
    for rank, column in enumerate(sorted(columns.values(), key=lambda c: c["rank"]), 1):
        column["rank"] = rank


def _second_board(competition):
    competition["leaderboard"]["leaderboards"]["Other"] = {"label": "Other", "rank": 2}


def _no_metadata_program(members):
    members["scoring_program.zip"] = bundle.zip_bytes({"evaluate.py": b"print(1)\n"})


YAML_CASES = [
    ("yaml.no-version", set_key("version", 2)),
    ("yaml.top-level-keys", set_key("docker_image", "codalab/codalab-legacy:py37")),
    ("yaml.required", del_key("has_registration")),
    ("yaml.required", del_key("competition_docker_image")),
    ("yaml.title", set_key("title", "x" * 101)),
    ("yaml.values", set_key("enable_detailed_results", False)),
    ("yaml.values", set_key("has_registration", "yes")),
    ("yaml.end-date", set_key("end_date", "2024-01-15")),
    ("yaml.required", del_key("end_date")),
    ("yaml.official-rule", set_key("force_submission_to_leaderboard", False)),
    ("yaml.official-rule", set_key("disallow_leaderboard_modifying", False)),
    ("yaml.required", del_key("disallow_leaderboard_modifying")),
    ("yaml.no-chart", set_key("hide_chart", False)),
    ("yaml.required", del_key("hide_chart")),
    ("phase.test-hidden", del_key("phases", 2, "leaderboard_management_mode")),
    ("phase.test-hidden", set_key("phases", 1, "leaderboard_management_mode", "hidden")),
    ("schedule.windows", set_key("phases", 3, "start_date", "2024-01-15 13:00:00")),
    ("schedule.windows", set_key("end_date", "2024-01-16 00:00:00")),
    ("image.png", set_key("image", "missing.png")),
    ("html.pages", del_key("html", "terms")),
    ("html.pages", set_key("html", "timeline", "nowhere.html")),
    ("phases.mapping", lambda c: c["phases"].update({5: c["phases"].pop(2)})),
    ("phase.keys", set_key("phases", 1, "tasks", [1])),
    ("phase.required", del_key("phases", 1, "max_submissions_per_day")),
    ("phase.required", del_key("phases", 2, "reference_data")),
    ("phase.phasenumber", set_key("phases", 1, "phasenumber", 2)),
    ("phase.label", set_key("phases", 1, "label", "x" * 51)),
    ("phase.description", set_key("phases", 1, "description", "x" * 1001)),
    ("phase.no-end-date", set_key("phases", 1, "end_date", datetime.date(2024, 1, 1))),
    ("phase.date", set_key("phases", 1, "start_date", datetime.datetime(2023, 11, 5, 0, 0))),
    ("phase.date", set_key("phases", 1, "start_date", "2023-11-05")),
    ("phase.order", set_key("phases", 2, "start_date", datetime.date(2023, 1, 1))),
    ("phase.limits", set_key("phases", 2, "max_submissions", 0)),
    ("phase.auto-migration", set_key("phases", 1, "auto_migration", True)),
    ("phase.members", set_key("phases", 1, "scoring_program", "scoring_program/")),
    ("phase.members", set_key("phases", 2, "starting_kit", "kit.zip")),
    ("leaderboard.single", _second_board),
    ("leaderboard.columns", set_key("leaderboard", "columns", {})),
    ("column.keys", lambda c: first_column(c).update({"computed": {"operation": "Avg"}})),
    ("column.keys", lambda c: first_column(c).pop("numeric_format")),
    ("column.key", lambda c: c["leaderboard"]["columns"].update({"Bad-Key": dict(first_column(c), rank=999)})),
    ("column.label", lambda c: first_column(c).update({"label": "x" * 37})),
    ("column.leaderboard", lambda c: first_column(c).update({"leaderboard": {"label": "Other", "rank": 1}})),
    ("column.unique-labels", lambda c: [column.update({"label": "Same"})
                                        for column in list(c["leaderboard"]["columns"].values())[:2]]),
    ("column.values", lambda c: first_column(c).update({"sort": "descending"})),
    ("column.values", lambda c: first_column(c).update({"rank": 500})),
    ("column.first", _swap_first_ranks),
    ("column.declaration", _drop_column),
    ("column.declaration", lambda c: c["leaderboard"]["columns"].update(
        {"lat_fill_mask_word": dict(first_column(c), rank=len(c["leaderboard"]["columns"]) + 1)})),
]


@pytest.mark.parametrize("rule, edit", YAML_CASES, ids=["%s-%d" % (r, i) for i, (r, _) in enumerate(YAML_CASES)])
def test_yaml_rule_is_enforced(good, tmp_path, rule, edit):
    assert rule in check.RULES
    assert rule in rules_of(rewrite(good, tmp_path / "bad.zip", edit_yaml=edit))


def _reorder(first):
    def edit(members):
        return dict([(first, members[first])] + [(n, d) for n, d in members.items() if n != first])
    return edit


def _wrap(members):
    return dict(("wrap/" + name, data) for name, data in members.items())


def _drop_reference(name):
    def edit(members):
        files = read_zip(members["reference_data_dev.zip"])
        del files[name]
        members["reference_data_dev.zip"] = bundle.zip_bytes(files)
    return edit


def _phase_file(member, content):
    """An edit writing ``content`` as the ``phase.json`` of reference zip ``member`` (None: removing it)."""
    def edit(members):
        files = read_zip(members[member])
        if content is None:
            del files[bundle.PHASE_FILE]
        else:
            files[bundle.PHASE_FILE] = content
        members[member] = bundle.zip_bytes(files)
    return edit


def _release_test_input(members):
    """The test input put in the bundle as the test phase's public data (instead of the placeholder)."""
    members[bundle.PUBLIC_DATA_MEMBER] = bundle.zip_bytes({"morphology/test/lat_test.conllu": CONLLU_INPUT})


CONLLU_INPUT = b"1\taa\t_\t_\t_\t_\t_\t_\t_\t_\n\n"

MEMBER_CASES = [
    ("phase.report-policy", _phase_file("reference_data_test.zip", b'{"phase": "test", "gold": "public"}')),
    ("phase.report-policy", _phase_file("reference_data_test.zip", None)),
    ("phase.report-policy", _phase_file("reference_data_test.zip", b"not json")),
    ("phase.report-policy", _phase_file("reference_data_dev.zip", b'{"phase": "dev", "gold": "hidden"}')),
    ("phase.test-input", _release_test_input),
    ("phase.reference-coverage", _drop_reference("pos_tagging/lat.json")),
    ("members.yaml-first", _reorder("logo.png")),
    ("members.single-yaml", lambda m: m.update({"old/competition.yaml.bak": b"x"})),
    ("members.no-macosx", lambda m: m.update({"__MACOSX/._logo.png": b"x"})),
    ("members.no-wrapping-folder", _wrap),
    ("members.safe-paths", lambda m: m.update({"../evil.txt": b"x"})),
    ("image.png", lambda m: m.update({"logo.png": b"GIF89a not a png"})),
    ("html.utf8", lambda m: m.update({"overview.html": "<!DOCTYPE html><p>caf\xe9</p>".encode("latin-1")})),
    ("html.utf8", lambda m: m.update({"terms.html": b"<p>no doctype</p>"})),
    ("phase.members", lambda m: m.update({"reference_data_dev.zip": b"not a zip"})),
    ("phase.program-metadata", _no_metadata_program),
]


@pytest.mark.parametrize("rule, edit", MEMBER_CASES, ids=["%s-%d" % (r, i) for i, (r, _) in enumerate(MEMBER_CASES)])
def test_member_rule_is_enforced(good, tmp_path, rule, edit):
    assert rule in rules_of(rewrite(good, tmp_path / "bad.zip", edit_members=edit))


def test_unparsable_yaml_and_not_a_zip(good, tmp_path):
    assert "yaml.parse" in rules_of(rewrite(good, tmp_path / "bad.zip", raw_yaml=b"title: [unclosed\n"))
    assert "yaml.parse" in rules_of(rewrite(good, tmp_path / "list.zip", raw_yaml=b"- a\n- b\n"))
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"this is not a zip")
    assert rules_of(str(garbage)) == {"bundle.zip"}


# --------------------------------------------------------------------------- the leak audit (organiser/audit.py)

@pytest.fixture(scope="module")
def sample_build(tmp_path_factory):
    """ST2024 built from its sample as ``make`` builds it: ``(reference, dist)``."""
    return build_competition("st2024", tmp_path_factory.mktemp("st2024"))


def test_the_sample_build_ships_its_floor_with_each_development_reference(sample_build):
    """ST2024 on its sample (with baselines, as plain ``make``): the floor file is in the development reference and in
    each subtask's development reference zip."""
    from evalkit import floor
    ref, dist = sample_build
    label, floors = floor.read_floor(os.path.join(ref, "dev", floor.FILE_NAME))
    assert label == "floor" and floors
    for subtask in st2024.SUBTASKS:
        with zipfile.ZipFile(os.path.join(dist, "reference", "%s-dev.zip" % subtask)) as archive:
            assert floor.FILE_NAME in archive.namelist(), subtask


def audit_rules(dist, path):
    """The rules the leak audit fails (notes aside) on the bundle at ``path`` of the build in ``dist``."""
    findings = audit.audit_bundle(check, st2024, path, audit.read_test_inputs(dist, bundle.read_manifest(dist)),
                                  os.path.join(dist, "submissions"), report=lambda text: None)
    return set(f.rule for f in findings if not f.note)


def _nested(name, change):
    """An edit of the bundle's nested zip ``name`` by ``change(reference folder, dist, {member: bytes})``."""
    def edit(ref, dist):
        def members_edit(members):
            inner = read_zip(members[name])
            change(ref, dist, inner)
            members[name] = bundle.zip_bytes(inner)
        return members_edit
    return edit


def _ignore_policy(ref, dist, program):
    program["evalkit/policy.py"] += b"\n\ndef apply(report, policy):\n    return report\n"


def _print_reference(ref, dist, program):
    program["evaluate.py"] = program["evaluate.py"].replace(b"import os\nimport sys\n", (
        b"import os\nimport sys\nfor _folder, _, _files in os.walk(os.path.join(sys.argv[1], 'ref')):\n"
        b"    for _name in _files:\n        print(open(os.path.join(_folder, _name), encoding='utf-8').read())\n"), 1)
    assert b"_folder" in program["evaluate.py"]


def _test_gold_in_the_kit(ref, dist, kit):
    for folder, _, files in os.walk(os.path.join(ref, "test")):
        for name in files:
            with open(os.path.join(folder, name), "rb") as handle:
                kit["st2024-starting-kit/data/extra/%s" % os.path.relpath(os.path.join(folder, name),
                                                                          ref)] = handle.read()


def _test_input_in_the_kit(ref, dist, kit):
    kit.update(("st2024-starting-kit/data/" + name, value) for name, value in
               read_zip(os.path.join(dist, "public_data", "constrained-test.zip")).items())


AUDIT_CASES = [
    ("audit.report", _nested("scoring_program.zip", _ignore_policy)),
    ("audit.report", _nested("scoring_program.zip", _print_reference)),
    ("audit.gold-strings", _nested("scoring_program.zip", _print_reference)),
    ("audit.public-gold", _nested("starting_kit.zip", _test_gold_in_the_kit)),
    ("audit.early-release", _nested("starting_kit.zip", _test_input_in_the_kit)),
]


def test_the_sample_build_passes_the_audit(sample_build):
    ref, dist = sample_build
    assert audit_rules(dist, os.path.join(dist, "bundles", "st2024-constrained.zip")) == set()


@pytest.mark.parametrize("rule, edit", AUDIT_CASES, ids=["%s-%d" % (r, i) for i, (r, _) in enumerate(AUDIT_CASES)])
def test_audit_rule_is_enforced(sample_build, tmp_path, rule, edit):
    ref, dist = sample_build
    planted = rewrite(os.path.join(dist, "bundles", "st2024-constrained.zip"), tmp_path / "planted.zip",
                      edit_members=edit(ref, dist))
    assert rule in audit_rules(dist, planted)


def test_every_static_rule_has_a_breaking_case():
    covered = set(r for r, _ in YAML_CASES) | set(r for r, _ in MEMBER_CASES) | {"yaml.parse", "bundle.zip"}
    covered |= set(r for r, _ in AUDIT_CASES)
    static = set(rule for rule in check.RULES if not rule.startswith("run."))
    assert static - covered == set()


def test_failures_name_the_offending_key(good, tmp_path):
    failures, _, _ = check.check_bundle(rewrite(good, tmp_path / "bad.zip",
                                                edit_yaml=set_key("phases", 2, "label", "y" * 60)))
    assert [(f.rule, f.where) for f in failures if not check.is_note(f)] == [("phase.label", "phases.2.label")]


# --------------------------------------------------------------------------- worker simulation

def test_both_workers_score_every_phase_with_the_real_programs(dist, capsys):
    bundles = [os.path.join(dist, "bundles", "st2024-%s.zip" % s) for s in st2024.SUBTASKS]
    assert check.main(bundles + ["--submissions", os.path.join(dist, "no-such-folder")]) == 0
    out = capsys.readouterr().out
    assert out.count(" ok ") == 2 * (2 + 3)
    assert "all rules pass" in out and "Phase 2: embeddings" in out


def test_baseline_submission_is_preferred(tmp_path):
    (tmp_path / "other.zip").write_bytes(b"")
    assert check.choose_submission(str(tmp_path), "constrained", "dev").endswith("other.zip")
    (tmp_path / "baseline-constrained-valid.zip").write_bytes(b"")
    assert check.choose_submission(str(tmp_path), "constrained", "test").endswith("baseline-constrained-valid.zip")
    (tmp_path / "baseline-constrained-test.zip").write_bytes(b"")
    assert check.choose_submission(str(tmp_path), "constrained", "test").endswith("baseline-constrained-test.zip")
    assert check.choose_submission(str(tmp_path / "absent"), "constrained", "dev") is None


def test_simulation_uses_the_given_baseline_submission(tmp_path, capsys):
    dist = run_bundle(tmp_path)
    submissions = tmp_path / "subs"
    submissions.mkdir()
    ref = os.path.join(str(tmp_path), "reference_data", "dev")
    members = check.trivial_submission(ref)
    (submissions / "baseline-unconstrained-valid.zip").write_bytes(bundle.zip_bytes(members))
    path = os.path.join(dist, "bundles", "st2024-unconstrained.zip")
    assert check.main([path, "--submissions", str(submissions)]) == 0
    assert "on baseline-unconstrained-valid.zip" in capsys.readouterr().out


def test_trivial_submission_shapes(tmp_path):
    dist_base = tmp_path
    build_tree(dist_base)
    members = check.trivial_submission(os.path.join(str(tmp_path), "reference_data", "dev"))
    pos = json.loads(members["pos_tagging/lat.json"])
    assert pos == [[["a", "X"], ["b", "X"]]]
    lemma = json.loads(members["lemmatisation/lat.json"])
    assert lemma == [[["a", ["a"]], ["b", ["b"]]]]
    gaps = json.loads(members["fill_mask_char/sga.json"])
    assert [len(s["masked_tokens"]) for s in gaps] == [1, 0]


def fake_program(body, command="python3 $program/evaluate.py $input $output"):
    """A scoring program zip whose evaluate.py runs ``body`` with ``inp``/``out`` and ``columns`` defined."""
    header = ("import json, os, sys\n"
              "inp, out = sys.argv[1], sys.argv[2]\n"
              "here = os.path.dirname(os.path.abspath(__file__))\n"
              "columns = json.load(open(os.path.join(here, 'columns.json')))\n"
              "def scores(keys):\n"
              "    with open(os.path.join(out, 'scores.txt'), 'w') as f:\n"
              "        f.writelines('%s: %.10f\\n' % (k, 0.5) for k in keys)\n"
              "def html():\n"
              "    open(os.path.join(out, 'detailed_results.html'), 'w').write('<p>ok</p>')\n")
    return {"metadata": ("command: %s\n" % command).encode(), "evaluate.py": (header + body).encode()}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A development-only unconstrained bundle and its leaderboard columns."""
    dist = run_bundle(tmp_path_factory.mktemp("small"), table=False)
    path = os.path.join(dist, "bundles", "st2024-unconstrained.zip")
    return path, check.subtask_columns("unconstrained", st2024)


def with_program(small, tmp_path, body, command=None):
    """The small bundle with its scoring program replaced by :func:`fake_program`."""
    path, columns = small
    program = fake_program(body) if command is None else fake_program(body, command)
    program["columns.json"] = json.dumps(columns).encode()
    return rewrite(path, tmp_path / "fake.zip",
                   edit_members=lambda m: m.update({"scoring_program.zip": bundle.zip_bytes(program)}))


def simulated_rules(path):
    """Failures of the worker simulation: ``{(rule, worker)}`` (the test placeholder is not a failure here)."""
    failures, competition, members = check.check_bundle(path)
    assert [f for f in failures if not f.text.startswith("PENDING")] == []
    found = check.simulate(competition, members, "unconstrained", None, timeout=60, report=lambda *_: None)
    return set((f.rule, "codabench" if "codabench" in f.where else "codalab") for f in found)


RUN_CASES = [
    ("scores(columns); html()", set()),
    ("scores(columns); html(); sys.exit(3)", {("run.exit", "codalab"), ("run.exit", "codabench")}),
    ("scores(columns[:-1]); html()", {("run.scores", "codalab"), ("run.scores", "codabench")}),
    ("scores(columns)", {("run.detailed-results", "codalab"), ("run.detailed-results", "codabench")}),
    ("scores(columns); html(); open(os.path.join(out, 'metadata'), 'w').write('x')",
     {("run.no-output-metadata", "codalab"), ("run.no-output-metadata", "codabench")}),
    ("open(os.path.join(out, 'scores.txt'), 'w').write('avg_score: 1e-3\\n'); html()",
     {("run.scores", "codalab"), ("run.scores", "codabench")}),
    # Codabench reads scores.json before scores.txt: a nested scores.json empties its leaderboard.
    ("scores(columns); html(); json.dump({'scores': dict.fromkeys(columns, 0.5)}, open(os.path.join(out, 'scores.json'), 'w'))",
     {("run.scores", "codabench")}),
    # A flat scores.json with every column (and extra non-column keys) is what Codabench wants.
    ("scores(columns); html(); json.dump(dict(dict.fromkeys(columns, 0.5), signature='x'), open(os.path.join(out, 'scores.json'), 'w'))",
     set()),
    # Relies on the working directory: works where CodaLab runs it (the run folder), not on Codabench.
    ("os.listdir('input/ref'); scores(columns); html()", {("run.exit", "codabench"), ("run.detailed-results", "codabench"),
                                                          ("run.scores", "codabench")}),
    # Relies on res/ holding only task folders: Codabench's res/metadata breaks it.
    ("assert 'metadata' not in os.listdir(os.path.join(inp, 'res')); scores(columns); html()",
     {("run.exit", "codabench"), ("run.detailed-results", "codabench"), ("run.scores", "codabench")}),
]


@pytest.mark.parametrize("body, expected", RUN_CASES, ids=[str(i) for i in range(len(RUN_CASES))])
def test_worker_rules(small, tmp_path, body, expected):
    assert simulated_rules(with_program(small, tmp_path, body)) == expected


def test_command_is_split_on_single_spaces(small, tmp_path):
    rules = simulated_rules(with_program(small, tmp_path, "scores(columns); html()",
                                         command="python3  $program/evaluate.py $input $output"))
    assert ("run.command", "codalab") in rules or ("run.exit", "codalab") in rules
    rules = simulated_rules(with_program(small, tmp_path, "", command="no-such-interpreter $program/evaluate.py"))
    assert rules == {("run.command", "codalab"), ("run.command", "codabench")}


def test_missing_reference_is_reported_once_and_the_workers_still_run(small, tmp_path, capsys):
    path, _ = small
    bad = rewrite(path, tmp_path / "bad.zip", edit_members=_drop_reference("lemmatisation/san.json"))
    assert check.main([bad]) == 1
    out = capsys.readouterr().out
    assert out.count("FAIL [") == 1 and "FAIL [phase.reference-coverage]" in out and "lemmatisation/san.json" in out
    assert out.count(" ok ") == 2
    assert check.main([bad, "--allow-missing-references"]) == 0
    assert "WARNING [phase.reference-coverage]" in capsys.readouterr().out


def test_main_reports_rule_names_and_fails(good, tmp_path, capsys):
    bad = rewrite(good, tmp_path / "bad.zip", edit_yaml=set_key("version", 2))
    assert check.main([bad, "--static-only"]) == 1
    assert "FAIL [yaml.no-version] version" in capsys.readouterr().out
