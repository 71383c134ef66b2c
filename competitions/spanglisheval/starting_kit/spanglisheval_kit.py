"""Shared helpers of SpanglishEval's starting kit: reading sets and training sentences, finding the scorer.

Standard library only, Python 3.7 or newer.
"""
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
#: Where the scoring program may be: beside the kit's scripts (the bundle's kit) or in the repository.
PROGRAM_DIRS = (os.path.join(HERE, "scoring_program"), os.path.join(HERE, os.pardir))
REPOSITORY_EVALKIT = os.path.join(HERE, os.pardir, os.pardir, os.pardir, "scoring_program")
#: Where the public sets are: the kit's data/ (the bundle's kit).
DATA_DIR = os.path.join(HERE, "data")


class KitError(Exception):
    """A file the kit needs is missing or unreadable."""


def load_program(scorer=None):
    """The declaration module (``spanglisheval``) with ``evalkit`` importable; KitError when not found."""
    for folder in ([scorer] if scorer else []) + list(PROGRAM_DIRS):
        if folder and os.path.isfile(os.path.join(folder, "spanglisheval.py")):
            for candidate in (folder, REPOSITORY_EVALKIT):
                if os.path.isdir(os.path.join(candidate, "evalkit")):
                    for path in (os.path.abspath(candidate), os.path.abspath(folder)):
                        if path not in sys.path:
                            sys.path.insert(0, path)
                    import spanglisheval
                    return spanglisheval
    raise KitError("the scoring program (spanglisheval.py and evalkit/) was not found beside the kit; "
                   "give --scorer DIR")


def read_sets(path):
    """The sets of a ``sets.jsonl`` (or ``reference.jsonl``) file: a list of dicts with ``id`` and ``sentences``."""
    if not os.path.isfile(path):
        raise KitError("%s: no such file (the kit's data/<split>/sets.jsonl)" % path)
    sets = []
    with io.open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    sets.append(json.loads(line))
                except ValueError as err:
                    raise KitError("%s, line %d: invalid JSON (%s)" % (path, number, err))
    return sets


def normalise(line):
    """A tagged corpus line (``Word__en word__sp .``) as the sets write sentences: the tagged tokens
    lower-cased, inner punctuation dropped, the final punctuation token kept.

    >>> normalise("Yeah__en pero__sp , no__sp .")
    'yeah__en pero__sp no__sp .'
    """
    tokens = line.split()
    words = [t.lower() for t in tokens if "__" in t and t.rpartition("__")[2] in ("en", "sp") and t.rpartition("__")[0]]
    final = tokens[-1] if tokens and "__" not in tokens[-1] else ""
    return " ".join(words + ([final] if final else []))


def read_training(path):
    """The normalised token lists of a training file (one tagged sentence a line); KitError when absent."""
    if not os.path.isfile(path):
        raise KitError("%s: no such file (a tagged corpus, e.g. bangor_train_gold of the paper's repository)" % path)
    with io.open(path, encoding="utf-8") as handle:
        return [s.split() for s in (normalise(line) for line in handle) if s]
