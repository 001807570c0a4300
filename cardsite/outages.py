"""A database that cannot be reached answers 503 with Retry-After, never 500; any other
database error is a bug, answered 500 and logged as one (a client told to retry would retry
forever).

A PostgreSQL restart breaks the connection a request is using and the persistent connections
of every process (CONN_MAX_AGE). The connections are checked before a request uses them
(CONN_HEALTH_CHECKS, settings), so a stale one is replaced; a request whose connection is lost
while it runs (or that cannot connect) is handled here:

- a GET or HEAD is safe to repeat: it is run once more on a new connection (after a short
  pause, a restart's usual length), and answers as usual if the database is back;
- otherwise, or when the repeat fails too, 503 with `Retry-After` and a message saying the
  database is unavailable, as a page (one that needs no database) or, under /api/, as JSON.
  A write that answered 503 was not saved (its transaction never committed).

`DatabaseOutageMiddleware` handles what a view raises; `server_error` (the site's handler500)
the rest (a session read or saved by a middleware). The cache's outage is handled where the
cache is used (cardsite.throttling): requests pass unthrottled.
"""

from __future__ import annotations

import logging
import sys
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from .errors import ExceptionMiddleware, is_statement_timeout
from .views import server_error as site_server_error

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
#: Pause before a safe request is run again: a restart's usual length.
RETRY_PAUSE_SECONDS = 0.5
DATABASE_DOWN = (
    "The database is unavailable for a moment (it may be restarting). Try again in a few seconds."
)


#: PostgreSQL's SQLSTATEs of a session the server ended or would not start: connection
#: exceptions (class 08), an administrator's or a crash's shutdown, a server not ready yet.
_LOST_SQLSTATES = ("08", "57P01", "57P02", "57P03")
#: What a lost connection says when the driver gives no SQLSTATE: psycopg's own errors
#: (a closed socket, a refused connection) and SQLite's file that cannot be opened or read, or
#: that another writer holds past the busy timeout.
_LOST_WORDS = (
    "server closed the connection",
    "connection refused",
    "connection failed",
    "could not connect",
    "connection is closed",
    "connection already closed",
    "terminating connection",
    "the database system is",
    "consuming input failed",
    "sending query failed",
    "ssl syscall error",
    "unable to open database file",
    "disk i/o error",
    "database is locked",
)


def _causes(exc: BaseException):
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        yield current
        seen.add(id(current))
        current = current.__cause__ or current.__context__


def is_database_unavailable(exc: BaseException | None) -> bool:
    """The database cannot be reached or dropped the connection: an InterfaceError, or an
    OperationalError that is a connection's loss (a SQLSTATE of a lost session, or a driver's
    error without one saying so). Any other database error (a query the database cannot run,
    a cancelled statement) is a bug or a timeout, not an outage: it is not answered 503."""
    if exc is None:
        return False
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError) or is_statement_timeout(exc):
        return False
    for cause in _causes(exc):
        sqlstate = getattr(cause, "sqlstate", None)
        if sqlstate:
            return sqlstate.startswith(_LOST_SQLSTATES)
    message = str(exc).lower()
    return any(words in message for words in _LOST_WORDS)


def drop_broken_connections() -> None:
    """Close the connections a failure left unusable, so the next use opens a new one."""
    for conn in connections.all(initialized_only=True):
        try:
            conn.close_if_unusable_or_obsolete()
        except Exception:  # noqa: BLE001 - closing a dead connection may fail too
            try:
                conn.close()
            except Exception:  # noqa: BLE001
                conn.connection = None


def database_unavailable_response(request) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": DATABASE_DOWN}, status=503)
    else:
        try:
            body = render_to_string(
                "errors/unavailable.html",
                {"message": DATABASE_DOWN, "retry_after": RETRY_AFTER_SECONDS},
            )
            response = HttpResponse(body, status=503)
        except Exception:  # noqa: BLE001 - plain text rather than a 500
            response = HttpResponse(
                DATABASE_DOWN, status=503, content_type="text/plain; charset=utf-8"
            )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _log(request, exc, outcome: str) -> None:
    logger.warning(
        "database unavailable",
        extra={
            "method": request.method,
            "path": request.path,
            "outcome": outcome,
            "error": f"{exc.__class__.__name__}: {str(exc).strip()[:200]}",
        },
    )


class DatabaseOutageMiddleware(ExceptionMiddleware):
    """A view that lost the database: a GET/HEAD is run once more, else 503 (module doc)."""

    def process_exception(self, request, exception):
        if not is_database_unavailable(exception):
            return None
        drop_broken_connections()
        match = getattr(request, "resolver_match", None)
        if request.method in ("GET", "HEAD") and match is not None:
            time.sleep(RETRY_PAUSE_SECONDS)
            try:
                response = match.func(request, *match.args, **match.kwargs)
                if callable(getattr(response, "render", None)) and not getattr(
                    response, "is_rendered", True
                ):
                    response = response.render()
            except Exception as again:
                # Any database error of the retry (a connection the outage left closed says
                # "cannot operate on a closed database"): still unavailable.
                if not (is_database_unavailable(again) or isinstance(again, DatabaseError)):
                    raise
                drop_broken_connections()
                _log(request, again, "503 after one retry")
                return database_unavailable_response(request)
            _log(request, exception, "retried once, answered")
            return response
        _log(request, exception, "503")
        return database_unavailable_response(request)


def server_error(request):
    """handler500: a lost database met outside a view (a middleware) answers 503 as well."""
    exc = sys.exc_info()[1]
    if is_database_unavailable(exc):
        drop_broken_connections()
        _log(request, exc, "503 (outside the view)")
        return database_unavailable_response(request)
    return site_server_error(request)
