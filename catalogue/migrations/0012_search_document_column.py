"""The full-text document of every card as a stored column, on PostgreSQL only.

`search_document` is `to_tsvector('english', name || ' ' || text)`, a generated column that
PostgreSQL computes whenever a card is written, and `card_search_document` (migration 0002:
a GIN index on that expression) now indexes the column. Searches read the same document
as before, from the index as before; what changes is the test of one card: where a search
tests its words on the rows it reads (a walk of the cards in name order, the sample a dense
search is sized from), the stored document is read instead of being built from the name and
the text on every row (about 20 microseconds a card, twenty times the test itself).

The column is not a field of the model: the ORM never writes it, and only the search's SQL
(`catalogue.search.expressions`) reads it. Adding it rewrites the table (a million cards:
about a minute). On SQLite nothing is done. Reversing drops the column and builds the
expression index again.
"""

from django.db import migrations

DOCUMENT = "to_tsvector('english'::regconfig, (name::text || ' ' || text))"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS card_search_document")
    schema_editor.execute(
        "ALTER TABLE catalogue_card ADD COLUMN IF NOT EXISTS search_document tsvector "
        f"GENERATED ALWAYS AS ({DOCUMENT}) STORED"
    )
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS card_search_document ON catalogue_card "
        "USING gin (search_document)"
    )


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS card_search_document")
    schema_editor.execute("ALTER TABLE catalogue_card DROP COLUMN IF EXISTS search_document")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS card_search_document ON catalogue_card USING gin (({DOCUMENT}))"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0011_falling_cost_index"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
