"""Beat inside a real worker (as `make run` runs one beside its worker) sends again the
chunks of a re-check whose messages were lost, and the re-check finishes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from catalogue.models import RuleSet
from decks import services
from decks.models import RecheckJob
from notices.models import Notice
from tests.conftest import wait_for
from tests.decks.conftest import sample_list

from .test_rechecks import make_set

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _purge(queue: str) -> None:
    """Drop what loading the sample data sent (its rule sets' and catalogue's re-checks)."""
    from cardsite.celery import app

    with app.connection_for_write() as conn:
        for name in (queue, f"{queue}.control"):
            conn.default_channel.queue_purge(name)


def test_beat_on_the_worker_sends_again_a_re_check_whose_chunks_were_lost(
    dedicated_worker, sample_catalogue, user, monkeypatch
):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Lost",
        text=sample_list("redline", "standard"),
    )
    RuleSet.objects.filter(sample=True).delete()
    make_set("T2", 0, banned=["Tigercat"])
    _purge(dedicated_worker.queue)
    # A job whose chunk messages never reached a worker (the broker lost them).
    job = RecheckJob.objects.create(
        game=deck.game,
        format="standard",
        rule_set_code="T2",
        reason="test",
        total=1,
        chunks=[[deck.pk, deck.pk]],
        heartbeat_at=timezone.now() - timedelta(hours=1),
    )
    monkeypatch.setenv("JOBS_REAP_SECONDS", "1")
    monkeypatch.setenv("RECHECK_STALL_SECONDS", "5")
    dedicated_worker.start(concurrency=1, beat=True)

    wait_for(lambda: not RecheckJob.objects.get(pk=job.pk).is_active, timeout=90)
    job.refresh_from_db()
    assert job.status == "done" and job.sweeps >= 1
    assert (job.checked, job.notices) == (1, 1)
    assert Notice.objects.get(deck=deck).rule_set_code == "T2"
