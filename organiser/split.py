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

Both folders carry ``split.json`` (:mod:`evalkit.split`). The items of a file are ranked by
HMAC-SHA256(seed, "<file>\\0<item id>") and the first ``round(fraction * n)`` are public (at least one public and one
private when ``n >= 2``). ``<item id>`` is the item's identity across rebuilds (:func:`item_id`: its input, hashed), so
an item keeps its rank whatever its position and its gold. ``<file>`` is the file's own path, or, where several files
of the phase hold the same items (the same inputs in the same order: SCATE's two tasks over one set of documents,
ST2024's three tasks over one treebank), the first of them, so that an item is public in all of them or in none (a
public item of one file never gives away the gold of a private item of another). Only a digest of the seed is
written into anything uploaded.

**The split is fixed once drawn** (:class:`SplitState`): the first split draws a random seed (or takes
``--split-seed``) and keeps it, with every item's part, in the split state file (``--split-state``; ``make`` keeps it
in ``splits/<id>.json``, which ``make clean`` leaves alone and nothing uploads). Every later build reuses it by item
identity: an item keeps its part through a gold fix, an added or removed item or a rebuild on another machine with the
file copied; new items are drawn with the same seed. A build that would move an item of an earlier draw from private
to public is refused (:class:`SplitError`, the items named); ``--new-split`` draws anew, and the state keeps every
earlier draw's public items so that ``make check`` can say how many items the uploads made public together.

A redacted item keeps its input (forms, tokens, masked line, candidate sentences, document text) and loses its gold,
so that the scoring program checks the format of every item of a submission against the whole input; items a
reference builder already excluded from scoring (``null`` gold) stay as they are in both folders.
"""
import datetime
import hashlib
import hmac
import json
import os
import secrets
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

#: The version of the split state file (:class:`SplitState`).
STATE_VERSION = 1
#: In ``REF/private/`` (never uploaded): where the split state of this reference is, ``{"path": absolute path}``.
STATE_POINTER = "split_state.json"
#: A seed shorter than this can be guessed (and, in the leak audit, is too short to look for in uploaded files): the
#: split says so. A drawn seed is 32 hex digits.
MIN_SEED = 16

__all__ = ["split_reference", "split_phase", "read_split", "private_items", "seed_digest", "SplitState", "SplitError",
           "SPLIT_FILE", "PRIVATE_FOLDER"]


class SplitError(Exception):
    """A split that would undo an earlier one (private items made public, another seed without ``--new-split``), or a
    split state file that cannot be used: the organiser's to settle, said in one message."""


def handler(task):
    """The item side of ``task``'s kind (:class:`evalkit.items.Items`): how its reference files' items are read,
    redacted and written, and what makes two items one."""
    return scoring.KINDS[task.kind].items


# --------------------------------------------------------------------------- the split

def new_seed():
    """A fresh random seed (128 bits, hex): the first draw's."""
    return secrets.token_hex(16)


def item_id(items_of, item, task):
    """The identity an item keeps across rebuilds: the first 16 hex digits of the SHA-256 of its input
    (``items_of.key``, canonical JSON). A gold fix leaves it unchanged; so does any change of position."""
    text = json.dumps(items_of.key(item, task), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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


def rank_key(seed, name, identity):
    """The rank of the item of identity ``identity`` (:func:`item_id`) in file ``name``: HMAC-SHA256(seed,
    "<name>\\0<identity>") (hex)."""
    return hmac.new(str(seed).encode("utf-8"), ("%s\0%s" % (name, identity)).encode("utf-8"),
                    hashlib.sha256).hexdigest()


def _reference_files(decl, full_dir):
    """``[(relative path, task)]`` of the phase's reference files, found as the scoring program finds them."""
    _, _, pairs, paths = scoring._reference_files(decl, full_dir)
    return [(os.path.relpath(paths[(task.folder, lang)], full_dir).replace(os.sep, "/"), task) for task, lang in pairs]


def split_phase(full_dir, competition, mode, fraction, seed, public_out, private_out, kept=None, parts=None):
    """Split the full gold of ``full_dir`` (a test phase's reference folder) into ``public_out`` (what the platform
    gets) and ``private_out`` (what the final ranking uses); return ``{"public": manifest, "private": manifest}``.

    ``competition``: a hosted competition (organiser.declarations.Hosted) or its declaration module; ``mode``:
    ``public_private``, ``blind`` or ``full``; ``seed``: a string. ``kept``: ``{file: {item id: "public" or
    "private"}}`` of an earlier draw (:class:`SplitState`), which every item found again keeps (mode
    ``public_private``); ``parts``, a dict, receives this split's ``{file: {item id: part}}``. Files that are not
    reference files (phase.json, inventory.json, ...) are copied to both. ``public_out`` may be ``full_dir`` itself
    (everything is read before anything is written).
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
    ids = dict((relative, [item_id(handler(task), item, task) for item in items[relative]])
               for relative, task in files)
    if mode == "public_private":
        publics = choose_public(files, items, scorable, seed, group_of, fraction, ids, kept or {})
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
        if group_of[relative] != relative:   # the same items as another file: counted once in the phase's sizes
            public_spec[relative]["same_items_as"] = private_spec[relative]["same_items_as"] = group_of[relative]
        found = dict((ids[relative][i], "public" if i in chosen else "private") for i in scorable[relative])
        moved = sorted(index for index in chosen if (kept or {}).get(relative, {}).get(ids[relative][index]) == "private")
        if moved:
            raise SplitError("%s: %d item(s) that an earlier draw made private would be public now (%s%s): the "
                             "platform may already have shown their gold to nobody, and it would show it to every "
                             "team; keep the schedule's mode, or draw the split anew (--new-split, `make NEW_SPLIT=1`)"
                             % (relative, len(moved), ", ".join(items_of.label(i, every[i]) for i in moved[:3]),
                                ", ..." if len(moved) > 3 else ""))
        if parts is not None:
            parts[relative] = found
    public_part = {"public_private": "public", "blind": "none", "full": "all"}[mode]
    manifests = {"public": dict(base, part=public_part, files=public_spec),
                 "private": dict(base, part="private" if mode == "public_private" else "all", files=private_spec)}
    for out, written, manifest in ((public_out, public_files, manifests["public"]),
                                   (private_out, private_files, manifests["private"])):
        _write_folder(out, dict(others, **written), manifest)
    return manifests


def choose_public(files, items, scorable, seed, group_of, fraction, ids, kept):
    """``{file: sorted public indices}``. Per file, an item of an earlier draw keeps its part (``kept``: ``{file: {item
    id: part}}``); the other ``scorable`` items are ranked by :func:`rank_key` (under their group's name, ``group_of``;
    ``ids``: each item's :func:`item_id`) and taken until the file has :func:`public_count` public items. Then items
    that are one (the same :meth:`evalkit.items.Items.identity`: a sentence repeated in a file or in several files, one
    sentence's word-level and character-level gap-filling lines, two choice sets with one gold sentence) are public
    together or not at all: a group with a private member of an earlier draw is private, one with a public member of an
    earlier draw (and no private one) public, any other not wholly public private; and each file tops up its public part
    in rank order with new items, or whole groups, that fit within every file's count."""
    ranked = dict((relative, sorted(scorable[relative], key=lambda index: (
        rank_key(seed, group_of[relative], ids[relative][index]), index))) for relative, _ in files)
    targets = dict((relative, public_count(fraction, len(scorable[relative]))) for relative, _ in files)
    earlier = dict((relative, dict((index, (kept.get(relative) or {}).get(ids[relative][index]))
                                   for index in scorable[relative])) for relative, _ in files)
    public = {}
    for relative, _ in files:
        found = set(index for index, part in earlier[relative].items() if part == "public")
        for index in ranked[relative]:
            if len(found) >= targets[relative]:
                break
            if earlier[relative][index] is None:
                found.add(index)
        public[relative] = found
    groups = related_items(files, items, scorable)
    group_of_item = {}
    for members in groups:
        if len(members) < 2:
            continue
        for member in members:
            group_of_item[member] = members
        drawn = set(earlier[relative][index] for relative, index in members)
        if "private" in drawn or ("public" not in drawn and not all(index in public[relative]
                                                                   for relative, index in members)):
            for relative, index in members:
                public[relative].discard(index)
        elif "public" in drawn:
            for relative, index in members:
                public[relative].add(index)
    for relative, _ in files:
        for index in ranked[relative]:
            if len(public[relative]) >= targets[relative]:
                break
            members = group_of_item.get((relative, index), [(relative, index)])
            if any(i in public[r] or earlier[r][i] is not None for r, i in members):
                continue
            adds = {}
            for r, _ in members:
                adds[r] = adds.get(r, 0) + 1
            if all(len(public[r]) + n <= targets[r] for r, n in adds.items()):
                for r, i in members:
                    public[r].add(i)
    return dict((relative, sorted(found)) for relative, found in public.items())


def related_items(files, items, scorable):
    """The groups of items that are one (``[[(file, index), ...], ...]``, each of two or more, in file and index
    order): the same :meth:`evalkit.items.Items.identity`, or a near key in common (:meth:`~evalkit.items.Items.
    near_keys`: two sentences one token apart), joined transitively (union-find)."""
    parent = {}

    def find(member):
        while parent[member] != member:
            parent[member] = parent[parent[member]]
            member = parent[member]
        return member
    first = {}
    for relative, task in files:
        items_of = handler(task)
        for index in scorable[relative]:
            member = (relative, index)
            parent[member] = member
            item = items[relative][index]
            identity = items_of.identity(item, task)
            for key in ([("=", identity)] if identity is not None else []) + [
                    ("~", near) for near in items_of.near_keys(item, task)]:
                other = first.setdefault(key, member)
                if other != member:
                    parent[find(member)] = find(other)
    found = {}
    for member in sorted(parent, key=lambda m: ([r for r, _ in files].index(m[0]), m[1])):
        found.setdefault(find(member), []).append(member)
    return [members for members in found.values() if len(members) > 1]


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


def split_reference(reference_dir, hosted, seed=None, report=print, schedule=None, state_path=None, new_draw=False):
    """The machinery step of ``python -m organiser reference``: split ``reference_dir/test`` by the ``test_feedback``
    of ``schedule`` (a schedule file; default: the competition's own; ``make SCHEDULE=...`` overrides it) into
    itself and ``reference_dir/private/test``; return the manifests, or None when there is nothing to split (no test
    gold, or a test phase whose gold is public: a practice phase).

    ``state_path``: the split state file (:class:`SplitState`; default :func:`default_state_path`), read when it
    exists (its seed and every item's part are kept: ``seed`` must then be its seed or None) and written after the
    split; ``new_draw``: draw anew (``seed``, else a random one), keeping the earlier draws' public items in the
    state's history. SplitError when the state cannot be kept (another seed, private items made public)."""
    full_dir = os.path.join(reference_dir, TEST_PHASE)
    private_dir = os.path.join(reference_dir, PRIVATE_FOLDER, TEST_PHASE)
    if os.path.isdir(private_dir):
        shutil.rmtree(private_dir)
    if os.path.isfile(os.path.join(full_dir, SPLIT_FILE)):   # an earlier build's (the sample's, before a release's
        os.remove(os.path.join(full_dir, SPLIT_FILE))       # practice phase): it describes other files
    if not os.path.isdir(full_dir) or TEST_PHASE in read_public_gold(reference_dir):
        return None
    try:
        if not _reference_files(hosted.declaration, full_dir):
            return None
    except ReferenceError:   # a test folder without reference files: no test gold to split
        return None
    check_whole(hosted.declaration, full_dir)
    feedback = schedule_module.test_feedback(schedule or hosted.schedule)
    state = SplitState.read(state_path or default_state_path(reference_dir, hosted.cid), hosted.cid)
    seed, kept = state.draw(seed, new_draw)
    parts = {}
    manifests = split_phase(full_dir, hosted, feedback["mode"], feedback["public_fraction"], seed, full_dir,
                            private_dir, kept=kept, parts=parts)
    if len(str(seed)) < MIN_SEED:
        report("WARNING: the split's seed has %d characters: anyone who guesses it can tell the private items from "
               "the public ones; leave SPLIT_SEED out (a random seed of 32 hex digits is drawn) or give one of %d "
               "characters or more" % (len(str(seed)), MIN_SEED))
    state.record(seed, feedback, parts, new_draw)
    state.write()
    with open(os.path.join(reference_dir, PRIVATE_FOLDER, STATE_POINTER), "w", encoding="utf-8") as handle:
        json.dump({"path": os.path.abspath(state.path)}, handle)
    report(state.summary())
    if feedback["mode"] == "public_private":   # parts kept from a draw in another mode can leave one side empty
        lopsided = sorted(name for name, spec in manifests["public"]["files"].items() if spec["items"] >= 2 and (
            not spec["scored"] or not manifests["private"]["files"][name]["scored"]))
        if lopsided:
            report("WARNING: %d file(s) have an empty public or private part (%s%s): the split state keeps the parts "
                   "of a draw made in another mode (blind: nothing public; full: everything public, nothing left to "
                   "rank on privately); draw anew (make NEW_SPLIT=1) if that is not what you want"
                   % (len(lopsided), ", ".join(lopsided[:3]), ", ..." if len(lopsided) > 3 else ""))
    public = manifests["public"]
    scored = evalkit_split.distinct_sizes(public["files"])[0]
    private = evalkit_split.distinct_sizes(manifests["private"]["files"])[0]
    report("test feedback: %s (%s): %s/%s scores %d %s (%s part), %s/%s %d (the final ranking; never upload it)"
           % (feedback["mode"], "seed digest %s" % public["seed_digest"], reference_dir, TEST_PHASE, scored,
              public["unit"], public["part"], reference_dir, os.path.join(PRIVATE_FOLDER, TEST_PHASE), private))
    return manifests


#: A reference builder's statement that a phase's gold is public (``{phase: reason}``): that phase becomes a labelled
#: practice phase, and is never split.
PUBLIC_GOLD_FILE = "public_gold.json"


def read_public_gold(reference_dir):
    """``{phase: reason}`` of ``<reference_dir>/public_gold.json``; empty when absent; ValueError when it is not
    such a mapping."""
    path = os.path.join(reference_dir, PUBLIC_GOLD_FILE)
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        try:
            value = json.load(handle)
        except ValueError as error:
            raise ValueError("%s is not valid JSON: %s" % (path, error))
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError("%s: expected {phase: reason}" % path)
    return value


def default_state_path(reference_dir, cid):
    """Where a split state is kept when no ``--split-state`` is given: ``<reference_dir>.split-<id>.json`` beside the
    reference folder (``make`` gives ``splits/<id>.json``, which ``make clean`` keeps)."""
    return "%s.split-%s.json" % (os.path.abspath(reference_dir).rstrip(os.sep), cid)


class SplitState(object):
    """The split state file: the seed of the draw in force, every item's part, and the public items of every earlier
    draw (``history``), so that a split is fixed once drawn. JSON::

        {"version": 1, "competition": id, "phase": "test", "seed": hex, "seed_digest": hex, "drawn": ISO date,
         "mode": ..., "public_fraction": ..., "files": {file: {item id: "public" | "private"}},
         "history": [{"seed_digest", "drawn", "public": {file: [item id, ...]}}, ...]}

    As secret as the gold: never uploaded (it is no file of a reference folder), kept by ``make clean``, backed up by
    the organiser (the build's ORGANISERS.md says where it is)."""

    def __init__(self, path, cid, data=None):
        self.path, self.cid = path, cid
        self.data = data

    @classmethod
    def read(cls, path, cid):
        """The state at ``path`` (an empty one when the file does not exist); SplitError when it is unreadable or
        another competition's."""
        if not os.path.isfile(path):
            return cls(path, cid)
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError) as err:
            raise SplitError("the split state %s cannot be read (%s): restore it from its backup, or draw the split "
                             "anew (--new-split) and count the items both uploads made public" % (path, err))
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION or not isinstance(data.get("files"), dict):
            raise SplitError("%s is not a split state file of this kit (version %s expected)" % (path, STATE_VERSION))
        if data.get("competition") not in (None, cid):
            raise SplitError("%s is the split state of competition %r, not %r" % (path, data.get("competition"), cid))
        return cls(path, cid, data)

    def draw(self, seed, new_draw):
        """``(seed, kept parts)`` of the split to make: the state's (``seed`` None or the same), or a new draw's
        (``new_draw``, or no state yet: ``seed`` or a random one; nothing kept)."""
        if self.data is None or new_draw:
            return (seed if seed is not None else new_seed()), {}
        if seed is not None and seed_digest(seed) != self.data["seed_digest"]:
            raise SplitError("%s holds the split drawn on %s (seed digest %s); the seed given draws another one "
                             "(digest %s): leave SPLIT_SEED out to keep it, or draw the split anew (--new-split, `make "
                             "NEW_SPLIT=1`), which counts the items both draws made public" % (
                                 self.path, self.data.get("drawn"), self.data["seed_digest"], seed_digest(seed)))
        return self.data["seed"], self.data["files"]

    def record(self, seed, feedback, parts, new_draw):
        """Keep this split: the seed, each item's part (items no longer in the gold keep theirs, should they come
        back) and, for a new draw, the earlier draw's public items in the history."""
        earlier = self.data
        files = {} if earlier is None or new_draw else dict((name, dict(found)) for name, found in earlier["files"].items())
        for name, found in parts.items():
            files.setdefault(name, {}).update(found)
        history = list((earlier or {}).get("history") or [])
        if earlier is not None and new_draw:
            history.append({"seed_digest": earlier["seed_digest"], "drawn": earlier.get("drawn"),
                            "public": dict((name, sorted(i for i, part in found.items() if part == "public"))
                                           for name, found in earlier["files"].items())})
        self.data = {"version": STATE_VERSION, "competition": self.cid, "phase": TEST_PHASE, "seed": seed,
                     "seed_digest": seed_digest(seed),
                     "drawn": (earlier or {}).get("drawn") if earlier is not None and not new_draw
                     else datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "mode": feedback["mode"], "public_fraction": feedback["public_fraction"],
                     "files": dict(sorted(files.items())), "history": history}

    def write(self):
        """Write the state (readable by its owner only)."""
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            os.makedirs(folder)
        temporary = self.path + ".tmp"
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as handle:
            json.dump(self.data, handle, indent=1, sort_keys=True)
            handle.write("\n")
        os.replace(temporary, self.path)

    def counts(self):
        """``(items, public now, public in some draw)``: distinct items (an item id once, whatever the files that hold
        it: the tasks of one treebank), the union counting the items any draw, the present one included, made
        public."""
        items = set(i for found in self.data["files"].values() for i in found)
        now = set(i for found in self.data["files"].values() for i, part in found.items() if part == "public")
        union = set(now)
        for draw in self.data.get("history") or []:
            for public in (draw.get("public") or {}).values():
                union.update(public)
        return len(items), len(now), len(union)

    def summary(self):
        """One line: where the state is, the draw in force and, after new draws, the union of the public parts."""
        items, now, union = self.counts()
        draws = len(self.data.get("history") or []) + 1
        line = "split state: %s (drawn %s, seed digest %s; back it up: every rebuild keeps each item's part from it)" % (
            self.path, self.data.get("drawn"), self.data["seed_digest"])
        if draws > 1:
            line += "; %d draws made %d of %d items public together (this one %d)" % (draws, union, items, now)
        return line


def state_of(reference_dir):
    """``(path, SplitState or None)`` of the split state that split ``reference_dir``'s test phase (``(None, None)``
    when it was not split); the state is None when its file is gone. SplitError when it cannot be read."""
    pointer = os.path.join(reference_dir, PRIVATE_FOLDER, STATE_POINTER)
    if not os.path.isfile(pointer):
        return None, None
    with open(pointer, encoding="utf-8") as handle:
        path = json.load(handle)["path"]
    if not os.path.isfile(path):
        return path, None
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return path, SplitState.read(path, data.get("competition"))


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
