from django.core.management.base import BaseCommand

from notices.services import digest_send


class Command(BaseCommand):
    help = (
        "Email each owner who opted in the notices not mailed yet (Celery beat runs this "
        "daily as notices.send_digests)."
    )

    def handle(self, *args, **options):
        n = digest_send()
        self.stdout.write(f"{n} digest{'s' if n != 1 else ''} sent")
