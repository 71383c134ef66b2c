"""``python -m organiser <command> [--competition ID] [options]``: one entry point for the organiser tooling, for
every hosted competition (default: the top-level one)."""
import importlib
import sys

COMMANDS = {
    "reference": ("organiser.builders:reference_main", "a competition's reference data (its reference builder)"),
    "baselines": ("organiser.builders:baselines_main", "a competition's baseline submissions (its baselines builder)"),
    "bundle": ("organiser.bundle", "build the competition bundles, pages and starting kit zip"),
    "check": ("organiser.check", "validate bundles, audit them for leaks, simulate the CodaLab and Codabench workers"),
    "summary": ("organiser.summary", "print where everything built by `make` is"),
    "procedure": ("organiser.procedure", "print the organisers' procedure with every competition's section"),
    "docs": ("organiser.documents", "regenerate docs/organisers.md; write dist/organisers.md, dist/competitions.md"),
    "new": ("organiser.skeleton", "write competitions/<id>/, a new competition that builds and checks at once"),
    "results": ("organiser.results", "re-score the official submissions, rank with confidence intervals"),
    "codabench": ("organiser.codabench", "the competition on Codabench: upload, publish, participants, phases, "
                  "reference, open-test, pull, leaderboard"),
}


def main(argv=None):
    """Dispatch to the command's module ``main(argv)``; return its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m organiser {%s} [options]" % ",".join(COMMANDS))
        for name, (_, text) in COMMANDS.items():
            print("  %-10s %s" % (name, text))
        return 2
    module_name, _, function = COMMANDS[argv[0]][0].partition(":")
    module = importlib.import_module(module_name)
    from evalkit.kindspec import KindError
    try:
        return getattr(module, function or "main")(argv[1:])
    except KindError as err:   # a competition's own kind that lacks a part, or whose name is taken
        sys.stderr.write("python -m organiser %s: %s\n" % (argv[0], err))
        return 2


if __name__ == "__main__":
    sys.exit(main())
