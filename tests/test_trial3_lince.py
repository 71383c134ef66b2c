"""The third round of issue 24's trial on LinCE, generated over the sample's ten datasets: each mistake's message
(quoted), its position, and the score unchanged by the message (equal to the score with the check switched off,
or to that of the file without the harmless fault).

- blocks of labels that match no sentence (a sentence written twice, labels after the last sentence or before the
  first): one warning, no longer an internal error (exit 3) or an error while nothing is lost (exit 1);
- lines ended by a carriage return alone (classic Mac OS): read as lines, one warning;
- the shape of the lines of labels outside the set is named (JSON, a sentence per line, words beside a label)
  instead of only a misalignment;
- a constant file (one label on every line) is one warning; an entity file that opens no span is an error that
  says it scores 0, and the validator exits 1 on it on the test split too;
- full-width labels get their did-you-mean.
"""
import json
import os
import subprocess
import sys
import zipfile

import pytest

from evalkit import floor, lines, policy, verdict
from evalkit.messages import ERROR, WARNING, ZERO_NOTE
from evalkit.scoring import evaluate
from lince_helpers import KIT, SAMPLE, build_sample_reference, gold_submission, lince, sample_gold, write_files

VALIDATE = os.path.join(KIT, "validate.py")
FILES = dict((lince.SUBMISSION_FILE.format(task=task.key, lang=pair), (task, pair)) for task, pair in lince.DATASETS)
TOKEN_FILES = sorted(name for name, (task, _) in FILES.items() if task.kind == "token_labels")
ENTITY_FILES = sorted(name for name, (task, _) in FILES.items() if task.metric == "span_f1")
PLAIN_FILES = sorted(name for name, (task, _) in FILES.items() if task.metric != "span_f1")


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    out = tmp_path_factory.mktemp("lince_r3_ref")
    build_sample_reference(out)
    for split, gold in (("dev", "public"), ("test", "hidden")):   # as make and the bundles stamp each phase
        with open(os.path.join(str(out), split, "phase.json"), "w") as handle:
            json.dump({"phase": split, "gold": gold}, handle)
    return dict((split, os.path.join(str(out), split)) for split in ("dev", "test"))


@pytest.fixture(scope="module")
def gold_files():
    return gold_submission(sample_gold("dev"))


def report_of(ref, name, text, folder):
    """The scorer's report of a submission holding the one file ``name``."""
    return evaluate(lince, ref, write_files(folder, {name: text}))


def entry_of(report, name):
    return next(e for e in report["entries"] if e["file"] == name)


def messages_of(report, name, needle):
    return [m for m in report["messages"] if m["file"] == name and needle in m["text"]]


def validator(submission, split="dev"):
    """The starting kit's validator in its own process, as a participant runs it: (exit status, output)."""
    proc = subprocess.run([sys.executable, VALIDATE, submission, "--data", SAMPLE, "--split", split],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


def sentences_of(text):
    """The blocks of a token file's text, each a list of label lines."""
    return [block.split("\n") for block in text.strip("\n").split("\n\n")]


def text_of(blocks):
    return "".join("\n".join(block) + "\n\n" for block in blocks)


# --------------------------------------------------------------------------- blocks that match no sentence

def with_extra_block(text, where):
    """``text`` with one block of labels that matches no sentence, the line where that block starts and its size."""
    blocks = sentences_of(text)
    if where == "end":
        extra, at = [blocks[-1][0]] * 2, len(blocks)
    elif where == "start":
        extra, at = [blocks[0][0]] * (len(blocks[0]) + 1), 0
    else:   # a sentence written twice, where its neighbour has another length
        at = next(i for i in range(1, len(blocks) - 1) if len(blocks[i]) != len(blocks[i + 1])) + 1
        extra = list(blocks[at - 1])
    new = blocks[:at] + [extra] + blocks[at:]
    return text_of(new), sum(len(block) + 1 for block in new[:at]) + 1, len(extra)


@pytest.mark.parametrize("where", ["end", "middle", "start"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_block_that_matches_no_sentence_is_one_warning_and_costs_nothing(refs, gold_files, tmp_path, name, where):
    text, line, size = with_extra_block(gold_files[name], where)
    report = report_of(refs["dev"], name, text, tmp_path / "extra")
    found = messages_of(report, name, "match")
    assert len(found) == 1, report["messages"]
    assert found[0]["severity"] == WARNING and found[0]["where"] == "line %d" % line
    assert "1 block of labels (%d labels, from line %d, " % (size, line) in found[0]["text"]
    assert "matches no sentence of the input file" in found[0]["text"]
    assert "every sentence of the input file was aligned and scored" in found[0]["text"]
    assert not [m for m in report["messages"] if m["file"] == name and m["severity"] == ERROR]
    clean = report_of(refs["dev"], name, gold_files[name], tmp_path / "clean")
    assert entry_of(report, name)["components"] == entry_of(clean, name)["components"]
    assert entry_of(report, name)["scored_sentences"] == entry_of(clean, name)["scored_sentences"]


def test_labels_after_the_last_sentence_no_longer_stop_the_validator(gold_files, tmp_path):
    name = TOKEN_FILES[0]
    text, line, _ = with_extra_block(gold_files[name], "end")
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert status == 0, out
    assert "Internal error" not in out
    assert "warning: %s, line %d: 1 block of labels" % (name, line) in out
    assert "0 errors, 2 warnings, 0 files will score 0" in out   # this one, and the line of the files not submitted


# --------------------------------------------------------------------------- lines ended by CR alone

@pytest.mark.parametrize("name", sorted(FILES))
def test_lines_ended_by_cr_alone_are_read_with_one_warning(refs, gold_files, tmp_path, name):
    report = report_of(refs["dev"], name, gold_files[name].replace("\n", "\r"), tmp_path / "cr")
    found = messages_of(report, name, "carriage return alone")
    assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "line 1", report["messages"]
    assert "read as line ends, nothing lost" in found[0]["text"]
    clean = report_of(refs["dev"], name, gold_files[name], tmp_path / "lf")
    assert entry_of(report, name)["components"] == entry_of(clean, name)["components"]
    assert [m for m in report["messages"] if m["file"] == name] == found


# --------------------------------------------------------------------------- the shape of the lines

def shapes(text, task):
    """``(shape, corrupted text, the words the message must hold)`` of one file."""
    blocks = sentences_of(text) if task.kind == "token_labels" else [[row] for row in text.split()]
    if task.kind == "token_labels":
        for sep in (" ", ",", ";", ", "):
            yield ("sentence per line %r" % sep, "\n".join(sep.join(block) for block in blocks) + "\n",
                   "lines hold several labels of the set")
    yield "json", json.dumps(blocks), "The file looks like JSON (line 1 starts with '['): write plain text"
    yield ("token before the label", text_of([["tok%d %s" % (i, label) for i, label in enumerate(block)]
                                               for block in blocks]),
           "other words beside a label (e.g. line 1, 'tok0 ")
    yield ("probability after the label", text_of([["%s 0.93" % label for label in block] for block in blocks]),
           "other words beside a label (e.g. line 1, '")


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_shape_of_the_lines_is_named_and_changes_no_score(refs, gold_files, tmp_path, monkeypatch, name):
    task, _ = FILES[name]
    for number, (shape, text, words) in enumerate(shapes(gold_files[name], task)):
        report = report_of(refs["dev"], name, text, tmp_path / ("on%d" % number))
        found = messages_of(report, name, words)
        assert len(found) == 1, (shape, report["messages"])
        # said with the labels outside the set (their first line), or with a count that differs (the whole file)
        assert "never match" in found[0]["text"] and found[0]["where"].startswith("line ") \
            or "give exactly one label per line" in found[0]["text"] and ZERO_NOTE in found[0]["text"]
        with monkeypatch.context() as patch:
            patch.setattr(lines, "_line_shape_hint", lambda *args: "")
            plain = report_of(refs["dev"], name, text, tmp_path / ("off%d" % number))
        assert not messages_of(plain, name, words)
        assert entry_of(report, name)["components"] == entry_of(plain, name)["components"], shape


# --------------------------------------------------------------------------- degenerate files

@pytest.mark.parametrize("name", PLAIN_FILES)
def test_a_constant_file_is_one_warning_and_changes_no_score(refs, gold_files, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    gold = gold_files[name]
    for label in (task.labels[pair][0], task.labels[pair][-1]):
        text = "\n".join(label if row.strip() else row for row in gold.split("\n"))
        report = report_of(refs["dev"], name, text, tmp_path / label)
        found = messages_of(report, name, "a constant prediction")
        count = sum(1 for row in gold.split("\n") if row.strip())
        assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "line 1"
        assert "every one of the %d labels is '%s'" % (count, label) in found[0]["text"]
        with monkeypatch.context() as patch:
            patch.setattr(lines, "check_degenerate", lambda *args: None)
            plain = report_of(refs["dev"], name, text, tmp_path / ("off" + label))
        assert not messages_of(plain, name, "a constant prediction")
        assert entry_of(report, name)["components"] == entry_of(plain, name)["components"]


@pytest.mark.parametrize("typed", [False, True])
@pytest.mark.parametrize("name", ENTITY_FILES)
def test_an_entity_file_that_opens_no_span_is_an_error_that_says_it_scores_0(refs, gold_files, tmp_path, monkeypatch,
                                                                             name, typed):
    # every label O, or the entity types written without their B-/I- (outside the set: said apart)
    text = "\n".join((row[2:] if typed and row[:2] in ("B-", "I-") else "O") if row.strip() else row
                     for row in gold_files[name].split("\n"))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "not one entity is predicted")
    assert len(found) == 1 and found[0]["severity"] == ERROR and ZERO_NOTE in found[0]["text"], report["messages"]
    assert found[0]["where"] == "line 1"
    assert ("outside the label set, reported apart, never open one" in found[0]["text"]) == typed
    assert name in verdict.zero_files(report)
    with monkeypatch.context() as patch:
        patch.setattr(lines, "check_degenerate", lambda *args: None)
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert entry_of(report, name)["score"] == entry_of(plain, name)["score"] == 0


def test_the_validator_exits_1_on_an_entity_file_without_a_span_on_the_test_split(tmp_path):
    test_gold = gold_submission(sample_gold("test"))
    name = ENTITY_FILES[0]
    text = "\n".join("O" if row.strip() else row for row in test_gold[name].split("\n"))
    status, out = validator(write_files(tmp_path / "sub", {name: text}), "test")
    assert status == 1, out
    assert "error: %s, line 1: not one entity is predicted" % name in out
    assert "1 file will score 0 (%s)" % name in out


@pytest.mark.parametrize("split", ["dev", "test"])
def test_gold_files_get_none_of_these_messages(refs, tmp_path, split):
    files = gold_submission(sample_gold(split))
    report = evaluate(lince, refs[split], write_files(tmp_path / split, files))
    for needle in ("constant prediction", "not one entity", "carriage return", "match no sentence",
                   "matches no sentence"):
        assert not [m for m in report["messages"] if needle in m["text"]], needle


# --------------------------------------------------------------------------- full-width labels

@pytest.mark.parametrize("name", PLAIN_FILES)
def test_full_width_labels_get_their_did_you_mean(refs, gold_files, tmp_path, name):
    task, pair = FILES[name]
    wide = dict((label, "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in label))
                for label in task.labels[pair])
    text = "\n".join(wide[row] if row.strip() else row for row in gold_files[name].split("\n"))
    report = report_of(refs["dev"], name, text, tmp_path / "wide")
    found = messages_of(report, name, "never match")
    assert len(found) == 1
    first = next(row for row in gold_files[name].split("\n") if row.strip())
    assert "%r" % wide[first] in found[0]["text"] and "did you mean %r?" % first in found[0]["text"]


# --------------------------------------------------------------------------- the input's tokens as labels

@pytest.mark.parametrize("form", ["tokens", "label<TAB>token"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_file_of_the_inputs_tokens_is_told_so_and_changes_no_score(refs, gold_files, tmp_path, monkeypatch, name,
                                                                     form):
    task, pair = FILES[name]
    sentences = sample_gold("dev")[(task, pair)]
    rows = [(row[0], row[-1]) for _, block in sentences for row in block]
    tokens = iter(rows)
    text = "\n".join((lambda token, label: token if form == "tokens" else "%s\t%s" % (label, token))(*next(tokens))
                     if row.strip() else row for row in gold_files[name].split("\n"))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "never match")
    assert len(found) == 1, report["messages"]
    first = next(i for i, (token, _) in enumerate(rows) if token not in task.labels[pair])
    line = [number for number, row in enumerate(gold_files[name].split("\n"), 1) if row.strip()][first]
    assert "of them are the input file's own tokens at their lines (e.g. line %d, " % line in found[0]["text"]
    assert "the file holds the tokens, not their labels" in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(lines, "_tokens_hint", lambda *args: "")
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert "own tokens" not in messages_of(plain, name, "never match")[0]["text"]
    assert entry_of(report, name)["components"] == entry_of(plain, name)["components"]


def test_a_message_about_the_submission_is_printed_without_an_empty_file_name(gold_files, tmp_path):
    name = TOKEN_FILES[0]
    status, out = validator(write_files(tmp_path / "sub", {name: gold_files[name]}))
    assert status == 0, out
    assert "warning: submission: %d of %d expected files not submitted" % (len(FILES) - 1, len(FILES)) in out
    assert "warning: , " not in out


# --------------------------------------------------------------------------- the kit's scripts on a wrong --data

MAKE = os.path.join(KIT, "make_submission.py")


def run_kit(script, *args):
    proc = subprocess.run([sys.executable, script] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("split", ["dev", "test"])
def test_make_submission_without_the_split_files_writes_no_zip_and_exits_2(tmp_path, split):
    # the README: before the test files are unzipped into data/, make_submission says so, exit status 2
    data = tmp_path / "data"
    for task, pair in lince.DATASETS:
        ident = lince.dataset_id(task, pair)
        write_files(data / ident, {"train.conll": open(os.path.join(SAMPLE, ident, "train.conll")).read()})
    out = tmp_path / "sub" / "baseline.zip"
    status, text = run_kit(MAKE, "--data", str(data), "--split", split, "--out", str(out))
    assert status == 2, text
    assert not out.exists()
    assert "No train.conll or %s.conll file of any LinCE dataset under %s" % (split, data) in text
    assert "wrote" not in text


def test_make_submission_creates_the_folder_of_its_zip(tmp_path):
    out = tmp_path / "new" / "folder" / "baseline.zip"
    status, text = run_kit(MAKE, "--data", SAMPLE, "--split", "dev", "--out", str(out))
    assert status == 0 and out.exists(), text
    assert "Traceback" not in text


@pytest.mark.parametrize("script", ["validate", "make_submission"])
def test_a_zip_given_as_data_is_told_to_be_unzipped(tmp_path, script):
    data = str(tmp_path / "lince-test.zip")
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("lid_spaeng/test.conll", "hola\n\n")
    args = ([os.path.join(KIT, "validate.py"), str(tmp_path / "sub.zip")] if script == "validate" else
            [MAKE, "--out", str(tmp_path / "sub.zip")]) + ["--data", data, "--split", "test"]
    status, text = run_kit(*args)
    assert status == 2, text
    assert "%s is a file, not a folder (a zip): unzip it into a folder (e.g. unzip %s -d data)" % (data, data) in text


# --------------------------------------------------------------------------- two labels swapped, above the floor

def two_most_frequent(text):
    """The two most frequent labels of ``text`` and whether swapping them is within the check's reach: each
    frequent enough, and chance alone would predict each right often enough (floor.SWAP_MIN_CHANCE)."""
    counts = {}
    for row in text.split("\n"):
        if row.strip():
            counts[row] = counts.get(row, 0) + 1
    (a, na), (b, nb) = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:2]
    total = sum(counts.values())
    return a, b, min(na, nb) >= max(floor.SWAP_MIN_GOLD, floor.SWAP_MIN_SHARE * total) \
        and float(na) * nb / total >= floor.SWAP_MIN_CHANCE


SWAPPABLE = [name for name in sorted(FILES) if two_most_frequent(gold_submission(sample_gold("dev"))[name])[2]]


def test_the_swap_check_is_tried_on_most_datasets():
    assert len(SWAPPABLE) >= 5, SWAPPABLE


@pytest.mark.parametrize("name", SWAPPABLE)
def test_two_labels_swapped_throughout_are_named_and_change_no_score(refs, gold_files, tmp_path, monkeypatch, name):
    a, b, _ = two_most_frequent(gold_files[name])
    swap = {a: b, b: a}
    text = "\n".join(swap.get(row, row) for row in gold_files[name].split("\n"))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "labels that look swapped throughout")
    assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "whole file", report
    assert "'%s' and '%s' (of " % (a, b) in found[0]["text"] or "'%s' and '%s' (of " % (b, a) in found[0]["text"]
    assert "Check how the system's label ids map to the label names" in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(floor, "swapped_labels", lambda *args: [])
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert not messages_of(plain, name, "look swapped")
    assert entry_of(report, name)["components"] == entry_of(plain, name)["components"]
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert "warning: %s, whole file: labels that look swapped throughout: " % name in out, out


@pytest.mark.parametrize("name", SWAPPABLE)
def test_a_misordered_constant_or_right_file_is_not_called_swapped(refs, gold_files, tmp_path, name):
    task, pair = FILES[name]
    gold = gold_files[name]
    blocks = sentences_of(gold) if task.kind == "token_labels" else [[row] for row in gold.split()]
    candidates = {"gold": gold, "reversed": text_of(blocks[::-1]) if task.kind == "token_labels"
                  else "\n".join(row for block in blocks[::-1] for row in block) + "\n",
                  "constant": "\n".join(task.labels[pair][0] if row.strip() else row for row in gold.split("\n"))}
    for what, text in candidates.items():
        report = report_of(refs["dev"], name, text, tmp_path / what)
        assert not messages_of(report, name, "look swapped"), what


def test_the_swap_check_never_runs_where_the_gold_is_hidden(refs, tmp_path):
    test_gold = gold_submission(sample_gold("test"))
    name = SWAPPABLE[0]
    a, b, _ = two_most_frequent(test_gold[name])
    text = "\n".join({a: b, b: a}.get(row, row) for row in test_gold[name].split("\n"))
    report = report_of(refs["test"], name, text, tmp_path / "test")
    assert not [m for m in report["messages"] if "look swapped" in m["text"]]


# --------------------------------------------------------------------------- labels shifted by a line

def shifted_text(text, direction, filler):
    """The gold ``text`` with each sentence's labels one line later (a start symbol's label first, the last token's
    dropped) or earlier (the first token's dropped, ``filler`` last); and the share of labels right as written."""
    blocks = sentences_of(text)
    moved = [[filler] + block[:-1] if direction == "later" else block[1:] + [filler] for block in blocks]
    right = sum(1 for block, new in zip(blocks, moved) for g, p in zip(block, new) if g == p)
    return text_of(moved), float(right) / sum(len(block) for block in blocks)


@pytest.mark.parametrize("direction", ["later", "earlier"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_labels_shifted_by_a_line_are_named_and_change_no_score(refs, gold_files, tmp_path, monkeypatch, name,
                                                                direction):
    task, pair = FILES[name]
    text, right = shifted_text(gold_files[name], direction, task.labels[pair][0])
    if right > 1 - lines.SHIFT_GAIN - 0.05:   # neighbours agree so often that a shift costs little: not said
        pytest.skip("a shift costs %.2f of this sample file" % (1 - right))
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "the labels look shifted by one line within each sentence")
    assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "whole file", report
    back = "earlier" if direction == "later" else "later"
    assert "read one line %s, " % back in found[0]["text"]
    assert "against %.1f%% as written" % (100 * right) in found[0]["text"]
    with monkeypatch.context() as patch:
        patch.setattr(floor, "shifted_labels", lambda *args: [])
        plain = report_of(refs["dev"], name, text, tmp_path / "off")
    assert not messages_of(plain, name, "look shifted")
    assert entry_of(report, name)["components"] == entry_of(plain, name)["components"]


def test_the_shift_check_is_tried_on_most_token_files(gold_files):
    tried = [name for name in TOKEN_FILES
             if shifted_text(gold_files[name], "later", "O")[1] <= 1 - lines.SHIFT_GAIN - 0.05]
    assert len(tried) >= 6, tried


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_right_misordered_or_constant_file_is_not_called_shifted(refs, gold_files, tmp_path, name):
    task, pair = FILES[name]
    gold = gold_files[name]
    for what, text in (("gold", gold), ("reversed", text_of(sentences_of(gold)[::-1])),
                       ("constant", "\n".join(task.labels[pair][0] if row.strip() else row for row in gold.split("\n")))):
        report = report_of(refs["dev"], name, text, tmp_path / what)
        assert not messages_of(report, name, "look shifted"), what


def test_the_shift_check_never_runs_where_the_gold_is_hidden(refs, tmp_path):
    name = TOKEN_FILES[0]
    task, pair = FILES[name]
    text, _ = shifted_text(gold_submission(sample_gold("test"))[name], "later", task.labels[pair][0])
    report = report_of(refs["test"], name, text, tmp_path / "test")
    assert not [m for m in report["messages"] if "look shifted" in m["text"]]
    shown = policy.apply(report, policy.read(refs["test"]))   # what a hidden phase's report keeps: no details
    assert "shifted" not in json.dumps(entry_of(shown, name))
