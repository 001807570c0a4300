"""Section specs: a format's size, kind and placement rules are generated from them, and the
builder's questions (which section takes a card, what size it aims at) are answered by them."""

from __future__ import annotations

import pytest

from validation.placement import SquareGrid
from validation.registry import FormatDef, GameDef, registry
from validation.runner import validate
from validation.schema import KindSchema
from validation.sections import SectionSpec
from validation.types import CardFacts, Deck, Entry


def card(name: str, kind: str, faction: str = "") -> CardFacts:
    return CardFacts(name=name, kind=kind, faction=faction)


def entries(*pairs: tuple[CardFacts, int]) -> list[Entry]:
    return [Entry(c, n) for c, n in pairs]


HAND = SectionSpec(
    "hand",
    "Hand",
    kinds=("spell", "trick"),
    size=(3, 5),
    size_code="hand.size",
    noun=("spell or trick", "spells or tricks"),
)
ROSTER = SectionSpec(
    "roster",
    "Roster",
    kinds=("hero",),
    size=(2, None),
    size_code="roster.size",
    kind_code="roster.kind",
    noun=("hero", "heroes"),
    placement=(3, 2),
    placement_code="roster.deployment",
)
RELICS = SectionSpec("relics", "Relics", kinds=("relic",), size=(1, 1), size_code="relics.one")
SIDEBOARD = SectionSpec(
    "sideboard",
    "Sideboard",
    exclude=("hero",),
    size=(None, 2),
    size_code="sideboard.size",
    kind_code="sideboard.kind",
    optional=True,
)
FORMAT = FormatDef("open", "Open", "Every rule of a spec.", sections=(HAND, ROSTER, SIDEBOARD))
SPELL, TRICK = card("Spark", "spell"), card("Feint", "trick")
HERO, RELIC = card("Ana", "hero", "gold"), card("Crown", "relic")


def test_a_format_generates_the_rules_of_its_sections_in_order():
    assert FORMAT.codes() == (
        "hand.size",
        "roster.size",
        "roster.kind",
        "roster.deployment",
        "sideboard.size",
        "sideboard.kind",
    )
    assert FORMAT.required_sections == ("hand", "roster")
    assert FORMAT.optional_sections == ("sideboard",)
    assert FORMAT.main_section == "hand"  # the largest lower bound: 3 > 2


def test_a_size_band_names_the_band_and_the_count():
    (rule,) = HAND.rules()
    game = _game()
    deck = Deck(sections={"hand": entries((SPELL, 4), (TRICK, 2))})
    (v,) = rule.check(deck, _ctx(game))
    assert v.code == "hand.size"
    assert v.message == "6 spells or tricks in the hand; 3 to 5"


def test_without_a_kind_rule_the_size_rule_reports_strays_and_counts_only_its_kinds():
    (rule,) = HAND.rules()
    deck = Deck(sections={"hand": entries((SPELL, 3), (HERO, 1))})
    messages = [v.message for v in rule.check(deck, _ctx(_game()))]
    assert messages == ["Ana is a hero; in the hand only spell or trick cards count"]


def test_with_a_kind_rule_a_stray_is_reported_by_it_and_not_counted_by_the_size():
    deck = Deck(sections={"roster": entries((HERO, 1), (SPELL, 1))})
    game = _game()
    by_rule = {r.code: r.check(deck, _ctx(game)) for r in ROSTER.rules()}
    # two cards in the roster, one of them a stray: one hero, one short of the size
    assert [v.message for v in by_rule["roster.size"]] == ["1 hero in the roster; at least 2"]
    assert [v.cards for v in by_rule["roster.kind"]] == [("Spark",)]


def test_with_a_kind_rule_a_stray_beside_a_full_section_breaks_only_the_kind_rule():
    deck = Deck(sections={"roster": entries((HERO, 2), (SPELL, 1))})
    by_rule = {r.code: r.check(deck, _ctx(_game())) for r in ROSTER.rules()}
    assert by_rule["roster.size"] == []
    assert [v.cards for v in by_rule["roster.kind"]] == [("Spark",)]


def test_an_exact_size_of_one_of_one_kind_is_a_leader():
    (rule,) = RELICS.rules()
    (v,) = rule.check(Deck(), _ctx(_game()))
    assert v.message == "no relic in the relics; exactly 1"


def test_optional_sections_are_checked_only_when_present_and_empty_bands_are_refused():
    assert all(r.when_present == "sideboard" for r in SIDEBOARD.rules())
    with pytest.raises(ValueError, match="size band"):
        SectionSpec("x", "X", size=(3, 1))


def test_what_the_builder_reads():
    assert HAND.accepts(SPELL) and not HAND.accepts(HERO)
    assert SIDEBOARD.accepts(SPELL) and not SIDEBOARD.accepts(HERO)
    side = SectionSpec("gold", "Gold side", kinds=("hero",), faction="gold")
    assert side.accepts(HERO) and not side.accepts(card("Bo", "hero", "iron"))
    assert SIDEBOARD.kinds_of(("hero", "spell", "relic")) == ("spell", "relic")
    assert (HAND.target(), ROSTER.target(), SIDEBOARD.target(), RELICS.target()) == (
        "3–5",
        "≥ 2",
        "≤ 2",
        "1",
    )
    assert HAND.met(4) and not HAND.met(6)
    assert not SectionSpec("any", "Any").met(10)  # no band: nothing to meet


def test_a_game_collects_the_sections_of_its_formats_and_validates_with_them():
    game = _game()
    assert game.section_names == ("hand", "roster", "sideboard", "relics")
    assert game.section_labels["sideboard"] == "Sideboard"
    assert game.placement_sections == ("roster",)
    with registry.temporarily(game):
        report = validate(
            "spec-toy",
            "open",
            Deck(
                sections={
                    "hand": entries((SPELL, 3)),
                    "roster": [Entry(HERO, 1, (0, 0)), Entry(card("Bo", "hero"), 1, (5, 0))],
                }
            ),
        )
    assert [v.code for v in report.errors] == ["roster.deployment"]
    assert "outside the deployment area; columns 0–2, rows 0–1" in report.errors[0].message


def test_every_registered_format_names_its_sections_once_and_keeps_its_own_checks():
    for game in registry:
        for fmt in game.formats.values():
            generated = [(type(r), r.code) for spec in fmt.sections for r in spec.rules()]
            assert [(type(r), r.code) for r in fmt.rules[: len(generated)]] == generated
            assert fmt.rules[len(generated) :] == tuple(fmt.checks)
            with pytest.raises(ValueError, match="names a section twice"):
                FormatDef("twice", "Twice", "", sections=(fmt.sections[0], fmt.sections[0]))


def _game() -> GameDef:
    kinds = {k: KindSchema(k, k.capitalize(), ()) for k in ("spell", "trick", "hero", "relic")}
    relics = FormatDef("relics", "Relics", "", sections=(RELICS,))
    return GameDef(
        slug="spec-toy",
        name="Spec Toy",
        description="A test game.",
        factions={},
        kinds=kinds,
        formats={"open": FORMAT, "relics": relics},
        placement=SquareGrid(),
    )


def _ctx(game: GameDef):
    from validation.runner import context_for

    return context_for(game, "open", Deck())
