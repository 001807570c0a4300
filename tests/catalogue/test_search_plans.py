"""What makes the search fast at a million printings, pinned without timing anything: the
indexes each kind of query is planned on, and deep pages read through the ids alone.

The catalogue here is modest (a few thousand cards, made once for the module), so the
planner, which would rightly scan so small a table, is told to prefer indexes
(`enable_seqscan` off for the statement explained): what is asserted is that an index able
to answer the query exists and is the one used. Each test fails when its index is dropped
(`test_a_dropped_index_fails_its_test` shows it for one of them). The times are measured at
a million printings by bench/search.py.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Card, Game
from catalogue.paging import COUNT_CAP, WalkPaginator
from catalogue.search import deep_page, search_cards
from catalogue.search.paging import DEEP_OFFSET
from catalogue.services import games_sync
from tests.database import SYLLABLES, module_catalogue, settle_card_indexes, syllable_names

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL plans")

CARDS = 12_000
PER_PAGE = 50
PAGES = CARDS // PER_PAGE  # 240


def _make_catalogue() -> int:
    """CARDS REDLINE cards, efreets (with speed and slots) and resources, and two thirds as
    many RED CODE ships, indexed and analysed."""
    games_sync()
    game = Game.objects.get(slug="redline")
    rng = random.Random(11)
    names, words = syllable_names(rng, CARDS)
    cards = []
    for i, name in enumerate(sorted(names)):
        efreet = i % 3 == 0
        cards.append(
            Card(
                game=game,
                name=name,
                kind="efreet" if efreet else "resource",
                faction=rng.choice(("une", "cpm", "")),
                cost=rng.randint(0, 8),
                text=" ".join(rng.choice(words) for _ in range(10))
                + (" Supply drop: a resource." if i % 97 == 0 else ""),
                attributes={"speed": rng.randint(1, 9), "slots": ["pilot"]} if efreet else {},
            )
        )
    Card.objects.bulk_create(cards, batch_size=1000)
    # Cards of another game, two thirds as many: the game is a condition the planner weighs,
    # as in a catalogue of five games (with every card in one game it is no condition at
    # all, and an index without the game, `card_name_id`, serves a game's pages as well).
    other = Game.objects.get(slug="red-code")
    Card.objects.bulk_create(
        [
            Card(game=other, name=name, kind="ship", cost=rng.randint(0, 8), text="A ship.")
            for i, name in enumerate(sorted(names))
            if i % 3
        ],
        batch_size=1000,
    )
    settle_card_indexes()
    return game.pk


_catalogue, game = module_catalogue(_make_catalogue)


def _plan(sql: str) -> str:
    """The plan of `sql`, the planner told to prefer indexes (for this statement only)."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN " + sql)
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("SET LOCAL enable_seqscan = on")


def _statements(callable_) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        callable_()
    return [
        q["sql"]
        for q in ctx.captured_queries
        if 'FROM "catalogue_card"' in q["sql"]
        and '"catalogue_printing"."card_id" IN' not in q["sql"]
    ]


def _search_plans(client, query: str, game: str | None) -> str:
    """The plans of the API's statements for `query` (its count and its page), in `game`
    or (None) in every game: then the query's own condition is all the index must serve,
    where in one game of a small catalogue the game's btree index competes with it."""
    params = {"q": query} if game is None else {"q": query, "game": game}

    def get():
        response = client.get("/api/cards/", params)
        assert response.status_code == 200, response.content[:300]

    return "\n".join(_plan(sql) for sql in _statements(get))


@pytest.mark.parametrize(
    ("query", "game_slug", "index"),
    [
        ("tigercat", None, "card_name_trgm"),  # a name
        ("tigrecat", None, "card_name_trgm"),  # a typo of it
        ("name:tiger", None, "card_name_trgm"),
        ('"supply drop"', None, "card_search_document"),  # a phrase of the rules text
        ("quorvane", None, "card_search_document"),  # a word of it
        ("o:supply", None, "card_text_lower_trgm"),
        ("slots:pilot", None, "card_attributes_path"),  # an attribute's value
        ("speed>=8", None, "card_num_speed"),  # a comparison of an integer attribute
        ("speed>=8", "redline", "card_num_speed"),
        ("kind:efreet", "redline", "card_game_kind"),  # a field of the card, in a game
    ],
)
def test_each_kind_of_query_is_planned_on_its_index(game, client, query, game_slug, index):
    plan = _search_plans(client, query, game_slug)
    assert index in plan, plan


def _deep(qs, page: int, per_page: int = PER_PAGE):
    return list(WalkPaginator(qs, per_page).page(page).object_list)


def test_a_deep_page_reads_the_ids_from_an_index_alone(game):
    qs = Card.objects.filter(game=game).order_by("name", "id")
    statements = _statements(lambda: _deep(qs, 20))
    assert len(statements) == 2  # the count, then the page
    plan = _plan(statements[-1])
    assert "Index Only Scan" in plan and "card_game_name_id" in plan, plan


@pytest.mark.parametrize(
    ("ordering", "index"),
    [
        (("cost", "name"), "card_game_cost_name_id"),
        (("kind", "name"), "card_game_kind_name_id"),
        (("faction", "name"), "card_game_faction_name_id"),
        (("-cost", "name"), "card_game_cost_desc_name_id"),
    ],
)
def test_a_deep_page_of_a_sort_reads_the_ids_from_its_index(game, ordering, index):
    qs = Card.objects.filter(game=game).order_by(*ordering)
    plan = _plan(_statements(lambda: _deep(qs, 25))[-1])
    assert "Index Only Scan" in plan and index in plan, plan


def test_a_deep_page_of_a_search_of_one_kind_reads_its_index(game):
    result = search_cards(
        query="kind:efreet", queryset=Card.objects.filter(game=game), game_slug="redline"
    )
    qs = result.queryset.order_by("name", "id")
    plan = _plan(_statements(lambda: _deep(qs, 15))[-1])
    assert "Index Only Scan" in plan and "card_game_kind_name_id" in plan, plan


def test_a_dropped_index_fails_its_test(game):
    qs = Card.objects.filter(game=game).order_by("name", "id")
    statement = _statements(lambda: _deep(qs, 20))[-1]
    assert "card_game_name_id" in _plan(statement)
    with connection.cursor() as cursor:
        cursor.execute("SAVEPOINT drop_index")
        cursor.execute("DROP INDEX card_game_name_id")
        try:
            assert "card_game_name_id" not in _plan(statement)
        finally:
            cursor.execute("ROLLBACK TO SAVEPOINT drop_index")


@pytest.mark.parametrize("ordering", [("name", "id"), ("-cost", "name"), ("kind", "name")])
@pytest.mark.parametrize("page", [11, 12, PAGES // 2, PAGES // 2 + 1, PAGES - 1, PAGES])
def test_deep_pages_hold_the_cards_a_plain_slice_holds(game, ordering, page):
    """Counted from the start or, past the middle, from the end: the same cards in the same
    order as OFFSET gives."""
    qs = Card.objects.filter(game=game).order_by(*ordering, "id")
    assert (page - 1) * PER_PAGE >= DEEP_OFFSET
    start = (page - 1) * PER_PAGE
    expected = list(qs[start : start + PER_PAGE].values_list("id", flat=True))
    assert [c.id for c in _deep(qs, page)] == expected
    assert len(expected) == PER_PAGE


def test_a_deep_page_keeps_the_columns_and_prefetches_asked_for(game, django_assert_num_queries):
    qs = (
        Card.objects.filter(game=game)
        .order_by("name", "id")
        .only("id", "name", "game")
        .prefetch_related("game")
    )
    with django_assert_num_queries(3):  # the count, the page, its game
        cards = _deep(qs, 30)
        assert {c.game.slug for c in cards} == {"redline"}
    assert "text" in cards[0].get_deferred_fields()


def test_a_deep_page_of_a_search_answers_the_search_through_the_api(game, client):
    first = client.get("/api/cards/", {"game": "redline", "q": "kind:efreet", "page": 1})
    count = first.json()["count"]
    assert count == CARDS // 3
    page = client.get("/api/cards/", {"game": "redline", "q": "kind:efreet", "page": 61})
    names = [c["name"] for c in page.json()["results"]]
    expected = list(
        Card.objects.filter(game=game, kind="efreet")
        .order_by("name", "id")
        .values_list("name", flat=True)[60 * PER_PAGE : 61 * PER_PAGE]
    )
    assert names == expected


def test_deep_page_leaves_the_first_pages_and_other_orders_to_the_slice(game):
    qs = Card.objects.filter(game=game).order_by("name")
    assert deep_page(qs, offset=DEEP_OFFSET - 1, limit=PER_PAGE, count=CARDS) is None
    assert deep_page(qs.distinct(), offset=DEEP_OFFSET, limit=PER_PAGE, count=CARDS) is None
    ranked = search_cards(query="tigercat", queryset=qs, game_slug="redline").queryset
    assert deep_page(ranked, offset=DEEP_OFFSET, limit=PER_PAGE, count=CARDS) is None


def test_the_first_page_by_falling_cost_is_read_in_its_index_order(game, client):
    def get():
        response = client.get("/cards/redline/", {"sort": "-cost"})
        assert response.status_code == 200

    plan = _plan(_statements(get)[-1])
    assert "card_game_cost_desc_name_id" in plan and "Sort" not in plan, plan


# --- Counts that stop at COUNT_CAP --------------------------------------------------------


def test_a_large_result_is_counted_up_to_the_cap_and_said_so_in_the_api(
    game, client, django_assert_num_queries
):
    assert CARDS > COUNT_CAP
    # The game, the count, the page, its games, its printings.
    with django_assert_num_queries(5) as captured:
        response = client.get("/api/cards/", {"game": "redline"})
    data = response.json()
    assert data["count"] == COUNT_CAP and data["count_capped"] is True
    assert len(data["results"]) == PER_PAGE and data["next"]
    counts = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]
    assert len(counts) == 1 and f"LIMIT {COUNT_CAP + 1}" in counts[0], counts
    # A result under the cap is counted exactly.
    small = client.get("/api/cards/", {"game": "redline", "q": "kind:efreet"}).json()
    assert small["count"] == CARDS // 3 and small["count_capped"] is False


def test_the_card_page_says_more_than_the_cap(game, client):
    page = client.get("/cards/redline/").content.decode()
    assert f"More than {COUNT_CAP:,} cards" in page
    assert "Page 1</span>" in page and "Page 1 of" not in page
    efreets = client.get("/cards/redline/", {"q": "kind:efreet"}).content.decode()
    assert f"{CARDS // 3} cards" in efreets and "More than" not in efreets


def test_pages_past_the_cap_are_read_to_the_end_of_the_results(game, client):
    per = 200
    last = -(-CARDS // per)
    names = list(
        Card.objects.filter(game=game).order_by("name", "id").values_list("name", flat=True)
    )
    page = client.get("/api/cards/", {"game": "redline", "page": last - 1, "page_size": per})
    data = page.json()
    assert data["count_capped"] is True and data["next"]
    assert [c["name"] for c in data["results"]] == names[(last - 2) * per : (last - 1) * per]
    end = client.get("/api/cards/", {"game": "redline", "page": last, "page_size": per}).json()
    assert [c["name"] for c in end["results"]] == names[(last - 1) * per :]
    assert end["next"] is None
    past = client.get("/api/cards/", {"game": "redline", "page": last + 1, "page_size": per})
    assert past.status_code == 404
    # The card page past the end shows its last page.
    html = client.get("/cards/redline/", {"page": 10_000, "per": 96}).content.decode()
    assert names[-1] in html and "Next" not in html


def test_a_deep_page_of_the_api_without_a_query_reads_the_ids_from_an_index(game, client):
    def get():
        response = client.get("/api/cards/", {"game": "redline", "page": 30})
        assert response.status_code == 200

    statements = _statements(get)
    plan = _plan(statements[-1])
    assert "Index Only Scan" in plan and "card_game_name_id" in plan, plan
    assert "OFFSET" in statements[-1] and '"catalogue_card"."id" IN (SELECT' in statements[-1]


def test_no_statement_of_a_search_is_compiled_just_in_time(game, client):
    """A search of many words (each an id subquery) is costed past the thresholds at which
    PostgreSQL compiles a statement's expressions, which took longer than the statement at
    a million printings: the site's connections turn JIT off. Here the thresholds are set to
    nothing, so that only that setting keeps the compiler out."""
    assert _settings_value("jit") == "off"

    def get():
        response = client.get("/api/cards/", {"game": "redline", "q": "ka ro mi tan vel dor"})
        assert response.status_code == 200

    statements = _statements(get)
    assert statements
    with connection.cursor() as cursor:
        for name in ("jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost"):
            cursor.execute(f"SET LOCAL {name} = 0")
        try:
            for sql in statements:
                cursor.execute("EXPLAIN (ANALYZE, FORMAT TEXT) " + sql)
                plan = "\n".join(row[0] for row in cursor.fetchall())
                assert "JIT:" not in plan, plan
        finally:
            for name in ("jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost"):
                cursor.execute(f"RESET {name}")


def _settings_value(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = %s", [name])
        return cursor.fetchone()[0]


# --- Ranked results: the first pages walked among the names holding the words whole ------


def _add_hawks(game, n: int = 400) -> None:
    """`n` cards named with the word "Hawk" among the catalogue's (3% of the game), and
    cards whose names are only like it ("Hawks", "Hawkeye": matched, ranked lower)."""
    rng = random.Random(5)
    cards = []
    for i in range(n):
        syllables = "".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
        name = f"Hawk {syllables} {i}" if i % 2 else f"{syllables} Hawk {i}"
        cards.append(Card(game=game, name=name, kind="resource", text="A bird."))
    for i, name in enumerate(("Hawks", "Hawkeye", "Blackhawk", "Hawkins")):
        cards.append(Card(game=game, name=f"Aa {name} {i}", kind="resource", text="Like one."))
    Card.objects.bulk_create(cards)
    settle_card_indexes(analyse=False)


@pytest.mark.parametrize("query", ["hawk", "hawk -faction:cpm", "HAWK cost<=8", "hawk bird"])
def test_the_first_page_of_a_ranked_search_is_walked_and_holds_the_same_cards(game, client, query):
    """A word held whole by many names: the first page is read by walking the game's names
    in order, testing the words' rank and the other conditions only, and holds the cards of
    the usual ranked query, in its order."""
    from django.core.cache import cache

    cache.clear()
    _add_hawks(game)
    result = search_cards(
        query=query,
        queryset=Card.objects.filter(game=game).order_by("name", "id"),
        game_slug="redline",
    )
    assert result.ranked and result.rest is not None
    want = list(result.queryset.values_list("name", flat=True)[:PER_PAGE])
    assert len(want) == PER_PAGE
    with CaptureQueriesContext(connection) as ctx:
        data = client.get("/api/cards/", {"game": "redline", "q": query}).json()
    assert [c["name"] for c in data["results"]] == want
    assert data["count"] == result.queryset.count()
    pages = [q["sql"] for q in ctx.captured_queries if "search_hit" in q["sql"]]
    assert len(pages) == 1, [q["sql"] for q in ctx.captured_queries]
    assert "WORD_SIMILARITY" in pages[0] and "AS walk" in pages[0]
    assert "card_game_name_id" in _plan(pages[0])


def test_a_ranked_search_whose_best_rank_is_not_proven_is_not_walked(game, client):
    """A word under an OR, or more words than are ranked: the usual query, same cards. A
    word no name holds whole ("hawks"): the walk finds too few, and the usual query runs."""
    _add_hawks(game)
    for query in ("hawk or tigercat", " ".join(["hawk"] * 9), "hawks"):
        result = search_cards(
            query=query,
            queryset=Card.objects.filter(game=game).order_by("name", "id"),
            game_slug="redline",
        )
        want = list(result.queryset.values_list("name", flat=True)[:PER_PAGE])
        with CaptureQueriesContext(connection) as ctx:
            data = client.get("/api/cards/", {"game": "redline", "q": query}).json()
        assert [c["name"] for c in data["results"]] == want, query
        walked = any("AS walk" in q["sql"] for q in ctx.captured_queries)
        assert walked == (query == "hawks"), query


def test_a_name_substring_without_a_trigram_is_not_read_through_the_trigram_index(game, client):
    """`name:ka` has no trigram: the trigram index would hand every card to the recheck.
    The cards are read in the page's order and tested instead; the same cards are found."""
    plan = _search_plans(client, "name:ka", None)
    assert "card_name_trgm" not in plan, plan
    data = client.get("/api/cards/", {"game": "redline", "q": "name:ka", "page_size": 200}).json()
    want = [
        n
        for n in Card.objects.filter(game=game)
        .order_by("name", "id")
        .values_list("name", flat=True)
        if "ka" in n.lower()
    ]
    assert data["count"] == len(want) and [c["name"] for c in data["results"]] == want[:200]
    # Three letters in a row have a trigram: the index serves them.
    assert "card_name_trgm" in _search_plans(client, "name:kar", None)


def test_a_condition_said_twice_is_searched_once(game):
    """ "hawk hawk …": one id subquery, not one a copy (the planner, taking the copies as
    independent, expected next to no match and planned for that: seconds on this
    catalogue); the same cards, ranked the same."""
    base = Card.objects.filter(game=game).order_by("name", "id")
    once = search_cards(query="hawk", queryset=base, game_slug="redline")
    for query in ("hawk hawk hawk", "hawk or hawk", " ".join(["hawk"] * 9)):
        result = search_cards(query=query, queryset=base, game_slug="redline")
        assert str(result.queryset.query).count("to_tsquery") == 1, query
        assert list(result.queryset.values_list("name", flat=True)[:PER_PAGE]) == list(
            once.queryset.values_list("name", flat=True)[:PER_PAGE]
        )


@pytest.mark.parametrize(
    ("params", "index"),
    [({"game": "redline"}, "card_game_name_id"), ({}, "card_name_id")],
    ids=["a-game", "every-game"],
)
def test_a_page_after_a_card_starts_reading_the_name_index_at_it(game, client, params, index):
    """The next link of page 30 names its last card: the page it leads to is read from the
    index holding the name order, starting at that card (the row comparison is the index's
    condition), whatever the depth; no id before it is read."""
    body = client.get("/api/cards/", {**params, "page": 30}).json()
    assert "after=" in body["next"]
    statements = _statements(lambda: client.get(body["next"]))
    page = statements[-1]
    assert "OFFSET" not in page
    plan = _plan(page)
    assert index in plan and "ROW((name)::text, id) > ROW(" in plan, plan
    assert "Index Cond" in plan.split("ROW((name)::text, id)")[0].splitlines()[-1], plan


def _word_matches(q):
    """The word matches (`_WordMatch`) a compiled condition holds, at any depth."""
    from catalogue.search.expressions import _WordMatch

    for child in q.children:
        if isinstance(child, _WordMatch):
            yield child
        elif hasattr(child, "children"):
            yield from _word_matches(child)


@pytest.mark.parametrize("query", ["tigercat", "supply", "tigercat kind:efreet", "drop cost<=4"])
def test_the_one_word_of_a_search_is_read_through_both_its_indexes_at_once(game, client, query):
    """A word alone (beside filters, not beside another word) is tested on the rows of the
    query's own table, which the planner reads through its full-text and trigram indexes as
    one bitmap: each match's row is visited once (an id subquery visits it once per index,
    then again by primary key). The cards found are those of the id subqueries."""
    plans = _search_plans(client, query, "redline")
    assert "BitmapOr" in plans, plans
    assert "card_search_document" in plans and "card_name_trgm" in plans, plans
    base = Card.objects.filter(game=game)
    result = search_cards(query=query, queryset=base, game_slug="redline")
    [word] = list(_word_matches(result.condition))
    assert word.direct
    sql = str(result.queryset.query)
    assert 'SELECT "id" FROM "catalogue_card"' not in sql, sql
    direct = set(result.queryset.values_list("id", flat=True))
    word.direct = False  # the same word as id subqueries
    subqueries = base.filter(result.condition)
    assert 'SELECT "id" FROM "catalogue_card"' in str(subqueries.query)
    assert set(subqueries.values_list("id", flat=True)) == direct
    assert direct, query


# --- What the planner knows of the cards ---------------------------------------------------


def _estimated_rows(sql: str, params: list) -> float:
    """The rows the planner expects `sql` to return (its top node's estimate)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        return cursor.fetchone()[0][0]["Plan"]["Plan Rows"]


@pytest.mark.parametrize(
    ("conditions", "values"),
    [
        ("kind = %s", ["efreet"]),
        ("kind = %s AND faction = %s", ["efreet", "une"]),
        ("faction = %s", ["une"]),
    ],
)
def test_the_planner_knows_that_a_kind_and_a_faction_belong_to_their_game(game, conditions, values):
    """Efreets and the UNE are REDLINE's alone. Taking the game, the kind and the faction as
    independent, the planner expected efreets to be the game's share of them all (here 60 %
    of the cards are REDLINE's: 2,400 of the 4,000), and planned a search's count and page
    on that (migration 0014)."""
    sql = f"SELECT id FROM catalogue_card WHERE game_id = %s AND {conditions}"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({sql}) AS matches", [game.pk, *values])
        count = cursor.fetchone()[0]
    assert count > 1000, count  # the catalogue is as the test means it to be
    estimate = _estimated_rows(sql, [game.pk, *values])
    assert abs(estimate - count) <= count * 0.1, (estimate, count)


def test_the_folded_names_are_sampled_finely_enough_to_estimate_a_substring(game):
    """`name:ab` is estimated from the histogram of `lower(name)`: with PostgreSQL's 100
    entries the estimate of a two-letter substring swung, from one ANALYZE to the next,
    between 15 cards and the true thousands, and the first page's plan with it (migration
    0015; measured at a million printings by bench/search.py). This catalogue is sampled
    whole by ANALYZE, so the swing itself cannot show here: the target that prevents it is
    what is pinned, and the estimate it gives."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attstattarget FROM pg_attribute "
            "WHERE attrelid = 'card_lower_name'::regclass AND attnum = 1"
        )
        assert cursor.fetchone()[0] >= 1000
        cursor.execute(
            "SELECT count(*) FROM catalogue_card WHERE game_id = %s AND lower(name) LIKE %s",
            [game.pk, "%ka%"],
        )
        count = cursor.fetchone()[0]
    sql = "SELECT id FROM catalogue_card WHERE game_id = %s AND lower(name) LIKE %s"
    estimate = _estimated_rows(sql, [game.pk, "%ka%"])
    assert count > 100 and count / 2 <= estimate <= count * 2, (estimate, count)
