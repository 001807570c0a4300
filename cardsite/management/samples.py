"""What the commands that publish the sample data's example lists share (the decks app's
`publish_sample_decks`, the decklists app's `publish_sample_decklists`): the account named
by `--username` (the demo account by default), each list not published written to standard
error, and one line of what was published and what was there already."""

from __future__ import annotations

from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Published(Protocol):
    """What a publishing service answers: the lists it published, those already there, and
    those it could not publish (each with why)."""

    @property
    def created(self) -> list[str]: ...

    @property
    def kept(self) -> list[str]: ...

    @property
    def failed(self) -> list[str]: ...


class PublishSamplesCommand(BaseCommand):
    """Publish the sample lists for an account; running it again adds nothing. A subclass
    publishes (`publish`) and names what it published in its summary line (`published`,
    with `{username}` for the account's name)."""

    published = "sample lists"

    def publish(self, user: Any) -> Published:
        raise NotImplementedError

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account {username!r} (make it with ensure_demo_user)")
        result = self.publish(user)
        for problem in result.failed:
            self.stderr.write(f"  not published: {problem}")
        self.stdout.write(
            self.style.SUCCESS(
                f"{self.published.format(username=username)}: {len(result.created)} published, "
                f"{len(result.kept)} already there"
            )
        )
