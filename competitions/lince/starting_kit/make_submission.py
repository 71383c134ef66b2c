#!/usr/bin/env python3
"""Train a LinCE baseline on each dataset's train split and write a submission zip for a split.

    python3 make_submission.py --data LINCE_DIR --split dev|test [--system baseline|floor] --out sub.zip

For every dataset present in ``LINCE_DIR`` (``lid_spaeng/train.conll`` and ``<split>.conll``) it writes
``lid_spa_eng.txt``, ... : one label per token line and a blank line after each sentence, aligned with
the split file (SA: one label per line, one line per sentence). Datasets without a train or split file
are skipped (and said so); when none has both, no zip is written and the exit status is 2 (the folder
given to ``--data``, or a zip given in its place, is said). Standard library only, Python 3.7 or newer.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lince_data  # noqa: E402
from lince_baselines import make  # noqa: E402


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--system", default="baseline", choices=("baseline", "floor"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--scorer", help="folder holding lince.py")
    args = parser.parse_args(argv)
    found = lince_data.find_program(args.scorer)
    if not found:
        sys.stderr.write("lince.py was not found; give --scorer DIR.\n")
        return 2
    lince = lince_data.load_program(found)[0]
    if os.path.dirname(args.out):
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
    done = make(lince, args.data, args.split, args.system, args.out)
    for ident, what in done:
        print("%s: %s" % (ident, what))
    if all(what.startswith("skipped") for _, what in done):   # an empty zip would score nothing: none is left
        os.remove(args.out)
        sys.stderr.write(lince_data.no_data_message(args.data, args.split))
        return 2
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
