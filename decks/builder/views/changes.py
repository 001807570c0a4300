"""The builder's changes to a deck: one change to the working list (`builder_change`), the
keyboard quick-add of a list's line, a version sealed, the format's options or a new map;
each autosaved and answered by `answers.save_list`."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from catalogue.models import Card
from catalogue.search import search_cards
from decks import services
from decks.lists.edits import apply_change, sections_for
from decks.models import Deck
from validation import decklist

from .answers import CONFLICT_MESSAGE, save_list
from .context import base_version, owned_deck, quick_into, render_state
from .listing import row_dom_id, version_entries

#: The changes answered with only what changed (`answers._render_changes`): a count.
COUNT_OPS = frozenset({"add", "remove", "set"})


def change_data(request) -> dict[str, Any]:
    """The change the request posts (`cards`, a list; every other field, a value)."""
    data: dict[str, Any] = {k: request.POST.get(k) for k in request.POST if k != "cards"}
    data["cards"] = request.POST.getlist("cards")
    return data


@login_required
@require_POST
def builder_change(request, pk: int):
    """Apply one change to the working list and autosave it."""
    deck = owned_deck(request, pk)
    base = base_version(deck, request.POST.get("base", ""))
    fmt = deck.game.definition.format(deck.format)
    try:
        entries = apply_change(version_entries(base), change_data(request), fmt.section_names)
    except (ValueError, TypeError) as exc:
        return HttpResponseBadRequest(str(exc))
    touched = None
    if request.POST.get("op") in COUNT_OPS:
        touched = {
            row_dom_id(
                request.POST.get("section", ""),
                request.POST.get("card", ""),
                request.POST.get(decklist.PLACEMENT)
                or request.POST.get(decklist.PLACEMENT_ALIAS, ""),
            )
        }
    response = save_list(
        request, deck, base, entries, dict(base.options) if base else {}, touched=touched
    )
    return response if request.htmx else redirect("builder:deck", deck.pk)


class TooManyMatches(Exception):
    """A quick-add's name matches too many cards to say which is meant."""


def quick_match(deck: Deck, name: str) -> Card | None:
    """The card a quick-add means: the exact name (any case), else the best match of the
    typo-forgiving search over the deck's game. TooManyMatches when the search matches too
    many cards to be ranked (`SearchResult.estimate`): the first by name would be a guess."""
    name = " ".join(name.split())[:200]
    if not name:
        return None
    exact = Card.objects.filter(game_id=deck.game_id, name__iexact=name).first()
    if exact is not None:
        return exact
    result = search_cards(
        query=name, queryset=Card.objects.filter(game_id=deck.game_id), game_slug=deck.game.slug
    )
    if result.estimate is not None and result.estimate.past_cap:
        raise TooManyMatches(f"about {result.estimate.about:,}")
    qs = result.queryset
    if not qs.query.order_by:
        qs = qs.order_by("name")
    return qs.first()


@login_required
@require_POST
def builder_quick_add(request, pk: int):
    """Keyboard quick-add: one line of a list as the list text format writes it. A card
    line (`4 <card name>`, or the name alone: one copy, the name forgiving typos, `@column,row` in a
    placement section) adds its copies to the section a header line named before it when
    the card goes there, else to the first section that takes it (the deck's main section
    when it does); a header line (`Missions:`) names the section for the lines after it."""
    deck = owned_deck(request, pk)
    base = base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    typed = request.POST.get("name", "")
    shown = " ".join(typed.split())[:80]
    line = decklist.read_typed_line(typed, game)
    into = quick_into(request, fmt)

    def refused(error: str):
        return render_state(request, deck, base, error=error)

    if line.error:
        return refused(f"Not added: “{shown}”: {line.error}.")
    if line.header:
        if line.section not in fmt.section_names:
            return refused(
                f"{fmt.name} decks have no section “{line.header}”: they have "
                f"{', '.join(game.section_label(s) for s in fmt.section_names)}."
            )
        into = line.section
        notice = f"The next cards go to {game.section_label(into)}."
        if not request.htmx:
            return _back_to_builder(deck, into)
        return render_state(request, deck, base, notice=notice, into=into)
    if not line.name:
        if not shown:
            return refused("Type a card name.")
        # A comment line of a list: nothing to add, nothing wrong.
        if not request.htmx:
            return _back_to_builder(deck, into)
        return render_state(request, deck, base, notice="A comment line: nothing to add.")
    try:
        card = quick_match(deck, line.name)
    except TooManyMatches as many:
        return refused(
            f"{str(many).capitalize()} cards of {game.name} match “{line.name}”: "
            "type more of the name."
        )
    if card is None:
        return refused(f"No card of {game.name} matches “{line.name}”.")
    targets = sections_for(card, fmt)
    if not targets:
        return refused(f"{card.name} has no section in {fmt.name} decks.")
    main = fmt.main_section
    section = into if into in targets else main if main in targets else targets[0]
    change: dict[str, Any] = {"op": "add", "section": section, "card": card.name, "n": line.count}
    placed = ""
    if line.placement is not None:
        if section not in game.placement_sections:
            return refused(
                f"Not added: “{shown}”: {game.section_label(section)} places no card on a cell."
            )
        placed = "{},{}".format(*line.placement)
        change[decklist.PLACEMENT] = placed
    entries = apply_change(version_entries(base), change, fmt.section_names)
    response = save_list(
        request,
        deck,
        base,
        entries,
        dict(base.options) if base else {},
        added=f"Added {line.count} {card.name} to {game.section_label(section)}.",
        touched={row_dom_id(section, card.name, placed)},
    )
    return response if request.htmx else _back_to_builder(deck, into)


def _back_to_builder(deck: Deck, into: str):
    """The builder page again after a form posted without JavaScript, quick-add's section
    kept (`quick_into`)."""
    where = reverse("builder:deck", args=[deck.pk])
    return redirect(f"{where}?into={into}" if into else where)


@login_required
@require_POST
def builder_seal(request, pk: int):
    """Seal the current version with an optional note ("Save version", or the page being
    left): the next change starts a new version."""
    deck = owned_deck(request, pk)
    base = base_version(deck, request.POST.get("base", ""))
    if base is None or base.pk != deck.current_version_id:
        current = deck.current_version.number if deck.current_version else None
        return render_state(request, deck, base, conflict=CONFLICT_MESSAGE.format(n=current))
    version = services.deck_seal_version(deck=deck, note=request.POST.get("note", ""))
    assert version is not None  # the deck has a current version: `base` above
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    note = f" ({version.note})" if version.note else ""
    return render_state(request, deck, version, notice=f"Version {version.number} saved{note}.")


@login_required
@require_POST
def builder_options(request, pk: int):
    """Change the format's adjustable options, or deal a new map (`layout`), and autosave."""
    deck = owned_deck(request, pk)
    base = base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    options = dict(base.options) if base else {}
    for key in fmt.adjustable:
        if key in request.POST:
            raw = request.POST[key]
            if key in fmt.choices:
                value = raw
            else:
                try:
                    value = int(raw)
                except ValueError:
                    return HttpResponseBadRequest(f"{key} must be a whole number")
            problem = fmt.option_problem(key, value)
            if problem:
                return HttpResponseBadRequest(problem)
            options[key] = value
    hook = game.map_layout
    if hook is not None and "layout" in request.POST:
        raw = request.POST.get("seed", "").strip()
        try:
            seed = int(raw) if raw else random.SystemRandom().randrange(1, 10**6)
        except ValueError:
            return HttpResponseBadRequest("the seed must be a whole number")
        cards = [
            c.facts()
            for c in Card.objects.filter(game_id=deck.game_id, kind=hook.kind).only(
                *Card.FACT_FIELDS
            )
        ]
        try:
            options[hook.option] = hook.generate(cards, seed)
        except ValueError as exc:
            return render_state(request, deck, base, error=f"No map: {exc}")
    entries = version_entries(base)
    response = save_list(request, deck, base, entries, options)
    return response if request.htmx else redirect("builder:deck", deck.pk)
