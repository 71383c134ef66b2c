"""The organiser's commands on a Codabench competition, one function per command (``python -m organiser codabench
<command>``): ``login``, ``upload``, ``publish``, ``participants``, ``phases``, ``reference``, ``open-test``,
``connect``; ``pull`` and ``leaderboard`` are in :mod:`organiser.codabench.pull`.

Each function takes the parsed arguments, a :class:`~organiser.codabench.client.Client` and ``out`` (what the
command reports: stdout) and returns the exit status. Which calls were recorded on a real instance and which were
read from Codabench's source only is said at each call (``recorded NN``: the file of
``../shared/platforms/codabench-api/``; ``source``: ``codalab/codabench`` at c7dbc756).
"""
import datetime
import fnmatch
import getpass
import json
import os
import tempfile
import time
import zipfile

from organiser import ROOT
from organiser.results import names

from .client import CodabenchError, token_file_path, write_token

#: A phase's status as Codabench computes it from its dates (``PhaseSerializer.get_status``), in words.
PHASE_STATES = {"Current": "open", "Previous": "closed", "Next": "not yet open"}
#: Creation statuses of an uploaded bundle (``CompetitionCreationTaskStatus``).
UNPACKED, UNPACK_FAILED = "Finished", "Failed"
PARTICIPANT_STATUSES = ("pending", "approved", "denied", "unknown")
SPLIT_FILE = "split.json"
PLACEHOLDERS = ("TEST_REFERENCE_PENDING.txt", "TEST_DATA_PENDING.txt")


def competition_address(client, competition_id):
    """The competition's page on the instance."""
    return "%s/competitions/%d/" % (client.base_url, competition_id)


def competition_detail(client, competition_id):
    """``GET /api/competitions/<id>/`` (recorded 08): phases, leaderboards, published, participant status."""
    return client.get("/api/competitions/%d/" % competition_id, "reading competition %d" % competition_id,
                      "competition %d" % competition_id)


def find_phase(detail, phase_id):
    """The phase ``phase_id`` of a competition's detail (CodabenchError naming the phases it has)."""
    for phase in detail.get("phases") or []:
        if phase.get("id") == phase_id:
            return phase
    raise CodabenchError("competition %s has no phase %d (its phases: %s)" % (
        detail.get("id"), phase_id, ", ".join("%s %s" % (p.get("id"), p.get("name")) for p in detail.get("phases")
                                              or []) or "none"), 2)


def submission_rule(detail):
    """The leaderboard's submission rule (every phase of a Codabench competition uses its first leaderboard)."""
    boards = detail.get("leaderboards") or []
    return boards[0].get("submission_rule") if boards else None


def _stamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _zip_file(path, option):
    """``path`` when it is a readable zip file, else CodabenchError (exit 2) naming it and its ``option``."""
    if not os.path.isfile(path):
        raise CodabenchError("%s %s is not a file" % (option, path), 2)
    if not zipfile.is_zipfile(path):
        raise CodabenchError("%s %s is not a zip file" % (option, path), 2)
    return path


# --------------------------------------------------------------------------------------------------------- login
def login(args, client, out):
    """Exchange a user name and password for the account's API token (``POST /api/api-token-auth/``, recorded 01,
    02) and write it to the token file, readable by its owner only. The password is read from the terminal (or
    ``$CODABENCH_PASSWORD``) and never written anywhere."""
    path = os.path.abspath(token_file_path(args.token_file))
    dist = os.path.join(ROOT, "dist") + os.sep
    if path.startswith(dist):
        raise CodabenchError("the token file %s would be inside dist/, which is built, shared and uploaded: keep it "
                             "outside the repository (default %s)" % (path, token_file_path()), 2)
    username = args.username or input("Codabench user name on %s: " % client.base_url).strip()
    password = os.environ.get("CODABENCH_PASSWORD") or getpass.getpass("password of %s: " % username)
    body = client.call("POST", "/api/api-token-auth/", "logging in to %s as %s" % (client.base_url, username),
                       data={"username": username, "password": password}, idempotent=True, expect=(200,))
    token = body.get("token") if isinstance(body, dict) else None
    if not token:
        raise CodabenchError("logging in to %s: the answer holds no token" % client.base_url)
    write_token(token, path)
    out("token of %s on %s written to %s (readable by you only); the commands read it from there" % (
        names.shown(username), client.base_url, path))
    return 0


# -------------------------------------------------------------------------------------------------------- upload
def upload_dataset(client, path, kind, name=None):
    """Codabench's upload flow for one file (recorded 03-05 for a bundle, 18-19 for a submission): ``POST
    /api/datasets/`` gives a key and a presigned URL, the bytes are PUT there, ``PUT
    /api/datasets/completed/<key>/`` closes it (a bundle: starts unpacking, ``{"status_id"}``; any other type:
    ``{"key"}``, source). Returns ``(key, answer of completed)``."""
    base = os.path.basename(path)
    body = {"type": kind, "request_sassy_file_name": base, "file_size": os.path.getsize(path)}
    if name:
        body["name"] = name
    created = client.call("POST", "/api/datasets/", "creating the upload of %s" % base, json=body, expect=(201,))
    if not isinstance(created, dict) or not created.get("key") or not created.get("sassy_url"):
        raise CodabenchError("creating the upload of %s: the answer holds no key and upload URL" % base)
    client.upload(created["sassy_url"], path, "uploading %s" % base)
    # PUT, but not to be repeated blindly: for a bundle each call starts an unpacking (a second competition)
    done = client.call("PUT", "/api/datasets/completed/%s/" % created["key"], "closing the upload of %s" % base,
                       "upload", idempotent=False)
    return created["key"], done


def upload(args, client, out):
    """Upload a built bundle and wait for Codabench to unpack it; say the competition's id, address and phases,
    or the unpacking error Codabench reports."""
    bundle = _zip_file(args.bundle, "the bundle")
    name = os.path.basename(bundle)
    if not name.endswith("-codabench.zip"):
        client.log("upload: %s is not a `*-codabench.zip` (Codabench's v2 bundle); a v1.5 bundle loses on Codabench "
                   "what `make check` lists, and its submissions reach the leaderboard only with `connect`" % name)
    _, done = upload_dataset(client, bundle, "competition_bundle")
    status_id = done.get("status_id") if isinstance(done, dict) else None
    if status_id is None:
        raise CodabenchError("closing the upload of %s: Codabench started no unpacking (no status_id)" % name)
    deadline, last = time.time() + args.wait_limit, None
    while True:
        # recorded 06 (Starting), 07 (Finished); 76: an unknown id is a 404
        state = client.get("/api/competitions/%d/creation_status/" % status_id, "unpacking %s" % name,
                           "unpacking status %d" % status_id)
        status = state.get("status")
        if status != last:
            client.log("upload: %s: %s" % (name, status))
            last = status
        if status == UNPACKED:
            break
        if status == UNPACK_FAILED:
            raise CodabenchError("Codabench could not unpack %s: %s" % (name, client.sanitise(
                state.get("details") or "no details given")))
        if time.time() > deadline:
            raise CodabenchError("unpacking %s: still %s after %d s; its state: %s/api/competitions/%d/"
                                 "creation_status/" % (name, status, args.wait_limit, client.base_url, status_id))
        time.sleep(args.poll)
    competition_id = state.get("resulting_competition")
    if not isinstance(competition_id, int):
        raise CodabenchError("unpacking %s: Codabench says Finished but names no competition (%r)"
                             % (name, competition_id))
    detail = competition_detail(client, competition_id)
    out("competition %d: %s" % (competition_id, names.shown(detail.get("title") or "")))
    out("address: %s" % competition_address(client, competition_id))
    out("published: %s" % ("yes" if detail.get("published") else
                           "no (next: python -m organiser codabench publish --competition %d)" % competition_id))
    _print_phases(detail, out)
    return 0


# ------------------------------------------------------------------------------------------------------- publish
def publish(args, client, out):
    """Publish the competition (``POST /api/competitions/<id>/toggle_publish/``, recorded 09; refused to a
    participant, 61). The call toggles, so the state is read first and the call is never repeated blindly: after
    a failure the state is read again."""
    cid = args.competition
    want = not args.unpublish
    detail = competition_detail(client, cid)
    if bool(detail.get("published")) == want:
        out("competition %d is already %s" % (cid, "published" if want else "unpublished"))
        return 0
    what = "%s competition %d" % ("publishing" if want else "unpublishing", cid)
    try:
        client.call("POST", "/api/competitions/%d/toggle_publish/" % cid, what, "competition %d" % cid)
    except CodabenchError as error:
        if bool(competition_detail(client, cid).get("published")) != want:
            raise
        client.log("%s: the answer was lost (%s), but the competition is now as asked" % (what, error))
    out("competition %d is %s: %s" % (cid, "published" if want else "unpublished", competition_address(client, cid)))
    if want and detail.get("registration_auto_approve") is False:
        out("registrations wait for your approval: python -m organiser codabench participants --competition %d "
            "--approve" % cid)
    return 0


# -------------------------------------------------------------------------------------------------- participants
def participants(args, client, out):
    """List a competition's participants (``GET /api/participants/?competition=<id>[&status=]``, recorded 12, 15,
    16), those matching ``--match`` (a shell pattern on the user name or e-mail); with ``--approve`` (``--deny``)
    set each pending one among them to approved (denied) (``PATCH /api/participants/<id>/``, recorded 14; 83: a
    status that is not a choice is a 400; source: setting the status it already has is a 400 too, taken as done)."""
    cid = args.competition
    params = {"competition": cid}
    if args.status:
        params["status"] = args.status
    rows = client.get_all("/api/participants/", "listing the participants of competition %d" % cid,
                          "competition %d" % cid, params)
    if not rows and not args.status:
        # the organiser is always listed (approved) in its own competition (recorded 12); a participant's token
        # gets an empty list, not a refusal (recorded 56)
        raise CodabenchError("competition %d: no participant listed: Codabench lists none to an account that is not "
                             "an organiser of the competition (or there is no competition %d)" % (cid, cid))
    if args.match:
        pattern = args.match.lower()
        rows = [r for r in rows if fnmatch.fnmatchcase((r.get("username") or "").lower(), pattern)
                or fnmatch.fnmatchcase((r.get("email") or "").lower(), pattern)]
    target = "approved" if args.approve else "denied" if args.deny else None
    changed = 0
    out("%-6s %-22s %-24s %s" % ("id", "status", "user", "e-mail"))
    for row in rows:
        status = row.get("status")
        if target and status == "pending":
            what = "setting %s's participation in competition %d to %s" % (names.shown(row.get("username") or ""),
                                                                          cid, target)
            try:
                row = client.call("PATCH", "/api/participants/%d/" % row["id"], what, "participant %d" % row["id"],
                                  json={"status": target})
            except CodabenchError as error:
                if "already set to" not in str(error):
                    raise
                row = dict(row, status=target)
            changed += 1
            status = "%s (was pending)" % row.get("status")
        out("%-6s %-22s %-24s %s" % (row.get("id"), status, names.shown(row.get("username") or ""),
                                     names.shown(row.get("email") or "")))
    pending = sum(1 for r in rows if r.get("status") == "pending")
    out("%d participant(s) listed%s%s" % (len(rows), ", %d set to %s" % (changed, target) if target else "",
                                          ", %d pending: approve with --approve" % pending if pending and not target
                                          else ""))
    return 0


# -------------------------------------------------------------------------------------------------------- phases
def phases(args, client, out):
    """The competition's phases: ids, names, dates, open or closed, limits, tasks, public data (recorded 08)."""
    detail = competition_detail(client, args.competition)
    if args.json:
        out(json.dumps(phase_summary(detail), indent=1, ensure_ascii=False))
        return 0
    out("competition %d: %s (%s)" % (args.competition, names.shown(detail.get("title") or ""),
                                     "published" if detail.get("published") else "not published"))
    _print_phases(detail, out)
    return 0


def phase_summary(detail):
    """``[{id, name, state, start, end, ...}]`` of a competition's phases."""
    rule = submission_rule(detail)
    rows = []
    for phase in detail.get("phases") or []:
        public = phase.get("public_data") or {}
        rows.append({"id": phase.get("id"), "name": phase.get("name"), "state": PHASE_STATES.get(phase.get("status"),
                                                                                                phase.get("status")),
                     "start": phase.get("start"), "end": phase.get("end"), "hide_output": phase.get("hide_output"),
                     "max_per_day": phase.get("max_submissions_per_day"),
                     "max_total": phase.get("max_submissions_per_person"),
                     "tasks": [{"id": t.get("id"), "name": t.get("name")} for t in phase.get("tasks") or []],
                     "public_data": public.get("name") if isinstance(public, dict) else None,
                     "submission_rule": rule})
    return rows


def _print_phases(detail, out):
    out("%-6s %-14s %-13s %-22s %-22s %s" % ("phase", "name", "state", "opens (UTC)", "closes (UTC)", "tasks"))
    for row in phase_summary(detail):
        out("%-6s %-14s %-13s %-22s %-22s %s" % (
            row["id"], names.shown(row["name"] or "")[:14], row["state"], row["start"] or "", row["end"] or "never",
            ", ".join("%s %s" % (t["id"], names.shown(t["name"] or "")) for t in row["tasks"])))
    rule = submission_rule(detail)
    if rule:
        out("leaderboard rule: %s%s" % (rule, "" if rule.startswith("Force") else
                                        " (submissions reach the leaderboard only when put there: `connect`)"))


# ----------------------------------------------------------------------------------------------------- reference
def zip_split(path):
    """``(split.json as a dict or None, names of the zip)``."""
    with zipfile.ZipFile(path) as archive:
        members = archive.namelist()
        if SPLIT_FILE not in members:
            return None, members
        try:
            return json.loads(archive.read(SPLIT_FILE).decode("utf-8")), members
        except ValueError as error:
            raise CodabenchError("%s: its %s is not JSON (%s)" % (path, SPLIT_FILE, error), 2)


def split_changes(before, after):
    """``(changes, notes)`` between two ``split.json`` of a test phase's uploaded reference (the public part):
    ``changes`` (another seed; a file of the same items with other items public) refuse the new one, ``notes`` say
    what positions cannot tell (a file whose items were added or removed: the build's split state kept each item's
    part by its identity, docs/test_feedback.md)."""
    if before is None or after is None:
        return [], []
    changes, notes = [], []
    if before.get("seed_digest") != after.get("seed_digest"):
        changes.append("drawn with another seed (seed digest %s, was %s)" % (after.get("seed_digest"),
                                                                          before.get("seed_digest")))
    old, new = before.get("files") or {}, after.get("files") or {}
    for name in sorted(set(old) | set(new)):
        if name not in old or name not in new:
            notes.append("%s is %s" % (name, "new" if name not in old else "no longer there"))
            continue
        was, now = set(old[name].get("indices") or []), set(new[name].get("indices") or [])
        if old[name].get("items") != new[name].get("items"):
            notes.append("%s: %s items, was %s (not compared by position)" % (name, new[name].get("items"),
                                                                          old[name].get("items")))
        elif was != now:
            changes.append("%s: %d item(s) made public that were not (%s), %d no longer public" % (
                name, len(now - was), ", ".join(str(i) for i in sorted(now - was)[:5]), len(was - now)))
    return changes, notes


def reference(args, client, out):
    """Replace the reference data of a phase's task by a rebuilt reference zip (a gold fixed after the upload),
    keeping the public/private split: refused when the zip is the private part, the placeholder, or a public
    part drawn otherwise than the private part kept (``--private``) or than the reference the phase has now (read
    from Codabench, or ``--previous``), unless ``--new-draw``.

    Calls: the dataset upload flow (type ``reference_data``; recorded 03-05 for a bundle), the competition's
    detail (recorded 08: the phase's tasks and their datasets), the current reference read through
    ``/datasets/download/<key>/`` (source: a redirect to a presigned URL), ``PATCH /api/tasks/<id>/`` (source:
    ``TaskViewSet.update`` sets to none every data field the request leaves out, so the task's scoring program,
    ingestion program and input data are sent as they are; only the task's creator or a superuser may change it).
    """
    path = _zip_file(args.zip, "--zip")
    split, members = zip_split(path)
    if any(m.rsplit("/", 1)[-1] in PLACEHOLDERS for m in members):
        raise CodabenchError("%s is the placeholder of a build without test gold: build with "
                             "TEST_GOLD=<test gold> first" % path, 2)
    if split is not None and split.get("part") == "private":
        raise CodabenchError("%s holds the private part of the test gold (split.json part private): it "
                             "is never uploaded; upload the build's reference/<subtask>-test.zip" % path, 2)
    if split is not None and args.private:
        private_file = os.path.join(args.private, SPLIT_FILE)
        if os.path.isfile(private_file):
            with open(private_file, encoding="utf-8") as handle:
                private = json.load(handle)
            if private.get("seed_digest") != split.get("seed_digest"):
                raise CodabenchError("the public part %s was drawn with another seed (%s) than the "
                                     "private part %s (%s): the final ranking would not be on the other items; "
                                     "rebuild both in one build" % (path, split.get("seed_digest"), args.private,
                                                                    private.get("seed_digest")), 2)
    detail = competition_detail(client, args.competition)
    phase = find_phase(detail, args.phase)
    task = _phase_task(phase, args.task)
    datasets = dict((d.get("type"), d) for d in task.get("public_datasets") or [])
    current = datasets.get("reference_data")
    before = _previous_split(client, args, current)
    changes, notes = split_changes(before, split)
    for note in notes:
        client.log("reference: %s" % note)
    if changes and not args.new_draw:
        raise CodabenchError("the public part would change (%s): the split must stay as uploaded, or "
                             "participants' public scores and the final ranking's part move; give --new-draw to "
                             "accept a new draw" % "; ".join(changes[:4]), 2)
    stem = os.path.splitext(os.path.basename(path))[0]
    key, _ = upload_dataset(client, path, "reference_data", "%s %s" % (stem, _stamp()))
    fields = {"reference_data": key}
    for field in ("scoring_program", "ingestion_program", "input_data"):
        fields[field] = (datasets.get(field) or {}).get("key")
    client.call("PATCH", "/api/tasks/%d/" % task["id"], "setting the reference data of task %d" % task["id"],
                "task %d" % task["id"], json=fields)
    after = find_phase(competition_detail(client, args.competition), args.phase)
    now = dict((d.get("type"), d) for d in _phase_task(after, task["id"]).get("public_datasets") or [])
    if (now.get("reference_data") or {}).get("key") != key:
        raise CodabenchError("Codabench accepted the change but task %d still shows another reference "
                             "data: check the task in Resources, Tasks" % task["id"])
    out("phase %d (%s), task %d: reference data is now %s (was %s)" % (
        args.phase, names.shown(phase.get("name") or ""), task["id"], os.path.basename(path),
        names.shown((current or {}).get("name") or "none")))
    if split is not None:
        out("public part: %d of %d %s, seed digest %s%s" % (
            sum(f.get("scored", 0) for f in split.get("files", {}).values()),
            sum(f.get("items", 0) for f in split.get("files", {}).values()), split.get("unit", "items"),
            split.get("seed_digest"), ", a new draw (--new-draw)" if args.new_draw else
            ", as before" if before is not None else ""))
    return 0


def _phase_task(phase, task_id=None):
    tasks = phase.get("tasks") or []
    if task_id is not None:
        for task in tasks:
            if task.get("id") == task_id:
                return task
        raise CodabenchError("phase %s has no task %d (its tasks: %s)" % (
            phase.get("id"), task_id, ", ".join(str(t.get("id")) for t in tasks) or "none"), 2)
    if len(tasks) != 1:
        raise CodabenchError("phase %s has %d tasks: say which with --task (%s)" % (
            phase.get("id"), len(tasks), ", ".join("%s %s" % (t.get("id"), t.get("name")) for t in tasks)), 2)
    return tasks[0]


def _previous_split(client, args, current):
    """The ``split.json`` of the reference the phase has now: ``--previous``, else read from Codabench; None for a
    placeholder or a reference without a split."""
    if args.new_draw:
        return None
    if args.previous:
        return zip_split(_zip_file(args.previous, "--previous"))[0]
    if not current or not current.get("key"):
        return None
    what = "reading the phase's current reference data"
    response = client.send("GET", client.url("/datasets/download/%s/" % current["key"]), what, True, auth=False,
                           allow_redirects=False)
    location = response.headers.get("Location")
    response.close()
    if response.status_code not in (301, 302, 303, 307) or not location:
        raise CodabenchError("%s (to check that the split is kept): Codabench answered %d; give --previous <the "
                             "reference zip uploaded before>, or --new-draw" % (what, response.status_code), 2)
    descriptor, target = tempfile.mkstemp(suffix=".zip")
    os.close(descriptor)
    try:
        client.download(client.url(location) if location.startswith("/") else location, target, what)
        return zip_split(target)[0] if zipfile.is_zipfile(target) else None
    finally:
        if os.path.exists(target):
            os.remove(target)


# ----------------------------------------------------------------------------------------------------- open-test
def open_test(args, client, out):
    """Attach the test input to a phase when it opens: the dataset upload flow (type ``public_data``), its id
    (``GET /api/datasets/?key=``, source, paginated), ``PATCH /api/phases/<id>/ {"public_data": id}`` (source:
    ``PhaseViewSet``). Refused before the phase opens (Codabench shows every phase's public data to approved
    participants from the first day), unless ``--wait`` waits for the opening."""
    path = _zip_file(args.zip, "--zip")
    if any(m.rsplit("/", 1)[-1] in PLACEHOLDERS for m in zip_split(path)[1]):
        raise CodabenchError("%s is the placeholder, not the test input (dist/public_data/<subtask>-test.zip)"
                             % path, 2)
    phase = find_phase(competition_detail(client, args.competition), args.phase)
    while phase.get("status") == "Next":
        start = _parse_time(phase.get("start"))
        if not args.wait or start is None:
            raise CodabenchError("phase %d (%s) opens at %s: attached now, its test input would be shown to every "
                                 "approved participant before then; run this at the opening, or with --wait"
                                 % (args.phase, names.shown(phase.get("name") or ""), phase.get("start")), 2)
        left = (start - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
        client.log("open-test: phase %d opens at %s, in %.0f s: waiting" % (args.phase, phase.get("start"), left))
        time.sleep(min(max(left + 1, 1), 600))
        phase = find_phase(competition_detail(client, args.competition), args.phase)
    if phase.get("status") == "Previous":
        raise CodabenchError("phase %d (%s) closed at %s" % (args.phase, names.shown(phase.get("name") or ""),
                                                            phase.get("end")), 2)
    stem = os.path.splitext(os.path.basename(path))[0]
    key, _ = upload_dataset(client, path, "public_data", "%s %s" % (stem, _stamp()))
    found = [d for d in client.get_all("/api/datasets/", "finding the uploaded test input", "dataset",
                                       {"key": key}) if d.get("key") == key]
    if len(found) != 1:
        raise CodabenchError("the uploaded test input (key %s) is not listed by /api/datasets/" % key)
    client.call("PATCH", "/api/phases/%d/" % args.phase, "attaching the test input to phase %d" % args.phase,
                "phase %d" % args.phase, json={"public_data": found[0]["id"]})
    after = find_phase(competition_detail(client, args.competition), args.phase)
    if (after.get("public_data") or {}).get("key") != key:
        raise CodabenchError("Codabench accepted the change but phase %d shows another public data"
                             % args.phase)
    out("phase %d (%s): public data is now %s: approved participants can download the test input"
        % (args.phase, names.shown(phase.get("name") or ""), os.path.basename(path)))
    return 0


def _parse_time(text):
    try:
        return datetime.datetime.strptime((text or "").replace("Z", "+0000")[:19] + "+0000", "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return None


# ------------------------------------------------------------------------------------------------------- connect
def connect(args, client, out):
    """Put each team's newest finished submission of a phase on its leaderboard (``POST
    /api/submissions/<id>/submission_leaderboard_connection/``, source): what a phase whose rule is not automatic
    needs (a v1.5 bundle's ``Add``: its submissions finish with every score and never reach the leaderboard
    otherwise, seen on the recorded instance). Refused on an automatic rule (Force_Last...) to anyone but a
    superuser: nothing to do there."""
    from .pull import list_phase_submissions, newest_finished
    subs = list_phase_submissions(client, args.phase)
    done = 0
    for team, sub in sorted(newest_finished(subs).items()):
        if sub.get("on_leaderboard"):
            out("%s: submission %d is on the leaderboard" % (names.shown(team), sub["id"]))
            continue
        client.call("POST", "/api/submissions/%d/submission_leaderboard_connection/" % sub["id"],
                    "putting %s's submission %d on the leaderboard" % (names.shown(team), sub["id"]),
                    "submission %d" % sub["id"], idempotent=True)
        done += 1
        out("%s: submission %d put on the leaderboard" % (names.shown(team), sub["id"]))
    out("%d submission(s) put on the leaderboard of phase %d" % (done, args.phase))
    return 0

