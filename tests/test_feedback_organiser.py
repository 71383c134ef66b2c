"""The organiser side of the test phase's feedback modes (issue 23): bundles, leaderboards, descriptions, pages, the
split audit of ``make check``, and what Codabench makes of a v1.5 bundle (organiser/feedback.py, bundle.py,
audit.py, check.py, platforms.py), on a small ST2024 tree split as the split's contract says (tests/split_fixture.py).
"""
import io
import json
import os
import zipfile

import pytest
import yaml

import st2024
from organiser import audit, bundle, check, feedback, platforms
from split_fixture import split_reference, public_indices
from test_bundle import build_tree, read_zip, write

SENTENCES = 7


def gold_sentence(task, index):
    """Sentence ``index`` of a test reference file of ``task``: distinctive forms and gold."""
    a, b = "tx%da" % index, "tx%db" % index
    if task.kind == "fill_mask":   # each task its own sentences (the same sentence in two tasks: a split's concern)
        a, b = a + task.folder[-4:], b + task.folder[-4:]
        return {"masked": "%s %s c" % (a, task.mask_marker), "text": "%s %s c" % (a, b), "masked_tokens": [b]}
    if task.kind == "morph":
        return [{"Token": a, "UPOS": "NOUN", "Case": "Nom"}, {"Token": b, "UPOS": "VERB"}]
    if task.kind == "candidates":
        return [[a, a + "lemma"], [b, b + "lemma"]]
    return [[a, "NOUN"], [b, "VERB"]]


def build_split(base, mode=feedback.PUBLIC_PRIVATE):
    """A small ST2024 build whose test reference is split in ``mode``: ``(dist, reference, public split)``."""
    argv = build_tree(base, phases=("dev", "test"))
    reference, out = argv[argv.index("--reference") + 1], argv[argv.index("--out") + 1]
    for task, lang in bundle.subtask_pairs(st2024, "unconstrained"):
        write(os.path.join(reference, "test", task.folder, lang + ".json"),
              json.dumps([gold_sentence(task, i) for i in range(SENTENCES)]))
    split = split_reference(reference, st2024, mode)
    assert bundle.main(argv) == 0
    return out, reference, split


@pytest.fixture(scope="module")
def public_private(tmp_path_factory):
    return build_split(tmp_path_factory.mktemp("pp"))


@pytest.fixture(scope="module")
def blind(tmp_path_factory):
    return build_split(tmp_path_factory.mktemp("blind"), feedback.BLIND)


def competition(out, name="st2024-unconstrained.zip"):
    return yaml.safe_load(read_zip(os.path.join(out, "bundles", name))["competition.yaml"])


def official_phase(out, name="st2024-unconstrained.zip"):
    found = competition(out, name)
    phases = found["phases"]
    if isinstance(phases, dict):
        return next(p for p in phases.values() if p["reference_data"] == "reference_data_test.zip")
    return next(p for p in phases if "test" in p["name"].lower())


# --------------------------------------------------------------------------- bundles and leaderboards

def test_the_uploaded_test_reference_is_the_public_part_with_its_split(public_private):
    out, reference, split = public_private
    members = read_zip(os.path.join(out, "reference", "unconstrained-test.zip"))
    assert json.loads(members["split.json"].decode()) == split
    name = "pos_tagging/lat.json"
    uploaded = json.loads(members[name].decode())
    with open(os.path.join(reference, "private", "test", name), encoding="utf-8") as handle:
        private = json.load(handle)
    assert 0 < len(public_indices(split, name)) < SENTENCES
    for index in range(SENTENCES):
        public = index in public_indices(split, name)
        assert (uploaded[index][0][1] is not None) == public
        assert (private[index][0][1] is not None) == (not public)
    # nothing of REF/private/ is uploaded: no member of any bundle is one of its files
    for platform_bundle in os.listdir(os.path.join(out, "bundles")):
        bundle_members = read_zip(os.path.join(out, "bundles", platform_bundle))
        nested = read_zip(bundle_members["reference_data_test.zip"])
        assert nested[name] == members[name]


def test_the_private_folder_is_no_phase(public_private):
    _, reference, _ = public_private
    assert "private" not in bundle._phase_folders(reference)
    assert "test" in bundle.PhaseStates(reference).splits


def test_public_private_descriptions_say_the_public_part(public_private):
    out, _, split = public_private
    names = [bundle.reference_file(st2024, t, l) for t, l in bundle.subtask_pairs(st2024, "unconstrained")]
    scored, items, unit = feedback.part_sizes(split, names)
    heads = [name for name in names if split["files"][name].get("same_items_as") not in names]   # items once
    assert 0 < len(heads) < len(names)   # the tasks of one treebank hold the same sentences
    assert (unit, items) == ("sentences", SENTENCES * len(heads))
    for name in ("st2024-unconstrained.zip", "st2024-unconstrained-codabench.zip"):
        description = official_phase(out, name)["description"]
        assert "public part: %d of %d sentences" % (scored, items) in description
        assert "hidden test gold" not in description
        assert len(description) <= check.MAX_DESCRIPTION
    assert feedback.VALID_KEY not in competition(out)["leaderboard"]["columns"]


def test_blind_adds_the_valid_column_on_both_platforms_and_check_accepts_it(blind):
    out, _, _ = blind
    v15 = competition(out)
    columns = sorted(v15["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])
    assert columns[-1][0] == feedback.VALID_KEY and columns[-1][1]["label"] == feedback.VALID_LABEL
    v2 = competition(out, "st2024-unconstrained-codabench.zip")
    assert v2["leaderboards"][0]["columns"][-1]["key"] == feedback.VALID_KEY
    assert "Valid predictions" in official_phase(out)["description"]
    for name in ("st2024-unconstrained.zip", "st2024-unconstrained-codabench.zip"):
        failures, _, _ = check.check_bundle(os.path.join(out, "bundles", name), decl=st2024)
        assert not [f for f in failures if f.rule.startswith(("column", "v2.leaderboard"))], failures


def test_a_valid_column_without_a_blind_phase_fails_the_check(public_private):
    out, _, _ = public_private
    path = os.path.join(out, "bundles", "st2024-unconstrained.zip")
    _, members, found, _ = check.read_bundle(path)
    bundle.add_valid_column(found["leaderboard"])
    failures = check.check_leaderboard(found, members, st2024)
    assert [f for f in failures if f.rule == "column.declaration" and "no phase is blind" in f.text]


def test_the_simulated_workers_expect_only_valid_from_a_blind_phase(blind):
    out, _, _ = blind
    _, members, found, _ = check.read_bundle(os.path.join(out, "bundles", "st2024-unconstrained.zip"))
    assert check.blind_phases(found, members) == [official_phase(out)["label"]]


# --------------------------------------------------------------------------- the split audit

def manifest_of(out):
    return bundle.read_manifest(out)


def test_the_split_audit_passes_a_clean_build_and_says_what_it_did(public_private):
    out, _, _ = public_private
    result = audit.audit_split(st2024, out, manifest_of(out))
    assert result.findings == []
    text = "\n".join(result.lines)
    assert "mode public_private" in text and "none found" in text
    assert "reference/unconstrained-test.zip: public part: " in text and "every other item redacted" in text


def test_a_private_item_in_a_public_data_zip_fails(public_private, tmp_path):
    out, reference, split = public_private
    name = "pos_tagging/lat.json"
    with open(os.path.join(reference, "private", "test", name), "rb") as handle:
        private = handle.read()
    leak = os.path.join(out, "public_data", "leak-test.zip")
    with zipfile.ZipFile(leak, "w") as archive:
        archive.writestr("data/" + name, private)
    try:
        result = audit.audit_split(st2024, out, manifest_of(out))
    finally:
        os.remove(leak)
    found = [f for f in result.findings if f.rule == "audit.private-gold"]
    assert found and found[0].where.startswith(os.path.join("public_data", "leak-test.zip") + "!data/")
    assert "%d gold item(s)" % (SENTENCES - len(public_indices(split, name))) in found[0].text


def test_an_unredacted_private_item_in_the_test_reference_fails(public_private, tmp_path):
    out, reference, split = public_private
    path = os.path.join(out, "reference", "unconstrained-test.zip")
    with open(path, "rb") as handle:
        original = handle.read()
    members = read_zip(original)
    name = "pos_tagging/lat.json"
    uploaded = json.loads(members[name].decode())
    private = next(i for i in range(SENTENCES) if i not in public_indices(split, name))
    uploaded[private] = gold_sentence(st2024.TASKS_BY_FOLDER["pos_tagging"], private)
    members[name] = json.dumps(uploaded).encode()
    try:
        with open(path, "wb") as handle:
            handle.write(bundle.zip_bytes(members))
        result = audit.audit_split(st2024, out, manifest_of(out))
    finally:
        with open(path, "wb") as handle:
            handle.write(original)
    rules = set(f.rule for f in result.findings)
    assert {"audit.public-part", "audit.private-gold"} <= rules
    assert any("sentence %d" % (private + 1) in f.text and "keep their gold" in f.text for f in result.findings)


def test_a_test_reference_without_its_split_fails(public_private):
    out, _, _ = public_private
    members = read_zip(os.path.join(out, "reference", "unconstrained-test.zip"))
    del members["split.json"]
    found, line = audit.public_part(st2024, "x.zip", bundle.zip_bytes(members), {}, feedback.PUBLIC_PRIVATE)
    assert found and "no split.json" in line


def test_the_blind_audit_finds_no_gold_uploaded(blind):
    out, _, _ = blind
    result = audit.audit_split(st2024, out, manifest_of(out))
    assert result.findings == []
    assert any("blind: no item scored" in line for line in result.lines)


def test_a_build_without_split_is_said_full(tmp_path):
    argv = build_tree(tmp_path, phases=("dev", "test"))
    assert bundle.main(argv) == 0
    out = argv[argv.index("--out") + 1]
    result = audit.audit_split(st2024, out, manifest_of(out))
    assert result.findings == [] and "mode full" in result.lines[0]


def test_a_codabench_bundle_is_audited_with_its_twin_and_says_so(public_private):
    out, _, _ = public_private
    paths = [os.path.join(out, "bundles", n) for n in ("st2024-unconstrained.zip",
                                                       "st2024-unconstrained-codabench.zip")]
    said = []
    assert audit.codabench_twin(check, paths[1], paths, report=said.append) == []
    assert "audited with its CodaLab twin st2024-unconstrained.zip" in said[0]
    assert "hides the outputs of" in said[0] and "Force_Last" in said[0]
    found = audit.codabench_twin(check, paths[1], paths[1:], report=said.append)
    assert found and found[0].rule == "audit.codabench-twin"


# --------------------------------------------------------------------------- Codabench's V15Unpacker

def test_what_codabench_makes_of_a_v15_bundle(public_private):
    out, _, _ = public_private
    found = competition(out)
    losses = platforms.codabench_v15_losses(found)
    by_what = dict((loss.what, loss) for loss in losses)
    assert by_what["leaderboard rule"].codabench.startswith("Add")
    assert by_what["leaderboard rule"].codalab == platforms.LAST
    test_label = official_phase(out)["label"]
    assert "ignored" in by_what["%s: leaderboard_management_mode: hide_results" % test_label].codabench
    for key in ("force_submission_to_leaderboard", "disallow_leaderboard_modifying", "hide_chart"):
        assert by_what[key].codabench == "ignored"
    # each phase but the last ends one day before the next starts
    codalab = platforms.codalab(found).phases
    ends = [loss for loss in losses if loss.what.endswith(" ends")]
    assert len(ends) == len(codalab) - 1
    assert ends[0].codalab == platforms._when(codalab[0].closes)
    assert ends[0].codabench.startswith(platforms._when(codalab[1].opens - __import__("datetime").timedelta(days=1)))
    assert all("v1.py" in loss.source for loss in losses)
    # the caps the bundle sets are kept; a phase without one gets Codabench's 5
    assert not [loss for loss in losses if "daily cap" in loss.what]
    del found["phases"][1]["max_submissions_per_day"]
    found["anonymous_leaderboard"] = True
    again = dict((loss.what, loss) for loss in platforms.codabench_v15_losses(found))
    assert again["%s: daily cap" % found["phases"][1]["label"]].codabench.startswith("5 ")
    assert again["anonymous_leaderboard"].codabench == "ignored"


def test_check_warns_about_each_v15_bundle_on_codabench(public_private):
    out, _, _ = public_private
    said = []
    path = os.path.join(out, "bundles", "st2024-unconstrained.zip")
    losses = check.codabench_v15_report(path, competition(out), report=said.append)
    assert "for Codabench upload st2024-unconstrained-codabench.zip instead" in said[0]
    assert "self-hosted CodaLab" in said[0]
    assert len([line for line in said if "WARNING [codabench.v15]" in line]) == len(losses) > 0
    assert any(line.startswith("  kept: the daily caps") for line in said)


# --------------------------------------------------------------------------- words

def test_each_mode_says_what_participants_see_and_how_the_ranking_is_made():
    split = {"mode": "public_private", "unit": "sets", "files": {"a": {"items": 10, "scored": 3, "indices": [0, 4, 7]},
                                                                  "b": {"items": 5, "scored": 2, "indices": [1, 2]}}}
    assert feedback.public_part_text(split) == "public part: 5 of 15 sets"
    assert feedback.public_part_text(split, ["b"]) == "public part: 2 of 5 sets"
    assert "public part: 5 of 15 sets" in feedback.test_description(split)
    assert "private part" in feedback.what_participants_see(split)
    blind_split = dict(split, mode="blind")
    assert feedback.public_part_text(blind_split) is None
    assert feedback.VALID_LABEL in feedback.what_participants_see(blind_split)
    assert "whole test gold" in feedback.what_participants_see(None)
    assert feedback.test_description(None) is None
    with pytest.raises(ValueError):
        feedback.parse_split('{"mode": "other", "files": {}}', "x")


def test_redacted_items_of_a_split_reference_are_no_public_gold(public_private):
    out, _, split = public_private
    members = read_zip(os.path.join(out, "reference", "unconstrained-test.zip"))
    name = "pos_tagging/lat.json"
    private = next(i for i in range(SENTENCES) if i not in public_indices(split, name))
    redacted = json.loads(members[name].decode())[private]
    reachable = (set(), set([audit.dump(redacted)]))   # the redacted item reads like public test input
    files = dict((n, members[n]) for n in (name, "split.json"))
    assert audit.public_gold(st2024, files, "test", reachable, False) == []
    del files["split.json"]
    assert audit.public_gold(st2024, files, "test", reachable, False)   # without the split it would be gold


def test_the_pages_and_organisers_md_say_what_participants_see(public_private, blind):
    out, _, split = public_private
    names = [bundle.reference_file(st2024, t, l) for t, l in bundle.subtask_pairs(st2024, "unconstrained")]
    with open(os.path.join(out, "pages", "unconstrained", "overview.html"), encoding="utf-8") as handle:
        overview = handle.read()
    assert feedback.public_part_text(split, names) in overview and "private part" in overview
    with open(os.path.join(out, "pages", "unconstrained", "timeline.html"), encoding="utf-8") as handle:
        timeline = handle.read()
    assert "stays hidden until" not in timeline and "what the test phase scores" in timeline
    with open(os.path.join(out, "ORGANISERS.md"), encoding="utf-8") as handle:
        organisers = handle.read()
    assert organisers.startswith("# Running a competition of this kit on Codabench")
    assert "Test feedback: mode `public_private` (this build)" in organisers
    blind_out = blind[0]
    with open(os.path.join(blind_out, "pages", "unconstrained", "overview.html"), encoding="utf-8") as handle:
        assert feedback.VALID_LABEL in handle.read()
