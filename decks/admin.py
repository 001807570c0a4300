"""Deck admin: decks with their versions (read only: versions are immutable), and the
re-checks of a format's saved decks with their progress."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html

from cardsite import jobs
from catalogue.models import Game

from . import verdicts
from .models import Deck, DeckVersion, RecheckJob
from .verdicts.recheck_jobs import recheck_start


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
            if verdicts.deck_revalidate(deck=deck) is not None:
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


class RecheckStartForm(forms.Form):
    """The admin's re-check of a format's saved decks, by hand."""

    game = forms.ModelChoiceField(queryset=Game.objects.all(), to_field_name="slug")
    format = forms.SlugField(max_length=40, help_text="the format's slug, e.g. standard")

    def clean(self):
        super().clean()
        data = self.cleaned_data
        game = data.get("game")
        if game is not None and data.get("format"):
            try:
                game.definition.format(data["format"])
            except ValueError as exc:
                self.add_error("format", str(exc))
        return data


@admin.register(RecheckJob)
class RecheckJobAdmin(admin.ModelAdmin):
    """Re-checks of saved decks on the workers: each job's progress (a page with a progress
    bar that reloads itself while the job runs), and a re-check started by hand."""

    list_display = (
        "id",
        "created_at",
        "game",
        "format",
        "rule_set_code",
        "reason",
        "status",
        "progress",
        "checked",
        "changed",
        "notices",
    )
    list_filter = ("status", "game")
    list_select_related = ("game",)
    readonly_fields = [f.name for f in RecheckJob._meta.fields]
    change_list_template = "admin/decks/recheckjob/change_list.html"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="progress")
    def progress(self, obj) -> str:
        return format_html(
            '<a href="{}">{} %</a>',
            reverse("admin:decks_recheckjob_progress", args=[obj.pk]),
            jobs.progress(obj).percent,
        )

    def get_urls(self):
        return [
            path(
                "start/",
                self.admin_site.admin_view(self.start_view),
                name="decks_recheckjob_start",
            ),
            path(
                "<int:pk>/progress/",
                self.admin_site.admin_view(self.progress_view),
                name="decks_recheckjob_progress",
            ),
        ] + super().get_urls()

    def start_view(self, request):
        if not request.user.has_perm("decks.view_recheckjob"):
            return redirect("admin:index")
        form = RecheckStartForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            job = recheck_start(
                game_slug=form.cleaned_data["game"].slug,
                format=form.cleaned_data["format"],
                reason=f"started by {request.user.get_username()}",
            )
            return redirect("admin:decks_recheckjob_progress", job.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Re-check a format's saved decks",
            "form": form,
        }
        return render(request, "admin/decks/recheckjob/start.html", context)

    def progress_view(self, request, pk: int):
        if not request.user.has_perm("decks.view_recheckjob"):
            return redirect("admin:index")
        job = get_object_or_404(RecheckJob.objects.select_related("game"), pk=pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Re-check #{job.pk}",
            "job": job,
            "progress": jobs.progress(job),
        }
        return render(request, "admin/decks/recheckjob/progress.html", context)
