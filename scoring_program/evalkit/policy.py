"""What a phase's report may show, read from the phase's reference data (``phase.json``).

The platforms do not keep reports private: legacy CodaLab serves the ``detailed_results.html`` of any submission
on a leaderboard to anyone, hidden test phase included, and Codabench serves any submission's detailed results to
anyone once the competition is published. So every report is written as if everyone could read it:

- where the phase's gold is public (the development phase: its gold is in the starting kit), the whole report;
- where it is hidden (a test phase, and any reference data without a ``phase.json``): the team's own scores and
  the messages about its submission's format; no detail table (per label, per feature, per document, per set),
  no corpus-level pooled values and no count of gold items, nothing from which the gold could be rebuilt item by
  item. The scores themselves are the same.

``phase.json`` is ``{"phase": "test", "gold": "hidden"}`` (or ``"public"``); the bundle builder writes it into
each phase's reference data (organiser/bundle.py) and ``make reference`` into each phase folder.
"""
import json
import os

PHASE_FILE = "phase.json"
HIDDEN, PUBLIC = "hidden", "public"
#: What a report of a hidden-gold phase says about itself (detailed_results.json ``notes.gold``, the HTML page).
HIDDEN_NOTE = ("The gold of this phase is hidden: this report shows your scores and the messages about your "
               "submission's format only (no per-label, per-item or per-document results).")
#: The entry fields a hidden-gold report keeps (everything else of an entry is left out).
KEPT_ENTRY_FIELDS = ("task", "lang", "file", "status", "score", "components", "sentences", "scored_sentences",
                     "zeroed_sentences", "expected_items", "valid_items")


def read(ref_dir):
    """``{"phase": name, "gold": "public" | "hidden"}`` of the reference folder ``ref_dir``: its ``phase.json``,
    hidden when the file is absent or unreadable (a report never shows more than its phase allows)."""
    path = os.path.join(ref_dir, PHASE_FILE)
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except (OSError, IOError, ValueError):
        return {"phase": "", "gold": HIDDEN}
    if not isinstance(value, dict) or value.get("gold") not in (HIDDEN, PUBLIC):
        return {"phase": "", "gold": HIDDEN}
    return {"phase": str(value.get("phase") or ""), "gold": value["gold"]}


def apply(report, policy):
    """``report`` as the phase's ``policy`` allows it to be shown: itself where the gold is public; otherwise a copy
    whose entries keep only :data:`KEPT_ENTRY_FIELDS`, with ``gold: "hidden"`` and the note :data:`HIDDEN_NOTE`.

    >>> report = {"scores": {"avg_score": 0.5}, "entries": [{"task": "t", "score": 0.5, "items": 9,
    ...           "details": {"per_tag": {"NOUN": {"tp": 1}}}, "micro": {"acc": 0.4}}], "messages": []}
    >>> shown = apply(report, {"phase": "test", "gold": "hidden"})
    >>> shown["entries"], shown["gold"], shown["scores"]
    ([{'task': 't', 'score': 0.5}], 'hidden', {'avg_score': 0.5})
    >>> apply(report, {"phase": "dev", "gold": "public"}) is report
    True
    """
    if policy.get("gold") == PUBLIC:
        return report
    shown = dict(report)
    shown["entries"] = [dict((field, entry[field]) for field in KEPT_ENTRY_FIELDS if field in entry)
                        for entry in report.get("entries", [])]
    shown["gold"] = HIDDEN
    shown["notes"] = dict(report.get("notes") or {}, gold=HIDDEN_NOTE)
    return shown
