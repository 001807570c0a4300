import json

from django.core.management.base import BaseCommand, CommandError

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
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            self.stdout.write(
                self.style.SUCCESS(f"wrote {code} ({len(doc['cards'])} cards) to {output}")
            )
        else:
            self.stdout.write(text, ending="")
