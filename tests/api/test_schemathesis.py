"""Property-based API tests from the OpenAPI schema (Schemathesis) with every check it has
(server errors, response schema, status codes, content types, headers, negative data
rejection, positive data acceptance, ignored auth, use after free, resource availability…),
authenticated with a personal API token. Deterministic and bounded: derandomized Hypothesis
with a fixed number of examples per operation.

`make fuzz` runs the same test far longer: FUZZ_MAX_EXAMPLES examples per operation (200
there), randomized (FUZZ_SEED picks the seed, to replay a run)."""

import os

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from cardsite.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

# A fast, fixed run in the suite; `make fuzz` sets FUZZ_MAX_EXAMPLES for a long random one.
FUZZING = bool(os.environ.get("FUZZ_MAX_EXAMPLES"))
MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES") or 12)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The WSGI handler closes the database connection after each request; inside a test
    that would end the test's transaction (Django's test client does the same)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def auth_header(django_user_model):
    from cardsite.tokens import create_token

    user = django_user_model.objects.create_user("schemathesis", "st@example.com", "unused-2026")
    _token, secret = create_token(user, name="schemathesis", scope="write", expiry_days=None)
    return {"Authorization": f"Bearer {secret}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=not FUZZING,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_without_server_errors_and_as_documented(case, sample_catalogue, auth_header):
    # Every check Schemathesis has (checks=None). Uncompressed answers: the WSGI transport does
    # not undo the gzip encoding a real HTTP client undoes (compression itself is tested in
    # tests/site/test_compression_and_caching.py).
    case.call_and_validate(headers={**auth_header, "Accept-Encoding": "identity"})
