"""Competition bundles (CodaLab v1.5 format, accepted by CodaLab Competitions and Codabench).

``python -m organiser bundle --data DIR --reference reference_data --out dist`` writes:

- ``dist/bundles/st2024-unconstrained.zip`` and ``dist/bundles/st2024-constrained.zip``;
- ``dist/reference/<subtask>-<phase>.zip`` (the reference data of each phase, ``phase`` = ``dev`` | ``test``
  | ``embeddings``), also nested in the bundles;
- ``dist/starting_kit.zip`` (``starting_kit/`` + the scoring program, with the baseline table in its README);
- ``dist/pages/<subtask>/*.html`` (the pages nested in each bundle).

The top-level ``competition.yaml`` is the source of the unconstrained bundle; the constrained one is derived
from it (its own title and description, its tasks and languages, plus "Phase 2: embeddings"). The
leaderboard columns are generated from ``evalkit.keys.leaderboard_columns`` and ``st2024.SUBTASKS``, the
same declaration the scorer uses. Zips are deterministic (fixed timestamps and permissions, sorted members,
``competition.yaml`` first), so rebuilding from the same inputs gives identical bytes.
"""
import argparse
import copy
import datetime
import io
import json
import os
import re
import sys
import zipfile

import yaml

from organiser import ROOT, SCORING_PROGRAM, logo, pages
import st2024
from evalkit import keys
from evalkit.messages import DataError

COMPETITION_YAML = os.path.join(ROOT, "competition.yaml")
EMBEDDINGS_PROGRAM = os.path.join(ROOT, "embeddings_scoring_program")
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
SPLIT_OF_PHASE = {"dev": "valid", "test": "test"}

#: The constrained subtask's extra phase (the 2024 "Phase 2": the embeddings behind a system).
EMBEDDINGS_PHASE = {
    "label": "Phase 2: embeddings",
    "description": (
        "Phase 2 of the constrained subtask: upload the embeddings your system was built on, as a zip with an "
        "embeddings/ folder (load_embeddings.py defining load_model, requirements.txt, a non-empty "
        "metadata.txt and one .bin file per language, named by its code, e.g. chu.bin). Only the layout is "
        "checked: the score is the share of languages covered. See the Evaluation page."),
    "color": "orange",
    "start_date": datetime.date(2024, 1, 16),
    "max_submissions": 10,
    "max_submissions_per_day": 5,
    "execution_time_limit": 300,
    "is_scoring_only": True,
    "scoring_program": "embeddings_scoring_program.zip",
    "reference_data": "reference_data_embeddings.zip",
    "starting_kit": STARTING_KIT_MEMBER,
}
EMBEDDINGS_REFERENCE_FILE = "embeddings.json"

DESCRIPTIONS = {
    "constrained": (
        "SIGTYP 2024 shared task on word embedding evaluation for ancient and historical languages: POS "
        "tagging, full morphological annotation and lemmatisation. Constrained subtask: only the training "
        "data provided may be used; Phase 2 collects the embeddings behind each system."),
}


class BundleError(Exception):
    """A problem that stops the build, with a message for the organisers."""


# --------------------------------------------------------------------------- declarations

def subtask_pairs(subtask):
    """The (task, lang) pairs ``subtask`` scores (its tasks x languages, filtered by task.languages)."""
    return pages.subtask_pairs(subtask)


def subtask_languages(subtask):
    """The languages of ``subtask``, in declared order."""
    return list(st2024.SUBTASKS[subtask]["languages"])


def leaderboard_columns(subtask):
    """``[(key, label), ...]`` of the leaderboard of ``subtask``, from the scorer's own key module."""
    return keys.leaderboard_columns(st2024.TASKS, subtask_languages(subtask), subtask_pairs(subtask))


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


def derive_competition(source, subtask, available_phases):
    """The competition of ``subtask`` from the source, keeping only phases whose reference exists.

    ``available_phases`` is the set of reference_data/ folders that exist (e.g. {"dev"}). The
    constrained subtask gets its own title and description and the embeddings phase.
    """
    competition = copy.deepcopy(source)
    competition["title"] = source["title"] if subtask == "unconstrained" else st2024.SUBTASKS[subtask]["title"]
    if subtask in DESCRIPTIONS:
        competition["description"] = DESCRIPTIONS[subtask]
    phases = []
    for number in sorted(source["phases"]):
        phase = copy.deepcopy(source["phases"][number])
        if phase_reference(phase) in available_phases:
            phases.append(phase)
    if not phases:
        raise BundleError("no phase has reference data (looked for %s)" % ", ".join(
            "reference_data/%s" % phase_reference(p) for p in source["phases"].values()))
    if subtask == "constrained":
        last_start = max(_as_date(p["start_date"]) for p in phases)
        if _as_date(EMBEDDINGS_PHASE["start_date"]) <= last_start:
            raise BundleError("the embeddings phase must start after the last phase (%s): edit "
                              "EMBEDDINGS_PHASE in organiser/bundle.py" % last_start)
        phases.append(dict(EMBEDDINGS_PHASE))
    competition["phases"] = {}
    for number, phase in enumerate(phases, 1):
        phase["phasenumber"] = number
        ordered = {"phasenumber": number}
        ordered.update((key, value) for key, value in phase.items() if key != "phasenumber")
        competition["phases"][number] = ordered
    competition["leaderboard"] = build_leaderboard(source.get("leaderboard"), subtask)
    return competition


def _as_date(value):
    """A date from a YAML date, datetime or ``"YYYY-MM-DD HH:MM:SS"`` string."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    return datetime.datetime.strptime(str(value)[:10], "%Y-%m-%d").date()


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
    split = {"dev": "valid", "test": "test"}.get(os.path.basename(os.path.normpath(phase_dir)))
    scores = os.path.join(baselines_dir or "", "scores-baseline-%s-%s.json" % (subtask, split))
    if baselines_dir and split and os.path.isfile(scores):
        with open(scores, encoding="utf-8") as handle:
            found = json.load(handle).get("scores", {})
        members["baseline_scores.json"] = json.dumps(
            {"label": "baseline", "system": "baseline", "scores": found}, indent=1).encode("utf-8")
    return members, missing


def embeddings_reference_members(subtask):
    """The reference data of the embeddings phase: the languages to cover and the columns to write."""
    payload = {
        "subtask": subtask,
        "languages": [{"code": lang, "name": st2024.LANGUAGES[lang][0]} for lang in subtask_languages(subtask)],
        "columns": [key for key, _ in leaderboard_columns(subtask)],
        "language_columns": {lang: keys.language_key(lang) for lang in subtask_languages(subtask)},
    }
    text = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return {EMBEDDINGS_REFERENCE_FILE: text.encode("utf-8")}


def readme_with_table(readme, table_md):
    """The starting kit README with the baseline table at ``<!-- BASELINE_TABLE -->`` (or appended)."""
    if BASELINE_MARKER in readme:
        return readme.replace(BASELINE_MARKER, table_md.strip() + "\n")
    return readme.rstrip("\n") + "\n\n## Baseline scores\n\n" + table_md.strip() + "\n"


def starting_kit_members(kit_dir, program_dir, table_md=None, top="st2024-starting-kit/", reference_dir=None):
    """The starting kit zip: ``starting_kit/``, the scoring program under ``scoring_program/`` and,
    from ``reference_dir``, the development references under ``reference_data/dev/`` (the valid
    split's gold is public) and every phase's ``excluded.json`` as ``excluded/<phase>.json`` (read by
    the validator). Test references are never included."""
    members = directory_members(kit_dir, top) if os.path.isdir(kit_dir) else {}
    members.update(directory_members(program_dir, top + "scoring_program/"))
    if reference_dir and os.path.isdir(os.path.join(reference_dir, "dev")):
        dev = directory_members(os.path.join(reference_dir, "dev"), top + "reference_data/dev/")
        members.update((name, data) for name, data in dev.items() if not name.endswith("/excluded.json"))
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


def build_subtask(build, source, subtask, phases_found, shared):
    """Build the reference zips, pages and bundle of one subtask; return the bundle path."""
    competition = derive_competition(source, subtask, phases_found)
    members = {}
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        member = phase["reference_data"]
        if member in members:
            continue
        name = phase_reference(phase)
        if name == "embeddings":
            data = zip_bytes(embeddings_reference_members(subtask))
        else:
            refs, missing = reference_members(os.path.join(build.args.reference, name), subtask,
                                              os.path.join(build.out, "baselines"))
            if missing:
                build.warn("%s %s: %d declared reference file(s) missing, their leaderboard columns will stay "
                           "empty: %s" % (subtask, name, len(missing), ", ".join(missing)))
            if not refs:
                raise BundleError("%s %s: no reference file found under %s"
                                  % (subtask, name, os.path.join(build.args.reference, name)))
            data = zip_bytes(refs)
        build.wrote(os.path.join(build.out, "reference", "%s-%s.zip" % (subtask, name)), data)
        members[member] = data
    for page_member, text in pages.build_pages(competition, subtask, shared["sizes"],
                                               shared["baseline_html"][subtask], shared["bibliography"],
                                               shared["links"]).items():
        data = text.encode("utf-8")
        page_path = os.path.join(build.out, "pages", subtask, page_member)
        write_file(page_path, data)
        build.pages_written.append(page_path)
        members[page_member] = data
    for number in sorted(competition["phases"]):
        phase = competition["phases"][number]
        program = phase["scoring_program"]
        if program not in shared:
            folder = (build.args.embeddings_program if program == EMBEDDINGS_PHASE["scoring_program"]
                      else build.args.scoring_program)
            shared[program] = zip_bytes(directory_members(folder))
        members[program] = shared[program]
        if phase.get("starting_kit"):
            members[phase["starting_kit"]] = shared["starting_kit"]
    members[competition["image"]] = shared["logo"]
    members[YAML_MEMBER] = dump_yaml(competition).encode("utf-8")
    path = os.path.join(build.out, "bundles", "st2024-%s.zip" % subtask)
    build.wrote(path, zip_bytes(members))
    return path


def remove_stale(build):
    """Delete reference zips and pages of earlier builds that this build did not write (e.g. a test phase)."""
    written = set(os.path.abspath(path) for path, _ in build.log)
    folders = [os.path.join(build.out, "reference")]
    folders += [os.path.join(build.out, "pages", subtask) for subtask in st2024.SUBTASKS]
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
    parser.add_argument("--scoring-program", default=SCORING_PROGRAM)
    parser.add_argument("--embeddings-program", default=EMBEDDINGS_PROGRAM)
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
    kit = zip_bytes(starting_kit_members(args.starting_kit, args.scoring_program, table_md,
                                         reference_dir=args.reference))
    build.wrote(os.path.join(args.out, "starting_kit.zip"), kit)
    if not os.path.isdir(args.data):
        build.warn("data folder %s not found: the overview's size table will be empty" % args.data)
    return dict(page_inputs(build), logo=logo.png_bytes(), starting_kit=kit)


def page_inputs(build):
    """What the pages are built from besides the competition: sizes, baseline tables, BibTeX, links;
    what is missing is said to the organiser (never on the pages)."""
    args = build.args
    sizes = pages.count_sizes(args.data)
    missing = pages.missing_files(list(st2024.LANGUAGES), sizes)
    if missing and os.path.isdir(args.data):
        build.warn("no file in %s for %s: the size table shows a dash there" % (args.data, ", ".join(missing)))
    tables = dict((subtask, pages.read_baseline_html(args.out, subtask)) for subtask in st2024.SUBTASKS)
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
        if "test" in wanted and "test" not in phases_found:
            loud("NO TEST GOLD: %s/test does not exist, so the bundles have a DEVELOPMENT PHASE ONLY.\n"
                 "Build the test references with `make reference TEST_GOLD=<release layout with test gold>`\n"
                 "and rebuild before the test phase is due." % args.reference)
        shared = shared_inputs(build)
        bundles = [build_subtask(build, source, subtask, phases_found, shared) for subtask in st2024.SUBTASKS]
    except (BundleError, OSError, yaml.YAMLError) as error:
        print("bundle: %s" % error, file=sys.stderr)
        return 1
    remove_stale(build)
    for path, size in build.log:
        print("%10.1f KiB  %s" % (size / 1024.0, path))
    print("bundles: %s (%d warning(s))" % (", ".join(bundles), len(build.warnings)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
