"""The bundle of a competition declared under ``competitions/<id>/`` (the top-level competition's is ``bundle``).

``python -m organiser.competition_bundle --competition lince --reference reference_data/lince --out dist/lince``
writes ``<out>/bundles/<id>.zip`` (CodaLab v1.5 format), ``<out>/bundles/<id>-codabench.zip`` (native
Codabench, by :func:`organiser.bundle.codabench_competition`), ``<out>/reference/<id>-<phase>.zip``,
``<out>/starting_kit.zip`` and ``<out>/build.json`` (the manifest ``make check`` reads), reusing the zip and
YAML writers of :mod:`organiser.bundle`. It reads, in ``competitions/<id>/``: ``<id>.py`` (the declaration),
``competition.yaml`` (the source), ``schedule.yaml`` (every date, as :mod:`organiser.schedule` reads it),
``evaluate.py`` and ``metadata`` (the scoring program, zipped with ``scoring_program/evalkit``),
``pages/*.html`` and ``starting_kit/``. A phase whose reference folder is missing or empty is
dropped and said loudly; so is every declared dataset without a reference file.
"""
import argparse
import copy
import json
import os
import re
import sys

import zlib

from organiser import SCORING_PROGRAM, bundle, declarations, logo, pages
from organiser import schedule as schedule_module
from evalkit import keys, lines
from evalkit.messages import DataError

COMPETITIONS = declarations.COMPETITIONS
#: How the pages name the official metrics.
METRIC_NAMES = {"acc": "accuracy", "span_f1": "entity-span micro-F1", "weighted_f1": "weighted F1"}


def load_declaration(cid):
    """The declaration module of competition ``cid`` (:func:`organiser.declarations.load`)."""
    return declarations.load(cid)


def pairs_of(competition):
    """Every declared (task, language) pair, in the scorer's key order."""
    return keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES),
                              [(task, lang) for task in competition.TASKS for lang in task.languages])


def schedule_path(cid):
    """The schedule of competition ``cid``: ``competitions/<cid>/schedule.yaml`` (top level: ``schedule.yaml``)."""
    path = os.path.join(COMPETITIONS, cid, "schedule.yaml")
    return path if os.path.isfile(path) else schedule_module.SCHEDULE_YAML


def dataset_label(competition, task, lang):
    """A dataset column's label from the declaration's ``DATASET_LABEL`` (e.g. ``LID SPA-ENG``)."""
    return competition.DATASET_LABEL.format(task=task.key.upper(), pair=lang.replace("_", "-").upper())


def declared_columns(competition, languages, pairs):
    """``[(key, label)]``: the leaderboard columns the declaration asks for over ``pairs``.

    A declaration with ``LEADERBOARD = "datasets"`` shows the overall score (``OVERALL_LABEL``) and one
    column per dataset, in the declared task order; with ``LEADERBOARD = "components"``, the overall score and
    every component of every entry (labels from ``COMPONENT_LABELS``; with a single entry, its official metric is
    the overall score and has no column of its own); any other gets :func:`evalkit.keys.leaderboard_columns`
    (overall, task means, language means, entries).
    """
    if getattr(competition, "LEADERBOARD", None) == "components":
        labels = getattr(competition, "COMPONENT_LABELS", {})
        ordered = keys.ordered_pairs(competition.TASKS, languages, pairs)
        return [(keys.OVERALL_KEY, competition.OVERALL_LABEL)] + [   # one entry: its score is the overall one
            (keys.component_key(lang, task, comp), labels.get(comp, comp)) for task, lang in ordered
            for comp in task.components if len(ordered) > 1 or comp != task.metric]
    if getattr(competition, "LEADERBOARD", None) == "datasets":
        rank = dict((task.folder, index) for index, task in enumerate(competition.TASKS))
        ordered = sorted(pairs, key=lambda pair: (rank[pair[0].folder], list(pair[0].languages).index(pair[1])))
        return [(keys.OVERALL_KEY, competition.OVERALL_LABEL)] + [
            (keys.entry_key(lang, task), dataset_label(competition, task, lang)) for task, lang in ordered]
    return keys.leaderboard_columns(competition.TASKS, languages, pairs)


def leaderboard(source, competition, pairs):
    """The ``leaderboard`` section: the source's single leaderboard and the columns of ``pairs`` from
    :func:`declared_columns` (the pairs that have a reference: a column the scorer never writes is left out)."""
    boards = (source or {}).get("leaderboards") or {}
    if len(boards) != 1:
        raise bundle.BundleError("competition.yaml: leaderboard.leaderboards must declare exactly one leaderboard")
    (board_key, board), = boards.items()
    board = {"label": board["label"], "rank": board.get("rank", 1)}
    columns = {}
    lower = set(keys.component_key(lang, task, comp) for task, lang in pairs
                for comp in getattr(competition, "LOWER_IS_BETTER", ()))
    for rank, (key, label) in enumerate(declared_columns(competition, list(competition.LANGUAGES), pairs), 1):
        sort = "asc" if key in lower else "desc"
        columns[key] = {"leaderboard": board, "label": label, "numeric_format": 4, "rank": rank, "sort": sort}
    return {"leaderboards": {board_key: board}, "columns": columns}


def logo_png(cid, size=160):
    """A plain logo for competition ``cid``: rows of two-coloured bars (code-switched "text"), seeded by the id."""
    colours = ((0x3B, 0x6E, 0xA5), (0xD9, 0x8C, 0x2B))
    background = (0xF4, 0xF6, 0xF9)
    pixels = [[background] * size for _ in range(size)]
    seed = zlib.crc32(cid.encode("utf-8"))
    for line in range(6):
        x, y = 20, 24 + line * 20
        for run in range(4):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            length = 10 + seed % 22
            colour = colours[(seed >> 8) % 2]
            for row in range(y, y + 8):
                for col in range(x, min(x + length, size - 20)):
                    pixels[row][col] = colour
            x += length + 6
    return logo.png_bytes(pixels)


def reference_members(competition, phase_dir):
    """``({reference file name: bytes}, [declared names without a file])`` of one phase folder."""
    members, missing = {}, []
    for task, lang in pairs_of(competition):
        name = lines.reference_name(competition, task, lang)
        path = os.path.join(phase_dir, name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                members[name] = handle.read()
        else:
            missing.append(name)
    return members, missing


def program_members(cid):
    """The scoring program zip's members: the entry point, the declaration, ``metadata`` and ``evalkit/``."""
    folder = os.path.join(COMPETITIONS, cid)
    members = {}
    for name in ("evaluate.py", cid + ".py", "metadata"):
        with open(os.path.join(folder, name), "rb") as handle:
            members[name] = handle.read()
    members.update(bundle.directory_members(os.path.join(SCORING_PROGRAM, "evalkit"), "evalkit/"))
    return members


#: A reference builder may write this folder beside the phases: the files participants get (in the
#: starting kit, under ``data/``), e.g. the public evaluation sets of a competition that builds its own.
PUBLIC_FOLDER = "public"


def public_members(reference_dir, top):
    """``{top + relative path: bytes}`` of every file under ``<reference_dir>/public/`` (none when absent)."""
    folder = os.path.join(reference_dir, PUBLIC_FOLDER)
    return bundle.directory_members(folder, top) if os.path.isdir(folder) else {}


def datasets_table(competition, present):
    """Every declared dataset: task, pair, official metric, label count, and whether this bundle scores it."""
    rows = []
    for task, lang in pairs_of_tasks(competition):
        name = lines.reference_name(competition, task, lang)
        state = "scored" if name in present else "<strong>LACKING</strong> (not in this bundle)"
        rows.append([pages.escape(task.label), pages.escape(competition.LANGUAGES[lang][0]),
                     "<code>%s</code>" % pages.escape(lines.submission_name(competition, task, lang)),
                     pages.escape(METRIC_NAMES.get(task.metric, task.metric)), str(len(task.labels[lang])) if hasattr(task, "labels") else "-", state])
    return pages._table(["Task", "Language pair", "Submission file", "Metric", "Labels", "In this bundle"], rows)


def lacking_note(competition, present):
    """A loud paragraph naming the declared datasets this bundle has no reference for (empty when none)."""
    lacking = [lines.reference_name(competition, t, l) for t, l in pairs_of_tasks(competition)
               if lines.reference_name(competition, t, l) not in present]
    if not lacking:
        return ""
    return ('<p class="note"><strong>This bundle LACKS %d of %d datasets</strong> (no reference data when it was '
            'built, so they are not scored and have no leaderboard column): %s.</p>'
            % (len(lacking), len(lacking) + len(present), ", ".join("<code>%s</code>" % pages.escape(n)
                                                                 for n in lacking)))


def columns_table(columns):
    """The leaderboard columns ``[(key, label)]`` as a table."""
    return pages._table(["Column", "Score key"], [[pages.escape(label), "<code>%s</code>" % pages.escape(key)]
                                                  for key, label in columns])


def _inline_md(text):
    """Escaped text with Markdown ``code`` spans as <code> elements."""
    parts = text.split("`")
    return "".join(("<code>%s</code>" if i % 2 else "%s") % pages.escape(part) for i, part in enumerate(parts))


def markdown_html(text):
    """The HTML of the small Markdown the builders write: ``#`` headings (as h3/h4), ``|`` tables, ``-`` lists,
    paragraphs; every text escaped (inline ``code`` kept). None for empty text."""
    blocks, out = [block for block in re.split(r"\n\s*\n", text or "") if block.strip()], []
    for block in blocks:
        rows = [line.strip() for line in block.strip().split("\n")]
        if all(row.startswith("|") for row in rows):
            cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows
                     if not re.match(r"^\|[-:| ]+\|$", row)]
            out.append(pages._table([_inline_md(c) for c in cells[0]],
                                    [[_inline_md(c) for c in row] for row in cells[1:]]))
        elif rows[0].startswith("#"):
            level = min(4, 2 + len(rows[0]) - len(rows[0].lstrip("#")))
            out.append("<h%d>%s</h%d>" % (level, _inline_md(rows[0].lstrip("# ")), level))
            if rows[1:]:
                out.append(markdown_html("\n".join(rows[1:])))
        elif all(row.startswith("- ") for row in rows):
            out.append("<ul>%s</ul>" % "".join("<li>%s</li>" % _inline_md(row[2:]) for row in rows))
        else:
            out.append("<p>%s</p>" % _inline_md(" ".join(rows)))
    return "\n".join(out) or None


def _read_text(path):
    """The UTF-8 text of ``path``, or None when it is absent."""
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def page_values(competition, competition_yaml, present, schedule, baselines_md=None, reference_dir=None):
    """The placeholder values of a competition's page templates (generated from its declaration and build).

    ``baselines_table``: the build's baselines table (``baselines_md``); ``data_statistics``: the statistics a
    reference builder may write beside the public files (``<reference_dir>/public/statistics.md``)."""
    columns = [(key, column["label"]) for key, column in
               sorted(competition_yaml["leaderboard"]["columns"].items(), key=lambda kv: kv[1]["rank"])]
    return {
        "competition_title": pages.escape(competition.TITLE),
        "datasets_table": datasets_table(competition, present),
        "lacking_note": lacking_note(competition, present),
        "columns_table": columns_table(columns),
        "column_count": str(len(columns)),
        "phases_table": pages.phases_table(competition_yaml, schedule),
        "important_dates": pages.important_dates(competition_yaml, schedule),
        "links_line": "",
        "baselines_table": pages.baseline_block(markdown_html(_read_text(baselines_md))),
        "data_statistics": markdown_html(_read_text(reference_dir and os.path.join(
            reference_dir, PUBLIC_FOLDER, "statistics.md"))) or '<p class="note">No statistics in this build.</p>',
    }


def page_members(cid, competition_yaml, competition, present, schedule, baselines_md=None, reference_dir=None):
    """Every page of the ``html`` section, rendered by :func:`organiser.pages.render_page` from the templates
    in ``competitions/<cid>/pages/`` (inside their ``_layout.html``, or the engine's default layout, with the
    engine's inline styles)."""
    values = page_values(competition, competition_yaml, present, schedule, baselines_md, reference_dir)
    folder = os.path.join(COMPETITIONS, cid, "pages")
    return dict((member, pages.render_page(key, values, folder).encode("utf-8"))
                for key, member in (competition_yaml.get("html") or {}).items())


def pairs_of_tasks(competition):
    """Every declared (task, language) pair in the declared task order (the paper's table order)."""
    return [(task, lang) for task in competition.TASKS for lang in task.languages]


def reference_phases(cid, competition, source, reference_dir, out):
    """``(phases kept, {member: bytes}, reference file names present)``; writes ``<out>/reference/`` zips."""
    phases, members, present = [], {}, set()
    for number in sorted(source["phases"]):
        phase = copy.deepcopy(source["phases"][number])
        name = bundle.phase_reference(phase)
        refs, missing = reference_members(competition, os.path.join(reference_dir, name))
        if not refs:
            print("WARNING: phase %r dropped: no reference file in %s"
                  % (phase["label"], os.path.join(reference_dir, name)), file=sys.stderr)
            continue
        if missing:
            print("WARNING: phase %r LACKS %d of %d datasets (not scored): %s" % (
                phase["label"], len(missing), len(missing) + len(refs), ", ".join(missing)), file=sys.stderr)
        data = bundle.zip_bytes(refs)
        bundle.write_file(os.path.join(out, "reference", "%s-%s.zip" % (cid, name)), data)
        members[phase["reference_data"]] = data
        phases.append(phase)
        present.update(refs)
    if not phases:
        raise bundle.BundleError("no phase has reference data under %s" % reference_dir)
    return phases, members, present


def dated_competition(cid, source, competition, phases, present, schedule):
    """The v1.5 competition.yaml: the source with the kept phases dated by ``schedule`` and the columns."""
    names = [bundle.phase_reference(phase) for phase in phases]
    starts, end_date = schedule_module.codalab_dates(schedule, names)
    result = copy.deepcopy(source)
    result["end_date"] = end_date
    result["force_submission_to_leaderboard"] = True
    result["phases"] = {}
    for index, phase in enumerate(phases):
        result["phases"][index + 1] = bundle._dated_phase(phase, index + 1, names[index], starts[index], cid, schedule)
    pairs = [(t, l) for t, l in pairs_of(competition) if lines.reference_name(competition, t, l) in present]
    result["leaderboard"] = leaderboard(source.get("leaderboard"), competition, pairs)
    return result


def write_manifest(out, cid, data, reference_dir, schedule, bundles):
    """``<out>/build.json``, as :func:`organiser.bundle.write_manifest` writes it (read by ``make check``)."""
    manifest = {"competition": cid, "data": os.path.abspath(data or reference_dir),
                "reference": os.path.abspath(reference_dir),
                "schedule": os.path.abspath(schedule.path), "test_reference_pending": False,
                "bundles": {"codalab": [os.path.basename(bundles[0])], "codabench": [os.path.basename(bundles[1])]}}
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    bundle.write_file(os.path.join(out, bundle.MANIFEST), text.encode("utf-8"))


def build(cid, reference_dir, out, baselines_md=None, schedule=None, data=None):
    """Write both bundles, the reference zips, the starting kit and the manifest; return the phases kept.

    ``schedule`` (a :class:`organiser.schedule.Schedule`) defaults to the competition's own schedule.yaml.
    """
    competition = load_declaration(cid)
    schedule = schedule if schedule is not None else schedule_module.load(schedule_path(cid))
    source = bundle.load_competition(os.path.join(COMPETITIONS, cid, "competition.yaml"))
    program = bundle.zip_bytes(program_members(cid))
    top = "%s-starting-kit/" % cid
    kit = bundle.directory_members(os.path.join(COMPETITIONS, cid, "starting_kit"), top)
    kit.update((top + "scoring_program/" + name, data) for name, data in program_members(cid).items())
    readme = "%s-starting-kit/README.md" % cid
    if baselines_md and os.path.isfile(baselines_md) and readme in kit:
        with open(baselines_md, encoding="utf-8") as handle:
            kit[readme] = bundle.readme_with_table(kit[readme].decode("utf-8"), handle.read()).encode("utf-8")
    kit.update(public_members(reference_dir, top + "data/"))
    kit_zip = bundle.zip_bytes(kit)
    members = {"scoring_program.zip": program, "starting_kit.zip": kit_zip}
    if source.get("image"):
        members[source["image"]] = logo_png(cid)
    phases, references, present = reference_phases(cid, competition, source, reference_dir, out)
    members.update(references)
    competition_yaml = dated_competition(cid, source, competition, phases, present, schedule)
    members.update(page_members(cid, competition_yaml, competition, present, schedule, baselines_md, reference_dir))
    members[bundle.YAML_MEMBER] = bundle.dump_yaml(competition_yaml).encode("utf-8")
    paths = (os.path.join(out, "bundles", cid + ".zip"),
             os.path.join(out, "bundles", cid + bundle.CODABENCH_SUFFIX + ".zip"))
    bundle.write_file(paths[0], bundle.zip_bytes(members))
    native = bundle.codabench_competition(competition_yaml, schedule)
    members[bundle.YAML_MEMBER] = bundle.dump_yaml(native).encode("utf-8")
    bundle.write_file(paths[1], bundle.zip_bytes(members))
    bundle.write_file(os.path.join(out, "starting_kit.zip"), kit_zip)
    write_manifest(out, cid, data, reference_dir, schedule, paths)
    labels = [p["label"] for p in phases]
    print("wrote %s and %s (%s)" % (paths[0], paths[1], ", ".join(labels)))
    return labels


def main(argv=None):
    """Command line; exit status 0 (built) or 1 (nothing to build)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--competition", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--baselines", help="a Markdown baseline table for the starting kit's README")
    parser.add_argument("--schedule", help="the schedule (default: competitions/<id>/schedule.yaml)")
    parser.add_argument("--data", help="the data the references were built from (recorded in build.json)")
    args = parser.parse_args(argv)
    try:
        schedule = schedule_module.load(args.schedule or schedule_path(args.competition))
        build(args.competition, args.reference, args.out, args.baselines, schedule, args.data)
    except (bundle.BundleError, DataError) as err:
        print("Cannot build the bundle: %s" % err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
