"""Site-wide models: the worker ping that proves a Celery worker answers; personal API tokens."""

from django.db import models
from knox.models import AbstractAuthToken


class WorkerPing(models.Model):
    """A round trip through the broker: created by a request, answered by a worker."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"ping {self.pk} ({'answered' if self.answered_at else 'waiting'})"


class ApiToken(AbstractAuthToken):
    """A personal API token (django-rest-knox's token, stored as a SHA-512 digest: the token
    itself is shown once, when it is made), with the name its owner gave it and a scope."""

    READ = "read"
    WRITE = "write"
    SCOPES = [(READ, "read only"), (WRITE, "read and write")]

    name = models.CharField(max_length=100)
    scope = models.CharField(max_length=5, choices=SCOPES, default=READ)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user}, {self.scope})"
