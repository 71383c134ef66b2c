"""Issue 33, fifth round of the participants' trial on SpanglishEval, generated. Each class: the message (quoted), its
position, and the score unchanged by the message (the same answers scored with the check switched off).

- class 6, orders: scores (or indices) written in another order than each set's sentences (sorted alphabetically, as a
  groupby that sorts its groups does, ignoring case, in reverse, by length, by number of words, the set reversed,
  numbered ids sorted as text) dropped to chance with no message on the sample kit and a six-way guess on the real
  data: an error names the order without the gold (the answers follow the sentences' lengths only once put back),
  and on dev the price against the gold (LOSS_NOTE when most of the score is lost); an honest file never gets it;
- class 6, ties: scores rounded to integers (or a few decimals) tied the top of a quarter of the sets with no
  message: every tie at the top is said, with the count, how a tie is scored and the rounding named;
- class 8: scores per subword piece (a flat list longer than the set's words, or a list per sentence) get the hint
  that other competitions give for rows per subword;
- class 8: the report's "public part: N of M" sentence says what follows from it (these scores are on the public
  part only; the final ranking re-scores every team's official submission on the private rest), so does the blind
  phase's, and the starting kit's README says what the build's test phase shows (``<!-- TEST_PHASE -->``).
"""
import json
import os
import random
import re
import subprocess
import sys
import zipfile

import pytest
from hypothesis import example, given, strategies as st

from conftest import ROOT, build_competition
from evalkit import choice, scoring, split as evalkit_split, verdict
from evalkit.messages import LOSS_NOTE
from organiser import bundle, declarations, feedback, skeleton
from test_trial3_spanglisheval import SOME, same_score_without
from test_trial4_spanglisheval import submit, write_phase

import spanglisheval  # noqa: E402 (competitions/spanglisheval on sys.path through test_trial3_spanglisheval)

SHARED = os.path.join(os.path.dirname(ROOT), "shared", "spanglisheval")
SYLLABLES = ["ba", "ka", "lo", "me", "ni", "pu", "ro", "sa", "te", "vi", "ya", "zo"]


def word_sets(rng, count=60, sizes=(10, 31)):
    """``count`` sets of sentences of 2 to 12 tagged words (capitalised now and then, so that letter case matters to
    a sort), ids ``dev-0001``..., a random gold."""
    sets = []
    for n in range(count):
        sentences = []
        for _ in range(rng.randint(*sizes)):
            words = ["%s%s__%s" % (rng.choice(SYLLABLES), rng.choice(SYLLABLES), rng.choice(["en", "sp"]))
                     for _ in range(rng.randint(2, 12))]
            if rng.random() < 0.3:
                words[0] = words[0].capitalize()
            sentences.append(" ".join(words) + " .")
        sets.append({"id": "dev-%04d" % (n + 1), "sentences": sentences, "gold": rng.randrange(len(sentences)),
                     "gold_type": rng.choice(choice.GOLD_TYPES)})
    return sets


def language_model(rng, sets, noise):
    """Log-probabilities as a language model gives them: lower for longer sentences, plus noise; the gold a little
    higher than it would be (a model that chooses it now and then)."""
    data = {}
    for entry in sets:
        scores = [-2.0 * len(s.split()) - rng.uniform(0, noise) for s in entry["sentences"]]
        scores[entry["gold"]] += rng.uniform(0, 2 * noise)
        data[entry["id"]] = scores
    return data


def order_of(name, sentences):
    """The indices of ``sentences`` in the order ``name`` of evalkit.choice.SENTENCE_ORDERS (None: the set's own)."""
    return list(range(len(sentences))) if name is None else choice.SENTENCE_ORDERS[name][1](sentences)


def written(data, sets, name, indices=False):
    """``data`` written in order ``name``: the i-th score is that of the i-th sentence in that order (``indices``: the
    position, in that order, of the highest-scored sentence)."""
    out = {}
    for entry in sets:
        scores, order = data[entry["id"]], order_of(name, entry["sentences"])
        if indices:
            out[entry["id"]] = order.index(max(range(len(scores)), key=scores.__getitem__))
        else:
            out[entry["id"]] = [scores[i] for i in order]
    return out


def named(name, sets, indices=False):
    """The order the message must name: the first declared one whose put-back equals ``name``'s in every set (orders
    that give the same positions everywhere cannot be told apart)."""
    for other in choice.SENTENCE_ORDERS:
        if all(order_of(other, e["sentences"]) == order_of(name, e["sentences"]) for e in sets):
            if not (indices and other in choice.LENGTH_ORDERS):
                return other
    return name


def credit(answer, gold):
    """The set's credit, worked out apart from the scorer: 1/k when the gold is among the k top scores."""
    if not isinstance(answer, list):
        return 1.0 if answer == gold else 0.0
    top = [i for i, score in enumerate(answer) if score == max(answer)]
    return 1.0 / len(top) if gold in top else 0.0


ORDER_MESSAGE = ("the scores look written in %s, not in the set's order: put back from that order, they follow the "
                 "sentences' lengths as a language model's scores do (the longer the sentence, the lower its score: "
                 "mean correlation with the word counts ")
ORDER_ENDING = (" The i-th score must be the i-th sentence's, in sets.jsonl order; as written, most scores stand on "
                "other sentences than their own, and these sets are chosen almost at random. Put each score back on "
                "its own sentence (or score the sentences in the set's order, unsorted).")
INDEX_MESSAGE = "the indices look counted in %s, not in the set's order: counted so, they choose shorter sentences "
INDEX_ENDING = (" An index is the chosen sentence's position in the set, in sets.jsonl order; as written, most "
                "indices point at other sentences than the chosen ones, and these sets are chosen almost at random. "
                "Give the position of the chosen sentence in the set itself (its place in the unsorted list).")


# --------------------------------------------------------------------------- class 6: another order, without the gold

@SOME
@given(seed=st.integers(0, 10 ** 6), name=st.sampled_from([None] + list(choice.SENTENCE_ORDERS)),
       noise=st.floats(0.5, 8.0), indices=st.booleans())
@example(seed=365, name="ids as text", noise=1.0, indices=True)   # indices that fit the lengths a little as written
def test_answers_written_in_a_sort_of_the_sentences_are_named_without_the_gold(monkeypatch, seed, name, noise,
                                                                                indices):
    rng = random.Random(seed)
    sets = word_sets(rng, count=600 if indices else 60)   # an index says less of its set than a list of scores
    data = written(language_model(rng, sets, noise), sets, name, indices)
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    found = [m for m in messages if m.text.startswith(("the scores look written in", "the indices look counted in"))]
    if name is None or (indices and name in choice.LENGTH_ORDERS):   # an honest file; a length sort of indices
        assert not found, [str(m) for m in messages]   # (what a constant low index gives too: left to the gold)
        return
    expected = named(name, sets, indices)
    what = choice.SENTENCE_ORDERS[expected][0]
    assert len(found) == 1 and found[0].severity == "error", [str(m) for m in messages]
    first = next(e["id"] for e in sets if order_of(expected, e["sentences"]) != list(range(len(e["sentences"]))))
    assert found[0].where == "set %s" % first
    text = found[0].text
    if indices:
        assert text.startswith(INDEX_MESSAGE % what) and text.endswith(INDEX_ENDING), text
    else:
        assert text.startswith(ORDER_MESSAGE % what) and text.endswith(ORDER_ENDING), text
        fit = float(re.search(r"with the word counts ([-+][0-9.]+) over 60 sets", text).group(1))
        assert -1.0 <= fit <= -choice.ORDER_FIT   # longer sentences, lower scores
    same_score_without(monkeypatch, "_order_warning", lambda *args: None, data, sets, answers)


@SOME
@given(seed=st.integers(0, 10 ** 6), scale=st.floats(0.1, 50.0), sorted_too=st.booleans())
def test_scores_that_do_not_follow_the_lengths_name_no_order(seed, scale, sorted_too):
    """Random scores, a constant index, scores sorted in every set: what an order alone cannot explain is never
    called an order of the sentences."""
    rng = random.Random(seed)
    sets = word_sets(rng)
    for data in (dict((e["id"], [-rng.random() * scale for _ in e["sentences"]]) for e in sets),
                 dict((e["id"], 0) for e in sets)):
        if sorted_too:
            data = dict((k, sorted(v, reverse=True) if isinstance(v, list) else v) for k, v in data.items())
        messages = choice.parse_submission(data, sets, "predictions.json")[1]
        assert not [m for m in messages if "look written in" in m.text or "look counted in" in m.text]


@SOME
@given(seed=st.integers(0, 10 ** 6), name=st.sampled_from(list(choice.SENTENCE_ORDERS)), noise=st.floats(0.5, 4.0))
def test_on_dev_the_order_is_priced_against_the_gold(tmp_path_factory, seed, name, noise):
    tmp_path = tmp_path_factory.mktemp("priced")
    rng = random.Random(seed)
    sets = word_sets(rng, count=80)
    honest = language_model(rng, sets, noise)
    data = written(honest, sets, name)
    chance = sum(1.0 / len(e["sentences"]) for e in sets) / 80   # the constant chooser's floor
    ref, sub = write_phase(tmp_path, sets, floor_score=chance), submit(tmp_path, "sorted.zip", data)
    report = scoring.evaluate(spanglisheval, ref, sub)
    expected = named(name, sets)
    as_written = sum(credit(data[e["id"]], e["gold"]) for e in sets)
    put_back = sum(credit(honest[e["id"]], e["gold"]) for e in sets)   # the named order puts back every set alike
    priced = [m for m in report["messages"] if m["text"].startswith("put back from ")]
    said = ("put back from %s into each set's own order, the answers win %.1f of the 80 sets, against %.1f as written"
            % (choice.SENTENCE_ORDERS[expected][0], put_back, as_written))
    assert len(priced) == 1 and priced[0]["where"] == "whole file", report["messages"]
    floor_said = [m for m in report["messages"] if "the trivial baseline of the starting kit" in m["text"]]
    if put_back <= as_written:   # the order cost nothing here (a weak model, a small sample): a note
        assert priced[0]["severity"] == "info" and priced[0]["text"] == (
            said + ": their order is right; the message about their order does not apply to them.")
        return
    loss = as_written * 2 < put_back
    assert priced[0]["severity"] == "warning"
    assert priced[0]["text"] == (
        "%s. Priced on this phase's gold, the file scores %.4f as written and %.4f with every answer put back on its "
        "own sentence%s Write the i-th score (or count an index) for the i-th sentence of each set, in sets.jsonl "
        "order." % (said, as_written / 80, put_back / 80, " (%s)." % LOSS_NOTE if loss else "."))
    assert not floor_said   # the cause is named and priced: no list of likely causes (the six-way guess)
    assert report["scores"]["avg_score"] == pytest.approx(as_written / 80)   # the score as written
    status, summary = verdict.conclude(report, scored=True)
    assert status == verdict.FAILED   # the error said without the gold, and the loss where priced so
    assert ("will lose most of its score" in summary) == (loss and as_written > 0)   # a 0 is counted as a 0


def test_the_order_checks_switched_off_give_the_same_scores(tmp_path, monkeypatch):
    rng = random.Random(7)
    sets = word_sets(rng, count=80)
    data = written(language_model(rng, sets, 2.0), sets, "alphabetical")
    ref, sub = write_phase(tmp_path, sets), submit(tmp_path, "sorted.zip", data)
    report = scoring.evaluate(spanglisheval, ref, sub)
    assert [m for m in report["messages"] if m["text"].startswith("put back from the alphabetical order")]
    with monkeypatch.context() as patch:
        patch.setattr(choice, "order_counts", lambda *args: None)
        patch.setattr(choice, "_order_warning", lambda *args: None)
        quiet = scoring.evaluate(spanglisheval, ref, sub)
    assert not [m for m in quiet["messages"] if "put back" in m["text"] or "look written in" in m["text"]]
    assert quiet["scores"] == report["scores"]
    assert [e["score"] for e in quiet["entries"]] == [e["score"] for e in report["entries"]]


def test_the_gold_is_never_read_for_the_order_where_it_is_hidden(tmp_path):
    rng = random.Random(11)
    sets = word_sets(rng, count=80)
    data = written(language_model(rng, sets, 2.0), sets, "alphabetical")
    ref = write_phase(tmp_path, sets, gold="hidden")
    report = scoring.evaluate(spanglisheval, ref, submit(tmp_path, "s.zip", data))
    assert [m for m in report["messages"] if m["text"].startswith(ORDER_MESSAGE % choice.SENTENCE_ORDERS[
        named("alphabetical", sets)][0])]   # said without the gold
    assert not [m for m in report["messages"] if m["text"].startswith("put back from")]


# --------------------------------------------------------------------------- class 6: ties

@SOME
@given(seed=st.integers(0, 10 ** 6), decimals=st.sampled_from([None, 0, 1, 2]), noise=st.floats(0.5, 6.0))
def test_every_tie_at_the_top_is_said_with_the_count_and_the_rounding(monkeypatch, seed, decimals, noise):
    rng = random.Random(seed)
    sets = word_sets(rng, count=40)
    data = language_model(rng, sets, noise)
    if decimals is None:   # a few honest pairs: two sentences with the same score
        for entry in sets[:rng.randint(0, 3)]:
            scores = data[entry["id"]]
            top = scores.index(max(scores))
            scores[(top + 1) % len(scores)] = scores[top]
    else:
        data = dict((k, [round(x, decimals) if decimals else float(int(round(x))) for x in v]) for k, v in data.items())
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    tied = [e["id"] for e in sets if data[e["id"]].count(max(data[e["id"]])) > 1]
    found = [m for m in messages if "highest score shared by several sentences" in m.text]
    assert len(found) == (1 if tied else 0), [str(m) for m in messages]
    if found:
        text = found[0].text
        assert found[0].severity == "warning" and found[0].where == "set %s" % tied[0]
        assert text.startswith("%d of the 40 sets answered with scores %s highest score shared by several sentences"
                               % (len(tied), "has its" if len(tied) == 1 else "have their"))
        assert ("No order breaks a tie here. A tie splits the credit: k sentences sharing the top score with the gold "
                "earn 1/k (what a random pick among them earns), and the set's WER is the mean over them") in text
        if decimals == 0:
            assert text.endswith("Every score of the file is a whole number: rounded (round(x), int(x), '%.0f')? "
                                 "Rounding gives sentences whose scores differ the same score; write the scores "
                                 "unrounded (the floats as they are, json.dump rounds nothing).")
        elif decimals:
            assert ("Every score of the file is written with at most %d decimal%s: rounded (round(x, %d), '%%.%df')?"
                    % (decimals, "" if decimals == 1 else "s", decimals, decimals)) in text
        else:
            assert "A model may give two sentences the same score now and then" in text
    same_score_without(monkeypatch, "_ties_warning", lambda *args: None, data, sets, answers)


# --------------------------------------------------------------------------- class 8: per-subword scores

def subword_scores(rng, sentence):
    """A subword tokenizer's pieces of ``sentence`` (1 to 3 a word, plus an end piece), one log-probability each."""
    return [-rng.uniform(0.1, 6.0) for word in sentence.split() for _ in range(rng.randint(1, 3))] + [-0.5]


@SOME
@given(seed=st.integers(0, 10 ** 6), share=st.floats(0.6, 1.0), nested=st.booleans())
def test_scores_per_subword_piece_are_named(monkeypatch, seed, share, nested):
    """The hint LinCE and ST2024 give for rows per subword, given for lists of scores: one list of pieces' scores per
    set (more scores than the set has words), or a list per sentence (a list among the scores)."""
    rng = random.Random(seed)
    sets = word_sets(rng, count=30)
    data, hit = language_model(rng, sets, 2.0), 0
    for n, entry in enumerate(sets):
        if n < share * 30:
            pieces = [subword_scores(rng, sentence) for sentence in entry["sentences"]]
            data[entry["id"]] = pieces if nested else [x for sentence in pieces for x in sentence]
            hit += 1
    if nested:
        prefix, where, hint, name = "a list or object among the scores", "set dev-0001, sentence 0", (
            "%d of them hold a list of numbers for each sentence: one score per token or subword piece? Give one score "
            "per sentence: the sum of its tokens' log-probabilities." % hit), "_nested_hint"
    else:
        prefix, where, hint, name = "a list with the wrong number of scores", "set dev-0001", (
            "%d of them have more scores than the set has words: one score per subword piece (a tokenizer's "
            "tokens)? Give one score per sentence (the sum of its pieces' log-probabilities)." % hit), "_count_hint"
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    found = [m for m in messages if m.text.startswith(prefix)]
    assert len(found) == 1 and found[0].severity == "error" and found[0].where == where, [str(m) for m in messages]
    assert found[0].text.startswith("%s: %d of 30 sets" % (prefix, hit)) and found[0].text.endswith(hint)
    same_score_without(monkeypatch, name, lambda *args: "", data, sets, answers)


@pytest.mark.parametrize("nested", [False, True])
def test_a_file_too_large_for_one_score_per_sentence_names_scores_per_piece(tmp_path, monkeypatch, nested):
    """On a release-sized phase, a file of scores per subword piece is over the size limit before any hint: the
    size error says what usually makes it so large."""
    rng = random.Random(5)
    sets = word_sets(rng, count=400, sizes=(31, 31))
    data = {}
    for entry in sets:
        pieces = [subword_scores(rng, sentence) for sentence in entry["sentences"]]
        data[entry["id"]] = pieces if nested else [x for sentence in pieces for x in sentence]
    ref, sub = write_phase(tmp_path, sets), submit(tmp_path, "pieces.zip", data)
    report = scoring.evaluate(spanglisheval, ref, sub)
    (error,) = [m for m in report["messages"] if m["severity"] == "error"]
    limit = choice.ChoiceKind().prediction_limit(sets, spanglisheval.MAX_FILE_BYTES)
    assert error["file"] == "predictions.json" and error["where"] == ""
    assert re.match(r"the file is [0-9]+ bytes; at most %d are accepted: one score per sentence takes about 20 bytes, "
                    r"248,000 for these 12,400 sentences, so a file this large usually holds a score per token or "
                    r"subword piece; give one score per sentence, the sum of its tokens' log-probabilities \(this "
                    r"file scores 0\)$" % limit, error["text"]), error["text"]
    with monkeypatch.context() as patch:
        patch.delattr(choice.ChoiceKind, "oversize_cause")
        quiet = scoring.evaluate(spanglisheval, ref, sub)
    assert quiet["scores"] == report["scores"] and report["entries"][0]["status"] == "unreadable"
    assert "subword piece" not in json.dumps(quiet["messages"])


# --------------------------------------------------------------------------- the kit's validator

@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """(the unpacked sample starting kit, its dist folder, the reference folder) of a sample build."""
    root = tmp_path_factory.mktemp("kit5")
    ref, dist = build_competition("spanglisheval", root)
    with zipfile.ZipFile(os.path.join(dist, "starting_kit.zip")) as archive:
        archive.extractall(str(root / "kit"))
    return os.path.join(str(root / "kit"), "spanglisheval-starting-kit"), dist, ref


def baseline_answers(dist, name):
    with zipfile.ZipFile(os.path.join(dist, "submissions", name)) as archive:
        return json.loads(archive.read("predictions.json").decode("utf-8"))


def validate(kit_dir, data, tmp_path, split="dev", data_dir=None):
    sub = submit(tmp_path, "%s.zip" % split, data)
    command = [sys.executable, os.path.join(kit_dir, "validate.py"), sub, "--split", split]
    if data_dir:
        command += ["--data", data_dir]
    process = subprocess.run(command, cwd=kit_dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
    return process.returncode, process.stdout


def test_the_kit_says_the_alphabetical_order_and_exits_1_on_dev_and_test(kit, tmp_path):
    kit_dir, dist, ref = kit
    sets = [json.loads(line) for line in open(os.path.join(kit_dir, "data", "dev", "reference.jsonl"))]
    honest = baseline_answers(dist, "spanglisheval-dev-bigram.zip")
    status, out = validate(kit_dir, honest, tmp_path)
    assert status == 0 and "look written in" not in out, out
    status, out = validate(kit_dir, written(honest, sets, "alphabetical"), tmp_path)
    assert status == 1, out
    what = choice.SENTENCE_ORDERS[named("alphabetical", sets)][0]
    assert ("error: predictions.json, set dev-0001: " + ORDER_MESSAGE % what) in out
    assert "warning: predictions.json, whole file: put back from %s into each set's own order" % what in out
    assert "(this file loses most of its score). Write the i-th score" in out
    assert "the trivial baseline of the starting kit" not in out   # the cause is named: no list of likely causes
    assert out.rstrip().endswith("-- fix them before uploading") or out.rstrip().endswith("-- fix it before uploading")
    # the test split: no gold, the order is still said (the test sets from the test input written apart)
    test_dir = tmp_path / "data" / "test"
    test_dir.mkdir(parents=True)
    with zipfile.ZipFile(os.path.join(dist, "public_data", "spanglisheval-test.zip")) as archive:
        member = [n for n in archive.namelist() if n.endswith("sets.jsonl")][0]
        (test_dir / "sets.jsonl").write_bytes(archive.read(member))
    test_sets = [json.loads(line) for line in open(str(test_dir / "sets.jsonl"))]
    test_answers = baseline_answers(dist, "spanglisheval-test-baseline.zip")
    status, out = validate(kit_dir, written(test_answers, test_sets, "alphabetical"), tmp_path, "test",
                           str(tmp_path / "data"))
    assert status == 1 and ORDER_MESSAGE % choice.SENTENCE_ORDERS[named("alphabetical", test_sets)][0] in out, out


def test_the_kit_says_rounded_scores_and_how_ties_are_scored(kit, tmp_path):
    kit_dir, dist, ref = kit
    honest = baseline_answers(dist, "spanglisheval-dev-bigram.zip")
    rounded = dict((k, [float(int(round(x))) for x in v]) for k, v in honest.items())
    tied = sum(1 for v in rounded.values() if v.count(max(v)) > 1)
    status, out = validate(kit_dir, rounded, tmp_path)
    assert status == 0, out
    assert "%d of the 40 sets answered with scores have their highest score shared by several sentences" % tied in out
    assert "Every score of the file is a whole number: rounded (round(x), int(x), '%.0f')?" in out
    assert out.rstrip().endswith("it can be uploaded, but read the warnings first: most say what would cost points")


# --------------------------------------------------------------------------- the real data

@pytest.mark.skipif(not os.path.isdir(SHARED), reason="no SpanglishEval data at %s" % SHARED)
def test_the_real_sets_sorted_alphabetically_are_named_and_priced(tmp_path):
    from competitions.spanglisheval import baselines, build
    build.build(SHARED, str(tmp_path), quotas={"cs": 40, "mono": 120}, jobs=2, splits=("dev",))
    sets = baselines.read_reference(str(tmp_path), "dev")
    honest = baselines.submissions(sets, SHARED)[baselines.CHECKED]
    answers, messages = choice.parse_submission(honest, sets, "predictions.json")
    assert not [m for m in messages if m.severity == "error"]
    data = written(honest, sets, "alphabetical")
    answers, messages = choice.parse_submission(data, sets, "predictions.json")
    found = [m for m in messages if m.text.startswith(ORDER_MESSAGE % choice.SENTENCE_ORDERS["alphabetical"][0])]
    assert len(found) == 1 and found[0].severity == "error" and found[0].where == "set %s" % sets[0]["id"]
    priced = choice.order_counts(sets, answers)
    assert priced["order"] == "alphabetical" and priced["detected"]
    assert priced["won"] == pytest.approx([sum(credit(data[e["id"]], e["gold"]) for e in sets),
                                           sum(credit(honest[e["id"]], e["gold"]) for e in sets)])
    assert priced["mended"] > 2 * priced["as_written"]   # most of the score is lost: the validator exits 1
    rounded = dict((k, [float(int(round(x))) for x in v]) for k, v in honest.items())
    ties = [m for m in choice.parse_submission(rounded, sets, "predictions.json")[1]
            if "highest score shared" in m.text]
    assert len(ties) == 1 and "Every score of the file is a whole number" in ties[0].text


# --------------------------------------------------------------------------- class 8: what follows from the part

@SOME
@given(scored=st.integers(1, 500), extra=st.integers(1, 2000), unit=st.sampled_from(["sentences", "sets", "documents"]),
       part=st.sampled_from(["public", "private", "all"]))
def test_the_reports_part_sentence_says_what_follows(scored, extra, unit, part):
    total = scored + extra if part != "all" else scored
    manifest = {"mode": "public_private" if part != "all" else "full", "unit": unit, "part": part,
                "files": {"f": {"items": total, "scored": scored, "indices": list(range(scored))}}}
    text = evalkit_split.describe(manifest, spanglisheval, [])
    head = {"public": "public part", "private": "private part", "all": "whole test set"}[part]
    assert text.startswith("%s: %d of %d %s: " % (head, scored, total, unit))
    follows = {
        "public": "these scores, and the leaderboard's, are on the public part of the test set only; the final ranking "
                  "re-scores every team's official submission (its last scored one) on the private rest, whose gold "
                  "is not on the platform, so a final score and rank may differ from these.",
        "private": "the part the final ranking re-scores every team's official submission on; the platform's test "
                   "phase scored only the public rest.",
        "all": "the whole test gold is on the platform: the final ranking scores every team's official submission "
               "(its last scored one) on this same gold."}[part]
    assert text.endswith(follows)


@SOME
@given(valid=st.integers(0, 300), expected=st.integers(1, 300))
def test_the_blind_phase_sentence_says_the_final_ranking(valid, expected):
    manifest = {"mode": "blind", "unit": "sets", "part": "none", "files": {"f": {"items": expected, "indices": []}}}
    entries = [{"file": "predictions.json", "task": "sets", "valid_items": valid, "expected_items": expected}]
    assert evalkit_split.describe(manifest, spanglisheval, entries) == (
        "blind test phase: no score is computed from the gold; validly predicted sets per file: predictions.json: %d "
        "of %d. No score is shown during this phase; the final ranking scores every team's official submission (its "
        "last scored one) on the whole test gold, kept by the organisers." % (valid, expected))


def test_the_kits_readme_says_what_the_test_phase_shows(kit):
    kit_dir, dist, ref = kit
    readme = open(os.path.join(kit_dir, "README.md"), encoding="utf-8").read()
    split = feedback.read_split(os.path.join(ref, "test"))
    scored, items, unit = feedback.part_sizes(split)
    assert bundle.TEST_PHASE_MARKER not in readme
    assert ("## The test phase\nDuring the test phase, each submission is scored on the public part of the test set "
            "only (public part: %d of %d sets, drawn at random by the organisers; which items is not told): the scores "
            "participants see, and the leaderboard, are on that part. The final ranking re-scores each team's official "
            "submission (its last scored one) on the private part, the rest of the test set, whose gold never leaves "
            "the organisers, so a final score and rank may differ from the public ones" % (scored, items)) in readme


@pytest.mark.parametrize("state, mode, said", [
    ("real", feedback.BLIND, "no test gold is on the platform: each submission is checked against the test input"),
    ("real", feedback.FULL, "each submission is scored on the whole test gold: every team sees its own test scores"),
    ("pending", feedback.PUBLIC_PRIVATE, "scored on the public part of the test set only (drawn at random"),
    ("practice", feedback.PUBLIC_PRIVATE, "The test phase is a practice phase: its gold is public (why)"),
])
def test_the_readme_paragraph_follows_the_builds_mode(state, mode, said):
    split = None if mode == feedback.FULL else {"mode": mode, "files": {}}
    assert said in feedback.kit_readme_text(split, state, "why")


def test_every_readme_that_asks_for_the_paragraph_is_a_kit_of_a_hosted_competition_or_the_skeleton():
    """The skeleton's kit README asks for it; so does SpanglishEval's (the built README: above)."""
    assert bundle.TEST_PHASE_MARKER in skeleton.KIT_README
    hosted = declarations.Hosted("spanglisheval")
    assert bundle.TEST_PHASE_MARKER in open(os.path.join(hosted.starting_kit, "README.md"), encoding="utf-8").read()
