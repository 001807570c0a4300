"""The forms of the play pages, built from parameter specs (validation/params.py).

A form is a list of fields, each a plain dict the template `play/_param_field.html` draws:
a checkbox for a yes/no parameter that is off unless set, a yes/no select for one that is on
unless set (a checkbox left unticked sends nothing), a select for a choice (the catalogue's
cards of a kind for a `cards_of_kind` parameter, with an empty option when it is optional),
a number input for a whole number and a text input otherwise. Validation is not here: the
submitted values are cleaned by `validation.params.clean_params` in the services.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from validation.params import ParamSpec, applies

_TRUE = {"1", "true", "yes", "on"}


def _on(value: Any) -> bool:
    return value is True or str(value).strip().lower() in _TRUE


def _widget(spec: ParamSpec) -> str:
    if spec.type == "bool":
        return "yesno" if spec.default is True else "checkbox"
    if spec.type == "choice":
        return "select"
    if spec.type == "int":
        return "number"
    return "text"


def _options(spec: ParamSpec, value: Any, names: Sequence[str]) -> list[dict[str, Any]]:
    choices = spec.choice_list(names)
    if spec.default == "":
        choices = [("", "—"), *choices]
    text = "" if value is None else str(value)
    match = next((v for v, _ in choices if v == text), None)
    if match is None and spec.cards_of_kind:
        match = next((v for v, _ in choices if v.lower() == text.lower()), None)
    return [{"value": v, "label": label, "selected": v == match} for v, label in choices]


def param_fields(
    specs: Sequence[ParamSpec],
    values: Mapping[str, Any],
    *,
    choices: Mapping[str, Sequence[str]] | None = None,
    errors: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    offered: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """The fields of a form over `specs` showing `values`; `choices` maps a card kind to the
    catalogue's names (`offered`, a parameter to the names its own picker offers), `errors` a field to its message, `notes` a field to a remark shown
    beside it (where it applies)."""
    choices = choices or {}
    offered = offered or {}
    errors = errors or {}
    notes = notes or {}
    fields = []
    for spec in specs:
        value = values.get(spec.name)
        widget = _widget(spec)
        fields.append(
            {
                "name": spec.name,
                "id": f"id_{spec.name}",
                "label": spec.label,
                "help": spec.help,
                "widget": widget,
                "value": "" if value is None else str(value),
                "checked": _on(value),
                "min": spec.min,
                "max": spec.max,
                "options": _options(
                    spec,
                    value,
                    offered.get(spec.name, choices.get(spec.cards_of_kind, ())),
                )
                if widget == "select"
                else [],
                "error": errors.get(spec.name, ""),
                "note": notes.get(spec.name, ""),
                # A parameter that applies to some values of another (a modifier of one
                # attack) is shown only while it applies; the page's script follows a change.
                "applies": json.dumps({k: list(v) for k, v in spec.applies.items()})
                if spec.applies
                else "",
                "hidden": bool(spec.applies) and not applies(spec, values),
            }
        )
    return fields
