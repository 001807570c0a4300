"""The admin's rule set pages: the list, a rule set's page with its card entries inline and
what it changes against the one before, a card of another game refused, and the import of a
rule set file with a preview."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from catalogue.models import Card, Game, RuleSet
from catalogue.rule_set_file import rule_set_export

pytestmark = pytest.mark.django_db


def test_the_list_and_a_rule_set_page_with_what_it_changes(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    page = client.get(reverse("admin:catalogue_ruleset_changelist")).content.decode()
    assert "Import a rule set file" in page and "Sample Season 2" in page
    s2 = RuleSet.objects.get(game__slug="redline", code="S2")
    page = client.get(reverse("admin:catalogue_ruleset_change", args=[s2.pk])).content.decode()
    assert "What it changes against the rule set before" in page
    assert "<li>Hidden Ambush banned</li>" in page and "<li>Bogatyr limit 2 → 1</li>" in page
    assert "Kestrel" in page  # its card entries inline


def test_the_list_names_each_rule_sets_format(client, staff_user, sample_catalogue):
    """The list's Format column shows the format's name as its game spells it, not its slug."""
    client.force_login(staff_user)
    page = client.get(reverse("admin:catalogue_ruleset_changelist")).content.decode()
    formats = re.findall(r'<td class="field-format[^"]*">([^<]*)</td>', page)
    assert formats and set(formats) == {"Standard"}, formats
    assert '<th scope="col" class="sortable column-format' in page  # still sorted by format


def _form(game, **changes):
    data = {
        "game": game.pk,
        "format": "redline/standard",
        "code": "A1",
        "name": "Admin season",
        "announced": "2027-05-01",
        "effective": "2027-06-01",
        "note": "",
        "cards-TOTAL_FORMS": "1",
        "cards-INITIAL_FORMS": "0",
        "cards-MIN_NUM_FORMS": "0",
        "cards-MAX_NUM_FORMS": "1000",
        "cards-0-card": Card.objects.get(game=game, name="Tigercat").pk,
        "cards-0-banned": "on",
        "cards-0-limit": "",
        "cards-0-cost": "",
        "cards-0-text": "",
    }
    data.update(changes)
    return data


def test_adding_a_rule_set_checks_format_dates_and_cards(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    game = Game.objects.get(slug="redline")
    url = reverse("admin:catalogue_ruleset_add")
    other = Card.objects.get(game__slug="hex-skirmish", name="Lancers")
    page = client.post(
        url,
        _form(game, format="red-code/arena", announced="2027-07-01", **{"cards-0-card": other.pk}),
    ).content.decode()
    assert "is not a format of REDLINE" in page
    assert "2027-06-01 is before the announcement on 2027-07-01" in page
    assert "Lancers is a card of Hex Skirmish, not of this game" in page
    assert not RuleSet.objects.filter(code="A1").exists()
    response = client.post(url, _form(game))
    assert response.status_code == 302
    rs = RuleSet.objects.get(code="A1")
    assert list(rs.cards.values_list("card__name", "banned")) == [("Tigercat", True)]


def test_import_a_file_with_a_preview_then_confirm(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    doc = rule_set_export(game_slug="redline", format="standard", code="S2")
    doc["cards"].append({"name": "Tigercat", "banned": True})
    url = reverse("admin:catalogue_ruleset_import")
    page = client.post(
        url, {"file": SimpleUploadedFile("s2.json", json.dumps(doc).encode())}
    ).content.decode()
    assert "Preview" in page and "<li>Tigercat banned</li>" in page
    assert not RuleSet.objects.get(code="S2").cards.filter(card__name="Tigercat").exists()
    response = client.post(url, {"confirm": "1"}, follow=True)
    assert RuleSet.objects.get(code="S2").cards.filter(card__name="Tigercat").exists()
    # The admin is pointed at the re-check the change started.
    page = response.content.decode()
    assert "1 updated" in page and "are being re-checked" in page
    assert reverse("admin:decks_recheckjob_changelist") in page


def test_a_bad_file_shows_every_problem_and_writes_nothing(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    doc = rule_set_export(game_slug="redline", format="standard", code="S2")
    doc["cards"] += [{"name": "Tigercatt", "banned": True}, {"name": "Rabbit", "limit": -1}]
    page = client.post(
        reverse("admin:catalogue_ruleset_import"),
        {"file": SimpleUploadedFile("s2.json", json.dumps(doc).encode())},
    ).content.decode()
    assert "2 problems: nothing will be imported" in page
    assert "no card named &#x27;Tigercatt&#x27;" in page and "-1 is not a whole number" in page
    assert 'name="confirm"' not in page
