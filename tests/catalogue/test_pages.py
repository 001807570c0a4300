"""Browse pages: game grids and lists, filters, card and expansion pages; query counts."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Card, Expansion, Game, Printing
from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", [g.slug for g in registry.all()])
def test_every_game_page_shows_its_cards_in_grid_and_list(client, sample_catalogue, slug):
    for view in ("grid", "list"):
        response = client.get(f"/cards/{slug}/", {"view": view, "per": 96})
        assert response.status_code == 200
        cards = response.context["cards"]
        assert cards
        assert cards[0].name in response.content.decode()


def test_filters_and_sort(client, sample_catalogue):
    response = client.get(
        "/cards/redline/", {"kind": "efreet", "faction": "une", "sort": "-cost", "per": 96}
    )
    cards = response.context["cards"]
    assert cards and all(c.kind == "efreet" and c.faction == "une" for c in cards)
    assert [c.cost for c in cards] == sorted((c.cost for c in cards), reverse=True)


def test_pagination(client, sample_catalogue):
    first = client.get("/cards/red-mittens/", {"per": 24})
    second = client.get("/cards/red-mittens/", {"per": 24, "page": 2})
    assert first.context["page"].paginator.num_pages >= 3
    assert {c.pk for c in first.context["cards"]}.isdisjoint(
        {c.pk for c in second.context["cards"]}
    )


def test_htmx_request_gets_only_the_results(client, sample_catalogue):
    response = client.get("/cards/redline/", {"q": "tigercat"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'id="results"' in html and "<header" not in html


def test_card_page_shows_every_attribute_with_its_label_and_printings(client, sample_catalogue):
    tiger = Card.objects.get(name="Tigercat")
    response = client.get(tiger.get_absolute_url())
    html = response.content.decode()
    schema = registry.get("redline").kinds["efreet"]
    for attr in schema.attrs:
        assert f"<th>{attr.label}</th>" in html
    assert "Core Set" in html or "RL1" in html
    assert tiger.text.split(".")[0] in html
    # No image: the face is drawn from the data.
    assert 'class="card-face' in html and 'class="fig-icons"' in html  # its slots as icons


def test_card_of_another_game_is_not_found(client, sample_catalogue):
    tiger = Card.objects.get(name="Tigercat")
    assert client.get(f"/cards/red-code/card/{tiger.pk}/").status_code == 404


def test_expansion_page_lists_its_cards(client, sample_catalogue):
    exp = Expansion.objects.get(code="RL1")
    response = client.get(exp.get_absolute_url())
    assert response.status_code == 200
    assert len(response.context["printings"]) == exp.printings.count()
    page = response.content.decode()
    assert "sample" in page.lower()
    # Kinds by their labels; no cost shown for a kind without one.
    assert '<td data-label="Kind">Critical hit</td>' in page and ">critical_hit<" not in page
    assert '<td data-label="Cost"><span class="muted" title="no cost">—</span></td>' in page


def test_search_help_lists_the_keys_of_each_game(client):
    html = client.get("/cards/help/").content.decode()
    for game in registry.all():
        for schema in game.kinds.values():
            for attr in schema.attrs:
                assert f"<code>{attr.key}</code>" in html


def add_cards(n):
    game = Game.objects.get(slug="red-mittens")
    exp = Expansion.objects.get(game=game)
    cards = Card.objects.bulk_create(
        Card(
            game=game,
            name=f"Extra Field {i}",
            kind="field",
            attributes={"time": "day", "realm": "", "field_class": "", "elemental_res": ""},
        )
        for i in range(n)
    )
    Printing.objects.bulk_create(
        Printing(card=c, expansion=exp, number=f"x{i}") for i, c in enumerate(cards)
    )


def count_queries(client, url, params):
    cache.clear()  # the walk's cached number of cards searched: counted on both runs
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, params).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/cards/red-mittens/", {"per": 96}),
        ("/cards/red-mittens/", {"per": 96, "view": "list", "set": "RM1"}),
        ("/cards/red-mittens/sets/RM1/", {}),
        ("/", {}),
        ("/api/cards/", {"game": "red-mittens"}),
        # Dense searches: on PostgreSQL their pages are walked in name order.
        ("/api/cards/", {"game": "red-mittens", "q": "kind:unit"}),
        ("/cards/red-mittens/", {"q": "kind:unit -classes:bard", "per": 24}),
        ("/api/games/red-mittens/bulk/", {}),
    ],
)
def test_list_pages_query_count_does_not_grow_with_the_number_of_cards(
    client, sample_catalogue, url, params
):
    before = count_queries(client, url, params)
    add_cards(60)
    after = count_queries(client, url, params)
    assert after == before
    # At most: the game, the count, the number of cards searched (kept for a while, counted
    # here as the cache is cleared), the walk, the cards, the games and printings prefetched.
    assert before <= 7


def test_pages_of_a_dense_search_follow_the_name_order(client, sample_catalogue):
    cache.clear()
    want = list(
        Card.objects.filter(game__slug="redline", cost__gte=0)
        .order_by("name")
        .values_list("name", flat=True)
    )
    assert len(want) > 48
    got = []
    for page in (1, 2, 3):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get("/cards/redline/", {"q": "cost>=0", "per": 24, "page": page})
        assert response.status_code == 200
        got.extend(card.name for card in response.context["cards"])
        walked = any("search_hit" in q["sql"] for q in ctx.captured_queries)
        assert walked == (connection.vendor == "postgresql")
    assert got == want
    # Another sort is not walked, and still right.
    response = client.get("/cards/redline/", {"q": "cost>=0", "per": 96, "sort": "-cost"})
    costs = [card.cost for card in response.context["cards"]]
    assert costs == sorted(costs, reverse=True)
