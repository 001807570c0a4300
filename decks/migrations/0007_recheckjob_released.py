from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0006_entries_placement_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="recheckjob",
            name="released",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
