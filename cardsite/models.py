"""Site-wide models: the worker ping that proves a Celery worker answers."""

from django.db import models


class WorkerPing(models.Model):
    """A round trip through the broker: created by a request, answered by a worker."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"ping {self.pk} ({'answered' if self.answered_at else 'waiting'})"
