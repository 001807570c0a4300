"""The runner: reports, totals, sections the format does not use."""

from __future__ import annotations

import json

import pytest

from tests.validation import pools as p
from validation.registry import registry
from validation.rules import CopyLimit, ExactSize, RuleContext
from validation.runner import SECTION_CODE, Report, validate
from validation.types import Deck, Violation, violation


def test_report_as_dict_is_json_ready():
    arsenal = p.replace(p.redline_sections()["arsenal"], "Ambush", ("Ambush", 5))
    report = validate("redline", "standard", p.redline_deck(arsenal=arsenal))
    data = json.loads(json.dumps(report.as_dict()))
    assert set(data) == {"legal", "errors", "warnings", "totals", "rule_set"}
    assert data["rule_set"] is None
    assert data["legal"] is False
    assert {e["code"] for e in data["errors"]} == {"arsenal.size", "arsenal.copies"}
    assert set(data["errors"][0]) == {"code", "severity", "message", "section", "cards", "lines"}


def test_warnings_do_not_make_a_deck_illegal():
    report = Report(legal=True, warnings=[Violation("x", "y", "warning")])
    assert report.legal and report.codes() == {"x"}


def test_redline_totals():
    totals = validate("redline", "standard", p.redline_deck()).totals
    assert totals["sections"] == {"general": 1, "arsenal": 60, "missions": 21, "critical_hits": 16}
    assert (totals["resources"], totals["efreets"], totals["equipment"], totals["tactics"]) == (
        24,
        16,
        10,
        10,
    )
    assert totals["general"] == "General Jeffrey Moore" and totals["faction"] == "une"


def test_section_counts_are_always_there_even_for_absent_sections():
    totals = validate("redline", "scenario", Deck()).totals
    assert totals["sections"] == dict.fromkeys(
        ["general", "arsenal", "red_line", "missions", "critical_hits"], 0
    )


def test_tactical_assault_totals_show_the_elimination_threshold():
    totals = validate("tactical-assault", "standard", p.ta_deck()).totals
    assert (totals["points"], totals["limit"], totals["elimination_threshold"]) == (36, 36, 18)
    force = p.TA_FORCE + [("Behemoth", 1), ("Mechanized", 2)]
    totals = validate("tactical-assault", "custom", p.ta_deck(force=force, points=50)).totals
    assert (totals["points"], totals["limit"], totals["elimination_threshold"]) == (50, 50, 25)
    totals = validate("tactical-assault", "custom", p.ta_deck(force=[("Recon", 1)])).totals
    assert totals["elimination_threshold"] == 1.5


def test_hex_skirmish_totals():
    totals = validate("hex-skirmish", "standard", p.hs_deck()).totals
    assert totals["points"] == 35 and totals["limit"] == 50
    assert totals["command_cards"] == 30 and totals["units"] == 3


def test_red_code_totals():
    totals = validate("red-code", "arena", p.rc_deck()).totals
    assert (totals["blue"], totals["red"], totals["players"]) == (2, 2, 4)


def test_a_section_the_format_does_not_use_is_an_error():
    deck = p.redline_deck(red_line=[(m, 1) for m in p.MISSIONS[:5]])
    report = validate("redline", "standard", deck)
    assert report.codes() == {SECTION_CODE}
    assert "does not use a red_line section" in report.errors[0].message


def test_a_section_the_game_does_not_have_is_an_error():
    deck = p.redline_deck()
    deck.sections["sideboard"] = list(deck.sections["missions"][:1])
    report = validate("redline", "standard", deck)
    assert report.codes() == {SECTION_CODE}
    assert report.errors[0].cards == ("Hardened Bunker",)


def test_a_card_of_the_wrong_kind_in_the_force_gives_section_kind():
    force = p.TA_FORCE + [(p.combat_card_name(1), 1)]
    report = validate("tactical-assault", "standard", p.ta_deck(force=force))
    assert report.codes() == {"section.kind"}


def test_validate_accepts_a_game_definition_or_a_slug():
    deck = p.redline_deck()
    assert (
        validate(registry.get("redline"), "standard", deck).as_dict()
        == validate("redline", "standard", deck).as_dict()
    )


def test_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError):
        validate("chess", "standard", Deck())


def test_validate_does_not_change_the_deck():
    deck = p.hs_deck(collection={"Spearman": 1})
    before = (repr(deck.sections), repr(deck.options))
    validate("hex-skirmish", "standard", deck)
    assert (repr(deck.sections), repr(deck.options)) == before


def _ctx() -> RuleContext:
    game = registry.get("redline")
    return RuleContext(game, game.format("standard"), {})


def test_copy_limit_counts_one_card_across_lines_and_sections():
    deck = p.build(
        p.REDLINE_CARDS,
        {"arsenal": [("Tigercat", 3), ("Tigercat", 2)], "missions": [("Tigercat", 1)]},
    )
    rule = CopyLimit(("arsenal", "missions"), 4, code="x")
    assert [v.message for v in rule.check(deck, _ctx())] == ["6 copies of Tigercat; at most 4"]


def test_exact_size_with_kinds_reports_strays_under_its_own_code():
    deck = p.build(p.REDLINE_CARDS, {"arsenal": [("Tigercat", 3), ("Bridge", 1)]})
    rule = ExactSize("arsenal", 3, kinds=("efreet",), code="x")
    violations = rule.check(deck, _ctx())
    assert [v.cards for v in violations] == [("Bridge",)]


def test_a_formats_plan_is_worked_out_once_and_follows_its_rules():
    fmt = registry.get("redline").format("scenario")
    plan = fmt.plan
    validate("redline", "scenario", p.redline_deck())
    assert fmt.plan is plan  # the same object for every deck checked
    assert [check.__self__ for check, _, _ in plan.rules] == list(fmt.rules)
    assert [(present, cost) for _, present, cost in plan.rules] == [
        (r.when_present, r.reads_cost) for r in fmt.rules
    ]
    assert plan.sections == frozenset(fmt.section_names)
    assert plan.choice_keys == ("red_line_style",)
    assert [t.name for t in plan.tallies] == list(fmt.section_names)


def test_a_rule_context_counts_a_sections_kinds_once():
    game = registry.get("redline")
    deck = p.redline_deck()
    ctx = RuleContext(game, game.format("standard"), {}, None, deck)
    first = ctx.kind_counts(deck, "arsenal")
    assert ctx.kind_counts(deck, "arsenal") is first
    other = p.redline_deck()
    assert ctx.kind_counts(other, "arsenal") is not first  # another deck is counted afresh
    assert ctx.kind_counts(other, "arsenal") == first


def test_a_violation_made_by_the_rules_helper_is_the_dataclass_s_own():
    made = violation(
        "arsenal.copies", "5 copies of Tigercat; at most 4", "error", "arsenal", ("Tigercat",)
    )
    plain = Violation(
        "arsenal.copies", "5 copies of Tigercat; at most 4", "error", "arsenal", ("Tigercat",)
    )
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert made.lines == () and made.as_dict() == plain.as_dict()
    with pytest.raises(AttributeError):  # still frozen
        made.code = "x"  # type: ignore[misc]
