"""``python -m organiser summary --out dist``: where everything `make` built is, and what is missing.

It only looks at files (it builds nothing): the bundles, reference data and zips, the starting kit,
the baseline submissions and score table, the data-quality report and the pages. Each missing item is
listed with the command that builds it. Exit status 0 even when something is missing (it is a report).
"""
import argparse
import os
import sys

from organiser import ROOT, declarations  # noqa: F401  (ROOT puts the scoring program on sys.path)

#: The declaration of the competition this summary is for (the top-level one; see organiser.declarations).
DECLARATION = declarations.load()
PREFIX = DECLARATION.COMPETITION_ID


def _size(path):
    """Human-readable size of a file, or the number of files under a folder."""
    if os.path.isdir(path):
        count = sum(len(files) for _, _, files in os.walk(path))
        return "%d files" % count
    size = os.path.getsize(path)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return ("%d %s" % (size, unit)) if unit == "B" else ("%.1f %s" % (size, unit))
        size /= 1024.0
    return ""


def expected_items(out, reference):
    """``[(section, label, path, how to build it, required)]`` for everything `make` builds."""
    items = []
    for subtask in DECLARATION.SUBTASKS:
        items.append(("Bundles (upload these)", "%s bundle for CodaLab" % subtask,
                      os.path.join(out, "bundles", "%s-%s.zip" % (PREFIX, subtask)), "make bundle", True))
        items.append(("Bundles (upload these)", "%s bundle for Codabench" % subtask,
                      os.path.join(out, "bundles", "%s-%s-codabench.zip" % (PREFIX, subtask)), "make bundle", True))
        items.append(("Test phase pieces (docs/organisers.md)", "%s public test data" % subtask,
                      os.path.join(out, "public_data", "%s-test.zip" % subtask), "make bundle", False))
    for phase, required in (("dev", True), ("test", False)):
        items.append(("Reference data", "reference_data/%s" % phase, os.path.join(reference, phase),
                      "make reference" if required else "make reference TEST_GOLD=<test gold>", required))
        for subtask in DECLARATION.SUBTASKS:
            items.append(("Reference data", "%s %s zip" % (subtask, phase),
                          os.path.join(out, "reference", "%s-%s.zip" % (subtask, phase)), "make bundle", required))
    for subtask in DECLARATION.SUBTASKS:
        for extra in declarations.extra_phases(subtask):
            items.append(("Reference data", "%s %s zip" % (subtask, extra["name"]),
                          os.path.join(out, "reference", "%s-%s.zip" % (subtask, extra["name"])), "make bundle", True))
    items.append(("Starting kit", "starting kit zip", os.path.join(out, "starting_kit.zip"), "make bundle", True))
    for subtask in DECLARATION.SUBTASKS:
        splits = declarations.wording()["phase_splits"]
        for split, required in ((splits.get("dev", "dev"), True), (splits.get("test", "test"), False)):
            items.append(("Baseline submissions", "%s %s" % (subtask, split),
                          os.path.join(out, "submissions", "baseline-%s-%s.zip" % (subtask, split)),
                          "make baselines", required))
    items.append(("Reports", "baseline scores table (Markdown)", os.path.join(out, "baselines", "table.md"),
                  "make baselines", True))
    items.append(("Reports", "baseline scores table (HTML)", os.path.join(out, "baselines", "table.html"),
                  "make baselines", True))
    items.append(("Reports", "data-quality report", os.path.join(out, "data_quality.md"), "make reference", True))
    for subtask in DECLARATION.SUBTASKS:
        items.append(("Reports", "%s pages" % subtask, os.path.join(out, "pages", subtask), "make bundle", True))
    return items


def summarise(out, reference, stream=sys.stdout):
    """Print the report; return the list of missing required items."""
    missing, optional = [], []
    section = None
    for name, label, path, how, required in expected_items(out, reference):
        if name != section:
            print("\n%s" % name, file=stream)
            section = name
        if os.path.exists(path):
            print("  %-36s %s  (%s)" % (label, path, _size(path)), file=stream)
        else:
            print("  %-36s MISSING  %s  -> %s" % (label, path, how), file=stream)
            (missing if required else optional).append((label, path, how))
    table = os.path.join(out, "baselines", "table.md")
    if os.path.isfile(table):
        with open(table, encoding="utf-8") as handle:
            print("\nBaseline scores (%s)\n%s" % (table, handle.read().rstrip()), file=stream)
    print("", file=stream)
    if not os.path.isdir(os.path.join(reference, "test")):
        print("NOTE: no test gold, so the test phase of the bundles has a placeholder reference: build the test "
              "references (make reference TEST_GOLD=<release layout with test gold>, then make bundle) and upload "
              "them as docs/organisers.md says, before the test phase opens.", file=stream)
    if missing:
        print("Missing: %d item(s): %s" % (len(missing), "; ".join("%s (%s)" % (l, h) for l, _, h in missing)),
              file=stream)
    else:
        print("Everything `make` builds is there%s." % (
            " (%d optional test-phase item(s) missing)" % len(optional) if optional else ""), file=stream)
    return missing


def main(argv=None):
    """Print where everything is; always exit 0."""
    parser = argparse.ArgumentParser(prog="python -m organiser summary", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="dist")
    parser.add_argument("--reference", default="reference_data")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    summarise(args.out, args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
