from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.settings import api_settings

from . import oauth, views


class _FormatOverride:
    """DRF's settings with `?format=` naming a renderer (the API's own settings have none)."""

    URL_FORMAT_OVERRIDE = "format"

    def __getattr__(self, name):
        return getattr(api_settings, name)


class SchemaNegotiation(DefaultContentNegotiation):
    settings = _FormatOverride()  # type: ignore[assignment]  # api_settings with the override


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema: YAML, or JSON with `?format=json` (or `Accept: application/json`)."""

    content_negotiation_class = SchemaNegotiation


# A lost database met outside a view answers 503, not 500 (cardsite.outages); any other
# failure the site's own 500 page (cardsite.views.server_error).
handler500 = "cardsite.outages.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("", include("tabletop.urls")),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/tokens/", views.token_create, name="token-create"),
    path("accounts/tokens/<str:token_key>/revoke/", views.token_revoke, name="token-revoke"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("oauth/", include("cardsite.oauth_urls")),
    path(
        ".well-known/oauth-authorization-server",
        oauth.MetadataView.as_view(),
        name="oauth-metadata",
    ),
    path("health/", views.health, name="health"),
    path("health/worker/", views.worker_ping, name="worker-ping"),
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("cardsite.api_urls")),
    path("", include("catalogue.urls")),
    # before decks.urls: /simulations/ is this app's list (decks has a placeholder there)
    path("simulations/", include("simulations.urls")),
    path("", include("decks.builder.urls")),
    path("", include("decks.urls")),
    path("", include("play.urls")),
    path("", include("notices.urls")),
    path("", include("decklists.urls")),
]

# Uploaded media, unless MEDIA_URL points at another host (a CDN or object store).
if "://" not in settings.MEDIA_URL and not settings.MEDIA_URL.startswith("//"):
    from django.urls import re_path

    from .media import serve_media

    urlpatterns.append(
        re_path(rf"^{settings.MEDIA_URL.strip('/')}/(?P<path>.+)$", serve_media, name="media")
    )

handler404 = "cardsite.views.page_not_found"
