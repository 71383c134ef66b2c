"""The organisers' tooling of the competition kit, the same road for every hosted competition (the top-level one and
each of ``competitions/<id>/``): references and the test gold's split, baselines, bundles and pages, checks and the
leak audit, the final results, a new competition's skeleton (``python -m organiser <command> [--competition ID]``).

It is machinery: it names no competition, and takes every per-competition fact from the declarations
(:mod:`organiser.declarations`) and every per-kind fact from the kinds (``evalkit.kindspec``). Unlike the scoring
program, it may use the pinned third-party requirements (``requirements.txt``: PyYAML, pandas, numpy, ...).
Its modules import downwards only (declarations, schedule, split, feedback, pages, procedure, bundle, audit, check):
no import circle.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORING_PROGRAM = os.path.join(ROOT, "scoring_program")
STARTING_KIT = os.path.join(ROOT, "starting_kit")   # its readers and baselines are shared, not copied
for _path in (STARTING_KIT, SCORING_PROGRAM):
    if _path not in sys.path:
        sys.path.insert(0, _path)
