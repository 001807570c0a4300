"""Every chunked background job runs on one job system (cardsite/jobs.py): simulation runs
(goldfish runs, tools' background runs, comparisons, tuning runs), re-checks of saved decks
and large expansion imports are kinds of one registry, played by one chunk task, watched by
one reaper, and each shows its progress in one shape (`cardsite.jobs.Progress`) on its page.

Before, simulation runs (a lease and a reaper), re-checks (a sweep) and the expansion import
(its progress in the cache) were three hand-written systems, each with its own progress."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from cardsite import jobs
from cardsite.celery import app
from cardsite.models import ChunkedJob
from catalogue.import_jobs import import_job_start
from catalogue.models import ImportJob
from decklists.models import LegalityJob
from decks.models import RecheckJob
from decks.verdicts.recheck_jobs import recheck_run_chunk, recheck_start
from simulations.models import RunKind, SimulationRun
from simulations.services import simulation_run_chunk
from tests.catalogue.test_import_large import ROWS, big_doc
from tests.simulations.conftest import make_deck, redline_deck  # noqa: F401 - fixtures
from tests.simulations.test_tuner import starved  # noqa: F401 - a fixture

KINDS = {
    "simulations.goldfish",
    "simulations.tool",
    "simulations.comparison",
    "simulations.tuning",
    "decks.recheck",
    "decks.revalidate",
    "decklists.recheck",
    "catalogue.expansion_import",
}


def _in_one_shape(progress) -> dict:
    """The progress is the one shape, whole and consistent; its JSON form."""
    assert isinstance(progress, jobs.Progress)
    shown = progress.as_dict()
    assert set(shown) == {
        "status",
        "done",
        "total",
        "unit",
        "stage",
        "percent",
        "figures",
        "error",
        "seconds",
    }
    assert shown["status"] in ("queued", "running", "done", "failed")
    assert 0 <= shown["percent"] <= 100 and 0 <= shown["done"]
    assert progress.running == (shown["status"] in ("queued", "running"))
    if shown["status"] == "queued":
        assert progress.line == "Waiting for a worker…"
    if shown["status"] == "done":
        assert shown["percent"] == 100 and progress.line.startswith("Done")
    return shown


def _page_shows(html: str, prefix: str, progress) -> None:
    """A page draws the progress through the one include: its status line and its bar."""
    assert f'id="{prefix}-state" data-status="{progress.status}" data-progress-status' in html
    assert progress.line.replace("…", "") in html.replace("…", "")
    assert f'<progress id="{prefix}-progress" class="job-progress" max="100" ' in html
    assert f'value="{progress.percent}"' in html


def test_every_chunked_job_is_a_kind_of_the_one_job_system():
    assert {kind.name for kind in jobs.registry} >= KINDS
    for kind in jobs.registry:
        assert issubclass(kind.model, ChunkedJob)
    assert {SimulationRun, RecheckJob, ImportJob, LegalityJob} <= set(jobs.registry.models())
    app.loader.import_default_modules()
    assert {"jobs.run_chunk", "jobs.reap"} <= set(app.tasks)
    # one chunk task and one reaper: the apps' own are gone
    gone = {
        "simulations.run_chunk",
        "simulations.reap",
        "decks.recheck_chunk",
        "decks.recheck_sweep",
        "catalogue.import_expansion",
        "decks.tasks.revalidate_game_decks",
        "decks.recheck_start",
        "decklists.recheck_start",
        "decklists.recheck_chunk",
        "decklists.legality_sweep",
    }
    assert not gone & set(app.tasks)
    from django.conf import settings

    scheduled = [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()]
    assert scheduled.count("jobs.reap") == 1 and not gone & set(scheduled)


@pytest.mark.django_db
def test_a_recheck_shows_its_progress_in_the_one_shape(sample_catalogue, user, staff_user, client):
    from decks import services
    from tests.decks.conftest import sample_list

    for n in range(3):
        services.deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name=f"Deck {n}",
            text=sample_list("redline", "standard"),
        )
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    queued = _in_one_shape(jobs.progress(job))
    assert (queued["done"], queued["total"], queued["unit"]) == (0, 3, "decks")
    client.force_login(staff_user)
    url = f"/admin/decks/recheckjob/{job.pk}/progress/"
    _page_shows(client.get(url).content.decode(), "recheck", jobs.progress(job))
    for i in range(job.n_chunks):
        recheck_run_chunk(job_id=job.pk, index=i)
    job.refresh_from_db()
    done = _in_one_shape(jobs.progress(job))
    assert (done["status"], done["done"], done["total"]) == ("done", 3, 3)
    assert {f["key"]: f["value"] for f in done["figures"]}["checked"] == 3
    _page_shows(client.get(url).content.decode(), "recheck", jobs.progress(job))


@pytest.mark.django_db
def test_a_comparison_shows_its_rounds_in_the_one_shape(
    client,
    user,
    redline_deck,  # noqa: F811 - the fixture imported above
    django_capture_on_commit_callbacks,
):
    """A deck against the same list one resource short is not told apart (nor found
    equivalent) by the first round: the comparison goes on to round 2."""
    from decks.services import deck_create
    from tests.simulations.conftest import sample_list

    client.force_login(user)
    short = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="One short",
        text=sample_list("redline", "standard").replace("20 Supply Drop", "19 Supply Drop"),
    )
    with django_capture_on_commit_callbacks(execute=False):
        r = client.post(
            "/api/simulations/compare/",
            {
                "a": {"deck": redline_deck.pk, "version": 1},
                "b": {"deck": short.pk},
                "params": {"games": 80_000, "turns": 8},
                "seed": 5,
            },
            content_type="application/json",
        )
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.kind == RunKind.COMPARISON and run.job_kind() == "simulations.comparison"
    first = _in_one_shape(jobs.progress(run))
    assert (first["done"], first["total"], first["unit"]) == (0, run.n_chunks, "chunks")
    _page_shows(client.get(f"/simulations/{run.pk}/").content.decode(), "run", jobs.progress(run))
    for i in range(run.n_chunks):  # the first round: undecided, it goes on
        simulation_run_chunk(run_id=run.pk, chunk_index=i)
    run.refresh_from_db()
    second = _in_one_shape(jobs.progress(run))
    assert second["status"] == "running" and second["stage"] == "round 2"
    assert second["done"] < second["total"] == run.n_chunks
    page = client.get(f"/simulations/{run.pk}/progress/").content.decode()
    _page_shows(page, "run", jobs.progress(run))
    assert "Round 2: " in jobs.progress(run).line


@pytest.mark.django_db
def test_a_tuning_run_shows_its_progress_in_the_one_shape(
    client,
    user,
    starved,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = client.post(
            f"/api/decks/{starved.pk}/tune/",
            {"candidates": {"query": "kind:resource"}, "max_games": 8_000, "seed": 4},
            content_type="application/json",
        )
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.kind == RunKind.TUNING and run.job_kind() == "simulations.tuning"
    queued = _in_one_shape(jobs.progress(run))
    assert queued["total"] == run.n_chunks and queued["unit"] == "chunks"
    _page_shows(client.get(f"/simulations/{run.pk}/").content.decode(), "run", jobs.progress(run))
    for _ in range(20):
        for i in range(run.n_chunks):
            simulation_run_chunk(run_id=run.pk, chunk_index=i)
        run.refresh_from_db()
        if not run.is_active:
            break
        running = _in_one_shape(jobs.progress(run))
        assert running["stage"].startswith("round ") and running["done"] <= running["total"]
    done = _in_one_shape(jobs.progress(run))
    assert done["status"] == "done" and done["done"] == done["total"] == run.n_chunks


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_20000_card_import_shows_its_progress_in_the_one_shape_while_it_runs(
    client, staff_user, settings, monkeypatch
):
    """Its heartbeat writes how far the import has got while the import's own transaction is
    open: a reader sees the rows written so far, then every row; the page reads the table, so
    a cache flush loses nothing."""
    from cardsite.tasks import run_job_chunk
    from catalogue.services import games_sync

    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: None)  # played here instead
    games_sync()
    settings.JOBS_HEARTBEAT_SECONDS = 0.3
    job_id = import_job_start(data=big_doc())
    job = ImportJob.objects.get(pk=job_id)
    queued = _in_one_shape(jobs.progress(job))
    assert (queued["done"], queued["total"]) == (0, ROWS)
    seen: list[dict] = []
    stop = threading.Event()

    def watch() -> None:
        try:
            while not stop.is_set():
                found = ImportJob.objects.defer("document").get(pk=job_id)
                seen.append(jobs.progress(found).as_dict())
                time.sleep(0.05)
        finally:
            connection.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        outcome = jobs.job_run_chunk(kind=ImportJob.JOB_KIND, job_id=job_id, index=0, worker="t")
    finally:
        stop.set()
        watcher.join(timeout=30)
    assert outcome == "finished"
    midway = [p for p in seen if p["status"] == "running" and 0 < p["done"] < p["total"]]
    assert midway, seen[-3:]
    assert {p["stage"] for p in midway} <= {"cards", "printings"}
    assert all(p["total"] == ROWS and p["unit"] == "rows" for p in midway)
    job.refresh_from_db()
    done = _in_one_shape(jobs.progress(job))
    assert (done["done"], done["total"]) == (ROWS, ROWS)
    assert job.document == {} and f"{ROWS} cards were created" in job.summary
    cache.clear()
    client.force_login(staff_user)
    html = client.get(f"/admin/catalogue/expansion/import/{job_id}/").content.decode()
    _page_shows(html, "import", jobs.progress(job))
    assert f"Done: {job.summary}" in html and 'data-running="false"' in html


@pytest.mark.django_db
def test_an_import_whose_worker_was_lost_is_sent_again_by_the_one_reaper(
    client, staff_user, django_capture_on_commit_callbacks, monkeypatch
):
    from cardsite.tasks import run_job_chunk

    sent = []
    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: sent.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        job_id = import_job_start(data=big_doc(10))
    assert sent == [(ImportJob.JOB_KIND, job_id, 0)]
    cache.clear()  # the job is a row: nothing of it was in the cache
    client.force_login(staff_user)
    page = client.get(f"/admin/catalogue/expansion/import/{job_id}/").content.decode()
    assert "Waiting for a worker…" in page and 'data-running="true"' in page
    long_ago = timezone.now() - timedelta(minutes=5)
    ImportJob.objects.filter(pk=job_id).update(
        status="running", started_at=long_ago, chunk_started={"0": long_ago.isoformat()}
    )
    with django_capture_on_commit_callbacks(execute=True):
        reaped = jobs.reap()
    assert (ImportJob.JOB_KIND, job_id) in reaped.requeued
    assert sent[-1] == (ImportJob.JOB_KIND, job_id, 0)
    job = ImportJob.objects.get(pk=job_id)
    assert job.attempts == 1 and job.timings["reaped"][0]["chunks"] == [0]
    assert json.dumps(job.document)  # still there for the next worker


@pytest.mark.django_db
def test_a_catalogue_change_starts_a_job_of_each_re_check_and_each_shows_its_progress(
    sample_catalogue, user, django_capture_on_commit_callbacks, monkeypatch
):
    """The saved decks of the game and its published decklists are re-checked by two kinds
    of the one job system, each a row with its progress in the one shape (before: one task
    with no row, and a hand-written sweep of chunks)."""
    from cardsite.tasks import run_job_chunk
    from catalogue.services import catalogue_changed
    from decklists.services import decklist_publish
    from decks import services
    from tests.decks.conftest import sample_list

    sent = []
    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: sent.append(a))
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Deck",
        text=sample_list("redline", "standard"),
    )
    decklist_publish(deck=deck, author=user, name="Published")
    with django_capture_on_commit_callbacks(execute=True):
        catalogue_changed(game_slug="redline")
    decks_job = RecheckJob.objects.get(format="")
    lists_job = LegalityJob.objects.get()
    assert decks_job.job_kind() == "decks.revalidate"
    assert lists_job.job_kind() == "decklists.recheck" and lists_job.format == ""
    assert sorted(sent) == sorted(
        [("decks.revalidate", decks_job.pk, 0), ("decklists.recheck", lists_job.pk, 0)]
    )
    for job, unit in ((decks_job, "decks"), (lists_job, "decklists")):
        queued = _in_one_shape(jobs.progress(job))
        assert (queued["done"], queued["total"], queued["unit"]) == (0, 1, unit)
        jobs.job_run_chunk(kind=job.job_kind(), job_id=job.pk, index=0, worker="t")
        job.refresh_from_db()
        done = _in_one_shape(jobs.progress(job))
        assert (done["status"], done["done"], done["total"]) == ("done", 1, 1)
