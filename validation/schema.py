"""Attribute schemas of card kinds.

A card *kind* (a REDLINE `efreet`, a Hex Skirmish `unit`) is a family of cards sharing the
same game-specific attributes. Its `KindSchema` lists those attributes (`Attr`) with their
types; the catalogue validates a card's JSON attributes against it on write, and the admin
and the importer build their forms from it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from validation.types import plain

AttrType = Literal["int", "bool", "str", "choice", "list", "choice_list", "dict", "dict_list"]

ATTR_TYPES: tuple[str, ...] = (
    "int",
    "bool",
    "str",
    "choice",
    "list",
    "choice_list",
    "dict",
    "dict_list",
)

# The value a missing optional attribute takes when its `default` is None.
_EMPTY: dict[str, Any] = {
    "int": 0,
    "bool": False,
    "str": "",
    "choice": None,
    "list": [],
    "choice_list": [],
    "dict": {},
    "dict_list": [],
}

_TYPE_NAMES = {
    "int": "an integer",
    "bool": "true or false",
    "str": "text",
    "choice": "one of the choices",
    "list": "a list",
    "choice_list": "a list",
    "dict": "an object",
    "dict_list": "a list of objects",
}


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with one attribute of a card: `field` is the attribute key (or "" for the
    card as a whole), `message` says what is wrong ("speed: expected an integer, got 'fast'")."""

    field: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


@dataclass(frozen=True, slots=True)
class Attr:
    """One game-specific attribute of a card kind.

    `type` is one of `ATTR_TYPES`. For "choice" the value must be one of `choices`; for
    "choice_list" every item must be; for "dict" and "dict_list" a non-empty `choices` lists
    the keys an object may have (e.g. a ship manoeuvre {"name", "crew_cost"}). A "list" holds
    items of `item_type` ("str" or "int"). `minimum`/`maximum` bound an "int"; `length` fixes
    the number of items of a list (a Hex Skirmish unit has 6 edges).

    A missing optional attribute takes `default`, or when that is None the empty value of its
    type (0, false, "", [], {}; None for a "choice").
    """

    key: str
    label: str
    type: AttrType
    choices: tuple[str, ...] = ()
    required: bool = False
    default: Any = None
    help: str = ""
    item_type: Literal["str", "int"] = "str"
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None

    def __post_init__(self) -> None:
        if self.type not in ATTR_TYPES:
            raise ValueError(f"{self.key}: unknown attribute type {self.type!r}")
        if self.type in ("choice", "choice_list") and not self.choices:
            raise ValueError(f"{self.key}: a {self.type} attribute needs choices")

    def default_value(self) -> Any:
        """The value a card gets when it leaves this (optional) attribute out."""
        value = _EMPTY[self.type] if self.default is None else self.default
        return copy.deepcopy(value)

    def clean(self, value: Any) -> tuple[Any, str | None]:
        """Check one value; return the cleaned value and an error message (or None)."""
        t = self.type
        if t == "int":
            if not _is_int(value):
                return value, self._expected(value)
            if self.minimum is not None and value < self.minimum:
                return value, f"{self.key}: {value} is below the minimum {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return value, f"{self.key}: {value} is above the maximum {self.maximum}"
            return value, None
        if t == "bool":
            if not isinstance(value, bool):
                return value, self._expected(value)
            return value, None
        if t == "str":
            if not isinstance(value, str):
                return value, self._expected(value)
            return value, None
        if t == "choice":
            if _is_int(value) and str(value) in self.choices:
                # choices that are numbers written as text ("1" to "12" on a clock): the
                # number itself is the natural way to write one in JSON
                return str(value), None
            if not isinstance(value, str) or value not in self.choices:
                return value, f"{self.key}: {value!r} is not one of {', '.join(self.choices)}"
            return value, None
        if t in ("list", "choice_list", "dict_list"):
            if not isinstance(value, list | tuple):
                return value, self._expected(value)
            items = list(value)
            if self.length is not None and len(items) != self.length:
                return items, f"{self.key}: {len(items)} items; exactly {self.length}"
            for i, item in enumerate(items):
                error = self._clean_item(i, item)
                if error:
                    return items, error
            return items, None
        # dict
        if not isinstance(value, Mapping):
            return value, self._expected(value)
        error = self._check_keys(self.key, value)
        return dict(value), error

    def _clean_item(self, index: int, item: Any) -> str | None:
        where = f"{self.key}[{index}]"
        if self.type == "choice_list":
            if not isinstance(item, str) or item not in self.choices:
                return f"{where}: {item!r} is not one of {', '.join(self.choices)}"
        elif self.type == "dict_list":
            if not isinstance(item, Mapping):
                return f"{where}: expected an object, got {item!r}"
            return self._check_keys(where, item)
        elif self.item_type == "int":
            if not _is_int(item):
                return f"{where}: expected an integer, got {item!r}"
        elif not isinstance(item, str):
            return f"{where}: expected text, got {item!r}"
        return None

    def _check_keys(self, where: str, value: Mapping[Any, Any]) -> str | None:
        if not self.choices:
            return None
        unknown = [k for k in value if k not in self.choices]
        if unknown:
            return f"{where}: unknown key {unknown[0]!r}; expected {', '.join(self.choices)}"
        return None

    def _expected(self, value: Any) -> str:
        return f"{self.key}: expected {_TYPE_NAMES[self.type]}, got {value!r}"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly description, for form builders and the API."""
        fields = plain(self, "key", "label", "type", "choices", "required")
        return {**fields, "default": self.default_value(), "help": self.help}


def label_key(label: str) -> str:
    """The search key a label is read as: lower case, words joined by "_" ("Start card" ->
    "start_card", "Class" -> "class"), so that what a card page shows is a key."""
    return "_".join(re.findall(r"[0-9a-z]+", label.lower()))


def _is_int(value: Any) -> bool:
    # bool is a subclass of int in Python, but `true` is not a speed.
    return isinstance(value, int) and not isinstance(value, bool)


CrossCheck = Callable[[dict[str, Any]], list[FieldError]]


@dataclass(frozen=True, slots=True)
class KindSchema:
    """The attribute schema of one card kind of one game.

    `checks` are optional whole-card checks run after every attribute is valid (e.g. a Hex
    Skirmish ranged unit has a range above 0). `has_cost` is False for a kind whose cards
    have no cost in the rulebook (their `cost` is 0 by convention): pages then show no cost
    badge for them.
    """

    kind: str
    label: str
    attrs: tuple[Attr, ...]
    checks: tuple[CrossCheck, ...] = ()
    has_cost: bool = True
    _by_key: dict[str, Attr] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_key = {a.key: a for a in self.attrs}
        if len(by_key) != len(self.attrs):
            raise ValueError(f"{self.kind}: duplicate attribute keys")
        object.__setattr__(self, "_by_key", by_key)

    def attr(self, key: str) -> Attr:
        """The attribute `key`; KeyError when the kind has none."""
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"{self.kind} has no attribute {key!r}") from None

    def keys(self) -> tuple[str, ...]:
        return tuple(self._by_key)

    def numeric_keys(self) -> tuple[str, ...]:
        """Keys of integer attributes (what the search syntax may compare with < and >)."""
        return tuple(a.key for a in self.attrs if a.type == "int")

    def validate(self, attributes: Mapping[str, Any]) -> tuple[dict[str, Any], list[FieldError]]:
        """Check a card's attributes. Returns the cleaned attributes, with defaults filled in
        for missing optional keys, and every problem found (unknown keys, missing required
        keys, wrong types, values outside the choices)."""
        errors: list[FieldError] = []
        cleaned: dict[str, Any] = {}
        if not isinstance(attributes, Mapping):
            return {}, [FieldError("", f"attributes: expected an object, got {attributes!r}")]
        for key in attributes:
            if key not in self._by_key:
                expected = ", ".join(self._by_key) or "none"
                errors.append(
                    FieldError(
                        str(key),
                        f"{key}: unknown attribute for {self.kind}; expected {expected}",
                    )
                )
        for a in self.attrs:
            value = attributes.get(a.key)
            if value is None:
                if a.required:
                    errors.append(FieldError(a.key, f"{a.key}: required for {self.kind}"))
                else:
                    cleaned[a.key] = a.default_value()
                continue
            value, message = a.clean(value)
            if message:
                errors.append(FieldError(a.key, message))
            else:
                cleaned[a.key] = value
        if not errors:
            for check in self.checks:
                errors.extend(check(cleaned))
        return cleaned, errors

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "attrs": [a.as_dict() for a in self.attrs]}
