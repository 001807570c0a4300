"""Tactical Assault campaigns: recording games, spending points (a swap refused and one
accepted), standings, and owner scoping."""

from __future__ import annotations

import datetime as dt

import pytest

from play import campaign_services as services
from play.campaign_services import CampaignRefused
from play.models import Campaign, CampaignSpend

from .conftest import make_force

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(user, sample_catalogue):
    return services.campaign_create(owner=user, game="tactical-assault", name="Ridgeline")


@pytest.fixture
def players(campaign, user):
    a = services.campaign_player_add(
        campaign=campaign, name="Ann", deck=make_force(user, "Ann's force")
    )
    b = services.campaign_player_add(
        campaign=campaign, name="Ben", deck=make_force(user, "Ben's force")
    )
    return a, b


def refresh(*objs):
    for o in objs:
        o.refresh_from_db()


def test_record_game_points(campaign, players):
    a, b = players
    game = services.campaign_game_record(
        campaign=campaign, results=[(a, "win"), (b, "loss")], date=dt.date(2025, 5, 1)
    )
    refresh(a, b)
    assert (a.campaign_points, b.campaign_points) == (9, 6)
    assert game.number == 1
    services.campaign_game_record(campaign=campaign, results=[(a, "draw"), (b, "draw")])
    refresh(a, b)
    assert (a.campaign_points, b.campaign_points) == (12, 9)
    for bad in ([(a, "win"), (b, "win")], [(a, "draw"), (b, "loss")], [(a, "win")]):
        with pytest.raises(CampaignRefused):
            services.campaign_game_record(campaign=campaign, results=bad)
    refresh(a, b)
    assert (a.campaign_points, b.campaign_points) == (12, 9)
    assert campaign.games.count() == 2


def test_promotion_award_costs_three(campaign, players):
    a, b = players
    services.campaign_game_record(campaign=campaign, results=[(a, "win"), (b, "loss")])
    services.campaign_spend_award(player=a, count=2)
    refresh(a)
    assert (a.campaign_points, a.awards) == (3, 2)
    with pytest.raises(CampaignRefused, match="cost 6 campaign points; Ann has 3"):
        services.campaign_spend_award(player=a, count=2)
    refresh(a)
    assert (a.campaign_points, a.awards) == (3, 2)


def test_swap_accepted(campaign, players):
    """Armored (5 points) out, Mechanized (4) and a Civilian (1) in: 5 unit points swapped
    cost 5 campaign points; the force still totals 36 and is saved as version 2."""
    a, b = players
    services.campaign_game_record(campaign=campaign, results=[(a, "win"), (b, "loss")])
    spend = services.campaign_spend_swap(
        player=a, remove={"Armored": 1}, add={"mechanized": 1, "Civilian": 1}
    )
    refresh(a)
    assert spend.points == 5 and a.campaign_points == 4
    force = services.section_counts(a.deck, "force")
    assert "Armored" not in force
    assert force["Mechanized"] == 1 and force["Civilian"] == 3
    a.deck.refresh_from_db()
    assert a.deck.current_version.number == 2
    assert a.deck.current_version.report["totals"]["points"] == 36


def test_swap_refused_changes_nothing(campaign, players):
    a, b = players
    services.campaign_game_record(campaign=campaign, results=[(a, "loss"), (b, "win")])
    refresh(a)
    assert a.campaign_points == 6
    before = services.section_counts(a.deck, "force")

    def assert_unchanged():
        refresh(a)
        a.deck.refresh_from_db()
        assert a.campaign_points == 6
        assert a.deck.current_version.number == 1
        assert services.section_counts(a.deck, "force") == before
        assert not CampaignSpend.objects.filter(player=a).exists()

    # Armored (5) for Behemoth (6): the force would total 37, not the campaign's 36.
    with pytest.raises(CampaignRefused) as exc:
        services.campaign_spend_swap(player=a, remove={"Armored": 1}, add={"Behemoth": 1})
    assert "totals 37 unit points" in str(exc.value) and "exactly 36" in str(exc.value)
    assert_unchanged()
    # Armored and 2 Infantry (9) for Behemoth and Engineer (9): legal, but 9 > 6 points.
    with pytest.raises(CampaignRefused, match="costs 9 campaign points; Ann has 6"):
        services.campaign_spend_swap(
            player=a, remove={"Armored": 1, "Infantry": 2}, add={"Behemoth": 1, "Engineer": 1}
        )
    assert_unchanged()
    # Units the force does not hold, and names that are not unit types.
    with pytest.raises(CampaignRefused, match="the force has 0 Behemoth"):
        services.campaign_spend_swap(player=a, remove={"Behemoth": 1}, add={"Armored": 1})
    with pytest.raises(CampaignRefused, match="not a unit type"):
        services.campaign_spend_swap(player=a, remove={"Armored": 1}, add={"Tank": 1})
    assert_unchanged()


def test_player_force_must_fit_the_campaign(campaign, user, other_user):
    small = make_force(user, "Too small", "Force:\n1 Armored\n2 Infantry\n")
    with pytest.raises(CampaignRefused, match="totals 9 unit points"):
        services.campaign_player_add(campaign=campaign, name="Cat", deck=small)
    theirs = make_force(other_user, "Bob's force")
    with pytest.raises(CampaignRefused, match="your own decks"):
        services.campaign_player_add(campaign=campaign, name="Bob", deck=theirs)


def test_standings_follow_the_rulebook_awards_then_points_then_wins(campaign, user):
    """Part VII: the player with the most Promotion Awards wins the campaign; campaign points
    and then wins order the rest."""
    p = services.campaign_player_add(campaign=campaign, name="Pat", deck=make_force(user, "P"))
    q = services.campaign_player_add(campaign=campaign, name="Quinn", deck=make_force(user, "Q"))
    r = services.campaign_player_add(campaign=campaign, name="Rae", deck=make_force(user, "R"))
    for _ in range(3):
        services.campaign_game_record(campaign=campaign, results=[(p, "draw"), (r, "draw")])
    services.campaign_game_record(campaign=campaign, results=[(q, "win"), (r, "loss")])
    rows = services.campaign_standings(campaign=campaign)
    assert [(x["name"], x["campaign_points"], x["wins"]) for x in rows] == [
        ("Rae", 15, 0),
        ("Quinn", 9, 1),
        ("Pat", 9, 0),
    ]
    assert rows[0]["played"] == 4 and rows[0]["draws"] == 3 and rows[0]["losses"] == 1
    # Pat turns 6 points into two awards: fewest points left, but first in the campaign.
    services.campaign_spend_award(player=p, count=2)
    rows = services.campaign_standings(campaign=campaign)
    assert [(x["name"], x["awards"], x["campaign_points"]) for x in rows] == [
        ("Pat", 2, 3),
        ("Rae", 0, 15),
        ("Quinn", 0, 9),
    ]
    assert [x["rank"] for x in rows] == [1, 2, 3]


def test_the_standings_page_puts_awards_first(client, campaign, user):
    p = services.campaign_player_add(campaign=campaign, name="Pat", deck=make_force(user, "P"))
    q = services.campaign_player_add(campaign=campaign, name="Quinn", deck=make_force(user, "Q"))
    services.campaign_game_record(campaign=campaign, results=[(p, "draw"), (q, "draw")])
    services.campaign_spend_award(player=p, count=1)
    client.force_login(user)
    html = client.get(f"/play/tactical-assault/campaigns/{campaign.pk}/standings/").content.decode()
    head = html[html.index('id="standings"') :]
    assert head.index("Promotion awards") < head.index("Campaign points")
    assert head.index("Pat") < head.index("Quinn")


def test_api_flow(client, user, sample_catalogue):
    client.force_login(user)
    created = client.post(
        "/api/play/campaigns/", {"name": "Valley", "points_total": 36}, "application/json"
    )
    assert created.status_code == 201, created.content
    # the one game with campaign rules is the default
    assert created.json()["game"] == "tactical-assault"
    assert created.json()["rules"]["points_for"] == {"win": 9, "loss": 6, "draw": 3}
    cid = created.json()["id"]
    ids = []
    for name in ("Ann", "Ben"):
        deck = make_force(user, f"{name}'s force")
        response = client.post(
            f"/api/play/campaigns/{cid}/players/",
            {"name": name, "deck": deck.pk},
            "application/json",
        )
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    game = client.post(
        f"/api/play/campaigns/{cid}/games/",
        {
            "date": "2025-06-01",
            "results": [{"player": ids[0], "result": "win"}, {"player": ids[1], "result": "loss"}],
        },
        "application/json",
    )
    assert game.status_code == 201, game.content
    assert [r["points"] for r in game.json()["results"]] == [9, 6]
    refused = client.post(
        f"/api/play/campaigns/{cid}/spend/",
        {"player": ids[1], "kind": "swap", "remove": {"Armored": 1}, "add": {"Behemoth": 1}},
        "application/json",
    )
    assert refused.status_code == 400
    assert "exactly 36" in refused.json()["detail"]
    swap = client.post(
        f"/api/play/campaigns/{cid}/spend/",
        {
            "player": ids[1],
            "kind": "swap",
            "remove": {"Armored": 1},
            "add": {"Mechanized": 1, "Swarm": 1},
        },
        "application/json",
    )
    assert swap.status_code == 200, swap.content
    assert swap.json()["player"]["campaign_points"] == 1
    assert swap.json()["cards"]["Swarm"] == 3
    promo = client.post(
        f"/api/play/campaigns/{cid}/spend/",
        {"player": ids[0], "kind": "award", "count": 3},
        "application/json",
    )
    assert promo.status_code == 200 and promo.json()["player"]["awards"] == 3
    standings = client.get(f"/api/play/campaigns/{cid}/standings/").json()["standings"]
    # Ann's three Promotion Awards put her first (the rulebook's campaign winner).
    assert [(s["name"], s["awards"], s["campaign_points"]) for s in standings] == [
        ("Ann", 3, 0),
        ("Ben", 0, 1),
    ]
    listing = client.get("/api/play/campaigns/").json()["results"]
    assert [c["id"] for c in listing] == [cid]
    detail = client.get(f"/api/play/campaigns/{cid}/").json()
    assert len(detail["players"]) == 2 and len(detail["games"]) == 1


def test_other_users_get_404(client, campaign, players, other_user):
    pages = [
        f"/play/tactical-assault/campaigns/{campaign.pk}/",
        f"/play/tactical-assault/campaigns/{campaign.pk}/games/new/",
        f"/play/tactical-assault/campaigns/{campaign.pk}/spend/",
        f"/play/tactical-assault/campaigns/{campaign.pk}/standings/",
        f"/api/play/campaigns/{campaign.pk}/",
        f"/api/play/campaigns/{campaign.pk}/standings/",
    ]
    client.force_login(other_user)
    for url in pages:
        assert client.get(url).status_code == 404, url
    a, b = players
    for url, data in [
        (
            f"/api/play/campaigns/{campaign.pk}/games/",
            {"results": [{"player": a.pk, "result": "win"}, {"player": b.pk, "result": "loss"}]},
        ),
        (f"/api/play/campaigns/{campaign.pk}/spend/", {"player": a.pk, "kind": "award"}),
        (f"/api/play/campaigns/{campaign.pk}/players/", {"name": "X", "deck": a.deck_id}),
    ]:
        assert client.post(url, data, "application/json").status_code == 404, url
    response = client.post(
        f"/play/tactical-assault/campaigns/{campaign.pk}/games/new/",
        {"date": "2025-01-01", f"result_{a.pk}": "win", f"result_{b.pk}": "loss"},
    )
    assert response.status_code == 404
    assert client.get("/api/play/campaigns/").json()["results"] == []
    assert Campaign.objects.get(pk=campaign.pk).games.count() == 0
    client.logout()
    assert client.get(pages[0]).status_code == 302  # to the sign-in page
    assert client.get(pages[4]).status_code in (401, 403)


def test_the_campaign_page_names_the_format_as_its_game_spells_it(client, user, campaign):
    """The "Add a player" help names the format a force must be legal in by its name, not
    its slug; the link to build one keeps the slug."""
    client.force_login(user)
    html = client.get(campaign.get_absolute_url()).content.decode()
    assert "be legal in format Campaign.</span>" in html
    assert "?f=tactical-assault/campaign" in html
