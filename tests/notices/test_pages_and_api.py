"""The notices of a signed-in owner: the count in the navigation (from the cache: no query
of its own on a page), the notices page (newest first, links to the deck, mark all read),
the digest opt-in and its email, and the API (the owner's own notices only)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.models import Deck, Visibility
from notices.models import Notice, NoticePreference
from notices.services import digest_send, notices_write

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    from catalogue.models import Game

    return Game.objects.create(slug="redline", name="REDLINE")


def _deck(owner, game, name="Deck"):
    return Deck.objects.create(
        owner=owner, game=game, format="standard", name=name, visibility=Visibility.PRIVATE
    )


def _notice(deck, message, key, **kw):
    notices_write(
        [Notice(owner_id=deck.owner_id, deck=deck, kind="verdict", key=key, message=message, **kw)]
    )
    return Notice.objects.get(deck=deck, key=key)


def _nav_count(html: str) -> str | None:
    m = re.search(r'id="nav-notices">Notices(?: <span class="count"[^>]*>(\d+)</span>)?</a>', html)
    assert m, "no notices link in the navigation"
    return m.group(1)


def test_the_navigation_counts_unread_notices_at_no_query_of_its_own(
    client, user, other_user, game
):
    deck = _deck(user, game)
    _notice(deck, "one", "a")
    _notice(deck, "two", "b")
    _notice(_deck(other_user, game), "not mine", "c")
    client.force_login(user)  # the count is read at sign-in
    with CaptureQueriesContext(connection) as ctx:
        html = client.get("/decks/mine/").content.decode()
    assert _nav_count(html) == "2"
    assert not [q for q in ctx.captured_queries if "notices_notice" in q["sql"]]


def test_a_new_notice_shows_in_the_count_on_the_next_page(client, user, game):
    deck = _deck(user, game)
    client.force_login(user)
    assert _nav_count(client.get("/notices/").content.decode()) is None
    _notice(deck, "new", "a")
    assert _nav_count(client.get("/notices/").content.decode()) == "1"


def test_the_notices_page_lists_newest_first_with_links_and_marks_all_read(
    client, user, other_user, game
):
    deck = _deck(user, game, "Alpha")
    older = _notice(deck, "Alpha is no longer legal", "a")
    newer = _notice(deck, "Alpha is legal again", "b")
    hidden = _notice(_deck(other_user, game), "Theirs changed", "c")
    client.force_login(user)
    html = client.get("/notices/").content.decode()
    assert html.index(f'data-notice="{newer.pk}"') < html.index(f'data-notice="{older.pk}"')
    assert f'href="/decks/{deck.pk}/">Alpha is legal again' in html
    assert "Theirs changed" not in html
    assert html.count('class="notice-item unread"') == 2

    response = client.post("/notices/read/")
    assert response.status_code == 302
    html = client.get("/notices/").content.decode()
    assert 'class="notice-item unread"' not in html
    assert _nav_count(html) is None
    hidden.refresh_from_db()
    assert hidden.read_at is None  # another owner's notices are theirs


def test_the_notices_page_needs_a_sign_in(client):
    response = client.get("/notices/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post("/notices/read/").status_code == 302


def test_the_notices_page_is_paged(client, user, game):
    deck = _deck(user, game)
    notices_write(
        [
            Notice(owner_id=user.pk, deck=deck, kind="points", key=f"k{i}", message=f"n{i}")
            for i in range(55)
        ]
    )
    client.force_login(user)
    first = client.get("/notices/").content.decode()
    assert first.count('class="notice-item') == 50
    assert client.get("/notices/?page=2").content.decode().count('class="notice-item') == 5


def test_the_digest_is_opt_in_and_sends_each_notice_once(client, user, other_user, game):
    deck = _deck(user, game, "Alpha")
    _notice(deck, "Alpha is no longer legal in Standard under S2", "a")
    _notice(_deck(other_user, game), "Bob's deck changed", "b")
    assert digest_send() == 0  # nobody opted in
    assert mail.outbox == []

    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert (
        'name="email_digest"' in page and "checked" not in page.split('name="email_digest"')[1][:40]
    )
    assert client.post("/notices/settings/", {"email_digest": "on"}).status_code == 302
    assert NoticePreference.objects.get(user=user).email_digest

    call_command("send_notice_digests", stdout=open("/dev/null", "w"))
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["alice@example.com"]
    assert "Alpha is no longer legal in Standard under S2" in sent.body
    assert f"/decks/{deck.pk}/" in sent.body
    assert "Bob's deck changed" not in sent.body

    assert digest_send() == 0  # nothing new: nothing sent
    _notice(deck, "Alpha is legal again", "c")
    assert digest_send() == 1
    assert "Alpha is legal again" in mail.outbox[1].body
    assert "no longer legal" not in mail.outbox[1].body

    client.post("/notices/settings/", {})  # unticked: off
    _notice(deck, "Alpha changed once more", "d")
    assert digest_send() == 0


def test_read_notices_are_not_mailed(user, game):
    NoticePreference.objects.create(user=user, email_digest=True)
    deck = _deck(user, game)
    _notice(deck, "seen already", "a")
    Notice.objects.update(read_at="2026-01-01T00:00:00Z")
    assert digest_send() == 0


def test_the_api_lists_the_users_own_notices_newest_first(client, user, other_user, game):
    deck = _deck(user, game)
    older = _notice(deck, "older", "a", legal=False, was_legal=True, rule_set_code="S2")
    newer = _notice(deck, "newer", "b", points=52, was_points=48)
    _notice(_deck(other_user, game), "theirs", "c")
    assert client.get("/api/notices/").status_code in (401, 403)
    client.force_login(user)
    body = client.get("/api/notices/").json()
    assert body["count"] == 2
    assert [n["id"] for n in body["results"]] == [newer.pk, older.pk]
    first = body["results"][1]
    assert first["deck"] == deck.pk and first["deck_url"].endswith(f"/decks/{deck.pk}/")
    assert (first["legal"], first["was_legal"], first["rule_set_code"]) == (False, True, "S2")
    assert first["read"] is False
    assert set(first) == {
        "id", "kind", "deck", "deck_url", "rule_set_code", "legal", "was_legal", "points",
        "was_points", "message", "created_at", "read", "url",
    }  # fmt: skip

    response = client.post("/api/notices/read/", content_type="application/json")
    assert response.json() == {"marked": 2}
    assert all(n["read"] for n in client.get("/api/notices/").json()["results"])
    assert Notice.objects.filter(read_at__isnull=True).count() == 1  # theirs


def test_the_schema_describes_the_notices(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/notices/" in schema["paths"] and "/api/notices/read/" in schema["paths"]
    props = schema["components"]["schemas"]["Notice"]["properties"]
    assert props["legal"]["nullable"] is True and props["points"]["nullable"] is True
