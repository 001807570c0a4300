"""`KeepsWhatItShows`: an admin form that saves what it showed, a field sent back as shown
(line endings aside) counting as unchanged."""

from __future__ import annotations

import copy
from collections.abc import MutableMapping
from typing import Any

from django import forms
from django.db import models
from django.utils.functional import cached_property


def _as_lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _one_line(text: str) -> str:
    return text.replace("\r", "").replace("\n", "")


def _snapshot(instance) -> dict[str, Any]:
    """The stored values of a model instance's columns, for telling whether a save would
    change anything (a time of the last save is not a value the user edits)."""
    values: dict[str, Any] = {}
    for f in instance._meta.concrete_fields:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            continue
        value = getattr(instance, f.attname)
        values[f.attname] = value.name if isinstance(f, models.FileField) else copy.deepcopy(value)
    return values


class KeepsWhatItShows:
    """A model form (or one of its parts) whose untouched save changes nothing.

    A browser sends a text field back not quite as the page showed it: a text area's line
    ends as CR LF, a one-line input without its line breaks, and Django's text fields strip
    spaces at either end. A text field sent back as it was shown keeps the stored value
    exactly (`untouched`); a text area typed in is stored with plain line ends. After the
    form is cleaned, `changes_anything()` tells whether saving would change a stored value
    (columns and many-to-many choices), so that an untouched save writes nothing."""

    untouched: set[str]
    # What the form it is mixed into has (a ModelForm's).
    cleaned_data: dict[str, Any]
    initial: MutableMapping[str, Any]
    instance: Any
    _bound_items: Any

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = getattr(self, "instance", None)
        self._stored = (
            _snapshot(instance) if instance is not None and instance.pk is not None else None
        )

    @staticmethod
    def _sent_as_shown(bf) -> bool | None:
        """Whether a text field came back as the page showed it (line ends aside); None
        for a field this does not apply to (not text, disabled, or nothing sent)."""
        field, widget = bf.field, bf.field.widget
        if not isinstance(field, forms.CharField) or field.disabled:
            return None
        if not isinstance(widget, forms.Textarea | forms.TextInput):
            return None
        data, initial = bf.data, bf.initial
        if not isinstance(data, str):
            return None
        if initial is None:
            return False
        shown = widget.format_value(field.prepare_value(initial)) or ""
        if isinstance(widget, forms.Textarea):
            return _as_lf(data) == _as_lf(shown)
        return _one_line(data) == _one_line(shown)

    def _clean_fields(self):
        super()._clean_fields()  # type: ignore[misc]  # a mixin of a form
        self.untouched = set()
        for name, bf in self._bound_items():
            same = self._sent_as_shown(bf)
            if same is None:
                continue
            if same:
                self.untouched.add(name)
                if name in self.cleaned_data:
                    self.cleaned_data[name] = copy.deepcopy(bf.initial)
                continue
            if isinstance(bf.field.widget, forms.Textarea) and isinstance(
                self.cleaned_data.get(name), str
            ):
                self.cleaned_data[name] = _as_lf(self.cleaned_data[name])

    @cached_property
    def changed_data(self) -> list[str]:
        """The fields the user changed, as the admin's history names them: a text field
        sent back as the page showed it (its line ends as CR LF, say) is not changed, as
        its untouched save keeps the stored value."""
        return [
            name
            for name, bf in self._bound_items()
            if not self._sent_as_shown(bf) and bf._has_changed()
        ]

    def changes_anything(self) -> bool:
        """Whether saving this cleaned form changes a stored value (always, for a new one)."""
        if self._stored is None or _snapshot(self.instance) != self._stored:
            return True
        for f in self.instance._meta.many_to_many:
            if f.name not in self.cleaned_data or f.name not in self.initial:
                continue
            now = {getattr(o, "pk", o) for o in self.cleaned_data[f.name] or ()}
            before = {getattr(o, "pk", o) for o in self.initial[f.name] or ()}
            if now != before:
                return True
        return False
