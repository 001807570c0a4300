"""The exact odds read their arguments with the rules core's parameter machinery
(validation.params, as every goldfish and tool does): bounded, every problem told at once,
named by the argument, and short whatever was sent."""

from __future__ import annotations

import pytest

from simulations import services


def test_an_over_long_number_is_refused_in_a_short_message():
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_at_least(deck_size="9" * 5000, group="1")
    message = exc.value.errors["deck_size"]
    assert message.startswith("deck_size ") and len(message) < 100


def test_a_number_in_other_digits_is_refused():
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_at_least(deck_size="٦٠", group="1")
    assert "whole number" in exc.value.errors["deck_size"]


def test_every_bad_argument_is_told_at_once_with_the_checks_between_them():
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_at_least(deck_size="40", group="41", opening="x", turns="101")
    errors = exc.value.errors
    assert set(errors) == {"group", "opening", "turns"}
    assert "cannot be larger than the deck (40)" in errors["group"]
    assert "between 0 and 100" in errors["turns"]


def test_missing_arguments_take_their_defaults_and_the_deck_and_group_are_required():
    out = services.odds_from_query({"deck_size": "40", "group": "4"})
    assert (out["k"], out["turns"], out["opening"], out["draws_per_turn"]) == (1, 5, 7, 1)
    assert out["on_the_play"] is True and out["first_player_draws"] is True
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_from_query({})
    assert exc.value.errors == {
        "deck_size": "deck_size is required",
        "group": "group is required",
    }


def test_the_odds_take_only_their_own_arguments():
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_at_least(deck_size="40", group="4", hand="7")
    assert exc.value.errors == {"hand": "'hand' is not a parameter of the exact odds"}
