"""Pond's rulebook table (validation/trace.py): the toy game's rules, as its rulebook words
them, traced to its rule codes and its goldfish."""

from __future__ import annotations

from validation.trace import Rulebook, RuleSource

ROWS = (
    RuleSource(
        "Bringing a pond",
        "A pond holds at least 4 frogs, and at most 2 of one frog.",
        codes=("frogs.size", "frogs.copies"),
    ),
    RuleSource("Bringing a pond", "Only frogs sit among the frogs.", codes=("section.kind",)),
    RuleSource("Bringing a pond", "A pond has exactly 6 lily pads.", codes=("pads.size",)),
    RuleSource(
        "Playing",
        "Each turn a random frog of the pond hops.",
        tool="goldfish:pond-goldfish",
    ),
    RuleSource("Playing", "A frog that falls in the water swims back."),
)

RULEBOOK = Rulebook(file="pond.txt", title="Pond: the rules", rows=ROWS)
