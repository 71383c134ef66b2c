"""``python -m organiser <command> [options]``: one entry point for the organiser tooling."""
import importlib
import sys

COMMANDS = {
    "reference": ("organiser.reference", "build reference data and the data-quality report"),
    "bundle": ("organiser.bundle", "build the competition bundles, pages and starting kit zip"),
    "check": ("organiser.check", "validate bundles and simulate the CodaLab and Codabench workers"),
    "baselines": ("organiser.baselines", "train, predict and score the baseline submissions"),
    "summary": ("organiser.summary", "print where everything built by `make` is"),
    "results": ("organiser.results", "re-score the official submissions, rank with confidence intervals"),
}


def main(argv=None):
    """Dispatch to the command's module ``main(argv)``; return its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m organiser {%s} [options]" % ",".join(COMMANDS))
        for name, (_, text) in COMMANDS.items():
            print("  %-10s %s" % (name, text))
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
