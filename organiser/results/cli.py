"""``python -m organiser results --reference DIR --submissions [SUBTASK=]PATH --out DIR``.

Re-scores every team's official submission of a phase with the scoring program, ranks the teams with
paired-bootstrap confidence intervals and writes the tables and figures of the findings paper under
``--out``: ranking.csv, results.json, results.md, results.tex, results.html, figures/*.svg.
"""
import argparse
import os
import sys
import time

from organiser import ROOT, declarations, feedback
from evalkit.messages import MAX_TEXT_CHARS, DataError, printable

from . import compute, layouts, render
from .bootstrap import BootstrapError
from .rescoring import MEMORY_LIMIT_MB, TIME_LIMIT, RescoreError



def parse_args(argv):
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m organiser results", description=__doc__.split("\n\n")[1])
    parser.add_argument("--reference", required=True, help="reference folder of the phase (<task>/<lang>.json)")
    parser.add_argument("--submissions", required=True, action="append", metavar="[SUBTASK=]PATH",
                        help="a download of the phase's submissions (legacy CodaLab or Codabench zip, the folder "
                             "`python -m organiser codabench pull` wrote, or a <team>/<name>.zip folder); SUBTASK= "
                             "says which subtask (default: the first declared); repeat for several subtasks")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--competition", default=declarations.top_level_id(),
                        help="the id of a hosted competition (default: the top-level one, %(default)s)")
    parser.add_argument("--official", choices=compute.RULES, default="last",
                        help="official submission of a team: the last (default: the bundles' rule, Codabench's "
                             "Force_Last and CodaLab's force_submission_to_leaderboard) or the best")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default %(default)s; 0: no "
                        "bootstrap, teams ranked by their scores alone, without intervals or tests)")
    parser.add_argument("--seed", type=int, default=12345, help="bootstrap seed (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="scoring processes (default: cores)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                        help="a submission whose scoring takes longer is stopped and listed as failed "
                             "(default %(default)g)")
    parser.add_argument("--memory-limit", type=int, default=MEMORY_LIMIT_MB, metavar="MB",
                        help="a submission whose scoring needs more memory is stopped and listed as failed "
                             "(default %(default)d; 0: no limit)")
    parser.add_argument("--baselines", default=os.path.join(ROOT, "dist", "submissions"),
                        help="folder of the kit's baseline zips <system>-<subtask>-<split>.zip (default %(default)s)")
    parser.add_argument("--no-baselines", action="store_true", help="leave the baselines out")
    parser.add_argument("--public-reference", help="the reference the platform's test phase scored (its public part, "
                        "REF/test): each team's official submission is scored on it too and the results show its "
                        "public rank beside its final rank (mode public_private only)")
    parser.add_argument("--phase", help="phase of the reference (dev or test; default: the reference folder's name)")
    parser.add_argument("--teams", help="CSV with columns user,team: team names for user names")
    parser.add_argument("--metadata", help="Codabench's submissions CSV (id, owner, status, created_when...)")
    parser.add_argument("--phase-id", type=int, help="Codabench phase id to keep when a download mixes phases")
    args = parser.parse_args(argv)
    if args.resamples != 0 and args.resamples < 10:
        parser.error("--resamples must be 0 (no bootstrap) or at least 10, got %d" % args.resamples)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1, got %d" % args.jobs)
    if args.time_limit <= 0 or args.memory_limit < 0:
        parser.error("--time-limit must be positive and --memory-limit at least 0")
    return args


def split_submissions(values, subtask_names):
    """``[(subtask, path)]`` from ``[SUBTASK=]PATH`` values; a bare path is the first declared subtask."""
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        if sep and name in subtask_names:
            pairs.append((name, path))
        elif sep and not os.path.exists(value):
            raise DataError(value, "", "unknown subtask %r before '=': expected one of %s"
                            % (name, ", ".join(subtask_names)))
        else:
            pairs.append((subtask_names[0], value))
    return pairs


def feedback_options(reference, public_reference):
    """What the results say of the test feedback (issue 23): ``ranked_on`` (the part ranked: "private part: N of M
    sentences", "whole test set") and, when the public reference is a public/private split's public part,
    ``public_reference`` and ``public_part``. A public reference in another mode (blind: no gold; full: the same
    gold) gives no public rank, said on stderr."""
    ranked = feedback.read_split(reference)
    if ranked is not None and ranked.get("part") in ("public", "none"):   # what the platform scored: never the ranking
        private = os.path.join(os.path.dirname(os.path.abspath(os.path.normpath(reference))), feedback.PRIVATE_FOLDER,
                               os.path.basename(os.path.normpath(reference)))
        raise DataError(reference, feedback.SPLIT_FILE, "this is the %s that the platform scored (mode %s), not the "
                        "gold kept apart for the final ranking: rank on %s (%s). Get it back by rebuilding the "
                        "reference on the machine that keeps the split state (`make reference TEST_GOLD=<test gold>` "
                        "with splits/<id>.json in place: the same items stay private) or by copying that folder "
                        "from it" % ("public part" if ranked["part"] == "public" else "blind part (no gold)",
                                     feedback.mode_of(ranked), private,
                                     "it exists" if os.path.isdir(private) else "it is missing here"))
    options = {"ranked_on": _part_words(ranked)}
    if not public_reference:
        return options
    public = feedback.read_split(public_reference)
    if feedback.mode_of(public) != feedback.PUBLIC_PRIVATE:
        log("results: %s is in mode %s: no public rank to show (it is not a public part)"
            % (public_reference, feedback.mode_of(public)))
        return options
    if ranked is None or ranked.get("part") != "private":
        raise DataError(reference, feedback.SPLIT_FILE, "the public part %s is given but this reference is not the "
                        "private part of the same split (rank on REF/private/test)" % public_reference)
    if ranked.get("seed_digest") != public.get("seed_digest"):
        raise DataError(reference, feedback.SPLIT_FILE, "the public part %s was drawn with another seed (its "
                        "seed_digest differs): rebuild both with the same split" % public_reference)
    options.update({"public_reference": public_reference, "public_part": feedback.public_part_text(public)})
    return options


def _part_words(split):
    """What a ranking reference scores, in words."""
    if split is None or split.get("part") in ("all", None):
        return "the whole test set" if split is not None else "every item of the reference"
    scored, items, unit = feedback.part_sizes(split)
    return "%s part: %d of %d %s" % (split["part"], scored, items, unit)


def log(text):
    """Progress on stderr (stdout stays for the summary)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def run(args):
    """Read the downloads, compute and write everything; return the results dict."""
    competition = declarations.load(args.competition)
    ranked_on = feedback_options(args.reference, args.public_reference)   # the reference first: no ranking on a part
    names = [name for name, _ in compute.subtasks_of(competition)]
    teams = layouts.read_teams(args.teams) if args.teams else None
    downloads = [(name, layouts.read_download(path, teams, args.metadata, args.phase_id))
                 for name, path in split_submissions(args.submissions, names)]
    phase = args.phase or os.path.basename(os.path.normpath(args.reference))   # REF/private/test: test
    os.makedirs(args.out, exist_ok=True)       # its scratch folders are inside it, removed when done
    options = {"rule": args.official, "resamples": args.resamples, "seed": args.seed, "workers": args.jobs,
               "time_limit": args.time_limit, "memory_limit": args.memory_limit << 20, "scratch": args.out,
               "baselines": None if args.no_baselines else args.baselines, "split": declarations.wording(args.competition)["phase_splits"].get(phase),
               "phase": phase}
    options.update(ranked_on)
    results = compute.compute(competition, args.competition, args.reference, downloads, options, log)
    render.write_all(results, args.out)
    return results


def main(argv=None):
    """Entry point; exit status 0 done, 2 bad input (the message names the file and what was expected),
    3 an internal error (a bug: said in one line, never a traceback)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    started = time.time()
    try:
        results = run(args)
    except (DataError, RescoreError, BootstrapError) as err:
        log("results: %s" % printable(str(err), MAX_TEXT_CHARS))
        return 2
    except OSError as err:
        log("results: %s" % printable(str(err), MAX_TEXT_CHARS))
        return 2
    except Exception as err:  # a bug of the tool: one line, never a traceback
        if os.environ.get("EVALKIT_DEBUG"):
            raise
        log("results: internal error (%s: %s); please report it" % (type(err).__name__, printable(str(err))))
        return 3
    for sub in results["subtasks"]:
        log("results: %s: %d team(s) ranked, %d baseline(s), %d submission(s) scored"
            % (sub["name"], sum(not r["baseline"] for r in sub["rows"]), sum(r["baseline"] for r in sub["rows"]),
               sub["scored_submissions"]))
    if results["failures"]:
        log("results: %d submission(s) failed or were not scored: listed in results.md" % len(results["failures"]))
    if results["warnings"]:
        log("results: %d warning(s) about names that could be confused: listed in results.md"
            % len(results["warnings"]))
    log("results: written to %s in %.1f s" % (os.path.abspath(args.out), time.time() - started))
    return 0
