"""The builder's working list is a list of `ListEntry`s: read once from a version's stored
JSON, changed by `apply_change`, and written back as the sections a save takes."""

from __future__ import annotations

import json

import pytest

from decks.lists import ListEntry, as_sections, entries_from_json
from decks.lists.edits import apply_change
from decks.services import entries_as_sections

SECTIONS = ("units", "cards")
STORED = [
    {"section": "units", "card": "Spearman", "count": 1, "placement": [1, 1]},
    {"section": "units", "card": "Spearman", "count": 2},
    {"section": "cards", "card": "Advance", "count": 10},
]


def test_a_stored_list_round_trips_through_its_type():
    entries = entries_from_json(STORED)
    assert entries[0] == ListEntry("units", "Spearman", 1, (1, 1))
    assert entries[0].placement_text == "1,1" and entries[1].placement_text == ""
    assert [e.as_dict() for e in entries] == STORED
    assert entries_from_json(json.loads(json.dumps([e.as_dict() for e in entries]))) == entries


def test_a_change_answers_entries_and_leaves_the_list_it_was_given():
    entries = entries_from_json(STORED)
    added = apply_change(entries, {"op": "add", "section": "cards", "card": "advance"}, SECTIONS)
    assert added[2] == ListEntry("cards", "Advance", 11)
    assert entries == entries_from_json(STORED)
    placed = apply_change(
        entries, {"op": "place", "section": "units", "card": "Spearman", "to": "2,1"}, SECTIONS
    )
    assert placed == [
        ListEntry("units", "Spearman", 1, (1, 1)),
        ListEntry("units", "Spearman", 1),
        ListEntry("cards", "Advance", 10),
        ListEntry("units", "Spearman", 1, (2, 1)),
    ]
    gone = apply_change(
        entries,
        {"op": "set", "section": "units", "card": "Spearman", "count": "0", "placement": "1,1"},
        SECTIONS,
    )
    assert [e.placement for e in gone if e.section == "units"] == [None]
    with pytest.raises(ValueError, match="no Hold to place"):
        apply_change(
            entries, {"op": "place", "section": "cards", "card": "Hold", "to": "1,1"}, SECTIONS
        )


def test_entries_are_saved_in_the_sections_form():
    expected = {
        "units": [
            {"card": "Spearman", "count": 1, "placement": [1, 1]},
            {"card": "Spearman", "count": 2},
        ],
        "cards": [{"card": "Advance", "count": 10}],
    }
    assert as_sections(entries_from_json(STORED)) == expected
    assert entries_as_sections(STORED) == expected
