"""A card's attribute fields, one typed form field per attribute of its kind's schema in the
rules core, and the values read back from them."""

from __future__ import annotations

from typing import Any

from django import forms

from validation.registry import registry
from validation.schema import Attr

ATTR_PREFIX = "attr__"


def kind_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    seen: dict[str, str] = {}
    groups = []
    for game in registry.all():
        options = []
        for kind, schema in game.kinds.items():
            options.append((kind, f"{schema.label} ({kind})"))
            seen[kind] = schema.label
        groups.append((game.name, options))
    return groups


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _bounds(attr: Attr) -> str:
    if attr.minimum is not None and attr.maximum is not None:
        return f" from {attr.minimum} to {attr.maximum}"
    if attr.minimum is not None:
        return f" of {attr.minimum} or more"
    if attr.maximum is not None:
        return f" up to {attr.maximum}"
    return ""


def expects(attr: Attr) -> str:
    """What a list attribute's field expects, in words: "six numbers, one per line"."""
    noun = "number" if attr.item_type == "int" else "item"
    if attr.length is not None:
        count = _NUMBER_WORDS[attr.length] if attr.length < len(_NUMBER_WORDS) else attr.length
        return f"{count} {noun}{'' if attr.length == 1 else 's'}, one per line"
    return f"{noun}s, one per line"


class _LinesAttributeField(forms.CharField):
    """An attribute typed one item per line: a subclass checks each line (`check_lines`),
    and a list of fixed length says how many lines it takes (`expected`, then the count)."""

    def __init__(self, attr: Attr, **kwargs):
        super().__init__(**kwargs)
        self.attr = attr

    def expected(self) -> str:
        raise NotImplementedError

    def check_lines(self, lines: list[str]) -> None:
        raise NotImplementedError

    @staticmethod
    def items(value) -> list[str]:
        """The items the text holds, as they are stored: one per non-blank line, trimmed."""
        lines = value if isinstance(value, list) else str(value or "").splitlines()
        return [str(line).strip() for line in lines if str(line).strip()]

    def has_changed(self, initial, data) -> bool:
        """Changed only if the items are: the text shown has its lines ended by LF, the
        text a browser sends by CR LF."""
        if self.disabled:
            return False
        return self.items(initial) != self.items(data)

    def clean(self, value):
        value = super().clean(value)
        lines = self.items(value)
        if not lines:
            return value
        self.check_lines(lines)
        if self.attr.length is not None and len(lines) != self.attr.length:
            raise forms.ValidationError(f"{self.expected()}; {len(lines)} given")
        return value


class ListAttributeField(_LinesAttributeField):
    """A list attribute typed one item per line; a list of numbers says which line is not
    a number, and a list of fixed length how many lines it takes."""

    def expected(self) -> str:
        return expects(self.attr)

    def check_lines(self, lines: list[str]) -> None:
        if self.attr.item_type == "int":
            for line in lines:
                if not line.lstrip("+-").isdigit():
                    raise forms.ValidationError(f"{self.expected()}; {line[:40]!r} is not a number")


class ChoiceListAttributeField(_LinesAttributeField):
    """A list of choices typed one per line, in order: a choice may come more than once
    (a card with two slots of one type), which a set of checkboxes cannot hold. Says
    which line is not a choice, and how many lines a list of fixed length takes."""

    def expected(self) -> str:
        return expects_choices(self.attr)

    def check_lines(self, lines: list[str]) -> None:
        for number, line in enumerate(lines, 1):
            if line not in self.attr.choices:
                raise forms.ValidationError(
                    f"line {number}: {line[:40]!r} is not one of {', '.join(self.attr.choices)}"
                )


def expects_choices(attr: Attr) -> str:
    """What a list of choices' field expects, in words."""
    if attr.length is not None:
        count = _NUMBER_WORDS[attr.length] if attr.length < len(_NUMBER_WORDS) else attr.length
        return f"{count} of {', '.join(attr.choices)}, one per line"
    return f"any of {', '.join(attr.choices)}, one per line"


def field_for(attr: Attr) -> forms.Field:
    """A typed form field for one schema attribute."""
    common: dict[str, Any] = {
        "label": attr.label,
        "help_text": attr.help,
        "required": attr.required,
    }
    if attr.type == "int":
        return forms.IntegerField(
            error_messages={"invalid": f"a whole number{_bounds(attr)}"}, **common
        )
    if attr.type == "bool":
        common["required"] = False
        return forms.BooleanField(**common)
    if attr.type == "choice":
        choices = [("", "—")] if not attr.required else []
        return forms.ChoiceField(
            choices=choices + [(c, c.replace("_", " ")) for c in attr.choices], **common
        )
    if attr.type == "choice_list":
        common["help_text"] = (
            (attr.help + "; " if attr.help else "")
            + expects_choices(attr)
            + ", in order; a choice may repeat."
        )
        rows = attr.length or 3
        return ChoiceListAttributeField(attr, widget=forms.Textarea(attrs={"rows": rows}), **common)
    if attr.type == "list":
        common["help_text"] = (
            (attr.help + " " if attr.help else "") + expects(attr).capitalize() + "."
        )
        common["required"] = False
        return ListAttributeField(attr, widget=forms.Textarea(attrs={"rows": 3}), **common)
    if attr.type in ("dict", "dict_list"):
        common["required"] = False
        common["help_text"] = (attr.help + " " if attr.help else "") + "JSON."
        return forms.JSONField(**common)
    return forms.CharField(**{**common, "required": False})


def initial_for(attr: Attr, value: Any) -> Any:
    if attr.type in ("list", "choice_list") and isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return value


def value_from(attr: Attr, value: Any) -> Any:
    """Form value -> attribute value of the schema's type (the schema checks it after)."""
    if attr.type == "list":
        items = [line.strip() for line in (value or "").splitlines() if line.strip()]
        if attr.item_type == "int":
            # Numbers typed one per line (the field checked them) are stored as numbers.
            return [int(i) if i.lstrip("+-").isdigit() else i for i in items]
        return items
    if attr.type == "choice_list":
        return [line.strip() for line in (value or "").splitlines() if line.strip()]
    if attr.type == "choice" and value == "":
        return None
    if attr.type in ("dict", "dict_list") and value is None:
        return {} if attr.type == "dict" else []
    return value
