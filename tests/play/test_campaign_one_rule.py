"""Tactical Assault Part VII: "After any swapping, the total Unit Points for the force must
still match the total allowed for the campaign." The builder's verdict in the campaign format
and the campaign tracker answer with one rule of the game package."""

from __future__ import annotations

import pytest

from play import campaign_services as services
from play.campaign_services import CampaignRefused
from validation.games.tactical_assault import campaign_force_problem

from .conftest import CAMPAIGN_FORCE, make_force

pytestmark = pytest.mark.django_db

UNDER = CAMPAIGN_FORCE.replace("2 Civilian", "1 Civilian")  # 35 unit points
OVER = CAMPAIGN_FORCE.replace("2 Civilian", "3 Civilian")  # 37 unit points


def test_the_rule_in_words():
    assert campaign_force_problem(36, 36) is None
    assert campaign_force_problem(35, 36) == (
        "the force totals 35 unit points; the campaign's forces total exactly 36 (1 short)"
    )
    assert campaign_force_problem(37, 36) == (
        "the force totals 37 unit points; the campaign's forces total exactly 36 (1 over)"
    )


def _builder_errors(deck):
    return [
        e["message"] for e in deck.current_version.report["errors"] if e["code"] == "force.points"
    ]


@pytest.mark.parametrize(("text", "total"), [(UNDER, 35), (OVER, 37)])
def test_builder_and_tracker_refuse_the_same_force_with_the_same_words(
    text, total, user, sample_catalogue
):
    deck = make_force(user, "Off total", text)
    assert not deck.current_version.report["legal"]
    assert _builder_errors(deck) == [campaign_force_problem(total, 36)]
    campaign = services.campaign_create(owner=user, game="tactical-assault", name="Ridge")
    with pytest.raises(CampaignRefused) as exc:
        services.campaign_player_add(campaign=campaign, name="Ann", deck=deck)
    assert exc.value.reasons == [campaign_force_problem(total, 36)]


def test_the_exact_total_is_legal_in_both(user, sample_catalogue):
    deck = make_force(user, "On total")
    assert deck.current_version.report["legal"]
    campaign = services.campaign_create(owner=user, game="tactical-assault", name="Ridge")
    assert services.campaign_player_add(campaign=campaign, name="Ann", deck=deck)


def test_a_campaign_of_another_total_uses_the_same_rule(user, sample_catalogue):
    campaign = services.campaign_create(
        owner=user, game="tactical-assault", name="Big", points_total=37
    )
    with pytest.raises(CampaignRefused) as exc:
        services.campaign_player_add(campaign=campaign, name="Ann", deck=make_force(user, "A"))
    assert exc.value.reasons == [campaign_force_problem(36, 37)]
    assert services.campaign_player_add(
        campaign=campaign, name="Ben", deck=make_force(user, "B", OVER)
    )


def test_a_swap_that_leaves_the_force_short_is_refused_with_the_rule(user, sample_catalogue):
    campaign = services.campaign_create(owner=user, game="tactical-assault", name="Ridge")
    a = services.campaign_player_add(campaign=campaign, name="Ann", deck=make_force(user, "A"))
    b = services.campaign_player_add(campaign=campaign, name="Ben", deck=make_force(user, "B"))
    services.campaign_game_record(campaign=campaign, results=[(a, "win"), (b, "loss")])
    for add, total in (({"Mechanized": 1}, 35), ({"Mechanized": 1, "Civilian": 2}, 37)):
        with pytest.raises(CampaignRefused) as exc:
            services.campaign_spend_swap(player=a, remove={"Armored": 1}, add=add)
        assert exc.value.reasons == [campaign_force_problem(total, 36)]
