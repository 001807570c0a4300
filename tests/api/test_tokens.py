"""Personal API tokens: made and revoked on the account page, shown once, stored hashed, sent
as `Bearer` or `Token`, with a scope and an optional expiry; no credentials is a 401."""

from __future__ import annotations

import base64
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from cardsite import scopes
from cardsite.models import ApiToken

pytestmark = pytest.mark.django_db


def make_token(client, user, **fields) -> str:
    client.force_login(user)
    data = {"name": "my script", "scope": scopes.ALL, **fields}
    response = client.post("/accounts/tokens/", data, follow=True)
    assert response.redirect_chain == [("/accounts/profile/", 302)], response.content
    match = re.search(r'<code id="new-token"[^>]*>([^<]+)</code>', response.content.decode())
    assert match
    client.logout()
    return match.group(1)


def test_a_token_is_shown_once_and_stored_hashed(client, user):
    text = make_token(client, user)
    stored = ApiToken.objects.get()
    assert stored.name == "my script" and stored.scopes == scopes.ALL and stored.expiry is None
    assert text not in {stored.digest, stored.token_key} and len(stored.digest) == 128
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert "my script" in page and text not in page


@pytest.mark.parametrize("prefix", ["Bearer", "Token", "bearer"])
def test_a_token_authenticates_the_api(client, user, sample_catalogue, prefix):
    text = make_token(client, user)
    response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"{prefix} {text}")
    assert response.status_code == 200


def test_making_a_token_redirects_and_a_reload_makes_no_second_token(client, user):
    """Post/redirect/get: the token is shown on the page the creation redirects to, once;
    reloading that page neither shows it again nor makes another token."""
    client.force_login(user)
    response = client.post("/accounts/tokens/", {"name": "my script", "scope": ["read"]})
    assert response.status_code == 302 and response["Location"] == "/accounts/profile/"
    assert ApiToken.objects.filter(user=user).count() == 1
    shown = client.get("/accounts/profile/")
    assert shown["Cache-Control"] == "no-store"
    text = re.search(r'<code id="new-token"[^>]*>([^<]+)</code>', shown.content.decode()).group(1)
    reloaded = client.get("/accounts/profile/").content.decode()
    assert text not in reloaded and 'id="new-token"' not in reloaded
    assert ApiToken.objects.filter(user=user).count() == 1


def test_a_read_only_token_reads_but_cannot_write(client, user, sample_catalogue):
    text = make_token(client, user, scope=scopes.READ_ONLY)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {text}"}
    assert client.get("/api/decks/", **auth).status_code == 200
    response = client.post(
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "x"},
        content_type="application/json",
        **auth,
    )
    assert response.status_code == 403
    assert "decks:write" in response.json()["detail"]
    # RFC 6750: the scope is what is missing, said where a client looks for it
    challenge = response["WWW-Authenticate"]
    assert challenge.startswith("Bearer ") and 'error="insufficient_scope"' in challenge
    assert 'scope="decks:write"' in challenge


def test_a_read_write_token_writes(client, user, sample_catalogue):
    text = make_token(client, user, scope=[scopes.DECKS_WRITE])
    response = client.post(
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "x"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {text}",
    )
    assert response.status_code == 201, response.content


def test_an_expired_or_revoked_token_is_refused(client, user, sample_catalogue):
    expiring = make_token(client, user, expiry_days=1)
    revoked = make_token(client, user, name="other")
    ApiToken.objects.filter(name="my script").update(expiry=timezone.now() - timedelta(seconds=1))
    response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {expiring}")
    assert response.status_code == 401
    client.force_login(user)
    token = ApiToken.objects.get(name="other")
    page = client.post(
        f"/accounts/tokens/{token.token_key}/revoke/", {"digest": token.digest}, follow=True
    )
    assert "Token revoked" in page.content.decode()
    client.logout()
    response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {revoked}")
    assert response.status_code == 401


def test_someone_elses_token_cannot_be_revoked(client, user, other_user):
    make_token(client, other_user)
    token = ApiToken.objects.get()
    client.force_login(user)
    response = client.post(f"/accounts/tokens/{token.token_key}/revoke/", {"digest": token.digest})
    assert response.status_code == 404 and ApiToken.objects.exists()


def test_no_credentials_is_a_401_saying_how_to_authenticate(client, sample_catalogue):
    response = client.get("/api/simulations/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json()["type"] == "urn:cardsite:problem:not-authenticated"


def test_a_bad_token_is_a_401(client, sample_catalogue):
    response = client.get("/api/decks/", HTTP_AUTHORIZATION="Bearer nope")
    assert response.status_code == 401 and "WWW-Authenticate" in response


def test_basic_still_works(client, user, sample_catalogue, django_user_model):
    django_user_model.objects.create_user("basic", "b@example.com", "basic-pass-2026")
    header = base64.b64encode(b"basic:basic-pass-2026").decode()
    response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Basic {header}")
    assert response.status_code == 200


def test_the_schema_declares_the_token_scheme(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert schema["components"]["securitySchemes"]["tokenAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["tokenAuth"]["description"],
    }
    assert {"tokenAuth": []} in schema["paths"]["/api/decks/"]["post"]["security"]
