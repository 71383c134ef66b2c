"""The released test input carries the input only (issue 30): every kind declares what a participant is given
(``evalkit.items.Given``, its ``items.given``); ST2024's test CoNLL-U keeps the forms, multiword-token ranges, ``# text``,
``SpaceAfter=No`` and sentence ids of the kit's own, and loses HEAD, DEPREL, DEPS, the treebank's ``sent_id``,
``# source`` and MISC ``ref=``, so that it can no longer be joined back to a public treebank; the starting kit's
baselines and validator make the same submission and say the same of it from the new input; ``python -m organiser
reference`` refuses a test input that holds more than the kinds give (every competition)."""
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, SHARED, build_competition
from evalkit import items as items_module
from evalkit import kindspec, scoring  # noqa: F401  (scoring registers the kit's kinds)
from evalkit.items import CONLLU_COLUMNS, CONLLU_INPUT, ConlluInput, TokenLines
from organiser import builders, declarations

SAMPLE = os.path.join(ROOT, "sample_data")
UD = os.path.join(os.path.dirname(SHARED), "ud")
KIT = os.path.join(ROOT, "starting_kit")

#: A treebank-like test file: a corpus's ids, a gold-derived tree and MISC, a multiword token, an empty node.
TREEBANK = """# newdoc id = corpus-doc-7
# source = The Gothic Bible, John 6
# text = jah izwara ains, ist
# sent_id = 62923
1\tjah\t_\t_\t_\t_\t3\tcc\t_\tref=JOHN_6.70
2-3\tizwaraains\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
2\tizwara\t_\t_\t_\t_\t3\tnmod\t3:nmod\tref=JOHN_6.70|LId=1
3\tains\t_\t_\t_\t_\t0\troot\t0:root\tref=JOHN_6.70
3.1\tist\t_\t_\t_\t_\t_\t_\t3:conj\t_
4\t,\t_\t_\t_\t_\t3\tpunct\t_\tSpaceAfter=No|ref=JOHN_6.70
5\tist\t_\t_\t_\t_\t3\tconj\t_\tref=JOHN_6.70

# text = witoþ
1\twitoþ\t_\t_\t_\t_\t0\troot\t_\t_
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with io.open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def conllu_rows(text):
    """``[(comments, rows)]`` of a CoNLL-U text: comment lines and word lines (lists of columns) per sentence."""
    sentences = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        sentences.append(([line for line in lines if line.startswith("#")],
                          [line.split("\t") for line in lines if not line.startswith("#")]))
    return sentences


def test_a_treebank_test_file_keeps_the_input_only():
    released = CONLLU_INPUT.released(TREEBANK.encode("utf-8"), "morphology/test/got_test.conllu").decode("utf-8")
    (comments, rows), (comments2, rows2) = conllu_rows(released)
    assert comments == ["# sent_id = got_test-1", "# text = jah izwara ains, ist"]
    assert comments2 == ["# sent_id = got_test-2", "# text = witoþ"]
    assert [row[:2] for row in rows] == [["1", "jah"], ["2-3", "izwaraains"], ["2", "izwara"], ["3", "ains"],
                                         ["4", ","], ["5", "ist"]]       # the range kept, the empty node dropped
    assert all(len(row) == len(CONLLU_COLUMNS) for row in rows + rows2)
    assert [row[9] for row in rows] == ["_", "SpaceAfter=No", "_", "_", "SpaceAfter=No", "_"]
    assert all(cell == "_" for row in rows + rows2 for cell in row[2:9])
    assert "62923" not in released and "JOHN" not in released and "Bible" not in released and "LId" not in released
    assert CONLLU_INPUT.beyond(released.encode("utf-8"), "got_test.conllu") == []


def test_beyond_names_what_a_treebank_test_file_holds():
    found = CONLLU_INPUT.beyond(TREEBANK.encode("utf-8"), "got_test.conllu")
    assert found == ["`# newdoc id` lines (1, first at line 1)", "`# source` lines (1, first at line 2)",
                     "`# sent_id` other than the kit's own (1, first at line 4)",
                     "HEAD values (not `_`) (6, first at line 5)", "DEPREL values (not `_`) (6, first at line 5)",
                     "MISC `ref` (5, first at line 5)", "DEPS values (not `_`) (2, first at line 7)",
                     "MISC `LId` (1, first at line 7)", "empty nodes (1, first at line 9)"]


def test_a_kind_may_declare_more_of_the_conllu_input():
    given = ConlluInput(columns=("ID", "FORM", "UPOS"), comments=("text", "newdoc id"), misc=(), own_ids=False)
    released = given.released(TREEBANK.encode("utf-8"), "x.conllu").decode("utf-8")
    assert released.startswith("# newdoc id = corpus-doc-7\n# text = jah izwara ains, ist\n1\tjah\t_\t_")
    assert "SpaceAfter" not in released and "sent_id" not in released
    assert given.beyond(released.encode("utf-8"), "x.conllu") == []
    assert given.beyond(TREEBANK.encode("utf-8"), "x.conllu")[:2] == ["`# source` lines (1, first at line 2)",
                                                                     "`# sent_id` lines (1, first at line 4)"]
    with pytest.raises(ValueError, match="not CoNLL-U columns: GLOSS"):
        ConlluInput(columns=("ID", "FORM", "GLOSS"))


def test_every_kind_declares_what_a_participant_is_given():
    for name, kind in sorted(kindspec.KINDS.items()):    # the kit's own kinds: each declares its input
        given = kind.items.given
        assert isinstance(given, items_module.Given) and type(given) is not items_module.Given and given.what, name
    assert kindspec.KINDS["tagging"].items.given is CONLLU_INPUT
    assert kindspec.KINDS["morph"].items.given is CONLLU_INPUT

    class NoGiven(object):
        name = "no_given"
        items = type("Items", (), dict((part, lambda self: None) for part in kindspec.REQUIRED_ITEMS))()
    assert "items.given (an evalkit.items.Given: what a participant is given)" in kindspec.missing_parts(NoGiven())


@pytest.mark.parametrize("given, name, data, expected", [
    (TokenLines(), "test.conll", "# sent_enum = 1\nfriends\n\n# sent_enum = 2\nlike\tlang1\n", ["a column after"]),
    (TokenLines(), "test.conll", "# sent_enum = 1\tpositive\nfriends\n", ["a label on the `# sent_enum`"]),
    (TokenLines(), "test.conll", "# sent_enum = 41\nfriends\n", ["sentence numbers other than the kit's own"]),
    (TokenLines(), "test.conll", "# sent_enum = 1\n#\n#todos\n@user\n", []),
    (kindspec.KINDS["fill_mask"].items.given, "lat_test.tsv", "a [MASK] c\ta b c\n", ["more than 1 column"]),
    (kindspec.KINDS["choice"].items.given, "sets.jsonl", '{"id": "t-1", "sentences": ["a"], "gold": 0}\n',
     ["`gold`"]),
    (kindspec.KINDS["scate_spans"].items.given, "DOC.TimeNorm.gold.completed.xml", "<data><annotations/></data>",
     ["an XML file", "annotation markup"]),
])
def test_beyond_finds_gold_in_every_kind_of_input(given, name, data, expected):
    found = given.beyond(data.encode("utf-8"), name)
    assert [line.split(" (")[0][:len(start)] for line, start in zip(found, expected)] == expected
    assert len(found) == len(expected)


def write_sample_public(tmp_path, data=SAMPLE):
    """ST2024's public test input of ``data``, written by its reference builder into ``tmp_path/ref``."""
    from competitions.st2024 import reference
    build = reference.Build(data, None)
    out = str(tmp_path / "ref")
    reference.write_public(build, data, out)
    return out, build


def conllu_files(out):
    return sorted(glob.glob(os.path.join(out, "public", "test", "*", "morphology", "test", "*.conllu")))


def test_st2024_released_test_input_cannot_be_joined_back_by_id(tmp_path):
    """The sample's test CoNLL-U (a treebank's ids and tree, as the release has them) as released: no id of the
    release's, no ``# source``, no ``ref=``, HEAD, DEPREL and DEPS ``_``, the forms and ranges row by row."""
    out, _ = write_sample_public(tmp_path)
    files = conllu_files(out)
    assert len(files) == 13 + 13       # both subtasks
    for path in files:
        name = os.path.basename(path)
        original = open(os.path.join(SAMPLE, "morphology", "test", name), encoding="utf-8").read()
        released = open(path, encoding="utf-8").read()
        ids = set(line.split("=", 1)[1].strip() for line in original.split("\n") if line.startswith("# sent_id"))
        assert "# source" not in released and "ref=" not in released
        assert ids.isdisjoint(line.split("=", 1)[1].strip() for line in released.split("\n")
                              if line.startswith("# sent_id")), name
        assert all(row[6:9] == ["_", "_", "_"] for _, rows in conllu_rows(released) for row in rows), name
        # the forms, ranges and text are the original's, row by row
        assert [[row[:2] for row in rows if "." not in row[0]] for _, rows in conllu_rows(original)] == \
            [[row[:2] for row in rows] for _, rows in conllu_rows(released)]
        assert CONLLU_INPUT.beyond(released.encode("utf-8"), name) == []


def participant_data(folder, data, languages, test_members=None):
    """A release folder as a participant holds it: the train files of ``languages`` in ``data`` and their test
    input, the release's own test files or (``test_members``, ``{name: bytes}``) the kit's released ones."""
    for kind in ("morphology", "fill_mask_word", "fill_mask_char"):
        for split in ("train",) if test_members is not None else ("train", "test"):
            for path in glob.glob(os.path.join(data, kind, split, "*")):
                if os.path.basename(path).split("_")[0] in languages and os.path.isfile(path):
                    write(os.path.join(folder, kind, split, os.path.basename(path)),
                          io.open(path, encoding="utf-8").read())
    for name, value in (test_members or {}).items():
        if os.path.basename(name).split("_")[0] in languages:
            write(os.path.join(folder, *name.split("/")), value.decode("utf-8"))
    return folder


def kit_run(script, *args):
    """A starting kit script as participants run it (``python3 -I``); its exit status and output."""
    result = subprocess.run([sys.executable, "-I", os.path.join(KIT, script)] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    return result.returncode, result.stdout


def same_kit_results(tmp_path, data, subtask, languages, systems=("baseline", "floor")):
    """make_submission.py and validate.py give the same bytes and the same words on the release's test files and on
    the test input the reference builder releases for ``subtask`` (``languages`` only)."""
    from competitions.st2024 import reference
    members, problems = reference.public_test_members(data, subtask, languages)
    assert members and problems == []
    results = []
    for folder in (participant_data(str(tmp_path / "release"), data, languages),
                   participant_data(str(tmp_path / "released"), data, languages, members)):
        for system in systems:
            target = os.path.join(folder, "%s.zip" % system)
            status, text = kit_run("make_submission.py", "--data", folder, "--split", "test", "--subtask", subtask,
                                   "--system", system, "--out", target)
            assert status == 0, text
            with zipfile.ZipFile(target) as archive:
                members = dict((name, archive.read(name)) for name in sorted(archive.namelist()))
            status, said = kit_run("validate.py", target, "--data", folder, "--split", "test", "--subtask", subtask)
            results.append((system, members, status, said.replace(folder, "<data>")))
    half = len(results) // 2
    assert results[:half] == results[half:]
    return results[:half]


def test_st2024_kit_makes_and_validates_the_same_submission_from_the_released_input(tmp_path):
    results = same_kit_results(tmp_path, SAMPLE, "unconstrained", ("lat", "hbo", "cop", "sga", "ohu"))
    members = results[0][1]
    assert "pos_tagging/lat.json" in members and "fill_mask_char/sga.json" in members
    assert [status for _, _, status, _ in results] == [0, 0]


needs_release = pytest.mark.skipif(not os.path.isdir(os.path.join(SHARED, "morphology", "test")),
                                   reason="the ST2024 release is not at %s (set ST2024_SHARED)" % SHARED)


@needs_release
def test_release_test_input_has_no_tree_and_no_treebank_id(tmp_path):
    """On the real release: no HEAD, DEPREL or DEPS left, none of its 13 files' sentence ids, no ``# source``, no MISC
    but ``SpaceAfter=No``; with ../shared/ud, none of the UD treebanks' ``sent_id`` either."""
    from competitions.st2024 import reference
    members, problems = reference.public_test_members(SHARED, "constrained")
    assert problems == []
    ud_ids = set()
    for path in glob.glob(os.path.join(UD, "*", "*.conllu")):
        ud_ids.update(line.split("=", 1)[1].strip() for line in io.open(path, encoding="utf-8")
                      if line.startswith("# sent_id"))
    assert ud_ids or not os.path.isdir(UD)
    conllu = dict((name, data) for name, data in members.items() if name.endswith(".conllu"))
    assert len(conllu) == 13
    for name, data in sorted(conllu.items()):
        text = data.decode("utf-8")
        original = io.open(os.path.join(SHARED, name), encoding="utf-8").read()
        release_ids = set(line.split("=", 1)[1].strip() for line in original.split("\n")
                          if line.startswith("# sent_id"))
        ids = [line.split("=", 1)[1].strip() for line in text.split("\n") if line.startswith("# sent_id")]
        assert release_ids.isdisjoint(ids) and ud_ids.isdisjoint(ids), name
        assert not [line for line in text.split("\n") if line.startswith("#") and not line.startswith(
            ("# sent_id = ", "# text = "))], name
        rows = [row for _, rows in conllu_rows(text) for row in rows]
        assert rows and all(row[6:9] == ["_", "_", "_"] and row[9] in ("_", "SpaceAfter=No") for row in rows), name
        assert [[row[:2] for row in rows] for _, rows in conllu_rows(original)] == \
            [[row[:2] for row in rows] for _, rows in conllu_rows(text)], name


@needs_release
def test_release_kit_makes_the_same_submission_from_the_released_input(tmp_path):
    results = same_kit_results(tmp_path, SHARED, "constrained", ("got", "cop", "hbo"), ("baseline",))
    assert sorted(results[0][1]) == ["%s/%s.json" % (task, lang) for task in ("lemmatisation", "morph_features",
                                                                             "pos_tagging")
                                     for lang in ("cop", "got", "hbo")]


# --------------------------------------------------------------------------- every competition's test input

@pytest.mark.parametrize("cid", declarations.hosted_ids())
def test_every_competition_releases_the_input_only(cid, tmp_path):
    """Each competition's reference builder (on its sample) writes a test input in which no kind of the competition
    finds more than it gives; ``python -m organiser reference`` would have refused it otherwise."""
    ref, _ = build_competition(cid, tmp_path, baselines=False)
    files = [path for path in glob.glob(os.path.join(ref, "public", "test", "**", "*"), recursive=True)
             if os.path.isfile(path)]
    assert files
    assert builders.test_input_problems(declarations.Hosted(cid), ref) == []


@pytest.mark.parametrize("cid, name, text, expected", [
    ("st2024", "constrained/morphology/test/got_test.conllu", TREEBANK, "HEAD values (not `_`)"),
    ("lince", "lid_spa_eng/test.conll", "# sent_enum = 1\nfriends\tlang1\n", "a column after the token (a label)"),
    ("spanglisheval", "test/sets.jsonl", '{"id": "test-0001", "sentences": ["a", "b"], "gold_type": "cs"}\n',
     "`gold_type`"),
    ("scate", "text/te3-platinum/D/D.TimeNorm.gold.completed.xml", "<data><annotations></annotations></data>",
     "an XML file (annotations)"),
    ("lince", "lid_spa_eng/test.conllu", "1\tfriends\n", "no kind of the competition gives participants such a file"),
])
def test_test_input_problems_name_the_file_and_what_it_holds(cid, name, text, expected, tmp_path):
    write(str(tmp_path / "public" / "test" / name), text)
    problems = builders.test_input_problems(declarations.Hosted(cid), str(tmp_path))
    assert any(problem.startswith(os.path.join("public", "test", name) + ": " + expected) for problem in problems), \
        problems


def test_a_test_input_holding_more_than_the_input_fails_the_reference_build(tmp_path, monkeypatch, capsys):
    """A reference builder that writes a treebank's test file as it is: ``python -m organiser reference`` stops
    (exit 1) before the split, naming the file and what it holds."""
    out = str(tmp_path / "ref")

    class Builder(object):
        @staticmethod
        def main(argv):
            write(os.path.join(out, "public", "test", "unconstrained", "morphology", "test", "got_test.conllu"),
                  TREEBANK)
            return 0
    monkeypatch.setattr(builders, "load_builder", lambda hosted, command: Builder)
    assert builders.run("reference", ["--competition", "st2024", "--data", SAMPLE, "--out", out]) == 1
    error = capsys.readouterr().err
    assert "ERROR: the test input written for participants (%s) holds more than they are given" % os.path.join(
        out, "public", "test") in error
    assert "public/test/unconstrained/morphology/test/got_test.conllu: `# source` lines (1, first at line 2)" in error
    assert "got_test.conllu: DEPREL values (not `_`) (6, first at line 5)" in error
    assert not os.path.exists(os.path.join(out, "private"))


# --------------------------------------------------------------------------- a test gold for some languages only

COVERED = ("got", "lat")


@pytest.fixture(scope="module")
def partial_build(tmp_path_factory):
    """ST2024 built from its sample with a TEST_GOLD in the release layout that holds the gold of Gothic and Latin
    only, every other test file left as released (the release: the sample without its test gold)."""
    root = tmp_path_factory.mktemp("partial")
    data, gold = root / "release", root / "test_gold"
    for kind in ("morphology", "fill_mask_word", "fill_mask_char"):
        shutil.copytree(os.path.join(SAMPLE, kind), str(data / kind))
        shutil.copytree(os.path.join(SAMPLE, kind, "test"), str(gold / kind / "test"))
        for path in glob.glob(os.path.join(SAMPLE, "test_gold", kind, "test", "*")):
            if os.path.basename(path).split("_")[0] in COVERED:
                shutil.copyfile(path, str(gold / kind / "test" / os.path.basename(path)))
    ref, out = build_competition("st2024", root, data=str(data), test_gold=str(gold))
    return {"ref": ref, "out": out, "gold": str(gold), "data": str(data)}


def left_out(subtask):
    import st2024
    return [lang for lang in st2024.SUBTASKS[subtask]["languages"] if lang not in COVERED]


def test_partial_test_gold_covers_its_languages_only(partial_build):
    import st2024
    ref, out = partial_build["ref"], partial_build["out"]
    for folder in ("test", os.path.join("private", "test")):
        langs = set(os.path.basename(path)[:-len(".json")] for path in glob.glob(os.path.join(ref, folder, "*", "*.json")))
        assert langs == set(COVERED), folder
    assert len(glob.glob(os.path.join(ref, "dev", "*", "*.json"))) == 71          # the development phase is whole
    for subtask in st2024.SUBTASKS:
        with zipfile.ZipFile(os.path.join(out, "public_data", "%s-test.zip" % subtask)) as archive:
            assert set(os.path.basename(name).split("_")[0] for name in archive.namelist()) == set(COVERED)
        with zipfile.ZipFile(os.path.join(out, "reference", "%s-test.zip" % subtask)) as archive:
            assert set(os.path.basename(name)[:-5] for name in archive.namelist() if "/" in name) == set(COVERED)


def test_partial_test_gold_names_the_languages_left_out(partial_build):
    """The build's report, its ORGANISERS.md, the test phase's description (both bundle formats) and the overview
    page name every language left out; the manifest lists them."""
    import st2024
    import yaml
    out = partial_build["out"]
    report = io.open(os.path.join(out, "data_quality.md"), encoding="utf-8").read()
    assert "The test gold holds gold for 2 of 16 languages: the test phase covers got, lat." in report
    assert "LEFT OUT of the test phase (no test gold; not scored, no test input released): %s (test files without " \
           "gold in %s (as released))" % (", ".join(left_out("unconstrained")), partial_build["gold"]) in report
    assert report.count("| LEFT OUT: ") == 14 and "| Gothic | got | covered (5 files) |" in report
    organisers = io.open(os.path.join(out, "ORGANISERS.md"), encoding="utf-8").read()
    assert "LEFT OUT of the test phase (not scored; named in its description and on the pages): constrained: " \
           "%s; unconstrained: %s." % (", ".join(left_out("constrained")), ", ".join(left_out("unconstrained"))) \
        in organisers
    manifest = json.load(io.open(os.path.join(out, "build.json"), encoding="utf-8"))
    assert manifest["test_left_out"] == dict((subtask, left_out(subtask)) for subtask in st2024.SUBTASKS)
    for subtask in st2024.SUBTASKS:
        for suffix in ("", "-codabench"):
            with zipfile.ZipFile(os.path.join(out, "bundles", "st2024-%s%s.zip" % (subtask, suffix))) as archive:
                competition = yaml.safe_load(archive.read("competition.yaml"))
            phases = competition["phases"]
            phases = phases.values() if isinstance(phases, dict) else phases
            described = [" ".join(phase.get("description", "").split()) for phase in phases]
            sentence = "Not scored in this phase (no test gold for them): %s." % ", ".join(left_out(subtask))
            assert sum(sentence in text for text in described) == 1, (subtask, suffix)
        page = io.open(os.path.join(out, "pages", subtask, "overview.html"), encoding="utf-8").read()
        assert "<strong>Left out of the test phase</strong> (no test gold for them: not scored there): " \
               "Old Church Slavonic (<code>chu</code>)" in page
        assert page.count("<em>(left out of the test phase)</em>") == len(left_out(subtask))


def test_files_left_as_released_are_not_public_gold(partial_build):
    """The leak audit takes the covered languages' files for gold only: the others, left as released, are listed in
    the reference's test_gold_unused.json; without that list they would be public gold."""
    from organiser import audit
    manifest = json.load(io.open(os.path.join(partial_build["out"], "build.json"), encoding="utf-8"))
    unused = json.load(io.open(os.path.join(partial_build["ref"], audit.UNUSED_TEST_GOLD), encoding="utf-8"))
    assert len(unused) == 45 - 6 and not any(os.path.basename(path).split("_")[0] in COVERED for path in unused)
    assert audit.release_gold(manifest) == []
    manifest["reference"] = partial_build["out"]      # a folder without the list
    found = audit.release_gold(manifest)
    assert len(found) == 1 and "39 file(s) of the test gold are files of the release" in found[0].text
