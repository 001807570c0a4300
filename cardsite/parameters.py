"""Every API operation's query and path parameters, checked against the OpenAPI schema the
site serves (drf-spectacular's, after its hooks): one list of what each operation takes.

- A query parameter the operation does not declare answers 400 naming it and the ones it
  takes (`?format=standard` on `GET /api/decks/`, whose filter is `fmt`, would otherwise be
  ignored and every deck listed).
- A method the address has no operation for answers 405 (with `Allow`), before any check of
  who asks.
- An integer parameter (query or path) that is not a whole number within its declared range
  answers 400 naming it.
  Every integer the schema declares has a range (`integer_ranges_hook`: the 64-bit range
  where a field or parameter declares none), which the body's fields enforce too
  (`cardsite.apps`): past it, SQLite cannot hold the number, and no id reaches it.

The schema is built once per process, on the first API request it checks
(cardsite/gunicorn_conf.py builds it as a worker starts)."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

from django.http import JsonResponse
from django.urls import Resolver404, resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from validation.registry import registry

#: The range an integer without one of its own is given: a signed 64-bit integer.
INT_MIN = -(2**63)
INT_MAX = 2**63 - 1

#: Addresses under /api/ that are not operations of the schema (the schema, its docs page).
NOT_OPERATIONS = ("/api/schema/", "/api/docs/")
METHODS = ("get", "post", "put", "patch", "delete")


class Operation:
    def __init__(self, template: str, operation: dict[str, Any]) -> None:
        self.template = template
        self.allowed: list[str] = []
        self.query: dict[str, dict[str, Any]] = {}
        self.path: dict[str, dict[str, Any]] = {}
        for parameter in operation.get("parameters", []):
            where = {"query": self.query, "path": self.path}.get(parameter.get("in", ""))
            if where is not None:
                where[parameter["name"]] = parameter.get("schema", {})


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{([^}]+)\}", template)
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{_group(part)}>[^/]+)"
        for index, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$")


def _group(name: str) -> str:
    return "p_" + re.sub(r"\W", "_", name)


def operations() -> list[tuple[re.Pattern[str], dict[str, Operation]]]:
    """(address pattern, {method: operation}) for every path of the schema; addresses with
    fewer placeholders first (`/api/decks/import/` before `/api/decks/{id}/`). Built again
    when a game is registered (its tools' paths are the schema's). One thread builds it
    while the others of the process wait: drf-spectacular's generator is not thread-safe,
    and a gunicorn worker's threads may all ask at once."""
    with _BUILDING:
        return _operations(tuple(registry.slugs()))


_BUILDING = threading.Lock()


@lru_cache(maxsize=1)
def _operations(_games: tuple[str, ...]) -> list[tuple[re.Pattern[str], dict[str, Operation]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for template, methods in schema.get("paths", {}).items():
        by_method = {
            method: Operation(template, operation)
            for method, operation in methods.items()
            if method in METHODS
        }
        found.append((template.count("{"), template, _pattern(template), by_method))
    found.sort(key=lambda item: (item[0], item[1]))
    return [(pattern, by_method) for _count, _template, pattern, by_method in found]


class MethodNotAllowed(Exception):
    def __init__(self, allowed: list[str]) -> None:
        self.allowed = allowed


def _within_enums(match: re.Match[str], by_method: dict[str, Operation]) -> bool:
    """Whether the address's path values are among those its parameters list, where they list
    them (`/api/play/{game}/{tool}/` names its tools): an address outside them is no
    operation's, and the resolver and the view answer it (404)."""
    some = next(iter(by_method.values()))
    for name, schema in some.path.items():
        group = _group(name)
        if group in match.re.groupindex and "enum" in schema:
            if match.group(group) not in [str(value) for value in schema["enum"]]:
                return False
    return True


def operation_for(path: str, method: str) -> tuple[Operation, dict[str, str]] | None:
    """The operation `method` of `path` is, with its path parameters' values; None for an
    address of no operation; MethodNotAllowed when the address has others."""
    method = "get" if method.lower() == "head" else method.lower()
    for pattern, by_method in operations():
        match = pattern.match(path)
        if match is None or not _within_enums(match, by_method):
            continue
        allowed = [m.upper() for m in METHODS if m in by_method]
        if "GET" in allowed:
            allowed.insert(allowed.index("GET") + 1, "HEAD")
        allowed.append("OPTIONS")
        operation = by_method.get(method)
        if operation is None:
            raise MethodNotAllowed(allowed)
        operation.allowed = allowed
        values = {
            name: match.group(_group(name))
            for name in operation.path
            if _group(name) in match.re.groupindex
        }
        return operation, values
    return None


def _range_error(name: str, raw: str, schema: dict[str, Any], *, declared: bool) -> str | None:
    """Why `raw` is not an integer of the parameter's range (None: it is one): its declared
    range, or with `declared` False only the range the site can hold (a view that checks its
    own parameters checks the rest, beside its other parameters, and its 400 names every
    problem of the request at once)."""
    if schema.get("type") != "integer":
        return None
    low = schema.get("minimum", INT_MIN) if declared else INT_MIN
    high = schema.get("maximum", INT_MAX) if declared else INT_MAX
    raw = raw.strip()
    if raw == "" and not declared:
        return None  # the view says so, beside the rest
    if raw == "":
        return f"{name} is given empty: leave it out for its default, or give a whole number"
    whole = raw.lstrip("+-").isascii() and raw.lstrip("+-").isdigit() and raw[:1] != "+"
    if whole and low <= int(raw) <= high:
        return None
    if not whole and not declared:
        return None  # the view says so, beside the rest
    return f"{name} must be a whole number from {low:,} to {high:,}"


def _checks_own_parameters(path: str) -> bool:
    """Whether the view of `path` checks its parameters itself (`checks_own_parameters`)."""
    try:
        match = resolve(path)
    except Resolver404:
        return False
    view = getattr(match.func, "view_class", None) or getattr(match.func, "cls", None)
    return bool(getattr(view, "checks_own_parameters", False))


def _problem(errors: list[dict[str, str]]) -> JsonResponse:
    return JsonResponse({"errors": errors}, status=400)


class ParametersMiddleware:
    """Unknown query parameters and integers out of range under /api/: a 400 (module
    docstring). An address or method no operation has is left to the views (404, 405)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if not path.startswith("/api/") or path.startswith(NOT_OPERATIONS):
            return self.get_response(request)
        if request.method == "OPTIONS":
            return self.get_response(request)
        try:
            found = operation_for(path, request.method or "GET")
        except MethodNotAllowed as exc:
            # Before authentication: a method the address lacks is a 405 for everyone, not a
            # 401 for the anonymous and a 405 for the signed-in.
            response = JsonResponse(
                {"detail": f'Method "{request.method}" not allowed.'}, status=405
            )
            response["Allow"] = ", ".join(exc.allowed)
            return response
        if found is None:
            return self.get_response(request)
        operation, path_values = found
        declared = not _checks_own_parameters(path)
        errors: list[dict[str, str]] = []
        known = sorted(operation.query)
        takes = (
            "this operation takes " + ", ".join(known)
            if known
            else "this operation takes no query parameters"
        )
        for name in request.GET:
            if name not in operation.query:
                errors.append(
                    {
                        "field": name,
                        "code": "unknown_parameter",
                        "message": f"unknown query parameter '{name}': {takes}",
                    }
                )
                continue
            for raw in request.GET.getlist(name):
                message = _range_error(name, raw, operation.query[name], declared=declared)
                if message:
                    errors.append({"field": name, "code": "invalid", "message": message})
                    break
        for name, raw in path_values.items():
            if not (raw.isascii() and raw.isdigit()):
                continue  # no route has such an address: the resolver's 404
            message = _range_error(name, raw, operation.path[name], declared=declared)
            if message:
                errors.append({"field": name, "code": "invalid", "message": message})
        if errors:
            response = _problem(errors)
            response["Allow"] = ", ".join(operation.allowed)
            return response
        return self.get_response(request)


def _integers(node: Any, components: dict[str, Any], seen: set[str]) -> None:
    """Give every integer schema under `node` the 64-bit range where it declares none."""
    if isinstance(node, list):
        for item in node:
            _integers(item, components, seen)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            _integers(components.get(name), components, seen)
        return
    if node.get("type") == "integer" and not node.get("readOnly"):
        node.setdefault("minimum", INT_MIN)
        node.setdefault("maximum", INT_MAX)
    for key, value in node.items():
        if key in ("properties", "additionalProperties", "items", "oneOf", "anyOf", "allOf", "not"):
            if key == "properties" and isinstance(value, dict):
                for sub in value.values():
                    _integers(sub, components, seen)
            else:
                _integers(value, components, seen)


def integer_ranges_hook(result, generator, request, public):
    """Every integer a request gives (a query or path parameter, a body's field) has a
    declared range: the 64-bit range where none narrower is declared (from 0 in a path)."""
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if method not in METHODS:
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema")
                if parameter.get("in") == "path" and isinstance(schema, dict):
                    # an address's number is written in digits alone: no sign
                    if schema.get("type") == "integer":
                        schema.setdefault("minimum", 0)
                _integers(schema, components, seen)
            for content in operation.get("requestBody", {}).get("content", {}).values():
                _integers(content.get("schema"), components, seen)
    return result


def enforce_body_integer_ranges() -> None:
    """A body's integer field without a range of its own refuses a number outside the 64-bit
    range (400 naming the field), as the schema declares; an id (a primary key field) too,
    before the database is asked (SQLite cannot hold such a number: a 500)."""
    if getattr(serializers.IntegerField.to_internal_value, "in_range", False):
        return
    integer_to_internal = serializers.IntegerField.to_internal_value

    def integer_in_range(self, data):
        value = integer_to_internal(self, data)
        if self.max_value is None and value > INT_MAX:
            self.fail("max_value", max_value=INT_MAX)
        if self.min_value is None and value < INT_MIN:
            self.fail("min_value", min_value=INT_MIN)
        return value

    pk_to_internal = serializers.PrimaryKeyRelatedField.to_internal_value

    def pk_in_range(self, data):
        if isinstance(data, int) and not isinstance(data, bool) and not INT_MIN <= data <= INT_MAX:
            self.fail("does_not_exist", pk_value=data)
        if isinstance(data, str) and data.strip().lstrip("+-").isdigit():
            if not INT_MIN <= int(data) <= INT_MAX:
                self.fail("does_not_exist", pk_value=data)
        return pk_to_internal(self, data)

    integer_in_range.in_range = True  # type: ignore[attr-defined]
    serializers.IntegerField.to_internal_value = integer_in_range  # type: ignore[method-assign]
    serializers.PrimaryKeyRelatedField.to_internal_value = pk_in_range  # type: ignore[method-assign]
