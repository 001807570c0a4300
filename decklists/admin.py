"""Decklists admin: the decklists (moderation: hide, restore, delete with a reason), their
comments, the reports queue (open reports first; act on the reported items or dismiss the
reports, with a reason) and the moderation log (read only). Every step goes through the
moderation services, so it is logged with who, when and why."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q
from django.shortcuts import render

from . import services
from .listing_cache import listings_changed
from .models import Comment, Decklist, ModerationLog, Report


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Logged with your name and the time; shown on a hidden item.",
    )


def _with_reason(modeladmin, request, queryset, *, title: str, apply):
    """An action that asks for a reason first (an intermediate page), then applies
    `apply(obj, reason)` to each selected object."""
    if "apply" in request.POST:
        form = ReasonForm(request.POST)
        if form.is_valid():
            n = 0
            for obj in queryset:
                apply(obj, form.cleaned_data["reason"])
                n += 1
            modeladmin.message_user(request, f"{title}: {n} done.", messages.SUCCESS)
            return None
    else:
        form = ReasonForm()
    return render(
        request,
        "admin/decklists/reason.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "objects": queryset,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
        },
    )


def _moderation_action(verb: str, items: str, service: Callable[..., None], keyword: str):
    """The admin action "<verb> the selected <items> (with a reason)": each selected object goes
    to `service` as its `keyword` argument, with the acting user and the reason."""

    @admin.action(description=f"{verb} the selected {items} (with a reason)")
    def action(modeladmin, request, queryset):
        return _with_reason(
            modeladmin,
            request,
            queryset,
            title=f"{verb} {items}",
            apply=lambda obj, reason: service(**{keyword: obj}, actor=request.user, reason=reason),
        )

    return action


@admin.register(Decklist)
class DecklistAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "author",
        "game",
        "format",
        "likes",
        "comments",
        "hidden",
        "published_at",
    )
    list_filter = ("game", "hidden")
    list_select_related = ("author", "game")
    search_fields = ("name", "author__username")
    raw_id_fields = ("author", "deck", "deck_version", "precedent", "set")
    readonly_fields = (
        "signature",
        "likes",
        "favourites",
        "comments",
        "score",
        "freshness",
        "hidden",
        "hidden_reason",
        "published_at",
    )
    actions = ["hide", "restore", "delete_logged"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # deleted with a reason, through the action

    def save_model(self, request, obj, form, change) -> None:
        """An edit in the admin: the cached lists are renewed once it commits."""
        super().save_model(request, obj, form, change)
        listings_changed()

    hide = _moderation_action("Hide", "decklists", services.decklist_hide, "decklist")
    restore = _moderation_action("Restore", "decklists", services.decklist_restore, "decklist")
    delete_logged = _moderation_action("Delete", "decklists", services.decklist_delete, "decklist")


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    list_display = ("pk", "decklist", "author", "created_at", "hidden")
    list_filter = ("hidden",)
    list_select_related = ("author", "decklist")
    search_fields = ("text", "author__username")
    raw_id_fields = ("decklist", "author", "reply_to")
    readonly_fields = ("html", "hidden", "hidden_reason", "created_at")
    actions = ["hide", "restore", "delete_logged"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    hide = _moderation_action("Hide", "comments", services.comment_hide, "comment")
    restore = _moderation_action("Restore", "comments", services.comment_restore, "comment")
    delete_logged = _moderation_action("Delete", "comments", services.comment_delete, "comment")


class OpenFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", "Open"), ("resolved", "Resolved")]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The queue: open reports first, oldest first, with how often each item was reported."""

    list_display = ("created_at", "item", "reports_of_item", "reporter", "reason", "outcome")
    list_filter = (OpenFilter,)
    list_select_related = ("reporter", "decklist", "comment")
    raw_id_fields = ("reporter", "decklist", "comment", "resolved_by")
    readonly_fields = ("created_at", "resolved_at", "resolved_by", "outcome")
    search_fields = ("reason", "reporter__username")
    actions = ["hide_items", "dismiss"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                open_first=Count("pk", filter=Q(resolved_at__isnull=True)),
            )
            .order_by("-open_first", "created_at")
        )

    @admin.display(description="Item")
    def item(self, obj) -> str:
        if obj.decklist_id:
            return f"decklist {obj.decklist_id}: {obj.decklist.name}"
        return f"comment {obj.comment_id}: {obj.comment.text[:80]}"

    @admin.display(description="Reports of the item")
    def reports_of_item(self, obj) -> int:
        target = (
            {"decklist_id": obj.decklist_id} if obj.decklist_id else {"comment_id": obj.comment_id}
        )
        return Report.objects.filter(**target).count()

    @admin.action(description="Hide the reported items (with a reason)")
    def hide_items(self, request, queryset):
        def apply(report, reason):
            if report.decklist_id:
                services.decklist_hide(decklist=report.decklist, actor=request.user, reason=reason)
            else:
                services.comment_hide(comment=report.comment, actor=request.user, reason=reason)

        return _with_reason(self, request, queryset, title="Hide reported items", apply=apply)

    @admin.action(description="Dismiss the selected reports (with a reason)")
    def dismiss(self, request, queryset):
        return _with_reason(
            self,
            request,
            queryset,
            title="Dismiss reports",
            apply=lambda r, reason: services.reports_dismiss(
                reports=Report.objects.filter(pk=r.pk), actor=request.user, reason=reason
            ),
        )


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "target_kind", "target_id", "target", "reason")
    list_filter = ("action", "target_kind")
    search_fields = ("target", "reason", "actor__username")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
