"""A rule set changed: the re-check runs on a real Celery worker, in chunks, and tells each
owner once; the same rule set again tells nobody anything new; a deleted pin falls back to
following, with a notice, and its deck is re-checked on the worker."""

from __future__ import annotations

import pytest
from django.db import transaction

from catalogue import rulesets
from catalogue.models import RuleSet
from decks import services, verdicts
from decks.models import Deck, RecheckJob
from notices.models import Notice
from tests.conftest import wait_for
from tests.decks.conftest import sample_list

from .test_rechecks import make_set

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("quiet_sample_rule_sets"),
]


@pytest.fixture
def quiet_sample_rule_sets(celery_worker_process, sample_catalogue):
    """Where the sample data was loaded by the importer (not put back from the copy kept
    aside: tests/database.py), it announced its rule sets and their re-checks were queued
    as it returned: they run on the worker first; then the sample rule sets are deleted, so
    that these tests' own decide."""
    active = RecheckJob.objects.filter(status__in=["queued", "running"])
    wait_for(lambda: not active.exists(), timeout=90)
    RuleSet.objects.filter(sample=True).delete()


def _jobs_done(n: int, **match) -> list[RecheckJob]:
    """The first `n` jobs matching `match`, once they are done (loading the sample data
    announced its own rule sets: their jobs run on the worker too)."""

    def done():
        jobs = list(RecheckJob.objects.filter(**match).order_by("pk"))
        return len(jobs) >= n and not any(j.is_active for j in jobs[:n])

    wait_for(done, timeout=90)
    return list(RecheckJob.objects.filter(**match).order_by("pk"))[:n]


def _changed(rule_set) -> None:
    """What the import service does after writing a rule set."""
    with transaction.atomic():
        rulesets.rule_set_changed(rule_set)


def test_a_rule_set_change_is_re_checked_on_the_workers_and_told_once(
    celery_worker_process, sample_catalogue, user, other_user, staff_user, settings, client
):
    settings.RECHECK_CHUNK_DECKS = 2  # for the job started here (the last one)
    owners = [user, other_user, user, other_user, user]
    decks = [
        services.deck_create(
            owner=owner,
            game_slug="redline",
            format="standard",
            name=f"Deck {i}",
            text=sample_list("redline", "standard"),
        )
        for i, owner in enumerate(owners)
    ]
    assert all(d.legal for d in decks)

    t2 = make_set("T2", 0, banned=["Tigercat"])
    _changed(t2)
    [job] = _jobs_done(1, rule_set_code="T2")
    assert job.status == "done"
    assert (job.checked, job.changed, job.notices) == (5, 5, 5)
    assert not Deck.objects.filter(pk__in=[d.pk for d in decks], legal=True).exists()
    assert Notice.objects.filter(owner=user).count() == 3
    assert Notice.objects.filter(owner=other_user).count() == 2
    assert set(Notice.objects.values_list("rule_set_code", flat=True)) == {"T2"}

    _changed(t2)  # the same rule set announced again
    again = _jobs_done(2, rule_set_code="T2")[1]
    assert (again.status, again.checked, again.changed, again.notices) == ("done", 5, 0, 0)
    assert Notice.objects.count() == 5

    # an admin's re-check of the whole format, in chunks of two decks on the worker
    client.force_login(staff_user)
    response = client.post(
        "/admin/decks/recheckjob/start/", {"game": "redline", "format": "standard"}
    )
    assert response.status_code == 302
    [third] = _jobs_done(1, reason__startswith="started by")
    assert (third.status, len(third.chunks), third.chunks_done) == ("done", 3, 3)
    assert (third.checked, third.notices) == (5, 0)
    page = client.get(f"/admin/decks/recheckjob/{job.pk}/progress/").content.decode()
    assert 'data-status="done"' in page and 'value="100"' in page
    assert '<td id="recheck-notices">5</td>' in page


def test_a_deleted_pin_falls_back_and_is_re_checked_on_the_workers(
    celery_worker_process, sample_catalogue, user
):
    t1 = make_set("T1", 30)
    make_set("T2", 0, banned=["Tigercat"])
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Pinned",
        text=sample_list("redline", "standard"),
    )
    Deck.objects.filter(pk=deck.pk).update(rule_set_pin=t1)
    verdicts.deck_revalidate(
        deck=Deck.objects.select_related("game", "current_version").get(pk=deck.pk)
    )
    assert Deck.objects.get(pk=deck.pk).legal  # under T1

    rulesets.rule_set_delete(rule_set=t1)
    [job] = _jobs_done(1, reason__contains="T1 deleted")
    assert job.status == "done"
    assert RecheckJob.objects.filter(reason__contains="T1").count() == 1
    deck.refresh_from_db()
    assert deck.rule_set_pin is None and not deck.legal
    # one notice: the pin released, and the verdict under the rule set now in force
    [notice] = Notice.objects.filter(deck=deck)
    assert notice.kind == "pin" and "checked under T2, and is not legal" in notice.message
