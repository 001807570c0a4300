"""The admin forms of rule sets and their card entries."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from validation.registry import registry

from ..models import Expansion, Game, RuleSet, RuleSetCard
from .showing import KeepsWhatItShows


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
