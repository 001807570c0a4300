"""The SQL pieces a compiled query is made of: full-text, trigram, phrase, JSONB and number
expressions on PostgreSQL, their JSON1 fallbacks on SQLite."""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db.models import (
    BooleanField,
    F,
    Func,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Lower
from django.db.models.lookups import IContains

from ..models import Card, Game
from .language import DOCUMENT_COLUMN, FTS_CONFIG, TYPO_MIN

# --------------------------------------------------------------------------------------------
# SQL pieces

#: Results are ranked by how well the name matches their first this many words.
RANKED_WORDS = 8

#: The attribute of a query (`query.search_row_tests = True`) whose search conditions are
#: tested on the rows it reads, each on its own card, rather than through the ids an index
#: finds: a walk of the cards in name order, the sample a search is sized from. A bare word
#: is then the card's stored document against the word and the name's trigram similarity
#: (a few microseconds a card), where `id IN (SELECT ...)` would find every match first.
ROW_TESTS = "search_row_tests"


def row_tests(compiler) -> bool:
    """The query being compiled tests its search conditions row by row (`ROW_TESTS`)."""
    return bool(getattr(compiler.query, ROW_TESTS, False))


def rank_expression(words: list[str]) -> Any:
    """How well a card's name matches the words: the sum of each word's similarity to the
    name or to an extent of its words (`word_similarity`, 1 for a word the name holds
    whole), for the first RANKED_WORDS words."""
    rank: Any = None
    for w in words[:RANKED_WORDS]:
        part = TrigramWordSimilarity(Value(w), "name")  # type: ignore[arg-type]  # an expression
        rank = part if rank is None else rank + part
    return rank


class _Op(Func):
    """`lhs <op> rhs` as a boolean expression usable in Q objects."""

    output_field = BooleanField()

    def __init__(self, lhs: Any, op: str, rhs: Any) -> None:
        super().__init__(lhs, rhs)
        self.op = op

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        lhs, rhs = self.get_source_expressions()
        lhs_sql, lhs_params = compiler.compile(lhs)
        rhs_sql, rhs_params = compiler.compile(rhs)
        return f"({lhs_sql} {self.op} {rhs_sql})", (*lhs_params, *rhs_params)


class _Contains(Func):
    """PostgreSQL `lhs @> '<json>'::jsonb` (GIN jsonb_path_ops-indexed)."""

    output_field = BooleanField()

    def __init__(self, lhs: Any, value: Any) -> None:
        super().__init__(lhs)
        self.value = value

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        lhs_sql, lhs_params = compiler.compile(self.get_source_expressions()[0])
        return f"({lhs_sql} @> %s::jsonb)", (*lhs_params, json.dumps(self.value))


class _WordMatch(Func):
    """PostgreSQL: the card's id is among the ids whose document matches the full-text query
    or whose name is trigram-similar to the word.

    Written as `id IN (SELECT ... UNION ALL SELECT ...)` so that each half runs on its own
    index, and so that an OR with a condition no index serves becomes a hashed subplan
    instead of a sequential scan testing the word on every row.

    The one word of a search's top-level AND (`direct`, set by `search_cards`) is written
    as its tests on the row instead (`row_test`): PostgreSQL reads both indexes into one
    bitmap (a BitmapOr) and visits each match's row once, where the id subquery visits it
    once per half and then once more by primary key to test the query's other conditions
    ("hawk", 8,115 matches at a million printings: its count 74 -> 30 ms). Not beside
    another word: the planner, seeing two such ORs, reads both through their indexes, where
    the rarer word's ids alone should be found and the other tested on their rows
    (`_common_words_on_rows`: "suply drop")."""

    output_field = BooleanField()

    def __init__(
        self, word: str, tsquery: str | None, game: str | None = None, fuzzy: bool = True
    ) -> None:
        super().__init__(F("pk"))
        self.word = word
        self.tsquery = tsquery
        self.game = game
        self.fuzzy = fuzzy
        #: Tested on the card's own row even in a query that finds its cards through the
        #: indexes: a common word beside a rarer one (`search_cards`).
        self.on_row = False
        #: The one word of the top-level AND: its tests on the row, which the planner reads
        #: through both indexes at once (`search_cards`).
        self.direct = False

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        pk_sql, pk_params = compiler.compile(self.get_source_expressions()[0])
        if self.on_row or self.direct or row_tests(compiler):
            return self.row_test(pk_sql, pk_params)
        selects = self.id_selects(connection)
        sql = " UNION ALL ".join(s for s, _ in selects)
        return f"{pk_sql} IN ({sql})", (*pk_params, *(p for _, ps in selects for p in ps))

    def row_test(self, pk_sql: str, pk_params) -> tuple[str, tuple[Any, ...]]:
        """The same match tested on the card's own row (`ROW_TESTS`): its stored document
        against the full-text query, then its name's trigram similarity to the word."""
        if pk_params:
            raise ValueError("unexpected parameters in a column reference")
        name = _sibling(pk_sql, "id", "name")
        tests: list[str] = []
        params: list[Any] = []
        if self.tsquery is not None:
            document = _sibling(pk_sql, "id", DOCUMENT_COLUMN)
            tests.append(f"{document} @@ to_tsquery('{FTS_CONFIG}'::regconfig, %s)")
            params.append(self.tsquery)
        if self.fuzzy:
            if len(self.word) >= TYPO_MIN:
                tests.append(f"{name} %% %s OR {name} %%> %s")
                params += [self.word, self.word]
            else:
                tests.append(f"{name} %%> %s")
                params.append(self.word)
        if not tests:
            return "false", ()
        return f"({' OR '.join(tests)})", tuple(params)

    def id_selects(self, connection) -> list[tuple[str, list[Any]]]:
        """The SELECTs of ids (with their parameters) whose union is the matching cards."""
        qn = connection.ops.quote_name
        table = qn("catalogue_card")
        name, id_ = qn("name"), qn("id")
        # `%%` is a literal % (the trigram operators) in Django's parameterised SQL. A word
        # is similar to the name (`%`, typos: "tigrecat") or to a word of it (`%>`, "tiger");
        # `%` only from TYPO_MIN letters, as short words are similar to too many names.
        game_sql, game_params = _game_condition(connection, self.game)
        selects: list[tuple[str, list[Any]]] = []
        if self.tsquery is not None:
            document = qn(DOCUMENT_COLUMN)
            selects.append(
                (
                    f"SELECT {id_} FROM {table} WHERE {document} @@ "
                    f"to_tsquery('{FTS_CONFIG}'::regconfig, %s){game_sql}",
                    [self.tsquery, *game_params],
                )
            )
        if self.fuzzy:
            if len(self.word) >= TYPO_MIN:
                trigram = f"({name} %% %s OR {name} %%> %s)"
                params: list[Any] = [self.word, self.word]
            else:
                trigram, params = f"{name} %%> %s", [self.word]
            selects.append(
                (f"SELECT {id_} FROM {table} WHERE {trigram}{game_sql}", [*params, *game_params])
            )
        if not selects:
            selects.append((f"SELECT {id_} FROM {table} WHERE false", []))
        return selects


def _game_condition(connection, game: str | None) -> tuple[str, list[Any]]:
    """` AND game_id + 0 = (the searched game's id)` for an id subquery, so that it reads the
    cards of that game only (empty without a game).

    Written as an expression (`+ 0`) so that no index serves it: the cards the search's own
    index finds are tested for their game as they are read. The game's btree index would
    otherwise be AND-ed with it, a bitmap of every card of the game (347,826 at a million
    printings), which costs many times what the search itself does."""
    if not game:
        return "", []
    qn = connection.ops.quote_name
    return (
        f" AND {qn('game_id')} + 0 = (SELECT {qn('id')} FROM {qn('catalogue_game')} "
        f"WHERE {qn('slug')} = %s)",
        [game],
    )


#: Words the English full-text configuration drops; a phrase of only these is matched as a
#: plain substring instead (its full-text query would be empty).
STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with i me my we our you your he him his she her "
    "its them what which who whom am were been being have has had do does did so than too "
    "very s t can just don should now".split()
)


def _like_contains(value: str) -> str:
    """A LIKE pattern matching `value` anywhere (its own `%`, `_` and `\\` taken literally)."""
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _sibling(column_sql: str, column: str, sibling: str) -> str:
    """The SQL of another column of the same table (alias included) as `column_sql`."""
    quoted = f'"{column}"'
    if not column_sql.endswith(quoted):
        raise ValueError(f"unexpected column SQL {column_sql!r}")
    return column_sql[: -len(quoted)] + f'"{sibling}"'


class _TextContains(Func):
    """PostgreSQL: the rules text contains the value, any case. Matched as a plain `LIKE` on
    `text_lower` (the text folded once when written, migration 0003; trigram-indexed),
    against the value folded by the same `lower()`."""

    output_field = BooleanField()

    def __init__(self, value: str) -> None:
        super().__init__(F("text"))
        self.value = value

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        text_sql, params = compiler.compile(self.get_source_expressions()[0])
        lower_sql = _sibling(text_sql, "text", "text_lower")
        return f"({lower_sql} LIKE lower(%s))", (*params, _like_contains(self.value))


class _PhraseMatch(Func):
    """PostgreSQL: the card's document holds every word of the phrase (a full-text query the
    index answers without rechecking rows) and its name or its text contains the phrase as
    written, any case (a plain `LIKE` on the folded name and text, on those cards only), as
    the SQLite fallback reads it.

    `direct` (the phrase is a condition of the top-level AND): written on the card's own
    row, so the planner combines the full-text index with the other conditions. Otherwise
    (under an OR or a NOT) as `id IN (SELECT ...)`: an OR with a condition no index serves
    then becomes a hashed subplan instead of a sequential scan computing `to_tsvector` on
    every row."""

    output_field = BooleanField()

    def __init__(self, phrase: str, direct: bool = False, game: str | None = None) -> None:
        super().__init__(F("pk"), F("name"), F("text"))
        self.phrase = phrase
        self.direct = direct
        self.game = game

    @staticmethod
    def condition(name_sql: str, lower_sql: str) -> str:
        """The test, with three parameters (the LIKE pattern twice, the phrase). The cheap
        `LIKE`s come first: where the test is computed per row (a column of a query, see
        `walk_page`), the stored document is then read for the cards that contain the phrase
        only. The text is matched in its stored folded copy, neither it nor the name is
        concatenated (no string is built per row)."""
        document = _sibling(name_sql, "name", DOCUMENT_COLUMN)
        return (
            f"({lower_sql} LIKE lower(%s) OR lower({name_sql}) LIKE lower(%s)) "
            f"AND {document} @@ plainto_tsquery('{FTS_CONFIG}'::regconfig, %s)"
        )

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        pk, name, text = self.get_source_expressions()
        qn = connection.ops.quote_name
        pattern = _like_contains(self.phrase)
        values = (pattern, pattern, self.phrase)
        if self.direct or row_tests(compiler):
            name_sql, name_params = compiler.compile(name)
            text_sql, text_params = compiler.compile(text)
            if name_params or text_params:
                raise ValueError("unexpected parameters in a column reference")
            lower_sql = _sibling(text_sql, "text", "text_lower")
            return f"({self.condition(name_sql, lower_sql)})", values
        pk_sql, pk_params = compiler.compile(pk)
        test = self.condition(qn("name"), qn("text_lower"))
        game_sql, game_params = _game_condition(connection, self.game)
        sql = (
            f"{pk_sql} IN (SELECT {qn('id')} FROM {qn('catalogue_card')} WHERE ({test}){game_sql})"
        )
        return sql, (*pk_params, *values, *game_params)


_KEY_RE = re.compile(r"[a-z][a-z0-9_]*")


def number_sql(attributes_sql: str, key: str) -> str:
    """The integer attribute `key` as a number (NULL when missing or not a number): the
    expression migration 0004 indexes for every integer key, written here in the same form."""
    if not _KEY_RE.fullmatch(key):
        raise ValueError(f"unexpected attribute key {key!r}")
    return (
        f"CASE WHEN jsonb_typeof({attributes_sql} -> '{key}') = 'number' "
        f"THEN ({attributes_sql} ->> '{key}')::numeric END"
    )


class _NumberCompare(Func):
    """PostgreSQL: the card has the integer attribute and it compares with the number.
    `attributes ? key AND <number_sql> <op> n`, served by the key's btree index
    (`card_num_<key>`, partial on `attributes ? key`); false, never NULL, when the key is
    missing, so that a NOT keeps the cards without it."""

    output_field = BooleanField()
    SQL_OPS = {"!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

    def __init__(self, key: str, op: str, number: int) -> None:
        super().__init__(F("attributes"))
        self.key, self.op, self.number = key, self.SQL_OPS[op], number

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        attrs_sql, params = compiler.compile(self.get_source_expressions()[0])
        value = number_sql(attrs_sql, self.key)
        sql = f"({attrs_sql} ? '{self.key}' AND {value} {self.op} %s::numeric)"
        return sql, (*params, *params, *params, self.number)


class _AnyOf(Func):
    """PostgreSQL: an OR of conditions, at least one of them an id subquery (a bare word, a
    phrase under the OR), written as `id IN (SELECT id ... UNION ALL SELECT id ...)`, one
    SELECT per condition. Each SELECT runs on its own index; an OR of an id subquery with
    another condition, written as such, is read as a sequential scan that tests the other
    condition on every card."""

    output_field = BooleanField()

    def __init__(self, parts: list[Q], game: str | None = None) -> None:
        super().__init__(F("pk"))
        self.parts = parts
        self.game = game
        self.either: Any = None

    def resolve_expression(
        self, query=None, allow_joins=True, reuse=None, summarize=False, for_save=False
    ):
        c = super().resolve_expression(query, allow_joins, reuse, summarize, for_save)
        # The parts OR-ed as written, for a query testing them row by row (`ROW_TESTS`).
        either = Q()
        for part in self.parts:
            either |= part
        c.either = either.resolve_expression(query, allow_joins, reuse, summarize, for_save)
        return c

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        if row_tests(compiler) and self.either is not None:
            sql, either_params = compiler.compile(self.either)
            return f"({sql})", tuple(either_params)
        pk_sql, params = compiler.compile(self.get_source_expressions()[0])
        selects: list[str] = []
        params = list(params)
        for part in self.parts:
            only = _only_expression(part)
            if isinstance(only, _WordMatch):
                for sql, part_params in only.id_selects(connection):
                    selects.append(sql)
                    params.extend(part_params)
                continue
            if isinstance(only, _PhraseMatch):
                part = Q(_PhraseMatch(only.phrase, direct=True))  # on the SELECT's own rows
            inner = Card.objects.filter(part)
            if self.game:
                # As in `_game_condition`: tested on the rows found, not through its index.
                game_id = Game.objects.filter(slug=self.game).values("id")[:1]
                inner = inner.filter(Q(_Op(F("game_id") + Value(0), "=", Subquery(game_id))))
            query = inner.order_by().values("id").query
            sql, part_params = query.get_compiler(connection=connection).as_sql()
            selects.append(sql)
            params.extend(part_params)
        return f"{pk_sql} IN ({' UNION ALL '.join(selects)})", tuple(params)


def _only_expression(q: Q) -> Any:
    """The expression a Q holds when it holds exactly one, not negated; else None."""
    if q.negated or len(q.children) != 1:
        return None
    child = q.children[0]
    if isinstance(child, Q):
        return _only_expression(child)
    return child if not isinstance(child, tuple) else None


def reads_text(q: Q) -> bool:
    """The Q holds a match of words or text (a bare word, a phrase, `o:`/`text:`): costly to
    count when it matches many cards, since each match is read from the table."""
    for child in q.children:
        if isinstance(child, Q) and reads_text(child):
            return True
        if isinstance(child, _WordMatch | _AnyOf | _PhraseMatch | _TextContains):
            return True
    return False


def _has_id_subquery(q: Q) -> bool:
    """The Q holds a condition written as an id subquery (bare word, phrase not direct)."""
    for child in q.children:
        if isinstance(child, Q) and _has_id_subquery(child):
            return True
        if isinstance(child, _WordMatch | _AnyOf):
            return True
        if isinstance(child, _PhraseMatch) and not child.direct:
            return True
    return False


class _SqliteScalar(Func):
    """SQLite: attributes.<key> is a JSON scalar of the value's type and compares with it;
    false (never NULL) when the key is missing, so that NOT behaves as on PostgreSQL."""

    output_field = BooleanField()

    def __init__(self, key: str, op: str, value: Any) -> None:
        super().__init__(F("attributes"))
        self.key = key
        self.op = op
        self.value = value

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        lhs_sql, lhs_params = compiler.compile(self.get_source_expressions()[0])
        path = f'$."{self.key}"'
        value = self.value
        if isinstance(value, bool):
            kind = "'true'" if value else "'false'"
            return f"COALESCE(json_type({lhs_sql}, %s) = {kind}, 0)", (*lhs_params, path)
        types = "('integer', 'real')" if isinstance(value, int) else "('text')"
        sql = (
            f"COALESCE(json_type({lhs_sql}, %s) IN {types}"
            f" AND json_extract({lhs_sql}, %s) {self.op} %s, 0)"
        )
        return sql, (*lhs_params, path, *lhs_params, path, value)


class _SqliteListHas(Func):
    """SQLite: an item of the JSON list `attributes.<key>` equals the value (text compared
    case-insensitively)."""

    output_field = BooleanField()

    def __init__(self, key: str, value: Any) -> None:
        super().__init__(F("attributes"))
        self.key = key
        self.value = value

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # noqa: ARG002
        lhs_sql, lhs_params = compiler.compile(self.get_source_expressions()[0])
        path = f'$."{self.key}"'
        if isinstance(self.value, str):
            cond = "lower(value) = lower(%s)"
        else:
            cond = "value = %s"
        sql = f"EXISTS (SELECT 1 FROM json_each({lhs_sql}, %s) WHERE {cond})"
        return sql, (*lhs_params, path, self.value)


def _regex_escape(value: str) -> str:
    """A literal for a PostgreSQL regular expression: every non-alphanumeric character is
    escaped (a backslash before a non-alphanumeric character stands for that character)."""
    return "".join(c if c.isalnum() else "\\" + c for c in value)


def _contains_ci(column: str, value: str, pg: bool) -> Q:
    """The column contains the text, any case. On PostgreSQL the rules text through its
    folded copy (`_TextContains`); other columns (short: the name) by a case-insensitive
    regular expression (`~*`), served by the trigram index like ILIKE and cheaper per row.

    A value without three letters or digits in a row (`name:ab`) has no trigram: the index
    would hand every card to the recheck, which the planner does not foresee. The column is
    then matched as an expression the index does not serve, so its cards are read in the
    page's order and tested as they come: its lower-case form against the value's as a
    LIKE pattern, which costs about half the regular expression on every row it tests
    (every name of a game, to count `name:ab`: 147 -> 83 ms at a million printings)."""
    if pg and column == "text":
        return Q(_TextContains(value))
    if pg:
        if not re.search(r"[^\W_]{3}", value):
            return Q(_Op(Lower(F(column)), "LIKE", Lower(Value(_like_contains(value)))))
        return Q(_Op(F(column), "~*", Value(_regex_escape(value))))
    return Q(IContains(F(column), value))


def _nothing() -> Q:
    return Q(pk__in=[])
