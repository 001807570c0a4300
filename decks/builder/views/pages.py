"""The builder's pages: choosing a game and format, naming a new deck, the builder page of a
deck (its state and the first page of search results), the collection panel and the deck's
name and visibility."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.account_needed import account_needed
from decks import services, verdicts
from decks.lists import holdings
from decks.models import Visibility
from validation.registry import registry

from .context import builder_urls, owned_deck, state_context
from .listing import restricted
from .search import FIRST_RESULTS, search_context


@account_needed
def builder_start(request):
    """Choose a game and format for a new deck."""
    return render(request, "decks/builder/start.html", {"games": registry.all()})


@account_needed
@require_http_methods(["GET", "POST"])
def builder_new(request, game: str, format: str):
    """Name a new deck of `game`/`format` and open it in the builder."""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    game_def = registry.get(game)
    if format not in game_def.formats:
        raise Http404(f"no format {format!r}")
    fmt = game_def.format(format)
    name = f"My {game_def.name.split(':')[0]} {fmt.name.lower()} deck"
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()[:200]
        if not name:
            error = "Give the deck a name."
        else:
            deck = services.deck_create(
                owner=request.user, game_slug=game, format=format, name=name
            )
            return redirect("builder:deck", deck.pk)
    return render(
        request,
        "decks/builder/new.html",
        {"game": game_def, "fmt": fmt, "name": name, "error": error},
        status=400 if error else 200,
    )


@login_required
def builder_deck(request, pk: int):
    """The builder page of one of the user's decks."""
    deck = owned_deck(request, pk)
    rule_sets = verdicts.deck_rule_sets(deck=deck)
    context = state_context(request, deck, deck.current_version, rule_sets=rule_sets)
    # A deck restricted to the collection opens with the box ticked.
    version = deck.current_version
    owned = request.GET.get("owned") == "1" or bool(version and restricted(version.options))
    # The first page of results opens on its first rows (a small first document: a phone
    # paints it sooner); the rest come right after (`rest`, decks/builder/_results.html).
    # Without JavaScript the rest are behind a link to this page with them all (`rows=all`).
    search = search_context(request, deck, owned=owned)
    whole = request.GET.get("rows") == "all"
    if search["page"] == 1 and len(search["results"]) > FIRST_RESULTS and not whole:
        search["results"] = search["results"][:FIRST_RESULTS]
        search["rest"] = True
        query = request.GET.copy()
        query["rows"] = "all"
        search["rest_query"] = query.urlencode()
    context.update({"search_" + k: v for k, v in search.items()})
    context["visibilities"] = Visibility.choices
    context["share_url"] = request.build_absolute_uri(deck.get_share_url())
    context["rule_sets"] = rule_sets
    return render(request, "decks/builder/builder.html", context)


@login_required
def builder_availability(request, pk: int):
    """The deck's cards against the collection (owned · in your other built decks · free,
    and what is short), drawn in the builder's panel; its own request, so the builder's
    answers do not read it."""
    deck = owned_deck(request, pk)
    availability = holdings.availability(owner=request.user, deck=deck)
    return render(
        request,
        "decks/_availability.html",
        {
            "deck": deck,
            "availability": availability,
            "short": [a for a in availability if a["short"]],
            "next": reverse("builder:deck", args=[deck.pk]),
        },
    )


@login_required
@require_POST
def builder_meta(request, pk: int):
    """Save the deck's name and visibility (its list is autosaved already)."""
    deck = owned_deck(request, pk)
    name = request.POST.get("name", "").strip()[:200] or deck.name
    visibility = request.POST.get("visibility", deck.visibility)
    if visibility not in Visibility.values:
        return HttpResponseBadRequest("unknown visibility")
    services.deck_update(deck=deck, name=name, visibility=visibility)
    context = {
        "deck": deck,
        "visibilities": Visibility.choices,
        "share_url": request.build_absolute_uri(deck.get_share_url()),
        "urls": builder_urls(deck),
        "saved": True,
    }
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    return render(request, "decks/builder/_meta.html", context)
