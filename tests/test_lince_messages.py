"""LinCE's participant messages, generated: labels outside a dataset's declared label set (wrong case, declared
aliases, another dataset's labels, free text), an empty line where a label was expected, and the "nothing scored"
message naming what was uploaded. Each is asserted in the scorer and in the starting kit's validator, with the
score unchanged by the message (equal to that of an equivalent submission without it). Then a fuzzer of the
line-aligned text kinds over odd lines (control characters, NUL, BOM, CRLF, very long lines, invalid UTF-8)."""
import os
import random
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evalkit import cli, lines, naming
from evalkit.messages import DataError, MessageLog, MAX_TEXT_CHARS
from evalkit.scoring import evaluate
from lince_helpers import KIT, SAMPLE, build_sample_reference, gold_submission, lince, sample_gold, write_files

VALIDATE = os.path.join(KIT, "validate.py")
FILES = dict((lince.SUBMISSION_FILE.format(task=task.key, lang=pair), (task, pair)) for task, pair in lince.DATASETS)
ONCE = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("lince_ref")
    build_sample_reference(out)
    return os.path.join(str(out), "dev")


@pytest.fixture(scope="module")
def gold_files():
    return gold_submission(sample_gold("dev"))


def fresh(tmp_path, name):
    """An empty folder ``tmp_path/name`` (Hypothesis runs the test body many times in one ``tmp_path``)."""
    folder = tmp_path / name
    if folder.exists():
        shutil.rmtree(str(folder))
    folder.mkdir(parents=True)
    return folder


def score_one(ref, name, text, folder):
    """The report of a submission holding the one file ``name``."""
    return evaluate(lince, ref, write_files(folder, {name: text}))


def entry_of(report, name):
    return next(e for e in report["entries"] if e["file"] == name)


def validator(submission, split="dev"):
    """The starting kit's validator on ``submission`` (its own process, as a participant runs it)."""
    proc = subprocess.run([sys.executable, VALIDATE, submission, "--data", SAMPLE, "--split", split],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


def shown(message):
    """A report message as the validator prints it."""
    place = ", ".join(part for part in (message["file"], message["where"]) if part)
    return "%s: %s%s" % (message["severity"], place + ": " if place else "", message["text"])


# --------------------------------------------------------------------------- labels outside the label set

def outside_labels(task, pair):
    """Labels outside the dataset's set, by what they are: (label, the expected did-you-mean or None)."""
    labels = task.labels[pair]
    lowered = dict((label.lower(), label) for label in labels)
    found = []
    for label in labels:                                  # wrong case
        for variant in (label.upper(), label.lower(), label.title()):
            if variant not in labels:
                found.append((variant, lowered[variant.lower()]))
    for alias, target in sorted(task.label_aliases[pair].items()):   # declared aliases, as written or upper-cased
        for variant in (alias, alias.upper()):
            if variant not in labels and variant.lower() not in lowered:
                found.append((variant, target))
    for other_name, other in lince.LABEL_SETS.items():   # another dataset's labels
        for label in other:
            if label not in labels and label.lower() not in lowered and label.lower() not in task.label_aliases[pair]:
                found.append((label, None))
    return found


@st.composite
def corrupted_file(draw):
    """(file name, gold text, corrupted text, {line number: (bad label, expected guess or None)})."""
    name = draw(st.sampled_from(sorted(FILES)))
    task, pair = FILES[name]
    candidates = outside_labels(task, pair) + [(draw(st.from_regex(r"\Azz[a-z]{1,8}\Z")), None)]
    return name, candidates, draw(st.integers(1, 25)), draw(st.randoms(use_true_random=False))


def corrupt(text, candidates, count, rng, task, pair):
    """Replace ``count`` label lines of ``text`` with labels outside the set; return (corrupted text, the equivalent
    text without a message: each bad label replaced by a valid label that is as wrong, {line: bad label})."""
    rows = text.split("\n")
    positions = sorted(rng.sample([i for i, row in enumerate(rows) if row], min(count, sum(1 for r in rows if r))))
    bad, equivalent = list(rows), list(rows)
    placed = {}
    for i in positions:
        label, _ = rng.choice(candidates)
        bad[i] = label
        placed[i + 1] = label
        wrong = [l for l in task.labels[pair] if l != rows[i]]
        equivalent[i] = "O" if task.metric == "span_f1" else rng.choice(wrong)
    return "\n".join(bad), "\n".join(equivalent), placed


@ONCE
@given(case=corrupted_file())
def test_labels_outside_the_set_are_one_warning_per_file_and_never_change_the_score(ref, gold_files, tmp_path, case):
    name, candidates, count, rng = case
    task, pair = FILES[name]
    text, equivalent, placed = corrupt(gold_files[name], candidates, count, rng, task, pair)
    folder = fresh(tmp_path, "sub")
    report = score_one(ref, name, text, folder)
    warnings = [m for m in report["messages"] if m["file"] == name and "not in this dataset's label set" in m["text"]]
    assert len(warnings) == 1 and warnings[0]["severity"] == "warning", report["messages"]
    message = warnings[0]["text"]
    n_labels = sum(1 for row in text.split("\n") if row)
    assert message.startswith("%d label%s of %d (%d distinct) " % (len(placed), "" if len(placed) == 1 else "s",
                                                                   n_labels, len(set(placed.values()))))
    assert warnings[0]["where"] == "line %d" % min(placed)
    expected = dict(candidates)
    first_seen = []
    for line in sorted(placed):
        if placed[line] not in first_seen:
            first_seen.append(placed[line])
    for label in first_seen[:lines.SHOWN_LABELS]:
        count = list(placed.values()).count(label)
        numbers = [n for n in sorted(placed) if placed[n] == label][:lines.SHOWN_LINES]
        described = "%r %s (line%s %s" % (label, "once" if count == 1 else "%d times" % count,
                                           "" if count == 1 else "s", ", ".join(map(str, numbers)))
        assert described in message
        if expected.get(label):
            assert message[message.index(described):].split(")", 1)[0].endswith("did you mean %r?" % expected[label])
    if len(first_seen) > lines.SHOWN_LABELS:
        assert "and %d more distinct label" % (len(first_seen) - lines.SHOWN_LABELS) in message
    # the score is that of the same file with each bad label replaced by an equally wrong valid one
    clean = score_one(ref, name, equivalent, fresh(tmp_path, "clean"))
    assert not [m for m in clean["messages"] if m["file"] == name]
    assert entry_of(report, name)["score"] == entry_of(clean, name)["score"]
    # the validator prints the same message, and the same score
    status, out = validator(str(folder))
    assert shown(warnings[0]) in out, out
    assert "%s %.4f" % (task.metric, entry_of(report, name)["score"]) in out


def test_a_file_of_another_datasets_labels_is_told_which(ref, gold_files, tmp_path):
    ner = [row for row in gold_files["ner_spa_eng.txt"].split("\n")]
    lid_rows = gold_files["lid_spa_eng.txt"].split("\n")
    labels = iter(row for row in ner if row)
    text = "\n".join(next(labels, "O") if row else row for row in lid_rows)
    report = score_one(ref, "lid_spa_eng.txt", text, fresh(tmp_path, "sub"))
    [message] = [m["text"] for m in report["messages"] if m["file"] == "lid_spa_eng.txt"]
    assert "Most of them are labels of ner_spa_eng.txt or ner_msa_ea.txt: is this that dataset's file?" in message
    assert "'O' " in message and "a label of ner_spa_eng.txt, ner_hin_eng.txt or ner_msa_ea.txt" in message


def test_known_aliases_of_the_real_data_get_their_label(ref, gold_files, tmp_path):
    """The source corpora's own labels (the LinCE paper: Bangor eng / spa / eng&spa / UNK), language codes,
    entity types spelt otherwise, sentiment abbreviations."""
    cases = {"lid_spa_eng.txt": {"lang1": "eng", "lang2": "spa", "other": "punct"},
             "lid_hin_eng.txt": {"lang2": "hin", "other": "rest"},
             "ner_spa_eng.txt": {"B-PER": "B-PERSON", "I-PER": "I-PERSON", "O": "0"},
             "ner_hin_eng.txt": {"B-PERSON": "B-PER", "B-PLACE": "B-LOC"},
             "pos_spa_eng.txt": {"CONJ": "CCONJ", "PUNCT": "."},
             "sa_spa_eng.txt": {"positive": "pos", "negative": "neg"}}
    for name, swaps in cases.items():
        rows = gold_files[name].split("\n")
        text = "\n".join(swaps.get(row, row) for row in rows)
        report = score_one(ref, name, text, fresh(tmp_path, name))
        [message] = [m["text"] for m in report["messages"] if m["file"] == name]
        for label, alias in swaps.items():
            if label in rows:
                assert "%r " % alias in message and "did you mean %r?" % label in message, (name, message)


def test_long_and_many_distinct_labels_stay_one_bounded_line(ref, gold_files, tmp_path):
    rows = gold_files["pos_spa_eng.txt"].split("\n")
    text = "\n".join("zz%d%s" % (i, "x" * 3000) if row else row for i, row in enumerate(rows))
    report = score_one(ref, "pos_spa_eng.txt", text, fresh(tmp_path, "sub"))
    [message] = [m["text"] for m in report["messages"] if m["file"] == "pos_spa_eng.txt"]
    assert len(message) < MAX_TEXT_CHARS and "(3,00" in message and "more distinct labels" in message
    assert entry_of(report, "pos_spa_eng.txt")["score"] == 0.0


# --------------------------------------------------------------------------- an empty line where a label was expected

@ONCE
@given(seed=st.integers(0, 10 ** 6), name=st.sampled_from(["lid_spa_eng.txt", "pos_hin_eng.txt", "ner_msa_ea.txt"]))
def test_an_empty_line_inside_a_sentence_is_located_and_scores_as_the_missing_label(ref, gold_files, tmp_path,
                                                                                      seed, name):
    rows = gold_files[name].split("\n")
    rng = random.Random(seed)
    inner = [i for i in range(1, len(rows) - 1) if rows[i] and rows[i - 1] and rows[i + 1]]
    i = rng.choice(inner)
    blank = rows[:i] + [""] + rows[i + 1:]
    folder = fresh(tmp_path, "sub")
    report = score_one(ref, name, "\n".join(blank), folder)
    errors = [m["text"] for m in report["messages"] if m["file"] == name and "first misalignment" in m["text"]]
    assert len(errors) == 1 and "Line %d is empty where a label was expected" % (i + 1) in errors[0], report["messages"]
    dropped = score_one(ref, name, "\n".join(rows[:i] + rows[i + 1:]), fresh(tmp_path, "dropped"))
    assert entry_of(report, name)["score"] == entry_of(dropped, name)["score"]
    assert entry_of(report, name)["zeroed_sentences"] == entry_of(dropped, name)["zeroed_sentences"] == 1
    status, out = validator(str(folder))
    assert "Line %d is empty where a label was expected" % (i + 1) in out


def test_an_empty_line_for_a_post_label_is_named_in_the_count_message(ref, gold_files, tmp_path):
    rows = gold_files["sa_spa_eng.txt"].split("\n")
    text = "\n".join(rows[:3] + [""] + rows[4:])
    folder = fresh(tmp_path, "sub")
    report = score_one(ref, "sa_spa_eng.txt", text, folder)
    [message] = [m["text"] for m in report["messages"] if m["file"] == "sa_spa_eng.txt"]
    assert "the file has 23 labels, the input file has 24 sentences (blank lines are skipped, and the file has 1: " \
           "line 4; an empty line where a label was expected?)" in message
    assert entry_of(report, "sa_spa_eng.txt")["score"] == 0.0
    assert "line 4; an empty line where a label was expected?" in validator(str(folder))[1]


# --------------------------------------------------------------------------- nothing scored: what was uploaded

def look_alikes(task, pair):
    """Names a participant gives the file of (task, pair), none of them the expected one."""
    ident = lince.dataset_id(task, pair)
    return [ident + ".txt", ident.upper() + ".TXT", "%s-%s.txt" % (task.key, pair.replace("_", "-")),
            "%s_%s.txt" % (pair, task.key), "lince_%s.txt" % ident, "%s_%s_dev_predictions.txt" % (task.key, pair),
            "%s_%s.conll" % (task.key, pair), "%s_%s.tsv" % (task.key, pair.upper())]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picked=st.lists(st.tuples(st.sampled_from(lince.DATASETS), st.integers(0, 7)), min_size=1, max_size=14),
       others=st.lists(st.from_regex(r"\A[a-z]{3,10}\.(md|csv|py)\Z"), max_size=3))
def test_nothing_scored_names_the_uploaded_files_with_a_did_you_mean(ref, tmp_path, capsys, picked, others):
    names = {}
    for (task, pair), variant in picked:
        names.setdefault(look_alikes(task, pair)[variant], lince.SUBMISSION_FILE.format(task=task.key, lang=pair))
    for other in others:
        names.setdefault(other, None)
    folder = write_files(fresh(tmp_path, "sub"), dict((name, "lang1\n") for name in names))
    status = cli.main(lince, ["--ref", ref, "--submission", folder, "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert status == 1 and "Nothing could be scored: no expected file was found" in err
    assert "It holds %d file%s: " % (len(names), "" if len(names) == 1 else "s") in err
    listed = sorted(names)[:lines.SHOWN_NAMES]
    for name in listed:
        if names[name]:
            why = naming.name_fault(name, names[name])   # compressed, letter case, extension: said first
            assert "%s (%sdid you mean %s?)" % (name, why + "; " if why else "", names[name]) in err, err
    if len(names) > lines.SHOWN_NAMES:
        assert "and %d more." % (len(names) - lines.SHOWN_NAMES) in err
    else:
        assert "more." not in err


def test_nothing_scored_is_the_same_in_the_validator(ref, tmp_path):
    folder = write_files(fresh(tmp_path, "sub"), {"lid_spaeng.txt": "lang1\n", "notes.md": "x"})
    status, out = validator(folder)
    assert status == 1
    assert "It holds 2 files: lid_spaeng.txt (did you mean lid_spa_eng.txt?), notes.md (no expected name is close)." \
        in out


def test_nothing_scored_escapes_and_cuts_hostile_names(ref, tmp_path, capsys):
    archive = str(tmp_path / "hostile.zip")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("\x1b[31m" + "a" * 300 + ".txt", "x")
    status = cli.main(lince, ["--ref", ref, "--submission", archive, "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert status == 1 and "\x1b" not in err and "\\x1b[31m" in err and "(309 characters)" in err


# --------------------------------------------------------------------------- fuzzing the text kinds over odd lines

ODD = st.one_of(
    st.sampled_from(["", " ", "\t", "\x00", "\x00lang1", "lang1\x00", "\x1b[2J", "\u2028", "\ufeff", "\ufefflang1",
                     "\r", "lang1\r", "# sent_enum = 1", "tok\t", "\tlang1", "B-PER\tI-PER", "\ud800"]),
    st.text(max_size=12),
    st.integers(1000, 200000).map(lambda n: "x" * n),
    st.sampled_from(["lang1", "lang2", "other", "O", "B-PER", "NOUN", "positive"]))
ODD_BYTES = st.one_of(ODD.map(lambda s: s.encode("utf-8", "surrogatepass")),
                      st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\xe2\x82"]))


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(sorted(FILES)), rows=st.lists(ODD_BYTES, max_size=60),
       newline=st.sampled_from([b"\n", b"\r\n", b"\r"]), bom=st.booleans())
def test_odd_lines_give_messages_never_an_exception(name, rows, newline, bom):
    task, pair = FILES[name]
    kind = lines.TEXT_KINDS[task.kind]
    ref = kind.parse_reference_text(_reference_bytes(task, pair), "ref", task, pair)
    data = (b"\xef\xbb\xbf" if bom else b"") + newline.join(rows)
    log = MessageLog(name)
    try:
        pred = kind.parse_prediction_text(data, ref, log, task, kind.prediction_limit(ref, 64 << 20))
    except DataError as err:
        assert err.message.file == name and len(err.message.text) <= MAX_TEXT_CHARS
        return
    entry = kind.score(ref, pred, task)
    assert all(0.0 <= value <= 1.0 for value in entry.components.values())
    assert all(len(m.text) <= MAX_TEXT_CHARS and "\x00" not in m.text + m.where for m in log.close())


_REFERENCES = {}


def _reference_bytes(task, pair):
    """The sample's dev reference of (task, pair), as the organiser's builder writes it (cached)."""
    if (task.key, pair) not in _REFERENCES:
        import lince_data
        sentences = lince_data.read_conll(os.path.join(SAMPLE, lince.dataset_id(task, pair), "dev.conll"))
        _REFERENCES[(task.key, pair)] = lince_data.reference_text(sentences, task, pair, True).encode("utf-8")
    return _REFERENCES[(task.key, pair)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(st.sampled_from(sorted(FILES)), st.lists(ODD_BYTES, max_size=40).map(b"\r\n".join),
                             min_size=1, max_size=3))
def test_odd_lines_through_the_command_line_exit_0_or_1(ref, tmp_path, capsys, files):
    folder = fresh(tmp_path, "odd")
    for name, data in files.items():
        (folder / name).write_bytes(data)
    status = cli.main(lince, ["--ref", ref, "--submission", str(folder), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert status in (0, 1) and "Internal error" not in err and "Traceback" not in err, err
    if status == 0:
        assert re.match(r"avg_score: [0-9.]+\n", (tmp_path / "out" / "scores.txt").read_text())
