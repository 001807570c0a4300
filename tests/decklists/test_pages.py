"""The decklist pages: publish from the deck page, a decklist's page for every game (its list,
legality today, reactions, comments, chain, exports), copy, the author page, the search page,
the home page's strip and a card's count; each page costs a fixed number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decklists import services
from decklists.models import Decklist
from tests.decklists.conftest import SAMPLE_LISTS

pytestmark = pytest.mark.django_db


def test_the_deck_page_links_its_owner_to_publish_and_the_form_publishes_with_a_redirect(
    client, sample_catalogue, user, make_deck
):
    deck = make_deck(user)
    client.force_login(user)
    page = client.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    url = reverse("decklists:publish", args=[deck.pk])
    assert f'href="{url}"' in page
    response = client.post(url, {"name": "Red wall", "description": "**Fast**"})
    decklist = Decklist.objects.get()
    assert response.status_code == 302 and response.url == decklist.get_absolute_url()
    page = client.get(response.url).content.decode()
    assert "Red wall" in page and "<strong>Fast</strong>" in page


def test_publishing_an_illegal_deck_answers_400_with_its_problems(
    client, sample_catalogue, user, make_deck
):
    deck = make_deck(user, text="General:\n1 General Jeffrey Moore\nArsenal:\n5 Tigercat\n")
    client.force_login(user)
    response = client.post(reverse("decklists:publish", args=[deck.pk]), {"name": "Bad"})
    assert response.status_code == 400
    assert "5 copies of Tigercat" in response.content.decode()
    assert not Decklist.objects.exists()


def test_publishing_someone_elses_deck_is_a_404(
    client, sample_catalogue, user, other_user, make_deck
):
    deck = make_deck(other_user)
    client.force_login(user)
    assert (
        client.post(reverse("decklists:publish", args=[deck.pk]), {"name": "x"}).status_code == 404
    )
    assert not Decklist.objects.exists()


@pytest.mark.parametrize(("game", "fmt"), SAMPLE_LISTS)
def test_a_decklist_page_of_every_game_shows_its_list_and_legality_today(
    client, sample_catalogue, user, publish, game, fmt
):
    decklist = publish(user, game, fmt)
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert 'id="deck-list"' in page and 'id="legal-today"' in page
    assert f'data-card="{decklist.entries[0]["card"]}"' in page
    for kind in ("text", "json", "print"):
        assert client.get(reverse("decklists:export", args=[decklist.pk, kind])).status_code == 200
    text = client.get(reverse("decklists:export", args=[decklist.pk, "text"])).content.decode()
    assert decklist.entries[0]["card"] in text


def test_a_decklist_page_costs_the_same_queries_whatever_its_likes_and_comments(
    client, sample_catalogue, user, other_user, carol, publish, make_deck, django_assert_num_queries
):
    decklist = publish(user)
    make_deck(other_user)
    services.decklist_like(decklist=decklist, user=carol)
    services.comment_post(decklist=decklist, author=other_user, text="first")
    client.force_login(other_user)
    client.get(decklist.get_absolute_url())  # legality rows fresh, sessions warm
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as before:
        assert client.get(decklist.get_absolute_url()).status_code == 200
    for who in (other_user, user):
        services.decklist_like(decklist=decklist, user=who)
    for i in range(12):
        services.comment_post(decklist=decklist, author=other_user, text=f"comment {i}")
    with django_assert_num_queries(len(before.captured_queries)):
        assert client.get(decklist.get_absolute_url()).status_code == 200


def test_a_hidden_decklist_is_a_404_for_players_and_readable_by_staff(
    client, sample_catalogue, user, staff_user, publish
):
    decklist = publish(user)
    services.decklist_hide(decklist=decklist, actor=staff_user, reason="spam")
    assert client.get(decklist.get_absolute_url()).status_code == 404
    client.force_login(staff_user)
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert "Hidden by a moderator: spam" in page


def test_like_and_favourite_buttons_count_once_and_redirect(
    client, sample_catalogue, user, other_user, publish
):
    decklist = publish(user)
    client.force_login(other_user)
    for _ in range(2):
        response = client.post(reverse("decklists:like", args=[decklist.pk]), {"on": "1"})
        assert response.status_code == 302
    client.post(reverse("decklists:favourite", args=[decklist.pk]), {"on": "1"})
    decklist.refresh_from_db()
    assert (decklist.likes, decklist.favourites) == (1, 1)
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert 'aria-pressed="true"' in page
    client.post(reverse("decklists:like", args=[decklist.pk]), {"on": "0"})
    decklist.refresh_from_db()
    assert decklist.likes == 0


def test_copy_to_my_decks_makes_a_private_deck_of_the_list(
    client, sample_catalogue, user, other_user, publish
):
    from decks.models import Deck

    decklist = publish(user)
    client.force_login(other_user)
    response = client.post(reverse("decklists:copy", args=[decklist.pk]))
    deck = Deck.objects.get(owner=other_user)
    assert response.status_code == 302 and response.url == deck.get_absolute_url()
    assert deck.current_version.entries == decklist.entries and deck.visibility == "private"


def test_the_author_page_shows_reputation_joined_and_decklists(
    client, sample_catalogue, user, other_user, publish
):
    decklist = publish(user)
    services.decklist_like(decklist=decklist, user=other_user)
    services.decklist_favourite(decklist=decklist, user=other_user)
    page = client.get(reverse("decklists:author", args=[user.username])).content.decode()
    assert 'data-stat="reputation">6<' in page and decklist.name in page
    assert "Joined" in page


def test_the_search_page_finds_by_cards_included_and_excluded(
    client, sample_catalogue, user, publish
):
    standard = publish(user, "redline", "standard")
    scramble = publish(user, "redline", "scramble")
    only_standard = {e["card"] for e in standard.entries} - {e["card"] for e in scramble.entries}
    both = {e["card"] for e in standard.entries} & {e["card"] for e in scramble.entries}
    url = reverse("decklists:game", args=["redline"])
    page = client.get(url, {"cards": sorted(both)[0], "excluded": sorted(only_standard)[0]})
    assert page.status_code == 200
    body = page.content.decode()
    assert f'data-decklist="{scramble.pk}"' in body and f'data-decklist="{standard.pk}"' not in body


def test_the_search_page_names_an_unknown_card_with_suggestions(client, sample_catalogue):
    page = client.get(reverse("decklists:game", args=["redline"]), {"cards": "Tigercatt"})
    assert page.status_code == 400
    assert "did you mean Tigercat" in page.content.decode()


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"cards": "Bogatyr"}, "with Bogatyr"),
        ({"q": "zzzz"}, "name contains “zzzz”"),
        ({"q": "zzzz", "legal": "today"}, "legal today"),
    ],
)
def test_a_search_that_finds_nothing_says_so_and_what_was_searched(
    client, sample_catalogue, params, said
):
    page = client.get(reverse("decklists:game", args=["redline"]), params)
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="no-decklists"' in body and "No decklist matches: " in body
    assert said in body


def test_the_home_page_shows_this_weeks_popular_decklists_per_game(
    client, sample_catalogue, user, publish
):
    publish(user, "hex-skirmish", "standard", name="Hill fort")
    page = client.get("/").content.decode()
    assert 'id="popular-decklists"' in page and "Hill fort" in page


def test_a_card_page_says_in_how_many_decklists_it_is(client, sample_catalogue, user, publish):
    from catalogue.models import Card

    decklist = publish(user)
    card = Card.objects.get(game__slug="redline", name=decklist.entries[0]["card"])
    page = client.get(card.get_absolute_url()).content.decode()
    assert "In <a" in page and "1 decklist<" in page
    publish(user)  # a new decklist: the count kept in the cache is renewed
    page = client.get(card.get_absolute_url()).content.decode()
    assert "2 decklists<" in page


def test_the_popular_page_costs_the_same_queries_however_many_decklists(
    client, sample_catalogue, user, publish, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    publish(user, "redline", "standard")
    with CaptureQueriesContext(connection) as few:
        assert client.get("/decklists/").status_code == 200
    for game, fmt in SAMPLE_LISTS:
        publish(user, game, fmt)
    with django_assert_num_queries(len(few.captured_queries)):
        page = client.get("/decklists/")
    assert page.content.decode().count('class="decklist-row"') == 1 + len(SAMPLE_LISTS)


def test_a_long_list_counts_only_up_to_its_cap(
    client, sample_catalogue, user, publish, monkeypatch
):
    from decklists import selectors

    monkeypatch.setattr(selectors, "COUNT_CAP", 2)
    for _ in range(3):
        publish(user)
    body = client.get("/decklists/").content.decode()
    assert "More than 2 decklists" in body


def test_a_decklist_page_shows_the_goldfish_its_author_ran_on_the_published_version(
    client, sample_catalogue, user, other_user, make_deck
):
    from simulations import kinds
    from simulations import services as sims
    from simulations.services import simulation_run_chunk

    deck = make_deck(user, "redline", "standard")
    kind = next(k for k in kinds.for_game("redline") if k.needs_deck)
    params = {**kind.defaults(), "games": 200}
    run = sims.simulation_start(
        owner=user, kind=kind, params=params, deck_version=deck.current_version, seed=3
    )
    for i in range(run.n_chunks):
        simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
    # another player's run of the same version is not the author's
    decklist = services.decklist_publish(deck=deck, author=user, name="Tested")
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert 'id="goldfish"' in page and "200 games played on the published version" in page
    other = make_deck(other_user, "redline", "standard")
    untested = services.decklist_publish(deck=other, author=other_user, name="Untested")
    assert 'id="goldfish"' not in client.get(untested.get_absolute_url()).content.decode()


def test_the_popular_page_again_reads_only_its_decklists_until_one_changes(
    client, sample_catalogue, user, other_user, publish, django_assert_num_queries
):
    """The list's count and the page's ids are kept in the cache (decklists.listing_cache):
    the same page again costs the count and the page's ids fewer (2 → 0, the decklists read
    by id); a like moves a decklist up and the next request shows it."""
    first, second = publish(user, "redline", "standard"), publish(user, "redline", "standard")
    with CaptureQueriesContext(connection) as cold:
        page = client.get("/decklists/").content.decode()
    assert page.index(f'data-decklist="{second.pk}"') < page.index(f'data-decklist="{first.pk}"')
    with django_assert_num_queries(len(cold.captured_queries) - 2):
        assert client.get("/decklists/").status_code == 200
    services.decklist_like(decklist=first, user=other_user)
    with django_assert_num_queries(len(cold.captured_queries)):
        page = client.get("/decklists/").content.decode()
    assert page.index(f'data-decklist="{first.pk}"') < page.index(f'data-decklist="{second.pk}"')


def test_a_search_by_cards_again_reads_only_its_decklists_until_one_changes(
    client, sample_catalogue, user, publish, django_assert_num_queries
):
    """A search by cards: its ids and total kept, so the same search again costs one query
    fewer; a hidden decklist leaves the next answer at once."""
    made = [publish(user, "redline", "standard") for _ in range(2)]
    card = made[0].entries[0]["card"]
    url = f"/decklists/redline/?cards={card}"
    with CaptureQueriesContext(connection) as cold:
        page = client.get(url).content.decode()
    assert page.count('class="decklist-row"') == 2
    with django_assert_num_queries(len(cold.captured_queries) - 1):
        assert client.get(url).content.decode().count('class="decklist-row"') == 2
    services.decklist_hide(decklist=made[0], actor=user, reason="spam")
    assert client.get(url).content.decode().count('class="decklist-row"') == 1
