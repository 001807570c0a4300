"""How gunicorn serves the site (`make run`, and production: `gunicorn -c
python:cardsite.gunicorn_conf cardsite.wsgi:application`).

Threaded workers (gthread) keep a client's connection open between requests (HTTP
keep-alive), so a phone that loads a page and then its scripts, or taps "+" ten times, pays
for one TCP handshake instead of one per answer; gunicorn's sync workers close every
connection. Each thread has its own database connection, so the database's own limits and
timeouts (statement timeout, SQLite's busy timeout) still bound every request."""

from __future__ import annotations

import os

workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "5"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
accesslog = "-"
errorlog = "-"
