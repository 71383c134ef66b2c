"""Issue 24, classes 1, 2, 4 and 5: mistakes the kit can see, generated (Hypothesis), each with its message
(quoted), its position and the unchanged score (the check switched off, or the floor file taken away, gives the
same scores).

1. a file at or below the floor of the development phase (where the gold is public; never where it is hidden);
2. well-formed, task-blind shapes: candidates joined by spaces, whole words for character gaps, ties at the top
   of a set (constant scores, probabilities that underflow to 0), SCATE entities outside <annotations> and
   documents without any entity;
4. exit statuses: a validator that knows a file will score 0 does not exit 0, and its summary counts such files;
5. one message per file and class, with its count and first positions (no line per token).
"""
import io
import json
import os
import random
import shutil
import zipfile

from hypothesis import given, settings, strategies as st

from conftest import ROOT
import st2024
from evalkit import choice, floor, inventory, scoring, verdict
from evalkit.messages import ZERO_NOTE
from test_message_classes import SETTINGS, UPOS, V, as_prediction, sentences, submission, write_release

LAT_POS = "pos_tagging/lat.json"


def of_file(messages, name, needle):
    """The messages of file ``name`` whose text holds ``needle``."""
    return [m for m in messages if m["file"] == name and needle in m["text"]]


def write_json(path, value):
    """Write ``value`` as JSON at ``path`` (folders made)."""
    if not os.path.isdir(os.path.dirname(path)):
        os.makedirs(os.path.dirname(path))
    with io.open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, ensure_ascii=False)


# --------------------------------------------------------------------------- 1. below the floor

def _rotated(tag):
    """Another UD tag for ``tag``: every tag wrong, every tag in the tag set (two classes swapped, and more)."""
    return UPOS[(UPOS.index(tag) + 1) % len(UPOS)] if tag in UPOS else tag


@settings(**SETTINGS)
@given(sents=sentences, mistake=st.sampled_from(["rotated", "floor itself"]))
def test_a_file_at_or_below_the_floor_is_said_where_the_gold_is_public(tmp_path_factory, sents, mistake):
    root = str(tmp_path_factory.mktemp("floor"))
    refs = write_release(root, sents)
    ref = os.path.join(root, "ref")
    tags = [tag for sent in refs["pos_tagging"] for _, tag in sent]
    majority = max(sorted(set(tags)), key=tags.count)
    floor_pred = {LAT_POS: [[[form, majority] for form, _ in sent] for sent in refs["pos_tagging"]]}
    floor_score = scoring.evaluate(st2024, ref, submission(root, floor_pred, "floor"))["entries"]
    floor_score = [e for e in floor_score if e["file"] == LAT_POS][0]["score"]
    write_json(os.path.join(ref, floor.FILE_NAME), {"label": "floor", "files": {"pos_tagging/lat": floor_score},
                                                    "sentences": {"pos_tagging/lat": len(sents)}})
    pred = as_prediction(refs)
    pred[LAT_POS] = floor_pred[LAT_POS] if mistake == "floor itself" else \
        [[[form, _rotated(tag)] for form, tag in sent] for sent in refs["pos_tagging"]]
    sub = submission(root, pred)
    hidden = scoring.evaluate(st2024, ref, sub)   # no phase.json: the gold counts as hidden
    write_json(os.path.join(ref, "phase.json"), {"phase": "dev", "gold": "public"})
    public = scoring.evaluate(st2024, ref, sub)
    score = [e for e in public["entries"] if e["file"] == LAT_POS][0]["score"]
    said = of_file(public["messages"], LAT_POS, "the trivial baseline of the starting kit")
    expected = score <= floor_score + floor.EPSILON and score < 1.0
    assert len(said) == (1 if expected else 0), (score, floor_score, public["messages"])
    if said:
        text = said[0]["text"]
        assert said[0]["severity"] == "warning" and said[0]["where"] == "whole file"
        assert text.startswith("this file scores %.4f, %s the floor of this phase (%.4f" % (
            score, "at" if abs(score - floor_score) <= floor.EPSILON else "below", floor_score)), text
        assert "Likely causes for this task: tags of another tag set or another case, tags shifted by one token, " \
               "two tags swapped throughout" in text
    assert not of_file(hidden["messages"], LAT_POS, "floor")   # hidden gold: never a word that depends on it
    assert hidden["scores"] == public["scores"]
    os.remove(os.path.join(ref, floor.FILE_NAME))
    assert scoring.evaluate(st2024, ref, sub)["scores"] == public["scores"]
    # the starting kit's validator scores the valid split against the dev gold it ships and says the same
    write_json(os.path.join(ref, floor.FILE_NAME), {"label": "floor", "files": {"pos_tagging/lat": floor_score},
                                                    "sentences": {"pos_tagging/lat": len(sents)}})
    report, _, _, _ = V.check(sub, os.path.join(root, "data"), "valid", gold=ref)
    assert len(of_file(report["messages"], LAT_POS, "the trivial baseline of the starting kit")) == len(said)
    assert report["gold_scores"][LAT_POS] == score
    status = V.main([sub, "--data", os.path.join(root, "data"), "--split", "valid", "--gold", ref])
    assert status == (1 if score == 0 else 0)


def test_every_kind_says_its_own_likely_causes():
    """The causes live with the kind (or the task's declaration), never a generic sentence for a known kind."""
    for name, kind in scoring.KINDS.items():
        assert floor.causes(None, kind) != floor.GENERIC_CAUSES, name
    task = st2024.TASKS[0]
    assert floor.causes(task, scoring.KINDS[task.kind]) == scoring.KINDS[task.kind].floor_causes
    assert "direction is reversed" in scoring.KINDS["choice"].floor_causes
    assert "wrong unit" in scoring.KINDS["fill_mask"].floor_causes


# --------------------------------------------------------------------------- 2. task-blind shapes

def fill_mask_release(root, gaps, char):
    """A phase reference of one fill-mask file (``gaps``: per sentence, its gold strings) in ``root/ref``."""
    task = "fill_mask_char" if char else "fill_mask_word"
    marker = "[_]" if char else "[MASK]"
    value = [{"masked": " ".join([marker] * len(golds)) or "x", "text": "", "masked_tokens": golds} for golds in gaps]
    write_json(os.path.join(root, "ref", task, "lat.json"), value)
    return task, value


words = st.text("abcdefgh", min_size=2, max_size=6)
gap_golds = st.lists(st.lists(words, min_size=1, max_size=3), min_size=2, max_size=6)


def mark_first_gaps(value, count, cands):
    """A prediction of the fill-mask reference ``value``: the first ``count`` gaps get ``cands(gold)``, the others
    their gold alone."""
    pred, seen = [], 0
    for sent in value:
        lists = []
        for gold in sent["masked_tokens"]:
            lists.append(cands(gold) if seen < count else [gold])
            seen += 1
        pred.append(dict(sent, masked_tokens=lists))
    return pred


def gaps_marked(tmp_path_factory, gaps, share, char, cands):
    """A fill-mask phase of ``gaps`` and a submission whose first ``share`` of the gaps get ``cands(gold)``:
    ``(root, task folder, gaps, gaps marked, submission, report)``."""
    root = str(tmp_path_factory.mktemp("marked"))
    task, value = fill_mask_release(root, gaps, char=char)
    total = sum(map(len, gaps))
    marked = int(round(share * total))
    sub = submission(root, {"%s/lat.json" % task: mark_first_gaps(value, marked, cands)})
    return root, task, total, marked, sub, scoring.evaluate(st2024, os.path.join(root, "ref"), sub)


def _checks_off(monkeypatch):
    for name in ("check_joined_candidates", "check_gap_units"):
        monkeypatch.setattr(inventory, name, lambda *args, **kwargs: None)


@settings(**SETTINGS)
@given(gaps=gap_golds, bare=st.booleans())
def test_candidates_joined_by_spaces_get_one_warning(tmp_path_factory, monkeypatch, gaps, bare):
    """``"a b c"`` per gap (a bare string, or a one-string list): one candidate that never matches."""
    root = str(tmp_path_factory.mktemp("spaced"))
    task, value = fill_mask_release(root, gaps, char=False)
    joined = [" ".join([gold, gold + "x", gold + "y"]) for golds in gaps for gold in golds]
    pred = [dict(sent, masked_tokens=[(" ".join([g, g + "x", g + "y"]) if bare else [" ".join([g, g + "x"])])
                                      for g in sent["masked_tokens"]]) for sent in value]
    sub = submission(root, {"%s/lat.json" % task: pred})
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    found = of_file(report["messages"], "%s/lat.json" % task, "joined into one string")
    assert len(found) == 1 and found[0]["severity"] == "warning", report["messages"]
    assert found[0]["text"].startswith("%d of %d items hold several candidates joined into one string" % (
        len(joined), len(joined)))
    assert found[0]["where"] == "sentence 1, mask 1 ($[0][\"masked_tokens\"][0])"
    assert "Give a list, best first: [\"%s\", \"%sx\"" % (gaps[0][0], gaps[0][0]) in found[0]["text"]
    with monkeypatch.context() as patch:
        _checks_off(patch)
        assert scoring.evaluate(st2024, os.path.join(root, "ref"), sub)["scores"] == report["scores"]


@settings(**SETTINGS)
@given(gaps=st.lists(st.lists(words, min_size=1, max_size=4), min_size=4, max_size=12), share=st.floats(0.0, 0.3))
def test_joined_candidates_warn_from_their_share_on(tmp_path_factory, gaps, share):
    """Only a file where at least JOINED_SHARE of the items hold a joined string gets the warning (the count is
    taken before any position is), with the count of those items and the first one's position."""
    root = str(tmp_path_factory.mktemp("share"))
    task, value = fill_mask_release(root, gaps, char=False)
    total = sum(map(len, gaps))
    joined = int(round(share * total))   # the last items hold a joined string second
    pred, picked = predict_gaps(value, lambda n, gold: [gold, gold + "|" + gold + "x"] if total - n <= joined
                                else None)
    found = warned_from_share(root, task, pred, "joined into one string", joined, total, inventory.JOINED_SHARE)[0]
    if found:
        assert found[0]["text"].startswith("%d of %d items hold" % (joined, total))
        si, mi = picked[0]
        assert found[0]["where"] == "sentence %d, mask %d ($[%d][\"masked_tokens\"][%d])" % (si + 1, mi + 1, si, mi)


def warned_from_share(root, task, pred, phrase, count, total, share):
    """``(warnings, report, submission)``: the warnings holding ``phrase`` of the file of ``task`` scored with
    ``pred`` (in ``root``), checked to be one exactly when ``count`` of its ``total`` items reach ``share``."""
    sub = submission(root, {"%s/lat.json" % task: pred})
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    found = of_file(report["messages"], "%s/lat.json" % task, phrase)
    expected = count and count >= share * total
    assert len(found) == (1 if expected else 0), (count, total, report["messages"])
    return found, report, sub


def predict_gaps(value, choose):
    """``(prediction, positions)``: per gap of the fill-mask reference ``value``, ``choose(n, gold)`` (``n``: the
    gap's number in the file), or ``[gold]`` where it gives None; ``positions``: the (sentence, mask) of the
    others."""
    pred, picked, n = [], [], 0
    for si, sent in enumerate(value):
        cands = []
        for mi, gold in enumerate(sent["masked_tokens"]):
            chosen = choose(n, gold)
            cands.append([gold] if chosen is None else chosen)
            if chosen is not None:
                picked.append((si, mi))
            n += 1
        pred.append(dict(sent, masked_tokens=cands))
    return pred, picked


@settings(**SETTINGS)
@given(gaps=st.lists(st.lists(st.sampled_from("abcdefg "), min_size=1, max_size=3), min_size=2, max_size=6),
       share=st.floats(0.0, 1.0))
def test_whole_words_for_character_gaps_get_one_warning(tmp_path_factory, monkeypatch, gaps, share):
    root, task, total, worded, sub, report = gaps_marked(tmp_path_factory, gaps, share, True,
                                                         lambda gold: ["word" + gold.strip(), gold])
    found = of_file(report["messages"], "%s/lat.json" % task, "offer several characters")
    expected = worded and worded >= inventory.UNIT_SHARE * total
    assert len(found) == (1 if expected else 0), (worded, total, report["messages"])
    if found:
        assert found[0]["text"].startswith("%d of %d gap" % (worded, total))
        assert "Each gap of this task hides ONE character" in found[0]["text"]
        assert found[0]["where"] == "sentence 1, mask 1 ($[0][\"masked_tokens\"][0])"
    with monkeypatch.context() as patch:
        _checks_off(patch)
        assert scoring.evaluate(st2024, os.path.join(root, "ref"), sub)["scores"] == report["scores"]
    word_task = [t for t in st2024.TASKS if t.folder == "fill_mask_word"][0]
    assert getattr(word_task, "gap_unit", None) != "character"   # words for word gaps: never this warning


@settings(**SETTINGS)
@given(seed=st.integers(0, 10 ** 6), tied=st.integers(0, 30), how=st.sampled_from(["constant", "underflow", "pair"]))
def test_scores_that_tie_at_the_top_of_a_set_get_one_warning(monkeypatch, seed, tied, how):
    rng = random.Random(seed)
    reference = [{"id": "dev-%03d" % n, "sentences": ["s%d" % i for i in range(rng.randint(3, 8))], "gold": 0,
                  "gold_type": "cs"} for n in range(30)]
    for entry in reference:
        entry["gold"] = rng.randrange(len(entry["sentences"]))
    data = {}
    for n, entry in enumerate(reference):
        size = len(entry["sentences"])
        scores = [-float(i) - rng.random() for i in range(size)]
        if n < tied:
            scores = [0.0] * size if how == "underflow" else [-3.5] * size if how == "constant" else \
                [1.0, 1.0] + [-float(i + 2) for i in range(size - 2)]
        data[entry["id"]] = scores
    answers, messages = choice.parse_submission(data, reference, "predictions.json")
    found = [m for m in messages if "highest score shared" in m.text]
    share = choice.PAIR_TIES_SHARE if how == "pair" else choice.TIES_SHARE   # two-way ties: what a model may give
    assert len(found) == (1 if tied else 0), [str(m) for m in messages]   # every tie at the top is said (issue 33)
    if found:
        assert ("so these sets score like a random choice" in found[0].text) == (tied >= share * 30)
        text = found[0].text
        assert found[0].severity == "warning" and found[0].where.startswith("set dev-000")
        assert text.startswith("%d of the 30 sets answered with scores %s highest score shared" % (
            tied, "has its" if tied == 1 else "have their"))
        assert ("%d with the same score for every sentence" % (0 if how == "pair" else tied)) in text
        assert ("probabilities that underflowed?" in text) == (how == "underflow")
        assert "A tie splits the credit" in text
        if how == "pair" and tied == 30:   # every score of the file a whole number: named as rounded
            assert "Every score of the file is a whole number: rounded" in text
        else:
            assert "log-probability" in text
    with monkeypatch.context() as patch:
        patch.setattr(choice, "_ties_warning", lambda *args: None)
        quiet, _ = choice.parse_submission(data, reference, "predictions.json")
    assert choice.evaluate(reference, answers) == choice.evaluate(reference, quiet)


SCATE_KIT = os.path.join(ROOT, "competitions", "scate", "starting_kit")
SCATE_SAMPLE = os.path.join(ROOT, "competitions", "scate", "sample_data")


def _scate():
    import sys
    for path in (os.path.join(ROOT, "competitions", "scate"), SCATE_KIT):
        if path not in sys.path:
            sys.path.append(path)
    import scate
    import scate_data
    from conftest import load_by_path
    reference = load_by_path("scate_reference_classes", os.path.join(ROOT, "competitions", "scate", "reference.py"))
    return scate, scate_data, reference


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


@settings(**dict(SETTINGS, max_examples=8))
@given(moved=st.sets(st.integers(0, 5)), emptied=st.sets(st.integers(0, 5)))
def test_scate_entities_outside_annotations_and_empty_documents(tmp_path_factory, moved, emptied):
    scate, scate_data, reference = _scate()
    root = str(tmp_path_factory.mktemp("scate"))
    reference.build(SCATE_SAMPLE, root)
    ref = os.path.join(root, "dev")
    docs = scate_data.documents(SCATE_SAMPLE, "dev")
    gold = dict((doc, io.open(scate_data.gold_path(os.path.join(SCATE_SAMPLE, "train_dev", "AQUAINT"), doc),
                              encoding="utf-8").read()) for doc in docs)
    moved = sorted(set(i % len(docs) for i in moved))
    emptied = sorted(set(i % len(docs) for i in emptied) - set(moved))
    empty = "<data><annotations></annotations></data>\n"
    members, plain = {}, {}
    for i, doc in enumerate(docs):
        xml = gold[doc]
        if i in moved:   # every entity straight under <data>, an empty <annotations> after them
            xml = xml.replace("<annotations>", "").replace("</annotations>", "<annotations></annotations>")
        elif i in emptied:
            xml = empty
        members[scate_data.submission_name(doc)] = xml
        plain[scate_data.submission_name(doc)] = empty if i in moved or i in emptied else gold[doc]
    report = scoring.evaluate(scate, ref, _zip(os.path.join(root, "s.zip"), members))
    stray = [m for m in report["messages"] if "outside <annotations>" in m["text"]]
    none = [m for m in report["messages"] if "without any entity" in m["text"]]
    assert len(stray) == (1 if moved else 0) and len(none) == (1 if emptied else 0), report["messages"]
    if moved:
        assert stray[0]["text"].startswith("%d of %d documents hold <entity> elements outside <annotations>"
                                           % (len(moved), len(docs)))
        assert stray[0]["file"] == scate_data.submission_name(docs[moved[0]])
        assert stray[0]["where"].startswith("line ") and "Put every <entity> inside" in stray[0]["text"]
    if emptied:
        assert none[0]["text"].startswith("%d of %d documents have a file without any entity (first: %s"
                                          % (len(emptied), len(docs), docs[emptied[0]]))
    # the entities outside <annotations> are ignored: the score of the same documents left empty
    assert report["scores"] == scoring.evaluate(scate, ref, _zip(os.path.join(root, "p.zip"), plain))["scores"]


# --------------------------------------------------------------------------- 4. exit statuses

@settings(**SETTINGS)
@given(sents=sentences, every=st.booleans(), how=st.sampled_from(["lower", "stray space"]))
def test_a_file_known_to_score_0_is_an_error_and_the_validator_does_not_exit_0(tmp_path_factory, monkeypatch, sents,
                                                                               every, how):
    root = str(tmp_path_factory.mktemp("zero"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    spoil = (lambda tag: tag.lower()) if how == "lower" else (lambda tag: tag + " ")
    spoiled = 0
    for si, sent in enumerate(pred[LAT_POS]):
        for ti, tok in enumerate(sent):
            if (every or (si, ti) == (0, 0)) and tok[1] != "_":
                tok[1] = spoil(tok[1])
                spoiled += 1
    total = sum(map(len, sents))
    sub = submission(root, pred)
    report, _, _, _ = V.check(sub, os.path.join(root, "data"), "valid")
    zero = spoiled == total
    errors = of_file(report["messages"], LAT_POS, ZERO_NOTE)
    assert len(errors) == (1 if zero else 0) and all(m["severity"] == "error" for m in errors), report["messages"]
    status, summary = verdict.conclude(report)
    assert status == (verdict.FAILED if zero else verdict.OK)
    assert ("1 file will score 0 (%s)" % LAT_POS in summary) == zero, summary
    assert ("ready to upload" in summary) == (not spoiled), summary
    assert V.main([sub, "--data", os.path.join(root, "data"), "--split", "valid"]) == status
    gold_report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    if zero:
        assert [e["score"] for e in gold_report["entries"] if e["file"] == LAT_POS] == [0.0]
    with monkeypatch.context() as patch:
        patch.setattr(inventory, "check_tags", lambda *args, **kwargs: None)
        assert scoring.evaluate(st2024, os.path.join(root, "ref"), sub)["scores"] == gold_report["scores"]


def test_every_kit_readme_documents_the_exit_statuses():
    for readme in ("starting_kit/README.md", "competitions/lince/starting_kit/README.md",
                   "competitions/scate/starting_kit/README.md", "competitions/spanglisheval/starting_kit/README.md"):
        with io.open(os.path.join(ROOT, readme), encoding="utf-8") as handle:
            text = handle.read()
        assert "will score 0" in text and "exit status" in text.lower(), readme


# --------------------------------------------------------------------------- 5. one message per class

@settings(**SETTINGS)
@given(sents=sentences, extra=st.integers(4, 9))
def test_a_class_of_problem_found_on_every_token_is_one_message_with_its_count(tmp_path_factory, sents, extra):
    root = str(tmp_path_factory.mktemp("fold"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    long_lists = [[[form, [lemma] + ["%s%d" % (lemma, k) for k in range(extra - 1)]] for form, lemma in sent]
                  for sent in refs["lemmatisation"]]
    pred["lemmatisation/lat.json"] = long_lists
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, pred))
    found = [m for m in report["messages"] if m["file"] == "lemmatisation/lat.json"]
    total = sum(map(len, sents))
    assert len(found) == 1, found
    text = found[0]["text"]
    assert found[0]["where"] == "sentence 1, token 1 ($[0][0][1])"
    assert text.startswith("%d candidates given; only the first 3 count" % extra)
    if total > 1:
        assert "[%d in this file: more than 3 candidates (the rest ignored); first at sentence 1, token 1" % total \
            in text, text
    cut = dict(pred, **{"lemmatisation/lat.json": [[[f, c[:3]] for f, c in sent] for sent in long_lists]})
    assert scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, cut, "cut"))["scores"] == \
        report["scores"]


# --------------------------------------------------------------------------- further classes of the same kinds

@settings(**SETTINGS)
@given(sents=sentences, empty=st.sampled_from([[], [""], ["", ""]]), every=st.booleans())
def test_a_file_without_any_candidate_is_an_error_that_scores_0(tmp_path_factory, sents, empty, every):
    """Every candidate list empty (or only ""): nothing can match; an error, the file counted as scoring 0."""
    root = str(tmp_path_factory.mktemp("nocand"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    pred["lemmatisation/lat.json"] = [[[form, list(empty) if every or (si, ti) != (0, 0) else [lemma]]
                                       for ti, (form, lemma) in enumerate(sent)]
                                      for si, sent in enumerate(refs["lemmatisation"])]
    sub = submission(root, pred)
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    found = of_file(report["messages"], "lemmatisation/lat.json", "has a candidate to match")
    assert len(found) == (1 if every else 0), report["messages"]
    if every:
        assert found[0]["severity"] == "error" and found[0]["where"] == "sentence 1, token 1 ($[0][0][1])"
        assert found[0]["text"] == ("none of the %d item%s has a candidate to match (every list empty, every "
                                    "candidate \"\" or not a string): this file scores 0. Give each item its "
                                    "candidates, best first." % (sum(map(len, sents)),
                                                                 "" if sum(map(len, sents)) == 1 else "s"))
        assert [e["score"] for e in report["entries"] if e["file"] == "lemmatisation/lat.json"] == [0.0]
        assert "lemmatisation/lat.json" in verdict.zero_files(report)


@settings(**SETTINGS)
@given(seed=st.integers(0, 10 ** 6), same=st.integers(0, 20), index=st.integers(0, 2))
def test_the_same_index_for_every_set_gets_one_warning(monkeypatch, seed, same, index):
    rng = random.Random(seed)
    reference = [{"id": "dev-%03d" % n, "sentences": ["s%d" % i for i in range(rng.randint(3, 8))],
                  "gold": 0, "gold_type": "en"} for n in range(20)]
    data = {}
    for n, entry in enumerate(reference):
        entry["gold"] = rng.randrange(len(entry["sentences"]))
        data[entry["id"]] = index if n < same else (index + 1 + n % 2) % 3
    answers, messages = choice.parse_submission(data, reference, "predictions.json")
    counted = sum(1 for value in data.values() if value == index)
    found = [m for m in messages if "answered with an index choose sentence" in m.text]
    assert len(found) == (1 if counted >= choice.SAME_INDEX_SHARE * 20 else 0), [str(m) for m in messages]
    if found:
        assert found[0].text.startswith("%d of the 20 sets answered with an index choose sentence %d" % (counted, index))
        assert found[0].where == "set dev-000"
    with monkeypatch.context() as patch:
        patch.setattr(choice, "_same_index_warning", lambda *args: None)
        quiet, _ = choice.parse_submission(data, reference, "predictions.json")
    assert choice.evaluate(reference, answers) == choice.evaluate(reference, quiet)


@settings(**SETTINGS)
@given(sents=sentences, shape=st.sampled_from([["NOUN"], 1, None, {"upos": "NOUN"}]), every=st.booleans())
def test_a_file_whose_tags_are_never_strings_is_one_error_that_scores_0(tmp_path_factory, sents, shape, every):
    root = str(tmp_path_factory.mktemp("notag"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    pred[LAT_POS] = [[[form, shape if every or (si, ti) != (0, 0) else tag] for ti, (form, tag) in enumerate(sent)]
                     for si, sent in enumerate(refs["pos_tagging"])]
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), submission(root, pred))
    mine = [m for m in report["messages"] if m["file"] == LAT_POS]
    errors = [m for m in mine if ZERO_NOTE in m["text"]]
    assert len(errors) == (1 if every else 0), mine
    assert len([m for m in mine if "expected a string; it never matches" in m["text"]]) == 1   # folded: one line
    if every:
        assert errors[0]["severity"] == "error" and errors[0]["where"] == "sentence 1, token 1 ($[0][0][1])"
        assert errors[0]["text"].startswith("none of the %d tag" % sum(map(len, sents)))
        assert [e["score"] for e in report["entries"] if e["file"] == LAT_POS] == [0.0]
