"""``python -m organiser docs [--check] [--out DIST]``: the documents generated from the declarations, so that no
new competition folder makes a tracked file stale.

- ``docs/organisers.md`` (tracked): the generic procedure (organiser.procedure.tracked_document), which names no
  competition; written again when it differs (``--check``: only said, exit status 1, with the fix: ``make docs``).
- ``DIST/organisers.md`` (built): the procedure with every hosted competition's section.
- ``DIST/competitions.md`` (built): the table of every hosted competition (title, folder, scoring entry point),
  found from the declarations (organiser.declarations.hosted_ids).

Plain ``make`` runs it (``make docs``).
"""
import argparse
import os
import sys

from organiser import ROOT, declarations, procedure

TRACKED = os.path.join(ROOT, "docs", "organisers.md")


def competitions_table():
    """The Markdown table of every hosted competition, from the declarations."""
    rows = ["| competition | where | scoring entry point |", "|---|---|---|"]
    for cid in declarations.hosted_ids():
        hosted = declarations.Hosted(cid)
        folder = os.path.relpath(hosted.folder, ROOT)
        where = "top level (`competition.yaml`, `scoring_program/`)" if hosted.top_level else \
            "`%s/` (see its README)" % folder
        rows.append("| %s (`%s`) | %s | `%s` |" % (" ".join(hosted.declaration.TITLE.split()).replace("|", "\\|"),
                                                   cid, where, os.path.relpath(os.path.join(hosted.program,
                                                                                            "evaluate.py"), ROOT)))
    return "\n".join(rows) + "\n"


def stale(path, text):
    """Whether the file at ``path`` differs from ``text`` (or is absent)."""
    if not os.path.isfile(path):
        return True
    with open(path, encoding="utf-8") as handle:
        return handle.read() != text


def write(path, text):
    """Write ``text`` to ``path`` (its folder created)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def main(argv=None):
    """Command line; exit status 0, or 1 when ``--check`` finds the tracked document stale."""
    parser = argparse.ArgumentParser(prog="python -m organiser docs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/organisers.md is stale")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"), help="where the built documents go")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    tracked = procedure.tracked_document()
    if args.check:
        if stale(TRACKED, tracked):
            print("docs/organisers.md is stale (organiser/procedure.py changed): run `make docs` and commit it")
            return 1
        print("docs/organisers.md is up to date")
        return 0
    if stale(TRACKED, tracked):
        write(TRACKED, tracked)
        print("docs/organisers.md regenerated (organiser/procedure.py changed): commit it")
    write(os.path.join(args.out, "organisers.md"), procedure.document())
    write(os.path.join(args.out, "competitions.md"), competitions_table())
    print("%s: every competition's procedure; %s: the table of competitions"
          % (os.path.join(args.out, "organisers.md"), os.path.join(args.out, "competitions.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
