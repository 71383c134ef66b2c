"""Issue 24, the trial run again: classes of mistakes that cost score with no word before, generated, each with
its message (quoted), its position and the unchanged score (the check switched off gives the same scores).

1. candidates that can never match: whitespace around a lemma or gap candidate (a line read with its newline,
   padding), the input's gap marker (``[MASK]``) offered as an answer, a subword tokeniser's piece (``##ulat``)
   left undecoded (ST2024);
2. BIO files written in the IO or IOB1 scheme: entity spans opened by ``I-`` (LinCE's NER);
3. scores whose single highest value is on the same sentence in (nearly) every set: scores sorted from highest
   to lowest, or written in another order than the set's sentences (SpanglishEval);
4. a did-you-mean for misnamed per-document files that names the document in the phase's letter case, so the
   suggested name scores (SCATE; before, it kept the participant's case and still scored 0);
5. rows the task declares without a label of their own (ST2024's multiword-token rows, UPOS ``_``) given a tag: said where the gold is public (the development phase) and by the kit's validator on either split (its
   gold-less reference writes ``_`` for the input's range rows), never where the gold is hidden.
"""
import io
import os
import random
import shutil

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from evalkit import blank, choice, inventory, lines, scoring
from evalkit.scoring import evaluate
from lince_helpers import build_sample_reference, gold_submission, lince, sample_gold, write_files
from test_message_classes import SETTINGS, as_prediction, sentences, submission, write_release
from test_warning_classes import (SCATE_SAMPLE, _scate, _zip, fill_mask_release, gap_golds, gaps_marked, of_file,
                                  write_json)

LAT_LEMMA = "lemmatisation/lat.json"


# --------------------------------------------------------------------------- 1. candidates that never match

@settings(**SETTINGS)
@given(sents=sentences, pad=st.sampled_from(["\n", " ", "\t", "\r\n"]), padded=st.integers(1, 4))
def test_lemmas_with_whitespace_around_them_get_one_warning(tmp_path_factory, monkeypatch, sents, pad, padded):
    root = str(tmp_path_factory.mktemp("padded"))
    refs = write_release(root, sents)
    pred = as_prediction(refs)
    items = sum(len(sent) for sent in pred[LAT_LEMMA])
    shown, count = None, 0
    for sent in pred[LAT_LEMMA]:
        for token in sent:
            if count < padded:
                token[1] = [token[1][0] + pad] + list(token[1][1:]) if type(token[1]) is list else token[1] + pad
                shown = shown or (token[1][0] if type(token[1]) is list else token[1])
                count += 1
    sub = submission(root, pred)
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    found = of_file(report["messages"], LAT_LEMMA, "can never match")
    assert len(found) == 1 and found[0]["severity"] == "warning", report["messages"]
    text = found[0]["text"]
    assert text.startswith("%d of %d item%s hold a candidate that can never match: " % (
        count, items, "" if items == 1 else "s")), text
    assert "whitespace around a candidate (a line read with its newline, padding)" in text
    assert "strip each candidate" in text
    assert found[0]["where"] == "sentence 1, token 1 ($[0][0][1])"
    with monkeypatch.context() as patch:
        patch.setattr(inventory, "check_unmatchable_candidates", lambda *args, **kwargs: None)
        quiet = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    assert quiet["scores"] == report["scores"]
    assert not of_file(quiet["messages"], LAT_LEMMA, "can never match")


@settings(**SETTINGS)
@given(gaps=gap_golds, how=st.sampled_from(["marker", "padded", "blank char"]))
def test_the_gap_marker_or_padding_as_a_candidate_gets_one_warning(tmp_path_factory, monkeypatch, gaps, how):
    """``"[MASK]"`` or ``" word "`` offered for a word gap: one warning; one space for a character gap: none."""
    root = str(tmp_path_factory.mktemp("marker"))
    char = how == "blank char"
    task, value = fill_mask_release(root, gaps, char=char)
    total = sum(map(len, gaps))
    if how == "marker":
        pred = [dict(sent, masked_tokens=[["[MASK]", g] for g in sent["masked_tokens"]]) for sent in value]
    elif how == "padded":
        pred = [dict(sent, masked_tokens=[[" %s " % g] for g in sent["masked_tokens"]]) for sent in value]
    else:
        pred = [dict(sent, masked_tokens=[[" ", g[:1]] for g in sent["masked_tokens"]]) for sent in value]
    sub = submission(root, {"%s/lat.json" % task: pred})
    report = scoring.evaluate(st2024, os.path.join(root, "ref"), sub)
    found = of_file(report["messages"], "%s/lat.json" % task, "can never match")
    assert len(found) == (0 if char else 1), report["messages"]
    if found:
        text = found[0]["text"]
        assert text.startswith("%d of %d item%s hold a candidate that can never match: " % (
            total, total, "" if total == 1 else "s")), text
        assert found[0]["where"] == "sentence 1, mask 1 ($[0][\"masked_tokens\"][0])"
        if how == "marker":
            assert "'[MASK]' (%d time%s)" % (total, "" if total == 1 else "s") in text
            assert "predict the hidden word or character, not the marker '[MASK]'" in text
        else:
            assert "strip each candidate ('%s', not ' %s ')" % (gaps[0][0], gaps[0][0]) in text
    with monkeypatch.context() as patch:
        patch.setattr(inventory, "check_unmatchable_candidates", lambda *args, **kwargs: None)
        assert scoring.evaluate(st2024, os.path.join(root, "ref"), sub)["scores"] == report["scores"]


@settings(**SETTINGS)
@given(gaps=gap_golds, mark=st.sampled_from(["##", "\u2581", "\u0120"]), share=st.floats(0.0, 1.0))
def test_subword_pieces_as_candidates_get_one_warning(tmp_path_factory, monkeypatch, gaps, mark, share):
    """A tokeniser's piece (``"##ulat"``, ``"\u2581cadulat"``) offered for a word gap: one warning past a share."""
    root, task, total, marked, sub, report = gaps_marked(tmp_path_factory, gaps, share, False,
                                                         lambda gold: [mark + gold, gold])
    found = of_file(report["messages"], "%s/lat.json" % task, "subword tokeniser's piece")
    expected = marked and marked >= inventory.SUBWORD_SHARE * total
    assert len(found) == (1 if expected else 0), (marked, total, report["messages"])
    if found:
        text = found[0]["text"]
        assert text.startswith("%d of %d item%s hold a subword tokeniser's piece as a candidate: " % (
            marked, total, "" if total == 1 else "s")), text
        assert "Decode the pieces into text" in text
        assert found[0]["where"] == "sentence 1, mask 1 ($[0][\"masked_tokens\"][0])"
    with monkeypatch.context() as patch:
        patch.setattr(inventory, "check_subword_pieces", lambda *args, **kwargs: None)
        assert scoring.evaluate(st2024, os.path.join(root, "ref"), sub)["scores"] == report["scores"]


# --------------------------------------------------------------------------- 2. IO / IOB1 tags in a BIO file

@pytest.fixture(scope="module")
def lince_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("trial_lince_ref")
    build_sample_reference(out)
    return os.path.join(str(out), "dev")


NER = [(task, pair) for task, pair in lince.DATASETS if task.metric == "span_f1"]


def _io_scheme(text, share):
    """``text`` (one label a line) with the first ``share`` of its ``B-`` labels written ``I-``."""
    rows = text.split("\n")
    b_rows = [i for i, row in enumerate(rows) if row.startswith("B-")]
    for i in b_rows[:int(round(share * len(b_rows)))]:
        rows[i] = "I-" + rows[i][2:]
    return "\n".join(rows)


def _spans(text):
    """(spans opened by I-, spans) of a BIO file's text, sentence by sentence (blank lines)."""
    opened = spans = 0
    for block in text.strip("\n").split("\n\n"):
        previous = "O"
        for label in block.split("\n"):
            if label.startswith("B-") or (label.startswith("I-") and (previous[:2] not in ("B-", "I-") or
                                                                       previous[2:] != label[2:])):
                spans += 1
                opened += label.startswith("I-")
            previous = label
    return opened, spans


@settings(**SETTINGS)
@given(which=st.integers(0, 10), share=st.floats(0.0, 1.0))
def test_spans_opened_by_i_get_one_warning(tmp_path_factory, monkeypatch, lince_ref, which, share):
    task, pair = NER[which % len(NER)]
    name = lince.SUBMISSION_FILE.format(task=task.key, lang=pair)
    gold = gold_submission(sample_gold("dev"))[name]
    text = _io_scheme(gold, share)
    folder = str(tmp_path_factory.mktemp("io"))
    shutil.rmtree(folder)
    sub = write_files(folder, {name: text})
    report = evaluate(lince, lince_ref, sub)
    found = [m for m in report["messages"] if m["file"] == name and "open with I- rather than B-" in m["text"]]
    opened, spans = _spans(text)
    expected = opened and opened >= lines.I_OPENING_SHARE * spans
    assert len(found) == (1 if expected else 0), (opened, spans, report["messages"])
    if found:
        first = next(n for n, row in enumerate(text.split("\n"), 1) if row.startswith("I-") and (
            n == 1 or text.split("\n")[n - 2][2:] != row[2:] or text.split("\n")[n - 2][:2] not in ("B-", "I-")))
        assert found[0]["severity"] == "warning" and found[0]["where"] == "line %d" % first
        assert found[0]["text"].startswith("%d of %d entity spans open with I- rather than B- (lines %d" % (
            opened, spans, first)), found[0]["text"]
        assert "looks written in the IO or IOB1 scheme" in found[0]["text"]
        assert "Write B- on each entity's first token." in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(lines, "check_span_openings", lambda *args: None)
        quiet = evaluate(lince, lince_ref, sub)
    assert quiet["scores"] == report["scores"]


def test_the_gold_itself_never_gets_the_io_warning(tmp_path, lince_ref):
    sub = write_files(tmp_path / "gold", gold_submission(sample_gold("dev")))
    report = evaluate(lince, lince_ref, sub)
    assert not [m for m in report["messages"] if "open with I- rather than B-" in m["text"]]


# --------------------------------------------------------------------------- 3. the same top sentence everywhere

@settings(**SETTINGS)
@given(seed=st.integers(0, 10 ** 6), same=st.integers(0, 20), how=st.sampled_from(["sorted", "first", "last"]))
def test_the_same_top_sentence_in_every_set_gets_one_warning(monkeypatch, seed, same, how):
    rng = random.Random(seed)
    reference = [{"id": "dev-%03d" % n, "sentences": ["s%d" % i for i in range(rng.randint(3, 8))],
                  "gold": 0, "gold_type": "en"} for n in range(20)]
    data, tops = {}, []
    for n, entry in enumerate(reference):
        size = len(entry["sentences"])
        entry["gold"] = rng.randrange(size)
        scores = [-rng.random() * 10 - i for i in range(size)]
        rng.shuffle(scores)
        if n < same:
            scores = sorted(scores, reverse=True)
            if how == "first":   # the top first, the rest in any order
                scores = scores[:1] + rng.sample(scores[1:], size - 1)
            elif how == "last":
                scores = scores[::-1]
        else:   # the top anywhere but where the mistaken sets put it
            top = scores.index(max(scores))
            forbidden = size - 1 if how == "last" else 0
            if top == forbidden:
                scores[top], scores[1] = scores[1], scores[top]
        data[entry["id"]] = scores
        tops.append(scores.index(max(scores)))
    answers, messages = choice.parse_submission(data, reference, "predictions.json")
    common = max(set(tops), key=tops.count)
    counted = tops.count(common)
    found = [m for m in messages if "have their highest score on sentence" in m.text]
    expected = counted >= choice.SAME_INDEX_SHARE * 20
    assert len(found) == (1 if expected else 0), [str(m) for m in messages]
    if found:
        text = found[0].text
        assert found[0].severity == "warning" and found[0].where.startswith("set dev-0")
        assert text.startswith("%d of the 20 sets answered with scores have their highest score on sentence %d" % (
            counted, common)), text
        assert ("sorted from highest to lowest" in text) == (how == "sorted" or any(
            s == sorted(s, reverse=True) for s in data.values()))
        assert "Give the i-th score to the i-th sentence of the set" in text
    with monkeypatch.context() as patch:
        patch.setattr(choice, "_same_top_warning", lambda *args: None)
        quiet, _ = choice.parse_submission(data, reference, "predictions.json")
    assert choice.evaluate(reference, answers) == choice.evaluate(reference, quiet)


# --------------------------------------------------------------------------- 4. a did-you-mean in the phase's case

@settings(**dict(SETTINGS, max_examples=8))
@given(lowered=st.sets(st.integers(0, 5), min_size=1), every=st.booleans())
def test_a_document_did_you_mean_keeps_the_phase_letter_case(tmp_path_factory, lowered, every):
    """Files named in lower case (the document and the pattern): the did-you-mean names the document as the phase
    writes it, so the suggested name scores (before: the participant's lower-case document, which scores 0)."""
    from evalkit.layout import NothingToScore
    scate, scate_data, reference = _scate()
    root = str(tmp_path_factory.mktemp("scate_case"))
    reference.build(SCATE_SAMPLE, root)
    ref = os.path.join(root, "dev")
    docs = scate_data.documents(SCATE_SAMPLE, "dev")
    lowered = set(range(len(docs))) if every else set(i % len(docs) for i in lowered)
    gold = dict((doc, io.open(scate_data.gold_path(os.path.join(SCATE_SAMPLE, "train_dev", "AQUAINT"), doc),
                              encoding="utf-8").read()) for doc in docs)
    members = dict((scate_data.submission_name(doc).lower() if i in lowered else scate_data.submission_name(doc),
                    gold[doc]) for i, doc in enumerate(docs))
    first = min(lowered)
    wrong, right = scate_data.submission_name(docs[first]).lower(), scate_data.submission_name(docs[first])
    hint = "Did you mean %s for %s" % (right, wrong)
    path = _zip(os.path.join(root, "s.zip"), members)
    if len(lowered) == len(docs):
        with pytest.raises(NothingToScore) as caught:
            scoring.evaluate(scate, ref, path)
        assert hint in str(caught.value), str(caught.value)
        fixed = dict((right if name == wrong else name, text) for name, text in members.items())
        after = scoring.evaluate(scate, ref, _zip(os.path.join(root, "f.zip"), fixed))
        assert not [m for m in after["messages"] if wrong in m["text"]]
        return
    report = scoring.evaluate(scate, ref, path)
    found = [m for m in report["messages"] if "not named like" in m["text"]]
    assert len(found) == 1 and found[0]["severity"] == "warning", report["messages"]
    assert found[0]["file"] == wrong and hint in found[0]["text"], found[0]
    assert found[0]["text"].startswith("%d file(s) not named like <doc>/<doc>.TimeNorm.system.completed.xml "
                                       "(ignored)" % len(lowered))
    # the hint changes no score: the lower-case files are ignored as before, as if absent
    kept = dict((scate_data.submission_name(doc), gold[doc]) for i, doc in enumerate(docs) if i not in lowered)
    assert report["scores"] == scoring.evaluate(scate, ref, _zip(os.path.join(root, "k.zip"), kept))["scores"]


def test_document_name_hint_without_known_names_is_unchanged():
    hint = lines.document_name_hint(["d1/d1.gold.xml"], "{doc}/{doc}.system.xml")
    assert hint == "Did you mean d1/d1.system.xml for d1/d1.gold.xml?"
    assert lines.document_name_hint(["d1/d1.gold.xml"], "{doc}/{doc}.system.xml", ["D1"]) == \
        "Did you mean D1/D1.system.xml for d1/d1.gold.xml?"


# --------------------------------------------------------------------------- 5. rows without a label of their own

TAGS = ("NOUN", "VERB", "ADJ", "ADP", "DET")


@settings(**SETTINGS)
@given(seed=st.integers(0, 10 ** 6), given_label=st.sampled_from(["X", "ADP", "form"]),
       phase=st.sampled_from(["public", "hidden", "gold-less"]), task=st.sampled_from(["pos_tagging", "lemmatisation"]))
def test_rows_whose_gold_is_blank_given_a_label_get_one_warning_where_the_gold_is_public(
        tmp_path_factory, monkeypatch, seed, given_label, phase, task):
    """A multiword-token row (gold ``_``) given a tag: one warning on the development phase (public gold) and in a
    validator's gold-less reference (whose only labels are the ``_`` of the input's range rows), none where the
    gold is hidden (lemmas too: their first candidate; the range rows and the words the treebank gives no lemma);
    the same scores either way."""
    public = phase != "hidden"
    rng = random.Random(seed)
    root = str(tmp_path_factory.mktemp("blank"))
    ref_dir = os.path.join(root, "ref")
    sents = []
    for _ in range(rng.randint(2, 6)):
        sents.append([("w%d" % rng.randrange(50), rng.choice(TAGS)) for _ in range(rng.randint(2, 7))])
    blanks = []
    for si, sent in enumerate(sents):
        if rng.random() < 0.6 or si == 0:
            ti = rng.randrange(len(sent))
            sent[ti] = (sent[ti][0], "_")
            blanks.append((si, ti))
    gold = [[[form, tag if task == "pos_tagging" else (form if tag != "_" else "_")] for form, tag in sent]
            for sent in sents]
    if phase == "gold-less":   # starting_kit/validate.py's public reference: the input's range rows only
        write_json(os.path.join(ref_dir, task, "lat.json"),
                   [[[form, "_" if label == "_" else None] for form, label in sent] for sent in gold])
    else:
        write_json(os.path.join(ref_dir, task, "lat.json"), gold)
        write_json(os.path.join(ref_dir, "phase.json"), {"phase": "dev" if public else "test",
                                                         "gold": "public" if public else "hidden"})
    pred = [[[form, (label if task == "pos_tagging" else [label])] for form, label in sent] for sent in gold]
    changed = blanks[:max(1, len(blanks) // 2)]
    for si, ti in changed:
        value = pred[si][ti][0] if given_label == "form" else given_label
        pred[si][ti][1] = value if task == "pos_tagging" else [value]
    sub = submission(root, {"%s/lat.json" % task: pred})
    report = scoring.evaluate(st2024, ref_dir, sub, gold=phase != "gold-less")
    found = of_file(report["messages"], "%s/lat.json" % task, blank.MARK)
    assert st2024.TASKS_BY_FOLDER[task].blank_rows   # both tasks declare them
    assert len(found) == (1 if public else 0), report["messages"]
    if found:
        text = found[0]["text"]
        si, ti = changed[0]
        assert found[0]["severity"] == "warning" and found[0]["where"] == "sentence %d, token %d ($[%d][%d][1])" % (
            si + 1, ti + 1, si, ti)
        assert text.startswith("%d of the %d rows whose gold is '_' (multiword-token rows such as 4-5" % (
            len(changed), len(blanks))), text
        assert "These rows have no label of their own and score only with '_': give them '_'." in text
    with monkeypatch.context() as patch:
        patch.setattr(blank, "check_blank_rows", lambda *args: None)
        assert scoring.evaluate(st2024, ref_dir, sub, gold=phase != "gold-less")["scores"] == report["scores"]


def test_the_validator_builds_the_range_rows_label_from_the_input():
    """starting_kit/validate.py's public reference holds ``_`` for the input's range rows (``4-5``), ``null``
    elsewhere: the blank-rows check then runs on the test split, from public data only."""
    from test_message_classes import V
    pos = st2024.TASKS_BY_FOLDER["pos_tagging"]
    rows = [["1", "li"], ["2-3", "del"], ["2", "de"], ["3", "le"]]
    assert V.public_tagging(pos, [rows]) == [[["li", None], ["del", "_"], ["de", None], ["le", None]]]
    morph = st2024.TASKS_BY_FOLDER["morph_features"]
    assert V.public_tagging(morph, [rows]) == [[{"Token": "li"}, {"Token": "del"}, {"Token": "de"}, {"Token": "le"}]]

