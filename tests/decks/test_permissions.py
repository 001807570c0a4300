"""The permission matrix: anonymous, owner, other user and staff × private, unlisted and
public, for every deck, version and collection endpoint and page. Exact status codes; a
deck out of reach is a 404 (never a 403 that would confirm it exists)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import CollectionEntry, Deck, DeckVersion

from .conftest import MINI_LIST_2

ACTORS = ["anonymous", "owner", "other", "staff"]
VISIBILITIES = ["private", "unlisted", "public"]


def can_read(actor: str, visibility: str) -> bool:
    return actor in {"owner", "staff"} or visibility == "public"


@pytest.fixture
def world(mini_catalogue, user, other_user, staff_user, make_deck):
    """alice's deck in each visibility, each with versions 1 and 2."""
    decks = {}
    for vis in VISIBILITIES:
        deck = make_deck(user, vis, name=f"{vis} deck")
        from decks.services import deck_save_version

        deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=1)
        decks[vis] = deck
    return {"decks": decks, "users": {"owner": user, "other": other_user, "staff": staff_user}}


def client_for(client, world, actor):
    if actor != "anonymous":
        client.force_login(world["users"][actor])
    return client


# --- deck and version endpoints ------------------------------------------------------------
# (id, method, url(deck), body, kind, success status)
# kind: "read" — readable → success, else 404;
#       "api-write" — owner → success, anonymous 401 (WWW-Authenticate), everyone else 404;
#       "page-write" — owner → success, anonymous 302 to sign in, everyone else 404;
#       "page-clone" — signed in and readable → 302, anonymous 302 to sign in, else 404;
#       "shared" — unlisted and public 200 for everyone, private 404 for everyone.
ENDPOINTS = [
    ("api-retrieve", "get", lambda d: f"/api/decks/{d.pk}/", None, "read", 200),
    ("api-versions", "get", lambda d: f"/api/decks/{d.pk}/versions/", None, "read", 200),
    ("api-version", "get", lambda d: f"/api/decks/{d.pk}/versions/1/", None, "read", 200),
    (
        "api-export-text",
        "get",
        lambda d: f"/api/decks/{d.pk}/export/?format=text",
        None,
        "read",
        200,
    ),
    (
        "api-export-json",
        "get",
        lambda d: f"/api/decks/{d.pk}/export/?format=json",
        None,
        "read",
        200,
    ),
    ("api-patch", "patch", lambda d: f"/api/decks/{d.pk}/", {"name": "Renamed"}, "api-write", 200),
    ("api-delete", "delete", lambda d: f"/api/decks/{d.pk}/", None, "api-write", 204),
    (
        "api-post-version",
        "post",
        lambda d: f"/api/decks/{d.pk}/versions/",
        {"list": MINI_LIST_2, "based_on": 2},
        "api-write",
        201,
    ),
    ("api-shared", "get", lambda d: f"/api/decks/shared/{d.share_token}/", None, "shared", 200),
    ("page-detail", "get", lambda d: reverse("decks:detail", args=[d.pk]), None, "read", 200),
    ("page-version", "get", lambda d: reverse("decks:version", args=[d.pk, 1]), None, "read", 200),
    (
        "page-diff",
        "get",
        lambda d: reverse("decks:diff", args=[d.pk]) + "?a=1&b=2",
        None,
        "read",
        200,
    ),
    (
        "page-export-text",
        "get",
        lambda d: reverse("decks:export", args=[d.pk, "text"]),
        None,
        "read",
        200,
    ),
    (
        "page-export-json",
        "get",
        lambda d: reverse("decks:export", args=[d.pk, "json"]),
        None,
        "read",
        200,
    ),
    (
        "page-print",
        "get",
        lambda d: reverse("decks:export", args=[d.pk, "print"]),
        None,
        "read",
        200,
    ),
    ("page-clone", "post", lambda d: reverse("decks:clone", args=[d.pk]), {}, "page-clone", 302),
    ("page-edit", "get", lambda d: reverse("decks:edit", args=[d.pk]), None, "page-write", 200),
    (
        "page-edit-save",
        "post",
        lambda d: reverse("decks:edit", args=[d.pk]),
        {"list": MINI_LIST_2, "base_version": 2},
        "page-write",
        302,
    ),
    (
        "page-settings",
        "get",
        lambda d: reverse("decks:settings", args=[d.pk]),
        None,
        "page-write",
        200,
    ),
    (
        "page-settings-save",
        "post",
        lambda d: reverse("decks:settings", args=[d.pk]),
        {"name": "Renamed", "description": "", "visibility": "public"},
        "page-write",
        302,
    ),
    ("page-delete", "post", lambda d: reverse("decks:delete", args=[d.pk]), {}, "page-write", 302),
    (
        "page-shared",
        "get",
        lambda d: reverse("decks:shared", args=[d.share_token]),
        None,
        "shared",
        200,
    ),
    (
        "page-shared-export",
        "get",
        lambda d: reverse("decks:shared-export", args=[d.share_token, "text"]),
        None,
        "shared",
        200,
    ),
    (
        "page-shared-diff",
        "get",
        lambda d: reverse("decks:shared-diff", args=[d.share_token]) + "?a=1&b=2",
        None,
        "shared",
        200,
    ),
]


def expected(kind: str, actor: str, visibility: str, success: int) -> int:
    if kind == "read":
        return success if can_read(actor, visibility) else 404
    if kind == "shared":
        return success if visibility != "private" else 404
    if kind == "api-write":
        return {"owner": success, "anonymous": 401}.get(actor, 404)
    if kind == "page-write":
        return {"owner": success, "anonymous": 302}.get(actor, 404)
    if kind == "page-clone":
        if actor == "anonymous":
            return 302
        return success if can_read(actor, visibility) else 404
    raise AssertionError(kind)


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_deck_endpoint_permissions(client, world, endpoint, actor, visibility):
    name, method, url, body, kind, success = endpoint
    deck = world["decks"][visibility]
    versions_before = DeckVersion.objects.filter(deck=deck).count()
    c = client_for(client, world, actor)
    kwargs = {}
    if body is not None:
        if name.startswith("api"):
            kwargs = {"data": body, "content_type": "application/json"}
        else:
            kwargs = {"data": body}
    response = getattr(c, method)(url(deck), **kwargs)
    want = expected(kind, actor, visibility, success)
    assert response.status_code == want, (name, actor, visibility, response.content[:300])

    if want == 302 and actor == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if want == 404:
        # Nothing of the deck leaks in the refusal.
        assert deck.name.encode() not in response.content
    # A refused write changed nothing.
    if want in {403, 404} or actor == "anonymous":
        deck_now = Deck.objects.filter(pk=deck.pk).first()
        assert deck_now is not None
        assert deck_now.name == deck.name
        assert deck_now.visibility == deck.visibility
        assert DeckVersion.objects.filter(deck=deck).count() == versions_before
    if name == "page-clone" and want == 302 and actor != "anonymous":
        clone = Deck.objects.get(cloned_from=deck)
        assert clone.owner == world["users"][actor]


LISTS = [
    ("api-mine", lambda: "/api/decks/"),
    ("api-public", lambda: "/api/decks/?public=1"),
    ("api-game", lambda: "/api/decks/?game=redline"),
    ("page-mine", lambda: reverse("decks:mine")),
    ("page-public", lambda: reverse("decks:public")),
    ("page-public-game", lambda: reverse("decks:public-game", args=["redline"])),
]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("listing", LISTS, ids=[x[0] for x in LISTS])
def test_deck_lists_show_exactly_what_the_actor_may_see(client, world, listing, actor):
    name, url = listing
    c = client_for(client, world, actor)
    response = c.get(url())
    if name == "page-mine" and actor == "anonymous":
        assert response.status_code == 302
        return
    assert response.status_code == 200
    mine = name.endswith("mine")
    for vis, deck in world["decks"].items():
        should_show = (actor == "owner") if mine else vis == "public"
        if name.startswith("api"):
            shown = deck.pk in {d["id"] for d in response.json()["results"]}
        else:
            shown = deck.get_absolute_url().encode() in response.content
        assert shown == should_show, (name, actor, vis)


def test_share_link_is_only_shown_to_the_owner(client, world):
    deck = world["decks"]["unlisted"]
    client.force_login(world["users"]["owner"])
    assert deck.share_token in client.get(deck.get_absolute_url()).content.decode()
    assert (
        client.get(f"/api/decks/{deck.pk}/")
        .json()["share_url"]
        .endswith(f"/api/decks/shared/{deck.share_token}/")
    )
    client.force_login(world["users"]["staff"])
    assert deck.share_token not in client.get(deck.get_absolute_url()).content.decode()
    assert client.get(f"/api/decks/{deck.pk}/").json()["share_url"] is None


# --- collection -----------------------------------------------------------------------------


@pytest.fixture
def owned_entry(mini_catalogue, user):
    from catalogue.models import Card

    return CollectionEntry.objects.create(
        owner=user, card=Card.objects.get(name="Tigercat"), count=2
    )


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
def test_collection_endpoint_permissions(
    client, owned_entry, user, other_user, staff_user, endpoint, actor
):
    name, method, url, body, owner_status, others_status = endpoint
    users = {"owner": user, "other": other_user, "staff": staff_user}
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
            assert owned_entry.pk not in {e["id"] for e in response.json()["results"]}
        if name == "page-collection":
            assert "Tigercat" not in response.content.decode()
    if actor != "owner":
        owned_entry.refresh_from_db()
        assert owned_entry.count == 2
