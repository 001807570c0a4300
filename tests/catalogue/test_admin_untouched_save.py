"""An untouched save in the admin changes nothing: every change form of the catalogue sent
back exactly as a browser sends it (tests/form_submit.py) keeps every stored column byte for
byte, for every sample card of every kind of every game (with its printings inline), every
rule set (with its card entries inline) and every expansion."""

from __future__ import annotations

import pytest
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


def save_untouched(client, url: str, form_id: str):
    page = client.get(url)
    assert page.status_code == 200
    data = untouched_form_data(page.content.decode(), form_id, submit="_save")
    response = client.post(url, data)
    form = response.context["adminform"].form if response.status_code == 200 else None
    assert response.status_code == 302, (url, form.errors if form else response.status_code)


KINDS = [(game.slug, kind) for game in registry.all() for kind in game.kinds]


@pytest.mark.parametrize(("game", "kind"), KINDS, ids=[f"{g}-{k}" for g, k in KINDS])
def test_an_untouched_save_of_every_sample_card_of_a_kind_changes_nothing(admin_client, game, kind):
    cards = list(Card.objects.filter(game__slug=game, kind=kind).order_by("name"))
    assert cards, f"the sample data has no {kind} of {game}"
    for card in cards:
        before = stored_rows(Card, pk=card.pk), stored_rows(Printing, card=card)
        save_untouched(
            admin_client, reverse("admin:catalogue_card_change", args=[card.pk]), "card_form"
        )
        after = stored_rows(Card, pk=card.pk), stored_rows(Printing, card=card)
        assert after == before, card.name


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
