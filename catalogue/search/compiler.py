"""Step 3 of catalogue.search: checking terms against the game's keys and turning the AST
into a `Q` (terms that cannot be used are dropped with a problem)."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import (
    F,
    Q,
)
from django.db.models.lookups import IContains

from validation.registry import registry
from validation.schema import label_key

from .expressions import (
    STOP_WORDS,
    _AnyOf,
    _contains_ci,
    _has_id_subquery,
    _PhraseMatch,
    _WordMatch,
)
from .key_terms import _KeyTerms
from .language import (
    COMMON_KEYS,
    FUZZY_MIN,
    WORD_MIN,
    And,
    Dropped,
    Node,
    Not,
    Or,
    Term,
    Word,
)
from .values import (
    _any_fitting,
    _closest,
    _Drop,
    _norm_choice,
    close_name_ids,
    suggestion_words,
)

# --------------------------------------------------------------------------------------------
# Compiling the AST


class _Compiler(_KeyTerms):
    def __init__(
        self,
        game_slug: str | None,
        pg: bool,
        problems: list[str],
        dropped: list[Dropped] | None = None,
    ) -> None:
        self.pg = pg
        self.problems = problems
        #: The terms left out, with where they start (each also said in `problems`).
        self.dropped: list[Dropped] = [] if dropped is None else dropped
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
        #: The labels people see, read as keys (validation.schema.label_key): an attribute's
        #: label -> the keys of the attributes shown with it ("class" -> the kinds' *_class),
        #: a kind's label -> the kind ("command_card" -> command).
        self.labels: dict[str, list[str]] = {}
        self.kind_labels: dict[str, str] = {}
        for g in games:
            self.kinds.update(g.kinds)
            self.factions.update(g.factions)
            for kind, schema in g.kinds.items():
                self.kind_labels.setdefault(label_key(schema.label), kind)
                for a in schema.attrs:
                    group = self.attrs.setdefault(a.key, [])
                    if a not in group:
                        group.append(a)
                    keys = self.labels.setdefault(label_key(a.label), [])
                    if a.key not in keys:
                        keys.append(a.key)
        # A label that is a key itself, or a common key, stays that key.
        for taken in (*self.attrs, *COMMON_KEYS):
            self.labels.pop(taken, None)
        for kind in self.kinds:
            self.kind_labels.pop(kind, None)
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
        #: The conditions of the words of the top-level AND that their ranking alone proves
        #: (fuzzy bare words: a name holding each of them as a whole word matches them), and
        #: the query's other conditions when it is such an AND (None: it is not).
        self.top_words: list[Q] = []
        self.rest: list[Q] | None = None
        self._root: Node | None = None
        self.narrow: dict[str, str] = {}
        # The part of `narrow` the query does not say itself (a kind implied by an attribute).
        self.implied: dict[str, str] = {}

    # -- tree ---------------------------------------------------------------------------
    def compile(self, node: Node, positive: bool = True, top: bool = True) -> tuple[Q, str] | None:
        """`top`: the node is a condition of the top-level AND (not under an OR or a NOT)."""
        if self._root is None:
            self._root = node
        if isinstance(node, And | Or):
            inner_top = top and isinstance(node, And)
            parts = [self.compile(c, positive, inner_top) for c in node.children]
            kept: list[tuple[Q, str]] = []
            for part in parts:
                # A condition said twice ("hawk hawk") is one: each copy of a word would be
                # one more id subquery, and the planner, taking them as independent, expects
                # next to no match and plans the statement for that.
                if part is not None and not any(part[0] == k for k, _ in kept):
                    kept.append(part)
            if not kept:
                return None
            if node is self._root and isinstance(node, And):
                self.rest = [q for q, _ in kept if not any(q is w for w in self.top_words)]
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
                compiled = self.word(node, positive, top)
                if node is self._root:
                    self.rest = []
                return compiled
            compiled = self.term(node)
            if top:
                self._narrow_by(node)
            return compiled
        except _Drop as exc:
            self.problems.append(str(exc))
            self._dropped(node, str(exc), exc.suggestion, exc.correction)
            return None
        except Exception as exc:  # noqa: BLE001 - a search never fails on a term
            raw = node.raw if isinstance(node, Term) else node.text
            why = f"could not be read ({exc.__class__.__name__})"
            self.problems.append(f"{raw}: {why}")
            self._dropped(node, why)
            return None

    def _dropped(
        self, node: Term | Word, why: str, suggestion: str = "", correction: str = ""
    ) -> None:
        raw = (
            node.raw if isinstance(node, Term) else (f'"{node.text}"' if node.phrase else node.text)
        )
        self.dropped.append(Dropped(node.start + 1, raw, why, suggestion, correction))

    def _narrow_by(self, t: Term) -> None:
        """Note the kind every result has, when a term of the top-level AND says it: a
        `kind:`, or an attribute that only one kind of the game has (attributes are exactly
        those of the card's kind, validated on every write, and every attribute term but a
        NOT needs the card to have the attribute)."""
        key = t.key.lower()
        if key == "kind":
            if t.op in (":", "="):
                value = _norm_choice(self._value(t))
                self.narrow.setdefault("kind", self.kind_labels.get(value, value))
            return
        if key not in self.attrs and len(self.labels.get(key, ())) == 1:
            key = self.labels[key][0]  # a label shown with one attribute only
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
        q = Q(_WordMatch(text, tsquery, game=self.game_slug, fuzzy=fuzzy))
        if top and positive and fuzzy:
            self.top_words.append(q)
        return q, shown

    # -- key terms --------------------------------------------------------------------------
    def term(self, t: Term) -> tuple[Q, str]:
        key = t.key.lower()
        if key in COMMON_KEYS:
            return self.common(COMMON_KEYS[key], t)
        if key in self.attrs:
            return self.attribute(key, self.attrs[key], t)
        if key in self.labels:
            return self.labelled(self.labels[key], t)
        where = self.elsewhere.get(key)
        if where and self.game:
            raise _Drop(
                f"'{key}' is not a key of {self.game.name} (it is a key of {', '.join(where)})"
            )
        known = list(COMMON_KEYS) + list(self.attrs) + list(self.labels)
        close = _closest(key, known)
        if close:
            raise _Drop(
                f"unknown key '{t.key}'{suggestion_words(close)}",
                close,
                close + t.raw[len(t.key) :],
            )
        raise _Drop(f"unknown key '{t.key}'")

    def labelled(self, keys: list[str], t: Term) -> tuple[Q, str]:
        """A term whose key is a label people see (`class:submarine` where cards show
        "Class submarine"): the attributes shown with that label, the ones whose values it
        fits (a label several kinds use for different attributes, any of them)."""
        q, shown = _any_fitting(keys, lambda key: self.attribute(key, self.attrs[key], t))
        return q, shown[0] if len(shown) == 1 else "(" + " OR ".join(shown) + ")"


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
