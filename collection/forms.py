"""The collection's forms: a whole product owned, and a collection imported (typed `N Name`
lines, or a file of text lines or CSV)."""

from django import forms

from catalogue.models import Expansion
from decks.forms import TOO_LARGE, game_choices, list_field
from decks.lists import ListInvalid
from validation import decklist

from .files import MAX_FILE_BYTES, file_text


def expansion_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    """The expansions of every game, grouped by game, in the games' order."""
    groups: dict[str, list[tuple[int, str]]] = {}
    rows = Expansion.objects.select_related("game").order_by("game__position", "code")
    for e in rows:
        groups.setdefault(e.game.name, []).append((e.pk, f"{e.code} {e.name}"))
    return list(groups.items())


class ProductForm(forms.Form):
    """How many copies of a whole product (an expansion or core set) one owns; 0 removes it."""

    expansion = forms.TypedChoiceField(label="Product", coerce=int, choices=expansion_choices)
    count = forms.IntegerField(
        label="Copies (0 removes it)", min_value=0, max_value=9_999, initial=1
    )


class CollectionImportForm(forms.Form):
    """A collection to add (or put in place of a game's): `N Name` lines typed, or a file,
    text lines or a CSV file (Count, Name, Edition, Card Number) read by its header."""

    game = forms.ChoiceField(choices=game_choices)
    list = list_field(
        "Cards (one 'N Name' a line; section headers are ignored)", {"rows": 10}, required=False
    )
    file = forms.FileField(
        label="…or a file: text lines, or CSV with the columns Count, Name, Edition, Card "
        "Number (a row with an Edition and no Name is a whole product)",
        required=False,
    )
    replace = forms.BooleanField(
        required=False,
        label="Replace my collection of this game (of each game the file names) with the "
        "list (otherwise the list is added)",
    )
    dry_run = forms.BooleanField(
        required=False, label="Only check the file and say what it holds (nothing is imported)"
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        data["csv"] = ""
        upload = data.get("file")
        if upload:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(
                    f"the file is {upload.size:,} bytes long; at most {MAX_FILE_BYTES:,} bytes "
                    "are read",
                    code=TOO_LARGE,
                )
            try:
                text = file_text(upload.read())
            except ListInvalid as exc:
                raise forms.ValidationError(exc.errors[0]["message"]) from None
            first = text.lstrip().split("\n", 1)[0].lower()
            if upload.name.lower().endswith(".csv") or ("," in first and "count" in first):
                data["csv"], data["list"] = text, ""
            else:
                problem = decklist.text_size_problem(text)
                if problem:
                    raise forms.ValidationError(problem, code=TOO_LARGE)
                data["list"] = text
        if not (data.get("list") or "").strip() and not data["csv"]:
            raise forms.ValidationError("paste a list or choose a file")
        return data
