"""Site-wide tasks. Thin: load by primary key, act, save."""

import socket

from celery import shared_task
from django.utils import timezone


@shared_task(name="cardsite.answer_ping")
def answer_ping(ping_id: int) -> None:
    """Mark a WorkerPing answered. Idempotent: a second delivery changes nothing."""
    from .models import WorkerPing

    WorkerPing.objects.filter(pk=ping_id, answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=socket.gethostname()
    )
