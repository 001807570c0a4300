"""Tactical Assault: Combat Cards' rulebook, sentence by sentence, against the rules and
tools (validation/trace.py)."""

from __future__ import annotations

from validation.trace import LEFT_OUT, PLAY_RULE, READ_ANOTHER_WAY, Rulebook, RuleSource

ODDS = "tools:combat-odds"
CLOSE = "tools:close-combat"
CAMPAIGN = "campaign"
TOTALS = "totals"
NOT_ASKED = "the tools take the modifiers from the player; they do not measure the table"

ROWS: tuple[RuleSource, ...] = (
    RuleSource(
        "Overview of Play",
        "Each player uses a pre-set deck of 72 cards to activate their tabletop units in "
        "simulated combat situations.",
        codes=("deck.size",),
    ),
    RuleSource(
        "Overview of Play",
        "Each player will have as many as six cards in their hand at any time, and each card "
        "will have several possible uses.",
        decision=LEFT_OUT,
        reason="the odds count the whole deck: with nothing known of the hand, the top card "
        "is equally likely to be any card",
    ),
    RuleSource(
        "The Combat Cards",
        "Each player needs to have one standard 72 card **Combat Cards** deck exclusively for "
        "their use.",
        codes=("deck.size",),
    ),
    RuleSource(
        "The Combat Cards",
        "The cards are numbered, and decks should only contain one of each card.",
        codes=("deck.unique",),
    ),
    RuleSource(
        "Golden Rules",
        "When a player has gone through their entire deck, they simply reshuffle the used "
        "cards and reuse the deck.",
        tool=CLOSE,
        function="combat_odds.close_combat_montecarlo",
    ),
    RuleSource(
        "Golden Rules",
        "Whenever cards are being flipped from the deck to determine **Combat Results** on a "
        "unit, no more cards are flipped for the unit once the unit has been **Eliminated**.",
        tool=CLOSE,
        function="combat_odds._fight",
    ),
    RuleSource(
        "Confirm the Decks",
        "There are exactly 72 numbered cards in a **Combat Cards** deck.",
        codes=("deck.size",),
    ),
    RuleSource(
        "Confirm the Decks",
        "Prior to the start of the game, confirm that there is only one of each card in the deck.",
        codes=("deck.unique",),
    ),
    RuleSource(
        "Select the Units",
        "Each unit has a point value based on its relative potency and availability in battle.",
        codes=("force.points",),
    ),
    RuleSource(
        "Select the Units",
        "Before beginning a game, both sides should agree to a total point value for their forces.",
        codes=("force.points", "force.under"),
        reason="the custom and campaign formats take the agreed total; a force under it is "
        "a warning",
    ),
    RuleSource(
        "Select the Units",
        "In the *Standard Game* each side is allowed 36 unit points for selecting their forces.",
        codes=("force.points", "section.kind"),
        reason="a force is selected from units (unit types); combat cards make the deck",
    ),
    RuleSource(
        "Point Value",
        "Each unit has a *Unit Point Value* based on its relative potency and availability in "
        "battle.",
        codes=("force.points",),
    ),
    RuleSource(
        "Determine Victory Conditions",
        "- One Side Has Had Half Of Their Unit Points Eliminated",
        tool=TOTALS,
        function="elimination_threshold",
        reason="the general rule: custom and campaign forces are eliminated at half their points",
    ),
    RuleSource(
        "Determine Victory Conditions",
        "- One Side Has No Units Left on Battlefield (Not Counting Bunkers & Obstacles)",
        codes=("force.empty",),
        reason="a force with no unit on the battlefield at the start has lost before it plays",
    ),
    RuleSource(
        "Deploy Forces",
        "This continues until all units are placed on the battlefield - except for those "
        "units which do not start the game on the battlefield.",
        codes=("force.empty",),
    ),
    RuleSource(
        "Unit Descriptions",
        "NOTE: Aerial units are not actually placed on the battlefield, instead they only "
        "move over the battlefield when participating in **Situations** affecting the "
        "battlefield.",
        codes=("force.empty",),
    ),
    RuleSource(
        "Unit Descriptions",
        "NOTE: Artillery units are not actually placed on the battlefield, instead they are "
        "only utilized when participating in **Situations**, or having **Actions** or "
        "**Situations** played on them.",
        codes=("force.empty",),
    ),
    RuleSource(
        "Unit Descriptions",
        "NOTE: Bunkers may not have any Actions or Situations played on them, nor may the "
        "Bunker itself be attacked.",
        tool=ODDS,
        function="combat_odds.attack_refused",
        reason="combat odds and close combat refuse a Bunker as the attacked unit and do not "
        "offer it as a target",
    ),
    RuleSource(
        "Unit Descriptions",
        "Units attacked while in a Bunker use the Bunker's Protection Characteristic rather "
        "than their own.",
        tool=ODDS,
        function="combat_odds.attack_shift",
    ),
    RuleSource(
        "Unit Descriptions",
        "NOTE: **Infiltrators** do not start the battle on the battlefield.",
        codes=("force.empty",),
    ),
    RuleSource(
        "Unit Descriptions",
        "Obstacles may not have any **Actions** or **Situations** played on them, they do not "
        "have an **LOS Arc**, nor may they be attacked.",
        tool=ODDS,
        function="combat_odds.attack_refused",
        reason="combat odds and close combat refuse an Obstacle as the attacked unit and do not "
        "offer it as a target",
    ),
    RuleSource(
        "Unit Descriptions",
        "NOTE: **Obstacles** have an area of a **Short Distance** in diameter, and are placed "
        "at the start of a battle as per other units.",
        codes=("force.points", "force.empty"),
        reason="an Obstacle is a unit of the force (2 points) that never counts as a unit on "
        "the battlefield",
    ),
    RuleSource(
        "Table 3: Unit Type & Characteristics",
        "TABLE 3: UNIT TYPE & CHARACTERISTICS",
        tool=ODDS,
        function="combat_odds.rating",
        reason="the unit types' ratings and point values are catalogue data; a '-' is the "
        "rating none, below every other",
    ),
    RuleSource(
        "Part V: Attacking",
        "If this distance is less than, or equal to, the attacking unit's **Range "
        "Characteristic** then proceed to **Step 4**.",
        tool=ODDS,
        function="combat_odds.attack_shift",
        reason=NOT_ASKED,
    ),
    RuleSource(
        "Part V: Attacking",
        "If the center-to-center distance is beyond the unit's maximum range, but the unit's "
        "maximum range will reach from the attacking unit's center point to somewhere on the "
        "target unit, proceed to **Step 4** but with the **Extreme Range** modifier (*see "
        "Table 4:* **Firepower Attack Modifiers**).",
        tool=ODDS,
        function="combat_odds.attack_shift",
        reason=NOT_ASKED,
    ),
    RuleSource(
        "Table 4: Firepower Attack Modifiers",
        "TABLE 4: FIREPOWER ATTACK MODIFIERS",
        tool=ODDS,
        function="combat_odds.attack_shift",
        reason="Obstructed or In Cover is one row: one shift down, once",
    ),
    RuleSource(
        "Part V: Attacking",
        "If the target unit cannot be reached by either of the above methods, the attack "
        "does not happen and the card which triggered the attack is returned to the player's "
        "hand.",
        tool=ODDS,
        function="combat_odds.combat_odds",
    ),
    RuleSource(
        "Table 4: Firepower Attack Modifiers",
        "* NOTE: All shifts are cumulative.",
        tool=ODDS,
        function="combat_odds.attack_shift",
    ),
    RuleSource(
        "Part V: Attacking",
        "Reveal the top card on the attacking player's deck and note the *Combat Results* "
        "(this card then goes into the discard pile).",
        tool=ODDS,
        function="combat_odds.combat_odds",
    ),
    RuleSource(
        "Part V: Attacking",
        "Apply any modifier shifts up or down to the *Combat Results* and apply the final "
        "*Combat Results* to the target unit.",
        tool=ODDS,
        function="combat_odds.shift_result",
        reason="a shift past either end of the scale stops there",
    ),
    RuleSource(
        "Close Combat Attacks",
        "Unlike *Firepower Attacks* however, both units will get to make simultaneous *Close "
        "Combat* attacks against one another.",
        tool=CLOSE,
        function="combat_odds._fight",
    ),
    RuleSource(
        "Close Combat Attacks",
        "DO NOT apply the final results until the enemy unit conducts its attack.",
        tool=CLOSE,
        function="combat_odds._fight",
    ),
    RuleSource(
        "Close Combat Attacks",
        "Reveal the top card in the player's deck and note the **Combat Results** (this card "
        "then goes into the discard pile).",
        tool=CLOSE,
        function="combat_odds._draw_both_decks",
        reason="each side draws from its own deck",
    ),
    RuleSource(
        "Close Combat Attacks",
        "Begin the attack process over again starting at **Step 2** until one, or both, "
        "units have been eliminated or the units are no longer in physical contact.",
        tool=CLOSE,
        function="combat_odds.close_combat_montecarlo",
    ),
    RuleSource(
        "Table 5: Close Combat Attack Modifiers",
        "TABLE 5: CLOSE COMBAT ATTACK MODIFIERS",
        tool=ODDS,
        function="combat_odds.attack_shift",
    ),
    RuleSource(
        "Combat Results",
        "The unit is forced to move a *Short Distance* directly away from either the "
        "attacking unit along the same path the attack originated from, or from the *Target "
        "Point* of an attack.",
        tool=CLOSE,
        function="combat_odds._fight",
        decision=READ_ANOTHER_WAY,
        reason="a Fall Back always breaks the contact, so it ends the close combat",
    ),
    RuleSource(
        "Combat Results",
        "The unit may not have any *Actions* or *Situations* played on it, nor may it "
        "participate in any *Situations*, until a *Recover* is played on it first.",
        tool=CLOSE,
        function="combat_odds._fight",
        decision=READ_ANOTHER_WAY,
        reason="a Shaken unit in contact keeps fighting (the close combat repeats until "
        "elimination or loss of contact); it gives the enemy the Table 5 shift",
    ),
    RuleSource(
        "Combat Results",
        "There is no way to remove this status from a unit.",
        tool=CLOSE,
        function="combat_odds._fight",
    ),
    RuleSource(
        "Multiple Combat Results",
        "A unit may only have one of each different **Combat Result** status imposed on it at "
        "any given time - i.e. at most, a unit could only have a single **Shaken** and **Out "
        "Of Action** status placed on it.",
        tool=CLOSE,
        function="combat_odds._fight",
    ),
    RuleSource(
        "Line of Sight",
        "LOS is always blocked by intervening units.",
        decision=LEFT_OUT,
        reason=NOT_ASKED,
    ),
    RuleSource(
        "Table 6: Combat Results Scale",
        "TABLE 6: COMBAT RESULTS SCALE",
        tool=ODDS,
        function="combat_odds.RESULTS",
    ),
    RuleSource(
        "Part VI: The Standard Game",
        "Each player is afforded **36 Units Points** to build their force with.",
        codes=("force.points",),
    ),
    RuleSource(
        "Part VI: The Standard Game",
        "- One Side Has Had 18 Unit Points Eliminated",
        tool=TOTALS,
        function="elimination_threshold",
        reason="the Standard Game fixes its own number: 18 points, whatever the force totals",
    ),
    RuleSource(
        "Part VI: The Standard Game",
        "The Standard Game goes for 90 minutes, or until one of the Victory Conditions are met.",
        decision=PLAY_RULE,
        reason="the length of a game is not part of a force",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "Determine the number of games that each player must play to complete the campaign.",
        decision=LEFT_OUT,
        reason="the campaign tracker records each game played; the number of games is the "
        "players' agreement and is not fixed in advance",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "Each player selects the force they are going to use for the duration of the "
        "campaign, subject to the **Unit Point** totals allowed by the scenarios being used.",
        codes=("force.points",),
        tool=CAMPAIGN,
        function="campaign.CAMPAIGN",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "Any units lost during the course of a game will be replaced by identical replacement "
        "units (*i.e. the player will use the same full strength force*) at the start of the "
        "next game.",
        tool=CAMPAIGN,
        function="campaign.CAMPAIGN",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "*Campaign Points* are awarded as follows: *Game's Winner 9 Points*,",
        tool=CAMPAIGN,
        function="options.win, loss, draw",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "Players can either spend three *Campaign Points* to receive a *Promotion Award* "
        "(used to win the campaign), or they swap units out of their force list by spending "
        "one *Campaign Point* for each *Unit Point* being swapped.",
        tool=CAMPAIGN,
        function="options.promotion_cost, swap_cost_per_point",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "After any swapping, the total *Unit Points* for the force must still match the total "
        "allowed for the campaign.",
        codes=("force.points",),
        tool=CAMPAIGN,
        function="formats.campaign_force_problem",
        reason="in the campaign format a force must total exactly the campaign's points, in the "
        "builder and in the campaign tracker alike (one rule)",
    ),
    RuleSource(
        "Part VII: Campaigns",
        "When all of the players have completed all of their campaign games, whoever has the "
        "highest number of *Promotion Awards* wins the campaign.",
        tool=CAMPAIGN,
        function="campaign.CAMPAIGN.decided_by",
    ),
)

RULEBOOK = Rulebook(
    file="tactical-assault-combat-cards.txt",
    title="Tactical Assault: Combat Cards, Edition 1.4",
    rows=ROWS,
)
