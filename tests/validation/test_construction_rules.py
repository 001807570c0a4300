"""Every rule code of the game spec: a deck that breaks only that rule gets exactly that code,
and a deck at the rule's boundary passes it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.validation import pools as p
from validation.games.red_code import generate_layout
from validation.registry import registry
from validation.runner import validate
from validation.types import Deck

RL_ARSENAL = p.redline_sections()["arsenal"]


@dataclass
class Case:
    game: str
    format: str
    deck: Callable[[], Deck]
    cards: dict | None = field(default=None)


def rl(fmt: str = "standard", **changes: Any) -> Case:
    return Case("redline", fmt, lambda: p.redline_deck(**changes))


def scenario(red_line: list | None) -> Case:
    return Case("redline", "scenario", lambda: p.redline_deck(red_line=red_line))


RED_LINE = [(m, 1) for m in p.MISSIONS[:5]]
LAYOUT = generate_layout(p.RC_MAP_CARDS, seed=7)
BAD_LAYOUT = {"seed": 7, "rows": [list(r) for r in LAYOUT["rows"]]}
# move the blue start card out of its corner
_r, _c = next((r, c) for r in range(3) for c in range(4) if LAYOUT["rows"][r][c] == "Blue Harbour")
BAD_LAYOUT["rows"][_r][_c], BAD_LAYOUT["rows"][1][1] = (
    BAD_LAYOUT["rows"][1][1],
    BAD_LAYOUT["rows"][_r][_c],
)

# A legal deck for every game and format; each is also the "passes" case of every code.
LEGAL: dict[str, Case] = {
    "redline/standard": rl(),
    "redline/scramble": rl("scramble"),
    "redline/scenario": scenario(RED_LINE),
    "redline/no-optional-sections": rl(missions=None, critical_hits=None),
    "tactical-assault/standard": Case("tactical-assault", "standard", lambda: p.ta_deck()),
    "tactical-assault/no-deck": Case("tactical-assault", "standard", lambda: p.ta_deck(deck=None)),
    "tactical-assault/custom-50": Case(
        "tactical-assault",
        "custom",
        lambda: p.ta_deck(force=p.TA_FORCE + [("Behemoth", 1), ("Mechanized", 2)], points=50),
    ),
    "tactical-assault/campaign": Case("tactical-assault", "campaign", lambda: p.ta_deck()),
    "red-code/arena": Case("red-code", "arena", lambda: p.rc_deck()),
    "red-code/war-3v3-map-orders": Case(
        "red-code",
        "war",
        lambda: p.rc_deck(
            blue=[("Blue Submarine", 1), ("Blue Destroyer", 1), ("Blue Carrier", 1)],
            red=[("Red Submarine", 1), ("Red Destroyer", 1), ("Red Carrier", 1)],
            orders=[("Captain", 10), ("Mechanic", 10), ("Kamikaze", 10)],
            options={"map": LAYOUT},
        ),
        p.RC_CARDS,
    ),
    "red-code/orders-option": Case(
        "red-code", "arena", lambda: p.rc_deck(options={"orders": {"Captain": 30}})
    ),
    "red-mittens/core": Case("red-mittens", "core", lambda: p.build(p.RM_CARDS, p.rm_sections())),
    "hex-skirmish/standard": Case("hex-skirmish", "standard", lambda: p.hs_deck()),
    "hex-skirmish/collection": Case(
        "hex-skirmish",
        "standard",
        lambda: p.hs_deck(
            collection={"Spearman": 2, "archer": 1, "Advance": 10, "Hold": 12, "Rally Cry": 10}
        ),
    ),
}


def _rm(**changes: list) -> Case:
    def make() -> Deck:
        sections = p.rm_sections()
        sections.update(changes)
        return p.build(p.RM_CARDS, sections)

    return Case("red-mittens", "core", make)


# code -> a deck that breaks only that rule
BREAKS: list[tuple[str, str, Case]] = [
    # REDLINE
    ("arsenal.size", "61 cards", rl(arsenal=p.replace(RL_ARSENAL, "Rally", ("Rally", 3)))),
    ("arsenal.size", "59 cards", rl(arsenal=p.replace(RL_ARSENAL, "Rally", ("Rally", 1)))),
    ("arsenal.general", "no general", rl(general=None)),
    (
        "arsenal.general",
        "two generals",
        rl(general=[("General Jeffrey Moore", 1), ("General Mara Voss", 1)]),
    ),
    ("arsenal.general", "not a general", rl(general=[("Tigercat", 1)])),
    (
        "arsenal.faction",
        "a cpm tactic under a une general",
        rl(arsenal=p.replace(RL_ARSENAL, "Rally", ("Blood Oath", 2))),
    ),
    (
        "arsenal.copies",
        "5 Ambush",
        rl(
            arsenal=p.replace(p.replace(RL_ARSENAL, "Ambush", ("Ambush", 5)), "Rally", ("Rally", 1))
        ),
    ),
    (
        "arsenal.copies",
        "5 non-basic resources",
        rl(arsenal=p.replace(RL_ARSENAL, "Supply Drop", ("Supply Drop", 19), ("Fuel Depot", 5))),
    ),
    (
        "arsenal.kind",
        "a mission beside a full arsenal",
        rl(arsenal=[*RL_ARSENAL, ("Hardened Bunker", 1)]),
    ),
    ("missions.size", "18 missions", rl(missions=[(m, 3) for m in p.MISSIONS[:6]])),
    (
        "missions.size",
        "an efreet among the missions",
        rl(missions=[(m, 3) for m in p.MISSIONS] + [("Tigercat", 1)]),
    ),
    (
        "missions.copies",
        "4 Hardened Bunker",
        rl(missions=p.replace([(m, 3) for m in p.MISSIONS], "Bridge", ("Bridge", 4))),
    ),
    (
        "critical_hits.size",
        "15 critical hits",
        rl(critical_hits=[(c, 4) for c in p.CRITICAL_HITS[:3]] + [("Pilot Injured", 3)]),
    ),
    ("scenario.red_line", "4 missions", scenario(RED_LINE[:4])),
    ("scenario.red_line", "6 missions", scenario(RED_LINE + [(p.MISSIONS[5], 1)])),
    ("scenario.red_line", "no red line", scenario(None)),
    (
        "arsenal.resources",
        "21 resources",
        rl(
            arsenal=p.replace(RL_ARSENAL, "Supply Drop", ("Supply Drop", 21))
            + [("Forward Base", 3)]
        ),
    ),
    (
        "arsenal.mix",
        "22 efreets, 4 tactics",
        rl(arsenal=p.replace(RL_ARSENAL, "Smoke Screen", ("Lancer", 4))[:-1] + [("Jackal", 2)]),
    ),
    # Tactical Assault
    (
        "deck.size",
        "71 cards",
        Case("tactical-assault", "standard", lambda: p.ta_deck(deck=p.TA_DECK[:-1])),
    ),
    (
        "deck.unique",
        "number 5 twice",
        Case(
            "tactical-assault",
            "standard",
            lambda: p.ta_deck(
                deck=p.replace(
                    p.replace(p.TA_DECK, p.combat_card_name(5), (p.combat_card_name(5), 2)),
                    p.combat_card_name(6),
                )
            ),
        ),
    ),
    (
        "force.points",
        "38 points",
        Case(
            "tactical-assault", "standard", lambda: p.ta_deck(force=p.TA_FORCE + [("Infantry", 1)])
        ),
    ),
    (
        "force.points",
        "custom 50 exceeded",
        Case(
            "tactical-assault",
            "custom",
            lambda: p.ta_deck(force=p.TA_FORCE + [("Armored", 3)], points=50),
        ),
    ),
    (
        "force.empty",
        "only off-battlefield and immobile units",
        Case(
            "tactical-assault",
            "standard",
            lambda: p.ta_deck(force=[("Artillery", 4), ("Aerial", 6), ("Bunker", 6)]),
        ),
    ),
    (
        "force.under",
        "30 of 36 points",
        Case("tactical-assault", "standard", lambda: p.ta_deck(force=TA_FORCE_30)),
    ),
    # Red Code
    (
        "match.sides",
        "2 against 1",
        Case("red-code", "arena", lambda: p.rc_deck(red=[("Red Submarine", 1)])),
    ),
    ("match.sides", "no players", Case("red-code", "arena", lambda: p.rc_deck(blue=[], red=[]))),
    (
        "match.sides",
        "3 against 2",
        Case(
            "red-code",
            "arena",
            lambda: p.rc_deck(
                blue=[("Blue Submarine", 1), ("Blue Destroyer", 1), ("Blue Carrier", 1)]
            ),
        ),
    ),
    (
        "match.ships",
        "a red ship on blue",
        Case(
            "red-code",
            "arena",
            lambda: p.rc_deck(
                blue=[("Blue Submarine", 1), ("Blue Destroyer", 1), ("Red Destroyer", 1)]
            ),
        ),
    ),
    (
        "match.unique_class",
        "two blue destroyers",
        Case(
            "red-code",
            "arena",
            lambda: p.rc_deck(blue=[("Blue Destroyer", 1), ("Blue Destroyer II", 1)]),
        ),
    ),
    (
        "map.layout",
        "start card out of its corner",
        Case("red-code", "arena", lambda: p.rc_deck(options={"map": BAD_LAYOUT}), p.RC_CARDS),
    ),
    (
        "map.layout",
        "2 rows",
        Case(
            "red-code",
            "arena",
            lambda: p.rc_deck(options={"map": {"seed": 1, "rows": LAYOUT["rows"][:2]}}),
            p.RC_CARDS,
        ),
    ),
    (
        "orders.size",
        "29 orders",
        Case(
            "red-code",
            "war",
            lambda: p.rc_deck(orders=[("Captain", 10), ("Mechanic", 10), ("Kamikaze", 9)]),
        ),
    ),
    (
        "orders.size",
        "31 orders as an option",
        Case("red-code", "war", lambda: p.rc_deck(options={"orders": {"Captain": 31}})),
    ),
    # Red Mittens
    (
        "units.size",
        "19 units",
        _rm(units=[(f"Mitten Knight {i}", 4) for i in range(1, 5)] + [("Mitten Knight 5", 3)]),
    ),
    (
        "items.size",
        "21 items",
        _rm(items=[(f"Woollen Blade {i}", 4) for i in range(1, 5)] + [("Woollen Blade 5", 5)]),
    ),
    ("fields.size", "no field deck", _rm(fields=[])),
    (
        "deck.kind",
        "an item beside a full unit deck",
        _rm(units=[(f"Mitten Knight {i}", 4) for i in range(1, 6)] + [("Woollen Blade 1", 1)]),
    ),
    # Hex Skirmish
    (
        "army.points",
        "65 points",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(cards=[("Advance", 10), ("Strike", 10), ("Rally Cry", 10)]),
        ),
    ),
    (
        "army.cards",
        "29 command cards",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(cards=[("Advance", 10), ("Hold", 9), ("Rally Cry", 10)]),
        ),
    ),
    (
        "army.units",
        "one unit",
        Case("hex-skirmish", "standard", lambda: p.hs_deck(units=[("Rider", 1, (0, 0))])),
    ),
    (
        "army.deployment",
        "two units on one hex",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(units=[("Spearman", 1, (1, 1)), ("Archer", 1, (1, 1))]),
        ),
    ),
    (
        "army.deployment",
        "a unit off the own half",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(units=[("Spearman", 1, (1, 1)), ("Archer", 1, (3, 8))]),
        ),
    ),
    (
        "army.deployment",
        "an unplaced unit",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(units=[("Spearman", 1, (1, 1)), ("Archer", 1)]),
        ),
    ),
    (
        "army.collection",
        "one Spearman owned",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(
                collection={"Spearman": 1, "Archer": 1, "Advance": 10, "Hold": 10, "Rally Cry": 10}
            ),
        ),
    ),
]

TA_FORCE_30 = [("Armored", 2), ("Mechanized", 2), ("Infantry", 3), ("Recon", 2)]  # 30 points

# The codes the game spec names, with their severities.
GAMES_MD_CODES: dict[str, dict[str, str]] = {
    "redline": {
        **dict.fromkeys(
            [
                "arsenal.size",
                "arsenal.general",
                "arsenal.faction",
                "arsenal.copies",
                "arsenal.kind",
                "missions.size",
                "missions.copies",
                "critical_hits.size",
                "scenario.red_line",
            ],
            "error",
        ),
        "arsenal.resources": "warning",
        "arsenal.mix": "warning",
    },
    "tactical-assault": {
        **dict.fromkeys(["deck.size", "deck.unique", "force.points", "force.empty"], "error"),
        "force.under": "warning",
    },
    "red-code": dict.fromkeys(
        ["match.sides", "match.ships", "match.unique_class", "map.layout", "orders.size"], "error"
    ),
    "red-mittens": dict.fromkeys(["units.size", "items.size", "fields.size", "deck.kind"], "error"),
    "hex-skirmish": dict.fromkeys(
        ["army.points", "army.cards", "army.units", "army.deployment", "army.collection"], "error"
    ),
}


def run(case: Case):
    return validate(case.game, case.format, case.deck(), cards=case.cards)


@pytest.mark.parametrize("name", list(LEGAL))
def test_legal_deck_has_no_violation(name):
    report = run(LEGAL[name])
    assert report.codes() == set(), report.as_dict()
    assert report.legal


@pytest.mark.parametrize(
    ("code", "case"),
    [(code, case) for code, _why, case in BREAKS],
    ids=[f"{code}: {why}" for code, why, _case in BREAKS],
)
def test_breaking_one_rule_gives_exactly_its_code(code, case):
    report = run(case)
    assert report.codes() == {code}, report.as_dict()
    severity = GAMES_MD_CODES[case.game][code]
    assert report.legal is (severity == "warning")
    found = report.errors if severity == "error" else report.warnings
    assert found and all(v.severity == severity and v.message for v in found)


def test_every_games_md_code_has_a_breaking_case():
    covered = {(case.game, code) for code, _why, case in BREAKS}
    for game, codes in GAMES_MD_CODES.items():
        for code in codes:
            assert (game, code) in covered, (game, code)


@pytest.mark.parametrize("game", list(GAMES_MD_CODES))
def test_formats_declare_every_games_md_code_with_its_severity(game):
    g = registry.get(game)
    declared: dict[str, set[str]] = {}
    for fmt in g.formats.values():
        for rule in fmt.rules:
            declared.setdefault(rule.code, set()).add(rule.severity)
    for code, severity in GAMES_MD_CODES[game].items():
        assert declared.get(code) == {severity}, code


# Boundary decks that pass the rule named (they may break nothing else either).
PASSES: list[tuple[str, str, Case]] = [
    (
        "arsenal.copies",
        "30 basic supply drops",
        rl(arsenal=p.replace(RL_ARSENAL, "Supply Drop", ("Supply Drop", 24))),
    ),
    (
        "arsenal.faction",
        "neutral cards with a une general",
        rl(arsenal=p.replace(RL_ARSENAL, "Rally", ("Ambush", 0), ("Lancer", 2))),
    ),
    (
        "arsenal.resources",
        "22 resources",
        rl(
            arsenal=p.replace(RL_ARSENAL, "Supply Drop", ("Supply Drop", 22))
            + [("Forward Base", 2)]
        ),
    ),
    (
        "missions.size",
        "exactly 20 missions",
        rl(missions=p.replace([(m, 3) for m in p.MISSIONS], "Bridge", ("Bridge", 2))),
    ),
    ("missions.copies", "3 copies", rl(missions=[(m, 3) for m in p.MISSIONS])),
    ("force.points", "exactly 50 in custom", LEGAL["tactical-assault/custom-50"]),
    (
        "force.empty",
        "one unit on the battlefield",
        Case(
            "tactical-assault",
            "standard",
            lambda: p.ta_deck(
                force=[("Artillery", 4), ("Aerial", 6), ("Bunker", 5), ("Infantry", 1)]
            ),
        ),
    ),
    (
        "match.sides",
        "1 against 1",
        Case(
            "red-code",
            "arena",
            lambda: p.rc_deck(blue=[("Blue Carrier", 1)], red=[("Red Carrier", 1)]),
        ),
    ),
    (
        "army.units",
        "exactly 2 units",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(units=[("Spearman", 1, (0, 0)), ("Spearman", 1, (7, 7))]),
        ),
    ),
    (
        "army.points",
        "exactly 50 points",
        Case(
            "hex-skirmish",
            "standard",
            lambda: p.hs_deck(
                units=p.HS_UNITS + [("Spearman", 1, (4, 4))],
                cards=[("Advance", 10), ("Hold", 10), ("Rally Cry", 10), ("Strike", 0)],
            ),
        ),
    ),
]


@pytest.mark.parametrize(
    ("code", "case"),
    [(code, case) for code, _why, case in PASSES],
    ids=[f"{code}: {why}" for code, why, _case in PASSES],
)
def test_boundary_deck_passes_the_rule(code, case):
    report = run(case)
    assert code not in report.codes(), report.as_dict()


def test_messages_state_the_limit_and_the_gap():
    arsenal = p.replace(RL_ARSENAL, "Ambush", ("Ambush", 5), ("Tigercat", 1))
    report = validate("redline", "standard", p.redline_deck(arsenal=arsenal))
    messages = {v.code: v for v in report.errors}
    assert messages["arsenal.copies"].message == "5 copies of Ambush; at most 4"
    assert messages["arsenal.copies"].cards == ("Ambush",)
    assert messages["arsenal.size"].message == "62 cards in the arsenal; exactly 60"
    force = p.TA_FORCE + [("Infantry", 1)]
    report = validate("tactical-assault", "standard", p.ta_deck(force=force))
    assert report.errors[0].message == "38 force points; at most 36"


def test_two_broken_rules_give_both_codes_and_every_copy_violation():
    arsenal = p.replace(RL_ARSENAL, "Ambush", ("Ambush", 6), ("Blood Oath", 1))
    arsenal = p.replace(arsenal, "Smoke Screen", ("Smoke Screen", 5))
    report = validate("redline", "standard", p.redline_deck(arsenal=arsenal))
    assert report.codes() == {"arsenal.size", "arsenal.copies", "arsenal.faction"}
    copies = sorted(v.cards for v in report.errors if v.code == "arsenal.copies")
    assert copies == [("Ambush",), ("Smoke Screen",)]


def test_missing_optional_sections_are_not_checked_but_empty_ones_are_absent_too():
    report = run(rl(missions=[], critical_hits=[]))
    assert report.legal and not report.codes()


def test_custom_points_come_from_the_deck_but_standard_ignores_them():
    force = p.TA_FORCE + [("Behemoth", 1), ("Mechanized", 2)]  # 50 points
    assert validate("tactical-assault", "custom", p.ta_deck(force=force, points=50)).legal
    report = validate("tactical-assault", "standard", p.ta_deck(force=force, points=50))
    assert report.codes() == {"force.points"}
    report = validate("tactical-assault", "custom", p.ta_deck(force=force, points="lots"))
    assert report.codes() == {"force.points"}
    assert "positive whole number" in report.errors[0].message


def test_map_layout_without_the_card_pool_is_reported_not_skipped():
    report = validate("red-code", "arena", p.rc_deck(options={"map": LAYOUT}))
    assert report.codes() == {"map.layout"}
    assert "cannot be checked" in report.errors[0].message
