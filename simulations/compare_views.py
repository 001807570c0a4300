"""Goldfish experiment pages: "Compare with…" of a deck (pick B, a version of this deck or
a deck of the game the user can read, the deciding metric and the games limit), the tuner's
form, and the stop and apply buttons of a run. Thin: parse, call a service, render."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.hostile import whole_number
from cardsite.throttling import page_throttle
from decks.models import Deck, DeckVersion

from . import compare, services, tuner
from .models import SimulationRun
from .views import readable_deck

OTHER_DECKS = 50


def _choices(request, deck: Deck, token: str) -> dict:
    """The B menu: the deck's versions, and the other decks of the game the user can read
    (by name); `suggested`, the user's own deck of the same game and format saved most
    recently, which B opens on when the deck has no other version."""
    versions = list(DeckVersion.objects.filter(deck=deck).order_by("-number").only("number"))
    others: list[Deck] = []
    suggested = None
    if request.user.is_authenticated:
        readable = Deck.objects.visible_to(request.user).filter(game=deck.game).exclude(pk=deck.pk)
        others = list(readable.only("id", "name").order_by("name", "id")[:OTHER_DECKS])
        suggested = (
            readable.filter(owner=request.user, format=deck.format, current_version__isnull=False)
            .only("id", "name")
            .order_by("-updated_at", "-id")
            .first()
        )
        if suggested is not None and all(d.pk != suggested.pk for d in others):
            others.append(suggested)
    return {
        "versions": [{"number": v.number, "ref": f"v:{v.number}"} for v in versions],
        "others": [{"name": d.name, "ref": f"d:{d.pk}"} for d in others],
        "suggested": f"d:{suggested.pk}" if suggested is not None else "",
    }


def _defaults(choices: dict, a: int | None, b_ref: str) -> tuple[int | None, str]:
    """What the form opens on, given what the address asked for (`a`, a version number of
    this deck, and `b_ref`, as the B menu's values): by default A is the version before the
    latest and B the latest. A given alone gets B the latest (the version before it, when A
    is the latest); B given alone gets A the version before it. A deck of one version (the
    deck panel's link names it as B) is A against the user's own deck of the same game and
    format saved most recently; with none, B is left to choose ("") and the form says so.
    The form never opens on a version against itself."""
    numbers = [v["number"] for v in choices["versions"]]  # newest first
    suggested = choices.get("suggested", "")

    def before(n: int | None) -> int | None:
        return next((m for m in numbers if n is not None and m < n), None)

    if a is None and b_ref.startswith("v:"):
        b_number = whole_number(b_ref[2:])
        a = before(b_number) or next((m for m in numbers if m != b_number), None)
        if a is None:  # the deck's only version: it is A, against another deck
            a = b_number if b_number in numbers else (numbers[0] if numbers else None)
            b_ref = ""
    elif a is None and b_ref:
        a = numbers[0] if numbers else None
    elif a is None:
        a = numbers[1] if len(numbers) >= 2 else (numbers[0] if numbers else None)
    if not b_ref and a is not None:
        later = [m for m in numbers if m != a]
        if numbers and numbers[0] != a:
            b_ref = f"v:{numbers[0]}"
        elif later:
            b_ref = f"v:{later[0]}"
        else:
            b_ref = suggested
    return a, b_ref


def _parse_ref(value: str, deck: Deck, token: str) -> dict:
    """ "v:<number>" (a version of this deck) or "d:<deck id>" (another deck's current
    version)."""
    kind, _, number = (value or "").partition(":")
    n = whole_number(number)
    if kind == "v" and n is not None:
        return {"deck": deck.pk, "version": n, "token": token or None}
    if kind == "d" and n is not None:
        return {"deck": n}
    raise services.SimulationError({"b.deck": "choose the deck or version to compare with"})


def _deck_and_kind(request, deck_pk: int):
    """The share token given, the deck (404 unless the user may read it) and the game's
    goldfish that pairs games (None when it has none)."""
    token = request.GET.get("token") or request.POST.get("token") or ""
    deck = readable_deck(request, deck_pk, token)
    try:
        kind = compare.pairing_kind(deck.game.slug, None)
    except services.SimulationError:
        kind = None
    return token, deck, kind


@page_throttle("simulate")
@require_http_methods(["GET", "POST"])
def deck_compare(request, deck_pk: int):
    token, deck, kind = _deck_and_kind(request, deck_pk)
    data = request.POST if request.method == "POST" else request.GET
    choices = _choices(request, deck, token)
    choices["others"] = _told_apart(choices["others"], request.user)
    a_number, b_value = _defaults(
        choices,
        whole_number(data.get("a")),
        data.get("b_ref") or (f"v:{data['b']}" if whole_number(data.get("b")) else ""),
    )
    context = {
        "deck": deck,
        "token": token,
        "kind": kind,
        "metrics": kind.goldfish.metrics if kind else (),
        "a": a_number,
        "b_ref": b_value,
        "metric": data.get("metric") or "",
        "games": data.get("games") or 200_000,
        "turns": data.get("turns") or (kind.defaults().get("turns", "") if kind else ""),
        "seed": data.get("seed") or "",
        "errors": {},
        # Nothing to compare with yet: one version, and no other deck of the game.
        "alone": len(choices["versions"]) < 2 and not choices["others"],
        # B left to choose: one version, and no deck of the user's of the same format.
        "choose_b": not b_value,
        **choices,
    }
    if request.method == "GET" or kind is None:
        return render(request, "simulations/deck_compare.html", context)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    try:
        a = compare.version_of(
            user=request.user, side="a", ref={"deck": deck.pk, "version": a_number, "token": token}
        )
        b = compare.version_of(user=request.user, side="b", ref=_parse_ref(b_value, deck, token))
        params = {"games": context["games"]}
        if context["turns"] != "":
            params["turns"] = context["turns"]
        run = compare.compare_start(
            owner=request.user,
            a=a,
            b=b,
            kind_slug=kind.slug,
            params=params,
            metric=context["metric"] or None,
            seed=context["seed"] or None,
        )
    except services.SimulationError as exc:
        context["errors"] = exc.errors
        return render(request, "simulations/deck_compare.html", context, status=400)
    return redirect(run)


@page_throttle("simulate")
@require_http_methods(["GET", "POST"])
def deck_tune(request, deck_pk: int):
    """The tuner's form of a deck: metric, cards that may come in, cards to keep."""
    token, deck, kind = _deck_and_kind(request, deck_pk)
    if kind is not None and kind.goldfish.play_many is None:
        kind = None
    data = request.POST if request.method == "POST" else request.GET
    context = {
        "deck": deck,
        "token": token,
        "kind": kind,
        "metrics": kind.goldfish.metrics if kind else (),
        "metric": data.get("metric") or "",
        "query": data.get("query") or "",
        "collection": data.get("collection") in ("1", "on", "true"),
        "keep": data.get("keep") or "",
        "max_games": data.get("max_games") or tuner.DEFAULT_MAX_GAMES,
        "turns": data.get("turns") or (kind.defaults().get("turns", "") if kind else ""),
        "errors": {},
        "max_incoming": tuner.MAX_INCOMING,
        "max_swaps": tuner.MAX_SWAPS,
    }
    if request.method == "GET" or kind is None:
        return render(request, "simulations/deck_tune.html", context)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    keep = [k.strip() for k in context["keep"].replace(",", "\n").splitlines() if k.strip()]
    games = whole_number(str(context["max_games"]))
    try:
        version = compare.version_of(
            user=request.user,
            side="deck",
            ref={
                "deck": deck.pk,
                "version": whole_number(data.get("version") or ""),
                "token": token,
            },
        )
        if games is None:
            raise services.SimulationError({"max_games": "max games must be a whole number"})
        params = {"turns": context["turns"]} if context["turns"] != "" else {}
        run = tuner.tune_start(
            owner=request.user,
            version=version,
            metric=context["metric"] or None,
            query=context["query"][:500],
            collection=context["collection"],
            keep=keep[:200],
            max_games=games,
            params=params,
        )
    except services.SimulationError as exc:
        context["errors"] = exc.errors
        return render(request, "simulations/deck_tune.html", context, status=400)
    return redirect(run)


@require_POST
def run_stop(request, pk: int):
    """The stop button of a comparison or tuning run."""
    try:
        compare.experiment_stop(run_id=pk, user=request.user)
    except services.SimulationError:
        raise Http404("no such run of yours") from None
    return redirect("simulations:detail", pk=pk)


@page_throttle("deck_write")
@require_POST
def run_apply(request, pk: int):
    """Apply a suggested swap as a new version of the deck (its owner only)."""
    run = (
        SimulationRun.objects.owned_by(request.user)
        .select_related("deck_version__deck__game")
        .filter(pk=pk)
        .first()
    )
    if run is None:
        raise Http404("no such run of yours")
    index = whole_number(request.POST.get("swap") or "")
    try:
        version = tuner.tune_apply(run=run, user=request.user, index=-1 if index is None else index)
    except services.SimulationError as exc:
        context = services.run_view(run)
        context["apply_error"] = str(exc)
        return render(request, "simulations/detail.html", context, status=400)
    messages.success(request, f"Version {version.number} saved: {version.note}.")
    return redirect("decks:version", version.deck_id, version.number)


def _told_apart(others: list[dict], reader) -> list[dict]:
    """The B menu's other decks, each named with what tells it apart from another of the
    same name: its format, version and last change, and its owner when it is not the
    reader's (one query)."""
    pks = [int(d["ref"][2:]) for d in others]
    decks = Deck.objects.select_related("game", "current_version", "owner").in_bulk(pks)
    out = []
    for d in others:
        found = decks.get(int(d["ref"][2:]))
        if found is None:
            out.append(d)
            continue
        details = found.picker_details
        if found.owner_id != reader.pk:
            details += f" · by {found.owner.username}"
        out.append({**d, "name": f"{found.name} ({details})"})
    return out
