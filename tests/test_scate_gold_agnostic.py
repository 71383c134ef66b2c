"""Gold-agnostic SCATE submissions cannot score high on interval F1 (docs/metric_cards.md, "Interval F1").

A gold-agnostic submission knows the text and the document creation time (DCT), nothing of the gold. Its honest
claims are *tilings*: the text cut into k equal pieces, each piece one time expression claiming one time derived
from the DCT alone (its second, day, week, month or year), a huge interval (years 1000-2999) or a time far away;
a *hedged* tiling claims the huge interval on every other piece. The best honest tiling is the *trivial floor*:
what the DCT prior (and hedging: interval recall rewards a long interval) is worth under the overlap-based metric
of the SCATE paper's Section 3. Counting devices added to a tiling (copies, many distinct tiny intervals, nested
spans, pieces of a claim, a huge interval over everything besides) must not beat that floor by more than NOISE.
Run on the synthetic sample and, when ../shared/scate is present, on AQUAINT (dev); the gold still scores 1.0.

    .venv/bin/python tests/test_scate_gold_agnostic.py    # before/after table on AQUAINT (or the sample)
"""
import copy
import datetime
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, load_by_path

SCATE_DIR = os.path.join(ROOT, "competitions", "scate")
SAMPLE = os.path.join(SCATE_DIR, "sample_data")
KIT = os.path.join(SCATE_DIR, "starting_kit")
SCATE_SHARED = os.environ.get("SCATE_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "scate"))
for _path in (SCATE_DIR, KIT):
    if _path not in sys.path:
        sys.path.append(_path)

import scate  # noqa: E402
import scate_baseline  # noqa: E402
import scate_data  # noqa: E402
from evalkit.timenorm import kind as anafora_kind  # noqa: E402
from evalkit.timenorm import metrics  # noqa: E402
from evalkit.timenorm.anafora import read_anafora  # noqa: E402
from evalkit.timenorm.items import scate_items  # noqa: E402
from evalkit.timenorm.scate import parse_dct  # noqa: E402

reference = load_by_path("scate_reference_agnostic", os.path.join(SCATE_DIR, "reference.py"))
KIND = anafora_kind.KINDS["scate_intervals"]
TASK = scate.TASKS_BY_FOLDER["norm"]
#: How far a trick may score above the trivial floor (interval F1).
NOISE = 0.02
UNITS = {"day": "Day", "week": "Week", "month": "Month", "year": "Year"}
CLAIMS = ("second", "day", "week", "month", "year", "huge", "far")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
needs_scate = pytest.mark.skipif(not os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")),
                                 reason="../shared/scate is absent")


# ------------------------------------------------------------------ claims (Anafora entities)

def claim(ann, span, what, dct, length=1):
    """Add one time expression over ``span`` claiming ``what`` (see :data:`CLAIMS`); a ``second`` claims the
    ``length`` seconds from noon of the DCT day (distinct lengths: distinct, nested tiny intervals)."""
    if what in UNITS:      # this day / week / month / year of the creation time
        unit = ann.add(span, "Calendar-Interval", Type=UNITS[what])
        return ann.add(span, "This", **{"Interval-Type": "DocTime", "Repeating-Interval": unit})
    if what == "far":
        return ann.add(span, "Year", Value="1000")
    if what == "huge":
        start, end = ann.add(span, "Year", Value="1000"), ann.add(span, "Year", Value="2999")
        return ann.add(span, "Between", **{"Start-Interval-Type": "Link", "Start-Interval": start,
                                           "Start-Included": "Included", "End-Interval-Type": "Link",
                                           "End-Interval": end, "End-Included": "Included"})
    if getattr(ann, "anchor", None) is None:   # 11:00-12:00 of the DCT day, linked by every ``second``
        hour = ann.add((0, 1), "Hour-Of-Day", Value="11")
        day = ann.add((0, 1), "Day-Of-Month", Value=str(dct.day), **{"Sub-Interval": hour})
        month = ann.add((0, 1), "Month-Of-Year", Type=MONTHS[dct.month - 1], **{"Sub-Interval": day})
        ann.anchor = ann.add((0, 1), "Year", Value="%04d" % dct.year, **{"Sub-Interval": month})
    number = ann.add(span, "Number", Value=str(length))
    period = ann.add(span, "Period", Type="Seconds", Number=number)
    return ann.add(span, "Next", **{"Interval-Type": "Link", "Interval": ann.anchor, "Period": period})


def chunks(length, k):
    """(at most) k equal, disjoint, non-empty pieces of ``length`` characters."""
    width = max(1, -(-length // k))
    return [(start, min(length, start + width)) for start in range(0, length, width)]


def tiling(k, what, hedged=False):
    """An honest tiling: k pieces of the text, each one claim ``what`` (``hedged``: every other piece claims the
    huge interval instead, trading precision for recall). A submission is a function of the text's length giving
    ``[(span, what, length of a second claim)]``."""
    return lambda length: [(span, "huge" if hedged and index % 2 else what, 1)
                           for index, span in enumerate(chunks(length, k))]


def trick(k, what, hedged=False, copies=1, tiny=0, nested=0, pieces=1, huge_all=False):
    """An honest tiling with counting devices: each piece's claim repeated ``copies`` times and cut into
    ``pieces`` items, ``tiny`` distinct (nested) tiny intervals claimed over the piece, ``nested`` ever smaller
    spans inside it claiming one second each; ``huge_all``: a huge interval over the whole text besides."""
    def build(length):
        claims = []
        for (span, here, _) in tiling(k, what, hedged)(length):
            start, end = span
            for part in chunks(end - start, pieces):
                claims += [((start + part[0], start + part[1]), here, 1)] * copies
            claims += [(span, "second", seconds) for seconds in range(2, tiny + 2)]
            claims += [((start + inner, end - inner), "second", 1) for inner in range(1, nested + 1)
                       if start + inner < end - inner]
        return claims + ([((0, length), "huge", 1)] if huge_all else [])
    return build


def exploit(length):
    """The reported exploit: one huge interval over the whole text and a hundred copies of one second."""
    return [((0, length), "huge", 1)] + [((0, length), "second", 1)] * 100


# ------------------------------------------------------------------ scoring

def _dct(doc):
    return datetime.datetime.strptime(doc.dct[:10], "%Y-%m-%d")


class Corpus(object):
    """A parsed full-gold reference, per document its gold items, and the intervals of every claim (interpreted
    once per document by the scorer's own reader and interpreter)."""

    def __init__(self, data, tmp):
        reference.build(data, tmp)
        path = os.path.join(tmp, "dev", "norm_en.json")
        with open(path, "rb") as handle:
            self.ref = KIND.parse_reference_text(handle.read(), path, TASK, "en")
        self.gold = dict((doc.name, scate_items(doc.document, parse_dct(doc.dct[:10]))[0])
                         for doc in self.ref.documents)
        self.intervals = {}

    def xml(self, build, doc):
        """The Anafora XML of ``build`` for ``doc`` (what a participant would upload)."""
        ann = scate_baseline.Annotator(doc.name, doc.text)
        for span, what, length in build(len(doc.text)):
            claim(ann, span, what, _dct(doc), length)
        return ann.xml().encode("utf-8")

    def read(self, data, doc):
        """``data`` read, checked and interpreted as the scorer does; a prediction it would refuse fails the test
        (a refused document scores 0 and would prove nothing)."""
        name = scate_data.submission_name(doc.name)
        document = read_anafora(data, name, doc.text)
        anafora_kind.check_graph(document, name)
        KIND.prepare(document, doc, name)
        return document

    def items(self, build, doc):
        """The system items of ``build`` for ``doc``, from the claims' intervals."""
        result = []
        for span, what, length in build(len(doc.text)):
            key = (doc.name, what, length)
            if key not in self.intervals:
                single = self.read(self.xml(lambda n: [((0, 1), what, length)], doc), doc).interval_items
                assert len(single) == 1, key
                self.intervals[key] = single[0].intervals
            result.append(metrics.Item(span, self.intervals[key]))
        return result

    def score(self, build):
        """(interval P, R, F1) of the scorer's metric (:func:`metrics.region_interval_scores`)."""
        return metrics.region_interval_scores([(self.gold[d.name], self.items(build, d)) for d in self.ref.documents])

    def score_reference(self, build):
        """(P, R, F1) of the reference scorer's formula (TimeNormScorer: every item counted), for comparison."""
        return metrics.pooled_interval_scores([(self.gold[d.name], self.items(build, d)) for d in self.ref.documents])

    def score_uploaded(self, build):
        """(interval P, R, F1) of the kind itself on the uploaded XML of ``build``."""
        pred = dict((doc.name, self.read(self.xml(build, doc), doc)) for doc in self.ref.documents)
        components = KIND.score(self.ref, pred, TASK).components
        return components["interval_p"], components["interval_r"], components["interval_f1"]

    def floor(self, formula=None):
        """The trivial floor: the best interval F1 of the honest tilings (k = 1..30, every claim, hedged or not);
        0 at least (the empty submission). ``formula``: a scoring method other than :meth:`score`."""
        score = formula or self.score
        return max([0.0] + [score(tiling(k, what, hedged))[2] for k in range(1, 31) for what in CLAIMS
                            for hedged in (False, True)])


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return Corpus(SAMPLE, str(tmp_path_factory.mktemp("agnostic_sample")))


@pytest.fixture(scope="module")
def aquaint(tmp_path_factory):
    if not os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")):
        pytest.skip("../shared/scate is absent")
    return Corpus(SCATE_SHARED, str(tmp_path_factory.mktemp("agnostic_aquaint")))


@pytest.fixture(scope="module")
def floors(sample, request):
    found = {"sample": sample.floor()}
    if os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")):
        found["AQUAINT"] = request.getfixturevalue("aquaint").floor()
    return found


# ------------------------------------------------------------------ tests

def gold_predictions(corpus):
    """The gold of every document, read and interpreted as a prediction (a copy: the reference stays as it is)."""
    pred = {}
    for doc in corpus.ref.documents:
        document = copy.copy(doc.document)
        KIND.prepare(document, doc, doc.name)
        pred[doc.name] = document
    return pred


def test_the_gold_scores_one_on_the_sample(sample):
    assert KIND.score(sample.ref, gold_predictions(sample), TASK).components["interval_f1"] == 1.0


@needs_scate
def test_the_gold_scores_one_on_aquaint(aquaint):
    components = KIND.score(aquaint.ref, gold_predictions(aquaint), TASK).components
    assert components["interval_p"] == components["interval_r"] == components["interval_f1"] == 1.0


def test_the_exploit_scored_high_under_the_reference_formula_and_scores_nothing_now(sample, floors):
    assert sample.score_reference(exploit)[2] > 0.95
    precision, recall, f1 = sample.score_uploaded(exploit)
    assert (precision, recall, f1) == pytest.approx(sample.score(exploit), abs=1e-12)
    assert recall == 1.0 and precision < 0.01 and f1 <= floors["sample"] + NOISE


@needs_scate
def test_the_exploit_on_aquaint(aquaint, floors):
    """The reported exploit (0.995 under the reference formula, far above that formula's own honest floor) scores
    nothing now, through the uploaded XML and the kind as on the platform."""
    before = aquaint.score_reference(exploit)[2]
    assert before > 0.99 and before > aquaint.floor(aquaint.score_reference) + NOISE
    precision, recall, f1 = aquaint.score_uploaded(exploit)
    assert (precision, recall, f1) == pytest.approx(aquaint.score(exploit), abs=1e-12)
    assert recall == 1.0 and f1 < 0.01 and f1 <= floors["AQUAINT"] + NOISE


#: At most this many claims per document in a generated trick (each example stays fast).
MAX_CLAIMS = 300


@st.composite
def tricks(draw):
    """An honest tiling with counting devices (the arguments of :func:`trick`), at most :data:`MAX_CLAIMS` claims."""
    k, pieces = draw(st.integers(1, 30)), draw(st.integers(1, 8))
    room = max(1, MAX_CLAIMS // (k * pieces + 1))
    return dict(k=k, what=draw(st.sampled_from(CLAIMS)), hedged=draw(st.booleans()),
                copies=draw(st.integers(1, min(100, room))), tiny=draw(st.integers(0, min(40, room))),
                nested=draw(st.integers(0, min(20, room))), pieces=pieces, huge_all=draw(st.booleans()))


@settings(max_examples=60, deadline=None)
@given(tricks())
def test_counting_devices_do_not_beat_the_floor_on_the_sample(sample, floors, arguments):
    assert sample.score(trick(**arguments))[2] <= floors["sample"] + NOISE


@needs_scate
@settings(max_examples=25, deadline=None)
@given(tricks())
def test_counting_devices_do_not_beat_the_floor_on_aquaint(aquaint, floors, arguments):
    assert aquaint.score(trick(**arguments))[2] <= floors["AQUAINT"] + NOISE


@needs_scate
def test_the_baseline_scores_as_under_the_reference_formula(aquaint):
    """The starting kit's baseline never puts two items on one gold expression's text nor one item on two: the
    regions are its items, so its interval scores are the reference scorer's (0.7325 / 0.8955 / 0.8058)."""
    regexes = scate_baseline.load_regexes(os.path.join(SCATE_SHARED, scate_baseline.REGEX_FILE))
    pred = {}
    for doc in aquaint.ref.documents:
        name = scate_data.submission_name(doc.name)
        document = read_anafora(scate_baseline.annotate(doc.text, doc.name, regexes).encode("utf-8"), name, doc.text)
        KIND.prepare(document, doc, name)
        pred[doc.name] = document
    ours = KIND.score(aquaint.ref, pred, TASK).components
    theirs = metrics.pooled_interval_scores([(aquaint.gold[d.name], pred[d.name].interval_items)
                                             for d in aquaint.ref.documents])
    assert (ours["interval_p"], ours["interval_r"], ours["interval_f1"]) == pytest.approx(theirs, abs=1e-12)
    assert [round(v, 4) for v in theirs] == [0.7325, 0.8955, 0.8058]


def report(corpus):
    """Before (reference formula) and after (the scorer) for the exploit, the honest tilings and some tricks."""
    rows = [("exploit: huge + 100 copies of one second", exploit)]
    rows += [("one claim over the whole text: DCT %s" % what, tiling(1, what)) for what in ("day", "month", "year")]
    rows += [("5 pieces, each the DCT day", tiling(5, "day")), ("20 pieces, each the DCT day", tiling(20, "day")),
             ("huge + 50 distinct seconds", trick(1, "huge", tiny=50)),
             ("huge + 20 nested spans", trick(1, "huge", nested=20)),
             ("5 pieces DCT day, every other one huge (hedged)", tiling(5, "day", hedged=True)),
             ("2 pieces: DCT day, huge (hedged)", tiling(2, "day", hedged=True)),
             ("5 pieces DCT day, each cut in 8, x10 copies", trick(5, "day", copies=10, pieces=8))]
    print("| submission | reference formula P/R/F1 | scorer P/R/F1 |\n|---|---|---|")
    for label, build in rows:
        print("| %s | %.4f/%.4f/%.4f | %.4f/%.4f/%.4f |" % ((label,) + corpus.score_reference(build)
                                                           + corpus.score(build)))
    print("trivial floor (best honest tiling): %.4f" % corpus.floor())


if __name__ == "__main__":
    import tempfile
    data = SCATE_SHARED if os.path.isdir(os.path.join(SCATE_SHARED, "train_dev")) else SAMPLE
    report(Corpus(data, tempfile.mkdtemp()))
