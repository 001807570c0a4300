"""The permission matrix: anonymous, owner, other user and staff × private, unlisted and
public, for every deck and version endpoint and page (the collection's are in
test_collection_permissions.py). Exact status codes; a deck out of reach is a 404 (never a
403 that would confirm it exists). The decks are made once for the module; each test's
changes are rolled back."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import Deck, DeckVersion
from tests.database import shared_data

from .conftest import MINI_LIST, MINI_LIST_2, import_mini_catalogue, make_accounts

ACTORS = ["anonymous", "owner", "other", "staff"]
VISIBILITIES = ["private", "unlisted", "public"]


def can_read(actor: str, visibility: str) -> bool:
    return actor in {"owner", "staff"} or visibility == "public"


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker, request):
    """Made once for the module's tests, each of which runs in a savepoint of the module's
    transaction (tests/database.py): the four-card catalogue, alice, bob and a staff member,
    and alice's deck in each visibility, each with versions 1 and 2. The primary keys."""
    from decks.services import deck_create, deck_save_version

    with shared_data(request, django_db_blocker):
        import_mini_catalogue()
        users = make_accounts()
        decks = {}
        for vis in VISIBILITIES:
            deck = deck_create(
                owner=users["owner"],
                game_slug="redline",
                format="standard",
                name=f"{vis} deck",
                visibility=vis,
                text=MINI_LIST,
            )
            deck_save_version(deck=deck, author=users["owner"], text=MINI_LIST_2, based_on=1)
            decks[vis] = deck.pk
        yield {"decks": decks, "users": {role: u.pk for role, u in users.items()}}


@pytest.fixture
def world(_world, db, django_user_model):
    """alice's deck in each visibility, each with versions 1 and 2 (read afresh for each
    test)."""
    by_pk = Deck.objects.in_bulk(_world["decks"].values())
    accounts = django_user_model.objects.in_bulk(_world["users"].values())
    return {
        "decks": {vis: by_pk[pk] for vis, pk in _world["decks"].items()},
        "users": {role: accounts[pk] for role, pk in _world["users"].items()},
    }


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
