"""A competition's own builders, run through one entry point for every hosted competition.

``python -m organiser reference --competition ID --data DIR [--test-gold DIR] --out REF [--report FILE]`` and
``python -m organiser baselines --competition ID --data DIR --reference REF --out OUT`` run ``reference.py`` and
``baselines.py`` of the competition's builders folder (``competitions/<id>/``, organiser.declarations.Hosted), each
through its ``main(argv)`` with exactly these options, so ``make`` drives every competition the same way. What
they must write is the contract of organiser/bundle.py:

- reference: ``REF/<phase>/`` for ``dev`` and, when the test gold exists, ``test`` (the declaration's reference
  files); ``REF/public/<phase>/`` (or ``REF/public/<phase>/<subtask>/``): the files participants get for the phase
  (the development phase's go into the starting kit, the test phase's input is written apart and released when the
  test phase opens); optionally ``REF/statistics.md`` (shown on the pages), ``REF/public_gold.json``
  (``{phase: why its gold is public}``: that phase becomes a labelled practice phase) and
  ``REF/test_gold_unused.json`` (``{path in the test gold: why}``: files of ``--test-gold`` the test phase was not
  built from, e.g. a language's test files left as released, without gold; the leak audit does not take them for
  gold);
- baselines: ``OUT/baselines/table.md`` (the starting kit's README and, unless ``OUT/baselines/table-<subtask>.html``
  exists, the pages) and ``OUT/submissions/*.zip`` (what ``make check`` submits to each phase).

After the reference builder, the test input it wrote (``REF/public/test/``) is checked against what the competition's
kinds give participants (``evalkit.items.Given``, each kind's ``items.given``): a file that holds more (a gold
column, a corpus's sentence ids, an annotation) fails the build, named with what it holds. Then the test phase's gold
is split (organiser/split.py, docs/test_feedback.md): drawn once and kept in the split state file (``--split-state
FILE``; ``--split-seed S`` sets the first draw's seed, ``--new-split`` draws anew), ``REF/test/`` keeps what the
platform may score, ``REF/private/test/`` what the final ranking uses (never uploaded). Then every phase folder gets
its ``phase.json`` (organiser.bundle.stamp_phases): the
development phase's reports may show everything (its gold is in the starting kit), a test phase's keep its gold
hidden, so local runs of the scoring program on these folders report as the platform will. Last, each phase folder
(``REF/private/test`` too) gets its gold index (organiser/gold_index.py: facts the scorer would otherwise derive
from the gold on every run, per file with the SHA-256 of the bytes they describe).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import sys

from organiser import declarations

#: The builders a competition folder must have, by command.
BUILDERS = {"reference": "reference.py", "baselines": "baselines.py"}


def reference_parser(prog, description=None):
    """The options every reference builder takes (the calling convention above): ``--data``, ``--test-gold``,
    ``--out``, ``--report``."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--data", required=True)
    parser.add_argument("--test-gold")
    parser.add_argument("--out", required=True)
    parser.add_argument("--report", help="also write the list of missing datasets there")
    return parser


def load_builder(hosted, command):
    """The module ``reference.py`` or ``baselines.py`` of ``hosted``'s builders folder."""
    path = hosted.builder(BUILDERS[command])
    if not os.path.isfile(path):
        raise RuntimeError("%s has no %s" % (hosted.builders, BUILDERS[command]))
    return declarations.load_path("%s_%s" % (hosted.cid, command), path)


def run(command, argv):
    """Run the competition's ``command`` builder with ``argv`` (``--competition`` taken off); its exit status."""
    parser = argparse.ArgumentParser(prog="python -m organiser %s" % command, add_help=False)
    parser.add_argument("--competition", default=None)
    if command == "reference":   # the machinery's own option (organiser/split.py), not the builder's
        parser.add_argument("--split-seed", default=None)
        parser.add_argument("--split-state", default=None)   # where the split is kept (organiser/split.py SplitState)
        parser.add_argument("--new-split", action="store_true")   # draw the split anew
        parser.add_argument("--schedule", default=None)   # its test_feedback (default: the competition's schedule)
    known, rest = parser.parse_known_args(argv)
    hosted = declarations.Hosted(known.competition)
    status = load_builder(hosted, command).main(rest)
    reads_out = argparse.ArgumentParser(add_help=False)   # the builder's own --out, read as it read it
    reads_out.add_argument("--out")
    reads_out.add_argument("--reference")
    given = reads_out.parse_known_args(rest)[0]
    if command == "baselines" and not status and given.out and given.reference:
        written = write_floor(hosted, given.reference, given.out)
        if written:
            print("%s: the floor of %d file(s), from %s" % (written[0], len(written[1]), ", ".join(written[2])))
    if command == "reference" and not status:
        out = given.out
        problems = test_input_problems(hosted, out) if out and os.path.isdir(out) else []
        if problems:
            sys.stderr.write("ERROR: the test input written for participants (%s) holds more than they are given (the "
                             "kinds' items.given):\n%s\n" % (os.path.join(out, PUBLIC_TEST), "".join(
                                 "  %s\n" % problem for problem in problems[:MAX_PROBLEMS]) + (
                                 "  ... and %d more\n" % (len(problems) - MAX_PROBLEMS)
                                 if len(problems) > MAX_PROBLEMS else "")))
            return 1
        if out and os.path.isdir(out):
            from organiser import bundle, split
            try:
                split.split_reference(out, hosted, known.split_seed, schedule=known.schedule,
                                      state_path=known.split_state, new_draw=known.new_split)
            except split.SplitError as err:
                sys.stderr.write("python -m organiser reference: %s\n" % err)
                return 2
            for phase, hidden in sorted(bundle.stamp_phases(out, hosted).items()):
                print("%s: %s/%s (%s)" % (bundle.PHASE_FILE, out, phase,
                                          "gold hidden: scores and format messages only" if hidden
                                          else "gold public: full reports"))
            private = os.path.join(out, split.PRIVATE_FOLDER, split.TEST_PHASE)
            if os.path.isdir(private):   # the final ranking's reference reports as the test phase does
                shutil.copyfile(os.path.join(out, split.TEST_PHASE, bundle.PHASE_FILE),
                                os.path.join(private, bundle.PHASE_FILE))
            from organiser import gold_index   # last: each index describes its folder's files as written
            folders = bundle._phase_folders(out) + [os.path.join(split.PRIVATE_FOLDER, split.TEST_PHASE)]
            for folder, count in sorted(gold_index.write_indexes(out, hosted, folders).items()):
                if count:
                    print("gold_index.json: %s/%s (facts of %d file(s))" % (out, folder, count))
    return status or 0


#: Where a reference builder writes the test input (released when the test phase opens), under its ``--out``.
PUBLIC_TEST = os.path.join("public", "test")
#: How many problems of the test input an error lists.
MAX_PROBLEMS = 20


def test_input_problems(hosted, out):
    """What the test input under ``out/public/test/`` holds beyond what the competition's kinds give participants
    (``evalkit.items.Given``): ``["<file>: <what>"]``, empty when nothing. A file no kind of the competition claims
    as its input is a problem too."""
    from evalkit import kindspec, scoring  # noqa: F401  (scoring registers the kit's kinds)
    givens = []
    for task in hosted.declaration.TASKS:
        declared = kindspec.kind_of(task).items.given
        if declared not in givens:
            givens.append(declared)
    problems, seen = [], set()
    root = os.path.join(out, PUBLIC_TEST)
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            label = os.path.relpath(path, out)
            claiming = [declared for declared in givens if declared.claims(name)]
            if not claiming:
                problems.append("%s: no kind of the competition gives participants such a file" % label)
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            key = (name, hashlib.sha256(data).hexdigest())
            if key in seen:     # the same file in another subtask's test input
                continue
            seen.add(key)
            for declared in claiming:
                problems.extend("%s: %s" % (label, what) for what in declared.beyond(data, name))
    return problems


#: The development phase, whose reference gets the floor file (its gold is public: the starting kit ships it).
FLOOR_PHASE = "dev"


def floor_submissions(hosted, out):
    """The floor baseline's submissions of the development phase in ``out/submissions/``: those ``floor: {dev:
    name}`` of the competition's ``subtasks.yaml`` names, else the zips whose name has the word ``floor`` and the
    phase (``dev``) or the release split its baselines ran on (``phase_splits``)."""
    folder = os.path.join(out, "submissions")
    named = declarations.wording(hosted.cid)["floor"].get(FLOOR_PHASE)
    if named:   # declared in subtasks.yaml (``floor: {dev: <zip name>}``)
        return [os.path.join(folder, name) for name in ([named] if isinstance(named, str) else named)
                if os.path.isfile(os.path.join(folder, name))]
    split = declarations.wording(hosted.cid)["phase_splits"].get(FLOOR_PHASE)
    marks = set([FLOOR_PHASE] + ([split] if split else []))
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        words = set(re.split(r"[-_.]", name[:-len(".zip")])) if name.endswith(".zip") else set()
        if "floor" in words and words & marks:
            found.append(os.path.join(folder, name))
    return found


def write_floor(hosted, reference, out):
    """Score the floor baseline's development submissions (:func:`floor_submissions`) with the scoring program and
    write ``reference/dev/floor_scores.json`` (``evalkit/floor.py``: per file, the floor's score; the highest when
    several floors score one file). Returns ``(path, files, zips)``, or None when there is no floor or no
    development reference (then nothing is written)."""
    from evalkit import floor, scoring
    phase_dir = os.path.join(reference, FLOOR_PHASE)
    zips = floor_submissions(hosted, out)
    if not zips or not os.path.isdir(phase_dir):
        return None
    files, sentences = {}, {}
    for path in zips:
        report = scoring.evaluate(hosted.declaration, phase_dir, path, details=False)
        for entry in report["entries"]:
            if entry["status"] == "scored":
                key = floor.entry_key(entry)
                files[key] = max(entry["score"], files.get(key, entry["score"]))
                sentences[key] = entry["sentences"]
    target = os.path.join(phase_dir, floor.FILE_NAME)
    with open(target, "w", encoding="utf-8") as handle:
        json.dump({"label": "floor", "system": "floor", "source": [os.path.basename(p) for p in zips],
                   "files": dict(sorted(files.items())), "sentences": dict(sorted(sentences.items()))}, handle,
                  indent=1)
    return target, files, [os.path.basename(p) for p in zips]


def reference_main(argv=None):
    """``python -m organiser reference``."""
    return run("reference", sys.argv[1:] if argv is None else argv)


def baselines_main(argv=None):
    """``python -m organiser baselines``."""
    return run("baselines", sys.argv[1:] if argv is None else argv)
