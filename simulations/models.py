"""Simulation runs.

A `SimulationRun` owns the truth about one background simulation: who asked for it, which
kind (a slug of `simulations.kinds`), on which deck version, with which parameters and
seed, how far it has got and what it found. A run of many games is split into
`n_chunks` chunks played by separate Celery tasks; each chunk writes its sufficient
statistics into its own slot of `chunk_results` (so a re-delivered chunk overwrites its own
slot with the same numbers), and the chunk that fills the last slot merges them into
`results` and marks the run done. Per-game rows are never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Status(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


ACTIVE = (Status.QUEUED, Status.RUNNING)


class SimulationRunQuerySet(models.QuerySet):
    def owned_by(self, user) -> SimulationRunQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(owner=user)

    def readable_by(self, user) -> SimulationRunQuerySet:
        """The runs `user` may read: their own; staff read every run."""
        if getattr(user, "is_staff", False):
            return self.all()
        return self.owned_by(user)

    def active(self) -> SimulationRunQuerySet:
        return self.filter(status__in=ACTIVE)


class SimulationRun(models.Model):
    """One background simulation (see the module docstring).

    `inputs` are the plain facts handed to the kernel (read from the catalogue when the run
    started); `chunk_started` maps a chunk index to when a worker last started it (the reaper
    uses it to find chunks whose worker was lost); `timings` holds per-chunk seconds and
    workers.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs"
    )
    kind = models.SlugField(max_length=60)
    deck_version = models.ForeignKey(
        "decks.DeckVersion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="simulation_runs",
    )
    label = models.CharField(max_length=250, blank=True)
    params = models.JSONField(default=dict)
    inputs = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    n_chunks = models.PositiveIntegerField(default=1)
    chunks_done = models.PositiveIntegerField(default=0)
    chunk_results = models.JSONField(default=dict, blank=True)
    chunk_started = models.JSONField(default=dict, blank=True)
    results = models.JSONField(default=dict, blank=True)
    timings = models.JSONField(default=dict, blank=True)
    reaps = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = SimulationRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="simrun_owner_created"),
            models.Index(fields=["status", "heartbeat_at"], name="simrun_status_heartbeat"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("simulations:detail", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE

    @property
    def progress(self) -> float:
        """Share of chunks done, 0..1."""
        if self.status == Status.DONE:
            return 1.0
        return self.chunks_done / self.n_chunks if self.n_chunks else 0.0

    @property
    def progress_percent(self) -> int:
        return int(round(self.progress * 100))

    @property
    def games(self) -> int:
        """The games asked for: a goldfish's games, the games limit of a comparison or of
        each swap of a tuning run."""
        return int(self.params.get("games", 0))

    @property
    def games_played(self) -> int | None:
        """The games the run played, read from its stored results: a finished comparison's
        or tuning run's games (each swap's), a finished goldfish's summary, the complete
        rounds of a comparison or tuning run still playing; None before any is stored."""
        results = self.results or {}
        if isinstance(results.get("games"), int):
            return results["games"]
        summary = results.get("summary")
        if isinstance(summary, dict) and isinstance(summary.get("games"), int):
            return summary["games"]
        rounds = results.get("rounds")
        if rounds:
            return int(rounds[-1]["games"])
        return None

    def mark_done(self, now) -> None:
        """Finish the run at `now` (the caller saves it): done, with the seconds of work its
        chunks took, the workers that played them and the wall time since it started."""
        self.status = Status.DONE
        self.finished_at = now
        chunks = list(self.timings.get("chunks", {}).values())
        self.timings["chunk_seconds_total"] = round(sum(c["seconds"] for c in chunks), 4)
        self.timings["workers"] = sorted({c.get("worker", "") for c in chunks} - {""})
        if self.started_at:
            self.timings["wall_seconds"] = round((now - self.started_at).total_seconds(), 4)

    @property
    def duration(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None
