"""Creating a deck: a new one, or one imported from a list."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from cardsite.account_needed import account_needed

from .. import services
from ..forms import DeckNewForm, default_game_format
from ..list_pages import list_form_page as _list_form_page
from ..list_pages import list_invalid as _list_invalid
from ..lists import ListInvalid


def _new(request, *, list_required: bool):
    # Importing, the menu opens on "as the list says" (the list's lines, else its sections
    # and cards); a new deck opens on the first format.
    form = DeckNewForm(
        request.POST or None,
        request.FILES or None,
        list_required=list_required,
        initial={
            "game_format": request.GET.get("f") or ("" if list_required else default_game_format())
        },
    )
    context = {"form": form, "importing": list_required}
    status = 200
    if request.method == "POST" and form.is_valid():
        game_slug, fmt = form.split()
        try:
            deck = services.deck_create(
                owner=request.user,
                game_slug=game_slug,
                format=fmt,
                name=form.cleaned_data["name"],
                description=form.cleaned_data.get("description", ""),
                visibility=form.cleaned_data["visibility"],
                text=form.list_text(),
                options=form.options(),
            )
        except ListInvalid as exc:
            status = _list_invalid(context, exc)
            _keep_list_text(form)
        except services.DeckInvalid as exc:
            for field, errs in exc.errors.items():
                form.add_error("game_format" if field in {"game", "format"} else None, errs)
            status = 400
        else:
            messages.success(request, f"Deck “{deck.name}” created.")
            if form.recognised:
                messages.info(request, form.recognised)
            return redirect(deck)
    return _list_form_page(request, "decks/new.html", form, context, status)


def _keep_list_text(form) -> None:
    """A refused list read from a file is shown in the paste box, so that a fix (a click on
    a suggested name) edits it and the next import reads it."""
    if form.cleaned_data.get("file") and form.cleaned_data.get("list"):
        form.data = form.data.copy()
        form.data["list"] = form.cleaned_data["list"]


@account_needed
@require_http_methods(["GET", "POST"])
def deck_new(request):
    return _new(request, list_required=False)


@account_needed
@require_http_methods(["GET", "POST"])
def deck_import(request):
    return _new(request, list_required=True)
