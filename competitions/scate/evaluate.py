#!/usr/bin/env python3
"""Scoring program of SCATE time normalisation: the kit's evalkit with its declaration (``scate.py``).

On CodaLab / Codabench: ``python3 evaluate.py INPUT OUTPUT`` (reference in INPUT/ref, submission in
INPUT/res). Locally: ``python3 evaluate.py --ref REFERENCE_DIR --submission my_submission.zip [--out DIR]``.
``evalkit`` is found beside this file (in a bundle) or in the repository's ``scoring_program/``.
Standard library only; Python 3.7 or newer.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for _folder in (HERE, os.path.join(HERE, os.pardir, os.pardir, "scoring_program")):
    if os.path.isdir(os.path.join(_folder, "evalkit")):
        sys.path.insert(0, os.path.abspath(_folder))
        break

from evalkit.entry import require_python  # noqa: E402  (old syntax: it runs on any Python)
require_python("evaluate.py")             # a plain message and exit status 2 before Python 3.7

from evalkit.cli import main_beside  # noqa: E402  (the declaration beside this file: the competition's facts)

if __name__ == "__main__":
    sys.exit(main_beside(__file__))
