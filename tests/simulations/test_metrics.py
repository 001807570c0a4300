"""Metrics declared by each goldfish: the run page and the comparison of two runs list
them (label, value, which way is better) from the game's declaration."""

from __future__ import annotations

import pytest

from simulations import kinds
from tests.simulations.test_pages_api import done_run
from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_every_deck_goldfish_declares_metrics_with_unique_keys():
    goldfish = [g.goldfish for g in registry if g.goldfish is not None]
    assert len(goldfish) >= 3
    for g in goldfish:
        keys = [m.key for m in g.metrics]
        assert keys and len(keys) == len(set(keys)), g.slug
        assert g.headline is g.metrics[0]
        for m in g.metrics:
            assert m.better in ("higher", "lower") and m.label and m.unit


def test_the_run_page_lists_the_goldfish_metrics(client, user, redline_deck):
    run = done_run(redline_deck, games=4_000, turns=8)
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    summary = run.results["summary"]
    for m in kinds.get("redline-goldfish").goldfish.metrics:
        assert f'id="metric-{m.key}"' in html, m.key
        assert m.label in html
        assert m.format(m.value(summary)) in html
    won = summary["figures"]["win_turn_hist"]["cumulative"][7]
    assert f"{won * 100:.1f}%" in html


def test_a_metric_of_a_later_turn_than_the_run_plays_is_left_out(client, user, redline_deck):
    run = done_run(redline_deck, games=2_000, turns=5)
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    assert 'id="metric-won_by_8"' not in html and 'id="metric-stuck_on_4"' in html


def test_hex_skirmish_run_page_lists_its_metrics(client, user, hex_deck):
    run = done_run(hex_deck, kind="hex-skirmish-goldfish")
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    for m in kinds.get("hex-skirmish-goldfish").goldfish.metrics:
        assert f'id="metric-{m.key}"' in html, m.key


def test_the_comparison_of_two_runs_shows_each_metric_and_its_difference(
    client, user, redline_deck, make_deck
):
    other = make_deck(user, fmt="scramble", name="Other deck")
    a, b = done_run(redline_deck, seed=1), done_run(other, seed=2)
    client.force_login(user)
    html = client.get(f"/simulations/compare/?a={a.pk}&b={b.pk}").content.decode()
    metric = kinds.get("redline-goldfish").goldfish.metrics[0]
    va = metric.value(a.results["summary"])
    vb = metric.value(b.results["summary"])
    assert 'id="compare-metric-won_by_8"' in html
    assert metric.format_difference(vb - va) in html


def test_the_kinds_api_lists_the_metrics(client):
    body = client.get("/api/simulations/kinds/").json()
    redline = next(k for k in body if k["slug"] == "redline-goldfish")
    assert redline["metrics"][0]["key"] == "won_by_8" and redline["pairs"] is True
    assert {"key", "label", "unit", "better", "proportion"} <= set(redline["metrics"][0])
