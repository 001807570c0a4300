"""The sample decklists of a fresh install: the example lists shipped with the sample data
(one per format of each game) published as decklists through the publishing service, shared
between the demo account and a second sample author, with a few likes, the demo account
following the other author and a comment on a decklist of each game. Finding decklists by
card, the popular lists, the authors' pages and follows then show something from the first
minute. Each decklist says in its description that it is sample data, and so does the
comment.

Running it again adds nothing: a sample deck already published by its author is kept as it
is, and the likes, the follow and the comments are made only with the decklists they go with,
so that what people have done since (a like taken back, a comment deleted) stays done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from catalogue.services import sample_deck_files
from validation.packages import SampleList
from validation.registry import registry

from .from_decks import Deck, publish_sample_decks, sample_deck_name
from .models import Decklist
from .services import (
    PublishRefused,
    author_follow,
    comment_post,
    decklist_like,
    decklist_publish,
)

#: The second author of the sample decklists (an account nobody can sign in to).
SAMPLE_AUTHOR = "sample-author"
SAMPLE_NOTE = (
    "*Sample data:* an example list shipped with Cardsite and published when the site was "
    "set up, to show what a decklist looks like."
)
SAMPLE_COMMENT = (
    "*Sample data:* a comment shipped with Cardsite, to show what a discussion looks like. "
    "Nice curve; what would you change against a faster list?"
)


@dataclass
class PublishedLists:
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def sample_author():
    """The second sample author: made once, with no password one could sign in with."""
    user, created = get_user_model().objects.get_or_create(
        username=SAMPLE_AUTHOR,
        defaults={"email": f"{SAMPLE_AUTHOR}@example.com", "first_name": "Sample author"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _shares(files: list[SampleList], demo, other) -> list[tuple[SampleList, Any]]:
    """Each example list with its author: a game's lists in turn, by format, to the demo
    account and the other author (a game with one format: the demo account's)."""
    by_game: dict[str, list[SampleList]] = {}
    for sample in files:
        by_game.setdefault(sample.game, []).append(sample)
    shares = []
    for slug in sorted(by_game):
        for i, sample in enumerate(sorted(by_game[slug], key=lambda s: s.format)):
            shares.append((sample, demo if i % 2 == 0 else other))
    return shares


def _description(deck) -> str:
    return f"{SAMPLE_NOTE}\n\n{deck.description}".strip()


def publish_sample_decklists(*, demo, files: list[SampleList] | None = None) -> PublishedLists:
    """Publish the example lists as decklists of `demo` and of the sample author (their
    public sample decks are made first where missing), each once; the likes, follow and
    comments go with the decklists published now."""
    other = sample_author()
    result = PublishedLists()
    new: list[Decklist] = []
    for sample, author in _shares(files if files is not None else sample_deck_files(), demo, other):
        made = publish_sample_decks(owner=author, files=[sample])
        result.failed.extend(made.failed)
        if sample.game not in registry:
            continue
        game = registry.get(sample.game)
        if sample.format not in game.formats:
            continue
        name = sample_deck_name(game.name, game.format(sample.format).name)
        deck = (
            Deck.objects.filter(
                owner=author, game__slug=sample.game, format=sample.format, name=name
            )
            .order_by("pk")
            .first()
        )
        if deck is None:
            continue
        if Decklist.objects.filter(deck=deck, author=author).exists():
            result.kept.append(f"{name} ({author.username})")
            continue
        try:
            new.append(
                decklist_publish(
                    deck=deck, author=author, name=deck.name, description=_description(deck)
                )
            )
        except PublishRefused as exc:
            result.failed.append(f"{name} ({author.username}): " + "; ".join(exc.problems))
            continue
        result.created.append(f"{name} ({author.username})")
    _react(new, demo=demo, other=other)
    return result


def _react(new: list[Decklist], *, demo, other) -> None:
    """Each new decklist liked by the other account, the first of each game by the demo
    account commented on by the sample author, and the demo account following them."""
    if not new:
        return
    with transaction.atomic():
        commented: set[int] = set()
        for decklist in new:
            liker = other if decklist.author_id == demo.pk else demo
            decklist_like(decklist=decklist, user=liker)
            if decklist.author_id == demo.pk and decklist.game_id not in commented:
                commented.add(decklist.game_id)
                comment_post(decklist=decklist, author=other, text=SAMPLE_COMMENT)
        if any(d.author_id == other.pk for d in new):
            author_follow(author=other, follower=demo)
