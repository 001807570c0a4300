from django.apps import AppConfig


def profile_notice_preference(user) -> dict:
    """The profile page's email digest setting."""
    from .models import SWITCHABLE_KINDS
    from .services import preference_for

    pref = preference_for(user)
    muted = set(pref.muted or ())
    kinds = [(str(k), k.label, str(k) not in muted) for k in SWITCHABLE_KINDS]
    return {"notice_preference": pref, "notice_kinds": kinds}


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notices"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from cardsite import hooks

        from .services import unread_count_warm

        hooks.register("profile_context", profile_notice_preference)

        # The navigation's count is read from the cache: it is filled at sign-in, so that a
        # page costs no query for it (a page after the cached count was dropped costs one).
        user_logged_in.connect(unread_count_warm, dispatch_uid="notices-unread-warm")
