"""A competition's own builders, run through one entry point for every hosted competition.

``python -m organiser reference --competition ID --data DIR [--test-gold DIR] --out REF [--report FILE]`` and
``python -m organiser baselines --competition ID --data DIR --reference REF --out OUT`` run ``reference.py`` and
``baselines.py`` of the competition's builders folder (``competitions/<id>/``, organiser.declarations.Hosted), each
through its ``main(argv)`` with exactly these options, so ``make`` drives every competition the same way. What
they must write is the contract of organiser/bundle.py:

- reference: ``REF/<phase>/`` for ``dev`` and, when the test gold exists, ``test`` (the declaration's reference
  files); ``REF/public/<phase>/`` (or ``REF/public/<phase>/<subtask>/``): the files participants get for the phase
  (the development phase's go into the starting kit, the test phase's input is written apart and released when the
  test phase opens); optionally ``REF/statistics.md`` (shown on the pages) and ``REF/public_gold.json``
  (``{phase: why its gold is public}``: that phase becomes a labelled practice phase);
- baselines: ``OUT/baselines/table.md`` (the starting kit's README and, unless ``OUT/baselines/table-<subtask>.html``
  exists, the pages) and ``OUT/submissions/*.zip`` (what ``make check`` submits to each phase).

After the reference builder, every phase folder gets its ``phase.json`` (organiser.bundle.stamp_phases): the
development phase's reports may show everything (its gold is in the starting kit), a test phase's keep its gold
hidden, so local runs of the scoring program on these folders report as the platform will.
"""
import argparse
import os
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
    known, rest = parser.parse_known_args(argv)
    hosted = declarations.Hosted(known.competition)
    status = load_builder(hosted, command).main(rest)
    if command == "reference" and not status:
        reads_out = argparse.ArgumentParser(add_help=False)   # the builder's own --out, read as it read it
        reads_out.add_argument("--out")
        out = reads_out.parse_known_args(rest)[0].out
        if out and os.path.isdir(out):
            from organiser import bundle
            for phase, hidden in sorted(bundle.stamp_phases(out, hosted).items()):
                print("%s: %s/%s (%s)" % (bundle.PHASE_FILE, out, phase,
                                          "gold hidden: scores and format messages only" if hidden
                                          else "gold public: full reports"))
    return status or 0


def reference_main(argv=None):
    """``python -m organiser reference``."""
    return run("reference", sys.argv[1:] if argv is None else argv)


def baselines_main(argv=None):
    """``python -m organiser baselines``."""
    return run("baselines", sys.argv[1:] if argv is None else argv)
