"""How a validation report is shown: its totals as rows of a label and a plain-text value,
its violations each with the rule and the rulebook sentence behind it (`explained`).

Templates only iterate the rows; nothing of the report's raw shape (dicts, None, lists)
reaches a page. A report's totals are whatever the game's rules core computed: ints, floats,
strings (a faction slug), None (no general picked), and the per-section counts as a dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeVar

from django.urls import reverse

from validation.registry import GameDef
from validation.rulesets import cost_noted, is_rule_set_code
from validation.trace import why

EMPTY = "—"

T = TypeVar("T")

#: The label of the cards of a list the catalogue no longer has (grouped last).
NOT_IN_CATALOGUE = "Not in the catalogue"


def section_order(names: Iterable[str], held: Iterable[str]) -> list[str]:
    """The order a list's sections are shown in: `names` (the format's sections), then any
    other the list holds, in the order it holds them."""
    shown = list(names)
    return shown + [s for s in dict.fromkeys(held) if s not in shown]


def kind_groups(
    game: GameDef, items: Iterable[T], facts_of: Callable[[T], Any], name_of: Callable[[T], str]
) -> list[tuple[str, str, list[T]]]:
    """A section's lines grouped by card kind as the deck page and every export list them:
    (kind, its label, its lines) in the game's kind order, each group's lines by cost (a
    kind without a cost counts as none), then name; the lines whose card the catalogue no
    longer has (`facts_of` gives None) come last. Lines that tie keep their order."""
    order = {kind: i for i, kind in enumerate(game.kinds)}
    buckets: dict[str, list[T]] = {}
    for item in items:
        facts = facts_of(item)
        buckets.setdefault(facts.kind if facts is not None else "", []).append(item)

    def cost(item: T) -> int | None:
        facts = facts_of(item)
        return facts.cost if facts is not None and game.has_cost(facts.kind) else None

    def by_cost_then_name(item: T) -> tuple[bool, int, str]:
        c = cost(item)
        return (c is None, c or 0, name_of(item).lower())

    return [
        (
            kind,
            game.kinds[kind].label if kind in game.kinds else NOT_IN_CATALOGUE,
            sorted(buckets[kind], key=by_cost_then_name),
        )
        for kind in sorted(buckets, key=lambda k: order.get(k, len(order)))
    ]


class TotalRow(NamedTuple):
    """One row of the totals table: `label` and `value` as shown; `key` is the report's key
    (for tests and scripts reading the page)."""

    label: str
    value: str
    key: str


def _plain(value: Any) -> str:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        parts = [f"{str(k).replace('_', ' ')} {_plain(v)}" for k, v in value.items()]
        return ", ".join(parts) if parts else EMPTY
    if isinstance(value, list | tuple | set | frozenset):
        parts = [_plain(v) for v in value]
        return ", ".join(parts) if parts else EMPTY
    return str(value)


def _label(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def totals_rows(
    totals: Mapping[str, Any] | None, game: GameDef | None, *, sections: bool = True
) -> list[TotalRow]:
    """The rows of a report's `totals` for `game` (None when the game left the registry).

    Section counts read "Leader 1, Main deck 40, …" with the game's section labels; a faction
    slug is shown by its label; a missing value is "—". With `sections=False` the per-section
    counts are left out (the builder shows them beside each section)."""
    rows: list[TotalRow] = []
    totals = totals or {}
    keys = sorted(totals, key=lambda k: k != "sections")  # the section counts first
    for key in keys:
        value = totals[key]
        if key == "sections":
            if not sections:
                continue
            if isinstance(value, Mapping):
                # Stored reports come back from jsonb with their keys reordered: show the
                # sections in the game's order.
                order = [s for s in (game.section_names if game else ()) if s in value]
                order += [s for s in value if s not in order]
                parts = [
                    f"{game.section_label(s) if game else _label(s)} {_plain(value[s])}"
                    for s in order
                ]
                rows.append(TotalRow("Sections", ", ".join(parts) or EMPTY, key))
                continue
        if key == "faction" and isinstance(value, str) and game is not None:
            value = game.factions.get(value, value)
        rows.append(TotalRow(_label(key), _plain(value), str(key)))
    return rows


def explained(
    report: Any,
    game: GameDef | None,
    format: str | None = None,
    rule_set: Any = None,
) -> dict[str, list]:
    """The errors and warnings of a report (a runner `Report` or its stored dict) as dicts,
    each carrying `why`: the rule in one sentence, the rulebook section and sentence it
    comes from (the game's rulebook table) and the link to that row of the rules page
    (None when the code has neither).

    A rule set's own violation (its ban, limit or card pool) is explained by the rule set
    the report was checked under, quoted (`why.rule_set`: its code, name, the date it took
    effect, its note and the link to it), and so is a violation whose message names the
    costs that rule set changed, beside its rulebook sentence. `rule_set` is that rule set (a
    catalogue `RuleSet`), or a function answering it, called only when a violation needs it;
    without it the report's code alone is shown. No query but that function's."""
    if not report:
        return {"errors": [], "warnings": []}
    data = report.as_dict() if hasattr(report, "as_dict") else report
    code_used = data.get("rule_set") or ""
    found: dict[str, dict[str, Any] | None] = {}
    quoted: list[dict[str, Any]] = []

    def the_rule_set() -> dict[str, Any]:
        if not quoted:
            rs = rule_set() if callable(rule_set) else rule_set
            quoted.append(_rule_set_quote(rs, code_used, game, format))
        return quoted[0]

    out: dict[str, list] = {}
    for key in ("errors", "warnings"):
        shown = []
        for v in data.get(key) or ():
            code = v.get("code", "")
            if code not in found:
                found[code] = _why(game, code, format) if game is not None else None
            why_ = found[code]
            message = v.get("message", "")
            # The rule set is read only for a violation that may need it.
            if code_used and (
                is_rule_set_code(code)
                or (
                    "; costs of " in message
                    and cost_noted(message, _rule_set_label(code_used, the_rule_set()))
                )
            ):
                why_ = {**(why_ or {"rule": "", "quote": ""}), "rule_set": the_rule_set()}
            shown.append({**v, "why": why_})
        out[key] = shown
    return out


def _rule_set_label(code: str, quote: Mapping[str, Any]) -> str:
    """How the rules core names a rule set in its messages (RuleSetFacts.label)."""
    name = quote.get("name") or ""
    return f"{code} ({name})" if name and name != code else code


def _rule_set_quote(rs: Any, code: str, game: GameDef | None, format: str | None) -> dict:
    """What "Why?" quotes of the rule set of `code`: its name, the date it took effect, its
    note and the link to it on its format's rule sets page (the code alone when the rule
    set is not at hand, e.g. deleted since)."""
    href = ""
    if game is not None and format:
        href = reverse("catalogue:rule_sets", args=[game.slug, format]) + f"#rule-set-{code}"
    if rs is None or getattr(rs, "code", None) != code:
        return {"code": code, "name": "", "effective": None, "note": "", "href": href}
    return {
        "code": rs.code,
        "name": rs.name if rs.name != rs.code else "",
        "effective": rs.effective,
        "note": (rs.note or "").strip(),
        "href": href,
    }


def _why(game: GameDef, code: str, format: str | None) -> dict[str, Any] | None:
    w = why(game, code, format)
    if w is None:
        return None
    source = w.source
    page = reverse("catalogue:rules", args=[game.slug]) if game.trace is not None else ""
    return {
        # The page ends the sentence: a rule written with its own stop would end twice.
        "rule": w.rule.rstrip().rstrip("."),
        "section": source.section if source else "",
        "quote": source.quote if source else "",
        "decision": source.decision if source else "",
        "reason": source.reason if source else "",
        "rulebook": game.trace.title if game.trace is not None else "",
        "href": f"{page}#{w.anchor}" if page and source else "",
        "rule_set": None,  # the rule set's quote, for its own violations (explained)
    }
