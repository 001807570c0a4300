"""A btree index on the cards' name and id, across games, on PostgreSQL only.

The list of every game's cards is in name order: its first page sorted every card, a deep
page read every card before it, and a page after a card (`?after=`, the API's next link:
`catalogue.search.after_page`) could not start at that card. `card_name_id` holds the
order itself, so the first page and a page after a card read the index from where they
start, and the ids before a deep page are read from the index alone. A game's cards have
their own (`card_game_name_id`, migration 0010).

Built with plain CREATE INDEX (inside the migration's transaction): on a catalogue of a
million cards it takes a few seconds. On SQLite nothing is done.
"""

from django.db import migrations

INDEXES = {
    "card_name_id": "(name, id)",
}


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, columns in INDEXES.items():
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalogue_card {columns}")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0012_search_document_column"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
