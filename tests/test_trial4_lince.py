"""The fourth round of issue 24's trial on LinCE, generated over the sample's datasets: each mistake's message
(quoted), its position, and the score unchanged by the message (equal to the score with the check switched off).

- predictions for the other split are recognised by the other input's sentence lengths too, not by a label count
  alone (a file of this split with a few lines too many is not called one for the other split), and the validator's
  summary counts them apart: "N files will score no better than chance";
- a file of the input's own tokens is an error even when a few of its lines happen to be labels;
- an upload that is not a zip says what it is (a text file uploaded alone, gzip, tar, ...);
- sentences written in another order (reversed, sorted, shuffled) are an error naming the order; blank lines that
  mostly fall inside sentences are said;
- label ids (numbers), the BIOES scheme, and SA labels written after '# sent_enum' headers are named.
"""
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import zipfile

import pytest

from evalkit import fingerprint, layout, lines, verdict
from evalkit.messages import CHANCE_NOTE, ERROR, WARNING, ZERO_NOTE
from evalkit.scoring import evaluate
from lince_helpers import SAMPLE, gold_submission, lince, lince_data, sample_gold, write_files
from test_trial3_lince import entry_of, gold_files, messages_of, refs, report_of, sentences_of, text_of, \
    validator  # noqa: F401 (the fixtures gold_files and refs)

FILES = dict((lince.SUBMISSION_FILE.format(task=task.key, lang=pair), (task, pair)) for task, pair in lince.DATASETS)
TOKEN_FILES = sorted(name for name, (task, _) in FILES.items() if task.kind == "token_labels")
ENTITY_FILES = sorted(name for name, (task, _) in FILES.items() if task.metric == "span_f1")
SENTENCE_FILES = sorted(name for name, (task, _) in FILES.items() if task.kind == "sentence_labels")


@pytest.fixture(scope="module")
def test_files():
    return gold_submission(sample_gold("test"))


def blocks_of(text):
    """The blocks of a token file's text, each a list of label lines."""
    return sentences_of(text)


def labels_of(text):
    return [row for row in text.split("\n") if row.strip()]


def same_components(first, second, name):
    assert entry_of(first, name)["components"] == entry_of(second, name)["components"]


# --------------------------------------------------------------------------- predictions for the other split

def test_the_fingerprint_holds_the_other_inputs_sentence_lengths(refs):
    with open(os.path.join(refs["dev"], fingerprint.FILE_NAME)) as handle:
        document = json.load(handle)
    for name in TOKEN_FILES:
        task, pair = FILES[name]
        test = lince_data.read_conll(os.path.join(SAMPLE, lince.dataset_id(task, pair), "test.conll"))
        entry = document["files"][name]
        assert entry["sentences"] == len(test) and entry["lengths"] == [len(rows) for _, rows in test]
        assert entry["items"] == sum(entry["lengths"])
    for name in SENTENCE_FILES:   # a post is one label: the count is all there is
        assert "lengths" not in document["files"][name]


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_predictions_for_the_test_split_name_their_blocks_and_say_they_score_no_better_than_chance(
        refs, test_files, tmp_path, monkeypatch, name):
    report = report_of(refs["dev"], name, test_files[name], tmp_path / "on")
    found = messages_of(report, name, "these look like predictions for the test split")
    if len(labels_of(test_files[name])) == len(labels_of(gold_submission(sample_gold("dev"))[name])):
        assert not found   # the same count as dev's: a count cannot tell
        return
    assert len(found) == 1 and found[0]["severity"] == ERROR and found[0]["where"] == "", report["messages"]
    blocks = len(blocks_of(test_files[name]))
    assert "the file has %d labels in %d blocks, as many as the test input has tokens, each block as long as its " \
        "sentence of the test input, not the " % (len(labels_of(test_files[name])), blocks) in found[0]["text"]
    assert found[0]["text"].endswith("Here its labels stand against other tokens: %s." % CHANCE_NOTE)
    assert verdict.chance_files(report) == {name: "error"} or name in verdict.zero_files(report, True)
    with monkeypatch.context() as patch:
        patch.setattr(fingerprint, "wrong_split_count_message", lambda *args: None)
        plain = report_of(refs["dev"], name, test_files[name], tmp_path / "off")
    same_components(report, plain, name)


def with_count(text, count, filler):
    """``text`` (a token file) with lines added to its last sentence, or taken from it, until it holds ``count``
    labels: a file of this split whose label count is another split's."""
    blocks = blocks_of(text)
    have = sum(len(block) for block in blocks)
    if count > have:
        blocks[-1] = blocks[-1] + [filler] * (count - have)
    else:
        while have > count and blocks:
            cut = min(have - count, len(blocks[-1]))
            blocks[-1] = blocks[-1][:len(blocks[-1]) - cut]
            have -= cut
            if not blocks[-1]:
                blocks.pop()
    return text_of(blocks)


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_file_of_this_split_with_the_other_splits_label_count_is_not_called_one_for_it(
        refs, gold_files, test_files, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    count = len(labels_of(test_files[name]))
    if count == len(labels_of(gold_files[name])):
        pytest.skip("the sample's dev and test files of %s have one size" % name)
    text = with_count(gold_files[name], count, task.labels[pair][0])
    assert len(labels_of(text)) == count
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    assert not messages_of(report, name, "look like predictions for"), report["messages"]
    assert messages_of(report, name, "this sentence counts as wrong") or messages_of(report, name, "misalignment")
    with monkeypatch.context() as patch:
        patch.setattr(fingerprint, "wrong_split_count_message", lambda *args: None)
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    same_components(report, plain, name)


def test_the_count_alone_still_names_the_other_split_without_lengths():
    """A fingerprint written before the lengths were kept (counts only) still gives the message."""
    found = fingerprint.wrong_split_count_message("f.txt", 12, 10, {"items": 12, "unit": "tokens"}, "test", "dev",
                                                  lambda: [5, 7])
    assert found is not None and "the file has 12 labels, as many as the test input has tokens" in found.text
    entry = {"items": 12, "unit": "tokens", "sentences": 2, "lengths": [5, 7]}
    assert fingerprint.wrong_split_count_message("f.txt", 12, 10, entry, "test", "dev", lambda: [6, 6]) is None
    assert fingerprint.wrong_split_count_message("f.txt", 12, 10, entry, "test", "dev", lambda: [12]) is None
    said = fingerprint.wrong_split_count_message("f.txt", 12, 10, entry, "test", "dev", lambda: [5, 7])
    assert "the file has 12 labels in 2 blocks, as many" in said.text


def test_the_validator_counts_files_for_the_other_split_apart_and_exits_1(test_files, tmp_path):
    names = [name for name in TOKEN_FILES
             if len(labels_of(test_files[name])) != len(labels_of(gold_submission(sample_gold("dev"))[name]))]
    assert len(names) >= 5, names
    status, out = validator(write_files(tmp_path / "sub", dict((name, test_files[name]) for name in names)))
    assert status == 1, out
    summary = out.strip().split("\n")[-1]
    assert "will score no better than chance (" in summary, summary
    counted = int(summary.split(" will score no better than chance")[0].rsplit(", ", 1)[-1].split()[0])
    zeros = int(summary.split(" will score 0")[0].rsplit(", ", 1)[-1].split()[0])
    assert counted + zeros == len(names), summary   # an entity file may score 0: counted there, not twice


def test_the_summary_counts_a_file_that_scores_0_once():
    report = {"messages": [{"severity": ERROR, "file": "a", "text": "... (%s)." % CHANCE_NOTE},
                           {"severity": ERROR, "file": "b", "text": "... %s." % CHANCE_NOTE}],
              "entries": [{"file": "a", "status": "scored", "score": 0.0, "sentences": 3},
                          {"file": "b", "status": "scored", "score": 0.4, "sentences": 3}]}
    assert list(verdict.zero_files(report, True)) == ["a"] and list(verdict.chance_files(report, ["a"])) == ["b"]
    status, text = verdict.conclude(report, True)
    assert status == verdict.FAILED
    assert text == ("2 errors, 0 warnings, 1 file will score 0 (a), 1 file will score no better than chance (b) "
                    "-- fix them before uploading")


# --------------------------------------------------------------------------- the input's tokens, a few of them labels

def tokens_text(name, split, gold_text):
    task, pair = FILES[name]
    sentences = sample_gold(split)[(task, pair)]
    tokens = iter([row[0] for _, rows in sentences for row in rows])
    return "\n".join(next(tokens) if row.strip() else row for row in gold_text.split("\n"))


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_file_of_the_tokens_with_a_few_labels_is_an_error(refs, gold_files, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    rows = tokens_text(name, "dev", gold_files[name]).split("\n")
    rows[0] = task.labels[pair][0]   # a token that happens to be a label (or a line written right)
    text = "\n".join(rows)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "the input file's own tokens at their lines")
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    total = len(labels_of(text))
    assert "Only 1 of %d lines hold something else, and those match by chance at best: %s." % (total, CHANCE_NOTE) \
        in found[0]["text"]
    assert ZERO_NOTE not in found[0]["text"]
    assert name in verdict.chance_files(report) or name in verdict.zero_files(report, True)
    with monkeypatch.context() as patch:
        patch.setattr(lines, "_tokens_hint", lambda *args: "")
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert [m["severity"] for m in messages_of(plain, name, "never match")] == [WARNING]
    same_components(report, plain, name)


def test_the_validator_exits_1_on_a_file_of_the_tokens_on_the_test_split(test_files, tmp_path):
    name = "lid_spa_eng.txt"
    rows = tokens_text(name, "test", test_files[name]).split("\n")
    rows[0] = "other"
    status, out = validator(write_files(tmp_path / "sub", {name: "\n".join(rows)}), "test")
    assert status == 1, out
    assert "error: %s, line " % name in out and "the file holds the tokens, not their labels" in out
    assert "0 files will score 0, 1 file will score no better than chance (%s)" % name in out


def test_a_right_file_with_a_few_tokens_is_not_called_a_file_of_tokens(refs, gold_files, tmp_path):
    name = "lid_spa_eng.txt"
    tokens = tokens_text(name, "dev", gold_files[name]).split("\n")
    rows = gold_files[name].split("\n")
    rows[:6] = tokens[:6]
    report = report_of(refs["dev"], name, "\n".join(rows), tmp_path / "few")
    assert not [m for m in report["messages"] if CHANCE_NOTE in m["text"]]


# --------------------------------------------------------------------------- an upload that is not a zip

def not_zips(folder, gold_files):
    """``{what: (path, the words the message must hold)}``: uploads that are no zip."""
    name = "lid_spa_eng.txt"
    data = gold_files[name].encode("utf-8")
    made = {}
    path = os.path.join(str(folder), name)
    with open(path, "wb") as handle:
        handle.write(data)
    made["text"] = (path, "it is a plain text file, uploaded by itself: put it in a zip (e.g. zip submission.zip "
                          "lid_spa_eng.txt) and upload the zip")
    for mode, ending, words in (("w:gz", ".tar.gz", "it is a gzip file, not a zip"),
                                ("w", ".tar", "it is a tar archive, not a zip")):
        path = os.path.join(str(folder), "submission" + ending)
        with tarfile.open(path, mode) as archive:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        made[ending] = (path, words)
    path = os.path.join(str(folder), "submission.zip")   # named .zip, but gzip inside
    with open(path, "wb") as handle:
        handle.write(gzip.compress(data))
    made["gzip named zip"] = (path, "it is a gzip file, not a zip")
    path = os.path.join(str(folder), "sub.7z")
    with open(path, "wb") as handle:
        handle.write(b"7z\xbc\xaf\x27\x1c" + bytes(64))
    made["7z"] = (path, "it is a 7-Zip file, not a zip")
    return made


def test_an_upload_that_is_not_a_zip_says_what_it_is(refs, gold_files, tmp_path):
    for what, (path, words) in not_zips(tmp_path, gold_files).items():
        with pytest.raises(layout.NothingToScore) as raised:
            evaluate(lince, refs["dev"], path)
        assert "%s is not a readable zip file (%s" % (os.path.basename(path), words) in str(raised.value), what
        assert "BadZipFile" not in str(raised.value), what


def test_a_broken_zip_keeps_its_reason(refs, tmp_path):
    path = str(tmp_path / "broken.zip")
    with open(path, "wb") as handle:
        handle.write(b"PK\x03\x04" + bytes(40))
    with pytest.raises(layout.NothingToScore) as raised:
        evaluate(lince, refs["dev"], path)
    assert "is not a readable zip file (BadZipFile" in str(raised.value)
    assert layout.not_a_zip_why(path) == ""


def test_the_validator_on_a_text_file_uploaded_alone(gold_files, tmp_path):
    path, words = not_zips(tmp_path, gold_files)["text"]
    status, out = validator(path)
    assert status == 1, out
    assert words in out and "BadZipFile" not in out


# --------------------------------------------------------------------------- sentences in another order

def reorders(text):
    """``{order: text}``: the token file ``text`` with its sentences reversed, sorted by length, shuffled."""
    blocks = blocks_of(text)
    shuffled = list(blocks)
    random.Random(7).shuffle(shuffled)
    return {"reversed": text_of(blocks[::-1]), "sorted by length": text_of(sorted(blocks, key=len)),
            "shuffled": text_of(shuffled)}


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_sentences_in_another_order_are_an_error_naming_the_order(refs, gold_files, tmp_path, monkeypatch, name):
    lengths = [len(block) for block in blocks_of(gold_files[name])]
    for number, (order, text) in enumerate(reorders(gold_files[name]).items()):
        moved = [len(block) for block in blocks_of(text)]
        wrong = sum(1 for a, b in zip(moved, lengths) if a != b)
        report = report_of(refs["dev"], name, text, tmp_path / ("on%d" % number))
        found = messages_of(report, name, "the file's blocks of labels have the lengths of the input file's sentences")
        if wrong < lines.REORDERED_MIN_BLOCKS or wrong * 2 < len(lengths):
            assert not found, order
            continue
        said = order if order != "sorted by length" or moved != lengths[::-1] else "reversed"
        assert len(found) == 1 and found[0]["severity"] == ERROR, (order, report["messages"])
        first = next(i for i, (a, b) in enumerate(zip(moved, lengths)) if a != b)
        assert found[0]["where"] == "sentence %d (line %d of the file)" % (
            first + 1, sum(n + 1 for n in moved[:first]) + 1), found[0]
        assert "but in another order (%s: %d of %d blocks are not as long as their sentence)" % (
            said, wrong, len(lengths)) in found[0]["text"]
        assert "(%s). Write the sentences in the input file's order" % CHANCE_NOTE in found[0]["text"]
        with monkeypatch.context() as patch:
            patch.setattr(lines, "_reordered", lambda *args: None)
            plain = report_of(refs["dev"], name, text, tmp_path / ("off%d" % number))
        assert messages_of(plain, name, "paired with tokens in order")
        same_components(report, plain, name)


def test_the_reorder_check_is_tried_on_every_token_file(gold_files):
    for name in TOKEN_FILES:
        lengths = [len(block) for block in blocks_of(gold_files[name])]
        moved = [len(block) for block in blocks_of(reorders(gold_files[name])["reversed"])]
        assert sum(1 for a, b in zip(moved, lengths) if a != b) * 2 >= len(lengths), name


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_one_misplaced_blank_line_is_not_called_a_reordering(refs, gold_files, tmp_path, name):
    blocks = blocks_of(gold_files[name])
    i = next(i for i in range(len(blocks) - 1) if len(blocks[i]) != len(blocks[i + 1]))
    joined = blocks[i] + blocks[i + 1]   # the blank line moved: the lengths of the two swap
    blocks[i], blocks[i + 1] = joined[:len(blocks[i + 1])], joined[len(blocks[i + 1]):]
    text = text_of(blocks)
    report = report_of(refs["dev"], name, text, tmp_path / "moved")
    assert not messages_of(report, name, "in another order")
    assert not messages_of(report, name, "fall inside a sentence")
    found = messages_of(report, name, "paired with tokens in order")
    assert len(found) == 1 and found[0]["severity"] == WARNING
    clean = report_of(refs["dev"], name, gold_files[name], tmp_path / "clean")
    same_components(report, clean, name)


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_blank_lines_that_mostly_fall_inside_sentences_are_said_and_cost_nothing(refs, gold_files, tmp_path, name):
    labels = labels_of(gold_files[name])
    chunks = [labels[i:i + 4] for i in range(0, len(labels), 4)]   # written in blocks of 4, in order
    text = text_of(chunks)
    report = report_of(refs["dev"], name, text, tmp_path / "chunks")
    inside = lines._boundaries_inside(chunks, [len(block) for block in blocks_of(gold_files[name])])
    found = messages_of(report, name, "paired with tokens in order")
    assert len(found) == 1 and found[0]["severity"] == WARNING
    if inside * 2 > len(chunks) - 1:
        assert "but %d of the file's %d blank lines between blocks fall inside a sentence of the input file" % (
            inside, len(chunks) - 1) in found[0]["text"]
    clean = report_of(refs["dev"], name, gold_files[name], tmp_path / "clean")
    same_components(report, clean, name)


def test_the_validator_exits_1_on_reversed_sentences_on_the_test_split(test_files, tmp_path):
    name = "lid_spa_eng.txt"
    status, out = validator(write_files(tmp_path / "sub", {name: reorders(test_files[name])["reversed"]}), "test")
    assert status == 1, out
    assert "but in another order (reversed: " in out
    assert "1 file will score no better than chance (%s)" % name in out


# --------------------------------------------------------------------------- label ids, BIOES, SA headers

@pytest.mark.parametrize("name", sorted(FILES))
def test_label_ids_are_named(refs, gold_files, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    ids = dict((label, str(i)) for i, label in enumerate(task.labels[pair]))
    text = "\n".join(ids[row] if row.strip() else row for row in gold_files[name].split("\n"))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    first = next(row for row in gold_files[name].split("\n") if row.strip())
    found = messages_of(report, name, "the system's label ids rather than the label names? Map each id")
    assert len(found) == 1, report["messages"]
    assert " %d of them are numbers (e.g. line 1, '%s')" % (len(labels_of(text)), ids[first]) in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(lines, "_line_shape_hint", lambda *args: "")
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert not messages_of(plain, name, "label ids")
    same_components(report, plain, name)


def bioes(text):
    """A BIO file written in BIOES: a lone B-X as S-X, the last I-X of a span as E-X."""
    rows = text.split("\n")
    out = []
    for i, row in enumerate(rows):
        after = rows[i + 1] if i + 1 < len(rows) else ""
        if row[:2] in ("B-", "I-") and after != "I-" + row[2:]:
            row = ("S-" if row[:2] == "B-" else "E-") + row[2:]
        out.append(row)
    return "\n".join(out)


@pytest.mark.parametrize("name", ENTITY_FILES)
def test_the_bioes_scheme_is_named(refs, gold_files, tmp_path, monkeypatch, name):
    text = bioes(gold_files[name])
    first = next(number for number, row in enumerate(text.split("\n"), 1) if row[:2] in ("S-", "E-"))
    count = sum(1 for row in text.split("\n") if row[:2] in ("S-", "E-"))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "the BIOES (BILOU) scheme, while this dataset's is BIO")
    assert len(found) == 1 and found[0]["where"] == "line %d" % first, report["messages"]
    assert " %d of them open with S-, E-, L- or U- (e.g. line %d, " % (count, first) in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(lines, "_line_shape_hint", lambda *args: "")
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    same_components(report, plain, name)


@pytest.mark.parametrize("name", SENTENCE_FILES)
def test_sa_labels_after_sentence_headers_are_told_so(refs, gold_files, tmp_path, name):
    labels = labels_of(gold_files[name])
    text = "".join("# sent_enum = %d\t%s\n" % (i, label) for i, label in enumerate(labels, 1))
    report = report_of(refs["dev"], name, text, tmp_path / "headers")
    found = messages_of(report, name, "a '# sent_enum' header with the label after a tab")
    assert len(found) == 1 and found[0]["severity"] == ERROR and ZERO_NOTE in found[0]["text"], report["messages"]
    assert "the file has 0 labels, the input file has %d sentences (%d lines such as line 1 are a '# sent_enum' " \
        "header" % (len(labels), len(labels)) in found[0]["text"]
    assert entry_of(report, name)["score"] == 0


def test_gold_files_get_none_of_these_messages(refs, tmp_path):
    for split in ("dev", "test"):
        report = evaluate(lince, refs[split], write_files(tmp_path / split, gold_submission(sample_gold(split))))
        for needle in ("another order", "fall inside a sentence", "label ids", "BIOES", "sent_enum' header",
                       CHANCE_NOTE, "look like predictions"):
            assert not [m for m in report["messages"] if needle in m["text"]], (split, needle)


# --------------------------------------------------------------------------- labels per subword, sentences cut short

def wrong_lengths(text, how):
    """The token file ``text`` with every block one or two labels longer, in turn (a label per subword, or padding; one
    more in every block is issue 33's label for each '# sent_enum' line, tests/test_trial5_lince.py), or the longest
    sentences cut at the length just below the longest tenth's (a maximum sequence length); and the sentences lost."""
    blocks = sentences_of(text)
    if how == "longer":
        return text_of([block + block[:1] * (1 + i % 2) for i, block in enumerate(blocks)]), list(range(len(blocks)))
    ranked = sorted(len(block) for block in blocks)
    cut = ranked[int(lines.LONGEST_SHARE * len(ranked))] - 1
    return text_of([block[:cut] for block in blocks]), [i for i, block in enumerate(blocks) if len(block) > cut]


@pytest.mark.parametrize("how", ["longer", "cut"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_what_the_sentences_of_the_wrong_length_have_in_common_is_said_once(refs, gold_files, tmp_path, monkeypatch,
                                                                            name, how):
    text, lost = wrong_lengths(gold_files[name], how)
    if len(lost) < lines.WRONG_LENGTHS_MIN:
        pytest.skip("too few long sentences in this sample file")
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "this sentence counts as wrong")
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    first = sentences_of(text)[:lost[0]]
    assert found[0]["where"] == "sentence %d (line %d of the file)" % (lost[0] + 1, sum(len(b) + 1 for b in first) + 1)
    words = ("Every one of the %d sentences counted as wrong has more labels than tokens (%d labels too many in all): "
             "labels written per subword" % (len(lost), len(lost) + len(lost) // 2) if how == "longer" else
             "Every one of the %d sentences counted as wrong has fewer labels than tokens, and they are the input "
             "file's longest" % len(lost))
    assert words in found[0]["text"] and found[0]["text"].count("Every one of") == 1
    with monkeypatch.context() as patch:
        patch.setattr(lines, "_wrong_lengths_hint", lambda *args: "")
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert "Every one of" not in messages_of(plain, name, "this sentence counts as wrong")[0]["text"]
    same_components(report, plain, name)


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_sentences_of_mixed_wrong_lengths_get_no_common_cause(refs, gold_files, tmp_path, name):
    blocks = sentences_of(gold_files[name])
    changed = [block + block[:1] if i % 2 else block[:-1] for i, block in enumerate(blocks[:6])] + blocks[6:]
    report = report_of(refs["dev"], name, text_of(changed), tmp_path / "mixed")
    assert not [m for m in report["messages"] if "Every one of the" in m["text"]]


# --------------------------------------------------------------------------- a label per sentence, a label per token

@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_one_label_per_sentence_in_a_token_file_is_told_so(refs, gold_files, tmp_path, monkeypatch, name, blank):
    blocks = sentences_of(gold_files[name])
    text = ("\n\n" if blank else "\n").join(block[0] for block in blocks) + "\n"
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    if blank:   # a block per sentence: each sentence of more than one token counts as wrong
        lost = [i for i, block in enumerate(blocks) if len(block) > 1]
        words = "Every one of the %d sentences counted as wrong has a single label: one label per sentence?" % len(lost)
        patched = "_wrong_lengths_hint"
    else:
        words = ("first misalignment: %d labels where the input file has %d tokens" % (len(blocks), len(blocks[0])),
                 "The file holds one label per sentence (%d labels for %d sentences): this dataset takes one label "
                 "per token" % (len(blocks), len(blocks)))
        patched = "_empty_label_hint"
    found = [m for m in report["messages"] if m["file"] == name and all(w in m["text"] for w in (
        words if type(words) is tuple else (words,)))]
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    assert found[0]["where"].startswith("sentence ")
    with monkeypatch.context() as patch:
        patch.setattr(lines, patched, lambda *args: "" if blank else "!")   # "!": a hint found first, this one not
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert not [m for m in plain["messages"] if "one label per sentence" in m["text"]]
    same_components(report, plain, name)


@pytest.mark.parametrize("name", SENTENCE_FILES)
def test_one_label_per_token_in_a_sentence_file_is_told_so(refs, tmp_path, name):
    task, pair = FILES[name]
    sentences = sample_gold("dev")[(task, pair)]
    text = "".join("".join(task.labels[pair][0] + "\n" for _ in rows) + "\n" for _, rows in sentences)
    tokens = sum(len(rows) for _, rows in sentences)
    report = report_of(refs["dev"], name, text, tmp_path / "tokens")
    found = messages_of(report, name, "(one label per token: the input file has %d tokens in its %d sentences; this "
                                      "dataset takes one label per sentence)" % (tokens, len(sentences)))
    assert len(found) == 1 and found[0]["severity"] == ERROR and ZERO_NOTE in found[0]["text"], report["messages"]
    assert entry_of(report, name)["score"] == 0


def test_a_text_upload_given_as_an_open_file_is_named_without_a_file_name():
    why = layout.not_a_zip_why(io.BytesIO(b"lang1\nlang2\n\n"), "the submission")
    assert why == "it is a plain text file, uploaded by itself: put it in a zip and upload the zip"
    assert layout.not_a_zip_why(io.BytesIO(bytes(range(256)) * 2)) == ""   # unknown bytes: nothing said
