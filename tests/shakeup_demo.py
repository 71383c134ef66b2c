"""Public rank against final rank on a competition's sample (issue 23): ``python tests/shakeup_demo.py [ID ...]``.

For each competition: its reference builder writes the full test gold of its embedded sample (no split) into a
scratch folder; organiser/split.py splits it as ``make`` does (mode public_private, its schedule's fraction, a fixed
seed); the teams are the kit's test baselines (submitted as teams) and made-up teams, noisy copies of the full gold
(each item wrong with a team's probability); ``python -m organiser results`` ranks them on the private part with their
public rank beside (``--public-reference``); the script prints each competition's shake-up table (Markdown).
Used by tests/test_results_shakeup.py; the numbers of the closing note of issue 23 come from running it.
"""
import json
import os
import random
import shutil
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for path in (HERE, ROOT, os.path.join(ROOT, "scoring_program")):
    if path not in sys.path:
        sys.path.insert(0, path)

import results_synth  # noqa: E402
from evalkit import lines  # noqa: E402
from organiser import builders, declarations, feedback, schedule, split  # noqa: E402
from organiser.results import main as results_main, shakeup  # noqa: E402

#: The made-up teams: name and the probability that one item of theirs is wrong.
NOISY = (("team-a", 0.05), ("team-b", 0.15), ("team-c", 0.2), ("team-d", 0.22), ("team-e", 0.25), ("team-f", 0.35),
         ("team-g", 0.5))
SEED = "shake-up demo"


def full_gold(cid, work):
    """The full test gold of competition ``cid``'s sample, built by its own reference builder (no split): its folder."""
    hosted = declarations.Hosted(cid)
    sample = os.path.join(ROOT if hosted.top_level else hosted.folder, "sample_data")
    gold = os.path.join(sample, "test_gold")
    argv = ["--data", sample, "--out", os.path.join(work, "full")] + (["--test-gold", gold] if os.path.isdir(gold)
                                                                      else [])
    with open(os.devnull, "w") as quiet:
        saved, sys.stdout = sys.stdout, quiet
        try:
            status = builders.load_builder(hosted, "reference").main(argv)
        finally:
            sys.stdout = saved
    if status:
        raise RuntimeError("%s: its reference builder failed (exit %s)" % (cid, status))
    return os.path.join(work, "full", "test")


def _zip(path, members):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(members.items()):
            archive.writestr(name, data)
    return path


def noisy_team(decl, full, path, noise, seed):
    """A submission zip at ``path``: the full gold of ``full`` with each item wrong with probability ``noise``."""
    kinds = set(task.kind for task in decl.TASKS)
    if lines.declares_names(decl) and kinds & set(("token_labels", "sentence_labels")):
        return results_synth.write_text_team(decl, full, path, noise, seed)
    rng = random.Random(seed)
    if "choice" in kinds:
        with open(os.path.join(full, "reference.jsonl"), encoding="utf-8") as handle:
            sets = [json.loads(line) for line in handle if line.strip()]
        answers = dict((s["id"], (s["gold"] + 1) % len(s["sentences"]) if rng.random() < noise else s["gold"])
                       for s in sets)
        return _zip(path, {"predictions.json": json.dumps(answers)})
    documents = [task for task in decl.TASKS if getattr(task, "documents", None)]
    if documents:
        task = documents[0]
        with open(os.path.join(full, lines.reference_name(decl, task, task.languages[0])), encoding="utf-8") as handle:
            docs = json.load(handle)["documents"]
        return _zip(path, dict((task.documents.format(doc=doc["name"]),
                                split.EMPTY_ANAFORA if rng.random() < noise else doc["xml"]) for doc in docs))
    return results_synth.write_team(decl, full, path, noise, seed)


def teams_folder(cid, decl, full, work, dist=None):
    """``<work>/teams/<team>/final.zip``: the kit's test baselines (those of the build in ``dist``, default the
    one of ``make``) and the noisy teams."""
    teams = os.path.join(work, "teams")
    hosted = declarations.Hosted(cid)
    if dist is None:
        dist = os.path.join(ROOT, "dist") if hosted.top_level else os.path.join(ROOT, "dist", cid)
    submissions = os.path.join(dist, "submissions")
    first = next(iter(getattr(decl, "SUBTASKS", {}) or {cid: None}))
    for name in sorted(os.listdir(submissions)) if os.path.isdir(submissions) else []:
        for form in ("-%s-test.zip" % first, "%s-test-" % cid):
            if (name.endswith(form) or name.startswith(form)) and name.endswith(".zip"):
                system = name[:-len(form)] if name.endswith(form) else name[len(form):-len(".zip")]
                os.makedirs(os.path.join(teams, "kit-" + system))
                shutil.copyfile(os.path.join(submissions, name), os.path.join(teams, "kit-" + system, "final.zip"))
    for seed, (team, noise) in enumerate(NOISY):
        noisy_team(decl, full, os.path.join(teams, team, "final.zip"), noise, seed)
    return teams


def run(cid, work):
    """Build, split, rank: the results.json dict of competition ``cid`` (its shake-up in each subtask)."""
    hosted = declarations.Hosted(cid)
    decl = hosted.declaration
    full = full_gold(cid, work)
    fraction = schedule.test_feedback(hosted.schedule)["public_fraction"]
    public, private = os.path.join(work, "ref", "test"), os.path.join(work, "ref", "private", "test")
    split.split_phase(full, hosted, feedback.PUBLIC_PRIVATE, fraction, SEED, public, private)
    teams = teams_folder(cid, decl, full, work)
    out = os.path.join(work, "results")
    argv = ["--competition", cid, "--reference", private, "--public-reference", public, "--submissions", teams,
            "--no-baselines", "--resamples", "200", "--jobs", "1", "--out", out]
    if results_main(argv) != 0:
        raise RuntimeError("%s: results failed" % cid)
    with open(os.path.join(out, "results.json"), encoding="utf-8") as handle:
        return json.load(handle)


def main(argv=None):
    """Print the shake-up table of each competition given (default: every hosted one)."""
    ids = (sys.argv[1:] if argv is None else argv) or declarations.hosted_ids()
    for cid in ids:
        work = tempfile.mkdtemp(prefix="shakeup-%s-" % cid)
        try:
            results = run(cid, work)
            for sub in results["subtasks"]:
                print("## %s (%s), ranked on %s" % (cid, sub["name"], results["ranked_on"]))
                print("\n".join(shakeup.markdown(sub, str)))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
