"""A lower-cased copy of the rules text for substring search, on PostgreSQL only.

`o:salvo`, `text:salvo` and quoted phrases match the text in any case. A case-insensitive
match (`ILIKE`, `~*`) folds every row's text at query time, which made it the slowest part
of a search matching many cards; `text_lower` is folded once, when the card is written
(a stored generated column, so the database keeps it true on every insert and update), and
matched with a plain `LIKE`. Its trigram index replaces the one on `text`.

The column is not a model field: only the PostgreSQL branch of catalogue/search/ reads it.
On SQLite nothing is done.
"""

from django.db import migrations

FORWARD = [
    "ALTER TABLE catalogue_card ADD COLUMN IF NOT EXISTS text_lower text "
    "GENERATED ALWAYS AS (lower(text)) STORED",
    "CREATE INDEX IF NOT EXISTS card_text_lower_trgm ON catalogue_card "
    "USING gin (text_lower gin_trgm_ops)",
    "DROP INDEX IF EXISTS card_text_trgm",
]
BACKWARD = [
    "CREATE INDEX IF NOT EXISTS card_text_trgm ON catalogue_card USING gin (text gin_trgm_ops)",
    "DROP INDEX IF EXISTS card_text_lower_trgm",
    "ALTER TABLE catalogue_card DROP COLUMN IF EXISTS text_lower",
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
        ("catalogue", "0002_search_indexes"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
