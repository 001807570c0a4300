"""A re-check runs on a real Celery worker, in chunks, and tells the owners once."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from decks import services
from decks.models import Deck, RecheckJob
from decks.services.recheck_jobs import recheck_start
from notices.models import Notice
from tests.conftest import wait_for
from tests.decks.conftest import sample_list

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _done(job_id: int) -> RecheckJob:
    wait_for(lambda: not RecheckJob.objects.get(pk=job_id).is_active, timeout=90)
    return RecheckJob.objects.get(pk=job_id)


def test_a_re_check_on_the_workers_tells_each_owner_once(
    celery_worker_process, sample_catalogue, user, other_user, staff_user, settings, client
):
    settings.RECHECK_CHUNK_DECKS = 2
    decks = [
        services.deck_create(
            owner=owner,
            game_slug="redline",
            format="standard",
            name=f"Deck {i}",
            text=sample_list("redline", "standard"),
        )
        for i, owner in enumerate([user, other_user, user, other_user, user])
    ]
    assert all(d.legal for d in decks)
    first = _done(recheck_start(game_slug="redline", format="standard", reason="test").pk)
    assert (first.status, first.checked, first.notices) == ("done", 5, 0)

    Card.objects.filter(game__slug="redline", name="Tigercat").update(faction="cpm")
    job = recheck_start(game_slug="redline", format="standard", reason="test", rule_set_code="S2")
    assert len(job.chunks) == 3
    job = _done(job.pk)
    assert (job.status, job.checked, job.changed, job.notices) == ("done", 5, 5, 5)
    assert not Deck.objects.filter(pk__in=[d.pk for d in decks], legal=True).exists()
    assert Notice.objects.filter(owner=user).count() == 3
    assert Notice.objects.filter(owner=other_user).count() == 2

    # the same change re-checked again: every deck checked, nobody told anything new
    again = _done(recheck_start(game_slug="redline", format="standard", reason="again").pk)
    assert (again.status, again.checked, again.changed, again.notices) == ("done", 5, 0, 0)
    assert Notice.objects.count() == 5

    client.force_login(staff_user)
    page = client.get(f"/admin/decks/recheckjob/{job.pk}/progress/").content.decode()
    assert 'data-status="done"' in page and 'value="100"' in page
    assert '<td id="recheck-notices">5</td>' in page
