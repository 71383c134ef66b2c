"""Below the floor, where the gold is public: a file that scores at or below the phase's trivial floor.

A well-formed file that does no better than the competition's own floor baseline (majority tag, identity lemma,
an empty document, a constant chooser) almost always holds a systematic mistake: labels swapped between two
classes, scores whose direction is reversed, candidates in the wrong unit. The floor of every reference file
rides with the development reference, in :data:`FILE_NAME`, written by the build from the floor baseline's
scores on that phase (``python -m organiser baselines``)::

    {"label": "floor", "system": "floor", "files": {"<task folder>/<lang>": score},
     "sentences": {"<task folder>/<lang>": the reference's sentence count (a floor judges only a file of that count)}}

The scoring program reads it only where the phase's gold is public (:mod:`evalkit.policy`: the development
phase); the starting kits' validators read the one their kit ships. A message of this module therefore speaks of
a score, and never runs where the gold is hidden.

Where the gold is public too, :func:`swapped_labels` names two labels swapped throughout (each mostly missed while
the other is predicted in its place), from the per-label counts of the report, for the kinds that declare
``label_swaps``: above the floor as well (a swap of two small classes costs less than the floor); and
:func:`mended_prices` prices what a kind read as meant (a mistake it can undo exactly), file by file, saying when a
file loses most of its score to it (:data:`evalkit.messages.LOSS_NOTE`).

The likely causes are a fact of the task's kind (a kind's ``floor_causes``), or of the task itself when its
declaration says more (``Task.floor_causes``); the machinery names no competition. A file some of whose items are not
scored as submitted (its format errors are reported) is not called well-formed: those items come first. On a file of
fewer items than its kind's ``floor_min_items`` (the value kinds: 100), an honest score at the floor is common, and the
warning says how little it can tell instead of claiming a systematic mistake.
"""
import os
from collections import OrderedDict

from .loading import read_optional_json
from .messages import INFO, LOSS_NOTE, Message, WARNING, printable

FILE_NAME = "floor_scores.json"
#: A score within this of the floor counts as at the floor (the floor's own file, rounding aside).
EPSILON = 1e-9
#: Said when neither the kind nor the task says more.
GENERIC_CAUSES = ("predictions made for another file, split or order; labels swapped between two classes; "
                  "values in another form than the reference's")


def read_floor(path, max_bytes=4 * 1024 * 1024):
    """``(label, {file name: floor score})`` from the optional file at ``path``; ``("", {})`` when it is absent or
    unusable (then nothing is said). Only finite numeric scores are kept."""
    value = read_optional_json(path, max_bytes)
    files = value.get("files") if type(value) is dict else None
    if type(files) is not dict:
        return "", {}
    found = dict((name, float(score)) for name, score in files.items()
                 if type(name) is str and type(score) in (int, float) and score == score)
    label = value.get("label") if type(value.get("label")) is str else "floor"
    sentences = value.get("sentences") if type(value.get("sentences")) is dict else {}
    for name, count in sentences.items():   # a floor of a reference with other sentences is no floor here
        if name in found and type(count) is int:
            found[name] = (found[name], count)
    return label[:80], found


def entry_key(entry):
    """The key of a report entry in the floor file: ``<task folder>/<lang>`` (two tasks may score one file)."""
    return "%s/%s" % (entry.get("task"), entry.get("lang"))


def _floor_of(floors, entry):
    """The floor of ``entry``'s file, or None (none, or the floor of a reference with another sentence count)."""
    floor = floors.get(entry_key(entry))
    if type(floor) is tuple:
        floor, count = floor
        if entry.get("sentences") != count:
            return None
    return floor


def causes(task, kind):
    """The likely causes of a file at the floor, for ``task`` of ``kind``: the task's own ``floor_causes``, else
    its kind's, else :data:`GENERIC_CAUSES`."""
    return getattr(task, "floor_causes", None) or getattr(kind, "floor_causes", None) or GENERIC_CAUSES


def chance_margin(kind, floor, entry):
    """How far above ``floor`` a file of ``entry``'s size still scores by chance: the kind's ``floor_margin(floor,
    count)`` when it declares one (a floor that is an expected score, such as a random choice's, is met or passed
    by luck half of the time), else 0.0 (the floor is the baseline's exact score)."""
    margin = getattr(kind, "floor_margin", None)
    count = entry.get("sentences")
    return float(margin(floor, count)) if callable(margin) and type(count) is int and count > 0 else 0.0


def below_floor(entries, floors, label, tasks, kinds):
    """One warning per scored entry of ``entries`` (report entry dicts) whose score is at or below its floor in
    ``floors`` (:func:`read_floor`): the score, the floor and the likely causes of its task kind. ``tasks``: the
    declared tasks by folder; ``kinds``: every kind by name. What the score means is :func:`floor_text`'s: a file
    some of whose items are not scored as submitted is not called well-formed, and a kind that declares
    ``floor_min_items`` gets, on a file of fewer items, how little a score at the floor tells."""
    found = []
    shared = {}   # files scored by several tasks (their messages name the task)
    for entry in entries:
        shared[entry.get("file")] = shared.get(entry.get("file"), 0) + 1
    for entry in entries:
        floor = _floor_of(floors, entry)
        if floor is None or entry.get("status") != "scored" or entry.get("score") is None:
            continue
        task = tasks.get(entry.get("task"))
        kind = kinds.get(getattr(task, "kind", None))
        margin = chance_margin(kind, floor, entry)
        if entry["score"] > floor + max(EPSILON, margin) or entry["score"] >= 1.0 - EPSILON:   # above, or perfect
            continue
        if getattr(kind, "explains_score", None) and kind.explains_score(entry):   # its cause is named and priced
            continue
        where = "below" if entry["score"] < floor - EPSILON else "at" if entry["score"] <= floor + EPSILON else \
            "within chance of"
        found.append(Message(entry["file"], WARNING, "whole file", (
            "%s %.4f%s, %s the %s of this phase (%.4f, the trivial baseline of the starting kit%s)%s"
            % (_what_scores(entry), entry["score"],
               (" in %s" % task.label) if shared.get(entry.get("file"), 0) > 1 else "",
               where, label, floor, "; chance alone gives up to %.4f more on %d items" % (
                   margin, entry["sentences"]) if where == "within chance of" else "",
               floor_text(entry, task, kind)))))
    return found


def _what_scores(entry):
    """``this file scores``, or, for an entry read from a folder of per-document files (its name a pattern, its
    details the files it read), the files themselves: ``these 10 document files (A/A.xml, B/B.xml, ...) score``.

    >>> _what_scores({"file": "a.txt"}), _what_scores({"file": "<doc>.xml", "details": {"files": ["A.xml"]}})
    ('this file scores', 'this document file (A.xml) scores')
    >>> _what_scores({"file": "<doc>.xml", "details": {"files": ["A.xml", "B.xml", "C.xml"]}})
    'these 3 document files (A.xml, B.xml, ...) score'
    """
    files = (entry.get("details") or {}).get("files") if isinstance(entry.get("details"), dict) else None
    if not files or not isinstance(files, list):
        return "this file scores"
    shown = ", ".join(str(name) for name in files[:2]) + (", ..." if len(files) > 2 else "")
    return ("this document file (%s) scores" % shown if len(files) == 1 else
            "these %d document files (%s) score" % (len(files), shown))


def floor_text(entry, task, kind):
    """What a file at the floor most likely means, after its score: items not scored as submitted (``zeroed_sentences``:
    their format errors are reported) are the first cause; on a file of fewer items than its kind's
    ``floor_min_items``, that tells little (an honest system often scores so low on so few items); else a systematic
    mistake and its likely causes."""
    items = entry.get("sentences")
    least = getattr(kind, "floor_min_items", None)
    zeroed = entry.get("zeroed_sentences")
    if type(zeroed) is int and zeroed > 0:
        return (": %d of its %s items are not scored as submitted (their errors are reported), the first cause; mend "
                "them, then compare again. Other likely causes for this task: %s." % (
                    zeroed, items if type(items) is int else "", causes(task, kind)))
    if type(least) is int and type(items) is int and items < least:
        return (". On %d items this tells little: an honest system's score on so few items spreads widely, and "
                "often falls this low (at least %d items are needed to call it a systematic mistake). If it stays "
                "this low on more data, likely causes for this task: %s." % (items, least, causes(task, kind)))
    return (": a well-formed file that does no better almost always holds a systematic mistake. Likely causes for "
            "this task: %s." % causes(task, kind))


#: Below this share of items right within the first candidates, a file says too little for :func:`inverted_ranks`.
MIN_RANKED_SHARE = 0.05
#: A file of fewer items is too small for :func:`inverted_ranks` to tell a reversed ranking from chance.
MIN_RANKED_ITEMS = 20
#: :func:`inverted_ranks` speaks when the first candidate is right less than 1/RANKED_MARGIN as often as a random one
#: of the first k: a ranking that is merely poor, or the same candidates for every item (a floor built from the
#: input's most frequent units: top-3 at 3.2-3.7 times top-1 on the release's dev set), stays under it; a list
#: written best last or padded in front goes far beyond it (top-1 near 0).
RANKED_MARGIN = 2.0


def inverted_ranks(entries, tasks, kinds):
    """One warning per scored entry of ``entries`` whose first candidate is right less than half as often as a
    random one of its first k would be: over the file's items (its ``micro`` scores), top-k accuracy above
    :data:`RANKED_MARGIN` times k times top-1 accuracy (a kind's ``ranked_components``: the top-1 and the top-k
    component and k), in a file of at least :data:`MIN_RANKED_ITEMS` items. A ranking that is no better than chance
    still has top-k at most k times top-1; candidates written best last, or padded in front with "", have much more.
    Read from the scores already computed: it costs no pass over a file."""
    found = []
    for entry in entries:
        task = tasks.get(entry.get("task"))
        ranked = getattr(kinds.get(getattr(task, "kind", None)), "ranked_components", None)
        components = entry.get("micro") if entry.get("status") == "scored" else None
        if not ranked or type(components) is not dict or not entry.get("items", 0) >= MIN_RANKED_ITEMS:
            continue
        first, top, k = ranked
        at_1, at_k = components.get(first), components.get(top)
        if type(at_1) is not float or type(at_k) is not float or at_k < MIN_RANKED_SHARE or \
                at_k <= RANKED_MARGIN * k * at_1:
            continue
        found.append(Message(entry["file"], WARNING, "whole file", (
            "%s %.4f but %s %.4f: the first candidate is right less than half as often as a random one of the first "
            "%d would be. The candidates are probably ranked best last (a list reversed, or sorted by a score where lower is "
            "better) or padded in front (\"\" first); write each list best first." % (first, at_1, top, at_k, k))))
    return found


#: A label counts in :func:`swapped_labels` when the gold holds it at least this many times, and this share of the
#: file's items.
SWAP_MIN_GOLD = 10
SWAP_MIN_SHARE = 0.01
#: A label counts as missed on purpose when it is predicted right at most this share of the times chance alone
#: would (its gold count times the share of the file's predictions that are this label: what a misordered or
#: random file gets), and chance would give at least :data:`SWAP_MIN_CHANCE`.
SWAP_MAX_OF_CHANCE = 0.25
SWAP_MIN_CHANCE = 5


def swapped_pairs(per_tag):
    """The pairs of labels of ``per_tag`` (``{label: {"tp", "fp", "fn"}}``) that look swapped: each missed on
    purpose (right far less often than chance: :data:`SWAP_MAX_OF_CHANCE`) while the other is wrongly predicted
    about as often (at least half as often) as the
    first is missed. Each label is in one pair at most, the best matched first."""
    counts = dict((label, c) for label, c in per_tag.items() if label != "null" and type(c) is dict
                  and all(type(c.get(k)) is int for k in ("tp", "fp", "fn")))
    items = sum(c["tp"] + c["fn"] for c in counts.values())
    least = max(SWAP_MIN_GOLD, SWAP_MIN_SHARE * items)
    missed = []
    for label, c in counts.items():
        chance = float(c["tp"] + c["fn"]) * (c["tp"] + c["fp"]) / items if items else 0.0
        if c["tp"] + c["fn"] >= least and chance >= SWAP_MIN_CHANCE and c["tp"] <= SWAP_MAX_OF_CHANCE * chance:
            missed.append(label)
    candidates = []
    for i, a in enumerate(missed):
        for b in missed[i + 1:]:
            ca, cb = counts[a], counts[b]
            if cb["fp"] * 2 >= ca["fn"] and ca["fp"] * 2 >= cb["fn"]:
                match = min(cb["fp"], ca["fn"]) + min(ca["fp"], cb["fn"])
                candidates.append((-match, a, b))
    pairs, used = [], set()
    for _, a, b in sorted(candidates):
        if a not in used and b not in used:
            pairs.append((a, b))
            used.update((a, b))
    return [(a, b, counts[a], counts[b]) for a, b in pairs]


def swapped_labels(entries, tasks, kinds):
    """One warning per scored entry of ``entries`` whose kind checks label swaps (``label_swaps``) and whose
    per-label counts (``details["per_tag"]``) show two labels swapped throughout (:func:`swapped_pairs`): each
    mostly missed while the other is predicted in its place, priced when the kind scored the file with them exchanged
    back (``details["swapped"]``, :func:`price_text`). Only where the gold is public (the callers')."""
    found = []
    for entry in entries:
        task = tasks.get(entry.get("task"))
        kind = kinds.get(getattr(task, "kind", None))
        per_tag = (entry.get("details") or {}).get("per_tag")
        if not getattr(kind, "label_swaps", False) or entry.get("status") != "scored" or type(per_tag) is not dict:
            continue
        pairs = swapped_pairs(per_tag)
        if not pairs:
            continue
        said = "; ".join("'%s' and '%s' (of {:,} gold '%s', {:,} predicted right, while '%s' is wrongly predicted {:,} "
                         "times; of {:,} gold '%s', {:,} right, while '%s' is wrongly predicted {:,} times)".format(
                             ca["tp"] + ca["fn"], ca["tp"], cb["fp"], cb["tp"] + cb["fn"], cb["tp"], ca["fp"])
                         % (a, b, a, b, b, a) for a, b, ca, cb in pairs)
        priced = (entry.get("details") or {}).get("swapped")
        found.append(Message(entry["file"], WARNING, "whole file", (
            "labels that look swapped throughout: %s. Check how the system's label ids map to the label names.%s"
            % (said, " " + price_text(priced, "with them exchanged back") if type(priced) is dict else ""))))
    return found


def shifted_labels(entries):
    """One warning per scored entry of ``entries`` whose details hold ``shifted`` (a kind found its labels match the
    gold better one line away within each sentence: :func:`evalkit.lines.shifted_agreement`). Only where the gold is
    public (the callers')."""
    found = []
    for entry in entries:
        shifted = (entry.get("details") or {}).get("shifted")
        if entry.get("status") != "scored" or type(shifted) is not dict:
            continue
        later = shifted.get("direction") == "later"
        why = ("Each label stands one line after its token: was the label of a start symbol ([CLS], <s>) written and "
               "the last token's left out?" if later else "Each label stands one line before its token: was the first "
               "token's label left out?")
        found.append(Message(entry["file"], WARNING, "whole file", (
            "the labels look shifted by one line within each sentence: read one line %s, %.1f%% of them would match "
            "the gold, against %.1f%% as written. %s" % (
                "earlier" if later else "later", 100.0 * shifted["shifted"] / max(shifted["pairs"], 1),
                100.0 * shifted["in_place"] / max(shifted["items"], 1), why))))
    return found


def reversed_scores(entries):
    """One message per scored entry whose details hold ``direction`` (a kind found many items whose scores look
    reversed: every score 0 or more, some above 1, e.g. :func:`evalkit.choice.direction_counts`): how often those
    items are won as written and once every score is negated, which the warning given without the gold cannot
    know. Negating wins clearly (the difference at least two standard errors of a sign test, 2 * sqrt(sum), and at
    least one item): a warning to negate them; as written wins clearly: a note that their direction is right (a
    logit or a reranker's score, higher = more likely, must not be negated); else a note that the items are too
    few to tell. Only where the gold is public (the callers')."""
    found = []
    for entry in entries:
        direction = (entry.get("details") or {}).get("direction")
        if entry.get("status") != "scored" or type(direction) is not dict:
            continue
        sets, written, negated = direction.get("sets"), direction.get("as_written"), direction.get("negated")
        total = direction.get("total") or sets
        if not all(type(v) in (int, float) for v in (sets, written, negated, total)) or not sets:
            continue
        unit = printable(direction.get("unit"), 20) if type(direction.get("unit")) is str else "items"
        said = ("the %d %s whose scores are all 0 or more (some above 1) are won %.1f times as written and %.1f "
                "times once every score is negated" % (sets, unit, written, negated))
        clear = abs(negated - written) >= max(1.0, 2.0 * (written + negated) ** 0.5)
        if clear and negated > written:
            found.append(Message(entry["file"], WARNING, "whole file", (
                "%s: in these scores lower means more likely (perplexities, losses, surprisals), while the highest "
                "score is chosen here. Negate them (here, about %+.4f accuracy), or submit log-probabilities."
                % (said, (negated - written) / float(total)))))
        elif clear:
            found.append(Message(entry["file"], INFO, "whole file", (
                "%s: in these scores higher means more likely, as it must here; leave their direction as it is (the "
                "warning about their direction does not apply to them)." % said)))
        else:
            found.append(Message(entry["file"], INFO, "whole file", (
                "%s: too few to tell which direction is right; more of them, or the model's own "
                "definition of its score, says which." % said)))
    return found


#: A file read as meant that would score more than this many times its score as written loses most of its score.
LOSS_FACTOR = 2.0


def mended_prices(entries):
    """One warning per file that a kind read as meant and priced against the gold (``details["mended"]`` of its
    entries: ``{"metric": name, "files": [{"file", "where", "cause", "written", "mended"}], "whole": {"written",
    "mended"}}``: a mistake the kind can undo exactly, such as links written as bare numbers), when read as
    meant it scores more than as written: the cause, the file's score as written and read as meant for each task
    that prices it, the whole submission's on the first such file, and :data:`evalkit.messages.LOSS_NOTE` when it
    would score more than :data:`LOSS_FACTOR` times as much read as meant. Only where the gold is public (the
    callers'); a file scored by several tasks gets one message."""
    found, whole = OrderedDict(), []
    for entry in entries:
        mended = (entry.get("details") or {}).get("mended")
        if entry.get("status") != "scored" or type(mended) is not dict:
            continue
        for item in mended.get("files") or []:
            if type(item) is not dict or type(item.get("file")) is not str:
                continue
            prices = [(mended["metric"], item["written"], item["mended"])] + [
                tuple(also) for also in item.get("also") or [] if type(also) is list and len(also) == 3]
            if any(meant > written for _, written, meant in prices):
                said = found.setdefault(item["file"], (item, [], set()))[1]
                found[item["file"]][2].add(mended["metric"])
                said.extend(price for price in prices if (price[2] != price[1] or price[0] == mended["metric"])
                            and price[0] not in [metric for metric, _, _ in said])
                if not whole and mended["whole"]["mended"] > mended["whole"]["written"]:
                    whole.append((mended["metric"], mended["whole"]["written"], mended["whole"]["mended"]))
    messages = []
    for name, (item, prices, mains) in found.items():
        # the official metrics say the loss; the others (composition F1) only where they alone lose: a property
        # outside the schema leaves the intervals whole
        official = [price for price in prices if price[0] in mains]
        if any(written != meant for _, written, meant in official):
            prices = official
        said = "; ".join("its %s is %.4f as written and %.4f read as meant" % price for price in prices)
        if whole and not messages:
            said += "; the whole submission's %s is %.4f as written and %.4f with every such file read as meant" % (
                whole[0])
        lost = any(written * LOSS_FACTOR < meant for _, written, meant in prices)
        messages.append(Message(name, WARNING, item.get("where") or "whole file", "%s: priced on this phase's gold, "
                                "%s%s." % (item["cause"], said, " (%s)" % LOSS_NOTE if lost else "")))
    return messages


def loses_most(priced):
    """Whether a mistake priced against the gold (``{"as_written", "mended"}``: the file's score as written and with
    the mistake mended) costs most of the file's score: mended, it would score more than :data:`LOSS_FACTOR` times
    as much."""
    return priced["as_written"] * LOSS_FACTOR < priced["mended"]


def price_text(priced, how):
    """"Priced on this phase's gold, the file scores X as written and Y <how>.", with :data:`LOSS_NOTE` when the
    mistake costs most of the score (:func:`loses_most`): the sentence of a kind's own message (:func:`kind_messages`)
    that prices a mistake where the gold is public, which the kits' validators count (evalkit/verdict.py).

    >>> price_text({"as_written": 0.2, "mended": 0.9}, "with the labels renamed")
    "Priced on this phase's gold, the file scores 0.2000 as written and 0.9000 with the labels renamed (this file \
loses most of its score)."
    """
    return "Priced on this phase's gold, the file scores %.4f as written and %.4f %s%s" % (
        priced["as_written"], priced["mended"], how, " (%s)." % LOSS_NOTE if loses_most(priced) else ".")


def kind_messages(entries, tasks, kinds):
    """The messages a kind gives of its own from a scored entry's details where the gold is public (a kind's
    ``public_gold_messages(entry, task)``: e.g. mistakes :mod:`evalkit.lines` priced against the gold, with the score
    as written and mended)."""
    found = []
    for entry in entries:
        task = tasks.get(entry.get("task"))
        said = getattr(kinds.get(getattr(task, "kind", None)), "public_gold_messages", None)
        if said is not None and entry.get("status") == "scored":
            found.extend(said(entry, task))
    return found


def public_gold_messages(entries, tasks, kinds):
    """The messages that read the per-label, per-line and per-rank results against the gold, for every file: two
    labels swapped (:func:`swapped_labels`), labels shifted by a line (:func:`shifted_labels`), candidates ranked best
    last (:func:`inverted_ranks`), scores whose direction looks reversed tried both ways (:func:`reversed_scores`),
    what a kind read as meant, priced (:func:`mended_prices`), and a kind's own (:func:`kind_messages`).
    Only where the gold is public (the scorer's development report, the kits' validators on dev)."""
    return (swapped_labels(entries, tasks, kinds) + shifted_labels(entries) + inverted_ranks(entries, tasks, kinds)
            + reversed_scores(entries) + mended_prices(entries) + kind_messages(entries, tasks, kinds))


def check_report(report, floor_path, competition, kinds):
    """The warnings of :func:`below_floor` for ``report`` (a scored report on a gold-public reference) with the
    floor file at ``floor_path`` (none when it is None or holds no floor), and :func:`public_gold_messages`. For the
    starting kits' validators, which score the development split against the gold they ship and read the kit's own
    floor file."""
    label, floors = read_floor(floor_path) if floor_path else ("", {})
    tasks = dict((task.folder, task) for task in competition.TASKS)
    found = below_floor(report["entries"], floors, label, tasks, kinds) if floors else []
    return [message.as_dict() for message in found + public_gold_messages(report["entries"], tasks, kinds)]


def kit_floor_file(kit_folder, competition_id):
    """The floor file a starting kit's validator reads: the kit's ``reference_data/dev/`` (the bundle's kit), else
    the repository's development reference (``reference_data/dev`` beside the kit folder, or
    ``reference_data/<competition id>/dev`` for a competition under ``competitions/``); None when there is none."""
    for folder in (os.path.join(kit_folder, "reference_data", "dev"),
                   os.path.join(os.path.dirname(kit_folder), "reference_data", "dev"),
                   os.path.join(kit_folder, os.pardir, os.pardir, os.pardir, "reference_data", competition_id, "dev")):
        path = os.path.join(folder, FILE_NAME)
        if os.path.isfile(path):
            return os.path.normpath(path)
    return None


def gold_scores(report, with_gold):
    """``{file: score}`` of the scored entries of ``report`` whose reference holds the gold (``with_gold(entry)``):
    what evalkit/verdict.py counts as scoring 0 when a score is 0. Where several tasks score the same submitted
    file (a folder of per-document files scored by two tasks), the file keeps its lowest score: one task's 0 is
    not hidden by another task's score of the same file. An entry whose details list the files it read
    (``details["files"]``: a folder of per-document files, whose entry is named by its pattern) gives its score to
    each of them, so that a score of 0 names the files submitted, not the pattern.

    >>> gold_scores({"entries": [{"file": "f", "task": "a", "status": "scored", "score": 0.0},
    ...                          {"file": "f", "task": "b", "status": "scored", "score": 1.0}]}, lambda e: True)
    {'f': 0.0}
    """
    scores = {}
    for entry in report.get("entries", []):
        if entry.get("status") == "scored" and with_gold(entry):
            for name in (entry.get("details") or {}).get("files") or [entry["file"]]:
                scores[name] = min(entry["score"], scores.get(name, entry["score"]))
    return scores


def judge(report, competition, kinds, kit_folder, with_gold):
    """``report`` (a starting kit validator's, scored against references written from a split's files) as the kit's
    verdict reads it (:func:`evalkit.verdict.conclude`): the warnings of the files whose reference holds the gold
    (``with_gold(entry)``) at or below the kit's floor (:func:`kit_floor_file` of ``kit_folder``, read only when such a
    file was scored; none when ``kit_folder`` is None) or read wrong by :func:`public_gold_messages`, and
    ``report["gold_scores"]``, their scores (a 0 there is a file that will score 0)."""
    scored = {"entries": [entry for entry in report["entries"] if with_gold(entry)]}
    if scored["entries"]:
        path = kit_floor_file(kit_folder, competition.COMPETITION_ID) if kit_folder else None
        report["messages"] = report["messages"] + check_report(scored, path, competition, kinds)
    report["gold_scores"] = gold_scores(report, with_gold)
    return report
