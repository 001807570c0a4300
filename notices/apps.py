from django.apps import AppConfig


def profile_notice_preference(user) -> dict:
    """The profile page's email digest setting."""
    from .services import preference_for

    return {"notice_preference": preference_for(user)}


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
