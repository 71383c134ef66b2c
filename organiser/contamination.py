"""The contamination audit of a build: which test items, and whose gold, can be found in public data (issue 30).

``python -m organiser contamination --competition ID [--public DIR[:DIR...]]`` (and ``make check``, and the bundle
builder, which say it on the pages and in ORGANISERS.md) reads every test item of the build's test gold (the private
part ``REF/private/test`` and the public part ``REF/test``: the whole test gold) and looks for it in public data:

- the release's own public files: the release folder (``DATA``) but its test files (a folder ``test``, a file named
  ``test`` or ``*_test``/``*-test``, the test gold folder, any file that is the test input participants get: the
  test input is public by design, it holds no gold), the development reference, every non-test phase's public data
  (``REF/public/<phase>``), the starting kit folder, and the test phase's public part (the uploaded gold of the
  public items: a private item found there straddles the split);
- every corpus named with ``--public`` (``make PUBLIC=dir[:dir...]``); the corpora a competition declares its data
  came from (``source_corpora`` in its subtasks.yaml) are said not searched, with how to get them, when no
  ``--public`` folder holds them.

The unit is the kind's own (:class:`evalkit.items.Items`): an item's input as words (``tokens``: a sentence's forms,
a document's text, a choice set's gold sentence), NFC and case folded, matched against public files read as word
sequences (organiser/public_text.py). An item is found as

- an **exact copy**: its whole word sequence in a public sentence, line, block, string or file; an item of fewer
  than :data:`MIN_WORDS` words only as a whole public segment; a CoNLL-U sentence whose multiword tokens are split
  otherwise counts when every other word is the same;
- a **near copy**: an item of :data:`NGRAM` words or more with a public 13-gram (as lm-evaluation-harness's
  decontamination and the GPT-3 paper flag a test document), the share of its 13-grams found said; an item of
  :data:`MIN_WORDS` to 12 words that is a whole public segment but for one word;
- **stand-off gold**: a public annotation file without the text (an Anafora file) holding at least
  :data:`UNIT_SHARE` of the item's gold units (``gold_units``: a spans-only copy of SCATE's gold).

A copy **carries the item's gold** when, at every word the kind gives a gold for (``token_golds``), the public word
or its row holds it (a CoNLL-U row's lemma, UPOS, features; a line's label; the word itself, where the words are the
gold); a stand-off copy always does. The audit also counts, per file, the test items that are duplicates or one word
apart (same length, one word changed, :data:`MIN_WORDS` words or more) and those of them that straddle the split.

The report: ``<dist>/contamination.md`` and ``contamination.json`` (per file, the indices of the items found and of
those whose gold is found: ``make results`` ranks on the private items whose gold is found nowhere public too),
``make check``'s output, and a line of ORGANISERS.md. A test file whose private part has more than ``max_share`` of
its items' gold in public data (``test_feedback.contamination`` of the schedule, default 5%) fails ``make check``
unless the schedule acknowledges it; the pages then say what participants could look up (:func:`page_sentence`).
"""
import argparse
import collections
import hashlib
import json
import os
import re
import sys
import time

from organiser import declarations, feedback, public_text, split
from organiser.split import TEST_PHASE
from organiser import schedule as schedule_module
from evalkit import scoring
from evalkit.messages import DataError

#: The n of the long n-gram overlap (lm-evaluation-harness's decontamination uses 13-grams).
NGRAM = 13
#: An item shorter than this is found only as a whole public segment; its first words are the search's anchor.
MIN_WORDS = 5
#: The share of an item's gold units a stand-off public file must hold.
UNIT_SHARE = 0.5
#: How many examples the report quotes per file.
EXAMPLES = 3
JSON_FILE = "contamination.json"
MARKDOWN_FILE = "contamination.md"
VERSION = 1
#: A release file taken for the test split (not searched): a folder ``test``, or a file named so.
_TEST_NAME = re.compile(r"(^|[_.-])test$")
_WILDCARD = -2
#: The gold of a test input's word (no test gold): any annotation of a public copy's row (a gold of its own).
ANNOTATED = frozenset(["\0annotated"])
_BLANK = frozenset(["_", "upos=_", ""])
#: What the threshold reads: the share of these items whose gold is in public data.
COUNTED = "private part's items of %d words or more" % MIN_WORDS
#: What the report calls the uploaded public part of the test phase.
PUBLIC_PART = "the test phase's public part"


# --------------------------------------------------------------------------- the test items

class Target(object):
    """One test item: where it is (``file``, ``task``, ``lang``, ``index``, ``part``: public, private or all) and what
    is searched (``ids``: its words' numbers, ``golds``: beside each word the gold strings a copy must carry,
    ``units``: its stand-off gold units); what was found is gathered in ``exact``, ``near`` (by 13-gram offset),
    ``apart``, ``standoff`` (each ``(source, where, carries gold)``; a stand-off copy adds its share)."""

    __slots__ = ("file", "task", "lang", "index", "part", "label", "words", "ids", "golds", "units", "exact", "near",
                 "apart", "standoff", "owner", "words_are_gold")

    def __init__(self, file, task, lang, index, part, label, words, golds, units):
        self.file, self.task, self.lang, self.index, self.part, self.label = file, task, lang, index, part, label
        self.owner = (file, index)   # (the first file holding the same items, index): what a copy of it is
        self.words, self.golds, self.units = words, golds, units
        self.words_are_gold = False
        self.ids = None
        self.exact = self.apart = self.standoff = None
        self.near = {}

    def copies(self):
        """``[(how it was found, copy)]`` of every copy found."""
        found = [("exact copy", self.exact), ("one word apart", self.apart)]
        if self.standoff:
            found.append(("stand-off gold (%.0f%% of its units)" % (100 * self.standoff[3]), self.standoff))
        found += [("near copy (%d of %d 13-grams)" % (len(self.near), len(self.ids) - NGRAM + 1), copy)
                  for copy in self.near.values()]
        return [(how, copy) for how, copy in found if copy]

    def gold_found(self):
        """Whether a public copy carries the item's gold (True), none does (False), or no copy can tell (None:
        the kind gives no gold to compare)."""
        copies = [copy for _, copy in self.copies()]
        if any(c[2] for c in copies):
            return True
        if self.words_are_gold and self.near:   # 13-grams found covering every word: the words are the gold
            covered = set(i for offset in self.near for i in range(offset, offset + NGRAM))
            return len(covered) == len(self.ids)
        if any(c[2] is None for c in copies):
            return None
        return False

    def found(self):
        """Whether any public copy of the item was found."""
        return bool(self.exact or self.near or self.apart or self.standoff)

    def best(self):
        """``(how, copy)`` of the copy a report quotes (one carrying the gold first, then an exact one), or None."""
        copies = sorted(self.copies(), key=lambda found: (found[1][2] is not True, found[1][2] is not None))
        return copies[0] if copies else None

    def how(self):
        """How the copy a report quotes was found, in words (empty when none was)."""
        best = self.best()
        return best[0] if best else ""


def _normal_golds(golds):
    return frozenset(gold.casefold() for gold in golds if isinstance(gold, str))


def target_of(relative, task, lang, index, item, part):
    """The :class:`Target` of one item (its kind's words, golds and units, normalised as public words are)."""
    items_of = scoring.KINDS[task.kind].items
    words = public_text.untagged([word.casefold() for word in items_of.tokens(item, task)])
    golds = [_normal_golds(golds) for golds in items_of.token_golds(item, task)]
    if len(golds) != len(words):   # a kind whose golds do not follow its words: nothing to compare
        golds = [frozenset()] * len(words)
    units = frozenset(unit.casefold() for unit in items_of.gold_units(item, task))
    target = Target(relative, task, lang, index, part, items_of.label(index, item), words, golds, units)
    target.words_are_gold = bool(getattr(items_of, "words_are_gold", False))
    return target


def phase_files(decl, folder):
    """``[(reference file name, task, lang, bytes)]`` of the declaration's reference files in ``folder``."""
    found = []
    for name, (task, lang) in declarations.declared_reference_files(decl).items():
        path = os.path.join(folder, *name.split("/"))
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                found.append((name, task, lang, handle.read()))
    return found


class TestGold(object):
    """The build's test gold, item by item: ``targets`` (every scorable item, :class:`Target`), ``mode`` (the split's
    mode, or ``practice``, or None without a split), ``public_items`` (``{file: [(index, item)]}``: the items of the
    uploaded public part, with their gold), ``files`` (``{file: (task, lang, items, private count)}``), ``state``
    (``none``: no test gold and no test input; ``input``: no test gold, the test input's sentences are searched;
    ``practice``: its gold is declared public; ``split``; ``whole``)."""

    def __init__(self, decl, reference_dir):
        self.targets, self.public_items, self.files, self.group_of = [], {}, collections.OrderedDict(), {}
        self.mode, self.state = None, "none"
        test_dir = os.path.join(reference_dir or "", TEST_PHASE)
        uploaded = phase_files(decl, test_dir) if reference_dir and os.path.isdir(test_dir) else []
        if not uploaded:
            self._test_input(os.path.join(reference_dir or "", "public", TEST_PHASE))
            return
        practice = TEST_PHASE in split.read_public_gold(reference_dir)
        public_split = None if practice else feedback.read_split(test_dir)
        private_dir = feedback.private_folder(reference_dir, TEST_PHASE)
        private_split = feedback.read_split(private_dir) if public_split and os.path.isdir(private_dir) else None
        private_data = dict((name, data) for name, _, _, data in phase_files(decl, private_dir)) \
            if private_split else {}
        self.state = "practice" if practice else ("split" if private_split else "whole")
        self.mode = "practice" if practice else (public_split or {}).get("mode")
        groups = {}
        for name, task, lang, data in uploaded:
            items_of = scoring.KINDS[task.kind].items
            items = items_of.read(data)
            key = json.dumps([items_of.key(item, task) for item in items], sort_keys=True)
            self.group_of[name] = groups.setdefault(key, name)   # files holding the same items: one split
            if private_split:
                gold = items_of.read(private_data[name]) if name in private_data else items
                private = set((private_split["files"].get(name) or {}).get("indices") or [])
                public = set((public_split["files"].get(name) or {}).get("indices") or [])
                if private_split["part"] == "all":
                    private = set(i for i, item in enumerate(gold) if items_of.scorable(item))
                self.public_items[name] = [(i, items[i]) for i in sorted(public)]
                if self.mode == feedback.FULL:   # the whole gold is uploaded by the organisers' choice
                    self.public_items[name] = []
                for index in sorted(private | public):
                    item = gold[index] if index in private else items[index]
                    part = "private" if index in private else "public"
                    self._add(target_of(name, task, lang, index, item, part))
                self.files[name] = (task, lang, len(private | public), len(private))
            else:
                scorable = [i for i, item in enumerate(items) if items_of.scorable(item)]
                for index in scorable:
                    self._add(target_of(name, task, lang, index, items[index], "all"))
                self.files[name] = (task, lang, len(scorable), len(scorable))


    def _add(self, target):
        target.owner = (self.group_of[target.file], target.index)
        self.targets.append(target)

    def _test_input(self, folder):
        """Without test gold: the sentences (blocks) of the test input participants get (``folder``, the reference
        builder's ``public/test``), each a target whose copies are told apart by whether they are annotated (a copy
        with a gold of its own: a treebank's, a train file's); the lines of its other files only when it has no file
        of sentences (gap-filling lines are its sentences masked)."""
        files, digests = [], set()
        for relative, path in walk(folder) if os.path.isdir(folder) else []:
            with open(path, "rb") as handle:
                data = handle.read()
            if _digest(data) in digests:   # the same file in another subtask's test input
                continue
            digests.add(_digest(data))
            for name, segments in public_text.read("public test input %s" % relative, data):
                units = [s for s in segments or [] if s[5] & public_text.UNIT]
                files.append((name, [s for s in units if s[0][0] in ("sentence", "block", "rows")], units))
        sentences = any(rows for _, rows, _ in files)
        for name, rows, units in files:
            seen = set()
            for segment in rows if sentences else units:
                if segment[0] in seen:
                    continue
                seen.add(segment[0])
                self.group_of[name] = name
                self._add(Target(name, None, "", len(seen) - 1, "all", "%s %s" % segment[0], segment[1],
                                 [ANNOTATED] * len(segment[1]), frozenset()))
            if seen:
                self.files[name] = (None, "", len(seen), len(seen))
        if self.targets:
            self.state = "input"


# --------------------------------------------------------------------------- the search

class Search(object):
    """The test items' words, numbered, and the indexes one pass over the public segments looks them up in."""

    def __init__(self, targets):
        self.targets = targets
        self.vocabulary = {}
        self.whole = collections.defaultdict(list)       # every word sequence -> its items
        self.anchors = collections.defaultdict(list)     # first MIN_WORDS words of a run -> (item, offset)
        self.apart = collections.defaultdict(list)       # sequence with one wildcard -> (item, position)
        self.wild = collections.defaultdict(list)        # (length, first word) -> items
        self.units = collections.defaultdict(list)       # stand-off gold unit -> items
        self.short_lengths = set()
        for target in targets:
            target.ids = tuple(self.vocabulary.setdefault(word, len(self.vocabulary)) for word in target.words)
            ids, length = target.ids, len(target.ids)
            for unit in target.units:
                self.units[unit].append(target)
            if not length:
                continue
            self.whole[ids].append(target)
            self.wild[(length, ids[0])].append(target)
            if length >= NGRAM:
                for offset in range(length - NGRAM + 1):
                    self.anchors[ids[offset:offset + MIN_WORDS]].append((target, offset))
            elif length >= MIN_WORDS:
                self.anchors[ids[:MIN_WORDS]].append((target, 0))
                self.short_lengths.add(length)
                for position in range(length):
                    self.apart[ids[:position] + (_WILDCARD,) + ids[position + 1:]].append((target, position))
        self.segments = self.words = 0
        self.owner = None

    def feed(self, source, segments, owners=None):
        """Look every segment of one public file (``source``: how the report names it) up. ``owners``: beside each
        segment, the test item it is (``(file, index)``: a test item of the uploaded public part is not a copy of
        itself, nor of the same item in another file of its group), or None."""
        get = self.vocabulary.get
        for number, segment in enumerate(segments):
            where, words, rows, annotate, wild, role = segment
            self.segments += 1
            self.owner = owners[number] if owners else None
            if role & public_text.STANDOFF:
                self._standoff(source, where, words)
                continue
            self.words += len(words)
            ids = tuple(map(get, words))
            if role & public_text.WILD:
                self._wild(source, segment, ids)
                continue
            if role & public_text.UNIT:
                for target in self.whole.get(ids, ()):
                    self._exact(target, source, segment, 0, ())
                if len(ids) in self.short_lengths and ids.count(None) <= 1:
                    self._one_apart(source, segment, ids)
            if role & public_text.RUN and len(ids) >= MIN_WORDS:
                self._run(source, segment, ids)

    def _exact(self, target, source, segment, align, wild):
        """Record an exact copy of ``target`` at ``align`` of ``segment``."""
        if self.owner == target.owner:
            return
        carries = carried(target, segment, align, range(len(target.ids)), wild)
        if target.exact is None or (carries and not target.exact[2]):
            target.exact = (source, segment[0], carries)

    def _one_apart(self, source, segment, ids):
        """Items of 5 to 12 words that are this whole segment but for one word."""
        positions = [ids.index(None)] if None in ids else range(len(ids))
        for position in positions:
            for target, at in self.apart.get(ids[:position] + (_WILDCARD,) + ids[position + 1:], ()):
                if target.ids == ids or self.owner == target.owner:
                    continue
                kept = [i for i in range(len(ids)) if i != at]
                carries = carried(target, segment, 0, kept, ())
                if target.apart is None or (carries and not target.apart[2]):
                    target.apart = (source, segment[0], carries)

    def _run(self, source, segment, ids):
        """Items found in any stretch of the segment: their first words (an item of 5 to 12 words) or a 13-gram
        (a longer item) at each position."""
        anchors = self.anchors
        keys = list(zip(*[ids[i:] for i in range(MIN_WORDS)]))
        hits = anchors.keys() & set(keys)
        if not hits:
            return
        for position, key in enumerate(keys):
            if key not in hits:
                continue
            for target, offset in anchors[key]:
                length = len(target.ids)
                if offset == 0 and ids[position:position + length] == target.ids:
                    self._exact(target, source, segment, position, ())
                    continue
                if length < NGRAM or ids[position:position + NGRAM] != target.ids[offset:offset + NGRAM] \
                        or self.owner == target.owner:
                    continue
                if offset not in target.near or not target.near[offset][2]:
                    align = position - offset
                    carries = carried(target, segment, align, range(offset, offset + NGRAM), ())
                    target.near[offset] = (source, segment[0], carries)

    def _wild(self, source, segment, ids):
        """Items that are this CoNLL-U sentence but for the syntactic words of its multiword tokens."""
        wild = segment[4]
        for target in self.wild.get((len(ids), ids[0]) if ids else None, ()):
            if all(w or target.ids[i] == ids[i] for i, w in enumerate(wild)):
                self._exact(target, source, segment, 0, wild)

    def _standoff(self, source, where, units):
        """Items most of whose gold units this stand-off file holds."""
        counts = collections.Counter(target for unit in units for target in self.units.get(unit, ())
                                     if self.owner != target.owner)
        for target, count in counts.items():
            share = float(count) / len(target.units)
            if share >= UNIT_SHARE and (target.standoff is None or share > target.standoff[3]):
                target.standoff = (source, where, True, share)


def counts(target):
    """Whether ``target`` counts against the threshold: an item of :data:`MIN_WORDS` words or more, or one with
    stand-off gold (a copy of a shorter item may be chance, as GPT-3's contamination analysis notes of short
    examples: it is reported, never counted)."""
    return len(target.ids or ()) >= MIN_WORDS or bool(target.units)


def carried(target, segment, align, positions, wild):
    """Whether the copy of ``target`` at ``align`` of ``segment`` carries its gold at ``positions`` (``wild``: the
    segment's wildcard words, not compared): True, False, or None when the kind gives no gold to compare there (a
    kind whose gold is stand-off only: False, a text copy does not hold it). An item whose words are its gold: a
    copy of all its words carries it."""
    if target.words_are_gold:
        return len(positions) == len(target.ids) and not any(wild)
    _, words, rows, annotate, _, _ = segment
    if target.golds and target.golds[0] is ANNOTATED:   # a test input's item: is the copy annotated at all?
        return rows is not None and any(annotate(rows[align + i]) - _BLANK for i in positions
                                        if not (wild and wild[align + i]))
    compared = False
    for i in positions:
        want = target.golds[i]
        if not want:
            continue
        j = align + i
        if wild and wild[j]:
            continue
        have = annotate(rows[j]) if rows is not None else frozenset()
        if not want <= have:
            return False
        compared = True
    if compared:
        return True
    return False if target.units else None


def within_test(targets):
    """Per file, the test items that are duplicates of another or one word apart (same length, one word changed,
    :data:`MIN_WORDS` words or more), and the pairs of those that straddle the split (one public, one private):
    ``{file: {"duplicates", "one_apart", "straddling"}}`` (item counts, pair count)."""
    by_file = collections.defaultdict(list)
    for target in targets:
        if target.ids:
            by_file[target.file].append(target)
    found = {}
    for name, group in by_file.items():
        same, apart = collections.defaultdict(list), collections.defaultdict(list)
        for target in group:
            same[target.ids].append(target)
            if len(target.ids) >= MIN_WORDS:
                for position in range(len(target.ids)):   # the hash of the item with one word left out, there
                    apart[hash((position, target.ids[:position], target.ids[position + 1:]))].append(target)
        duplicates = set(t.index for members in same.values() if len(members) > 1 for t in members)
        pairs = set()
        for members in apart.values():
            for a in range(len(members)):
                for b in range(a + 1, len(members)):
                    if one_apart(members[a].ids, members[b].ids):
                        pairs.add((members[a], members[b]))
        one = set(t.index for pair in pairs for t in pair)
        linked = list(pairs) + [(members[0], other) for members in same.values() if len(members) > 1
                                for other in members[1:]]
        straddling = sum(1 for a, b in linked if set((a.part, b.part)) == set(("public", "private")))
        found[name] = {"duplicates": len(duplicates), "one_apart": len(one), "straddling": straddling}
    return found


def one_apart(a, b):
    """Whether two word sequences have one length and differ in exactly one word."""
    return len(a) == len(b) and sum(1 for x, y in zip(a, b) if x != y) == 1


# --------------------------------------------------------------------------- what is public

def is_test_file(relative):
    """Whether a release file (its path relative to the release) is taken for the test split: a folder ``test``, or a
    file named ``test``, ``*_test``, ``*-test`` or ``*.test`` (any extension).

    >>> [is_test_file(p) for p in ("task/test/xx_test.conllu", "set/test.conll", "test_copy/a.xml", "train.tsv")]
    [True, True, False, False]
    """
    parts = relative.replace(os.sep, "/").split("/")
    stem = parts[-1].split(".")[0]
    return "test" in parts[:-1] or bool(_TEST_NAME.search(stem))


def _digest(data):
    return hashlib.sha1(data).digest()


def walk(root):
    """``[(path relative to root, absolute path)]`` of every file under ``root`` (hidden names skipped), sorted."""
    found = []
    if os.path.isfile(root):
        return [(os.path.basename(root), root)]
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith(".") and name != "__pycache__")
        for name in sorted(files):
            if not name.startswith("."):
                path = os.path.join(folder, name)
                found.append((os.path.relpath(path, root).replace(os.sep, "/"), path))
    return found


class Sources(object):
    """What the audit searched: every public file once (by content), how it is named, and what was left out."""

    def __init__(self):
        self.seen = set()
        self.searched = collections.OrderedDict()   # group label -> files read
        self.cpu = {}                                # group label -> seconds of CPU reading and searching them
        self.skipped = collections.OrderedDict()    # why -> [relative paths]
        self.unread = 0

    def skip(self, why, relative):
        self.skipped.setdefault(why, []).append(relative)


def release_files(data_dir, test_gold):
    """``(files, skipped)``: the release's files that are public (``[(label, path)]``) and those left out
    (``{why: [relative]}``): its test files, the test gold folder and a folder kept apart for it (``test_gold``, as the
    leak audit takes it: organiser/audit.py)."""
    files, skipped = [], collections.OrderedDict()
    gold = os.path.abspath(test_gold) if test_gold else None
    for relative, path in walk(data_dir):
        if gold and (os.path.abspath(path) == gold or os.path.abspath(path).startswith(gold + os.sep)) or \
                declarations.KEPT_APART in relative.split("/")[:-1]:
            skipped.setdefault("the test gold", []).append(relative)
        elif is_test_file(relative):
            skipped.setdefault("the test split (by its name)", []).append(relative)
        else:
            files.append((relative, path))
    return files, skipped


def test_input_digests(reference_dir, dist):
    """The digests of every file of the test input participants get (``REF/public/test`` and the build's
    ``public_data/*-test.zip`` members): the test input is public by design and holds no gold, so it is not
    searched."""
    found = set()
    folder = os.path.join(reference_dir or "", "public", TEST_PHASE)
    if os.path.isdir(folder):
        for _, path in walk(folder):
            with open(path, "rb") as handle:
                found.add(_digest(handle.read()))
    if dist and os.path.isdir(os.path.join(dist, "public_data")):
        for name in os.listdir(os.path.join(dist, "public_data")):
            if name.endswith("-%s.zip" % TEST_PHASE):
                with open(os.path.join(dist, "public_data", name), "rb") as handle:
                    data = handle.read()
                found.add(_digest(data))
                for _, member in _members(data):
                    found.add(_digest(member))
    return found


def _members(data):
    """``(name, bytes)`` of a zip's members."""
    import io
    import zipfile
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return [(info.filename, archive.read(info)) for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError):
        return []


def item_segments(decl, name, items):
    """``(segments, owners)`` of a reference file's ``items`` (``[(index, item)]``): each item's words and beside
    each its gold strings, as the kind gives them; ``owners``: beside each segment, its item's index."""
    task, _ = declarations.declared_reference_files(decl)[name]
    items_of = scoring.KINDS[task.kind].items
    found, owners = [], []
    for index, item in items:
        words = public_text.untagged([word.casefold() for word in items_of.tokens(item, task)])
        where = (items_of.label(index, item), None)
        found.append((where, words, range(len(words)), _ItemGolds(items_of, item, task), None, public_text.BOTH))
        owners.append(index)
        units = items_of.gold_units(item, task)
        if units:
            found.append((where, sorted(set(u.casefold() for u in units)), None, None, None,
                          public_text.STANDOFF))
            owners.append(index)
    return found, owners


class _ItemGolds(object):
    """The ``annotate`` of a reference item's segment: the gold strings beside its word ``position``, read from the
    item when a match first asks (most items never match)."""

    __slots__ = ("items_of", "item", "task", "golds")

    def __init__(self, items_of, item, task):
        self.items_of, self.item, self.task, self.golds = items_of, item, task, None

    def __call__(self, position):
        if self.golds is None:
            self.golds = [_normal_golds(g) for g in self.items_of.token_golds(self.item, self.task)]
        return self.golds[position] if position < len(self.golds) else frozenset()


def source_corpora(cid):
    """The corpora the competition declares its data came from (``source_corpora`` of its subtasks.yaml): a list of
    ``{"name", "languages", "what", "get"}`` (``languages`` optional: the corpus is the source of every language)."""
    wording = declarations.wording(cid)
    value = wording["source_corpora"]
    if not isinstance(value, list) or not all(isinstance(c, dict) and c.get("name") for c in value):
        raise DataError(wording["path"], "source_corpora", "expected a list of mappings with name (a folder name), "
                                                           "what, url and get")
    return value


def corpus_given(name, public_dirs):
    """The folder of ``public_dirs`` that holds the corpus ``name`` (a folder or file of that name, at most two
    levels down, or the folder itself), or None."""
    for root in public_dirs:
        if os.path.basename(os.path.normpath(root)) == name:
            return root
        for folder, subfolders, files in os.walk(root):
            if name in subfolders or name in files:
                return os.path.join(folder, name)
            if os.path.relpath(folder, root).count(os.sep) >= 1:
                subfolders[:] = []
    return None


# --------------------------------------------------------------------------- the audit

class Audit(object):
    """One run of the audit: its inputs, what it searched, what it found (``targets``), the per-file table
    (``files``), and the threshold's verdict (``failures``, ``acknowledged``)."""

    def __init__(self, hosted, reference, data=None, test_gold=None, dist=None, public=(), schedule=None):
        self.hosted, self.reference, self.data, self.test_gold = hosted, reference, data, test_gold
        self.dist, self.public = dist, [p for p in public if p]
        self.schedule = schedule or hosted.schedule
        self.sources = Sources()
        self.corpus_of, self.group_of = {}, {}
        self.seconds = 0.0
        self.files, self.failures = collections.OrderedDict(), []

    # ----------------------------------------------------------------- running it

    def run(self):
        """Read the test gold, search every public file, tabulate; return self."""
        started = time.time()
        decl = self.hosted.declaration
        self.gold = TestGold(decl, self.reference)
        self.policy = schedule_module.contamination(self.schedule)
        self.corpora = []
        languages = set(lang for _, lang, _, _ in self.gold.files.values())
        for corpus in source_corpora(self.hosted.cid):
            if not corpus.get("languages") or languages & set(corpus["languages"]):
                self.corpora.append(dict(corpus, given=corpus_given(corpus["name"], self.public)))
        if self.gold.targets:
            search = Search(self.gold.targets)
            files = self._public_segments(decl)
            while True:
                cpu = time.process_time()
                try:
                    label, segments, owners = next(files)
                except StopIteration:
                    break
                search.feed(label, segments, owners)
                group = self.group_of[label]
                self.sources.cpu[group] = self.sources.cpu.get(group, 0.0) + time.process_time() - cpu
            self.searched_segments, self.searched_words = search.segments, search.words
            self.within = within_test(self.gold.targets)
        else:
            self.searched_segments = self.searched_words = 0
            self.within = {}
        self._tabulate()
        self.seconds = time.time() - started
        return self

    def _read(self, group, label, corpus, path):
        """The segments of one public file (recursing into zips), each file once by content; ``corpus``: what the
        pages call where it comes from."""
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            self.sources.unread += 1
            return
        digest = _digest(data)
        if digest in self.sources.seen or digest in self.test_input:
            if digest in self.test_input:
                self.sources.skip("the test input participants get", label)
            return
        self.sources.seen.add(digest)
        for member, segments in public_text.read(label, data):
            if segments is None:
                self.sources.unread += 1
                continue
            self.sources.searched[group] = self.sources.searched.get(group, 0) + 1
            self.corpus_of[member], self.group_of[member] = corpus, group
            yield member, segments, None

    def _reference(self, group, label, corpus, decl, name, items):
        """``(label, segments, owners)`` of the items of a reference file the build made (``items``: ``[(index,
        item)]``)."""
        self.sources.searched[group] = self.sources.searched.get(group, 0) + 1
        self.corpus_of[label], self.group_of[label] = corpus, group
        segments, owners = item_segments(decl, name, items)
        if group != PUBLIC_PART:
            return label, segments, None
        return label, segments, [(self.gold.group_of[name], index) for index in owners]

    def _public_segments(self, decl):
        """``(label, segments)`` of every public file, in order: the test phase's public part, the development
        reference, the non-test phases' public data, the starting kit, the release, the ``--public`` corpora."""
        self.test_input = test_input_digests(self.reference, self.dist)
        for name, items in self.gold.public_items.items():
            if items:
                yield self._reference(PUBLIC_PART, "%s %s" % (PUBLIC_PART, name), PUBLIC_PART, decl, name, items)
        for phase in sorted(os.listdir(self.reference)) if self.reference and os.path.isdir(self.reference) else []:
            folder = os.path.join(self.reference, phase)
            if phase in (TEST_PHASE, feedback.PRIVATE_FOLDER, "public") or not os.path.isdir(folder):
                continue
            for name, task, lang, data in phase_files(decl, folder):
                if _digest(data) in self.sources.seen:
                    continue
                self.sources.seen.add(_digest(data))
                items = enumerate(scoring.KINDS[task.kind].items.read(data))
                yield self._reference("the %s reference" % phase, "%s reference %s" % (phase, name),
                                      "the %s data" % phase, decl, name, items)
        public_root = os.path.join(self.reference or "", "public")
        if os.path.isdir(public_root):
            for phase in sorted(os.listdir(public_root)):
                if phase == TEST_PHASE:
                    continue
                group = "the %s phase's public data" % phase
                for relative, path in walk(os.path.join(public_root, phase)):
                    for found in self._read(group, "public %s/%s" % (phase, relative), group, path):
                        yield found
        if os.path.isdir(self.hosted.starting_kit):
            for relative, path in walk(self.hosted.starting_kit):
                for found in self._read("the starting kit", "starting kit %s" % relative, "the starting kit", path):
                    yield found
        if self.data and os.path.isdir(self.data):
            files, skipped = release_files(self.data, self.test_gold)
            for why, names in skipped.items():
                for name in names:
                    self.sources.skip(why, "release %s" % name)
            for relative, path in files:
                corpus = "the release's %s/" % relative.split("/")[0] if "/" in relative else "the release"
                for found in self._read("the release", "release %s" % relative, corpus, path):
                    yield found
        for root in self.public:
            base = os.path.basename(os.path.normpath(root))
            for relative, path in walk(root):
                corpus = relative.split("/")[0] if "/" in relative else base
                for found in self._read("PUBLIC %s" % root, "%s/%s" % (base, relative), corpus, path):
                    yield found

    # ----------------------------------------------------------------- the table

    def acknowledges(self, name, task, lang):
        """Whether the schedule acknowledges the file ``name`` (its name, ``<task>/<lang>`` or its language)."""
        stem = name.rsplit(".", 1)[0]
        keys = set([name, stem, lang] + (["%s/%s" % (task.folder, lang)] if task is not None else []))
        return bool(keys & set(self.policy["acknowledged"]))

    def _tabulate(self):
        """Per file: counts, shares, sources, examples; the threshold's failures."""
        by_file = collections.defaultdict(list)
        for target in self.gold.targets:
            by_file[target.file].append(target)
        max_share = self.policy["max_share"]
        ranked = self.gold.state in ("split", "whole")
        for name, (task, lang, count, private_count) in self.gold.files.items():
            targets = by_file.get(name, [])
            private = [t for t in targets if t.part in ("private", "all")]
            found = [t for t in targets if t.found()]
            gold = [t for t in targets if t.found() and t.gold_found() is not False]
            counted = [t for t in private if counts(t)]
            private_gold = [t for t in counted if t.found() and t.gold_found() is not False]
            short_gold = [t for t in private if not counts(t) and t.found() and t.gold_found() is not False]
            sources = collections.Counter(t.best()[1][0] for t in found)
            corpora = collections.Counter(self.corpus_of.get(t.best()[1][0], t.best()[1][0]) for t in gold)
            share = float(len(private_gold)) / len(counted) if counted else 0.0
            row = {
                "task": getattr(task, "folder", None), "lang": lang, "items": count, "private": len(private), "counted": len(counted),
                "short_gold": len(short_gold),
                "found": sorted(t.index for t in found), "gold": sorted(t.index for t in gold),
                "private_gold": len(private_gold), "share": share,
                "exact": sum(1 for t in found if t.exact), "near": sum(1 for t in found if t.near),
                "apart": sum(1 for t in found if t.apart), "standoff": sum(1 for t in found if t.standoff),
                "unknown_gold": sum(1 for t in found if t.gold_found() is None),
                "in_public_part": sum(1 for t in private if any(
                    c and c[0].startswith(PUBLIC_PART) for c in [t.exact, t.apart] + list(t.near.values()))),
                "sources": dict(sources.most_common()), "corpora": dict(corpora.most_common()),
                "examples": [self._example(t) for t in sorted(gold or found, key=lambda t: t.part == "public")
                             [:EXAMPLES]],
                "acknowledged": self.acknowledges(name, task, lang),
            }
            row.update(self.within.get(name, {"duplicates": 0, "one_apart": 0, "straddling": 0}))
            row["over"] = ranked and share > max_share and len(private_gold) >= self.policy["min_items"]
            self.files[name] = row
            if row["over"] and not row["acknowledged"]:
                self.failures.append((name, row))

    def _example(self, target):
        how, copy = target.best()
        gold = target.gold_found()
        return {"item": target.label, "part": target.part, "how": how, "where": _where(copy),
                "gold": "same gold" if gold else ("gold unknown" if gold is None else "not its gold"),
                "words": " ".join(target.words[:12]) + (" ..." if len(target.words) > 12 else "")}

    # ----------------------------------------------------------------- reports

    def summary(self):
        """The machine-readable report (``contamination.json``)."""
        return {"version": VERSION, "competition": self.hosted.cid, "state": self.gold.state, "mode": self.gold.mode,
                "reference": self.reference, "public": self.public,
                "method": {"unit": "the kind's words (evalkit.items.Items.tokens), NFC, case folded",
                           "ngram": NGRAM, "min_words": MIN_WORDS, "unit_share": UNIT_SHARE},
                "policy": self.policy, "searched": dict(self.sources.searched),
                "cpu_seconds": dict((group, round(cpu, 2)) for group, cpu in self.sources.cpu.items()),
                "skipped": dict((why, len(names)) for why, names in self.sources.skipped.items()),
                "unread": self.sources.unread, "segments": self.searched_segments, "words": self.searched_words,
                "corpora": [dict((k, v) for k, v in c.items()) for c in self.corpora],
                "files": self.files, "failures": [name for name, _ in self.failures],
                "seconds": round(self.seconds, 2)}

    def acknowledged_files(self):
        """The files beyond the threshold that the schedule acknowledges (what the pages name)."""
        return [(name, row) for name, row in self.files.items() if row["over"] and row["acknowledged"]]

    def lines(self):
        """What ``make check`` and the command print: one line per file with something found, the totals, what
        was not searched, and the threshold's verdict."""
        out = []
        if self.gold.state == "none":
            return ["contamination: no test gold and no test input in this build (%s): nothing to audit" % (
                os.path.join(self.reference or "REF", TEST_PHASE))]
        total = len(self.gold.targets)
        found = sum(len(row["found"]) for row in self.files.values())
        gold = sum(len(row["gold"]) for row in self.files.values())
        if self.gold.state == "input":
            out.append("contamination: no test gold in this build: its test input's items are searched instead, a "
                       "copy told apart by its annotations (a gold of its own)")
        out.append("contamination: %d test item(s) in %d file(s) searched in %d public file(s) (%s; %d words) in "
                   "%.1f s: %d found in public data, %d %s" % (
                       total, len(self.files), sum(self.sources.searched.values()),
                       ", ".join("%s %d" % kv for kv in self.sources.searched.items()) or "none",
                       self.searched_words, self.seconds, found, gold, self._with_gold()))
        for name, row in self.files.items():
            if not (row["found"] or row["duplicates"] or row["one_apart"]):
                continue
            out.append("  %s: %s%s" % (name, self._row_text(row), " [acknowledged]" if row["over"] and
                                       row["acknowledged"] else ""))
        missing = [corpus for corpus in self.corpora if not corpus["given"]]
        if missing:
            out.append("  NOT SEARCHED: %d declared source(s) of this competition's data (its subtasks.yaml's "
                       "source_corpora), none of the PUBLIC folders holds them: %s; give PUBLIC=<a folder holding "
                       "them> (contamination.md says how to get each)" % (len(missing), ", ".join(
                           "%s (%s)" % (corpus["name"], _corpus_text(corpus)) for corpus in missing)))
        if self.gold.state == "practice":
            out.append("contamination: the test phase is a practice phase (its gold is declared public): no threshold")
        return out

    def _with_gold(self):
        """What a copy carrying the gold is called: annotated, when the build has no test gold."""
        return "in annotated copies" if self.gold.state == "input" else "with their gold"

    def _row_text(self, row):
        head = "%d of %d item(s) found" % (len(row["found"]), row["items"])
        if row["found"]:
            head += " (%s), %d %s" % (", ".join(
                "%d %s" % (row[key], what) for key, what in (("exact", "exact"), ("near", "near"),
                                                             ("apart", "one word apart"), ("standoff", "stand-off"))
                if row[key]), len(row["gold"]), self._with_gold())
            if self.gold.state in ("split", "whole"):
                head += "; %s: %d of %d with their gold (%.1f%%)%s" % (
                    COUNTED if self.gold.state == "split" else COUNTED.replace("private part", "test set"),
                    row["private_gold"], row["counted"], 100 * row["share"],
                    ", %d shorter found with their gold (not counted)" % row["short_gold"] if row["short_gold"] else "")
            head += "; in %s" % ", ".join("%s (%d)" % kv for kv in list(row["sources"].items())[:3])
        if row["duplicates"] or row["one_apart"]:
            head += "; within the test set: %d duplicate(s), %d one word apart, %d pair(s) straddling the split" % (
                row["duplicates"], row["one_apart"], row["straddling"])
        return head

    def failure_texts(self):
        """``(where, text)`` of each threshold failure."""
        return [(name, "%.1f%% of its %s (%d of %d) have their gold in public data (%s), more than max_share %.1f%% "
                       "(and min_items %d): acknowledge it in %s (test_feedback.contamination.acknowledged) or take "
                       "these items out of the test gold" % (
                           100 * row["share"], COUNTED, row["private_gold"], row["counted"],
                           ", ".join(list(row["sources"])[:3]), 100 * self.policy["max_share"],
                           self.policy["min_items"],
                           os.path.relpath(self.schedule, declarations.ROOT)))
                for name, row in self.failures]

    def markdown(self):
        """``contamination.md``."""
        out = ["# Contamination audit: %s" % self.hosted.declaration.TITLE, "",
               "Test items (the whole test gold: the private part decides the ranking) whose input can be found in "
               "public data, and whose gold. Built by `python -m organiser contamination` (organiser/contamination.py)"
               " in %.1f s. Never upload this file: it quotes test items." % self.seconds, ""]
        if self.gold.state == "none":
            return "\n".join(out + ["No test gold and no test input in this build: nothing was audited.", ""])
        if self.gold.state == "input":
            out += ["**No test gold in this build**: the items are the sentences (blocks, lines) of the test input "
                    "participants get, and \"with gold\" means a copy whose rows are annotated (a gold of its own: "
                    "a treebank's, a train file's). Build with `TEST_GOLD=` to compare the gold itself.", ""]
        out += ["**Method.** The unit is each kind's own (`evalkit.items.Items.tokens`: a sentence's forms, a "
                "document's text, a choice set's gold sentence), NFC and case folded. Exact copy: the whole word "
                "sequence in a public segment (an item of fewer than %d words: only a whole public segment; a CoNLL-U "
                "sentence whose multiword tokens are split otherwise counts when every other word is the same). Near "
                "copy: a public %d-gram of an item of %d words or more (lm-evaluation-harness's decontamination), "
                "or a whole public segment one word apart from an item of %d to %d words. Stand-off: a public "
                "annotation file (Anafora) holding at least %d%% of an item's gold units. A copy carries the gold "
                "when the public word or its row holds the item's gold at every word the kind gives one for." % (
                    MIN_WORDS, NGRAM, NGRAM, MIN_WORDS, NGRAM - 1, 100 * UNIT_SHARE), ""]
        out += ["**Searched** (%d words in %d segments): %s." % (
            self.searched_words, self.searched_segments,
            "; ".join("%s: %d file(s), %.1f s of CPU" % (group, count, self.sources.cpu.get(group, 0.0))
                      for group, count in self.sources.searched.items()) or "nothing"), ""]
        if self.public:
            out += ["`PUBLIC`: %s." % ", ".join("`%s`" % p for p in self.public), ""]
        for why, names in self.sources.skipped.items():
            out.append("Not searched, %s: %d file(s) (%s%s)." % (why, len(names), ", ".join(
                "`%s`" % n for n in names[:3]), ", ..." if len(names) > 3 else ""))
        for corpus in self.corpora:
            out.append("- Declared source `%s` (%s): %s" % (
                corpus["name"], _corpus_text(corpus), "searched (`%s`)" % corpus["given"] if corpus["given"] else
                "**not searched**: get it (`%s`) and give `PUBLIC=<a folder holding it>`" % corpus.get("get", "")))
        out += ["", "Threshold: more than %.1f%% of a file's counted private items, and %d or more "
                "(`test_feedback.contamination` of `%s`); acknowledged: %s." % (
                    100 * self.policy["max_share"], self.policy["min_items"],
                    os.path.relpath(self.schedule, declarations.ROOT),
                    ", ".join("`%s`" % a for a in self.policy["acknowledged"]) or "none"), ""]
        if self.gold.state == "practice":
            out += ["The test phase is a practice phase (its gold is declared public): the threshold does not apply.",
                    ""]
        out += ["Columns: the file's test items, those found in public data and those whose gold is found; how they "
                "were found (an item may be found in several ways); of its %s, those whose gold is found and their "
                "share (what the threshold reads); the "
                "private items shorter than that found with their gold (never counted); the test items that are "
                "duplicates or one word apart within the file, and the pairs of them straddling the split." % COUNTED,
                "", "| file | language | items | found | with gold | exact | near | one apart | stand-off | counted: "
                "with gold | share | shorter | duplicates | one word apart | straddling | where |", "|" + "---|" * 16]
        for name, row in self.files.items():
            out.append("| `%s` | %s | %d | %d | %d | %d | %d | %d | %d | %d of %d | %.1f%%%s | %d | %d | %d | %d | %s |" % (
                name, row["lang"], row["items"], len(row["found"]), len(row["gold"]), row["exact"], row["near"],
                row["apart"], row["standoff"], row["private_gold"], row["counted"], 100 * row["share"],
                (" **over**" + (" (acknowledged)" if row["acknowledged"] else "")) if row["over"] else "",
                row["short_gold"], row["duplicates"], row["one_apart"], row["straddling"],
                ", ".join("`%s` (%d)" % kv for kv in list(row["sources"].items())[:3])))
        out.append("")
        examples = [(name, ex) for name, row in self.files.items() for ex in row["examples"]]
        if examples:
            out += ["## Examples", ""]
            out += ["- `%s` %s (%s part): %s in `%s`, %s: \"%s\"" % (name, ex["item"], ex["part"], ex["how"],
                                                                  ex["where"], ex["gold"], ex["words"])
                    for name, ex in examples]
            out.append("")
        if self.failures:
            out += ["## Over the threshold", ""] + ["- `%s`: %s" % item for item in self.failure_texts()] + [""]
        return "\n".join(out)

    def write(self, out_dir):
        """Write ``contamination.json`` and ``contamination.md`` into ``out_dir``; return their paths."""
        os.makedirs(out_dir, exist_ok=True)
        paths = []
        for name, text in ((JSON_FILE, json.dumps(self.summary(), indent=1, sort_keys=True) + "\n"),
                           (MARKDOWN_FILE, self.markdown() + "\n")):
            path = os.path.join(out_dir, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            paths.append(path)
        return paths


def _corpus_text(corpus):
    """What a declared source corpus is, in words: what it holds and the languages it is the source of."""
    return ", ".join(part for part in (corpus.get("what", ""), " ".join(corpus.get("languages") or [])) if part)


def _where(copy):
    """A copy's place in words."""
    if not copy:
        return ""
    unit, number = copy[1]
    return "%s, %s" % (copy[0], unit if number is None else "%s %s" % (unit, number))


# --------------------------------------------------------------------------- what other tools read

def page_sentence(report, names=None):
    """The pages' sentence of what participants could look up: the files (of ``names``, a subtask's reference files)
    beyond the threshold whose test gold is in public data, as the schedule acknowledges them; "" when none."""
    if not report or report.get("state") not in ("split", "whole"):
        return ""
    rows = [(name, row) for name, row in sorted((report.get("files") or {}).items())
            if row.get("over") and row.get("acknowledged") and (names is None or name in names)]
    if not rows:
        return ""
    return ("The test gold of %s can be looked up in public data (%s): the final results also rank on the test "
            "items whose gold is found nowhere public." % (
                ", ".join("%s (%d%% of its ranked items)" % (name.rsplit(".", 1)[0], round(100 * row["share"]))
                          for name, row in rows),
                ", ".join(sorted(set(corpus for _, row in rows for corpus in row.get("corpora") or {}
                                     if corpus != PUBLIC_PART)))))


def organisers_line(report):
    """ORGANISERS.md's line on the audit of a build."""
    if not report:
        return "not run for this build (`python -m organiser contamination`)."
    if report.get("state") == "none":
        return "no test gold in this build: nothing audited."
    files = report.get("files") or {}
    over = [name for name, row in files.items() if row.get("over")]
    text = "%d of %d test item(s) found in public data, %d with their gold (`contamination.md` beside this file; " \
           "searched: %s%s)" % (
               sum(len(r["found"]) for r in files.values()), sum(r["items"] for r in files.values()),
               sum(len(r["gold"]) for r in files.values()), ", ".join(report.get("searched") or {}) or "nothing",
               "" if report.get("public") else "; no PUBLIC corpus")
    missing = [c["name"] for c in report.get("corpora") or [] if not c.get("given")]
    if missing:
        text += "; declared sources not searched: %s (give `PUBLIC=`)" % ", ".join(missing)
    if over:
        text += "; over the threshold: %s" % ", ".join("`%s` %.0f%%%s" % (
            name, 100 * files[name]["share"], " (acknowledged)" if files[name]["acknowledged"] else " (NOT "
            "acknowledged: `make check` fails)") for name in over)
    return text + "."


def gold_indices(report, name):
    """The items of reference file ``name`` whose gold the audit found in public data (a set), or None when the
    report does not cover the file."""
    row = (report.get("files") or {}).get(name)
    return None if row is None else set(row.get("gold") or [])


# --------------------------------------------------------------------------- the command

def run(hosted, manifest, dist, public=None, schedule=None):
    """The audit of the build described by ``manifest`` (its ``build.json``) in ``dist``; ``public``: the corpora
    to search (None: those the build recorded)."""
    public = list(manifest.get("public") or []) if public is None else list(public)
    return Audit(hosted, manifest.get("reference"), manifest.get("data"), manifest.get("test_gold"), dist, public,
                 schedule or manifest.get("schedule")).run()


def split_public(value):
    """``DIR[:DIR...]`` as a list of folders (empty parts dropped)."""
    return [part for part in (value or "").split(os.pathsep) if part.strip()]


def main(argv=None):
    """``python -m organiser contamination``: audit the last build of a competition; exit 1 when a test file is over
    the threshold and not acknowledged, 2 when the build cannot be read."""
    parser = argparse.ArgumentParser(prog="python -m organiser contamination", description=__doc__.split("\n")[0])
    parser.add_argument("--competition", default=None, help="the competition's id (default: the top-level one)")
    parser.add_argument("--dist", default=None, help="its build folder (default: dist/, dist/<id>/)")
    parser.add_argument("--public", default=None, help="public corpora to search, DIR[:DIR...] (default: those the "
                                                       "build recorded, `make PUBLIC=`)")
    parser.add_argument("--schedule", default=None, help="the schedule whose threshold applies (default: the "
                                                         "build's)")
    parser.add_argument("--out", default=None, help="where to write contamination.md and .json (default: --dist)")
    parser.add_argument("--reference", default=None, help="audit this reference folder instead of the build's "
                                                          "(with --data and --test-gold: no build needed)")
    parser.add_argument("--data", default=None, help="with --reference: the release it was built from")
    parser.add_argument("--test-gold", default=None, help="with --reference: the test gold it was built from")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        hosted = declarations.Hosted(args.competition)
        dist = args.dist or hosted.out(os.path.join(declarations.ROOT, "dist"))
        if args.reference:
            manifest = {"reference": os.path.abspath(args.reference), "test_gold": args.test_gold,
                        "data": args.data, "schedule": hosted.schedule}
            dist = args.out or dist
        else:
            manifest = declarations.read_manifest(dist)
        if manifest is None:
            raise DataError(os.path.join(dist, declarations.MANIFEST), "", "no build here: run `make%s` first" % (
                "" if hosted.top_level else " COMPETITION=%s" % hosted.cid))
        for folder in split_public(args.public):
            if not os.path.isdir(folder):
                raise DataError(folder, "", "no such folder (--public, PUBLIC=)")
        audit = run(hosted, manifest, dist, split_public(args.public) if args.public is not None else None,
                    args.schedule)
    except (DataError, RuntimeError, ValueError, declarations.BuildError) as error:
        print("contamination: %s" % error, file=sys.stderr)
        return 2
    for line in audit.lines():
        print(line)
    for path in audit.write(args.out or dist):
        print("contamination: wrote %s" % path)
    for where, text in audit.failure_texts():
        print("FAIL [contamination] %s: %s" % (where, text))
    return 1 if audit.failures else 0


if __name__ == "__main__":
    sys.exit(main())
