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
import importlib.util
import os
import sys

COMPETITIONS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(COMPETITIONS)


def kit_folder(script):
    """The starting kit of the competition whose builders folder holds ``script``: ``<folder>/starting_kit``, or
    the repository's ``starting_kit/`` for the top-level competition."""
    kit = os.path.join(os.path.dirname(os.path.abspath(script)), "starting_kit")
    return kit if os.path.isdir(kit) else os.path.join(ROOT, "starting_kit")


def kit_module(script, name):
    """The starting kit's module ``name`` (``validate``, ``make_submission``) of the competition whose builders folder
    holds ``script``, loaded from its path under a name of its own: every kit has a ``validate.py``, and a process
    that builds several competitions must not take one kit's for another's."""
    folder = os.path.dirname(os.path.abspath(script))
    spec = importlib.util.spec_from_file_location("%s_kit_%s" % (os.path.basename(folder), name),
                                                  os.path.join(kit_folder(script), name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup(script):
    """Put ``scoring_program/`` first on ``sys.path`` and the folder of ``script`` and its starting kit last."""
    while COMPETITIONS in sys.path:
        sys.path.remove(COMPETITIONS)
    if os.path.join(ROOT, "scoring_program") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
    folder = os.path.dirname(os.path.abspath(script))
    for path in (folder, kit_folder(script)):
        if path not in sys.path:
            sys.path.append(path)
