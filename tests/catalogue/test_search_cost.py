"""A search's cost is bounded whatever the query: words with no trigrams are dropped, the
terms are capped, and every subquery reads the searched game's cards only."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Card, Game
from catalogue.search import MAX_TERMS, search_cards
from catalogue.services import games_sync
from tests.database import SYLLABLES, shared_data
from tests.problems import field_errors

pg_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL plans")


def _make_big_catalogue() -> Game:
    """20,000 REDLINE resource cards (the kind without attributes to fill), analysed."""
    games_sync()
    game = Game.objects.get(slug="redline")
    rng = random.Random(7)
    names: set[str] = set()
    while len(names) < 20_000:
        parts = ["".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize() for _ in (1, 2)]
        names.add(" ".join(parts))
    words = ["".join(rng.choice(SYLLABLES) for _ in range(2)) for _ in range(500)]
    Card.objects.bulk_create(
        [
            Card(
                game=game,
                name=name,
                kind="resource",
                cost=rng.randint(0, 8),
                text=" ".join(rng.choice(words) for _ in range(12)),
            )
            for name in sorted(names)
        ],
        batch_size=5000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalogue_card")
    return game


HOSTILE = ("a* *" * 20)[:79]  # 79 characters: 40 words, not one with a trigram
# As many terms as a search may have, not one with a trigram.
HOSTILE_TERMS = " ".join(["a*", "*"] * 6)
TWELVE = SYLLABLES[:12]


def test_the_hostile_queries():
    assert len(HOSTILE) == 79
    assert len(HOSTILE_TERMS.split()) == 12


def test_a_query_of_40_words_is_refused_naming_q(db, client):
    response = client.get("/api/cards/", {"game": "redline", "q": HOSTILE})
    assert response.status_code == 400
    assert "at most 12" in field_errors(response.json())["q"]


def test_single_letters_and_bare_wildcards_are_dropped_with_a_message(db):
    result = search_cards(query="a* * tiger", queryset=Card.objects.all(), game_slug="redline")
    assert result.read_as == "tiger"
    assert any("'a*'" in p and "too short" in p for p in result.problems), result.problems
    assert any("'*'" in p for p in result.problems), result.problems


def test_too_many_terms_are_refused_with_a_message(db):
    query = " ".join(f"word{i}" for i in range(30))
    result = search_cards(query=query, queryset=Card.objects.all(), game_slug="redline")
    assert MAX_TERMS == 12
    assert result.read_as == ""
    assert result.error == f"The search has more than {MAX_TERMS} terms; use at most {MAX_TERMS}."


@pg_only
@pytest.mark.parametrize(
    "query",
    ["tiger drop", '-"supply drop"', "tiger or cost:3", '"supply drop" or speed>=4', "-tiger"],
)
def test_every_subquery_reads_the_searched_game_only(sample_catalogue, query):
    # (One word alone is no subquery: it is tested on the rows of the query's own table,
    # test_search_plans.py.)
    qs = Card.objects.filter(game__slug="redline")
    result = search_cards(query=query, queryset=qs, game_slug="redline")
    with CaptureQueriesContext(connection) as queries:
        list(result.queryset.values_list("id", flat=True))
    sql = queries.captured_queries[-1]["sql"]
    subqueries = sql.count('FROM "catalogue_card" WHERE') + sql.count(
        'FROM "catalogue_card" U0 WHERE'
    )
    assert subqueries >= 1, sql
    # Each tests the game on the rows it finds (`+ 0`: not through the game's index).
    assert len(re.findall(r'"game_id"\)? \+ 0\)? = \(SELECT', sql)) >= subqueries, sql


# What these searches cost is measured in bench/search.py; here, that they answer (not the
# statement timeout's 503) with a message, in a number of queries that does not grow with the
# query's words.


@pg_only
class TestTwentyThousandCards:
    """Searches of a catalogue of 20,000 cards, made once for the class's tests (each runs in
    a savepoint of the class's transaction, tests/database.py)."""

    @pytest.fixture(scope="class")
    @classmethod
    def _big_catalogue(cls, django_db_setup, django_db_blocker, request):
        """The game's primary key."""
        with shared_data(request, django_db_blocker):
            yield _make_big_catalogue().pk

    @pytest.fixture
    def big_catalogue(self, _big_catalogue, db):
        """20,000 REDLINE resource cards (the kind without attributes to fill), analysed."""
        return Game.objects.get(pk=_big_catalogue)

    def test_words_without_trigrams_are_dropped_with_a_message(
        self, big_catalogue, client, django_assert_max_num_queries
    ):
        with django_assert_max_num_queries(8):
            response = client.get("/cards/redline/", {"q": HOSTILE_TERMS})
        assert response.status_code == 200
        text = response.content.decode()
        assert "too short" in text

    @pytest.mark.parametrize(
        "query",
        [
            HOSTILE_TERMS,
            " ".join(TWELVE),  # two-letter prefixes found in nearly every card
            " or ".join(TWELVE),
            " ".join(f'"{s}"' for s in TWELVE),
        ],
    )
    def test_the_api_answers_costly_queries_with_a_message(
        self, big_catalogue, client, query, django_assert_max_num_queries
    ):
        # At most: the game, the count, the page, its games and printings; a search of
        # words or text in a game this large is also sized from a sample (the game's number
        # of cards, kept five minutes, and the sample), which may stand for the count.
        with django_assert_max_num_queries(6):
            response = client.get("/api/cards/", {"game": "redline", "q": query})
        assert response.status_code == 200
        assert "problems" in response.json()

    def test_did_you_mean_suggestions_read_the_trigram_index(self, big_catalogue):
        from catalogue.services import closest_card_names

        names = list(Card.objects.order_by("name").values_list("name", flat=True)[:3])
        typos = [name[:-1] + "x" + name[-1] for name in names]
        with CaptureQueriesContext(connection) as queries:
            found = closest_card_names(game_slug="redline", names=typos)
        assert len(queries.captured_queries) == 1
        assert all(found[typo][0] == name for typo, name in zip(typos, names, strict=True))
        sql = queries.captured_queries[0]["sql"]
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "card_name_trgm" in plan, plan
