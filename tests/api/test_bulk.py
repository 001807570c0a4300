"""The bulk index and files: each file is built once and kept until the catalogue changes,
answers with ETag and Last-Modified, and a repeat with either is a 304."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue.models import Card, Expansion, Printing
from catalogue.services import catalogue_changed

pytestmark = pytest.mark.django_db


def test_the_index_lists_every_games_file(client, sample_catalogue):
    response = client.get("/api/bulk/")
    assert response.status_code == 200
    items = {item["game"]: item for item in response.json()["data"]}
    assert "redline" in items and "hex-skirmish" in items
    item = items["redline"]
    assert item["content_type"] == "application/json"
    assert item["url"].endswith("/api/games/redline/bulk/")
    download = client.get(item["url"])
    assert download.status_code == 200
    assert len(download.content) == item["size"]
    assert download["ETag"] == item["etag"]
    assert download.json()["cards"]
    # compressed on the way, the file's ETag is still the index's string
    gzipped = client.get(item["url"], HTTP_ACCEPT_ENCODING="gzip")
    assert gzipped["Content-Encoding"] == "gzip" and gzipped["ETag"] == item["etag"]
    assert client.get(item["url"], HTTP_IF_NONE_MATCH=item["etag"]).status_code == 304


def test_a_repeat_with_the_etag_or_the_date_is_a_304(client, sample_catalogue):
    first = client.get("/api/games/redline/bulk/")
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = client.get("/api/games/redline/bulk/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    again = client.get("/api/games/redline/bulk/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 304
    other = client.get("/api/games/redline/bulk/", HTTP_IF_NONE_MATCH='"something-else"')
    assert other.status_code == 200


def test_the_file_is_built_once_not_on_every_request(client, sample_catalogue):
    client.get("/api/games/redline/bulk/")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/games/redline/bulk/")
    assert response.status_code == 200
    assert not [q for q in queries.captured_queries if "catalogue_card" in q["sql"]]


def test_a_changed_catalogue_changes_the_file(
    client, sample_catalogue, django_capture_on_commit_callbacks
):
    """A change made by a service that writes the catalogue (an admin edit, an import)
    rebuilds the file: the writers say so themselves, no signal does."""
    first = client.get("/api/games/redline/bulk/")
    card = Card.objects.filter(game__slug="redline").order_by("name").first()
    card.text = "A new text for this card."
    card.save()
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_changed(game_slug="redline")
    second = client.get("/api/games/redline/bulk/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert "A new text for this card." in second.content.decode()
    # another game's file did not change: same ETag, still a 304
    hex_first = client.get("/api/games/hex-skirmish/bulk/")
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_changed(game_slug="redline")
    hex_again = client.get("/api/games/hex-skirmish/bulk/", HTTP_IF_NONE_MATCH=hex_first["ETag"])
    assert hex_again.status_code == 304


def test_a_printing_deleted_in_the_admin_changes_the_file(
    client, staff_user, sample_catalogue, django_capture_on_commit_callbacks
):
    first = client.get("/api/games/redline/bulk/")
    printing = Printing.objects.filter(card__game__slug="redline").order_by("pk").first()
    client.force_login(staff_user)
    url = reverse("admin:catalogue_printing_delete", args=[printing.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"post": "yes"}).status_code == 302
    assert not Printing.objects.filter(pk=printing.pk).exists()
    second = client.get("/api/games/redline/bulk/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]


def test_expansions_deleted_from_the_admin_list_change_the_file(
    client, staff_user, sample_catalogue, django_capture_on_commit_callbacks
):
    first = client.get("/api/games/hex-skirmish/bulk/")
    expansion = Expansion.objects.filter(game__slug="hex-skirmish").order_by("pk").first()
    client.force_login(staff_user)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("admin:catalogue_expansion_changelist"),
            {"action": "delete_selected", "_selected_action": [expansion.pk], "post": "yes"},
        )
    assert answer.status_code == 302 and not Expansion.objects.filter(pk=expansion.pk).exists()
    second = client.get("/api/games/hex-skirmish/bulk/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]


def test_an_unknown_game_has_no_file(client, db):
    assert client.get("/api/games/nope/bulk/").status_code == 404
