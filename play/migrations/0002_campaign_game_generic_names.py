"""Campaigns of any game with campaign rules: a campaign names its game, and the fields that
carried one game's words take generic names (the list a player keeps is its `deck`, awards
are `awards`, a spend on awards is of kind "award").

Existing campaigns were all of the one game that had campaign rules: each gets the game of
its players' decks, or, without players, the registered game with campaign rules. The field
is made required by the next migration (PostgreSQL does not alter a table with constraint
checks of rows written in the same transaction pending).
"""

import django.db.models.deletion
from django.db import migrations, models


def campaign_games(registry) -> list:
    return [g for g in registry.all() if g.campaign is not None]


def fill_game(apps, schema_editor):
    from validation.registry import registry

    Campaign = apps.get_model("play", "Campaign")
    CampaignPlayer = apps.get_model("play", "CampaignPlayer")
    Game = apps.get_model("catalogue", "Game")
    db = schema_editor.connection.alias
    campaigns = Campaign.objects.using(db).filter(game__isnull=True)
    if not campaigns.exists():
        return
    with_rules = {g.slug for g in campaign_games(registry)}
    # A campaign with players plays the game of their decks (the first player's).
    game_of: dict[int, int] = {}
    for campaign_id, game_id in (
        CampaignPlayer.objects.using(db)
        .filter(campaign__game__isnull=True, deck__game__slug__in=with_rules)
        .order_by("campaign_id", "id")
        .values_list("campaign_id", "deck__game_id")
    ):
        game_of.setdefault(campaign_id, game_id)
    for game_id in set(game_of.values()):
        ids = [c for c, g in game_of.items() if g == game_id]
        Campaign.objects.using(db).filter(pk__in=ids).update(game_id=game_id)
    if not campaigns.exists():
        return
    # The others: the registered game with campaign rules (its catalogue row made if need be).
    games = campaign_games(registry)
    if not games:
        raise RuntimeError("campaigns exist but no registered game has campaign rules")
    game, _ = Game.objects.using(db).get_or_create(
        slug=games[0].slug, defaults={"name": games[0].name}
    )
    campaigns.update(game_id=game.pk)


def kind_promotion_to_award(apps, schema_editor):
    CampaignSpend = apps.get_model("play", "CampaignSpend")
    db = schema_editor.connection.alias
    CampaignSpend.objects.using(db).filter(kind="promotion").update(kind="award")


def kind_award_to_promotion(apps, schema_editor):
    CampaignSpend = apps.get_model("play", "CampaignSpend")
    db = schema_editor.connection.alias
    CampaignSpend.objects.using(db).filter(kind="award").update(kind="promotion")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
        ("decks", "0001_initial"),
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(model_name="campaignplayer", old_name="force", new_name="deck"),
        migrations.RenameField(
            model_name="campaignplayer", old_name="promotions", new_name="awards"
        ),
        migrations.RenameField(
            model_name="campaignspend", old_name="promotions", new_name="awards"
        ),
        migrations.RenameField(
            model_name="campaignspend", old_name="force_version", new_name="deck_version"
        ),
        migrations.AddField(
            model_name="campaign",
            name="game",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="campaigns",
                to="catalogue.game",
            ),
        ),
        migrations.RunPython(fill_game, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(kind_promotion_to_award, kind_award_to_promotion, elidable=False),
    ]
