"""The builder as players use it: the deck grouped by kind, a search panel that opens on the
main section's kinds with every stat and pages past 40, keyboard quick-add with typos, the
sticky legality bar, and autosave that keeps a session of edits as one working version."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from decks import services
from decks.models import DeckVersion
from tests.decks.conftest import sample_list
from validation.packages import main_sample_list
from validation.registry import registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _deck(user, game="redline", fmt="standard", text=None):
    return services.deck_create(owner=user, game_slug=game, format=fmt, name="Deck", text=text)


def _names(html: str, cls: str) -> list[str]:
    return re.findall(rf'<tr class="{cls}[^"]*" data-card="([^"]+)"', html)


def test_the_deck_is_grouped_by_kind_and_sorted_by_cost_then_name(
    signed_in, sample_catalogue, user
):
    deck = _deck(user, text=sample_list("redline", "standard"))
    html = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    arsenal = html[html.index('id="section-arsenal"') : html.index('id="section-missions"')]
    groups = re.findall(
        r'<tr class="b-group" data-kind="(\w+)"(?: id="[^"]+")?><th colspan="2">([^<]+) <small class="muted">\((\d+)\)',
        arsenal,
    )
    assert [g[0] for g in groups] == ["efreet", "equipment", "tactic", "resource"]
    assert sum(int(g[2]) for g in groups) == 60
    assert dict((g[0], int(g[2])) for g in groups)["resource"] == 24
    efreets = arsenal[arsenal.index('data-kind="efreet"') : arsenal.index('data-kind="equipment"')]
    costs_names = re.findall(r'data-card="([^"]+)".*?cost (\d+)</small>', efreets, re.S)
    keys = [(int(c), n.lower()) for n, c in costs_names]
    assert keys == sorted(keys) and len(keys) == 5
    # A section of one kind has no group header.
    missions = html[html.index('id="section-missions"') :]
    assert 'class="b-group"' not in missions[: missions.index("</table>")]


def test_search_opens_on_the_main_sections_kinds_with_every_stat(signed_in, sample_catalogue, user):
    deck = _deck(user)
    html = signed_in.get(reverse("builder:search", args=[deck.pk]), **HTMX).content.decode()
    first = _names(html, "b-result")[:10]
    from catalogue.models import Card

    kinds = dict(
        Card.objects.filter(game__slug="redline", name__in=first).values_list("name", "kind")
    )
    assert set(kinds.values()) <= {"efreet", "equipment", "tactic", "strategy", "resource"}
    html = signed_in.get(
        reverse("builder:search", args=[deck.pk]), {"q": "Jackal"}, **HTMX
    ).content.decode()
    row = html[html.index('data-card="Jackal"') :][:600]
    for stat in ("Class", "Damage", "Armor", "Speed"):
        assert stat in row, stat


def test_more_than_forty_results_are_paged(signed_in, sample_catalogue, user):
    deck = _deck(user, game="tactical-assault", fmt="standard")
    url = reverse("builder:search", args=[deck.pk])
    one = signed_in.get(url, **HTMX).content.decode()
    two = signed_in.get(url, {"page": "2"}, **HTMX).content.decode()
    three = signed_in.get(url, {"page": "3"}, **HTMX).content.decode()
    p1, p2, p3 = _names(one, "b-result"), _names(two, "b-result"), _names(three, "b-result")
    assert len(p1) == 40 and len(p2) == 40 and len(p3) == 11  # 91 cards
    assert not set(p1) & set(p2) and not set(p2) & set(p3)
    assert "Next 40" in one and "Previous 40" in two and "Next 40" not in three
    assert "Cards 41–80" in two
    for hostile in ("abc", "-3", "9" * 30, "1e9"):
        assert signed_in.get(url, {"page": hostile}, **HTMX).status_code == 200


def test_quick_add_takes_exact_names_and_typos_and_says_when_nothing_matches(
    signed_in, sample_catalogue, user
):
    deck = _deck(user)
    url = reverse("builder:quick", args=[deck.pk])
    r = signed_in.post(url, {"name": "tigercat", "base": ""}, **HTMX)
    html = r.content.decode()
    assert "Added 1 Tigercat to Arsenal." in html
    v = DeckVersion.objects.get(deck=deck, number=1)
    r = signed_in.post(url, {"name": "tigrcat", "base": "1", "rev": "0"}, **HTMX)
    assert "Added 1 Tigercat to Arsenal." in r.content.decode()
    r = signed_in.post(url, {"name": "general koskof", "base": "1", "rev": "1"}, **HTMX)
    assert "Added 1 General Koskof to General." in r.content.decode()
    v = DeckVersion.objects.get(deck=deck, number=1)
    assert {(e["section"], e["card"]): e["count"] for e in v.entries} == {
        ("arsenal", "Tigercat"): 2,
        ("general", "General Koskof"): 1,
    }
    r = signed_in.post(url, {"name": "zzqqxx", "base": "1", "rev": "2"}, **HTMX)
    assert "No card of REDLINE: Tactical Card Combat matches “zzqqxx”." in r.content.decode()
    r = signed_in.post(url, {"name": "   ", "base": "1", "rev": "2"}, **HTMX)
    assert "Type a card name." in r.content.decode()
    assert DeckVersion.objects.get(deck=deck, number=1).revision == 2


def test_quick_add_cannot_touch_another_users_deck(client, sample_catalogue, user, other_user):
    deck = _deck(user)
    client.force_login(other_user)
    r = client.post(reverse("builder:quick", args=[deck.pk]), {"name": "Tigercat"}, **HTMX)
    assert r.status_code == 404
    assert not DeckVersion.objects.filter(deck=deck).exists()


def test_edits_within_minutes_are_one_working_version_and_save_seals_it(
    signed_in, sample_catalogue, user
):
    deck = _deck(user)
    change = reverse("builder:change", args=[deck.pk])

    def add(base, rev, card="Tigercat"):
        data = {"op": "add", "section": "arsenal", "card": card, "base": base, "rev": rev}
        return signed_in.post(change, data, **HTMX).content.decode()

    assert "Saved version 1." in add("", "0")
    assert "Saved (working version 1)." in add("1", "0")
    add("1", "1", "Rabbit")
    v = DeckVersion.objects.get(deck=deck)
    assert (v.number, v.revision, v.sealed) == (1, 2, False)
    assert DeckVersion.objects.filter(deck=deck).count() == 1
    # A tab still at revision 1 is refused, not silently overwriting the newer edit.
    html = add("1", "1", "Longbow")
    assert "saved elsewhere" in html
    assert DeckVersion.objects.get(deck=deck).revision == 2
    # "Save version" seals it with a note; the next edit starts version 2.
    html = signed_in.post(
        reverse("builder:seal", args=[deck.pk]),
        {"base": "1", "note": "  before the tournament "},
        **HTMX,
    ).content.decode()
    assert "Version 1 saved (before the tournament)." in html
    v.refresh_from_db()
    assert v.sealed and v.note == "before the tournament"
    assert "Saved version 2." in add("1", "2")
    assert DeckVersion.objects.filter(deck=deck).count() == 2
    # After the window, an edit starts a new version and seals the old working one.
    DeckVersion.objects.filter(deck=deck, number=2).update(
        updated_at=timezone.now() - timedelta(seconds=services.WORKING_WINDOW_SECONDS + 5)
    )
    assert "Saved version 3." in add("2", "0")
    assert DeckVersion.objects.get(deck=deck, number=2).sealed
    assert not DeckVersion.objects.get(deck=deck, number=3).sealed
    # A client that sends no revision gets a version per change, as before.
    signed_in.post(
        change, {"op": "add", "section": "arsenal", "card": "Rabbit", "base": "3"}, **HTMX
    )
    assert DeckVersion.objects.filter(deck=deck).count() == 4


def test_the_history_is_paged_and_shows_notes(signed_in, sample_catalogue, user):
    deck = _deck(user, text="Arsenal:\n1 Tigercat\n")
    for n in range(2, 26):
        services.deck_save_version(
            deck=deck, author=user, text=f"Arsenal:\n{n % 4 + 1} Tigercat\n", based_on=n - 1
        )
    services.deck_seal_version(deck=deck, note="last one")
    html = signed_in.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    rows = re.findall(
        r'<tr class="version-row[^"]*"><td class="stack-title"><a href="[^"]+">(\d+)</a>', html
    )
    assert rows == [str(n) for n in range(25, 5, -1)]
    assert "last one" in html and "Older versions" in html and "page 1 of 2" in html
    html = signed_in.get(reverse("decks:detail", args=[deck.pk]), {"vp": "2"}).content.decode()
    rows = re.findall(
        r'<tr class="version-row[^"]*"><td class="stack-title"><a href="[^"]+">(\d+)</a>', html
    )
    assert rows == [str(n) for n in range(5, 0, -1)]
    assert (
        signed_in.get(reverse("decks:detail", args=[deck.pk]), {"vp": "x" * 500}).status_code == 200
    )


@pytest.mark.parametrize(
    "game,fmt",
    [(s.game, s.format) for s in map(main_sample_list, registry.slugs())],
)
def test_every_game_has_the_sticky_legality_bar_and_quick_add(
    game, fmt, signed_in, sample_catalogue, user
):
    deck = _deck(user, game=game, fmt=fmt, text=sample_list(game, fmt))
    html = signed_in.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    bar = html[html.index('id="legality-bar"') :][:800]
    assert "Legal" in bar
    assert 'id="quick-add"' in html and 'id="seal-form"' in html


def test_query_counts_of_quick_add_seal_and_a_working_rewrite_are_pinned(
    signed_in, sample_catalogue, user, django_assert_num_queries
):
    deck = _deck(user, text=sample_list("redline", "standard"))
    quick = reverse("builder:quick", args=[deck.pk])
    # session, user, deck, exact-name lookup, card facts, the rule set in force and its facts
    # for the list's cards (entries, expansions, the cards printed in them), the save
    # (savepoint, locked deck, current version, insert, deck update, release), panel card
    # facts, generals; then the line for the upcoming rule set, current after each change:
    # the format's rule sets, the facts of the one in force and of the upcoming one for the
    # list's cards (entries, expansions, printings each), the list's cards
    with django_assert_num_queries(17 + 8):
        signed_in.post(quick, {"name": "Tigercat", "base": "1", "rev": "0"}, **HTMX)
    # a typo adds the fuzzy search's queries (on PostgreSQL the game's number of cards, kept
    # five minutes, which says whether the search is sized from a sample first, and the
    # search; on SQLite the candidates' names, then the close ones, matched in Python);
    # rewriting the working version in place costs an update and a read of it instead of
    # the insert
    with django_assert_num_queries(20 + 8):
        signed_in.post(quick, {"name": "Tigrcat", "base": "2", "rev": "0"}, **HTMX)
    # session, user, deck, the version, seal, re-read, panel card facts, generals; the
    # sealed version's upcoming effect stored with its verdict (the format's rule sets, the
    # one in effect and the upcoming one for the list's cards: entries, expansions,
    # printings each; the list's cards; the deck's update), then the panel's rule sets line
    # (the format's rule sets, read once more)
    with django_assert_num_queries(8 + 10):
        signed_in.post(reverse("builder:seal", args=[deck.pk]), {"base": "2"}, **HTMX)
