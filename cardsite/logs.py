"""One line per log event: `time level logger message key=value …`, or a JSON object per
line (LOG_FORMAT=json). Extra fields given with `logger.info(..., extra={...})` are kept."""

from __future__ import annotations

import json
import logging

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class StructuredFormatter(logging.Formatter):
    def __init__(self, *args, json: bool = False, **kwargs) -> None:  # noqa: A002
        super().__init__(*args, **kwargs)
        self.as_json = json

    def format(self, record: logging.LogRecord) -> str:
        fields = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        extra = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        extra.pop("request", None)  # django.request passes the request object
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
