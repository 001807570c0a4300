"""Statistics of the cards' game, kind and faction together, on PostgreSQL only.

Each kind and faction belongs to one game, but PostgreSQL's planner takes conditions on
different columns to be independent: it estimated the cards of a game and a kind as the
game's share of the cards times the kind's share of all the cards, about 40 % of the truth
for a game's commonest kind, at a million printings as on the plan tests' catalogue. Every
search in a game, and every search naming a kind, plans on that estimate. Extended
statistics (CREATE STATISTICS: the three columns' dependencies and most common
combinations) are gathered by ANALYZE beside the table's own, and the planner reads them
for any condition on two or three of the columns. Measured by bench/search.py at the
site's planner settings, no search moved beyond the spread of its runs: it is a correct
estimate, not a measured gain (docs/architecture.md, "What the planner is told of the
cards").

On SQLite nothing is done.
"""

from django.db import migrations

NAME = "card_game_kind_faction"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE STATISTICS IF NOT EXISTS {NAME} (ndistinct, dependencies, mcv) "
            "ON game_id, kind, faction FROM catalogue_card"
        )
        # Gathered now rather than at autovacuum's next ANALYZE of the table.
        schema_editor.execute("SET LOCAL statement_timeout = 0")  # the site's limit is a request's
        schema_editor.execute("ANALYZE catalogue_card")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP STATISTICS IF EXISTS {NAME}")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0013_name_id_index"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
