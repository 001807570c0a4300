from django.core.management.base import BaseCommand, CommandError

from catalogue.importer import ImportFailed, expansion_import, read_expansion_file


class Command(BaseCommand):
    help = "Import an expansion file (JSON expansion format, see docs/api.md and validation/games/<game>/sample_data/). All-or-nothing."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the expansion's JSON file")
        parser.add_argument(
            "--dry-run", action="store_true", help="report what would change; write nothing"
        )

    def _progress(self, stage: str, done: int, total: int) -> None:
        """A line per batch written, as the import goes (a large file takes a while)."""
        if self.verbosity > 0:
            self.stdout.write(f"  {stage}: {done:,} of {total:,} written")
            self.stdout.flush()

    def handle(self, *args, path, dry_run, **options):
        self.verbosity = options["verbosity"]
        try:
            data = read_expansion_file(path)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        try:
            report = expansion_import(data=data, dry_run=dry_run, progress=self._progress)
        except ImportFailed as exc:
            for error in exc.report.errors:
                self.stderr.write(f"  {error}")
            raise CommandError(f"{path}: {exc.report.summary()}") from exc
        if options["verbosity"] > 1:
            for label, names in (("created", report.created), ("updated", report.updated)):
                for name in names:
                    self.stdout.write(f"  {label}: {name}")
        for note in report.notes:
            self.stdout.write(f"Note: {note}")
        self.stdout.write(self.style.SUCCESS(report.summary()))
