"""The btree index of every integer attribute of every registered game (PostgreSQL).

A comparison such as `speed>=6` is served by the partial index `card_num_<key>` on the game,
the kind and the attribute's number (`expressions.number_sql`). Migration 0004 made them for
the keys of the first games; a game added later brings keys of its own, so after every
`migrate` (and after each import, for a game registered since) the keys that lack their index
get one here. Nothing is done on SQLite. Creating an index is only ever done for a key that
has none, so the usual call costs one look at `pg_indexes`.
"""

from __future__ import annotations

from django.db import connection as default_connection

from validation.registry import registry

from .expressions import number_sql


def integer_keys() -> set[str]:
    """Every integer attribute key of every registered game."""
    return {k for g in registry.all() for s in g.kinds.values() for k in s.numeric_keys()}


def index_sql(key: str) -> str:
    """The statement that creates the index of integer attribute `key`."""
    return (
        f"CREATE INDEX IF NOT EXISTS card_num_{key} ON catalogue_card "
        f"(game_id, kind, ({number_sql('attributes', key)})) WHERE attributes ? '{key}'"
    )


def missing_keys(connection=default_connection) -> list[str]:
    """The integer keys whose index does not exist yet (sorted; empty on SQLite)."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'catalogue_card' "
            "AND indexname LIKE 'card_num_%%'"
        )
        present = {row[0] for row in cursor.fetchall()}
    return sorted(k for k in integer_keys() if f"card_num_{k}" not in present)


def ensure_attribute_indexes(connection=default_connection) -> list[str]:
    """Create the missing indexes; returns the keys that got one."""
    keys = missing_keys(connection)
    if keys:
        with connection.cursor() as cursor:
            if connection.in_atomic_block:
                # Inside a transaction that wrote cards, their deferred foreign key checks
                # must run before the table can be indexed.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for key in keys:
                cursor.execute(index_sql(key))
    return keys
