"""A rule set file checked whole against the catalogue and the stored rule sets: every rule
set and card row, every error collected (`check_rule_sets`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.db.models.functions import Lower

from validation.registry import registry

from ..models import Card, Expansion, Game, RuleSet
from .plans import (
    _plan_changes,
)
from .report import (
    FILE_VERSION,
    KNOWN_ROW_KEYS,
    KNOWN_TOP_KEYS,
    MAX_EXPANSIONS,
    MAX_ROWS,
    MAX_SETS,
    WHOLE_NUMBER_ROW_KEYS,
    Entry,
    Plan,
    RuleSetError,
    RuleSetImportReport,
)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _date(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


#: Adds an error of the rule set being checked: add(field, message).
Add = Callable[..., None]


def _own_fields(
    data: dict[str, Any], add: Add
) -> tuple[str, dt.date | None, dt.date | None, str, Any]:
    """The rule set's name, dates, note and sample flag, an error added for each that is
    not one (a bad name or note read as "")."""
    name = data.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > 200:
        add("name", "expected a text of at most 200 characters")
        name = ""
    announced = _date(data.get("announced"))
    if announced is None:
        add("announced", f"{data.get('announced')!r} is not a date like 2026-12-01")
    effective = _date(data.get("effective"))
    if effective is None:
        add("effective", f"{data.get('effective')!r} is not a date like 2027-01-01")
    if announced and effective and effective < announced:
        add(
            "effective",
            f"{effective.isoformat()} is before the announcement on {announced.isoformat()}",
        )
    note = data.get("note", "")
    if not isinstance(note, str) or len(note) > 2000:
        add("note", "expected a text of at most 2,000 characters")
        note = ""
    sample = data.get("sample", False)
    if not isinstance(sample, bool):
        add("sample", "must be true or false")
    return name, announced, effective, note, sample


class _Checker:
    """Checks the rule sets of one file, reading the catalogue in a few queries per game."""

    def __init__(self) -> None:
        self.errors: list[RuleSetError] = []
        self._games: dict[str, Game | None] = {}
        self._expansions: dict[str, dict[str, str]] = {}

    def game(self, slug: str) -> Game | None:
        if slug not in self._games:
            self._games[slug] = Game.objects.filter(slug=slug).first()
        return self._games[slug]

    def expansions(self, slug: str) -> dict[str, str]:
        """Upper-cased code -> code of the game's expansions."""
        if slug not in self._expansions:
            codes = Expansion.objects.filter(game__slug=slug).values_list("code", flat=True)
            self._expansions[slug] = {c.upper(): c for c in codes}
        return self._expansions[slug]

    def check(self, index: int, data: Any) -> Plan | None:
        """One rule set of the file checked, every error added to `errors`: its plan, or
        None when it has an error."""
        err = self.errors
        before = len(err)
        if not isinstance(data, dict):
            err.append(RuleSetError(index, "rule set", "must be a JSON object"))
            return None
        code = data.get("code")
        shown = code.strip() if isinstance(code, str) and not _has_nul(code) else ""

        def add(field_: str, message: str, **kw: Any) -> None:
            err.append(RuleSetError(index, field_, message, shown, **kw))

        if _has_nul(data):
            add("rule set", "contains a NUL character (\\x00), which text cannot hold")
            return None
        for key in sorted(set(data) - KNOWN_TOP_KEYS):
            add(key, "unknown field")
        version = data.get("rule_set", FILE_VERSION)
        if version != FILE_VERSION:
            add("rule_set", f"the file format's version is {FILE_VERSION}; got {version!r}")
        game, fmt = self._game_and_format(data, add)
        if not shown or len(shown) > 40 or any(ch.isspace() for ch in shown):
            add("code", "required: a short code without spaces, such as 'S2' (40 characters)")
        name, announced, effective, note, sample = _own_fields(data, add)
        expansions = self._listed_expansions(data.get("expansions", []), game, add)
        rows = data.get("cards", [])
        if rows is None:
            rows = []
        entries: dict[int, tuple[str, Entry]] = {}
        if not isinstance(rows, list):
            add("cards", "expected a list of card entries")
        elif len(rows) > MAX_ROWS:
            add("cards", f"{len(rows):,} card entries; at most {MAX_ROWS:,}")
        elif game is not None:
            entries = self._rows(index, shown, game, rows)
        if len(err) > before or game is None:
            return None
        # each was checked above: a missing or bad one is an error, and there was none
        assert fmt is not None and announced is not None and effective is not None
        return Plan(
            game=game.slug,
            format=fmt,
            code=shown,
            name=name.strip(),
            announced=announced,
            effective=effective,
            expansions=expansions,
            note=note,
            sample=sample,
            entries=entries,
        )

    def _game_and_format(self, data: dict[str, Any], add: Add) -> tuple[Game | None, Any]:
        """The rule set's game (its row, None when it names no registered game) and the
        format it names, an error added when either is not one."""
        slug = data.get("game")
        game_def = registry.get(slug) if isinstance(slug, str) and slug in registry else None
        game = self.game(slug) if game_def is not None and isinstance(slug, str) else None
        if game_def is None or game is None:
            add("game", f"{slug!r} is not a game; use one of {', '.join(registry.slugs())}")
        fmt = data.get("format")
        if game_def is not None and (not isinstance(fmt, str) or fmt not in game_def.formats):
            add(
                "format",
                f"{fmt!r} is not a format of {game_def.name}; use one of "
                f"{', '.join(game_def.formats)}",
            )
        return game, fmt

    def _listed_expansions(self, listed: Any, game: Game | None, add: Add) -> list[str]:
        """The legal expansions the rule set lists, by their stored codes (any case in the
        file), an error added for each unknown or listed twice."""
        expansions: list[str] = []
        if listed is None:
            listed = []
        if not isinstance(listed, list) or len(listed) > MAX_EXPANSIONS:
            add("expansions", f"expected a list of expansion codes (at most {MAX_EXPANSIONS})")
            return expansions
        if game is None:
            return expansions
        known = self.expansions(game.slug)
        for i, item in enumerate(listed):
            found = known.get(item.upper()) if isinstance(item, str) else None
            if found is None:
                add(
                    f"expansions[{i}]",
                    f"{item!r} is not an expansion of {game.name}; known: "
                    f"{', '.join(sorted(known.values())) or 'none'}",
                )
            elif found in expansions:
                add(f"expansions[{i}]", f"{found} is listed twice")
            else:
                expansions.append(found)
        return expansions

    def _rows(self, index: int, code: str, game: Game, rows: list[Any]):
        """The card rows of one rule set, checked: card id -> (canonical name, Entry). One
        query for every named card."""
        names = {
            r["name"].strip().lower()
            for r in rows
            if isinstance(r, dict) and isinstance(r.get("name"), str)
        }
        cards = {
            lname: (pk, name)
            for pk, name, lname in Card.objects.annotate(lname=Lower("name"))
            .filter(game=game, lname__in=names)
            .values_list("id", "name", "lname")
        }
        out: dict[int, tuple[str, Entry]] = {}
        for i, row in enumerate(rows):
            written = row.get("name") if isinstance(row, dict) else None
            label = written.strip() if isinstance(written, str) else ""

            def add(field_: str, message: str, i: int = i, label: str = label) -> None:
                self.errors.append(RuleSetError(index, field_, message, code, i, label))

            if not isinstance(row, dict):
                add("card", "must be a JSON object with a name")
                continue
            for key in sorted(set(row) - KNOWN_ROW_KEYS):
                add(key, "unknown field")
            found = cards.get(label.lower()) if label else None
            if not label:
                add("name", "required: the card's name")
            elif found is None:
                add("name", f"no card named {label!r} in {game.name}")
            entry = Entry()
            banned = row.get("banned", False)
            if not isinstance(banned, bool):
                add("banned", "must be true or false")
            else:
                entry.banned = banned
            for key, top, shown in WHOLE_NUMBER_ROW_KEYS:
                value = row.get(key)
                if value is None:
                    continue
                if _is_int(value) and 0 <= value <= top:
                    setattr(entry, key, value)
                else:
                    add(key, f"{value!r} is not a whole number from 0 to {shown}")
            text = row.get("text", "")
            if not isinstance(text, str) or len(text) > 5000:
                add("text", "expected a text of at most 5,000 characters")
            else:
                entry.text = text.strip()
            if not (
                entry.banned or entry.limit is not None or entry.cost is not None or entry.text
            ):
                if set(row) <= {"name"}:
                    add("card", "says nothing: give banned, limit, cost or text")
                continue
            if found is not None:
                pk, name = found
                if pk in out:
                    add("name", f"{name} has two entries in this rule set")
                else:
                    out[pk] = (name, entry)
        return out


def check_rule_sets(data: Any) -> RuleSetImportReport:
    """Check a file's document (one rule set or a list of them) against the catalogue and
    the stored rule sets; the report holds every error, or the plan of each rule set."""
    report = RuleSetImportReport()
    items = data if isinstance(data, list) else [data]
    if isinstance(data, list) and not data:
        report.errors.append(RuleSetError(0, "document", "the list holds no rule set"))
        return report
    if len(items) > MAX_SETS:
        report.errors.append(
            RuleSetError(0, "document", f"{len(items)} rule sets; at most {MAX_SETS} a file")
        )
        return report
    checker = _Checker()
    plans = [checker.check(i, item) for i, item in enumerate(items)]
    report.errors = checker.errors
    seen_code: dict[tuple[str, str, str], int] = {}
    seen_day: dict[tuple[str, str, dt.date], int] = {}
    for i, plan in enumerate(plans):
        if plan is None:
            continue
        key = (plan.game, plan.format, plan.code)
        day = (plan.game, plan.format, plan.effective)
        if key in seen_code:
            report.errors.append(
                RuleSetError(
                    i,
                    "code",
                    f"the file holds {plan.code} twice (also #{seen_code[key]})",
                    plan.code,
                )
            )
        if day in seen_day:
            report.errors.append(
                RuleSetError(
                    i,
                    "effective",
                    f"another rule set of {plan.format} in this file (#{seen_day[day]}) takes "
                    f"effect on {plan.effective.isoformat()} too",
                    plan.code,
                )
            )
        seen_code.setdefault(key, i)
        seen_day.setdefault(day, i)
        clash = (
            RuleSet.objects.filter(
                game__slug=plan.game, format=plan.format, effective=plan.effective
            )
            .exclude(code=plan.code)
            .values_list("code", flat=True)
            .first()
        )
        moving = {
            p.code
            for p in plans
            if p is not None and p.game == plan.game and p.format == plan.format
        }
        if clash is not None and clash not in moving:
            report.errors.append(
                RuleSetError(
                    i,
                    "effective",
                    f"rule set {clash} of {plan.format} already takes effect on "
                    f"{plan.effective.isoformat()}; two rule sets of one format cannot",
                    plan.code,
                )
            )
    if not report.errors:
        report.plans = [p for p in plans if p is not None]
        for plan in report.plans:
            _plan_changes(plan)
    return report
