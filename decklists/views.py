"""Decklist pages: find (search), a decklist (its list, legality today, likes and
favourites, comments, derivation chain, copy, exports, goldfish summary), an author, a set,
and publishing from the deck page.

Every read is scoped in the query: `Decklist.objects.visible_to(user)` (a hidden decklist
is found by staff only), the user's own decks (`Deck.objects.owned_by`) for publishing.
Every form that writes answers with a redirect (post/redirect/get); a refused one shows the
page again with its errors and a 4xx status.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.throttling import page_throttle
from catalogue.models import Game
from validation.registry import registry

from . import selectors, services
from .forms import CommentForm, PublishForm, PublishSetForm, ReasonForm
from .from_decks import Deck, deck_export, list_view, totals_rows, version_sections
from .models import Comment, Decklist, DecklistSet, Follow
from .services import search as finder
from .services.legality import legality_refresh

PAGE_SIZE = 50


def _decklist(request, pk: int) -> Decklist:
    return get_object_or_404(
        Decklist.objects.visible_to(request.user).select_related("game", "author", "set"), pk=pk
    )


def _page_params(request) -> QueryDict:
    """The search form's fields as the API's parameters: the cards included and excluded
    come one a line (`cards`, `excluded`), the API takes them repeated (`card`)."""
    params = request.GET.copy()
    # The form's fields left empty ("any format", no date) filter nothing.
    for key in list(params):
        if key not in ("cards", "excluded") and not "".join(params.getlist(key)).strip():
            del params[key]
    for field, key in (("cards", "card"), ("excluded", "exclude_card")):
        lines = [line.strip() for line in params.pop(field, [""])[0].splitlines() if line.strip()]
        params.setlist(key, params.getlist(key) + lines)
    return params


@page_throttle("decklist_search", methods=("GET",))
def search(request, game: str | None = None):
    """Find decklists: every game's or one game's, with the search's filters and sort."""
    if game is not None and game not in registry:
        raise Http404(f"no game {game!r}")
    params = _page_params(request)
    errors: list[services.ProblemEntry] = []
    page = None
    found = finder.Search(game=game or "")
    try:
        found = finder.search_read(params, game=game or "")
    except services.DecklistInvalid as exc:
        errors = exc.items()
    else:
        qs = finder.decklist_search(found).select_related("game", "author")
        paginator = selectors.SearchPaginator if found.cards else selectors.CappedPaginator
        page = paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    defs = [registry.get(game)] if game else registry.all()
    context = {
        "games": registry.all(),
        "game": registry.get(game) if game else None,
        "search": found,
        "errors": errors,
        "page": page,
        "decklists": page.object_list if page is not None else [],
        "formats": sorted({(f.slug, f.name) for g in defs for f in g.formats.values()}),
        "factions": sorted({(k, v) for g in defs for k, v in g.factions.items()}),
        "sorts": list(finder.SORTS),
        "cards_text": "\n".join(f"{n}:{m}" if m > 1 else n for n, m in found.cards),
        "excluded_text": "\n".join(found.exclude),
        "query": found.query_string(),
        "cap": f"{selectors.COUNT_CAP:,}",
    }
    return render(request, "decklists/search.html", context, status=400 if errors else 200)


def _detail_context(request, decklist: Decklist, **extra) -> dict:

    legality = legality_refresh(decklist)
    own = next((row for row in legality if row.format == decklist.format), None)
    game = decklist.game.definition
    verdict = decklist.verdict
    listing = list_view(decklist.saved_list(), verdict)
    user = request.user
    moderator = services.may_moderate_comment(user, None, decklist)
    comments = selectors.comments_of(decklist, page=request.GET.get("cp") or 1, moderator=moderator)
    return {
        "decklist": decklist,
        "game": game,
        "format_name": game.format(decklist.format).name,
        "formats": {slug: f.name for slug, f in game.formats.items()},
        "listing": listing,
        "legality": legality,
        "own_legality": own,
        "page_data": selectors.decklist_page(decklist, user),
        "comments": comments,
        "may_comment": services.may_comment(user),
        "moderates_comments": moderator,
        "is_author": user.is_authenticated and user.pk == decklist.author_id,
        "comment_form": extra.pop("comment_form", None) or CommentForm(),
        "faction_label": game.factions.get(decklist.faction, decklist.faction),
        "totals": totals_rows(verdict.totals if verdict else None, game),
        **extra,
    }


def detail(request, pk: int):
    decklist = _decklist(request, pk)
    return render(request, "decklists/detail.html", _detail_context(request, decklist))


def _back(decklist: Decklist, anchor: str = "") -> str:
    return reverse("decklists:detail", args=[decklist.pk]) + anchor


def _toggle(request, pk: int, on_fn, off_fn):
    decklist = _decklist(request, pk)
    if decklist.hidden:
        raise Http404("this decklist is hidden")
    on = request.POST.get("on", "1") != "0"
    (on_fn if on else off_fn)(decklist=decklist, user=request.user)
    if request.htmx:
        decklist.refresh_from_db(fields=["likes", "favourites"])
        context = {
            "decklist": decklist,
            "page_data": selectors.decklist_page(decklist, request.user),
        }
        return render(request, "decklists/_reactions.html", context)
    return redirect(_back(decklist, "#reactions"))


@login_required
@require_POST
@page_throttle("community")
def like(request, pk: int):
    return _toggle(request, pk, services.decklist_like, services.decklist_unlike)


@login_required
@require_POST
@page_throttle("community")
def favourite(request, pk: int):
    return _toggle(request, pk, services.decklist_favourite, services.decklist_unfavourite)


@login_required
@require_POST
@page_throttle("comment")
def comment(request, pk: int):
    decklist = _decklist(request, pk)
    if decklist.hidden:
        raise Http404("this decklist is hidden")
    form = CommentForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            posted = services.comment_post(
                decklist=decklist,
                author=request.user,
                text=form.cleaned_data["text"],
                reply_to=form.cleaned_data.get("reply_to"),
            )
        except services.NotAllowed as exc:
            form.add_error(None, str(exc))
            status = 403
        except services.DecklistInvalid as exc:
            for field, errs in exc.errors.items():
                form.add_error(field if field in form.fields else None, errs)
        else:
            messages.success(request, "Comment posted.")
            return redirect(_back(decklist, f"#comment-{posted.pk}"))
    context = _detail_context(request, decklist, comment_form=form)
    return render(request, "decklists/detail.html", context, status=status)


#: Each moderation action said done, in its past tense.
DONE = {"hide": "hidden", "restore": "restored", "delete": "deleted"}


def _reason(request) -> str:
    form = ReasonForm(request.POST)
    return form.data.get("reason", "") if form.is_bound else ""


@login_required
@require_POST
def comment_moderate(request, pk: int, cid: int):
    """Hide or restore a comment (the decklist's author or staff), or delete it (staff),
    with a reason."""
    decklist = _decklist(request, pk)
    target = get_object_or_404(Comment, pk=cid, decklist=decklist)
    if not services.may_moderate_comment(request.user, target, decklist):
        raise Http404("no such comment to moderate")
    action = request.POST.get("action", "")
    steps = {"hide": services.comment_hide, "restore": services.comment_restore}
    if request.user.is_staff:
        steps["delete"] = services.comment_delete
    if action not in steps:
        messages.error(request, f"Choose {' or '.join(steps)}.")
        return redirect(_back(decklist, f"#comment-{cid}"))
    try:
        steps[action](comment=target, actor=request.user, reason=_reason(request))
    except services.DecklistInvalid as exc:
        messages.error(request, "Not done: " + " ".join(exc.errors.get("reason", [])))
    else:
        messages.success(request, f"Comment {DONE[action]}.")
    return redirect(_back(decklist, f"#comment-{cid}" if action != "delete" else "#comments"))


@login_required
@require_POST
def moderate(request, pk: int):
    """Staff: hide, restore or delete a decklist, with a reason."""
    if not request.user.is_staff:
        raise Http404("no such page")
    decklist = _decklist(request, pk)
    steps = {
        "hide": services.decklist_hide,
        "restore": services.decklist_restore,
        "delete": services.decklist_delete,
    }
    action = request.POST.get("action", "")
    if action not in steps:
        messages.error(request, "Choose hide, restore or delete.")
        return redirect(_back(decklist))
    try:
        steps[action](decklist=decklist, actor=request.user, reason=_reason(request))
    except services.DecklistInvalid as exc:
        messages.error(request, "Not done: " + " ".join(exc.errors.get("reason", [])))
        return redirect(_back(decklist))
    messages.success(request, f"Decklist {DONE[action]}.")
    return redirect("decklists:index" if action == "delete" else _back(decklist))


def _report(request, decklist, *, comment=None):
    try:
        _, created = services.report_file(
            reporter=request.user,
            reason=_reason(request),
            decklist=None if comment else decklist,
            comment=comment,
        )
    except services.DecklistInvalid as exc:
        messages.error(request, "Not reported: " + " ".join(exc.errors.get("reason", [])))
    else:
        messages.success(
            request,
            "Reported: a moderator will look at it." if created else "You reported it already.",
        )
    return redirect(_back(decklist, f"#comment-{comment.pk}" if comment else ""))


@login_required
@require_POST
@page_throttle("community")
def report(request, pk: int):
    return _report(request, _decklist(request, pk))


@login_required
@require_POST
@page_throttle("community")
def comment_report(request, pk: int, cid: int):
    decklist = _decklist(request, pk)
    target = get_object_or_404(Comment, pk=cid, decklist=decklist, hidden=False)
    return _report(request, decklist, comment=target)


@login_required
@require_POST
def copy(request, pk: int):
    """Copy the decklist into the user's decks (a private deck that remembers it)."""
    decklist = _decklist(request, pk)
    try:
        deck = services.decklist_copy(decklist=decklist, owner=request.user)
    except Exception as exc:  # noqa: BLE001 - a card gone from the catalogue: say which
        errors = getattr(exc, "errors", None)
        if errors is None:
            raise
        messages.error(request, "Not copied: " + "; ".join(e["message"] for e in errors))
        return redirect(_back(decklist))
    messages.success(request, f"Copied into your decks as “{deck.name}”.")
    return redirect(deck)


def export(request, pk: int, kind: str):
    """The deck page's exports of the snapshot: text, JSON and the printable sheet."""
    decklist = _decklist(request, pk)
    filename = f"{decklist.game.slug}-decklist-{decklist.pk}"
    if kind == "text":
        response = HttpResponse(
            deck_export(deck=decklist, version=decklist, as_="text"),
            content_type="text/plain; charset=utf-8",
        )
        response["Content-Disposition"] = f'inline; filename="{filename}.txt"'
        return response
    if kind == "json":
        data = deck_export(deck=decklist, version=decklist, as_="json")
        response = HttpResponse(
            json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json"
        )
        response["Content-Disposition"] = f'inline; filename="{filename}.json"'
        return response
    if kind == "print":
        return render(
            request,
            "decks/print.html",
            {
                "deck": decklist,
                "version": decklist,
                "game": decklist.game.definition,
                "sections": version_sections(deck=decklist, version=decklist),
                "report": decklist.published_report,
            },
        )
    raise Http404("unknown export format")


def author(request, name: str):
    user = get_object_or_404(get_user_model(), username=name, is_active=True)
    decklists = Paginator(
        Decklist.objects.visible_to(request.user)
        .filter(author=user)
        .defer(*finder.LIST_DEFERRED)
        .select_related("game")
        .order_by("-published_at", "-id"),
        PAGE_SIZE,
    ).get_page(request.GET.get("page"))
    following = (
        request.user.is_authenticated
        and Follow.objects.filter(author=user, follower=request.user).exists()
    )
    return render(
        request,
        "decklists/author.html",
        {
            "author": user,
            "standing": selectors.author_page(user),
            "page": decklists,
            "decklists": decklists.object_list,
            "following": following,
        },
    )


@login_required
@require_POST
@page_throttle("community")
def follow(request, name: str):
    user = get_object_or_404(get_user_model(), username=name, is_active=True)
    try:
        if request.POST.get("on", "1") != "0":
            services.author_follow(author=user, follower=request.user)
            messages.success(
                request, f"You follow {user.username}: you are told when they publish."
            )
        else:
            services.author_unfollow(author=user, follower=request.user)
            messages.success(request, f"You no longer follow {user.username}.")
    except services.DecklistInvalid as exc:
        messages.error(request, " ".join(exc.errors.get("author", [])))
    return redirect("decklists:author", user.username)


def set_detail(request, pk: int):
    found = get_object_or_404(DecklistSet.objects.select_related("author"), pk=pk)
    members = list(
        Decklist.objects.visible_to(request.user)
        .filter(set=found)
        .select_related("game")
        .order_by("pk")
    )
    if not members:
        raise Http404("no decklist of this set can be read")
    return render(request, "decklists/set.html", {"set": found, "members": members})


# --- Publishing ------------------------------------------------------------------------------


def _publishing(request, form, publish, published):
    """A publishing form's POST: `publish(name=…, description=…)` with the valid form's name
    and description, then `published(made)` (the response that follows). Returns that
    response (None while the form is shown again), the refusal's problems and the status: 400
    for an invalid form, a refusal or an invalid decklist (its errors go on the form)."""
    if request.method != "POST":
        return None, [], 200
    if not form.is_valid():
        return None, [], 400
    try:
        made = publish(name=form.cleaned_data["name"], description=form.cleaned_data["description"])
    except services.PublishRefused as exc:
        return None, exc.problems, 400
    except services.DecklistInvalid as exc:
        for field, errs in exc.errors.items():
            form.add_error(field if field in form.fields else None, errs)
        return None, [], 400
    return published(made), [], 200


@login_required
@require_http_methods(["GET", "POST"])
@page_throttle("publish")
def publish(request, pk: int):
    """Publish the current version of one of the user's decks."""
    deck = get_object_or_404(
        Deck.objects.owned_by(request.user).select_related("game", "current_version"), pk=pk
    )
    form = PublishForm(
        request.POST or None, initial={"name": deck.name, "description": deck.description}
    )

    def published(decklist):
        messages.success(request, f"Published “{decklist.name}”.")
        return redirect(decklist)

    done, problems, status = _publishing(
        request,
        form,
        lambda **named: services.decklist_publish(deck=deck, author=request.user, **named),
        published,
    )
    if done is not None:
        return done
    version = deck.current_version
    duplicate = None
    if version is not None:
        sig = services.signature(
            game_slug=deck.game.slug,
            format=deck.format,
            entries=version.entries,
            options={k: v for k, v in (version.options or {}).items() if k != "collection"},
        )
        duplicate = services.duplicate_of(game_id=deck.game_id, sig=sig)
    previous = list(Decklist.objects.filter(deck=deck).order_by("-revision")[:5])
    return render(
        request,
        "decklists/publish.html",
        {
            "deck": deck,
            "form": form,
            "problems": problems,
            "duplicate": duplicate,
            "previous": previous,
            "legal_now": deck.legal,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
@page_throttle("publish")
def publish_set(request):
    """Publish several of the user's decks of one game as one set."""
    decks = list(
        Deck.objects.owned_by(request.user)
        .filter(current_version__isnull=False)
        .select_related("game", "current_version")
        .order_by("game__position", "name")
    )
    form = PublishSetForm(request.POST or None, decks=decks)

    def publish_chosen(**named):
        chosen = [d for d in decks if str(d.pk) in set(form.cleaned_data["decks"])]
        return services.decklist_publish_set(decks=chosen, author=request.user, **named)

    def published(made):
        messages.success(request, f"Published the set “{made.name}”.")
        return redirect("decklists:set", made.pk)

    done, problems, status = _publishing(request, form, publish_chosen, published)
    if done is not None:
        return done
    return render(
        request,
        "decklists/publish_set.html",
        {"form": form, "problems": problems, "games": Game.objects.all()},
        status=status,
    )
