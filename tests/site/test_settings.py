"""Settings come from the environment and fail fast with a message naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env):
    # DJANGO_ALLOW_ASYNC_UNSAFE is set by the browser tests for their own process only.
    dropped = {"DEBUG", "DJANGO_ENV", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env = {k: v for k, v in os.environ.items() if k not in dropped}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL has the scheme 'mysql'"),
        ({"CELERY_BROKER_URL": "kafka://x"}, "CELERY_BROKER_URL has the scheme 'kafka'"),
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DEBUG": "0"}, "SECRET_KEY is not set"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV='staging' is not known"),
        ({"DJANGO_ENV": "production", "SECRET_KEY": "x" * 60}, "ALLOWED_HOSTS must list"),
        ({"MEDIA_ROOT": "relative/media"}, "MEDIA_ROOT='relative/media' must be an absolute path"),
        (
            {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "PG_RANDOM_PAGE_COST": "fast"},
            "PG_RANDOM_PAGE_COST is 'fast'",
        ),
        (
            {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "PG_RANDOM_PAGE_COST": "-1"},
            "PG_RANDOM_PAGE_COST is '-1'",
        ),
        (
            {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "DB_STATEMENT_TIMEOUT_MS": "5s"},
            "DB_STATEMENT_TIMEOUT_MS is '5s'",
        ),
    ],
)
def test_bad_environment_stops_with_a_clear_message(env, expected):
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert expected in result.stderr


def test_production_profile_passes_check_deploy():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        SECRET_KEY="k" * 20 + "Qz8!pL0vR3#nT6wY9@bC2eF5hJ8kM1sU4xA7",
        ALLOWED_HOSTS="cardsite.example.org",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_development_profile_has_warnings_under_check_deploy():
    """The development defaults are not fit for production, and check --deploy says so."""
    result = run_manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
