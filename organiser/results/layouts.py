"""Reading what organisers download: every submission of a phase, with its team, time and status.

Four layouts are recognised, each from what the platform's source (or the kit's own pull) writes:

- **legacy CodaLab**, "Download all results" of a phase (``download_leaderboard_results`` in
  ``codalab/apps/web/views.py``): one zip holding, per leaderboard entry, ``<who> - <n> submission.zip``
  (the upload), ``<who> - <n> output.zip`` (the platform's scoring output), ``<who> - <n> profile.txt`` and
  ``<who> - <n> method.txt``, plus ``team_names_and_members.txt``. ``<who>`` is the user name, or
  ``Team <team name> `` (with its trailing space) when the user has a team; ``<n>`` is the submission
  number (they increase with time). Only leaderboard entries are in it, so every one was scored (Finished).
- **Codabench**, "Download selected submissions" (``SubmissionViewSet.download_many`` in
  ``src/apps/api/views/submissions.py``, zipped by ``bulk_download`` in
  ``src/static/riot/competitions/detail/submission_manager.tag``): ``bulk_submissions.zip`` with one member
  per submission named ``<id>_<owner>_PhaseId<phase>_<%Y-%m-%d:%M-%S>_<file name>`` where ``:``, ``/``
  and ``\\`` became ``_`` (the time format has no hour: ids, which grow with time, give the order) and
  ``failed.txt`` listing the files the browser could not fetch. The zip carries no status: the
  submissions list the API renders as CSV (``/api/submissions/?phase=<id>&format=csv``, fields of
  ``SubmissionSerializer`` in ``src/apps/api/serializers/submissions.py``: ``id``, ``owner``, ``status``,
  ``created_when``...) is read when it lies beside the zip (or is given with ``--metadata``).
- **a plain folder** (or zip) ``<team>/<name>.zip``: the file's modification time gives the order.
- **a pulled folder**: what ``python -m organiser codabench pull`` writes, ``<team>/<id>_<name>.zip`` with
  ``codabench-manifest.json`` (:mod:`organiser.codabench.manifest`): the manifest gives each file's team (the
  name exactly as Codabench gives it, not the folder's), submission id (the order), time and status; the
  submissions it lists without a file (failed, still running) are listed as not scored, the others it did not fetch
  (superseded, left out) in the notes. A file missing or changed since the pull is refused (pull again).

A team name can be substituted for a user name with a ``user,team`` CSV (``--teams``). A candidate's ``team`` is
the name exactly as the platform gives it (data: see :mod:`organiser.results.names`); its ``identity`` says whether
it is a team's or a user's, so that a team and a user of the same name stay two entries.
"""
import csv
import datetime
import io
import os
import re
import zipfile

from evalkit import keys, layout
from evalkit.messages import DataError

from organiser.codabench import manifest as pulled

from . import names

CODALAB_SUBMISSION = re.compile(r"^(?P<who>.+) - (?P<number>\d+) submission\.zip$", re.DOTALL)
CODALAB_OUTPUT = " - %s output.zip"
CODALAB_TEAM_PREFIX = "Team "
CODABENCH_MEMBER = re.compile(r"^(?P<id>\d+)_(?P<owner>.+?)_PhaseId(?P<phase>\d+)_"
                              r"(?P<date>\d{4}-\d{2}-\d{2})_(?P<minsec>\d{2}-\d{2})_(?P<file>.*)$", re.DOTALL)
CODABENCH_FAILED = "failed.txt"
#: Platform statuses whose submission never reached a leaderboard (Codabench's Submission.STATUS_CHOICES).
NOT_SCORED_STATUSES = frozenset(("failed", "cancelled", "none", "submitting", "submitted", "preparing",
                                 "running", "scoring"))
JUNK = re.compile(r"(^|/)(__MACOSX/|\._|\.DS_Store$|Thumbs\.db$)")


class Candidate(object):
    """One submission found in a download.

    ``team`` ranks (the name as the platform gives it; ``kind``: ``team``, ``user`` when it is a user's name,
    ``baseline``); ``user`` submitted it; ``label`` names it for people (``#3``, ``id 812``, a file
    name); ``order`` sorts a team's submissions oldest first; ``time`` is the submission time when
    the platform gives one; ``status`` is the platform's status (None when unknown); ``locator`` says
    where its bytes are: ``("path", path)`` or ``("member", zip path, member name)``. ``display`` is what the
    outputs show of the team (set by :func:`organiser.results.compute.compute`; the name until then).
    """

    def __init__(self, team, user, label, order, time, status, locator, platform, baseline=False, kind="team"):
        self.team, self.user, self.label, self.order = team, user, label, order
        self.time, self.status, self.locator, self.platform = time, status, locator, platform
        self.baseline = baseline
        self.kind = "baseline" if baseline else kind
        self.display = team
        self.platform_scores = None     # {key: value} of the platform's own scoring output, when shipped

    @property
    def identity(self):
        """What the entry is (:func:`organiser.results.names.identity`): never its shown name."""
        return names.identity(self.kind, self.team)

    def ineligible(self):
        """Why the platform never scored this submission (its status), or None."""
        if self.status and self.status.strip().lower() in NOT_SCORED_STATUSES:
            return "platform status %s" % self.status
        return None

    def describe(self):
        """``{team, user, label, time, status, platform, baseline, source}`` for the outputs."""
        source = self.locator[1] if self.locator[0] == "path" else "%s!%s" % self.locator[1:]
        return {"id": self.identity, "team": self.display, "user": self.user, "label": self.label, "time": self.time,
                "status": self.status, "platform": self.platform, "baseline": self.baseline, "source": source,
                "platform_avg_score": (self.platform_scores or {}).get(keys.OVERALL_KEY)}


class Container(object):
    """Files of a download by relative POSIX name: a directory or a zip."""

    def __init__(self, path):
        self.path = path
        self.is_zip = os.path.isfile(path)
        self.notes = []
        if self.is_zip:
            skipped = []        # names marked as UTF-8 but not: read as zip tools read unmarked names
            try:
                self.zip = layout.open_zip(path, skipped)[0]
                self.members = [i.filename for i in self.zip.infolist() if not i.filename.endswith("/")]
            except Exception as err:  # any failure on hostile bytes: the whole download is unreadable
                raise DataError(path, "", "not a readable zip file (%s: %s)" % (type(err).__name__, err))
            self.notes.extend("a member name is marked as UTF-8 but is not (%s): read as code page 437"
                              % message.file for message in skipped)
        elif os.path.isdir(path):
            self.members = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                rel = os.path.relpath(dirpath, path).replace(os.sep, "/")
                self.members.extend(f if rel == "." else rel + "/" + f for f in sorted(filenames))
        else:
            raise DataError(path, "", "expected a download of submissions (a zip or a folder), found nothing")
        self.members = [m for m in self.members if not JUNK.search(m)]

    def locator(self, member):
        """Where the bytes of ``member`` are (see :class:`Candidate`)."""
        if self.is_zip:
            return ("member", self.path, member)
        return ("path", os.path.join(self.path, *member.split("/")))

    def read_text(self, member):
        """Text of a small member (UTF-8, undecodable bytes replaced)."""
        if self.is_zip:
            try:
                data = self.zip.read(member)
            except Exception as err:
                raise DataError("%s!%s" % (self.path, member), "", "cannot be read (%s: %s)"
                                % (type(err).__name__, err))
        else:
            with open(os.path.join(self.path, *member.split("/")), "rb") as handle:
                data = handle.read()
        return data.decode("utf-8", "replace")

    def mtime(self, member):
        """Modification time of ``member`` as an ISO string (zip: the stored date)."""
        if self.is_zip:
            return "%04d-%02d-%02dT%02d:%02d:%02d" % self.zip.getinfo(member).date_time
        stamp = os.path.getmtime(os.path.join(self.path, *member.split("/")))
        return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


class Download(object):
    """What :func:`read_download` found: the platform, the candidates and notes about the rest."""

    def __init__(self, platform, path):
        self.platform, self.path = platform, path
        self.candidates = []
        self.notes = []          # things organisers should know (files not fetched, ignored names)


def read_teams(path):
    """``{user: team}`` from a CSV with ``user`` and ``team`` columns (DataError naming the line if not)."""
    mapping = {}
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or "user" not in reader.fieldnames or "team" not in reader.fieldnames:
            raise DataError(path, "line 1", "expected a header with the columns user and team, got %r"
                            % (reader.fieldnames,))
        for row in reader:
            if not (row.get("user") or "").strip() or not (row.get("team") or "").strip():
                raise DataError(path, "line %d" % reader.line_num, "expected a user and a team, got %r" % (row,))
            mapping[row["user"].strip()] = row["team"].strip()
    return mapping


def _layout_of(members):
    """``codalab``, ``codabench``, ``folder`` or None from the member names of a container."""
    names = [m for m in members if "/" not in m]
    zips = [m for m in members if m.lower().endswith(".zip")]
    for found, pattern in (("codalab", CODALAB_SUBMISSION), ("codabench", CODABENCH_MEMBER)):
        # a name with "/" makes a member look like a folder: only every member matching the pattern says so
        if any(pattern.match(n) for n in names) or (any(pattern.match(m) for m in zips) and all(
                pattern.match(m) or _codalab_companion(m) for m in zips)):
            return found
    if any(m.count("/") == 1 and m.lower().endswith(".zip") for m in members):
        return "folder"
    return None


def read_download(path, teams=None, metadata=None, phase=None):
    """Read a download of submissions at ``path`` (zip or folder) into a :class:`Download`.

    ``teams``: ``{user: team}``; ``metadata``: a Codabench submissions CSV (found beside the zip when
    not given); ``phase``: the Codabench phase id to keep when the download mixes phases.
    Raises DataError when ``path`` is none of the layouts (the message says what was expected).
    """
    if os.path.isdir(path) and os.path.isfile(os.path.join(path, pulled.MANIFEST)):
        download = Download("codabench", path)
        _read_pulled(path, download, phase)
        return _renamed(download, teams)
    container = Container(path)
    found = _layout_of(container.members)
    if found is None and not container.is_zip:
        inner = [m for m in container.members if "/" not in m and m.lower().endswith(".zip")]
        if len(inner) == 1:          # a folder holding the platform's zip (and perhaps its CSV listing)
            csvs = [os.path.join(path, m) for m in container.members if "/" not in m and m.lower().endswith(".csv")]
            return read_download(os.path.join(path, inner[0]), teams, metadata or (csvs[0] if len(csvs) == 1 else None),
                                 phase)
    if found is None:
        raise DataError(path, "", "expected a download of submissions: legacy CodaLab's '<user> - <n> submission.zip' "
                        "members, Codabench's '<id>_<owner>_PhaseId<phase>_<date>_<file>' members, or "
                        "<team>/<name>.zip; found %d file(s)%s" % (len(container.members), _sample(container.members)))
    download = Download(found, path)
    download.notes.extend(container.notes)
    reader = {"codalab": _read_codalab, "codabench": _read_codabench, "folder": _read_folder}[found]
    reader(container, download, metadata, phase)
    return _renamed(download, teams)


def _renamed(download, teams):
    """``download`` with the users of ``teams`` (``{user: team}``) named by their team."""
    if teams:
        for cand in download.candidates:
            if cand.user and cand.user in teams:
                cand.team, cand.kind = teams[cand.user], "team"
                cand.display = cand.team
    return download


def _sample(members):
    return (": " + ", ".join(repr(m) for m in members[:5]) + (" ..." if len(members) > 5 else "")) if members else ""


def _read_codalab(container, download, metadata, phase):
    """Legacy CodaLab's leaderboard download (see the module docstring)."""
    names = set(container.members)
    for member in container.members:
        match = CODALAB_SUBMISSION.match(member)
        if not match:
            if not _codalab_companion(member):
                download.notes.append("ignored: %s (not a file the CodaLab download holds)" % member)
            continue
        who, number = match.group("who"), int(match.group("number"))
        if who.startswith(CODALAB_TEAM_PREFIX):   # "Team <name> ": the one trailing space is CodaLab's
            team, user, kind = who[len(CODALAB_TEAM_PREFIX):-1] if who.endswith(" ") else who[len(CODALAB_TEAM_PREFIX):], \
                None, "team"
        else:
            team = user = who
            kind = "user"
        cand = Candidate(team, user, "#%d" % number, (number,), None, "Finished", container.locator(member), "codalab",
                         kind=kind)
        output = who + CODALAB_OUTPUT % match.group("number")
        if output in names:
            cand.platform_scores = _platform_scores(container, output)
        download.candidates.append(cand)
    if "team_names_and_members.txt" in names:
        for line in container.read_text("team_names_and_members.txt").splitlines():
            if line.strip():
                download.notes.append("CodaLab team list: %s" % line.strip())


def _codalab_companion(member):
    """Whether ``member`` is one of the other files legacy CodaLab puts in its download."""
    return bool(re.match(r"^.+ - \d+ (output\.zip|profile\.txt|method\.txt)$", member, re.DOTALL)) or member in (
        "team_names_and_members.txt", "detailed_results.html")


def _platform_scores(container, member):
    """``{key: value}`` of ``scores.txt`` inside the platform's output zip (None when absent or unreadable)."""
    try:
        if container.is_zip:
            data = container.zip.read(member)
        else:
            with open(os.path.join(container.path, *member.split("/")), "rb") as handle:
                data = handle.read()
        with zipfile.ZipFile(io.BytesIO(data)) as output:
            inner = [n for n in output.namelist() if n.rsplit("/", 1)[-1] == "scores.txt"]
            if not inner:
                return None
            text = output.read(inner[0]).decode("utf-8", "replace")
    except Exception:   # the platform's own output is informative only: unreadable means "not shipped"
        return None
    scores = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        try:
            scores[key.strip()] = float(value)
        except ValueError:
            continue
    return scores or None


def _manifest_scores(scores):
    """``{key: value}`` of the scores a pull's manifest recorded from the platform (Codabench gives them as
    strings); None when there are none. The platform's scores are informative only: a value that is not a number
    is left out."""
    found = {}
    for key, value in (scores or {}).items() if isinstance(scores, dict) else ():
        try:
            found[str(key)] = float(value)
        except (TypeError, ValueError):
            continue
    return found or None


def _read_codabench(container, download, metadata, phase):
    """Codabench's bulk download (see the module docstring)."""
    listing = _codabench_listing(metadata) if metadata else {}
    phases = sorted(set(int(m.group("phase")) for m in map(CODABENCH_MEMBER.match, container.members) if m))
    if phase is None and len(phases) > 1:
        raise DataError(container.path, "", "the download mixes phases %s: choose one with --phase-id"
                        % ", ".join(str(p) for p in phases))
    seen = set()
    for member in container.members:
        match = CODABENCH_MEMBER.match(member)
        if member == CODABENCH_FAILED:
            for line in container.read_text(member).splitlines()[1:]:
                if line.strip():
                    download.notes.append("Codabench could not fetch: %s" % line.strip())
            continue
        if not match:
            download.notes.append("ignored: %s (not a Codabench submission file name)" % member)
            continue
        if phase is not None and int(match.group("phase")) != phase:
            continue
        sub_id = int(match.group("id"))
        row = listing.get(sub_id, {})
        seen.add(sub_id)
        owner = row.get("owner") or match.group("owner")
        time = row.get("created_when") or "%s (minute:second %s)" % (match.group("date"), match.group("minsec"))
        download.candidates.append(Candidate(owner, owner, "id %d" % sub_id, (sub_id,), time, row.get("status"),
                                             container.locator(member), "codabench", kind="user"))
    for sub_id, row in sorted(listing.items()):
        if sub_id not in seen and (row.get("status") or "").lower() == "finished":
            download.notes.append("Codabench lists submission %d of %s as Finished but it is not in the download"
                                  % (sub_id, row.get("owner")))


def _codabench_listing(path):
    """``{id: row}`` of Codabench's submissions CSV; DataError naming the line when it is not one."""
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or "id" not in reader.fieldnames or "status" not in reader.fieldnames:
            raise DataError(path, "line 1", "expected Codabench's submissions CSV (columns id, owner, status, "
                            "created_when...), got the columns %r" % (reader.fieldnames,))
        rows = {}
        for row in reader:
            try:
                rows[int(row["id"])] = row
            except (TypeError, ValueError):
                raise DataError(path, "line %d" % reader.line_num, "expected a submission id, got %r" % row["id"])
    return rows


def _read_folder(container, download, metadata, phase):
    """A plain ``<team>/<name>.zip`` layout: modification times order a team's submissions."""
    for member in container.members:
        if member.count("/") != 1 or not member.lower().endswith(".zip"):
            download.notes.append("ignored: %s (expected <team>/<name>.zip)" % member)
            continue
        team, name = member.split("/")
        time = container.mtime(member)
        download.candidates.append(Candidate(team, None, name, (time, name), time, None,
                                             container.locator(member), "folder"))


def _read_pulled(path, download, phase):
    """The folder ``codabench pull`` wrote (see the module docstring)."""
    try:
        record = pulled.read(path)
    except ValueError as error:
        raise DataError(path, pulled.MANIFEST, str(error))
    where = os.path.join(path, pulled.MANIFEST)
    if phase is not None and record.get("phase") != phase:
        raise DataError(where, "", "holds the pull of phase %s, not of phase %d" % (record.get("phase"), phase))
    listed = set()
    for entry in record["submissions"]:
        label, status = "id %d" % entry["id"], entry.get("status")
        if entry.get("file"):
            file_path = os.path.join(path, *entry["file"].split("/"))
            listed.add(entry["file"])
            if not os.path.isfile(file_path):
                raise DataError(where, "submission %d" % entry["id"], "its file %s is missing: run `python -m "
                                "organiser codabench pull` again" % entry["file"])
            if os.path.getsize(file_path) != entry.get("size") or pulled.sha256_of(file_path) != entry.get("sha256"):
                raise DataError(where, "submission %d" % entry["id"], "its file %s changed since the pull (size or "
                                "sha256): run the pull again" % entry["file"])
            cand = Candidate(entry["team"], entry["team"], label, (entry["id"],), entry.get("created_when"), status,
                             ("path", file_path), "codabench", kind="user")
            cand.platform_scores = _manifest_scores(entry.get("scores"))
            download.candidates.append(cand)
        elif entry["state"] in ("counted", "fetched"):
            raise DataError(where, "submission %d" % entry["id"], "counts for %s but was not fetched (%s): run "
                            "`python -m organiser codabench pull` again" % (names.shown(entry["team"]),
                                                                            entry.get("reason")))
        elif entry["state"] in ("failed", "running") and (status or "").strip().lower() in NOT_SCORED_STATUSES:
            # listed among the submissions not scored, with the platform's status as the reason
            download.candidates.append(Candidate(entry["team"], entry["team"], label, (entry["id"],),
                                                 entry.get("created_when"), status, ("path", None), "codabench",
                                                 kind="user"))
        else:
            download.notes.append("Codabench submission %d of %s (%s, %s) was not fetched by the pull: %s" % (
                entry["id"], names.shown(entry["team"]), status, entry["state"], entry.get("reason")))
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), path).replace(os.sep, "/")
            if rel not in listed and rel not in (pulled.MANIFEST, pulled.MANIFEST_CSV) and not JUNK.search(rel):
                download.notes.append("ignored: %s (not in %s: a file added by hand is not read; pull again)"
                                      % (rel, pulled.MANIFEST))
