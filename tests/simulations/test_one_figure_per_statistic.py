"""A run's page gives each statistic one figure, for every game with a goldfish: a metric is
never restated by a key figure with another value (or the same one); the Play goldfish page
shows the same figures; and a comparison's heading says the games it played, read from its
stored results, not its games limit."""

from __future__ import annotations

import html
import re

import pytest

from tests.simulations.conftest import sample_list
from tests.simulations.test_compare import play_all
from validation.registry import registry

pytestmark = pytest.mark.django_db


def _row_labels(page: str, table: str) -> list[str]:
    """The row labels of a table of the page (a label's small help text left out)."""
    found = re.search(rf'<table id="{table}"[^>]*>(.*?)</table>', page, re.S)
    if found is None:
        return []
    labels = re.findall(r"<tr[^>]*><th[^>]*>(.*?)</th>", found.group(1), re.S)
    return [
        html.unescape(re.sub(r"<br>.*|<[^>]+>", "", label, flags=re.S)).strip() for label in labels
    ]


def _statistic(label: str) -> str:
    """A label with the words that do not change which statistic it is left out: "Mean
    turn X (mean)" and "Turn X" are one statistic."""
    words = re.sub(r"\([^)]*\)", " ", label.lower()).replace("mean", " ").split()
    return " ".join(words)


def _runs(user):
    """A finished run of each game's deck goldfish, on the game's sample deck."""
    from decks.models import Deck
    from decks.samples import publish_sample_decks
    from simulations import kinds, services
    from simulations.services import simulation_run_chunk

    publish_sample_decks(owner=user)
    for game in registry.all():
        deck = Deck.objects.filter(owner=user, game__slug=game.slug).order_by("pk").first()
        kind = next((k for k in kinds.for_game(game.slug) if k.needs_deck), None)
        if kind is None or deck is None:
            continue
        params = kind.defaults()
        params["games"] = 200
        run = services.simulation_start(
            owner=user, kind=kind, params=params, deck_version=deck.current_version, seed=1
        )
        for i in range(run.n_chunks):
            simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
        run.refresh_from_db()
        assert run.status == "done", (game.slug, run.error)
        yield game, kind, deck, run


def test_every_games_run_page_gives_each_statistic_one_figure(
    sample_catalogue, django_user_model, client
):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "pw-12345678x")
    client.force_login(user)
    seen = 0
    for game, kind, _deck, run in _runs(user):
        page = client.get(f"/simulations/{run.pk}/").content.decode()
        metrics = _row_labels(page, "metrics")
        figures = _row_labels(page, "key-figures")
        assert metrics == [
            m.label for m in kind.goldfish.metrics if m.value(run.results["summary"]) is not None
        ]
        statistics = [_statistic(label) for label in metrics + figures]
        doubled = {s for s in statistics if statistics.count(s) > 1}
        assert not doubled, (game.slug, doubled)
        # A metric's figure is its own, with how it is counted beside it.
        for m in kind.goldfish.metrics:
            value = m.value(run.results["summary"])
            if value is not None:
                row = re.search(rf'<tr id="metric-{m.key}">(.*?)</tr>', page, re.S).group(1)
                assert f"<td>{m.format(value)}</td>" in row and html.escape(m.help) in row
        seen += 1
    assert seen == sum(1 for g in registry.all() if g.goldfish is not None)


def test_the_play_goldfish_page_gives_each_statistic_one_figure_the_run_pages_figure(
    sample_catalogue, django_user_model, client
):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "pw-12345678x")
    client.force_login(user)
    played = 0
    for game, kind, deck, run in _runs(user):
        if kind.goldfish.inline_max < run.games:
            continue  # played on a worker: its page is the run page above
        played += 1
        params = {**run.params, "deck": deck.pk, "seed": run.seed}
        answer = client.post(f"/play/{game.slug}/goldfish/", params).content.decode()
        figures = _row_labels(answer, "goldfish-figures")
        statistics = [_statistic(label) for label in figures]
        assert len(statistics) == len(set(statistics)), (game.slug, figures)
        for m in kind.goldfish.metrics:
            if m.value(run.results["summary"]) is not None:
                assert figures.count(m.label) == 1, (game.slug, m.label)
    assert played


def test_a_comparisons_heading_says_the_games_it_played_not_its_limit(
    client, user, sample_catalogue, make_deck
):
    from decks.services import deck_save_version
    from simulations import compare
    from simulations.models import SimulationRun

    deck = make_deck(user, name="Sample")
    starved = (
        sample_list("redline", "standard")
        .replace("20 Supply Drop", "10 Supply Drop")
        .replace("3 Close Call", "13 Close Call")
    )
    deck_save_version(deck=deck, author=user, text=starved, based_on=1)
    a, b = (deck.versions.get(number=n) for n in (1, 2))
    a.deck = b.deck = deck
    run = compare.compare_start(
        owner=user, a=a, b=b, params={"games": 200_000, "turns": 10}, seed=7
    )
    client.force_login(user)
    heading = re.search(
        r'<p class="muted" id="run-heading">(.*?) · seed',
        client.get(run.get_absolute_url()).content.decode(),
        re.S,
    ).group(1)
    assert heading.endswith("at most 200,000 games")
    run = play_all(SimulationRun.objects.get(pk=run.pk))
    played = run.results["games"]
    assert played < 200_000  # the planted difference is found before the limit
    heading = re.search(
        r'<p class="muted" id="run-heading">(.*?) · seed',
        client.get(run.get_absolute_url()).content.decode(),
        re.S,
    ).group(1)
    assert heading.endswith(f"{played:,} games played (at most 200,000)")
