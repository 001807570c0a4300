"""Browse pages: games, card grids and lists, card and expansion pages, search help."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control

from cardsite import hooks
from cardsite.throttling import page_throttle
from validation.registry import GameDef, registry
from validation.trace import codes_without_source

from . import card_images, rulesets
from . import hooks as catalogue_hooks
from .image_views import card_image_url
from .models import Card, Expansion, Game, collector_order
from .paging import (
    COUNT_CAP,
    WalkPaginator,
    after_key,
    after_token,
    after_walk,
    follows_name_order,
    search_walk,
)
from .presentation import (
    SUGGESTIONS,
    bare_words,
    face_context,
    labelled_attributes,
    search_reading,
    stat_line,
)
from .search import close_name_ids, picked_kind_and_faction, search_cards
from .search.examples import examples, keys_of, vars_of
from .services import game_card_counts

SORTS = {
    "name": ("name",),
    "cost": ("cost", "name"),
    "-cost": ("-cost", "name"),
    "kind": ("kind", "name"),
    "faction": ("faction", "name"),
}
PAGE_SIZES = (24, 48, 96)
# The columns a card face needs.
FACE = ("id", "name", "kind", "faction", "cost", "attributes")


def index(request):
    game = request.GET.get("game", "")
    if game and game in registry:
        # A search box that names its game (the error pages'): that game's cards.
        query = request.GET.get("q", "").strip()
        target = reverse("catalogue:game", args=[game])
        return redirect(f"{target}?{urlencode({'q': query})}" if query else target)
    counts = game_card_counts()
    games = [(g, counts.get(g.slug, 0)) for g in registry.all()]
    return render(request, "catalogue/index.html", {"games": games})


def _example_card(game_slug: str) -> str:
    """A card name of the game for the examples, one of two words or more if any."""
    names = list(
        Card.objects.filter(game__slug=game_slug)
        .order_by("name")
        .values_list("name", flat=True)[:50]
    )
    return next((n for n in names if " " in n), names[0] if names else "")


def _placeholder(game_def) -> str:
    ex = examples(game_def)
    return "e.g. " + " ".join(t for t in (f"kind:{ex.kind}" if ex.kind else "", ex.number) if t)


def search_help(request):
    """The query language, with examples written from the game whose schema shows the most
    kinds of keys, and every game's keys."""
    games = registry.all()
    shown = max(games, key=lambda g: sum(bool(v) for v in vars_of(examples(g))), default=None)
    context: dict[str, Any] = {
        "games": [{"game": g, "kinds": keys_of(g)} for g in games],
        "example_game": shown,
    }
    if shown is not None:
        context["ex"] = examples(shown, _example_card(shown.slug))
        context["ex_set"] = (
            Expansion.objects.filter(game__slug=shown.slug).values_list("code", flat=True).first()
            or "SET1"
        )
        context["ex_format"] = next(iter(shown.formats))
    return render(request, "catalogue/search_help.html", context)


@page_throttle("search", methods=("GET",))
def game_cards(request, game: str):
    game_obj = get_object_or_404(Game, slug=game)
    game_def = registry.get(game)
    kind = request.GET.get("kind", "")
    faction = request.GET.get("faction", "")
    set_code = request.GET.get("set", "")
    qs = picked_kind_and_faction(
        Card.objects.filter(game=game_obj), game_def, kind=kind, faction=faction
    )
    if set_code:
        qs = qs.filter(printings__expansion__code=set_code).distinct()
    query = request.GET.get("q", "")
    base = qs
    result = search_cards(query=query, queryset=qs, game_slug=game)
    sort = request.GET.get("sort", "name")
    ordering = SORTS.get(sort, SORTS["name"])
    qs = result.queryset.order_by(*ordering).only(*FACE)
    per_page = _per_page(request)
    walk = search_walk(base=base, result=result, ordering=ordering)
    # In name order, the Next link names the last card shown (`after`): that page is read
    # from it, at any depth. An `after` that is not one (typed by hand) is left out.
    after = None
    in_name_order = follows_name_order(ordering)
    if in_name_order and not qs.query.distinct:
        try:
            key = after_key(request.GET.get("after", ""))
        except ValueError:
            key = None
        if key is not None:
            after = after_walk(queryset=qs, base=base, result=result, after=key)
    paginator = WalkPaginator(qs, per_page, walk=walk, result=result, after=after)
    page = paginator.get_page(request.GET.get("page"))
    cards = list(page.object_list)
    next_after = after_token(cards[-1]) if cards and in_name_order else ""
    _label(cards, game_def)
    reading = search_reading(query, result, cards)
    view = "list" if request.GET.get("view") == "list" else "grid"
    params = request.GET.copy()
    params.pop("page", None)
    params.pop("after", None)
    suggestions: list[tuple[str, str]] = []
    if not cards and not result.error and page.number == 1:
        _offer_near_names(query, game, reading)
    if reading["suggestions"]:
        # Matched only by a loose likeness: no card is shown, the names are offered.
        cards = []
        for name in reading["suggestions"]:
            params["q"] = f'"{name}"'
            suggestions.append((name, params.urlencode()))
        params["q"] = query
    context = {
        "game": game_def,
        "game_obj": game_obj,
        "page": page,
        "next_after": next_after if page.has_next() else "",
        "count_cap": f"{COUNT_CAP:,}",
        "cards": cards,
        "query": query,
        "search": result,
        "reading": reading,
        "suggestions": suggestions,
        "kind": kind,
        "faction": faction,
        "set_code": set_code,
        "sort": sort,
        "sorts": list(SORTS),
        "view": view,
        "per_page": per_page,
        "page_sizes": PAGE_SIZES,
        "expansions": list(Expansion.objects.filter(game=game_obj).order_by("released", "code")),
        "querystring": params.urlencode(),
        "game_tools": hooks.game_tools(game),
        "placeholder": _placeholder(game_def),
    }
    template = "catalogue/_results.html" if request.htmx else "catalogue/game.html"
    # A refused search (too long, too many terms, a word too long) shows its message and no
    # cards: a 400, except for htmx, which swaps only 2xx answers into the page.
    status = 400 if result.error and not request.htmx else 200
    return render(request, template, context, status=status)


def _per_page(request) -> int:
    """The page size asked for, when it is one of PAGE_SIZES (else the first)."""
    try:
        per_page = int(request.GET.get("per", PAGE_SIZES[0]))
    except ValueError:
        return PAGE_SIZES[0]
    return per_page if per_page in PAGE_SIZES else PAGE_SIZES[0]


def _label(cards: list[Any], game_def: GameDef) -> None:
    """Give each card (of Card) of a page its stat line and the labels of its kind and faction."""
    for card in cards:
        card.stats = stat_line(card, game_def.slug)
        card.kind_label = (
            game_def.kinds[card.kind].label if card.kind in game_def.kinds else card.kind
        )
        card.faction_label = game_def.factions.get(card.faction, card.faction)
        card.has_cost = game_def.has_cost(card.kind)


def _offer_near_names(query: str, game: str, reading: dict) -> None:
    """When a bare word found nothing and the reading offers no name, offer the names
    nearest to the words (two queries)."""
    words = bare_words(query)
    if words and not reading["suggestions"]:
        near = close_name_ids(" ".join(words), game)[:SUGGESTIONS]
        named = dict(Card.objects.filter(pk__in=near).values_list("pk", "name"))
        reading["suggestions"] = [named[pk] for pk in near if pk in named]


def card_detail(request, game: str, pk: int):
    card = get_object_or_404(Card.objects.select_related("game"), game__slug=game, pk=pk)
    printings = list(card.printings.select_related("expansion").order_by("expansion__released"))
    game_def = registry.get(game)
    card.stats = stat_line(card, game)  # type: ignore[attr-defined]  # for the page
    standings = rulesets.card_standings(card, printed_in={p.expansion_id for p in printings})
    return render(
        request,
        "catalogue/card.html",
        {
            "card": card,
            "game": game_def,
            "attributes": labelled_attributes(card),
            "printings": printings,
            "kind_label": game_def.kinds[card.kind].label
            if card.kind in game_def.kinds
            else card.kind,
            "faction_label": game_def.factions.get(card.faction, card.faction),
            "face": face_context(game, card),
            "image_url": card_image_url(game, card),
            "image_alt": card_images.key_figures(game_def, card.facts()),
            "standings": [
                (game_def.formats[s.format].name if s.format in game_def.formats else s.format, s)
                for s in standings
            ],
            "panels": catalogue_hooks.card_panels(card, request.user),
        },
    )


def rule_sets(request, game: str, format: str):
    """A format's rule sets, oldest first, each with what it changed against the one before
    (cards banned and unbanned, limits, costs, errata, the legal expansions); the one in
    effect today and the upcoming one marked."""
    try:
        game_def = registry.get(game)
    except KeyError:
        raise Http404(f"no game {game!r}") from None
    if format not in game_def.formats:
        raise Http404(f"{game_def.name} has no format {format!r}")
    history = rulesets.history_with_changes(game, format)
    on = rulesets.today()
    current = next((rs for rs, _ in reversed(history) if rs.effective <= on), None)
    return render(
        request,
        "catalogue/rule_sets.html",
        {
            "game": game_def,
            "format": game_def.formats[format],
            "history": list(reversed(history)),  # newest first
            "current": current,
            "today": on,
        },
    )


def expansion_detail(request, game: str, code: str):
    expansion = get_object_or_404(
        Expansion.objects.select_related("game"), game__slug=game, code=code
    )
    printings = list(
        expansion.printings.select_related("card").order_by(*collector_order(), "card__name")
    )
    game_def = registry.get(game)
    for p in printings:
        kind = p.card.kind
        shown: Any = p  # a printing with what the page says of its card
        shown.kind_label = game_def.kinds[kind].label if kind in game_def.kinds else kind
        shown.faction_label = game_def.factions.get(p.card.faction, p.card.faction)
        shown.has_cost = game_def.has_cost(kind)
    return render(
        request,
        "catalogue/expansion.html",
        {"expansion": expansion, "game": game_def, "printings": printings},
    )


# --- Card faces (the card page's face, the hover and tap preview) ---------------------------

FACE_MAX_AGE = 300


def _face_response(request, game: str, card):
    response = render(request, "catalogue/_card_face.html", face_context(game, card))
    patch_cache_control(response, public=True, max_age=FACE_MAX_AGE)
    return response


def card_face(request, game: str, pk: int):
    """The drawn face of one card, as an HTML fragment. One query."""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    card = get_object_or_404(Card.objects.filter(game__slug=game), pk=pk)
    return _face_response(request, game, card)


def card_face_by_name(request, game: str):
    """The same by exact name (any case), for lists that know names only: ?name=…"""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    name = " ".join(request.GET.get("name", "").split())[:200]
    card = Card.objects.filter(game__slug=game, name__iexact=name).first() if name else None
    if card is None:
        raise Http404("no card of that name")
    return _face_response(request, game, card)


def card_by_name(request, game: str):
    """The card page of the card named ?name= (any case): lists that know names only link
    here."""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    name = " ".join(request.GET.get("name", "").split())[:200]
    card = (
        Card.objects.filter(game__slug=game, name__iexact=name).only("pk").first() if name else None
    )
    if card is None:
        raise Http404("no card of that name")
    return redirect("catalogue:card", game, card.pk)


def rules(request, game: str):
    """A game's rulebook table: each sentence that bears on building a list or on a tool's
    mathematics, what the site does with it, and the codes and sentences left untraced.
    Each rule code is the id of its row (/rules/<game>/#<code>), the link a violation's
    "Why?" gives."""
    try:
        game_def = registry.get(game)
    except KeyError:
        raise Http404(f"no game {game!r}") from None
    book = game_def.trace
    if book is None:
        raise Http404(f"{game_def.name} has no rulebook table")
    described: dict[str, str] = {}
    for fmt in game_def.formats.values():
        for rule in fmt.rules:
            described.setdefault(rule.code, rule.describe())
    rows: list[dict[str, Any]] = []
    for n, (row, row_id, own) in enumerate(book.anchors(), 1):
        rows.append(
            {
                "n": n,
                "id": own[0] if own else row_id,
                "extra_ids": own[1:],
                "row_id": row_id,
                "source": row,
                "codes": [(code, described.get(code, "")) for code in row.codes],
            }
        )
    untraced = [r for r in rows if not r["source"].traced]
    missing = [(code, described.get(code, "")) for code in codes_without_source(game_def)]
    return render(
        request,
        "catalogue/rules.html",
        {"game": game_def, "book": book, "rows": rows, "untraced": untraced, "missing": missing},
    )
