"""A 20,000-card expansion imports completely, in batches inside the one transaction, with
the statement timeout lifted for that transaction only: the session's own timeout (lowered
here to 300 ms, far below what one unbatched insert of 20,000 rows takes) holds before and
after. All-or-nothing still holds, and the command prints its progress."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.db import connection

from catalogue.importer import BATCH_SIZE, ImportFailed, expansion_import
from catalogue.models import Card, Printing

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's statement timeout"
)

ROWS = 20_000


def big_doc(rows: int = ROWS) -> dict:
    return {
        "game": "redline",
        "code": "BIG",
        "name": "Big Box",
        "released": "2026-01-01",
        "cards": [
            {
                "name": f"Depot {i:05d}",
                "kind": "resource",
                "cost": i % 7,
                "number": str(i),
                "text": f"Supply line number {i}.",
            }
            for i in range(rows)
        ],
    }


def _timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


@pytest.fixture
def short_timeout(transactional_db):
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 300")
    yield
    with connection.cursor() as cursor:
        cursor.execute("RESET statement_timeout")


def test_20000_rows_import_completely_under_a_short_statement_timeout(short_timeout):
    progress: list[tuple[str, int, int]] = []
    report = expansion_import(data=big_doc(), progress=lambda *a: progress.append(a))
    assert len(report.created) == ROWS
    assert Card.objects.filter(game__slug="redline").count() == ROWS
    assert Printing.objects.filter(expansion__code="BIG").count() == ROWS
    # the lift was for the import's transaction only
    assert _timeout() == "300ms"
    assert progress[-1] == ("printings", ROWS, ROWS)
    assert ("cards", BATCH_SIZE, ROWS) in progress
    assert len([p for p in progress if p[0] == "cards"]) == ROWS // BATCH_SIZE

    # re-importing updates in batches too, and changes nothing twice
    doc = big_doc()
    for row in doc["cards"]:
        row["cost"] += 1
    report = expansion_import(data=doc)
    assert len(report.updated) == ROWS and not report.created
    assert _timeout() == "300ms"


def test_a_bad_row_at_the_end_of_a_large_file_writes_nothing(short_timeout):
    doc = big_doc()
    doc["cards"][-1]["cost"] = "lots"
    with pytest.raises(ImportFailed) as failed:
        expansion_import(data=doc)
    assert "card #19999" in str(failed.value.report.errors[0])
    assert not Card.objects.exists()


def test_a_failure_between_batches_rolls_every_batch_back(short_timeout):
    def stop(stage, done, total):
        if stage == "printings" and done >= 2 * BATCH_SIZE:
            raise RuntimeError("stopped mid-import")

    with pytest.raises(RuntimeError):
        expansion_import(data=big_doc(5 * BATCH_SIZE), progress=stop)
    assert not Card.objects.exists() and not Printing.objects.exists()


def test_the_command_prints_its_progress(short_timeout, tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big_doc(3 * BATCH_SIZE)))
    out = io.StringIO()
    call_command("import_expansion", str(path), stdout=out)
    text = out.getvalue()
    assert "cards: 1,000 of 3,000 written" in text
    assert "printings: 3,000 of 3,000 written" in text
    assert Card.objects.count() == 3 * BATCH_SIZE


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_admin_imports_a_large_file_on_a_worker_with_a_progress_page(
    client, staff_user, dedicated_worker
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from catalogue.import_jobs import ADMIN_INLINE_ROWS
    from catalogue.services import games_sync
    from tests.conftest import wait_for

    games_sync()
    dedicated_worker.start(concurrency=1)
    client.force_login(staff_user)
    rows = ADMIN_INLINE_ROWS + 500
    url = reverse("admin:catalogue_expansion_import")
    upload = SimpleUploadedFile("big.json", json.dumps(big_doc(rows)).encode())
    preview = client.post(url, {"file": upload})
    assert len(preview.context["report"].created) == rows
    response = client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    progress_url = response["Location"]
    assert progress_url.startswith(url) and progress_url != url

    def page():
        html = client.get(progress_url).content.decode()
        return html if "Done:" in html or "failed" in html else None

    first = client.get(progress_url).content.decode()
    assert 'data-running="true"' in first or "Done:" in first
    assert 'http-equiv="refresh"' not in first
    html = wait_for(page, timeout=120, interval=0.3)
    assert f"{rows} cards were created" in html, html
    assert 'data-running="false"' in html
    assert Card.objects.filter(game__slug="redline").count() == rows
