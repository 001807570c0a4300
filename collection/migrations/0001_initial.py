"""The collection's models, moved from the decks app without touching a row: the tables
stay `decks_collectionentry` and `decks_ownedproduct` (the models' `db_table`), so this
migration creates the models in state only, and decks 0011 removes them from the decks app's
state. The content types (and so the permissions and admin log entries that point at them)
follow the models to the new app label."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["collectionentry", "ownedproduct"]


def content_types_to(app_label: str, from_label: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            if ContentType.objects.using(db).filter(app_label=app_label, model=model).exists():
                continue
            ContentType.objects.using(db).filter(app_label=from_label, model=model).update(
                app_label=app_label
            )

    return move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("catalogue", "0009_import_job"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("decks", "0010_collection_products_built"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CollectionEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("count", models.PositiveIntegerField(default=1)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="catalogue.card",
                            ),
                        ),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="collection",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "collection entries",
                        "ordering": ["card__game__position", "card__name"],
                        "db_table": "decks_collectionentry",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("owner", "card"), name="collection_owner_card_unique"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("count__gte", 1)),
                                name="collection_count_positive",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="OwnedProduct",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("count", models.PositiveIntegerField(default=1)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "expansion",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="owned_by",
                                to="catalogue.expansion",
                            ),
                        ),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="owned_products",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["expansion__game__position", "expansion__code"],
                        "db_table": "decks_ownedproduct",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("owner", "expansion"),
                                name="owned_product_owner_expansion_unique",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("count__gte", 1)),
                                name="owned_product_count_positive",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            content_types_to("collection", "decks"), content_types_to("decks", "collection")
        ),
    ]
