"""A finer histogram of the cards' folded names, on PostgreSQL only.

A name substring the trigram index cannot serve (`name:ab`, two letters) is tested as
`lower(name) LIKE '%ab%'`, and the planner estimates how many cards match from the
histogram ANALYZE keeps of `lower(name)` (the expression of the index `card_lower_name`):
with PostgreSQL's default of 100 entries, the share of them holding "ab" is one or two,
or none. At a million printings the estimate of `name:ab` in the largest game (4,056
cards) went from one ANALYZE to the next between 15 and about 2,900 cards; on 15, its first
page was planned as every card of the game read and sorted (230 ms) instead of the game's
names read in order until 50 match (16-55 ms). With 1,000 entries it stayed between 1,455
and 2,895 over six ANALYZEs and the plan held.

The cost: ANALYZE samples 300 rows an entry of its largest target, so the whole table's
sample grows tenfold (about 10 s at a million cards, in autovacuum's background). The
migration analyses the table once so that the estimates hold from now on.

On SQLite nothing is done.
"""

from django.db import migrations

TARGET = 1000


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER INDEX card_lower_name ALTER COLUMN 1 SET STATISTICS {TARGET}")
        schema_editor.execute("SET LOCAL statement_timeout = 0")  # the site's limit is a request's
        schema_editor.execute("ANALYZE catalogue_card")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER INDEX card_lower_name ALTER COLUMN 1 SET STATISTICS -1")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0014_game_kind_faction_statistics"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
