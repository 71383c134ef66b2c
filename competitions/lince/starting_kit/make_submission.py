#!/usr/bin/env python3
"""Train a LinCE baseline on each dataset's train split and write a submission zip for a split.

    python3 make_submission.py --data LINCE_DIR --split dev|test [--system baseline|floor] --out sub.zip

For every dataset present in ``LINCE_DIR`` (``lid_spaeng/train.conll`` and ``<split>.conll``) it writes
``lid_spa_eng.txt``, ... : one label per token line and a blank line after each sentence, aligned with
the split file (SA: one label per line, one line per sentence). Datasets without a train or split file
are skipped (and said so). Standard library only, Python 3.7 or newer.
"""
import argparse
import os
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import baseline_models as models  # noqa: E402
import validate  # noqa: E402


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
            system = models.model(system_name, task, task.labels[pair]).train(validate.read_conll(train_path))
            sentences = validate.read_conll(split_path)
            archive.writestr(lince.SUBMISSION_FILE.format(task=task.key, lang=pair),
                             predictions_text(task, sentences, system))
            done.append((ident, "%d sentences in %.1f s" % (len(sentences), time.time() - start)))
    return done


def main(argv=None):
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--system", default="baseline", choices=("baseline", "floor"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--scorer", help="folder holding lince.py")
    args = parser.parse_args(argv)
    found = validate.find_program(args.scorer)
    if not found:
        sys.stderr.write("lince.py was not found; give --scorer DIR.\n")
        return 2
    lince = validate.load_program(found)[0]
    for ident, what in make(lince, args.data, args.split, args.system, args.out):
        print("%s: %s" % (ident, what))
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
