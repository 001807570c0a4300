"""Paging (page_size, capped; a page past the end a 404 problem) and the rate-limit headers
of the throttled routes."""

from __future__ import annotations

import base64

import pytest
from rest_framework.throttling import ScopedRateThrottle

from cardsite.paging import MAX_PAGE_SIZE

pytestmark = pytest.mark.django_db


def test_page_size_sets_the_page_and_is_capped(client, sample_catalogue):
    two = client.get("/api/cards/", {"game": "redline", "page_size": 2}).json()
    assert len(two["results"]) == 2 and "page_size=2" in two["next"]
    most = client.get("/api/cards/", {"page_size": MAX_PAGE_SIZE}).json()
    assert len(most["results"]) == min(most["count"], MAX_PAGE_SIZE)
    for bad in (MAX_PAGE_SIZE + 1, 0, "x"):
        refused = client.get("/api/cards/", {"page_size": bad})
        assert refused.status_code == 400
        assert refused.json()["errors"][0]["field"] == "page_size"
    expansions = client.get("/api/expansions/", {"page_size": 1}).json()
    assert len(expansions["results"]) == 1


def test_a_page_past_the_end_is_a_404_problem(client, sample_catalogue):
    response = client.get("/api/cards/", {"game": "redline", "page": "999"})
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["type"] == "urn:cardsite:problem:not-found"


@pytest.mark.parametrize("page", ["0", "x", "-1", str(2**63)])
def test_a_page_that_is_no_page_number_is_a_400_naming_it(client, sample_catalogue, page):
    response = client.get("/api/cards/", {"game": "redline", "page": page})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "page"
    assert error["message"] == "page must be a whole number from 1 to 9,223,372,036,854,775,807"


def test_the_schema_documents_page_and_page_size(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    params = {p["name"]: p for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert params["page_size"]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_PAGE_SIZE,
    }
    assert params["page"]["schema"]["minimum"] == 1


def post_validate(client):
    return client.post(
        "/api/validate/",
        {"game": "redline", "format": "nope", "list": "x"},
        content_type="application/json",
    )


def test_a_throttled_route_says_its_limit_what_is_left_and_when_it_resets(client, sample_catalogue):
    ScopedRateThrottle.THROTTLE_RATES = {**ScopedRateThrottle.THROTTLE_RATES, "validate": "3/min"}
    seen = []
    for _ in range(4):
        response = post_validate(client)
        seen.append(
            (
                response.status_code,
                response["RateLimit-Limit"],
                response["RateLimit-Remaining"],
            )
        )
        assert 0 < int(response["RateLimit-Reset"]) <= 60
    assert seen == [(400, "3", "2"), (400, "3", "1"), (400, "3", "0"), (429, "3", "0")]
    assert int(response["Retry-After"]) > 0


def test_the_bulk_download_sends_its_rate_limit_too(client, sample_catalogue):
    response = client.get("/api/games/redline/bulk/")
    assert response["RateLimit-Limit"] and response["RateLimit-Remaining"]


def test_an_unthrottled_route_sends_no_rate_limit_headers(client, sample_catalogue):
    assert "RateLimit-Limit" not in client.get("/api/games/")


def test_filters_refuse_what_they_cannot_read(client, sample_catalogue):
    assert client.get("/api/cards/", {"cost__lte": "0.5"}).status_code == 400
    assert client.get("/api/decks/", {"legal": "null"}).status_code == 400
    assert client.get("/api/decks/", {"public": "null"}).status_code == 400


def test_the_versions_list_advertises_no_filter_it_ignores(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    params = {p["name"] for p in schema["paths"]["/api/decks/{id}/versions/"]["get"]["parameters"]}
    assert not params & {"game", "fmt", "legal", "q"}


def _follow(client, params: dict) -> tuple[list[str], list[dict]]:
    """Every card of a list, page after page by the next links; the ids and the pages."""
    body = client.get("/api/cards/", params).json()
    ids, pages = [c["id"] for c in body["results"]], [body]
    while body["next"]:
        response = client.get(body["next"])
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        ids += [c["id"] for c in body["results"]]
        pages.append(body)
    return ids, pages


@pytest.mark.parametrize(
    "params",
    [
        {"game": "redline"},
        {},
        {"game": "redline", "q": "cost>=1"},
        {"game": "red-mittens", "q": "o:e"},
    ],
    ids=["game", "every-game", "filter", "text"],
)
def test_next_links_read_each_page_after_the_last_card_and_miss_none(
    client, sample_catalogue, params
):
    """A next link names the page after the last card shown (`after`), not only its number:
    following them gives every result once, in the order page numbers give."""
    size = {"page_size": 7}
    ids, pages = _follow(client, {**params, **size})
    by_number, number = [], 1
    while True:
        response = client.get("/api/cards/", {**params, **size, "page": number})
        if response.status_code == 404:
            break
        by_number += [c["id"] for c in response.json()["results"]]
        number += 1
    assert ids == by_number and len(ids) == len(set(ids)) == pages[0]["count"] > 14
    for page, body in enumerate(pages[1:], start=2):
        assert f"page={page}" in pages[page - 2]["next"] and "after=" in pages[page - 2]["next"]
        # The way back is by number: a previous link carries no place.
        assert "after=" not in (body["previous"] or "")


def test_after_is_refused_when_unreadable_or_for_a_ranked_search(client, sample_catalogue):
    from catalogue.models import Card
    from catalogue.paging import after_token

    nul = base64.urlsafe_b64encode(b'["\\u0000",1]').decode()
    for bad in ("x", "e30", "WzEsMl0", "W1wiYVwiLCAtMV0", "a" * 2000, nul):
        response = client.get("/api/cards/", {"game": "redline", "after": bad})
        assert response.status_code == 400, bad
        assert response.json()["errors"][0]["field"] == "after"
    card = Card.objects.filter(game__slug="redline").order_by("name").first()
    # A search of bare words is ranked by name match: its pages go by number.
    ranked = client.get("/api/cards/", {"game": "redline", "q": "hawk", "page_size": 1})
    assert "after=" not in (ranked.json()["next"] or "")
    response = client.get(
        "/api/cards/", {"game": "redline", "q": "hawk", "after": after_token(card)}
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "after" and "ranked" in error["message"]


def test_the_schema_documents_after(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    params = {p["name"]: p for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert params["after"]["schema"] == {"type": "string", "maxLength": 1024}
    assert "next link" in params["after"]["description"]


@pytest.mark.parametrize(
    "params", [{"game": "redline"}, {}, {"game": "redline", "q": "cost>=1"}], ids=str
)
def test_next_cursor_is_the_next_pages_after_with_no_link_taken_apart(
    client, sample_catalogue, params
):
    """A card list gives the next page's place as `next_cursor`: asking `after=` it with the
    same filters (no page number) walks every result once, as the next links do."""
    size = {"page_size": 7}
    by_links, _pages = _follow(client, {**params, **size})
    body = client.get("/api/cards/", {**params, **size}).json()
    ids = [c["id"] for c in body["results"]]
    while body["next_cursor"]:
        assert f"after={body['next_cursor']}" in body["next"]
        response = client.get("/api/cards/", {**params, **size, "after": body["next_cursor"]})
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        ids += [c["id"] for c in body["results"]]
    assert body["next"] is None
    assert ids == by_links and len(ids) > 14


def test_a_ranked_search_has_no_next_cursor(client, sample_catalogue):
    from catalogue.models import Card

    word = Card.objects.filter(game__slug="redline").order_by("name").first().name.split()[0]
    body = client.get("/api/cards/", {"game": "redline", "q": word, "page_size": 1}).json()
    assert body["results"] and body["next_cursor"] is None
