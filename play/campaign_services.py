"""Campaign services: a series of games of one game, each player keeping one list.

The game's `CampaignRules` (`campaign.game.definition.campaign`, `Campaign.rules`) say what
a result earns, what an award and a swap cost, which format and section a list is checked
in, and the words the game uses for them. Nothing here knows a game by name.

Views and API classes parse input, call one service and render. A campaign action that the
rules refuse raises `CampaignRefused` with the reasons and the field, and changes nothing.
Permission scoping is the caller's job (`Campaign.objects.owned_by(user)`): a service trusts
the objects it is handed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Q

from catalogue.models import Game
from catalogue.services import card_facts_by_names
from decks.lists import ListInvalid, VersionConflict, as_sections, entries_from_json, list_check
from decks.models import Deck
from decks.services import deck_save_version
from validation.capabilities import CampaignRules
from validation.registry import registry
from validation.rules import points

from .models import (
    Campaign,
    CampaignGame,
    CampaignGameResult,
    CampaignPlayer,
    CampaignSpend,
    GameResult,
    SpendKind,
)


class CampaignRefused(Exception):
    """A campaign action the rules refuse; nothing was changed. `reasons` lists why, `field`
    names the input at fault ("" for the whole request)."""

    def __init__(self, reasons: str | list[str], field: str = ""):
        self.reasons = [reasons] if isinstance(reasons, str) else list(reasons)
        super().__init__("; ".join(self.reasons))
        self.field = field


# --- Games with campaigns ------------------------------------------------------------------


def campaign_game_slugs() -> list[str]:
    """The registered games with campaign rules, in registration order."""
    return [g.slug for g in registry.all() if g.campaign is not None]


def campaign_game(*, slug: str | None) -> Game:
    """The catalogue game `slug`, which must have campaign rules; with no slug, the only
    game that has them. CampaignRefused (field "game") otherwise."""
    slugs = campaign_game_slugs()
    known = ", ".join(slugs) or "none"
    if not slug:
        if len(slugs) != 1:
            raise CampaignRefused(f"game: name the game; games with campaigns: {known}", "game")
        slug = slugs[0]
    if slug not in slugs:
        raise CampaignRefused(
            f"game: {slug!r} has no campaigns; games with campaigns: {known}", "game"
        )
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise CampaignRefused(f"game: {slug!r} is not in the catalogue yet", "game")
    return game


# --- Campaigns and players -----------------------------------------------------------------


def campaign_create(
    *,
    owner,
    game: Game | str | None,
    name: str,
    points_total: int | None = None,
    notes: str = "",
) -> Campaign:
    """A campaign of `game` (a catalogue Game, its slug, or None for the only game with
    campaign rules) whose lists total `points_total` (default: the rules')."""
    if not isinstance(game, Game):
        game = campaign_game(slug=game)
    rules: CampaignRules = game.definition.campaign
    name = (name or "").strip()
    if not name:
        raise CampaignRefused("a campaign needs a name", "name")
    total = rules.default_points if points_total is None else int(points_total)
    if total < 1:
        raise CampaignRefused("the points total must be at least 1", "points_total")
    return Campaign.objects.create(
        owner=owner, game=game, name=name, points_total=total, notes=notes or ""
    )


def campaign_list(*, owner, game: Game):
    """The owner's campaigns of `game`, newest first, with their number of players."""
    return (
        Campaign.objects.owned_by(owner)
        .filter(game=game)
        .select_related("game")
        .annotate(player_count=Count("players"))
    )


def section_counts(deck, section: str) -> dict[str, int]:
    """Card name -> count in one section of the deck's current version."""
    version = deck.current_version
    if version is None:
        return {}
    counts: dict[str, int] = {}
    for e in entries_from_json(version.entries):
        if e.section == section:
            counts[e.card] = counts.get(e.card, 0) + e.count
    return counts


def _sections_with(deck, section: str, cards: Mapping[str, int]) -> dict[str, list[dict]]:
    """The deck's current list with `section` replaced by `cards` (other sections as they
    are)."""
    sections: dict[str, list[dict[str, Any]]] = {
        section: [{"card": n, "count": c} for n, c in sorted(cards.items()) if c > 0]
    }
    version = deck.current_version
    others = entries_from_json(version.entries if version is not None else ())
    for name, items in as_sections(e for e in others if e.section != section).items():
        sections.setdefault(name, []).extend(items)
    return sections


def campaign_list_problems(
    *, campaign: Campaign, deck, cards: Mapping[str, int] | None = None
) -> tuple[list[str], int | None]:
    """Why the deck's list (its kept section replaced by `cards`, when given) cannot be a
    list of `campaign`: a deck of another game, or the rules core's errors in the rules'
    format with the campaign's points (among them the format's own rule on the section's
    total, e.g. exactly the campaign's points).
    Returns (problems, the section's total)."""
    rules: CampaignRules = campaign.rules
    if deck.game_id != campaign.game_id:
        return [
            f"{deck.name} is a {deck.game.name} deck; this campaign plays {campaign.game.name}"
        ], None
    cards = dict(cards if cards is not None else section_counts(deck, rules.section))
    if not cards:
        return [f"{deck.name} has no {rules.list_label} yet"], None
    try:
        checked = list_check(
            game_slug=campaign.game.slug,
            format=rules.format,
            sections=_sections_with(deck, rules.section, cards),
            options={rules.points_option: campaign.points_total},
        )
    except ListInvalid as exc:
        return [e["message"] for e in exc.errors], None
    # Whether the section's total fits the campaign is the format's own rule (its points
    # option set to the campaign's), the one the builder applies: no second rule here.
    problems = [v.message for v in checked.report.errors]
    total = points(checked.deck, (rules.section,), rules.kinds or None)
    return problems, total


def campaign_player_add(*, campaign: Campaign, name: str, deck, user=None) -> CampaignPlayer:
    """Add a player with the list they keep: a deck of the campaign's owner and game, legal
    in the rules' format, whose section totals exactly the campaign's points."""
    rules: CampaignRules = campaign.rules
    name = (name or "").strip()
    if not name:
        raise CampaignRefused("a player needs a name", "name")
    if deck.owner_id != campaign.owner_id:
        raise CampaignRefused(f"the {rules.list_label} must be one of your own decks", "deck")
    if campaign.players.filter(name__iexact=name).exists():
        raise CampaignRefused(f"{name} already plays in this campaign", "name")
    problems, _ = campaign_list_problems(campaign=campaign, deck=deck)
    if problems:
        raise CampaignRefused(problems, "deck")
    return CampaignPlayer.objects.create(campaign=campaign, name=name, deck=deck, user=user)


def campaign_player_lists(*, campaign: Campaign) -> list[dict[str, Any]]:
    """Each player with the cards of their kept section, [(name, count)] by name."""
    section = campaign.rules.section
    players = campaign.players.select_related("deck__current_version")
    return [
        {"player": p, "cards": sorted(section_counts(p.deck, section).items())} for p in players
    ]


# --- Games ---------------------------------------------------------------------------------


def campaign_game_record(
    *,
    campaign: Campaign,
    results: Iterable[tuple[Any, str]],
    date: dt.date | None = None,
    notes: str = "",
) -> CampaignGame:
    """Record a game: `results` pairs players of the campaign with win / loss / draw; each
    earns the rules' campaign points for it. A draw is a draw for every player; otherwise a
    game has at least one winner and one loser."""
    pairs = list(results)
    if len(pairs) < 2:
        raise CampaignRefused("a game has at least two players", "results")
    ids = [p.pk for p, _ in pairs]
    if len(set(ids)) != len(ids):
        raise CampaignRefused("a player appears twice in the game", "results")
    if any(p.campaign_id != campaign.pk for p, _ in pairs):
        raise CampaignRefused("every player must belong to this campaign", "results")
    outcomes = [r for _, r in pairs]
    bad = [r for r in outcomes if r not in GameResult.values]
    if bad:
        raise CampaignRefused(f"{bad[0]!r} is not a result; use win, loss or draw", "results")
    if "draw" in outcomes and set(outcomes) != {"draw"}:
        raise CampaignRefused("in a draw every player draws", "results")
    if "draw" not in outcomes and not ({"win", "loss"} <= set(outcomes)):
        raise CampaignRefused("a game that is not a draw has a winner and a loser", "results")
    points_for = campaign.rules.points_for
    with transaction.atomic():
        number = (campaign.games.aggregate(n=Max("number"))["n"] or 0) + 1
        game = CampaignGame.objects.create(
            campaign=campaign, date=date or dt.date.today(), number=number, notes=notes
        )
        for player, result in pairs:
            earned = int(points_for[result])
            CampaignGameResult.objects.create(
                game=game, player=player, result=result, points=earned
            )
            CampaignPlayer.objects.filter(pk=player.pk).update(
                campaign_points=F("campaign_points") + earned
            )
        campaign.save(update_fields=["updated_at"])
    for player, _ in pairs:
        player.refresh_from_db(fields=["campaign_points"])
    return game


# --- Spending ------------------------------------------------------------------------------


def campaign_spend_award(*, player: CampaignPlayer, count: int = 1) -> CampaignSpend:
    """Spend the rules' award cost per award."""
    campaign = player.campaign
    rules: CampaignRules = campaign.rules
    if count < 1:
        raise CampaignRefused(f"buy at least one {rules.award_label}", "count")
    cost = rules.award_cost * count
    with transaction.atomic():
        locked = CampaignPlayer.objects.select_for_update().get(pk=player.pk)
        if cost > locked.campaign_points:
            raise CampaignRefused(
                f"{count} {rules.award_label}(s) cost {cost} campaign points; {locked.name} "
                f"has {locked.campaign_points}",
                "count",
            )
        locked.campaign_points -= cost
        locked.awards += count
        locked.save(update_fields=["campaign_points", "awards"])
        spend = CampaignSpend.objects.create(
            player=locked, kind=SpendKind.AWARD, points=cost, awards=count
        )
        campaign.save(update_fields=["updated_at"])
    player.campaign_points, player.awards = locked.campaign_points, locked.awards
    return spend


def _clean_cards(
    cards: Mapping[str, Any], field: str, *, campaign: Campaign
) -> tuple[dict[str, int], dict[str, Any]]:
    """Names -> counts, names made canonical from the catalogue's cards of the rules' kinds;
    and the cards' facts by lower-cased name."""
    rules: CampaignRules = campaign.rules
    game = campaign.game.definition
    if not isinstance(cards, Mapping):
        raise CampaignRefused(f"{field}: expected {rules.card_label} names with counts", field)
    names = [str(n).strip() for n in cards]
    facts = card_facts_by_names(game_slug=campaign.game.slug, names=names)
    if rules.kinds:
        wanted = " or ".join(game.kind(k).label.lower() for k in rules.kinds)
    else:
        wanted = f"{game.name} card"
    out: dict[str, int] = {}
    for name, count in cards.items():
        card = facts.get(str(name).strip().lower())
        if card is None or (rules.kinds and card.kind not in rules.kinds):
            raise CampaignRefused(f"{field}: {name!r} is not a {wanted}", field)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise CampaignRefused(f"{field}: {name}: bad count {count!r}", field)
        out[card.name] = out.get(card.name, 0) + count
    return out, facts


def swap_cost(
    *, rules: CampaignRules, remove: Mapping[str, int], add: Mapping[str, int], facts
) -> tuple[int, int, int]:
    """(cost, points out, points in): the rules' cost per point swapped. The total is kept,
    so the cards out and in are worth the same; should they differ, the larger counts."""
    out_pts = sum(facts[n.lower()].cost * c for n, c in remove.items())
    in_pts = sum(facts[n.lower()].cost * c for n, c in add.items())
    return max(out_pts, in_pts) * rules.swap_cost_per_point, out_pts, in_pts


def campaign_spend_swap(
    *, player: CampaignPlayer, remove: Mapping[str, Any], add: Mapping[str, Any], author=None
) -> CampaignSpend:
    """Swap cards of the player's kept section: take `remove` out and put `add` in
    ({name: count}), paying the rules' cost per point swapped. The new list must still total
    exactly the campaign's points and be legal in the rules' format; it is saved as a new
    version of the player's deck. A swap that breaks a rule or that the player cannot
    afford raises CampaignRefused and changes nothing."""
    campaign = player.campaign
    rules: CampaignRules = campaign.rules
    card, kept = rules.card_label, rules.list_label
    remove_c, facts = _clean_cards(remove, "remove", campaign=campaign)
    add_c, more = _clean_cards(add, "add", campaign=campaign)
    facts = {**facts, **more}
    if not remove_c or not add_c:
        raise CampaignRefused(f"a swap takes {card}s out of the {kept} and puts others in")
    with transaction.atomic():
        locked = CampaignPlayer.objects.select_for_update().get(pk=player.pk)
        deck = Deck.objects.select_related("game", "current_version").get(pk=locked.deck_id)
        current = section_counts(deck, rules.section)
        cards = dict(current)
        missing = []
        for name, count in remove_c.items():
            have = cards.get(name, 0)
            if have < count:
                missing.append(f"the {kept} has {have} {name}; cannot take out {count}")
            cards[name] = have - count
        if missing:
            raise CampaignRefused(missing, "remove")
        for name, count in add_c.items():
            cards[name] = cards.get(name, 0) + count
        cards = {n: c for n, c in cards.items() if c > 0}
        if cards == current:
            raise CampaignRefused(f"the swap leaves the {kept} unchanged")
        cost, out_pts, in_pts = swap_cost(rules=rules, remove=remove_c, add=add_c, facts=facts)
        problems, _ = campaign_list_problems(campaign=campaign, deck=deck, cards=cards)
        if problems:
            raise CampaignRefused(problems, "add")
        if cost > locked.campaign_points:
            raise CampaignRefused(
                f"swapping {max(out_pts, in_pts)} {rules.points_label}s costs {cost} campaign "
                f"points; {locked.name} has {locked.campaign_points}",
                "remove",
            )
        version = deck.current_version
        try:
            saved = deck_save_version(
                deck=deck,
                author=author or campaign.owner,
                sections=_sections_with(deck, rules.section, cards),
                options=dict(version.options) if version else {},
                based_on=version.number if version else None,
            )
        except VersionConflict as exc:
            raise CampaignRefused(f"the {kept} was saved elsewhere meanwhile; try again") from exc
        except ListInvalid as exc:
            raise CampaignRefused([e["message"] for e in exc.errors], "add") from exc
        locked.campaign_points -= cost
        locked.save(update_fields=["campaign_points"])
        spend = CampaignSpend.objects.create(
            player=locked,
            kind=SpendKind.SWAP,
            points=cost,
            removed=remove_c,
            added=add_c,
            deck_version=saved.number,
        )
        campaign.save(update_fields=["updated_at"])
    player.campaign_points = locked.campaign_points
    return spend


# --- Standings -----------------------------------------------------------------------------


def campaign_standings(*, campaign: Campaign) -> list[dict[str, Any]]:
    """Players in the order that decides the campaign: the most awards, then campaign
    points, then wins, then name; with their record. One query."""
    players = campaign.players.annotate(
        wins=Count("results", filter=Q(results__result="win")),
        losses=Count("results", filter=Q(results__result="loss")),
        draws=Count("results", filter=Q(results__result="draw")),
        played=Count("results"),
    ).select_related("deck")
    rows: list[dict[str, Any]] = [
        {
            "player": p,
            "id": p.pk,
            "name": p.name,
            "deck": p.deck_id,
            "deck_name": p.deck.name,
            "campaign_points": p.campaign_points,
            "awards": p.awards,
            "played": p.played,
            "wins": p.wins,
            "losses": p.losses,
            "draws": p.draws,
        }
        for p in players
    ]
    rows.sort(key=lambda r: (-r["awards"], -r["campaign_points"], -r["wins"], r["name"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows
