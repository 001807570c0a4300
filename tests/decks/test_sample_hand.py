"""The sample hand of the deck page: an opening hand dealt with each game's rules (REDLINE's
partial mulligan), the next card drawn, the same shuffle from the same link, for every game
whose deck is drawn, and nothing for the games that draw no hand."""

from __future__ import annotations

import re
from math import comb, sqrt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.decks.conftest import sample_list
from validation.games.redline.draws import partial_mulligan
from validation.registry import registry
from validation.sample_hand import deal
from validation.types import CardFacts, Entry

RESOURCE = CardFacts(name="Supply Drop", kind="resource", attributes={"provides": 1})
BIG = CardFacts(name="Depot", kind="resource", attributes={"provides": 2})
EFREET = CardFacts(name="Tigercat", kind="efreet", cost=3)


def _deck_with(resources: int, others: int):
    return {"arsenal": [Entry(RESOURCE, resources), Entry(EFREET, others)]}


def test_the_same_seed_deals_the_same_hand_and_a_draw_adds_the_next_card():
    rules = registry.get("redline").draws
    deck = _deck_with(24, 36)
    first = deal(deck, rules, seed=41)[0]
    again = deal(deck, rules, seed=41)[0]
    more = deal(deck, rules, seed=41, extra={"arsenal": 2})[0]
    assert first.opening == again.opening and len(first.opening) == 7
    assert more.opening == first.opening
    assert len(more.drawn) == 2 and more.library_left == first.library_left - 2
    assert len(first.opening) + first.library_left == 60


def test_redline_partial_mulligan_keeps_two_to_four_resources():
    library = [EFREET] * 10
    kept, lib, note = partial_mulligan([RESOURCE] * 3 + [EFREET] * 4, list(library), None)
    assert note == "" and len(kept) == 7
    # Too few resources: every non-resource card goes to the bottom, as many are drawn.
    hand = [RESOURCE] + [EFREET] * 6
    kept, lib, note = partial_mulligan(hand, [RESOURCE] * 10, None)
    assert len(kept) == 7 and sum(c.kind == "resource" for c in kept) == 7
    assert lib[-6:] == [EFREET] * 6
    assert note.startswith("Partial mulligan: 1 resource (fewer than 2); 6 cards")
    # Too many: the extra resources, lowest provides first, go to the bottom.
    hand = [BIG] * 2 + [RESOURCE] * 4 + [EFREET]
    kept, lib, note = partial_mulligan(hand, [EFREET] * 10, None)
    assert kept.count(BIG) == 2 and kept.count(RESOURCE) == 2 and len(kept) == 7
    assert lib[-2:] == [RESOURCE, RESOURCE]
    assert "6 resources (more than 4)" in note


def test_a_mulligan_happens_as_often_as_the_odds_say():
    """With 10 resources in 60 cards the partial mulligan is taken with the hypergeometric
    probability of fewer than 2 or more than 4 resources in 7: the sample hand applies the
    rule, it does not only describe it."""
    rules = registry.get("redline").draws
    deck = _deck_with(10, 50)
    noted = sum(bool(deal(deck, rules, seed=s)[0].mulligan_note) for s in range(1, 401))
    p = sum(comb(10, r) * comb(50, 7 - r) for r in (0, 1, 5, 6, 7)) / comb(60, 7)
    spread = 5 * sqrt(400 * p * (1 - p))
    assert abs(noted - 400 * p) < spread, (noted, 400 * p)


def _hand_ids(html: str, cls: str) -> list[str]:
    return re.findall(rf'class="hand-card {cls}">(?:<a [^>]*>)?([^<]+)<', html)


@pytest.mark.parametrize("game", [g.slug for g in registry.all()])
def test_every_drawn_game_deals_its_opening_hand_on_the_deck_page(
    game, sample_catalogue, user, client
):
    from decks.services import deck_create

    definition = registry.get(game)
    fmt = next(iter(definition.formats))
    for candidate in definition.formats:
        try:
            text = sample_list(game, candidate)
        except FileNotFoundError:
            continue
        fmt = candidate
        break
    deck = deck_create(
        owner=user, game_slug=game, format=fmt, name="Hand", text=text, visibility="public"
    )
    page = client.get(f"/decks/{deck.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    hand = client.get(f"/decks/{deck.pk}/hand/?v=1&seed=7")
    if not definition.draws:
        assert 'id="sample-hand-panel"' not in html
        assert hand.status_code == 404
        return
    assert 'id="sample-hand-panel"' in html
    assert hand.status_code == 200
    body = hand.content.decode()
    opening = _hand_ids(body, "opening")
    assert len(opening) == sum(r.opening for r in definition.draws)
    # The same link deals the same hand; drawing one more keeps it and adds a card.
    assert (
        _hand_ids(client.get(f"/decks/{deck.pk}/hand/?v=1&seed=7").content.decode(), "opening")
        == opening
    )
    first = definition.draws[0].section
    more = client.get(f"/decks/{deck.pk}/hand/?v=1&seed=7&{first}=1").content.decode()
    assert _hand_ids(more, "opening") == opening
    assert len(_hand_ids(more, "drawn")) == 1
    # Each card links to its card page.
    assert f'href="/cards/{game}/card/' in body


def test_the_hand_of_a_shared_deck_opens_signed_out_and_a_private_one_does_not(
    sample_catalogue, user, other_user, client
):
    from decks.services import deck_create

    unlisted = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="U",
        text=sample_list("redline", "standard"),
        visibility="unlisted",
    )
    private = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="P",
        text=sample_list("redline", "standard"),
    )
    shared = client.get(f"/decks/shared/{unlisted.share_token}/hand/?seed=5")
    assert shared.status_code == 200
    assert len(_hand_ids(shared.content.decode(), "opening")) == 7
    assert client.get(f"/decks/{unlisted.pk}/hand/").status_code == 404
    client.force_login(other_user)
    assert client.get(f"/decks/{private.pk}/hand/").status_code == 404
    client.force_login(user)
    assert client.get(f"/decks/{private.pk}/hand/").status_code == 200


@pytest.mark.parametrize(
    "query",
    ["seed=abc", "seed=-4", "seed=99999999999999999999", "arsenal=9" * 200, "arsenal=-3", "v=77"],
)
def test_hostile_hand_parameters_get_a_hand_or_a_404_never_a_500(
    query, sample_catalogue, user, client
):
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="H",
        text=sample_list("redline", "standard"),
        visibility="public",
    )
    response = client.get(f"/decks/{deck.pk}/hand/?{query}")
    assert response.status_code in (200, 404)
    if query == "v=77":
        assert response.status_code == 404


def test_dealing_a_hand_costs_a_fixed_number_of_queries(sample_catalogue, user, client):
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Q",
        text=sample_list("redline", "standard"),
        visibility="public",
    )
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/decks/{deck.pk}/hand/?seed=3&arsenal=4", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    # session-less anonymous read: the deck, its card facts, the card ids
    assert len(ctx.captured_queries) == 3, [q["sql"] for q in ctx.captured_queries]
