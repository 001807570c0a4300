"""Deck pages: checking a list, decks and their versions, public lists.

Every read of a deck is scoped in the query: `Deck.objects.visible_to(user)` for pages by
id (an unlisted deck of someone else is not found there), `.shared(token)` for share links,
`.owned_by(user)` for anything that writes.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.account_needed import account_needed, ways_in
from cardsite.hostile import whole_number
from cardsite.throttling import page_throttle
from catalogue import rulesets
from catalogue.models import Card, Game
from catalogue.services import card_facts_by_names
from validation.registry import registry
from validation.types import CardFacts

from . import exports, selectors, services, verdicts
from . import hooks as deck_hooks
from .builder.views.listing import list_view
from .forms import (
    CheckListForm,
    DeckEditForm,
    DeckNewForm,
    DeckSettingsForm,
    default_game_format,
    list_too_large,
)
from .list_pages import list_form_page as _list_form_page
from .list_pages import list_invalid as _list_invalid
from .lists import ListInvalid, SavedList, holdings, list_check
from .models import Deck, DeckVersion, RetiredShareToken
from .presentation import explained, totals_rows

#: Versions listed per page of a deck's history.
HISTORY_PAGE = 20

CONFLICT_MESSAGE = (
    "This deck was saved elsewhere since you opened it (version {n}). "
    "Your changes were not saved: reload and merge."
)


@page_throttle("validate")
def check_list(request):
    """Check a list without an account: verdict, every violation, the totals."""
    form = CheckListForm(
        request.POST or None,
        # The menu opens on "as the list says" (its # Game: and # Format: lines, else its
        # sections and cards), unless a link chose the format.
        initial={"game_format": request.GET.get("f") or ""},
    )
    context: dict = {"form": form, "games": registry.all()}
    if request.method == "POST" and form.is_valid():
        game_slug, fmt = form.split()
        context["game"] = registry.get(game_slug)
        context["read_as"] = form.read_as
        try:
            checked = list_check(
                game_slug=game_slug,
                format=fmt,
                text=form.cleaned_data["list"],
                options=form.options(),
                owner=request.user,
                report_unknown=True,
                rule_set=form.chosen_rule_set(),
            )
        except ListInvalid as exc:
            context["line_errors"] = exc.line_errors
        except services.DeckInvalid:
            form.add_error("collection", "Sign in to check a list against your collection.")
        else:
            # The unknown lines and the rule problems of the lines read, at once.
            context["report"] = checked.located()
            context["rule_set"] = (
                rulesets.by_code(game_slug, fmt, checked.report.rule_set)
                if checked.report.rule_set
                else None
            )
            # How it was chosen: by its code, on a date, or (neither) today.
            context["asked_code"] = form.cleaned_data["rule_set"]
            context["as_of"] = form.cleaned_data["as_of"]
            context["unknown"] = [e.as_unread() for e in checked.unread]
            context["violations"] = explained(
                context["report"], context["game"], fmt, rule_set=context["rule_set"]
            )
            context["totals"] = totals_rows(checked.report.totals, context["game"])
    if request.method == "POST" and form.errors and request.htmx:
        # The partial replaces the verdict only: it says what was wrong with the form.
        context["form_errors"] = [
            (form.fields[name].label if name in form.fields else "", message)
            for name, messages_ in form.errors.items()
            for message in messages_
        ]
    template = "decks/_check_result.html" if request.htmx else "decks/check.html"
    # A list larger than the site reads is a 400 (an htmx swap only shows a 2xx answer).
    status = 400 if list_too_large(form) and not request.htmx else 200
    return render(request, template, context, status=status)


def build(request):
    """Where a new deck starts: every game's formats, or one game's (`?game=`); a game with
    a single format opens the builder on it."""
    slug = request.GET.get("game", "")
    # A visitor is told first that building needs an account, with the ways in.
    ways = {} if request.user.is_authenticated else ways_in(request.get_full_path())
    if slug in registry:
        game = registry.get(slug)
        if len(game.formats) == 1:
            return redirect("builder:new", game.slug, next(iter(game.formats)))
        context = {"games": [game], "one_game": game, **ways}
        return render(request, "decks/build_index.html", context)
    return render(request, "decks/build_index.html", {"games": registry.all(), **ways})


# --- Lookups ------------------------------------------------------------------------------


def _readable(request, *, pk: int | None = None, token: str | None = None) -> Deck:
    """The deck the request may read: by id among the decks visible to the user, or by a
    share token. Anything else is a 404, whether or not the deck exists. A verdict checked
    under a rule set no longer in effect for the deck is re-checked at once (written
    through), so the page shows today's."""
    qs = verdicts.with_in_force(Deck.objects.select_related("game", "owner", "current_version"))
    if token is not None:
        deck = qs.shared(token).first()
        if deck is None:
            retired = RetiredShareToken.objects.filter(token=token).first()
            if retired is not None:
                raise ShareLinkRetired(retired)
            raise Http404("no deck is shared with this link")
    else:
        deck = get_object_or_404(qs.visible_to(request.user), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


class ShareLinkRetired(Http404):
    """A share link its owner replaced or withdrew: the 404 page says so."""

    def __init__(self, retired: RetiredShareToken):
        super().__init__(retired.get_reason_display())
        self.heading = retired.get_reason_display()
        if retired.reason == RetiredShareToken.Reason.REPLACED:
            self.explanation = "Ask the person who sent it for the new link."
        else:
            self.explanation = "The deck is no longer shared by link; ask its owner."


def _owned(request, pk: int) -> Deck:
    qs = Deck.objects.owned_by(request.user).select_related("game", "owner", "current_version")
    deck = get_object_or_404(verdicts.with_in_force(qs), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


def _version(deck: Deck, number: int | None) -> DeckVersion | None:
    if number is None or (deck.current_version and deck.current_version.number == number):
        return deck.current_version
    return get_object_or_404(DeckVersion.objects.filter(deck=deck), number=number)


def _int_param(request, name: str) -> int | None:
    """A whole number of ASCII digits (at most 9), else None (no such parameter)."""
    return whole_number(request.GET.get(name, ""))


def _deck_urls(deck: Deck, token: str | None) -> dict[str, str]:
    """Links of the deck's read pages, by id or through the share link."""
    if token is not None:
        exported = {
            f"export_{kind}": reverse("decks:shared-export", args=[token, kind])
            for kind in exports.FORMATS
        }
    else:
        exported = {
            f"export_{kind}": reverse("decks:export", args=[deck.pk, kind])
            for kind in exports.FORMATS
        }
    return exported | _read_urls(deck, token)


def _read_urls(deck: Deck, token: str | None) -> dict[str, str]:
    if token is not None:
        return {
            "detail": reverse("decks:shared", args=[token]),
            "export_text": reverse("decks:shared-export", args=[token, "text"]),
            "export_json": reverse("decks:shared-export", args=[token, "json"]),
            "print": reverse("decks:shared-export", args=[token, "print"]),
            "diff": reverse("decks:shared-diff", args=[token]),
            "clone": reverse("decks:shared-clone", args=[token]),
        }
    return {
        "detail": reverse("decks:detail", args=[deck.pk]),
        "export_text": reverse("decks:export", args=[deck.pk, "text"]),
        "export_json": reverse("decks:export", args=[deck.pk, "json"]),
        "print": reverse("decks:export", args=[deck.pk, "print"]),
        "diff": reverse("decks:diff", args=[deck.pk]),
        "clone": reverse("decks:clone", args=[deck.pk]),
    }


# --- Lists of decks -----------------------------------------------------------------------


@login_required
def my_decks(request):
    """The user's decks with the current verdict of each (a constant number of queries)."""
    decks = selectors.deck_list_for_owner(owner=request.user)
    verdicts.decks_refresh(decks)
    return render(request, "decks/mine.html", {"decks": decks})


def public_decks(request, game: str | None = None):
    """Public decks, per game, searchable by name."""
    games = list(Game.objects.all())
    current = None
    if game is not None:
        current = next((g for g in games if g.slug == game), None)
        if current is None:
            raise Http404(f"no game {game!r}")
    q = request.GET.get("q", "").strip()[:100]
    formats = sorted(
        {f for g in registry.all() if current is None or g.slug == current.slug for f in g.formats}
    )
    legal_in = request.GET.get("legal", "")
    legal_in = legal_in if legal_in in formats else ""
    page = Paginator(
        selectors.deck_public_list(game_slug=game, query=q, legal_in=legal_in),
        50,
        allow_empty_first_page=True,
    ).get_page(request.GET.get("page"))
    # The few decks of the page checked under yesterday's rule set, re-checked at once.
    verdicts.decks_refresh(page.object_list)
    return render(
        request,
        "decks/public.html",
        {
            "games": games,
            "game": current,
            "q": q,
            "page": page,
            "decks": page.object_list,
            "formats": formats,
            "legal_in": legal_in,
        },
    )


# --- Creating ------------------------------------------------------------------------------


def _new(request, *, list_required: bool):
    # Importing, the menu opens on "as the list says" (the list's lines, else its sections
    # and cards); a new deck opens on the first format.
    form = DeckNewForm(
        request.POST or None,
        request.FILES or None,
        list_required=list_required,
        initial={
            "game_format": request.GET.get("f") or ("" if list_required else default_game_format())
        },
    )
    context = {"form": form, "importing": list_required}
    status = 200
    if request.method == "POST" and form.is_valid():
        game_slug, fmt = form.split()
        try:
            deck = services.deck_create(
                owner=request.user,
                game_slug=game_slug,
                format=fmt,
                name=form.cleaned_data["name"],
                description=form.cleaned_data.get("description", ""),
                visibility=form.cleaned_data["visibility"],
                text=form.list_text(),
                options=form.options(),
            )
        except ListInvalid as exc:
            status = _list_invalid(context, exc)
            _keep_list_text(form)
        except services.DeckInvalid as exc:
            for field, errs in exc.errors.items():
                form.add_error("game_format" if field in {"game", "format"} else None, errs)
            status = 400
        else:
            messages.success(request, f"Deck “{deck.name}” created.")
            if form.recognised:
                messages.info(request, form.recognised)
            return redirect(deck)
    return _list_form_page(request, "decks/new.html", form, context, status)


def _keep_list_text(form) -> None:
    """A refused list read from a file is shown in the paste box, so that a fix (a click on
    a suggested name) edits it and the next import reads it."""
    if form.cleaned_data.get("file") and form.cleaned_data.get("list"):
        form.data = form.data.copy()
        form.data["list"] = form.cleaned_data["list"]


@account_needed
@require_http_methods(["GET", "POST"])
def deck_new(request):
    return _new(request, list_required=False)


@account_needed
@require_http_methods(["GET", "POST"])
def deck_import(request):
    return _new(request, list_required=True)


# --- One deck -----------------------------------------------------------------------------


def _detail(request, deck: Deck, *, token: str | None, number: int | None = None):
    version = _version(deck, number)
    game = deck.game.definition
    is_current = version is not None and version.pk == deck.current_version_id
    report = deck.verdict if is_current else (version.verdict if version else None)
    listing = list_view(SavedList.of_deck(deck, version), report) if version else None
    history = Paginator(
        DeckVersion.objects.filter(deck=deck)
        .select_related("author")
        .defer("list_text", "entries", "options")
        .order_by("-number"),
        HISTORY_PAGE,
    ).get_page(request.GET.get("vp"))
    versions = list(history.object_list)
    user = request.user
    rule_sets = verdicts.deck_rule_sets(deck=deck, with_effect=is_current)
    code = report.rule_set if report is not None else None
    checked_under = next((rs for rs in rule_sets.choices if rs.code == code), None)
    missing = None
    availability = None
    is_owner = user.is_authenticated and deck.owner_id == user.pk
    if is_owner and is_current:
        # Per card: owned · in your other built decks (which) · free, and what is short.
        availability = holdings.availability(owner=user, deck=deck)
    elif user.is_authenticated and version is not None:
        if holdings.owns_any(owner=user, game_id=deck.game_id):
            missing = selectors.collection_missing(owner=user, deck=deck, version=version)
    return render(
        request,
        "decks/detail.html",
        {
            "deck": deck,
            "game": game,
            "version": version,
            "is_current": is_current,
            "listing": listing,
            "report": report,
            "violations": explained(report, game, deck.format, rule_set=checked_under),
            "totals": totals_rows(report.totals if report else None, game),
            "versions": versions,
            "is_owner": is_owner,
            "availability": availability,
            "short": [a for a in availability or () if a["short"]],
            "token": token,
            "urls": _deck_urls(deck, token),
            "share_url": request.build_absolute_uri(deck.get_share_url()),
            "missing": missing,
            "history": history,
            "diff_a": versions[1].number if len(versions) > 1 else None,
            "diff_b": versions[0].number if versions else None,
            "rule_sets": rule_sets,
            "copies": _copies(deck, version, listing["facts"] if listing else None),
            "unit_sheet": bool(game.unit_sheet),
            "deck_links": deck_hooks.deck_links(deck) if token is None else [],
        },
    )


def _copies(deck: Deck, version, facts: Mapping[str, CardFacts] | None) -> list[dict[str, str]]:
    """The list as text, Markdown and BBCode, for the copy buttons, in the order the page
    lists it (`facts`: the cards' facts the page's list read; else one query, for the three)."""
    if version is None:
        return []
    if facts is None:
        facts = card_facts_by_names(
            game_slug=deck.game.slug, names=[e["card"] for e in version.entries]
        )
    return [
        {"kind": fmt.slug, "label": fmt.label, "body": fmt.copy_text(deck, version, facts=facts)}
        for fmt in exports.FORMATS.values()
        if fmt.copyable
    ]


def deck_detail(request, pk: int):
    return _detail(request, _readable(request, pk=pk), token=None, number=_int_param(request, "v"))


def deck_version(request, pk: int, number: int):
    return _detail(request, _readable(request, pk=pk), token=None, number=number)


def deck_shared(request, token: str):
    deck = _readable(request, token=token)
    return _detail(request, deck, token=token, number=_int_param(request, "v"))


def _diff(request, deck: Deck, token: str | None):
    a = _int_param(request, "a")
    b = _int_param(request, "b")
    versions = {
        v.number: v for v in DeckVersion.objects.filter(deck=deck, number__in=[a or 0, b or 0])
    }
    if a not in versions or b not in versions:
        raise Http404("no such versions")
    for v in versions.values():
        v.deck = deck
    diff = selectors.deck_diff(version_a=versions[a], version_b=versions[b])
    context = {"deck": deck, "a": a, "b": b, "diff": diff, "urls": _deck_urls(deck, token)}
    template = "decks/_diff.html" if request.htmx else "decks/diff.html"
    return render(request, template, context)


def deck_diff(request, pk: int):
    return _diff(request, _readable(request, pk=pk), None)


def deck_shared_diff(request, token: str):
    return _diff(request, _readable(request, token=token), token)


def _export(request, deck: Deck, kind: str):
    version = _version(deck, _int_param(request, "v"))
    if version is None:
        raise Http404("this deck has no saved list yet")
    if kind == "print":
        report = deck.verdict if version.pk == deck.current_version_id else version.verdict
        return render(
            request,
            "decks/print.html",
            {
                "deck": deck,
                "version": version,
                "game": deck.game.definition,
                "sections": selectors.version_sections(deck=deck, version=version),
                "report": report,
                "totals": totals_rows(report.totals if report else None, deck.game.definition),
                "sheet": {
                    name: request.GET.get(name, "")[: exports.SHEET_FIELD_MAX]
                    for name in ("player", "event", "date")
                },
            },
        )
    if kind not in exports.FORMATS:
        raise Http404("unknown export format")
    fmt = exports.FORMATS[kind]
    try:
        body = fmt.render(deck, version, request.GET, request.build_absolute_uri)
    except exports.ExportRefused as exc:
        return render(
            request,
            "decks/export_refused.html",
            {"deck": deck, "message": exc.message, "urls": _deck_urls(deck, None)},
            status=400,
        )
    return fmt.response(deck, version, body)


@page_throttle("export", methods=("GET",))
def deck_export(request, pk: int, kind: str):
    return _export(request, _readable(request, pk=pk), kind)


@page_throttle("export", methods=("GET",))
def deck_shared_export(request, token: str, kind: str):
    return _export(request, _readable(request, token=token), kind)


@login_required
@require_POST
def deck_clone(request, pk: int):
    return _clone(request, _readable(request, pk=pk))


@login_required
@require_POST
def deck_shared_clone(request, token: str):
    return _clone(request, _readable(request, token=token))


def _clone(request, source):
    clone = services.deck_clone(deck=source, owner=request.user)
    messages.success(request, f"Cloned into your decks as “{clone.name}”.")
    return redirect(clone)


@login_required
@require_http_methods(["GET", "POST"])
def deck_edit(request, pk: int):
    """The list as text; saving adds a version, refused when the deck was saved since."""
    deck = _owned(request, pk)
    current = deck.current_version
    initial = {
        "list": current.list_text if current else "",
        "base_version": current.number if current else None,
        "points": (current.options.get("points") if current else None),
        "collection": bool(current and current.options.get("collection") is True),
    }
    form = DeckEditForm(request.POST or None, initial=initial)
    if "points" not in deck.game.definition.format(deck.format).adjustable:
        del form.fields["points"]  # only formats with an agreed total take one
    context: dict = {"deck": deck, "form": form, "game": deck.game.definition}
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            version = services.deck_save_version(
                deck=deck,
                author=request.user,
                text=form.cleaned_data["list"],
                options=form.options(),
                based_on=form.cleaned_data.get("base_version"),
            )
        except services.VersionConflict as exc:
            context["conflict"] = CONFLICT_MESSAGE.format(n=exc.current_number)
            status = 409
        except ListInvalid as exc:
            status = _list_invalid(context, exc)
        except services.DeckInvalid as exc:
            for errs in exc.errors.values():
                form.add_error(None, errs)
            status = 400
        else:
            messages.success(request, f"Saved version {version.number}.")
            return redirect(deck)
    return _list_form_page(request, "decks/edit.html", form, context, status)


@login_required
@require_POST
def deck_rule_set(request, pk: int):
    """Pin the owner's deck to a rule set of its format (`rule_set`: a code), or let it
    follow the format (empty); the deck is re-checked at once."""
    deck = _owned(request, pk)
    code = request.POST.get("rule_set", "").strip()[:40]
    try:
        services.deck_pin(deck=deck, code=code or None)
    except services.DeckInvalid as exc:
        messages.error(request, " ".join(exc.errors.get("rule_set", [])))
    else:
        messages.success(
            request, f"Pinned to {code}." if code else "The deck follows its format again."
        )
    return redirect(request.POST.get("next") if _safe_next(request) else deck)


def _safe_next(request) -> bool:
    target = request.POST.get("next", "")
    return bool(target) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


@login_required
@require_http_methods(["GET", "POST"])
def deck_settings(request, pk: int):
    deck = _owned(request, pk)
    form = DeckSettingsForm(request.POST or None, instance=deck)
    if request.method == "POST" and form.is_valid():
        services.deck_update(
            deck=deck,
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            visibility=form.cleaned_data["visibility"],
        )
        messages.success(request, "Saved.")
        return redirect(deck)
    return render(request, "decks/settings.html", {"deck": deck, "form": form})


@login_required
@require_POST
def deck_delete(request, pk: int):
    deck = _owned(request, pk)
    name = deck.name
    services.deck_delete(deck=deck)
    messages.success(request, f"Deck “{name}” deleted.")
    return redirect("decks:mine")


# --- Sample hand --------------------------------------------------------------------------


def _hand(request, deck: Deck, *, token: str | None):
    """Deal a sample hand of the deck's drawn sections: `?seed=` fixes the shuffle (a new
    one when missing), `?<section>=n` draws n more cards after the opening hand, `?v=` picks
    a version. Stateless, so the same link shows the same hand."""
    rules = selectors.drawn_sections(deck.game.slug)
    version = _version(deck, _int_param(request, "v"))
    if not rules or version is None:
        raise Http404("This deck has no section that is drawn as a hand.")
    seed = _int_param(request, "seed")
    if seed is None or not 0 < seed <= selectors.MAX_SEED:
        seed = selectors.new_seed()
    extra = {r.section: _int_param(request, r.section) or 0 for r in rules}
    hand = selectors.sample_hand(deck=deck, version=version, seed=seed, extra=extra)
    base = (
        reverse("decks:shared-hand", args=[token])
        if token is not None
        else reverse("decks:hand", args=[deck.pk])
    )
    context = {
        "deck": deck,
        "version": version,
        "hand": hand,
        "seed": seed,
        "hand_url": base,
        "urls": _deck_urls(deck, token),
        # Per section: the query that draws one more card there and keeps the others.
        "rows": [
            {
                "s": s,
                "next": "&".join(
                    f"{o.section}={o.drawn_count + (o.section == s.section)}" for o in hand
                ),
            }
            for s in hand
        ],
    }
    template = "decks/_sample_hand.html" if request.htmx else "decks/sample_hand.html"
    return render(request, template, context)


def deck_hand(request, pk: int):
    return _hand(request, _readable(request, pk=pk), token=None)


def deck_shared_hand(request, token: str):
    return _hand(request, _readable(request, token=token), token=token)


@login_required
@require_POST
def deck_new_link(request, pk: int):
    """Replace the share link of one of the user's decks; the old link stops working."""
    deck = _owned(request, pk)
    services.deck_new_share_link(deck=deck)
    messages.success(request, "The deck has a new share link; the old one no longer works.")
    return redirect(deck.get_absolute_url() + "#share-link")


# --- Add a card to a deck (from the card's page) -----------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def card_to_deck(request, game: str, pk: int):
    """Add one copy of a card to one of the user's decks of its game, or to a new deck
    (`services.deck_add_card`: saved as a new version, the list changed as the builder
    changes it)."""
    card = get_object_or_404(Card.objects.select_related("game"), game__slug=game, pk=pk)
    game_def = registry.get(game)
    targets = selectors.card_targets(owner=request.user, card=card)
    error = ""
    if request.method == "POST":
        kind, _, value = request.POST.get("target", "").partition(":")
        deck = targets.deck(whole_number(value)) if kind == "deck" else None
        new_format = value if kind == "new" and value in targets.formats else ""
        if deck is None and not new_format:
            error = "Pick one of your decks, or a new deck."
        else:
            try:
                deck, where = services.deck_add_card(
                    owner=request.user, card=card, deck=deck, format=new_format
                )
            except services.VersionConflict:
                error = (
                    f"“{deck.name if deck else card.name}” was saved elsewhere just now; try again."
                )
            except ListInvalid as exc:
                error = "Not added: " + "; ".join(e["message"] for e in exc.errors)
            except ValueError as exc:
                error = f"Not added: {exc}"
            else:
                messages.success(request, f"Added 1 {card.name} to {where} of “{deck.name}”.")
                return redirect("builder:deck", deck.pk)
    return render(
        request,
        "decks/card_to_deck.html",
        {
            "card": card,
            "game": game_def,
            "decks": targets.decks,
            "formats": [(slug, fmt) for slug, (fmt, _) in targets.formats.items()],
            "error": error,
        },
        status=400 if error else 200,
    )
