"""A split test reference for the organiser side's tests (issue 23): ``ref/test/`` split in place by the split's
own :func:`organiser.split.split_phase` (a fixed seed), ``ref/private/test/`` beside it."""
import os

from organiser import feedback, split

SEED = "organiser-side tests"


def split_reference(ref, decl, mode=feedback.PUBLIC_PRIVATE, phase="test", fraction=0.3):
    """Split ``ref/<phase>/`` in place (``ref/private/<phase>/`` the organisers' part); return the public
    ``split.json``."""
    folder = os.path.join(ref, phase)
    manifests = split.split_phase(folder, decl, mode, fraction, SEED, folder,
                                  os.path.join(ref, feedback.PRIVATE_FOLDER, phase))
    return manifests["public"]


def public_indices(public_split, name):
    """The public items of reference file ``name``."""
    return list(public_split["files"][name]["indices"])
