from django.core.management.base import BaseCommand, CommandError

from catalogue.importer import expansion_export
from catalogue.management.file_commands import write_document
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
        write_document(self, doc, output, f"wrote {len(doc['cards'])} cards to {output}")
