"""Red Mittens goldfish: a deck whose result is known, through the kind, a simulation run
and the page."""

from __future__ import annotations

import pytest

from decks.selectors import version_entries
from validation.games.red_mittens import simulation
from validation.games.red_mittens.simulation import GOLDFISH

from .conftest import giant_units_deck

pytestmark = pytest.mark.django_db


def deck_inputs(deck):
    """The goldfish's inputs of a deck's current version, read from the catalogue."""
    return GOLDFISH.prepare(
        version_entries(version=deck.current_version, sections=GOLDFISH.sections)
    )


def test_units_of_atk_20_kill_on_turn_one(user, sample_catalogue):
    """Every unit has 20 atk and items add 0 or more: the unit flipped ACTIVE at setup
    attacks for at least 20 on turn 1, the opponent's 20 LP. The hand holds 6 cards, so the
    Cardinal Rule plays exactly one (a field, the cheapest), and the dice is never rolled."""
    deck = giant_units_deck(user)
    inputs = deck_inputs(deck)
    assert len(inputs["units"]) == 20 and len(inputs["items"]) == 20
    chunks = [
        GOLDFISH.run_chunk(inputs, {"games": 300, "max_turns": 10}, 5, i, 3) for i in range(3)
    ]
    assert [c.games for c in chunks] == [100, 100, 100]
    summary = GOLDFISH.summarise(GOLDFISH.merge(chunks), inputs)
    assert summary["games"] == 300
    assert summary["dead_on_turn"] == [300]
    assert summary["p_dead_by_turn"] == [1.0]
    assert summary["mean_dead_turn"] == 1.0
    assert summary["mean_cards_played_per_turn"] == 1.0
    assert summary["dice_rolls"] == 0
    # Chunks merge into exactly the unsplit run.
    whole = simulation.play(inputs, games=300, seed=5, max_turns=10)
    assert GOLDFISH.summarise(whole, inputs) == summary


def test_goldfish_run_through_the_simulations_app(user, sample_catalogue):
    from simulations import kinds
    from simulations.services import simulation_run_chunk, simulation_start

    kind = kinds.get("red-mittens-goldfish")
    assert kind.goldfish is GOLDFISH
    assert kind.needs_deck and kind in kinds.for_game("red-mittens")
    deck = giant_units_deck(user)
    run = simulation_start(
        owner=user, kind=kind.slug, params={"games": 200}, deck_version=deck.current_version
    )
    for i in range(run.n_chunks):
        simulation_run_chunk(run_id=run.pk, chunk_index=i)
    run.refresh_from_db()
    assert run.status == "done", run.error
    summary = run.results["summary"]
    assert summary["p_dead_by_turn"] == [1.0]
    assert [c["id"] for c in GOLDFISH.charts(summary)] == [
        "rm-dead-turn",
        "rm-cards-played",
        "rm-dice",
    ]
    dead_turn = next(m for m in GOLDFISH.metrics if m.key == "dead_turn")
    assert dead_turn.format(dead_turn.value(summary)) == "1.00"
    assert dict(GOLDFISH.key_figures(summary))["Median turn the opponent reaches 0 LP"] == "1"


def test_a_deck_without_units_cannot_be_played():
    from validation.capabilities import InputsError

    with pytest.raises(InputsError, match="the deck has no units: there is nothing to attack"):
        GOLDFISH.prepare({"units": [], "items": [], "fields": []})


def test_weak_units_take_longer(user, sample_catalogue):
    deck = giant_units_deck(user, atk=1)
    inputs = deck_inputs(deck)
    summary = GOLDFISH.summarise(simulation.play(inputs, games=50, seed=1, max_turns=40), inputs)
    assert summary["mean_dead_turn"] is None or summary["mean_dead_turn"] > 1


def test_goldfish_page(client, user, sample_catalogue):
    deck = giant_units_deck(user)
    client.force_login(user)
    page = client.get("/play/red-mittens/goldfish/", {"deck": deck.pk})
    assert page.status_code == 200
    assert f'value="{deck.pk}" selected' in page.content.decode()
    response = client.post(
        "/play/red-mittens/goldfish/",
        {"deck": deck.pk, "games": 100, "seed": 3, "max_turns": 10},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<th scope="row">Turn the opponent reaches 0 LP</th><td>1.00</td>' in html
    assert "<svg" in html
    # Other users do not see a private deck.
    from django.contrib.auth import get_user_model

    bob = get_user_model().objects.create_user("carol", "c@example.com", "a-long-pass-000")
    client.force_login(bob)
    response = client.post(
        "/play/red-mittens/goldfish/", {"deck": deck.pk, "games": 10, "max_turns": 10}
    )
    assert response.status_code == 400
    assert "Giants" not in response.content.decode()
    assert "is not one of the decks of this game you can open" in response.content.decode()


def test_a_large_goldfish_from_the_page_hands_off_to_a_worker_with_a_link(
    client, user, sample_catalogue
):
    """Above the inline limit the htmx form gets its result panel back with a link to the
    run, not the whole run page swapped into the panel; without htmx, a redirect."""
    from simulations.models import SimulationRun

    deck = giant_units_deck(user)
    client.force_login(user)
    games = GOLDFISH.inline_max + 1
    data = {"deck": deck.pk, "games": games, "seed": 3, "max_turns": 10}
    response = client.post("/play/red-mittens/goldfish/", data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    run = SimulationRun.objects.get(owner=user)
    assert response.status_code == 200
    assert html.startswith('<div id="goldfish-result"') and "<html" not in html
    assert f'id="run-link" href="{run.get_absolute_url()}"' in html
    response = client.post("/play/red-mittens/goldfish/", data)
    latest = SimulationRun.objects.filter(owner=user).order_by("-pk").first()
    assert response.status_code == 302 and response["Location"] == latest.get_absolute_url()


def test_a_large_goldfish_needs_a_signed_in_user(client, user, sample_catalogue):
    from decks.models import Visibility

    deck = giant_units_deck(user)
    deck.visibility = Visibility.PUBLIC
    deck.save(update_fields=["visibility"])
    data = {"deck": deck.pk, "games": GOLDFISH.inline_max + 1, "max_turns": 10}
    response = client.post("/play/red-mittens/goldfish/", data)
    assert response.status_code == 403
    assert "sign in to start one" in response.content.decode()
    fine = client.post("/play/red-mittens/goldfish/", {**data, "games": 20})
    assert fine.status_code == 200 and 'id="goldfish-figures"' in fine.content.decode()
