"""Campaign pages, at /play/<game>/campaigns/ for every game with campaign rules (404 for
the others). They speak the game's words, read from its `CampaignRules`.

Campaign pages are owner-scoped in the query (`Campaign.objects.owned_by(user)`): someone
else's campaign is a 404 whatever its id, and so is a campaign under another game's path.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from catalogue.models import format_name

from . import campaign_services as services
from .campaign_forms import CampaignForm, GameRecordForm, PlayerForm, SpendForm
from .campaign_services import CampaignRefused
from .models import Campaign, CampaignSpend


def _game(slug: str):
    try:
        return services.campaign_game(slug=slug)
    except CampaignRefused as exc:
        raise Http404(exc.reasons[0]) from exc


def _campaign(request, game_slug: str, pk: int) -> Campaign:
    game = _game(game_slug)
    return get_object_or_404(
        Campaign.objects.owned_by(request.user).select_related("game"), pk=pk, game=game
    )


def _context(campaign: Campaign, **extra) -> dict:
    return {
        "campaign": campaign,
        "game": campaign.game,
        "rules": campaign.rules,
        "format_name": format_name(campaign.game.slug, campaign.rules.format),
        **extra,
    }


@login_required
def campaign_list(request, game: str):
    game_row = _game(game)
    campaigns = services.campaign_list(owner=request.user, game=game_row)
    return render(
        request,
        "play/campaign_list.html",
        {"campaigns": campaigns, "game": game_row, "rules": game_row.definition.campaign},
    )


@login_required
def campaign_new(request, game: str):
    game_row = _game(game)
    rules = game_row.definition.campaign
    form = CampaignForm(request.POST or None, rules=rules)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_create(
                owner=request.user, game=game_row, **form.cleaned_data
            )
        except CampaignRefused as exc:
            form.add_error(exc.field or None, "; ".join(exc.reasons))
        else:
            messages.success(request, f"Campaign {campaign.name} created: now add the players.")
            return redirect(campaign)
    return render(
        request, "play/campaign_new.html", {"form": form, "game": game_row, "rules": rules}
    )


@login_required
def campaign_detail(request, game: str, pk: int):
    campaign = _campaign(request, game, pk)
    games = campaign.games.prefetch_related("results__player")
    spends = CampaignSpend.objects.filter(player__campaign=campaign).select_related("player")[:50]
    return render(
        request,
        "play/campaign_detail.html",
        _context(
            campaign,
            standings=services.campaign_standings(campaign=campaign),
            games=games,
            spends=spends,
            player_form=PlayerForm(owner=request.user, game=campaign.game, rules=campaign.rules),
        ),
    )


@login_required
@require_POST
def campaign_player_new(request, game: str, pk: int):
    campaign = _campaign(request, game, pk)
    form = PlayerForm(request.POST, owner=request.user, game=campaign.game, rules=campaign.rules)
    if form.is_valid():
        try:
            player = services.campaign_player_add(
                campaign=campaign,
                name=form.cleaned_data["name"],
                deck=form.cleaned_data["deck"],
            )
        except CampaignRefused as exc:
            for reason in exc.reasons:
                messages.error(request, f"Player not added: {reason}")
        else:
            messages.success(request, f"{player.name} joins with {player.deck.name}.")
    else:
        for field, errors in form.errors.items():
            messages.error(request, f"Player not added: {field}: {' '.join(map(str, errors))}")
    return redirect(campaign)


@login_required
def campaign_game_new(request, game: str, pk: int):
    campaign = _campaign(request, game, pk)
    players = list(campaign.players.all())
    form = GameRecordForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            recorded = services.campaign_game_record(
                campaign=campaign,
                results=form.results(),
                date=form.cleaned_data["date"],
                notes=form.cleaned_data.get("notes", ""),
            )
        except CampaignRefused as exc:
            form.add_error(None, "; ".join(exc.reasons))
        else:
            earned = ", ".join(f"{r.player.name} +{r.points}" for r in recorded.results.all())
            messages.success(request, f"Game {recorded.number} recorded: {earned}.")
            return redirect(campaign)
    return render(request, "play/campaign_game.html", _context(campaign, form=form))


@login_required
def campaign_spend(request, game: str, pk: int):
    campaign = _campaign(request, game, pk)
    rules = campaign.rules
    lists = services.campaign_player_lists(campaign=campaign)
    players = [row["player"] for row in lists]
    examples = list(dict.fromkeys(name for row in lists for name, _ in row["cards"]))[-2:]
    initial = {"player": request.GET.get("player")} if request.GET.get("player") else None
    form = SpendForm(
        request.POST or None, players=players, rules=rules, examples=examples, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        player = form.players[form.cleaned_data["player"]]
        try:
            if form.cleaned_data["kind"] == "award":
                spend = services.campaign_spend_award(
                    player=player, count=form.cleaned_data["count"]
                )
                text = f"{player.name} bought {spend.awards} {rules.award_label}(s)"
            else:
                spend = services.campaign_spend_swap(
                    player=player,
                    remove=form.cleaned_data["remove_cards"],
                    add=form.cleaned_data["add_cards"],
                    author=request.user,
                )
                text = (
                    f"{player.name} swapped {rules.card_label}s; the {rules.list_label} is now "
                    f"version {spend.deck_version}"
                )
        except CampaignRefused as exc:
            form.add_error(None, "Refused: " + "; ".join(exc.reasons))
        else:
            messages.success(request, f"{text} for {spend.points} campaign points.")
            return redirect(campaign)
    return render(request, "play/campaign_spend.html", _context(campaign, form=form, lists=lists))


@login_required
def campaign_standings(request, game: str, pk: int):
    campaign = _campaign(request, game, pk)
    context = _context(campaign, standings=services.campaign_standings(campaign=campaign))
    if request.htmx:
        return render(request, "play/_standings.html", context)
    return render(request, "play/campaign_standings.html", context)
