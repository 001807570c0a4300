"""Red Code's rulebook, sentence by sentence, against the rules and tools
(validation/trace.py)."""

from __future__ import annotations

from validation.trace import LEFT_OUT, PLAY_RULE, Rulebook, RuleSource

CREW = "tools:crew"
FIELD = "tools:visual-field"
PASSIVE = "the crew economy's target is passive: it never responds, repairs or moves"

ROWS: tuple[RuleSource, ...] = (
    RuleSource(
        "1.1. Characteristics",
        "The players play 1 on 1, or combine into 2 factions of 1 vs 1, 2 vs 2 or 3 vs 3.",
        codes=("match.sides",),
    ),
    RuleSource(
        "2.1. Arena mode",
        "The first group to sink the enemy ships is the winner.",
        tool="format:arena",
        function="",
    ),
    RuleSource(
        "2.1. Arena mode",
        "(Games of 2 vs 2) The first side to lose a ship receives 2 order cards.",
        decision=PLAY_RULE,
        reason="a rule of play; the match set-up lists the order deck only",
    ),
    RuleSource(
        "2.2. War mode",
        "The first side to get 5 victory points is the winner.",
        tool="format:war",
        function="options.victory_points",
    ),
    RuleSource(
        "2.2. War mode",
        "Sinking an enemy ship earns you 1 victory point.",
        tool="format:war",
        function="options.victory_points",
    ),
    RuleSource(
        "3.0. Contents",
        "- 15 map cards",
        codes=("map.layout",),
    ),
    RuleSource(
        "3.0. Contents",
        "- 30 order cards",
        codes=("orders.size",),
    ),
    RuleSource(
        "3.1. Map cards",
        "Islands: These are impassable, so ships can not move over them, and they block "
        "line-of-sight for firing.",
        tool=FIELD,
        function="crew_economy.visual_field",
    ),
    RuleSource(
        "3.1. Map cards",
        "Running water: When a ship enters this box, it automatically receives +1 movement "
        "which must be used to move to a neighbouring box.",
        tool=FIELD,
        function="crew_economy.visual_field",
        reason="running water does not block the line of sight: it is sea to the visual field",
    ),
    RuleSource(
        "3.2. Control cards",
        "There are 3 kinds of ship in Red Code: **Submarine; Destroyer; Aircraft carrier.**",
        codes=("match.unique_class",),
        reason="each side's players choose among the 3 ships of their colour, so a side has "
        "at most one ship of each class",
    ),
    RuleSource(
        "3.2. Control cards",
        "Once both of these characteristics have been reduced to 0, the ship is sunk.",
        tool=CREW,
        function="crew_economy.hit_points",
    ),
    RuleSource(
        "3.2. Control cards",
        "When the number of repairs hits 0, remove a breakdown token and put 3 repair tokens "
        "back on the control card (1 breakdown = 3 repairs).",
        tool=CREW,
        function="crew_economy.hit_points",
    ),
    RuleSource(
        "3.2. Control cards",
        "You are not allowed to exceed the amount of breakdown and repair spaces available on "
        "the control card.",
        tool=CREW,
        function="crew_economy.hit_points",
    ),
    RuleSource(
        "3.2. Control cards",
        "At the start, all ships have 6 crew, placed on the crew area on the control card.",
        tool=CREW,
        function="crew_economy.crew_schedule",
    ),
    RuleSource(
        "3.2. Control cards",
        "Manoeuvres with a crew member already on the square can not be used during that turn.",
        tool=CREW,
        function="crew_economy.crew_schedule",
    ),
    RuleSource(
        "3.2. Control cards",
        "- **Torpedo:** Does 1 repair damage, at a maximum distance of 2 spaces.",
        tool=CREW,
        function="crew_economy.crew_schedule",
        reason="each ship's manoeuvres, their crew cost, repair damage and distance are "
        "catalogue data of its control card",
    ),
    RuleSource(
        "3.2. Control cards",
        "- **Repair:** Regain 1 repair cube.",
        decision=LEFT_OUT,
        reason="the crew economy schedules damage to a target; repairs of one's own ship are "
        "not part of it",
    ),
    RuleSource(
        "3.2. Control cards",
        "- **Radar:** Does 1 repair damage plus 1 crew damage at a maximum distances of 3 spaces.",
        tool=CREW,
        function="crew_economy.crew_schedule",
        decision=LEFT_OUT,
        reason="only the repair damage counts; crew damage to the target is left out, as "
        + PASSIVE,
    ),
    RuleSource(
        "3.2. Control cards",
        "- **Shield:** Cancels the current manoeuvre, at a maximum distance of 3 spaces.",
        decision=LEFT_OUT,
        reason=PASSIVE,
    ),
    RuleSource(
        "3.2. Control cards",
        "- **Orders:** Draw one order card.",
        decision=LEFT_OUT,
        reason="the crew economy counts only repair damage dealt by manoeuvres; the Orders "
        "manoeuvre and the order cards are not modelled",
    ),
    RuleSource(
        "3.2. Control cards",
        "It includes the boxes in a straight line horizontally, vertically and diagonally "
        "from your ship and depends on the distance that the specific manoeuvre you want to "
        "use has.",
        tool=FIELD,
        function="crew_economy.visual_field",
    ),
    RuleSource(
        "3.2. Control cards",
        "Note that the enemy ships have the same effect as islands in blocking your line of sight.",
        tool=FIELD,
        function="crew_economy.visual_field",
    ),
    RuleSource(
        "3.3. Order cards.",
        "Only 1 order card can be used per turn, but the effects can be used on any target on "
        "the table, regardless of distance or objects blocking line of sight.",
        decision=LEFT_OUT,
        reason="the crew economy does not model order cards",
    ),
    RuleSource(
        "3.3. Order cards.",
        "Each player may not have more than 3 order cards in their hand at any time.",
        decision=PLAY_RULE,
        reason="a hand limit of play, not part of a match's set-up",
    ),
    RuleSource(
        "4.1. Preparation of the table:",
        "Shuffle the map cards and place face up a 3 by 4 formation (see example picture).",
        codes=("map.layout",),
    ),
    RuleSource(
        "4.1. Preparation of the table:",
        "The 3 cards left over are not used in the game.",
        codes=("map.layout",),
    ),
    RuleSource(
        "4.2. Preparation of the ships:",
        "The players are divided 1 vs 1, 2 vs 2 or 3 vs 3, depending on the number of players.",
        codes=("match.sides",),
    ),
    RuleSource(
        "4.2. Preparation of the ships:",
        "Next, each player selects a ship from the 3 available, and also takes the "
        "corresponding control card.",
        codes=("match.ships", "match.unique_class"),
    ),
    RuleSource(
        "4.2. Preparation of the ships:",
        "The two teams have a starting card in opposite corners of the board, and the team "
        "members put their ships into one of the 4 squares in their starting card.",
        codes=("map.layout",),
    ),
    RuleSource(
        "4.3. Start the game.",
        "Shuffle the order cards and deal out one initial order card to each player.",
        decision=PLAY_RULE,
        reason="dealt at the table; the match lists the order deck only",
    ),
    RuleSource(
        "5.1. Recover crew",
        "At the start of your turn, you always **replace 2 crew** into your reserve, either "
        "from the manoeuvre spaces or from the pile of withdrawn crew (see the radar and "
        "floating mine manoeuvres and the deserter order card).",
        tool=CREW,
        function="crew_economy.RECOVERY_PER_TURN",
    ),
    RuleSource(
        "5.2. Management of manoeuvres",
        "The manoeuvres cost crew to carry out the action (according to the number of boxes "
        "for that manoeuvre), but also depend on the line of vision of the ship.",
        tool=CREW,
        function="crew_economy.crew_schedule",
    ),
    RuleSource(
        "5.2. Management of manoeuvres",
        "The target must be within the action's range and on a straight line either "
        "vertically, horizontally or diagonally.",
        tool=FIELD,
        function="crew_economy.visual_field",
    ),
    RuleSource(
        "5.3. Possible responses:",
        "The last manoeuvre declared is the first to be carried out.",
        decision=LEFT_OUT,
        reason=PASSIVE,
    ),
)

RULEBOOK = Rulebook(file="red-code.txt", title="Red Code: instructions", rows=ROWS)
