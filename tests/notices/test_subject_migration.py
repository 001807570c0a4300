"""The migrations that take the notice's foreign key into the decks app away keep every
stored row: a deck's notice names its deck as its subject (kind "deck", the deck's id), a
community notice names the decklist or comment its key names, a notice about nothing in
particular keeps its link; the API and the page still link each to its page. Back and
forth."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("notices", "0002_community_notices")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_notices_keep_their_rows_when_their_subject_is_generic(client):
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Game = old.get_model("catalogue", "Game")
    Deck = old.get_model("decks", "Deck")
    Notice = old.get_model("notices", "Notice")
    owner = User.objects.create(username="old-owner")
    other = User.objects.create(username="old-follower")
    game = Game.objects.create(slug="redline", name="REDLINE")
    deck = Deck.objects.create(owner=owner, game=game, format="standard", name="Old deck")
    second = Deck.objects.create(owner=owner, game=game, format="standard", name="Second")
    told = dict(owner=owner, message="told")
    verdict = Notice.objects.create(
        deck=deck, kind="verdict", key="S2:illegal:None:job1", rule_set_code="S2",
        legal=False, was_legal=True, points=50, was_points=48, **told,
    )  # fmt: skip
    # the same key for another deck of the same re-check
    same_key = Notice.objects.create(deck=second, kind="verdict", key=verdict.key, **told)
    pin = Notice.objects.create(deck=deck, kind="pin", key="pin:3:S1", rule_set_code="S1", **told)
    published = Notice.objects.create(
        owner=other, kind="published", key="published:41", url="/decklists/41/", message="p"
    )
    comment = Notice.objects.create(
        owner=owner, kind="comment", key="comment:7", url="/decklists/41/#comment-7", message="c"
    )
    other_key = Notice.objects.create(
        owner=owner, kind="mention", key="odd", url="/x/", message="m"
    )
    before = Notice.objects.count()

    new = _migrate(_leaves())
    Notice = new.get_model("notices", "Notice")
    assert Notice.objects.count() == before == 6
    rows = {n.pk: n for n in Notice.objects.all()}
    assert not hasattr(rows[verdict.pk], "deck_id")
    subject = {pk: (n.subject_kind, n.subject_id) for pk, n in rows.items()}
    assert subject == {
        verdict.pk: ("deck", deck.pk),
        same_key.pk: ("deck", second.pk),
        pin.pk: ("deck", deck.pk),
        published.pk: ("decklist", 41),
        comment.pk: ("comment", 7),
        other_key.pk: ("", None),
    }
    v = rows[verdict.pk]
    assert (v.kind, v.key, v.rule_set_code, v.legal, v.was_legal, v.points, v.was_points) == (
        "verdict", "S2:illegal:None:job1", "S2", False, True, 50, 48,
    )  # fmt: skip
    assert rows[comment.pk].url == "/decklists/41/#comment-7"

    # The API still names the deck and links to its page.
    client.force_login(get_user_model().objects.get(pk=owner.pk))
    listed = {n["id"]: n for n in client.get("/api/notices/").json()["results"]}
    assert listed[verdict.pk]["deck"] == deck.pk
    assert listed[verdict.pk]["deck_url"].endswith(f"/decks/{deck.pk}/")
    assert listed[verdict.pk]["url"].endswith(f"/decks/{deck.pk}/")
    assert listed[comment.pk]["deck"] is None and listed[comment.pk]["deck_url"] is None
    assert listed[comment.pk]["url"].endswith("/decklists/41/#comment-7")

    back = _migrate(BEFORE)
    Notice = back.get_model("notices", "Notice")
    assert Notice.objects.count() == 6
    assert Notice.objects.get(pk=verdict.pk).deck_id == deck.pk
    assert Notice.objects.get(pk=same_key.pk).deck_id == second.pk
    assert Notice.objects.get(pk=comment.pk).deck_id is None
    _migrate(_leaves())
