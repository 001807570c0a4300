"""Card search: one query language for every game.

    kind:unit speed>=6 -faction:red (o:charge or keywords:ambush) "two words" word

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
   outside the choices) are dropped with a problem saying what and why. Every term left
   out (here or by the tokenizer: an operator without a key) is also in
   `SearchResult.dropped`, with the character of the query it starts at, for a caller that
   must use every term (the tuner refuses such a query).

On PostgreSQL bare words use full-text search over name and text (the stored column
`DOCUMENT_COLUMN`, prefix matching, indexed by migrations 0002 and 0012) or trigram
similarity over the name (typos forgiven), results ranked by how well the name matches
(a search of words or text matching more than COUNT_CAP cards of a large game, by a
sample, is not ranked: `paging.estimate_matches`); a quoted phrase is found
through the full-text index and checked as a substring of the name or of the text;
`name:`/`text:` are substring matches served by trigram indexes (the text through
`text_lower`, its copy folded to lower case when written, migration 0003); attribute equality and list
membership use JSONB containment (`@>`, GIN-indexed); comparisons of integer attributes
(`speed>=6`) use a btree index per integer key (migration 0004). An OR holding a bare word or
a phrase becomes one `id IN (SELECT ... UNION ALL SELECT ...)`, each part on its own index;
so does each word of an AND of words (or, beside a rarer word, it is tested on the rows the
rarer one finds). A word alone in the top-level AND is tested on the rows, which PostgreSQL
reads through its two indexes as one bitmap (`_WordMatch.direct`).
On SQLite the same queries fall back to plain substring and JSON1 lookups, and to a
forgiving name match in Python (difflib) for bare words.

The package: `language` (constants, tokens, AST, parser), `expressions` (the SQL pieces),
`compiler` (terms to `Q`), `paging` (pages of dense results by a walk in name order, the first
pages of ranked results by a walk among the names holding the words whole, deep pages by
their ids); this module holds the entry point, `search_cards`.

Cost is bounded whatever the query: a query longer than MAX_QUERY_CHARS, with more than
MAX_TERMS terms or a word longer than MAX_WORD_CHARS is refused with a message
(`SearchResult.error`, no results; the API answers 400 on `q`); a word or phrase with fewer
than WORD_MIN letters or digits (`a`, `*`) is dropped, a word shorter than FUZZY_MIN is
matched as a whole word (no prefix, no trigrams: it has none); every id subquery reads
the searched game's cards only (testing the game on the rows its own index finds, not
through the game's index). And PostgreSQL cancels any statement that still runs past
DB_STATEMENT_TIMEOUT_MS (cardsite.errors answers 503); a database error is never read as a
query that could not be read.
"""

from __future__ import annotations

from django.db import DatabaseError, connections, router
from django.db.models import F, Q, QuerySet

from .compiler import _Compiler, close_name_ids, suggestion_words
from .expressions import (
    RANKED_WORDS,
    ROW_TESTS,
    _only_expression,
    _WordMatch,
    number_sql,
    rank_expression,
    reads_text,
)
from .language import (
    COMMON_KEYS,
    COUNT_CAP,
    DOCUMENT_COLUMN,
    FTS_CONFIG,
    MAX_QUERY_CHARS,
    MAX_TERMS,
    MAX_WORD_CHARS,
    And,
    Dropped,
    Estimate,
    Not,
    Or,
    SearchResult,
    Term,
    Word,
    parse,
    query_error,
    tokenize,
)
from .paging import (
    after_page,
    deep_page,
    estimate_matches,
    follows_name_order,
    ranked_walk_page,
    walk_page,
)

__all__ = [
    "COMMON_KEYS",
    "COUNT_CAP",
    "DOCUMENT_COLUMN",
    "FTS_CONFIG",
    "MAX_QUERY_CHARS",
    "MAX_TERMS",
    "MAX_WORD_CHARS",
    "And",
    "Dropped",
    "Estimate",
    "Not",
    "Or",
    "SearchResult",
    "Term",
    "Word",
    "_Compiler",
    "after_page",
    "close_name_ids",
    "deep_page",
    "estimate_matches",
    "follows_name_order",
    "number_sql",
    "parse",
    "picked_kind_and_faction",
    "query_error",
    "ranked_walk_page",
    "search_cards",
    "suggestion_words",
    "tokenize",
    "walk_page",
]


# --------------------------------------------------------------------------------------------
# Entry point


#: Said when no term of a query could be used: no card is shown rather than all of them.
NOTHING_LEFT = "no term of the search could be used, so no card is shown"


def corrected_query(query: str, dropped: list[Dropped]) -> str:
    """`query` with each dropped term that has a correction rewritten with it ("" when none
    has): the search a "did you mean …?" offers."""
    out = query
    fixed = False
    for d in sorted(dropped, key=lambda d: d.position, reverse=True):
        start = d.position - 1
        if d.correction and out[start : start + len(d.text)] == d.text:
            out = out[:start] + d.correction + out[start + len(d.text) :]
            fixed = True
    return out if fixed else ""


def search_cards(*, query: str, queryset: QuerySet, game_slug: str | None = None) -> SearchResult:
    """Filter `queryset` (of Card) by a query in the search language. Never raises: terms that
    cannot be used are dropped and explained in `problems`; `read_as` is how it was read."""
    problems: list[str] = []
    dropped: list[Dropped] = []
    error = query_error(query or "")
    if error:
        return SearchResult(queryset.none(), "", [error], error=error)
    try:
        tree, problems = parse(query or "", dropped)
        if tree is None:
            return SearchResult(queryset, "", problems, dropped=dropped)
        db = queryset.db if hasattr(queryset, "db") else router.db_for_read(queryset.model)
        pg = connections[db].vendor == "postgresql"
        compiler = _Compiler(game_slug or None, pg, problems, dropped)
        compiled = compiler.compile(tree)
        dropped.sort(key=lambda d: d.position)  # the tokenizer's and the compiler's, in order
        if compiled is None:
            if dropped:
                # Every term was left out: the query asked for something, so not every card.
                problems.append(NOTHING_LEFT)
                return SearchResult(
                    queryset.none(),
                    "",
                    problems,
                    dropped=dropped,
                    corrected_query=corrected_query(query, dropped),
                )
            return SearchResult(queryset, "", problems, dropped=dropped)
        return _compiled_search(
            queryset,
            query,
            compiled,
            compiler,
            game_slug=game_slug,
            pg=pg,
            problems=problems,
            dropped=dropped,
        )
    except DatabaseError:
        # The database failed under the sample (lost, or the statement cancelled): a fault
        # of the service, answered as such (cardsite.errors), not a query read as nothing.
        raise
    except Exception as exc:  # noqa: BLE001 - the last guard: a search never raises
        why = f"the query could not be read ({exc.__class__.__name__}); showing all"
        problems.append(why)
        return SearchResult(queryset, "", problems, dropped=[Dropped(1, query or "", why)])


def _compiled_search(
    queryset: QuerySet,
    query: str,
    compiled: tuple[Q, str],
    compiler: _Compiler,
    *,
    game_slug: str | None,
    pg: bool,
    problems: list[str],
    dropped: list[Dropped],
) -> SearchResult:
    """The search's result once its query is compiled: the cards filtered by it, counted
    (an estimate first on a large game) and ranked by how well their names match its words,
    unless so many match that they are shown in name order."""
    q, read_as = compiled
    if pg and len(compiler.top_words) == 1:
        # The one word of the top-level AND: found through both its indexes at once.
        match = _only_expression(compiler.top_words[0])
        if isinstance(match, _WordMatch):
            match.direct = True
    ranked = bool(pg and compiler.rank_words)
    estimate = None
    if pg and game_slug and (ranked or reads_text(q)):
        # Counting and ranking read every match: a search of words or text matching
        # more than COUNT_CAP cards of a large game (by a sample) is not counted, and
        # not ranked but shown in name order.
        words = compiler.top_words if len(compiler.top_words) > 1 else []
        estimate = estimate_matches(queryset, q, words)
        if estimate is not None and words:
            _common_words_on_rows(words, estimate)
    qs = queryset.filter(q)
    if compiler.implied:
        # Said outright, the kind an attribute implies takes the count and the page to
        # the index on game and kind: the planner cannot know that an attribute only one
        # kind has exists on that kind's cards, and otherwise may test it on every card
        # of the game.
        qs = qs.filter(**compiler.implied)
    if estimate is not None and estimate.past_cap:
        if ranked:
            ranked = False
            problems.append(
                f"about {estimate.about:,} cards match: too many to rank by how well "
                "their names match (add a word or a filter to rank them)"
            )
            if not qs.query.order_by:
                qs = qs.order_by("name", "id")
        # So many match that every statement of the results (a page, a deep page's
        # ids) reads the cards in its order and tests each on its own row, rather than
        # finding every match's id first.
        setattr(qs.query, ROW_TESTS, True)
    rest: Q | None = None
    if ranked:
        qs = _order_by_rank(qs, compiler.rank_words)
        if compiler.rest is not None and len(compiler.rank_words) <= RANKED_WORDS:
            # Every word taken out of `rest` is ranked: at their best rank they match.
            rest = Q()
            for other in compiler.rest:
                rest &= other
    return SearchResult(
        qs,
        read_as,
        problems,
        condition=q,
        ranked=ranked,
        narrow=compiler.narrow,
        dropped=dropped,
        corrected_query=corrected_query(query, dropped),
        rank_words=compiler.rank_words[:RANKED_WORDS] if ranked else [],
        rest=rest,
        estimate=estimate,
    )


#: A word of an AND is found through the indexes, and the AND's other words tested on the
#: rows it finds, when the sample says it matches at most this many cards.
RAREST_WORD_MAX = 2000


def _common_words_on_rows(words: list[Q], estimate: Estimate) -> None:
    """Mark the words of an AND (`words`, each a Q of one `_WordMatch`) that the sample
    (`estimate.part_hits`) finds more often than the rarest to be tested on the rows the
    rarest finds (`_WordMatch.on_row`), when the rarest matches at most about
    RAREST_WORD_MAX cards. The results are the same either way; only the plan differs.

    Why: each word is an id subquery, and the planner, which cannot tell a rare word from a
    common one, reads every match of each ("suply drop": the one card of the first word,
    and the 39,000 of "drop", in a game of 347,826)."""
    hits = estimate.part_hits
    rarest = min(range(len(hits)), key=hits.__getitem__)
    # The sample's guess (a hit more than it saw): the results are exact either way, only
    # the plan differs, and a rare word is one the sample barely meets.
    if (hits[rarest] + 1) / estimate.sampled * estimate.scope > RAREST_WORD_MAX:
        return
    for word, count in zip(words, hits, strict=True):
        match = _only_expression(word)
        if count > hits[rarest] and isinstance(match, _WordMatch):
            match.on_row = True


def picked_kind_and_faction(queryset: QuerySet, game, *, kind: str, faction: str) -> QuerySet:
    """The cards of `queryset` of the kind and faction chosen in a search form's pickers
    (of `game`, a GameDef); a value the game does not have, or none, narrows nothing."""
    if kind in game.kinds:
        queryset = queryset.filter(kind=kind)
    if faction and faction in game.factions:
        queryset = queryset.filter(faction=faction)
    return queryset


def _order_by_rank(qs: QuerySet, words: list[str]) -> QuerySet:
    """Best name matches first, then the queryset's own ordering (callers may re-order)."""
    rank = rank_expression(words)
    existing = list(qs.query.order_by) or list(qs.model._meta.ordering)
    if "pk" not in existing and "id" not in existing:
        existing.append("pk")
    if qs.query.distinct:
        # SELECT DISTINCT needs ORDER BY expressions in the select list.
        return qs.annotate(search_rank=rank).order_by(F("search_rank").desc(), *existing)
    return qs.alias(search_rank=rank).order_by(F("search_rank").desc(), *existing)
