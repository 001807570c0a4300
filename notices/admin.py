from django.contrib import admin

from .models import Notice, NoticePreference


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["created_at", "owner", "deck", "kind", "rule_set_code", "read_at"]
    list_filter = ["kind"]
    raw_id_fields = ["owner", "deck"]
    readonly_fields = ["created_at"]


@admin.register(NoticePreference)
class NoticePreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "email_digest", "digest_sent_at"]
    raw_id_fields = ["user"]
