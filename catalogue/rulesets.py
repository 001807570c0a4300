"""Rule sets: organised play's dated changes to a format (legal expansions, banned and limited
cards, new costs, errata), read by the rules core as `RuleSetFacts`.

- `in_force(game, format, on)`: the rule set with the latest `effective` not after `on`
  (today in the site's time zone when None: a rule set comes into effect at 00:00 site time);
  None before the first, when the bare format holds.
- `upcoming(game, format, on)`: the next one after `on`, announced but not yet in effect.
- `facts(rule_set)`: what the rules core needs of it (three queries).
- `rule_set_changed(rule_set)`: called after a rule set is written; every app that keeps
  something derived from it (saved decks' verdicts) hears of it through the
  `rule_set_changed` hook.
- `rule_set_delete(rule_set=…)`: how a rule set is deleted (the admin's delete and its bulk
  delete): the `rule_set_deleting` hook first, in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from validation.types import RuleSetFacts

from . import hooks
from .models import Printing, RuleSet, RuleSetCard


def today() -> date:
    """Today in the site's time zone: the day every page agrees a rule set is in effect."""
    return timezone.localdate()


def _sets(game_slug: str, format: str):
    return RuleSet.objects.filter(game__slug=game_slug, format=format)


def in_force(game_slug: str, format: str, on: date | None = None) -> RuleSet | None:
    """The rule set of a game's format in effect on `on` (today when None), or None (one
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


class _Heading(Protocol):
    """What a rule set's facts take from the rule set itself (a stored `RuleSet`, or a rule
    set file's checked plan before it is written)."""

    code: str
    name: str
    effective: date
    note: str


def facts_from_entries(
    rule_set: _Heading,
    entries: Iterable[tuple[str, bool, int | None, int | None, str]],
    expansions: tuple[str, ...],
    pool: frozenset[str] | None,
) -> RuleSetFacts:
    """The rules core's view of a rule set from its per-card `entries` (lower-cased name,
    banned, copy limit, cost, errata text), its legal `expansions` and the `pool` of names
    they print (None: every expansion is legal)."""
    banned: set[str] = set()
    limits: dict[str, int] = {}
    costs: dict[str, int] = {}
    texts: dict[str, str] = {}
    for name, is_banned, limit, cost, text in entries:
        if is_banned:
            banned.add(name)
        if limit is not None:
            limits[name] = limit
        if cost is not None:
            costs[name] = cost
        if text:
            texts[name] = text
    return RuleSetFacts(
        code=rule_set.code,
        name=rule_set.name,
        effective=rule_set.effective,
        pool=pool,
        banned=frozenset(banned),
        limits=limits,
        costs=costs,
        texts=texts,
        expansions=expansions,
        note=rule_set.note,
    )


def facts(rule_set: RuleSet, names: Iterable[str] | None = None) -> RuleSetFacts:
    """The rules core's view of a rule set: its per-card entries (one query), its legal
    expansions (one query) and the names of the cards they print (one query, only when it
    lists expansions). With `names` (the cards of one deck, any case) only those cards are
    read: what checking that deck needs, whatever the size of the catalogue."""
    wanted = sorted({n.lower() for n in names}) if names is not None else None
    rows = RuleSetCard.objects.filter(rule_set=rule_set).annotate(lname=Lower("card__name"))
    if wanted is not None:
        rows = rows.filter(lname__in=wanted)
    entries = rows.values_list("lname", "banned", "limit", "cost", "text")
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
    return facts_from_entries(rule_set, entries, codes, pool)


def facts_in_force(
    game_slug: str, format: str, on: date | None = None, names: Iterable[str] | None = None
) -> RuleSetFacts | None:
    """The facts of the rule set in effect on `on` (today when None), None for the bare
    format; `names` as for `facts`."""
    found = in_force(game_slug, format, on)
    return facts(found, names) if found is not None else None


def rule_set_changed(rule_set: RuleSet) -> None:
    """A rule set was written (imported, edited): every listener of the `rule_set_changed`
    hook hears of its game, format and code (the decks app re-checks the saved decks of that
    format)."""
    hooks.rule_set_changed(game_slug=rule_set.game.slug, format=rule_set.format, code=rule_set.code)


def rule_set_delete(*, rule_set: RuleSet) -> None:
    """Delete a rule set. In one transaction: first every listener of the `rule_set_deleting`
    hook (catalogue.hooks.RULE_SET_DELETING, which says it runs in this transaction) hears
    of it while it still exists (the decks app starts the one re-check of its
    format, sent once the delete commits, and tells the owners of the decks pinned to it),
    then it is deleted (the decks pinned to it follow their format: the foreign key falls
    back to null). Every deletion of a rule set goes through here."""
    with transaction.atomic():
        hooks.rule_set_deleting(rule_set=rule_set)
        rule_set.delete()


# --- What a rule set changes against the one before ----------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """A rule set as compared with another: its legal expansions (empty: every one) and its
    entries by card name, (banned, limit, cost, text, printed cost)."""

    expansions: tuple[str, ...] = ()
    entries: Mapping[str, tuple[bool, int | None, int | None, str, int]] = field(
        default_factory=dict
    )


BARE = Snapshot()


@dataclass(frozen=True)
class Change:
    """One thing a rule set changes against the one before: `kind` is banned, unbanned,
    limit, cost, errata or expansions; `before` / `after` the values (a limit of None: none;
    a cost: the cost that holds, printed or the rule set's)."""

    kind: str
    card: str = ""
    before: Any = None
    after: Any = None

    @property
    def text(self) -> str:
        if self.kind == "banned":
            return f"{self.card} banned"
        if self.kind == "unbanned":
            return f"{self.card} no longer banned"
        if self.kind == "limit":
            if self.before is None:
                return f"{self.card} limited to {self.after}"
            if self.after is None:
                return f"{self.card} no longer limited (was {self.before})"
            return f"{self.card} limit {self.before} → {self.after}"
        if self.kind == "cost":
            return f"{self.card} cost {self.before} → {self.after}"
        if self.kind == "errata":
            return f"{self.card} errata {'removed' if not self.after else 'changed' if self.before else 'added'}"
        added = [c for c in self.after if c not in self.before] if self.before else []
        removed = [c for c in self.before if c not in self.after] if self.after else []
        if not self.after:
            return "every expansion legal"
        if not self.before:
            return f"legal expansions: {', '.join(self.after)}"
        parts = []
        if added:
            parts.append(f"{', '.join(added)} now legal")
        if removed:
            parts.append(f"{', '.join(removed)} rotated out")
        return "; ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        before, after = self.before, self.after
        if self.kind == "expansions":
            before, after = list(before or ()), list(after or ())
        return {
            "kind": self.kind,
            "card": self.card,
            "before": before,
            "after": after,
            "text": self.text,
        }


def snapshot(rule_set: RuleSet | None) -> Snapshot:
    """A stored rule set as compared (two queries; BARE for None, the bare format)."""
    if rule_set is None:
        return BARE
    entries = {
        name: (banned, limit, cost, text, printed)
        for name, banned, limit, cost, text, printed in RuleSetCard.objects.filter(
            rule_set=rule_set
        ).values_list("card__name", "banned", "limit", "cost", "text", "card__cost")
    }
    codes = tuple(rule_set.expansions.order_by("released", "code").values_list("code", flat=True))
    return Snapshot(codes, entries)


def compare(before: Snapshot, after: Snapshot) -> list[Change]:
    """What `after` changes against `before` (a card a rule set does not name is
    unrestricted at its printed cost): expansions first, then card by card in name order."""
    out: list[Change] = []
    if before.expansions != after.expansions:
        out.append(Change("expansions", before=before.expansions, after=after.expansions))
    for name in sorted(set(before.entries) | set(after.entries), key=str.lower):
        printed = (before.entries.get(name) or after.entries[name])[4]
        old = before.entries.get(name) or (False, None, None, "", printed)
        new = after.entries.get(name) or (False, None, None, "", printed)
        if old[0] != new[0]:
            out.append(Change("banned" if new[0] else "unbanned", name))
        if old[1] != new[1]:
            out.append(Change("limit", name, old[1], new[1]))
        old_cost = printed if old[2] is None else old[2]
        new_cost = printed if new[2] is None else new[2]
        if old_cost != new_cost:
            out.append(Change("cost", name, old_cost, new_cost))
        if old[3] != new[3]:
            out.append(Change("errata", name, old[3], new[3]))
    return out


def previous(rule_set: RuleSet) -> RuleSet | None:
    """The rule set of the same game and format in effect before this one (one query)."""
    return (
        RuleSet.objects.filter(
            game_id=rule_set.game_id, format=rule_set.format, effective__lt=rule_set.effective
        )
        .order_by("-effective")
        .first()
    )


def changes(rule_set: RuleSet) -> list[Change]:
    """What a rule set changed against the one before it (the bare format before the
    first)."""
    return compare(snapshot(previous(rule_set)), snapshot(rule_set))


def history_with_changes(game_slug: str, format: str) -> list[tuple[RuleSet, list[Change]]]:
    """Every rule set of a format, oldest first, each with what it changed against the one
    before (a constant number of queries: the sets, their entries, their expansions). Each
    rule set carries `snapshot` (its expansions and entries) for whoever shows them."""
    sets = list(_sets(game_slug, format).select_related("game").order_by("effective"))
    if not sets:
        return []
    entries: dict[int, dict[str, tuple]] = {rs.pk: {} for rs in sets}
    for rs_id, name, banned, limit, cost, text, printed in RuleSetCard.objects.filter(
        rule_set__in=sets
    ).values_list("rule_set_id", "card__name", "banned", "limit", "cost", "text", "card__cost"):
        entries[rs_id][name] = (banned, limit, cost, text, printed)
    codes: dict[int, list[str]] = {rs.pk: [] for rs in sets}
    through = RuleSet.expansions.through.objects.filter(ruleset__in=sets).order_by(
        "expansion__released", "expansion__code"
    )
    for rs_id, code in through.values_list("ruleset_id", "expansion__code"):
        codes[rs_id].append(code)
    out = []
    before = BARE
    for rs in sets:
        now = Snapshot(tuple(codes[rs.pk]), entries[rs.pk])
        rs.snapshot = now
        out.append((rs, compare(before, now)))
        before = now
    return out


# --- A card's standing in each format ---------------------------------------------------------


@dataclass(frozen=True)
class CardStanding:
    """A card under one rule set (in effect today, or upcoming): `status` in words ('banned',
    'limited to 2 copies', 'not in the card pool', 'legal'), the cost that holds there, and
    the rule set's errata of the card."""

    format: str
    rule_set: RuleSet
    upcoming: bool
    status: str
    legal: bool
    cost: int
    errata: str


def card_standings(
    card, on: date | None = None, printed_in: Iterable[int] | None = None
) -> list[CardStanding]:
    """The card's standing under each format's rule set in effect on `on` (today when None)
    and the upcoming one (three queries: the game's rule sets, the card's entries in them,
    their expansions; `printed_in`, the ids of the expansions printing the card, is read
    when not given)."""
    on = on or today()
    sets = list(RuleSet.objects.filter(game_id=card.game_id).order_by("format", "effective"))
    chosen: list[tuple[RuleSet, bool]] = []
    by_format: dict[str, list[RuleSet]] = {}
    for rs in sets:
        by_format.setdefault(rs.format, []).append(rs)
    for found in by_format.values():
        now = [rs for rs in found if rs.effective <= on]
        later = [rs for rs in found if rs.effective > on]
        if now:
            chosen.append((now[-1], False))
        if later:
            chosen.append((later[0], True))
    if not chosen:
        return []
    ids = [rs.pk for rs, _ in chosen]
    entries = {e.rule_set_id: e for e in RuleSetCard.objects.filter(card=card, rule_set_id__in=ids)}
    legal_in: dict[int, set[int]] = {}
    for rs_id, exp_id in RuleSet.expansions.through.objects.filter(ruleset_id__in=ids).values_list(
        "ruleset_id", "expansion_id"
    ):
        legal_in.setdefault(rs_id, set()).add(exp_id)
    if printed_in is None:
        printed_in = card.printings.values_list("expansion_id", flat=True)
    printed_in = set(printed_in)
    out = []
    for rs, is_upcoming in chosen:
        entry = entries.get(rs.pk)
        pool = legal_in.get(rs.pk)
        cost = entry.cost if entry is not None and entry.cost is not None else card.cost
        if entry is not None and entry.banned:
            status, legal = "banned", False
        elif pool is not None and not (pool & printed_in):
            status, legal = "not in the card pool", False
        elif entry is not None and entry.limit is not None:
            status, legal = (
                f"limited to {entry.limit} {'copy' if entry.limit == 1 else 'copies'}",
                True,
            )
        else:
            status, legal = "legal", True
        out.append(
            CardStanding(
                format=rs.format,
                rule_set=rs,
                upcoming=is_upcoming,
                status=status,
                legal=legal,
                cost=cost,
                errata=entry.text if entry is not None else "",
            )
        )
    return out


def as_document_in(
    rule_set: RuleSet, found: list[Change], on: date, current: RuleSet | None
) -> dict[str, Any]:
    """A rule set of `history_with_changes` as the API answers it; `current` is the one in
    effect on `on`."""
    snap: Snapshot = rule_set.snapshot  # type: ignore[attr-defined]  # set by history_with_changes
    if rule_set.effective > on:
        status = "upcoming"
    else:
        status = "in effect" if rule_set == current else "past"
    return {
        "game": rule_set.game.slug,
        "format": rule_set.format,
        "code": rule_set.code,
        "name": rule_set.name,
        "announced": rule_set.announced,
        "effective": rule_set.effective,
        "status": status,
        "expansions": list(snap.expansions),
        "cards": [
            {"name": name, "banned": e[0], "limit": e[1], "cost": e[2], "text": e[3]}
            for name, e in sorted(snap.entries.items(), key=lambda kv: kv[0].lower())
        ],
        "note": rule_set.note,
        "sample": rule_set.sample,
        "changes": [c.as_dict() for c in found],
    }


def documents(game_slug: str, format: str, on: date | None = None) -> list[dict[str, Any]]:
    """Every rule set of a format as the API answers it, newest first (four queries)."""
    on = on or today()
    history = history_with_changes(game_slug, format)
    current = next((rs for rs, _ in reversed(history) if rs.effective <= on), None)
    out = []
    for rs, found in reversed(history):
        out.append(as_document_in(rs, found, on, current))
    return out
