"""A decklist's legality today: its list checked in every format of its game, each under the
rule set in force today in that format (`DecklistLegality`, one row a format).

The rows are written when the decklist is published and re-checked on the workers, a job of
the site's job system (`legality_jobs`), when a format's rule sets change (the
`rule_set_changed` hook: a rule set imported, edited or deleted), when its game's catalogue
changes (`catalogue_changed`), and the day a rule set takes effect (beat's `recheck_due`
starts a job for the rows checked under another rule set than today's, or before the rule
set's last change). A page never shows a stale row: the decklist page re-checks its own at
once (`legality_refresh`), and the search's "legal today" reads only rows checked under the
rule set in force today.

The check is the decks app's stored-verdict check (`version_check`, the rules core through
the catalogue's facts), run on a snapshot instead of a deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from catalogue import rulesets
from catalogue.models import Game, RuleSet
from catalogue.services import GamePool, card_facts_by_names
from decklists.from_decks import RuleSetCache, SavedList, version_check
from decklists.listing_cache import listings_changed
from decklists.models import Decklist, DecklistLegality
from validation.runner import Report
from validation.types import CardFacts

#: Problems kept a format (the page shows them; the rest are counted).
ERRORS_KEPT = 3


def check_formats(
    *, saved: SavedList, pool: Mapping[str, CardFacts], sets: RuleSetCache
) -> dict[str, Report]:
    """The list's report in every format of its game, each under the rule set in force
    today there (`sets`, a RuleSetCache); the list's own options count in its own format,
    the other formats read their defaults (`SavedList.in_format`)."""
    return {
        fmt: version_check(saved.in_format(fmt), pool=pool, rule_set=sets.in_force(fmt))
        for fmt in saved.game.definition.formats
    }


def legality_rows(
    decklist_id: int, reports: dict[str, Report], now: datetime
) -> list[DecklistLegality]:
    return [
        DecklistLegality(
            decklist_id=decklist_id,
            format=fmt,
            legal=report.legal,
            rule_set_code=report.rule_set or "",
            errors=[e.message for e in report.errors[:ERRORS_KEPT]]
            + (
                [f"… and {len(report.errors) - ERRORS_KEPT} more"]
                if len(report.errors) > ERRORS_KEPT
                else []
            ),
            checked_at=now,
        )
        for fmt, report in reports.items()
    ]


def legality_write(rows: list[DecklistLegality]) -> None:
    """Insert or replace the rows (one statement a thousand); "legal today" searches are
    read again (`listing_cache`)."""
    if rows:
        DecklistLegality.objects.bulk_create(
            rows,
            batch_size=1000,
            update_conflicts=True,
            unique_fields=["decklist", "format"],
            update_fields=["legal", "rule_set_code", "errors", "checked_at"],
        )
        listings_changed()


def legality_check(
    *,
    game_slug: str,
    formats: Iterable[str] | None = None,
    lo: int | None = None,
    hi: int | None = None,
) -> tuple[int, list[DecklistLegality]]:
    """The legality rows (not written) of the listed and hidden decklists of a game (those
    with ids in [lo, hi]) in `formats` (every format of the game when None): the pool and
    each rule set loaded once. Returns (the number of decklists, the rows)."""
    game = Game.objects.get(slug=game_slug)
    wanted = list(formats) if formats is not None else list(game.definition.formats)
    wanted = [f for f in wanted if f in game.definition.formats]
    pool = GamePool(game_slug=game_slug)
    sets = RuleSetCache(game_slug)
    rows_qs = Decklist.objects.filter(game=game).order_by("pk")
    if lo is not None:
        rows_qs = rows_qs.filter(pk__gte=lo, pk__lte=hi)
    now = timezone.now()
    rows: list[DecklistLegality] = []
    n = 0
    for pk, entries, options, own in rows_qs.values_list(
        "pk", "entries", "options", "format"
    ).iterator(chunk_size=2000):
        n += 1
        saved = SavedList.stored(game=game, format=own, entries=entries, options=options)
        for fmt in wanted:
            report = version_check(saved.in_format(fmt), pool=pool, rule_set=sets.in_force(fmt))
            rows += legality_rows(pk, {fmt: report}, now)
    return n, rows


def recheck_decklists(
    *,
    game_slug: str,
    formats: Iterable[str] | None = None,
    lo: int | None = None,
    hi: int | None = None,
) -> int:
    """Re-check the decklists of a game (ids in [lo, hi]) in `formats` in this process and
    write their rows (`legality_check`, then `legality_write`). Returns the number of
    decklists."""
    n, rows = legality_check(game_slug=game_slug, formats=formats, lo=lo, hi=hi)
    legality_write(rows)
    return n


# --- Staleness -----------------------------------------------------------------------------


def _in_force_of(game_id: int, fmt: str) -> RuleSet | None:
    return (
        RuleSet.objects.filter(game_id=game_id, format=fmt, effective__lte=rulesets.today())
        .order_by("-effective")
        .first()
    )


def stale_q(game_id: int, fmt: str, current: RuleSet | None) -> Q:
    """The legality rows of a format that are not today's: checked under another rule set
    than the one in force today, or before its last change."""
    if current is None:
        return Q(format=fmt) & ~Q(rule_set_code="")
    return Q(format=fmt) & (~Q(rule_set_code=current.code) | Q(checked_at__lt=current.updated_at))


def legality_refresh(decklist: Decklist) -> list[DecklistLegality]:
    """The decklist's legality rows, today's: a row checked under another rule set than the
    one in force today (or before its last change), or missing, is re-checked at once and
    written through. A constant number of queries."""
    rows = {r.format: r for r in DecklistLegality.objects.filter(decklist=decklist)}
    game = decklist.game
    formats = list(game.definition.formats)
    current = {fmt: rs for fmt, rs in _in_force_all(game.pk, formats).items()}
    stale = []
    for fmt in formats:
        row = rows.get(fmt)
        rs = current.get(fmt)
        if row is None:
            stale.append(fmt)
        elif rs is None and row.rule_set_code:
            stale.append(fmt)
        elif rs is not None and (row.rule_set_code != rs.code or row.checked_at < rs.updated_at):
            stale.append(fmt)
    if stale:
        saved = decklist.saved_list()
        names = saved.card_names
        pool = card_facts_by_names(game_slug=game.slug, names=names)
        now = timezone.now()
        fresh = []
        for fmt in stale:
            rs = current.get(fmt)
            report = version_check(
                saved.in_format(fmt),
                pool=pool,
                rule_set=rulesets.facts(rs, names) if rs is not None else None,
            )
            fresh += legality_rows(decklist.pk, {fmt: report}, now)
        legality_write(fresh)
        for row in fresh:
            rows[row.format] = row
    return [rows[f] for f in formats if f in rows]


def _in_force_all(game_id: int, formats: list[str]) -> dict[str, RuleSet | None]:
    """The rule set in force today of each format of a game (one query)."""
    found: dict[str, RuleSet | None] = dict.fromkeys(formats)
    for rs in RuleSet.objects.filter(
        game_id=game_id, format__in=formats, effective__lte=rulesets.today()
    ).order_by("effective"):
        found[rs.format] = rs
    return found


def in_force_codes() -> dict[tuple[int, str], str]:
    """(game id, format) -> the code of the rule set in force today (one query; a format
    without one is absent: its bare rules hold, code \"\")."""
    found: dict[tuple[int, str], str] = {}
    for game_id, fmt, code in (
        RuleSet.objects.filter(effective__lte=rulesets.today())
        .order_by("effective")
        .values_list("game_id", "format", "code")
    ):
        found[(game_id, fmt)] = code
    return found
