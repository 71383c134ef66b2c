"""Bundle builder (organiser/bundle.py) and the embeddings scoring program, on small fake trees.

The helpers at the top (fake release data, fake reference trees, a built pair of bundles) are also used
by test_check.py and test_pages.py.
"""
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
import yaml

from conftest import ROOT, load_by_path
import st2024
from evalkit import keys
from organiser import bundle, check, declarations, pages
from organiser import schedule as schedule_module

EMBEDDINGS_PROGRAM = os.path.join(ROOT, "embeddings_scoring_program")


# --------------------------------------------------------------------------- fake trees

CONLLU = (
    "# text = aa bb\n"
    "1\taa\ta\tNOUN\t_\tCase=Nom\t0\troot\t_\t_\n"
    "2-3\tbb\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tb\tb\tADP\t_\t_\t1\tcase\t_\t_\n"
    "3\tc\tc\tDET\t_\t_\t1\tdet\t_\t_\n"
    "3.1\tx\tx\tX\t_\t_\t_\t_\t_\t_\n"
    "\n"
    "1\tdd\td\tVERB\t_\t_\t0\troot\t_\t_\n"
    "\n"
)


def write(path, text):
    """Write UTF-8 text, creating folders."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def make_data(root):
    """A tiny release-layout tree: a few CoNLL-U and TSV files, Sanskrit under its ``sanv_`` alias."""
    write(os.path.join(root, "morphology", "valid", "lat_valid.conllu"), CONLLU)
    write(os.path.join(root, "morphology", "train", "sanv_train.conllu"), CONLLU)
    write(os.path.join(root, "fill_mask_word", "valid", "sga_valid.tsv"),
          "masked\tsrc\nab [MASK] cd\tab xy cd\n^quoted\tcell^ [MASK]\t^quoted\tcell^ z\n")
    write(os.path.join(root, "fill_mask_word", "test", "sga_test.tsv"), "ab [MASK] cd\nef gh\n")
    write(os.path.join(root, "fill_mask_word", "valid", "lzh_valid.tsv"), "masked\tsrc\n子[MASK]\t子曰\n")
    return root


def reference_item(task, phase="dev"):
    """One reference file's content for ``task`` (two tiny sentences; the test phase's are other sentences than the
    development phase's, as in a release: the leak audit takes a test reference that repeats the development gold
    for a copy of it)."""
    a, b, d, e = ("a", "b", "d", "e") if phase == "dev" else ("ta", "tb", "td", "te")
    if task.kind == "fill_mask":
        marker = task.mask_marker
        return [{"masked": "%s %s c" % (a, marker), "text": "%s %s c" % (a, b), "masked_tokens": [b]},
                {"masked": "%s %s" % (d, e), "text": "%s %s" % (d, e), "masked_tokens": []}]
    if task.kind == "morph":
        return [[{"Token": a, "UPOS": "NOUN", "Case": "Nom"}, {"Token": b, "UPOS": "VERB"}]]
    if task.kind == "candidates":
        return [[[a, a], [b, b + "e"]]]
    return [[[a, "NOUN"], [b, "VERB"]]]


def make_reference(root, phases=("dev",)):
    """reference_data/<phase>/<task>/<lang>.json for every pair of the unconstrained subtask."""
    for phase in phases:
        for task, lang in bundle.subtask_pairs(st2024, "unconstrained"):
            write(os.path.join(root, phase, task.folder, lang + ".json"), json.dumps(reference_item(task, phase)))
        write(os.path.join(root, phase, "excluded.json"), "[]")
    return root


def make_kit(root):
    """A starting kit folder with a README holding the baseline marker."""
    write(os.path.join(root, "README.md"), "# Kit\n\nBaselines:\n\n%s\nEnd.\n" % bundle.BASELINE_MARKER)
    write(os.path.join(root, "validate.py"), "print('ok')\n")
    os.makedirs(os.path.join(root, "__pycache__"), exist_ok=True)
    write(os.path.join(root, "__pycache__", "junk.pyc"), "x")
    return root


def make_public(reference, data):
    """``<reference>/public/test/<subtask>/``: each subtask's public test input, as ST2024's reference builder writes
    it (competitions/st2024/reference.py)."""
    from competitions.st2024 import reference as st2024_reference
    for subtask in st2024.SUBTASKS:
        members, _ = st2024_reference.public_test_members(data, subtask)
        for name, value in members.items():
            write(os.path.join(reference, "public", "test", subtask, *name.split("/")), value.decode("utf-8"))
    return reference


def build_tree(base, phases=("dev",), table=True):
    """Fake data, reference (with the public test input) and (optionally) baseline tables under ``base``; return
    the bundle argv (the competition's own starting kit goes into the kit)."""
    base = str(base)
    data = make_data(os.path.join(base, "data"))
    reference = make_public(make_reference(os.path.join(base, "reference_data"), phases), data)
    out = os.path.join(base, "dist")
    if table:
        write(os.path.join(out, "baselines", "table.md"), "| system | avg |\n|---|---|\n| baseline | 0.5 |\n")
        write(os.path.join(out, "baselines", "table.html"),
              "<table class=\"baselines\"><tr><td>baseline</td><td>0.5</td></tr></table>")
        for subtask in st2024.SUBTASKS:
            write(os.path.join(out, "baselines", "table-%s.html" % subtask),
                  "<table class=\"baselines\"><tr><td>%s baseline</td><td>0.5</td></tr></table>" % subtask)
    return ["--competition", "st2024", "--data", data, "--reference", reference, "--out", out]


def run_bundle(base, phases=("dev",), table=True):
    """Build the bundles under ``base``; return the dist folder."""
    argv = build_tree(base, phases, table)
    assert bundle.main(argv) == 0
    return argv[argv.index("--out") + 1]


def read_zip(path_or_bytes):
    """``{name: bytes}`` in archive order."""
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    with zipfile.ZipFile(source) as archive:
        return dict((info.filename, archive.read(info.filename)) for info in archive.infolist())


def competition_of(bundle_path):
    """The parsed competition.yaml of a bundle."""
    return yaml.safe_load(read_zip(bundle_path)["competition.yaml"])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Bundles with development and test phases, built once for this module."""
    return run_bundle(tmp_path_factory.mktemp("full"), phases=("dev", "test"))


# --------------------------------------------------------------------------- source and declarations

def test_source_yaml_is_the_unconstrained_declaration():
    source = bundle.load_competition()
    assert source["title"] == st2024.SUBTASKS["unconstrained"]["title"]
    assert "columns" not in source["leaderboard"], "columns are generated, never written by hand"
    assert [bundle.phase_reference(p) for p in source["phases"].values()] == ["dev", "test"]


def columns_of(subtask):
    """The (key, label) leaderboard columns the bundle builder derives for ``subtask`` of ST2024."""
    return bundle.declared_columns(st2024, st2024.SUBTASKS[subtask]["languages"],
                                   bundle.subtask_pairs(st2024, subtask))


def test_leaderboard_columns_come_from_the_scorer_declaration():
    for subtask in st2024.SUBTASKS:
        declaration = st2024.SUBTASKS[subtask]
        tasks = [st2024.TASKS_BY_FOLDER[f] for f in declaration["tasks"]]
        pairs = [(t, l) for t in tasks for l in declaration["languages"] if l in t.languages]
        assert bundle.subtask_pairs(st2024, subtask) == pairs
        assert columns_of(subtask) == keys.leaderboard_columns(st2024.TASKS, declaration["languages"], pairs)
        assert check.subtask_columns(subtask, st2024) == [k for k, _ in columns_of(subtask)]
    constrained = [k for k, _ in columns_of("constrained")]
    assert constrained[0] == "avg_score" and "avg_fill_mask_word" not in constrained
    assert len(constrained) == 1 + 3 + 13 + 3 * 13
    unconstrained = [k for k, _ in columns_of("unconstrained")]
    assert "sga_fill_mask_char" in unconstrained and "sga_pos" not in unconstrained


def test_dates_are_quoted_instants_from_the_schedule_and_the_leaderboard_is_an_anchor(tmp_path):
    # Dates are quoted "YYYY-MM-DD HH:MM:SS" strings (an unquoted YAML datetime loses its time on Codabench).
    schedule = schedule_module.load()
    hosted = declarations.Hosted("st2024")
    states = bundle.PhaseStates(make_reference(str(tmp_path), ("dev", "test")), hosted)
    assert (states.state("dev"), states.state("test")) == ("public", "real")
    competition = bundle.derive_competition(hosted, bundle.load_competition(), "unconstrained", states, schedule)
    text = bundle.dump_yaml(competition)
    for name in ("dev", "test"):
        assert "start_date: '%s'\n" % schedule_module.platform_text(schedule.window(name).opens) in text
    assert "end_date: '%s'\n" % schedule_module.platform_text(schedule.window("test").closes) in text
    assert "Results: &" in text and "leaderboard: *" in text
    assert "version" not in yaml.safe_load(text)


def test_no_date_in_the_source_yaml_nor_in_python():
    source = bundle.load_competition()
    assert "end_date" not in source
    assert not any("start_date" in phase for phase in source["phases"].values())
    assert not any("start_date" in extra["phase"] for subtask in declarations.load().SUBTASKS
                   for extra in declarations.extra_phases(subtask))


# --------------------------------------------------------------------------- built bundles

def test_outputs_exist(built):
    for name in ("bundles/st2024-unconstrained.zip", "bundles/st2024-constrained.zip", "starting_kit.zip",
                 "bundles/st2024-unconstrained-codabench.zip", "bundles/st2024-constrained-codabench.zip",
                 "public_data/unconstrained-test.zip", "build.json",
                 "reference/unconstrained-dev.zip", "reference/unconstrained-test.zip",
                 "reference/constrained-dev.zip", "reference/constrained-test.zip",
                 "reference/constrained-embeddings.zip", "pages/unconstrained/overview.html",
                 "pages/constrained/timeline.html"):
        assert os.path.isfile(os.path.join(built, name)), name


def split_notes(failures):
    """``(failures that fail the check, the notes printed as warnings: rule, where)``."""
    return ([f for f in failures if not check.is_note(f)],
            [(f.rule, f.where) for f in failures if check.is_note(f)])


#: The one note of every bundle: the test input is written apart and attached when the test phase opens.
TEST_INPUT_NOTE = ("phase.test-input", "phases.2.public_data")


def test_bundles_pass_every_static_rule(built):
    for subtask in st2024.SUBTASKS:
        failures, competition, _ = check.check_bundle(os.path.join(built, "bundles", "st2024-%s.zip" % subtask))
        assert split_notes(failures) == ([], [TEST_INPUT_NOTE])
        assert competition["title"] == st2024.SUBTASKS[subtask]["title"]


def test_bundle_layout(built):
    members = read_zip(os.path.join(built, "bundles", "st2024-unconstrained.zip"))
    names = list(members)
    assert names[0] == "competition.yaml" and names[1:] == sorted(names[1:])
    assert not any("/" in name for name in names), "no folders: nested zips and pages at the root"
    competition = yaml.safe_load(members["competition.yaml"])
    for phase in competition["phases"].values():
        for key in ("scoring_program", "reference_data", "starting_kit"):
            zipfile.ZipFile(io.BytesIO(members[phase[key]])).testzip()
    # The test input is written apart: the test phase's public data is the placeholder until the phase opens.
    test = [p for p in competition["phases"].values() if bundle.phase_reference(p) == "test"]
    assert [p.get("public_data") for p in test] == [bundle.PUBLIC_DATA_MEMBER]
    assert bundle.is_pending_public(list(read_zip(members[bundle.PUBLIC_DATA_MEMBER])))
    public = read_zip(os.path.join(built, "public_data", "unconstrained-test.zip"))
    assert list(public) == ["fill_mask_word/test/sga_test.tsv"]
    assert not any(value == public["fill_mask_word/test/sga_test.tsv"] for value in members.values())
    program = read_zip(members["scoring_program.zip"])
    assert "metadata" in program and "evaluate.py" in program and "st2024.py" in program
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in program)
    assert members["logo.png"].startswith(b"\x89PNG")


def test_phases_with_and_without_test_gold(built, tmp_path, capsys):
    # Labels follow what participants were told: the constrained subtask's Phase 1 (predictions) and Phase 2.
    full = {s: competition_of(os.path.join(built, "bundles", "st2024-%s.zip" % s)) for s in st2024.SUBTASKS}
    assert [p["label"] for p in full["unconstrained"]["phases"].values()] == ["Development", "Test"]
    assert [p["label"] for p in full["constrained"]["phases"].values()] == [
        "Phase 1: development", "Phase 1: test", "Phase 2: embeddings"]
    dist = run_bundle(tmp_path)
    err = capsys.readouterr().err
    assert "NO TEST GOLD" in err and "PLACEHOLDER" in err
    # Without test gold the test phase still exists (all dates final), with a placeholder reference.
    dev = {s: competition_of(os.path.join(dist, "bundles", "st2024-%s.zip" % s)) for s in st2024.SUBTASKS}
    assert [p["label"] for p in dev["constrained"]["phases"].values()] == [
        "Phase 1: development", "Phase 1: test", "Phase 2: embeddings"]
    members = read_zip(os.path.join(dist, "bundles", "st2024-unconstrained.zip"))
    assert list(read_zip(members["reference_data_test.zip"])) == [bundle.PENDING_REFERENCE_FILE]
    assert not os.path.exists(os.path.join(dist, "reference", "unconstrained-test.zip"))
    manifest = json.load(open(os.path.join(dist, "build.json")))
    assert manifest["test_reference_pending"] is True and manifest["test_state"] == "pending"


def test_references_hold_exactly_the_subtask_pairs(built):
    for subtask in st2024.SUBTASKS:
        for phase, gold in (("dev", "public"), ("test", "hidden")):
            members = read_zip(os.path.join(built, "reference", "%s-%s.zip" % (subtask, phase)))
            expected = set("%s/%s.json" % (t.folder, l) for t, l in bundle.subtask_pairs(st2024, subtask))
            assert set(members) == expected | {bundle.PHASE_FILE}
            assert json.loads(members[bundle.PHASE_FILE].decode("utf-8")) == {"phase": phase, "gold": gold}
    constrained = read_zip(os.path.join(built, "reference", "constrained-test.zip"))
    assert not any(name.startswith("fill_mask") for name in constrained)
    assert not any(name.endswith(("/sga.json", "/mga.json", "/ghc.json")) for name in constrained)
    embeddings = json.loads(read_zip(os.path.join(built, "reference", "constrained-embeddings.zip"))["embeddings.json"])
    assert [lang["code"] for lang in embeddings["languages"]] == list(st2024.UD_LANGUAGES)
    assert embeddings["columns"] == check.subtask_columns("constrained", st2024)


def test_missing_reference_files_are_reported(tmp_path, capsys):
    argv = build_tree(tmp_path)
    os.remove(os.path.join(argv[argv.index("--reference") + 1], "dev", "pos_tagging", "lat.json"))
    assert bundle.main(argv) == 0
    assert "pos_tagging/lat.json" in capsys.readouterr().err


def test_no_reference_at_all_fails(tmp_path, capsys):
    argv = build_tree(tmp_path)
    shutil.rmtree(argv[argv.index("--reference") + 1])
    assert bundle.main(argv) == 1
    assert "no development reference data" in capsys.readouterr().err


def test_rebuilding_gives_identical_bytes(built, tmp_path):
    again = run_bundle(tmp_path, phases=("dev", "test"))
    for name in ("bundles/st2024-unconstrained.zip", "bundles/st2024-constrained.zip", "starting_kit.zip",
                 "bundles/st2024-unconstrained-codabench.zip", "bundles/st2024-constrained-codabench.zip",
                 "public_data/unconstrained-test.zip",
                 "reference/constrained-test.zip"):
        with open(os.path.join(built, name), "rb") as first, open(os.path.join(again, name), "rb") as second:
            assert first.read() == second.read(), name


def test_zips_have_fixed_timestamps():
    data = bundle.zip_bytes({"b.txt": b"2", "competition.yaml": b"x: 1", "a.zip": b"z"})
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == ["competition.yaml", "a.zip", "b.txt"]
    assert all(i.date_time == bundle.ZIP_DATE for i in infos)
    assert infos[1].compress_type == zipfile.ZIP_STORED


def test_starting_kit(built):
    members = read_zip(os.path.join(built, "starting_kit.zip"))
    top = "st2024-starting-kit/"
    assert top + "validate.py" in members
    assert top + "scoring_program/evaluate.py" in members and top + "scoring_program/evalkit/keys.py" in members
    assert not any(".pyc" in name or "__pycache__" in name for name in members)
    readme = members[top + "README.md"].decode("utf-8")
    assert "| baseline | 0.5 |" in readme and bundle.BASELINE_MARKER not in readme
    # The development reference (its gold is public, its reports show everything); nothing of the test phase.
    assert json.loads(members[top + "reference_data/dev/" + bundle.PHASE_FILE].decode("utf-8")) == {
        "phase": "dev", "gold": "public"}
    assert top + "reference_data/dev/pos_tagging/lat.json" in members
    assert not any(name.startswith((top + "reference_data/test", top + "data/")) for name in members)


def test_readme_without_marker_gets_the_table_appended():
    text = bundle.readme_with_table("# Kit\n", "| a |\n")
    assert text.endswith("## Baseline scores\n\n| a |\n")


def test_pages_are_in_the_bundle_and_dist(built):
    members = read_zip(os.path.join(built, "bundles", "st2024-constrained.zip"))
    with open(os.path.join(built, "pages", "constrained", "evaluation.html"), "rb") as handle:
        assert handle.read() == members["evaluation.html"]
    assert b"class=\"baselines\"" in members["evaluation.html"]
    assert b"Phase 2: embeddings" in members["evaluation.html"]


# --------------------------------------------------------------------------- embeddings scoring program

def embeddings_run(tmp_path, files, languages=("chu", "cop"), prefix="embeddings/"):
    """Run the embeddings scorer on ``files`` ({name: bytes}); return (exit status, scores, html, stdout)."""
    ref = tmp_path / "input" / "ref"
    ref.mkdir(parents=True)
    columns = ["avg_score", "avg_pos"] + ["%s_avg_score" % l for l in languages] + ["%s_pos" % l for l in languages]
    (ref / "embeddings.json").write_text(json.dumps({
        "languages": [{"code": l, "name": st2024.LANGUAGES[l][0]} for l in languages], "columns": columns,
        "language_columns": {l: "%s_avg_score" % l for l in languages}}), encoding="utf-8")
    res = tmp_path / "input" / "res"
    res.mkdir()
    for name, data in files.items():
        path = res / (prefix + name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    out = tmp_path / "output"
    process = subprocess.run([sys.executable, "-I", "-S", os.path.join(EMBEDDINGS_PROGRAM, "score.py"),
                              str(tmp_path / "input"), str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=str(tmp_path))
    scores = {}
    if (out / "scores.txt").exists():
        scores = check.parse_scores((out / "scores.txt").read_text(encoding="utf-8"))
    html_text = (out / "detailed_results.html").read_text(encoding="utf-8") if (out / "detailed_results.html").exists() else ""
    return process.returncode, scores, html_text, process.stdout.decode("utf-8")


GOOD = {"load_embeddings.py": b"import numpy\n\ndef load_model(path):\n    return numpy.load(path)\n",
        "requirements.txt": b"numpy\n", "metadata.txt": b"Team X, fastText, 300 dimensions\n",
        "chu.bin": b"\x01", "cop.bin": b"\x02"}


def test_embeddings_complete_layout_scores_one(tmp_path):
    status, scores, html_text, _ = embeddings_run(tmp_path, GOOD)
    assert status == 0
    assert scores["avg_score"] == 1.0 and scores["chu_avg_score"] == 1.0 and scores["avg_pos"] == 0.0
    assert "chu_pos" in scores and "2 of 2" in html_text


def test_embeddings_share_of_languages(tmp_path):
    files = dict(GOOD)
    del files["cop.bin"]
    files["sanv.bin"] = b"x"
    status, scores, html_text, out = embeddings_run(tmp_path, files)
    assert status == 0 and scores["avg_score"] == 0.5 and scores["cop_avg_score"] == 0.0
    assert "sanv.bin" in out


@pytest.mark.parametrize("change, message", [
    ({"load_embeddings.py": b"def other():\n    pass\n"}, "does not define"),
    ({"load_embeddings.py": b"def load_model(:\n"}, "does not parse"),
    ({"metadata.txt": b"  \n"}, "metadata.txt is empty"),
    ({"requirements.txt": None}, "requirements.txt is missing"),
    ({"load_embeddings.py": None}, "load_embeddings.py is missing"),
])
def test_embeddings_incomplete_layout_scores_zero(tmp_path, change, message):
    files = dict(GOOD)
    for name, value in change.items():
        if value is None:
            del files[name]
        else:
            files[name] = value
    status, scores, _, out = embeddings_run(tmp_path, files)
    assert status == 0 and scores["avg_score"] == 0.0 and scores["embeddings_coverage"] == 1.0
    assert message in out


def test_embeddings_accepts_other_spellings_of_load_model():
    embeddings_score = load_by_path("st2024_embeddings_score", os.path.join(EMBEDDINGS_PROGRAM, "score.py"))
    for source in ("from mylib import loader as load_model\n", "load_model = lambda p: p\n",
                   "async def load_model(p):\n    return p\n", "def load_model(p):\n    pass\n"):
        assert embeddings_score.defines_function(source, "load_model")[0], source
    assert not embeddings_score.defines_function("def f():\n    def load_model(): pass\n", "load_model")[0]


def test_embeddings_never_runs_participant_code_and_escapes_strings(tmp_path):
    marker = tmp_path / "executed"
    files = dict(GOOD)
    files["load_embeddings.py"] = ("open(%r, 'w').write('x')\ndef load_model(p):\n    return p\n"
                                   % str(marker)).encode()
    files["<script>alert(1)</script>.txt"] = b"x"
    status, scores, html_text, _ = embeddings_run(tmp_path, files, prefix="")
    assert status == 0 and scores["avg_score"] == 1.0
    assert not marker.exists()
    assert "<script>" not in html_text and "&lt;script&gt;" in html_text


def test_embeddings_nothing_submitted_fails_with_a_message(tmp_path):
    status, scores, _, out = embeddings_run(tmp_path, {"notes.txt": b"hello"})
    assert status == 1 and scores["avg_score"] == 0.0 and "load_embeddings.py" in out


def test_embeddings_program_is_python37_stdlib():
    vermin = shutil.which("vermin") or os.path.join(os.path.dirname(sys.executable), "vermin")
    if not os.path.exists(vermin):
        pytest.skip("vermin not installed")
    process = subprocess.run([vermin, "-t=3.7-", "--no-tips", "--violations", EMBEDDINGS_PROGRAM],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.returncode == 0, process.stdout.decode()
    with open(os.path.join(EMBEDDINGS_PROGRAM, "metadata"), encoding="utf-8") as handle:
        assert yaml.safe_load(handle)["command"] == "python3 $program/score.py $input $output"


def test_starting_kit_carries_the_baseline_scores_of_the_dev_phase(tmp_path):
    import copy
    subtask = next(iter(declarations.load().SUBTASKS))
    baselines = tmp_path / "baselines"
    baselines.mkdir()
    (baselines / ("scores-baseline-%s-valid.json" % subtask)).write_text(json.dumps({"scores": {"avg_score": 0.5}}))
    member = bundle.baseline_member(str(baselines), subtask, "dev")
    assert json.loads(member["baseline_scores.json"].decode("utf-8"))["scores"] == {"avg_score": 0.5}
    assert bundle.baseline_member(str(baselines), subtask, "test") == {}   # no test-split scores written
    (tmp_path / "ref" / "dev" / "pos_tagging").mkdir(parents=True)
    (tmp_path / "ref" / "dev" / "pos_tagging" / "lat.json").write_text("[]")
    (tmp_path / "ref" / "public" / "test").mkdir(parents=True)
    (tmp_path / "ref" / "public" / "test" / "input.txt").write_text("ZQX test input 93")
    hosted = copy.copy(declarations.Hosted("st2024"))
    hosted.starting_kit = make_kit(str(tmp_path / "kit"))
    members = bundle.starting_kit_members(hosted, "| a |", reference_dir=str(tmp_path / "ref"), baseline=member,
                                          data={"dev.txt": b"dev input"})
    top = "st2024-starting-kit/"
    assert members[top + "reference_data/dev/baseline_scores.json"] == member["baseline_scores.json"]
    assert top + "reference_data/dev/pos_tagging/lat.json" in members
    assert json.loads(members[top + "reference_data/dev/phase.json"].decode("utf-8"))["gold"] == "public"
    assert members[top + "data/dev.txt"] == b"dev input" and top + "validate.py" in members
    assert members[top + "README.md"].decode("utf-8") == "# Kit\n\nBaselines:\n\n| a |\n\nEnd.\n"
    assert top + "scoring_program/evaluate.py" in members and top + "scoring_program/st2024.py" in members
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in members)
    assert not any(b"ZQX test input 93" in value for value in members.values())
