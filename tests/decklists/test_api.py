"""The decklists API: publish, find (cards included and excluded, legal today, sorts),
read, like, favourite, comment, report, authors and follows; every bad input a clear answer
in the one error shape, nothing half-written; fixed query counts."""

from __future__ import annotations

import pytest

from decklists import services
from decklists.models import Comment, Decklist, Report

pytestmark = pytest.mark.django_db

JSON = "application/json"


def _post(client, url, body=None):
    return client.post(url, body or {}, content_type=JSON)


def test_publish_through_the_api_answers_the_decklist_with_its_counts(
    client, sample_catalogue, user, make_deck
):
    deck = make_deck(user)
    client.force_login(user)
    response = _post(
        client, f"/api/decks/{deck.pk}/publish/", {"name": "API list", "description": "*hi*"}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["likes"], body["favourites"], body["comments"]) == (
        "API list",
        0,
        0,
        0,
    )
    assert body["description_html"] == "<p><em>hi</em></p>\n" and body["published_legal"] is True
    assert {row["format"] for row in body["legality"]} == {"standard", "scramble", "scenario"}
    assert body["sections"]["general"][0]["count"] == 1


def test_publishing_someone_elses_deck_answers_404_and_an_illegal_one_400_with_its_problems(
    client, sample_catalogue, user, other_user, make_deck
):
    theirs = make_deck(other_user)
    bad = make_deck(user, text="General:\n1 General Jeffrey Moore\nArsenal:\n5 Tigercat\n")
    client.force_login(user)
    assert _post(client, f"/api/decks/{theirs.pk}/publish/", {"name": "x"}).status_code == 404
    response = _post(client, f"/api/decks/{bad.pk}/publish/", {"name": "x"})
    assert response.status_code == 400
    problem = response.json()
    assert problem["type"] == "urn:cardsite:problem:invalid"
    assert any(
        "5 copies of Tigercat" in e["message"] and e["field"] == "deck" for e in problem["errors"]
    )
    assert not Decklist.objects.exists()


def test_liking_twice_through_the_api_is_one_like(
    client, sample_catalogue, user, other_user, publish
):
    decklist = publish(user)
    client.force_login(other_user)
    for _ in range(2):
        response = _post(client, f"/api/decklists/{decklist.pk}/like/")
        assert response.json() == {"liked": True, "likes": 1}
    assert client.delete(f"/api/decklists/{decklist.pk}/like/").json() == {
        "liked": False,
        "likes": 0,
    }
    assert _post(client, f"/api/decklists/{decklist.pk}/favourite/").json() == {
        "favoured": True,
        "favourites": 1,
    }
    assert client.get(f"/api/decklists/{decklist.pk}/").json()["favoured"] is True


def test_comments_through_the_api(
    client, sample_catalogue, user, other_user, staff_user, publish, make_deck
):
    decklist = publish(user)
    client.force_login(other_user)
    url = f"/api/decklists/{decklist.pk}/comments/"
    refused = _post(client, url, {"text": "first"})
    assert refused.status_code == 403 and "Save at least one deck" in refused.json()["detail"]
    make_deck(other_user)
    too_long = _post(client, url, {"text": "x" * 20_000})
    assert too_long.status_code == 400
    assert (
        too_long.json()["errors"][0]["field"] == "text"
        and "5000" in too_long.json()["errors"][0]["message"]
    )
    made = _post(client, url, {"text": "Good <script>alert(1)</script>list"})
    assert made.status_code == 201 and "<script" not in made.json()["html"]
    listed = client.get(url).json()
    assert listed["count"] == 1 and listed["results"][0]["author"] == other_user.username
    assert client.get(f"/api/decklists/{decklist.pk}/").json()["comments"] == 1
    services.decklist_hide(decklist=decklist, actor=staff_user, reason="spam")
    assert _post(client, url, {"text": "again"}).status_code == 404
    assert Comment.objects.count() == 1


def test_a_report_is_filed_once(client, sample_catalogue, user, other_user, publish):
    decklist = publish(user)
    client.force_login(other_user)
    url = f"/api/decklists/{decklist.pk}/report/"
    first = _post(client, url, {"reason": "spam"})
    second = _post(client, url, {"reason": "spam"})
    assert (first.status_code, first.json()) == (201, {"reported": True, "created": True})
    assert (second.status_code, second.json()) == (200, {"reported": True, "created": False})
    assert Report.objects.count() == 1


def test_follow_an_author_through_the_api(client, sample_catalogue, user, other_user):
    client.force_login(other_user)
    assert _post(client, f"/api/authors/{user.username}/follow/").json() == {
        "following": True,
        "followers": 1,
    }
    assert _post(client, f"/api/authors/{user.username}/follow/").json()["followers"] == 1
    body = client.get(f"/api/authors/{user.username}/").json()
    assert body["following"] is True and body["reputation"] == 0
    assert client.delete(f"/api/authors/{user.username}/follow/").json() == {
        "following": False,
        "followers": 0,
    }
    assert _post(client, f"/api/authors/{other_user.username}/follow/").status_code == 400
    assert client.get("/api/authors/nobody-here/").status_code == 404


def test_the_search_finds_by_cards_included_with_counts_and_excluded(
    client, sample_catalogue, user, publish
):
    standard = publish(user, "redline", "standard")
    scramble = publish(user, "redline", "scramble")
    counts = {}
    for e in standard.entries:
        counts[e["card"]] = counts.get(e["card"], 0) + e["count"]
    other = {e["card"] for e in scramble.entries}
    only_standard = sorted(set(counts) - other)[0]
    many = max(counts, key=counts.get)

    def found(query):
        response = client.get(f"/api/decklists/?{query}")
        assert response.status_code == 200, response.content
        return {d["id"] for d in response.json()["results"]}

    assert found(f"card={only_standard}") == {standard.pk}
    assert found(f"exclude_card={only_standard}&game=redline") == {scramble.pk}
    assert standard.pk in found(f"card={many}:{counts[many]}")
    assert standard.pk not in found(f"card={many}:{counts[many] + 1}")
    assert found("format=scramble") == {scramble.pk}
    assert found("legal=today&format=standard") >= {standard.pk}
    assert found(f"author={user.username}&sort=new") == {standard.pk, scramble.pk}


def test_bad_searches_are_400s_naming_the_parameter(client, sample_catalogue):
    both = client.get("/api/decklists/?game=redline&card=Tigercat&exclude_card=tigercat")
    assert both.status_code == 400
    fields = {e["field"] for e in both.json()["errors"]}
    assert fields == {"card", "exclude_card"}
    assert all("Tigercat" in e["message"] for e in both.json()["errors"])
    unknown = client.get("/api/decklists/?game=redline&card=Tigercatt")
    assert unknown.status_code == 400
    (error,) = unknown.json()["errors"]
    assert error["code"] == "unknown_card" and "Tigercat" in error["suggestions"]
    for query, field in [
        ("sort=best", "sort"),
        ("legal=yesterday", "legal"),
        ("since=last-week", "since"),
        ("game=", "game"),
        ("card=", "card"),
        ("format=nope", "format"),
        (f"q={'x' * 101}", "q"),
        ("card=Tigercat:0", "card"),
    ]:
        response = client.get(f"/api/decklists/?{query}")
        assert response.status_code == 400, query
        assert field in {e["field"] for e in response.json()["errors"]}, query


def test_the_search_costs_the_same_queries_however_many_decklists(
    client, sample_catalogue, user, publish, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    publish(user, "redline", "standard")
    url = "/api/decklists/?game=redline&card=Tigercat&card=General Jeffrey Moore&exclude_card=Kestrel&legal=today&format=standard"
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    for _ in range(6):
        publish(user, "redline", "standard")
        publish(user, "redline", "scramble")
    with django_assert_num_queries(len(few.captured_queries)):
        response = client.get(url)
    assert response.json()["count"] >= 1


def test_a_search_by_cards_counts_its_results_and_pages_past_the_end_are_404s(
    client, sample_catalogue, user, publish
):
    made = [publish(user, "redline", "standard") for _ in range(3)]
    card = made[0].entries[0]["card"]
    response = client.get(f"/api/decklists/?game=redline&card={card}&page_size=2")
    body = response.json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    second = client.get(f"/api/decklists/?game=redline&card={card}&page_size=2&page=2").json()
    assert second["count"] == 3 and len(second["results"]) == 1
    assert (
        client.get(f"/api/decklists/?game=redline&card={card}&page_size=2&page=3").status_code
        == 404
    )
    none = client.get(
        "/api/decklists/?game=redline&card=Tigercat&exclude_card=Rabbit&q=nothing-like-this"
    )
    assert none.status_code == 200 and none.json()["count"] == 0
