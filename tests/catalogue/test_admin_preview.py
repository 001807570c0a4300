"""The admin's import preview: problems in an aligned table with cards numbered as in the
file (from 1), an update's changed fields as before → after; attribute fields that say what
they expect."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from catalogue.models import Card
from validation.packages import sample_expansions

pytestmark = pytest.mark.django_db


def _doc(game: str) -> dict:
    path = sample_expansions(game)[0]
    return json.loads(path.read_text())


def _preview(client, doc):
    return client.post(
        reverse("admin:catalogue_expansion_import"),
        {"file": SimpleUploadedFile("x.json", json.dumps(doc).encode())},
    )


def test_problems_are_numbered_as_in_the_file(client, staff_user):
    client.force_login(staff_user)
    doc = _doc("hex-skirmish")
    doc["cards"][2]["kind"] = "wizard"
    page = _preview(client, doc).content.decode()
    table = re.search(r'<table class="import-report" id="import-errors">.*?</table>', page, re.S)
    assert table
    row = re.search(r"<tr><td class=\"n\">(\d+)</td><td>([^<]*)</td>", table.group(0))
    assert row.group(1) == "3" and row.group(2) == doc["cards"][2]["name"]
    # Every row has the same four cells as the header.
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(0), re.S)
    assert all(r.count("<td") == 4 for r in rows[1:]) and rows[0].count("<th") == 4


def test_an_update_shows_each_changed_field_before_and_after(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    doc = _doc("redline")
    tiger = next(c for c in doc["cards"] if c["name"] == "Tigercat")
    old_speed, old_cost = tiger["attributes"]["speed"], tiger["cost"]
    tiger["attributes"]["speed"] = old_speed + 1
    tiger["cost"] = old_cost + 2
    response = _preview(client, doc)
    report = response.context["report"]
    assert report.updated == ["Tigercat"]
    assert report.changes["Tigercat"] == [
        ("cost", old_cost, old_cost + 2),
        ("attributes.speed", old_speed, old_speed + 1),
    ]
    page = response.content.decode()
    assert (
        f'<span class="before">{old_speed}</span> → <span class="after">{old_speed + 1}</span>'
        in page
    )
    assert Card.objects.get(name="Tigercat").cost == old_cost  # a preview writes nothing


def _unit_data(client, **attrs):
    from catalogue.models import Game

    game = Game.objects.get(slug="hex-skirmish")
    data = {
        "game": game.pk,
        "name": "Pikeman",
        "kind": "unit",
        "faction": "",
        "cost": "3",
        "text": "",
        "printings-TOTAL_FORMS": "0",
        "printings-INITIAL_FORMS": "0",
        "printings-MIN_NUM_FORMS": "0",
        "printings-MAX_NUM_FORMS": "1000",
        "attr__unit_class": "infantry",
        "attr__edges": "1\n2\n3\n4\n5\n6",
        "attr__health": "3",
        "attr__movement": "1",
        "attr__armor": "0",
        "attr__range": "0",
    }
    data.update(attrs)
    return client.post(reverse("admin:catalogue_card_add"), data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("attr__edges", "1\n2\nx\n4\n5\n6", "six numbers, one per line; 'x' is not a number"),
        ("attr__edges", "1\n2\n3", "six numbers, one per line; 3 given"),
        ("attr__health", "lots", "a whole number of 0 or more"),
    ],
)
def test_attribute_errors_say_what_the_field_expects(
    client, staff_user, sample_catalogue, field, value, message
):
    client.force_login(staff_user)
    response = _unit_data(client, **{field: value})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert message in " ".join(errors[field]), errors
    assert not Card.objects.filter(name="Pikeman").exists()
    page = _unit_data(client, attr__edges="1\n2\n3\n4\n5\n6")
    assert page.status_code == 302, page.context and page.context["adminform"].form.errors
    assert Card.objects.get(name="Pikeman").attributes["edges"] == [1, 2, 3, 4, 5, 6]
