"""Pages of the play tools. Each tool works without JavaScript (forms submit and the page
shows the result); with htmx the result panel is swapped in place.

(Campaign pages are in `campaign_views`.)
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.throttling import page_throttle
from validation.games.tactical_assault import combat_odds as co

from . import services
from .charts import map_svg, render_chart, xy
from .forms import (
    CloseCombatForm,
    CombatOddsForm,
    CrewForm,
    GoldfishForm,
    VisualFieldForm,
)
from .links import all_tools
from .services import PlayInputError, SimulationsUnavailable


def index(request):
    return render(request, "play/index.html", {"tools": all_tools()})


# --- Tactical Assault: combat odds --------------------------------------------------------


def odds_chart(odds: dict) -> dict:
    order = odds["results_order"]
    return xy(
        "ta-combat-odds",
        f"{odds['attacker']} attacks {odds['target']}",
        [r.replace("_", " ") for r in order],
        [("Probability", [odds["results"][r]["probability"] for r in order], "bar")],
        x_label="Combat result",
        y_label="Probability",
        percent=True,
        y_max=1.0,
    )


def _odds_context(request) -> dict:
    """The odds form bound to the query string, and the odds when it is complete."""
    bound = "attacker" in request.GET
    form = CombatOddsForm(request.GET if bound else None)
    context: dict = {"form": form}
    if bound and form.is_valid():
        try:
            mods, ignored = services.parse_modifiers(form.modifier_data(), strict=False)
            odds = services.combat_odds_for(
                attacker=form.cleaned_data["attacker"],
                target=form.cleaned_data["target"],
                modifiers=mods,
            )
        except PlayInputError as exc:
            context["error"] = exc.message
        else:
            context.update(
                odds=odds,
                ignored=ignored,
                chart=render_chart(odds_chart(odds)),
                rows=[
                    {
                        "name": r,
                        "label": r.replace("_", " "),
                        **odds["results"][r],
                        "printed": odds["printed"][r],
                    }
                    for r in odds["results_order"]
                ],
            )
    return context


def combat(request):
    """Exact odds of one attack (htmx: re-computed on every change) and the close combat
    Monte Carlo form."""
    context = _odds_context(request)
    if request.htmx and request.htmx.target == "odds":
        return render(request, "play/_odds.html", context)
    initial = {
        field: request.GET[param]
        for field, param in (("unit_a", "attacker"), ("unit_b", "target"))
        if request.GET.get(param)
    }
    cc_form = CloseCombatForm(initial=initial)
    context.update(
        cc_form=cc_form,
        inline_max=services.INLINE_GAMES_MAX,
        modifier_rows=[m for m in co.MODIFIERS if m["name"] != "attack"],
    )
    return render(request, "play/combat.html", context)


def _close_combat_context(result) -> dict:
    """The close combat panel of a tool result: the answer, the outcome table's rows and
    the charts."""
    (table,) = result.tables
    return {
        "cc": result.data,
        "cc_rows": [
            {"label": label, "count": count, "share": share}
            for label, count, share in table["rows"]
        ],
        "cc_charts": [render_chart(c) for c in result.charts],
    }


@page_throttle("simulate")
@require_POST
def close_combat(request):
    """Run the close combat Monte Carlo: inline up to 20,000 games, else on a worker."""
    form = CloseCombatForm(request.POST)
    context: dict = {"cc_form": form, "inline_max": services.INLINE_GAMES_MAX}
    if form.is_valid():
        data = form.cleaned_data
        try:
            how, value = services.close_combat_start(
                unit_a=data["unit_a"],
                unit_b=data["unit_b"],
                games=data["games"],
                seed=data.get("seed"),
                max_rounds=data["max_rounds"],
                a_modifiers=form.side_modifiers("a"),
                b_modifiers=form.side_modifiers("b"),
                owner=request.user,
            )
        except PlayInputError as exc:
            context["cc_error"] = exc.message
        except SimulationsUnavailable as exc:
            context["cc_error"] = str(exc)
        else:
            if how == "run":
                url = services.run_url(value)
                if not request.htmx:
                    return redirect(url)
                context.update(cc_run=value, cc_run_url=url)
            else:
                context.update(_close_combat_context(value))
    if request.htmx:
        return render(request, "play/_close_combat.html", context)
    context.update(_odds_context(request), modifier_rows=[])
    return render(request, "play/combat.html", context)


# --- Red Code --------------------------------------------------------------------------------


def crew(request):
    """Crew economy of one ship at one distance: a row per enemy ship, the best schedule of
    one matchup, and its damage chart."""
    bound = "ship" in request.GET
    form = CrewForm(request.GET if bound else None)
    context: dict = {"form": form}
    if bound and form.is_valid():
        try:
            data = services.crew_economy(
                ship=form.cleaned_data["ship"],
                distance=form.cleaned_data["distance"],
                target=form.cleaned_data.get("target") or None,
            )
        except PlayInputError as exc:
            context["error"] = exc.message
        else:
            m = data["matchup"]
            turns = [str(t["turn"]) for t in m["schedule"]]
            context.update(
                crew=data,
                chart=render_chart(
                    xy(
                        "rc-crew-damage",
                        f"{data['ship']} against {m['target']} at distance {data['distance']}",
                        turns,
                        [
                            ("Damage this turn", m["damage_per_turn"], "bar"),
                            (
                                "Cumulative damage",
                                [t["cumulative_damage"] for t in m["schedule"]],
                                "line",
                            ),
                        ],
                        x_label="Turn",
                        y_label=f"Repair damage (sinks at {m['target_hit_points']})",
                    )
                ),
            )
    template = "play/_crew.html" if request.htmx else "play/crew.html"
    return render(request, template, context)


def visual_field(request):
    """A map dealt from a seed (in the URL); click a box to place the ship there and see
    which boxes it can target at each distance."""
    if "seed" not in request.GET:
        return redirect(f"{reverse('play:visual-field')}?seed={services.random_seed()}")
    form = VisualFieldForm(request.GET)
    context: dict = {"form": form, "new_seed": services.random_seed()}
    if form.is_valid():
        data = form.cleaned_data
        try:
            vf = services.visual_field_for(
                seed=data["seed"], x=data.get("x"), y=data.get("y"), ships=data.get("ships")
            )
        except PlayInputError as exc:
            context["error"] = exc.message
            try:
                vf = services.visual_field_for(seed=data["seed"], ships=data.get("ships"))
            except PlayInputError:
                vf = None
        if vf is not None:
            base = reverse("play:visual-field")
            ships = data.get("ships") or ""

            def href(x: int, y: int) -> str:
                query = {"seed": vf["seed"], "x": x, "y": y}
                if ships:
                    query["ships"] = ships
                return f"{base}?{urlencode(query)}"

            context.update(vf=vf, svg=map_svg(vf, href))
            if vf["field"]:
                context["distances"] = [
                    {"d": int(d), "boxes": boxes, "within": vf["field"]["targetable_within"][d]}
                    for d, boxes in vf["field"]["boxes_at_distance"].items()
                    if int(d) > 0
                ]
    else:
        context["error"] = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
    template = "play/_visual_field.html" if request.htmx else "play/visual_field.html"
    return render(request, template, context)


# --- Red Mittens goldfish --------------------------------------------------------------------


def _goldfish_decks(request):
    from decks.models import Deck

    return list(
        Deck.objects.visible_to(request.user)
        .filter(game__slug=services.RED_MITTENS, current_version__isnull=False)
        .select_related("owner", "current_version")
        .order_by("name")[:200]
    )


@page_throttle("simulate")
@require_http_methods(["GET", "POST"])
def goldfish(request):
    """Red Mittens goldfish of a deck: a quick run here, a large one on a worker."""
    decks = _goldfish_decks(request)
    initial = {"deck": request.GET.get("deck")} if request.GET.get("deck") else None
    form = GoldfishForm(request.POST or None, decks=decks, initial=initial)
    context: dict = {"form": form, "decks": decks, "inline_max": services.GOLDFISH_INLINE_MAX}
    if request.method == "POST" and form.is_valid():
        deck = next(d for d in decks if str(d.pk) == form.cleaned_data["deck"])
        games = form.cleaned_data["games"]
        seed = form.cleaned_data.get("seed")
        seed = services.random_seed() if seed is None else seed
        max_turns = form.cleaned_data["max_turns"]
        goldfish = services.red_mittens_goldfish()
        try:
            if games > goldfish.inline_max:
                if not request.user.is_authenticated:
                    raise PlayInputError(
                        f"runs of more than {services.GOLDFISH_INLINE_MAX} games run on a "
                        "worker: sign in to start one"
                    )
                run = services.start_simulation(
                    owner=request.user,
                    kind=goldfish.slug,
                    params={"games": games, "max_turns": max_turns},
                    deck_version=deck.current_version,
                    seed=seed,
                )
                url = services.run_url(run)
                if not request.htmx:
                    return redirect(url)
                # An htmx form swaps its result panel: a link to the run, not a whole page.
                context.update(run=run, run_url=url)
                return render(request, "play/_goldfish.html", context)
            summary = services.goldfish_inline(
                goldfish=goldfish,
                deck_version=deck.current_version,
                params={"games": games, "max_turns": max_turns},
                seed=seed,
            )
        except PlayInputError as exc:
            context["error"] = exc.message
        except SimulationsUnavailable as exc:
            context["error"] = str(exc)
        else:
            context.update(
                deck=deck,
                seed=seed,
                summary=summary,
                figures=goldfish.key_figures(summary),
                charts=[render_chart(c) for c in goldfish.charts(summary)],
            )
    template = "play/_goldfish.html" if request.htmx else "play/goldfish.html"
    return render(request, template, context)
