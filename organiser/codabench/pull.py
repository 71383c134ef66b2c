"""``pull``: each team's submission that counts in a phase, downloaded with a manifest; ``leaderboard``: a snapshot of
a phase's leaderboard (JSON and CSV, with the time it was taken).

Calls (all recorded on the real instance, ``../shared/platforms/codabench-api/``): ``GET
/api/phases/<id>/get_leaderboard/`` (37, 46: the columns, the rows; 74: an unknown phase is a 404), ``GET
/api/submissions/?phase=<id>`` (22, 45: a plain list, newest first, no pagination, 28; 21: a submission Finished
before its scores are stored), ``POST /api/submissions/download_many/`` (34: presigned URLs of the submitted files;
36: an unknown id is a 404), ``GET /api/submissions/<id>/get_details/`` (32: ``data_file``, used when
``download_many`` is refused, as the web interface's button is with 405 on the public server since 2026-02,
codabench#2184) and the presigned URL itself (33: the bytes uploaded, fetched without the token).
"""
import csv
import datetime
import io
import json
import os
import time

from evalkit import keys
from organiser.results import names
from organiser.results.render import csv_cell

from . import manifest as manifest_module
from .client import CodabenchError

RUNNING = frozenset(("none", "submitting", "submitted", "preparing", "running", "scoring"))
FAILED = frozenset(("failed", "cancelled"))
FINISHED = "finished"
BATCH = 100


def _status(sub):
    return (sub.get("status") or "None").strip().lower()


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def phase_leaderboard(client, phase):
    """``GET /api/phases/<id>/get_leaderboard/`` (recorded 37; 74: no such phase)."""
    board = client.get("/api/phases/%d/get_leaderboard/" % phase, "reading the leaderboard of phase %d" % phase,
                       "phase %d" % phase)
    if not isinstance(board, dict):
        raise CodabenchError("reading the leaderboard of phase %d: expected an object, got %s" % (
            phase, type(board).__name__))
    return board


def board_columns(board):
    """``[column]`` of a leaderboard answer, every task's, in order."""
    return [column for task in board.get("tasks") or [] for column in task.get("columns") or []]


def list_phase_submissions(client, phase):
    """Every submission of ``phase`` (``GET /api/submissions/?phase=``, recorded 22): those of another phase are
    left out (Codabench answers an unknown filter with the unfiltered list, recorded 26, 79)."""
    subs = client.get_all("/api/submissions/", "listing the submissions of phase %d" % phase, "phase %d" % phase,
                          {"phase": phase})
    kept = [s for s in subs if isinstance(s, dict) and s.get("phase") == phase and isinstance(s.get("id"), int)]
    if len(kept) != len(subs):
        client.log("phase %d: %d submission(s) of other phases in the answer, left out" % (phase,
                                                                                         len(subs) - len(kept)))
    return kept


def newest_finished(subs):
    """``{team: its newest Finished submission}`` (ids grow with time)."""
    found = {}
    for sub in sorted(subs, key=lambda s: s["id"], reverse=True):
        if _status(sub) == FINISHED and not sub.get("is_soft_deleted"):
            found.setdefault(sub.get("owner"), sub)
    return found


def wait_for_scores(client, phase, subs, width, limit, settle, poll):
    """Re-list the phase while a Finished submission has fewer scores than the leaderboard's ``width`` columns
    (Codabench marks a submission Finished, then stores its scores one column at a time: recorded 21, all there
    0.6-1.9 s later): until each has them all, or no count changed for ``settle`` seconds, or ``limit`` seconds
    passed. Returns ``(submissions, expected)``: the last list and the number of scores a finished submission of
    this phase has when whole: ``width``, or fewer when the counts settled below it with no submission above (a
    phase whose scoring writes fewer columns, such as a blind test phase)."""
    def short(items):
        return dict((s["id"], len(s.get("scores") or [])) for s in items
                    if _status(s) == FINISHED and len(s.get("scores") or []) < width)
    waiting = short(subs)
    settled = True
    if waiting and width:
        client.log("phase %d: %d finished submission(s) without every score yet (%s of %d columns): waiting "
                   "(Codabench stores the scores after it marks a submission Finished)"
                   % (phase, len(waiting), "/".join(str(n) for n in sorted(set(waiting.values()))), width))
        started = changed = time.time()
        while waiting and time.time() - changed < settle:
            if time.time() - started >= limit:
                settled = False
                break
            time.sleep(poll)
            subs = list_phase_submissions(client, phase)
            now = short(subs)
            if now != waiting:
                changed, waiting = time.time(), now
    counts = [len(s.get("scores") or []) for s in subs if _status(s) == FINISHED]
    expected = width if not settled or not counts or max(counts) >= width else max(counts)
    if expected < width:
        client.log("phase %d: no finished submission has more than %d of its %d columns, unchanged for %g s: taken "
                   "as whole (its scoring writes those only)" % (phase, expected, width, settle))
    return subs, expected


def classify(subs, expected, rule, fetch_all, exclude):
    """Each submission's ``(state, reason)`` (states of :mod:`organiser.codabench.manifest`): per team (the
    ``owner``), the one that counts is, by ``rule`` ``auto``, the one on the leaderboard, else the newest whole
    finished one; by ``last``, the newest whole finished one."""
    by_team = {}
    for sub in subs:
        by_team.setdefault(sub.get("owner") or "", []).append(sub)
    states = {}
    for team, team_subs in by_team.items():
        team_subs.sort(key=lambda s: s["id"], reverse=True)
        whole = [s for s in team_subs if _status(s) == FINISHED and not s.get("is_soft_deleted")
                 and len(s.get("scores") or []) >= expected]
        counted = None
        if rule == "auto":
            counted = next((s for s in whole if s.get("on_leaderboard")), None)
        counted = counted or (whole[0] if whole else None)
        for sub in team_subs:
            status, scored = _status(sub), len(sub.get("scores") or [])
            if team in exclude:
                states[sub["id"]] = ("excluded", "left out (--exclude)")
            elif sub.get("is_soft_deleted"):
                states[sub["id"]] = ("deleted", "deleted on Codabench")
            elif sub is counted:
                states[sub["id"]] = ("counted", "on the leaderboard" if sub.get("on_leaderboard") else
                                     "the team's newest finished submission")
            elif status in FAILED:
                states[sub["id"]] = ("failed", "platform status %s" % sub.get("status"))
            elif status == FINISHED and scored >= expected:
                states[sub["id"]] = ("fetched" if fetch_all else "superseded",
                                     "finished; %s counts" % ("submission %d" % counted["id"] if counted else "none"))
            elif status == FINISHED:
                states[sub["id"]] = ("running", "Finished with %d of %d scores stored when pulled: pull again"
                                     % (scored, expected))
            else:
                states[sub["id"]] = ("running", "platform status %s when pulled: pull again once it finished"
                                     % sub.get("status"))
    return states


def download_urls(client, ids):
    """``{id: presigned URL of the submitted file}``: ``download_many`` by batches; ``get_details`` one by one
    when it is refused (405, 5xx) or leaves an id out."""
    urls = {}
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        try:
            files = client.call("POST", "/api/submissions/download_many/", "asking for the files of %d submission(s)"
                                % len(batch), "submission", json={"pks": batch}, idempotent=True, expect=(200,))
        except CodabenchError as error:
            if error.http_status not in (405, 500, 502, 503, 504):
                raise
            client.log("pull: download_many refused (%d): asking for each submission's file" % error.http_status)
            files = []
        for item in files if isinstance(files, list) else []:
            head = str(item.get("name", "")).split("_", 1)[0]
            if head.isdigit() and item.get("url"):
                urls[int(head)] = item["url"]
    for sub_id in ids:
        if sub_id not in urls:
            details = client.get("/api/submissions/%d/get_details/" % sub_id, "asking for the file of submission %d"
                                 % sub_id, "submission %d" % sub_id)
            if not details.get("data_file"):
                raise CodabenchError("submission %d: Codabench gives no file for it" % sub_id)
            urls[sub_id] = details["data_file"]
    return urls


def pull(args, client, out):
    """Download each team's submission that counts in ``--phase`` into ``--out/<team>/<id>_<name>.zip`` with the
    manifest; fetch only what is not there yet (or changed); list what was not fetched and why."""
    phase, folder = args.phase, args.out
    old = _old_manifest(folder, client.base_url, phase)
    board = phase_leaderboard(client, phase)
    columns = board_columns(board)
    subs = list_phase_submissions(client, phase)
    subs, expected = wait_for_scores(client, phase, subs, len(columns), args.score_wait, args.settle, args.poll)
    states = classify(subs, expected, args.rule, args.all, set(args.exclude or ()))
    teams = dict(old.get("teams") or {}) if old else {}
    taken = dict((manifest_module.fold(f), t) for t, f in teams.items())
    previous = dict((e["id"], e) for e in (old or {}).get("submissions", []))
    entries, wanted = [], []
    for sub in sorted(subs, key=lambda s: s["id"]):
        state, reason = states[sub["id"]]
        team = sub.get("owner") or ""
        entry = {"id": sub["id"], "team": team, "filename": sub.get("filename"),
                 "created_when": sub.get("created_when"), "status": sub.get("status"),
                 "on_leaderboard": bool(sub.get("on_leaderboard")), "state": state, "reason": reason, "file": None}
        if state in ("counted", "fetched"):
            if team not in teams:
                teams[team] = manifest_module.folder_name(team, taken)
            entry["file"] = "%s/%s" % (teams[team], manifest_module.file_name(sub["id"], sub.get("filename") or ""))
            entry["scores"] = dict((s.get("column_key"), s.get("score")) for s in sub.get("scores") or [])
            kept = previous.get(sub["id"])
            if kept and kept.get("file") == entry["file"] and _unchanged(folder, kept):
                entry.update(size=kept["size"], sha256=kept["sha256"], fetched_at=kept.get("fetched_at"))
            else:
                wanted.append(entry)
        entries.append(entry)
    os.makedirs(folder, exist_ok=True)
    primary = board.get("primary_index")
    record = {"format": manifest_module.FORMAT, "platform": "codabench", "base_url": client.base_url, "phase": phase,
              "phase_name": next((s.get("phase_name") for s in subs if s.get("phase_name")), None),
              "rule": args.rule, "all": bool(args.all), "pulled_at": _now(), "columns": [c.get("key") for c in columns],
              "primary_column": columns[primary].get("key") if isinstance(primary, int) and primary < len(columns)
              else keys.OVERALL_KEY, "teams": teams, "submissions": entries}
    try:
        _fetch(client, folder, wanted)
    finally:   # the manifest says what is on disk, even after a failed download (make results refuses it then)
        _remove_stale(folder, old, entries, client.log)
        write_manifest(folder, record)
    _report(out, folder, entries, wanted)
    return 0


def _fetch(client, folder, wanted):
    """Download the files of the ``wanted`` entries; an entry not fetched when a download fails loses its file
    (its reason says so)."""
    done = 0
    try:
        urls = download_urls(client, [e["id"] for e in wanted]) if wanted else {}
        for entry in wanted:
            target = os.path.join(folder, *entry["file"].split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            what = "downloading %s: submission %d" % (names.shown(entry["team"]), entry["id"])
            entry["size"], entry["sha256"] = client.download(urls[entry["id"]], target, what)
            entry["fetched_at"] = _now()
            done += 1
    except BaseException:
        for entry in wanted[done:]:
            entry.update(file=None, reason="%s; its download failed: pull again" % entry["reason"])
        raise


def write_manifest(out, record):
    """Write the manifest (JSON, then its CSV) into ``out``, each replacing the old one whole."""
    _replace(os.path.join(out, manifest_module.MANIFEST),
             json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, manifest_module.CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    folders = record.get("teams", {})
    for entry in record["submissions"]:
        row = dict(entry, folder=folders.get(entry.get("team"), ""))
        writer.writerow(dict((key, "" if row.get(key) is None else csv_cell(row[key]))
                             for key in manifest_module.CSV_FIELDS))
    _replace(os.path.join(out, manifest_module.MANIFEST_CSV), buffer.getvalue())


def _replace(path, text):
    part = path + ".part"
    with open(part, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    os.replace(part, path)


def _old_manifest(folder, base_url, phase):
    """The manifest of an earlier pull into ``folder`` (refused when it is another phase's or instance's)."""
    try:
        old = manifest_module.read(folder)
    except ValueError as error:
        raise CodabenchError("%s; give another --out or remove it" % error, 2)
    if old and (old.get("phase") != phase or old.get("base_url") != base_url):
        raise CodabenchError("%s holds the pull of phase %s on %s: give another --out for phase %d on %s"
                             % (folder, old.get("phase"), old.get("base_url"), phase, base_url), 2)
    if old is None and os.path.isdir(folder) and os.listdir(folder):
        raise CodabenchError("%s is not empty and holds no %s: give an empty or new folder"
                             % (folder, manifest_module.MANIFEST), 2)
    return old


def _unchanged(folder, entry):
    """Whether the file of a manifest ``entry`` is there with its size and sha256."""
    path = os.path.join(folder, *entry["file"].split("/"))
    return (os.path.isfile(path) and os.path.getsize(path) == entry.get("size")
            and manifest_module.sha256_of(path) == entry.get("sha256"))


def _remove_stale(folder, old, entries, log):
    """Remove the files of an earlier pull that no longer count (a team submitted again)."""
    now = dict((e["id"], e) for e in entries)
    for entry in (old or {}).get("submissions", []):
        if entry.get("file") and now.get(entry["id"], {}).get("file") != entry["file"]:
            path = os.path.join(folder, *entry["file"].split("/"))
            if os.path.isfile(path):
                os.remove(path)
                replacement = [e["id"] for e in entries if e["team"] == entry["team"] and e["state"] == "counted"]
                log("pull: removed %s (submission %d no longer counts%s)" % (
                    entry["file"], entry["id"], ": %d does" % replacement[0] if replacement else ""))
                parent = os.path.dirname(path)
                if not os.listdir(parent):
                    os.rmdir(parent)


def _report(out, folder, entries, wanted):
    fetched = set(e["id"] for e in wanted)
    out("%-24s %-6s %-10s %-11s %9s  %s" % ("team", "id", "state", "status", "bytes", "file"))
    for entry in sorted(entries, key=lambda e: (e["team"], -e["id"])):
        out("%-24s %-6d %-10s %-11s %9s  %s" % (
            names.shown(entry["team"])[:24], entry["id"], entry["state"], entry.get("status") or "",
            entry.get("size") if entry.get("size") is not None else "-",
            ("%s (%s)" % (entry["file"], "fetched" if entry["id"] in fetched else "already here")) if entry["file"]
            else "not fetched: %s" % entry["reason"]))
    kept = [e for e in entries if e["file"]]
    teams = set(e["team"] for e in entries if e["state"] == "counted")
    out("phase pulled into %s: %d team(s), %d file(s) fetched, %d already here, %d submission(s) not fetched; "
        "manifest %s" % (folder, len(teams), len(fetched), len(kept) - len(fetched), len(entries) - len(kept),
                         manifest_module.MANIFEST))
    out("next: make results SUBMISSIONS=%s" % folder)


# --------------------------------------------------------------------------------------------------- leaderboard
def leaderboard(args, client, out):
    """Write the phase's leaderboard as it stands (once every row has all its scores, or they stopped changing) to
    ``--out/leaderboard-phase<id>-<time>.json`` and ``.csv``."""
    phase = args.phase
    board = phase_leaderboard(client, phase)
    width = len(board_columns(board))
    started = changed = time.time()
    counts = _row_counts(board)
    while any(n < width for n in counts.values()) and time.time() - changed < args.settle \
            and time.time() - started < args.score_wait:
        time.sleep(args.poll)
        board = phase_leaderboard(client, phase)
        now = _row_counts(board)
        if now != counts:
            changed, counts = time.time(), now
    taken = _now()
    snapshot = snapshot_of(board, phase, client.base_url, taken)
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, "leaderboard-phase%d-%s" % (phase, taken.replace(":", "").replace("-", "")))
    with open(stem + ".json", "w", encoding="utf-8") as handle:
        json.dump(snapshot, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    with open(stem + ".csv", "w", encoding="utf-8", newline="") as handle:
        handle.write(snapshot_csv(snapshot))
    short = [row for row in snapshot["rows"] if row["missing"]]
    out("leaderboard of phase %d (%s) at %s: %d row(s)%s" % (
        phase, names.shown(snapshot["title"] or ""), taken, len(snapshot["rows"]),
        "; %d row(s) without every score yet" % len(short) if short else ""))
    for row in snapshot["rows"][:10]:
        out("  %3d  %-24s submission %-6s %s %s" % (row["position"], names.shown(row["team"])[:24], row["submission"],
                                                    snapshot["primary_column"], row["scores"].get(
                                                        snapshot["primary_column"], "n/a")))
    out("written: %s.json, %s.csv" % (stem, stem))
    return 0


def _row_counts(board):
    return dict((row.get("id"), len(row.get("scores") or [])) for row in board.get("submissions") or [])


def snapshot_of(board, phase, base_url, taken):
    """The snapshot as written: the columns, then one row per leaderboard entry in Codabench's order."""
    columns = board_columns(board)
    primary = board.get("primary_index")
    rows = []
    for position, row in enumerate(board.get("submissions") or [], 1):
        scores = dict((s.get("column_key"), s.get("score")) for s in row.get("scores") or [])
        rows.append({"position": position, "team": row.get("owner") or "", "organization": row.get("organization"),
                     "submission": row.get("id"), "created_when": row.get("created_when"), "scores": scores,
                     "missing": [c.get("key") for c in columns if c.get("key") not in scores]})
    return {"taken_at": taken, "base_url": base_url, "phase": phase, "title": board.get("title"),
            "primary_column": columns[primary].get("key") if isinstance(primary, int) and primary < len(columns)
            else keys.OVERALL_KEY,
            "columns": [dict((k, c.get(k)) for k in ("key", "title", "sorting", "precision", "hidden", "index"))
                        for c in columns], "rows": rows}


def snapshot_csv(snapshot):
    """The snapshot as CSV: ``taken_at, position, team, submission, created_when`` and one column per leaderboard
    column (its title, its key in brackets); participants' text made safe for a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    keys_ = [c["key"] for c in snapshot["columns"]]
    writer.writerow(["taken_at", "position", "team", "submission", "created_when"] +
                    ["%s [%s]" % (c["title"], c["key"]) for c in snapshot["columns"]])
    for row in snapshot["rows"]:
        writer.writerow([snapshot["taken_at"], row["position"], csv_cell(row["team"]), row["submission"],
                         row["created_when"] or ""] + [row["scores"].get(k, "") for k in keys_])
    return buffer.getvalue()
