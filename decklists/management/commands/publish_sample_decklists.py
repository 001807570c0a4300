from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from decklists.samples import SAMPLE_AUTHOR, publish_sample_decklists


class Command(BaseCommand):
    help = (
        "Publish the example lists shipped with the sample data as decklists of the demo "
        f"account and of a second sample author ({SAMPLE_AUTHOR}), with a few likes, a follow "
        "and a comment, each marked as sample data. Running it again adds nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account {username!r} (make it with ensure_demo_user)")
        result = publish_sample_decklists(demo=user)
        for problem in result.failed:
            self.stderr.write(f"  not published: {problem}")
        self.stdout.write(
            self.style.SUCCESS(
                f"sample decklists: {len(result.created)} published, "
                f"{len(result.kept)} already there"
            )
        )
