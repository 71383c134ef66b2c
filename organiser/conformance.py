"""The conformance check of every kind a competition uses (part of ``make check``): a kind, built in or a
competition's own (:mod:`evalkit.kindspec`), does what the split, the leak audit and the final ranking take it to do.

Four checks per kind, on the build's own references (its manifest's ``reference``):

- ``conformance.perfect``: a perfect submission gets the best score. The kind's ``gold_prediction(reference bytes,
  task, lang)`` writes each development reference file's gold as a prediction (a file's bytes, or ``{member: bytes}``
  for a folder of documents); scored by the scoring program, every file of the kind scores its best (the kind's
  ``best_score``, 1.0 by default) with no error. A kind without that part is noted, not checked.
- ``conformance.split``: redacting then reading back loses no public gold. Each development reference file of the
  kind is read by ``kind.items``, every other scorable item redacted, written and read back: the same items with the
  same inputs (``items.key``), the kept items with their gold (``items.gold``), the redacted ones without it; and the
  scorer reads the original and the written file (as a test phase's part) with as many items as ``items.read``
  counts (``split.json`` addresses items by that count).
- ``conformance.audit``: the audit finds a private item planted in an uploaded file. The uploaded test reference
  (the public part) with one private item's gold put back is audited by :func:`organiser.audit.audit_split` in a
  scratch build: the item must be reported (``audit.private-gold``). Noted when the build has no private part (no
  test gold, or mode full).
- ``conformance.recompute``: per-item recomputation equals the scorer. The build's development baseline (and the
  perfect submission) scored with per-item values: each entry's ``from_sums`` of their sums, or ``from_items`` of
  the values, gives its components and, through ``score_value``, its score (what the final ranking resamples).

A failure names the kind and the part that failed (``gold_prediction``, ``items.redact``, ``from_items``, ...).
"""
import collections
import json
import os
import shutil
import tempfile

from organiser import audit, bundle, feedback
from organiser.results import bootstrap
from evalkit import scoring
from evalkit.layout import NothingToScore, ReferenceError
from evalkit.messages import DataError

#: Scores within this of each other are equal.
TOLERANCE = 1e-9

Finding = audit.Finding
Conformance = collections.namedtuple("Conformance", "findings lines")


def kind_files(decl, ref_dir):
    """``{kind name: [(task, lang, path)]}`` of the reference files of ``ref_dir``, by their task's kind, in the
    declaration's order (empty when the folder holds none)."""
    try:
        _, _, pairs, paths = scoring._reference_files(decl, ref_dir)
    except ReferenceError:
        return collections.OrderedDict()
    found = collections.OrderedDict()
    for task, lang in pairs:
        found.setdefault(task.kind, []).append((task, lang, paths[(task.folder, lang)]))
    return found


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def _entries_of(report, files):
    """The report's entries of ``files`` (``[(task, lang, path)]``)."""
    wanted = set((task.folder, lang) for task, lang, _ in files)
    return [entry for entry in report["entries"] if (entry["task"], entry["lang"]) in wanted]


# --------------------------------------------------------------------------- perfect submission

def perfect_submission(decl, kind, files, folder):
    """Write into ``folder`` the kind's ``gold_prediction`` of each of ``files``; return the number written."""
    for task, lang, path in files:
        made = kind.gold_prediction(_read(path), task, lang)
        members = made if isinstance(made, dict) else {scoring.submission_file_name(decl, task, lang): made}
        for member, data in members.items():
            target = os.path.join(folder, *member.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(data)
    return len(files)


def check_perfect(decl, name, kind, files, ref_dir, scratch):
    """``(findings, line, report)`` of ``conformance.perfect`` for one kind (``report``: the perfect submission's,
    with per-item values; None when not scored)."""
    where = "kind %s" % name
    if not callable(getattr(kind, "gold_prediction", None)):
        return [], "perfect submission: not checked (the kind has no gold_prediction part)", None
    folder = tempfile.mkdtemp(prefix="perfect-", dir=scratch)
    try:
        perfect_submission(decl, kind, files, folder)
    except Exception as error:  # a kind's own code: reported with its part, never raised
        return [Finding("conformance.perfect", where, "its gold_prediction fails: %s: %s"
                        % (type(error).__name__, error))], "perfect submission: FAILED", None
    try:
        report = scoring.evaluate(decl, ref_dir, folder, per_sentence=True)
    except (NothingToScore, ReferenceError) as error:
        return [Finding("conformance.perfect", where, "the files its gold_prediction wrote are not scored: %s"
                        % error)], "perfect submission: FAILED", None
    best = float(getattr(kind, "best_score", 1.0))
    entries = _entries_of(report, files)
    names = set(entry["file"] for entry in entries)
    errors = [m for m in report["messages"] if m["severity"] == "error" and m["file"] in names]
    below = [entry for entry in entries if entry["status"] != "scored" or entry["score"] is None
             or abs(entry["score"] - best) > TOLERANCE]
    findings = []
    if below or errors:
        findings.append(Finding("conformance.perfect", where, "the gold written as a prediction (gold_prediction) "
                                "does not score %g everywhere (its parse_prediction_text or score): %s%s" % (
                                    best, "; ".join("%s: %s %s" % (e["file"], e["status"], e["score"])
                                                    for e in below[:3]),
                                    "; errors: %s" % "; ".join(m["text"][:160] for m in errors[:2]) if errors else "")))
    return findings, "perfect submission: %d file(s), %s" % (
        len(entries), "every one %g" % best if not findings else "FAILED"), report


# --------------------------------------------------------------------------- split round trip

def check_split(decl, name, kind, files):
    """``(findings, line)`` of ``conformance.split`` for one kind."""
    where = "kind %s" % name
    items_of = kind.items
    findings, counted = [], 0
    for task, lang, path in files:
        data = _read(path)
        relative = os.path.basename(path)
        try:
            items = items_of.read(data)
            scorable = [i for i, item in enumerate(items) if items_of.scorable(item)]
            hidden = set(scorable[::2])
            written = items_of.write([items_of.redact(item, task) if i in hidden else item
                                      for i, item in enumerate(items)], data)
            back = items_of.read(written)
        except Exception as error:  # any failure of the kind's item side: reported with the part, never raised
            findings.append(Finding("conformance.split", where, "%s: its items (read, redact, write) fail: %s: %s"
                                    % (relative, type(error).__name__, error)))
            continue
        counted += len(items)
        problems = _round_trip(items_of, task, items, back, hidden)
        for label, redacted in (("as built", False), ("redacted", True)):
            source = data if not redacted else written
            try:
                parsed = scoring._parse_reference(kind, source, "reference " + relative, task, lang, gold=not redacted,
                                                  redacted=redacted)
            except DataError as error:
                problems.append("the scorer refuses the file %s (parse_reference%s): %s"
                                % (label, "_text" if getattr(kind, "reads_text", False) else "", error))
                continue
            if len(parsed) != len(items):
                problems.append("the scorer reads %d items of the file %s, items.read %d (split.json counts the "
                                "latter)" % (len(parsed), label, len(items)))
        if problems:
            findings.append(Finding("conformance.split", where, "%s: %s" % (relative, "; ".join(problems[:3]))))
    return findings, "split round trip: %d file(s), %d items, %s" % (
        len(files), counted, "no public gold lost" if not findings else "FAILED")


def _round_trip(items_of, task, items, back, hidden):
    """What redacting the items ``hidden`` then reading back lost or kept wrongly (phrases naming the part)."""
    if len(back) != len(items):
        return ["%d items read back from %d written (items.write or items.read)" % (len(back), len(items))]
    problems = []
    for i, before in enumerate(items):
        after = back[i]
        if json.dumps(items_of.key(before, task), sort_keys=True) != json.dumps(items_of.key(after, task),
                                                                                 sort_keys=True):
            problems.append("%s lost its input (items.redact or items.key)" % items_of.label(i, before))
        gold, kept = items_of.gold(before, task), items_of.gold(after, task)
        if i not in hidden and gold != kept:
            problems.append("%s lost its gold (items.write or items.read: %r, read back %r)"
                            % (items_of.label(i, before), gold[:2], kept[:2]))
        if i in hidden and set(g for g in gold if g) & set(kept):
            problems.append("%s keeps its gold once redacted (items.redact)" % items_of.label(i, before))
        if len(problems) >= 3:
            break
    return problems


# --------------------------------------------------------------------------- the audit finds a planted item

def check_audit(decl, name, kind, manifest, scratch, phase=bundle.OFFICIAL_PHASE):
    """``(findings, line)`` of ``conformance.audit`` for one kind."""
    where = "kind %s" % name
    reference = manifest.get("reference")
    public_dir = os.path.join(reference or "", phase)
    split = feedback.read_split(public_dir) if reference and os.path.isdir(public_dir) else None
    private_dir = feedback.private_folder(reference, phase) if reference else None
    if split is None or split["mode"] == feedback.FULL or not private_dir or not os.path.isdir(private_dir):
        return [], "audit: not checked (no private part of a test gold in this build)"
    planted = plant(decl, name, public_dir, private_dir)
    if planted is None:
        return [], "audit: not checked (no private item of this kind to plant)"
    relative, data, label = planted
    fake = tempfile.mkdtemp(prefix="plant-", dir=scratch)
    os.makedirs(os.path.join(fake, "reference"))
    upload = os.path.join("reference", "%s-%s.zip" % (decl.COMPETITION_ID, phase))
    members = {feedback.SPLIT_FILE: _read(os.path.join(public_dir, feedback.SPLIT_FILE)), relative: data}
    with open(os.path.join(fake, upload), "wb") as handle:
        handle.write(bundle.zip_bytes(members))
    found = audit.audit_split(decl, fake, {"reference": reference, "bundles": {}, "test_input": []}, phase).findings
    said = [f for f in found if f.rule == "audit.private-gold" and label in f.text]
    if not said:
        return [Finding("conformance.audit", where, "%s planted in %s is not found by the leak audit (items."
                        "public_texts: what the audit looks for, read from the private part, must be in the file's "
                        "text once the item's gold is there)" % (label, upload))], "audit: FAILED"
    return [], "audit: %s of %s planted in an uploaded test reference, found" % (label, relative)


def plant(decl, name, public_dir, private_dir):
    """``(relative path, bytes, item label)``: the first reference file of kind ``name`` in the uploaded part
    ``public_dir`` with the gold of one of its private items (from ``private_dir``) put back, the item chosen among
    those whose text is in no public item; None when there is none."""
    private_split = feedback.read_split(private_dir) or {}
    for task, lang, path in kind_files(decl, private_dir).get(name, []):
        relative = os.path.relpath(path, private_dir).replace(os.sep, "/")
        public_path = os.path.join(public_dir, *relative.split("/"))
        if not os.path.isfile(public_path):
            continue
        items_of = scoring.KINDS[task.kind].items
        private_data, public_data = _read(path), _read(public_path)
        private, public = items_of.read(private_data), items_of.read(public_data)
        seen = set(text for item in public for text in items_of.public_texts(item, task) if text)
        for index in (private_split.get("files") or {}).get(relative, {}).get("indices", []):
            texts = [text for text in items_of.public_texts(private[index], task) if text]
            if texts and not set(texts) <= seen and index < len(public):
                public[index] = private[index]
                return relative, items_of.write(public, public_data), items_of.label(index, private[index])
    return None


# --------------------------------------------------------------------------- per-item recomputation

def check_recompute(decl, name, kind, files, reports):
    """``(findings, line)`` of ``conformance.recompute`` for one kind over the scored ``reports``."""
    where = "kind %s" % name
    part = "from_items" if getattr(kind, "resampling", "sums") == "items" else "from_sums"
    findings, count = [], 0
    tasks = dict((task.folder, task) for task in decl.TASKS)
    for label, report in reports:
        for entry in _entries_of(report, files):
            if entry["status"] != "scored":
                continue
            task = tasks[entry["task"]]
            values = entry.get("per_sentence")
            if not values:
                findings.append(Finding("conformance.recompute", where, "%s (%s): its score gives no per-item values "
                                        "(the Entry's per_sentence): the final ranking cannot resample it"
                                        % (entry["file"], label)))
                continue
            count += 1
            try:
                components = bootstrap.recompute(kind, task, values)
                score = kind.score_value(components)
            except Exception as error:  # a kind's own code: reported with its part, never raised
                findings.append(Finding("conformance.recompute", where, "%s (%s): %s fails on the per-item values: "
                                        "%s: %s" % (entry["file"], label, part, type(error).__name__, error)))
                continue
            differ = [c for c, value in entry["components"].items()
                      if c not in components or abs(float(components[c]) - value) > TOLERANCE]
            if differ or abs(score - entry["score"]) > TOLERANCE:
                findings.append(Finding("conformance.recompute", where, "%s (%s): %s of the per-item values gives %s, "
                                        "the scorer %s" % (entry["file"], label, part, _shown(components, score),
                                                           _shown(entry["components"], entry["score"]))))
    return findings, "recompute: %d entr%s, %s %s" % (count, "y" if count == 1 else "ies", part,
                                                         "equals the scorer" if not findings else "FAILED")


def _shown(components, score):
    return "score %.6f (%s)" % (score, ", ".join("%s %.6f" % (k, float(v)) for k, v in components.items()))


# --------------------------------------------------------------------------- the whole check

def check_build(decl, dist, manifest, baselines=(), phase=bundle.DEVELOPMENT_PHASE):
    """:class:`Conformance` (``findings``, ``lines``) of every kind the build's development reference uses.
    ``baselines``: the build's development baseline zips (scored for ``conformance.recompute``)."""
    reference = manifest.get("reference")
    ref_dir = os.path.join(reference or "", phase)
    by_kind = kind_files(decl, ref_dir) if reference and os.path.isdir(ref_dir) else {}
    if not by_kind:
        return Conformance([], ["conformance: no %s reference in this build: nothing to check" % phase])
    scratch = tempfile.mkdtemp(prefix="conformance-")
    findings, lines = [], []
    try:
        scored = []
        for path in baselines:
            try:
                scored.append((os.path.basename(path), scoring.evaluate(decl, ref_dir, path, per_sentence=True)))
            except (NothingToScore, ReferenceError):   # a baseline of another phase's files: nothing to recompute
                continue
        for name, files in by_kind.items():
            kind = scoring.KINDS[name]
            perfect_found, perfect_line, perfect = check_perfect(decl, name, kind, files, ref_dir, scratch)
            split_found, split_line = check_split(decl, name, kind, files)
            audit_found, audit_line = check_audit(decl, name, kind, manifest, scratch)
            reports = scored + ([("perfect submission", perfect)] if perfect is not None else [])
            recompute_found, recompute_line = check_recompute(decl, name, kind, files, reports)
            lines.append("conformance: kind %s (%s): %s" % (
                name, ", ".join(sorted(set(task.folder for task, _, _ in files))),
                "; ".join((perfect_line, split_line, audit_line, recompute_line))))
            findings += perfect_found + split_found + audit_found + recompute_found
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return Conformance(findings, lines)
