"""Search keys match the labels people see, for every game, written from the schema: an
attribute's label is a key (`class:submarine` where a card shows "Class submarine"), a
kind's label is a kind (`kind:"Command card"`); the "Showing results for" banner appears
only when a word was corrected to the name it shows; the help lists the labels."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from catalogue.search import search_cards
from validation.registry import registry
from validation.schema import label_key

pytestmark = pytest.mark.django_db


def _value(value) -> str | None:
    """A value a term can be written with, from a card's attribute (None: not one)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.split()[0]
    if isinstance(value, list) and value and isinstance(value[0], str | int):
        return str(value[0]).split()[0]
    return None


def _labelled_terms():
    """(game, card, label term, key term) for every attribute of every kind of every game
    whose label is not its key, with a value of a sample card that has it."""
    for game in registry.all():
        keys = {a.key for schema in game.kinds.values() for a in schema.attrs}
        for kind, schema in game.kinds.items():
            for attr in schema.attrs:
                alias = label_key(attr.label)
                if alias in keys:
                    continue
                for card in Card.objects.filter(game__slug=game.slug, kind=kind).order_by("name"):
                    value = _value(card.attributes.get(attr.key))
                    if value is not None:
                        yield game, card, f'{alias}:"{value}"', f'{attr.key}:"{value}"'
                        break


def test_every_attributes_label_is_a_key_of_the_search(sample_catalogue):
    tried = 0
    for game, card, by_label, by_key in _labelled_terms():
        cards = Card.objects.filter(game__slug=game.slug)
        labelled = search_cards(query=by_label, queryset=cards, game_slug=game.slug)
        keyed = search_cards(query=by_key, queryset=cards, game_slug=game.slug)
        assert labelled.problems == [], (game.slug, by_label, labelled.problems)
        assert card in labelled.queryset, (game.slug, by_label)
        assert set(keyed.queryset) <= set(labelled.queryset), (game.slug, by_label)
        tried += 1
    assert tried >= 8  # every such attribute the sample data gives a value


def test_class_submarine_finds_the_ships_that_show_class_submarine(sample_catalogue):
    ships = Card.objects.filter(game__slug="red-code", kind="ship")
    result = search_cards(query="class:submarine", queryset=ships, game_slug="red-code")
    assert result.problems == [] and result.read_as == "ship_class:submarine"
    assert set(result.queryset) == {c for c in ships if c.attributes["ship_class"] == "submarine"}
    assert result.queryset.exists()


def test_every_kinds_label_is_a_kind_of_the_search(sample_catalogue):
    for game in registry.all():
        cards = Card.objects.filter(game__slug=game.slug)
        for kind, schema in game.kinds.items():
            for written in (f'kind:"{schema.label}"', f"kind:{label_key(schema.label)}"):
                result = search_cards(query=written, queryset=cards, game_slug=game.slug)
                assert result.problems == [], (game.slug, written, result.problems)
                assert set(result.queryset) == set(cards.filter(kind=kind)), (game.slug, written)


def test_an_unknown_key_suggests_a_label_or_a_key(sample_catalogue):
    result = search_cards(query="clas:heavy", queryset=Card.objects.all(), game_slug="redline")
    assert result.problems == [
        "unknown key 'clas' — did you mean class?",
        "no term of the search could be used, so no card is shown",
    ]
    assert result.corrected_query == "class:heavy"


@pytest.mark.parametrize(
    ("game", "query", "banner"),
    [
        ("redline", "tigrcat", "Tigercat"),
        ("hex-skirmish", "lancrs", "Lancers"),
        ("redline", "efreets", ""),  # found as "efreet" in rules texts
        ("tactical-assault", "armored", ""),  # found as "armor"
        ("red-code", "carriers", ""),
        ("red-mittens", "mittens", ""),
        ("red-mittens", "rally", ""),  # "Thieves' Alley": too far to be a typo of it
    ],
)
def test_the_showing_results_for_banner_is_only_for_a_corrected_word(
    client, sample_catalogue, game, query, banner
):
    page = client.get(f"/cards/{game}/", {"q": query}).content.decode()
    if banner:
        assert f"Showing results for <strong>{banner}</strong>" in page
    else:
        assert "Showing results for" not in page


def test_a_word_only_loosely_like_a_name_finds_no_card_and_offers_the_name_as_a_link(
    client, sample_catalogue
):
    # "rally" is like "Alley" in "Thieves' Alley" (the trigram search finds it), but two
    # letters off: not what was meant, so no card is shown in its place.
    page = client.get("/cards/red-mittens/", {"q": "rally"}).content.decode()
    assert "Showing results for" not in page
    assert "No card matches “rally”. Did you mean " in page
    assert 'href="?q=%22Thieves%27+Alley%22">Thieves&#x27; Alley</a>' in page
    assert "data-card=" not in page and "1 card<" not in page
    # The link finds the card.
    found = client.get("/cards/red-mittens/", {"q": '"Thieves\' Alley"'}).content.decode()
    assert "1 card<" in found and "No card matches" not in found


def test_the_search_help_lists_the_labels_as_keys(client):
    page = client.get("/cards/help/").content.decode()
    for game in registry.all():  # each game's keys once
        assert page.count(f'<h2 id="{game.slug}">') == 1
    assert page.count("<h1>") == 1 and len(page) < 50_000
    assert "<code>ship_class</code> (or <code>class</code>)" in page
    assert "<code>kind:command</code> (or <code>kind:command_card</code>)" in page
