"""Hex Skirmish's rulebook, sentence by sentence, against the rules and tools
(validation/trace.py)."""

from __future__ import annotations

from validation.trace import LEFT_OUT, READ_ANOTHER_WAY, Rulebook, RuleSource

GOLDFISH = "goldfish:hex-skirmish-goldfish"
NO_UNITS = "the goldfish plays the command deck only; units, movement and combat are not simulated"

ROWS: tuple[RuleSource, ...] = (
    RuleSource(
        "Battlefield",
        "A battlefield is an 8x16 hex grid, with a line called a centerline dividing it into "
        "two 8x8 grids.",
        codes=("army.deployment",),
        reason="a list places its units on its own 8 × 8 half",
    ),
    RuleSource(
        "Army Building",
        "An army consists of units (hexagonal pieces that move and interact on the "
        "battlefield) and command cards (cards played from hand to determine what actions "
        "units take) with a total combined value of <=50 points.",
        codes=("army.points", "section.kind"),
    ),
    RuleSource(
        "Army Building",
        "Each unit and each card has a point value correlated with its overall usefulness in "
        "the game.",
        codes=("army.points",),
        tool=GOLDFISH,
        function="goldfish.simulate_hexskirmish",
        reason="the goldfish plays the most expensive playable card first by default",
    ),
    RuleSource(
        "Army Building",
        "A card’s point value is equal to its cost.",
        codes=("army.points",),
    ),
    RuleSource(
        "Army Building",
        "Each army is built using the army builder (an app which allows a player to select "
        "units and cards from their collection to include in their deck).",
        codes=("army.collection",),
        reason="checked when a list is built from the player's collection",
    ),
    RuleSource(
        "Army Building",
        "An army must have at least 30 cards (it can have more than 30).",
        codes=("army.cards",),
    ),
    RuleSource(
        "Army Building",
        "An army can have any number of units provided the total value of the army does not "
        "exceed 50 points.",
        codes=("army.points", "army.units"),
        decision=READ_ANOTHER_WAY,
        reason="at least 2 units: an army of one unit has already lost (Gameplay: the game "
        "ends when one player has only one unit remaining)",
    ),
    RuleSource(
        "Army Building",
        "Once units are selected, the player must choose how the units will be deployed to "
        "the battlefield at the beginning of each game.",
        codes=("army.deployment",),
    ),
    RuleSource(
        "Army Building",
        "The player must place each unit on a hex on the battlefield.",
        codes=("army.deployment",),
    ),
    RuleSource(
        "Army Building",
        "All units must be on the same side of the battlefield’s center line.",
        codes=("army.deployment",),
    ),
    RuleSource(
        "Setup",
        "Each player starts with 5 cards in hand, and a shuffled face-down deck of their "
        "remaining cards.",
        tool=GOLDFISH,
        function="goldfish.OPENING",
        reason="the sample hand draws the same 5",
    ),
    RuleSource(
        "Setup",
        "The second player draws an additional card to start the game.",
        tool=GOLDFISH,
        function="goldfish._deal",
    ),
    RuleSource(
        "Setup",
        "Randomly determine the first player.",
        tool=GOLDFISH,
        function="goldfish._deal",
        reason="the goldfish's on-the-play parameter says which; the second opens with 6",
    ),
    RuleSource(
        "Gameplay",
        "The game ends when one player has lost units with a total combined value of at "
        "least 20, or when one player has only one unit remaining.",
        codes=("army.units",),
        decision=LEFT_OUT,
        reason="the end of the game is not simulated (" + NO_UNITS + "); the second "
        "condition sets the army's minimum of 2 units",
    ),
    RuleSource(
        "Player turn",
        "Perform 2 of the following actions, in any combination:",
        tool=GOLDFISH,
        function="goldfish.ACTIONS",
    ),
    RuleSource(
        "Play a card",
        "To pay a cost, discard other cards from hand with a total combined cost >= the cost "
        "being paid.",
        tool=GOLDFISH,
        function="goldfish._pay",
        reason="the cheapest other cards are discarded first; overpaying is allowed",
    ),
    RuleSource(
        "Play a card",
        "Place the card in the player’s discard pile.",
        tool=GOLDFISH,
        function="goldfish._play_action",
        reason="the discard pile is never reshuffled (the rulebook names no reshuffle)",
    ),
    RuleSource(
        "Play a card",
        "Each card has one or more actions specified on it.",
        decision=LEFT_OUT,
        reason="a card's actions move and fight with units, which the goldfish does not "
        "simulate; they have no effect on the deck",
    ),
    RuleSource(
        "Draw 5 cards",
        "Move 5 cards from the player’s deck to the player’s hand.",
        tool=GOLDFISH,
        function="goldfish._draw_action",
        reason="fewer when the deck holds fewer",
    ),
    RuleSource(
        "Health and defeat",
        "When a unit’s health decreases to 0 or lower, it is removed from the battlefield, "
        "and its point value is deducted from its player’s total.",
        decision=LEFT_OUT,
        reason=NO_UNITS,
    ),
    RuleSource(
        "Ranged",
        "Range value is a number of concentric rings of hexes around the attacking ranged unit.",
        decision=LEFT_OUT,
        reason=NO_UNITS,
    ),
)

RULEBOOK = Rulebook(file="hex-skirmish.txt", title="Hex Skirmish: Online Game Rules", rows=ROWS)
