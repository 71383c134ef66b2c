"""The starting kit's validator (starting_kit/validate.py): its small standard-library readers agree
with ST2024's release reader (competitions/st2024/st2024_release.py); its gold-less public reference; and, through the scoring program's own
checks, it accepts the baseline submissions and rejects corrupted copies with the right message
(a missing file, a sentence dropped, a token dropped, four candidates), warns about a wrapped
folder exactly as the scorer does, and skips the sentences of excluded.json."""
import glob
import json
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, SCORING_PROGRAM, SHARED, needs_shared
from test_baselines import SAMPLE, needs_sample, sample_run, shared_run  # noqa: F401  (fixtures)

sys.path.insert(0, os.path.join(ROOT, "starting_kit"))
import validate as V  # noqa: E402
import st2024  # noqa: E402
from evalkit import blank  # noqa: E402
from competitions.st2024 import reference as _reference  # noqa: E402
release = _reference.release

VALIDATE = os.path.join(ROOT, "starting_kit", "validate.py")
TASK = st2024.TASKS_BY_FOLDER


def run_validator(*args):
    """``python3 -I -S validate.py ...`` (standard library only, as participants run it)."""
    result = subprocess.run([sys.executable, "-I", "-S", VALIDATE] + [str(a) for a in args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return result.returncode, result.stdout + result.stderr


def rewrite_zip(source, target, edit):
    """Copy zip ``source`` to ``target``; ``edit(files)`` changes ``{name: parsed JSON}`` in place
    (deleting a key drops the file)."""
    with zipfile.ZipFile(source) as archive:
        files = dict((name, json.loads(archive.read(name).decode("utf-8"))) for name in archive.namelist())
    edit(files)
    with zipfile.ZipFile(target, "w") as archive:
        for name, value in files.items():
            archive.writestr(name, json.dumps(value, ensure_ascii=False))
    return target


def wrap_zip(source, target, folder="my_submission"):
    """Copy zip ``source`` with every member inside ``folder/`` (the commonest zipping mistake)."""
    with zipfile.ZipFile(source) as archive, zipfile.ZipFile(target, "w") as out:
        for name in archive.namelist():
            out.writestr(folder + "/" + name, archive.read(name))
    return target


def corruptions(files):
    """Drop a POS file, a lemma sentence, a morphology token and give a gap four candidates;
    return the (file, text) each must be reported with."""
    pos = sorted(n for n in files if n.startswith("pos_tagging/"))[0]
    lemma = sorted(n for n in files if n.startswith("lemmatisation/"))[0]
    morph = sorted(n for n in files if n.startswith("morph_features/"))[0]
    gaps = sorted(n for n in files if n.startswith("fill_mask_word/"))[0]
    del files[pos]
    n_sentences = len(files[lemma])
    files[lemma].pop(1)
    si = next(i for i, s in enumerate(files[morph]) if len(s) > 1)
    n_tokens = len(files[morph][si])
    files[morph][si].pop(0)
    mi = next(i for i, s in enumerate(files[gaps]) if s["masked_tokens"])
    files[gaps][mi]["masked_tokens"][0] = ["a", "b", "c", "d"]
    return [("the submission as a whole", "expected files not submitted (each scores 0): %s" % pos),
            (lemma, "the file has %d sentences, the reference has %d" % (n_sentences - 1, n_sentences)),
            (morph, "sentence %d ($[%d]): %d tokens, the reference has %d" % (si + 1, si, n_tokens - 1, n_tokens)),
            (gaps, "sentence %d, mask 1" % (mi + 1)),
            (gaps, "4 candidates given; only the first 3 count")]


def sections(output):
    """``{file: [message lines]}`` of the validator's output (a heading, then indented lines)."""
    found, current = {}, None
    for line in output.splitlines():
        if line.startswith("  ") and current is not None:
            found[current].append(line.strip())
        elif line and not line.startswith(" "):
            current = line
            found.setdefault(current, [])
    return found


def assert_reported(output, expected):
    """Every (file, text) appears in the validator's output under that file's heading."""
    found = sections(output)
    for name, text in expected:
        assert any(text in line for line in found.get(name, [])), (name, text, output[:3000])


# --------------------------------------------------------------------------- readers

CONLLU = (
    "# text = a bc d\n"
    "1\ta\ta\tDET\t_\t_\t0\troot\t_\t_\n"
    "2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tb\tb\tNOUN\t_\tCase=Nom\t1\tdep\t_\t_\n"
    "3\tc\tc\tADP\t_\t_\t1\tdep\t_\t_\n"
    "3.1\tzz\tzz\tX\t_\t_\t_\t_\t_\t_\n"
    "4\td\td\tPUNCT\t_\t_\t1\tpunct\t_\t_\n"
    "\n"
    "1\te\te\tVERB\t_\t_\t0\troot\t_\t_\n")       # no comment, no final blank line


def test_read_conllu_ranges_kept_empty_nodes_dropped(tmp_path):
    path = tmp_path / "x.conllu"
    path.write_text(CONLLU, encoding="utf-8")
    forms = [[row[1] for row in sentence] for sentence in V.read_conllu(str(path))]
    assert forms == [["a", "bc", "b", "c", "d"], ["e"]]
    assert forms == [[r["form"] for r in s] for s in release.read_conllu(str(path))]


def test_read_tsv_header_quotes_and_long_lines(tmp_path):
    valid = tmp_path / "v.tsv"
    long_line = "x" * 200000
    valid.write_text("masked\tsrc\n^a\tb^\tab\n%s [MASK]\t%s y\n" % (long_line, long_line), encoding="utf-8")
    assert V.read_tsv(str(valid)) == [("a\tb", "ab"), (long_line + " [MASK]", long_line + " y")]
    assert V.read_tsv(str(valid)) == release.read_tsv(str(valid))
    test = tmp_path / "t.tsv"
    test.write_text("videte [MASK]\ntunc\n", encoding="utf-8")
    assert V.read_tsv(str(test)) == [("videte [MASK]", None), ("tunc", None)] == release.read_tsv(str(test))


def release_files(data_dir):
    return sorted(glob.glob(os.path.join(data_dir, "*", "*", "*.conllu")) +
                  glob.glob(os.path.join(data_dir, "*", "*", "*.tsv")))


def assert_readers_agree(data_dir):
    files = release_files(data_dir)
    assert files
    for path in files:
        if path.endswith(".tsv"):
            assert V.read_tsv(path) == release.read_tsv(path), path
        else:
            ours = [[(r[0], r[1]) for r in s] for s in V.read_conllu(path)]
            assert ours == [[(r["id"], r["form"]) for r in s] for s in release.read_conllu(path)], path


@needs_sample
def test_readers_agree_with_release_on_sample_data():
    assert_readers_agree(SAMPLE)


@needs_shared
def test_readers_agree_with_release_on_shared_data():
    assert_readers_agree(SHARED)


# --------------------------------------------------------------------------- public reference

def test_public_reference_has_forms_and_null_gold(tmp_path):
    """Forms and null labels; the input's multiword-token row (``2-3``) gets ``_``, its label in every release
    (public: the blank-rows check, evalkit/blank.py, then runs on the test split too)."""
    conllu = tmp_path / "morphology" / "valid" / "lat_valid.conllu"
    conllu.parent.mkdir(parents=True)
    conllu.write_text(CONLLU, encoding="utf-8")
    tsv = tmp_path / "fill_mask_char" / "valid" / "sanv_valid.tsv"       # the alias prefix
    tsv.parent.mkdir(parents=True)
    tsv.write_text("masked\tsrc\na[_]c[_]\tabcd\nxy\txy\nq[_]\tqr\n", encoding="utf-8")
    pairs = [(TASK["pos_tagging"], "lat"), (TASK["morph_features"], "lat"), (TASK["fill_mask_char"], "san"),
             (TASK["fill_mask_word"], "san")]
    out = tmp_path / "ref"
    written, missing = V.write_public_reference(st2024, str(tmp_path), "valid", pairs, str(out),
                                                {"fill_mask_char": {"san": {"2": "no reading"}}})
    assert len(written) == 3 and [(t.folder, l) for t, l, _ in missing] == [("fill_mask_word", "san")]
    pos = json.loads((out / "pos_tagging" / "lat.json").read_text(encoding="utf-8"))
    assert pos == [[["a", None], ["bc", "_"], ["b", None], ["c", None], ["d", None]], [["e", None]]]
    morph = json.loads((out / "morph_features" / "lat.json").read_text(encoding="utf-8"))
    assert morph[0][1] == {"Token": "bc"}
    gaps = json.loads((out / "fill_mask_char" / "san.json").read_text(encoding="utf-8"))
    assert gaps[0]["masked_tokens"] == [None, None] and gaps[1]["masked_tokens"] == []
    assert gaps[2]["masked_tokens"] is None and gaps[2]["excluded"] == "no reading"


def test_find_scorer_in_the_repository():
    assert V.find_scorer() == os.path.abspath(SCORING_PROGRAM)
    assert V.find_scorer("/nonexistent") is None


def test_missing_scorer_or_data_exit_2(tmp_path):
    status, output = run_validator(tmp_path, "--data", tmp_path / "nothing", "--split", "valid")
    assert status == 2 and "no release folder" in output
    status, output = run_validator(tmp_path, "--data", tmp_path, "--scorer", tmp_path)
    assert status == 2 and "scoring program was not found" in output


# --------------------------------------------------------------------------- on the sample data

def sample_zip(run, system="baseline", subtask="unconstrained", split="valid"):
    return os.path.join(run["out"], "submissions", "%s-%s-%s.zip" % (system, subtask, split))


@needs_sample
def test_sample_baseline_submissions_validate(sample_run):
    for subtask in st2024.SUBTASKS:
        for split in ("valid", "test"):
            status, output = run_validator(sample_zip(sample_run, "baseline", subtask, split), "--data", SAMPLE,
                                           "--split", split, "--subtask", subtask)
            assert status == 0, output
            assert "0 errors, 0 warnings, 0 files will score 0 -- ready to upload" in output


@needs_sample
def test_sample_corrupted_copy_is_rejected(sample_run, tmp_path):
    expected = []
    target = rewrite_zip(sample_zip(sample_run), tmp_path / "bad.zip", lambda f: expected.extend(corruptions(f)))
    status, output = run_validator(target, "--data", SAMPLE, "--split", "valid")
    assert status == 1
    assert_reported(output, expected)
    assert "2 errors, 2 warnings" in output and "1 warnings" not in output


@needs_sample
def test_sample_wrapped_folder_gets_the_scorers_warning(sample_run, tmp_path):
    wrapped = wrap_zip(sample_zip(sample_run), tmp_path / "wrapped.zip")
    status, output = run_validator(wrapped, "--data", SAMPLE, "--split", "valid")
    assert status == 0
    from evalkit import scoring
    report = scoring.evaluate(st2024, os.path.join(sample_run["ref"], "dev"), str(wrapped))
    layout = [m for m in report["messages"] if m["where"] == "layout"]
    assert len(layout) == 1 and layout[0]["severity"] == "warning"
    assert layout[0]["text"] in output and "my_submission/" in output


@needs_sample
def test_sample_nothing_recognisable_is_an_error(tmp_path):
    junk = tmp_path / "junk.zip"
    with zipfile.ZipFile(junk, "w") as archive:
        archive.writestr("POS_tagging/lat.json", "[]")
    status, output = run_validator(junk, "--data", SAMPLE, "--split", "valid")
    assert status == 1 and "no expected file" in output


@needs_sample
def test_sample_excluded_sentences_are_skipped(sample_run, tmp_path):
    def edit(files):
        files["fill_mask_word/lat.json"][0]["masked_tokens"] = [["x"]] * 9
    bad = rewrite_zip(sample_zip(sample_run), tmp_path / "bad.zip", edit)
    status, output = run_validator(bad, "--data", SAMPLE, "--split", "valid")
    assert status == 1 and "candidate lists, the reference has" in output
    excluded = tmp_path / "excluded.json"
    excluded.write_text(json.dumps({"fill_mask_word": {"lat": {"0": "no reading"}}}), encoding="utf-8")
    status, output = run_validator(bad, "--data", SAMPLE, "--split", "valid", "--excluded", excluded)
    assert status == 0, output


# --------------------------------------------------------------------------- on the shared release

@needs_shared
def test_shared_baseline_submissions_validate(shared_run):
    excluded = os.path.join(shared_run["ref"], "dev", "excluded.json")
    for system in ("baseline", "floor"):
        for subtask in st2024.SUBTASKS:
            for split in ("valid", "test"):
                messages, missing, expected, found = V.validate(
                    sample_zip(shared_run, system, subtask, split), SHARED, split, subtask,
                    excluded=excluded if split == "valid" else None)
                assert expected and found == expected, (expected, found)
                assert [m for m in messages if m["severity"] != "info" and not untrained_tags(m)
                        and not ranges_tagged(m) and not (system == "floor" and at_its_floor(m))] == [], messages[:5]


def at_its_floor(message):
    """Whether ``message`` says that a file scores at the floor: the floor submission's own files do, where the
    repository's development reference holds the floor of every file (``floor_scores.json``, built from it)."""
    return message["where"] == "whole file" and ", at the floor of this phase (" in message["text"]


def ranges_tagged(message):
    """Whether ``message`` says that multiword-token rows (gold ``_``) got a tag or a lemma (evalkit/blank.py): the
    published baselines tag a range row like any token where its form was seen as a word (and the floor gives it
    the majority tag), which costs them these rows; the warning is then true, and one per file."""
    return message["severity"] == "warning" and blank.MARK in message["text"]


def untrained_tags(message):
    """Whether ``message`` is the one message about what the baseline writes for a language whose training file the
    release lacks (make_submission.py says NO MODEL for it, and that the file will score 0): empty tags outside the
    tag set, or no candidate at all; where every item is so, an error that says the file scores 0 (issue 24); and the
    file at or below the floor, which for such a language is read from its input (issue 33, trial 6)."""
    folder, _, name = message["file"].partition("/")
    lang = name[:-len(".json")]
    task = st2024.TASKS_BY_FOLDER.get(folder)
    if task is None or V.find_input(SHARED, V.input_kind(task), "train", lang):
        return False
    if " the floor of this phase (" in message["text"] and message["where"] == "whole file":
        return True   # the floor of such a language is read from its input (issue 33): the empty baseline is below it
    if folder == "pos_tagging":
        return "tags are outside the task's tag set" in message["text"] and "'' (" in message["text"]
    return "has a candidate to match" in message["text"] and "this file scores 0" in message["text"]


WRONG_SPLIT = "these look like predictions for the test split: "


@needs_shared
def test_shared_test_predictions_checked_against_valid_are_recognised(shared_run, tmp_path):
    """Issue 9, point 2: test-split predictions against the valid input (validator) and against the
    development reference (scorer): one "these look like predictions for the test split" per file."""
    test_zip = sample_zip(shared_run, "baseline", "unconstrained", "test")
    with zipfile.ZipFile(test_zip) as archive:
        submitted = sorted(archive.namelist())
    status, output = run_validator(test_zip, "--data", SHARED, "--split", "valid")
    assert status == 1
    hinted = [line for line in output.splitlines() if WRONG_SPLIT in line]
    assert output.count(WRONG_SPLIT) == len(hinted)
    files = [line for line in output.splitlines() if line.endswith(".json")]
    assert "pos_tagging/chu.json" in files and "fill_mask_char/lzh.json" in files
    chu = output.split("pos_tagging/chu.json\n", 1)[1].splitlines()[0]
    assert chu == ("  error: " + WRONG_SPLIT + "16 of 16 sampled sentences have the test input's forms, not those of "
                   "the valid input this phase scores. Predict the valid split (make_submission.py --split valid), "
                   "or upload this file to the phase of the test split.")
    per_file = {}
    for line in output.splitlines():
        if line.endswith(".json"):
            current = line
        elif WRONG_SPLIT in line:
            per_file[current] = per_file.get(current, 0) + 1
    assert set(per_file.values()) == {1}
    both = [name for name in submitted if name in per_file]
    assert len(both) >= 40, (len(both), sorted(set(submitted) - set(per_file)))
    scored = subprocess.run([sys.executable, os.path.join(SCORING_PROGRAM, "evaluate.py"), "--ref",
                             os.path.join(shared_run["ref"], "dev"), "--submission", test_zip, "--out",
                             str(tmp_path / "scores")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    assert scored.returncode == 0, scored.stderr
    with open(str(tmp_path / "scores" / "detailed_results.json"), encoding="utf-8") as handle:
        report = json.load(handle)
    scorer_files = [m["file"] for m in report["messages"] if m["text"].startswith(WRONG_SPLIT)]
    assert len(scorer_files) == len(set(scorer_files)) and "pos_tagging/chu.json" in scorer_files
    valid_zip = sample_zip(shared_run, "baseline", "unconstrained", "valid")
    status, output = run_validator(valid_zip, "--data", SHARED, "--split", "valid")
    assert WRONG_SPLIT not in output and "these look like predictions" not in output


@needs_shared
def test_shared_corrupted_copy_and_wrapped_folder(shared_run, tmp_path):
    expected = []
    target = rewrite_zip(sample_zip(shared_run), tmp_path / "bad.zip", lambda f: expected.extend(corruptions(f)))
    status, output = run_validator(target, "--data", SHARED, "--split", "valid",
                                   "--excluded", os.path.join(shared_run["ref"], "dev", "excluded.json"))
    assert status == 1
    assert_reported(output, expected)
    wrapped = wrap_zip(sample_zip(shared_run, split="test"), tmp_path / "wrapped.zip")
    status, output = run_validator(wrapped, "--data", SHARED, "--split", "test")
    # the baseline writes empty labels for a language without a train file (NO MODEL): files known to score 0,
    # counted in the summary line, and the validator does not exit 0 for them (issue 24, class 4)
    assert "the task folders are inside the folder 'my_submission/'" in output
    assert status == (0 if " 0 files will score 0" in output else 1), output


@needs_sample
def test_shipped_sample_submission_matches_the_sample_data():
    """starting_kit/sample_submission/ (Latin and Classical Chinese only) answers sample_data's valid
    split: its files raise no message; the other languages are only said not submitted (one line: a subset may be
    submitted)."""
    folder = os.path.join(ROOT, "starting_kit", "sample_submission")
    messages, _, _, _ = V.validate(folder, SAMPLE, "valid")
    shipped = set(os.path.relpath(p, folder).replace(os.sep, "/") for p in glob.glob(os.path.join(folder, "*", "*.json")))
    assert len(shipped) == 10
    stale = [m for m in messages if m["file"] in shipped or "expected files not submitted (each scores 0)" not in m["text"]]
    assert len(messages) == 1, messages
    assert not stale, ("sample_data changed: regenerate starting_kit/sample_submission/ with make_submission.py "
                       "--data sample_data --split valid (keep lat and lzh, one sentence per line): %s" % stale[:3])
