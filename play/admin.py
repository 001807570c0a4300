from django.contrib import admin

from .models import Campaign, CampaignGame, CampaignGameResult, CampaignPlayer, CampaignSpend


class PlayerInline(admin.TabularInline):
    model = CampaignPlayer
    extra = 0
    raw_id_fields = ("deck", "user")


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "points_total", "updated_at")
    list_filter = ("game",)
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)
    inlines = [PlayerInline]


class ResultInline(admin.TabularInline):
    model = CampaignGameResult
    extra = 0


@admin.register(CampaignGame)
class CampaignGameAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "date")
    inlines = [ResultInline]


@admin.register(CampaignSpend)
class CampaignSpendAdmin(admin.ModelAdmin):
    list_display = ("player", "kind", "points", "awards", "deck_version", "created_at")
    list_filter = ("kind",)
