"""Page smoke: every tool is reachable from its game page's link and usable with the Django
test client (forms render, submit, results show)."""

from __future__ import annotations

import re

import pytest

from validation.registry import registry

from .conftest import giant_units_deck, make_force

pytestmark = pytest.mark.django_db


def links_of(client, slug: str) -> dict[str, str]:
    html = client.get(f"/cards/{slug}/").content.decode()
    found = re.findall(r'<a class="button secondary" href="([^"]+)">([^<]+)</a>', html)
    return {label: href for href, label in found if href.startswith("/play/")}


def test_game_pages_link_every_tool(client, sample_catalogue):
    from play.links import tools_for_game

    assert links_of(client, "tactical-assault") == {
        "Combat odds": "/play/tactical-assault/combat-odds/",
        "Close combat": "/play/tactical-assault/close-combat/",
        "Campaign tracker": "/play/tactical-assault/campaigns/",
    }
    assert links_of(client, "red-code") == {
        "Crew economy": "/play/red-code/crew/",
        "Visual field": "/play/red-code/visual-field/",
    }
    assert links_of(client, "red-mittens") == {"Goldfish a deck": "/play/red-mittens/goldfish/"}
    assert links_of(client, "redline") == {"Goldfish a deck": "/play/redline/goldfish/"}
    assert tools_for_game("no-such-game") == []
    index = client.get("/play/")
    assert index.status_code == 200
    html = index.content.decode()
    for slug in registry.slugs():
        assert f'id="play-{slug}"' in html


def test_the_former_combat_page_leads_to_the_odds(client, sample_catalogue):
    query = {"attacker": "Infantry", "target": "Armored"}
    response = client.get("/play/tactical-assault/combat/", query)
    assert response.status_code == 301
    assert response["Location"] == (
        "/play/tactical-assault/combat-odds/?attacker=Infantry&target=Armored"
    )
    assert client.get("/play/tactical-assault/no-such-tool/").status_code == 404
    assert client.get("/play/no-such-game/combat-odds/").status_code == 404
    assert client.get("/play/red-code/goldfish/").status_code == 404


def test_combat_odds_page(client, sample_catalogue):
    url = links_of(client, "tactical-assault")["Combat odds"]
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert 'name="attacker"' in html and 'name="obstructed"' in html and 'name="range"' in html
    # Each modifier says which attack it applies to.
    assert "Attack: Firepower attack (Table 4)</span>" in html
    result = client.get(url, {"attacker": "Infantry", "target": "Armored", "attack": "firepower"})
    html = result.content.decode()
    assert 'id="odds-table"' in html
    assert "1/9" in html and "5/9" in html  # 8/72 out of action, 40/72 no effect
    assert "<svg" in html
    assert '<tr id="figure-net-shift"><th scope="row">Net shift</th><td>-1</td>' in html
    partial = client.get(
        url,
        {"attacker": "Infantry", "target": "Armored", "attack": "close_combat", "obstructed": "on"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="tool-result",
    )
    html = partial.content.decode()
    assert "<html" not in html and 'id="tool-result"' in html
    assert "Ignored" in html and "Obstructed" in html
    bad = client.get(url, {"attacker": "Tank", "target": "Armored", "range": "far"})
    html = bad.content.decode()
    assert bad.status_code == 400
    assert "Attacker must be one of" in html and "Range must be one of" in html


def test_close_combat_page(client, sample_catalogue):
    url = links_of(client, "tactical-assault")["Close combat"]
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'name="a_in_cover"' in html and 'name="games"' in html
    assert 'href="/play/tactical-assault/combat-odds/"' in html  # and back from the odds
    assert (
        'href="/play/tactical-assault/close-combat/"'
        in client.get("/play/tactical-assault/combat-odds/").content.decode()
    )
    run = client.post(
        url,
        {"unit_a": "Infantry", "unit_b": "Armored", "games": 1000, "seed": 1, "max_rounds": 20},
    )
    html = run.content.decode()
    assert run.status_code == 200
    assert 'id="close-combat-table"' in html and "Armored eliminated" in html
    assert "Infantry against Armored: 1000 games (seed 1)" in html
    big = client.post(
        url,
        {"unit_a": "Infantry", "unit_b": "Armored", "games": 30000, "max_rounds": 20},
        HTTP_HX_REQUEST="true",
    )
    assert big.status_code == 200 and "sign in to start one" in big.content.decode()
    refused = client.post(
        url, {"unit_a": "Infantry", "unit_b": "Armored", "games": 30000, "max_rounds": 20}
    )
    assert refused.status_code == 403 and "sign in to start one" in refused.content.decode()


def test_close_combat_page_starts_a_run(client, user, sample_catalogue):
    client.force_login(user)
    response = client.post(
        "/play/tactical-assault/close-combat/",
        {
            "unit_a": "Infantry",
            "unit_b": "Armored",
            "games": 30000,
            "max_rounds": 20,
            "a_in_cover": "on",
        },
    )
    from simulations.models import SimulationRun

    run = SimulationRun.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
    assert run.simulation == "tactical-assault-close-combat" and run.kind == "tool"
    assert run.params["games"] == 30000
    assert run.inputs["a_modifiers"] == {"in_cover": True} and run.inputs["b_modifiers"] == {}
    htmx = client.post(
        "/play/tactical-assault/close-combat/",
        {"unit_a": "Infantry", "unit_b": "Armored", "games": 30000},
        HTTP_HX_REQUEST="true",
    )
    latest = SimulationRun.objects.filter(owner=user).order_by("-pk").first()
    html = htmx.content.decode()
    assert html.startswith('<div id="tool-result"')
    assert f'id="run-link" href="{latest.get_absolute_url()}"' in html


def test_crew_page(client, sample_catalogue):
    url = links_of(client, "red-code")["Crew economy"]
    assert 'name="ship"' in client.get(url).content.decode()
    html = client.get(url, {"ship": "Barracuda", "distance": 2, "target": ""}).content.decode()
    assert 'id="crew-table"' in html and 'id="schedule-table"' in html
    assert (
        '<tr id="figure-turns-to-sink-stingray"><th scope="row">Turns to sink Stingray</th>'
        "<td>4</td>" in html
    )
    assert "<svg" in html


def test_visual_field_page(client, sample_catalogue):
    url = links_of(client, "red-code")["Visual field"]
    first = client.get(url)
    assert first.status_code == 302 and "?seed=" in first["Location"]
    html = client.get("/play/red-code/visual-field/", {"seed": 42}).content.decode()
    assert 'id="chart-sea-map"' in html and "Click a sea box" in html
    box = re.search(r'<a href="([^"]+)" data-x="(\d)" data-y="(\d)" class="cell box sea', html)
    href = box.group(1).replace("&amp;", "&")
    assert "seed=42" in href and f"x={box.group(2)}" in href and f"y={box.group(3)}" in href
    placed = client.get(href).content.decode()
    assert 'id="vf-table"' in placed and 'class="marker circle"' in placed
    # Islands are not links: a ship cannot be placed there.
    assert re.search(r'<g data-x="\d" data-y="\d" class="cell box island', html)
    assert not re.search(r'<a href="[^"]+" data-x="\d" data-y="\d" class="cell box island', html)
    bad = client.get("/play/red-code/visual-field/", {"seed": 42, "x": 1, "y": 1, "ships": "x"})
    assert bad.status_code == 400 and "is not a box" in bad.content.decode()
    # A seed left out is drawn at random, and kept in the address.
    again = client.get("/play/red-code/visual-field/", {"x": 1, "y": 1})
    assert again.status_code == 302 and re.search(r"seed=\d+", again["Location"])
    assert "x=1" in again["Location"]


def test_goldfish_page_from_the_game_page(client, user, sample_catalogue):
    deck = giant_units_deck(user)
    client.force_login(user)
    url = links_of(client, "red-mittens")["Goldfish a deck"]
    html = client.get(url).content.decode()
    assert "Giants" in html
    result = client.post(url, {"deck": deck.pk, "games": 50, "seed": 1, "max_turns": 5})
    assert 'id="goldfish-figures"' in result.content.decode()


def test_campaign_pages(client, user, sample_catalogue):
    client.force_login(user)
    url = links_of(client, "tactical-assault")["Campaign tracker"]
    assert client.get(url).status_code == 200
    assert (
        'name="points_total"'
        in client.get("/play/tactical-assault/campaigns/new/").content.decode()
    )
    created = client.post(
        "/play/tactical-assault/campaigns/new/", {"name": "Hills", "points_total": 36}
    )
    assert created.status_code == 302
    detail_url = created["Location"]
    forces = [make_force(user, "Ann's force"), make_force(user, "Ben's force")]
    for name, deck in zip(("Ann", "Ben"), forces, strict=True):
        response = client.post(f"{detail_url}players/new/", {"name": name, "deck": deck.pk})
        assert response.status_code == 302
    html = client.get(detail_url).content.decode()
    assert "Ann&#x27;s force" in html and 'id="standings"' in html
    from play.models import Campaign

    campaign = Campaign.objects.get(name="Hills")
    ann, ben = campaign.players.order_by("name")
    form = client.get(f"{detail_url}games/new/").content.decode()
    assert f'name="result_{ann.pk}"' in form
    recorded = client.post(
        f"{detail_url}games/new/",
        {"date": "2025-03-01", f"result_{ann.pk}": "win", f"result_{ben.pk}": "loss"},
    )
    assert recorded.status_code == 302
    refused = client.post(
        f"{detail_url}spend/",
        {"player": ben.pk, "kind": "swap", "remove": "1 Armored", "add": "1 Behemoth"},
    )
    assert refused.status_code == 200
    assert "Refused:" in refused.content.decode() and "exactly 36" in refused.content.decode()
    accepted = client.post(
        f"{detail_url}spend/",
        {"player": ben.pk, "kind": "swap", "remove": "1 Armored", "add": "1 Mechanized, 1 Swarm"},
        follow=True,
    )
    assert "swapped units" in accepted.content.decode()
    promo = client.post(
        f"{detail_url}spend/", {"player": ann.pk, "kind": "award", "count": 2}, follow=True
    )
    assert "bought 2 promotion award(s)" in promo.content.decode()
    standings = client.get(f"{detail_url}standings/").content.decode()
    rows = re.findall(r"<tr><td>(\d)</td><td>(\w+)</td>", standings)
    assert rows == [("1", "Ann"), ("2", "Ben")]  # 3 and 1 campaign points
