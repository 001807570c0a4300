"""What the admin's rule set page offers (its game's expansions, each format once with its
game) and the order of an expansion's cards (collector numbers compared as numbers), on the
site's expansion page and in the admin."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from catalogue.models import Card, Expansion, Game, Printing, RuleSet

pytestmark = pytest.mark.django_db


def _options(page: str, name: str) -> list[tuple[str, str, bool]]:
    """The (value, label, selected) of every option of the select named `name`."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"no select {name!r} on the page"
    return [
        (unescape(value), unescape(label).strip(), "selected" in attrs)
        for value, attrs, label in re.findall(
            r'<option value="([^"]*)"([^>]*)>(.*?)</option>', select.group(1), re.S
        )
    ]


@pytest.fixture
def staff_client(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    return client


def test_a_rule_sets_page_offers_only_the_expansions_of_its_game(staff_client):
    other_codes = set(
        Expansion.objects.exclude(game__slug="redline").values_list("code", flat=True)
    )
    assert other_codes
    s1 = RuleSet.objects.get(game__slug="redline", code="S1")
    page = staff_client.get(reverse("admin:catalogue_ruleset_change", args=[s1.pk])).content
    labels = [label for _, label, _ in _options(page.decode(), "expansions")]
    assert labels == ["Core Set (Sample) (RL1)"], labels

    # The add page, once a game is chosen (the page reloads with it), offers that game's.
    hex_game = Game.objects.get(slug="hex-skirmish")
    add = reverse("admin:catalogue_ruleset_add")
    page = staff_client.get(add, {"game": hex_game.pk}).content.decode()
    assert [label for _, label, _ in _options(page, "expansions")] == [
        str(e) for e in Expansion.objects.filter(game=hex_game)
    ]
    # Before a game is chosen: none, and the page says why.
    page = staff_client.get(add).content.decode()
    assert _options(page, "expansions") == []
    assert "Choose the game: its expansions are then offered here." in page


def test_an_expansion_of_another_game_is_refused(staff_client):
    s1 = RuleSet.objects.get(game__slug="redline", code="S1")
    hs1 = Expansion.objects.get(game__slug="hex-skirmish", code="HS1")
    page = staff_client.get(reverse("admin:catalogue_ruleset_change", args=[s1.pk])).content
    data = _change_data(s1, page.decode(), expansions=[hs1.pk])
    response = staff_client.post(reverse("admin:catalogue_ruleset_change", args=[s1.pk]), data)
    assert response.status_code == 200
    assert f"{hs1.pk} is not one of the available choices" in response.content.decode()
    assert list(s1.expansions.values_list("code", flat=True)) == ["RL1"]


def test_the_format_menu_names_each_format_once_with_its_game(staff_client):
    add = reverse("admin:catalogue_ruleset_add")
    options = [
        (v, label)
        for v, label, _ in _options(staff_client.get(add).content.decode(), "format")
        if v
    ]
    labels = [label for _, label in options]
    assert len(labels) == len(set(labels)), labels
    assert ("redline/standard", "REDLINE: Tactical Card Combat — Standard") in options
    assert ("hex-skirmish/standard", "Hex Skirmish — Standard") in options
    # Each label names the format once: no "Standard (standard)".
    assert not [label for label in labels if label.lower().count("standard") > 1]

    # A Hex Skirmish rule set's page shows its own format chosen, and only its game's.
    p1 = RuleSet.objects.get(game__slug="hex-skirmish", code="P1")
    page = staff_client.get(reverse("admin:catalogue_ruleset_change", args=[p1.pk])).content
    options = _options(page.decode(), "format")
    assert [(v, label) for v, label, chosen in options if chosen] == [
        ("hex-skirmish/standard", "Hex Skirmish — Standard")
    ]
    assert all(v.startswith("hex-skirmish/") for v, _, _ in options if v)


def _change_data(rule_set: RuleSet, page: str, **changes) -> dict:
    """The change form's fields as the page shows them (an untouched save), with `changes`."""
    fields = ("code", "name", "note")
    data = {f: getattr(rule_set, f) for f in fields}
    data.update(
        {
            "game": rule_set.game_id,
            "format": next(v for v, _, chosen in _options(page, "format") if chosen),
            "announced": rule_set.announced.isoformat(),
            "effective": rule_set.effective.isoformat(),
            "expansions": list(rule_set.expansions.values_list("pk", flat=True)),
            "sample": "on" if rule_set.sample else "",
        }
    )
    entries = list(rule_set.cards.all())
    data.update(
        {
            "cards-TOTAL_FORMS": str(len(entries)),
            "cards-INITIAL_FORMS": str(len(entries)),
            "cards-MIN_NUM_FORMS": "0",
            "cards-MAX_NUM_FORMS": "1000",
        }
    )
    for i, e in enumerate(entries):
        data.update(
            {
                f"cards-{i}-id": e.pk,
                f"cards-{i}-rule_set": rule_set.pk,
                f"cards-{i}-card": e.card_id,
                f"cards-{i}-banned": "on" if e.banned else "",
                f"cards-{i}-limit": "" if e.limit is None else e.limit,
                f"cards-{i}-cost": "" if e.cost is None else e.cost,
                f"cards-{i}-text": e.text,
            }
        )
    data = {k: v for k, v in data.items() if v != ""}
    data.update(changes)
    return data


def test_an_untouched_save_of_a_rule_set_changes_nothing(staff_client):
    p1 = RuleSet.objects.get(game__slug="hex-skirmish", code="P1")
    url = reverse("admin:catalogue_ruleset_change", args=[p1.pk])
    before = (p1.game_id, p1.format, p1.code, list(p1.expansions.values_list("pk", flat=True)))
    response = staff_client.post(url, _change_data(p1, staff_client.get(url).content.decode()))
    assert response.status_code == 302, response.content.decode()[:3000]
    p1.refresh_from_db()
    after = (p1.game_id, p1.format, p1.code, list(p1.expansions.values_list("pk", flat=True)))
    assert after == before


def test_a_format_of_another_game_is_refused(staff_client):
    s1 = RuleSet.objects.get(game__slug="redline", code="S1")
    url = reverse("admin:catalogue_ruleset_change", args=[s1.pk])
    data = _change_data(s1, staff_client.get(url).content.decode(), format="hex-skirmish/standard")
    page = staff_client.post(url, data).content.decode()
    assert "Hex Skirmish — Standard is not a format of REDLINE: Tactical Card Combat" in page
    s1.refresh_from_db()
    assert s1.format == "standard" and s1.game.slug == "redline"


@pytest.fixture
def numbered_expansion(sample_catalogue):
    """An expansion whose collector numbers sort wrongly as text: 10 before 2."""
    game = Game.objects.get(slug="redline")
    expansion = Expansion.objects.create(game=game, code="NUM", name="Numbers (sample)")
    cards = list(Card.objects.filter(game=game).order_by("name")[:7])
    numbers = ["10", "2", "10a", "1", "B5", "21", "9"]
    for card, number in zip(cards, numbers, strict=True):
        Printing.objects.create(card=card, expansion=expansion, number=number)
    return expansion


#: Numbers as numbers, a suffix after its number, a number with a letter before it last.
COLLECTOR_ORDER = ["1", "2", "9", "10", "10a", "21", "B5"]


def test_an_expansion_page_lists_its_cards_in_collector_number_order(client, numbered_expansion):
    response = client.get(numbered_expansion.get_absolute_url())
    numbers = [p.number for p in response.context["printings"]]
    assert numbers == COLLECTOR_ORDER
    page = response.content.decode()
    cells = re.findall(r'<td data-label="#">([^<]*)</td>', page)
    assert cells == COLLECTOR_ORDER


def test_the_admin_lists_an_expansions_printings_in_collector_number_order(
    staff_client, numbered_expansion
):
    url = reverse("admin:catalogue_printing_changelist")
    response = staff_client.get(url, {"expansion__id__exact": numbered_expansion.pk})
    assert [p.number for p in response.context["cl"].result_list] == COLLECTOR_ORDER
    # The expansion's own page in the admin lists its cards in the same order.
    page = staff_client.get(
        reverse("admin:catalogue_expansion_change", args=[numbered_expansion.pk])
    ).content.decode()
    listed = re.search(r'<table class="collector-list">(.*?)</table>', page, re.S)
    assert listed, "the expansion's page lists no cards"
    assert re.findall(r"<tr><td>([^<]*)</td>", listed.group(1)) == COLLECTOR_ORDER
