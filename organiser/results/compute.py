"""From downloads to the results: official submissions, re-scoring, bootstrap, rankings.

Everything about the competition comes from its declaration module (``TASKS``, ``LANGUAGES``,
``SUBTASKS`` when it has any, limits) and from :mod:`evalkit.keys` (score-key names); the results code
names no task, language or key of its own.
"""
import os
import shutil
import tempfile
import time

from evalkit import keys, lines
from evalkit.layout import ReferenceError, scan_reference
from evalkit.messages import DataError

from . import bootstrap, figures, latex, names, shakeup
from .layouts import Candidate
from .rescoring import MEMORY_LIMIT_MB, TIME_LIMIT, Rescorer

RULES = ("last", "best")


def subtasks_of(competition):
    """``[(name, {"title", "tasks", "languages"})]``: the declared subtasks, or one holding everything."""
    declared = getattr(competition, "SUBTASKS", None)
    if declared:
        return list(declared.items())
    return [(competition.COMPETITION_ID, {"title": competition.TITLE,
                                          "tasks": tuple(t.folder for t in competition.TASKS),
                                          "languages": tuple(competition.LANGUAGES)})]


def subtask_reference(competition, ref_dir, spec, target):
    """Link the reference files of one subtask (its tasks x languages, and the phase's other files) under
    ``target``; return the ``(task, lang)`` pairs found, in the scorer's order. The scorer then sees exactly the
    reference the subtask's bundle ships, so its scores and signature are the platform's. The reference files are
    ``<task>/<lang>.json``, or the flat names a competition declares (``REFERENCE_FILE``, :mod:`evalkit.lines`)."""
    tasks = dict((t.folder, t) for t in competition.TASKS)
    named = lines.declares_names(competition)
    try:
        found = (lines.scan_reference(ref_dir, competition) if named
                 else scan_reference(ref_dir, set(tasks), competition.LANGUAGES))
    except ReferenceError as err:
        raise DataError(ref_dir, "", str(err))
    scored_names = set(os.path.basename(path) for _, _, path in found) if named else set()
    os.makedirs(target, exist_ok=True)
    for name in sorted(os.listdir(ref_dir)):     # the phase's other files (e.g. its split fingerprint)
        if os.path.isfile(os.path.join(ref_dir, name)) and name not in scored_names:
            _link(os.path.join(ref_dir, name), os.path.join(target, name))
    pairs = []
    for folder, lang, path in found:
        if folder in spec["tasks"] and lang in spec["languages"] and lang in tasks[folder].languages:
            if named:
                _link(path, os.path.join(target, os.path.basename(path)))
            else:
                os.makedirs(os.path.join(target, folder), exist_ok=True)
                _link(path, os.path.join(target, folder, lang + ".json"))
            pairs.append((tasks[folder], lang))
    return keys.ordered_pairs(competition.TASKS, list(competition.LANGUAGES), pairs)


def clean_reference(competition, view, pairs, report):
    """Make ``view`` (a subtask's view of the ranking reference, :func:`subtask_reference`) score only the items
    whose gold the contamination audit (``report``: its ``contamination.json``, organiser/contamination.py) found
    nowhere public: its ``split.json`` lists the others no more, and a file left with none is taken out. Returns
    ``(pairs kept, items kept, items ranked before)``. A report that does not describe this reference (another
    build's: its count of the file's ranked items differs) is refused."""
    from evalkit import scoring, split as evalkit_split
    from organiser import bundle, contamination
    manifest = evalkit_split.read_split(view)
    files, kept_pairs, kept, total = {}, [], 0, 0
    for task, lang in pairs:
        name = bundle.reference_file(competition, task, lang)
        path = os.path.join(view, *name.split("/"))
        with open(path, "rb") as handle:
            items = scoring.KINDS[task.kind].items.read(handle.read())
        spec = (manifest or {}).get("files", {}).get(name)
        if spec is not None and manifest["part"] != "all":
            indices = list(spec["indices"])
        else:
            indices = [i for i, item in enumerate(items) if scoring.KINDS[task.kind].items.scorable(item)]
        found = contamination.gold_indices(report, name)
        if found is None or report["files"][name].get("private") != len(indices):
            raise DataError(name, "", "the contamination report does not describe this reference file (another "
                            "build's? run `python -m organiser contamination` on this build)")
        clean = [i for i in indices if i not in found]
        total += len(indices)
        kept += len(clean)
        if clean:
            files[name] = {"items": len(items), "scored": len(clean), "indices": clean}
            kept_pairs.append((task, lang))
        else:
            os.remove(path)
    split_path = os.path.join(view, evalkit_split.SPLIT_FILE)
    if os.path.lexists(split_path):
        os.remove(split_path)   # a link to the ranking reference's own manifest: never written through
    base = dict(manifest or {"mode": "full", "unit": "items"}, part="private", files=files)
    with open(split_path, "w", encoding="utf-8") as handle:
        handle.write(evalkit_split.dumps(base))
    return kept_pairs, kept, total


def _link(source, target):
    """A symbolic link to ``source`` at ``target`` (a copy where links are not possible)."""
    try:
        os.symlink(os.path.abspath(source), target)
    except OSError:
        shutil.copyfile(source, target)


class Entrant(object):
    """One row of a subtask's tables: a team (its official submission) or a baseline. ``name`` is what the
    outputs show (the candidate's ``display``); the row is identified by the candidate's ``identity``."""

    def __init__(self, candidate, outcome):
        self.candidate, self.outcome = candidate, outcome
        self.name, self.identity = candidate.display, candidate.identity

    @property
    def baseline(self):
        """Whether this row is one of the kit's baselines (never ranked)."""
        return self.candidate.baseline


class Selection(object):
    """The official submission of every team of one subtask and what became of every submission."""

    def __init__(self):
        self.entrants = []
        self.records = []       # one dict per candidate: describe() + subtask, state, reason

    def record(self, subtask, cand, state, reason="", outcome=None):
        """Note what happened to ``cand`` (official, superseded, failed, not scored)."""
        row = cand.describe()
        row.update({"subtask": subtask, "state": state, "reason": reason})
        if outcome is not None and outcome.status == "scored":
            row["overall_score"] = outcome.score(keys.OVERALL_KEY)
            row["signature"] = outcome.signature
        self.records.append(row)


def select(subtask, candidates, rule, run):
    """Choose each team's official submission among ``candidates`` by ``rule`` (``last`` or ``best``).

    ``run(list of candidates)`` re-scores them and returns ``{id(candidate): Outcome}``. ``last``: the
    newest submission that the platform scored and that re-scores; an older one is used (and the newer
    ones are listed with their reason) only when the newer ones could not be scored. ``best``: the
    highest overall score among all that re-score.
    """
    selection = Selection()
    queues = {}     # by identity: a team and a user of the same name are two entries
    for cand in sorted(candidates, key=lambda c: c.order, reverse=True):
        reason = cand.ineligible()
        if reason:
            selection.record(subtask, cand, "not scored", reason)
        else:
            queues.setdefault(cand.identity, []).append(cand)
    outcomes, official = {}, {}
    if rule == "best":
        outcomes.update(run([c for queue in queues.values() for c in queue]))
        for team, queue in queues.items():
            scored = [c for c in queue if outcomes[id(c)].status == "scored"]
            if scored:   # newest first, so max keeps the newest of equal scores
                official[team] = max(scored, key=lambda c: outcomes[id(c)].score(keys.OVERALL_KEY))
    else:
        pending = dict((team, list(queue)) for team, queue in queues.items())
        while True:
            batch = [queue[0] for team, queue in pending.items() if queue and team not in official]
            if not batch:
                break
            outcomes.update(run(batch))
            for cand in batch:
                pending[cand.identity].pop(0)
                if outcomes[id(cand)].status == "scored":
                    official[cand.identity] = cand
    for team, queue in sorted(queues.items()):
        for cand in queue:
            outcome = outcomes.get(id(cand))
            if official.get(team) is cand:
                selection.record(subtask, cand, "official", "", outcome)
                selection.entrants.append(Entrant(cand, outcome))
            elif outcome is not None and outcome.status != "scored":
                selection.record(subtask, cand, "failed", outcome.reason, outcome)
            else:
                selection.record(subtask, cand, "superseded", "scored lower" if outcome else "an official one is newer",
                                 outcome)
        if team not in official:
            selection.records[-1]["reason"] += " (the team has no usable submission)"
    return selection


def baseline_candidates(directory, subtask, split, phase=None):
    """The kit's baseline submissions in ``directory``: ``<system>-<subtask>-<split>.zip`` (``split``: the release
    split the phase's baselines were run on) and ``<subtask>-<phase>-<system>.zip`` (the two forms ``make check``
    knows)."""
    if not directory or not os.path.isdir(directory):
        return []
    found = []
    for name in sorted(os.listdir(directory)):
        system = _baseline_system(name, subtask, split, phase)
        if system:
            found.append(Candidate(system, None, name, (0,), None, None, ("path", os.path.join(directory, name)),
                                   "kit", baseline=True))
    return found


def _baseline_system(name, subtask, split, phase):
    """The system of baseline zip ``name`` for this subtask and phase, or "" when it is not one of them."""
    suffix, prefix = "-%s-%s.zip" % (subtask, split), "%s-%s-" % (subtask, phase)
    if split and name.endswith(suffix) and len(name) > len(suffix):
        return name[:-len(suffix)]
    if phase and name.startswith(prefix) and name.endswith(".zip") and len(name) > len(prefix) + len(".zip"):
        return name[len(prefix):-len(".zip")]
    return ""


class Runner(object):
    """Re-scores candidates against one subtask's reference view with a :class:`Rescorer`; counts them."""

    def __init__(self, rescorer, ref_dir, log):
        self.rescorer, self.ref_dir, self.log = rescorer, ref_dir, log
        self.scored = 0

    def __call__(self, candidates):
        """``{id(candidate): Outcome}`` for ``candidates``."""
        jobs = [(id(c), self.ref_dir, c.locator) for c in candidates]
        step = max(1, len(jobs) // 10)

        def progress(done, total):
            """One line at every tenth of the jobs."""
            if done % step == 0 or done == total:
                self.log("  scored %d/%d" % (done, total))
        outcomes = self.rescorer(jobs, progress)
        self.scored += len(jobs)
        return outcomes


def compute_subtask(competition, module_name, name, spec, ref_view, pairs, candidates, options, log, public_view=None,
                    clean_view=None):
    """Select, re-score and bootstrap one subtask; return its part of ``results.json`` and its records. With
    ``public_view`` (the subtask's view of the public part's reference, issue 23), each team's official submission
    is also scored on the public part, for the shake-up (:mod:`organiser.results.shakeup`); with ``clean_view`` (the
    ranking reference restricted to the items whose gold is found nowhere public, :func:`clean_reference`), on
    those items, shown beside the final ranking when the two differ."""
    started = time.time()
    baselines = baseline_candidates(options.get("baselines"), name, options.get("split"), options.get("phase"))
    warnings = name_entries(candidates + baselines)
    for warning in warnings:
        log("results: %s: warning: %s" % (name, warning))
    with Rescorer(module_name, options["workers"], options.get("time_limit", TIME_LIMIT),
                  options.get("memory_limit", MEMORY_LIMIT_MB << 20), options.get("scratch")) as rescorer:
        runner = Runner(rescorer, ref_view, log)
        selection = _select_all(name, candidates, baselines, options, runner)
        public = _public_scores(selection, Runner(rescorer, public_view, log)) if public_view else None
        clean = _public_scores(selection, Runner(rescorer, clean_view, log)) if clean_view else None
    scored = time.time()
    log("results: %s: %d submission(s) re-scored in %.1f s on %d process(es)"
        % (name, runner.scored, scored - started, options["workers"]))
    result, records = _tabulate(competition, name, spec, pairs, selection, options)
    log("results: %s: bootstrap (%d resamples) and rankings in %.1f s"
        % (name, options["resamples"], time.time() - scored))
    result["scored_submissions"] = runner.scored
    result["warnings"] = warnings
    if public is not None:
        result["shakeup"] = _shakeup(selection, public, options.get("public_part"))
    if clean is not None:
        result["clean"] = _shakeup(selection, clean, options.get("clean_part", {}).get(name))
    return result, records


def _public_scores(selection, runner):
    """``{identity: overall score on the public part}`` of the teams' official submissions (a team whose
    submission does not score there is left out)."""
    teams = [e for e in selection.entrants if not e.baseline]
    outcomes = runner([e.candidate for e in teams]) if teams else {}
    return dict((e.identity, outcomes[id(e.candidate)].score(keys.OVERALL_KEY)) for e in teams
                if outcomes[id(e.candidate)].status == "scored")


def _shakeup(selection, public, public_part):
    """The shake-up of the teams scored on both parts (:func:`organiser.results.shakeup.summary`)."""
    teams = [e for e in selection.entrants if not e.baseline and e.identity in public]
    found = shakeup.summary([e.identity for e in teams], [public[e.identity] for e in teams],
                            [e.outcome.score(keys.OVERALL_KEY) for e in teams])
    found["public_part"] = public_part
    return found


def name_entries(candidates):
    """Set every candidate's ``display`` (:func:`organiser.results.names.display_names`); return the warnings
    about entries that could be confused (:func:`organiser.results.names.confusions`: same name once normalised,
    a team and a user of the same name, the same text in the LaTeX tables or the figures)."""
    entries = dict((c.identity, (c.identity, c.kind, c.team)) for c in candidates)
    shown = names.display_names(list(entries.values()))
    for cand in candidates:
        cand.display = shown[cand.identity]
    return names.confusions([entry + (shown[ident],) for ident, entry in sorted(entries.items())],
                            (latex.tex_escape, figures.label_text))


def _select_all(name, candidates, baselines, options, runner):
    """The teams' official submissions, then the kit's ``baselines``, all re-scored."""
    selection = select(name, candidates, options["rule"], runner)
    if baselines:
        outcomes = runner(baselines)
        for cand in baselines:
            outcome = outcomes[id(cand)]
            if outcome.status == "scored":
                selection.entrants.append(Entrant(cand, outcome))
                selection.record(name, cand, "baseline", "", outcome)
            else:
                selection.record(name, cand, "failed", outcome.reason, outcome)
    return selection


def _tabulate(competition, name, spec, pairs, selection, options):
    """Bootstrap the entrants of ``selection`` and build the subtask's part of ``results.json``."""
    tasks = [t for t in competition.TASKS if any(p[0] is t for p in pairs)]
    languages = [lang for lang in competition.LANGUAGES if any(p[1] == lang for p in pairs)]
    result = {"name": name, "title": spec.get("title", name),
              "tasks": [{"folder": t.folder, "key": t.key, "label": t.label, "mean_key": keys.task_mean_key(t)}
                        for t in tasks],
              "languages": [{"code": lang, "name": competition.LANGUAGES[lang][0], "key": keys.language_key(lang)}
                            for lang in languages] if keys.language_means(competition) else [],
              "entries": [{"task": t.folder, "lang": lang, "key": keys.entry_key(lang, t)} for t, lang in pairs],
              "leaderboard": [list(column) for column in leaderboard_columns(competition, spec, pairs)],
              "overall_key": keys.OVERALL_KEY, "rows": [], "rankings": {}}
    entrants = selection.entrants
    signatures = sorted(set(e.outcome.signature for e in entrants))
    result["signature"] = signatures[0] if len(signatures) == 1 else signatures
    if not entrants:
        return result, selection.records
    rank_keys = bootstrap.ranking_keys(tasks)
    intervals, samples = bootstrap.bootstrap(competition, pairs, [e.outcome.entries for e in entrants],
                                             options["resamples"], options["seed"], rank_keys)
    for r, entrant in enumerate(entrants):
        scores = dict(entrant.outcome.scores)
        result["rows"].append({
            "id": entrant.identity, "name": entrant.name, "baseline": entrant.baseline,
            "submission": entrant.candidate.describe(),
            "messages": entrant.outcome.messages,
            "scores": dict((key, {"value": scores[key], "lo": float(intervals[key][0][r]),
                                  "hi": float(intervals[key][1][r])}) for key, _ in entrant.outcome.scores)})
    teams = [r for r, e in enumerate(entrants) if not e.baseline]
    for key in rank_keys:
        idents = [entrants[r].identity for r in teams]
        points = [dict(entrants[r].outcome.scores)[key] for r in teams]
        if idents:
            result["rankings"][key] = bootstrap.rank(idents, points, samples[key][:, teams])
    for row in result["rows"]:
        row["ranks"] = dict((key, ranking["ranks"].get(row["id"]) if not row["baseline"] else None)
                            for key, ranking in result["rankings"].items())
    result["rows"].sort(key=lambda row: _row_order(row, result))
    return result, selection.records


def leaderboard_columns(competition, spec, pairs):
    """``[(key, label)]``: the leaderboard columns of the subtask over ``pairs``, as its bundle declares them
    (organiser.bundle.declared_columns): the results' overall table shows the leaderboard participants saw."""
    from organiser import bundle
    languages = [lang for lang in spec.get("languages", competition.LANGUAGES) if lang in competition.LANGUAGES]
    return bundle.declared_columns(competition, languages, pairs)


def _row_order(row, result):
    """Teams in the order of the overall ranking, then the baselines from best to worst."""
    overall = result["rankings"].get(result["overall_key"], {"order": []})["order"]
    if not row["baseline"] and row["id"] in overall:
        return (0, overall.index(row["id"]), 0.0, row["id"])
    return (1, 0, -row["scores"][result["overall_key"]]["value"], row["id"])


def compute(competition, module_name, ref_dir, downloads, options, log):
    """The whole ``results.json`` dict for ``downloads`` (``[(subtask name, Download)]``)."""
    declared = dict(subtasks_of(competition))
    scratch = tempfile.mkdtemp(prefix="results-ref-", dir=options.get("scratch"))
    try:
        subtasks, records, notes, warnings = [], [], [], []
        given = [name for name, _ in downloads]
        for name, download in downloads:
            if given.count(name) > 1:
                raise DataError(download.path, "", "subtask %s is given more than one download: give one "
                                "(a folder can hold every team's zips)" % name)
            if name not in declared:
                raise DataError(download.path, "", "unknown subtask %r: expected one of %s"
                                % (name, ", ".join(declared)))
            view = os.path.join(scratch, name)
            pairs = subtask_reference(competition, ref_dir, declared[name], view)
            if not pairs:
                raise DataError(ref_dir, "", "holds no reference file of subtask %s" % name)
            log("results: %s: %d submission(s) from %s (%s), %d reference files"
                % (name, len(download.candidates), download.path, download.platform, len(pairs)))
            public_view = clean_view = None
            if options.get("public_reference"):
                public_view = os.path.join(scratch, name + "-public")
                subtask_reference(competition, options["public_reference"], declared[name], public_view)
            if options.get("clean"):
                clean_view = os.path.join(scratch, name + "-clean")
                kept_pairs, kept, total = clean_reference(
                    competition, clean_view, subtask_reference(competition, ref_dir, declared[name], clean_view),
                    options["clean"])
                options.setdefault("clean_part", {})[name] = (
                    "the private items whose gold is found nowhere public: %d of %d, in %d of %d file(s)" % (
                        kept, total, len(kept_pairs), len(pairs)))
                log("results: %s: %s" % (name, options["clean_part"][name]))
                if kept == total or not kept_pairs:   # nothing found public, or nothing left to rank on
                    clean_view = None
            result, recs = compute_subtask(competition, module_name, name, declared[name], view, pairs,
                                           download.candidates, options, log, public_view, clean_view)
            result["download"] = {"path": download.path, "platform": download.platform}
            subtasks.append(result)
            records.extend(recs)
            notes.extend("%s: %s" % (name, note) for note in download.notes)
            notes.extend(_platform_notes(name, result))
            warnings.extend("%s: %s" % (name, warning) for warning in result["warnings"])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "competition": {"id": competition.COMPETITION_ID, "title": competition.TITLE},
        "method": bootstrap.method(competition, options["resamples"], options["seed"]),
        "bootstrap": {"resamples": options["resamples"], "seed": options["seed"], "confidence": bootstrap.CONFIDENCE,
                      "alpha": bootstrap.ALPHA, "unit": "%s, within each task x language file, paired"
                      % bootstrap.unit_of(competition).rstrip("s")},
        "rule": options["rule"], "reference": ref_dir, "phase": options.get("phase"),
        "public_reference": options.get("public_reference"), "ranked_on": options.get("ranked_on"),
        "subtasks": subtasks, "submissions": records,
        "failures": [r for r in records if r["state"] in ("failed", "not scored")],
        "notes": notes, "warnings": warnings,
    }


def _platform_notes(name, result):
    """The platform's own overall scores (when the download or the pull carries them) against the kit's re-score of
    the part the platform scored: the public part when the phase kept a private part (``result["shakeup"]``), else
    the ranking reference. One note per difference, and one saying how many agree."""
    notes, agree = [], 0
    public = (result.get("shakeup") or {}).get("teams")
    for row in result["rows"]:
        shipped = row["submission"].get("platform_avg_score")
        if shipped is None:
            continue
        if public is not None:
            if row["id"] not in public:
                continue
            rescored, part = public[row["id"]]["public_score"], "re-scored on the public part"
        else:
            rescored, part = row["scores"][result["overall_key"]]["value"], "re-scored"
        if abs(shipped - rescored) > 1e-6:
            notes.append("%s: %s scored %.6f on the platform, %.6f %s" % (name, row["name"], shipped, rescored, part))
        else:
            agree += 1
    if agree:
        notes.append("%s: the platform's overall score equals the kit's re-score of %s for %d submission(s)" % (
            name, "the public part" if public is not None else "the reference", agree))
    return notes
