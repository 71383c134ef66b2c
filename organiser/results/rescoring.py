"""Re-scoring submissions with the scoring program itself, in parallel across the machine's cores.

Every submission goes through :func:`evalkit.scoring.evaluate` (the code the platforms run, so the
same numbers and the same reproducibility signature) with its opt-ins: ``per_sentence`` (each
scored entry carries the per-sentence values its components are the mean of), ``reference_cache``
(the reference is parsed once, before any submission, and every scoring process shares it) and
``details=False`` (no per-label detail tables, which the results never show).

No single submission can stop the others: each one is scored in a process of its own (forked, so it
shares the parsed reference), at most ``workers`` at a time, under a time limit (the process is killed
when it is over) and a memory limit (an address-space limit above what the process starts with). A
submission that runs out of time or memory, or whose process dies, is listed with the reason; the
others are scored. The bytes of a submission inside a download are read where they lie
(:func:`evalkit.layout.zip_member_file`), never unpacked, but for a compressed one too large for memory,
which is copied into the scratch folder (inside the output folder).
"""
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
import sys
import tempfile
import time

import numpy as np

from evalkit import layout, scoring
from organiser import declarations
from evalkit.layout import NothingToScore, ReferenceError

_STATE = {}   # in this process and the scoring processes forked from it: competition module, reference cache

#: Default limits of one submission's re-scoring (``python -m organiser results --time-limit --memory-limit``).
TIME_LIMIT = 600
MEMORY_LIMIT_MB = 4096


class Outcome(object):
    """The re-scoring of one submission.

    ``status``: ``scored``, ``nothing_to_score`` (the scorer found no expected file: exit 1),
    ``unreadable`` (its bytes could not be taken out of the download), ``timeout``, ``memory`` (over the
    memory limit), ``crashed`` (its process died) or ``internal_error``; ``reason`` says it in words.
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


def _init_state(module_name, paths, scratch):
    """Import the competition module and start an empty reference cache (once per process tree)."""
    for path in paths:
        if path not in sys.path:
            sys.path.insert(0, path)
    _STATE["competition"] = declarations.load(module_name)
    _STATE["cache"] = {}
    _STATE["scratch"] = scratch


def _limits(competition):
    return {"file": competition.MAX_FILE_BYTES, "upload": competition.MAX_UPLOAD_BYTES,
            "members": competition.MAX_MEMBERS}


def _materialise(locator, competition):
    """``(what the scorer opens, what must stay open meanwhile)`` for ``locator``: a path, or for a member of a
    download zip a file object over its bytes (:func:`evalkit.layout.zip_member_file`: read where it lies)."""
    if locator[0] == "path":
        return locator[1], None
    _, container, member = locator
    outer = layout.open_zip(container, [])[0]
    try:
        info = outer.getinfo(member)
        return layout.zip_member_file(outer, info, _limits(competition), member, spill=_STATE["scratch"]), outer
    except Exception:
        outer.close()
        raise


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
    """Score ``job = (key, reference dir, locator)``; return ``(key, Outcome)``.

    A broken reference is not the submission's fault: it is returned as ``("reference", text)`` so
    the caller stops everything with that message.
    """
    key, ref_dir, locator = job
    competition = _STATE["competition"]
    try:
        path, keep = _materialise(locator, competition)
    except NothingToScore as err:
        return key, Outcome("unreadable", str(err))
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
    except MemoryError:
        return key, Outcome("memory", "the scoring ran out of memory (over the memory limit): stopped")
    except Exception as err:  # a bug of the scorer on this input: listed, the others still count
        return key, Outcome("internal_error", "the scoring program failed (%s: %s)" % (type(err).__name__, err))
    finally:
        for opened in (path, keep):
            if hasattr(opened, "close"):
                opened.close()


def _address_space():
    """This process's current virtual size in bytes (None where /proc does not say)."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (IOError, OSError, ValueError):
        return None
    return None


def _limit_memory(memory_limit):
    """Limit this process's address space to what it uses now plus ``memory_limit`` bytes (never above a limit
    already set; nothing where the size or the limit is unknown)."""
    size = _address_space()
    if not memory_limit or size is None:
        return
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + memory_limit
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _child(job, conn, memory_limit, init):
    """Body of one scoring process: limit its memory, score ``job``, send ``(key, Outcome)`` back (whatever
    happens: an exception here is reported as the submission's internal error, never as a traceback)."""
    try:
        if not _STATE:      # started afresh (no fork): import the competition, parse the reference itself
            _init_state(*init)
        _limit_memory(memory_limit)
        result = score_one(job)
    except MemoryError:
        result = (job[0], Outcome("memory", "the scoring ran out of memory (over the memory limit): stopped"))
    except Exception as err:  # a bug of this tool's own: listed with the submission, the others still count
        result = (job[0], Outcome("internal_error", "the re-scoring failed (%s: %s)" % (type(err).__name__, err)))
    conn.send(result)
    conn.close()


class RescoreError(Exception):
    """The re-scoring cannot go on (a broken reference)."""


def _died(process):
    """The Outcome of a scoring process that ended without sending anything back."""
    code = process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "signal %d" % -code
        return Outcome("crashed", "the scoring process was killed by %s" % name)
    return Outcome("crashed", "the scoring process ended (exit status %s) without a result" % code)


class Rescorer(object):
    """Scores jobs in up to ``workers`` processes at a time, each submission in its own process, under
    ``time_limit`` seconds and ``memory_limit`` bytes (0: none) each; the parsed references are kept between
    calls. ``scratch``: where a temporary folder goes (default: the system's).

    Use as a context manager; call it with ``[(key, reference dir, locator)]`` to get ``{key: Outcome}``.
    """

    def __init__(self, module_name, workers, time_limit=TIME_LIMIT, memory_limit=MEMORY_LIMIT_MB << 20,
                 scratch=None):
        self.module_name, self.workers = module_name, max(1, workers)
        self.time_limit, self.memory_limit, self.base = time_limit, memory_limit, scratch
        self.scratch = None
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else None)

    def __enter__(self):
        self.scratch = tempfile.mkdtemp(prefix="rescoring-", dir=self.base)
        self.init = (self.module_name, [p for p in sys.path if p], self.scratch)
        _init_state(*self.init)
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.scratch, ignore_errors=True)
        _STATE.clear()
        return False

    def __call__(self, jobs, progress=None):
        """Score every job; ``progress(done, total)`` after each. Raises :class:`RescoreError` when the
        reference itself is broken."""
        if self.context.get_start_method() == "fork":   # parsed once here, shared by every scoring process
            for ref_dir in sorted(set(job[1] for job in jobs)):
                try:
                    scoring.fill_reference_cache(_STATE["competition"], ref_dir, _STATE["cache"])
                except ReferenceError as err:
                    raise RescoreError("the reference data is broken, nothing was scored: %s" % err)
        results, pending, running = {}, list(reversed(jobs)), {}
        while pending or running:
            while pending and len(running) < self.workers:
                self._start(pending.pop(), running)
            self._collect(running, results, progress, len(jobs))
        return results

    def _start(self, job, running):
        """Start the scoring process of ``job``."""
        receive, send = self.context.Pipe(duplex=False)
        process = self.context.Process(target=_child, args=(job, send, self.memory_limit, self.init))
        process.daemon = True
        process.start()
        send.close()
        running[receive] = (job, process, time.time() + self.time_limit)

    def _collect(self, running, results, progress, total):
        """Wait for the first scoring process to finish (or be over its time); record its Outcome."""
        deadline = min(end for _, _, end in running.values())
        ready = multiprocessing.connection.wait(list(running), timeout=max(0.0, deadline - time.time()))
        for conn in list(running):
            job, process, end = running[conn]
            if conn in ready:
                try:
                    key, outcome = conn.recv()
                except (EOFError, OSError):
                    process.join()
                    key, outcome = job[0], _died(process)
            elif time.time() >= end:
                process.kill()
                key, outcome = job[0], Outcome("timeout", "the scoring took longer than %s s: stopped"
                                               % "{:g}".format(self.time_limit))
            else:
                continue
            del running[conn]
            conn.close()
            process.join()
            if isinstance(outcome, tuple):
                for other_conn, (_, other, _) in running.items():
                    other.kill()
                raise RescoreError("the reference data is broken, nothing was scored: %s" % outcome[1])
            results[key] = outcome
            if progress:
                progress(len(results), total)
