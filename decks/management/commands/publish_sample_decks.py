from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from decks.samples import publish_sample_decks


class Command(BaseCommand):
    help = (
        "Publish the example lists shipped with the sample data as public decks of an "
        "account (the demo account by default). Running it again adds nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account {username!r} (make it with ensure_demo_user)")
        result = publish_sample_decks(owner=user)
        for problem in result.failed:
            self.stderr.write(f"  not published: {problem}")
        self.stdout.write(
            self.style.SUCCESS(
                f"sample decks of {username}: {len(result.created)} published, "
                f"{len(result.kept)} already there"
            )
        )
