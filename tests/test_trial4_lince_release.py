"""Round 4 of issue 24's LinCE trial on the real lid_spaeng data in ../shared/lince (skipped when it is absent): the
real mBERT test submission uploaded to the development phase is named for the test split by its sentence lengths,
and the real dev predictions written sorted by length, or cut at a maximum length, get their cause."""
import os
import zipfile

import pytest

from evalkit import lines
from evalkit.messages import CHANCE_NOTE, ERROR
from evalkit.scoring import evaluate
from lince_helpers import LINCE_SHARED, baseline_table, lince, reference, write_files

pytestmark = pytest.mark.skipif(not os.path.isdir(os.path.join(LINCE_SHARED, "lid_spaeng")),
                                reason="the LinCE data is not at %s (set LINCE_SHARED)" % LINCE_SHARED)
MBERT_DEV = os.path.join(LINCE_SHARED, "systems", "mbert_dev_predictions.conll")
MBERT_TEST = os.path.join(LINCE_SHARED, "systems", "mbert_test_submission.zip")
NAME = "lid_spa_eng.txt"


@pytest.fixture(scope="module")
def dev_ref(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("lince_shared_r4"))
    reference.build(LINCE_SHARED, out)
    return os.path.join(out, "dev")


@pytest.fixture(scope="module")
def dev_blocks(tmp_path_factory):
    """The real dev predictions' blocks of labels (one per sentence)."""
    sub = str(tmp_path_factory.mktemp("mbert_dev") / "mbert.zip")
    baseline_table.conll_to_submission(MBERT_DEV, "lid_spaeng", sub)
    with zipfile.ZipFile(sub) as archive:
        text = archive.read(NAME).decode("utf-8")
    return [block.split("\n") for block in text.strip("\n").split("\n\n")]


def text_of(blocks):
    return "".join("\n".join(block) + "\n\n" for block in blocks)


def test_the_real_test_submission_uploaded_to_dev_is_named_for_the_test_split(dev_ref):
    report = evaluate(lince, dev_ref, MBERT_TEST)
    found = [m for m in report["messages"] if "these look like predictions for the test split" in m["text"]]
    assert len(found) == 1 and found[0]["severity"] == ERROR and found[0]["file"] == NAME
    assert "the file has 97,341 labels in 8,289 blocks, as many as the test input has tokens, each block as long as " \
        "its sentence of the test input, not the 40,391 tokens of the dev input" in found[0]["text"]
    assert found[0]["text"].endswith(CHANCE_NOTE + ".")


def test_the_real_dev_predictions_one_line_longer_are_not_called_test_predictions(dev_ref, dev_blocks, tmp_path):
    blocks = [list(block) for block in dev_blocks]
    blocks[-1] += ["lang1"] * (97341 - 40391)   # the test input's token count, in the dev input's sentences
    report = evaluate(lince, dev_ref, write_files(tmp_path / "long", {NAME: text_of(blocks)}))
    assert not [m for m in report["messages"] if "look like predictions" in m["text"]]


@pytest.mark.parametrize("order", ["sorted by length", "reversed"])
def test_the_real_dev_predictions_in_another_order_are_an_error(dev_ref, dev_blocks, tmp_path, order):
    moved = sorted(dev_blocks, key=len) if order == "sorted by length" else dev_blocks[::-1]
    report = evaluate(lince, dev_ref, write_files(tmp_path / "moved", {NAME: text_of(moved)}))
    found = [m for m in report["messages"] if "but in another order (%s: " % order in m["text"]]
    assert len(found) == 1 and found[0]["severity"] == ERROR and CHANCE_NOTE in found[0]["text"]


def test_the_real_dev_predictions_cut_at_a_maximum_length_are_said_so(dev_ref, dev_blocks, tmp_path):
    report = evaluate(lince, dev_ref, write_files(tmp_path / "cut", {NAME: text_of([b[:30] for b in dev_blocks])}))
    lost = sum(1 for block in dev_blocks if len(block) > 30)
    found = [m for m in report["messages"] if "this sentence counts as wrong" in m["text"]]
    assert len(found) == 1 and "Every one of the %d sentences counted as wrong has fewer labels than tokens, and " \
        "they are the input file's longest (31 tokens or more; at most 30 labels each)" % lost in found[0]["text"]
    assert lost >= lines.WRONG_LENGTHS_MIN
