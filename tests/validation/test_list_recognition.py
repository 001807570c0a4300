"""Which game a list is of, read from its section headers and card names (no Django): the
game knowing the most headers, then the one holding the most names; ties and lists of no
game recognise nothing and say why; the formats are those whose sections fit."""

from __future__ import annotations

from validation.decklist import Outline, fitting_formats, outline, recognise
from validation.packages import all_sample_lists
from validation.registry import registry


def test_an_outline_reads_headers_and_names_without_a_game():
    text = (
        "# Deck: x\nUnits:\n1 Line Infantry @3,1\n2x Lancers (HS1)\n// note\nCommand cards:\n"
        "2 March  # a comment\nnot a card line\n"
    )
    assert outline(text) == Outline(
        headers=("units", "command_cards"), names=("Line Infantry", "Lancers", "March")
    )


def test_every_sample_list_is_recognised_as_its_game_by_its_headers_alone():
    games = registry.all()
    for sample in all_sample_lists():
        found = recognise(outline(sample.text()), games, {})
        if found.game is None:
            # Only a list whose headers two games share needs its card names.
            assert sample.game in {g.slug for g in found.tied}, sample
            found = recognise(outline(sample.text()), games, {sample.game: 1})
        assert found.game is not None and found.game.slug == sample.game, sample
        assert sample.format in {f.slug for f in found.formats}, sample


def test_card_names_decide_between_games_whose_headers_fit_alike():
    games = registry.all()
    listed = Outline(headers=("units",), names=("A", "B"))
    tied = recognise(listed, games, {})
    assert tied.game is None and "alike" in tied.problem
    assert {g.slug for g in tied.tied} == {"red-mittens", "hex-skirmish"}
    assert recognise(listed, games, {"hex-skirmish": 2, "red-mittens": 1}).game.slug == (
        "hex-skirmish"
    )


def test_a_list_of_no_game_says_so():
    found = recognise(Outline(headers=("sideboard",), names=("Nothing",)), registry.all(), {})
    assert found.game is None and found.tied == ()
    assert found.problem == "its sections and card names are of no game the site knows"


def test_the_formats_are_those_whose_sections_hold_the_lists():
    redline = registry.get("redline")
    assert [f.slug for f in fitting_formats(Outline(headers=("red_line",)), redline)] == [
        "scenario"
    ]
    plain = fitting_formats(Outline(headers=("general", "arsenal")), redline)
    assert [f.slug for f in plain] == list(redline.formats)
