"""Indexes for the card search (catalogue/search/), on PostgreSQL only.

- trigram GIN indexes on the name (bare-word similarity, `name:` ILIKE) and the rules text
  (`o:`/`text:` ILIKE);
- a GIN index on the full-text document `to_tsvector('english', name || ' ' || text)`, the
  very expression `search.DOCUMENT_SQL` builds, so that the planner uses it;
- a GIN `jsonb_path_ops` index on the attributes, for containment: `speed:6`,
  `slots:laser`, `heroic:true`, `keywords:salvo` (a few case variants, OR-ed).

On SQLite nothing is done. Reversing drops the indexes; the pg_trgm extension is left in
place (other objects may use it, and it is harmless).
"""

from django.db import migrations

INDEXES = {
    "card_name_trgm": "USING gin (name gin_trgm_ops)",
    "card_text_trgm": "USING gin (text gin_trgm_ops)",
    "card_search_document": (
        "USING gin ((to_tsvector('english'::regconfig, name || ' ' || text)))"
    ),
    "card_attributes_path": "USING gin (attributes jsonb_path_ops)",
}


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, definition in INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalogue_card {definition}")


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]
