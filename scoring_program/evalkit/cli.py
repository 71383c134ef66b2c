"""Command line of the scoring program (platform form and local form).

Platform form (CodaLab / Codabench): ``evaluate.py INPUT OUTPUT`` with ``INPUT/ref`` and ``INPUT/res``.
Local form: ``evaluate.py --ref DIR --submission ZIP_OR_DIR [--out DIR]``.

Exit status: 0 scored (possibly with zeros and messages); 1 nothing recognisable was submitted;
2 usage error or broken reference data; 3 internal error of the scorer (a bug: please report it).
"""
import argparse
import os
import sys
import tempfile

from . import entry, kindspec, policy, writers
from .layout import NothingToScore, ReferenceError
from .messages import MAX_TEXT_CHARS, printable
from .scoring import evaluate

NOTHING_HELP = (
    "Nothing could be scored: %s A submission is a zip whose root holds the task folders "
    "(%s), each with one <language code>.json per language, e.g. %s. "
    "Zip the folders themselves, not a folder that contains them, and check the names against the "
    "starting kit (python3 validate.py your.zip --data DATA).")


EXIT_HELP = """exit status:
  0  scored (possibly with zeros and messages: read them)
  1  nothing recognisable was submitted (the message says what was found and what is expected)
  2  usage error (a path that does not fit, a Python older than 3.7), or no usable reference data
  3  internal error of the scoring program (a bug: please report it to the organisers)"""

LOCAL_REFERENCE_HELP = (
    "No usable reference data at the path given to --ref, nothing was scored: %s. Give --ref the folder that "
    "holds the reference files, named %s (e.g. %s)%s.")
PLATFORM_REFERENCE_HELP = ("The reference data is broken, nothing was scored: %s. This is the organisers' "
                           "side: please tell them.")
PLATFORM_MISUSE = (
    "evaluate.py INPUT OUTPUT is the form the platform runs: INPUT must be a folder holding ref/ (the reference) "
    "and res/ (the submission), and %s %s. To score a submission on your machine: python3 evaluate.py --ref "
    "%s --submission %s --out %s. Nothing was scored.")


def reference_pattern(competition):
    """The declared reference file name pattern in words: ``<task>_<language>.conll`` (``<task>/<language>.json``
    by default)."""
    if competition is None or not getattr(competition, "REFERENCE_FILE", None):
        return "<task>/<language>.json"
    return competition.REFERENCE_FILE.replace("{task}", "<task>").replace("{lang}", "<language>")


def _example_reference(competition):
    """The reference folder to show in a hint: the one the competition's starting kit ships
    (``LOCAL_REFERENCE``), else a placeholder."""
    return getattr(competition, "LOCAL_REFERENCE", None) or "REFERENCE_FOLDER"


def _reference_example(competition):
    """Where a participant finds a reference folder, from the declaration (``LOCAL_REFERENCE``, the folder the
    starting kit ships), else the starting kit's validator, which every kit has."""
    shipped = getattr(competition, "LOCAL_REFERENCE", None)
    if shipped:
        return ", e.g. --ref %s in the starting kit" % shipped
    return ("; the starting kit's validate.py checks a submission against the released data without one "
            "(and prints scores where the split has gold)")


def local_reference_help(competition, error):
    """The local "no usable reference" message, worded from the competition's declaration."""
    task = competition.TASKS[0]
    if getattr(competition, "REFERENCE_FILE", None):
        example = competition.REFERENCE_FILE.format(task=task.key, lang=task.languages[0])
    else:
        example = "%s/%s.json" % (task.folder, task.languages[0])
    return LOCAL_REFERENCE_HELP % (error, reference_pattern(competition), example, _reference_example(competition))


def reference_path_problem(path):
    """Why the ``--ref`` path cannot be a reference folder (a file, a zip, nothing there), or None."""
    shown = printable(path, MAX_TEXT_CHARS)
    if os.path.isdir(path):
        return None
    if not os.path.exists(path):
        return "the reference folder %s does not exist" % shown
    if path.lower().endswith(".zip"):
        return "%s is a zip file, not a folder: unzip it and give the folder it holds" % shown
    return "%s is a file, not a folder" % shown


def _platform_misuse(input_dir):
    """Why ``input_dir`` (the INPUT of the platform form) cannot be the platform's input, or None: the
    platform's INPUT is a folder holding ``ref/`` or ``res/``; anything else is a local call in the wrong form."""
    if os.path.isdir(input_dir) and (os.path.isdir(os.path.join(input_dir, "ref"))
                                     or os.path.isdir(os.path.join(input_dir, "res"))):
        return None
    if not os.path.exists(input_dir):
        return "%s does not exist" % printable(input_dir, MAX_TEXT_CHARS)
    if not os.path.isdir(input_dir):
        return "%s is a file" % printable(input_dir, MAX_TEXT_CHARS)
    return "%s holds neither" % printable(input_dir, MAX_TEXT_CHARS)


class UsageError(Exception):
    """The command line does not fit: the message says why and what to type instead (exit status 2)."""


def parse_args(argv, competition=None):
    """Parse either form of the command line into (ref_dir, submission, out_dir, quiet, platform).

    Raises :class:`UsageError` for a call that fits neither form, such as a submission zip given as INPUT.
    """
    parser = argparse.ArgumentParser(prog="evaluate.py", description=__doc__.split("\n\n")[0], epilog=EXIT_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", metavar="INPUT OUTPUT",
                        help="platform form: INPUT holds ref/ and res/, OUTPUT receives the scores")
    parser.add_argument("--ref", help="reference directory (%s)" % reference_pattern(competition))
    parser.add_argument("--submission", help="submission zip or directory")
    parser.add_argument("--out", help="output directory (default: a new temporary directory)")
    parser.add_argument("--quiet", action="store_true", help="print only the signature and the overall score")
    args = parser.parse_args(argv)
    if args.paths and len(args.paths) == 2 and not (args.ref or args.submission):
        input_dir, out = args.paths
        misuse = _platform_misuse(input_dir)
        if misuse:
            raise UsageError(PLATFORM_MISUSE % (misuse, _what_it_looks_like(input_dir),
                                                _example_reference(competition),
                                                printable(input_dir, MAX_TEXT_CHARS), printable(out, MAX_TEXT_CHARS)))
        return os.path.join(input_dir, "ref"), os.path.join(input_dir, "res"), out, args.quiet, True
    if not args.paths and args.ref and args.submission:
        problem = reference_path_problem(args.ref)
        if problem:
            raise UsageError(local_reference_help(competition, problem))
        if not os.path.exists(args.submission):
            raise UsageError("No such submission: %s (the path given to --submission). Nothing was scored."
                             % printable(args.submission, MAX_TEXT_CHARS))
        return args.ref, args.submission, args.out or tempfile.mkdtemp(prefix="scores-"), args.quiet, False
    parser.error("give either --ref REFERENCE_FOLDER --submission ZIP_OR_FOLDER [--out DIR] (on your machine), "
                 "or INPUT OUTPUT (the platform's form)")


def _what_it_looks_like(path):
    """What a misplaced INPUT most likely is, for the usage message."""
    if path.lower().endswith(".zip"):
        return "(it looks like a submission)"
    return "(it looks like a submission or a reference folder, not the platform's input)"


def output_problem(out_dir):
    """Why ``out_dir`` cannot receive the outputs (it is created when missing), or None."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        return "is not a directory"
    try:
        if not os.path.isdir(out_dir):
            os.makedirs(out_dir)
    except OSError as err:
        return "cannot be created (%s)" % err.strerror
    if not os.access(out_dir, os.W_OK | os.X_OK):
        return "is not writable"
    return None


def _usage_output(out_dir, problem):
    """Report an unusable output directory (a usage error); return exit status 2."""
    sys.stderr.write("The output directory %s %s: give a directory the scoring program can write to.\n"
                     % (printable(out_dir), problem))
    return 2


def run(competition, argv, render_html):
    """Score, write the outputs and print the summary; return the exit status."""
    try:
        ref_dir, submission, out_dir, quiet, platform = parse_args(argv, competition)
    except UsageError as err:
        sys.stderr.write("%s\n" % err)
        return 2
    problem = output_problem(out_dir)
    if problem:
        return _usage_output(out_dir, problem)
    try:
        kindspec.use(competition)
    except kindspec.KindError as err:   # the scoring program's own declaration: the organiser's to fix
        sys.stderr.write("The scoring program is broken (for the organisers): %s\n" % printable(str(err), MAX_TEXT_CHARS))
        return 2
    try:
        report = evaluate(competition, ref_dir, submission)
    except ReferenceError as err:
        error = printable(str(err), MAX_TEXT_CHARS)
        sys.stderr.write((PLATFORM_REFERENCE_HELP % error if platform else local_reference_help(competition, error))
                         + "\n")
        return 2
    except NothingToScore as err:
        if getattr(competition, "NOTHING_HELP", None):   # a competition with its own submission layout
            sys.stderr.write(competition.NOTHING_HELP % printable(str(err), MAX_TEXT_CHARS) + "\n")
            return 1
        folders = ", ".join(task.folder for task in competition.TASKS)
        first = competition.TASKS[0]
        example = "%s/%s.json" % (first.folder, first.languages[0])
        sys.stderr.write(NOTHING_HELP % (printable(str(err), MAX_TEXT_CHARS), folders, example) + "\n")
        return 1
    report = policy.apply(report, policy.read(ref_dir))   # a hidden-gold phase: scores and format messages only
    try:
        writers.write_outputs(report, out_dir, render_html)
    except OSError as err:
        return _usage_output(out_dir, "cannot be written to (%s)" % err.strerror)
    if quiet:
        sys.stdout.write("signature: %s\navg_score: %.4f\n" % (report["signature"], report["scores"]["avg_score"]))
    else:
        sys.stdout.write(writers.summary(report))
    sys.stdout.write("scores written to %s\n" % printable(os.path.abspath(out_dir), MAX_TEXT_CHARS))
    return 0


def main(competition, argv=None, render_html=None):
    """Entry point: never lets a traceback reach the participant (:func:`evalkit.entry.run`)."""
    if render_html is None:
        from .report_html import render as render_html
    return entry.run(run, "evaluate.py", "the scoring program",
                     (competition, sys.argv[1:] if argv is None else argv, render_html))


def declared_modules(folder):
    """The names of the modules of ``folder`` that declare a competition (a line ``COMPETITION_ID = ...``), sorted."""
    import re
    declares = re.compile(r"^COMPETITION_ID = ", re.M)
    found = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                if declares.search(handle.read()):
                    found.append(name[:-len(".py")])
    return found


def declaration_beside(script):
    """The competition declaration beside ``script`` (an ``evaluate.py``): the one module of its folder that sets
    ``COMPETITION_ID``, imported by name (the folder is put on ``sys.path``); RuntimeError when there is not exactly
    one. A competition's ``evaluate.py`` calls :func:`main_beside` instead of naming its declaration."""
    import importlib
    folder = os.path.dirname(os.path.abspath(script))
    found = declared_modules(folder)
    if len(found) != 1:
        raise RuntimeError("%s must hold exactly one declaration (a module setting COMPETITION_ID), found %s"
                           % (folder, ", ".join(found) or "none"))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(found[0])


def main_beside(script, argv=None):
    """The scoring program of the competition declared beside ``script`` (:func:`declaration_beside`): what every
    competition's ``evaluate.py`` runs, ``sys.exit(main_beside(__file__))``."""
    try:
        competition = declaration_beside(script)
    except RuntimeError as err:   # the program was packed without its declaration: the organiser's to fix
        sys.stderr.write("%s\n" % err)
        return 2
    return main(competition, argv)
