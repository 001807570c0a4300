"""Adding a card to a deck from the card's page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from cardsite.hostile import whole_number
from catalogue.models import Card
from validation.registry import registry

from .. import selectors, services
from ..lists import ListInvalid


@login_required
@require_http_methods(["GET", "POST"])
def card_to_deck(request, game: str, pk: int):
    """Add one copy of a card to one of the user's decks of its game, or to a new deck
    (`services.deck_add_card`: saved as a new version, the list changed as the builder
    changes it)."""
    card = get_object_or_404(Card.objects.select_related("game"), game__slug=game, pk=pk)
    game_def = registry.get(game)
    targets = selectors.card_targets(owner=request.user, card=card)
    error = ""
    if request.method == "POST":
        kind, _, value = request.POST.get("target", "").partition(":")
        deck = targets.deck(whole_number(value)) if kind == "deck" else None
        new_format = value if kind == "new" and value in targets.formats else ""
        if deck is None and not new_format:
            error = "Pick one of your decks, or a new deck."
        else:
            try:
                deck, where = services.deck_add_card(
                    owner=request.user, card=card, deck=deck, format=new_format
                )
            except services.VersionConflict:
                error = (
                    f"“{deck.name if deck else card.name}” was saved elsewhere just now; try again."
                )
            except ListInvalid as exc:
                error = "Not added: " + "; ".join(e["message"] for e in exc.errors)
            except ValueError as exc:
                error = f"Not added: {exc}"
            else:
                messages.success(request, f"Added 1 {card.name} to {where} of “{deck.name}”.")
                return redirect("builder:deck", deck.pk)
    return render(
        request,
        "decks/card_to_deck.html",
        {
            "card": card,
            "game": game_def,
            "decks": targets.decks,
            "formats": [(slug, fmt) for slug, (fmt, _) in targets.formats.items()],
            "error": error,
        },
        status=400 if error else 200,
    )
