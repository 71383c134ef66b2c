"""What ``python -m organiser codabench pull`` writes beside the files it fetched, and how a team's name becomes a
folder (standard library only: ``make results`` reads it through :mod:`organiser.results.layouts`).

``<out>/codabench-manifest.json``::

    {"format": 1, "platform": "codabench", "base_url": ..., "phase": 4, "phase_name": "Test", "rule": "auto",
     "pulled_at": "2026-11-28T17:40:02Z", "columns": ["avg_score", ...], "teams": {"<team>": "<folder>"},
     "submissions": [{"id": 8, "team": "team-a", "filename": "baseline.zip", "created_when": ..., "status":
                      "Finished", "on_leaderboard": true, "state": "counted", "reason": "...", "file":
                      "team-a/8_baseline.zip", "size": 33872, "sha256": ..., "scores": {"avg_score": "0.8775446429"},
                      "fetched_at": ...}, ...]}

Every submission of the phase is listed, fetched or not; ``state`` says what became of it: ``counted`` (the team's
submission that counts, fetched), ``fetched`` (another finished one, ``--all``), ``superseded`` (finished, not the
one that counts: not fetched), ``failed`` (the platform's status Failed or Cancelled), ``running`` (not finished
when pulled, or finished with its scores still arriving), ``excluded`` (``--exclude``), ``deleted`` (soft-deleted on
the platform). ``<out>/codabench-manifest.csv`` holds the same rows for people (both written by
:func:`organiser.codabench.pull.write_manifest`).

The team is the submission's ``owner`` (Codabench's user name: the field that names the team in every list,
recorded); the name is the participant's, so its folder is made safe (:func:`folder_name`) and the real name stays
in the manifest.
"""
import hashlib
import json
import os
import unicodedata

MANIFEST = "codabench-manifest.json"
MANIFEST_CSV = "codabench-manifest.csv"
FORMAT = 1
STATES = ("counted", "fetched", "superseded", "failed", "running", "excluded", "deleted")
CSV_FIELDS = ("id", "team", "folder", "state", "status", "created_when", "on_leaderboard", "file", "size", "sha256",
              "reason")
#: Names Windows keeps for devices, whatever the extension.
RESERVED = frozenset(["CON", "PRN", "AUX", "NUL"] + ["COM%d" % i for i in range(1, 10)] +
                     ["LPT%d" % i for i in range(1, 10)])
MAX_COMPONENT = 64


def safe_component(name, fallback="team"):
    """``name`` as one safe path component: letters and digits of any script, ``-``, ``_`` and ``.`` kept (NFC),
    anything else (separators, ``..``, control and format characters, spaces) becomes ``_``; no leading or
    trailing dot or underscore, at most :data:`MAX_COMPONENT` characters, never a Windows device name, never empty.

    >>> safe_component("../../etc/passwd"), safe_component("Owls\\u202e gpj.exe"), safe_component(".."), \\
    ...     safe_component("con"), safe_component("Équipe 1")
    ('etc_passwd', 'Owls__gpj.exe', 'team', '_con', 'Équipe_1')
    """
    text = unicodedata.normalize("NFC", name if isinstance(name, str) else str(name))
    kept = "".join(c if (c.isalnum() and c.isprintable()) or c in "-_." else "_" for c in text)
    while "__" in kept:
        kept = kept.replace("__", "_")
    kept = kept.strip("._")[:MAX_COMPONENT].strip("._")
    if not kept:
        kept = fallback
    if kept.split(".")[0].upper() in RESERVED:
        kept = "_" + kept
    return kept


def folder_name(team, taken):
    """A folder for ``team`` that no other team's folder equals once case and accents are set aside (folders that
    differ only by case are one folder on macOS and Windows): :func:`safe_component`, then ``-2``, ``-3``...
    ``taken``: ``{folded folder: team}`` of the folders already given, updated."""
    base = safe_component(team)
    candidate, number = base, 1
    while fold(candidate) in taken and taken[fold(candidate)] != team:
        number += 1
        candidate = "%s-%d" % (base[:MAX_COMPONENT - 4], number)
    taken[fold(candidate)] = team
    return candidate


def fold(text):
    """``text`` as file systems that ignore case (and some, accents) compare names."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def file_name(submission_id, filename):
    """``<id>_<safe name>.zip``: the submission's id first, so that two submissions of one file name never meet."""
    stem = filename[:-4] if filename.lower().endswith(".zip") else filename
    return "%d_%s.zip" % (submission_id, safe_component(stem, "submission"))


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read(out):
    """The manifest in ``out`` as a dict, or None when there is none; ValueError naming the file when unreadable."""
    path = os.path.join(out, MANIFEST)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except (OSError, ValueError) as error:
        raise ValueError("%s: not a readable manifest (%s)" % (path, error))
    if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(value.get("submissions"), list):
        raise ValueError("%s: expected a manifest of format %d with a list of submissions" % (path, FORMAT))
    for entry in value["submissions"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or entry.get("state") not in STATES:
            raise ValueError("%s: a submission without an id or a known state: %r" % (path, entry))
        if entry.get("file") is not None and not _inside(entry["file"]):
            raise ValueError("%s: submission %d names a file outside the folder: %r" % (path, entry["id"],
                                                                                      entry["file"]))
    return value


def _inside(relative):
    """Whether ``relative`` is ``<folder>/<file>`` with neither part empty, ``.`` or ``..``."""
    parts = relative.split("/") if isinstance(relative, str) else []
    return len(parts) == 2 and all(p and p not in (".", "..") and "\\" not in p for p in parts)
