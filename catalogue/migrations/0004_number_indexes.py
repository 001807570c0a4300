"""Btree indexes for comparisons of integer attributes, and statistics for phrase search, on
PostgreSQL only.

`speed>=6`, `atk<3`, `capture_cost!=4`: a comparison of an integer attribute is matched by
catalogue/search/ as

    attributes ? '<key>' AND CASE WHEN jsonb_typeof(attributes -> '<key>') = 'number'
                                  THEN (attributes ->> '<key>')::numeric END >= 6

(no cast is ever tried on a value that is not a number). The GIN index on `attributes`
answers containment (`speed:6`) but no range, so each integer key of the games' schemas gets
a partial btree index over the cards that have the key, on the game, the kind and that
expression: a search in a game (and of a kind) reads only its own cards' entries, without
intersecting the index with the game's or the kind's. PostgreSQL also keeps statistics on
the expression, which the planner needs to estimate how many cards a comparison matches. A key added to a game's schema needs its index here or in a later migration
(tests/catalogue/test_search_indexes.py checks that every integer key has one).

The statistics object `card_phrase_text` gives the planner the distribution of the name and
rules text read together (lower case), the expression a quoted phrase is checked against, so
that it can estimate how many cards a phrase matches (without them it assumes a handful, and
sorts thousands of rows where reading the name index in order would stop after a page).

On SQLite nothing is done.
"""

from django.db import migrations

NUMBER_KEYS = (
    "armor",
    "atk",
    "atk_bonus",
    "breakdown_gain",
    "breakdowns",
    "capture_cost",
    "copies",
    "crew",
    "crew_damage",
    "damage",
    "def",
    "def_bonus",
    "distance",
    "equip_cost",
    "health",
    "movement",
    "number",
    "provides",
    "raise_res",
    "range",
    "repair_damage",
    "repair_gain",
    "repairs",
    "res",
    "speed",
)


def number_index_sql(key: str) -> str:
    return (
        f"CREATE INDEX IF NOT EXISTS card_num_{key} ON catalogue_card "
        f"(game_id, kind, (CASE WHEN jsonb_typeof(attributes -> '{key}') = 'number' "
        f"THEN (attributes ->> '{key}')::numeric END)) "
        f"WHERE attributes ? '{key}'"
    )


FORWARD = [number_index_sql(key) for key in NUMBER_KEYS] + [
    "CREATE STATISTICS IF NOT EXISTS card_phrase_text "
    "ON ((lower(name) || ' ' || text_lower)) FROM catalogue_card",
    "ANALYZE catalogue_card",
]
BACKWARD = [f"DROP INDEX IF EXISTS card_num_{key}" for key in NUMBER_KEYS] + [
    "DROP STATISTICS IF EXISTS card_phrase_text",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in FORWARD:
            schema_editor.execute(sql)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in BACKWARD:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0003_text_lower"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
