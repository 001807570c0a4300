"""A stored verdict's staleness has one rule (`decks.verdicts.freshness.FRESH`): the lists'
verdict filters (`only_fresh`, in SQL) and the pages' refresh (`is_stale`, of decks in
memory) read it alike, for every way a deck can stand: pinned, without a saved list,
checked under the rule set in force today, under an older one, under none while none is in
force, and naming a rule set while none is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from catalogue import rulesets
from catalogue.models import Game, RuleSet
from decks import services
from decks.models import Deck
from decks.verdicts import is_stale, only_fresh, with_in_force
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db


def _set(code, effective):
    return RuleSet.objects.create(
        game=Game.objects.get(slug="redline"),
        format="standard",
        code=code,
        name=f"Season {code}",
        announced=effective - timedelta(days=30),
        effective=effective,
    )


def _deck(owner, name, *, game="redline", fmt="standard", text=True):
    return services.deck_create(
        owner=owner,
        game_slug=game,
        format=fmt,
        name=name,
        text=sample_list(game, fmt) if text else None,
    )


def test_the_sql_filter_and_the_check_in_memory_agree(user, sample_catalogue):
    RuleSet.objects.filter(sample=True).delete()
    today = rulesets.today()
    _set("S1", today - timedelta(days=30))
    old = _deck(user, "checked under S1")
    pinned = _deck(user, "pinned to S1")
    services.deck_pin(deck=pinned, code="S1")
    _set("S2", today)  # in force from today, written without its re-check
    current = _deck(user, "checked under S2")
    unsaved = _deck(user, "no list", text=False)
    bare = _deck(user, "no rule set", game="hex-skirmish", fmt="standard")
    named = _deck(user, "names a rule set", game="hex-skirmish", fmt="standard")
    report = {**Deck.objects.get(pk=named.pk).report, "rule_set": "X9"}
    Deck.objects.filter(pk=named.pk).update(report=report)

    expected = {
        old.pk: True,
        pinned.pk: False,
        current.pk: False,
        unsaved.pk: False,
        bare.pk: False,
        named.pk: True,
    }
    decks = with_in_force(Deck.objects.filter(pk__in=expected))
    fresh = set(only_fresh(decks).values_list("pk", flat=True))
    assert {d.pk: is_stale(d, d.in_force_code) for d in decks} == expected
    assert {pk: pk not in fresh for pk in expected} == expected
