"""What the test phase tells participants, by its feedback mode (issue 23): the organiser side.

A competition's test phase gives feedback in one of three modes (``test_feedback.mode`` of its schedule), and the
reference builder writes which into the test reference's ``split.json`` (``REF/test/split.json``, uploaded with the
test reference; ``REF/private/test/split.json`` beside the part kept by the organisers, never uploaded):

- ``public_private``: the uploaded test reference holds the gold of the public part only; the platform scores
  that part ("public part: N of M sentences") and the final ranking scores the private part (``REF/private/test``);
- ``blind``: no test gold is uploaded; the platform's test phase writes only :data:`VALID_KEY` (the share of items
  validly predicted), a leaderboard column of its own; the final ranking scores the whole test gold;
- ``full``: the whole test gold is uploaded and every team sees its test scores; the final ranking scores it.

``split.json``: ``{"mode", "unit", "part", "public_fraction", "seed_digest", "files": {"<ref file>": {"items": M,
"scored": N, "indices": [...]}}}``. This module reads it and says it in words (bundle descriptions, pages, check);
it never names a competition.
"""
import io
import json
import os
import zipfile

from organiser import schedule as schedule_module
from organiser import split as split_module
from evalkit import split as evalkit_split
from evalkit.layout import ReferenceError

SPLIT_FILE = evalkit_split.SPLIT_FILE
#: The folder of the reference (``REF/private/``) that holds what the final ranking uses: never uploaded.
PRIVATE_FOLDER = split_module.PRIVATE_FOLDER
MODES = evalkit_split.MODES
PUBLIC_PRIVATE, BLIND, FULL = MODES
#: The only score a blind test phase writes, and its leaderboard column's label.
VALID_KEY = evalkit_split.VALID_KEY
VALID_LABEL = "Valid predictions"
#: What a blind test phase's leaderboard shows and how it is ordered. The phase never writes the leaderboard's
#: primary column (the overall score): Codabench orders a phase's leaderboard by the primary column, then by every
#: other visible column in order, then by submission time (``PhaseResultsSerializer.get_submissions`` in
#: src/apps/api/serializers/leaderboards.py), and a column without a score is NULL for every row, shown "n/a"; so
#: the rows come in the order of the valid share, then oldest first (docs/test_feedback.md).
BLIND_ORDER = ("the overall score and every other column stay empty (n/a), so the test leaderboard's order (on "
               "Codabench: by that share, then by submission time) and its medals say nothing of the ranking.")


def read_split(folder):
    """The ``split.json`` of a phase folder as a dict (checked as the scoring program checks it), or None when it
    has none (a phase without a split: its whole gold is there). ValueError naming the file when it is unusable."""
    try:
        value = evalkit_split.read_split(folder)
    except ReferenceError as error:
        raise ValueError("%s: %s" % (os.path.join(folder, SPLIT_FILE), error))
    if value is not None and value.get("mode") not in MODES:
        raise ValueError("%s: expected mode one of %s, got %r" % (os.path.join(folder, SPLIT_FILE), ", ".join(MODES),
                                                                 value.get("mode")))
    return value


def parse_split(text, where):
    """``split.json`` text -> dict (ValueError naming ``where`` when it is not a split description: the scoring
    program's checks, and a ``mode`` among :data:`MODES`)."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ValueError("%s is not valid JSON: %s" % (where, error))
    problem = evalkit_split._problem(value) if isinstance(value, dict) else "expected a JSON object"
    if not problem and value.get("mode") not in MODES:
        problem = "expected mode one of %s, got %r" % (", ".join(MODES), value.get("mode"))
    if problem:
        raise ValueError("%s: %s" % (where, problem))
    return value


def zipped_split(data):
    """The ``split.json`` of a reference zip (bytes) as a dict; None when it has none."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if SPLIT_FILE not in archive.namelist():
                return None
            text = archive.read(SPLIT_FILE).decode("utf-8")
    except (zipfile.BadZipFile, UnicodeDecodeError):
        return None
    return parse_split(text, SPLIT_FILE)


def mode_of(split):
    """The feedback mode of a ``split`` (``full`` without a split: the whole gold is uploaded)."""
    return split["mode"] if split else FULL


def private_folder(reference_dir, phase):
    """``REF/private/<phase>``: the reference the final ranking uses (never uploaded)."""
    return os.path.join(reference_dir, PRIVATE_FOLDER, phase)


def part_sizes(split, names=None):
    """``(scored N, items M, unit)`` of a ``split`` over its files (only ``names`` when given), each item counted
    once (:func:`evalkit.split.distinct_sizes`: files over the same items count once)."""
    scored, items = evalkit_split.distinct_sizes(split.get("files") or {}, names)
    return scored, items, split.get("unit") or "items"


def public_part_text(split, names=None):
    """``public part: N of M sentences`` for a public/private split; None in another mode (or without split)."""
    if mode_of(split) != PUBLIC_PRIVATE:
        return None
    scored, items, unit = part_sizes(split, names)
    return "public part: %d of %d %s" % (scored, items, unit)


def test_description(split, names=None):
    """The sentence a test phase's description starts with: what its leaderboard shows and how the final ranking is
    made (None without a split: the description stays as the competition's source wrote it)."""
    mode = mode_of(split) if split else None
    if mode == PUBLIC_PRIVATE:
        return ("Scored on the public part of the test set only (%s, drawn at random, which ones is not told): "
                "the leaderboard ranks that part. The final ranking re-scores each team's official submission on the "
                "private part, the rest of the test set, whose gold the organisers keep: it may differ from this "
                "leaderboard." % public_part_text(split, names))
    if mode == BLIND:
        return ("Blind phase: no test gold is on the platform. Each submission's format is checked against the test "
                "input and the leaderboard shows only the share of items validly predicted (%s); %s The final "
                "ranking scores each team's official submission on the whole test gold, kept by the organisers."
                % (VALID_LABEL, BLIND_ORDER))
    if mode == FULL:
        return ("Scored on the whole test gold: each team sees its test scores after every submission. The final "
                "ranking scores each team's official submission on the same gold.")
    return None


def what_participants_see(split, names=None):
    """What participants see during the test phase and how the final ranking is made, in one paragraph (pages,
    ORGANISERS.md); a public/private ``split`` without files (a mode declared, nothing built) gives no sizes."""
    mode = mode_of(split)
    if mode == PUBLIC_PRIVATE:
        items = part_sizes(split, names)[1]
        return ("During the test phase, each submission is scored on the public part of the test set only (%sdrawn "
                "at random by the organisers; which items is not told): the scores participants see, and the "
                "leaderboard, are on that part. The final ranking re-scores each team's official submission (its last "
                "scored one) on the private part, the rest of the test set, whose gold never leaves the organisers, "
                "so a final score and rank may differ from the public ones; the results show the public and the final "
                "rank side by side." % ("%s, " % public_part_text(split, names) if items else ""))
    if mode == BLIND:
        return ("During the test phase, no test gold is on the platform: each submission is checked against the test "
                "input and the leaderboard shows only the share of items validly predicted (%s), which says nothing "
                "of how good the predictions are; %s The final ranking scores each team's official submission (its "
                "last scored one) on the whole test gold, kept by the organisers." % (VALID_LABEL, BLIND_ORDER))
    return ("During the test phase, each submission is scored on the whole test gold: every team sees its own test "
            "scores, every column, after every submission (the platform shows them; no setting hides them). The final "
            "ranking is made of each team's official submission (its last scored one) on the same gold.")


#: What a starting kit's README says when the test phase is a labelled practice phase (its gold is public).
PRACTICE_NOTE = ("The test phase is a practice phase: its gold is public (%s), so its leaderboard is no official "
                 "result; an official test phase needs gold that participants cannot see.")


def shown_split(split, pending, schedule_path):
    """The split whose mode the words say: ``split`` (the build's test split), else, while the test gold is
    ``pending``, the mode that ``schedule_path`` declares (without sizes; None for mode full, as without a split)."""
    if split is None and pending:
        declared = schedule_module.test_feedback(schedule_path)
        return {"mode": declared["mode"], "files": {}} if declared["mode"] != FULL else None
    return split


def kit_readme_text(split, state="real", reason="", names=None):
    """The paragraph of a starting kit's README on the test phase (its ``<!-- TEST_PHASE -->``, organiser/bundle.py):
    what participants see during it and how the final ranking is made (:func:`what_participants_see`: in mode
    public_private, that its scores are on a public part only and that the final ranking re-scores every team's
    official submission on the private rest), or, for a test phase whose gold is public (``state`` "practice", why:
    ``reason``), that it is a practice phase."""
    if state == "practice":
        return PRACTICE_NOTE % reason
    return what_participants_see(split, names)
