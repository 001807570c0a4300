"""The import form as a new player meets it: the game-and-format menu opens on "as the list
says"; a list without # Game: and # Format: lines is read as the game its section names and
card names are of; a list without # Deck: gets a name; a near-miss card name with one close
match is offered as a one-click fix."""

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

#: What a sample list read without its game and format is taken for: its game always; the
#: format its sections (and a "# … points: 50" comment) point to, else the game's first.
RECOGNISED_FORMAT = {
    ("redline", "standard"): "standard",
    ("redline", "scramble"): "standard",
    ("redline", "scenario"): "scenario",
    ("tactical-assault", "standard"): "standard",
    ("tactical-assault", "custom"): "custom",
    ("tactical-assault", "campaign"): "standard",
    ("red-code", "arena"): "arena",
    ("red-code", "war"): "arena",
    ("red-mittens", "core"): "core",
    ("hex-skirmish", "standard"): "standard",
}


@pytest.fixture
def demo(django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "demo-pass-12345")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    return user


def _menu_default(page: str) -> str:
    """The value the game-and-format menu is sent with when left as the page draws it: the
    selected option, else the first."""
    select = re.search(r'<select name="game_format"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', select)
    chosen = [value for value, attrs in options if "selected" in attrs]
    return html.unescape(chosen[0] if chosen else options[0][0])


def _bare(text: str) -> str:
    """A list without its comment lines."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("#")) + "\n"


def test_the_import_menu_opens_on_as_the_list_says(client, user):
    client.force_login(user)
    page = client.get("/decks/import/").content.decode()
    assert _menu_default(page) == ""
    assert "As the list says" in page
    # A link that names a format still opens on it; a new deck opens on the first format.
    assert _menu_default(client.get("/decks/import/?f=hex-skirmish/standard").content.decode()) == (
        "hex-skirmish/standard"
    )
    first = registry.all()[0]
    new_page = client.get("/decks/new/").content.decode()
    assert _menu_default(new_page) == f"{first.slug}/{next(iter(first.formats))}"


@pytest.mark.parametrize(("game", "fmt"), SAMPLES)
def test_an_exported_list_imports_back_with_the_menu_left_at_its_default(
    client, sample_catalogue, demo, user, game, fmt
):
    source = Deck.objects.get(owner=demo, game__slug=game, format=fmt)
    text = client.get(f"/decks/{source.pk}/export/text/").content.decode()
    client.force_login(user)
    form = client.get("/decks/import/").content.decode()
    response = client.post(
        "/decks/import/",
        {"list": text, "game_format": _menu_default(form), "visibility": "private"},
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    copy = Deck.objects.get(owner=user)
    assert (copy.name, copy.game.slug, copy.format) == (source.name, game, fmt)
    # The same cards in the same sections (the export lists them as the deck page does).
    assert sorted(copy.current_version.entries, key=repr) == sorted(
        source.current_version.entries, key=repr
    )
    assert copy.current_version.options == source.current_version.options


@pytest.mark.parametrize(("game", "fmt"), SAMPLES)
def test_a_list_without_game_and_format_lines_is_read_from_its_sections_and_cards(
    client, sample_catalogue, user, game, fmt
):
    from validation.packages import sample_list

    text = sample_list(game, fmt).text()
    assert "# Game:" not in text and "# Format:" not in text and "# Deck:" not in text
    client.force_login(user)
    response = client.post(
        "/decks/import/", {"list": text, "game_format": "", "visibility": "private"}, follow=True
    )
    assert response.redirect_chain, response.content.decode()[-3000:]
    deck = Deck.objects.get(owner=user)
    expected = RECOGNISED_FORMAT[(game, fmt)]
    assert (deck.game.slug, deck.format) == (game, expected)
    game_def = registry.get(game)
    # No # Deck: line: the deck is named after its game, format and the day, not refused.
    assert deck.name.startswith(f"{game_def.name} — {game_def.format(expected).name}, imported ")
    page = response.content.decode()
    assert html.escape(f"Read as {game_def.name} — {game_def.format(expected).name}") in page
    # Without its comment lines the list is of the same game (the format as its sections say).
    from decks.lists import list_recognise

    assert list_recognise(text=_bare(text)).game.slug == game


def test_the_hex_skirmish_list_the_site_exports_is_not_read_as_the_first_game(
    client, sample_catalogue, user
):
    text = "Units:\n1 Line Infantry @3,1\n1 Lancers @1,2\nCards:\n2 March\n"
    client.force_login(user)
    response = client.post("/decks/import/", {"list": text, "visibility": "private"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Deck.objects.get(owner=user).game.slug == "hex-skirmish"


def test_a_list_that_fits_two_games_alike_asks_for_the_game_naming_both(
    client, sample_catalogue, user
):
    client.force_login(user)
    response = client.post(
        "/decks/import/", {"list": "Units:\n1 No Such Card\n", "visibility": "private"}
    )
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and not Deck.objects.filter(owner=user).exists()
    assert "choose the game and format" in page
    assert "fit Red Mittens and Hex Skirmish alike" in page
    response = client.post(
        "/decks/import/", {"list": "Sideboard:\n1 No Such Card\n", "visibility": "private"}
    )
    assert "are of no game the site knows" in html.unescape(response.content.decode())


def test_a_game_line_without_a_format_line_reads_the_format_from_the_sections(
    client, sample_catalogue, user
):
    from validation.packages import sample_list

    text = "# Game: REDLINE\n" + sample_list("redline", "scenario").text()
    client.force_login(user)
    response = client.post("/decks/import/", {"list": text, "visibility": "private"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Deck.objects.get(owner=user).format == "scenario"


def test_recognising_a_list_costs_one_query(sample_catalogue, django_assert_num_queries):
    from decks.lists import list_recognise
    from validation.packages import sample_list

    text = sample_list("red-mittens", "core").text()
    with django_assert_num_queries(1):
        found = list_recognise(text=text)
    assert found.game.slug == "red-mittens"


def test_a_near_miss_name_with_one_close_match_is_offered_as_a_fix_on_the_import_form(
    client, sample_catalogue, user
):
    client.force_login(user)
    text = (
        "# Game: REDLINE (redline)\n# Format: Standard (standard)\n"
        "General:\n1 General\nArsenal:\n4 Tigercatt\n4 Qqqqqq Zzzzz\n"
    )
    response = client.post("/decks/import/", {"list": text, "visibility": "private"})
    assert response.status_code == 400
    page = response.content.decode()
    # "General" is the beginning of several generals' names and "Qqqqqq Zzzzz" close to
    # none: only the name with exactly one close match has a fix.
    assert "unknown card &#x27;General&#x27;; did you mean" in page
    fixes = re.findall(r'<button type="button" class="fix"([^>]*)>', page)
    assert len(fixes) == 1
    assert 'data-line="6"' in fixes[0] and 'data-name="Tigercatt"' in fixes[0]
    assert 'data-card="Tigercat"' in fixes[0] and 'data-form="deck-form"' in fixes[0]
    assert "Replace “Tigercatt” on line 6 with:" in page
    assert 'id="deck-form"' in page and "js/check.js" in page


def test_a_list_read_from_a_file_and_refused_is_shown_in_the_paste_box(
    client, sample_catalogue, user
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(user)
    text = "# Game: REDLINE (redline)\n# Format: Standard (standard)\nArsenal:\n4 Tigercatt\n"
    upload = SimpleUploadedFile("list.txt", text.encode(), content_type="text/plain")
    response = client.post("/decks/import/", {"file": upload, "list": "", "visibility": "private"})
    assert response.status_code == 400
    area = re.search(
        r'<textarea name="list"[^>]*>(.*?)</textarea>', response.content.decode(), re.S
    )
    assert html.unescape(area.group(1)).strip() == text.strip()
