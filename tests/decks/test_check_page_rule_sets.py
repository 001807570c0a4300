"""The "Check a list" page chooses its rule set as the validate API does: the one in effect
today (the default), the one in effect on a date (`as_of`), or one of the format's by its code
(`rule_set`); the answer says which one was used and how it was chosen, on the page and in
its htmx partial; a bad choice is a form error naming it, never a 500."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from catalogue import rulesets
from catalogue.models import Card, Game, RuleSet, RuleSetCard
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

BAN_DAY = date(2027, 1, 1)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def sets(sample_catalogue, monkeypatch):
    """T1 in effect since June 2026; T2 bans Tigercat (a card of the sample list) from
    1 Jan 2027; "today" is 15 Dec 2026."""
    RuleSet.objects.filter(sample=True).delete()
    game = Game.objects.get(slug="redline")
    for code, effective in (("T1", date(2026, 6, 1)), ("T2", BAN_DAY)):
        RuleSet.objects.create(
            game=game,
            format="standard",
            code=code,
            name=f"Season {code}",
            announced=effective - timedelta(days=30),
            effective=effective,
        )
    RuleSetCard.objects.create(
        rule_set=RuleSet.objects.get(code="T2"),
        card=Card.objects.get(game=game, name="Tigercat"),
        banned=True,
    )
    monkeypatch.setattr(rulesets, "today", lambda: date(2026, 12, 15))
    assert "Tigercat" in sample_list("redline", "standard")


def _check(client, htmx=False, **fields):
    data = {"game_format": "redline/standard", "list": sample_list("redline", "standard")}
    data.update(fields)
    response = client.post(reverse("decks:check"), data, **(HTMX if htmx else {}))
    assert response.status_code == 200
    return response.content.decode()


def _used(page: str) -> str:
    start = page.index('<p class="muted rule-set-used">')
    return page[start : page.index("</p>", start)]


@pytest.mark.parametrize("htmx", [False, True])
def test_the_day_before_and_the_day_of_a_ban(client, sets, htmx):
    before = _check(client, htmx, as_of="2026-12-31")
    assert '<p class="verdict legal">Legal</p>' in before
    assert 'data-code="format.banned"' not in before
    assert "<strong>T1</strong> (Season T1)</a>, in effect on 31 Dec 2026" in _used(before)

    day_of = _check(client, htmx, as_of="2027-01-01")
    assert '<p class="verdict illegal">Not legal' in day_of
    assert 'data-code="format.banned"' in day_of and "Tigercat" in day_of
    assert "<strong>T2</strong> (Season T2)</a>, in effect on 1 Jan 2027" in _used(day_of)


@pytest.mark.parametrize("htmx", [False, True])
def test_today_by_default_and_a_rule_set_by_its_code(client, sets, htmx):
    today = _check(client, htmx)
    assert '<p class="verdict legal">Legal</p>' in today
    assert "<strong>T1</strong> (Season T1)</a>, in effect today" in _used(today)

    by_code = _check(client, htmx, rule_set=" T2 ")
    assert 'data-code="format.banned"' in by_code
    assert (
        "<strong>T2</strong> (Season T2)</a>, as asked by its code (in effect from 1 Jan 2027)"
        in (_used(by_code))
    )


def test_before_the_first_rule_set_the_format_s_own_rules(client, sets):
    page = _check(client, as_of="2020-01-01")
    assert '<p class="verdict legal">Legal</p>' in page
    assert "format's own rules (no rule set in effect on 1 Jan 2020)" in _used(page)


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    ("fields", "said"),
    [
        (
            {"rule_set": "NOPE"},
            "standard has no rule set &#x27;NOPE&#x27;; its rule sets: T1, T2",
        ),
        (
            {"rule_set": "T2", "as_of": "2027-01-01"},
            "give either a date or a rule set&#x27;s code, not both",
        ),
        ({"as_of": "next tuesday"}, "give a date as YYYY-MM-DD"),
        ({"as_of": "2026-02-30"}, "give a date as YYYY-MM-DD"),
        ({"rule_set": "x" * 41}, "at most 40 characters"),
    ],
)
def test_a_bad_choice_is_a_form_error_naming_it(client, sets, htmx, fields, said):
    page = _check(client, htmx, **fields)
    assert said in page
    assert 'class="verdict legal"' not in page and "rule-set-used" not in page
    if htmx:
        assert '<ul id="form-errors">' in page


def test_the_page_offers_the_choice(client, sets):
    page = client.get(reverse("decks:check")).content.decode()
    assert 'type="date" name="as_of"' in page and 'name="rule_set"' in page
