"""Deck services: versions and conflicts, immutability, diff, clone, import, revalidation,
collections."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from decks import lists, selectors, services, verdicts
from decks.models import Deck, DeckVersion
from validation.packages import all_sample_lists
from validation.registry import registry

from .conftest import MINI_LIST, MINI_LIST_2, sample_list

#: Every example list shipped in the games' packages.
SHIPPED = [(s.game, s.format) for s in all_sample_lists()]


def test_every_game_ships_an_example_list():
    assert {game for game, _ in SHIPPED} == set(registry.slugs())


@pytest.mark.parametrize("game,fmt", SHIPPED)
def test_a_shipped_example_list_saves_as_a_legal_deck(sample_catalogue, user, game, fmt):
    # The custom example is written for 50 agreed points (its header says so).
    options = {"points": 50} if fmt == "custom" else {}
    deck = services.deck_create(
        owner=user,
        game_slug=game,
        format=fmt,
        name="x",
        text=sample_list(game, fmt),
        options=options,
    )
    assert deck.legal, deck.report["errors"]
    assert deck.violations_count == 0
    version = deck.current_version
    assert version.number == 1 and version.based_on is None and version.author == user
    # The canonical text reads back into the same entries.
    assert version.options == options
    again = lists.list_check(game_slug=game, format=fmt, text=version.list_text)
    assert services._entries(again.deck) == version.entries


def test_two_saves_from_the_same_base_the_second_is_refused_and_nothing_is_overwritten(
    mini_catalogue, user, make_deck
):
    deck = make_deck(user)
    first = services.deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=1)
    assert first.number == 2
    stale = Deck.objects.get(pk=deck.pk)  # as another tab loaded it before the first save
    with pytest.raises(services.VersionConflict) as exc:
        services.deck_save_version(deck=stale, author=user, text=MINI_LIST, based_on=1)
    assert exc.value.current_number == 2
    deck.refresh_from_db()
    assert deck.current_version_id == first.pk
    assert DeckVersion.objects.filter(deck=deck).count() == 2
    assert "2 Rabbit" in deck.current_version.list_text


def test_a_save_with_no_base_on_a_deck_with_versions_is_a_conflict(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    with pytest.raises(services.VersionConflict):
        services.deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=None)


def test_saving_never_edits_a_version(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    v1 = deck.current_version
    snapshot = (v1.list_text, v1.entries, v1.report, v1.created_at)
    services.deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=v1)
    v1_again = DeckVersion.objects.get(pk=v1.pk)
    assert (v1_again.list_text, v1_again.entries, v1_again.report, v1_again.created_at) == snapshot
    v1_again.list_text = "changed"
    with pytest.raises(ValueError, match="immutable"):
        v1_again.save()
    assert DeckVersion.objects.get(pk=v1.pk).list_text == snapshot[0]


def test_a_list_with_line_errors_saves_nothing(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    with pytest.raises(services.ListInvalid) as exc:
        services.deck_save_version(
            deck=deck, author=user, text="Arsenal:\n4 Tigercatt\nfour Rabbit\n", based_on=1
        )
    lines = [e["line"] for e in exc.value.errors]
    assert lines == [2, 3]
    assert exc.value.errors[0]["suggestions"] == ["Tigercat"]
    assert DeckVersion.objects.filter(deck=deck).count() == 1


def test_import_with_line_errors_creates_no_deck(mini_catalogue, user):
    with pytest.raises(services.ListInvalid):
        services.deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name="bad",
            text="General:\n1 General Jeffrey Moore\nNowhere:\n2 Tigercat\n",
        )
    assert not Deck.objects.exists()


def test_diff_between_two_versions_per_section(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    v2 = services.deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=1)
    diff = {
        d.section: d
        for d in selectors.deck_diff(version_a=deck.versions.get(number=1), version_b=v2)
    }
    assert diff["general"].empty
    assert diff["arsenal"].added == [{"card": "Rabbit", "count": 2}]
    assert diff["arsenal"].changed == [{"card": "Tigercat", "before": 4, "after": 3}]
    assert diff["arsenal"].removed == []
    back = {
        d.section: d
        for d in selectors.deck_diff(version_a=v2, version_b=deck.versions.get(number=1))
    }
    assert back["arsenal"].removed == [{"card": "Rabbit", "count": 2}]


def test_clone_copies_the_current_version_into_a_private_deck(
    mini_catalogue, user, other_user, make_deck
):
    source = make_deck(user, "public")
    services.deck_save_version(deck=source, author=user, text=MINI_LIST_2, based_on=1)
    clone = services.deck_clone(deck=source, owner=other_user)
    assert clone.owner == other_user and clone.visibility == "private"
    assert clone.cloned_from == source
    assert clone.current_version.number == 1
    assert clone.current_version.entries == source.current_version.entries
    assert clone.legal == source.legal
    assert source.versions.count() == 2  # untouched


def test_revalidation_follows_a_catalogue_change(sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="UNE",
        text=sample_list("redline", "standard"),
    )
    assert deck.legal
    Card.objects.filter(game__slug="redline", name="Tigercat").update(faction="cpm")
    assert verdicts.revalidate_game_decks(game_slug="redline") == 1
    deck.refresh_from_db()
    assert not deck.legal
    assert deck.violations_count >= 1
    assert "arsenal.faction" in {e["code"] for e in deck.report["errors"]}
    # The version keeps the verdict it had when saved.
    assert deck.current_version.report["legal"] is True
    Card.objects.filter(game__slug="redline", name="Tigercat").update(faction="une")
    verdicts.revalidate_game_decks(game_slug="redline")
    deck.refresh_from_db()
    assert deck.legal


def test_a_catalogue_change_reaches_the_decks_through_the_hook(
    sample_catalogue, user, monkeypatch, django_capture_on_commit_callbacks
):
    """The catalogue app does not import the decks app: it announces the change and the decks
    app, registered in its ready(), re-validates once the change is committed."""
    from cardsite import jobs
    from cardsite.tasks import run_job_chunk
    from catalogue.services import catalogue_changed

    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="UNE",
        text=sample_list("redline", "standard"),
    )
    # Play the job's chunks in this process instead of sending them to a broker with no
    # worker.
    monkeypatch.setattr(
        run_job_chunk,
        "delay",
        lambda kind, job_id, index: jobs.job_run_chunk(kind=kind, job_id=job_id, index=index),
    )
    Card.objects.filter(game__slug="redline", name="Tigercat").update(faction="cpm")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        catalogue_changed(game_slug="redline")
    deck.refresh_from_db()
    assert deck.legal  # nothing happens before the commit
    # the decks' re-validation, the bulk files' new generation and the published decklists'
    # legality re-check wait for the commit
    assert len(callbacks) == 3
    # (each starts a job, which sends its chunks once its own transaction commits)
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()
    deck.refresh_from_db()
    assert not deck.legal


def test_a_card_leaving_the_catalogue_makes_the_deck_illegal(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    Card.objects.filter(name="Tigercat").delete()
    verdicts.deck_revalidate(deck=deck)
    deck.refresh_from_db()
    assert not deck.legal
    assert deck.report["errors"][0]["code"] == "deck.card"


def test_revalidation_is_idempotent_and_loses_to_a_newer_save(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    stale = Deck.objects.select_related("game", "current_version").get(pk=deck.pk)
    services.deck_save_version(deck=deck, author=user, text=MINI_LIST_2, based_on=1)
    Card.objects.filter(name="Rabbit").delete()  # only version 2 has Rabbit
    verdicts.deck_revalidate(deck=stale)  # started from version 1: must not overwrite
    deck.refresh_from_db()
    assert deck.report == deck.current_version.report
    verdicts.revalidate_game_decks(game_slug="redline")
    verdicts.revalidate_game_decks(game_slug="redline")
    deck.refresh_from_db()
    assert deck.report["errors"][0]["code"] == "deck.card"


def test_the_whole_games_re_check_is_a_job_of_its_decks(mini_catalogue, user, make_deck):
    from decks.verdicts.recheck_jobs import revalidate_start

    make_deck(user)
    assert revalidate_start(game_slug="redline").total == 1
    red_code = revalidate_start(game_slug="red-code")
    assert red_code is None or red_code.total == 0


def test_deck_list_for_owner_is_the_profile_list(mini_catalogue, user, other_user, make_deck):
    a = make_deck(user, name="a")
    make_deck(other_user, name="b")
    b = make_deck(user, name="c")
    assert [d.pk for d in selectors.deck_list_for_owner(owner=user)] == [b.pk, a.pk]
