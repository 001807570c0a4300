from django.core.management.base import BaseCommand, CommandError

from catalogue.importer import read_expansion_file
from catalogue.rule_set_file import RuleSetImportFailed, rule_set_import


class Command(BaseCommand):
    help = (
        "Import a rule set file (one rule set or a list; the rule set format of docs/api.md). "
        "All-or-nothing; the same code again updates the rule set."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the rule set's JSON file")
        parser.add_argument(
            "--dry-run", action="store_true", help="report what would change; write nothing"
        )

    def handle(self, *args, path, dry_run, **options):
        try:
            data = read_expansion_file(path)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        try:
            report = rule_set_import(data=data, dry_run=dry_run)
        except RuleSetImportFailed as exc:
            for error in exc.report.errors:
                self.stderr.write(f"  {error}")
            raise CommandError(f"{path}: {exc.report.summary()}") from exc
        for plan in report.plans:
            self.stdout.write(plan.summary())
            if options["verbosity"] > 0:
                for change in plan.changes:
                    self.stdout.write(f"  {change}")
        self.stdout.write(self.style.SUCCESS(report.summary()))
