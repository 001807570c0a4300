"""Play tools that allow only what the rulebooks allow: Tactical Assault's Bunkers and
Obstacles may not be attacked (Part III), and the Combat Cards deck is the rulebook's one
72-card deck whatever else the catalogue holds."""

from __future__ import annotations

import pytest

from play import services
from tests.problems import first_field
from validation.registry import registry

pytestmark = pytest.mark.django_db

GAME = "tactical-assault"
ODDS_URL = "/api/play/tactical-assault/combat-odds/"
CLOSE_URL = "/api/play/tactical-assault/close-combat/"


@pytest.mark.parametrize("attack", ["firepower", "close_combat"])
@pytest.mark.parametrize(("target", "words"), [("Bunker", "Bunkers"), ("Obstacle", "Obstacles")])
def test_combat_odds_api_refuses_a_bunker_or_obstacle_target(
    client, sample_catalogue, attack, target, words
):
    r = client.get(ODDS_URL, {"attacker": "Infantry", "target": target, "attack": attack})
    assert r.status_code == 400
    body = r.json()
    assert first_field(body) == "target"
    assert f"{words} may not be attacked" in body["detail"] and "Part III" in body["detail"]


@pytest.mark.parametrize(("field", "other"), [("unit_a", "unit_b"), ("unit_b", "unit_a")])
@pytest.mark.parametrize("unit", ["Bunker", "Obstacle"])
def test_close_combat_api_refuses_a_bunker_or_obstacle_on_either_side(
    client, sample_catalogue, field, other, unit
):
    payload = {field: unit, other: "Infantry", "games": 100, "seed": 1}
    r = client.post(CLOSE_URL, payload, content_type="application/json")
    assert r.status_code == 400
    assert first_field(r.json()) == field
    assert "may not be attacked" in r.json()["detail"]


def test_the_pages_say_why_and_do_not_offer_them(client, sample_catalogue):
    page = client.get(
        "/play/tactical-assault/combat-odds/", {"attacker": "Infantry", "target": "Bunker"}
    )
    html = page.content.decode()
    assert "Bunkers may not be attacked" in html
    form = client.get("/play/tactical-assault/combat-odds/").content.decode()
    target = form[form.index('name="target"') :].split("</select>")[0]
    attacker = form[form.index('name="attacker"') :].split("</select>")[0]
    assert ">Bunker<" not in target and ">Obstacle<" not in target and ">Infantry<" in target
    assert ">Bunker<" in attacker  # a Bunker's occupant is not the Bunker: it may be chosen
    close = client.get("/play/tactical-assault/close-combat/").content.decode()
    unit_a = close[close.index('name="unit_a"') :].split("</select>")[0]
    assert ">Bunker<" not in unit_a and ">Obstacle<" not in unit_a
    html = client.get(
        "/play/tactical-assault/close-combat/", {"unit_a": "Obstacle", "unit_b": "Infantry"}
    ).content.decode()
    assert "Obstacles may not be attacked" in html


def test_the_api_lists_only_attackable_targets(client, sample_catalogue):
    tools = {t["slug"]: t for t in services.game_tools(game=registry.get(GAME))}
    params = {p["name"]: p for p in tools["combat-odds"]["params"]}
    targets = [v for v, _ in params["target"]["choices"]]
    assert "Bunker" not in targets and "Obstacle" not in targets and "Infantry" in targets
    assert "Bunker" in [v for v, _ in params["attacker"]["choices"]]


def _add_combat_card(name: str, number: int, result: str):
    from catalogue.models import Card, Game

    game = Game.objects.get(slug=GAME)
    base = Card.objects.filter(game=game, kind="combat_card").order_by("name").first()
    attrs = dict(base.attributes, number=number, combat_result=result)
    return Card.objects.create(game=game, name=name, kind="combat_card", attributes=attrs)


def test_the_deck_is_one_card_of_each_number_whatever_the_catalogue_adds(client, sample_catalogue):
    query = {"attacker": "Infantry", "target": "Armored", "attack": "firepower"}
    before = client.get(ODDS_URL, query).json()
    close = {"unit_a": "Infantry", "unit_b": "Armored", "games": 2000, "seed": 3}
    close_before = client.post(CLOSE_URL, close, content_type="application/json").json()
    # a 73rd combat card (a second printing of number 5, another result) and a reprint
    _add_combat_card("Combat Card 5 (promo)", 5, "eliminated")
    _add_combat_card("Combat Card 60 (reprint)", 60, "eliminated")
    after = client.get(ODDS_URL, query).json()
    assert after["deck_size"] == 72
    assert after["results"] == before["results"]
    close_after = client.post(CLOSE_URL, close, content_type="application/json").json()
    assert close_after["outcomes"] == close_before["outcomes"]


def test_a_catalogue_short_of_a_number_is_told_so(client, sample_catalogue):
    from catalogue.models import Card

    Card.objects.filter(game__slug=GAME, kind="combat_card", attributes__number=7).delete()
    r = client.get(ODDS_URL, {"attacker": "Infantry", "target": "Armored"})
    assert r.status_code == 400
    assert "lacks combat card number(s) 7" in r.json()["detail"]
