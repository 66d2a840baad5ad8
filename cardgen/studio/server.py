"""The studio's web server: pages, card pictures and change events, from memory only.

A :class:`ThreadingHTTPServer` of the standard library answers GET and HEAD.  No address is
ever turned into a file path: every route is a fixed pattern whose parts must name a game,
language and card the studio has loaded (pictures come from its in-memory cache) or one of the
style and script files read at start.  Anything else -- ``..`` in any spelling, absolute paths,
an absolute-form request target, a Host header other than the address we listen on (a web page
elsewhere cannot reach the studio through a DNS name pointed at 127.0.0.1) -- gets a 400 or
404 with no content.

``/events`` is a stream of server-sent events: ``hello`` with the current version on connect,
``update`` after every change the file watcher (:mod:`cardgen.studio.watcher`) applied.

Nobody can starve it (:class:`Connections`): a request must arrive whole within
:data:`REQUEST_TIMEOUT_S` and an idle connection is closed after it; at most
:data:`MAX_PER_CLIENT` connections per client address and :data:`MAX_CONNECTIONS` in all
are open, and a new connection over a cap takes the place of the oldest one that is idle
(then of the oldest event stream, which a browser reopens by itself), so idle or half-sent
connections, however many, never keep a real request out.  Other methods get a 405 and the
connection is closed; a client that resets or goes away is forgotten without a word.
"""

from __future__ import annotations

import errno
import json
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

from cardgen.errors import ServeError
from cardgen.studio.pages import TEMPLATES, Pages
from cardgen.studio.state import Studio

STATIC = {"studio.css": "text/css; charset=utf-8", "studio.js": "text/javascript; charset=utf-8"}
SIDES = ("face", "back")
HEARTBEAT_S = 15.0  # a comment line on the event stream, so a closed tab is noticed
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_TARGET = 2048  # characters of a request target
#: Seconds a request (its line and headers) may take to arrive, and a kept-alive connection may idle.
REQUEST_TIMEOUT_S = 10.0
#: Connections open at once from one client address, and in all (each is a thread and a file).
MAX_PER_CLIENT = 64
MAX_CONNECTIONS = 256
#: What a client going away mid-answer raises: never worth a traceback.
DISCONNECTS = (ConnectionError, TimeoutError)


@dataclass
class _Connection:
    sock: socket.socket
    client: str
    since: float  # when it began waiting for a request, or began its answer
    state: str = "idle"  # idle (waiting for a request), busy (answering), stream (/events)


class Connections:
    """The open connections, for the caps and timeouts of the module's docstring."""

    def __init__(self, per_client: int = MAX_PER_CLIENT, total: int = MAX_CONNECTIONS,
                 timeout_s: float = REQUEST_TIMEOUT_S):
        self.per_client, self.total, self.timeout_s = per_client, total, timeout_s
        self._lock = threading.Lock()
        self._open: dict[int, _Connection] = {}

    def admit(self, sock: socket.socket, client: str) -> bool:
        """Whether a new connection is served, after closing the idle ones whose time is up and,
        over a cap, the oldest idle one (else event stream) of that client or of all."""
        with self._lock:
            now = time.monotonic()
            for found in list(self._open.values()):
                if found.state == "idle" and now - found.since > self.timeout_s:
                    self._drop(found)
            mine = [found for found in self._open.values() if found.client == client]
            if len(mine) >= self.per_client and not self._evict(mine):
                return False
            if len(self._open) >= self.total and not self._evict(list(self._open.values())):
                return False
            self._open[id(sock)] = _Connection(sock, client, now)
            return True

    def mark(self, sock: socket.socket, state: str) -> None:
        with self._lock:
            found = self._open.get(id(sock))
            if found is not None and found.sock is sock:
                found.state, found.since = state, time.monotonic()

    def forget(self, sock: socket.socket) -> None:
        with self._lock:
            found = self._open.get(id(sock))
            if found is not None and found.sock is sock:
                del self._open[id(sock)]

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def _evict(self, among: list[_Connection]) -> bool:
        for state in ("idle", "stream"):
            waiting = [found for found in among if found.state == state]
            if waiting:
                self._drop(min(waiting, key=lambda found: found.since))
                return True
        return False  # every one is answering a request: the new one waits its turn elsewhere

    def _drop(self, found: _Connection) -> None:
        """Close a connection under its handler's feet: its read returns nothing and it ends."""
        del self._open[id(found.sock)]
        try:
            found.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class Broker:
    """Hands every change event to each open event stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: set[queue.Queue] = set()
        self.closed = threading.Event()

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=100)
        with self._lock:
            self._queues.add(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._queues.discard(q)

    def publish(self, event: dict) -> None:
        with self._lock:
            for q in list(self._queues):
                try:
                    q.put_nowait(event)
                except queue.Full:  # a stalled reader: it catches up with the next hello
                    self._queues.discard(q)

    def close(self) -> None:
        self.closed.set()
        self.publish({"type": "close"})


class StudioServer(ThreadingHTTPServer):
    daemon_threads = True
    # SO_REUSEADDR: a studio restarted at once gets its port back (connections of the last one
    # linger in TIME_WAIT); on Linux a port another program listens on is still refused
    allow_reuse_address = True
    # connections waiting to be accepted: the default 5 makes a burst of connections (a page's
    # pictures, or a flood) wait out TCP's one-second retries
    request_queue_size = 128

    def __init__(self, studio: Studio, host: str, port: int):
        self.studio = studio
        self.pages = Pages(studio)
        self.broker = Broker()
        self.static = {name: (TEMPLATES / name).read_bytes() for name in STATIC}
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            super().__init__((host, port), StudioHandler)
        except socket.gaierror as exc:
            raise ServeError(f"cannot listen on host '{host}': {exc.strerror or exc}") from None
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} on {host} is in use; choose another with --port "
                                 "(or --port 0 for any free port)") from None
            if exc.errno in (errno.EACCES, errno.EPERM):
                raise ServeError(f"no permission to listen on port {port} of {host} "
                                 "(ports below 1024 need root); choose another with --port") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        self.host = host
        self.allowed_hosts = self._allowed_hosts(host)
        self.connections = Connections()

    def process_request(self, request, client_address) -> None:
        if not self.connections.admit(request, str(client_address[0])):
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Connection: close\r\nRetry-After: 1\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread for it (the process is out of threads): closed, not leaked
            self.connections.forget(request)
            self.shutdown_request(request)
            raise

    def shutdown_request(self, request) -> None:
        self.connections.forget(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address) -> None:
        """A client that reset, went away or timed out is no error of ours: nothing is printed."""
        if isinstance(sys.exc_info()[1], DISCONNECTS):
            return
        super().handle_error(request, client_address)

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def _allowed_hosts(self, host: str) -> set[str] | None:
        """Host header names accepted (None: any, when listening beyond this machine)."""
        if host in LOOPBACK or host.startswith("127."):
            return LOOPBACK | {host}
        return None

    def notify(self, event: dict) -> None:
        self.broker.publish(event)

    def close(self) -> None:
        self.broker.close()
        self.shutdown()
        self.server_close()


class StudioHandler(BaseHTTPRequestHandler):
    server: StudioServer
    server_version = "cardgen-studio"
    sys_version = ""
    timeout = REQUEST_TIMEOUT_S  # each read and write of the connection (StreamRequestHandler.setup)
    head = False  # a HEAD request: headers only

    def handle_one_request(self) -> None:
        self.server.connections.mark(self.connection, "idle")  # waiting for the next request
        super().handle_one_request()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # the studio is quiet; errors show in the page

    # -- dispatch -------------------------------------------------------------------------------
    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        self._dispatch(head=True)

    def do_GET(self) -> None:  # noqa: N802
        self._dispatch(head=False)

    def _refuse(self) -> None:
        self.server.connections.mark(self.connection, "busy")
        self.head = False
        self.close_connection = True  # its body, never read, must not be taken for the next request
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"", "text/plain", extra={"Allow": "GET, HEAD", "Connection": "close"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    def _dispatch(self, head: bool) -> None:
        self.server.connections.mark(self.connection, "busy")
        self.head = head
        parts = self._parts()
        if parts is None:
            return
        if parts == ["events"]:
            self._events()  # a stream that stays open: never under the studio's lock
            return
        with self.server.studio.lock:
            routed = self._route(parts)
        if routed is None:
            return  # answered already (a redirect)
        status, body, kind, cache = routed
        self._send(status, body, kind, cache=cache)

    def _parts(self) -> list[str] | None:
        """The path's parts, decoded; None (after answering 400/421) when the target is refused."""
        target = self.path
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        allowed = self.server.allowed_hosts
        if allowed is not None and host not in allowed:
            self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host\n", "text/plain")
            return None
        if not target.startswith("/") or target.startswith("//") or len(target) > MAX_TARGET:
            self._send(HTTPStatus.BAD_REQUEST, b"bad request target\n", "text/plain")
            return None
        path = urlsplit(target).path
        try:
            parts = [unquote(part, errors="strict") for part in path[1:].split("/")]
        except UnicodeDecodeError:
            self._send(HTTPStatus.BAD_REQUEST, b"bad request target\n", "text/plain")
            return None
        for part in parts:
            if part in (".", "..") or any(c in part for c in "/\\\x00") or part.startswith("."):
                self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
                return None
        return parts

    def _route(self, parts: list[str]):
        pages = self.server.pages
        studio = self.server.studio
        html = "text/html; charset=utf-8"
        match parts:
            case [""]:
                return HTTPStatus.OK, pages.overview().encode("utf-8"), html, False
            case ["static", name] if name in STATIC:
                return HTTPStatus.OK, self.server.static[name], STATIC[name], False
            case ["g", game_id, ""] | ["g", game_id] if game_id in studio.games:
                view = studio.games[game_id]
                if view.languages:
                    return self._redirect(f"/g/{game_id}/{view.languages[0]}/")
                page = pages.gallery(game_id, "")
            case ["g", game_id, lang, ""] | ["g", game_id, lang]:
                page = pages.gallery(game_id, lang)
            case ["g", game_id, lang, "card", card_id]:
                page = pages.card(game_id, lang, card_id)
            case ["img", game_id, lang, side, name] if side in SIDES and name.endswith(".png"):
                png = studio.picture(game_id, lang, side, name[: -len(".png")])
                if png is None:
                    return self._not_found()
                return HTTPStatus.OK, png, "image/png", True
            case _:
                return self._not_found()
        if page is None:
            return self._not_found()
        return HTTPStatus.OK, page.encode("utf-8"), html, False

    def _not_found(self):
        return HTTPStatus.NOT_FOUND, self.server.pages.not_found(self.path).encode("utf-8"), "text/html; charset=utf-8", False

    def _redirect(self, location: str):
        self._send(HTTPStatus.FOUND, b"", "text/plain", extra={"Location": location})
        return None

    # -- answers --------------------------------------------------------------------------------
    def _send(self, status: int, body: bytes, kind: str, *, cache: bool = False, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        # a picture's address carries its version: the same address is always the same picture
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if cache else "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self'; style-src 'self' 'unsafe-inline'")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not self.head and body:
            self.wfile.write(body)

    def _events(self) -> None:
        broker = self.server.broker
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.head:
            return
        self.server.connections.mark(self.connection, "stream")
        stream = broker.subscribe()
        try:
            self._event("hello", {"version": self.server.studio.version})
            while not broker.closed.is_set():
                try:
                    event = stream.get(timeout=HEARTBEAT_S)
                except queue.Empty:
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                    continue
                if event.get("type") == "close":
                    break
                self._event("update", event)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        finally:
            broker.unsubscribe(stream)
            self.close_connection = True

    def _event(self, name: str, data: dict) -> None:
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data, sort_keys=True)}\n\n".encode("utf-8"))
        self.wfile.flush()


__all__ = ["Broker", "Connections", "StudioServer"]
