"""A format's rule set in the rules core (validation.rulesets): the card pool, bans, limits and
new costs, on top of the format's own rules."""

from __future__ import annotations

from datetime import date

from tests.validation import pools as p
from validation.rulesets import BANNED_CODE, LIMIT_CODE, POOL_CODE
from validation.runner import validate
from validation.types import RuleSetFacts

S2 = dict(code="S2", name="Season 2", effective=date(2027, 1, 1))


def codes(report):
    return sorted(v.code for v in report.errors)


def test_no_rule_set_checks_the_bare_format():
    report = validate("redline", "standard", p.redline_deck())
    assert report.legal and report.rule_set is None
    assert report.as_dict()["rule_set"] is None


def test_an_empty_rule_set_keeps_a_legal_deck_legal_and_is_named():
    report = validate("redline", "standard", p.redline_deck(), rule_set=RuleSetFacts(**S2))
    assert report.legal, report.errors
    assert report.rule_set == "S2" and report.as_dict()["rule_set"] == "S2"


def test_a_banned_card_is_format_banned():
    rs = RuleSetFacts(**S2, banned=frozenset({"tigercat"}))
    report = validate("redline", "standard", p.redline_deck(), rule_set=rs)
    assert codes(report) == [BANNED_CODE]
    (v,) = report.errors
    assert v.message == "Tigercat is banned in S2 (Season 2); 4 copies, none allowed"
    assert v.cards == ("Tigercat",) and v.section == "arsenal"


def test_a_card_outside_the_pool_is_format_pool():
    names = {c.lower() for s in p.redline_sections().values() for c, *_ in s} - {"warhound"}
    rs = RuleSetFacts(**S2, pool=frozenset(names), expansions=("RL1", "RL2"))
    report = validate("redline", "standard", p.redline_deck(), rule_set=rs)
    assert codes(report) == [POOL_CODE]
    assert report.errors[0].message == (
        "Warhound is not in the card pool of S2 (Season 2): it is printed in none of its "
        "expansions (RL1, RL2)"
    )
    # Every card in the pool: legal.
    everyone = RuleSetFacts(**S2, pool=frozenset(names | {"warhound"}), expansions=("RL1",))
    assert validate("redline", "standard", p.redline_deck(), rule_set=everyone).legal


def test_a_limit_below_the_format_limit_is_format_limit_at_the_boundary():
    at = RuleSetFacts(**S2, limits={"tigercat": 4})
    assert validate("redline", "standard", p.redline_deck(), rule_set=at).legal
    under = RuleSetFacts(**S2, limits={"tigercat": 3})
    report = validate("redline", "standard", p.redline_deck(), rule_set=under)
    assert codes(report) == [LIMIT_CODE]
    assert report.errors[0].message == "4 copies of Tigercat; at most 3 in S2 (Season 2)"


def test_the_lower_of_the_rule_set_and_format_limits_holds_under_its_own_code():
    # A rule-set limit above the format's 4: the format's copy rule speaks, not format.limit.
    arsenal = p.replace(p.redline_sections()["arsenal"], "Rally", ("Tigercat", 2))
    rs = RuleSetFacts(**S2, limits={"tigercat": 8})
    report = validate("redline", "standard", p.redline_deck(arsenal=arsenal), rule_set=rs)
    assert codes(report) == ["arsenal.copies"]


def test_a_limit_applies_to_a_card_the_format_leaves_unlimited():
    # Basic supply drops have no format limit; a rule set may still limit them.
    rs = RuleSetFacts(**S2, limits={"supply drop": 20})
    report = validate("redline", "standard", p.redline_deck(), rule_set=rs)
    assert codes(report) == [LIMIT_CODE]
    assert "24 copies of Supply Drop; at most 20" in report.errors[0].message


def test_new_costs_feed_the_points_rule_and_totals_and_say_so():
    deck = p.hs_deck()
    before = validate("hex-skirmish", "standard", deck)
    assert before.legal and before.totals["points"] == 35
    # Archer 5 -> 20 points: 50 army points, at the limit.
    at = RuleSetFacts(**S2, costs={"archer": 20})
    report = validate("hex-skirmish", "standard", deck, rule_set=at)
    assert report.legal and report.totals["points"] == 50
    over = RuleSetFacts(**S2, costs={"archer": 21})
    report = validate("hex-skirmish", "standard", deck, rule_set=over)
    assert codes(report) == ["army.points"]
    assert report.totals["points"] == 51
    assert report.errors[0].message.endswith("; costs of S2 (Season 2): Archer 5 → 21")
    # The caller's deck keeps its printed costs.
    assert {e.card.cost for e in deck.section("units") if e.card.name == "Archer"} == {5}


def test_a_cost_change_of_a_card_not_in_the_deck_changes_nothing():
    rs = RuleSetFacts(**S2, costs={"rider": 40})
    report = validate("hex-skirmish", "standard", p.hs_deck(), rule_set=rs)
    assert report.legal and report.totals["points"] == 35


def test_the_rule_set_codes_are_explained_without_a_rulebook_row():
    from validation.registry import registry
    from validation.rulesets import CODES
    from validation.trace import why

    for game in registry.all():
        for code in CODES:
            found = why(game, code)
            assert found is not None and found.rule and found.source is None, (game.slug, code)
