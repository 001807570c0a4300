"""Parameters of a game's goldfish and tools: what a form offers, what an API accepts.

A `ParamSpec` says one parameter's name, label, type and bounds; `clean_params` reads raw
values (strings from a form or a query string, JSON values from an API) against a tuple of
specs and answers the cleaned values, or every problem at once, one message per field.
Nothing here imports Django: the web layer builds its forms and API checks from the specs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from validation.types import CardFacts

ParamType = Literal["int", "bool", "choice", "str"]

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})
#: Longest text a `str` parameter takes.
MAX_TEXT = 200
#: Longest raw value read at all: a number written with thousands of digits is refused
#: before Python is asked to parse it.
MAX_RAW = 400


def yes_no(raw: Any) -> bool | None:
    """`raw` read as yes or no (a bool, or 1/0, true/false, yes/no, on/off in any case; an
    empty text is no), or None when it is neither."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


class ParamsInvalid(ValueError):
    """Parameters that cannot be used; `errors` maps each bad field to its message, and
    `clean` holds the values of the other fields, cleaned (for checks that compare fields,
    so that every problem is told at once)."""

    def __init__(self, errors: Mapping[str, str], clean: Mapping[str, Any] | None = None):
        self.errors = dict(errors)
        self.clean = dict(clean or {})
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter: its name, label, type and bounds.

    `choices` (for `type="choice"`) are (value, label) pairs, or a callable answering them.
    `cards_of_kind` makes a choice of the catalogue's cards of that kind (a unit type, a
    ship): the web layer fills the choices with their names, and `clean_params` takes the
    names it is handed in `card_choices`. `applies` limits a parameter to some values of
    another one ({"attack": ("firepower",)}): a form may hide it otherwise, and a value set
    where it does not apply is for the tool to refuse or ignore (`not_applying` lists them).
    `default` is used when the value is missing; a parameter without a default is required,
    and one whose default is "" is optional: left empty, its clean value is "".
    `card_offered(card, chosen)` (with `cards_of_kind`) says whether a picker offers `card`
    (a target that may be attacked, an enemy of the chosen ship), `chosen` being the cards
    already chosen in the form's other card parameters, by parameter name; the cards not
    offered are still read, for the tool to refuse with its reason.
    """

    name: str
    label: str
    type: ParamType = "int"
    min: int | None = None
    max: int | None = None
    help: str = ""
    choices: Sequence[tuple[str, str]] | Callable[[], Sequence[tuple[str, str]]] = ()
    default: Any = None
    cards_of_kind: str = ""
    applies: Mapping[str, tuple[str, ...]] | None = None
    card_offered: Callable[[CardFacts, Mapping[str, CardFacts]], bool] | None = None
    #: For a `str`: the regular expression the whole value must match (the API schema's
    #: `pattern`), with `pattern_help` saying what it takes.
    pattern: str = ""
    pattern_help: str = ""

    def offered(
        self, cards: Sequence[CardFacts], chosen: Mapping[str, CardFacts] | None = None
    ) -> list[str]:
        """The names of `cards` a picker of this parameter offers, given the cards `chosen`
        in the other card parameters."""
        keep, chosen = self.card_offered, chosen or {}
        return [c.name for c in cards if keep is None or keep(c, chosen)]

    def choice_list(self, card_choices: Sequence[str] = ()) -> list[tuple[str, str]]:
        if self.cards_of_kind:
            return [(n, n) for n in card_choices]
        raw = self.choices() if callable(self.choices) else self.choices
        return [(str(v), str(label)) for v, label in raw]

    def as_dict(self, card_choices: Sequence[str] = ()) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "min": self.min,
            "max": self.max,
            "help": self.help,
            "default": self.default,
        }
        if self.type == "choice":
            out["choices"] = self.choice_list(card_choices)
        if self.applies:
            out["applies"] = {k: list(v) for k, v in self.applies.items()}
        return out

    def parse(self, raw: Any, card_choices: Sequence[str] = (), *, strict: bool = False) -> Any:
        """The cleaned value of `raw`; ValueError with a message naming the parameter.
        `strict` reads a text as an API's schema states it: a whole number in digits only,
        a yes or no as 1 or 0."""
        if isinstance(raw, str) and (len(raw) > MAX_RAW or "\x00" in raw):
            raise ValueError(f"{self.label} is not a value this takes")
        if isinstance(raw, (list, dict, tuple, set)):
            raise ValueError(f"{self.label} takes one value, not a {type(raw).__name__}")
        if strict and isinstance(raw, str):
            if self.type == "bool" and raw not in ("0", "1"):
                raise ValueError(f"{self.label} must be 1 or 0")
            if self.type == "int" and not (raw.isascii() and raw.isdigit()):
                raise ValueError(f"{self.label} must be a whole number")
        if self.type == "int":
            return self._parse_int(raw)
        if self.type == "bool":
            answer = yes_no(raw)
            if answer is None:
                raise ValueError(f"{self.label} must be yes or no, not {raw!r}")
            return answer
        if self.type == "choice":
            choices = self.choice_list(card_choices)
            text = str(raw).strip()
            for value, _label in choices:
                if value == text or (self.cards_of_kind and value.lower() == text.lower()):
                    return value
            allowed = ", ".join(v for v, _ in choices) or "none available"
            raise ValueError(f"{self.label} must be one of {allowed}; got {raw!r}")
        # The length as sent, before the spaces around it are trimmed (the schema's maxLength).
        if len(str(raw)) > MAX_TEXT:
            raise ValueError(f"{self.label} is too long (at most {MAX_TEXT} characters)")
        if self.pattern and re.fullmatch(self.pattern, str(raw)) is None:
            raise ValueError(
                f"{self.label}: {raw!r} is not {self.pattern_help or 'a value this takes'}"
            )
        return str(raw).strip()

    def _parse_int(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise ValueError(f"{self.label} must be a whole number")
        if isinstance(raw, float):
            if not raw.is_integer():
                raise ValueError(f"{self.label} must be a whole number, not {raw!r}")
            raw = int(raw)
        text = str(raw).strip().replace(",", "").replace("_", "")
        digits = text.lstrip("+-")
        if not digits.isdigit() or not digits.isascii() or len(digits) > 19:
            raise ValueError(f"{self.label} must be a whole number, not {str(raw)[:40]!r}")
        value = int(text)
        low, high = self.min, self.max
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                bounds = f"between {low:,} and {high:,}"
            elif low is not None:
                bounds = f"at least {low:,}"
            else:
                bounds = f"at most {high:,}"
            raise ValueError(f"{self.label} must be {bounds}; got {value:,}")
        return value


def clean_params(
    specs: Sequence[ParamSpec],
    raw: Mapping[str, Any] | None,
    *,
    defaults: Mapping[str, Any] | None = None,
    card_choices: Mapping[str, Sequence[str]] | None = None,
    allow_unknown: bool = False,
    label: str = "this",
    strict: bool = False,
) -> dict[str, Any]:
    """Every spec's value parsed and bounded, defaults filled in (`defaults` overrides the
    specs' own). Raises ParamsInvalid with one message per bad field (every error at once).
    `card_choices` maps a spec's `cards_of_kind` to the names the catalogue holds.
    `strict` reads the values as an API's schema states them (`ParamSpec.parse`); an empty
    text is then a value given, and refused, not a value left out."""
    raw = dict(raw or {})
    defaults = defaults or {}
    card_choices = card_choices or {}
    errors: dict[str, str] = {}
    clean: dict[str, Any] = {}
    names = {s.name for s in specs}
    if not allow_unknown:
        for key in sorted(set(raw) - names, key=str)[:20]:
            errors[str(key)[:40]] = f"{str(key)[:40]!r} is not a parameter of {label}"
    for spec in specs:
        value = raw.get(spec.name)
        if value is None or (value == "" and not strict):
            value = defaults.get(spec.name, spec.default)
            if value is None:
                if spec.type == "bool":
                    clean[spec.name] = False
                    continue
                errors[spec.name] = f"{spec.label} is required"
                continue
            if value == "":
                clean[spec.name] = ""
                continue
        try:
            clean[spec.name] = spec.parse(
                value, card_choices.get(spec.cards_of_kind, ()), strict=strict
            )
        except ValueError as exc:
            errors[spec.name] = str(exc)
    if errors:
        raise ParamsInvalid(errors, clean)
    return clean


def unset_value(spec: ParamSpec) -> Any:
    """The value of `spec` when nobody sets it: its default (False for a bool without)."""
    if spec.default is None and spec.type == "bool":
        return False
    return spec.default


def applies(spec: ParamSpec, clean: Mapping[str, Any]) -> bool:
    """Whether `spec` applies to the other values of `clean` (see `ParamSpec.applies`)."""
    return all(str(clean.get(k)) in set(v) for k, v in (spec.applies or {}).items())


def not_applying(specs: Sequence[ParamSpec], clean: Mapping[str, Any]) -> list[ParamSpec]:
    """The parameters of `clean` set to something other than their default where their
    `applies` says they do not apply (a modifier of one attack set for another)."""
    return [
        spec
        for spec in specs
        if spec.applies
        and spec.name in clean
        and clean[spec.name] != unset_value(spec)
        and not applies(spec, clean)
    ]
