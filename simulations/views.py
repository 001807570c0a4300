"""Simulation pages: the deck panel (start a run, exact odds), the user's runs, a run's
progress and charts, and the comparison of two runs. Thin: parse, call a service, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cardsite.hostile import whole_number
from cardsite.throttling import page_throttle
from decks.models import Deck, DeckVersion
from validation.registry import registry
from validation.sim.metrics import comparison_rows

from . import kinds, services
from .models import EXPERIMENTS, RunKind, SimulationRun

LIST_FIELDS = (
    "id",
    "owner_id",
    "kind",
    "simulation",
    "label",
    "status",
    "n_chunks",
    "chunks_done",
    "params",
    "seed",
    "created_at",
    "finished_at",
    "error",
    "deck_version_id",
)


def readable_deck(request, pk: int, token: str | None) -> Deck:
    """The deck ``pk`` if the user may read it (with an unlisted deck's share token), else
    404."""
    deck = (
        Deck.objects.visible_to(request.user, share_token=token or None)
        .select_related("game")
        .filter(pk=pk)
        .first()
    )
    if deck is None:
        raise Http404("no such deck")
    return deck


def _deck_version(deck: Deck, number) -> DeckVersion:
    qs = DeckVersion.objects.filter(deck=deck)
    if number:
        wanted = whole_number(number)
        version = qs.filter(number=wanted).first() if wanted is not None else None
    else:
        version = qs.order_by("-number").first()
    if version is None:
        raise Http404("no such version")
    version.deck = deck
    return version


def _panel_context(request, deck: Deck, version: DeckVersion, token: str | None, **extra):
    game_kinds = kinds.for_game(deck.game.slug)
    forms = []
    for kind in game_kinds:
        submitted = extra.get("submitted") if extra.get("kind") == kind.slug else None
        values = kind.defaults()
        if submitted:
            values.update({k: submitted.get(k) for k in submitted})
        names = services.card_choices(kind)
        fields = []
        for spec in kind.params:
            value = values.get(spec.name)
            if spec.type == "bool" and isinstance(value, str):
                value = value.lower() in ("1", "true", "yes", "on")
            fields.append(
                {
                    "spec": spec,
                    "name": spec.name,
                    "id": f"sim-{kind.slug}-{spec.name}",
                    "value": value,
                    "choices": (
                        spec.choice_list(names.get(spec.cards_of_kind, ()))
                        if spec.type == "choice"
                        else []
                    ),
                    "error": (extra.get("errors") or {}).get(spec.name)
                    if extra.get("kind") == kind.slug
                    else None,
                }
            )
        forms.append(
            {
                "kind": kind,
                "fields": fields,
                "seed": (submitted or {}).get("seed", ""),
                "errors": {
                    k: v
                    for k, v in (extra.get("errors") or {}).items()
                    if extra.get("kind") == kind.slug and k not in {p.name for p in kind.params}
                },
            }
        )
    odds = None
    rules = services.odds_rules(deck.game.slug)
    if rules is not None:
        odds = services.odds_groups(deck_version=version, rules=rules)
    runs = []
    if request.user.is_authenticated:
        runs = list(
            SimulationRun.objects.owned_by(request.user)
            .filter(deck_version__deck=deck)
            .only(*LIST_FIELDS)[:5]
        )
        _label_kinds(runs)
    return {
        "deck": deck,
        "version": version,
        "token": token or "",
        "forms": forms,
        "odds": odds,
        "runs": runs,
    }


@require_GET
def deck_panel(request, deck_pk: int):
    """The simulations panel of a deck page (loaded by htmx; a page of its own otherwise)."""
    token = request.GET.get("token")
    deck = readable_deck(request, deck_pk, token)
    version = _deck_version(deck, request.GET.get("v"))
    context = _panel_context(request, deck, version, token)
    template = (
        "simulations/_deck_panel_body.html" if request.htmx else "simulations/deck_panel.html"
    )
    return render(request, template, context)


@page_throttle("simulate")
@require_POST
def start(request, deck_pk: int):
    """Start a run from the panel's form; redirect to the run page."""
    if not request.user.is_authenticated:
        if request.htmx:
            response = HttpResponse(status=401)
            response["HX-Redirect"] = f"{reverse('login')}?next={request.path}"
            return response
        return redirect(f"{reverse('login')}?next={reverse('decks:detail', args=[deck_pk])}")
    token = request.POST.get("token")
    deck = services.deck_to_simulate(user=request.user, deck_pk=deck_pk, share_token=token)
    version = _deck_version(deck, request.POST.get("version"))
    kind_slug = request.POST.get("kind", "")
    try:
        kind = kinds.get(kind_slug)
        if kind.game_slug != deck.game.slug:
            raise kinds.UnknownKind(kind_slug)
    except kinds.UnknownKind:
        raise Http404("no such simulation for this deck") from None
    submitted = {s.name: request.POST.get(s.name, "") for s in kind.params}
    submitted["seed"] = request.POST.get("seed", "")
    params = {k: v for k, v in submitted.items() if k != "seed"}
    try:
        run = services.simulation_start(
            owner=request.user,
            kind=kind,
            params=params,
            deck_version=version,
            seed=submitted["seed"] or None,
        )
    except services.SimulationError as exc:
        context = _panel_context(
            request, deck, version, token, kind=kind.slug, submitted=submitted, errors=exc.errors
        )
        if request.htmx:
            return render(request, "simulations/_deck_panel_body.html", context)
        return render(request, "simulations/deck_panel.html", context, status=400)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = run.get_absolute_url()
        return response
    return redirect(run)


@login_required
@require_GET
def run_list(request):
    found = SimulationRun.objects.owned_by(request.user).only(*LIST_FIELDS)
    runs = list(found.select_related("deck_version")[:200])
    _label_kinds(runs)
    return render(
        request,
        "simulations/list.html",
        {"runs": runs, "compare_groups": _compare_groups([r for r in runs if r.status == "done"])},
    )


def _label_kinds(runs: list) -> None:
    """Each run's kind by its name (`kind_label`), for the pages that list runs."""
    known = {k.slug: k for k in kinds.all_kinds()}
    for r in runs:
        kind = known.get(r.simulation)
        r.kind_label = kind.label if kind else r.simulation


def _compare_groups(runs: list) -> list[dict]:
    """The runs that compare side by side: finished goldfish runs (and tools' background
    runs) of one simulation, grouped by it (two or more each), for one compare form a group.
    Groups of goldfish runs come first, each group in the order of its newest run, and its
    runs newest first: a form opens on the two newest runs of its simulation. Comparisons
    and tuning runs show their own results and compare with nothing."""
    known = {k.slug: k for k in kinds.all_kinds()}
    names = {g.slug: g.name for g in registry.all()}
    groups: dict[str, dict] = {}
    for r in runs:
        if r.status != "done" or r.kind in EXPERIMENTS:
            continue
        kind = known.get(r.simulation)
        r.kind_label = kind.label if kind else r.simulation
        game = names.get(kind.game_slug, kind.game_slug) if kind else "Other"
        group = groups.setdefault(
            r.simulation,
            {"game": game, "label": r.kind_label, "goldfish": r.kind == RunKind.GOLDFISH},
        )
        group.setdefault("runs", []).append(r)
    found = [g for g in groups.values() if len(g["runs"]) > 1]
    return sorted(found, key=lambda g: not g["goldfish"])


def _not_comparable(views: list[dict]) -> str | None:
    """Why two runs cannot be compared side by side (None when they can)."""
    a, b = views[0]["run"], views[1]["run"]
    for run in (a, b):
        if run.kind in EXPERIMENTS:
            return (
                f"Run #{run.pk} is a {run.get_kind_display().lower()}: its page shows its own "
                "results. Two goldfish runs of one simulation compare side by side."
            )
    games = {v["kind"].game_slug if v["kind"] else "" for v in views}
    if len(games) > 1:
        return "These runs are of different games; compare runs of one game."
    if a.simulation != b.simulation:
        label_a = views[0]["kind"].label if views[0]["kind"] else a.simulation
        label_b = views[1]["kind"].label if views[1]["kind"] else b.simulation
        return (
            f"Run #{a.pk} is a {label_a} run and #{b.pk} a {label_b} run: compare two runs "
            "of one simulation."
        )
    return None


def _readable_run(request, pk: int) -> SimulationRun:
    run = (
        SimulationRun.objects.readable_by(request.user)
        .select_related("deck_version__deck", "owner")
        .filter(pk=pk)
        .first()
    )
    if run is None:
        raise Http404("no such simulation")
    return run


@require_GET
def run_detail(request, pk: int):
    run = _readable_run(request, pk)
    return render(request, "simulations/detail.html", services.run_view(run))


@require_GET
def run_status(request, pk: int):
    """A run's status where another page started it (the Play pages): polled by htmx while
    the run is active, then the last answer carries no trigger, so polling stops."""
    run = _readable_run(request, pk)
    return render(request, "simulations/_run_status.html", {"run": run})


@require_GET
def run_progress(request, pk: int):
    """The htmx poll of the run page: the progress bar while active, then the results (the
    answer carries no trigger any more, so polling stops)."""
    run = _readable_run(request, pk)
    return render(request, "simulations/_run_body.html", services.run_view(run))


@require_GET
def compare(request):
    ids = [request.GET.get("a"), request.GET.get("b")]

    def pick(error: str | None = None):
        choices = []
        if request.user.is_authenticated:
            choices = list(
                SimulationRun.objects.owned_by(request.user)
                .filter(status="done")
                .exclude(kind__in=EXPERIMENTS)
                .only(*LIST_FIELDS)[:200]
            )
        context = {"pick": True, "compare_groups": _compare_groups(choices), "error": error}
        return render(request, "simulations/compare.html", context, status=400 if error else 200)

    try:
        ids = [int(i) for i in ids]
    except (TypeError, ValueError):
        return pick()
    views = [services.run_view(_readable_run(request, i)) for i in ids]
    refused = _not_comparable(views)
    if refused:
        return pick(refused)
    rows = []
    labels_a = dict(views[0]["figures"])
    labels_b = dict(views[1]["figures"])
    for label in list(labels_a) + [k for k in labels_b if k not in labels_a]:
        rows.append((label, labels_a.get(label, "—"), labels_b.get(label, "—")))
    kind = views[0]["kind"] or views[1]["kind"]
    metric_rows = comparison_rows(
        kind.goldfish.metrics if kind else (), views[0]["summary"], views[1]["summary"]
    )
    charts_b = {c["spec"].get("id"): c for c in views[1]["charts"]}
    pairs = [(c, charts_b.pop(c["spec"].get("id"), None)) for c in views[0]["charts"]]
    pairs += [(None, c) for c in charts_b.values()]
    return render(
        request,
        "simulations/compare.html",
        {"a": views[0], "b": views[1], "rows": rows, "pairs": pairs, "metric_rows": metric_rows},
    )


@require_GET
def odds_view(request):
    """The exact odds table of the deck panel (htmx GET)."""
    q = request.GET
    try:
        result = services.odds_from_query(q, group=q.get("custom_group") or q.get("group"))
    except services.OddsInvalid as exc:
        return render(request, _odds_template(request), {"errors": exc.errors}, status=200)
    return render(request, _odds_template(request), {"odds": result})


def _odds_template(request) -> str:
    """The table alone for the deck panel (htmx), a page of the site when opened directly."""
    return "simulations/_odds.html" if request.htmx else "simulations/odds.html"
