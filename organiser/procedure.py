"""The organisers' procedure: one generic text, filled with what each competition declares.

``docs/organisers.md`` is this module's output for every hosted competition (``python -m organiser procedure >
docs/organisers.md``; tests/test_procedure.py keeps it in sync), and every build writes its own filled copy
(``<out>/ORGANISERS.md``: its bundle names, phases and dates, test gold and test input as they are in that build).
What the platforms do, and why each step is there, is said once in :data:`GENERIC` (read from the platforms'
source: legacy CodaLab ``codalab/codalab-competitions``, Codabench ``codalab/codabench``).
"""
import argparse
import os
import sys

from organiser import declarations, feedback
from organiser import schedule as schedule_module

GENERIC = """# Running a competition of this kit on Codabench (organisers)

**Codabench is the platform.** CodaLab Competitions' public servers were phased out at the end of 2025
(Codabench's newsletter, `documentation/docs/Newsletters_Archive/CodaLab-in-2025.md`); Codabench is the public
platform left. Upload each subtask's **`<stem>-codabench.zip`** (Codabench's own v2 format). The `<stem>.zip`
beside it (v1.5) is for a **self-hosted CodaLab instance** only: Codabench accepts it, but its V15Unpacker drops
what the kit sets in it (the hidden test leaderboard, the forced last submission, the phase ends: every phase
would close a day before the next opens); `make check` lists, for each v1.5 bundle, what Codabench would make of it.

Every hosted competition goes through the same road, and this procedure is the same for all of them; the
section of each competition at the end gives its own names, phases, dates and test feedback (each build also
writes its own copy, filled with what that build holds: `dist/ORGANISERS.md`, `dist/<id>/ORGANISERS.md`).

**The whole life of a competition, in order.** Everything on the platform is done from the command line by
`python -m organiser codabench <command>` (the make targets below call it), over Codabench's REST API, on any
instance (`CODABENCH_URL` or `--base-url`; default the public one); every command does in the browser what a
click does, and says why in one line when Codabench refuses (docs/codabench.md: each call, what was recorded on a
real instance and what was read from Codabench's source). `<dist>` is `dist/` for the top-level competition and
`dist/<id>/` for a further one (add `COMPETITION=<id>` to each make target of a further competition).

| step | command | section |
|---|---|---|
| build and check | `make COMPETITION=<id> DATA=<release> [TEST_GOLD=<test gold>]`, then `make check COMPETITION=<id>` | 1 |
| your token, once | `make codabench-login`: `~/.config/codabench/token`, readable by you only (or set `CODABENCH_TOKEN`) | 4 |
| upload | `make codabench-upload BUNDLE=<dist>/bundles/<stem>-codabench.zip`: the competition's id (`CODABENCH_ID`), its address and phases | 4 |
| publish | `make codabench-publish CODABENCH_ID=<id>` | 5 |
| approve participants | `make codabench-approve CODABENCH_ID=<id> [MATCH='*@uni.example']`, as registrations come | 5 |
| phases | `make codabench-phases CODABENCH_ID=<id>`: each phase's id (`PHASE`), dates, open or closed | 5 |
| the test reference | `make codabench-reference CODABENCH_ID=<id> PHASE=<test phase> ZIP=<dist>/reference/<subtask>-test.zip` | 6 |
| open the test phase | `make codabench-open-test CODABENCH_ID=<id> PHASE=<test phase> ZIP=<dist>/public_data/<subtask>-test.zip`, at its opening | 7 |
| a gold fixed later | rebuild (the split state keeps every item's part), then `make codabench-reference ...` again (refused if the public part moved) | 6 |
| collect the submissions | `make pull PHASE=<test phase> [OUT=<folder>]`, again whenever you like: only what is new is fetched | 8 |
| the leaderboard as it stood | `make leaderboard PHASE=<test phase>`, when the phase closes | 8 |
| final results | `make results COMPETITION=<id> SUBMISSIONS=<the folder pull wrote>` | 8 |

## 1. Build and check
`make COMPETITION=<id> DATA=<release> [TEST_GOLD=<test gold>]` (ST2024: `make DATA=<release>`) runs the
competition's reference builder, splits the test gold (section 2), runs its baselines and the one bundle builder,
and writes everything to its `dist/` folder; `make check COMPETITION=<id>` checks the build by the platforms'
rules, runs every phase as the platforms' workers would, and audits it for leaks (below). Every date comes from
the competition's `schedule.yaml`: edit it and rebuild, never edit a date on the platform only. A phase accepts
submissions from the instant it opens until the instant it closes; on Codabench each phase has its own end (the
next starts one second after: Codabench refuses equal instants); on a self-hosted CodaLab a phase ends when the
next opens.

What a build holds:
- two bundles per subtask with the same pages, programs and data: `<stem>-codabench.zip` (**Codabench**, v2: the
  one to upload) and `<stem>.zip` (v1.5: a self-hosted CodaLab instance only);
- `reference/<subtask>-<phase>.zip`: each phase's reference data (also inside the bundles); the test phase's holds
  only what the platform may score (section 2); without test gold it is a placeholder
  (`TEST_REFERENCE_PENDING.txt`) and `make check` says PENDING;
- `public_data/<subtask>-test.zip`: the test input, **in no bundle and no starting kit**; the bundles' test phase
  has a placeholder public data (`TEST_DATA_PENDING.txt`) and `make check` says PENDING until you attach it;
- `starting_kit.zip`: the validator, the scoring program, the baselines' code, the development reference (to
  score development predictions locally) and the development data;
- `submissions/`: the baseline submissions (`make check` submits them; `make results` ranks them beside the teams).
Beside the build, the reference folder (`reference_data/`, `reference_data/<id>/`) keeps in `private/test/` the
gold the final ranking uses: **never upload it, never share it**. The split state `splits/<id>.json` (the seed and
every test item's part) is as secret as the gold and must outlive the build: **back it up** with the test gold;
`make clean` keeps it.

A test gold that participants can see is never silently used: a reference builder that knows its test gold is
public (SCATE's spans-only TempEval gold, SpanglishEval's sets rebuilt from the public Bangor corpus) says so,
and the build labels the test phase a **practice** phase on the platform and the pages (`make check` notes it).
Build the real one with `TEST_GOLD=<hidden gold>`.

## 2. The test phase's feedback: what participants see, and when
On Codabench each team sees its own test scores after every submission, every column, at full precision (the
submission panel: no setting hides them); any logged-in user can list every stored score of every submission
(`/api/submission_scores/`), hidden columns and leaderboards included; a hidden leaderboard is still served
(`/api/phases/<id>/get_leaderboard/`) and every phase uses the same leaderboard. So **whatever the platform's
test phase scores is public**, and the kit uploads only the gold you accept to reveal. A competition declares its
mode in its schedule (`test_feedback: {mode: public_private, public_fraction: 0.3}`, the default); `make
SCHEDULE=<file>` builds with another schedule's mode (the split of the reference and the bundles alike):

| mode | the platform's test phase scores | participants see during the test phase | the final ranking (`make results`) |
|---|---|---|---|
| `public_private` (default) | the public part: a share of the test items (`public_fraction`), drawn per file from a seed you keep; the uploaded test reference holds the gold of those items only | their scores and the leaderboard on the public part ("public part: N of M sentences" in the phase's description, the pages and each report); which items are public is not told | each team's official submission scored on the private part (`private/test/`, never uploaded), with the public rank beside the final one |
| `blind` | no gold at all: the format of every submission against the test input | only the share of items validly predicted (the leaderboard's "Valid predictions" column); the primary column (the overall score) and every other column stay empty ("n/a"), and Codabench orders the test leaderboard by that share, then by submission time (oldest first): its positions and medals rank nothing | each team's official submission scored on the whole test gold (`private/test/`) |
| `full` | the whole test gold (uploaded) | their full test scores after every submission, and the leaderboard on them | the same gold |

The split is fixed once drawn: the first build draws a random seed (`make SPLIT_SEED=<secret>` sets it) and keeps
it with every item's part in `splits/<id>.json`; every later build reuses it by item identity (the item's input),
so a gold fix, an added or removed item, or a rebuild on another machine with the file copied keeps every item in
its part, and new items are drawn with the same seed. A build that would make an item of the draw public that it
made private (another mode, another seed) is refused; `make NEW_SPLIT=1` draws anew, and `make check` then says how
many items the draws made public together (everything any uploaded public part held is public). `make check`
proves, for each build, that no file of any bundle, reference zip, public data or starting kit holds a gold item of
the private part or the split's seed, and that the uploaded test reference can score only the public part (every
other item redacted).

## 3. What participants can see, on each platform (read from the platforms' source)
| | Codabench | CodaLab Competitions (self-hosted, legacy) |
|---|---|---|
| public data and starting kit of every phase | listed to approved participants from the first day (`_tabs.tag`), its key in the public competition API; downloadable by key (`datasets/views.py`) | listed to approved participants from the first day, whatever the phase's start date (`_get_starting_kit.html`); downloadable by its key with no check (`download_dataset`) |
| detailed results of a submission | any submission's detailed results are served to anyone once the competition is published (`get_detail_result`, no permission) | `detailed_results.html` of any submission on a leaderboard is served to anyone, anonymous included, in every phase, the hidden test phase too (`MyCompetitionSubmissionOutput`); submission ids are sequential |
| a team's own test scores | always shown in the team's submission panel; no setting hides them | the Score column is hidden in the test phase (`hide_results`), but the score is in the page's source and in `/api/submission/<id>/get_score`; the scoring stdout is refused, stderr is shown |
| other teams' test scores | the leaderboard is visible in every phase (a hidden leaderboard is still served by `/api/phases/<id>/get_leaderboard/`); every stored score is listed by `/api/submission_scores/` to any logged-in user | the test leaderboard is hidden until you switch it to Default; `hide_chart` keeps the home page's chart of daily best scores off |
| logs, outputs and submitted files of other teams' submissions | served to anonymous callers for leaderboard submissions unless the phase has `hide_output` (the v2 bundles set it on the test phase) | not served (unless a team makes its own submission public) |
| each team's last submission official | `submission_rule: Force_Last` in every phase, enforced by the server, per user account | `force_submission_to_leaderboard` puts each newly scored submission on the leaderboard; in the test phase (`hide_results`) the server refuses any other change; in the development phase the button is hidden (`disallow_leaderboard_modifying`) but the API still lets a team choose its entry; in every phase a team that deletes its latest submission removes its entry |

What the kit does about it, so that nothing a participant can reach reveals the gold that decides the ranking:
- **The test gold.** Only the part that section 2's mode gives away is uploaded; the rest stays in
  `private/test/` and is used by `make results` only.
- **Reports.** The scoring program reads whose gold a phase has (`phase.json` in its reference data). In the
  development phase (its gold is in the starting kit) a report shows everything; in the test phase it shows the
  team's scores and the messages about its submission's format only: no per-label, per-item or per-document
  table, no count of gold items. It stays safe if the platform shows it to everyone.
- **Test input.** Written apart and attached by you when the test phase opens (below); it is in no bundle, page or
  starting kit, because both platforms show every phase's public data from the first day.
- **The leak audit** of `make check` runs each bundle's own scoring program on a few submissions against each
  hidden reference and against a scrambled copy of it (any text that differs, numbers aside, is a leak), looks for
  the hidden gold's strings in what the program prints, for hidden gold items in every public file (a gap-filling
  sentence readable from another task's public input, a reference copied into public data), for the test
  input in anything reachable before the test phase opens, and for the private part's gold in everything uploaded
  (section 2). A Codabench bundle has its CodaLab twin's members (`make check` says so and audits them there).
- **Official results** come from `make results`: it re-scores each team's last submission that the platform
  scored in the test phase, as `make pull` (or the platform's bulk download) fetched it, on the gold kept apart,
  whatever the leaderboard shows.
- **Codabench, snapshot of the source read:** a task's reference data key appears in the public competition API
  and a dataset could be downloaded by key without a check; Codabench's later changes (PR #2348, "Add permission
  check to datasets/download") are reported to close this. Mode `public_private` or `blind` makes it harmless
  for the ranking (the uploaded reference holds no private gold); in mode `full`, check on your instance that
  `/datasets/download/<key>/` refuses an anonymous caller before the test gold is uploaded.

## 4. Upload (once per bundle)
**Codabench.** Once, `make codabench-login` (`python -m organiser codabench login`: your user name and password,
asked and never written, give the account's API token, kept in `~/.config/codabench/token`, readable by you only;
or set `CODABENCH_TOKEN`; a token file others can read is refused). Then `make codabench-upload
BUNDLE=<dist>/bundles/<stem>-codabench.zip` (`python -m organiser codabench upload <bundle>`) uploads the bundle as
the upload page does, waits until Codabench has unpacked it and prints the competition's id, its address and its
phases, or the unpacking error Codabench reports. (In the browser: *Benchmarks / Competitions*, *Management*,
*Upload*, `<stem>-codabench.zip`.) In the editor,
compare each phase's start and end with the schedule; the leaderboard's submission rule must be "Force Last",
"show detailed results in leaderboard" off, the test phase's "hide output" on. **Only the account that uploaded
the bundle can later edit its tasks** (a task's reference data: `api/views/tasks.py` refuses anyone else, even a
collaborator): keep that account (its token) for the test gold. Do not upload `<stem>.zip` to Codabench (see the
top): its submissions would reach the leaderboard only when put there (`python -m organiser codabench connect
--phase <id>` puts each team's newest finished one there).

**A self-hosted CodaLab instance.** *My Competitions*, *Create Competition*, upload `<stem>.zip`. In *Edit*,
compare each phase's start date and the competition's end date with the schedule; leave "Force submission to
leaderboard" and "Disallow leaderboard modifying" on, the test phase's leaderboard mode on "Hide results". The
account that uploads owns the bundle's datasets: it is the one that can later replace a dataset's file in place.

Never re-upload a rebuilt bundle once the competition is live: that creates a new competition (registrations and
submissions are lost). Everything that changes later is data, attached as below.

## 5. Publish and approve
Publish the competition: nobody can register before (Codabench: `make codabench-publish CODABENCH_ID=<id>`, or
*Publish* in the editor; CodaLab: *Publish*). Registration needs approval on both (`registration_auto_approve:
false`, `has_registration: true`): each team waits until you approve it. Codabench: `make codabench-approve
CODABENCH_ID=<id>` approves every pending registration (`MATCH='*@uni.example'`: only the user names or e-mails
that match; `python -m organiser codabench participants --competition <id>` lists them, `--deny` refuses), or
*Participants* in the browser; CodaLab: *Participants*. Only approved participants see the Files tab (public data
and starting kits). `make codabench-phases CODABENCH_ID=<id>` lists the phases with their ids (the `PHASE=` of the
commands below), dates and whether each is open.

## 6. Add the test reference (before the test phase opens)
Build it: `make COMPETITION=<id> DATA=<release> TEST_GOLD=<test gold>` writes `reference/<subtask>-test.zip` (the
part section 2's mode uploads) and keeps the rest in the reference folder's `private/test/`; `make check` now
runs and audits the test phase. Give `PUBLIC=<folder[:folder...]>` to both the build and `make check` with the public
corpora your data came from (the competition's declared sources are named as not searched until a `PUBLIC` folder
holds them): the contamination audit says which test items, and whose gold, can be found in public data (those
corpora and the release's own public files; `contamination.md` beside the build), and a test file whose ranked part
has its gold in public data beyond the schedule's `test_feedback.contamination.max_share` fails `make check` until you
take those items out of the test gold or acknowledge the file there (the test phase's page then says what
participants could look up, and `make results` also ranks on the items whose gold is found nowhere public). Upload `reference/<subtask>-test.zip`, never anything of `private/`, per subtask:
- **Codabench** (with the token of the account that uploaded the bundle): `make codabench-reference
  CODABENCH_ID=<id> PHASE=<test phase> ZIP=<dist>/reference/<subtask>-test.zip` uploads it as a Reference Data
  dataset and makes it the reference data of the test phase's task (its scoring program kept). It refuses the
  private part, the placeholder, and a public part drawn otherwise than the private part the build kept
  (`private/test/split.json`) or than the reference the phase has now (read from Codabench, or `--previous
  <zip>`). A gold fixed once the competition runs goes the same way: rebuild (the split state `splits/<id>.json`
  keeps every item in its part, section 2), then the same command; a public part drawn with another seed than the
  phase's (a rebuild without the split state, or `NEW_SPLIT=1`), or one that makes other items of a file public, is
  refused unless you give `--new-draw`: the public part is what participants have seen scored. (In the browser: *Resources*, *Datasets*, *Add*, type
  **Reference Data**, `reference/<subtask>-test.zip`; *Resources*, *Tasks*, the test phase's task, *Reference
  data*: the new dataset; *Save*.)
- **Self-hosted CodaLab:** *My Datasets*, *Create dataset*, type **Reference Data**, the same zip; then the
  competition's *Edit*, the test phase, *Reference Data*: the new dataset; *Save*.

Then check: submit `submissions/baseline-…-test.zip` (or `<id>-test-baseline.zip`) to the test phase once it is
open, compare its scores with what the scoring program gives locally on `reference/<subtask>-test.zip`, and
remove that submission.

## 7. Release the test input (when the test phase opens)
At the test phase's opening instant (section of the competition below), per subtask:
- **Codabench:** `make codabench-open-test CODABENCH_ID=<id> PHASE=<test phase>
  ZIP=<dist>/public_data/<subtask>-test.zip` uploads it as Public Data and attaches it to the test phase; it
  refuses before the phase opens (`--wait`: waits for the opening, then attaches). (In the browser: *Resources*,
  *Datasets*, *Add*, type **Public Data**, `public_data/<subtask>-test.zip`; the editor, *Phases*, the test phase,
  *Public Data*: the new dataset; *Save*.)
- **Self-hosted CodaLab:** *My Datasets*, *Create dataset*, type **Public Data**, the same zip; the competition's
  *Edit*, the test phase, *Public Data*: the new dataset; *Save* (it is listed at once). Or, as the account that
  uploaded the bundle, replace the file of the test phase's placeholder public data in *My Datasets*, *Edit*
  (same key and link).

No platform has a setting that releases data at a date: this step is yours.

## 8. After the test phase: results
1. Collect each team's official submission of the test phase. Codabench: `make pull PHASE=<test phase>
   [OUT=<folder>]` (default `<dist>/codabench/phase-<id>/`) downloads, byte for byte, each team's submission that
   counts (the one on the leaderboard: with the bundles' Force Last, the team's last one the platform scored; a
   rerun counts as the team's newest) into `<team>/<id>_<name>.zip`, with `codabench-manifest.json` (and `.csv`:
   submission id, team, date, status, size, sha256). Run it as often as you like: it fetches only what is new or
   changed, removes a file that no longer counts, and lists, without fetching them, the submissions that failed or
   are still running (Codabench marks a submission Finished before it stores its scores: `pull` waits for them).
   `--all` fetches every finished submission (for `RESULTS_OPTIONS=--official=best`), `--exclude <user>` leaves
   out an account (your own test submission). The web interface's bulk download has failed with HTTP 405 since
   2026-02 (codabench#2184); `pull` asks the API for the files instead. Without the API, "download selected
   submissions" (with the submissions CSV beside the zip) when it works, else each team's official submission
   from its row, one by one, into a folder `<team>/<name>.zip` (one folder per team; when a team's folder holds
   several files, the latest file time is its official one). Self-hosted CodaLab: the phase's "download all
   results".
2. `make leaderboard PHASE=<test phase>` keeps the leaderboard as it stands (once every row has all its scores)
   in `<dist>/results/leaderboards/leaderboard-phase<id>-<time>.json` and `.csv`, beside the results: take one
   when the phase closes, the platform keeps no record of it.
3. `make results COMPETITION=<id> SUBMISSIONS=<download zip or folder>`: each team's official submission
   re-scored on the gold kept apart (`private/test/`: the private part in mode `public_private`, the whole test
   gold in modes `blind` and `full`), ranked with paired-bootstrap intervals and significance on that part; in
   mode `public_private` the tables (`results.md`, `.tex`, `.html`, `ranking.csv`) show each team's public rank
   (on the part the platform scored) beside its final rank, with the shake-up (Spearman's rho, Kendall's tau-b,
   the teams that moved). A public part drawn with another seed than the private one (their `split.json`'s
   `seed_digest` differ: the two folders come from different builds) is refused: rebuild both with one seed. With
   the build's `contamination.json` (the contamination audit), each official submission is also scored on the
   ranked items whose gold is found nowhere public, and that ranking is shown beside the final one when they differ.
   The folder `pull` wrote is read through its manifest (teams as Codabench names them, submission ids for the
   order, statuses; a file changed or missing since the pull is refused). The platform's own overall score of
   each submission (the scores the pull recorded, or a CodaLab download's `scores.txt`) is shown beside the
   re-scored one and compared with the kit's re-score of the part the platform scored (the public part in mode
   `public_private`): each difference is a note in `results.md`, and one note counts the submissions that agree.
4. Publish the results (`results.md`, `results.html`): on Codabench the leaderboard shows the public part's
   scores (or, in mode `blind`, the share of valid predictions) and stays as it is; the final ranking is `make
   results`'s. On a self-hosted CodaLab: *Edit*, the test phase, *Leaderboard mode*: "Default", *Save*.
"""

SECTION = """### {title} (`{cid}`)
- Build: `{make}`; check: `{check}`.
- Bundles: {bundles}.
- Phases (UTC, from `{schedule}`):

{phases}
- Results notification: {notification}.
- Test gold: {test_gold}
- Test feedback: {feedback}
- Contamination audit: {contamination}
- Test input to release when the test phase opens: {test_input}.
{notes}"""


#: What ORGANISERS.md says of the contamination audit without a build.
CONTAMINATION = ("`make` and `make check` search the test gold in the release's public files and in every corpus "
                 "given with `PUBLIC=dir[:dir...]` (`contamination.md` beside the build; docs/test_feedback.md).")


def competition_section(hosted, manifest=None):
    """The section of one competition: its commands, bundle names, phases and dates, test gold and test input
    (``manifest``: a build's ``build.json``, for what that build holds; None: what the declaration implies)."""
    schedule = schedule_module.load(hosted.schedule)
    make = "make DATA=<release>" if hosted.top_level else "make COMPETITION=%s DATA=<release>" % hosted.cid
    check = "make check" if hosted.top_level else "make check COMPETITION=%s" % hosted.cid
    stems = [hosted.stem(subtask) for subtask in hosted.subtasks()]
    rows = ["  | phase | opens | closes |", "  |---|---|---|"]
    for name, window in schedule.phases.items():
        rows.append("  | `%s` | %s | %s |" % (name, schedule_module.human(window.opens),
                                             schedule_module.human(window.closes)))
    state = (manifest or {}).get("test_state")
    if state == "pending":
        gold = "not in this build: the test phase has the placeholder; add `TEST_GOLD=<test gold>` (section 6)."
    elif state == "practice":
        gold = ("public (%s): this build's test phase is a labelled PRACTICE phase; build the real one with "
                "`TEST_GOLD=<hidden test gold>`." % manifest.get("practice_reason", ""))
    elif state == "real":
        gold = ("in this build: `reference/<subtask>-test.zip` is what the platform may score (upload it as section 6 "
                "says), the reference folder's `private/test/` what the final ranking uses (never upload it).")
        left_out = manifest.get("test_left_out") or {}
        if any(left_out.values()):
            gold += " It holds no gold for some languages, LEFT OUT of the test phase (not scored; named in its " \
                    "description and on the pages): %s." % "; ".join(
                        "%s: %s" % (subtask, ", ".join(langs)) for subtask, langs in sorted(left_out.items()) if langs)
    else:
        gold = "give `TEST_GOLD=<test gold>` to the build (section 6); without it, a placeholder."
    test_inputs = (manifest or {}).get("test_input")
    if test_inputs is None:
        test_inputs = ["public_data/%s-test.zip" % subtask for subtask in hosted.subtasks()]
    return SECTION.format(
        title=hosted.declaration.TITLE, cid=hosted.cid, make=make, check=check,
        bundles=", ".join("`%s-codabench.zip` (Codabench: upload this) and `%s.zip` (self-hosted CodaLab only)"
                          % (s, s) for s in stems),
        feedback=feedback_line(hosted, manifest),
        contamination=(manifest or {}).get("contamination") or CONTAMINATION,
        schedule=os.path.relpath(hosted.schedule, declarations.ROOT), phases="\n".join(rows),
        notification=schedule_module.human(schedule.results_notification), test_gold=gold,
        test_input=", ".join("`%s`" % t for t in test_inputs) or "none in this build",
        notes="".join("- %s\n" % " ".join(note.split()) for note in declarations.wording(hosted.cid)["organiser_notes"]))


def feedback_line(hosted, manifest=None):
    """The competition's test feedback in words: its mode (the build's ``split.json`` when ``manifest``, a build's
    ``build.json``, names a reference folder that has one; else the schedule's ``test_feedback``), the public
    part's size in this build, what participants see and how the final ranking is made (organiser.feedback)."""
    split = None
    if manifest and manifest.get("reference"):
        try:
            split = feedback.read_split(os.path.join(manifest["reference"], "test"))
        except ValueError:
            split = None
    if split is not None:
        return "mode `%s` (this build). %s" % (split["mode"], feedback.what_participants_see(split))
    declared = schedule_module.test_feedback(hosted.schedule)
    text = "mode `%s` (`test_feedback` of `%s`)" % (declared["mode"], os.path.relpath(hosted.schedule,
                                                                                      declarations.ROOT))
    if declared["mode"] == feedback.PUBLIC_PRIVATE:
        text += ", public fraction %g" % declared["public_fraction"]
    return "%s. %s" % (text, feedback.what_participants_see({"mode": declared["mode"], "files": {}}))


def document(cids=None):
    """``docs/organisers.md``: the generic procedure, then one section per hosted competition."""
    cids = cids or declarations.hosted_ids()
    sections = [competition_section(declarations.Hosted(cid)) for cid in cids]
    return GENERIC + "\n## 9. Each competition\n\n" + "\n".join(sections)


#: Section 8 of the tracked ``docs/organisers.md``: the sections of the competitions are built, never tracked, so
#: that adding a competition leaves the tracked file as it is.
EACH_COMPETITION = """
## 9. Each competition

Each competition's own section (its commands, bundles, phases and dates, test gold and test input) is generated from
its declaration and schedule: `make` writes every competition's to `dist/organisers.md`
(`python -m organiser procedure` prints them), and each build its own to `dist/<id>/ORGANISERS.md` (ST2024's:
`dist/ORGANISERS.md`), as that build holds them.
"""


def tracked_document():
    """``docs/organisers.md`` as tracked: the generic procedure and where each competition's section is built (no
    competition's facts: a new competition never makes it stale)."""
    return GENERIC + EACH_COMPETITION


def build_copy(hosted, manifest):
    """A build's own ``ORGANISERS.md``: the generic procedure and the section of its competition as built."""
    return GENERIC + "\n## 9. This build\n\n" + competition_section(hosted, manifest)


def main(argv=None):
    """``python -m organiser procedure [--competition ID]``: print the procedure (every competition by default)."""
    parser = argparse.ArgumentParser(prog="python -m organiser procedure", description=__doc__.split("\n")[0])
    parser.add_argument("--competition", action="append", help="only this competition (repeatable)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    sys.stdout.write(document(args.competition))
    return 0


if __name__ == "__main__":
    sys.exit(main())
