"""A body over the limit is the documented 413 problem; routing and the method are checked
before the rate limit; /tune/ on a missing deck is a 404 like /simulations/."""

from __future__ import annotations

import pytest
from rest_framework.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db


def test_a_body_over_the_limit_is_a_413_problem(client, settings):
    body = '{"list": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 400_000) + '"}'
    response = client.post("/api/validate/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["type"].endswith("too-large") and problem["status"] == 413
    assert problem["errors"][0]["field"] == "body"
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes" in problem["errors"][0]["message"]


def test_a_method_the_route_lacks_is_a_405_even_over_the_rate(client, user, redline_deck):
    ScopedRateThrottle.THROTTLE_RATES = {**ScopedRateThrottle.THROTTLE_RATES, "simulate": "1/min"}
    client.force_login(user)
    url = f"/api/decks/{redline_deck.pk}/tune/"
    client.post(url, {}, content_type="application/json")
    assert client.post(url, {}, content_type="application/json").status_code == 429
    assert client.generic("TRACE", url).status_code == 405
    assert client.put(url, {}, content_type="application/json").status_code == 405


@pytest.mark.parametrize("body", [{}, {"candidates": {"query": "a"}}])
def test_tune_on_a_missing_deck_is_a_404_like_simulations(client, user, body):
    client.force_login(user)
    tune = client.post("/api/decks/999999/tune/", body, content_type="application/json")
    simulations = client.post("/api/decks/999999/simulations/", {}, content_type="application/json")
    assert tune.status_code == simulations.status_code == 404
    assert tune.json()["detail"] == simulations.json()["detail"] == "no such deck"


def test_tune_on_a_deck_of_another_players_is_a_404(client, other_user, redline_deck):
    client.force_login(other_user)
    body = {"candidates": {"query": "a"}}
    url = f"/api/decks/{redline_deck.pk}/tune/"
    assert client.post(url, body, content_type="application/json").status_code == 404
