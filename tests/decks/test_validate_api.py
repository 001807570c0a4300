"""POST /api/validate/ and the "Check a list" page: every problem at once, line errors,
a constant number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import rulesets
from catalogue.models import Card, Game
from validation.packages import SampleList, all_sample_lists, sample_list

pytestmark = pytest.mark.django_db

EXAMPLES = all_sample_lists()
OPTIONS = {"custom": {"points": 50}}


def example(sample: SampleList) -> tuple[str, str, str]:
    return sample.game, sample.format, sample.text()


def validate(client, **body):
    return client.post("/api/validate/", body, content_type="application/json")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda s: f"{s.game}-{s.format}")
def test_every_example_list_is_legal_through_the_api(client, sample_catalogue, path):
    game, fmt, text = example(path)
    response = validate(client, game=game, format=fmt, list=text, options=OPTIONS.get(fmt, {}))
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["legal"] is True, data["errors"]
    assert data["errors"] == []
    assert set(data) == {"legal", "errors", "warnings", "totals", "unknown", "rule_set"}
    in_force = rulesets.in_force(game, fmt)  # the sample rule sets, where there are some
    assert data["rule_set"] == (in_force.code if in_force else None)
    assert data["unknown"] == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda s: f"{s.game}-{s.format}")
def test_every_example_list_is_legal_on_the_check_page(client, sample_catalogue, path):
    game, fmt, text = example(path)
    data = {"game_format": f"{game}/{fmt}", "list": text}
    if fmt in OPTIONS:
        data["points"] = OPTIONS[fmt]["points"]
    response = client.post("/check/", data)
    assert response.status_code == 200
    assert response.context["report"].legal
    assert 'class="verdict legal"' in response.content.decode()


def test_every_violation_at_once_with_limits_and_gaps(client, sample_catalogue):
    text = sample_list("redline", "standard").text()
    text = text.replace("General:\n", "General:\n1 General Anna Draga\n", 1)
    text += "\nArsenal:\n1 Tigercat\n"
    response = validate(client, game="redline", format="standard", list=text)
    data = response.json()
    codes = {e["code"] for e in data["errors"]}
    assert {"arsenal.general", "arsenal.size"} <= codes
    size = next(e for e in data["errors"] if e["code"] == "arsenal.size")
    assert size["message"] == "61 cards in the arsenal; exactly 60"
    assert size["section"] == "arsenal"
    for error in data["errors"]:
        assert set(error) == {"code", "severity", "message", "section", "cards", "lines"}


def test_copy_limit_message_names_the_card(client, sample_catalogue):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n5 Tigercat\n55 Supply Drop\n"
    data = validate(client, game="redline", format="standard", list=text).json()
    copies = next(e for e in data["errors"] if e["code"] == "arsenal.copies")
    assert copies["message"] == "Line 4: 5 copies of Tigercat; at most 4"
    assert copies["cards"] == ["Tigercat"]
    assert copies["lines"] == [4]


def test_unreadable_list_answers_400_with_line_errors_and_suggestions(client, sample_catalogue):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigrecat\nzero Supply Drop\nWeapons:\n1 Tigercat\n"
    response = validate(client, game="redline", format="standard", list=text)
    assert response.status_code == 400
    errors = response.json()["errors"]
    lines = {e["line"] for e in errors}
    assert {4, 5, 6} <= lines
    tiger = next(e for e in errors if e["line"] == 4)
    assert "Tigercat" in tiger["suggestions"]


def test_sections_form_and_options(client, sample_catalogue):
    units = Card.objects.filter(game__slug="tactical-assault", kind="unit_type", cost__gt=0)
    unit = (
        units.filter(attributes__off_battlefield=False, attributes__immobile=False)
        .order_by("-cost")
        .first()
    )
    count = 50 // unit.cost
    sections = {"force": [{"card": unit.name, "count": count}]}
    data = validate(
        client, game="tactical-assault", format="custom", sections=sections, options={"points": 50}
    ).json()
    assert data["totals"]["points"] == unit.cost * count
    assert not any(e["code"] == "force.points" for e in data["errors"])
    data = validate(
        client, game="tactical-assault", format="custom", sections=sections, options={"points": 10}
    ).json()
    assert any(e["code"] == "force.points" for e in data["errors"])


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "format": "standard", "list": ""},
        {"game": "redline", "format": "blitz", "list": ""},
        {"game": "redline", "format": "standard"},
        {"game": "redline", "format": "standard", "list": "", "sections": {}},
    ],
)
def test_bad_requests_are_400_with_a_reason(client, body):
    response = validate(client, **body)
    assert response.status_code == 400
    assert response.json()


def make_cards(n):
    game = Game.objects.get(slug="red-mittens")
    Card.objects.bulk_create(
        Card(
            game=game,
            name=f"Bulk Unit {i:03d}",
            kind="unit",
            attributes={
                "atk": 1,
                "def": 1,
                "classes": [],
                "unit_type": "",
                "res": 0,
                "raise_res": 0,
                "vs_bonus": "",
                "on_play": False,
                "priority": False,
                "attack_twice": False,
                "d6_bonus": False,
            },
        )
        for i in range(n)
    )


def queries_for(client, n_entries):
    text = "Units:\n" + "".join(f"1 Bulk Unit {i:03d}\n" for i in range(n_entries))
    with CaptureQueriesContext(connection) as ctx:
        response = validate(client, game="red-mittens", format="core", list=text)
    assert response.status_code == 200
    assert response.json()["totals"]
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_deck(client, sample_catalogue):
    make_cards(200)
    small = queries_for(client, 10)
    large = queries_for(client, 200)
    assert small == large
    assert large <= 3
