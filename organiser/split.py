"""The public / private split of a test phase's gold (docs/test_feedback.md): the gold that decides the ranking is
never uploaded.

``python -m organiser reference`` runs :func:`split_reference` after the competition's reference builder wrote
``REF/test/`` with the full gold (organiser/builders.py). By the competition's ``test_feedback`` (its schedule,
:func:`organiser.schedule.test_feedback`):

- ``public_private`` (default): each reference file's scorable items (sentences, documents, sets) are split,
  stratified per file, at ``public_fraction``; ``REF/test/`` (uploaded: the platform's test phase) keeps the public
  items' gold and redacts the private ones'; ``REF/private/test/`` (never uploaded: the final ranking) the reverse;
- ``blind``: ``REF/test/`` redacts every gold; ``REF/private/test/`` is the whole gold;
- ``full``: ``REF/test/`` is unchanged; ``REF/private/test/`` is the whole gold too.

Both folders carry ``split.json`` (:mod:`evalkit.split`). The split is deterministic: the items of a file are ranked by
HMAC-SHA256(seed, "<file>\\0<index>") and the first ``round(fraction * n)`` are public (at least one public and one
private when ``n >= 2``). ``<file>`` is the file's own path, or, where several files of the phase hold the same items
(the same inputs in the same order: SCATE's two tasks over one set of documents, ST2024's three tasks over one
treebank), the first of them, so that an item is public in all of them or in none (a public item of one file never
gives away the gold of a private item of another). The seed is ``--split-seed`` or, by default, derived from the
SHA-256 of the full test gold (as secret as the gold, reproducible); only a digest of it is written.

A redacted item keeps its input (forms, tokens, masked line, candidate sentences, document text) and loses its gold,
so that the scoring program checks the format of every item of a submission against the whole input; items a
reference builder already excluded from scoring (``null`` gold) stay as they are in both folders.
"""
import hashlib
import hmac
import json
import os
import shutil

from organiser import declarations, schedule as schedule_module
from evalkit import scoring
from evalkit import split as evalkit_split
from evalkit.layout import ReferenceError
from evalkit.split import SPLIT_FILE, read_split

TEST_PHASE = "test"
#: The folder of ``REF`` that holds what the final ranking uses (never uploaded).
PRIVATE_FOLDER = "private"
#: An Anafora file without any annotation (what a document predicting nothing looks like).
EMPTY_ANAFORA = ("<?xml version='1.0' encoding='UTF-8'?>\n<data>\n<info><progress>completed</progress></info>\n"
                 "<annotations>\n</annotations>\n</data>\n")

__all__ = ["split_reference", "split_phase", "read_split", "private_items", "seed_digest", "derive_seed",
           "SPLIT_FILE", "PRIVATE_FOLDER"]


def handler(task):
    """The item side of ``task``'s kind (:class:`evalkit.items.Items`): how its reference files' items are read,
    redacted and written, and what makes two items one."""
    return scoring.KINDS[task.kind].items


# --------------------------------------------------------------------------- the split

def derive_seed(full_dir, files):
    """The default seed: the SHA-256 (hex) of the full test gold (``files``: ``{relative path: bytes}``)."""
    digest = hashlib.sha256()
    for relative in sorted(files):
        digest.update(("%s\0%d\0" % (relative, len(files[relative]))).encode("utf-8"))
        digest.update(files[relative])
    return digest.hexdigest()


def seed_digest(seed):
    """What split.json says of the seed: the first 12 hex digits of SHA-256("seed:" + seed)."""
    return hashlib.sha256(("seed:%s" % seed).encode("utf-8")).hexdigest()[:12]


def public_count(fraction, n):
    """How many of ``n`` items are public: ``fraction * n`` rounded half up, at least 1 public and 1 private when
    ``n >= 2``.

    >>> [public_count(0.3, n) for n in (0, 1, 2, 3, 5, 10, 100)]
    [0, 0, 1, 1, 2, 3, 30]
    """
    k = int(fraction * n + 0.5)
    if n >= 2:
        k = max(1, min(n - 1, k))
    return k


def rank_key(seed, name, index):
    """The rank of item ``index`` of file ``name``: HMAC-SHA256(seed, "<name>\\0<index>") (hex)."""
    return hmac.new(str(seed).encode("utf-8"), ("%s\0%d" % (name, index)).encode("utf-8"), hashlib.sha256).hexdigest()


def public_indices(seed, name, scorable, fraction):
    """The sorted public indices among ``scorable`` (item indices) of the file (or group) ``name``."""
    ranked = sorted(scorable, key=lambda index: rank_key(seed, name, index))
    return sorted(ranked[:public_count(fraction, len(scorable))])


def _reference_files(decl, full_dir):
    """``[(relative path, task)]`` of the phase's reference files, found as the scoring program finds them."""
    _, _, pairs, paths = scoring._reference_files(decl, full_dir)
    return [(os.path.relpath(paths[(task.folder, lang)], full_dir).replace(os.sep, "/"), task) for task, lang in pairs]


def split_phase(full_dir, competition, mode, fraction, seed, public_out, private_out):
    """Split the full gold of ``full_dir`` (a test phase's reference folder) into ``public_out`` (what the platform
    gets) and ``private_out`` (what the final ranking uses); return ``{"public": manifest, "private": manifest}``.

    ``competition``: a hosted competition (organiser.declarations.Hosted) or its declaration module; ``mode``:
    ``public_private``, ``blind`` or ``full``; ``seed``: a string, or None for :func:`derive_seed`. Files that are
    not reference files (phase.json, inventory.json, ...) are copied to both. ``public_out`` may be ``full_dir``
    itself (everything is read before anything is written).
    """
    decl = getattr(competition, "declaration", competition)
    files = _reference_files(decl, full_dir)
    data = {}
    for relative, _ in files:
        with open(os.path.join(full_dir, *relative.split("/")), "rb") as handle:
            data[relative] = handle.read()
    others = {}
    for root, _, names in os.walk(full_dir):
        for name in names:
            relative = os.path.relpath(os.path.join(root, name), full_dir).replace(os.sep, "/")
            if relative not in data and relative != SPLIT_FILE:
                with open(os.path.join(root, name), "rb") as handle:
                    others[relative] = handle.read()
    if seed is None:
        seed = derive_seed(full_dir, data)
    items = dict((relative, handler(task).read(data[relative])) for relative, task in files)
    groups = {}   # files holding the same items share the first one's split
    group_of = {}
    for relative, task in files:
        key = json.dumps([handler(task).key(item, task) for item in items[relative]], sort_keys=True)
        group_of[relative] = groups.setdefault(key, relative)
    notes = getattr(decl, "REPORT_NOTES", None) or {}
    base = {"mode": mode, "unit": notes.get("unit") or "sentences", "public_fraction": fraction,
            "seed_digest": seed_digest(seed)}
    scorable = dict((relative, [i for i, item in enumerate(items[relative]) if handler(task).scorable(item)])
                    for relative, task in files)
    if mode == "public_private":
        publics = choose_public(files, items, scorable, seed, group_of, fraction)
    else:
        publics = dict((relative, [] if mode == "blind" else scorable[relative]) for relative, _ in files)
    public_files, private_files, public_spec, private_spec = {}, {}, {}, {}
    for relative, task in files:
        items_of = handler(task)
        every = items[relative]
        public = publics[relative]
        chosen = set(public)
        private = [i for i in scorable[relative] if i not in chosen] if mode == "public_private" else scorable[relative]
        hidden, counted = set(private), set(scorable[relative])
        if mode == "full":
            public_files[relative] = data[relative]
        else:
            public_files[relative] = items_of.write([items_of.redact(item, task) if i in hidden else
                                                     item if i in counted else items_of.unscored(item)
                                                     for i, item in enumerate(every)], data[relative])
        if mode == "public_private":
            private_files[relative] = items_of.write([items_of.redact(item, task) if i in chosen else item
                                                      for i, item in enumerate(every)], data[relative])
        else:
            private_files[relative] = data[relative]
        public_spec[relative] = {"items": len(every), "scored": len(public), "indices": public}
        private_spec[relative] = {"items": len(every), "scored": len(private), "indices": private}
    public_part = {"public_private": "public", "blind": "none", "full": "all"}[mode]
    manifests = {"public": dict(base, part=public_part, files=public_spec),
                 "private": dict(base, part="private" if mode == "public_private" else "all", files=private_spec)}
    for out, written, manifest in ((public_out, public_files, manifests["public"]),
                                   (private_out, private_files, manifests["private"])):
        _write_folder(out, dict(others, **written), manifest)
    return manifests


def choose_public(files, items, scorable, seed, group_of, fraction):
    """``{file: sorted public indices}``: per file, its ``scorable`` items ranked by :func:`rank_key` (under its
    group's name, ``group_of``) and the first :func:`public_count` taken; then items that are one (the same
    :meth:`Items.identity`: a sentence repeated in a file or in several files, one sentence's word-level and
    character-level gap-filling lines, whose unmasked text is the other's gold) are public together or not at all:
    a group not wholly public is made private, and each file tops up its public part in rank order with items, or
    whole groups, that fit within every file's count."""
    ranked = dict((relative, sorted(scorable[relative], key=lambda index: rank_key(seed, group_of[relative], index)))
                  for relative, _ in files)
    targets = dict((relative, public_count(fraction, len(scorable[relative]))) for relative, _ in files)
    public = dict((relative, set(ranked[relative][:targets[relative]])) for relative, _ in files)
    groups = {}
    for relative, task in files:
        items_of = handler(task)
        for index in scorable[relative]:
            key = items_of.identity(items[relative][index], task)
            if key is not None:
                groups.setdefault(key, []).append((relative, index))
    group_of_item = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        for member in members:
            group_of_item[member] = members
        if not all(index in public[relative] for relative, index in members):
            for relative, index in members:
                public[relative].discard(index)
    for relative, _ in files:
        for index in ranked[relative]:
            if len(public[relative]) >= targets[relative]:
                break
            members = group_of_item.get((relative, index), [(relative, index)])
            if any(i in public[r] for r, i in members):
                continue
            adds = {}
            for r, _ in members:
                adds[r] = adds.get(r, 0) + 1
            if all(len(public[r]) + n <= targets[r] for r, n in adds.items()):
                for r, i in members:
                    public[r].add(i)
    return dict((relative, sorted(found)) for relative, found in public.items())


def _write_folder(out, files, manifest):
    """Write ``files`` (``{relative path: bytes}``) and the ``split.json`` of ``manifest`` into ``out``."""
    for relative, content in sorted(files.items()):
        path = os.path.join(out, *relative.split("/"))
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path))
        with open(path, "wb") as handle:
            handle.write(content)
    with open(os.path.join(out, SPLIT_FILE), "w", encoding="utf-8") as handle:
        handle.write(evalkit_split.dumps(manifest))


def split_reference(reference_dir, hosted, seed=None, report=print, schedule=None):
    """The machinery step of ``python -m organiser reference``: split ``reference_dir/test`` by the ``test_feedback``
    of ``schedule`` (a schedule file; default: the competition's own; ``make SCHEDULE=...`` overrides it) into
    itself and ``reference_dir/private/test``; return the manifests, or None when there is nothing to split (no test gold, or a test phase whose gold is public: a practice phase)."""
    full_dir = os.path.join(reference_dir, TEST_PHASE)
    private_dir = os.path.join(reference_dir, PRIVATE_FOLDER, TEST_PHASE)
    if os.path.isdir(private_dir):
        shutil.rmtree(private_dir)
    from organiser import bundle
    if not os.path.isdir(full_dir) or TEST_PHASE in bundle.read_public_gold(reference_dir):
        return None
    try:
        if not _reference_files(hosted.declaration, full_dir):
            return None
    except ReferenceError:   # a test folder without reference files: no test gold to split
        return None
    check_whole(hosted.declaration, full_dir)
    feedback = schedule_module.test_feedback(schedule or hosted.schedule)
    manifests = split_phase(full_dir, hosted, feedback["mode"], feedback["public_fraction"], seed, full_dir,
                            private_dir)
    public = manifests["public"]
    scored = sum(spec["scored"] for spec in public["files"].values())
    private = sum(spec["scored"] for spec in manifests["private"]["files"].values())
    report("test feedback: %s (%s): %s/%s scores %d %s (%s part), %s/%s %d (the final ranking; never upload it)"
           % (feedback["mode"], "seed digest %s" % public["seed_digest"], reference_dir, TEST_PHASE, scored,
              public["unit"], public["part"], reference_dir, os.path.join(PRIVATE_FOLDER, TEST_PHASE), private))
    return manifests


def check_whole(decl, full_dir):
    """Raise RuntimeError unless every reference file of ``full_dir`` reads as whole gold (no redacted item: the
    reference builder rewrote the test phase, not a part left by an earlier split)."""
    stale = os.path.join(full_dir, SPLIT_FILE)
    if os.path.isfile(stale):   # an earlier split's: the files it described were just rewritten
        os.remove(stale)
    _, _, pairs, paths = scoring._reference_files(decl, full_dir)
    digest = hashlib.sha256()
    for task, lang in pairs:
        try:
            scoring.load_reference(task, lang, paths[(task.folder, lang)], decl, digest)
        except ReferenceError as error:
            raise RuntimeError("the test gold in %s is not whole, so it cannot be split (a part left by an earlier "
                               "split? rebuild it): %s" % (full_dir, error))


def private_items(full_dir, private_dir, competition=None):
    """The gold of every private item, per reference file: ``{relative path: [(index, [gold strings])]}``, read
    from the full gold ``full_dir`` for the items ``private_dir/split.json`` scores (the private part; in modes
    blind and full, every item). What the leak audit looks for in everything uploaded. ``competition``: a Hosted or
    a declaration (default: the top-level competition)."""
    decl = getattr(competition, "declaration", competition) or declarations.load()
    manifest = read_split(private_dir)
    if manifest is None:
        raise ValueError("%s has no %s" % (private_dir, SPLIT_FILE))
    found = {}
    for relative, task in _reference_files(decl, full_dir):
        items_of = handler(task)
        with open(os.path.join(full_dir, *relative.split("/")), "rb") as handle:
            every = items_of.read(handle.read())
        spec = manifest["files"].get(relative) or {"indices": []}
        found[relative] = [(i, items_of.gold(every[i], task)) for i in spec["indices"]]
    return found
