"""REDLINE: Tactical Card Combat — efreet squads led by a faction general fight over a red
line of five missions (rules/redline.txt)."""

from __future__ import annotations

from typing import Any

from validation.games.redline.draws import DRAWS
from validation.games.redline.faces import CARD_FACES
from validation.games.redline.formats import FORMATS
from validation.games.redline.kinds import KINDS
from validation.games.redline.simulation import GOLDFISH
from validation.games.redline.trace import RULEBOOK
from validation.registry import GameDef
from validation.rules import RuleContext, leader_of
from validation.types import Deck

_COUNTED = {
    "resource": "resources",
    "efreet": "efreets",
    "equipment": "equipment",
    "tactic": "tactics",
    "strategy": "strategies",
}


def totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    """Arsenal counts by kind, the general and its faction."""
    out: dict[str, Any] = dict.fromkeys(_COUNTED.values(), 0)
    for kind, n in ctx.kind_counts(deck, "arsenal").items():
        key = _COUNTED.get(kind)
        if key:
            out[key] += n
    general = leader_of(deck, "general", "general")
    out["general"] = general.name if general else None
    out["faction"] = general.faction if general else None
    return out


GAME: GameDef = GameDef(
    slug="redline",
    name="REDLINE: Tactical Card Combat",
    description="Lead a squad of efreets from your arsenal to capture the missions of the "
    "red line.",
    factions={
        "cpm": "Crimson Pact of Mars",
        "une": "United Nations of Earth",
        "neutral": "Neutral",
    },
    kinds=KINDS,
    card_faces=CARD_FACES,
    draws=DRAWS,
    goldfish=GOLDFISH,
    formats=FORMATS,
    totals=totals,
    python_name="redline",
    trace=RULEBOOK,
)
