"""Adversarial lists, written from the rulebooks: names that are only the beginning of a
card's name, cards in a section that does not take them, sections one short with a stray
card, formats that differ, for every game.

Each case is a list as a player would paste it, read as the site reads it (parse, resolve
against the game's cards, validate) and judged as the site judges it: not legal while a
line is unknown. `codes` are the rule codes of every error and warning; "unknown" stands
for the lines whose card could not be identified (an unknown card, with suggestions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.validation import pools as p
from validation.decklist import parse, resolve
from validation.registry import registry
from validation.runner import validate

POOLS = {
    "redline": p.REDLINE_CARDS,
    "tactical-assault": p.TA_CARDS,
    "hex-skirmish": p.HS_CARDS,
    "red-mittens": p.RM_CARDS,
    "red-code": p.RC_CARDS,
}


def text(sections: dict[str, list[str]]) -> str:
    """A list as text: a header and its lines per section."""
    out = []
    for header, lines in sections.items():
        out.append(f"{header}:")
        out.extend(lines)
    return "\n".join(out) + "\n"


# --- REDLINE: an arsenal of exactly 60 led by one general; missions ≥ 20 (≤ 3 copies);
# critical hits exactly 16; at most 4 copies except basic supply drops; faction of the
# general or neutral.

RL_ARSENAL = [
    "24 Supply Drop",
    "4 Tigercat",
    "4 Warhound",
    "4 Sparrowhawk",
    "4 Bulwark",
    "4 Laser Lance",
    "4 Missile Pod",
    "2 Targeting System",
    "4 Ambush",
    "4 Smoke Screen",
    "2 Rally",
]
RL_MISSIONS = [f"3 {m}" for m in p.MISSIONS]
RL_CRITS = [f"4 {c}" for c in p.CRITICAL_HITS]


def rl(
    general: list[str] | None = None,
    arsenal: list[str] | None = None,
    missions: list[str] | None = None,
    crits: list[str] | None = None,
    **extra: list[str],
) -> str:
    sections = {
        "General": general if general is not None else ["1 General Jeffrey Moore"],
        "Arsenal": arsenal if arsenal is not None else RL_ARSENAL,
        "Missions": missions if missions is not None else RL_MISSIONS,
        "Critical hits": crits if crits is not None else RL_CRITS,
    }
    sections.update({k.replace("_", " "): v for k, v in extra.items()})
    return text({k: v for k, v in sections.items() if v})


def swap(lines: list[str], old: str, *new: str) -> list[str]:
    """`lines` with the line `old` replaced by `new` lines."""
    assert old in lines, old
    i = lines.index(old)
    return [*lines[:i], *new, *lines[i + 1 :]]


# --- Tactical Assault: a force of unit types within the points (36 in Standard), at
# least one on the battlefield at the start; an optional deck of the 72 combat cards.

TA_FORCE = ["2 Armored", "2 Mechanized", "3 Infantry", "2 Artillery", "2 Recon"]
TA_DECK = [f"1 {p.combat_card_name(n)}" for n in range(1, 73)]


def ta(force: list[str] | None = None, deck: list[str] | None = None) -> str:
    sections = {"Force": TA_FORCE if force is None else force}
    if deck is not None:
        sections["Combat cards deck"] = deck
    return text(sections)


# --- Hex Skirmish: at least 2 units, each on its own hex of the 8 × 8 half; at least 30
# command cards; at most 50 points.

HS_UNITS = ["1 Spearman @1,1", "1 Spearman @2,1", "1 Archer @3,0"]
HS_COMMANDS = ["10 Advance", "10 Hold", "10 Rally Cry"]


def hs(units: list[str] | None = None, commands: list[str] | None = None) -> str:
    return text(
        {
            "Units": HS_UNITS if units is None else units,
            "Command cards": HS_COMMANDS if commands is None else commands,
        }
    )


# --- Red Mittens: a UNIT, an ITEM and a FIELD core deck of exactly 20 cards each.

RM_UNITS = [f"4 Mitten Knight {i}" for i in range(1, 6)]
RM_ITEMS = [f"4 Woollen Blade {i}" for i in range(1, 6)]
RM_FIELDS = [f"4 Snowfield {i}" for i in range(1, 6)]


def rm(
    units: list[str] | None = None, items: list[str] | None = None, fields: list[str] | None = None
) -> str:
    return text(
        {
            "Unit deck": RM_UNITS if units is None else units,
            "Item deck": RM_ITEMS if items is None else items,
            "Field deck": RM_FIELDS if fields is None else fields,
        }
    )


# --- Red Code: two equal sides of 1 to 3 players, each commanding one ship of their
# side's colour, no two ships of a class on a side; the order deck holds 30 cards.

RC_BLUE = ["1 Blue Submarine", "1 Blue Destroyer"]
RC_RED = ["1 Red Submarine", "1 Red Carrier"]
RC_ORDERS = ["10 Captain", "10 Mechanic", "10 Kamikaze"]


def rc(
    blue: list[str] | None = None, red: list[str] | None = None, orders: list[str] | None = None
) -> str:
    sections = {"Blue side": RC_BLUE if blue is None else blue}
    sections["Red side"] = RC_RED if red is None else red
    if orders is not None:
        sections["Order deck"] = orders
    return text(sections)


@dataclass(frozen=True)
class Case:
    id: str
    game: str
    format: str
    list: str
    legal: bool
    codes: frozenset[str] = field(default_factory=frozenset)
    options: dict[str, Any] = field(default_factory=dict)


def case(id, game, fmt, list_text, legal, codes=(), **options) -> Case:
    return Case(id, game, fmt, list_text, legal, frozenset(codes), options)


RL_, TA_, HS_, RM_, RC_ = "redline", "tactical-assault", "hex-skirmish", "red-mittens", "red-code"

CASES = [
    # ---------------------------------------------------------------- REDLINE
    case("rl-legal", RL_, "standard", rl(), True),
    case("rl-legal-scramble", RL_, "scramble", rl(), True),
    case(
        "rl-case-spacing-punctuation",
        RL_,
        "standard",
        rl(
            general=["1 general  jeffrey moore."],
            arsenal=swap(
                swap(RL_ARSENAL, "4 Tigercat", "4 Tiger-Cat"), "24 Supply Drop", "24x SUPPLY DROP"
            ),
        ),
        True,
    ),
    case(
        "rl-prefix-one-letter-short",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "4 Tigercat", "4 Tigerca")),
        False,
        {"unknown", "arsenal.size"},
    ),
    case(
        "rl-prefix-one-word-short",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "4 Laser Lance", "4 Laser")),
        False,
        {"unknown", "arsenal.size"},
    ),
    case(
        "rl-prefix-of-the-general",
        RL_,
        "standard",
        rl(general=["1 General Jeffrey"]),
        False,
        {"unknown", "arsenal.general"},
    ),
    case(
        "rl-prefix-of-two-generals",
        RL_,
        "standard",
        rl(general=["1 General"]),
        False,
        {"unknown", "arsenal.general"},
    ),
    case(
        "rl-prefix-of-a-mission",
        RL_,
        "standard",
        rl(missions=swap(RL_MISSIONS, "3 Fuel Refinery", "3 Fuel")),
        False,
        {"unknown", "missions.size"},
    ),
    case(
        "rl-prefix-short-of-exactly-enough-still-not-legal",
        RL_,
        "standard",
        rl(arsenal=[*RL_ARSENAL, "1 Sparrow"]),
        False,
        {"unknown"},
    ),
    case(
        "rl-typo-inside-a-name",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "4 Warhound", "4 Warhund")),
        False,
        {"unknown", "arsenal.size"},
    ),
    case(
        "rl-general-in-the-arsenal-one-short",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "24 Supply Drop", "23 Supply Drop", "1 General Jeffrey Moore")),
        False,
        {"arsenal.kind", "arsenal.size"},
    ),
    case(
        "rl-mission-in-the-arsenal-one-short",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "24 Supply Drop", "23 Supply Drop", "1 Radar Station")),
        False,
        {"arsenal.kind", "arsenal.size"},
    ),
    case(
        "rl-critical-hit-in-the-arsenal-one-short",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "2 Rally", "1 Rally", "1 Sensor Damage")),
        False,
        {"arsenal.kind", "arsenal.size"},
    ),
    case(
        "rl-mission-beside-a-full-arsenal",
        RL_,
        "standard",
        rl(arsenal=[*RL_ARSENAL, "1 Radar Station"]),
        False,
        {"arsenal.kind"},
    ),
    case(
        "rl-efreet-instead-of-the-general",
        RL_,
        "standard",
        rl(general=["1 Lancer"]),
        False,
        {"arsenal.general"},
    ),
    case(
        "rl-efreet-beside-the-general",
        RL_,
        "standard",
        rl(general=["1 General Jeffrey Moore", "1 Lancer"]),
        False,
        {"arsenal.general"},
    ),
    case(
        "rl-two-generals",
        RL_,
        "standard",
        rl(general=["1 General Jeffrey Moore", "1 General Mara Voss"]),
        False,
        {"arsenal.general"},
    ),
    case(
        "rl-critical-hit-in-the-missions-one-short",
        RL_,
        "standard",
        rl(missions=[*RL_MISSIONS[:-1], "2 Spaceport", "1 Pilot Injured"]),
        False,
        {"missions.size"},
    ),
    case(
        "rl-missions-at-20",
        RL_,
        "standard",
        rl(missions=[*RL_MISSIONS[:-1], "2 Spaceport"]),
        True,
    ),
    case(
        "rl-mission-in-the-critical-hits-one-short",
        RL_,
        "standard",
        rl(crits=[*RL_CRITS[:-1], "3 Pilot Injured", "1 Bridge"]),
        False,
        {"critical_hits.size"},
    ),
    case(
        "rl-five-copies",
        RL_,
        "standard",
        rl(arsenal=swap(swap(RL_ARSENAL, "4 Tigercat", "5 Tigercat"), "4 Warhound", "3 Warhound")),
        False,
        {"arsenal.copies"},
    ),
    case(
        "rl-four-copies-of-a-mission",
        RL_,
        "standard",
        rl(missions=swap(RL_MISSIONS, "3 Bridge", "4 Bridge")),
        False,
        {"missions.copies"},
    ),
    case(
        "rl-other-faction",
        RL_,
        "standard",
        rl(arsenal=swap(RL_ARSENAL, "4 Bulwark", "4 Red Fang")),
        False,
        {"arsenal.faction"},
    ),
    case(
        "rl-basic-supply-drops-have-no-copy-limit",
        RL_,
        "standard",
        rl(
            arsenal=swap(
                swap(RL_ARSENAL, "24 Supply Drop", "22 Supply Drop"),
                "2 Rally",
                "2 Rally",
                "2 Lancer",
            )
        ),
        True,
    ),
    case(
        "rl-scenario-red-line",
        RL_,
        "scenario",
        rl(Red_line=[f"1 {m}" for m in p.MISSIONS[:5]]),
        True,
    ),
    case(
        "rl-red-line-in-standard",
        RL_,
        "standard",
        rl(Red_line=[f"1 {m}" for m in p.MISSIONS[:5]]),
        False,
        {"deck.section"},
    ),
    # ---------------------------------------------------------------- Tactical Assault
    case("ta-legal-force", TA_, "standard", ta(), True),
    case("ta-legal-force-and-deck", TA_, "standard", ta(deck=TA_DECK), True),
    case(
        "ta-force-over",
        TA_,
        "standard",
        ta(force=swap(TA_FORCE, "2 Recon", "2 Recon", "1 Infantry")),
        False,
        {"force.points"},
    ),
    case(
        "ta-force-under",
        TA_,
        "standard",
        ta(force=swap(TA_FORCE, "3 Infantry", "2 Infantry")),
        True,
        {"force.under"},
    ),
    case(
        "ta-prefix-of-a-unit",
        TA_,
        "standard",
        ta(force=swap(TA_FORCE, "2 Armored", "2 Armore")),
        False,
        {"unknown", "force.under"},
    ),
    case(
        "ta-combat-card-number-written-short",
        TA_,
        "standard",
        ta(deck=swap(TA_DECK, "1 Combat Card 07", "1 Combat Card 7")),
        False,
        {"unknown", "deck.size"},
    ),
    case(
        "ta-combat-card-in-the-force",
        TA_,
        "standard",
        ta(force=[*TA_FORCE, "1 Combat Card 01"]),
        False,
        {"section.kind"},
    ),
    case(
        "ta-unit-in-the-deck-one-short",
        TA_,
        "standard",
        ta(deck=swap(TA_DECK, "1 Combat Card 72", "1 Infantry")),
        False,
        {"deck.size"},
    ),
    case(
        "ta-only-off-battlefield-units",
        TA_,
        "standard",
        ta(force=["2 Artillery", "2 Aerial"]),
        False,
        {"force.empty", "force.under"},
    ),
    case(
        "ta-only-immobile-units",
        TA_,
        "standard",
        ta(force=["1 Bunker", "1 Obstacle"]),
        False,
        {"force.empty", "force.under"},
    ),
    case(
        "ta-a-number-twice",
        TA_,
        "standard",
        ta(deck=swap(TA_DECK, "1 Combat Card 02", "1 Combat Card 01")),
        False,
        {"deck.unique"},
    ),
    case(
        "ta-custom-points-raised",
        TA_,
        "custom",
        ta(force=[*TA_FORCE, "1 Infantry"]),
        True,
        {"force.under"},
        points=40,
    ),
    case(
        "ta-same-force-over-in-standard",
        TA_,
        "standard",
        ta(force=[*TA_FORCE, "1 Infantry"]),
        False,
        {"force.points"},
        points=40,
    ),
    # ---------------------------------------------------------------- Hex Skirmish
    case("hs-legal", HS_, "standard", hs(), True),
    case(
        "hs-unit-among-the-command-cards-one-short",
        HS_,
        "standard",
        hs(commands=["9 Advance", "10 Hold", "10 Rally Cry", "1 Rider"]),
        False,
        {"section.kind", "army.cards"},
    ),
    case(
        "hs-command-among-the-units-one-short",
        HS_,
        "standard",
        hs(units=["1 Spearman @1,1", "1 Advance @2,1"]),
        False,
        {"section.kind", "army.units"},
    ),
    case(
        "hs-command-beside-enough-units",
        HS_,
        "standard",
        hs(units=[*HS_UNITS, "1 Hold @4,0"]),
        False,
        {"section.kind"},
    ),
    case(
        "hs-prefix-of-a-unit",
        HS_,
        "standard",
        hs(units=["1 Spearman @1,1", "1 Spear @2,1", "1 Archer @3,0"]),
        False,
        {"unknown"},
    ),
    case(
        "hs-prefix-of-a-command-card",
        HS_,
        "standard",
        hs(commands=["10 Advance", "10 Hold", "10 Rally"]),
        False,
        {"unknown", "army.cards"},
    ),
    case(
        "hs-over-the-points",
        HS_,
        "standard",
        hs(commands=["10 Strike", "10 Hold", "10 Rally Cry"]),
        False,
        {"army.points"},
    ),
    case(
        "hs-two-units-on-one-hex",
        HS_,
        "standard",
        hs(units=["1 Spearman @1,1", "1 Archer @1,1", "1 Rider @2,2"]),
        False,
        {"army.deployment"},
    ),
    case(
        "hs-unit-outside-its-half",
        HS_,
        "standard",
        hs(units=[*HS_UNITS[:2], "1 Archer @3,8"]),
        False,
        {"army.deployment"},
    ),
    case(
        "hs-one-unit",
        HS_,
        "standard",
        hs(units=["1 Rider @0,0"]),
        False,
        {"army.units"},
    ),
    # ---------------------------------------------------------------- Red Mittens
    case("rm-legal", RM_, "core", rm(), True),
    case(
        "rm-item-among-the-units-one-short",
        RM_,
        "core",
        rm(units=[*RM_UNITS[:-1], "3 Mitten Knight 5", "1 Woollen Blade 1"]),
        False,
        {"deck.kind", "units.size"},
    ),
    case(
        "rm-unit-among-the-fields-one-short",
        RM_,
        "core",
        rm(fields=[*RM_FIELDS[:-1], "3 Snowfield 5", "1 Mitten Knight 1"]),
        False,
        {"deck.kind", "fields.size"},
    ),
    case(
        "rm-field-beside-a-full-item-deck",
        RM_,
        "core",
        rm(items=[*RM_ITEMS, "1 Snowfield 1"]),
        False,
        {"deck.kind"},
    ),
    case(
        "rm-prefix-of-five-cards",
        RM_,
        "core",
        rm(units=[*RM_UNITS[:-1], "4 Mitten Knight"]),
        False,
        {"unknown", "units.size"},
    ),
    case(
        "rm-spacing-of-a-number",
        RM_,
        "core",
        rm(fields=[*RM_FIELDS[:-1], "4 snowfield5"]),
        True,
    ),
    case(
        "rm-one-over",
        RM_,
        "core",
        rm(items=[*RM_ITEMS[:-1], "5 Woollen Blade 5"]),
        False,
        {"items.size"},
    ),
    # ---------------------------------------------------------------- Red Code
    case("rc-legal-arena", RC_, "arena", rc(), True),
    case("rc-legal-war", RC_, "war", rc(), True),
    case("rc-legal-with-orders", RC_, "arena", rc(orders=RC_ORDERS), True),
    case(
        "rc-order-card-as-a-player",
        RC_,
        "arena",
        rc(blue=["1 Blue Submarine", "1 Captain"]),
        False,
        {"match.ships", "match.sides"},
    ),
    case(
        "rc-enemy-ship-as-a-player",
        RC_,
        "war",
        rc(blue=["1 Blue Submarine", "1 Red Destroyer"]),
        False,
        {"match.ships", "match.sides"},
    ),
    case(
        "rc-two-destroyers-on-a-side",
        RC_,
        "arena",
        rc(blue=["1 Blue Destroyer", "1 Blue Destroyer II"]),
        False,
        {"match.unique_class"},
    ),
    case(
        "rc-enemy-destroyer-is-not-a-second-destroyer",
        RC_,
        "arena",
        rc(blue=["1 Blue Destroyer", "1 Red Destroyer"], red=["1 Red Submarine"]),
        False,
        {"match.ships"},
    ),
    case(
        "rc-unequal-sides",
        RC_,
        "arena",
        rc(red=["1 Red Submarine"]),
        False,
        {"match.sides"},
    ),
    case(
        "rc-four-players-a-side",
        RC_,
        "arena",
        rc(
            blue=["1 Blue Submarine", "1 Blue Destroyer", "1 Blue Carrier", "1 Blue Destroyer II"],
            red=["1 Red Submarine", "1 Red Destroyer", "1 Red Carrier", "1 Red Submarine"],
        ),
        False,
        {"match.sides", "match.unique_class"},
    ),
    case(
        "rc-prefix-of-a-ship",
        RC_,
        "arena",
        rc(blue=["1 Blue Sub", "1 Blue Destroyer"]),
        False,
        {"unknown", "match.sides"},
    ),
    case(
        "rc-punctuation-in-a-ship",
        RC_,
        "arena",
        rc(blue=["1 blue-submarine", "1 BLUE DESTROYER"]),
        True,
    ),
    case(
        "rc-manoeuvre-in-the-orders-one-short",
        RC_,
        "arena",
        rc(orders=["10 Captain", "10 Mechanic", "9 Kamikaze", "1 Torpedo"]),
        False,
        {"orders.size"},
    ),
    case(
        "rc-prefix-of-an-order",
        RC_,
        "arena",
        rc(orders=["10 Captain", "10 Mechanic", "10 Kamikaz"]),
        False,
        {"unknown", "orders.size"},
    ),
]


def read(c: Case):
    """The list read and judged as the site does: (legal, codes, unknown line errors)."""
    game = registry.get(c.game)
    parsed = parse(c.list, game)
    assert parsed.errors == [], parsed.errors
    deck, unknown = resolve(parsed.lines, POOLS[c.game])
    deck.options = dict(c.options)
    report = validate(game, c.format, deck, cards=POOLS[c.game])
    codes = report.codes() | ({"unknown"} if unknown else set())
    return report.legal and not unknown, codes, unknown


def test_there_are_at_least_fifty_cases_covering_every_game():
    assert len(CASES) >= 50
    assert len({c.id for c in CASES}) == len(CASES)
    assert {c.game for c in CASES} == set(registry.slugs()) - {"pond"}


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_adversarial_list(c: Case):
    legal, codes, _unknown = read(c)
    assert (legal, codes) == (c.legal, c.codes)


PREFIXES = [c for c in CASES if "prefix" in c.id]


@pytest.mark.parametrize("c", PREFIXES, ids=[c.id for c in PREFIXES])
def test_a_prefix_name_is_unknown_and_the_real_card_is_suggested(c: Case):
    _legal, _codes, unknown = read(c)
    assert unknown, "a name that is only the beginning of a card's name is not read as it"
    game_cards = POOLS[c.game]
    for error in unknown:
        assert "unknown card" in error.message
        written = error.message.split("'")[1].lower()
        starting = {
            card.name for card in game_cards.values() if card.name.lower().startswith(written)
        }
        assert error.suggestions, error.message
        assert set(error.suggestions) & starting, (error.message, error.suggestions)
