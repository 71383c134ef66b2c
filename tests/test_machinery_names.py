"""The machinery never names a competition's tasks, languages, subtasks or phases (issue 10, "The shape").

The names are read from every hosted competition's declarations (its scorer-side module and its
``subtasks.yaml``), never listed here, so a competition added later is guarded too. The machinery is
``scoring_program/evalkit/`` and ``organiser/`` (its results package included), except the top-level
competition's own organiser-side builders (see docs/architecture.md).
"""
import os
import re

import pytest

from conftest import ROOT
from organiser import declarations

#: The top-level competition's own organiser-side builders (docs/architecture.md, "Where a fact lives").
OWN_BUILDERS = ("reference.py", "baselines.py", "release.py")
#: Phases every competition has (the machinery's own vocabulary, not a competition's).
BASE_PHASES = ("dev", "test")


def machinery_files():
    """Every Python file of the machinery, relative to the repository root."""
    found = []
    for top in (os.path.join("scoring_program", "evalkit"), "organiser"):
        for folder, subfolders, files in os.walk(os.path.join(ROOT, top)):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), ROOT)
                if name.endswith(".py") and path not in [os.path.join("organiser", b) for b in OWN_BUILDERS]:
                    found.append(path)
    return found


def declared_names():
    """``{name: what it is}`` for every hosted competition: task folders, language codes, subtask ids,
    extra phase names and the phase labels its subtasks declare."""
    names = {}
    for cid in declarations.hosted_ids():
        declaration = declarations.load(cid)
        for task in declaration.TASKS:
            names[task.folder] = "%s task folder" % cid
        for lang in declaration.LANGUAGES:
            names[lang] = "%s language" % cid
        for subtask in declaration.SUBTASKS:
            if subtask != cid:   # a single-subtask competition names its subtask after itself
                names[subtask] = "%s subtask" % cid
        for subtask in declarations.wording(cid)["subtasks"]:
            for extra in declarations.extra_phases(subtask, cid):
                names[extra["name"]] = "%s phase" % cid
                names[extra["phase"]["label"]] = "%s phase label" % cid
            for phase, label in (declarations.subtask_wording(subtask, cid).get("phase_labels") or {}).items():
                names[label] = "%s phase label" % cid
                if phase not in BASE_PHASES:
                    names[phase] = "%s phase" % cid
    return names


def pattern(name):
    """Where ``name`` counts as named: anywhere as a word when it is distinctive (an underscore, a space or
    eight characters or more); a short code only in a path (``/lat.json``, ``"pos/``, ``lat.bin``), since it
    is often an English word or an attribute name too (``err.pos``)."""
    word = re.escape(name)
    if "_" in name or " " in name or len(name) >= 8:
        return re.compile(r"(?<![\w-])%s(?![\w-])" % word)
    return re.compile(r"""(?:/%s(?=["'./])|["']%s/|(?<![\w.-])%s\.(?:json|bin|conllu|conll|tsv|txt)\b)"""
                      % (word, word, word))


def test_the_guard_finds_what_it_looks_for():
    names = declared_names()
    assert len(names) > 10 and "phase label" in " ".join(names.values()) and "phase" in names.values().__str__()
    task, lang = declarations.load().TASKS[0].folder, declarations.load().TASKS[0].languages[0]
    assert pattern(task).search('example = "%s"' % task)
    assert pattern(lang).search('example = "%s/%s.json"' % (task, lang))
    assert pattern(lang).search("'%s.bin'" % lang) and not pattern(lang).search('getattr(x, "%s")' % lang)


@pytest.mark.parametrize("path", machinery_files())
def test_the_machinery_names_no_task_language_subtask_or_phase(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        text = handle.read()
    found = []
    for name, what in sorted(declared_names().items()):
        for match in pattern(name).finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append("%s:%d: %r (%s)" % (path, line, name, what))
    assert not found, "\n".join(found)


def test_the_nothing_scored_example_comes_from_the_declaration(tmp_path, capsys):
    from evalkit import cli
    declaration = declarations.load()
    task = declaration.TASKS[0]
    reference = tmp_path / "ref" / task.folder
    reference.mkdir(parents=True)
    (reference / ("%s.json" % task.languages[0])).write_text('[[["a", "NOUN"]]]', encoding="utf-8")
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "notes.txt").write_text("nothing to score", encoding="utf-8")
    status = cli.main(declaration, ["--ref", str(tmp_path / "ref"), "--submission", str(submission),
                                    "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 1 and "Nothing could be scored" in err
    assert "e.g. %s/%s.json." % (task.folder, task.languages[0]) in err
