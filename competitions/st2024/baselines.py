"""ST2024's baseline submissions: ``python -m organiser baselines --competition st2024 --data DIR --reference
reference_data --out dist`` (``make baselines``).

For every language and task, the systems of ``starting_kit/baseline_models.py`` (the baseline and
its trivial floor; participants run the same code with ``starting_kit/make_submission.py``) are
trained on the ``train`` split of the release and predict the ``valid`` and ``test`` inputs (the
public test inputs carry no gold, which prediction does not need). Written:

- ``dist/submissions/<system>-<subtask>-<split>.zip`` for system ``baseline`` / ``floor`` and
  each subtask of ``st2024.SUBTASKS`` (only its tasks and languages), task folders at the root;
- the ``valid`` zips scored with the scoring program (a subprocess, exactly as participants run
  it) against ``<reference>/dev``: ``dist/baselines/scores-<system>-<subtask>-valid.json``;
- the language x task table (baseline vs floor) in ``dist/baselines/table.md`` and ``table.html`` (the
  unconstrained subtask, a superset: the starting kit's README) and ``table-<subtask>.html`` per subtask
  (its Evaluation page).

A language without training data in the checkout is reported and its baseline submitted without predictions
(the right shape, so the submission still validates; it scores 0), its floor read from the input alone (as
``make_submission.py --system floor`` does: ``UNTRAINED_TAG`` for every row, the form as its lemma, the three most
frequent units of the input's text for every gap), so that ``floor_scores.json`` holds a floor for every file; a file whose input is missing
in the checkout cannot be predicted and is reported. The time taken is printed.
"""
import argparse
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # competitions/
import competition_paths  # noqa: E402  (sys.path: the scoring program, this folder, the starting kit)
competition_paths.setup(__file__)
import st2024  # noqa: E402
import st2024_release as release  # noqa: E402
import baseline_models as models  # noqa: E402  the starting kit's (standard library only): what participants run
make_submission = competition_paths.kit_module(__file__, "make_submission")

SYSTEMS = models.SYSTEMS
SPLITS = ("valid", "test")
PHASES = {"valid": "dev", "test": "test"}
ROOT = competition_paths.ROOT
SCORER = os.path.join(ROOT, "scoring_program", "evaluate.py")
NO_TRAIN_MARK = "\u2020"
NOT_SCORED = "\u2014"


def release_kind(task):
    """The release folder holding the input of ``task`` (``morphology`` for the CoNLL-U tasks)."""
    return task.folder if task.kind == "fill_mask" else "morphology"


class Job(object):
    """One language and one release kind: its training data, its inputs, and what was missing."""

    def __init__(self, data_dir, lang, kind, tasks, splits):
        self.data_dir, self.lang, self.kind, self.tasks, self.splits = data_dir, lang, kind, tasks, splits
        self.inputs = {}
        for split in splits:
            path = release.find(data_dir, kind, split, lang)
            if path:
                self.inputs[split] = path

    def load_training(self):
        """The training data (``None`` when the train file is absent)."""
        path = release.find(self.data_dir, self.kind, "train", self.lang)
        if path is None:
            return None
        rows = make_submission.read_kind(path, self.kind)
        return rows if self.kind == "morphology" else models.fill_mask_training(self.tasks[0], rows)

    def load_input(self, split):
        """The input of ``split``: CoNLL-U rows or masked lines."""
        rows = make_submission.read_kind(self.inputs[split], self.kind)
        return rows if self.kind == "morphology" else [masked for masked, _ in rows]


# --------------------------------------------------------------------------- predicting

def write_json(path, value):
    """Compact UTF-8 JSON (created folders as needed)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(models.to_json(value))


def run_job(job, staging, report):
    """Train every system of ``job`` and write its predictions under ``staging``."""
    training = job.load_training()
    if training is None:
        report.no_train.append((job.kind, job.lang))
    inputs = {}
    for split in job.splits:
        if split in job.inputs:
            inputs[split] = job.load_input(split)
        else:
            report.no_input.append((job.kind, split, job.lang,
                                    release.expected_path(job.data_dir, job.kind, split, job.lang)))
    for task in job.tasks:
        systems = models.train_systems(task, training)
        for split, data in inputs.items():
            for system in SYSTEMS:
                model = systems[system] if systems else None
                if model is None and system == "floor":   # as make_submission.py: read from the input alone
                    model = models.untrained_floor(task, data)
                path = os.path.join(staging, "%s-%s" % (system, split), task.folder, job.lang + ".json")
                write_json(path, models.predict(task, model, data))


class Report(object):
    """What the run could not do, for the closing summary."""

    def __init__(self):
        self.no_train = []      # (kind, lang)
        self.no_input = []      # (kind, split, lang, expected path)
        self.written = []       # paths of zips
        self.notes = []


# --------------------------------------------------------------------------- zips

def subtask_pairs(subtask):
    """``(task, lang)`` pairs of a subtask of ``st2024.SUBTASKS``."""
    spec = st2024.SUBTASKS[subtask]
    return [(st2024.TASKS_BY_FOLDER[folder], lang) for folder in spec["tasks"]
            for lang in st2024.TASKS_BY_FOLDER[folder].languages if lang in spec["languages"]]


def write_zip(path, folder, pairs):
    """Zip ``folder/<task>/<lang>.json`` for ``pairs`` (those that exist); return how many."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    members = {}
    for task, lang in pairs:
        source = os.path.join(folder, task.folder, lang + ".json")
        if os.path.isfile(source):
            with open(source, "rb") as handle:
                members["%s/%s.json" % (task.folder, lang)] = handle.read()
    models.write_zip(path, members)
    return len(members)


def zip_name(system, subtask, split):
    """File name of a submission zip."""
    return "%s-%s-%s.zip" % (system, subtask, split)


def write_zips(staging, out_dir, splits, report):
    """Every ``<system>-<subtask>-<split>.zip`` into ``out_dir/submissions``."""
    for split in splits:
        for subtask in st2024.SUBTASKS:
            for system in SYSTEMS:
                path = os.path.join(out_dir, "submissions", zip_name(system, subtask, split))
                count = write_zip(path, os.path.join(staging, "%s-%s" % (system, split)),
                                  subtask_pairs(subtask))
                report.written.append("%s (%d files)" % (path, count))


# --------------------------------------------------------------------------- scoring

def subtask_reference(ref_dir, subtask, tmp):
    """A reference directory holding only the files of ``subtask`` (copied under ``tmp``)."""
    target = os.path.join(tmp, "ref-" + subtask)
    for task, lang in subtask_pairs(subtask):
        source = os.path.join(ref_dir, task.folder, lang + ".json")
        if os.path.isfile(source):
            os.makedirs(os.path.join(target, task.folder), exist_ok=True)
            shutil.copyfile(source, os.path.join(target, task.folder, lang + ".json"))
    return target


def score_zip(zip_path, ref_dir, out_dir):
    """Score one zip with the scoring program in a subprocess; return ``detailed_results.json`` as a dict."""
    command = [sys.executable, SCORER, "--ref", ref_dir, "--submission", zip_path, "--out", out_dir,
               "--quiet"]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    if result.returncode != 0:
        raise RuntimeError("the scoring program failed on %s (exit %d): %s"
                           % (zip_path, result.returncode, result.stderr.strip()))
    with open(os.path.join(out_dir, "detailed_results.json"), encoding="utf-8") as handle:
        return json.load(handle)


def score_valid(out_dir, reference_dir, report):
    """Score the ``valid`` zips; return ``{(system, subtask): detailed_results.json dict}`` (empty when the
    scorer or the development reference is absent)."""
    ref_dir = os.path.join(reference_dir, PHASES["valid"])
    if not os.path.isfile(SCORER) or not os.path.isdir(ref_dir):
        report.notes.append("not scored: %s" % (ref_dir if os.path.isfile(SCORER) else SCORER)
                            + " is missing")
        return {}
    scores = {}
    tmp = tempfile.mkdtemp(prefix="baselines-")
    try:
        for subtask in st2024.SUBTASKS:
            ref = subtask_reference(ref_dir, subtask, tmp)
            if not os.path.isdir(ref):
                report.notes.append("not scored: no %s reference file in %s" % (subtask, ref_dir))
                continue
            for system in SYSTEMS:
                name = zip_name(system, subtask, "valid")[:-len(".zip")]
                found = score_zip(os.path.join(out_dir, "submissions", name + ".zip"), ref,
                                  os.path.join(tmp, name))
                write_json(os.path.join(out_dir, "baselines", "scores-%s.json" % name), found)
                scores[(system, subtask)] = found
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return scores


# --------------------------------------------------------------------------- the table

def table_cells(baseline, floor, no_train):
    """``(columns, rows, footer)`` of the baseline-vs-floor table from two ``detailed_results.json`` dicts.

    ``columns`` are task labels; each row is ``(language label, [cell text per task], average)``;
    a cell is ``"baseline / floor"`` (``NOT_SCORED`` when the task does not apply to the language);
    languages without training data for a task carry ``NO_TRAIN_MARK``.
    """
    tasks = [st2024.TASKS_BY_FOLDER[t["folder"]] for t in baseline["tasks"]]
    langs = [entry["code"] for entry in baseline["languages"]]
    b_entries = dict(((e["task"], e["lang"]), e["score"]) for e in baseline["entries"])
    f_entries = dict(((e["task"], e["lang"]), e["score"]) for e in floor["entries"])

    def pair(b, f):
        return "%.3f / %.3f" % (b, f)
    rows = []
    for lang in langs:
        cells = []
        for task in tasks:
            key = (task.folder, lang)
            if key not in b_entries:
                cells.append(NOT_SCORED)
                continue
            mark = NO_TRAIN_MARK if (release_kind(task), lang) in no_train else ""
            cells.append(pair(b_entries[key], f_entries.get(key, 0.0)) + mark)
        avg_key = lang + "_avg_score"
        rows.append(("%s (%s)" % (st2024.LANGUAGES[lang][0], lang), cells,
                     pair(baseline["scores"][avg_key], floor["scores"][avg_key])))
    footer = ("Task mean", [pair(baseline["scores"]["avg_" + t.key], floor["scores"]["avg_" + t.key])
                            for t in tasks],
              pair(baseline["scores"]["avg_score"], floor["scores"]["avg_score"]))
    return [task.label for task in tasks], rows, footer


def table_note(data_dir, marked, not_scored=False):
    """The sentences under the table: what a cell is, and the legend of ``NO_TRAIN_MARK`` (``marked``: some
    cells carry it) and of ``NOT_SCORED`` (``not_scored``: some cells are it)."""
    note = ("Development (valid) split; each cell is baseline / trivial floor (majority tag, identity "
            "lemma, empty features, most frequent token/character); systems trained on train only. "
            "Data: %s." % os.path.basename(os.path.normpath(data_dir)))
    if marked:
        note += (" %s: no training data in the release for this language: the baseline is submitted without "
                 "predictions (the right shape, empty labels and candidates; feature-less tokens still score 1 in "
                 "morphology); the floor is read from the input alone (%s for every row, the form as its lemma, the "
                 "three most frequent units of the input's text for every gap)." % (NO_TRAIN_MARK,
                                                                                      models.UNTRAINED_TAG))
    if not_scored:
        note += " %s: the task does not apply to this language." % NOT_SCORED
    return note


def table_markdown(columns, rows, footer, note):
    """The table as GitHub Markdown."""
    def line(cells):
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
    out = [line(["Language"] + columns + ["Average"]),
           "|" + "---|" * (len(columns) + 2)]
    for label, cells, average in rows + [footer]:
        out.append(line([label] + cells + [average]))
    return "\n".join(out) + "\n\n" + note + "\n"


def table_html(columns, rows, footer, note):
    """The table as an HTML fragment; every string is escaped. Score cells have class ``num`` (right-aligned,
    never wrapped on the pages)."""
    esc = html.escape

    def tr(cells, tag):
        first = "<%s>%s</%s>" % (tag, esc(cells[0]), tag)
        return "<tr>" + first + "".join('<%s class="num">%s</%s>' % (tag, esc(cell), tag)
                                        for cell in cells[1:]) + "</tr>"
    parts = ['<table class="baselines">', "<thead>", tr(["Language"] + columns + ["Average"], "th"),
             "</thead>", "<tbody>"]
    parts.extend(tr([label] + cells + [average], "td") for label, cells, average in rows)
    parts += ["</tbody>", "<tfoot>", tr([footer[0]] + footer[1] + [footer[2]], "th"), "</tfoot>",
              "</table>", '<p class="note">%s</p>' % esc(note)]
    return "\n".join(parts) + "\n"


def subtask_table(scores, subtask, data_dir, no_train):
    """``(markdown, html)`` of the baseline-vs-floor table of ``subtask``."""
    baseline, floor = scores[("baseline", subtask)], scores[("floor", subtask)]
    columns, rows, footer = table_cells(baseline, floor, set(no_train))
    cells = [cell for _, row_cells, _ in rows for cell in row_cells]
    note = table_note(data_dir, any(NO_TRAIN_MARK in cell for cell in cells), NOT_SCORED in cells)
    return table_markdown(columns, rows, footer, note), table_html(columns, rows, footer, note)


def write_table(out_dir, scores, data_dir, no_train):
    """``dist/baselines/table.md`` and ``table.html`` from the unconstrained (superset) scores, and
    ``table-<subtask>.html`` for every subtask that was scored; return the unconstrained Markdown."""
    written = None
    for subtask in st2024.SUBTASKS:
        if ("baseline", subtask) not in scores or ("floor", subtask) not in scores:
            continue
        markdown, table = subtask_table(scores, subtask, data_dir, no_train)
        names = [("table-%s.html" % subtask, table)]
        if subtask == "unconstrained":
            names += [("table.md", markdown), ("table.html", table)]
            written = markdown
        for name, text in names:
            with open(os.path.join(out_dir, "baselines", name), "w", encoding="utf-8") as handle:
                handle.write(text)
    return written


# --------------------------------------------------------------------------- command line

def plan(data_dir, languages, splits):
    """One :class:`Job` per (language, release kind), in the declared order."""
    jobs = []
    for lang in languages:
        by_kind = {}
        for task in st2024.TASKS:
            if lang in task.languages:
                by_kind.setdefault(release_kind(task), []).append(task)
        for kind, tasks in by_kind.items():
            jobs.append(Job(data_dir, lang, kind, tasks, splits))
    return jobs


def parse_args(argv):
    """Options of the command."""
    parser = argparse.ArgumentParser(prog="python -m organiser baselines --competition st2024", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="release directory (morphology/, fill_mask_*/)")
    parser.add_argument("--reference", default=os.path.join(ROOT, "reference_data"),
                        help="reference_data directory (its dev/ scores the valid zips)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"), help="output directory")
    parser.add_argument("--splits", default=",".join(SPLITS), help="splits to predict (default: valid,test)")
    parser.add_argument("--languages", default=",".join(st2024.LANGUAGES), help="subset of languages (testing)")
    parser.add_argument("--no-score", action="store_true", help="do not score the valid zips")
    args = parser.parse_args(argv)
    args.splits = [s for s in args.splits.split(",") if s]
    args.languages = [l for l in args.languages.split(",") if l]
    for split in args.splits:
        if split not in SPLITS:
            parser.error("unknown split %r (choose from %s)" % (split, ", ".join(SPLITS)))
    for lang in args.languages:
        if lang not in st2024.LANGUAGES:
            parser.error("unknown language %r" % lang)
    if not os.path.isdir(args.data):
        parser.error("no release directory at %s" % args.data)
    return args


def grouped(pairs):
    """``"kind: lang, lang; kind: lang"`` from ``(kind, lang)`` pairs, in first-seen order."""
    by_kind = {}
    for kind, lang in pairs:
        by_kind.setdefault(kind, []).append(lang)
    return "; ".join("%s: %s" % (kind, ", ".join(langs)) for kind, langs in by_kind.items())


def print_report(report, jobs, seconds):
    """The closing summary on stdout: what could not be trained or predicted, what was written."""
    absent = [lang for lang in dict.fromkeys(job.lang for job in jobs)
              if all(not job.inputs and (job.kind, lang) in report.no_train
                     for job in jobs if job.lang == lang)]
    if absent:
        print("not in the data (nothing predicted): %s" % ", ".join(absent))
    no_train = [(kind, lang) for kind, lang in report.no_train if lang not in absent]
    if no_train:
        print("no training data (the baseline submitted without predictions, the floor read from the input): %s"
              % grouped(no_train))
    splits = dict.fromkeys(split for _, split, _, _ in report.no_input)
    for split in splits:
        missing = [(kind, lang) for kind, s, lang, _ in report.no_input if s == split and lang not in absent]
        if missing:
            print("no %s input (not predicted): %s" % (split, grouped(missing)))
    for note in report.notes:
        print(note)
    for path in report.written:
        print("wrote %s" % path)
    print("baselines: %.1f s" % seconds)


def main(argv=None):
    """Train, predict, zip, score and tabulate; return the exit status."""
    from tqdm import tqdm
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start = time.time()
    report = Report()
    staging = tempfile.mkdtemp(prefix="baselines-")
    try:
        jobs = plan(args.data, args.languages, args.splits)
        progress = tqdm(jobs, desc="baselines", unit="job", disable=None)  # None: a bar on a terminal only
        for job in progress:
            progress.set_postfix_str("%s %s" % (job.lang, job.kind))
            run_job(job, staging, report)
        write_zips(staging, args.out, args.splits, report)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print("trained and predicted in %.1f s" % (time.time() - start))
    status = 0
    if "valid" in args.splits and not args.no_score:
        try:
            scores = score_valid(args.out, args.reference, report)
        except RuntimeError as err:
            report.notes.append("ERROR: %s" % err)
            scores, status = {}, 1
        if ("baseline", "unconstrained") in scores:
            print(write_table(args.out, scores, args.data, report.no_train))
            report.written.append(os.path.join(args.out, "baselines", "table.md") + " (and table.html)")
    print_report(report, jobs, time.time() - start)
    return status


if __name__ == "__main__":
    sys.exit(main())
