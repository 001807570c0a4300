"""A decklist's legality today: checked in every format of its game under the rule set in
effect today; a rule set change re-checks it (on the workers, through the rule_set_changed
hook), its page shows "was legal when published", and the search's legal=today follows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction

from catalogue import rulesets
from catalogue.models import Card, Game, RuleSet, RuleSetCard
from decklists import services
from decklists.models import DecklistLegality
from decklists.services import search
from tests.conftest import wait_for


def _ban(code: str, card: str, *, days_ago: int = 1) -> RuleSet:
    game = Game.objects.get(slug="redline")
    effective = rulesets.today() - timedelta(days=days_ago)
    rs = RuleSet.objects.create(
        game=game,
        format="standard",
        code=code,
        name=f"Sample season {code}",
        announced=effective - timedelta(days=30),
        effective=effective,
    )
    RuleSetCard.objects.create(
        rule_set=rs, card=Card.objects.get(game=game, name=card), banned=True
    )
    return rs


def _legal_today(**params):
    return [d.pk for d in search.decklist_search(search.search_read({**params, "legal": "today"}))]


@pytest.mark.django_db
def test_a_ban_in_effect_today_shows_on_the_page_with_was_legal_when_published(
    client, sample_catalogue, user, publish
):
    decklist = publish(user)
    assert _legal_today(format="standard") == [decklist.pk]
    card = next(e["card"] for e in decklist.entries if e["section"] == "arsenal")
    _ban("T9", card)
    # Until it is re-checked the stale row is not "legal today" in the search...
    assert _legal_today(format="standard") == []
    # ...and the page re-checks it at once.
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert "Not legal today in Standard" in page and "Was legal when published" in page
    row = DecklistLegality.objects.get(decklist=decklist, format="standard")
    assert (row.legal, row.rule_set_code) == (False, "T9")
    assert any(card in e for e in row.errors)


@pytest.mark.django_db
def test_a_re_check_writes_every_format_under_its_rule_set_and_the_search_follows(
    sample_catalogue, user, publish
):
    decklist = publish(user)
    card = next(e["card"] for e in decklist.entries if e["section"] == "arsenal")
    _ban("T9", card)
    assert services.recheck_decklists(game_slug="redline") == 1
    rows = {r.format: r for r in DecklistLegality.objects.filter(decklist=decklist)}
    assert set(rows) == {"standard", "scramble", "scenario"}
    assert (rows["standard"].legal, rows["standard"].rule_set_code) == (False, "T9")
    assert _legal_today(format="standard") == []


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_rule_set_import_changes_a_published_decklists_legal_today_on_the_workers(
    celery_worker_process, sample_catalogue, user, publish
):
    from catalogue.rule_set_file import rule_set_import

    decklist = publish(user)
    card = next(e["card"] for e in decklist.entries if e["section"] == "arsenal")
    effective = rulesets.today() - timedelta(days=1)
    with transaction.atomic():
        report = rule_set_import(
            data={
                "game": "redline",
                "format": "standard",
                "code": "W1",
                "name": "Sample ban (test)",
                "announced": (effective - timedelta(days=10)).isoformat(),
                "effective": effective.isoformat(),
                "cards": [{"name": card, "banned": True}],
                "note": "Sample data for a test.",
                "sample": True,
            }
        )
    assert not getattr(report, "errors", None)

    def rechecked():
        row = DecklistLegality.objects.filter(decklist=decklist, format="standard").first()
        return row is not None and row.rule_set_code == "W1" and row

    row = wait_for(rechecked, timeout=90)
    assert row.legal is False
