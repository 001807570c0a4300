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

import logging
import os
import sys
import threading
import time

workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "cardsite.gunicorn_worker.ThreadWorker414"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "5"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
accesslog = "-"
errorlog = "-"
#: The longest request line served (docs/api.md, "Limits").
limit_request_line = 8190
#: How long a stopping worker (SIGTERM) may finish the requests it holds; the master then ends
#: it with SIGKILL. Shorter than the 25 s scripts/run.sh gives the whole site to stop.
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "10"))
#: No control socket (gunicorn's `gunicornc` interface, on by default since 25.1, made under
#: $XDG_RUNTIME_DIR or $HOME/.gunicorn/): the site is stopped and reloaded by its signals,
#: and a server's home holds nothing it wrote.
control_socket_disable = True


def worker_exit(server, worker) -> None:
    """A worker process at its end (its graceful stop over, or a SIGINT or SIGQUIT's quick
    one) ends at once if a thread of its pool is still in a request.

    Python's exit waits for every thread of a thread pool, so one blocked in a request (a
    client that sent half a request or announced a body it never sends, a view waiting for
    a lock) would keep the worker, and the listening socket it inherited, alive for ever:
    it no longer accepts anything, and a SIGTERM only sets a flag nobody reads again. The
    master kills such a worker after `graceful_timeout`, but only if it lives that long.
    (gunicorn calls this hook in the master too, for a worker already gone: nothing to do.)"""
    if os.getpid() != worker.pid:
        return
    main = threading.main_thread()
    deadline = time.monotonic() + 1  # idle threads of the pool, told to stop, end at once
    for thread in threading.enumerate():
        if thread is not main and not thread.daemon:
            thread.join(max(deadline - time.monotonic(), 0))
    if not any(t is not main and t.is_alive() and not t.daemon for t in threading.enumerate()):
        return  # an ordinary exit
    ending = sys.exc_info()[1]
    code = 0
    if isinstance(ending, SystemExit):
        code = ending.code if isinstance(ending.code, int) else 0 if ending.code is None else 1
    elif ending is not None:
        code = 1
    worker.log.info("Worker exiting with requests unfinished (pid: %s)", worker.pid)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def pre_request(worker, req):
    """The body stream the site reads (wsgi.input) can close the connection after the answer:
    `Connection: close` instead of keep-alive (cardsite.http_edge)."""
    if req.body is not None:
        req.body.close_connection = lambda: setattr(req, "must_close", True)


def post_worker_init(worker):
    """The API's parameter list (read from its schema, cardsite.parameters) is built as the
    worker starts, not in its first API request."""
    # Imported here: gunicorn reads this file before the site (and Django) is loaded.
    from cardsite.parameters import operations

    try:
        operations()
    except Exception:  # noqa: BLE001 - then the first API request builds it
        worker.log.exception("The API's parameter list could not be built at start")
