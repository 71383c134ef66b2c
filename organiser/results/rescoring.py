"""Re-scoring submissions with the scoring program itself, in parallel across the machine's cores.

Every submission goes through :func:`evalkit.scoring.evaluate` (the code the platforms run, so the
same numbers and the same reproducibility signature) with its opt-ins: ``per_sentence`` (each
scored entry carries the per-sentence values its components are the mean of), ``reference_cache``
(each worker process parses the reference once, not once per submission) and ``details=False`` (no
per-label detail tables, which the results never show).
A worker holds one submission at a time; it sends back the scores and the per-sentence arrays only.
"""
import multiprocessing
import os
import shutil
import sys
import tempfile
import zipfile

import numpy as np

from evalkit import scoring
from organiser import declarations
from evalkit.layout import NothingToScore, ReferenceError

_STATE = {}   # per worker process: competition module, reference cache, scratch folder


class Outcome(object):
    """The re-scoring of one submission.

    ``status``: ``scored``, ``nothing_to_score`` (the scorer found no expected file: exit 1),
    ``unreadable`` (its bytes could not be taken out of the download) or ``internal_error``.
    For a scored one: ``signature``, ``scores`` (``[(key, value)]`` as in ``scores.json``), ``entries``
    (``{(task folder, lang): {"status", "score", "components", "per_sentence": {component: array}}}``) and
    ``messages`` (how many the scorer reported, and the first errors).
    """

    def __init__(self, status, reason="", signature=None, scores=None, entries=None, messages=None):
        self.status, self.reason, self.signature = status, reason, signature
        self.scores, self.entries, self.messages = scores, entries, messages or {}

    def score(self, key):
        """The scorer's value for ``key`` (KeyError when it did not write it)."""
        return dict(self.scores)[key]


def _init_worker(module_name, paths, scratch):
    """Worker start: import the competition module, start an empty reference cache and a scratch folder."""
    for path in paths:
        if path not in sys.path:
            sys.path.insert(0, path)
    _STATE["competition"] = declarations.load(module_name)
    _STATE["cache"] = {}
    _STATE["scratch"] = tempfile.mkdtemp(prefix="worker-", dir=scratch)


def _materialise(locator, limit):
    """A path the scorer can open for ``locator``; members of a download are copied to the scratch folder."""
    if locator[0] == "path":
        return locator[1]
    _, container, member = locator
    target = os.path.join(_STATE["scratch"], "submission.zip")
    with zipfile.ZipFile(container) as outer:
        info = outer.getinfo(member)
        if info.file_size > limit:
            raise ValueError("%d bytes, over the platform limit of %d" % (info.file_size, limit))
        with outer.open(info) as source, open(target, "wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
    return target


def compact(report):
    """The parts of a scorer report the results need, with per-sentence lists as numpy arrays."""
    entries = {}
    for entry in report["entries"]:
        per_sentence = entry.get("per_sentence")
        entries[(entry["task"], entry["lang"])] = {
            "status": entry["status"], "score": entry["score"], "components": entry["components"],
            "per_sentence": None if per_sentence is None else
            dict((name, np.asarray(values, dtype=np.float64)) for name, values in per_sentence.items())}
    errors = [m for m in report["messages"] if m["severity"] == "error"]
    return Outcome("scored", signature=report["signature"], scores=list(report["scores"].items()), entries=entries,
                   messages={"count": len(report["messages"]), "errors": len(errors), "first_errors": errors[:5]})


def score_one(job):
    """Worker body: score ``job = (key, reference dir, locator)``; return ``(key, Outcome)``.

    A broken reference is not the submission's fault: it is returned as ``("reference", text)`` so
    the caller stops everything with that message.
    """
    key, ref_dir, locator = job
    competition = _STATE["competition"]
    try:
        path = _materialise(locator, competition.MAX_UPLOAD_BYTES)
    except Exception as err:  # any failure to take the bytes out of the download: listed as unreadable
        return key, Outcome("unreadable", "%s: %s" % (type(err).__name__, err))
    try:
        report = scoring.evaluate(competition, ref_dir, path, per_sentence=True, reference_cache=_STATE["cache"],
                                  details=False)
        return key, compact(report)
    except ReferenceError as err:
        return key, ("reference", str(err))
    except NothingToScore as err:
        return key, Outcome("nothing_to_score", "nothing could be scored: %s" % err)
    except Exception as err:  # a bug of the scorer on this input: listed, the others still count
        return key, Outcome("internal_error", "the scoring program failed (%s: %s)" % (type(err).__name__, err))


class RescoreError(Exception):
    """The re-scoring cannot go on (a broken reference)."""


class Rescorer(object):
    """A pool of ``workers`` processes (1: this process) that keeps its reference caches between calls.

    Use as a context manager; call it with ``[(key, reference dir, locator)]`` to get ``{key: Outcome}``.
    """

    def __init__(self, module_name, workers):
        self.module_name, self.workers = module_name, max(1, workers)
        self.pool = None
        self.scratch = None

    def __enter__(self):
        self.scratch = tempfile.mkdtemp(prefix="results-")
        args = (self.module_name, [p for p in sys.path if p], self.scratch)
        if self.workers == 1:
            _init_worker(*args)
        else:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self.pool = context.Pool(self.workers, _init_worker, args)
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
        shutil.rmtree(self.scratch, ignore_errors=True)
        _STATE.clear()
        return False

    def __call__(self, jobs, progress=None):
        """Score every job; ``progress(done, total)`` after each. Raises :class:`RescoreError` when the
        reference itself is broken."""
        results = {}
        items = self.pool.imap_unordered(score_one, jobs) if self.pool is not None else map(score_one, jobs)
        for key, outcome in items:
            if isinstance(outcome, tuple):
                raise RescoreError("the reference data is broken, nothing was scored: %s" % outcome[1])
            results[key] = outcome
            if progress:
                progress(len(results), len(jobs))
        return results
