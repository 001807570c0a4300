"""An inexact or unknown name in a list costs a bounded lookup in the name index, never a
load of the game's cards: the same queries and the same rows read whatever the size of the
catalogue (bench/suggest.py measures the time at 1,000 and 100,000 cards)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Card, Game

from .conftest import sample_list

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the trigram index of names"
)


def _filler(n: int) -> None:
    """n more REDLINE resource cards, named like cards ("Tigercat Ka 17")."""
    game = Game.objects.get(slug="redline")
    Card.objects.bulk_create(
        [Card(game=game, name=f"Tigercat Vel {i}", kind="resource", cost=0) for i in range(n)],
        batch_size=2000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalogue_card")


def _with_typos(text: str, n: int) -> str:
    """The list with its first n card names misspelt (a letter doubled)."""
    out, done = [], 0
    for line in text.splitlines():
        m = re.match(r"^(\d+) (.+)$", line)
        if m and done < n:
            out.append(f"{m.group(1)} {m.group(2)[:3]}{m.group(2)[2:]}")
            done += 1
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _check(client, text: str):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            "/api/validate/",
            {"game": "redline", "format": "standard", "list": text},
            content_type="application/json",
        )
    card_queries = [q["sql"] for q in queries.captured_queries if "catalogue_card" in q["sql"]]
    return response, card_queries


def _unbounded(sql: str) -> bool:
    """A read of the card table bounded neither by names nor by a LIMIT."""
    return not ("LIMIT" in sql or " IN (" in sql or "= ANY" in sql)


@pytest.mark.parametrize("typos", [1, 5])
def test_unknown_names_read_the_index_in_the_same_queries_at_any_size(
    client, sample_catalogue, typos
):
    text = _with_typos(sample_list("redline", "standard"), typos)
    response, small = _check(client, text)
    # Answered with the verdict and the lines not read, each with its suggestions.
    assert response.status_code == 200
    unknown = response.json()["unknown"]
    assert len(unknown) == typos
    assert all(u["suggestions"] for u in unknown), unknown
    assert not [sql for sql in small if _unbounded(sql)], small

    _filler(3000)
    response, big = _check(client, text)
    assert response.status_code == 200 and len(response.json()["unknown"]) == typos
    assert len(big) == len(small)
    lookups = [sql for sql in big if "LATERAL" in sql]
    assert len(lookups) == 1
    assert "<->" in lookups[0] and "LIMIT" in lookups[0], lookups[0]
    assert not [sql for sql in big if _unbounded(sql)], big


def test_a_name_spelt_with_other_spacing_or_punctuation_is_still_found(client, sample_catalogue):
    text = sample_list("redline", "standard")
    first = next(m.group(2) for m in re.finditer(r"^(\d+) (.+)$", text, re.M) if " " in m.group(2))
    other = first.replace(" ", "-", 1)
    response, card_queries = _check(client, text.replace(f" {first}\n", f" {other}\n", 1))
    assert response.status_code == 200, response.json()
    assert not [sql for sql in card_queries if _unbounded(sql)], card_queries


def test_the_whole_game_is_never_read_for_an_inexact_name(client, sample_catalogue):
    """The old way: one query of every card of the game (no LIMIT, no names)."""
    text = _with_typos(sample_list("redline", "standard"), 1)
    _, card_queries = _check(client, text)
    assert card_queries and not [sql for sql in card_queries if _unbounded(sql)], card_queries
