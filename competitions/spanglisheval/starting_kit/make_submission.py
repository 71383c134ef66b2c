#!/usr/bin/env python3
"""A simple SpanglishEval baseline: an add-one word-bigram model scores every sentence of every set.

    python3 make_submission.py --train bangor_train_gold --split dev --out bigram-dev.zip
    python3 make_submission.py --system constant --split test --out constant-test.zip

``--train`` is a tagged corpus, one sentence a line (``word__en word__sp ...``), e.g. the Bangor Miami
training split ``bangor_raw/bangor_train_gold`` of the paper's repository (gonenhila/codeswitching-lm).
``--system constant`` gives every sentence the same score (the tie rule makes it earn the random chooser's
expected accuracy); ``random`` picks an index at random (seeded). Writes a zip holding ``predictions.json``:
{set id: [log-probability of each sentence]} (or an index). Runs in seconds; standard library only,
Python 3.7 or newer.
"""
import argparse
import json
import math
import os
import random
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from spanglisheval_kit import DATA_DIR, KitError, read_sets, read_training  # noqa: E402

BOS, EOS = "<s>", "</s>"


class Bigram(object):
    """Add-one smoothed word bigram model (one unknown-word class); a sentence scores its log-probability.

    >>> model = Bigram([["a", "b"], ["a", "b"]])
    >>> model.score("a b") > model.score("b a")
    True
    """

    def __init__(self, sentences):
        self.pairs, self.contexts, vocabulary = {}, {}, set()
        for sentence in sentences:
            padded = [BOS] + list(sentence) + [EOS]
            vocabulary.update(padded)
            for first, second in zip(padded[:-1], padded[1:]):
                self.pairs[(first, second)] = self.pairs.get((first, second), 0) + 1
                self.contexts[first] = self.contexts.get(first, 0) + 1
        self.types = len(vocabulary) + 1

    def score(self, sentence):
        """ln p(sentence) (a string of whitespace-separated tokens)."""
        padded = [BOS] + sentence.split() + [EOS]
        return sum(math.log((self.pairs.get((a, b), 0) + 1.0) / (self.contexts.get(a, 0) + self.types))
                   for a, b in zip(padded[:-1], padded[1:]))


def predictions(sets, system, train=None, seed=12345):
    """{set id: answer} of ``system`` (bigram, constant or random) on ``sets``."""
    if system == "constant":
        return dict((s["id"], [0.0] * len(s["sentences"])) for s in sets)
    if system == "random":
        rng = random.Random(seed)
        return dict((s["id"], rng.randrange(len(s["sentences"]))) for s in sets)
    model = Bigram(read_training(train))
    return dict((s["id"], [round(model.score(x), 6) for x in s["sentences"]]) for s in sets)


def write_zip(path, answers):
    """A submission zip holding predictions.json."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("predictions.json", json.dumps(answers, sort_keys=True) + "\n")


def main(argv=None):
    """Command line; exit status 0 (written) or 2 (a file is missing)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--data", default=DATA_DIR, help="folder of <split>/sets.jsonl (default: the kit's data/)")
    parser.add_argument("--system", default="bigram", choices=("bigram", "constant", "random"))
    parser.add_argument("--train", help="tagged training sentences, one a line (needed by the bigram model)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.system == "bigram" and not args.train:
        parser.error("the bigram model needs --train FILE (e.g. bangor_raw/bangor_train_gold)")
    try:
        sets = read_sets(os.path.join(args.data, args.split, "sets.jsonl"))
        write_zip(args.out, predictions(sets, args.system, args.train))
    except KitError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    print("wrote %s (%s, %d sets of %s)" % (args.out, args.system, len(sets), args.split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
