# Cardsite: one screen of commands. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.DEFAULT_GOAL := help
.PHONY: help run test lint format bench fuzz install install-dev browser-deps migrate sample-data worker clean

help: ## list the commands
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# Packages are installed by uv (pinned in constraints.txt, installed by pip first): it fetches
# and installs them in parallel, in seconds where pip took minutes. Where uv cannot run, pip
# installs the same pinned versions. Both compile the packages' bytecode as they install them
# (pip always does; uv when asked): with PYTHONDONTWRITEBYTECODE set nothing else writes it, and
# every Python process (each manage.py command, server and Celery worker; the suite starts
# hundreds) would compile every module it imports again, about 2.5 s of CPU for the site's.
UV := $(VENV)/bin/uv
define pinned_install
	$(UV) pip install --python $(PY) -q --compile-bytecode -c constraints.txt $(1) || $(PIP) install -q -c constraints.txt $(1)
endef

$(VENV)/.installed: pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@test -x $(UV) || $(PIP) install -q -c constraints.txt uv
	$(call pinned_install,-e .)
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed pyproject.toml constraints.txt
	$(call pinned_install,-e ".[dev]")
	@touch $@

# axe-core for the browser tests' accessibility sweep, pinned by package-lock.json.
node_modules/.installed-dev: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js 18 or later (it brings npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

install: $(VENV)/.installed ## create the virtual environment and install the site

install-dev: $(VENV)/.installed-dev node_modules/.installed-dev ## install the site plus the test and lint tools (and axe-core from npm)

browser-deps: ## install Debian's Chromium for the browser tests (when missing)
	@scripts/ensure_chromium.sh

migrate: install ## apply the database migrations
	$(PY) manage.py migrate --noinput

sample-data: migrate ## load the sample core set of all five games
	$(PY) manage.py load_sample_data

run: install ## set up everything and start the site and a Celery worker (Ctrl-C stops both)
	@HOST=$(HOST) PORT=$(PORT) PY=$(PY) scripts/run.sh

worker: install ## start one more Celery worker against the configured broker (the default queue and the control queue)
	$(VENV)/bin/celery -A cardsite worker --loglevel=INFO -Q "$${CELERY_QUEUE:-cardsite},$${CELERY_QUEUE:-cardsite}.control"

lint: install-dev ## ruff lint and format check, the import layers (import-linter), types of every app (mypy; the rules core strictly)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff format --check .
	$(PY) scripts/typecheck.py

format: install-dev ## apply ruff's formatting and safe fixes
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The suite runs in two lanes at once (docs/operations.md, "The test suite"). The parallel
# lane: every test but the serial lane's, on every core (pytest-xdist; at most 7 workers, each
# takes two of Redis's 16 databases). The serial lane: the tests that start real Celery workers
# or a private PostgreSQL cluster and Redis, one at a time, beside it (they spend most of their
# time waiting for those processes; the last two Redis databases are theirs: TEST_LANE=serial).
# Lint (ruff, import-linter, mypy) and Django's checks run beside both lanes too: mypy keeps one
# core busy for about a minute, which before the lanes left the other idle. Their reports follow
# the parallel lane's, the lint's first. `make test` fails if any of the three fails.
PYTEST_WORKERS ?= auto
SERIAL_LANE := worker or faults
PYTEST_ARGS ?= --durations=30

# The site's and the tests' own modules are compiled once before the lanes (the packages' were
# at install): every process the suite starts (each lane's pytest, the Celery workers, servers
# and commands the tests start) reads their bytecode instead of compiling them again. (A few
# seconds; unchanged modules are skipped.) The suite writes the caches Python and pytest keep
# (pytest's: the test modules with their asserts rewritten, about 8 s of CPU a process) even
# where PYTHONDONTWRITEBYTECODE is set, which would have each process redo that work.
COMPILED_SOURCES := manage.py $(filter-out data/ docs/ media/ node_modules/ static/ staticfiles/ templates/,$(wildcard */))

test: export PYTHONDONTWRITEBYTECODE :=
test: install-dev browser-deps ## lint, Django checks and the whole test suite (both lanes)
	@$(PY) -m compileall -q -j 0 $(COMPILED_SOURCES) >/dev/null
	@failed=0; checks_log=$$(mktemp); serial_log=$$(mktemp); \
	echo "== lint and Django's checks, beside the lanes (their report follows the parallel lane's)"; \
	{ $(MAKE) --no-print-directory lint && $(PY) manage.py check \
		&& $(PY) manage.py makemigrations --check --dry-run; } >"$$checks_log" 2>&1 & \
	checks=$$!; \
	echo "== the serial lane: $(SERIAL_LANE), beside the parallel lane (its report follows)"; \
	TEST_LANE=serial $(VENV)/bin/pytest -m "$(SERIAL_LANE)" $(PYTEST_ARGS) >"$$serial_log" 2>&1 & \
	serial=$$!; trap 'kill $$checks $$serial 2>/dev/null; rm -f "$$checks_log" "$$serial_log"' INT TERM; \
	echo "== the parallel lane: not ($(SERIAL_LANE)), $(PYTEST_WORKERS) workers"; \
	TEST_LANES_TOGETHER=1 $(VENV)/bin/pytest -m "not ($(SERIAL_LANE))" -n $(PYTEST_WORKERS) \
		--maxprocesses=7 --dist worksteal $(PYTEST_ARGS) || failed=1; \
	checks_ok=yes; wait $$checks || { failed=1; checks_ok=no; }; \
	echo "== lint and Django's checks"; cat "$$checks_log"; rm -f "$$checks_log"; \
	[ $$checks_ok = yes ] || echo "== lint or Django's checks FAILED (above)"; \
	wait $$serial || failed=1; \
	echo "== the serial lane: $(SERIAL_LANE)"; cat "$$serial_log"; rm -f "$$serial_log"; \
	exit $$failed

bench: install-dev ## run the benchmarks in bench/ (ratios against in-run baselines; search and workers need PostgreSQL and Redis)
	@failed=0; for script in bench/*.py; do echo "== $$script"; $(PY) $$script || failed=1; done; exit $$failed

FUZZ_MAX_EXAMPLES ?= 200
fuzz: install-dev ## fuzz the API from its OpenAPI schema (Schemathesis, FUZZ_MAX_EXAMPLES=200 a route, random; FUZZ_SEED=n replays)
	FUZZ_MAX_EXAMPLES=$(FUZZ_MAX_EXAMPLES) $(VENV)/bin/pytest -p no:cacheprovider tests/api/test_schemathesis.py \
		$(if $(FUZZ_SEED),--hypothesis-seed=$(FUZZ_SEED)) -q

clean: ## remove the local data folder (SQLite database, broker, media)
	rm -rf data
