"""Card images at stable addresses (catalogue/card_images.py draws them).

`/cards/<game>/card/<id>/image.png` is the card's image as it is now: answered with an ETag
(the image's hash) and revalidated on every use, so a changed card shows at once. With
`?v=<hash>` (the address pages and exports write) it is kept for a year (`immutable`): the
hash changes with the card, so a changed card has a new address; an old hash is sent on to
the current one. `/cards/<game>/back.png` is the game's card back, alike.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods

from validation.registry import registry

from . import card_images
from .models import Card

YEAR = 365 * 24 * 3600


def _game(slug: str):
    if slug not in registry:
        raise Http404(f"no game {slug!r}")
    return registry.get(slug)


def card_image_url(game_slug: str, card) -> str:
    """The long-cached address of `card`'s image (a `Card` or its `CardFacts` with `pk`)."""
    game = registry.get(game_slug)
    facts = card.facts() if hasattr(card, "facts") else card
    digest = card_images.image_hash(game, facts)
    path = reverse("catalogue:card-image", args=[game_slug, card.pk])
    return f"{path}?{urlencode({'v': digest})}"


def back_image_url(game_slug: str) -> str:
    game = registry.get(game_slug)
    path = reverse("catalogue:card-back", args=[game_slug])
    return f"{path}?{urlencode({'v': card_images.back_hash(game)})}"


def _png(request, digest: str, draw, current_url: str) -> HttpResponse:
    asked = request.GET.get("v")
    if asked is not None and asked != digest:
        # A card changed since the address was written: its image now.
        return HttpResponseRedirect(f"{current_url}?{urlencode({'v': digest})}")
    etag = f'"{digest}"'
    if asked is None and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(draw(), content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = (
        f"public, max-age={YEAR}, immutable" if asked == digest else "public, no-cache"
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_http_methods(["GET", "HEAD"])
def card_image(request, game: str, pk: int):
    """A card's image, drawn from its data (one query)."""
    game_def = _game(game)
    card = get_object_or_404(Card.objects.filter(game__slug=game), pk=pk)
    facts = card.facts()
    digest = card_images.image_hash(game_def, facts)
    return _png(
        request,
        digest,
        lambda: card_images.card_png(game_def, facts, digest),
        reverse("catalogue:card-image", args=[game, pk]),
    )


@require_http_methods(["GET", "HEAD"])
def card_back(request, game: str):
    """The back of a game's cards (no query)."""
    game_def = _game(game)
    return _png(
        request,
        card_images.back_hash(game_def),
        lambda: card_images.back_png(game_def),
        reverse("catalogue:card-back", args=[game]),
    )
