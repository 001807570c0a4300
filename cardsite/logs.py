"""One line per log event: `time level logger message key=value …`, or a JSON object per
line (LOG_FORMAT=json). Extra fields given with `logger.info(..., extra={...})` are kept."""

from __future__ import annotations

import json
import logging

from celery._state import get_current_task
from django.conf import settings

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class StructuredFormatter(logging.Formatter):
    """`task=True` (Celery workers): a line logged while a task runs also carries the task's
    name and id (`task`, `task_id`)."""

    def __init__(self, *args, json: bool = False, task: bool = False, **kwargs) -> None:  # noqa: A002
        super().__init__(*args, **kwargs)
        self.as_json = json
        self.with_task = task

    def format(self, record: logging.LogRecord) -> str:
        fields = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        extra = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        extra.pop("request", None)  # django.request passes the request object
        if self.with_task:
            extra = {**_task_fields(), **extra}
        if record.exc_info:
            extra["exception"] = self.formatException(record.exc_info)
        if self.as_json:
            return json.dumps({**fields, **extra}, default=str)
        tail = " ".join(f"{k}={_value(v)}" for k, v in extra.items())
        line = f"{fields['time']} {fields['level']} {fields['logger']} {fields['message']}"
        return f"{line} {tail}" if tail else line


def _value(value) -> str:
    text = str(value)
    return json.dumps(text) if (not text or any(c.isspace() for c in text)) else text


def _task_fields() -> dict[str, str]:
    """The running Celery task's name and id, if a task is running in this process."""
    task = get_current_task()
    if task is None or not getattr(task.request, "id", None):
        return {}
    return {"task": task.name, "task_id": task.request.id}


def structure_celery_logger(logger: logging.Logger, *args, **kwargs) -> None:
    """Celery's `after_setup_logger` / `after_setup_task_logger` receiver: the worker's and
    beat's handlers write the site's structured lines (with the `extra` fields such as a
    simulation's run and chunk, which Celery's own format drops) instead of Celery's."""
    formatter = StructuredFormatter(json=getattr(settings, "LOG_JSON", False), task=True)
    for handler in logger.handlers:
        handler.setFormatter(formatter)
