"""Answers for requests the site will not serve in full, instead of a 500.

- A statement cancelled by PostgreSQL's `statement_timeout` (DB_STATEMENT_TIMEOUT_MS): a 503
  saying the request took too long, as a page or, under /api/, as JSON
  (`SlowQueryMiddleware` for pages, `api_exception_handler` for the API).
- NUL characters in a query string or a form (`RejectNulMiddleware`): PostgreSQL text
  cannot hold them; a 400 naming the field.
- JSON nested too deep for Python's parser (`SafeJSONParser`, the API's default): a 400.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

try:
    from psycopg.errors import QueryCanceled
except ImportError:  # pragma: no cover - SQLite-only installs
    QueryCanceled = None  # type: ignore[assignment,misc]

TOO_SLOW = "This search took too long; narrow it (fewer or more specific terms) and try again."
NUL_MESSAGE = "contains a NUL character (\\x00), which is not allowed"


def is_statement_timeout(exc: BaseException) -> bool:
    """The exception is PostgreSQL cancelling a statement (statement_timeout or a cancel
    request), as Django raises it (an OperationalError caused by QueryCanceled)."""
    if QueryCanceled is None:  # pragma: no cover - SQLite-only installs
        return False
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, QueryCanceled):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def too_slow_response(request) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": TOO_SLOW}, status=503)
    try:
        body = render_to_string("errors/too_slow.html", {"message": TOO_SLOW}, request=request)
    except Exception:  # noqa: BLE001 - the page needs the database too; plain text then
        return HttpResponse(TOO_SLOW, status=503, content_type="text/plain; charset=utf-8")
    return HttpResponse(body, status=503)


class ExceptionMiddleware:
    """A middleware that only answers a view's exception: a subclass defines
    `process_exception(request, exception)` (a response, or None to let it through)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)


class SlowQueryMiddleware(ExceptionMiddleware):
    """A view whose statement PostgreSQL cancelled answers 503, not 500."""

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError) and is_statement_timeout(exception):
            return too_slow_response(request)
        return None


def _nul_field(data) -> str | None:
    for key, values in data.lists():
        if "\x00" in key:
            return key.replace("\x00", "\\x00")
        for value in values:
            if isinstance(value, str) and "\x00" in value:
                return key
    return None


class RejectNulMiddleware:
    """A NUL character in a query string or form field (key or value) answers 400 naming
    the field. PostgreSQL text cannot hold NUL: let through, it fails at the database."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = _nul_field(request.GET)
        where = "query parameter"
        # Not under /api/: the API reads JSON alone and answers a form body 415, which it
        # can tell only while the body is unread.
        if (
            field is None
            and request.method == "POST"
            and _is_form(request)
            and not _is_api(request)
        ):
            try:
                field = _nul_field(request.POST)
            except Exception:  # noqa: BLE001 - a malformed body is the view's business
                field = None
            where = "form field"
        if field is None:
            return self.get_response(request)
        message = f"The {where} '{field}' {NUL_MESSAGE}."
        if _is_api(request):
            return JsonResponse({"detail": message, "field": field, "code": "nul"}, status=400)
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _is_form(request) -> bool:
    content_type = request.META.get("CONTENT_TYPE", "")
    return content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data"))


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, with JSON nested too deep for Python's decoder (RecursionError)
    answered as a 400 like any other malformed body."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - the document is nested too deeply") from exc


def api_exception_handler(exc, context):
    """DRF's handler, plus a cancelled statement as a 503 with the same message as pages."""
    # Imported here: rest_framework.views reads the API settings, which name this module.
    from rest_framework.views import exception_handler, set_rollback

    if isinstance(exc, OperationalError) and is_statement_timeout(exc):
        set_rollback()
        return Response({"detail": TOO_SLOW}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            {"body": [f"the request body is larger than {limit:,} bytes, the limit"]},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, RecursionError):
        return Response(
            {"detail": "the request is nested too deeply"}, status=status.HTTP_400_BAD_REQUEST
        )
    response = exception_handler(exc, context)
    # An error that says how to authenticate (a read-only token sent to write: its scope).
    header = getattr(exc, "www_authenticate", None)
    if response is not None and header:
        response["WWW-Authenticate"] = header
    return response
