"""The check page reads the game and format from the list, as the import page does: each
game's own text export pasted on /check/ with the game menu left at its default is checked
as that game and format; a list without # Game: and # Format: lines is recognised from its
sections and cards; a game chosen in the menu wins, and the result says which game the
list's # Game: line names."""

from __future__ import annotations

import html
import re

import pytest
from django.core.management import call_command

from catalogue.services import sample_deck_files
from decks.models import Deck
from validation.registry import registry

pytestmark = pytest.mark.django_db

SAMPLES = [(s.game, s.format) for s in sample_deck_files()]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def demo(django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "demo-pass-12345")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    return user


def menu_default(client) -> str:
    """The value the check page's game menu sends when it is left as it opens."""
    page = client.get("/check/").content.decode()
    menu = re.search(r'<select name="game_format"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"( selected)?', menu)
    return next((value for value, on in options if on), options[0][0])


def read_as(answer: str) -> str:
    found = re.search(r'<p class="muted" id="read-as">(.*?)</p>', answer, re.S)
    return html.unescape(found.group(1)) if found else ""


def check(client, **fields) -> str:
    response = client.post("/check/", fields, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def export(client, game, fmt) -> tuple[Deck, str]:
    deck = Deck.objects.get(owner__username="demo", game__slug=game, format=fmt)
    return deck, client.get(f"/decks/{deck.pk}/export/text/").content.decode()


@pytest.mark.parametrize(("game", "fmt"), SAMPLES)
def test_an_exported_list_is_checked_as_its_game_with_the_menu_left_alone(
    client, sample_catalogue, demo, game, fmt
):
    deck, text = export(client, game, fmt)
    answer = check(client, game_format=menu_default(client), list=text)
    assert "could not be read" not in answer, answer
    verdict = re.search(r'<p class="verdict (\w+)">', answer).group(1)
    assert verdict == ("legal" if deck.legal else "illegal"), answer
    game_def = registry.get(game)
    assert read_as(answer) == (
        f"Checked as {game_def.name} — {game_def.format(fmt).name}, as the list's # Game: "
        "and # Format: lines say."
    )


def test_the_points_of_the_lines_are_counted(client, sample_catalogue, demo):
    """A Tactical Assault custom list's "# Points: …" line: checked against its points."""
    deck, text = export(client, "tactical-assault", "custom")
    assert deck.legal
    points = re.search(r"^# Points: (\d+)$", text, re.M)
    assert points, text
    answer = check(client, game_format="", list=text)
    assert "Checked as Tactical Assault" in read_as(answer)
    assert '<p class="verdict legal">' in answer
    answer = check(client, game_format="", list=text.replace(points.group(0), "# Points: 1"))
    assert '<p class="verdict illegal">' in answer
    assert "Checked as Tactical Assault" in read_as(answer)


def test_a_list_without_lines_is_recognised_from_its_sections(client, sample_catalogue, demo):
    _, text = export(client, "hex-skirmish", "standard")
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    answer = check(client, game_format="", list=bare)
    assert read_as(answer).startswith("Checked as Hex Skirmish — ")
    assert "read from its sections and cards" in read_as(answer)
    assert "unknown section" not in answer


def test_a_game_chosen_in_the_menu_wins_and_the_result_names_the_lines_game(
    client, sample_catalogue, demo
):
    _, text = export(client, "hex-skirmish", "standard")
    answer = check(client, game_format="redline/standard", list=text)
    assert read_as(answer) == (
        f"Checked as {registry.get('redline').name} — Standard, as chosen in the menu; the "
        "list's # Game: line names Hex Skirmish."
    )
    assert "could not be read" in answer


def test_a_list_of_no_game_asks_for_the_menu(client, sample_catalogue):
    answer = check(client, game_format="", list="Nonsense:\n3 Nothing at all\n")
    assert "choose the game and format" in answer
