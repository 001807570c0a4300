"""Filters of the deck API list."""

import django_filters

from cardsite.schema_fields import FormatFilter, GameFilter, GivenChoiceFilter

from .models import Deck
from .verdicts import only_fresh


class DeckFilter(django_filters.FilterSet):
    game = GameFilter(field_name="game__slug")
    # not "format": DRF reads ?format= to choose the renderer
    fmt = FormatFilter(field_name="format", label="format slug")
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label="name contains")
    legal = GivenChoiceFilter(
        choices=[("true", "true"), ("false", "false"), ("1", "1"), ("0", "0")],
        method="filter_legal",
        label="legal (true or false)",
    )

    def filter_legal(self, queryset, name, value):
        # A following deck still checked under yesterday's rule set is left out until it is
        # re-checked: its stored verdict is not today's.
        return only_fresh(queryset.filter(legal=value in ("true", "1")))

    class Meta:
        model = Deck
        fields = ["game", "fmt", "q", "legal"]
