"""Property tests: no input makes the parser, the resolver or the runner raise, and the
order of card lines within a section never changes the verdict."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.validation import pools as p
from validation.decklist import parse, parse_sections, resolve
from validation.registry import registry
from validation.runner import validate

POOLS = {
    "redline": p.REDLINE_CARDS,
    "tactical-assault": p.TA_CARDS,
    "red-code": p.RC_CARDS,
    "red-mittens": p.RM_CARDS,
    "hex-skirmish": p.HS_CARDS,
}
GAMES = list(POOLS)


@st.composite
def game_and_format(draw):
    slug = draw(st.sampled_from(GAMES))
    return slug, draw(st.sampled_from(list(registry.get(slug).formats)))


def card_line(names: list[str]):
    count = st.one_of(st.integers(-3, 40).map(str), st.text(max_size=3))
    x = st.sampled_from(["", "x", "X", " x"])
    name = st.one_of(
        st.sampled_from(names),
        st.sampled_from(names).map(lambda n: n[: max(1, len(n) // 2)]),
        st.sampled_from(names).map(str.upper),
        st.text(max_size=20),
    )
    code = st.sampled_from(["", " (RL1)", " (", " ()"])
    hexes = st.one_of(
        st.just(""),
        st.tuples(st.integers(-2, 9), st.integers(-2, 9)).map(lambda t: f" @{t[0]},{t[1]}"),
        st.text(max_size=5).map(lambda s: " @" + s),
    )
    return st.tuples(count, x, name, code, hexes).map(lambda t: f"{t[0]}{t[1]} {t[2]}{t[3]}{t[4]}")


@st.composite
def deck_text(draw):
    slug, fmt = draw(game_and_format())
    game = registry.get(slug)
    names = [c.name for c in POOLS[slug].values()]
    headers = (
        [f"{s}:" for s in game.section_names]
        + [f"{s.upper().replace('_', ' ')}:" for s in game.section_names]
        + ["Sideboard:", ":"]
    )
    line = st.one_of(
        card_line(names),
        st.sampled_from(headers),
        st.sampled_from(["", "# comment", "// comment", "   "]),
        st.text(max_size=30),
    )
    lines = draw(st.lists(line, max_size=25))
    return slug, fmt, "\n".join(lines)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(deck_text())
def test_random_text_never_raises(case):
    slug, fmt, text = case
    game = registry.get(slug)
    result = parse(text, game)
    for line in result.lines:
        assert line.count >= 1 and line.section in game.section_names
    deck, errors = resolve(result.lines, POOLS[slug])
    report = validate(game, fmt, deck, cards=POOLS[slug])
    assert report.legal == (not report.errors)
    report.as_dict()


@settings(max_examples=200)
@given(
    st.sampled_from(GAMES),
    st.dictionaries(
        st.text(max_size=12),
        st.one_of(
            st.lists(
                st.dictionaries(
                    st.sampled_from(["card", "count", "hex", "set"]),
                    st.one_of(
                        st.none(),
                        st.integers(-5, 50),
                        st.text(max_size=10),
                        st.booleans(),
                        st.lists(st.integers(-3, 9), max_size=3),
                    ),
                ),
                max_size=5,
            ),
            st.text(max_size=5),
            st.integers(),
        ),
        max_size=4,
    ),
)
def test_random_json_never_raises(slug, data):
    game = registry.get(slug)
    result = parse_sections(data, game)
    deck, _errors = resolve(result.lines, POOLS[slug])
    for fmt in game.formats:
        validate(game, fmt, deck, cards=POOLS[slug])


@st.composite
def deck_sections(draw):
    """A random list of real card names per section, with counts and (sometimes) hexes."""
    slug, fmt = draw(game_and_format())
    game = registry.get(slug)
    names = [c.name for c in POOLS[slug].values()]
    sections = {}
    for section in draw(st.lists(st.sampled_from(game.section_names), unique=True, min_size=1)):
        lines = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(names),
                    st.integers(1, 30),
                    st.one_of(st.none(), st.tuples(st.integers(0, 8), st.integers(0, 8)))
                    if section in game.placement_sections
                    else st.none(),
                ),
                min_size=1,
                max_size=12,
            )
        )
        sections[section] = lines
    return slug, fmt, sections


def _text(sections) -> str:
    out = []
    for section, lines in sections.items():
        out.append(f"{section}:")
        for name, count, hex_ in lines:
            out.append(f"{count} {name}" + (f" @{hex_[0]},{hex_[1]}" if hex_ else ""))
    return "\n".join(out)


def _verdict(slug, fmt, text):
    deck, errors = resolve(parse(text, registry.get(slug)).lines, POOLS[slug])
    assert errors == []
    report = validate(slug, fmt, deck, cards=POOLS[slug])
    return report.legal, Counter(v.code for v in report.errors + report.warnings), report.totals


@settings(max_examples=300)
@given(deck_sections(), st.randoms(use_true_random=False))
def test_shuffling_lines_within_a_section_never_changes_the_verdict(case, rnd):
    slug, fmt, sections = case
    shuffled = {}
    for section, lines in sections.items():
        lines = list(lines)
        rnd.shuffle(lines)
        shuffled[section] = lines
    assert _verdict(slug, fmt, _text(sections)) == _verdict(slug, fmt, _text(shuffled))


@given(st.randoms(use_true_random=False))
def test_shuffling_a_legal_redline_list_keeps_it_legal(rnd):
    sections = p.redline_sections()
    for lines in sections.values():
        rnd.shuffle(lines)
    deck = p.build(p.REDLINE_CARDS, sections)
    assert validate("redline", "standard", deck).legal
