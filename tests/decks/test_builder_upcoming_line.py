"""Every line the builder shows is current after each change: the upcoming rule set's line
("From 1 Jan 2027: …, not legal then (n problems)") comes with every answer to a change, the
same as a reload of the builder shows, for a deck that follows its format."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks import services
from validation import packages

from .test_builder_answers import HTMX, _page, _rows, _stamp

pytestmark = pytest.mark.django_db


def upcoming_line(html: str) -> str:
    found = re.search(r'<p class="upcoming-effect[^"]*" id="upcoming-effect">(.*?)</p>', html)
    assert found, "no upcoming rule set line"
    return found.group(1)


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def test_the_upcoming_rule_set_line_follows_every_change(signed_in, sample_catalogue, user):
    text = packages.sample_list("redline", "standard").text()
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Moore", text=text
    )
    page = _page(signed_in, deck)
    before = upcoming_line(page)
    assert "Longbow cost 3 → 4" in before
    longbow = next(r for r in _rows(page) if r["card"] == "Longbow")
    data = {**_stamp(page), "op": "set", "count": "0", "section": longbow["section"]}
    data["card"] = "Longbow"
    answer = signed_in.post(reverse("builder:change", args=[deck.pk]), data, **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="rule-sets" hx-swap-oob="true"' in html
    shown = upcoming_line(html)
    assert "Longbow" not in shown
    assert shown == upcoming_line(_page(signed_in, deck))  # what a reload says
    # A whole-state answer (a quick add) carries it too.
    page = _page(signed_in, deck)
    answer = signed_in.post(
        reverse("builder:quick", args=[deck.pk]), {**_stamp(page), "name": "Longbow"}, **HTMX
    )
    html = answer.content.decode()
    assert "Longbow cost 3 → 4" in upcoming_line(html)
    assert upcoming_line(html) == upcoming_line(_page(signed_in, deck))


def test_placing_every_unit_of_an_army_puts_the_upcoming_line_right(
    signed_in, sample_catalogue, user
):
    """The case seen: every unit of a Hex Skirmish army placed, and the line still said
    "not legal then (4 problems)" while a reload said otherwise."""
    text = packages.sample_list("hex-skirmish", "standard").text()
    cells = dict(re.findall(r"^1 (.+?) @(\d,\d)$", text, re.M))
    assert len(cells) == 4
    unplaced = re.sub(r" @\d,\d$", "", text, flags=re.M)
    deck = services.deck_create(
        owner=user, game_slug="hex-skirmish", format="standard", name="Army", text=unplaced
    )
    page = _page(signed_in, deck)
    assert "not legal then (4 problems)" in upcoming_line(page)
    for card, cell in cells.items():
        data = {**_stamp(page), "op": "place", "section": "units", "card": card}
        data.update({"from": "", "to": cell})
        answer = signed_in.post(reverse("builder:change", args=[deck.pk]), data, **HTMX)
        assert answer.status_code == 200
        page = _page(signed_in, deck)
        assert upcoming_line(answer.content.decode()) == upcoming_line(page)
    assert "not legal then" not in upcoming_line(page)
