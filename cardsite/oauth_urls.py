"""The OAuth endpoints and pages (cardsite.oauth), under /oauth/. The endpoints keep
django-oauth-toolkit's URL names (its `oauth2_provider` namespace), which its metadata
document reverses."""

from django.urls import include, path

from . import oauth

endpoints = (
    [
        path("authorize/", oauth.AuthorizeView.as_view(), name="authorize"),
        path("token/", oauth.TokenView.as_view(), name="token"),
        path("revoke/", oauth.RevokeTokenView.as_view(), name="revoke-token"),
        path("introspect/", oauth.introspect, name="introspect"),
    ],
    "oauth2_provider",
)

urlpatterns = [
    path("", include(endpoints)),
    path("apps/", oauth.apps, name="oauth-apps"),
    path("apps/<int:pk>/", oauth.app_detail, name="oauth-app"),
    path("apps/<int:pk>/secret/", oauth.app_rotate_secret, name="oauth-app-secret"),
    path("apps/<int:pk>/delete/", oauth.app_delete, name="oauth-app-delete"),
    path("allowed/", oauth.allowed, name="oauth-allowed"),
    path("allowed/<int:pk>/revoke/", oauth.allowed_revoke, name="oauth-allowed-revoke"),
]
