"""Finding the deck a page may show (scoped in the query) and the links of its read pages."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse

from cardsite.hostile import whole_number

from .. import exports, verdicts
from ..models import Deck, DeckVersion, RetiredShareToken


def readable(request, *, pk: int | None = None, token: str | None = None) -> Deck:
    """The deck the request may read: by id among the decks visible to the user, or by a
    share token. Anything else is a 404, whether or not the deck exists. A verdict checked
    under a rule set no longer in effect for the deck is re-checked at once (written
    through), so the page shows today's."""
    qs = verdicts.with_in_force(Deck.objects.select_related("game", "owner", "current_version"))
    if token is not None:
        deck = qs.shared(token).first()
        if deck is None:
            retired = RetiredShareToken.objects.filter(token=token).first()
            if retired is not None:
                raise ShareLinkRetired(retired)
            raise Http404("no deck is shared with this link")
    else:
        deck = get_object_or_404(qs.visible_to(request.user), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


class ShareLinkRetired(Http404):
    """A share link its owner replaced or withdrew: the 404 page says so."""

    def __init__(self, retired: RetiredShareToken):
        super().__init__(retired.get_reason_display())
        self.heading = retired.get_reason_display()
        if retired.reason == RetiredShareToken.Reason.REPLACED:
            self.explanation = "Ask the person who sent it for the new link."
        else:
            self.explanation = "The deck is no longer shared by link; ask its owner."


def owned(request, pk: int) -> Deck:
    qs = Deck.objects.owned_by(request.user).select_related("game", "owner", "current_version")
    deck = get_object_or_404(verdicts.with_in_force(qs), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


def version_of(deck: Deck, number: int | None) -> DeckVersion | None:
    if number is None or (deck.current_version and deck.current_version.number == number):
        return deck.current_version
    return get_object_or_404(DeckVersion.objects.filter(deck=deck), number=number)


def int_param(request, name: str) -> int | None:
    """A whole number of ASCII digits (at most 9), else None (no such parameter)."""
    return whole_number(request.GET.get(name, ""))


def deck_urls(deck: Deck, token: str | None) -> dict[str, str]:
    """Links of the deck's read pages, by id or through the share link."""
    if token is not None:
        exported = {
            f"export_{kind}": reverse("decks:shared-export", args=[token, kind])
            for kind in exports.FORMATS
        }
    else:
        exported = {
            f"export_{kind}": reverse("decks:export", args=[deck.pk, kind])
            for kind in exports.FORMATS
        }
    return exported | _read_urls(deck, token)


def _read_urls(deck: Deck, token: str | None) -> dict[str, str]:
    if token is not None:
        return {
            "detail": reverse("decks:shared", args=[token]),
            "export_text": reverse("decks:shared-export", args=[token, "text"]),
            "export_json": reverse("decks:shared-export", args=[token, "json"]),
            "print": reverse("decks:shared-export", args=[token, "print"]),
            "diff": reverse("decks:shared-diff", args=[token]),
            "clone": reverse("decks:shared-clone", args=[token]),
        }
    return {
        "detail": reverse("decks:detail", args=[deck.pk]),
        "export_text": reverse("decks:export", args=[deck.pk, "text"]),
        "export_json": reverse("decks:export", args=[deck.pk, "json"]),
        "print": reverse("decks:export", args=[deck.pk, "print"]),
        "diff": reverse("decks:diff", args=[deck.pk]),
        "clone": reverse("decks:clone", args=[deck.pk]),
    }
