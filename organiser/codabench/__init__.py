"""``python -m organiser codabench <command>``: the organiser's whole competition on Codabench from the command line,
over Codabench's REST API (any instance: ``--base-url``, default ``$CODABENCH_URL`` or the public one).

Commands: ``login`` (the account's token into a file readable by you only), ``upload`` (a built bundle, then its
unpacking), ``publish``, ``participants`` (list, ``--approve``/``--deny`` the pending ones, ``--match``),
``phases``, ``reference`` (replace a phase's reference data by a rebuilt zip, the public/private split kept),
``open-test`` (attach the test input when the test phase opens), ``connect`` (each team's newest submission onto
a leaderboard whose rule is not automatic: v1.5 bundles), ``pull`` (each team's submission that counts, with a
manifest: the folder ``make results SUBMISSIONS=`` reads), ``leaderboard`` (a snapshot, JSON and CSV).

Modules: :mod:`.client` (session, token, timeouts, retries, one-line errors), :mod:`.commands`, :mod:`.pull`,
:mod:`.manifest` (what ``pull`` writes; standard library only). Exit status: 0 done, 1 refused by Codabench or the
network failed (one line on stderr saying which and why), 2 a local input is wrong (a file, an option, the token
file's permissions). docs/codabench.md lists every call, and which were recorded on a real instance.
"""
import argparse
import os
import sys

from evalkit.messages import printable

# The modules that need ``requests`` are imported by the commands only: ``make results`` reads a pulled folder
# through :mod:`.manifest` (standard library) without it.

PROG = "python -m organiser codabench"


def _common(parser, token):
    """The options of every command: the instance, the token file, timeouts and retries."""
    from .client import BASE_URL_ENV, DEFAULT_BASE_URL, READ_TIMEOUT
    parser.add_argument("--base-url", default=os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL,
                        help="the Codabench instance (default: $%s, else %s)" % (BASE_URL_ENV, DEFAULT_BASE_URL))
    parser.add_argument("--token-file", help="file holding the API token, readable by you only (default: "
                        "$CODABENCH_TOKEN when set, else $CODABENCH_TOKEN_FILE, else ~/.config/codabench/token)")
    parser.add_argument("--timeout", type=float, default=READ_TIMEOUT,
                        help="seconds to wait for an answer (default %(default)g)")
    parser.add_argument("--retries", type=int, default=4,
                        help="further attempts after a network failure or a 5xx answer (default %(default)d)")
    parser.add_argument("--backoff", type=float, default=1.0,
                        help="seconds before the first retry, doubled at each (default %(default)g)")
    parser.set_defaults(needs_token=token)


def _waits(parser, limit=120.0):
    parser.add_argument("--score-wait", type=float, default=limit,
                        help="at most this many seconds waiting for scores still arriving (default %(default)g)")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="scores that did not change for this many seconds are taken as all there are "
                             "(default %(default)g)")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between two readings (default %(default)g)")


def _command(sub, name, text, run, competition=False, phase=None, token=True):
    """A command's parser: its common options, ``--competition`` (the competition's id) when ``competition``,
    ``--phase`` (``phase``: what its help says of the phase) when given."""
    p = sub.add_parser(name, help=text)
    _common(p, token)
    if competition:
        p.add_argument("--competition", type=int, required=True, help="the competition's id (upload prints it)")
    if phase:
        p.add_argument("--phase", type=int, required=True, help="%s (`phases` lists the ids)" % phase)
    p.set_defaults(run=run)
    return p


def parser():
    """The command line of every command."""
    from . import commands, pull
    top = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = top.add_subparsers(dest="command", metavar="<command>")

    p = _command(sub, "login", "write your account's API token to the token file (readable by you only)",
                 commands.login, token=False)
    p.add_argument("--username", help="your Codabench user name (asked when not given); the password is asked "
                   "(or $CODABENCH_PASSWORD) and never written")

    p = _command(sub, "upload", "upload a built bundle and wait until Codabench has unpacked it", commands.upload)
    p.add_argument("bundle", help="the bundle zip (dist/bundles/<stem>-codabench.zip)")
    p.add_argument("--wait-limit", type=int, default=900,
                   help="seconds to wait for the unpacking (default %(default)d)")
    p.add_argument("--poll", type=float, default=2.0, help="seconds between two readings (default %(default)g)")

    p = _command(sub, "publish", "publish a competition (participants can then register)", commands.publish, True)
    p.add_argument("--unpublish", action="store_true", help="unpublish it instead")

    p = _command(sub, "participants", "list participants; --approve or --deny the pending ones listed",
                 commands.participants, True)
    p.add_argument("--status", choices=commands.PARTICIPANT_STATUSES, help="only participants of this status")
    p.add_argument("--match", help="only user names or e-mails matching this shell pattern (e.g. '*@uni.example')")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--approve", action="store_true", help="approve each pending participant listed")
    action.add_argument("--deny", action="store_true", help="deny each pending participant listed")

    p = _command(sub, "phases", "the competition's phases: ids, dates, open or closed, tasks", commands.phases, True)
    p.add_argument("--json", action="store_true", help="as JSON")

    p = _command(sub, "reference", "replace a phase's reference data by a rebuilt zip (the split kept)",
                 commands.reference, True, "the phase")
    p.add_argument("--zip", required=True, help="the rebuilt reference zip (dist/reference/<subtask>-test.zip)")
    p.add_argument("--private", default=os.path.join("reference_data", "private", "test"),
                   help="the private part kept by the build (its split.json must have the zip's seed; default "
                        "%(default)s)")
    p.add_argument("--previous", help="the reference zip the phase has now (default: read from Codabench)")
    p.add_argument("--new-draw", action="store_true", help="accept a public part drawn otherwise than the one "
                   "the phase has now")
    p.add_argument("--task", type=int, help="the task, when the phase has several")

    p = _command(sub, "open-test", "attach the test input to the test phase when it opens", commands.open_test,
                 True, "the test phase")
    p.add_argument("--zip", required=True, help="the test input (dist/public_data/<subtask>-test.zip)")
    p.add_argument("--wait", action="store_true", help="wait for the phase's opening, then attach it")

    _command(sub, "connect", "put each team's newest finished submission on the phase's leaderboard (phases whose "
             "rule is not automatic: v1.5 bundles)", commands.connect, phase="the phase")

    p = _command(sub, "pull", "download each team's submission that counts, with a manifest", pull.pull,
                 phase="the phase")
    p.add_argument("--out", required=True, help="folder of <team>/<id>_<name>.zip and codabench-manifest.json")
    p.add_argument("--rule", choices=("auto", "last"), default="auto",
                   help="the submission that counts: auto (default): the one on the leaderboard, else the team's "
                        "newest finished one; last: the newest finished one")
    p.add_argument("--all", action="store_true", help="every finished submission, not only the one that counts "
                   "(for `make results RESULTS_OPTIONS=--official=best`)")
    p.add_argument("--exclude", action="append", metavar="USER", help="leave out this account's submissions "
                   "(e.g. the organiser's own test submission); repeatable")
    _waits(p)

    p = _command(sub, "leaderboard", "a snapshot of a phase's leaderboard (JSON and CSV, with its time)",
                 pull.leaderboard, phase="the phase")
    p.add_argument("--out", default=os.path.join("dist", "results", "leaderboards"),
                   help="folder of the snapshots (default %(default)s)")
    _waits(p, 60.0)
    return top


def main(argv=None):
    """Entry point: parse, run the command, say a failure in one line (never a traceback, never the token)."""
    from .client import Client, CodabenchError, read_token
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    client = None
    try:
        token = read_token(args.token_file, required=args.needs_token) if args.needs_token else None
        client = Client(args.base_url, token, timeout=args.timeout, retries=args.retries, backoff=args.backoff)
        return args.run(args, client, _stdout)
    except CodabenchError as error:
        _stderr("codabench %s: %s" % (args.command, printable(str(error), 1000)))
        return error.status
    except OSError as error:
        text = "%s: %s" % (type(error).__name__, getattr(error, "strerror", None) or error)
        _stderr("codabench %s: %s" % (args.command, printable(client.sanitise(text) if client else text, 1000)))
        return 2
    except KeyboardInterrupt:
        _stderr("codabench %s: interrupted" % args.command)
        return 130
    except Exception as error:  # a bug of the tool: one line, never a traceback (and never the token)
        if os.environ.get("EVALKIT_DEBUG"):
            raise
        text = "%s: %s" % (type(error).__name__, error)
        _stderr("codabench %s: internal error (%s); please report it" % (
            args.command, client.sanitise(text) if client else printable(text, 300)))
        return 3


def _stdout(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _stderr(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
