"""``python -m organiser check (BUNDLE... | --dist DIST [--data DATA]) --submissions DIR``: validate bundles, then
run them as the workers do.

With ``--dist`` it checks the bundles of the last build (``DIST/build.json``) and refuses when ``--data`` is not
the data that build was made from. Part 1 re-states, in code, every rule of the portable CodaLab v1.5 format
(issue 3; RULES) and of the native Codabench v2 format (CODABENCH_RULES), each bundle by its own; the phase
windows each platform derives (``organiser.platforms``) must match the schedule. Each failure names its rule
and the offending key or member; a test phase whose reference is the placeholder is a warning. Part 2
simulates both workers on every phase of each bundle: it unzips the phase's scoring program and
reference data, lays out ``run/{program,input/ref,input/res,output}``, substitutes ``$program``,
``$input`` and ``$output`` in the ``command:`` of the program's ``metadata``, splits it on single spaces
and runs it once from the run folder (CodaLab) and once from the program folder with a ``res/metadata``
file present (Codabench), on a baseline submission. Every leaderboard column must be in ``scores.txt``
and ``detailed_results.html`` must not be empty. Then the leak audit (organiser/audit.py) and, with ``--dist``, the
conformance check of every kind the competition uses (organiser/conformance.py: a perfect submission scores its
best, the split loses no public gold, the audit finds a planted private item, per-item values recompute the score).
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

from organiser import logo, platforms, ROOT  # noqa: F401  (ROOT puts the scoring program on sys.path)
from organiser import bundle as bundle_module
from organiser import audit, conformance, declarations, feedback
from organiser import schedule as schedule_module
from evalkit.messages import DataError
from evalkit import keys, lines, scoring

Failure = collections.namedtuple("Failure", "rule where text")

YAML_NAME = "competition.yaml"
TOP_LEVEL_KEYS = ("title", "description", "image", "has_registration", "end_date", "force_submission_to_leaderboard",
                  "disallow_leaderboard_modifying", "hide_chart", "enable_detailed_results", "competition_docker_image",
                  "html", "phases", "leaderboard")
REQUIRED_TOP_LEVEL = ("title", "description", "image", "has_registration", "end_date",
                      "force_submission_to_leaderboard", "disallow_leaderboard_modifying", "hide_chart",
                      "enable_detailed_results", "competition_docker_image", "html", "phases", "leaderboard")
REQUIRED_PAGES = ("overview", "evaluation", "terms", "data")
PHASE_KEYS = ("phasenumber", "label", "start_date", "scoring_program", "reference_data", "description",
              "max_submissions", "max_submissions_per_day", "color", "execution_time_limit", "is_scoring_only",
              "auto_migration", "starting_kit", "public_data", "leaderboard_management_mode")
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
    ("yaml.end-date", "end_date (when the last phase closes) is an unquoted date or a quoted 'YYYY-MM-DD HH:MM:SS'"),
    ("yaml.official-rule", "force_submission_to_leaderboard and disallow_leaderboard_modifying are true: each "
                           "team's last submission is its leaderboard entry without pressing a button, and the "
                           "button is not offered (CodaLab; the server enforces it only in the hidden test phase)"),
    ("yaml.no-chart", "hide_chart is true: CodaLab's home-page chart would show the best score of each day, test "
                      "phase included, while the test leaderboard is hidden"),
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
    ("phase.test-hidden", "the test phase has leaderboard_management_mode: hide_results (CodaLab then shows no "
                          "other team's results or detailed results while it runs)"),
    ("schedule.windows", "every phase opens and closes, as the platform derives it, at the instants of the schedule"),
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
    ("column.unique-labels", "no two columns have the same label (participants could not tell them apart)"),
    ("column.values", "sort is asc or desc; numeric_format and rank are integers; ranks are 1..n"),
    ("column.first", "the first column is avg_score"),
    ("column.declaration", "the columns are exactly the declared columns (keys.leaderboard_columns, or the "
                           "declaration's LEADERBOARD) of a subtask of the competition's SUBTASKS, over all its "
                           "pairs or over those the phases have reference files for"),
    ("phase.report-policy", "every scored phase's reference data says whose gold it is (phase.json): public in the "
                            "development phase, hidden in the test phase unless it is a labelled practice phase"),
    ("phase.test-input", "the test phase's public data in the bundle is the placeholder: the test input is written "
                         "apart and attached when the test phase opens (PENDING until then)"),
    ("audit.report", "the bundle's scoring program writes the same outputs, numbers aside, against a hidden phase's "
                     "reference and against a scrambled twin of it: nothing shown depends on the gold"),
    ("audit.gold-strings", "no hidden gold string that is nowhere public appears in the scoring's outputs"),
    ("audit.public-gold", "no hidden gold item can be read from what participants can reach (pages, starting kits, "
                          "public data, test input)"),
    ("audit.early-release", "the test input is reachable nowhere before the test phase opens (pages, starting kits, "
                            "public data of the bundle)"),
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


#: The competition a bundle is checked against when nothing names another (the top-level one).
DEFAULT_COMPETITION = declarations.top_level_id()


def declaration(decl=None):
    """The declaration module ``decl`` (a module, a competition id, or None for DEFAULT_COMPETITION)."""
    if decl is None or isinstance(decl, str):
        return declarations.load(decl or DEFAULT_COMPETITION)
    return decl


def subtask_columns(subtask, decl=None):
    """Expected leaderboard column keys of ``subtask``, in order."""
    decl = declaration(decl)
    return [key for key, _ in bundle_module.declared_columns(decl, decl.SUBTASKS[subtask]["languages"],
                                                                  subtask_pairs(subtask, decl))]


def subtask_pairs(subtask, decl=None):
    """The declared (task, lang) pairs of ``subtask`` (:func:`organiser.bundle.subtask_pairs`)."""
    return bundle_module.subtask_pairs(declaration(decl), subtask)


def reference_file(task, lang, decl=None):
    """The reference member name of a (task, lang) pair (:func:`organiser.bundle.reference_file`)."""
    return bundle_module.reference_file(declaration(decl), task, lang)


def reference_pairs(names, decl=None):
    """The (task, lang) pairs of a reference zip's member names (the declaration's reference file names)."""
    by_name = bundle_module.declared_reference_files(declaration(decl))
    return [by_name[name] for name in names if name in by_name]


def expected_columns(subtask, ref_names, decl=None):
    """The leaderboard keys the scorer can write for a phase whose reference holds ``ref_names``."""
    decl = declaration(decl)
    present = set((t.folder, lang) for t, lang in reference_pairs(ref_names, decl))
    pairs = [(t, lang) for t, lang in subtask_pairs(subtask, decl) if (t.folder, lang) in present]
    return [key for key, _ in bundle_module.declared_columns(decl, decl.SUBTASKS[subtask]["languages"], pairs)]


def declared_subtask(competition, decl=None):
    """The subtask whose generated columns are the bundle's columns, else the one named by the title."""
    decl = declaration(decl)
    try:
        columns = competition["leaderboard"]["columns"]
        ordered = [k for k, _ in sorted(columns.items(), key=lambda kv: kv[1]["rank"])]
    except (KeyError, TypeError, AttributeError):
        ordered = None
    for name in decl.SUBTASKS:
        if ordered == subtask_columns(name, decl):
            return name
    return subtask_of(competition, decl)


def subtask_of(competition, decl=None):
    """The subtask whose title is the bundle's title, else None (the only subtask when there is one)."""
    decl = declaration(decl)
    title = competition.get("title") if isinstance(competition, dict) else None
    for name, declared in decl.SUBTASKS.items():
        if declared["title"] == title:
            return name
    return next(iter(decl.SUBTASKS)) if len(decl.SUBTASKS) == 1 else None


def phase_reference_names(competition, members):
    """Every member name of the phases' reference zips (unreadable zips are left to phase.members)."""
    names = set()
    phases = competition.get("phases") if isinstance(competition, dict) else None
    for phase in (phases.values() if isinstance(phases, dict) else []):
        member = phase.get("reference_data") if isinstance(phase, dict) else None
        try:
            names.update(zipfile.ZipFile(io.BytesIO(members[member])).namelist())
        except (KeyError, TypeError, zipfile.BadZipFile):
            continue
    return names


def entry_pairs(competition, pairs):
    """The ``pairs`` whose dataset column (:func:`evalkit.keys.entry_key`) is on the bundle's leaderboard."""
    try:
        columns = competition["leaderboard"]["columns"]
    except (KeyError, TypeError):
        return pairs
    return [(t, lang) for t, lang in pairs if keys.entry_key(lang, t) in columns]


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
    for key in ("force_submission_to_leaderboard", "disallow_leaderboard_modifying"):
        if key in competition and competition[key] is not True:
            _fail(failures, "yaml.official-rule", key, "must be true, got %r" % (competition[key],))
    if "hide_chart" in competition and competition["hide_chart"] is not True:
        _fail(failures, "yaml.no-chart", "hide_chart", "must be true, got %r" % (competition["hide_chart"],))
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
        mode = phase.get("leaderboard_management_mode", "default")
        if phase.get("reference_data") == "reference_data_test.zip" and mode != "hide_results":
            _fail(failures, "phase.test-hidden", where + ".leaderboard_management_mode",
                  "must be hide_results on the test phase, got %r" % (mode,))
        elif mode not in ("default", "hide_results"):
            _fail(failures, "phase.test-hidden", where + ".leaderboard_management_mode",
                  "must be default or hide_results, got %r" % (mode,))
        _check_phase_files(failures, where, phase, members)
    return failures


def check_reference_coverage(competition, members, decl=None, lacking=()):
    """Every leaderboard pair has a reference file in each scored phase (extra phases with a generated
    reference excepted); a task of the declaration's ``OPTIONAL_REFERENCE_TASKS`` that a phase lacks is an
    ``OPTIONAL:`` note (printed as a warning), not a failure."""
    failures = []
    decl = declaration(decl)
    subtask = declared_subtask(competition, decl)
    phases = competition.get("phases")
    if subtask is None or not isinstance(phases, dict):
        return failures
    declared = entry_pairs(competition, subtask_pairs(subtask, decl))
    for number, phase in phases.items():
        member = phase.get("reference_data") if isinstance(phase, dict) else None
        try:
            names = zipfile.ZipFile(io.BytesIO(members[member])).namelist()
        except (KeyError, TypeError, zipfile.BadZipFile):
            continue  # reported by phase.members
        if declarations.generated_reference_files(decl.COMPETITION_ID) & set(names):
            continue
        if bundle_module.is_pending_reference(names):
            _fail(failures, "phase.reference-coverage", "phases.%s.reference_data: %s" % (number, member),
                  "PENDING: the test reference is a placeholder (no test gold when this was built): upload the "
                  "test reference zip before the phase opens (docs/organisers.md)")
            continue
        present = set((t.folder, lang) for t, lang in reference_pairs(names, decl))
        optional = set(getattr(decl, "OPTIONAL_REFERENCE_TASKS", ()))
        absent = [(t, lang) for t, lang in declared if (t.folder, lang) not in present]
        missing = [reference_file(t, lang, decl) for t, lang in absent if t.folder not in optional]
        allowed = [reference_file(t, lang, decl) for t, lang in absent if t.folder in optional]
        phase_lacking = set(lacking.get(_reference_name(str(member)), ())) if isinstance(lacking, dict) else set()
        unavailable = [name for name in missing if name in phase_lacking]
        missing = [name for name in missing if name not in phase_lacking]
        if unavailable:
            _fail(failures, "phase.reference-coverage", "phases.%s.reference_data: %s" % (number, member),
                  "LACKING: %d of %d %s reference files are not in this phase because the data it was built from "
                  "has no source for them (the build said so, see its data report): %s%s; their columns stay empty "
                  "in this phase" % (len(unavailable), len(declared), subtask, ", ".join(unavailable[:6]),
                                     ", ..." if len(unavailable) > 6 else ""))
        if allowed:
            _fail(failures, "phase.reference-coverage", "phases.%s.reference_data: %s" % (number, member),
                  "OPTIONAL: %s not in this phase (the declaration's OPTIONAL_REFERENCE_TASKS), so that column "
                  "stays empty for it" % ", ".join(allowed))
        if missing:
            _fail(failures, "phase.reference-coverage", "phases.%s.reference_data: %s" % (number, member),
                  "%d of %d %s reference files missing, so their leaderboard columns stay empty: %s%s"
                  % (len(missing), len(declared), subtask, ", ".join(missing[:6]),
                     ", ..." if len(missing) > 6 else ""))
    return failures


def check_phase_data(competition, members, decl=None):
    """Rules phase.report-policy and phase.test-input: whose gold each phase's reference says it is, and the test
    input kept out of the bundle (its placeholder public data is a PENDING note, a practice phase a note)."""
    failures = []
    decl = declaration(decl)
    phases = competition.get("phases")
    for number, phase in sorted((phases or {}).items(), key=lambda kv: str(kv[0])):
        if not isinstance(phase, dict):
            continue
        where = "phases.%s" % number
        name = _reference_name(str(phase.get("reference_data")))
        practice = bundle_module.is_practice(phase)
        try:
            archive = zipfile.ZipFile(io.BytesIO(members[phase["reference_data"]]))
            names = archive.namelist()
        except (KeyError, TypeError, zipfile.BadZipFile):
            continue   # reported by phase.members
        if practice:
            _fail(failures, "phase.report-policy", where, "PRACTICE: %s is a practice phase (its gold is public): "
                  "its leaderboard is no official result; build the real test phase with TEST_GOLD=<hidden gold>"
                  % phase.get("label"))
        scored = not bundle_module.is_pending_reference(names) and \
            not declarations.generated_reference_files(decl.COMPETITION_ID) & set(names)
        if scored:
            policy = bundle_module.zipped_policy(archive)
            wanted = ("public",) if name == bundle_module.DEVELOPMENT_PHASE else \
                (("public", "hidden") if practice else ("hidden",))
            if policy is None or policy.get("gold") not in wanted:
                _fail(failures, "phase.report-policy", "%s.reference_data: %s" % (where, phase["reference_data"]),
                      "%s must say gold %s, got %r" % (bundle_module.PHASE_FILE, " or ".join(wanted),
                                                       policy if policy is None else policy.get("gold")))
        if name != bundle_module.OFFICIAL_PHASE:
            continue
        data = members.get(phase.get("public_data")) if phase.get("public_data") else None
        try:
            public = zipfile.ZipFile(io.BytesIO(data)).namelist() if data is not None else None
        except zipfile.BadZipFile:
            continue   # reported by phase.members
        if public is None or bundle_module.is_pending_public(public):
            _fail(failures, "phase.test-input", "%s.public_data" % where,
                  "PENDING: the test input is not in the bundle (participants see every phase's public data from "
                  "the first day): attach the build's public_data/<subtask>-test.zip when the test phase opens "
                  "(docs/organisers.md)")
        else:
            _fail(failures, "phase.test-input", "%s.public_data: %s" % (where, phase["public_data"]),
                  "the test input is in the bundle: participants could download it before the test phase opens")
    return failures


def check_leaderboard(competition, members=None, decl=None):
    """Rules on the leaderboard and its columns (``members``: the bundle's, for the phases' reference files)."""
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
    for label, named in duplicate_labels((key, column.get("label")) for key, column in columns.items()
                                         if isinstance(column, dict)):
        _fail(failures, "column.unique-labels", "leaderboard.columns",
              "the label %r heads %s: give each column a label of its own (COMPONENT_LABELS may use {lang}, "
              "{language} and {task})" % (label, ", ".join(named)))
    ordered = [key for _, key in sorted(ranks)] if ranks else list(columns)
    if ordered and ordered[0] != keys.OVERALL_KEY:
        _fail(failures, "column.first", "leaderboard.columns.%s" % ordered[0],
              "the first column must be %s" % keys.OVERALL_KEY)
    failures.extend(_check_declaration(competition, ordered, members, decl))
    return failures


def duplicate_labels(columns):
    """``[(label, [keys])]`` of every label that heads more than one of ``columns`` (``(key, label)`` pairs)."""
    keys_of = collections.OrderedDict()
    for key, label in columns:
        if isinstance(label, str):
            keys_of.setdefault(label, []).append(str(key))
    return [(label, named) for label, named in keys_of.items() if len(named) > 1]


def _check_declaration(competition, ordered, members=None, decl=None):
    """The columns must be generated from the scorer's declaration of one subtask: over all its pairs, or
    over the pairs the phases have reference files for (a bundle built without some datasets)."""
    decl = declaration(decl)
    blind = blind_phases(competition, members) if members is not None else []
    if ordered and ordered[-1] == feedback.VALID_KEY:
        if members is not None and not blind:
            return [Failure("column.declaration", "leaderboard.columns.%s" % feedback.VALID_KEY,
                            "no phase is blind: the %s column would stay empty" % feedback.VALID_KEY)]
        ordered = ordered[:-1]
    elif blind:
        return [Failure("column.declaration", "leaderboard.columns", "phase %s is blind: the last column must be %s "
                        "(%s), the only score it writes" % (blind[0], feedback.VALID_KEY, feedback.VALID_LABEL))]
    expected = dict((name, subtask_columns(name, decl)) for name in decl.SUBTASKS)
    if any(ordered == cols for cols in expected.values()):
        return []
    if members is not None:
        names = phase_reference_names(competition, members)
        expected = dict((name, expected_columns(name, names, decl)) for name in decl.SUBTASKS)
        if any(ordered == cols for cols in expected.values()):
            return []
    name = subtask_of(competition, decl) or max(expected, key=lambda n: len(set(expected[n]) & set(ordered)))
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


def blind_phases(competition, members):
    """The labels of the phases of a competition (v1.5 or its v1.5 view) whose reference's ``split.json`` says
    blind (issue 23: the platform scores only how many items are validly predicted)."""
    found = []
    phases = competition.get("phases") if isinstance(competition, dict) else None
    for number in sorted(phases) if isinstance(phases, dict) else []:
        phase = phases[number]
        data = members.get(phase.get("reference_data")) if isinstance(phase, dict) else None
        try:
            split = feedback.zipped_split(data) if data else None
        except ValueError:
            split = None
        if feedback.mode_of(split) == feedback.BLIND and split is not None:
            found.append(phase.get("label"))
    return found


def check_schedule(competition, schedule, platform=platforms.CODALAB):
    """The phase windows ``platform`` derives from ``competition`` match ``schedule`` (rule schedule.windows)."""
    failures = []
    try:
        derived = platforms.view(competition, platform)
    except (platforms.PlatformError, KeyError, TypeError, AttributeError) as error:
        _fail(failures, "schedule.windows", "phases", "the platform cannot derive the phase windows: %s" % error)
        return failures
    for text in platforms.schedule_failures(derived, schedule, schedule_module.CODABENCH_GAP):
        _fail(failures, "schedule.windows", "phases", text)
    return failures


# --------------------------------------------------------------------------- Codabench v2 rules

#: The rules of a native Codabench bundle (``version: 2``), checked by :func:`check_codabench`.
CODABENCH_RULES = collections.OrderedDict([
    ("v2.version", "version is 2 (else Codabench reads the file as v1.5)"),
    ("v2.required", "title, image, terms, pages, tasks, phases and leaderboards are set"),
    ("v2.members", "every file named (image, terms, pages, task programs and references, starting kits, "
                   "public data) is a member; programs and data are .zip members"),
    ("v2.pages", "each page has a title and an HTML5 UTF-8 file that is not empty"),
    ("v2.tasks", "task indexes are unique; every task has a scoring program whose metadata has a command"),
    ("v2.phases", "each phase has a name, tasks that exist, limits, and start (end) written as quoted "
                  "'YYYY-MM-DD HH:MM:SS' (an unquoted YAML datetime loses its time on Codabench)"),
    ("v2.sequential", "every phase but the last ends, strictly before the next starts"),
    ("v2.leaderboard", "one leaderboard (key at most 36 characters) whose columns are the declared columns of "
                       "a subtask, avg_score first (primary index 0), unique indexes 0..n-1"),
    ("v2.official-rule", "the leaderboard's submission_rule is Force_Last: each team's last submission is its entry"),
    ("v2.details-hidden", "enable_detailed_results is true and show_detailed_results_in_leaderboard is false: "
                          "participants see their own detailed results, not other teams'"),
    ("v2.test-output-hidden", "the test phase has hide_output: its submissions' logs, outputs and files are not "
                              "served to other users"),
    ("phase.report-policy", RULES["phase.report-policy"]),
    ("phase.test-input", RULES["phase.test-input"]),
    ("schedule.windows", RULES["schedule.windows"]),
    ("phase.reference-coverage", RULES["phase.reference-coverage"]),
])


def _fail_v2(failures, rule, where, text):
    """Append a failure of a Codabench v2 rule."""
    if rule not in CODABENCH_RULES:
        raise ValueError("unknown rule %r" % rule)
    failures.append(Failure(rule, where, text))


def is_codabench_v2(competition):
    """A native Codabench competition: phases as a list (a v1.5 one maps phase numbers to phases)."""
    return isinstance(competition, dict) and "version" in competition and isinstance(competition.get("phases"), list)


def _v2_member(failures, members, where, name, zipped):
    """A named member exists (and is a valid zip when ``zipped``); returns its bytes or None."""
    if not isinstance(name, str) or name not in members or (zipped and not name.endswith(".zip")):
        _fail_v2(failures, "v2.members", "%s: %s" % (where, name), "must name a%s member of the bundle"
                 % (" .zip" if zipped else ""))
        return None
    if zipped:
        try:
            zipfile.ZipFile(io.BytesIO(members[name])).namelist()
        except zipfile.BadZipFile:
            _fail_v2(failures, "v2.members", "%s: %s" % (where, name), "not a valid zip")
            return None
    return members[name]


def _check_v2_pages(failures, competition, members):
    """The terms and pages of a v2 competition."""
    entries = [("terms", {"title": "terms", "file": competition.get("terms")})]
    entries += [("pages[%d]" % i, page) for i, page in enumerate(competition.get("pages") or [])]
    for where, page in entries:
        if not isinstance(page, dict) or not page.get("title"):
            _fail_v2(failures, "v2.pages", where, "needs a title and a file")
            continue
        data = _v2_member(failures, members, where + ".file", page.get("file"), False)
        if data is None:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            _fail_v2(failures, "v2.pages", page["file"], "not UTF-8 (%s)" % error)
            continue
        if not text.strip() or not text.lstrip("\ufeff").lstrip().lower().startswith("<!doctype html>"):
            _fail_v2(failures, "v2.pages", page["file"], "empty or does not start with <!DOCTYPE html>")


def _check_v2_tasks(failures, competition, members):
    """Tasks: unique indexes, programs with a command, references that are zips. Returns {index: task}."""
    tasks = {}
    for position, task in enumerate(competition.get("tasks") or []):
        where = "tasks[%d]" % position
        if not isinstance(task, dict) or not _is_int(task.get("index")) or task["index"] in tasks:
            _fail_v2(failures, "v2.tasks", where, "needs a unique integer index")
            continue
        tasks[task["index"]] = task
        program = _v2_member(failures, members, where + ".scoring_program", task.get("scoring_program"), True)
        if program is not None and program_command(zipfile.ZipFile(io.BytesIO(program))) is None:
            _fail_v2(failures, "v2.tasks", where + ".scoring_program", "no metadata file with a `command:` line")
        if "reference_data" in task:
            _v2_member(failures, members, where + ".reference_data", task["reference_data"], True)
    return tasks


def _check_v2_phases(failures, competition, members, tasks):
    """Phases: names, tasks, limits, quoted dates, nested members."""
    for position, phase in enumerate(competition.get("phases") or []):
        where = "phases[%d]" % position
        if not isinstance(phase, dict) or not isinstance(phase.get("name"), str) or not phase["name"]:
            _fail_v2(failures, "v2.phases", where, "needs a name")
            continue
        if not phase.get("tasks") or any(index not in tasks for index in phase["tasks"]):
            _fail_v2(failures, "v2.phases", where + ".tasks", "must list existing task indexes, got %r"
                     % (phase.get("tasks"),))
        for key in ("start", "end"):
            if key == "end" and phase.get(key) is None:
                continue  # only the last phase may have no end: rule v2.sequential
            if not (isinstance(phase.get(key), str) and DATETIME_PATTERN.match(phase[key])):
                _fail_v2(failures, "v2.phases", "%s.%s" % (where, key),
                         "must be a quoted 'YYYY-MM-DD HH:MM:SS', got %r" % (phase.get(key),))
        for key in ("max_submissions", "max_submissions_per_day"):
            if not (_is_int(phase.get(key)) and phase[key] > 0):
                _fail_v2(failures, "v2.phases", "%s.%s" % (where, key), "must be a positive integer")
        for key in ("starting_kit", "public_data"):
            if key in phase:
                _v2_member(failures, members, "%s.%s" % (where, key), phase[key], True)


def _v2_columns(failures, competition, members=None, decl=None):
    """The first leaderboard's column keys in index order (failures for anything malformed)."""
    boards = competition.get("leaderboards")
    if not isinstance(boards, list) or len(boards) != 1 or not isinstance(boards[0], dict):
        _fail_v2(failures, "v2.leaderboard", "leaderboards", "declare exactly one leaderboard")
        return []
    board = boards[0]
    if not isinstance(board.get("key"), str) or len(board["key"]) > MAX_KEY or not board.get("title"):
        _fail_v2(failures, "v2.leaderboard", "leaderboards[0]", "needs a title and a key of at most %d characters"
                 % MAX_KEY)
    columns = board.get("columns") if isinstance(board.get("columns"), list) else []
    indexes = [c.get("index") for c in columns if isinstance(c, dict)]
    if sorted(i for i in indexes if _is_int(i)) != list(range(len(columns))):
        _fail_v2(failures, "v2.leaderboard", "leaderboards[0].columns", "indexes must be 0..%d, each once"
                 % (len(columns) - 1))
        return []
    ordered = [c.get("key") for c in sorted(columns, key=lambda c: c["index"])]
    for label, named in duplicate_labels((c.get("key"), c.get("title")) for c in columns):
        _fail_v2(failures, "v2.leaderboard", "leaderboards[0].columns",
                 "the title %r heads %s: give each column a title of its own" % (label, ", ".join(named)))
    if ordered and ordered[0] != keys.OVERALL_KEY or board.get("primary_index", 0) != 0:
        _fail_v2(failures, "v2.leaderboard", "leaderboards[0]", "the primary column (index 0) must be %s"
                 % keys.OVERALL_KEY)
    decl = declaration(decl)
    if _check_declaration(as_v15_view(competition), ordered, members, decl):
        _fail_v2(failures, "v2.leaderboard", "leaderboards[0].columns",
                 "the columns are not the declared columns of a subtask of %s.SUBTASKS" % decl.COMPETITION_ID)
    if board.get("submission_rule") != "Force_Last":
        _fail_v2(failures, "v2.official-rule", "leaderboards[0].submission_rule",
                 "must be Force_Last, got %r" % (board.get("submission_rule"),))
    return ordered


def as_v15_view(competition):
    """A v1.5-shaped view of a v2 competition (phases by number, columns by rank) for the shared checks."""
    tasks = dict((t.get("index"), t) for t in competition.get("tasks") or [] if isinstance(t, dict))
    phases = {}
    for number, phase in enumerate(sorted(competition["phases"], key=lambda p: p.get("index", 0)), 1):
        task = tasks.get((phase.get("tasks") or [None])[0], {})
        phases[number] = {"label": phase.get("name"), "scoring_program": task.get("scoring_program"),
                          "reference_data": task.get("reference_data"), "public_data": phase.get("public_data"),
                          "starting_kit": phase.get("starting_kit")}
    board = (competition.get("leaderboards") or [{}])[0]
    columns = dict((c["key"], {"rank": c["index"] + 1}) for c in board.get("columns") or [])
    return {"title": competition.get("title"), "phases": phases, "leaderboard": {"columns": columns}}


def check_codabench(competition, members, schedule, decl=None, lacking=()):
    """Every rule of CODABENCH_RULES on a native Codabench competition."""
    failures = []
    if str(competition.get("version")) != "2":
        _fail_v2(failures, "v2.version", "version", "must be 2, got %r" % (competition.get("version"),))
    for key in ("title", "image", "terms", "pages", "tasks", "phases", "leaderboards"):
        if not competition.get(key):
            _fail_v2(failures, "v2.required", key, "missing")
    if failures:
        return failures
    _v2_member(failures, members, "image", competition["image"], False)
    _check_v2_pages(failures, competition, members)
    tasks = _check_v2_tasks(failures, competition, members)
    _check_v2_phases(failures, competition, members, tasks)
    _v2_columns(failures, competition, members, decl)
    if competition.get("enable_detailed_results") is not True or \
            competition.get("show_detailed_results_in_leaderboard", True) is not False:
        _fail_v2(failures, "v2.details-hidden", "show_detailed_results_in_leaderboard",
                 "enable_detailed_results must be true and show_detailed_results_in_leaderboard false")
    if not any(f.rule == "v2.phases" for f in failures):
        try:
            platforms.codabench(competition)
        except platforms.PlatformError as error:
            _fail_v2(failures, "v2.sequential", "phases", str(error))
        else:
            failures.extend(check_schedule(competition, schedule, platforms.CODABENCH))
    failures.extend(check_reference_coverage(as_v15_view(competition), members, decl, lacking))
    failures.extend(check_phase_data(as_v15_view(competition), members, decl))
    for phase in competition.get("phases") or []:
        if isinstance(phase, dict) and _reference_name(str(as_v15_view(competition)["phases"].get(
                phase.get("index", 0) + 1, {}).get("reference_data"))) == bundle_module.OFFICIAL_PHASE \
                and phase.get("hide_output") is not True:
            _fail_v2(failures, "v2.test-output-hidden", "phases[%s].hide_output" % phase.get("index"),
                     "must be true on the test phase")
    return failures


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


def check_bundle(path, schedule=None, decl=None, lacking=()):
    """Every static rule on the bundle at ``path``: ``(failures, competition, members)``.

    A native Codabench bundle (``version: 2``, phases as a list) is checked by CODABENCH_RULES, any other by
    RULES (CodaLab v1.5); the phase windows are compared with ``schedule`` (default: schedule.yaml) and the
    columns and reference files with the declaration ``decl`` (default: DEFAULT_COMPETITION's).
    """
    names, members, competition, failures = read_bundle(path)
    decl = declaration(decl)
    schedule = schedule if schedule is not None else schedule_module.load(
        bundle_module.schedule_path(decl.COMPETITION_ID))
    if is_codabench_v2(competition):
        failures.extend(check_codabench(competition, members, schedule, decl, lacking))
    elif competition is not None:
        failures.extend(check_top_level(competition, members))
        failures.extend(check_pages(competition, members))
        failures.extend(check_phases(competition, members))
        failures.extend(check_leaderboard(competition, members, decl))
        failures.extend(check_reference_coverage(competition, members, decl, lacking))
        failures.extend(check_phase_data(competition, members, decl))
        if not [f for f in failures if f.rule.startswith(("phases.", "phase.date", "phase.required", "yaml.end"))]:
            failures.extend(check_schedule(competition, schedule))
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


def trivial_submission(ref_dir, decl=None):
    """An empty-but-valid submission for the references under ``ref_dir``: ``{member: bytes}``.

    Every reference file gets a prediction of the right shape (placeholder tags, the form as the only
    lemma candidate, empty gap candidates; for declared flat file names, the first label of the dataset
    on each line the kind expects); a generated reference of an extra phase gets the layout its
    ``check_submission`` declares (one file per language it lists).
    """
    decl = declaration(decl)
    if lines.declares_names(decl):
        return trivial_text_submission(ref_dir, decl)
    for name in sorted(declarations.generated_reference_files(decl.COMPETITION_ID)):
        if os.path.isfile(os.path.join(ref_dir, name)):
            return generated_phase_submission(os.path.join(ref_dir, name), decl)
    members = {}
    for task in decl.TASKS:
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


def trivial_text_submission(ref_dir, decl):
    """``{submission file: bytes}``: one line per label the text kind expects, each the dataset's first label
    (a kind with ``trivial_prediction(reference bytes, name)`` or ``trivial_members(reference bytes, task)``, such
    as evalkit.choice and the per-document kinds, makes its own)."""
    members = {}
    for task in decl.TASKS:
        kind = scoring.KINDS[task.kind]
        for lang in task.languages:
            path = os.path.join(ref_dir, lines.reference_name(decl, task, lang))
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            if hasattr(kind, "trivial_prediction"):   # a text kind of another shape (evalkit.choice)
                members[lines.submission_name(decl, task, lang)] = kind.trivial_prediction(data, path)
                continue
            if hasattr(kind, "trivial_members"):   # a kind with its own layout (a folder of per-document files)
                members.update(kind.trivial_members(data, task))
                continue
            if not hasattr(kind, "sentence_level"):   # a kind of its own without a trivial prediction: left out
                continue
            reference = lines.parse_reference_text(data, path, task.labels[lang], kind.sentence_level,
                                                   redacted=True)   # the tokens alone: a split phase's too
            label = task.labels[lang][0]
            rows = [label if kind.sentence_level else "\n".join([label] * len(tokens)) + "\n"
                    for tokens, _ in reference.sentences]
            members[lines.submission_name(decl, task, lang)] = ("\n".join(rows) + "\n").encode("utf-8")
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


def generated_phase_submission(reference, decl):
    """The submission ``check_submission`` declares for the extra phase whose generated reference is at
    ``reference``: its fixed files and, per language the reference lists, its ``per_language`` file."""
    declared = declarations.check_submission(os.path.basename(reference), decl.COMPETITION_ID) or {}
    with open(reference, encoding="utf-8") as handle:
        spec = json.load(handle)
    members = dict((name, str(text).encode("utf-8")) for name, text in (declared.get("files") or {}).items())
    if declared.get("per_language"):
        for language in spec["languages"]:
            members[declared["per_language"].format(code=language["code"])] = b"\0"
    return members


def choose_submission(submissions_dir, subtask, phase_name, splits=None):
    """The baseline zip for this phase: ``baseline-<subtask>-<split>.zip`` (``splits``: the phase's release
    split, default the declaration's ``phase_splits``), then the dev phase's, then
    ``<subtask>-<phase>-baseline.zip``, then any zip."""
    if not submissions_dir or not os.path.isdir(submissions_dir):
        return None
    splits = declarations.wording()["phase_splits"] if splits is None else splits
    split = splits.get(phase_name, phase_name)
    for name in ("baseline-%s-%s.zip" % (subtask, split), "baseline-%s-%s.zip" % (subtask, splits.get("dev", "dev")),
                 "%s-%s-baseline.zip" % (subtask, phase_name)):
        path = os.path.join(submissions_dir, name)
        if os.path.isfile(path):
            return path
    others = sorted(n for n in os.listdir(submissions_dir) if n.endswith(".zip") and
                    (not n.startswith(subtask + "-") or n.startswith("%s-%s-" % (subtask, phase_name))))
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


def execute(kind, program_zip, reference_zip, submission, workdir, timeout):
    """Lay out one run as the ``kind`` worker ("codalab" or "codabench") does and run the program's command once:
    ``(completed process or an error text, output folder, seconds)``. ``submission``: ``{member: bytes}`` or the
    path of a zip."""
    run = os.path.join(workdir, kind, "run")
    shutil.rmtree(run, ignore_errors=True)
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
        return "no command in the program's metadata", output, 0.0
    command = command.replace("$program", program).replace("$input", os.path.join(run, "input"))
    command = command.replace("$output", output)
    argv = command.strip().split(" ")
    cwd = run if kind == "codalab" else program
    started = time.time()
    try:
        process = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        return "%s: %s" % (" ".join(argv), error), output, time.time() - started
    return process, output, time.time() - started


def run_worker(kind, program_zip, reference_zip, submission, columns, workdir, timeout):
    """Lay out one run as the ``kind`` worker ("codalab" or "codabench") does and check its outputs."""
    failures = []
    process, output, elapsed = execute(kind, program_zip, reference_zip, submission, workdir, timeout)
    if isinstance(process, str):
        _fail(failures, "run.command", kind, process)
        return failures, elapsed
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


def simulate(competition, members, subtask, submissions_dir, timeout=600, report=print,
             workers=("codalab", "codabench"), decl=None):
    """Run every phase of a bundle under ``workers``; return the failures (a placeholder reference is skipped)."""
    failures = []
    decl = declaration(decl)
    all_columns = [k for k, _ in sorted(competition["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])]
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        workdir = tempfile.mkdtemp(prefix="%s-check-" % decl.COMPETITION_ID)
        try:
            ref_probe = os.path.join(workdir, "probe")
            _extract(members[phase["reference_data"]], ref_probe)
            names = zipfile.ZipFile(io.BytesIO(members[phase["reference_data"]])).namelist()
            if bundle_module.is_pending_reference(names):
                report("  phase %s %-22s not run: its reference is the test placeholder" % (number, phase["label"]))
                continue
            columns = [key for key in all_columns if key != feedback.VALID_KEY]
            generated = declarations.generated_reference_files(decl.COMPETITION_ID)
            if not generated & set(names) and subtask in decl.SUBTASKS:
                # Columns whose reference file is missing are reported once, by phase.reference-coverage.
                covered = set(expected_columns(subtask, names, decl))
                columns = [key for key in all_columns if key in covered]
            if phase.get("label") in blind_phases({"phases": {number: phase}}, members):
                columns = [feedback.VALID_KEY]   # a blind phase writes only how many items are validly predicted
            name = _reference_name(phase["reference_data"])
            chosen = None if generated & set(names) else \
                choose_submission(submissions_dir, subtask, name,
                                  declarations.wording(decl.COMPETITION_ID)["phase_splits"])
            submission = chosen or trivial_submission(ref_probe, decl)
            label = os.path.basename(chosen) if chosen else "a trivial submission built from the reference"
            for kind in workers:
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

def is_note(failure):
    """Whether ``failure`` is a note printed as a warning: a PENDING test reference or test input, a task of the
    declaration's ``OPTIONAL_REFERENCE_TASKS`` that a phase lacks, a PRACTICE phase."""
    return failure.rule in ("phase.reference-coverage", "phase.test-input", "phase.report-policy",
                            "audit.public-gold", "audit.report") and failure.text.startswith(("PENDING", "OPTIONAL", "PRACTICE",
                                                                               "LACKING"))


def check_one(path, submissions, run=True, timeout=600, report=print, schedule=None, decl=None, lacking=()):
    """Static rules, then (if they pass and ``run``) the worker simulation; return the failures. ``lacking``:
    ``{phase: [reference file names]}`` the build's data has no source for (its manifest), reported as notes."""
    decl = declaration(decl)
    failures, competition, members = check_bundle(path, schedule, decl, lacking)
    native = is_codabench_v2(competition)
    rules = CODABENCH_RULES if native else RULES
    static = len([rule for rule in rules if not rule.startswith("run.")])
    notes = len([f for f in failures if is_note(f)])
    report("%s: %s, %d static rules checked, %d failure(s)%s" % (
        path, "native Codabench (v2) bundle" if native else "CodaLab v1.5 bundle", static, len(failures) - notes,
        ", %d note(s)" % notes if notes else ""))
    blocking = [f for f in failures if f.rule != "phase.reference-coverage" and not is_note(f)]
    if blocking or not run:
        return failures
    view = as_v15_view(competition) if native else competition
    subtask = declared_subtask(view, decl) or _subtask_from_name(path, decl)
    workers = ("codabench",) if native else ("codalab", "codabench")
    return failures + simulate(view, members, subtask, submissions, timeout, report, workers, decl)


def codabench_v15_report(path, competition, report=print):
    """Say what Codabench's V15Unpacker makes of the v1.5 bundle at ``path`` (organiser.platforms.
    codabench_v15_losses, read from Codabench's source): every setting CodaLab honours that it drops or changes,
    the daily caps it keeps, and which bundle to upload there instead. Returns the losses."""
    losses = platforms.codabench_v15_losses(competition)
    twin = path[:-len(".zip")] + bundle_module.CODABENCH_SUFFIX + ".zip"
    report("%s on Codabench (%s, %s): %d setting(s) lost or changed; for Codabench upload %s instead (this v1.5 "
           "bundle is for self-hosted CodaLab instances)" % (path, "V15Unpacker", platforms.CODABENCH_SOURCE,
                                                              len(losses), os.path.basename(twin)))
    for loss in losses:
        report("  WARNING [codabench.v15] %s: CodaLab: %s; Codabench: %s (%s)" % loss)
    caps = platforms.kept_daily_caps(competition)
    if caps:
        report("  kept: the daily caps it sets (%s; a phase without one would get %d)" % (
            ", ".join("%s %s" % cap for cap in caps), platforms.CODABENCH_V15_DAILY_CAP))
    return losses


def _subtask_from_name(path, decl=None):
    """``<subtask>`` for ``<id>-<subtask>.zip`` (or its ``-codabench`` twin); the first subtask otherwise."""
    decl = declaration(decl)
    for name in decl.SUBTASKS:
        if os.path.basename(path) in ("%s-%s.zip" % (decl.COMPETITION_ID, name),
                                      "%s-%s-codabench.zip" % (decl.COMPETITION_ID, name)):
            return name
    return next(iter(decl.SUBTASKS))


def built_bundles(dist, data=None):
    """The bundles of the last build in ``dist``, the schedule that dated them and the competition they are
    for (``competition`` in the manifest; DEFAULT_COMPETITION when absent): ``(paths, schedule path, id)``.

    Raises ValueError when nothing was built, or when ``data`` is given and is not the data the last build
    was made from (checking one data set's bundles as another's is refused).
    """
    manifest = bundle_module.read_manifest(dist)
    if manifest is None:
        raise ValueError("nothing built in %s (no %s): run `make` first" % (dist, bundle_module.MANIFEST))
    if data is not None and os.path.abspath(data) != manifest["data"]:
        make = "make" if "competition" not in manifest else "make COMPETITION=%s" % manifest["competition"]
        raise ValueError("%s was built from %s, not from %s: run `%s DATA=%s` to build that, or `%s check` "
                         "without DATA to check what was built" % (dist, manifest["data"], os.path.abspath(data),
                                                                   make, data, make))
    paths = [os.path.join(dist, "bundles", name) for platform in (platforms.CODALAB, platforms.CODABENCH)
             for name in manifest["bundles"][platform]]
    return paths, manifest.get("schedule"), manifest.get("competition", DEFAULT_COMPETITION)


def _size_text(path):
    """``12.3 MiB`` for the file at ``path``."""
    size = float(os.path.getsize(path))
    for unit in ("B", "KiB", "MiB"):
        if size < 1024 or unit == "MiB":
            return "%.1f %s" % (size, unit)
        size /= 1024


def run_conformance(decl, dist, manifest, submissions):
    """Print the conformance check of every kind of the build (organiser/conformance.py) and return its failures;
    the development baselines of ``submissions`` are scored for its per-item recomputation."""
    splits = declarations.wording(decl.COMPETITION_ID)["phase_splits"]
    baselines = sorted(set(path for path in (choose_submission(submissions, subtask, bundle_module.DEVELOPMENT_PHASE,
                                                               splits) for subtask in decl.SUBTASKS) if path))
    found = conformance.check_build(decl, dist, manifest, baselines)
    for line in found.lines:
        print(line)
    failures = []
    for finding in found.findings:
        print("FAIL [%s] %s: %s" % (finding.rule, finding.where, finding.text))
        failures.append(Failure(finding.rule, finding.where, finding.text))
    return failures


def main(argv=None):
    """Check every bundle given (or every bundle of the last build with ``--dist``); exit 1 when a rule fails."""
    parser = argparse.ArgumentParser(prog="python -m organiser check", description=__doc__.split("\n")[0])
    parser.add_argument("bundles", nargs="*")
    parser.add_argument("--dist", default=None, help="check the bundles of the last build in this folder")
    parser.add_argument("--data", default=None, help="with --dist: refuse unless the last build used this data")
    parser.add_argument("--schedule", default=None, help="the schedule the windows must match (default: the "
                                                         "one that built them, else schedule.yaml)")
    parser.add_argument("--submissions", default=None, help="folder with baseline-<subtask>-<split>.zip files")
    parser.add_argument("--competition", default=None, help="the declaration to check against (default: the one "
                                                            "that built them, else %s)" % DEFAULT_COMPETITION)
    parser.add_argument("--static-only", action="store_true", help="check the rules without running workers")
    parser.add_argument("--no-audit", action="store_true", help="skip the leak audit (organiser/audit.py)")
    parser.add_argument("--no-workers", action="store_true", help="check the rules and audit for leaks without "
                                                                    "simulating the workers on every phase")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per scoring run (default 900)")
    parser.add_argument("--allow-missing-references", action="store_true",
                        help="report phase.reference-coverage as a warning (e.g. for a partial sample dataset)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    bundles, schedule_path, cid = list(args.bundles), args.schedule, args.competition
    test_inputs, lacking, manifest = {}, {}, {}
    try:
        if args.dist:
            manifest = bundle_module.read_manifest(args.dist) or {}
            test_inputs = audit.read_test_inputs(args.dist, manifest)
            lacking = manifest.get("lacking") or {}
            found, built_schedule, built_cid = built_bundles(args.dist, args.data)
            bundles += found
            schedule_path = schedule_path or built_schedule
            cid = cid or built_cid
        decl = declaration(cid)
        if not bundles:
            parser.error("give bundles or --dist")
        schedule = schedule_module.load(schedule_path or bundle_module.schedule_path(decl.COMPETITION_ID))
    except (ValueError, DataError, bundle_module.BundleError) as error:
        print("check: REFUSED: %s" % error, file=sys.stderr)
        return 2
    total = []
    for path in bundles:
        _, _, competition, _ = read_bundle(path)
        if competition is not None and not is_codabench_v2(competition) and isinstance(competition.get("phases"),
                                                                                      dict):
            try:
                codabench_v15_report(path, competition)
            except (KeyError, TypeError, platforms.PlatformError) as error:
                print("%s on Codabench: cannot say what V15Unpacker makes of it (%s)" % (path, error))
        failures = check_one(path, args.submissions, run=not (args.static_only or args.no_workers), timeout=args.timeout,
                             schedule=schedule, decl=decl, lacking=lacking.get(_subtask_from_name(path, decl), {}))
        for failure in failures:
            if is_note(failure) or (args.allow_missing_references and failure.rule == "phase.reference-coverage"):
                print("WARNING [%s] %s: %s" % failure)
                continue
            print("FAIL [%s] %s: %s" % failure)
            total.append(failure)
    if not args.static_only and not args.no_audit:
        for finding in audit.release_gold(manifest if args.dist else {}):
            print("FAIL [%s] %s: %s" % (finding.rule, finding.where, finding.text))
            total.append(Failure(finding.rule, finding.where, finding.text))
        for path in bundles:
            print("%s: leak audit" % path)
            found = audit.codabench_twin(sys.modules[__name__], path, bundles) if path.endswith(
                bundle_module.CODABENCH_SUFFIX + ".zip") else []
            for finding in found + audit.audit_bundle(sys.modules[__name__], decl, path, test_inputs,
                                                      args.submissions, timeout=args.timeout):
                failure = Failure(finding.rule, finding.where, finding.text)
                print("%s [%s] %s: %s" % (("WARNING" if finding.note else "FAIL",) + tuple(failure)))
                if not finding.note:
                    total.append(failure)
        if args.dist:
            split_audit = audit.audit_split(decl, args.dist, manifest)
            for line in split_audit.lines:
                print(line)
            for finding in split_audit.findings:
                print("FAIL [%s] %s: %s" % (finding.rule, finding.where, finding.text))
                total.append(Failure(finding.rule, finding.where, finding.text))
    if args.dist and not args.static_only:   # every kind the competition uses does what the tools take it to do
        total += run_conformance(decl, args.dist, manifest, args.submissions)
    for path in bundles:
        if os.path.isfile(path):
            print("%10s  %s" % (_size_text(path), path))
    print("check: %d bundle(s), %s" % (len(bundles), "%d failure(s)" % len(total) if total else "all rules pass"))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
