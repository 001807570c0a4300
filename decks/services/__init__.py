"""Deck services, one module per job:

- `lists`: reading a list (text or JSON sections) against the catalogue and checking it with
  the rules core (`list_check`, `deck_from_list`);
- `versions`: decks and their versions (create, save, autosave, seal, update, share links,
  delete, clone);
- `rechecks`: re-checking saved decks against today's catalogue, each under its rule set
  (its pin, or the one in effect today);
- `recheck_jobs`: re-checking a format's saved decks on the workers, in chunks, and the
  notices to their owners (`recheck_start`);
- `freshness`: the day a rule set comes into force, a page re-checks at once the decks it
  shows whose verdict is under the rule set of the day before (`decks_refresh`);
- `rulesets`: a deck and its format's rule sets (follow or pin, the upcoming rule set's
  effect on it);
- `collection`: a player's collection and importing it;
- `options`: the deck options the rules core sees (the collection restriction);
- `errors`: what the services raise.

Services are named by verb and take keyword arguments; views and API classes parse input,
call one service and render. Permission scoping is the caller's job and is done in the
query (`Deck.objects.visible_to(user)` / `.owned_by(user)`): a service trusts the objects
it is handed. The names below are the package's public interface.
"""

from .collection import collection_import, collection_set
from .errors import DeckInvalid, ListInvalid, VersionConflict
from .freshness import decks_refresh, is_stale, only_fresh, with_in_force
from .lists import (
    IN_FORCE,
    CheckedList,
    chosen_rule_set,
    deck_from_list,
    deck_rule_set,
    list_check,
    list_recognise,
)
from .options import COLLECTION_OPTION, clean_collection_option, collection_counts, rules_options
from .rechecks import RuleSetCache, deck_revalidate, revalidate_game_decks, version_check
from .rulesets import (
    DeckRuleSets,
    Effect,
    deck_legality,
    deck_pin,
    deck_rule_sets,
    effect_of,
)
from .versions import (
    WORKING_WINDOW_SECONDS,
    _entries,
    deck_autosave,
    deck_clone,
    deck_create,
    deck_delete,
    deck_new_share_link,
    deck_save_version,
    deck_seal_version,
    deck_update,
    entries_as_sections,
)

__all__ = [
    "decks_refresh",
    "is_stale",
    "only_fresh",
    "with_in_force",
    "COLLECTION_OPTION",
    "IN_FORCE",
    "RuleSetCache",
    "DeckRuleSets",
    "Effect",
    "deck_legality",
    "deck_pin",
    "deck_rule_sets",
    "effect_of",
    "chosen_rule_set",
    "deck_rule_set",
    "WORKING_WINDOW_SECONDS",
    "CheckedList",
    "DeckInvalid",
    "ListInvalid",
    "VersionConflict",
    "_entries",
    "clean_collection_option",
    "collection_counts",
    "collection_import",
    "collection_set",
    "deck_autosave",
    "deck_clone",
    "deck_create",
    "deck_delete",
    "deck_from_list",
    "deck_new_share_link",
    "deck_revalidate",
    "deck_save_version",
    "deck_seal_version",
    "deck_update",
    "entries_as_sections",
    "list_check",
    "list_recognise",
    "revalidate_game_decks",
    "rules_options",
    "version_check",
]
