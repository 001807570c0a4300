"""Comparisons and the tuner on a Hex Skirmish army and a Red Mittens deck: their goldfish
pair games too, so the same pages and API serve them."""

from __future__ import annotations

import pytest

from simulations.models import SimulationRun
from tests.simulations.conftest import copy_of
from tests.simulations.test_compare import play_all

pytestmark = pytest.mark.django_db


def test_an_army_compared_with_its_copy_is_not_distinguishable(client, user, hex_deck):
    client.force_login(user)
    twin = copy_of(hex_deck)
    r = client.post(
        "/api/simulations/compare/",
        {"a": {"deck": hex_deck.pk}, "b": {"deck": twin.pk}, "params": {"games": 20_000}},
        content_type="application/json",
    )
    assert r.status_code == 202, r.content
    run = play_all(SimulationRun.objects.get(pk=r.json()["id"]))
    diffs = run.results["differences"]
    assert {d["metric"] for d in diffs} == {"played_by_5", "played_on_1", "idle_actions"}
    assert not any(d["distinguishable"] for d in diffs)
    # identical armies play every game alike: equivalent after the first round of two
    assert run.results["games"] == 10_000
    assert run.results["stopped"] == "interval inside the equivalence margin"


def test_tuning_an_army_races_its_legal_command_card_swaps(client, user, hex_deck):
    client.force_login(user)
    r = client.post(
        f"/api/decks/{hex_deck.pk}/tune/",
        {"candidates": {"query": "Total War"}, "max_games": 4_000, "seed": 3},
        content_type="application/json",
    )
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    swaps = run.inputs["swaps"]
    assert swaps and all(s["add"] == "Total War" and s["section"] == "cards" for s in swaps)
    run = play_all(run)
    results = client.get(f"/api/simulations/{run.pk}/").json()["results"]
    assert results["suggestions"] or results["verdict"].startswith("No swap beats")
    for s in results["suggestions"]:
        assert s["effect"] > 0 and s["ci_low"] > 0  # more cards played by turn 5


def test_the_tune_form_of_an_army_shows_no_other_games_card_kind(client, user, hex_deck):
    client.force_login(user)
    form = client.get(f"/simulations/decks/{hex_deck.pk}/tune/").content.decode()
    assert 'id="tune-query"' in form and 'placeholder="Name, words or key:value' in form
    assert "kind:resource" not in form  # a REDLINE kind: an army has no resources


def test_a_red_mittens_deck_compared_with_its_copy(client, user, sample_catalogue, make_deck):
    deck = make_deck(user, game="red-mittens", fmt="core", name="Mittens")
    twin = copy_of(deck)
    client.force_login(user)
    r = client.post(
        "/api/simulations/compare/",
        {"a": {"deck": deck.pk}, "b": {"deck": twin.pk}, "params": {"games": 400}},
        content_type="application/json",
    )
    assert r.status_code == 202, r.content
    run = play_all(SimulationRun.objects.get(pk=r.json()["id"]))
    diffs = {d["metric"]: d for d in run.results["differences"]}
    assert set(diffs) == {"dead_by_5", "dead_turn"}
    assert all(d["difference"] == 0 and not d["distinguishable"] for d in diffs.values())
    bad = client.post(
        "/api/simulations/compare/",
        {"a": {"deck": deck.pk}, "b": {"deck": twin.pk}, "metric": "cards_per_turn"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "game by game" in bad.content.decode()
