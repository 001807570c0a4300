"""The Celery application. Workers start with `celery -A cardsite worker`."""

import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger, task_prerun, worker_ready
from django.conf import settings

from .logs import structure_celery_logger
from .workers import note_worker_alive

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Workers and beat log the site's structured lines (cardsite.logs), with each task's fields.
after_setup_logger.connect(structure_celery_logger, weak=False)
after_setup_task_logger.connect(structure_celery_logger, weak=False)
# A worker notes when it starts and takes a task: the health page and the run pages say when
# none has answered for a while (cardsite.workers).
worker_ready.connect(note_worker_alive, weak=False)
task_prerun.connect(note_worker_alive, weak=False)


def ensure_broker_folders() -> None:
    """The filesystem transport needs its folders before the first message."""
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        if key in options:
            os.makedirs(str(options[key]), exist_ok=True)


#: Tasks of the control queue besides those beat sends: the jobs' reaper (also sent by hand) and
#: the health page's worker ping.
CONTROL_TASKS = frozenset({"jobs.reap", "cardsite.answer_ping"})


def control_queue() -> str:
    """The control queue of the queue tasks go to now ("<default>.control")."""
    return f"{app.conf.task_default_queue}.control"


def route_task(name, args, kwargs, options, task=None, **kw):
    """Celery router (settings.CELERY_TASK_ROUTES): periodic and control work to the
    control queue, every other task to the default queue."""
    beat_tasks = {entry["task"] for entry in getattr(settings, "CELERY_BEAT_SCHEDULE", {}).values()}
    if name in CONTROL_TASKS or name in beat_tasks:
        return {"queue": control_queue()}
    return None
