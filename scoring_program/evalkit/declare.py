"""The shared task declaration of the line-aligned kinds (``evalkit.lines``): one class every such competition uses
instead of a copy of its own.

A competition's declaration (``competitions/<id>/<id>.py``) builds its tasks with :class:`TextTask` and names them
in ``TASKS``; the scorer, the bundle builder and the pages read only the attributes documented here.
Standard library only, Python 3.7+.
"""
from collections import OrderedDict


def bio(types):
    """The BIO label set of entity ``types``: ``O``, then ``B-T`` and ``I-T`` for each type.

    >>> bio(("PER", "LOC"))
    ('O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC')
    """
    return ("O",) + tuple("%s-%s" % (prefix, kind) for kind in types for prefix in "BI")


class Task(object):
    """One task of a competition over some languages: what every kind reads.

    ``key``: the task's id (its folder in reports, the stem of its score keys ``<lang>_<key>`` and file names);
    ``label``: its name on the pages and the leaderboard; ``kind``: the kind that reads and scores its files
    (``evalkit.kinds``, ``evalkit.lines``, ``evalkit.choice``, ``evalkit.timenorm.kind``); ``metric``: the official
    metric (the entry score); ``components``: every metric written to ``scores.txt`` (``<lang>_<key>_<component>``),
    the official one among them; ``languages``: the language codes it has.
    """

    def __init__(self, key, label, kind, metric, components, languages):
        self.folder = key
        self.key = key
        self.label = label
        self.kind = kind
        self.metric = metric
        self.components = tuple(components)
        if self.metric not in self.components:
            raise ValueError("task %r: its metric %r is not among its components %r" % (key, metric, self.components))
        self.languages = tuple(languages)

    def __repr__(self):
        return "Task(%r)" % self.key


class TextTask(Task):
    """One task of a line-aligned competition over some languages (:class:`Task`, its languages those of ``labels``).

    ``kind``: ``token_labels`` (one label per token line) or
    ``sentence_labels`` (one label per sentence), see ``evalkit.lines.TEXT_KINDS``; ``metric``: the official metric
    (``acc``, ``weighted_f1`` or ``span_f1``); ``components`` (among the same); ``labels``: ``{lang: label set}``
    (a prediction outside the set is reported and never matches); ``token_column``: True when the submission form is
    ``token<TAB>label`` (the CoNLL form): the token column is then accepted without a warning; ``label_aliases``:
    ``{lang: {other spelling lower-cased: label}}`` for the did-you-mean of a label outside the set.
    """

    def __init__(self, key, label, kind, metric, components, labels, token_column=False, label_aliases=None):
        self.labels = OrderedDict(labels)
        Task.__init__(self, key, label, kind, metric, components, self.labels)
        self.token_column = bool(token_column)
        self.label_aliases = dict(label_aliases or {})


class JsonTask(Task):
    """One task of a JSON kind (``evalkit.kinds``: files ``<task>/<lang>.json``), e.g. ``tagging``: per sentence
    ``[[form, tag], ...]``, components ``acc`` and ``f1`` (per-sentence accuracy and macro-F1, averaged over the
    sentences; the entry score is their mean). ``labels``: the tag set (a predicted tag outside it gets a warning
    with a "did you mean", from ``label_aliases``, ``{other spelling: tag}``); ``metric`` defaults to the first
    component (the pages name it).
    """

    def __init__(self, key, label, kind, components, languages, labels=(), label_aliases=None, metric=None):
        Task.__init__(self, key, label, kind, metric or components[0], components, languages)
        self.labels = tuple(labels)
        self.label_aliases = dict(label_aliases or {})


class ValueTask(Task):
    """One task of a value kind (``evalkit.values``: one ``key<TAB>value`` line per item, flat file names
    ``SUBMISSION_FILE``/``REFERENCE_FILE``): ``item_labels`` (classification; components among ``acc`` and
    ``macro_f1``; ``labels``: the label set, one for every language, or ``{lang: set}``; ``label_aliases``: ``{other
    spelling lower-cased: label}`` for the did-you-mean) or ``item_values`` (graded values; components among
    ``spearman`` and ``pearson``). ``metric`` defaults to the first component; ``unit``: what an item is called in
    messages and reports ("word"; default "item").
    """

    def __init__(self, key, label, kind, components, languages, labels=(), label_aliases=None, metric=None,
                 unit="item"):
        Task.__init__(self, key, label, kind, metric or components[0], components, languages)
        self.labels = OrderedDict(labels) if isinstance(labels, dict) else tuple(labels)
        if kind == "item_labels" and not self.labels:
            raise ValueError("task %r: an item_labels task declares its label set (labels=...)" % key)
        self.label_aliases = dict(label_aliases or {})
        self.unit = unit
