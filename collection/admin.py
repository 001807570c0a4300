"""The collection's admin: the loose cards users own."""

from django.contrib import admin

from .models import CollectionEntry


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = ("owner", "card", "count", "updated_at")
    list_select_related = ("owner", "card")
    search_fields = ("owner__username", "card__name")
    raw_id_fields = ("owner",)
    autocomplete_fields = ("card",)
