"""A fresh install has decklists: `make run`'s set-up (load_sample_data, ensure_demo_user,
publish_sample_decks, publish_sample_decklists) publishes every game's example lists as
decklists of the demo account and a second sample author, legal, marked as sample data, with
likes, a follow and a comment; every decklist page then shows something, and a second run
adds nothing."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalogue.services import sample_deck_files
from decklists.models import Comment, Decklist, DecklistCard, Follow, Like
from decklists.samples import SAMPLE_AUTHOR
from decks.models import Deck

pytestmark = pytest.mark.django_db


def set_up_as_make_run_does(*, catalogue: bool) -> None:
    quiet = {"stdout": open("/dev/null", "w"), "stderr": open("/dev/null", "w")}
    if catalogue:
        call_command("load_sample_data", **quiet)
    call_command("ensure_demo_user", **quiet)
    call_command("publish_sample_decks", **quiet)
    call_command("publish_sample_decklists", **quiet)


def counts() -> dict[str, int]:
    return {
        "users": get_user_model().objects.count(),
        "decks": Deck.objects.count(),
        "decklists": Decklist.objects.count(),
        "likes": Like.objects.count(),
        "follows": Follow.objects.count(),
        "comments": Comment.objects.count(),
    }


def names_on(page) -> str:
    return html.unescape(page.content.decode())


def test_a_fresh_install_lists_sample_decklists_of_every_game(client, sample_catalogue):
    set_up_as_make_run_does(catalogue=False)
    demo = get_user_model().objects.get(username="demo")
    other = get_user_model().objects.get(username=SAMPLE_AUTHOR)
    assert not other.has_usable_password()

    decklists = list(Decklist.objects.select_related("game", "author"))
    assert len(decklists) == len(sample_deck_files())
    assert {d.author.username for d in decklists} == {"demo", SAMPLE_AUTHOR}
    for d in decklists:
        assert d.published_report["legal"], (d.name, d.published_report)
        assert d.description.startswith("*Sample data:*"), d.description
        assert "sample data" in d.description_html.lower()

    # Every game's decklists page lists its sample decklists.
    games = {s.game for s in sample_deck_files()}
    assert len(games) == 5
    for slug in sorted(games):
        page = client.get(f"/decklists/?game={slug}")
        assert page.status_code == 200
        text = names_on(page)
        assert "No decklist matches" not in text
        mine = [d for d in decklists if d.game.slug == slug]
        assert mine, slug
        for d in mine:
            assert f'href="/decklists/{d.pk}/"' in text, (slug, d.name)
            assert d.name in text

    # A card of a sample decklist: its page counts the decklist and links to it.
    decklist = next(d for d in decklists if d.author_id == other.pk)
    card = DecklistCard.objects.filter(decklist=decklist).select_related("card").first().card
    page = client.get(f"/cards/{decklist.game.slug}/card/{card.pk}/")
    assert page.status_code == 200
    text = names_on(page)
    assert "In no published decklist yet" not in text
    found = re.search(r'<p id="in-decklists">In <a href="([^"]+)">(\d+) decklists?</a>', text)
    assert found, text[text.find("in-decklists") - 100 :][:400]
    assert found.group(1) == f"/decklists/{decklist.game.slug}/?cards={quote(card.name)}"
    by_card = client.get(found.group(1))
    assert by_card.status_code == 200
    assert f'href="/decklists/{decklist.pk}/"' in names_on(by_card)

    # The second author's page shows theirs.
    page = client.get(f"/decklists/authors/{SAMPLE_AUTHOR}/")
    assert page.status_code == 200
    text = names_on(page)
    theirs = [d for d in decklists if d.author_id == other.pk]
    assert theirs
    for d in theirs:
        assert f'href="/decklists/{d.pk}/"' in text

    # The popular list shows them too.
    popular = names_on(client.get("/decklists/"))
    assert "No decklist matches" not in popular
    assert any(f'href="/decklists/{d.pk}/"' in popular for d in decklists)

    # Signed in as the demo account: it follows the sample author and likes their lists.
    client.force_login(demo)
    page = names_on(client.get(f"/decklists/authors/{SAMPLE_AUTHOR}/"))
    assert re.search(r'id="follow-button">Unfollow<', page)
    for d in theirs:
        page = names_on(client.get(f"/decklists/{d.pk}/"))
        assert re.search(r'id="like-button"[^>]*aria-pressed="true"', page)
    # Its own sample decklists were liked by the sample author, one of each game commented on.
    mine = [d for d in decklists if d.author_id == demo.pk]
    assert all(Like.objects.filter(decklist=d, user=other).exists() for d in mine)
    commented = Decklist.objects.filter(author=demo, comments__gt=0)
    assert {d.game.slug for d in commented} == games
    page = names_on(client.get(f"/decklists/{commented.first().pk}/"))
    assert SAMPLE_AUTHOR in page and "Sample data:" in page

    # A second run, the catalogue's load included, adds nothing.
    before = counts()
    set_up_as_make_run_does(catalogue=True)
    assert counts() == before
