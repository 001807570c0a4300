"""Red Mittens' rulebook, sentence by sentence, against the rules and tools
(validation/trace.py)."""

from __future__ import annotations

from validation.trace import LEFT_OUT, READ_ANOTHER_WAY, Rulebook, RuleSource

GOLDFISH = "goldfish:red-mittens-goldfish"
NO_TEXT = "card text and class abilities are not modelled by the goldfish"

ROWS: tuple[RuleSource, ...] = (
    RuleSource(
        "2. Components",
        "3 'Core' Decks of 20 cards each",
        codes=("units.size", "items.size", "fields.size", "deck.kind"),
        reason="one section a core deck (UNITS, ITEMS, FIELDS), each holding only its kind",
    ),
    RuleSource(
        "3. How to read the cards: ITEMS and FIELDS",
        "This will be used in a future expansion, so while you can ignore it for now.",
        decision=LEFT_OUT,
        reason="elemental resistance has no rule yet",
    ),
    RuleSource(
        "4. How to play the game: Setup",
        "Each player is dealt 10 UNIT cards and 10 ITEM cards (face down).",
        tool=GOLDFISH,
        function="goldfish.DEALT",
    ),
    RuleSource(
        "4. How to play the game: Setup",
        "Place the FIELD deck in a central location (to one side).",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
        reason="the field deck is shared",
    ),
    RuleSource(
        "4. How to play the game: Setup",
        "Each player starts with 20 Life Points (LP).",
        tool=GOLDFISH,
        function="goldfish.START_LP",
    ),
    RuleSource(
        "4. How to play the game: Setup",
        "Each player draws 2 cards from their UNIT deck, ITEM deck, and the FIELD deck.",
        tool=GOLDFISH,
        function="goldfish.OPENING_DRAW",
        reason="the sample hand draws the same 2 + 2 + 2",
    ),
    RuleSource(
        "4. How to play the game: Setup",
        "The top card from every UNIT deck, ITEM deck, and FIELD deck is flipped face-up.",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
    ),
    RuleSource(
        "4.1 Game Flow",
        "One player flips the Coin of Fate, and the other player calls heads or tails to "
        "determine who goes first.",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
        reason="against a passive opponent who goes first does not matter: only the "
        "player's own turns are counted",
    ),
    RuleSource(
        "4.2 Turn Structure",
        "By the end of the Phase the player must play at least one card, but no more than one "
        "card from each core deck: (UNIT, ITEM, and FIELD).",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
    ),
    RuleSource(
        "4.2.1 DEPLOY PHASE",
        "If the player chooses the CORE DICE and rolls a 1, 2, or 3, the player may draw that "
        "number of cards from **reserve** decks they have access to (UNIT, ITEM, or FIELD) "
        "and add them to their hand.",
        tool=GOLDFISH,
        function="goldfish.DICE_FACES",
    ),
    RuleSource(
        "4.2.1 DEPLOY PHASE",
        "If the die rolls a UNIT, ITEM, or FIELD symbol, the player must **FLIP INTO PLAY** "
        "the top card of the corresponding deck, making it ACTIVE.",
        tool=GOLDFISH,
        function="goldfish.DICE_FACES",
    ),
    RuleSource(
        "4.2.1 DEPLOY PHASE",
        "Any card flipped into play from the CORE DICE roll counts as the one playable card "
        "from that deck during this phase.",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
    ),
    RuleSource(
        "4.2.1 DEPLOY PHASE",
        "Note: You MUST roll the CORE DICE is if there are no cards in your hand.",
        tool=GOLDFISH,
        function="goldfish.goldfish_red_mittens",
        reason="the goldfish rolls only then (rolling is optional otherwise)",
    ),
    RuleSource(
        "4.2.1 DEPLOY PHASE",
        "If a card **flipped into play** states: **ON PLAY** in the action panel, that "
        "action must be done immediately.",
        decision=LEFT_OUT,
        reason=NO_TEXT,
    ),
    RuleSource(
        "4.2.3 ATTACK PHASE",
        "ATTACK!: If the attacking UNIT's **atk** is higher than the defending UNIT's **def**, "
        "the defending UNIT is sent to the GRAVEYARD (unless stated otherwise).",
        decision=READ_ANOTHER_WAY,
        reason="the goldfish's opponent has no units, so an undefended attack costs it LP "
        "equal to the whole attack",
    ),
    RuleSource(
        "4.2.3 ATTACK PHASE",
        "The enemy loses LP equal to how much your **atk** exceeds their **def**: e.g. **10 "
        "atk - 6 def = 4 LP** lost.",
        tool=GOLDFISH,
        function="goldfish._attack",
    ),
    RuleSource(
        "4.2.3 ATTACK PHASE",
        "1: Stack their attack (modified atk x 2) to do double damage (only if a single attack "
        "cannot defeat the enemy UNIT).",
        tool=GOLDFISH,
        function="goldfish._attack",
        reason="with no enemy unit the second option applies: two direct attacks",
    ),
    RuleSource(
        "4.2.3 ATTACK PHASE",
        "2: If a single attack defeats the UNIT, they may attack the next enemy UNIT that "
        "becomes ACTIVE (or the Enemy directly if no Unit remains).",
        tool=GOLDFISH,
        function="goldfish._attack",
        reason="an attack-twice unit attacks the opponent directly twice",
    ),
    RuleSource(
        "4.2.3 ATTACK PHASE",
        "ALSO NOTE: If a UNIT states **+D6 atk & def** the D6 must be rolled when attacking "
        "then again when defending to calculate the bonus.",
        tool=GOLDFISH,
        function="goldfish._attack",
    ),
    RuleSource(
        "5. Classes",
        "To win a resistance roll you **MUST** roll a number "
        "**HIGHER** than the number in the TURQUOISE circle in the upper right corner of a "
        "card (or is it more aqua?)",
        decision=LEFT_OUT,
        reason=NO_TEXT,
    ),
    RuleSource(
        "5. Classes",
        "Items and Fields also have classes, but think of them as classifications, and are "
        "utilized by certain units for bonuses e.g. Unit gain +1 atk from WEAPONS etc.",
        decision=LEFT_OUT,
        reason=NO_TEXT,
    ),
)

RULEBOOK = Rulebook(file="red-mittens.txt", title="Red Mittens: Core Rules and Gameplay", rows=ROWS)
