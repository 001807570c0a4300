"""Apps acting for a player (OAuth 2): registering an app, the consent screen, the code
exchanged with PKCE (S256 only), refresh tokens rotated, revocation, introspection for
staff, the metadata document, and what is refused (an unknown redirect URI, no state, a
reused code, a reused refresh token, a revoked grant)."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from datetime import timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.contrib.auth.hashers import identify_hasher
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from rest_framework.throttling import ScopedRateThrottle

from cardsite import scopes
from cardsite.models import AllowedApp

pytestmark = pytest.mark.django_db

REDIRECT = "http://127.0.0.1/callback"


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def register(client, owner, *, kind="public", uris=REDIRECT, name="Deck Tracker") -> Application:
    client.force_login(owner)
    response = client.post(
        "/oauth/apps/", {"name": name, "redirect_uris": uris, "client_type": kind}
    )
    assert response.status_code == 302, response.content.decode()
    app = Application.objects.get(name=name)
    assert response["Location"] == f"/oauth/apps/{app.pk}/"
    client.logout()
    return app


def authorize_url(app, challenge, *, scope="read decks:read decks:write", **extra) -> str:
    params = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": "http://127.0.0.1:53682/callback",
        "scope": scope,
        "state": "xyz-state",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        **extra,
    }
    return "/oauth/authorize/?" + urlencode({k: v for k, v in params.items() if v is not None})


def consent(client, user, app, challenge, **extra) -> str:
    """Sign in, see the consent screen, allow: the code the app is sent back with."""
    client.force_login(user)
    page = client.get(authorize_url(app, challenge, **extra))
    assert page.status_code == 200, page.content.decode()
    form = {
        name: value
        for name, value in re.findall(
            r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.content.decode()
        )
    }
    form["allow"] = "on"
    response = client.post("/oauth/authorize/", form)
    assert response.status_code == 302, response.content.decode()
    back = urlsplit(response["Location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == "http://127.0.0.1:53682/callback"
    query = parse_qs(back.query)
    assert query["state"] == ["xyz-state"]
    return query["code"][0]


def exchange(client, app, code, verifier, **extra):
    return client.post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": "http://127.0.0.1:53682/callback",
            "client_id": app.client_id,
            "code_verifier": verifier,
            **extra,
        },
    )


def test_the_whole_walk_consent_code_token_deck_refresh_revoke(
    client, user, other_user, sample_catalogue
):
    app = register(client, other_user)
    verifier, challenge = pkce()
    client.force_login(user)
    page = client.get(authorize_url(app, challenge)).content.decode()
    # the screen names the app, its author and each scope in words
    assert "Deck Tracker" in page and other_user.username in page
    for scope in ("read", "decks:read", "decks:write"):
        assert scopes.SCOPES[scope] in page
    assert scopes.SCOPES["collection:write"] not in page
    code = consent(client, user, app, challenge)
    client.logout()

    answer = exchange(client, app, code, verifier)
    assert answer.status_code == 200, answer.content
    tokens = answer.json()
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "read decks:read decks:write"
    # stored hashed: only a checksum of each token is kept
    stored = AccessToken.objects.get()
    assert stored.token == "" and tokens["access_token"] not in stored.token_checksum
    assert stored.token_checksum == hashlib.sha256(tokens["access_token"].encode()).hexdigest()
    assert RefreshToken.objects.get().token == ""

    made = client.post(
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "From the app"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}",
    )
    assert made.status_code == 201, made.content
    assert AllowedApp.objects.get(user=user).last_used is not None

    # the code is single-use
    again = exchange(client, app, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"

    # a refresh rotates the refresh token; the old one is then refused
    refreshed = client.post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": app.client_id,
        },
    )
    assert refreshed.status_code == 200, refreshed.content
    new = refreshed.json()
    assert new["refresh_token"] != tokens["refresh_token"]
    assert new["access_token"] != tokens["access_token"]
    reused = client.post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": app.client_id,
        },
    )
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"

    # the player revokes the app: its tokens are refused
    client.force_login(user)
    remembered = client.get(authorize_url(app, pkce()[1]))  # no screen: sent straight back
    fresh = parse_qs(urlsplit(remembered["Location"]).query)["code"][0]
    listed = client.get("/oauth/allowed/").content.decode()
    assert "Deck Tracker" in listed and scopes.SCOPES["decks:write"] in listed
    consent_row = AllowedApp.objects.get(user=user)
    revoked = client.post(f"/oauth/allowed/{consent_row.pk}/revoke/", follow=True)
    assert "can no longer act for you" in revoked.content.decode()
    client.logout()
    for token in (tokens["access_token"], new["access_token"]):
        refused = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert refused.status_code == 401
    assert not Grant.objects.filter(code=fresh).exists()
    assert not AllowedApp.objects.filter(user=user).exists()


def test_a_remembered_grant_skips_the_screen_until_more_is_asked(client, user, other_user):
    app = register(client, other_user)
    consent(client, user, app, pkce()[1])
    client.force_login(user)
    same = client.get(authorize_url(app, pkce()[1], scope="read decks:read"))
    assert same.status_code == 302 and "code=" in same["Location"]
    more = client.get(authorize_url(app, pkce()[1], scope="read collection:write"))
    assert more.status_code == 200 and scopes.SCOPES["collection:write"] in more.content.decode()


def test_cancel_sends_the_app_access_denied_and_remembers_nothing(client, user, other_user):
    app = register(client, other_user)
    client.force_login(user)
    page = client.get(authorize_url(app, pkce()[1])).content.decode()
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    response = client.post("/oauth/authorize/", form)
    assert response.status_code == 302 and "error=access_denied" in response["Location"]
    assert not AllowedApp.objects.exists()


def test_a_confidential_app_needs_its_secret_and_a_rotated_secret_replaces_it(
    client, user, other_user
):
    client.force_login(other_user)
    form = {"name": "Server", "redirect_uris": "https://tracker.example/cb"}
    made = client.post("/oauth/apps/", {**form, "client_type": "confidential"}, follow=True)
    app = Application.objects.get()
    shown = made.content.decode()
    secret = re.search(r'<code id="client-secret">([^<]+)</code>', shown).group(1)
    assert app.client_id in shown
    assert 'id="client-secret"' not in client.get(f"/oauth/apps/{app.pk}/").content.decode()
    app.refresh_from_db()
    assert app.client_secret != secret and identify_hasher(app.client_secret)  # stored hashed

    def walk(secret_given):
        verifier, challenge = pkce()
        client.force_login(user)
        answer = client.get(
            authorize_url(app, challenge, redirect_uri="https://tracker.example/cb")
        )
        if answer.status_code == 200:  # the first time: the screen (then it is remembered)
            page = answer.content.decode()
            form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
            answer = client.post("/oauth/authorize/", {**form, "allow": "on"})
        code = parse_qs(urlsplit(answer["Location"]).query)["code"][0]
        client.logout()
        return client.post(
            "/oauth/token/",
            {
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": "https://tracker.example/cb",
                "code_verifier": verifier,
            },
            HTTP_AUTHORIZATION="Basic "
            + base64.b64encode(f"{app.client_id}:{secret_given}".encode()).decode(),
        )

    assert walk(secret).status_code == 200
    assert walk("wrong").status_code == 401
    client.force_login(other_user)
    rotated = client.post(f"/oauth/apps/{app.pk}/secret/", follow=True).content.decode()
    new_secret = re.search(r'<code id="client-secret">([^<]+)</code>', rotated).group(1)
    assert new_secret != secret
    assert walk(secret).status_code == 401
    assert walk(new_secret).status_code == 200


def test_pkce_is_required_and_plain_is_refused(client, user, other_user):
    app = register(client, other_user)
    client.force_login(user)
    missing = client.get(authorize_url(app, None, code_challenge_method=None))
    assert missing.status_code == 302
    assert "error=invalid_request" in missing["Location"] and "code=" not in missing["Location"]
    plain = client.get(authorize_url(app, "a" * 50, code_challenge_method="plain"))
    assert plain.status_code == 302 and "error=invalid_request" in plain["Location"]
    assert "S256" in parse_qs(urlsplit(plain["Location"]).query)["error_description"][0]


def test_a_wrong_verifier_gets_no_token(client, user, other_user):
    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    client.logout()
    answer = exchange(client, app, code, pkce()[0])
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


def test_an_unknown_redirect_uri_is_an_error_page_never_a_redirect(client, user, other_user):
    app = register(client, other_user)
    client.force_login(user)
    for uri in ("https://evil.example/cb", "http://127.0.0.1:8000/other", "http://localhost/cb"):
        response = client.get(authorize_url(app, pkce()[1], redirect_uri=uri))
        assert response.status_code == 400 and "Location" not in response
        assert 'id="oauth-error"' in response.content.decode()
    unknown_client = client.get(authorize_url(app, pkce()[1], client_id="nope"))
    assert unknown_client.status_code == 400 and "Location" not in unknown_client


def test_state_is_required(client, user, other_user):
    app = register(client, other_user)
    client.force_login(user)
    response = client.get(authorize_url(app, pkce()[1], state=None))
    assert response.status_code == 400 and "Location" not in response
    assert "state" in response.content.decode()


def test_a_code_expires_after_a_minute(client, user, other_user):
    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    grant = Grant.objects.get(code=code)
    assert (grant.expires - grant.created).total_seconds() <= 61
    Grant.objects.filter(pk=grant.pk).update(expires=grant.created)
    client.logout()
    answer = exchange(client, app, code, verifier)
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


@pytest.mark.parametrize(
    ("uris", "problem"),
    [
        ("http://tracker.example/cb", "http is only for a desktop app"),
        ("http://localhost:8000/cb", "http is only for a desktop app"),
        ("ftp://tracker.example/cb", "use https"),
        ("https://tracker.example/cb#frag", "fragment"),
        ("tracker", "names no host"),
    ],
)
def test_a_redirect_uri_must_be_https_or_loopback(client, user, uris, problem):
    client.force_login(user)
    response = client.post(
        "/oauth/apps/", {"name": "x", "redirect_uris": uris, "client_type": "public"}
    )
    assert response.status_code == 400 and problem in response.content.decode()
    assert not Application.objects.exists()


def test_loopback_redirects_take_any_port(client, user, other_user):
    app = register(client, other_user, uris="http://[::1]/cb http://127.0.0.1/callback")
    client.force_login(user)
    for uri in ("http://[::1]:49152/cb", "http://127.0.0.1:1234/callback"):
        response = client.get(authorize_url(app, pkce()[1], redirect_uri=uri))
        assert response.status_code == 200, uri


def test_someone_elses_app_and_consent_are_not_yours(client, user, other_user):
    app = register(client, other_user, kind="confidential", uris="https://t.example/cb")
    client.force_login(user)
    assert client.get(f"/oauth/apps/{app.pk}/").status_code == 404
    assert client.post(f"/oauth/apps/{app.pk}/secret/").status_code == 404
    assert client.post(f"/oauth/apps/{app.pk}/delete/").status_code == 404
    consent_row = AllowedApp.objects.create(user=other_user, application=app, scope="read")
    assert client.post(f"/oauth/allowed/{consent_row.pk}/revoke/").status_code == 404
    assert AllowedApp.objects.filter(pk=consent_row.pk).exists()


def test_the_pages_need_csrf(user):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    response = strict.post(
        "/oauth/apps/", {"name": "x", "redirect_uris": REDIRECT, "client_type": "public"}
    )
    assert response.status_code == 403 and not Application.objects.exists()


def test_revocation_endpoint_rfc7009(client, user, other_user, sample_catalogue):
    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    client.logout()
    tokens = exchange(client, app, code, verifier).json()
    answer = client.post(
        "/oauth/revoke/", {"token": tokens["access_token"], "client_id": app.client_id}
    )
    assert answer.status_code == 200
    refused = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert refused.status_code == 401


def test_introspection_is_for_staff(client, user, other_user, django_user_model):
    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    client.logout()
    tokens = exchange(client, app, code, verifier).json()
    assert client.post("/oauth/introspect/", {"token": tokens["access_token"]}).status_code == 401
    client.force_login(user)
    assert client.post("/oauth/introspect/", {"token": tokens["access_token"]}).status_code == 401
    django_user_model.objects.create_user(
        "staff", "s@example.com", "staff-pass-2026", is_staff=True
    )
    client.logout()
    basic = base64.b64encode(b"staff:staff-pass-2026").decode()
    found = client.post(
        "/oauth/introspect/",
        {"token": tokens["access_token"]},
        HTTP_AUTHORIZATION=f"Basic {basic}",
    ).json()
    assert found["active"] is True and found["client_id"] == app.client_id
    assert found["username"] == user.username and found["scope"] == "read decks:read decks:write"
    gone = client.post(
        "/oauth/introspect/", {"token": "nope"}, HTTP_AUTHORIZATION=f"Basic {basic}"
    ).json()
    assert gone == {"active": False}


def test_the_metadata_document_rfc8414(client, db):
    response = client.get("/.well-known/oauth-authorization-server")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    meta = response.json()
    issuer = "http://testserver"
    assert meta["issuer"] == issuer
    assert meta["authorization_endpoint"] == f"{issuer}/oauth/authorize/"
    assert meta["token_endpoint"] == f"{issuer}/oauth/token/"
    assert meta["revocation_endpoint"] == f"{issuer}/oauth/revoke/"
    assert meta["introspection_endpoint"] == f"{issuer}/oauth/introspect/"
    assert meta["response_types_supported"] == ["code"]
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert set(meta["scopes_supported"]) == set(scopes.SCOPES)
    assert "none" in meta["token_endpoint_auth_methods_supported"]
    assert "client_secret_basic" in meta["token_endpoint_auth_methods_supported"]
    # RFC 8414 §2: the issuer is an https (here the test's http) URL with no query or fragment
    parts = urlsplit(meta["issuer"])
    assert parts.scheme in {"https", "http"} and not parts.query and not parts.fragment
    for key, value in meta.items():
        if key.endswith("_endpoint") or key == "service_documentation":
            assert value.startswith(issuer), key


def _rates(monkeypatch, **changes):
    rates = dict(ScopedRateThrottle.THROTTLE_RATES, **changes)
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)


def test_the_token_endpoint_is_throttled(client, monkeypatch, db):
    _rates(monkeypatch, oauth_token="3/min")
    answers = [
        client.post("/oauth/token/", {"grant_type": "authorization_code", "code": "x"})
        for _ in range(4)
    ]
    # RFC 6749 §5.2: no client named is invalid_client, in the endpoint's own JSON
    assert [a.status_code for a in answers[:3]] == [401, 401, 401]
    assert answers[0].json()["error"] == "invalid_client"
    assert answers[3].status_code == 429 and answers[3].json()["error"] == "slow_down"
    assert int(answers[3]["Retry-After"]) > 0


def test_the_consent_screen_is_throttled(client, user, monkeypatch):
    _rates(monkeypatch, oauth_authorize="2/min")
    client.force_login(user)
    codes = [client.get("/oauth/authorize/?state=s").status_code for _ in range(3)]
    assert codes == [400, 400, 429]


def test_an_unknown_or_expired_token_is_invalid_token(client, user, other_user, sample_catalogue):
    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    client.logout()
    tokens = exchange(client, app, code, verifier).json()
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    for token in (tokens["access_token"], "unknown"):
        response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Bearer realm="api", error="invalid_token"'
        assert response.json()["type"] == "urn:cardsite:problem:not-authenticated"


def test_expired_codes_and_tokens_are_cleared(client, user, other_user):
    from cardsite.tasks import clear_expired_oauth

    app = register(client, other_user)
    verifier, challenge = pkce()
    code = consent(client, user, app, challenge)
    client.logout()
    exchange(client, app, code, verifier)
    client.force_login(user)
    client.get(authorize_url(app, pkce()[1]))  # remembered: a code never exchanged
    assert Grant.objects.count() == 1  # the exchanged code is gone already
    past = timezone.now() - timedelta(days=1)
    Grant.objects.update(expires=past)
    AccessToken.objects.update(expires=past)
    RefreshToken.objects.update(revoked=past - timedelta(days=100))
    clear_expired_oauth()
    assert not Grant.objects.exists() and not AccessToken.objects.exists()
    assert not RefreshToken.objects.exists()
