#!/usr/bin/env python3
"""Scoring program of the SIGTYP 2024 shared task (ST2024).

On CodaLab / Codabench: ``python3 evaluate.py INPUT OUTPUT`` (reference in INPUT/ref, submission in
INPUT/res; writes OUTPUT/scores.txt, scores.json, detailed_results.json, detailed_results.html).
Locally: ``python3 evaluate.py --ref reference_data/dev --submission my_submission.zip [--out DIR]``.
Standard library only; Python 3.7 or newer.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from evalkit.entry import require_python  # noqa: E402  (old syntax: it runs on any Python)
require_python("evaluate.py")             # a plain message and exit status 2 before Python 3.7

import st2024  # noqa: E402  (the competition's facts)
from evalkit.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(st2024))
