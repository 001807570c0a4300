"""Tactical Assault combat odds, the tool: the exact chance of each combat result of one
attack of a unit type on another, with the modifiers of Table 4 (firepower) or Table 5
(close combat) as parameters (`combat_odds.MODIFIERS`; a modifier applies only to the
attacks whose table lists it).

The answer's `data` is `combat_odds.combat_odds`'s. A modifier set for an attack whose table
does not list it is refused (a silently ignored modifier would give wrong odds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validation import charts
from validation.capabilities import Tool, ToolInputError, ToolResult, card_named
from validation.games.tactical_assault import combat_odds as co
from validation.params import ParamSpec
from validation.types import CardFacts

UNIT_KIND = "unit_type"
CARD_KIND = "combat_card"
TABLES = {"firepower": "Table 4", "close_combat": "Table 5"}

Cards = Mapping[str, Sequence[CardFacts]]


def _modifier_param(spec: Mapping[str, Any]) -> ParamSpec:
    """The parameter of one entry of `MODIFIERS`."""
    attacks = tuple(spec["attacks"])
    tables = " / ".join(TABLES[a] for a in attacks)
    applies = None if set(attacks) == set(co.ATTACKS) else {"attack": attacks}
    if spec["type"] == "choice":
        return ParamSpec(
            spec["name"],
            spec["label"],
            "choice",
            help=tables,
            choices=tuple((c["value"], c["label"]) for c in spec["choices"]),
            default=spec["default"],
            applies=applies,
        )
    shift = spec["shift"]
    suffix = f" ({'up' if shift > 0 else 'down'} one)" if shift else ""
    return ParamSpec(
        spec["name"],
        spec["label"] + suffix,
        "bool",
        help=tables,
        default=spec["default"],
        applies=applies,
    )


_ATTACK = co.MODIFIERS[0]
MODIFIER_SPECS = tuple(m for m in co.MODIFIERS if m["name"] != "attack")

PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("attacker", "Attacker", "choice", cards_of_kind=UNIT_KIND),
    ParamSpec(
        "target",
        "Target",
        "choice",
        cards_of_kind=UNIT_KIND,
        card_offered=lambda card, chosen: co.attack_refused(card) is None,
        help="Bunkers and Obstacles may not be attacked",
    ),
    ParamSpec(
        "attack",
        _ATTACK["label"],
        "choice",
        choices=tuple((c["value"], c["label"]) for c in _ATTACK["choices"]),
        default=_ATTACK["default"],
    ),
    *(_modifier_param(m) for m in MODIFIER_SPECS),
)


def modifiers(params: Mapping[str, Any]) -> dict[str, Any]:
    """The modifiers of the attack of `params` (those its table lists); ToolInputError for a
    modifier set where it does not apply."""
    attack = params.get("attack") or _ATTACK["default"]
    if attack not in co.ATTACKS:
        raise ToolInputError(f"attack {attack!r} is not one of {', '.join(co.ATTACKS)}", "attack")
    out: dict[str, Any] = {"attack": attack}
    for spec in MODIFIER_SPECS:
        name = spec["name"]
        if name not in params:
            continue
        value = params[name]
        if attack in spec["attacks"]:
            out[name] = value
        elif value != spec["default"]:
            raise ToolInputError(f"{name} does not apply to a {attack} attack", name)
    return out


def odds_chart(odds: Mapping[str, Any]) -> dict[str, Any]:
    order = odds["results_order"]
    return charts.xy(
        "ta-combat-odds",
        f"{odds['attacker']} attacks {odds['target']}",
        [r.replace("_", " ") for r in order],
        [("Probability", [odds["results"][r]["probability"] for r in order], "bar")],
        x_label="Combat result",
        y_label="Probability",
        percent=True,
        y_max=1.0,
    )


def odds_table(odds: Mapping[str, Any]) -> dict[str, Any]:
    return charts.table(
        "odds-table",
        "Combat results",
        ["Combat result", "Printed cards", "Cards after the shift", "Fraction", "Probability"],
        [
            [
                name.replace("_", " "),
                odds["printed"][name],
                odds["results"][name]["count"],
                odds["results"][name]["fraction"],
                f"{odds['results'][name]['probability']:.4f}",
            ]
            for name in odds["results_order"]
        ],
    )


def compute(params: Mapping[str, Any], cards: Cards) -> ToolResult:
    units = cards.get(UNIT_KIND, ())
    attacker = card_named(params["attacker"], units, "attacker", "unit type")
    target = card_named(params["target"], units, "target", "unit type")
    refused = co.attack_refused(target)
    if refused:
        raise ToolInputError(refused, "target")
    deck = co.catalogue_deck(cards, CARD_KIND)
    mods = modifiers(params)
    try:
        odds = co.combat_odds(attacker, target, deck, mods)
    except ValueError as exc:
        raise ToolInputError(str(exc)) from exc
    verb = "fires on" if odds["attack"] == "firepower" else "attacks in close combat"
    notes = []
    if not odds["possible"]:
        notes.append(f"No attack: {odds['reason']}.")
    if odds["rows"]:
        shifts = ", ".join(f"{r['label']} {r['shift']:+d}" for r in odds["rows"])
        notes.append(f"Shifts: {shifts}.")
    notes.append(f"Deck of {odds['deck_size']} combat cards.")
    return ToolResult(
        data=odds,
        title=f"{odds['attacker']} {verb} {odds['target']}",
        figures=[
            (
                f"{odds['attacker']}'s {odds['attack_label']} rating",
                odds["attacker_rating"].replace("_", " "),
            ),
            (f"{odds['target']}'s protection", odds["target_protection"].replace("_", " ")),
            ("Net shift", str(odds["net_shift"])),
        ],
        tables=[odds_table(odds)],
        charts=[odds_chart(odds)],
        notes=notes,
    )


ATTACK_WORDS = {"firepower": "fires on", "close_combat": "in close combat with"}


def _percent(probability: float) -> str:
    return f"{probability * 100:.1f} %"


def deck_table(deck_cards: Sequence[CardFacts], cards: Cards) -> ToolResult:
    """The odds of every unit type of a force against every unit type that may be attacked,
    in fire and in close combat, with no modifier: one table per attacker and attack, a row
    per target and a column per combat result (exact probabilities, the share of the 72
    cards that end on each result)."""
    units = sorted(cards.get(UNIT_KIND, ()), key=lambda c: c.name.lower())
    attackers = sorted(
        {c.name: c for c in deck_cards if c.kind == UNIT_KIND}.values(),
        key=lambda c: c.name.lower(),
    )
    targets = [t for t in units if co.attack_refused(t) is None]
    deck = co.catalogue_deck(cards, CARD_KIND)
    columns = ["Target", *(r.replace("_", " ").capitalize() for r in co.RESULTS)]
    tables = []
    for n, attacker in enumerate(attackers):
        for attack in co.ATTACKS:
            rows = []
            for target in targets:
                odds = co.combat_odds(attacker, target, deck, {"attack": attack})
                if odds["possible"]:
                    cells = [_percent(odds["results"][r]["probability"]) for r in co.RESULTS]
                else:
                    cells = ["no attack"] + ["—"] * (len(co.RESULTS) - 1)
                rows.append([target.name, *cells])
            tables.append(
                charts.table(
                    f"odds-{n + 1}-{attack.replace('_', '-')}",
                    f"{attacker.name} {ATTACK_WORDS[attack]} … ({TABLES[attack]})",
                    columns,
                    rows,
                )
            )
    return ToolResult(
        data={"attackers": [a.name for a in attackers], "targets": [t.name for t in targets]},
        title="Combat odds of the force",
        tables=tables,
        notes=[
            "Exact chances over the 72 combat cards, one attack with no modifier of Table 4 "
            "or Table 5; the combat odds tool takes modifiers.",
            "Bunkers and Obstacles may not be attacked and are not listed as targets.",
        ],
    )


TOOL = Tool(
    slug="combat-odds",
    label="Combat odds",
    description=(
        "The top card of the 72-card Combat Cards deck is revealed and its printed result is "
        "shifted along the Combat Results Scale by the modifiers of Table 4 (firepower) or "
        "Table 5 (close combat). Shifts are cumulative and stop at either end of the scale. "
        "The deck is one card of each number 1 to 72, whatever other printings the catalogue "
        "holds; Bunkers and Obstacles may not be attacked (Part III)."
    ),
    params=PARAMS,
    compute=compute,
    reads=(UNIT_KIND, CARD_KIND),
    aliases=("combat",),
    deck_table=deck_table,
)
