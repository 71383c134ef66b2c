"""SpanglishEval set builder and baselines: determinism, the paper's filters, the statistics, on a synthetic
dataset written here; the baselines' order on the real data (skipped when ../shared/spanglisheval is absent)."""
import io
import json
import os
import random

import pytest

from conftest import ROOT
from competitions.spanglisheval import alternatives, baselines, build, resources, statistics
from evalkit import choice

SHARED = os.environ.get("SPANGLISHEVAL_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "spanglisheval"))
needs_shared = pytest.mark.skipif(not os.path.isdir(SHARED), reason="no SpanglishEval data at %s" % SHARED)

LETTERS = {"B": "b", "V": "v", "D": "d", "T": "t", "M": "m", "N": "n", "S": "s", "Z": "z", "K": "k", "G": "g",
           "AA": "a", "EY": "e", "IY": "i", "OW": "o", "UW": "u"}
CONSONANTS = ["B", "V", "D", "T", "M", "N", "S", "Z", "K"]
VOWELS = ["AA", "EY", "IY", "OW", "UW"]
SUBS = {"B": ["V"], "V": ["B"], "D": ["T"], "T": ["D"], "S": ["Z"], "Z": ["S"], "AA": ["EY"], "EY": ["AA"],
        "OW": ["UW"], "UW": ["OW"], "M": ["N"], "N": ["M"]}


def spell(phones):
    """The synthetic spelling of a phone sequence."""
    return "".join(LETTERS[p] for p in phones)


def lexicon(rng, lang):
    """{spelling: phones}: every CV syllable, 80 CVCV words, and (English only) the word 'gggg'."""
    words = {}
    for c in CONSONANTS:
        for v in VOWELS:
            words[spell([c, v])] = [c, v]
    while len(words) < 45 + 80:
        phones = [rng.choice(CONSONANTS), rng.choice(VOWELS), rng.choice(CONSONANTS), rng.choice(VOWELS)]
        words[spell(phones)] = phones
    if lang == "en":
        words["gggg"] = ["G", "G", "G", "G"]
    return words


def write_dataset(folder, lines_per_split=70):
    """A synthetic SpanglishEval folder (dictionaries, counts, mappings, tagged gold lines)."""
    rng = random.Random(7)
    for sub in ("generation_resources", "mappings", "bangor_raw"):
        os.makedirs(os.path.join(folder, sub))
    lexicons = {lang: lexicon(rng, lang) for lang in ("en", "sp")}
    with io.open(os.path.join(folder, "generation_resources", "dict_en"), "w", encoding="utf-8") as handle:
        for word, phones in sorted(lexicons["en"].items()):
            handle.write("%s\t%s\r\n" % (word.upper(), " ".join(phones)))
    with io.open(os.path.join(folder, "generation_resources", "dict_sp"), "w", encoding="utf-8") as handle:
        for word, phones in sorted(lexicons["sp"].items()):
            variant = ["B" if p == "V" else p for p in phones]
            handle.write("%s\t%s\n" % (word, "\t".join(sorted({" ".join(phones), " ".join(variant)}))))
    for lang in ("en", "sp"):
        with io.open(os.path.join(folder, "generation_resources", "probs_%s.txt" % lang), "w",
                     encoding="utf-8") as handle:
            for word in sorted(lexicons[lang]):
                handle.write("%s\t%d\n" % (word.upper(), rng.randint(1, 10000)))
    with io.open(os.path.join(folder, "mappings", "mappings.json"), "w", encoding="utf-8") as handle:
        json.dump({"map_phones_l1": {}, "map_phones_l2": {}}, handle)
    with io.open(os.path.join(folder, "mappings", "mappings_subs.json"), "w", encoding="utf-8") as handle:
        json.dump({"all_phones": sorted(LETTERS), "subs_mapping": SUBS}, handle)
    vocab = {lang: sorted(w for w in lexicons[lang] if w != "gggg") for lang in ("en", "sp")}
    for split in ("train", "dev", "test"):
        with io.open(os.path.join(folder, "bangor_raw", "bangor_%s_gold" % split), "w", encoding="utf-8") as handle:
            for number in range(lines_per_split):
                handle.write(synthetic_line(rng, vocab, number) + "\n")
    return lexicons


def synthetic_line(rng, vocab, number):
    """One tagged line: mostly monolingual, every third code-switched, some short, some out of vocabulary."""
    kind = number % 10
    if kind == 0:
        return "%s__en %s__en ." % (rng.choice(vocab["en"]), rng.choice(vocab["en"]))       # too short
    if kind == 1:
        return "%s__sp xyzzy__sp %s__sp ." % (rng.choice(vocab["sp"]), rng.choice(vocab["sp"]))  # OOV
    length = rng.randint(3, 6)
    if kind in (2, 5, 8):
        langs = ["en"] * (length - 1) + ["sp"]
        rng.shuffle(langs)
    else:
        langs = [rng.choice(["en", "sp"])] * length
    words = ["%s__%s" % (rng.choice(vocab[lang]), lang) for lang in langs]
    return " ".join(words) + rng.choice([" .", " ?", ""])


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """Path of the synthetic dataset."""
    folder = str(tmp_path_factory.mktemp("spanglisheval") / "data")
    write_dataset(folder)
    return folder


@pytest.fixture(scope="module")
def built(dataset, tmp_path_factory):
    """(output folder, build result) of a small build of the synthetic dataset."""
    out = str(tmp_path_factory.mktemp("sets"))
    return out, build.build(dataset, out, quotas={"cs": 5, "mono": 15}, jobs=1)


def tree_bytes(folder):
    """{relative path: bytes} of every file under ``folder``."""
    files = {}
    for here, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(here, name)
            with open(path, "rb") as handle:
                files[os.path.relpath(path, folder)] = handle.read()
    return files


def read_records(out, split):
    """The reference records written for a split."""
    with io.open(os.path.join(out, split, "reference.jsonl"), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_two_builds_are_byte_identical_whatever_the_number_of_processes(dataset, built, tmp_path):
    again = str(tmp_path / "again")
    build.build(dataset, again, quotas={"cs": 5, "mono": 15}, jobs=2)
    first, second = tree_bytes(built[0]), tree_bytes(again)
    assert sorted(first) == ["dev/reference.jsonl", "dev/sets.jsonl", "statistics.json", "statistics.md",
                             "test/reference.jsonl", "test/sets.jsonl"]
    assert first == second


def test_another_seed_gives_other_sets(dataset, built, tmp_path):
    other = str(tmp_path / "other")
    build.build(dataset, other, seed="another", quotas={"cs": 5, "mono": 15}, jobs=1, splits=("dev",))
    assert tree_bytes(other)["dev/sets.jsonl"] != tree_bytes(built[0])["dev/sets.jsonl"]


def test_quotas_filters_and_types_hold_in_every_set(dataset, built):
    out, result = built
    for split in ("dev", "test"):
        records = read_records(out, split)
        with io.open(build.gold_path(dataset, split), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        assert sum(r["gold_type"] == "cs" for r in records) == 5
        assert sum(r["gold_type"] != "cs" for r in records) == 15
        for record in records:
            gold = alternatives.Gold(lines[record["line"] - 1])
            assert len(gold.words) >= 3                              # 3 words or more, punctuation excluded
            assert "xyzzy" not in record["sentences"][record["gold"]]
            assert record["sentences"][record["gold"]] == gold.text()
            assert record["types"].count("gold") == 1 and record["types"][record["gold"]] == "gold"
            assert len(set(record["sentences"])) == len(record["sentences"])
            for kind in ("cs", "en", "sp"):
                assert 5 <= record["types"].count(kind) <= 10
            assert len(record["sentences"]) == len(record["types"])
            for sentence, kind in zip(record["sentences"], record["types"]):
                langs = set(t.rpartition("__")[2] for t in sentence.split() if "__" in t)
                assert langs == ({"en", "sp"} if kind == "cs" else {kind} if kind != "gold" else langs)
        funnel = result[split][1]
        assert funnel["short"] > 0 and funnel["oov"] > 0
        assert funnel["visited"] == funnel["short"] + funnel["oov"] + funnel["few"] + funnel["ok"]
        assert funnel["ok"] == 20


def test_examine_applies_each_filter(dataset):
    examine = lambda line: build.examine((dataset, "s", "dev", 0, line))[1][0]  # noqa: E731
    assert examine("ba__en be__en .") == "short"
    assert examine("ba__en , be__en !") == "short"                # punctuation is not a word
    assert examine("ba__en xyzzy__en be__en .") == "oov"
    assert examine("gggg__en ba__en be__en .") == "few"           # no Spanish decoding of G G G G
    assert examine("ba__en be__en bi__sp bo__en .") == "ok"


def test_heuristic_prefers_more_words_of_the_less_dominant_language():
    segment = ("BA__en", "BE__en", "BI__sp")
    more_spanish = ("BA__sp", "BE__sp", "BI__en")
    same_mix = ("BO__en", "BU__en", "BI__sp")
    assert alternatives.heuristic(segment, more_spanish) > alternatives.heuristic(segment, same_mix)
    assert alternatives.overlap(segment, segment) == 2.0
    assert alternatives.overlap(segment, ("XX__en",)) == 0.0


def test_statistics_equal_a_recount_of_the_written_sets(built):
    out, _ = built
    with io.open(os.path.join(out, "statistics.json"), encoding="utf-8") as handle:
        written = json.load(handle)
    for split in ("dev", "test"):
        records = read_records(out, split)
        stats = written["splits"][split]["statistics"]
        assert stats["sets"] == len(records) == 20
        assert stats["gold_cs"] + stats["gold_en"] + stats["gold_sp"] == 20
        for kind in ("cs", "en", "sp"):
            assert stats["alt_" + kind] == sum(r["types"].count(kind) for r in records)
        sizes = [len(r["sentences"]) for r in records]
        assert stats["sentences"] == sum(sizes)
        assert stats["random_accuracy"] == pytest.approx(sum(1.0 / s for s in sizes) / len(sizes))
    with io.open(os.path.join(out, "statistics.md"), encoding="utf-8") as handle:
        text = handle.read()
    assert "| sets with a code-switched gold | 5 | 5 | 250 |" in text


def test_split_statistics_by_hand():
    records = [{"sentences": ["a__en b__en c__en .", "x", "y"], "gold": 0, "gold_type": "en",
                "types": ["gold", "cs", "sp"]},
               {"sentences": ["p", "q__sp r__en"], "gold": 1, "gold_type": "cs", "types": ["en", "gold"]}]
    stats = statistics.split_statistics(records)
    assert (stats["gold_en"], stats["gold_cs"], stats["alt_cs"], stats["alt_en"], stats["sentences"]) == (1, 1, 1, 1, 5)
    assert stats["gold_words_mean"] == 2.5
    assert stats["random_accuracy"] == pytest.approx((1 / 3 + 1 / 2) / 2)


def test_missing_resource_is_a_located_error(tmp_path):
    assert build.main(["--data", str(tmp_path), "--out", str(tmp_path / "out")]) == 2


def test_phone_changes_follow_the_recipe():
    changes = resources.PhoneChanges({"B": ["P", "V"], "Y": [""]}, ["B", "Y", "K"])
    keep, subs, drop = changes.options("B")
    assert [p for p, _ in subs] == ["P", "V"] and drop > subs[0][1] > keep
    assert changes.options("Y")[1] == () and changes.options("Y")[2] < changes.options("K")[2]


def test_baselines_order_on_synthetic_sets(dataset, built):
    out, _ = built
    scored = baselines.run(dataset, out, "dev")
    assert scored["constant"]["accuracy"] == pytest.approx(
        statistics.split_statistics(read_records(out, "dev"))["random_accuracy"])


@needs_shared
def test_real_subset_builds_byte_identical(tmp_path):
    options = dict(quotas={"cs": 3, "mono": 9}, limit=600, splits=("dev",))
    build.build(SHARED, str(tmp_path / "a"), jobs=1, **options)
    build.build(SHARED, str(tmp_path / "b"), jobs=2, **options)
    assert tree_bytes(str(tmp_path / "a")) == tree_bytes(str(tmp_path / "b"))


@needs_shared
def test_baselines_are_ordered_random_unigram_ngram_on_dev(tmp_path):
    out = str(tmp_path)
    build.build(SHARED, out, quotas={"cs": 100, "mono": 300}, jobs=2, splits=("dev",))
    reference = read_records(out, "dev")
    scored = baselines.run(SHARED, out, "dev")
    random_expected = choice.accuracy([1.0 / len(r["sentences"]) for r in reference])
    assert scored["constant"]["accuracy"] == pytest.approx(random_expected)
    assert random_expected < scored["unigram"]["accuracy"] < scored["kneser_ney_3"]["accuracy"]
    assert scored["kneser_ney_3"]["wer"] < scored["unigram"]["wer"] < scored["constant"]["wer"]


def test_docstring_examples_run():
    import doctest
    from competitions.spanglisheval import decoder
    for module in (decoder, baselines):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


def test_a_malformed_counts_line_is_located(dataset, tmp_path, capsys):
    import shutil
    broken = str(tmp_path / "broken")
    shutil.copytree(dataset, broken)
    with io.open(os.path.join(broken, "generation_resources", "probs_sp.txt"), "a", encoding="utf-8") as handle:
        handle.write("NOCOUNT\n")
    assert build.main(["--data", broken, "--out", str(tmp_path / "out"), "--jobs", "1"]) == 2
    error = capsys.readouterr().err
    assert "probs_sp.txt, line 126: expected WORD<TAB>count, got 'NOCOUNT'" in error
