"""Background work for decks. Tasks are thin: they take plain JSON arguments, call one
service and are idempotent, so that a redelivered message (acks_late) does no harm."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="decks.tasks.revalidate_game_decks")
def revalidate_game_decks(game_slug: str) -> int:
    """Re-validate every saved deck of a game after its catalogue changed."""
    from . import services

    return services.revalidate_game_decks(game_slug=game_slug)
