"""Imports never fail with a 500 or a database error: every value that cannot be stored is
a row error naming the card and the field; two imports of one new expansion at once both
end well; the card table's statistics are fresh after an import."""

from __future__ import annotations

import copy
import json
import threading

import pytest
from django.db import connection, connections, transaction

from catalogue.importer import ImportFailed, expansion_import, read_expansion_file
from catalogue.models import Card, Expansion
from catalogue.services import games_sync
from validation.packages import sample_expansions

pytestmark = pytest.mark.django_db


def redline_doc() -> dict:
    path = sample_expansions("redline")[0]
    return read_expansion_file(path)


def _errors(doc) -> list[tuple[int | None, str, str]]:
    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=doc)
    return [(e.index, e.field, e.message) for e in exc.value.report.errors]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cost", 10**30, "out of range"),
        ("cost", int("9" * 4000), "a number of 4,000 digits"),
        ("cost", -(10**12), "out of range"),
        ("faction", ["une"], "expected text"),
        ("faction", {"code": "une"}, "expected text"),
        ("name", "N" * 201, "at most 200"),
        ("number", "7" * 21, "at most 20"),
        ("rarity", "r" * 31, "at most 30"),
        ("artist", "a" * 201, "at most 200"),
        ("number", 10**40, "too large"),
    ],
)
def test_a_value_that_cannot_be_stored_is_a_row_error(field, value, message):
    doc = redline_doc()
    doc["cards"][2][field] = value
    errors = _errors(doc)
    assert any(i == 2 and f == field and message in m for i, f, m in errors), errors
    assert all(len(m) < 300 for _, _, m in errors)
    assert not Card.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("name", "E" * 201, "at most 200"), ("notice", "n" * 301, "at most 300")],
)
def test_an_expansion_value_too_long_is_an_error(field, value, message):
    doc = redline_doc()
    doc[field] = value
    errors = _errors(doc)
    assert any(i is None and f == field and message in m for i, f, m in errors), errors


def test_the_admin_import_form_answers_a_huge_number_with_a_form_error(client, staff_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(staff_user)
    text = json.dumps(redline_doc()).replace('"cost": 3', '"cost": ' + "9" * 5000, 1)
    assert "9" * 5000 in text
    for body in (text, "[" * 50_000 + "]" * 50_000):
        upload = SimpleUploadedFile("x.json", body.encode(), content_type="application/json")
        response = client.post("/admin/catalogue/expansion/import/", {"file": upload})
        assert response.status_code == 200
        assert "not valid JSON" in response.content.decode()


def test_read_expansion_file_reports_a_huge_number(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"cost": ' + "9" * 5000 + "}")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_expansion_file(path)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
def test_an_import_refreshes_the_card_tables_statistics():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_reset_single_table_counters('catalogue_card'::regclass)")
        cursor.execute(
            "SELECT analyze_count FROM pg_stat_all_tables WHERE relname = 'catalogue_card'"
        )
        before = cursor.fetchone()[0]
    expansion_import(data=redline_doc())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT analyze_count FROM pg_stat_all_tables WHERE relname = 'catalogue_card'"
        )
        after = cursor.fetchone()[0]
    assert after > before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent sessions")
def test_two_imports_of_one_new_expansion_at_once_both_end_well():
    games_sync()  # the game exists: only the expansion and its cards are new
    doc = redline_doc()
    start, hold = threading.Barrier(3), threading.Barrier(3)
    outcomes: list[object] = []

    def run():
        try:
            start.wait()
            # Each import's transaction stays open a moment after its work, so that the
            # others run while it has not committed (they wait for it, or they would fail
            # on the unique constraints).
            with transaction.atomic():
                report = expansion_import(data=copy.deepcopy(doc))
                try:
                    hold.wait(timeout=0.5)
                except threading.BrokenBarrierError:
                    pass
            outcomes.append(report)
        except Exception as exc:  # noqa: BLE001 - recorded for the assertion
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(outcomes) == 3
    assert all(not isinstance(o, Exception) for o in outcomes), outcomes
    assert Expansion.objects.filter(code=doc["code"]).count() == 1
    assert Card.objects.count() == len(doc["cards"])
    created = sorted(len(o.created) for o in outcomes)
    assert created == [0, 0, len(doc["cards"])]
