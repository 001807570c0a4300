"""Simulation runs.

A `SimulationRun` owns the truth about one background simulation: who asked for it, what
kind of run it is (`kind`: a goldfish run, a tool's background run, a comparison, a tuning
run), which simulation it plays (`simulation`, a slug of `simulations.kinds`), on which deck
version, with which parameters and seed, how far it has got and what it found. It is a
chunked job (`cardsite.models.ChunkedJob`, run by the one job system of cardsite/jobs.py):
each chunk writes its sufficient statistics into its own slot of `chunk_results` (so a
re-delivered chunk overwrites its own slot with the same numbers), and the chunk that fills
the last slot merges them into `results` and marks the run done (or, for a comparison or a
tuning run, starts the next round). Per-game rows are never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from cardsite.models import ACTIVE, ChunkedJob, JobStatus, OwnedQuerySet

#: A run's status is a job's (cardsite.models.JobStatus).
Status = JobStatus

__all__ = ["ACTIVE", "RunKind", "SimulationRun", "SimulationRunQuerySet", "Status"]


class RunKind(models.TextChoices):
    """What kind of run a run is: each is a kind of job of its own (simulations/jobs.py)."""

    GOLDFISH = "goldfish", "Goldfish run"
    TOOL = "tool", "Tool's background run"
    COMPARISON = "comparison", "Comparison"
    TUNING = "tuning", "Tuning run"


#: The kinds of run played in rounds (simulations/experiments.py).
EXPERIMENTS = (RunKind.COMPARISON, RunKind.TUNING)


class SimulationRunQuerySet(OwnedQuerySet):
    def readable_by(self, user) -> SimulationRunQuerySet:
        """The runs `user` may read: their own; staff read every run."""
        if getattr(user, "is_staff", False):
            return self.all()
        return self.owned_by(user)

    def active(self) -> SimulationRunQuerySet:
        return self.filter(status__in=ACTIVE)


class SimulationRun(ChunkedJob):
    """One background simulation (see the module docstring).

    `inputs` are the plain facts handed to the kernel (read from the catalogue when the run
    started); the job's columns (status, chunks, leases, attempts, timings) are those of
    every chunked job.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_runs"
    )
    kind = models.CharField(max_length=12, choices=RunKind.choices, default=RunKind.GOLDFISH)
    simulation = models.SlugField(max_length=60)
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
    results = models.JSONField(default=dict, blank=True)

    objects = SimulationRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="simrun_owner_created"),
            models.Index(fields=["status", "heartbeat_at"], name="simrun_status_heartbeat"),
        ]

    def __str__(self) -> str:
        return f"{self.simulation} #{self.pk} ({self.status})"

    def job_kind(self) -> str:
        return f"simulations.{self.kind}"

    def get_absolute_url(self) -> str:
        return reverse("simulations:detail", args=[self.pk])

    @property
    def is_experiment(self) -> bool:
        """A comparison or a tuning run, played in rounds."""
        return self.kind in EXPERIMENTS

    @property
    def reaps(self) -> int:
        """How many times the reaper sent lost chunks of the run again (its `attempts`)."""
        return self.attempts

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
