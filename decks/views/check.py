"""Checking a list without an account, and where a new deck starts."""

from __future__ import annotations

from django.shortcuts import redirect, render

from cardsite.account_needed import ways_in
from cardsite.throttling import page_throttle
from catalogue import rulesets
from validation.registry import registry

from .. import services
from ..forms import CheckListForm, list_too_large
from ..lists import ListInvalid, list_check
from ..presentation import explained, totals_rows


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
