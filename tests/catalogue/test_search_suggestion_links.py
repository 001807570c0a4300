"""A search whose every term was left out (`kind:efret`) shows no card, rather than every
card of the game, and its "did you mean efreet?" links to the search with the term
corrected (`kind:efreet`): on a game's card list and in the builder's search."""

from __future__ import annotations

import re
from html import unescape

import pytest

from catalogue.models import Card
from decks.services import deck_create

from ..decks.conftest import sample_list

pytestmark = pytest.mark.django_db


def _fix_link(html: str) -> tuple[str, str]:
    """The "did you mean" link of a page: its address and its words."""
    found = re.search(r'did you mean <a class="search-fix" href="([^"]+)">([^<]+)</a>\?', html)
    assert found is not None, "no link to the corrected search"
    return unescape(found.group(1)), found.group(2)


def test_the_card_list_shows_no_card_and_links_the_corrected_search(client, sample_catalogue):
    response = client.get("/cards/redline/", {"q": "kind:efret"})
    assert response.status_code == 200
    assert list(response.context["cards"]) == []
    html = response.content.decode()
    assert "0 cards" in html
    assert "no term of the search could be used, so no card is shown" in html
    href, word = _fix_link(html)
    assert (href, word) == ("?q=kind%3Aefreet", "efreet")
    fixed = client.get("/cards/redline/" + href + "&per=96")
    efreets = set(Card.objects.filter(game__slug="redline", kind="efreet").values_list("name"))
    assert {(c.name,) for c in fixed.context["cards"]} == efreets
    assert "did you mean" not in fixed.content.decode()


def test_a_term_corrected_keeps_the_rest_of_the_query(client, sample_catalogue):
    html = client.get("/cards/redline/", {"q": "-kind:efret cost<=2", "sort": "cost"}).content
    href, word = _fix_link(html.decode())
    assert (href, word) == ("?q=-kind%3Aefreet+cost%3C%3D2&sort=cost", "efreet")


def test_the_builders_search_shows_no_card_and_links_the_corrected_search(
    client, sample_catalogue, user
):
    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Arsenal",
        text=sample_list("redline", "standard"),
    )
    client.force_login(user)
    search = f"/decks/{deck.pk}/build/search/"
    answer = client.get(search, {"q": "kind:efret"}, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert "No cards match." in html
    href, word = _fix_link(html)
    assert (href, word) == (f"/decks/{deck.pk}/build/?q=kind%3Aefreet", "efreet")
    page = client.get(href).content.decode()
    assert 'value="kind:efreet"' in page
    assert "Tigercat" in page
