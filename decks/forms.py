from django import forms

from cardsite.hostile import nul_line
from validation import decklist
from validation.registry import registry

from .models import Deck, Visibility

MAX_LIST = decklist.MAX_LIST_BYTES
TOO_LARGE = "too_large"
HAS_NUL = "has_nul"


def validate_list_size(text: str) -> None:
    """A list larger than the site reads (bytes, lines) is refused, stating the limit."""
    problem = decklist.text_size_problem(text or "")
    if problem:
        raise forms.ValidationError(problem, code=TOO_LARGE)


def list_too_large(form: forms.Form) -> bool:
    """The form was refused because its list is larger than the site reads (the page then
    answers 400, as the API does), or because its file holds a NUL character."""
    return any(
        form.has_error(field, code)
        for field in ("list", forms.forms.NON_FIELD_ERRORS)
        for code in (TOO_LARGE, HAS_NUL)
    )


def collection_field() -> forms.BooleanField:
    return forms.BooleanField(
        label="Restrict to my collection (no more copies of a card than I own)",
        required=False,
    )


def list_options(cleaned_data) -> dict:
    """The format options of a list form: the agreed points, and the restriction to the
    user's collection."""
    options: dict = {}
    if cleaned_data.get("points"):
        options["points"] = cleaned_data["points"]
    if cleaned_data.get("collection"):
        options["collection"] = True
    return options


#: The shape of a deck list, for empty list boxes.
LIST_PLACEHOLDER = "# comment\nSection:\n4 Card name\n2x Another card (SET)"


def default_game_format() -> str:
    """The "game/format" a list form opens on: the first registered game's first format."""
    game = registry.all()[0]
    return f"{game.slug}/{next(iter(game.formats))}"


def format_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (
            game.name,
            [
                (f"{game.slug}/{slug}", f"{game.name} — {fmt.name}")
                for slug, fmt in game.formats.items()
            ],
        )
        for game in registry.all()
    ]


def game_choices() -> list[tuple[str, str]]:
    return [(game.slug, game.name) for game in registry.all()]


class CheckListForm(forms.Form):
    game_format = forms.ChoiceField(label="Game and format", choices=format_choices)
    points = forms.IntegerField(
        label="Points (formats with an agreed total)", required=False, min_value=1, max_value=10_000
    )
    list = forms.CharField(
        label="Deck list",
        widget=forms.Textarea(
            attrs={
                "rows": 18,
                "placeholder": LIST_PLACEHOLDER,
            }
        ),
        max_length=MAX_LIST,
        validators=[validate_list_size],
    )
    collection = collection_field()

    def split(self) -> tuple[str, str]:
        game, fmt = self.cleaned_data["game_format"].split("/", 1)
        return game, fmt

    def options(self) -> dict:
        return list_options(self.cleaned_data)


class _ListInput(forms.Form):
    """A list typed in a textarea or given as a text file (the file wins)."""

    list = forms.CharField(
        label="Deck list",
        required=False,
        max_length=MAX_LIST,
        validators=[validate_list_size],
        widget=forms.Textarea(attrs={"rows": 18}),
    )
    file = forms.FileField(label="…or a text file", required=False)
    list_required = False

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > MAX_LIST:
                raise forms.ValidationError(
                    f"the file is too large (at most {MAX_LIST:,} bytes)", code=TOO_LARGE
                )
            try:
                data["list"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError("the file is not UTF-8 text") from exc
            line = nul_line(data["list"])
            if line is not None:
                raise forms.ValidationError(
                    f"the file contains a NUL character (\\x00) on line {line}; "
                    "a list is plain text",
                    code=HAS_NUL,
                )
            problem = decklist.text_size_problem(data["list"])
            if problem:
                raise forms.ValidationError(problem, code=TOO_LARGE)
        if self.list_required and not (data.get("list") or "").strip():
            raise forms.ValidationError("paste a list or choose a file")
        return data

    def list_text(self) -> str | None:
        text = self.cleaned_data.get("list") or ""
        return text if text.strip() else None


class DeckNewForm(_ListInput):
    """A new deck (game, format, name, visibility) with an optional list: the import form
    requires the list."""

    game_format = forms.ChoiceField(label="Game and format", choices=format_choices)
    name = forms.CharField(max_length=200)
    description = forms.CharField(
        required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3})
    )
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PRIVATE)
    points = forms.IntegerField(
        label="Points (formats with an agreed total)", required=False, min_value=1, max_value=10_000
    )
    collection = collection_field()
    field_order = [
        "game_format",
        "name",
        "description",
        "visibility",
        "points",
        "collection",
        "list",
        "file",
    ]

    def __init__(self, *args, list_required: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.list_required = list_required
        if not list_required:
            self.fields["list"].label = "Deck list (optional)"

    def split(self) -> tuple[str, str]:
        game, fmt = self.cleaned_data["game_format"].split("/", 1)
        return game, fmt

    def options(self) -> dict:
        return list_options(self.cleaned_data)


class DeckEditForm(forms.Form):
    """The list of a deck as text, and the version it was opened at."""

    list = forms.CharField(
        label="Deck list",
        max_length=MAX_LIST,
        validators=[validate_list_size],
        widget=forms.Textarea(attrs={"rows": 24}),
    )
    base_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    points = forms.IntegerField(
        label="Points (formats with an agreed total)", required=False, min_value=1, max_value=10_000
    )
    collection = collection_field()

    def options(self) -> dict:
        return list_options(self.cleaned_data)


class DeckSettingsForm(forms.ModelForm):
    class Meta:
        model = Deck
        fields = ["name", "description", "visibility"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class CollectionImportForm(_ListInput):
    game = forms.ChoiceField(choices=game_choices)
    replace = forms.BooleanField(
        required=False,
        label="Replace my collection of this game with the list (otherwise the list is added)",
    )
    field_order = ["game", "list", "file", "replace"]
    list_required = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["list"].label = "Cards (one 'N Name' a line; section headers are ignored)"
