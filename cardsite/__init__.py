"""The project package under every app: settings, root URLs, accounts, the API's edge (tokens,
OAuth, scopes, parameters, throttles, errors), the typed hooks, and the one job system
(`jobs.py`: chunked jobs with leases, one chunk task, one reaper)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
