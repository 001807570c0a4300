"""Campaigns are generic over the game's `CampaignRules`: a toy game registered for the test
gets working campaign pages and API under its own slug, in its own words and numbers; a game
without campaign rules has no campaign pages; existing campaigns get their game when the
migration adds it."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from play import campaign_services as services
from play.campaign_links import campaign_links
from play.campaign_services import CampaignRefused
from play.models import Campaign, CampaignSpend
from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from validation.capabilities import CampaignRules
from validation.registry import FormatDef, GameDef, registry
from validation.rules import Rule, option_limit, points
from validation.schema import KindSchema
from validation.sections import SectionSpec

from .conftest import make_force

pytestmark = pytest.mark.django_db

SLUG = "toy-war"

RULES = CampaignRules(
    format="raid",
    section="band",
    kinds=("soldier",),
    points_for={"win": 5, "loss": 1, "draw": 2},
    award_label="medal",
    award_cost=2,
    swap_cost_per_point=2,
    decided_by="The most medals wins the war.",
    default_points=12,
    list_label="warband",
    card_label="soldier",
    points_label="gold crown",
)


class BandTotal(Rule):
    """The toy campaign's warband totals exactly the campaign's gold crowns."""

    def check(self, deck, ctx):
        total, allowed = points(deck, ("band",)), option_limit(ctx, "points")
        if total == allowed:
            return []
        return [
            self.violation(
                f"the warband totals {total} gold crowns; the campaign's warbands total "
                f"exactly {allowed}",
                "band",
            )
        ]


TOY = GameDef(
    slug=SLUG,
    name="Toy War",
    description="A test game of warbands.",
    factions={},
    kinds={"soldier": KindSchema("soldier", "Soldier", ())},
    formats={
        "raid": FormatDef(
            "raid",
            "Raid",
            "A warband of 12 gold crowns.",
            sections=(SectionSpec("band", "Band"),),
            checks=(BandTotal(code="band.points"),),
            options={"points": 12},
            adjustable=frozenset({"points"}),
        )
    },
    campaign=RULES,
)

#: name -> cost in gold crowns
SOLDIERS = {"Spearman": 2, "Archer": 3, "Knight": 4, "Giant": 6}
#: 3 × 2 + 2 × 3 = 12 gold crowns
WARBAND = "Band:\n3 Spearman\n2 Archer\n"


@pytest.fixture
def toy_game(db):
    from catalogue.models import Card, Game
    from catalogue.services import games_sync

    with registry.temporarily(TOY):
        games_sync()
        game = Game.objects.get(slug=SLUG)
        for name, cost in SOLDIERS.items():
            Card.objects.create(game=game, name=name, kind="soldier", cost=cost)
        yield game


def warband(owner, name: str, text: str = WARBAND):
    from decks.services import deck_create

    return deck_create(owner=owner, game_slug=SLUG, format="raid", name=name, text=text)


def test_the_toy_games_rules_drive_the_services(toy_game, user):
    campaign = services.campaign_create(owner=user, game=SLUG, name="Border war")
    assert campaign.game == toy_game and campaign.points_total == 12
    a = services.campaign_player_add(campaign=campaign, name="Ann", deck=warband(user, "A"))
    b = services.campaign_player_add(campaign=campaign, name="Ben", deck=warband(user, "B"))
    services.campaign_game_record(campaign=campaign, results=[(a, "win"), (b, "loss")])
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.campaign_points, b.campaign_points) == (5, 1)
    services.campaign_spend_award(player=a, count=2)  # 2 medals, 2 campaign points each
    a.refresh_from_db()
    assert (a.campaign_points, a.awards) == (1, 2)
    with pytest.raises(CampaignRefused, match=r"1 medal\(s\) cost 2 campaign points; Ann has 1"):
        services.campaign_spend_award(player=a, count=1)
    # An Archer (3) for a Knight (4): 13 gold crowns, not the campaign's 12.
    with pytest.raises(CampaignRefused) as exc:
        services.campaign_spend_swap(player=b, remove={"Archer": 1}, add={"Knight": 1})
    assert "the warband totals 13 gold crowns" in str(exc.value)
    assert "the campaign's warbands total exactly 12" in str(exc.value)
    with pytest.raises(CampaignRefused, match="the warband has 0 Giant"):
        services.campaign_spend_swap(player=b, remove={"Giant": 1}, add={"Knight": 1})
    with pytest.raises(CampaignRefused, match="'Dragon' is not a soldier"):
        services.campaign_spend_swap(player=b, remove={"Archer": 1}, add={"Dragon": 1})
    # 2 Spearmen (4) for a Knight (4): legal, but 4 gold crowns at 2 each cost 8.
    with pytest.raises(CampaignRefused, match="swapping 4 gold crowns costs 8 campaign points"):
        services.campaign_spend_swap(player=b, remove={"Spearman": 2}, add={"Knight": 1})
    assert not CampaignSpend.objects.filter(player=b).exists()
    for _ in range(2):
        services.campaign_game_record(campaign=campaign, results=[(a, "loss"), (b, "win")])
    spend = services.campaign_spend_swap(player=b, remove={"Spearman": 2}, add={"Knight": 1})
    b.refresh_from_db()
    assert (spend.points, spend.deck_version, b.campaign_points) == (8, 2, 3)
    assert services.section_counts(b.deck, "band") == {"Spearman": 1, "Archer": 2, "Knight": 1}
    rows = services.campaign_standings(campaign=campaign)
    # Both have 3 campaign points; Ann's medals decide.
    assert [(r["name"], r["awards"], r["campaign_points"]) for r in rows] == [
        ("Ann", 2, 3),
        ("Ben", 0, 3),
    ]


def test_another_games_deck_is_refused(toy_game, user, sample_catalogue):
    campaign = services.campaign_create(owner=user, game=SLUG, name="Border war")
    force = make_force(user, "A Tactical Assault force")
    with pytest.raises(CampaignRefused) as exc:
        services.campaign_player_add(campaign=campaign, name="Cat", deck=force)
    assert exc.value.field == "deck"
    assert "A Tactical Assault force is a Tactical Assault: Combat Cards deck" in str(exc.value)
    assert "this campaign plays Toy War" in str(exc.value)


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_toy_game_has_campaign_pages_in_its_own_words(client, toy_game, user):
    assert campaign_links(SLUG) == [
        {"label": "Campaign tracker", "url": f"/play/{SLUG}/campaigns/"}
    ]
    game_page = client.get(f"/cards/{SLUG}/").content.decode()
    assert f'href="/play/{SLUG}/campaigns/">Campaign tracker</a>' in game_page
    client.force_login(user)
    listing = client.get(f"/play/{SLUG}/campaigns/")
    assert listing.status_code == 200
    assert "Toy War campaigns" in _text(listing) and "Gold crowns" in _text(listing)
    new = client.get(f"/play/{SLUG}/campaigns/new/")
    assert 'value="12"' in new.content.decode()  # the rules' default points
    assert "The gold crowns every player's warband must total." in _text(new)
    created = client.post(f"/play/{SLUG}/campaigns/new/", {"name": "Border war"})
    assert created.status_code == 200 and "This field is required." in _text(created)
    created = client.post(
        f"/play/{SLUG}/campaigns/new/", {"name": "Border war", "points_total": 12}
    )
    assert created.status_code == 302
    detail_url = created["Location"]
    campaign = Campaign.objects.get(name="Border war")
    assert detail_url == f"/play/{SLUG}/campaigns/{campaign.pk}/" == campaign.get_absolute_url()
    for name in ("Ann", "Ben"):
        deck = warband(user, f"{name}'s band")
        added = client.post(f"{detail_url}players/new/", {"name": name, "deck": deck.pk})
        assert added.status_code == 302
    detail = _text(client.get(detail_url))
    assert "Warbands of 12 gold crowns." in detail
    assert "win 5, loss 1, draw 2 campaign points" in detail
    assert "spend 2 on a medal or 2 per gold crown swapped." in detail
    assert "The most medals wins the war." in detail
    assert (
        "Warband" in detail and "Medals" in detail and "Ann's band" in detail.replace("&#x27;", "'")
    )
    ann, ben = campaign.players.order_by("name")
    recorded = client.post(
        f"{detail_url}games/new/",
        {"date": "2025-03-01", f"result_{ann.pk}": "win", f"result_{ben.pk}": "loss"},
        follow=True,
    )
    assert "Ann +5, Ben +1" in _text(recorded)
    spend_page = _text(client.get(f"{detail_url}spend/"))
    assert "Medals (2 points each)" in spend_page
    assert "Soldier swap (2 points per gold crown swapped)" in spend_page
    assert "Soldiers out" in spend_page and "Soldiers in" in spend_page
    assert "Warbands" in spend_page and "3 Spearman" in spend_page
    bought = client.post(
        f"{detail_url}spend/", {"player": ann.pk, "kind": "award", "count": 2}, follow=True
    )
    assert "Ann bought 2 medal(s) for 4 campaign points." in _text(bought)
    refused = client.post(
        f"{detail_url}spend/",
        {"player": ben.pk, "kind": "swap", "remove": "1 Archer", "add": "1 Knight"},
    )
    assert "Refused:" in _text(refused) and "totals 13 gold crowns" in _text(refused)
    standings = client.get(f"{detail_url}standings/")
    html = standings.content.decode()
    head = html[html.index('id="standings"') :]
    assert head.index("Medals") < head.index("Campaign points") and "Warband" in head
    assert "The most medals wins the war." in _text(standings)


def test_the_toy_game_through_the_api(client, toy_game, user):
    client.force_login(user)
    # Two games have campaign rules now: the game must be named.
    unnamed = client.post("/api/play/campaigns/", {"name": "War"}, "application/json")
    assert unnamed.status_code == 400 and first_field(unnamed.json()) == "game"
    assert "tactical-assault, toy-war" in unnamed.json()["detail"]
    created = client.post("/api/play/campaigns/", {"name": "War", "game": SLUG}, "application/json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["game"], body["points_total"]) == (SLUG, 12)
    assert body["rules"]["labels"] == {
        "list": "warband",
        "card": "soldier",
        "points": "gold crown",
        "award": "medal",
    }
    cid = body["id"]
    ids = []
    for name in ("Ann", "Ben"):
        deck = warband(user, f"{name}'s band")
        added = client.post(
            f"/api/play/campaigns/{cid}/players/",
            {"name": name, "deck": deck.pk},
            "application/json",
        )
        assert added.status_code == 201, added.content
        assert added.json()["deck_name"] == f"{name}'s band" and added.json()["awards"] == 0
        ids.append(added.json()["id"])
    game = client.post(
        f"/api/play/campaigns/{cid}/games/",
        {"results": [{"player": ids[0], "result": "draw"}, {"player": ids[1], "result": "draw"}]},
        "application/json",
    )
    assert [r["points"] for r in game.json()["results"]] == [2, 2]
    award = client.post(
        f"/api/play/campaigns/{cid}/spend/",
        {"player": ids[0], "kind": "award", "count": 1},
        "application/json",
    )
    assert award.status_code == 200, award.content
    assert award.json()["spend"] == {
        "kind": "award",
        "points": 2,
        "awards": 1,
        "removed": {},
        "added": {},
        "deck_version": None,
    }
    old_kind = client.post(
        f"/api/play/campaigns/{cid}/spend/",
        {"player": ids[0], "kind": "promotion", "count": 1},
        "application/json",
    )
    assert old_kind.status_code == 400 and "kind" in field_errors(old_kind.json())
    standings = client.get(f"/api/play/campaigns/{cid}/standings/").json()["standings"]
    assert [(s["name"], s["awards"], s["deck_name"]) for s in standings] == [
        ("Ann", 1, "Ann's band"),
        ("Ben", 0, "Ben's band"),
    ]


def test_a_game_without_campaign_rules_has_no_campaign_pages(client, user, sample_catalogue):
    assert registry.get("redline").campaign is None
    assert campaign_links("redline") == []
    client.force_login(user)
    for url in (
        "/play/redline/campaigns/",
        "/play/redline/campaigns/new/",
        "/play/no-such-game/campaigns/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post("/play/redline/campaigns/new/", {"name": "X"}).status_code == 404
    campaign = services.campaign_create(owner=user, game="tactical-assault", name="Hills")
    # A campaign is found only under its own game's path.
    assert client.get(f"/play/redline/campaigns/{campaign.pk}/").status_code == 404
    assert client.get(f"/play/tactical-assault/campaigns/{campaign.pk}/").status_code == 200
    refused = client.post(
        "/api/play/campaigns/", {"name": "X", "game": "redline"}, "application/json"
    )
    assert refused.status_code == 400 and first_field(refused.json()) == "game"
    assert "'redline' has no campaigns" in refused.json()["detail"]


def test_the_toy_games_campaign_is_not_found_under_another_game(client, toy_game, user):
    campaign = services.campaign_create(owner=user, game=SLUG, name="War")
    client.force_login(user)
    assert client.get(f"/play/tactical-assault/campaigns/{campaign.pk}/").status_code == 404
    assert client.get(f"/play/{SLUG}/campaigns/{campaign.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_campaigns_their_game(django_user_model):
    """Campaigns written before a campaign named its game get the game of their players'
    decks, or, without players, the first registered game with campaign rules (its
    catalogue row made if need be); spends on promotions become spends on awards."""
    start = [("play", "0001_initial")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("play")
    executor.migrate(start)
    try:
        old = executor.loader.project_state(start).apps
        Game = old.get_model("catalogue", "Game")
        Deck = old.get_model("decks", "Deck")
        OldCampaign = old.get_model("play", "Campaign")
        OldPlayer = old.get_model("play", "CampaignPlayer")
        OldSpend = old.get_model("play", "CampaignSpend")
        owner = django_user_model.objects.create_user("old", "old@example.com", "x-long-pass-1")
        toy = Game.objects.create(slug=SLUG, name="Toy War")
        assert not Game.objects.filter(slug="tactical-assault").exists()
        OldCampaign.objects.create(owner_id=owner.pk, name="Empty", points_total=36)
        played = OldCampaign.objects.create(owner_id=owner.pk, name="Played", points_total=12)
        deck = Deck.objects.create(owner_id=owner.pk, game=toy, format="raid", name="Band")
        player = OldPlayer.objects.create(
            campaign=played, name="Ann", force=deck, campaign_points=1, promotions=2
        )
        OldSpend.objects.create(player=player, kind="promotion", points=4, promotions=2)
        OldSpend.objects.create(
            player=player, kind="swap", points=1, removed={"A": 1}, added={"B": 1}, force_version=2
        )
        with registry.temporarily(TOY):  # two games with campaign rules
            executor = MigrationExecutor(connection)
            executor.migrate(latest)
        new = executor.loader.project_state(latest).apps
        NewCampaign = new.get_model("play", "Campaign")
        NewSpend = new.get_model("play", "CampaignSpend")
        games = dict(NewCampaign.objects.values_list("name", "game__slug"))
        assert games == {"Empty": "tactical-assault", "Played": SLUG}
        moved = new.get_model("play", "CampaignPlayer").objects.get(name="Ann")
        assert (moved.deck_id, moved.awards, moved.campaign_points) == (deck.pk, 2, 1)
        spends = NewSpend.objects.order_by("id")
        assert [(s.kind, s.awards, s.deck_version) for s in spends] == [
            ("award", 2, None),
            ("swap", 0, 2),
        ]
        assert not NewCampaign._meta.get_field("game").null
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
