from catalogue.importer import expansion_import
from catalogue.management.file_commands import FileImportCommand


class Command(FileImportCommand):
    help = "Import an expansion file (JSON expansion format, see docs/api.md and validation/games/<game>/sample_data/). All-or-nothing."
    file_help = "the expansion's JSON file"

    def _progress(self, stage: str, done: int, total: int) -> None:
        """A line per batch written, as the import goes (a large file takes a while)."""
        if self.verbosity > 0:
            self.stdout.write(f"  {stage}: {done:,} of {total:,} written")
            self.stdout.flush()

    def run_import(self, data, *, dry_run):
        return expansion_import(data=data, dry_run=dry_run, progress=self._progress)

    def show(self, report):
        if self.verbosity > 1:
            for label, names in (("created", report.created), ("updated", report.updated)):
                for name in names:
                    self.stdout.write(f"  {label}: {name}")
        for note in report.notes:
            self.stdout.write(f"Note: {note}")
        for note in report.left_out_notes():
            self.stdout.write(self.style.WARNING(f"Not in a format's pool: {note}"))
