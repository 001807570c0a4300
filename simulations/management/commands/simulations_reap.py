"""Re-queue the chunks of simulation runs whose worker was lost (or fail the run after too
many tries). Safe to run at any time, e.g. every few minutes from cron."""

from django.core.management.base import BaseCommand

from simulations.services import simulation_reap


class Command(BaseCommand):
    help = "Re-queue lost chunks of active simulation runs; fail runs lost too often."

    def handle(self, *args, **options) -> None:
        out = simulation_reap()
        self.stdout.write(
            f"re-queued {len(out['requeued'])} run(s)"
            f"{': ' + ', '.join(map(str, out['requeued'])) if out['requeued'] else ''}; "
            f"failed {len(out['failed'])} run(s)"
            f"{': ' + ', '.join(map(str, out['failed'])) if out['failed'] else ''}"
        )
