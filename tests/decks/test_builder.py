"""The interactive deck builder, server side: htmx changes, autosaved versions, conflicts,
permissions, game partials and a query count that does not grow with the deck."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue.models import Card
from collection.models import CollectionEntry
from decks import services
from decks.builder import views as builder
from decks.models import Deck, DeckVersion
from validation.registry import registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def new_deck(owner, game="redline", fmt="standard", text=None, options=None):
    return services.deck_create(
        owner=owner, game_slug=game, format=fmt, name="Test deck", text=text, options=options
    )


def change(client, deck, base, **data):
    data.setdefault("base", "" if base is None else str(base))
    return client.post(reverse("builder:change", args=[deck.pk]), data, **HTMX)


def current(deck) -> DeckVersion:
    deck.refresh_from_db()
    return deck.current_version


def entries(deck) -> dict[tuple[str, str], int]:
    v = current(deck)
    return {(e["section"], e["card"]): e["count"] for e in v.entries} if v else {}


def test_new_deck_form_creates_an_owned_deck_and_opens_the_builder(
    signed_in, sample_catalogue, user
):
    url = reverse("builder:new", args=["redline", "standard"])
    assert signed_in.get(url).status_code == 200
    response = signed_in.post(url, {"name": "Moore's efreets"})
    deck = Deck.objects.get(owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("builder:deck", args=[deck.pk])
    page = signed_in.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Moore&#x27;s efreets" in html
    assert 'id="general-picker"' in html  # the REDLINE partial
    assert "Not legal" in html


def test_unknown_game_or_format_is_404(signed_in, sample_catalogue):
    assert signed_in.get(reverse("builder:new", args=["chess", "standard"])).status_code == 404
    assert signed_in.get(reverse("builder:new", args=["redline", "blitz"])).status_code == 404


def test_builder_needs_a_signed_in_user(client, sample_catalogue, user):
    deck = new_deck(user)
    response = client.get(reverse("builder:deck", args=[deck.pk]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_add_and_remove_autosave_new_versions(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    r = change(signed_in, deck, None, op="add", section="arsenal", card="Tigercat")
    assert r.status_code == 200
    assert "Saved version 1" in r.content.decode()
    assert entries(deck) == {("arsenal", "Tigercat"): 1}
    change(signed_in, deck, 1, op="add", section="arsenal", card="Tigercat")
    change(signed_in, deck, 2, op="add", section="general", card="General Jeffrey Moore")
    assert entries(deck) == {("arsenal", "Tigercat"): 2, ("general", "General Jeffrey Moore"): 1}
    v = current(deck)
    assert v.number == 3 and v.based_on.number == 2 and v.author == user
    r = change(signed_in, deck, 3, op="remove", section="arsenal", card="Tigercat")
    assert entries(deck)[("arsenal", "Tigercat")] == 1
    change(signed_in, deck, 4, op="set", section="arsenal", card="Supply Drop", count="24")
    assert entries(deck)[("arsenal", "Supply Drop")] == 24
    change(signed_in, deck, 5, op="set", section="arsenal", card="Supply Drop", count="0")
    assert ("arsenal", "Supply Drop") not in entries(deck)
    assert DeckVersion.objects.filter(deck=deck).count() == 6


def test_a_change_renders_the_verdict_and_highlights_the_cards_involved(
    signed_in, sample_catalogue, user
):
    deck = new_deck(user)
    base = None
    for section, card, count in [
        ("general", "General Jeffrey Moore", 1),
        ("arsenal", "Tigercat", 4),
        ("arsenal", "Rabbit", 4),
        ("arsenal", "Longbow", 4),
        ("arsenal", "Kestrel", 4),
        ("arsenal", "Pulse Laser", 4),
        ("arsenal", "Hellfire Missile Pod", 4),
        ("arsenal", "Ablative Plating", 2),
        ("arsenal", "Full Salvo", 4),
        ("arsenal", "Close Call", 4),
        ("arsenal", "Dig In", 2),
        ("arsenal", "Supply Drop", 24),
    ]:
        r = change(signed_in, deck, base, op="set", section=section, card=card, count=count)
        base = current(deck).number
    html = r.content.decode()
    assert 'class="verdict legal"' in html, html
    assert current(deck).legal
    r = change(signed_in, deck, base, op="add", section="arsenal", card="Tigercat")
    html = r.content.decode()
    assert 'data-code="arsenal.copies"' in html
    assert 'class="b-row involved" data-card="Tigercat"' in html
    # The answer carries only what changed: the other rows stay as the page shows them.
    assert 'data-card="Rabbit"' not in html
    page = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'class="b-row" data-card="Rabbit"' in page
    r = change(signed_in, deck, base + 1, op="remove", section="arsenal", card="Tigercat")
    assert 'data-code="arsenal.copies"' not in r.content.decode()
    assert 'class="verdict legal"' in r.content.decode()


def test_a_stale_base_is_refused_with_the_conflict_message(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    change(signed_in, deck, None, op="add", section="arsenal", card="Tigercat")
    # Someone saves version 2 elsewhere (another tab, the API).
    services.deck_save_version(
        deck=current(deck).deck, author=user, text="Arsenal:\n3 Rabbit\n", based_on=1
    )
    r = change(signed_in, deck, 1, op="add", section="arsenal", card="Longbow")
    html = r.content.decode()
    assert "This deck was saved elsewhere since you opened it (version 2)" in html
    assert entries(deck) == {("arsenal", "Rabbit"): 3}  # not overwritten
    assert DeckVersion.objects.filter(deck=deck).count() == 2
    # The page stays on its own base until reloaded.
    assert 'id="builder-base" name="base" value="1"' in html


def test_other_users_get_404_on_every_builder_url(client, sample_catalogue, user, other_user):
    deck = new_deck(user)
    client.force_login(other_user)
    for name in ("deck", "search"):
        assert client.get(reverse(f"builder:{name}", args=[deck.pk])).status_code == 404
    for name in ("change", "options", "meta"):
        r = client.post(
            reverse(f"builder:{name}", args=[deck.pk]),
            {"op": "add", "section": "arsenal", "card": "Tigercat", "name": "mine now"},
            **HTMX,
        )
        assert r.status_code == 404
    deck.refresh_from_db()
    assert deck.current_version is None and deck.name == "Test deck"


def test_bad_changes_are_400(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    assert (
        change(signed_in, deck, None, op="add", section="nowhere", card="Tigercat").status_code
        == 400
    )
    assert (
        change(signed_in, deck, None, op="explode", section="arsenal", card="x").status_code == 400
    )
    assert (
        change(
            signed_in, deck, None, op="set", section="arsenal", card="x", count="many"
        ).status_code
        == 400
    )


def test_an_unknown_card_is_not_saved(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    r = change(signed_in, deck, None, op="add", section="arsenal", card="Tigercatt")
    assert r.status_code == 200
    assert "Not saved" in r.content.decode()
    assert current(deck) is None


def test_search_uses_the_query_language_and_offers_the_sections_a_card_fits(
    signed_in, sample_catalogue, user
):
    deck = new_deck(user, fmt="scenario")
    url = reverse("builder:search", args=[deck.pk])
    html = signed_in.get(url, {"q": "kind:efreet speed>=6"}, **HTMX).content.decode()
    fast = Card.objects.filter(
        game__slug="redline", kind="efreet", attributes__speed__gte=6
    ).values_list("name", flat=True)
    assert fast and html.count('class="b-result"') == len(fast)
    assert all(f'data-card="{name}"' in html for name in fast)
    assert "Read as" not in html  # the query as typed: nothing to add
    html = signed_in.get(url, {"q": "tigercat"}, **HTMX).content.decode()
    assert 'data-card="Tigercat"' in html and 'data-section="arsenal"' in html
    html = signed_in.get(url, {"kind": "mission"}, **HTMX).content.decode()
    # a mission goes in the mission deck or the red line, never the arsenal
    assert 'data-section="missions"' in html and 'data-section="red_line"' in html
    assert 'data-section="arsenal"' not in html
    html = signed_in.get(url, {"faction": "cpm", "kind": "general"}, **HTMX).content.decode()
    assert "General Koskof" in html and "General Jeffrey Moore" not in html


def test_section_kinds_follow_the_rules_core(sample_catalogue):
    def kinds(slug, fmt):
        game = registry.get(slug)
        return {s: set(k) for s, k in builder.section_kinds(game, game.format(fmt)).items()}

    redline = kinds("redline", "scenario")
    assert redline["general"] == {"general"}
    assert redline["arsenal"] == {"efreet", "equipment", "tactic", "strategy", "resource"}
    assert redline["red_line"] == {"mission"} == redline["missions"]
    assert redline["critical_hits"] == {"critical_hit"}
    assert kinds("red-code", "arena")["blue"] == {"ship"}
    assert kinds("red-code", "arena")["orders"] == {"order"}
    assert kinds("hex-skirmish", "standard") == {"units": {"unit"}, "cards": {"command"}}
    assert kinds("tactical-assault", "custom") == {"force": {"unit_type"}, "deck": {"combat_card"}}
    assert kinds("red-mittens", "core")["items"] == {"item"}


def test_restrict_to_collection_limits_search_and_shows_missing_cards(
    signed_in, sample_catalogue, user
):
    from catalogue.models import Card

    deck = new_deck(user)
    change(signed_in, deck, None, op="set", section="arsenal", card="Tigercat", count="4")
    CollectionEntry.objects.create(
        owner=user, card=Card.objects.get(game__slug="redline", name="Tigercat"), count=1
    )
    url = reverse("builder:search", args=[deck.pk])
    html = signed_in.get(url, {"owned": "1"}, **HTMX).content.decode()
    assert 'data-card="Tigercat"' in html and 'data-card="Rabbit"' not in html
    assert 'id="missing-box" hx-swap-oob="true"' in html
    assert "3 Tigercat" in html
    r = change(signed_in, deck, 1, op="add", section="arsenal", card="Rabbit", owned="1")
    html = r.content.decode()
    assert "1 Rabbit" in html and "3 Tigercat" in html


def test_redline_general_picker_and_faction_rule(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    change(signed_in, deck, None, op="set", section="arsenal", card="Tigercat", count="2")
    r = change(signed_in, deck, 1, op="replace", section="general", cards="General Koskof")
    assert entries(deck)[("general", "General Koskof")] == 1
    html = r.content.decode()
    assert 'data-code="arsenal.faction"' in html
    assert 'class="b-row involved" data-card="Tigercat"' in html
    r = change(signed_in, deck, 2, op="replace", section="general", cards="General Ronin")
    assert ("general", "General Koskof") not in entries(deck)
    assert 'data-code="arsenal.faction"' not in r.content.decode()


def test_redline_scenario_red_line_positions(signed_in, sample_catalogue, user):
    deck = new_deck(user, fmt="scenario")
    html = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'id="red-line"' in html and "Position 5" in html
    missions = ["Fuel Depot", "Hardened Bunker", "Comms Relay Tower", "Abandoned Arcology", "Open"]
    missions[-1] = "Tycho Crater Outpost"
    r = signed_in.post(
        reverse("builder:change", args=[deck.pk]),
        {"op": "replace", "section": "red_line", "cards": missions, "base": ""},
        **HTMX,
    )
    v = current(deck)
    assert [e["card"] for e in v.entries if e["section"] == "red_line"] == missions
    assert "scenario.red_line" not in r.content.decode()


def test_tactical_assault_custom_points_option_and_threshold(signed_in, sample_catalogue, user):
    deck = new_deck(user, game="tactical-assault", fmt="custom")
    from catalogue.models import Card

    unit = (
        Card.objects.filter(game__slug="tactical-assault", kind="unit_type").order_by("cost").last()
    )
    r = change(signed_in, deck, None, op="set", section="force", card=unit.name, count="4")
    html = r.content.decode()
    assert 'id="force-tally"' in html
    points = unit.cost * 4
    assert f'<b id="force-points">{points}</b>' in html
    r = signed_in.post(
        reverse("builder:options", args=[deck.pk]), {"points": "50", "base": "1"}, **HTMX
    )
    assert current(deck).options == {"points": 50}
    assert '<b id="force-limit">50</b>' in r.content.decode()


def test_red_code_layout_is_generated_reproducibly_and_stored_for_the_rules_core(
    signed_in, sample_catalogue, user
):
    deck = new_deck(user, game="red-code", fmt="arena")
    url = reverse("builder:options", args=[deck.pk])
    r = signed_in.post(url, {"layout": "1", "seed": "42", "base": ""}, **HTMX)
    html = r.content.decode()
    layout = current(deck).options["map"]
    assert layout["seed"] == 42 and len(layout["rows"]) == 3
    assert all(len(row) == 4 for row in layout["rows"])
    assert 'id="rc-map"' in html and '<b id="map-seed">42</b>' in html
    assert html.count('class="map-card') == 12
    assert "map.layout" not in current(deck).report.get("errors", []) and not [
        e for e in current(deck).report["errors"] if e["code"] == "map.layout"
    ]
    signed_in.post(url, {"layout": "1", "seed": "42", "base": "1"}, **HTMX)
    assert current(deck).options["map"] == layout  # same seed, same map: nothing to save
    assert current(deck).number == 1
    # ships by side
    r = signed_in.post(
        reverse("builder:change", args=[deck.pk]),
        {"op": "replace", "section": "blue", "cards": ["Barracuda"], "base": "1"},
        **HTMX,
    )
    r = signed_in.post(
        reverse("builder:change", args=[deck.pk]),
        {"op": "replace", "section": "red", "cards": ["Tempest"], "base": "2"},
        **HTMX,
    )
    assert current(deck).legal, current(deck).report


def test_red_mittens_core_deck_counters(signed_in, sample_catalogue, user):
    deck = new_deck(user, game="red-mittens", fmt="core")
    html = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'id="core-decks"' in html and html.count("0 / 20") >= 3


def test_hex_skirmish_placement_writes_hex_lines(signed_in, sample_catalogue, user):
    deck = new_deck(user, game="hex-skirmish")
    change(signed_in, deck, None, op="add", section="units", card="Lancers")
    change(signed_in, deck, 1, op="add", section="units", card="Pikemen")
    html = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert html.count('<g tabindex="0" class="cell') == 64
    change(signed_in, deck, 2, op="place", section="units", card="Lancers", to="2,3")
    r = change(signed_in, deck, 3, op="place", section="units", card="Pikemen", to="5,0")
    v = current(deck)
    assert "1 Lancers @2,3" in v.list_text and "1 Pikemen @5,0" in v.list_text
    assert not [e for e in v.report["errors"] if e["code"] == "army.deployment"]
    assert 'data-occupant="Lancers"' in r.content.decode()
    # moving onto an occupied hex is saved but reported by the rules core
    change(signed_in, deck, 4, op="place", section="units", card="Pikemen", to="2,3")
    v = current(deck)
    assert [e for e in v.report["errors"] if e["code"] == "army.deployment"]


def test_meta_saves_name_and_visibility(signed_in, sample_catalogue, user):
    deck = new_deck(user)
    r = signed_in.post(
        reverse("builder:meta", args=[deck.pk]),
        {"name": "Renamed", "visibility": "unlisted"},
        **HTMX,
    )
    deck.refresh_from_db()
    assert deck.name == "Renamed" and deck.visibility == "unlisted"
    assert deck.get_share_url() in r.content.decode()


def test_every_game_and_format_renders(signed_in, sample_catalogue, user):
    for game in registry.all():
        for fmt in game.formats:
            deck = new_deck(user, game=game.slug, fmt=fmt)
            r = signed_in.get(reverse("builder:deck", args=[deck.pk]))
            assert r.status_code == 200, (game.slug, fmt)


# --- Query counts: constant in the number of cards -------------------------------------------

REDLINE_CARDS = [
    "Tigercat", "Rabbit", "Kestrel", "Longbow", "Claymore", "Valkyrie", "Jackal", "Mule",
    "Warden", "Pulse Laser", "Focused Beam Array", "Hellfire Missile Pod", "Rail Cannon",
    "Targeting Uplink", "Ablative Plating", "Lieutenant Dale Okafor", "Full Salvo", "Close Call",
    "Smoke Screen", "Intel Sweep", "Dig In", "Forced March", "Orbital Drop", "Forward Repair Bay",
    "Earthshield Doctrine", "Supply Drop", "Hidden Supply Depot",
]  # fmt: skip


def _deck_with(user, n_lines: int):
    lines = "\n".join(f"2 {name}" for name in REDLINE_CARDS[:n_lines])
    return new_deck(user, text=f"General:\n1 General Jeffrey Moore\nArsenal:\n{lines}\n")


def _queries(client, fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = fn()
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_query_count_of_the_page_and_a_change_does_not_grow_with_the_deck(
    signed_in, sample_catalogue, user
):
    small, large = _deck_with(user, 3), _deck_with(user, 27)

    def page(deck):
        return lambda: signed_in.get(reverse("builder:deck", args=[deck.pk]))

    def add(deck):
        base = current(deck).number
        return lambda: change(signed_in, deck, base, op="add", section="arsenal", card="Tigercat")

    def search(deck):
        return lambda: signed_in.get(
            reverse("builder:search", args=[deck.pk]), {"q": "kind:efreet", "owned": "1"}, **HTMX
        )

    for make in (page, add, search):
        assert _queries(signed_in, make(small)) == _queries(signed_in, make(large)), make


def test_query_counts_are_pinned(
    signed_in, sample_catalogue, user, django_assert_num_queries, monkeypatch
):
    from datetime import date

    from catalogue import rulesets

    # A day with a sample rule set in effect and one upcoming (its effect is shown).
    monkeypatch.setattr(rulesets, "today", lambda: date(2026, 12, 15))
    deck = _deck_with(user, 27)
    # session, user, deck (+game, version), card facts, search results, generals; the
    # format's rule sets (the upcoming one's effect on the list is stored with the verdict);
    # the search results' figures (the owned copies, the built decks)
    with django_assert_num_queries(6 + 1 + 2):
        signed_in.get(reverse("builder:deck", args=[deck.pk]))
    # session, user, deck, card facts of the new list, the rule set in force and its facts
    # for the list's cards (entries, expansions, the cards printed in them), the save
    # (savepoint, locked deck, current version, insert, deck update, release), card facts for
    # the panels, generals; then the rule sets line the answer carries out of band (the
    # format's rule sets, and the upcoming one's effect on the working version, which is
    # not stored before the version is sealed: the rule sets in force and upcoming, their
    # entries, expansions and printed cards for the list's cards, the cards' facts)
    base = current(deck).number
    with django_assert_num_queries(16 + 8):
        change(signed_in, deck, base, op="add", section="arsenal", card="Tigercat")
