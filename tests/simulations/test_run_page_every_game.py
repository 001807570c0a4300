"""A finished goldfish run's page shows every metric its goldfish declares, for every game
with a goldfish (a metric reads the run's summary, whatever shape each figure has there)."""

import html

import pytest

from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_every_games_run_page_shows_its_metrics(sample_catalogue, django_user_model, client):
    from decks.models import Deck
    from decks.samples import publish_sample_decks
    from simulations import kinds, services
    from simulations.services import simulation_run_chunk

    user = django_user_model.objects.create_user("demo", "demo@example.com", "pw-12345678x")
    publish_sample_decks(owner=user)
    client.force_login(user)
    played = 0
    for game in registry.all():
        deck = Deck.objects.filter(owner=user, game__slug=game.slug).order_by("pk").first()
        kind = next((k for k in kinds.for_game(game.slug) if k.needs_deck), None)
        if kind is None or deck is None:
            continue
        params = kind.defaults()
        if "games" in params:
            params["games"] = 100
        run = services.simulation_start(
            owner=user, kind=kind, params=params, deck_version=deck.current_version, seed=1
        )
        for i in range(run.n_chunks):
            simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
        response = client.get(f"/simulations/{run.pk}/")
        assert response.status_code == 200, game.slug
        page = html.unescape(response.content.decode())
        for metric in kind.goldfish.metrics:
            assert metric.label in page, (game.slug, metric.label)
        played += 1
    assert played == sum(1 for g in registry.all() if g.goldfish and g.goldfish.prepare)
