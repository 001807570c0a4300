"""The HTTP edge on the real server (`make run`'s gunicorn and its configuration,
cardsite/gunicorn_conf.py), spoken to over raw sockets: a connection kept alive after an answer
given before the body was read, chunked bodies, and the request line's limit."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from cardsite.http_edge import DRAIN_MAX_BYTES

pytestmark = pytest.mark.faults

VALID = {"game": "redline", "format": "standard", "list": "Arsenal:\n4 Tigercat"}


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)


def read_answer(stream) -> Answer:
    status_line = stream.readline()
    if not status_line:
        raise ConnectionError("Server disconnected without sending a response")
    headers: dict[str, str] = {}
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while size := int(stream.readline().split(b";")[0], 16):
            body += stream.read(size)
            stream.readline()
        stream.readline()
    else:
        body = stream.read(int(headers.get("content-length", "0")))
    return Answer(int(status_line.split()[1]), headers, body)


def send_in_background(sock: socket.socket, data: bytes) -> threading.Thread:
    """Send `data` while the answer is read: a server may answer before the body's end."""

    def send() -> None:
        try:
            sock.sendall(data)
        except OSError:
            pass  # the server closed the connection; the answer says whether it said so

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def post_head(path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\nConnection: keep-alive\r\n\r\n"
    ).encode()


NEXT = b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.mark.parametrize(
    ("path", "size", "status"),
    [("/api/validate/", 3_600_000, 413), ("/api/decks/", 1_000_000, 401)],
    ids=["413-too-large", "401-anonymous"],
)
def test_a_connection_kept_alive_after_an_early_answer_serves_the_next_request(
    configured_site, path, size, status
):
    """An answer given before the body was read says keep-alive: the next request on the
    connection is answered, every time."""
    body = b"[" + b" " * (size - 2) + b"]"
    for attempt in range(10):
        with socket.create_connection(("127.0.0.1", configured_site.port), timeout=30) as sock:
            stream = sock.makefile("rb")
            sender = send_in_background(sock, post_head(path, len(body)) + body)
            first = read_answer(stream)
            sender.join(30)
            assert first.status == status
            assert first.headers["content-type"] == "application/problem+json"
            assert first.headers["connection"] == "keep-alive"
            sock.sendall(NEXT)
            second = read_answer(stream)
            assert second.status == 200, f"attempt {attempt + 1}: {second.body[:200]!r}"
            assert second.json()  # the games


def test_a_body_past_the_drain_bound_closes_the_connection_and_says_so(configured_site):
    body = b"[" + b" " * DRAIN_MAX_BYTES + b"]"
    with socket.create_connection(("127.0.0.1", configured_site.port), timeout=30) as sock:
        stream = sock.makefile("rb")
        sender = send_in_background(sock, post_head("/api/validate/", len(body)) + body)
        answer = read_answer(stream)
        assert answer.status == 413
        assert answer.headers["connection"] == "close"
        assert stream.read() == b""  # closed, as it said
        sender.join(30)


def chunked(data: bytes, size: int = 7) -> bytes:
    parts = [data[i : i + size] for i in range(0, len(data), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def chunked_post(path: str, data: bytes) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    return head + chunked(data)


def test_a_chunked_body_is_read(configured_site):
    with socket.create_connection(("127.0.0.1", configured_site.port), timeout=30) as sock:
        stream = sock.makefile("rb")
        sock.sendall(chunked_post("/api/validate/", json.dumps(VALID).encode()))
        answer = read_answer(stream)
        assert answer.status == 200, answer.body[:300]
        assert "legal" in answer.json()
        # and the connection goes on
        sock.sendall(NEXT)
        assert read_answer(stream).status == 200


def test_a_chunked_body_over_the_limit_is_a_413(configured_site):
    data = b"[" + b" " * 2_700_000 + b"]"
    with socket.create_connection(("127.0.0.1", configured_site.port), timeout=30) as sock:
        stream = sock.makefile("rb")
        sender = send_in_background(sock, chunked_post("/api/validate/", data))
        answer = read_answer(stream)
        sender.join(30)
        assert answer.status == 413
        assert answer.headers["content-type"] == "application/problem+json"
        assert "2,621,440 bytes" in answer.json()["detail"]


def get(port: int, target: str) -> Answer:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        return read_answer(sock.makefile("rb"))


@pytest.mark.parametrize(
    "path", ["/api/decklists/", "/api/decks/1/export/sheet/", "/api/play/red-code/visual-field/"]
)
def test_a_request_line_over_the_limit_is_a_problem_document_under_api(configured_site, path):
    answer = get(configured_site.port, path + "?card=" + "x" * 9000)
    assert answer.status == 414
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["type"] == "urn:cardsite:problem:uri-too-long"
    assert problem["status"] == 414
    assert "8,190 bytes" in problem["detail"]


def test_a_request_line_over_the_limit_elsewhere_is_plain_text(configured_site):
    answer = get(configured_site.port, "/cards/?q=" + "x" * 9000)
    assert answer.status == 414
    assert answer.headers["content-type"].startswith("text/plain")
    assert b"8,190 bytes" in answer.body


def test_a_request_line_under_the_limit_reaches_the_site(configured_site):
    """5,000 bytes: past gunicorn's default limit (4,094), within the declared one."""
    answer = get(configured_site.port, "/api/cards/?game=redline&q=" + "x" * 5000)
    assert answer.status == 400
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["errors"][0]["field"] == "q"
