"""How gunicorn serves the site (`make run`, and production: `gunicorn -c
python:cardsite.gunicorn_conf cardsite.wsgi:application`).

Threaded workers (gthread) keep a client's connection open between requests (HTTP
keep-alive), so a phone that loads a page and then its scripts, or taps "+" ten times, pays
for one TCP handshake instead of one per answer; gunicorn's sync workers close every
connection. Each thread has its own database connection, so the database's own limits and
timeouts (statement timeout, SQLite's busy timeout) still bound every request.

The request line (method, address, query string) may be up to `limit_request_line` bytes
(8,190, gunicorn's largest); a longer one answers 414 in the site's shape
(cardsite.gunicorn_worker). An answer given before a body was read keeps the connection only
when the rest of the body could be read and thrown away (cardsite.http_edge): else it says
`Connection: close`, which `pre_request` lets the site ask for."""

from __future__ import annotations

import os

workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "cardsite.gunicorn_worker.ThreadWorker414"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "5"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
accesslog = "-"
errorlog = "-"
#: The longest request line served (docs/api.md, "Limits").
limit_request_line = 8190


def pre_request(worker, req):
    """The body stream the site reads (wsgi.input) can close the connection after the answer:
    `Connection: close` instead of keep-alive (cardsite.http_edge)."""
    if req.body is not None:
        req.body.close_connection = lambda: setattr(req, "must_close", True)


def post_worker_init(worker):
    """The API's parameter list (read from its schema, cardsite.parameters) is built as the
    worker starts, not in its first API request."""
    from cardsite.parameters import operations

    try:
        operations()
    except Exception:  # noqa: BLE001 - then the first API request builds it
        worker.log.exception("The API's parameter list could not be built at start")
