"""The builder's first document stays small, so that a phone paints it soon (bench/pages.py
times it; this pins what makes it fast, in bytes and elements, without timing anything):
the style sheets inlined minified, the search results opening on their first rows (the rest
of their page follows in a request of its own, or behind a link without JavaScript), and the
deck's rows and deployment cells without repeated presentation."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from decks import services
from decks.builder.views import FIRST_RESULTS, SEARCH_LIMIT
from validation.packages import sample_lists
from validation.registry import registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: What a phone's first screen needs, up to the deck panel: the head with its inline style
#: sheets, the deck's name, the search form and its first results (34-36 KB for the sample
#: decks; before, with the sheets as written, 23 KB, and 40 results, 29-43 KB, well over 50).
BEFORE_THE_DECK_BYTES = 38_000
#: The whole first document (42-95 KB and 350-880 elements for the sample decks; 65-130 KB
#: and 670-1,280 elements before).
DOCUMENT_BYTES = 97_000
DOCUMENT_ELEMENTS = 900


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.count += 1


def _elements(html: str) -> int:
    parser = _Elements()
    parser.feed(html)
    return parser.count


def _sample_builders(client, user):
    """(game slug, the builder page of a deck of its sample list) for every game."""
    client.force_login(user)
    for game in registry.all():
        sample = sample_lists(game.slug)[0]
        deck = services.deck_create(
            owner=user,
            game_slug=game.slug,
            format=sample.format,
            name=f"Sample {game.slug}",
            text=sample.text(),
        )
        page = client.get(reverse("builder:deck", args=[deck.pk]))
        assert page.status_code == 200
        yield game.slug, deck, page.content.decode()


def test_every_games_builder_opens_on_a_small_document(client, user, sample_catalogue):
    sizes = {}
    for slug, _deck, html in _sample_builders(client, user):
        before_deck = html[: html.index('id="builder-state"')]
        sizes[slug] = (len(html.encode()), len(before_deck.encode()), _elements(html))
        assert len(before_deck.encode()) < BEFORE_THE_DECK_BYTES, (slug, sizes[slug])
        assert len(html.encode()) < DOCUMENT_BYTES, (slug, sizes[slug])
        assert _elements(html) < DOCUMENT_ELEMENTS, (slug, sizes[slug])
    assert len(sizes) == len(registry.all())


def test_the_inline_style_sheets_come_minified(client, user, sample_catalogue):
    slug, _deck, html = next(_sample_builders(client, user))
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert ".b-row" in style and "--accent2" in style  # the builder's sheet and the site's
    assert "/*" not in style and "\n" not in style and "; " not in style


def test_the_results_open_on_their_first_rows_and_the_rest_follow(client, user, sample_catalogue):
    for slug, deck, html in _sample_builders(client, user):
        rows = re.findall(r'<tr class="b-result" data-card="([^"]+)"', html)
        assert len(rows) == FIRST_RESULTS, slug
        assert "Cards 1–40" in html, slug  # the pager says what the page will hold
        rest = re.search(
            r'<tbody id="results-rest" class="b-rest" hx-get="([^"]+)"[^>]*'
            r'hx-vals=\'{"after": "(\d+)"}\' hx-trigger="load"[^>]*>',
            html,
        )
        search = reverse("builder:search", args=[deck.pk])
        assert rest and rest.group(1) == search and rest.group(2) == str(FIRST_RESULTS), slug
        # without JavaScript, a link to the builder's whole page with every row of the first
        # page of results (never the bare results fragment)
        page = reverse("builder:deck", args=[deck.pk])
        assert f'<a href="{page}?rows=all">More cards</a>' in html[rest.end() :], slug
        opened = client.get(page, {"rows": "all"}).content.decode()
        assert opened.lstrip().lower().startswith("<!doctype html>"), slug
        assert 'id="results-rest"' not in opened, slug
        # the rest: the first page's rows after those, as rows of the same table
        whole = client.get(search, **HTMX).content.decode()
        full = re.findall(r'<tr class="b-result" data-card="([^"]+)"', whole)
        assert full[:FIRST_RESULTS] == rows and len(full) == SEARCH_LIMIT, slug
        assert re.findall(r'<tr class="b-result" data-card="([^"]+)"', opened) == full, slug
        answer = client.get(search, {"after": str(FIRST_RESULTS)}, **HTMX).content.decode()
        assert answer.rstrip().endswith("</tbody>") and "b-pager" not in answer, slug
        after = re.findall(r'<tr class="b-result" data-card="([^"]+)"', answer)
        assert after == full[FIRST_RESULTS:], slug


def test_a_later_page_of_results_opens_whole(client, user, sample_catalogue):
    slug, deck, _html = next(_sample_builders(client, user))
    html = client.get(reverse("builder:deck", args=[deck.pk]), {"page": "2"}).content.decode()
    assert 'id="results-rest"' not in html and "Cards 41–" in html


def test_the_deployment_cells_carry_no_presentation(client, user, sample_catalogue):
    maps = 0
    for _slug, _deck, html in _sample_builders(client, user):
        for svg in re.findall(r'<svg class="placement-map.*?</svg>', html, re.S):
            maps += 1
            assert "<text" in svg
            assert not re.search(r"text-anchor=|dominant-baseline=|font-size=|fill=", svg)
    assert maps
