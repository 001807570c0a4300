"""A campaign's game is required (filled by 0002); new field texts and spend kind choices."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("play", "0002_campaign_game_generic_names")]

    operations = [
        migrations.AlterField(
            model_name="campaign",
            name="game",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="campaigns",
                to="catalogue.game",
            ),
        ),
        migrations.AlterField(
            model_name="campaign",
            name="points_total",
            field=models.PositiveIntegerField(
                help_text="The points every player's list must total (the game's campaign "
                "rules give the default)."
            ),
        ),
        migrations.AlterField(
            model_name="campaignplayer",
            name="deck",
            field=models.ForeignKey(
                help_text="The list the player keeps for the whole campaign.",
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="decks.deck",
            ),
        ),
        migrations.AlterField(
            model_name="campaignspend",
            name="kind",
            field=models.CharField(choices=[("award", "Awards"), ("swap", "Swap")], max_length=10),
        ),
    ]
