"""Competition bundles: CodaLab v1.5 (for CodaLab Competitions) and native Codabench v2, per subtask.

``python -m organiser bundle --data DIR --reference reference_data --out dist [--schedule schedule.yaml]`` writes:

- ``dist/bundles/<id>-<subtask>.zip`` (v1.5: upload on CodaLab) and ``dist/bundles/<id>-<subtask>-codabench.zip``
  (``version: 2``: upload on Codabench), for each subtask of the declaration, with the same members;
- ``dist/reference/<subtask>-<phase>.zip`` (the reference data of each phase, ``phase`` = ``dev`` | ``test``
  | an extra phase's name), also nested in the bundles; without test gold the test phase nests a placeholder instead
  (``TEST_REFERENCE_PENDING.txt``) and ``dist/reference/<subtask>-test.zip`` is built later (docs/organisers.md);
- ``dist/public_data/<subtask>-test.zip`` (the release's unannotated test input, the test phase's public data);
- ``dist/starting_kit.zip`` (``starting_kit/`` + the scoring program, with the baseline table in its README);
- ``dist/pages/<subtask>/*.html`` (the pages nested in each bundle);
- ``dist/build.json`` (the data, references and schedule of this build: what ``make check`` checks).

The top-level ``competition.yaml`` is the source of the first subtask's bundle; the others are derived from it
(their own title, tasks and languages from the declaration's ``SUBTASKS``; description, phase labels and extra
phases from the competition's ``subtasks.yaml``, see ``organiser.declarations.wording``).
Every date comes from ``schedule.yaml`` (``organiser.schedule``). The leaderboard columns are generated from
``evalkit.keys.leaderboard_columns`` and the declaration's ``SUBTASKS``, the same declaration the scorer uses. Zips are
deterministic (fixed timestamps and permissions, sorted members, ``competition.yaml`` first), so rebuilding
from the same inputs gives identical bytes.
"""
import argparse
import copy
import io
import json
import os
import re
import sys
import zipfile

import yaml

from organiser import ROOT, SCORING_PROGRAM, declarations, logo, pages, release
from organiser import schedule as schedule_module
from evalkit import keys
from evalkit.messages import DataError

#: The declaration of the competition this builder is for (the top-level one; see organiser.declarations).
DECLARATION = declarations.load()
PREFIX = DECLARATION.COMPETITION_ID

COMPETITION_YAML = os.path.join(ROOT, "competition.yaml")
STARTING_KIT = os.path.join(ROOT, "starting_kit")
YAML_MEMBER = "competition.yaml"
LOGO_MEMBER = "logo.png"
STARTING_KIT_MEMBER = "starting_kit.zip"
#: Phase reference members are named ``reference_data_<phase>.zip``, <phase> a folder of reference_data/.
REFERENCE_MEMBER = re.compile(r"^reference_data_([a-z0-9]+)\.zip$")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
SKIPPED_NAMES = frozenset(("__pycache__", ".pytest_cache", ".mypy_cache", ".DS_Store", ".git"))
SKIPPED_SUFFIXES = (".pyc", ".pyo", "~")
STORED_SUFFIXES = (".zip", ".png", ".gz", ".bin")
BASELINE_MARKER = "<!-- BASELINE_TABLE -->"
#: The phase whose leaderboard is the official result (hidden on CodaLab while it runs).
OFFICIAL_PHASE = "test"
#: Stands in for the test reference data while the test gold is not available (see docs/organisers.md).
PENDING_REFERENCE_FILE = "TEST_REFERENCE_PENDING.txt"
PENDING_REFERENCE_TEXT = (
    "The test reference data of this phase has not been uploaded yet: submissions to this phase cannot be\n"
    "scored until the organisers replace this reference data with the test reference zip built by `make`\n"
    "(see docs/organisers.md, 'Adding the test phase later').\n")
PUBLIC_DATA_MEMBER = "public_data_test.zip"
CODABENCH_SUFFIX = "-codabench"
CODABENCH_IMAGE_KEY = "docker_image"
MANIFEST = "build.json"

class BundleError(Exception):
    """A problem that stops the build, with a message for the organisers."""


# --------------------------------------------------------------------------- declarations

def subtask_pairs(subtask):
    """The (task, lang) pairs ``subtask`` scores (its tasks x languages, filtered by task.languages)."""
    return pages.subtask_pairs(subtask)


def subtask_languages(subtask):
    """The languages of ``subtask``, in declared order."""
    return list(DECLARATION.SUBTASKS[subtask]["languages"])


def leaderboard_columns(subtask):
    """``[(key, label), ...]`` of the leaderboard of ``subtask``, from the scorer's own key module."""
    return keys.leaderboard_columns(DECLARATION.TASKS, subtask_languages(subtask), subtask_pairs(subtask))


def build_leaderboard(source, subtask):
    """The ``leaderboard`` section: the source's single leaderboard and the generated columns.

    Every column refers to the leaderboard mapping itself (a YAML anchor once dumped): both platforms
    match a column to its leaderboard by the ``label`` of that mapping.
    """
    boards = (source or {}).get("leaderboards") or {}
    if len(boards) != 1:
        raise BundleError("competition.yaml: leaderboard.leaderboards must declare exactly one leaderboard")
    (board_key, board), = boards.items()
    board = {"label": board["label"], "rank": board.get("rank", 1)}
    columns = {}
    for rank, (key, label) in enumerate(leaderboard_columns(subtask), 1):
        columns[key] = {"leaderboard": board, "label": label, "numeric_format": 4,
                        "rank": rank, "sort": "desc"}
    return {"leaderboards": {board_key: board}, "columns": columns}


def load_competition(path=COMPETITION_YAML):
    """Read the source ``competition.yaml``."""
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    if not isinstance(data, dict) or not isinstance(data.get("phases"), dict):
        raise BundleError("%s: expected a mapping with a `phases` mapping" % path)
    return data


def phase_reference(phase):
    """The reference_data/ folder a phase scores against (``dev`` for ``reference_data_dev.zip``)."""
    match = REFERENCE_MEMBER.match(str(phase.get("reference_data", "")))
    if not match:
        raise BundleError("phase %r: reference_data must be named reference_data_<phase>.zip, got %r"
                          % (phase.get("label"), phase.get("reference_data")))
    return match.group(1)


def derive_competition(source, subtask, available_phases, schedule=None):
    """The CodaLab v1.5 competition of ``subtask`` from the source and the schedule.

    ``available_phases`` is the set of reference_data/ folders that exist (e.g. {"dev"}): a phase without
    reference data is dropped, except the test phase, which is kept with a placeholder reference (see
    :func:`pending_reference_members`) so that every phase and date exists from the first upload. The
    subtask gets its own title, and the description, labels and extra phases its wording declares. Dates come from
    ``schedule`` (default: schedule.yaml): each phase starts when it opens, the competition ends when the
    last phase closes (CodaLab ends a phase when the next starts); the last submission of each team is
    forced onto the leaderboard and the test phase's leaderboard is hidden while it runs.
    """
    schedule = schedule if schedule is not None else schedule_module.load()
    phases = []
    for number in sorted(source["phases"]):
        phase = copy.deepcopy(source["phases"][number])
        if phase_reference(phase) in available_phases or phase_reference(phase) == OFFICIAL_PHASE:
            phases.append(phase)
    if not any(phase_reference(p) in available_phases for p in phases):
        raise BundleError("no phase has reference data (looked for %s)" % ", ".join(
            "reference_data/%s" % phase_reference(p) for p in source["phases"].values()))
    phases.extend(dict(extra["phase"]) for extra in declarations.extra_phases(subtask))
    names = [phase_reference(phase) for phase in phases]
    starts, end_date = schedule_module.codalab_dates(schedule, names)
    competition = {}
    for key, value in source.items():
        if key in ("end_date", "force_submission_to_leaderboard"):
            continue
        competition[key] = copy.deepcopy(value)
        if key == "has_registration":
            competition["end_date"] = end_date
            competition["force_submission_to_leaderboard"] = True
    first = next(iter(DECLARATION.SUBTASKS))
    competition["title"] = source["title"] if subtask == first else DECLARATION.SUBTASKS[subtask]["title"]
    wording = declarations.subtask_wording(subtask)
    if wording.get("description"):
        competition["description"] = wording["description"]
    competition["phases"] = {}
    for index, phase in enumerate(phases):
        competition["phases"][index + 1] = _dated_phase(phase, index + 1, names[index], starts[index], subtask,
                                                        schedule)
    competition["leaderboard"] = build_leaderboard(source.get("leaderboard"), subtask)
    return competition


def _dated_phase(phase, number, name, start, subtask, schedule):
    """One phase with its number, label, start date, description dates and leaderboard mode."""
    window = schedule.window(name)
    ordered = {"phasenumber": number}
    ordered.update((key, value) for key, value in phase.items() if key not in ("phasenumber", "start_date"))
    labels = declarations.subtask_wording(subtask).get("phase_labels") or {}
    ordered["label"] = labels.get(name, phase.get("label"))
    ordered["start_date"] = start
    if ordered.get("description"):
        ordered["description"] = " ".join(ordered["description"].split()).replace(
            "{opens}", schedule_module.human(window.opens)).replace("{closes}", schedule_module.human(window.closes))
    if name == OFFICIAL_PHASE:
        ordered["leaderboard_management_mode"] = "hide_results"
    return ordered


PAGE_TITLES = {"overview": "Overview", "evaluation": "Evaluation", "data": "Data", "timeline": "Timeline",
               "terms": "Terms and conditions"}


def codabench_competition(competition, schedule=None):
    """The native Codabench (``version: 2``) competition equivalent to a v1.5 ``competition``.

    Same pages, programs, references, limits and columns, plus what v1.5 cannot say on Codabench: each
    phase's own end (:func:`schedule.codabench_dates`), the leaderboard rule ``Force_Last`` (each team's
    last submission is its entry), detailed results not shown on the leaderboard (participants still see
    their own in the submission panel) and submissions that participants cannot make public.
    """
    schedule = schedule if schedule is not None else schedule_module.load()
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


def reference_members(phase_dir, subtask, baselines_dir=None):
    """The reference files of ``subtask`` in ``phase_dir``: ``({"<task>/<lang>.json": bytes}, missing)``.

    Only the subtask's (task, lang) pairs are taken (what the scorer scores is exactly the files
    present); ``missing`` lists the declared pairs without a file. Two optional files the scorer
    does not score ride along: ``other_split.json`` (recognises predictions for the other split) and,
    from ``baselines_dir`` (``make baselines``), ``baseline_scores.json`` (the baseline's scores on
    this phase, shown beside the participant's in ``detailed_results.html``).
    """
    members, missing = {}, []
    for task, lang in subtask_pairs(subtask):
        name = "%s/%s.json" % (task.folder, lang)
        path = os.path.join(phase_dir, task.folder, lang + ".json")
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                members[name] = handle.read()
        else:
            missing.append(name)
    if os.path.isfile(os.path.join(phase_dir, "other_split.json")):
        with open(os.path.join(phase_dir, "other_split.json"), "rb") as handle:
            members["other_split.json"] = handle.read()
    members.update(baseline_member(baselines_dir, subtask, os.path.basename(os.path.normpath(phase_dir))))
    return members, missing


def baseline_member(baselines_dir, subtask, phase):
    """``{"baseline_scores.json": bytes}``: the baseline's scores of ``subtask`` on ``phase`` (from
    ``make baselines``), shown beside a participant's in ``detailed_results.html``; empty when absent."""
    split = declarations.wording()["phase_splits"].get(phase)
    scores = os.path.join(baselines_dir or "", "scores-baseline-%s-%s.json" % (subtask, split))
    if not (baselines_dir and split and os.path.isfile(scores)):
        return {}
    with open(scores, encoding="utf-8") as handle:
        found = json.load(handle).get("scores", {})
    return {"baseline_scores.json": json.dumps(
        {"label": "baseline", "system": "baseline", "scores": found}, indent=1).encode("utf-8")}


def coverage_reference_members(subtask, file_name):
    """The generated reference of an extra phase (``file_name``): the languages to cover and the columns."""
    payload = {
        "subtask": subtask,
        "languages": [{"code": lang, "name": DECLARATION.LANGUAGES[lang][0]} for lang in subtask_languages(subtask)],
        "columns": [key for key, _ in leaderboard_columns(subtask)],
        "language_columns": {lang: keys.language_key(lang) for lang in subtask_languages(subtask)},
    }
    text = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return {file_name: text.encode("utf-8")}


def pending_reference_members():
    """The placeholder reference of a test phase built without test gold (scoring it fails with a message)."""
    return {PENDING_REFERENCE_FILE: PENDING_REFERENCE_TEXT.encode("utf-8")}


def is_pending_reference(names):
    """Whether a reference zip's member names are the placeholder of :func:`pending_reference_members`."""
    return list(names) == [PENDING_REFERENCE_FILE]


def release_kind(task):
    """The release folder holding the input of ``task`` (``morphology`` for the CoNLL-U tasks)."""
    return task.folder if task.kind == "fill_mask" else "morphology"


def public_test_members(data_dir, subtask):
    """The public test input of ``subtask`` in the release layout: ``({name: bytes}, problems)``.

    Only unannotated files are taken (CoNLL-U without lemma, UPOS or features; TSV without a ``src``
    column); a file carrying gold is left out and named in ``problems`` (it must never be published).
    The fill-mask JSON files are not taken (they name the masked tokens).
    """
    members, problems, seen = {}, [], set()
    for task, lang in subtask_pairs(subtask):
        kind = release_kind(task)
        path = release.find(data_dir, kind, "test", lang)
        if path is None or path in seen:
            continue
        seen.add(path)
        if kind == "morphology":
            blank = release.is_blank_conllu(release.read_conllu(path))
        else:
            blank = all(src is None for _, src in release.read_tsv(path))
        if not blank:
            problems.append("%s carries gold annotations: left out of the public test data" % path)
            continue
        with open(path, "rb") as handle:
            members["%s/test/%s" % (kind, os.path.basename(path))] = handle.read()
    return members, problems


def readme_with_table(readme, table_md):
    """The starting kit README with the baseline table at ``<!-- BASELINE_TABLE -->`` (or appended)."""
    if BASELINE_MARKER in readme:
        return readme.replace(BASELINE_MARKER, table_md.strip() + "\n")
    return readme.rstrip("\n") + "\n\n## Baseline scores\n\n" + table_md.strip() + "\n"


def starting_kit_members(kit_dir, program_dir, table_md=None, top=PREFIX + "-starting-kit/", reference_dir=None,
                         baseline=None):
    """The starting kit zip: ``starting_kit/``, the scoring program under ``scoring_program/`` and,
    from ``reference_dir``, the development references under ``reference_data/dev/`` (the valid
    split's gold is public) with ``baseline`` (:func:`baseline_member`, so local reports show the baseline
    too) and every phase's ``excluded.json`` as ``excluded/<phase>.json`` (read by the validator). Test
    references are never included."""
    members = directory_members(kit_dir, top) if os.path.isdir(kit_dir) else {}
    members.update(directory_members(program_dir, top + "scoring_program/"))
    if reference_dir and os.path.isdir(os.path.join(reference_dir, "dev")):
        dev = directory_members(os.path.join(reference_dir, "dev"), top + "reference_data/dev/")
        members.update((name, data) for name, data in dev.items() if not name.endswith("/excluded.json"))
        members.update((top + "reference_data/dev/" + name, data) for name, data in (baseline or {}).items())
    for phase in ("dev", "test"):
        excluded = os.path.join(reference_dir or "", phase, "excluded.json")
        if reference_dir and os.path.isfile(excluded):
            with open(excluded, "rb") as handle:
                members[top + "excluded/%s.json" % phase] = handle.read()
    readme = top + "README.md"
    if table_md and readme in members:
        members[readme] = readme_with_table(members[readme].decode("utf-8"), table_md).encode("utf-8")
    return members


# --------------------------------------------------------------------------- build

class Build(object):
    """Inputs and outputs of one ``bundle`` run; ``log`` collects what is printed at the end."""

    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.log = []
        self.pages_written = []
        self.warnings = []

    def warn(self, text):
        """Record and print a warning at once."""
        self.warnings.append(text)
        print("WARNING: " + text, file=sys.stderr)

    def wrote(self, path, data):
        """Write ``data`` to ``path`` and remember its size for the summary."""
        write_file(path, data)
        self.log.append((path, len(data)))


def available_phases(reference_dir):
    """The reference_data/ phase folders that exist and hold at least one JSON file."""
    found = set()
    if os.path.isdir(reference_dir):
        for name in os.listdir(reference_dir):
            path = os.path.join(reference_dir, name)
            if os.path.isdir(path) and any(f.endswith(".json") for _, _, fs in os.walk(path) for f in fs):
                found.add(name)
    return found


def loud(text):
    """Print ``text`` framed so it cannot be missed."""
    bar = "!" * 78
    print("\n".join(["", bar, text, bar, ""]), file=sys.stderr)


def phase_reference_bytes(build, subtask, name, phases_found):
    """The reference zip of phase ``name`` and whether it is real (False: the test placeholder)."""
    extra = dict((phase["name"], phase) for phase in declarations.extra_phases(subtask))
    if name in extra:
        return zip_bytes(coverage_reference_members(subtask, extra[name]["reference_file"])), True
    if name not in phases_found:
        return zip_bytes(pending_reference_members()), False
    refs, missing = reference_members(os.path.join(build.args.reference, name), subtask,
                                      os.path.join(build.out, "baselines"))
    if missing:
        build.warn("%s %s: %d declared reference file(s) missing, their leaderboard columns will stay "
                   "empty: %s" % (subtask, name, len(missing), ", ".join(missing)))
    if not refs:
        raise BundleError("%s %s: no reference file found under %s"
                          % (subtask, name, os.path.join(build.args.reference, name)))
    return zip_bytes(refs), True


def attach_public_data(build, competition, subtask, members):
    """Attach the release's public test input to the test phase (``public_data``) and write it to dist/."""
    found, problems = public_test_members(build.args.data, subtask)
    for problem in problems:
        build.warn(problem)
    if not found:
        build.warn("%s: no public test input in %s: the test phase has no public data (attach it later, see "
                   "docs/organisers.md)" % (subtask, build.args.data))
        return
    data = zip_bytes(found)
    build.wrote(os.path.join(build.out, "public_data", "%s-test.zip" % subtask), data)
    for phase in competition["phases"].values():
        if phase_reference(phase) == OFFICIAL_PHASE:
            phase["public_data"] = PUBLIC_DATA_MEMBER
            members[PUBLIC_DATA_MEMBER] = data


def build_subtask(build, source, subtask, phases_found, shared):
    """Build the reference zips, pages and both bundles of one subtask; return their paths.

    ``(CodaLab v1.5 bundle, native Codabench bundle)``: the same members, each with its own
    competition.yaml.
    """
    competition = derive_competition(source, subtask, phases_found, shared["schedule"])
    extra_programs = dict((extra["phase"]["scoring_program"], os.path.join(build.args.programs, extra["program"]))
                          for extra in declarations.extra_phases(subtask))
    members = {}
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        member = phase["reference_data"]
        if member in members:
            continue
        name = phase_reference(phase)
        data, real = phase_reference_bytes(build, subtask, name, phases_found)
        if real:
            build.wrote(os.path.join(build.out, "reference", "%s-%s.zip" % (subtask, name)), data)
        members[member] = data
    attach_public_data(build, competition, subtask, members)
    for page_member, text in pages.build_pages(competition, subtask, shared["sizes"], shared["baseline_html"][subtask],
                                               shared["schedule"], shared["bibliography"], shared["links"]).items():
        data = text.encode("utf-8")
        page_path = os.path.join(build.out, "pages", subtask, page_member)
        write_file(page_path, data)
        build.pages_written.append(page_path)
        members[page_member] = data
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        program = phase["scoring_program"]
        if program not in shared:
            folder = extra_programs.get(program, build.args.scoring_program)
            shared[program] = zip_bytes(directory_members(folder))
        members[program] = shared[program]
        if phase.get("starting_kit"):
            members[phase["starting_kit"]] = shared["starting_kit"]
    members[competition["image"]] = shared["logo"]
    members[YAML_MEMBER] = dump_yaml(competition).encode("utf-8")
    path = os.path.join(build.out, "bundles", "%s-%s.zip" % (PREFIX, subtask))
    build.wrote(path, zip_bytes(members))
    members[YAML_MEMBER] = dump_yaml(codabench_competition(competition, shared["schedule"])).encode("utf-8")
    codabench_path = os.path.join(build.out, "bundles", "%s-%s%s.zip" % (PREFIX, subtask, CODABENCH_SUFFIX))
    build.wrote(codabench_path, zip_bytes(members))
    return path, codabench_path


def write_manifest(build, bundles, pending):
    """``dist/build.json``: which data, test gold, references and schedule built the bundles (read by check)."""
    args = build.args
    manifest = {
        "data": os.path.abspath(args.data), "reference": os.path.abspath(args.reference),
        "schedule": os.path.abspath(args.schedule), "test_reference_pending": pending,
        "bundles": {"codalab": [os.path.basename(p) for p, _ in bundles],
                    "codabench": [os.path.basename(p) for _, p in bundles]},
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
    """Delete reference zips and pages of earlier builds that this build did not write (e.g. a test phase)."""
    written = set(os.path.abspath(path) for path, _ in build.log)
    folders = [os.path.join(build.out, "reference"), os.path.join(build.out, "public_data")]
    folders += [os.path.join(build.out, "pages", subtask) for subtask in DECLARATION.SUBTASKS]
    pages_written = set(os.path.abspath(p) for p in build.pages_written)
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            path = os.path.abspath(os.path.join(folder, name))
            if os.path.isfile(path) and path not in written and path not in pages_written:
                os.remove(path)
                print("removed stale %s" % path)


def parse_args(argv):
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m organiser bundle", description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="release-layout data folder (for the page sizes)")
    parser.add_argument("--reference", default="reference_data", help="reference_data/ built by `make reference`")
    parser.add_argument("--out", default="dist", help="output folder (default: dist)")
    parser.add_argument("--competition", default=COMPETITION_YAML, help="source competition.yaml")
    parser.add_argument("--schedule", default=schedule_module.SCHEDULE_YAML, help="the schedule (schedule.yaml)")
    parser.add_argument("--scoring-program", default=SCORING_PROGRAM)
    parser.add_argument("--programs", default=declarations.folder(),
                        help="the folder holding the scoring programs of extra phases (default: the declaration's)")
    parser.add_argument("--starting-kit", default=STARTING_KIT)
    return parser.parse_args(argv)


def shared_inputs(build):
    """What both bundles share: page sizes, baseline table, logo, starting kit zip."""
    args = build.args
    table_md_path = os.path.join(args.out, "baselines", "table.md")
    table_md = None
    if os.path.isfile(table_md_path):
        with open(table_md_path, encoding="utf-8") as handle:
            table_md = handle.read()
    else:
        build.warn("no baseline table (%s): run `make baselines` first to include it" % table_md_path)
    if not os.path.isdir(args.starting_kit) or not os.listdir(args.starting_kit):
        build.warn("starting kit folder %s is missing or empty: the kit holds the scoring program only"
                   % args.starting_kit)
    full = next(iter(DECLARATION.SUBTASKS))   # the baseline of the first declared subtask (ST2024: all tasks)
    kit = zip_bytes(starting_kit_members(args.starting_kit, args.scoring_program, table_md,
                                         reference_dir=args.reference,
                                         baseline=baseline_member(os.path.join(args.out, "baselines"), full, "dev")))
    build.wrote(os.path.join(args.out, "starting_kit.zip"), kit)
    if not os.path.isdir(args.data):
        build.warn("data folder %s not found: the overview's size table will be empty" % args.data)
    return dict(page_inputs(build), logo=logo.png_bytes(), starting_kit=kit,
                schedule=schedule_module.load(args.schedule))


def page_inputs(build):
    """What the pages are built from besides the competition: sizes, baseline tables, BibTeX, links;
    what is missing is said to the organiser (never on the pages)."""
    args = build.args
    sizes = pages.count_sizes(args.data)
    missing = pages.missing_files(list(DECLARATION.LANGUAGES), sizes)
    if missing and os.path.isdir(args.data):
        build.warn("no file in %s for %s: the size table shows a dash there" % (args.data, ", ".join(missing)))
    tables = dict((subtask, pages.read_baseline_html(args.out, subtask)) for subtask in DECLARATION.SUBTASKS)
    for subtask, table in sorted(tables.items()):
        if table is None:
            build.warn("no baseline table for the %s pages (%s): run `make baselines` first" % (
                subtask, os.path.join(args.out, "baselines", "table-%s.html" % subtask)))
    bibliography = pages.read_bibliography(args.data)
    if bibliography is None:
        build.warn("no %s in %s: the Data page links the citation file instead of showing it"
                   % (pages.BIBLIOGRAPHY, args.data))
    try:
        links = pages.load_links()
    except DataError as error:
        raise BundleError(str(error))
    return {"sizes": sizes, "baseline_html": tables, "bibliography": bibliography, "links": links}


def main(argv=None):
    """Build both bundles; return 0, or 1 with a message when something required is missing."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    build = Build(args)
    try:
        if not os.path.isfile(os.path.join(args.scoring_program, "metadata")):
            raise BundleError("no scoring program at %s (its `metadata` file is missing)" % args.scoring_program)
        source = load_competition(args.competition)
        phases_found = available_phases(args.reference)
        wanted = [phase_reference(p) for p in source["phases"].values()]
        pending = "test" in wanted and "test" not in phases_found
        if pending:
            loud("NO TEST GOLD: %s/test does not exist, so the TEST PHASE of the bundles has a PLACEHOLDER\n"
                 "REFERENCE: its dates and settings are final, but nothing can be scored in it until you upload\n"
                 "the test reference zip (`make reference TEST_GOLD=<test gold>` then `make`, and follow\n"
                 "docs/organisers.md, 'Adding the test phase later') before the test phase opens." % args.reference)
        shared = shared_inputs(build)
        bundles = [build_subtask(build, source, subtask, phases_found, shared) for subtask in DECLARATION.SUBTASKS]
        write_manifest(build, bundles, pending)
    except (BundleError, DataError, OSError, yaml.YAMLError) as error:
        print("bundle: %s" % error, file=sys.stderr)
        return 1
    remove_stale(build)
    for path, size in build.log:
        print("%10.1f KiB  %s" % (size / 1024.0, path))
    print("bundles: %s (%d warning(s))" % (", ".join(p for pair in bundles for p in pair), len(build.warnings)))
    print("upload %s-<subtask>.zip on CodaLab and %s-<subtask>%s.zip on Codabench "
          "(docs/organisers.md)" % (PREFIX, PREFIX, CODABENCH_SUFFIX))
    return 0


if __name__ == "__main__":
    sys.exit(main())
