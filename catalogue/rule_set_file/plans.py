"""A checked rule set against the stored ones: what it changes, the rules core's view of it,
and what it would do to the saved decks (the `RULE_SET_PREVIEW` hook's listeners)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models.functions import Lower

from validation.types import RuleSetFacts

from .. import hooks, rulesets
from ..models import Card, Expansion, Printing, RuleSet, RuleSetCard
from .report import (
    Entry,
    Plan,
)


def _stored(rule_set: RuleSet) -> tuple[dict[str, Any], dict[str, Entry]]:
    """A stored rule set's fields and its entries by canonical card name (two queries)."""
    fields = {
        "name": rule_set.name,
        "announced": rule_set.announced,
        "effective": rule_set.effective,
        "note": rule_set.note,
        "sample": rule_set.sample,
        "expansions": list(
            rule_set.expansions.order_by("released", "code").values_list("code", flat=True)
        ),
    }
    entries = {
        e.card.name: Entry(e.banned, e.limit, e.cost, e.text)
        for e in RuleSetCard.objects.filter(rule_set=rule_set).select_related("card")
    }
    return fields, entries


def _shown(value: Any, none: str = "none") -> str:
    return none if value is None else str(value)


def _plan_snapshot(plan: Plan) -> rulesets.Snapshot:
    """The plan as `rulesets.compare` reads a rule set (two queries: its expansions in
    release order, its cards' printed costs)."""
    order = {
        code: i
        for i, code in enumerate(
            Expansion.objects.filter(game__slug=plan.game, code__in=plan.expansions)
            .order_by("released", "code")
            .values_list("code", flat=True)
        )
    }
    printed = dict(Card.objects.filter(pk__in=list(plan.entries)).values_list("pk", "cost"))
    return rulesets.Snapshot(
        tuple(sorted(plan.expansions, key=lambda c: order.get(c, len(order)))),
        {
            name: (e.banned, e.limit, e.cost, e.text, printed.get(pk, 0))
            for pk, (name, e) in plan.entries.items()
        },
    )


def _follows(plan: Plan) -> RuleSet | None:
    """The stored rule set of the plan's format in effect before it (another code)."""
    return (
        rulesets._sets(plan.game, plan.format)
        .filter(effective__lt=plan.effective)
        .exclude(code=plan.code)
        .order_by("-effective")
        .first()
    )


def _plan_changes(plan: Plan) -> None:
    """Fill `plan.created` and `plan.changes` against the stored rule set of its code, and
    `plan.against` (what changes for the players) against the rule set it replaces or, when
    new, the one it follows."""
    stored = rulesets.by_code(plan.game, plan.format, plan.code)
    after = _plan_snapshot(plan)
    if stored is None:
        plan.created = True
        before = _follows(plan)
        plan.compared_with = (
            f"{before}, which it follows"
            if before is not None
            else "the format's own rules (no rule set before it)"
        )
        plan.against = rulesets.compare(rulesets.snapshot(before), after)
        return
    plan.created = False
    plan.compared_with = f"the stored {stored}, which it replaces"
    plan.against = rulesets.compare(rulesets.snapshot(stored), after)
    fields, _entries = _stored(stored)
    for key in ("name", "announced", "effective", "note", "sample"):
        old, new = fields[key], getattr(plan, key)
        if old != new:
            plan.changes.append(f"{key}: {_field(old)} → {_field(new)}")
    plan.changes += [c.text for c in plan.against]


def plan_facts(plan: Plan) -> RuleSetFacts:
    """The rules core's view of a checked rule set before it is written (one query: the
    names of the cards its legal expansions print)."""
    entries = (
        (name.lower(), e.banned, e.limit, e.cost, e.text) for name, e in plan.entries.values()
    )
    pool = None
    if plan.expansions:
        pool = frozenset(
            Printing.objects.filter(
                expansion__game__slug=plan.game, expansion__code__in=plan.expansions
            )
            .annotate(lname=Lower("card__name"))
            .values_list("lname", flat=True)
            .distinct()
        )
    return rulesets.facts_from_entries(plan, entries, tuple(plan.expansions), pool)


def _governs_following(plan: Plan) -> str | None:
    """Whether the format's decks that follow it would be checked under the plan: "" now
    (it would be the rule set in force today), its date's words when it would be the next
    upcoming one, None when another rule set stands between (the plan governs only the
    decks pinned to its code)."""
    today = rulesets.today()
    others = rulesets._sets(plan.game, plan.format).exclude(code=plan.code)
    if plan.effective <= today:
        later = others.filter(effective__gt=plan.effective, effective__lte=today)
        return None if later.exists() else ""
    sooner = others.filter(effective__gt=today, effective__lt=plan.effective)
    return None if sooner.exists() else f"from {plan.effective.isoformat()}"


def _plan_decks(plan: Plan) -> None:
    """Ask the apps that keep saved decks what the plan would do to their verdicts."""
    if not hooks.RULE_SET_PREVIEW.listeners:
        return
    when = _governs_following(plan)
    plan.decks = hooks.rule_set_preview(
        game_slug=plan.game,
        format=plan.format,
        code=plan.code,
        facts=plan_facts(plan),
        following=when is not None,
        when=when or "",
    )


def _field(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "every expansion"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return repr(value[:60] + ("…" if len(value) > 60 else ""))
    return str(value)
