"""The rule set file: import and export of a format's rule sets in the JSON of the game spec.

A file holds one rule set (a JSON object) or several (a list of them):

    {"rule_set": 1, "game": "<game>", "format": "standard", "code": "S2",
     "name": "Season 2", "announced": "2026-12-01", "effective": "2027-01-01",
     "expansions": ["RL1", "RL2"],
     "cards": [{"name": "Card A", "banned": true}, {"name": "Card B", "limit": 2},
               {"name": "Card C", "cost": 4}, {"name": "Card D", "text": "Errata: …"}],
     "note": "Why it changed.", "sample": false}

An import is all-or-nothing, like an expansion's: every rule set and card row is checked
first and every bad one named (an unknown game, format, expansion or card, a negative limit
or cost, an effective date before the announcement, two rule sets of one format with the same
effective date); only a file without a single error is written, in one transaction. The
identity of a rule set is (game, format, code): importing the same code again updates it, and
a rule set the file leaves as it is stored is not written again. Each rule set written is
announced through `catalogue.rulesets.rule_set_changed` once the transaction commits.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import ngettext

from cardsite import hooks
from validation.registry import registry
from validation.types import RuleSetFacts

from . import rulesets
from .file_imports import FileImportFailed, FileImportReport
from .models import Card, Expansion, Game, Printing, RuleSet, RuleSetCard

logger = logging.getLogger(__name__)

#: The file format's version (`"rule_set": 1`).
FILE_VERSION = 1
KNOWN_TOP_KEYS = frozenset(
    {"rule_set", "game", "format", "code", "name", "announced", "effective", "expansions",
     "cards", "note", "sample"}
)  # fmt: skip
KNOWN_ROW_KEYS = frozenset({"name", "banned", "limit", "cost", "text"})
#: Bounds of a file: rule sets in one file, card rows in one rule set, expansions listed.
MAX_SETS = 200
MAX_ROWS = 20_000
MAX_EXPANSIONS = 500
#: The largest copy limit and cost a row may give (no game comes near them).
MAX_LIMIT = 1_000
MAX_COST = 1_000_000
#: A card row's whole-number keys: the largest value each takes, as an error shows it.
WHOLE_NUMBER_ROW_KEYS = (("limit", MAX_LIMIT, f"{MAX_LIMIT}"), ("cost", MAX_COST, f"{MAX_COST:,}"))


@dataclass(frozen=True)
class RuleSetError:
    """One reason a file cannot be imported: the rule set (`index` in the file, its code when
    readable), the card row (`row`, None for the rule set's own fields), the field and why."""

    index: int
    field: str
    message: str
    code: str = ""
    row: int | None = None
    name: str = ""

    def __str__(self) -> str:
        where = f"rule set #{self.index}"
        if self.code:
            where += f" ({self.code})"
        if self.row is not None:
            where += f", card #{self.row}"
            if self.name:
                where += f" ({self.name})"
        return f"{where}, {self.field}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "code": self.code,
            "row": self.row,
            "name": self.name,
            "field": self.field,
            "message": self.message,
        }


@dataclass
class Entry:
    """A card's entry in a rule set, by its canonical name."""

    banned: bool = False
    limit: int | None = None
    cost: int | None = None
    text: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.banned:
            out["banned"] = True
        if self.limit is not None:
            out["limit"] = self.limit
        if self.cost is not None:
            out["cost"] = self.cost
        if self.text:
            out["text"] = self.text
        return out


@dataclass
class Plan:
    """One rule set of a file, checked: its fields, entries by card id, and what importing
    it changes against the stored rule set of the same code (`changes`, in words; `created`
    when there is none)."""

    game: str
    format: str
    code: str
    name: str
    announced: dt.date
    effective: dt.date
    expansions: list[str]
    note: str
    sample: bool
    entries: dict[int, tuple[str, Entry]] = field(default_factory=dict)
    created: bool = True
    changes: list[str] = field(default_factory=list)
    #: What the rule set changes for the players, against the rule set it replaces (the
    #: stored one of its code) or, when new, the one it follows (in effect before it; None:
    #: the format's own rules): banned, unbanned, limits, costs, errata, expansions.
    against: list[rulesets.Change] = field(default_factory=list)
    #: What it is compared with, in words: "S1 (Season 1), which it follows".
    compared_with: str = ""
    #: The saved decks whose verdict it would change (None: no hook answered).
    decks: DeckVerdicts | None = None

    @property
    def unchanged(self) -> bool:
        return not self.created and not self.changes

    @property
    def game_name(self) -> str:
        """The game's short name as its package spells it; the slug of an unknown one."""
        try:
            return registry.get(self.game).short_name
        except KeyError:
            return self.game

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); the slug of an unknown one."""
        try:
            return registry.get(self.game).format(self.format).name
        except (KeyError, ValueError):
            return self.format

    def summary(self) -> str:
        if self.created:
            n = len(self.against)
            what = f"new; against {self.compared_with}: " + (
                ngettext("%(n)d change", "%(n)d changes", n) % {"n": n}
                if self.against
                else "nothing changes"
            )
        elif self.changes:
            n = len(self.changes)
            what = ngettext(
                "%(n)d change to the stored %(code)s", "%(n)d changes to the stored %(code)s", n
            ) % {"n": n, "code": self.code}
        else:
            what = "unchanged"
        named = f" ({self.name})" if self.name else ""
        line = f"{self.game_name} {self.format_name} {self.code}{named}: {what}"
        if self.decks is not None:
            line += f"; {self.decks.text}"
        return line

    def lines(self) -> list[str]:
        """Every change in words: the rule set's own fields (an update), then what changes
        for the players."""
        return [*self.changes] if not self.created else [c.text for c in self.against]


@dataclass(frozen=True)
class DeckVerdicts:
    """What importing a rule set would do to the saved decks it governs (its format's decks
    that follow the format, when it is or will be the rule set in force, and those pinned
    to its code), found by checking them in memory, nothing written: `changed` of the
    `checked` decks would change verdict (legal ↔ not legal) against their saved one,
    `names` a few of them; `total` decks were in scope (at most `checked` are checked)."""

    total: int
    checked: int
    changed: int
    names: tuple[str, ...] = ()
    made_illegal: int = 0
    made_legal: int = 0
    when: str = ""

    @property
    def more(self) -> int:
        """Decks whose verdict would change beyond those named."""
        return self.changed - len(self.names)

    @property
    def text(self) -> str:
        if not self.total:
            return "no saved deck follows it"
        said = ngettext(
            "%(changed)d of %(checked)d saved deck it governs would change verdict",
            "%(changed)d of %(checked)d saved decks it governs would change verdict",
            self.checked,
        ) % {"changed": self.changed, "checked": self.checked} + (
            f" {self.when}" if self.when else ""
        )
        if self.changed:
            said += f" ({self.made_illegal} made not legal, {self.made_legal} made legal)"
        if self.checked < self.total:
            said += f"; {self.total - self.checked} more not checked"
        return said


@dataclass
class RuleSetImportReport(FileImportReport):
    plans: list[Plan] = field(default_factory=list)
    errors: list[RuleSetError] = field(default_factory=list)
    dry_run: bool = False

    def counts(self) -> str:
        created = sum(p.created for p in self.plans)
        updated = sum(bool(not p.created and p.changes) for p in self.plans)
        unchanged = sum(p.unchanged for p in self.plans)
        n = len(self.plans)
        sets = ngettext("%(n)d rule set", "%(n)d rule sets", n) % {"n": n}
        return f"{sets}: {self.created_words(created)}, {updated} updated, {unchanged} unchanged."


class RuleSetImportFailed(FileImportFailed):
    """A rule set file with at least one bad row (`report`: every one)."""

    report: RuleSetImportReport


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _date(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class _Checker:
    """Checks the rule sets of one file, reading the catalogue in a few queries per game."""

    def __init__(self) -> None:
        self.errors: list[RuleSetError] = []
        self._games: dict[str, Game | None] = {}
        self._expansions: dict[str, dict[str, str]] = {}

    def game(self, slug: str) -> Game | None:
        if slug not in self._games:
            self._games[slug] = Game.objects.filter(slug=slug).first()
        return self._games[slug]

    def expansions(self, slug: str) -> dict[str, str]:
        """Upper-cased code -> code of the game's expansions."""
        if slug not in self._expansions:
            codes = Expansion.objects.filter(game__slug=slug).values_list("code", flat=True)
            self._expansions[slug] = {c.upper(): c for c in codes}
        return self._expansions[slug]

    def check(self, index: int, data: Any) -> Plan | None:
        err = self.errors
        before = len(err)
        if not isinstance(data, dict):
            err.append(RuleSetError(index, "rule set", "must be a JSON object"))
            return None
        code = data.get("code")
        shown = code.strip() if isinstance(code, str) and not _has_nul(code) else ""

        def add(field_: str, message: str, **kw: Any) -> None:
            err.append(RuleSetError(index, field_, message, shown, **kw))

        if _has_nul(data):
            add("rule set", "contains a NUL character (\\x00), which text cannot hold")
            return None
        for key in sorted(set(data) - KNOWN_TOP_KEYS):
            add(key, "unknown field")
        version = data.get("rule_set", FILE_VERSION)
        if version != FILE_VERSION:
            add("rule_set", f"the file format's version is {FILE_VERSION}; got {version!r}")
        slug = data.get("game")
        game_def = registry.get(slug) if isinstance(slug, str) and slug in registry else None
        game = self.game(slug) if game_def is not None and isinstance(slug, str) else None
        if game_def is None or game is None:
            add("game", f"{slug!r} is not a game; use one of {', '.join(registry.slugs())}")
        fmt = data.get("format")
        if game_def is not None and (not isinstance(fmt, str) or fmt not in game_def.formats):
            add(
                "format",
                f"{fmt!r} is not a format of {game_def.name}; use one of "
                f"{', '.join(game_def.formats)}",
            )
        if not shown or len(shown) > 40 or any(ch.isspace() for ch in shown):
            add("code", "required: a short code without spaces, such as 'S2' (40 characters)")
        name = data.get("name", "")
        if not isinstance(name, str) or len(name.strip()) > 200:
            add("name", "expected a text of at most 200 characters")
            name = ""
        announced = _date(data.get("announced"))
        if announced is None:
            add("announced", f"{data.get('announced')!r} is not a date like 2026-12-01")
        effective = _date(data.get("effective"))
        if effective is None:
            add("effective", f"{data.get('effective')!r} is not a date like 2027-01-01")
        if announced and effective and effective < announced:
            add(
                "effective",
                f"{effective.isoformat()} is before the announcement on {announced.isoformat()}",
            )
        note = data.get("note", "")
        if not isinstance(note, str) or len(note) > 2000:
            add("note", "expected a text of at most 2,000 characters")
            note = ""
        sample = data.get("sample", False)
        if not isinstance(sample, bool):
            add("sample", "must be true or false")
        expansions: list[str] = []
        listed = data.get("expansions", [])
        if listed is None:
            listed = []
        if not isinstance(listed, list) or len(listed) > MAX_EXPANSIONS:
            add("expansions", f"expected a list of expansion codes (at most {MAX_EXPANSIONS})")
        elif game is not None:
            known = self.expansions(game.slug)
            for i, item in enumerate(listed):
                found = known.get(item.upper()) if isinstance(item, str) else None
                if found is None:
                    add(
                        f"expansions[{i}]",
                        f"{item!r} is not an expansion of {game.name}; known: "
                        f"{', '.join(sorted(known.values())) or 'none'}",
                    )
                elif found in expansions:
                    add(f"expansions[{i}]", f"{found} is listed twice")
                else:
                    expansions.append(found)
        rows = data.get("cards", [])
        if rows is None:
            rows = []
        entries: dict[int, tuple[str, Entry]] = {}
        if not isinstance(rows, list):
            add("cards", "expected a list of card entries")
        elif len(rows) > MAX_ROWS:
            add("cards", f"{len(rows):,} card entries; at most {MAX_ROWS:,}")
        elif game is not None:
            entries = self._rows(index, shown, game, rows)
        if len(err) > before or game is None:
            return None
        # each was checked above: a missing or bad one is an error, and there was none
        assert fmt is not None and announced is not None and effective is not None
        return Plan(
            game=game.slug,
            format=fmt,
            code=shown,
            name=name.strip(),
            announced=announced,
            effective=effective,
            expansions=expansions,
            note=note,
            sample=sample,
            entries=entries,
        )

    def _rows(self, index: int, code: str, game: Game, rows: list[Any]):
        """The card rows of one rule set, checked: card id -> (canonical name, Entry). One
        query for every named card."""
        names = {
            r["name"].strip().lower()
            for r in rows
            if isinstance(r, dict) and isinstance(r.get("name"), str)
        }
        cards = {
            lname: (pk, name)
            for pk, name, lname in Card.objects.annotate(lname=Lower("name"))
            .filter(game=game, lname__in=names)
            .values_list("id", "name", "lname")
        }
        out: dict[int, tuple[str, Entry]] = {}
        for i, row in enumerate(rows):
            written = row.get("name") if isinstance(row, dict) else None
            label = written.strip() if isinstance(written, str) else ""

            def add(field_: str, message: str, i: int = i, label: str = label) -> None:
                self.errors.append(RuleSetError(index, field_, message, code, i, label))

            if not isinstance(row, dict):
                add("card", "must be a JSON object with a name")
                continue
            for key in sorted(set(row) - KNOWN_ROW_KEYS):
                add(key, "unknown field")
            found = cards.get(label.lower()) if label else None
            if not label:
                add("name", "required: the card's name")
            elif found is None:
                add("name", f"no card named {label!r} in {game.name}")
            entry = Entry()
            banned = row.get("banned", False)
            if not isinstance(banned, bool):
                add("banned", "must be true or false")
            else:
                entry.banned = banned
            for key, top, shown in WHOLE_NUMBER_ROW_KEYS:
                value = row.get(key)
                if value is None:
                    continue
                if _is_int(value) and 0 <= value <= top:
                    setattr(entry, key, value)
                else:
                    add(key, f"{value!r} is not a whole number from 0 to {shown}")
            text = row.get("text", "")
            if not isinstance(text, str) or len(text) > 5000:
                add("text", "expected a text of at most 5,000 characters")
            else:
                entry.text = text.strip()
            if not (
                entry.banned or entry.limit is not None or entry.cost is not None or entry.text
            ):
                if set(row) <= {"name"}:
                    add("card", "says nothing: give banned, limit, cost or text")
                continue
            if found is not None:
                pk, name = found
                if pk in out:
                    add("name", f"{name} has two entries in this rule set")
                else:
                    out[pk] = (name, entry)
        return out


def _stored(rule_set: RuleSet) -> tuple[dict[str, Any], dict[str, Entry]]:
    """A stored rule set's fields and its entries by canonical card name (two queries)."""
    fields = {
        "name": rule_set.name,
        "announced": rule_set.announced,
        "effective": rule_set.effective,
        "note": rule_set.note,
        "sample": rule_set.sample,
        "expansions": list(
            rule_set.expansions.order_by("released", "code").values_list("code", flat=True)
        ),
    }
    entries = {
        e.card.name: Entry(e.banned, e.limit, e.cost, e.text)
        for e in RuleSetCard.objects.filter(rule_set=rule_set).select_related("card")
    }
    return fields, entries


def _shown(value: Any, none: str = "none") -> str:
    return none if value is None else str(value)


def _plan_snapshot(plan: Plan) -> rulesets.Snapshot:
    """The plan as `rulesets.compare` reads a rule set (two queries: its expansions in
    release order, its cards' printed costs)."""
    order = {
        code: i
        for i, code in enumerate(
            Expansion.objects.filter(game__slug=plan.game, code__in=plan.expansions)
            .order_by("released", "code")
            .values_list("code", flat=True)
        )
    }
    printed = dict(Card.objects.filter(pk__in=list(plan.entries)).values_list("pk", "cost"))
    return rulesets.Snapshot(
        tuple(sorted(plan.expansions, key=lambda c: order.get(c, len(order)))),
        {
            name: (e.banned, e.limit, e.cost, e.text, printed.get(pk, 0))
            for pk, (name, e) in plan.entries.items()
        },
    )


def _follows(plan: Plan) -> RuleSet | None:
    """The stored rule set of the plan's format in effect before it (another code)."""
    return (
        rulesets._sets(plan.game, plan.format)
        .filter(effective__lt=plan.effective)
        .exclude(code=plan.code)
        .order_by("-effective")
        .first()
    )


def _plan_changes(plan: Plan) -> None:
    """Fill `plan.created` and `plan.changes` against the stored rule set of its code, and
    `plan.against` (what changes for the players) against the rule set it replaces or, when
    new, the one it follows."""
    stored = rulesets.by_code(plan.game, plan.format, plan.code)
    after = _plan_snapshot(plan)
    if stored is None:
        plan.created = True
        before = _follows(plan)
        plan.compared_with = (
            f"{before}, which it follows"
            if before is not None
            else "the format's own rules (no rule set before it)"
        )
        plan.against = rulesets.compare(rulesets.snapshot(before), after)
        return
    plan.created = False
    plan.compared_with = f"the stored {stored}, which it replaces"
    plan.against = rulesets.compare(rulesets.snapshot(stored), after)
    fields, _entries = _stored(stored)
    for key in ("name", "announced", "effective", "note", "sample"):
        old, new = fields[key], getattr(plan, key)
        if old != new:
            plan.changes.append(f"{key}: {_field(old)} → {_field(new)}")
    plan.changes += [c.text for c in plan.against]


def plan_facts(plan: Plan) -> RuleSetFacts:
    """The rules core's view of a checked rule set before it is written (one query: the
    names of the cards its legal expansions print)."""
    entries = (
        (name.lower(), e.banned, e.limit, e.cost, e.text) for name, e in plan.entries.values()
    )
    pool = None
    if plan.expansions:
        pool = frozenset(
            Printing.objects.filter(
                expansion__game__slug=plan.game, expansion__code__in=plan.expansions
            )
            .annotate(lname=Lower("card__name"))
            .values_list("lname", flat=True)
            .distinct()
        )
    return rulesets.facts_from_entries(plan, entries, tuple(plan.expansions), pool)


def _governs_following(plan: Plan) -> str | None:
    """Whether the format's decks that follow it would be checked under the plan: "" now
    (it would be the rule set in force today), its date's words when it would be the next
    upcoming one, None when another rule set stands between (the plan governs only the
    decks pinned to its code)."""
    today = rulesets.today()
    others = rulesets._sets(plan.game, plan.format).exclude(code=plan.code)
    if plan.effective <= today:
        later = others.filter(effective__gt=plan.effective, effective__lte=today)
        return None if later.exists() else ""
    sooner = others.filter(effective__gt=today, effective__lt=plan.effective)
    return None if sooner.exists() else f"from {plan.effective.isoformat()}"


def _plan_decks(plan: Plan) -> None:
    """Ask the apps that keep saved decks what the plan would do to their verdicts."""
    listeners = hooks.get_hooks("rule_set_preview")
    if not listeners:
        return
    when = _governs_following(plan)
    facts = plan_facts(plan)
    for listener in listeners:
        plan.decks = listener(
            game_slug=plan.game,
            format=plan.format,
            code=plan.code,
            facts=facts,
            following=when is not None,
            when=when or "",
        )


def _field(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "every expansion"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return repr(value[:60] + ("…" if len(value) > 60 else ""))
    return str(value)


def check_rule_sets(data: Any) -> RuleSetImportReport:
    """Check a file's document (one rule set or a list of them) against the catalogue and
    the stored rule sets; the report holds every error, or the plan of each rule set."""
    report = RuleSetImportReport()
    items = data if isinstance(data, list) else [data]
    if isinstance(data, list) and not data:
        report.errors.append(RuleSetError(0, "document", "the list holds no rule set"))
        return report
    if len(items) > MAX_SETS:
        report.errors.append(
            RuleSetError(0, "document", f"{len(items)} rule sets; at most {MAX_SETS} a file")
        )
        return report
    checker = _Checker()
    plans = [checker.check(i, item) for i, item in enumerate(items)]
    report.errors = checker.errors
    seen_code: dict[tuple[str, str, str], int] = {}
    seen_day: dict[tuple[str, str, dt.date], int] = {}
    for i, plan in enumerate(plans):
        if plan is None:
            continue
        key = (plan.game, plan.format, plan.code)
        day = (plan.game, plan.format, plan.effective)
        if key in seen_code:
            report.errors.append(
                RuleSetError(
                    i,
                    "code",
                    f"the file holds {plan.code} twice (also #{seen_code[key]})",
                    plan.code,
                )
            )
        if day in seen_day:
            report.errors.append(
                RuleSetError(
                    i,
                    "effective",
                    f"another rule set of {plan.format} in this file (#{seen_day[day]}) takes "
                    f"effect on {plan.effective.isoformat()} too",
                    plan.code,
                )
            )
        seen_code.setdefault(key, i)
        seen_day.setdefault(day, i)
        clash = (
            RuleSet.objects.filter(
                game__slug=plan.game, format=plan.format, effective=plan.effective
            )
            .exclude(code=plan.code)
            .values_list("code", flat=True)
            .first()
        )
        moving = {
            p.code
            for p in plans
            if p is not None and p.game == plan.game and p.format == plan.format
        }
        if clash is not None and clash not in moving:
            report.errors.append(
                RuleSetError(
                    i,
                    "effective",
                    f"rule set {clash} of {plan.format} already takes effect on "
                    f"{plan.effective.isoformat()}; two rule sets of one format cannot",
                    plan.code,
                )
            )
    if not report.errors:
        report.plans = [p for p in plans if p is not None]
        for plan in report.plans:
            _plan_changes(plan)
    return report


def rule_set_import(*, data: Any, dry_run: bool = False) -> RuleSetImportReport:
    """Import a rule set file's document. Raises RuleSetImportFailed (with every error) on a
    bad file; with `dry_run` nothing is written and the report says what would change. A
    rule set whose stored version equals the file's is not written again."""
    report = check_rule_sets(data)
    report.dry_run = dry_run
    if report.errors:
        logger.warning("rule set import refused", extra={"errors": len(report.errors)})
        raise RuleSetImportFailed(report)
    if dry_run:
        for plan in report.plans:
            _plan_decks(plan)
        return report
    written: list[RuleSet] = []
    with transaction.atomic():
        # Stored rule sets whose date the file changes step aside first (a placeholder date
        # far ahead), so that a file may move one set onto another's old date.
        for i, plan in enumerate(report.plans):
            if not plan.created and any(c.startswith("effective:") for c in plan.changes):
                RuleSet.objects.filter(
                    game__slug=plan.game, format=plan.format, code=plan.code
                ).update(effective=dt.date(9999, 12, 31) - dt.timedelta(days=i))
        for plan in report.plans:
            if plan.unchanged:
                continue
            written.append(_write(plan))
        for rule_set in written:
            rulesets.rule_set_changed(rule_set)
    logger.info(
        "rule set import finished",
        extra={"sets": len(report.plans), "written": len(written)},
    )
    return report


def _write(plan: Plan) -> RuleSet:
    game = Game.objects.get(slug=plan.game)
    rule_set, _ = RuleSet.objects.update_or_create(
        game=game,
        format=plan.format,
        code=plan.code,
        defaults={
            "name": plan.name,
            "announced": plan.announced,
            "effective": plan.effective,
            "note": plan.note,
            "sample": plan.sample,
        },
    )
    rule_set.expansions.set(Expansion.objects.filter(game=game, code__in=plan.expansions))
    RuleSetCard.objects.filter(rule_set=rule_set).delete()
    RuleSetCard.objects.bulk_create(
        [
            RuleSetCard(
                rule_set=rule_set,
                card_id=pk,
                banned=e.banned,
                limit=e.limit,
                cost=e.cost,
                text=e.text,
            )
            for pk, (_name, e) in plan.entries.items()
        ],
        batch_size=1000,
    )
    return rule_set


def rule_set_export(*, game_slug: str, format: str, code: str) -> dict[str, Any]:
    """A stored rule set as the document `rule_set_import` reads back unchanged.
    RuleSet.DoesNotExist when there is none."""
    rule_set = RuleSet.objects.select_related("game").get(
        game__slug=game_slug, format=format, code=code
    )
    fields, entries = _stored(rule_set)
    doc: dict[str, Any] = {
        "rule_set": FILE_VERSION,
        "game": game_slug,
        "format": format,
        "code": rule_set.code,
        "name": rule_set.name,
        "announced": rule_set.announced.isoformat(),
        "effective": rule_set.effective.isoformat(),
        "expansions": fields["expansions"],
        "cards": [
            {"name": name, **entry.as_dict()}
            for name, entry in sorted(entries.items(), key=lambda kv: kv[0].lower())
        ],
        "note": rule_set.note,
    }
    if rule_set.sample:
        doc["sample"] = True
    return doc
