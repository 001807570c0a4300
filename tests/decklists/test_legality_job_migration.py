"""The migration that puts the decklists' legality re-checks on the one job system adds their
job table (`LegalityJob`) and changes no other: every decklist and every legality row stays,
forth and back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("decklists", "0001_initial")]
AFTER = [("decklists", "0002_legalityjob")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _rows(apps):
    Legality = apps.get_model("decklists", "DecklistLegality")
    Decklist = apps.get_model("decklists", "Decklist")
    return (
        sorted(Decklist.objects.values_list("pk", "name", "format")),
        sorted(Legality.objects.values_list("decklist_id", "format", "legal", "rule_set_code")),
    )


def test_the_legality_job_table_keeps_every_decklist_and_legality_row():
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Game = old.get_model("catalogue", "Game")
    Decklist = old.get_model("decklists", "Decklist")
    Legality = old.get_model("decklists", "DecklistLegality")
    author = User.objects.create(username="old-author")
    game = Game.objects.create(slug="redline", name="REDLINE")
    now = timezone.now()
    for n in range(3):
        decklist = Decklist.objects.create(
            author=author,
            game=game,
            format="standard",
            name=f"List {n}",
            list_text="Arsenal:\n3 Tigercat\n",
            entries=[{"section": "arsenal", "card": "Tigercat", "count": 3}],
            signature=f"{n:064d}",
            published_at=now,
        )
        for fmt in ("standard", "scramble"):
            Legality.objects.create(
                decklist=decklist,
                format=fmt,
                legal=fmt == "standard",
                rule_set_code="S1" if fmt == "standard" else "",
                errors=[] if fmt == "standard" else ["too few cards"],
                checked_at=now,
            )
    before = _rows(old)
    assert len(before[0]) == 3 and len(before[1]) == 6

    new = _migrate(AFTER)
    assert _rows(new) == before
    Job = new.get_model("decklists", "LegalityJob")
    job = Job.objects.create(game_id=game.pk, reason="after the migration", total=3)
    assert (job.status, job.format, job.only_due, job.n_chunks) == ("queued", "", False, 1)

    back = _migrate(BEFORE)
    assert _rows(back) == before
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
