"""An expansion file read and checked whole before anything is written: the expansion's own
fields, then every card row against its kind's schema; every error collected."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.utils.translation import ngettext

from validation.registry import GameDef, registry

from ..models import Card, Expansion, Printing, check_card_fields
from .report import (
    KNOWN_ROW_KEYS,
    KNOWN_TOP_KEYS,
    MAX_COST,
    NO_FACTION_WORDS,
    ImportReport,
    RowError,
    _too_long,
)


def read_expansion_file(path: str | Path) -> dict[str, Any]:
    """Read a JSON expansion file; a syntax error names its line and column."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    except ValueError as exc:  # a number of more than 4,300 digits
        raise ValueError(f"{path}: not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise ValueError(f"{path}: not valid JSON: nested too deeply") from exc
    return data


def _check_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(data: Any) -> tuple[ImportReport, list[dict[str, Any]], dict[str, Any]]:
    """Check the whole document; return the report (with errors) and the cleaned rows.

    Assumes nothing of `data` (any JSON value). The expansion's own fields are checked
    first; the cards only when `cards` is a list and the game is known (their checks
    depend on it). Every error is collected, none stops the others of its stage.
    """
    report = ImportReport()
    rows: list[dict[str, Any]] = []
    meta: dict[str, Any] = {}
    if not isinstance(data, dict):
        report.errors.append(RowError(None, "document", "the file must hold one JSON object"))
        return report, rows, meta
    # PostgreSQL text cannot hold NUL: every place holding one is an error, before the rest.
    report.errors.extend(_nul_errors(data))
    if report.errors:
        return report, rows, meta
    for key in sorted(set(data) - KNOWN_TOP_KEYS):
        report.errors.append(RowError(None, key, "unknown field"))
    game_def = _check_game(data, report)
    meta = _check_expansion_fields(data, report)
    cards = data.get("cards")
    if not isinstance(cards, list):
        report.errors.append(RowError(None, "cards", "required: a list of cards"))
        return report, rows, meta
    if game_def is None:
        return report, rows, meta
    return report, _check_cards(game_def, cards, report), meta


NUL_PROBLEM = "contains a NUL character (\\x00), which text cannot hold"


def _nul_places(value: Any, where: str) -> list[str]:
    """The paths (`attributes.weapons[2]`) of the strings and keys under `value` holding a
    NUL character. Assumes a JSON value (no cycles)."""
    if isinstance(value, str):
        return [where] if "\x00" in value else []
    places: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and "\x00" in key:
                places.append(path.replace("\x00", "\\x00"))
            else:
                places.extend(_nul_places(item, path))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            places.extend(_nul_places(item, f"{where}[{i}]"))
    return places


def _nul_errors(data: dict[str, Any]) -> list[RowError]:
    """An error for each field of the document holding a NUL character, cards by index."""
    errors = []
    cards = data.get("cards")
    for key, value in data.items():
        if key == "cards" and isinstance(cards, list):
            continue
        for place in _nul_places({key: value}, ""):
            errors.append(RowError(None, place, NUL_PROBLEM))
    if isinstance(cards, list):
        for i, row in enumerate(cards):
            name = row.get("name") if isinstance(row, dict) else None
            shown = name if isinstance(name, str) and "\x00" not in name else ""
            for place in _nul_places(row, ""):
                errors.append(RowError(i, place or "card", NUL_PROBLEM, shown))
    return errors


def _check_game(data: dict[str, Any], report: ImportReport) -> GameDef | None:
    """The game the document names (None, with an error in `report`, when it names none
    the registry knows). Assumes `data` is a dict; sets `report.game` to the slug as
    written when it is text, even an unknown one, so that the refusal can be logged."""
    slug = data.get("game")
    try:
        game_def = registry.get(slug) if isinstance(slug, str) else None
    except KeyError:
        game_def = None
    if game_def is None:
        report.errors.append(
            RowError(
                None, "game", f"{slug!r} is not a game; use one of {', '.join(registry.slugs())}"
            )
        )
    report.game = slug if isinstance(slug, str) else ""
    report.game_name = game_def.short_name if game_def is not None else ""
    return game_def


def _check_expansion_fields(data: dict[str, Any], report: ImportReport) -> dict[str, Any]:
    """Check the expansion's code, name, release date, sample flag and notice, in that
    order, adding their errors to `report` and setting `report.code`; return the cleaned
    values by field. Assumes `data` is a dict; a bad code or name leaves its key out of
    the result (the report has an error then, so nothing is written)."""
    errors = report.errors
    meta: dict[str, Any] = {}
    code = data.get("code")
    if not isinstance(code, str) or not code.strip() or len(code) > 20:
        errors.append(RowError(None, "code", "required: a short text such as 'RL1'"))
    else:
        report.code = meta["code"] = code.strip()
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append(RowError(None, "name", "required: the expansion's name"))
    elif problem := _too_long(Expansion, "name", name.strip()):
        errors.append(RowError(None, "name", problem))
    else:
        meta["name"] = name.strip()
    released = data.get("released")
    meta["released"] = None
    if released not in (None, ""):
        try:
            meta["released"] = dt.date.fromisoformat(str(released))
        except ValueError:
            errors.append(RowError(None, "released", f"{released!r} is not a date like 2024-05-01"))
    sample = data.get("sample", False)
    if not isinstance(sample, bool):
        errors.append(RowError(None, "sample", "must be true or false"))
    meta["sample"] = bool(sample)
    notice = data.get("notice", "")
    if notice is not None and not isinstance(notice, str):
        errors.append(RowError(None, "notice", "expected text"))
    elif notice and (problem := _too_long(Expansion, "notice", notice)):
        errors.append(RowError(None, "notice", problem))
    meta["notice"] = notice if isinstance(notice, str) else ""
    return meta


def _check_cards(game_def: GameDef, cards: list[Any], report: ImportReport) -> list[dict[str, Any]]:
    """Check every card row in order, adding each bad row's errors to `report` (and the
    note on factions written out in a game without any); return the clean rows, cleaned.
    Assumes `game_def` is the document's game, known to the registry."""
    rows: list[dict[str, Any]] = []
    checker = _CardRowChecker(game_def)
    for index, row in enumerate(cards):
        row_errors, cleaned = checker.check(index, row)
        report.errors.extend(row_errors)
        if cleaned is not None:
            rows.append(cleaned)
    if note := checker.no_faction_note():
        report.notes.append(note)
    return rows


#: A field's name and why its value cannot be imported.
Problem = tuple[str, str]


class _CardRowChecker:
    """Checks the card rows of one document, one at a time and in index order.

    It remembers the names (case-insensitive) and numbers seen so far, so that a repeat is
    reported on the later row and names the earlier one (a row with other errors still
    counts as seen), and the rows whose written faction means "none" in a game without
    factions (for the report's note).
    """

    def __init__(self, game_def: GameDef) -> None:
        self.game_def = game_def
        self.seen_names: dict[str, int] = {}
        self.seen_numbers: dict[str, int] = {}
        self.neutral_rows: list[str] = []

    def check(self, index: int, row: Any) -> tuple[list[RowError], dict[str, Any] | None]:
        """The errors of row `index` (unknown fields, name, faction, cost, texts, number,
        then the game's own checks of kind, faction and attributes, in that order) and,
        when it has none, the cleaned row. Assumes the rows before it were checked."""
        if not isinstance(row, dict):
            return [RowError(index, "card", "must be a JSON object")], None
        row_name = row.get("name")
        label = row_name if isinstance(row_name, str) else ""
        problems: list[Problem] = [
            (key, "unknown field") for key in sorted(set(row) - KNOWN_ROW_KEYS)
        ]
        problems += self._name_problems(index, row_name)
        kind = row.get("kind")
        faction, faction_problems = self._faction(index, label, row.get("faction", "") or "")
        problems += faction_problems
        cost = row.get("cost", 0)
        problems += _cost_problems(cost)
        problems += _text_problems(row)
        number = str(row.get("number", "") or "")
        problems += self._number_problems(index, number)
        field_errors, cleaned = check_card_fields(
            self.game_def, kind, faction, row.get("attributes", {})
        )
        problems += [
            (name, message) for name, messages in field_errors.items() for message in messages
        ]
        if problems:
            return [RowError(index, name, message, label) for name, message in problems], None
        return [], {
            "name": label.strip(),
            "kind": kind,
            "faction": faction,
            "cost": cost,
            "text": str(row.get("text", "") or ""),
            "attributes": cleaned,
            "number": number,
            "rarity": str(row.get("rarity", "") or ""),
            "flavour": str(row.get("flavour", "") or ""),
            "artist": str(row.get("artist", "") or ""),
        }

    def _name_problems(self, index: int, row_name: Any) -> list[Problem]:
        """Why the row's name is missing, too long or already taken by an earlier row.
        A name that is fine on its own is remembered, even when it repeats one."""
        if not isinstance(row_name, str) or not row_name.strip():
            return [("name", "required")]
        if problem := _too_long(Card, "name", row_name.strip()):
            return [("name", problem)]
        key = row_name.strip().lower()
        problems = []
        if key in self.seen_names:
            problems.append(("name", f"the same name as card #{self.seen_names[key]}"))
        self.seen_names.setdefault(key, index)
        return problems

    def _faction(self, index: int, label: str, faction: Any) -> tuple[str, list[Problem]]:
        """The faction to check and store, and why it is not text: "" for a value that is
        not text and, in a game without factions, for a word meaning none (the row is then
        remembered for the note). Assumes a missing or empty faction came as ""."""
        if not isinstance(faction, str):
            got = type(faction).__name__
            return "", [("faction", f"expected text (a faction's code), got {got}")]
        if not self.game_def.factions and faction.strip().lower() in NO_FACTION_WORDS:
            # A game without factions: "neutral" (or blank) written out means no faction.
            if faction:
                self.neutral_rows.append(label or f"#{index}")
            return "", []
        return faction, []

    def _number_problems(self, index: int, number: str) -> list[Problem]:
        """Whether an earlier row has the same collector number (an empty one never
        repeats). The number is remembered in any case."""
        if not number:
            return []
        problems = []
        if number in self.seen_numbers:
            problems.append(
                ("number", f"number {number} is also card #{self.seen_numbers[number]}'s")
            )
        self.seen_numbers.setdefault(number, index)
        return problems

    def no_faction_note(self) -> str | None:
        """The report's note on the rows whose faction was written out in a game without
        factions (None when there were none). Assumes every row has been checked."""
        if not self.neutral_rows:
            return None
        shown = ", ".join(self.neutral_rows[:5]) + (" …" if len(self.neutral_rows) > 5 else "")
        n = len(self.neutral_rows)
        cards = ngettext("%(n)d card", "%(n)d cards", n) % {"n": n}
        return (
            f"{self.game_def.name} has no factions: the faction written on "
            f"{cards} ({shown}) means no faction and is stored as none."
        )


def _cost_problems(cost: Any) -> list[Problem]:
    """Why a row's cost (0 when missing) is not an integer from 0 to MAX_COST."""
    if not _check_int(cost):
        return [("cost", f"expected an integer, got {_short_repr(cost)}")]
    if abs(cost) > MAX_COST:
        return [("cost", f"{_short_repr(cost)} is out of range (at most {MAX_COST:,})")]
    if cost < 0:
        return [("cost", f"{cost} is negative; a cost is 0 or more")]
    return []


def _text_problems(row: dict[str, Any]) -> list[Problem]:
    """Why the row's text, rarity, flavour, artist or number (in that order) cannot be
    stored as text: not text nor a number, a number too large to write out, or too long
    for its column (the printing's short fields only). Missing or null is fine."""
    problems: list[Problem] = []
    for text_key in ("text", "rarity", "flavour", "artist", "number"):
        value = row.get(text_key, "")
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
            problems.append((text_key, "expected text"))
        elif isinstance(value, int) and abs(value) > 10**18:
            problems.append((text_key, "expected text, got a number too large"))
        elif text_key in ("rarity", "artist", "number") and value:
            if problem := _too_long(Printing, text_key, str(value)):
                problems.append((text_key, problem))
    return problems


def _short_repr(value: Any) -> str:
    """A value for a message, never longer than a line (a 5,000-digit number is not)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a number of {len(str(abs(value))):,} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
