"""The builder's quick add reads a list's lines as the list text format writes them: a count
before the name, a section header for the lines after it, a unit's cell, comments; without
JavaScript too. Every saved change tells the page (the `deck-saved` event) so that the
collection panel counts again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks import services
from decks.builder.views import DECK_SAVED_EVENT
from decks.models import DeckVersion

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _deck(user, game="redline", fmt="standard"):
    return services.deck_create(owner=user, game_slug=game, format=fmt, name="Deck")


def _entries(deck) -> dict[tuple, int]:
    v = DeckVersion.objects.filter(deck=deck).order_by("-number").first()
    return {
        (e["section"], e["card"], tuple(e.get("placement") or ()) or None): e["count"]
        for e in v.entries
    }


def _post(client, deck, name: str, *, into: str = "", htmx: bool = True):
    deck.refresh_from_db()
    v = deck.current_version
    data = {
        "name": name,
        "base": v.number if v else "",
        "rev": v.revision if v else 0,
        "into": into,
    }
    return client.post(reverse("builder:quick", args=[deck.pk]), data, **(HTMX if htmx else {}))


def test_counts_headers_and_comments(signed_in, sample_catalogue, user):
    deck = _deck(user, "redline", "scenario")
    r = _post(signed_in, deck, "# a list typed line by line")
    assert "A comment line: nothing to add." in r.content.decode()
    assert "b-error" not in r.content.decode()
    r = _post(signed_in, deck, "4 Tigercat")
    assert "Added 4 Tigercat to Arsenal." in r.content.decode()
    assert r["HX-Trigger"] == DECK_SAVED_EVENT
    _post(signed_in, deck, "2x rabbit")
    # A header names the section of the lines after it; the page sends it back each time.
    r = _post(signed_in, deck, "Red line:")
    html = r.content.decode()
    assert "The next cards go to Red line." in html
    assert 'id="quick-add-into" name="into" value="red_line"' in html
    assert "HX-Trigger" not in r
    r = _post(signed_in, deck, "1 Hardened Bunker (RL1)", into="red_line")
    assert "Added 1 Hardened Bunker to Red line." in r.content.decode()
    assert 'name="into" value="red_line"' in r.content.decode()
    # A card the named section does not take goes where it goes.
    r = _post(signed_in, deck, "Rabbit", into="red_line")
    assert "Added 1 Rabbit to Arsenal." in r.content.decode()
    assert _entries(deck) == {
        ("arsenal", "Tigercat", None): 4,
        ("arsenal", "Rabbit", None): 3,
        ("red_line", "Hardened Bunker", None): 1,
    }


def test_lines_not_read_say_why_and_change_nothing(signed_in, sample_catalogue, user):
    deck = _deck(user)
    _post(signed_in, deck, "Tigercat")
    for typed, said in [
        ("Sideboard:", "Not added: “Sideboard:”: unknown section &#x27;Sideboard&#x27;"),
        ("Red line:", "Standard decks have no section “Red line”: they have General, Arsenal"),
        ("0 Tigercat", "Not added: “0 Tigercat”: bad count 0; at least 1."),
        ("Tigercat @2,1", "Not added: “Tigercat @2,1”: Arsenal places no card on a cell."),
        ("Tigercat @x", "Not added: “Tigercat @x”: malformed placement &#x27;@x&#x27;"),
        ("", "Type a card name."),
    ]:
        r = _post(signed_in, deck, typed)
        assert said in r.content.decode(), typed
    assert _entries(deck) == {("arsenal", "Tigercat", None): 1}


def test_a_unit_placed_on_its_cell(signed_in, sample_catalogue, user):
    deck = _deck(user, "hex-skirmish", "standard")
    r = _post(signed_in, deck, "Units:")
    assert 'name="into" value="units"' in r.content.decode()
    r = _post(signed_in, deck, "1 Lancers @1,2", into="units")
    assert "Added 1 Lancers to Units." in r.content.decode()
    assert _entries(deck) == {("units", "Lancers", (1, 2)): 1}


def test_without_javascript_the_header_is_kept_through_the_redirect(
    signed_in, sample_catalogue, user
):
    deck = _deck(user)
    r = _post(signed_in, deck, "Missions:", htmx=False)
    page = reverse("builder:deck", args=[deck.pk])
    assert r.status_code == 302 and r["Location"] == f"{page}?into=missions"
    html = signed_in.get(r["Location"]).content.decode()
    assert (
        'name="into" value="missions"' in html and "Cards go to Mission deck when they can" in html
    )
    r = _post(signed_in, deck, "3 Hardened Bunker", into="missions", htmx=False)
    assert r["Location"] == f"{page}?into=missions"
    assert _entries(deck) == {("missions", "Hardened Bunker", None): 3}
