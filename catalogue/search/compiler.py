"""Step 3 of catalogue.search: checking terms against the game's keys and turning the AST
into a `Q` (terms that cannot be used are dropped with a problem)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import (
    Exists,
    F,
    OuterRef,
    Q,
)
from django.db.models.fields.json import HasKey, KeyTextTransform
from django.db.models.functions import Lower
from django.db.models.lookups import Exact, IContains, IExact

from validation.registry import registry
from validation.schema import label_key

from .. import rulesets
from ..models import Card, Printing, RuleSet, RuleSetCard
from .expressions import (
    STOP_WORDS,
    _AnyOf,
    _Contains,
    _contains_ci,
    _has_id_subquery,
    _nothing,
    _NumberCompare,
    _PhraseMatch,
    _SqliteListHas,
    _SqliteScalar,
    _WordMatch,
)
from .language import (
    COMMON_KEYS,
    COMPARISONS,
    FALSE_WORDS,
    FUZZY_MIN,
    MAX_NUMBER,
    TRUE_WORDS,
    WORD_MIN,
    And,
    Dropped,
    Node,
    Not,
    Or,
    Term,
    Word,
)

# --------------------------------------------------------------------------------------------
# Compiling the AST


class _Drop(Exception):
    """A term that cannot be used; the message says what and why. `suggestion` is the word
    offered instead ("did you mean …?"), `correction` the term rewritten with it."""

    def __init__(self, message: str, suggestion: str = "", correction: str = "") -> None:
        super().__init__(message)
        self.suggestion = suggestion
        self.correction = correction


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
    at least CLOSE_CUTOFF): a name typed with one letter left out is found. The fallback for databases without
    trigram indexes (SQLite, the embedded default); one query over the game's names."""
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


def _closest(word: str, candidates: Iterable[str]) -> str:
    """The candidate nearest to `word` ("" when none is near enough)."""
    close = difflib.get_close_matches(word.lower(), list(candidates), n=1, cutoff=0.6)
    return close[0] if close else ""


def suggestion_words(suggestion: str) -> str:
    """How a problem offers `suggestion` (searched for in the problem's text to link it)."""
    return f" — did you mean {suggestion}?"


def _value_drop(
    t: Term, message: str, value: str, candidates: Iterable[str], tail: str = ""
) -> _Drop:
    """A term whose value is not one of `candidates`: `message`, the nearest of them offered,
    then `tail`; the term rewritten to the one offered (its key and operator as typed)."""
    close = _closest(value, candidates)
    if not close:
        return _Drop(message + tail)
    return _Drop(
        message + suggestion_words(close) + tail,
        close,
        f"{t.raw[: len(t.key) + len(t.op)]}{close}",
    )


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


def _any_fitting(
    items: Iterable[Any], reading: Callable[[Any], tuple[Q, str]]
) -> tuple[Q, list[str]]:
    """`reading` of each item, those that fit OR-ed, with each one's text; when none fits
    (each raised _Drop), the first one's reason."""
    results: list[tuple[Q, str]] = []
    errors: list[str] = []
    for item in items:
        try:
            results.append(reading(item))
        except _Drop as exc:
            errors.append(str(exc))
    if not results:
        raise _Drop(errors[0])
    q = results[0][0]
    for other, _ in results[1:]:
        q |= other
    return q, [text for _, text in results]


class _Compiler:
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
            value = self.kind_labels.get(value, value)
            if value not in self.kinds:
                where = f" of {self.game.name}" if self.game else ""
                raise _value_drop(
                    t,
                    f"{t.raw}: not a kind{where}",
                    value,
                    self.kinds,
                    f" (kinds: {', '.join(sorted(self.kinds))})",
                )
            q, shown_op = Q(kind=value), ":" if op != "!=" else op
        elif key == "faction":
            value = _norm_choice(value)
            if not self.factions:
                raise _Drop(
                    f"{t.raw}: {self.game.name if self.game else 'no game'} has no factions"
                )
            if value not in self.factions:
                raise _value_drop(
                    t,
                    f"{t.raw}: not a faction",
                    value,
                    self.factions,
                    f" (factions: {', '.join(sorted(self.factions))})",
                )
            q, shown_op = Q(faction=value), ":" if op != "!=" else op
        elif key in ("legal", "banned", "restricted"):
            q, value = self.rule_set_term(key, t)
            shown_op = ":" if op != "!=" else op
        elif key == "set":
            q = Q(
                Exists(Printing.objects.filter(card=OuterRef("pk"), expansion__code__iexact=value))
            )
            shown_op = ":" if op != "!=" else op
        else:  # game
            value = value.lower()
            if value not in registry:
                raise _value_drop(t, f"{t.raw}: no such game", value, registry.slugs())
            q, shown_op = Q(game__slug=value), ":" if op != "!=" else op
        return (~q if op == "!=" else q), f"{key}{shown_op}{_fmt_value(value)}"

    def rule_set_term(self, key: str, t: Term) -> tuple[Q, str]:
        """`legal:<format>`, `banned:<format>`, `restricted:<format>` under the format's rule
        set in effect today, in the game searched (every game with that format when none): a
        card is legal when it is not banned and (when the rule set lists expansions) printed
        in one of them; restricted when the rule set gives it a copy limit. A game without a
        rule set in effect in that format: every card is legal, none banned or restricted."""
        value = _norm_choice(self._value(t)).replace("_", "-")
        games = [self.game] if self.game else registry.all()
        having = [g for g in games if value in g.formats]
        if not having:
            formats = sorted({f for g in games for f in g.formats})
            raise _value_drop(
                t, f"{t.raw}: not a format", value, formats, f" (formats: {', '.join(formats)})"
            )
        q = Q(pk__in=[])
        for g in having:
            rs = rulesets.in_force(g.slug, value)
            if rs is None:
                cond = Q(game__slug=g.slug) if key == "legal" else Q(pk__in=[])
            else:
                entries = RuleSetCard.objects.filter(card=OuterRef("pk"), rule_set_id=rs.pk)
                banned = Exists(entries.filter(banned=True))
                if key == "banned":
                    cond = Q(banned)
                elif key == "restricted":
                    cond = Q(Exists(entries.filter(limit__isnull=False)))
                else:
                    listed = RuleSet.expansions.through.objects.filter(ruleset_id=rs.pk)
                    printed = Printing.objects.filter(
                        card=OuterRef("pk"), expansion__rule_sets__pk=rs.pk
                    )
                    cond = ~Q(banned) & (~Q(Exists(listed)) | Q(Exists(printed)))
                cond &= Q(game__slug=g.slug)
            q |= cond
        return q, value

    def attribute(self, key: str, attrs: list[Any], t: Term) -> tuple[Q, str]:
        """An attribute of the game's kinds; with several games, one Q per attribute type."""
        self._value(t)
        by_type: dict[str, list[Any]] = {}
        for a in attrs:
            by_type.setdefault(a.type if a.type != "list" else f"list_{a.item_type}", []).append(a)
        q, shown = _any_fitting(
            by_type.items(), lambda group: self.typed(key, group[0], group[1], t)
        )
        return q, shown[0]

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
                raise _value_drop(
                    t, f"{t.raw}: not one of {', '.join(dict.fromkeys(valid))}", choice, valid
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
                    raise _value_drop(
                        t, f"{t.raw}: not one of {', '.join(dict.fromkeys(valid))}", item, valid
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
