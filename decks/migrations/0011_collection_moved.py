"""The collection's models left the decks app for the collection app (collection 0001):
removed from this app's state only; their tables stay, now the collection app's."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0010_collection_products_built"),
        ("collection", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="CollectionEntry"),
                migrations.DeleteModel(name="OwnedProduct"),
            ],
            database_operations=[],
        ),
    ]
