"""Collections across decks (issue 36): products and loose cards owned together (a reprint in
two owned sets counts from both), decks marked built, each card's owned · in built decks ·
free, the wants, a card's decks, and the collection's CSV and text files, through the API.
Query counts are pinned and do not grow with the number of decks, products or cards."""

from __future__ import annotations

import csv
import io

import pytest

from catalogue.models import Card, Expansion, Printing
from collection.models import CollectionEntry, OwnedProduct
from decks import services
from tests.decks.conftest import sample_list

JSON = "application/json"

GAMES = {
    # game -> (the format of its example list, its sample expansion)
    "redline": ("standard", "RL1"),
    "red-code": ("war", "RC1"),
    "tactical-assault": ("standard", "TA1"),
    "red-mittens": ("core", "RM1"),
    "hex-skirmish": ("standard", "HS1"),
}


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _deck(owner, game="redline", name="Deck", built=False):
    fmt = GAMES[game][0]
    deck = services.deck_create(
        owner=owner,
        game_slug=game,
        format=fmt,
        name=name,
        visibility="private",
        text=sample_list(game, fmt),
    )
    if built:
        services.deck_set_built(deck=deck, built=True)
    return deck


def _reprint(card_name: str, code: str = "RL2") -> Expansion:
    """A second REDLINE set reprinting `card_name`."""
    game_id = Card.objects.get(name=card_name).game_id
    expansion = Expansion.objects.create(game_id=game_id, code=code, name=f"Reprints {code}")
    Printing.objects.create(card=Card.objects.get(name=card_name), expansion=expansion, number="1")
    return expansion


def _own(owner, code: str, count: int = 1) -> None:
    OwnedProduct.objects.create(
        owner=owner, expansion=Expansion.objects.get(code=code), count=count
    )


def _loose(owner, name: str, count: int) -> None:
    CollectionEntry.objects.create(owner=owner, card=Card.objects.get(name=name), count=count)


# --- What you own ---------------------------------------------------------------------------


def test_a_reprint_in_two_owned_sets_counts_from_both_and_loose_copies_add(
    signed_in, sample_catalogue, user
):
    _reprint("Tigercat")
    _own(user, "RL1", 2)
    _own(user, "RL2", 1)
    _loose(user, "Tigercat", 1)
    deck = _deck(user)
    rows = {r["card"]: r for r in signed_in.get(f"/api/decks/{deck.pk}/availability/").json()}
    assert rows["Tigercat"]["owned"] == 2 + 1 + 1
    assert rows["Rabbit"]["owned"] == 2  # printed in RL1 only
    body = signed_in.get("/api/collection/").json()
    assert [(p["code"], p["count"]) for p in body["products"]] == [("RL1", 2), ("RL2", 1)]
    assert [(c["card_name"], c["count"]) for c in body["cards"]] == [("Tigercat", 1)]


def test_a_card_named_like_another_but_for_its_case_is_counted_apart(
    signed_in, sample_catalogue, user
):
    tigercat = Card.objects.get(name="Tigercat")
    shouted = Card.objects.create(
        game_id=tigercat.game_id,
        name="TIGERCAT",
        kind=tigercat.kind,
        faction=tigercat.faction,
        cost=tigercat.cost,
        attributes=tigercat.attributes,
    )
    Printing.objects.create(card=shouted, expansion=Expansion.objects.get(code="RL1"), number="99")
    _own(user, "RL1", 2)
    _loose(user, "TIGERCAT", 5)
    deck = _deck(user)
    rows = {r["card"]: r for r in signed_in.get(f"/api/decks/{deck.pk}/availability/").json()}
    assert rows["Tigercat"]["owned"] == 2 and "TIGERCAT" not in rows
    wants = {r["card"]: r for r in signed_in.get(f"/api/collection/wants/?deck={deck.pk}").json()}
    assert (wants["Tigercat"]["owned"], wants["Tigercat"]["missing"]) == (2, 2)
    body = signed_in.get(f"/api/cards/{shouted.pk}/decks/").json()
    assert body["decks"] == []


def test_put_replaces_the_whole_collection_and_names_unknown_ids(signed_in, sample_catalogue, user):
    _loose(user, "Rabbit", 3)
    rl1 = Expansion.objects.get(code="RL1")
    tigercat = Card.objects.get(name="Tigercat")
    body = {
        "products": [{"expansion": rl1.pk, "count": 2}],
        "cards": [{"card": tigercat.pk, "count": 5}],
    }
    response = signed_in.put("/api/collection/", body, content_type=JSON)
    assert response.status_code == 200, response.content
    assert [(c["card_name"], c["count"]) for c in response.json()["cards"]] == [("Tigercat", 5)]
    assert list(OwnedProduct.objects.values_list("expansion__code", "count")) == [("RL1", 2)]
    bad = {
        "products": [{"expansion": 999999, "count": 1}],
        "cards": [{"card": tigercat.pk, "count": 0}],
    }
    response = signed_in.put("/api/collection/", bad, content_type=JSON)
    assert response.status_code == 400
    response = signed_in.put(
        "/api/collection/",
        {"products": [{"expansion": 999999, "count": 1}], "cards": []},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert "products[0]: no expansion 999999" in response.content.decode(), response.json()
    assert CollectionEntry.objects.get().count == 5  # nothing changed by a refused PUT


# --- Built decks and availability ----------------------------------------------------------


def test_built_decks_take_their_cards_and_unbuilding_frees_them_at_once(
    signed_in, sample_catalogue, user
):
    _own(user, "RL1", 1)
    _loose(user, "Tigercat", 7)  # 8 owned
    a = _deck(user, name="Deck A")
    b = _deck(user, name="Deck B")
    c = _deck(user, name="Deck C")
    response = signed_in.patch(f"/api/decks/{a.pk}/", {"built": True}, content_type=JSON)
    assert response.status_code == 200 and response.json()["built"] is True
    signed_in.patch(f"/api/decks/{b.pk}/", {"built": True}, content_type=JSON)
    rows = {r["card"]: r for r in signed_in.get(f"/api/decks/{c.pk}/availability/").json()}
    tiger = rows["Tigercat"]
    assert (tiger["needed"], tiger["owned"], tiger["in_built_decks"], tiger["free"]) == (4, 8, 8, 0)
    assert [(d["id"], d["name"], d["count"]) for d in tiger["built_decks"]] == [
        (a.pk, "Deck A", 4),
        (b.pk, "Deck B", 4),
    ]
    assert tiger["short"] == 4
    signed_in.patch(f"/api/decks/{b.pk}/", {"built": False}, content_type=JSON)
    rows = {r["card"]: r for r in signed_in.get(f"/api/decks/{c.pk}/availability/").json()}
    assert (rows["Tigercat"]["free"], rows["Tigercat"]["short"]) == (4, 0)
    # A deck's own copies are what it needs, never counted against it.
    rows = {r["card"]: r for r in signed_in.get(f"/api/decks/{a.pk}/availability/").json()}
    assert rows["Tigercat"]["built_decks"] == []


def test_another_users_deck_cannot_be_marked_built_nor_read(
    client, sample_catalogue, user, other_user
):
    deck = _deck(user)
    client.force_login(other_user)
    assert (
        client.patch(f"/api/decks/{deck.pk}/", {"built": True}, content_type=JSON).status_code
        == 404
    )
    assert client.get(f"/api/decks/{deck.pk}/availability/").status_code == 404
    assert client.get(f"/api/collection/wants/?deck={deck.pk}").status_code == 404
    deck.refresh_from_db()
    assert deck.built is False


def test_availability_costs_the_same_queries_for_one_built_deck_or_twenty(
    signed_in, sample_catalogue, user, django_assert_num_queries
):
    _own(user, "RL1", 3)
    deck = _deck(user)
    _deck(user, name="built", built=True)
    # session, user, the deck with its version, the owned copies, the built decks
    with django_assert_num_queries(5):
        assert signed_in.get(f"/api/decks/{deck.pk}/availability/").status_code == 200
    for i in range(19):
        _deck(user, name=f"built {i}", built=True)
    _reprint("Tigercat")
    _own(user, "RL2", 2)
    with django_assert_num_queries(5):
        rows = signed_in.get(f"/api/decks/{deck.pk}/availability/").json()
    assert len({r["card"]: r for r in rows}["Tigercat"]["built_decks"]) == 20


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_counts_its_cards_ships_and_unit_types(signed_in, sample_catalogue, user, game):
    fmt, code = GAMES[game]
    _own(user, code, 1)
    built = _deck(user, game, name="in a box", built=True)
    deck = _deck(user, game, name="next")
    rows = signed_in.get(f"/api/decks/{deck.pk}/availability/").json()
    assert rows and all(r["owned"] >= 1 for r in rows), game
    assert all(
        r["built_decks"] == [{"id": built.pk, "name": "in a box", "count": r["needed"]}]
        for r in rows
    )
    assert all(r["free"] == max(r["owned"] - r["needed"], 0) for r in rows)


# --- Wants ---------------------------------------------------------------------------------


def test_wants_of_a_deck_and_of_all_decks_exported_as_text_and_csv(
    signed_in, sample_catalogue, user, django_assert_num_queries
):
    _loose(user, "Tigercat", 5)
    deck = _deck(user)
    _deck(user, name="second")
    rows = signed_in.get(f"/api/collection/wants/?deck={deck.pk}").json()
    by_card = {r["card"]: r for r in rows}
    assert "Tigercat" not in by_card  # 4 needed, 5 owned
    assert by_card["Rabbit"] == {
        "game": "redline",
        "card": "Rabbit",
        "needed": 4,
        "owned": 0,
        "missing": 4,
    }
    # session, user, the decks' versions, the owned copies
    with django_assert_num_queries(4):
        every = {r["card"]: r for r in signed_in.get("/api/collection/wants/").json()}
    assert every["Tigercat"]["missing"] == 8 - 5 and every["Rabbit"]["missing"] == 8
    text = signed_in.get("/api/collection/wants/text/").content.decode()
    assert "3 Tigercat\n" in text and "8 Rabbit\n" in text
    rows = list(
        csv.DictReader(io.StringIO(signed_in.get("/api/collection/wants/csv/").content.decode()))
    )
    assert {"Count": "3", "Name": "Tigercat", "Game": "redline"} in rows
    assert signed_in.get("/api/collection/wants/?format=pdf").status_code == 400


# --- A card's decks ------------------------------------------------------------------------


def test_a_cards_decks_yours_and_the_public_counts(
    client, sample_catalogue, user, other_user, django_assert_num_queries
):
    mine = _deck(user, name="Mine", built=True)
    services.deck_create(
        owner=other_user,
        game_slug="redline",
        format="standard",
        name="Theirs",
        visibility="public",
        text=sample_list("redline", "standard"),
    )
    tigercat = Card.objects.get(name="Tigercat")
    client.force_login(user)
    # session, user, the card, your decks holding it, the public decks, the decklists
    with django_assert_num_queries(6):
        body = client.get(f"/api/cards/{tigercat.pk}/decks/").json()
    assert body == {
        "decks": [{"id": mine.pk, "name": "Mine", "count": 4, "built": True}],
        "public_decks": 1,
        "decklists": 0,
    }
    client.logout()
    assert client.get(f"/api/cards/{tigercat.pk}/decks/").json()["decks"] == []
    assert client.get("/api/cards/999999/decks/").status_code == 404


# --- Files people already have -------------------------------------------------------------

CSV = """Count,Name,Edition,Card Number,Condition
2,,RL1,,
1,,RL2,,
3,Tigercat,RL1,4,Near Mint
1,Rabbit,,,
"""


def test_csv_of_two_products_and_loose_cards_imports_and_a_dry_run_writes_nothing(
    signed_in, sample_catalogue, user
):
    _reprint("Tigercat")
    body = {"game": "redline", "csv": CSV, "dry_run": True}
    response = signed_in.post("/api/collection/import/", body, content_type=JSON)
    assert response.json() == {
        "cards": 4,
        "distinct_cards": 2,
        "products": 3,
        "rows": 4,
        "dry_run": True,
    }
    assert not OwnedProduct.objects.exists() and not CollectionEntry.objects.exists()
    body["dry_run"] = False
    assert signed_in.post("/api/collection/import/", body, content_type=JSON).status_code == 200
    assert dict(OwnedProduct.objects.values_list("expansion__code", "count")) == {
        "RL1": 2,
        "RL2": 1,
    }
    assert dict(CollectionEntry.objects.values_list("card__name", "count")) == {
        "Tigercat": 3,
        "Rabbit": 1,
    }
    # Exported and imported again with replace, the collection is the same.
    exported = signed_in.get("/api/collection/export/")
    assert exported["Content-Type"].startswith("text/csv")
    # A loose card's row names its first printing (its Edition and Card Number).
    first = Printing.objects.filter(card__name="Tigercat").order_by(*Printing._meta.ordering)[0]
    row = f"3,Tigercat,{first.expansion.code},{first.number},redline"
    assert row in exported.content.decode().splitlines() and first.number
    again = {"game": "redline", "csv": exported.content.decode(), "replace": True}
    assert signed_in.post("/api/collection/import/", again, content_type=JSON).status_code == 200
    assert dict(OwnedProduct.objects.values_list("expansion__code", "count")) == {
        "RL1": 2,
        "RL2": 1,
    }
    text = signed_in.get("/api/collection/export/text/").content.decode()
    assert "# Game: redline\n" in text and "6 Tigercat\n" in text  # 2 + 1 + 3


def test_a_bad_csv_is_refused_naming_each_bad_line_and_nothing_is_imported(
    signed_in, sample_catalogue, user
):
    bad = (
        "Count,Name,Edition\n"
        "2,Tigercat,\n"
        "-1,Rabbit,\n"
        "many,Rabbit,\n"
        "1,Ship of the Line,\n"  # no REDLINE card (another game's, or none)
        "1,,XX9\n"
        "1,Tigercat,RC1\n"
    )
    response = signed_in.post(
        "/api/collection/import/", {"game": "redline", "csv": bad}, content_type=JSON
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["line"] for e in errors] == [3, 4, 5, 6, 7]
    assert "Count '-1'" in errors[0]["message"] and "Count 'many'" in errors[1]["message"]
    assert "XX9" in errors[3]["message"]
    assert not CollectionEntry.objects.exists() and not OwnedProduct.objects.exists()


def test_a_csv_without_count_or_name_columns_is_refused(signed_in, sample_catalogue):
    response = signed_in.post(
        "/api/collection/import/",
        {"game": "redline", "csv": "Qty,Card\n1,Tigercat\n"},
        content_type=JSON,
    )
    assert response.status_code == 400
    message = response.json()["errors"][0]["message"]
    assert "no Count and no Name column" in message and "'Qty'" in message


def test_a_csv_of_100000_rows_is_refused_by_its_size(signed_in, sample_catalogue):
    big = "Count,Name\n" + "1,Tigercat\n" * 100_000
    response = signed_in.post(
        "/api/collection/import/", {"game": "redline", "csv": big}, content_type=JSON
    )
    assert response.status_code == 400
    assert "at most" in response.content.decode()
    assert not CollectionEntry.objects.exists()


def test_a_card_of_another_game_is_an_unknown_card(signed_in, sample_catalogue):
    other = (
        Card.objects.exclude(game__slug="redline")
        .exclude(name__in=Card.objects.filter(game__slug="redline").values("name"))
        .first()
    )
    response = signed_in.post(
        "/api/collection/import/",
        {"game": "redline", "csv": f"Count,Name\n1,{other.name}\n"},
        content_type=JSON,
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["line"] == 2


def test_options_on_the_whole_collection_describes_it_instead_of_failing(signed_in):
    """OPTIONS asks DRF to describe PUT, which would read a single entry: the whole
    collection's route has none (it answered 500)."""
    response = signed_in.options("/api/collection/")
    assert response.status_code == 200
    assert response.json()["name"]
    assert "PUT" in response["Allow"] and "GET" in response["Allow"]


@pytest.mark.parametrize("value", ["", "x", "-1", "1.5"])
def test_wants_of_a_deck_that_is_not_a_whole_number_is_a_400_naming_deck(signed_in, value):
    response = signed_in.get(f"/api/collection/wants/?deck={value}")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["deck"]


def test_the_wants_as_a_file_download_under_a_name_of_their_own(signed_in, sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Wanted",
        text=sample_list("redline", "standard"),
    )
    answer = signed_in.get(f"/api/collection/wants/csv/?deck={deck.pk}")
    assert answer["Content-Disposition"] == f'attachment; filename="wants-{deck.pk}.csv"'
    answer = signed_in.get("/api/collection/wants/text/")
    assert answer["Content-Disposition"] == 'attachment; filename="wants.txt"'
    assert "Supply Drop" in answer.content.decode()
