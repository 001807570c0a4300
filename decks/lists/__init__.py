"""A deck list, read and checked; nothing here writes to the database.

- `check`: reading a list (text or JSON sections) against the catalogue and checking it with
  the rules core (`list_check`, `deck_from_list`), the rule set a check is under
  (`deck_rule_set`, `chosen_rule_set`), and a stored list checked the same way
  (`version_check`);
- `saved`: `SavedList`, a stored list (a deck's version, a decklist, a re-check's row) as
  `version_check` takes it;
- `checked`: `CheckedList`, what a check answers;
- `options`: the deck options the rules core sees (the collection restriction);
- `entries`: `ListEntry`, a line of a version's list as a type (`entries_from_json` reads a
  version's stored lines, `as_sections` writes them in the form a save takes);
- `edits`: one change of the builder's working list (`apply_change`) and the sections a card
  can go in (`sections_for`);
- `errors`: what the deck services raise;
- `holdings`: what the decks app asks of a user's collection (`Holdings`, provided by the
  collection app, a layer above: owned counts, the builder's figures, a deck's availability).

The collection app reads its files' card lines as a list's are read (`lines_read`,
`line_errors`).

The names below are the package's public interface.
"""

from .check import (
    IN_FORCE,
    chosen_rule_set,
    deck_card_names,
    deck_from_list,
    deck_rule_set,
    list_check,
    list_recognise,
    pinned_rule_set,
    version_check,
)
from .check import (
    _line_errors as line_errors,
)
from .check import (
    _read as lines_read,
)
from .checked import CheckedList
from .entries import ListEntry, as_sections, entries_from_json
from .errors import DeckInvalid, ListInvalid, VersionConflict
from .options import COLLECTION_OPTION, clean_collection_option, collection_counts, rules_options
from .saved import SavedList

__all__ = [
    "COLLECTION_OPTION",
    "IN_FORCE",
    "CheckedList",
    "ListEntry",
    "DeckInvalid",
    "ListInvalid",
    "SavedList",
    "VersionConflict",
    "as_sections",
    "chosen_rule_set",
    "clean_collection_option",
    "line_errors",
    "lines_read",
    "collection_counts",
    "deck_card_names",
    "deck_from_list",
    "deck_rule_set",
    "entries_from_json",
    "list_check",
    "list_recognise",
    "pinned_rule_set",
    "rules_options",
    "version_check",
]
