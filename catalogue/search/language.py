"""The query language's constants, its tokens, its AST and the parser (steps 1 and 2 of
catalogue.search)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Q,
    QuerySet,
)

# Limits that keep hostile input cheap. A query over MAX_QUERY_CHARS characters, with more
# than MAX_TERMS terms or a word longer than MAX_WORD_CHARS is refused with a message
# (`query_error`): each letter of a word costs the trigram and full-text indexes work, and
# no card name or rules text has a word that long. The parser itself still cuts what it is
# given to these limits and flattens deeper nesting, should a caller skip the check.

MAX_QUERY_CHARS = 1000
MAX_TERMS = 12
MAX_WORD_CHARS = 64
MAX_DEPTH = 12
MAX_NUMBER = 10**9
# Whole-name trigram similarity (typo forgiveness) for bare words of at least this length.
TYPO_MIN = 6
# Letters and digits a bare word or a phrase needs to be searched at all (a single letter
# matches the prefix of nearly every card and has no trigram an index can use), and to be
# matched fuzzily by trigrams (a shorter word has no trigram of its own).
WORD_MIN = 2
FUZZY_MIN = 3

# The full-text configuration, and the column holding every card's document
# (`to_tsvector('english', name || ' ' || text)`, stored by migration 0012 and indexed).
FTS_CONFIG = "english"
DOCUMENT_COLUMN = "search_document"

#: Results are counted up to this many (a LIMITed subquery): a search matching more says
#: "more than 10,000". A search of words or text that matches more, by its sample
#: (`paging.estimate_matches`), is neither counted nor ranked: it is shown in name order.
COUNT_CAP = 10_000

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
    # A format's rule set in effect today (catalogue.rulesets): legal in it, banned, limited.
    "legal": "legal",
    "banned": "banned",
    "restricted": "restricted",
}


@dataclass(frozen=True)
class Dropped:
    """A term of a query that was not used: where it starts (the character's position in
    the query, from 1), the term as written, and why; when a near value or key was offered
    ("did you mean …?"), `suggestion` is it and `correction` the term rewritten with it."""

    position: int
    text: str
    why: str
    suggestion: str = ""
    correction: str = ""

    def __str__(self) -> str:
        return f"{self.text!r} (at character {self.position}): {self.why}"


@dataclass(frozen=True)
class Estimate:
    """How many cards a search matches, from a sample: between `low` and `high` with near
    certainty (SAMPLE_CONFIDENCE), `hits` of the `sampled` cards tested matching, among
    `scope` cards searched."""

    low: int
    high: int
    hits: int
    sampled: int
    scope: int
    #: The sampled cards each of the conditions asked for on its own matches.
    part_hits: tuple[int, ...] = ()

    @property
    def past_cap(self) -> bool:
        """Surely more than COUNT_CAP cards match: the search is neither counted nor
        ranked, and its results are read with each card tested on its own row."""
        return self.low > COUNT_CAP

    @property
    def about(self) -> int:
        """The estimate, to two significant figures."""
        middle = self.hits / self.sampled * self.scope
        if middle < 100:
            return round(middle)
        digits = 10 ** (len(str(round(middle))) - 2)
        return round(middle / digits) * digits


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
    # For ranked results (`ranked`): the words ranked, and, when a name holding each of them
    # as a whole word (their best rank) is proven to match them, the query's other
    # conditions (None: no such proof): the first pages are then the best-ranked cards in
    # name order (`ranked_walk_page`).
    rank_words: list[str] = field(default_factory=list)
    rest: Q | None = None
    # Why the query was refused (`query_error`): then `queryset` is empty and callers answer
    # the message (the API a 400 on `q`).
    error: str = ""
    # The terms left out (each also said in `problems`), with where they start: a caller that
    # must use every term (the tuner) refuses a query with any.
    dropped: list[Dropped] = field(default_factory=list)
    # The query with each dropped term that has a correction rewritten with it ("" when none
    # has): the search its "did you mean …?" links to.
    corrected_query: str = ""
    # How many cards a search of words or text matches, from a sample, among the cards of
    # a large game (`paging.estimate_matches`): more than COUNT_CAP are not counted, and
    # not ranked.
    estimate: Estimate | None = None


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
    start: int = 0  # where it starts in the query (0-based)


@dataclass
class Word:
    text: str
    phrase: bool = False
    start: int = field(default=0, compare=False)


@dataclass
class Term:
    key: str
    op: str
    value: str
    quoted: bool
    raw: str
    start: int = field(default=0, compare=False)


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


def query_error(query: Any) -> str | None:
    """Why the query is refused (too long, too many terms, a word too long), or None. Cheap
    whatever the input: the length is checked before anything is read."""
    if not isinstance(query, str):
        query = "" if query is None else str(query)
    if len(query) > MAX_QUERY_CHARS:
        return (
            f"The search is {len(query):,} characters long; "
            f"at most {MAX_QUERY_CHARS:,} are allowed."
        )
    text = _clean_text(query)
    tokens, _ = tokenize(text, max_terms=MAX_TERMS + 1)
    terms = [t for t in tokens if t.type in ("term", "word", "phrase")]
    if len(terms) > MAX_TERMS:
        return f"The search has more than {MAX_TERMS} terms; use at most {MAX_TERMS}."
    for token in terms:
        for word in token.value.split():
            if len(word) > MAX_WORD_CHARS:
                shown = word[:20] + "…"
                return (
                    f"The word {shown!r} is {len(word):,} characters long; "
                    f"a search word has at most {MAX_WORD_CHARS}."
                )
    return None


def tokenize(
    query: str, *, max_terms: int = MAX_TERMS, dropped: list[Dropped] | None = None
) -> tuple[list[Token], list[str]]:
    """Split a query into tokens; problems for what cannot be a token (never raises). A term
    left out is also added to `dropped`, with its position."""
    text = _clean_text(query)
    problems: list[str] = []
    dropped = [] if dropped is None else dropped
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
        if leaves >= max_terms:
            problems.append(f"too many terms: only the first {max_terms} are used")
            break
        if c in "()":
            tokens.append(Token(c, c))
            i += 1
            continue
        if c == '"':
            start = i
            value, i, closed = _read_quoted(text, i)
            if not closed:
                problems.append(f'unbalanced quote: "{value.strip()}" read as if closed at the end')
            if value.strip():
                tokens.append(
                    Token("phrase", f'"{value}"', value=" ".join(value.split()), start=start)
                )
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
            tokens.append(
                Token("term", raw, key=key, op=op, value=value, quoted=quoted, start=m.start())
            )
            leaves += 1
            continue
        start = i
        j = _read_bare(text, i)
        word, i = text[i:j], j
        low = word.lower()
        if low in ("or", "and", "not"):
            tokens.append(Token(low, word))
        elif word[0] in ":=<>!":
            why = f"an operator needs a key before it (e.g. cost{word})"
            problems.append(f"'{word}': {why}")
            dropped.append(Dropped(start + 1, word, why))
        else:
            tokens.append(Token("word", word, value=word, start=start))
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
            return Term(tok.key, tok.op, tok.value, tok.quoted, tok.text, start=tok.start)
        if tok.type == "phrase":
            return Word(tok.value, phrase=True, start=tok.start)
        return Word(tok.value, start=tok.start)


def _join(cls: type[And] | type[Or], parts: Iterable[Node | None]) -> Node | None:
    kept: list[Node] = []
    for p in parts:
        if p is None:
            continue
        kept.extend(p.children if isinstance(p, cls) else [p])
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else cls(kept)


def parse(query: str, dropped: list[Dropped] | None = None) -> tuple[Node | None, list[str]]:
    """The AST of a query (None when it holds nothing usable) and the problems met (a term
    left out is also added to `dropped`)."""
    tokens, problems = tokenize(query, dropped=dropped)
    return _Parser(tokens, problems).parse(), problems
