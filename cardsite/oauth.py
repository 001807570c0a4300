"""Apps acting for a player: OAuth 2 with django-oauth-toolkit.

The endpoints (under /oauth/): the consent screen (`authorize/`, the authorization code
grant with PKCE, S256 only; `state` required), the token endpoint (`token/`: the code for
tokens, a refresh token for new ones, each refresh rotating it), revocation (`revoke/`,
RFC 7009) and introspection for staff (`introspect/`, RFC 7662); the metadata document at
/.well-known/oauth-authorization-server (RFC 8414). The consent screen and the token
endpoint are throttled; a redirect URI the app did not register is an error page, never a
redirect. The token endpoint answers RFC 6749 JSON (the API's problem documents are for
/api/).

The pages: "Your apps" (register an app, see its client id, rotate its secret, delete it)
and "Apps you allowed" (each app, its scopes, when it last acted; revoke). A consent is
remembered (`AllowedApp`) until revoked: the same app asking for scopes already allowed is
sent back without the screen.
"""

from __future__ import annotations

import base64
import ipaddress
import json
from urllib.parse import urlsplit

from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods
from oauth2_provider import views as dot
from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_refresh_token_model,
)
from oauthlib.oauth2.rfc6749.errors import InvalidRequestError
from rest_framework.authentication import get_authorization_header

from . import scopes
from .models import AllowedApp
from .throttling import PageThrottle, account_scope, page_throttle

Application = get_application_model()

LOOPBACK_HOSTS = {"127.0.0.1", "::1"}


def check_redirect_uri(uri: str) -> str | None:
    """Why `uri` cannot be an app's redirect URI (None: it can): https, or http on a loopback
    address (127.0.0.1 or [::1], any port: RFC 8252 §7.3), with no fragment."""
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018  (a port out of range raises here)
    except ValueError:
        return _("%(uri)s is not a valid address.") % {"uri": uri}
    if not parts.hostname:
        return _("%(uri)s names no host.") % {"uri": uri}
    if parts.fragment:
        return _("%(uri)s has a fragment (#…); a redirect URI may not.") % {"uri": uri}
    if parts.scheme == "https":
        return None
    if parts.scheme == "http":
        try:
            loopback = ipaddress.ip_address(parts.hostname).is_loopback
        except ValueError:
            loopback = False
        if loopback and parts.hostname in LOOPBACK_HOSTS:
            return None
        return _(
            "%(uri)s: http is only for a desktop app's loopback address "
            "(http://127.0.0.1:PORT/… or http://[::1]:PORT/…); use https."
        ) % {"uri": uri}
    return _("%(uri)s: use https (or http on 127.0.0.1 for a desktop app).") % {"uri": uri}


class AppForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="Shown to players on the consent screen.")
    redirect_uris = forms.CharField(
        label="Redirect URIs",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "One a line. https, or for a desktop app http://127.0.0.1/… (any port is "
            "accepted when the app signs a player in)."
        ),
    )
    client_type = forms.ChoiceField(
        label="Kind",
        choices=[
            (
                Application.CLIENT_PUBLIC,
                "Public: a browser or desktop app, which cannot keep a secret (PKCE alone)",
            ),
            (
                Application.CLIENT_CONFIDENTIAL,
                "Confidential: a server, which keeps a client secret",
            ),
        ],
        initial=Application.CLIENT_PUBLIC,
        widget=forms.RadioSelect,
    )

    def clean_redirect_uris(self) -> str:
        uris = self.cleaned_data["redirect_uris"].split()
        if not uris:
            raise forms.ValidationError(_("Give at least one redirect URI."))
        problems = [problem for uri in uris if (problem := check_redirect_uri(uri))]
        if problems:
            raise forms.ValidationError(problems)
        return " ".join(dict.fromkeys(uris))


#: The session key carrying a new client secret to the next view of the app's page.
NEW_SECRET_SESSION_KEY = "new_client_secret"


def _show_secret_once(request, app, secret: str) -> None:
    request.session[NEW_SECRET_SESSION_KEY] = {"app": app.pk, "secret": secret}


@login_required
@require_http_methods(["GET", "POST"])
def apps(request):
    """Your apps, and the form to register one (post/redirect/get to the new app's page)."""
    form = AppForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        secret = generate_client_secret()
        app = Application.objects.create(
            user=request.user,
            name=form.cleaned_data["name"],
            client_type=form.cleaned_data["client_type"],
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris=form.cleaned_data["redirect_uris"],
            client_secret=secret,
            hash_client_secret=True,
        )
        if app.client_type == Application.CLIENT_CONFIDENTIAL:
            _show_secret_once(request, app, secret)
        messages.success(request, _("App registered: %(name)s.") % {"name": app.name})
        return redirect("oauth-app", pk=app.pk)
    listed = Application.objects.filter(user=request.user).order_by("name")
    status = 400 if form.errors else 200
    return render(request, "oauth/apps.html", {"apps": listed, "form": form}, status=status)


@login_required
@require_http_methods(["GET"])
def app_detail(request, pk: int):
    """One of your apps: its client id, kind and redirect URIs; a new secret shown once."""
    app = get_object_or_404(Application, pk=pk, user=request.user)
    new = request.session.pop(NEW_SECRET_SESSION_KEY, None)
    secret = new.get("secret") if isinstance(new, dict) and new.get("app") == app.pk else None
    users = AllowedApp.objects.filter(application=app).count()
    response = render(
        request,
        "oauth/app_detail.html",
        {
            "app": app,
            "new_secret": secret,
            "redirect_uris": app.redirect_uris.split(),
            "users": users,
            "confidential": app.client_type == Application.CLIENT_CONFIDENTIAL,
        },
    )
    if secret:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["POST"])
def app_rotate_secret(request, pk: int):
    """A new client secret for a confidential app: the old one stops working at once."""
    app = get_object_or_404(
        Application, pk=pk, user=request.user, client_type=Application.CLIENT_CONFIDENTIAL
    )
    secret = generate_client_secret()
    app.client_secret = secret
    app.save(update_fields=["client_secret", "updated"])
    _show_secret_once(request, app, secret)
    messages.success(request, _("New secret made: the old one no longer works."))
    return redirect("oauth-app", pk=app.pk)


@login_required
@require_http_methods(["POST"])
def app_delete(request, pk: int):
    """Delete one of your apps: every token it holds stops working."""
    app = get_object_or_404(Application, pk=pk, user=request.user)
    name = app.name
    app.delete()
    messages.success(request, _("App deleted: %(name)s.") % {"name": name})
    return redirect("oauth-apps")


@login_required
@require_http_methods(["GET"])
def allowed(request):
    """The apps you allowed to act for you: their scopes, when they last acted; revoke."""
    rows = AllowedApp.objects.filter(user=request.user).select_related("application__user")
    return render(request, "oauth/allowed.html", {"allowed": rows, "words": scopes.SCOPES})


def revoke_app(user, application) -> int:
    """Forget `user`'s consent to `application` and end every token and code it holds for
    them. Returns how many consents were removed (0 or 1)."""
    with transaction.atomic():
        get_access_token_model().objects.filter(user=user, application=application).delete()
        get_refresh_token_model().objects.filter(user=user, application=application).delete()
        get_grant_model().objects.filter(user=user, application=application).delete()
        removed, _ = AllowedApp.objects.filter(user=user, application=application).delete()
    return removed


@login_required
@require_http_methods(["POST"])
def allowed_revoke(request, pk: int):
    consent = get_object_or_404(AllowedApp, pk=pk, user=request.user)
    name = consent.application.name
    revoke_app(request.user, consent.application)
    messages.success(
        request, _("%(name)s can no longer act for you: its tokens are revoked.") % {"name": name}
    )
    return redirect("oauth-allowed")


# --- The endpoints ---------------------------------------------------------------------------


def _form_action(uri: str) -> str:
    parts = urlsplit(uri)
    return f"{parts.scheme}://{parts.netloc}"


@method_decorator(page_throttle("oauth_authorize", methods=("GET", "POST")), name="dispatch")
class AuthorizeView(dot.AuthorizationView):
    """The consent screen: names the app, its author and each scope asked for in words."""

    template_name = "oauth/authorize.html"

    def _refuse(self, reason: str):
        return render(self.request, "oauth/authorize.html", {"refusal": reason}, status=400)

    def get(self, request, *args, **kwargs):
        if not request.GET.get("state"):
            return self._refuse(
                _("The app sent no state parameter, which is required: ask its author to fix it.")
            )
        try:
            asked, credentials = self.validate_authorization_request(request)
        except OAuthToolkitError as error:
            return self.error_response(error, application=None)
        app = Application.objects.get(client_id=credentials["client_id"])
        if request.GET.get("code_challenge_method") != "S256":
            # PKCE with S256 alone (RFC 7636; "plain" is refused before the screen)
            refusal = InvalidRequestError(
                description='PKCE is required: send code_challenge with code_challenge_method "S256".',
                state=credentials.get("state"),
            )
            return self.error_response(
                OAuthToolkitError(error=refusal, redirect_uri=credentials["redirect_uri"]), app
            )
        consent = AllowedApp.objects.filter(user=request.user, application=app).first()
        if consent and set(asked) <= scopes.parse(consent.scope) and "prompt" not in request.GET:
            try:
                uri, _headers, _body, _status = self.create_authorization_response(
                    request=request, scopes=" ".join(asked), credentials=credentials, allow=True
                )
            except OAuthToolkitError as error:
                return self.error_response(error, app)
            return self.redirect(uri, app)
        response = super().get(request, *args, **kwargs)
        if response.status_code == 200:
            # The form posts here, which then redirects to the app: let the browser follow.
            response._csp_update = {"form-action": [_form_action(credentials["redirect_uri"])]}
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        asked = context.get("scopes") or []
        context["scope_words"] = [(scope, scopes.SCOPES.get(scope, scope)) for scope in asked]
        return context

    def form_valid(self, form):
        if not form.cleaned_data.get("state"):
            return self._refuse(_("The app sent no state parameter, which is required."))
        response = super().form_valid(form)
        location = response.get("Location", "")
        if form.cleaned_data.get("allow") and response.status_code == 302 and "code=" in location:
            app = Application.objects.get(client_id=form.cleaned_data["client_id"])
            granted = scopes.parse(form.cleaned_data.get("scope"))
            consent, created = AllowedApp.objects.get_or_create(
                user=self.request.user,
                application=app,
                defaults={"scope": " ".join(scopes.ordered(granted))},
            )
            if not created:
                consent.scope = " ".join(scopes.ordered(granted | scopes.parse(consent.scope)))
                consent.save(update_fields=["scope"])
        return response


def _throttled_json(request):
    """Over the token endpoint's rate: 429 in the endpoint's own JSON, with Retry-After."""
    throttle = PageThrottle(account_scope("oauth_token", None))
    if throttle.rate and not throttle.allow_request(request, None):
        wait = int(throttle.wait() or 1) + 1
        response = JsonResponse(
            {
                "error": "slow_down",
                "error_description": f"Too many requests: try again in {wait} seconds.",
            },
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
    return None


@method_decorator(csrf_exempt, name="dispatch")
class TokenView(dot.TokenView):
    """The token endpoint (RFC 6749 §3.2): throttled per client address."""

    def post(self, request, *args, **kwargs):
        return _throttled_json(request) or super().post(request, *args, **kwargs)


@method_decorator(csrf_exempt, name="dispatch")
class RevokeTokenView(dot.RevokeTokenView):
    """Token revocation (RFC 7009): an app gives up an access or refresh token."""

    def post(self, request, *args, **kwargs):
        return _throttled_json(request) or super().post(request, *args, **kwargs)


def _staff(request):
    """The staff member making the request: the session's, or HTTP Basic's."""
    if request.user.is_authenticated:
        return request.user if request.user.is_staff else None
    auth = get_authorization_header(request).split()
    if len(auth) == 2 and auth[0].lower() == b"basic":
        try:
            username, _sep, password = base64.b64decode(auth[1]).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return None
        user = authenticate(request, username=username, password=password)
        return user if user is not None and user.is_staff else None
    return None


@csrf_exempt
@require_http_methods(["POST"])
def introspect(request):
    """Token introspection (RFC 7662), for staff: POST `token=…`."""
    if _staff(request) is None:
        response = JsonResponse(
            {"error": "invalid_client", "error_description": "Staff credentials are required."},
            status=401,
        )
        response["WWW-Authenticate"] = 'Basic realm="introspection"'
        return response
    return dot.IntrospectTokenView.get_token_response(request.POST.get("token"))


class MetadataView(dot.OAuthServerMetadataView):
    """The authorization server metadata (RFC 8414)."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        data = json.loads(response.content)
        data["service_documentation"] = request.build_absolute_uri("/api/docs/")
        data["revocation_endpoint_auth_methods_supported"] = data.get(
            "token_endpoint_auth_methods_supported", []
        )
        # Introspection is for staff (their own credentials), not for clients.
        data.pop("introspection_endpoint_auth_methods_supported", None)
        response = JsonResponse(data)
        response["Cache-Control"] = "public, max-age=3600"
        return response
