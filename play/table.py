"""A deck taken to the table: the page that keeps a deck readable offline on this device.

`/decks/<id>/table/` lists what is kept (what the tabletop app says a deck keeps: the deck's
page, its cards' pages and images, its printable sheet, its proxies and sheets, and its
tools' tables drawn as HTML, `tabletop.interface`; and the deck's campaigns' trackers,
this app's). static/js/table.js stores the page and every address it lists in the
browser's cache; the service worker (tabletop/offline.py) answers them when there is no
signal.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from cardsite.hooks import PageLink
from catalogue.models import Card
from catalogue.services import cards_by_kind
from decks.models import Deck
from tabletop.interface import deck_tables, table_cards, table_documents
from validation.registry import registry

from .models import Campaign


def table_link(deck: Deck) -> list[PageLink]:
    """The deck page's "Take to the table" button (the `deck_links` hook)."""
    if not deck.current_version_id or deck.game.slug not in registry:
        return []
    game = registry.get(deck.game.slug)
    odds = [t.label.lower() for t in game.tools if t.deck_table is not None]
    kept = "this deck, its cards, proxies and sheets" + (
        f" and the {', '.join(odds)} of its cards" if odds else ""
    )
    return [
        {
            "label": "Take to the table",
            "url": reverse("play:table", args=[deck.pk]),
            "id": "take-to-table",
            "help": f"keeps {kept} readable on this device without a signal",
        }
    ]


def table(request, pk: int):
    """The deck at the table (a deck the user may read by its id: their own or public)."""
    deck = get_object_or_404(
        Deck.objects.visible_to(request.user).select_related("game", "owner", "current_version"),
        pk=pk,
    )
    version = deck.current_version
    if version is None or deck.game.slug not in registry:
        raise Http404("this deck has no saved list yet")
    game = registry.get(deck.game.slug)
    names = sorted({e["card"].lower() for e in version.entries})
    cards = sorted(
        Card.objects.filter(game_id=deck.game_id, name__in=[e["card"] for e in version.entries]),
        key=lambda c: c.name.lower(),
    )
    by_name = {c.name.lower(): c for c in cards}
    missing = [n for n in names if n not in by_name]
    tables = deck_tables(
        game,
        [c.facts() for c in cards],
        lambda kinds: cards_by_kind(game_slug=game.slug, kinds=kinds),
    )
    documents = table_documents(deck, version, game)
    campaigns = [
        {"label": f"Campaign: {c.name}", "url": c.get_absolute_url()}
        for c in Campaign.objects.owned_by(request.user)
        .filter(players__deck=deck)
        .select_related("game")
        .distinct()
    ]
    for c in list(campaigns):
        campaigns.append({"label": c["label"] + " (standings)", "url": c["url"] + "standings/"})
    card_rows = table_cards(game, cards)
    keep = [request.get_full_path()]
    keep += [d["url"] for d in documents] + [c["url"] for c in campaigns]
    for row in card_rows:
        keep += [row["url"], row["by_name"], row["image"]]
    return render(
        request,
        "play/table.html",
        {
            "deck": deck,
            "version": version,
            "game": game,
            "documents": documents,
            "campaigns": campaigns,
            "cards": card_rows,
            "missing": missing,
            "tables": tables,
            "keep": {
                "deck": deck.pk,
                "title": f"{deck.name} ({game.name})",
                "url": request.get_full_path(),
                "urls": keep,
            },
        },
    )
