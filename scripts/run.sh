#!/usr/bin/env bash
# Start Cardsite on the configured database and broker (SQLite and the filesystem broker by
# default): migrate, load the sample data, make the demo account, then run the web server
# and a Celery worker together. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
CELERY="$(dirname "$PY")/celery"

"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput -v0
"$PY" manage.py load_sample_data
"$PY" manage.py ensure_demo_user

"$CELERY" -A cardsite worker --loglevel=INFO --concurrency=2 &
worker=$!
# Stop the worker: a warm shutdown first, then, if it has not ended within 20 s, for good.
stop() {
  kill -TERM "$worker" 2>/dev/null || return 0
  for _ in $(seq 40); do
    kill -0 "$worker" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -KILL "$worker" 2>/dev/null || true
}
trap stop EXIT INT TERM

echo
echo "  Cardsite is starting at http://$HOST:$PORT/  (a Celery worker runs beside it; Ctrl-C stops both)"
echo
"$PY" manage.py runserver --noreload "$HOST:$PORT"
