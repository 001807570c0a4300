"""The day a rule set comes into force, every page agrees.

A deck that follows its format stores the verdict of its last check and the code of the rule
set it was checked under (`report["rule_set"]`). From 00:00 site time on the day a new rule
set comes into force, that verdict is stale until the beat's re-check reaches the deck, while
card search and the validate API already use the new rule set. So a page never shows a
stale verdict:

- `with_in_force(qs)` annotates each deck with the code of the rule set in effect today in
  its game and format (`in_force_code`, a subquery: no query of its own);
- `decks_refresh(decks)` re-checks at once the stale ones among the decks a page shows (a
  single deck, or a page of a list), in bulk, and writes their verdicts through (only while
  the deck is at the version checked and the verdict read, as the re-check job does), with
  the notice the job would have written (verdict or total points changed). A page with no
  stale deck costs no query; one with stale decks a constant number (the rule sets in force
  when not annotated, the versions, the card facts of each game, each rule set's facts, the
  write, the notices), whatever their number;
- `only_fresh(qs)` keeps the decks whose stored verdict is under the rule set they are checked
  under today (pinned, or following and checked under the one in force): the lists' verdict
  filters ("legal today in <format>", the API's `legal`) leave a stale deck out until it is
  re-checked.

A pinned deck is never stale by date: it is checked under its pin whatever the day.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from django.db import transaction
from django.db.models import F, Func, OuterRef, Q, Subquery, TextField

from catalogue import rulesets
from catalogue.models import RuleSet
from catalogue.services import card_facts_by_names
from decks.lists import SavedList, version_check
from decks.models import Deck as DeckModel
from decks.models import DeckVersion
from notices.services import notices_write

from .recheck_checks import _points
from .rechecks import apply_report
from .verdict_writes import write_verdicts

#: What `in_force_code` holds before it is read.
_UNREAD = object()


class KeyText(Func):
    """The text of a key of a JSON column, NULL for a JSON null or a missing key, the same on
    PostgreSQL and SQLite. (Django's `KT` is a key transform: on SQLite it reads a JSON null
    as the text 'null', and its exact lookup reads the parameters of a subquery compared
    with it as JSON, "malformed JSON" for a date.)"""

    output_field = TextField()

    def __init__(self, column: str, key: str) -> None:
        super().__init__(F(column))
        self.key = key

    def as_sql(self, compiler, connection, **extra_context):  # type: ignore[override]
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} ->> %s)", (*params, self.key)

    def as_sqlite(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"JSON_EXTRACT({sql}, %s)", (*params, f"$.{self.key}")


def with_in_force(qs):
    """`qs` (decks) with `in_force_code`: the code of the rule set in effect today in each
    deck's game and format (None: the bare format holds)."""
    current = (
        RuleSet.objects.filter(
            game_id=OuterRef("game_id"), format=OuterRef("format"), effective__lte=rulesets.today()
        )
        .order_by("-effective")
        .values("code")[:1]
    )
    return qs.annotate(in_force_code=Subquery(current))


#: When a deck's stored verdict is fresh: the one rule, which `only_fresh` filters by in SQL
#: and `is_stale` reads of a deck in memory (`_holds`). A deck is fresh when it is pinned,
#: has no saved list, or was checked under the rule set in effect today in its game and
#: format (`in_force_code`), or under the bare format when none is (`checked_code`: the code
#: its stored report names).
FRESH = (
    Q(rule_set_pin__isnull=False)
    | Q(current_version__isnull=True)
    | Q(in_force_code__isnull=True, checked_code__isnull=True)
    | Q(checked_code=F("in_force_code"))
)


def only_fresh(qs):
    """The decks of `qs` whose stored verdict is under the rule set they are checked under
    today (`FRESH`)."""
    if "in_force_code" not in qs.query.annotations:
        qs = with_in_force(qs)
    qs = qs.annotate(checked_code=KeyText("report", "rule_set"))
    return qs.filter(FRESH)


def _holds(q: Q, row: Mapping[str, Any]) -> bool:
    """Whether `q` holds of a row whose columns are `row`, as SQL reads it: the lookups
    `FRESH` is written with (`isnull`, and `exact` with a value or an `F`), where NULL
    (None) equals nothing."""
    answers = []
    for child in q.children:
        if isinstance(child, Q):
            answers.append(_holds(child, row))
            continue
        lookup, wanted = cast(tuple[str, Any], child)
        column, _, how = lookup.partition("__")
        value = row[column]
        if how == "isnull":
            answers.append((value is None) == bool(wanted))
        elif how in ("", "exact"):
            # an F compares with another column (named by its one argument)
            other = row[wanted.deconstruct()[1][0]] if isinstance(wanted, F) else wanted
            answers.append(value is not None and other is not None and value == other)
        else:
            raise ValueError(f"_holds does not read the lookup {lookup!r}")
    if q.negated:
        raise ValueError("_holds does not read a negated condition")
    return any(answers) if q.connector == Q.OR else all(answers)


def is_stale(deck, in_force_code: str | None) -> bool:
    """Whether a deck's stored verdict was checked under another rule set than the one in
    effect today (`in_force_code`), while it follows its format: `FRESH` does not hold."""
    stored = deck.verdict
    row = {
        "rule_set_pin": deck.rule_set_pin_id,
        "current_version": deck.current_version_id,
        "in_force_code": in_force_code or None,
        "checked_code": (stored.rule_set if stored else None) or None,
    }
    return not _holds(FRESH, row)


def _in_force_sets(pairs: set[tuple[int, str]]) -> dict[tuple[int, str], RuleSet | None]:
    """The rule set in effect today of each (game id, format) (one query)."""
    found: dict[tuple[int, str], RuleSet | None] = dict.fromkeys(pairs)
    rows = RuleSet.objects.filter(
        game_id__in={g for g, _ in pairs},
        format__in={f for _, f in pairs},
        effective__lte=rulesets.today(),
    ).order_by("effective")
    for rs in rows:
        if (rs.game_id, rs.format) in found:
            found[(rs.game_id, rs.format)] = rs  # the latest wins
    return found


def decks_refresh(decks: Iterable[Any]) -> int:
    """Re-check at once the decks of `decks` (model instances with their game) whose stored
    verdict is stale (see the module docstring), write their verdicts through and tell their
    owners of a verdict that changed; the instances carry the new verdict. Returns the number
    re-checked."""
    following = [d for d in decks if d.rule_set_pin_id is None and d.current_version_id]
    if not following:
        return 0
    unread = [d for d in following if getattr(d, "in_force_code", _UNREAD) is _UNREAD]
    sets: dict[tuple[int, str], RuleSet | None] | None = None
    if unread:
        sets = _in_force_sets({(d.game_id, d.format) for d in unread})
        for d in unread:
            rs = sets[(d.game_id, d.format)]
            d.in_force_code = rs.code if rs is not None else None
    stale = [d for d in following if is_stale(d, d.in_force_code)]
    if not stale:
        return 0
    pairs = {(d.game_id, d.format) for d in stale}
    if sets is None or not pairs <= set(sets):
        sets = _in_force_sets(pairs)
    # The versions not loaded with the decks (one query).
    versions: dict[int, Any] = {}
    for d in stale:
        if DeckModel.current_version.is_cached(d) and d.current_version is not None:
            versions[d.current_version_id] = d.current_version
    wanted = [d.current_version_id for d in stale if d.current_version_id not in versions]
    if wanted:
        versions.update(
            DeckVersion.objects.only("pk", "entries", "options", "revision", "deck_id").in_bulk(
                wanted
            )
        )
    # The card facts of each game's stale lists (one query a game), each rule set's facts
    # for those cards (two or three queries a rule set).
    lists = {d.pk: SavedList.of_deck(d, versions[d.current_version_id]) for d in stale}
    names: dict[int, set[str]] = {}
    by_pair: dict[tuple[int, str], set[str]] = {}
    for d in stale:
        cards = set(lists[d.pk].card_names)
        names.setdefault(d.game_id, set()).update(cards)
        by_pair.setdefault((d.game_id, d.format), set()).update(cards)
    slugs = {d.game_id: d.game.slug for d in stale}
    pools = {g: card_facts_by_names(game_slug=slugs[g], names=n) for g, n in names.items()}
    facts = {
        pair: rulesets.facts(found, by_pair[pair]) if (found := sets[pair]) is not None else None
        for pair in pairs
    }
    changed: list[dict[str, Any]] = []
    for d in stale:
        report = version_check(
            lists[d.pk], pool=pools[d.game_id], rule_set=facts[(d.game_id, d.format)]
        )
        try:
            fmt_name = d.game.definition.format(d.format).name
        except (KeyError, ValueError):
            fmt_name = d.format
        changed.append(
            {
                "pk": d.pk,
                "owner_id": d.owner_id,
                "name": d.name,
                "version_id": d.current_version_id,
                "report": report,
                "was_legal": d.legal,
                "was_points": _points(d.verdict),
                "was_validated": d.verdict is not None,
                "was_validated_at": d.validated_at,
                "fmt_name": fmt_name,
                # the notice's key names the rule set the deck leaves: written once
                "key_tail": f"since:{(d.verdict.rule_set if d.verdict else None) or '-'}",
            }
        )
    with transaction.atomic():
        notices_write(write_verdicts(changed, key_tail="")[1])
    for d, c in zip(stale, changed, strict=True):
        apply_report(d, c["report"])
        d.in_force_code = c["report"].rule_set
    return len(stale)
