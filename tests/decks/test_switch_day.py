"""The day a rule set comes into force, every page agrees: a deck that follows its format and
was checked under yesterday's rule set is re-checked at once by any page that shows its
verdict (the deck page, the builder, the share page, the print page, my decks, public decks,
the profile, the API's detail, list and legality), before the beat's re-check reaches it;
the lists' verdict filters leave it out until then. The rule set here is made "today" without
starting its re-check, as it is between 00:00 and the beat's run."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from catalogue import rulesets
from catalogue.models import Card, Game, RuleSet, RuleSetCard
from decks import services
from decks.models import Deck
from notices.models import Notice
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue(sample_catalogue):
    """The sample catalogue without its dated sample rule sets (these tests' own decide)."""
    RuleSet.objects.filter(sample=True).delete()


def _set(code, effective, *, banned=()):
    """A rule set written straight to the table: no re-check is started."""
    game = Game.objects.get(slug="redline")
    rs = RuleSet.objects.create(
        game=game,
        format="standard",
        code=code,
        name=f"Season {code}",
        announced=effective - timedelta(days=30),
        effective=effective,
    )
    for name in banned:
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), banned=True
        )
    return rs


def _deck(owner, name="Follows", visibility="public"):
    return services.deck_create(
        owner=owner,
        game_slug="redline",
        format="standard",
        name=name,
        visibility=visibility,
        text=sample_list("redline", "standard"),
    )


@pytest.fixture
def switch(catalogue, user):
    """S1 in force since last month; a deck saved under it (legal); then S2, banning a card
    of the deck, in force from today, written without its re-check."""
    today = rulesets.today()
    _set("S1", today - timedelta(days=30))
    deck = _deck(user)
    assert Deck.objects.get(pk=deck.pk).report["rule_set"] == "S1"
    _set("S2", today, banned=["Tigercat"])
    return deck


def _stored(deck) -> tuple[bool, str]:
    d = Deck.objects.get(pk=deck.pk)
    return d.legal, d.report["rule_set"]


def _html(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_day_before_every_page_shows_the_old_verdict(switch, client, user, monkeypatch):
    yesterday = rulesets.today() - timedelta(days=1)
    monkeypatch.setattr(rulesets, "today", lambda: yesterday)
    client.force_login(user)
    assert '<p class="verdict legal">Legal</p>' in _html(client, f"/decks/{switch.pk}/")
    assert "verdict legal" in _html(client, reverse("decks:mine"))
    public = _html(client, reverse("decks:public") + "?legal=standard")
    assert "Follows" in public and "verdict legal" in public
    assert client.get(f"/api/decks/{switch.pk}/").json()["legal"] is True
    assert _stored(switch) == (True, "S1")  # nothing re-checked: the verdict is the day's


@pytest.mark.parametrize(
    "page",
    [
        "detail",
        "builder",
        "shared",
        "print",
        "mine",
        "public",
        "profile",
        "api-detail",
        "api-list",
        "api-shared",
        "api-legality",
    ],
)
def test_the_day_of_every_page_shows_the_new_verdict_and_writes_it(switch, client, user, page):
    client.force_login(user)
    pk, token = switch.pk, Deck.objects.get(pk=switch.pk).share_token
    if page == "detail":
        html = _html(client, f"/decks/{pk}/")
        assert '<p class="verdict illegal">Not legal' in html and "Tigercat" in html
    elif page == "builder":
        html = _html(client, f"/decks/{pk}/build/")
        assert "Tigercat is banned" in html or "banned" in html
    elif page == "shared":
        client.logout()
        assert "Not legal" in _html(client, f"/decks/shared/{token}/")
    elif page == "print":
        assert "banned" in _html(client, f"/decks/{pk}/export/print/")
    elif page in ("mine", "public", "profile"):
        url = {
            "mine": reverse("decks:mine"),
            "public": reverse("decks:public"),
            "profile": "/accounts/profile/",
        }[page]
        html = _html(client, url)
        assert "verdict illegal" in html and "verdict legal" not in html
    elif page == "api-detail":
        body = client.get(f"/api/decks/{pk}/").json()
        assert body["legal"] is False and body["report"]["rule_set"] == "S2"
    elif page == "api-list":
        [row] = client.get("/api/decks/?mine=1").json()["results"]
        assert row["legal"] is False
    elif page == "api-shared":
        client.logout()
        body = client.get(f"/api/decks/shared/{token}/").json()
        assert body["legal"] is False and body["report"]["rule_set"] == "S2"
    else:
        body = client.get(f"/api/decks/{pk}/legality/").json()
        assert body["checked_under"] == "S2"
    # written through, and the owner told once, as the beat's re-check would have
    assert _stored(switch) == (False, "S2")
    [notice] = Notice.objects.filter(deck_id=pk)
    assert (notice.kind, notice.was_legal, notice.legal, notice.rule_set_code) == (
        "verdict",
        True,
        False,
        "S2",
    )
    # a second view, and the beat's re-check after it, change and tell nothing more
    client.get(f"/decks/{pk}/")
    from decks.verdicts.recheck_jobs import recheck_run_chunk, recheck_start

    job = recheck_start(game_slug="redline", format="standard", reason="test", rule_set_code="S2")
    recheck_run_chunk(job_id=job.pk, index=0)
    job.refresh_from_db()
    assert (job.checked, job.changed, job.notices) == (1, 0, 0)
    assert Notice.objects.filter(deck_id=pk).count() == 1


def test_the_legal_today_filters_leave_out_a_deck_not_yet_re_checked(switch, client, user):
    # A second deck, not on the page asked for: its stored verdict is yesterday's.
    other = _deck(user, name="Elsewhere")
    Deck.objects.filter(pk=other.pk).update(report={**other.report, "rule_set": "S1"})
    url = reverse("decks:public") + "?legal=standard"
    assert "Follows" not in _html(client, url) and "Elsewhere" not in _html(client, url)
    client.force_login(user)
    for legal in ("true", "false"):
        names = [
            d["name"] for d in client.get(f"/api/decks/?mine=1&legal={legal}").json()["results"]
        ]
        assert names == [], legal
    # once re-checked (here by its page), a deck is in the filter of its new verdict
    client.get(f"/decks/{other.pk}/")
    names = [d["name"] for d in client.get("/api/decks/?mine=1&legal=false").json()["results"]]
    assert names == ["Elsewhere"]


def test_a_pinned_deck_keeps_its_verdict_on_the_switch_day(switch, client, user):
    s1 = RuleSet.objects.get(code="S1")
    Deck.objects.filter(pk=switch.pk).update(rule_set_pin=s1)
    client.force_login(user)
    assert '<p class="verdict legal">Legal</p>' in _html(client, f"/decks/{switch.pk}/")
    assert "verdict legal" in _html(client, reverse("decks:mine"))
    assert client.get(f"/api/decks/{switch.pk}/").json()["legal"] is True
    assert _stored(switch) == (True, "S1")
    assert not Notice.objects.exists()


@pytest.mark.parametrize("n", [1, 12])
def test_a_list_re_checks_its_stale_decks_in_a_constant_number_of_queries(
    catalogue, client, user, n
):
    today = rulesets.today()
    _set("S1", today - timedelta(days=30))
    for i in range(n):
        _deck(user, name=f"Deck {i}")
    client.force_login(user)
    with CaptureQueriesContext(connection) as fresh:
        assert _html(client, reverse("decks:mine")).count("verdict legal") == n
    _set("S2", today, banned=["Tigercat"])
    with CaptureQueriesContext(connection) as stale:
        assert _html(client, reverse("decks:mine")).count("verdict illegal") == n
    # S2 itself, the versions, the card facts, S2's facts for those cards (entries,
    # expansions), the write and the notices within a savepoint (four), the navigation's
    # unread count (dropped by the new notices)
    assert len(stale.captured_queries) - len(fresh.captured_queries) == 10, [
        q["sql"][:120] for q in stale.captured_queries
    ]
    assert Deck.objects.filter(owner=user, report__rule_set="S2", legal=False).count() == n
    with CaptureQueriesContext(connection) as after:
        _html(client, reverse("decks:mine"))
    assert len(after.captured_queries) == len(fresh.captured_queries)


def test_just_after_local_midnight_while_utc_is_still_the_day_before(
    catalogue, client, user, settings, monkeypatch
):
    """A site an hour ahead of UTC: at 23:30 UTC on 31 Dec it is 00:30 on 1 Jan, and the rule
    set of 1 Jan holds on every page."""
    settings.TIME_ZONE = "Europe/Paris"
    new_year = datetime(2027, 1, 1).date()
    before = datetime(2026, 12, 31, 22, 30, tzinfo=ZoneInfo("UTC"))  # 23:30 in Paris
    after = datetime(2026, 12, 31, 23, 30, tzinfo=ZoneInfo("UTC"))  # 00:30 in Paris
    monkeypatch.setattr(timezone, "now", lambda: before)
    _set("S1", new_year - timedelta(days=90))
    deck = _deck(user)
    _set("S2", new_year, banned=["Tigercat"])
    client.force_login(user)
    assert "verdict legal" in _html(client, reverse("decks:mine"))
    assert _stored(deck) == (True, "S1")

    monkeypatch.setattr(timezone, "now", lambda: after)
    assert after.date() == datetime(2026, 12, 31).date()  # still 31 Dec in UTC
    assert rulesets.today() == new_year
    assert '<p class="verdict illegal">Not legal' in _html(client, f"/decks/{deck.pk}/")
    assert _stored(deck) == (False, "S2")
    assert client.get(f"/api/decks/{deck.pk}/").json()["legal"] is False
