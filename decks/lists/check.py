"""Checking a list against the rules core: reading lines and JSON sections, resolving names
against the catalogue (with suggestions), and validating with the owner's options; and
checking a stored list (`saved.SavedList`) the same way (`version_check`). Nothing here
writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from catalogue import rulesets
from catalogue.models import RuleSet
from catalogue.services import (
    GamePool,
    card_facts_by_names,
    cards_near_names,
    expansion_card_names,
    games_holding_names,
)
from validation import decklist
from validation.registry import registry
from validation.runner import Report, validate
from validation.types import CardFacts, Deck, Entry, RuleSetFacts, Violation

from .checked import CheckedList
from .errors import DeckInvalid, ListInvalid
from .options import COLLECTION_OPTION, clean_collection_option, rules_options
from .saved import SavedList


def _line_errors(errors) -> list[dict[str, Any]]:
    return [
        {"line": e.line, "message": e.message, "suggestions": list(e.suggestions)} for e in errors
    ]


def _read(game_slug: str, parsed: decklist.ParseResult) -> decklist.Resolved:
    """Resolve parsed lines against the catalogue: the deck of the lines read and an error
    for each card line that was not (unknown names, expansion codes that are unknown or do
    not hold the card)."""
    # A card whose own name ends in brackets ("Bunker (Large)") is read as a name and a code.
    bracketed = [f"{line.name} ({line.set_code})" for line in parsed.lines if line.set_code]
    cards = card_facts_by_names(
        game_slug=game_slug, names=[line.name for line in parsed.lines] + bracketed
    )
    inexact = list(
        dict.fromkeys(
            line.name
            for line in parsed.lines
            if line.name.lower() not in cards
            and f"{line.name} ({line.set_code})".lower() not in cards
        )
    )
    # A name not found as written: its nearest cards by the name index (one more query,
    # SUGGESTION_CANDIDATES rows a name, never the whole game), for the first MAX_SUGGESTED
    # such names. The list reader matches spacing and punctuation among them (and only
    # that: a name that is the beginning of a card's is unknown), and the "did you mean"
    # suggestions are the closest of them.
    near = cards_near_names(game_slug=game_slug, names=inexact[: decklist.MAX_SUGGESTED])
    if near:
        cards = dict(cards)
        for found in near.values():
            for facts in found:
                cards.setdefault(facts.name.lower(), facts)
    # Expansion codes written after names are checked with two more queries (the game's
    # codes, the printings of the list's cards), only when a line names one.
    expansions = (
        expansion_card_names(
            game_slug=game_slug,
            names=[line.name for line in parsed.lines]
            + bracketed
            + [facts.name for found in near.values() for facts in found],
        )
        if any(line.set_code for line in parsed.lines)
        else None
    )
    return decklist.read_lines(
        parsed.lines,
        cards,
        expansions=expansions,
        game_name=registry.get(game_slug).name,
        suggest=lambda names: {
            name: decklist.closest_names(name, [c.name for c in near.get(name, ())])
            for name in names
        },
    )


def _resolve(game_slug: str, parsed: decklist.ParseResult) -> tuple[Deck, list[Any]]:
    """`_read`, raising ListInvalid with every error (parse errors and the lines not read
    together, by line)."""
    read = _read(game_slug, parsed)
    errors = sorted([*parsed.errors, *read.unread], key=lambda e: e.line)
    if errors:
        raise ListInvalid(_line_errors(errors))
    return read.deck, parsed.lines


def _parse(
    game_slug: str, text: str | None, sections: Mapping[str, Any] | None
) -> decklist.ParseResult:
    game = registry.get(game_slug)
    if text is not None:
        return decklist.parse(text, game)
    return decklist.parse_sections(sections or {}, game)


def deck_from_list(
    *,
    game_slug: str,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[Deck, list[Any]]:
    """Read a list (text or sections) into a Deck of catalogue facts.

    One query fetches every named card; a second, only when a name is not exact, fetches
    the nearest cards of the first unknown names from the name index (matched for spacing
    and punctuation, and the suggestions). Raises ListInvalid with every line error.
    """
    deck, lines = _resolve(game_slug, _parse(game_slug, text, sections))
    deck.options = dict(options or {})
    return deck, lines


def list_recognise(*, text: str, game_slug: str = "") -> decklist.Recognised:
    """Which game and formats a list is of, read from its section headers and card names
    (validation.decklist.recognise): the card names are looked up in every game's catalogue
    in one query (none when the list names no card). With `game_slug` (the list's # Game:
    line) only the formats are read from its sections."""
    listed = decklist.outline(text)
    if game_slug:
        game = registry.get(game_slug)
        return decklist.Recognised(game=game, formats=decklist.fitting_formats(listed, game))
    return decklist.recognise(listed, registry.all(), games_holding_names(listed.names))


#: `list_check(rule_set=IN_FORCE)`: check under the format's rule set in effect today.
IN_FORCE: Any = object()


def deck_rule_set(*, deck, names: Iterable[str] | None = None) -> RuleSetFacts | None:
    """The rule set a saved deck is checked under: its pin, or (a deck that follows its
    format, or whose pinned rule set was deleted) the one in effect today; None for the bare
    format. `names` (the deck's cards) bounds what is read of it (catalogue.rulesets.facts)."""
    return pinned_rule_set(
        game_slug=deck.game.slug, format=deck.format, pin=deck.rule_set_pin_id, names=names
    )


def pinned_rule_set(
    *, game_slug: str, format: str, pin: int | None, names: Iterable[str] | None = None
) -> RuleSetFacts | None:
    """The rule set of the id `pin`, or (None, or a rule set since deleted) the format's
    one in effect today; None for the bare format (`deck_rule_set`)."""
    if pin is not None:
        pinned = RuleSet.objects.filter(pk=pin).first()
        if pinned is not None:
            return rulesets.facts(pinned, names)
    return rulesets.facts_in_force(game_slug, format, names=names)


def chosen_rule_set(
    *, game_slug: str, format: str, code: str | None = None, as_of=None
) -> Callable[[Deck], RuleSetFacts | None]:
    """The rule set a check asks for, as `list_check(rule_set=…)` takes it: the one of
    `code`, the one in effect on `as_of` (a date), or (neither) the one in effect today.
    DeckInvalid naming the known codes when `code` is not one of the format's."""
    if code:
        found = rulesets.by_code(game_slug, format, code)
        if found is None:
            known = [rs.code for rs in rulesets.history(game_slug, format)]
            raise DeckInvalid(
                {
                    "rule_set": [
                        f"{format} has no rule set {code!r}; "
                        + (f"its rule sets: {', '.join(known)}" if known else "it has none")
                    ]
                }
            )
    else:
        found = rulesets.in_force(game_slug, format, as_of)
    return lambda read: rulesets.facts(found, deck_card_names(read)) if found else None


def deck_card_names(deck: Deck) -> list[str]:
    """The names of the cards of a rules-core deck."""
    return list({e.card.name for entries in deck.sections.values() for e in entries})


def list_check(
    *,
    game_slug: str,
    format: str,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    owner=None,
    report_unknown: bool = False,
    rule_set: RuleSetFacts | Callable[[Deck], RuleSetFacts | None] | None = IN_FORCE,
) -> CheckedList:
    """Read and validate a list: every violation, every warning and the totals. `owner` is
    whose collection `options={"collection": true}` means (DeckInvalid without one).
    `rule_set` is the rule set to check it under: by default the format's rule set in effect
    today (`IN_FORCE`); None checks the bare format; a function of the deck read answers it
    (a saved deck's own rule set, read for the deck's cards only).

    A list that does not parse raises ListInvalid with every line error. Card lines whose
    card is unknown do not stop the check: the lines read are validated all the same. With
    `report_unknown` (a check: the validate API, the check page) the answer holds both, and
    is not legal; otherwise (a save) ListInvalid is raised, carrying the check too."""
    options = clean_collection_option(options, owner=owner)
    parsed = _parse(game_slug, text, sections)
    read = _read(game_slug, parsed)
    if parsed.errors:
        errors = sorted([*parsed.errors, *read.unread], key=lambda e: e.line)
        raise ListInvalid(_line_errors(errors), unread=read.unread)
    deck = read.deck
    stored = dict(options or {})
    deck.options = rules_options(stored, owner=owner, game_slug=game_slug, deck=deck)
    # The game's whole pool is loaded only if a rule asks for it (a map dealt from its cards).
    if rule_set is IN_FORCE:
        rule_set = rulesets.facts_in_force(game_slug, format, names=deck_card_names(deck))
    elif callable(rule_set):
        rule_set = rule_set(deck)
    report = validate(
        game_slug, format, deck, cards=GamePool(game_slug=game_slug), rule_set=rule_set
    )
    deck.options = stored
    checked = CheckedList(
        deck=deck, report=report, lines=parsed.lines, unread=read.unread, where=read.where
    )
    if read.unread and not report_unknown:
        raise ListInvalid(_line_errors(read.unread), checked, read.unread)
    return checked


def _unreadable_report(errors: list[Violation], rule_set: RuleSetFacts | None) -> Report:
    """The verdict on a list the rules core cannot read: not legal, with why."""
    return Report(legal=False, errors=errors, rule_set=rule_set.code if rule_set else None)


def version_check(
    saved: SavedList,
    *,
    pool: Mapping[str, CardFacts] | None = None,
    rule_set: RuleSetFacts | None = IN_FORCE,
) -> Report:
    """Validate a stored list (a saved deck's version, a decklist, a re-check's row: a
    `SavedList`) against today's catalogue; its report. A card that has left the catalogue
    makes the list illegal (code `deck.card`). `rule_set` is the rule set to check it under;
    by default the list's own (its pin, or the one in effect today)."""
    slug = saved.game.slug
    if rule_set is IN_FORCE:
        rule_set = pinned_rule_set(
            game_slug=slug, format=saved.format, pin=saved.pin, names=saved.card_names
        )
    if pool is None:
        pool = card_facts_by_names(game_slug=slug, names=saved.card_names)
    sections: dict[str, list[Entry]] = {}
    missing: list[Violation] = []
    for e in saved.entries:
        facts = pool.get(e.card.lower())
        if facts is None:
            missing.append(
                Violation(
                    "deck.card",
                    f"{e.card} is no longer in the {saved.game.name} catalogue",
                    section=e.section,
                    cards=(e.card,),
                )
            )
            continue
        sections.setdefault(e.section, []).append(Entry(facts, e.count, e.placement))
    if missing:
        return _unreadable_report(missing, rule_set)
    rules_deck = Deck(sections=sections)
    options = dict(saved.options)
    owner = saved.collection_owner() if options.get(COLLECTION_OPTION) is True else None
    rules_deck.options = rules_options(options, owner=owner, game_slug=slug, deck=rules_deck)
    try:
        report = validate(
            slug,
            saved.format,
            rules_deck,
            cards=pool if isinstance(pool, GamePool) else GamePool(game_slug=slug),
            rule_set=rule_set,
        )
    except (KeyError, ValueError) as exc:  # game or format gone from the rules core
        return _unreadable_report([Violation("deck.card", str(exc))], rule_set)
    return report
