"""The kinds of subject a notice may be about, each with the link to its page, registered by
the app that owns the subject (in its `ready()`: the decks app registers "deck"), so that
this app links to a deck's page without importing the decks app or naming its routes."""

from __future__ import annotations

from collections.abc import Callable

#: The subject kind of a deck. The API's `deck` and `deck_url` name a notice's subject of
#: this kind (they were there before the subject was generic), and `deck=` / `deck_id=`
#: given to the model or a query stand for that subject.
DECK = "deck"

#: A subject kind's link: the path of the page of the subject with that id.
Link = Callable[[int], str]

_links: dict[str, Link] = {}


def register(kind: str, link: Link) -> None:
    """Link the notices about subjects of `kind` to `link(id)` (a second registration of a
    kind replaces the first)."""
    _links[kind] = link


def link(kind: str, subject_id: int) -> str:
    """The path of the page of subject `subject_id` of `kind` ("" for a kind nobody
    registered)."""
    found = _links.get(kind)
    return found(subject_id) if found is not None else ""
