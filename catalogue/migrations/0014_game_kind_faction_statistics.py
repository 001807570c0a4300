"""Statistics of the cards' game, kind and faction together, on PostgreSQL only.

Each kind and faction belongs to a game (an efreet is a REDLINE card, a ship a RED CODE
one), but PostgreSQL's planner takes conditions on different columns to be independent:
it estimated the efreets of REDLINE as the share of REDLINE cards times the share of
efreets among all cards, about a third of the truth at a million printings. On that
estimate it joined a search's own index to a bitmap of every card of the game and kind
(`slots:pilot heroic:true`: 9 of its 20 ms building a bitmap of 121,752 cards that ruled
out none), or walked the game's cards testing each, where the attribute index alone was
cheaper. Extended statistics (CREATE STATISTICS: the three columns' dependencies and most
common combinations) are gathered by ANALYZE beside the table's own, and the planner reads
them for any condition on two or three of the columns.

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
