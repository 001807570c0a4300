"""Rule sets in the catalogue (catalogue.rulesets): which one is in force on a date, the facts
the rules core reads, and saved decks that follow their format or are pinned."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from catalogue import rulesets
from catalogue.models import Card, Expansion, Game, RuleSet, RuleSetCard
from decks.models import DeckVersion
from decks.services import deck_save_version
from decks.verdicts import deck_revalidate, revalidate_game_decks
from tests.decks.conftest import MINI_LIST

pytestmark = pytest.mark.django_db

S1_DAY = date(2026, 6, 1)
S2_DAY = date(2027, 1, 1)


def make_set(code, effective, *, announced=None, banned=(), limits=None, costs=None, **kw):
    game = Game.objects.get(slug=kw.pop("game", "redline"))
    rs = RuleSet.objects.create(
        game=game,
        format=kw.pop("format", "standard"),
        code=code,
        name=kw.pop("name", f"Season {code}"),
        announced=announced or effective - timedelta(days=30),
        effective=effective,
        note=kw.pop("note", ""),
    )
    for name in banned:
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), banned=True
        )
    for name, limit in (limits or {}).items():
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), limit=limit
        )
    for name, cost in (costs or {}).items():
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), cost=cost
        )
    return rs


@pytest.fixture
def two_sets(mini_catalogue):
    s1 = make_set("S1", S1_DAY)
    s2 = make_set("S2", S2_DAY, banned=["Tigercat"])
    return s1, s2


def test_in_force_before_the_first_set_is_the_bare_format(two_sets):
    assert rulesets.in_force("redline", "standard", S1_DAY - timedelta(days=1)) is None


@pytest.mark.parametrize(
    ("on", "expected", "next_"),
    [
        (S1_DAY, "S1", "S2"),
        (S2_DAY - timedelta(days=1), "S1", "S2"),  # the day before
        (S2_DAY, "S2", None),  # the day of
        (S2_DAY + timedelta(days=400), "S2", None),
    ],
)
def test_in_force_and_upcoming_at_the_date_boundaries(two_sets, on, expected, next_):
    assert rulesets.in_force("redline", "standard", on).code == expected
    found = rulesets.upcoming("redline", "standard", on)
    assert (found.code if found else None) == next_


def test_other_formats_and_games_do_not_see_the_set(two_sets):
    assert rulesets.in_force("redline", "scenario", S2_DAY) is None


def test_today_is_the_site_time_zone_day(two_sets, settings):
    """At 23:30 UTC on 31 Dec in a time zone an hour ahead it is already 1 Jan: S2 holds."""
    from django.utils import timezone

    settings.TIME_ZONE = "Europe/Paris"
    instant = datetime(2026, 12, 31, 23, 30, tzinfo=ZoneInfo("UTC"))
    assert timezone.localdate(instant) == S2_DAY


def test_facts_in_three_queries(mini_catalogue):
    rs = make_set("S2", S2_DAY, banned=["Tigercat"], limits={"Rabbit": 1})
    RuleSetCard.objects.filter(rule_set=rs, card__name="Rabbit").update(cost=7, text="Errata")
    rs.expansions.add(Expansion.objects.get(code="RL1"))
    with CaptureQueriesContext(connection) as ctx:
        facts = rulesets.facts(rs)
    assert len(ctx.captured_queries) == 3  # entries, expansions, the cards they print
    assert facts.code == "S2" and facts.effective == S2_DAY
    assert facts.banned == {"tigercat"} and facts.limits == {"rabbit": 1}
    assert facts.costs == {"rabbit": 7} and facts.texts == {"rabbit": "Errata"}
    assert facts.expansions == ("RL1",)
    assert facts.pool == {"general jeffrey moore", "tigercat", "rabbit", "supply drop"}


def test_no_expansions_means_every_expansion(mini_catalogue):
    facts = rulesets.facts(make_set("S1", S1_DAY))
    assert facts.pool is None and facts.expansions == ()


def test_unique_code_and_effective_date_in_a_format(two_sets):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_set("S1", date(2028, 1, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        make_set("S3", S2_DAY)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_set("S4", date(2028, 1, 1), announced=date(2028, 1, 2))


# --- Saved decks: follow or pin -------------------------------------------------------------


def test_a_following_deck_is_checked_under_the_set_in_force(
    mini_catalogue, user, make_deck, settings
):
    make_set("S2", date(2000, 1, 1), banned=["Tigercat"])
    deck = make_deck(user)
    version = deck.current_version
    assert version.rule_set_code == "S2"
    assert deck.report["rule_set"] == "S2"
    assert "format.banned" in {e["code"] for e in deck.report["errors"]}


def test_a_pinned_deck_keeps_its_set_and_falls_back_when_it_is_deleted(
    mini_catalogue, user, make_deck
):
    old = make_set("S1", date(2000, 1, 1))
    deck = make_deck(user)
    deck.rule_set_pin = old
    deck.save()
    make_set("S2", date(2001, 1, 1), banned=["Tigercat"])
    report = deck_revalidate(deck=deck)
    assert report.rule_set == "S1" and report.legal is False  # the mini list is short
    assert "format.banned" not in {e.code for e in report.errors}
    version = deck_save_version(deck=deck, author=user, text=MINI_LIST, based_on=1)
    assert version.rule_set_code == "S1"

    rulesets.rule_set_delete(rule_set=old)
    deck.refresh_from_db()
    assert deck.rule_set_pin is None
    revalidate_game_decks(game_slug="redline")
    deck.refresh_from_db()
    assert deck.report["rule_set"] == "S2"
    assert "format.banned" in {e["code"] for e in deck.report["errors"]}
    # The versions keep the rule set they were checked under (S1 in force, then pinned).
    codes = DeckVersion.objects.filter(deck=deck).values_list("number", "rule_set_code")
    assert sorted(codes) == [(1, "S1"), (2, "S1")]


def test_the_day_a_set_comes_into_force_a_recheck_follows_it(mini_catalogue, user, make_deck):
    from django.utils import timezone

    today = timezone.localdate()
    make_set("S9", today + timedelta(days=1), banned=["Tigercat"])
    deck = make_deck(user)
    assert deck.report["rule_set"] is None  # the day before: the bare format
    RuleSet.objects.filter(code="S9").update(effective=today, announced=today)
    revalidate_game_decks(game_slug="redline")
    deck.refresh_from_db()
    assert deck.report["rule_set"] == "S9"  # the day of
    assert "format.banned" in {e["code"] for e in deck.report["errors"]}


def _named(data, name):
    """Every JSON object named `name` anywhere in `data`."""
    if isinstance(data, dict):
        found = [data] if data.get("name") == name else []
        return found + [x for v in data.values() for x in _named(v, name)]
    if isinstance(data, list):
        return [x for v in data for x in _named(v, name)]
    return []


def test_a_goldfish_plays_the_costs_the_deck_is_checked_under(sample_catalogue, user):
    from decks.selectors import version_entries
    from decks.services import deck_create
    from simulations import kinds
    from simulations.services import build_inputs
    from tests.decks.conftest import sample_list

    deck = deck_create(
        owner=user,
        game_slug="hex-skirmish",
        format="standard",
        name="Army",
        text=sample_list("hex-skirmish", "standard"),
    )
    assert deck.report["totals"]["points"] == 39
    pinned = make_set("X1", date(2000, 1, 1), game="hex-skirmish", costs={"Longbowmen": 18})
    RuleSetCard.objects.create(
        rule_set=pinned,
        card=Card.objects.get(game__slug="hex-skirmish", name="Arrow Storm"),
        cost=5,
    )
    deck.rule_set_pin = pinned
    deck.save()
    deck_revalidate(deck=deck)
    deck.refresh_from_db()
    # 39 + 11 + 3 = 53: over the 50 points, said by the points rule.
    assert deck.report["totals"]["points"] == 53
    (error,) = deck.report["errors"]
    assert error["code"] == "army.points"
    assert error["message"].endswith(
        "; costs of X1 (Season X1): Longbowmen 7 → 18, Arrow Storm 2 → 5"
    )

    units = version_entries(version=deck.current_version, sections=["units"])["units"]
    assert {e.card.name: e.card.cost for e in units}["Longbowmen"] == 18
    kind = next(k for k in kinds.all_kinds() if k.game_slug == "hex-skirmish")
    inputs = build_inputs(kind, params=kind.defaults, deck_version=deck.current_version)
    storms = _named(inputs, "Arrow Storm")
    assert storms and {c["cost"] for c in storms} == {5}


def test_the_sample_lists_stay_legal_under_every_sample_rule_set(sample_catalogue):
    """Past and upcoming alike: the day an upcoming one comes into force the examples hold."""
    from decks.lists import list_check
    from tests.decks.conftest import sample_list

    checked = 0
    for rs in RuleSet.objects.select_related("game"):
        text = sample_list(rs.game.slug, rs.format)
        result = list_check(
            game_slug=rs.game.slug, format=rs.format, text=text, rule_set=rulesets.facts(rs)
        )
        assert result.report.legal and result.report.rule_set == rs.code, result.report.errors
        checked += 1
    assert checked == 4
