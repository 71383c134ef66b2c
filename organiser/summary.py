"""``python -m organiser summary --out dist``: where everything `make` built is, and what is missing.

It only looks at files (it builds nothing): the bundles, reference data and zips, the starting kit,
the baseline submissions and score table, the data-quality report and the pages. Each missing item is
listed with the command that builds it. Exit status 0 even when something is missing (it is a report).
"""
import argparse
import glob
import os
import sys

from organiser import bundle, declarations


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


def expected_items(hosted, out, reference):
    """``[(section, label, path, how to build it, required)]`` for everything `make` builds for ``hosted``."""
    make = "make" if hosted.top_level else "make COMPETITION=%s" % hosted.cid
    items = []
    for subtask in hosted.subtasks():
        stem = hosted.stem(subtask)
        items.append(("Bundles (upload these)", "%s bundle for CodaLab" % subtask,
                      os.path.join(out, "bundles", stem + ".zip"), make, True))
        items.append(("Bundles (upload these)", "%s bundle for Codabench" % subtask,
                      os.path.join(out, "bundles", stem + bundle.CODABENCH_SUFFIX + ".zip"), make, True))
        items.append(("Test phase pieces (docs/organisers.md)", "%s test input (release it when the test phase "
                      "opens)" % subtask, os.path.join(out, "public_data", "%s-test.zip" % subtask), make, False))
    for phase, required in (("dev", True), ("test", False)):
        items.append(("Reference data", "%s/%s" % (os.path.basename(reference.rstrip("/")), phase),
                      os.path.join(reference, phase), make if required else make + " TEST_GOLD=<test gold>",
                      required))
        for subtask in hosted.subtasks():
            items.append(("Reference data", "%s %s zip" % (subtask, phase),
                          os.path.join(out, "reference", "%s-%s.zip" % (subtask, phase)), make, required))
    for subtask in hosted.subtasks():
        for extra in declarations.extra_phases(subtask, hosted.cid):
            items.append(("Reference data", "%s %s zip" % (subtask, extra["name"]),
                          os.path.join(out, "reference", "%s-%s.zip" % (subtask, extra["name"])), make, True))
    items.append(("Starting kit", "starting kit zip", os.path.join(out, "starting_kit.zip"), make, True))
    items.append(("Baseline submissions", "baseline and floor submissions", os.path.join(out, "submissions"),
                  make + " baselines", True))
    items.append(("Reports", "baseline scores table (Markdown)", os.path.join(out, "baselines", "table.md"),
                  make + " baselines", True))
    items.append(("Reports", "data report", os.path.join(out, "data_quality.md"), make + " reference", True))
    for subtask in hosted.subtasks():
        items.append(("Reports", "%s pages" % subtask, os.path.join(out, "pages", subtask), make, True))
    return items


def summarise(out, reference, stream=sys.stdout, cid=None):
    """Print the report; return the list of missing required items."""
    hosted = declarations.Hosted(cid)
    missing, optional = [], []
    section = None
    for name, label, path, how, required in expected_items(hosted, out, reference):
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
    manifest = bundle.read_manifest(out) or {}
    if manifest.get("test_state") == "pending" or not os.path.isdir(os.path.join(reference, "test")):
        print("NOTE: no test gold, so the test phase of the bundles has a placeholder reference: build the test "
              "references (TEST_GOLD=<test gold>) and upload them as docs/organisers.md says, before the test "
              "phase opens.", file=stream)
    elif manifest.get("test_state") == "practice":
        print("NOTE: the test gold is public (%s): the test phase is a PRACTICE phase. Build the real one with "
              "TEST_GOLD=<hidden test gold>." % manifest.get("practice_reason"), file=stream)
    inputs = sorted(glob.glob(os.path.join(out, "public_data", "*-test.zip")))
    print("NOTE: the test input (%s) is in no bundle and no starting kit: attach it to the test phase when it opens "
          "(docs/organisers.md)." % (", ".join(inputs) if inputs else os.path.join(out, "public_data",
                                                                                    "<subtask>-test.zip, not built")),
          file=stream)
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
    parser.add_argument("--competition", default=None, help="the competition's id (default: the top-level one)")
    parser.add_argument("--out", default="dist")
    parser.add_argument("--reference", default=None, help="default: the one the last build in --out names")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    reference = args.reference or (bundle.read_manifest(args.out) or {}).get("reference") or "reference_data"
    summarise(args.out, reference, cid=args.competition)
    return 0


if __name__ == "__main__":
    sys.exit(main())
