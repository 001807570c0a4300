"""Drop the statistics object `card_phrase_text` (migration 0004), on PostgreSQL only.

A quoted phrase is now matched in the folded name or the folded rules text, each on its own
(`lower(name)`, statistics from the index `card_lower_name`; `text_lower`, a column), no
longer in the two read together, so no query has that expression any more. Reversing
creates it again. On SQLite nothing is done.
"""

from django.db import migrations

CREATE = (
    "CREATE STATISTICS IF NOT EXISTS card_phrase_text "
    "ON ((lower(name) || ' ' || text_lower)) FROM catalogue_card"
)
DROP = "DROP STATISTICS IF EXISTS card_phrase_text"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0005_kind_name_index"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
