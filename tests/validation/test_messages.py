"""Messages a player would write: every violation and line message that a broad set of bad
lists of every game produces reads as a sentence. No "an" before a consonant sound ("an
unit"), no doubled word ("combat card cards" has none, but "cards cards" would), no rule
code in the text (codes stay in the `code` field), a card's name at most once."""

from __future__ import annotations

import re

import pytest

from tests.validation import test_adversarial_lists as adversarial
from tests.validation import test_construction_rules as construction
from validation.decklist import locate, parse, read_lines
from validation.registry import registry
from validation.rules import a, kind_cards
from validation.runner import validate

_AN = re.compile(r"\ban ([A-Za-z]+)", re.IGNORECASE)
_A = re.compile(r"\ba ([A-Za-z]+)", re.IGNORECASE)
_DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
_CODE = re.compile(r"\b[a-z_]+\.[a-z_]+\b")
#: Words of the messages that start with a vowel letter but a consonant sound, and the reverse.
CONSONANT_SOUND = ("uni", "use", "usu", "one", "eu")
VOWEL_SOUND = ("hour", "honest", "heir")


def _messages_of_lists() -> list[tuple[str, str, tuple[str, ...]]]:
    """(case, message, the cards it names) for every case of the adversarial table, read
    as the site reads a list: line messages and violations naming their lines."""
    out = []
    for c in adversarial.CASES:
        game = registry.get(c.game)
        parsed = parse(c.list, game)
        read = read_lines(parsed.lines, adversarial.POOLS[c.game])
        read.deck.options = dict(c.options)
        report = validate(game, c.format, read.deck, cards=adversarial.POOLS[c.game])
        for e in read.unread:
            out.append((c.id, e.message, ()))
        for v in report.violations:
            out.append((c.id, locate(v, read.where).message, v.cards))
    return out


def _messages_of_rules() -> list[tuple[str, str, tuple[str, ...]]]:
    """(case, message, cards) for every case breaking one rule of every game."""
    out = []
    for code, why, case in construction.BREAKS:
        for v in construction.run(case).violations:
            out.append((f"{code}: {why}", v.message, v.cards))
    return out


MESSAGES = _messages_of_lists() + _messages_of_rules()


def test_the_bad_lists_give_many_messages_of_every_game():
    assert len(MESSAGES) > 100
    assert {m.split(":")[0].split("-")[0] for m, _, _ in MESSAGES} >= {"rl", "ta", "hs", "rm", "rc"}


@pytest.mark.parametrize(("case", "message", "cards"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_a_message_reads_as_a_sentence(case, message, cards):
    for word in _AN.findall(message):
        w = word.lower()
        assert w.startswith(VOWEL_SOUND) or (
            w[0] in "aeiou" and not w.startswith(CONSONANT_SOUND)
        ), f"'an {word}' in {message!r}"
    for word in _A.findall(message):
        w = word.lower()
        assert not w.startswith(VOWEL_SOUND) and (
            w[0] not in "aeiou" or w.startswith(CONSONANT_SOUND)
        ), f"'a {word}' in {message!r}"
    assert not _DOUBLED.search(message), message
    assert "card cards" not in message, message
    assert not _CODE.search(message), message
    for name in cards:
        # a name inside a longer card name ("Blue Destroyer" in "Blue Destroyer II") is not
        # a repeat
        alone = re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-]| [IVX]+\b)", message)
        assert len(alone) <= 1, f"{name} twice in {message!r}"


@pytest.mark.parametrize(
    ("noun", "said"),
    [
        ("unit", "a unit"),
        ("unit type", "a unit type"),
        ("item", "an item"),
        ("efreet", "an efreet"),
        ("order", "an order"),
        ("general", "a general"),
        ("hour", "an hour"),
        ("user", "a user"),
    ],
)
def test_the_article_follows_the_sound(noun, said):
    assert a(noun) == said


@pytest.mark.parametrize(
    ("kinds", "said"),
    [("combat card", "combat cards"), ("map card", "map cards"), ("efreet", "efreet cards")],
)
def test_cards_of_a_kind_are_never_card_cards(kinds, said):
    assert kind_cards(kinds) == said


def test_every_game_kind_label_takes_the_right_article():
    """The messages build "is a/an <kind>" from each game's kind labels."""
    for game in registry.all():
        for schema in game.kinds.values():
            label = schema.label.lower()
            said = a(label)
            assert not _AN.match(said) or not label.startswith(CONSONANT_SOUND), said
