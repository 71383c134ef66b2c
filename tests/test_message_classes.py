"""Classes of participant mistakes that cost most of a file's score while passing silently: each class is
generated (Hypothesis), its message asserted on the starting kit's validator and on the scorer, and the score
shown unchanged by the message (the checks switched off give the same scores).

1. labels outside the inventory (tags, feature names and values, value types, candidates joined in a string);
2. subsets (one summary line, not an error) and errors listed first;
3. file names and formats (did-you-mean) and the candidate-count refusal;
4. the command line of all four kits (wrong form, --ref, old Pythons, terminals that cannot print UTF-8);
5. stale words of the pages.
"""
import ast
import doctest
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT, load_by_path
import st2024
from evalkit import entry, inventory, kinds, layout, scoring, writers

V = load_by_path("st2024_validate_classes", os.path.join(ROOT, "starting_kit", "validate.py"))
SETTINGS = dict(deadline=None, max_examples=25,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
UPOS = [tag for tag in st2024.UPOS_TAGS]
FEATS = {"Case": ["Nom", "Acc", "Gen"], "Number": ["Sing", "Plur"], "Gender": ["Masc", "Fem"], "Person": ["1", "3"]}
KITS = [("scoring_program", "starting_kit"), ("competitions/lince", "competitions/lince/starting_kit"),
        ("competitions/scate", "competitions/scate/starting_kit"),
        ("competitions/spanglisheval", "competitions/spanglisheval/starting_kit")]
#: Real interpreters of Python 3.6 and 2.7 when the machine has them (pyenv's shims are not interpreters).
OLD_PYTHONS = sorted(set(os.path.realpath(path) for path in (
    glob.glob(os.path.expanduser("~/.pyenv/versions/3.6*/bin/python3.6"))[:1]
    + glob.glob(os.path.expanduser("~/.pyenv/versions/2.7*/bin/python2.7"))[:1]
    + [shutil.which("python3.6") or "", shutil.which("python2.7") or ""])
    if path and os.path.isfile(path) and "shims" not in path))


# --------------------------------------------------------------------------- a tiny release and its gold

token = st.fixed_dictionaries({
    "upos": st.sampled_from(UPOS),
    "lemma": st.text("abcdefg", min_size=1, max_size=6),
    "feats": st.dictionaries(st.sampled_from(sorted(FEATS)), st.just(None), max_size=3),
})
sentences = st.lists(st.lists(token, min_size=1, max_size=6), min_size=2, max_size=6)


def _values(tok, si, ti):
    """The feature values of a generated token (deterministic)."""
    return dict((name, FEATS[name][(si + ti) % len(FEATS[name])]) for name in sorted(tok["feats"]))


def gold(sents):
    """``{task folder: reference JSON}`` and the CoNLL-U text of generated sentences."""
    pos, morph, lemma, conllu = [], [], [], []
    for si, sent in enumerate(sents):
        rows = []
        for ti, tok in enumerate(sent):
            form = "w%d_%d" % (si, ti)
            values = _values(tok, si, ti)
            rows.append("%d\t%s\t%s\t%s\t_\t%s\t0\tdep\t_\t_" % (
                ti + 1, form, tok["lemma"], tok["upos"], "|".join("%s=%s" % kv for kv in sorted(values.items())) or "_"))
        pos.append([["w%d_%d" % (si, ti), tok["upos"]] for ti, tok in enumerate(sent)])
        morph.append([dict({"Token": "w%d_%d" % (si, ti), "UPOS": tok["upos"]}, **_values(tok, si, ti))
                      for ti, tok in enumerate(sent)])
        lemma.append([["w%d_%d" % (si, ti), tok["lemma"]] for ti, tok in enumerate(sent)])
        conllu.append("\n".join(rows) + "\n")
    return {"pos_tagging": pos, "morph_features": morph, "lemmatisation": lemma}, "\n".join(conllu) + "\n"


TRAIN = ("1\tt\tt\tNOUN\t_\tCase=Nom|Gender=Masc|Number=Sing|Strength=Weak\t0\troot\t_\t_\n"
         "2\tu\tu\tVERB\t_\tPerson=3|Number=Sing\t1\tdep\t_\t_\n\n")


def write_release(root, sents, train=True):
    """A release with ``lat``'s valid split (and train) and the phase's reference (gold) beside it."""
    refs, conllu = gold(sents)
    for split, text in (("valid", conllu), ("train", TRAIN if train else None)):
        if text:
            os.makedirs(os.path.join(root, "data", "morphology", split), exist_ok=True)
            with io.open(os.path.join(root, "data", "morphology", split, "lat_%s.conllu" % split), "w",
                         encoding="utf-8") as handle:
                handle.write(text)
    for folder, value in refs.items():
        os.makedirs(os.path.join(root, "ref", folder), exist_ok=True)
        with io.open(os.path.join(root, "ref", folder, "lat.json"), "w", encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False)
    if train:   # the organisers' reference gets the same training inventory as the validator builds
        pairs = [(task, "lat") for task in st2024.TASKS if task.folder in refs]
        V.write_inventory(os.path.join(root, "data"), pairs, os.path.join(root, "ref"), inventory)
    return refs


def submission(root, files, name="sub"):
    """Write ``{relative path: JSON value or text}`` as a submission folder; return its path."""
    folder = os.path.join(root, name)
    shutil.rmtree(folder, ignore_errors=True)
    for path, value in files.items():
        full = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with io.open(full, "w", encoding="utf-8") as handle:
            handle.write(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    return folder


def as_prediction(refs):
    """A perfect submission from the gold (lemmas as one-candidate lists)."""
    return {"pos_tagging/lat.json": refs["pos_tagging"], "morph_features/lat.json": refs["morph_features"],
            "lemmatisation/lat.json": [[[f, [l]] for f, l in s] for s in refs["lemmatisation"]]}


def silenced(monkeypatch):
    """Switch the inventory checks off (to show that they change no score)."""
    for name in ("check_tags", "check_features", "check_joined_candidates"):
        monkeypatch.setattr(inventory, name, lambda *args, **kwargs: None)


def both(root, sub, monkeypatch):
    """(scorer report, validator messages, scores with the checks off) of the submission folder ``sub``."""
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    messages, _, _, _ = V.validate(sub, os.path.join(root, "data"), "valid")
    with monkeypatch.context() as patch:
        silenced(patch)
        quiet = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    return report, messages, quiet["scores"]


def of_file(messages, name, needle):
    """The messages of file ``name`` whose text holds ``needle``."""
    return [m for m in messages if m["file"] == name and needle in m["text"]]


# --------------------------------------------------------------------------- 1. labels outside the inventory

def _mutate_tags(refs, picks):
    pred = as_prediction(refs)
    tags = [[list(tok) for tok in sent] for sent in pred["pos_tagging/lat.json"]]
    changed = 0
    for si, ti in picks:
        tok = tags[si % len(tags)][ti % len(tags[si % len(tags)])]
        if tok[1].isupper():
            tok[1] = tok[1].lower()
            changed += 1
    pred["pos_tagging/lat.json"] = tags
    return pred, changed


@settings(**SETTINGS)
@given(sents=sentences, picks=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=8))
def test_lower_case_tags_get_one_warning_with_a_count_and_a_did_you_mean(tmp_path_factory, monkeypatch, sents, picks):
    root = str(tmp_path_factory.mktemp("tags"))
    refs = write_release(root, sents)
    pred, changed = _mutate_tags(refs, picks)
    report, messages, quiet = both(root, submission(root, pred), monkeypatch)
    for found in (report["messages"], messages):
        warnings = of_file(found, "pos_tagging/lat.json", "outside the task's tag set")
        if not changed:
            assert not warnings
            continue
        every = changed == sum(map(len, sents))   # every tag outside the set: the file scores 0, an error
        assert len(warnings) == 1 and warnings[0]["severity"] == ("error" if every else "warning"), found
        text = warnings[0]["text"]
        assert ("this file scores 0" in text) == every
        assert text.startswith("%s of %s tag" % ("{:,}".format(changed), "{:,}".format(sum(map(len, sents)))))
        assert "Did you mean " in text and " for '" in text and "first at sentence" in text
        assert len(text) <= inventory.MAX_WARNING_CHARS
    assert report["scores"] == quiet


MORPH_MISTAKES = {
    "feats string": ("give their features as one CoNLL-U FEATS string",
                     lambda tok: {"Token": tok["Token"], "Feats": "|".join(
                         "%s=%s" % (k, v) for k, v in sorted(tok.items()) if k not in ("Token", "UPOS")) or "_"}),
    "nested": ("hold their features in an object",
               lambda tok: {"Token": tok["Token"], "features": dict((k, v) for k, v in tok.items() if k != "Token")}),
    "underscore": ("give a value for a feature they do not have", lambda tok: dict(tok, Mood="_")),
    "null": ("give a value for a feature they do not have", lambda tok: dict(tok, Mood=None)),
    "nan": ("give a value for a feature they do not have", lambda tok: dict(tok, Mood=float("nan"))),
    "number": ("have feature values that are not strings", lambda tok: dict(tok, Person=3)),
    "lower-case value": ("use feature values outside the inventory", lambda tok: dict(tok, Case="nom")),
    "lower-case name": ("use feature names outside the inventory", lambda tok: dict(tok, case="Nom")),
    "xpos key": ("use feature names outside the inventory", lambda tok: dict(tok, XPOS="NOMcom")),
}


@settings(**SETTINGS)
@given(sents=sentences, mistake=st.sampled_from(sorted(MORPH_MISTAKES)), train=st.booleans(),
       picks=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=8))
def test_feature_mistakes_get_one_warning_per_class(tmp_path_factory, monkeypatch, sents, mistake, train, picks):
    """A FEATS string, nested features, "_"/null/NaN for an absent feature, a number, a lower-case value or name:
    one warning of that class per file, counting the tokens, with or without the language's training data."""
    root = str(tmp_path_factory.mktemp("morph"))
    refs = write_release(root, sents, train=train)
    needle, change = MORPH_MISTAKES[mistake]
    pred = as_prediction(refs)
    toks = [list(sent) for sent in pred["morph_features/lat.json"]]
    chosen = set((si % len(toks), ti % len(toks[si % len(toks)])) for si, ti in picks)
    for si, ti in chosen:
        toks[si][ti] = change(toks[si][ti])
    pred["morph_features/lat.json"] = toks
    report, messages, quiet = both(root, submission(root, pred), monkeypatch)
    for found in (report["messages"], messages):
        warnings = [m for m in found if m["file"] == "morph_features/lat.json"]
        assert len(warnings) == 1 and warnings[0]["severity"] == "warning", (mistake, found)
        assert needle in warnings[0]["text"], (mistake, warnings)
        assert warnings[0]["text"].startswith("%s token" % "{:,}".format(len(chosen)))
        assert "first at sentence" in warnings[0]["text"]
        if mistake.startswith("lower-case"):
            assert "Did you mean " in warnings[0]["text"]
    assert report["scores"] == quiet


@settings(**SETTINGS)
@given(sents=sentences, sep=st.sampled_from(["|", " | "]), listed=st.booleans())
def test_candidates_joined_into_one_string_get_one_warning(tmp_path_factory, monkeypatch, sents, sep, listed):
    root = str(tmp_path_factory.mktemp("lemma"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    joined = [[[f, sep.join([l, l + "x", l + "y"])] if not listed else [f, str([l, l + "x"])]
               for f, l in s] for s in refs["lemmatisation"]]
    pred["lemmatisation/lat.json"] = joined
    report, messages, quiet = both(root, submission(root, pred), monkeypatch)
    items = sum(map(len, sents))
    for found in (report["messages"], messages):
        warnings = of_file(found, "lemmatisation/lat.json", "joined into one string")
        assert len(warnings) == 1 and warnings[0]["text"].startswith("%s of %s item" % (items, items)), found
        assert "Give a list, best first" in warnings[0]["text"]
    assert report["scores"] == quiet


def test_the_gold_itself_raises_no_inventory_warning(tmp_path):
    """Well-formed gold (UD tags, universal features, a training-data feature): not one warning."""
    sents = [[{"upos": tag, "lemma": "a", "feats": {"Case": None, "Number": None}} for tag in UPOS]]
    refs = write_release(str(tmp_path), sents + sents)
    pred = as_prediction(refs)
    pred["morph_features/lat.json"][0][0]["Strength"] = "Weak"   # a feature of the language's training data
    report = scoring.evaluate(st2024, str(tmp_path / "ref"), submission(str(tmp_path), pred))
    assert [m for m in report["messages"] if m["file"]] == []


def test_the_inventory_comes_from_training_data_never_from_the_reference(tmp_path):
    """The validator's inventory.json lists what the train file uses; the gold's own values are not in it."""
    sents = [[{"upos": "ADJ", "lemma": "a", "feats": {"Gender": None}}], [{"upos": "ADV", "lemma": "b", "feats": {}}]]
    write_release(str(tmp_path), sents)
    with io.open(str(tmp_path / "ref" / "inventory.json"), encoding="utf-8") as handle:
        files = json.load(handle)["files"]
    assert files["pos_tagging/lat"]["labels"] == ["NOUN", "VERB"]          # train only: not the gold's ADJ, ADV
    assert files["morph_features/lat"]["features"]["Strength"] == ["Weak"]
    assert "Fem" not in files["morph_features/lat"]["features"].get("Gender", [])


def test_inventory_and_entry_doctests():
    for module in (inventory, entry, scoring):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted >= 1, module


# --------------------------------------------------------------------------- 2. subsets, errors first

@settings(**SETTINGS)
@given(sents=sentences, keep=st.sets(st.sampled_from(["pos_tagging", "morph_features", "lemmatisation"]),
                                     min_size=1, max_size=2))
def test_a_subset_is_one_summary_line_not_an_error(tmp_path_factory, monkeypatch, sents, keep):
    root = str(tmp_path_factory.mktemp("subset"))
    refs = write_release(root, sents)
    pred = dict((path, value) for path, value in as_prediction(refs).items() if path.split("/")[0] in keep)
    sub = submission(root, pred)
    report, messages, quiet = both(root, sub, monkeypatch)
    missing = sorted(folder for folder in refs if folder not in keep)
    for found, expected in ((report["messages"], 3), (messages, 3)):
        assert not [m for m in found if m["severity"] == "error"], found
        lines = [m for m in found if "not submitted" in m["text"]]
        assert len(lines) == 1 and lines[0]["severity"] == "warning"
        assert lines[0]["text"].startswith("%d of %d expected files not submitted (each scores 0): "
                                           % (len(missing), expected))
        for folder in missing:
            assert "%s/lat.json" % folder in lines[0]["text"]
    assert all(e["score"] == 0.0 for e in report["entries"] if e["status"] == "missing")
    assert report["scores"] == quiet
    status = V.main([sub, "--data", os.path.join(root, "data"), "--split", "valid"])
    assert status == 0


def test_the_evaluation_page_and_the_validator_agree_on_subsets():
    with io.open(os.path.join(ROOT, "pages", "evaluation.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "You may submit a subset of the tasks or languages: what is missing scores 0." in page
    assert "The files not submitted are named in one line" in " ".join(page.split())


@settings(**SETTINGS)
@given(sents=sentences, noise=st.integers(21, 40))
def test_a_real_error_comes_first_even_behind_many_warnings(tmp_path_factory, sents, noise):
    root = str(tmp_path_factory.mktemp("first"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    pred["lemmatisation/lat.json"] = pred["lemmatisation/lat.json"][:-1]    # a real error, found last
    for i in range(noise):
        pred["notes/extra%d/file.json" % i] = []                             # warnings found first
        pred["pos_tagging/x%d.json" % i] = []
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, pred))
    assert report["messages"][0]["severity"] == "error" and "sentence" in report["messages"][0]["text"]
    printed = writers.summary(report).splitlines()
    first = next(line for line in printed if line.startswith("  "))
    assert first.startswith("  error: lemmatisation/lat.json")
    assert "more not shown here" in printed[-1]


# --------------------------------------------------------------------------- 3. names, formats, candidates

CODES = list(st2024.LANGUAGES)
EXPECTED = set((t.folder, l) for t in st2024.TASKS for l in t.languages)


def classify(path):
    """The Message the layout gives a file name that is not scored (or ``(task, lang)`` for an expected one)."""
    found = layout._classify(path, EXPECTED, set(st2024.TASKS_BY_FOLDER), st2024.LANGUAGES, st2024.LANGUAGE_ALIASES)
    return found[2]() if len(found) == 3 else found   # (kind, severity, make): the message, built on demand


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(CODES), split=st.sampled_from(["valid", "test", "train", "dev"]),
       sep=st.sampled_from(["_", "-", "."]), upper=st.booleans())
def test_split_suffixes_get_a_did_you_mean(code, split, sep, upper):
    stem = "%s%s%s" % (code, sep, split)
    found = classify("pos_tagging/%s.json" % (stem.upper() if upper else stem))
    assert "Did you mean pos_tagging/%s.json?" % code in found.text and "no split" in found.text


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(CODES), sep=st.sampled_from(["_", "-", " ", ""]), case=st.sampled_from(["lower", "title"]))
def test_language_names_written_out_get_their_code(code, sep, case):
    name = st2024.LANGUAGES[code][0]
    stem = sep.join(getattr(word, case)() for word in name.replace("(", "").replace(")", "").split()) if sep or \
        len(name.split()) == 1 else None
    if stem is None:
        return
    found = classify("lemmatisation/%s.json" % stem)
    assert "lemmatisation/%s.json" % code in found.text, (stem, found.text)
    assert "not by language name" in found.text


@pytest.mark.parametrize("ext, what", [(".conllu", "CoNLL-U"), (".txt", "plain text"), (".tsv", "TSV")])
def test_other_formats_say_json_is_expected(tmp_path, ext, what):
    found = classify("pos_tagging/fro%s" % ext)
    assert found.text.startswith("unexpected file name (ignored): a %s file: the submission holds JSON" % what)
    assert "Did you mean pos_tagging/fro.json?" in found.text and "lower case" not in found.text


def test_misnamed_files_are_said_by_the_validator_and_change_no_score(tmp_path, monkeypatch):
    refs = write_release(str(tmp_path), [[{"upos": "NOUN", "lemma": "a", "feats": {}}]] * 2)
    pred = as_prediction(refs)
    base = scoring.evaluate(st2024, str(tmp_path / "ref"), submission(str(tmp_path), pred, "base"))
    pred.update({"pos_tagging/lat_valid.json": [], "pos_tagging/latin.json": [], "pos_tagging/lat.conllu": "x"})
    report, messages, _ = both(str(tmp_path), submission(str(tmp_path), pred), monkeypatch)
    assert report["scores"] == base["scores"]
    for found in (report["messages"], messages):
        texts = dict((m["file"], m["text"]) for m in found)
        assert "Did you mean pos_tagging/lat.json?" in texts["pos_tagging/lat_valid.json"]
        assert "pos_tagging/lat.json or pos_tagging/latm.json" in texts["pos_tagging/latin.json"]
        assert "the submission holds JSON" in texts["pos_tagging/lat.conllu"]


def test_a_top_100_candidate_list_is_refused_with_the_rule_said(tmp_path):
    sents = [[{"upos": "NOUN", "lemma": "lemma%d" % i, "feats": {}} for i in range(40)]] * 30
    refs = write_release(str(tmp_path), sents)
    pred = as_prediction(refs)
    pred["lemmatisation/lat.json"] = [[[f, [l] + ["candidate%d" % k for k in range(99)]] for f, l in s]
                                      for s in refs["lemmatisation"]]
    report = scoring.evaluate(st2024, str(tmp_path / "ref"), submission(str(tmp_path), pred))
    text = [m["text"] for m in report["messages"] if m["file"] == "lemmatisation/lat.json"][0]
    assert "out of all proportion" in text and "only the first 3 candidates of each item count" in text
    assert "it is not cut to 3), so keep the first 3" in text
    with io.open(os.path.join(ROOT, "pages", "evaluation.html"), encoding="utf-8") as handle:
        assert "A file with dozens of candidates per item is over the size rule below: it is refused" in handle.read()
    with io.open(os.path.join(ROOT, "starting_kit", "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    assert "a file with dozens of\ncandidates per token is refused as too large" in readme


# --------------------------------------------------------------------------- 4. the command line

def run(args, env=None, python=sys.executable, cwd=None):
    proc = subprocess.run([python] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def a_zip(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("zip") / "my_submission.zip")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pos_tagging/lat.json", "[]")
    return path


@pytest.mark.parametrize("program", [kit for kit, _ in KITS])
def test_a_submission_given_as_input_is_a_usage_error_not_the_organisers(program, a_zip, tmp_path):
    status, out, err = run([os.path.join(ROOT, program, "evaluate.py"), a_zip, str(tmp_path / "out")])
    assert status == 2 and "Traceback" not in err
    assert "evaluate.py INPUT OUTPUT is the form the platform runs" in err and "--ref" in err
    assert "organisers" not in err and "%s is a file (it looks like a submission)" % a_zip in err


@pytest.mark.parametrize("program", [kit for kit, _ in KITS])
def test_a_file_given_to_ref_is_said_to_be_a_file(program, a_zip, tmp_path):
    status, _, err = run([os.path.join(ROOT, program, "evaluate.py"), "--ref", a_zip, "--submission", a_zip])
    assert status == 2 and "is a zip file, not a folder" in err and "does not exist" not in err
    hints = [line for line in err.split("e.g. --ref ")[1:]]
    for hint in hints:   # a folder the kit ships, never one it does not have
        assert hint.split()[0] in ("reference_data/dev", "data/dev")


def test_the_platform_form_still_blames_the_organisers_for_their_reference(tmp_path):
    (tmp_path / "input" / "ref").mkdir(parents=True)
    (tmp_path / "input" / "res").mkdir()
    status, _, err = run([os.path.join(ROOT, "scoring_program", "evaluate.py"), str(tmp_path / "input"),
                          str(tmp_path / "out")])
    assert status == 2 and "This is the organisers' side" in err


def entry_scripts():
    return [os.path.join(ROOT, kit, "evaluate.py") for kit, _ in KITS] + \
        [os.path.join(ROOT, kit, "validate.py") for _, kit in KITS]


@pytest.mark.parametrize("script", entry_scripts() + [os.path.join(ROOT, "scoring_program", "evalkit", "entry.py")])
def test_entry_scripts_parse_as_python_3_6(script):
    """The version check must parse on the old Pythons it stops (real 2.7 and 3.6 below, when installed)."""
    with io.open(script, encoding="utf-8") as handle:
        source = handle.read()
    ast.parse(source, filename=script, feature_version=(3, 6))
    if script.endswith("entry.py"):
        source.encode("ascii")   # run from its path with open() on any Python


@pytest.mark.skipif(not OLD_PYTHONS, reason="no Python 3.6 or 2.7 installed")
@pytest.mark.parametrize("script", entry_scripts())
@pytest.mark.parametrize("python", OLD_PYTHONS)
def test_old_pythons_are_told_which_python_is_needed(script, python, a_zip, tmp_path):
    status, out, err = run([script, a_zip, "--data", str(tmp_path)] if script.endswith("validate.py")
                           else [script, "--ref", str(tmp_path), "--submission", a_zip], python=python)
    assert status == 2, (script, python, out, err)
    assert "needs Python 3.7 or newer; this is Python %s" % ("2.7" if "2.7" in python else "3.6") in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("version", [(2, 7, 18), (3, 6, 15), (3, 5, 0)])
def test_the_version_check_on_simulated_versions(version):
    stream = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        entry.require_python("validate.py", version_info=version, stream=stream)
    assert stop.value.code == 2
    assert stream.getvalue().startswith("validate.py needs Python 3.7 or newer; this is Python %d.%d.%d"
                                        % version)
    assert entry.python_problem("x.py", (3, 7, 0)) is None


def test_a_crash_is_one_sentence_and_status_3(capsys):
    def broken():
        raise KeyError("boom")
    assert entry.run(broken, "validate.py", "validate.py") == 3
    err = capsys.readouterr().err
    assert err.startswith("Internal error of validate.py (KeyError: 'boom')") and err.count("\n") == 1


@pytest.mark.parametrize("kit", ["scoring_program", "starting_kit"])
def test_a_terminal_that_cannot_print_utf8_gets_escapes_not_a_crash(kit, tmp_path):
    refs = write_release(str(tmp_path), [[{"upos": "NOUN", "lemma": "a", "feats": {}}]] * 2)
    pred = as_prediction(refs)
    pred["pos_tagging/lat.json"][0][0][0] = "\u01eb\u0301"          # a form that differs: quoted in the message
    pred["pos_tagging/lat.json"][1][0][1] = "n\u00f6un"
    sub = submission(str(tmp_path), pred)
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C")
    if kit == "starting_kit":
        args = [os.path.join(ROOT, kit, "validate.py"), sub, "--data", str(tmp_path / "data")]
    else:
        args = [os.path.join(ROOT, kit, "evaluate.py"), "--ref", str(tmp_path / "ref"), "--submission", sub,
                "--out", str(tmp_path / "out")]
    status, out, err = run(args, env=env)
    assert status == 0 and "Traceback" not in err, err
    assert "\\u01eb" in out and "n\\xf6un" in out


# --------------------------------------------------------------------------- 5. stale words

def test_the_data_page_names_no_file_the_release_does_not_have():
    with io.open(os.path.join(ROOT, "pages", "data.html"), encoding="utf-8") as handle:
        assert "sanv_" not in handle.read()
