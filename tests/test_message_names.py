"""Messages that name the real cause of a misnamed file (issue 24, class 3), in every layout: ST2024's
``<task>/<lang>.json``, LinCE's and SpanglishEval's flat names, SCATE's per-document files.

- a compressed member (``.json.gz``, ``.bz2``, ``.xz``, ``.zip``) is called compressed, never "ends in .json twice";
- when every file of a submission is misnamed, each still gets its own hint, as when only some are;
- a did-you-mean is an expected name with the reference's letter case;
- a development message never speaks of "the test file" (LinCE);
and each misnamed file changes no score (the correct files beside it score as they do alone).
"""
import bz2
import gzip
import lzma
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
import st2024
from evalkit import layout, lines, naming, scoring
from lince_helpers import build_sample_reference, gold_submission, lince, sample_gold, write_files
from test_message_classes import as_prediction, classify, submission, write_release

CODES = list(st2024.LANGUAGES)
PACKERS = {"gzip": (".gz", gzip.compress), "bzip2": (".bz2", bz2.compress), "xz": (".xz", lzma.compress)}


# --------------------------------------------------------------------------- ST2024: <task>/<lang>.json

@settings(max_examples=40, deadline=None)
@given(code=st.sampled_from(CODES), packer=st.sampled_from(sorted(PACKERS) + ["zip"]), inner=st.booleans())
def test_a_compressed_member_is_called_compressed_not_json_twice(code, packer, inner):
    ext = PACKERS[packer][0] if packer in PACKERS else ".zip"
    found = classify("pos_tagging/%s%s%s" % (code, ".json" if inner else "", ext))
    assert "the file is compressed (%s)" % packer in found.text, found.text
    assert "twice" not in found.text
    assert "Did you mean pos_tagging/%s.json?" % code in found.text, found.text


def _misnamed(refs):
    """``{name: content}``: the three lat files, each misnamed in its own way, and the hint each must get."""
    pred = as_prediction(refs)
    return ({"pos_tagging/lat.json.gz": pred["pos_tagging/lat.json"],
             "morph_features/LAT.json": pred["morph_features/lat.json"],
             "lemmatisation/lat.txt": pred["lemmatisation/lat.json"]},
            {"pos_tagging/lat.json.gz": "unexpected file name (ignored): the file is compressed (gzip): put the "
                                        "lat.json file itself in the zip, uncompressed (the zip already compresses "
                                        "it). Did you mean pos_tagging/lat.json?",
             "morph_features/LAT.json": "unexpected file name (ignored): files are named <language code>.json in "
                                        "lower case. Did you mean morph_features/lat.json?",
             "lemmatisation/lat.txt": "unexpected file name (ignored): a plain text file"})


def test_every_file_misnamed_still_gets_its_own_hint(tmp_path):
    refs = write_release(str(tmp_path), [[{"upos": "NOUN", "lemma": "a", "feats": {}}]] * 2)
    files, hints = _misnamed(refs)
    with pytest.raises(layout.NothingToScore) as raised:
        scoring.evaluate(st2024, str(tmp_path / "ref"), submission(str(tmp_path), files, "all"))
    text = str(raised.value)
    assert text.startswith("no expected file was found in the submission. Each file: ")
    for name, hint in hints.items():
        assert "%s: %s" % (name, hint) in text, (name, text)
    # the same hints when one file is right; the misnamed ones change no score
    good = as_prediction(refs)
    alone = scoring.evaluate(st2024, str(tmp_path / "ref"),
                             submission(str(tmp_path), {"pos_tagging/lat.json": good["pos_tagging/lat.json"]}, "one"))
    files["pos_tagging/lat.json"] = good["pos_tagging/lat.json"]
    some = scoring.evaluate(st2024, str(tmp_path / "ref"), submission(str(tmp_path), files, "some"))
    assert some["scores"] == alone["scores"]
    texts = dict((m["file"], m["text"]) for m in some["messages"])
    for name, hint in hints.items():
        assert texts[name].startswith(hint), (name, texts[name])


# --------------------------------------------------------------------------- flat names (LinCE, SpanglishEval)

DECLARED = [lince.SUBMISSION_FILE.format(task=task.key, lang=pair) for task, pair in lince.DATASETS]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(DECLARED), fault=st.sampled_from(["upper", "conll", "gz", "bz2", "xz", "zip"]))
def test_flat_names_say_case_extension_or_compression_with_the_declared_spelling(name, fault):
    formats = {"gz": "gzip", "bz2": "bzip2", "xz": "xz", "zip": "zip"}
    if fault == "upper":
        wrong, why = name.upper(), "names are compared with their letter case: %s, not %s" % (name, name.upper())
    elif fault == "conll":
        wrong, why = name[:-4] + ".conll", "the extension is .txt, not .conll"
    else:
        wrong, why = name + "." + fault, "the file is compressed (%s)" % formats[fault]
    message = lines._unexpected_file(wrong, DECLARED, lince.NAME_ALIASES)
    assert ("unexpected file (ignored): " + why) in message.text, message.text
    assert message.text.endswith("Did you mean %s?" % name)
    listed = lines.nothing_found([wrong], "", DECLARED, DECLARED, lince.NAME_ALIASES)
    assert "%s (%s" % (wrong, why) in listed and "did you mean %s?)" % name in listed, listed


@pytest.fixture(scope="module")
def lince_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("lince_ref")
    build_sample_reference(out)
    return os.path.join(str(out), "dev")


def test_lince_misnamed_files_change_no_score_and_each_gets_its_hint(lince_ref, tmp_path):
    gold = gold_submission(sample_gold("dev"))
    first, second = sorted(gold)[:2]
    alone = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "alone", {first: gold[first]}))
    wrong = {first: gold[first], second.upper(): gold[second]}
    report = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "some", wrong))
    assert report["scores"] == alone["scores"]
    texts = dict((m["file"], m["text"]) for m in report["messages"])
    assert "names are compared with their letter case: %s, not %s" % (second, second.upper()) in texts[second.upper()]
    with pytest.raises(layout.NothingToScore) as raised:
        scoring.evaluate(lince, lince_ref, write_files(tmp_path / "none", {second.upper(): gold[second]}))
    assert "%s (names are compared with their letter case" % second.upper() in str(raised.value)


def test_no_development_message_of_lince_speaks_of_the_test_file(lince_ref, tmp_path):
    gold = gold_submission(sample_gold("dev"))
    name = sorted(gold)[0]
    short = "\n".join(gold[name].split("\n")[:3]) + "\n"
    report = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "short", {name: short}))
    texts = [m["text"] for m in report["messages"] if m["file"] == name]
    assert any("the input file has" in text for text in texts), texts
    assert not any("test file" in text for text in texts)
    assert "test file" not in lince.NOTHING_HELP


# --------------------------------------------------------------------------- SCATE: per-document files

@settings(max_examples=20, deadline=None)
@given(doc=st.from_regex(r"[A-Z]{3}[0-9]{4}\.[0-9]{4}", fullmatch=True), packer=st.sampled_from(["gz", "bz2", "xz"]))
def test_a_compressed_document_file_is_called_compressed(doc, packer):
    pattern = "{doc}/{doc}.TimeNorm.system.completed.xml"
    name = "%s/%s.TimeNorm.system.completed.xml.%s" % (doc, doc, packer)
    hint = lines.document_name_hint([name], pattern)
    assert hint.startswith("The file is compressed (%s)" % {"gz": "gzip", "bz2": "bzip2", "xz": "xz"}[packer]), hint
    assert "Did you mean %s for %s?" % (pattern.replace("{doc}", doc), name) in hint


def test_a_document_name_in_another_letter_case_gets_the_reference_spelling(tmp_path):
    sys.path.append(os.path.join(ROOT, "competitions", "scate"))
    from test_scate_competition import SAMPLE, gold_files, reference, write_zip
    import scate
    out = tmp_path / "ref"
    reference.build(SAMPLE, str(out), os.path.join(SAMPLE, "test_gold"))
    members = gold_files("test", "test_gold")
    first = sorted(members)[0]
    doc = first.split("/")[0]
    lowered = dict(members)
    lowered[first.replace(doc, doc.lower())] = lowered.pop(first)
    report = scoring.evaluate(scate, str(out / "test"), write_zip(tmp_path / "low.zip", lowered))
    texts = [m["text"] for m in report["messages"] if m["file"] == first.replace(doc, doc.lower())]
    assert any("Document names are compared with their letter case: did you mean %s for %s?" % (doc, doc.lower())
               in text for text in texts), texts
    without = dict(members)
    del without[first]
    assert report["scores"] == scoring.evaluate(scate, str(out / "test"),
                                                write_zip(tmp_path / "without.zip", without))["scores"]


def test_naming_doctests():
    import doctest
    assert doctest.testmod(naming).failed == 0


# --------------------------------------------------------------------------- SCATE: ids and links

@pytest.fixture(scope="module")
def scate_sample(tmp_path_factory):
    """(the sample's test reference folder, the gold as a submission ``{member: bytes}``, the declaration)."""
    sys.path.append(os.path.join(ROOT, "competitions", "scate"))
    from test_scate_competition import SAMPLE, gold_files, reference
    import scate
    out = tmp_path_factory.mktemp("scate_ids")
    reference.build(SAMPLE, str(out), os.path.join(SAMPLE, "test_gold"))
    return str(out / "test"), gold_files("test", "test_gold"), scate


def _zipped(tmp_path, members, name):
    from test_scate_competition import write_zip
    return write_zip(tmp_path / name, members)


ANAFORA_ID = r"<id>([0-9]+)@e@[^<@]+@[^<]+</id>"


@settings(max_examples=8, deadline=None)
@given(offset=st.integers(0, 5))
def test_plain_numbers_are_values_whatever_ids_the_document_uses(scate_sample, tmp_path_factory, offset):
    import re
    ref, members, scate = scate_sample
    tmp_path = tmp_path_factory.mktemp("numbers")
    numbered = {}
    for name, data in members.items():   # ids 1+offset, 2+offset, ...: as many plain numbers as entities
        text = data.decode("utf-8")
        ids = re.findall(r"<id>([^<]+)</id>", text)
        for number, ident in enumerate(ids, 1 + offset):
            text = text.replace(">%s<" % ident, ">%d<" % number)
        numbered[name] = text.encode("utf-8")
    same = scoring.evaluate(scate, ref, _zipped(tmp_path, members, "anafora.zip"))["scores"]
    plain = scoring.evaluate(scate, ref, _zipped(tmp_path, numbered, "plain.zip"))["scores"]
    assert plain == same


def test_ids_used_twice_are_named_as_duplicates_and_change_no_score(scate_sample, tmp_path, monkeypatch):
    import re
    from evalkit.timenorm import kind as anafora_kind
    ref, members, scate = scate_sample
    name = sorted(members)[0]
    text = members[name].decode("utf-8")
    ids = re.findall(r"<id>([^<]+)</id>", text)
    twice = dict(members)
    twice[name] = text.replace("<id>%s</id>" % ids[1], "<id>%s</id>" % ids[0], 1).encode("utf-8")
    report = scoring.evaluate(scate, ref, _zipped(tmp_path, twice, "twice.zip"))
    found = [m for m in report["messages"] if "used more than once" in m["text"]]
    assert len(found) == 1 and found[0]["file"] == name and found[0]["where"].startswith("entity %s (line" % ids[0])
    assert found[0]["text"].startswith("1 entity id used more than once: '%s' x2. A link to such an id reaches only "
                                       "the last entity that has it" % ids[0]), found[0]["text"]
    monkeypatch.setattr(anafora_kind, "duplicate_ids", lambda document, name: [])
    quiet = scoring.evaluate(scate, ref, _zipped(tmp_path, twice, "quiet.zip"))
    assert quiet["scores"] == report["scores"]
    assert not [m for m in quiet["messages"] if "used more than once" in m["text"]]


# --------------------------------------------------------------------------- LinCE: predictions for another split

@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, 9))
def test_lince_predictions_for_the_test_split_are_named_as_such(lince_ref, tmp_path_factory, monkeypatch, pick):
    from evalkit import fingerprint
    tmp_path = tmp_path_factory.mktemp("split")
    test_files, dev_files = gold_submission(sample_gold("test")), gold_submission(sample_gold("dev"))
    name = sorted(test_files)[pick]
    report = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "test", {name: test_files[name]}))
    found = [m for m in report["messages"] if "look like predictions for the test split" in m["text"]]
    own = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "dev", {name: dev_files[name]}))
    if test_files[name].count("\n") == dev_files[name].count("\n"):   # the same size: labels cannot tell
        return
    assert len(found) == 1 and found[0]["file"] == name and found[0]["severity"] == "error"
    assert "as many as the test input has" in found[0]["text"] and "of the dev input this phase scores. Predict " \
        "the dev split, or upload this file to the phase of the test split." in found[0]["text"], found[0]["text"]
    assert not [m for m in own["messages"] if "look like predictions" in m["text"]]
    with monkeypatch.context() as patch:
        patch.setattr(fingerprint, "wrong_split_count_message", lambda *args: None)
        quiet = scoring.evaluate(lince, lince_ref, write_files(tmp_path / "quiet", {name: test_files[name]}))
    assert quiet["scores"] == report["scores"]


def test_the_lince_validator_names_predictions_for_the_test_split_and_exits_1(tmp_path, capsys):
    from lince_helpers import KIT, SAMPLE
    from conftest import load_by_path
    validate = load_by_path("lince_validate_split", os.path.join(KIT, "validate.py"))
    test_files = gold_submission(sample_gold("test"))
    name = "lid_spa_eng.txt"
    status = validate.main([write_files(tmp_path / "sub", {name: test_files[name]}), "--data", SAMPLE, "--split", "dev"])
    out = capsys.readouterr().out
    assert status == 1 and "%s: these look like predictions for the test split: the file has" % name in out, out
