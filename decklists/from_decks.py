"""What the decklists app reads and calls of the decks app, in one place: its models, the
services named by verb and the selectors. A change to where the decks app keeps them is a
change to these lines only."""

from decks.builder.views.listing import list_view
from decks.lists import ListEntry, SavedList, entries_from_json, version_check
from decks.lists.options import COLLECTION_OPTION
from decks.models import Deck, DeckVersion
from decks.presentation import totals_rows
from decks.samples import publish_sample_decks, sample_deck_name
from decks.selectors import deck_export, version_sections
from decks.services import deck_create, entries_as_sections
from decks.verdicts.rechecks import RuleSetCache

__all__ = [
    "COLLECTION_OPTION",
    "Deck",
    "DeckVersion",
    "ListEntry",
    "RuleSetCache",
    "SavedList",
    "deck_create",
    "deck_export",
    "entries_as_sections",
    "entries_from_json",
    "list_view",
    "publish_sample_decks",
    "sample_deck_name",
    "totals_rows",
    "version_check",
    "version_sections",
]
