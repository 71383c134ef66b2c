"""Fair competitions: what a phase's report may show (evalkit/policy.py), the test input kept out of every bundle and
starting kit, a public test gold built only as a labelled practice phase, and the leak audit of ``make check``
(organiser/audit.py), which fails on every planted leak: gold in a report, gold in public data, the test input in
a development-phase kit."""
import io
import json
import os
import re
import shutil
import zipfile

import pytest
import yaml

from conftest import ROOT, build_competition
from organiser import audit, bundle, check, declarations
from evalkit import cli, policy


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """Every further competition built from its sample as ``make`` builds it: ``{cid: (reference, dist)}``."""
    found = {}
    for cid in ("lince", "scate", "spanglisheval"):
        found[cid] = build_competition(cid, tmp_path_factory.mktemp(cid))
    return found


def bundle_path(dist, cid):
    return os.path.join(dist, "bundles", "%s.zip" % cid)


def run_audit(cid, dist, path=None):
    """The audit's findings (failures only) on the CodaLab bundle of a build."""
    manifest = bundle.read_manifest(dist)
    findings = audit.audit_bundle(check, declarations.load(cid), path or bundle_path(dist, cid),
                                  audit.read_test_inputs(dist, manifest), os.path.join(dist, "submissions"),
                                  report=lambda text: None)
    return [f for f in findings if not f.note]


def rewrite_member(path, target, member, change):
    """A copy of the bundle at ``path`` (written to ``target``) whose nested zip ``member`` is changed by
    ``change({name: bytes})``."""
    with zipfile.ZipFile(path) as archive:
        members = dict((info.filename, archive.read(info)) for info in archive.infolist())
    with zipfile.ZipFile(io.BytesIO(members[member])) as nested:
        inner = dict((info.filename, nested.read(info)) for info in nested.infolist())
    change(inner)
    members[member] = bundle.zip_bytes(inner)
    with open(target, "wb") as handle:
        handle.write(bundle.zip_bytes(members))
    return target


# --------------------------------------------------------------------------- the report policy

def score(cid, ref_dir, submission, out):
    """The CLI's outputs (the local form) and its exit status."""
    status = cli.main(declarations.load(cid), ["--ref", ref_dir, "--submission", submission, "--out", str(out),
                                              "--quiet"])
    with open(os.path.join(str(out), "detailed_results.json"), encoding="utf-8") as handle:
        return status, json.load(handle)


def test_a_hidden_gold_phase_reports_scores_and_format_messages_only(builds, tmp_path):
    ref, dist = builds["lince"]
    submission = os.path.join(dist, "submissions", "lince-test-baseline.zip")
    status, hidden = score("lince", os.path.join(ref, "test"), submission, tmp_path / "test")
    assert status == 0 and hidden["gold"] == "hidden" and policy.HIDDEN_NOTE == hidden["notes"]["gold"]
    for entry in hidden["entries"]:
        assert set(entry) <= set(policy.KEPT_ENTRY_FIELDS) and "details" not in entry and "items" not in entry
    html = (tmp_path / "test" / "detailed_results.html").read_text(encoding="utf-8")
    assert "Per tag" not in html and "hidden" in html
    shutil.copytree(os.path.join(ref, "test"), str(tmp_path / "as_dev"))
    (tmp_path / "as_dev" / "phase.json").write_text('{"phase": "dev", "gold": "public"}')
    _, full = score("lince", str(tmp_path / "as_dev"), submission, tmp_path / "dev")
    assert "gold" not in full and any(entry["details"] for entry in full["entries"])
    assert hidden["scores"] == full["scores"]   # the policy never changes a score


@pytest.mark.parametrize("content", [None, "", "not json", '{"gold": "public-ish"}', "[1]"])
def test_a_reference_without_a_usable_phase_file_is_treated_as_hidden(tmp_path, content):
    if content is not None:
        (tmp_path / "phase.json").write_text(content)
    assert policy.read(str(tmp_path))["gold"] == "hidden"


# --------------------------------------------------------------------------- the builds

def test_every_phase_of_every_bundle_says_whose_gold_it_has(builds):
    for cid, (ref, dist) in builds.items():
        with zipfile.ZipFile(bundle_path(dist, cid)) as archive:
            competition = yaml.safe_load(archive.read("competition.yaml"))
            for phase in competition["phases"].values():
                names = zipfile.ZipFile(io.BytesIO(archive.read(phase["reference_data"]))).namelist()
                if bundle.is_pending_reference(names):
                    continue
                stated = json.loads(zipfile.ZipFile(io.BytesIO(archive.read(phase["reference_data"])))
                                    .read("phase.json"))
                assert stated["gold"] == ("public" if phase["reference_data"].endswith("_dev.zip") else "hidden"), cid


def test_the_test_input_is_written_apart_and_in_no_bundle_or_kit(builds):
    for cid, (ref, dist) in builds.items():
        test_input = os.path.join(dist, "public_data", "%s-test.zip" % cid)
        assert os.path.isfile(test_input), cid
        with zipfile.ZipFile(test_input) as archive:
            inputs = [archive.read(info) for info in archive.infolist() if not info.is_dir()]
        with zipfile.ZipFile(bundle_path(dist, cid)) as archive:
            competition = yaml.safe_load(archive.read("competition.yaml"))
            test = [p for p in competition["phases"].values() if p["reference_data"].endswith("_test.zip")][0]
            placeholder = zipfile.ZipFile(io.BytesIO(archive.read(test["public_data"]))).namelist()
            assert bundle.is_pending_public(placeholder), cid
            everything = b"".join(archive.read(name) for name in archive.namelist())
            kit = zipfile.ZipFile(io.BytesIO(archive.read("starting_kit.zip")))
            kit_text = b"".join(kit.read(name) for name in kit.namelist())
        for data in inputs:
            assert data not in everything and data not in kit_text, cid


def test_a_public_test_gold_builds_a_labelled_practice_phase(tmp_path):
    ref, dist = build_competition("spanglisheval", tmp_path, test_gold=None)
    with zipfile.ZipFile(bundle_path(dist, "spanglisheval")) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
        overview = archive.read("overview.html").decode("utf-8")
    test = competition["phases"][2]
    assert test["label"].endswith("(practice)") and test["description"].startswith("PRACTICE PHASE")
    assert "practice phase" in overview
    assert bundle.read_manifest(dist)["test_state"] == "practice"
    notes = [f for f in check.check_phase_data(competition, dict(
        (n, zipfile.ZipFile(bundle_path(dist, "spanglisheval")).read(n))
        for n in zipfile.ZipFile(bundle_path(dist, "spanglisheval")).namelist()), "spanglisheval")]
    assert any(check.is_note(f) and f.text.startswith("PRACTICE") for f in notes)


# --------------------------------------------------------------------------- the audit and planted leaks

@pytest.mark.parametrize("cid", ["lince", "scate", "spanglisheval"])
def test_the_builds_of_make_pass_the_audit(builds, cid):
    ref, dist = builds[cid]
    failures = run_audit(cid, dist)
    assert not failures, [(f.rule, f.where, f.text) for f in failures]


@pytest.mark.parametrize("cid", ["lince", "scate", "spanglisheval"])
def test_a_report_that_shows_the_gold_fails_the_audit(builds, cid, tmp_path):
    ref, dist = builds[cid]

    def ignore_policy(members):
        members["evalkit/policy.py"] += b"\n\ndef apply(report, policy):\n    return report\n"
    planted = rewrite_member(bundle_path(dist, cid), str(tmp_path / "planted.zip"), "scoring_program.zip",
                             ignore_policy)
    rules = set(f.rule for f in run_audit(cid, dist, planted))
    assert "audit.report" in rules


@pytest.mark.parametrize("cid", ["lince", "scate", "spanglisheval"])
def test_gold_in_public_data_fails_the_audit(builds, cid, tmp_path):
    ref, dist = builds[cid]
    test_reference = os.path.join(ref, "test")

    def add_gold(members):
        for name in os.listdir(test_reference):
            with open(os.path.join(test_reference, name), "rb") as handle:
                members["%s-starting-kit/data/extra/%s" % (cid, name)] = handle.read()
    planted = rewrite_member(bundle_path(dist, cid), str(tmp_path / "planted.zip"), "starting_kit.zip", add_gold)
    found = [f for f in run_audit(cid, dist, planted) if f.rule == "audit.public-gold"]
    assert found and "can be read from what participants can reach" in found[0].text


@pytest.mark.parametrize("cid", ["lince", "scate", "spanglisheval"])
def test_the_test_input_in_the_development_kit_fails_the_audit(builds, cid, tmp_path):
    ref, dist = builds[cid]
    with zipfile.ZipFile(os.path.join(dist, "public_data", "%s-test.zip" % cid)) as archive:
        inputs = dict((info.filename, archive.read(info)) for info in archive.infolist() if not info.is_dir())

    def add_input(members):
        members.update(("%s-starting-kit/data/%s" % (cid, name), data) for name, data in inputs.items())
    planted = rewrite_member(bundle_path(dist, cid), str(tmp_path / "planted.zip"), "starting_kit.zip", add_input)
    assert "audit.early-release" in set(f.rule for f in run_audit(cid, dist, planted))


def test_the_test_input_inside_a_bundle_fails_the_check(builds, tmp_path):
    ref, dist = builds["lince"]
    with open(os.path.join(dist, "public_data", "lince-test.zip"), "rb") as handle:
        real_input = handle.read()
    with zipfile.ZipFile(bundle_path(dist, "lince")) as archive:
        members = dict((info.filename, archive.read(info)) for info in archive.infolist())
    members[bundle.PUBLIC_DATA_MEMBER] = real_input
    competition = yaml.safe_load(members["competition.yaml"])
    failures = check.check_phase_data(competition, members, "lince")
    assert [f for f in failures if f.rule == "phase.test-input" and not check.is_note(f)]


# --------------------------------------------------------------------------- the attack on SpanglishEval's reports

def rows(value):
    """Every list of scalars inside a JSON value (the rows of the report's tables)."""
    if isinstance(value, list):
        if value and all(not isinstance(cell, (list, dict)) for cell in value):
            yield value
        for item in value:
            for row in rows(item):
                yield row
    elif isinstance(value, dict):
        for item in value.values():
            for row in rows(item):
                yield row


def learned_golds(report_dir, sets, chosen):
    """What an attacker reads in a report: ``{set id: gold sentence}`` for every table row that names a set and one
    of its sentences other than the one the attacker chose (the detailed results as the participant gets them)."""
    with open(os.path.join(report_dir, "detailed_results.json"), encoding="utf-8") as handle:
        report = json.load(handle)
    learned = {}
    for row in rows(report):
        for ident in [cell for cell in row if isinstance(cell, str) and cell in sets]:
            others = [cell for cell in row if cell in sets[ident] and cell != sets[ident][chosen[ident]]]
            if others:
                learned[ident] = others[0]
    return learned


def attack(cid, ref_dir, sets, tmp_path, rounds=10):
    """A constant chooser that reuses what each report reveals: accuracy of its first and last submission."""
    decl = declarations.load(cid)
    tmp_path.mkdir(parents=True, exist_ok=True)
    known, accuracies = {}, []
    for number in range(rounds):
        predictions = dict((ident, sentences.index(known[ident]) if ident in known else 0)
                           for ident, sentences in sets.items())
        submission = tmp_path / ("round%d" % number)
        submission.mkdir()
        (submission / decl.SUBMISSION_FILE).write_text(json.dumps(predictions))
        out = tmp_path / ("out%d" % number)
        status, report = score(cid, ref_dir, str(submission), out)
        assert status == 0
        accuracies.append(report["scores"]["avg_score"])
        known.update(learned_golds(str(out), sets, predictions))
    return accuracies[0], accuracies[-1]


def read_sets(path):
    with open(path, encoding="utf-8") as handle:
        return dict((item["id"], item["sentences"]) for item in map(json.loads, handle) if item)


def test_learning_from_the_reports_gains_nothing_in_the_test_phase(builds, tmp_path):
    ref, dist = builds["spanglisheval"]
    with zipfile.ZipFile(os.path.join(dist, "public_data", "spanglisheval-test.zip")) as archive:
        archive.extractall(str(tmp_path / "test_input"))
    test_sets = read_sets(str(tmp_path / "test_input" / "test" / "sets.jsonl"))
    first, last = attack("spanglisheval", os.path.join(ref, "test"), test_sets, tmp_path / "test")
    assert last == first
    shown = "".join((tmp_path / "test" / "out0" / name).read_text(encoding="utf-8")
                    for name in ("detailed_results.json", "detailed_results.html"))
    assert not [sentence for sentences in test_sets.values() for sentence in sentences if sentence in shown]
    # The same attack on the development phase, whose reports show everything (its gold is public anyway),
    # learns golds: the attack itself works.
    dev_sets = read_sets(os.path.join(ref, "public", "dev", "dev", "sets.jsonl"))
    first_dev, last_dev = attack("spanglisheval", os.path.join(ref, "dev"), dev_sets, tmp_path / "dev")
    assert last_dev > first_dev


def test_the_organisers_procedure_is_generated_from_the_declarations():
    from organiser import procedure
    with open(os.path.join(ROOT, "docs", "organisers.md"), encoding="utf-8") as handle:
        assert handle.read() == procedure.tracked_document(), "docs/organisers.md is stale: run `make docs`"


def test_a_test_gold_that_is_a_file_of_the_release_fails_the_check(tmp_path):
    """SCATE built with the release's own spans-only test gold given as TEST_GOLD: the gold is public."""
    data = os.path.join(ROOT, "competitions", "scate", "sample_data")
    public_gold = os.path.join(data, "test_te3_spans_only")
    assert audit.release_gold({"test_gold": public_gold, "data": data})
    assert not audit.release_gold({"test_gold": os.path.join(data, "test_gold"), "data": data})
    ref, dist = build_competition("scate", tmp_path, test_gold=public_gold, baselines=False)
    assert check.main(["--dist", dist, "--static-only"]) == 0   # the static rules cannot know
    findings = audit.release_gold(bundle.read_manifest(dist))
    assert findings and "test_te3_spans_only" in findings[0].text


def test_gap_filling_gold_readable_from_another_tasks_public_input_fails_the_audit_unless_excluded(tmp_path):
    """ST2024's sample, like its release, masks some of its morphology test sentences in the gap-filling test lines:
    built as make builds it (those sentences not scored) it passes the audit; built with
    --keep-recoverable-gaps and uploaded whole (test feedback mode full: no public/private split, which would upload
    only the gold of the public part, docs/test_feedback.md), the audit finds the gold in the public test input."""
    ref, dist = build_competition("st2024", tmp_path / "default", baselines=False)
    assert not run_audit("st2024", dist, os.path.join(dist, "bundles", "st2024-unconstrained.zip"))
    sample = os.path.join(ROOT, "sample_data")
    kept_ref, kept_dist = str(tmp_path / "kept" / "ref"), str(tmp_path / "kept" / "dist")
    from organiser import builders, declarations
    hosted = declarations.Hosted("st2024")   # the reference builder alone: the whole test gold stays in ref/test
    assert builders.load_builder(hosted, "reference").main([
        "--data", sample, "--test-gold", os.path.join(sample, "test_gold"), "--out", kept_ref, "--report",
        os.path.join(kept_dist, "data_quality.md"), "--keep-recoverable-gaps"]) == 0
    bundle.stamp_phases(kept_ref, hosted)
    bundle.build("st2024", kept_ref, kept_dist, data=sample)
    found = [f for f in run_audit("st2024", kept_dist, os.path.join(kept_dist, "bundles", "st2024-unconstrained.zip"))
             if f.rule == "audit.public-gold"]
    # the test gold is split (issue 23): such a sentence of the private part is found in the uploaded test input
    found += [f for f in audit.audit_split(declarations.load("st2024"), kept_dist, bundle.read_manifest(kept_dist))
              .findings if f.rule == "audit.private-gold" and "public_data" in f.where]
    assert found and all("fill_mask" in f.text for f in found)
