"""The example lists shipped with the sample data, published as public decks of one account
(the demo account of `make run`), so that a fresh install's public decks are not empty.

A list's comment lines may give a format option the format lets a deck adjust
("points: 50"): the deck is saved with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalogue.services import sample_deck_files
from validation.packages import SampleList
from validation.registry import registry

from . import services
from .list_header import header_options
from .models import Deck, Visibility


def _description(text: str) -> str:
    lines = [
        line.lstrip()[1:].strip() for line in text.splitlines() if line.lstrip().startswith("#")
    ]
    return "\n".join(line for line in lines if line)[:5000]


@dataclass(frozen=True)
class Published:
    created: list[str]
    kept: list[str]
    failed: list[str]


def sample_deck_name(game_name: str, format_name: str) -> str:
    return f"{game_name.split(':')[0]} {format_name} sample"


def publish_sample_decks(*, owner, files: list[SampleList] | None = None) -> Published:
    """Save each shipped example list as a public deck of `owner`, once: a deck of the same
    game, format and name that `owner` has already is kept as it is."""
    created: list[str] = []
    kept: list[str] = []
    failed: list[str] = []
    for sample in files if files is not None else sample_deck_files():
        slug, fmt_slug = sample.game, sample.format
        if slug not in registry or fmt_slug not in registry.get(slug).formats:
            failed.append(f"{slug}/{fmt_slug}: no such game and format")
            continue
        game = registry.get(slug)
        fmt = game.format(fmt_slug)
        name = sample_deck_name(game.name, fmt.name)
        if Deck.objects.filter(owner=owner, game__slug=slug, format=fmt_slug, name=name).exists():
            kept.append(name)
            continue
        text = sample.text()
        try:
            services.deck_create(
                owner=owner,
                game_slug=slug,
                format=fmt_slug,
                name=name,
                description=_description(text),
                visibility=Visibility.PUBLIC,
                text=text,
                options=header_options(text, fmt),
            )
        except services.ListInvalid as exc:
            failed.append(f"{name}: " + "; ".join(e["message"] for e in exc.errors))
            continue
        created.append(name)
    return Published(created, kept, failed)
