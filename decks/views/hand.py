"""A sample hand dealt from a deck (stateless: the same link shows the same hand)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from .. import selectors
from ..models import Deck
from .lookups import deck_urls, int_param, readable, version_of


def _hand(request, deck: Deck, *, token: str | None):
    """Deal a sample hand of the deck's drawn sections: `?seed=` fixes the shuffle (a new
    one when missing), `?<section>=n` draws n more cards after the opening hand, `?v=` picks
    a version. Stateless, so the same link shows the same hand."""
    rules = selectors.drawn_sections(deck.game.slug)
    version = version_of(deck, int_param(request, "v"))
    if not rules or version is None:
        raise Http404("This deck has no section that is drawn as a hand.")
    seed = int_param(request, "seed")
    if seed is None or not 0 < seed <= selectors.MAX_SEED:
        seed = selectors.new_seed()
    extra = {r.section: int_param(request, r.section) or 0 for r in rules}
    hand = selectors.sample_hand(deck=deck, version=version, seed=seed, extra=extra)
    base = (
        reverse("decks:shared-hand", args=[token])
        if token is not None
        else reverse("decks:hand", args=[deck.pk])
    )
    context = {
        "deck": deck,
        "version": version,
        "hand": hand,
        "seed": seed,
        "hand_url": base,
        "urls": deck_urls(deck, token),
        # Per section: the query that draws one more card there and keeps the others.
        "rows": [
            {
                "s": s,
                "next": "&".join(
                    f"{o.section}={o.drawn_count + (o.section == s.section)}" for o in hand
                ),
            }
            for s in hand
        ],
    }
    template = "decks/_sample_hand.html" if request.htmx else "decks/sample_hand.html"
    return render(request, template, context)


def deck_hand(request, pk: int):
    return _hand(request, readable(request, pk=pk), token=None)


def deck_shared_hand(request, token: str):
    return _hand(request, readable(request, token=token), token=token)
