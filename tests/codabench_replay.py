"""A Codabench stand-in for the tests of ``python -m organiser codabench``: a threaded HTTP server on 127.0.0.1 that
answers each call from the responses recorded on a real instance (``../shared/platforms/codabench-api/``, read at
test time, never copied into the repository), so that the client's real HTTP stack, timeouts and retries run.

- An API call is answered by the route ``(method, path, query)`` a test registers: a recorded file (its status,
  content type and body, with the recorded hosts ``http://localhost:8000`` and ``http://localhost:9000`` rewritten
  to this server), a body of the test's own (marked so where Codabench's source, not a recording, says what it
  looks like), or a function of the request (failures, slow answers). A route given several answers gives them in
  turn, then repeats the last.
- A token other than :data:`TOKEN` gets the recorded answer to a bad token (70: 403 "Invalid token.").
- ``/private/...`` is the file store behind the presigned URLs: a GET serves the bytes the test put there
  (:meth:`Replay.serve`), a PUT stores what was uploaded.
- Every request is kept (:attr:`Replay.requests`) with its headers, so tests can check where the token went.
"""
import copy
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from conftest import ROOT

RECORDED = os.path.join(os.path.dirname(ROOT), "shared", "platforms", "codabench-api")
#: The token the stand-in accepts (what the tests look for in every output).
TOKEN = "f3b1c0de5ec7e7a0b5e4d00dtesttoken42"
RECORDED_HOSTS = ("http://localhost:8000", "http://localhost:9000")


def available():
    return os.path.isdir(RECORDED)


def recorded(number):
    """The recorded exchange whose file name starts with ``number`` (``"22"``), as a dict."""
    prefix = "%02d-" % int(number)
    names = [n for n in os.listdir(RECORDED) if n.startswith(prefix) and n.endswith(".json")]
    assert len(names) == 1, "expected one recorded file %s*, found %s" % (prefix, names)
    with open(os.path.join(RECORDED, names[0]), encoding="utf-8") as handle:
        return json.load(handle)


def body_of(number):
    """A deep copy of a recorded response's body (for answers derived from a recording)."""
    return copy.deepcopy(recorded(number)["response"]["body"])


class Answer(object):
    """One answer: ``status``, ``body`` (JSON value, or text with ``content_type``), extra ``headers``."""

    def __init__(self, status, body, content_type="application/json", headers=None, delay=0.0):
        self.status, self.body, self.content_type = status, body, content_type
        self.headers, self.delay = headers or {}, delay


def from_recording(number):
    response = recorded(number)["response"]
    return Answer(response["status"], copy.deepcopy(response["body"]), response["content_type"])


class Replay(object):
    """The stand-in server (see the module docstring); ``base`` is its address."""

    def __init__(self):
        self.routes, self.files, self.stored, self.prefixes = {}, {}, {}, []
        self.requests, self.unmatched = [], []
        self.lock = threading.Lock()
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _any(self):
                replay.handle(self)
            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------------------------------------ set-up
    def route(self, method, path, *answers, **query):
        """Answer ``method path?query`` with ``answers`` in turn (recorded file numbers, :class:`Answer` objects
        or functions of the request dict returning an Answer), the last repeated."""
        key = (method, path, tuple(sorted((k, str(v)) for k, v in query.items())))
        self.routes[key] = [self._answer(a) for a in answers]

    def prefix_route(self, method, prefix, function):
        """Answer every ``method`` call under ``prefix`` that no exact route answers with ``function`` (the prefix
        registered last first)."""
        self.prefixes.append((method, prefix, function))

    def recorded_route(self, number, *more):
        """Answer the recorded request of file ``number`` with its recorded response (then ``more``)."""
        request = recorded(number)["request"]
        self.route(request["method"], request["path"], number, *more, **request["query"])

    def _answer(self, value):
        if isinstance(value, (int, str)):
            return from_recording(value)
        return value

    def serve(self, url, data):
        """Serve ``data`` at the path of a (recorded) presigned ``url``."""
        self.files[urlsplit(self.rewrite(url)).path] = data

    def rewrite(self, value):
        """``value`` (a URL, or any JSON value) with the recorded hosts replaced by this server's address."""
        text = json.dumps(value)
        for host in RECORDED_HOSTS:
            text = text.replace(host, self.base)
        return json.loads(text)

    # ------------------------------------------------------------------------------------------------ serving
    def handle(self, handler):
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        data = handler.rfile.read(length) if length else b""
        request = {"method": handler.command, "path": parts.path, "query": dict(parse_qsl(parts.query)),
                   "headers": dict(handler.headers.items()), "body": data}
        with self.lock:
            self.requests.append(request)
        if parts.path.startswith("/private/"):
            if handler.command == "PUT":
                self.stored[parts.path] = data
                return self._send(handler, Answer(200, "", "text/html; charset=utf-8"))
            data = self.files.get(parts.path, self.stored.get(parts.path))
            if data is not None:
                return self._send(handler, Answer(200, data, "application/zip"))
            return self._send(handler, Answer(404, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey"
                                                   "</Code><Message>The specified key does not exist.</Message>"
                                                   "</Error>", "application/xml"))
        auth = handler.headers.get("Authorization")
        if auth is not None and auth != "Token %s" % TOKEN:
            return self._send(handler, from_recording(70))
        key = (handler.command, parts.path, tuple(sorted(parse_qsl(parts.query))))
        with self.lock:
            answers = self.routes.get(key)
            answer = (answers.pop(0) if len(answers) > 1 else answers[0]) if answers else None
        if answer is None:
            answer = next((f for m, p, f in reversed(self.prefixes)
                           if m == handler.command and parts.path.startswith(p)), None)
        if answer is None:
            self.unmatched.append("%s %s" % (handler.command, handler.path))
            answer = Answer(404, {"detail": "replay: nothing recorded for %s %s" % (handler.command, handler.path)})
        if callable(answer):
            try:
                answer = answer(request)
            except Exception as error:   # a bug of the stand-in: said to the test, not printed
                self.unmatched.append("%s %s: the stand-in failed (%r)" % (handler.command, handler.path, error))
                answer = Answer(500, {"detail": "replay: %r" % error})
        if answer is None:      # a function that dropped the connection
            return None
        self._send(handler, answer)

    def _send(self, handler, answer):
        if answer.delay:
            time.sleep(answer.delay)
        body = answer.body
        if isinstance(body, bytes):
            payload = body
        elif "json" in answer.content_type:
            payload = json.dumps(self.rewrite(body)).encode("utf-8")
        else:
            payload = str(body).encode("utf-8")
        try:
            handler.send_response(answer.status)
            handler.send_header("Content-Type", answer.content_type)
            handler.send_header("Content-Length", str(len(payload)))
            for name, value in answer.headers.items():
                handler.send_header(name, self.rewrite(value))
            handler.end_headers()
            handler.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):   # the client gave up waiting (a timeout test)
            pass

    # ------------------------------------------------------------------------------------------------ checks
    def calls(self, method=None, prefix=""):
        """The requests made, as ``"METHOD path"``, filtered."""
        return ["%s %s" % (r["method"], r["path"]) for r in self.requests
                if (method is None or r["method"] == method) and r["path"].startswith(prefix)]


# ------------------------------------------------------------------------------------------ the recorded competition
#: What the recorded teams uploaded (the README of the recordings): each submission is the kit's test baseline with
#: these task folders taken out; 8 is the rerun of 2 (a rerun scores its original's file).
REMOVED = {2: (), 3: ("lemmatisation/",), 4: ("pos_tagging/",), 5: ("fill_mask_char/",), 6: (),
           7: ("pos_tagging/", "morph_features/"), 8: ()}
PHASE, COMPETITION = 4, 2


def scenario_zips(baseline):
    """``{submission id: zip bytes}`` of the recorded scenario, made from ``baseline`` (the bytes of a test
    baseline zip) as the recorded teams made theirs."""
    import io
    import zipfile
    zips = {}
    for sub_id, removed in REMOVED.items():
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(baseline)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            for info in source.infolist():
                if not info.filename.startswith(removed):
                    zf.writestr(info, source.read(info.filename))
        zips[sub_id] = out.getvalue() if removed else baseline
    return zips


def file_urls():
    """``{submission id: presigned URL of its file}`` from the recorded bulk download (34), 8 sharing 2's."""
    urls = dict((int(item["name"].split("_", 1)[0]), item["url"]) for item in body_of(34))
    urls[8] = urls[2]
    return urls


def download_many(request):
    """``POST /api/submissions/download_many/`` answered from the recorded 34 for the ids asked (36 for an unknown
    one), as the view builds it."""
    pks = json.loads(request["body"].decode("utf-8")).get("pks")
    if not pks:
        return from_recording(35)
    named = dict((int(item["name"].split("_", 1)[0]), item) for item in body_of(34))
    named[8] = dict(named[2], name=named[2]["name"].replace("2_", "8_", 1))
    if any(pk not in named for pk in pks):
        return from_recording(36)
    return Answer(200, [named[pk] for pk in pks])


def after_rerun_list():
    """The organiser's list of phase 4 once 2 was rerun twice: 45 (8 on the leaderboard, 5 taken off) and 9 as
    team-a's own list shows it, not scored yet (48)."""
    listing = body_of(45)
    nine = [s for s in body_of(48) if s["id"] == 9]
    return nine + listing


class Competition(object):
    """Recorded competition 2 as a small stateful model, so that a command sees what it changed: its detail is the
    recorded 08 with ``published``, each task's reference data and each phase's public data as they now are; the
    participants list is the recorded 12 with the statuses set since. The answers Codabench's source gives and no
    recording holds are marked ``source``."""

    def __init__(self, replay):
        self.replay = replay
        self.published = False
        self.statuses = {}                # participant id -> status set by PATCH
        self.references, self.public = {}, {}   # task id / phase id -> dataset dict set by PATCH
        self.datasets = {}                # key -> dataset dict uploaded (type, name, file name)
        self.phase_status = {}            # phase id -> status to show instead of the recorded one

    def detail(self, request):
        body = body_of(8)    # recorded: the organiser's detail, unpublished
        body["published"] = self.published
        for phase in body["phases"]:
            phase["status"] = self.phase_status.get(phase["id"], phase["status"])
            if phase["id"] in self.public:
                phase["public_data"] = dict(phase.get("public_data") or {}, **self.public[phase["id"]])
            for task in phase["tasks"]:
                if task["id"] in self.references:
                    task["public_datasets"] = [d for d in task["public_datasets"] if d["type"] != "reference_data"]
                    task["public_datasets"].append(self.references[task["id"]])
        return Answer(200, body)

    def toggle(self, request):
        self.published = not self.published
        return Answer(200, {"published": self.published}) if self.published else Answer(200, {"published": False})

    def participants(self, request):
        rows = body_of(12)   # recorded: organiser approved, three teams pending
        for row in rows:
            row["status"] = self.statuses.get(row["id"], row["status"])
        wanted = request["query"].get("status")
        return Answer(200, [r for r in rows if wanted is None or r["status"] == wanted])

    def set_status(self, request):
        pid = int(request["path"].rstrip("/").rsplit("/", 1)[1])
        status = json.loads(request["body"].decode("utf-8")).get("status")
        if status not in ("approved", "denied", "pending", "unknown"):
            return from_recording(83)
        row = dict((r["id"], r) for r in body_of(12)).get(pid)
        current = self.statuses.get(pid, row["status"] if row else None)
        if row is None:
            return from_recording(60)
        if status == current:     # source: CompetitionParticipantViewSet.update
            return Answer(400, {"error": "Status is already set to `%s`" % status})
        self.statuses[pid] = status
        return Answer(200, dict(body_of(14), id=pid, username=row["username"], email=row["email"], status=status))

    def create_dataset(self, request):
        asked = json.loads(request["body"].decode("utf-8"))
        if asked.get("type") == "competition_bundle":
            answer = from_recording(3)
            self.datasets[answer.body["key"]] = dict(asked, key=answer.body["key"], id=99)
            return answer
        # source: DataViewSet.create answers every type alike (a key, a presigned PUT URL)
        key = "%08d-0000-4000-8000-%012d" % (len(self.datasets), len(self.datasets))
        url = body_of(3)["sassy_url"].replace("st2024-unconstrained-codabench.zip", asked["request_sassy_file_name"])
        url = url.replace("99d7ed9f79c2", "%012x" % len(self.datasets))
        self.datasets[key] = dict(asked, id=100 + len(self.datasets), key=key, path=urlsplit(url).path)
        return Answer(201, {"key": key, "sassy_url": url})

    def completed(self, request):
        key = request["path"].rstrip("/").rsplit("/", 1)[1]
        if key not in self.datasets:
            return Answer(404, {"detail": "Not found."})
        if self.datasets[key].get("type") == "competition_bundle":
            return from_recording(5)
        return Answer(200, {"key": key})     # source: upload_completed for any other type

    def list_datasets(self, request):
        key = request["query"].get("key")
        found = [dict(d, file_name=d["request_sassy_file_name"]) for d in self.datasets.values() if d["key"] == key]
        # source: DataViewSet is paginated (BasicPagination)
        return Answer(200, {"count": len(found), "next": None, "previous": None, "results": found})

    def set_task(self, request):
        task_id = int(request["path"].rstrip("/").rsplit("/", 1)[1])
        fields = json.loads(request["body"].decode("utf-8"))
        data = self.datasets[fields["reference_data"]]
        self.references[task_id] = {"id": data["id"], "type": "reference_data", "key": data["key"],
                                    "name": data.get("name"), "file_name": data["request_sassy_file_name"]}
        return Answer(200, dict(fields, id=task_id))      # source: TaskViewSet.update answers the task

    def set_phase(self, request):
        phase_id = int(request["path"].rstrip("/").rsplit("/", 1)[1])
        pk = json.loads(request["body"].decode("utf-8"))["public_data"]
        data = [d for d in self.datasets.values() if d["id"] == pk][0]
        self.public[phase_id] = {"id": pk, "key": data["key"], "name": data.get("name"), "type": "public_data"}
        return Answer(200, {"id": phase_id, "public_data": pk})    # source: PhaseSerializer

    def download(self, request):
        """source: ``/datasets/download/<key>/`` redirects to a presigned URL of the dataset's file (the one the
        bundle made, served by :func:`life`, or one uploaded since)."""
        key = request["path"].rstrip("/").rsplit("/", 1)[1]
        path = self.datasets[key]["path"] if key in self.datasets else "/private/dataset/current/%s.zip" % key
        return Answer(302, "", "text/html", {"Location": "%s%s?Signature=<redacted>" % (self.replay.base, path)})


def life(replay, zips, current_reference=None):
    """Register the recorded life of competition 2 and return its :class:`Competition`: the upload (03, the
    store's PUT, 05, 06 then 07), its detail (08, as changed since), publishing (09's answer), participants (12,
    as approved since; 14), phase 4's leaderboard (37) and submissions (22), the bulk download (34), the files
    (``zips``) and, for ``reference`` and ``open-test``, what Codabench's source says of datasets, tasks and phases
    (``current_reference``: the bytes of the reference phase 4 has, served at its download address)."""
    model = Competition(replay)
    replay.route("POST", "/api/datasets/", model.create_dataset)
    replay.prefix_route("PUT", "/api/datasets/completed/", model.completed)
    replay.prefix_route("GET", "/api/datasets/", model.list_datasets)
    replay.route("GET", "/api/competitions/2/creation_status/", 6, 7)
    replay.route("GET", "/api/competitions/2/", model.detail)
    replay.route("POST", "/api/competitions/2/toggle_publish/", model.toggle)
    replay.route("GET", "/api/participants/", model.participants, competition=2)
    replay.route("GET", "/api/participants/", model.participants, competition=2, status="pending")
    replay.route("GET", "/api/participants/", model.participants, competition=2, status="approved")
    for pid in (2, 3, 4, 5):
        replay.route("PATCH", "/api/participants/%d/" % pid, model.set_status)
    replay.recorded_route(37)
    replay.recorded_route(22)
    replay.route("POST", "/api/submissions/download_many/", download_many)
    for sub_id, url in file_urls().items():
        replay.serve(url, zips[sub_id])
    replay.route("PATCH", "/api/tasks/4/", model.set_task)
    replay.prefix_route("GET", "/datasets/download/", model.download)
    replay.route("PATCH", "/api/phases/4/", model.set_phase)
    if current_reference is not None:
        current = [d for p in body_of(8)["phases"] if p["id"] == 4 for t in p["tasks"] for d in t["public_datasets"]
                   if d["type"] == "reference_data"][0]
        replay.files["/private/dataset/current/%s.zip" % current["key"]] = current_reference
    replay.model = model
    return model
