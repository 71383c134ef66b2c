"""``sys.path`` for the organiser scripts of a competition under ``competitions/<id>/`` (``reference.py``,
``baselines.py``), which each script sets up first::

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
    import competition_paths  # noqa: E402
    competition_paths.setup(__file__)

The kit's scoring program (``evalkit``) goes first; the competition's folder and its starting kit are
appended (their module names carry the competition's id, so they shadow nothing). The top-level competition
(ST2024), whose builders sit in ``competitions/<id>/`` while its bundle source is the repository's top level, has
its starting kit at the top level (``starting_kit/``). Each folder is added once, and ``competitions/`` itself is
taken off again.
"""
import os
import sys

COMPETITIONS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(COMPETITIONS)


def setup(script):
    """Put ``scoring_program/`` first on ``sys.path`` and the folder of ``script`` and its starting kit last."""
    while COMPETITIONS in sys.path:
        sys.path.remove(COMPETITIONS)
    if os.path.join(ROOT, "scoring_program") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
    folder = os.path.dirname(os.path.abspath(script))
    kit = os.path.join(folder, "starting_kit")
    if not os.path.isdir(kit):   # the top-level competition: its kit is the repository's starting_kit/
        kit = os.path.join(ROOT, "starting_kit")
    for path in (folder, kit):
        if path not in sys.path:
            sys.path.append(path)
