"""The owner's writes to a deck: clone, edit the list, pin a rule set, settings, delete,
a new share link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..forms import DeckEditForm, DeckSettingsForm
from ..list_pages import list_form_page as _list_form_page
from ..list_pages import list_invalid as _list_invalid
from ..lists import ListInvalid
from .lookups import owned, readable

CONFLICT_MESSAGE = (
    "This deck was saved elsewhere since you opened it (version {n}). "
    "Your changes were not saved: reload and merge."
)


@login_required
@require_POST
def deck_clone(request, pk: int):
    return _clone(request, readable(request, pk=pk))


@login_required
@require_POST
def deck_shared_clone(request, token: str):
    return _clone(request, readable(request, token=token))


def _clone(request, source):
    clone = services.deck_clone(deck=source, owner=request.user)
    messages.success(request, f"Cloned into your decks as “{clone.name}”.")
    return redirect(clone)


@login_required
@require_http_methods(["GET", "POST"])
def deck_edit(request, pk: int):
    """The list as text; saving adds a version, refused when the deck was saved since."""
    deck = owned(request, pk)
    current = deck.current_version
    initial = {
        "list": current.list_text if current else "",
        "base_version": current.number if current else None,
        "points": (current.options.get("points") if current else None),
        "collection": bool(current and current.options.get("collection") is True),
    }
    form = DeckEditForm(request.POST or None, initial=initial)
    if "points" not in deck.game.definition.format(deck.format).adjustable:
        del form.fields["points"]  # only formats with an agreed total take one
    context: dict = {"deck": deck, "form": form, "game": deck.game.definition}
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            version = services.deck_save_version(
                deck=deck,
                author=request.user,
                text=form.cleaned_data["list"],
                options=form.options(),
                based_on=form.cleaned_data.get("base_version"),
            )
        except services.VersionConflict as exc:
            context["conflict"] = CONFLICT_MESSAGE.format(n=exc.current_number)
            status = 409
        except ListInvalid as exc:
            status = _list_invalid(context, exc)
        except services.DeckInvalid as exc:
            for errs in exc.errors.values():
                form.add_error(None, errs)
            status = 400
        else:
            messages.success(request, f"Saved version {version.number}.")
            return redirect(deck)
    return _list_form_page(request, "decks/edit.html", form, context, status)


@login_required
@require_POST
def deck_rule_set(request, pk: int):
    """Pin the owner's deck to a rule set of its format (`rule_set`: a code), or let it
    follow the format (empty); the deck is re-checked at once."""
    deck = owned(request, pk)
    code = request.POST.get("rule_set", "").strip()[:40]
    try:
        services.deck_pin(deck=deck, code=code or None)
    except services.DeckInvalid as exc:
        messages.error(request, " ".join(exc.errors.get("rule_set", [])))
    else:
        messages.success(
            request, f"Pinned to {code}." if code else "The deck follows its format again."
        )
    return redirect(request.POST.get("next") if _safe_next(request) else deck)


def _safe_next(request) -> bool:
    target = request.POST.get("next", "")
    return bool(target) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


@login_required
@require_http_methods(["GET", "POST"])
def deck_settings(request, pk: int):
    deck = owned(request, pk)
    form = DeckSettingsForm(request.POST or None, instance=deck)
    if request.method == "POST" and form.is_valid():
        services.deck_update(
            deck=deck,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            visibility=form.cleaned_data["visibility"],
        )
        messages.success(request, "Saved.")
        return redirect(deck)
    return render(request, "decks/settings.html", {"deck": deck, "form": form})


@login_required
@require_POST
def deck_delete(request, pk: int):
    deck = owned(request, pk)
    name = deck.name
    services.deck_delete(deck=deck)
    messages.success(request, f"Deck “{name}” deleted.")
    return redirect("decks:mine")


@login_required
@require_POST
def deck_new_link(request, pk: int):
    """Replace the share link of one of the user's decks; the old link stops working."""
    deck = owned(request, pk)
    services.deck_new_share_link(deck=deck)
    messages.success(request, "The deck has a new share link; the old one no longer works.")
    return redirect(deck.get_absolute_url() + "#share-link")
