"""SpanglishEval's participant messages, generated: ranks given where scores are asked, scores of the wrong type
(numbers in strings, booleans, nested lists), non-finite and over-long numbers, indices outside the set, sets
missing or given twice, ids of another phase. Each class is one message per file with its count, asserted in the
scorer and in the starting kit's validator, with the score unchanged by the message (equal to the independent
computation of test_choice.oracle, and to the same submission without the faulty sets). Then a fuzzer of the
choice kind over JSON numbers and nesting."""
import io
import json
import os
import random
import re
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import ROOT
from evalkit import choice, cli, naming
from evalkit.messages import DataError, MessageLog, MAX_TEXT_CHARS
from evalkit.scoring import evaluate
from test_choice import oracle

SPAN_DIR = os.path.join(ROOT, "competitions", "spanglisheval")
SAMPLE = os.path.join(SPAN_DIR, "sample_data")
VALIDATE = os.path.join(SPAN_DIR, "starting_kit", "validate.py")
if SPAN_DIR not in sys.path:
    sys.path.append(SPAN_DIR)

import spanglisheval  # noqa: E402
from competitions.spanglisheval import reference as builder  # noqa: E402

SOME = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@pytest.fixture(scope="module")
def phase(tmp_path_factory):
    """(dev reference folder, the development data as the starting kit holds it, sets) of the sample, built as
    `make` builds it."""
    root = tmp_path_factory.mktemp("spanglisheval_messages")
    builder.build(SAMPLE, str(root), jobs=1)
    with io.open(str(root / "dev" / "reference.jsonl"), encoding="utf-8") as handle:
        sets = [json.loads(line) for line in handle if line.strip()]
    return str(root / "dev"), str(root / "public" / "dev"), sets


# --------------------------------------------------------------------------- generated submissions

#: How a set is answered: a JSON literal from (size, gold, rng), and the problem class it must get (None: valid).
def _scores(size, rng):
    return [round(rng.uniform(-60, -1), 3) for _ in range(size)]


def _with(size, rng, literal):
    values = [json.dumps(v) for v in _scores(size, rng)]
    values[rng.randrange(size)] = literal
    return "[%s]" % ", ".join(values)


ANSWERS = {
    "scores": (None, lambda size, rng: json.dumps(_scores(size, rng))),
    "index": (None, lambda size, rng: str(rng.randrange(size))),
    "ranks": (None, lambda size, rng: json.dumps(rng.sample(range(size), size))),
    "ranks_from_1": (None, lambda size, rng: json.dumps([float(r) for r in rng.sample(range(1, size + 1), size)])),
    "quoted": ("quoted", lambda size, rng: _with(size, rng, json.dumps(str(rng.uniform(-9, 0))))),
    "boolean": ("boolean", lambda size, rng: _with(size, rng, rng.choice(["true", "false"]))),
    "nested": ("nested", lambda size, rng: _with(size, rng, rng.choice(["[-3.5]", "[]", '{"p": 1}']))),
    "nan": ("not_finite", lambda size, rng: _with(size, rng, rng.choice(["NaN", "Infinity", "-Infinity"]))),
    "overflow": ("not_finite", lambda size, rng: _with(size, rng, rng.choice(
        ["1e400", "-1e999", "1" + "0" * rng.randint(309, 5000), "-" + "9" * rng.randint(400, 6000)]))),
    "null": ("not_number", lambda size, rng: _with(size, rng, rng.choice(["null", '"high"', '"<b>x</b>"']))),
    "count": ("count", lambda size, rng: json.dumps(_scores(size + rng.choice([-2, -1, 1, 5]), rng))),
    "range": ("range", lambda size, rng: str(rng.choice([size, size + 3, -1, 10 ** 30]))),
    "huge_index": ("range", lambda size, rng: "1" + "0" * rng.randint(401, 5000)),
    "index_type": ("answer_type", lambda size, rng: rng.choice(["2.0", '"3"', "null", "true", '{"i": 1}'])),
    "missing": ("missing", None),
}


@st.composite
def submissions(draw):
    """(kinds per set: {set index: kind}, duplicated set indices, unknown ids, rng seed)."""
    kinds = draw(st.lists(st.sampled_from(sorted(ANSWERS)), min_size=1, max_size=40))
    duplicated = draw(st.lists(st.integers(0, 39), max_size=4, unique=True))
    unknown = draw(st.lists(st.one_of(st.from_regex(r"\Atest-[0-9]{4}\Z"), st.from_regex(r"\A[a-z<>]{1,8}\Z")),
                            max_size=6, unique=True))
    return kinds, duplicated, unknown, draw(st.integers(0, 2 ** 32))


def build(sets, kinds, duplicated, unknown, seed):
    """The JSON text of a submission, {set id: expected class or None}, and the answers the scorer reads
    ({set id: parsed value} of the valid sets, the last value of a duplicated id)."""
    rng = random.Random(seed)
    members, problems, valid = [], {}, {}
    for index, entry in enumerate(sets):
        kind = kinds[index % len(kinds)]
        problem, make = ANSWERS[kind]
        problems[entry["id"]] = problem
        if make is None:
            continue
        literal = make(len(entry["sentences"]), rng)
        if index in duplicated:
            members.append((entry["id"], '"first answer, replaced by the last"'))
        members.append((entry["id"], literal))
        if problem is None:
            valid[entry["id"]] = json.loads(literal)
    members += [(set_id, "0") for set_id in unknown if set_id not in problems]
    rng.shuffle(members)
    # a duplicated id's last answer is the one read: put the generated one after the placeholder
    order = sorted(range(len(members)), key=lambda i: (members[i][1] != '"first answer, replaced by the last"', i))
    members = [members[i] for i in order]
    text = "{%s}" % ", ".join("%s: %s" % (json.dumps(key), value) for key, value in members)
    return text, problems, valid


def write_zip(path, text):
    with zipfile.ZipFile(str(path), "w") as archive:
        archive.writestr("predictions.json", text)
    return str(path)


def validator(submission, data):
    proc = subprocess.run([sys.executable, VALIDATE, submission, "--split", "dev", "--data", data],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


def shown(message):
    where = (", " + message["where"]) if message["where"] else ""
    return "%s: %s%s: %s" % (message["severity"], message["file"], where, message["text"])


@SOME
@given(case=submissions())
@example(case=(["ranks"], [], [], 1))                                   # every set ranked: the warning
@example(case=(["ranks_from_1", "ranks", "scores"], [2], ["dev-9999"], 2))   # two thirds ranked, a duplicate
@example(case=(["ranks", "scores"], [], [], 3))                          # half ranked: no warning
@example(case=(sorted(ANSWERS), [0, 1, 5], ["test-0001", "<b>"], 4))      # every class at once
def test_every_class_is_one_message_with_its_count_and_the_score_follows_the_rules(phase, tmp_path, case):
    ref, public, sets = phase
    kinds, duplicated, unknown, seed = case
    text, problems, valid = build(sets, kinds, duplicated, unknown, seed)
    sub = write_zip(tmp_path / "sub.zip", text)
    report = evaluate(spanglisheval, ref, sub)
    messages = report["messages"]
    by_class = {}
    for set_id, problem in problems.items():
        if problem:
            by_class.setdefault(problem, []).append(set_id)
    for problem, ids in by_class.items():
        what = choice.PROBLEMS[problem][1]
        found = [m for m in messages if m["text"].startswith(what + ": ")]
        assert len(found) == 1 and found[0]["severity"] == "error", (problem, messages)
        assert found[0]["where"].startswith("set %s" % ids[0])
        assert "%s: %d of %d sets (set %s" % (what, len(ids), len(sets), ids[0]) in found[0]["text"]
    errors = [m for m in messages if m["severity"] == "error"]
    assert len(errors) == len(by_class)
    repeated = [s["id"] for i, s in enumerate(sets) if i in duplicated and problems[s["id"]] != "missing"]
    dup = [m for m in messages if m["text"].startswith(choice.PROBLEMS["duplicate"][1] + ": ")]
    assert len(dup) == (1 if repeated else 0)
    if repeated:
        assert "%d id%s (" % (len(repeated), "" if len(repeated) == 1 else "s") in dup[0]["text"]
    strangers = [u for u in unknown if u not in problems]
    unk = [m for m in messages if m["text"].startswith(choice.PROBLEMS["unknown"][1] + ": ")]
    assert len(unk) == (1 if strangers else 0)
    if strangers:
        assert "%d id%s (" % (len(strangers), "" if len(strangers) == 1 else "s") in unk[0]["text"]
    # ranks: one warning when most sets answered with scores hold a permutation of 0..n-1 or 1..n
    lists = [v for v in valid.values() if isinstance(v, list)]
    ranked = [v for v in lists if choice.looks_like_ranks(v)]
    ranks = [m for m in messages if "look like ranks" in m["text"]]
    assert len(ranks) == (1 if len(ranked) >= 2 and len(ranked) > len(lists) / 2.0 else 0), messages
    if ranks:
        assert ranks[0]["severity"] == "warning" and "the scores of %d of the %d sets" % (len(ranked), len(lists)) \
            in ranks[0]["text"] and "Submit -rank, or the log-probability" in ranks[0]["text"]
    # the score follows the rules (independent computation), and equals that of the faulty sets left out
    components = report["entries"][0]["components"]
    expected = oracle(sets, valid, dict((k, v) for k, v in problems.items()))
    for key, value in expected.items():
        assert components[key] == pytest.approx(value), key
    clean = evaluate(spanglisheval, ref, write_zip(tmp_path / "clean.zip", json.dumps(valid)))
    assert clean["entries"][0]["components"] == components
    assert report["scores"] == clean["scores"]
    # the validator prints the same messages and the same accuracy
    status, out = validator(sub, public)
    for message in messages:
        assert shown(message) in out, out
    assert "accuracy       %.4f" % components["accuracy"] in out
    # a file known to score 0 (here: scored against the dev gold) is not "ready": exit 1 (issue 24, class 4)
    assert status == (1 if errors or report["entries"][0]["score"] == 0 else 0), out
    assert ("1 file will score 0" in out) == (report["entries"][0]["score"] == 0), out


def test_dev_ids_in_the_test_phase_are_told_they_belong_to_another_phase(phase, tmp_path):
    ref, public, sets = phase
    test_ids = dict((s["id"].replace("dev-", "test-"), 0) for s in sets)
    report = evaluate(spanglisheval, ref, write_zip(tmp_path / "s.zip", json.dumps(test_ids)))
    texts = [m["text"] for m in report["messages"]]
    hint = "Most of them look like the ids of other sets (test-...), and this phase scores the dev-... sets"
    assert len(texts) == 2 and all(hint in text for text in texts)
    assert texts[0].startswith("no answer: %d of %d sets" % (len(sets), len(sets)))
    assert report["scores"]["avg_score"] == 0.0


def test_a_few_missing_sets_beside_other_ids_get_the_hint_only_on_the_ids(phase, tmp_path):
    ref, public, sets = phase
    sub = dict((s["id"], 0) for s in sets[3:])
    sub.update({"test-0001": 0, "test-0002": 0, "x": 0})
    report = evaluate(spanglisheval, ref, write_zip(tmp_path / "s.zip", json.dumps(sub)))
    missing, unknown, same = [m["text"] for m in report["messages"]]
    assert missing.startswith("no answer: 3 of %d sets" % len(sets)) and "look like" not in missing
    # index 0 for every set: one warning of its own (issue 24, class 2)
    assert same.startswith("%d of the %d sets answered with an index choose sentence 0" % (len(sets) - 3, len(sets) - 3))
    assert unknown.startswith("an id that is not a set of this phase: 3 ids") and "(test-...)" in unknown


def test_one_based_indices_are_named(phase, tmp_path):
    ref, public, sets = phase
    sub = dict((s["id"], len(s["sentences"])) for s in sets)
    report = evaluate(spanglisheval, ref, write_zip(tmp_path / "s.zip", json.dumps(sub)))
    [message] = report["messages"]
    assert "an index outside the set: %d of %d sets" % (len(sets), len(sets)) in message["text"]
    assert "indices start at 0 (were these 1-based?)" in message["text"]


# --------------------------------------------------------------------------- nothing scored: what was uploaded

LOOK_ALIKES = ["prediction.json", "Predictions.JSON", "predictions.jsonl", "preds.json", "dev_predictions.json",
               "predictions-dev.json", "submission.json", "answers.json", "output.json", "my_team/predictions.txt"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.sampled_from(LOOK_ALIKES), min_size=1, max_size=10, unique=True),
       others=st.lists(st.from_regex(r"\A[a-z]{3,9}\.(md|csv|txt)\Z"), max_size=12, unique=True))
def test_nothing_scored_names_the_uploaded_files_with_a_did_you_mean(phase, tmp_path, capsys, names, others):
    ref, _, _ = phase
    others = [o for o in others if o not in names]
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        for name in names + others:
            zf.writestr(name, "{}")
    status = cli.main(spanglisheval, ["--ref", ref, "--submission", archive, "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    total = len(names) + len(others)
    assert status == 1 and "It holds %d file%s: " % (total, "" if total == 1 else "s") in err, err
    for name in names:
        if name in err.split("It holds", 1)[1]:
            why = naming.name_fault(name, "predictions.json")   # letter case, extension, compression: said first
            assert "%s (%sdid you mean predictions.json?)" % (name, why + "; " if why else "") in err, err
    assert ("and %d more." % (total - 10) in err) == (total > 10)


def test_nothing_scored_is_the_same_in_the_validator(phase, tmp_path):
    ref, public, _ = phase
    archive = str(tmp_path / "sub.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("preds.json", "{}")
    status, out = validator(archive, public)
    assert status == 1 and "It holds 1 file: preds.json (did you mean predictions.json?)." in out


# --------------------------------------------------------------------------- the overflow, through both programs

def test_a_huge_json_integer_is_a_located_message_not_an_internal_error(phase, tmp_path):
    ref, public, sets = phase
    scores = [json.dumps(-float(i)) for i in range(len(sets[0]["sentences"]))]
    scores[2] = str(10 ** 400)
    members = ['"%s": [%s]' % (sets[0]["id"], ", ".join(scores))]
    members += ['"%s": 0' % s["id"] for s in sets[1:]]
    sub = write_zip(tmp_path / "s.zip", "{%s}" % ", ".join(members))
    proc = subprocess.run([sys.executable, os.path.join(SPAN_DIR, "evaluate.py"), "--ref", ref, "--submission", sub,
                           "--out", str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode == 0 and "Internal error" not in proc.stderr + proc.stdout, proc.stderr
    where = "set %s, sentence 2: a score that is not a finite number" % sets[0]["id"]
    assert where in proc.stdout and "an integer of 401 digits" in proc.stdout
    status, out = validator(sub, public)
    assert status == 1 and where in out and "Traceback" not in out


# --------------------------------------------------------------------------- fuzzing JSON numbers and nesting

NUMBER = st.one_of(
    st.integers().map(str),
    st.integers(300, 6000).map(lambda n: "1" * n), st.integers(300, 6000).map(lambda n: "-" + "9" * n),
    st.floats(allow_nan=True, allow_infinity=True).map(json.dumps),
    st.sampled_from(["1e400", "-1e400", "1E+999", "1e-400", "-0", "-0.0", "0e0", "NaN", "Infinity", "-Infinity",
                     "1.7976931348623157e308", "1.8e308", "4.9e-324", "123456789012345678901234567890.5"]),
    st.integers(1, 400).map(lambda n: "0." + "0" * n + "1"))


def nest(draw_depth, inner):
    return "[" * draw_depth + inner + "]" * draw_depth


@st.composite
def json_texts(draw):
    """A submission text for the first sets: lists of odd number literals, bare literals, deep nesting."""
    members = []
    for index in range(draw(st.integers(0, 6))):
        shape = draw(st.integers(0, 3))
        if shape == 0:
            value = "[%s]" % ", ".join(draw(st.lists(NUMBER, min_size=1, max_size=35)))
        elif shape == 1:
            value = draw(NUMBER)
        elif shape == 2:
            value = nest(draw(st.integers(1, 3000)), draw(NUMBER))
        else:
            value = '{"a": %s}' % nest(draw(st.integers(0, 50)), draw(NUMBER))
        members.append('"dev-%04d": %s' % (index + 1, value))
    if draw(st.booleans()):
        return "{%s}" % ", ".join(members)
    return nest(draw(st.integers(1, 100000)), "{%s}" % ", ".join(members))


@settings(max_examples=300, deadline=None)
@given(text=json_texts())
def test_json_numbers_and_nesting_never_raise_anything_but_a_located_error(phase, text):
    ref_dir, _, _ = phase
    kind = choice.ChoiceKind()
    with open(os.path.join(ref_dir, "reference.jsonl"), "rb") as handle:
        ref = kind.parse_reference_text(handle.read(), "reference.jsonl", None, None)
    log = MessageLog("predictions.json")
    try:
        answers = kind.parse_prediction_text(text.encode("utf-8"), ref, log, None, 64 << 20)
    except DataError as err:
        assert err.message.file == "predictions.json" and len(err.message.text) <= MAX_TEXT_CHARS
        return
    entry = kind.score(ref, answers, spanglisheval.TASKS[0])
    assert 0.0 <= entry.components["accuracy"] <= 1.0 and 0.0 <= entry.components["wer"] < 10
    messages = log.close()
    assert all(len(m.text) <= MAX_TEXT_CHARS for m in messages)
    assert len(messages) <= len(choice.PROBLEMS) + 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=json_texts())
def test_json_numbers_through_the_command_line_exit_0_or_1(phase, tmp_path, capsys, text):
    ref_dir, _, _ = phase
    sub = write_zip(tmp_path / "fuzz.zip", text)
    status = cli.main(spanglisheval, ["--ref", ref_dir, "--submission", sub, "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert status in (0, 1) and "Internal error" not in err and "Traceback" not in err, err
    if status == 0:
        assert re.match(r"avg_score: [0-9.]+\n", (tmp_path / "o" / "scores.txt").read_text())
