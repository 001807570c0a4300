"""The writes of an import: the game's lock and the lifted statement timeout, the expansion,
then its cards and printings created and updated in batches, and the catalogue's statistics
refreshed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models.functions import Lower

from validation.registry import GameDef, registry

from ..models import Card, Expansion, Game, Printing
from .report import (
    BATCH_SIZE,
    CARD_FIELDS,
    IMPORT_LOCK,
    PRINTING_FIELDS,
    UPDATE_BATCH_SIZE,
    ImportReport,
)


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
