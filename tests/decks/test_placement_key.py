"""A placed unit's [column, row] is stored and answered as `placement`; `hex`, its former name,
is still read wherever a list comes in (the API's sections, the validate API, the builder's
changes) and still answered beside it, and the stored decks written under `hex` are renamed by
a migration."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from catalogue.models import Game
from catalogue.services import games_sync
from decks.models import Deck, DeckVersion
from validation import packages

pytestmark = pytest.mark.django_db

UNITS = [
    {"card": "Line Infantry", "placement": [3, 1]},
    {"card": "Lancers", "hex": [1, 2]},
    {"card": "Longbowmen", "placement": [4, 0], "hex": [4, 0]},
    {"card": "Militia Spearmen", "count": 1, "hex": [5, 1]},
]


def _sample_sections() -> dict:
    """The shipped list of a game with a placement area, as sections, its units placed as
    above (some under the former key)."""
    text = packages.sample_list("hex-skirmish", "standard").text()
    cards = []
    for line in text.split("Cards:")[1].splitlines():
        if line.strip() and not line.startswith("#"):
            count, name = line.split(" ", 1)
            cards.append({"card": name, "count": int(count)})
    return {"units": UNITS, "cards": cards}


@pytest.fixture
def api(client, user):
    client.force_login(user)
    return client


def test_sections_with_either_key_are_saved_as_placement(api, sample_catalogue):
    made = api.post(
        "/api/decks/",
        {
            "game": "hex-skirmish",
            "format": "standard",
            "name": "Placed",
            "sections": _sample_sections(),
        },
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    version = DeckVersion.objects.get()
    stored = {e["card"]: e for e in version.entries if e["section"] == "units"}
    assert stored["Lancers"] == {
        "section": "units",
        "card": "Lancers",
        "count": 1,
        "placement": [1, 2],
    }
    assert all("hex" not in e for e in version.entries)
    assert "1 Lancers @1,2" in version.list_text and version.report["legal"], version.report
    answered = api.get(f"/api/decks/{version.deck_id}/versions/1/").json()["entries"]
    lancers = next(e for e in answered if e["card"] == "Lancers")
    # answered under both names: older clients read `hex`
    assert lancers["placement"] == [1, 2] and lancers["hex"] == [1, 2]
    assert "placement" not in next(e for e in answered if e["section"] == "cards")


def test_the_validate_api_reads_both_keys_alike(client, sample_catalogue):
    def check(units):
        sections = {**_sample_sections(), "units": units}
        return client.post(
            "/api/validate/",
            {"game": "hex-skirmish", "format": "standard", "sections": sections},
            content_type="application/json",
        )

    new = [{"card": u["card"], "placement": u.get("placement") or u["hex"]} for u in UNITS]
    old = [{"card": u["card"], "hex": u.get("placement") or u["hex"]} for u in UNITS]
    assert check(new).json() == check(old).json()
    assert check(new).json()["legal"] is True
    clash = check([*new[:3], {"card": "Militia Spearmen", "placement": [5, 1], "hex": [0, 0]}])
    assert clash.status_code == 400
    assert "units[3]: both placement and hex are given; write one" in clash.content.decode()
    bad = check([*new[:3], {"card": "Militia Spearmen", "placement": [5]}])
    assert bad.status_code == 400 and "placement" in bad.content.decode()


def test_the_builder_reads_the_former_key_of_a_change(client, sample_catalogue, user, make_deck):
    from django.urls import reverse

    deck = make_deck(user, game="hex-skirmish", text="Units:\n1 Lancers @1,2\n")
    client.force_login(user)
    response = client.post(
        reverse("builder:change", args=[deck.pk]),
        {"op": "remove", "section": "units", "card": "Lancers", "hex": "1,2", "base": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    deck.refresh_from_db()
    assert deck.current_version.entries == []


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_the_key_of_stored_decks(user):
    games_sync()
    deck = Deck.objects.create(
        owner=user, game=Game.objects.get(slug="hex-skirmish"), format="standard", name="Old"
    )
    executor = MigrationExecutor(connection)
    executor.migrate([("decks", "0005_recheckjob")])
    try:
        DeckVersion.objects.create(
            deck=deck,
            number=1,
            list_text="Units:\n1 Lancers @1,2\n2 Militia Spearmen\n",
            entries=[
                {"section": "units", "card": "Lancers", "count": 1, "hex": [1, 2]},
                {"section": "units", "card": "Militia Spearmen", "count": 2},
            ],
        )
        executor = MigrationExecutor(connection)
        executor.migrate([("decks", "0006_entries_placement_key")])
        assert DeckVersion.objects.get(deck=deck).entries == [
            {"section": "units", "card": "Lancers", "count": 1, "placement": [1, 2]},
            {"section": "units", "card": "Militia Spearmen", "count": 2},
        ]
    finally:
        # The later migrations back, for the tests after this one.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
