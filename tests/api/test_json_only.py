"""The API reads JSON alone: a form or multipart body answers 415 and does nothing."""

from __future__ import annotations

import pytest

from simulations.models import SimulationRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, user):
    client.force_login(user)
    return client


def test_a_junk_multipart_body_to_a_simulation_start_is_a_415_and_starts_nothing(api, redline_deck):
    response = api.post(
        f"/api/decks/{redline_deck.pk}/simulations/", {"junk": "x"}
    )  # the test client's default: multipart/form-data
    assert response.status_code == 415, response.content
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "text/plain", "application/xml"]
)
def test_a_write_in_another_content_type_is_a_415(api, sample_catalogue, content_type):
    response = api.post(
        "/api/validate/",
        "game=redline&format=standard&list=1+Tigercat",
        content_type=content_type,
    )
    assert response.status_code == 415
    assert content_type.split(";")[0] in response.json()["detail"]


def test_the_same_write_as_json_is_read(api, sample_catalogue):
    response = api.post(
        "/api/validate/",
        {"game": "redline", "format": "nope", "list": "1 Tigercat"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "format" in response.content.decode()
