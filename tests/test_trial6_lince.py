"""Issue 33 (the sixth round of the hidden trial) on LinCE, generated over the sample's datasets: each mistake's message
(quoted), its position, and the score unchanged by the message (equal to the score with the check switched off), except
where said:

1. a file written twice (appended to: an earlier run, then the new one; a resumed run), the copies differing: an error
   (the kit cannot know which run is meant), priced with the second copy; identical copies stay a plain warning;
2. a sentence written with no labels (an empty block: two blank lines in a row) is read as that sentence when the file's
   blocks then are as many as the input's sentences: only those sentences are lost (this changes the score: the file
   is read as it means; the test compares it with the score of the same file whose sentences hold wrong labels), else
   it is named at the first misalignment;
3. the blocks one sentence late (a batch off by one: the first sentence written twice, the last lost) or early;
4. UTF-16 without a byte-order mark (little- or big-endian);
5. ``L1``/``L2`` for ``lang1``/``lang2`` priced (validator exit 1 when most is lost), label ids as ``LABEL_k`` or floats
   named, a byte-order mark before labels and fullwidth characters named.

The tests on the real release (``../shared/lince``) are at the end; they skip without it.
"""
import io
import json
import os
import random

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evalkit import floor, inventory, lines, loading, verdict
from evalkit.messages import ERROR, LOSS_NOTE, WARNING
from evalkit.scoring import evaluate
from lince_helpers import LINCE_SHARED, lince, lince_data, write_files
from test_trial3_lince import entry_of, gold_files, messages_of, refs, report_of, text_of, \
    validator  # noqa: F401 (the fixtures gold_files and refs)
from test_trial5_lince import FILES, LID_FILES, TOKEN_FILES, labels_and_tokens, noisy, real, real_report, release, \
    same_scores_without  # noqa: F401 (the fixture real)

TWICE = "the file was written twice (appended to an earlier run?)"


def line_of_block(blocks, index):
    """The line where block ``index`` of the text ``text_of(blocks)`` starts (a blank line after each block)."""
    return 1 + sum(len(block) + 1 for block in blocks[:index])


# --------------------------------------------------------------------------- 1. a file written twice

def twice(old, new, how):
    """The blocks of a file written twice: ``whole`` (the old run, then the new one appended), ``resumed`` (the first
    half of the old run, then the whole new run), ``partial`` (the whole old run, then the first half of the new one);
    and the index of the first block of the second copy, and the 0-based sentence it repeats first."""
    half = len(old) // 2
    if how == "whole":
        return old + new, len(old), 0
    if how == "resumed":
        return old[:half] + new, half, 0
    return old + new[:half], len(old), 0


@pytest.mark.parametrize("how", ["whole", "resumed", "partial"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_file_written_twice_whose_copies_differ_is_an_error_and_priced(refs, tmp_path, monkeypatch, name, how):
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    old = noisy(gold, task.labels[pair], 3, share=0.3)
    blocks, at, start = twice(old, gold, how)
    text = text_of(blocks)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    n = len(blocks) - len(gold)
    differ = sum(1 for a, b in zip([x for block in old[start:start + n] for x in block],
                                   [x for block in blocks[at:at + n] for x in block]) if a != b)
    found = messages_of(report, name, TWICE)
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    assert found[0]["where"] == "line %d" % line_of_block(blocks, at)
    assert "it holds a second copy of %s, %d blocks of labels, and %s of its" % (
        "the whole file" if n == len(gold) else "sentences 1 to %d" % n, n, "{:,}".format(differ)) in found[0]["text"]
    assert "The first copy was scored, the second left out: the kit cannot know which run is meant. Keep only the " \
        "newest run (write the file with open(path, 'w'), not 'a')" in found[0]["text"]
    assert not messages_of(report, name, "match no sentence")
    # the score is the first copy's: that of the file without the second copy
    first = old[:len(gold)] if how != "resumed" else old[:at] + gold[at:]
    plain = report_of(refs["dev"], name, text_of(first), tmp_path / "first")
    assert entry_of(report, name)["components"] == entry_of(plain, name)["components"]
    written = entry_of(report, name)["score"]
    priced = messages_of(report, name, "with its second copy (the later run, in an appended file) read instead")
    mended = entry_of(report_of(refs["dev"], name, text_of(first[:start] + blocks[at:at + n] + first[start + n:]),
                                tmp_path / "second"), name)["score"]
    if mended >= written + lines.PRICE_MIN_GAIN:
        assert len(priced) == 1 and priced[0]["severity"] == WARNING and priced[0]["where"] == "whole file"
        assert "the file scores %.4f as written and %.4f with its second copy" % (written, mended) in priced[0]["text"]
        assert (LOSS_NOTE in priced[0]["text"]) == floor.loses_most({"as_written": written, "mended": mended})
    else:
        assert not priced
    quiet = same_scores_without(monkeypatch, lines, "second_copy", lambda *args: None, refs["dev"], name, text,
                                tmp_path / "off", report)
    assert not messages_of(quiet, name, TWICE) and messages_of(quiet, name, "match no sentence")


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_identical_copies_stay_a_plain_warning(refs, gold_files, tmp_path, name):
    text = gold_files[name] + gold_files[name]
    report = report_of(refs["dev"], name, text, tmp_path / "same")
    assert not messages_of(report, name, TWICE)
    found = messages_of(report, name, "match no sentence of the input file")
    assert len(found) == 1 and found[0]["severity"] == WARNING
    assert entry_of(report, name)["score"] == 1


def test_the_validator_exits_1_on_a_file_appended_to(tmp_path):
    name = LID_FILES[0]
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    text = text_of(noisy(gold, task.labels[pair], 1, 0.3) + gold)
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert status == 1, out
    assert "error: %s, line %d: %s" % (name, line_of_block(gold + gold, len(gold)), TWICE) in out


# --------------------------------------------------------------------------- 2. a sentence with no labels

def with_empty(blocks, chosen):
    """The text of ``blocks`` with the sentences ``chosen`` written as empty blocks (the blank line after each kept)."""
    return "".join("\n" if i in chosen else "\n".join(block) + "\n\n" for i, block in enumerate(blocks))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_an_empty_block_is_read_as_that_sentence_with_no_labels(refs, tmp_path, name, seed):
    gold, _ = labels_and_tokens(name)
    chosen = set(random.Random(seed).sample(range(1, len(gold)), 2))   # not the first (a file opening with a blank)
    text = with_empty(gold, chosen)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "has no labels (two blank lines in a row at line")
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    first = min(chosen)
    line = len("".join("\n" if i in chosen else "\n".join(b) + "\n\n" for i, b in enumerate(gold[:first]))
               .split("\n"))   # the empty line of the block: the second blank line in a row
    assert found[0]["where"] == "sentence %d" % (first + 1)
    assert found[0]["text"].startswith("sentence %d has no labels (two blank lines in a row at line %d): the empty "
                                       "block was read as that sentence, with no labels" % (first + 1, line))
    assert not messages_of(report, name, "first misalignment")
    # the score changes (the file read as it means): only those sentences are lost, as if they held wrong labels
    wrong = text_of([["not-a-label"] * len(block) if i in chosen else block for i, block in enumerate(gold)])
    assert entry_of(report, name)["components"] == entry_of(report_of(refs["dev"], name, wrong, tmp_path / "wrong"),
                                                            name)["components"]


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_an_empty_block_that_does_not_reconcile_is_named_at_the_first_misalignment(refs, tmp_path, monkeypatch, name):
    gold, _ = labels_and_tokens(name)
    merged = [gold[i] + gold[i + 1] if i == 10 else gold[i] for i in range(len(gold)) if i != 11]   # a blank line lost
    text = with_empty(merged, {4})
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "first misalignment")
    assert len(found) == 1 and found[0]["where"].startswith("sentence 5"), report["messages"]
    assert ". Sentence 5 has no labels (two blank lines in a row at line %d): an empty block where a sentence was " \
        "expected" % len(with_empty(merged[:4], set()).split("\n")) in found[0]["text"]
    same_scores_without(monkeypatch, lines, "_empty_block_hint", lambda *args: "", refs["dev"], name, text,
                        tmp_path / "off", report)


# --------------------------------------------------------------------------- 3. blocks one sentence late or early

@pytest.mark.parametrize("direction", ["late", "early"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_blocks_one_sentence_late_or_early_are_named(refs, tmp_path, monkeypatch, name, direction):
    gold, _ = labels_and_tokens(name)
    blocks = [gold[0]] + gold[:-1] if direction == "late" else gold[1:] + [gold[-1]]
    lengths = [len(block) for block in gold]
    text = text_of(blocks)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    lost = [i for i in range(len(gold)) if len(blocks[i]) != lengths[i]]
    first = lost[0]
    found = messages_of(report, name, "The blocks of labels stand one sentence %s from sentence %d (line %d of the "
                        "file) on: %d of the %d sentences counted as wrong have the length of the sentence %s them" % (
                            direction, first + 1, line_of_block(blocks, first), len(lost), len(lost),
                            "before" if direction == "late" else "after"))
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    assert found[0]["where"] == "sentence %d (line %d of the file)" % (first + 1, line_of_block(blocks, first))
    assert ("a batch index off by one" in found[0]["text"]) == (direction == "late")
    same_scores_without(monkeypatch, lines, "_shifted_blocks_hint", lambda *args: "", refs["dev"], name, text,
                        tmp_path / "off", report)
    # priced: each block read for the sentence it was written for (the sentence left without a block stays lost)
    step = 1 if direction == "late" else -1
    back = [blocks[i + step] if 0 <= i + step < len(blocks) and len(blocks[i + step]) == lengths[i] else
            blocks[i] if len(blocks[i]) == lengths[i] else ["not-a-label"] * lengths[i] for i in range(len(gold))]
    written = entry_of(report, name)["score"]
    mended = entry_of(report_of(refs["dev"], name, text_of(back), tmp_path / "back"), name)["score"]
    priced = messages_of(report, name, "with each block read for the sentence it was written for")
    assert len(priced) == 1 and priced[0]["where"] == "whole file" and priced[0]["text"].startswith(
        "the blocks of labels stand one sentence %s from sentence %d on (see the error there). Priced on this phase's "
        "gold, the file scores %.4f as written and %.4f" % (direction, first + 1, written, mended)), report["messages"]
    assert (LOSS_NOTE in priced[0]["text"]) == floor.loses_most({"as_written": written, "mended": mended})
    assert not messages_of(report, name, "the floor of this phase")
    quiet = same_scores_without(monkeypatch, lines.TextKind, "_price", lambda *args: None, refs["dev"], name, text,
                                tmp_path / "unpriced", report)
    assert not messages_of(quiet, name, "with each block read for the sentence")


# --------------------------------------------------------------------------- 4. UTF-16 without a byte-order mark

@pytest.mark.parametrize("order", ["little-endian", "big-endian"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_utf16_without_a_byte_order_mark_is_named(refs, gold_files, tmp_path, name, order):
    data = gold_files[name].encode("utf-16-le" if order == "little-endian" else "utf-16-be")
    os.makedirs(str(tmp_path / "u16"))
    with open(str(tmp_path / "u16" / name), "wb") as handle:
        handle.write(data)
    report = evaluate(lince, refs["dev"], str(tmp_path / "u16"))
    found = messages_of(report, name, "so it was saved as UTF-16 (%s) without a byte-order mark; save it as UTF-8"
                        % order)
    first = 1 if order == "little-endian" else 0
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    assert found[0]["where"] == "byte %d (line 1)" % first
    assert "it holds a NUL byte at every other position (bytes %d, %d, %d, ...)" % (first, first + 2, first + 4) in \
        found[0]["text"]
    assert entry_of(report, name)["score"] == 0
    assert loading.utf16_without_bom(gold_files[name].encode("utf-8")) == ""


# --------------------------------------------------------------------------- 5. L1/L2, label ids, odd characters

@pytest.mark.parametrize("spelling", [("L1", "L2"), ("l1", "l2"), ("language_1", "language_2")])
@pytest.mark.parametrize("name", LID_FILES)
def test_l1_l2_are_renamed_and_priced(refs, tmp_path, monkeypatch, name, spelling):
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    system = noisy(gold, task.labels[pair], 5)
    rename = {"lang1": spelling[0], "lang2": spelling[1]}
    text = text_of([[rename.get(label, label) for label in block] for block in system])
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    outside = messages_of(report, name, "are not in this dataset's label set")
    assert len(outside) == 1 and "did you mean 'lang1'?" in outside[0]["text"] and "did you mean 'lang2'?" in \
        outside[0]["text"]
    written = entry_of(report, name)["score"]
    mended = entry_of(report_of(refs["dev"], name, text_of(system), tmp_path / "plain"), name)["score"]
    found = messages_of(report, name, "each has a label of the set it stands for")
    assert len(found) == 1 and "the file scores %.4f as written and %.4f with them renamed (" % (written, mended) in \
        found[0]["text"]
    assert (LOSS_NOTE in found[0]["text"]) == floor.loses_most({"as_written": written, "mended": mended})
    same_scores_without(monkeypatch, lines.TextKind, "_price", lambda *args: None, refs["dev"], name, text,
                        tmp_path / "off", report)


def test_the_validator_exits_1_on_l1_l2(tmp_path):
    name = LID_FILES[0]
    gold, _ = labels_and_tokens(name)
    text = text_of([[{"lang1": "L1", "lang2": "L2"}.get(label, label) for label in block] for block in gold])
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert status == 1, out
    assert "1 file will lose most of its score (%s)" % name in out


@pytest.mark.parametrize("how,words", [
    ("LABEL_%d", "are label ids in a Hugging Face model's default names, LABEL_<id> (e.g. line 1, 'LABEL_"),
    ("%d.0", "are numbers written as floats (e.g. line 1, '"),
    ("%d", "are numbers (e.g. line 1, '")])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_label_ids_in_any_form_are_named(refs, tmp_path, name, how, words):
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    ids = dict((label, i) for i, label in enumerate(task.labels[pair]))
    text = text_of([[how % ids[label] for label in block] for block in gold])
    report = report_of(refs["dev"], name, text, tmp_path / "ids")
    found = messages_of(report, name, "the system's label ids rather than the label names? Map each id to its label")
    assert len(found) == 1 and found[0]["where"] == "line 1" and words in found[0]["text"], report["messages"]
    assert entry_of(report, name)["score"] == 0


@pytest.mark.parametrize("name", LID_FILES)
def test_a_byte_order_mark_and_a_fullwidth_digit_in_labels_are_named(refs, tmp_path, monkeypatch, name):
    gold, _ = labels_and_tokens(name)
    for number, (text, words) in enumerate((
            ("".join("\ufeff" + "\n".join(block) + "\n\n" for block in gold),
             "It opens with a byte-order mark (U+FEFF, invisible: each chunk written with encoding='utf-8-sig'"),
            (text_of([[label.replace("1", "\uff11") for label in block] for block in gold]),
             "It holds the fullwidth character '\uff11' (U+FF11 FULLWIDTH DIGIT ONE) for '1': write it in ASCII"))):
        report = report_of(refs["dev"], name, text, tmp_path / ("on%d" % number))
        found = messages_of(report, name, "are not in this dataset's label set")
        assert len(found) == 1 and found[0]["text"].count(words) == 1, report["messages"]
        same_scores_without(monkeypatch, lines, "_odd_characters", lambda label: "", refs["dev"], name, text,
                            tmp_path / ("off%d" % number), report)


# --------------------------------------------------------------------------- the real release (../shared/lince)

@pytest.fixture(scope="module")
def real_gold():
    return [[row[-1] for row in rows] for _, rows in lince_data.read_conll(
        os.path.join(LINCE_SHARED, "lid_spaeng", "dev.conll"))]


@release
def test_the_real_predictions_appended_to_an_earlier_run_are_an_error(real, real_gold, tmp_path):
    report = real_report(real, text_of(real[1] + real_gold), tmp_path / "twice")
    found = messages_of(report, "lid_spa_eng.txt", TWICE)
    assert len(found) == 1 and found[0]["severity"] == ERROR
    assert entry_of(report, "lid_spa_eng.txt")["score"] == pytest.approx(0.9839, abs=5e-5)
    assert verdict.conclude(report)[0] == verdict.FAILED


@release
def test_the_real_gold_with_empty_blocks_loses_only_those_sentences(real, real_gold, tmp_path):
    chosen = set(range(165, len(real_gold), 100))
    report = real_report(real, with_empty(real_gold, chosen), tmp_path / "empty")
    found = messages_of(report, "lid_spa_eng.txt", "has no labels (two blank lines in a row at line")
    assert len(found) == 1 and found[0]["where"] == "sentence 166"
    tokens = sum(len(block) for block in real_gold)
    lost = sum(len(real_gold[i]) for i in chosen)
    assert entry_of(report, "lid_spa_eng.txt")["components"]["acc"] == pytest.approx(1 - float(lost) / tokens)


@release
def test_the_real_gold_one_sentence_late_is_named(real, real_gold, tmp_path):
    report = real_report(real, text_of([real_gold[0]] + real_gold[:-1]), tmp_path / "late")
    found = messages_of(report, "lid_spa_eng.txt", "The blocks of labels stand one sentence late from sentence 2 (line "
                        "6 of the file) on")
    assert len(found) == 1
    priced = messages_of(report, "lid_spa_eng.txt", "with each block read for the sentence it was written for")
    assert len(priced) == 1 and "the file scores 0.0330 as written and 0.9999 with each block" in priced[0]["text"]
    assert list(verdict.loss_files(report)) == ["lid_spa_eng.txt"]


# ----------------------------------------------------------------- 7. Penn Treebank tags where the set is UPOS

POS_FILES = sorted(name for name, (task, _) in FILES.items() if task.key == "pos")


def ptb_for(labels):
    """``{UPOS label: a Penn Treebank tag that stands for it in this label set}`` (the first such tag)."""
    out = {}
    for tag in sorted(inventory.PTB_TO_UPOS):
        upos = inventory.upos_of_ptb(tag, labels)
        if upos and upos not in out:
            out[upos] = tag
    return out


@pytest.mark.parametrize("name", POS_FILES)
def test_penn_treebank_tags_get_their_upos_tag_and_are_priced(refs, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    ptb = ptb_for(task.labels[pair])
    assert ptb["ADP"] == "IN" and ptb["NOUN"] == "NN" and ptb["VERB"] in ("MD", "VB") and ptb.get("INTJ", "UH") == "UH"
    text = text_of([[ptb.get(label, label) for label in block] for block in gold])
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "each has a label of the set it stands for")
    assert len(found) == 1 and "with them renamed (" in found[0]["text"], report["messages"]
    assert "as 'INTJ'" not in found[0]["text"].replace("'UH' as 'INTJ'", "")
    outside = messages_of(report, name, "are not in this dataset's label set")
    for tag in ("IN", "NN", "VB"):
        if "%r " % tag in outside[0]["text"]:
            assert "%r " % tag in outside[0]["text"] and "did you mean %r?" % inventory.upos_of_ptb(
                tag, task.labels[pair]) in outside[0]["text"]
    assert "the file scores %.4f as written and 1.0000 with them renamed" % entry_of(report, name)["score"] in \
        found[0]["text"]
    assert LOSS_NOTE in found[0]["text"]


def test_penn_treebank_tags_get_their_upos_tag_in_st2024_too():
    import st2024
    assert inventory.suggest("IN", st2024.UPOS_TAGS, st2024.UPOS_ALIASES) == "ADP"
    assert inventory.suggest("CC", st2024.UPOS_TAGS, st2024.UPOS_ALIASES) == "CCONJ"
    assert inventory.suggest("PRP$", st2024.UPOS_TAGS, st2024.UPOS_ALIASES) == "PRON"
    assert lines.guess_label("IN", list(st2024.UPOS_TAGS)) == "ADP"
    assert lines.guess_label("IN", ["lang1", "lang2", "other"]) != "ADP"


# --------------------------------------------------------------------------- 6. the input read with CSV quoting

@settings(deadline=None, max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 999), quote=st.sampled_from(['"', "'"]))
def test_the_input_read_with_csv_quoting_is_named_at_the_first_misalignment(tmp_path_factory, seed, quote):
    """Random sentences, one token opening with a quote character (and another later): the input read by pandas'
    read_csv with its default quoting swallows the lines between (``'``: pandas' quotechar is ``"`` alone, so the
    file is read line by line there and aligns)."""
    root = tmp_path_factory.mktemp("quote")
    rng = random.Random(seed)
    task, pair = FILES[LID_FILES[0]]
    sentences = [(["# sent_enum = %d" % i], [["w%d" % rng.randrange(99), rng.choice(["lang1", "lang2", "other"])]
                                             for _ in range(rng.randint(2, 8))]) for i in range(1, 13)]
    sentences[4][1][1][0] = quote + "hola"
    sentences[9][1][0][0] = quote
    text = lince_data.reference_text(sentences, task, pair, True)
    name = lince.REFERENCE_FILE.format(task=task.key, lang=pair)
    ref = write_files(root / "ref", {name: text})
    with open(os.path.join(ref, "phase.json"), "w") as handle:
        json.dump({"phase": "dev", "gold": "public"}, handle)
    frame = pd.read_csv(io.StringIO(text), sep="\t", header=None, names=["tok", "lab"], skip_blank_lines=False)
    out = []
    for tok, lab in zip(frame.tok, frame.lab):
        if isinstance(tok, str) and tok.startswith("# sent_enum"):
            continue
        out.append("" if pd.isna(tok) and pd.isna(lab) else lab if isinstance(lab, str) else "other")
    report = report_of(ref, LID_FILES[0], "\n".join(out) + "\n", root / "sub")
    found = messages_of(report, LID_FILES[0], "first misalignment")
    if quote == "'":
        assert not found
        return
    # the swallowed block stands at sentence 5, or at 6 when it happens to be as long as sentence 5
    assert len(found) == 1 and found[0]["where"].split(" (")[0] in ("sentence 5", "sentence 6"), report["messages"]
    assert found[0]["text"].endswith(". Sentence 5 of the input file has a token that starts with a quote character "
                                     "(token 2, '\"hola'): a reader that honours CSV quoting (pandas' read_csv by "
                                     "default, csv.reader) reads from it to the next quote as one field, swallowing "
                                     "the lines between; read the input with quoting=csv.QUOTE_NONE (pd.read_csv(path, "
                                     "sep='\\t', quoting=csv.QUOTE_NONE), or line by line)")


def test_the_kit_readme_names_the_new_messages():
    from lince_helpers import KIT
    with open(os.path.join(KIT, "README.md"), encoding="utf-8") as handle:
        readme = " ".join(handle.read().split())
    for words in ("a file written twice whose copies differ", "a sentence written with no labels (two blank lines in a "
                  "row", "blocks one sentence late or early", "`LABEL_2`", "a file saved as UTF-16 (with or without a "
                  "byte-order mark)", "`quoting=csv.QUOTE_NONE`", "`L1`/`L2`", "Penn Treebank tags for POS"):
        assert words in readme, words
