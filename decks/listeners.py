"""What the decks app does when the site's hooks call (registered in `DecksConfig.ready`):
the catalogue or a rule set changed, a rule set is being deleted, a profile page is drawn."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from cardsite.hooks import Panel
from catalogue.models import Card, RuleSet

from .collection import card_decks, card_use_figures
from .selectors import deck_list_for_owner
from .verdicts import decks_refresh
from .verdicts.recheck_jobs import (
    pins_released,
    recheck_start,
    revalidate_start,
    rule_set_preview,
)

__all__ = [
    "pins_released",
    "profile_decks",
    "rule_set_preview",
    "recheck_after_rule_set_change",
    "revalidate_after_catalogue_change",
]


def revalidate_after_catalogue_change(*, game_slug: str) -> None:
    """Once a change to a game's catalogue is committed, its saved decks are re-checked on
    the workers: a job of the site's job system (decks.verdicts.recheck_jobs)."""
    transaction.on_commit(lambda: revalidate_start(game_slug=game_slug))


def profile_decks(user) -> dict:
    """The profile page's list of the user's decks."""
    decks = deck_list_for_owner(owner=user)
    decks_refresh(decks)
    return {"decks": decks}


def recheck_after_rule_set_change(*, game_slug: str, format: str, code: str) -> None:
    """Once a change to one of a format's rule sets is committed, a worker re-checks the
    format's saved decks that follow it and those pinned to that rule set, in chunks, and
    tells their owners what changed (decks.verdicts.recheck_jobs)."""
    reason = f"rule set {code} changed"

    def start() -> None:
        if not RuleSet.objects.filter(game__slug=game_slug, format=format, code=code).exists():
            # Deleted since: its deletion started its own re-check (`pins_released`, called
            # by catalogue.rulesets.rule_set_delete through the `rule_set_deleting` hook).
            return
        recheck_start(game_slug=game_slug, format=format, reason=reason, rule_set_code=code)

    transaction.on_commit(start)


def card_panels(card: Card, user: Any = None) -> list[Panel]:
    """A card's page: the signed-in user's decks using it (copies, built) and their copies
    (owned · in built decks · free), and for everyone how many public decks use it."""
    context: dict[str, Any] = {"card": card, **card_decks(owner=user, card=card)}
    if user is not None and user.is_authenticated:
        context["figures"] = card_use_figures(owner=user, card=card, decks=context["decks"])
    return [Panel("decks/_card_decks.html", context)]
