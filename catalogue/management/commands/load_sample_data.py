from django.core.management.base import BaseCommand, CommandError

from catalogue.importer import analyze_catalogue, expansion_import, read_expansion_file
from catalogue.management.file_commands import imported
from catalogue.rule_set_file import rule_set_import
from catalogue.services import games_sync, sample_data_files, sample_rule_set_files


class Command(BaseCommand):
    help = (
        "Load the sample core set of every game and the sample rule sets (sample data shipped "
        "in the repository)."
    )

    def handle(self, *args, **options):
        games_sync()
        files = sample_data_files()
        if not files:
            raise CommandError("no sample data files found")
        for path in files:
            report = imported(self, path.name, expansion_import, data=read_expansion_file(path))
            self.stdout.write(f"{report.game}/{path.name}: {report.summary()}")
        for path in sample_rule_set_files():
            sets = imported(self, path.name, rule_set_import, data=read_expansion_file(path))
            self.stdout.write(f"{path.name}: {sets.summary()}")
        # Statistics even when nothing changed: a database loaded before imports analysed
        # their tables would otherwise keep planning searches without any.
        analyze_catalogue()
        self.stdout.write(self.style.SUCCESS(f"sample data loaded ({len(files)} expansions)"))
