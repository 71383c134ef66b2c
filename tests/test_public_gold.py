"""Test gap-filling gold that public files give away: finding it, leaving it unscored, saying so.

The recoverability functions of ST2024's reference builder (``competitions/st2024/reference.py``) on hand-made and generated cases (Hypothesis: the
index finds exactly what a scan of every public sentence finds), the remedy on the synthetic sample (its
``lat`` test lines 0-5 are its morphology test sentences, its ``sga`` test lines 0-5 mask one sentence at
both levels), and the figures on ``../shared/st2024`` when it is present (valid gold; test lines without
gold).
"""
import collections
import json
import os
import shutil

import pytest
from hypothesis import given, settings, strategies as st

import st2024
from conftest import ROOT, SHARED, needs_shared
from competitions.st2024 import reference  # noqa: E402
release = reference.release
from competitions.st2024.reference import (  # noqa: E402
CHAR_MARKER, WORD_MARKER, PUBLIC_REASON, Derivation, PublicIndex,
                                 PublicSentence, fits, glob_literals, loose_chars, other_level_reveals,
                                 public_gold, public_reading)

SAMPLE = os.path.join(ROOT, "sample_data")
SAMPLE_GOLD = os.path.join(SAMPLE, "test_gold")
TASKS = st2024.TASKS_BY_FOLDER
WORD, CHAR = TASKS["fill_mask_word"], TASKS["fill_mask_char"]


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def index_of(task, sentences, lang="lat"):
    return PublicIndex(task.folder, lang, sentences, task.mask_marker)


# ----------------------------------------------------------------------------- matching

def test_a_public_conllu_sentence_reveals_a_word_gap():
    public = [PublicSentence("morphology/test/x_test.conllu", 0, "uti dixit. Opimius",
                             ["uti", "dixit", ".", "Opimius"]),
              PublicSentence("fill_mask_word/train/x_train.tsv", 1, "uti scripsit. Opimius")]
    index = index_of(WORD, public)
    assert index.reveal("uti [MASK]. Opimius", ["dixit"]) == ["morphology/test/x_test.conllu"]
    assert index.reveal("uti [MASK]. Opimius", ["scripsit"]) == ["fill_mask_word/train/x_train.tsv"]
    assert index.reveal("uti [MASK]. Opimius", ["ait"]) == []
    assert index.reveal("uti [MASK]. Opimius") == ["morphology/test/x_test.conllu", "fill_mask_word/train/x_train.tsv"]
    assert index.reveal("[MASK] dixit. [MASK]", ["uti", "Opimius"]) == ["morphology/test/x_test.conllu"]
    assert index.reveal("[MASK] [MASK] [MASK] [MASK]") == []        # no unmasked character: no match


def test_word_lines_with_multiword_tokens_and_other_spacing():
    """Word-level lines list every CoNLL-U row (ranges and their parts) and are detokenised otherwise."""
    sentence = PublicSentence("m", 0, "tarvus nobrum melcum.", ["tarvus", "nobrum", "nob", "rum", "melcum", "."])
    index = index_of(WORD, [sentence])
    assert index.reveal("tarvus [MASK] nob rum melcum .", ["nobrum"]) == ["m"]
    french = PublicSentence("m", 0, "Tant pansa qu'il virent ;", ["Tant", "pansa", "qu'", "il", "virent", ";"])
    assert index_of(WORD, [french]).reveal("Tant pansa qu' il virent [MASK]", [";"]) == ["m"]


def test_char_gaps_and_a_text_spaced_otherwise():
    public = [PublicSentence("m", 0, "es ewte az fewldett ,")]     # rebuilt from forms: punctuation spaced
    index = index_of(CHAR, public)
    assert index.reveal("es ewte az few[_]dett,", ["l"]) == ["m"]
    assert index.reveal("es[_]ewte az fewldett,", [" "]) == ["m"]
    assert index.reveal("es ewte az few[_]dett,", ["x"]) == []
    assert loose_chars("[_]b[_][_]", "ab c") is None                 # which of two gaps is the space?
    assert loose_chars("[_]b[_][_]", "abcd") == ["a", "c", "d"]


def test_glob_and_fits_agree_on_whole_matches():
    assert glob_literals("abXcd", ["a", "b", reference._ANY, "c", "d"]) == [0, 1, 3, 4]
    assert glob_literals("abcd", ["a", reference._ONE, reference._ANY, "d"]) == [0, 3]
    assert glob_literals("abc", ["a", "b", "d"]) is None
    assert fits("abXcd", ["ab", "cd"], 1) and not fits("abcd", ["ab", "cd"], 1) and fits("abcd", ["ab", "cd"])
    assert fits("aXbYc", ["a", "b", "c"], 1) and not fits("abYc", ["a", "b", "c"], 1)
    assert not fits("ab", ["ab", "b"])          # the end cannot reuse the start's characters


def test_other_level_line_reveals_what_it_shows():
    word_line, gold = "Cé [MASK] secht [MASK] im gin", ["betis", "tengtha"]
    assert other_level_reveals(word_line, WORD_MARKER, gold, "Cé betis se[_]ht te[_]gtha im gin", CHAR_MARKER,
                               "sga", "word") is False        # `tengtha` has a masked character
    assert other_level_reveals(word_line, WORD_MARKER, gold, "Cé betis se[_]ht tengtha im [_]in", CHAR_MARKER,
                               "sga", "word") is True
    assert other_level_reveals(word_line, WORD_MARKER, gold, "Cé betis secht tengtha im gan", CHAR_MARKER,
                               "sga", "word") is False        # another sentence
    char_line = "Cé bet[_]s secht tengtha im gin"
    assert other_level_reveals(char_line, CHAR_MARKER, ["i"], word_line, WORD_MARKER, "sga", "char") is False
    assert other_level_reveals(char_line, CHAR_MARKER, ["i"], "Cé betis secht [MASK] im gin", WORD_MARKER,
                               "sga", "char") is True
    assert other_level_reveals("Cé[_]betis", CHAR_MARKER, [" "], "Cé betis", WORD_MARKER, "sga", "char") is False


# ----------------------------------------------------------------------------- generated cases

WORDS = st.text(alphabet="abcdé", min_size=1, max_size=4)
SENTENCES = st.lists(WORDS, min_size=1, max_size=8)


def mask_words(words, chosen):
    return " ".join(WORD_MARKER if i in chosen else word for i, word in enumerate(words))


def brute_force(task, lang, masked, sentences, gold):
    """Every file whose sentence reads ``gold`` from ``masked``, scanning every public sentence. A line
    with no unmasked character identifies no sentence: nothing (by definition)."""
    files = []
    if not reference.squeeze(masked.replace(task.mask_marker, "")):
        return files
    for sentence in sorted(sentences, key=lambda s: s.rank):
        golds = public_reading(task.folder, lang, masked, sentence, task.mask_marker)
        if golds is not None and golds == gold and sentence.file not in files:
            files.append(sentence.file)
    return files


@settings(max_examples=150, deadline=None)
@given(SENTENCES, st.lists(SENTENCES, max_size=6), st.data())
def test_property_word_index_finds_what_a_scan_finds(words, others, data):
    chosen = data.draw(st.sets(st.integers(0, len(words) - 1), min_size=1))
    masked, gold = mask_words(words, chosen), [words[i] for i in sorted(chosen)]
    public = [PublicSentence("file%d" % n, n, " ".join(sentence), list(sentence))
              for n, sentence in enumerate(others)]
    if data.draw(st.booleans()):     # the sentence itself is public, as a text or as CoNLL-U forms
        at = data.draw(st.integers(0, len(public)))
        forms = list(words) if data.draw(st.booleans()) else None
        public.insert(at, PublicSentence("own", at, " ".join(words), forms))
        for number, sentence in enumerate(public):
            sentence.rank = number
    found = index_of(WORD, public).reveal(masked, gold)
    assert found == brute_force(WORD, "lat", masked, public, gold)
    own = [sentence for sentence in public if sentence.file == "own"]
    if own and own[0].forms and len(chosen) < len(words):    # its CoNLL-U rows, and some context
        assert "own" in found
    for name in found:         # whatever is found really completes the line with the gold
        texts = {reference.squeeze(s.text) for s in public if s.file == name}
        filled = masked.replace(WORD_MARKER, "{}").format(*gold)
        assert reference.squeeze(filled) in texts


@settings(max_examples=150, deadline=None)
@given(SENTENCES, st.lists(SENTENCES, max_size=6), st.data())
def test_property_char_index_finds_what_a_scan_finds(words, others, data):
    text = " ".join(words)
    chosen = data.draw(st.sets(st.integers(0, len(text) - 1), min_size=1, max_size=4))
    masked = "".join(CHAR_MARKER if i in chosen else char for i, char in enumerate(text))
    gold = [text[i] for i in sorted(chosen)]
    public = [PublicSentence("file%d" % n, n, " ".join(sentence)) for n, sentence in enumerate(others)]
    if data.draw(st.booleans()):
        public.append(PublicSentence("own", len(public), text))
    found = index_of(CHAR, public).reveal(masked, gold)
    assert found == brute_force(CHAR, "lat", masked, public, gold)
    context = reference.squeeze(masked.replace(CHAR_MARKER, ""))   # unmasked characters other than spaces
    if public and public[-1].file == "own" and context:   # a line of markers and spaces identifies nothing
        assert "own" in found


@settings(max_examples=200, deadline=None)
@given(SENTENCES, st.data())
def test_property_other_level_reveals_unmasked_words(words, data):
    """A word gap is revealed by the character line exactly when none of its characters is masked there
    (tokens drawn from five letters, so repeated letters test the alignment)."""
    text = " ".join(words)
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
    chosen = sorted(data.draw(st.sets(st.integers(0, len(words) - 1), min_size=1)))
    letters = [i for i, char in enumerate(text) if char != " "]
    hidden = data.draw(st.sets(st.sampled_from(letters), max_size=4))
    char_line = "".join(CHAR_MARKER if i in hidden else char for i, char in enumerate(text))
    shown = all(not hidden & set(range(starts[i], starts[i] + len(words[i]))) for i in chosen)
    revealed = other_level_reveals(mask_words(words, chosen), WORD_MARKER, [words[i] for i in chosen],
                                   char_line, CHAR_MARKER, "lat", "word")
    if shown:
        assert revealed
    # when a masked character lies in a gold word, another alignment may still show that word elsewhere
    # (`ab a[_]` for `ab ab`); it is never revealed when the masked characters are its only copy
    if not shown and len(set(text.replace(" ", ""))) == len(text.replace(" ", "")):
        assert not revealed


# ----------------------------------------------------------------------------- the sample

@pytest.fixture(scope="module")
def sample_builds(tmp_path_factory):
    """The sample's reference built with the remedy (default) and with --keep-recoverable-gaps."""
    out = str(tmp_path_factory.mktemp("remedy"))
    kept = str(tmp_path_factory.mktemp("kept"))
    return ((out, reference.build_all(SAMPLE, out, SAMPLE_GOLD)),
            (kept, reference.build_all(SAMPLE, kept, SAMPLE_GOLD, keep_recoverable=True)))


def public_lines(excluded):
    return {(task, lang): sorted(int(n) for n, reason in lines.items() if reason.startswith("gold recoverable"))
            for task, langs in excluded.items() for lang, lines in langs.items()
            if any(reason.startswith("gold recoverable") for reason in lines.values())}


def test_sample_overlap_is_found_and_not_scored(sample_builds):
    (out, build), _ = sample_builds
    excluded = load(os.path.join(out, "test", "excluded.json"))
    found = public_lines(excluded)
    for task in (WORD, CHAR):         # lat lines 0-5 are the morphology test sentences: every one with a gap
        rows = release.read_tsv(release.find(SAMPLE, task.folder, "test", "lat"))
        with_gaps = [n for n, (masked, _) in enumerate(rows[:6]) if task.mask_marker in masked]
        assert with_gaps and set(with_gaps) <= set(found[(task.folder, "lat")]), task.folder
        reasons = {excluded[task.folder]["lat"][str(n)] for n in with_gaps}
        assert reasons == {PUBLIC_REASON % "morphology/test/lat_test.conllu"}
    for task, other in ((WORD, "fill_mask_char"), (CHAR, "fill_mask_word")):   # sga: the other level's line
        lines = found[(task.folder, "sga")]
        assert lines and max(lines) < 6
        assert {excluded[task.folder]["sga"][str(n)] for n in lines} == {
            PUBLIC_REASON % ("%s/test/sga_test.tsv" % other)}
    assert not public_lines(load(os.path.join(out, "dev", "excluded.json")))     # dev gold is public anyway
    for lang in ("chu", "ghc", "lzh", "mga"):                                      # lines of their own
        assert ("fill_mask_word", lang) not in found and ("fill_mask_char", lang) not in found
    # the reference carries the exclusion the scorer and the validator read
    for (task, lang), lines in found.items():
        data = load(os.path.join(out, "test", task, lang + ".json"))
        for number in lines:
            assert data[number]["masked_tokens"] is None and data[number]["excluded"].startswith("gold recoverable")
    assert not any(stats.dropped for stats in build.stats.values())
    assert not os.path.exists(os.path.join(out, "test", "dropped.json"))
    assert any("gives away test gap-filling gold" in warning for warning in build.warnings)


def test_sample_remedy_changes_only_the_recoverable_sentences(sample_builds):
    (out, build), (kept, kept_build) = sample_builds
    assert not public_lines(load(os.path.join(kept, "test", "excluded.json")))
    assert any("SCORED ANYWAY" in warning for warning in kept_build.warnings)
    found = public_lines(load(os.path.join(out, "test", "excluded.json")))
    for task in (WORD, CHAR):
        for lang in task.languages:
            with_remedy = load(os.path.join(out, "test", task.folder, lang + ".json"))
            without = load(os.path.join(kept, "test", task.folder, lang + ".json"))
            lines = set(found.get((task.folder, lang), ()))
            assert len(with_remedy) == len(without)
            for number, (a, b) in enumerate(zip(with_remedy, without)):
                assert (a == b) != (number in lines), (task.folder, lang, number)
            stats = build.stats[(task.folder, lang, "test")]
            assert stats.scored == stats.gapped - len(lines) and stats.scored > 0


def perfect_submission(folder, gold_dir):
    """Predictions equal to the gold of every test fill-mask sentence (recoverable ones included)."""
    for task in (WORD, CHAR):
        for lang in task.languages:
            rows, derived = reference.derive_fill_mask(gold_dir, task.folder, "test", lang)
            entries = [{"masked": masked, "text": "", "masked_tokens": [[g] for g in (item.golds or [])]}
                       for (masked, _), item in zip(rows, derived)]
            path = os.path.join(folder, task.folder, lang + ".json")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(entries, handle, ensure_ascii=False)


def test_sample_scores_of_the_other_sentences_unaffected(sample_builds, tmp_path):
    """A perfect submission scores 1 on the sentences left; a wrong answer on an unscored one changes nothing."""
    from evalkit import scoring
    (out, build), (kept, _) = sample_builds
    submission = str(tmp_path / "sub")
    perfect_submission(submission, SAMPLE_GOLD)
    found = public_lines(load(os.path.join(out, "test", "excluded.json")))
    (task, lang), lines = sorted(found.items())[0]
    path = os.path.join(submission, task, lang + ".json")
    entries = load(path)
    for number in lines:
        entries[number]["masked_tokens"] = [["wrong"]] * len(entries[number]["masked_tokens"])
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(entries, handle, ensure_ascii=False)

    def scored_entries(ref):
        report = scoring.evaluate(st2024, os.path.join(ref, "test"), submission)
        return {(e["task"], e["lang"]): e for e in report["entries"]}

    remedy, keep = scored_entries(out), scored_entries(kept)
    for (t, l), entry in remedy.items():
        if not t.startswith("fill_mask"):
            continue
        stats = build.stats[(t, l, "test")]
        assert entry["score"] == 1.0 and entry["scored_sentences"] == stats.scored, (t, l)
        assert keep[(t, l)]["scored_sentences"] == stats.gapped
    assert keep[(task, lang)]["score"] < 1.0         # kept: the wrong answers count


def test_sample_validator_skips_the_unscored_sentences(sample_builds, tmp_path):
    """The starting kit's validator reads test/excluded.json: a malformed answer to an unscored sentence
    gets no message, the same answer to a scored one does."""
    from conftest import load_by_path
    validate = load_by_path("validate_public_gold", os.path.join(ROOT, "starting_kit", "validate.py"))
    (out, _), _ = sample_builds
    excluded = os.path.join(out, "test", "excluded.json")
    (task, lang), lines = sorted(public_lines(load(excluded)).items())[0]
    rows = release.read_tsv(release.find(SAMPLE, task, "test", lang))
    marker = TASKS[task].mask_marker
    scored = [n for n, (masked, _) in enumerate(rows) if marker in masked and n not in lines]

    def errors(broken):
        submission = str(tmp_path / ("sub%d" % broken))
        os.makedirs(os.path.join(submission, task))
        entries = [{"masked": masked, "text": "", "masked_tokens": [["x"]] * masked.count(marker)}
                   for masked, _ in rows]
        entries[broken]["masked_tokens"] = []          # wrong number of candidate lists
        with open(os.path.join(submission, task, lang + ".json"), "w", encoding="utf-8") as handle:
            json.dump(entries, handle, ensure_ascii=False)
        messages, _, _, _ = validate.validate(submission, SAMPLE, "test", excluded=excluded)
        return [m for m in messages if m["file"] == "%s/%s.json" % (task, lang) and m["severity"] == "error"]

    assert errors(lines[0]) == []
    assert [m["where"].split(" (")[0] for m in errors(scored[0])] == ["sentence %d" % (scored[0] + 1)]


def test_a_file_with_nothing_left_is_dropped_loudly(tmp_path):
    """When every test sentence of a file is recoverable (here: its gold sentences published as a train
    file), the file is not written, excluded.json lists every sentence, and the build and report say so."""
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, str(data), ignore=shutil.ignore_patterns("test_gold", "*.py", "*.md"))
    shutil.copyfile(release.find(SAMPLE_GOLD, "fill_mask_word", "test", "chu"),
                    str(data / "fill_mask_word" / "train" / "chu_train.tsv"))
    out, report = str(tmp_path / "ref"), str(tmp_path / "dq.md")
    assert reference.main(["--data", str(data), "--test-gold", SAMPLE_GOLD, "--out", out, "--report", report]) == 0
    assert not os.path.exists(os.path.join(out, "test", "fill_mask_word", "chu.json"))
    assert os.path.isfile(os.path.join(out, "dev", "fill_mask_word", "chu.json"))
    assert os.path.isfile(os.path.join(out, "test", "fill_mask_char", "chu.json"))
    rows = release.read_tsv(release.find(SAMPLE, "fill_mask_word", "test", "chu"))
    excluded = load(os.path.join(out, "test", "excluded.json"))["fill_mask_word"]["chu"]
    assert sorted(map(int, excluded)) == [n for n, (masked, _) in enumerate(rows) if WORD_MARKER in masked]
    assert set(excluded.values()) == {PUBLIC_REASON % "fill_mask_word/train/chu_train.tsv"}
    assert load(os.path.join(out, "test", "dropped.json")) == {
        "fill_mask_word/chu.json": "no sentence left to score: the gold of every test sentence with a gap is in "
                                   "public files"}
    assert not os.path.exists(os.path.join(out, "dev", "dropped.json"))
    from evalkit import scoring        # the scorer ignores the file it no longer has, and dropped.json
    submission = str(tmp_path / "sub")
    perfect_submission(submission, SAMPLE_GOLD)
    result = scoring.evaluate(st2024, os.path.join(out, "test"), submission)
    assert ("fill_mask_word", "chu") not in {(e["task"], e["lang"]) for e in result["entries"]}
    from evalkit import keys
    assert keys.entry_key("chu", WORD) not in result["scores"] and keys.entry_key("chu", CHAR) in result["scores"]
    assert [m["severity"] for m in result["messages"] if m["file"] == "fill_mask_word/chu.json"] == ["info"]
    text = open(report, encoding="utf-8").read()
    assert "NO SENTENCE LEFT: file not written, column empty" in text
    assert "| fill_mask_word | chu |" in text


def test_report_states_the_remedy_and_its_effect(sample_builds, tmp_path):
    (_, build), (_, kept_build) = sample_builds
    path = str(tmp_path / "dq.md")
    reference.write_report(build, path)
    text = open(path, encoding="utf-8").read()
    section = text.split("## Test gold in public files", 1)[1].split("\n## ", 1)[0]
    assert "**Remedy: the recoverable sentences are not scored**" in section
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| fill_mask")]
    assert len(rows) == 2 * len(st2024.LANGUAGES)
    lat = next(row for row in rows if row[0] == "| fill_mask_char" and row[1] == "lat")
    stats = build.stats[("fill_mask_char", "lat", "test")]
    assert lat[2:4] == [str(stats.gapped), str(len(stats.public))] and lat[8] == str(stats.scored)
    effect = sum(s.scored for s in build.stats.values() if s.public is not None)
    assert "; %d are scored." % effect in section
    reference.write_report(kept_build, path)
    assert "Remedy: none (`--keep-recoverable-gaps`)" in open(path, encoding="utf-8").read()
    dev_only = reference.Build(SAMPLE, None)
    assert reference.public_gold_lines(dev_only) == ["Not measured: no test phase was built (no test gold)."]


# ----------------------------------------------------------------------------- the real release

# Measured on ../shared/st2024 (valid gold; the valid CoNLL-U stands for the test input): masked valid
# sentences whose gold public files reveal / sentences with a gap and a derived gold, and how many of them
# the other level's valid lines reveal (the same line, or a line of the split without any marker: a whole
# sentence that another line masks).
VALID = {("fill_mask_word", "fro"): (346, 346, 261), ("fill_mask_char", "fro"): (379, 379, 184),
         ("fill_mask_word", "got"): (385, 385, 290), ("fill_mask_char", "got"): (526, 526, 302),
         ("fill_mask_word", "sga"): (522, 724, 522), ("fill_mask_char", "sga"): (677, 1092, 677)}


@needs_shared
@pytest.mark.parametrize("task,lang", sorted(VALID))
def test_shared_valid_gold_recoverable_from_public_files(task, lang):
    rows, derived = reference.derive_fill_mask(SHARED, task, "valid", lang)
    found = public_gold(SHARED, "valid", TASKS[task], lang, rows, derived)
    gapped = sum(1 for (masked, _), item in zip(rows, derived) if item.golds and TASKS[task].mask_marker in masked)
    other = "fill_mask_%s/valid/" % ("char" if task == "fill_mask_word" else "word")
    assert (len(found), gapped, sum(1 for files in found.values() if any(f.startswith(other) for f in files))) \
        == VALID[(task, lang)]


# Measured on ../shared/st2024 test (no gold needed): of the first 200 test sentences with a gap, how many
# a public CoNLL-U sentence fits (the masked line read from it), per fill-mask task.
TEST_FIRST_200 = {"chu": 200, "got": 200, "lat": 200, "orv": 200, "grc": 200, "fro": 200}


@needs_shared
@pytest.mark.parametrize("lang", sorted(TEST_FIRST_200))
def test_shared_masked_test_lines_fit_the_public_conllu(lang):
    conllu = [s for s in reference.public_sentences(SHARED, lang, "test") if s.file.startswith("morphology/")]
    for task in (WORD, CHAR):
        rows = release.read_tsv(release.find(SHARED, task.folder, "test", lang))
        masked = [line for line, _ in rows if task.mask_marker in line][:200]
        index = index_of(task, conllu, lang)
        hits = collections.Counter(tuple(index.reveal(line)[:1]) for line in masked)
        assert sum(n for files, n in hits.items() if files) == TEST_FIRST_200[lang], (task.folder, hits)
        assert set(files for files in hits if files) == {("morphology/test/%s_test.conllu" % lang,)}
