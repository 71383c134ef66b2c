"""Issue 33, sixth round of the participants' trial on SpanglishEval, generated. Each class: the message (quoted), its
position, and the score unchanged by the message (the same answers scored with the check switched off).

- class 1, silent: a part of the sets (a quarter, half, three quarters) left in another order of the sentences (a
  length sort not undone in some batches, each set rotated by one), or a block of sets paired with the next set's
  answers, scored low with no message (only a whole file in one order was said): an error names how many sets,
  the first ones and the likely causes, without the gold (each such set follows its sentences' lengths once put back,
  in clearly more sets than any order gives by chance in the file); on dev it is priced; honest files never get it;
- class 2, wrong cause: answers shifted by one set id were said as "no answer: 1 of N sets" and a floor line calling
  that set the first cause: the shift is named first, and priced on dev (no floor line);
- class 3, wrong cause: scores sorted in every set (a ranking) were priced as a length sort: no order is priced;
- class 4, false alarm: ranks whose highest number is the best (pandas' rank()) were told to be negated: without the
  gold the lengths say the direction or the warning says it cannot be told and how to check; on dev every reading
  (as written, negated, an argsort) is priced against the gold.
"""
import json
import os
import random

import pytest
from hypothesis import given, strategies as st

from evalkit import choice, scoring, verdict
from evalkit.messages import CHANCE_NOTE, LOSS_NOTE
from test_trial3_spanglisheval import SOME, same_score_without
from test_trial4_spanglisheval import submit, write_phase
from test_trial5_spanglisheval import SHARED, baseline_answers, credit, kit, validate, word_sets  # noqa: F401

import spanglisheval  # noqa: E402 (competitions/spanglisheval on sys.path through test_trial3_spanglisheval)

PART_HEAD = "%d of the %d sets answered with scores look written in %s, not in the set's order (first at sets "
PART_CAUSES = ("Likely causes: the order not restored after bucketing or sorting by length in some batches (one "
               "worker, one bucket), shards merged out of step. The i-th score must be the i-th sentence's, in "
               "sets.jsonl order: put each score of these sets back on its own sentence.")
SHIFT_HEAD = ("the answers look shifted by one set: the scores given for each set follow the lengths of the sentences "
              "of ")
BLOCK_HEAD = ("%d of the %d sets answered with scores look paired with the set one id after (%d of them in the block of "
              "%d sets from set %s to set %s): their scores follow the lengths of that set's sentences, not their own. "
              "Likely causes: shards or batches merged out of step")
SAID = ("look written in", "look shifted by one set", "look paired with the set one id")
#: Orders of evalkit.choice.PART_ORDERS that put a set back alike (a length sort by characters or by words).
KIN = {"shortest first": ("shortest first", "fewest words first")}


def model(rng, sets, noise, per_token=False):
    """A language model's log-probabilities: about -2 a word, plus noise (``per_token``: divided by the word count,
    whose relation with the length is weak)."""
    data = {}
    for entry in sets:
        scores = []
        for sentence in entry["sentences"]:
            words = len(sentence.split())
            score = -sum(rng.uniform(0.5, 3.5) for _ in range(words)) - rng.uniform(0, noise)
            scores.append(score / words if per_token else score)
        data[entry["id"]] = scores
    return data


def dev_model(rng, count):
    """``(sets, scores)``: ``count`` sets of 31 sentences and a language model's scores for them (:func:`model`) that
    choose the gold in about 60% of the sets (its score raised above the rest), for the checks priced on dev."""
    sets = word_sets(rng, count=count, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    for entry in sets:
        if rng.random() < 0.6:
            honest[entry["id"]][entry["gold"]] = max(honest[entry["id"]]) + 1.0
    return sets, honest


def in_order(scores, sentences, name):
    """``scores`` written in order ``name`` of evalkit.choice.PART_ORDERS."""
    return [scores[i] for i in choice.PART_ORDERS[name][1](sentences)]


def part_said(messages):
    return [m for m in messages if any(s in m.text for s in SAID)]


# --------------------------------------------------------------------------- class 1: a part of the sets in an order

@SOME
@given(seed=st.integers(0, 10 ** 6), name=st.sampled_from(["shortest first", "longest first", "rotated by one",
                                                           "rotated back by one", "reversed", "alphabetical"]),
       share=st.sampled_from([0.25, 0.5, 0.75]), noise=st.floats(0.0, 6.0))
def test_a_part_of_the_sets_in_another_order_is_named_with_its_count_and_first_sets(monkeypatch, seed, name, share,
                                                                                    noise):
    rng = random.Random(seed)
    sets = word_sets(rng, count=240, sizes=(20, 31))
    honest = model(rng, sets, noise)
    data, moved = dict(honest), []
    for n, entry in enumerate(sets):
        if rng.random() < share:
            data[entry["id"]] = in_order(honest[entry["id"]], entry["sentences"], name)
            if data[entry["id"]] != honest[entry["id"]]:
                moved.append(entry["id"])
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    found = part_said(messages)
    whole = choice.written_order(sets, answers)
    if whole:   # most sets in one order: the whole file's error says it (trial 5)
        assert not [m for m in found if "sets answered with scores look written in" in m.text]
        return
    assert len(found) == 1 and found[0].severity == "error", [str(m) for m in messages]
    named = choice.part_order(sets, answers)
    assert named["order"] in KIN.get(name, (name,))
    what = choice.PART_ORDERS[named["order"]][0]
    assert found[0].text.startswith(PART_HEAD % (len(named["ids"]), named["answered"], what)), found[0].text
    assert found[0].text.endswith(PART_CAUSES)
    assert found[0].where == "set %s" % named["ids"][0]
    hits = sum(1 for set_id in named["ids"] if set_id in moved)
    assert hits >= 0.8 * len(named["ids"]) and hits >= 0.3 * len(moved)   # the sets named are the ones moved
    same_score_without(monkeypatch, "_part_order_warning", lambda *args: None, data, sets, answers)


@SOME
@given(seed=st.integers(0, 10 ** 6), noise=st.floats(0.0, 30.0), per_token=st.booleans(),
       random_scores=st.booleans())
def test_honest_and_weak_scorers_never_get_the_part_or_shift_messages(seed, noise, per_token, random_scores):
    """Log-probabilities, per-token means (a weak, reversed relation with the length), random scores: the file's own
    chance level is what a group of sets must stand above."""
    rng = random.Random(seed)
    sets = word_sets(rng, count=240, sizes=(20, 31))
    data = dict((e["id"], [-rng.random() for _ in e["sentences"]]) for e in sets) if random_scores else \
        model(rng, sets, noise, per_token)
    messages = choice.parse_submission(data, sets, "predictions.json")[1]
    assert not part_said(messages), [str(m) for m in part_said(messages)]


@pytest.mark.parametrize("share", [0.25, 0.5])
def test_on_dev_a_part_in_length_order_is_priced(tmp_path, share):
    rng = random.Random(41)
    sets, honest = dev_model(rng, 200)
    data = dict(honest)
    for n, entry in enumerate(sets):
        if (n % 4 == 0) if share == 0.25 else (n % 2 == 0):
            data[entry["id"]] = in_order(honest[entry["id"]], entry["sentences"], "shortest first")
    ref = write_phase(tmp_path, sets, floor_score=sum(1.0 / 31 for _ in sets) / len(sets))
    report = scoring.evaluate(spanglisheval, ref, submit(tmp_path, "part.zip", data))
    priced = report["entries"][0]["details"]["part"]
    said = [m for m in report["messages"] if m["text"].startswith("put back from ")]
    assert len(said) == 1 and said[0]["severity"] == "warning" and said[0]["where"] == "whole file", report["messages"]
    assert said[0]["text"].startswith(
        "put back from %s into each set's own order, the %d sets that look written so make the file win %.1f of its "
        "200 sets, against %.1f as written. Priced on this phase's gold, the file scores %.4f as written and %.4f with "
        "these sets' scores put back on their own sentences" % (
            priced["what"], priced["sets"], priced["won"][1], priced["won"][0], priced["as_written"],
            priced["mended"]))
    assert priced["as_written"] == pytest.approx(sum(credit(data[e["id"]], e["gold"]) for e in sets) / 200)
    assert report["scores"]["avg_score"] == pytest.approx(priced["as_written"])   # the score as written
    lost = priced["as_written"] * 2 < priced["mended"]
    assert (LOSS_NOTE in said[0]["text"]) == lost
    assert not [m for m in report["messages"] if "the trivial baseline of the starting kit" in m["text"]]
    status, summary = verdict.conclude(report, scored=True)
    assert status == verdict.FAILED   # the error is said without the gold


def test_the_part_checks_switched_off_give_the_same_scores(tmp_path, monkeypatch):
    rng = random.Random(5)
    sets = word_sets(rng, count=200, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    data = dict((e["id"], in_order(honest[e["id"]], e["sentences"], "rotated by one") if n % 2 else honest[e["id"]])
                for n, e in enumerate(sets))
    ref, sub = write_phase(tmp_path, sets), submit(tmp_path, "rolled.zip", data)
    report = scoring.evaluate(spanglisheval, ref, sub)
    assert [m for m in report["messages"] if "look written in each set's scores rotated by one" in m["text"]]
    with monkeypatch.context() as patch:
        for name in ("_part_order_warning", "_shift_warning", "part_counts", "shift_counts"):
            patch.setattr(choice, name, lambda *args: None)
        quiet = scoring.evaluate(spanglisheval, ref, sub)
    assert not [m for m in quiet["messages"] if "rotated by one" in m["text"]]
    assert quiet["scores"] == report["scores"]
    assert [e["score"] for e in quiet["entries"]] == [e["score"] for e in report["entries"]]


def test_the_gold_is_never_read_for_the_part_where_it_is_hidden(tmp_path):
    rng = random.Random(9)
    sets = word_sets(rng, count=200, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    data = dict((e["id"], in_order(honest[e["id"]], e["sentences"], "shortest first") if n % 2 else honest[e["id"]])
                for n, e in enumerate(sets))
    ref = write_phase(tmp_path, sets, gold="hidden")
    report = scoring.evaluate(spanglisheval, ref, submit(tmp_path, "s.zip", data))
    assert [m for m in report["messages"] if "sets answered with scores look written in" in m["text"]]
    assert not [m for m in report["messages"] if m["text"].startswith("put back from")]


# --------------------------------------------------------------------------- class 1-2: answers paired with a neighbour

@SOME
@given(seed=st.integers(0, 10 ** 6), noise=st.floats(0.0, 6.0))
def test_answers_shifted_by_one_set_are_named_first(monkeypatch, seed, noise):
    rng = random.Random(seed)
    sets = word_sets(rng, count=120, sizes=(31, 31))
    honest = model(rng, sets, noise)
    ids = [e["id"] for e in sets]
    data = dict((ids[n + 1], honest[ids[n]]) for n in range(len(ids) - 1))
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    assert messages[0].severity == "error" and messages[0].where == "set %s" % ids[1], [str(m) for m in messages]
    assert messages[0].text.startswith(SHIFT_HEAD + "the set one id before (mean correlation with their word counts ")
    assert messages[0].text.endswith("answers paired with the wrong ids (ids[n + 1] zipped with scores[n], a header or "
                                     "first line skipped on one side); these sets are chosen almost at random (a set "
                                     "without an answer at one end follows from it). Pair each set's id with its own "
                                     "scores.")
    assert messages[1].text.startswith("no answer: 1 of 120 sets (set %s)" % ids[0])   # what follows from it, after
    same_score_without(monkeypatch, "_shift_warning", lambda *args: None, data, sets, answers)


def test_a_block_paired_with_the_next_sets_answers_is_named(monkeypatch):
    rng = random.Random(3)
    sets = word_sets(rng, count=400, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    ids = [e["id"] for e in sets]
    block = ids[100:200]
    data = dict(honest)
    for a, b in zip(block, block[1:] + block[:1]):   # one shard merged out of step
        data[a] = honest[b]
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    found = [m for m in messages if "look paired with the set one id after" in m.text]
    named = choice.shifted_sets(sets, answers)
    assert len(found) == 1 and found[0].severity == "error" and not named["whole"], [str(m) for m in messages]
    first, last, size, count = named["block"]
    assert found[0].text.startswith(BLOCK_HEAD % (len(named["ids"]), named["answered"], count, size, first, last))
    assert found[0].where == "set %s" % first and first in block and last in block and size >= 80
    assert sum(1 for set_id in named["ids"] if set_id in block) >= 0.8 * len(named["ids"])
    priced = choice.shift_counts(sets, answers)   # on dev: every set of the block paired back
    assert priced["block"] and priced["sets"] == size and priced["mended"] >= priced["as_written"]
    same_score_without(monkeypatch, "_shift_warning", lambda *args: None, data, sets, answers)


def test_on_dev_a_shift_is_priced_and_the_floor_line_is_not_given(tmp_path):
    rng = random.Random(13)
    sets, honest = dev_model(rng, 150)
    ids = [e["id"] for e in sets]
    data = dict((ids[n + 1], honest[ids[n]]) for n in range(len(ids) - 1))
    ref = write_phase(tmp_path, sets, floor_score=1.0 / 31)
    report = scoring.evaluate(spanglisheval, ref, submit(tmp_path, "shift.zip", data))
    texts = [m["text"] for m in report["messages"]]
    assert texts[0].startswith(SHIFT_HEAD), texts
    priced = report["entries"][0]["details"]["shift"]
    back = sum(credit(honest[e["id"]], e["gold"]) for e in sets[:-1])   # the last set's answer was never written
    assert priced["won"][1] == pytest.approx(back)
    said = [t for t in texts if t.startswith("paired back with the set one id before (every answer)")]
    assert len(said) == 1 and ("(%s)" % LOSS_NOTE) in said[0], texts
    assert not [t for t in texts if "the trivial baseline of the starting kit" in t]   # the cause is named and priced
    status, summary = verdict.conclude(report, scored=True)
    assert status == verdict.FAILED and "will lose most of its score" in summary


# --------------------------------------------------------------------------- class 3: scores sorted in every set

def test_scores_sorted_in_every_set_price_no_order_of_the_sentences(tmp_path, monkeypatch):
    rng = random.Random(17)
    sets = word_sets(rng, count=200, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    data = dict((k, sorted(v, reverse=True)) for k, v in honest.items())
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    assert [m for m in messages if "sorted from highest to lowest" in m.text]   # the cause, said without the gold
    (error,) = [m for m in messages if m.severity == "error"]
    assert error.where == "set dev-0001" and error.text == (
        "the scores of 200 of the 200 sets answered with scores are sorted (200 from highest to lowest, 0 from lowest "
        "to highest): a ranking of the scores (sorted(scores, reverse=True), a top-k over the whole set), which no "
        "longer says which sentence each score belongs to, so the same place is chosen in every set (%s). Give the "
        "i-th score to the i-th sentence of the set, in sets.jsonl order, unsorted." % CHANCE_NOTE)
    same_score_without(monkeypatch, "_sorted_warning", lambda *args: None, data, sets, answers)
    assert choice.order_counts(sets, answers) is None and choice.part_counts(sets, answers) is None
    report = scoring.evaluate(spanglisheval, write_phase(tmp_path, sets), submit(tmp_path, "sorted.zip", data))
    assert not [m for m in report["messages"] if m["text"].startswith("put back from")], report["messages"]
    assert verdict.conclude(report, scored=True)[0] == verdict.FAILED   # no better than chance: exit 1


# --------------------------------------------------------------------------- class 4: ranks in either direction

def ranks(scores, best_high):
    """The rank of each score: 0 for the best (``best_high``: n-1 for the best, pandas' rank() over the scores)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0.0] * len(scores)
    for place, index in enumerate(order):
        out[index] = float(len(scores) - 1 - place if best_high else place)
    return out


@pytest.mark.parametrize("best_high", [True, False])
def test_ranks_get_the_direction_from_the_lengths_and_on_dev_from_the_gold(tmp_path, monkeypatch, best_high):
    rng = random.Random(23)
    sets, honest = dev_model(rng, 150)
    data = dict((k, ranks(v, best_high)) for k, v in honest.items())
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    (warning,) = [m for m in messages if "look like ranks" in m.text]
    if best_high:
        assert ("the highest number is likely the best sentence already (pandas' rank() over scores), which is right "
                "here; leave them so. Submit -rank, or the log-probability of each sentence, only if 0 (or 1) is your "
                "best sentence.") in warning.text
        assert "counts as the worst" not in warning.text
    else:
        assert ("0 (or 1) is likely the best sentence, which counts as the worst here. Submit -rank, or the "
                "log-probability of each sentence.") in warning.text
    same_score_without(monkeypatch, "_ranks_warning", lambda *args: None, data, sets, answers)
    report = scoring.evaluate(spanglisheval, write_phase(tmp_path, sets), submit(tmp_path, "ranks.zip", data))
    (said,) = [m for m in report["messages"] if m["text"].startswith("the 150 sets whose scores look like ranks")]
    if best_high:
        assert said["severity"] == "info" and said["text"].endswith(
            "in them the highest number is the best sentence, as it must be here; leave them as they are (the warning "
            "about ranks does not apply to them).")
        assert verdict.conclude(report, scored=True)[0] != verdict.FAILED
    else:
        assert said["severity"] == "warning" and ("in them 0 (or 1) is the best sentence, while the highest score is "
                                                  "chosen here: submit -rank") in said["text"]
        assert said["text"].endswith("read so (%s)." % LOSS_NOTE)
        assert verdict.conclude(report, scored=True)[0] == verdict.FAILED


def test_random_ranks_say_the_direction_cannot_be_told_without_the_gold():
    rng = random.Random(29)
    sets = word_sets(rng, count=60, sizes=(20, 31))
    data = dict((e["id"], [float(i) for i in rng.sample(range(len(e["sentences"])), len(e["sentences"]))])
                for e in sets)
    (warning,) = [m for m in choice.parse_submission(data, sets)[1] if "look like ranks" in m.text]
    assert "Their direction cannot be told without the gold" in warning.text
    assert "on dev, the validator compares both directions against the gold" in warning.text


def test_an_argsort_is_priced_as_one_on_dev(tmp_path):
    rng = random.Random(31)
    sets, honest = dev_model(rng, 150)
    data = dict((k, sorted(range(len(v)), key=lambda i: -v[i])) for k, v in honest.items())
    report = scoring.evaluate(spanglisheval, write_phase(tmp_path, sets), submit(tmp_path, "argsort.zip", data))
    (said,) = [m for m in report["messages"] if m["text"].startswith("the 150 sets whose scores look like ranks")]
    assert "they are sentence indices sorted by score, not a score per sentence" in said["text"]
    assert said["text"].endswith("read so (%s)." % LOSS_NOTE)


# --------------------------------------------------------------------------- the kit's validator

def test_the_kit_names_the_shift_and_exits_1_and_leaves_right_ranks_alone(kit, tmp_path):
    kit_dir, dist, ref = kit
    sets = [json.loads(line) for line in open(os.path.join(kit_dir, "data", "dev", "reference.jsonl"))]
    ids = [e["id"] for e in sets]
    for name in sorted(os.listdir(os.path.join(dist, "submissions"))):   # no baseline gets the new messages
        if name.startswith("spanglisheval-dev-"):
            status, out = validate(kit_dir, baseline_answers(dist, name), tmp_path)
            assert not [s for s in SAID if s in out], (name, out)
    honest = baseline_answers(dist, "spanglisheval-dev-bigram.zip")
    status, out = validate(kit_dir, dict((ids[n + 1], honest[ids[n]]) for n in range(len(ids) - 1)), tmp_path)
    lines = [line for line in out.splitlines() if line.startswith(("error", "warning"))]
    assert status == 1 and lines[0].startswith("error: predictions.json, set %s: %s" % (ids[1], SHIFT_HEAD)), out
    assert "the trivial baseline of the starting kit" not in out
    right = dict((k, ranks(v, True)) for k, v in honest.items())
    status, out = validate(kit_dir, right, tmp_path)
    assert status == 0 and "which is right here; leave them so" in out, out   # the lengths say it, without the gold
    assert "too few to tell which reading is right" in out or "as it must be here; leave them as they are" in out


# --------------------------------------------------------------------------- the real data

@pytest.mark.skipif(not os.path.isdir(SHARED), reason="no SpanglishEval data at %s" % SHARED)
def test_the_real_baselines_stay_silent_and_half_in_length_order_is_named(tmp_path):
    from competitions.spanglisheval import baselines, build
    build.build(SHARED, str(tmp_path), quotas={"cs": 40, "mono": 120}, jobs=2, splits=("dev",))
    sets = baselines.read_reference(str(tmp_path), "dev")
    made = baselines.submissions(sets, SHARED)
    for name, data in made.items():   # every baseline, the per-token means of the checked one
        messages = choice.parse_submission(data, sets, "predictions.json")[1]
        assert not part_said(messages), (name, [str(m) for m in part_said(messages)])
    honest = made[baselines.CHECKED]
    per_token = dict((k, [x / len(s.split()) for x, s in zip(v, e["sentences"])])
                     for (k, v), e in zip(sorted(honest.items()), sorted(sets, key=lambda e: e["id"])))
    assert not part_said(choice.parse_submission(per_token, sets, "predictions.json")[1])
    data = dict((e["id"], in_order(honest[e["id"]], e["sentences"], "shortest first") if n % 2 else honest[e["id"]])
                for n, e in enumerate(sets))
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    assert [m for m in messages if m.severity == "error" and "sets answered with scores look written in" in m.text]
    priced = choice.part_counts(sets, answers)
    assert priced["mended"] > priced["as_written"]


# --------------------------------------------------------------------------- class 5: other layouts and characters

def test_pandas_layouts_are_named(monkeypatch):
    rng = random.Random(37)
    sets = word_sets(rng, count=30, sizes=(5, 5))
    honest = model(rng, sets, 1.0)
    ids = [e["id"] for e in sets]
    split = {"columns": ["scores"], "index": ids, "data": [[honest[i]] for i in ids]}
    wide = dict((str(j), dict((i, honest[i][j]) for i in ids)) for j in range(5))
    for data, said in ((split, "The file is a pandas DataFrame written with to_json(orient=\"split\") ({\"columns\", "
                                "\"index\", \"data\"}: the set ids under \"index\", the answers under \"data\")"),
                       (wide, "The file looks transposed: its keys are the sentences' positions (0, 1, 2, ...) and "
                              "the set ids are one level down ({\"0\": {\"dev-0001\": ...}}): a DataFrame with a "
                              "column per sentence written with to_json(), whose default orient=\"columns\" puts the "
                              "columns first. Transpose it (df.T) and write a list per set: "
                              "json.dump(df.T.to_dict(orient=\"list\"), f), or df.apply(list, axis=1).to_json().")):
        answers, messages = choice.parse_submission(data, sets, "predictions.json")
        missing = [m for m in messages if m.text.startswith("no answer: 30 of 30 sets")]
        assert len(missing) == 1 and missing[0].where == "set dev-0001" and said in missing[0].text, \
            [str(m) for m in messages]
        same_score_without(monkeypatch, "_pandas_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("how", ["minus", "comma"])
def test_a_unicode_minus_or_a_decimal_comma_is_named(monkeypatch, how):
    rng = random.Random(43)
    sets = word_sets(rng, count=30, sizes=(5, 5))
    honest = model(rng, sets, 1.0)
    data = dict((k, [("%.4f" % x).replace("-", "\u2212") if how == "minus" else ("%.4f" % x).replace(".", ",")
                     for x in v]) for k, v in honest.items())
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    (error,) = [m for m in messages if m.severity == "error"]
    assert error.where == "set dev-0001, sentence 0"
    assert error.text.startswith("a score that is not a number: 30 of 30 sets")
    assert error.text.endswith(
        "30 of them are numbers written with the Unicode minus sign '\u2212' (U+2212), not the ASCII hyphen-minus '-' "
        "(a typographic minus: a spreadsheet, a locale-aware formatter, copied text), and as strings: write JSON "
        "numbers (-42.1), e.g. float(x.replace('\u2212', '-'))." if how == "minus" else
        "30 of them are numbers written with a decimal comma (-42,1: a locale's formatting, such as de_DE or es_ES), "
        "and as strings: write JSON numbers with a decimal point (-42.1), e.g. float(x.replace(',', '.')).")
    same_score_without(monkeypatch, "_not_finite_hint", lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("separator, name, kind", [("\t", "tab", "TSV"), (",", "comma", "CSV")])
def test_a_table_saved_as_predictions_json_is_named(tmp_path, separator, name, kind):
    rng = random.Random(47)
    sets = word_sets(rng, count=30, sizes=(5, 5))
    honest = model(rng, sets, 1.0)
    rows = [separator.join(["id"] + ["s%d" % j for j in range(5)])] + [
        separator.join([k] + ["%.6f" % x for x in v]) for k, v in honest.items()]
    path = str(tmp_path / "table.zip")
    import zipfile
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("predictions.json", "\n".join(rows) + "\n")
    report = scoring.evaluate(spanglisheval, write_phase(tmp_path, sets), path)
    (error,) = [m for m in report["messages"] if m["severity"] == "error"]
    assert error["where"] == "line 1, column 1" and error["text"].startswith(
        "invalid JSON: Expecting value. The file looks like a table of %s-separated columns (a %s, e.g. df.to_csv(), "
        "saved under the name predictions.json): write one JSON object {set id: [one score per sentence]} instead, "
        "e.g. json.dump(dict(zip(ids, scores)), f)." % (name, kind)), error
    assert report["scores"]["avg_score"] == 0.0


# --------------------------------------------------------------------------- class 6: big losses priced

def test_half_the_sets_as_losses_is_priced_and_most_lost_exits_1(tmp_path):
    rng = random.Random(53)
    sets = word_sets(rng, count=150, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    for entry in sets:
        if rng.random() < 0.8:
            honest[entry["id"]][entry["gold"]] = max(honest[entry["id"]]) + 1.0
    data = dict((e["id"], [-x for x in honest[e["id"]]] if n % 2 else honest[e["id"]]) for n, e in enumerate(sets))
    report = scoring.evaluate(spanglisheval, write_phase(tmp_path, sets), submit(tmp_path, "half.zip", data))
    written = sum(credit(data[e["id"]], e["gold"]) for e in sets) / 150
    mended = sum(credit(honest[e["id"]], e["gold"]) for e in sets) / 150
    (said,) = [m for m in report["messages"] if m["text"].startswith("the 75 sets whose scores look reversed")]
    assert said["severity"] == "warning" and said["text"] == (
        "the 75 sets whose scores look reversed (all 0 or more, some above 1), negated: Priced on this phase's gold, "
        "the file scores %.4f as written and %.4f with them negated (%s). Negate the scores of these sets, or submit "
        "log-probabilities for every set." % (written, mended, LOSS_NOTE))
    assert report["scores"]["avg_score"] == pytest.approx(written)
    assert verdict.conclude(report, scored=True)[0] == verdict.FAILED


def test_probabilities_that_underflowed_to_0_in_most_sets_are_an_error(monkeypatch):
    rng = random.Random(59)
    sets = word_sets(rng, count=100, sizes=(31, 31))
    honest = model(rng, sets, 1.0)
    data = dict((k, [round(2.718281828 ** (3 * x), 6) for x in v]) for k, v in honest.items())
    zero = [e["id"] for e in sets if not any(data[e["id"]])]
    assert len(zero) > 50
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    (error,) = [m for m in messages if m.severity == "error"]
    assert error.where == "set %s" % zero[0] and error.text.startswith(
        "%d of the 100 sets answered with scores have every score 0 (first at sets %s, %s, %s, ...): probabilities "
        "that underflowed to 0" % tuple([len(zero)] + zero[:3]))
    assert error.text.endswith("Submit log-probabilities (the sum of the words' log-probabilities), which never "
                               "underflow.")
    same_score_without(monkeypatch, "_underflow_warning", lambda *args: None, data, sets, answers)
