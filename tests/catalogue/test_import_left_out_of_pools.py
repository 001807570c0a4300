"""An expansion import says which formats' rule sets (in force, or upcoming) leave the new
expansion out of their pool, with links to edit them: importing a new REDLINE expansion
while the sample rule set S1 (pool: RL1) is in force puts every one of its cards out of the
standard pool, and the admin and the command say so."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from catalogue.models import RuleSet
from validation.packages import sample_expansions

pytestmark = pytest.mark.django_db


def new_expansion(code: str = "RL9") -> dict:
    """A new REDLINE expansion of one card (sample data), made from the sample's first."""
    sample = json.loads(sample_expansions("redline")[0].read_text())
    card = dict(sample["cards"][0], name="Sample Newcomer", number="1")
    return {"game": "redline", "code": code, "name": "Sample Expansion", "cards": [card]}


def test_the_admin_preview_and_result_name_the_rule_sets_that_leave_the_expansion_out(
    client, staff_user, sample_catalogue
):
    s1 = RuleSet.objects.get(game__slug="redline", format="standard", code="S1")
    s2 = RuleSet.objects.get(game__slug="redline", format="standard", code="S2")
    client.force_login(staff_user)
    url = reverse("admin:catalogue_expansion_import")
    upload = SimpleUploadedFile("rl9.json", json.dumps(new_expansion()).encode())
    preview = client.post(url, {"file": upload})
    html = preview.content.decode()
    assert "Not in a format&#x27;s pool" in html or "Not in a format's pool" in html
    assert "rule set S1 (" in html and "in force since 2026-01-01, does not list RL9" in html
    assert "rule set S2 (" in html and "upcoming, in force from 2027-01-01" in html
    assert reverse("admin:catalogue_ruleset_change", args=[s1.pk]) in html
    done = client.post(url, {"confirm": "1"}, follow=True)
    said = " ".join(str(m) for m in done.context["messages"])
    assert "1 card was created" in said
    assert "Standard: rule set S1" in said and "does not list RL9" in said
    assert f'href="{reverse("admin:catalogue_ruleset_change", args=[s1.pk])}"' in said
    assert f'href="{reverse("admin:catalogue_ruleset_change", args=[s2.pk])}"' in said


def test_the_command_says_which_rule_sets_leave_the_expansion_out(sample_catalogue, tmp_path):
    path = tmp_path / "rl9.json"
    path.write_text(json.dumps(new_expansion()))
    out = io.StringIO()
    call_command("import_expansion", str(path), "--dry-run", stdout=out)
    text = out.getvalue()
    assert "Not in a format's pool: Standard: rule set S1" in text
    assert "does not list RL9: its cards are out of the Standard pool" in text


def test_an_expansion_every_rule_set_lists_is_not_reported(sample_catalogue, tmp_path):
    path = tmp_path / "rl1.json"
    path.write_text(sample_expansions("redline")[0].read_text())
    out = io.StringIO()
    call_command("import_expansion", str(path), stdout=out)
    assert "pool" not in out.getvalue()
