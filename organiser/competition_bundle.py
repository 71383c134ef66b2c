"""The bundle of a competition declared under ``competitions/<id>/`` (a further competition; ST2024 is ``bundle``).

``python -m organiser.competition_bundle --competition lince --reference reference_data/lince --out dist/lince``
writes ``<out>/bundles/<id>.zip`` (CodaLab v1.5 format), ``<out>/reference/<id>-<phase>.zip`` and
``<out>/starting_kit.zip``, reusing the zip and YAML writers of :mod:`organiser.bundle`. It reads, in
``competitions/<id>/``: ``<id>.py`` (the declaration), ``competition.yaml`` (the source),
``evaluate.py`` and ``metadata`` (the scoring program, zipped with ``scoring_program/evalkit``),
``pages/*.html`` and ``starting_kit/``. A phase whose reference folder is missing or empty is
dropped and said loudly; so is every declared dataset without a reference file.
"""
import argparse
import copy
import html
import importlib.util
import os
import sys

import zlib

from organiser import ROOT, SCORING_PROGRAM, bundle, logo
from evalkit import keys, lines

COMPETITIONS = os.path.join(ROOT, "competitions")
PAGE = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>%s</title>\n</head>\n'
        '<body>\n%s</body>\n</html>\n')


def load_declaration(cid):
    """The declaration module ``competitions/<cid>/<cid>.py``."""
    path = os.path.join(COMPETITIONS, cid, cid + ".py")
    spec = importlib.util.spec_from_file_location(cid, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pairs_of(competition):
    """Every declared (task, language) pair, in the scorer's key order."""
    return keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES),
                              [(task, lang) for task in competition.TASKS for lang in task.languages])


def leaderboard(source, competition, pairs):
    """The ``leaderboard`` section: the source's single leaderboard and the columns of ``pairs`` from
    :mod:`evalkit.keys` (the pairs that have a reference: a column the scorer never writes is left out)."""
    boards = (source or {}).get("leaderboards") or {}
    if len(boards) != 1:
        raise bundle.BundleError("competition.yaml: leaderboard.leaderboards must declare exactly one leaderboard")
    (board_key, board), = boards.items()
    board = {"label": board["label"], "rank": board.get("rank", 1)}
    columns = {}
    for rank, (key, label) in enumerate(keys.leaderboard_columns(competition.TASKS, list(competition.LANGUAGES),
                                                                 pairs), 1):
        columns[key] = {"leaderboard": board, "label": label, "numeric_format": 4, "rank": rank, "sort": "desc"}
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


def page_members(cid, source, title):
    """Every page the source names, wrapped into a small HTML5 document."""
    members = {}
    for name in (source.get("html") or {}).values():
        with open(os.path.join(COMPETITIONS, cid, "pages", name), encoding="utf-8") as handle:
            members[name] = (PAGE % (html.escape(title), handle.read())).encode("utf-8")
    return members


def build(cid, reference_dir, out, baselines_md=None):
    """Write the bundle, the reference zips and the starting kit; return the phases kept."""
    competition = load_declaration(cid)
    source = bundle.load_competition(os.path.join(COMPETITIONS, cid, "competition.yaml"))
    program = bundle.zip_bytes(program_members(cid))
    top = "%s-starting-kit/" % cid
    kit = bundle.directory_members(os.path.join(COMPETITIONS, cid, "starting_kit"), top)
    kit.update((top + "scoring_program/" + name, data) for name, data in program_members(cid).items())
    readme = "%s-starting-kit/README.md" % cid
    if baselines_md and os.path.isfile(baselines_md) and readme in kit:
        with open(baselines_md, encoding="utf-8") as handle:
            kit[readme] = bundle.readme_with_table(kit[readme].decode("utf-8"), handle.read()).encode("utf-8")
    kit_zip = bundle.zip_bytes(kit)
    members = {"scoring_program.zip": program, "starting_kit.zip": kit_zip}
    if source.get("image"):
        members[source["image"]] = logo_png(cid)
    members.update(page_members(cid, source, competition.TITLE))
    phases, present = [], set()
    for number in sorted(source["phases"]):
        phase = copy.deepcopy(source["phases"][number])
        name = bundle.phase_reference(phase)
        refs, missing = reference_members(competition, os.path.join(reference_dir, name))
        if not refs:
            print("WARNING: phase %r dropped: no reference file in %s" % (phase["label"], os.path.join(reference_dir, name)),
                  file=sys.stderr)
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
    competition_yaml = copy.deepcopy(source)
    competition_yaml["phases"] = {}
    for number, phase in enumerate(phases, 1):
        phase["phasenumber"] = number
        competition_yaml["phases"][number] = phase
    pairs = [(t, l) for t, l in pairs_of(competition) if lines.reference_name(competition, t, l) in present]
    competition_yaml["leaderboard"] = leaderboard(source.get("leaderboard"), competition, pairs)
    members[bundle.YAML_MEMBER] = bundle.dump_yaml(competition_yaml).encode("utf-8")
    bundle.write_file(os.path.join(out, "bundles", cid + ".zip"), bundle.zip_bytes(members))
    bundle.write_file(os.path.join(out, "starting_kit.zip"), kit_zip)
    print("wrote %s (%s)" % (os.path.join(out, "bundles", cid + ".zip"), ", ".join(p["label"] for p in phases)))
    return [p["label"] for p in phases]


def main(argv=None):
    """Command line; exit status 0 (built) or 1 (nothing to build)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--competition", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--baselines", help="a Markdown baseline table for the starting kit's README")
    args = parser.parse_args(argv)
    try:
        build(args.competition, args.reference, args.out, args.baselines)
    except bundle.BundleError as err:
        print("Cannot build the bundle: %s" % err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
