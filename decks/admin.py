"""Deck admin: decks with their versions (read only: versions are immutable), and
collections."""

from __future__ import annotations

from django.contrib import admin, messages

from . import services
from .models import CollectionEntry, Deck, DeckVersion


class DeckVersionInline(admin.TabularInline):
    model = DeckVersion
    fk_name = "deck"
    extra = 0
    can_delete = False
    fields = ("number", "created_at", "author", "based_on", "legal")
    readonly_fields = fields
    show_change_link = True
    ordering = ("-number",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("author", "based_on")

    @admin.display(boolean=True)
    def legal(self, obj) -> bool:
        return obj.legal


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "owner",
        "game",
        "format",
        "visibility",
        "legal",
        "violations_count",
        "updated_at",
    )
    list_filter = ("game", "visibility", "legal")
    list_select_related = ("owner", "game")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "cloned_from")
    readonly_fields = (
        "current_version",
        "share_token",
        "legal",
        "violations_count",
        "warnings_count",
        "report",
        "validated_at",
        "created_at",
        "updated_at",
    )
    inlines = [DeckVersionInline]
    actions = ["revalidate"]

    @admin.action(description="Re-validate the selected decks against the catalogue")
    def revalidate(self, request, queryset):
        n = 0
        for deck in queryset.select_related("game", "current_version"):
            if services.deck_revalidate(deck=deck) is not None:
                n += 1
        messages.success(request, f"{n} deck(s) re-validated.")


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    """Versions are immutable: viewable, never changed."""

    list_display = ("deck", "number", "author", "created_at")
    list_select_related = ("deck", "author")
    search_fields = ("deck__name",)
    readonly_fields = (
        "deck",
        "number",
        "based_on",
        "author",
        "created_at",
        "list_text",
        "entries",
        "options",
        "report",
    )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = ("owner", "card", "count", "updated_at")
    list_select_related = ("owner", "card")
    search_fields = ("owner__username", "card__name")
    raw_id_fields = ("owner",)
    autocomplete_fields = ("card",)
