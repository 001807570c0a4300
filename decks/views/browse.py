"""Lists of decks: the user's own, and the public ones per game."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from catalogue.models import Game
from validation.registry import registry

from .. import selectors, verdicts


@login_required
def my_decks(request):
    """The user's decks with the current verdict of each (a constant number of queries)."""
    decks = selectors.deck_list_for_owner(owner=request.user)
    verdicts.decks_refresh(decks)
    return render(request, "decks/mine.html", {"decks": decks})


def public_decks(request, game: str | None = None):
    """Public decks, per game, searchable by name."""
    games = list(Game.objects.all())
    current = None
    if game is not None:
        current = next((g for g in games if g.slug == game), None)
        if current is None:
            raise Http404(f"no game {game!r}")
    q = request.GET.get("q", "").strip()[:100]
    formats = sorted(
        {f for g in registry.all() if current is None or g.slug == current.slug for f in g.formats}
    )
    legal_in = request.GET.get("legal", "")
    legal_in = legal_in if legal_in in formats else ""
    page = Paginator(
        selectors.deck_public_list(game_slug=game, query=q, legal_in=legal_in),
        50,
        allow_empty_first_page=True,
    ).get_page(request.GET.get("page"))
    # The few decks of the page checked under yesterday's rule set, re-checked at once.
    verdicts.decks_refresh(page.object_list)
    return render(
        request,
        "decks/public.html",
        {
            "games": games,
            "game": current,
            "q": q,
            "page": page,
            "decks": page.object_list,
            "formats": formats,
            "legal_in": legal_in,
        },
    )
