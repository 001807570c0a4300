"""The Celery application. Workers start with `celery -A cardsite worker`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def ensure_broker_folders() -> None:
    """The filesystem transport needs its folders before the first message."""
    from django.conf import settings

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        if key in options:
            os.makedirs(options[key], exist_ok=True)
