from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in

from cardsite import hooks


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notices"

    def ready(self):
        # Imported here: the services import the models, which Django loads after the app
        # configs.
        from . import services

        hooks.PROFILE_CONTEXT.register(services.profile_notice_preference)

        # The navigation's count is read from the cache: it is filled at sign-in, so that a
        # page costs no query for it (a page after the cached count was dropped costs one).
        user_logged_in.connect(services.unread_count_warm, dispatch_uid="notices-unread-warm")
