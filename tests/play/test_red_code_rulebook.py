"""Red Code tools as the rulebook says: only enemy ships block the line of sight ("Note that
the enemy ships have the same effect as islands in blocking your line of sight", 3.2), and
the crew economy says on its page what it leaves out of the Orders manoeuvre and the order
cards (3.3)."""

from __future__ import annotations

import pytest

from play import services
from tests.problems import first_field
from validation.registry import registry

pytestmark = pytest.mark.django_db
VF_URL = "/api/play/red-code/visual-field/"
CREW_PAGE = "/play/red-code/crew/"


def _field(**params):
    tool = registry.get("red-code").tool("visual-field")
    return services.tool_answer(game_slug="red-code", tool=tool, raw=params).result.data


def _three_sea_boxes_in_a_row():
    """A seed and a box x,y with x+1,y and x+2,y sea too."""
    for seed in range(1, 50):
        grid = _field(seed=seed)["grid"]
        for y, row in enumerate(grid):
            for x in range(len(row) - 2):
                if all(row[x + i] != "island" for i in range(3)):
                    return seed, x, y
    raise AssertionError("no map with three sea boxes in a row")


def test_a_friendly_ship_does_not_block_an_enemy_ship_does(sample_catalogue):
    seed, x, y = _three_sea_boxes_in_a_row()
    beyond = [x + 2, y]
    friendly = _field(seed=seed, x=x, y=y, friends=f"{x + 1},{y}")["field"]
    assert beyond in friendly["boxes_at_distance"]["2"]
    assert not [b for b in friendly["blocked"] if b["box"] == [x + 1, y]]
    assert "friendly ship 1" in friendly["ships_in_view"]
    enemy = _field(seed=seed, x=x, y=y, ships=f"{x + 1},{y}")["field"]
    assert beyond not in enemy["boxes_at_distance"].get("2", [])
    assert [b["by"] for b in enemy["blocked"] if b["box"] == [x + 1, y]] == ["enemy ship 1"]
    # both: the enemy behind the friend is in view, nothing behind the enemy
    both = _field(seed=seed, x=x, y=y, friends=f"{x + 1},{y}", ships=f"{x + 2},{y}")["field"]
    assert both["ships_in_view"] == {"friendly ship 1": 1, "enemy ship 1": 2}


def test_a_box_cannot_hold_a_friend_and_an_enemy(client, sample_catalogue):
    r = client.get(VF_URL, {"seed": 3, "ships": "1,1", "friends": "1,1"})
    assert r.status_code == 400
    assert first_field(r.json()) == "friends" and "1,1" in r.json()["detail"]


def test_the_page_asks_for_enemy_and_friendly_ships(client, sample_catalogue):
    html = client.get("/play/red-code/visual-field/", follow=True).content.decode()
    assert 'name="friends"' in html and "Enemy ships" in html
    assert "Only enemy ships block" in html


def test_crew_page_says_what_it_leaves_out_of_the_order_cards(client, sample_catalogue):
    html = client.get(CREW_PAGE).content.decode()
    assert "order card" in html.lower()
    answer = client.get(
        CREW_PAGE, {"ship": "Barracuda", "distance": "2", "target": "Stingray"}
    ).content.decode()
    assert "Kamikaze" in answer and "regardless of distance" in answer
    assert "Orders (draws an order card" in answer


def test_crew_target_picker_offers_only_enemy_ships(client, sample_catalogue):
    html = client.get(CREW_PAGE, {"ship": "Barracuda", "distance": "2"}).content.decode()
    target = html[html.index('name="target"') :].split("</select>")[0]
    for enemy in ("Stingray", "Tempest", "Leviathan"):
        assert f">{enemy}<" in target
    for friend in ("Barracuda", "Vigilant", "Albatross"):
        assert f">{friend}<" not in target
