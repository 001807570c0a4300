"""Bearer tokens on the API: `Authorization: Bearer <token>`, either a personal API token
(`Token <token>` also works), made and revoked on the account page, or an OAuth access token
issued to an app a player allowed (cardsite/oauth.py). A personal token is django-rest-knox's
(hashed at rest, optional expiry), an app's is django-oauth-toolkit's (stored as a SHA-256
checksum); both carry scopes (cardsite.scopes), enforced per operation."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from . import scopes
from .models import AllowedApp, ApiToken

PREFIXES = (b"bearer", b"token")
#: The longest life a token can be given, in days.
MAX_EXPIRY_DAYS = 366


class BearerTokenAuthentication(TokenAuthentication):
    """A personal token (knox's, `Bearer` or `Token`) or else an app's OAuth access token
    (`Bearer`), with the token's scopes enforced for the operation (cardsite.scopes). First of
    the API's authentication classes: a request without credentials answers 401 with
    `WWW-Authenticate: Bearer`."""

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() not in PREFIXES:
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: give `Bearer <token>`, the token without spaces.")
            )
        try:
            auth[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        try:
            user, token = self.authenticate_credentials(auth[1])
        except exceptions.AuthenticationFailed:
            found = auth[0].lower() == b"bearer" and _oauth.authenticate(request)
            if not found:
                raise
            user, access_token = found
            scopes.enforce(request, scopes.parse(access_token.scope))
            _app_used(user, access_token)
            return user, access_token
        scopes.enforce(request, token.scopes)
        return user, token

    def authenticate_header(self, request):
        # RFC 6750 §3.1: a token that was sent but is unknown, expired or revoked is
        # `invalid_token`; no credentials at all is the bare challenge.
        auth = get_authorization_header(request).split()
        if auth and auth[0].lower() in PREFIXES:
            return 'Bearer realm="api", error="invalid_token"'
        return 'Bearer realm="api"'


_oauth = OAuth2Authentication()

#: How stale an app's "last used" may get before a request writes it again.
LAST_USED_EVERY = timedelta(minutes=5)


def _app_used(user, access_token) -> None:
    """Note when the app last acted for `user` (one UPDATE, at most every few minutes)."""
    now = timezone.now()
    AllowedApp.objects.filter(
        Q(last_used__isnull=True) | Q(last_used__lt=now - LAST_USED_EVERY),
        user=user,
        application_id=access_token.application_id,
    ).update(last_used=now)


#: The two scopes personal tokens had before scopes were split, and what they became.
OLD_SCOPES = {"read": " ".join(scopes.READ_ONLY), "write": " ".join(scopes.ALL)}


def create_token(user, *, name: str, scope: str, expiry_days: int | None):
    """A new token of `user` with `scope` (space-separated scopes; "read" alone or "write"
    alone are the two scopes of old, every reading scope or every scope): (the stored token,
    the token's text, shown once)."""
    scope = " ".join(scopes.ordered(scopes.parse(OLD_SCOPES.get(scope, scope))))
    expiry = timedelta(days=expiry_days) if expiry_days else None
    return ApiToken.objects.create(user, expiry=expiry, name=name, scope=scope)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Two schemes: the personal token (`tokenAuth`) and OAuth 2 (`oauth2`, with its scopes);
    each operation requires its declared scope of an OAuth token."""

    target_class = "cardsite.tokens.BearerTokenAuthentication"
    name = ["tokenAuth", "oauth2"]

    def get_security_requirement(self, auto_schema):
        needed = scopes.required_scope(auto_schema.view, auto_schema.method)
        return [{"tokenAuth": []}, {"oauth2": [needed] if needed else []}]

    def get_security_definition(self, auto_schema):
        return [
            {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "A personal API token, made on the account page (/accounts/profile/) "
                    "with the scopes chosen there: `Authorization: Bearer <token>` "
                    "(`Token <token>` also works)."
                ),
            },
            {
                "type": "oauth2",
                "description": (
                    "An app acting for a player: the authorization code grant with PKCE "
                    "(S256). Metadata: /.well-known/oauth-authorization-server."
                ),
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": "/oauth/authorize/",
                        "tokenUrl": "/oauth/token/",
                        "refreshUrl": "/oauth/token/",
                        "scopes": dict(scopes.SCOPES),
                    }
                },
            },
        ]


def scopes_hook(result, generator, request, public):
    """Each operation's scope also as `x-oauth2-scopes`, kept where an operation open to
    anonymous clients loses its security requirements (`security: []`): a token sent to it
    must still carry that scope."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict):
                continue
            for requirement in operation.get("security", []):
                if requirement.get("oauth2"):
                    operation["x-oauth2-scopes"] = requirement["oauth2"]
    return result
