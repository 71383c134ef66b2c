"""Synthetic teams for the results tests and benchmark: submissions derived from a reference with
controlled noise, so the true order of the teams is known (less noise, better team).

``noise`` is the probability that one item (a tag, a lemma's first candidate, a feature value, a gap's
first candidate; for a competition of line-aligned text files, a token's or a post's label) is replaced by
a wrong but well-formed value; the random generator is seeded, so a team's submission is the same on every run.
"""
import glob
import json
import os
import random
import subprocess
import sys
import zipfile

from evalkit import lines, scoring


def _wrong(value, rng, noise):
    return value + "x" if rng.random() < noise else value


def prediction(task, sentences, rng, noise):
    """A submission file's JSON for reference ``sentences`` of ``task`` with ``noise``."""
    if task.kind == "tagging":
        return [[[form, _wrong(tag, rng, noise)] for form, tag in sent] for sent in sentences]
    if task.kind == "candidates":
        return [[[form, [_wrong(lemma, rng, noise), lemma + "a"]] for form, lemma in sent] for sent in sentences]
    if task.kind == "morph":
        return [[dict((k, v if k in ("Token", "UPOS", "Lemma") else _wrong(v, rng, noise)) for k, v in tok.items())
                 for tok in sent] for sent in sentences]
    out = []
    for sent in sentences:
        golds = [m["masked_token"] if isinstance(m, dict) else m for m in (sent.get("masked_tokens") or [])]
        out.append({"masked": sent["masked"], "masked_tokens": [[_wrong(g, rng, noise), g + "a"] for g in golds]})
    return out


def write_team(competition, ref_dir, path, noise, seed, skip=(), cache=None):
    """Write a submission zip at ``path`` (a file name or a binary file object) for every reference file of
    ``ref_dir`` (but ``skip``: ``(task folder, lang)`` pairs left out); return ``path``. ``cache``: a dict
    keeping the parsed reference files between calls."""
    rng = random.Random(seed)
    tasks = dict((task.folder, task) for task in competition.TASKS)
    if isinstance(path, str):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for ref in sorted(glob.glob(os.path.join(ref_dir, "*", "*.json"))):
            folder, lang = os.path.basename(os.path.dirname(ref)), os.path.basename(ref)[:-5]
            if folder not in tasks or (folder, lang) in skip:
                continue
            if cache is None or ref not in cache:
                with open(ref, encoding="utf-8") as handle:
                    sentences = json.load(handle)
                if cache is not None:
                    cache[ref] = sentences
            sentences = cache[ref] if cache is not None else sentences
            archive.writestr("%s/%s.json" % (folder, lang),
                             json.dumps(prediction(tasks[folder], sentences, rng, noise), ensure_ascii=False))
    return path


def run_results(argv, out):
    """``python -m organiser results ARGV --out OUT`` in-process; the parsed results.json (the run must succeed)."""
    from organiser.results import main
    assert main(list(argv) + ["--out", out]) == 0
    with open(os.path.join(out, "results.json"), encoding="utf-8") as handle:
        return json.load(handle)


def named_ranking(sub, key):
    """The ranking of ``sub`` (a subtask of results.json) on ``key`` with the rows' shown names for their identities
    (rankings are made on identities: ``team:<name>``)."""
    names = dict((row["id"], row["name"]) for row in sub["rows"])
    ranking = sub["rankings"][key]
    return {"order": [names[i] for i in ranking["order"]],
            "ranks": dict((names[i], rank) for i, rank in ranking["ranks"].items()),
            "adjacent": [dict(test, above=names[test["above"]], below=names[test["below"]])
                         for test in ranking["adjacent"]],
            "clusters": [[names[i] for i in cluster] for cluster in ranking["clusters"]]}


def official_scores(evaluate, ref, zip_path, out):
    """The ``scores.json`` that the scoring program ``evaluate`` (its path) writes for ``zip_path``."""
    subprocess.check_call([sys.executable, evaluate, "--ref", ref, "--submission", zip_path, "--out", out, "--quiet"],
                          stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "scores.json"), encoding="utf-8") as handle:
        return json.load(handle)


def noisy_labels(golds, labels, rng, noise):
    """``golds`` with each label replaced, with probability ``noise``, by another label of ``labels``."""
    return [rng.choice([other for other in labels if other != gold]) if rng.random() < noise else gold
            for gold in golds]


def read_text_reference(competition, task, lang, path):
    """The parsed reference text file at ``path`` (:class:`evalkit.lines.Reference`) of (task, lang)."""
    with open(path, "rb") as handle:
        return scoring.KINDS[task.kind].parse_reference_text(handle.read(), path, task, lang)


def write_text_team(competition, ref_dir, path, noise, seed, skip=()):
    """Write a submission zip at ``path`` for a competition of flat text files (``SUBMISSION_FILE``,
    :mod:`evalkit.lines`): one file per reference file of ``ref_dir`` (but ``skip``: ``(task folder, lang)``
    pairs left out), one label per token line (a blank line after each sentence) or per post. Returns ``path``."""
    rng = random.Random(seed)
    tasks = dict((task.folder, task) for task in competition.TASKS)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder, lang, ref_path in lines.scan_reference(ref_dir, competition):
            if (folder, lang) in skip:
                continue
            task = tasks[folder]
            ref, labels = read_text_reference(competition, task, lang, ref_path), task.labels[lang]
            if scoring.KINDS[task.kind].sentence_level:
                text = "".join(label + "\n" for label in noisy_labels([gold for _, gold in ref.sentences], labels,
                                                                      rng, noise))
            else:
                text = "".join("".join(label + "\n" for label in noisy_labels(gold, labels, rng, noise)) + "\n"
                               for _, gold in ref.sentences)
            archive.writestr(lines.submission_name(competition, task, lang), text)
    return path
