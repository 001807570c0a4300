"""The legality bar and verdict show the limit that matters (points, for formats with a
points limit, read from the format's options as the deck sets them), and the rows a rule
problem names are marked in the builder and on the deck page with a text saying so."""

from __future__ import annotations

import re

import pytest

from catalogue.models import Card
from decks import services
from tests.decks.conftest import sample_list
from validation.registry import registry
from validation.rules import PointsLimit

pytestmark = pytest.mark.django_db


def _points(deck, sections):
    costs = dict(Card.objects.filter(game=deck.game).values_list("name", "cost"))
    return sum(
        costs[e["card"]] * e["count"]
        for e in deck.current_version.entries
        if e["section"] in sections
    )


@pytest.mark.parametrize(
    ("game", "fmt", "options"),
    [
        ("tactical-assault", "standard", {}),
        ("tactical-assault", "custom", {"points": 50}),
        ("hex-skirmish", "standard", {}),
    ],
)
def test_a_points_format_shows_points_against_its_limit(
    client, sample_catalogue, user, game, fmt, options
):
    deck = services.deck_create(
        owner=user,
        game_slug=game,
        format=fmt,
        name="P",
        text=sample_list(game, fmt),
        options=options,
    )
    fmt_def = registry.get(game).format(fmt)
    rule = next(r for r in fmt_def.rules if isinstance(r, PointsLimit))
    limit = options.get("points", fmt_def.options["points"])
    expected = f"{_points(deck, rule.sections)}/{limit} points"
    client.force_login(user)
    builder = client.get(f"/decks/{deck.pk}/build/").content.decode()
    bar = re.search(r'<div class="b-sticky" id="legality-bar".*?</div>', builder, re.S).group(0)
    assert expected in bar
    assert "Force <b>" not in bar and "Units <b>" not in bar  # not a unit count
    assert expected in re.search(r'<div id="verdict">.*?</div>', builder, re.S).group(0)
    assert expected in client.get(f"/decks/{deck.pk}/").content.decode()


def test_a_format_without_points_shows_its_section_counts(client, sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="R",
        text=sample_list("redline", "standard"),
    )
    client.force_login(user)
    builder = client.get(f"/decks/{deck.pk}/build/").content.decode()
    bar = re.search(r'<div class="b-sticky" id="legality-bar".*?</div>', builder, re.S).group(0)
    assert " points" not in bar and "Arsenal <b>60/60</b>" in bar


def test_the_rows_a_problem_names_are_marked(client, sample_catalogue, user):
    text = sample_list("redline", "standard")
    text += "\nArsenal:\n5 Tigercat\n"  # more copies than allowed
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Too many", text=text
    )
    assert not deck.legal
    named = {c for v in deck.report["errors"] for c in v.get("cards", [])}
    assert "Tigercat" in named
    client.force_login(user)
    builder = client.get(f"/decks/{deck.pk}/build/").content.decode()
    row = re.search(r'<tr class="b-row involved" data-card="Tigercat".*?</tr>', builder, re.S)
    assert row and "breaks a rule" in row.group(0)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    row = re.search(r'<tr class="deck-row offending" data-card="Tigercat".*?</tr>', page, re.S)
    assert row and "breaks a rule" in row.group(0)
    clean = re.search(r'<tr class="deck-row" data-card="[^"]+"', page)
    assert clean  # the other rows are not marked
