"""Competition bundles of every hosted competition: CodaLab v1.5 and native Codabench v2, per subtask.

``python -m organiser bundle --competition ID --data DIR --reference REF --out OUT [--schedule S]`` (``make bundle``,
``make COMPETITION=ID``) is the one bundle builder: every hosted competition (the top-level one and each
``competitions/<id>/``, see organiser.declarations.Hosted) goes through it, so every rule below holds for all of
them. It writes, for each subtask of the declaration (``<stem>``: ``<id>`` when the subtask is the competition
itself, else ``<id>-<subtask>``):

- ``OUT/bundles/<stem>.zip`` (v1.5: upload on CodaLab) and ``OUT/bundles/<stem>-codabench.zip`` (``version: 2``:
  upload on Codabench), with the same members;
- ``OUT/reference/<subtask>-<phase>.zip``: each phase's reference data (also nested in the bundles), with a
  ``phase.json`` that tells the scoring program whether the phase's gold is public (full reports) or hidden
  (scores and format messages only); without test gold the test phase nests a placeholder instead
  (``TEST_REFERENCE_PENDING.txt``), to be replaced when the organisers have the gold (docs/organisers.md);
- ``OUT/public_data/<subtask>-test.zip``: the test phase's input, written APART: it is never in a bundle or a
  starting kit (both platforms show every phase's public data to participants from the first day); the test
  phase nests a placeholder public data zip that the organisers replace with it when the test phase opens;
- ``OUT/starting_kit.zip``: the competition's ``starting_kit/``, its scoring program, the development reference
  (``reference_data/dev/``, to score development predictions locally), the development phase's public data
  under ``data/`` and the baseline table in its README;
- ``OUT/pages/<subtask>/*.html`` (the pages nested in each bundle) and ``OUT/build.json`` (the manifest ``make
  check`` reads).

What a competition's reference builder writes (``REF``): ``<phase>/`` (``dev``, ``test`` when gold exists), the
participants' files ``public/<phase>/`` (or ``public/<phase>/<subtask>/``), ``statistics.md`` (shown on the pages)
and ``public_gold.json`` (``{phase: why its gold is public}``): a test phase whose gold is public is built as an
openly labelled practice phase, said loudly. Dates come from the competition's schedule, columns from its
declaration, the pages from its templates (organiser.pages, plus its ``bundle_hooks.py``). Zips are deterministic
(fixed timestamps and permissions, sorted members, ``competition.yaml`` first).
"""
import argparse
import collections
import copy
import io
import json
import os
import re
import sys
import zipfile

import yaml

from organiser import declarations, feedback, logo, pages
from organiser import split as split_module
from organiser import schedule as schedule_module
from evalkit import conll, gold_index, keys
from evalkit.messages import DataError

YAML_MEMBER = "competition.yaml"
LOGO_MEMBER = "logo.png"
STARTING_KIT_MEMBER = "starting_kit.zip"
#: Phase reference members are named ``reference_data_<phase>.zip``, <phase> a folder of the reference.
REFERENCE_MEMBER = re.compile(r"^reference_data_([a-z0-9]+)\.zip$")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
SKIPPED_NAMES = frozenset(("__pycache__", ".pytest_cache", ".mypy_cache", ".DS_Store", ".git"))
SKIPPED_SUFFIXES = (".pyc", ".pyo", "~")
STORED_SUFFIXES = (".zip", ".png", ".gz", ".bin")
BASELINE_MARKER = "<!-- BASELINE_TABLE -->"
#: Where a starting kit's README gets the paragraph on the test phase (:func:`feedback.kit_readme_text`: the build's
#: feedback mode, so the README says what this build's test phase shows); a README without it is left as it is.
TEST_PHASE_MARKER = "<!-- TEST_PHASE -->"
#: The phase whose leaderboard is the official result (hidden on CodaLab while it runs).
OFFICIAL_PHASE = "test"
#: The phase whose gold every participant has (it is in the starting kit): its reports may show everything.
DEVELOPMENT_PHASE = "dev"
#: Stands in for the test reference data while the test gold is not available (see docs/organisers.md).
PENDING_REFERENCE_FILE = "TEST_REFERENCE_PENDING.txt"
PENDING_REFERENCE_TEXT = (
    "The test reference data of this phase has not been uploaded yet: submissions to this phase cannot be\n"
    "scored until the organisers replace this reference data with the test reference zip built by `make`\n"
    "(see docs/organisers.md, 'Adding the test gold').\n")
#: The test phase's public data in the bundle: a placeholder, replaced by the test input when the phase opens.
PUBLIC_DATA_MEMBER = "public_data_test.zip"
PENDING_PUBLIC_FILE = "TEST_DATA_PENDING.txt"
PENDING_PUBLIC_TEXT = (
    "The test input of this competition is released when the test phase opens (%s).\n"
    "The organisers then replace this file with it: download the test phase's public data again.\n")
CODABENCH_SUFFIX = "-codabench"
CODABENCH_IMAGE_KEY = "docker_image"
MANIFEST = "build.json"
#: What the scoring program reads in each phase's reference data: whose gold it is (organiser.pages says it too).
PHASE_FILE = "phase.json"
#: Facts of each reference file's gold, written when the reference is built (organiser/gold_index.py).
GOLD_INDEX = gold_index.FILE_NAME
#: The members of a phase's reference zip that ride along and are never scored.
RIDERS = (PHASE_FILE, "other_split.json", "baseline_scores.json", "inventory.json", feedback.SPLIT_FILE,
          "floor_scores.json", GOLD_INDEX)
#: Written by a competition's reference builder beside its phases.
PUBLIC_FOLDER = "public"
PUBLIC_GOLD_FILE = split_module.PUBLIC_GOLD_FILE
#: A practice phase's label gets this suffix; its description starts with PRACTICE_TEXT.
PRACTICE_SUFFIX = " (practice)"
PRACTICE_TEXT = ("PRACTICE PHASE: the gold of this phase is public (%s), so this leaderboard is no official result. ")
PAGE_TITLES = {"overview": "Overview", "evaluation": "Evaluation", "data": "Data", "timeline": "Timeline",
               "terms": "Terms and conditions"}


class BundleError(Exception):
    """A problem that stops the build, with a message for the organisers."""


# --------------------------------------------------------------------------- declarations

def subtask_pairs(decl, subtask):
    """The declared (task, lang) pairs of ``subtask``: its tasks x its languages, filtered by task.languages."""
    declared = decl.SUBTASKS[subtask]
    tasks = [decl.TASKS_BY_FOLDER[folder] for folder in declared["tasks"]]
    return [(task, lang) for task in tasks for lang in declared["languages"] if lang in task.languages]


def reference_file(decl, task, lang):
    """The reference member name of a (task, lang) pair: the declared ``REFERENCE_FILE`` or ``<task>/<lang>.json``."""
    return conll.reference_name(decl, task, lang)


def declared_reference_files(decl):
    """``{reference file name: (task, lang)}`` of every declared (task, language) pair, in declared order."""
    return collections.OrderedDict((reference_file(decl, task, lang), (task, lang)) for task in decl.TASKS
                                   for lang in task.languages)


def dataset_label(decl, task, lang):
    """A dataset column's label from the declaration's ``DATASET_LABEL`` (e.g. ``LID SPA-ENG``)."""
    return decl.DATASET_LABEL.format(task=task.key.upper(), pair=lang.replace("_", "-").upper())


def component_label(decl, task, lang, component):
    """A component column's label: ``COMPONENT_LABELS[component]`` (the component's name when it declares none),
    with ``{lang}`` (the language code), ``{language}`` (its declared name) and ``{task}`` (the task's label)
    filled in, so that a competition over several languages or tasks can tell its columns apart."""
    label = getattr(decl, "COMPONENT_LABELS", {}).get(component, component)
    return label.format(lang=lang, language=decl.LANGUAGES[lang][0], task=task.label)


def declared_columns(decl, languages, pairs):
    """``[(key, label)]``: the leaderboard columns the declaration asks for over ``pairs``.

    A declaration with ``LEADERBOARD = "datasets"`` shows the overall score (``OVERALL_LABEL``) and one
    column per dataset, in the declared task order; with ``LEADERBOARD = "components"``, the overall score and
    every component of every entry (labels from ``COMPONENT_LABELS``, :func:`component_label`; with a single entry,
    its official metric is the overall score and has no column of its own); with ``LEADERBOARD = "tasks"``, the
    overall score, each task's mean (a subtask of a shared task: "Avg <task label>") and the entries, nothing that
    averages over tasks of different metrics; any other gets :func:`evalkit.keys.leaderboard_columns` (overall, task
    means, language means unless :func:`evalkit.keys.language_means` says otherwise, entries).
    """
    if getattr(decl, "LEADERBOARD", None) == "components":
        ordered = keys.ordered_pairs(decl.TASKS, languages, pairs)
        return [(keys.OVERALL_KEY, decl.OVERALL_LABEL)] + [   # one entry: its score is the overall one
            (keys.component_key(lang, task, comp), component_label(decl, task, lang, comp)) for task, lang in ordered
            for comp in task.components if len(ordered) > 1 or comp != task.metric]
    if getattr(decl, "LEADERBOARD", None) == "datasets":
        rank = dict((task.folder, index) for index, task in enumerate(decl.TASKS))
        ordered = sorted(pairs, key=lambda pair: (rank[pair[0].folder], list(pair[0].languages).index(pair[1])))
        return [(keys.OVERALL_KEY, decl.OVERALL_LABEL)] + [
            (keys.entry_key(lang, task), dataset_label(decl, task, lang)) for task, lang in ordered]
    return keys.leaderboard_columns(decl.TASKS, languages, pairs, keys.language_means(decl))


def leaderboard_section(source, decl, subtask, pairs):
    """The ``leaderboard`` section: the source's single leaderboard and the declared columns over ``pairs``.

    Every column refers to the leaderboard mapping itself (a YAML anchor once dumped): both platforms match a
    column to its leaderboard by the ``label`` of that mapping. A component of the declaration's
    ``LOWER_IS_BETTER`` sorts ascending.
    """
    boards = (source or {}).get("leaderboards") or {}
    if len(boards) != 1:
        raise BundleError("competition.yaml: leaderboard.leaderboards must declare exactly one leaderboard")
    (board_key, board), = boards.items()
    board = {"label": board["label"], "rank": board.get("rank", 1)}
    lower = set(keys.component_key(lang, task, comp) for task, lang in pairs
                for comp in getattr(decl, "LOWER_IS_BETTER", ()))
    columns = {}
    languages = list(decl.SUBTASKS[subtask]["languages"])
    for rank, (key, label) in enumerate(declared_columns(decl, languages, pairs), 1):
        columns[key] = {"leaderboard": board, "label": label, "numeric_format": 4, "rank": rank,
                        "sort": "asc" if key in lower else "desc"}
    return {"leaderboards": {board_key: board}, "columns": columns}


def load_competition(path=None):
    """Read a source ``competition.yaml`` (default: the top-level competition's)."""
    path = path or declarations.Hosted().source
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    if not isinstance(data, dict) or not isinstance(data.get("phases"), dict):
        raise BundleError("%s: expected a mapping with a `phases` mapping" % path)
    return data


def phase_reference(phase):
    """The reference folder a phase scores against (``dev`` for ``reference_data_dev.zip``)."""
    match = REFERENCE_MEMBER.match(str(phase.get("reference_data", "")))
    if not match:
        raise BundleError("phase %r: reference_data must be named reference_data_<phase>.zip, got %r"
                          % (phase.get("label"), phase.get("reference_data")))
    return match.group(1)


def schedule_path(cid=None):
    """The schedule of competition ``cid`` (``schedule.yaml`` beside its ``competition.yaml``)."""
    return declarations.Hosted(cid).schedule


# --------------------------------------------------------------------------- the state of each phase

class PhaseStates(object):
    """What the reference folder holds for each phase: ``real`` (gold participants cannot see), ``public`` (the
    development phase, whose gold is in the starting kit), ``practice`` (a test phase whose gold is public,
    ``reasons[phase]`` says why) or ``pending`` (no reference: the test placeholder)."""

    def __init__(self, reference_dir, hosted=None):
        self.reasons = read_public_gold(reference_dir)
        #: ``{phase: split.json}`` of the phases whose folder has one (the test phase's feedback mode).
        self.splits = dict((name, split) for name, split in ((name, _read_split(reference_dir, name))
                                                             for name in _phase_folders(reference_dir)) if split)
        if hosted is None:
            self.found, self.present = available_phases(reference_dir), set()
            return
        by_phase = reference_files_by_phase(reference_dir, hosted.declaration)
        self.found = set(name for name, files in by_phase.items() if files)
        #: Every declared reference file name that some phase has (a dataset no phase has is "lacking").
        self.present = set(file for files in by_phase.values() for file in files)

    def state(self, name):
        """The state of phase ``name``."""
        if name == DEVELOPMENT_PHASE:
            return "public"
        if name not in self.found:
            return "pending"
        return "practice" if name in self.reasons else "real"

    def gold_is_hidden(self, name):
        """Whether the reports of phase ``name`` must keep its gold hidden."""
        return self.state(name) not in ("public", "practice")


def _read_split(reference_dir, name):
    """The ``split.json`` of phase folder ``name`` (None without one); a BundleError when it cannot be read."""
    try:
        return feedback.read_split(os.path.join(reference_dir, name))
    except ValueError as error:
        raise BundleError(str(error))


def read_public_gold(reference_dir):
    """``{phase: reason}`` of ``<reference_dir>/public_gold.json`` (:func:`organiser.split.read_public_gold`);
    BundleError when it is broken."""
    try:
        return split_module.read_public_gold(reference_dir)
    except ValueError as error:
        raise BundleError(str(error))


def phase_policy(name, hidden):
    """The ``phase.json`` of phase ``name``: ``{"phase": name, "gold": "hidden" | "public"}`` (bytes)."""
    return (json.dumps({"phase": name, "gold": "hidden" if hidden else "public"}, sort_keys=True) + "\n").encode()


def zipped_policy(archive):
    """The ``phase.json`` of a reference zip (an open ``ZipFile``) as a dict; None when it has none or it cannot be
    read."""
    try:
        value = json.loads(archive.read(PHASE_FILE).decode("utf-8"))
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def stamp_phases(reference_dir, hosted=None):
    """Write each phase folder's ``phase.json`` (the reports of the development phase and of a practice phase show
    everything; any other phase keeps its gold hidden); return ``{phase: hidden}``. ``hosted``: the competition,
    whose declared reference files tell a phase folder from another folder of the reference builder."""
    states = PhaseStates(reference_dir, hosted)
    stamped = {}
    for name in sorted(states.found):
        stamped[name] = states.gold_is_hidden(name)
        write_file(os.path.join(reference_dir, name, PHASE_FILE), phase_policy(name, stamped[name]))
    return stamped


# --------------------------------------------------------------------------- the competition.yaml

def derive_competition(hosted, source, subtask, states, schedule):
    """The CodaLab v1.5 competition of ``subtask`` from the source, the phases' states and the schedule.

    Every phase of the source is kept: the development phase must have reference data; the test phase without
    gold has a placeholder reference (so every phase and date exists from the first upload); a test phase whose
    gold is public is an openly labelled practice phase; the extra phases the subtask's wording declares follow.
    The subtask gets its own title (the first subtask keeps the source's), and the description and phase labels
    its wording declares. Each phase starts when it opens, the competition ends when the last phase closes
    (CodaLab ends a phase when the next starts); the last submission of each team is forced onto the
    leaderboard, the test phase's leaderboard is hidden while it runs, and neither the leaderboard button nor
    the home page's chart of scores is offered (docs/organisers.md).
    """
    decl = hosted.declaration
    phases = [copy.deepcopy(source["phases"][number]) for number in sorted(source["phases"])]
    names = [phase_reference(phase) for phase in phases]
    if DEVELOPMENT_PHASE not in names or DEVELOPMENT_PHASE not in states.found:
        raise BundleError("no development reference data (looked for %s/)" % DEVELOPMENT_PHASE)
    extras = declarations.extra_phases(subtask, hosted.cid)
    phases.extend(dict(extra["phase"]) for extra in extras)
    names += [extra["name"] for extra in extras]
    starts, end_date = schedule_module.codalab_dates(schedule, names)
    competition = {}
    for key, value in source.items():
        if key in ("end_date", "force_submission_to_leaderboard", "disallow_leaderboard_modifying", "hide_chart"):
            continue
        competition[key] = copy.deepcopy(value)
        if key == "has_registration":
            competition["end_date"] = end_date
            competition["force_submission_to_leaderboard"] = True
            competition["disallow_leaderboard_modifying"] = True
            competition["hide_chart"] = True
    first = next(iter(decl.SUBTASKS))
    competition["title"] = source["title"] if subtask == first else decl.SUBTASKS[subtask]["title"]
    wording = declarations.subtask_wording(subtask, hosted.cid)
    if wording.get("description"):
        competition["description"] = wording["description"]
    competition["phases"] = {}
    for index, phase in enumerate(phases):
        dated = _dated_phase(phase, index + 1, names[index], starts[index], wording, schedule)
        if states.state(names[index]) == "practice":
            dated["label"] = (dated["label"] + PRACTICE_SUFFIX)[:50]
            dated["description"] = (PRACTICE_TEXT % states.reasons[names[index]]) + dated.get("description", "")
        elif states.state(names[index]) == "real" and names[index] in states.splits:
            dated["description"] = feedback_description(dated.get("description", ""), states.splits[names[index]],
                                                        [reference_file(decl, t, l) for t, l in subtask_pairs(
                                                            decl, subtask)])
        competition["phases"][index + 1] = dated
    pairs = subtask_pairs(decl, subtask)
    if getattr(decl, "LACKING_DATASETS", "keep") == "drop":   # a dataset no phase has a reference for: no column
        pairs = [(t, l) for t, l in pairs if reference_file(decl, t, l) in states.present]
    competition["leaderboard"] = leaderboard_section(source.get("leaderboard"), decl, subtask, pairs)
    if any(feedback.mode_of(split) == feedback.BLIND for name, split in states.splits.items()
           if states.state(name) == "real"):
        add_valid_column(competition["leaderboard"])
    return competition


#: The platforms' limit on a phase's description (organiser.check, ``phase.description``).
MAX_DESCRIPTION = 1000
#: What a source's test description says of its gold, and what each feedback mode makes of it.
_HIDDEN_GOLD = "scored against the hidden test gold"
_MODE_GOLD = {feedback.PUBLIC_PRIVATE: "scored against the gold of its public part",
              feedback.BLIND: "checked against the test input (no test gold on the platform)",
              feedback.FULL: "scored against the whole test gold"}


def feedback_description(description, split, names):
    """A test phase's description with the sentence of its feedback mode (:func:`feedback.test_description`, its
    counts over the subtask's reference file ``names``) after the source's first sentence; the source's "scored
    against the hidden test gold" says what the mode does instead; the whole is kept within
    :data:`MAX_DESCRIPTION` characters."""
    text = (description or "").replace(_HIDDEN_GOLD, _MODE_GOLD[feedback.mode_of(split)])
    return second_sentence(text, feedback.test_description(split, names))


def second_sentence(description, sentence):
    """``description`` with ``sentence`` after its first sentence, kept within :data:`MAX_DESCRIPTION` characters."""
    sentences = [part for part in re.split(r"(?<=[.!?])\s+", description or "") if part.strip()]
    text = " ".join(sentences[:1] + [sentence] + sentences[1:])
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 3].rstrip() + "..."


def left_out_languages(decl, subtask, lacking, present):
    """The languages of ``subtask`` that the phase whose missing reference files are ``lacking`` has no file of,
    while another phase has (``present``: the reference files of every phase), in declared order: that phase leaves
    them out (a test gold that holds some languages only)."""
    files = {}
    for task, lang in subtask_pairs(decl, subtask):
        name = reference_file(decl, task, lang)
        if name in present:
            files.setdefault(lang, []).append(name)
    lacking = set(lacking)
    return [lang for lang in decl.SUBTASKS[subtask]["languages"]
            if lang in files and all(name in lacking for name in files[lang])]


def note_left_out(build, competition, subtask, present):
    """Name the languages the subtask's test phase leaves out (:func:`left_out_languages`) in its description, the
    build's output and its manifest (``test_left_out``); return them (the pages say them too)."""
    decl = build.hosted.declaration
    lacking = build.lacking.get(subtask, {}).get(OFFICIAL_PHASE)
    left_out = left_out_languages(decl, subtask, lacking, present) if lacking else []
    if not left_out:
        return []
    for phase in competition["phases"].values():
        if phase_reference(phase) == OFFICIAL_PHASE:
            phase["description"] = second_sentence(phase.get("description", ""), "Not scored in this phase (no test "
                                                   "gold for them): %s." % ", ".join(left_out))
    build.left_out[subtask] = left_out
    build.warn("%s %s: LEFT OUT %d of %d languages (no test gold for them): %s" % (
        subtask, OFFICIAL_PHASE, len(left_out), len(decl.SUBTASKS[subtask]["languages"]), ", ".join(left_out)))
    return left_out


def add_valid_column(section):
    """Add the blind test phase's only score (:data:`feedback.VALID_KEY`) as the leaderboard's last column."""
    columns = section["columns"]
    board = next(iter(section["leaderboards"].values()))
    columns[feedback.VALID_KEY] = {"leaderboard": board, "label": feedback.VALID_LABEL, "numeric_format": 4,
                                   "rank": len(columns) + 1, "sort": "desc"}


def is_practice(phase):
    """Whether a bundle's phase is a labelled practice phase (its gold is public; :func:`derive_competition` labels
    it with :data:`PRACTICE_SUFFIX`)."""
    return str(phase.get("label", "")).endswith(PRACTICE_SUFFIX)


def _dated_phase(phase, number, name, start, wording, schedule):
    """One phase with its number, label, start date, description dates and leaderboard mode."""
    window = schedule.window(name)
    ordered = {"phasenumber": number}
    ordered.update((key, value) for key, value in phase.items() if key not in ("phasenumber", "start_date"))
    labels = wording.get("phase_labels") or {}
    ordered["label"] = labels.get(name, phase.get("label"))
    ordered["start_date"] = start
    if ordered.get("description"):
        ordered["description"] = " ".join(ordered["description"].split()).replace(
            "{opens}", schedule_module.human(window.opens)).replace("{closes}", schedule_module.human(window.closes))
    if name == OFFICIAL_PHASE:
        ordered["leaderboard_management_mode"] = "hide_results"
    return ordered


def codabench_competition(competition, schedule):
    """The native Codabench (``version: 2``) competition equivalent to a v1.5 ``competition``.

    Same pages, programs, references, limits and columns, plus what v1.5 cannot say on Codabench: each
    phase's own end (:func:`schedule.codabench_dates`), the leaderboard rule ``Force_Last`` (each team's
    last submission is its entry, enforced by the server in every phase), detailed results not linked from the
    leaderboard, submissions that participants cannot make public, and the test phase's ``hide_output`` (the
    logs, outputs and submitted files of its submissions are not served to other users; each team still sees its
    scores and detailed results).
    """
    ordered = [competition["phases"][n] for n in sorted(competition["phases"])]
    dates = schedule_module.codabench_dates(schedule, [phase_reference(p) for p in ordered])
    tasks, phases = [], []
    for index, phase in enumerate(ordered):
        start, end = dates[index]
        task = {"index": index, "name": "%s task" % phase["label"], "description": phase.get("description", ""),
                "scoring_program": phase["scoring_program"], "reference_data": phase["reference_data"]}
        tasks.append(task)
        entry = {"index": index, "name": phase["label"], "description": phase.get("description", ""),
                 "start": start, "end": end, "max_submissions": phase["max_submissions"],
                 "max_submissions_per_day": phase["max_submissions_per_day"],
                 "execution_time_limit": phase.get("execution_time_limit", 600),
                 "auto_migrate_to_this_phase": False, "tasks": [index]}
        if phase_reference(phase) == OFFICIAL_PHASE:
            entry["hide_output"] = True
        for key in ("starting_kit", "public_data"):
            if phase.get(key):
                entry[key] = phase[key]
        phases.append(entry)
    (board_key, board), = competition["leaderboard"]["leaderboards"].items()
    columns = sorted(competition["leaderboard"]["columns"].items(), key=lambda item: item[1]["rank"])
    leaderboard = {"title": board["label"], "key": board_key, "primary_index": 0, "hidden": False,
                   "submission_rule": "Force_Last",
                   "columns": [{"title": column["label"], "key": key, "index": column["rank"] - 1,
                                "sorting": column["sort"], "precision": column["numeric_format"], "hidden": False}
                               for key, column in columns]}
    pages_list = [{"title": PAGE_TITLES.get(key, key.capitalize()), "file": member}
                  for key, member in competition["html"].items() if key != "terms"]
    return {
        "version": 2, "title": competition["title"], "description": competition["description"],
        "image": competition["image"], "terms": competition["html"]["terms"],
        "registration_auto_approve": not competition["has_registration"],
        CODABENCH_IMAGE_KEY: competition["competition_docker_image"],
        "enable_detailed_results": True, "show_detailed_results_in_submission_panel": True,
        "show_detailed_results_in_leaderboard": False, "can_participants_make_submissions_public": False,
        "make_programs_available": False, "make_input_data_available": False, "auto_run_submissions": True,
        "pages": pages_list, "tasks": tasks, "phases": phases, "leaderboards": [leaderboard],
    }


def dump_yaml(competition):
    """``competition.yaml`` text: key order kept, UTF-8, dates unquoted, the leaderboard as an anchor."""
    return yaml.safe_dump(competition, sort_keys=False, allow_unicode=True, default_flow_style=False,
                          width=100)


# --------------------------------------------------------------------------- zips

def zip_bytes(members):
    """Deterministic zip of ``{name: bytes}``: ``competition.yaml`` first, then sorted names."""
    names = sorted(members, key=lambda name: (name != YAML_MEMBER, name))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.create_system = 3
            info.external_attr = 0o644 << 16
            stored = name.lower().endswith(STORED_SUFFIXES)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=None if stored else 9)
    return buffer.getvalue()


def write_file(path, data):
    """Write bytes to ``path``, creating its folder."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def directory_members(root, prefix=""):
    """``{prefix + relative path: bytes}`` of the files under ``root`` (caches and editor files skipped)."""
    members = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_NAMES)
        for name in sorted(files):
            if name in SKIPPED_NAMES or name.endswith(SKIPPED_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, "rb") as handle:
                members[prefix + relative] = handle.read()
    return members


# --------------------------------------------------------------------------- reference data

def _phase_folders(reference_dir):
    """The folders of ``reference_dir`` that may be phases (every folder but the participants' ``public/`` and the
    organisers' ``private/``, which is never uploaded)."""
    if not os.path.isdir(reference_dir):
        return []
    return [name for name in sorted(os.listdir(reference_dir))
            if name not in (PUBLIC_FOLDER, feedback.PRIVATE_FOLDER) and os.path.isdir(os.path.join(reference_dir, name))]


def reference_files_by_phase(reference_dir, decl):
    """``{phase folder: set of the declaration's reference file names it holds}``."""
    names = declared_reference_files(decl)
    return dict((phase, set(name for name in names if os.path.isfile(os.path.join(reference_dir, phase,
                                                                                   *name.split("/")))))
                for phase in _phase_folders(reference_dir))


def available_phases(reference_dir, hosted=None):
    """The phase folders of ``reference_dir`` that hold at least one reference file (the declaration's names when
    ``hosted`` is given, else any file but the phase and exclusion notes)."""
    if hosted is not None:
        return set(phase for phase, files in reference_files_by_phase(reference_dir, hosted.declaration).items()
                   if files)
    notes = RIDERS + ("excluded.json", "dropped.json")
    return set(phase for phase in _phase_folders(reference_dir)
               if any(f not in notes for _, _, files in os.walk(os.path.join(reference_dir, phase)) for f in files))


def gold_index_member(path, members):
    """The phase's gold index (``path``, organiser/gold_index.py) as a member of a reference zip holding
    ``members``: the entries of these members alone (the index is rewritten; an unreadable one is shipped as it
    is, the scorer then ignores it)."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        index = json.loads(data.decode("utf-8"))
        files = index["files"]
        kept = dict((name, files[name]) for name in sorted(files) if name in members)
    except (ValueError, TypeError, KeyError, AttributeError):
        return data
    return json.dumps(dict(index, files=kept), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def reference_members(hosted, phase_dir, subtask, baselines_dir=None, phase=None, hidden=True):
    """The reference files of ``subtask`` in ``phase_dir``: ``({name: bytes}, missing)``.

    Only the subtask's (task, lang) pairs are taken (what the scorer scores is exactly the files present);
    ``missing`` lists the declared pairs without a file. What rides along, never scored: ``phase.json`` (the
    reports' policy, :func:`phase_policy`), ``other_split.json`` (recognises predictions for the other split),
    ``split.json`` (the part of a split test phase its gold scores, organiser/split.py) and, from ``baselines_dir`` (``make baselines``), ``baseline_scores.json`` (the baseline's scores on this
    phase, shown beside a participant's in ``detailed_results.html``).
    """
    decl = hosted.declaration
    phase = phase or os.path.basename(os.path.normpath(phase_dir))
    members, missing = {}, []
    for task, lang in subtask_pairs(decl, subtask):
        name = reference_file(decl, task, lang)
        path = os.path.join(phase_dir, *name.split("/"))
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                members[name] = handle.read()
        else:
            missing.append(name)
    for rider in ("other_split.json", "inventory.json", feedback.SPLIT_FILE, "floor_scores.json"):   # by the builds
        if members and os.path.isfile(os.path.join(phase_dir, rider)):
            with open(os.path.join(phase_dir, rider), "rb") as handle:
                members[rider] = handle.read()
    if members and os.path.isfile(os.path.join(phase_dir, GOLD_INDEX)):
        members[GOLD_INDEX] = gold_index_member(os.path.join(phase_dir, GOLD_INDEX), members)
    if members:
        members[PHASE_FILE] = phase_policy(phase, hidden)
    members.update(baseline_member(baselines_dir, subtask, phase, hosted.cid))
    return members, missing


def baseline_member(baselines_dir, subtask, phase, cid=None):
    """``{"baseline_scores.json": bytes}``: the baseline's scores of ``subtask`` on ``phase`` (from
    ``make baselines``), shown beside a participant's in ``detailed_results.html``; empty when absent."""
    split = declarations.wording(cid)["phase_splits"].get(phase)
    scores = os.path.join(baselines_dir or "", "scores-baseline-%s-%s.json" % (subtask, split))
    if not (baselines_dir and split and os.path.isfile(scores)):
        return {}
    with open(scores, encoding="utf-8") as handle:
        found = json.load(handle).get("scores", {})
    return {"baseline_scores.json": json.dumps(
        {"label": "baseline", "system": "baseline", "scores": found}, indent=1).encode("utf-8")}


def coverage_reference_members(hosted, subtask, file_name):
    """The generated reference of an extra phase (``file_name``): the languages to cover and the columns."""
    decl = hosted.declaration
    languages = list(decl.SUBTASKS[subtask]["languages"])
    columns = declared_columns(decl, languages, subtask_pairs(decl, subtask))
    payload = {
        "subtask": subtask,
        "languages": [{"code": lang, "name": decl.LANGUAGES[lang][0]} for lang in languages],
        "columns": [key for key, _ in columns],
        "language_columns": {lang: keys.language_key(lang) for lang in languages},
    }
    text = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return {file_name: text.encode("utf-8")}


def pending_reference_members():
    """The placeholder reference of a test phase built without test gold (scoring it fails with a message)."""
    return {PENDING_REFERENCE_FILE: PENDING_REFERENCE_TEXT.encode("utf-8")}


def is_pending_reference(names):
    """Whether a reference zip's member names are the placeholder of :func:`pending_reference_members`."""
    return list(names) == [PENDING_REFERENCE_FILE]


def pending_public_members(schedule):
    """The placeholder public data of the test phase: when the test input is released."""
    opens = schedule_module.human(schedule.window(OFFICIAL_PHASE).opens)
    return {PENDING_PUBLIC_FILE: (PENDING_PUBLIC_TEXT % opens).encode("utf-8")}


def is_pending_public(names):
    """Whether a public data zip's member names are the placeholder of :func:`pending_public_members`."""
    return list(names) == [PENDING_PUBLIC_FILE]


def public_members(reference_dir, phase, subtask, prefix=""):
    """``{prefix + relative path: bytes}``: the participants' files of ``phase`` written by the reference builder,
    ``<reference_dir>/public/<phase>/<subtask>/`` when it exists, else ``<reference_dir>/public/<phase>/``."""
    folder = os.path.join(reference_dir, PUBLIC_FOLDER, phase)
    if os.path.isdir(os.path.join(folder, subtask)):
        folder = os.path.join(folder, subtask)
    return directory_members(folder, prefix) if os.path.isdir(folder) else {}


# --------------------------------------------------------------------------- scoring program, starting kit

def program_members(hosted):
    """The scoring program zip's members: the competition's ``evaluate.py``, declaration, ``metadata`` and own
    modules (``<id>_*.py``: its kinds, :func:`organiser.declarations.own_modules`), and the machinery ``evalkit/``
    (for the top-level competition, ``scoring_program/`` holds them all)."""
    if hosted.top_level:
        return directory_members(hosted.program)
    members = {}
    own = [os.path.basename(path) for path in declarations.own_modules(hosted.cid)]
    for name in ["evaluate.py", hosted.cid + ".py", "metadata"] + own:
        with open(os.path.join(hosted.program, name), "rb") as handle:
            members[name] = handle.read()
    members.update(directory_members(os.path.join(declarations.SCORING_PROGRAM, "evalkit"), "evalkit/"))
    return members


def readme_with_table(readme, table_md):
    """The starting kit README with the baseline table at ``<!-- BASELINE_TABLE -->`` (or appended)."""
    if BASELINE_MARKER in readme:
        return readme.replace(BASELINE_MARKER, table_md.strip() + "\n")
    return readme.rstrip("\n") + "\n\n## Baseline scores\n\n" + table_md.strip() + "\n"


def starting_kit_members(hosted, table_md=None, reference_dir=None, baseline=None, data=None, test_phase=None):
    """The starting kit zip's members, under ``<id>-starting-kit/``: the competition's ``starting_kit/``, its
    scoring program under ``scoring_program/``, from ``reference_dir`` the development reference under
    ``reference_data/dev/`` (the development gold is public) with ``baseline`` (:func:`baseline_member`, so local
    reports show the baseline too) and every phase's ``excluded.json`` as ``excluded/<phase>.json`` (read by the
    validator), and ``data`` (the development phase's public files, under ``data/``); its README gets ``table_md``
    and ``test_phase`` (the paragraph on the test phase, at :data:`TEST_PHASE_MARKER`). Nothing of a test phase: no
    test reference, no test input."""
    top = "%s-starting-kit/" % hosted.cid
    members = directory_members(hosted.starting_kit, top) if os.path.isdir(hosted.starting_kit) else {}
    members.update((top + "scoring_program/" + name, value) for name, value in program_members(hosted).items())
    dev = os.path.join(reference_dir or "", DEVELOPMENT_PHASE)
    if reference_dir and os.path.isdir(dev):
        found = directory_members(dev, top + "reference_data/dev/")
        members.update((name, value) for name, value in found.items() if not name.endswith("/excluded.json"))
        members[top + "reference_data/dev/" + PHASE_FILE] = phase_policy(DEVELOPMENT_PHASE, False)
        members.update((top + "reference_data/dev/" + name, value) for name, value in (baseline or {}).items())
    for phase in sorted(available_phases(reference_dir)) if reference_dir else ():
        excluded = os.path.join(reference_dir, phase, "excluded.json")
        if os.path.isfile(excluded):
            with open(excluded, "rb") as handle:
                members[top + "excluded/%s.json" % phase] = handle.read()
    members.update((top + "data/" + name, value) for name, value in (data or {}).items())
    readme = top + "README.md"
    if table_md and readme in members:
        members[readme] = readme_with_table(members[readme].decode("utf-8"), table_md).encode("utf-8")
    if test_phase and readme in members:
        members[readme] = members[readme].replace(TEST_PHASE_MARKER.encode("utf-8"), test_phase.encode("utf-8"))
    return members


# --------------------------------------------------------------------------- build

class Build(object):
    """Inputs and outputs of one ``bundle`` run; ``log`` collects what is printed at the end."""

    def __init__(self, args, hosted):
        self.args = args
        self.hosted = hosted
        self.out = args.out
        self.log = []
        self.pages_written = []
        self.warnings = []
        #: ``{subtask: {phase: [reference file names the reference folder lacks]}}`` (the manifest's ``lacking``)
        self.lacking = {}
        #: ``{subtask: [languages its test phase leaves out]}`` (the manifest's ``test_left_out``)
        self.left_out = {}

    def warn(self, text):
        """Record and print a warning at once (each text once)."""
        if text in self.warnings:
            return
        self.warnings.append(text)
        print("WARNING: " + text, file=sys.stderr)

    def wrote(self, path, data):
        """Write ``data`` to ``path`` and remember its size for the summary."""
        write_file(path, data)
        self.log.append((path, len(data)))


def loud(text):
    """Print ``text`` framed so it cannot be missed."""
    bar = "!" * 78
    print("\n".join(["", bar, text, bar, ""]), file=sys.stderr)


def phase_reference_members(build, subtask, name, states):
    """The members of the reference zip of phase ``name`` and whether it is real (False: the test placeholder)."""
    extra = dict((phase["name"], phase) for phase in declarations.extra_phases(subtask, build.hosted.cid))
    if name in extra:
        return coverage_reference_members(build.hosted, subtask, extra[name]["reference_file"]), True
    if states.state(name) == "pending":
        return pending_reference_members(), False
    refs, missing = reference_members(build.hosted, os.path.join(build.args.reference, name), subtask,
                                      os.path.join(build.out, "baselines"), name, states.gold_is_hidden(name))
    scored = [n for n in refs if n not in RIDERS]
    if missing:
        build.lacking.setdefault(subtask, {})[name] = list(missing)   # the reference folder has no such file
        drop = getattr(build.hosted.declaration, "LACKING_DATASETS", "keep") == "drop"
        build.warn("%s %s: LACKS %d of %d declared reference file(s), %s: %s" % (
            subtask, name, len(missing), len(missing) + len(scored),
            "not scored" if drop else "their leaderboard columns will stay empty", ", ".join(missing)))
    if not scored:
        raise BundleError("%s %s: no reference file found under %s"
                          % (subtask, name, os.path.join(build.args.reference, name)))
    return refs, True


def attach_public_data(build, competition, subtask, members, schedule):
    """The test phase's input: written apart (``OUT/public_data/<subtask>-test.zip``), never in the bundle; the
    bundle's test phase gets the placeholder public data (:func:`pending_public_members`) instead."""
    found = public_members(build.args.reference, OFFICIAL_PHASE, subtask)
    for phase in competition["phases"].values():
        if phase_reference(phase) == OFFICIAL_PHASE:
            phase["public_data"] = PUBLIC_DATA_MEMBER
            members[PUBLIC_DATA_MEMBER] = zip_bytes(pending_public_members(schedule))
    if not found:
        build.warn("%s: no test input in %s: the test phase has no data to release yet" % (
            subtask, os.path.join(build.args.reference, PUBLIC_FOLDER, OFFICIAL_PHASE)))
        return None
    path = os.path.join(build.out, "public_data", "%s-test.zip" % subtask)
    build.wrote(path, zip_bytes(found))
    return path


def page_links(hosted):
    """The competition's links (``pages/links.yaml``), checked."""
    try:
        return pages.load_links(os.path.join(hosted.pages, pages.LINKS_FILE), hosted.subtasks())
    except DataError as error:
        raise BundleError(str(error))


def build_subtask(build, source, subtask, states, shared):
    """Build the reference zips, pages and both bundles of one subtask; return their paths and the path of the test
    input written apart (or None): ``(CodaLab v1.5 bundle, native Codabench bundle, test input)``."""
    hosted, schedule = build.hosted, shared["schedule"]
    competition = derive_competition(hosted, source, subtask, states, schedule)
    extra_programs = dict((extra["phase"]["scoring_program"], os.path.join(hosted.folder, extra["program"]))
                          for extra in declarations.extra_phases(subtask, hosted.cid))
    members, present = {}, set()
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        member = phase["reference_data"]
        if member in members:
            continue
        name = phase_reference(phase)
        references, real = phase_reference_members(build, subtask, name, states)
        data = zip_bytes(references)
        if real:
            build.wrote(os.path.join(build.out, "reference", "%s-%s.zip" % (subtask, name)), data)
            present.update(references)
        members[member] = data
    test_input = attach_public_data(build, competition, subtask, members, schedule)
    left_out = note_left_out(build, competition, subtask, present)
    context = pages.PageContext(hosted, competition, subtask, schedule, build.args.data, build.args.reference,
                                present, shared["baseline_html"].get(subtask), shared["links"], build.warn,
                                states.state(OFFICIAL_PHASE), states.reasons.get(OFFICIAL_PHASE, ""), left_out)
    for page_member, text in pages.build_pages(context).items():
        data = text.encode("utf-8")
        page_path = os.path.join(build.out, "pages", subtask, page_member)
        write_file(page_path, data)
        build.pages_written.append(page_path)
        members[page_member] = data
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        program = phase["scoring_program"]
        if program not in shared["programs"]:
            if program in extra_programs:
                shared["programs"][program] = zip_bytes(directory_members(extra_programs[program]))
            else:
                shared["programs"][program] = zip_bytes(program_members(hosted))
        members[program] = shared["programs"][program]
        if phase.get("starting_kit"):
            members[phase["starting_kit"]] = shared["starting_kit"]
    members[competition["image"]] = shared["logo"]
    members[YAML_MEMBER] = dump_yaml(competition).encode("utf-8")
    path = os.path.join(build.out, "bundles", "%s.zip" % hosted.stem(subtask))
    build.wrote(path, zip_bytes(members))
    members[YAML_MEMBER] = dump_yaml(codabench_competition(competition, schedule)).encode("utf-8")
    codabench_path = os.path.join(build.out, "bundles", "%s%s.zip" % (hosted.stem(subtask), CODABENCH_SUFFIX))
    build.wrote(codabench_path, zip_bytes(members))
    return path, codabench_path, test_input


def write_manifest(build, bundles, states):
    """``OUT/build.json``: the competition, data, test gold state, references and schedule that built the bundles,
    and the test input written apart (read by ``make check``)."""
    args = build.args
    manifest = {
        "competition": build.hosted.cid,
        "data": os.path.abspath(args.data), "reference": os.path.abspath(args.reference),
        "schedule": os.path.abspath(args.schedule), "test_reference_pending": states.state(OFFICIAL_PHASE) == "pending",
        "test_state": states.state(OFFICIAL_PHASE), "practice_reason": states.reasons.get(OFFICIAL_PHASE, ""),
        "test_gold": os.path.abspath(args.test_gold) if args.test_gold else None,
        "bundles": {"codalab": [os.path.basename(p) for p, _, _ in bundles],
                    "codabench": [os.path.basename(p) for _, p, _ in bundles]},
        "test_input": [os.path.relpath(t, args.out) for _, _, t in bundles if t],
        "lacking": build.lacking,
        "test_left_out": build.left_out,
    }
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    write_file(os.path.join(build.out, MANIFEST), text.encode("utf-8"))


def read_manifest(out):
    """The manifest of the last build in ``out`` (a dict), or None when there is none."""
    path = os.path.join(out, MANIFEST)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except ValueError as error:
            raise BundleError("%s is not valid JSON (%s): rebuild with `make`" % (path, error))


def remove_stale(build):
    """Delete reference zips, test inputs and pages of earlier builds that this build did not write."""
    written = set(os.path.abspath(path) for path, _ in build.log)
    written.update(os.path.abspath(p) for p in build.pages_written)
    folders = [os.path.join(build.out, "reference"), os.path.join(build.out, "public_data")]
    folders += [os.path.join(build.out, "pages", subtask) for subtask in build.hosted.subtasks()]
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            path = os.path.abspath(os.path.join(folder, name))
            if os.path.isfile(path) and path not in written:
                os.remove(path)
                print("removed stale %s" % path)


def parse_args(argv):
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m organiser bundle", description=__doc__.split("\n")[0])
    parser.add_argument("--competition", default=None, help="the competition's id (default: the top-level one)")
    parser.add_argument("--data", required=True, help="the release folder the references were built from")
    parser.add_argument("--reference", required=True, help="the reference folder its reference builder wrote")
    parser.add_argument("--out", required=True, help="output folder (the competition's dist/ folder)")
    parser.add_argument("--schedule", default=None, help="the schedule (default: the competition's schedule.yaml)")
    parser.add_argument("--test-gold", default=None, help="the test gold the references were built from (recorded)")
    args = parser.parse_args(argv)
    return args


def shared_inputs(build, states):
    """What every subtask's bundles share: baseline tables, logo, starting kit zip (its README says what the test
    phase of ``states`` shows), links, schedule, programs."""
    args, hosted = build.args, build.hosted
    table_md = pages.read_text(os.path.join(args.out, "baselines", "table.md"))
    if table_md is None:
        build.warn("no baseline table (%s): run `make baselines` first to include it"
                   % os.path.join(args.out, "baselines", "table.md"))
    if not os.path.isdir(hosted.starting_kit) or not os.listdir(hosted.starting_kit):
        build.warn("starting kit folder %s is missing or empty: the kit holds the scoring program only"
                   % hosted.starting_kit)
    first = hosted.subtasks()[0]   # the first declared subtask's (ST2024: all tasks)
    state = states.state(OFFICIAL_PHASE)
    test_phase = feedback.kit_readme_text(
        feedback.shown_split(states.splits.get(OFFICIAL_PHASE), state == "pending", args.schedule), state,
        states.reasons.get(OFFICIAL_PHASE, ""))
    kit = zip_bytes(starting_kit_members(
        hosted, table_md, args.reference,
        baseline_member(os.path.join(args.out, "baselines"), first, DEVELOPMENT_PHASE, hosted.cid),
        public_members(args.reference, DEVELOPMENT_PHASE, first), test_phase))
    build.wrote(os.path.join(args.out, "starting_kit.zip"), kit)
    tables = {}
    for subtask in hosted.subtasks():
        tables[subtask] = pages.read_baseline_html(args.out, subtask) or pages.markdown_html(table_md)
        if tables[subtask] is None:
            build.warn("no baseline table for the %s pages (%s): run `make baselines` first" % (
                subtask, os.path.join(args.out, "baselines", "table-%s.html" % subtask)))
    logo_hook = hosted.hook("logo_png")
    return {"baseline_html": tables, "logo": logo_hook() if logo_hook else logo.generic(hosted.cid),
            "starting_kit": kit, "links": page_links(hosted), "schedule": schedule_module.load(args.schedule),
            "programs": {}}


def build_all(args):
    """Build every subtask's bundles of ``args.competition``; return the Build."""
    hosted = declarations.Hosted(args.competition)
    args.schedule = args.schedule or hosted.schedule
    build = Build(args, hosted)
    if not os.path.isfile(os.path.join(hosted.program, "metadata")):
        raise BundleError("no scoring program at %s (its `metadata` file is missing)" % hosted.program)
    source = load_competition(hosted.source)
    states = PhaseStates(args.reference, hosted)
    if states.state(OFFICIAL_PHASE) == "pending":
        loud("NO TEST GOLD: %s/test does not exist, so the TEST PHASE of the bundles has a PLACEHOLDER\n"
             "REFERENCE: its dates and settings are final, but nothing can be scored in it until you upload\n"
             "the test reference zip (`make%s TEST_GOLD=<test gold>`, then docs/organisers.md,\n"
             "'Adding the test gold') before the test phase opens." % (
                 args.reference, "" if hosted.top_level else " COMPETITION=%s DATA=..." % hosted.cid))
    elif states.state(OFFICIAL_PHASE) == "practice":
        loud("PUBLIC TEST GOLD: the test gold of %s is public (%s),\nso the test phase is built as a PRACTICE "
             "phase, labelled so on the platform and the pages:\nits leaderboard is no official result. Build the "
             "real test phase from gold that participants\ncannot see: `make COMPETITION=%s DATA=... "
             "TEST_GOLD=<hidden test gold>`." % (args.reference, states.reasons[OFFICIAL_PHASE], hosted.cid))
    shared = shared_inputs(build, states)
    bundles = [build_subtask(build, source, subtask, states, shared) for subtask in hosted.subtasks()]
    write_manifest(build, bundles, states)
    from organiser import procedure
    build.wrote(os.path.join(args.out, "ORGANISERS.md"),
                procedure.build_copy(hosted, read_manifest(args.out)).encode("utf-8"))
    remove_stale(build)
    return build, bundles


def build(cid, reference, out, data=None, schedule=None, test_gold=None):
    """Build the bundles of competition ``cid`` from ``reference`` into ``out`` (what ``main`` does, for Python
    callers); return the phase labels of its first subtask's CodaLab bundle."""
    args = argparse.Namespace(competition=cid, data=data or reference, reference=reference, out=out,
                              schedule=schedule, test_gold=test_gold)
    _, bundles = build_all(args)
    with zipfile.ZipFile(bundles[0][0]) as archive:
        competition = yaml.safe_load(archive.read(YAML_MEMBER).decode("utf-8"))
    return [competition["phases"][n]["label"] for n in sorted(competition["phases"])]


def main(argv=None):
    """Build the bundles; return 0, or 1 with a message when something required is missing."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        build, bundles = build_all(args)
    except (BundleError, DataError, OSError, yaml.YAMLError) as error:
        print("bundle: %s" % error, file=sys.stderr)
        return 1
    for path, size in build.log:
        print("%10.1f KiB  %s" % (size / 1024.0, path))
    print("bundles: %s (%d warning(s))" % (", ".join(p for b in bundles for p in b[:2]), len(build.warnings)))
    print("upload %s on CodaLab and the -codabench twin on Codabench (docs/organisers.md)"
          % " and ".join(os.path.basename(b[0]) for b in bundles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
