"""Site-wide models: the worker ping that proves a Celery worker answers; personal API tokens;
the shape every chunked background job shares (`ChunkedJob`, see cardsite/jobs.py); the scope
of the rows a user owns (`OwnedQuerySet`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Self

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken

from .accounts import signed_in
from .scopes import ordered, parse


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class OwnedQuerySet(models.QuerySet):
    """Rows that belong to a user (their `owner`)."""

    def owned_by(self, user) -> Self:
        """The user's own rows; none for an anonymous user."""
        if not signed_in(user):
            return self.none()
        return self.filter(owner=user)


#: The statuses of a job that is not finished.
ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)


class ChunkedJob(models.Model):
    """A background job cut into chunks, each played by one Celery task (cardsite/jobs.py):
    a simulation run, a re-check of saved decks, a large expansion import. Each kind of job
    has its own table (a subclass) with its own inputs and results beside these columns,
    which the one chunk task, the one reaper and the one progress shape read and write.

    `chunk_results` maps a chunk's index to what it stored (a chunk whose slot is filled is
    done: a repeated message is a no-op); `chunk_started` maps a running chunk's index to its
    lease (when its worker last renewed it: the reaper sends again a chunk whose lease ran
    out); `chunk_progress` what a running chunk last said of its own progress (written by its
    heartbeat); `attempts` how many times the reaper sent lost chunks again (a job fails past
    its kind's limit); `timings` each chunk's seconds and worker and the reaper's events."""

    #: The job kind of every row of the table (cardsite.jobs.registry), unless `job_kind` says
    #: otherwise row by row.
    JOB_KIND: ClassVar[str] = ""

    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    n_chunks = models.PositiveIntegerField(default=1)
    chunks_done = models.PositiveIntegerField(default=0)
    chunk_results = models.JSONField(default=dict, blank=True)
    chunk_started = models.JSONField(default=dict, blank=True)
    chunk_progress = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    timings = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    def job_kind(self) -> str:
        """The name of this job's kind in the job registry."""
        return self.JOB_KIND

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE

    @property
    def duration(self) -> float | None:
        """Seconds from the first chunk's start to the end, once finished."""
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None

    def mark_done(self, now: datetime) -> None:
        """Finish the job at `now` (the caller saves it): done, with the seconds of work its
        chunks took, the workers that played them and the wall time since it started."""
        self.status = JobStatus.DONE
        self.finished_at = now
        self.heartbeat_at = now
        self.chunk_progress = {}
        chunks: list[dict[str, Any]] = list(self.timings.get("chunks", {}).values())
        self.timings["chunk_seconds_total"] = round(sum(c["seconds"] for c in chunks), 4)
        self.timings["workers"] = sorted({c.get("worker", "") for c in chunks} - {""})
        if self.started_at:
            self.timings["wall_seconds"] = round((now - self.started_at).total_seconds(), 4)

    def mark_failed(self, now: datetime, reason: str) -> None:
        """Fail the job at `now` with `reason` (the caller saves it)."""
        self.status = JobStatus.FAILED
        self.error = reason[:5000]
        self.finished_at = now
        self.heartbeat_at = now
        self.chunk_progress = {}


class WorkerPing(models.Model):
    """A round trip through the broker: created by a request, answered by a worker."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"ping {self.pk} ({'answered' if self.answered_at else 'waiting'})"


class ApiToken(AbstractAuthToken):
    """A personal API token (django-rest-knox's token, stored as a SHA-512 digest: the token
    itself is shown once, when it is made), with the name its owner gave it and its scopes
    (cardsite.scopes), chosen when it was made."""

    name = models.CharField(max_length=100)
    #: The token's scopes, space-separated (cardsite.scopes.SCOPES).
    scope = models.CharField(max_length=200, default="read decks:read collection:read notices:read")

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user}, {self.scope})"

    @property
    def scopes(self) -> list[str]:
        return ordered(parse(self.scope))


class AllowedApp(models.Model):
    """A user's consent to an OAuth app: the scopes allowed, remembered until revoked (the
    consent screen is not shown again for these scopes), and when the app last acted."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="allowed_apps"
    )
    application = models.ForeignKey(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL,
        on_delete=models.CASCADE,
        related_name="allowed_by",
    )
    scope = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["user", "application"], name="one_consent_per_app")
        ]

    def __str__(self) -> str:
        return f"{self.user} allows {self.application} ({self.scope})"

    @property
    def scopes(self) -> list[str]:
        return ordered(parse(self.scope))
