"""REDLINE formats and construction rules (the game spec §1, rulebook "Arsenal Construction")."""

from __future__ import annotations

from typing import Any

from validation.registry import FormatDef
from validation.rules import (
    CopyLimit,
    CountBand,
    ExactSize,
    LeaderFaction,
    Rule,
    RuleContext,
    plural,
)
from validation.sections import SectionSpec
from validation.types import CardFacts, Deck, Violation

ARSENAL_SIZE = 60
MAX_COPIES = 4
MISSION_DECK_MIN = 20
MISSION_COPIES = 3
CRITICAL_HIT_DECK_SIZE = 16
RED_LINE_SIZE = 5
#: Scenario Play's two styles of red line (rulebook "REDLINE Scenario Play"): a set layout of
#: 5 missions agreed before the game (the list's red_line section), or one built at setup
#: from the mission deck (no red_line section). The first is the default.
PRE_DETERMINED = "pre_determined"
ON_THE_SPOT = "on_the_spot"
RED_LINE_STYLES = (PRE_DETERMINED, ON_THE_SPOT)
#: On the spot, each position is chosen among the top 3 cards of the mission deck and the
#: others go to its bottom: the 5th choice needs 3 cards after 4 were taken, so the deck
#: must hold at least 7, which the 20-card minimum of every mission deck covers.
ON_THE_SPOT_FLIP = 3
ON_THE_SPOT_MIN_DECK = ON_THE_SPOT_FLIP + RED_LINE_SIZE - 1
assert MISSION_DECK_MIN >= ON_THE_SPOT_MIN_DECK
RESOURCE_BAND = (22, 24)

#: The typical arsenal of the rulebook: 24 resources, 16 efreets, 10 equipment, 10 tactics.
TYPICAL_MIX = {"resource": 24, "efreet": 16, "equipment": 10, "tactic": 10}
#: decision: "far from typical" means an efreet, equipment or tactic count more than this
#: far from the typical one (resources have their own warning, arsenal.resources).
MIX_TOLERANCE = 5


def is_basic_resource(card: CardFacts) -> bool:
    """A basic supply drop: a resource with `basic` true, exempt from the copy limit."""
    return card.kind == "resource" and card.attributes.get("basic") is True


_NOUNS = {
    "efreet": ("efreet", "efreets"),
    "equipment": ("equipment", "equipment"),
    "tactic": ("tactic", "tactics"),
    "resource": ("resource", "resources"),
}


class MixWarning(Rule):
    """Warns when the arsenal is far from the rulebook's typical mix of efreets, equipment
    and tactics (resources have their own band)."""

    __slots__ = ("section", "typical", "tolerance")

    def __init__(
        self,
        section: str = "arsenal",
        *,
        typical: dict[str, int] | None = None,
        tolerance: int = MIX_TOLERANCE,
        code: str = "arsenal.mix",
        **kw: Any,
    ) -> None:
        kw.setdefault("severity", "warning")
        super().__init__(code=code, **kw)
        self.section = section
        self.typical = {k: v for k, v in (typical or TYPICAL_MIX).items() if k != "resource"}
        self.tolerance = tolerance

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        by_kind = ctx.kind_counts(deck, self.section)
        tolerance = self.tolerance
        for k, typical in self.typical.items():  # the common case: every count near typical
            if abs(by_kind.get(k, 0) - typical) > tolerance:
                break
        else:
            return []
        counts = {k: by_kind.get(k, 0) for k in self.typical}
        far = [k for k, n in counts.items() if abs(n - self.typical[k]) > tolerance]
        parts = ", ".join(
            f"{plural(counts[k], *_NOUNS.get(k, (k, k + 's')))} (typically {self.typical[k]})"
            for k in far
        )
        return [
            self.violation(
                f"{parts} {ctx.where(self.section)}; more than {self.tolerance} from the typical "
                "24 resources / 16 efreets / 10 equipment / 10 tactics",
                self.section,
            )
        ]


GENERAL = SectionSpec(
    "general",
    "General",
    kinds=("general",),
    size=(1, 1),
    size_code="arsenal.general",
    where="leading the arsenal",
    description="exactly one general leads it",
    laid_out=True,
)
ARSENAL = SectionSpec(
    "arsenal",
    "Arsenal",
    exclude=("general", "mission", "critical_hit"),
    size=(ARSENAL_SIZE, ARSENAL_SIZE),
    size_code="arsenal.size",
    kind_code="arsenal.kind",
    description="the arsenal holds exactly 60 cards; the general is not counted",
)
MISSIONS = SectionSpec(
    "missions",
    "Mission deck",
    kinds=("mission",),
    size=(MISSION_DECK_MIN, None),
    size_code="missions.size",
    noun=("mission", "missions"),
    optional=True,
    description="a mission deck holds at least 20 mission cards",
)
CRITICAL_HITS = SectionSpec(
    "critical_hits",
    "Critical hit deck",
    kinds=("critical_hit",),
    size=(CRITICAL_HIT_DECK_SIZE, CRITICAL_HIT_DECK_SIZE),
    size_code="critical_hits.size",
    noun=("critical hit", "critical hits"),
    optional=True,
    description="a critical hit deck holds exactly 16 critical hit cards",
)
# Its size and presence depend on the format's red_line_style: RedLineStyle checks both.
RED_LINE = SectionSpec(
    "red_line",
    "Red line",
    kinds=("mission",),
    size=(RED_LINE_SIZE, RED_LINE_SIZE),
    noun=("mission", "missions"),
    optional=True,
    description="pre-determined: exactly 5 missions for positions 1–5; on the spot: none",
    laid_out=True,
)


class RedLineStyle(Rule):
    """The red line of Scenario Play in the format's `red_line_style`: pre-determined, the
    list's red_line section holds exactly 5 missions, positions 1–5 in its order (repeats
    allowed: the rulebook asks only for "a set layout of 5 mission cards"); on the spot, the
    list has no red_line section, the players build the red line at setup from the mission
    deck."""

    __slots__ = ("size",)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.size = ExactSize(
            RED_LINE.name,
            RED_LINE_SIZE,
            kinds=RED_LINE.kinds,
            noun=RED_LINE.noun,
            code=self.code,
        )

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        entries = deck.sections.get(RED_LINE.name, ())
        if ctx.options.get("red_line_style", PRE_DETERMINED) == ON_THE_SPOT:
            if not entries:
                return []
            return [
                self.violation(
                    "the red line is built on the spot at setup, from the top 3 cards of the "
                    "mission deck for each position; leave the red line section out (or play "
                    "it pre-determined)",
                    RED_LINE.name,
                    tuple(dict.fromkeys(e.card.name for e in entries)),
                )
            ]
        return self.size.check(deck, ctx)


ARSENAL_RULES: tuple[Rule, ...] = (
    LeaderFaction(
        "general",
        "general",
        "arsenal",
        code="arsenal.faction",
        description="every card is neutral or of the general's faction",
    ),
    CopyLimit(
        "arsenal",
        MAX_COPIES,
        exempt=is_basic_resource,
        code="arsenal.copies",
        description="at most 4 copies of one card, except basic supply drops",
    ),
    CopyLimit(
        "missions",
        MISSION_COPIES,
        code="missions.copies",
        when_present="missions",
        description="at most 3 copies of one mission",
    ),
    CountBand(
        "arsenal",
        *RESOURCE_BAND,
        kinds=("resource",),
        noun=("resource", "resources"),
        code="arsenal.resources",
        description="usually 22 to 24 resource cards",
    ),
    MixWarning(description="close to the typical 24 / 16 / 10 / 10 mix"),
)

RED_LINE_RULES: tuple[Rule, ...] = (
    RedLineStyle(
        code="scenario.red_line",
        description="pre-determined: exactly 5 missions for positions 1–5; on the spot: "
        "no red line section (built at setup from the mission deck)",
    ),
)

_SECTIONS = (GENERAL, ARSENAL, MISSIONS, CRITICAL_HITS)

FORMATS: dict[str, FormatDef] = {
    f.slug: f
    for f in (
        FormatDef(
            "standard",
            "Standard",
            "One player against another, each with an arsenal led by a general.",
            sections=_SECTIONS,
            checks=ARSENAL_RULES,
            options={"players": 2},
        ),
        FormatDef(
            "scramble",
            "Scramble",
            "Three players race to 25 scramble points.",
            sections=_SECTIONS,
            checks=ARSENAL_RULES,
            options={"players": 3, "scramble_points": 25},
        ),
        FormatDef(
            "scenario",
            "Scenario",
            "A red line of 5 missions, pre-determined (the list's red line, positions 1 to "
            "5) or built on the spot at setup from the mission deck.",
            sections=(GENERAL, ARSENAL, RED_LINE, MISSIONS, CRITICAL_HITS),
            checks=ARSENAL_RULES + RED_LINE_RULES,
            options={
                "players": 2,
                "red_line": RED_LINE_SIZE,
                "red_line_style": PRE_DETERMINED,
            },
            adjustable=frozenset({"red_line_style"}),
            choices={"red_line_style": RED_LINE_STYLES},
            option_labels={
                "red_line_style": "Red line",
                PRE_DETERMINED: "Pre-determined (the list's red line)",
                ON_THE_SPOT: "On the spot (built at setup)",
            },
        ),
    )
}
