"""The deck-list text format: parsing, resolving names, the JSON form and export."""

from __future__ import annotations

import pytest

from tests.validation import pools as p
from validation.decklist import ListLine, export, parse, parse_sections, resolve
from validation.registry import registry
from validation.runner import validate

RL = registry.get("redline")
HS = registry.get("hex-skirmish")

EXAMPLE = """\
# REDLINE standard — comment lines start with # or //
General:
1 General Jeffrey Moore
Arsenal:
4 Tigercat
24 Supply Drop
Missions:
3 Hardened Bunker (RL1)
"""


def test_the_games_md_example_parses():
    result = parse(EXAMPLE, RL)
    assert result.errors == []
    assert result.lines == [
        ListLine(3, "general", 1, "General Jeffrey Moore"),
        ListLine(5, "arsenal", 4, "Tigercat"),
        ListLine(6, "arsenal", 24, "Supply Drop"),
        ListLine(8, "missions", 3, "Hardened Bunker", "RL1"),
    ]


@pytest.mark.parametrize(
    "header",
    ["Critical hits:", "critical_hits:", "CRITICAL HITS:", "Critical-hits :", "Critical hit deck:"],
)
def test_headers_match_case_insensitively_with_spaces_or_underscores(header):
    result = parse(f"{header}\n4 Reactor Breach\n", RL)
    assert result.errors == []
    assert result.lines[0].section == "critical_hits"


@pytest.mark.parametrize(
    "line",
    [
        "4 Tigercat",
        "4x Tigercat",
        "4X Tigercat",
        "4 x Tigercat",
        "  4   Tigercat  ",
        "4 Tigercat // my favourite",
        "4 Tigercat # note",
    ],
)
def test_count_forms_and_trailing_comments(line):
    result = parse(f"Arsenal:\n{line}\n", RL)
    assert result.errors == []
    assert [(x.count, x.name) for x in result.lines] == [(4, "Tigercat")]


def test_comments_and_blank_lines_are_skipped():
    text = "\n# a comment\n// another\nArsenal:\n\n   \n2 Tigercat\n"
    result = parse(text, RL)
    assert result.errors == [] and len(result.lines) == 1


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("0 Tigercat", "bad count 0; at least 1"),
        ("-2 Tigercat", "bad count -2; at least 1"),
        ("four Tigercat", "bad count 'four'"),
        ("Tigercat", "has no count"),
        ("4", "no card name"),
        ("100000 Tigercat", "at most"),
    ],
)
def test_bad_counts_are_errors_naming_the_line(line, fragment):
    result = parse(f"Arsenal:\n{line}\n", RL)
    assert result.lines == []
    assert len(result.errors) == 1
    assert result.errors[0].line == 2
    assert fragment in result.errors[0].message
    assert result.errors[0].message.startswith("Line 2:")


def test_a_card_line_before_any_header_is_an_error():
    result = parse("4 Tigercat\nArsenal:\n4 Warhound\n", RL)
    assert [e.line for e in result.errors] == [1]
    assert "before any section header" in result.errors[0].message
    assert [x.name for x in result.lines] == ["Warhound"]


def test_an_unknown_section_suggests_the_closest_and_its_lines_are_reported():
    result = parse("Arsenl:\n4 Tigercat\nMisions:\n1 Bridge\n", RL)
    assert result.lines == []
    assert [e.line for e in result.errors] == [1, 2, 3, 4]
    assert result.errors[0].suggestions[0] == "arsenal"
    assert result.errors[2].suggestions[0] == "missions"
    assert "unknown section 'Arsenl'" in result.errors[0].message


def test_placements_in_hex_skirmish():
    result = parse("Units:\n1 Spearman @3,4\n1 Archer @ 0 , 7\nCards:\n10 Advance\n", HS)
    assert result.errors == []
    assert [x.placement for x in result.lines] == [(3, 4), (0, 7), None]


@pytest.mark.parametrize("suffix", ["@3", "@a,b", "@3,4,5", "@", "@3;4"])
def test_malformed_placements_are_errors(suffix):
    result = parse(f"Units:\n1 Spearman {suffix}\n", HS)
    assert result.lines == []
    assert "malformed placement" in result.errors[0].message


def test_a_placement_outside_a_placement_section_is_an_error():
    assert "only in units" in parse("Cards:\n1 Advance @1,1\n", HS).errors[0].message
    assert "not in REDLINE" in parse("Arsenal:\n1 Tigercat @1,1\n", RL).errors[0].message


def test_resolve_matches_names_case_insensitively_and_merges_identical_lines():
    result = parse("Arsenal:\n2 tigercat\n2x TIGERCAT (RL2)\n24 Supply Drop\n", RL)
    deck, errors = resolve(result.lines, p.REDLINE_CARDS)
    assert errors == []
    assert [(e.card.name, e.count) for e in deck.section("arsenal")] == [
        ("Tigercat", 4),
        ("Supply Drop", 24),
    ]


def test_resolve_ignores_case_spacing_and_punctuation():
    lines = parse("Arsenal:\n1 Tiger-Cat\n1 SPARROW hawk.\n", RL).lines
    deck, errors = resolve(lines, p.REDLINE_CARDS)
    assert errors == []
    assert [e.card.name for e in deck.section("arsenal")] == ["Tigercat", "Sparrowhawk"]


@pytest.mark.parametrize(
    ("written", "meant"),
    [("sparrow", "Sparrowhawk"), ("Tigerca", "Tigercat"), ("Laser", "Laser Lance")],
)
def test_a_name_that_is_only_the_beginning_of_a_card_is_unknown_and_suggests_it(written, meant):
    lines = parse(f"Arsenal:\n4 Tigercat\n1 {written}\n", RL).lines
    deck, errors = resolve(lines, p.REDLINE_CARDS)
    assert [e.line for e in errors] == [3]
    assert f"unknown card {written!r}" in errors[0].message
    assert errors[0].suggestions[0] == meant
    assert (errors[0].name, errors[0].section) == (written, "arsenal")
    assert deck.count("arsenal") == 4


def test_an_unknown_name_names_the_line_and_suggests_the_closest():
    lines = parse("Arsenal:\n4 Tigercat\n4 Tigrcat\n", RL).lines
    deck, errors = resolve(lines, p.REDLINE_CARDS)
    assert len(errors) == 1
    assert errors[0].line == 3
    assert errors[0].suggestions[0] == "Tigercat"
    assert "unknown card 'Tigrcat'" in errors[0].message and "did you mean Tigercat" in (
        errors[0].message
    )
    assert deck.count("arsenal") == 4


def test_the_beginning_of_several_names_is_unknown_and_suggests_them():
    lines = parse("Arsenal:\n1 General\n", RL).lines
    _deck, errors = resolve(lines, p.REDLINE_CARDS)
    assert errors[0].suggestions[:2] == ("General Mara Voss", "General Jeffrey Moore")
    assert "unknown card 'General'" in errors[0].message


def test_a_name_of_two_cards_up_to_punctuation_lists_the_candidates():
    cards = p.pool(p.REDLINE_CARDS["tigercat"], p.CardFacts("Tiger-Cat", "efreet", "une"))
    _deck, errors = resolve(parse("Arsenal:\n1 tiger cat\n", RL).lines, cards)
    assert errors[0].suggestions == ("Tiger-Cat", "Tigercat")
    assert "matches several cards" in errors[0].message


def test_a_name_that_ends_in_brackets_is_not_lost_as_an_expansion_code():
    cards = p.pool(
        p.REDLINE_CARDS["tigercat"], p.CardFacts("Bunker (Large)", "strategy", "neutral")
    )
    deck, errors = resolve(parse("Arsenal:\n1 Bunker (Large)\n", RL).lines, cards)
    assert errors == [] and deck.section("arsenal")[0].card.name == "Bunker (Large)"


def test_same_unit_on_two_hexes_stays_two_entries():
    text = "Units:\n1 Spearman @1,1\n1 Spearman @2,1\n1 Spearman @1,1\n"
    deck, errors = resolve(parse(text, HS).lines, p.HS_CARDS)
    assert errors == []
    assert [(e.count, e.placement) for e in deck.section("units")] == [(2, (1, 1)), (1, (2, 1))]


@pytest.mark.parametrize(
    "make",
    [
        lambda: (registry.get("redline"), p.redline_deck()),
        lambda: (registry.get("hex-skirmish"), p.hs_deck()),
        lambda: (registry.get("tactical-assault"), p.ta_deck()),
        lambda: (registry.get("red-code"), p.rc_deck()),
    ],
)
def test_export_then_parse_and_resolve_gives_the_same_deck(make):
    game, deck = make()
    pool = {**p.REDLINE_CARDS, **p.HS_CARDS, **p.TA_CARDS, **p.RC_CARDS}
    text = export(deck, game)
    result = parse(text, game)
    assert result.errors == []
    again, errors = resolve(result.lines, pool)
    assert errors == []
    assert again.sections == deck.sections


def test_export_writes_sections_in_the_games_order():
    deck = p.redline_deck()
    deck.sections = dict(reversed(list(deck.sections.items())))
    text = export(deck, RL)
    headers = [line for line in text.splitlines() if line.endswith(":")]
    assert headers == ["General:", "Arsenal:", "Missions:", "Critical hits:"]
    assert "1 Spearman @1,1" in export(p.hs_deck(), HS)


def test_parse_sections_gives_the_same_lines_as_text():
    data = {
        "units": [
            {"card": "Spearman", "count": 1, "hex": [1, 1]},
            {"card": "Archer", "hex": [3, 0]},
        ],
        "Command cards": [{"card": "Advance", "count": 10}],
    }
    result = parse_sections(data, HS)
    assert result.errors == []
    assert result.lines == [
        ListLine(0, "units", 1, "Spearman", "", (1, 1)),
        ListLine(1, "units", 1, "Archer", "", (3, 0)),
        ListLine(0, "cards", 10, "Advance"),
    ]
    deck, errors = resolve(result.lines, p.HS_CARDS)
    assert errors == [] and deck.count("cards") == 10


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"unitz": []}, "unknown section"),
        ({"units": "Spearman"}, "expected a list"),
        ({"units": ["Spearman"]}, "expected"),
        ({"units": [{"count": 1}]}, "no card name"),
        ({"units": [{"card": "Spearman", "count": 0}]}, "bad count 0"),
        ({"units": [{"card": "Spearman", "count": True}]}, "bad count True"),
        ({"units": [{"card": "Spearman", "count": "2"}]}, "bad count '2'"),
        ({"units": [{"card": "Spearman", "hex": [1]}]}, "malformed hex"),
        ({"cards": [{"card": "Advance", "hex": [1, 1]}]}, "not used"),
    ],
)
def test_parse_sections_errors(data, fragment):
    result = parse_sections(data, HS)
    assert result.lines == []
    assert fragment in result.errors[0].message


def test_a_parsed_list_validates_end_to_end():
    text = (
        export(p.redline_deck(), RL).replace("4 Ambush", "5 Ambush").replace("2 Rally", "1 Rally")
    )
    deck, errors = resolve(parse(text, RL).lines, p.REDLINE_CARDS)
    assert errors == []
    report = validate(RL, "standard", deck)
    assert report.codes() == {"arsenal.copies"}


def test_expansion_codes_are_checked_when_the_expansions_are_given():
    expansions = {"RL1": frozenset({"Tigercat"}), "RL2": frozenset({"Tigercat", "Sparrowhawk"})}
    text = "Arsenal:\n1 Tigercat (rl1)\n1 Sparrowhawk (RL1)\n1 Tigercat (ZZZ)\n"
    deck, errors = resolve(
        parse(text, RL).lines, p.REDLINE_CARDS, expansions=expansions, game_name="REDLINE"
    )
    assert [(e.line, e.message, e.suggestions) for e in errors] == [
        (3, "Line 3: Sparrowhawk is not in expansion RL1; it is in RL2", ("RL2",)),
        (4, "Line 4: no expansion ZZZ in REDLINE; Tigercat is in RL1, RL2", ("RL1", "RL2")),
    ]
    assert deck.count("arsenal") == 1
    # without the expansions (a pure check of names) the codes are not looked at
    _deck, errors = resolve(parse(text, RL).lines, p.REDLINE_CARDS)
    assert errors == []
