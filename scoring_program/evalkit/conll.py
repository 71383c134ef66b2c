"""A release of one file per dataset and split, and what the kit does with it: the reference files the scorer reads,
a baseline and a floor, and the starting kit's validator and submission maker, shared by every competition that
declares ``RELEASE_FILE`` instead of copies of its own (the skeleton's, ``python -m organiser new``).

A declaration that uses this module declares, besides ``TASKS``, ``RELEASE_FILE``: the path of one dataset's file of a
split in the release, e.g. ``"{split}/{task}_{lang}.conll"`` (splits ``train``, ``dev``, ``test``; the test file
has the input only). How such a file is read and written is its task kind's *release* (the kind's ``release``
part, :class:`Release`): by default the CoNLL-style files of this module (:data:`CONLL`: ``token<TAB>...<TAB>label``
lines, a blank line after each sentence) for the text kinds (``evalkit.declare.TextTask``; with ``SUBMISSION_FILE``
and ``REFERENCE_FILE``) and the JSON ``tagging`` kind (``evalkit.declare.JsonTask``; files ``<task>/<lang>.json``
holding ``[[[form, tag], ...], ...]``); the value kinds' ``key<TAB>value`` lines (``evalkit.values``); a kind of a
competition's own gives its own.
Standard library only, Python 3.7+.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict

from . import lines
from .lines import declares_names

SPLITS = ("train", "dev", "test")


def read_conll(path):
    """The sentences of a CoNLL-style file: lists of rows, each row the list of its tab-separated fields.

    A blank line ends a sentence; ``#`` comment lines are skipped; ``\\r`` and a UTF-8 BOM are dropped.
    """
    sentences, rows = [], []
    with open(path, encoding="utf-8-sig", newline="") as handle:
        for line in handle.read().split("\n"):
            line = line.rstrip("\r")
            if not line.strip():
                if rows:
                    sentences.append(rows)
                rows = []
            elif not line.startswith("#"):
                rows.append(line.split("\t"))
    if rows:
        sentences.append(rows)
    return sentences


def has_gold(sentences):
    """Whether every token row carries a label (a last field after the token)."""
    return all(len(row) >= 2 for rows in sentences for row in rows)


def conll_text(sentences, labels=None):
    """``token<TAB>label`` lines, a blank line after each sentence; ``labels`` (per sentence) replaces the
    sentences' own last field, and without labels at all the token alone is written (a test input)."""
    out = []
    for index, rows in enumerate(sentences):
        for position, row in enumerate(rows):
            if labels is not None:
                out.append("%s\t%s" % (row[0], labels[index][position]))
            elif len(row) >= 2:
                out.append("%s\t%s" % (row[0], row[-1]))
            else:
                out.append(row[0])
        out.append("")
    return "\n".join(out) + "\n"


def placeholder_labels(sentences, label):
    """``label`` for every token: the reference of a split without gold, for checking a submission's shape."""
    return [[label] * len(rows) for rows in sentences]


def label_set(task, lang):
    """The labels of ``task`` in ``lang``: per language (a text kind) or one set for every language (JSON)."""
    return task.labels[lang] if isinstance(task.labels, dict) else task.labels


def reference_name(decl, task, lang):
    """The reference file of (task, language): the declared ``REFERENCE_FILE``, else ``<task>/<lang>.json``."""
    if declares_names(decl):
        return lines.reference_name(decl, task, lang)
    return "%s/%s.json" % (task.folder, lang)


def submission_name(decl, task, lang):
    """The submission file of (task, language): the declared ``SUBMISSION_FILE``, else ``<task>/<lang>.json``."""
    if declares_names(decl):
        return lines.submission_name(decl, task, lang)
    return "%s/%s.json" % (task.folder, lang)


def json_pairs(sentences, labels=None):
    """``[[[form, tag], ...], ...]`` (UTF-8 JSON bytes) of CoNLL-style sentences (their own last field, or
    ``labels``)."""
    pairs = [[[row[0], labels[index][position] if labels is not None else row[-1]]
              for position, row in enumerate(rows)] for index, rows in enumerate(sentences)]
    return json.dumps(pairs, ensure_ascii=False).encode("utf-8")


def reference_bytes(decl, task, sentences, labels=None):
    """The reference file of ``sentences`` (their gold, or ``labels``) in the task's form."""
    if declares_names(decl):
        return conll_text(sentences, labels).encode("utf-8")
    return json_pairs(sentences, labels)


def release_path(decl, data, split, task, lang):
    """The path of one dataset's file of ``split`` in the release folder ``data`` (the declared ``RELEASE_FILE``)."""
    return os.path.join(data, decl.RELEASE_FILE.format(split=split, task=task.key, lang=lang))


def datasets(decl):
    """Every declared (task, language) pair, in declared order."""
    return [(task, lang) for task in decl.TASKS for lang in task.languages]


# --------------------------------------------------------------------------- releases

class Release(object):
    """How one task kind's release files are read and written, for the reference builder, the baselines and the
    starting kit (a kind's ``release`` part; :func:`release_of`). A *record* is one item of a release file (a
    sentence, a key and its value); a *labels* list holds one prediction per record, in the form
    :meth:`submission_bytes` writes."""

    #: What a record is, in the validator's lines ("sentences", "items"), and what its input is (the builder's
    #: refusal of a test gold whose input is not the public test file's).
    unit = "sentences"
    input_name = "sentences or tokens"

    def read(self, path):
        """The records of the release file at ``path``."""
        raise NotImplementedError

    def has_gold(self, records):
        """Whether every record carries its gold."""
        raise NotImplementedError

    def text(self, records, gold=True):
        """The release file of ``records`` (text): with their gold, or (``gold=False``) their input alone (the test
        input released when the test phase opens)."""
        raise NotImplementedError

    def same_input(self, public, gold):
        """Whether the records ``gold`` (the test gold) have exactly the input of ``public`` (the test input)."""
        raise NotImplementedError

    def reference_bytes(self, decl, task, records, labels=None):
        """The reference file of ``records`` (their gold, or ``labels``) in the task's form."""
        raise NotImplementedError

    def placeholder(self, task, lang, records):
        """Labels that stand for a missing gold (the validator's reference of a split without gold, whose scores
        mean nothing: it checks the submission's shape)."""
        raise NotImplementedError

    def submission_bytes(self, decl, task, records, labels):
        """The submission file that predicts ``labels`` for ``records``."""
        raise NotImplementedError

    def systems(self, task, lang, train):
        """``{"baseline": predict, "floor": predict}``, each ``predict(records)`` -> labels: the baseline learnt
        from the ``train`` records (None: no training file), the floor trivial."""
        raise NotImplementedError

    def summary(self, entry):
        """What the validator says of one scored file's items (after its name and status)."""
        return "%s sentences, %s aligned" % (entry["sentences"], entry["scored_sentences"])


class ConllRelease(Release):
    """CoNLL-style release files (:func:`read_conll`): a record is a sentence, the list of its rows' fields."""

    def read(self, path):
        return read_conll(path)

    def has_gold(self, records):
        return has_gold(records)

    def text(self, records, gold=True):
        return conll_text(records if gold else [[row[:1] for row in rows] for rows in records])

    def same_input(self, public, gold):
        return [[row[0] for row in rows] for rows in public] == [[row[0] for row in rows] for rows in gold]

    def reference_bytes(self, decl, task, records, labels=None):
        return reference_bytes(decl, task, records, labels)

    def placeholder(self, task, lang, records):
        return placeholder_labels(records, label_set(task, lang)[0])

    def submission_bytes(self, decl, task, records, labels):
        return submission_bytes(decl, task, records, labels)

    def systems(self, task, lang, train):
        baseline = majority_tagger(train) if train is not None else None
        floor = floor_tagger(task, lang)
        return {"baseline": lambda records: [baseline(rows) for rows in records],
                "floor": lambda records: [floor(rows) for rows in records]}


#: The release of the CoNLL-style kinds, and of any kind that declares none.
CONLL = ConllRelease()


def release_of(decl, task):
    """The release of ``task``'s kind (its ``release`` part), :data:`CONLL` when it declares none; the kinds the
    declaration ``decl`` brings in its folder are registered first (:func:`evalkit.kindspec.use`)."""
    from . import scoring
    from .kindspec import use
    use(decl)
    return getattr(scoring.KINDS.get(task.kind), "release", None) or CONLL


# --------------------------------------------------------------------------- baselines

def majority_tagger(train):
    """A function from a sentence's rows to labels: each token's most frequent training label, else the most
    frequent label overall (a token-level baseline that learns something)."""
    by_token, overall = defaultdict(Counter), Counter()
    for rows in train:
        for row in rows:
            by_token[row[0]][row[-1]] += 1
            overall[row[-1]] += 1
    default = overall.most_common(1)[0][0] if overall else "O"
    best = dict((token, counts.most_common(1)[0][0]) for token, counts in by_token.items())
    return lambda rows: [best.get(row[0], default) for row in rows]


def floor_tagger(task, lang):
    """The floor: the first declared label of the language for every token."""
    first = label_set(task, lang)[0]
    return lambda rows: [first] * len(rows)


def submission_bytes(decl, task, sentences, labels):
    """A submission file: per token its label (``token<TAB>label`` when the task declares ``token_column``), a
    blank line after each sentence; a sentence-level task: one label per line; a JSON task: ``[[form, tag], ...]``
    per sentence."""
    if not declares_names(decl):
        return json_pairs(sentences, labels)
    if task.kind == "sentence_labels":
        return "".join(sent[0] + "\n" for sent in labels).encode("utf-8")
    if task.token_column:
        return conll_text(sentences, labels).encode("utf-8")
    return "".join("".join(label + "\n" for label in sent) + "\n" for sent in labels).encode("utf-8")


def make_submission(decl, data, split, system, out_zip):
    """Write ``out_zip``: system ``system`` (``baseline``: learnt from train, e.g. the CoNLL kinds' majority labels;
    ``floor``) of each task's release (:func:`release_of`) for every dataset with a ``split`` file in ``data``;
    return ``[(dataset file, what was done)]``."""
    done = []
    directory = os.path.dirname(os.path.abspath(out_zip))
    if not os.path.isdir(directory):
        os.makedirs(directory)
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as archive:
        for task, lang in datasets(decl):
            name = submission_name(decl, task, lang)
            source = release_path(decl, data, split, task, lang)
            train = release_path(decl, data, "train", task, lang)
            if not os.path.isfile(source) or (system == "baseline" and not os.path.isfile(train)):
                done.append((name, "skipped (no %s)" % (source if not os.path.isfile(source) else train)))
                continue
            release = release_of(decl, task)
            records = release.read(source)
            tagger = release.systems(task, lang, release.read(train) if system == "baseline" else None)[system]
            archive.writestr(name, release.submission_bytes(decl, task, records, tagger(records)))
            done.append((name, "%d %s" % (len(records), release.unit)))
    return done


# --------------------------------------------------------------------------- the starting kit's validator

def write_split_reference(decl, data, split, out):
    """Write, for every dataset with a ``split`` file in ``data``, its reference under ``out`` (the gold, or the
    first declared label as a placeholder when the file has none); return (written, with gold, absent) names."""
    written, gold, absent = [], [], []
    for task, lang in datasets(decl):
        source = release_path(decl, data, split, task, lang)
        name = reference_name(decl, task, lang)
        if not os.path.isfile(source):
            absent.append(name)
            continue
        release = release_of(decl, task)
        records = release.read(source)
        with_gold = release.has_gold(records)
        labels = None if with_gold else release.placeholder(task, lang, records)
        target = os.path.join(out, name)
        if not os.path.isdir(os.path.dirname(target)):
            os.makedirs(os.path.dirname(target))
        with open(target, "wb") as handle:
            handle.write(release.reference_bytes(decl, task, records, labels))
        written.append(name)
        if with_gold:
            gold.append(name)
    return written, gold, absent


def validate(decl, submission, data, split, write=print, kit=None):
    """Check ``submission`` against the ``split`` files of ``data`` with the scoring program's own code; print its
    messages (and the scores of the datasets with gold) and the summary line of :func:`evalkit.verdict.conclude`;
    return its exit status (0 nothing known to cost score, 1 an error or a file known to score 0) or 2 (no data).
    Where a split's file holds the gold (dev), a file at or below the floor of ``kit``'s development reference is
    said (:func:`evalkit.floor.judge`), and a file that scores 0 counts as one that will."""
    from . import floor, scoring, verdict
    from .layout import NothingToScore
    tmp = tempfile.mkdtemp(prefix="kit-validate-")
    try:
        written, gold, absent = write_split_reference(decl, data, split, tmp)
        if not written:
            write("No %s file of any dataset under %s (expected e.g. %s)." % (
                split, data, release_path(decl, data, split, decl.TASKS[0], decl.TASKS[0].languages[0])))
            return 2
        try:
            result = scoring.evaluate(decl, tmp, submission)
        except NothingToScore as err:
            write(getattr(decl, "NOTHING_HELP", "%s") % err)
            return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    def with_gold(entry):
        return reference_name(decl, decl.TASKS_BY_FOLDER[entry["task"]], entry["lang"]) in gold
    result = floor.judge(result, decl, scoring.KINDS, kit, with_gold)
    for message in result["messages"]:
        write("%s: %s%s: %s" % (message["severity"], message["file"],
                                ", " + message["where"] if message["where"] else "", message["text"]))
    for entry in result["entries"]:
        task = decl.TASKS_BY_FOLDER[entry["task"]]
        name = reference_name(decl, task, entry["lang"])
        score = " score %.4f" % entry["score"] if name in gold else ""
        write("%s %s: %s%s" % (entry["file"], entry["status"], release_of(decl, task).summary(entry), score))
    if absent:
        write("not checked (no %s file in the data): %s" % (split, ", ".join(absent)))
    status, summary = verdict.conclude(result)
    write(summary)
    return status


def validate_main(decl, argv=None, kit=None):
    """The starting kit's ``validate.py``: ``SUBMISSION --data DIR [--split test|dev]``; its exit status
    (:func:`validate`). ``kit``: the starting kit's folder, whose development reference holds the floor file (default:
    the folder of the running script)."""
    parser = argparse.ArgumentParser(description="Check a submission against the public files of a split.")
    parser.add_argument("submission", help="the submission zip (or a folder)")
    parser.add_argument("--data", required=True, help="the release folder (%s)" % decl.RELEASE_FILE)
    parser.add_argument("--split", default="test", choices=("test", "dev"))
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    kit = kit or os.path.dirname(os.path.abspath(sys.argv[0]))
    return validate(decl, args.submission, args.data, args.split, kit=kit)


def make_submission_main(decl, argv=None):
    """The starting kit's ``make_submission.py``: ``--data DIR --split dev|test [--system baseline|floor] --out
    ZIP``; its exit status."""
    parser = argparse.ArgumentParser(description="Write a baseline submission zip for a split.")
    parser.add_argument("--data", required=True)
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--system", default="baseline", choices=("baseline", "floor"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    for name, what in make_submission(decl, args.data, args.split, args.system, args.out):
        print("%s: %s" % (name, what))
    print("wrote %s" % args.out)
    return 0
