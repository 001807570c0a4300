"""The key terms of a search (`cost>=3`, `faction:red`, `banned:yes`, a typed attribute)
turned into conditions: `_KeyTerms`, the part of the compiler that reads a term's value by
its key's type."""

from __future__ import annotations

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

from validation.registry import GameDef, registry

from .. import rulesets
from ..models import Printing, RuleSet, RuleSetCard
from .expressions import (
    _Contains,
    _contains_ci,
    _nothing,
    _NumberCompare,
    _SqliteListHas,
    _SqliteScalar,
)
from .language import (
    COMPARISONS,
    Term,
)
from .values import (
    _any_fitting,
    _Drop,
    _fmt_value,
    _norm_choice,
    _parse_bool,
    _parse_int,
    _value_drop,
)


class _KeyTerms:
    """The conditions of key terms, for `compiler._Compiler` (which sets what they read)."""

    pg: bool
    game: GameDef | None
    game_slug: str | None
    kinds: set[str]
    factions: set[str]
    attrs: dict[str, list[Any]]
    kind_labels: dict[str, str]

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
