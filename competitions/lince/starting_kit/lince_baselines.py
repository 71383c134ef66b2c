"""LinCE baselines that train in seconds on ``train.conll`` (standard library only, Python 3.7+).

- :class:`Floor`: the most frequent label of the training data, everywhere (the floor to beat).
- :class:`LexiconTagger`: each token's most frequent training label (lower-cased lookup); for unseen
  tokens, rules a user would expect: no letter (punctuation, numbers, emoticons), ``@mentions`` and
  URLs are ``other`` (POS: ``PUNCT`` / ``X``); a capitalised token that does not start the sentence
  is ``ne`` (POS: ``PROPN``); the rest goes to a character n-gram model (LID: ``lang1`` vs
  ``lang2``; POS: the open-class tags) or to the most frequent label. NER: an ``I-`` that does
  not continue a span is turned into a ``B-``.
- :class:`NaiveBayes`: bag-of-words multinomial naive Bayes for sentence labels (SA).

A model is trained on ``[(header, rows), ...]`` from ``lince_data.read_conll`` and predicts labels
for the sentences of a test file (tokens in the first column).
"""
import math
import os
import time
import zipfile
from collections import Counter, defaultdict

from lince_data import read_conll


def has_letter(token):
    """Whether ``token`` holds at least one letter."""
    return any(ch.isalpha() for ch in token)


def is_other(token):
    """Tokens every LID annotator labels ``other``: no letter, ``@mentions`` and URLs."""
    return not has_letter(token) or token.startswith("@") or token.lower().startswith(("http://", "https://", "www."))


def ngrams(token, n_max=4):
    """Character 1..``n_max``-grams of ``<token>`` (with boundary marks), lower-cased."""
    text = "<%s>" % token.lower()
    return [text[i:i + n] for n in range(1, n_max + 1) for i in range(len(text) - n + 1)]


class NgramModel(object):
    """Naive Bayes over character n-grams, add-one smoothing: the label of an unseen word."""

    def __init__(self, words_by_label):
        self.counts = dict((label, Counter(g for word in words for g in ngrams(word)))
                           for label, words in words_by_label.items() if words)
        self.totals = dict((label, sum(c.values())) for label, c in self.counts.items())
        self.vocab = len(set(g for c in self.counts.values() for g in c)) + 1
        n_words = sum(len(words) for words in words_by_label.values()) or 1
        self.priors = dict((label, math.log(len(words) / float(n_words)))
                           for label, words in words_by_label.items() if words)

    def predict(self, word):
        """The most probable label of ``word`` (None when the model has no label)."""
        best, best_score = None, None
        for label, counts in self.counts.items():
            score = self.priors[label] + sum(math.log((counts.get(g, 0) + 1.0) / (self.totals[label] + self.vocab))
                                             for g in ngrams(word))
            if best_score is None or score > best_score:
                best, best_score = label, score
        return best


class Floor(object):
    """The most frequent training label everywhere (token tasks) or for every sentence (SA)."""

    def __init__(self, task, labels):
        self.task = task
        self.labels = labels

    def train(self, sentences):
        """Count the labels of the training sentences."""
        if self.task.kind == "sentence_labels":
            counts = Counter(header[-1].strip() for header, _ in sentences)
        else:
            counts = Counter(row[-1] for _, rows in sentences for row in rows)
        self.label = counts.most_common(1)[0][0] if counts else self.labels[0]
        return self

    def predict(self, tokens):
        """One label per token (or one for the sentence)."""
        return self.label if self.task.kind == "sentence_labels" else [self.label] * len(tokens)


class LexiconTagger(object):
    """Most frequent label per word, with rules and an n-gram model for unseen words (LID, POS, NER)."""

    OPEN_POS = ("NOUN", "VERB", "ADJ", "ADV")

    def __init__(self, task, labels):
        self.task = task
        self.labels = labels

    def train(self, sentences):
        """Learn the lexicon, the fallback label and the n-gram model from training sentences."""
        lexicon = defaultdict(Counter)
        words_by_label = defaultdict(list)
        counts = Counter()
        for _, rows in sentences:
            for row in rows:
                lexicon[row[0].lower()][row[-1]] += 1
                counts[row[-1]] += 1
                words_by_label[row[-1]].append(row[0])
        self.lexicon = dict((word, c.most_common(1)[0][0]) for word, c in lexicon.items())
        self.default = counts.most_common(1)[0][0] if counts else self.labels[0]
        if self.task.key == "lid":
            keep = ("lang1", "lang2")
        elif self.task.key == "pos":
            keep = self.OPEN_POS
        else:
            keep = ()
        self.ngram = NgramModel(dict((label, words_by_label[label]) for label in keep)) if keep else None
        return self

    def _unseen(self, token, position):
        """The label of a token absent from the lexicon."""
        key = self.task.key
        if key == "ner":
            return "O"
        if is_other(token):
            if key == "lid":
                return "other"
            return "PUNCT" if "PUNCT" in self.labels and not has_letter(token) else "X"
        if position and token[:1].isupper():
            proper = "ne" if key == "lid" else "PROPN"
            if proper in self.labels:
                return proper
        label = self.ngram.predict(token) if self.ngram else None
        return label or self.default

    def predict(self, tokens):
        """One label per token."""
        labels = [self.lexicon.get(token.lower()) or self._unseen(token, i) for i, token in enumerate(tokens)]
        if self.task.key == "ner":
            labels = repair_bio(labels)
        return labels


def repair_bio(labels):
    """Turn every ``I-X`` that does not continue an ``X`` span into ``B-X``.

    >>> repair_bio(["O", "I-PER", "I-PER", "I-LOC"])
    ['O', 'B-PER', 'I-PER', 'B-LOC']
    """
    out, previous = [], "O"
    for label in labels:
        if label.startswith("I-") and previous[2:] != label[2:]:
            label = "B-" + label[2:]
        out.append(label)
        previous = label
    return out


class NaiveBayes(object):
    """Bag-of-words multinomial naive Bayes with add-one smoothing, for sentence labels (SA)."""

    def __init__(self, task, labels):
        self.task = task
        self.labels = labels

    def train(self, sentences):
        """Count words per sentence label."""
        self.words = defaultdict(Counter)
        docs = Counter()
        for header, rows in sentences:
            label = header[-1].strip()
            docs[label] += 1
            self.words[label].update(row[0].lower() for row in rows)
        total = float(sum(docs.values())) or 1.0
        self.priors = dict((label, math.log(count / total)) for label, count in docs.items())
        self.totals = dict((label, sum(c.values())) for label, c in self.words.items())
        self.vocab = len(set(w for c in self.words.values() for w in c)) + 1
        return self

    def predict(self, tokens):
        """The most probable label of the sentence ``tokens``."""
        def score(label):
            counts = self.words[label]
            return self.priors[label] + sum(math.log((counts.get(t.lower(), 0) + 1.0) / (self.totals[label] + self.vocab))
                                            for t in tokens)
        return max(sorted(self.priors), key=score) if self.priors else self.labels[0]


def model(system, task, labels):
    """A new untrained model: ``system`` is ``baseline`` or ``floor``."""
    if system == "floor":
        return Floor(task, labels)
    if task.kind == "sentence_labels":
        return NaiveBayes(task, labels)
    return LexiconTagger(task, labels)


def predictions_text(task, sentences, system):
    """The submission file's text for one dataset's ``sentences``."""
    if task.kind == "sentence_labels":
        return "".join(system.predict([row[0] for row in rows]) + "\n" for _, rows in sentences)
    return "".join("".join(label + "\n" for label in system.predict([row[0] for row in rows])) + "\n"
                   for _, rows in sentences)


def make(lince, data, split, system_name, out):
    """Write the submission zip ``out``; return ``[(dataset id, what happened)]``."""
    done = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for task, pair in lince.DATASETS:
            ident = lince.dataset_id(task, pair)
            train_path = os.path.join(data, ident, "train.conll")
            split_path = os.path.join(data, ident, split + ".conll")
            if not (os.path.isfile(train_path) and os.path.isfile(split_path)):
                done.append((ident, "skipped: no train.conll or %s.conll" % split))
                continue
            start = time.time()
            system = model(system_name, task, task.labels[pair]).train(read_conll(train_path))
            sentences = read_conll(split_path)
            archive.writestr(lince.SUBMISSION_FILE.format(task=task.key, lang=pair),
                             predictions_text(task, sentences, system))
            done.append((ident, "%d sentences in %.1f s" % (len(sentences), time.time() - start)))
    return done
