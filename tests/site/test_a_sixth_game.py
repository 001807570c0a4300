"""A sixth game is one package: Pond (tests/toy_game/, two kinds, a format, a goldfish and a
tool) is registered for this test alone and driven end to end as its users would: an admin
imports its expansion file, a collector browses and searches it, a player builds a deck
through the API and the builder page, runs the goldfish on a real worker, and opens the
game's tool. Nothing outside tests/toy_game/ knows the game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import tests.toy_game as pond
from tests.conftest import wait_for
from validation.registry import registry

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

EXPANSION = Path(pond.__file__).parent / "sample_data" / "POND1.json"
HTMX = {"HTTP_HX_REQUEST": "true"}
LEGAL = "Frogs:\n2 Leaper\n2 Croaker\nLily pads:\n6 Broad Pad\n"


@pytest.fixture
def pond_game():
    with registry.temporarily(pond.GAME) as game:
        yield game


def _import_expansion(client, staff_user) -> None:
    client.force_login(staff_user)
    url = reverse("admin:catalogue_expansion_import")
    upload = SimpleUploadedFile("POND1.json", EXPANSION.read_bytes())
    preview = client.post(url, {"file": upload})
    assert preview.status_code == 200
    assert preview.context["report"].ok and len(preview.context["report"].created) == 6
    assert client.post(url, {"confirm": "1"}).status_code == 302
    client.logout()


def _browse_and_search(client) -> None:
    home = client.get("/").content.decode()
    assert 'href="/cards/pond/"' in home
    page = client.get("/cards/pond/").content.decode()
    for name in ("Leaper", "Plopper", "Croaker", "Tadpole", "Broad Pad", "Small Pad"):
        assert name in page
    found = client.get("/cards/pond/", {"q": "kind:frog hop>=3"}).content.decode()
    assert "Leaper" in found and "Croaker" in found and "Plopper" not in found
    typo = client.get("/api/cards/", {"game": "pond", "q": "leapr"}).json()
    assert [c["name"] for c in typo["results"]] == ["Leaper"]
    card_urls = re.findall(r'href="(/cards/pond/card/\d+/)"', found)
    card = next(
        html
        for html in (client.get(url).content.decode() for url in dict.fromkeys(card_urls))
        if "<h1>Leaper</h1>" in html
    )
    assert "Hop" in card and "Hops far." in card


def _validate_through_the_api(client) -> None:
    bad = client.post(
        "/api/validate/",
        {"game": "pond", "format": "pond", "list": "Frogs:\n3 Leaper\nLily pads:\n5 Small Pad"},
        content_type="application/json",
    ).json()
    assert not bad["legal"]
    assert {v["code"] for v in bad["errors"]} == {"frogs.size", "frogs.copies", "pads.size"}
    assert "Line 2: 3 copies of Leaper; at most 2" in [v["message"] for v in bad["errors"]]
    good = client.post(
        "/api/validate/",
        {"game": "pond", "format": "pond", "list": LEGAL},
        content_type="application/json",
    ).json()
    assert good["legal"] and good["totals"]["sections"] == {"frogs": 4, "pads": 6}


def _build_in_the_builder(client, user):
    from decks.models import Deck

    client.force_login(user)
    start = client.get(reverse("builder:start")).content.decode()
    assert reverse("builder:new", args=["pond", "pond"]) in start
    made = client.post(reverse("builder:new", args=["pond", "pond"]), {"name": "Lily road"})
    deck = Deck.objects.get(name="Lily road")
    assert made["Location"] == reverse("builder:deck", args=[deck.pk])
    page = client.get(made["Location"]).content.decode()
    assert "Frogs" in page and "Lily pads" in page and "≥ 4" in page
    change = reverse("builder:change", args=[deck.pk])
    base = ""
    for section, card, count in (("frogs", "Leaper", 2), ("frogs", "Croaker", 2)):
        html = client.post(
            change,
            {"op": "set", "section": section, "card": card, "count": count, "base": base},
            **HTMX,
        ).content.decode()
        base = re.search(r'name="base" value="(\d+)"', html).group(1)
    quick = client.post(
        reverse("builder:quick", args=[deck.pk]), {"name": "broad pad", "base": base}, **HTMX
    ).content.decode()
    assert "Added 1 Broad Pad to Lily pads." in quick
    base = re.search(r'name="base" value="(\d+)"', quick).group(1)
    html = client.post(
        change,
        {"op": "set", "section": "pads", "card": "Broad Pad", "count": 6, "base": base},
        **HTMX,
    ).content.decode()
    assert "Legal" in html
    deck.refresh_from_db()
    sections = deck.current_version.sections()
    assert deck.legal
    assert {s: sum(e["count"] for e in rows) for s, rows in sections.items()} == {
        "frogs": 4,
        "pads": 6,
    }
    return deck


def _goldfish_on_a_worker(client, deck, dedicated_worker, settings) -> None:
    from simulations.models import SimulationRun

    settings.SIMULATIONS_CHUNK_GAMES = 5_000
    dedicated_worker.start(concurrency=1)
    panel = client.get(f"/simulations/decks/{deck.pk}/", **HTMX).content.decode()
    assert 'id="sim-start-pond-goldfish"' in panel
    started = client.post(
        f"/simulations/decks/{deck.pk}/start/",
        {"kind": "pond-goldfish", "games": "20000", "turns": "8", "seed": "7"},
    )
    run = SimulationRun.objects.get(owner__username=deck.owner.username)
    assert started["Location"] == run.get_absolute_url() and run.n_chunks == 4

    def finished():
        run.refresh_from_db()
        return run.status if run.status in ("done", "failed") else None

    assert wait_for(finished, timeout=120, interval=0.5) == "done", run.error
    assert run.results["stats"]["games"] == 20_000 and run.timings["workers"]
    html = client.get(run.get_absolute_url()).content.decode()
    assert f'id="chart-run{run.pk}-pond-bank"' in html
    assert "Mean turn the bank is reached" in html


def _open_the_tool(client) -> None:
    game_page = client.get("/cards/pond/").content.decode()
    assert 'href="/play/pond/hop-odds/"' in game_page
    page = client.get("/play/pond/hop-odds/").content.decode()
    assert 'name="frog"' in page and "Leaper" in page
    result = client.get(
        "/play/pond/hop-odds/", {"frog": "Leaper", "distance": 5, "hops": 3}
    ).content.decode()
    assert 'id="hop-table"' in result and "93.8%" in result and "<svg" in result
    api = client.get("/api/play/pond/hop-odds/", {"frog": "Leaper", "distance": 5, "hops": 3})
    assert api.status_code == 200
    assert api.json()["by_hops"][-1]["fraction"] == "15/16"
    refused = client.get("/api/play/pond/hop-odds/", {"frog": "Nobody", "distance": 5})
    assert refused.status_code == 400


def test_a_sixth_game_is_one_package(
    client, staff_user, user, pond_game, dedicated_worker, monkeypatch, settings
):
    # The worker is another process: it learns of the game the way a site does, from the
    # CARDSITE_GAMES setting.
    monkeypatch.setenv("CARDSITE_GAMES", "tests.toy_game")
    _import_expansion(client, staff_user)
    _browse_and_search(client)
    _validate_through_the_api(client)
    deck = _build_in_the_builder(client, user)
    _goldfish_on_a_worker(client, deck, dedicated_worker, settings)
    _open_the_tool(client)
