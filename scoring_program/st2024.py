"""The facts of the SIGTYP 2024 shared task (ST2024), declared once as data.

Everything competition-specific lives here: languages, tasks, folder and file names, score keys,
which metric family scores which task, and the two subtasks. The machinery in ``evalkit`` reads
these declarations and never names a language or a task itself. The organiser tooling (bundles,
leaderboard columns, pages) imports this module too, so keys cannot drift between the scorer and
``competition.yaml``.
"""
from collections import OrderedDict

COMPETITION_ID = "st2024"
TITLE = "SIGTYP 2024 Shared Task: Word Embedding Evaluation for Ancient and Historical Languages"

#: Version of the metric definitions (bumped whenever a score could change for the same input).
METRICS_VERSION = "st2024-metrics-2"

# code: (name, family, branch, script, dating) -- from the task description participants saw.
LANGUAGES = OrderedDict([
    ("chu", ("Old Church Slavonic", "Indo-European", "Slavonic", "Cyrillic", "X - XI c. CE")),
    ("cop", ("Coptic", "Afro-Asiatic", "Egyptian", "Coptic", "I - II c. CE")),
    ("fro", ("Old French", "Indo-European", "Romance", "Latin", "1180 CE")),
    ("ghc", ("Early Modern Irish", "Indo-European", "Celtic", "Latin", "1200 - 1700 CE")),
    ("got", ("Gothic", "Indo-European", "Germanic", "Latin", "V - VIII c. CE")),
    ("grc", ("Ancient Greek", "Indo-European", "Hellenic", "Greek", "VIII c. BCE - 110 CE")),
    ("hbo", ("Ancient Hebrew", "Afro-Asiatic", "Semitic", "Hebrew", "X c. CE")),
    ("isl", ("Medieval Icelandic", "Indo-European", "Germanic", "Latin", "1150 - 1680 CE")),
    ("lat", ("Classical and Late Latin", "Indo-European", "Romance", "Latin", "I c. BCE - IV c. CE")),
    ("latm", ("Medieval Latin", "Indo-European", "Romance", "Latin", "774 - early XIV c. CE")),
    ("lzh", ("Classical Chinese", "Sino-Tibetan", "Sinitic", "Hanzi", "47 - 220 CE")),
    ("mga", ("Middle Irish", "Indo-European", "Celtic", "Latin", "900 - 1200 CE")),
    ("ohu", ("Old Hungarian", "Finno-Ugric", "Ugric", "Latin", "1440 - 1521 CE")),
    ("orv", ("Old East Slavic", "Indo-European", "Slavonic", "Cyrillic", "1025 - 1700 CE")),
    ("san", ("Vedic Sanskrit", "Indo-European", "Indo-Aryan", "Latin (transcr.)", "1500 - 600 BCE")),
    ("sga", ("Old Irish", "Indo-European", "Celtic", "Latin", "600 - 900 CE")),
])

#: Languages with no CoNLL-U annotation: they appear in the two fill-the-gaps tasks only.
FILL_MASK_ONLY = ("ghc", "mga", "sga")
UD_LANGUAGES = tuple(code for code in LANGUAGES if code not in FILL_MASK_ONLY)

#: Alternative file prefixes found in the release for a language (the release names Sanskrit
#: ``sanv_`` in one folder). Used by the organiser tooling and the did-you-mean of the scorer.
LANGUAGE_ALIASES = {"sanv": "san"}


class Task(object):
    """One task of the competition.

    ``folder`` is the submission folder; ``key`` is the score-key stem (``<lang>_<key>``);
    ``kind`` names the file format and metric family in ``evalkit.kinds.KINDS``; ``components`` are
    the metric names averaged into the task score, in order (``<lang>_<key>_<component>``);
    ``languages`` the languages the task can have; ``mask_marker`` the gap marker of fill-mask input.
    The remaining attributes are the 2024 rules the kinds apply: only the first ``max_candidates``
    candidates count; a morphology token's form is under one of ``form_keys``; ``ignored_keys`` are
    never scored as features.
    """

    max_candidates = 3
    form_keys = ("Token", "Form")
    ignored_keys = frozenset(("Token", "Form", "UPOS", "Lemma"))

    def __init__(self, folder, key, label, kind, components, languages, mask_marker=None):
        self.folder = folder
        self.key = key
        self.label = label
        self.kind = kind
        self.components = tuple(components)
        self.languages = tuple(languages)
        self.mask_marker = mask_marker

    def __repr__(self):
        return "Task(%r)" % self.folder


TASKS = (
    Task("pos_tagging", "pos", "POS tagging", "tagging", ("acc", "f1"), UD_LANGUAGES),
    Task("morph_features", "full_morph", "Morphological features", "morph", (), UD_LANGUAGES),
    Task("lemmatisation", "lemma", "Lemmatisation", "candidates", ("acc1", "acc3"), UD_LANGUAGES),
    Task("fill_mask_word", "fill_mask_word", "Filling the gaps (word)", "fill_mask", ("acc1", "acc3"),
         tuple(LANGUAGES), mask_marker="[MASK]"),
    Task("fill_mask_char", "fill_mask_char", "Filling the gaps (character)", "fill_mask", ("acc1", "acc3"),
         tuple(LANGUAGES), mask_marker="[_]"),
)
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)

#: The two subtasks (one competition bundle each): the tasks and languages they score.
SUBTASKS = OrderedDict([
    ("unconstrained", {
        "title": "SIGTYP 2024 ST: Ancient and Historical Languages (unconstrained)",
        "tasks": tuple(TASKS_BY_FOLDER),
        "languages": tuple(LANGUAGES),
    }),
    ("constrained", {
        "title": "SIGTYP 2024 ST: Ancient and Historical Languages (constrained)",
        "tasks": ("pos_tagging", "morph_features", "lemmatisation"),
        "languages": UD_LANGUAGES,
    }),
])

#: Limits applied to participant uploads (the largest valid file of the release is about 10 MiB).
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024
MAX_MEMBERS = 10000
