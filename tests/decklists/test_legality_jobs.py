"""A decklists' legality re-check is a job of the one job system (cardsite/jobs.py): a row
with its chunks, played by the one chunk task, its progress in the one shape; beat's
`recheck_due` starts one for the rows that are not today's, and none while one of that
format still runs."""

from __future__ import annotations

import pytest

from cardsite import jobs
from decklists.models import DecklistLegality, LegalityJob
from decklists.services import legality_recheck_start, recheck_due

from .test_legality import _ban

pytestmark = pytest.mark.django_db


def _play(job: LegalityJob) -> None:
    for i in range(job.n_chunks):
        jobs.job_run_chunk(kind=LegalityJob.JOB_KIND, job_id=job.pk, index=i, worker="t")
    job.refresh_from_db()


def test_a_decklists_re_check_is_a_job_with_its_progress_in_the_one_shape(
    sample_catalogue, user, publish, django_capture_on_commit_callbacks, settings
):
    settings.DECKLIST_RECHECK_CHUNK = 2
    lists = [publish(user, name=f"List {n}") for n in range(3)]
    card = next(e["card"] for e in lists[0].entries if e["section"] == "arsenal")
    _ban("T9", card)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        job = legality_recheck_start(game_slug="redline", format="standard", reason="test")
    assert len(sent) == 1  # its chunks go to the workers once the transaction commits
    assert job.job_kind() == "decklists.recheck" and job.chunks == [
        [lists[0].pk, lists[1].pk],
        [lists[2].pk, lists[2].pk],
    ]
    queued = jobs.progress(job)
    assert isinstance(queued, jobs.Progress)
    assert (queued.status, queued.done, queued.total, queued.unit) == ("queued", 0, 3, "decklists")
    _play(job)
    done = jobs.progress(job)
    assert (done.status, done.done, done.total, done.percent) == ("done", 3, 3, 100)
    rows = DecklistLegality.objects.filter(decklist__in=lists, format="standard")
    assert {(r.legal, r.rule_set_code) for r in rows} == {(False, "T9")}


def test_beat_starts_one_job_for_the_rows_not_todays_and_none_while_it_runs(
    sample_catalogue, user, publish, django_capture_on_commit_callbacks
):
    decklist = publish(user)
    assert recheck_due() == {}  # every row is today's
    card = next(e["card"] for e in decklist.entries if e["section"] == "arsenal")
    _ban("T9", card)
    with django_capture_on_commit_callbacks(execute=False):
        assert recheck_due() == {"redline:standard": 1}
        assert recheck_due() == {}  # its job still runs
    job = LegalityJob.objects.get()
    assert (job.format, job.only_due, job.total) == ("standard", True, 1)
    _play(job)
    assert job.status == "done"
    row = DecklistLegality.objects.get(decklist=decklist, format="standard")
    assert (row.legal, row.rule_set_code) == (False, "T9")
    assert recheck_due() == {}
