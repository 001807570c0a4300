"""Tactical Assault campaigns (rulebook Part VII): each player keeps one force for a series
of games; a win earns 9 campaign points, a loss 6, a draw 3; a promotion award costs 3, a
swap of units 1 per unit point swapped. The numbers are the campaign format's options."""

from __future__ import annotations

from validation.capabilities import CampaignRules
from validation.games.tactical_assault.formats import FORMATS

_OPTIONS = FORMATS["campaign"].options
_FORCE = FORMATS["campaign"].section("force")
assert _FORCE is not None, "the campaign format keeps its units in a force section"

CAMPAIGN = CampaignRules(
    format="campaign",
    section=_FORCE.name,
    kinds=_FORCE.kinds,
    points_for={result: _OPTIONS[result] for result in CampaignRules.RESULTS},
    award_label="promotion award",
    award_cost=_OPTIONS["promotion_cost"],
    swap_cost_per_point=_OPTIONS["swap_cost_per_point"],
    default_points=_OPTIONS["points"],
    decided_by="Whoever has the most promotion awards at the end wins.",
    list_label="force",
    card_label="unit",
    points_label="unit point",
)
