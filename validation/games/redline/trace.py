"""REDLINE's rulebook, sentence by sentence, against the rules and tools (validation/trace.py)."""

from __future__ import annotations

from validation.trace import LEFT_OUT, PLAY_RULE, READ_ANOTHER_WAY, Rulebook, RuleSource

GOLDFISH = "goldfish:redline-goldfish"
DRAWS = "sample hand"
NO_COMBAT = "the goldfish plays against an opponent that never acts, so there is no combat"

ROWS: tuple[RuleSource, ...] = (
    RuleSource(
        "REDLINE: Tactical Card Combat Rules",
        "Because of this, any game rule may be overridden by the text on a REDLINE card if "
        "they conflict.",
        decision=LEFT_OUT,
        reason="card text is not read by the validator; a card that changes construction "
        "would need a rule of its own",
    ),
    RuleSource(
        "Arsenal Construction",
        "An arsenal must be 60 cards exactly.",
        codes=("arsenal.size",),
    ),
    RuleSource(
        "Arsenal Construction",
        "Each arsenal must have a general to lead it.",
        codes=("arsenal.general",),
    ),
    RuleSource(
        "Arsenal Construction",
        "Generals do not count as a card in the arsenal.",
        codes=("arsenal.kind", "arsenal.size"),
        reason="the general has a section of its own; the arsenal holds no general, mission "
        "or critical hit card",
    ),
    RuleSource(
        "Arsenal Construction",
        "Arsenals can only contain neutral cards, or cards that share a faction with the "
        "deck’s general.",
        codes=("arsenal.faction",),
    ),
    RuleSource(
        "Arsenal Construction",
        "Besides basic supply drop resource cards, an arsenal can only have up to 4 copies of "
        "any one card.",
        codes=("arsenal.copies",),
    ),
    RuleSource(
        "Arsenal Construction",
        "Because of this a typical REDLINE arsenal will contain 24 resource cards, 16 efreets "
        "and 10 equipment and 10 tactic cards.",
        codes=("arsenal.mix",),
        decision=READ_ANOTHER_WAY,
        reason="a typical mix, not a rule: a warning when an efreet, equipment or tactic "
        "count is more than 5 from it",
    ),
    RuleSource(
        "Mission Deck Construction",
        "When flipped over, these cards create the red line between each player’s forces, and "
        "creates the battlefield where each game of REDLINE takes place.",
        codes=("arsenal.kind",),
        reason="missions form their own deck, never the arsenal",
    ),
    RuleSource(
        "Mission Deck Construction",
        "Mission decks must contain at least 20 mission cards and no more than 3 copies of "
        "any one mission card can be placed in the mission deck.",
        codes=("missions.size", "missions.copies"),
    ),
    RuleSource(
        "Mission Deck Construction",
        "Only 1 mission deck is needed to play between players.",
        decision=READ_ANOTHER_WAY,
        reason="the mission deck is shared, so it is an optional section of a list, checked "
        "only when present",
    ),
    RuleSource(
        "Critical Hit Deck",
        "The critical hit deck contains 16 cards.",
        codes=("critical_hits.size",),
    ),
    RuleSource(
        "Critical Hit Deck",
        "Only 1 critical hit deck is needed to play between players.",
        decision=READ_ANOTHER_WAY,
        reason="the critical hit deck is shared, so it is an optional section of a list",
    ),
    RuleSource(
        "Victory Conditions",
        "The first way to win is by securing a tactical victory which is a game condition "
        "where a single player has control of all 5 mission cards in play at the end of a "
        "game turn.",
        tool=GOLDFISH,
        function="goldfish._record_turn",
    ),
    RuleSource(
        "Victory Conditions",
        "As soon as a player’s arsenal has no more cards in it, that player has been "
        "defeated and has lost the game.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
    ),
    RuleSource(
        "Gameplay",
        "In order to play a game of REDLINE: Tactical Card Combat, players will each need "
        "their own arsenal deck, as well as a single mission deck and a single critical hit "
        "deck to be shared by both players when playing.",
        decision=READ_ANOTHER_WAY,
        reason="a list holds its own arsenal; the shared decks are optional sections",
    ),
    RuleSource(
        "Setup Procedure And Battlefield Lines",
        "5 cards are flipped over from the mission deck at the start of each game to create "
        "the battlefield players will fight over for that game.",
        codes=("scenario.red_line",),
        tool=GOLDFISH,
        function="goldfish.RED_LINE",
    ),
    RuleSource(
        "Setup Procedure And Battlefield Lines",
        "Each card in the red line has a number associated with it for gameplay purposes with "
        "the card closest to the mission deck being in position 1 and the card farthest away "
        "as position 5.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "How To Start",
        "Players then draw the top 7 cards of their arsenal.",
        tool=DRAWS,
        function="draws.OPENING",
    ),
    RuleSource(
        "How To Start",
        "Once cards are in hand, a player may exchange as many of those cards as they want by "
        "placing them on the bottom of their arsenal, and then drawing that many cards off "
        "the top for a partial mulligan.",
        tool=DRAWS,
        function="draws.partial_mulligan",
        decision=READ_ANOTHER_WAY,
        reason="the rulebook leaves the choice to the player; the sample hand and the "
        "goldfish keep 2–4 resources (the goldfish's mulligan band can be changed)",
    ),
    RuleSource(
        "How To Start",
        "A player may only do this once and must keep their starting hand afterwards.",
        tool=DRAWS,
        function="draws.partial_mulligan",
    ),
    RuleSource(
        "Deploy Phase",
        "To begin, the player who lost initiative goes first by drawing a card from their "
        "arsenal, adding any  bonuses from captured missions.",
        tool=GOLDFISH,
        function="goldfish._draw_and_bonuses",
        decision=READ_ANOTHER_WAY,
        reason="both players draw on turn 1 (the rulebook names no exception for the first player)",
    ),
    RuleSource(
        "Deploy Phase",
        "Players may only deploy 1 resource card during each deploy phase however they may "
        "deploy as many cards from their hand as they wish as long as they can afford their "
        "costs.",
        tool=GOLDFISH,
        function="goldfish._deploy_resource",
    ),
    RuleSource(
        "Deploy Phase",
        "Any unused resources in the deploy pool at the end of a player’s deploy phase "
        "disappear when their deploy phase ends.",
        tool=GOLDFISH,
        function="goldfish._deploy_strategies_and_tactics",
    ),
    RuleSource(
        "Deploy Phase",
        "Unspent recon can be banked as it does not disappear at the end of a player’s turn.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
    ),
    RuleSource(
        "Deploy Phase",
        "Efreets can make attacks immediately on the turn they were deployed.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "Adding Equipment",
        "An efreet may only be equipped by cards that match the  equipment slot it shares.",
        tool=GOLDFISH,
        function="goldfish._deploy_equipment",
    ),
    RuleSource(
        "Adding Equipment",
        "Once a piece of equipment is attached, that slot is filled and it cannot accept any "
        "more equipment of that type.",
        tool=GOLDFISH,
        function="goldfish._deploy_equipment",
    ),
    RuleSource(
        "Adding Equipment",
        "Some efreets may have an open equipment slot that will allow them to accept any type "
        "of non-pilot equipment card.",
        tool=GOLDFISH,
        function="goldfish._deploy_equipment",
    ),
    RuleSource(
        "Efreet Limit and Scrapping",
        "A player’s base line may only support a total of 5 efreets on the battlefield at any "
        "time.",
        tool=GOLDFISH,
        function="goldfish._deploy_efreets",
        reason="the goldfish never deploys a sixth efreet, so it never scraps one",
    ),
    RuleSource(
        "Efreet Limit and Scrapping",
        "Players may only scrap efreets if they have 5 in play already and deploy a 6th.",
        tool=GOLDFISH,
        function="goldfish._deploy_efreets",
    ),
    RuleSource(
        "Ending the Deploy Phase",
        "When a player’s deploy phase is over they discard down to 7 cards.",
        tool=GOLDFISH,
        function="goldfish._discard_to_limit",
    ),
    RuleSource(
        "Combat Phase",
        "Units must roll at or above the capture cost to successfully capture the mission card.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "Combat Phase",
        "Capturing Missions: Units can roll to capture missions if they were the only units "
        "sent to that mission, or they are the only ones left there after the end of an "
        "engagement.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
        reason="the goldfish's opponent sends no efreets, so every squad may roll",
    ),
    RuleSource(
        "Combat Phase",
        "Because of this, when capturing, light efreets roll 1d6-2, mediums 1d6, and heavies "
        "1d6+2.",
        tool=GOLDFISH,
        function="goldfish.CLASS_MOD",
    ),
    RuleSource(
        "Combat Phase",
        "Efreets in a squad at the same mission may combine their rolls to increase their "
        "chance of success at capturing a mission.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "Combat Phase",
        "Each capture token on a mission adds +1 to its subsequent capture cost.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "Combat Phase",
        "The most common bonus is the addition of extra recon or resources at the beginning "
        "of each deploy phase as shown by the blue recon symbol in the capture bonus area on "
        "each mission card.",
        tool=GOLDFISH,
        function="goldfish._draw_and_bonuses",
    ),
    RuleSource(
        "Combat Phase",
        "If a player commands all 5 missions at the end of the combat phase, they win the game "
        "with a tactical victory.",
        tool=GOLDFISH,
        function="goldfish._record_turn",
    ),
    RuleSource(
        "Combat Phase",
        "After a mission is captured successfully, it deals damage to targets in the opposing "
        "player’s baseline equal to the capture cost shown on the mission card.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
    ),
    RuleSource(
        "Combat Phase",
        "When assigning capture damage, you also apply the printed value of the capture cost "
        "on the mission card.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
        reason="the raze is the printed cost, without the capture tokens",
    ),
    RuleSource(
        "Counters",
        "Unless otherwise stated, you cannot place additional capture counters on missions "
        "you control.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
        reason="efreets are sent only to missions not yet controlled",
    ),
    RuleSource(
        "Counters",
        "At the beginning of each deploy phase it razes a target opponent’s deck for 3 cards.",
        decision=LEFT_OUT,
        reason="firebases, mines and other card effects are not modelled by the goldfish",
    ),
    RuleSource(
        "Combat Phase",
        "Damage directed towards an arsenal razes an amount of cards equal to the damage dealt.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
    ),
    RuleSource(
        "Combat",
        "To fire, a player declares an enemy unit to shoot that they are engaged with, and "
        "rolls a d12 die.",
        decision=LEFT_OUT,
        reason=NO_COMBAT,
    ),
    RuleSource(
        "Card States",
        "When an arsenal has no more cards in it, its owner loses the game.",
        tool=GOLDFISH,
        function="goldfish._raze_and_recon",
    ),
    RuleSource(
        "REDLINE Resources",
        "A player can have no more than 6 recon at any time, and any extra gained while maxed "
        "out disappears.",
        tool=GOLDFISH,
        function="goldfish.RECON_MAX",
    ),
    RuleSource(
        "REDLINE Resources",
        "It can also be used to play tactics cards from a player’s hand in exchange for "
        "resources with 1 recon equaling 1 resource.",
        tool=GOLDFISH,
        function="goldfish._deploy_strategies_and_tactics",
    ),
    RuleSource(
        "REDLINE Resources",
        "Recon cannot be used to deploy any other cards except tactics.",
        tool=GOLDFISH,
        function="goldfish._deploy_strategies_and_tactics",
    ),
    RuleSource(
        "REDLINE Resources",
        "Recon is a special resource that can be gained in many ways, usually through "
        "capturing missions or from attacking with efreets that have the scouting ability.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
        reason="recon comes from mission control bonuses and Scouting efreets",
    ),
    RuleSource(
        "Card Types",
        "When a unit with scouting is assigned to a mission, add + 1 to your recon pool.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "Card Types",
        "For a 60 card arsenal, 22-24 resource cards are recommended.",
        codes=("arsenal.resources",),
        reason="recommended, not required: a warning",
    ),
    RuleSource(
        "Card Types",
        "It is important for a player’s arsenal to contain the right amount of resources to "
        "deploy their cards, as having too many or too few can cause logistics problems that "
        "make defeat likely.",
        codes=("arsenal.resources",),
    ),
    RuleSource(
        "Card Types",
        "Resource cards cost no resources themselves to deploy.",
        tool=GOLDFISH,
        function="goldfish._deploy_resource",
    ),
    RuleSource(
        "Card Types",
        "Tactics cards are flexible to use in that they are the only cards in the game that "
        "can be deployed with either resources or recon.",
        tool=GOLDFISH,
        function="goldfish._deploy_strategies_and_tactics",
    ),
    RuleSource(
        "Card Types",
        "During their deploy phase, a player may spend resources equal to their general’s "
        "deploy cost to flip them face up which puts the general in HQ.",
        decision=LEFT_OUT,
        reason="the goldfish never deploys the general: general abilities are not modelled",
    ),
    RuleSource(
        "Card Types",
        "An arsenal may only contain neutral cards and cards from the selected general’s faction.",
        codes=("arsenal.faction",),
    ),
    RuleSource(
        "Card Types",
        "All arsenals must have a general to lead it.",
        codes=("arsenal.general",),
    ),
    RuleSource(
        "Card Types",
        "While players can have up to four copies of an individual heroic card in their "
        "arsenal, they may only have 1 copy in play at a time.",
        codes=("arsenal.copies",),
        decision=PLAY_RULE,
        reason="one copy in play is a rule of play; the goldfish ignores heroic uniqueness",
    ),
    RuleSource(
        "REDLINE Scramble (Multiplayer)",
        "REDLINE Scramble is an exciting three player, 1v1v1 format where each player races "
        "to capture as many missions as possible to add to their baseline.",
        tool="format:scramble",
        function="",
        reason="its arsenal is built by the same rules as the standard format's",
    ),
    RuleSource(
        "REDLINE Scramble (Multiplayer)",
        "The first player to reach a scramble count of 25 wins the game!",
        tool="format:scramble",
        function="options.scramble_points",
    ),
    RuleSource(
        "Scenario Play",
        "In a game of scenario play, two players fight over a pre determined red line that "
        "can be agreed upon ahead of time, or created at the beginning of a game.",
        codes=("scenario.red_line",),
    ),
    RuleSource(
        "Scenario Play",
        "Pre-Determined – In this style of game, both players agree to battle over a set "
        "layout of 5 mission cards before the game begins.",
        codes=("scenario.red_line",),
    ),
    RuleSource(
        "Scenario Play",
        "To begin, the player who won initiative, flips the top three cards from the mission "
        "deck over and chooses one to place in the first position on the red line.",
        codes=("scenario.red_line",),
        reason="red_line_style on_the_spot: the list has no red line section (one present is "
        "scenario.red_line); the mission deck supplies it at setup",
    ),
    RuleSource(
        "Scenario Play",
        "Next, the opposite player does the same for the second position in the red line "
        "with players alternating until all 5 cards are on the red line then begin play as "
        "normal.",
        tool=GOLDFISH,
        function="simulation.prepare",
        decision=READ_ANOTHER_WAY,
        reason="on the spot, the goldfish draws the red line from the top of the mission deck "
        "(it has no opponent to alternate with, so the pick of one of three is not modelled)",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Arsenal – The deck of 60 cards that makes up a player’s squad in REDLINE.",
        codes=("arsenal.size",),
    ),
    RuleSource(
        "REDLINE Glossary",
        "Capture Cost – The value shown on a mission card that represents how hard it is to "
        "capture.",
        tool=GOLDFISH,
        function="goldfish._send_to_missions",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Critical Hits – When an attack roll equals the target’s speed after modifiers, or if "
        "it is a natural 12, it is considered a critical hit and deals a card from the "
        "critical hit deck to the damaged target",
        decision=LEFT_OUT,
        reason=NO_COMBAT,
    ),
    RuleSource(
        "REDLINE Glossary",
        "Efreet Limit – The maximum amount of efreets a player’s arsenal can support deployed "
        "at once, which is 5.",
        tool=GOLDFISH,
        function="goldfish.EFREET_LIMIT",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Generals do not count towards the arsenal 60 card limit.",
        codes=("arsenal.size",),
    ),
    RuleSource(
        "REDLINE Glossary",
        "General – The leader of each arsenal.",
        codes=("arsenal.general",),
    ),
    RuleSource(
        "REDLINE Glossary",
        "Arsenals are built around a general and can only include cards from each general’s "
        "faction, along with neutral cards.",
        codes=("arsenal.faction",),
    ),
    RuleSource(
        "REDLINE Glossary",
        "Partial Mulligan – When players draw their opening hand of 7 cards, they may place "
        "any number of those cards at the bottom of their arsenal to draw that many in "
        "return.",
        tool=DRAWS,
        function="draws.partial_mulligan",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Pilots – The person at the controls of an efreet.",
        decision=LEFT_OUT,
        reason="pilots are one equipment type among five; the goldfish puts a pilot only in "
        "a pilot slot",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Recon Pool – The place where recon is stored, the maximum amount being six.",
        tool=GOLDFISH,
        function="goldfish.RECON_MAX",
    ),
    RuleSource(
        "REDLINE Glossary",
        "Scenario Play – A REDLINE format where players battle over a set red line, "
        "pre-determined beforehand or on the spot together.",
        codes=("scenario.red_line",),
    ),
    RuleSource(
        "REDLINE Glossary",
        "The first player to get to a scramble count of 25 wins.",
        tool="format:scramble",
        function="options.scramble_points",
    ),
)

RULEBOOK = Rulebook(file="redline.txt", title="REDLINE: Tactical Card Combat Rules", rows=ROWS)
