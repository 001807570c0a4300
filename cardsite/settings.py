"""Cardsite settings, read from the environment.

Every value that differs between machines comes from an environment variable and is checked
here, so that a bad value stops the process at start with a message naming the variable.
With nothing set, the site runs on the embedded defaults: SQLite and a filesystem Celery
broker in the local `data/` folder. `DJANGO_ENV=production` selects the production profile.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("CARDSITE_DATA_DIR", BASE_DIR / "data"))


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no or on/off."
    )


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(
        f"DJANGO_ENV={DJANGO_ENV!r} is not known; use 'development' or 'production'."
    )
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production.")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. It is required when DEBUG is off "
            "(generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "development-only-insecure-key-do-not-use-in-production"  # noqa: S105
elif PRODUCTION and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long in production.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"])
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names in production.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "knox",
    "oauth2_provider",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "axes",
    "cardsite",
    "catalogue",
    "decks",
    "collection",
    "tabletop",
    "play",
    "simulations",
    "notices",
    "decklists",
]

#: Game packages beyond the built-in ones of validation/games/: importable modules, each
#: defining `GAME` (a validation.registry.GameDef), registered when the catalogue app starts.
CARDSITE_GAMES = env_list("CARDSITE_GAMES", [])

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cardsite.hostile.RejectHostilePathMiddleware",
    # Every error answer under /api/ as problem details (RFC 9457), whatever produced it.
    "cardsite.problems.ProblemDetailsMiddleware",
    # RateLimit-Limit/-Remaining/-Reset on the API's throttled routes (cardsite/ratelimit.py).
    "cardsite.ratelimit.RateLimitHeadersMiddleware",
    "cardsite.errors.RejectNulMiddleware",
    # /api/validate is /api/validate/ (no redirect under /api/: a POST's body would be lost).
    "cardsite.api_paths.ApiTrailingSlashMiddleware",
    # Unknown query parameters and integers out of range under /api/: 400 (the schema's list).
    "cardsite.parameters.ParametersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-htmx's, with a history restore answered as a whole page and `Vary: HX-Request`.
    "cardsite.htmx_pages.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "cardsite.errors.SlowQueryMiddleware",
    "cardsite.outages.DatabaseOutageMiddleware",
]

# Pages and JSON compressed when the client accepts it (static files come compressed from
# whitenoise, which answers before this). Django's GZipMiddleware pads each answer with random
# bytes ("Heal The Breach"), the BREACH mitigation; CSRF tokens are masked per request as well.
# COMPRESS_RESPONSES=0 turns it off (bench/pages.py measures the difference).
COMPRESS_RESPONSES = env_bool("COMPRESS_RESPONSES", True)
if COMPRESS_RESPONSES:
    MIDDLEWARE.insert(
        MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1,
        "django.middleware.gzip.GZipMiddleware",
    )

# The builder answers a count change ("+", "-", a count typed in, a quick add) with only what
# changed: the row, the section's count, the verdict panels, as out-of-band swaps. True brings
# back the whole builder state in every answer (bench/pages.py measures both).
BUILDER_FULL_ANSWERS = env_bool("BUILDER_FULL_ANSWERS", False)

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The site's and the apps' templates (cached), then each game's own, read from
            # its package (cardsite/game_templates.py).
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                ),
                "cardsite.game_templates.GameTemplatesLoader",
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cardsite.context_processors.site",
                "notices.context_processors.unread",
            ],
        },
    },
]

WSGI_APPLICATION = "cardsite.wsgi.application"
ASGI_APPLICATION = "cardsite.asgi.application"

# --- Database -----------------------------------------------------------------------------
DEFAULT_DATABASE_URL = f"sqlite:///{DATA_DIR / 'cardsite.sqlite3'}"
DATABASE_URL = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
_scheme = urlparse(DATABASE_URL).scheme
if _scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
    raise ImproperlyConfigured(
        f"DATABASE_URL has the scheme {_scheme!r}; use postgres://user@host:port/name "
        "or sqlite:///path/to/file.sqlite3."
    )
try:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=0 if DEBUG else 60)
except ValueError as exc:  # pragma: no cover - message passthrough
    raise ImproperlyConfigured(f"DATABASE_URL could not be read: {exc}") from exc
if _db["ENGINE"].endswith("sqlite3"):
    # A file for the test database too, so that a real Celery worker in another process
    # sees what the tests wrote.
    # One file per test run, so that parallel runs on one machine do not collide.
    _db["TEST"] = {"NAME": str(DATA_DIR / f"test-cardsite-{os.getpid()}.sqlite3")}
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    _db.setdefault("OPTIONS", {}).update(
        {
            # Every transaction takes the write lock when it begins (BEGIN IMMEDIATE), so a
            # writer that finds the database busy waits for it, up to `timeout` seconds. A
            # deferred transaction (SQLite's default) reads first and asks for the lock at its
            # first write; when another process holds it then, SQLite answers "database is
            # locked" at once, without waiting: 20 autosaving players got hundreds of them.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # Write-ahead log: readers never wait for the writer, nor the writer for them;
            # NORMAL is the synchronous level WAL is designed for (a commit survives a crash
            # of the process; a power cut may lose the last commits, never corrupt the file).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
if _db["ENGINE"].endswith("postgresql"):
    # The planner's cost of reading a table page out of order, relative to reading the next
    # one. PostgreSQL's default, 4, assumes spinning disks; the catalogue stays in memory (or
    # on SSD), where 1.1 is the usual value. With 4, a search such as `keywords:salvo` was
    # often planned as a read of all of a game's cards through the game index, testing the
    # attribute on each (about 25 ms on 40,000 cards), instead of through the attribute
    # index (about 7 ms), depending on the sample ANALYZE happened to draw.
    # PG_RANDOM_PAGE_COST sets another value; empty leaves the server's own (for a pooler
    # that refuses startup options).
    _page_cost = os.environ.get("PG_RANDOM_PAGE_COST", "1.1").strip()
    if _page_cost:
        try:
            _cost = float(_page_cost)
        except ValueError:
            _cost = -1.0
        if not 0 < _cost < float("inf"):
            raise ImproperlyConfigured(
                f"PG_RANDOM_PAGE_COST is {_page_cost!r}; use a positive number such as 1.1, "
                "or leave it empty for the server's own setting."
            )
        _options = _db.setdefault("OPTIONS", {})
        _options["options"] = f"{_options.get('options', '')} -c random_page_cost={_cost}".strip()

    # The longest a single statement may run, in milliseconds (0: no limit). A statement
    # cancelled by it answers 503 "took too long" (cardsite.errors), never a 500: one costly
    # search cannot hold a connection and a core for a minute. Long maintenance (migrate on
    # a big catalogue) may run with DB_STATEMENT_TIMEOUT_MS=0.
    def _milliseconds(name: str, default: str) -> int:
        raw = (os.environ.get(name) or default).strip()
        if not raw.isdigit() or len(raw) > 9:
            raise ImproperlyConfigured(
                f"{name} is {raw!r}; use a whole number of milliseconds such as {default}, "
                "or 0 for no limit."
            )
        return int(raw)

    DB_STATEMENT_TIMEOUT_MS = _milliseconds("DB_STATEMENT_TIMEOUT_MS", "5000")
    # An expansion import lifts the limit for its own transaction only (SET LOCAL): its
    # batches together may outlast a request's limit on a large file (0: no limit).
    IMPORT_STATEMENT_TIMEOUT_MS = _milliseconds("IMPORT_STATEMENT_TIMEOUT_MS", "600000")
    _options = _db.setdefault("OPTIONS", {})
    _options["options"] = (
        f"{_options.get('options', '')} -c statement_timeout={DB_STATEMENT_TIMEOUT_MS}".strip()
    )
    # No JIT compilation: the site's statements read a page of rows through indexes, and
    # the planner's cost of a search of many words (each an id subquery) passes the
    # thresholds at which PostgreSQL compiles and optimises its expressions, which alone
    # took over half a second a statement, where the statement ran in under a millisecond.
    _options["options"] += " -c jit=off"
# A persistent connection (CONN_MAX_AGE, 60 s with DEBUG off) is checked before a request uses
# it: one left broken by a database restart is replaced, not used for a 500.
_db["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": _db}
USING_POSTGRES = _db["ENGINE"].endswith("postgresql")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth ---------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "profile"
LOGOUT_REDIRECT_URL = "home"
# Login rate limit (django-axes): 5 failures for a username from an address lock it for 15 min.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The name axes records, cut to its column's 255 characters (a longer one was a 500).
AXES_USERNAME_CALLABLE = "cardsite.hostile.axes_username"
AXES_ENABLED = env_bool("AXES_ENABLED", True)

# --- I18n, static, media ------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Static files with hashed names, pre-compressed, served by whitenoise with a year of
# immutable caching (a changed file gets a new name), in every profile: `make run` runs
# collectstatic before it serves. STATIC_MANIFEST=0 serves the files under their own names
# from the source folders instead (the test suite does, so that it needs no collectstatic).
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
MEDIA_URL = os.environ.get("MEDIA_URL", "media/")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or DATA_DIR / "media")
if not MEDIA_ROOT.is_absolute():
    raise ImproperlyConfigured(f"MEDIA_ROOT={str(MEDIA_ROOT)!r} must be an absolute path.")

EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cardsite <noreply@localhost>")
# The SMTP server of the SMTP backend (production's default).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
#: The site's address (https://cards.example.org), for links in emails (the notice digest).
SITE_URL = os.environ.get("SITE_URL", "")

# --- Celery -------------------------------------------------------------------------------
BROKER_DIR = DATA_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
_broker_scheme = CELERY_BROKER_URL.split("://", 1)[0]
if _broker_scheme not in {"filesystem", "redis", "rediss", "amqp", "amqps", "pyamqp"}:
    raise ImproperlyConfigured(
        f"CELERY_BROKER_URL has the scheme {_broker_scheme!r}; use redis://host:6379/0, "
        "amqp://user:pass@host:5672// or leave it unset for the embedded filesystem broker."
    )
# Tasks must finish well within the broker's visibility timeout, or a late-acked task
# would be delivered twice while still running.
CELERY_VISIBILITY_TIMEOUT = 3600
CELERY_TASK_TIME_LIMIT = 900
CELERY_TASK_SOFT_TIME_LIMIT = 840
#: The embedded broker's transport: kombu's filesystem transport with each message written
#: whole before a worker can see it (cardsite/broker.py).
EMBEDDED_BROKER_TRANSPORT = "cardsite.broker:Transport"
if _broker_scheme == "filesystem":
    CELERY_BROKER_TRANSPORT = EMBEDDED_BROKER_TRANSPORT
    for _sub in ("queue", "control"):
        (BROKER_DIR / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        # Check the folder for new messages five times a second (default: once a second).
        "polling_interval": 0.2,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "cardsite")
# Periodic and control work (the reaper, the health page's worker ping, every task beat
# sends) goes to a queue of its own, "<CELERY_QUEUE>.control", which every worker serves
# beside the default queue (both are the worker's `task_queues`; a worker started with -Q
# must name both): a lost chunk is sent again while a backlog of chunks still waits.
# cardsite.celery.route_task routes them.
CELERY_CONTROL_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.control"
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_CONTROL_QUEUE))
CELERY_TASK_ROUTES = ("cardsite.celery.route_task",)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Every chunked background job (cardsite/jobs.py: simulation runs, re-checks, large imports)
# is watched by one reaper that Celery beat runs every JOBS_REAP_SECONDS: a running chunk
# renews a short lease every JOBS_HEARTBEAT_SECONDS, and one whose lease is older than
# JOBS_LEASE_SECONDS lost its worker and is sent again; a job without progress for its kind's
# stall time has its chunks that never started sent again. (SIMULATIONS_REAP_SECONDS, the
# name of the first of these, is still read.)
#: A worker that has taken no task for this long is "silent" (it takes beat's reaper every
#: JOBS_REAP_SECONDS): the health page and the run pages say so (cardsite/workers.py).
WORKERS_SILENT_SECONDS = float(os.environ.get("WORKERS_SILENT_SECONDS") or "60")
JOBS_REAP_SECONDS = float(
    os.environ.get("JOBS_REAP_SECONDS") or os.environ.get("SIMULATIONS_REAP_SECONDS") or "10"
)


def _chunk_times(prefix: str, attempts: str) -> tuple[float, float, float, int]:
    """`<prefix>_HEARTBEAT_SECONDS` (5), `<prefix>_LEASE_SECONDS` (20),
    `<prefix>_STALL_SECONDS` (40) and `<prefix>_<attempts>` (3); the heartbeat must be
    positive and shorter than the lease."""
    heartbeat = float(os.environ.get(f"{prefix}_HEARTBEAT_SECONDS", "5"))
    lease = float(os.environ.get(f"{prefix}_LEASE_SECONDS", "20"))
    stall = float(os.environ.get(f"{prefix}_STALL_SECONDS", "40"))
    most = int(os.environ.get(f"{prefix}_{attempts}", "3"))
    if not 0 < heartbeat < lease:
        raise ImproperlyConfigured(
            f"{prefix}_HEARTBEAT_SECONDS must be positive and shorter than {prefix}_LEASE_SECONDS."
        )
    return heartbeat, lease, stall, most


JOBS_HEARTBEAT_SECONDS, JOBS_LEASE_SECONDS, JOBS_STALL_SECONDS, JOBS_MAX_ATTEMPTS = _chunk_times(
    "JOBS", "MAX_ATTEMPTS"
)
# Simulation runs' chunks: their own lease, heartbeat, stall time and attempts.
(
    SIMULATIONS_HEARTBEAT_SECONDS,
    SIMULATIONS_LEASE_SECONDS,
    SIMULATIONS_STALL_SECONDS,
    SIMULATIONS_MAX_REAPS,
) = _chunk_times("SIMULATIONS", "MAX_REAPS")
# Re-checks of a format's saved decks (decks.verdicts.recheck_jobs): decks per chunk (one
# Celery task each); a job without progress for RECHECK_STALL_SECONDS has its chunks sent
# again by the reaper, at most RECHECK_MAX_SWEEPS times, then fails.
RECHECK_CHUNK_DECKS = int(os.environ.get("RECHECK_CHUNK_DECKS", "2000"))
RECHECK_STALL_SECONDS = float(os.environ.get("RECHECK_STALL_SECONDS", "300"))
RECHECK_MAX_SWEEPS = int(os.environ.get("RECHECK_MAX_SWEEPS", "3"))
# Published decklists' verdicts today (decklists.services.legality_jobs): re-checked in
# chunks of this many decklists; every DECKLIST_SWEEP_SECONDS beat starts a re-check job of
# each format whose rows are not all today's (none while one of that format runs).
DECKLIST_RECHECK_CHUNK = int(os.environ.get("DECKLIST_RECHECK_CHUNK", "2000"))
DECKLIST_SWEEP_SECONDS = float(os.environ.get("DECKLIST_SWEEP_SECONDS", "300"))
# Beat's times are the site's (a rule set takes effect at 00:00 in TIME_ZONE).
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "jobs-reap": {
        "task": "jobs.reap",
        "schedule": JOBS_REAP_SECONDS,
        "options": {"expires": 5 * JOBS_REAP_SECONDS},
    },
    # The day a rule set takes effect (00:00 site time), its format's saved decks are
    # re-checked: the first run after midnight starts it, once per rule set.
    "rule-sets-taking-effect": {
        "task": "decks.recheck_rule_sets_taking_effect",
        "schedule": crontab(minute="1,31"),
        "options": {"expires": 1200},
    },
    # Decklists whose verdict today is stale (a rule set took effect, a job failed): a
    # re-check job of their format.
    "decklists-recheck-due": {
        "task": "decklists.recheck_due",
        "schedule": DECKLIST_SWEEP_SECONDS,
        "options": {"expires": 5 * DECKLIST_SWEEP_SECONDS},
    },
    # Expired OAuth codes and tokens, and spent refresh tokens: deleted daily.
    "oauth-clear-expired": {
        "task": "oauth.clear_expired",
        "schedule": crontab(hour=4, minute=17),
        "options": {"expires": 6 * 3600},
    },
    # The email digest of notices, to the owners who opted in: daily.
    "notices-digest": {
        "task": "notices.send_digests",
        "schedule": crontab(hour=7, minute=0),
        "options": {"expires": 6 * 3600},
    },
}

# --- REST framework -----------------------------------------------------------------------
REST_FRAMEWORK = {
    # The token first: a request without credentials answers 401 with its WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cardsite.tokens.BearerTokenAuthentication",
        "rest_framework.authentication.BasicAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "cardsite.paging.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # `?format=` names no renderer: it is a parameter of its own on several operations (the
    # deck list's filter, the export's kind, the decklist search's format); the answer's type
    # comes from the Accept header alone. The schema keeps `?format=json|yaml`
    # (cardsite.urls.SchemaView).
    "URL_FORMAT_OVERRIDE": None,
    # The API reads JSON alone: any other body's content type answers 415 (the site's pages
    # are Django views with their own forms, not DRF views).
    "DEFAULT_PARSER_CLASSES": ["cardsite.errors.SafeJSONParser"],
    "EXCEPTION_HANDLER": "cardsite.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "validate": os.environ.get("THROTTLE_VALIDATE", "120/min"),
        "deck_write": os.environ.get("THROTTLE_DECK_WRITE", "60/min"),
        "simulate": os.environ.get("THROTTLE_SIMULATE", "10/min"),
        "bulk": os.environ.get("THROTTLE_BULK", "30/min"),
        # The card search, page and API (GET /cards/<game>/, /api/cards/), per client.
        "search": os.environ.get("THROTTLE_SEARCH", "120/min"),
        # A deck's exports (GET /api/decks/<id>/export/: proxies and sheets are PDFs made
        # on the request), per client.
        "export": os.environ.get("THROTTLE_EXPORT", "60/min"),
        # Decklists: publishing and commenting per user, tighter for accounts younger than
        # NEW_ACCOUNT_DAYS (the `_new` scopes); likes, favourites, follows and reports.
        "publish": os.environ.get("THROTTLE_PUBLISH", "20/hour"),
        "publish_new": os.environ.get("THROTTLE_PUBLISH_NEW", "6/hour"),
        "comment": os.environ.get("THROTTLE_COMMENT", "30/hour"),
        "comment_new": os.environ.get("THROTTLE_COMMENT_NEW", "5/hour"),
        "community": os.environ.get("THROTTLE_COMMUNITY", "120/min"),
        # The decklist search with cards (page and API), per client.
        "decklist_search": os.environ.get("THROTTLE_DECKLIST_SEARCH", "120/min"),
        # OAuth: the consent screen and the token endpoint, per client.
        "oauth_authorize": os.environ.get("THROTTLE_OAUTH_AUTHORIZE", "30/min"),
        "oauth_token": os.environ.get("THROTTLE_OAUTH_TOKEN", "30/min"),
    },
}
#: An account younger than this many days is throttled under the `_new` rates.
NEW_ACCOUNT_DAYS = float(os.environ.get("NEW_ACCOUNT_DAYS", "7"))
# Personal API tokens (django-rest-knox, cardsite.tokens): our model adds a name and a scope.
KNOX_TOKEN_MODEL = "cardsite.ApiToken"
REST_KNOX = {"TOKEN_TTL": None, "AUTO_REFRESH": False}
# knox's own migrations create its default token table even when the model is swapped out
# (as here); unused, it would block flushing the users table. No migrations for knox then:
# its swapped model is never created.
MIGRATION_MODULES = {"knox": None}
# Apps acting for a player: OAuth 2 (django-oauth-toolkit; cardsite/oauth.py, docs/api.md
# "Building an app"). The authorization code grant with PKCE (S256 only), refresh tokens
# rotated (a reused one revokes the family), tokens stored as SHA-256 checksums only, client
# secrets hashed. Redirect URIs: https, or http on a loopback address (any port, RFC 8252).
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER = {
    # The scopes and their words: cardsite.scopes.
    "SCOPES_BACKEND_CLASS": "cardsite.scopes.ScopesBackend",
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    # The authorization response names its issuer (RFC 9207), against mix-up attacks.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "REFRESH_TOKEN_EXPIRE_SECONDS": 90 * 24 * 3600,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "ALLOWED_SCHEMES": ["https", "http"],
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "client_secret_basic",
        "client_secret_post",
        "none",
    ],
}
SPECTACULAR_SETTINGS = {
    # Swagger UI's files come from the drf-spectacular-sidecar package: /api/docs/ works
    # with no internet access and under the Content-Security-Policy.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TITLE": "Cardsite API",
    "DESCRIPTION": "Catalogue, deck validation, decks and simulations for five tabletop games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # "kind" names card kinds and simulation kinds: the simulation kinds' enum named here.
    "ENUM_NAME_OVERRIDES": {
        "SimulationKindEnum": "simulations.schema.SIMULATION_KINDS",
        "StatusEnum": "simulations.models.Status",
        "RuleSetStatusEnum": ["past", "in effect", "upcoming"],
        "RuleSetCheckStatusEnum": ["past", "in effect", "upcoming", "bare format"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "cardsite.problems.problem_postprocessing_hook",
        "cardsite.problems.list_or_sections_hook",
        "cardsite.schema_fields.game_format_hook",
        "cardsite.schema_fields.game_path_enum_hook",
        "simulations.schema.start_params_hook",
        "play.schema.tool_params_hook",
        "play.schema.campaign_game_hook",
        "decklists.schema.search_enums_hook",
        "cardsite.tokens.scopes_hook",
        "cardsite.schema_fields.open_operations_hook",
        "cardsite.parameters.integer_ranges_hook",
        "cardsite.schema_fields.drop_unused_components_hook",
    ],
}

# --- Clients behind proxies -----------------------------------------------------------------
# How many proxies in front of the site append to X-Forwarded-For (a load balancer: 1). With
# 0 the header is ignored: a client cannot mint a new address for the throttles or the login
# lock by sending one. The throttles (DRF's and the pages'), django-axes and the logs all read
# the address through cardsite.clientip.client_ip.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT
AXES_CLIENT_IP_CALLABLE = "cardsite.clientip.client_ip"


# --- Cache ----------------------------------------------------------------------------------
# Shared by every process (the throttles must hold across gunicorn workers and machines):
# CACHE_URL, else REDIS_URL, else, when the broker is Redis, the broker's server with the
# next database number (the broker's own database is never flushed by a cache clear). With
# none of these (the embedded defaults) a file cache under the data folder, which every
# process of the machine shares with no server; `locmem://` asks for a per-process memory
# cache (one process only).
def _cache_location() -> str:
    url = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or ""
    if url or _broker_scheme not in {"redis", "rediss"}:
        return url
    parsed = urlparse(CELERY_BROKER_URL)
    try:
        db = int((parsed.path or "/0").strip("/") or 0)
    except ValueError:
        db = 0
    return parsed._replace(path=f"/{(db + 1) % 16}").geturl()


CACHE_LOCATION = _cache_location()
if CACHE_LOCATION.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            # Django's, keeping its Redis clients and counting a throttle in one round trip.
            "BACKEND": "cardsite.cache.RedisCache",
            "LOCATION": CACHE_LOCATION,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "cardsite"),
            # A Redis that is down or hangs fails a cache call within a second or two, never
            # holds a request: the throttles then let requests through (cardsite.throttling).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
elif CACHE_LOCATION == "":
    CACHES = {
        "default": {
            # Django's file cache with atomic add and incr (the throttles' counters).
            "BACKEND": "cardsite.cache.LockedFileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "cardsite"),
            # Each write lists the folder to cull it: 1,000 entries keep a write near 2 ms.
            "OPTIONS": {"MAX_ENTRIES": 1_000},
        }
    }
elif CACHE_LOCATION == "locmem://":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise ImproperlyConfigured(
        f"CACHE_URL {CACHE_LOCATION!r} is not a Redis URL (redis://host:6379/1) or locmem://."
    )

# --- Logging --------------------------------------------------------------------------------
# One line per event, key=value pairs (LOG_FORMAT=json for JSON lines), a logger per app:
# failed requests (django.request), tasks that fail or are sent again (simulations, decks),
# imports (catalogue), the rules core (validation).
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOG_JSON = os.environ.get("LOG_FORMAT", "").lower() == "json"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "structured": {
            "()": "cardsite.logs.StructuredFormatter",
            "json": LOG_JSON,
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        **{
            app: {"level": LOG_LEVEL}
            for app in ("cardsite", "catalogue", "decks", "simulations", "play", "validation")
        },
        "django.request": {"level": "WARNING"},
        "celery": {"level": "INFO"},
        "axes": {"level": "WARNING"},
    },
}

# Error reporting: with SENTRY_DSN set, errors (and failed tasks) go to Sentry as well.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=DJANGO_ENV,
        send_default_pii=False,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )

# --- Content Security Policy (django-csp) -------------------------------------------------
# Scripts only from the site itself (no inline script anywhere); styles from the site and
# the style attributes the templates use; images from the site, data: URIs (SVG charts) and
# MEDIA_URL when it is another host. CSP_REPORT_ONLY=1 reports instead of blocking.
_media_host = urlparse(os.environ.get("MEDIA_URL", "")).netloc
_csp = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", *([f"https://{_media_host}"] if _media_host else [])],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
if env_bool("CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _csp
else:
    CONTENT_SECURITY_POLICY = _csp

# --- Production hardening -----------------------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"] = ["rest_framework.renderers.JSONRenderer"]

# `http` stays among the OAuth redirect schemes for the loopback addresses of desktop apps
# (RFC 8252 §7.3: http://127.0.0.1:<any port>/…); an app's registration accepts http for
# 127.0.0.1 and [::1] only, every other address must be https (cardsite.oauth). RFC 9700's
# check (django-oauth-toolkit's W008) cannot tell the two apart.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]
