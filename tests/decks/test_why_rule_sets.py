"""The "Why?" beside a rule set's ban, limit or card pool quotes the rule set (its code and
name, the date it took effect, its note, a link to it) instead of "No rulebook sentence is
recorded for this rule yet", on the check page, the deck page and the builder; a points
rule broken by costs a rule set changed quotes the rule set beside its rulebook sentence;
and no "Why?" ends a sentence twice."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from decks import services

from .conftest import sample_list

pytestmark = pytest.mark.django_db

#: Two full stops with nothing or only spaces between them, or a stop after "?" or "!".
DOUBLED = re.compile(r"(?<!\.)\.\s*\.(?!\.)|[?!]\.")

S2_NOTE = (
    "Sample data authored for Cardsite; not an official rule set. Orbital Drop returns, "
    "Hidden Ambush is banned, Kestrel and Bogatyr are limited, Longbow costs 4, and Smoke "
    "Screen gets an errata."
)


def _block(page: str, code: str) -> str:
    """The text of the first violation block of `code`, its tags left out."""
    found = re.search(
        rf'<div class="violation[^"]*" data-code="{re.escape(code)}"[^>]*>.*?</div>', page, re.S
    )
    assert found, f"no {code} violation on the page"
    return found.group(0)


def _text(block: str) -> str:
    """The words of a block as read: blocks apart, inline tags left out."""
    spaced = re.sub(r"</?(?:p|blockquote|summary|details|br|div)\b[^>]*>", " ", block)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", spaced)).split())


def _why_texts(page: str) -> list[str]:
    return [_text(b) for b in re.findall(r'<details class="why">.*?</details>', page, re.S)]


def test_a_bans_and_a_limits_why_quote_the_rule_set_on_the_check_page(client, sample_catalogue):
    text = sample_list("redline", "standard") + "Arsenal:\n3 Kestrel\n1 Hidden Ambush\n"
    page = client.post(
        "/check/", {"game_format": "redline/standard", "list": text, "rule_set": "S2"}
    ).content.decode()
    for code, rule in (
        ("format.banned", "A card the rule set bans may not be played at all."),
        ("format.limit", "At most the rule set's limit of copies of a limited card"),
    ):
        block = _block(page, code)
        said = _text(block)
        assert rule in said
        assert "Rule set S2 (Sample Season 2), in effect from 1 Jan 2027, which says:" in said
        assert f"“{S2_NOTE}”" in said
        assert 'href="/rules/redline/standard/rule-sets/#rule-set-S2"' in block
        assert "No rulebook sentence is recorded" not in said
    for why in _why_texts(page):
        assert not DOUBLED.search(why), why


def test_a_points_rule_broken_by_new_costs_quotes_the_rule_set_beside_its_sentence(
    client, sample_catalogue
):
    text = sample_list("hex-skirmish", "standard").replace("Cards:", "1 Heavy Cavalry @0,5\nCards:")
    page = client.post(
        "/check/", {"game_format": "hex-skirmish/standard", "list": text, "rule_set": "P2"}
    ).content.decode()
    print(
        "VERDICT",
        _text(re.search(r'<div class="panel" id="verdict">.*', page, re.S).group(0))[:1500],
    )
    block = _block(page, "army.points")
    said = _text(block)
    assert "; costs of P2 (Sample Points 2027): " in said
    for changed in ("Heavy Cavalry 10 → 11", "Lancers 8 → 9", "Longbowmen 7 → 8"):
        assert changed in said
    assert '<blockquote class="why-quote">“' in block  # the rulebook's sentence
    assert (
        "The costs it names are those of rule set P2 (Sample Points 2027), in effect from" in said
    )
    assert "Longbowmen and Lancers cost a point more, and Total War is banned." in said
    assert not DOUBLED.search(said), said


def test_the_deck_page_and_the_builder_quote_the_rule_set_a_deck_is_checked_under(
    client, sample_catalogue, user, django_assert_max_num_queries
):
    text = sample_list("redline", "standard").replace("4 Longbow", "4 Longbow\n1 Orbital Drop")
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Dropped", text=text
    )
    services.deck_pin(deck=deck, code="S1")
    client.force_login(user)
    for url in (reverse("decks:detail", args=[deck.pk]), reverse("builder:deck", args=[deck.pk])):
        page = client.get(url).content.decode()
        said = _text(_block(page, "format.banned"))
        assert "Rule set S1 (Sample Season 1), in effect from 1 Jan 2026, which says:" in said
        assert "Orbital Drop is banned and Bogatyr limited to 2 copies" in said
        for why in _why_texts(page):
            assert not DOUBLED.search(why), why


def test_no_why_of_any_sample_deck_made_illegal_ends_a_sentence_twice(client, sample_catalogue):
    """Each sample list with every count raised by 5 and, under each of its format's sample
    rule sets, 5 copies of every card a rule set names (banned, limited, re-costed) added."""
    import json

    from validation.packages import all_sample_lists, sample_rule_sets
    from validation.registry import registry

    for sample in all_sample_lists():
        text = re.sub(
            r"^(\d+)(x?) ",
            lambda m: f"{int(m.group(1)) + 5}{m.group(2)} ",
            sample.text(),
            flags=re.M,
        )
        documents = [
            rs
            for path in sample_rule_sets(sample.game)
            for rs in json.loads(path.read_text())
            if rs["format"] == sample.format
        ]
        main = registry.get(sample.game).format(sample.format).main_section
        named = "".join(f"5 {c['name']}\n" for rs in documents for c in rs["cards"])
        for rule_set in ("", *(rs["code"] for rs in documents)):
            listed = f"{text}\n{main}:\n{named}" if rule_set else text
            page = client.post(
                "/check/",
                {
                    "game_format": f"{sample.game}/{sample.format}",
                    "list": listed,
                    "rule_set": rule_set,
                    "points": 50 if sample.format == "custom" else "",
                },
            ).content.decode()
            whys = _why_texts(page)
            assert whys, (sample.game, sample.format, rule_set)
            for why in whys:
                assert not DOUBLED.search(why), (sample.game, sample.format, why)
            if rule_set:
                assert any(f"Rule set {rule_set} " in why for why in whys), (sample, rule_set)
