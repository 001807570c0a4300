"""A rule set file's preview (the admin's and `import_rule_set --dry-run`) lists each change
against the rule set it follows or replaces (banned, unbanned, limit a → b, cost a → b,
expansions now legal or rotated out, errata) and how many saved decks would change verdict,
naming a few for the admin; it writes nothing and its cost does not grow with the decks."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue import rulesets
from catalogue.importer import expansion_import
from catalogue.models import RuleSet
from decks import services
from decks.models import Deck, RecheckJob
from notices.models import Notice
from validation.packages import sample_expansions

pytestmark = pytest.mark.django_db

SAMPLE_LIST = "validation/games/redline/sample_data/decks/standard.txt"


@pytest.fixture
def season(sample_catalogue, user):
    """REDLINE standard with S1 in force (no later rule set), a second expansion RL9, and
    three saved decks of the sample list, legal under S1, that follow the format."""
    RuleSet.objects.filter(game__slug="redline", format="standard").exclude(code="S1").delete()
    sample = json.loads(sample_expansions("redline")[0].read_text())
    card = dict(sample["cards"][0], name="Sample Newcomer", number="1")
    expansion_import(
        data={"game": "redline", "code": "RL9", "name": "Sample Expansion", "cards": [card]}
    )
    text = open(SAMPLE_LIST).read()
    for n in range(3):
        services.deck_create(
            owner=user, game_slug="redline", format="standard", name=f"Moore {n}", text=text
        )
    assert all(d.legal for d in Deck.objects.all())
    today = rulesets.today().isoformat()
    return {
        "rule_set": 1,
        "game": "redline",
        "format": "standard",
        "code": "S1B",
        "name": "Sample Season 1b",
        "announced": today,
        "effective": today,
        "expansions": ["RL1", "RL9"],
        "cards": [
            {"name": "Bogatyr", "limit": 1},
            {"name": "Tigercat", "banned": True},
            {"name": "Longbow", "cost": 4},
            {"name": "Smoke Screen", "text": "Errata (sample): only on your own turn."},
        ],
        "note": "Sample data.",
        "sample": True,
    }


EXPECTED = [
    "RL9 now legal",
    "Bogatyr limit 2 → 1",
    "Longbow cost 3 → 4",
    "Orbital Drop no longer banned",
    "Smoke Screen errata added",
    "Tigercat banned",
]


def test_the_command_preview_lists_changes_against_the_rule_set_it_follows_and_the_decks(
    season, tmp_path
):
    path = tmp_path / "s1b.json"
    path.write_text(json.dumps(season))
    before = list(Deck.objects.order_by("pk").values())
    out = io.StringIO()
    call_command("import_rule_set", str(path), "--dry-run", stdout=out)
    text = out.getvalue()
    assert "against S1 (Sample Season 1), which it follows" in text
    for change in EXPECTED:
        assert f"  {change}\n" in text, (change, text)
    assert "3 of 3 saved decks it governs would change verdict (3 made not legal" in text
    assert list(Deck.objects.order_by("pk").values()) == before
    assert not RecheckJob.objects.exists() and not Notice.objects.exists()
    assert not RuleSet.objects.filter(code="S1B").exists()


def test_the_admin_preview_names_the_decks_whose_verdict_would_change(season, client, staff_user):
    client.force_login(staff_user)
    upload = SimpleUploadedFile("s1b.json", json.dumps(season).encode())
    response = client.post(reverse("admin:catalogue_ruleset_import"), {"file": upload})
    html = response.content.decode()
    assert "against S1 (Sample Season 1), which it follows" in html
    for change in EXPECTED:
        assert f"<li>{change}</li>" in html, change
    assert "3 of 3 saved decks it governs would change verdict" in html
    assert "Moore 0, Moore 1, Moore 2" in html


def test_an_update_lists_changes_against_the_rule_set_it_replaces(season, tmp_path):
    s1 = dict(season, code="S1", effective="2026-01-01", announced="2025-12-01")
    s1["cards"] = [{"name": "Bogatyr", "limit": 2}]  # Orbital Drop unbanned, nothing else
    s1["expansions"] = ["RL1"]
    s1["name"] = "Sample Season 1"
    path = tmp_path / "s1.json"
    path.write_text(json.dumps(s1))
    out = io.StringIO()
    call_command("import_rule_set", str(path), "--dry-run", stdout=out)
    text = out.getvalue()
    assert "REDLINE Standard S1 (Sample Season 1): 2 changes to the stored S1" in text
    assert "  Orbital Drop no longer banned\n" in text
    assert "0 of 3 saved decks it governs would change verdict" in text


def test_the_preview_costs_the_same_queries_whatever_the_number_of_decks(season, user):
    from catalogue.rule_set_file import rule_set_import

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            report = rule_set_import(data=season, dry_run=True)
        assert report.plans[0].decks is not None
        return len(ctx.captured_queries)

    few = queries()
    text = open(SAMPLE_LIST).read()
    for n in range(3, 9):
        services.deck_create(
            owner=user, game_slug="redline", format="standard", name=f"Moore {n}", text=text
        )
    assert queries() == few
