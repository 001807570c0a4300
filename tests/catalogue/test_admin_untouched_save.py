"""An untouched save in the admin changes nothing: every change form of the catalogue sent
back exactly as a browser sends it (tests/form_submit.py) keeps every stored column byte for
byte, for every sample card of every kind of every game (with its printings inline), every
rule set (with its card entries inline) and every expansion."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import TextField
from django.db.models.functions import Cast
from django.urls import reverse

from catalogue.models import Card, Expansion, Printing, RuleSet, RuleSetCard
from decks.models import RecheckJob
from tests.form_submit import untouched_form_data
from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    return client


def stored_rows(model, **filters) -> list[dict]:
    """Every column of the rows as the database holds them (JSON as its stored text)."""
    rows = model.objects.filter(**filters).order_by("pk")
    json_fields = [
        f.name for f in model._meta.concrete_fields if f.get_internal_type() == "JSONField"
    ]
    rows = rows.annotate(**{f"{name}__stored": Cast(name, TextField()) for name in json_fields})
    return [{k: v for k, v in row.items() if k not in json_fields} for row in rows.values()]


def save_untouched(client, url: str, form_id: str) -> dict:
    """Send the change form back as the page shows it; returns what was sent."""
    page = client.get(url)
    assert page.status_code == 200
    data = untouched_form_data(page.content.decode(), form_id, submit="_save")
    response = client.post(url, data)
    form = response.context["adminform"].form if response.status_code == 200 else None
    assert response.status_code == 302, (url, form.errors if form else response.status_code)
    return data


KINDS = [(game.slug, kind) for game in registry.all() for kind in game.kinds]


def logged_changes(obj) -> list[str]:
    """What the admin's history says the last save of `obj` changed: the changed fields'
    labels, and those of each inline row as "Label (of row)"."""
    entry = (
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(obj),
            object_id=str(obj.pk),
            action_flag=CHANGE,
        )
        .order_by("-pk")
        .first()
    )
    assert entry is not None, f"no history entry for {obj}"
    said: list[str] = []
    for part in json.loads(entry.change_message or "[]"):
        if "changed" in part:
            changed = part["changed"]
            row = f" ({changed['name']} {changed['object']})" if "object" in changed else ""
            said.extend(f"{label}{row}" for label in changed.get("fields", []))
        else:
            said.append(json.dumps(part))
    return said


@pytest.mark.parametrize(("game", "kind"), KINDS, ids=[f"{g}-{k}" for g, k in KINDS])
def test_an_untouched_save_of_every_sample_card_of_a_kind_changes_nothing_and_says_so(
    admin_client, game, kind
):
    """An untouched save keeps every stored column and logs "No fields changed."; a save with
    only the text typed anew (two lines, as a browser sends them) logs the text alone, not
    the lists shown one item per line beside it. (The form sent untouched is sent again with
    the text edited: the save changed nothing, so the page would show the same form.)"""
    cards = list(Card.objects.filter(game__slug=game, kind=kind).order_by("name"))
    assert cards, f"the sample data has no {kind} of {game}"
    for card in cards:
        url = reverse("admin:catalogue_card_change", args=[card.pk])
        before = stored_rows(Card, pk=card.pk), stored_rows(Printing, card=card)
        data = save_untouched(admin_client, url, "card_form")
        after = stored_rows(Card, pk=card.pk), stored_rows(Printing, card=card)
        assert after == before, card.name
        entry = LogEntry.objects.filter(object_id=str(card.pk)).order_by("-pk").first()
        assert entry is not None and entry.get_change_message() == "No fields changed.", (
            card.name,
            logged_changes(card),
        )
        data["text"] = f"{card.name} was edited.\r\nA second line."
        assert admin_client.post(url, data).status_code == 302
        assert logged_changes(card) == ["Text"], card.name


def test_the_bogatyr_keeps_its_two_cannon_slots_when_only_its_cost_changes(admin_client):
    bogatyr = Card.objects.get(game__slug="redline", name="Bogatyr")
    assert bogatyr.attributes["slots"] == ["cannon", "cannon", "pilot"]
    url = reverse("admin:catalogue_card_change", args=[bogatyr.pk])
    data = untouched_form_data(admin_client.get(url).content.decode(), "card_form", "_save")
    data["cost"] = str(bogatyr.cost + 1)
    assert admin_client.post(url, data).status_code == 302
    bogatyr.refresh_from_db()
    assert bogatyr.attributes["slots"] == ["cannon", "cannon", "pilot"]
    assert bogatyr.cost == int(data["cost"])


def test_a_list_of_choices_names_the_line_that_is_not_a_choice(admin_client):
    bogatyr = Card.objects.get(game__slug="redline", name="Bogatyr")
    url = reverse("admin:catalogue_card_change", args=[bogatyr.pk])
    data = untouched_form_data(admin_client.get(url).content.decode(), "card_form", "_save")
    data["attr__slots"] = "cannon\r\nlazer\r\npilot"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["attr__slots"]
    assert "line 2: 'lazer' is not one of laser" in errors[0]


def test_an_untouched_save_of_every_rule_set_changes_nothing_and_starts_no_recheck(
    admin_client,
):
    rule_sets = list(RuleSet.objects.all())
    assert rule_sets
    for rule_set in rule_sets:
        before = (
            stored_rows(RuleSet, pk=rule_set.pk),
            stored_rows(RuleSetCard, rule_set=rule_set),
            sorted(rule_set.expansions.values_list("pk", flat=True)),
        )
        save_untouched(
            admin_client,
            reverse("admin:catalogue_ruleset_change", args=[rule_set.pk]),
            "ruleset_form",
        )
        after = (
            stored_rows(RuleSet, pk=rule_set.pk),
            stored_rows(RuleSetCard, rule_set=rule_set),
            sorted(rule_set.expansions.values_list("pk", flat=True)),
        )
        assert after == before, rule_set.code
        assert logged_changes(rule_set) == [], rule_set.code
    assert not RecheckJob.objects.exists()


def test_an_untouched_save_of_every_expansion_changes_nothing(admin_client):
    for expansion in Expansion.objects.all():
        before = stored_rows(Expansion, pk=expansion.pk)
        save_untouched(
            admin_client,
            reverse("admin:catalogue_expansion_change", args=[expansion.pk]),
            "expansion_form",
        )
        assert stored_rows(Expansion, pk=expansion.pk) == before, expansion.code
        assert logged_changes(expansion) == [], expansion.code


def test_text_typed_in_a_text_area_is_stored_with_plain_line_ends(admin_client):
    card = Card.objects.get(game__slug="redline", name="Bogatyr")
    url = reverse("admin:catalogue_card_change", args=[card.pk])
    data = untouched_form_data(admin_client.get(url).content.decode(), "card_form", "_save")
    data["text"] = "First line.\r\nSecond line."
    assert admin_client.post(url, data).status_code == 302
    card.refresh_from_db()
    assert card.text == "First line.\nSecond line."
    # and saved untouched again, it stays so
    save_untouched(admin_client, url, "card_form")
    card.refresh_from_db()
    assert card.text == "First line.\nSecond line."


@pytest.mark.parametrize(
    ("game", "name", "field", "value", "label"),
    [
        ("redline", "Bogatyr", "attr__slots", "cannon\r\npilot\r\npilot", "Slots"),
        ("redline", "Bogatyr", "attr__keywords", "Ambush 2", "Keywords"),
        (
            "hex-skirmish",
            "Field Catapult",
            "attr__edges",
            "2\r\n1\r\n1\r\n1\r\n1\r\n1",
            "Edge strengths",
        ),
    ],
)
def test_a_list_typed_anew_is_the_one_change_the_history_names(
    admin_client, game, name, field, value, label
):
    card = Card.objects.get(game__slug=game, name=name)
    url = reverse("admin:catalogue_card_change", args=[card.pk])
    data = untouched_form_data(admin_client.get(url).content.decode(), "card_form", "_save")
    data[field] = value
    assert admin_client.post(url, data).status_code == 302
    assert logged_changes(card) == [label]
