"""Simulation pages and API: permissions, the deck panel, the run and comparison pages,
the exact odds, the schema."""

from __future__ import annotations

import pytest

from simulations import services
from simulations.models import SimulationRun
from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from tests.simulations.conftest import play_inline

pytestmark = pytest.mark.django_db


def done_run(deck, owner=None, seed=3, games=3_000, kind="redline-goldfish", turns=8):
    run = services.simulation_start(
        owner=owner or deck.owner,
        kind=kind,
        params={"games": games, "turns": turns},
        deck_version=deck.current_version,
        seed=seed,
    )
    play_inline(run)
    return run


@pytest.fixture
def api_url(redline_deck):
    return f"/api/decks/{redline_deck.pk}/simulations/"


def test_api_starts_a_run_owned_by_the_user_and_answers_202(
    client, user, redline_deck, api_url, django_capture_on_commit_callbacks, monkeypatch
):
    from cardsite.tasks import run_job_chunk

    sent = []
    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: sent.append(a))
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            api_url,
            {"kind": "redline-goldfish", "params": {"games": 120_000, "turns": 10}, "seed": 5},
            content_type="application/json",
        )
    assert r.status_code == 202, r.content
    body = r.json()
    run = SimulationRun.objects.get(pk=body["id"])
    assert run.owner == user and run.seed == 5 and run.n_chunks == 3
    assert body["status"] == "queued" and body["deck"] == redline_deck.pk and body["version"] == 1
    assert sent == [("simulations.goldfish", run.pk, i) for i in range(3)]


def test_anonymous_cannot_start(client, redline_deck, api_url):
    r = client.post(api_url, {"params": {}}, content_type="application/json")
    assert r.status_code in (401, 403)
    r = client.post(
        f"/simulations/decks/{redline_deck.pk}/start/",
        {"kind": "redline-goldfish", "games": "100"},
    )
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert not SimulationRun.objects.exists()


def test_a_deck_the_user_cannot_read_is_a_404(client, other_user, redline_deck, api_url):
    client.force_login(other_user)
    r = client.post(api_url, {"params": {"games": 100}}, content_type="application/json")
    assert r.status_code == 404
    r = client.post(f"/simulations/decks/{redline_deck.pk}/start/", {"kind": "redline-goldfish"})
    assert r.status_code == 404
    assert client.get(f"/simulations/decks/{redline_deck.pk}/").status_code == 404


def test_a_public_deck_can_be_simulated_by_another_user(client, other_user, redline_deck):
    redline_deck.visibility = "public"
    redline_deck.save()
    client.force_login(other_user)
    r = client.post(
        f"/api/decks/{redline_deck.pk}/simulations/",
        {"params": {"games": 100}},
        content_type="application/json",
    )
    assert r.status_code == 202
    assert SimulationRun.objects.get().owner == other_user


def test_api_errors_are_clear(client, user, redline_deck, api_url):
    client.force_login(user)
    r = client.post(api_url, {"params": {"games": -5}}, content_type="application/json")
    assert r.status_code == 400
    body = r.json()
    assert body["detail"] == "games: Games must be between 1 and 2,000,000; got -5"
    assert body["errors"] == [
        {
            "field": "games",
            "code": "params",
            "message": "Games must be between 1 and 2,000,000; got -5",
        }
    ]
    for _ in range(3):
        assert client.post(api_url, {}, content_type="application/json").status_code == 202
    r = client.post(api_url, {}, content_type="application/json")
    # a cap on runs at once, not a rate limit: 409, how many run and which, no Retry-After
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "too_many_active"
    running = list(SimulationRun.objects.order_by("pk").values_list("pk", flat=True))
    body = r.json()
    assert (body["active_runs"], body["max_active_runs"], body["running"]) == (3, 3, running)
    assert "Retry-After" not in r and "RateLimit-Remaining" in r
    assert r["RateLimit-Remaining"] != "0"


def test_the_api_is_throttled_with_the_simulate_scope(
    client, user, redline_deck, api_url, settings
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "simulate": "2/min",
        },
    }
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    try:
        client.force_login(user)
        codes = [
            client.post(
                api_url, {"params": {"games": 0}}, content_type="application/json"
            ).status_code
            for _ in range(3)
        ]
    finally:
        from rest_framework.settings import api_settings

        ScopedRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    assert codes == [400, 400, 429]


def test_run_read_permissions(client, user, other_user, staff_user, redline_deck):
    run = done_run(redline_deck)
    api = f"/api/simulations/{run.pk}/"
    page = f"/simulations/{run.pk}/"
    assert client.get(api).status_code in (401, 403)
    assert client.get(page).status_code == 404
    client.force_login(other_user)
    assert client.get(api).status_code == 404
    assert client.get(page).status_code == 404
    assert client.get(f"/simulations/{run.pk}/progress/").status_code == 404
    assert client.get(f"/simulations/compare/?a={run.pk}&b={run.pk}").status_code == 404
    assert client.get("/api/simulations/").json()["results"] == []
    client.force_login(staff_user)
    assert client.get(api).status_code == 200
    assert client.get(page).status_code == 200
    client.force_login(user)
    body = client.get(api).json()
    assert body["status"] == "done" and body["progress"] == 1.0
    assert body["summary"]["games"] == 3_000 and body["stats"]["games"] == 3_000
    assert [r["id"] for r in client.get("/api/simulations/").json()["results"]] == [run.pk]


def test_run_page_draws_the_redline_charts(client, user, redline_deck):
    run = done_run(redline_deck)
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    for chart in (
        "opening-resources",
        "resource-deployed",
        "first-efreet",
        "win-turn",
        "win-cumulative",
        "stuck",
    ):
        assert f'id="chart-run{run.pk}-{chart}"' in html, chart
    assert html.count("<svg") >= 6
    assert "<title" in html and "<desc" in html
    assert "Exact (before)" in html  # the hypergeometric overlay
    assert 'hx-trigger="every 1s"' not in html  # done: no polling


def test_run_page_polls_while_queued(client, user, redline_deck):
    run = services.simulation_start(
        owner=user,
        kind="redline-goldfish",
        params={"games": 10},
        deck_version=redline_deck.current_version,
    )
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in html and "<progress" in html
    play_inline(run)
    part = client.get(f"/simulations/{run.pk}/progress/", HTTP_HX_REQUEST="true")
    assert "every 1s" not in part.content.decode() and "<svg" in part.content.decode()


def test_hex_skirmish_run_page(client, user, hex_deck):
    run = done_run(hex_deck, kind="hex-skirmish-goldfish")
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    for chart in ("played", "actions", "deck-out", "first-playable"):
        assert f'id="chart-run{run.pk}-{chart}"' in html, chart
    assert "Turn each card is first playable" in html


def test_compare_page_shows_two_runs_side_by_side(client, user, redline_deck, make_deck):
    other = make_deck(user, fmt="scramble", name="Other deck")
    a, b = done_run(redline_deck, seed=1), done_run(other, seed=2)
    client.force_login(user)
    r = client.get(f"/simulations/compare/?a={a.pk}&b={b.pk}")
    html = r.content.decode()
    assert r.status_code == 200
    assert f"chart-run{a.pk}-win-cumulative" in html and f"chart-run{b.pk}-win-cumulative" in html
    assert "Mean winning turn" in html
    picker = client.get("/simulations/compare/").content.decode()
    assert f'value="{a.pk}"' in picker


def test_list_page_shows_only_own_runs(client, user, other_user, redline_deck, make_deck):
    mine = done_run(redline_deck)
    theirs = done_run(make_deck(other_user, name="Theirs"))
    client.force_login(user)
    html = client.get("/simulations/").content.decode()
    assert f"/simulations/{mine.pk}/" in html and f"/simulations/{theirs.pk}/" not in html
    client.logout()
    assert client.get("/simulations/").status_code == 302


def test_deck_panel_offers_the_game_kinds_and_the_odds(client, user, redline_deck):
    client.force_login(user)
    html = client.get(
        f"/simulations/decks/{redline_deck.pk}/?v=1", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'value="redline-goldfish"' in html and "hex-skirmish-goldfish" not in html
    assert 'name="mulligan_lo"' in html and 'name="seed"' in html
    assert "every resource (24)" in html and 'name="deck_size" value="60"' in html
    assert "<html" not in html  # the htmx answer is a fragment


def test_starting_from_the_panel_form_redirects_to_the_run(client, user, redline_deck):
    client.force_login(user)
    url = f"/simulations/decks/{redline_deck.pk}/start/"
    form = {
        "kind": "redline-goldfish",
        "version": "1",
        "games": "500",
        "turns": "6",
        "mulligan_lo": "2",
        "mulligan_hi": "4",
        "on_the_play": "0",
        "seed": "42",
    }
    r = client.post(url, form)
    run = SimulationRun.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/simulations/{run.pk}/"
    assert run.params == {
        "games": 500,
        "turns": 6,
        "mulligan_lo": 2,
        "mulligan_hi": 4,
        "on_the_play": False,
    }
    assert run.seed == 42
    r = client.post(url, {**form, "games": "0"}, HTTP_HX_REQUEST="true")
    assert "Games must be between 1 and 2,000,000; got 0" in r.content.decode()
    r = client.post(url, {**form, "games": "0"})
    assert r.status_code == 400


def test_odds_api_and_view(client):
    r = client.get("/api/odds/?deck_size=60&group=24&k=2&turns=5&opening=7&on_the_play=1")
    assert r.status_code == 200
    body = r.json()
    assert len(body["by_turn"]) == 5 and 0 < body["opening_hand"]["p"] < body["by_turn"][4]["p"]
    bad = client.get("/api/odds/?deck_size=60&group=70")
    assert bad.status_code == 400 and "group" in field_errors(bad.json())
    html = client.get(
        "/simulations/odds/?deck_size=60&group=24&custom_group=4&k=1&turns=3"
    ).content.decode()
    assert "P(at least 1 of 4 cards in hand)" in html and "Turn 3" in html


def test_schema_stays_valid(client):
    r = client.get("/api/schema/?format=json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    assert "/api/decks/{id}/simulations/" in paths and "/api/odds/" in paths


def test_admin_lists_runs(client, staff_user, redline_deck):
    done_run(redline_deck)
    client.force_login(staff_user)
    assert client.get("/admin/simulations/simulationrun/").status_code == 200
    run = SimulationRun.objects.get()
    assert client.get(f"/admin/simulations/simulationrun/{run.pk}/change/").status_code == 200


def test_the_deck_page_include_hook_loads_the_panel(redline_deck):
    from django.template.loader import render_to_string

    html = render_to_string(
        "simulations/_deck_panel.html",
        {"deck": redline_deck, "version": redline_deck.current_version, "token": ""},
    )
    assert f'hx-get="/simulations/decks/{redline_deck.pk}/?v=1"' in html
    assert render_to_string("simulations/_deck_panel.html", {"deck": redline_deck}).strip() == ""


@pytest.mark.parametrize("door", ["page", "api"])
def test_staff_start_a_simulation_of_another_players_deck_only_as_a_player_could(
    client, staff_user, other_user, make_deck, sample_catalogue, door, monkeypatch
):
    """One rule on the start form and the API (simulations.services.deck_to_simulate): staff
    read every deck, but start a run only of a deck a player could (public, or unlisted with
    its link), never of another player's private deck."""
    from cardsite.tasks import run_job_chunk

    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: None)
    client.force_login(staff_user)
    private = make_deck(other_user, visibility="private")
    unlisted = make_deck(other_user, visibility="unlisted")
    public = make_deck(other_user, visibility="public")

    def start(deck, token=None):
        if door == "page":
            form = {"kind": "redline-goldfish", "version": "1", "games": "100", "turns": "4"}
            if token:
                form["token"] = token
            return client.post(f"/simulations/decks/{deck.pk}/start/", form).status_code
        body = {"kind": "redline-goldfish", "params": {"games": 100, "turns": 4}}
        if token:
            body["token"] = token
        return client.post(
            f"/api/decks/{deck.pk}/simulations/", body, content_type="application/json"
        ).status_code

    ok = 302 if door == "page" else 202
    assert start(private) == 403
    assert start(unlisted) == 403
    assert start(unlisted, token=unlisted.share_token) == ok
    assert start(public) == ok
    assert SimulationRun.objects.filter(deck_version__deck=private).count() == 0
    # Staff still read the private deck (moderation) and run their own decks.
    assert client.get(f"/decks/{private.pk}/").status_code == 200
    assert start(make_deck(staff_user, visibility="private")) == ok


def test_a_start_with_the_broker_down_is_saved_and_answered(
    client, user, redline_deck, api_url, django_capture_on_commit_callbacks, caplog
):
    """The broker unreachable when a run's chunks are sent: the run is saved and stays queued
    for the reaper to send, and the request answers 202 (it was a 500)."""
    from cardsite.celery import app
    from tests.conftest import reset_broker_connections

    saved = app.conf.broker_write_url
    # nothing listens there (the write URL: CELERY_BROKER_URL in the environment wins over
    # broker_url)
    app.conf.broker_write_url = "redis://127.0.0.1:1/0"
    reset_broker_connections(app)
    client.force_login(user)
    try:
        with django_capture_on_commit_callbacks(execute=True), caplog.at_level("WARNING"):
            r = client.post(
                api_url,
                {"kind": "redline-goldfish", "params": {"games": 120_000, "turns": 4}},
                content_type="application/json",
            )
    finally:
        app.conf.broker_write_url = saved
        reset_broker_connections(app)
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.status == "queued"
    assert any("broker is unavailable" in rec.getMessage() for rec in caplog.records)
