"""Rule sets: organised play's dated changes to a format (legal expansions, banned and limited
cards, new costs, errata), read by the rules core as `RuleSetFacts`.

- `in_force(game, format, on)`: the rule set with the latest `effective` not after `on`
  (today in the site's time zone when None: a rule set comes into force at 00:00 site time);
  None before the first, when the bare format holds.
- `upcoming(game, format, on)`: the next one after `on`, announced but not yet in force.
- `facts(rule_set)`: what the rules core needs of it (two queries).
- `rule_set_changed(rule_set)`: called after a rule set is written or deleted; every app that
  keeps something derived from it (saved decks' verdicts) hears of it through the
  `rule_set_changed` hook.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db.models.functions import Lower
from django.utils import timezone

from cardsite import hooks
from validation.types import RuleSetFacts

from .models import Printing, RuleSet, RuleSetCard


def today() -> date:
    """Today in the site's time zone: the day every page agrees a rule set is in force."""
    return timezone.localdate()


def _sets(game_slug: str, format: str):
    return RuleSet.objects.filter(game__slug=game_slug, format=format)


def in_force(game_slug: str, format: str, on: date | None = None) -> RuleSet | None:
    """The rule set of a game's format in force on `on` (today when None), or None (one
    query)."""
    on = on or today()
    return _sets(game_slug, format).filter(effective__lte=on).order_by("-effective").first()


def upcoming(game_slug: str, format: str, on: date | None = None) -> RuleSet | None:
    """The first rule set of a game's format that takes effect after `on` (today when None),
    or None (one query)."""
    on = on or today()
    return _sets(game_slug, format).filter(effective__gt=on).order_by("effective").first()


def by_code(game_slug: str, format: str, code: str) -> RuleSet | None:
    """The rule set `code` of a game's format, or None (one query)."""
    return _sets(game_slug, format).filter(code=code).first()


def history(game_slug: str, format: str) -> list[RuleSet]:
    """Every rule set of a game's format, oldest first (one query)."""
    return list(_sets(game_slug, format).order_by("effective"))


def facts(rule_set: RuleSet, names: Iterable[str] | None = None) -> RuleSetFacts:
    """The rules core's view of a rule set: its per-card entries (one query), its legal
    expansions (one query) and the names of the cards they print (one query, only when it
    lists expansions). With `names` (the cards of one deck, any case) only those cards are
    read: what checking that deck needs, whatever the size of the catalogue."""
    wanted = sorted({n.lower() for n in names}) if names is not None else None
    banned: set[str] = set()
    limits: dict[str, int] = {}
    costs: dict[str, int] = {}
    texts: dict[str, str] = {}
    rows = RuleSetCard.objects.filter(rule_set=rule_set).annotate(lname=Lower("card__name"))
    if wanted is not None:
        rows = rows.filter(lname__in=wanted)
    for name, is_banned, limit, cost, text in rows.values_list(
        "lname", "banned", "limit", "cost", "text"
    ):
        if is_banned:
            banned.add(name)
        if limit is not None:
            limits[name] = limit
        if cost is not None:
            costs[name] = cost
        if text:
            texts[name] = text
    codes = tuple(rule_set.expansions.order_by("released", "code").values_list("code", flat=True))
    pool: frozenset[str] | None = None
    if codes:
        printed = (
            Printing.objects.filter(expansion__rule_sets=rule_set)
            .annotate(lname=Lower("card__name"))
            .order_by()
            .values_list("lname", flat=True)
        )
        if wanted is not None:
            printed = printed.filter(lname__in=wanted)
        pool = frozenset(printed.distinct())
    return RuleSetFacts(
        code=rule_set.code,
        name=rule_set.name,
        effective=rule_set.effective,
        pool=pool,
        banned=frozenset(banned),
        limits=limits,
        costs=costs,
        texts=texts,
        expansions=codes,
        note=rule_set.note,
    )


def facts_in_force(
    game_slug: str, format: str, on: date | None = None, names: Iterable[str] | None = None
) -> RuleSetFacts | None:
    """The facts of the rule set in force on `on` (today when None), None for the bare
    format; `names` as for `facts`."""
    found = in_force(game_slug, format, on)
    return facts(found, names) if found is not None else None


def rule_set_changed(rule_set: RuleSet) -> None:
    """A rule set was written (imported, edited) or deleted: every listener of the
    `rule_set_changed` hook hears of its game, format and code (the decks app re-checks the
    saved decks of that format)."""
    for listener in hooks.get_hooks("rule_set_changed"):
        listener(game_slug=rule_set.game.slug, format=rule_set.format, code=rule_set.code)
