"""Personal API tokens: `Authorization: Bearer <token>` (or `Token <token>`), made and revoked
on the account page. The token is django-rest-knox's (hashed at rest, optional expiry); its
scope is ours: a read-only token may only read (GET, HEAD, OPTIONS)."""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.permissions import SAFE_METHODS

from .models import ApiToken

PREFIXES = (b"bearer", b"token")
#: The longest life a token can be given, in days.
MAX_EXPIRY_DAYS = 366


class InsufficientScope(exceptions.PermissionDenied):
    """A read-only token sent to write: 403 with `WWW-Authenticate` saying why (RFC 6750's
    `insufficient_scope`), set by the API's exception handler from `www_authenticate`."""

    default_detail = _("This token is read-only; it cannot write.")
    www_authenticate = (
        'Bearer realm="api", error="insufficient_scope", '
        'error_description="This token is read-only; it cannot write."'
    )


class BearerTokenAuthentication(TokenAuthentication):
    """Knox's token authentication, reading `Bearer` or `Token`, with the token's scope
    enforced. First of the API's authentication classes: a request without credentials
    answers 401 with `WWW-Authenticate: Bearer`."""

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
        user, token = self.authenticate_credentials(auth[1])
        if token.scope != token.WRITE and request.method not in SAFE_METHODS:
            raise InsufficientScope()
        return user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


def create_token(user, *, name: str, scope: str, expiry_days: int | None):
    """A new token of `user`: (the stored token, the token's text, shown once)."""
    expiry = timedelta(days=expiry_days) if expiry_days else None
    return ApiToken.objects.create(user, expiry=expiry, name=name, scope=scope)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "cardsite.tokens.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A personal API token, made on the account page (/accounts/profile/): "
                "`Authorization: Bearer <token>` (`Token <token>` also works)."
            ),
        }
