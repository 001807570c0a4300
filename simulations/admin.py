from django.contrib import admin, messages

from . import services
from .models import SimulationRun


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "simulation",
        "label",
        "owner",
        "status",
        "chunks_done",
        "n_chunks",
        "created_at",
    )
    list_filter = ("status", "kind", "simulation")
    search_fields = ("label", "owner__username", "simulation")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "owner",
        "kind",
        "simulation",
        "deck_version",
        "label",
        "params",
        "seed",
        "status",
        "n_chunks",
        "chunks_done",
        "chunk_started",
        "timings",
        "attempts",
        "error",
        "created_at",
        "started_at",
        "heartbeat_at",
        "finished_at",
        "results",
    )
    exclude = ("chunk_results", "chunk_progress", "inputs")
    actions = ("reap",)

    def has_add_permission(self, request) -> bool:
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("chunk_results", "inputs")

    @admin.action(description="Check the selected runs for lost chunks now")
    def reap(self, request, queryset) -> None:
        outcomes = [
            services.simulation_check(run)
            for run in queryset.filter(status__in=["queued", "running"])
        ]
        self.message_user(
            request,
            f"{outcomes.count('requeued')} re-queued, {outcomes.count('failed')} failed",
            messages.INFO,
        )
