"""The search of published decklists by cards, through the API and the /decklists/ page:
every combination of none, one and two cards included with none, one and two excluded,
against sixteen hand-built REDLINE decklists, one for each way of holding or not holding
four cards (two to include, two to exclude)."""

from __future__ import annotations

import itertools
import re
from urllib.parse import urlencode

import pytest

from decklists.services import decklist_publish
from decks.services import deck_create
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

#: Each card searched for, and the line of the sample list it takes the place of.
SWAPS = {
    "Kestrel": ("3 Claymore", "3 Kestrel"),
    "Forced March": ("3 Close Call", "3 Forced March"),
    "Jackal": ("1 Valkyrie", "1 Jackal"),
    "Rail Cannon": ("2 Ablative Plating", "2 Rail Cannon"),
}
INCLUDE = ["Kestrel", "Forced March"]
EXCLUDE = ["Jackal", "Rail Cannon"]


@pytest.fixture
def decklists(sample_catalogue, user):
    """name -> the set of the four cards it holds; every one published."""
    base = sample_list("redline", "standard")
    held: dict[str, frozenset[str]] = {}
    for bits in itertools.product((False, True), repeat=len(SWAPS)):
        cards = frozenset(card for card, on in zip(SWAPS, bits, strict=True) if on)
        text = base
        for card in cards:
            old, new = SWAPS[card]
            assert f"\n{old}\n" in text
            text = text.replace(f"\n{old}\n", f"\n{new}\n")
        name = "List " + "".join("1" if on else "0" for on in bits)
        deck = deck_create(owner=user, game_slug="redline", format="standard", name=name, text=text)
        assert deck.legal, (name, deck.report["errors"])
        decklist_publish(deck=deck, author=user, name=name, description="")
        held[name] = cards
    return held


def combinations():
    for n_in, n_out in itertools.product(range(3), range(3)):
        yield INCLUDE[:n_in], EXCLUDE[:n_out]


def expected(held, included, excluded) -> set[str]:
    return {
        name
        for name, cards in held.items()
        if all(c in cards for c in included) and not any(c in cards for c in excluded)
    }


def test_the_api_search_by_cards_included_and_excluded(client, decklists):
    for included, excluded in combinations():
        query = [("game", "redline")]
        query += [("card", c) for c in included] + [("exclude_card", c) for c in excluded]
        response = client.get(f"/api/decklists/?{urlencode(query)}&page_size=50")
        assert response.status_code == 200, response.content
        body = response.json()
        found = {d["name"] for d in body["results"]}
        want = expected(decklists, included, excluded)
        assert found == want, (included, excluded)
        assert body["count"] == len(want), (included, excluded)


def test_the_page_search_by_cards_included_and_excluded(client, decklists):
    for included, excluded in combinations():
        query = {"game": "redline", "cards": "\n".join(included)}
        query["excluded"] = "\n".join(excluded)
        response = client.get(f"/decklists/?{urlencode(query)}")
        assert response.status_code == 200, response.content
        html = response.content.decode()
        found = set(
            re.findall(r'<tr class="decklist-row"[^>]*><td[^>]*><a [^>]*>([^<]+)</a>', html)
        )
        assert found == expected(decklists, included, excluded), (included, excluded)
