"""Phones -> k-best word sequences: the composition (phone changes) o (inverse lexicon) of the recipe.

The search is a word lattice over the positions of the input phone sequence. An edge ``(i, j, word)``
says that input phones ``i..j-1``, after keeping, substituting (by a similar phone) or dropping each of
them, spell one pronunciation of ``word``; its cost is the cheapest such change plus ``-ln p(word)``.
The k best paths from position 0 to the end are enumerated lazily (best first, ties in a fixed order),
so the same input always gives the same list.

Worked example (a two-word lexicon; "B" may become "P", dropping costs more than substituting)::

    >>> from competitions.spanglisheval.resources import PhoneChanges
    >>> changes = PhoneChanges({"B": ["P"]}, ["B", "P", "AA"])
    >>> trie = Trie()
    >>> trie.add(["P", "AA"], "PA__sp", 1.0)
    >>> trie.add(["B", "AA"], "BA__sp", 5.0)
    >>> [words for cost, words in kbest(["B", "AA"], [trie], changes, 5)]
    [('PA__sp',), ('BA__sp',)]
"""
import heapq

# Only changes cheaper than this (in nats, per word) are explored: about one drop plus two substitutions.
CHANGE_BEAM = 11.0
HOMOPHONES = 4        # words kept per pronunciation (the most frequent)
EDGES_PER_SPAN = 40   # edges kept per (start, end) span (the cheapest)


class Trie(object):
    """Pronunciation trie: phone sequences -> (cost, word) of the words pronounced so."""

    def __init__(self):
        self.children = [{}]
        self.words = {}

    def add(self, phones, word, cost):
        """Add one pronunciation of ``word`` with its cost."""
        node = 0
        for phone in phones:
            child = self.children[node].get(phone)
            if child is None:
                child = len(self.children)
                self.children.append({})
                self.children[node][phone] = child
            node = child
        self.words.setdefault(node, []).append((cost, word))

    def finish(self, keep=HOMOPHONES):
        """Sort the words of each node by cost (then spelling) and keep the ``keep`` cheapest."""
        for node, words in self.words.items():
            self.words[node] = sorted(set(words))[:keep]
        return self


def build_trie(lexicon):
    """Trie of every pronunciation of a :class:`Lexicon`, words tagged ``WORD__lang``."""
    trie = Trie()
    for word in sorted(lexicon.prons):
        tagged = word + "__" + lexicon.lang
        for phones in lexicon.prons[word]:
            trie.add(phones, tagged, lexicon.cost[word])
    return trie.finish()


def _relax(states, node, cost):
    """Keep the cheaper of two ways to reach ``node``."""
    old = states.get(node)
    if old is None or cost < old:
        states[node] = cost


def edges_from(start, phones, trie, changes):
    """Return {(end, word): cost} of the words that can spell ``phones[start:end]`` after changes."""
    children, words = trie.children, trie.words
    frontier = {0: 0.0}
    found = {}
    for pos in range(start, len(phones)):
        keep, subs, drop = changes.options(phones[pos])
        states = {}
        for node, cost in frontier.items():
            child = children[node].get(phones[pos])
            if child is not None:
                _relax(states, child, cost + keep)
            for similar, sub_cost in subs:
                child = children[node].get(similar)
                if child is not None:
                    _relax(states, child, cost + sub_cost)
            if node != 0 or start == 0:      # leading drops belong to the previous word
                _relax(states, node, cost + drop)
        frontier = {node: cost for node, cost in states.items() if cost <= CHANGE_BEAM}
        if not frontier:
            break
        for node, cost in frontier.items():
            for word_cost, word in words.get(node, ()):
                key = (pos + 1, word)
                total = cost + word_cost
                if key not in found or total < found[key]:
                    found[key] = total
    return found


def lattice(phones, tries, changes):
    """Return the incoming edges of each position: ``incoming[j] = [(cost, i, word), ...]`` (sorted)."""
    spans = {}
    for start in range(len(phones)):
        for trie in tries:
            for (end, word), cost in edges_from(start, phones, trie, changes).items():
                spans.setdefault((start, end), []).append((cost, start, word))
    incoming = [[] for _ in range(len(phones) + 1)]
    for (start, end), edges in sorted(spans.items()):
        incoming[end].extend(sorted(edges)[:EDGES_PER_SPAN])
    for edges in incoming:
        edges.sort()
    return incoming


def kbest(phones, tries, changes, k):
    """The ``k`` cheapest paths as [(cost, (word, ...)), ...], distinct word sequences, best first."""
    if not phones:
        return []
    incoming = lattice(phones, tries, changes)
    best = [[(0.0, None, None)]] + [None] * len(phones)
    for end in range(1, len(phones) + 1):
        heap = []
        for index, (cost, start, _) in enumerate(incoming[end]):
            if best[start]:
                heap.append((best[start][0][0] + cost, index, 0))
        heapq.heapify(heap)
        ranked = []
        while heap and len(ranked) < k:
            total, index, rank = heapq.heappop(heap)
            ranked.append((total, index, rank))
            cost, start, _ = incoming[end][index]
            if rank + 1 < len(best[start]):
                heapq.heappush(heap, (best[start][rank + 1][0] + cost, index, rank + 1))
        best[end] = ranked
    return _distinct_paths(best, incoming, len(phones))


def _words_of(best, incoming, end, rank):
    """Follow the back-pointers of path ``rank`` ending at ``end``; return its words."""
    words = []
    while end > 0:
        _, index, prev_rank = best[end][rank]
        _, start, word = incoming[end][index]
        words.append(word)
        end, rank = start, prev_rank
    return tuple(reversed(words))


def _distinct_paths(best, incoming, end):
    """The paths of ``best[end]`` as word sequences, first occurrence of each sequence kept."""
    seen = set()
    paths = []
    for rank, (total, _, _) in enumerate(best[end]):
        words = _words_of(best, incoming, end, rank)
        if words not in seen:
            seen.add(words)
            paths.append((total, words))
    return paths
