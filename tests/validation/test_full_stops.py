"""No message of the rules ends a sentence twice: every violation (errors and warnings,
located on their lines as the pages show them) of every game's sample lists made illegal in
every way this test can (each section emptied, one short, one over, a card of every kind
added to every section, copies piled up, units stacked on one cell or placed off the map,
every option given a value it does not offer, a section the format lacks, and under a rule
set each card banned, limited, out of the pool and re-costed) has no doubled full stop, and
neither has the sentence each rule is described by."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from validation import packages
from validation.decklist import locate, parse, read_lines
from validation.registry import registry
from validation.rulesets import DESCRIPTIONS
from validation.runner import validate
from validation.types import CardFacts, Deck, Entry, RuleSetFacts

#: Two full stops with nothing or only spaces between them ("limit.." or "limit. ."), and a
#: stop after a sentence that ended otherwise ("?." "!."); an ellipsis "..." is not one.
DOUBLED = re.compile(r"(?<!\.)\.\s*\.(?!\.)|[?!]\.")


def _pool(slug: str) -> dict[str, CardFacts]:
    """Every card of the game's sample expansions, as the catalogue hands them to the rules
    (attributes cleaned by the kind's schema)."""
    game = registry.get(slug)
    cards: dict[str, CardFacts] = {}
    for path in packages.sample_expansions(slug):
        for row in json.loads(path.read_text(encoding="utf-8"))["cards"]:
            cleaned, _errors = game.kind(row["kind"]).validate(row.get("attributes") or {})
            card = CardFacts(
                row["name"],
                row["kind"],
                row.get("faction", ""),
                row.get("cost", 0),
                row.get("text", ""),
                cleaned,
            )
            cards[card.name.lower()] = card
    return cards


def _with(deck: Deck, section: str, entries: list[Entry]) -> Deck:
    return Deck(sections={**deck.sections, section: entries}, options=dict(deck.options))


def _mutations(
    slug: str, fmt_slug: str, deck: Deck, pool
) -> Iterator[tuple[str, Deck, RuleSetFacts | None]]:
    """The sample deck made illegal in every way below, each with the rule set to check it
    under (None: the format's own rules)."""
    game = registry.get(slug)
    fmt = game.format(fmt_slug)
    by_kind: dict[str, list[CardFacts]] = {}
    for card in pool.values():
        by_kind.setdefault(card.kind, []).append(card)
    for spec in fmt.sections:
        entries = list(deck.sections.get(spec.name, ()))
        yield f"{spec.name} emptied", _with(deck, spec.name, []), None
        if entries:
            first = entries[0]
            short = [Entry(first.card, first.count - 1, first.placement), *entries[1:]]
            yield (
                f"{spec.name} one short",
                _with(deck, spec.name, [e for e in short if e.count]),
                None,
            )
            yield (
                f"{spec.name} one over",
                _with(
                    deck,
                    spec.name,
                    [Entry(first.card, first.count + 1, first.placement), *entries[1:]],
                ),
                None,
            )
            yield (
                f"{spec.name} piled up",
                _with(
                    deck, spec.name, [Entry(e.card, e.count * 9 + 9, e.placement) for e in entries]
                ),
                None,
            )
            placed = [e for e in entries if e.placement is not None]
            if len(placed) >= 2:
                stacked = [
                    Entry(e.card, e.count, placed[0].placement) if e.placement else e
                    for e in entries
                ]
                yield f"{spec.name} stacked", _with(deck, spec.name, stacked), None
                off = [Entry(e.card, e.count, (99, 99)) if e.placement else e for e in entries]
                yield f"{spec.name} off the map", _with(deck, spec.name, off), None
                unplaced = [Entry(e.card, e.count, None) for e in entries]
                yield f"{spec.name} unplaced", _with(deck, spec.name, unplaced), None
        for _kind, cards in sorted(by_kind.items()):
            for card in cards[:3]:
                added = _with(deck, spec.name, [*entries, Entry(card, 1)])
                yield f"{spec.name} + {card.name}", added, None
    yield (
        "a section the format lacks",
        _with(deck, "sideboard", [Entry(next(iter(pool.values())), 1)]),
        None,
    )
    for key in sorted(fmt.adjustable):
        for value in ("nope", 0, -5, 10_000):
            bad = Deck(sections=dict(deck.sections), options={**deck.options, key: value})
            yield f"option {key}={value!r}", bad, None
    names = sorted({e.card.name for entries in deck.sections.values() for e in entries})
    for name in names:
        low = name.lower()
        yield (
            f"{name} banned",
            deck,
            RuleSetFacts("S9", "Sample Season 9", banned=frozenset({low}), note="A sample note."),
        )
        yield f"{name} limited", deck, RuleSetFacts("S9", "Sample Season 9", limits={low: 0})
        yield (
            f"{name} out of the pool",
            deck,
            RuleSetFacts("S9", "", pool=frozenset(), expansions=("ZZ1",)),
        )
        yield f"{name} re-costed", deck, RuleSetFacts("S9", "Sample Season 9", costs={low: 99})


def _messages() -> Iterator[tuple[str, str]]:
    for sample in packages.all_sample_lists():
        game = registry.get(sample.game)
        pool = _pool(sample.game)
        parsed = parse(sample.text(), game)
        read = read_lines(parsed.lines, pool)
        base = read.deck
        base.options = {}
        for case, deck, rule_set in _mutations(sample.game, sample.format, base, pool):
            report = validate(game, sample.format, deck, cards=pool, rule_set=rule_set)
            for v in report.errors + report.warnings:
                where = f"{sample.game}/{sample.format}: {case}"
                yield where, v.message
                yield where, locate(v, read.where).message


MESSAGES = list(_messages())


def test_the_sample_decks_made_illegal_give_messages_of_every_rule():
    codes = set()
    for sample in packages.all_sample_lists():
        codes |= set(registry.get(sample.game).format(sample.format).codes())
    assert len(MESSAGES) > 2_000 and len(codes) > 20


def test_no_message_of_the_rules_has_a_doubled_full_stop():
    doubled = sorted({(where, m) for where, m in MESSAGES if DOUBLED.search(m)})
    assert doubled == [], doubled[:10]


def test_no_rule_is_described_with_a_doubled_full_stop_or_ends_with_one():
    """A rule's sentence is shown inside other sentences ("Why? … ."): it ends without its
    own stop."""
    sentences = [(code, text) for code, text in DESCRIPTIONS.items()]
    for game in registry.all():
        for fmt in game.formats.values():
            sentences += [(r.code, r.describe()) for r in fmt.rules]
    bad = [
        (code, text)
        for code, text in sentences
        if DOUBLED.search(text) or text.rstrip().endswith(".")
    ]
    assert bad == []
