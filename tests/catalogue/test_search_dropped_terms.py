"""A search says which terms it left out and where each starts in the query, so that a caller
that must use every term (the tuner) can refuse the query, naming them."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from catalogue.search import Dropped, search_cards

pytestmark = pytest.mark.django_db


def test_every_term_left_out_is_listed_with_the_character_it_starts_at(sample_catalogue):
    query = 'kind:efreet colour:blue (speed>=x or "a") >6 in'
    result = search_cards(query=query, queryset=Card.objects.all(), game_slug="redline")
    assert [(d.position, d.text) for d in result.dropped] == [
        (13, "colour:blue"),
        (26, "speed>=x"),
        (38, '"a"'),
        (43, ">6"),
        (46, "in"),
    ]
    for d in result.dropped:
        assert query[d.position - 1 :].startswith(d.text)
    assert result.dropped[0].why.startswith("unknown key 'colour'")
    assert (
        str(result.dropped[1])
        == "'speed>=x' (at character 26): speed>=x: expected a number for speed"
    )
    # The terms read still filter: only efreets.
    assert set(result.queryset.values_list("kind", flat=True)) == {"efreet"}


def test_a_query_read_whole_drops_nothing(sample_catalogue):
    result = search_cards(
        query="kind:efreet speed>=6 -faction:cpm", queryset=Card.objects.all(), game_slug="redline"
    )
    assert result.dropped == [] and result.problems == []
    assert Dropped(1, "x", "why").position == 1
