"""Deck pages: lists with pinned query counts, the deck page, editing with conflicts,
importing with line errors, the collection page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from collection.models import CollectionEntry
from decks import services
from decks.models import Deck, DeckVersion

from .conftest import MINI_LIST, MINI_LIST_2, sample_list

# Session + user, then one query for the decks (game joined). Independent of the number of
# decks: each row shows the cached verdict.
MY_DECKS_QUERIES = 3
# Games for the tabs, the page count, the page of decks (game and owner joined).
PUBLIC_QUERIES = 3


def _decks(make_deck, owner, n, visibility="private"):
    for i in range(n):
        make_deck(owner, visibility, name=f"Deck {i}")


@pytest.mark.parametrize("n", [1, 20])
def test_my_decks_page_query_count_is_constant(
    client, mini_catalogue, user, make_deck, django_assert_num_queries, n
):
    _decks(make_deck, user, n)
    client.force_login(user)
    with django_assert_num_queries(MY_DECKS_QUERIES):
        response = client.get(reverse("decks:mine"))
    assert response.status_code == 200
    assert response.content.decode().count('data-deck="') == n
    assert "not legal (" in response.content.decode()


@pytest.mark.parametrize("n", [1, 20])
def test_public_deck_list_query_count_is_constant(
    client, mini_catalogue, user, make_deck, django_assert_num_queries, n
):
    _decks(make_deck, user, n, "public")
    with django_assert_num_queries(PUBLIC_QUERIES):
        response = client.get(reverse("decks:public-game", args=["redline"]))
    assert response.status_code == 200
    assert response.content.decode().count("/decks/") >= n


def test_public_list_searches_by_name(client, mini_catalogue, user, make_deck):
    make_deck(user, "public", name="Blue Lightning")
    make_deck(user, "public", name="Red Storm")
    body = client.get(reverse("decks:public-game", args=["redline"]) + "?q=light").content.decode()
    assert "Blue Lightning" in body and "Red Storm" not in body
    assert client.get(reverse("decks:public-game", args=["nope"])).status_code == 404


def test_deck_page_shows_sections_verdict_versions_and_diff(client, sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="UNE line",
        visibility="unlisted",
        text=sample_list("redline", "standard"),
    )
    services.deck_save_version(
        deck=deck,
        author=user,
        text=sample_list("redline", "standard").replace("4 Tigercat", "5 Tigercat"),
        based_on=1,
    )
    client.force_login(user)
    body = client.get(deck.get_absolute_url()).content.decode()
    assert "Arsenal" in body and "Tigercat" in body
    assert "Not legal" in body and "arsenal.copies" in body
    assert 'id="versions"' in body and "version 2" in body
    assert deck.share_token in body  # unlisted: the owner sees the share link
    diff = client.get(reverse("decks:diff", args=[deck.pk]) + "?a=1&b=2", HTTP_HX_REQUEST="true")
    assert diff.status_code == 200
    assert "Tigercat: 4 → 5" in diff.content.decode()
    assert "<html" not in diff.content.decode()  # htmx gets the fragment
    old = client.get(reverse("decks:version", args=[deck.pk, 1])).content.decode()
    assert "Legal" in old and "You are looking at version 1" in old


def test_exports(client, mini_catalogue, user, make_deck):
    deck = make_deck(user, "public")
    text = client.get(reverse("decks:export", args=[deck.pk, "text"]))
    assert text["Content-Type"].startswith("text/plain")
    assert "4 Tigercat" in text.content.decode()
    data = client.get(reverse("decks:export", args=[deck.pk, "json"])).json()
    assert data["sections"]["arsenal"][0] == {"card": "Tigercat", "count": 4}
    assert data["game"] == "redline" and data["version"] == 1
    sheet = client.get(reverse("decks:export", args=[deck.pk, "print"])).content.decode()
    assert "@media print" in sheet and "Tigercat" in sheet
    assert client.get(reverse("decks:export", args=[deck.pk, "pdf"])).status_code == 404


def test_edit_form_saves_a_new_version(client, mini_catalogue, user, make_deck):
    deck = make_deck(user)
    client.force_login(user)
    form = client.get(reverse("decks:edit", args=[deck.pk])).content.decode()
    assert 'name="base_version" value="1"' in form
    response = client.post(
        reverse("decks:edit", args=[deck.pk]), {"list": MINI_LIST_2, "base_version": 1}
    )
    assert response.status_code == 302
    deck.refresh_from_db()
    assert deck.current_version.number == 2


def test_edit_from_a_stale_version_shows_the_conflict_and_saves_nothing(
    client, mini_catalogue, user, make_deck
):
    deck = make_deck(user)
    client.force_login(user)
    url = reverse("decks:edit", args=[deck.pk])
    assert client.post(url, {"list": MINI_LIST_2, "base_version": 1}).status_code == 302
    response = client.post(url, {"list": MINI_LIST, "base_version": 1})
    assert response.status_code == 409
    assert (
        "This deck was saved elsewhere since you opened it (version 2). "
        "Your changes were not saved: reload and merge."
    ) in response.content.decode()
    assert DeckVersion.objects.filter(deck=deck).count() == 2
    deck.refresh_from_db()
    assert "2 Rabbit" in deck.current_version.list_text


def test_edit_with_line_errors_shows_them_and_saves_nothing(
    client, mini_catalogue, user, make_deck
):
    deck = make_deck(user)
    client.force_login(user)
    response = client.post(
        reverse("decks:edit", args=[deck.pk]),
        {"list": "Arsenal:\n4 Tigercatt\n", "base_version": 1},
    )
    assert response.status_code == 400
    assert "unknown card" in response.content.decode() and "Tigercat" in response.content.decode()
    assert DeckVersion.objects.filter(deck=deck).count() == 1


def test_import_page_shows_line_errors_and_creates_nothing(client, mini_catalogue, user):
    client.force_login(user)
    response = client.post(
        reverse("decks:import"),
        {
            "game_format": "redline/standard",
            "name": "Bad",
            "visibility": "private",
            "list": "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercat\n3 Nonesuch\n",
        },
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "Line 5:" in body and "Nonesuch" in body
    assert not Deck.objects.exists()


def test_import_page_reads_a_file(client, mini_catalogue, user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(user)
    upload = SimpleUploadedFile("list.txt", MINI_LIST.encode(), content_type="text/plain")
    response = client.post(
        reverse("decks:import"),
        {
            "game_format": "redline/standard",
            "name": "From file",
            "visibility": "public",
            "file": upload,
        },
    )
    assert response.status_code == 302
    deck = Deck.objects.get()
    assert deck.name == "From file" and deck.current_version.number == 1


def test_new_deck_form_creates_an_empty_deck(client, mini_catalogue, user):
    client.force_login(user)
    assert client.get(reverse("decks:new")).status_code == 200
    response = client.post(
        reverse("decks:new"),
        {"game_format": "redline/scramble", "name": "Empty", "visibility": "unlisted"},
    )
    deck = Deck.objects.get()
    assert response["Location"] == deck.get_absolute_url()
    assert deck.format == "scramble" and deck.current_version is None
    assert "has no list yet" in client.get(deck.get_absolute_url()).content.decode()
    assert (
        client.post(
            reverse("decks:import"),
            {"game_format": "redline/standard", "name": "x", "visibility": "private"},
        ).status_code
        == 200
    )


def test_clone_button_copies_into_my_decks(client, mini_catalogue, user, other_user, make_deck):
    deck = make_deck(user, "public")
    client.force_login(other_user)
    response = client.post(reverse("decks:clone", args=[deck.pk]))
    clone = Deck.objects.get(owner=other_user)
    assert response["Location"] == clone.get_absolute_url()
    assert clone.current_version.list_text == deck.current_version.list_text


def test_collection_page_imports_and_lists(client, mini_catalogue, user, make_deck):
    client.force_login(user)
    url = reverse("decks:collection")
    bad = client.post(url, {"game": "redline", "list": "2 Tigercat\n1 Nope"})
    assert bad.status_code == 400 and "Line 2:" in bad.content.decode()
    assert not CollectionEntry.objects.exists()
    assert client.post(url, {"game": "redline", "list": "2 Tigercat"}).status_code == 302
    assert "Tigercat" in client.get(url).content.decode()
    deck = make_deck(user)
    body = client.get(deck.get_absolute_url()).content.decode()
    # The owner's own deck: its cards against the collection, the short ones named.
    assert 'id="short"' in body and "<strong>2 Tigercat</strong> short: own 2" in body


def test_profile_lists_my_decks(client, mini_catalogue, user, make_deck):
    make_deck(user, name="On my profile")
    client.force_login(user)
    assert "On my profile" in client.get(reverse("profile")).content.decode()


def test_check_page_still_works(client, sample_catalogue):
    response = client.post(
        reverse("decks:check"),
        {"game_format": "redline/standard", "list": sample_list("redline", "standard")},
    )
    assert response.status_code == 200 and "Legal" in response.content.decode()
    typo = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": "Arsenal:\n4 Tigercatt"}
    )
    assert "did you mean" in typo.content.decode()
