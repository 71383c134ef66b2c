"""The gold index (evalkit/gold_index.py, organiser/gold_index.py): facts of each reference file's gold written by
``python -m organiser reference`` and read by the scorer only for the very bytes they describe. The scorer's
outputs are the same with the index, without it, with a stale one and with a malformed one; the index of a split
test phase's public part holds the facts of that part alone."""
import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from conftest import ROOT, TEST_SPLIT_SEED
from evalkit import gold_index, morph_batch, scoring, split as evalkit_split
from organiser import bundle
from organiser import gold_index as writer
from organiser import declarations

DECL = declarations.Hosted(None).declaration
MORPH = [task for task in DECL.TASKS if task.kind == "morph"]
pytestmark = pytest.mark.skipif(not MORPH, reason="the top-level competition has no morphology task")
PHASES = ("dev", "test", os.path.join("private", "test"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The top-level competition's sample reference as ``python -m organiser reference`` builds it (dev, the
    split test phase and its private part)."""
    root = tmp_path_factory.mktemp("gold_index")
    sample = os.path.join(ROOT, "sample_data")
    ref = os.path.join(str(root), "ref")
    command = [sys.executable, "-m", "organiser", "reference", "--data", sample, "--out", ref,
               "--report", os.path.join(str(root), "data_quality.md"),
               "--split-state", os.path.join(str(root), "split.json"), "--split-seed", TEST_SPLIT_SEED]
    if os.path.isdir(os.path.join(sample, "test_gold")):
        command += ["--test-gold", os.path.join(sample, "test_gold")]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return ref


def _index(folder):
    with open(os.path.join(folder, gold_index.FILE_NAME), encoding="utf-8") as handle:
        return json.load(handle)


def _morph_files(folder):
    """``{relative path: (task, lang, path)}`` of the morphology reference files of ``folder``."""
    return dict((name, spec) for name, spec in _all_files(folder).items() if spec[0].kind == "morph")


def _counts(sentences, task):
    """``{(feature, value): tokens}`` of the gold tokens of ``sentences``, counted one token at a time."""
    counts = Counter()
    for sent in sentences:
        for token in sent:
            counts.update((key, value) for key, value in token.items() if key not in task.ignored_keys)
    return dict(counts)


@pytest.mark.parametrize("phase", PHASES)
def test_each_folder_has_the_index_of_its_own_files(built, phase):
    folder = os.path.join(built, phase)
    if not os.path.isdir(folder):
        pytest.skip("no %s folder in the sample build" % phase)
    index = _index(folder)
    files = _morph_files(folder)
    assert index["version"] == gold_index.VERSION and files and set(index["files"]) == set(files)
    for relative, (task, lang, path) in files.items():
        with open(path, "rb") as handle:
            data = handle.read()
        entry = index["files"][relative]
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        pairs = entry["facts"]["pairs"]
        assert dict(((k, v), n) for k, v, n in pairs) == _counts(json.loads(data.decode("utf-8")), task)
        assert entry["facts"]["ignored"] == sorted(task.ignored_keys)


def test_the_public_part_index_holds_its_public_items_alone(built):
    public, private = os.path.join(built, "test"), os.path.join(built, "private", "test")
    if not os.path.isdir(private):
        pytest.skip("the sample build has no split test phase")
    manifest = evalkit_split.read_split(public)
    assert manifest["part"] == "public"
    index, private_index = _index(public)["files"], _index(private)["files"]
    for relative, (task, lang, path) in _morph_files(public).items():
        with open(path, "rb") as handle:
            sentences = json.load(handle)
        shown = manifest["files"][relative]["indices"]
        assert len(shown) < len(sentences)   # a private item exists in this file
        expected = _counts([sentences[i] for i in shown], task)
        got = dict(((k, v), n) for k, v, n in index[relative]["facts"]["pairs"])
        assert got == expected
        # the private part's gold pairs are counted in its own index only
        assert sum(got.values()) < sum(n for _, _, n in private_index[relative]["facts"]["pairs"])


def _noisy(folder, out):
    """A submission folder: the reference files of ``folder``, the morphology ones with wrong, extra and missing
    features on every third token."""
    for relative, (task, lang, path) in _all_files(folder).items():
        target = os.path.join(out, *relative.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(path, "rb") as handle:
            value = json.loads(handle.read().decode("utf-8"))
        if task.kind == "morph":
            at = 0
            for sent in value:
                for token in sent:
                    at += 1
                    features = [key for key in token if key not in task.ignored_keys]
                    if at % 3 == 0 and features:
                        token[features[0]] = token[features[0]] + "x"
                    elif at % 3 == 1:
                        token["Extra"] = "Yes"
                    elif features:
                        del token[features[-1]]
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False)
    return out


def _all_files(folder):
    """``{relative path: (task, lang, path)}`` of every reference file of ``folder``."""
    _, _, pairs, paths = scoring._reference_files(DECL, folder)
    return dict((scoring._relative(paths[(t.folder, lang)], folder), (t, lang, paths[(t.folder, lang)]))
                for t, lang in pairs)


def _stale(index):
    stale = copy.deepcopy(index)
    for entry in stale["files"].values():
        entry["sha256"] = entry["sha256"][::-1]
        entry["facts"]["pairs"][0][2] += 1000
    return json.dumps(stale)


def _bad_facts(index):
    """Entries with the right hash and facts of a wrong shape, one way per file."""
    bad = copy.deepcopy(index)
    breaks = [lambda f: f["pairs"][0].__setitem__(2, 0), lambda f: f["pairs"].__setitem__(0, ["a", "b"]),
              lambda f: f.__setitem__("ignored", []), lambda f: f["pairs"].append(list(f["pairs"][0])),
              lambda f: f["pairs"][0].__setitem__(1, None), lambda f: f["pairs"][0].__setitem__(2, True),
              lambda f: f["pairs"][0].__setitem__(0, sorted(f["ignored"])[0]), lambda f: f.__setitem__("pairs", 3)]
    for at, entry in enumerate(bad["files"].values()):
        breaks[at % len(breaks)](entry["facts"])
    return json.dumps(bad)


VARIANTS = {"none": None, "stale": _stale, "malformed": lambda index: '{"version": 1, "files": {"x": [1, 2]',
            "not an object": lambda index: "[1]", "other version": lambda index: json.dumps(dict(index, version=2)),
            "bad facts": _bad_facts}


def _report(folder, submission):
    report = scoring.evaluate(DECL, folder, submission)
    return json.dumps(report, sort_keys=True)


@pytest.mark.parametrize("phase", PHASES)
def test_the_scores_and_messages_are_the_same_with_any_index(built, phase, tmp_path, monkeypatch):
    folder = os.path.join(built, phase)
    if not os.path.isdir(folder):
        pytest.skip("no %s folder in the sample build" % phase)
    index = _index(folder)
    submissions = [_noisy(folder, str(tmp_path / "noisy"))]
    gold = str(tmp_path / "gold")
    for relative, (_, _, path) in _all_files(folder).items():
        os.makedirs(os.path.dirname(os.path.join(gold, relative)), exist_ok=True)
        shutil.copyfile(path, os.path.join(gold, relative))
    submissions.append(gold)
    attached = []
    real = morph_batch.attach_features

    def spy(ref, facts, ignored):
        real(ref, facts, ignored)
        attached.append(ignored in ref.features)
    monkeypatch.setattr(morph_batch, "attach_features", spy)
    with_index = [_report(folder, s) for s in submissions]
    assert attached and all(attached)   # the index was used
    for name, make in sorted(VARIANTS.items()):
        other = str(tmp_path / ("ref-" + name.replace(" ", "-")))
        shutil.copytree(folder, other)
        target = os.path.join(other, gold_index.FILE_NAME)
        os.remove(target)
        if make is not None:
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(make(index))
        del attached[:]
        assert [_report(other, s) for s in submissions] == with_index, name
        assert not any(attached), name   # no fact of these indexes was taken


def test_facts_round_trip_to_the_counts_in_their_order():
    value = [[{"Token": "a", "Case": "Nom", "Number": "Sing"}, {"Case": "Acc", "Token": "b"}],
             [], [{"Token": "c", "Number": "Sing", "UPOS": "NOUN"}]]
    ignored = frozenset(("Token", "UPOS"))
    counted = morph_batch.reference_features(morph_batch.parse_reference(value, "Token"), ignored)
    facts = json.loads(json.dumps(morph_batch.features_facts(morph_batch.parse_reference(value, "Token"), ignored)))
    ref = morph_batch.parse_reference(value, "Token")
    morph_batch.attach_features(ref, facts, ignored)
    assert list(ref.features[ignored].items()) == list(counted.items())
    assert counted == {("Case", "Nom"): 1, ("Number", "Sing"): 2, ("Case", "Acc"): 1}
    other = morph_batch.parse_reference(value, "Token")
    morph_batch.attach_features(other, facts, frozenset(("Token",)))   # other ignored keys: not taken
    assert other.features == {}


def test_no_facts_for_values_json_would_not_give_back():
    ref = morph_batch.parse_reference([[{"Token": "a", "Person": 3}]], "Token")
    assert morph_batch.features_facts(ref, frozenset(("Token",))) is None
    assert morph_batch.features_facts([(["a"], [{"Token": "a"}])], frozenset(("Token",))) is None


def test_file_facts_needs_the_same_bytes(tmp_path):
    data = b'[[{"Token": "a"}]]'
    index = {"x/y.json": gold_index.entry(data, {"n": 1})}
    assert gold_index.file_facts(index, "x/y.json", data) == {"n": 1}
    assert gold_index.file_facts(index, "x/y.json", data + b" ") is None
    assert gold_index.file_facts(index, "x/z.json", data) is None
    assert gold_index.file_facts({}, "x/y.json", data) is None
    path = tmp_path / gold_index.FILE_NAME
    assert gold_index.read_index(str(path)) == {}
    path.write_text('{"version": 1, "files": []}')
    assert gold_index.read_index(str(path)) == {}
    path.write_text(json.dumps({"version": 1, "files": index}))
    assert gold_index.read_index(str(path)) == index


def test_a_reference_zip_carries_the_index_of_its_own_files(tmp_path):
    index = {"version": 1, "files": {"a/x.json": {"sha256": "0", "facts": 1}, "b/y.json": {"sha256": "1",
                                                                                            "facts": 2}}}
    path = tmp_path / gold_index.FILE_NAME
    path.write_text(json.dumps(index))
    kept = json.loads(bundle.gold_index_member(str(path), {"a/x.json": b"[]"}).decode("utf-8"))
    assert kept == {"version": 1, "files": {"a/x.json": {"sha256": "0", "facts": 1}}}
    path.write_text("{broken")
    assert bundle.gold_index_member(str(path), {"a/x.json": b"[]"}) == b"{broken"
    assert gold_index.FILE_NAME in bundle.RIDERS


def test_a_folder_without_facts_gets_no_index(tmp_path):
    folder = tmp_path / "dev"
    folder.mkdir()
    (folder / gold_index.FILE_NAME).write_text("old")
    assert writer.write_index(DECL, str(folder)) == 0
    assert not (folder / gold_index.FILE_NAME).exists()


def test_a_null_gold_is_reported_with_the_index_as_without(tmp_path):
    task = MORPH[0]
    form = task.form_keys[0]
    other = sorted(task.ignored_keys - set([form]))[0]
    for value, no_null in (([[{form: "a", other: None, "Case": "Nom"}]], False),
                           ([[{form: "a", other: "x", "Case": "Nom"}]], True)):
        data = json.dumps(value).encode("utf-8")
        path = tmp_path / "f.json"
        path.write_bytes(data)
        ref = morph_batch.parse_reference(value, form)
        facts = json.loads(json.dumps(scoring.KINDS["morph"].index_facts(ref, task)))
        assert facts["no_null"] is no_null
        index = {"f.json": gold_index.entry(data, facts)}
        outcomes = []
        for given in (None, index):
            try:
                loaded = scoring.load_reference(task, "x", str(path), DECL, hashlib.sha256(), index=given,
                                                relative="f.json")
                outcomes.append(("read", getattr(loaded, "golds_checked", False) or given is None))
            except scoring.ReferenceError as error:
                outcomes.append(("broken", str(error)))
        assert outcomes[0] == outcomes[1]
        assert outcomes[0][0] == ("read" if no_null else "broken")
