"""Issue 33 (the fifth round of the hidden trial) on LinCE, generated over the sample's datasets and over random
sentences: each mistake's message (quoted), its position, and the score unchanged by the message (equal to the score
with the check switched off). Files as real tools write them:

3. what table writers add: pandas' ``to_csv`` defaults (a header row, an index column), a spreadsheet's CSV (commas,
   semicolons, quotes), a printed table, the blank lines written as rows, a table per sentence, a table read back and
   written again; a label for each ``# sent_enum`` line, a label on each blank line, missing values written as text;
4. an NER file with ``B-`` on every token of an entity, where the development gold has entities of several tokens;
7. renamings of the label set that a map mends (ISO codes, language names, letter case, BIOES, sentiment values, two
   labels swapped), priced against the development gold, with ``LOSS_NOTE`` (validator exit 1) when most is lost;
8. the kit's README on the test phase (a public part scored, the private rest re-scored for the final ranking).

The tests on the real release (``../shared/lince``) are at the end; they skip without it.
"""
import csv
import io
import json
import os
import random
import zipfile

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from seqeval.metrics.sequence_labeling import get_entities

from evalkit import floor, lines, verdict
from evalkit.messages import CHANCE_NOTE, ERROR, LOSS_NOTE, WARNING, quoted
from evalkit.scoring import evaluate
from lince_helpers import KIT, LINCE_DIR, LINCE_SHARED, baseline_table, lince, lince_data, reference, sample_gold, \
    write_files
from test_trial3_lince import entry_of, gold_files, messages_of, refs, report_of, text_of, \
    validator  # noqa: F401 (the fixtures gold_files and refs)

FILES = dict((lince.SUBMISSION_FILE.format(task=task.key, lang=pair), (task, pair)) for task, pair in lince.DATASETS)
TOKEN_FILES = sorted(name for name, (task, _) in FILES.items() if task.kind == "token_labels")
ENTITY_FILES = sorted(name for name, (task, _) in FILES.items() if task.metric == "span_f1")
SENTENCE_FILES = sorted(name for name, (task, _) in FILES.items() if task.kind == "sentence_labels")
LID_FILES = sorted(name for name, (task, _) in FILES.items() if task.key == "lid")
SETTINGS = dict(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])
TABLE = "the file looks written by a table writer"
FIX = "df.to_csv(path, sep='\\t', index=False, header=False"


def same_scores_without(monkeypatch, owner, attribute, replacement, ref, name, text, folder, report):
    """The file ``name`` scored with ``owner.attribute`` replaced by ``replacement`` (the check switched off) has the
    components of ``report``: the message changes no number. Returns the quiet report."""
    with monkeypatch.context() as patch:
        patch.setattr(owner, attribute, replacement)
        quiet = report_of(ref, name, text, folder)
    assert entry_of(quiet, name)["components"] == entry_of(report, name)["components"]
    return quiet


def labels_and_tokens(name, split="dev"):
    """The gold labels (per sentence) and the tokens (per sentence) of a sample file; SA: one label per post."""
    task, pair = FILES[name]
    sentences = sample_gold(split)[(task, pair)]
    if task.kind == "sentence_labels":
        return [[header[-1].strip()] for header, _ in sentences], [[" ".join(row[0] for row in rows)]
                                                                    for _, rows in sentences]
    return [[row[-1] for row in rows] for _, rows in sentences], [[row[0] for row in rows] for _, rows in sentences]


# --------------------------------------------------------------------------- 3. what table writers add

def _rows(blocks, sentence_level):
    """The rows of a table of labels: a sentence's labels, then "" for the blank line after it (none per post)."""
    return [label for block in blocks for label in block + ([] if sentence_level else [""])]


def _quoted_csv(blocks, sentence_level):
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for block in blocks:
        for label in block:
            writer.writerow([label])
        if not sentence_level:
            out.write("\n")
    return out.getvalue()


def _per_sentence(blocks, sentence_level):
    out = io.StringIO()
    for block in blocks:
        pd.DataFrame({"label": block}).to_csv(out, sep="\t")
        out.write("\n")
    return out.getvalue()


def _round_trip(blocks, sentence_level):
    first = pd.DataFrame({"label": _rows(blocks, sentence_level)}).to_csv(sep="\t")
    return pd.read_csv(io.StringIO(first), sep="\t", keep_default_na=False).to_csv(sep="\t")


#: How a participant writes the labels with a table writer: ``(writer(blocks, tokens, sentence level), the habits its
#: message names)``. Habits: header, index, two indexes, comma, semicolon, spaces, empty rows, quoted, per sentence.
WRITERS = {
    "to_csv(sep='\\t')": (lambda b, t, s: pd.DataFrame({"label": _rows(b, s)}).to_csv(sep="\t"),
                          {"header", "index", "empty"}),
    "to_csv()": (lambda b, t, s: pd.DataFrame({"label": _rows(b, s)}).to_csv(), {"header", "index", "comma", "empty"}),
    "to_csv(sep='\\t') of the labels alone": (
        lambda b, t, s: pd.DataFrame({"label": [x for block in b for x in block]}).to_csv(sep="\t"),
        {"header", "index"}),
    "to_csv(sep='\\t', index=False)": (
        lambda b, t, s: pd.DataFrame({"label": _rows(b, s)}).to_csv(sep="\t", index=False), {"header", "empty"}),
    "to_csv(sep='\\t', header=False)": (
        lambda b, t, s: pd.DataFrame({"label": _rows(b, s)}).to_csv(sep="\t", header=False), {"index", "empty"}),
    "to_csv(index=False) with the tokens": (
        lambda b, t, s: pd.DataFrame({"token": _rows(t, s), "label": _rows(b, s)}).to_csv(index=False),
        {"header", "comma", "empty"}),
    "to_csv(sep=';', index=False) with the tokens": (
        lambda b, t, s: pd.DataFrame({"token": _rows(t, s), "label": _rows(b, s)}).to_csv(sep=";", index=False),
        {"header", "semicolon", "empty"}),
    "a table per sentence": (lambda b, t, s: _per_sentence(b, s), {"header", "index", "per sentence"}),
    "read back and written again": (lambda b, t, s: _round_trip(b, s), {"header", "two indexes", "empty"}),
    "csv.QUOTE_ALL": (lambda b, t, s: _quoted_csv(b, s), {"quoted"}),
    "to_string()": (lambda b, t, s: pd.DataFrame({"label": _rows(b, s)}).to_string() + "\n",
                    {"header", "index", "spaces", "empty"}),
}
#: What a file of one label per post can show (no blank line between posts, so no empty row; an index column alone,
#: tab-separated, is harmless there: the label after the last tab is read, one per post).
SENTENCE_WRITERS = ["to_csv(sep='\\t')", "to_csv()", "to_csv(sep='\\t', index=False)", "csv.QUOTE_ALL", "to_string()"]


def expected_phrases(text, habits, blocks, sentence_level):
    """The phrases the table message must hold for ``text`` written with ``habits``."""
    rows = text.split("\n")
    phrases = ["labels alone, one per line%s: %s" % ("" if sentence_level else ", a blank line after each sentence",
                                                      FIX)]
    if "header" in habits:
        phrases.append("a header row (line 1: %s" % quoted(rows[0], 60))
    if "per sentence" in habits:
        phrases.append("and at the start of %d blocks in all: each sentence written as a table of its own" % len(blocks))
    if "index" in habits:
        first = 2 if "header" in habits else 1
        phrases.append("an index column (each line starts with its row number: line %d, " % first)
    if "two indexes" in habits:
        phrases.append("two index columns (a table read back with read_csv keeps its old index as a column, "
                       "'Unnamed: 0'")
    for habit, words in (("comma", "separated by commas"), ("semicolon", "separated by semicolons"),
                         ("spaces", "aligned with spaces, as DataFrame.to_string or print(df) writes them")):
        if habit in habits:
            phrases.append("columns %s (a label is read after a line's last tab" % words)
    if "empty" in habits and not sentence_level:   # posts have no blank line between them
        count = len(blocks)
        phrases.append("the blank line after each sentence written as a row (%s line%s such as line " % (
            "{:,}".format(count), "" if count == 1 else "s"))
    if "quoted" in habits:
        count = sum(len(block) for block in blocks)
        phrases.append("labels in double quotes (%s line%s such as line 1, " % ("{:,}".format(count),
                                                                                "" if count == 1 else "s"))
        phrases.append("quoting=csv.QUOTE_NONE")
    return phrases


def check_table_message(report, name, text, habits, blocks, sentence_level):
    """One table message, an error at line 1 naming every habit with the fix; no wrong cause named beside it."""
    found = messages_of(report, name, TABLE)
    assert len(found) == 1 and found[0]["severity"] == ERROR and found[0]["where"] == "line 1", report["messages"]
    for phrase in expected_phrases(text, habits, blocks, sentence_level):
        assert phrase in found[0]["text"], (phrase, found[0]["text"])
    for wrong in ("label ids", "per subword", "# sent_enum = N", "A label written on each blank line"):
        assert not messages_of(report, name, wrong), (wrong, report["messages"])


@pytest.mark.parametrize("name,writer", [(name, writer) for name in TOKEN_FILES for writer in sorted(WRITERS)] +
                         [(name, writer) for name in SENTENCE_FILES for writer in SENTENCE_WRITERS])
def test_what_a_table_writer_adds_is_named_with_its_fix(refs, tmp_path, monkeypatch, name, writer):
    task, _ = FILES[name]
    sentence_level = task.kind == "sentence_labels"
    blocks, tokens = labels_and_tokens(name)
    write, habits = WRITERS[writer]
    text = write(blocks, tokens, sentence_level)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    check_table_message(report, name, text, habits, blocks, sentence_level)
    quiet = same_scores_without(monkeypatch, lines, "_table_said", lambda *args: None, refs["dev"], name, text,
                                tmp_path / "off", report)
    assert not messages_of(quiet, name, TABLE)
    on_test = report_of(refs["test"], name, write(*labels_and_tokens(name, "test"), sentence_level), tmp_path / "t")
    assert len(messages_of(on_test, name, TABLE)) == 1   # no gold needed: the test split gets it too


@settings(**SETTINGS)
@given(sentences=st.lists(st.lists(st.sampled_from(lince.TASKS[0].labels["spa_eng"]), min_size=1, max_size=9),
                          min_size=4, max_size=30),
       writer=st.sampled_from(sorted(WRITERS)))
def test_any_labels_written_by_a_table_writer_get_the_message(tmp_path_factory, monkeypatch, sentences, writer):
    """Random LID sentences (tokens ``w1``, ``w2``, ...), their gold written by one of :data:`WRITERS`."""
    root = tmp_path_factory.mktemp("table")
    task, pair = FILES["lid_spa_eng.txt"]
    rows = [[["w%d" % (i + 1), label] for i, label in enumerate(sentence)] for sentence in sentences]
    ref = write_files(root / "ref", {lince.REFERENCE_FILE.format(task="lid", lang=pair): lince_data.reference_text(
        [(None, sentence) for sentence in rows], task, pair, True)})
    write, habits = WRITERS[writer]
    text = write(sentences, [[token for token, _ in sentence] for sentence in rows], False)
    report = report_of(ref, "lid_spa_eng.txt", text, root / "on")
    check_table_message(report, "lid_spa_eng.txt", text, habits, sentences, False)
    same_scores_without(monkeypatch, lines, "_table_said", lambda *args: None, ref, "lid_spa_eng.txt", text,
                        root / "off", report)


@pytest.mark.parametrize("name,how", [(name, how) for name in TOKEN_FILES + SENTENCE_FILES
                                      for how in ("a tab after each label", "Excel: CRLF line ends and a BOM")] +
                         [(name, "an index column") for name in SENTENCE_FILES])
def test_what_is_harmless_costs_nothing_and_is_not_called_a_table(refs, gold_files, tmp_path, name, how):
    """A tab after each label, Excel's CRLF and BOM: read as meant. One label per post with an index column before a
    tab: the label after the last tab is read (a token file's blank lines would be rows, said above)."""
    text = gold_files[name]
    if how == "an index column":
        text = pd.DataFrame({"label": labels_of_text(text)}).to_csv(sep="\t", header=False)
    elif how.startswith("a tab"):
        text = "\n".join(row + "\t" if row else row for row in text.split("\n"))
    else:
        text = "\ufeff" + text.replace("\n", "\r\n")
    report = report_of(refs["dev"], name, text, tmp_path / "harmless")
    assert not [m for m in report["messages"] if m["file"] == name], report["messages"]
    assert entry_of(report, name)["score"] == 1.0


def labels_of_text(text):
    return [row for row in text.split("\n") if row.strip()]


def test_the_validator_exits_1_on_a_table_on_both_splits_and_names_it_first(tmp_path):
    name = "lid_spa_eng.txt"
    for split in ("dev", "test"):
        blocks, _ = labels_and_tokens(name, split)
        text = pd.DataFrame({"label": _rows(blocks, False)}).to_csv(sep="\t")
        status, out = validator(write_files(tmp_path / split, {name: text}), split)
        assert status == 1, out
        first = next(line for line in out.split("\n") if line.startswith(("error", "warning")))
        assert first.startswith("error: %s, line 1: %s (pandas' DataFrame.to_csv" % (name, TABLE)), out
        assert "1 file will score 0 (%s)" % name in out


# --------------------------------------------------------------------------- 3. a label per '# sent_enum' line, blank line

@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_label_for_each_sent_enum_line_is_named_not_called_subwords(refs, tmp_path, monkeypatch, name, split):
    task, pair = FILES[name]
    blocks, _ = labels_and_tokens(name, split)
    text = text_of([[task.labels[pair][0]] + block for block in blocks])   # the model's label for "# sent_enum = N"
    report = report_of(refs[split], name, text, tmp_path / "on")
    found = messages_of(report, name, "this sentence counts as wrong")
    assert len(found) == 1 and found[0]["severity"] == ERROR, report["messages"]
    assert found[0]["where"] == "sentence 1 (line 1 of the file)"
    assert (". Every one of the %d sentences counted as wrong has exactly one label more than its tokens: a label "
            "written for the '# sent_enum = N' line that opens each sentence of the input file (it is no token: skip "
            "the lines that start with '# sent_enum')" % len(blocks)) in found[0]["text"]
    assert "subword" not in found[0]["text"]
    same_scores_without(monkeypatch, lines, "_wrong_lengths_hint", lambda *args: "", refs[split], name, text,
                        tmp_path / "off", report)


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_labels_of_varying_excess_are_still_called_subwords(refs, tmp_path, name):
    blocks, _ = labels_and_tokens(name)
    text = text_of([block + block[:1] * (1 + i % 3) for i, block in enumerate(blocks)])
    report = report_of(refs["dev"], name, text, tmp_path / "subwords")
    found = messages_of(report, name, "labels written per subword (word piece) rather than per token")
    assert len(found) == 1 and "sent_enum" not in found[0]["text"]


@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_label_on_each_blank_line_is_named(refs, tmp_path, monkeypatch, name):
    task, pair = FILES[name]
    blocks, _ = labels_and_tokens(name)
    text = "".join("\n".join(block) + "\n" + task.labels[pair][-1] + "\n" for block in blocks)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    found = messages_of(report, name, "first misalignment")
    tokens = sum(map(len, blocks))
    assert len(found) == 1 and found[0]["where"] == "sentence 1 (line 1 of the file)", report["messages"]
    assert ". The file has no blank line between sentences and %s labels: as many as the input file has tokens (%s) " \
        "and blank lines after its sentences (%d). A label written on each blank line? Leave the line after each " \
        "sentence blank" % ("{:,}".format(tokens + len(blocks)), "{:,}".format(tokens), len(blocks)) \
        in found[0]["text"]
    same_scores_without(monkeypatch, lines, "_blank_line_labels_hint", lambda *args: "", refs["dev"], name, text,
                        tmp_path / "off", report)


@pytest.mark.parametrize("missing", ["nan", "None", "NaN"])
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_a_missing_value_written_as_text_is_named(refs, gold_files, tmp_path, name, missing):
    rows = gold_files[name].split("\n")
    changed = [i for i, row in enumerate(rows) if row and i % 5 == 2]
    for i in changed:
        rows[i] = missing
    report = report_of(refs["dev"], name, "\n".join(rows), tmp_path / "missing")
    found = messages_of(report, name, "%s %s (line%s %d" % (
        quoted(missing), "once" if len(changed) == 1 else "%d times" % len(changed), "" if len(changed) == 1 else "s",
        changed[0] + 1))
    assert len(found) == 1, report["messages"]
    assert "a missing value written as text (pandas' NaN, Python's None): a token left without a prediction?" \
        in found[0]["text"]


# --------------------------------------------------------------------------- 3 (and 6's neighbour). a sort's order

SORTS = {"numbers read as text": ("in the order of their numbers read as text (1, 10, 100, 2, ...",
                                  lambda i, texts: str(i + 1)),
         "text": ("sorted alphabetically by their text (a groupby or a sort on the sentences, which sorts them; "
                  "groupby(..., sort=False) keeps the input's order)", lambda i, texts: texts[i])}


@pytest.mark.parametrize("sort", sorted(SORTS))
@pytest.mark.parametrize("name", TOKEN_FILES)
def test_sentences_in_the_order_of_a_sort_are_named(refs, tmp_path, monkeypatch, name, sort):
    """A table grouped by its sentence id or text (pandas' groupby sorts its keys) writes the sentences sorted."""
    blocks, tokens = labels_and_tokens(name)
    words, key = SORTS[sort]
    texts = [" ".join(sentence) for sentence in tokens]
    order = sorted(range(len(blocks)), key=lambda i: key(i, texts))
    moved = [blocks[i] for i in order]
    found, lengths = [len(b) for b in moved], [len(b) for b in blocks]
    wrong = sum(1 for a, b in zip(found, lengths) if a != b)
    assert wrong >= lines.REORDERED_MIN_BLOCKS and wrong * 2 >= len(blocks) and found != lengths[::-1] and \
        found not in (sorted(lengths), sorted(lengths, reverse=True)), "the sample's order tells no sort here"
    text = text_of(moved)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    said = messages_of(report, name, "but in another order (%s" % words)
    assert len(said) == 1 and said[0]["severity"] == ERROR and CHANCE_NOTE in said[0]["text"], report["messages"]
    assert "): %d of %d blocks are not as long as their sentence)" % (wrong, len(blocks)) in said[0]["text"]
    first = next(i for i, (a, b) in enumerate(zip(found, lengths)) if a != b)
    assert said[0]["where"] == "sentence %d (line %d of the file)" % (first + 1, sum(len(b) + 1 for b in moved[:first]) + 1)
    with monkeypatch.context() as patch:
        patch.setattr(lines, "SORTED_ORDERS", ())
        quiet = report_of(refs["dev"], name, text, tmp_path / "off")
    assert messages_of(quiet, name, "but in another order (shuffled: ")
    assert entry_of(quiet, name)["components"] == entry_of(report, name)["components"]


# --------------------------------------------------------------------------- 4. spans that lose their inside

def all_b(block):
    """B- on every token of an entity (the I- of the gold written B-)."""
    return ["B-" + label[2:] if label.startswith("I-") else label for label in block]


def runs_merged(block):
    """Each run of one type read as one entity (a test-side reading, independent of evalkit.lines)."""
    out = []
    for i, label in enumerate(block):
        if i and label.startswith("B-") and block[i - 1][:2] in ("B-", "I-") and block[i - 1][2:] == label[2:]:
            out.append("I-" + label[2:])
        else:
            out.append(label)
    return out


def with_misses(blocks, seed, share=0.15):
    """``blocks`` with some entities dropped (written O): a system that finds most, not all."""
    rng = random.Random(seed)
    out = []
    for block in blocks:
        block = list(block)
        for kind, start, end in get_entities(block):
            if rng.random() < share:
                block[start:end + 1] = ["O"] * (end - start + 1)
        out.append(block)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ENTITY_FILES)
def test_b_on_every_token_of_an_entity_is_named_and_priced(refs, tmp_path, monkeypatch, name, seed):
    gold, _ = labels_and_tokens(name)
    system = with_misses(gold, seed)
    text = text_of([all_b(block) for block in system])
    entities = [e for block in gold for e in get_entities(block)]
    multi = sum(1 for _, start, end in entities if end > start)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    written = entry_of(report, name)["score"]
    mended = entry_of(report_of(refs["dev"], name, text_of([runs_merged(all_b(b)) for b in system]),
                                tmp_path / "mended"), name)["score"]
    found = messages_of(report, name, "not one predicted entity spans more than one token")
    assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "whole file", report["messages"]
    assert found[0]["text"].startswith(
        "not one predicted entity spans more than one token (no I- label in the file), while %d of the development "
        "gold's %d entities do: B- written on every token of an entity?" % (multi, len(entities)))
    priced = "Priced on this phase's gold, the file scores %.4f as written and %.4f with each run of B- labels of " \
        "one type read as one entity" % (written, mended)
    assert (priced in found[0]["text"]) == (mended >= written + lines.PRICE_MIN_GAIN)   # said when it mends
    assert found[0]["text"].endswith(" after its first.") or priced in found[0]["text"]
    assert (LOSS_NOTE in found[0]["text"]) == (priced in found[0]["text"] and written * floor.LOSS_FACTOR < mended)
    assert (name in verdict.loss_files(report)) == (LOSS_NOTE in found[0]["text"])
    assert not messages_of(report, name, "below the floor") and not messages_of(report, name, "at the floor")
    same_scores_without(monkeypatch, lines, "inside_lost", lambda *args: None, refs["dev"], name, text,
                        tmp_path / "off", report)
    hidden = report_of(refs["test"], name, text_of([all_b(b) for b in labels_and_tokens(name, "test")[0]]),
                       tmp_path / "test")
    assert not messages_of(hidden, name, "spans more than one token")   # the test gold is hidden: nothing priced


@pytest.mark.parametrize("name", ENTITY_FILES)
def test_files_with_an_inside_get_no_such_message(refs, gold_files, tmp_path, name):
    gold, _ = labels_and_tokens(name)
    iob1 = [["I-" + label[2:] if label.startswith("B-") and (i == 0 or block[i - 1] == "O") else label
             for i, label in enumerate(block)] for block in gold]
    for text in (gold_files[name], text_of(iob1)):
        report = report_of(refs["dev"], name, text, tmp_path / str(len(text)))
        assert not messages_of(report, name, "spans more than one token")


def test_the_validator_no_longer_says_ready_to_upload_on_b_everywhere(tmp_path):
    name = "ner_spa_eng.txt"
    text = text_of([all_b(block) for block in labels_and_tokens(name)[0]])
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert "warning: %s, whole file: not one predicted entity spans more than one token" % name in out, out
    assert "ready to upload" not in out


# --------------------------------------------------------------------------- 7. renamings priced on the development gold

def noisy(blocks, labels, seed, share=0.1):
    """``blocks`` with a share of the labels replaced by another label of the set (a system, not the gold)."""
    rng = random.Random(seed)
    return [[rng.choice([x for x in labels if x != label]) if rng.random() < share else label for label in block]
            for block in blocks]


def renamed_map(task, pair, how):
    """A renaming of the label set that a did-you-mean mends."""
    labels = task.labels[pair]
    if how == "upper":
        return dict((label, label.upper()) for label in labels)
    if how == "lower":
        return dict((label, label.lower()) for label in labels)
    _, first, second = lince.LANGUAGES[pair]
    column = {"ISO 639-1": 1, "ISO 639-3": 0, "name": 2}[how]
    spelled = lince._LANGUAGE_SPELLINGS
    return {"lang1": spelled[first][column], "lang2": spelled[second][column]}


RENAMINGS = [(name, how) for name in LID_FILES for how in ("ISO 639-1", "ISO 639-3", "name", "upper")] + \
    [(name, "lower") for name in sorted(FILES) if FILES[name][0].key in ("pos", "ner")] + \
    [(name, how) for name in SENTENCE_FILES for how in ("values", "short")] + \
    [(name, "BIOES") for name in ENTITY_FILES]


def renamed_text(name, blocks, how):
    task, pair = FILES[name]
    if how == "BIOES":
        out = []
        for block in blocks:
            out.append([("S-" if label[:2] == "B-" else "E-") + label[2:]
                        if label[:2] in ("B-", "I-") and (i + 1 == len(block) or block[i + 1][:2] != "I-") else label
                        for i, label in enumerate(block)])
        return text_of(out)
    rename = {"values": {"positive": "1", "neutral": "0", "negative": "-1"},
              "short": {"positive": "pos", "neutral": "neu", "negative": "neg"}}.get(how) or renamed_map(task, pair, how)
    written = [[rename.get(label, label) for label in block] for block in blocks]
    return "".join(block[0] + "\n" for block in written) if task.kind == "sentence_labels" else text_of(written)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name,how", RENAMINGS)
def test_a_renamed_label_set_is_priced_on_the_development_gold(refs, tmp_path, monkeypatch, name, how, seed):
    task, pair = FILES[name]
    gold, _ = labels_and_tokens(name)
    system = gold if how == "BIOES" else noisy(gold, task.labels[pair], seed)
    text = renamed_text(name, system, how)
    plain = "".join(b[0] + "\n" for b in system) if task.kind == "sentence_labels" else text_of(system)
    report = report_of(refs["dev"], name, text, tmp_path / "on")
    written = entry_of(report, name)["score"]
    mended = entry_of(report_of(refs["dev"], name, plain, tmp_path / "plain"), name)["score"]
    found = messages_of(report, name, "of its labels are outside this dataset's label set, and each has a label")
    assert len(found) == 1 and found[0]["severity"] == WARNING and found[0]["where"] == "whole file", report["messages"]
    assert "Priced on this phase's gold, the file scores %.4f as written and %.4f with them renamed (" % (
        written, mended) in found[0]["text"]
    assert (LOSS_NOTE in found[0]["text"]) == floor.loses_most({"as_written": written, "mended": mended})
    assert not [m for m in report["messages"] if m["file"] == name and "the floor of this phase" in m["text"]]
    quiet = same_scores_without(monkeypatch, lines.TextKind, "_price", lambda *args: None, refs["dev"], name, text,
                                tmp_path / "off", report)
    assert not messages_of(quiet, name, "each has a label of the set it stands for")
    hidden = report_of(refs["test"], name, renamed_text(name, labels_and_tokens(name, "test")[0], how),
                       tmp_path / "test")
    assert not messages_of(hidden, name, "Priced on this phase's gold")


def check_swap_priced(report, name, monkeypatch, ref, text, folder):
    """The one swap message ends with its price (the gold's own labels exchanged back score 1), with LOSS_NOTE when
    most is lost; the score is that of the file priced by nothing."""
    found = messages_of(report, name, "labels that look swapped throughout")
    written = entry_of(report, name)["score"]
    assert len(found) == 1 and found[0]["where"] == "whole file", report["messages"]
    assert found[0]["text"].endswith("Check how the system's label ids map to the label names. Priced on this phase's "
                                     "gold, the file scores %.4f as written and 1.0000 with them exchanged back%s" % (
                                         written, " (%s)." % LOSS_NOTE if written * floor.LOSS_FACTOR < 1 else "."))
    assert not messages_of(report, name, "the floor of this phase")
    same_scores_without(monkeypatch, lines.TextKind, "_price", lambda *args: None, ref, name, text, folder, report)


@pytest.mark.parametrize("name", LID_FILES)
def test_two_languages_swapped_throughout_are_priced(refs, tmp_path, monkeypatch, name):
    swap = {"lang1": "lang2", "lang2": "lang1"}
    text = text_of([[swap.get(label, label) for label in block] for block in labels_and_tokens(name)[0]])
    check_swap_priced(report_of(refs["dev"], name, text, tmp_path / "on"), name, monkeypatch, refs["dev"], text,
                      tmp_path / "off")


@settings(**SETTINGS)
@given(counts=st.tuples(st.integers(10, 40), st.integers(10, 40), st.integers(0, 40)), seed=st.integers(0, 99))
def test_two_sentiments_swapped_throughout_are_priced(tmp_path_factory, monkeypatch, counts, seed):
    """Random posts (at least :data:`evalkit.floor.SWAP_MIN_GOLD` of each swapped class), positive and negative
    written the other way round."""
    assume(counts[0] * counts[1] >= floor.SWAP_MIN_CHANCE * sum(counts))   # chance alone would right some (floor.py)
    root = tmp_path_factory.mktemp("swap")
    task, pair = FILES["sa_spa_eng.txt"]
    gold = ["positive"] * counts[0] + ["negative"] * counts[1] + ["neutral"] * counts[2]
    random.Random(seed).shuffle(gold)
    ref = write_files(root / "ref", {lince.REFERENCE_FILE.format(task="sa", lang=pair): lince_data.reference_text(
        [(["# sent_enum = %d" % i, label], [["w"]]) for i, label in enumerate(gold, 1)], task, pair, True)})
    with open(os.path.join(ref, "phase.json"), "w") as handle:
        json.dump({"phase": "dev", "gold": "public"}, handle)
    swap = {"positive": "negative", "negative": "positive"}
    text = "".join(swap.get(label, label) + "\n" for label in gold)
    check_swap_priced(report_of(ref, "sa_spa_eng.txt", text, root / "on"), "sa_spa_eng.txt", monkeypatch, ref, text,
                      root / "off")


def test_the_validator_exits_1_on_iso_codes_on_dev_and_says_why(tmp_path):
    name = "lid_spa_eng.txt"
    task, pair = FILES[name]
    text = renamed_text(name, labels_and_tokens(name)[0], "ISO 639-1")
    status, out = validator(write_files(tmp_path / "sub", {name: text}))
    assert status == 1, out
    assert "warning: %s, whole file: " % name in out and "with them renamed ('en' as 'lang1', 'es' as 'lang2') (%s)" % (
        LOSS_NOTE) in out or "with them renamed ('es' as 'lang2', 'en' as 'lang1') (%s)" % LOSS_NOTE in out, out
    assert out.strip().split("\n")[-1].endswith(
        "0 files will score 0, 1 file will lose most of its score (%s) -- fix it before uploading" % name)


# --------------------------------------------------------------------------- 8. the test phase in the kit's README

def test_the_kit_readme_explains_the_test_phase_as_the_schedule_declares_it():
    from organiser import schedule
    feedback = schedule.test_feedback(os.path.join(LINCE_DIR, "schedule.yaml"))
    with open(os.path.join(KIT, "README.md"), encoding="utf-8") as handle:
        readme = " ".join(handle.read().split())
    assert feedback["mode"] == "public_private"
    assert "## The test phase: what its scores mean" in readme
    assert "scores each submission on a public part of the test set only: about %d%% of each dataset's sentences" % (
        round(100 * feedback["public_fraction"])) in readme
    assert "The final ranking re-scores each team's official submission, its last scored one, on the private rest" \
        in readme
    assert '"public part: N of M sentences"' in readme


def test_the_kit_readme_names_the_new_messages():
    with open(os.path.join(KIT, "README.md"), encoding="utf-8") as handle:
        readme = " ".join(handle.read().split())
    for words in ('df.to_csv(path, sep="\\t", index=False, header=False)', "`# sent_enum` line that opens each sentence",
                  "ISO codes such as `en`/`es` for `lang1`/`lang2`", "`B-` on every token of an entity",
                  "or lose most of its score"):
        assert words in readme, words


# --------------------------------------------------------------------------- the real release (../shared/lince)

release = pytest.mark.skipif(not os.path.isdir(os.path.join(LINCE_SHARED, "lid_spaeng")),
                             reason="the LinCE data is not at %s (set LINCE_SHARED)" % LINCE_SHARED)
MBERT_DEV = os.path.join(LINCE_SHARED, "systems", "mbert_dev_predictions.conll")


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """The real dev reference and mBERT's real dev predictions, as blocks of labels."""
    out = str(tmp_path_factory.mktemp("lince_shared_r5"))
    reference.build(LINCE_SHARED, out)
    with open(os.path.join(out, "dev", "phase.json"), "w") as handle:   # as make stamps the development phase
        json.dump({"phase": "dev", "gold": "public"}, handle)
    sub = os.path.join(out, "mbert.zip")
    baseline_table.conll_to_submission(MBERT_DEV, "lid_spaeng", sub)
    with zipfile.ZipFile(sub) as archive:
        text = archive.read("lid_spa_eng.txt").decode("utf-8")
    return os.path.join(out, "dev"), [block.split("\n") for block in text.strip("\n").split("\n\n")]


def real_report(real, text, folder):
    return evaluate(lince, real[0], write_files(folder, {"lid_spa_eng.txt": text}))


@release
def test_the_real_predictions_with_iso_codes_lose_most_of_their_score(real, tmp_path):
    text = text_of([[{"lang1": "en", "lang2": "es"}.get(label, label) for label in block] for block in real[1]])
    report = real_report(real, text, tmp_path / "iso")
    found = messages_of(report, "lid_spa_eng.txt", "each has a label of the set it stands for")
    assert len(found) == 1 and found[0]["text"].startswith("31,838 of its labels are outside")
    assert "the file scores 0.2082 as written and 0.9839 with them renamed ('en' as 'lang1', 'es' as 'lang2') (%s)" % (
        LOSS_NOTE) in found[0]["text"]
    assert entry_of(report, "lid_spa_eng.txt")["score"] == pytest.approx(0.2082, abs=5e-5)
    assert verdict.conclude(report)[0] == verdict.FAILED


@release
def test_the_real_predictions_written_by_pandas_are_named_a_table(real, tmp_path):
    rows = [label for block in real[1] for label in block + [""]]
    report = real_report(real, pd.DataFrame({"label": rows}).to_csv(sep="\t"), tmp_path / "pandas")
    found = messages_of(report, "lid_spa_eng.txt", TABLE)
    assert len(found) == 1 and found[0]["where"] == "line 1"
    assert "a header row (line 1: '\\tlabel'; header=False leaves it out), an index column (each line starts with its " \
        "row number: line 2, '0\\tother'; index=False leaves it out) and the blank line after each sentence written " \
        "as a row (3,332 lines such as line 6, '4\\t')" in found[0]["text"]
    assert not messages_of(report, "lid_spa_eng.txt", "label ids")
    assert entry_of(report, "lid_spa_eng.txt")["score"] == 0


@release
def test_the_real_predictions_with_a_label_per_sent_enum_line_are_named(real, tmp_path):
    report = real_report(real, text_of([["other"] + block for block in real[1]]), tmp_path / "enum")
    found = messages_of(report, "lid_spa_eng.txt", "this sentence counts as wrong")
    assert len(found) == 1 and "Every one of the 3,332 sentences counted as wrong has exactly one label more than its " \
        "tokens: a label written for the '# sent_enum = N' line" in found[0]["text"]


@release
@pytest.mark.parametrize("sort", sorted(SORTS))
def test_the_real_predictions_in_the_order_of_a_sort_are_named(real, tmp_path, sort):
    words, key = SORTS[sort]
    texts = [" ".join(row[0] for row in rows) for _, rows in lince_data.read_conll(
        os.path.join(LINCE_SHARED, "lid_spaeng", "dev.conll"))]
    moved = [real[1][i] for i in sorted(range(len(real[1])), key=lambda i: key(i, texts))]
    report = real_report(real, text_of(moved), tmp_path / "sorted")
    found = messages_of(report, "lid_spa_eng.txt", "but in another order (%s" % words)
    assert len(found) == 1 and found[0]["severity"] == ERROR and CHANCE_NOTE in found[0]["text"]


@release
def test_the_real_predictions_with_two_languages_swapped_lose_most_of_their_score(real, tmp_path):
    swap = {"lang1": "lang2", "lang2": "lang1"}
    report = real_report(real, text_of([[swap.get(label, label) for label in block] for block in real[1]]),
                         tmp_path / "swap")
    found = messages_of(report, "lid_spa_eng.txt", "labels that look swapped throughout")
    assert len(found) == 1 and found[0]["text"].endswith(
        "the file scores 0.2136 as written and 0.9839 with them exchanged back (%s)." % LOSS_NOTE)
    assert not messages_of(report, "lid_spa_eng.txt", "the floor of this phase")
    assert list(verdict.loss_files(report)) == ["lid_spa_eng.txt"]
