#!/usr/bin/env python3
"""Train the ST2024 baseline on the train split and write a submission zip for a split.

    python3 make_submission.py --data RELEASE_DIR --split valid --out baseline-valid.zip

The systems are those of the published baseline table (``baseline_models.py``: most frequent tag
or lemma of a form with suffix back-off, context n-grams for the gaps); ``--system floor`` gives
the trivial floors instead. Only the ``train`` split is used for training (legal in both
subtasks). A language without a train file is submitted without predictions (the right shape:
the file validates, and scores 0). Standard library only, Python 3.7 or newer; it reads the
competition's tasks and languages from the scoring program next to it.

Use it as the starting point of your own system: replace the model of a task, keep the rest.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # also under python3 -I
import baseline_models as models  # noqa: E402
import validate  # noqa: E402


def conllu_rows(path):
    """The sentences of a CoNLL-U file as lists of :class:`baseline_models.Row` (multiword ranges
    with lemma and UPOS ``_`` and no features, empty nodes dropped)."""
    sentences = []
    for sentence in validate.read_conllu(path):
        rows = []
        for columns in sentence:
            columns = columns + ["_"] * (10 - len(columns))
            if "-" in columns[0]:
                rows.append(models.Row(columns[1], "_", "_", (), True))
            else:
                rows.append(models.Row(columns[1], columns[2], columns[3], models.parse_feats(columns[5]), False))
        sentences.append(rows)
    return sentences


def read_kind(path, kind):
    """The content of a release file: CoNLL-U rows or TSV ``(masked, src)`` rows."""
    return conllu_rows(path) if kind == "morphology" else validate.read_tsv(path)


def predict_pair(competition, data_dir, split, task, lang, system, cache):
    """The submission file of one (task, language), or ``None`` when its input is absent.

    ``cache`` keeps the current language's files (the three tagging tasks share them).
    """
    kind = validate.input_kind(task)
    aliases = getattr(competition, "LANGUAGE_ALIASES", {})
    source = validate.find_input(data_dir, kind, split, lang, aliases)
    if source is None:
        return None
    train = validate.find_input(data_dir, kind, "train", lang, aliases)
    if cache.get("lang") != lang:
        cache.clear()
        cache["lang"] = lang
    for path in (source, train):
        if path and path not in cache:
            cache[path] = read_kind(path, kind)
    training = None
    if train:
        training = cache[train] if kind == "morphology" else models.fill_mask_training(task, cache[train])
    systems = models.train_systems(task, training)
    inputs = cache[source] if kind == "morphology" else [masked for masked, _ in cache[source]]
    if systems is None and system == "floor":   # a floor needs no model: read from the input alone
        return models.predict(task, models.untrained_floor(task, inputs), inputs)
    return models.predict(task, systems[system] if systems else None, inputs)


def pair_line(competition, data_dir, task, lang, count, system="baseline"):
    """What was written for one (task, language): the sentence count, and when no model could be
    trained (no train file), that and what the file will score (the floor: what it was read from)."""
    sentences = "%d sentence%s" % (count, "" if count == 1 else "s")
    kind = validate.input_kind(task)
    if validate.find_input(data_dir, kind, "train", lang, getattr(competition, "LANGUAGE_ALIASES", {})):
        return sentences
    expected = os.path.join(kind, "train", "%s_train.%s" % (lang, "conllu" if kind == "morphology" else "tsv"))
    if system == "floor":
        return "%s, no train file (%s): the floor is read from the input alone (%s)" % (sentences, expected, {
            "morph": "the form and %s, no feature" % models.UNTRAINED_TAG,
            "fill_mask": "the three most frequent units of the input's text for every gap",
            "candidates": "the form as its lemma"}.get(task.kind, "%s for every row" % models.UNTRAINED_TAG))
    if task.kind == "morph":
        outcome = ("every token is written without features: only the tokens whose reference has no feature "
                   "score (1 each), the others score 0")
    elif task.kind == "fill_mask":
        outcome = "every gap gets an empty candidate list: this file will score 0"
    else:
        outcome = "every label is empty: this file will score 0"
    return "%s, NO MODEL: no train file (%s), so %s" % (sentences, expected, outcome)


EXIT_HELP = """exit status:
  0  the submission zip was written (a line per file says what it holds)
  2  nothing was written: no input of the split under --data, an unknown subtask, or no scoring program"""


def parse_args(argv):
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="make_submission.py", description=__doc__.split("\n\n")[0], epilog=EXIT_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="the release folder (morphology/, fill_mask_word/, ...)")
    parser.add_argument("--split", choices=validate.SPLITS, default="valid", help="the split to predict")
    parser.add_argument("--out", required=True, help="the submission zip to write")
    parser.add_argument("--subtask", default="unconstrained", help="unconstrained (default) or constrained")
    parser.add_argument("--system", choices=models.SYSTEMS, default="baseline", help="baseline (default) or floor")
    parser.add_argument("--scorer", help="the scoring program folder (found automatically in the starting kit)")
    return parser.parse_args(argv)


def main(argv=None):
    """Train, predict and zip; return the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    folder = validate.find_scorer(args.scorer)
    if folder is None:
        sys.stderr.write("the scoring program was not found next to this file; give --scorer DIR\n")
        return 2
    competition = validate.load_scorer(folder)[0]
    if args.subtask not in competition.SUBTASKS:
        sys.stderr.write("unknown subtask %r\n" % args.subtask)
        return 2
    start, members, cache = time.time(), {}, {}
    for task, lang in validate.expected_pairs(competition, args.subtask):
        value = predict_pair(competition, args.data, args.split, task, lang, args.system, cache)
        if value is None:
            print("%s/%s: no %s input, skipped" % (task.folder, lang, args.split))
            continue
        members["%s/%s.json" % (task.folder, lang)] = models.to_json(value).encode("utf-8")
        print("%s/%s: %s" % (task.folder, lang, pair_line(competition, args.data, task, lang, len(value), args.system)))
    if not members:
        sys.stderr.write("no input of the %s split was found under %s\n" % (args.split, args.data))
        return 2
    models.write_zip(args.out, members)
    print("wrote %s (%d files) in %.1f s" % (args.out, len(members), time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
