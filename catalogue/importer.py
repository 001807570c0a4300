"""Expansion import and export in the JSON format of the game spec.

An import is all-or-nothing: every row is checked first and every bad row reported (its
index, the field and why); only a file without a single error is written, in one
transaction. Re-importing the same file updates in place and never duplicates.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils.translation import ngettext

from validation.registry import GameDef, registry

from . import rulesets
from .file_imports import FileImportFailed, FileImportReport
from .models import Card, Expansion, Game, Printing, check_card_fields
from .search.indexes import ensure_attribute_indexes
from .services import catalogue_changed, catalogue_files_changed

logger = logging.getLogger(__name__)

CARD_FIELDS = ("kind", "faction", "cost", "text", "attributes")
PRINTING_FIELDS = ("number", "rarity", "flavour", "artist")
KNOWN_ROW_KEYS = {"name", *CARD_FIELDS, *PRINTING_FIELDS}
KNOWN_TOP_KEYS = {"game", "code", "name", "released", "sample", "notice", "cards"}
#: Faction values that mean "no faction" in a game without factions.
NO_FACTION_WORDS = frozenset({"", "neutral", "none"})
#: The range of a cost (the column is a 32-bit integer; no game comes near this).
MAX_COST = 1_000_000
#: Namespace of the advisory lock an import holds on its game (PostgreSQL).
IMPORT_LOCK = 0x43415244  # "CARD"
#: Rows written per statement: a 20,000-card file is 20 inserts of cards and 20 of
#: printings, each well within the statement timeout, in the one transaction.
BATCH_SIZE = 1000
#: Rows per UPDATE where Django's bulk_update is used (SQLite): it writes a CASE over the
#: batch's ids for every column, whose cost grows with the square of the batch.
UPDATE_BATCH_SIZE = 100


def _too_long(model, field_name: str, value: str) -> str | None:
    """Why a text is too long for its column (None when it fits)."""
    limit = model._meta.get_field(field_name).max_length
    if limit is not None and len(value) > limit:
        return f"{len(value):,} characters; at most {limit}"
    return None


@dataclass(frozen=True)
class RowError:
    """One reason a file cannot be imported. `index` is the card's position in `cards`
    (None for the expansion's own fields)."""

    index: int | None
    field: str
    message: str
    name: str = ""

    def __str__(self) -> str:
        where = "expansion" if self.index is None else f"card #{self.index}"
        if self.name:
            where += f" ({self.name})"
        return f"{where}, {self.field}: {self.message}"


@dataclass(frozen=True)
class PoolLeftOut:
    """A rule set of one of the game's formats, in force or upcoming, whose legal expansions
    do not list the imported expansion: the expansion's cards are out of that format's
    pool under it (a rule set listing no expansion takes them all, and is never one)."""

    format: str
    format_name: str
    code: str
    name: str
    rule_set_id: int
    effective: dt.date
    upcoming: bool

    def text(self, expansion: str) -> str:
        when = (
            f"upcoming, in force from {self.effective.isoformat()}"
            if self.upcoming
            else f"in force since {self.effective.isoformat()}"
        )
        named = f"{self.code} ({self.name})" if self.name else self.code
        return (
            f"{self.format_name}: rule set {named}, {when}, does not list {expansion}: "
            f"its cards are out of the {self.format_name} pool; edit the rule set to add it."
        )


@dataclass
class ImportReport(FileImportReport):
    game: str = ""
    #: The game's name as its package spells it (`GameDef.short_name`), "" when unknown.
    game_name: str = ""
    code: str = ""
    expansion_created: bool = False
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: For each updated card (by its new name): the fields that change, as
    #: (field, before, after), attributes one key each ("attributes.speed").
    changes: dict[str, list[tuple[str, Any, Any]]] = field(default_factory=dict)
    #: The formats whose rule set in force (or upcoming) leaves the expansion out.
    left_out: list[PoolLeftOut] = field(default_factory=list)

    def left_out_notes(self) -> list[str]:
        return [entry.text(self.code) for entry in self.left_out]

    @property
    def left_out_items(self) -> list[tuple[PoolLeftOut, str]]:
        return [(entry, entry.text(self.code)) for entry in self.left_out]

    def counts(self) -> str:
        n = len(self.created)
        if self.dry_run:
            made = ngettext("%(n)d card would be created", "%(n)d cards would be created", n)
        else:
            made = ngettext("%(n)d card was created", "%(n)d cards were created", n)
        return (
            f"{self.game_name or self.game} {self.code}: {made % {'n': n}}, "
            f"{len(self.updated)} updated, {len(self.unchanged)} unchanged."
        )


class ImportFailed(FileImportFailed):
    """An expansion file with at least one bad row (`report`: every one)."""

    report: ImportReport


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


def _lock_game(slug: str) -> None:
    """Serialise the imports of one game (PostgreSQL; a transaction-level advisory lock): a
    second import of the same new expansion waits for the first to commit, then finds it
    and updates it in place, instead of failing on the unique constraints."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [IMPORT_LOCK, slug])


def analyze_catalogue() -> None:
    """Refresh the planner's statistics of the catalogue's tables (PostgreSQL): the search's
    plans depend on them, and autovacuum never analyses a small table (with none, a search
    over 70 cards was planned as 70 repeated sub-searches: 50 ms instead of 3)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table in (
            "catalogue_game",
            "catalogue_expansion",
            "catalogue_card",
            "catalogue_printing",
        ):
            cursor.execute(f"ANALYZE {table}")


#: progress(stage, done, total): called as an import goes ("cards", "printings").
Progress = Callable[[str, int, int], None]


def _lift_statement_timeout() -> None:
    """For the rest of the transaction only (SET LOCAL), PostgreSQL's statement timeout is
    IMPORT_STATEMENT_TIMEOUT_MS (0: none) instead of the site's: an import is a staff
    action whose batches, on a large file, may together outlast a request's limit."""
    if connection.vendor != "postgresql":
        return
    timeout = int(getattr(settings, "IMPORT_STATEMENT_TIMEOUT_MS", 0))
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL statement_timeout = {timeout:d}")


def _batches(items: list[Any], size: int = BATCH_SIZE):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _update_rows(model, objs: list[Any], fields: list[str], progress: Progress, stage: str):
    """Write `fields` of the saved `objs` back, in batches. On PostgreSQL one
    `UPDATE … FROM (VALUES …)` of BATCH_SIZE rows a statement (Django's bulk_update spent
    10 ms of Python a row building its CASE expressions: 20,000 cards took minutes);
    elsewhere bulk_update in batches of UPDATE_BATCH_SIZE."""
    total, done = len(objs), 0
    if connection.vendor != "postgresql":
        for batch in _batches(objs, UPDATE_BATCH_SIZE):
            model.objects.bulk_update(batch, fields)
            done += len(batch)
            _report_every_batch(progress, stage, done - len(batch), done, total)
        return
    meta = model._meta
    columns = [meta.get_field(f) for f in fields]
    pk = meta.pk
    casts = [pk.db_type(connection)] + [c.db_type(connection) for c in columns]
    row_sql = "(" + ", ".join(f"%s::{cast}" for cast in casts) + ")"
    names = ", ".join(connection.ops.quote_name(c.column) for c in [pk, *columns])
    sets = ", ".join(
        f"{connection.ops.quote_name(c.column)} = v.{connection.ops.quote_name(c.column)}"
        for c in columns
    )
    table = connection.ops.quote_name(meta.db_table)
    pk_col = connection.ops.quote_name(pk.column)
    with connection.cursor() as cursor:
        for batch in _batches(objs):
            params: list[Any] = []
            for obj in batch:
                params.append(obj.pk)
                for c in columns:
                    params.append(c.get_db_prep_save(getattr(obj, c.attname), connection))
            cursor.execute(
                f"UPDATE {table} AS t SET {sets} "
                f"FROM (VALUES {', '.join([row_sql] * len(batch))}) AS v({names}) "
                f"WHERE t.{pk_col} = v.{pk_col}",
                params,
            )
            done += len(batch)
            progress(stage, done, total)


def _report_every_batch(progress: Progress, stage: str, before: int, done: int, total: int):
    """Report `done` when it crossed a multiple of BATCH_SIZE since `before`, or finished."""
    if done == total or done // BATCH_SIZE > before // BATCH_SIZE:
        progress(stage, done, total)


def expansion_import(
    *, data: Any, dry_run: bool = False, progress: Progress | None = None
) -> ImportReport:
    """Import one expansion document. Raises ImportFailed (with every error) on a bad file;
    with `dry_run` nothing is written and the report says what would change.

    Assumes nothing of `data`: it is checked whole before anything is written. The writes
    share one transaction, under the game's advisory lock, in batches of BATCH_SIZE rows,
    with the statement timeout lifted for that transaction only; a dry run makes them all
    and then rolls them back, so that its report counts exactly what an import would do.
    `progress` hears of every batch written.
    """
    report, rows, meta = _check(data)
    report.dry_run = dry_run
    if report.errors:
        logger.warning(
            "import refused",
            extra={"game": report.game, "code": report.code, "errors": len(report.errors)},
        )
        raise ImportFailed(report)
    game_def = registry.get(report.game)
    logger.info(
        "import started",
        extra={"game": report.game, "code": report.code, "cards": len(rows), "dry_run": dry_run},
    )
    report_progress = progress or (lambda stage, done, total: None)
    with transaction.atomic():
        _lift_statement_timeout()
        _lock_game(game_def.slug)
        game, expansion = _save_expansion(game_def, meta, report)
        existing = _existing_cards(game, rows)
        printings = {
            p.card_id: p for p in Printing.objects.filter(expansion=expansion) if expansion.pk
        }
        new_cards = _write_cards(game, rows, existing, printings, report, report_progress)
        by_name = {c.name.lower(): c for c in [*existing.values(), *new_cards]}
        _write_printings(expansion, rows, by_name, printings, report_progress)
        report.left_out = pools_without(game_def, expansion.code)
        if dry_run:
            transaction.set_rollback(True)
        elif report.created or report.updated:
            catalogue_changed(game_slug=game.slug)
        else:  # the expansion's own fields may have changed, which the bulk files show
            catalogue_files_changed()
    if not dry_run and (report.created or report.updated):
        # Index and statistics upkeep, also with the import's statement timeout (an ANALYZE
        # of a large catalogue outlasts a request's limit).
        with transaction.atomic():
            _lift_statement_timeout()
            ensure_attribute_indexes()
            analyze_catalogue()
    logger.info(
        "import finished" if not dry_run else "import previewed",
        extra={
            "game": report.game,
            "code": report.code,
            "cards_created": len(report.created),
            "cards_updated": len(report.updated),
            "cards_unchanged": len(report.unchanged),
        },
    )
    return report


def pools_without(game_def: GameDef, code: str) -> list[PoolLeftOut]:
    """The rule sets in force today and upcoming, one of each at most per format of the
    game, that list legal expansions without `code` (two queries per format)."""
    found = []
    for fmt in game_def.formats.values():
        for rule_set, upcoming in (
            (rulesets.in_force(game_def.slug, fmt.slug), False),
            (rulesets.upcoming(game_def.slug, fmt.slug), True),
        ):
            if rule_set is None:
                continue
            listed = set(rule_set.expansions.values_list("code", flat=True))
            if listed and code not in listed:
                found.append(
                    PoolLeftOut(
                        format=fmt.slug,
                        format_name=fmt.name,
                        code=rule_set.code,
                        name=rule_set.name,
                        rule_set_id=rule_set.pk,
                        effective=rule_set.effective,
                        upcoming=upcoming,
                    )
                )
    return found


def _save_expansion(
    game_def: GameDef, meta: dict[str, Any], report: ImportReport
) -> tuple[Game, Expansion]:
    """The game's row (created on its first import) and the expansion, created or updated
    from `meta` and saved; `report.expansion_created` says which. Assumes a transaction
    holding the game's import lock, and `meta` from a check without errors."""
    game, _ = Game.objects.get_or_create(
        slug=game_def.slug,
        defaults={"name": game_def.name, "position": registry.slugs().index(game_def.slug)},
    )
    expansion = Expansion.objects.filter(game=game, code=meta["code"]).first()
    report.expansion_created = expansion is None
    if expansion is None:
        expansion = Expansion(game=game, code=meta["code"])
    for key in ("name", "released", "sample", "notice"):
        setattr(expansion, key, meta[key])
    expansion.save()
    return game, expansion


def _existing_cards(game: Game, rows: list[dict[str, Any]]) -> dict[str, Card]:
    """The game's cards the rows name, by lower-cased name (names match case-insensitively),
    a query per BATCH_SIZE names on the index of the game and the lower-cased name. (With
    `name IN (…)` PostgreSQL may pick the trigram index, which pg_trgm lets answer
    equality: 15 s a batch of 1,000 names on 20,000 cards.)"""
    existing: dict[str, Card] = {}
    for batch in _batches([r["name"].lower() for r in rows]):
        for c in Card.objects.annotate(lname=Lower("name")).filter(game=game, lname__in=batch):
            existing[c.name.lower()] = c
    return existing


def _write_cards(
    game: Game,
    rows: list[dict[str, Any]],
    existing: dict[str, Card],
    printings: dict[int, Printing],
    report: ImportReport,
    progress: Progress,
) -> list[Card]:
    """Create the rows' new cards and update the changed ones (one bulk query each, none
    when there is nothing to write); return the new cards, saved. Each row's name goes to
    `report`: created, updated (its card or its printing differs) or unchanged. Assumes
    `existing` and `printings` (by card id) were read in this transaction, before any
    write; the existing cards are updated in place, names included."""
    new_cards: list[Card] = []
    changed_cards: list[Card] = []
    for row in rows:
        card = existing.get(row["name"].lower())
        if card is None:
            card = Card(game=game, name=row["name"])
            for key in CARD_FIELDS:
                setattr(card, key, row[key])
            new_cards.append(card)
            report.created.append(row["name"])
            continue
        before = [getattr(card, key) for key in CARD_FIELDS] + [card.name]
        old = {key: getattr(card, key) for key in CARD_FIELDS}
        old_name = card.name
        for key in CARD_FIELDS:
            setattr(card, key, row[key])
        card.name = row["name"]
        printing = printings.get(card.pk)
        printing_same = printing is not None and all(
            getattr(printing, key) == row[key] for key in PRINTING_FIELDS
        )
        if before != [getattr(card, key) for key in CARD_FIELDS] + [card.name]:
            changed_cards.append(card)
            report.updated.append(row["name"])
            report.changes[row["name"]] = _field_changes(old_name, old, row, printing)
        elif not printing_same:
            report.updated.append(row["name"])
            report.changes[row["name"]] = _field_changes(old_name, old, row, printing)
        else:
            report.unchanged.append(row["name"])
    _save_rows(Card, new_cards, changed_cards, ["name", *CARD_FIELDS], "cards", progress)
    return new_cards


def _write_printings(
    expansion: Expansion,
    rows: list[dict[str, Any]],
    by_name: dict[str, Card],
    printings: dict[int, Printing],
    progress: Progress,
) -> None:
    """Create the expansion's printing of each row's card when it has none and update the
    ones that differ (one bulk query each, none when there is nothing to write). Assumes
    every row's card is saved and in `by_name` under its lower-cased name, and that
    `printings` (the expansion's, by card id) was read before the cards were written."""
    new_printings: list[Printing] = []
    changed_printings: list[Printing] = []
    for row in rows:
        card = by_name[row["name"].lower()]
        printing = printings.get(card.pk)
        if printing is None:
            printing = Printing(card=card, expansion=expansion)
            new_printings.append(printing)
        elif any(getattr(printing, key) != row[key] for key in PRINTING_FIELDS):
            changed_printings.append(printing)
        for key in PRINTING_FIELDS:
            setattr(printing, key, row[key])
    _save_rows(
        Printing, new_printings, changed_printings, list(PRINTING_FIELDS), "printings", progress
    )


def _save_rows(
    model, new: list, changed: list, fields: list[str], stage: str, progress: Progress
) -> None:
    """Insert the `new` rows and update `fields` of the `changed` ones, a query per batch,
    telling `progress` the rows of `stage` written so far (new and changed together)."""
    total, done = len(new) + len(changed), 0
    for batch in _batches(new):
        model.objects.bulk_create(batch)
        done += len(batch)
        progress(stage, done, total)
    if changed:
        _update_rows(
            model,
            changed,
            fields,
            lambda _stage, n, _total: progress(stage, done + n, total),
            stage,
        )


def _field_changes(
    old_name: str, old: Mapping[str, Any], row: Mapping[str, Any], printing
) -> list[tuple[str, Any, Any]]:
    """What an update changes on a card and its printing: (field, before, after)."""
    out: list[tuple[str, Any, Any]] = []
    if old_name != row["name"]:
        out.append(("name", old_name, row["name"]))
    for key in CARD_FIELDS:
        if key == "attributes":
            before, after = old.get(key) or {}, row.get(key) or {}
            for attr in sorted(set(before) | set(after)):
                if before.get(attr) != after.get(attr):
                    out.append((f"attributes.{attr}", before.get(attr), after.get(attr)))
        elif old.get(key) != row.get(key):
            out.append((key, old.get(key), row.get(key)))
    for key in PRINTING_FIELDS:
        before = getattr(printing, key) if printing is not None else None
        if before != row.get(key):
            out.append((f"printing.{key}", before, row.get(key)))
    return out


def expansion_export(*, game_slug: str, code: str) -> dict[str, Any]:
    """The expansion as a document that `expansion_import` reads back unchanged."""
    expansion = Expansion.objects.select_related("game").get(game__slug=game_slug, code=code)
    printings = Printing.objects.filter(expansion=expansion).select_related("card").order_by("pk")
    cards = []
    for p in printings:
        c = p.card
        cards.append(
            {
                "name": c.name,
                "kind": c.kind,
                "faction": c.faction,
                "cost": c.cost,
                "number": p.number,
                "rarity": p.rarity,
                "text": c.text,
                "flavour": p.flavour,
                "artist": p.artist,
                "attributes": c.attributes,
            }
        )
    doc: dict[str, Any] = {
        "game": expansion.game.slug,
        "code": expansion.code,
        "name": expansion.name,
        "released": expansion.released.isoformat() if expansion.released else None,
    }
    if expansion.sample:
        doc["sample"] = True
    if expansion.notice:
        doc["notice"] = expansion.notice
    doc["cards"] = cards
    return doc
