"""The errors deck services raise: a list that cannot be read, a save that lost a race, deck
metadata that cannot be saved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from validation.decklist import LineError

from .checked import CheckedList


class ListInvalid(Exception):
    """The list could not be taken: `line_errors` are the lines that could not be read
    (syntax, unknown cards), by line. When only cards were unknown, the rest was checked:
    `checked` holds that check, and `errors` (what the API answers) lists after the line
    errors every rule problem of the lines that were read, each with its `code` and
    `severity` (and `line`, 0 when it names no line). `unread` are the card lines whose
    card was not identified, as the rules core reports them (with the name as written), for
    the pages' one-click fixes."""

    def __init__(
        self,
        errors: list[dict[str, Any]],
        checked: CheckedList | None = None,
        unread: Sequence[LineError] = (),
    ):
        super().__init__(f"{len(errors)} line error(s)")
        self.line_errors = errors
        self.checked = checked
        self.unread = tuple(unread)
        self.errors = errors + (checked.problem_items() if checked is not None else [])


class VersionConflict(Exception):
    """A save named a base version that is no longer the deck's current one: someone saved
    elsewhere in between. Nothing was written; `current_number` is the version to reload
    (None when the deck has no version yet)."""

    def __init__(self, current_number: int | None):
        super().__init__(f"the deck was saved since (current version {current_number})")
        self.current_number = current_number


class DeckInvalid(ValueError):
    """Deck metadata that cannot be saved (an unknown game or format, a bad visibility):
    `errors` maps field -> messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors
