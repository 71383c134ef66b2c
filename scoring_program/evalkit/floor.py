"""Below the floor, where the gold is public: a file that scores at or below the phase's trivial floor.

A well-formed file that does no better than the competition's own floor baseline (majority tag, identity lemma,
an empty document, a constant chooser) almost always holds a systematic mistake: labels swapped between two
classes, scores whose direction is reversed, candidates in the wrong unit. The floor of every reference file
rides with the development reference, in :data:`FILE_NAME`, written by the build from the floor baseline's
scores on that phase (``python -m organiser baselines``)::

    {"label": "floor", "system": "floor", "files": {"<task folder>/<lang>": score},
     "sentences": {"<task folder>/<lang>": the reference's sentence count (a floor judges only a file of that count)}}

The scoring program reads it only where the phase's gold is public (:mod:`evalkit.policy`: the development
phase); the starting kits' validators read the one their kit ships. A message of this module therefore speaks of
a score, and never runs where the gold is hidden.

The likely causes are a fact of the task's kind (a kind's ``floor_causes``), or of the task itself when its
declaration says more (``Task.floor_causes``); the machinery names no competition.
"""
import os

from .loading import read_optional_json
from .messages import Message, WARNING

FILE_NAME = "floor_scores.json"
#: A score within this of the floor counts as at the floor (the floor's own file, rounding aside).
EPSILON = 1e-9
#: Said when neither the kind nor the task says more.
GENERIC_CAUSES = ("predictions made for another file, split or order; labels swapped between two classes; "
                  "values in another form than the reference's")


def read_floor(path, max_bytes=4 * 1024 * 1024):
    """``(label, {file name: floor score})`` from the optional file at ``path``; ``("", {})`` when it is absent or
    unusable (then nothing is said). Only finite numeric scores are kept."""
    value = read_optional_json(path, max_bytes)
    files = value.get("files") if type(value) is dict else None
    if type(files) is not dict:
        return "", {}
    found = dict((name, float(score)) for name, score in files.items()
                 if type(name) is str and type(score) in (int, float) and score == score)
    label = value.get("label") if type(value.get("label")) is str else "floor"
    sentences = value.get("sentences") if type(value.get("sentences")) is dict else {}
    for name, count in sentences.items():   # a floor of a reference with other sentences is no floor here
        if name in found and type(count) is int:
            found[name] = (found[name], count)
    return label[:80], found


def entry_key(entry):
    """The key of a report entry in the floor file: ``<task folder>/<lang>`` (two tasks may score one file)."""
    return "%s/%s" % (entry.get("task"), entry.get("lang"))


def _floor_of(floors, entry):
    """The floor of ``entry``'s file, or None (none, or the floor of a reference with another sentence count)."""
    floor = floors.get(entry_key(entry))
    if type(floor) is tuple:
        floor, count = floor
        if entry.get("sentences") != count:
            return None
    return floor


def causes(task, kind):
    """The likely causes of a file at the floor, for ``task`` of ``kind``: the task's own ``floor_causes``, else
    its kind's, else :data:`GENERIC_CAUSES`."""
    return getattr(task, "floor_causes", None) or getattr(kind, "floor_causes", None) or GENERIC_CAUSES


def below_floor(entries, floors, label, tasks, kinds):
    """One warning per scored entry of ``entries`` (report entry dicts) whose score is at or below its floor in
    ``floors`` (:func:`read_floor`): the score, the floor and the likely causes of its task kind. ``tasks``: the
    declared tasks by folder; ``kinds``: every kind by name."""
    found = []
    shared = {}   # files scored by several tasks (their messages name the task)
    for entry in entries:
        shared[entry.get("file")] = shared.get(entry.get("file"), 0) + 1
    for entry in entries:
        floor = _floor_of(floors, entry)
        if floor is None or entry.get("status") != "scored" or entry.get("score") is None:
            continue
        if entry["score"] > floor + EPSILON or entry["score"] >= 1.0 - EPSILON:   # above it, or perfect (a floor of 1)
            continue
        task = tasks.get(entry.get("task"))
        kind = kinds.get(getattr(task, "kind", None))
        found.append(Message(entry["file"], WARNING, "whole file", (
            "this file scores %.4f%s, %s the %s of this phase (%.4f, the trivial baseline of the starting kit): a "
            "well-formed file that does no better almost always holds a systematic mistake. Likely causes for this "
            "task: %s." % (entry["score"], (" in %s" % task.label) if shared.get(entry.get("file"), 0) > 1 else "",
                           "below" if entry["score"] < floor - EPSILON else "at", label, floor, causes(task, kind)))))
    return found + inverted_ranks(entries, tasks, kinds)


#: Below this share of items right within the first candidates, a file says too little for :func:`inverted_ranks`.
MIN_RANKED_SHARE = 0.05
#: A file of fewer items is too small for :func:`inverted_ranks` to tell a reversed ranking from chance.
MIN_RANKED_ITEMS = 20


def inverted_ranks(entries, tasks, kinds):
    """One warning per scored entry of ``entries`` whose first candidate is right less often than a random one of
    its first k would be: over the file's items (its ``micro`` scores), top-k accuracy above k times top-1 accuracy
    (a kind's ``ranked_components``: the top-1 and the top-k component and k), in a file of at least
    :data:`MIN_RANKED_ITEMS` items. A ranking that is no better than chance still has top-k at most k times top-1;
    candidates written best last, or padded in front with "", have much more. Read from the scores already
    computed: it costs no pass over a file."""
    found = []
    for entry in entries:
        task = tasks.get(entry.get("task"))
        ranked = getattr(kinds.get(getattr(task, "kind", None)), "ranked_components", None)
        components = entry.get("micro") if entry.get("status") == "scored" else None
        if not ranked or type(components) is not dict or not entry.get("items", 0) >= MIN_RANKED_ITEMS:
            continue
        first, top, k = ranked
        at_1, at_k = components.get(first), components.get(top)
        if type(at_1) is not float or type(at_k) is not float or at_k < MIN_RANKED_SHARE or at_k <= k * at_1:
            continue
        found.append(Message(entry["file"], WARNING, "whole file", (
            "%s %.4f but %s %.4f: the first candidate is right less often than a random one of the first %d would "
            "be. The candidates are probably ranked best last (a list reversed, or sorted by a score where lower is "
            "better) or padded in front (\"\" first); write each list best first." % (first, at_1, top, at_k, k))))
    return found


def check_report(report, floor_path, competition, kinds):
    """The warnings of :func:`below_floor` for ``report`` (a scored report on a gold-public reference) with the
    floor file at ``floor_path``; [] when there is none. For the starting kits' validators, which score the
    development split against the gold they ship and read the kit's own floor file."""
    label, floors = read_floor(floor_path)
    if not floors:
        return []
    tasks = dict((task.folder, task) for task in competition.TASKS)
    return [message.as_dict() for message in below_floor(report["entries"], floors, label, tasks, kinds)]


def kit_floor_file(kit_folder, competition_id):
    """The floor file a starting kit's validator reads: the kit's ``reference_data/dev/`` (the bundle's kit), else
    the repository's development reference (``reference_data/dev`` beside the kit folder, or
    ``reference_data/<competition id>/dev`` for a competition under ``competitions/``); None when there is none."""
    for folder in (os.path.join(kit_folder, "reference_data", "dev"),
                   os.path.join(os.path.dirname(kit_folder), "reference_data", "dev"),
                   os.path.join(kit_folder, os.pardir, os.pardir, os.pardir, "reference_data", competition_id, "dev")):
        path = os.path.join(folder, FILE_NAME)
        if os.path.isfile(path):
            return os.path.normpath(path)
    return None


def gold_scores(report, with_gold):
    """``{file: score}`` of the scored entries of ``report`` whose reference holds the gold (``with_gold(entry)``):
    what evalkit/verdict.py counts as scoring 0 when a score is 0."""
    return dict((entry["file"], entry["score"]) for entry in report.get("entries", [])
                if entry.get("status") == "scored" and with_gold(entry))
