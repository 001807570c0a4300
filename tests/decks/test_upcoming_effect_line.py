"""The upcoming rule set's line on the deck page and in the builder names every change the
next rule set makes to the deck's cards (bans added and lifted, limits lowered, raised and
lifted, costs, errata) and the verdict then. Against the sample REDLINE rule sets: S1 (in
force: Orbital Drop banned, Bogatyr limited to 2) and S2 (from 1 Jan 2027: Orbital Drop
back, Hidden Ambush banned, Kestrel limited to 2, Bogatyr to 1, Longbow costs 4, Smoke
Screen errata)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse

from catalogue import rulesets
from catalogue.models import Card, RuleSet, RuleSetCard
from decks.services import deck_create
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

SAMPLE = sample_list("redline", "standard")


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(rulesets, "today", lambda: date(2026, 12, 15))


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def line(html: str) -> str:
    found = re.search(r'<p class="upcoming-effect[^"]*" id="upcoming-effect">(.*?)</p>', html)
    assert found, "no upcoming rule set line"
    return found.group(1)


def deck_page_line(client, deck) -> str:
    return line(client.get(deck.get_absolute_url()).content.decode())


def builder_line(client, deck) -> str:
    return line(client.get(reverse("builder:deck", args=[deck.pk])).content.decode())


def save(user, text):
    return deck_create(owner=user, game_slug="redline", format="standard", name="D", text=text)


def set_limit(code: str, card: str, limit: int | None) -> None:
    rs = RuleSet.objects.get(game__slug="redline", format="standard", code=code)
    RuleSetCard.objects.update_or_create(
        rule_set=rs,
        card=Card.objects.get(game__slug="redline", name=card),
        defaults={"limit": limit},
    )


def test_a_card_banned_today_and_back_next_season_is_named(signed_in, user, sample_catalogue):
    """Three Orbital Drops (banned today) and two cards short: not legal today for both;
    from S2 only the count is wrong."""
    text = SAMPLE.replace("3 Claymore\n", "3 Orbital Drop\n").replace(
        "20 Supply Drop\n", "18 Supply Drop\n"
    )
    deck = save(user, text)
    assert deck.legal is False and deck.violations_count == 2
    shown = deck_page_line(signed_in, deck)
    assert shown == (
        "From 1 Jan 2027: Longbow cost 3 → 4; Orbital Drop no longer banned;"
        " Smoke Screen errata added — not legal then (1 problem)"
    )
    assert builder_line(signed_in, deck) == shown


def test_a_deck_that_becomes_legal_says_so(signed_in, user, sample_catalogue):
    deck = save(user, SAMPLE.replace("3 Claymore\n", "3 Orbital Drop\n"))
    assert deck.legal is False
    assert deck_page_line(signed_in, deck) == (
        "From 1 Jan 2027: Longbow cost 3 → 4; Orbital Drop no longer banned;"
        " Smoke Screen errata added — becomes legal"
    )


def test_a_deck_legal_today_and_then_says_legal_then(signed_in, user, sample_catalogue):
    deck = save(user, SAMPLE)
    assert deck.legal is True
    assert deck_page_line(signed_in, deck) == (
        "From 1 Jan 2027: Longbow cost 3 → 4; Smoke Screen errata added — legal then"
    )


@pytest.mark.parametrize(
    ("then", "said", "verdict"),
    [
        (None, "Tigercat no longer limited (was 3)", "becomes legal"),
        (4, "Tigercat limit 3 → 4 (4 copies)", "becomes legal"),
        (2, "Tigercat limit 3 → 2 (4 copies)", "not legal then (1 problem)"),
    ],
)
def test_a_limit_lifted_raised_or_lowered_is_named(
    signed_in, user, sample_catalogue, then, said, verdict
):
    """Four Tigercats, limited to 3 today."""
    set_limit("S1", "Tigercat", 3)
    if then is not None:
        set_limit("S2", "Tigercat", then)
    deck = save(user, SAMPLE)
    assert deck.legal is False
    shown = deck_page_line(signed_in, deck)
    assert shown == (
        f"From 1 Jan 2027: Longbow cost 3 → 4; Smoke Screen errata added; {said} — {verdict}"
    )
    assert builder_line(signed_in, deck) == shown


def test_problems_are_counted_in_words(signed_in, user, sample_catalogue):
    """Three Kestrels over S2's limit of 2 and four Tigercats over a limit of 3 then: two
    problems then."""
    set_limit("S2", "Tigercat", 3)
    deck = save(user, SAMPLE.replace("3 Claymore\n", "3 Kestrel\n"))
    assert deck.legal is True
    assert deck_page_line(signed_in, deck) == (
        "From 1 Jan 2027: Kestrel limited to 2 (3 copies); Longbow cost 3 → 4;"
        " Smoke Screen errata added; Tigercat limited to 3 (4 copies)"
        " — not legal then (2 problems)"
    )
