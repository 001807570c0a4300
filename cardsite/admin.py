from django.contrib import admin

from .models import WorkerPing


@admin.register(WorkerPing)
class WorkerPingAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "answered_at", "answered_by")
    readonly_fields = ("created_at", "answered_at", "answered_by")
