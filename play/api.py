"""Play tools API (documented in docs/api.md, "Play tools"): one route for any tool of any
game, `/api/play/<game>/<tool>/`.

A live tool answers GET with its parameters in the query string; a tool with a background
run takes POST with a JSON object of its parameters, answers up to its inline limit at once
(200) and starts a run on a worker beyond (202, signed-in users; 401 otherwise), throttled
with the `simulate` scope. Bad input is a 400 `{"detail", "field", "errors"}` naming every
bad parameter. Campaigns are in `campaign_api`.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.ratelimit import ScopedRateThrottle

from . import services
from .services import PlayInputError, SignInRequired


def _bad(exc: PlayInputError) -> Response:
    body: dict = {"detail": exc.message}
    if exc.field:
        body["field"] = exc.field
    body["errors"] = exc.errors
    return Response(body, status=exc.status)


_JSON_TYPES = {"int": (int,), "bool": (bool,), "choice": (str,), "str": (str,)}
_JSON_NAMES = {"int": "a whole number", "bool": "true or false", "choice": "text", "str": "text"}


def json_types(game_slug: str, tool, raw: dict) -> None:
    """The API takes each parameter as the JSON type its schema states (a number as a
    number, yes or no as true or false; null for the default), where a page's form and a live
    tool's query string are text read leniently: PlayInputError naming every parameter of
    another type, with every other problem of the parameters, all at once."""
    errors = {}
    for spec in tool.params:
        value = raw.get(spec.name)
        if value is None:
            continue
        wanted = _JSON_TYPES.get(spec.type, (str,))
        if not isinstance(value, wanted) or (spec.type == "int" and isinstance(value, bool)):
            errors[spec.name] = f"{spec.label} must be {_JSON_NAMES.get(spec.type, 'text')}"
    _raise_with_the_rest(game_slug, tool, raw, errors)


def query_values(game_slug: str, tool, raw: dict) -> None:
    """A live tool's query string is text read leniently, but a parameter given empty
    (`?y=`) is not a value of its type: PlayInputError naming every such parameter (leave it
    out for its default), with every other problem of the parameters, all at once. (A text
    parameter may be empty.)"""
    errors = {
        spec.name: f"{spec.label} is given empty: leave it out for its default, or give "
        f"{_JSON_NAMES.get(spec.type, 'text')}"
        for spec in tool.params
        if spec.type != "str" and raw.get(spec.name) == ""
    }
    _raise_with_the_rest(game_slug, tool, raw, errors)


def _raise_with_the_rest(game_slug: str, tool, raw: dict, errors: dict) -> None:
    """Nothing when `errors` is empty; else PlayInputError with `errors` and every problem
    the other parameters have."""
    if not errors:
        return
    rest = {k: v for k, v in raw.items() if k not in errors}
    try:
        cards = services.tool_cards(game_slug=game_slug, tool=tool)
        services.clean_tool_params(tool, services.with_seed(tool.params, rest), cards=cards)
    except PlayInputError as exc:
        errors = {**exc.errors, **errors}
    raise PlayInputError(errors)


def run_payload(run, request) -> dict:
    return {
        "id": run.pk,
        "kind": run.simulation,
        "status": str(run.status),
        "url": request.build_absolute_uri(run.get_absolute_url()),
    }


def _not_allowed(method: str, tool) -> Response:
    how = "POST (a JSON object)" if method == "GET" else "GET (a query string)"
    return Response(
        {"detail": f"{tool.label} takes its parameters by {how}"},
        status=status.HTTP_405_METHOD_NOT_ALLOWED,
        headers={"Allow": "POST" if method == "GET" else "GET"},
    )


class GameToolsView(APIView):
    """A game's tools: how each is called, its parameters and their choices."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="play_game_tools",
        summary="A game's tools",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, game: str):
        try:
            definition = services.game(game)
        except services.NotFound:
            raise Http404("no such game") from None
        tools = services.game_tools(game=definition)
        for entry in tools:
            entry["url"] = request.build_absolute_uri(
                reverse("api-play-tool", args=[definition.slug, entry["slug"]])
            )
        return Response({"game": definition.slug, "tools": tools})


class ToolView(APIView):
    """A game's tool: GET (a live tool) or POST (a tool with a background run)."""

    #: Its parameters' ranges and choices are checked here, all at once (the API's parameter
    #: check leaves it all but the range an integer can have: cardsite.parameters).
    checks_own_parameters = True
    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read", "write": "read"}

    permission_classes = [AllowAny]
    throttle_scope = "simulate"

    def get_throttles(self):
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    @property
    def allowed_methods(self):
        """The methods the tool in the path takes (its `Allow` header): GET for a live tool,
        POST for a tool with a background run. The templated route stands for the tools
        with a background run (each live tool has its own path in the schema), so an unknown
        tool's answers (404, or 405 to another method) allow what that route takes. Without
        a path (the schema's generator asks the view), every method the view has."""
        kwargs = getattr(self, "kwargs", None) or {}
        if "game" not in kwargs or "tool" not in kwargs:
            return super().allowed_methods
        try:
            _game, tool = services.game_tool(kwargs["game"], kwargs["tool"])
        except services.NotFound:
            return ["POST", "OPTIONS"]
        if tool.background is not None:
            return ["POST", "OPTIONS"]
        return ["GET", "HEAD", "OPTIONS"]

    def options(self, request, *args, **kwargs):
        self._tool(kwargs["game"], kwargs["tool"])
        return super().options(request, *args, **kwargs)

    def _tool(self, game: str, tool: str):
        try:
            return services.game_tool(game, tool)
        except services.NotFound:
            raise Http404("no such tool") from None

    @extend_schema(
        operation_id="play_tool_answer",
        summary="Answer a live tool",
        description="The tool's parameters in the query string (GET /api/play/{game}/ lists "
        "a game's tools and their parameters); the answer is the tool's data.",
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 405: OpenApiTypes.OBJECT},
    )
    def get(self, request, game: str, tool: str):
        game_def, tool_def = self._tool(game, tool)
        if tool_def.background is not None:
            return _not_allowed("GET", tool_def)
        raw = services.request_values(request.query_params, skip=("format",))
        try:
            query_values(game_def.slug, tool_def, raw)
            answer = services.tool_answer(game_slug=game_def.slug, tool=tool_def, raw=raw)
        except PlayInputError as exc:
            return _bad(exc)
        assert answer.result is not None  # computed now, when no run was started
        return Response(answer.result.data)

    @extend_schema(
        operation_id="play_tool_run",
        summary="Run a tool with a background run",
        description="A JSON object of the tool's parameters. Up to the tool's inline limit "
        "of games the answer is the tool's data (200); more start a simulation run on a "
        "worker (202, signed in).",
        request=OpenApiTypes.OBJECT,  # each tool's form: play.schema.tool_params_hook
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiTypes.OBJECT,
            400: OpenApiTypes.OBJECT,
            401: OpenApiTypes.OBJECT,
            405: OpenApiTypes.OBJECT,
        },
    )
    def post(self, request, game: str, tool: str):
        game_def, tool_def = self._tool(game, tool)
        if tool_def.background is None:
            return _not_allowed("POST", tool_def)
        data = request.data
        if hasattr(data, "lists"):
            raw = services.request_values(data)
        elif isinstance(data, dict):
            raw = dict(data)
        else:
            return _bad(PlayInputError("the body is a JSON object of the tool's parameters"))
        try:
            json_types(game_def.slug, tool_def, raw)
        except PlayInputError as exc:
            return _bad(exc)
        raw = services.with_seed(tool_def.params, raw)
        try:
            answer = services.tool_answer(
                game_slug=game_def.slug, tool=tool_def, raw=raw, owner=request.user
            )
        except PlayInputError as exc:
            response = _bad(exc)
            if isinstance(exc, SignInRequired):
                # Signing in is the fix: 401 with the challenge (a page says so with a 403).
                response.status_code = status.HTTP_401_UNAUTHORIZED
                response["WWW-Authenticate"] = self.get_authenticate_header(request)
            return response
        if answer.run is not None:
            return Response(
                {"run": run_payload(answer.run, request)}, status=status.HTTP_202_ACCEPTED
            )
        assert answer.result is not None  # computed now, when no run was started
        return Response(answer.result.data)
