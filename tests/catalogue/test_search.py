"""The card search language: tokenizer and parser, every key family against the sample
catalogue (on SQLite and PostgreSQL), problems for bad terms, the API, and generated queries
that must never raise."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.models import Card
from catalogue.search import (
    MAX_TERMS,
    And,
    Not,
    Or,
    Term,
    Word,
    parse,
    query_error,
    search_cards,
    tokenize,
)
from validation.registry import registry

# --------------------------------------------------------------------------------------------
# helpers


def run(query: str, game: str | None = "redline"):
    qs = Card.objects.all() if game is None else Card.objects.filter(game__slug=game)
    return search_cards(query=query, queryset=qs, game_slug=game)


def names(query: str, game: str | None = "redline") -> set[str]:
    return set(run(query, game).queryset.values_list("name", flat=True))


def expected(game: str, predicate) -> set[str]:
    return {c.name for c in Card.objects.filter(game__slug=game) if predicate(c)}


def attr(card, key, default=None):
    return card.attributes.get(key, default)


def words(node) -> str:
    """A compact rendering of an AST, for parser assertions."""
    if isinstance(node, Word):
        return f'"{node.text}"' if node.phrase else node.text
    if isinstance(node, Term):
        return f"{node.key}{node.op}{node.value}"
    if isinstance(node, Not):
        return f"-{words(node.child)}"
    if isinstance(node, And):
        return "[" + " & ".join(words(c) for c in node.children) + "]"
    if isinstance(node, Or):
        return "{" + " | ".join(words(c) for c in node.children) + "}"
    return repr(node)


# --------------------------------------------------------------------------------------------
# tokenizer and parser (no database)


@pytest.mark.parametrize(
    ("query", "tree"),
    [
        ("a b", "[a & b]"),
        ("a b or c", "{[a & b] | c}"),
        ("a or b c", "{a | [b & c]}"),
        ("a (b or c)", "[a & {b | c}]"),
        ("(a or b) (c or d)", "[{a | b} & {c | d}]"),
        ("a OR b Or c", "{a | b | c}"),
        ("a and b", "[a & b]"),
        ("-a b", "[-a & b]"),
        ("-(a or b) c", "[-{a | b} & c]"),
        ("not a", "-a"),
        ("--a", "a"),
        ("---a", "-a"),
        ('"supply drop" x', '["supply drop" & x]'),
        ('name:"supply drop"', "name:supply drop"),
        (
            "speed>=6 cost<3 kind:efreet faction!=cpm x=y",
            "[speed>=6 & cost<3 & kind:efreet & faction!=cpm & x=y]",
        ),
        ("-kind:efreet", "-kind:efreet"),
        ("x-wing", "x-wing"),
        ("cost>=-1", "cost>=-1"),
        ("((a))", "a"),
    ],
)
def test_parser_precedence_quotes_negation_parens(query, tree):
    node, problems = parse(query)
    assert words(node) == tree
    assert problems == []


def test_tokens_keep_the_operator_and_quotedness():
    tokens, problems = tokenize('speed>=6 name:"a b" (x)')
    assert [(t.type, t.key, t.op, t.value, t.quoted) for t in tokens] == [
        ("term", "speed", ">=", "6", False),
        ("term", "name", ":", "a b", True),
        ("(", "", "", "", False),
        ("word", "", "", "x", False),
        (")", "", "", "", False),
    ]
    assert problems == []


@pytest.mark.parametrize(
    ("query", "tree", "problem"),
    [
        ("(a or b", "{a | b}", "missing ')'"),
        ("a) b", "[a & b]", "unbalanced ')'"),
        ('"abc', '"abc"', "unbalanced quote"),
        ('name:"abc', "name:abc", "unbalanced quote"),
        ("or a", "a", "'or' with nothing before it"),
        ("a or", "a", "'or' with nothing after it"),
        ("a - b", "[a & b]", "'-' with nothing after it"),
        ("a -", "a", "'-' with nothing after it"),
        ("a () b", "[a & b]", "empty parentheses"),
        ('a "" b', "[a & b]", "empty quotes"),
        (">=3 a", "a", "an operator needs a key"),
        ("a not", "a", "nothing after it"),
    ],
)
def test_parser_recovers_and_reports(query, tree, problem):
    node, problems = parse(query)
    assert words(node) == tree
    assert any(problem in p for p in problems), problems


def test_parser_limits_depth_length_and_terms():
    node, problems = parse("(" * 500 + "a" + ")" * 500)
    assert any("nested deeper" in p for p in problems)
    node, problems = parse("a " * 2000)
    assert any("too long" in p for p in problems)
    node, problems = parse(" ".join(f"w{i}" for i in range(100)))
    assert isinstance(node, And) and len(node.children) == MAX_TERMS
    assert any("too many terms" in p for p in problems)


@given(st.text(max_size=300))
@settings(max_examples=500, deadline=None)
def test_parse_never_raises_on_random_text(text):
    parse(text)


# --------------------------------------------------------------------------------------------
# read_as and problems


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "read_as"),
    [
        ("kind:efreet speed>=6 -faction:cpm", "kind:efreet AND speed>=6 AND NOT faction:cpm"),
        ("o:salvo", "text:salvo"),
        ("KIND:Efreet speed:6", "kind:efreet AND speed=6"),
        ("kind:efreet (speed>=6 or armor>=5)", "kind:efreet AND (speed>=6 OR armor>=5)"),
        ("alpha or beta gamma", "alpha OR beta AND gamma"),
        ("-(alpha or beta)", "NOT (alpha OR beta)"),
        ('"supply drop" heroic:yes', '"supply drop" AND heroic:true'),
        ("heroic!=true", "heroic:false"),
        ("efreet_class>=MEDIUM", "efreet_class>=medium"),
        ('name:"supply drop"', 'name:"supply drop"'),
        ("set:RL1", "set:RL1"),
        ("", ""),
    ],
)
def test_read_as(query, read_as):
    assert run(query).read_as == read_as


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "game", "problem"),
    [
        ("sped>=6", "redline", "unknown key 'sped' — did you mean speed?"),
        ("speed>=fast", "redline", "speed>=fast: expected a number"),
        ("cost<=x", "redline", "cost<=x: expected a number"),
        ("speed>=99999999999999999999", "redline", "out of range"),
        ("kind:efreat", "redline", "did you mean efreet?"),
        ("faction:unx", "redline", "did you mean une?"),
        ("faction:blue", "tactical-assault", "has no factions"),
        ("heroic:maybe", "redline", "expected true/false"),
        ("heroic>true", "redline", "heroic takes : = or !="),
        ("name>tiger", "redline", "name takes : = or !="),
        ("slots:lazer", "redline", "did you mean laser?"),
        ("firepower:huge", "tactical-assault", "not one of none, very_light"),
        ("health>=3", "redline", "'health' is not a key of REDLINE"),
        ("speed>=", "redline", "missing a value"),
        ("edges:x", "hex-skirmish", "expected a number"),
        ("game:nope", None, "no such game"),
        ("zzz:1", None, "unknown key 'zzz'"),
    ],
)
def test_problems_name_the_term_and_why(query, game, problem):
    result = run(query, game)
    assert any(problem in p for p in result.problems), result.problems
    assert result.read_as == ""  # the bad term was dropped


@pytest.mark.django_db
def test_a_dropped_term_leaves_the_rest(sample_catalogue):
    result = run("kind:efreet sped>=6 faction:une")
    assert result.read_as == "kind:efreet AND faction:une"
    assert len(result.problems) == 1
    assert names("kind:efreet sped>=6 faction:une") == names("kind:efreet faction:une")


@pytest.mark.django_db
def test_unknown_game_slug_accepts_every_key(sample_catalogue):
    result = search_cards(query="speed>=7", queryset=Card.objects.all(), game_slug="nope")
    assert any("no game 'nope'" in p for p in result.problems)
    assert "Rabbit" in {c.name for c in result.queryset}


# --------------------------------------------------------------------------------------------
# every key family, on the sample data (runs on the configured database: SQLite or PostgreSQL)


@pytest.mark.django_db
def test_the_documented_example(sample_catalogue):
    got = names("kind:efreet speed>=6 faction:une")
    assert "Tigercat" in got
    assert got == expected(
        "redline",
        lambda c: c.kind == "efreet" and c.faction == "une" and attr(c, "speed", 0) >= 6,
    )


@pytest.mark.django_db
def test_common_keys(sample_catalogue):
    salvo = expected("redline", lambda c: "salvo" in c.text.lower())
    assert len(salvo) == 8
    assert names("o:salvo") == salvo == names("text:SALVO") == names("oracle:salvo")
    assert names("name:tiger") == {"Tigercat"}
    assert names("name:tigercat") == {"Tigercat"}
    assert names("name=tigercat") == {"Tigercat"}
    assert names("name=tiger") == set()
    assert "Tigercat" not in names("name!=tigercat")
    assert names("set:RL1") == expected("redline", lambda c: True)
    assert names("set:rl1") == names("set:RL1")
    assert names("set:XX9") == set()
    assert names("-set:RL1") == set()
    assert names("cost<=1") == expected("redline", lambda c: c.cost <= 1)
    assert names("cost>5") == expected("redline", lambda c: c.cost > 5)
    assert names("cost:3") == expected("redline", lambda c: c.cost == 3)
    assert names("cost!=3") == expected("redline", lambda c: c.cost != 3)
    assert names("kind:mission") == expected("redline", lambda c: c.kind == "mission")
    assert names("faction:cpm") == expected("redline", lambda c: c.faction == "cpm")
    assert names("-faction:cpm kind:efreet") == expected(
        "redline", lambda c: c.faction != "cpm" and c.kind == "efreet"
    )
    assert names("game:redline", None) == expected("redline", lambda c: True)


REDLINE_CASES = [
    ("speed>=7", lambda c: attr(c, "speed", -1) >= 7),
    ("speed>7", lambda c: attr(c, "speed", -1) > 7),
    ("speed<4", lambda c: c.kind == "efreet" and attr(c, "speed") < 4),
    ("speed<=4", lambda c: c.kind == "efreet" and attr(c, "speed") <= 4),
    ("speed:6", lambda c: attr(c, "speed") == 6),
    ("speed=6", lambda c: attr(c, "speed") == 6),
    ("speed!=6", lambda c: c.kind == "efreet" and attr(c, "speed") != 6),
    ("-speed:6", lambda c: attr(c, "speed") != 6),
    ("armor>=9", lambda c: attr(c, "armor", -1) >= 9),
    ("capture_cost>=3", lambda c: attr(c, "capture_cost", -1) >= 3),
    ("heroic:true", lambda c: attr(c, "heroic") is True),
    ("heroic:yes", lambda c: attr(c, "heroic") is True),
    ("heroic:no", lambda c: attr(c, "heroic") is False),
    ("-heroic:true", lambda c: attr(c, "heroic") is not True),
    ("heroic!=true", lambda c: attr(c, "heroic") is False),
    ("efreet_class:heavy", lambda c: attr(c, "efreet_class") == "heavy"),
    ("efreet_class:HEAVY", lambda c: attr(c, "efreet_class") == "heavy"),
    ("efreet_class!=heavy", lambda c: attr(c, "efreet_class") in ("light", "medium")),
    ("efreet_class>=medium", lambda c: attr(c, "efreet_class") in ("medium", "heavy")),
    ("efreet_class<medium", lambda c: attr(c, "efreet_class") == "light"),
    ("slots:laser", lambda c: "laser" in attr(c, "slots", [])),
    ("slots:open", lambda c: "open" in attr(c, "slots", [])),
    (
        "-slots:laser kind:efreet",
        lambda c: c.kind == "efreet" and "laser" not in c.attributes["slots"],
    ),
    ("keywords:salvo", lambda c: "salvo" in [k.lower() for k in attr(c, "keywords", [])]),
    ("keywords:Salvo", lambda c: "salvo" in [k.lower() for k in attr(c, "keywords", [])]),
    ('keywords:"ambush 2"', lambda c: "Ambush 2" in attr(c, "keywords", [])),
    ("keywords=boost", lambda c: "Boost" in attr(c, "keywords", [])),
    ('abilities:"prepared ground"', lambda c: "Prepared Ground" in attr(c, "abilities", [])),
    ("scorched_earth:true", lambda c: attr(c, "scorched_earth") is True),
    ("control_bonus:recon", lambda c: "recon" in attr(c, "control_bonus", {})),
    ("basic:true", lambda c: attr(c, "basic") is True),
    ("provides>=1", lambda c: attr(c, "provides", -1) >= 1),
    ("equipment_type:missile", lambda c: attr(c, "equipment_type") == "missile"),
    ("permanent:true", lambda c: attr(c, "permanent") is True),
    (
        "kind:efreet (speed>=7 or armor>=9) -faction:cpm",
        lambda c: (
            c.kind == "efreet"
            and (attr(c, "speed") >= 7 or attr(c, "armor") >= 9)
            and c.faction != "cpm"
        ),
    ),
    (
        "keywords:salvo or keywords:scouting",
        lambda c: {"salvo", "scouting"} & {k.lower() for k in attr(c, "keywords", [])},
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("query", "predicate"), REDLINE_CASES, ids=[q for q, _ in REDLINE_CASES])
def test_redline_attribute_keys(sample_catalogue, query, predicate):
    want = expected("redline", predicate)
    result = run(query)
    assert result.problems == []
    assert set(result.queryset.values_list("name", flat=True)) == want
    assert want, f"{query} should match something in the sample data"


OTHER_GAMES = [
    ("tactical-assault", "firepower:very_heavy", lambda c: attr(c, "firepower") == "very_heavy"),
    ("tactical-assault", 'firepower:"very heavy"', lambda c: attr(c, "firepower") == "very_heavy"),
    (
        "tactical-assault",
        "firepower>=heavy",
        lambda c: attr(c, "firepower") in ("heavy", "very_heavy"),
    ),
    ("tactical-assault", "off_battlefield:true", lambda c: attr(c, "off_battlefield") is True),
    ("tactical-assault", "number<=10", lambda c: attr(c, "number", 99) <= 10),
    (
        "tactical-assault",
        "combat_result:eliminated",
        lambda c: attr(c, "combat_result") == "eliminated",
    ),
    (
        "tactical-assault",
        "drift_direction:dead_on",
        lambda c: attr(c, "drift_direction") == "dead_on",
    ),
    ("tactical-assault", "kind:unit_type cost>=4", lambda c: c.kind == "unit_type" and c.cost >= 4),
    ("red-code", "ship_class:submarine", lambda c: attr(c, "ship_class") == "submarine"),
    ("red-code", "faction:blue kind:ship", lambda c: c.faction == "blue" and c.kind == "ship"),
    ("red-code", "boxes:island", lambda c: "island" in attr(c, "boxes", [])),
    ("red-code", "start:true", lambda c: attr(c, "start") is True),
    ("red-code", "distance>=2", lambda c: attr(c, "distance", -1) >= 2),
    ("red-code", "respondable:false", lambda c: attr(c, "respondable") is False),
    ("red-mittens", "atk>=3", lambda c: attr(c, "atk", -1) >= 3),
    ("red-mittens", "def<2", lambda c: c.kind == "unit" and attr(c, "def") < 2),
    # A NOT keeps the cards without the key; != needs the key.
    ("red-mittens", "-atk>=3", lambda c: not attr(c, "atk", -1) >= 3),
    ("red-mittens", "atk!=3", lambda c: "atk" in c.attributes and attr(c, "atk") != 3),
    ("red-mittens", "time:night", lambda c: attr(c, "time") == "night"),
    ("red-mittens", "priority:yes", lambda c: attr(c, "priority") is True),
    ("hex-skirmish", "unit_class:ranged", lambda c: attr(c, "unit_class") == "ranged"),
    ("hex-skirmish", "range>=3", lambda c: attr(c, "range", -1) >= 3),
    ("hex-skirmish", "edges:4", lambda c: 4 in attr(c, "edges", [])),
    (
        "hex-skirmish",
        "movement>2 health<=5",
        lambda c: attr(c, "movement", -1) > 2 and attr(c, "health", 99) <= 5,
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "query", "predicate"), OTHER_GAMES, ids=[q for _, q, _ in OTHER_GAMES]
)
def test_other_games_attribute_keys(sample_catalogue, game, query, predicate):
    want = expected(game, predicate)
    result = run(query, game)
    assert result.problems == []
    assert set(result.queryset.values_list("name", flat=True)) == want
    assert want, f"{query} should match something in the sample data"


@pytest.mark.django_db
def test_text_valued_attributes(sample_catalogue):
    # Strings contain (any case), = is exact; dict lists match their text.
    for game, key in (
        ("red-mittens", "unit_type"),
        ("red-mittens", "realm"),
        ("red-code", "manoeuvres"),
    ):
        sample = next(
            (c for c in Card.objects.filter(game__slug=game) if c.attributes.get(key)), None
        )
        assert sample is not None, key
        value = sample.attributes[key]
        probe = value if isinstance(value, str) else value[0]["name"]
        word = probe.split()[0].lower()
        got = names(f'{key}:"{word}"', game)
        assert sample.name in got
        assert got == expected(
            game,
            lambda c, k=key, w=word: (
                w in str(c.attributes.get(k, "")).lower()
                if isinstance(c.attributes.get(k), str)
                else w in json.dumps(c.attributes.get(k, "")).lower()
            ),
        )
        if isinstance(value, str):
            assert sample.name in names(f'{key}="{value.upper()}"', game)


@pytest.mark.django_db
def test_without_a_game_keys_of_every_game_are_accepted(sample_catalogue):
    result = run("speed>=7", None)
    assert result.problems == []
    assert {c.game.slug for c in result.queryset.select_related("game")} == {"redline"}
    result = run("armor>=1 kind:unit", None)
    assert result.problems == []
    got = {(c.game.slug, c.name) for c in result.queryset.select_related("game")}
    assert got and {g for g, _ in got} == {"hex-skirmish"}
    assert names("kind:unit", None) >= expected("red-mittens", lambda c: c.kind == "unit")


@pytest.mark.django_db
def test_bare_words_and_phrases(sample_catalogue):
    assert "Tigercat" in names("tiger")
    assert "Tigercat" in names("TIGERCAT")
    assert "Supply Drop" in names('"supply drop"')
    got = names("salvo")
    assert expected("redline", lambda c: "salvo" in c.text.lower()) <= got
    assert "Tigercat" not in names("-tigercat")
    assert "Tigercat" in names("tigercat kind:efreet")
    assert names("tigercat kind:mission") & {"Tigercat"} == set()


@pytest.mark.django_db
def test_text_and_phrases_match_any_case_and_take_wildcards_literally(sample_catalogue):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    Card.objects.filter(pk=card.pk).update(text="Deal 50% more DAMAGE_NOW to Hover units.")
    assert "Tigercat" in names("o:damage_now")
    assert "Tigercat" in names("o:50%")
    assert "Tigercat" in names('o:"50% MORE damage"')
    assert "Tigercat" not in names("o:5_%")  # `_` and `%` are letters here, not wildcards
    assert "Tigercat" not in names("o:damage-now")
    assert "Tigercat" in names('"more damage_now to hover"')
    # A phrase reads the same on its own, in an OR and under a NOT.
    alone = names('"SUPPLY drop"')
    assert "Supply Drop" in alone
    assert names('"supply drop" or nosuchwordxyz') == alone
    everything = names("")
    assert names('-"supply drop"') == everything - alone


@pytest.mark.django_db
def test_a_phrase_is_found_in_the_name_or_in_the_text_not_across_them(sample_catalogue):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    Card.objects.filter(pk=card.pk).update(text="Pounce on a wounded Hover unit.")
    assert "Tigercat" in names('"wounded hover"')  # in the text
    assert "Tigercat" in names('"TIGERCAT"')  # in the name
    # "Tigercat" ends the name and "Pounce" opens the text: not one phrase, on either
    # database (the SQLite fallback matches the name and the text each on its own).
    assert "Tigercat" not in names('"tigercat pounce"')
    assert "Tigercat" in names("tigercat pounce")


@pytest.mark.django_db
def test_an_or_of_words_and_conditions_is_the_union_of_its_parts(sample_catalogue):
    parts = ("tigercat", "speed>=7", '"supply drop"', "kind:mission")
    union = set().union(*(names(p) for p in parts))
    assert names(" or ".join(parts)) == union
    assert names(f"-({' or '.join(parts)})") == names("") - union
    assert names("(tigercat or speed>=7) kind:efreet") == (
        names("tigercat kind:efreet") | names("speed>=7 kind:efreet")
    )
    # Without a game, the parts of every game.
    both = names("armor>=3 or tigercat", None)
    assert both == names("armor>=3", None) | names("tigercat", None)


@pytest.mark.django_db
def test_typos_are_forgiven(sample_catalogue):
    got = names("tigrecat")
    assert "Tigercat" in got
    assert "Tigercat" in names("tigercatt")
    if connection.vendor == "postgresql":
        # Trigram similarity over the name, ranked: the best name match comes first when the
        # caller does not re-order.
        first = run("tigercat").queryset.first()
        assert first.name == "Tigercat"


@pytest.mark.django_db
def test_the_fallback_without_trigrams_forgives_typos_too(sample_catalogue):
    """SQLite (the embedded default) has no trigram index: the compiler's fallback matches
    names close to the word in Python (difflib). Driven here through the same compiler
    branch SQLite takes, on this database."""
    from catalogue.models import Card
    from catalogue.search import _Compiler, close_name_ids, parse

    def fallback(query: str) -> set[str]:
        problems: list[str] = []
        tree, problems = parse(query)
        q, _ = _Compiler("redline", False, problems).compile(tree)
        return set(
            Card.objects.filter(game__slug="redline").filter(q).values_list("name", flat=True)
        )

    assert "Tigercat" in fallback("tigrcat")
    assert "Tigercat" in fallback("tigercatt")
    assert "Hidden Supply Depot" in fallback("suply")  # a word of a longer name
    assert fallback("zzqqxxyy") == set()
    assert close_name_ids("ab", "redline") == []  # too short to match with typos
    tiger = Card.objects.get(game__slug="redline", name="Tigercat")
    assert close_name_ids("tigrcat", "redline")[0] == tiger.pk
    assert tiger.pk not in close_name_ids("tigrcat", "red-code")


@pytest.mark.django_db
def test_postgresql_uses_the_search_indexes(sample_catalogue):
    """The SQL the search builds must match the expressions migrations 0002 and 0003 index."""
    if connection.vendor != "postgresql":
        # Nothing to index on SQLite; the migration is a no-op there.
        from django.db.migrations.recorder import MigrationRecorder

        assert MigrationRecorder.Migration.objects.filter(
            app="catalogue", name="0002_search_indexes"
        ).exists()
        return
    cases = {
        "tigercat": {"card_search_document", "card_name_trgm"},
        '"supply drop"': {"card_search_document"},
        "o:salvo": {"card_text_lower_trgm"},
        # A phrase under an OR is an id subquery: it must still reach its index.
        '"supply drop" or o:salvo': {"card_search_document"},
        "name:tiger": {"card_name_trgm"},
        "slots:pilot": {"card_attributes_path"},
        "keywords:salvo": {"card_attributes_path"},
        # Comparisons of integer attributes: the key's btree index (migration 0004).
        "speed>=6": {"card_num_speed"},
        "atk<3": {"card_num_atk"},
        # An OR of words and conditions: one id subquery, each part on its own index.
        "armor>=12 or tigercat": {"card_num_armor", "card_search_document", "card_name_trgm"},
    }
    with connection.cursor() as cursor:
        # On a catalogue this small a walk of a btree index in full, testing each row, may
        # price below a trigram index (the page order indexes, 0010 and 0011, are several such
        # btrees): a condition tested on a row is priced as costly. The conditions are
        # explained without an order (as the count reads them): in name order, the index on
        # name and id (0013) gives the whole order, which on so few cards prices below
        # finding the matches and sorting them.
        cursor.execute("SET cpu_operator_cost = 1")
        cursor.execute("SET enable_seqscan = off")
        try:
            for query, indexes in cases.items():
                qs = search_cards(query=query, queryset=Card.objects.all(), game_slug=None).queryset
                plan = qs.order_by().explain()
                for index in indexes:
                    assert index in plan, f"{query}: {index} not used\n{plan}"
        finally:
            cursor.execute("RESET enable_seqscan")
            cursor.execute("RESET cpu_operator_cost")


@pytest.mark.django_db
def test_the_planner_prices_random_reads_for_memory_on_postgresql():
    """The site's connections say that a page read out of order costs about as much as the
    next one (settings: PG_RANDOM_PAGE_COST, 1.1); with the server's default, 4, searches
    such as keywords:salvo were often planned as a read of the whole game."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert float(cursor.fetchone()[0]) == 1.1


@pytest.mark.django_db
def test_every_integer_attribute_has_its_index_on_postgresql():
    """A comparison of any integer key of any game reaches a btree index (migration 0004):
    a key added to a schema without its index fails here."""
    if connection.vendor != "postgresql":
        return
    keys = {k for g in registry.all() for s in g.kinds.values() for k in s.numeric_keys()}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'catalogue_card' "
            "AND indexname LIKE 'card_num_%%'"
        )
        indexes = {row[0] for row in cursor.fetchall()}
    assert {f"card_num_{k}" for k in keys} - indexes == set()


# --------------------------------------------------------------------------------------------
# through the API and the pages


@pytest.mark.django_db
def test_api_search(client, sample_catalogue):
    response = client.get(
        "/api/cards/", {"game": "redline", "q": "kind:efreet speed>=6 faction:une"}
    )
    assert response.status_code == 200
    data = response.json()
    got = {c["name"] for c in data["results"]}
    assert got == expected(
        "redline",
        lambda c: c.kind == "efreet" and c.faction == "une" and c.attributes["speed"] >= 6,
    )
    assert data["count"] == len(got)
    assert data["problems"] == []
    assert data["read_as"] == "kind:efreet AND speed>=6 AND faction:une"

    data = client.get("/api/cards/", {"game": "redline", "q": "o:salvo sped>=6"}).json()
    assert data["count"] == 8
    assert data["problems"] == ["unknown key 'sped' — did you mean speed?"]

    data = client.get("/api/cards/", {"game": "redline", "q": "tiger"}).json()
    assert data["results"][0]["name"] == "Tigercat"

    # The set filter makes the queryset DISTINCT; ranking must still work.
    data = client.get(
        "/api/cards/", {"game": "redline", "set": "RL1", "q": "tiger or salvo"}
    ).json()
    assert "Tigercat" in {c["name"] for c in data["results"]}

    data = client.get("/api/cards/", {"game": "redline", "q": '(((speed>="'}).json()
    assert data["problems"]


@pytest.mark.django_db
def test_game_page_search(client, sample_catalogue):
    response = client.get("/cards/redline/", {"q": "kind:efreet speed>=7 sped:1", "per": 96})
    assert response.status_code == 200
    cards = response.context["cards"]
    assert {c.name for c in cards} == expected(
        "redline", lambda c: c.kind == "efreet" and c.attributes["speed"] >= 7
    )
    body = response.content.decode()
    # The suggestion links to the same search with the term corrected.
    assert (
        'did you mean <a class="search-fix" '
        'href="?q=kind%3Aefreet+speed%3E%3D7+speed%3A1&amp;per=96">speed</a>?'
    ) in body
    response = client.get("/cards/redline/", {"q": "tiger", "set": "RL1", "sort": "cost"})
    assert response.status_code == 200
    assert "Tigercat" in {c.name for c in response.context["cards"]}


# --------------------------------------------------------------------------------------------
# generated queries never raise, parsing or running


def _all_keys() -> list[str]:
    keys = {"name", "text", "o", "kind", "faction", "cost", "set", "game", "sped", "x", "nope"}
    for g in registry.all():
        for schema in g.kinds.values():
            keys.update(a.key for a in schema.attrs)
    return sorted(keys)


_values = st.one_of(
    st.integers(-5, 12).map(str),
    st.sampled_from(
        [
            "true",
            "no",
            "maybe",
            "laser",
            "salvo",
            "efreet",
            "une",
            "cpm",
            "heavy",
            "very_heavy",
            "RL1",
            "redline",
            "island",
            "night",
            "ranged",
            "99999999999999999999",
            "",
            "-",
            "1.5",
            "'",
            "\\",
            "%",
            "_",
            "*",
            "&",
            "|",
            "!",
            ":*",
            "<->",
            "$",
            "@",
            "?",
            "(",
            ")",
        ]
    ),
    st.text(max_size=8),
).map(lambda v: v if v.isprintable() else v.encode("unicode_escape").decode())

_terms = st.one_of(
    st.builds(
        lambda k, o, v: f"{k}{o}{v}",
        st.sampled_from(_all_keys()),
        st.sampled_from([":", "=", "!=", "<", "<=", ">", ">="]),
        _values,
    ),
    st.builds(
        lambda k, o, v: f'{k}{o}"{v}"',
        st.sampled_from(_all_keys()),
        st.sampled_from([":", "="]),
        _values,
    ),
    st.sampled_from(
        [
            "tiger",
            "tigrecat",
            "salvo",
            '"supply drop"',
            "or",
            "OR",
            "and",
            "not",
            "-",
            "(",
            ")",
            '"',
            "()",
            "-(",
            "the",
            "a",
            "'",
            "é",
            "Ω",
            "\\",
            "\x00",
        ]
    ),
    st.text(min_size=1, max_size=6),
)
_queries = st.one_of(
    st.lists(_terms, max_size=12).map(" ".join),
    st.lists(_terms, max_size=12).map("".join),
    st.text(max_size=60),
)


@given(_queries)
@settings(max_examples=300, deadline=None)
def test_token_combinations_never_raise_in_the_parser(query):
    node, problems = parse(query)
    assert isinstance(problems, list)


@pytest.mark.django_db
@given(
    query=_queries,
    game=st.sampled_from([None, *registry.slugs(), "nope"]),
)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_generated_queries_never_raise_against_the_database(sample_catalogue, query, game):
    qs = Card.objects.all() if game in (None, "nope") else Card.objects.filter(game__slug=game)
    result = search_cards(query=query, queryset=qs, game_slug=game)
    assert isinstance(result.read_as, str)
    assert all(isinstance(p, str) for p in result.problems)
    result.queryset.count()
    list(result.queryset[:5])
    # the API path too: ordered, paginated, with the set filter's DISTINCT
    distinct = search_cards(
        query=query, queryset=qs.order_by("name", "id").distinct(), game_slug=game
    )
    list(distinct.queryset[:3])


def _strings(value):
    """Every string in a JSON answer (the messages as they are, not JSON-escaped)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.mark.django_db
@given(query=_queries)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_generated_queries_through_the_api(client, sample_catalogue, query):
    cache.clear()  # the examples are many clients' searches, not one client's (the throttle)
    response = client.get("/api/cards/", {"game": "redline", "q": query})
    if "\x00" in query:  # PostgreSQL text cannot hold NUL: refused, naming the parameter
        assert response.status_code == 400
        assert "query parameter 'q'" in response.json()["detail"]
        return
    if query_error(query):  # over the search's bounds: refused, saying why, on q
        assert response.status_code == 400
        assert any(query_error(query) in text for text in _strings(response.json()))
        return
    assert response.status_code == 200
    assert isinstance(response.json().get("problems", []), list)


@pytest.mark.django_db
def test_special_characters_are_literal_in_contains(sample_catalogue):
    assert names('name:"counter-battery"') == {"Counter-Battery Fire"}
    assert names("name:counter-battery") == {"Counter-Battery Fire"}
    assert names('"counter-battery fire"') >= {"Counter-Battery Fire"}
    for odd in ("name:.*", "o:[", 'o:"a+b"', "name:\\", "o:%", "name:_", "o:(", "o:^$"):
        run(odd).queryset.count()  # literal text: no regex or LIKE error
    assert names("name:.*") == set()
    assert names("name:%") == set()
    # Without a trigram (two letters) the name is matched by a LIKE pattern on PostgreSQL:
    # its own `%`, `_` and `\` are literal there too, and any case matches.
    assert names("name:_a") == names("name:a%") == names("name:\\a") == set()
    everything = Card.objects.filter(game__slug="redline").values_list("name", flat=True)
    assert names("name:Ti") == names("name:tI") == {n for n in everything if "ti" in n.lower()}
    assert names("name:Ti")


# --------------------------------------------------------------------------------------------
# pages of dense results, found by walking the cards in name order

WALK_QUERIES = [
    "kind:efreet",
    "kind:efreet speed>=3 -faction:cpm",
    "efreet_class:heavy -faction:cpm",
    "speed!=3",
    "cost>=0",
    "o:salvo",
    '"supply drop"',
    "speed>=3",
    "-faction:cpm",
    "keywords:salvo or kind:mission",
    '("supply drop" or kind:tactic) -cost>=3',
    "set:RL1",
]


def _walk(result, base, offset, limit):
    from catalogue.paging import search_walk

    ordering = () if result.ranked else ("name", "id")
    cards = search_walk(base=base, result=result, ordering=ordering)(
        offset, limit, result.queryset.count()
    )
    return None if cards is None else [card.pk for card in cards]


@pytest.mark.parametrize(
    ("query", "narrow"),
    [
        ("kind:efreet speed>=3", {"kind": "efreet"}),
        ("speed>=3 KIND=Efreet", {"kind": "efreet"}),
        ("kind:efreet or kind:tactic", {}),
        ("-kind:efreet", {}),
        ("kind!=efreet", {}),
        ("kind:nosuchkind speed>=3", {"kind": "efreet"}),  # the kind is dropped, not speed
        # An attribute only one kind has: efreet_class and speed are the efreets'.
        ("efreet_class:heavy -faction:cpm", {"kind": "efreet"}),
        ("speed>=3 or cost<=1", {}),
        ("-speed>=3", {}),
        # keywords belong to efreets, equipment and tactics: no single kind.
        ("keywords:salvo", {}),
    ],
)
@pytest.mark.django_db
def test_a_kind_of_the_top_level_and_narrows_the_walk(query, narrow):
    result = search_cards(query=query, queryset=Card.objects.all(), game_slug="redline")
    assert result.narrow == narrow


@pytest.mark.django_db
def test_a_kind_an_attribute_implies_is_a_condition_of_the_results(sample_catalogue):
    # efreet_class only exists on efreets: the count and the page read the efreets only
    # (the planner could not know it), and the results are those of the query as written.
    result = search_cards(
        query="efreet_class:heavy -faction:cpm",
        queryset=Card.objects.filter(game__slug="redline"),
        game_slug="redline",
    )
    where = str(result.queryset.query).split(" WHERE ", 1)[1]
    assert '"kind" = efreet' in where
    heavy = expected(
        "redline",
        lambda c: c.attributes.get("efreet_class") == "heavy" and c.faction != "cpm",
    )
    assert heavy and {c.name for c in result.queryset} == heavy
    assert result.read_as == "efreet_class:heavy AND NOT faction:cpm"
    # A kind the query says itself is not repeated.
    said = search_cards(
        query="kind:efreet speed>=3", queryset=Card.objects.all(), game_slug="redline"
    )
    assert str(said.queryset.query).count('"kind" =') == 1


@pytest.mark.django_db
@pytest.mark.parametrize("query", WALK_QUERIES)
def test_a_walked_page_is_the_page_of_the_query(sample_catalogue, monkeypatch, query):
    from django.core.cache import cache

    import catalogue.search.paging as search

    cache.clear()
    monkeypatch.setattr(search, "WALK_MIN_SHARE", 0.0)
    base = Card.objects.filter(game__slug="redline").order_by("name", "id")
    result = search_cards(query=query, queryset=base, game_slug="redline")
    ordered = list(result.queryset.values_list("id", flat=True))
    assert ordered, query
    assert not result.ranked
    for offset, limit in ((0, 5), (5, 5), (3, 50), (max(0, len(ordered) - 2), 5)):
        if offset >= len(ordered):
            continue
        walked = _walk(result, base, offset, limit)
        if connection.vendor != "postgresql":
            assert walked is None  # SQLite: the usual page query
            continue
        assert walked == ordered[offset : offset + limit], (query, offset, limit)


@pytest.mark.django_db
def test_the_walk_steps_aside_when_it_cannot_be_exact_or_cheap(sample_catalogue, monkeypatch):
    from django.core.cache import cache

    import catalogue.search.paging as search

    if connection.vendor != "postgresql":
        return
    cache.clear()
    base = Card.objects.filter(game__slug="redline").order_by("name", "id")
    dense = search_cards(query="kind:efreet", queryset=base, game_slug="redline")
    assert _walk(dense, base, 0, 5) is not None
    # Ranked by name match (bare words): not in name order.
    ranked = search_cards(query="tiger kind:efreet", queryset=base, game_slug="redline")
    assert ranked.ranked and _walk(ranked, base, 0, 5) is None
    # Too sparse a result, or too long a walk.
    sparse = search_cards(query="name:tigercat", queryset=base, game_slug="redline")
    assert _walk(sparse, base, 0, 5) is None
    monkeypatch.setattr(search, "WALK_MAX_ROWS", 10)
    assert _walk(dense, base, 0, 5) is None
    # A window that holds fewer hits than the page needs falls back instead of guessing.
    monkeypatch.setattr(search, "WALK_MAX_ROWS", 3000)
    monkeypatch.setattr(search, "WALK_MARGIN", 0.01)
    spread = search_cards(query="cost>=1", queryset=base, game_slug="redline")
    assert not spread.narrow and spread.queryset.count() >= 12
    assert _walk(spread, base, 0, 12) is None


@pytest.mark.django_db
def test_api_pages_of_a_dense_search_are_walked_and_in_name_order(client, sample_catalogue):
    from django.core.cache import cache
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    # The database's own order of names (its collation), as the usual page query gives it.
    want = list(
        Card.objects.filter(game__slug="redline", cost__gte=0)
        .order_by("name", "id")
        .values_list("name", flat=True)
    )
    assert len(want) > 50
    got = []
    for page in (1, 2):
        with CaptureQueriesContext(connection) as ctx:
            data = client.get(
                "/api/cards/", {"game": "redline", "q": "cost>=0", "page": page}
            ).json()
        got.extend(c["name"] for c in data["results"])
        assert data["count"] == len(want)
        walked = any("search_hit" in q["sql"] for q in ctx.captured_queries)
        assert walked == (connection.vendor == "postgresql")
    assert got == want


@pytest.mark.django_db
def test_common_short_words_are_ignored_not_matched_against_nothing(sample_catalogue):
    """'Dig In': "in" is not in the full-text index (a stop word); searching for it as a
    whole word found nothing at all. It is ignored with a message instead."""
    result = run("Dig In")
    assert "Dig In" in {c.name for c in result.queryset}
    ignored = any("'In': a common word, ignored" in p for p in result.problems)
    # Only PostgreSQL's full-text index drops stop words; SQLite matches "in" as text.
    assert ignored == (connection.vendor == "postgresql")


def test_a_dense_searchs_sample_bounds_are_the_exact_interval():
    """The bounds a sampled search is sized by (`catalogue.search.paging`) are scipy's
    Clopper-Pearson interval."""
    from scipy.stats import binomtest

    from catalogue.search.paging import SAMPLE_CONFIDENCE, interval

    for hits, n in ((0, 400), (3, 14), (13, 800), (400, 800), (799, 800), (800, 800)):
        expected = binomtest(hits, n).proportion_ci(SAMPLE_CONFIDENCE, method="exact")
        low, high = interval(hits, n)
        assert low == pytest.approx(expected.low, abs=1e-12)
        assert high == pytest.approx(expected.high, abs=1e-12)


def test_a_sample_of_whole_pages_is_given_a_cluster_samples_interval():
    """The sample of a dense search is whole pages of the table, and a page's cards are
    alike. A table of 1,000 pages of 30 cards whose 360 matches (1.2 %) fill 12 pages in a
    row, sampled 2,000 times 14 pages at random: the interval holds 1.2 % every time, where
    the same interval on the cards read, as if drawn one by one, misses it more than once
    in ten."""
    import random

    from scipy.stats import t

    from catalogue.search.paging import (
        SAMPLE_CONFIDENCE,
        clustered_interval,
        interval,
        t_quantile,
    )

    for df in (9, 12, 20, 50, 200, 1000):
        expected = t.ppf(1 - (1 - SAMPLE_CONFIDENCE) / 2, df)
        assert t_quantile(df) == pytest.approx(expected, rel=2e-3)

    rng = random.Random(7)
    pages = [(30, 30 if 400 <= i < 412 else 0) for i in range(1000)]
    truth = 360 / 30_000
    missed = naive_missed = 0
    for _ in range(2000):
        sample = rng.sample(pages, 14)
        low, high = clustered_interval(sample)
        missed += not low <= truth <= high
        low, high = interval(sum(h for _, h in sample), sum(n for n, _ in sample))
        naive_missed += not low <= truth <= high
    assert missed == 0
    assert naive_missed > 200
    # A run of 5 pages full of matches beside matches read one to a page (a name's cards
    # stored together, and a few whose text holds the word), sampled 2,000 times 83 pages:
    # the interval holds the true share every time, the sample reading the run or not.
    pages = [(24, 1 if rng.random() < 0.06 else 0) for _ in range(500)]
    pages[200:205] = [(24, 24)] * 5
    truth = sum(h for _, h in pages) / (24 * 500)
    for _ in range(2000):
        low, high = clustered_interval(rng.sample(pages, 83))
        assert low <= truth <= high
