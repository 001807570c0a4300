"""The request body at the HTTP edge, before and after Django (`cardsite.wsgi` wraps the site in
`BodyEdge`):

- A chunked body (`Transfer-Encoding: chunked`, no Content-Length) is read whole, up to
  `CHUNKED_MAX_BYTES` (DATA_UPLOAD_MAX_MEMORY_SIZE), and handed to Django with its length;
  a longer one answers 413. Django reads a body by its Content-Length alone: unread, a chunked
  body would be taken for an empty one.
- An answer given before the body was read (a 413 for a body over the limit, a 401, a 404…)
  leaves the rest of the body on a kept-alive connection. It is read and thrown away, up to
  `DRAIN_MAX_BYTES`, before the answer goes out, so that the next request on the connection
  starts where the client sent it; past that bound the answer says `Connection: close` and
  the connection closes (the body's `close_connection`, which gunicorn's `pre_request` hook
  in cardsite/gunicorn_conf.py gives it).

Both apply where the server marks the body's end (`wsgi.input_terminated`, as gunicorn does):
elsewhere reading past the body would wait for bytes that never come.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings

from cardsite.problems import PROBLEM_CONTENT_TYPE, problem_body

#: How much of an unread body is read and thrown away to keep the connection open.
DRAIN_MAX_BYTES = 16 * 1024 * 1024
#: The attribute of the server's body stream (`wsgi.input`) holding a callable that makes the
#: server close the connection after this answer (set by cardsite.gunicorn_conf.pre_request).
CLOSE_ATTRIBUTE = "close_connection"
READ_SIZE = 64 * 1024


def chunked_max_bytes() -> int:
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0) or 2_621_440


def _is_chunked(environ: dict[str, Any]) -> bool:
    coding = environ.get("HTTP_TRANSFER_ENCODING", "")
    return "chunked" in coding.lower() and not environ.get("CONTENT_LENGTH")


def _too_large(environ: dict[str, Any], limit: int) -> tuple[str, list[tuple[str, str]], bytes]:
    message = f"the request body is larger than {limit:,} bytes, the limit"
    if environ.get("PATH_INFO", "").startswith("/api/"):
        body = json.dumps(problem_body(413, {"body": [message]})).encode()
        content_type = PROBLEM_CONTENT_TYPE
    else:
        body = f"The request body is too large: {message}.".encode()
        content_type = "text/plain; charset=utf-8"
    headers = [("Content-Type", content_type), ("Content-Length", str(len(body)))]
    return "413 Request Entity Too Large", headers, body


def drain(stream: Any) -> bool:
    """Read and throw away what is left of the body, up to DRAIN_MAX_BYTES: True when the
    body's end was reached."""
    left = DRAIN_MAX_BYTES
    try:
        while left > 0:
            data = stream.read(min(READ_SIZE, left))
            if not data:
                return True
            left -= len(data)
        return not stream.read(1)
    except (OSError, ValueError):
        return False


class BodyEdge:
    """WSGI middleware: chunked bodies read, unread bodies drained (module docstring)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        raw = environ.get("wsgi.input")
        if raw is None or not environ.get("wsgi.input_terminated"):
            return self.app(environ, start_response)
        if _is_chunked(environ):
            limit = chunked_max_bytes()
            data = raw.read(limit + 1)
            if len(data) > limit:
                status, headers, body = _too_large(environ, limit)
                self._finish(raw)
                start_response(status, headers)
                return [body]
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))

        def answer(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            self._finish(raw)
            return start_response(status, headers, exc_info)

        return self.app(environ, answer)

    @staticmethod
    def _finish(raw: Any) -> None:
        if not drain(raw):
            close = getattr(raw, CLOSE_ATTRIBUTE, None)
            if close is not None:
                close()
