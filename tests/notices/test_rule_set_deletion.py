"""Deleting a rule set, wherever it is deleted (the admin's delete page, its bulk delete, the
service they call): the one re-check of its format starts, sent once the delete commits,
and each owner of a deck pinned to it is told once that the deck now follows its format."""

from __future__ import annotations

import pytest

from catalogue import rulesets
from catalogue.models import RuleSet
from decks.models import Deck, RecheckJob
from notices.models import Notice

from .test_rechecks import _ban_tigercat, _deck, _run, make_set

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_sample_rule_sets")]


@pytest.fixture
def no_sample_rule_sets(sample_catalogue):
    """The rule sets of these tests alone (the sample ones are dated)."""
    RuleSet.objects.filter(sample=True).delete()


@pytest.fixture
def pinned(user, other_user):
    """T1 (in force a month ago), two decks pinned to it, one deck that follows the format,
    and T2 (in force since yesterday) banning a card of their list."""
    t1 = make_set("T1", 30)
    decks = [_deck(user, name="Mine"), _deck(other_user, name="Theirs")]
    Deck.objects.filter(pk__in=[d.pk for d in decks]).update(rule_set_pin=t1)
    follows = _deck(other_user, name="Follows")
    _ban_tigercat("T2")
    return t1, decks, follows


def _told_of_the_deleted_pin(decks, code="T1") -> None:
    """The one job of the deletion ran: each pinned deck follows its format and its owner has
    one notice, of the pin released, with the verdict under T2."""
    [job] = RecheckJob.objects.filter(reason__contains=f"{code} deleted")
    assert job.released["ids"] == sorted(d.pk for d in decks)
    _run(job)
    for deck in decks:
        [notice] = Notice.objects.filter(deck=deck)
        assert notice.owner_id == deck.owner_id and notice.kind == "pin"
        assert notice.message.startswith(f"{deck.name} was pinned to the rule set {code} ")
        assert "now follows Standard, checked under T2, and is not legal" in notice.message
        stored = Deck.objects.get(pk=deck.pk)
        assert stored.rule_set_pin is None and stored.report["rule_set"] == "T2"


def test_the_delete_service_starts_the_one_re_check_once_the_delete_commits(
    pinned, django_capture_on_commit_callbacks
):
    t1, decks, follows = pinned
    with django_capture_on_commit_callbacks() as sent:
        rulesets.rule_set_delete(rule_set=t1)
    assert not RuleSet.objects.filter(code="T1").exists()
    assert len(sent) == 1  # the job's chunks, sent once
    _told_of_the_deleted_pin(decks)
    assert RecheckJob.objects.count() == 1
    assert not Notice.objects.filter(deck=follows, kind="pin").exists()


def test_deleting_a_rule_set_in_the_admin_starts_its_one_re_check_and_tells_the_pinned_owners(
    pinned, client, staff_user, django_capture_on_commit_callbacks
):
    t1, decks, _follows = pinned
    client.force_login(staff_user)
    with django_capture_on_commit_callbacks() as sent:
        response = client.post(f"/admin/catalogue/ruleset/{t1.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not RuleSet.objects.filter(pk=t1.pk).exists()
    assert len(sent) == 1
    _told_of_the_deleted_pin(decks)
    assert RecheckJob.objects.count() == 1


def test_deleting_rule_sets_in_bulk_in_the_admin_starts_one_re_check_each(
    pinned, client, staff_user, django_capture_on_commit_callbacks
):
    t1, decks, _follows = pinned
    t0 = make_set("T0", 60)
    client.force_login(staff_user)
    with django_capture_on_commit_callbacks() as sent:
        response = client.post(
            "/admin/catalogue/ruleset/",
            {"action": "delete_selected", "_selected_action": [t0.pk, t1.pk], "post": "yes"},
        )
    assert response.status_code == 302
    assert not RuleSet.objects.filter(pk__in=[t0.pk, t1.pk]).exists()
    assert RecheckJob.objects.filter(reason__contains="T0 deleted").count() == 1
    assert len(sent) == 2  # each deletion's job, sent once
    _told_of_the_deleted_pin(decks)
    assert RecheckJob.objects.count() == 2
