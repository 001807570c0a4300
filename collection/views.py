"""The collection's pages: what the user owns (per expansion, the products and loose cards,
importing a list or a CSV file, the export and the wants as files), owning a whole product,
and marking a deck built. Their routes keep the decks app's names (`decks:collection`,
`decks:collection-product`, `decks:built`): decks/urls.py includes this app's urls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from catalogue.models import Expansion
from decks import services as deck_services
from decks.list_pages import list_form_page, list_invalid
from decks.lists import ListInvalid
from decks.models import Deck

from . import selectors, services
from .forms import CollectionImportForm, ProductForm
from .models import CollectionEntry, OwnedProduct


@login_required
@require_POST
def deck_built(request, pk: int):
    """Mark one of your decks built (its cards sit in a deck box) or not; back to the page
    the form was on (the deck page or the builder). Another user's deck is a 404."""
    deck = get_object_or_404(Deck.objects.owned_by(request.user), pk=pk)
    built = request.POST.get("built") == "1"
    deck_services.deck_set_built(deck=deck, built=built)
    messages.success(
        request,
        f"“{deck.name}” is {'built' if built else 'no longer built'}: every figure counts it now.",
    )
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, {request.get_host()}):
        return redirect(back)
    return redirect(deck)


def _imported_said(summary) -> str:
    """What an import holds, as a person reads it: "3 cards (2 different) and 2 products",
    a part left out when there is none of it."""
    parts = []
    if summary.cards:
        s = "s" if summary.cards != 1 else ""
        parts.append(f"{summary.cards} card{s} ({summary.distinct} different)")
    if summary.products:
        parts.append(f"{summary.products} product{'s' if summary.products != 1 else ''}")
    return " and ".join(parts) or "no card and no product"


@login_required
@require_http_methods(["GET", "POST"])
def collection(request, product_form: ProductForm | None = None):
    """What the user owns: per expansion, what they own of it and what they miss (the
    products and loose cards together); the products and loose cards; a form to own a whole
    product and one to import a list or a CSV file (or only check one); the export and the
    wants as files. (`product_form`: the product form refused, shown with its errors.)"""
    importing = request.method == "POST" and product_form is None
    form = CollectionImportForm(
        request.POST if importing else None, request.FILES if importing else None
    )
    context: dict = {"form": form, "product_form": product_form or ProductForm()}
    status = 400 if product_form is not None or (importing and not form.is_valid()) else 200
    if importing and form.is_valid():
        data = form.cleaned_data
        try:
            summary = services.collection_import(
                owner=request.user,
                game_slug=data["game"],
                text=data["list"] or "",
                csv_text=data["csv"],
                replace=data["replace"],
                dry_run=data["dry_run"],
            )
        except ListInvalid as exc:
            status = list_invalid(context, exc)
        else:
            said = _imported_said(summary)
            if summary.dry_run:
                context["dry_run"] = f"The file holds {said}; nothing was imported."
            else:
                messages.success(request, f"{said[0].upper()}{said[1:]} imported.")
                return redirect("decks:collection")
    context["completion"] = selectors.completion(owner=request.user)
    context["products"] = list(
        OwnedProduct.objects.filter(owner=request.user)
        .select_related("expansion__game")
        .order_by("expansion__game__position", "expansion__code")
    )
    context["entries"] = list(
        CollectionEntry.objects.filter(owner=request.user)
        .select_related("card__game")
        .order_by("card__game__position", "card__name")
    )
    return list_form_page(request, "collection/collection.html", form, context, status)


@login_required
@require_POST
def collection_product(request):
    """Own so many copies of a whole product (0 removes it); back to the collection page."""
    form = ProductForm(request.POST)
    if not form.is_valid():
        return collection(request, product_form=form)
    expansion = get_object_or_404(
        Expansion.objects.select_related("game"), pk=form.cleaned_data["expansion"]
    )
    count = form.cleaned_data["count"]
    services.product_set(owner=request.user, expansion=expansion, count=count)
    what = f"{expansion.game.name} {expansion.code}"
    if count:
        messages.success(request, f"You own {count} × {what}.")
    else:
        messages.success(request, f"{what} is no longer in your products.")
    return redirect("decks:collection")
