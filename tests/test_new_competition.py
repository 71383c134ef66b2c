"""A new competition from its own folder alone (issue 25): the skeleton command, the guide's worked example run on a
fresh copy of the repository (build, check, its own tests, nothing outside its folder changed), the documents
generated from the declarations, and the machinery's declared options (the token column, per-language component
labels, distinct column labels, every leaderboard column in the results' tables)."""
import os
import re
import shutil
import subprocess
import sys
import time
from collections import OrderedDict

import pytest

from conftest import ROOT
from organiser import bundle, check, declarations, documents, feedback, procedure, skeleton
from organiser.results import tables
from evalkit import lines
from evalkit.declare import TextTask, bio
from evalkit.messages import MessageLog

GUIDE = os.path.join(ROOT, "docs", "new_competition.md")


def guide_commands():
    """The shell commands of the guide's worked example (its last ``sh`` block)."""
    with open(GUIDE, encoding="utf-8") as handle:
        text = handle.read()
    block = re.findall(r"```sh\n(.*?)```", text.split("## Worked example", 1)[1], re.S)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def run(command, cwd):
    """Run a shell command in ``cwd``; ``(status, output, seconds)``."""
    started = time.time()
    process = subprocess.run(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
    return process.returncode, process.stdout, time.time() - started


def fresh_copy(target):
    """The repository's files (tracked and not ignored) copied to ``target`` with their times, committed to a new git
    repository; the virtual environment linked."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, stdout=subprocess.PIPE,
                            check=True).stdout.decode("utf-8").split("\0")
    for name in filter(None, listed):
        source = os.path.join(ROOT, name)
        if os.path.isfile(source) and not os.path.islink(source):
            os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(target, name))
    os.symlink(os.path.realpath(os.path.join(ROOT, ".venv")), os.path.join(target, ".venv"))
    git = "git -c user.name=test -c user.email=test@example.org"
    status, out, _ = run("git init -q && git add -A && %s commit -qm fresh" % git, target)
    assert status == 0, out


#: The skeleton's JSON kind, run after the guide's example in the same copy.
JSON_COMMANDS = [".venv/bin/python -m organiser new jsonner --kind json --languages 'grc=Ancient Greek,ang=Old English'",
                 "make COMPETITION=jsonner", "make check COMPETITION=jsonner",
                 ".venv/bin/python -m pytest -q competitions/jsonner/tests"]


def run_all(commands, cwd):
    """``[(command, status, output, seconds)]`` of ``commands`` run in order, up to the first that fails."""
    steps = []
    for command in commands:
        status, out, seconds = run(command, cwd)
        steps.append((command, status, out, seconds))
        if status:
            break
    return steps


@pytest.fixture(scope="module")
def worked_example(tmp_path_factory):
    """The guide's worked example, then a JSON-kind skeleton, on a fresh copy: ``(copy, guide steps, JSON steps)``."""
    copy = str(tmp_path_factory.mktemp("fresh") / "repo")
    os.makedirs(copy)
    fresh_copy(copy)
    steps = run_all(guide_commands(), copy)
    return copy, steps, run_all(JSON_COMMANDS, copy)


def test_the_guides_worked_example_builds_checks_and_passes_its_tests_touching_only_its_folder(worked_example):
    copy, steps, json_steps = worked_example
    for command, status, out, _ in steps + json_steps:
        assert status == 0, "%s failed:\n%s" % (command, out[-3000:])
    assert len(steps) == len(guide_commands())
    outputs = dict((command.split()[0] + " " + command.split()[1], out) for command, _, out, _ in steps)
    assert "all rules pass" in outputs["make check"]
    assert "audited with its CodaLab twin histner.zip, audited above" in outputs["make check"]
    assert re.search(r"\b4 passed\b", steps[-1][2]) and re.search(r"\b4 passed\b", json_steps[-1][2])
    assert len(json_steps) == len(JSON_COMMANDS) and "all rules pass" in json_steps[2][2]
    status, out, _ = run("git status --porcelain --untracked-files=all", copy)
    changed = [line[3:] for line in out.splitlines()]
    assert changed and all(name.startswith(("competitions/histner/", "competitions/jsonner/")) for name in changed), \
        changed
    for name, done in (("tagging, by the guide", steps), ("json", json_steps)):
        print("%s: skeleton to a passing make check and tests in %.1f s" % (name, sum(s[3] for s in done)))


def test_the_new_competitions_kit_readme_explains_the_test_phase(worked_example):
    """The skeleton's kit README (issue 33, class 8): the test phase's scores are on a public part only, and the final
    ranking re-scores every team's official submission on the private rest (the build's split, its sizes)."""
    import zipfile
    copy = worked_example[0]
    with zipfile.ZipFile(os.path.join(copy, "dist", "histner", "starting_kit.zip")) as archive:
        readme = archive.read("histner-starting-kit/README.md").decode("utf-8")
    split = feedback.read_split(os.path.join(copy, "reference_data", "histner", "test"))
    assert bundle.TEST_PHASE_MARKER not in readme
    assert "## The test phase\n%s\n" % feedback.kit_readme_text(split) in readme
    assert "scored on the public part of the test set only (public part: %d of %d sentences" % \
        feedback.part_sizes(split)[:2] in readme
    assert "re-scores each team's official submission (its last scored one) on the private part, the rest of the " \
        "test set" in readme


def test_make_test_collects_the_new_competitions_own_tests(worked_example):
    copy = worked_example[0]
    status, out, _ = run(".venv/bin/python -m pytest -q --collect-only tests/test_competition_builds.py competitions",
                         copy)
    assert status == 0, out[-2000:]
    assert "competitions/histner/tests/test_histner.py::test_make_check_passes" in out
    assert "test_make_check_passes[histner]" in out   # the build-and-check test of every declared competition
    status, out, _ = run("make -n test", copy)
    assert re.search(r"pytest -q tests competitions\b", out)


def test_the_documents_name_the_new_competition_and_no_tracked_file_goes_stale(worked_example):
    copy = worked_example[0]
    status, out, _ = run(".venv/bin/python -m organiser docs --check && .venv/bin/python -m organiser docs", copy)
    assert status == 0, out
    with open(os.path.join(copy, "dist", "competitions.md"), encoding="utf-8") as handle:
        assert "`competitions/histner/`" in handle.read()
    with open(os.path.join(copy, "dist", "organisers.md"), encoding="utf-8") as handle:
        assert "(`histner`)" in handle.read()
    status, out, _ = run("git status --porcelain --untracked-files=all", copy)
    assert all(line[3:].startswith(("competitions/histner/", "competitions/jsonner/")) for line in out.splitlines()), out


def test_the_skeleton_refuses_an_existing_or_invalid_id(capsys):
    existing = declarations.hosted_ids()[-1]
    for cid, said in ((existing, "already exists"), ("Bad", "not a valid competition id"), ("x", "not a valid"),
                      ("class", "Python keyword"), ("json", "name of a Python module"),
                      ("a-b", "not a valid"), (declarations.top_level_id(), "already exists"),
                      ("fairness", "module name of their own")):
        assert skeleton.main([cid]) == 2, cid
        err = capsys.readouterr().err
        assert said in err, (cid, err)
    assert not os.path.exists(os.path.join(declarations.COMPETITIONS, "Bad"))
    assert skeleton.main(["zzfresh", "--types", "PER,L OC"]) == 2 and "entity types" in capsys.readouterr().err
    assert skeleton.main(["zzfresh", "--languages", "Latin"]) == 2 and "language code" in capsys.readouterr().err
    assert not os.path.exists(os.path.join(declarations.COMPETITIONS, "zzfresh"))


def test_the_docs_command_finds_a_stale_tracked_procedure(tmp_path, monkeypatch):
    assert documents.main(["--check"]) == 0
    stale = tmp_path / "organisers.md"
    stale.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(documents, "TRACKED", str(stale))
    assert documents.main(["--check"]) == 1
    assert documents.main(["--out", str(tmp_path / "dist")]) == 0
    assert stale.read_text(encoding="utf-8") == procedure.tracked_document()
    table = (tmp_path / "dist" / "competitions.md").read_text(encoding="utf-8")
    assert all("(`%s`)" % cid in table for cid in declarations.hosted_ids())
    assert not any("(`%s`)" % cid in procedure.tracked_document() for cid in declarations.hosted_ids())


# --------------------------------------------------------------------------- the declared options of the machinery

def parse(task, text):
    """Parse a one-sentence submission ``text`` against the reference ``a B-PER`` / ``b O``; the log's messages."""
    kind = lines.TEXT_KINDS["token_labels"]
    ref = kind.parse_reference_text(b"a\tB-PER\nb\tO\n", "ner_xx.conll", task, "xx")
    log = MessageLog("ner_xx.txt")
    predicted = kind.parse_prediction_text(text.encode("utf-8"), ref, log, task, 1 << 20)
    return predicted, [m.text for m in log.messages]


def test_the_token_column_is_taken_silently_when_declared_and_warned_otherwise():
    declared = TextTask("ner", "NER", "token_labels", "span_f1", ("span_f1", "acc"), [("xx", bio(("PER",)))],
                        token_column=True)
    plain = TextTask("ner", "NER", "token_labels", "span_f1", ("span_f1", "acc"), [("xx", bio(("PER",)))])
    assert parse(declared, "a\tB-PER\nb\tO\n") == ([["B-PER", "O"]], [])
    predicted, messages = parse(plain, "a\tB-PER\nb\tO\n")
    assert predicted == [["B-PER", "O"]] and len(messages) == 1 and "tab-separated" in messages[0]
    predicted, messages = parse(declared, "a\tx\tB-PER\nb\tO\n")   # more than the token: still said, once
    assert predicted == [["B-PER", "O"]] and len(messages) == 1


class Declared(object):
    """A components-mode declaration over two languages."""
    LANGUAGES = OrderedDict([("grc", ("Ancient Greek",)), ("lat", ("Latin",))])
    TASKS = (TextTask("ner", "NER", "token_labels", "span_f1", ("span_f1", "acc"),
                      [(lang, bio(("PER",))) for lang in LANGUAGES]),)
    LEADERBOARD = "components"
    OVERALL_LABEL = "Average"
    COMPONENT_LABELS = {"span_f1": "{language} entity F1", "acc": "{lang} {task} accuracy"}
    COMPETITION_ID = "declared"
    TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)
    SUBTASKS = OrderedDict([("declared", {"title": "D", "tasks": ("ner",), "languages": ("grc", "lat")})])


def test_component_labels_can_name_the_language_and_check_refuses_duplicate_labels():
    task = Declared.TASKS[0]
    pairs = [(task, "grc"), (task, "lat")]
    columns = bundle.declared_columns(Declared, list(Declared.LANGUAGES), pairs)
    assert [label for _, label in columns] == ["Average", "Ancient Greek entity F1", "grc NER accuracy",
                                              "Latin entity F1", "lat NER accuracy"]
    board = {"label": "Results", "rank": 1}
    source = {"leaderboard": {"leaderboards": {"Results": board}, "columns": OrderedDict(
        (key, {"leaderboard": board, "label": "Same" if key != "avg_score" else "Average", "numeric_format": 4,
               "rank": rank, "sort": "desc"}) for rank, (key, _) in enumerate(columns, 1))}}
    failures = [f for f in check.check_leaderboard(source, decl=Declared) if f.rule == "column.unique-labels"]
    assert len(failures) == 1 and "'Same'" in failures[0].text and "grc_ner_span_f1" in failures[0].text
    assert check.duplicate_labels([("a", "A"), ("b", "B")]) == []


def sub_results(tasks, entries, leaderboard):
    """A subtask of ``results.json`` with one team whose every score is 0.5."""
    keys = ["avg_score"] + ["avg_" + t for t in tasks] + [e[2] for e in entries] + [k for k, _ in leaderboard]
    scores = dict((key, {"value": 0.5, "lo": 0.4, "hi": 0.6}) for key in keys)
    return {"name": "x", "title": "X", "overall_key": "avg_score",
            "tasks": [{"folder": t, "key": t, "label": t.upper(), "mean_key": "avg_" + t} for t in tasks],
            "languages": [], "entries": [{"task": t, "lang": l, "key": k} for t, l, k in entries],
            "leaderboard": [list(c) for c in leaderboard],
            "rows": [{"id": "a", "name": "a", "baseline": False, "scores": scores}],
            "rankings": dict((key, {"order": ["a"], "ranks": {"a": [1, 1]}, "adjacent": []}) for key in keys)}


def test_the_results_tables_show_every_leaderboard_column_and_no_copy_of_the_average():
    board = [("avg_score", "Average"), ("grc_ner_span_f1", "grc F1"), ("grc_ner_acc", "grc accuracy"),
             ("lat_ner_span_f1", "lat F1"), ("lat_ner_acc", "lat accuracy")]
    one_task = sub_results(["ner"], [("ner", "grc", "grc_ner"), ("ner", "lat", "lat_ner")], board)
    made = tables.subtask_tables(one_task)
    shown = [key for table in made for key, _ in table.columns]
    assert "avg_ner" not in shown and all(key in shown for key, _ in board)
    assert made[0].columns == board and len(made) == 1   # one task: the leaderboard participants saw
    one_task["leaderboard"] = [["avg_score", "Average"]]
    assert [key for key, _ in tables.subtask_tables(one_task)[0].columns] == ["avg_score", "grc_ner", "lat_ner"]
    two = sub_results(["ner", "pos"], [("ner", "grc", "grc_ner"), ("pos", "grc", "grc_pos")],
                      [("avg_score", "Average"), ("grc_ner", "grc NER"), ("grc_pos", "grc POS")])
    made = tables.subtask_tables(two)
    assert [t.slug for t in made] == ["x-overall", "x-ner", "x-pos"]   # every column already in a table


def test_a_codabench_bundle_is_audited_through_its_byte_identical_codalab_twin(tmp_path):
    import zipfile
    from organiser import audit

    def write(name, members):
        with zipfile.ZipFile(str(tmp_path / name), "w") as archive:
            for member, data in members.items():
                archive.writestr(member, data)
        return str(tmp_path / name)

    twin = write("x.zip", {"competition.yaml": "title: a\n", "overview.html": "<p>same</p>"})
    said = []
    same = write("x-codabench.zip", {"competition.yaml": "version: 2\n", "overview.html": "<p>same</p>"})
    assert audit.codabench_twin(check, same, [twin, same], said.append) == []
    assert "audited with its CodaLab twin x.zip, audited above: the same 1 members" in said[-1]
    other = write("x-codabench.zip", {"competition.yaml": "version: 2\n", "overview.html": "<p>other</p>"})
    findings = audit.codabench_twin(check, other, [twin, other], said.append)
    assert len(findings) == 1 and "overview.html" in findings[0].text and "not audited" in said[-1]
    lonely = write("y-codabench.zip", {"competition.yaml": "version: 2\n"})
    assert len(audit.codabench_twin(check, lonely, [twin, lonely], said.append)) == 1 and "no CodaLab twin" in said[-1]
