"""The one typed registry of the Celery tasks that are sent from a module that cannot import
them: the module that defines the task imports the sender (a task is thin and calls its
service, so the service cannot import the task back), or the task lives in an app above the
sender's layer.

Each is a `TaskRef`, typed by its arguments, found by its Celery name in the Celery app when
it is sent (the app has loaded every app's tasks by then): a caller writes
`task_refs.RUN_JOB_CHUNK.delay(kind, job_id, index)` and mypy checks the arguments. Every
other task is imported by the module that sends it. Who may send a task at all is
tests/site/test_task_senders.py's to say: the job runner (cardsite/jobs.py) and a short
allow-list of one-shot tasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, ParamSpec

P = ParamSpec("P")


@dataclass(frozen=True)
class TaskRef(Generic[P]):
    """A Celery task named by its registered name, with the arguments it takes."""

    name: str

    def task(self) -> Any:
        """The task object (a `celery.Task`), from the site's Celery app."""
        # The Celery app loads the apps' task modules, which import this one: read when sent.
        from .celery import app

        return app.tasks[self.name]

    def delay(self, *args: P.args, **kwargs: P.kwargs) -> Any:
        """Send the task (raises what the broker raises when it is down)."""
        return self.task().delay(*args, **kwargs)


#: The one chunk task of every chunked job (cardsite.tasks.run_job_chunk): kind, job, chunk.
RUN_JOB_CHUNK: TaskRef[[str, int, int]] = TaskRef("jobs.run_chunk")
#: A decklist's publication told to its author's followers (decklists.tasks.tell_followers).
TELL_FOLLOWERS: TaskRef[[int]] = TaskRef("decklists.tell_followers")

#: Every reference, for the test that checks each names a task the app has.
ALL: tuple[TaskRef[Any], ...] = (RUN_JOB_CHUNK, TELL_FOLLOWERS)
