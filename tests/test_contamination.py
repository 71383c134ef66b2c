"""The contamination audit (organiser/contamination.py, organiser/public_text.py; issue 30): test items planted in
public data are found, exactly and one word apart, with and without their gold; the threshold and its
acknowledgement; the readers; the samples of every competition; the ranking on the items found nowhere public."""
import json
import os
import random
import types

import pytest

from conftest import ROOT
from evalkit import items as items_module
from evalkit.declare import JsonTask
from organiser import contamination, pages, public_text, split

TAGS = ("NOUN", "VERB", "ADJ", "ADV", "PRON", "DET")


def synthetic_declaration():
    """A competition of one tagging task over one language, declared in the test (no folder of its own)."""
    decl = types.ModuleType("synthcomp")
    decl.COMPETITION_ID = "synthcomp"
    decl.TITLE = "Synthetic competition"
    decl.LANGUAGES = {"xx": ("Synthetic",)}
    decl.TASKS = [JsonTask("pos", "POS", "tagging", ("acc", "f1"), ["xx"], labels=TAGS)]
    return decl


def schedule_file(folder, acknowledged=None, max_share=None, min_items=1):
    """A schedule whose test_feedback holds a contamination policy (``min_items`` None: the default)."""
    lines = ["phases:", "  dev: {opens: \"2026-01-01 00:00\", closes: \"2026-02-01 00:00\"}",
             "results_notification: \"2026-03-01 00:00\"", "test_feedback:", "  mode: public_private",
             "  contamination:"]
    for key, value in (("max_share", max_share), ("min_items", min_items), ("acknowledged", acknowledged)):
        if value is not None:
            lines.append("    %s: %s" % (key, json.dumps(value)))
    if lines[-1] == "  contamination:":
        lines.pop()
    path = os.path.join(str(folder), "schedule-%s-%s-%s.yaml" % (max_share, min_items, len(acknowledged or [])))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


class Planted(object):
    """A synthetic competition's test gold split in two parts, and public files holding copies of some of its private
    items: ``copies[name] = (index, how, with gold)`` of the items planted."""

    def __init__(self, root):
        self.root = str(root)
        self.decl = synthetic_declaration()
        self.task = self.decl.TASKS[0]
        rng = random.Random(7)
        vocabulary = ["w%03d%s" % (i, "abcdefgh"[i % 8]) for i in range(400)]
        lengths = [3, 8, 8, 8, 8, 20, 20, 20] * 4
        self.items = [[[rng.choice(vocabulary), rng.choice(TAGS)] for _ in range(n)] for n in lengths]
        full = os.path.join(self.root, "full")
        os.makedirs(os.path.join(full, "pos"))
        with open(os.path.join(full, "pos", "xx.json"), "w", encoding="utf-8") as handle:
            json.dump(self.items, handle)
        self.reference = os.path.join(self.root, "ref")
        manifests = split.split_phase(full, self.decl, "public_private", 0.25, "seed", os.path.join(
            self.reference, "test"), os.path.join(self.reference, "private", "test"))
        self.private = manifests["private"]["files"]["pos/xx.json"]["indices"]
        self.public = os.path.join(self.root, "public")
        os.makedirs(self.public)
        self.planted = {}

    def of_length(self, length, skip=()):
        """A private item of ``length`` words not yet planted."""
        return next(i for i in self.private if len(self.items[i]) == length and i not in self.planted and i not in skip)

    def conllu(self, name, planted):
        """A CoNLL-U public file of ``planted``: ``[(index, rows, how, with gold)]``."""
        lines = []
        for index, rows, how, gold in planted:
            self.planted[index] = (how, gold)
            lines += ["# sent_id = copy-%d" % index] + ["%d\t%s\t_\t%s\t_\t_\t0\tdep\t_\t_" % (n + 1, form, tag)
                                                        for n, (form, tag) in enumerate(rows)] + [""]
        with open(os.path.join(self.public, name), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")

    def text(self, name, planted):
        """A plain text public file, one copy a line (no gold: plain text holds no tags)."""
        for index, _, how, gold in planted:
            self.planted[index] = (how, gold)
        with open(os.path.join(self.public, name), "w", encoding="utf-8") as handle:
            handle.write("Some unrelated line here.\n" + "".join(" ".join(form for form, _ in rows) + "\n"
                                                               for _, rows, _, _ in planted))


def other_tag(tag):
    return TAGS[(TAGS.index(tag) + 1) % len(TAGS)]


def changed(rows, position):
    """``rows`` with the word at ``position`` changed."""
    return [[form + "x" if n == position else form, tag] for n, (form, tag) in enumerate(rows)]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """Private items planted in a public folder: exact with and without gold, one word apart with and without gold,
    a long item with one word changed (near copy, 13-grams), a short one as a whole sentence."""
    p = Planted(tmp_path_factory.mktemp("planted"))
    exact_gold, exact_other, apart_gold, short = (p.of_length(8), None, None, p.of_length(3))
    exact_other = p.of_length(8, (exact_gold,))
    apart_gold = p.of_length(8, (exact_gold, exact_other))
    p.conllu("corpus.conllu", [
        (exact_gold, p.items[exact_gold], "exact copy", True),
        (exact_other, [[form, other_tag(tag)] for form, tag in p.items[exact_other]], "exact copy", False),
        (apart_gold, changed(p.items[apart_gold], 2), "one word apart", True),
        (short, p.items[short], "exact copy", True)])
    apart_text = p.of_length(8, (exact_gold, exact_other, apart_gold))
    near = p.of_length(20)
    p.text("corpus.txt", [(apart_text, changed(p.items[apart_text], 5), "one word apart", False),
                          (near, changed(p.items[near], 1), "near copy", False)])
    return p


def run_audit(p, public=True, schedule=None):
    hosted = types.SimpleNamespace(cid="synthcomp", declaration=p.decl, schedule=schedule or schedule_file(p.root),
                                   starting_kit=os.path.join(p.root, "no-kit"), top_level=False)
    return contamination.Audit(hosted, p.reference, None, None, None, [p.public] if public else []).run()


def test_planted_items_are_found_as_planted_with_and_without_their_gold(planted):
    audit = run_audit(planted)
    by_index = dict((t.index, t) for t in audit.gold.targets)
    for index, (how, gold) in planted.planted.items():
        target = by_index[index]
        assert target.found(), (index, how)
        assert target.how().startswith(how), (index, target.how(), how)
        assert target.gold_found() is gold, (index, how, gold)
    unplanted = [t for t in audit.gold.targets if t.index not in planted.planted and t.part == "private"]
    assert unplanted and not any(t.found() for t in unplanted)
    near = next(t for t in by_index.values() if t.how().startswith("near copy"))
    assert near.how() == "near copy (6 of 8 13-grams)"   # its second word of 20 changed: the 13-grams after it


def test_the_report_counts_what_was_planted_and_the_threshold_fails(planted):
    audit = run_audit(planted)
    row = audit.files["pos/xx.json"]
    gold = sorted(i for i, (_, g) in planted.planted.items() if g)
    assert row["gold"] == gold and row["found"] == sorted(planted.planted)
    assert (row["exact"], row["near"], row["apart"]) == (3, 1, 2)
    assert row["short_gold"] == 1                # the 3-word item: found, never counted
    assert row["private_gold"] == 2 and row["counted"] == len([i for i in planted.private
                                                                if len(planted.items[i]) >= 5])
    assert audit.failures and audit.failures[0][0] == "pos/xx.json"
    text = dict(audit.failure_texts())["pos/xx.json"]
    assert "(2 of %d)" % row["counted"] in text and "acknowledge it in" in text
    assert "corpus.conllu" in "\n".join(audit.lines())


def test_an_acknowledged_file_passes_and_the_pages_say_it(planted):
    for acknowledged in (["xx"], ["pos/xx"], ["pos/xx.json"]):
        audit = run_audit(planted, schedule=schedule_file(planted.root, acknowledged))
        assert not audit.failures
        sentence = contamination.page_sentence(audit.summary())
        assert "pos/xx (" in sentence and "public" in sentence
    audit = run_audit(planted, schedule=schedule_file(planted.root, max_share=0.9))
    assert not audit.failures and contamination.page_sentence(audit.summary()) == ""
    audit = run_audit(planted, schedule=schedule_file(planted.root, min_items=None))   # the default: 3 items
    assert audit.files["pos/xx.json"]["private_gold"] == 2 and not audit.failures
    assert contamination.page_sentence(run_audit(planted).summary()) == ""   # over, not acknowledged: check fails


def test_without_the_public_corpus_nothing_is_found(planted):
    audit = run_audit(planted, public=False)
    assert not any(t.found() for t in audit.gold.targets) and not audit.failures


def test_the_uploaded_public_part_is_searched_but_not_as_a_copy_of_itself(planted):
    audit = run_audit(planted, public=False)
    assert audit.sources.searched.get(contamination.PUBLIC_PART) == 1
    public = [t for t in audit.gold.targets if t.part == "public"]
    assert public and not any(t.found() for t in public)


def write_parts(p, public):
    """The test gold of ``p`` split by hand into ``public`` (indices) and the rest, each part's folder with its
    split.json: a split that keeps a near copy apart from its original (organiser/split.py joins them; an older draw
    did not)."""
    from evalkit import split as evalkit_split
    items_of = items_module.PairItems()
    private = [i for i in range(len(p.items)) if i not in public]
    for part, scored in (("public", sorted(public)), ("private", private)):
        folder = os.path.join(p.reference, "test") if part == "public" else os.path.join(p.reference, "private", "test")
        rows = [item if i in scored else items_of.redact(item, p.task) for i, item in enumerate(p.items)]
        os.makedirs(os.path.join(folder, "pos"), exist_ok=True)
        with open(os.path.join(folder, "pos", "xx.json"), "wb") as handle:
            handle.write(items_of.write(rows, b""))
        with open(os.path.join(folder, evalkit_split.SPLIT_FILE), "w", encoding="utf-8") as handle:
            handle.write(evalkit_split.dumps({"mode": "public_private", "unit": "sentences", "part": part,
                                              "public_fraction": 0.25, "seed_digest": "0" * 12, "files": {
                                                  "pos/xx.json": {"items": len(p.items), "scored": len(scored),
                                                                  "indices": scored}}}))


def test_a_private_item_one_word_from_a_public_one_straddles_the_split(tmp_path):
    p = Planted(tmp_path)
    public_index, private_index = [i for i in range(len(p.items)) if len(p.items[i]) == 8][:2]
    p.items[private_index] = [list(row) for row in p.items[public_index]]
    p.items[private_index][3][0] += "y"   # one word apart from the public item, same tags
    write_parts(p, [public_index])
    audit = run_audit(p, public=False)
    target = next(t for t in audit.gold.targets if t.index == private_index)
    assert target.how() == "one word apart" and target.gold_found() is True
    row = audit.files["pos/xx.json"]
    assert row["in_public_part"] == 1 and row["one_apart"] == 2 and row["straddling"] == 1


# --------------------------------------------------------------------------- the readers

def test_conllu_views_forms_multiword_tokens_and_text():
    data = ("# text = Vamos al mar.\n1\tVamos\tir\tVERB\t_\tMood=Ind\t0\troot\t_\t_\n"
            "2-3\tal\t_\t_\t_\t_\t_\t_\t_\t_\n2\ta\ta\tADP\t_\t_\t4\tcase\t_\t_\n"
            "3\tel\tel\tDET\t_\t_\t4\tdet\t_\t_\n4\tmar\tmar\tNOUN\t_\t_\t1\tobl\t_\t_\n"
            "5\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n").encode("utf-8")
    found = list(public_text.segments("a.conllu", data))
    forms = [s for s in found if s[5] == public_text.BOTH and s[2] is not None][0]
    assert forms[1] == ["vamos", "al", "a", "el", "mar"]
    assert forms[3](forms[2][0]) >= {"ir", "verb", "upos=verb", "mood=ind"}
    wild = [s for s in found if s[5] == public_text.WILD][0]
    assert wild[4] == [False, False, True, True, False]
    assert [s[1] for s in found if s[2] is None] == [["vamos", "al", "mar"]]


def test_tab_separated_plain_json_and_anafora_files():
    tsv = list(public_text.segments("t.conll", "# sent_enum = 1\tpositive\nhola\tlang2\nworld\tlang1\n\n".encode()))
    block = [s for s in tsv if s[0][0] == "block"][0]
    assert block[1] == ["hola", "world"] and block[3](block[2][0]) >= {"lang2", "positive"}
    plain = list(public_text.segments("p.txt", "oh__en que__sp pasa__sp .\nsecond line\n".encode()))
    assert [(s[0][0], s[1]) for s in plain if s[5] == public_text.UNIT] == [("line", ["oh", "que", "pasa"]),
                                                                            ("line", ["second", "line"])]
    blocks = list(public_text.segments("b.txt", "# sent_enum = 1\nno\ntener\ncarro\n\n# sent_enum = 2\nsokea\nya\n"
                                                .encode()))
    assert [s[1] for s in blocks if s[0][0] == "block"] == [["no", "tener", "carro"], ["sokea", "ya"]]
    rows = list(public_text.segments("r.json", json.dumps([[["Ita", "ADV"], ["est", "AUX"]],
                                                      [{"Token": "est", "UPOS": "AUX", "Mood": "Ind"}]]).encode()))
    assert [s[1] for s in rows] == [["ita", "est"], ["est"]]
    assert rows[1][3](rows[1][2][0]) >= {"aux", "upos=aux", "mood=ind"}
    anafora = (b"<?xml version='1.0'?><data><annotations><entity><id>1@e</id><span>3,7</span><type>Year</type>"
               b"<properties><Value>1998</Value></properties></entity></annotations></data>")
    standoff = public_text.segments("d.xml", anafora)
    assert standoff[0][5] == public_text.STANDOFF and standoff[0][1] == ["year@3,7", "year@3,7|value=1998"]
    assert public_text.segments("x.bin", b"\x00\x01binary") is None


def test_zips_are_read_member_by_member():
    import io
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("inner/a.txt", "one two three\n")
    found = list(public_text.read("kit.zip", buffer.getvalue()))
    assert found[0][0] == "kit.zip!inner/a.txt" and list(found[0][1])[0][1] == ["one", "two", "three"]


def test_release_test_files_are_not_searched():
    assert contamination.is_test_file("morphology/test/got_test.conllu")
    assert contamination.is_test_file("lid_spaeng/test.conll")
    assert not contamination.is_test_file("test_te3_spans_only/doc/doc.xml")
    assert not contamination.is_test_file("bangor_raw/bangor_test_gold")
    assert not contamination.is_test_file("morphology/train/got_train.conllu")


# --------------------------------------------------------------------------- every kind's item side

def test_every_kind_gives_one_gold_tuple_per_word():
    """token_golds is as long as tokens for the built-in kinds' items (the search aligns them)."""
    task = types.SimpleNamespace(form_keys=("Token",))
    cases = [(items_module.PairItems(), [["Ita", "ADV"], ["est.", "AUX"]]),
             (items_module.MorphItems(), [{"Token": "Ita", "UPOS": "ADV"}, {"Token": "est", "UPOS": "AUX",
                                                                              "Mood": "Ind"}]),
             (items_module.BlockItems(False), ["hola\tlang2", "don't\tlang1"]),
             (items_module.BlockItems(True), ["# sent_enum = 1\tpositive", "hola", "world"])]
    for items_of, item in cases:
        words, golds = items_of.tokens(item, task), items_of.token_golds(item, task)
        assert len(words) == len(golds) and all(golds), (items_of, words, golds)
    assert items_module.MorphItems().token_golds(cases[1][1], task)[1] == ("Mood=Ind", "UPOS=AUX")
    assert items_module.FillMaskItems.words_are_gold and items_module.SetItems.words_are_gold
    document = {"name": "d", "text": "In 1998.", "xml": "<data><annotations><entity><id>1@e</id><span>3,7</span>"
                                                      "<type>Year</type><properties><Value>1998</Value>"
                                                      "</properties></entity></annotations></data>"}
    assert items_module.DocumentItems().gold_units(document, task) == ["Year@3,7"]
    assert items_module.DocumentItems(properties=True).gold_units(document, task) == ["Year@3,7|Value=1998"]


# --------------------------------------------------------------------------- the schedule

def test_the_schedule_declares_the_threshold(tmp_path):
    from evalkit.messages import DataError
    from organiser import schedule
    assert schedule.contamination(schedule_file(tmp_path, min_items=None)) == {"max_share": 0.05, "min_items": 3,
                                                                                "acknowledged": []}
    assert schedule.contamination(schedule_file(tmp_path, ["got"], 0.1, 2)) == {"max_share": 0.1, "min_items": 2,
                                                                                 "acknowledged": ["got"]}
    for bad, key, what in ((schedule_file(tmp_path, max_share=2), "max_share", "from 0 to 1"),
                           (schedule_file(tmp_path, min_items=0), "min_items", "1 or more")):
        with pytest.raises(DataError) as error:
            schedule.contamination(bad)
        assert key in str(error.value) and what in str(error.value)
    for path in [os.path.join(ROOT, "schedule.yaml")] + [os.path.join(ROOT, "competitions", cid, "schedule.yaml")
                                                         for cid in ("lince", "scate", "spanglisheval")]:
        assert schedule.contamination(path)["max_share"] == 0.05


def test_the_pages_name_acknowledged_files_only():
    report = {"state": "split", "files": {
        "pos/got.json": {"over": True, "acknowledged": True, "share": 1.0, "corpora": {"UD_Gothic-PROIEL": 300}},
        "pos/lat.json": {"over": True, "acknowledged": False, "share": 0.5, "corpora": {"the release": 3}},
        "pos/san.json": {"over": False, "acknowledged": True, "share": 0.01, "corpora": {}}}}
    sentence = contamination.page_sentence(report)
    assert "pos/got (100% of its ranked items)" in sentence and "UD_Gothic-PROIEL" in sentence
    assert "lat" not in sentence and "san" not in sentence
    assert contamination.page_sentence(report, names={"pos/lat.json"}) == ""
    assert contamination.page_sentence(dict(report, state="practice")) == ""
    context = types.SimpleNamespace(contamination=report, reference=None, test_state="real", present=None,
                                    hosted=types.SimpleNamespace(schedule=os.path.join(ROOT, "schedule.yaml")))
    assert "UD_Gothic-PROIEL" in pages.feedback_note(context)


# --------------------------------------------------------------------------- the ranking on the items found nowhere public

@pytest.fixture(scope="module")
def memorised(tmp_path_factory):
    """ST2024's sample test gold split as ``make`` splits it; two thirds of the private sentences of one POS file
    planted in a public CoNLL-U corpus with their gold; two teams: one that memorised the public copies (right on
    them and on the public part, wrong elsewhere), one that did not (wrong on them, right elsewhere)."""
    import shakeup_demo
    import zipfile
    from organiser import declarations, feedback
    work = str(tmp_path_factory.mktemp("memorised"))
    hosted = declarations.Hosted("st2024")
    full = shakeup_demo.full_gold("st2024", work)
    ref = os.path.join(work, "ref")
    manifests = split.split_phase(full, hosted, feedback.PUBLIC_PRIVATE, 0.3, shakeup_demo.SEED,
                                  os.path.join(ref, "test"), os.path.join(ref, "private", "test"))
    files = manifests["private"]["files"]
    name = max((n for n in files if n.startswith("pos_tagging/")), key=lambda n: files[n]["scored"])
    with open(os.path.join(full, *name.split("/")), encoding="utf-8") as handle:
        sentences = json.load(handle)
    private = files[name]["indices"]
    planted = set(private[:2 * len(private) // 3])
    os.makedirs(os.path.join(work, "corpus"))
    with open(os.path.join(work, "corpus", "copy.conllu"), "w", encoding="utf-8") as handle:
        for index in sorted(planted):
            handle.write("".join("%d\t%s\t_\t%s\t_\t_\t0\tdep\t_\t_\n" % (n + 1, form, tag)
                                 for n, (form, tag) in enumerate(sentences[index])) + "\n")
    audit = contamination.Audit(hosted, ref, None, None, None, [os.path.join(work, "corpus")]).run()
    report = os.path.join(work, "contamination.json")
    audit.write(work)
    teams = os.path.join(work, "teams")
    for team, right in (("memoriser", lambda i: i in planted or i not in private),
                        ("honest", lambda i: i not in planted)):
        prediction = [[[form, tag if right(i) else "X"] for form, tag in sentence]
                      for i, sentence in enumerate(sentences)]
        os.makedirs(os.path.join(teams, team))
        with zipfile.ZipFile(os.path.join(teams, team, "final.zip"), "w") as archive:
            archive.writestr(name, json.dumps(prediction))
    return work, ref, report, teams, name, planted


def rank(work, ref, teams, clean, out):
    from organiser.results import main as results_main
    argv = ["--competition", "st2024", "--reference", os.path.join(ref, "private", "test"), "--submissions", teams,
            "--no-baselines", "--resamples", "50", "--jobs", "1", "--out", os.path.join(work, out)]
    status = results_main(argv + (["--clean", clean] if clean else []))
    if status:
        return status, None
    with open(os.path.join(work, out, "results.json"), encoding="utf-8") as handle:
        return status, json.load(handle)


def test_the_memorised_items_are_found_and_left_out_of_the_clean_ranking(memorised):
    work, ref, report, teams, name, planted = memorised
    with open(os.path.join(ref, "private", "test", "split.json"), encoding="utf-8") as handle:
        private = set(json.load(handle)["files"][name]["indices"])
    with open(report, encoding="utf-8") as handle:
        row = json.load(handle)["files"][name]
    assert set(row["gold"]) & private == planted   # (a public item of the sample is in its starting kit too)
    status, results = rank(work, ref, teams, report, "clean")
    assert status == 0
    sub = results["subtasks"][0]
    names = dict((r["id"], r["name"]) for r in sub["rows"])
    final = dict((names[i], t["final_rank"]) for i, t in sub["clean"]["teams"].items())
    clean = dict((names[i], t["public_rank"]) for i, t in sub["clean"]["teams"].items())
    assert final == {"memoriser": 1, "honest": 2} and clean == {"memoriser": 2, "honest": 1}
    assert sub["clean"]["public_part"].startswith("the private items whose gold is found nowhere public: ")
    with open(os.path.join(work, "clean", "results.md"), encoding="utf-8") as handle:
        text = handle.read()
    assert "### Ranking on the items found nowhere public" in text and "| Clean rank | Clean score |" in text
    with open(os.path.join(work, "clean", "ranking.csv"), encoding="utf-8") as handle:
        assert "clean_rank,clean_score" in handle.readline()


def test_without_a_report_or_with_nothing_found_the_official_ranking_stands_alone(memorised, tmp_path):
    work, ref, report, teams, name, planted = memorised
    assert "clean" not in rank(work, ref, teams, None, "plain")[1]["subtasks"][0]
    with open(report, encoding="utf-8") as handle:
        value = json.load(handle)
    for row in value["files"].values():
        row["gold"] = []
    nothing = str(tmp_path / "nothing.json")
    with open(nothing, "w", encoding="utf-8") as handle:
        json.dump(value, handle)
    assert "clean" not in rank(work, ref, teams, nothing, "nothing")[1]["subtasks"][0]
    value["files"][name]["private"] += 1   # another build's report
    with open(nothing, "w", encoding="utf-8") as handle:
        json.dump(value, handle)
    assert rank(work, ref, teams, nothing, "other")[0] == 2
