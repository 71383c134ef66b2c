"""The HTTP side of the Codabench commands: one session per run, the token, timeouts, retries with backoff, and
every refusal or network failure said in one line.

Built on ``requests`` (pinned in requirements.txt): a well-kept library whose sessions, streaming and timeouts are
what a long download needs. ``codabench-client`` (0.1.1 on the package index, 2026-07) was read and not used: it
logs in with a user name and password only (no token), retries nothing, puts the first 300 characters of an answer
into its errors, and covers none of the organiser's calls this kit needs (participants, publishing, a task's
reference data, the bulk download, the leaderboard); it needs Python 3.9 too.

The token is read from the environment (:data:`TOKEN_ENV`) or from a file only its owner can read
(:func:`read_token`); it is sent in an ``Authorization: Token ...`` header to the Codabench address only, never to a
presigned storage URL (those carry their own credentials in their query, which is never shown either), and it
appears in no message, log or file this package writes (:func:`sanitise`).
"""
import hashlib
import os
import re
import stat
import sys
import time
from urllib.parse import urljoin, urlsplit

import requests
import urllib3

from evalkit.messages import printable

DEFAULT_BASE_URL = "https://www.codabench.org"
BASE_URL_ENV = "CODABENCH_URL"
TOKEN_ENV = "CODABENCH_TOKEN"
TOKEN_FILE_ENV = "CODABENCH_TOKEN_FILE"
DEFAULT_TOKEN_FILE = os.path.join("~", ".config", "codabench", "token")
#: Answers worth another try: the server or a proxy in front of it failed, not the request.
RETRY_STATUSES = frozenset((500, 502, 503, 504))
#: Seconds to wait for a connection and for each read of an answer (``--timeout`` sets the second).
CONNECT_TIMEOUT = 10
READ_TIMEOUT = 60
CHUNK = 1 << 16
#: A download or upload larger than this says how far it is.
PROGRESS_FROM = 4 << 20
MAX_PAGES = 10000


class CodabenchError(Exception):
    """A failure said in one line. ``status`` is the exit status: 1 (the platform or the network), 2 (local input:
    a file, an option); ``http_status``: the platform's answer, when there was one."""

    def __init__(self, message, status=1, http_status=None):
        Exception.__init__(self, message)
        self.status = status
        self.http_status = http_status


def base_url_of(value):
    """``value`` as ``scheme://host[:port]`` with any path kept and no trailing slash (CodabenchError if it is not an
    http(s) address)."""
    text = (value or "").strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise CodabenchError("--base-url %s is not an http(s) address (e.g. %s)" % (printable(text), DEFAULT_BASE_URL),
                             2)
    return "%s://%s%s" % (parts.scheme, parts.netloc, parts.path.rstrip("/"))


def shown_url(url):
    """``url`` without its query and fragment: what a message may show of an address (a presigned URL's query holds
    its credentials)."""
    parts = urlsplit(url)
    return "%s://%s%s" % (parts.scheme, parts.netloc, parts.path)


def token_file_path(path=None, environ=None):
    """The token file: ``path``, else ``$CODABENCH_TOKEN_FILE``, else ``~/.config/codabench/token``."""
    environ = os.environ if environ is None else environ
    return os.path.expanduser(path or environ.get(TOKEN_FILE_ENV) or DEFAULT_TOKEN_FILE)


def read_token(path=None, environ=None, required=True):
    """The API token: ``$CODABENCH_TOKEN`` when set (and no ``path`` is given), else the content of the token file
    (:func:`token_file_path`), which must be readable by its owner only. None when there is none and not
    ``required``; CodabenchError (one line, never the token) otherwise."""
    environ = os.environ if environ is None else environ
    if not path and environ.get(TOKEN_ENV, "").strip():
        return _checked_token(environ[TOKEN_ENV], "$%s" % TOKEN_ENV)
    where = token_file_path(path, environ)
    if not os.path.exists(where):
        if not required:
            return None
        raise CodabenchError("no Codabench token: set %s, or write it to %s (readable by you only: "
                             "`python -m organiser codabench login` does it)" % (TOKEN_ENV, where), 2)
    info = os.stat(where)
    if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise CodabenchError("token file %s can be read or changed by others (mode %s): run `chmod 600 %s`; it is "
                             "not used until then" % (where, oct(stat.S_IMODE(info.st_mode))[2:], where), 2)
    with open(where, encoding="utf-8", errors="replace") as handle:
        return _checked_token(handle.read(), "token file %s" % where)


def _checked_token(text, where):
    token = text.strip()
    if not token or any(c.isspace() for c in token) or not token.isprintable():
        raise CodabenchError("%s holds no token (expected one line: the token of your Codabench account)" % where, 2)
    return token


def write_token(token, path):
    """Write ``token`` to ``path``, created readable and writable by its owner only (its folder too)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        os.makedirs(folder, mode=0o700)
    if os.path.exists(path):
        os.remove(path)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")


class Client(object):
    """Calls to one Codabench instance: ``base_url``, ``token`` (None: anonymous), ``timeout`` (seconds of a read),
    ``retries`` (further attempts after a network failure or a 5xx answer) and ``backoff`` (the first wait, doubled
    at each attempt). ``log`` gets the progress lines (stderr)."""

    def __init__(self, base_url, token=None, timeout=READ_TIMEOUT, retries=4, backoff=1.0, log=None):
        self.base_url = base_url_of(base_url)
        self._token = token
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self.backoff = backoff
        self.log = log or _stderr
        self._session = requests.Session()
        self._session.headers["User-Agent"] = "competition-kit-organiser"

    def __repr__(self):
        return "Client(%s)" % self.base_url

    # ----------------------------------------------------------------------------------------------- plumbing
    def url(self, path):
        """The absolute address of an API path."""
        return urljoin(self.base_url + "/", path.lstrip("/"))

    def sanitise(self, text):
        """``text`` with the token and every URL query taken out (for messages built from foreign text)."""
        text = str(text)
        if self._token:
            text = text.replace(self._token, "<token>")
        out = []
        for word in text.split(" "):
            if "://" in word and "?" in word:
                word = word.split("?", 1)[0] + "?<query>"
            elif "?" in word and "=" in word.split("?", 1)[1]:   # a path with its query, as urllib3 prints it
                word = word.split("?", 1)[0] + "?<query>"
            out.append(word)
        return printable(" ".join(out), 800)

    def send(self, method, url, what, idempotent, auth=True, **kwargs):
        """One request with retries: a connection that could not be made is retried for any method; a timeout
        while waiting for the answer and a 5xx answer only for ``idempotent`` calls (a POST that may have been
        done is never repeated blindly). Returns the response, whatever its status; CodabenchError when the
        server could not be reached."""
        headers = dict(kwargs.pop("headers", None) or {})
        if auth and self._token:
            headers["Authorization"] = "Token %s" % self._token
        timeout = kwargs.pop("timeout", (CONNECT_TIMEOUT, self.timeout))
        attempt = 0
        while True:
            failure = None
            try:
                response = self._session.request(method, url, headers=headers, timeout=timeout, **kwargs)
            except requests.RequestException as error:
                failure, retry = self._network_failure(error, url, what, idempotent, timeout)
            else:
                if response.status_code not in RETRY_STATUSES or not idempotent or attempt >= self.retries:
                    response.attempts = attempt + 1
                    return response
                retry = True
                failure = "Codabench answered %d" % response.status_code
                response.close()
            if not retry or attempt >= self.retries:
                raise CodabenchError(failure if attempt == 0 else "%s (after %d attempts)" % (failure, attempt + 1))
            wait = min(self.backoff * (2 ** attempt), 60.0)
            self.log("%s: %s; trying again in %.1f s (attempt %d of %d)" % (what, failure, wait, attempt + 2,
                                                                             self.retries + 1))
            time.sleep(wait)
            attempt += 1
            data = kwargs.get("data")
            if hasattr(data, "seek"):
                data.seek(0)

    def _network_failure(self, error, url, what, idempotent, timeout):
        """``(one line, whether to retry)`` for a request that got no answer."""
        host = "%s://%s" % (urlsplit(url).scheme, urlsplit(url).netloc)
        reason = getattr(error.args[0], "reason", None) if error.args else None
        if isinstance(error, requests.ConnectTimeout):
            return ("%s: cannot reach %s (no connection within %g s): is the address right and the server up?"
                    % (what, host, timeout[0] if isinstance(timeout, tuple) else timeout)), True
        if isinstance(error, requests.Timeout):
            return ("%s: no answer from %s within %g s: the server is slow or unreachable; try again or raise "
                    "--timeout" % (what, host, timeout[1] if isinstance(timeout, tuple) else timeout)), idempotent
        if isinstance(reason, urllib3.exceptions.NameResolutionError):
            return "%s: cannot reach %s (its name does not resolve): check --base-url" % (what, host), True
        if isinstance(reason, urllib3.exceptions.NewConnectionError):
            text = str(reason)
            why = "connection refused" if "refused" in text.lower() else "no connection"
            return "%s: cannot reach %s (%s): is the address right and the server up?" % (what, host, why), True
        if isinstance(error, requests.exceptions.SSLError):
            return "%s: cannot reach %s (TLS certificate or handshake refused)" % (what, host), False
        return "%s: the connection to %s failed (%s)" % (what, host, type(error).__name__), idempotent

    def call(self, method, path, what, thing=None, idempotent=None, params=None, json=None, data=None,
             expect=(200, 201)):
        """An API call; its JSON (or text, for a text answer) when the status is one of ``expect``, else
        CodabenchError explaining the answer (:func:`explain`). ``thing`` names what a 404 says is missing;
        ``idempotent`` defaults to every method but POST."""
        if idempotent is None:
            idempotent = method != "POST"
        response = self.send(method, self.url(path), what, idempotent, params=params, json=json, data=data)
        body = _body(response)
        if response.status_code not in expect:
            raise CodabenchError(self.sanitise(explain(response.status_code, body, what, thing, self.base_url,
                                                       method, response.attempts)), http_status=response.status_code)
        if isinstance(body, str) and body.lstrip().startswith("<"):
            raise CodabenchError("%s: %s answered with an HTML page, not the API's JSON: is it a Codabench address?"
                                 % (what, self.base_url))
        return body

    def get(self, path, what, thing=None, params=None):
        """``GET`` of a JSON endpoint."""
        return self.call("GET", path, what, thing, params=params)

    def get_all(self, path, what, thing=None, params=None):
        """Every item of a list endpoint: a plain JSON list (Codabench of March 2026 answers so on submissions and
        participants, and ignores ``page``), or pages ``{"results": [...], "next": url}`` followed to the end (its
        paginated endpoints: tasks, datasets; any endpoint a later version paginates)."""
        body = self.get(path, what, thing, params)
        if isinstance(body, list):
            return body
        items, seen = [], set()
        while True:
            if not isinstance(body, dict) or not isinstance(body.get("results"), list):
                raise CodabenchError("%s: expected a list from %s, got %s" % (what, path, type(body).__name__))
            items.extend(body["results"])
            following = body.get("next")
            if not following:
                return items
            if urlsplit(following).netloc not in ("", urlsplit(self.base_url).netloc) or following in seen \
                    or len(seen) >= MAX_PAGES:
                raise CodabenchError("%s: the next page %s is not on %s, or the pages do not end"
                                     % (what, shown_url(following), self.base_url))
            seen.add(following)
            response = self.send("GET", urljoin(self.base_url + "/", following), what, True)
            body = _body(response)
            if response.status_code != 200:
                raise CodabenchError(self.sanitise(explain(response.status_code, body, what, thing, self.base_url,
                                                           "GET", response.attempts)))

    # ------------------------------------------------------------------------------------------- file transfers
    def download(self, url, target, what):
        """Fetch a presigned URL (no token sent) into ``target`` (written beside as ``.part``, renamed when whole);
        return ``(size, sha256)``. Progress on stderr for files larger than :data:`PROGRESS_FROM`."""
        response = self.send("GET", url, what, True, auth=False, stream=True)
        try:
            if response.status_code != 200:
                raise CodabenchError(self.sanitise(store_refusal(response, what, url)))
            total = _int(response.headers.get("Content-Length"))
            digest, size, shown = hashlib.sha256(), 0, 0
            part = target + ".part"
            with open(part, "wb") as handle:
                for chunk in response.iter_content(CHUNK):
                    handle.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
                    shown = self._progress(what, size, total, shown)
        except requests.RequestException as error:
            raise CodabenchError("%s: the download from %s broke off (%s): run the command again"
                                 % (what, shown_url(url), type(error).__name__))
        finally:
            response.close()
        if total is not None and size != total:
            os.remove(part)
            raise CodabenchError("%s: %d of %d bytes arrived from %s: run the command again"
                                 % (what, size, total, shown_url(url)))
        os.replace(part, target)
        return size, digest.hexdigest()

    def upload(self, url, path, what):
        """PUT the bytes of ``path`` to a presigned URL (no token sent), as Codabench's upload page does."""
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            body = _ProgressReader(handle, size, lambda done, shown: self._progress(what, done, size, shown))
            response = self.send("PUT", url, what, True, auth=False, data=body,
                                 headers={"Content-Type": "application/zip", "Content-Length": str(size)})
        if response.status_code not in (200, 201, 204):
            raise CodabenchError(self.sanitise(store_refusal(response, what, url)))
        return size

    def _progress(self, label, done, total, shown):
        """Log ``label``'s progress every tenth of a large transfer; return the last tenth shown."""
        if total is None or total < PROGRESS_FROM:
            return shown
        tenth = done * 10 // total
        if tenth > shown:
            self.log("%s: %.1f of %.1f MB (%d%%)" % (label, done / 1e6, total / 1e6, tenth * 10))
            return tenth
        return shown


class _ProgressReader(object):
    """A file object for ``requests`` that reports how much was read."""

    def __init__(self, handle, size, report):
        self.handle, self.size, self.report = handle, size, report
        self.done, self.shown = 0, 0

    def __len__(self):
        return self.size

    def read(self, amount=-1):
        chunk = self.handle.read(amount if amount and amount > 0 else CHUNK)
        self.done += len(chunk)
        self.shown = self.report(self.done, self.shown)
        return chunk

    def seek(self, offset, whence=0):
        self.done = 0
        return self.handle.seek(offset, whence)

    def tell(self):
        return self.handle.tell()


def _body(response):
    """The answer's JSON when it is JSON, else its text."""
    kind = response.headers.get("Content-Type", "")
    if "json" in kind:
        try:
            return response.json()
        except ValueError:
            return response.text
    return response.text


def store_refusal(response, what, url):
    """One line for a refusal of the file store behind a presigned URL (its address shown without its query)."""
    said = "%d %s" % (response.status_code, printable(detail_of(_body(response)), 200))
    if response.status_code == 403:
        return ("%s: the file store refused the address (%s): a presigned address expires; run the command again"
                % (what, said))
    if response.status_code == 404:
        return "%s: the file store has no file at %s (%s)" % (what, shown_url(url), said)
    return explain(response.status_code, _body(response), what, "file", shown_url(url), response.request.method,
                   getattr(response, "attempts", 1))


def _int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def detail_of(body):
    """What Codabench says in a refusal: ``detail``, ``error``, the first field error, or the last line of a CSV
    refusal (``detail\\r\\n<message>``); a page of HTML is only called so."""
    if isinstance(body, dict):
        for key in ("detail", "error", "non_field_errors"):
            if body.get(key):
                value = body[key]
                return value[0] if isinstance(value, list) else value
        for key, value in sorted(body.items()):
            if isinstance(value, list) and value:
                return "%s: %s" % (key, value[0])
        return ""
    if isinstance(body, list) and body:
        return body[0] if isinstance(body[0], str) else ""
    text = (body or "").strip()
    if text.startswith("<"):    # a storage service's XML error names its code and message; a web page, nothing
        found = [re.search(r"<%s>([^<]{1,200})</%s>" % (tag, tag), text) for tag in ("Code", "Message")]
        return ": ".join(m.group(1) for m in found if m) or "an HTML page"
    lines = [line.strip().strip('"') for line in text.splitlines() if line.strip().strip('"')]
    return lines[-1] if lines else ""


def explain(status, body, what, thing, where, method="GET", attempts=1):
    """One line for a refusal (see the module docstring of :mod:`organiser.codabench`); ``attempts``: how many
    times the request was made."""
    detail = printable(detail_of(body), 200)
    said = "%d %s" % (status, detail) if detail else "%d" % status
    if status == 403 and detail == "Invalid token.":
        return ("%s: %s refused the token (%s): a wrong or revoked token, or one of another Codabench instance; "
                "get one with `python -m organiser codabench login --base-url %s`" % (what, where, said, where))
    if status == 401 or (status == 403 and "credentials were not provided" in detail):
        return "%s: %s wants a token (%s): set %s or write a token file" % (what, where, said, TOKEN_ENV)
    if status == 403:
        return ("%s: refused (%s): the account of this token is not an organiser (owner or collaborator) of this "
                "competition, or may not do this" % (what, said))
    if status == 404:
        return "%s: no such %s on %s, or not one this account can see (%s)" % (what, thing or "object", where, said)
    if status == 405:
        return "%s: %s does not allow %s here (%s)" % (what, where, method, said)
    if status in RETRY_STATUSES or status >= 500:
        times = " (%d attempts)" % attempts if attempts > 1 else ""
        return "%s: Codabench failed (%s)%s; try again later" % (what, said, times)
    if status == 400:
        return "%s: Codabench refused the request (%s)" % (what, said)
    return "%s: unexpected answer from %s (%s)" % (what, where, said)


def _stderr(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
