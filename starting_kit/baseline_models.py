"""The baseline systems of ST2024 and their trivial floors, as small count-based models.

Every model is trained on the ``train`` split only, is deterministic (ties are broken by the
label's string order) and needs nothing but the standard library. This module is shared by the
organisers' ``python -m organiser baselines`` (which publishes the baseline table) and the starting
kit's ``make_submission.py``; both reduce the data to plain Python values first:

- CoNLL-U sentences as lists of :class:`Row` (one per CoNLL-U row, multiword ranges included,
  empty nodes excluded);
- fill-the-gaps lines as unit lists (words or characters) in which ``None`` stands for a gap.

Nothing here names a language: Classical Chinese, whose character level is a stroke string and
whose word level has no spaces, goes through the same code as every other language.
"""
import json
import zipfile
from collections import Counter, defaultdict, namedtuple

#: UPOS and lemma of a multiword-token range row in the references.
RANGE_LABEL = "_"
#: Number of candidates submitted for lemmas and gaps.
TOP_K = 3
#: Longest suffix used to guess the labels of unseen forms.
MAX_SUFFIX = 4

Row = namedtuple("Row", "form lemma upos feats is_range")
Row.__doc__ = """One CoNLL-U row: ``feats`` is a tuple of ``(name, value)`` pairs, sorted."""


def ranked(counter, k=None):
    """Labels of ``counter`` by decreasing count, ties by label (deterministic); the first ``k``.

    (Sorted by label, then stably by count in reverse: both keys stay in C.)
    """
    if len(counter) == 1:
        return list(counter)
    labels = sorted(sorted(counter), key=counter.__getitem__, reverse=True)
    return labels if k is None else labels[:k]


def suffixes(form, longest=MAX_SUFFIX):
    """Suffixes of ``form`` from the longest (at most ``longest`` characters) to one character."""
    return [form[-n:] for n in range(min(longest, len(form)), 0, -1)]


def word_rows(sentences):
    """Every non-range row of ``sentences`` (ranges are labelled structurally, never learned)."""
    return [row for sentence in sentences for row in sentence if not row.is_range]


class FormLexicon(object):
    """Label counts by form, by lower-cased form and by form suffix, with a global fallback.

    ``lookup(form)`` returns the label counts of the form itself (exact, then lower-cased) or,
    for an unseen form, of the longest known suffix (counted over word types, which represent
    unseen words better than tokens do); ``None`` when nothing is known.
    """

    def __init__(self, pairs):
        self.by_form = defaultdict(Counter)
        self.by_lower = defaultdict(Counter)
        self.by_suffix = defaultdict(Counter)
        for form, label in pairs:
            self.by_form[form][label] += 1
            self.by_lower[form.lower()][label] += 1
        for form, labels in self.by_form.items():
            for suffix in suffixes(form):
                for label in labels:
                    self.by_suffix[suffix][label] += 1

    def known(self, form):
        """Label counts of ``form`` (exact, then lower-cased), or ``None`` for an unseen form."""
        return self.by_form.get(form) or self.by_lower.get(form.lower())

    def by_longest_suffix(self, form):
        """Label counts of the longest known suffix of ``form``, or ``None``."""
        for suffix in suffixes(form):
            if suffix in self.by_suffix:
                return self.by_suffix[suffix]
        return None

    def lookup(self, form):
        """Label counts of the form, else of its longest known suffix, else ``None``."""
        return self.known(form) or self.by_longest_suffix(form)


# --------------------------------------------------------------------------- tagging-like tasks

class PosBaseline(object):
    """POS: most frequent tag of the form; unseen forms by the longest known suffix (up to 4
    characters); else the language's majority tag. Range rows get ``_``."""

    def __init__(self, sentences):
        rows = word_rows(sentences)
        self.majority = ranked(Counter(row.upos for row in rows), 1)[0] if rows else RANGE_LABEL
        self.lexicon = FormLexicon((row.form, row.upos) for row in rows)

    def predict(self, row):
        """The UPOS of one input row."""
        if row.is_range:
            return RANGE_LABEL
        counts = self.lexicon.lookup(row.form)
        return ranked(counts, 1)[0] if counts else self.majority


#: The floor's tag for a language without training data: the most frequent class of Universal Dependencies'
#: treebanks overall (a floor no higher than the language's own majority tag).
UNTRAINED_TAG = "NOUN"


class MajorityTagFloor(object):
    """POS floor: the language's majority tag for every row (:data:`UNTRAINED_TAG` without training rows)."""

    def __init__(self, sentences):
        self.majority = ranked(Counter(row.upos for row in word_rows(sentences)), 1) or [UNTRAINED_TAG]

    def predict(self, row):
        """The majority tag, whatever the row."""
        return self.majority[0]


def rewrite_rule(form, lemma):
    """The suffix-rewrite rule turning ``form`` into ``lemma``: ``(k, s)`` = strip k final
    characters, append ``s`` (k is as small as the longest common prefix allows)."""
    common = 0
    for a, b in zip(form, lemma):
        if a != b:
            break
        common += 1
    return (len(form) - common, lemma[common:])


def apply_rule(form, rule):
    """``form`` rewritten by ``rule``, or ``None`` when the rule strips more than the form has."""
    strip, append = rule
    if strip > len(form):
        return None
    return form[:len(form) - strip] + append


class LemmaBaseline(object):
    """Lemmas: top-3 lemmas of the form; unseen forms: top-3 suffix-rewrite rules learned from
    train (strip k final characters, append s) for the form's longest known suffix; else the
    form itself. Candidate lists are filled up to 3 from the next source and the form itself."""

    def __init__(self, sentences):
        rows = word_rows(sentences)
        self.lemmas = FormLexicon((row.form, row.lemma) for row in rows)
        self.rules = FormLexicon((row.form, rewrite_rule(row.form, row.lemma)) for row in rows)

    def candidates(self, form):
        """Up to 3 distinct lemma candidates for ``form``, best first."""
        out = []
        known = self.lemmas.known(form)
        if known:
            out.extend(ranked(known, TOP_K))
        rules = self.rules.by_longest_suffix(form)
        for rule in (ranked(rules) if rules else ()):
            if len(out) >= TOP_K:
                break
            lemma = apply_rule(form, rule)
            if lemma and lemma not in out:
                out.append(lemma)
        if form not in out and len(out) < TOP_K:
            out.append(form)
        return out

    def predict(self, row):
        """The candidate list of one input row (``["_"]`` for a range row)."""
        return [RANGE_LABEL] if row.is_range else self.candidates(row.form)


class IdentityLemmaFloor(object):
    """Lemma floor: the form itself."""

    def __init__(self, sentences):
        pass

    @staticmethod
    def predict(row):
        """``[form]``."""
        return [row.form]


class MorphBaseline(object):
    """Morphology: the most frequent UPOS+feature bundle of the form; unseen forms by the longest
    known suffix; else the most frequent bundle of the language's majority UPOS."""

    def __init__(self, sentences):
        rows = word_rows(sentences)
        self.lexicon = FormLexicon((row.form, (row.upos, row.feats)) for row in rows)
        bundles = Counter((row.upos, row.feats) for row in rows)
        majority = ranked(Counter(row.upos for row in rows), 1)
        of_majority = Counter(dict((b, n) for b, n in bundles.items() if b[0] in majority))
        self.fallback = ranked(of_majority, 1)[0] if of_majority else (RANGE_LABEL, ())

    def predict(self, row):
        """The token dictionary of one input row."""
        if row.is_range:
            return bundle_dict(row.form, (RANGE_LABEL, ()))
        counts = self.lexicon.lookup(row.form)
        return bundle_dict(row.form, ranked(counts, 1)[0] if counts else self.fallback)


class EmptyFeaturesFloor(object):
    """Morphology floor: the form and the majority tag, no features."""

    def __init__(self, sentences):
        self.tagger = MajorityTagFloor(sentences)

    def predict(self, row):
        """``{"Token": form, "UPOS": majority}``."""
        return bundle_dict(row.form, (self.tagger.predict(row), ()))


def bundle_dict(form, bundle):
    """The submission dictionary of a token: ``{"Token": form, "UPOS": upos, <feat>: value}``."""
    upos, feats = bundle
    token = {"Token": form, "UPOS": upos}
    token.update(feats)
    return token


# --------------------------------------------------------------------------- fill the gaps

#: Context shapes (units to the left, units to the right) of the n-gram gap fillers, most specific
#: first: a gap is filled from the first shapes whose context was seen in train.
CHAR_CONTEXTS = ((2, 2), (2, 1), (1, 2), (1, 1), (2, 0), (0, 2), (1, 0), (0, 1))
WORD_CONTEXTS = ((1, 1), (1, 0), (0, 1))
BOUNDARY = "\x02"
#: A gap inside a character string (never a character of the data).
GAP_CHAR = "\x00"


class GapFiller(object):
    """Top-3 units for a gap from the units around it, backing off to shorter contexts and then
    to unigram frequency.

    ``lines`` are unit lists (``None`` marks a unit unknown in train, e.g. a masked one);
    ``contexts`` are the (left, right) context sizes tried in order; ``chars`` says that every
    unit is one character (the lines are then handled as strings, which is much faster). For each
    shape, the counts of the centre unit by context are learned; a gap takes the ranked
    candidates of the first shape whose context was seen, then of the next ones, until it has 3.
    """

    def __init__(self, lines, contexts, chars=False):
        self.contexts = tuple(contexts)
        self.chars = chars
        self.gap = GAP_CHAR if chars else None
        self.width = max(max(left, right) for left, right in self.contexts)
        joined = self._join(self._sequence(units) for units in lines)
        unigrams = Counter(joined)
        for unit in (self.gap, BOUNDARY):
            unigrams.pop(unit, None)
        self.unigram_top = ranked(unigrams, TOP_K)
        self.tables = self._learn(joined)
        self._cache = {}

    def _sequence(self, units):
        """``units`` padded with ``width`` boundary units on each side: a string (gaps as
        ``GAP_CHAR``) when every unit is a character, else a tuple (gaps as ``None``)."""
        edge = [BOUNDARY] * self.width
        padded = edge + list(units) + edge
        if self.chars:
            return "".join(GAP_CHAR if u is None else u for u in padded)
        return tuple(padded)

    def _join(self, sequences):
        """All padded sequences end to end (a window centred on a unit never leaves its line)."""
        if self.chars:
            return "".join(sequences)
        return tuple(unit for seq in sequences for unit in seq)

    def _learn(self, joined):
        """``{shape: {context: {centre: count}}}``. The widest windows are cut and counted once in
        C (map/slice/Counter); every shape is then read off the distinct windows. Windows centred
        on a boundary, and contexts holding a gap, are skipped."""
        width, gap = self.width, self.gap
        span = 2 * width + 1
        stop = len(joined) - span + 1
        windows = Counter(map(joined.__getitem__, map(slice, range(stop), range(span, stop + span))))
        cuts = [(shape, width - shape[0], width + 1 + shape[1]) for shape in self.contexts]
        tables = dict((shape, {}) for shape in self.contexts)
        for window, count in windows.items():
            centre = window[width]
            if centre == BOUNDARY or centre == gap:
                continue
            for shape, start, end in cuts:
                key = window[start:width] + window[width + 1:end]
                if gap in key:
                    continue
                counts = tables[shape].get(key)
                if counts is None:
                    tables[shape][key] = {centre: count}
                else:
                    counts[centre] = counts.get(centre, 0) + count
        return tables

    def _ranked(self, shape, key):
        """The top-3 centres of context ``key`` of ``shape`` (ranked on first use, then cached)."""
        cache_key = (shape, key)
        found = self._cache.get(cache_key)
        if found is None:
            counts = self.tables[shape].get(key)
            found = self._cache[cache_key] = ranked(counts, TOP_K) if counts else []
        return found

    def fill(self, units):
        """One list of up to 3 candidates per gap (``None``) of ``units``, in order."""
        seq = self._sequence(units)
        return [self._candidates(seq, i) for i in range(self.width, len(seq) - self.width)
                if seq[i] == self.gap]

    def _candidates(self, seq, i):
        """Up to 3 distinct candidates for the gap at ``seq[i]``."""
        chosen = []
        for left, right in self.contexts:
            key = seq[i - left:i] + seq[i + 1:i + 1 + right]
            if self.gap in key:
                continue
            for unit in self._ranked((left, right), key):
                if unit not in chosen:
                    chosen.append(unit)
            if len(chosen) >= TOP_K:
                return chosen[:TOP_K]
        for unit in self.unigram_top:
            if unit not in chosen and len(chosen) < TOP_K:
                chosen.append(unit)
        return chosen


class WordGapFiller(object):
    """Top-3 words for a ``[MASK]`` from its neighbouring words.

    Candidates come first from the words seen between the same left and right neighbours, then
    from the left and right bigram counts combined (``P(w|left) * P(w|right) / P(w)``, each
    smoothed towards the unigram distribution), then from unigram frequency.
    """

    #: How many successors of the left word / predecessors of the right word are considered.
    SHORTLIST = 20
    #: Weight of the unigram distribution in the smoothed bigram probabilities.
    SMOOTHING = 1.0

    def __init__(self, lines):
        self.both = GapFiller(lines, ((1, 1),))
        joined = self.both._join(self.both._sequence(units) for units in lines)
        self.unigrams = Counter(joined)
        for unit in (None, BOUNDARY):
            self.unigrams.pop(unit, None)
        self.total = sum(self.unigrams.values())
        self.vocabulary = len(self.unigrams)
        self.after = defaultdict(dict)    # left word -> {word that follows it: count}
        self.before = defaultdict(dict)   # right word -> {word that precedes it: count}
        for (left, right), count in Counter(zip(joined, joined[1:])).items():
            if left is None or right is None or left == right == BOUNDARY:
                continue
            if right != BOUNDARY:
                self.after[left][right] = count
            if left != BOUNDARY:
                self.before[right][left] = count
        self.shortlists = {}
        self.frequent = ranked(self.unigrams, self.SHORTLIST)

    def _prior(self, word):
        """Smoothed unigram probability of ``word``."""
        return (self.unigrams.get(word, 0) + 0.5) / (self.total + 0.5 * self.vocabulary)

    def _shortlist(self, table, word):
        """``(counts, total, top words)`` of ``table[word]`` (cached), or ``None``."""
        key = (id(table), word)
        if key not in self.shortlists:
            counts = table.get(word)
            self.shortlists[key] = (counts, sum(counts.values()), ranked(counts, self.SHORTLIST)) \
                if counts else None
        return self.shortlists[key]

    def _by_bigrams(self, left, right):
        """Words ranked by the combined left and right bigram evidence."""
        sides = [self._shortlist(self.after, left) if left is not None else None,
                 self._shortlist(self.before, right) if right is not None else None]
        sides = [side for side in sides if side]
        candidates = set(self.frequent)
        for _, _, top in sides:
            candidates.update(top)

        def score(word):
            prior = self._prior(word)
            value = 1.0
            for counts, total, _ in sides:
                value *= (counts.get(word, 0) + self.SMOOTHING * prior) / (total + self.SMOOTHING)
            return value / prior ** (len(sides) - 1) if sides else prior
        return sorted(candidates, key=lambda word: (-score(word), word))

    def fill(self, units):
        """One list of up to 3 candidates per gap (``None``) of ``units``, in order."""
        seq = self.both._sequence(units)
        out = []
        for i in range(1, len(seq) - 1):
            if seq[i] is not None:
                continue
            chosen = list(self.both._ranked((1, 1), (seq[i - 1], seq[i + 1])))
            for word in self._by_bigrams(seq[i - 1], seq[i + 1]):
                if len(chosen) >= TOP_K:
                    break
                if word not in chosen:
                    chosen.append(word)
            out.append(chosen)
        return out


class FrequentUnitFloor(object):
    """Fill-the-gaps floor: the 3 most frequent units of train for every gap."""

    def __init__(self, lines):
        self.top = ranked(Counter(u for units in lines for u in units if u is not None), TOP_K)

    def fill(self, units):
        """The same 3 candidates for every gap of ``units``."""
        return [list(self.top) for unit in units if unit is None]


# --------------------------------------------------------------------------- fill-mask lines

#: A language whose train text has fewer spaces than one per this many characters is written
#: without spaces (Classical Chinese): its words are read as single characters.
SPACELESS_CHARS_PER_SPACE = 20


def is_spaceless(texts):
    """True when ``texts`` have (almost) no spaces, so that words must be read as characters."""
    chars = sum(len(text) for text in texts)
    spaces = sum(text.count(" ") for text in texts)
    return chars > 0 and chars > SPACELESS_CHARS_PER_SPACE * spaces


def char_units(line, marker):
    """The characters of ``line`` with ``None`` for each ``marker`` (``[_]``)."""
    units = []
    for n, part in enumerate(line.split(marker)):
        if n:
            units.append(None)
        units.extend(part)
    return units


def word_units(line, marker, spaceless=False):
    """The words of ``line`` (whitespace-separated; characters when ``spaceless``) with ``None``
    for each ``marker`` (``[MASK]``), also when the marker is glued to a neighbour."""
    units = []
    for chunk in line.split():
        for n, part in enumerate(chunk.split(marker)):
            if n:
                units.append(None)
            if part:
                units.extend(part if spaceless else [part])
    return units


def restore(units, full):
    """``units`` with their gaps filled from ``full`` (the same line unmasked) when the two align
    unit by unit; otherwise ``units`` unchanged (the gaps stay unknown)."""
    if full is None or len(full) != len(units):
        return units
    if any(u is not None and u != f for u, f in zip(units, full)):
        return units
    return list(full)


def gap_golds(masked, src, marker):
    """The strings hidden by the markers of ``masked``, read off ``src`` (whitespace ignored: the
    masked lines were detokenised), or ``None`` when that reading is not certain.

    Between two known stretches of text, a gold is the shortest non-empty span that lets the next
    stretch follow; two adjacent markers (nothing known between them) cannot be split: ``None``.
    """
    segments = ["".join(part.split()) for part in masked.split(marker)]
    text = "".join(src.split())
    if not text.startswith(segments[0]) or any(not seg for seg in segments[1:-1]):
        return None
    position, golds = len(segments[0]), []
    for number, segment in enumerate(segments[1:], 1):
        if number == len(segments) - 1:
            end = len(text) - len(segment)
            if end <= position or not text.endswith(segment):
                return None
        else:
            end = text.find(segment, position + 1)
            if end < 0:
                return None
        golds.append(text[position:end])
        position = end + len(segment)
    return golds


# --------------------------------------------------------------------------- one task, end to end

#: The baseline and the floor of each task kind (``st2024.Task.kind``) with CoNLL-U input.
TAGGING_SYSTEMS = {
    "tagging": (PosBaseline, MajorityTagFloor),
    "candidates": (LemmaBaseline, IdentityLemmaFloor),
    "morph": (MorphBaseline, EmptyFeaturesFloor),
}
SYSTEMS = ("baseline", "floor")


def is_char_level(task):
    """True for the character-level fill-the-gaps task of ``st2024.TASKS``."""
    return task.kind == "fill_mask" and task.folder == "fill_mask_char"


def line_units(task, masked, spaceless):
    """The units of one masked line of ``task`` with ``None`` for its markers."""
    if is_char_level(task):
        return char_units(masked, task.mask_marker)
    return word_units(masked, task.mask_marker, spaceless)


def fill_mask_training(task, rows):
    """``(lines, spaceless)`` to train the gap fillers of ``task`` from the train TSV ``rows``
    (``(masked, src)`` pairs), or ``None`` when there are none.

    Each line is the masked line as units; its gaps are filled from ``src`` when that reading is
    certain (characters: ``src`` is the line unmasked; words: :func:`gap_golds`), else they stay
    unknown (``None``; e.g. Classical Chinese strokes, whose ``src`` is in hanzi).
    """
    if not rows:
        return None
    spaceless = is_spaceless([src if src is not None else masked for masked, src in rows])
    lines = []
    for masked, src in rows:
        units = line_units(task, masked, spaceless)
        if src is not None and is_char_level(task):
            units = restore(units, char_units(src, task.mask_marker))
        elif src is not None:
            golds = gap_golds(masked, src, task.mask_marker)
            if golds is not None and len(golds) == units.count(None):
                golds = iter(golds)
                units = [next(golds) if unit is None else unit for unit in units]
        lines.append(units)
    return lines, spaceless


def train_systems(task, training):
    """``{"baseline": model, "floor": model}`` for ``task`` (an ``st2024.Task``) trained on
    ``training`` (CoNLL-U rows, or the result of :func:`fill_mask_training`); ``None`` when there
    is no training data."""
    if training is None:
        return None
    if task.kind == "fill_mask":
        lines, spaceless = training
        if is_char_level(task):
            best = GapFiller(lines, CHAR_CONTEXTS, chars=True)
        else:
            best = WordGapFiller(lines)
        return {"baseline": (best, spaceless), "floor": (FrequentUnitFloor(lines), spaceless)}
    baseline, floor = TAGGING_SYSTEMS[task.kind]
    return {"baseline": baseline(training), "floor": floor(training)}


def untrained_floor(task, inputs):
    """The floor of ``task`` for a language without a train file, from its input ``inputs`` alone (CoNLL-U rows or
    masked lines): the form as its lemma, :data:`UNTRAINED_TAG` for every row (and no feature), the three most
    frequent units of the input's own unmasked text for every gap. Its scores stay trivial, so that the floor of
    the development phase (``floor_scores.json``) still says which files do no better."""
    if task.kind == "fill_mask":
        spaceless = is_spaceless(inputs)
        return FrequentUnitFloor([line_units(task, masked, spaceless) for masked in inputs]), spaceless
    return TAGGING_SYSTEMS[task.kind][1]([])


def predict(task, model, inputs):
    """The submission file (a JSON-able list) of ``task`` for ``inputs`` (CoNLL-U rows or masked
    lines). ``model`` ``None``: the right shape without predictions (no training data)."""
    if task.kind == "fill_mask":
        return [fill_mask_item(task, model, masked) for masked in inputs]
    if model is None and task.kind == "morph":
        return [[{"Token": row.form} for row in sentence] for sentence in inputs]
    if model is None:
        empty = "" if task.kind == "tagging" else []
        return [[[row.form, empty] for row in sentence] for sentence in inputs]
    if task.kind == "morph":
        return [[model.predict(row) for row in sentence] for sentence in inputs]
    return [[[row.form, model.predict(row)] for row in sentence] for sentence in inputs]


def fill_mask_item(task, model, masked):
    """One fill-mask prediction ``{"masked", "text", "masked_tokens"}`` (top-1 restores ``text``)."""
    marker = task.mask_marker
    if model is None:
        candidates = [[] for _ in range(masked.count(marker))]
    else:
        filler, spaceless = model
        candidates = filler.fill(line_units(task, masked, spaceless))
    parts = masked.split(marker)
    text = parts[0] + "".join((cands[0] if cands else "") + part
                              for cands, part in zip(candidates, parts[1:]))
    return {"masked": masked, "text": text, "masked_tokens": candidates}


def parse_feats(text):
    """CoNLL-U FEATS ``Case=Nom|Number=Sing`` as sorted ``(name, value)`` pairs (``_``: none)."""
    if not text or text == "_":
        return ()
    return tuple(sorted(tuple(item.split("=", 1)) for item in text.split("|") if "=" in item))


# --------------------------------------------------------------------------- submission files

#: Date of every zip member: the same predictions always give the same zip, byte for byte.
ZIP_DATE = (2024, 1, 1, 0, 0, 0)


def to_json(value):
    """A submission file's text: compact UTF-8 JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write_zip(path, members):
    """Write ``{"<task>/<lang>.json": bytes}`` as a submission zip (task folders at the root)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name])
