"""Publishing: a legal deck's current version frozen as a decklist; an illegal list refused
with its problems and nothing written; republishing a changed deck makes the next version;
a copied decklist's publication derives from it; a set of decks published all or nothing."""

from __future__ import annotations

import pytest

from decklists import services
from decklists.models import Decklist, DecklistCard, DecklistLegality, DecklistSet
from tests.decklists.conftest import SAMPLE_LISTS, sample_list

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("game", "fmt"), SAMPLE_LISTS)
def test_every_games_example_list_publishes_as_a_frozen_snapshot(
    sample_catalogue, user, make_deck, game, fmt
):
    deck = make_deck(user, game, fmt)
    decklist = services.decklist_publish(deck=deck, author=user, name="Mine", description="")
    assert decklist.entries == deck.current_version.entries
    assert decklist.list_text == deck.current_version.list_text
    assert decklist.revision == 1 and decklist.precedent is None
    counts = {}
    for e in decklist.entries:
        counts[e["card"]] = counts.get(e["card"], 0) + e["count"]
    rows = DecklistCard.objects.filter(decklist=decklist).select_related("card")
    assert {r.card.name: r.count for r in rows} == counts
    own = DecklistLegality.objects.get(decklist=decklist, format=fmt)
    assert own.legal is True
    # The deck goes on changing; the decklist does not.
    from decks.services import deck_save_version

    deck_save_version(
        deck=deck, author=user, text=sample_list(game, fmt) + "\n", based_on=deck.current_version
    )
    decklist.refresh_from_db()
    assert decklist.version_number == 1


def test_an_illegal_list_is_refused_with_its_problems_and_nothing_is_written(
    sample_catalogue, user, make_deck
):
    deck = make_deck(user, text="General:\n1 General Jeffrey Moore\nArsenal:\n5 Tigercat\n")
    with pytest.raises(services.PublishRefused) as refused:
        services.decklist_publish(deck=deck, author=user, name="Bad")
    assert any("5 copies of Tigercat" in p for p in refused.value.problems)
    assert not Decklist.objects.exists() and not DecklistCard.objects.exists()


def test_republishing_a_changed_deck_makes_its_next_version(sample_catalogue, user, make_deck):
    from decks.services import deck_save_version

    deck = make_deck(user)
    first = services.decklist_publish(deck=deck, author=user, name="Red wall")
    text = sample_list("redline", "standard")
    deck_save_version(
        deck=deck,
        author=user,
        text=text.replace("\n", "\n", 1) + "\n",
        based_on=deck.current_version,
    )
    second = services.decklist_publish(deck=deck, author=user, name="Red wall")
    assert (second.revision, second.precedent_id, second.derivation) == (2, first.pk, "version")


def test_a_copied_decklist_published_again_derives_from_it(
    sample_catalogue, user, other_user, publish
):
    original = publish(user)
    copy = services.decklist_copy(decklist=original, owner=other_user)
    assert copy.owner == other_user and copy.current_version.entries == original.entries
    derived = services.decklist_publish(deck=copy, author=other_user, name="My take")
    assert (derived.precedent_id, derived.derivation) == (original.pk, "copy")
    # the same cards: the earliest publication is its duplicate
    assert services.duplicate_of(game_id=derived.game_id, sig=derived.signature) == original


def test_a_set_is_published_all_or_nothing(sample_catalogue, user, make_deck):
    good = make_deck(user, "tactical-assault", "standard", name="Force A")
    other = make_deck(user, "tactical-assault", "campaign", name="Force B")
    bad = make_deck(user, "tactical-assault", "standard", text="Force:\n", name="Empty")
    with pytest.raises(services.PublishRefused) as refused:
        services.decklist_publish_set(decks=[good, bad], author=user, name="Campaign")
    assert any("Empty" in p for p in refused.value.problems)
    assert not Decklist.objects.exists() and not DecklistSet.objects.exists()
    made = services.decklist_publish_set(decks=[good, other], author=user, name="Campaign")
    assert sorted(d.name for d in made.decklists.all()) == ["Force A", "Force B"]


def test_script_in_a_description_is_sanitised_away_and_links_are_nofollow(
    sample_catalogue, user, publish
):
    decklist = publish(
        user,
        description="Hi <script>alert(1)</script> [x](javascript:alert(2)) [ok](https://example.com) <img src=x onerror=alert(3)>",
    )
    html = decklist.description_html
    assert "<script" not in html and "alert(1)" not in html and "onerror" not in html
    assert "<img" not in html and 'href="javascript' not in html
    assert '<a href="https://example.com" rel="nofollow ugc">ok</a>' in html
    assert decklist.description.startswith("Hi <script>")  # stored as written
