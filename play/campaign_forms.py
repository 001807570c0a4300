"""Forms of the campaign pages; labels and help come from the game's `CampaignRules`."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, cast

from django import forms
from django.template.defaultfilters import capfirst, pluralize

from decks.models import Deck
from validation.capabilities import CampaignRules

from .models import Campaign, GameResult


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "points_total", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, rules: CampaignRules, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("points_total", rules.default_points)
        super().__init__(*args, **kwargs)
        self.fields[
            "points_total"
        ].help_text = f"The {rules.points_label}s every player's {rules.list_label} must total."


class DeckChoiceField(forms.ModelChoiceField):
    """A menu of decks, each named with what tells it apart from another of the same name."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.picker_details})"


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=100)
    deck: forms.ModelChoiceField[Any] = DeckChoiceField(queryset=None)

    def __init__(self, *args, owner=None, game=None, rules: CampaignRules, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["deck"])
        field.label = capfirst(rules.list_label)
        field.help_text = f"one of your {game.name} decks"
        field.queryset = (
            Deck.objects.owned_by(owner)
            .filter(game=game)
            .select_related("game", "current_version")
            .order_by("name")
        )


class GameRecordForm(forms.Form):
    date = forms.DateField(
        initial=dt.date.today, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    notes = forms.CharField(max_length=500, required=False)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        choices = [("", "did not play"), *GameResult.choices]
        for p in self.players:
            self.fields[f"result_{p.pk}"] = forms.ChoiceField(
                label=p.name, choices=choices, required=False
            )

    def result_fields(self):
        return [self[f"result_{p.pk}"] for p in self.players]

    def results(self):
        return [
            (p, self.cleaned_data[f"result_{p.pk}"])
            for p in self.players
            if self.cleaned_data.get(f"result_{p.pk}")
        ]


CARD_LINE = re.compile(r"^\s*(\d+)\s*x?\s+(.+?)\s*$")


def parse_card_list(text: str) -> dict[str, int]:
    """ "2 Spearman, 1 Archer" (commas or lines; a bare name is 1) -> {name: count}."""
    out: dict[str, int] = {}
    for part in re.split(r"[,\n]", text or ""):
        part = part.strip()
        if not part:
            continue
        m = CARD_LINE.match(part)
        count, name = (int(m.group(1)), m.group(2)) if m else (1, part)
        out[name] = out.get(name, 0) + count
    return out


class SpendForm(forms.Form):
    player = forms.ChoiceField()
    kind = forms.ChoiceField(widget=forms.RadioSelect, initial="award")
    count = forms.IntegerField(min_value=1, max_value=50, initial=1, required=False)
    remove = forms.CharField(required=False)
    add = forms.CharField(required=False)

    def __init__(self, *args, players=(), rules: CampaignRules, examples=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.players = {str(p.pk): p for p in players}
        cast(forms.ChoiceField, self.fields["player"]).choices = [
            (str(p.pk), f"{p.name} ({p.campaign_points} campaign points)") for p in players
        ]
        award, card = capfirst(rules.award_label), capfirst(rules.card_label)
        cast(forms.ChoiceField, self.fields["kind"]).choices = [
            ("award", f"{award}s ({rules.award_cost} point{pluralize(rules.award_cost)} each)"),
            (
                "swap",
                f"{card} swap ({rules.swap_cost_per_point} "
                f"point{pluralize(rules.swap_cost_per_point)} per {rules.points_label} swapped)",
            ),
        ]
        self.fields["count"].label = f"{award}s"
        self.fields["remove"].label = f"{card}s out"
        self.fields["add"].label = f"{card}s in"
        # card names of the players' lists, for the examples
        out, into = [*examples, rules.card_label, rules.card_label][:2]
        self.fields["remove"].help_text = f'e.g. "2 {out}" (several: commas)'
        self.fields["add"].help_text = f'e.g. "1 {into}"'

    def clean(self):
        super().clean()
        data = self.cleaned_data
        card = self.rules.card_label
        if data.get("kind") == "swap":
            data["remove_cards"] = parse_card_list(data.get("remove", ""))
            data["add_cards"] = parse_card_list(data.get("add", ""))
            if not data["remove_cards"]:
                self.add_error("remove", f"name the {card}s taken out")
            if not data["add_cards"]:
                self.add_error("add", f"name the {card}s put in")
        elif not data.get("count"):
            self.add_error("count", f"how many {self.rules.award_label}s?")
        return data
