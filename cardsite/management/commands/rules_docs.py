"""Write docs/rules/<game>.md, the traceability tables, from the games' rulebook rows."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from validation.registry import registry
from validation.trace import rules_docs


class Command(BaseCommand):
    help = (
        "Write docs/rules/<game>.md from each game's rulebook table (validation/games/<game>/"
        "trace.py); --check only reports the pages that differ."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="write nothing; fail on a diff")
        parser.add_argument("--out", default=str(Path(settings.BASE_DIR) / "docs" / "rules"))

    def handle(self, *args, check: bool, out: str, **options):
        folder = Path(out)
        stale = []
        for name, text in rules_docs(registry).items():
            path = folder / name
            if path.exists() and path.read_text(encoding="utf-8") == text:
                continue
            stale.append(name)
            if not check:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                self.stdout.write(f"wrote {path}")
        if check and stale:
            raise CommandError(
                f"docs/rules is out of date: {', '.join(stale)}; run manage.py rules_docs"
            )
        if not stale:
            self.stdout.write("docs/rules is up to date")
