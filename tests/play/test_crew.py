"""Red Code crew economy and visual field through the game's tools and the API."""

from __future__ import annotations

import pytest

from play import services
from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from validation.registry import registry

pytestmark = pytest.mark.django_db
CREW_URL = "/api/play/red-code/crew/"
VF_URL = "/api/play/red-code/visual-field/"


def crew(**params):
    tool = registry.get("red-code").tool("crew")
    return services.tool_answer(game_slug="red-code", tool=tool, raw=params).result


def test_barracuda_sinks_stingray_at_distance_two_in_four_turns(sample_catalogue):
    """Worked by hand. Barracuda (6 crew) at distance 2 can crew Torpedo (1 crew, 1 damage),
    Countermeasure (2 crew, 1) and Heavy torpedo (3 crew, 2); Floating mine reaches only 1.
    Stingray sinks after 3 + 2 x 3 = 9 repair damage.

    Turn 1: all three, 6 crew, 4 damage. From then on 2 crew come back a turn, so turns
    2..t place at most 2(t-1) crew; Torpedo (1 damage a crew) is usable once a turn and the
    others give at most 2/3 damage a crew. Turns 2-3 give at most 3 (7 in all), turns 2-4
    give 5 (Torpedo, Torpedo, Torpedo + Heavy torpedo): sunk on turn 4. In the long run a
    3-turn cycle of 3 Torpedoes and 1 Heavy torpedo uses the 6 crew returned for 5 damage:
    5/3 a turn."""
    answer = crew(ship="Barracuda", distance=2, target="Stingray")
    result = answer.data
    m = result["matchup"]
    assert m["target_hit_points"] == 9
    assert {u["name"] for u in m["useful_manoeuvres"]} == {
        "Torpedo",
        "Countermeasure",
        "Heavy torpedo",
    }
    assert "Floating mine" in {u["name"] for u in m["unused_manoeuvres"]}
    assert m["turns_to_sink"] == 4
    assert m["schedule"][0]["damage"] == 4
    assert m["schedule"][0]["crew_used"] == 6
    assert m["schedule"][-1]["cumulative_damage"] >= 9
    assert m["schedule"][-1]["target"]["sunk"] is True
    for turn in m["schedule"]:
        assert turn["crew_used"] <= turn["crew_available"]
    assert m["sustained_damage_fraction"] == "5/3"
    # The table has one row per red ship, in class order.
    assert [r["target"] for r in result["table"]] == ["Stingray", "Tempest", "Leviathan"]
    assert [r["hit_points"] for r in result["table"]] == [9, 12, 15]
    assert result["table"][0]["turns_to_sink"] == 4
    # What the page shows of it.
    assert dict(answer.figures)["Turns to sink Stingray"] == "4"
    assert dict(answer.figures)["Sustained damage per turn"] == "5/3"
    assert [t["id"] for t in answer.tables] == ["crew-table", "schedule-table"]
    assert answer.tables[0]["rows"][0][:4] == ["Stingray", "submarine", 9, 4]
    assert [c["id"] for c in answer.charts] == ["rc-crew-damage"]


def test_crew_api(client, sample_catalogue):
    body = client.get(CREW_URL, {"ship": "barracuda", "distance": 2}).json()
    assert body["ship"] == "Barracuda"
    assert body["matchup"]["target"] == "Stingray"
    assert body["matchup"]["turns_to_sink"] == 4
    assert client.get(CREW_URL, {"ship": "Barracuda", "distance": 9}).status_code == 400
    bad = client.get(CREW_URL, {"ship": "Nautilus", "distance": 2})
    assert bad.status_code == 400 and first_field(bad.json()) == "ship"
    bad = client.get(CREW_URL, {"ship": "Barracuda", "distance": 2, "target": "Vigilant"})
    assert bad.status_code == 400 and "not an enemy ship" in bad.json()["detail"]
    assert first_field(bad.json()) == "target"
    bad = client.get(CREW_URL, {"distance": 2})
    assert bad.status_code == 400 and field_errors(bad.json()) == {"ship": "Ship is required"}


def test_visual_field_is_reproducible_and_blocked(client, sample_catalogue):
    first = client.get(VF_URL, {"seed": 42}).json()
    again = client.get(VF_URL, {"seed": 42}).json()
    assert first["layout"] == again["layout"]
    assert first["field"] is None
    grid = first["grid"]
    sea = [(x, y) for y in range(6) for x in range(8) if grid[y][x] != "island"]
    x, y = sea[0]
    body = client.get(VF_URL, {"seed": 42, "x": x, "y": y}).json()
    assert body["origin"] == [x, y]
    targets = {tuple(b) for d, boxes in body["field"]["boxes_at_distance"].items() for b in boxes}
    assert (x, y) in targets
    assert all(grid[b[1]][b[0]] != "island" for b in targets)
    # A ship right beside the origin, east, blocks the boxes behind it.
    if x + 2 < 8 and grid[y][x + 1] != "island" and grid[y][x + 2] != "island":
        blocked = client.get(VF_URL, {"seed": 42, "x": x, "y": y, "ships": f"{x + 1},{y}"}).json()
        east = {tuple(b) for bs in blocked["field"]["boxes_at_distance"].values() for b in bs}
        assert (x + 1, y) in east and (x + 2, y) not in east
        assert blocked["field"]["ships_in_view"] == {"enemy ship 1": 1}


def test_visual_field_errors(client, sample_catalogue):
    # The API's GET answers the same for the same address: the seed is not drawn for it.
    missing = client.get(VF_URL)
    assert missing.status_code == 400 and first_field(missing.json()) == "seed"
    assert client.get(VF_URL, {"seed": "x"}).status_code == 400
    assert client.get(VF_URL, {"seed": 1, "x": 2}).status_code == 400
    assert client.get(VF_URL, {"seed": 1, "x": 9, "y": 0}).status_code == 400
    assert client.get(VF_URL, {"seed": 1, "x": 0, "y": 0, "ships": "a,b"}).status_code == 400
    off = client.get(VF_URL, {"seed": 1, "ships": "3,3;99999999999,2"})
    assert off.status_code == 400 and first_field(off.json()) == "ships"
    assert "off the map" in off.json()["detail"]


def test_the_map_is_a_grid_of_linked_boxes(sample_catalogue):
    tool = registry.get("red-code").tool("visual-field")
    result = services.tool_answer(
        game_slug="red-code", tool=tool, raw={"seed": 42, "x": 1, "y": 1, "ships": "3,3"}
    ).result
    (grid,) = result.charts
    assert grid["type"] == "grid" and (grid["width"], grid["height"]) == (8, 6)
    assert grid["link"] == {"x": "x", "y": "y"}
    cells = {(c["x"], c["y"]): c for c in grid["cells"]}
    assert len(cells) == 48
    assert cells[(1, 1)]["marker"] == "circle" and cells[(3, 3)]["marker"] == "square"
    islands = [c for c in grid["cells"] if "island" in c["class"]]
    assert islands and not any(c["link"] for c in islands)
    assert cells[(1, 1)]["label"] == "" and any(c["label"] == "1" for c in grid["cells"])
    assert [t["id"] for t in result.tables] == ["vf-table"]


def _picker(html: str, name: str) -> list[str]:
    """The card names a form's select `name` offers (its empty option left out)."""
    import re

    select = html.split(f'id="id_{name}"', 1)[1].split("</select>", 1)[0]
    return [v for v in re.findall(r'<option value="([^"]*)"', select) if v]


def _sides():
    from catalogue.models import Card

    return dict(
        Card.objects.filter(game__slug="red-code", kind="ship").values_list("name", "faction")
    )


def test_the_matchup_picker_offers_only_the_shown_ships_enemies(client, sample_catalogue):
    sides = _sides()
    html = client.get("/play/red-code/crew/").content.decode()
    shown = _picker(html, "ship")[0]  # a required picker left unset shows its first ship
    targets = _picker(html, "target")
    assert targets and shown not in targets
    assert {sides[t] for t in targets} == {f for f in set(sides.values()) if f != sides[shown]}


def test_a_change_of_ship_redraws_the_matchup_picker_with_its_enemies(client, sample_catalogue):
    sides = _sides()
    ship = next(n for n in sorted(sides) if sides[n] != sides[sorted(sides)[0]])
    friend = next(n for n in sorted(sides) if sides[n] == sides[ship] and n != ship)
    response = client.get(
        f"/play/red-code/crew/?ship={ship}&distance=2&target={friend}", HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    # the picker, swapped into the form out of band, offers the new ship's enemies only
    oob = html.split('hx-swap-oob="true"', 1)
    assert len(oob) == 2 and 'id="id_target"' in oob[0].rsplit("<select", 1)[1]
    targets = _picker(html, "target")
    assert targets and all(sides[t] != sides[ship] for t in targets)
    # the friend it named before is dropped (the first enemy's matchup), not an error
    assert "not an enemy ship" not in html
    assert f"{ship} against" in html or ship in html


def test_a_whole_page_has_no_out_of_band_picker(client, sample_catalogue):
    html = client.get("/play/red-code/crew/?ship=Albatross&distance=2").content.decode()
    assert "hx-swap-oob" not in html
