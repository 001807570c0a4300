import json

from django.core.management.base import BaseCommand, CommandError

from catalogue.importer import expansion_export
from catalogue.models import Expansion
from validation.registry import registry


class Command(BaseCommand):
    help = "Export an expansion as a JSON file that import_expansion reads back unchanged."

    def add_arguments(self, parser):
        parser.add_argument("game", help=f"game slug: {', '.join(registry.slugs())}")
        parser.add_argument("code", help="expansion code")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, game, code, output, **options):
        try:
            doc = expansion_export(game_slug=game, code=code)
        except Expansion.DoesNotExist as exc:
            raise CommandError(f"no expansion {code!r} in game {game!r}") from exc
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            self.stdout.write(self.style.SUCCESS(f"wrote {len(doc['cards'])} cards to {output}"))
        else:
            self.stdout.write(text, ending="")
