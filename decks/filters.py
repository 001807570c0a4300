"""Filters of the deck API list."""

import django_filters

from .models import Deck


class DeckFilter(django_filters.FilterSet):
    game = django_filters.CharFilter(field_name="game__slug")
    # not "format": DRF reads ?format= to choose the renderer
    fmt = django_filters.CharFilter(field_name="format", label="format slug")
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label="name contains")
    legal = django_filters.BooleanFilter(field_name="legal")

    class Meta:
        model = Deck
        fields = ["game", "fmt", "q", "legal"]
