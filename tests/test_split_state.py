"""The split is fixed once drawn (organiser/split.py ``SplitState``, issue 30): on each competition's sample build, a
gold fix, a removed item and an item put back keep every item in its part; a build that would make a private item
public is refused; a new draw is asked for and reports the union of the public parts; the final ranking refuses the
part the platform scored.

The full test gold is built by the competition's own reference builder (``test_split.Build``); each test copies it
into a reference folder of its own and splits it with :func:`organiser.split.split_reference`, as ``python -m
organiser reference`` does, with a split state file of its own.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from organiser import split as organiser_split
from test_split import COMPETITIONS, Build

quiet = dict(report=lambda text: None)


@pytest.fixture(scope="module", params=COMPETITIONS)
def build(request, tmp_path_factory):
    """The sample build of each competition (its full test gold)."""
    return Build(request.param, str(tmp_path_factory.mktemp("state-%s" % request.param)))


def _reference(build, root, change=None):
    """A reference folder ``root`` whose test phase is the build's full gold, ``change(relative, task, items)``
    applied to each file's items first (it returns the new items, or None to keep the file as it is)."""
    if os.path.isdir(root):
        shutil.rmtree(root)
    shutil.copytree(build.full, os.path.join(root, "test"))
    for relative, task in build.files:
        items_of = organiser_split.handler(task)
        path = os.path.join(root, "test", *relative.split("/"))
        with open(path, "rb") as handle:
            data = handle.read()
        changed = change(relative, task, items_of.read(data)) if change else None
        if changed is not None:
            with open(path, "wb") as handle:
                handle.write(items_of.write(changed, data))
    return root


def _parts(build, manifests):
    """``{file: {item id: part}}`` of a split, read from its manifests and the files' items."""
    found = {}
    for relative, task in build.files:
        items_of = organiser_split.handler(task)
        ids = [organiser_split.item_id(items_of, item, task) for item in build.items[relative]]
        public = set(manifests["public"]["files"][relative]["indices"])
        found[relative] = dict((ids[i], "public" if i in public else "private")
                               for i in manifests["private"]["files"][relative]["indices"] + sorted(public))
    return found


def _one_gold_changed(build):
    """The first scorable item of the first file with its gold changed (the kind's own scramble, applied to that
    item alone); ``(change function, file)``."""
    relative, task = build.files[0]
    items_of = organiser_split.handler(task)
    with open(os.path.join(build.full, *relative.split("/")), "rb") as handle:
        data = handle.read()
    scrambled = items_of.read(items_of.scramble(data, task, build.decl.TASKS[0].languages[0]) if task.kind not in (
        "token_labels", "sentence_labels") else items_of.scramble(data, task, relative.split("/")[-1].split(".")[0]
                                                                   if "/" in relative else _lang(build, relative)))
    index = next(i for i, item in enumerate(build.items[relative]) if items_of.scorable(item)
                 and items_of.gold(scrambled[i], task) != items_of.gold(item, task))

    def change(name, _, items):
        if name != relative:
            return None
        return items[:index] + [scrambled[index]] + items[index + 1:]
    return change, relative


def _lang(build, relative):
    """The language of a flat-named reference file."""
    from organiser import bundle
    return bundle.declared_reference_files(build.decl)[relative][1]


def test_a_gold_fix_keeps_every_item_in_its_part(build, tmp_path):
    """One gold changed, the reference rebuilt with the split state: the same items public, in every file."""
    state = str(tmp_path / "state.json")
    first = organiser_split.split_reference(_reference(build, str(tmp_path / "a")), build.hosted, state_path=state,
                                            **quiet)
    change, relative = _one_gold_changed(build)
    fixed = _reference(build, str(tmp_path / "b"), change)
    with open(os.path.join(build.full, *relative.split("/")), "rb") as one, \
            open(os.path.join(fixed, "test", *relative.split("/")), "rb") as two:
        assert one.read() != two.read()   # the gold did change
    second = organiser_split.split_reference(fixed, build.hosted, state_path=state, **quiet)
    for part in ("public", "private"):
        assert dict((name, spec["indices"]) for name, spec in first[part]["files"].items()) == \
            dict((name, spec["indices"]) for name, spec in second[part]["files"].items())
    assert first["public"]["seed_digest"] == second["public"]["seed_digest"]
    # without the state, a new random draw: the split is not derived from the gold any more
    third = organiser_split.split_reference(_reference(build, str(tmp_path / "c")), build.hosted,
                                            state_path=str(tmp_path / "other.json"), **quiet)
    assert third["public"]["seed_digest"] != first["public"]["seed_digest"]


def test_items_removed_and_put_back_keep_their_parts(build, tmp_path):
    """An item removed from every file of the test gold: the others keep their parts; put back, it gets its own part
    back (the state remembers it)."""
    state = str(tmp_path / "state.json")
    first = organiser_split.split_reference(_reference(build, str(tmp_path / "a")), build.hosted, state_path=state,
                                            **quiet)
    parts = _parts(build, first)
    relative = build.files[0][0]
    gone = first["private"]["files"][relative]["indices"][0]
    items_of = organiser_split.handler(build.files[0][1])
    gone_id = organiser_split.item_id(items_of, build.items[relative][gone], build.files[0][1])

    def remove(name, task, items):
        handler = organiser_split.handler(task)
        kept = [item for item in items if organiser_split.item_id(handler, item, task) != gone_id]
        return kept if len(kept) != len(items) else None
    second = organiser_split.split_reference(_reference(build, str(tmp_path / "b"), remove), build.hosted,
                                             state_path=state, **quiet)
    with open(state) as handle:
        kept = json.load(handle)["files"]
    for name, found in parts.items():
        for identity, part in found.items():
            assert kept[name][identity] == part, (name, identity)
    assert sum(spec["scored"] for spec in second["private"]["files"].values()) < \
        sum(spec["scored"] for spec in first["private"]["files"].values())
    third = organiser_split.split_reference(_reference(build, str(tmp_path / "c")), build.hosted, state_path=state,
                                            **quiet)
    assert _parts(build, third) == parts


def test_a_build_that_would_make_private_items_public_is_refused(build, tmp_path):
    """Mode full after a public/private draw would upload the private part's gold: refused with the items named,
    unless a new draw is asked for."""
    state = str(tmp_path / "state.json")
    organiser_split.split_reference(_reference(build, str(tmp_path / "a")), build.hosted, state_path=state, **quiet)
    before = open(state).read()
    schedule = str(tmp_path / "schedule.yaml")
    with open(build.hosted.schedule, encoding="utf-8") as handle:
        text = handle.read()
    import yaml
    value = yaml.safe_load(text)
    value["test_feedback"] = {"mode": "full"}
    with open(schedule, "w", encoding="utf-8") as handle:
        yaml.safe_dump(value, handle)
    with pytest.raises(organiser_split.SplitError) as error:
        organiser_split.split_reference(_reference(build, str(tmp_path / "b")), build.hosted, state_path=state,
                                        schedule=schedule, **quiet)
    assert "that an earlier draw made private would be public now" in str(error.value)
    assert "--new-split" in str(error.value)
    assert open(state).read() == before   # nothing written
    with pytest.raises(organiser_split.SplitError, match="draws another one"):
        organiser_split.split_reference(_reference(build, str(tmp_path / "c")), build.hosted, "another seed",
                                        state_path=state, **quiet)


def test_a_new_draw_reports_the_public_parts_together(build, tmp_path):
    """``--new-split``: another seed, and the state says how many items the two draws made public together."""
    state = str(tmp_path / "state.json")
    lines = []
    first = organiser_split.split_reference(_reference(build, str(tmp_path / "a")), build.hosted, "seed-a",
                                            state_path=state, report=lines.append)
    second = organiser_split.split_reference(_reference(build, str(tmp_path / "b")), build.hosted, "seed-b",
                                             state_path=state, new_draw=True, report=lines.append)
    assert first["public"]["seed_digest"] != second["public"]["seed_digest"]
    one, two = _parts(build, first), _parts(build, second)   # items counted once (an id in several files: one)
    public_one = set(i for found in one.values() for i, p in found.items() if p == "public")
    public_two = set(i for found in two.values() for i, p in found.items() if p == "public")
    union, now = len(public_one | public_two), len(public_two)
    items = len(set(i for found in two.values() for i in found))
    assert union >= now and union >= len(public_one)
    assert "2 draws made %d of %d items public together (this one %d)" % (union, items, now) in lines[-2], lines
    path, found = organiser_split.state_of(str(tmp_path / "b"))
    assert path == os.path.abspath(state) and found.counts() == (items, now, union)


def test_the_final_ranking_refuses_the_public_part(tmp_path):
    """``make results`` on a phase whose private part is missing: exit 2, the missing folder named, how to get it
    back; never a ranking on the part the platform scored."""
    build = Build("lince", str(tmp_path / "build"))
    ref = _reference(build, str(tmp_path / "ref"))
    organiser_split.split_reference(ref, build.hosted, state_path=str(tmp_path / "state.json"), **quiet)
    shutil.rmtree(os.path.join(ref, "private"))
    out = str(tmp_path / "results")
    process = subprocess.run([sys.executable, "-m", "organiser", "results", "--competition", "lince", "--reference",
                              os.path.join(ref, "test"), "--submissions", os.path.join(str(tmp_path / "build"), "dist",
                                                                                       "submissions"),
                              "--out", out, "--resamples", "10"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True)
    assert process.returncode == 2, process.stderr
    assert "not the gold kept apart for the final ranking: rank on %s" % os.path.join(ref, "private", "test") \
        in process.stderr
    assert "it is missing here" in process.stderr and "splits/<id>.json" in process.stderr
    assert not os.path.exists(os.path.join(out, "ranking.csv"))


@pytest.mark.parametrize("cid", ["st2024", "spanglisheval"])
def test_twins_and_near_copies_are_public_together(cid, tmp_path):
    """ST2024: a sentence added once more with one form changed (a near copy: its gold nearly gives the other's);
    SpanglishEval: a set added again under another id with the same gold sentence. Each is in the part of the item it
    copies, whatever the seed."""
    build = Build(cid, str(tmp_path / "build"))
    relative, task = next((r, t) for r, t in build.files if t.kind in ("tagging", "choice"))
    items_of = organiser_split.handler(task)
    source = next(i for i, item in enumerate(build.items[relative]) if items_of.scorable(item) and (
        len(item) >= 5 if task.kind == "tagging" else True))

    def copy(name, _, items):
        if name != relative:
            return None
        twin = json.loads(json.dumps(items[source]))
        if task.kind == "tagging":
            twin[2][0] = twin[2][0] + "x"
        else:
            twin["id"] = "%s-twin" % twin["id"]
            twin["sentences"] = list(reversed(twin["sentences"]))
            twin["gold"] = len(twin["sentences"]) - 1 - twin["gold"]
        return items + [twin]
    ref = _reference(build, str(tmp_path / "ref"), copy)
    with open(os.path.join(ref, "test", *relative.split("/")), "rb") as handle:
        changed = items_of.read(handle.read())
    twin = len(changed) - 1
    assert items_of.key(changed[twin], task) != items_of.key(changed[source], task)   # not the same input
    for seed in ("seed-a", "seed-b", "seed-c"):
        manifests = organiser_split.split_reference(ref, build.hosted, seed, state_path=str(tmp_path / seed),
                                                    **quiet)
        public = set(manifests["public"]["files"][relative]["indices"])
        assert (source in public) == (twin in public), seed
        shutil.rmtree(os.path.join(ref, "test"))
        ref = _reference(build, ref, copy)


def test_the_audit_looks_for_the_seed_and_the_state(tmp_path):
    """``make check``'s split audit: an uploaded file that holds the split's seed fails (``audit.split-state``, the
    file named), and so does a build whose split state is gone; otherwise the state's summary is printed."""
    import zipfile
    from conftest import build_competition
    from organiser import audit, bundle, declarations
    state = str(tmp_path / "state.json")
    ref, dist = build_competition("lince", tmp_path / "build", split_state=state)
    manifest = bundle.read_manifest(dist)
    decl = declarations.load("lince")
    found = audit.audit_split(decl, dist, manifest)
    assert not [f for f in found.findings if f.rule == "audit.split-state"]
    assert any(line.startswith("split state: %s" % os.path.abspath(state)) for line in found.lines), found.lines
    seed = json.load(open(state))["seed"]
    kit = os.path.join(dist, bundle.STARTING_KIT_MEMBER)
    with zipfile.ZipFile(kit, "a") as archive:
        archive.writestr("lince-starting-kit/notes.txt", "split seed: %s\n" % seed)
    found = audit.audit_split(decl, dist, manifest)
    said = [f for f in found.findings if f.rule == "audit.split-state"]
    assert len(said) == 1 and said[0].where.endswith("!lince-starting-kit/notes.txt"), said
    assert "holds the split's seed" in said[0].text
    os.remove(state)
    found = audit.audit_split(decl, dist, manifest)
    said = [f for f in found.findings if f.rule == "audit.split-state"]
    assert any("split state that drew this build's split is missing" in f.text for f in said), said


def test_parts_kept_from_a_blind_draw_are_said_to_leave_the_public_part_empty(tmp_path):
    """A state drawn in mode blind (everything private) kept by a public/private build: no item is made public (that
    would reveal a gold the draw kept hidden), and the build says so, with the way out."""
    import yaml
    build = Build("lince", str(tmp_path / "build"))
    schedule = str(tmp_path / "schedule.yaml")
    with open(build.hosted.schedule, encoding="utf-8") as handle:
        value = yaml.safe_load(handle)
    value["test_feedback"] = {"mode": "blind"}
    with open(schedule, "w", encoding="utf-8") as handle:
        yaml.safe_dump(value, handle)
    state = str(tmp_path / "state.json")
    organiser_split.split_reference(_reference(build, str(tmp_path / "a")), build.hosted, state_path=state,
                                    schedule=schedule, **quiet)
    lines = []
    manifests = organiser_split.split_reference(_reference(build, str(tmp_path / "b")), build.hosted,
                                                state_path=state, report=lines.append)
    assert all(spec["scored"] == 0 for spec in manifests["public"]["files"].values())
    said = [line for line in lines if line.startswith("WARNING:")]
    assert len(said) == 1 and "have an empty public or private part" in said[0] and "NEW_SPLIT=1" in said[0]
