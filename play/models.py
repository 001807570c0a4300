"""Campaigns: a series of games of one game whose rules (`validation.capabilities.
CampaignRules`, the game's `GameDef.campaign`) say what a result earns and what points buy.

A campaign belongs to the user who runs it (`owner`) and plays one `game`; each player keeps
one list, a deck of the owner's of that game, for the whole campaign. After each game the
result earns campaign points; points are spent on awards or on swapping cards of the list.
Every change of points is written to the ledger (`CampaignSpend` for spending,
`CampaignGameResult` for earning).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cardsite.models import OwnedQuerySet


class CampaignQuerySet(OwnedQuerySet):
    """Every read and write of a campaign goes through `owned_by` (others get a 404)."""


class Campaign(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaigns"
    )
    game = models.ForeignKey("catalogue.Game", on_delete=models.PROTECT, related_name="campaigns")
    name = models.CharField(max_length=200)
    points_total = models.PositiveIntegerField(
        help_text="The points every player's list must total (the game's campaign rules "
        "give the default)."
    )
    notes = models.TextField(blank=True, max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="campaign_owner_updated")]
        constraints = [
            models.CheckConstraint(condition=Q(points_total__gte=1), name="campaign_points_pos")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("play:campaign", args=[self.game.slug, self.pk])

    @property
    def rules(self):
        """The game's CampaignRules."""
        return self.game.definition.campaign


class CampaignPlayer(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    deck = models.ForeignKey(
        "decks.Deck",
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The list the player keeps for the whole campaign.",
    )
    campaign_points = models.PositiveIntegerField(default=0)
    awards = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="campaign_player_unique")
        ]

    def __str__(self) -> str:
        return self.name


class GameResult(models.TextChoices):
    WIN = "win", "Win"
    LOSS = "loss", "Loss"
    DRAW = "draw", "Draw"


class CampaignGame(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="games")
    date = models.DateField()
    number = models.PositiveIntegerField(help_text="1, 2, 3… within the campaign")
    players = models.ManyToManyField(
        CampaignPlayer, through="CampaignGameResult", related_name="games"
    )
    notes = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="campaign_game_number")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} game {self.number}"


class CampaignGameResult(models.Model):
    game = models.ForeignKey(CampaignGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(CampaignPlayer, on_delete=models.CASCADE, related_name="results")
    result = models.CharField(max_length=4, choices=GameResult.choices)
    points = models.PositiveIntegerField(help_text="Campaign points earned")

    class Meta:
        ordering = ["game", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="campaign_result_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.result}"


class SpendKind(models.TextChoices):
    AWARD = "award", "Awards"
    SWAP = "swap", "Swap"


class CampaignSpend(models.Model):
    """Campaign points spent by a player: awards, or a swap of cards of the list (the cards
    out and in, and the number of the deck version it produced)."""

    player = models.ForeignKey(CampaignPlayer, on_delete=models.CASCADE, related_name="spends")
    kind = models.CharField(max_length=10, choices=SpendKind.choices)
    points = models.PositiveIntegerField()
    awards = models.PositiveIntegerField(default=0)
    removed = models.JSONField(default=dict, blank=True)
    added = models.JSONField(default=dict, blank=True)
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.player}: {self.kind} for {self.points}"
