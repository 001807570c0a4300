from catalogue.management.file_commands import FileImportCommand
from catalogue.rule_set_file import rule_set_import


class Command(FileImportCommand):
    help = (
        "Import a rule set file (one rule set or a list; the rule set format of docs/api.md). "
        "All-or-nothing; the same code again updates the rule set."
    )
    file_help = "the rule set's JSON file"

    def run_import(self, data, *, dry_run):
        return rule_set_import(data=data, dry_run=dry_run)

    def show(self, report):
        for plan in report.plans:
            self.stdout.write(plan.summary())
            if self.verbosity > 0:
                for change in plan.lines():
                    self.stdout.write(f"  {change}")
