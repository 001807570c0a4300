#!/usr/bin/env bash
# Start Cardsite on the configured database and broker (SQLite and the filesystem broker by
# default): migrate, load the sample data, make the demo account, then run the site under
# gunicorn (cardsite/gunicorn_conf.py: WEB_CONCURRENCY workers, default 4, of WEB_THREADS
# threads each, default 4, keeping connections alive; GUNICORN_TIMEOUT seconds, default 30), a
# Celery worker (WORKER_CONCURRENCY, default 2) and Celery beat (the scheduled tasks)
# together; a worker that dies is started again. Ctrl-C (or a SIGTERM to the process group or
# to this script) stops all three within 25 s, requests in flight and kept-alive connections
# or not (see `stop` below).
# Debug is off (the site's own error pages, static files through whitenoise) unless
# DJANGO_DEBUG=1 asks for Django's debug pages. With no SECRET_KEY set, a key made once and
# kept in the data folder (secret_key, readable by its owner only) is used.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
BIN="$(dirname "$PY")"
CELERY="$BIN/celery"
GUNICORN="$BIN/gunicorn"
WEB_CONCURRENCY=${WEB_CONCURRENCY:-4}
GUNICORN_TIMEOUT=${GUNICORN_TIMEOUT:-30}
WORKER_CONCURRENCY=${WORKER_CONCURRENCY:-2}
DATA_DIR=${CARDSITE_DATA_DIR:-data}
mkdir -p "$DATA_DIR"

DEBUG=${DJANGO_DEBUG:-${DEBUG:-0}}
export DEBUG
if [ -z "${SECRET_KEY:-}" ]; then
  keyfile="$DATA_DIR/secret_key"
  if [ ! -s "$keyfile" ]; then
    (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$keyfile")
  fi
  SECRET_KEY=$(cat "$keyfile")
  export SECRET_KEY
fi

"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput -v0
"$PY" manage.py load_sample_data
"$PY" manage.py ensure_demo_user
"$PY" manage.py publish_sample_decks
"$PY" manage.py publish_sample_decklists
# A goldfish compiled on first use (cached on disk) compiles now, not in a player's request.
"$PY" manage.py warm_goldfish

# The worker runs in a session of its own (setsid, where there is one): Ctrl-C, or a SIGTERM to
# the whole process group, must reach its main process only, which then stops its pool. Signalled
# too, the pool's processes die holding the pool's queue lock and the main process waits on it
# for ever (billiard), until `stop` below kills it.
detach=()
command -v setsid >/dev/null && detach=(setsid)
# It serves the default queue and the control queue (the reaper and the health page's ping,
# beat's tasks), so that a lost chunk is sent again while a backlog of chunks waits.
QUEUE="${CELERY_QUEUE:-cardsite}"
# A worker that dies is started again (after 2 s): runs queued meanwhile wait in the broker,
# and the reaper sends again the chunks a dead worker held. A SIGTERM to the supervisor stops
# the worker (a warm shutdown, which waits for the tasks it runs) and the loop; a worker still
# running 15 s later is killed with its pool (its own process group).
WORKER_STOP_SECONDS=15
supervise_worker() {
  local child="" stopping=0 code
  trap 'stopping=1; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null' TERM INT
  end_worker() {
    local _
    for _ in $(seq $((WORKER_STOP_SECONDS * 2))); do
      kill -0 "$child" 2>/dev/null || return 0
      sleep 0.5
    done
    echo "  the Celery worker did not stop within ${WORKER_STOP_SECONDS} s: killed" >&2
    kill -KILL -- -"$child" 2>/dev/null || kill -KILL "$child" 2>/dev/null || true
  }
  while :; do
    "${detach[@]}" "$CELERY" -A cardsite worker --loglevel=INFO \
      --concurrency="$WORKER_CONCURRENCY" -Q "$QUEUE,$QUEUE.control" &
    child=$!
    # a SIGTERM that came while the worker was being started found no child to stop
    [ "$stopping" = 1 ] && kill -TERM "$child" 2>/dev/null
    code=0
    wait "$child" || code=$?
    # a trapped signal interrupts `wait`: wait for the worker's own end
    while kill -0 "$child" 2>/dev/null; do
      if [ "$stopping" = 1 ]; then end_worker; fi
      wait "$child" || true
    done
    [ "$stopping" = 1 ] && exit 0
    echo "  the Celery worker stopped (exit $code); starting it again in 2 s" >&2
    sleep 2
    [ "$stopping" = 1 ] && exit 0
  done
}
supervise_worker &
worker=$!
"$CELERY" -A cardsite beat --loglevel=INFO --schedule="$DATA_DIR/celerybeat-schedule" &
beat=$!
server=
# Stop the server, the worker and beat: a warm shutdown first, then, if one has not ended
# within 25 s, for good. Runs on Ctrl-C, on a SIGTERM sent to this script alone, and on exit.
# The server's workers finish their requests within WEB_GRACEFUL_TIMEOUT (10 s; Ctrl-C drops
# them at once), then gunicorn ends any that has not with SIGKILL; the Celery worker gets 15 s
# (above). Whatever still runs at 25 s is killed, the server's workers with their master:
# killed alone, the master would leave them holding the port.
STOP_SECONDS=25
stop() {
  trap - EXIT INT TERM
  local pids=("$worker" "$beat") left _
  [ -n "$server" ] && pids+=("$server")
  kill -TERM "${pids[@]}" 2>/dev/null || true
  for _ in $(seq $((STOP_SECONDS * 2))); do
    left=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left+=("$pid"); done
    [ ${#left[@]} -eq 0 ] && return 0
    sleep 0.5
  done
  echo "  still running ${STOP_SECONDS} s after the stop: killed" >&2
  if [ -n "$server" ] && command -v pgrep >/dev/null; then
    # shellcheck disable=SC2046 # the workers' ids, one word each
    kill -KILL $(pgrep -P "$server") 2>/dev/null || true
  fi
  kill -KILL "${left[@]}" 2>/dev/null || true
}
trap stop EXIT
trap 'stop; exit 143' TERM
trap 'stop; exit 130' INT

echo
echo "  Cardsite is starting at http://$HOST:$PORT/  (gunicorn, $WEB_CONCURRENCY workers of ${WEB_THREADS:-4} threads; a Celery worker and beat beside it; Ctrl-C stops all)"
echo
# In the background with a `wait`, so that a signal to this script is handled at once (bash
# runs a trap only once the foreground command has ended).
WEB_CONCURRENCY="$WEB_CONCURRENCY" GUNICORN_TIMEOUT="$GUNICORN_TIMEOUT" \
  "$GUNICORN" -c python:cardsite.gunicorn_conf cardsite.wsgi:application --bind "$HOST:$PORT" &
server=$!
wait "$server"
