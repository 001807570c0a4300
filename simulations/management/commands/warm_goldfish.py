"""Play a few games of every game's goldfish once, before the site serves: a goldfish whose
kernel is compiled on first use (and cached on disk) compiles now, not in the first player's
request. Run by `make run` after the sample data is loaded; in production, once at deploy
(docs/operations.md). It never fails the start: a goldfish that cannot be warmed is named and
skipped."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from decks.models import Deck
from simulations import pipeline
from validation.registry import registry

#: Games played to warm a goldfish: enough to run every code path of its kernel once.
WARM_GAMES = 20


class Command(BaseCommand):
    help = "Play a few games of every goldfish so that compiled kernels are ready."

    def handle(self, *args, **options):
        for game in registry.all():
            goldfish = game.goldfish
            if goldfish is None:
                continue
            started = time.perf_counter()
            try:
                version = None
                if goldfish.prepare is not None:
                    deck = (
                        Deck.objects.filter(game__slug=game.slug, current_version__isnull=False)
                        .select_related("current_version", "game")
                        .order_by("pk")
                        .first()
                    )
                    if deck is None:
                        self.stdout.write(f"{game.name}: no saved deck to warm the goldfish with")
                        continue
                    version = deck.current_version
                defaults = pipeline.clean_goldfish_params(goldfish, {}, check=False)
                params = {**defaults, "games": min(WARM_GAMES, defaults.get("games") or WARM_GAMES)}
                inputs = pipeline.build_inputs(
                    goldfish, game_slug=game.slug, params=params, deck_version=version
                )
                pipeline.play_inline(goldfish, inputs, params, seed=1)
            except Exception as exc:  # noqa: BLE001 - warming is best effort; never stop a start
                self.stdout.write(f"{game.name}: goldfish not warmed ({exc})")
                continue
            self.stdout.write(
                f"{game.name}: goldfish ready ({time.perf_counter() - started:.1f} s)"
            )
