from dataclasses import replace
from typing import Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils import dateformat, timezone

from cardsite.hostile import nul_line
from validation import decklist
from validation.registry import registry

from .list_header import Header, header_options, read_header
from .lists import DeckInvalid, chosen_rule_set, list_recognise
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
        for field in ("list", NON_FIELD_ERRORS)
        for code in (TOO_LARGE, HAS_NUL)
    )


def list_field(label: str, attrs: dict[str, Any], *, required: bool = True) -> forms.CharField:
    """A list typed in a textarea (`attrs`: its rows, a placeholder), at most MAX_LIST bytes."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=MAX_LIST,
        validators=[validate_list_size],
        widget=forms.Textarea(attrs=attrs),
    )


def points_field() -> forms.IntegerField:
    return forms.IntegerField(
        label="Points (formats with an agreed total)", required=False, min_value=1, max_value=10_000
    )


def collection_field() -> forms.BooleanField:
    return forms.BooleanField(
        label="Restrict to my collection (no more copies of a card than I own)",
        required=False,
    )


def list_options(cleaned_data) -> dict:
    """The format options of a list form: the agreed points, a format's chosen variant, and
    the restriction to the user's collection."""
    options: dict = {}
    if cleaned_data.get("points"):
        options["points"] = cleaned_data["points"]
    if cleaned_data.get("variant"):
        _game_format, key, value = cleaned_data["variant"].split(":", 2)
        options[key] = value
    if cleaned_data.get("collection"):
        options["collection"] = True
    return options


#: The shape of a deck list, for empty list boxes.
LIST_PLACEHOLDER = "# comment\nSection:\n4 Card name\n2x Another card (SET)"


def default_game_format() -> str:
    """The "game/format" a list form opens on: the first registered game's first format."""
    game = registry.all()[0]
    return f"{game.slug}/{next(iter(game.formats))}"


#: The import form's first choice of game and format: read from the list itself.
AS_THE_LIST_SAYS = "As the list says (its # Game: and # Format: lines, else its sections and cards)"


def default_deck_name(game_slug: str, format: str) -> str:
    """The name of an imported deck whose list has no # Deck: line: "<game> — <format>,
    imported 3 May 2026"."""
    game = registry.get(game_slug)
    fmt = game.formats.get(format)
    day = dateformat.format(timezone.localdate(), "j M Y")
    return f"{game.name} — {fmt.name if fmt else format}, imported {day}"


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


def variant_choices() -> list[tuple[str, str]]:
    """Every value of every choice option of every format ("game/format:key:value"), for the
    list forms' variant field; the empty first choice keeps each format's default."""
    out = [("", "The format's default")]
    for game in registry.all():
        for slug, fmt in game.formats.items():
            for key, values in fmt.choices.items():
                for value in values:
                    label = f"{game.name} — {fmt.name}: {fmt.option_label(key)}: "
                    out.append(
                        (f"{game.slug}/{slug}:{key}:{value}", label + fmt.option_label(value))
                    )
    return out


def variant_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label="Variant (formats played in more than one way)",
        choices=variant_choices,
        required=False,
    )


def clean_variant(form: forms.Form, data: dict) -> None:
    """A variant belongs to the game and format the form names."""
    variant = data.get("variant")
    chosen = data.get("game_format")
    if variant and chosen and variant.split(":", 1)[0] != chosen:
        form.add_error("variant", "this variant is of another game or format than the one chosen")


def game_choices() -> list[tuple[str, str]]:
    return [(game.slug, game.name) for game in registry.all()]


#: How `read_game_format` read a list's game and format.
READ_FROM_MENU, READ_FROM_LINES, READ_FROM_SECTIONS, READ_FROM_GAME_LINE = (
    "",
    "its # Game: and # Format: lines",
    "its sections and cards",
    "its # Game: line and its sections",
)


def read_game_format(form: forms.Form, data: dict) -> tuple[Header, str]:
    """The game and format of the list in `data`, when the form's menu was left on "as the
    list says" (`data["game_format"]` empty; it is filled): the list's # Game: and # Format:
    lines (what an exported list starts with), else its section names and card names (within
    the game of its # Game: line, when it has one): of the formats whose sections fit, the
    first whose options the comment lines give (a "# Points: 50" line), else the first. The
    one reading of the check page and the import page. Answers the list's header (with the
    game, format and options read) and how they were read (READ_FROM_*: READ_FROM_MENU when
    the menu chose them); a list that says nothing recognisable is an error on the menu."""
    text = data.get("list") or ""
    header = read_header(text)
    if data.get("game_format"):
        return header, READ_FROM_MENU
    if header.game and header.format:
        data["game_format"] = f"{header.game}/{header.format}"
        return header, READ_FROM_LINES
    if not text.strip():
        return header, READ_FROM_MENU
    found = list_recognise(text=text, game_slug=header.game)
    if found.game is None:
        form.add_error(
            "game_format",
            "choose the game and format: the list has no # Game: and # Format: lines "
            f"naming them, and {found.problem}",
        )
        return header, READ_FROM_MENU
    fmt = next((f for f in found.formats if header_options(text, f)), found.formats[0])
    data["game_format"] = f"{found.game.slug}/{fmt.slug}"
    how = READ_FROM_GAME_LINE if header.game else READ_FROM_SECTIONS
    header = replace(
        header, game=found.game.slug, format=fmt.slug, options=header_options(text, fmt)
    )
    return header, how


def game_format_name(value: str) -> str:
    """The game's and the format's names ("Game — Format") for "<game>/<format>"."""
    game_slug, fmt_slug = value.split("/", 1)
    game = registry.get(game_slug)
    fmt = game.formats.get(fmt_slug)
    return f"{game.name} — {fmt.name if fmt else fmt_slug}"


def header_options_for(header: Header, chosen: str | None) -> dict[str, Any]:
    """The options the list's header gives, when the game and format checked are the ones
    it names."""
    if header.game and chosen == f"{header.game}/{header.format}":
        return dict(header.options)
    return {}


class _GameFormatChosen:
    """What a form with a list and a game-and-format menu (its `game_format`, "game/format")
    reads of a valid form: the game and format chosen, and the list's options (the form's,
    then those the list's header gives when it names the game and format chosen)."""

    cleaned_data: dict[str, Any]
    header: Header

    def split(self) -> tuple[str, str]:
        game, fmt = self.cleaned_data["game_format"].split("/", 1)
        return game, fmt

    def options(self) -> dict:
        options = list_options(self.cleaned_data)
        for key, value in header_options_for(
            self.header, self.cleaned_data.get("game_format")
        ).items():
            options.setdefault(key, value)
        return options


class CheckListForm(_GameFormatChosen, forms.Form):
    """A list to check; the menu's first choice (its default) reads the game and format from
    the list (`read_game_format`), as the import page does."""

    game_format = forms.ChoiceField(label="Game and format", choices=format_choices, required=False)
    points = points_field()
    variant = variant_field()
    list = list_field("Deck list", {"rows": 18, "placeholder": LIST_PLACEHOLDER})
    collection = collection_field()
    as_of = forms.DateField(
        label="Under the rule set in effect on (empty: today)",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "give a date as YYYY-MM-DD"},
    )
    rule_set = forms.CharField(
        label="…or under the rule set of code (e.g. S2)",
        required=False,
        max_length=40,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.header = Header()
        #: What the result says of how the game and format were chosen ("" when the menu
        #: chose them and the list names no other game).
        self.read_as = ""
        cast(forms.ChoiceField, self.fields["game_format"]).choices = [
            ("", AS_THE_LIST_SAYS),
            *format_choices(),
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if "list" in data:
            self._read_game_format(data)
        clean_variant(self, data)
        code = (data.get("rule_set") or "").strip()
        data["rule_set"] = code
        if code and data.get("as_of"):
            self.add_error(
                "rule_set", "give either a date or a rule set's code, not both (clear one)"
            )
        elif code and data.get("game_format"):
            game, fmt = data["game_format"].split("/", 1)
            try:
                chosen_rule_set(game_slug=game, format=fmt, code=code)
            except DeckInvalid as exc:
                self.add_error("rule_set", exc.errors["rule_set"])
        return data

    def _read_game_format(self, data: dict) -> None:
        """The menu left on "as the list says": the game and format the list names, or is
        recognised as (`read_game_format`)."""
        self.header, how = read_game_format(self, data)
        chosen = data.get("game_format")
        if not chosen:
            return
        if how == READ_FROM_LINES:
            self.read_as = (
                f"Checked as {game_format_name(chosen)}, as the list's # Game: and # Format: "
                "lines say."
            )
        elif how:
            self.read_as = (
                f"Checked as {game_format_name(chosen)}, read from {how} (the list has no "
                "# Format: line); to check it in another format, choose one in the menu."
            )
        elif self.header.game and self.header.game != chosen.split("/", 1)[0]:
            named = registry.get(self.header.game).name
            self.read_as = (
                f"Checked as {game_format_name(chosen)}, as chosen in the menu; the list's "
                f"# Game: line names {named}."
            )

    def chosen_rule_set(self):
        """The rule set asked for, as `list_check(rule_set=…)` takes it (a valid form)."""
        game, fmt = self.split()
        return chosen_rule_set(
            game_slug=game,
            format=fmt,
            code=self.cleaned_data["rule_set"] or None,
            as_of=self.cleaned_data["as_of"],
        )


class _ListInput(forms.Form):
    """A list typed in a textarea or given as a text file (the file wins)."""

    list = list_field("Deck list", {"rows": 18}, required=False)
    file = forms.FileField(label="…or a text file", required=False)
    list_required = False

    def clean(self):
        super().clean()
        data = self.cleaned_data
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


class DeckNewForm(_GameFormatChosen, _ListInput):
    """A new deck (game, format, name, visibility) with an optional list: the import form
    requires the list."""

    game_format = forms.ChoiceField(label="Game and format", choices=format_choices)
    name = forms.CharField(max_length=200)
    description = forms.CharField(
        required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3})
    )
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PRIVATE)
    points = points_field()
    variant = variant_field()
    collection = collection_field()
    field_order = [
        "game_format",
        "name",
        "description",
        "visibility",
        "points",
        "variant",
        "collection",
        "list",
        "file",
    ]

    def __init__(self, *args, list_required: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.list_required = list_required
        self.header = Header()
        #: How the game and format were read when the list did not name them ("" else).
        self.recognised = ""
        #: The "game/format" values whose format takes an agreed points total: the page
        #: shows the Points field for those only.
        self.points_formats = " ".join(
            f"{game.slug}/{slug}"
            for game in registry.all()
            for slug, fmt in game.formats.items()
            if "points" in fmt.adjustable
        )
        if not list_required:
            self.fields["list"].label = "Deck list (optional)"
            return
        # Importing: the paste box first; the game, format, name and points may come from
        # the list's own comment lines (what an exported list starts with).
        self.order_fields(["list", "file", "game_format", "name"])
        self.fields["list"].label = "Paste the list"
        self.fields["list"].help_text = (
            "An exported list names its deck, game and format in its first lines "
            "(# Deck:, # Game:, # Format:); those fill the fields left empty below. "
            "Without them the game is read from the list's section names and card names."
        )
        self.fields["game_format"].required = False
        cast(forms.ChoiceField, self.fields["game_format"]).choices = [
            ("", AS_THE_LIST_SAYS),
            *format_choices(),
        ]
        self.fields["name"].required = False
        self.fields["name"].help_text = "Empty: the list's # Deck: line, else its game and date."

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.list_required:
            self._fill_from_header(data)
        clean_variant(self, data)
        return data

    def _fill_from_header(self, data: dict) -> None:
        """Importing: the game, format and name left empty come from the list's own comment
        lines, else the game (and format) are recognised from the list's section names and
        card names (`read_game_format`), and without # Deck: the deck is named after its
        game, format and today's date."""
        self.header, how = read_game_format(self, data)
        chosen = data.get("game_format")
        if how in (READ_FROM_SECTIONS, READ_FROM_GAME_LINE) and chosen:
            self.recognised = (
                f"Read as {game_format_name(chosen)} from {how} (the list has no "
                "# Format: line); to import it in another format, choose one in the menu."
            )
        if not (data.get("name") or "").strip():
            if self.header.name:
                data["name"] = self.header.name
            elif chosen:
                data["name"] = default_deck_name(*chosen.split("/", 1))


class DeckEditForm(forms.Form):
    """The list of a deck as text, and the version it was opened at."""

    list = list_field("Deck list", {"rows": 24})
    base_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    points = points_field()
    collection = collection_field()

    def options(self) -> dict:
        return list_options(self.cleaned_data)


class DeckSettingsForm(forms.ModelForm):
    class Meta:
        model = Deck
        fields = ["name", "description", "visibility"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
