"""Admin forms built from the rules core's schemas, and the card image check."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import MutableMapping
from typing import Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.uploadedfile import InMemoryUploadedFile, UploadedFile
from django.db import models
from django.utils.functional import cached_property
from PIL import Image, UnidentifiedImageError

from validation.registry import registry
from validation.schema import Attr

from .models import Card, Expansion, Game, Printing, RuleSet, RuleSetCard, check_card_fields

ATTR_PREFIX = "attr__"
ALLOWED_IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGE_SIDE = 4000


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


class CardAdminForm(KeepsWhatItShows, forms.ModelForm):
    """The card form: common fields plus one typed field per attribute of the card's kind.

    The kind comes from the submitted data, the card, or `?game=&kind=` on the add page;
    changing game or kind reloads the add page with the new kind's fields."""

    kind = forms.ChoiceField(choices=kind_choices)

    class Meta:
        model = Card
        fields = ["game", "name", "kind", "faction", "cost", "text"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.schema = None
        self.game_def = None
        game_id = (
            self.data.get("game")
            or self.initial.get("game")
            or getattr(self.instance, "game_id", None)
        )
        kind = self.data.get("kind") or self.initial.get("kind") or self.instance.kind
        game = (
            Game.objects.filter(pk=int(str(game_id))).first()
            if str(game_id or "").isdigit()
            else None
        )
        if game is not None and game.slug in registry:
            self.game_def = registry.get(game.slug)
            self.schema = self.game_def.kinds.get(kind)
            cast(forms.ChoiceField, self.fields["kind"]).choices = [
                (k, f"{s.label} ({k})") for k, s in self.game_def.kinds.items()
            ]
            if self.game_def.factions:
                self.fields["faction"].widget = forms.Select(
                    choices=[("", "— none —")] + list(self.game_def.factions.items())
                )
        if self.schema is not None:
            current = self.instance.attributes or {}
            for attr in self.schema.attrs:
                name = ATTR_PREFIX + attr.key
                self.fields[name] = field_for(attr)
                typed = self.initial.get(name)
                if attr.type == "choice_list" and isinstance(typed, str):
                    # carried over in the address when game or kind changed: one per line
                    # (or "laser,pilot", as older addresses wrote them)
                    items = [v.strip() for v in typed.replace(",", "\n").splitlines()]
                    self.initial[name] = "\n".join(v for v in items if v)
                if attr.key in current:
                    self.initial.setdefault(name, initial_for(attr, current[attr.key]))
                elif attr.default is not None:
                    self.initial.setdefault(name, initial_for(attr, attr.default))

    def _update_errors(self, errors):
        """The model's own check names attribute errors `attributes.<key>`: show them on the
        attribute's field (as the form's own check does), once, and never as an unknown
        field (which Django refuses with a server error)."""
        if hasattr(errors, "error_dict"):
            mapped: dict[str, list] = {}
            for key, errs in errors.error_dict.items():
                if key.startswith("attributes."):
                    if getattr(self, "_schema_checked", False):
                        continue  # the form's clean() ran the same check on its fields
                    target = ATTR_PREFIX + key.split(".", 1)[1]
                    key = target if target in self.fields else NON_FIELD_ERRORS
                elif key != NON_FIELD_ERRORS and key not in self.fields:
                    key = NON_FIELD_ERRORS
                mapped.setdefault(key, []).extend(errs)
            if not mapped:
                return
            errors = ValidationError(mapped)
        super()._update_errors(errors)  # type: ignore[misc]  # a ModelForm's

    def attribute_field_names(self) -> list[str]:
        return [ATTR_PREFIX + a.key for a in self.schema.attrs] if self.schema else []

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.game_def is None:
            return data
        if self.schema is None:
            self.add_error("kind", f"choose a kind of {self.game_def.name}")
            return data
        attributes = {}
        stored = self.instance.attributes if self.instance.pk is not None else {}
        stored = stored if isinstance(stored, dict) else {}
        for attr in self.schema.attrs:
            name = ATTR_PREFIX + attr.key
            if name in self.errors:
                continue
            if name in self.untouched and attr.key in stored:
                # sent back as the page showed it: the stored value, exactly
                attributes[attr.key] = copy.deepcopy(stored[attr.key])
                continue
            value = value_from(attr, data.get(name))
            if value is not None:
                attributes[attr.key] = value
        errors, cleaned = check_card_fields(
            self.game_def, data.get("kind"), data.get("faction") or "", attributes
        )
        self._schema_checked = True
        for field_name, messages in errors.items():
            target: str | None = (
                ATTR_PREFIX + field_name.split(".", 1)[1]
                if field_name.startswith("attributes.")
                else field_name
            )
            if target not in self.fields:
                target = None
            elif target in self.errors:
                continue  # the field's own check already said what is wrong
            for message in messages:
                self.add_error(target, message)
        if cleaned is not None:
            self.instance.attributes = cleaned
        return data


class PrintingAdminForm(KeepsWhatItShows, forms.ModelForm):
    class Meta:
        model = Printing
        fields = ["expansion", "number", "rarity", "image", "flavour", "artist"]

    def clean_image(self):
        """Accept PNG, JPEG or WebP only; re-encode the pixels (dropping any other content)
        into a new file whose name the storage generates."""
        upload = self.cleaned_data.get("image")
        if not isinstance(upload, UploadedFile):
            return upload  # no new file: the stored image (or none) stays
        size = upload.size or 0
        if size > MAX_IMAGE_BYTES:
            raise forms.ValidationError(
                f"the image is {size // 1024} KB; at most {MAX_IMAGE_BYTES // 1024} KB"
            )
        image: Image.Image
        try:
            image = Image.open(upload)
            image_format = image.format
            image.verify()
            upload.seek(0)
            image = Image.open(upload)
            image.load()
        except (UnidentifiedImageError, OSError, SyntaxError) as exc:
            raise forms.ValidationError(
                "the file is not a readable image (PNG, JPEG or WebP)"
            ) from exc
        if image_format not in ALLOWED_IMAGE_FORMATS:
            raise forms.ValidationError(
                f"{image_format} images are not accepted; use PNG, JPEG or WebP"
            )
        if max(image.size) > MAX_IMAGE_SIDE:
            raise forms.ValidationError(
                f"the image is {image.size[0]}×{image.size[1]}; at most {MAX_IMAGE_SIDE} px a side"
            )
        if image_format == "JPEG" and image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        out = io.BytesIO()
        image.save(out, format=image_format)
        ext = ALLOWED_IMAGE_FORMATS[image_format]
        return InMemoryUploadedFile(
            out, "image", f"card.{ext}", Image.MIME[image_format], out.tell(), None
        )


class ExpansionAdminForm(KeepsWhatItShows, forms.ModelForm):
    class Meta:
        model = Expansion
        fields = ["game", "code", "name", "released", "sample", "notice"]


class ExpansionImportForm(forms.Form):
    file = forms.FileField(help_text="An expansion file in the JSON format of the documentation.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 20 * 1024 * 1024:
            raise forms.ValidationError("the file is larger than 20 MB")
        try:
            return json.loads(upload.read().decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise forms.ValidationError("the file is not UTF-8 text") from exc
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from exc
        except ValueError as exc:  # a number of more than 4,300 digits
            raise forms.ValidationError(f"not valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise forms.ValidationError("not valid JSON: nested too deeply") from exc


class RuleSetImportForm(ExpansionImportForm):
    file = forms.FileField(
        help_text="A rule set file (one rule set or a list) in the JSON format of the "
        "documentation."
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError("the file is larger than 5 MB")
        return super().clean_file()


def format_choices(game_slug: str | None = None) -> list[tuple[str, str]]:
    """The formats a rule set may be of, each once as "game/format" named with its game
    ("<game's name> — <format's name>"): every game's, or `game_slug`'s only. The value
    names the game: several games have a format of the same slug."""
    games = (
        [registry.get(game_slug)]
        if game_slug is not None and game_slug in registry
        else registry.all()
    )
    return [
        (f"{game.slug}/{fmt.slug}", f"{game.name} — {fmt.name}")
        for game in games
        for fmt in game.formats.values()
    ]


def _format_label(value: str) -> str:
    return dict(format_choices()).get(value, value)


def _format_menu() -> list[tuple[str, str]]:
    return [("", "---------"), *format_choices()]


class RuleSetAdminForm(KeepsWhatItShows, forms.ModelForm):
    """A rule set: a format of its game, expansions of its game, and the dates in order.

    Once the game is known (a saved rule set's, the one posted, or the one the add page was
    opened with, `?game=`), the format menu and the expansion picker offer only that game's;
    before, the expansion picker offers none and says why."""

    format = forms.ChoiceField(choices=_format_menu)

    class Meta:
        model = RuleSet
        fields = [
            "game",
            "format",
            "code",
            "name",
            "announced",
            "effective",
            "expansions",
            "note",
            "sample",
        ]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.format_game = ""
        game = self._chosen_game()
        if self.instance.pk is not None:
            # The menu's value ("game/format"), shown and compared with the one sent back.
            self.initial["format"] = f"{self.instance.game.slug}/{self.instance.format}"
        if "format" in self.fields and game is not None:
            # Only the game's formats are shown; any format stays a valid answer, so that
            # one of another game gets an error that says so.
            self.fields["format"].widget.choices = [
                ("", "---------"),
                *format_choices(game.slug),
            ]
        if "expansions" in self.fields:
            field = cast(forms.ModelMultipleChoiceField, self.fields["expansions"])
            if game is None:
                field.queryset = Expansion.objects.none()
                field.help_text = "Choose the game: its expansions are then offered here."
            else:
                field.queryset = Expansion.objects.filter(game=game)

    def _chosen_game(self) -> Game | None:
        """The rule set's game as far as it is known: posted, given to the add page, or
        saved."""
        if self.is_bound:
            raw = self.data.get(self.add_prefix("game"))
        elif self.initial.get("game") is not None:
            raw = self.initial["game"]
        else:
            raw = self.instance.game_id
        if isinstance(raw, Game):
            return raw
        try:
            pk = int(str(raw))
        except (TypeError, ValueError):
            return None
        return Game.objects.filter(pk=pk).first()

    def clean_format(self) -> str:
        value = self.cleaned_data["format"]
        self.format_game = value.split("/", 1)[0]
        return value.split("/", 1)[1]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        game = data.get("game")
        fmt = data.get("format")
        if game is not None and fmt and self.format_game != game.slug:
            label = _format_label(f"{self.format_game}/{fmt}")
            game_def = registry.get(game.slug)
            self.add_error(
                "format",
                f"{label} is not a format of {game_def.name}; use one of "
                f"{', '.join(f.name for f in game_def.formats.values())}",
            )
        expansions = data.get("expansions")
        if game is not None and expansions is not None:
            strays = [e.code for e in expansions if e.game_id != game.pk]
            if strays:
                self.add_error("expansions", f"not expansions of {game.name}: {', '.join(strays)}")
        code = data.get("code") or ""
        if any(ch.isspace() for ch in code):
            self.add_error("code", "a code has no spaces (such as 'S2')")
        announced, effective = data.get("announced"), data.get("effective")
        if announced and effective and effective < announced:
            self.add_error(
                "effective",
                f"{effective.isoformat()} is before the announcement on {announced.isoformat()}",
            )
        return data


class RuleSetCardForm(KeepsWhatItShows, forms.ModelForm):
    """One card's entry: a card of the rule set's game that the entry says something about."""

    class Meta:
        model = RuleSetCard
        fields = ["card", "banned", "limit", "cost", "text"]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        card = data.get("card")
        parent = getattr(self, "parent_rule_set", None)  # RuleSetCardFormSet sets it
        game_id = parent.game_id if parent is not None else None
        if card is not None and game_id is not None and card.game_id != game_id:
            self.add_error("card", f"{card.name} is a card of {card.game.name}, not of this game")
        if card is not None and not (
            data.get("banned")
            or data.get("limit") is not None
            or data.get("cost") is not None
            or (data.get("text") or "").strip()
        ):
            raise ValidationError(f"{card.name}: give banned, a limit, a cost or a text")
        return data


class RuleSetCardFormSet(forms.BaseInlineFormSet):
    """The card entries of a rule set; each form knows its rule set (saved or not), so that
    a card of another game is refused."""

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)  # type: ignore[misc]  # Django's own
        form.parent_rule_set = self.instance
        return form

    @property
    def empty_form(self):
        form: Any = super().empty_form
        form.parent_rule_set = self.instance
        return form
