"""What an expansion import reports (every bad row, what changed, the rule sets leaving the
expansion out) and the limits its checks hold a file to."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import ngettext

from ..file_imports import FileImportFailed, FileImportReport

CARD_FIELDS = ("kind", "faction", "cost", "text", "attributes")
PRINTING_FIELDS = ("number", "rarity", "flavour", "artist")
KNOWN_ROW_KEYS = {"name", *CARD_FIELDS, *PRINTING_FIELDS}
KNOWN_TOP_KEYS = {"game", "code", "name", "released", "sample", "notice", "cards"}
#: Faction values that mean "no faction" in a game without factions.
NO_FACTION_WORDS = frozenset({"", "neutral", "none"})
#: The range of a cost (the column is a 32-bit integer; no game comes near this).
MAX_COST = 1_000_000
#: Namespace of the advisory lock an import holds on its game (PostgreSQL).
IMPORT_LOCK = 0x43415244  # "CARD"
#: Rows written per statement: a 20,000-card file is 20 inserts of cards and 20 of
#: printings, each well within the statement timeout, in the one transaction.
BATCH_SIZE = 1000
#: Rows per UPDATE where Django's bulk_update is used (SQLite): it writes a CASE over the
#: batch's ids for every column, whose cost grows with the square of the batch.
UPDATE_BATCH_SIZE = 100


def _too_long(model, field_name: str, value: str) -> str | None:
    """Why a text is too long for its column (None when it fits)."""
    limit = model._meta.get_field(field_name).max_length
    if limit is not None and len(value) > limit:
        return f"{len(value):,} characters; at most {limit}"
    return None


@dataclass(frozen=True)
class RowError:
    """One reason a file cannot be imported. `index` is the card's position in `cards`
    (None for the expansion's own fields)."""

    index: int | None
    field: str
    message: str
    name: str = ""

    def __str__(self) -> str:
        where = "expansion" if self.index is None else f"card #{self.index}"
        if self.name:
            where += f" ({self.name})"
        return f"{where}, {self.field}: {self.message}"


@dataclass(frozen=True)
class PoolLeftOut:
    """A rule set of one of the game's formats, in force or upcoming, whose legal expansions
    do not list the imported expansion: the expansion's cards are out of that format's
    pool under it (a rule set listing no expansion takes them all, and is never one)."""

    format: str
    format_name: str
    code: str
    name: str
    rule_set_id: int
    effective: dt.date
    upcoming: bool

    def text(self, expansion: str) -> str:
        when = (
            f"upcoming, in force from {self.effective.isoformat()}"
            if self.upcoming
            else f"in force since {self.effective.isoformat()}"
        )
        named = f"{self.code} ({self.name})" if self.name else self.code
        return (
            f"{self.format_name}: rule set {named}, {when}, does not list {expansion}: "
            f"its cards are out of the {self.format_name} pool; edit the rule set to add it."
        )


@dataclass
class ImportReport(FileImportReport):
    game: str = ""
    #: The game's name as its package spells it (`GameDef.short_name`), "" when unknown.
    game_name: str = ""
    code: str = ""
    expansion_created: bool = False
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: For each updated card (by its new name): the fields that change, as
    #: (field, before, after), attributes one key each ("attributes.speed").
    changes: dict[str, list[tuple[str, Any, Any]]] = field(default_factory=dict)
    #: The formats whose rule set in force (or upcoming) leaves the expansion out.
    left_out: list[PoolLeftOut] = field(default_factory=list)

    def left_out_notes(self) -> list[str]:
        return [entry.text(self.code) for entry in self.left_out]

    @property
    def left_out_items(self) -> list[tuple[PoolLeftOut, str]]:
        return [(entry, entry.text(self.code)) for entry in self.left_out]

    def counts(self) -> str:
        n = len(self.created)
        if self.dry_run:
            made = ngettext("%(n)d card would be created", "%(n)d cards would be created", n)
        else:
            made = ngettext("%(n)d card was created", "%(n)d cards were created", n)
        return (
            f"{self.game_name or self.game} {self.code}: {made % {'n': n}}, "
            f"{len(self.updated)} updated, {len(self.unchanged)} unchanged."
        )


class ImportFailed(FileImportFailed):
    """An expansion file with at least one bad row (`report`: every one)."""

    report: ImportReport
