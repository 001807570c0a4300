"""The suite's own shared data (tests/database.py): a test that asks for the sample catalogue
gets exactly what the importer loads, one that does not ask gets none, whatever ran before it
(a transactional test's flush, data shared by a class). (Under pytest-xdist these tests may
run on different workers: each states what holds in any order.)"""

from __future__ import annotations

import os

import pytest
from django.db import connection

from catalogue.models import Card, Expansion, Game, Printing, RuleSet
from tests import database

#: What a catalogue is, read through the models (no primary keys, no timestamps).
CATALOGUE_QUERIES = {
    "games": lambda: Game.objects.values_list("slug", "name", "position"),
    "expansions": lambda: Expansion.objects.values_list(
        "game__slug", "code", "name", "released", "sample", "notice"
    ),
    "cards": lambda: Card.objects.values_list(
        "game__slug", "name", "kind", "faction", "cost", "text", "attributes"
    ),
    "printings": lambda: Printing.objects.values_list(
        "card__game__slug", "card__name", "expansion__code", "number", "rarity", "image"
    ),
    "rule sets": lambda: RuleSet.objects.values_list(
        "game__slug", "format", "code", "name", "announced", "effective", "note", "sample"
    ),
    "rule set cards": lambda: RuleSet.objects.values_list(
        "code", "cards__card__name", "cards__banned", "cards__limit", "cards__cost"
    ),
    "rule set expansions": lambda: RuleSet.objects.values_list("code", "expansions__code"),
}


def catalogue_now() -> dict[str, list]:
    return {
        what: sorted(query(), key=lambda row: tuple(map(repr, row)))
        for what, query in CATALOGUE_QUERIES.items()
    }


def kept(sample_catalogue_snapshot):
    """The catalogue kept aside (on PostgreSQL, as the suite runs)."""
    _, snapshot = sample_catalogue_snapshot
    assert snapshot is not None, "the sample catalogue is kept aside on PostgreSQL only"
    return snapshot


def empty() -> bool:
    return not any(catalogue_now().values())


def test_a_test_that_does_not_ask_for_the_sample_catalogue_sees_none(db):
    assert empty()


def test_the_sample_catalogue_is_exactly_what_the_importer_loads(db, _sample_catalogue_snapshot):
    from django.core.management import call_command

    snapshot = kept(_sample_catalogue_snapshot)
    snapshot.put_back()
    put_back = catalogue_now()
    assert all(put_back.values())
    with connection.cursor() as cursor:
        for table in snapshot.tables:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
    assert empty()
    with open(os.devnull, "w") as quiet:
        call_command("load_sample_data", verbosity=0, stdout=quiet)
    assert catalogue_now() == put_back


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_gets_the_sample_catalogue_committed(live_catalogue):
    from threading import Thread

    from django.db import connections

    seen = []

    def count_elsewhere():
        # Another thread, another connection: it sees only what is committed.
        seen.append(Card.objects.count())
        connections.close_all()

    thread = Thread(target=count_elsewhere)
    thread.start()
    thread.join()
    assert seen == [Card.objects.count()] and seen[0] > 0


def counts_here_and_kept(snapshot) -> dict[str, tuple[int, int]]:
    """Each kept table's rows: in the site's table, and in the copy kept aside."""
    kept_in = connection.ops.quote_name(database.SNAPSHOT_SCHEMA)
    out = {}
    with connection.cursor() as cursor:
        for table in snapshot.tables:
            quoted = connection.ops.quote_name(table)
            cursor.execute(
                f"SELECT (SELECT count(*) FROM {quoted}), count(*) FROM {kept_in}.{quoted}"
            )
            out[table] = cursor.fetchone()
    return out


@pytest.mark.django_db(transaction=True)
def test_a_flush_after_a_transactional_test_leaves_the_kept_catalogue_whole(
    live_catalogue, _sample_catalogue_snapshot
):
    from django.core.management import call_command

    snapshot = kept(_sample_catalogue_snapshot)
    committed = counts_here_and_kept(snapshot)
    assert all(here == kept > 0 for here, kept in committed.values()), committed
    # What pytest-django's transactional test case does after the test.
    call_command("flush", verbosity=0, interactive=False)
    flushed = counts_here_and_kept(snapshot)
    assert all(here == 0 and kept == committed[t][1] for t, (here, kept) in flushed.items())
    snapshot.put_back()
    assert counts_here_and_kept(snapshot) == committed


def test_the_sample_catalogue_is_whole_whatever_ran_before(
    sample_catalogue, _sample_catalogue_snapshot
):
    snapshot = kept(_sample_catalogue_snapshot)
    counts = counts_here_and_kept(snapshot)
    assert all(here == kept > 0 for here, kept in counts.values()), counts


def test_and_a_test_without_it_still_sees_none(db):
    assert empty()


class TestDataSharedByAClass:
    """Data a class-scoped fixture makes once (tests/database.py's shared_data)."""

    @pytest.fixture(scope="class")
    @classmethod
    def _one_game(cls, django_db_setup, django_db_blocker, request):
        with database.shared_data(request, django_db_blocker):
            yield Game.objects.create(slug="shared-game", name="Shared", position=99).pk

    def test_each_test_of_the_class_sees_it(self, _one_game, db):
        assert list(Game.objects.values_list("pk", flat=True)) == [_one_game]
        Game.objects.filter(pk=_one_game).update(name="Changed by this test")

    def test_and_not_what_an_earlier_test_changed(self, _one_game, db):
        assert Game.objects.get(pk=_one_game).name == "Shared"

    def test_a_test_inside_it_that_did_not_ask_for_it_is_told(self, _one_game):
        assert database.OPEN == ["_one_game"]
        assert database.unasked_shared_data(["db"]) == ["_one_game"]
        assert database.unasked_shared_data(["_one_game", "db"]) == []


def test_after_the_class_its_data_is_gone(db):
    assert database.OPEN == []
    assert not Game.objects.exists()
