"""Forms of the play tools. Choices come from the catalogue when a form is built."""

from __future__ import annotations

from django import forms

from validation.games.tactical_assault import combat_odds as co

from . import services


def _unit_choices() -> list[tuple[str, str]]:
    return [
        (c.name, f"{c.name} ({c.cost} pts)")
        for c in services.game_cards(game_slug=services.TACTICAL_ASSAULT, kind="unit_type")
    ]


def _default(choices: list[tuple[str, str]], wanted: str, index: int = 0) -> str:
    names = [v for v, _ in choices]
    if wanted in names:
        return wanted
    return names[min(index, len(names) - 1)] if names else ""


class CombatOddsForm(forms.Form):
    """Attacker, target and the Table 4 / Table 5 modifiers (built from `MODIFIERS`)."""

    attacker = forms.ChoiceField(label="Attacker")
    target = forms.ChoiceField(label="Target")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        units = _unit_choices()
        self.fields["attacker"].choices = units
        self.fields["target"].choices = units
        self.fields["attacker"].initial = _default(units, "Infantry")
        self.fields["target"].initial = _default(units, "Armored", 1)
        for spec in co.MODIFIERS:
            tables = " / ".join(
                "Table 4" if a == "firepower" else "Table 5" for a in spec["attacks"]
            )
            if spec["type"] == "choice":
                field: forms.Field = forms.ChoiceField(
                    label=spec["label"],
                    choices=[(c["value"], c["label"]) for c in spec["choices"]],
                    initial=spec["default"],
                    required=False,
                )
            else:
                shift = spec["shift"]
                suffix = f" ({'up' if shift > 0 else 'down'} one)" if shift else ""
                field = forms.BooleanField(
                    label=spec["label"] + suffix, required=False, initial=spec["default"]
                )
            field.help_text = tables if spec["name"] != "attack" else ""
            field.widget.attrs["data-attacks"] = " ".join(spec["attacks"])
            self.fields[spec["name"]] = field

    def modifier_fields(self):
        return [self[spec["name"]] for spec in co.MODIFIERS if spec["name"] != "attack"]

    def modifier_data(self) -> dict:
        data = {}
        for spec in co.MODIFIERS:
            value = self.cleaned_data.get(spec["name"])
            if spec["type"] == "choice":
                data[spec["name"]] = value or spec["default"]
            else:
                data[spec["name"]] = "1" if value else "0"
        return data


class CloseCombatForm(forms.Form):
    unit_a = forms.ChoiceField(label="Unit A")
    unit_b = forms.ChoiceField(label="Unit B")
    games = forms.IntegerField(
        min_value=1,
        max_value=services.WORKER_GAMES_MAX,
        initial=5000,
        help_text=f"up to {services.INLINE_GAMES_MAX:,} are computed at once; more run on a worker",
    )
    seed = forms.IntegerField(
        min_value=0, max_value=services.SEED_MAX, required=False, help_text="empty: a random seed"
    )
    max_rounds = forms.IntegerField(min_value=1, max_value=services.MAX_ROUNDS_MAX, initial=20)

    SIDE_LABELS = {
        "outside_arc": "contact outside the target's LOS arc",
        "in_cover": "target In Cover",
        "target_in_bunker": "target in a Bunker",
        "target_shaken": "target starts Shaken",
        "target_out_of_action": "target starts Out Of Action",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        units = _unit_choices()
        self.fields["unit_a"].choices = units
        self.fields["unit_b"].choices = units
        self.fields["unit_a"].initial = _default(units, "Infantry")
        self.fields["unit_b"].initial = _default(units, "Armored", 1)
        for side in ("a", "b"):
            for name in services.CLOSE_COMBAT_SIDE_MODIFIERS:
                self.fields[f"{side}_{name}"] = forms.BooleanField(
                    label=self.SIDE_LABELS[name], required=False
                )

    def side_fields(self, side: str):
        return [self[f"{side}_{n}"] for n in services.CLOSE_COMBAT_SIDE_MODIFIERS]

    def a_fields(self):
        return self.side_fields("a")

    def b_fields(self):
        return self.side_fields("b")

    def side_modifiers(self, side: str) -> dict[str, bool]:
        return {
            n: True
            for n in services.CLOSE_COMBAT_SIDE_MODIFIERS
            if self.cleaned_data.get(f"{side}_{n}")
        }


class CrewForm(forms.Form):
    ship = forms.ChoiceField()
    distance = forms.IntegerField(
        min_value=1,
        max_value=services.CREW_MAX_DISTANCE,
        initial=2,
        help_text="boxes between the two ships",
    )
    target = forms.ChoiceField(
        required=False, label="Matchup (enemy ship)", help_text="the schedule shown below the table"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        ships = services.red_code_ships()
        labels = [
            (s.name, f"{s.name} ({s.faction}, {s.attributes.get('ship_class', '')})") for s in ships
        ]
        self.fields["ship"].choices = labels
        self.fields["ship"].initial = labels[0][0] if labels else ""
        self.fields["target"].choices = [("", "first enemy ship"), *labels]


class VisualFieldForm(forms.Form):
    seed = forms.IntegerField(min_value=0, max_value=services.SEED_MAX)
    x = forms.IntegerField(min_value=0, max_value=7, required=False, label="Ship box x (0-7)")
    y = forms.IntegerField(min_value=0, max_value=5, required=False, label="Ship box y (0-5)")
    ships = forms.CharField(
        required=False, label="Other ships", help_text='boxes "x,y" separated by ";", e.g. 3,2;5,4'
    )


class GoldfishForm(forms.Form):
    deck = forms.ChoiceField(label="Red Mittens deck")
    games = forms.IntegerField(
        min_value=1,
        max_value=200_000,
        initial=500,
        help_text=f"up to {services.GOLDFISH_INLINE_MAX:,} are played at "
        "once here; more run on a worker",
    )
    seed = forms.IntegerField(min_value=0, max_value=services.SEED_MAX, required=False)
    max_turns = forms.IntegerField(min_value=1, max_value=100, initial=40)

    def __init__(self, *args, decks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = [(str(d.pk), f"{d.name} ({d.owner.username})") for d in decks]
