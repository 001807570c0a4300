"""One error shape for every error answer under /api/: problem details (RFC 9457).

    Content-Type: application/problem+json
    {"type": "urn:cardsite:problem:invalid", "title": "Invalid request", "status": 400,
     "detail": "every message in one sentence",
     "errors": [{"field": "format", "code": "invalid", "message": "…"},
                {"line": 4, "code": "unknown_card", "message": "Line 4: …",
                 "suggestions": ["…"]}]}

`ProblemDetailsMiddleware` rewrites every 4xx/5xx answer of a path under /api/ into this
shape, whichever part of the stack produced it: DRF's exceptions (with their codes), the
views' own error answers (line errors, a tool's parameter errors, a campaign's reasons), and
Django's own 404 for a path no route matches (also with DEBUG on, whose 404 is a page).
Members an answer carried beside these (`current_version` of a 409, `reasons`) are kept as
extension members, and a 429 adds `retry_after` (seconds, as its Retry-After header).

Why not drf-standardized-errors: its shape is not RFC 9457 (no `title`/`status`, `type` is
one of three words), and it formats only exceptions DRF handles, while several views answer
their errors themselves; a formatter over every answer catches them all in one place.
"""

from __future__ import annotations

import copy
import json
from http import HTTPStatus
from typing import Any

PROBLEM_CONTENT_TYPE = "application/problem+json"

#: status → (type name, title)
KINDS: dict[int, tuple[str, str]] = {
    400: ("invalid", "Invalid request"),
    401: ("not-authenticated", "Authentication required"),
    403: ("permission-denied", "Permission denied"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    413: ("too-large", "Request too large"),
    414: ("uri-too-long", "Request line too long"),
    415: ("unsupported-media-type", "Unsupported media type"),
    429: ("throttled", "Too many requests"),
    500: ("server-error", "Server error"),
    503: ("unavailable", "Service unavailable"),
}

#: The code of an error entry when the answer gives none, by status.
DEFAULT_CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    429: "throttled",
    503: "unavailable",
}


def problem_type(status: int) -> str:
    name = KINDS.get(status, (None, None))[0] or ("client-error" if status < 500 else "error")
    return f"urn:cardsite:problem:{name}"


def problem_title(status: int) -> str:
    title = KINDS.get(status, (None, None))[1]
    if title:
        return title
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _code_of(value: Any, default: str) -> str:
    code = getattr(value, "code", None)
    return str(code) if code else default


def _messages(value: Any, path: str, default_code: str) -> list[dict[str, Any]]:
    """DRF's error structures ({field: [messages]}, nested serializers, lists of items,
    non_field_errors) as flat entries with a dotted field path."""
    if isinstance(value, dict):
        entries: list[dict[str, Any]] = []
        for key, sub in value.items():
            key = str(key)
            sub_path = path if key in ("non_field_errors", "__all__") else _join(path, key)
            entries += _messages(sub, sub_path, default_code)
        return entries
    if isinstance(value, list | tuple):
        if all(not isinstance(v, dict | list | tuple) for v in value):
            return [_entry(path, _code_of(v, default_code), str(v)) for v in value]
        entries = []
        for index, sub in enumerate(value):
            entries += _messages(sub, _join(path, str(index)), default_code)
        return entries
    return [_entry(path, _code_of(value, default_code), str(value))]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _entry(field: str, code: str, message: str) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if field:
        entry["field"] = field
    entry["code"] = code
    entry["message"] = message
    return entry


def _line_entry(item: dict[str, Any]) -> dict[str, Any]:
    message = str(item.get("message", ""))
    suggestions = list(item.get("suggestions") or [])
    code = item.get("code") or (
        "unknown_card" if "unknown card" in message or suggestions else "invalid_line"
    )
    entry: dict[str, Any] = {"line": item["line"], "code": code, "message": message}
    if "unknown card" in message or suggestions:
        entry["suggestions"] = suggestions
    for key, value in item.items():
        if key not in entry and key not in ("suggestions",):
            entry[key] = value
    return entry


def _errors_member(errors: Any, default_code: str) -> list[dict[str, Any]]:
    """The `errors` member a view answered with: line errors (a list of {line, message,
    suggestions}) or a map of a parameter to its message."""
    if isinstance(errors, list):
        entries = []
        for item in errors:
            if isinstance(item, dict) and "line" in item:
                entries.append(_line_entry(item))
            elif isinstance(item, dict) and "message" in item:
                entry = _entry(str(item.get("field", "")), item.get("code") or default_code, "")
                entry.update({k: v for k, v in item.items() if k != "code"})
                entry["message"] = str(item["message"])
                entries.append(entry)
            else:
                entries += _messages(item, "", default_code)
        return entries
    return _messages(errors, "", default_code)


def problem_body(status: int, data: Any, retry_after: str | None = None) -> dict[str, Any]:
    """The problem details of an error answer whose body was `data` (None: no JSON body)."""
    default_code = DEFAULT_CODES.get(status, "error")
    body: dict[str, Any] = {
        "type": problem_type(status),
        "title": problem_title(status),
        "status": status,
    }
    detail: str | None = None
    errors: list[dict[str, Any]] = []
    extensions: dict[str, Any] = {}
    if isinstance(data, dict):
        data = dict(data)
        raw_detail = data.pop("detail", None)
        field = data.pop("field", None)
        code = data.pop("code", None)
        if "errors" in data:
            errors = _errors_member(data.pop("errors"), str(code or default_code))
        if raw_detail is not None and not isinstance(raw_detail, dict | list):
            detail = str(raw_detail)
            if not code:
                code = getattr(raw_detail, "code", None)
        elif raw_detail is not None:
            errors += _messages(raw_detail, "", default_code)
        for key in ("reasons", "current_version", "run"):
            if key in data:
                extensions[key] = data.pop(key)
        if data and not errors and detail is None:
            # DRF's {field: [messages]} (a serializer's errors)
            errors = _messages(data, "", default_code)
        elif data:
            extensions.update(data)
        if field and not any(e.get("field") == field for e in errors):
            errors.insert(0, _entry(str(field), str(code or default_code), detail or ""))
        elif code and not errors and detail:
            errors = [_entry("", str(code), detail)]
    elif isinstance(data, list):
        errors = _messages(data, "", default_code)
    elif isinstance(data, str) and data:
        detail = data
    if detail is None:
        detail = "; ".join(
            (f"{e['field']}: " if "field" in e and e["field"] not in e["message"] else "")
            + e["message"]
            for e in errors
        ) or _default_detail(status)
    body["detail"] = detail
    body["errors"] = errors
    if retry_after is not None:
        try:
            extensions["retry_after"] = int(retry_after)
        except ValueError:
            pass
    for key, value in extensions.items():
        body.setdefault(key, value)
    return body


def _default_detail(status: int) -> str:
    if status == 404:
        return "Nothing here: no such route or object."
    if status == 405:
        return "This method is not allowed here."
    try:
        return HTTPStatus(status).description or HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _is_problem(data: Any) -> bool:
    return isinstance(data, dict) and {"type", "title", "status"} <= data.keys()


def _api_path(path: str) -> bool:
    return path == "/api" or (path.startswith("/api/") and not path.startswith("/api/docs/"))


class ProblemDetailsMiddleware:
    """Every error answer under /api/ (4xx and 5xx) in the problem details shape."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or not _api_path(request.path):
            return response
        if response.get("Content-Type", "").startswith(PROBLEM_CONTENT_TYPE):
            return response
        if getattr(response, "streaming", False):
            return response
        data = getattr(response, "data", None)
        if data is None and response.get("Content-Type", "").startswith("application/json"):
            try:
                data = json.loads(response.content or b"null")
            except ValueError:
                data = None
        if _is_problem(data):
            body = data
        else:
            body = problem_body(response.status_code, data, response.get("Retry-After"))
        response.content = json.dumps(body, ensure_ascii=False).encode()
        response["Content-Type"] = PROBLEM_CONTENT_TYPE
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        if hasattr(response, "data"):
            response.data = body
        return response


# --- The schema ------------------------------------------------------------------------------

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Problem details (RFC 9457): every error answer under /api/.",
    "properties": {
        "type": {
            "type": "string",
            "example": "urn:cardsite:problem:invalid",
            "description": "urn:cardsite:problem: and one of "
            + ", ".join(f"{name} ({status})" for status, (name, _title) in KINDS.items()),
        },
        "title": {"type": "string", "example": "Invalid request"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599, "example": 400},
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string", "description": "the input to blame"},
                    "line": {"type": "integer", "description": "the list's line (or item)"},
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "severity": {
                        "type": "string",
                        "enum": ["error", "warning"],
                        "description": "a list's rule: error (the deck is illegal) or warning",
                    },
                    "suggestions": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "for an unknown card: the closest names",
                    },
                },
                "required": ["code", "message"],
            },
        },
        "retry_after": {"type": "integer", "description": "429: seconds to wait"},
        "current_version": {
            "type": "integer",
            "nullable": True,
            "description": "409: the deck's newest version (null: the deck has none)",
        },
        "reasons": {"type": "array", "items": {"type": "string"}},
        "active_runs": {
            "type": "integer",
            "description": "409 too_many_active: your runs queued or running now",
        },
        "max_active_runs": {
            "type": "integer",
            "description": "409 too_many_active: the most you may have at once",
        },
        "running": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "409 too_many_active: those runs' ids, oldest first; a place "
            "frees when one of them ends (GET /api/simulations/{id}/)",
        },
    },
    "required": ["type", "title", "status", "detail", "errors"],
}

ERROR_STATUSES = {
    "400": "Invalid request: the errors name each field or line.",
    "401": "No valid credentials (a WWW-Authenticate header says how to give them).",
    "403": "Signed in, but not allowed.",
    "404": "No such route or object (or one you may not read).",
    "414": "The request line (method, address, query string) is longer than 8,190 bytes.",
    "429": "Rate limited: retry after Retry-After seconds.",
    "503": "The request took too long, or a service is down: retry later.",
}
BODY_ERROR_STATUSES = {
    "413": "The request body is too large.",
    "415": "The body is not JSON (Content-Type: application/json).",
}


def problem_postprocessing_hook(result, generator, request, public):
    """Every operation's error answers reference one Problem component (problem+json)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Problem"] = PROBLEM_SCHEMA
    ref = {"$ref": "#/components/schemas/Problem"}
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            wanted = dict(ERROR_STATUSES)
            if "requestBody" in operation:
                wanted.update(BODY_ERROR_STATUSES)
            for code, description in wanted.items():
                responses.setdefault(code, {"description": description})
            for code, response in responses.items():
                if code.isdigit() and int(code) >= 400:
                    response["content"] = {PROBLEM_CONTENT_TYPE: {"schema": ref}}
                    response.setdefault("description", ERROR_STATUSES.get(code, ""))
    return result


#: Request bodies that take a list as text (`list`) or as `sections`, never both; True: one
#: of the two is required.
LIST_OR_SECTIONS = {
    "ValidateRequestRequest": True,
    "DeckImportRequest": True,
    "VersionCreateRequest": True,
    "DeckCreateRequest": False,
}


def _variant(schema: dict[str, Any], *, keep: str | None) -> dict[str, Any]:
    """`schema` with `keep` ("list" or "sections") required and the other one left out; with
    no `keep`, neither of them may be given."""
    variant = copy.deepcopy(schema)
    variant.pop("not", None)
    variant.pop("description", None)
    props = variant.setdefault("properties", {})
    for name in ("list", "sections"):
        if name != keep:
            props.pop(name, None)
    required = [r for r in variant.get("required", []) if r not in ("list", "sections")]
    if keep:
        required.append(keep)
    else:
        variant["not"] = {"anyOf": [{"required": ["list"]}, {"required": ["sections"]}]}
    variant["required"] = required
    return variant


def list_or_sections_hook(result, generator, request, public):
    """A body that takes `list` (text) or `sections`, never both, is a `oneOf` of its two
    forms (`…WithList`, `…WithSections`; where neither is required, a third without them):
    a generated client's body is the union of their models, and a body with both matches
    two forms and is refused by the schema as by the server."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, required in LIST_OR_SECTIONS.items():
        schema = schemas.get(name)
        if schema is None or "oneOf" in schema:
            continue
        stem = name.removesuffix("Request")
        forms: dict[str, str | None] = {
            f"{stem}WithList": "list",
            f"{stem}WithSections": "sections",
        }
        if not required:
            forms[f"{stem}WithoutList"] = None
        for form, keep in forms.items():
            schemas[form] = _variant(schema, keep=keep)
        description = schema.get("description", "")
        schemas[name] = {
            "oneOf": [{"$ref": f"#/components/schemas/{form}"} for form in forms],
            "description": (
                description
                + "\n\nThe list as `list` (text) or as `sections`"
                + (": exactly one of them." if required else ", or neither; never both.")
            ).strip(),
        }
    return result
