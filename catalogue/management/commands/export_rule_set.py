from django.core.management.base import BaseCommand, CommandError

from catalogue.management.file_commands import write_document
from catalogue.models import RuleSet
from catalogue.rule_set_file import rule_set_export
from validation.registry import registry


class Command(BaseCommand):
    help = "Export a rule set as a JSON file that import_rule_set reads back unchanged."

    def add_arguments(self, parser):
        parser.add_argument("game", help=f"game slug: {', '.join(registry.slugs())}")
        parser.add_argument("format", help="format slug (standard, …)")
        parser.add_argument("code", help="the rule set's code")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, game, format, code, output, **options):
        try:
            doc = rule_set_export(game_slug=game, format=format, code=code)
        except RuleSet.DoesNotExist as exc:
            raise CommandError(f"no rule set {code!r} of {game} {format}") from exc
        write_document(self, doc, output, f"wrote {code} ({len(doc['cards'])} cards) to {output}")
