"""A small registry of hooks, so that one app can add to another's pages without the other
importing it (in the spirit of Wagtail's hooks).

Hooks in use:
- `game_tools`: functions `fn(game_slug) -> [{"label", "url"}]`, buttons on a game's page.
- `catalogue_changed`: functions `fn(*, game_slug)`, called after an import or an admin edit
  changed a game's cards (the decks app re-validates that game's saved decks).
- `rule_set_changed`: functions `fn(*, game_slug, format, code)`, called after a rule set was
  written (`catalogue.rulesets.rule_set_changed`; the decks app re-checks the saved decks).
- `rule_set_deleting`: functions `fn(*, rule_set)`, called by `catalogue.rulesets.
  rule_set_delete` in the deleting transaction, before the delete (the decks app starts the
  re-check of the decks that followed or were pinned to it, and tells the pinned decks'
  owners).
- `rule_set_preview`: functions `fn(*, game_slug, format, code, facts, following, when) ->
  catalogue.rule_set_file.DeckVerdicts`, asked by a rule set file's preview: how many saved
  decks the rule set (its `facts`, not yet written) would change the verdict of (the decks
  app checks them in memory).
- `card_counts`: functions `fn() -> {game_slug: cards}`, the home page's counts (the
  catalogue's).
- `profile_context`: functions `fn(user) -> {name: value}`, added to the profile page's
  context (the decks app's list of the user's decks).
- `deck_links`: functions `fn(deck) -> [{"label", "url", "help"}]`, buttons on a deck's page
  (the play app's "Take to the table").
- `home_panels`: functions `fn(request) -> [{"template", …}]`, panels of the home page (the
  decklists app's strip of this week's popular decklists); each panel dict is the context
  of its template.
- `card_panels`: functions `fn(card, user) -> [{"template", …}]`, panels of a card's page
  for `user` (the decklists app's "in N decklists"; the decks app's "your decks using it"
  and the public decks' count).
- `card_uses`: functions `fn(card) -> {name: count}`, how many of an app's public things
  use a card (the decklists app's `decklists`), for GET /api/cards/<id>/decks/.

The project package imports no app (an import-linter contract): an app that adds to its
pages registers a hook in its `ready()`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

_hooks: dict[str, list[Callable[..., Any]]] = defaultdict(list)


def register(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    if fn not in _hooks[name]:
        _hooks[name].append(fn)
    return fn


def get_hooks(name: str) -> list[Callable[..., Any]]:
    return list(_hooks[name])


def game_tools(game_slug: str) -> list[dict[str, str]]:
    """Every tool any app offers for a game."""
    return [tool for fn in get_hooks("game_tools") for tool in fn(game_slug)]


def card_counts() -> dict[str, int]:
    """Cards per game, from every app that counts them."""
    counts: dict[str, int] = {}
    for fn in get_hooks("card_counts"):
        counts.update(fn())
    return counts


def profile_context(user) -> dict[str, Any]:
    """What the apps add to `user`'s profile page."""
    context: dict[str, Any] = {}
    for fn in get_hooks("profile_context"):
        context.update(fn(user))
    return context


def deck_links(deck) -> list[dict[str, str]]:
    """Every button any app adds to a deck's page."""
    return [link for fn in get_hooks("deck_links") for link in fn(deck)]


def home_panels(request) -> list[dict[str, Any]]:
    """The panels every app adds to the home page."""
    return [panel for fn in get_hooks("home_panels") for panel in fn(request)]


def card_panels(card, user=None) -> list[dict[str, Any]]:
    """The panels every app adds to a card's page, as `user` sees it."""
    return [panel for fn in get_hooks("card_panels") for panel in fn(card, user)]


def card_uses(card) -> dict[str, int]:
    """How many public things of every app use a card."""
    out: dict[str, int] = {}
    for fn in get_hooks("card_uses"):
        out.update(fn(card))
    return out
