"""gunicorn's threaded worker, with the request line limit's answer in the site's shape.

gunicorn refuses a request line longer than `limit_request_line` (cardsite/gunicorn_conf.py)
before the site sees the request, with an HTML page of its own. Here that answer is a 414
problem document (RFC 9457, like every error under /api/) for an address under /api/, and a
plain-text sentence for any other, both saying the limit."""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.http.errors import LimitRequestLine
from gunicorn.http.message import Request
from gunicorn.workers.gthread import ThreadWorker

from cardsite.problems import PROBLEM_CONTENT_TYPE, problem_body

#: The request line's first bytes, kept on the exception: enough to tell the address's start.
LINE_START_BYTES = 64

_read_line = Request.read_line


def _read_line_keeping_its_start(self, unreader, buf, limit=0):
    try:
        return _read_line(self, unreader, buf, limit)
    except LimitRequestLine as exc:
        exc.line_start = bytes(buf[:LINE_START_BYTES])
        raise


Request.read_line = _read_line_keeping_its_start


def _is_api(line_start: bytes) -> bool:
    parts = line_start.split(b" ", 2)
    if len(parts) < 2:
        return False
    target = parts[1]
    if b"://" in target:
        target = b"/" + target.split(b"://", 1)[1].partition(b"/")[2]
    return target.startswith(b"/api/")


def too_long_answer(limit: int, line_start: bytes) -> bytes:
    """The whole 414 answer (status line, headers, body) for a request line over `limit`."""
    message = (
        f"The request line (method, address and query string) is longer than {limit:,} bytes, "
        "the limit: shorten the query string."
    )
    if _is_api(line_start):
        data: dict[str, Any] = {"detail": message, "code": "uri_too_long"}
        body = json.dumps(problem_body(414, data)).encode()
        content_type = PROBLEM_CONTENT_TYPE
    else:
        body = message.encode()
        content_type = "text/plain; charset=utf-8"
    head = (
        "HTTP/1.1 414 URI Too Long\r\n"
        "Connection: close\r\n"
        f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ThreadWorker414(ThreadWorker):
    """gunicorn's gthread worker; a request line over the limit answered in the site's shape."""

    def handle_error(self, req, client, addr, exc):
        if not isinstance(exc, LimitRequestLine):
            return super().handle_error(req, client, addr, exc)
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        limit = exc.max_size or self.cfg.limit_request_line
        try:
            util.write_nonblock(client, too_long_answer(limit, getattr(exc, "line_start", b"")))
        except Exception:  # noqa: BLE001 - the client may be gone; as gunicorn does
            self.log.debug("Failed to send error message.")
