from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notices"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .services import unread_count_warm

        # The navigation's count is read from the cache: it is filled at sign-in, so that a
        # page costs no query for it (a page after the cached count was dropped costs one).
        user_logged_in.connect(unread_count_warm, dispatch_uid="notices-unread-warm")
