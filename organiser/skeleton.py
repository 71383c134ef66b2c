"""``python -m organiser new <id> --kind KIND [--title T] [--task KEY] [--languages code=Name,...] [--types A,B]
[--labels A,B]``: write ``competitions/<id>/``, a competition that builds (``make COMPETITION=<id>``), checks (``make
check COMPETITION=<id>``) and passes its own tests (``competitions/<id>/tests/``) at once, on a synthetic sample it
generates. The organiser starts from green and replaces the parts (docs/new_competition.md says which): the
declaration, the sample (or ``DATA=<release>``), the pages, the schedule, and with ``--kind custom`` the kind itself.

What it writes holds no copy of the machinery: ``evaluate.py`` calls ``evalkit.cli.main_beside``, the task class
is one of ``evalkit.declare``, the builders call ``organiser.line_builders`` and the starting kit's scripts
``evalkit.conll``, which read and write the release through the task kind's ``release`` (CoNLL-style files by
default, ``key<TAB>value`` lines for the value kinds).

Kinds: ``tagging``, one label per token (``evalkit.lines`` ``token_labels``), BIO tags ranked by entity-span F1 with
token accuracy beside it, per language, submitted in the CoNLL form ``token<TAB>tag``; ``json``, the same tags in the
JSON kind ``tagging`` (``evalkit.kinds``: ``<task>/<lang>.json`` holding ``[[[form, tag], ...], ...]``, per-sentence
accuracy and macro-F1); ``item_labels``, one label per word (``evalkit.values``: ``word<TAB>label`` lines, accuracy
and macro-F1 over the words); ``item_values``, one graded value per word (``word<TAB>value`` lines, Spearman's and
Pearson's correlation over the words); ``custom``, a kind of the competition's own written into its folder
(``<id>_kind.py``: ``word<TAB>value`` lines scored by Spearman's rho, every part of a kind in one module, passing
the conformance check of ``make check``), for the organiser to edit.
"""
import argparse
import datetime
import html
import json
import importlib.util
import keyword
import os
import re
import subprocess
import sys
import textwrap

from organiser import ROOT, declarations

#: What a competition id must look like: it names a Python module, score keys, bundles and folders.
ID_PATTERN = re.compile(r"^[a-z][a-z0-9]{1,19}$")
KINDS = ("tagging", "json", "item_labels", "item_values", "custom")
#: The kinds whose items are words with one value each (their sample, pages and kit speak of words).
VALUE_KINDS = ("item_labels", "item_values", "custom")


class SkeletonError(Exception):
    """The skeleton cannot be written (an id that exists or is not a valid name, a bad option)."""


def refusal(cid):
    """Why ``cid`` cannot be a new competition's id (None when it can)."""
    if not ID_PATTERN.match(cid or ""):
        return ("%r is not a valid competition id: 2 to 20 lower-case ASCII letters and digits, starting with a "
                "letter (it names a Python module, the score keys and the bundles)" % cid)
    if keyword.iskeyword(cid):
        return "%r is a Python keyword: choose another id" % cid
    if cid in declarations.hosted_ids() or os.path.exists(os.path.join(declarations.COMPETITIONS, cid)):
        return "competitions/%s already exists: choose another id (or remove the folder first)" % cid
    if os.path.exists(os.path.join(ROOT, "tests", "test_%s.py" % cid)):
        return ("tests/test_%s.py exists: the competition's own tests (competitions/%s/tests/test_%s.py) need a module "
                "name of their own; choose another id" % (cid, cid, cid))
    if importlib.util.find_spec(cid) is not None:
        return ("%r is already the name of a Python module (%s): the declaration %s.py would shadow it; choose "
                "another id" % (cid, getattr(importlib.util.find_spec(cid), "origin", None) or "built in", cid))
    return None


def parse_languages(text):
    """``"grc=Ancient Greek,lat=Latin"`` -> ``[("grc", "Ancient Greek"), ("lat", "Latin")]``."""
    found = []
    for part in text.split(","):
        code, _, name = part.partition("=")
        code = code.strip()
        if not re.match(r"^[a-z][a-z0-9]{1,9}$", code):
            raise SkeletonError("language code %r: 2 to 10 lower-case letters and digits" % code)
        found.append((code, name.strip() or code))
    if len(set(code for code, _ in found)) != len(found):
        raise SkeletonError("a language code is given twice in %r" % text)
    return found


def next_month(today):
    """The first day of the month after ``today``."""
    return datetime.date(today.year + today.month // 12, today.month % 12 + 1, 1)


KIND_TASKS_TAGGING = '''#: One token-tagging task: BIO tags, ranked by entity-span F1 (conlleval), token accuracy beside it; submitted in the
#: CoNLL form ``token<TAB>tag`` (``token_column``: no warning for the token column).
TASKS = (
    TextTask("@TASK@", @TASK_LABEL_STRING@, "token_labels", "span_f1", ("span_f1", "acc"),
             [(lang, bio(ENTITY_TYPES)) for lang in LANGUAGES], token_column=True),
)'''
KIND_TASKS_JSON = '''#: One tagging task of the JSON kind ``tagging``: per sentence ``[[form, tag], ...]``; per-sentence accuracy and
#: macro-F1 over the tags, each averaged over the sentences, the language's score their mean.
TASKS = (
    JsonTask("@TASK@", @TASK_LABEL_STRING@, "tagging", ("acc", "f1"), tuple(LANGUAGES), labels=bio(ENTITY_TYPES)),
)'''
KIND_TASKS_LABELS = '''#: One classification task of the value kind ``item_labels``: one ``word<TAB>label`` line per word; accuracy and
#: macro-F1 over the words of a file, accuracy ranking.
TASKS = (
    ValueTask("@TASK@", @TASK_LABEL_STRING@, "item_labels", ("acc", "macro_f1"), tuple(LANGUAGES), labels=LABELS,
              unit="word"),
)'''
KIND_TASKS_VALUES = '''#: One graded task of the value kind ``item_values``: one ``word<TAB>value`` line per word; Spearman's rank correlation
#: with the gold over the words of a file ranks, Pearson's is shown beside it.
TASKS = (
    ValueTask("@TASK@", @TASK_LABEL_STRING@, "item_values", ("spearman", "pearson"), tuple(LANGUAGES), unit="word"),
)'''
KIND_TASKS_CUSTOM = '''#: One graded task of this competition's own kind (@CID@_kind.py, ``@CID@_values``): one ``word<TAB>value`` line per
#: word, Spearman's rank correlation with the gold over the words of a file.
TASKS = (
    Task("@TASK@", @TASK_LABEL_STRING@, "@CID@_values", "spearman", ("spearman",), tuple(LANGUAGES)),
)'''

#: What the three kinds of words with one value each share (``key<TAB>value`` release, flat file names, words).
WORDS = {
    "FILES_BLOCK": '''#: Submission files at the root of the zip, and the reference files of each phase.
SUBMISSION_FILE = "{task}_{lang}.txt"
REFERENCE_FILE = "{task}_{lang}.tsv"''',
    "RELEASE_BLOCK": '''#: The release's files (the sample's and a real release's layout): train and dev with their values, test the words
#: alone; one word<TAB>value line per word.
RELEASE_FILE = "{split}/{task}_{lang}.tsv"''',
    "EXT": "tsv",
    "FIRST_FILE": "@TASK@_@FIRST_LANG@.txt",
    "REPORT_EXTRA": '''
    "official": "Official (over the words of the file)",
    "unit": "words",''',
    "KIT_CHECKS": "file names, a word<TAB>value line per word, the values",
    "DATA_TEXT": "`train/` and `dev/` files, `word<TAB>@VALUE_WORD@` per line",
    "TEST_FILES": "The test files (`test/*.tsv`, the words alone)",
    "DATA_HTML": "Each language comes as <code>train/</code>, <code>dev/</code> (with @VALUE_WORD@s) and <code>test/</code> "
                 "(the words alone) files: one <code>word&lt;TAB&gt;@VALUE_WORD@</code> line per word.",
    "SUBMISSION_TEXT": "one file per language at its root (@FIRST_FILE@, ...): one line per word of the test file, the "
                       "word, a tab and its @VALUE_WORD@, in any order",
    "GENERATOR": "values",
}
#: What differs between the kinds: the declaration's task, files and leaderboard labels, and how the pages, the
#: kit's README and the nothing-scored help word the submission and the metrics.
KIND_VALUES = {
    "tagging": {
        "IMPORTS": "TextTask, bio",
        "TASKS_BLOCK": KIND_TASKS_TAGGING,
        "FILES_BLOCK": '''#: Submission files at the root of the zip, and the reference files of each phase.
SUBMISSION_FILE = "{task}_{lang}.txt"
REFERENCE_FILE = "{task}_{lang}.conll"''',
        "LABELS": '''("span_f1", "{language} entity F1"), ("acc", "{language} token accuracy")''',
        "FIRST_FILE": "@TASK@_@FIRST_LANG@.txt",
        "SUBMISSION_TEXT": "one file per language at its root (@FIRST_FILE@, ...): for every token line of the test "
                           "file the token, a tab and its tag, and a blank line after each sentence",
        "METRIC_TEXT": "Entity-span micro-F1 (conlleval: a span counts when its boundaries and type are exact) ranks; "
                       "token accuracy is shown beside it.",
        "SIGNATURE": "labels:exact|spans:conlleval",
    },
    "json": {
        "IMPORTS": "JsonTask, bio",
        "TASKS_BLOCK": KIND_TASKS_JSON,
        "FILES_BLOCK": "#: No SUBMISSION_FILE or REFERENCE_FILE: the JSON kinds' files are ``<task>/<lang>.json``.",
        "LABELS": '''("acc", "{language} accuracy"), ("f1", "{language} macro-F1")''',
        "FIRST_FILE": "@TASK@/@FIRST_LANG@.json",
        "SUBMISSION_TEXT": "one folder per task holding one file per language (@FIRST_FILE@, ...): a JSON list with, "
                           "for each sentence of the test file, the list of its [token, tag] pairs",
        "METRIC_TEXT": "Per sentence, tag accuracy and macro-F1 over the tags, each averaged over the sentences; the "
                       "language's score is their mean.",
        "SIGNATURE": "labels:exact|sentences:macro",
    },
    "item_labels": dict(WORDS, **{
        "IMPORTS": "ValueTask",
        "TYPES_BLOCK": "#: The labels a word may have.\nLABELS = (@LABEL_TUPLE@)\n\n",
        "TASKS_BLOCK": KIND_TASKS_LABELS,
        "LABELS": '''("acc", "{language} accuracy"), ("macro_f1", "{language} macro-F1")''',
        "METRIC_TEXT": "Accuracy over the words of a file ranks; macro-F1 (the mean of the per-label F1 over the labels "
                       "that occur) is shown beside it.",
        "SIGNATURE": "labels:exact|items:file",
        "VALUE_WORD": "label",
        "VALUES_TEXT": "The labels: one of @LABEL_LIST@. ",
        "OVERVIEW_WHAT": "give every word its label (one of @LABEL_LIST@)",
        "SHORT_WHAT": "one label per word",
        "KIT_SYSTEMS": "the baseline (the most frequent training label of the words of the same length) or the floor "
                       "(`--system floor`, the most frequent training label for every word)",
        "GOLD_WHAT": "labels",
    }),
    "item_values": dict(WORDS, **{
        "IMPORTS": "ValueTask",
        "TASKS_BLOCK": KIND_TASKS_VALUES,
        "LABELS": '''("spearman", "{language} Spearman"), ("pearson", "{language} Pearson")''',
        "METRIC_TEXT": "Spearman's rank correlation with the gold over the words of a file ranks (ties given their "
                       "average rank; a constant prediction scores 0); Pearson's correlation is shown beside it.",
        "SIGNATURE": "values:decimal|items:file",
        "VALUE_WORD": "value",
        "VALUES_TEXT": "The values: decimal numbers (`0.25`), higher for more. ",
        "OVERVIEW_WHAT": "give every word a graded value",
        "SHORT_WHAT": "one graded value per word",
        "KIT_SYSTEMS": "the baseline (the mean training value of the words of the same length) or the floor (`--system "
                       "floor`, the mean training value for every word)",
        "GOLD_WHAT": "values",
    }),
    "custom": dict(WORDS, **{
        "IMPORTS": "Task",
        "KIND_IMPORT": "\n\nfrom @CID@_kind import WordValues",
        "TYPES_BLOCK": "#: The kinds this competition brings in its folder (@CID@_kind.py, bundled into its scoring program "
                       "beside evalkit).\nKINDS = (WordValues(),)\n\n",
        "TASKS_BLOCK": KIND_TASKS_CUSTOM,
        "LABELS": '''("spearman", "{language} Spearman")''',
        "METRIC_TEXT": "Spearman's rank correlation with the gold over the words of a file (ties given their average "
                       "rank; a constant prediction scores 0).",
        "SIGNATURE": "values:decimal|items:file|kind:@CID@_values",
        "VALUE_WORD": "value",
        "VALUES_TEXT": "The values: decimal numbers (`0.25`), higher for more. ",
        "OVERVIEW_WHAT": "give every word a graded value",
        "SHORT_WHAT": "one graded value per word",
        "KIT_SYSTEMS": "the baseline (the mean training value of the words of the same length) or the floor (`--system "
                       "floor`, the mean training value for every word)",
        "GOLD_WHAT": "values",
        "README_KIND_ROW": "\n| `@CID@_kind.py` | the competition's own kind (`@CID@_values`): reading and checking the "
                           "files, the metric, the items of the split and the audit (docs/new_competition.md, \"Writing a "
                           "kind\") |",
    }),
}
#: The values of the tagging kinds that the value kinds give otherwise.
TAGS = {
    "TYPES_BLOCK": "#: The entity types of the BIO tags.\nENTITY_TYPES = (@TYPES@,)\n\n",
    "RELEASE_BLOCK": '''#: The release's files (the sample's and a real release's layout): train and dev annotated, test tokens only.
RELEASE_FILE = "{split}/{task}_{lang}.conll"''',
    "EXT": "conll",
    "KIT_SYSTEMS": "the baseline (each token's most frequent training tag) or the floor (`--system floor`, every token "
                   "`O`)",
    "KIT_CHECKS": "file names, alignment, tags",
    "DATA_TEXT": "`train/` and `dev/` files, `token<TAB>tag` per line, a blank line after each sentence",
    "TEST_FILES": "The test files (`test/*.conll`, tokens only)",
    "VALUES_TEXT": "The tags: `B-X`, `I-X` or `O`, X one of @TYPE_LIST@. ",
    "OVERVIEW_WHAT": "tag every token with BIO tags of the types @TYPE_LIST@",
    "SHORT_WHAT": "BIO tags",
    "DATA_HTML": "Each language comes as <code>train/</code>, <code>dev/</code> (with tags) and <code>test/</code> (tokens "
                 "only)\nfiles: one <code>token&lt;TAB&gt;tag</code> line per token, a blank line after each sentence.",
    "GOLD_WHAT": "tags",
    "GENERATOR": "conll",
}
for _kind in ("tagging", "json"):
    KIND_VALUES[_kind] = dict(TAGS, **KIND_VALUES[_kind])
for _values in KIND_VALUES.values():
    _values.setdefault("KIND_IMPORT", "")
    _values.setdefault("TYPES_BLOCK", "")
    _values.setdefault("REPORT_EXTRA", "")
    _values.setdefault("README_KIND_ROW", "")
#: The task key and label of each kind when none is given.
DEFAULT_TASKS = {"tagging": ("ner", "Named entity recognition"), "json": ("ner", "Named entity recognition"),
                 "item_labels": ("binary", "Binary change"), "item_values": ("graded", "Graded change"),
                 "custom": ("graded", "Graded change")}


def values(cid, title, task, task_label, languages, types, today, kind="tagging", labels=("0", "1")):
    """The template values of a competition of ``kind``."""
    opens = next_month(today)
    test = opens + datetime.timedelta(weeks=8)
    closes = test + datetime.timedelta(weeks=4)
    given = {
        "CID": cid, "TITLE": title, "TITLE_STRING": json.dumps(title), "TITLE_HTML": html.escape(title),
        "TASK": task, "TASK_LABEL": task_label, "FIRST_LANG": languages[0][0],
        "LANGUAGES": "\n".join('    ("%s", (%s,)),' % (code, json.dumps(name)) for code, name in languages),
        "TASK_LABEL_STRING": json.dumps(task_label),
        "LANGUAGE_NAMES": ", ".join(name for _, name in languages),
        "TYPES": ", ".join('"%s"' % kind for kind in types),
        "TYPE_LIST": " ".join(types),
        "LABEL_TUPLE": "".join('"%s", ' % label for label in labels).rstrip(" "),
        "LABEL_LIST": ", ".join(labels),
        "KIND": kind, "DEV_OPENS": opens.isoformat(), "TEST_OPENS": test.isoformat(),
        "TEST_CLOSES": closes.isoformat(), "RESULTS": (closes + datetime.timedelta(weeks=1)).isoformat(),
    }
    for _ in range(3):   # the kind's values name each other and the common ones
        given.update((name, fill(text, given, keep=True)) for name, text in KIND_VALUES[kind].items())
    given["NOTHING_LITERAL"] = literal_lines("Nothing could be scored: %%s A submission is a zip with %s. Check the zip "
                                             "with the starting kit (python3 validate.py)." % given["SUBMISSION_TEXT"])
    given["METRIC_LITERAL"] = literal_lines(given["METRIC_TEXT"], 8)
    return given


def literal_lines(text, indent=4, width=100):
    """``text`` as Python string literals on lines of their own (concatenated where they stand)."""
    chunks = textwrap.wrap(text, width, drop_whitespace=False, break_on_hyphens=False) or [""]
    return "\n".join(" " * indent + json.dumps(chunk, ensure_ascii=False) for chunk in chunks)


def fill(template, given, keep=False):
    """``template`` with every ``@NAME@`` replaced by ``given[NAME]``; KeyError for an unknown name (``keep``: left
    as it is)."""
    return re.sub(r"@([A-Z_]+)@", lambda match: given[match.group(1)] if match.group(1) in given or not keep
                  else match.group(0), template)


def write(cid, kind="tagging", title=None, task=None, task_label=None,
          languages=(("grc", "Ancient Greek"), ("lat", "Latin")), types=("PER", "LOC"), today=None, labels=("0", "1")):
    """Write ``competitions/<cid>/`` and its generated sample; return its path. Raises SkeletonError when the id is
    refused, the kind unknown, or a task key, entity type or label is no plain name. ``task`` and ``task_label``
    default to the kind's (:data:`DEFAULT_TASKS`); ``types`` are the tagging kinds' entity types, ``labels`` the
    ``item_labels`` kind's label set."""
    why = refusal(cid)
    if why:
        raise SkeletonError(why)
    if kind not in KINDS:
        raise SkeletonError("unknown kind %r (kinds: %s)" % (kind, ", ".join(KINDS)))
    task = task or DEFAULT_TASKS[kind][0]
    task_label = task_label or DEFAULT_TASKS[kind][1]
    if not re.match(r"^[a-z][a-z0-9]{1,9}$", task):
        raise SkeletonError("task key %r: 2 to 10 lower-case letters and digits" % task)
    if not types or [kind for kind in types if not re.match(r"^[A-Za-z][A-Za-z0-9_]{0,19}$", kind)]:
        raise SkeletonError("entity types %r: one or more names of letters, digits and _ (e.g. PER,LOC)"
                            % ",".join(types))
    if len(labels) < 2 or len(set(labels)) != len(labels) or \
            [label for label in labels if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$", label)]:
        raise SkeletonError("labels %r: two or more distinct names of letters, digits, _, . and - (e.g. 0,1)"
                            % ",".join(labels))
    folder = os.path.join(declarations.COMPETITIONS, cid)
    given = values(cid, title or "%s: a shared task" % cid.upper(), task, task_label, list(languages), list(types),
                   today or datetime.date.today(), kind, list(labels))
    for path, template in templates(kind).items():
        target = os.path.join(folder, fill(path, given))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(fill(template, given))
    generated = subprocess.run([sys.executable, os.path.join(folder, "sample_data", "generate.py")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if generated.returncode:
        raise SkeletonError("%s was written but its sample generator failed: %s" % (folder, generated.stdout[-1500:]))
    return folder


def main(argv=None):
    """Command line; exit status 0 (written) or 2 (refused, with the reason)."""
    parser = argparse.ArgumentParser(prog="python -m organiser new", description=__doc__.split("\n\n")[0])
    parser.add_argument("cid", metavar="ID", help="the new competition's id (its folder competitions/<id>/)")
    parser.add_argument("--kind", default="tagging", choices=KINDS,
                        help="tagging (token<TAB>tag, entity F1), json (the JSON tagging kind), item_labels "
                             "(word<TAB>label, accuracy), item_values (word<TAB>value, Spearman), custom (a kind of the "
                             "competition's own in its folder, to edit; default %(default)s)")
    parser.add_argument("--title")
    parser.add_argument("--task", help="the task's key (score keys, file names; default: the kind's)")
    parser.add_argument("--task-label", help="the task's name (default: the kind's)")
    parser.add_argument("--languages", default="grc=Ancient Greek,lat=Latin", help="code=Name,...")
    parser.add_argument("--types", default="PER,LOC", help="the entity types of the BIO tags (tagging, json)")
    parser.add_argument("--labels", default="0,1", help="the label set (item_labels)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        folder = write(args.cid, args.kind, args.title, args.task, args.task_label, parse_languages(args.languages),
                       [t.strip() for t in args.types.split(",") if t.strip()],
                       labels=[label.strip() for label in args.labels.split(",") if label.strip()])
    except SkeletonError as err:
        sys.stderr.write("python -m organiser new: %s\n" % err)
        return 2
    rel = os.path.relpath(folder, ROOT)
    print("wrote %s. Next:\n  make COMPETITION=%s\n  make check COMPETITION=%s\n  .venv/bin/python -m pytest -q %s/tests\n"
          "then replace its parts as docs/new_competition.md says%s." % (
              rel, args.cid, args.cid, rel, " (the kind: %s/%s_kind.py)" % (rel, args.cid) if args.kind == "custom"
              else ""))
    return 0


# --------------------------------------------------------------------------- templates (``@NAME@`` filled in)

DECLARATION = '''"""@TITLE@: the competition's facts, declared as data (started by `python -m organiser new`).

The scorer (``evalkit``), the bundle builder and the pages read these names; docs/new_competition.md says what
each means. Edit the tasks, languages and labels; the machinery never names them.
"""
from collections import OrderedDict

from evalkit.declare import @IMPORTS@@KIND_IMPORT@

COMPETITION_ID = "@CID@"
TITLE = @TITLE_STRING@
#: Bump whenever a score could change for the same input (it is part of every score's signature).
METRICS_VERSION = "@CID@-metrics-1"

#: Language code -> (name,).
LANGUAGES = OrderedDict([
@LANGUAGES@
])

@TYPES_BLOCK@@TASKS_BLOCK@
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)

@RELEASE_BLOCK@
@FILES_BLOCK@

#: The leaderboard: the mean of the entry scores ranks (Average), then every component of every entry, labelled
#: per language (``{lang}``, ``{language}``, ``{task}`` are filled in: labels must differ, `make check` says so).
AVERAGE = "entries"
LEADERBOARD = "components"
OVERALL_LABEL = "Average"
COMPONENT_LABELS = OrderedDict([@LABELS@])
SIGNATURE_OPTIONS = "avg:entry-mean|@SIGNATURE@"

REPORT_NOTES = {
    "overall": "Mean of the scores of every language (each weighs the same).",
    "task": (
@METRIC_LITERAL@),@REPORT_EXTRA@
}

#: One subtask: the competition itself (one bundle).
SUBTASKS = OrderedDict([
    (COMPETITION_ID, {"title": TITLE, "tasks": tuple(TASKS_BY_FOLDER), "languages": tuple(LANGUAGES)}),
])

NOTHING_HELP = (
@NOTHING_LITERAL@)

#: Limits applied to participant uploads.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_UPLOAD_BYTES = 256 * 1024 * 1024
MAX_MEMBERS = 100

#: A declared dataset without reference data is left out of the bundle and its leaderboard (LACKING on the pages).
LACKING_DATASETS = "drop"
LANGUAGE_LABEL = "Language"
'''

EVALUATE = '''#!/usr/bin/env python3
"""Scoring program of @TITLE@: the kit's evalkit with the declaration beside this file (@CID@.py).

On CodaLab / Codabench: ``python3 evaluate.py INPUT OUTPUT``. Locally: ``python3 evaluate.py --ref REFERENCE_DIR
--submission my_submission.zip [--out DIR]``. Standard library only; Python 3.7 or newer.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for _folder in (HERE, os.path.join(HERE, os.pardir, os.pardir, "scoring_program")):   # the bundle, the repository
    if os.path.isdir(os.path.join(_folder, "evalkit")):
        sys.path.insert(0, os.path.abspath(_folder))
        break

from evalkit.entry import require_python  # noqa: E402  (old syntax: it runs on any Python)
require_python("evaluate.py")             # a plain message and exit status 2 before Python 3.7

from evalkit.cli import main_beside  # noqa: E402

if __name__ == "__main__":
    sys.exit(main_beside(__file__))
'''

METADATA = '''command: python3 $program/evaluate.py $input $output
description: @TITLE_STRING@
'''

BUILDER = '''#!/usr/bin/env python3
"""@TITLE@'s @WHAT@ builder: `python -m organiser @WHAT@ --competition @CID@` (`make COMPETITION=@CID@`).

It reads the release in the declared ``RELEASE_FILE`` layout (organiser/line_builders.py says what it writes).
A release in another layout: replace ``main`` by your own reader that writes the same files.
"""
import os
import sys

from organiser import line_builders


def main(argv=None):
    """Command line (the options of `python -m organiser @WHAT@`)."""
    return line_builders.@WHAT@_main(os.path.dirname(os.path.abspath(__file__)), argv)


if __name__ == "__main__":
    sys.exit(main())
'''

GENERATE = '''#!/usr/bin/env python3
"""Write @CID@'s synthetic sample (made up here, never cut from real data): ``{train,dev,test}/<task>_<lang>.conll``
in the declared ``RELEASE_FILE`` layout (test: tokens only) and ``test_gold/test/`` (the test labels, kept apart as
a release's hidden gold would be). Deterministic: ``python3 generate.py`` writes the same files every time.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(HERE, os.pardir, os.pardir, os.pardir, "scoring_program")]
import @CID@  # noqa: E402  (the declaration: tasks, languages, entity types)

SIZES = (("train", 60), ("dev", 20), ("test", 20))
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "de", "pha", "the", "xo")


def word(rng, syllables):
    """A made-up word of ``syllables`` syllables."""
    return "".join(rng.choice(SYLLABLES) for _ in range(syllables))


def lexicon(rng):
    """Per entity type a few made-up names (capitalised), and common words."""
    names = dict((kind, [word(rng, 3).capitalize() for _ in range(6)]) for kind in @CID@.ENTITY_TYPES)
    return names, [word(rng, rng.randint(1, 2)) for _ in range(40)]


def sentence(rng, names, common):
    """One sentence as ``[(token, tag)]``: common words and up to two entities of one or two tokens."""
    rows = [(rng.choice(common), "O") for _ in range(rng.randint(4, 9))]
    for _ in range(rng.randint(0, 2)):
        kind = rng.choice(@CID@.ENTITY_TYPES)
        tokens = [rng.choice(names[kind]) for _ in range(rng.randint(1, 2))]
        at = rng.randint(0, len(rows))
        rows[at:at] = [(token, ("B-" if i == 0 else "I-") + kind) for i, token in enumerate(tokens)]
    return rows + [(".", "O")]


def write(path, sentences, labels=True):
    """A CoNLL-style file: ``token<TAB>tag`` (or the token alone), a blank line after each sentence."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\\n") as handle:
        for rows in sentences:
            handle.write("".join(("%s\\t%s\\n" % row) if labels else row[0] + "\\n" for row in rows) + "\\n")


def main():
    """Write the sample."""
    for task in @CID@.TASKS:
        for lang in task.languages:
            rng = random.Random("%s-%s" % (task.key, lang))
            names, common = lexicon(rng)
            for split, count in SIZES:
                sentences = [sentence(rng, names, common) for _ in range(count)]
                name = @CID@.RELEASE_FILE.format(split=split, task=task.key, lang=lang)
                write(os.path.join(HERE, name), sentences, labels=split != "test")
                if split == "test":
                    write(os.path.join(HERE, "test_gold", name), sentences)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

KIT_BOOT = '''#!/usr/bin/env python3
"""@DOC@

Standard library only, Python 3.7 or newer.

Finds the scoring program beside it (``scoring_program/`` in the starting kit) or in the repository.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "scoring_program")
PROGRAM = PROGRAM if os.path.isfile(os.path.join(PROGRAM, "evaluate.py")) else os.path.dirname(HERE)
for _folder in (PROGRAM, os.path.join(PROGRAM, os.pardir, os.pardir, "scoring_program")):
    if os.path.isdir(os.path.join(_folder, "evalkit")):
        sys.path.insert(0, os.path.abspath(_folder))
        break

from evalkit.entry import require_python, run  # noqa: E402  (old syntax: it runs on any Python)
require_python("@SCRIPT@")

from evalkit import cli, conll  # noqa: E402

if __name__ == "__main__":
    DECLARATION = os.path.join(PROGRAM, "evaluate.py")
    sys.exit(run(lambda: conll.@MAIN@(cli.declaration_beside(DECLARATION)), "@SCRIPT@",
                 "@SCRIPT@"))
'''

KIT_README = '''# @TITLE@: starting kit

From the data to a checked submission. Python 3.7 or newer, standard library only.

| File | What it is |
|---|---|
| `make_submission.py` | @KIT_SYSTEMS@ for `dev` or `test` |
| `validate.py` | checks a submission against the public files of a split (@KIT_CHECKS@); prints dev scores, and says a file at or below the floor |
| `data/` | @DATA_TEXT@ |
| `reference_data/dev/` | the development phase's reference, exactly as the platform scores it |
| `scoring_program/` | the platform's scoring program, to score locally |

@TEST_FILES@ are released when the test phase opens: unzip them into `data/`.

```sh
python3 make_submission.py --data data --split dev --out baseline-dev.zip
python3 validate.py baseline-dev.zip --data data --split dev
python3 scoring_program/evaluate.py --ref reference_data/dev --submission baseline-dev.zip --out scores/
```
`validate.py` ends with one line: the errors, the warnings and the files known to score 0, then "ready to upload"
only when nothing is known to cost score. It exits with 0 when no error was found and no file is known to score 0
(warnings may remain: read them), 1 otherwise, 2 when `data/` has no file of the split.

## The submission
A zip with @SUBMISSION_TEXT@. @VALUES_TEXT@@METRIC_TEXT@

## The test phase
<!-- TEST_PHASE -->

`python3 validate.py SUBMISSION.zip --data data --split test` checks a test submission against the test files
(tokens only: it checks the format and prints no score).

## Baseline scores (development)
<!-- BASELINE_TABLE -->
'''

COMPETITION_YAML = '''# Source of @CID@'s bundle: `python -m organiser bundle --competition @CID@` (`make COMPETITION=@CID@`) generates the
# leaderboard columns from @CID@.py and the dates from schedule.yaml (never write either here).
title: @TITLE_STRING@
description: >-
  @TASK_LABEL@ in @LANGUAGE_NAMES@: @SHORT_WHAT@, ranked by the mean score over the languages.
image: logo.png
has_registration: true
force_submission_to_leaderboard: true
enable_detailed_results: true
competition_docker_image: codalab/codalab-legacy:py37
html:
  overview: overview.html
  evaluation: evaluation.html
  terms: terms.html
  data: data.html
  timeline: timeline.html
phases:
  1:
    phasenumber: 1
    label: Development
    description: >-
      Development phase: predictions for the dev split, scored against its gold tags.
    color: green
    max_submissions: 100
    max_submissions_per_day: 10
    execution_time_limit: 600
    is_scoring_only: true
    scoring_program: scoring_program.zip
    reference_data: reference_data_dev.zip
    starting_kit: starting_kit.zip
  2:
    phasenumber: 2
    label: Test
    description: >-
      Test phase: predictions for the test split, scored against the hidden test gold.
    color: purple
    max_submissions: 10
    max_submissions_per_day: 3
    execution_time_limit: 600
    is_scoring_only: true
    scoring_program: scoring_program.zip
    reference_data: reference_data_test.zip
    starting_kit: starting_kit.zip
leaderboard:
  leaderboards:
    Results:
      label: Results
      rank: 1
'''

SUBTASKS_YAML = '''# @CID@'s wording for the organiser's tools (organiser.declarations.wording): one subtask (the competition itself),
# no extra phase. organiser_notes are added to its section of the organisers' procedure.
organiser_notes:
  - "The test gold is hidden: give it with `TEST_GOLD=<dir of test/<task>_<lang>.@EXT@ with @GOLD_WHAT@>`."
'''

SCHEDULE_YAML = '''# @CID@'s schedule: the ONE place for its dates (UTC, "YYYY-MM-DD HH:MM"). Each phase opens when the previous closes.
phases:
  dev:
    opens: "@DEV_OPENS@ 00:00"
    closes: "@TEST_OPENS@ 00:00"
  test:
    opens: "@TEST_OPENS@ 00:00"
    closes: "@TEST_CLOSES@ 00:00"
results_notification: "@RESULTS@ 00:00"
later: []
# What the platform's test phase can score (docs/test_feedback.md; read when `make` builds the references):
# public_private (default): the platform scores a public part of the test set (public_fraction of each file's
# items), the final ranking the private rest, whose gold is never uploaded; blind: the platform only checks the
# format and counts the validly predicted items; full: the platform scores the whole test set (teams see their
# test scores after every submission).
test_feedback:
  mode: public_private
  public_fraction: 0.3
'''

PAGES = {
    "overview": '''<h2>@TITLE_HTML@</h2>
{{ test_phase_note }}
<p>@TASK_LABEL@ in @LANGUAGE_NAMES@: @OVERVIEW_WHAT@. The leaderboard ranks
by the mean score over the languages and shows each language's scores. @METRIC_TEXT@</p>
{{ datasets_table }}
{{ lacking_note }}
''',
    "data": '''<h2>Data</h2>
{{ data_release_note }}
<p>@DATA_HTML@</p>
''',
    "evaluation": '''<h2>Evaluation</h2>
<p>One zip with @SUBMISSION_TEXT@. @METRIC_TEXT@</p>
{{ report_policy }}
<h3>Leaderboard columns</h3>
<p>The {{ column_count }} columns of this bundle's leaderboard:</p>
{{ columns_table }}
''',
    "terms": '''<h2>Terms</h2>
<p>The organisers' terms go here (data licence, what participants agree to, how to cite).</p>
''',
    "timeline": '''<h2>Timeline</h2>
<p class="note">All times are UTC (from <code>competitions/@CID@/schedule.yaml</code>).</p>
{{ phases_table }}
<h3>Important dates</h3>
{{ important_dates }}
''',
}

README = '''# @TITLE@

A competition of the kit, started by `python -m organiser new @CID@ --kind @KIND@`. Everything of it is in this
folder; the machinery (`scoring_program/evalkit/`, `organiser/`) never names it. docs/new_competition.md says what
each file declares and how to replace the parts.

| path | what it is |
|---|---|
| `@CID@.py` | the declaration: languages, task, labels, metrics, file names, leaderboard |@README_KIND_ROW@
| `evaluate.py`, `metadata` | the scoring program's entry point (`evalkit.cli.main_beside`) and the platform's command |
| `reference.py`, `baselines.py` | organiser: references (`dev/`, `test/`, `public/`) and baseline submissions (organiser/line_builders.py) |
| `sample_data/` | synthetic sample (`generate.py` writes it) |
| `starting_kit/` | for participants: README, `validate.py`, `make_submission.py` |
| `pages/`, `competition.yaml`, `subtasks.yaml`, `schedule.yaml` | the bundle's pages, source, wording and dates |
| `tests/` | this competition's tests (collected by `make test`) |

```sh
make COMPETITION=@CID@                 # on the sample; DATA=<release> [TEST_GOLD=<dir>] for the real data
make check COMPETITION=@CID@
.venv/bin/python -m pytest -q competitions/@CID@/tests
```
'''

TESTS = '''"""@TITLE@'s own tests (collected by `make test`): the competition built once on its sample, `make check` passing (its
kinds' conformance included), the baseline above the floor, the CoNLL form accepted without a warning (the tagging
kind), the starting kit's validator on the baseline and the floor."""
import os
import subprocess
import sys
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(FOLDER))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from conftest import build_competition  # noqa: E402
from organiser import check, declarations  # noqa: E402
from evalkit import scoring  # noqa: E402
from evalkit.messages import ZERO_NOTE  # noqa: E402

CID = os.path.basename(FOLDER)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_competition(CID, tmp_path_factory.mktemp(CID))


def test_make_check_passes(built, capsys):
    ref, dist = built
    status = check.main(["--dist", dist, "--submissions", os.path.join(dist, "submissions")])
    out = capsys.readouterr().out
    assert status == 0, [line for line in out.splitlines() if line.startswith("FAIL")][:10]


def test_the_baseline_beats_the_floor_and_the_conll_form_gets_no_warning(built):
    ref, dist = built
    decl = declarations.load(CID)
    scores = {}
    for system in ("baseline", "floor"):
        path = os.path.join(dist, "submissions", "%s-dev-%s.zip" % (CID, system))
        report = scoring.evaluate(decl, os.path.join(ref, "dev"), path)
        said = [m for m in report["messages"] if m["severity"] != "info"]
        if system == "baseline":   # nothing to say of the baseline
            assert not said, report["messages"]
        else:   # the floor itself is said to be at the floor (one warning per file), a constant, or to score 0
            assert said and all("at the floor" in m["text"] or ZERO_NOTE in m["text"] or "a constant prediction" in
                                m["text"] for m in said), report["messages"]
        scores[system] = report["scores"]["avg_score"]
    assert scores["baseline"] > scores["floor"]
    if getattr(decl.TASKS[0], "token_column", False):   # the CoNLL form: token<TAB>tag
        with zipfile.ZipFile(os.path.join(dist, "submissions", "%s-dev-baseline.zip" % CID)) as archive:
            first = archive.read(archive.namelist()[0]).decode("utf-8").splitlines()[0]
        assert first.count("\\t") == 1


def validate_dev(dist, tmp_path, system):
    """The unpacked starting kit's validator run on the ``system`` dev submission (a CompletedProcess)."""
    with zipfile.ZipFile(os.path.join(dist, "starting_kit.zip")) as archive:
        archive.extractall(str(tmp_path))
    kit = os.path.join(str(tmp_path), "%s-starting-kit" % CID)
    return subprocess.run([sys.executable, "validate.py", os.path.join(dist, "submissions", "%s-dev-%s.zip" % (CID, system)),
                           "--data", "data", "--split", "dev"], cwd=kit, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def test_the_starting_kit_validates_the_baseline(built, tmp_path):
    run = validate_dev(built[1], tmp_path, "baseline")
    assert run.returncode == 0 and run.stdout.rstrip().endswith(
        "0 errors, 0 warnings, 0 files will score 0 -- ready to upload"), run.stdout


def test_the_starting_kit_says_the_floor_and_counts_the_files_that_will_score_0(built, tmp_path):
    ref, dist = built
    run = validate_dev(dist, tmp_path, "floor")
    report = scoring.evaluate(declarations.load(CID), os.path.join(ref, "dev"),
                              os.path.join(dist, "submissions", "%s-dev-floor.zip" % CID))
    zero = [entry["file"] for entry in report["entries"] if entry["score"] == 0]
    assert run.stdout.count("at the floor of this phase") == len(report["entries"]), run.stdout
    assert "%d file%s will score 0" % (len(zero), "" if len(zero) == 1 else "s") in run.stdout, run.stdout
    assert run.returncode == (1 if zero else 0), run.stdout
'''

GENERATE_VALUES = """#!/usr/bin/env python3
\"\"\"Write @CID@'s synthetic sample (made up here, never cut from real data): ``{train,dev,test}/<task>_<lang>.tsv``
in the declared ``RELEASE_FILE`` layout, one ``word<TAB>value`` line per word (test: the words alone), and
``test_gold/test/`` (the test values, kept apart as a release's hidden gold would be). A word's value grows with its
length, noise aside (a task with labels: the label of its band), so that the kit's baseline learns something.
Deterministic: ``python3 generate.py`` writes the same files every time.
\"\"\"
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(HERE, os.pardir, os.pardir, os.pardir, "scoring_program")]
import @CID@  # noqa: E402  (the declaration: tasks, languages, labels)

SIZES = (("train", 80), ("dev", 24), ("test", 30))
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "de", "pha", "the", "xo")


def words(rng, count, used):
    \"\"\"``count`` made-up words, none of ``used`` (they are added to it).\"\"\"
    found = []
    while len(found) < count:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))
        if word not in used:
            used.add(word)
            found.append(word)
    return found


def value(rng, word, task):
    \"\"\"The word's value: a number in [0, 1] that grows with its length, or the label of its band.\"\"\"
    number = min(1.0, max(0.0, len(word) / 12.0 + rng.gauss(0, 0.12)))
    labels = getattr(task, "labels", ())
    if labels:
        return labels[min(len(labels) - 1, int(number * len(labels)))]
    return "%.4f" % number


def write(path, rows, gold=True):
    \"\"\"One ``word<TAB>value`` line per word (or the word alone).\"\"\"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\\n") as handle:
        handle.write("".join(("%s\\t%s\\n" % row) if gold else row[0] + "\\n" for row in rows))


def main():
    \"\"\"Write the sample (a word is in one file only: the same line in two files would be one item).\"\"\"
    used = set()
    for task in @CID@.TASKS:
        for lang in task.languages:
            rng = random.Random("%s-%s" % (task.key, lang))
            for split, count in SIZES:
                rows = [(word, value(rng, word, task)) for word in words(rng, count, used)]
                name = @CID@.RELEASE_FILE.format(split=split, task=task.key, lang=lang)
                write(os.path.join(HERE, name), rows, gold=split != "test")
                if split == "test":
                    write(os.path.join(HERE, "test_gold", name), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
"""

CUSTOM_KIND = """\"\"\"@TITLE@'s own kind, ``@CID@_values``: one ``word<TAB>value`` line per word, scored by Spearman's rank correlation
with the gold (written by ``python -m organiser new @CID@ --kind custom``; edit it, docs/new_competition.md,
"Writing a kind").

A kind is one object that everything reads: the scorer (how its files are read and checked, with located messages;
its metric), the split of the test gold and the leak audit (``items``: what one item of a reference file is), the
final ranking (``resampling``: how its score is recomputed on resampled items) and the starting kit's tools
(``release``). ``make check`` runs its conformance check. It is part of the scoring program (bundled beside
``evalkit/``): standard library only, Python 3.7+.
\"\"\"
import difflib
from collections import OrderedDict

from evalkit import metrics
from evalkit.items import Columns, Items, normal
from evalkit.kinds import Entry
from evalkit.loading import decode_utf8
from evalkit.messages import DataError, ERROR, WARNING, ZERO_NOTE, quoted
from evalkit.values import ValueRelease


def read_lines(data, name):
    \"\"\"``[(line number, [fields])]`` of the non-blank lines of UTF-8 ``data`` (tab-separated, each stripped).\"\"\"
    text = decode_utf8(data, name)
    found = [(number, [field.strip() for field in line.split("\\t")])
             for number, line in enumerate(text.split("\\n"), 1) if line.strip()]
    if not found:
        raise DataError(name, "", "the file is empty; expected one word<TAB>value line per word")
    return found


def number(text):
    \"\"\"The finite number ``text`` writes, or None.\"\"\"
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


class Reference(object):
    \"\"\"A reference file: its ``words`` and their ``golds`` (None: redacted, in a test phase's part).\"\"\"

    def __init__(self, words, golds, size):
        self.words, self.golds, self.size = words, golds, size
        self.index = dict((word, i) for i, word in enumerate(words))

    def __len__(self):
        return len(self.words)


class WordItems(Items):
    \"\"\"One item per line: for the split (read, write, key, redact) and the leak audit (gold, public_texts, scramble);
    ``given``: what a participant is given, the test input's words alone (its value is the gold).\"\"\"

    unit = "word"
    given = Columns("the words alone, one a line")

    def read(self, data):
        return ["\\t".join(fields) for _, fields in read_lines(data, "reference")]

    def write(self, items, original):
        return "".join(item + "\\n" for item in items).encode("utf-8")

    def key(self, item, task):
        return item.split("\\t")[0]

    def redact(self, item, task):
        return self.key(item, task)

    def gold(self, item, task):
        return item.split("\\t")[1:]

    def public_texts(self, item, task):
        return [normal(item)] if "\\t" in item else []

    def scramble(self, data, task, lang):
        \"\"\"Every gold value negated (the audit compares the scorer's outputs on the real and the scrambled gold).\"\"\"
        return self.write(["%s\\t%r" % (item.split("\\t")[0], -number(item.split("\\t")[1])) if "\\t" in item else item
                           for item in self.read(data)], data)


class WordValues(object):
    \"\"\"The kind ``@CID@_values`` (evalkit/kindspec.py says what each part is).\"\"\"

    name = "@CID@_values"
    reads_text = True                      # reads bytes: parse_reference_text, prediction_limit, parse_prediction_text
    resampling = "items"                   # Spearman is no sum over items: the final ranking calls from_items
    item_metrics = {"spearman": ("spearman", ("gold", "pred"))}   # ... or its numpy twin (organiser/results)
    items = WordItems()
    release = ValueRelease(numeric=True)   # the kit's tools read the release's word<TAB>value files (evalkit.values)
    floor_min_items = 100                  # on fewer words a score at the floor tells little (evalkit/floor.py)
    floor_causes = "values in reversed order (higher written for less), a constant prediction"
    report_notes = {"official": "Official (over the words of the file)", "unit": "words"}

    def parse_reference_text(self, data, name, task, lang, redacted=False):
        \"\"\"The words and gold values of a reference file; a redacted word (a test phase's part) is the word alone.\"\"\"
        words, golds, seen = [], [], set()
        for line, fields in read_lines(data, name):
            gold = number(fields[1]) if len(fields) == 2 else None
            if not fields[0] or fields[0] in seen or (gold is None and not (redacted and len(fields) == 1)):
                raise DataError(name, "line %d" % line, "expected a new word<TAB>number, got %s"
                                % quoted("\\t".join(fields), 80))
            seen.add(fields[0])
            words.append(fields[0])
            golds.append(gold)
        return Reference(words, golds, len(data))

    def prediction_limit(self, ref, file_limit):
        return min(file_limit, 4 * ref.size + (1 << 20))

    def parse_prediction_text(self, data, ref, log, task, max_bytes):
        \"\"\"Each reference word's value (None: no valid one); every problem said in ``log``, with its line.\"\"\"
        if len(data) > max_bytes:
            raise DataError(log.file, "", "the file is %d bytes; at most %d are accepted" % (len(data), max_bytes))
        pred, seen = [None] * len(ref), {}
        for line, fields in read_lines(data, log.file):
            where, i = "line %d" % line, ref.index.get(fields[0])
            if len(fields) != 2:
                log.add(ERROR, where, "expected word<TAB>value, got %s" % quoted("\\t".join(fields), 80),
                        kind="not word<TAB>value")
            elif i is None:
                close = difflib.get_close_matches(fields[0], ref.words, n=1) if not log.count("unknown word") else []
                log.add(WARNING, where, "%s is not a word of the reference (ignored)%s" % (
                    quoted(fields[0], 80), "; did you mean %s?" % quoted(close[0], 80) if close else ""),
                    kind="unknown word")
            elif i in seen:
                log.add(WARNING, where, "%s is given again (first on line %d): this line is ignored"
                        % (quoted(fields[0], 80), seen[i]), kind="word given twice")
            else:
                seen[i], pred[i] = line, number(fields[1])
                if pred[i] is None:
                    log.add(ERROR, where, "the value %s of %s is not a number: the word counts as the mean of the "
                            "valid values" % (quoted(fields[1], 40), quoted(fields[0], 40)), kind="not a number")
        missing = [ref.words[i] for i in range(len(ref)) if i not in seen]
        if missing:
            log.add(ERROR, "whole file", "%d of the %d words have no line (first: %s): each counts as the mean of the "
                    "valid values" % (len(missing), len(ref), ", ".join(quoted(word, 40) for word in missing[:3])))
        given = [value for value in pred if value is not None]
        if not given:
            raise DataError(log.file, "", "no word of the reference has a valid value")
        if min(given) == max(given) and len(ref) > 1:
            log.add(ERROR, "whole file", "every value is %r: a constant prediction has no rank correlation with the "
                    "gold, and %s" % (given[0], ZERO_NOTE))
        return pred

    def score(self, ref, pred, task):
        \"\"\"Spearman's rho over the words; ``per_sentence``: each word's gold and predicted value (a word without a
        valid value gets the mean of the valid ones), what :meth:`from_items` recomputes the score from.\"\"\"
        given = [value for value in pred if value is not None]
        fill = sum(given) / len(given) if given else 0.0
        values = OrderedDict([("gold", list(ref.golds)), ("pred", [fill if p is None else p for p in pred])])
        return Entry(self.from_items(values, task), {}, len(ref), len(ref), len(ref), len(pred) - len(given), {},
                     per_sentence=values)

    def from_items(self, values, task):
        \"\"\"The components from the words' values (a resample's, in the final ranking): the metric itself.\"\"\"
        return OrderedDict([("spearman", metrics.spearman(values["gold"], values["pred"]))])

    def score_value(self, components):
        return components["spearman"]

    def scorable(self, ref):
        return list(range(len(ref)))

    def restrict(self, ref, pred, indices):
        return (Reference([ref.words[i] for i in indices], [ref.golds[i] for i in indices], ref.size),
                [pred[i] for i in indices])

    def predictions(self, ref, pred):
        return list(pred)

    def trivial_prediction(self, data, name):
        \"\"\"A content-free submission (what ``make check`` submits without a baseline): every word, no value.\"\"\"
        return "".join(item.split("\\t")[0] + "\\n" for item in self.items.read(data)).encode("utf-8")

    def gold_prediction(self, data, task, lang):
        \"\"\"The gold written as a prediction (the conformance check's perfect submission): the reference itself.\"\"\"
        return data
"""

TESTS_KIND = """

def test_the_competitions_own_kind_scores_a_perfect_a_reversed_and_a_constant_prediction():
    decl = declarations.load(CID)   # registers the kinds it declares
    task = decl.TASKS[0]
    kind = scoring.KINDS[task.kind]
    ref = kind.parse_reference_text(b"w1\\t0.1\\nw2\\t0.5\\nw3\\t0.9\\n", "reference", task, "xx")
    from evalkit.messages import MessageLog
    for text, rho in ((b"w1\\t1\\nw2\\t2\\nw3\\t3\\n", 1.0), (b"w3\\t1\\nw2\\t2\\nw1\\t3\\n", -1.0),
                      (b"w1\\t1\\nw2\\t1\\nw3\\t1\\n", 0.0)):
        log = MessageLog("x.txt")
        pred = kind.parse_prediction_text(text, ref, log, task, 1 << 20)
        assert kind.score_value(kind.score(ref, pred, task).components) == rho
        assert [m.severity for m in log.close()] == ([] if rho else ["error"])
"""


def templates(kind):
    """The files of a competition of ``kind``: ``{path: template}``."""
    found = dict(TEMPLATES)
    if KIND_VALUES[kind]["GENERATOR"] == "values":
        found["sample_data/generate.py"] = GENERATE_VALUES
    if kind == "custom":
        found["@CID@_kind.py"] = CUSTOM_KIND
        found["tests/test_@CID@.py"] = TESTS + TESTS_KIND
    return found


TEMPLATES = {
    "@CID@.py": DECLARATION,
    "evaluate.py": EVALUATE,
    "metadata": METADATA,
    "reference.py": BUILDER.replace("@WHAT@", "reference"),
    "baselines.py": BUILDER.replace("@WHAT@", "baselines"),
    "sample_data/generate.py": GENERATE,
    "starting_kit/validate.py": KIT_BOOT.replace("@DOC@", "Check a submission against the public files of a split:\n"
                                                 "`python3 validate.py SUBMISSION --data DIR --split dev|test`.")
    .replace("@SCRIPT@", "validate.py").replace("@MAIN@", "validate_main"),
    "starting_kit/make_submission.py": KIT_BOOT.replace("@DOC@", "Write a baseline submission zip:\n`python3 "
                                                        "make_submission.py --data DIR --split dev|test --out ZIP`.")
    .replace("@SCRIPT@", "make_submission.py").replace("@MAIN@", "make_submission_main"),
    "starting_kit/README.md": KIT_README,
    "competition.yaml": COMPETITION_YAML,
    "subtasks.yaml": SUBTASKS_YAML,
    "schedule.yaml": SCHEDULE_YAML,
    "README.md": README,
    "tests/test_@CID@.py": TESTS,
}
TEMPLATES.update(("pages/%s.html" % name, text) for name, text in PAGES.items())


if __name__ == "__main__":
    sys.exit(main())
