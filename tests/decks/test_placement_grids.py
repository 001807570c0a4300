"""A game's placement grid draws its area: the same builder page, script and stored list
serve a game of squares as well as a game of hexes (here the toy game with its frogs placed
on a 3 × 2 board of squares, for this test alone)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

import tests.toy_game as toy
from catalogue.importer import expansion_import
from decks.services import deck_create
from validation.placement import HexGrid, SquareGrid
from validation.registry import FormatDef, GameDef, registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _square_pond() -> GameDef:
    pond = toy.GAME.formats["pond"]
    frogs = dataclasses.replace(
        pond.sections[0], placement=(3, 2), placement_code="frogs.placement"
    )
    fmt = FormatDef(
        pond.slug,
        pond.name,
        pond.description,
        sections=(frogs, *pond.sections[1:]),
        checks=pond.checks,
    )
    return dataclasses.replace(toy.GAME, formats={"pond": fmt}, placement=SquareGrid())


@pytest.fixture
def square_pond(db):
    with registry.temporarily(_square_pond(), package="tests.toy_game") as game:
        path = Path(toy.__file__).parent / "sample_data" / "POND1.json"
        expansion_import(data=json.loads(path.read_text()))
        yield game


def test_the_grids_draw_cells_of_their_shape():
    squares = SquareGrid().draw(3, 2)
    assert (squares["type"], squares["noun"], squares["width"], squares["height"]) == (
        "square",
        "square",
        124.0,
        84.0,
    )
    assert [(c["c"], c["r"]) for c in squares["cells"]] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
    ]
    assert squares["cells"][4]["points"] == "42.0,42.0 82.0,42.0 82.0,82.0 42.0,82.0"
    hexes = HexGrid().draw(2, 2)
    assert hexes["noun"] == "hex" and len(hexes["cells"][0]["points"].split()) == 6
    # odd rows are shifted half a hex to the right
    assert hexes["cells"][2]["cx"] > hexes["cells"][0]["cx"]


def test_a_section_with_a_placement_area_needs_a_grid():
    with pytest.raises(ValueError, match="needs a placement grid"):
        dataclasses.replace(_square_pond(), placement=None)


def test_the_builder_places_units_on_squares(client, user, square_pond):
    deck = deck_create(
        owner=user,
        game_slug="pond",
        format="pond",
        name="Squares",
        text="Frogs:\n1 Leaper @0,0\n1 Croaker @2,1\nLily pads:\n6 Broad Pad\n",
    )
    client.force_login(user)
    html = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'class="placement-map grid-square"' in html and 'data-noun="square"' in html
    assert "Click a unit, then a free square." in html
    cells = re.findall(r'<g tabindex="0" class="cell[^"]*"[^>]*>', html)
    assert len(cells) == 6
    assert 'data-c="0" data-r="0" data-occupant="Leaper"' in html
    # the accessible name starts with what the cell shows (its short name, else its place)
    assert re.search(r'aria-label="[^"]*Croaker on square 2,1"', html)
    moved = client.post(
        reverse("builder:change", args=[deck.pk]),
        {
            "op": "place",
            "section": "frogs",
            "card": "Leaper",
            "from": "0,0",
            "to": "1,1",
            "base": "1",
        },
        **HTMX,
    ).content.decode()
    assert 'data-c="1" data-r="1" data-occupant="Leaper"' in moved
    deck.refresh_from_db()
    leaper = next(e for e in deck.current_version.entries if e["card"] == "Leaper")
    assert leaper["placement"] == [1, 1]
    assert "1 Leaper @1,1" in deck.current_version.list_text


def test_the_rules_call_a_cell_by_the_grids_word(client, square_pond):
    answer = client.post(
        "/api/validate/",
        {
            "game": "pond",
            "format": "pond",
            "list": "Frogs:\n1 Leaper\n1 Croaker @1,1\n2 Tadpole @1,1\n",
        },
        content_type="application/json",
    ).json()
    messages = {v["message"] for v in answer["errors"] if v["code"] == "frogs.placement"}
    assert messages == {
        "Line 2: Leaper has no square; every unit is placed",
        "Line 4: 2 Tadpole on square 1,1; one unit a square",
        "Lines 3, 4: Croaker and Tadpole on the same square 1,1; one unit a square",
    }
