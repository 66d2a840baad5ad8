"""Issue #28, items 8 and 9: nobody can starve the studio or make it print a traceback.

Idle and half-sent connections time out and, over the caps, give their place to a new
connection; other methods get a 405 and nothing on the terminal; a client that resets
mid-answer is forgotten quietly.  The load test holds hundreds (and a thousand) idle
connections open while a normal page answers within a second.
"""

from __future__ import annotations

import shutil
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from cardgen.studio import server as studio_server
from cardgen.studio.server import Connections, StudioServer
from cardgen.studio.state import Studio

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> Studio:
    folder = tmp_path_factory.mktemp("content")
    shutil.copytree(MINI, folder / "mini")
    found = Studio(folder)
    found.load()
    return found


def start(studio: Studio, connections: Connections | None = None) -> tuple[StudioServer, threading.Thread]:
    running = StudioServer(studio, "127.0.0.1", 0)
    if connections is not None:
        running.connections = connections
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return running, thread


@pytest.fixture()
def server(studio):
    running, thread = start(studio)
    yield running
    running.close()
    thread.join(timeout=5)


def request(port: int, raw: bytes, timeout: float = 10.0) -> tuple[int, bytes, float]:
    """Send ``raw``, read the answer to the end; the status, the bytes and the seconds it took."""
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(raw)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data, time.monotonic() - began


def get(port: int, target: str = "/", timeout: float = 10.0) -> tuple[int, bytes, float]:
    return request(port, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode(),
                   timeout)


def half_sent(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send the start of a request and then nothing."""
    opened = []
    for _ in range(count):
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        opened.append(conn)
    return opened


def closed_by_peer(conn: socket.socket, within: float) -> bool:
    conn.settimeout(within)
    try:
        while conn.recv(65536):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


# -- item 9: other methods and disconnects ----------------------------------------------------

@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_hostile_studio_other_methods_get_405_and_print_nothing(server, capfd, method):
    """Any web page can send a form post to the studio: a 405, then nothing printed (it was a
    traceback: "'StudioHandler' object has no attribute 'head'")."""
    body = b"a=1&b=2"
    status, data, _ = request(server.port, f"{method} / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                                           f"Content-Type: application/x-www-form-urlencoded\r\n"
                                           f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    assert status == 405
    assert b"Allow: GET, HEAD" in data
    assert get(server.port)[0] == 200  # and the studio goes on
    time.sleep(0.2)
    out, err = capfd.readouterr()
    assert "Traceback" not in err and "Error" not in err, err
    assert out == ""


def test_hostile_studio_a_client_resetting_mid_answer_prints_nothing(server, studio, capfd):
    """A client that asks for a page and resets the connection (RST) before reading it."""
    targets = ["/", "/g/mini/en/", "/g/mini/en/card/one", "/img/mini/en/face/one.png", "/img/mini/en/face/swap.png"]
    for _ in range(5):
        for target in targets:
            conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            conn.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            conn.recv(10)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = RST
            conn.close()
    assert get(server.port)[0] == 200
    time.sleep(0.3)
    _, err = capfd.readouterr()
    assert "Traceback" not in err and "BrokenPipe" not in err and "ConnectionReset" not in err, err


# -- item 8: timeouts and caps ----------------------------------------------------------------

def test_hostile_studio_a_half_sent_request_is_closed_after_the_timeout(studio, monkeypatch):
    monkeypatch.setattr(studio_server.StudioHandler, "timeout", 0.5)
    running, thread = start(studio, Connections(timeout_s=0.5))
    try:
        (idle,) = half_sent(running.port, 1)
        began = time.monotonic()
        assert closed_by_peer(idle, within=5)
        assert time.monotonic() - began < 3
        idle.close()
    finally:
        running.close()
        thread.join(timeout=5)


def test_hostile_studio_a_trickled_request_loses_its_place_after_the_timeout(studio, monkeypatch):
    """A byte every 0.2 s never trips a read timeout of 0.5 s: the request's whole time is
    bounded too, and the next connection over the cap closes it."""
    monkeypatch.setattr(studio_server.StudioHandler, "timeout", 0.5)
    running, thread = start(studio, Connections(per_client=4, timeout_s=0.5))
    try:
        tricklers = half_sent(running.port, 4)
        for _ in range(6):
            for conn in tricklers:
                conn.sendall(b"X")
            time.sleep(0.2)
        assert get(running.port, timeout=5)[0] == 200
        assert all(closed_by_peer(conn, within=2) for conn in tricklers)
        for conn in tricklers:
            conn.close()
    finally:
        running.close()
        thread.join(timeout=5)


def test_hostile_studio_a_new_connection_over_the_cap_takes_the_place_of_the_oldest_idle(studio):
    running, thread = start(studio, Connections(per_client=8, total=12))
    try:
        idle = half_sent(running.port, 20)
        time.sleep(0.2)
        assert running.connections.count() <= 8
        status, _, took = get(running.port)
        assert status == 200 and took < 1.0
        assert closed_by_peer(idle[0], within=2)  # the oldest went first
        assert not closed_by_peer(idle[-1], within=0.2)  # the newest is still served
        for conn in idle:
            conn.close()
    finally:
        running.close()
        thread.join(timeout=5)


def test_hostile_studio_connections_that_are_all_answering_refuse_the_next():
    """Only idle connections and event streams give way; when every place is answering a
    request, a new connection is refused (503) rather than opening more threads."""
    caps = Connections(per_client=2, total=3)
    pairs = [socket.socketpair() for _ in range(5)]
    try:
        first, second, third, fourth, fifth = (pair[0] for pair in pairs)
        assert caps.admit(first, "a") and caps.admit(second, "a")
        caps.mark(first, "busy")
        caps.mark(second, "stream")
        assert caps.admit(third, "a")  # the stream gave way
        assert caps.count() == 2
        caps.mark(third, "busy")
        assert not caps.admit(fourth, "a")  # both of a's places answer requests
        assert caps.admit(fourth, "b")
        caps.mark(fourth, "busy")
        assert not caps.admit(fifth, "c")  # three in all, every one busy
        caps.forget(first)
        assert caps.admit(fifth, "c")
    finally:
        for pair in pairs:
            for end in pair:
                end.close()


@pytest.mark.parametrize("idle_count", [300, 1000])
def test_hostile_studio_load_a_normal_page_answers_within_a_second_while_idle_connections_are_open(
        server, idle_count, capfd):
    """The issue's reproduction: thousands of idle half-sent requests made the studio
    unreachable (a thread and a file each).  Now the caps hold the open connections and a
    normal page answers within a second, again and again, while they are held."""
    idle = half_sent(server.port, idle_count)
    try:
        time.sleep(0.3)
        assert server.connections.count() <= studio_server.MAX_PER_CLIENT
        for _ in range(5):
            status, body, took = get(server.port, timeout=5)
            assert status == 200 and b"<html" in body.lower()
            assert took < 1.0, f"a normal page took {took:.2f} s with {idle_count} idle connections"
        live = threading.active_count()
        assert live < studio_server.MAX_CONNECTIONS + 50, live
    finally:
        for conn in idle:
            conn.close()
    time.sleep(0.2)
    _, err = capfd.readouterr()
    assert "Traceback" not in err, err
