"""Background work for the catalogue: the admin's import of a large expansion file."""

from __future__ import annotations

from celery import shared_task

from .import_jobs import import_job_run


@shared_task(name="catalogue.import_expansion")
def import_expansion(job: str) -> str:
    """Import the document of an admin's import job (catalogue.import_jobs). Idempotent: a
    redelivered import updates in place."""
    return import_job_run(job)
