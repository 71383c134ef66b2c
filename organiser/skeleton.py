"""``python -m organiser new <id> --kind tagging [--title T] [--task KEY] [--languages code=Name,...] [--types A,B]``:
write ``competitions/<id>/``, a competition that builds (``make COMPETITION=<id>``), checks (``make check
COMPETITION=<id>``) and passes its own tests (``competitions/<id>/tests/``) at once, on a synthetic sample it
generates. The organiser starts from green and replaces the parts (docs/new_competition.md says which): the
declaration, the sample (or ``DATA=<release>``), the pages, the schedule.

What it writes holds no copy of the machinery: ``evaluate.py`` calls ``evalkit.cli.main_beside``, the task class
is ``evalkit.declare.TextTask``, the builders call ``organiser.line_builders`` and the starting kit's scripts
``evalkit.conll``.

Kinds: ``tagging``, one label per token (``evalkit.lines`` ``token_labels``), BIO tags ranked by entity-span F1 with
token accuracy beside it, per language, submitted in the CoNLL form ``token<TAB>tag``; ``json``, the same tags in the
JSON kind ``tagging`` (``evalkit.kinds``: ``<task>/<lang>.json`` holding ``[[[form, tag], ...], ...]``, per-sentence
accuracy and macro-F1).
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
KINDS = ("tagging", "json")


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
        "SIGNATURE": "spans:conlleval",
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
        "SIGNATURE": "sentences:macro",
    },
}


def values(cid, title, task, task_label, languages, types, today, kind="tagging"):
    """The template values of a competition of ``kind``."""
    opens = next_month(today)
    test = opens + datetime.timedelta(weeks=8)
    closes = test + datetime.timedelta(weeks=4)
    given = {"TASK": task, "TASK_LABEL_STRING": json.dumps(task_label), "FIRST_LANG": languages[0][0]}
    for _ in range(3):   # the kind's values name each other and the common ones
        given.update((name, fill(text, given, keep=True)) for name, text in KIND_VALUES[kind].items())
    given["NOTHING_LITERAL"] = literal_lines("Nothing could be scored: %%s A submission is a zip with %s. Check the zip "
                                             "with the starting kit (python3 validate.py)." % given["SUBMISSION_TEXT"])
    given["METRIC_LITERAL"] = literal_lines(given["METRIC_TEXT"], 8)
    return dict(given, **{
        "CID": cid, "TITLE": title, "TITLE_STRING": json.dumps(title), "TITLE_HTML": html.escape(title),
        "TASK": task, "TASK_LABEL": task_label,
        "LANGUAGES": "\n".join('    ("%s", (%s,)),' % (code, json.dumps(name)) for code, name in languages),
        "TASK_LABEL_STRING": json.dumps(task_label),
        "LANGUAGE_NAMES": ", ".join(name for _, name in languages),
        "TYPES": ", ".join('"%s"' % kind for kind in types),
        "TYPE_LIST": " ".join(types),
        "KIND": kind, "DEV_OPENS": opens.isoformat(), "TEST_OPENS": test.isoformat(),
        "TEST_CLOSES": closes.isoformat(), "RESULTS": (closes + datetime.timedelta(weeks=1)).isoformat(),
    })


def literal_lines(text, indent=4, width=100):
    """``text`` as Python string literals on lines of their own (concatenated where they stand)."""
    chunks = textwrap.wrap(text, width, drop_whitespace=False, break_on_hyphens=False) or [""]
    return "\n".join(" " * indent + json.dumps(chunk, ensure_ascii=False) for chunk in chunks)


def fill(template, given, keep=False):
    """``template`` with every ``@NAME@`` replaced by ``given[NAME]``; KeyError for an unknown name (``keep``: left
    as it is)."""
    return re.sub(r"@([A-Z_]+)@", lambda match: given[match.group(1)] if match.group(1) in given or not keep
                  else match.group(0), template)


def write(cid, kind="tagging", title=None, task="ner", task_label="Named entity recognition",
          languages=(("grc", "Ancient Greek"), ("lat", "Latin")), types=("PER", "LOC"), today=None):
    """Write ``competitions/<cid>/`` and its generated sample; return its path. Raises SkeletonError when the id is
    refused, the kind unknown, or a task key or entity type is no plain name."""
    why = refusal(cid)
    if why:
        raise SkeletonError(why)
    if kind not in KINDS:
        raise SkeletonError("unknown kind %r (kinds: %s)" % (kind, ", ".join(KINDS)))
    if not re.match(r"^[a-z][a-z0-9]{1,9}$", task):
        raise SkeletonError("task key %r: 2 to 10 lower-case letters and digits" % task)
    if not types or [kind for kind in types if not re.match(r"^[A-Za-z][A-Za-z0-9_]{0,19}$", kind)]:
        raise SkeletonError("entity types %r: one or more names of letters, digits and _ (e.g. PER,LOC)"
                            % ",".join(types))
    folder = os.path.join(declarations.COMPETITIONS, cid)
    given = values(cid, title or "%s: a shared task" % cid.upper(), task, task_label, list(languages), list(types),
                   today or datetime.date.today(), kind)
    for path, template in TEMPLATES.items():
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
    parser.add_argument("--kind", default="tagging", choices=KINDS)
    parser.add_argument("--title")
    parser.add_argument("--task", default="ner", help="the task's key (score keys, file names)")
    parser.add_argument("--task-label", default="Named entity recognition")
    parser.add_argument("--languages", default="grc=Ancient Greek,lat=Latin", help="code=Name,...")
    parser.add_argument("--types", default="PER,LOC", help="the entity types of the BIO tags")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        folder = write(args.cid, args.kind, args.title, args.task, args.task_label, parse_languages(args.languages),
                       [t.strip() for t in args.types.split(",") if t.strip()])
    except SkeletonError as err:
        sys.stderr.write("python -m organiser new: %s\n" % err)
        return 2
    rel = os.path.relpath(folder, ROOT)
    print("wrote %s. Next:\n  make COMPETITION=%s\n  make check COMPETITION=%s\n  .venv/bin/python -m pytest -q %s/tests\n"
          "then replace its parts as docs/new_competition.md says." % (rel, args.cid, args.cid, rel))
    return 0


# --------------------------------------------------------------------------- templates (``@NAME@`` filled in)

DECLARATION = '''"""@TITLE@: the competition's facts, declared as data (started by `python -m organiser new`).

The scorer (``evalkit``), the bundle builder and the pages read these names; docs/new_competition.md says what
each means. Edit the tasks, languages and labels; the machinery never names them.
"""
from collections import OrderedDict

from evalkit.declare import @IMPORTS@

COMPETITION_ID = "@CID@"
TITLE = @TITLE_STRING@
#: Bump whenever a score could change for the same input (it is part of every score's signature).
METRICS_VERSION = "@CID@-metrics-1"

#: Language code -> (name,).
LANGUAGES = OrderedDict([
@LANGUAGES@
])

#: The entity types of the BIO tags.
ENTITY_TYPES = (@TYPES@,)

@TASKS_BLOCK@
TASKS_BY_FOLDER = OrderedDict((task.folder, task) for task in TASKS)

#: The release's files (the sample's and a real release's layout): train and dev annotated, test tokens only.
RELEASE_FILE = "{split}/{task}_{lang}.conll"
@FILES_BLOCK@

#: The leaderboard: the mean of the entry scores ranks (Average), then every component of every entry, labelled
#: per language (``{lang}``, ``{language}``, ``{task}`` are filled in: labels must differ, `make check` says so).
AVERAGE = "entries"
LEADERBOARD = "components"
OVERALL_LABEL = "Average"
COMPONENT_LABELS = OrderedDict([@LABELS@])
SIGNATURE_OPTIONS = "avg:entry-mean|labels:exact|@SIGNATURE@"

REPORT_NOTES = {
    "overall": "Mean of the scores of every language (each weighs the same).",
    "task": (
@METRIC_LITERAL@),
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
| `make_submission.py` | the baseline (each token's most frequent training tag) or the floor (`--system floor`, every token `O`) for `dev` or `test` |
| `validate.py` | checks a submission against the public files of a split (file names, alignment, tags); prints dev scores, and says a file at or below the floor |
| `data/` | `train/` and `dev/` files, `token<TAB>tag` per line, a blank line after each sentence |
| `reference_data/dev/` | the development phase's reference, exactly as the platform scores it |
| `scoring_program/` | the platform's scoring program, to score locally |

The test files (`test/*.conll`, tokens only) are released when the test phase opens: unzip them into `data/`.

```sh
python3 make_submission.py --data data --split dev --out baseline-dev.zip
python3 validate.py baseline-dev.zip --data data --split dev
python3 scoring_program/evaluate.py --ref reference_data/dev --submission baseline-dev.zip --out scores/
```
`validate.py` ends with one line: the errors, the warnings and the files known to score 0, then "ready to upload"
only when nothing is known to cost score. It exits with 0 when no error was found and no file is known to score 0
(warnings may remain: read them), 1 otherwise, 2 when `data/` has no file of the split.

## The submission
A zip with @SUBMISSION_TEXT@. The tags: `B-X`, `I-X` or `O`, X one of @TYPE_LIST@. @METRIC_TEXT@

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
  @TASK_LABEL@ in @LANGUAGE_NAMES@: BIO tags, ranked by the mean score over the languages.
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
  - "The test gold is hidden: give it with `TEST_GOLD=<dir of test/<task>_<lang>.conll with tags>`."
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
<p>@TASK_LABEL@ in @LANGUAGE_NAMES@: tag every token with BIO tags of the types @TYPE_LIST@. The leaderboard ranks
by the mean score over the languages and shows each language's scores. @METRIC_TEXT@</p>
{{ datasets_table }}
{{ lacking_note }}
''',
    "data": '''<h2>Data</h2>
{{ data_release_note }}
<p>Each language comes as <code>train/</code>, <code>dev/</code> (with tags) and <code>test/</code> (tokens only)
files: one <code>token&lt;TAB&gt;tag</code> line per token, a blank line after each sentence.</p>
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
| `@CID@.py` | the declaration: languages, task, tags, metrics, file names, leaderboard |
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

TESTS = '''"""@TITLE@'s own tests (collected by `make test`): the competition built once on its sample, `make check` passing, the
baseline above the floor, the CoNLL form accepted without a warning, the starting kit's validator on the baseline."""
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
        else:   # the floor itself is said to be at the floor (one warning per file), or to score 0, nothing else
            assert said and all("at the floor" in m["text"] or ZERO_NOTE in m["text"] for m in said), \
                report["messages"]
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
