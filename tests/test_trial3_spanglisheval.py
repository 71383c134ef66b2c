"""Issue 24, third round of the participants' trial on SpanglishEval: mistakes that cost score and that the kit now
names, generated. Each class: the message (quoted), its position, and the score unchanged by the message (the same
answers, so the same numbers, with the check switched off).

- scores whose direction looks reversed: perplexities, losses or surprisals (every score of a set at least 0, one
  above 1), in every set or in part of them (two kinds of score in one file); a test-phase file has no floor, so
  this was silent there;
- set ids written differently (letter case, spaces, zero padding), positions given as ids, answers nested under one
  key: the ids message named no cause (and upper-cased ids were called "predictions for another phase");
- lists of the wrong length whose lengths are other sets' sizes (answers paired with the wrong ids), per-token
  scores, an index written in a list; answers of the wrong type that are one score per set, objects, objects keyed
  by the sentences, the chosen sentence's text; a JSON list instead of the object;
- JSON Lines, single quotes (Python's repr) and UTF-16 files: the syntax or encoding error names the cause;
- two-way ties at the top (what an honest model with one unknown-word class gives) are not said to score like a
  random choice below :data:`evalkit.choice.PAIR_TIES_SHARE` of the sets; wide ties still are (since issue 33 every
  tie at the top is said, with the count).
"""
import json
import os
import random
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from evalkit import choice
from evalkit.messages import DataError

SPAN_DIR = os.path.join(ROOT, "competitions", "spanglisheval")
VALIDATE = os.path.join(SPAN_DIR, "starting_kit", "validate.py")
if SPAN_DIR not in sys.path:
    sys.path.append(SPAN_DIR)
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def reference_sets(rng, count=30, sizes=(3, 9)):
    """``count`` sets of ``sizes`` sentences (distinct sizes likely), ids ``dev-0001``..., a random gold."""
    sets = []
    for n in range(count):
        size = rng.randint(*sizes)
        sentences = ["w%d__en x%d__sp %s ." % (n, i, " ".join("t%d__en" % j for j in range(rng.randint(0, 4))))
                     for i in range(size)]
        sets.append({"id": "dev-%04d" % (n + 1), "sentences": sentences, "gold": rng.randrange(size),
                     "gold_type": rng.choice(choice.GOLD_TYPES)})
    return sets


def log_probs(rng, size):
    """Distinct negative scores, as an honest model's log-probabilities."""
    return [-1.0 - i - rng.random() * 0.5 for i in rng.sample(range(size * 3), size)]


def parsed(data, sets):
    """(answers, messages as text) of a parsed submission object."""
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    return answers, messages


def same_score_without(monkeypatch, name, replacement, data, sets, answers):
    """The score of ``answers`` equals that of the same file parsed with ``name`` of evalkit.choice replaced."""
    with monkeypatch.context() as patch:
        patch.setattr(choice, name, replacement)
        quiet, _ = choice.parse_submission(data, sets, "predictions.json")
    assert choice.evaluate(sets, answers) == choice.evaluate(sets, quiet)


# --------------------------------------------------------------------------- reversed direction

@SOME
@given(seed=st.integers(0, 10 ** 6), reversed_sets=st.integers(0, 30),
       how=st.sampled_from(["perplexity", "loss", "probability", "ranks"]))
def test_scores_of_the_reversed_direction_get_one_warning_with_the_first_sets(monkeypatch, seed, reversed_sets, how):
    rng = random.Random(seed)
    sets = reference_sets(rng)
    data = {}
    for n, entry in enumerate(sets):
        scores = log_probs(rng, len(entry["sentences"]))
        if n < reversed_sets:
            scores = {"perplexity": [2.0 ** -s for s in scores], "loss": [-s for s in scores],
                      "probability": [2.0 ** s for s in scores],
                      "ranks": [float(i) for i in rng.sample(range(len(scores)), len(scores))]}[how]
        data[entry["id"]] = scores
    answers, messages = parsed(data, sets)
    found = [m for m in messages if "may be perplexities, losses or surprisals" in m.text]
    expected = how in ("perplexity", "loss") and reversed_sets and reversed_sets >= choice.DIRECTION_SHARE * 30
    assert len(found) == (1 if expected else 0), [str(m) for m in messages]
    if found:
        first = min(data[sets[0]["id"]]), max(data[sets[0]["id"]])
        assert found[0].severity == "warning" and found[0].where == "set dev-0001"
        assert found[0].text.startswith("%d of the 30 sets answered with scores have only scores of 0 or more, some "
                                        "above 1 (first at set dev-0001: %.6g to %.6g" % ((reversed_sets,) + first))
        assert "The highest score is chosen here: negate them only if lower means more likely in them (or submit " \
            "log-probabilities); leave them as they are otherwise." in found[0].text
        mixed = "The other %d sets have scores of at most 0: two kinds of score in one file?" % (30 - reversed_sets)
        assert (mixed in found[0].text) == (reversed_sets < 30)
    same_score_without(monkeypatch, "_direction_warning", lambda *args: None, data, sets, answers)


def test_the_reversed_direction_is_said_on_a_test_phase_where_no_floor_exists(tmp_path):
    rng = random.Random(5)
    sets = reference_sets(rng, count=12)
    data_dir = tmp_path / "data" / "test"
    data_dir.mkdir(parents=True)
    with open(str(data_dir / "sets.jsonl"), "w") as handle:
        for entry in sets:
            handle.write(json.dumps({"id": entry["id"], "sentences": entry["sentences"]}) + "\n")
    sub = str(tmp_path / "ppl.zip")
    with zipfile.ZipFile(sub, "w") as archive:
        archive.writestr("predictions.json", json.dumps(
            dict((s["id"], [2.0 ** -x for x in log_probs(rng, len(s["sentences"]))]) for s in sets)))
    proc = subprocess.run([sys.executable, VALIDATE, sub, "--split", "test", "--data", str(tmp_path / "data")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    assert proc.returncode == 0, proc.stdout   # a warning: the file scores, maybe badly
    assert "warning: predictions.json, set dev-0001: 12 of the 12 sets answered with scores have only scores of 0 " \
           "or more" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("0 errors, 1 warning, 0 files will score 0 -- it can be "
                                                           "uploaded, but read the warnings first")


# --------------------------------------------------------------------------- ids

SPELLINGS = {
    "upper": lambda set_id: set_id.upper(),
    "trailing space": lambda set_id: set_id + " ",
    "leading space": lambda set_id: " " + set_id,
    "unpadded": lambda set_id: "dev-%d" % int(set_id.split("-")[1]),
    "padded more": lambda set_id: "dev-%06d" % int(set_id.split("-")[1]),
}


@SOME
@given(seed=st.integers(0, 10 ** 6), how=st.sampled_from(sorted(SPELLINGS)), respelt=st.integers(1, 30))
def test_ids_written_differently_are_named_with_their_own_spelling(monkeypatch, seed, how, respelt):
    rng = random.Random(seed)
    sets = reference_sets(rng)
    chosen = sorted(rng.sample(range(30), respelt))
    data = {}
    for n, entry in enumerate(sets):
        data[SPELLINGS[how](entry["id"]) if n in chosen else entry["id"]] = log_probs(rng, len(entry["sentences"]))
    answers, messages = parsed(data, sets)
    first = sets[chosen[0]]["id"]
    unknown = [m for m in messages if m.text.startswith("an id that is not a set of this phase")]
    assert len(unknown) == 1 and unknown[0].where == "set %s" % SPELLINGS[how](first)
    hint = "%d of them are ids of this phase's sets written differently (%r for %r" % (
        respelt, SPELLINGS[how](first), first)
    assert hint in unknown[0].text, unknown[0].text
    assert "write every id exactly as sets.jsonl does (letter case, spaces, zero padding)" in unknown[0].text
    assert "another phase" not in " ".join(m.text for m in messages)
    missing = [m for m in messages if m.text.startswith("no answer: ")]
    assert len(missing) == 1 and missing[0].severity == "error" and missing[0].where == "set %s" % first
    assert (hint in missing[0].text) == (respelt * 2 > 30)
    # the answers under other spellings are not read: the score is that of the file without them
    kept = dict((k, v) for k, v in data.items() if k in answers)
    assert choice.evaluate(sets, answers) == choice.evaluate(sets, parsed(kept, sets)[0])
    same_score_without(monkeypatch, "_unknown_ids_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("start", [0, 1])
def test_positions_given_as_ids_are_named(monkeypatch, start):
    sets = reference_sets(random.Random(start))
    data = dict((str(n + start), [-1.0] * len(s["sentences"])) for n, s in enumerate(sets))
    answers, messages = parsed(data, sets)
    unknown = [m for m in messages if m.text.startswith("an id that is not a set of this phase")][0]
    assert unknown.where == "set %d" % start
    assert ("30 of them are numbers from %d to %d: positions of the sets (line numbers, list indices), not their "
            "ids. Key every answer by its set's id (\"dev-0001\": ...)" % (start, 29 + start)) in unknown.text
    same_score_without(monkeypatch, "_unknown_ids_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("key", ["predictions", "scores", "dev"])
def test_answers_nested_under_one_key_are_named(monkeypatch, key):
    sets = reference_sets(random.Random(3))
    data = {key: dict((s["id"], 0) for s in sets)}
    answers, messages = parsed(data, sets)
    missing = [m for m in messages if m.text.startswith("no answer: ")][0]
    assert missing.where == "set dev-0001"
    assert ("The answers are inside the object under %r: the set ids must be the keys of the file's top-level "
            "object ({\"dev-0001\": ...}), not nested one level down." % key) in missing.text
    same_score_without(monkeypatch, "_unknown_ids_hint", lambda *args: "", data, sets, answers)


# --------------------------------------------------------------------------- lists of the wrong length

@SOME
@given(seed=st.integers(0, 10 ** 6), shift=st.integers(1, 29))
def test_answers_paired_with_the_wrong_ids_are_named_by_their_lengths(monkeypatch, seed, shift):
    rng = random.Random(seed)
    sets = reference_sets(rng, sizes=(3, 30))
    honest = [log_probs(rng, len(s["sentences"])) for s in sets]
    data = dict((s["id"], honest[(n + shift) % 30]) for n, s in enumerate(sets))   # ids and answers out of step
    answers, messages = parsed(data, sets)
    wrong = [s["id"] for s in sets if len(data[s["id"]]) != len(s["sentences"])]
    count = [m for m in messages if m.text.startswith("a list with the wrong number of scores")]
    assert len(count) == (1 if wrong else 0)
    if len(wrong) >= 2:
        assert count[0].where == "set %s" % wrong[0]
        assert "Their lengths are the sizes of other sets of this phase: the answers were paired with the wrong " \
               "set ids" in count[0].text
    same_score_without(monkeypatch, "_count_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("eos", [False, True])
def test_per_token_scores_are_named(monkeypatch, eos):
    sets = reference_sets(random.Random(9))
    data = dict((s["id"], [-0.5] * sum(len(x.split()) + eos for x in s["sentences"])) for s in sets)
    answers, messages = parsed(data, sets)
    count = [m for m in messages if m.text.startswith("a list with the wrong number of scores")][0]
    assert count.where == "set dev-0001"
    assert "30 of them have as many scores as the set has words: one score per token? Give one score per sentence " \
           "(the sum of its tokens' log-probabilities)." in count.text
    same_score_without(monkeypatch, "_count_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("share", [1.0, 0.6, 0.3])
def test_scores_in_one_item_lists_are_named(monkeypatch, share):
    rng = random.Random(6)
    sets = reference_sets(rng)
    column = int(share * 30)
    data = dict((s["id"], [[x] for x in log_probs(rng, len(s["sentences"]))] if n < column else
                 [x if i else [x, x] for i, x in enumerate(log_probs(rng, len(s["sentences"])))])
                for n, s in enumerate(sets))
    answers, messages = parsed(data, sets)
    nested = [m for m in messages if m.text.startswith("a list or object among the scores: 30 of 30 sets")]
    assert len(nested) == 1 and nested[0].where == "set dev-0001, sentence 0"
    said = "%d of them hold every score in a one-item list ([[-42.1], [-40.3], ...]: an array of shape (n, 1)?): " \
           "flatten it to one number per sentence." % column
    assert (said in nested[0].text) == (column * 2 > 30), nested[0].text
    same_score_without(monkeypatch, "_nested_hint", lambda *args: "", data, sets, answers)


def test_an_index_written_in_a_list_is_named(monkeypatch):
    sets = reference_sets(random.Random(4), sizes=(3, 5))
    data = dict((s["id"], [s["gold"]]) for s in sets)
    answers, messages = parsed(data, sets)
    count = [m for m in messages if m.text.startswith("a list with the wrong number of scores")][0]
    assert count.text.endswith("Each is one integer in a list: write a chosen index without brackets (7, not [7]).")
    assert choice.evaluate(sets, answers)["accuracy"] == 0.0
    same_score_without(monkeypatch, "_count_hint", lambda *args: "", data, sets, answers)


# --------------------------------------------------------------------------- answers of the wrong type

WRONG_TYPES = {
    "one score per set": (lambda s, rng: -10.5 - rng.random(), "are one number for the set that is not an index: "
                                                                "one score per set?"),
    "object": (lambda s, rng: {"scores": [-1.0] * len(s["sentences"])}, "are JSON objects (keys such as 'scores'): "
                                                                         "give the list of scores, or the index"),
    "keyed by sentence": (lambda s, rng: dict((x, -1.0 - i) for i, x in enumerate(s["sentences"])),
                          "are JSON objects keyed by the sentences' text: give a list of the scores instead"),
    "sentence text": (lambda s, rng: s["sentences"][s["gold"]], "are the text of one of the set's sentences: give "
                                                                 "the 0-based index of the chosen sentence"),
}


@pytest.mark.parametrize("how", sorted(WRONG_TYPES))
def test_answers_of_the_wrong_type_are_named_by_what_they_are(monkeypatch, how):
    rng = random.Random(len(how))
    sets = reference_sets(rng)
    make, said = WRONG_TYPES[how]
    data = dict((s["id"], make(s, rng)) for s in sets)
    answers, messages = parsed(data, sets)
    wrong = [m for m in messages if m.text.startswith("an answer of the wrong type: 30 of 30 sets (set dev-0001")]
    assert len(wrong) == 1 and wrong[0].where == "set dev-0001" and wrong[0].severity == "error"
    assert ("30 of them " + said) in wrong[0].text, wrong[0].text
    assert choice.evaluate(sets, answers)["accuracy"] == 0.0
    same_score_without(monkeypatch, "_answer_type_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("value, said", [
    ("lists", "It has one item per set of this phase, in a list: key each answer by its set's id ({\"dev-0001\": ...})"),
    ("records", "Its items are objects (records with \"id\"): turn them into one object {\"dev-0001\": [scores...]"),
])
def test_a_list_instead_of_the_object_is_named(value, said):
    sets = reference_sets(random.Random(8))
    data = [[-1.0] * len(s["sentences"]) for s in sets] if value == "lists" else \
        [{"id": s["id"], "scores": [-1.0] * len(s["sentences"])} for s in sets]
    with pytest.raises(DataError) as raised:
        choice.parse_submission(data, sets, "predictions.json")
    assert "expected a JSON object {set id: list of scores or sentence index}, got a list of 30 item(s). " + said \
        in str(raised.value)


# --------------------------------------------------------------------------- syntax and encoding

def test_json_lines_single_quotes_and_utf16_name_their_cause():
    sets = reference_sets(random.Random(2))
    lines = "\n".join(json.dumps({"id": s["id"], "scores": [-1.0] * len(s["sentences"])}) for s in sets) + "\n"
    cases = [
        (lines.encode("utf-8"), "predictions.json, line 2, column 1: invalid JSON: Extra data (the file holds one "
                                "JSON value a line, as JSON Lines does"),
        (repr(dict((s["id"], 0) for s in sets)).encode("utf-8"), "predictions.json, line 1, column 2: invalid JSON: "
                                                                 "Expecting property name enclosed in double quotes "
                                                                 "(single quotes: Python's repr or str of the data"),
        (json.dumps(dict((s["id"], 0) for s in sets)).encode("utf-16"), "predictions.json, byte 0 (line 1): the file "
                                                                        "is not valid UTF-8 (invalid start byte): it "
                                                                        "starts with a UTF-16 byte-order mark"),
    ]
    for data, said in cases:
        with pytest.raises(DataError) as raised:
            choice.read_submission(data, sets)
        assert str(raised.value).startswith(said), str(raised.value)
    # no hint where none applies: a plain missing comma, bytes that are not UTF-16 either
    with pytest.raises(DataError) as raised:
        choice.read_submission(b'{"dev-0001": 1 "dev-0002": 2}', sets)
    assert str(raised.value).endswith("invalid JSON: Expecting ',' delimiter")
    with pytest.raises(DataError) as raised:
        choice.read_submission(b'{"dev-0001": "\xff"}', sets)
    assert "UTF-16" not in str(raised.value)


# --------------------------------------------------------------------------- two-way ties

@SOME
@given(seed=st.integers(0, 10 ** 6), pairs=st.integers(0, 30), wide=st.integers(0, 30))
def test_two_way_ties_are_what_a_model_gives_wide_ties_are_warned(monkeypatch, seed, pairs, wide):
    rng = random.Random(seed)
    sets = reference_sets(rng, sizes=(5, 12))
    data = {}
    for n, entry in enumerate(sets):
        scores = log_probs(rng, len(entry["sentences"]))
        top = max(scores)
        if n < wide:
            scores[:3] = [top + 1.0] * 3
        elif n < wide + pairs:
            scores[:2] = [top + 1.0] * 2
        data[entry["id"]] = scores
    pairs = max(0, min(pairs, 30 - wide))
    answers, messages = parsed(data, sets)
    found = [m for m in messages if "highest score shared by several sentences" in m.text]
    many = (wide and wide >= choice.TIES_SHARE * 30) or (wide + pairs and wide + pairs >= choice.PAIR_TIES_SHARE * 30)
    assert len(found) == (1 if wide + pairs else 0), [str(m) for m in messages]   # every tie is said (issue 33)
    if found:
        assert found[0].text.startswith("%d of the 30 sets answered with scores" % (wide + pairs))
        assert found[0].where == "set dev-0001"
        # only many ties, or wide ones, are said to score like a random choice; a few pairs are what a model gives
        assert ("so these sets score like a random choice" in found[0].text) == bool(many)
        assert ("A model may give two sentences the same score now and then" in found[0].text) == (not many)
    same_score_without(monkeypatch, "_ties_warning", lambda *args: None, data, sets, answers)


# --------------------------------------------------------------------------- within chance of the floor

@SOME
@given(floor_score=st.floats(0.01, 0.5), count=st.integers(20, 3000), offset=st.floats(-0.05, 0.2))
def test_a_choice_file_within_chance_of_the_floor_is_said_and_other_kinds_keep_the_exact_floor(floor_score, count,
                                                                                              offset):
    from evalkit import floor, scoring
    score = min(1.0, max(0.0, floor_score + offset))
    entry = {"file": "predictions.json", "task": "sets", "lang": "en_es", "status": "scored", "score": score,
             "sentences": count}
    margin = 2.0 * (floor_score * (1 - floor_score) / count) ** 0.5
    if count < choice.MIN_CHANCE_SETS or margin > floor_score:   # too few sets to tell a weak model from chance
        margin = 0.0
    task = type("Task", (), {"kind": "choice", "label": "Sets", "folder": "sets"})
    found = floor.below_floor([entry], {"sets/en_es": floor_score}, "floor", {"sets": task}, scoring.KINDS)
    assert len(found) == (1 if score <= floor_score + max(floor.EPSILON, margin) and score < 1.0 else 0)
    if found and score > floor_score + floor.EPSILON:
        assert found[0].text.startswith("this file scores %.4f, within chance of the floor of this phase (%.4f, the "
                                        "trivial baseline of the starting kit; chance alone gives up to %.4f more on "
                                        "%d items)" % (score, floor_score, margin, count)), found[0].text
        assert "answers paired with the wrong set ids" in found[0].text
    # a kind without a margin (every other kind): the exact floor, as before
    other = type("Task", (), {"kind": "tagging", "label": "Tags", "folder": "sets"})
    exact = floor.below_floor([entry], {"sets/en_es": floor_score}, "floor", {"sets": other}, scoring.KINDS)
    assert len(exact) == (1 if score <= floor_score + floor.EPSILON and score < 1.0 else 0)


def test_answers_paired_with_the_wrong_ids_among_sets_of_one_size_are_said_on_dev(tmp_path):
    """Sets of one size: a rotation of the answers gives no length message, scores about the floor, and is said;
    the scores are those of the same file without the floor file."""
    import spanglisheval
    from evalkit import floor, scoring
    assert spanglisheval.TASKS[0].kind == "choice"
    rng = random.Random(11)
    sets = reference_sets(rng, count=200, sizes=(10, 10))
    ref = tmp_path / "ref"
    ref.mkdir()
    with open(str(ref / "reference.jsonl"), "w") as handle:
        for entry in sets:
            handle.write(json.dumps(entry) + "\n")
    with open(str(ref / "phase.json"), "w") as handle:
        json.dump({"phase": "dev", "gold": "public"}, handle)
    honest = [[(5.0 if i == s["gold"] else 0.0) - rng.random() * 4 - 1 for i in range(10)] for s in sets]
    sub = str(tmp_path / "rotated.zip")
    with zipfile.ZipFile(sub, "w") as archive:
        archive.writestr("predictions.json", json.dumps(dict((s["id"], honest[(n + 1) % 200])
                                                             for n, s in enumerate(sets))))
    quiet = scoring.evaluate(spanglisheval, str(ref), sub)
    with open(str(ref / floor.FILE_NAME), "w") as handle:
        json.dump({"label": "floor", "files": {"sets/en_es": 0.1}, "sentences": {"sets/en_es": 200}}, handle)
    report = scoring.evaluate(spanglisheval, str(ref), sub)
    score = report["entries"][0]["score"]
    assert not [m for m in report["messages"] if m["severity"] == "error"]
    said = [m for m in report["messages"] if "the trivial baseline of the starting kit" in m["text"]]
    assert score <= 0.1 + 2 * (0.1 * 0.9 / 200) ** 0.5   # chance: the rotation keeps no gold in front
    assert len(said) == 1 and said[0]["where"] == "whole file"
    assert said[0]["text"].startswith("this file scores %.4f, " % score)
    assert report["scores"] == quiet["scores"]


# --------------------------------------------------------------------------- the hints never raise

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
KEYS = st.one_of(st.text(max_size=10), st.from_regex(r"\A\s*(dev|DEV|test)-0*[0-9]{1,5}\s*\Z"),
                 st.from_regex(r"\A\s*[0-9\u0660-\u0669]{1,4}\s*\Z"))


@settings(max_examples=200, deadline=None)
@given(data=st.one_of(st.dictionaries(KEYS, JSON, max_size=8), st.lists(JSON, max_size=6)),
       count=st.integers(0, 4))
def test_the_hints_never_raise_whatever_the_object(data, count):
    sets = reference_sets(random.Random(count), count=count, sizes=(2, 4))
    try:
        answers, messages = choice.parse_submission(data, sets, "predictions.json")
    except DataError as err:
        assert isinstance(data, list) and str(err).startswith("predictions.json: expected a JSON object")
        return
    assert sorted(answers) == sorted(s["id"] for s in sets)
    assert all(len(m.text) <= 2000 for m in messages)
