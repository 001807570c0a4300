"""Play pages: the index, one page for any game's tool, one for any game's goldfish.

Every page works without JavaScript (forms submit and the page shows the result); with
htmx the result panel is swapped in place. A live tool (no background run) recomputes on
every change (GET, the address keeps the values); a tool with a background run and the
goldfish are sent by POST, throttled with the `simulate` scope, and hand large runs to a
worker. Bad input answers 400 with every message (a panel swapped by htmx answers 200, so
that htmx shows it). (Campaign pages are in `campaign_views`.)
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpResponseNotAllowed, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from cardsite.throttling import page_throttle
from simulations import pipeline
from simulations.charts import render as render_chart

from . import services
from .forms import param_fields
from .links import all_tools, tools_for_game

RESULT_PARTIAL = "play/_tool_output.html"


@require_GET
def index(request):
    return render(request, "play/index.html", {"games": all_tools()})


def _status(request, status: int) -> int:
    # htmx swaps only 2xx answers into the panel (templates/base.html)
    return 200 if request.htmx else status


def _output_template(game_slug: str, tool_slug: str) -> str:
    """The game's own result partial of the tool, if it has one, else the generic one."""
    try:
        chosen = select_template([f"games/{game_slug}/tools/{tool_slug}.html", RESULT_PARTIAL])
    except TemplateDoesNotExist:
        return RESULT_PARTIAL
    return chosen.template.name


def _tool_context(request, page, url: str) -> dict:
    tool = page.tool
    answer = page.answer
    context = {
        "game": page.game,
        "tool": tool,
        "url": url,
        "live": tool.background is None,
        "fields": param_fields(
            tool.params,
            page.values,
            choices=page.choices,
            errors=page.errors,
            notes={s.name: services.applies_text(tool, s) for s in tool.params if s.applies},
            offered=page.offered,
        ),
        "errors": page.errors,
        "answer": answer,
        "note": page.note,
        "output_template": _output_template(page.game.slug, tool.slug),
        "links": [link for link in tools_for_game(page.game.slug) if link["url"] != url],
        "seeded": bool(services.seed_specs(tool.params)),
    }
    # A picker whose cards depend on the others' (only the chosen card's enemies) is drawn
    # anew beside an htmx answer, swapped into the form in place (out of band).
    context["oob_pickers"] = (
        [f for f in context["fields"] if f["name"] in page.dependent] if request.htmx else []
    )
    if answer is not None and answer.result is not None:
        query = services.query_values(tool.params, answer.params)

        def link(params) -> str:
            return f"{url}?{urlencode({**query, **{k: str(v) for k, v in params.items()}})}"

        # Boards a player clicks come first, right under the figures; other charts last.
        rendered = [(c.get("type"), render_chart(c, link=link)) for c in answer.result.charts]
        context["boards"] = [svg for kind, svg in rendered if kind == "grid"]
        context["charts"] = [svg for kind, svg in rendered if kind != "grid"]
    if answer is not None and answer.run is not None:
        context["run_url"] = answer.run.get_absolute_url()
    return context


@page_throttle("simulate")
@require_http_methods(["GET", "POST"])
def tool(request, game: str, tool: str):
    """Any tool of any game: the form from its parameters and the result."""
    try:
        game_def, tool_def = services.game_tool(game, tool)
    except services.NotFound:
        alias = services.tool_by_alias(game, tool)
        if alias is None:
            raise Http404("no such tool") from None
        target = reverse("play:tool", args=[game, alias.slug])
        query = request.GET.urlencode()
        return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
    url = reverse("play:tool", args=[game_def.slug, tool_def.slug])
    if tool_def.background is None:
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        return _live_tool(request, game_def, tool_def, url)
    return _background_tool(request, game_def, tool_def, url)


def _live_tool(request, game_def, tool_def, url):
    raw = services.request_values(request.GET) if request.GET else None
    pushed = ""
    if services.missing_seed(tool_def.params, raw or {}):
        # A seed left out is drawn now, and the address keeps it (a reload shows the same).
        query = request.GET.copy()
        for key, value in services.with_seed(tool_def.params, {}).items():
            query[key] = value
        pushed = f"{url}?{query.urlencode()}"
        if not request.htmx:
            return redirect(pushed)
        raw = services.request_values(query)
    page = services.tool_page(game=game_def, tool=tool_def, raw=raw)
    context = _tool_context(request, page, url)
    template = "play/_tool_result.html" if request.htmx else "play/tool.html"
    response = render(request, template, context, status=_status(request, page.status))
    if pushed:
        response["HX-Push-Url"] = pushed
    return response


def _background_tool(request, game_def, tool_def, url):
    if request.method == "GET":
        initial = services.request_values(request.GET)
        page = services.tool_page(game=game_def, tool=tool_def, initial=initial)
        return render(request, "play/tool.html", _tool_context(request, page, url))
    raw = services.with_seed(tool_def.params, services.request_values(request.POST))
    page = services.tool_page(game=game_def, tool=tool_def, raw=raw, owner=request.user)
    if page.answer is not None and page.answer.run is not None and not request.htmx:
        return redirect(page.answer.run.get_absolute_url())
    context = _tool_context(request, page, url)
    template = "play/_tool_result.html" if request.htmx else "play/tool.html"
    return render(request, template, context, status=_status(request, page.status))


@page_throttle("simulate")
@require_http_methods(["GET", "POST"])
def goldfish(request, game: str):
    """The goldfish of any game that has one: one of the user's (or a public) decks, played
    here up to the goldfish's inline limit, else on a worker."""
    try:
        game_def, goldfish_def = services.game_goldfish(game)
    except services.NotFound:
        raise Http404("no goldfish for this game") from None
    if request.method == "POST":
        raw = services.request_values(request.POST)
        page = services.goldfish_page(
            game=game_def, goldfish=goldfish_def, user=request.user, raw=raw
        )
    else:
        page = services.goldfish_page(
            game=game_def,
            goldfish=goldfish_def,
            user=request.user,
            initial=services.request_values(request.GET),
        )
    answer = page.answer
    if answer is not None and answer.run is not None and not request.htmx:
        return redirect(answer.run.get_absolute_url())
    specs = services.goldfish_specs(goldfish_def)
    context = {
        "game": game_def,
        "goldfish": goldfish_def,
        "url": reverse("play:goldfish", args=[game_def.slug]),
        "decks": page.decks,
        "deck_value": page.values.get("deck", ""),
        "fields": param_fields(specs, page.values, errors=page.errors),
        "errors": page.errors,
        "answer": answer,
    }
    if answer is not None and answer.summary is not None:
        shown = pipeline.shown(goldfish_def, answer.summary, with_metrics=True)
        context["figures"] = shown["figures"]
        context["charts"] = [c["svg"] for c in shown["charts"]]
    if answer is not None and answer.run is not None:
        context["run_url"] = answer.run.get_absolute_url()
    template = "play/_goldfish_result.html" if request.htmx else "play/goldfish.html"
    return render(request, template, context, status=_status(request, page.status))
