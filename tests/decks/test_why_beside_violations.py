"""Beside every violation, "Why?": the rule in one sentence and the rulebook sentence and
section it comes from, linked to its row of the game's rules page (/rules/<game>/#<code>)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from decks import services
from validation.registry import registry

from .conftest import MINI_LIST, sample_list

pytestmark = pytest.mark.django_db

OPTIONS = {"custom": {"points": 50}}


def _examples():
    from validation.packages import all_sample_lists

    return sorted((s.game, s.format) for s in all_sample_lists())


def _broken(text: str) -> str:
    """The list with each counted line's count raised by 5 (sizes, copies, points break)."""
    return re.sub(r"^(\d+)(x?) ", lambda m: f"{int(m.group(1)) + 5}{m.group(2)} ", text, flags=re.M)


def _violations(page: str) -> list[str]:
    """The HTML of each violation block of a page."""
    return re.findall(r'<div class="violation[^"]*" data-code="[^"]+"[^>]*>.*?</div>', page, re.S)


def _assert_each_has_its_why(page: str, game: str) -> list[str]:
    blocks = _violations(page)
    assert blocks, "the page shows no violation"
    codes = []
    for block in blocks:
        code = re.search(r'data-code="([^"]+)"', block).group(1)
        assert '<details class="why"><summary>Why?</summary>' in block, block
        assert f'href="/rules/{game}/#{code}"' in block, block
        assert '<blockquote class="why-quote">“' in block, block
        codes.append(code)
    return codes


@pytest.mark.parametrize("game,fmt", _examples())
def test_every_violation_on_the_check_page_says_why(client, sample_catalogue, game, fmt):
    data = {"game_format": f"{game}/{fmt}", "list": _broken(sample_list(game, fmt))}
    if fmt in OPTIONS:
        data["points"] = OPTIONS[fmt]["points"]
    page = client.post("/check/", data).content.decode()
    codes = _assert_each_has_its_why(page, game)
    rules = client.get(reverse("catalogue:rules", args=[game])).content.decode()
    for code in codes:
        assert f'id="{code}"' in rules, code


def test_the_why_of_a_short_arsenal_quotes_its_rule_and_section(client, mini_catalogue, user):
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Short", text=MINI_LIST
    )
    client.force_login(user)
    for url in (
        reverse("decks:detail", args=[deck.pk]),
        reverse("decks:version", args=[deck.pk, 1]),
        reverse("builder:deck", args=[deck.pk]),
    ):
        page = html.unescape(client.get(url).content.decode())
        block = next(b for b in _violations(page) if 'data-code="arsenal.size"' in b)
        assert "The arsenal holds exactly 60 cards; the general is not counted." in block
        assert "“An arsenal must be 60 cards exactly.”" in block
        assert "REDLINE: Tactical Card Combat Rules, section “Arsenal Construction”" in block
        assert 'href="/rules/redline/#arsenal.size"' in block


def test_the_shared_page_says_why_too(client, mini_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Short",
        text=MINI_LIST,
        visibility="unlisted",
    )
    page = client.get(deck.get_share_url()).content.decode()
    assert _assert_each_has_its_why(page, "redline")


@pytest.mark.parametrize("game", [g for g in registry.all()], ids=lambda g: g.slug)
def test_the_rules_page_has_a_row_for_every_rule_code(client, game):
    page = client.get(reverse("catalogue:rules", args=[game.slug])).content.decode()
    ids = re.findall(r'id="([^"]+)"', page)
    for fmt in game.formats.values():
        for code in fmt.codes():
            assert ids.count(code) == 1, code
    assert page.count("<tr id=") == len(game.trace.rows)
    assert 'id="codes-without-source"' in page and 'id="untraced-sentences"' in page
    for row in game.trace.untraced():
        assert html.escape(row.quote, quote=False) in page


def test_the_game_page_links_to_its_rules_and_an_unknown_game_has_none(client, sample_catalogue):
    page = client.get(reverse("catalogue:game", args=["redline"])).content.decode()
    assert f'href="{reverse("catalogue:rules", args=["redline"])}"' in page
    assert client.get("/rules/chess/").status_code == 404


@pytest.fixture
def pond_catalogue(db):
    """Pond, the toy sixth game, registered for the test, its cards imported."""
    import json
    from pathlib import Path

    import tests.toy_game as pond
    from catalogue.importer import expansion_import

    with registry.temporarily(pond.GAME) as game:
        expansion_import(
            data=json.loads((Path(pond.__file__).parent / "sample_data" / "POND1.json").read_text())
        )
        yield game


def test_a_sixth_game_gets_its_rules_page_and_its_whys(client, pond_catalogue):
    text = "Frogs:\n3 Leaper\nLily pads:\n5 Small Pad\n"
    page = client.post("/check/", {"game_format": "pond/pond", "list": text}).content.decode()
    assert set(_assert_each_has_its_why(page, "pond")) == {
        "frogs.size",
        "frogs.copies",
        "pads.size",
    }
    assert "“A pond has exactly 6 lily pads.”" in html.unescape(page)
    rules = client.get("/rules/pond/").content.decode()
    assert 'id="frogs.size"' in rules and 'id="frogs.copies"' in rules
    untraced = rules[rules.index('id="untraced-sentences"') :]
    assert "A frog that falls in the water swims back." in untraced.split("</ul>")[0]
