"""The admin forms of cards, printings (with the card image check) and expansions."""

from __future__ import annotations

import copy
import io
from typing import cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.uploadedfile import InMemoryUploadedFile, UploadedFile
from PIL import Image, UnidentifiedImageError

from validation.registry import registry

from ..models import Card, Expansion, Game, Printing, check_card_fields
from .attributes import (
    ATTR_PREFIX,
    field_for,
    initial_for,
    kind_choices,
    value_from,
)
from .showing import KeepsWhatItShows

ALLOWED_IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGE_SIDE = 4000


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
