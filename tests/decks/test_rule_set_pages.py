"""Rule sets where players see them: the validate API's `as_of` and `rule_set`, the deck page
(checked under, follow or pin in one click, the upcoming rule set's effect, the rule set of
each version), the check page, the builder, card search, the card page, the format's rule
set page and the API. Against the sample rule sets: REDLINE standard S1 (in force since
1 Jan 2026: Orbital Drop banned, Bogatyr limited to 2) and S2 (from 1 Jan 2027: Hidden Ambush
banned, Kestrel limited to 2, Bogatyr to 1, Longbow costs 4)."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from catalogue import rulesets
from catalogue.models import Card
from catalogue.search import search_cards
from decks.models import Deck
from decks.services import deck_create
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

#: "Today" in these tests: S1 in force, S2 upcoming.
TODAY = date(2026, 12, 15)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    """Pins the site's today (catalogue.rulesets.today) to TODAY; `today(d)` moves it."""
    state = {"day": TODAY}
    monkeypatch.setattr(rulesets, "today", lambda: state["day"])

    def move(day: date) -> None:
        state["day"] = day

    return move


#: The sample REDLINE list with three Kestrels in place of the Claymores: legal under S1,
#: over S2's limit of 2.
KESTRELS = sample_list("redline", "standard").replace("3 Claymore\n", "3 Kestrel\n")


def validate(client, **body):
    body = {"game": "redline", "format": "standard", "list": KESTRELS, **body}
    return client.post("/api/validate/", body, content_type="application/json")


@pytest.fixture
def kestrel_deck(sample_catalogue, user):
    return deck_create(
        owner=user, game_slug="redline", format="standard", name="Kestrels", text=KESTRELS
    )


# --- The validate API ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "legal"),
    [
        ({"as_of": "2025-12-31"}, None, True),  # before the first rule set: the bare format
        ({"as_of": "2026-01-01"}, "S1", True),  # the day S1 comes into force
        ({"as_of": "2026-12-31"}, "S1", True),  # the day before S2
        ({"as_of": "2027-01-01"}, "S2", False),  # the day of S2
        ({"rule_set": "S2"}, "S2", False),
        ({"rule_set": "S1"}, "S1", True),
    ],
)
def test_as_of_and_rule_set_choose_the_rule_set(client, sample_catalogue, body, code, legal):
    response = validate(client, **body)
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["rule_set"] == code
    assert data["legal"] is legal, data["errors"]
    if not legal:
        assert [(e["code"], e["message"]) for e in data["errors"]] == [
            ("format.limit", "Line 11: 3 copies of Kestrel; at most 2 in S2 (Sample Season 2)")
        ]


def test_by_default_the_rule_set_in_force_today(client, sample_catalogue, today):
    assert validate(client).json()["rule_set"] == "S1"
    today(date(2027, 1, 1))
    assert validate(client).json()["rule_set"] == "S2"


def test_a_bad_rule_set_or_both_choices_are_refused(client, sample_catalogue):
    response = validate(client, rule_set="S9")
    assert response.status_code == 400
    assert [(e["field"], e["message"]) for e in response.json()["errors"]] == [
        ("rule_set", "standard has no rule set 'S9'; its rule sets: S1, S2")
    ]
    response = validate(client, rule_set="S1", as_of="2027-01-01")
    assert response.status_code == 400
    assert "not both" in response.json()["errors"][0]["message"]
    response = validate(client, as_of="2027-02-30")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["as_of"]


# --- The deck page: follow or pin ---------------------------------------------------------


def test_the_deck_page_shows_the_rule_set_and_the_upcoming_effect(client, user, kestrel_deck):
    client.force_login(user)
    page = client.get(kestrel_deck.get_absolute_url()).content.decode()
    assert "Checked under <a" in page and "<strong>S1</strong>" in page
    assert "follows the format" in page
    assert (
        "From 1 Jan 2027: Kestrel limited to 2 (3 copies); Longbow cost 3 → 4;"
        " Smoke Screen errata added — not legal then (1 problem)"
    ) in page
    # The versions say the rule set each was checked under.
    assert '<td class="version-rule-set" data-label="Rule set">S1</td>' in page


def test_the_upcoming_effect_is_stored_with_the_verdict_and_refreshed_by_a_re_check(
    client, user, kestrel_deck, monkeypatch
):
    from django.core.cache import cache

    from catalogue.models import RuleSet, RuleSetCard
    from decks.verdicts import rulesets as deck_rulesets
    from decks.verdicts.recheck_jobs import recheck_run_chunk, recheck_start

    stored = Deck.objects.get(pk=kestrel_deck.pk).upcoming
    assert stored["items"] == [
        "Kestrel limited to 2 (3 copies)",
        "Longbow cost 3 → 4",
        "Smoke Screen errata added",
    ]
    assert (stored["legal"], stored["errors"]) == (False, 1)
    # The page reads it: nothing computed on the view.
    computed = []
    real = deck_rulesets.effect_of
    monkeypatch.setattr(deck_rulesets, "effect_of", lambda **kw: computed.append(1) or real(**kw))
    cache.clear()
    client.force_login(user)
    page = client.get(kestrel_deck.get_absolute_url()).content.decode()
    assert "From 1 Jan 2027: Kestrel limited to 2 (3 copies); Longbow cost 3 → 4" in page
    assert computed == []

    # S2 edited (Kestrel's limit dropped), then the re-check its change starts.
    s2 = RuleSet.objects.get(game__slug="redline", format="standard", code="S2")
    RuleSetCard.objects.filter(rule_set=s2, card__name="Kestrel").delete()
    s2.save()  # its updated_at moves: the stored effect is out of date
    # Meanwhile (before the re-check) the page computes it rather than read the old one.
    page = client.get(kestrel_deck.get_absolute_url()).content.decode()
    assert "From 1 Jan 2027: Longbow cost 3 → 4" in page and "Kestrel limited" not in page
    assert computed == [1]
    job = recheck_start(game_slug="redline", format="standard", reason="t", rule_set_code="S2")
    for i in range(len(job.chunks)):
        recheck_run_chunk(job_id=job.pk, index=i)
    stored = Deck.objects.get(pk=kestrel_deck.pk).upcoming
    assert stored["items"] == ["Longbow cost 3 → 4", "Smoke Screen errata added"]
    assert stored["legal"] is True


def test_a_builder_session_stores_the_upcoming_effect_when_its_version_is_sealed(
    user, kestrel_deck
):
    from decks.services import deck_autosave, deck_seal_version

    deck = Deck.objects.get(pk=kestrel_deck.pk)
    sections = {
        "general": [{"card": e["card"], "count": e["count"]} for e in _section(deck, "general")],
        "arsenal": [
            {"card": e["card"], "count": e["count"] - (e["card"] == "Kestrel")}
            for e in _section(deck, "arsenal")
        ],
    }
    version = deck_autosave(deck=deck, author=user, sections=sections, based_on=1, revision=None)
    # A tap in the builder does not compute it: the working version has none yet.
    assert Deck.objects.get(pk=deck.pk).upcoming == {}
    deck_seal_version(deck=deck)
    stored = Deck.objects.get(pk=deck.pk).upcoming
    assert stored["version"] == version.pk
    assert stored["items"] == [
        "Kestrel limited to 2 (2 copies)",
        "Longbow cost 3 → 4",
        "Smoke Screen errata added",
    ]


def _section(deck, name):
    return [e for e in deck.current_version.entries if e["section"] == name]


def test_the_day_before_and_the_day_of_a_following_deck(user, kestrel_deck, today):
    from decks.verdicts import revalidate_game_decks

    today(date(2026, 12, 31))
    revalidate_game_decks(game_slug="redline")
    kestrel_deck.refresh_from_db()
    assert kestrel_deck.report["rule_set"] == "S1" and kestrel_deck.legal
    today(date(2027, 1, 1))
    revalidate_game_decks(game_slug="redline")
    kestrel_deck.refresh_from_db()
    assert kestrel_deck.report["rule_set"] == "S2" and not kestrel_deck.legal
    assert [e["code"] for e in kestrel_deck.report["errors"]] == ["format.limit"]


def test_pin_and_follow_in_one_click_each(client, user, kestrel_deck):
    client.force_login(user)
    url = reverse("decks:rule-set", args=[kestrel_deck.pk])
    response = client.post(url, {"rule_set": "S2"})
    assert response.status_code == 302
    deck = Deck.objects.get(pk=kestrel_deck.pk)
    assert deck.rule_set_pin.code == "S2"
    assert deck.report["rule_set"] == "S2" and deck.legal is False  # re-checked at once
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "pinned" in page and "Follow the format instead" in page
    client.post(url, {"rule_set": ""})
    deck.refresh_from_db()
    assert deck.rule_set_pin is None
    assert deck.report["rule_set"] == "S1" and deck.legal


def test_only_the_owner_pins_and_an_unknown_code_changes_nothing(
    client, user, other_user, kestrel_deck
):
    url = reverse("decks:rule-set", args=[kestrel_deck.pk])
    client.force_login(other_user)
    assert client.post(url, {"rule_set": "S2"}).status_code == 404
    client.force_login(user)
    client.post(url, {"rule_set": "NOPE"})
    assert Deck.objects.get(pk=kestrel_deck.pk).rule_set_pin is None


def test_a_pinned_deck_is_not_changed_by_a_new_rule_set(client, user, kestrel_deck, today):
    from decks.services import deck_pin
    from decks.verdicts import revalidate_game_decks

    deck_pin(deck=kestrel_deck, code="S1")
    today(date(2027, 1, 1))
    revalidate_game_decks(game_slug="redline")
    kestrel_deck.refresh_from_db()
    assert kestrel_deck.report["rule_set"] == "S1" and kestrel_deck.legal
    # Its page says which rule set is in effect now, and that the deck stays under its pin.
    client.force_login(user)
    page = client.get(reverse("decks:detail", args=[kestrel_deck.pk])).content.decode()
    assert (
        "S2" in page and "is in effect today; this deck stays under S1 while it is pinned" in page
    )


def test_the_builder_and_the_check_page_say_which_rule_set(client, user, kestrel_deck):
    client.force_login(user)
    code = "S1"
    page = client.get(reverse("builder:deck", args=[kestrel_deck.pk])).content.decode()
    assert f"<strong>{code}</strong>" in page and 'class="rule-set-switch"' in page
    assert f"Checked under rule set {code}" in page
    page = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": KESTRELS}
    ).content.decode()
    assert "Checked under rule set" in page and f"<strong>{code}</strong>" in page


# --- Browse and search ---------------------------------------------------------------------


def names(query, game="redline"):
    result = search_cards(query=query, queryset=Card.objects.all(), game_slug=game)
    assert not result.problems, result.problems
    return set(result.queryset.values_list("name", flat=True))


def test_search_by_legality_in_force_today(sample_catalogue, today):
    banned = {"Orbital Drop"}
    assert names("banned:standard") == banned
    assert names("restricted:standard") == {"Bogatyr"}
    legal = names("legal:standard")
    assert banned.isdisjoint(legal) and "Tigercat" in legal
    assert legal | banned == set(
        Card.objects.filter(game__slug="redline").values_list("name", flat=True)
    )
    # A format without a rule set: every card legal, none banned.
    assert names("banned:scramble") == set()
    assert len(names("legal:scramble")) == Card.objects.filter(game__slug="redline").count()
    result = search_cards(query="legal:nope", queryset=Card.objects.all(), game_slug="redline")
    assert result.problems and "not a format" in result.problems[0]
    # The day S2 comes into force, the search follows it.
    today(date(2027, 1, 1))
    assert names("banned:standard") == {"Hidden Ambush"}
    assert names("restricted:standard") == {"Bogatyr", "Kestrel"}
    assert "Orbital Drop" in names("legal:standard")


def test_the_card_page_lists_its_standing_today_and_upcoming(client, sample_catalogue):
    card = Card.objects.get(game__slug="redline", name="Bogatyr")
    page = client.get(card.get_absolute_url()).content.decode()
    assert "card-standings" in page
    assert "limited to 2 copies" in page and "limited to 1 copy" in page
    assert "from 1 Jan 2027" in page
    assert "Sample data authored for Cardsite" in page  # the rule set's note


def test_the_format_page_lists_each_rule_set_with_its_changes(client, sample_catalogue):
    page = client.get(reverse("catalogue:rule_sets", args=["redline", "standard"])).content.decode()
    assert page.index('id="rule-set-S2"') < page.index('id="rule-set-S1"')  # newest first
    for change in (
        "Orbital Drop no longer banned",
        "Hidden Ambush banned",
        "Kestrel limited to 2",
        "Bogatyr limit 2 → 1",
        "Longbow cost 3 → 4",
        "Smoke Screen errata added",
        "Orbital Drop banned",
        "legal expansions: RL1",
    ):
        assert change in page, change
    assert client.get("/rules/redline/nope/rule-sets/").status_code == 404


def test_public_decks_filter_by_legal_today(client, user, kestrel_deck, sample_catalogue):
    from decks.services import deck_pin, deck_update

    deck_update(deck=kestrel_deck, visibility="public")
    other = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Pinned to S2",
        visibility="public",
        text=KESTRELS,
    )
    deck_pin(deck=other, code="S2")
    url = reverse("decks:public-game", args=["redline"])
    page = client.get(url, {"legal": "standard"}).content.decode()
    assert "Kestrels" in page
    assert "Pinned to S2" not in page
    assert "Pinned to S2" in client.get(url).content.decode()


# --- The API ------------------------------------------------------------------------------


def test_the_rule_sets_api(client, sample_catalogue):
    data = client.get("/api/rule-sets/redline/standard/").json()
    assert [d["code"] for d in data] == ["S2", "S1"]
    s2 = data[0]
    assert s2["effective"] == "2027-01-01" and s2["expansions"] == ["RL1"]
    assert {"kind": "banned", "card": "Hidden Ambush", "before": None, "after": None,
            "text": "Hidden Ambush banned"} in s2["changes"]  # fmt: skip
    assert {"name": "Kestrel", "banned": False, "limit": 2, "cost": None, "text": ""} in s2["cards"]
    assert [d["status"] for d in data] == ["upcoming", "in effect"]
    one = client.get("/api/rule-sets/redline/standard/S1/").json()
    assert one["code"] == "S1" and one["status"] == "in effect"
    assert client.get("/api/rule-sets/redline/standard/S9/").status_code == 404
    assert client.get("/api/rule-sets/redline/nope/").status_code == 404
    assert client.get("/api/rule-sets/chess/standard/").status_code == 404


def test_a_decks_legality_per_rule_set(client, user, other_user, kestrel_deck):
    client.force_login(user)
    data = client.get(f"/api/decks/{kestrel_deck.pk}/legality/").json()
    assert data["follows"] is True
    by_code = {c["rule_set"]: c for c in data["checks"]}
    assert [c["rule_set"] for c in data["checks"]] == ["S2", "S1", None]
    assert by_code["S1"]["legal"] is True and by_code[None]["legal"] is True
    assert by_code["S2"]["legal"] is False
    assert by_code["S2"]["errors"] == [
        {
            "code": "format.limit",
            "message": "3 copies of Kestrel; at most 2 in S2 (Sample Season 2)",
        }
    ]
    client.force_login(other_user)  # a private deck of another player: not found
    assert client.get(f"/api/decks/{kestrel_deck.pk}/legality/").status_code == 404


def test_the_upcoming_points_update_of_an_army(client, user, sample_catalogue):
    from decks.verdicts import deck_rule_sets

    army = deck_create(
        owner=user,
        game_slug="hex-skirmish",
        format="standard",
        name="Army",
        text=sample_list("hex-skirmish", "standard"),
    )
    assert army.report["rule_set"] == "P1" and army.report["totals"]["points"] == 39
    effect = deck_rule_sets(deck=army).effect
    assert effect.text == (
        "From 1 Jan 2027: Lancers cost 8 → 9; Longbowmen cost 7 → 8; points 41/50 — legal then"
    )
    assert effect.legal
    client.force_login(user)
    assert effect.text in client.get(army.get_absolute_url()).content.decode()


def test_pin_and_follow_through_the_api(client, user, other_user, kestrel_deck):
    url = f"/api/decks/{kestrel_deck.pk}/"
    client.force_login(other_user)
    assert client.patch(url, {"rule_set": "S2"}, content_type="application/json").status_code == 404
    client.force_login(user)
    data = client.patch(url, {"rule_set": "S2"}, content_type="application/json").json()
    assert data["rule_set_pin"] == "S2" and data["report"]["rule_set"] == "S2"
    assert data["legal"] is False
    response = client.patch(url, {"rule_set": "S9"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "rule_set"
    data = client.patch(url, {"rule_set": ""}, content_type="application/json").json()
    assert data["rule_set_pin"] is None and data["report"]["rule_set"] == "S1" and data["legal"]
