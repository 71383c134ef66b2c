"""Build the SpanglishEval dev and test sets by the paper's recipe (organiser side).

``python -m competitions.spanglisheval.build --data ../shared/spanglisheval --out DIR``

For each split the gold lines of ``bangor_raw/bangor_<split>_gold`` are visited in a seeded random order;
a line is skipped once the quota of its kind is full (250 code-switched golds, 750 monolingual), is
discarded when its gold has fewer than 3 words (punctuation excluded) or when fewer than 5 alternatives of
some type are found, and is kept otherwise, until both quotas are full. Visiting lines in a random order
and keeping the first that pass is the same draw as filtering every line and then sampling at random;
each line's own random choices (its code-switched segment) are seeded by the line, so the result does not
depend on the order of work or the number of processes.

Writes, byte-identical on every run with the same inputs and options::

    DIR/<split>/sets.jsonl        public: {"id", "sentences"} per set (sentences in a seeded random order)
    DIR/<split>/reference.jsonl   organiser: the same plus "gold" (index), "gold_type", "types", "line"
    DIR/statistics.md             the paper's Table 2 statistics for the rebuilt sets, with the funnel
    DIR/statistics.json           the same numbers
"""
import argparse
import io
import json
import multiprocessing
import os
import random
import sys
import time

import competitions.spanglisheval  # noqa: F401  (puts the scoring program on sys.path)
from competitions.spanglisheval import alternatives, decoder, resources, statistics
from evalkit.messages import DataError

SPLITS = ("dev", "test")
MIN_WORDS = 3
MIN_ALTERNATIVES = 5
QUOTAS = {"cs": 250, "mono": 750}
SEED = "spanglisheval-2018"
BATCH = 48

_STATE = {}


def gold_path(data, split):
    """Path of a split's gold file."""
    return os.path.join(data, "bangor_raw", "bangor_%s_gold" % split)


def read_gold(path, limit=None):
    """The lines of a gold file (UTF-8), at most ``limit``."""
    if not os.path.isfile(path):
        raise DataError(path, "", "missing gold file (expected bangor_raw/bangor_<split>_gold)")
    try:
        with io.open(path, encoding="utf-8") as handle:
            lines = [line.rstrip("\r\n") for line in handle]
    except UnicodeDecodeError as error:
        raise DataError(path, "byte %d" % error.start, "expected UTF-8 text (%s)" % error.reason)
    return lines[:limit] if limit else lines


def _init(data):
    """Load lexicons, tries and phone changes once per process."""
    if "data" not in _STATE or _STATE["data"] != data:
        lexicons, changes = resources.load(data)
        tries = {lang: decoder.build_trie(lex) for lang, lex in lexicons.items()}
        _STATE.update(data=data, lexicons=lexicons, changes=changes, tries=tries)


def examine(job):
    """(line index, outcome) for one gold line: outcome is ("short"|"oov"|"few", None) or ("ok", found)."""
    data, seed, split, index, line = job
    _init(data)
    gold = alternatives.Gold(line)
    if len(gold.words) < MIN_WORDS:
        return index, ("short", None)
    if not alternatives.in_vocabulary(gold.words, _STATE["lexicons"]):
        return index, ("oov", None)
    rng = random.Random("%s:%s:%d" % (seed, split, index))
    found = alternatives.alternatives(gold, rng, _STATE["lexicons"], _STATE["tries"], _STATE["changes"])
    if min(len(found[kind]) for kind in ("cs", "en", "sp")) < MIN_ALTERNATIVES:
        return index, ("few", found)
    return index, ("ok", found)


def make_set(set_id, seed, gold, found):
    """The reference record of one set: sentences shuffled (seeded by the id), gold index, types."""
    entries = [(gold.text(), "gold")]
    seen = {gold.text()}
    for kind in ("cs", "en", "sp"):
        for sentence in found[kind]:
            if sentence not in seen:
                seen.add(sentence)
                entries.append((sentence, kind))
    random.Random("%s:%s:order" % (seed, set_id)).shuffle(entries)
    types = [kind for _, kind in entries]
    return {"id": set_id, "sentences": [s for s, _ in entries], "gold": types.index("gold"),
            "gold_type": gold.kind(), "types": types}


def _kind(line):
    """'cs' or 'mono': the quota a gold line counts towards."""
    return "cs" if alternatives.Gold(line).is_cs() else "mono"


def _full(taken, quotas, kind=None):
    """Whether the quota of ``kind`` (of every kind when None) is full."""
    kinds = [kind] if kind else list(quotas)
    return all(len(taken[k]) >= quotas[k] for k in kinds)


def build_split(data, split, seed, quotas, jobs, limit=None):
    """Return (reference records, funnel counts) of one split."""
    lines = read_gold(gold_path(data, split), limit)
    _init(data)   # resources are read (and checked) here; worker processes inherit them
    order = list(range(len(lines)))
    random.Random("%s:%s:lines" % (seed, split)).shuffle(order)
    taken = {"cs": [], "mono": []}
    funnel = {"lines": len(lines), "visited": 0, "skipped_quota_full": 0, "short": 0, "oov": 0, "few": 0, "ok": 0}
    pool = multiprocessing.Pool(jobs, _init, (data,)) if jobs > 1 else None
    try:
        position = 0
        while position < len(order) and not _full(taken, quotas):
            batch = order[position:position + BATCH * max(jobs, 1)]
            position += len(batch)
            # lines whose kind is full now stay full: only the others are worth examining
            jobs_ = [(data, seed, split, i, lines[i]) for i in batch if not _full(taken, quotas, _kind(lines[i]))]
            results = dict(pool.map(examine, jobs_, chunksize=4) if pool else [examine(job) for job in jobs_])
            for index in batch:                   # the accounting is sequential, so batching cannot show
                if _full(taken, quotas):
                    break
                cls = _kind(lines[index])
                if _full(taken, quotas, cls):
                    funnel["skipped_quota_full"] += 1
                    continue
                outcome, found = results[index]
                funnel["visited"] += 1
                funnel[outcome] += 1
                if outcome == "ok":
                    taken[cls].append((index, alternatives.Gold(lines[index]), found))
    finally:
        if pool:
            pool.close()
            pool.join()
    rank = {index: place for place, index in enumerate(order)}
    accepted = sorted(taken["cs"] + taken["mono"], key=lambda item: rank[item[0]])
    records = []
    for number, (index, gold, found) in enumerate(accepted, 1):
        record = make_set("%s-%04d" % (split, number), seed, gold, found)
        record["line"] = index + 1
        records.append(record)
    funnel["shortfall"] = {c: quotas[c] - len(taken[c]) for c in quotas}
    return records, funnel


def write_jsonl(path, records):
    """Write one JSON object per line (UTF-8, keys sorted, no trailing spaces)."""
    with io.open(path, "w", encoding="utf-8", newline="\n") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")


#: Optional file of a data folder giving its own quotas (``{"cs": N, "mono": M}``), e.g. the small embedded sample.
QUOTAS_FILE = "quotas.json"


def data_quotas(data):
    """The quotas of a data folder: its ``quotas.json`` when it has one, else the paper's (:data:`QUOTAS`).

    DataError when the file is not a JSON object with a positive integer for each of ``cs`` and ``mono``."""
    path = os.path.join(data, QUOTAS_FILE)
    if not os.path.isfile(path):
        return dict(QUOTAS)
    try:
        with io.open(path, encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError) as error:
        raise DataError(path, "", "expected a JSON object {\"cs\": N, \"mono\": M}, got unreadable JSON (%s)" % error)
    if not isinstance(found, dict) or sorted(found) != sorted(QUOTAS) or not all(
            isinstance(found[k], int) and not isinstance(found[k], bool) and found[k] > 0 for k in QUOTAS):
        raise DataError(path, "", "expected a JSON object {\"cs\": N, \"mono\": M} with positive integers, got %s"
                        % json.dumps(found)[:200])
    return found


def build(data, out, seed=SEED, quotas=None, jobs=2, limit=None, splits=SPLITS):
    """Build every split into ``out``; return {split: (records, funnel)}. ``quotas`` None: :func:`data_quotas`."""
    quotas = dict(quotas or data_quotas(data))
    built = {}
    for split in splits:
        records, funnel = build_split(data, split, seed, quotas, jobs, limit)
        folder = os.path.join(out, split)
        if not os.path.isdir(folder):
            os.makedirs(folder)
        write_jsonl(os.path.join(folder, "reference.jsonl"), records)
        write_jsonl(os.path.join(folder, "sets.jsonl"), [{"id": r["id"], "sentences": r["sentences"]}
                                                         for r in records])
        built[split] = (records, funnel)
    statistics.write(out, built, {"seed": seed, "quotas": quotas, "limit": limit})
    return built


def command_line_quotas(args):
    """The quotas of ``--cs`` / ``--mono``, each defaulting to the data's (:func:`data_quotas`)."""
    quotas = data_quotas(args.data)
    quotas.update((kind, getattr(args, kind)) for kind in QUOTAS if getattr(args, kind) is not None)
    return quotas


def main(argv=None):
    """Command line: build the sets, print the funnel and the time taken."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="SpanglishEval folder (bangor_raw/, generation_resources/, mappings/)")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--seed", default=SEED)
    parser.add_argument("--jobs", type=int, default=2, help="processes (the result does not depend on it)")
    parser.add_argument("--cs", type=int, help="sets with a code-switched gold per split (default: the data's "
                        "quotas.json, else %d)" % QUOTAS["cs"])
    parser.add_argument("--mono", type=int, help="sets with a monolingual gold per split (default: the data's "
                        "quotas.json, else %d)" % QUOTAS["mono"])
    parser.add_argument("--limit", type=int, default=None, help="use only the first N lines of each split")
    parser.add_argument("--splits", default=",".join(SPLITS))
    args = parser.parse_args(argv)
    started = time.time()
    try:
        splits = [s for s in args.splits.split(",") if s]
        built = build(args.data, args.out, args.seed, command_line_quotas(args), args.jobs, args.limit, splits)
    except DataError as error:
        sys.stderr.write("error: %s\n" % error)
        return 2
    for split, (records, funnel) in built.items():
        print("%s: %d sets; funnel %s" % (split, len(records), json.dumps(funnel, sort_keys=True)))
    print("built in %.1f s with %d process(es); statistics in %s" % (
        time.time() - started, args.jobs, os.path.join(args.out, "statistics.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
