"""Card search: one query language for every game.

    kind:efreet speed>=6 -faction:cpm (o:salvo or keywords:ambush) "supply drop" tiger

A query is read in three steps, none of which may raise on any input:

1. `tokenize` turns the text into tokens: parentheses, `or`/`and`/`not` (any case), `-`
   (negation), `key<op>value` terms (operators `:` `=` `!=` `<` `<=` `>` `>=`, the value
   bare or in double quotes), quoted phrases and bare words.
2. `parse` is a recursive-descent parser over the grammar

       query   := or_expr
       or_expr := and_expr ("or" and_expr)*
       and_expr:= unary (["and"] unary)*          (implicit AND binds tighter than OR)
       unary   := ("-" | "not") unary | primary
       primary := "(" or_expr ")" | term | word | phrase

   It builds an AST (`And`, `Or`, `Not`, `Term`, `Word`); stray or missing parentheses,
   dangling `or`/`-` and empty groups are dropped with a problem.
3. `compile` checks every term against the game's keys (`validation.registry`) and turns it
   into a `Q`; terms it cannot use (unknown key, a word where a number is expected, a value
   outside the choices) are dropped with a problem saying what and why.

On PostgreSQL bare words use full-text search over name and text (the expression
`DOCUMENT_SQL`, prefix matching, indexed by migration 0002) or trigram similarity over the
name (typos forgiven), results ranked by how well the name matches; a quoted phrase is found
through the full-text index and checked as a substring of the name or of the text;
`name:`/`text:` are substring matches served by trigram indexes (the text through
`text_lower`, its copy folded to lower case when written, migration 0003); attribute equality and list
membership use JSONB containment (`@>`, GIN-indexed); comparisons of integer attributes
(`speed>=6`) use a btree index per integer key (migration 0004). An OR holding a bare word or
a phrase becomes one `id IN (SELECT ... UNION ALL SELECT ...)`, each part on its own index.
On SQLite the same queries fall back to plain substring and JSON1 lookups (no typo
forgiveness).

Cost is bounded whatever the query: at most MAX_TERMS terms; a word or phrase with fewer
than WORD_MIN letters or digits (`a`, `*`) is dropped, a word shorter than FUZZY_MIN is
matched as a whole word (no prefix, no trigrams: it has none); every id subquery reads
the searched game's cards only. And PostgreSQL cancels any statement that still runs past
DB_STATEMENT_TIMEOUT_MS (cardsite.errors answers 503).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import TrigramWordSimilarity
from django.core.cache import cache
from django.db import connections, router
from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    F,
    Func,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.fields.json import HasKey, KeyTextTransform
from django.db.models.functions import Lower
from django.db.models.lookups import Exact, IContains, IExact

from validation.registry import registry

# Limits that keep hostile input cheap: longer queries are cut, deeper nesting flattened.
MAX_QUERY_CHARS = 1000
MAX_TERMS = 12
MAX_DEPTH = 12
MAX_NUMBER = 10**9
# Whole-name trigram similarity (typo forgiveness) for bare words of at least this length.
TYPO_MIN = 6
# Letters and digits a bare word or a phrase needs to be searched at all (a single letter
# matches the prefix of nearly every card and has no trigram an index can use), and to be
# matched fuzzily by trigrams (a shorter word has no trigram of its own).
WORD_MIN = 2
FUZZY_MIN = 3

# The full-text configuration and document; migration 0002 indexes exactly this expression.
FTS_CONFIG = "english"
DOCUMENT_SQL = f"to_tsvector('{FTS_CONFIG}'::regconfig, %(expressions)s)"

OPERATORS = ("!=", "<=", ">=", ":", "=", "<", ">")
COMPARISONS = ("<", "<=", ">", ">=")
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "on"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "off"})

# Keys every game has (columns of Card, the printing's set, the game), with their aliases.
COMMON_KEYS = {
    "name": "name",
    "text": "text",
    "o": "text",
    "oracle": "text",
    "kind": "kind",
    "faction": "faction",
    "cost": "cost",
    "set": "set",
    "game": "game",
}


@dataclass
class SearchResult:
    """The filtered queryset, how the query was read, and the terms that were dropped."""

    queryset: QuerySet
    read_as: str = ""
    problems: list[str] = field(default_factory=list)
    # The compiled condition (None: nothing to filter), and whether the results are ranked
    # by name match (bare words on PostgreSQL) rather than left in the caller's order.
    condition: Q | None = None
    ranked: bool = False
    # Column equalities every result satisfies (a `kind:` of the top-level AND, or the kind
    # an attribute of the top-level AND implies): a walk in name order reads only those cards
    # (the index on game, kind and name). An implied kind is also a condition of `queryset`.
    narrow: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Tokens and AST


@dataclass(frozen=True)
class Token:
    type: str  # "(" ")" "or" "and" "not" "term" "word" "phrase"
    text: str  # as written, for messages
    key: str = ""
    op: str = ""
    value: str = ""
    quoted: bool = False


@dataclass
class Word:
    text: str
    phrase: bool = False


@dataclass
class Term:
    key: str
    op: str
    value: str
    quoted: bool
    raw: str


@dataclass
class Not:
    child: Node


@dataclass
class And:
    children: list[Node]


@dataclass
class Or:
    children: list[Node]


Node = Word | Term | Not | And | Or

_KEY_OP = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(!=|<=|>=|:|=|<|>)")
_WORD_END = frozenset('()"')


def _clean_text(query: Any) -> str:
    """The query as safe text: a str, no NUL or control characters, no lone surrogates."""
    if not isinstance(query, str):
        query = "" if query is None else str(query)
    query = query.encode("utf-8", "replace").decode("utf-8", "replace")
    return "".join(
        " " if (unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") and not c.isspace()) else c
        for c in query
    )


def _read_quoted(text: str, i: int) -> tuple[str, int, bool]:
    """Read a double-quoted string starting at text[i] == '"'; (value, next index, closed)."""
    end = text.find('"', i + 1)
    if end < 0:
        return text[i + 1 :], len(text), False
    return text[i + 1 : end], end + 1, True


def _read_bare(text: str, i: int) -> int:
    n = len(text)
    while i < n and not text[i].isspace() and text[i] not in _WORD_END:
        i += 1
    return i


def tokenize(query: str) -> tuple[list[Token], list[str]]:
    """Split a query into tokens; problems for what cannot be a token (never raises)."""
    text = _clean_text(query)
    problems: list[str] = []
    if len(text) > MAX_QUERY_CHARS:
        problems.append(f"query too long: only the first {MAX_QUERY_CHARS} characters are read")
        text = text[:MAX_QUERY_CHARS]
    tokens: list[Token] = []
    leaves = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if leaves >= MAX_TERMS:
            problems.append(f"too many terms: only the first {MAX_TERMS} are used")
            break
        if c in "()":
            tokens.append(Token(c, c))
            i += 1
            continue
        if c == '"':
            value, i, closed = _read_quoted(text, i)
            if not closed:
                problems.append(f'unbalanced quote: "{value.strip()}" read as if closed at the end')
            if value.strip():
                tokens.append(Token("phrase", f'"{value}"', value=" ".join(value.split())))
                leaves += 1
            else:
                problems.append('empty quotes "" ignored')
            continue
        if c == "-":
            if i + 1 < n and not text[i + 1].isspace() and text[i + 1] != ")":
                tokens.append(Token("not", "-"))
            else:
                problems.append("'-' with nothing after it ignored")
            i += 1
            continue
        m = _KEY_OP.match(text, i)
        if m:
            key, op = m.group(1), m.group(2)
            i = m.end()
            quoted = i < n and text[i] == '"'
            if quoted:
                value, i, closed = _read_quoted(text, i)
                if not closed:
                    problems.append(
                        f'unbalanced quote in {key}{op}"{value}": read as if closed at the end'
                    )
            else:
                j = _read_bare(text, i)
                value, i = text[i:j], j
            raw = text[m.start() : i]
            tokens.append(Token("term", raw, key=key, op=op, value=value, quoted=quoted))
            leaves += 1
            continue
        j = _read_bare(text, i)
        word, i = text[i:j], j
        low = word.lower()
        if low in ("or", "and", "not"):
            tokens.append(Token(low, word))
        elif word[0] in ":=<>!":
            problems.append(f"'{word}': an operator needs a key before it (e.g. cost{word})")
        else:
            tokens.append(Token("word", word, value=word))
            leaves += 1
    return tokens, problems


class _Parser:
    """Recursive descent over the tokens; see the module docstring for the grammar."""

    def __init__(self, tokens: list[Token], problems: list[str]) -> None:
        self.tokens = tokens
        self.i = 0
        self.problems = problems
        self.depth = 0
        self.too_deep = False

    def peek(self) -> str | None:
        return self.tokens[self.i].type if self.i < len(self.tokens) else None

    def parse(self) -> Node | None:
        node = self.or_expr()
        while self.i < len(self.tokens):  # only a stray ")" stops or_expr early
            self.i += 1
            self.problems.append("unbalanced ')' ignored")
            node = _join(And, [node, self.or_expr()])
        return node

    def or_expr(self) -> Node | None:
        parts = [self.and_expr()]
        while self.peek() == "or":
            self.i += 1
            if parts[-1] is None:
                self.problems.append("'or' with nothing before it ignored")
            right = self.and_expr()
            if right is None:
                self.problems.append("'or' with nothing after it ignored")
            parts.append(right)
        return _join(Or, parts)

    def and_expr(self) -> Node | None:
        parts: list[Node | None] = []
        while self.peek() not in (None, "or", ")"):
            if self.peek() == "and":
                self.i += 1
                if not parts or self.peek() in (None, "or", ")", "and"):
                    self.problems.append("'and' with nothing on one side ignored")
                continue
            parts.append(self.unary())
        return _join(And, parts)

    def unary(self) -> Node | None:
        negations = 0
        while self.peek() == "not":
            negations += 1
            self.i += 1
        if negations and self.peek() in (None, "or", ")", "and"):
            self.problems.append("'-' (not) with nothing after it ignored")
            return None
        node = self.primary()
        if node is None or negations % 2 == 0:
            return node
        return Not(node)

    def primary(self) -> Node | None:
        tok = self.tokens[self.i]
        self.i += 1
        if tok.type == "(":
            if self.depth >= MAX_DEPTH:
                if not self.too_deep:
                    self.problems.append(
                        f"parentheses nested deeper than {MAX_DEPTH} levels: inner ones ignored"
                    )
                    self.too_deep = True
                return None
            self.depth += 1
            inner = self.or_expr()
            self.depth -= 1
            if self.peek() == ")":
                self.i += 1
            else:
                self.problems.append("missing ')': the group is closed at the end")
            if inner is None:
                self.problems.append("empty parentheses () ignored")
            return inner
        if tok.type == "term":
            return Term(tok.key, tok.op, tok.value, tok.quoted, tok.text)
        if tok.type == "phrase":
            return Word(tok.value, phrase=True)
        return Word(tok.value)


def _join(cls: type[And] | type[Or], parts: Iterable[Node | None]) -> Node | None:
    kept: list[Node] = []
    for p in parts:
        if p is None:
            continue
        kept.extend(p.children if isinstance(p, cls) else [p])
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else cls(kept)


def parse(query: str) -> tuple[Node | None, list[str]]:
    """The AST of a query (None when it holds nothing usable) and the problems met."""
    tokens, problems = tokenize(query)
    return _Parser(tokens, problems).parse(), problems


# --------------------------------------------------------------------------------------------
# SQL pieces


class _Op(Func):
    """`lhs <op> rhs` as a boolean expression usable in Q objects."""

    output_field = BooleanField()

    def __init__(self, lhs: Any, op: str, rhs: Any) -> None:
        super().__init__(lhs, rhs)
        self.op = op

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
        lhs_sql, lhs_params = compiler.compile(self.get_source_expressions()[0])
        return f"({lhs_sql} @> %s::jsonb)", (*lhs_params, json.dumps(self.value))


class _WordMatch(Func):
    """PostgreSQL: the card's id is among the ids whose document matches the full-text query
    or whose name is trigram-similar to the word.

    Written as `id IN (SELECT ... UNION ALL SELECT ...)` so that each half runs on its own
    index (the full-text half needs no recheck, so `to_tsvector` is never recomputed per
    row), and so that an OR with a condition no index serves becomes a hashed subplan
    instead of a sequential scan computing `to_tsvector` on every row."""

    output_field = BooleanField()

    def __init__(
        self, word: str, tsquery: str | None, game: str | None = None, fuzzy: bool = True
    ) -> None:
        super().__init__(F("pk"))
        self.word = word
        self.tsquery = tsquery
        self.game = game
        self.fuzzy = fuzzy

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
        pk_sql, pk_params = compiler.compile(self.get_source_expressions()[0])
        selects = self.id_selects(connection)
        sql = " UNION ALL ".join(s for s, _ in selects)
        return f"{pk_sql} IN ({sql})", (*pk_params, *(p for _, ps in selects for p in ps))

    def id_selects(self, connection) -> list[tuple[str, list[Any]]]:
        """The SELECTs of ids (with their parameters) whose union is the matching cards."""
        qn = connection.ops.quote_name
        table = qn("catalogue_card")
        name, text, id_ = qn("name"), qn("text"), qn("id")
        # `%%` is a literal % (the trigram operators) in Django's parameterised SQL. A word
        # is similar to the name (`%`, typos: "tigrecat") or to a word of it (`%>`, "tiger");
        # `%` only from TYPO_MIN letters, as short words are similar to too many names.
        game_sql, game_params = _game_condition(connection, self.game)
        selects: list[tuple[str, list[Any]]] = []
        if self.tsquery is not None:
            document = DOCUMENT_SQL % {"expressions": f"{name} || ' ' || {text}"}
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
    """` AND game_id = (the searched game's id)` for an id subquery, so that it reads the
    cards of that game only (empty without a game)."""
    if not game:
        return "", []
    qn = connection.ops.quote_name
    return (
        f" AND {qn('game_id')} = (SELECT {qn('id')} FROM {qn('catalogue_game')} "
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
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
    def condition(name_sql: str, text_sql: str, lower_sql: str) -> str:
        """The test, with three parameters (the LIKE pattern twice, the phrase). The cheap
        `LIKE`s come first: where the test is computed per row (a column of a query, see
        `walk_page`), `to_tsvector` then runs on the cards that contain the phrase only. The
        text is matched in its stored folded copy, neither it nor the name is concatenated
        (no string is built per row)."""
        document = DOCUMENT_SQL % {"expressions": f"{name_sql} || ' ' || {text_sql}"}
        return (
            f"({lower_sql} LIKE lower(%s) OR lower({name_sql}) LIKE lower(%s)) "
            f"AND {document} @@ plainto_tsquery('{FTS_CONFIG}'::regconfig, %s)"
        )

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
        pk, name, text = self.get_source_expressions()
        qn = connection.ops.quote_name
        pattern = _like_contains(self.phrase)
        values = (pattern, pattern, self.phrase)
        if self.direct:
            name_sql, name_params = compiler.compile(name)
            text_sql, text_params = compiler.compile(text)
            if name_params or text_params:
                raise ValueError("unexpected parameters in a column reference")
            lower_sql = _sibling(text_sql, "text", "text_lower")
            return f"({self.condition(name_sql, text_sql, lower_sql)})", values
        pk_sql, pk_params = compiler.compile(pk)
        test = self.condition(qn("name"), qn("text"), qn("text_lower"))
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
        from .models import Card, Game

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
                game_id = Game.objects.filter(slug=self.game).values("id")[:1]
                inner = inner.filter(game_id=Subquery(game_id))
            inner = inner.order_by().values("id").query
            sql, part_params = inner.get_compiler(connection=connection).as_sql()
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
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

    def as_sql(self, compiler, connection, **extra):  # noqa: ARG002
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
    regular expression (`~*`), served by the trigram index like ILIKE and cheaper per row."""
    if pg and column == "text":
        return Q(_TextContains(value))
    if pg:
        return Q(_Op(F(column), "~*", Value(_regex_escape(value))))
    return Q(IContains(F(column), value))


def _nothing() -> Q:
    return Q(pk__in=[])


# --------------------------------------------------------------------------------------------
# Compiling the AST


class _Drop(Exception):
    """A term that cannot be used; the message says what and why."""


def _json_string(value: str) -> str:
    return json.dumps(value)


def _fmt_value(value: str) -> str:
    if value == "" or any(c.isspace() or c in '()"' for c in value):
        return '"' + value.replace('"', "") + '"'
    return value


#: The typo-forgiving name match of the SQLite fallback: how alike a word and a name (or
#: one of its words) must be, how many names it reads at most, and how many it returns.
CLOSE_CUTOFF = 0.75
CLOSE_SCAN_MAX = 50_000
CLOSE_MAX = 50


def close_name_ids(word: str, game_slug: str | None) -> list[int]:
    """Ids of the cards whose name, or a word of it, is close to `word` (difflib's ratio
    at least CLOSE_CUTOFF): `tigrcat` finds Tigercat. The fallback for databases without
    trigram indexes (SQLite, the embedded default); one query over the game's names."""
    from .models import Card

    target = word.lower().strip()
    if len(target) < FUZZY_MIN:
        return []
    qs = Card.objects.all()
    if game_slug:
        qs = qs.filter(game__slug=game_slug)
    matcher = difflib.SequenceMatcher(b=target, autojunk=False)
    scored: list[tuple[float, int]] = []
    for pk, name in qs.values_list("pk", "name")[:CLOSE_SCAN_MAX]:
        best = 0.0
        for candidate in (name.lower(), *name.lower().split()):
            matcher.set_seq1(candidate)
            if matcher.real_quick_ratio() < CLOSE_CUTOFF or matcher.quick_ratio() < CLOSE_CUTOFF:
                continue
            best = max(best, matcher.ratio())
        if best >= CLOSE_CUTOFF:
            scored.append((best, pk))
    scored.sort(reverse=True)
    return [pk for _, pk in scored[:CLOSE_MAX]]


def _suggest(word: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(word.lower(), list(candidates), n=1, cutoff=0.6)
    return f" — did you mean {close[0]}?" if close else ""


def _parse_int(term: Term, label: str) -> int:
    text = term.value.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise _Drop(f"{term.raw}: expected a number for {label}")
    number = int(text)
    if abs(number) > MAX_NUMBER:
        raise _Drop(f"{term.raw}: {text} is out of range")
    return number


def _parse_bool(term: Term) -> bool:
    low = term.value.strip().lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    raise _Drop(f"{term.raw}: expected true/false (or yes/no)")


def _norm_choice(value: str) -> str:
    return re.sub(r"[\s\-]+", "_", value.strip().lower())


class _Compiler:
    def __init__(self, game_slug: str | None, pg: bool, problems: list[str]) -> None:
        self.pg = pg
        self.problems = problems
        self.game = None
        if game_slug:
            try:
                self.game = registry.get(game_slug)
            except KeyError:
                problems.append(f"no game {game_slug!r}: keys of every game are accepted")
        # The game whose cards every id subquery reads (None: every game's).
        self.game_slug = self.game.slug if self.game else None
        games = [self.game] if self.game else registry.all()
        self.kinds: set[str] = set()
        self.factions: set[str] = set()
        self.attrs: dict[str, list[Any]] = {}
        for g in games:
            self.kinds.update(g.kinds)
            self.factions.update(g.factions)
            for schema in g.kinds.values():
                for a in schema.attrs:
                    group = self.attrs.setdefault(a.key, [])
                    if a not in group:
                        group.append(a)
        # Keys of other games, to say where an unknown key belongs.
        self.elsewhere: dict[str, list[str]] = {}
        if self.game:
            for g in registry.all():
                if g.slug == self.game.slug:
                    continue
                for schema in g.kinds.values():
                    for a in schema.attrs:
                        names = self.elsewhere.setdefault(a.key, [])
                        if g.name not in names:
                            names.append(g.name)
        self.rank_words: list[str] = []
        self.narrow: dict[str, str] = {}
        # The part of `narrow` the query does not say itself (a kind implied by an attribute).
        self.implied: dict[str, str] = {}

    # -- tree ---------------------------------------------------------------------------
    def compile(self, node: Node, positive: bool = True, top: bool = True) -> tuple[Q, str] | None:
        """`top`: the node is a condition of the top-level AND (not under an OR or a NOT)."""
        if isinstance(node, And | Or):
            inner_top = top and isinstance(node, And)
            parts = [self.compile(c, positive, inner_top) for c in node.children]
            kept = [p for p in parts if p is not None]
            if not kept:
                return None
            if len(kept) == 1:
                return kept[0]
            if isinstance(node, Or) and self.pg and any(_has_id_subquery(q) for q, _ in kept):
                q = Q(_AnyOf([q for q, _ in kept], game=self.game_slug))
            else:
                q = kept[0][0]
                for other, _ in kept[1:]:
                    q = (q & other) if isinstance(node, And) else (q | other)
            if isinstance(node, And):
                text = " AND ".join(
                    f"({t})" if " OR " in t and not _wrapped(t) else t for _, t in kept
                )
            else:
                text = " OR ".join(t for _, t in kept)
            return q, text
        if isinstance(node, Not):
            inner = self.compile(node.child, not positive, top=False)
            if inner is None:
                return None
            q, text = inner
            if " AND " in text or " OR " in text:
                text = f"({text})" if not _wrapped(text) else text
            return ~q, f"NOT {text}"
        try:
            if isinstance(node, Word):
                return self.word(node, positive, top)
            compiled = self.term(node)
            if top:
                self._narrow_by(node)
            return compiled
        except _Drop as exc:
            self.problems.append(str(exc))
            return None
        except Exception as exc:  # noqa: BLE001 - a search never fails on a term
            raw = node.raw if isinstance(node, Term) else node.text
            self.problems.append(f"{raw}: could not be read ({exc.__class__.__name__})")
            return None

    def _narrow_by(self, t: Term) -> None:
        """Note the kind every result has, when a term of the top-level AND says it: a
        `kind:`, or an attribute that only one kind of the game has (attributes are exactly
        those of the card's kind, validated on every write, and every attribute term but a
        NOT needs the card to have the attribute)."""
        key = t.key.lower()
        if key == "kind":
            if t.op in (":", "="):
                self.narrow.setdefault("kind", _norm_choice(self._value(t)))
            return
        if self.game is None or key in COMMON_KEYS or key not in self.attrs:
            return
        kinds = [kind for kind, schema in self.game.kinds.items() if key in schema.keys()]
        if len(kinds) == 1 and "kind" not in self.narrow:
            self.narrow["kind"] = self.implied["kind"] = kinds[0]

    # -- bare words and phrases -----------------------------------------------------------
    def word(self, node: Word, positive: bool, top: bool = False) -> tuple[Q, str]:
        text = node.text
        shown = f'"{text}"' if node.phrase else text
        letters = "".join(re.findall(r"[^\W_]+", text))
        if len(letters) < WORD_MIN:
            what = "a phrase" if node.phrase else "a word"
            raise _Drop(
                f"'{shown}': too short, ignored ({what} needs at least {WORD_MIN} letters or "
                "digits; there are no wildcards: words already match the start of words)"
            )
        if not self.pg:
            q = Q(IContains(F("name"), text)) | Q(IContains(F("text"), text))
            close = close_name_ids(text, self.game_slug) if node.text and not node.phrase else []
            return (q | Q(pk__in=close) if close else q), shown
        if positive and not node.phrase:
            # Bare words rank by how well the name matches; a phrase is an exact filter, and
            # ranking its (often many) matches would cost a pass over all of them.
            self.rank_words.append(text)
        if node.phrase:
            words = {w.lower() for w in re.findall(r"[^\W_]+", text)}
            if words - STOP_WORDS:
                # The phrase as written in the name or text, found through the full-text
                # index (its words) and checked on those cards only.
                return Q(_PhraseMatch(text, direct=top, game=self.game_slug)), shown
            # Nothing a full-text query can hold: a substring of the name or the text.
            return _contains_ci("name", text, pg=True) | _contains_ci("text", text, pg=True), shown
        lexemes = re.findall(r"[^\W_]+", text)
        if lexemes and all(lex.lower() in STOP_WORDS for lex in lexemes):
            # "in", "of", "the": the full-text index holds no such word, so it could only
            # match nothing; the rest of the query is searched without it.
            raise _Drop(f"'{text}': a common word, ignored")
        fuzzy = len("".join(lexemes)) >= FUZZY_MIN
        # A short word ("hq") as a prefix matches nearly every card, and has no trigram:
        # it is matched as a whole word only.
        star = ":*" if fuzzy else ""
        tsquery = " & ".join(f"'{lex}'{star}" for lex in lexemes) if lexemes else None
        if not fuzzy:
            self.problems.append(
                f"'{text}': a short word, matched as a whole word only (not as the start "
                "of longer words, nor with typos)"
            )
        return Q(_WordMatch(text, tsquery, game=self.game_slug, fuzzy=fuzzy)), shown

    # -- key terms --------------------------------------------------------------------------
    def term(self, t: Term) -> tuple[Q, str]:
        key = t.key.lower()
        if key in COMMON_KEYS:
            return self.common(COMMON_KEYS[key], t)
        if key in self.attrs:
            return self.attribute(key, self.attrs[key], t)
        where = self.elsewhere.get(key)
        if where and self.game:
            raise _Drop(
                f"'{key}' is not a key of {self.game.name} (it is a key of {', '.join(where)})"
            )
        known = list(COMMON_KEYS) + list(self.attrs)
        raise _Drop(f"unknown key '{t.key}'{_suggest(key, known)}")

    def _value(self, t: Term) -> str:
        value = " ".join(t.value.split())
        if not value:
            raise _Drop(f"{t.raw}: missing a value after {t.op}")
        return value

    def _equality_only(self, t: Term, key: str) -> None:
        if t.op in COMPARISONS:
            raise _Drop(f"{t.raw}: {key} takes : = or != (not {t.op})")

    def common(self, key: str, t: Term) -> tuple[Q, str]:
        value = self._value(t)
        op = t.op
        if key == "cost":
            number = _parse_int(t, "cost")
            lookup = {
                ":": "exact",
                "=": "exact",
                "!=": "exact",
                "<": "lt",
                "<=": "lte",
                ">": "gt",
                ">=": "gte",
            }[op]
            q = Q(**{f"cost__{lookup}": number})
            return (~q if op == "!=" else q), f"cost{op}{number}"
        self._equality_only(t, key)
        if key in ("name", "text"):
            if op == ":":
                q = _contains_ci(key, value, self.pg)
            elif key == "name":
                q = Q(Exact(Lower("name"), value.lower()))  # the card_lower_name index
            else:
                q = Q(IExact(F("text"), value))
            shown_op = op
        elif key == "kind":
            value = _norm_choice(value)
            if value not in self.kinds:
                where = f" of {self.game.name}" if self.game else ""
                raise _Drop(
                    f"{t.raw}: not a kind{where}{_suggest(value, self.kinds)}"
                    f" (kinds: {', '.join(sorted(self.kinds))})"
                )
            q, shown_op = Q(kind=value), ":" if op != "!=" else op
        elif key == "faction":
            value = _norm_choice(value)
            if not self.factions:
                raise _Drop(
                    f"{t.raw}: {self.game.name if self.game else 'no game'} has no factions"
                )
            if value not in self.factions:
                raise _Drop(
                    f"{t.raw}: not a faction{_suggest(value, self.factions)}"
                    f" (factions: {', '.join(sorted(self.factions))})"
                )
            q, shown_op = Q(faction=value), ":" if op != "!=" else op
        elif key == "set":
            from .models import Printing

            q = Q(
                Exists(Printing.objects.filter(card=OuterRef("pk"), expansion__code__iexact=value))
            )
            shown_op = ":" if op != "!=" else op
        else:  # game
            value = value.lower()
            if value not in registry:
                raise _Drop(f"{t.raw}: no such game{_suggest(value, registry.slugs())}")
            q, shown_op = Q(game__slug=value), ":" if op != "!=" else op
        return (~q if op == "!=" else q), f"{key}{shown_op}{_fmt_value(value)}"

    def attribute(self, key: str, attrs: list[Any], t: Term) -> tuple[Q, str]:
        """An attribute of the game's kinds; with several games, one Q per attribute type."""
        self._value(t)
        by_type: dict[str, list[Any]] = {}
        for a in attrs:
            by_type.setdefault(a.type if a.type != "list" else f"list_{a.item_type}", []).append(a)
        results: list[tuple[Q, str]] = []
        errors: list[str] = []
        for typ, group in by_type.items():
            try:
                results.append(self.typed(key, typ, group, t))
            except _Drop as exc:
                errors.append(str(exc))
        if not results:
            raise _Drop(errors[0])
        q = results[0][0]
        for other, _ in results[1:]:
            q |= other
        return q, results[0][1]

    def typed(self, key: str, typ: str, attrs: list[Any], t: Term) -> tuple[Q, str]:
        op = t.op
        value = self._value(t)
        has_key = Q(HasKey(F("attributes"), key))
        if typ == "int":
            number = _parse_int(t, key)
            shown = f"{key}{'=' if op == ':' else op}{number}"
            if op in (":", "="):
                return self._equals(key, number), shown
            if self.pg:
                return Q(_NumberCompare(key, op, number)), shown
            if op == "!=":
                return has_key & ~self._equals(key, number), shown
            return Q(_SqliteScalar(key, op, number)), shown
        if typ == "bool":
            self._equality_only(t, key)
            flag = _parse_bool(t)
            if op == "!=":
                flag = not flag
            return self._equals(key, flag), f"{key}:{'true' if flag else 'false'}"
        if typ == "choice":
            choice = _norm_choice(value)
            valid = [c for a in attrs for c in a.choices]
            if choice not in valid:
                raise _Drop(
                    f"{t.raw}: not one of {', '.join(dict.fromkeys(valid))}"
                    f"{_suggest(choice, valid)}"
                )
            if op in (":", "=", "!="):
                q = self._equals(key, choice)
                if op == "!=":
                    q = has_key & ~q
                return q, f"{key}{':' if op == '=' else op}{choice}"
            # Choices are ordered (ratings, distances, classes): compare by position.
            picked: list[str] = []
            for a in attrs:
                if choice not in a.choices:
                    continue
                pos = a.choices.index(choice)
                for i, c in enumerate(a.choices):
                    if {"<": i < pos, "<=": i <= pos, ">": i > pos, ">=": i >= pos}[op]:
                        picked.append(c)
            q = _nothing()
            for c in dict.fromkeys(picked):
                q |= self._equals(key, c)
            return q, f"{key}{op}{choice}"
        if typ in ("choice_list", "list_str", "list_int"):
            self._equality_only(t, key)
            if typ == "choice_list":
                item: Any = _norm_choice(value)
                valid = [c for a in attrs for c in a.choices]
                if item not in valid:
                    raise _Drop(
                        f"{t.raw}: not one of {', '.join(dict.fromkeys(valid))}"
                        f"{_suggest(item, valid)}"
                    )
            elif typ == "list_int":
                item = _parse_int(t, key)
            else:
                item = value
            q = self._list_has(key, item, case_insensitive=typ == "list_str")
            if op == "!=":
                q = has_key & ~q
            return q, f"{key}{':' if op == '=' else op}{_fmt_value(str(item))}"
        # str, dict, dict_list: text containment (exact with =)
        self._equality_only(t, key)
        text = KeyTextTransform(key, "attributes")
        if op == ":" or typ != "str":
            q = Q(IContains(text, value))
        else:
            q = Q(IExact(text, value))
        if op == "!=":
            q = has_key & ~q
        return q, f"{key}{op}{_fmt_value(value)}"

    def _equals(self, key: str, value: Any) -> Q:
        """attributes.<key> equals a JSON scalar: containment on PostgreSQL (GIN-indexed)."""
        if self.pg:
            return Q(_Contains(F("attributes"), {key: value}))
        return Q(_SqliteScalar(key, "=", value))

    def _list_has(self, key: str, item: Any, case_insensitive: bool) -> Q:
        if self.pg:
            if not case_insensitive:
                return Q(_Contains(F("attributes"), {key: [item]}))
            # Any case, as stored in practice: as typed, lower, UPPER, Capitalised, Title Case.
            # Each variant is a containment test served by the GIN index (a BitmapOr).
            text = str(item)
            # The likeliest first: a row that matches stops at the first test that holds.
            variants = dict.fromkeys(
                (text.capitalize(), text.title(), text, text.lower(), text.upper())
            )
            q = _nothing()
            for v in variants:
                q |= Q(_Contains(F("attributes"), {key: [v]}))
            return q
        return Q(_SqliteListHas(key, item))


def _wrapped(text: str) -> bool:
    """True when the whole text is one parenthesised group."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


# --------------------------------------------------------------------------------------------
# Entry point


def search_cards(*, query: str, queryset: QuerySet, game_slug: str | None = None) -> SearchResult:
    """Filter `queryset` (of Card) by a query in the search language. Never raises: terms that
    cannot be used are dropped and explained in `problems`; `read_as` is how it was read."""
    problems: list[str] = []
    try:
        tree, problems = parse(query or "")
        if tree is None:
            return SearchResult(queryset, "", problems)
        db = queryset.db if hasattr(queryset, "db") else router.db_for_read(queryset.model)
        pg = connections[db].vendor == "postgresql"
        compiler = _Compiler(game_slug or None, pg, problems)
        compiled = compiler.compile(tree)
        if compiled is None:
            return SearchResult(queryset, "", problems)
        q, read_as = compiled
        qs = queryset.filter(q)
        if compiler.implied:
            # Said outright, the kind an attribute implies takes the count and the page to
            # the index on game and kind: the planner cannot know that `efreet_class` only
            # exists on efreets, and otherwise may test it on every card of the game.
            qs = qs.filter(**compiler.implied)
        ranked = bool(pg and compiler.rank_words)
        if ranked:
            qs = _order_by_rank(qs, compiler.rank_words)
        return SearchResult(
            qs, read_as, problems, condition=q, ranked=ranked, narrow=compiler.narrow
        )
    except Exception as exc:  # noqa: BLE001 - the last guard: a search never raises
        problems.append(f"the query could not be read ({exc.__class__.__name__}); showing all")
        return SearchResult(queryset, "", problems)


def _order_by_rank(qs: QuerySet, words: list[str]) -> QuerySet:
    """Best name matches first, then the queryset's own ordering (callers may re-order)."""
    rank = None
    for w in words[:8]:
        part = TrigramWordSimilarity(Value(w), "name")
        rank = part if rank is None else rank + part
    existing = list(qs.query.order_by) or list(qs.model._meta.ordering)
    if "pk" not in existing and "id" not in existing:
        existing.append("pk")
    if qs.query.distinct:
        # SELECT DISTINCT needs ORDER BY expressions in the select list.
        return qs.annotate(search_rank=rank).order_by(F("search_rank").desc(), *existing)
    return qs.alias(search_rank=rank).order_by(F("search_rank").desc(), *existing)


# --------------------------------------------------------------------------------------------
# Pages of dense results

#: A page is found by walking the cards in name order when the results are at least this
#: share of the cards searched, reading at most WALK_MAX_ROWS cards; the window read is the
#: expected number of cards before the page's last result, times WALK_MARGIN, plus a page.
WALK_MIN_SHARE = 0.04
WALK_MAX_ROWS = 3000
WALK_MARGIN = 1.5
#: How long the number of cards searched (the sizing hint of the walk) is kept, in seconds.
SCOPE_TTL = 300


#: Orders of a page that a walk can follow: by name (unique within a game), then by id.
WALK_ORDERS = (("name",), ("name", "id"), ("name", "pk"))


def walk_page(
    *,
    base: QuerySet,
    condition: Q | None,
    ordering: Iterable[Any],
    offset: int,
    limit: int,
    count: int,
    narrow: dict[str, Any] | None = None,
) -> list[Any] | None:
    """The cards of results `offset` to `offset + limit` of a search, in (name, id) order,
    found by reading the searched cards (`base`, the queryset before the search) in that
    order and testing the search's `condition` on each, in one statement with no other
    condition; None when this does not apply (`ordering`, the order of the caller's page, is
    not by name; results ranked by name match are not), and the caller runs its usual page
    query.

    Why: PostgreSQL multiplies the selectivities of a game and of attribute conditions as if
    they were independent (edges and movement only exist on the cards of one game), so for a
    search matching thousands of cards it expects a handful, reads every match through the
    indexes and sorts them all to show fifty. When the count (known before the page) says
    the matches are dense, reading the name index in order finds a page after a few hundred
    cards. The result is exact: the window is a prefix of the order, so the hits in it are
    the first results; when it holds too few, None. `narrow`: column equalities every
    result satisfies (`SearchResult.narrow`), so that only those cards are read.

    `base` must be the cards of one game: its name index gives the order."""
    if condition is None or limit <= 0 or count <= offset:
        return None
    if tuple(ordering) not in WALK_ORDERS:
        return None
    if connections[base.db].vendor != "postgresql" or base.query.distinct:
        return None
    if narrow:
        base = base.filter(**narrow)
    scope = _scope_count(base)
    if scope <= 0 or count < WALK_MIN_SHARE * scope:
        return None
    need = min(offset + limit, count)
    window = math.ceil(need * max(scope, count) / count * WALK_MARGIN) + limit
    if window > WALK_MAX_ROWS:
        return None
    # The window of cards in name order, the condition as a column: a subquery with a LIMIT,
    # which PostgreSQL plans on its own (the name index, read in order, stops after
    # `window` cards), and the hits among them, whole rows, in the same order.
    hit = ExpressionWrapper(condition, output_field=BooleanField())
    inner = (
        base.select_related(None)
        .prefetch_related(None)
        .order_by("name", "id")
        .annotate(search_hit=hit)[:window]
    )
    inner_sql, params = inner.query.sql_with_params()
    sql = (
        f"SELECT * FROM ({inner_sql}) AS walk WHERE walk.search_hit "
        "ORDER BY walk.name, walk.id OFFSET %s LIMIT %s"
    )
    cards = list(base.model.objects.db_manager(base.db).raw(sql, (*params, offset, limit)))
    # Exact when the page is whole (the count says how many it holds): the window is a
    # prefix of the order, so its hits are the first results. Otherwise it held too few.
    if len(cards) != min(limit, count - offset):
        return None
    return cards


def _scope_count(base: QuerySet) -> int:
    """How many cards `base` holds, kept SCOPE_TTL seconds (only a hint: a stale number
    makes the window too large, which costs a little, or too small, which falls back)."""
    sql, params = base.order_by().values("id").query.sql_with_params()
    digest = hashlib.sha256(repr((base.db, sql, params)).encode()).hexdigest()
    key = f"catalogue:search-scope:{digest}"
    scope = cache.get(key)
    if scope is None:
        scope = base.order_by().count()
        cache.set(key, scope, SCOPE_TTL)
    return scope
