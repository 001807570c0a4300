"""Test data that is expensive to make, made once and shared.

The sample catalogue: `load_sample_data` runs once per test database (through the importer,
as on a real site). The rows it wrote are copied into a schema of their own and the site's
tables are left as they were, empty: a test that asks for the catalogue gets those rows put
back inside its own transaction (a plain INSERT … SELECT, rolled back with the test; or
committed, for a test with `transaction=True`, whose flush empties the tables afterwards), and
every other test still starts on an empty catalogue. Loading the catalogue into the tables
once for all would have changed what every test without it sees (the importer's tests, the
four-card catalogue, the counts) and would have been flushed by the first transactional test.

Module-scoped data: `shared_data()` opens a transaction around a module's (or a class's)
tests, in which a fixture makes the data once; each test then runs in a savepoint inside it
(pytest-django's `db`), and the whole is rolled back after the module's last test. A test
that runs while such data is open without asking for it fails (tests/conftest.py): it would
see rows it does not expect.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

#: The schema the sample catalogue's rows are kept in (never on the search path, so neither
#: the site nor Django's flush sees it).
SNAPSHOT_SCHEMA = "sample_catalogue_snapshot"


def _quote(name: str) -> str:
    from django.db import connection

    return connection.ops.quote_name(name)


def _fingerprint(cursor, table: str) -> tuple[int, str]:
    """The number of rows of `table` and a digest of their contents."""
    cursor.execute(
        f"SELECT count(*), coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') "
        f"FROM {_quote(table)} AS t"
    )
    count, digest = cursor.fetchone()
    return count, digest


class SampleCatalogue:
    """The rows `load_sample_data` writes into an empty, migrated database, kept aside."""

    def __init__(self, tables: dict[str, str], sequences: list[tuple[str, int]]) -> None:
        #: The tables the load filled (each was empty before it): their stored columns,
        #: quoted and comma-separated (generated columns are computed again on insert).
        self.tables = tables
        #: (sequence, highest id) of each of those tables with an id column.
        self.sequences = sequences

    @classmethod
    def take(cls) -> SampleCatalogue:
        """Load the sample data, copy what it wrote aside, and empty the tables again: all
        in one transaction, committed. Fails if the load changed a table that had rows
        before (a copy of the new rows could not stand for that)."""
        from django.core.management import call_command
        from django.db import connection, transaction

        schema = _quote(SNAPSHOT_SCHEMA)
        names = connection.introspection.django_table_names(only_existing=True, include_views=False)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            cursor.execute(f"CREATE SCHEMA {schema}")
            before = {table: _fingerprint(cursor, table) for table in names}
            with open(os.devnull, "w") as quiet:
                call_command("load_sample_data", verbosity=0, stdout=quiet)
            tables: dict[str, str] = {}
            sequences = []
            for table in names:
                after = _fingerprint(cursor, table)
                if after == before[table]:
                    continue
                if before[table][0]:
                    raise RuntimeError(
                        f"load_sample_data changed {table}, which had rows before it: the "
                        "sample catalogue can only be kept aside as rows it added"
                    )
                cursor.execute(
                    "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass "
                    "AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum",
                    [_quote(table)],
                )
                columns = ", ".join(_quote(name) for (name,) in cursor.fetchall())
                cursor.execute(
                    f"CREATE TABLE {schema}.{_quote(table)} AS "
                    f"SELECT {columns} FROM {_quote(table)}"
                )
                tables[table] = columns
                cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
                (sequence,) = cursor.fetchone()
                if sequence:
                    cursor.execute(f"SELECT max(id) FROM {_quote(table)}")
                    sequences.append((sequence, cursor.fetchone()[0]))
            # Foreign keys are checked at commit (PostgreSQL's, as Django makes them, are
            # deferred), when every one of these tables is empty again.
            for table in tables:
                cursor.execute(f"DELETE FROM {_quote(table)}")
        return cls(tables, sequences)

    def put_back(self) -> None:
        """The sample catalogue's rows into the site's tables, in the current transaction
        (or committed, outside one), with the planner's statistics refreshed as the load
        refreshes them."""
        from django.db import connection, transaction

        from catalogue.importer import analyze_catalogue

        schema = _quote(SNAPSHOT_SCHEMA)
        statements = [
            f"INSERT INTO {_quote(table)} ({columns}) SELECT {columns} FROM {schema}.{_quote(table)}"
            for table, columns in self.tables.items()
        ]
        # The next id of each table after the copied rows, whatever a test did to the
        # sequences (a flush may restart them); setval only moves a sequence forward here.
        statements += [
            f"SELECT setval('{sequence}', greatest({top}, (SELECT last_value FROM {sequence})))"
            for sequence, top in self.sequences
        ]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(";\n".join(statements))
        analyze_catalogue()


#: The fixtures whose shared data is open now, outermost first (tests/conftest.py fails a
#: test that runs inside data it did not ask for).
OPEN: list[str] = []


def unasked_shared_data(fixturenames) -> list[str]:
    """The fixtures whose shared data is open and that a test with these fixtures did not
    ask for."""
    return [name for name in OPEN if name not in fixturenames]


@contextlib.contextmanager
def shared_data(request, django_db_blocker) -> Iterator[None]:
    """A transaction for the module-scoped (or class-scoped) fixture of `request` to make its
    data in, kept open while the tests run (each in a savepoint of its own, as
    pytest-django's `db` makes one inside an open transaction) and rolled back after the
    last one. Every test of the module (or class) that uses the database must ask for the
    fixture, and none may be a `transaction=True` test (which would commit)."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        OPEN.append(request.fixturename)
        try:
            yield
        finally:
            OPEN.remove(request.fixturename)
            transaction.set_rollback(True)


def settle_card_indexes(*, analyse: bool = True) -> None:
    """After cards are written in bulk inside a test's transaction: their rows wait in the
    GIN indexes' pending lists, which the planner counts as read in full by every search;
    VACUUM (or the site's autovacuum) would merge them, which cannot run inside the
    transaction: this does the same, then (`analyse`) brings the table's statistics up to
    date."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT gin_clean_pending_list(c.oid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam "
            "WHERE i.indrelid = 'catalogue_card'::regclass AND a.amname = 'gin'"
        )
        if analyse:
            cursor.execute("ANALYZE catalogue_card")


# --- The flush after a transactional test --------------------------------------------------
#
# A test with `transaction=True` (every browser test, with its live server) commits its rows,
# and Django empties every table after it (the `flush` command). On PostgreSQL Django empties
# them with one TRUNCATE of every table: about 1.3 s on this suite's ~50 tables, nearly all of
# them empty or holding a few rows, since each truncated table gets new files. A DELETE of
# each table, in one transaction with the foreign keys checked at its end (Django makes them
# all DEFERRABLE INITIALLY DEFERRED), leaves the same empty tables in a few milliseconds.
# (Sequences are not reset either way, unless a test asks for `reset_sequences`: then
# Django's own TRUNCATE … RESTART IDENTITY.)
#
# The live server answers in threads of this process; a request the browser sent just before
# the test ended may still be writing when the flush starts: its rows would outlive the flush
# (and the next test's catalogue would clash with them), or its locks would deadlock with it.
# The flush first waits until the live server has answered every request it began.


class LiveRequests:
    """The requests this process is answering outside its main thread (the live server's)."""

    def __init__(self) -> None:
        import threading

        self._threading = threading
        self._idle = threading.Condition()
        self.count = 0

    def started(self, **kwargs) -> None:
        if self._threading.current_thread() is not self._threading.main_thread():
            with self._idle:
                self.count += 1

    def finished(self, **kwargs) -> None:
        if self._threading.current_thread() is not self._threading.main_thread():
            with self._idle:
                self.count = max(0, self.count - 1)
                if not self.count:
                    self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no request is being answered; False if one still was after `timeout`."""
        with self._idle:
            return self._idle.wait_for(lambda: self.count == 0, timeout)


LIVE_REQUESTS = LiveRequests()

#: How long the flush waits for the live server's requests in flight.
LIVE_REQUESTS_WAIT_SECONDS = 15


def flush_by_delete() -> None:
    """Make Django's flush on PostgreSQL wait for the live server's requests in flight, then
    empty the tables with DELETE (see above). Called once, from tests/conftest.py."""
    import warnings

    from django.core.signals import request_finished, request_started
    from django.db.backends.postgresql.operations import DatabaseOperations

    request_started.connect(LIVE_REQUESTS.started, dispatch_uid="tests-live-requests-started")
    request_finished.connect(LIVE_REQUESTS.finished, dispatch_uid="tests-live-requests-finished")

    truncate = DatabaseOperations.sql_flush
    if getattr(truncate, "by_delete", False):
        return

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not LIVE_REQUESTS.wait_idle(LIVE_REQUESTS_WAIT_SECONDS):
            warnings.warn(
                f"the live server was still answering {LIVE_REQUESTS.count} request(s) "
                f"{LIVE_REQUESTS_WAIT_SECONDS} s after the test: flushing all the same",
                stacklevel=2,
            )
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        ]

    sql_flush.by_delete = True  # type: ignore[attr-defined]
    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


#: The syllables the search tests' generated catalogues make their names and words of.
SYLLABLES = "ka ro mi tan vel dor ash qua bri zen lo fa ur el mon sti".split()


def syllable_names(rng, count: int) -> tuple[set[str], list[str]]:
    """`count` distinct card names of four syllables, "Tigercat" among them, then 300 words of
    two for rules text, drawn from `rng` in that order (the same seed, the same catalogue)."""
    names: set[str] = {"Tigercat"}
    while len(names) < count:
        names.add("".join(rng.choice(SYLLABLES) for _ in range(4)).capitalize())
    words = ["".join(rng.choice(SYLLABLES) for _ in range(2)) for _ in range(300)]
    return names, words


def module_catalogue(make):
    """The fixtures of a module whose tests share one generated catalogue: `_catalogue`,
    made once by `make` (which returns the game's pk) in the module's transaction
    (`shared_data`), and `game`, that game. Use: `_catalogue, game = module_catalogue(make)`."""
    import pytest

    @pytest.fixture(scope="module")
    def _catalogue(django_db_setup, django_db_blocker, request):
        with shared_data(request, django_db_blocker):
            yield make()

    @pytest.fixture
    def game(_catalogue, db):
        from catalogue.models import Game

        return Game.objects.get(pk=_catalogue)

    return _catalogue, game
