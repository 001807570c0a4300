"""A search's cost is capped before it reaches the database: a word longer than
MAX_WORD_CHARS, more than MAX_TERMS terms or a query longer than MAX_QUERY_CHARS is refused with
a message (400 on the API's `q`, the message on the page), and the card search, page and API,
counts against the `search` rate per client (THROTTLE_SEARCH)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle

from catalogue.models import Card
from catalogue.search import MAX_QUERY_CHARS, MAX_TERMS, MAX_WORD_CHARS, search_cards
from tests.problems import field_errors

LONG_WORD = "x" * (MAX_WORD_CHARS + 1)


def test_the_caps():
    assert (MAX_WORD_CHARS, MAX_TERMS, MAX_QUERY_CHARS) == (64, 12, 1000)


@pytest.mark.parametrize(
    "query, says",
    [
        (LONG_WORD, f"at most {MAX_WORD_CHARS}"),
        (f"tiger {LONG_WORD}", f"at most {MAX_WORD_CHARS}"),
        (f'"moon {LONG_WORD}"', f"at most {MAX_WORD_CHARS}"),
        (f"name:{LONG_WORD}", f"at most {MAX_WORD_CHARS}"),
        (" ".join(f"w{i}" for i in range(MAX_TERMS + 1)), f"at most {MAX_TERMS}"),
        ("ab " * 400, "at most 1,000"),
        ("é" * 999 * 9, "at most 1,000"),
    ],
)
def test_the_api_refuses_a_costly_query_naming_q(client, sample_catalogue, query, says):
    response = client.get("/api/cards/", {"game": "redline", "q": query})
    assert response.status_code == 400
    body = response.json()
    assert list(field_errors(body)) == ["q"], body
    assert says in field_errors(body)["q"]


def test_a_word_at_the_cap_and_twelve_terms_are_searched(client, sample_catalogue):
    word = "t" * MAX_WORD_CHARS
    assert client.get("/api/cards/", {"game": "redline", "q": word}).status_code == 200
    terms = " ".join(["-faction:none"] * (MAX_TERMS - 1) + ["tiger"])
    response = client.get("/api/cards/", {"game": "redline", "q": terms})
    assert response.status_code == 200
    assert response.json()["count"] >= 1


def test_the_page_shows_the_message_with_no_cards(client, sample_catalogue):
    response = client.get("/cards/redline/", {"q": LONG_WORD})
    assert response.status_code == 400
    text = response.content.decode()
    assert f"a search word has at most {MAX_WORD_CHARS}" in text
    assert "0 cards" in text
    # htmx swaps 2xx answers only: the fragment carries the message with a 200.
    response = client.get("/cards/redline/", {"q": LONG_WORD}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert f"a search word has at most {MAX_WORD_CHARS}" in response.content.decode()


def test_the_search_function_returns_no_cards_and_the_error(sample_catalogue):
    result = search_cards(query=LONG_WORD, queryset=Card.objects.all(), game_slug="redline")
    assert result.error and result.problems == [result.error]
    assert list(result.queryset) == []


@pytest.fixture
def search_rate():
    from rest_framework.settings import api_settings

    ScopedRateThrottle.THROTTLE_RATES = dict(api_settings.DEFAULT_THROTTLE_RATES, search="3/min")
    yield


def test_the_page_and_the_api_are_throttled_with_the_search_rate(
    client, sample_catalogue, search_rate
):
    codes = [client.get("/api/cards/", {"game": "redline", "q": "tiger"}).status_code]
    codes += [client.get("/api/cards/", {"game": "redline"}).status_code for _ in range(2)]
    assert codes == [200, 200, 200]
    over_api = client.get("/api/cards/", {"game": "redline", "q": "tiger"})
    assert over_api.status_code == 429 and "Retry-After" in over_api
    # The page counts against the same scope and rate (with the API's counter once the
    # pages share it; on its own at most 3 before the refusal either way).
    page = [client.get("/cards/redline/", {"q": "tiger"}) for _ in range(4)]
    assert page[-1].status_code == 429 and "Retry-After" in page[-1]
    assert {r.status_code for r in page} <= {200, 429}
    # another client address has its own count
    other = client.get("/api/cards/", {"game": "redline", "q": "x1"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200


def test_the_search_rate_is_the_setting_the_load_bench_sets():
    """bench/load.py raises THROTTLE_SEARCH for its run: the settings read it."""
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["search"] == os.environ.get(
        "THROTTLE_SEARCH", "120/min"
    )
    env = dict(os.environ, THROTTLE_SEARCH="7/min", DJANGO_SETTINGS_MODULE="cardsite.settings")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings as s;"
            "print(s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['search'])",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "7/min"
    bench = (settings.BASE_DIR / "bench" / "load.py").read_text()
    assert 'THROTTLE_SEARCH="1000000/min"' in bench
