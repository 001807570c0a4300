"""What the decklists services raise."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class ProblemEntry(TypedDict):
    """One problem of a refused list: its field, code and message, and for an unknown card
    the names closest to it."""

    field: str
    code: str
    message: str
    suggestions: NotRequired[list[str]]


class DecklistInvalid(Exception):
    """Bad input: `errors` maps a field to its messages (the API's 400, a form's errors).
    `suggestions` maps a field to the card names closest to an unknown one."""

    def __init__(
        self, errors: dict[str, list[str]], suggestions: dict[str, list[str]] | None = None
    ) -> None:
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors
        self.suggestions = suggestions or {}

    def items(self) -> list[ProblemEntry]:
        """The errors as problem entries: field, code, message (and suggestions)."""
        out: list[ProblemEntry] = []
        for field, messages in self.errors.items():
            for message in messages:
                entry: ProblemEntry = {"field": field, "code": "invalid", "message": message}
                if field in self.suggestions:
                    entry["code"] = "unknown_card"
                    entry["suggestions"] = list(self.suggestions[field])
                out.append(entry)
        return out


class PublishRefused(DecklistInvalid):
    """A list that is not legal today (or has no saved version): nothing is published.
    `problems` are the rules' messages."""

    def __init__(self, problems: list[str], *, field: str = "deck") -> None:
        super().__init__({field: problems})
        self.problems = problems


class NotAllowed(Exception):
    """The user may not do this (comment without a saved deck, hide a comment of someone
    else's decklist); the message says why."""
