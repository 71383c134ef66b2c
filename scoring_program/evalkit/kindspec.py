"""What a kind is, which kinds a competition may use, and the check that a kind has every part.

A *kind* is one object that everything reads (docs/new_competition.md, "Writing a kind"): the scorer, the split of
the test gold, the leak audit, the contamination search, the final ranking and the starting kits' tools take what
they need from it, and no table elsewhere names kinds. Its parts:

- ``name``: what a task's ``kind`` names (``Task("pos", ..., "tagging", ...)``);
- reading: either JSON (``parse_reference(value, name, task)``, ``check_golds(ref, name)``,
  ``parse_prediction(value, ref, log, task)``, ``check_labels(pred, log, task, inventory)``), or bytes
  (``reads_text = True``: ``parse_reference_text(data, name, task, lang, redacted=False)``,
  ``prediction_limit(ref, file_limit)``, ``parse_prediction_text(data, ref, log, task, max_bytes)``), or a folder of
  files per reference file (``reads_documents = True``: ``parse_reference_text`` and
  ``parse_prediction_documents(submission, task, lang, ref, log, file_limit)``); a reference
  parse returns a sequence of items (``len``); a prediction parse reports what is wrong in ``log`` (an
  :class:`evalkit.messages.MessageLog`) and raises :class:`evalkit.messages.DataError` for a file it cannot read;
- scoring: ``score(ref, pred, task)`` returns an :class:`evalkit.kinds.Entry` (``components``, ``per_sentence``:
  per scored item, the values the components are computed from), ``score_value(components)`` the entry's score;
- parts of a file: ``scorable(ref)`` (the indices of scored items), ``restrict(ref, pred, indices)`` (the items
  ``indices`` alone), ``predictions(ref, pred)`` (each item's prediction, None when its format scored it 0);
- resampling (the final ranking's bootstrap): ``resampling = "sums"`` with ``from_sums(sums, count, task)`` (the
  components from the sums of the per-item values over ``count`` items: means, pooled counts), or
  ``resampling = "items"`` with ``from_items(values, task)`` (the components recomputed from the per-item values
  themselves, ``{name: list}``: rank correlations, any corpus-level metric that is no sum);
- ``items``: an :class:`evalkit.items.Items`, what one item of the kind's reference files is (split, audit,
  contamination), and ``items.given`` (an :class:`evalkit.items.Given`) what a participant is given of it: the
  released test input keeps that and nothing else (a CoNLL-U input: the forms, multiword-token ranges, ``# text``,
  ``SpaceAfter=No`` and ids of the kit's own; never HEAD, DEPREL, DEPS or a corpus's ``sent_id``).

Optional parts have defaults (``floor_causes``, ``label_swaps``, ``ranks_candidates``, ``uses_facts``, ...; see
:data:`OPTIONAL`). A competition brings kinds of its own in its folder: a module ``<id>_*.py`` beside its
declaration (bundled into its scoring program like ``evalkit/``), whose kinds the declaration lists in ``KINDS``.
:func:`use` registers them (a kind whose name is taken by another class is refused); :func:`missing_parts` says
what a kind lacks, and the organiser's tools refuse such a kind with the parts named.
"""

#: The parts every kind has (attribute names), whatever it reads.
REQUIRED = ("name", "score", "score_value", "scorable", "restrict", "predictions", "items")
#: The parts of a kind that reads JSON (``reads_text`` false).
REQUIRED_JSON = ("parse_reference", "check_golds", "parse_prediction", "check_labels")
#: The parts of a kind that reads bytes (``reads_text`` true).
REQUIRED_TEXT = ("parse_reference_text", "prediction_limit", "parse_prediction_text")
#: The parts of a kind whose submission is a folder of files, one per document (``reads_documents`` true).
REQUIRED_DOCUMENTS = ("parse_reference_text", "parse_prediction_documents")
#: The parts of the item side (:class:`evalkit.items.Items`).
REQUIRED_ITEMS = ("read", "write", "scorable", "key", "identity", "near_keys", "redact", "unscored", "gold", "label",
                  "public_texts", "tokens", "scramble", "secrets")
#: The parts of what a participant is given (:class:`evalkit.items.Given`, ``items.given``).
REQUIRED_GIVEN = ("claims", "released", "beyond")
#: Optional parts and what their absence means.
OPTIONAL = {
    "floor_causes": "the task's floor causes, else none",
    "label_swaps": "no swapped-labels message",
    "ranks_candidates": "not a ranking of candidates",
    "uses_facts": "no facts from the gold index",
    "optional_details": "always computes its detail tables",
    "gold_prediction": "the conformance check's perfect submission is not checked",
    "trivial_prediction": "make check's trivial submission (when the build has no baseline) leaves its files out",
    "best_score": "1.0 is the best score (a perfect submission's)",
    "floor_min_items": "a score at the floor is called a systematic mistake whatever the number of items",
    "release": "the kit's tools read the release as CoNLL-style files (evalkit.conll)",
    "report_notes": "the detailed-results page's default wording (means over sentences)",
    "item_metrics": "the final ranking calls from_items on every resample (no numpy twin of its metrics)",
}
RESAMPLING = ("sums", "items")

#: Every kind the scorer knows, by name: the built-in ones (``evalkit.scoring`` adds them) and those registered by
#: :func:`use`.
KINDS = {}


class KindError(Exception):
    """A kind that lacks a part, or whose name is taken: the organiser's to fix (never a participant's)."""


def resampling(kind):
    """How the bootstrap recomputes ``kind``'s components: ``"sums"`` (default) or ``"items"``."""
    return getattr(kind, "resampling", "sums")


def missing_parts(kind):
    """The parts ``kind`` lacks (an empty list when it is whole), each with what it is.

    >>> class Half(object):
    ...     name = "half"
    >>> missing_parts(Half())[:2]
    ['score (a method)', 'score_value (a method)']
    """
    missing = []
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not name:
        missing.append("name (a non-empty string)")
    for part in REQUIRED[1:]:
        if part == "items":
            continue
        if not callable(getattr(kind, part, None)):
            missing.append("%s (a method)" % part)
    if getattr(kind, "reads_documents", False):
        parts, reads = REQUIRED_DOCUMENTS, "reads a folder of documents (reads_documents)"
    elif getattr(kind, "reads_text", False):
        parts, reads = REQUIRED_TEXT, "reads bytes (reads_text)"
    else:
        parts, reads = REQUIRED_JSON, "reads JSON"
    for part in parts:
        if not callable(getattr(kind, part, None)):
            missing.append("%s (a method: the kind %s)" % (part, reads))
    how = resampling(kind)
    if how not in RESAMPLING:
        missing.append("resampling (one of %s, not %r)" % (", ".join(RESAMPLING), how))
    elif not callable(getattr(kind, "from_sums" if how == "sums" else "from_items", None)):
        missing.append("%s (a method: resampling is %r)" % ("from_sums" if how == "sums" else "from_items", how))
    items = getattr(kind, "items", None)
    if items is None:
        missing.append("items (an evalkit.items.Items: what one item of its reference files is)")
    else:
        for part in REQUIRED_ITEMS:
            if not callable(getattr(items, part, None)):
                missing.append("items.%s (a method)" % part)
        given = getattr(items, "given", None)
        if given is None:
            missing.append("items.given (an evalkit.items.Given: what a participant is given)")
        else:
            missing.extend("items.given.%s (a method)" % part for part in REQUIRED_GIVEN
                           if not callable(getattr(given, part, None)))
    return missing


def register(kind, origin="the kit"):
    """Add ``kind`` to :data:`KINDS`. KindError when it lacks a part or its name is another kind's."""
    missing = missing_parts(kind)
    if missing:
        raise KindError("the kind %s (%s) lacks %s" % (getattr(kind, "name", None) or type(kind).__name__, origin,
                                                      "; ".join(missing)))
    known = KINDS.get(kind.name)
    if known is not None and type(known) is not type(kind):
        raise KindError("the kind name %r (%s, %s.%s) is already the kit's kind %s.%s: give it another name"
                        % (kind.name, origin, type(kind).__module__, type(kind).__name__, type(known).__module__,
                           type(known).__name__))
    KINDS.setdefault(kind.name, kind)
    return KINDS[kind.name]


def use(competition):
    """Register the kinds ``competition`` declares (its ``KINDS``: kind objects), then check that every task names a
    known kind; KindError otherwise. Returns the competition's kinds by name."""
    origin = "declared by %s" % getattr(competition, "COMPETITION_ID", getattr(competition, "__name__", "?"))
    own = getattr(competition, "KINDS", ()) or ()
    if isinstance(own, dict):
        own = list(own.values())
    for kind in own:
        register(kind, origin)
    found = {}
    for task in getattr(competition, "TASKS", ()):
        kind = KINDS.get(task.kind)
        if kind is None:
            raise KindError("task %s names the kind %r, which is neither one of the kit's (%s) nor in the "
                            "declaration's KINDS" % (getattr(task, "folder", "?"), task.kind, ", ".join(sorted(KINDS))))
        found[task.kind] = kind
    return found


def kind_of(task):
    """The kind of ``task`` (registered: a built-in kind, or one :func:`use` registered)."""
    return KINDS[task.kind]
