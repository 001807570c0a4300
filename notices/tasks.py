"""Background work for notices: the daily email digest (Celery beat)."""

from __future__ import annotations

from celery import shared_task

from .services import digest_send


@shared_task(name="notices.send_digests")
def send_digests() -> int:
    """Mail the owners who opted in their notices not mailed yet. Idempotent: a notice is
    mailed once."""
    return digest_send()
