"""The permission matrix of the collection: anonymous, owner, other user and staff, for every
collection endpoint and page (the decks' are in test_permissions.py). Exact status codes;
another user's entry is a 404. The entry is made once for the module; each test's changes
are rolled back."""

from __future__ import annotations

import pytest
from django.urls import reverse

from collection.models import CollectionEntry
from tests.database import shared_data

from .conftest import import_mini_catalogue, make_accounts

ACTORS = ["anonymous", "owner", "other", "staff"]


@pytest.fixture(scope="module")
def _collection(django_db_setup, django_db_blocker, request):
    """Made once for the module's tests, each of which runs in a savepoint of the module's
    transaction (tests/database.py): the four-card catalogue, alice, bob and a staff member,
    and two Tigercats in alice's collection. The primary keys."""
    from catalogue.models import Card

    with shared_data(request, django_db_blocker):
        import_mini_catalogue()
        users = make_accounts()
        entry = CollectionEntry.objects.create(
            owner=users["owner"], card=Card.objects.get(name="Tigercat"), count=2
        )
        yield {"entry": entry.pk, "users": {role: u.pk for role, u in users.items()}}


@pytest.fixture
def owned_entry(_collection, db):
    return CollectionEntry.objects.get(pk=_collection["entry"])


@pytest.fixture
def accounts(_collection, db, django_user_model):
    """The owner, the other user and staff (read afresh for each test)."""
    by_pk = django_user_model.objects.in_bulk(_collection["users"].values())
    return {role: by_pk[pk] for role, pk in _collection["users"].items()}


COLLECTION_ENDPOINTS = [
    # (id, method, url(entry), body, owner status, others' status)
    ("api-list", "get", lambda e: "/api/collection/", None, 200, 200),
    ("api-retrieve", "get", lambda e: f"/api/collection/{e.pk}/", None, 200, 404),
    ("api-patch", "patch", lambda e: f"/api/collection/{e.pk}/", {"count": 3}, 200, 404),
    (
        "api-put",
        "put",
        lambda e: f"/api/collection/{e.pk}/",
        lambda e: {"card": e.card_id, "count": 3},
        200,
        404,
    ),
    ("api-delete", "delete", lambda e: f"/api/collection/{e.pk}/", None, 204, 404),
    (
        "api-create",
        "post",
        lambda e: "/api/collection/",
        lambda e: {"card": e.card_id, "count": 1},
        201,
        201,
    ),
    (
        "api-import",
        "post",
        lambda e: "/api/collection/import/",
        {"game": "redline", "list": "2 Rabbit"},
        200,
        200,
    ),
    ("page-collection", "get", lambda e: reverse("decks:collection"), None, 200, 200),
]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", COLLECTION_ENDPOINTS, ids=[e[0] for e in COLLECTION_ENDPOINTS])
def test_collection_endpoint_permissions(client, owned_entry, accounts, endpoint, actor):
    name, method, url, body, owner_status, others_status = endpoint
    users = accounts
    if actor != "anonymous":
        client.force_login(users[actor])
    if callable(body):
        body = body(owned_entry)
    kwargs = {"data": body, "content_type": "application/json"} if body is not None else {}
    response = getattr(client, method)(url(owned_entry), **kwargs)
    if actor == "anonymous":
        want = 302 if name.startswith("page") else 401
    else:
        want = owner_status if actor == "owner" else others_status
    assert response.status_code == want, (name, actor, response.content[:300])
    if actor not in {"owner", "anonymous"} and response.status_code == 200:
        # Another user's entries never appear in their listing.
        assert f"/api/collection/{owned_entry.pk}/" not in response.content.decode()
        if name == "api-list":
            assert owned_entry.pk not in {e["id"] for e in response.json()["cards"]}
        if name == "page-collection":
            assert "Tigercat" not in response.content.decode()
    if actor != "owner":
        owned_entry.refresh_from_db()
        assert owned_entry.count == 2
