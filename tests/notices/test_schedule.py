"""Celery beat's schedule: the day a rule set takes effect, the one reaper of every chunked job
(stalled re-checks among them) and the notice digest, each a task the workers know, on the
control queue, in the site's time."""

from __future__ import annotations

from django.conf import settings

from cardsite.celery import app, control_queue, route_task

SCHEDULED = {
    "decks.recheck_rule_sets_taking_effect",
    "jobs.reap",
    "notices.send_digests",
}


def test_beat_schedules_the_re_checks_and_the_digest():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert SCHEDULED <= tasks
    app.loader.import_default_modules()
    assert SCHEDULED <= set(app.tasks)
    for name in SCHEDULED:
        assert route_task(name, (), {}, {}) == {"queue": control_queue()}


def test_beat_keeps_the_sites_time():
    assert settings.CELERY_TIMEZONE == settings.TIME_ZONE
    entry = settings.CELERY_BEAT_SCHEDULE["rule-sets-taking-effect"]["schedule"]
    assert entry.minute == {1, 31}  # the first run of a day is at 00:01 site time
