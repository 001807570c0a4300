"""Scopes: every API operation declares the scope it needs, and a token without it is
refused with 403 and `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` (an app's
OAuth token and a personal token alike); the schema says so per operation."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, set_token_value

from cardsite import scopes
from cardsite.models import ApiToken
from cardsite.tokens import create_token

pytestmark = pytest.mark.django_db

#: A value for each path parameter: the routes resolve (the scope is checked before any
#: object is looked up).
SAMPLE = {
    "id": "1",
    "pk": "1",
    "slug": "redline",
    "game": "redline",
    "fmt": "standard",
    "code": "x",
    "number": "1",
    "name": "alice",
    "token": "abc",
    "tool": "x",
}


def operations(schema) -> list[tuple[str, str, list[str]]]:
    found = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                found.append((method, path, operation.get("x-oauth2-scopes")))
    return found


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def send(client, method: str, path: str, token: str, prefix: str = "Bearer"):
    url = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], path)
    body = {} if method in {"get", "delete"} else {"data": {}, "content_type": "application/json"}
    return getattr(client, method)(url, HTTP_AUTHORIZATION=f"{prefix} {token}", **body)


def oauth_token(user, granted: list[str]) -> str:
    app = Application.objects.get_or_create(
        name="walker",
        defaults={
            "user": user,
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": "https://walker.example/cb",
        },
    )[0]
    raw = secrets.token_urlsafe(30)
    token = AccessToken(
        user=user,
        application=app,
        expires=timezone.now() + timedelta(hours=1),
        scope=" ".join(granted),
    )
    set_token_value(token, raw)
    token.save()
    return raw


def test_every_operation_declares_a_known_scope(schema):
    found = operations(schema)
    assert len(found) > 70
    undeclared = [f"{m.upper()} {p}" for m, p, declared in found if not declared]
    assert undeclared == []
    unknown = {s for _m, _p, declared in found for s in declared if s not in scopes.SCOPES}
    assert unknown == set()


def test_every_operation_refuses_a_token_without_its_scope_and_takes_one_with_it(
    client, user, schema
):
    """Walks every operation of the schema: a token holding every scope but the one the
    operation declares is refused, naming the scope; a token holding only it is not."""
    tokens = {
        needed: (
            oauth_token(user, [s for s in scopes.ALL if s != needed]),
            oauth_token(user, [needed]),
        )
        for needed in scopes.SCOPES
    }
    seen = set()
    for method, path, (needed,) in operations(schema):
        without, only = tokens[needed]
        refused = send(client, method, path, without)
        where = f"{method.upper()} {path}"
        assert refused.status_code == 403, (where, refused.status_code)
        challenge = refused["WWW-Authenticate"]
        assert 'error="insufficient_scope"' in challenge, where
        assert f'scope="{needed}"' in challenge, where
        problem = refused.json()
        assert problem["type"].startswith("urn:cardsite:problem:") and needed in problem["detail"]
        taken = send(client, method, path, only)
        assert taken.status_code not in (401, 403), (where, taken.status_code, taken.content)
        seen.add(needed)
    # every scope guards some operation
    assert seen == set(scopes.SCOPES)


@pytest.mark.parametrize("needed", list(scopes.SCOPES))
def test_a_personal_token_is_refused_the_same_way(client, user, needed, schema):
    method, path, _declared = next((m, p, d) for m, p, d in operations(schema) if d == [needed])
    _stored, text = create_token(
        user, name="t", scope=" ".join(s for s in scopes.ALL if s != needed), expiry_days=None
    )
    refused = send(client, method, path, text, prefix="Token")
    assert refused.status_code == 403 and f'scope="{needed}"' in refused["WWW-Authenticate"]


def test_a_session_is_not_limited_by_scopes(client, user, sample_catalogue):
    client.force_login(user)
    response = client.post(
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "x"},
        content_type="application/json",
    )
    assert response.status_code == 201


def test_the_schema_declares_oauth2_with_its_scopes(schema):
    oauth2 = schema["components"]["securitySchemes"]["oauth2"]
    flow = oauth2["flows"]["authorizationCode"]
    assert oauth2["type"] == "oauth2"
    assert flow["authorizationUrl"] == "/oauth/authorize/" and flow["tokenUrl"] == "/oauth/token/"
    assert flow["scopes"] == scopes.SCOPES
    post = schema["paths"]["/api/decks/"]["post"]
    assert {"oauth2": ["decks:write"]} in post["security"]
    assert {"tokenAuth": []} in post["security"]
    assert post["x-oauth2-scopes"] == ["decks:write"]
    notices = schema["paths"]["/api/notices/"]["get"]
    assert {"oauth2": ["notices:read"]} in notices["security"]
    # an operation open to anyone still says what a token sent to it must carry
    cards = schema["paths"]["/api/cards/"]["get"]
    assert cards["security"] == [] and cards["x-oauth2-scopes"] == ["read"]


def test_the_migration_keeps_what_old_tokens_could_do(user):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("cardsite.migrations.0003_token_scopes_and_allowed_apps")
    reader, _ = create_token(user, name="reader", scope="read", expiry_days=None)
    writer, _ = create_token(user, name="writer", scope="write", expiry_days=None)
    # the rows as they were before the migration: one word, "read" or "write"
    ApiToken.objects.filter(pk=reader.pk).update(scope="read")
    ApiToken.objects.filter(pk=writer.pk).update(scope="write")
    migration.split_scopes(apps, None)
    reader.refresh_from_db()
    writer.refresh_from_db()
    assert reader.scopes == scopes.READ_ONLY
    assert writer.scopes == scopes.ALL
    assert ApiToken.objects.count() == 2


def test_a_method_an_operation_does_not_take_is_a_405_not_a_scope_refusal(client, user):
    text = oauth_token(user, list(scopes.ALL))
    for method, path in (("put", "/api/bulk/"), ("delete", "/api/games/"), ("trace", "/api/bulk/")):
        response = client.generic(method.upper(), path, HTTP_AUTHORIZATION=f"Bearer {text}")
        assert response.status_code == 405, (method, path, response.status_code)


def test_options_says_what_an_operation_takes_whatever_the_tokens_scopes(client, user):
    text = oauth_token(user, [scopes.NOTICES_READ])
    for path in ("/api/validate/", "/api/decks/1/publish/", "/api/decks/"):
        response = client.options(path, HTTP_AUTHORIZATION=f"Bearer {text}")
        assert response.status_code == 200, (path, response.status_code)
