"""``python -m organiser check BUNDLE... --submissions DIR``: validate bundles, then run them as the workers do.

Part 1 re-states, in code, every rule of the portable CodaLab v1.5 format that both CodaLab Competitions
and Codabench accept (issue 3); each failure names its rule and the offending key or member. Part 2
simulates both workers on every phase of each bundle: it unzips the phase's scoring program and
reference data, lays out ``run/{program,input/ref,input/res,output}``, substitutes ``$program``,
``$input`` and ``$output`` in the ``command:`` of the program's ``metadata``, splits it on single spaces
and runs it once from the run folder (CodaLab) and once from the program folder with a ``res/metadata``
file present (Codabench), on a baseline submission. Every leaderboard column must be in ``scores.txt``
and ``detailed_results.html`` must not be empty.
"""
import argparse
import collections
import datetime
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

import yaml

from organiser import logo, ROOT  # noqa: F401  (ROOT puts the scoring program on sys.path)
import st2024
from evalkit import keys

Failure = collections.namedtuple("Failure", "rule where text")

YAML_NAME = "competition.yaml"
EMBEDDINGS_REFERENCE = "embeddings.json"
TOP_LEVEL_KEYS = ("title", "description", "image", "has_registration", "end_date", "enable_detailed_results",
                  "competition_docker_image", "html", "phases", "leaderboard")
REQUIRED_TOP_LEVEL = ("title", "description", "image", "has_registration", "enable_detailed_results",
                      "competition_docker_image", "html", "phases", "leaderboard")
REQUIRED_PAGES = ("overview", "evaluation", "terms", "data")
PHASE_KEYS = ("phasenumber", "label", "start_date", "scoring_program", "reference_data", "description",
              "max_submissions", "max_submissions_per_day", "color", "execution_time_limit", "is_scoring_only",
              "auto_migration", "starting_kit", "public_data")
REQUIRED_PHASE = ("phasenumber", "label", "start_date", "scoring_program", "reference_data",
                  "max_submissions", "max_submissions_per_day")
PHASE_FILES = ("scoring_program", "reference_data", "starting_kit", "public_data")
COLUMN_KEYS = ("leaderboard", "label", "numeric_format", "sort", "rank")
KEY_PATTERN = re.compile(r"^[a-z0-9_]+$")
DATETIME_PATTERN = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
MAX_TITLE, MAX_LABEL, MAX_DESCRIPTION, MAX_KEY = 100, 50, 1000, 36

#: Every rule checked, by name (the names are what failures and tests refer to).
RULES = collections.OrderedDict([
    ("bundle.zip", "the bundle is a readable zip file"),
    ("members.yaml-first", "competition.yaml is the first entry, at the zip root"),
    ("members.single-yaml", "no other member name contains .yaml (CodaLab takes the first one it finds)"),
    ("members.no-macosx", "no __MACOSX/ member"),
    ("members.no-wrapping-folder", "the bundle's files are not inside one wrapping folder"),
    ("members.safe-paths", "no absolute member path and no '..' component"),
    ("yaml.parse", "competition.yaml is UTF-8 YAML holding a mapping"),
    ("yaml.no-version", "no `version:` key (it makes Codabench read the file as its own format)"),
    ("yaml.top-level-keys", "top-level keys only from the portable set"),
    ("yaml.required", "the keys both platforms need are set explicitly"),
    ("yaml.title", "title is a non-empty string of at most 100 characters"),
    ("yaml.values", "has_registration is a boolean, enable_detailed_results is true, the docker image is set"),
    ("yaml.end-date", "end_date, if any, is an unquoted date or a quoted 'YYYY-MM-DD HH:MM:SS'"),
    ("image.png", "image names a member that is a real PNG"),
    ("html.pages", "html maps overview, evaluation, terms and data (more allowed) to members"),
    ("html.utf8", "every page is UTF-8 HTML5"),
    ("phases.mapping", "phases is a mapping 1:, 2:, ... without gaps"),
    ("phase.keys", "phase keys only from the portable set"),
    ("phase.required", "phasenumber, label, start_date, scoring_program, reference_data and both "
                       "submission limits are set in every phase"),
    ("phase.phasenumber", "phasenumber equals the phase's key"),
    ("phase.label", "label is a non-empty string of at most 50 characters"),
    ("phase.description", "description, if any, has at most 1000 characters"),
    ("phase.no-end-date", "no per-phase end_date (it breaks CodaLab)"),
    ("phase.date", "start_date is an unquoted date or a quoted 'YYYY-MM-DD HH:MM:SS'"),
    ("phase.order", "phases start in increasing order"),
    ("phase.limits", "max_submissions and max_submissions_per_day are positive integers"),
    ("phase.auto-migration", "auto_migration is never on the first phase"),
    ("phase.members", "scoring program, reference data, starting kit and public data are nested .zip members"),
    ("phase.program-metadata", "the scoring program zip has a metadata file with a command line"),
    ("phase.reference-coverage", "the reference data of a scored phase has a <task>/<lang>.json for every "
                                 "pair of the leaderboard (else those columns stay empty)"),
    ("leaderboard.single", "one leaderboard (key at most 36 characters) with a label and a rank"),
    ("leaderboard.columns", "columns is a non-empty mapping"),
    ("column.keys", "each column has exactly leaderboard, label, numeric_format, sort and rank (no computed)"),
    ("column.key", "column keys match [a-z0-9_]+ and have at most 36 characters"),
    ("column.label", "column labels are non-empty strings of at most 36 characters"),
    ("column.leaderboard", "each column refers to the leaderboard by its label"),
    ("column.values", "sort is asc or desc; numeric_format and rank are integers; ranks are 1..n"),
    ("column.first", "the first column is avg_score"),
    ("column.declaration", "the columns are exactly keys.leaderboard_columns of a subtask of st2024.SUBTASKS"),
    ("run.command", "the metadata command runs"),
    ("run.exit", "the scoring program exits with status 0 on the baseline submission"),
    ("run.scores", "the scores the worker reads (CodaLab: scores.txt; Codabench: scores.json if written, else "
                   "scores.txt) hold every leaderboard column as a finite number"),
    ("run.detailed-results", "detailed_results.html exists and is not empty"),
    ("run.no-output-metadata", "the scoring program does not write output/metadata"),
])


# --------------------------------------------------------------------------- helpers

def _fail(failures, rule, where, text):
    """Append a failure (``rule`` must be one of RULES)."""
    if rule not in RULES:
        raise ValueError("unknown rule %r" % rule)
    failures.append(Failure(rule, where, text))


def _is_date(value):
    """An unquoted YAML date (a ``date``, not a ``datetime``) or a quoted 'YYYY-MM-DD HH:MM:SS'."""
    if isinstance(value, datetime.datetime):
        return False
    if isinstance(value, datetime.date):
        return True
    return isinstance(value, str) and bool(DATETIME_PATTERN.match(value))


def _as_datetime(value):
    """A comparable datetime for a valid date value, else None."""
    if isinstance(value, datetime.datetime):
        return value
    if isinstance(value, datetime.date):
        return datetime.datetime.combine(value, datetime.time())
    try:
        return datetime.datetime.strptime(str(value), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None


def _is_int(value):
    """A YAML integer (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


def subtask_columns(subtask):
    """Expected leaderboard column keys of ``subtask``, in order."""
    declaration = st2024.SUBTASKS[subtask]
    tasks = [st2024.TASKS_BY_FOLDER[f] for f in declaration["tasks"]]
    pairs = [(t, lang) for t in tasks for lang in declaration["languages"] if lang in t.languages]
    return [key for key, _ in keys.leaderboard_columns(st2024.TASKS, declaration["languages"], pairs)]


def subtask_pairs(subtask):
    """The declared (task, lang) pairs of ``subtask``."""
    declaration = st2024.SUBTASKS[subtask]
    tasks = [st2024.TASKS_BY_FOLDER[f] for f in declaration["tasks"]]
    return [(t, lang) for t in tasks for lang in declaration["languages"] if lang in t.languages]


def reference_pairs(names):
    """The (task, lang) pairs of a reference zip's member names (``<task>/<lang>.json``)."""
    pairs = []
    for name in names:
        parts = name.split("/")
        if len(parts) == 2 and parts[0] in st2024.TASKS_BY_FOLDER and parts[1].endswith(".json"):
            pairs.append((st2024.TASKS_BY_FOLDER[parts[0]], parts[1][:-len(".json")]))
    return pairs


def expected_columns(subtask, ref_names):
    """The leaderboard keys the scorer can write for a phase whose reference holds ``ref_names``."""
    present = set((t.folder, lang) for t, lang in reference_pairs(ref_names))
    pairs = [(t, lang) for t, lang in subtask_pairs(subtask) if (t.folder, lang) in present]
    return [key for key, _ in keys.leaderboard_columns(st2024.TASKS, st2024.SUBTASKS[subtask]["languages"], pairs)]


def declared_subtask(competition):
    """The subtask whose generated columns are the bundle's columns, else the one named by the title."""
    try:
        columns = competition["leaderboard"]["columns"]
        ordered = [k for k, _ in sorted(columns.items(), key=lambda kv: kv[1]["rank"])]
    except (KeyError, TypeError, AttributeError):
        ordered = None
    for name in st2024.SUBTASKS:
        if ordered == subtask_columns(name):
            return name
    return subtask_of(competition)


def subtask_of(competition):
    """The subtask whose title is the bundle's title, else None."""
    title = competition.get("title") if isinstance(competition, dict) else None
    for name, declaration in st2024.SUBTASKS.items():
        if declaration["title"] == title:
            return name
    return None


# --------------------------------------------------------------------------- static rules

def check_members(names):
    """Rules on the member list of the bundle zip."""
    failures = []
    if not names or names[0] != YAML_NAME:
        _fail(failures, "members.yaml-first", names[0] if names else "(empty zip)",
              "the first entry must be %s at the zip root" % YAML_NAME)
    for name in names:
        if ".yaml" in name and name != YAML_NAME:
            _fail(failures, "members.single-yaml", name, "member name contains .yaml")
        if name.startswith("__MACOSX/") or "/__MACOSX/" in name:
            _fail(failures, "members.no-macosx", name, "remove __MACOSX/ (zip without resource forks)")
        if name.startswith("/") or ".." in name.split("/") or re.match(r"^[A-Za-z]:", name):
            _fail(failures, "members.safe-paths", name, "unsafe member path")
    tops = set(name.split("/", 1)[0] for name in names)
    if len(tops) == 1 and names and "/" in names[0]:
        _fail(failures, "members.no-wrapping-folder", tops.pop() + "/",
              "zip the folder's contents, not the folder")
    return failures


def check_top_level(competition, members):
    """Rules on the top-level keys of competition.yaml."""
    failures = []
    if "version" in competition:
        _fail(failures, "yaml.no-version", "version", "remove `version:` (Codabench-only)")
    for key in competition:
        if key not in TOP_LEVEL_KEYS and key != "version":
            _fail(failures, "yaml.top-level-keys", str(key), "not a portable top-level key")
    for key in REQUIRED_TOP_LEVEL:
        if key not in competition:
            _fail(failures, "yaml.required", key, "missing")
    title = competition.get("title")
    if "title" in competition and not (isinstance(title, str) and 0 < len(title) <= MAX_TITLE):
        _fail(failures, "yaml.title", "title", "must be a non-empty string of at most %d characters" % MAX_TITLE)
    if "has_registration" in competition and not isinstance(competition["has_registration"], bool):
        _fail(failures, "yaml.values", "has_registration", "must be true or false")
    if "enable_detailed_results" in competition and competition["enable_detailed_results"] is not True:
        _fail(failures, "yaml.values", "enable_detailed_results", "must be true")
    image = competition.get("competition_docker_image")
    if "competition_docker_image" in competition and not (isinstance(image, str) and image.strip()):
        _fail(failures, "yaml.values", "competition_docker_image", "must name a docker image")
    if competition.get("end_date") is not None and not _is_date(competition["end_date"]):
        _fail(failures, "yaml.end-date", "end_date", "got %r" % (competition["end_date"],))
    if "image" in competition:
        data = members.get(competition["image"]) if isinstance(competition["image"], str) else None
        if data is None or logo.png_size(data) is None:
            _fail(failures, "image.png", "image: %s" % competition["image"], "not a PNG member of the bundle")
    return failures


def check_pages(competition, members):
    """Rules on the ``html`` section and the page files."""
    failures = []
    pages = competition.get("html")
    if not isinstance(pages, dict):
        if "html" in competition:
            _fail(failures, "html.pages", "html", "must be a mapping of page name to member")
        return failures
    for key in REQUIRED_PAGES:
        if key not in pages:
            _fail(failures, "html.pages", "html.%s" % key, "missing page")
    for key, member in pages.items():
        if not isinstance(member, str) or member not in members:
            _fail(failures, "html.pages", "html.%s: %s" % (key, member), "no such member")
            continue
        try:
            text = members[member].decode("utf-8")
        except UnicodeDecodeError as error:
            _fail(failures, "html.utf8", member, "not UTF-8 (%s)" % error)
            continue
        if not text.lstrip("\ufeff").lstrip().lower().startswith("<!doctype html>"):
            _fail(failures, "html.utf8", member, "does not start with <!DOCTYPE html>")
    return failures


def _check_phase_files(failures, where, phase, members):
    """Nested zip members of one phase, and the scoring program's metadata."""
    for key in PHASE_FILES:
        if key not in phase:
            continue
        member = phase[key]
        if not isinstance(member, str) or not member.endswith(".zip") or member not in members:
            _fail(failures, "phase.members", "%s.%s: %s" % (where, key, member),
                  "must name a nested .zip member of the bundle")
            continue
        try:
            nested = zipfile.ZipFile(io.BytesIO(members[member]))
        except zipfile.BadZipFile:
            _fail(failures, "phase.members", "%s.%s: %s" % (where, key, member), "not a valid zip")
            continue
        if key == "scoring_program":
            command = program_command(nested)
            if command is None:
                _fail(failures, "phase.program-metadata", "%s.scoring_program: %s" % (where, member),
                      "no metadata file with a `command:` line at the zip root")


def check_phases(competition, members):
    """Rules on every phase."""
    failures = []
    phases = competition.get("phases")
    if not isinstance(phases, dict) or not phases:
        if "phases" in competition:
            _fail(failures, "phases.mapping", "phases", "must be a non-empty mapping 1:, 2:, ...")
        return failures
    numbers = list(phases)
    if not all(_is_int(n) for n in numbers) or sorted(numbers) != list(range(1, len(numbers) + 1)):
        _fail(failures, "phases.mapping", "phases", "keys must be 1, 2, ... without gaps, got %s" % numbers)
    previous = None
    ordered = sorted(numbers) if all(_is_int(n) for n in numbers) else sorted(numbers, key=str)
    for index, number in enumerate(ordered):
        phase = phases[number]
        where = "phases.%s" % number
        if not isinstance(phase, dict):
            _fail(failures, "phases.mapping", where, "must be a mapping")
            continue
        for key in phase:
            if key == "end_date":
                _fail(failures, "phase.no-end-date", where + ".end_date", "per-phase end_date breaks CodaLab")
            elif key not in PHASE_KEYS:
                _fail(failures, "phase.keys", "%s.%s" % (where, key), "not a portable phase key")
        for key in REQUIRED_PHASE:
            if key not in phase:
                _fail(failures, "phase.required", "%s.%s" % (where, key), "missing")
        if "phasenumber" in phase and phase["phasenumber"] != number:
            _fail(failures, "phase.phasenumber", where + ".phasenumber",
                  "is %r, expected %r" % (phase["phasenumber"], number))
        label = phase.get("label")
        if "label" in phase and not (isinstance(label, str) and 0 < len(label) <= MAX_LABEL):
            _fail(failures, "phase.label", where + ".label", "must be 1 to %d characters" % MAX_LABEL)
        description = phase.get("description")
        if description is not None and not (isinstance(description, str) and len(description) <= MAX_DESCRIPTION):
            _fail(failures, "phase.description", where + ".description",
                  "must be a string of at most %d characters" % MAX_DESCRIPTION)
        if "start_date" in phase:
            if not _is_date(phase["start_date"]):
                _fail(failures, "phase.date", where + ".start_date",
                      "got %r: use 2024-01-02 or \"2024-01-02 00:00:00\"" % (phase["start_date"],))
            else:
                start = _as_datetime(phase["start_date"])
                if previous is not None and start <= previous:
                    _fail(failures, "phase.order", where + ".start_date", "starts before the previous phase")
                previous = start
        for key in ("max_submissions", "max_submissions_per_day"):
            if key in phase and not (_is_int(phase[key]) and phase[key] > 0):
                _fail(failures, "phase.limits", "%s.%s" % (where, key), "must be a positive integer")
        if index == 0 and phase.get("auto_migration"):
            _fail(failures, "phase.auto-migration", where + ".auto_migration", "never on the first phase")
        _check_phase_files(failures, where, phase, members)
    return failures


def check_reference_coverage(competition, members):
    """Every leaderboard pair has a reference file in each scored phase (embeddings phases excepted)."""
    failures = []
    subtask = declared_subtask(competition)
    phases = competition.get("phases")
    if subtask is None or not isinstance(phases, dict):
        return failures
    declared = subtask_pairs(subtask)
    for number, phase in phases.items():
        member = phase.get("reference_data") if isinstance(phase, dict) else None
        try:
            names = zipfile.ZipFile(io.BytesIO(members[member])).namelist()
        except (KeyError, TypeError, zipfile.BadZipFile):
            continue  # reported by phase.members
        if EMBEDDINGS_REFERENCE in names:
            continue
        present = set((t.folder, lang) for t, lang in reference_pairs(names))
        missing = ["%s/%s.json" % (t.folder, lang) for t, lang in declared if (t.folder, lang) not in present]
        if missing:
            _fail(failures, "phase.reference-coverage", "phases.%s.reference_data: %s" % (number, member),
                  "%d of %d %s reference files missing, so their leaderboard columns stay empty: %s%s"
                  % (len(missing), len(declared), subtask, ", ".join(missing[:6]),
                     ", ..." if len(missing) > 6 else ""))
    return failures


def check_leaderboard(competition):
    """Rules on the leaderboard and its columns."""
    failures = []
    section = competition.get("leaderboard")
    if not isinstance(section, dict):
        if "leaderboard" in competition:
            _fail(failures, "leaderboard.single", "leaderboard", "must be a mapping")
        return failures
    boards = section.get("leaderboards")
    board_label = None
    if not isinstance(boards, dict) or len(boards) != 1:
        _fail(failures, "leaderboard.single", "leaderboard.leaderboards", "declare exactly one leaderboard")
    else:
        (board_key, board), = boards.items()
        if not isinstance(board_key, str) or len(board_key) > MAX_KEY:
            _fail(failures, "leaderboard.single", "leaderboard.leaderboards.%s" % board_key,
                  "key must be a string of at most %d characters" % MAX_KEY)
        if not isinstance(board, dict) or not isinstance(board.get("label"), str) or not _is_int(board.get("rank")):
            _fail(failures, "leaderboard.single", "leaderboard.leaderboards.%s" % board_key,
                  "needs a label and an integer rank")
        else:
            board_label = board["label"]
    columns = section.get("columns")
    if not isinstance(columns, dict) or not columns:
        _fail(failures, "leaderboard.columns", "leaderboard.columns", "must be a non-empty mapping")
        return failures
    ranks = []
    for key, column in columns.items():
        where = "leaderboard.columns.%s" % key
        if not isinstance(key, str) or not KEY_PATTERN.match(key) or len(key) > MAX_KEY:
            _fail(failures, "column.key", where, "must match [a-z0-9_]+ and have at most %d characters" % MAX_KEY)
        if not isinstance(column, dict):
            _fail(failures, "column.keys", where, "must be a mapping")
            continue
        extra = [k for k in column if k not in COLUMN_KEYS]
        missing = [k for k in COLUMN_KEYS if k not in column]
        if extra or missing:
            _fail(failures, "column.keys", where, "unexpected %s; missing %s" % (extra or "none", missing or "none"))
        label = column.get("label")
        if "label" in column and not (isinstance(label, str) and 0 < len(label) <= MAX_KEY):
            _fail(failures, "column.label", where + ".label", "must be 1 to %d characters" % MAX_KEY)
        board = column.get("leaderboard")
        if "leaderboard" in column and (not isinstance(board, dict) or board.get("label") != board_label):
            _fail(failures, "column.leaderboard", where + ".leaderboard",
                  "must be the leaderboard mapping (label %r)" % board_label)
        if "sort" in column and column["sort"] not in ("asc", "desc"):
            _fail(failures, "column.values", where + ".sort", "must be asc or desc")
        if "numeric_format" in column and not _is_int(column["numeric_format"]):
            _fail(failures, "column.values", where + ".numeric_format", "must be an integer")
        if "rank" in column:
            if _is_int(column["rank"]):
                ranks.append((column["rank"], key))
            else:
                _fail(failures, "column.values", where + ".rank", "must be an integer")
    if sorted(r for r, _ in ranks) != list(range(1, len(ranks) + 1)):
        _fail(failures, "column.values", "leaderboard.columns", "ranks must be 1..%d, each once" % len(ranks))
    ordered = [key for _, key in sorted(ranks)] if ranks else list(columns)
    if ordered and ordered[0] != keys.OVERALL_KEY:
        _fail(failures, "column.first", "leaderboard.columns.%s" % ordered[0],
              "the first column must be %s" % keys.OVERALL_KEY)
    failures.extend(_check_declaration(competition, ordered))
    return failures


def _check_declaration(competition, ordered):
    """The columns must be generated from the scorer's declaration of one subtask."""
    expected = dict((name, subtask_columns(name)) for name in st2024.SUBTASKS)
    if any(ordered == cols for cols in expected.values()):
        return []
    name = subtask_of(competition) or max(expected, key=lambda n: len(set(expected[n]) & set(ordered)))
    want = expected[name]
    unknown = [key for key in ordered if key not in want]
    absent = [key for key in want if key not in ordered]
    if unknown:
        detail = "%s is not a key the scorer writes for the %s subtask" % (unknown[0], name)
    elif absent:
        detail = "%s is missing (the %s subtask scores it)" % (absent[0], name)
    else:
        position = next(i for i, (a, b) in enumerate(zip(ordered, want)) if a != b)
        detail = "column %d is %s, expected %s" % (position + 1, ordered[position], want[position])
    return [Failure("column.declaration", "leaderboard.columns", detail)]


def read_bundle(path):
    """``(names, {name: bytes}, competition or None, failures)`` of a bundle zip."""
    failures = []
    try:
        with zipfile.ZipFile(path) as archive:
            names = [info.filename for info in archive.infolist()]
            members = dict((name, archive.read(name)) for name in names if not name.endswith("/"))
    except (OSError, zipfile.BadZipFile) as error:
        _fail(failures, "bundle.zip", path, str(error))
        return [], {}, None, failures
    failures.extend(check_members(names))
    raw = members.get(YAML_NAME)
    if raw is None:
        candidates = [n for n in names if n.endswith(YAML_NAME)]
        raw = members.get(candidates[0]) if candidates else None
    competition = None
    if raw is None:
        _fail(failures, "yaml.parse", YAML_NAME, "no competition.yaml in the bundle")
    else:
        try:
            competition = yaml.safe_load(raw.decode("utf-8"))
        except (UnicodeDecodeError, yaml.YAMLError) as error:
            _fail(failures, "yaml.parse", YAML_NAME, str(error).replace("\n", " "))
        if competition is not None and not isinstance(competition, dict):
            _fail(failures, "yaml.parse", YAML_NAME, "must hold a mapping")
            competition = None
    return names, members, competition, failures


def check_bundle(path):
    """Every static rule on the bundle at ``path``: ``(failures, competition, members)``."""
    names, members, competition, failures = read_bundle(path)
    if competition is not None:
        failures.extend(check_top_level(competition, members))
        failures.extend(check_pages(competition, members))
        failures.extend(check_phases(competition, members))
        failures.extend(check_leaderboard(competition))
        failures.extend(check_reference_coverage(competition, members))
    return failures, competition, members


# --------------------------------------------------------------------------- worker simulation

def program_command(archive):
    """The ``command:`` of a scoring program zip's root ``metadata`` file, or None."""
    try:
        text = archive.read("metadata").decode("utf-8")
        data = yaml.safe_load(text)
    except (KeyError, UnicodeDecodeError, yaml.YAMLError):
        return None
    command = data.get("command") if isinstance(data, dict) else None
    return command if isinstance(command, str) and command.strip() else None


def _extract(data, target):
    """Unzip bytes into ``target``."""
    os.makedirs(target, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(target)


def trivial_submission(ref_dir):
    """An empty-but-valid submission for the references under ``ref_dir``: ``{member: bytes}``.

    Every reference file gets a prediction of the right shape (placeholder tags, the form as the only
    lemma candidate, empty gap candidates); an embeddings reference gets a minimal embeddings layout.
    """
    embeddings = os.path.join(ref_dir, EMBEDDINGS_REFERENCE)
    if os.path.isfile(embeddings):
        with open(embeddings, encoding="utf-8") as handle:
            spec = json.load(handle)
        members = {"embeddings/load_embeddings.py": b"def load_model(path):\n    return open(path, 'rb').read()\n",
                   "embeddings/requirements.txt": b"",
                   "embeddings/metadata.txt": b"Trivial layout built by `make check`.\n"}
        for language in spec["languages"]:
            members["embeddings/%s.bin" % language["code"]] = b"\0"
        return members
    members = {}
    for task in st2024.TASKS:
        folder = os.path.join(ref_dir, task.folder)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), encoding="utf-8-sig") as handle:
                    reference = json.load(handle)
                prediction = _placeholder(task, reference)
                members["%s/%s" % (task.folder, name)] = json.dumps(prediction, ensure_ascii=False).encode("utf-8")
    return members


def _placeholder(task, reference):
    """A well-shaped, content-free prediction for one reference file."""
    if task.kind == "fill_mask":
        return [{"masked": s.get("masked", ""), "text": s.get("masked", ""),
                 "masked_tokens": [[""] for _ in (s.get("masked_tokens") or [])]} for s in reference]
    if task.kind == "morph":
        return [[{"Token": t.get("Token", t.get("Form", "")), "UPOS": "X"} for t in s] for s in reference]
    if task.kind == "candidates":
        return [[[t[0], [t[0]]] for t in s] for s in reference]
    return [[[t[0], "X"] for t in s] for s in reference]


def choose_submission(submissions_dir, subtask, phase_name):
    """The baseline zip for this phase: ``baseline-<subtask>-<split>.zip``, then -valid, then any zip."""
    if not submissions_dir or not os.path.isdir(submissions_dir):
        return None
    split = {"dev": "valid", "test": "test"}.get(phase_name, phase_name)
    for name in ("baseline-%s-%s.zip" % (subtask, split), "baseline-%s-valid.zip" % subtask):
        path = os.path.join(submissions_dir, name)
        if os.path.isfile(path):
            return path
    others = sorted(n for n in os.listdir(submissions_dir) if n.endswith(".zip"))
    return os.path.join(submissions_dir, others[0]) if others else None


def parse_scores(text):
    """``{key: float}`` from scores.txt; raises ValueError naming the first bad line."""
    scores = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.count(":") != 1 or ": " not in line:
            raise ValueError("line %d is not `key: value`: %r" % (number, line))
        key, value = line.split(": ")
        number_value = float(value)
        if "e" in value.lower() or not math.isfinite(number_value):
            raise ValueError("line %d: %r is not a plain finite decimal" % (number, value))
        scores[key.strip()] = number_value
    loaded = yaml.safe_load(text)
    if not isinstance(loaded, dict):
        raise ValueError("scores.txt does not read as a YAML mapping")
    return scores


def run_worker(kind, program_zip, reference_zip, submission, columns, workdir, timeout):
    """Lay out one run as the ``kind`` worker ("codalab" or "codabench") does and check its outputs."""
    failures = []
    run = os.path.join(workdir, kind, "run")
    program, ref = os.path.join(run, "program"), os.path.join(run, "input", "ref")
    res, output = os.path.join(run, "input", "res"), os.path.join(run, "output")
    _extract(program_zip, program)
    _extract(reference_zip, ref)
    os.makedirs(res, exist_ok=True)
    os.makedirs(output, exist_ok=True)
    if isinstance(submission, dict):
        for name, data in submission.items():
            path = os.path.join(res, *name.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
    else:
        with open(submission, "rb") as handle:
            _extract(handle.read(), res)
    if kind == "codabench":
        with open(os.path.join(res, "metadata"), "w", encoding="utf-8") as handle:
            handle.write("description: submitted on Codabench\n")
    with zipfile.ZipFile(io.BytesIO(program_zip)) as archive:
        command = program_command(archive)
    if command is None:
        _fail(failures, "run.command", kind, "no command in the program's metadata")
        return failures, 0.0
    command = command.replace("$program", program).replace("$input", os.path.join(run, "input"))
    command = command.replace("$output", output)
    argv = command.strip().split(" ")
    cwd = run if kind == "codalab" else program
    started = time.time()
    try:
        process = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        _fail(failures, "run.command", kind, "%s: %s" % (" ".join(argv), error))
        return failures, time.time() - started
    elapsed = time.time() - started
    if process.returncode != 0:
        tail = process.stderr.decode("utf-8", "replace").strip().splitlines()[-5:]
        _fail(failures, "run.exit", kind, "exit status %d: %s" % (process.returncode, " | ".join(tail)))
    failures.extend(check_outputs(kind, output, columns))
    return failures, elapsed


def read_worker_scores(kind, output):
    """The scores the ``kind`` worker takes from ``output``: ``(source file, {key: value})``.

    CodaLab reads ``scores.txt``; Codabench reads ``scores.json`` when it exists (a JSON object
    posted as it is) and ``scores.txt`` (YAML) otherwise. Raises ValueError naming what is wrong.
    """
    json_path = os.path.join(output, "scores.json")
    if kind == "codabench" and os.path.isfile(json_path):
        with open(json_path, encoding="utf-8") as handle:
            try:
                scores = json.load(handle)
            except ValueError as error:
                raise ValueError("scores.json is not valid JSON (%s)" % error)
        if not isinstance(scores, dict):
            raise ValueError("scores.json is not a JSON object of key: value")
        return "scores.json", scores
    text_path = os.path.join(output, "scores.txt")
    if not os.path.isfile(text_path):
        raise ValueError("no scores.txt written")
    with open(text_path, encoding="utf-8") as handle:
        return "scores.txt", parse_scores(handle.read())


def check_outputs(kind, output, columns):
    """The scores the worker reads hold every column as a finite number; detailed_results.html is
    not empty; no output/metadata."""
    failures = []
    try:
        source, scores = read_worker_scores(kind, output)
    except (ValueError, yaml.YAMLError) as error:
        _fail(failures, "run.scores", kind, str(error))
        source, scores = None, None
    if scores is not None:
        bad = [key for key in columns if isinstance(scores.get(key), bool)
               or not isinstance(scores.get(key), (int, float)) or not math.isfinite(scores[key])]
        if bad:
            _fail(failures, "run.scores", "%s: %s" % (kind, bad[0]),
                  "%d leaderboard column(s) missing or not a finite number in %s: %s"
                  % (len(bad), source, ", ".join(bad[:8])))
    detailed = os.path.join(output, "detailed_results.html")
    if not os.path.isfile(detailed) or os.path.getsize(detailed) == 0:
        _fail(failures, "run.detailed-results", kind, "detailed_results.html missing or empty")
    if os.path.exists(os.path.join(output, "metadata")):
        _fail(failures, "run.no-output-metadata", kind, "output/metadata was written")
    return failures


def simulate(competition, members, subtask, submissions_dir, timeout=600, report=print):
    """Run every phase of a bundle under both workers; return the failures."""
    failures = []
    all_columns = [k for k, _ in sorted(competition["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])]
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        workdir = tempfile.mkdtemp(prefix="st2024-check-")
        try:
            ref_probe = os.path.join(workdir, "probe")
            _extract(members[phase["reference_data"]], ref_probe)
            names = zipfile.ZipFile(io.BytesIO(members[phase["reference_data"]])).namelist()
            columns = all_columns
            if EMBEDDINGS_REFERENCE not in names and subtask in st2024.SUBTASKS:
                # Columns whose reference file is missing are reported once, by phase.reference-coverage.
                covered = set(expected_columns(subtask, names))
                columns = [key for key in all_columns if key in covered]
            name = _reference_name(phase["reference_data"])
            chosen = None if os.path.isfile(os.path.join(ref_probe, EMBEDDINGS_REFERENCE)) else \
                choose_submission(submissions_dir, subtask, name)
            submission = chosen or trivial_submission(ref_probe)
            label = os.path.basename(chosen) if chosen else "a trivial submission built from the reference"
            for kind in ("codalab", "codabench"):
                found, elapsed = run_worker(kind, members[phase["scoring_program"]], members[phase["reference_data"]],
                                            submission, columns, workdir, timeout)
                for failure in found:
                    failures.append(Failure(failure.rule, "phase %s (%s) %s" % (number, phase["label"], failure.where),
                                            failure.text))
                report("  phase %s %-22s %-9s %-4s %6.1fs  on %s" % (
                    number, phase["label"], kind, "FAIL" if found else "ok", elapsed, label))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    return failures


def _reference_name(member):
    """``dev`` for ``reference_data_dev.zip``."""
    match = re.match(r"^reference_data_([a-z0-9]+)\.zip$", member)
    return match.group(1) if match else member


# --------------------------------------------------------------------------- command line

def check_one(path, submissions, run=True, timeout=600, report=print):
    """Static rules, then (if they pass and ``run``) the worker simulation; return the failures."""
    failures, competition, members = check_bundle(path)
    static = len([rule for rule in RULES if not rule.startswith("run.")])
    report("%s: %d static rules checked, %d failure(s)" % (path, static, len(failures)))
    blocking = [f for f in failures if f.rule != "phase.reference-coverage"]
    if blocking or not run:
        return failures
    subtask = declared_subtask(competition) or _subtask_from_name(path)
    return failures + simulate(competition, members, subtask, submissions, timeout, report)


def _subtask_from_name(path):
    """``constrained`` for ``st2024-constrained.zip``; the first subtask otherwise."""
    for name in st2024.SUBTASKS:
        if os.path.basename(path) == "st2024-%s.zip" % name:
            return name
    return next(iter(st2024.SUBTASKS))


def main(argv=None):
    """Check every bundle given; exit 1 when any rule fails."""
    parser = argparse.ArgumentParser(prog="python -m organiser check", description=__doc__.split("\n")[0])
    parser.add_argument("bundles", nargs="+")
    parser.add_argument("--submissions", default=None, help="folder with baseline-<subtask>-<split>.zip files")
    parser.add_argument("--static-only", action="store_true", help="check the rules without running workers")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per scoring run (default 900)")
    parser.add_argument("--allow-missing-references", action="store_true",
                        help="report phase.reference-coverage as a warning (e.g. for a partial sample dataset)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    total = []
    for path in args.bundles:
        failures = check_one(path, args.submissions, run=not args.static_only, timeout=args.timeout)
        for failure in failures:
            if args.allow_missing_references and failure.rule == "phase.reference-coverage":
                print("WARNING [%s] %s: %s" % failure)
                continue
            print("FAIL [%s] %s: %s" % failure)
            total.append(failure)
    print("check: %d bundle(s), %s" % (len(args.bundles), "%d failure(s)" % len(total) if total else "all rules pass"))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
