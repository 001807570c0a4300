from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0007_recheckjob_released"),
    ]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="upcoming",
            field=models.JSONField(blank=True, db_default={}, default=dict),
        ),
    ]
