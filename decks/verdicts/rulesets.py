"""A saved deck and its format's rule sets: follow or pin, and what the upcoming rule set
will do to the deck.

A deck follows its format (checked under the rule set in effect today) unless its owner pins
it to one rule set (`decks.services.deck_pin`). `deck_rule_sets`
answers what the deck page and the builder show: the rule set the deck is checked under,
whether it is pinned, the format's rule sets to pin to, and (for a deck that follows) the
upcoming rule set's effect on it: every change it makes to the deck's cards, then the verdict:
"From 1 Jan 2027: Card A banned (4 copies); Card B no longer banned; Card C no longer limited
(was 2); Card D cost 3 → 4; points 52/50 — not legal then (1 problem)".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import ngettext

from catalogue import rulesets
from catalogue.models import RuleSet
from catalogue.services import card_facts_by_names
from decks.lists import ListEntry, SavedList, version_check
from validation.runner import Report
from validation.types import CardFacts, RuleSetFacts

#: How long a deck's upcoming effect is kept (the key changes with its list and rule sets).
EFFECT_SECONDS = 600

#: The form of an effect's items: one stored in another form is computed anew.
EFFECT_FORM = 2


@dataclass
class Effect:
    """What a rule set will do to a deck from its date: `items` in words, the verdict then,
    and the figures (points and their limit, when the game counts them). `legal_now`: the
    deck's verdict today (None: not known), to say that it becomes legal."""

    rule_set: RuleSet
    items: list[str] = field(default_factory=list)
    legal: bool = True
    errors: int = 0
    legal_now: bool | None = None

    @property
    def verdict(self) -> str:
        """The deck's verdict under the rule set: "legal then", "becomes legal" (not legal
        today) or "not legal then (2 problems)"."""
        if self.legal:
            return "becomes legal" if self.legal_now is False else "legal then"
        return ngettext(
            "not legal then (%(n)d problem)", "not legal then (%(n)d problems)", self.errors
        ) % {"n": self.errors}

    @property
    def text(self) -> str:
        when = f"From {self.rule_set.effective.day} {self.rule_set.effective:%b %Y}"
        said = "; ".join(self.items) if self.items else "no change to this deck"
        return f"{when}: {said} — {self.verdict}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set.code,
            "effective": self.rule_set.effective.isoformat(),
            "items": list(self.items),
            "legal": self.legal,
            "errors": self.errors,
            "verdict": self.verdict,
            "text": self.text,
        }


def _counts(entries: Iterable[ListEntry]) -> tuple[dict[str, int], dict[str, str]]:
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for e in entries:
        key = e.card.lower()
        counts[key] = counts.get(key, 0) + e.count
        names.setdefault(key, e.card)
    return counts, names


def _copies(n: int) -> str:
    return f"{n} {'copy' if n == 1 else 'copies'}"


def effect_of(*, saved: SavedList, now: RuleSetFacts | None, then: RuleSet) -> Effect:
    """What rule set `then` does to a deck's list (`saved`) against the rule set it is
    checked under now (`now`; None: the bare format): each change to the deck's cards
    (`effect_parts`), the points against their limit, and the verdict."""
    counts, names = _counts(saved.entries)
    later = rulesets.facts(then, names.values())
    cards = card_facts_by_names(game_slug=saved.game.slug, names=names.values())
    report = version_check(saved, pool=cards, rule_set=later)
    items, legal, errors = effect_parts(
        entries=saved.entries, now=now, later=later, cards=cards, report=report
    )
    return Effect(rule_set=then, items=items, legal=legal, errors=errors)


def effect_parts(
    *,
    entries: Iterable[ListEntry],
    now: RuleSetFacts | None,
    later: RuleSetFacts,
    cards: Mapping[str, CardFacts],
    report: Report,
) -> tuple[list[str], bool, int]:
    """The effect's items, verdict and number of errors, from the list's check under the
    upcoming rule set (`report`) and the facts of both rule sets (no query: a re-check
    chunk computes it for each deck in memory; `cards` maps lower-case names to facts).
    The items: card by card in name order, every difference between the two rule sets for
    that card (banned or no longer, out of or back in the card pool, a limit set, raised,
    lowered or lifted, its cost, its errata), then the points against their limit."""
    counts, names = _counts(entries)
    items: list[str] = []
    costs_now = now.costs if now is not None else {}
    banned_now = now.banned if now is not None else frozenset()
    pool_now = now.pool if now is not None else None
    limits_now = now.limits if now is not None else {}
    texts_now = now.texts if now is not None else {}
    for key in sorted(counts, key=lambda k: names[k].lower()):
        name, n = names[key], counts[key]
        if key in later.banned:
            if key not in banned_now:
                items.append(f"{name} banned ({_copies(n)})")
            continue
        if key in banned_now:
            items.append(f"{name} no longer banned")
        in_pool_now = pool_now is None or key in pool_now
        in_pool_then = later.pool is None or key in later.pool
        if in_pool_now and not in_pool_then:
            items.append(f"{name} leaves the card pool ({_copies(n)})")
        elif in_pool_then and not in_pool_now:
            items.append(f"{name} back in the card pool")
        before, limit = limits_now.get(key), later.limits.get(key)
        if before != limit:
            if limit is None:
                items.append(f"{name} no longer limited (was {before})")
            elif before is None:
                items.append(f"{name} limited to {limit} ({_copies(n)})")
            else:
                items.append(f"{name} limit {before} → {limit} ({_copies(n)})")
        card = cards.get(key)
        if card is not None:
            old, new = costs_now.get(key, card.cost), later.costs.get(key, card.cost)
            if old != new:
                items.append(f"{name} cost {old} → {new}")
        text_now, text_then = texts_now.get(key, ""), later.texts.get(key, "")
        if text_now != text_then:
            said = "removed" if not text_then else "changed" if text_now else "added"
            items.append(f"{name} errata {said}")
    limit = report.totals.get("limit")
    if report.points is not None and isinstance(limit, int):
        items.append(f"points {report.points}/{limit}")
    return items, report.legal, len(report.errors)


def effect_key(in_force: RuleSet | None, upcoming: RuleSet) -> str:
    """What a stored effect was computed for: the rule sets in force and upcoming, and when
    each last changed (an edit of either makes the stored effect out of date)."""
    return ":".join(
        str(part)
        for part in (
            f"v{EFFECT_FORM}",
            in_force.pk if in_force else 0,
            in_force.updated_at.timestamp() if in_force else 0,
            upcoming.pk,
            upcoming.updated_at.timestamp(),
        )
    )


def stored_effect(
    *, key: str, saved: SavedList, items: list[str], legal: bool, errors: int
) -> dict[str, Any]:
    """An effect as `Deck.upcoming` stores it, for the version `saved` was read from, under
    `key` (effect_key)."""
    return {
        "key": key,
        "version": saved.version,
        "revision": saved.revision,
        "items": list(items),
        "legal": legal,
        "errors": errors,
    }


def upcoming_effect(*, deck, version) -> dict[str, Any]:
    """The upcoming rule set's effect on `version` of `deck`, as `Deck.upcoming` stores it
    ({} for a pinned deck, a deck without a list, or a format with no upcoming rule set):
    one query when there is none, a handful more when there is one (its facts and the one in
    effect for the list's cards, the list's cards, a check)."""
    if version is None or deck.rule_set_pin_id is not None:
        return {}
    choices = rulesets.history(deck.game.slug, deck.format)
    on = rulesets.today()
    upcoming = next((rs for rs in choices if rs.effective > on), None)
    if upcoming is None:
        return {}
    in_force = next((rs for rs in reversed(choices) if rs.effective <= on), None)
    return _effect_between(deck, version, in_force, upcoming)


def _effect_between(deck, version, in_force: RuleSet | None, upcoming: RuleSet) -> dict[str, Any]:
    """The effect on `version` of going from `in_force` to `upcoming`, as stored."""
    saved = SavedList.of_deck(deck, version)
    now = rulesets.facts(in_force, saved.card_names) if in_force is not None else None
    found = effect_of(saved=saved, now=now, then=upcoming)
    return stored_effect(
        key=effect_key(in_force, upcoming),
        saved=saved,
        items=found.items,
        legal=found.legal,
        errors=found.errors,
    )


@dataclass
class DeckRuleSets:
    """What the deck page and the builder show of a deck's rule sets."""

    pinned: bool
    checked_under: RuleSet | None
    in_force: RuleSet | None
    upcoming: RuleSet | None
    choices: list[RuleSet]
    effect: Effect | None = None
    pin_lost: bool = False

    def as_dict(self) -> dict[str, Any]:
        def brief(rs: RuleSet | None) -> dict[str, Any] | None:
            if rs is None:
                return None
            return {
                "code": rs.code,
                "name": rs.name,
                "effective": rs.effective.isoformat(),
            }

        return {
            "follows": not self.pinned,
            "checked_under": brief(self.checked_under),
            "in_force": brief(self.in_force),
            "upcoming": brief(self.upcoming),
            "upcoming_effect": self.effect.as_dict() if self.effect else None,
        }


def deck_rule_sets(*, deck, with_effect: bool = True) -> DeckRuleSets:
    """The deck's rule sets (see DeckRuleSets): a few queries, plus (with `with_effect`, for a
    deck that follows its format and has a saved list) one check of the list under the
    upcoming rule set."""
    choices = rulesets.history(deck.game.slug, deck.format)
    on = rulesets.today()
    in_force = next((rs for rs in reversed(choices) if rs.effective <= on), None)
    upcoming = next((rs for rs in choices if rs.effective > on), None)
    pin = next((rs for rs in choices if rs.pk == deck.rule_set_pin_id), None)
    state = DeckRuleSets(
        pinned=pin is not None,
        checked_under=pin if pin is not None else in_force,
        in_force=in_force,
        upcoming=upcoming,
        choices=choices,
        pin_lost=deck.rule_set_pin_id is not None and pin is None,
    )
    version = deck.current_version
    if with_effect and pin is None and upcoming is not None and version is not None:
        # A page reads the effect stored with the verdict (computed when the deck was saved
        # or re-checked) when it is the one of this list under these rule sets.
        kept = deck.upcoming or {}
        if not (
            kept.get("key") == effect_key(in_force, upcoming)
            and kept.get("version") == version.pk
            and kept.get("revision") == version.revision
        ):
            # Otherwise (not stored yet) it is computed and kept for a while in the cache,
            # under a key that changes with the list and the rule sets.
            key = ":".join(
                str(part)
                for part in (
                    "upcoming-effect",
                    EFFECT_FORM,
                    deck.pk,
                    version.pk,
                    version.revision,
                    in_force.pk if in_force else 0,
                    in_force.updated_at.timestamp() if in_force else 0,
                    upcoming.pk,
                    upcoming.updated_at.timestamp(),
                )
            )
            kept = cache.get(key)
            if kept is None:
                kept = _effect_between(deck, version, in_force, upcoming)
                cache.set(key, kept, EFFECT_SECONDS)
        state.effect = Effect(
            upcoming, list(kept["items"]), kept["legal"], kept["errors"], legal_now=deck.legal
        )
    return state


#: The most rule sets a deck's legality is answered for (the newest ones).
LEGALITY_SETS = 20


def deck_legality(*, deck) -> dict[str, Any]:
    """The deck's current list checked under each of its format's rule sets (the newest
    LEGALITY_SETS, newest first) and under the format's own rules: code, dates, status today,
    verdict, the error codes and messages. Which one the deck is checked under, and whether
    it follows the format. A deck without a list answers no checks."""
    state = deck_rule_sets(deck=deck, with_effect=False)
    version = deck.current_version
    on = rulesets.today()
    checks: list[dict[str, Any]] = []
    if version is not None:
        saved = SavedList.of_deck(deck, version)
        names = saved.card_names
        pool = card_facts_by_names(game_slug=deck.game.slug, names=names)
        sets: list[RuleSet | None] = [*reversed(state.choices[-LEGALITY_SETS:]), None]
        for rs in sets:
            facts = rulesets.facts(rs, names) if rs is not None else None
            report = version_check(saved, pool=pool, rule_set=facts)
            if rs is None:
                status = "bare format"
            elif rs.effective > on:
                status = "upcoming"
            else:
                status = "in effect" if rs == state.in_force else "past"
            checks.append(
                {
                    "rule_set": rs.code if rs else None,
                    "name": rs.name if rs else "",
                    "effective": rs.effective if rs else None,
                    "status": status,
                    "legal": report.legal,
                    "errors": [{"code": e.code, "message": e.message} for e in report.errors],
                    "totals": report.totals,
                }
            )
    return {
        "follows": not state.pinned,
        "checked_under": state.checked_under.code if state.checked_under else None,
        "checks": checks,
    }
