"""The catalogue: games, expansions, cards and their printings.

A card is the rules object, unique by name within a game; a printing is its appearance in
an expansion. Game-specific attributes live in `Card.attributes`, validated on every save
against the kind's schema from the rules core (`validation/games/<slug>/`).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse

from cardsite.models import ChunkedJob
from validation.registry import registry
from validation.types import CardFacts


def check_card_fields(
    game_def, kind: Any, faction: str, attributes: Any
) -> tuple[dict[str, list[str]], dict[str, Any] | None]:
    """Check a card's kind, faction and attributes against its game's definition.

    Returns the errors by field (attribute errors under `attributes.<key>`) and the cleaned
    attributes (defaults filled), or None when they could not be cleaned. An empty faction
    means "no faction" and is always allowed (a kind of card that belongs to no faction).
    """
    errors: dict[str, list[str]] = {}
    schema = game_def.kinds.get(kind) if isinstance(kind, str) else None
    if schema is None:
        errors["kind"] = [
            f"{kind!r} is not a kind of {game_def.name}; use one of {', '.join(game_def.kinds)}"
        ]
    if faction:
        if not game_def.factions:
            errors["faction"] = [f"{game_def.name} has no factions; leave it empty"]
        elif faction not in game_def.factions:
            errors["faction"] = [
                f"{faction!r} is not a faction of {game_def.name}; "
                f"use one of {', '.join(game_def.factions)} (or leave it empty)"
            ]
    if not isinstance(attributes, dict):
        errors["attributes"] = ["must be a JSON object"]
        return errors, None
    if schema is None:
        return errors, None
    cleaned, field_errors = schema.validate(attributes)
    for fe in field_errors:
        errors.setdefault(f"attributes.{fe.field}", []).append(fe.message)
    return errors, (None if field_errors else cleaned)


def format_name(game_slug: str, format_slug: str) -> str:
    """The name of format `format_slug` of game `game_slug` ("Standard"); the slug itself
    when the game has no such format."""
    try:
        return registry.get(game_slug).format(format_slug).name
    except (KeyError, ValueError):
        return format_slug


class Game(models.Model):
    """A game of the registry, stored so that cards and decks can point at it."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def definition(self):
        return registry.get(self.slug)

    def get_absolute_url(self) -> str:
        return reverse("catalogue:game", args=[self.slug])


class Expansion(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="expansions")
    code = models.CharField(max_length=20)
    name = models.CharField(max_length=200)
    released = models.DateField(null=True, blank=True)
    sample = models.BooleanField(default=False, help_text="Sample data, not an official list.")
    notice = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["game__position", "released", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="expansion_code_unique_in_game")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def get_absolute_url(self) -> str:
        return reverse("catalogue:expansion", args=[self.game.slug, self.code])


class Card(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="cards")
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=40)
    faction = models.CharField(max_length=40, blank=True)
    cost = models.IntegerField(
        default=0,
        validators=[MinValueValidator(0, "A cost cannot be negative.")],
        help_text="0 or more: a card's cost, points or value, as the game counts it.",
    )
    text = models.TextField(blank=True)
    attributes = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="card_name_unique_in_game"),
            models.CheckConstraint(
                condition=models.Q(cost__gte=0),
                name="card_cost_not_negative",
                violation_error_message="A cost cannot be negative.",
            ),
        ]
        indexes = [
            models.Index(fields=["game", "kind"], name="card_game_kind"),
            # A game's cards of one kind in name order, for pages walked in order
            # (catalogue.search.walk_page). The one above stays: its keys repeat, so it is
            # a few pages, cheaper to read in full for a count.
            models.Index(fields=["game", "kind", "name"], name="card_game_kind_name"),
            models.Index(fields=["game", "faction"], name="card_game_faction"),
            models.Index(fields=["game", "cost"], name="card_game_cost"),
            models.Index(Lower("name"), "game", name="card_lower_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("catalogue:card", args=[self.game.slug, self.pk])

    # -- rules core --------------------------------------------------------------------
    def schema_errors(self) -> dict[str, list[str]]:
        """Check kind, faction and attributes against the game's definition; fill defaults."""
        try:
            game_def = registry.get(self.game.slug)
        except KeyError:
            return {"game": [f"game {self.game.slug!r} is not in the rules core"]}
        errors, cleaned = check_card_fields(game_def, self.kind, self.faction, self.attributes)
        if cleaned is not None:
            self.attributes = cleaned
        return errors

    def clean(self) -> None:
        errors = self.schema_errors()
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs) -> None:
        # Attributes are validated on every write, whatever the entry point.
        self.clean()
        super().save(*args, **kwargs)

    #: The columns `facts` reads: load cards with `.only(*Card.FACT_FIELDS)`.
    FACT_FIELDS = ("name", "kind", "faction", "cost", "text", "attributes")

    def facts(self) -> CardFacts:
        return CardFacts(**{field: getattr(self, field) for field in self.FACT_FIELDS})


def printing_image_path(instance: Printing, filename: str) -> str:
    ext = filename.rsplit(".", 1)[-1].lower()
    return f"cards/{instance.card.game.slug}/{uuid.uuid4().hex}.{ext}"


class LeadingNumber(models.Func):
    """The whole number a collector number starts with ("10a" → 10, "7" → 7), NULL when it
    starts with anything else ("B5"): so that 2 comes before 10, as on the cards."""

    output_field = models.BigIntegerField()
    arity = 1
    # A database without its own form leaves every number to the text order.
    template = "NULL"

    def as_postgresql(self, compiler, connection, **extra):
        # 18 digits at most: a bigint holds them all.
        template = "CAST(NULLIF(SUBSTRING(%(expressions)s FROM '^[0-9]{1,18}'), '') AS bigint)"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        # SQLite's CAST reads the leading digits of a text and stops at the first other.
        template = (
            "CASE WHEN %(expressions)s GLOB '[0-9]*' THEN CAST(%(expressions)s AS INTEGER) END"
        )
        return self.as_sql(compiler, connection, template=template, **extra)


def collector_order() -> list[Any]:
    """The order of printings by collector number: numbers compared as numbers (2 before
    10), a suffix after its number (10 before 10a), numbers that start with a letter last,
    in text order."""
    return [LeadingNumber("number").asc(nulls_last=True), "number"]


class Printing(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    expansion = models.ForeignKey(Expansion, on_delete=models.CASCADE, related_name="printings")
    number = models.CharField(max_length=20, blank=True)
    rarity = models.CharField(max_length=30, blank=True)
    image = models.ImageField(upload_to=printing_image_path, blank=True)
    flavour = models.TextField(blank=True)
    artist = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["expansion__released", "expansion__code", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "expansion"], name="printing_once_per_expansion"
            )
        ]

    def __str__(self) -> str:
        return f"{self.card.name} [{self.expansion.code} {self.number}]"


class RuleSet(models.Model):
    """A format's rule set: organised play's dated snapshot of which expansions are legal,
    which cards are banned or limited, new costs and errata (see catalogue.rulesets).

    In effect on a date from `effective` (00:00 in the site's time zone) until the next rule set
    of the same game and format. `expansions` empty means every expansion of the game. The
    identity is (game, format, code): importing the same code again updates it."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rule_sets")
    format = models.SlugField(max_length=40)
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=200, blank=True)
    announced = models.DateField()
    effective = models.DateField()
    expansions = models.ManyToManyField(
        Expansion,
        blank=True,
        related_name="rule_sets",
        help_text="The legal expansions; none chosen means every expansion of the game.",
    )
    note = models.TextField(blank=True, max_length=2000)
    sample = models.BooleanField(default=False, help_text="Sample data, not an official list.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game__position", "format", "effective"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "format", "code"], name="ruleset_code_unique_in_format"
            ),
            # Also the index of `in_force` and `upcoming` (read either way).
            models.UniqueConstraint(
                fields=["game", "format", "effective"], name="ruleset_effective_unique_in_format"
            ),
            models.CheckConstraint(
                condition=models.Q(effective__gte=models.F("announced")),
                name="ruleset_effective_not_before_announced",
                violation_error_message="A rule set cannot take effect before it is announced.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.name})" if self.name else self.code

    def get_absolute_url(self) -> str:
        return reverse("catalogue:rule_sets", args=[self.game.slug, self.format])

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); the slug of a format the
        game no longer has."""
        return format_name(self.game.slug, self.format)


class RuleSetCard(models.Model):
    """One card's entry in a rule set: banned, limited to `limit` copies, a new `cost`, or
    errata `text` (shown with the card; the printed text stays visible)."""

    rule_set = models.ForeignKey(RuleSet, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rule_set_entries")
    banned = models.BooleanField(default=False)
    limit = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="At most this many copies (empty: the format's limit)."
    )
    cost = models.PositiveIntegerField(
        null=True, blank=True, help_text="Replaces the card's cost (empty: the printed cost)."
    )
    text = models.TextField(blank=True, max_length=5000, help_text="Errata, shown with the card.")

    class Meta:
        ordering = ["rule_set", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["rule_set", "card"], name="rulesetcard_once_per_set")
        ]

    def __str__(self) -> str:
        return f"{self.rule_set.code}: {self.card.name}"


class ImportJob(ChunkedJob):
    """An expansion file imported on a worker, a chunked job of the site's one job system
    (cardsite/jobs.py; its kind in catalogue/import_jobs.py): the admin's confirmed
    `document` (dropped once the import is done or failed), imported by one chunk with the
    same all-or-nothing `expansion_import`, whose progress (stage, rows written) its
    heartbeat writes; at the end the import's `summary` and the formats whose pool leaves
    the expansion out (`left_out`: [rule set id, sentence]), or the file's `problems`."""

    JOB_KIND = "catalogue.expansion_import"

    game = models.CharField(max_length=60, blank=True)
    code = models.CharField(max_length=40, blank=True)
    name = models.CharField(max_length=200, blank=True)
    rows = models.PositiveIntegerField(default=0)
    document = models.JSONField(default=dict, blank=True)
    summary = models.TextField(blank=True)
    left_out = models.JSONField(default=list, blank=True)
    problems = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="importjob_status")]

    def __str__(self) -> str:
        return f"import #{self.pk} of {self.code or 'an expansion'} ({self.status})"
