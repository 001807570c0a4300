"""Collections across decks on the pages (issue 36): the collection page's checklist per
expansion and its CSV upload (with a dry run, and a file that is not text refused), the
built toggle and the per-card figures of the deck page, the builder's figures and its "only
what is free" filter, the card page's "your decks using it" and public counts."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue.models import Card, Expansion, Printing
from collection.models import CollectionEntry, OwnedProduct
from decks import services
from decks.models import Deck
from tests.decks.conftest import sample_list

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _deck(owner, name="Deck", built=False, visibility="private"):
    deck = services.deck_create(
        owner=owner,
        game_slug="redline",
        format="standard",
        name=name,
        visibility=visibility,
        text=sample_list("redline", "standard"),
    )
    if built:
        services.deck_set_built(deck=deck, built=True)
    return deck


def _own(owner, code="RL1", count=1):
    OwnedProduct.objects.create(
        owner=owner, expansion=Expansion.objects.get(code=code), count=count
    )


def test_the_collection_page_shows_each_expansions_completion(signed_in, sample_catalogue, user):
    rl1 = Expansion.objects.get(code="RL1")
    printed = rl1.printings.values("card").distinct().count()
    CollectionEntry.objects.create(owner=user, card=Card.objects.get(name="Tigercat"), count=2)
    page = signed_in.get(reverse("decks:collection")).content.decode()
    assert f"1 of {printed}" in page
    assert f"{printed - 1} missing" in page
    _own(user)
    page = signed_in.get(reverse("decks:collection")).content.decode()
    assert (
        f"{printed} of {printed} (100 %)" in page
        and "1 × REDLINE: Tactical Card Combat RL1" in page
    )


def test_a_csv_file_uploaded_on_the_page_is_checked_then_imported(signed_in, sample_catalogue):
    data = b"Count,Name,Edition,Card Number\n2,,RL1,\n3,Tigercat,RL1,4\n"
    upload = lambda: SimpleUploadedFile("mine.csv", data, content_type="text/csv")  # noqa: E731
    url = reverse("decks:collection")
    response = signed_in.post(url, {"game": "redline", "file": upload(), "dry_run": "on"})
    assert response.status_code == 200
    assert "The file holds 3 cards (1 different) and 2 products; nothing was imported." in (
        response.content.decode()
    )
    assert not OwnedProduct.objects.exists()
    response = signed_in.post(url, {"game": "redline", "file": upload()})
    assert response.status_code == 302
    assert dict(OwnedProduct.objects.values_list("expansion__code", "count")) == {"RL1": 2}


def test_a_file_that_is_not_text_is_refused_on_the_page(signed_in, sample_catalogue):
    upload = SimpleUploadedFile(
        "cards.csv", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", content_type="image/png"
    )
    response = signed_in.post(reverse("decks:collection"), {"game": "redline", "file": upload})
    assert response.status_code == 400  # a refused form, as the other list forms answer
    assert "the file is not text" in response.content.decode()
    assert not CollectionEntry.objects.exists()


def test_bad_csv_lines_are_named_on_the_page(signed_in, sample_catalogue):
    upload = SimpleUploadedFile("c.csv", b"Count,Name\n2,Tigercat\n-3,Rabbit\n1,Rabit\n")
    response = signed_in.post(reverse("decks:collection"), {"game": "redline", "file": upload})
    page = response.content.decode()
    assert response.status_code == 400 or "Line 3" in page
    assert "Line 3" in page and "Line 4" in page
    assert not CollectionEntry.objects.exists()


def test_the_deck_page_toggles_built_and_says_which_cards_are_short_and_where(
    signed_in, sample_catalogue, user
):
    _own(user)  # one copy of every RL1 card
    other = _deck(user, name="Deck A")
    deck = _deck(user, name="Deck B")
    response = signed_in.post(reverse("decks:built", args=[other.pk]), {"built": "1"})
    assert response.status_code == 302 and Deck.objects.get(pk=other.pk).built
    page = signed_in.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    assert 'id="short"' in page
    assert "Tigercat</strong> short: own 1, in" in page and "Deck A</a> (4)" in page
    assert "owned 1 · in your built decks 4 (Deck A) · free 0" in page
    signed_in.post(reverse("decks:built", args=[other.pk]), {"built": "0"})
    page = signed_in.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    assert "(Deck A)" not in page and "owned 1 · in your built decks 0 · free 1" in page


def test_another_users_deck_cannot_be_marked_built_from_the_page(
    client, sample_catalogue, user, other_user
):
    deck = _deck(user)
    client.force_login(other_user)
    assert client.post(reverse("decks:built", args=[deck.pk]), {"built": "1"}).status_code == 404
    assert not Deck.objects.get(pk=deck.pk).built


def test_the_builder_shows_figures_and_keeps_only_what_is_free(signed_in, sample_catalogue, user):
    CollectionEntry.objects.create(owner=user, card=Card.objects.get(name="Tigercat"), count=4)
    CollectionEntry.objects.create(owner=user, card=Card.objects.get(name="Rabbit"), count=6)
    _deck(user, name="In a box", built=True)  # holds 4 Tigercat and 4 Rabbit
    deck = _deck(user, name="Next")
    url = reverse("builder:search", args=[deck.pk])
    page = signed_in.get(url, {"q": "Rabbit"}, **HTMX).content.decode()
    assert "owned 6 · in your built decks 4 (In a box) · free 2" in page
    free = signed_in.get(url, {"q": "kind:efreet", "free": "1"}, **HTMX).content.decode()
    assert 'data-card="Rabbit"' in free and 'data-card="Tigercat"' not in free
    assert "owned 6 · in your built decks 4 (In a box) · free 2" in free
    box = signed_in.get(reverse("builder:availability", args=[deck.pk])).content.decode()
    assert "Tigercat</strong> short" in box


def test_only_what_is_free_counts_products_reprints_and_loose_copies(
    signed_in, sample_catalogue, user
):
    _own(user, "RL1", 2)
    tigercat = Card.objects.get(name="Tigercat")
    reprints = Expansion.objects.create(game_id=tigercat.game_id, code="RL2", name="Reprints")
    Printing.objects.create(card=tigercat, expansion=reprints, number="1")
    _own(user, "RL2", 1)
    CollectionEntry.objects.create(owner=user, card=tigercat, count=2)  # 2 + 1 + 2 = 5
    _deck(user, name="In a box", built=True)  # holds 4 Tigercat and 4 Rabbit (2 owned)
    deck = _deck(user, name="Next")
    url = reverse("builder:search", args=[deck.pk])
    every = signed_in.get(url, {"q": "kind:efreet"}, **HTMX).content.decode()
    free = signed_in.get(url, {"q": "kind:efreet", "free": "1"}, **HTMX).content.decode()
    figures = "owned 5 · in your built decks 4 (In a box) · free 1"
    assert figures in every and figures in free
    assert 'data-card="Rabbit"' in every and 'data-card="Rabbit"' not in free
    assert "owned 2 · in your built decks 4 (In a box) · free 0" in every
    # Unbuilt, the box's cards are free in the very next answers.
    box = Deck.objects.get(name="In a box")
    signed_in.patch(f"/api/decks/{box.pk}/", {"built": False}, content_type="application/json")
    free = signed_in.get(url, {"q": "kind:efreet", "free": "1"}, **HTMX).content.decode()
    assert "owned 2 · in your built decks 0 · free 2" in free
    assert "owned 5 · in your built decks 0 · free 5" in free
    card = signed_in.get(reverse("catalogue:card", args=["redline", tigercat.pk])).content.decode()
    assert "owned 5 · in your built decks 0 · free 5" in card


def test_the_builders_search_costs_the_same_queries_for_one_built_deck_or_twenty(
    signed_in, sample_catalogue, user
):
    _own(user)
    deck = _deck(user, name="Next")
    _deck(user, name="built", built=True)
    url = reverse("builder:search", args=[deck.pk])

    def count(params):
        with CaptureQueriesContext(connection) as ctx:
            assert signed_in.get(url, params, **HTMX).status_code == 200
        return len(ctx)

    few = (count({"q": "kind:efreet"}), count({"q": "kind:efreet", "free": "1"}))
    # session, user, the deck, the owned copies, the other built decks, the page of cards
    # (the page's cards' figures read after it; every card's before it with "free")
    assert few == (6, 6), few
    for i in range(19):
        _deck(user, name=f"built {i}", built=True)
    Printing.objects.create(
        card=Card.objects.get(name="Tigercat"),
        expansion=Expansion.objects.create(game_id=deck.game_id, code="RL2", name="Reprints"),
    )
    _own(user, "RL2", 3)
    assert (count({"q": "kind:efreet"}), count({"q": "kind:efreet", "free": "1"})) == few


def test_the_card_page_shows_your_decks_using_it_and_the_public_count(
    client, sample_catalogue, user, other_user
):
    _deck(user, name="Mine", built=True)
    _deck(other_user, name="Theirs", visibility="public")
    card = Card.objects.get(name="Tigercat")
    url = reverse("catalogue:card", args=["redline", card.pk])
    client.force_login(user)
    page = client.get(url).content.decode()
    assert "Mine</a> · 4 copies · built" in page
    assert "In 1 public deck." in page
    assert "owned 0 · in your built decks 4 (Mine) · free 0" in page
    client.logout()
    page = client.get(url).content.decode()
    assert "In 1 public deck." in page and "Mine" not in page


def test_the_card_page_costs_the_same_queries_for_one_deck_using_it_or_twenty(
    signed_in, sample_catalogue, user
):
    card = Card.objects.get(name="Tigercat")
    url = reverse("catalogue:card", args=["redline", card.pk])
    _own(user)
    _deck(user, name="built", built=True)

    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert signed_in.get(url).status_code == 200
        return len(ctx)

    signed_in.get(url)  # the count of decklists holding the card, cached once read
    few = count()
    for i in range(19):
        _deck(user, name=f"deck {i}", built=i % 2 == 0)
    _deck(user, name="public", visibility="public")
    page = signed_in.get(url).content.decode()
    assert "In 1 public deck." in page and "deck 18</a> · 4 copies · built" in page
    # the card page's own (the card, its printings, its standing: rule sets, their entries
    # and expansions), session, user; your decks holding it with their copies, the public
    # ones; its figures (the owned copies; its built decks are among yours)
    assert count() == few == 5 + 2 + 2 + 1, few


def _collection_of(user):
    return (
        sorted(OwnedProduct.objects.filter(owner=user).values_list("expansion__code", "count")),
        sorted(CollectionEntry.objects.filter(owner=user).values_list("card__name", "count")),
    )


def test_the_exported_csv_of_several_games_imports_back_as_it_was(
    signed_in, sample_catalogue, user
):
    _own(user, "RL1", 2)
    _own(user, "HS1", 1)
    for name, game, n in (("Tigercat", "redline", 3), ("Barracuda", "red-code", 2)):
        CollectionEntry.objects.create(
            owner=user, card=Card.objects.get(game__slug=game, name=name), count=n
        )
    before = _collection_of(user)
    exported = signed_in.get("/api/collection/export/").content
    upload = SimpleUploadedFile("collection.csv", exported, content_type="text/csv")
    url = reverse("decks:collection")
    response = signed_in.post(url, {"game": "redline", "file": upload, "replace": "on"})
    assert response.status_code == 302, response.content.decode()
    assert _collection_of(user) == before
    assert signed_in.get("/api/collection/export/").content == exported
    page = signed_in.get(url).content.decode()
    assert "5 cards (2 different) and 3 products imported." in page


def test_the_exported_text_of_several_games_imports_back_with_the_same_copies(
    signed_in, sample_catalogue, user
):
    _own(user, "HS1", 1)
    CollectionEntry.objects.create(
        owner=user, card=Card.objects.get(game__slug="red-code", name="Barracuda"), count=2
    )
    CollectionEntry.objects.create(
        owner=user, card=Card.objects.get(game__slug="redline", name="Tigercat"), count=3
    )
    text = signed_in.get("/api/collection/export/text/").content
    upload = SimpleUploadedFile("collection.txt", text, content_type="text/plain")
    response = signed_in.post(
        reverse("decks:collection"), {"game": "redline", "file": upload, "replace": "on"}
    )
    assert response.status_code == 302, response.content.decode()
    # Text holds copies, not products: every copy is loose now, and as many as before.
    assert not OwnedProduct.objects.filter(owner=user).exists()
    assert signed_in.get("/api/collection/export/text/").content == text


def test_a_file_naming_a_game_that_is_not_one_is_refused_by_line(signed_in, sample_catalogue):
    data = b"Count,Name,Edition,Card Number,Game\n1,Tigercat,,,redline\n2,Barracuda,,,chess\n"
    upload = SimpleUploadedFile("c.csv", data, content_type="text/csv")
    response = signed_in.post(reverse("decks:collection"), {"game": "redline", "file": upload})
    assert response.status_code == 400
    assert "Line 3: no game &#x27;chess&#x27;" in response.content.decode()
    assert not CollectionEntry.objects.exists()
    text = "1 Tigercat\n# Game: Red Code (red-code)\n2 Barracuda\n# Game: chess\n1 Pawn\n"
    response = signed_in.post(reverse("decks:collection"), {"game": "redline", "list": text})
    assert "Line 4: no game &#x27;chess&#x27;" in response.content.decode()
    assert not CollectionEntry.objects.exists()


def test_an_import_of_products_only_says_so_without_zero_cards(signed_in, sample_catalogue):
    upload = SimpleUploadedFile("p.csv", b"Count,Name,Edition,Card Number\n2,,RL1,\n")
    url = reverse("decks:collection")
    assert signed_in.post(url, {"game": "redline", "file": upload}).status_code == 302
    page = signed_in.get(url).content.decode()
    assert "2 products imported." in page and "0 cards" not in page


def test_a_whole_product_is_owned_changed_and_removed_from_the_page(
    signed_in, sample_catalogue, user
):
    """The collection page's product form: a product owned twice, then three times, then
    removed (0), each answered with a redirect and a message; the checklist counts it."""
    rl1 = Expansion.objects.get(code="RL1")
    page = signed_in.get("/collection/").content.decode()
    assert 'id="product-form"' in page and f'value="{rl1.pk}"' in page
    response = signed_in.post("/collection/products/", {"expansion": rl1.pk, "count": 2})
    assert response.status_code == 302 and response["Location"] == "/collection/"
    assert OwnedProduct.objects.get(owner=user, expansion=rl1).count == 2
    page = signed_in.get("/collection/").content.decode()
    assert "You own 2 × REDLINE: Tactical Card Combat RL1." in page
    assert "2 × REDLINE: Tactical Card Combat RL1" in page
    signed_in.post("/collection/products/", {"expansion": rl1.pk, "count": 3})
    assert OwnedProduct.objects.get(owner=user, expansion=rl1).count == 3
    response = signed_in.post(
        "/collection/products/", {"expansion": rl1.pk, "count": 0}, follow=True
    )
    assert not OwnedProduct.objects.filter(owner=user).exists()
    assert "REDLINE: Tactical Card Combat RL1 is no longer in your products." in (
        response.content.decode()
    )


@pytest.mark.parametrize(
    ("data", "field"),
    [({"count": 1}, "expansion"), ({"count": -1}, "count"), ({"count": 10_000}, "count")],
)
def test_a_product_form_that_cannot_be_saved_is_shown_again_with_its_error(
    signed_in, sample_catalogue, user, data, field
):
    rl1 = Expansion.objects.get(code="RL1")
    data = {"expansion": rl1.pk if field != "expansion" else 999_999, **data}
    response = signed_in.post("/collection/products/", data)
    assert response.status_code == 400
    errors = response.context["product_form"].errors
    assert field in errors, errors
    assert not OwnedProduct.objects.filter(owner=user).exists()


def test_the_product_form_needs_an_account_and_a_post(client, sample_catalogue):
    response = client.post("/collection/products/", {"expansion": 1, "count": 1})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
