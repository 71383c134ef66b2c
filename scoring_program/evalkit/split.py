"""The public / private split of a test phase, as the scoring program reads it (``split.json``; docs/test_feedback.md).

A reference folder that holds ``split.json`` was written by the organiser's split (``organiser/split.py``): every
item (sentence, document, set) of a reference file that is not scored in this folder has its gold redacted, and the
manifest lists, per reference file, the indices of the items scored here::

    {"mode": "public_private", "unit": "sentences", "part": "public", "public_fraction": 0.3,
     "seed_digest": "0123456789ab", "files": {"<task>/<lang>.json": {"items": 40, "scored": 12,
                                                                        "indices": [1, 5, ...]}}}

``part``: ``public`` or ``private`` (the items of that part are scored), ``all`` (nothing redacted: scored as
without a manifest), ``none`` (blind: every gold redacted, nothing scored; the scores hold only :data:`VALID_KEY`).
The whole submission is read and its format checked against the whole input, whatever the split; only the
arithmetic is restricted to the scored items (each kind's ``restrict``), so no message depends on the split.
"""
import json
import os

from .layout import ReferenceError
from .loading import read_optional_json

SPLIT_FILE = "split.json"
PARTS = ("public", "private", "all", "none")
MODES = ("public_private", "blind", "full")
#: The one score of a blind phase: the fraction of the phase's items validly predicted.
VALID_KEY = "valid"


class Part(object):
    """How one reference file is scored: ``indices`` (sorted item indices scored here; None: every item, as without a
    split) and ``blind`` (nothing scored, only the validly predicted items counted)."""

    def __init__(self, indices=None, blind=False):
        self.indices = indices
        self.blind = blind


def read_split(ref_dir):
    """The checked manifest of ``ref_dir/split.json``, or None when the folder has none; ReferenceError when it is
    there but unusable (a broken reference: the organiser's to fix)."""
    path = os.path.join(ref_dir, SPLIT_FILE)
    if not os.path.isfile(path):
        return None
    value = read_optional_json(path, 64 * 1024 * 1024)
    problem = _problem(value)
    if problem:
        raise ReferenceError("reference %s is unusable: %s" % (SPLIT_FILE, problem))
    return value


def _problem(value):
    """What is wrong with a manifest (a sentence), or ""."""
    if type(value) is not dict:
        return "expected a JSON object"
    if value.get("part") not in PARTS:
        return "expected part one of %s, got %r" % (", ".join(PARTS), value.get("part"))
    if type(value.get("files")) is not dict:
        return "expected a files object"
    for name, spec in value["files"].items():
        if type(spec) is not dict or type(spec.get("items")) is not int or type(spec.get("indices")) is not list:
            return "file %s: expected items (a number) and indices (a list)" % name
        indices = spec["indices"]
        if any(type(i) is not int for i in indices) or indices != sorted(set(indices)) or \
                (indices and not 0 <= indices[0] <= indices[-1] < spec["items"]):
            return "file %s: expected sorted distinct indices below %d" % (name, spec["items"])
        if "same_items_as" in spec and (type(spec["same_items_as"]) is not str or spec["same_items_as"] == name
                                        or spec["same_items_as"] not in value["files"]):
            return "file %s: expected same_items_as to name another file of the manifest" % name
    return ""


def file_part(manifest, relative, items):
    """The :class:`Part` of the reference file ``relative`` (its path in the folder, ``/``-separated) with ``items``
    parsed items, or None when ``manifest`` is None or scores every item (``part: all``); ReferenceError when the
    manifest does not describe this file as it is."""
    if manifest is None or manifest["part"] == "all":
        return None
    spec = manifest["files"].get(relative)
    if spec is None:
        raise ReferenceError("reference %s lists no file %s" % (SPLIT_FILE, relative))
    if spec["items"] != items:
        raise ReferenceError("reference %s: %s has %d items, the file %d" % (SPLIT_FILE, relative, spec["items"], items))
    if manifest["part"] == "none":
        return Part(blind=True)
    return Part(indices=list(spec["indices"]))


def scored_files(manifest, relatives):
    """``manifest`` with the files ``relatives`` alone (the reference files present: a subtask's reference data
    holds some of the phase's files, and its counts are its own)."""
    return dict(manifest, files=dict((name, spec) for name, spec in manifest["files"].items() if name in relatives))


def unit(manifest, competition):
    """What the manifest's items are ("sentences", "documents", "sets")."""
    notes = getattr(competition, "REPORT_NOTES", None) or {}
    return str(manifest.get("unit") or notes.get("unit") or "sentences")


#: What follows from the part a report scores, said after its counts (the report is all a participant reads of a test
#: phase: the stdout summary, ``detailed_results.html``).
FOLLOWS = {
    "public": ("these scores, and the leaderboard's, are on the public part of the test set only; the final ranking "
               "re-scores every team's official submission (its last scored one) on the private rest, whose gold is "
               "not on the platform, so a final score and rank may differ from these"),
    "private": ("the part the final ranking re-scores every team's official submission on; the platform's test phase "
                "scored only the public rest"),
    "all": ("the whole test gold is on the platform: the final ranking scores every team's official submission (its "
            "last scored one) on this same gold"),
    "none": ("no score is shown during this phase; the final ranking scores every team's official submission (its "
             "last scored one) on the whole test gold, kept by the organisers"),
}


def distinct_sizes(files, names=None):
    """``(scored N, items M)`` of a manifest's ``files`` (only ``names`` when given), each item counted once: a file
    whose spec says it holds the same items as another (``same_items_as``: the tasks of one treebank, two subtasks
    over one list of target words) counts only when that other file is not counted.

    >>> distinct_sizes({"a": {"items": 10, "scored": 3, "indices": []},
    ...                 "b": {"items": 10, "scored": 3, "indices": [], "same_items_as": "a"}})
    (3, 10)
    """
    counted = [name for name in sorted(files) if names is None or name in names]
    chosen = set(counted)
    scored = items = 0
    for name in counted:
        spec = files[name]
        if spec.get("same_items_as") in chosen:
            continue
        scored += int(spec.get("scored", len(spec.get("indices") or [])))
        items += int(spec.get("items", 0))
    return scored, items


def describe(manifest, competition, entries):
    """The report's sentence about the part scored (never which items) and what follows from it (:data:`FOLLOWS`):
    "public part: 12 of 40 sentences: these scores ... are on the public part of the test set only; the final
    ranking re-scores ... on the private rest ..."; in a blind phase, the items validly predicted per file."""
    what = unit(manifest, competition)
    files = manifest["files"]
    scored, total = distinct_sizes(files)
    if manifest["part"] == "none":
        names = [entry["file"] for entry in entries]
        if len(set(names)) < len(names):   # tasks scoring the same files (per-document files): named by task too
            names = ["%s (%s)" % (entry["file"], entry["task"]) for entry in entries]
        counts = ", ".join("%s: %d of %d" % (names[i], entry.get("valid_items", 0), entry.get("expected_items", 0))
                           for i, entry in enumerate(entries))
        return ("blind test phase: no score is computed from the gold; validly predicted %s per file: %s. %s."
                % (what, counts, FOLLOWS["none"][0].upper() + FOLLOWS["none"][1:]))
    label = {"public": "public part", "private": "private part"}.get(manifest["part"], "whole test set")
    return "%s: %d of %d %s: %s." % (label, scored, total, what, FOLLOWS.get(manifest["part"], FOLLOWS["all"]))


def valid_fraction(entries):
    """The blind phase's one score: the items validly predicted over the items expected, over every file (a file
    not submitted or unusable counts 0 valid)."""
    expected = sum(entry.get("expected_items", 0) for entry in entries)
    valid = sum(entry.get("valid_items", 0) for entry in entries)
    return float(valid) / expected if expected else 0.0


def dumps(manifest):
    """The text of a ``split.json`` (sorted keys, one line per file)."""
    head = dict((key, value) for key, value in manifest.items() if key != "files")
    lines = ['%s: %s' % (json.dumps(key), json.dumps(head[key], sort_keys=True)) for key in sorted(head)]
    files = manifest.get("files") or {}
    body = ",\n".join("  %s: %s" % (json.dumps(name), json.dumps(files[name], sort_keys=True)) for name in sorted(files))
    return "{\n %s,\n \"files\": {\n%s\n }\n}\n" % (",\n ".join(lines), body)
