"""Home, accounts and health pages."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from catalogue.services import game_card_counts
from validation.registry import registry

from .forms import SignUpForm
from .models import WorkerPing
from .tasks import answer_ping


def home(request):
    counts = game_card_counts()
    games = [(game, counts.get(game.slug, 0)) for game in registry.all()]
    return render(request, "home.html", {"games": games})


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Your account is ready.")
        return redirect("profile")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    from decks.services import deck_list_for_owner

    return render(
        request, "registration/profile.html", {"decks": deck_list_for_owner(owner=request.user)}
    )


@require_http_methods(["GET", "POST"])
def worker_ping(request):
    """POST sends a ping through the broker; GET ?id= tells whether a worker answered."""
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
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))
