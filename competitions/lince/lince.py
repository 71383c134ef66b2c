"""The facts of LinCE (Linguistic Code-switching Evaluation, Aguilar et al., LREC 2020), declared as data.

Same interface as ``scoring_program/st2024.py``: ``COMPETITION_ID``, ``TITLE``, ``METRICS_VERSION``,
``LANGUAGES``, ``TASKS``, ``SUBTASKS`` and the upload limits, plus what LinCE adds, all as data:

- flat file names (``SUBMISSION_FILE``, ``REFERENCE_FILE``; the release's dataset ids such as
  ``lid_spaeng`` are aliases for the did-you-mean);
- per (task, language pair) the label set (``Task.labels``) and the official metric (``Task.metric``);
- the leaderboard average: the plain mean of the dataset scores (``AVERAGE = "entries"``, the paper's
  Table 5 "Avg" column), not a mean of task means.

Ten datasets (task x language pair): LID spa-eng, hin-eng, nep-eng, msa-ea; POS spa-eng, hin-eng;
NER spa-eng, hin-eng, msa-ea; SA spa-eng. The machinery in ``evalkit`` reads these declarations
and never names a task, a language pair or a label itself.
"""
from collections import OrderedDict

from evalkit.declare import TextTask, bio

COMPETITION_ID = "lince"
TITLE = "LinCE: Centralized Benchmark for Linguistic Code-switching Evaluation"

#: Version of the metric definitions (bumped whenever a score could change for the same input).
METRICS_VERSION = "lince-metrics-1"

#: Language pairs: code -> (name, lang1, lang2). ``lang1`` / ``lang2`` are what the LID labels mean.
LANGUAGES = OrderedDict([
    ("spa_eng", ("Spanish-English", "English", "Spanish")),
    ("hin_eng", ("Hindi-English", "English", "Hindi")),
    ("nep_eng", ("Nepali-English", "English", "Nepali")),
    ("msa_ea", ("Modern Standard Arabic-Egyptian Arabic", "Modern Standard Arabic", "Egyptian Arabic")),
])

# Label sets as the LinCE release distributes them (paper, appendix A; the same lists are in the
# public Hugging Face ``lince`` loading script).
_LID8 = ("lang1", "lang2", "other", "ne", "ambiguous", "mixed", "fw", "unk")
_LID6 = ("lang1", "lang2", "other", "ne", "ambiguous", "mixed")
_POS_SPA = ("ADJ", "ADP", "ADV", "AUX", "CONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
            "PUNCT", "SCONJ", "UNK", "VERB", "X")
_POS_HIN = ("ADJ", "ADP", "ADV", "CONJ", "DET", "NOUN", "NUM", "PART", "PART_NEG", "PRON", "PRON_WH",
            "PROPN", "VERB", "X")


_NER_CALCS = bio(("PER", "LOC", "ORG", "PROD", "EVENT", "GROUP", "TITLE", "TIME", "OTHER"))
_NER_HIN = bio(("PERSON", "ORGANISATION", "PLACE"))
_SA = ("positive", "neutral", "negative")


class Task(TextTask):
    """One task of LinCE over some language pairs (:class:`evalkit.declare.TextTask`: ``key``, ``label``, ``kind``
    one of ``evalkit.lines.TEXT_KINDS``, ``metric`` the dataset score, ``components`` written to ``scores.txt``,
    ``labels[pair]`` the dataset's label set), and ``columns``: the number of tab-separated columns of the release's
    annotated files (token, LID labels, task labels), for the organiser's tools.
    """

    def __init__(self, key, label, kind, metric, components, labels, columns):
        TextTask.__init__(self, key, label, kind, metric, components, labels)
        self.columns = dict(columns)


TASKS = (
    Task("lid", "Language identification", "token_labels", "acc", ("acc", "weighted_f1"),
         [("spa_eng", _LID8), ("hin_eng", _LID8), ("nep_eng", _LID6), ("msa_ea", _LID6)],
         {"spa_eng": 2, "hin_eng": 2, "nep_eng": 2, "msa_ea": 2}),
    Task("pos", "Part-of-speech tagging", "token_labels", "acc", ("acc",),
         [("spa_eng", _POS_SPA), ("hin_eng", _POS_HIN)], {"spa_eng": 3, "hin_eng": 3}),
    Task("ner", "Named entity recognition", "token_labels", "span_f1", ("span_f1",),
         [("spa_eng", _NER_CALCS), ("hin_eng", _NER_HIN), ("msa_ea", _NER_CALCS)],
         {"spa_eng": 3, "hin_eng": 3, "msa_ea": 2}),
    Task("sa", "Sentiment analysis", "sentence_labels", "acc", ("acc", "weighted_f1"),
         [("spa_eng", _SA)], {"spa_eng": 2}),
)
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)

#: Every dataset as (task, pair), in the paper's Table 5 order.
DATASETS = tuple((task, pair) for task in TASKS for pair in task.languages)


#: Submission files: ``lid_spa_eng.txt``, ... at the root of the zip (as the LinCE site names them).
SUBMISSION_FILE = "{task}_{lang}.txt"


def dataset_id(task, pair):
    """The release's id of a dataset (its folder in the LinCE release), e.g. ``lid_spaeng``."""
    return "%s_%s" % (task.key, pair.replace("_", ""))


# --------------------------------------------------------------------------- label hints
# Other spellings of the labels, for the did-you-mean of a label outside a dataset's set (the scorer reports it
# and it never matches; these only word the suggestion). Keys are compared lower-cased. They come from the
# paper's description of the source corpora's own schemes (Bangor: eng / spa / eng&spa / UNK; the Hindi-English
# NER corpus: eng / hin / rest), common language codes, UD v2 and the universal tagset v1, and the usual
# spellings of entity types and sentiment classes: never from any reference file.

#: How a language of ``LANGUAGES`` is often written as a LID label.
_LANGUAGE_SPELLINGS = {
    "English": ("eng", "en", "english"),
    "Spanish": ("spa", "es", "sp", "spanish", "espanol"),
    "Hindi": ("hin", "hi", "hindi"),
    "Nepali": ("nep", "npi", "nepali"),
    "Modern Standard Arabic": ("msa", "ar", "arb", "arabic", "fusha"),
    "Egyptian Arabic": ("ea", "egy", "arz", "egyptian", "dialect", "da"),
}
#: ``lang1`` / ``lang2`` written short or long (``L1``, ``language_2``).
_NUMBERED_SPELLINGS = dict(("lang%d" % n, tuple(form % n for form in (
    "l%d", "l-%d", "l_%d", "lang_%d", "lang-%d", "lang %d", "language%d", "language_%d", "language %d")))
    for n in (1, 2))
_LID_SPELLINGS = {"other": ("rest", "punct", "punctuation", "symbol", "univ", "others"),
                  "ne": ("named_entity", "named entity", "entity", "ner", "name"),
                  "mixed": ("eng&spa", "spa&eng", "mix", "both"),
                  "ambiguous": ("amb", "ambig", "either"),
                  "fw": ("foreign", "foreign_word", "lang3"),
                  "unk": ("unknown", "?")}
_POS_SPELLINGS = {"CONJ": ("CCONJ",), "PART": ("PRT",), "PUNCT": (".", "PUNC"), "PROPN": ("NNP", "PROP"),
                  "X": ("SYM", "OTHER"), "PART_NEG": ("NEG",), "PRON_WH": ("WH",), "NUM": ("CD",)}
_ENTITY_SPELLINGS = {"PER": ("PERSON", "PERS"), "LOC": ("LOCATION", "PLACE", "GPE"),
                     "ORG": ("ORGANISATION", "ORGANIZATION"), "PROD": ("PRODUCT",), "OTHER": ("MISC",),
                     "TIME": ("DATE",), "EVENT": ("EVT",),
                     "PERSON": ("PER", "PERS"), "PLACE": ("LOC", "LOCATION", "GPE"),
                     "ORGANISATION": ("ORG", "ORGANIZATION")}
_SA_SPELLINGS = {"positive": ("pos", "positivo", "1", "+1", "+"), "negative": ("neg", "negativo", "-1", "-"),
                 "neutral": ("neu", "neutro", "0", "none")}


def _lower_aliases(labels, spellings):
    """``{spelling lower-cased: label}`` for the labels of ``labels`` that ``spellings`` knows."""
    return dict((alias.lower(), label) for label in labels for alias in spellings.get(label, ()))


def lid_aliases(pair, labels):
    """The LID label aliases of ``pair``: its languages' codes for ``lang1`` / ``lang2``, the source schemes' labels.

    >>> lid_aliases("spa_eng", _LID8)["eng"], lid_aliases("spa_eng", _LID8)["eng&spa"]
    ('lang1', 'mixed')
    """
    _, first, second = LANGUAGES[pair]
    spellings = dict(_LID_SPELLINGS, lang1=_LANGUAGE_SPELLINGS[first] + _NUMBERED_SPELLINGS["lang1"],
                     lang2=_LANGUAGE_SPELLINGS[second] + _NUMBERED_SPELLINGS["lang2"])
    aliases = _lower_aliases(labels, spellings)
    return dict((alias, label) for alias, label in aliases.items() if alias not in labels)


def bio_aliases(labels):
    """Entity label aliases: other prefixes (``S-``/``U-`` begin, ``E-``/``L-`` inside, ``_`` for ``-``), other type
    spellings, a bare type (its ``B-`` label) and ``0`` for ``O``.

    >>> aliases = bio_aliases(bio(("PER", "LOC")))
    >>> aliases["b-person"], aliases["u-loc"], aliases["i_gpe"], aliases["per"], aliases["0"]
    ('B-PER', 'B-LOC', 'I-LOC', 'B-PER', 'O')
    """
    aliases = {"0": "O"}
    for label in labels:
        if label[:2] not in ("B-", "I-"):
            continue
        kind = label[2:]
        for spelling in (kind,) + _ENTITY_SPELLINGS.get(kind, ()):
            prefixes = ("B", "S", "U") if label[0] == "B" else ("I", "E", "L")
            for prefix in prefixes:
                for joiner in "-_":
                    aliases.setdefault(("%s%s%s" % (prefix, joiner, spelling)).lower(), label)
            if label[0] == "B":
                aliases.setdefault(spelling.lower(), label)
    return dict((alias, label) for alias, label in aliases.items() if alias not in [l.lower() for l in labels])


def _label_aliases(task):
    """``{pair: {alias lower-cased: label}}`` of a task (see above)."""
    build = {"lid": lid_aliases, "pos": lambda pair, labels: _lower_aliases(labels, _POS_SPELLINGS),
             "ner": lambda pair, labels: bio_aliases(labels),
             "sa": lambda pair, labels: _lower_aliases(labels, _SA_SPELLINGS)}[task.key]
    return dict((pair, build(pair, labels)) for pair, labels in task.labels.items())


#: Every dataset's label set by its submission file name: a file whose labels are another dataset's is told so.
LABEL_SETS = OrderedDict((SUBMISSION_FILE.format(task=task.key, lang=pair), task.labels[pair])
                         for task, pair in DATASETS)
for _task in TASKS:
    _task.label_aliases = _label_aliases(_task)
    _task.label_sets = LABEL_SETS

#: Reference files: ``lid_spa_eng.conll``, ... (gold in the release's CoNLL layout).
REFERENCE_FILE = "{task}_{lang}.conll"
#: Other spellings of a file stem, for the did-you-mean: the release's dataset ids.
NAME_ALIASES = dict((dataset_id(task, pair), "%s_%s" % (task.key, pair)) for task, pair in DATASETS)

#: The leaderboard score is the plain mean of the dataset scores (every dataset weighs the same).
AVERAGE = "entries"
#: The leaderboard as the paper's Table 5 shows it: Avg (the ranking key), then each dataset's score
#: (no task or language-pair means); column labels such as ``LID SPA-ENG``.
LEADERBOARD = "datasets"
OVERALL_LABEL = "Avg"
DATASET_LABEL = "{task} {pair}"
#: The options of the signature (LinCE has no ranked candidates).
SIGNATURE_OPTIONS = "avg:dataset-mean|labels:exact|spans:conlleval"

#: Wording of the detailed-results page where LinCE differs from the defaults.
REPORT_NOTES = {
    "overall": "Mean of the dataset scores; each dataset weighs the same (the LinCE leaderboard average).",
    "official": "Official (corpus-level: all tokens or posts of the file)",
    "task": "Every metric pools all tokens (or posts) of the file: accuracy, weighted F1, entity-span micro-F1. "
            "Expand a language pair for its per-label precision, recall and F1.",
}

#: The one competition of this declaration (one bundle).
SUBTASKS = OrderedDict([
    ("lince", {"title": TITLE, "tasks": tuple(TASKS_BY_FOLDER), "languages": tuple(LANGUAGES)}),
])

NOTHING_HELP = (
    "Nothing could be scored: %s A LinCE submission is a zip whose root holds one text file per dataset, "
    "named like lid_spa_eng.txt (task_pair.txt), with one label per line aligned with the input file of the "
    "phase's split (dev or test). Zip the files themselves, not a folder, and check the zip with the starting kit (python3 validate.py).")

#: Limits applied to participant uploads.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_UPLOAD_BYTES = 1024 * 1024 * 1024
MAX_MEMBERS = 1000

#: A declared dataset that no phase has a reference for is left out of the bundle and its leaderboard (and marked
#: LACKING on the pages), instead of keeping an empty column.
LACKING_DATASETS = "drop"
#: How the pages' datasets table heads its language column.
LANGUAGE_LABEL = "Language pair"
