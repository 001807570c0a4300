"""A card added to a deck from the card's page: one copy, in the section the builder would
put it in, saved as a new version of one of the owner's decks or as a new deck's first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from decks.lists import as_sections, entries_from_json
from decks.lists.edits import apply_change, sections_for
from validation.registry import registry

from .versions import deck_create, deck_save_version

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from catalogue.models import Card
    from decks.models import Deck


def deck_add_card(
    *, owner: User, card: Card, deck: Deck | None = None, format: str = ""
) -> tuple[Deck, str]:
    """Add one copy of `card` (a catalogue card, with its game) to `deck`, one of `owner`'s
    decks of the card's game, or (no deck) to a new deck of `format` that holds only it.

    The card goes in the format's main section when that section takes it, else in the first
    that does; the list is changed as the builder changes it (`apply_change`) and saved as a
    new version based on the current one. Returns (the deck, the label of the section).
    Raises ValueError when no section of the format takes the card (or the format is not
    the game's), VersionConflict when the deck was saved meanwhile, ListInvalid when the
    list cannot be saved."""
    game = registry.get(card.game.slug)
    fmt_slug = deck.format if deck is not None else format
    fmt = game.format(fmt_slug)
    sections = sections_for(card, fmt)
    if not sections:
        raise ValueError(f"{card.name} goes in no section of a {fmt.name} deck")
    main = fmt.main_section
    section = main if main in sections else sections[0]
    if deck is None:
        deck = deck_create(
            owner=owner,
            game_slug=game.slug,
            format=fmt_slug,
            name=f"My {game.name.split(':')[0]} {fmt.name.lower()} deck",
            sections={section: [{"card": card.name, "count": 1}]},
        )
    else:
        base = deck.current_version
        entries = apply_change(
            entries_from_json(base.entries) if base else [],
            {"op": "add", "section": section, "card": card.name},
            fmt.section_names,
        )
        deck_save_version(
            deck=deck,
            author=owner,
            sections=as_sections(entries),
            options=dict(base.options) if base else {},
            based_on=base,
        )
    return deck, game.section_label(section)
