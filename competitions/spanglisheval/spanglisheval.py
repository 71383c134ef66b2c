"""The facts of SpanglishEval (Gonen and Goldberg, "Language Modeling for Code-Switching"), declared as data.

Same interface as ``scoring_program/st2024.py`` and ``competitions/lince/lince.py``: ``COMPETITION_ID``,
``TITLE``, ``METRICS_VERSION``, ``LANGUAGES``, ``TASKS``, ``SUBTASKS`` and the upload limits, plus:

- one task of the ``choice`` kind (:mod:`evalkit.choice`): in every set of similar-sounding sentences,
  rank the gold one first; its components are the accuracy over all sets (the official metric and the
  ranking key), on code-switched golds, on monolingual golds (the paper's Table 5 split) and the WER of the
  chosen sentence against the gold;
- flat file names: the submission is one ``predictions.json`` per phase, the reference one
  ``reference.jsonl`` (``SUBMISSION_FILE`` / ``REFERENCE_FILE``, patterns without placeholders);
- the leaderboard: the overall accuracy, then every component (``LEADERBOARD = "components"``, WER sorted
  ascending: lower is better).

Standard library only (shipped inside the scoring program).
"""
from collections import OrderedDict

from evalkit.declare import Task

COMPETITION_ID = "spanglisheval"
TITLE = "SpanglishEval: language models for English-Spanish code-switching"

#: Version of the metric definitions (bumped whenever a score could change for the same input).
METRICS_VERSION = "spanglisheval-metrics-1"

#: The one language pair: code -> (name, first language, second language).
LANGUAGES = OrderedDict([("en_es", ("English-Spanish", "English", "Spanish"))])

#: The one task (:class:`evalkit.declare.Task`): the folder in reports, the stem of the score keys (``<pair>_<key>``,
#: ``<pair>_<key>_<component>``), the kind, the official metric and every component.
TASKS = (Task("sets", "Gold sentence choice", "choice", "accuracy",
              ("accuracy", "accuracy_cs", "accuracy_mono", "wer"), tuple(LANGUAGES)),)
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)

#: The submission: one JSON object, {set id: [score per sentence] or chosen index}.
SUBMISSION_FILE = "predictions.json"
#: The reference: JSON Lines, one set a line (id, sentences, gold index, gold type).
REFERENCE_FILE = "reference.jsonl"
#: The reference folder the starting kit ships (the dev gold), named in the scorer's local hints.
LOCAL_REFERENCE = "data/dev"
#: Other spellings of the file stem, for the did-you-mean.
NAME_ALIASES = {"prediction": "predictions", "submission": "predictions", "answers": "predictions",
                "scores": "predictions", "sets": "predictions", "preds": "predictions", "pred": "predictions",
                "output": "predictions", "results": "predictions"}

#: The overall score is the one entry's score (the accuracy over all sets).
AVERAGE = "entries"
#: The leaderboard: the overall accuracy (the ranking key), then each component of the entry.
LEADERBOARD = "components"
OVERALL_LABEL = "Accuracy"
COMPONENT_LABELS = OrderedDict([("accuracy", "Accuracy (all sets)"), ("accuracy_cs", "Accuracy code-switched"),
                                ("accuracy_mono", "Accuracy monolingual"), ("wer", "WER of the choice")])
#: Components where lower is better (their leaderboard column sorts ascending).
LOWER_IS_BETTER = ("wer",)
#: The options of the signature: ties split, word-level WER pooled over the sets.
SIGNATURE_OPTIONS = "ties:split|invalid:wrong|wer:word-corpus"

#: Wording of the detailed-results page where SpanglishEval differs from the defaults.
REPORT_NOTES = {
    "unit": "sets",   # what the report counts (sentences by default)
    "overall": "Accuracy over all sets: the share of sets whose gold sentence is ranked first (a k-way tie "
               "with the gold earns 1/k).",
    "official": "Official (over all sets)",
    "task": "Accuracy over all sets, on sets with a code-switched gold and on sets with a monolingual gold; "
            "WER of the chosen sentence against the gold (lower is better). Expand for the scores per gold "
            "type and a sample of the sets not won.",
}

#: The one competition of this declaration (one bundle).
SUBTASKS = OrderedDict([
    ("spanglisheval", {"title": TITLE, "tasks": tuple(TASKS_BY_FOLDER), "languages": tuple(LANGUAGES)}),
])

NOTHING_HELP = (
    "Nothing could be scored: %s A SpanglishEval submission is a zip whose root holds predictions.json: one "
    "JSON object {set id: [one score per sentence, higher = more likely] or the index of the chosen sentence}. "
    "Zip the file itself, not a folder, and check the zip with the starting kit (python3 validate.py).")

#: Limits applied to participant uploads.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_UPLOAD_BYTES = 256 * 1024 * 1024
MAX_MEMBERS = 100

#: A declared dataset that no phase has a reference for is left out of the bundle and its leaderboard (and marked
#: LACKING on the pages), instead of keeping an empty column.
LACKING_DATASETS = "drop"
#: How the pages' datasets table heads its language column.
LANGUAGE_LABEL = "Language pair"
