from django.contrib import admin

from .models import Notice, NoticePreference


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "owner",
        "subject_kind",
        "subject_id",
        "kind",
        "rule_set_code",
        "read_at",
    ]
    list_filter = ["kind", "subject_kind"]
    raw_id_fields = ["owner"]
    readonly_fields = ["created_at"]


@admin.register(NoticePreference)
class NoticePreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "email_digest", "digest_sent_at"]
    raw_id_fields = ["user"]
