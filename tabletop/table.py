"""What a deck taken to the table keeps on the device: its documents (the deck's page, the
printable sheet, the PDFs of its exports), its cards' pages and images, and, for every tool
of the game that computes a table for a deck (`Tool.deck_table`: the odds of each of the
deck's units against every target, say), that table, computed here by the server: offline
it is read, never computed (no rule is written in JavaScript).

The page itself, `/decks/<id>/table/` ("Take to the table"), is the play app's
(play/table.py): its address is in play's names (`play:table`) and it lists the deck's
campaigns beside what is kept here. static/js/table.js stores the page and every address it
lists in the browser's cache; the service worker (tabletop/offline.py) answers them when
there is no signal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.template.defaultfilters import urlencode as urlencode_filter
from django.urls import reverse
from django.utils.http import urlencode

from catalogue.image_views import card_image_url
from catalogue.models import Card
from decks.exports import FORMATS
from validation.capabilities import ToolInputError
from validation.registry import GameDef
from validation.types import CardFacts

#: The exports kept at the table, in the order listed (the unit sheet for a game with one).
KEPT_EXPORTS = ("sheet", "proxies", "units")


def deck_tables(
    game: GameDef,
    deck_cards: Sequence[CardFacts],
    pool_for: Callable[[Iterable[str]], Any],
) -> list[dict[str, Any]]:
    """Each tool's table for the deck: {"label", "result"} or {"label", "error"}."""
    out: list[dict[str, Any]] = []
    for tool in game.tools:
        if tool.deck_table is None:
            continue
        mine = [c for c in deck_cards if c.kind in tool.reads]
        if not mine:
            continue
        try:
            result = tool.deck_table(mine, pool_for(tool.card_kinds))
        except ToolInputError as exc:
            out.append({"label": tool.label, "error": exc.message})
            continue
        out.append({"label": tool.label, "slug": tool.slug, "result": result})
    return out


def table_documents(deck, version, game: GameDef) -> list[dict[str, str]]:
    """The deck's documents kept at the table: its page, the printable sheet's page and the
    exports of `KEPT_EXPORTS` (of the version, `?v=`)."""
    v = urlencode({"v": version.number})
    documents = [
        {"label": "The deck's page", "url": deck.get_absolute_url()},
        {
            "label": "Tournament sheet (page)",
            "url": reverse("decks:export", args=[deck.pk, "print"]) + "?" + v,
        },
    ]
    for kind in KEPT_EXPORTS:
        if kind == "units" and not game.unit_sheet:
            continue
        documents.append(
            {
                "label": FORMATS[kind].label,
                "url": reverse("decks:export", args=[deck.pk, kind]) + "?" + v,
            }
        )
    return documents


def table_cards(game: GameDef, cards: Iterable[Card]) -> list[dict[str, Any]]:
    """Each card's row: the card, its page, its image and its page by name."""
    by_name_url = reverse("catalogue:card-by-name", args=[game.slug])
    return [
        {
            "card": c,
            "url": c.get_absolute_url(),
            "image": card_image_url(game.slug, c),
            # Written as the deck page writes it (Django's urlencode filter: %20, not +),
            # so that the address kept is the address a tap asks for.
            "by_name": f"{by_name_url}?name={urlencode_filter(c.name)}",
        }
        for c in cards
    ]
