"""SpanglishEval organiser side: rebuilds the evaluation sets by the paper's recipe, runs the baselines.

Organiser tooling (may use the pinned requirements); the scoring side is ``scoring_program/evalkit/choice.py``.
``python -m competitions.spanglisheval.build --data ../shared/spanglisheval --out DIR`` builds the sets;
``python -m competitions.spanglisheval.baselines --data ../shared/spanglisheval --sets DIR`` scores the baselines.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCORING_PROGRAM = os.path.join(ROOT, "scoring_program")
if SCORING_PROGRAM not in sys.path:
    sys.path.insert(0, SCORING_PROGRAM)
