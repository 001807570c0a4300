"""Rules read as the rulebooks write them (docs/architecture.md, "Rulebook readings")."""

from __future__ import annotations

import pytest

from tests.validation import pools as p
from validation.runner import validate


def _scenario(red_line, style=None, **changes):
    deck = p.redline_deck(red_line=red_line, **changes)
    if style is not None:
        deck.options = {"red_line_style": style}
    return validate("redline", "scenario", deck)


RED_LINE = [(m, 1) for m in p.MISSIONS[:5]]


# --- REDLINE Scenario Play: the two styles of red line --------------------------------------


def test_pre_determined_red_line_may_repeat_a_mission():
    # "both players agree to battle over a set layout of 5 mission cards": five cards, no
    # word of them being different (a shuffled mission deck of 3 copies can flip the same
    # mission twice onto an ordinary red line).
    line = RED_LINE[:3] + [(p.MISSIONS[0], 1), (p.MISSIONS[1], 1)]
    report = _scenario(line)
    assert report.legal, report.errors


def test_pre_determined_red_line_need_not_come_from_the_mission_deck():
    report = _scenario(RED_LINE, missions=None)
    assert report.legal, report.errors


@pytest.mark.parametrize("n", [4, 6])
def test_pre_determined_red_line_is_five_missions(n):
    line = [(m, 1) for m in p.MISSIONS[:n]]
    report = _scenario(line, "pre_determined")
    assert "scenario.red_line" in report.codes()
    assert any("exactly 5" in v.message for v in report.errors)


def test_pre_determined_is_the_default_and_requires_the_red_line():
    report = _scenario(None)
    assert "scenario.red_line" in report.codes()
    assert _scenario(RED_LINE).legal


def test_on_the_spot_takes_no_red_line_section():
    report = _scenario(None, "on_the_spot")
    assert report.legal, report.errors


def test_on_the_spot_with_a_red_line_section_is_an_error():
    report = _scenario(RED_LINE, "on_the_spot")
    assert not report.legal
    [v] = [v for v in report.errors if v.code == "scenario.red_line"]
    assert v.section == "red_line"
    assert "on the spot" in v.message and "setup" in v.message


def test_on_the_spot_mission_deck_still_follows_its_rules():
    report = _scenario(None, "on_the_spot", missions=[(m, 3) for m in p.MISSIONS[:6]])
    assert "missions.size" in report.codes()


def test_unknown_red_line_style_is_an_error_that_names_the_choices():
    report = _scenario(RED_LINE, "random")
    assert not report.legal
    [v] = [v for v in report.errors if v.code == "format.option"]
    assert "red_line_style" in v.message
    assert "pre_determined" in v.message and "on_the_spot" in v.message


def test_red_line_style_is_adjustable_only_in_scenario():
    from validation.registry import registry

    game = registry.get("redline")
    assert "red_line_style" in game.format("scenario").adjustable
    assert game.format("scenario").options["red_line_style"] == "pre_determined"
    assert game.format("scenario").choices["red_line_style"] == ("pre_determined", "on_the_spot")
    deck = p.redline_deck()
    deck.options = {"red_line_style": "on_the_spot"}
    assert validate("redline", "standard", deck).legal


# --- Tactical Assault: the elimination threshold per format ---------------------------------


TA_30 = [("Armored", 2), ("Mechanized", 2), ("Infantry", 3), ("Recon", 2)]  # 30 unit points


@pytest.mark.parametrize(
    ("fmt", "force", "options", "points", "threshold"),
    [
        # Part VI: "One Side Has Had 18 Unit Points Eliminated", whatever the force's points
        ("standard", None, None, 36, 18),
        ("standard", TA_30, None, 30, 18),
        # Part II: "One Side Has Had Half Of Their Unit Points Eliminated"
        ("custom", TA_30, {"points": 50}, 30, 15),
        (
            "custom",
            TA_30 + [("Behemoth", 1), ("Mechanized", 3), ("Infantry", 1)],
            {"points": 50},
            50,
            25,
        ),
        ("campaign", None, None, 36, 18),
        ("campaign", TA_30, {"points": 30}, 30, 15),
    ],
)
def test_elimination_threshold_per_format(fmt, force, options, points, threshold):
    deck = p.ta_deck(force=force) if force else p.ta_deck()
    deck.options = options or {}
    totals = validate("tactical-assault", fmt, deck).totals
    assert (totals["points"], totals["elimination_threshold"]) == (points, threshold)
    basis = totals["elimination_basis"]
    assert ("Part VI" in basis) == (fmt == "standard")
