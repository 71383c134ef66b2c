"""Command line of the scoring program (platform form and local form).

Platform form (CodaLab / Codabench): ``evaluate.py INPUT OUTPUT`` with ``INPUT/ref`` and ``INPUT/res``.
Local form: ``evaluate.py --ref DIR --submission ZIP_OR_DIR [--out DIR]``.

Exit status: 0 scored (possibly with zeros and messages); 1 nothing recognisable was submitted;
2 usage error or broken reference data; 3 internal error of the scorer (a bug: please report it).
"""
import argparse
import io
import os
import sys
import tempfile

from . import policy, writers
from .layout import NothingToScore, ReferenceError
from .messages import MAX_TEXT_CHARS, printable
from .scoring import evaluate

NOTHING_HELP = (
    "Nothing could be scored: %s A submission is a zip whose root holds the task folders "
    "(%s), each with one <language code>.json per language, e.g. %s. "
    "Zip the folders themselves, not a folder that contains them, and check the names against the "
    "starting kit (python3 validate.py your.zip).")


EXIT_HELP = """exit status:
  0  scored (possibly with zeros and messages: read them)
  1  nothing recognisable was submitted (the message says what was found and what is expected)
  2  usage error, or no usable reference data (locally: check the path given to --ref)
  3  internal error of the scoring program (a bug: please report it to the organisers)"""

LOCAL_REFERENCE_HELP = (
    "No usable reference data at the path given to --ref, nothing was scored: %s. Give the folder that "
    "holds <task>/<language>.json reference files, e.g. --ref reference_data/dev in the starting kit.")
#: The same for a competition that declares flat file names (``REFERENCE_FILE``), worded from its declaration.
NAMED_REFERENCE_HELP = (
    "No usable reference data at the path given to --ref, nothing was scored: %s. Give the folder that "
    "holds the reference files, named %s (e.g. %s), such as --ref reference_data/%s/dev as the kit builds it.")


def reference_pattern(competition):
    """The declared reference file name pattern in words: ``<task>_<language>.conll``."""
    return competition.REFERENCE_FILE.replace("{task}", "<task>").replace("{lang}", "<language>")


def local_reference_help(competition, error):
    """The local "no usable reference" message, worded from the competition's declaration."""
    if not getattr(competition, "REFERENCE_FILE", None):
        return LOCAL_REFERENCE_HELP % error
    task = competition.TASKS[0]
    example = competition.REFERENCE_FILE.format(task=task.key, lang=task.languages[0])
    return NAMED_REFERENCE_HELP % (error, reference_pattern(competition), example, competition.COMPETITION_ID)


PLATFORM_REFERENCE_HELP = ("The reference data is broken, nothing was scored: %s. This is the organisers' "
                           "side: please tell them.")


def parse_args(argv, competition=None):
    """Parse either form of the command line into (ref_dir, submission, out_dir, quiet, platform)."""
    parser = argparse.ArgumentParser(prog="evaluate.py", description=__doc__.split("\n\n")[0], epilog=EXIT_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", metavar="INPUT OUTPUT",
                        help="platform form: INPUT holds ref/ and res/, OUTPUT receives the scores")
    named = competition is not None and getattr(competition, "REFERENCE_FILE", None)
    parser.add_argument("--ref", help="reference directory (%s)" % (reference_pattern(competition) if named
                                                                    else "<task>/<lang>.json"))
    parser.add_argument("--submission", help="submission zip or directory")
    parser.add_argument("--out", help="output directory (default: a new temporary directory)")
    parser.add_argument("--quiet", action="store_true", help="print only the signature and the overall score")
    args = parser.parse_args(argv)
    if args.paths and len(args.paths) == 2 and not (args.ref or args.submission):
        input_dir, out = args.paths
        return os.path.join(input_dir, "ref"), os.path.join(input_dir, "res"), out, args.quiet, True
    if not args.paths and args.ref and args.submission:
        return args.ref, args.submission, args.out or tempfile.mkdtemp(prefix="scores-"), args.quiet, False
    parser.error("give either INPUT OUTPUT, or --ref DIR --submission ZIP_OR_DIR [--out DIR]")


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
    ref_dir, submission, out_dir, quiet, platform = parse_args(argv, competition)
    problem = output_problem(out_dir)
    if problem:
        return _usage_output(out_dir, problem)
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


def _tolerant_streams():
    """Let stdout and stderr write any character (as an escape when their encoding lacks it)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, io.UnsupportedOperation):
            pass


def main(competition, argv=None, render_html=None):
    """Entry point: never lets a traceback reach the participant."""
    if render_html is None:
        from .report_html import render as render_html
    _tolerant_streams()
    try:
        return run(competition, sys.argv[1:] if argv is None else argv, render_html)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug of the scorer: report it briefly, never a traceback
        sys.stderr.write("Internal error of the scoring program (%s: %s). Your submission may be fine; "
                         "please report this to the organisers.\n" % (type(exc).__name__, printable(str(exc))))
        if os.environ.get("EVALKIT_DEBUG"):
            raise
        return 3
