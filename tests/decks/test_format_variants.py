"""A format played in more than one way (REDLINE Scenario's red line styles): the builder,
the check page and the API set the option, and the verdict follows it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks import services
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SCENARIO = sample_list("redline", "scenario")
ON_THE_SPOT = SCENARIO.split("Red line:")[0] + SCENARIO.split("Red line:")[1].split("\n", 6)[-1]


def test_the_list_without_its_red_line_is_the_on_the_spot_list():
    assert (
        "Red line:" not in ON_THE_SPOT and "Hardened Bunker" not in ON_THE_SPOT.split("Missions")[0]
    )


def _check(client, text, variant=""):
    data = {"game_format": "redline/scenario", "list": text, "variant": variant}
    return client.post(reverse("decks:check"), data, **HTMX).content.decode()


def test_check_page_offers_the_red_line_styles(client, sample_catalogue):
    html = client.get(reverse("decks:check")).content.decode()
    assert 'value="redline/scenario:red_line_style:on_the_spot"' in html
    assert "On the spot (built at setup)" in html


def test_check_page_reads_the_list_in_the_chosen_style(client, sample_catalogue):
    on_spot = "redline/scenario:red_line_style:on_the_spot"
    assert "scenario.red_line" not in _check(client, SCENARIO)
    assert "scenario.red_line" in _check(client, ON_THE_SPOT)
    assert "scenario.red_line" not in _check(client, ON_THE_SPOT, on_spot)
    html = _check(client, SCENARIO, on_spot)
    assert "scenario.red_line" in html and "built on the spot" in html


def test_check_page_refuses_a_variant_of_another_format(client, sample_catalogue):
    data = {
        "game_format": "redline/standard",
        "list": SCENARIO,
        "variant": "redline/scenario:red_line_style:on_the_spot",
    }
    html = client.post(reverse("decks:check"), data).content.decode()
    assert "this variant is of another game or format" in html


def test_builder_sets_the_red_line_style(client, sample_catalogue, user):
    client.force_login(user)
    deck = services.deck_create(
        owner=user, game_slug="redline", format="scenario", name="Scenario", text=ON_THE_SPOT
    )
    assert not deck.current_version.report["legal"]
    html = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert '<select name="red_line_style">' in html
    url = reverse("builder:options", args=[deck.pk])
    r = client.post(url, {"red_line_style": "sideways", "base": "1"}, **HTMX)
    assert r.status_code == 400 and "pre_determined, on_the_spot" in r.content.decode()
    r = client.post(url, {"red_line_style": "on_the_spot", "base": "1"}, **HTMX)
    assert r.status_code == 200
    deck.refresh_from_db()
    assert deck.current_version.options == {"red_line_style": "on_the_spot"}
    assert deck.current_version.report["legal"], deck.current_version.report["errors"]
    assert '<option value="on_the_spot" selected>' in r.content.decode()


def test_api_validate_takes_the_style_and_reports_an_unknown_one(client, sample_catalogue):
    url = "/api/validate/"
    body = {"game": "redline", "format": "scenario", "list": ON_THE_SPOT}
    r = client.post(url, {**body, "options": {"red_line_style": "on_the_spot"}}, "application/json")
    assert r.status_code == 200 and r.json()["legal"], r.json()
    r = client.post(url, {**body, "options": {"red_line_style": "random"}}, "application/json")
    assert r.status_code == 200
    [err] = [e for e in r.json()["errors"] if e["code"] == "format.option"]
    assert "pre_determined, on_the_spot" in err["message"]


def test_builder_explains_the_on_the_spot_red_line(client, sample_catalogue, user):
    client.force_login(user)
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="scenario",
        name="Scenario",
        text=ON_THE_SPOT,
        options={"red_line_style": "on_the_spot"},
    )
    html = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'id="red-line-on-the-spot"' in html and 'id="red-line"' not in html


def test_new_deck_form_takes_the_variant(client, sample_catalogue, user):
    from decks.models import Deck

    client.force_login(user)
    data = {
        "game_format": "redline/scenario",
        "name": "On the spot",
        "visibility": "private",
        "variant": "redline/scenario:red_line_style:on_the_spot",
        "list": ON_THE_SPOT,
    }
    r = client.post(reverse("decks:new"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    deck = Deck.objects.get(name="On the spot")
    assert deck.current_version.options == {"red_line_style": "on_the_spot"}
    assert deck.current_version.report["legal"]
