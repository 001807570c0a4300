"""Home, accounts and health pages."""

import logging

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import connection, transaction
from django.http import (
    Http404,
    HttpResponsePermanentRedirect,
    HttpResponseServerError,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.views.decorators.http import require_http_methods

from cardsite.celery import app
from validation.registry import registry

from . import hooks, jobs, scopes, workers
from .account_needed import safe_next, ways_in
from .forms import ApiTokenForm, SignUpForm
from .models import ApiToken, WorkerPing
from .tasks import answer_ping
from .tokens import create_token


def home(request):
    counts = hooks.card_counts()
    games = [(game, counts.get(game.slug, 0)) for game in registry.all()]
    return render(request, "home.html", {"games": games, "panels": hooks.home_panels(request)})


logger = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignUpForm(request.POST or None)
    # Where the visitor was going (a new deck): back there once the account is made.
    next_url = safe_next(request)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Your account is ready.")
        return redirect(next_url or "profile")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "login_url": ways_in(next_url)["login_url"]},
    )


def _profile_context(request, **extra) -> dict:
    return {
        **hooks.profile_context(request.user),
        "tokens": ApiToken.objects.filter(user=request.user),
        "token_form": extra.pop("token_form", None) or ApiTokenForm(),
        **extra,
    }


#: The session key that carries a new token's text to the next view of the account page.
NEW_TOKEN_SESSION_KEY = "new_api_token"


@login_required
def profile(request):
    """The account page. A token made just before is shown here once: its text waits in
    the session for this page and is taken out as it is shown, so a reload shows it no
    more (and makes nothing)."""
    new = request.session.pop(NEW_TOKEN_SESSION_KEY, None)
    extra = {}
    if isinstance(new, dict):
        extra = {"new_token": new.get("text"), "new_token_name": new.get("name")}
    response = render(request, "registration/profile.html", _profile_context(request, **extra))
    if extra:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["POST"])
def token_create(request):
    """Make a personal API token, then go to the account page (post/redirect/get), which
    shows it this once (only its digest is kept)."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        context = _profile_context(request, token_form=form)
        return render(request, "registration/profile.html", context, status=400)
    _token, text = create_token(
        request.user,
        name=form.cleaned_data["name"],
        scope=" ".join(scopes.ordered(form.cleaned_data["scope"])),
        expiry_days=form.cleaned_data["expiry_days"],
    )
    request.session[NEW_TOKEN_SESSION_KEY] = {"text": text, "name": form.cleaned_data["name"]}
    return redirect("profile")


@login_required
@require_http_methods(["POST"])
def token_revoke(request, token_key: str):
    """Revoke one of your tokens (someone else's answers 404)."""
    digest = request.POST.get("digest", "")
    deleted, _ = ApiToken.objects.filter(
        user=request.user, token_key=token_key, digest=digest
    ).delete()
    if not deleted:
        raise Http404("no such token")
    messages.success(request, "Token revoked: it no longer works.")
    return redirect("profile")


@require_http_methods(["GET", "POST"])
def worker_ping(request):
    """POST sends a ping through the broker; GET ?id= tells whether a worker answered.
    Staff only: each ping is a row and a task."""
    if not (request.user.is_authenticated and request.user.is_staff):
        return JsonResponse({"detail": "staff only"}, status=403)
    if request.method == "POST":
        ping = WorkerPing.objects.create()
        transaction.on_commit(lambda: answer_ping.delay(ping.pk))
        return JsonResponse({"id": ping.pk, "answered": False}, status=202)
    try:
        ping = WorkerPing.objects.get(pk=int(request.GET.get("id", "")))
    except (ValueError, WorkerPing.DoesNotExist):
        return JsonResponse({"error": "no ping with that id"}, status=404)
    return JsonResponse(
        {"id": ping.pk, "answered": ping.answered_at is not None, "answered_by": ping.answered_by}
    )


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@require_http_methods(["GET", "HEAD"])
def health(request):
    """For a load balancer: 200 when the database, the cache and the broker answer, else 503
    saying which is down (`down`, and `message`: "cache down"). `worker` says whether a
    worker has answered lately (cardsite.workers) and how long the oldest queued job has
    waited: a worker silent while a job has waited longer than `WORKERS_SILENT_SECONDS` is
    down too (the work stands still); silent with nothing waiting, a `warning`. Reads only;
    anyone may ask; never cached."""
    checks = {
        "database": _check_database,
        "cache": _check_cache,
        "broker": _check_broker,
    }
    results = {}
    for name, check in checks.items():
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - a health check reports, it never raises
            results[name] = f"unreachable: {exc.__class__.__name__}"
            logger.warning("health check failed", extra={"check": name, "error": repr(exc)})
        else:
            results[name] = "ok"
    down = [name for name, result in results.items() if result != "ok"]
    state = _worker_state(database_ok=results["database"] == "ok")
    body: dict[str, object] = {"status": "ok", **results, "worker": state.as_dict()}
    if state.silent:
        waited = state.oldest_queued_seconds
        if waited is not None and waited > workers.silent_after():
            down.append("worker")
        else:
            body["warning"] = state.message()
    if down:
        body["status"] = "unhealthy"
        body["down"] = down
        body["message"] = "; ".join(
            state.message() if name == "worker" else f"{name} down" for name in down
        )
    response = JsonResponse(body)
    response.status_code = 503 if down else 200
    response["Cache-Control"] = "no-store"
    return response


def _worker_state(*, database_ok: bool) -> workers.WorkerState:
    waited = None
    if database_ok:
        try:
            waited = jobs.oldest_queued_seconds()
        except Exception as exc:  # noqa: BLE001 - a health check reports, it never raises
            logger.warning("health check failed", extra={"check": "queued", "error": repr(exc)})
    return workers.worker_state(oldest_queued_seconds=waited)


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _check_cache() -> None:
    cache.get("health-check")


def _check_broker() -> None:
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


# --- Error pages ----------------------------------------------------------------------------
# The site's own pages for 404 and 500 (403, 400 and a failed CSRF check use the templates of
# the same names through Django's handlers). 503 pages: templates/503.html and
# errors/too_slow.html.


def page_not_found(request, exception=None):
    """The site's 404: a way back and a card search. An Http404 may carry its own `heading`
    and `explanation` (a replaced share link says so). Under /api/, JSON."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    context = {
        "heading": getattr(exception, "heading", None),
        "explanation": getattr(exception, "explanation", None),
        "search_game": _game_in_path(request.path),
    }
    return render(request, "404.html", context, status=404)


def _game_in_path(path: str) -> str | None:
    """The game a mistyped address was about (/cards/<game>/…), to search it first."""
    parts = [p for p in path.split("/") if p]
    known = {g.slug for g in registry.all()}
    return next((p for p in parts[:3] if p in known), None)


def server_error(request):
    """The site's 500, rendered without the request's context processors: no session, user or
    database is read, so it renders when the database is what failed."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error; try again in a moment."}, status=500)
    try:
        body = loader.get_template("500.html").render({})
    except Exception:  # noqa: BLE001 - the last resort answers in plain text
        logger.exception("the 500 page could not be rendered")
        return HttpResponseServerError(
            "Something went wrong on our side; try again in a moment.",
            content_type="text/plain; charset=utf-8",
        )
    return HttpResponseServerError(body)
