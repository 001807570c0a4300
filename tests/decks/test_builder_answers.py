"""The builder answers a count change ("+", "−", a count typed in, a quick add) with only what
changed, as htmx out-of-band swaps: a few KB whatever the deck's size, for every game. The
setting BUILDER_FULL_ANSWERS brings back the whole state in every answer."""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest
from django.urls import reverse

from decks import services
from decks.builder.views import row_dom_id
from validation import packages

HTMX = {"HTTP_HX_REQUEST": "true"}
LIMIT = 15_000


def _largest_sample_lists() -> list[tuple[str, str]]:
    """Each game's sample list with the most lines (its largest builder)."""
    out = []
    by_game: dict[str, list] = {}
    for found in packages.all_sample_lists():
        by_game.setdefault(found.game, []).append(found)
    for game, lists in sorted(by_game.items()):
        biggest = max(lists, key=lambda s: len(s.text().splitlines()))
        out.append((game, biggest.format))
    return out


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _page(client, deck) -> str:
    return client.get(reverse("builder:deck", args=[deck.pk])).content.decode()


def _stamp(html: str) -> dict[str, str]:
    return {
        "base": re.search(r'id="builder-base" name="base" value="(\d*)"', html).group(1),
        "rev": re.search(r'id="builder-rev" name="rev" value="(\d*)"', html).group(1),
    }


def _rows(html: str) -> list[dict]:
    """The deck rows' change values, in page order (section, card, placement)."""
    found = re.findall(
        r'<tr class="b-row[^"]*" data-card="[^"]*" id="([^"]+)" hx-vals="([^"]*)"', html
    )
    return [json.loads(htmllib.unescape(v)) | {"id": i} for i, v in found]


def _post(client, deck, stamp, **data):
    return client.post(reverse("builder:change", args=[deck.pk]), {**stamp, **data}, **HTMX)


@pytest.mark.parametrize(("game", "fmt"), _largest_sample_lists())
def test_a_count_change_is_answered_with_only_what_changed(
    signed_in, sample_catalogue, user, game, fmt
):
    text = packages.sample_list(game, fmt).text()
    deck = services.deck_create(owner=user, game_slug=game, format=fmt, name="Big", text=text)
    page = _page(signed_in, deck)
    rows = _rows(page)
    assert len(page) > 40_000  # the whole builder: what an answer no longer carries
    # The row the most copies sit in: "+", "−" and a count typed in.
    row = rows[0]
    stamp = _stamp(page)
    for data in (
        {"op": "add"},
        {"op": "remove"},
        {"op": "set", "count": "3"},
        {"op": "set", "count": "1"},
    ):
        change = {k: row[k] for k in ("section", "card", "placement") if k in row}
        answer = _post(signed_in, deck, stamp, **change, **data)
        body = answer.content.decode()
        assert answer.status_code == 200
        assert len(body.encode()) < LIMIT, (game, data, len(body))
        assert answer["HX-Reswap"] == "none"
        assert 'id="builder-state"' not in body
        # The row named, its section's count, the verdict and the legality bar.
        assert f'id="{row["id"]}" ' in body or f'id="{row["id"]}"' in body
        assert f'id="head-{row["section"]}" hx-swap-oob="true"' in body
        assert 'id="builder-panel"' in body and 'id="verdict"' in body
        assert 'id="legality-bar"' in body
        stamp = _stamp(body)
        expected = {"add": None, "remove": None}.get(data["op"], data.get("count"))
        if expected is not None:
            count = re.search(rf'id="{row["id"]}".*?class="b-count"[^>]*value="(\d+)"', body, re.S)
            assert count.group(1) == expected
    # What the answers drew is what the page draws when loaded again.
    reloaded = _page(signed_in, deck)
    assert re.search(rf'id="{row["id"]}".*?class="b-count"[^>]*value="1"', reloaded, re.S)


def test_the_setting_brings_back_the_whole_state(signed_in, sample_catalogue, user, settings):
    settings.BUILDER_FULL_ANSWERS = True
    text = packages.sample_list("redline", "standard").text()
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="D", text=text
    )
    page = _page(signed_in, deck)
    row = _rows(page)[0]
    answer = _post(
        signed_in, deck, _stamp(page), op="add", section=row["section"], card=row["card"]
    )
    body = answer.content.decode()
    assert 'id="builder-state"' in body and "HX-Reswap" not in answer
    assert body.count('class="b-row') == len(_rows(page))


def test_a_new_row_goes_in_its_place_and_a_row_gone_is_deleted(signed_in, sample_catalogue, user):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercat\n4 Longbow\n20 Supply Drop\n"
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="D", text=text
    )
    page = _page(signed_in, deck)
    # Rabbit is an efreet like Tigercat and Longbow: it joins their group, in cost order.
    answer = _post(signed_in, deck, _stamp(page), op="add", section="arsenal", card="Rabbit")
    body = answer.content.decode()
    rabbit = row_dom_id("arsenal", "Rabbit")
    where = re.search(
        rf'<template><tbody hx-swap-oob="(\w+):#(row-\w+)"><tr[^>]*id="{rabbit}"', body
    )
    assert where, body
    reloaded = _page(signed_in, deck)
    order = re.findall(r'<tr class="b-row[^"]*" data-card="[^"]*" id="(row-\w+)"', reloaded)
    i = order.index(rabbit)
    if where.group(1) == "afterend":
        assert order[i - 1] == where.group(2)
    else:
        assert where.group(1) == "beforebegin" and order[i + 1] == where.group(2)
    # Its last copy taken away, the row is deleted from the page.
    answer = _post(signed_in, deck, _stamp(body), op="remove", section="arsenal", card="Rabbit")
    deleted = f'<template><tr id="{rabbit}" hx-swap-oob="delete"></tr></template>'
    assert deleted in answer.content.decode()
    assert rabbit not in _page(signed_in, deck)


def test_rows_whose_only_change_is_a_rule_mark_come_as_one_list(signed_in, sample_catalogue, user):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercat\n4 Longbow\n20 Supply Drop\n"
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="D", text=text
    )
    page = _page(signed_in, deck)
    answer = _post(signed_in, deck, _stamp(page), op="add", section="arsenal", card="Tigercat")
    body = answer.content.decode()
    # A fifth Tigercat breaks the copies rule: its own row comes marked; Longbow's did not
    # change and is not sent.
    assert (
        f'class="b-row involved" data-card="Tigercat" id="{row_dom_id("arsenal", "Tigercat")}"'
        in body
    )
    assert 'data-card="Longbow"' not in body


def test_a_points_limit_passed_marks_every_row_in_one_short_list(signed_in, sample_catalogue, user):
    text = packages.sample_list("tactical-assault", "campaign").text()
    deck = services.deck_create(
        owner=user, game_slug="tactical-assault", format="campaign", name="D", text=text
    )
    page = _page(signed_in, deck)
    rows = _rows(page)
    assert 'class="b-row involved"' not in page
    first = rows[0]
    answer = _post(signed_in, deck, _stamp(page), op="add", section="force", card=first["card"])
    body = answer.content.decode()
    assert len(body.encode()) < LIMIT
    marks = re.search(r'<div id="row-marks" hidden hx-swap-oob="true" data-marks="([^"]+)"', body)
    marks = json.loads(htmllib.unescape(marks.group(1)))
    # Every other row is named with the rule it now breaks; none of them is sent whole.
    assert set(marks) == {r["id"] for r in rows[1:]}
    assert {m["codes"] for m in marks.values()} == {"force.points"}
    assert body.count('class="b-row') == 1
    reloaded = _page(signed_in, deck)
    assert reloaded.count('class="b-row involved"') == len(rows)


def test_a_quick_add_is_answered_with_only_what_changed(signed_in, sample_catalogue, user):
    text = packages.sample_list("redline", "standard").text()
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="D", text=text
    )
    page = _page(signed_in, deck)
    answer = signed_in.post(
        reverse("builder:quick", args=[deck.pk]), {**_stamp(page), "name": "tigercat"}, **HTMX
    )
    body = answer.content.decode()
    assert answer["HX-Reswap"] == "none" and len(body.encode()) < LIMIT
    assert "Added 1 Tigercat to Arsenal." in body
    row = re.search(rf'id="{row_dom_id("arsenal", "Tigercat")}".*?value="(\d+)"', body, re.S)
    assert row.group(1) == "5"


def test_a_first_card_of_a_kind_brings_its_section_whole(signed_in, sample_catalogue, user):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercat\n20 Supply Drop\n"
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="D", text=text
    )
    page = _page(signed_in, deck)
    answer = _post(signed_in, deck, _stamp(page), op="add", section="arsenal", card="Close Call")
    body = answer.content.decode()
    # The arsenal's kind groups change (a tactic joins): the section comes whole, headed
    # by its groups, in the order a reload draws.
    section = re.search(r'<div class="b-section" id="section-arsenal"[^>]*hx-swap-oob="true"', body)
    assert section and len(body.encode()) < LIMIT
    groups = re.findall(r'<tr class="b-group" data-kind="(\w+)"', body)
    reloaded = _page(signed_in, deck)
    arsenal = reloaded[reloaded.index('id="section-arsenal"') :]
    assert groups == re.findall(r'<tr class="b-group" data-kind="(\w+)"', arsenal)[: len(groups)]
    assert groups == ["efreet", "tactic", "resource"]
