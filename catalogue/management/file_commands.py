"""What the catalogue's file commands share: importing a JSON file all-or-nothing (every
bad row written to standard error, then a CommandError) and writing an exported document."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from catalogue.file_imports import FileImportFailed, FileImportReport
from catalogue.importer import read_expansion_file


def imported(command: BaseCommand, label: str, run: Callable[..., FileImportReport], **kwargs):
    """The report of `run(**kwargs)`, an import; when the file has bad rows, each is written
    to the command's standard error and a CommandError names the file (`label`) and the
    count."""
    try:
        return run(**kwargs)
    except FileImportFailed as exc:
        for error in exc.report.errors:
            command.stderr.write(f"  {error}")
        raise CommandError(f"{label}: {exc.report.summary()}") from exc


class FileImportCommand(BaseCommand):
    """Import the JSON file at `path`, all-or-nothing; with --dry-run, say what would change
    and write nothing. A subclass runs the import (`run_import`) and may show more of the
    report than its summary (`show`)."""

    #: The help of the `path` argument.
    file_help: str

    def add_arguments(self, parser):
        parser.add_argument("path", help=self.file_help)
        parser.add_argument(
            "--dry-run", action="store_true", help="report what would change; write nothing"
        )

    def run_import(self, data: Any, *, dry_run: bool) -> FileImportReport:
        raise NotImplementedError

    def show(self, report: FileImportReport) -> None:
        """Write what the report says beyond its summary (nothing by default)."""

    def handle(self, *args, path, dry_run, **options):
        self.verbosity = options["verbosity"]
        try:
            data = read_expansion_file(path)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        report = imported(self, path, self.run_import, data=data, dry_run=dry_run)
        self.show(report)
        self.stdout.write(self.style.SUCCESS(report.summary()))


def write_document(command: BaseCommand, doc: dict[str, Any], output: str | None, done: str):
    """Write an exported document as JSON to the file `output` (then say `done`), or to the
    command's standard output when there is none."""
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
        command.stdout.write(command.style.SUCCESS(done))
    else:
        command.stdout.write(text, ending="")
