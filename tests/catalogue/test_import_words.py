"""What the admin reads about an import names the game and the format as their packages
spell them ("REDLINE", "Standard"), never their slugs ("redline", "standard"), and counts
with real plurals ("1 card was created", "2 cards were created"; never "card(s)"): the
expansion import's preview and result, and the rule set import's preview."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from catalogue.importer import expansion_import
from validation.packages import sample_expansions
from validation.registry import registry

pytestmark = pytest.mark.django_db


def _expansion(code: str, n: int) -> dict:
    """A new REDLINE expansion of `n` cards (sample data), made from the sample's first."""
    sample = json.loads(sample_expansions("redline")[0].read_text())
    cards = [
        dict(sample["cards"][0], name=f"Sample Newcomer {i}", number=str(i + 1)) for i in range(n)
    ]
    return {"game": "redline", "code": code, "name": "Sample Expansion", "cards": cards}


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _import(client, data: dict) -> tuple[str, str]:
    """The admin's preview of `data` and the message once it is imported, as text."""
    url = reverse("admin:catalogue_expansion_import")
    upload = SimpleUploadedFile("expansion.json", json.dumps(data).encode())
    preview = client.post(url, {"file": upload})
    assert preview.status_code == 200
    done = client.post(url, {"confirm": "1"}, follow=True)
    said = " ".join(str(m) for m in done.context["messages"])
    return _text(preview.content.decode()), said


@pytest.mark.parametrize(
    ("n", "preview_says", "result_says"),
    [
        (1, "1 card to create", "REDLINE RL8: 1 card was created, 0 updated, 0 unchanged."),
        (2, "2 cards to create", "REDLINE RL8: 2 cards were created, 0 updated, 0 unchanged."),
    ],
)
def test_the_expansion_import_names_the_game_and_counts_in_words(
    client, staff_user, sample_catalogue, n, preview_says, result_says
):
    client.force_login(staff_user)
    preview, said = _import(client, _expansion("RL8", n))
    assert "Preview: REDLINE RL8 (new expansion)" in preview
    assert preview_says in preview
    assert said.startswith(result_says), said
    assert "(s)" not in preview + said
    assert "redline RL8" not in preview + said and "Redline RL8" not in preview + said


def test_a_dry_run_and_a_file_with_errors_count_in_words(sample_catalogue):
    report = expansion_import(data=_expansion("RL7", 1), dry_run=True)
    assert report.summary() == "REDLINE RL7: 1 card would be created, 0 updated, 0 unchanged."
    one_bad = _expansion("RL7", 1)
    one_bad["cards"][0]["cost"] = "x"
    two_bad = _expansion("RL7", 2)
    for card in two_bad["cards"]:
        card["cost"] = "x"
    summaries = []
    for data in (one_bad, two_bad):
        try:
            expansion_import(data=data, dry_run=True)
        except Exception as exc:  # noqa: BLE001 - ImportFailed, its message read
            summaries.append(str(exc))
    assert summaries == ["1 error; nothing was changed.", "2 errors; nothing was changed."]


@pytest.fixture
def rule_set_file() -> dict:
    return {
        "rule_set": 1,
        "game": "redline",
        "format": "standard",
        "code": "S1X",
        "name": "Sample Season 1 extended",
        "announced": "2026-06-01",
        "effective": "2026-06-01",
        "expansions": ["RL1"],
        "cards": [{"name": "Tigercat", "banned": True}],
        "note": "Sample data.",
        "sample": True,
    }


def test_the_rule_set_preview_names_the_game_the_format_and_the_rule_set(
    client, staff_user, sample_catalogue, rule_set_file
):
    client.force_login(staff_user)
    upload = SimpleUploadedFile("s1x.json", json.dumps(rule_set_file).encode())
    response = client.post(reverse("admin:catalogue_ruleset_import"), {"file": upload})
    assert response.status_code == 200
    text = _text(response.content.decode())
    game = registry.get("redline")
    row = f"{game.short_name} {game.format('standard').name} S1X Sample Season 1 extended"
    assert row == "REDLINE Standard S1X Sample Season 1 extended"
    assert row in text
    assert "redline standard" not in text
    assert "1 rule set: 1 would be created, 0 updated, 0 unchanged." in text
    assert "(s)" not in text
