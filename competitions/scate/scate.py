"""The facts of the SCATE time normalisation competition (Bethard and Parker, LREC 2016; Laparra et al., TACL
2018 "From Characters to Time Intervals"; SemEval 2018 Task 6, Parsing Time Normalizations), declared as data.

Same interface as ``scoring_program/st2024.py`` and ``competitions/lince/lince.py``: ``COMPETITION_ID``,
``TITLE``, ``METRICS_VERSION``, ``LANGUAGES``, ``TASKS``, ``SUBTASKS`` and the upload limits, plus:

- a submission is a folder of per-document Anafora XML files (``Task.documents``, the SemEval 2018 Task 6
  form ``<doc>/<doc>.TimeNorm.system.completed.xml``; folders above it are forgiven), scored by the kinds of
  ``evalkit/timenorm/kind.py``; one reference file per task (``REFERENCE_FILE``);
- two tasks over the same submission: ``norm`` (full SCATE gold: interval F1, the paper's Section 3, with
  interval precision and recall, entity identification and composition F1) and ``spans`` (gold with spans and
  types only, such as the public test gold: entity identification F1);
- the ranking score ``avg_score`` is the score of the first declared task a phase scores (``AVERAGE =
  "first"``): interval F1 where the phase has full gold, identification F1 where it has spans only.

The machinery in ``evalkit`` reads these declarations and never names a task, a type or a file itself.
"""
from collections import OrderedDict

from evalkit.declare import Task as BaseTask

COMPETITION_ID = "scate"
TITLE = "SCATE: Time Normalisation as Semantic Composition of Time Entities"

#: Version of the metric definitions (bumped whenever a score could change for the same input).
METRICS_VERSION = "scate-metrics-2"

#: One language: code -> (name,).
LANGUAGES = OrderedDict([("en", ("English",))])

#: The entity types of the SCATE schema (``timenorm-schema.xml``), for the pages and the validator.
ENTITY_TYPES = (
    "Year", "Two-Digit-Year", "Month-Of-Year", "Day-Of-Month", "Day-Of-Week", "Week-Of-Year", "Season-Of-Year",
    "Part-Of-Week", "Part-Of-Day", "Hour-Of-Day", "AMPM-Of-Day", "Minute-Of-Hour", "Second-Of-Minute",
    "Time-Zone", "Calendar-Interval", "Period", "Sum", "Number", "Modifier", "Event", "Last", "Next", "This",
    "Before", "After", "Between", "NthFromStart", "NthFromEnd", "Intersection", "Union", "Every-Nth",
    "Frequency", "Difference", "NotNormalizable", "PreAnnotation")

#: Where a submission's document files are: ``{doc}`` is the document's name (the reference's).
DOCUMENT_FILE = "{doc}/{doc}.TimeNorm.system.completed.xml"


class Task(BaseTask):
    """One task over the same per-document submission (:class:`evalkit.declare.Task`, kind one of
    ``evalkit.timenorm.kind.KINDS``, over English), with ``documents``, the per-document file pattern of the
    submission, and ``labels[lang]``, the entity types (for the pages' table).
    """

    def __init__(self, key, label, kind, metric, components):
        BaseTask.__init__(self, key, label, kind, metric, components, ("en",))
        self.documents = DOCUMENT_FILE
        self.labels = OrderedDict([("en", ENTITY_TYPES)])


TASKS = (
    Task("norm", "Time normalisation (intervals)", "scate_intervals", "interval_f1",
         ("interval_f1", "interval_p", "interval_r", "identification_f1", "composition_f1")),
    Task("spans", "Time entity identification (spans only)", "scate_spans", "identification_f1",
         ("identification_f1", "identification_p", "identification_r")),
)
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)
DATASETS = tuple((task, lang) for task in TASKS for lang in task.languages)

#: Reference files: ``norm_en.json`` (full gold), ``spans_en.json`` (spans and types).
REFERENCE_FILE = "{task}_{lang}.json"
#: Declared so that evalkit finds files by name (a per-document task's name is its ``documents`` pattern).
SUBMISSION_FILE = DOCUMENT_FILE
NAME_ALIASES = {}

#: The ranking score is the first declared task's score among those the phase scores.
AVERAGE = "first"
#: The leaderboard: the ranking score, then each task's score (no means over tasks or languages).
LEADERBOARD = "datasets"
OVERALL_LABEL = "Ranking score"
DATASET_LABEL = "{task} {pair}"
#: The options of the signature.
SIGNATURE_OPTIONS = "rank:first-task|intervals:section3-paired-regions|dct:date|entities:sets-skip-event-preannotation"

#: A phase may lack these tasks' reference files (the public test gold has spans only, so its test phase
#: scores ``spans`` alone): ``make check`` reports such a phase as a note, not a failure.
OPTIONAL_REFERENCE_TASKS = ("norm",)

#: Wording of the detailed-results page.
REPORT_NOTES = {
    "unit": "documents",   # what the report counts (sentences by default)
    "overall": "The ranking score: interval F1 where the phase has full SCATE gold, else identification F1.",
    "official": "Official (pooled over every item of every document)",
    "task": "Interval precision and recall compare the system's and the gold's intervals over every region of text "
            "their time expressions share (the SCATE paper, Section 3; a region pairs at most as many expressions "
            "as its smaller side holds); the entity metrics count the distinct (span, type) matches. Expand a task for the per-type "
            "counts and the per-document figures.",
}

#: The one competition of this declaration (one bundle).
SUBTASKS = OrderedDict([
    ("scate", {"title": TITLE, "tasks": tuple(TASKS_BY_FOLDER), "languages": tuple(LANGUAGES)}),
])

NOTHING_HELP = (
    "Nothing could be scored: %s A SCATE submission is a zip holding one Anafora XML file per document, named "
    "<doc>/<doc>.TimeNorm.system.completed.xml where <doc> is the document's name (its folder under text/<corpus>/ "
    "in the data). "
    "Check the zip with the starting kit (python3 validate.py your.zip --data DIR).")

#: Limits applied to participant uploads (the test set is 20 documents of a few kilobytes of text).
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_UPLOAD_BYTES = 256 * 1024 * 1024
MAX_MEMBERS = 2000

#: A declared dataset that no phase has a reference for is left out of the bundle and its leaderboard (and marked
#: LACKING on the pages), instead of keeping an empty column.
LACKING_DATASETS = "drop"
