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


#: The 17 universal POS tags of Universal Dependencies v2 (universaldependencies.org/u/pos/); a multiword-token
#: range row has ``_``. Tags outside them are reported (they never match).
UPOS_TAGS = ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT",
             "SCONJ", "SYM", "VERB", "X")
#: Other spellings of a UPOS tag, for the "did you mean" (CONJ, UD v1's tag, is left out: a language's training
#: data may still use it, and it then belongs to that language's tag set; UD_V1 names it).
UPOS_ALIASES = {"PUNC": "PUNCT", "PCT": "PUNCT", "PREP": "ADP"}

#: The older scheme a tool trained on an older treebank writes, and what UD v2 renamed
#: (universaldependencies.org/v2/summary.html): ``(older scheme, this scheme, {"labels": {tag: tag}, "features":
#: {name: name}, "values": {feature: {value: value}}})``. A file written in the older scheme is told so, with the
#: renaming (``evalkit/inventory.py``), and, where the gold is public, what the renaming would score
#: (``evalkit/mended.py``); a language whose training data keeps an older name (Old Hungarian's CONJ) keeps it.
UD_V1 = ("UD v1", "UD v2", {
    "labels": {"CONJ": "CCONJ"},
    "features": {"Negative": "Polarity"},
    "values": {"Aspect": {"Pro": "Prosp"}, "VerbForm": {"Trans": "Conv"}, "Definite": {"Red": "Cons"}}})

#: UD v2's universal features and their values (universaldependencies.org/u/feat/), then the features UD documents
#: for several languages with values of their own (None: any value). A language's training data adds its own
#: (``evalkit/inventory.py``); a name or value outside them is reported, never scored differently.
UD_FEATURES = dict((name, tuple(values.split())) for name, values in (
    ("PronType", "Art Dem Emp Exc Ind Int Neg Prs Rcp Rel Tot"),
    ("NumType", "Card Dist Frac Mult Ord Range Sets"),
    ("Poss", "Yes"), ("Reflex", "Yes"), ("Foreign", "Yes"), ("Abbr", "Yes"), ("Typo", "Yes"),
    ("ExtPos", "ADJ ADP ADV AUX CCONJ DET INTJ PRON PROPN SCONJ"),
    ("Gender", "Com Fem Masc Neut"), ("Animacy", "Anim Hum Inan Nhum"),
    ("Number", "Coll Count Dual Grpa Grpl Inv Pauc Plur Ptan Sing Tri"),
    ("Case", "Abs Acc Erg Nom Abe Ben Cau Cmp Cns Com Dat Dis Equ Gen Ins Par Tem Tra Voc Abl Add Ade All Del Ela Ess "
             "Ill Ine Lat Loc Per Sbe Sbl Spl Sub Sup Ter"),
    ("Definite", "Com Cons Def Ind Spec"), ("Deixis", "Abv Bel Even Med Nvis Prox Remt"), ("DeixisRef", "1 2"),
    ("Degree", "Abs Aug Cmp Dim Equ Pos Sup"),
    ("VerbForm", "Conv Fin Gdv Ger Inf Part Sup Vnoun"),
    ("Mood", "Adm Cnd Des Imp Ind Int Irr Jus Nec Opt Pot Prp Qot Sub"),
    ("Tense", "Fut Imp Past Pqp Pres"), ("Aspect", "Hab Imp Iter Perf Prog Prosp"),
    ("Voice", "Act Antip Bfoc Cau Dir Inv Lfoc Mid Pass Rcp"), ("Evident", "Fh Nfh"), ("Polarity", "Neg Pos"),
    ("Person", "0 1 2 3 4"), ("Polite", "Elev Form Humb Infm"), ("Clusivity", "Ex In")))
UD_FEATURES.update((name, None) for name in (
    "AdpType", "AdvType", "ConjType", "Echo", "Hyph", "NameType", "NounType", "NumForm", "NumValue", "PartType",
    "PrepCase", "PunctSide", "PunctType", "Style", "Subcat", "VerbType"))


class Task(object):
    """One task of the competition.

    ``folder`` is the submission folder; ``key`` is the score-key stem (``<lang>_<key>``);
    ``kind`` names the file format and metric family in ``evalkit.kinds.KINDS``; ``components`` are
    the metric names averaged into the task score, in order (``<lang>_<key>_<component>``);
    ``languages`` the languages the task can have; ``mask_marker`` the gap marker of fill-mask input;
    ``gap_unit`` what one gap hides (``"character"``: a candidate of several characters is reported);
    ``blank_rows`` ``(label, what)``: the rows whose gold is ``label`` have no value of their own (where the gold is
    public, a file giving them another is told so: ``evalkit/blank.py``); ``older_scheme``: the older spellings
    of the task's labels or features (:data:`UD_V1`).
    The remaining attributes are the 2024 rules the kinds apply: only the first ``max_candidates``
    candidates count; a morphology token's form is under one of ``form_keys``; ``ignored_keys`` are
    never scored as features. ``labels``, ``label_aliases`` and ``features`` are the task's inventory (a tag set,
    other spellings of its tags, feature names and values): predictions outside it are reported, never scored
    differently (``evalkit/inventory.py``).
    """

    max_candidates = 3
    #: ``labels`` are the same for every language (UPOS): a tag outside them is reported even where the language's
    #: training data is not known (``evalkit/inventory.py``)
    universal_labels = False
    form_keys = ("Token", "Form")
    ignored_keys = frozenset(("Token", "Form", "UPOS", "Lemma"))

    def __init__(self, folder, key, label, kind, components, languages, mask_marker=None, labels=None,
                 label_aliases=None, features=None, gap_unit=None, blank_rows=None, older_scheme=None,
                 universal_labels=False):
        self.universal_labels = universal_labels
        self.older_scheme = older_scheme
        self.blank_rows = blank_rows
        self.gap_unit = gap_unit
        self.labels = labels
        self.label_aliases = label_aliases
        self.features = features
        self.folder = folder
        self.key = key
        self.label = label
        self.kind = kind
        self.components = tuple(components)
        self.languages = tuple(languages)
        self.mask_marker = mask_marker

    def __repr__(self):
        return "Task(%r)" % self.folder


#: What the rows of gold ``_`` are: the CoNLL-U rows of multiword tokens, whose words have rows of their own (in the
#: release every UPOS ``_`` is such a row).
RANGE_ROWS = "multiword-token rows such as 4-5 in the input, whose words have rows of their own"
#: The same for lemmas, where a few words have the lemma ``_`` too (ohu, orv): a lemma other than ``_`` loses them
#: all the same.
RANGE_ROWS_LEMMA = ("multiword-token rows such as 4-5 in the input, whose words have rows of their own, and words "
                    "the treebank gives no lemma")

TASKS = (
    Task("pos_tagging", "pos", "POS tagging", "tagging", ("acc", "f1"), UD_LANGUAGES, labels=UPOS_TAGS + ("_",),
         label_aliases=UPOS_ALIASES, blank_rows=("_", RANGE_ROWS), older_scheme=UD_V1, universal_labels=True),
    Task("morph_features", "full_morph", "Morphological features", "morph", (), UD_LANGUAGES, features=UD_FEATURES,
         older_scheme=UD_V1),
    Task("lemmatisation", "lemma", "Lemmatisation", "candidates", ("acc1", "acc3"), UD_LANGUAGES,
         blank_rows=("_", RANGE_ROWS_LEMMA)),
    Task("fill_mask_word", "fill_mask_word", "Filling the gaps (word)", "fill_mask", ("acc1", "acc3"),
         tuple(LANGUAGES), mask_marker="[MASK]"),
    Task("fill_mask_char", "fill_mask_char", "Filling the gaps (character)", "fill_mask", ("acc1", "acc3"),
         tuple(LANGUAGES), mask_marker="[_]", gap_unit="character"),
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

#: The reference folder the starting kit ships (the valid split's gold), named in the scorer's local hints.
LOCAL_REFERENCE = "reference_data/dev"

#: Limits applied to participant uploads (the largest valid file of the release is about 10 MiB).
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024
MAX_MEMBERS = 10000
