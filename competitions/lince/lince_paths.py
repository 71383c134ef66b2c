"""``sys.path`` for LinCE's organiser scripts (``reference.py``, ``baselines.py``), imported first by each.

The kit's scoring program (``evalkit``) goes first; this folder and the starting kit are appended (their
module names are all ``lince*``, so they shadow nothing). Each folder is added once.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def setup():
    """Put ``scoring_program/`` first on ``sys.path`` and LinCE's folder and starting kit last (once each)."""
    if os.path.join(ROOT, "scoring_program") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
    for path in (HERE, os.path.join(HERE, "starting_kit")):
        if path not in sys.path:
            sys.path.append(path)


setup()
