"""Baselines on the rebuilt sets: the starting kit's systems, a unigram model, a Kneser-Ney n-gram model.

The starting kit's ``make_submission.py`` systems, run by its own code: a random chooser (seeded), a constant
scorer (every sentence the same score: the tie rule makes it earn exactly the random chooser's expected
accuracy) and its add-one word-bigram model. One more row for reference: the medoid of each set (the sentence
closest to all the others, no language model: how much the sets' construction alone gives away); the text
under the table says whether it does better than the random chooser on these sets.

``python -m organiser baselines --competition spanglisheval --data ../shared/spanglisheval --reference REF --out DIR``
(``make COMPETITION=spanglisheval``): writes ``DIR/submissions/spanglisheval-dev-
<name>.zip`` (one ``predictions.json`` each; the Kneser-Ney model's is also ``spanglisheval-dev-baseline.zip``,
and ``spanglisheval-test-baseline.zip`` when ``REF/../test`` holds a reference, for ``make check``), scores them
with the scoring program itself and writes ``DIR/baselines/table.md`` and ``DIR/baselines/table.json``.
``python -m competitions.spanglisheval.baselines --data ../shared/spanglisheval --sets DIR [--split dev]``
does the same on a folder written by ``build`` (into ``DIR/baselines/<split>/``).

The models are trained on the Bangor training sentences (``bangor_raw/bangor_train_gold``), normalised
exactly like the sentences of the sets (lower-cased ``word__lang`` tokens, inner punctuation removed, final
punctuation kept), and score every sentence of a set by its log-probability. The random chooser's expected
accuracy is the mean of 1/set size over the sets; its seeded draw is scored too. Writes
``DIR/baselines/<split>/<name>.json`` (submissions) and ``DIR/baselines/<split>/baselines.md``.
"""
import argparse
import importlib.util
import io
import json
import math
import os
import sys
import zipfile
from collections import OrderedDict

if __name__ == "__main__" and __package__ in (None, ""):   # run as a script (make): the repository on sys.path
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import competitions.spanglisheval  # noqa: F401,E402  (puts the scoring program on sys.path)
from competitions.spanglisheval import spanglisheval as declaration  # noqa: E402
from competitions.spanglisheval.alternatives import Gold  # noqa: E402
from evalkit import choice, scoring  # noqa: E402
from evalkit.messages import DataError  # noqa: E402

BOS, EOS = "<s>", "</s>"
DISCOUNT = 0.75
ORDER = 3
# The paper's Table 3 accuracies as its text states them (dev/test not said for each); LSTM models trained
# on the Bangor training data (CS-ONLY), plus monolingual data (FINE-TUNED), and discriminative training.
PAPER_TABLE3 = [("CS-ONLY-LM", 57.9), ("FINE-TUNED-LM", 65.4), ("CS-ONLY-DISCRIMINATIVE", 70.5),
                ("FINE-TUNED-DISCRIMINATIVE", 75.5)]


def tokens(sentence):
    """The tokens of a normalised sentence."""
    return sentence.split()


def training_sentences(data):
    """Normalised training sentences (token lists) of the Bangor training split (empty ones dropped)."""
    path = os.path.join(data, "bangor_raw", "bangor_train_gold")
    if not os.path.isfile(path):
        raise DataError(path, "", "missing training file (expected bangor_raw/bangor_train_gold)")
    with io.open(path, encoding="utf-8") as handle:
        sentences = [tokens(Gold(line).text()) for line in handle]
    return [s for s in sentences if s]


class Unigram(object):
    """Add-one unigram model with one unknown-word class; a sentence scores the sum of its log-probabilities.

    >>> model = Unigram([["a", "b"], ["a"]])
    >>> round(math.exp(model.logprob("a")), 3), round(math.exp(model.logprob("zzz")), 3)
    (0.5, 0.167)
    """

    def __init__(self, sentences):
        self.counts = {}
        for sentence in sentences:
            for token in sentence:
                self.counts[token] = self.counts.get(token, 0) + 1
        self.total = sum(self.counts.values())
        self.types = len(self.counts) + 1

    def logprob(self, token):
        """ln p(token), add-one smoothed over the known types plus the unknown word."""
        return math.log((self.counts.get(token, 0) + 1.0) / (self.total + self.types))

    def score(self, sentence):
        """ln p of a sentence (a string)."""
        return sum(self.logprob(token) for token in tokens(sentence))


class KneserNey(object):
    """Interpolated Kneser-Ney n-gram model (absolute discount 0.75), interpolated down to a uniform
    distribution over the vocabulary plus the unknown word. Lower orders use continuation counts, except
    for n-grams that begin with the sentence start (raw counts, as they have no left context).

    >>> model = KneserNey([["a", "b"], ["a", "b"], ["b", "a"]], order=2)
    >>> total = sum(math.exp(model.logprob(w, ("a",))) for w in ("a", "b", EOS, "<unk>"))
    >>> round(total, 6)
    1.0
    >>> model.logprob("b", ("a",)) > model.logprob("a", ("a",))
    True
    """

    def __init__(self, sentences, order=ORDER, discount=DISCOUNT):
        self.order, self.discount = order, discount
        raw = [dict() for _ in range(order + 1)]
        for sentence in sentences:
            padded = [BOS] * (order - 1) + list(sentence) + [EOS]
            for i in range(order - 1, len(padded)):
                for k in range(1, order + 1):
                    gram = tuple(padded[i - k + 1:i + 1])
                    raw[k][gram] = raw[k].get(gram, 0) + 1
        self.counts = [dict() for _ in range(order + 1)]
        self.counts[order] = raw[order]
        for k in range(1, order):
            left = {}
            for gram in raw[k + 1]:
                left[gram[1:]] = left.get(gram[1:], 0) + 1
            for gram, count in raw[k].items():
                self.counts[k][gram] = count if gram[0] == BOS else left.get(gram, count)
        self.context_total = [dict() for _ in range(order + 1)]
        self.context_types = [dict() for _ in range(order + 1)]
        for k in range(1, order + 1):
            for gram, count in self.counts[k].items():
                context = gram[:-1]
                self.context_total[k][context] = self.context_total[k].get(context, 0) + count
                self.context_types[k][context] = self.context_types[k].get(context, 0) + 1
        self.vocabulary = set(gram[0] for gram in self.counts[1])
        self.uniform = 1.0 / (len(self.vocabulary) + 1)

    def prob(self, token, context):
        """p(token | context), ``context`` the preceding tokens (only the last order-1 are used)."""
        context = tuple(context)[-(self.order - 1):] if self.order > 1 else ()
        prob = self.uniform
        for k in range(1, len(context) + 2):
            history = context[len(context) - (k - 1):] if k > 1 else ()
            total = self.context_total[k].get(history)
            if not total:
                continue
            count = self.counts[k].get(history + (token,), 0)
            backoff = self.discount * self.context_types[k][history] / total
            prob = max(count - self.discount, 0) / total + backoff * prob
        return prob

    def logprob(self, token, context):
        """ln p(token | context)."""
        return math.log(self.prob(token, context))

    def score(self, sentence):
        """ln p of a sentence (a string), sentence end included."""
        padded = [BOS] * (self.order - 1) + tokens(sentence) + [EOS]
        return sum(self.logprob(padded[i], padded[i - self.order + 1:i]) for i in range(self.order - 1, len(padded)))


def medoid_scores(sentences):
    """Minus each sentence's total word edit distance to the others of its set: a guess without any
    language model (the gold is the sentence every alternative was derived from).

    >>> medoid_scores(["a b c", "a b d", "a x c"])
    [-2, -3, -3]
    """
    split = [s.split() for s in sentences]
    return [-sum(choice.edit_distance(a, b) for b in split) for a in split]


def read_reference(sets_dir, split):
    """The reference sets of a split built by ``build``."""
    path = os.path.join(sets_dir, split, "reference.jsonl")
    if not os.path.isfile(path):
        raise DataError(path, "", "missing reference (run competitions.spanglisheval.build first)")
    with io.open(path, encoding="utf-8") as handle:
        return choice.parse_reference(handle, path)


def kneser_ney_submission(reference, model):
    """The n-gram model's submission: every sentence's log-probability."""
    return {s["id"]: [round(model.score(x), 6) for x in s["sentences"]] for s in reference}


#: The starting kit's submission maker (its systems are rows of the table, run by its own code).
KIT_MAKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "starting_kit", "make_submission.py")
#: The rows of the kit's systems: ``(row name, --system)``.
KIT_SYSTEMS = (("random", "random"), ("constant", "constant"), ("bigram (starting kit)", "bigram"))
#: The row of the medoid chooser.
MEDOID = "medoid (no language model)"


def kit_maker():
    """The starting kit's ``make_submission`` module, loaded from its file under its own name (the top-level
    kit has a ``make_submission`` too); the kit's folder is taken off ``sys.path`` again."""
    before = list(sys.path)
    spec = importlib.util.spec_from_file_location("spanglisheval_make_submission", KIT_MAKER)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = before
    return module


def submissions(reference, data, models=None):
    """{name: submission object} of the baselines on ``reference`` (``models``: a dict that receives the
    trained models, or gives them when it already holds them)."""
    models = {} if models is None else models
    if not models:
        train = training_sentences(data)
        models.update(unigram=Unigram(train), kneser_ney=KneserNey(train))
    unigram, kneser_ney = models["unigram"], models["kneser_ney"]
    maker, train_file = kit_maker(), os.path.join(data, "bangor_raw", "bangor_train_gold")
    rows = OrderedDict((name, maker.predictions(reference, system, train_file)) for name, system in KIT_SYSTEMS)
    rows[MEDOID] = {s["id"]: medoid_scores(s["sentences"]) for s in reference}
    rows["unigram"] = {s["id"]: [round(unigram.score(x), 6) for x in s["sentences"]] for s in reference}
    rows["kneser_ney_%d" % ORDER] = kneser_ney_submission(reference, kneser_ney)
    return rows


def report(reference, scored):
    """Markdown table of the baselines' scores beside the paper's Table 3 accuracies."""
    expected = choice.accuracy([1.0 / len(s["sentences"]) for s in reference])
    lines = ["| baseline | accuracy | on code-switched golds | on monolingual golds | WER |", "|---|---|---|---|---|"]
    for name, scores in scored.items():
        lines.append("| %s | %.4f | %.4f | %.4f | %.4f |" % (
            name, scores["accuracy"], scores["accuracy_cs"], scores["accuracy_mono"], scores["wer"]))
    lines += ["", "Accuracies are fractions of the sets (0.5 = half of them), as the leaderboard shows them. Random "
              "chooser's expected accuracy (mean of 1/set size over %d sets): %.4f. %s" % (
                  len(reference), expected, medoid_sentence(scored.get(MEDOID), expected)),
        "", "The rows random, constant and bigram (starting kit) are the starting kit's `make_submission.py --system "
        "random|constant|bigram` (the bigram model trained on `bangor_raw/bangor_train_gold`), run by the build.", "",
        "The paper's Table 3 (its own sets, LSTM models; accuracies as stated in its text, as fractions): " + ", ".join(
            "%s %.3f" % (name, value / 100.0) for name, value in PAPER_TABLE3) +
        ". Compare ranges, not digits: the sets differ.", ""]
    return "\n".join(lines)


def medoid_sentence(scores, expected):
    """What the medoid row says about the sets' construction, worded from its numbers (empty without the row).

    >>> medoid_sentence({"accuracy": 0.127}, 0.032)[:62]
    'The medoid chooser (no language model) scores 0.1270, above th'
    >>> medoid_sentence({"accuracy": 0.0}, 0.032)[:62]
    'The medoid chooser (no language model) scores 0.0000, below th'
    """
    if not scores:
        return ""
    accuracy = scores["accuracy"]
    if round(accuracy, 3) == round(expected, 3):
        how, meaning = "about", "the construction of these sets gives nothing away to it"
    elif accuracy > expected:
        how, meaning = "above", ("on these sets the construction alone gives part of the answer away: a chooser "
                                 "that uses it exploits the sets, not language modelling")
    else:
        how, meaning = "below", "on these sets the construction does not give the answer away to it"
    return ("The medoid chooser (no language model) scores %.4f, %s the random chooser's expected accuracy: %s."
            % (accuracy, how, meaning))


def run(data, sets_dir, split):
    """Write the baselines' submissions and report for one split; return {name: scores}."""
    reference = read_reference(sets_dir, split)
    out = os.path.join(sets_dir, "baselines", split)
    if not os.path.isdir(out):
        os.makedirs(out)
    scored = {}
    for name, submission in submissions(reference, data).items():
        filename = name.split(" ")[0] + ".json"
        with io.open(os.path.join(out, filename), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(json.dumps(submission, sort_keys=True) + "\n")
        answers, messages = choice.parse_submission(submission, reference, filename)
        errors = [message for message in messages if message.severity == "error"]   # the constant's ties: a warning
        if errors:
            raise DataError(filename, "", "baseline submission invalid: %s" % errors[0])
        scored[name] = choice.evaluate(reference, answers)
    with io.open(os.path.join(out, "baselines.md"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(report(reference, scored))
    return scored


#: The baseline ``make check`` submits to each phase (the n-gram model).
CHECKED = "kneser_ney_%d" % ORDER


def read_phase_reference(reference_dir, redacted=False):
    """The reference sets of one phase folder (``reference.jsonl``); ``redacted``: sets whose gold the test phase's
    split redacted (docs/test_feedback.md) are read too (only their candidates are used)."""
    path = os.path.join(reference_dir, declaration.REFERENCE_FILE)
    if not os.path.isfile(path):
        raise DataError(path, "", "missing reference (run competitions/spanglisheval/reference.py first)")
    with io.open(path, encoding="utf-8") as handle:
        return choice.parse_reference(handle, path, redacted)


def write_zip(path, submission):
    """A submission zip holding ``predictions.json``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(declaration.SUBMISSION_FILE, json.dumps(submission, sort_keys=True) + "\n")


def competition_outputs(data, reference_dir, out):
    """``make competition``'s baselines: submissions zips, scored by the scoring program; return {name: scores}."""
    reference = read_phase_reference(reference_dir)
    subs = os.path.join(out, "submissions")
    if not os.path.isdir(subs):
        os.makedirs(subs)
    scored, models = {}, {}
    for name, submission in submissions(reference, data, models=models).items():
        path = os.path.join(subs, "spanglisheval-dev-%s.zip" % name.split(" ")[0])
        write_zip(path, submission)
        if name == CHECKED:
            write_zip(os.path.join(subs, "spanglisheval-dev-baseline.zip"), submission)
        report = scoring.evaluate(declaration, reference_dir, path)
        errors = [m for m in report["messages"] if m["severity"] == "error"]   # the constant chooser's ties: a warning
        if errors:
            raise DataError(path, "", "baseline submission not scored cleanly: %s" % errors[0]["text"])
        task, lang = declaration.TASKS[0], declaration.TASKS[0].languages[0]
        entry = report["entries"][0]
        scored[name] = dict(entry["components"], signature=report["signature"], task=task.key, lang=lang)
    test_dir = os.path.join(os.path.dirname(os.path.abspath(reference_dir)), "test")
    if os.path.isfile(os.path.join(test_dir, declaration.REFERENCE_FILE)):
        test = read_phase_reference(test_dir, redacted=True)
        write_zip(os.path.join(subs, "spanglisheval-test-baseline.zip"), kneser_ney_submission(test, models["kneser_ney"]))
    os.makedirs(os.path.join(out, "baselines"), exist_ok=True)
    with io.open(os.path.join(out, "baselines", "table.md"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(report_md(reference, scored))
    with io.open(os.path.join(out, "baselines", "table.json"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps(scored, indent=1, sort_keys=True) + "\n")
    return scored


def report_md(reference, scored):
    """The baselines table of the starting kit's README (:func:`report`, the dev phase named)."""
    return "Baselines on the dev phase (%d sets; the scoring program's numbers):\n\n%s" % (
        len(reference), report(reference, scored))


def main(argv=None):
    """Command line: ``--reference REF --out DIR`` (make), or ``--sets DIR [--split dev]`` (a build folder)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--reference", help="the reference folder (its dev/reference.jsonl scores the rows)")
    parser.add_argument("--out", help="output folder (with --reference)")
    parser.add_argument("--sets", help="output folder of competitions.spanglisheval.build")
    parser.add_argument("--split", default="dev")
    args = parser.parse_args(argv)
    if not ((args.reference and args.out) or args.sets):
        parser.error("give --reference DIR --out DIR, or --sets DIR")
    try:
        if args.sets:
            run(args.data, args.sets, args.split)
            written = os.path.join(args.sets, "baselines", args.split, "baselines.md")
        else:
            competition_outputs(args.data, os.path.join(args.reference, "dev"), args.out)
            written = os.path.join(args.out, "baselines", "table.md")
    except DataError as error:
        sys.stderr.write("error: %s\n" % error)
        return 2
    with io.open(written, encoding="utf-8") as handle:
        print(handle.read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
