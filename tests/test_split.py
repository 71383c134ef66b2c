"""The public / private split of the test gold (organiser/split.py) and the scorer that scores only the part it is
given (scoring_program/evalkit/split.py), on each competition's sample build with its hidden test gold
(docs/test_feedback.md).

Per competition: the full test gold is built by the competition's own reference builder alone (no split), the
baselines' test submission by its baselines builder; the split is then made in-process with chosen modes and seeds.
A submission is changed item by item (an item's prediction set to its gold, or broken) by a small adapter of the
competition's submission format, written here independently of the scorer.
"""
import glob
import html
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT

from organiser import declarations
from organiser import split as organiser_split
from evalkit import scoring, writers
from evalkit import split as evalkit_split

COMPETITIONS = ("st2024", "lince", "scate", "spanglisheval")
FRACTION = 0.3


def paired(*sequences):
    """The items of ``sequences`` side by side; they must be of one length."""
    assert len(set(len(sequence) for sequence in sequences)) == 1, [len(sequence) for sequence in sequences]
    return zip(*sequences)


# --------------------------------------------------------------------------- the builds

BUILD_FULL = """
import sys
from organiser import builders, declarations
hosted = declarations.Hosted(sys.argv[1])
sys.exit(builders.load_builder(hosted, "reference").main(sys.argv[2:]))
"""


def _run(args):
    process = subprocess.run([sys.executable] + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
    if process.returncode:
        raise AssertionError("%s failed (exit %d): %s" % (args, process.returncode, process.stderr[-2000:]))
    return process.stdout


def _sample(hosted):
    sample = os.path.join(ROOT if hosted.top_level else hosted.folder, "sample_data")
    return sample, os.path.join(sample, "test_gold")


class Build(object):
    """One competition's sample build: ``full`` (the test phase's full gold), ``ref`` (the reference folder),
    ``submission`` (the baselines' test submission, as ``{member: bytes}``), and its adapter."""

    def __init__(self, cid, root):
        self.cid = cid
        self.root = root
        self.hosted = declarations.Hosted(cid)
        self.decl = self.hosted.declaration
        sample, gold = _sample(self.hosted)
        self.ref = os.path.join(root, "ref")
        _run(["-c", BUILD_FULL, cid, "--data", sample, "--test-gold", gold, "--out", self.ref,
              "--report", os.path.join(root, "dq.md")])
        _run(["-m", "organiser", "baselines", "--competition", cid, "--data", sample, "--reference", self.ref,
              "--out", os.path.join(root, "dist")])
        self.full = os.path.join(self.ref, "test")
        zips = sorted(path for path in glob.glob(os.path.join(root, "dist", "submissions", "*.zip"))
                      if "test" in os.path.basename(path) and "baseline" in os.path.basename(path))
        self.submission = {}
        for path in zips:   # the one with the most files (ST2024: the unconstrained subtask's, every task)
            with zipfile.ZipFile(path) as archive:
                found = dict((name, archive.read(name)) for name in archive.namelist() if not name.endswith("/"))
            if len(found) > len(self.submission):
                self.submission = found
        self.files = organiser_split._reference_files(self.decl, self.full)
        self.items = {}
        for relative, task in self.files:
            with open(os.path.join(self.full, *relative.split("/")), "rb") as handle:
                self.items[relative] = organiser_split.handler(task).read(handle.read())
        self.adapter = ADAPTERS[cid](self)

    def split(self, mode, seed, name=None):
        """Split the full gold into ``<name>/public`` and ``<name>/private``; (public dir, private dir, manifests)."""
        name = name or "%s-%s" % (mode, seed)
        public, private = os.path.join(self.root, name, "public"), os.path.join(self.root, name, "private")
        for folder in (public, private):
            if os.path.isdir(folder):
                shutil.rmtree(folder)
        manifests = organiser_split.split_phase(self.full, self.hosted, mode, FRACTION, seed, public, private)
        return public, private, manifests

    def zipped(self, submission):
        """``submission`` (``{member: bytes}``) written as a zip; its path."""
        path = os.path.join(self.root, "submission-%d.zip" % len(os.listdir(self.root)))
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in sorted(submission.items()):
                archive.writestr(name, data)
        return path

    def score(self, ref_dir, submission, **options):
        """The report of ``submission`` (``{member: bytes}``) against ``ref_dir``."""
        return scoring.evaluate(self.decl, ref_dir, self.zipped(submission), **options)


# --------------------------------------------------------------------------- the submission formats, item by item

class Adapter(object):
    """Reads and changes a submission (``{member: bytes}``) item by item of a reference file."""

    def __init__(self, build):
        self.build = build

    def kind(self, relative):
        """The kind of reference file ``relative``."""
        return dict(self.build.files)[relative].kind


class ListAdapter(Adapter):
    """ST2024: ``<task>/<lang>.json`` holds a JSON list aligned with the reference file of the same name."""

    def _get(self, sub, relative):
        return json.loads(sub[relative].decode("utf-8"))

    def _put(self, sub, relative, items):
        out = dict(sub)
        out[relative] = json.dumps(items, ensure_ascii=False).encode("utf-8")
        return out

    def set_gold(self, sub, relative, index):
        """The prediction of item ``index`` made its gold."""
        items = self._get(sub, relative)
        gold = self.build.items[relative][index]
        if self.kind(relative) == "fill_mask":
            gold = {"masked": gold["masked"], "masked_tokens": [[g] for g in gold["masked_tokens"]]}
        items[index] = gold
        return self._put(sub, relative, items)

    def break_item(self, sub, relative, index):
        """The prediction of item ``index`` made unusable (a number where a sentence belongs)."""
        items = self._get(sub, relative)
        items[index] = 7
        return self._put(sub, relative, items)

    def keep(self, sub, relative, indices):
        """Only the predictions of ``indices``."""
        items = self._get(sub, relative)
        return self._put(sub, relative, [items[i] for i in indices])


class LinesAdapter(Adapter):
    """LinCE: ``<task>_<lang>.txt``, labels one a line (token level: a blank line between sentences)."""

    def _name(self, relative):
        return relative.rsplit(".", 1)[0] + ".txt"

    def _sentence(self, relative):
        return self.kind(relative) == "sentence_labels"

    def _get(self, sub, relative):
        text = sub[self._name(relative)].decode("utf-8")
        if self._sentence(relative):
            return [line for line in text.split("\n") if line.strip()]
        return [block.split("\n") for block in text.strip("\n").split("\n\n")]

    def _put(self, sub, relative, items):
        out = dict(sub)
        if self._sentence(relative):
            text = "\n".join(items) + "\n"
        else:
            text = "\n\n".join("\n".join(block) for block in items) + "\n"
        out[self._name(relative)] = text.encode("utf-8")
        return out

    def set_gold(self, sub, relative, index):
        """The prediction of sentence ``index`` made its gold."""
        items = self._get(sub, relative)
        block = self.build.items[relative][index]
        if self._sentence(relative):
            items[index] = [line for line in block if line.startswith("# sent_enum")][0].split("\t")[-1].strip()
        else:
            items[index] = [line.split("\t")[-1] for line in block if not line.startswith("# sent_enum")]
        return self._put(sub, relative, items)

    def break_item(self, sub, relative, index):
        """Sentence ``index`` labelled with a label no dataset has."""
        items = self._get(sub, relative)
        items[index] = "no-such-label" if self._sentence(relative) else ["no-such-label"] * len(items[index])
        return self._put(sub, relative, items)

    def keep(self, sub, relative, indices):
        """Only the sentences ``indices``."""
        items = self._get(sub, relative)
        return self._put(sub, relative, [items[i] for i in indices])


class DocumentsAdapter(Adapter):
    """SCATE: one Anafora file per document (shared by both reference files)."""

    def _member(self, relative, index):
        doc = self.build.items[relative][index]["name"]
        return self.build.decl.DOCUMENT_FILE.format(doc=doc)

    def set_gold(self, sub, relative, index):
        """The document's file made its gold XML."""
        out = dict(sub)
        out[self._member(relative, index)] = self.build.items[relative][index]["xml"].encode("utf-8")
        return out

    def break_item(self, sub, relative, index):
        """The document's file made unreadable."""
        out = dict(sub)
        out[self._member(relative, index)] = b"<data><annotations><entity>"
        return out

    def keep(self, sub, relative, indices):
        """Only the files of the documents ``indices``."""
        kept = set(self._member(relative, i) for i in indices)
        every = set(self._member(relative, i) for i in range(len(self.build.items[relative])))
        return dict((name, data) for name, data in sub.items() if name not in every or name in kept)


class SetsAdapter(Adapter):
    """SpanglishEval: one JSON object ``{set id: scores or index}``."""

    def _get(self, sub):
        name = self.build.decl.SUBMISSION_FILE
        return name, json.loads(sub[name].decode("utf-8"))

    def _id(self, relative, index):
        return self.build.items[relative][index]["id"]

    def set_gold(self, sub, relative, index):
        """The set's answer made to choose its gold: a list of scores keeps its values, the top one swapped onto the
        gold sentence (every message about the file's scores, such as its count of ties at the top, stays the same);
        any other answer becomes the gold index."""
        name, value = self._get(sub)
        set_id, gold = self._id(relative, index), self.build.items[relative][index]["gold"]
        scores = value.get(set_id)
        if isinstance(scores, list) and len(scores) > gold:
            top = scores.index(max(scores))
            scores[gold], scores[top] = scores[top], scores[gold]
        else:
            value[set_id] = gold
        return dict(sub, **{name: json.dumps(value).encode("utf-8")})

    def break_item(self, sub, relative, index):
        """The set's answer made a string."""
        name, value = self._get(sub)
        value[self._id(relative, index)] = "first"
        return dict(sub, **{name: json.dumps(value).encode("utf-8")})

    def keep(self, sub, relative, indices):
        """Only the answers of the sets ``indices``."""
        name, value = self._get(sub)
        ids = [self._id(relative, i) for i in indices]
        return dict(sub, **{name: json.dumps(dict((i, value[i]) for i in ids if i in value)).encode("utf-8")})


ADAPTERS = {"st2024": ListAdapter, "lince": LinesAdapter, "scate": DocumentsAdapter, "spanglisheval": SetsAdapter}


@pytest.fixture(scope="module", params=COMPETITIONS)
def build(request, tmp_path_factory):
    """The sample build of each competition (its full test gold, its baselines' test submission)."""
    return Build(request.param, str(tmp_path_factory.mktemp("split-%s" % request.param)))


def scores_json(report):
    """What the platform stores of a report: scores.json as the scorer writes it."""
    return writers.scores_json(report)


def messages(report):
    """The report's messages, as dicts."""
    return report["messages"]


def all_gold(build, submission, scorable_only=True):
    """``submission`` with every scorable item's prediction set to its gold."""
    for relative, task in build.files:
        handler = organiser_split.handler(task)
        for index, item in enumerate(build.items[relative]):
            if handler.scorable(item):
                submission = build.adapter.set_gold(submission, relative, index)
    return submission


# --------------------------------------------------------------------------- (c) the split itself

def test_split_reproducible_stratified_and_complementary(build):
    public_dir, private_dir, manifests = build.split("public_private", "seed-a", "c1")
    again_public, again_private, again = build.split("public_private", "seed-a", "c2")
    assert manifests == again
    for first, second in ((public_dir, again_public), (private_dir, again_private)):
        for relative, _ in build.files:
            with open(os.path.join(first, relative), "rb") as one, open(os.path.join(second, relative), "rb") as two:
                assert one.read() == two.read()
    assert evalkit_split.read_split(public_dir) == manifests["public"]
    assert evalkit_split.read_split(private_dir) == manifests["private"]
    assert manifests["public"]["part"] == "public" and manifests["private"]["part"] == "private"
    assert manifests["public"]["seed_digest"] == organiser_split.seed_digest("seed-a")
    assert "seed-a" not in open(os.path.join(public_dir, organiser_split.SPLIT_FILE)).read()
    for relative, task in build.files:
        handler = organiser_split.handler(task)
        scorable = [i for i, item in enumerate(build.items[relative]) if handler.scorable(item)]
        public = manifests["public"]["files"][relative]
        private = manifests["private"]["files"][relative]
        assert public["items"] == private["items"] == len(build.items[relative])
        assert public["scored"] == len(public["indices"])
        # round(FRACTION * n) public, unless the items of no other file (see the next test) are too few
        shared = shared_identities(build)
        single = [i for i in scorable if handler.identity(build.items[relative][i], task) not in shared]
        target = organiser_split.public_count(FRACTION, len(scorable))
        assert public["scored"] == target or (public["scored"] < target and set(single) <= set(public["indices"]))
        assert set(public["indices"]).isdisjoint(private["indices"])
        assert sorted(public["indices"] + private["indices"]) == scorable
        if len(scorable) >= 2 and len(single) >= 2:
            assert public["indices"] and private["indices"]
        # no gold of a redacted item is left: each is exactly the redacted full item
        with open(os.path.join(public_dir, relative), "rb") as handle:
            shown = handler.read(handle.read())
        with open(os.path.join(private_dir, relative), "rb") as handle:
            kept = handler.read(handle.read())
        for index, item in enumerate(build.items[relative]):
            if not handler.scorable(item):   # excluded: in neither part, only what may be gold left out of test/
                assert shown[index] == handler.unscored(item) and kept[index] == item
                continue
            redacted = handler.redact(item, task)
            assert shown[index] == (item if index in public["indices"] else redacted)
            assert kept[index] == (redacted if index in public["indices"] else item)
    gold = organiser_split.private_items(build.full, private_dir, build.hosted)
    assert dict((f, [i for i, _ in found]) for f, found in gold.items()) == \
        dict((f, spec["indices"]) for f, spec in manifests["private"]["files"].items())
    assert any(strings for found in gold.values() for _, strings in found)


def shared_identities(build):
    """The identities (organiser.split ITEMS ``identity``) that several scorable items have (in one file or more)."""
    counts = {}
    for relative, task in build.files:
        for item in build.items[relative]:
            if not organiser_split.handler(task).scorable(item):
                continue
            key = organiser_split.handler(task).identity(item, task)
            if key is not None:
                counts[key] = counts.get(key, 0) + 1
    return set(key for key, count in counts.items() if count > 1)


def test_items_that_are_one_are_public_together_or_not_at_all(build):
    """A sentence repeated (in a file, or in the files of several tasks), one sentence's word-level and
    character-level gap-filling lines (ST2024: the unmasked text of either is the other's gold): never public in one
    place and private in another."""
    public_dir, _, manifests = build.split("public_private", "seed-a", "links")
    shared = shared_identities(build)
    if build.cid == "st2024":
        assert shared   # the sample has such sentences: the test can fail
    public_texts = []
    for relative, task in build.files:
        handler = organiser_split.handler(task)
        public = set(manifests["public"]["files"][relative]["indices"])
        public_texts += [handler.identity(item, task) for i, item in enumerate(build.items[relative]) if i in public]
    for relative, task in build.files:
        handler = organiser_split.handler(task)
        public = set(manifests["public"]["files"][relative]["indices"])
        for index, item in enumerate(build.items[relative]):
            if index not in public and handler.scorable(item) and handler.identity(item, task) in shared:
                assert handler.identity(item, task) not in public_texts
        with open(os.path.join(public_dir, relative), "rb") as handle:
            text = handle.read().decode("utf-8")
        for index, item in enumerate(build.items[relative]):   # no uploaded text holds a private item's sentence
            if index not in public and handler.scorable(item) and task.kind == "fill_mask":
                assert json.dumps(item["text"], ensure_ascii=False) not in text


def test_seed_changes_the_split(build):
    first = build.split("public_private", "seed-a", "s1")[2]["public"]["files"]
    others = [build.split("public_private", "seed-%d" % n, "s%d" % (n + 2))[2]["public"]["files"] for n in range(4)]
    assert any(other != first for other in others)


def test_files_over_the_same_items_share_their_split(build):
    files = build.split("public_private", "seed-a", "g")[2]["public"]["files"]
    names = sorted(files)
    for one in names:
        for two in names:
            kind_one, kind_two = dict(build.files)[one], dict(build.files)[two]
            same = [organiser_split.handler(kind_one).key(i, kind_one) for i in build.items[one]] == \
                [organiser_split.handler(kind_two).key(i, kind_two) for i in build.items[two]]
            if same:
                assert files[one]["indices"] == files[two]["indices"]


def test_reference_command_splits_by_the_schedule(build, tmp_path):
    """``python -m organiser reference --split-seed S`` writes REF/test and REF/private/test as split_phase does."""
    sample, gold = _sample(build.hosted)
    ref = str(tmp_path / "ref")
    _run(["-m", "organiser", "reference", "--competition", build.cid, "--data", sample, "--test-gold", gold,
          "--out", ref, "--report", str(tmp_path / "dq.md"), "--split-seed", "seed-a"])
    manifests = build.split("public_private", "seed-a", "cmd")[2]
    assert evalkit_split.read_split(os.path.join(ref, "test")) == manifests["public"]
    assert evalkit_split.read_split(os.path.join(ref, "private", "test")) == manifests["private"]
    for folder in (os.path.join(ref, "test"), os.path.join(ref, "private", "test")):
        assert json.load(open(os.path.join(folder, "phase.json")))["gold"] == "hidden"
    default, state = str(tmp_path / "default"), str(tmp_path / "state.json")   # without a seed: a random draw, kept
    digests = []
    for _ in range(2):
        _run(["-m", "organiser", "reference", "--competition", build.cid, "--data", sample, "--test-gold", gold,
              "--out", default, "--report", str(tmp_path / "dq.md"), "--split-state", state])
        digests.append(evalkit_split.read_split(os.path.join(default, "test"))["seed_digest"])
    assert digests[0] == digests[1] == json.load(open(state))["seed_digest"] != organiser_split.seed_digest("seed-a")


# --------------------------------------------------------------------------- (a) (b) (f) the scorer on a part

def _mixed(build, manifests):
    """The baselines' submission with the gold as prediction of every other public and private item."""
    sub = build.submission
    for part in ("public", "private"):
        for relative, spec in manifests[part]["files"].items():
            for index in spec["indices"][::2]:
                sub = build.adapter.set_gold(sub, relative, index)
    return sub


def test_public_score_equals_the_scorer_on_the_public_items_alone(build, tmp_path):
    public_dir, private_dir, manifests = build.split("public_private", "seed-a", "a")
    sub = _mixed(build, manifests)
    for folder, part in ((public_dir, "public"), (private_dir, "private")):
        report = build.score(folder, sub)
        restricted = str(tmp_path / ("restricted-" + part))
        shutil.copytree(build.full, restricted)
        alone = sub
        for relative, task in build.files:
            handler = organiser_split.handler(task)
            indices = manifests[part]["files"][relative]["indices"]
            with open(os.path.join(build.full, relative), "rb") as handle:
                original = handle.read()
            with open(os.path.join(restricted, relative), "wb") as handle:
                handle.write(handler.write([build.items[relative][i] for i in indices], original))
            alone = build.adapter.keep(alone, relative, indices)
        expected = build.score(restricted, alone)
        assert list(report["scores"].items()) == list(expected["scores"].items())
        for got, want, (relative, _) in paired(report["entries"], expected["entries"], build.files):
            assert (got["file"], got["score"], got["components"]) == (want["file"], want["score"], want["components"])
            assert got["scored_sentences"] == len(manifests[part]["files"][relative]["indices"])
            assert got["sentences"] == manifests[part]["files"][relative]["items"]
        assert report["split"]["part"] == part
        # each item counted once: a file over the same items as another (same_items_as) is not counted again
        distinct = [s for s in manifests[part]["files"].values() if "same_items_as" not in s]
        assert report["notes"]["split"].startswith("%s part: %d of %d " % (
            part, sum(len(s["indices"]) for s in distinct), sum(s["items"] for s in distinct)))
        assert (build.cid in ("st2024", "scate")) == (len(distinct) < len(manifests[part]["files"]))   # ST2024: 3 tasks
        for name, spec in manifests[part]["files"].items():   # over one treebank; SCATE: two over one document set
            if "same_items_as" in spec:
                assert spec["indices"] == manifests[part]["files"][spec["same_items_as"]]["indices"], name


def test_a_private_item_changes_no_public_number(build):
    public_dir, _, manifests = build.split("public_private", "seed-a", "b")
    base = build.score(public_dir, build.submission)
    changed_private = changed_public = 0
    for relative, spec in manifests["private"]["files"].items():
        for index in spec["indices"]:
            sub = build.adapter.set_gold(build.submission, relative, index)
            if sub == build.submission:
                continue
            changed_private += 1
            report = build.score(public_dir, sub)
            assert scores_json(report) == scores_json(base)
            assert messages(report) == messages(base)
            assert report["entries"] == base["entries"]
    # the test can fail: the same change to public items does change the numbers
    sub = build.submission
    for relative, spec in manifests["public"]["files"].items():
        for index in spec["indices"]:
            sub = build.adapter.set_gold(sub, relative, index)
    changed_public = scores_json(build.score(public_dir, sub)) != scores_json(base)
    assert changed_private and changed_public


def test_messages_do_not_depend_on_the_split(build):
    sub = build.submission
    for relative, _ in build.files:
        for index in range(0, len(build.items[relative]), 3):
            sub = build.adapter.break_item(sub, relative, index)
    found = []
    for seed in ("seed-a", "seed-b"):
        for folder in build.split("public_private", seed, "f-" + seed)[:2]:
            found.append(messages(build.score(folder, sub)))
    assert found[0] and all(other == found[0] for other in found[1:])
    blind = build.split("blind", "seed-a", "f-blind")[0]
    assert messages(build.score(blind, sub)) == found[0]


# --------------------------------------------------------------------------- (d) blind, (e) full

def test_blind_scores_carry_no_information_about_the_gold(build):
    public_dir, private_dir, manifests = build.split("blind", "seed-a", "d")
    assert manifests["public"]["part"] == "none" and manifests["private"]["part"] == "all"
    perfect = all_gold(build, build.submission)
    assert perfect != build.submission
    one, two = build.score(public_dir, build.submission), build.score(public_dir, perfect)
    assert scores_json(one) == scores_json(two)
    assert messages(one) == messages(two)
    assert set(json.loads(scores_json(one))) == set(["valid", "signature"])
    assert json.loads(scores_json(one))["valid"] == 1.0
    assert "validly predicted" in one["notes"]["split"]
    # the private folder is the whole gold: there the two differ
    assert scores_json(build.score(private_dir, perfect)) != scores_json(build.score(private_dir, build.submission))
    # items zeroed by their format, and a file left out, lower it
    relative = build.files[0][0]
    broken = build.adapter.break_item(build.submission, relative, 0)
    valid = json.loads(scores_json(build.score(public_dir, broken)))["valid"]
    assert valid < 1.0 or build.cid == "lince"   # a LinCE label outside the set is scored as wrong, not zeroed


def test_full_mode_scores_as_without_a_split(build):
    public_dir, private_dir, manifests = build.split("full", "seed-a", "e")
    assert manifests["public"]["part"] == manifests["private"]["part"] == "all"
    sub = _mixed(build, build.split("public_private", "seed-a", "e-mix")[2])
    today = build.score(build.full, sub)
    for folder in (public_dir, private_dir):
        report = build.score(folder, sub)
        assert scores_json(report) == scores_json(today)
        assert list(report["scores"].items()) == list(today["scores"].items())
        assert report["entries"] == today["entries"] and report["messages"] == today["messages"]
        for relative, _ in build.files:
            with open(os.path.join(folder, relative), "rb") as one, \
                    open(os.path.join(build.full, relative), "rb") as two:
                assert one.read() == two.read()


def test_a_broken_manifest_is_a_broken_reference(build, tmp_path):
    public_dir = build.split("public_private", "seed-a", "broken")[0]
    path = os.path.join(public_dir, evalkit_split.SPLIT_FILE)
    manifest = json.load(open(path))
    relative = sorted(manifest["files"])[0]
    manifest["files"][relative]["items"] += 1
    with open(path, "w") as handle:
        json.dump(manifest, handle)
    from evalkit.layout import ReferenceError
    with pytest.raises(ReferenceError, match="items"):
        build.score(public_dir, build.submission)


def test_results_rescoring_of_the_private_part(build):
    """The organisers' re-scoring (parsed reference kept, per-item values) reads a part as the scorer does."""
    _, private_dir, manifests = build.split("public_private", "seed-a", "r")
    sub = _mixed(build, manifests)
    cache = {}
    scoring.fill_reference_cache(build.decl, private_dir, cache)
    report = build.score(private_dir, sub, per_sentence=True, reference_cache=cache)
    plain = build.score(private_dir, sub)
    assert list(report["scores"].items()) == list(plain["scores"].items())
    for entry, (relative, task) in paired(report["entries"], build.files):
        values = entry["per_sentence"]
        assert len(next(iter(values.values()))) == len(manifests["private"]["files"][relative]["indices"])
        kind = scoring.KINDS[task.kind]
        sums = dict((name, sum(column)) for name, column in values.items())
        computed = kind.from_sums(sums, len(next(iter(values.values()))), task)
        assert dict((c, computed[c]) for c in entry["components"]) == entry["components"]
        assert kind.score_value(computed) == pytest.approx(entry["score"], abs=1e-12)


def test_the_platform_outputs_of_a_part_and_of_a_blind_phase(build, tmp_path):
    """What the platform runs (the competition's evaluate.py, INPUT/ref + INPUT/res): the part's counts in the
    summary and the page, never the indices; blind: scores.txt and scores.json hold only ``valid``."""
    program = os.path.join(build.hosted.program, "evaluate.py")
    sub = build.zipped(build.submission)
    for mode, part in (("public_private", "public"), ("blind", "none")):
        public_dir, _, manifests = build.split(mode, "seed-a", "cli-" + mode)
        out = str(tmp_path / mode)
        stdout = _run([program, "--ref", public_dir, "--submission", sub, "--out", out])
        scores = json.load(open(os.path.join(out, "scores.json")))
        text = open(os.path.join(out, "scores.txt")).read()
        page = open(os.path.join(out, "detailed_results.html"), encoding="utf-8").read()
        detailed = json.load(open(os.path.join(out, "detailed_results.json")))
        assert detailed["split"]["part"] == part
        note = detailed["notes"]["split"]
        assert note in stdout and html.escape(note) in page
        if part == "none":
            assert set(scores) == set(["valid", "signature"]) and text.split(":")[0] == "valid"
            assert "validly predicted" in note
            # what follows from it (issue 33): no score now, the final ranking on the whole test gold
            assert note.endswith(". No score is shown during this phase; the final ranking scores every team's "
                                 "official submission (its last scored one) on the whole test gold, kept by the "
                                 "organisers.")
            for entry in detailed["entries"]:
                assert entry["valid_items"] == entry["expected_items"] > 0 and entry.get("score") is None
        else:
            assert "avg_score" in scores and note.startswith("public part: ")
            # what follows from it (issue 33): these scores are on the public part only, the final ranking re-scores
            # every team's official submission on the private rest
            assert note.endswith(": these scores, and the leaderboard's, are on the public part of the test set "
                                 "only; the final ranking re-scores every team's official submission (its last "
                                 "scored one) on the private rest, whose gold is not on the platform, so a final "
                                 "score and rank may differ from these.")
            indices = [spec["indices"] for spec in manifests["public"]["files"].values()]
            assert json.dumps(indices[0]) not in stdout + page + json.dumps(detailed)


def test_the_schedule_declares_the_mode(tmp_path):
    from organiser import schedule
    from evalkit.messages import DataError
    base = "phases:\n  dev:\n    opens: '2026-01-01 00:00'\n    closes: '2026-02-01 00:00'\n"
    path = str(tmp_path / "schedule.yaml")
    cases = [("", {"mode": "public_private", "public_fraction": 0.3}),
             ("test_feedback:\n  mode: blind\n", {"mode": "blind", "public_fraction": 0.3}),
             ("test_feedback:\n  mode: public_private\n  public_fraction: 0.5\n",
              {"mode": "public_private", "public_fraction": 0.5})]
    for extra, expected in cases:
        open(path, "w").write(base + extra)
        assert schedule.test_feedback(path) == expected
    for extra, where in (("test_feedback:\n  mode: hidden\n", "test_feedback.mode"),
                         ("test_feedback:\n  public_fraction: 1.5\n", "test_feedback.public_fraction"),
                         ("test_feedback:\n  mode: full\n  seed: 3\n", "test_feedback.seed"),
                         ("test_feedback: blind\n", "test_feedback")):
        open(path, "w").write(base + extra)
        with pytest.raises(DataError) as error:
            schedule.test_feedback(path)
        assert error.value.message.where == where
    for cid in COMPETITIONS:   # each competition declares its mode in its own schedule
        assert schedule.test_feedback(declarations.Hosted(cid).schedule)["mode"] in schedule.FEEDBACK_MODES


def test_a_practice_test_phase_is_not_split(tmp_path):
    """Without its test gold, SCATE's test phase is a labelled practice phase on public gold: nothing to keep apart."""
    hosted = declarations.Hosted("scate")
    sample, _ = _sample(hosted)
    ref = str(tmp_path / "ref")
    _run(["-m", "organiser", "reference", "--competition", "scate", "--data", sample, "--out", ref,
          "--report", str(tmp_path / "dq.md")])
    assert os.path.isdir(os.path.join(ref, "test"))
    assert "test" in json.load(open(os.path.join(ref, "public_gold.json")))
    assert not os.path.exists(os.path.join(ref, "test", organiser_split.SPLIT_FILE))
    assert not os.path.exists(os.path.join(ref, organiser_split.PRIVATE_FOLDER))


def test_a_practice_phase_built_after_a_split_one_keeps_no_stale_split(tmp_path):
    """SpanglishEval built with its sample's test gold (a split test phase), then into the same folder without it (a
    practice phase on the corpus's public test split, as a release build after the sample's): the earlier split.json
    is removed, else it describes other files and the practice phase's reference cannot be read."""
    from evalkit import split as evalkit_split
    hosted = declarations.Hosted("spanglisheval")
    sample, gold = _sample(hosted)
    ref = str(tmp_path / "ref")
    for extra in (["--test-gold", gold], []):
        _run(["-m", "organiser", "reference", "--competition", "spanglisheval", "--data", sample, "--out", ref,
              "--report", str(tmp_path / "dq.md")] + extra)
        assert os.path.isfile(os.path.join(ref, "test", organiser_split.SPLIT_FILE)) == bool(extra)
    assert "test" in json.load(open(os.path.join(ref, "public_gold.json")))
    assert evalkit_split.read_split(os.path.join(ref, "test")) is None


def test_a_part_is_never_split_again(build, tmp_path):
    """A test folder that holds a part (redacted items) is refused by the machinery step, not split again."""
    ref = str(tmp_path / "ref")
    public_dir = build.split("public_private", "seed-a", "again")[0]
    shutil.copytree(public_dir, os.path.join(ref, "test"))
    with pytest.raises(RuntimeError, match="not whole"):
        organiser_split.split_reference(ref, build.hosted, "seed-a", report=lambda text: None)
