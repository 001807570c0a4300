"""Finding decklists: the search of the decklists page and of `GET /api/decklists/`.

A search is read from query parameters into a `Search` (every bad value a DecklistInvalid
naming its parameter: an unknown card with the closest names, a card both included and
excluded naming both) and answered by one query on the listed decklists:

- `card` (repeatable: `name` or `name:min`, any printing: a card is a name within its game)
  and `exclude_card`: `EXISTS` / `NOT EXISTS` on `DecklistCard`, whose index (card, count,
  decklist) finds the decklists holding a card without reading any list;
- `game`, `format`, `faction`, `author`, `q` (in the name), `since` (published on or after);
- `legal=today`: the decklist's verdict today in `format` (or, without one, in its own
  format) is legal, read from `DecklistLegality` rows checked under the rule set in force
  today (a row left stale by a change not yet re-checked is left out until it is);
- `sort`: `popular` (the stored score, see popularity), `new`, `likes`, `favourites`,
  `comments`, each served by an index on the listed decklists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Lower
from django.utils import timezone

from catalogue.models import Card, Game
from catalogue.services import closest_card_names
from decklists.models import Decklist, DecklistCard, DecklistLegality
from validation.registry import registry

from .errors import DecklistInvalid
from .legality import in_force_codes

SORTS = {
    "popular": ("-score", "-id"),
    "new": ("-published_at", "-id"),
    "likes": ("-likes", "-id"),
    "favourites": ("-favourites", "-id"),
    "comments": ("-comments", "-id"),
}
#: Bounds of one search: cards named, letters of a name and of `q`, the least copies.
MAX_CARDS = 10
MAX_NAME = 200
MAX_Q = 100
MAX_MIN = 99
PARAMS = (
    "game",
    "format",
    "card",
    "exclude_card",
    "author",
    "q",
    "faction",
    "legal",
    "since",
    "sort",
)


@dataclass
class Search:
    game: str = ""
    format: str = ""
    cards: list[tuple[str, int]] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    author: str = ""
    q: str = ""
    faction: str = ""
    legal_today: bool = False
    since: dt.date | None = None
    sort: str = "popular"
    #: Filled by `search_read`: the card ids each named card stands for.
    card_ids: dict[str, list[int]] = field(default_factory=dict)
    author_id: int | None = None

    def terms(self) -> list[str]:
        """What was searched, in words (for the page that found nothing)."""

        said: list[str] = []
        for key, label in (
            ("q", "name contains"),
            ("author", "author"),
            ("format", "format"),
            ("faction", "faction"),
        ):
            if getattr(self, key):
                said.append(f"{label} “{getattr(self, key)}”")
        said += [f"with {m} × {n}" if m > 1 else f"with {n}" for n, m in self.cards]
        said += [f"without {n}" for n in self.exclude]
        if self.legal_today:
            said.append("legal today")
        if self.since:
            said.append(f"published since {self.since.isoformat()}")
        return said

    def query_string(self) -> str:
        """The search as query parameters (for the pages' links)."""

        pairs: list[tuple[str, str]] = []
        for key in ("game", "format", "author", "q", "faction"):
            if getattr(self, key):
                pairs.append((key, getattr(self, key)))
        pairs += [("card", f"{n}:{m}" if m > 1 else n) for n, m in self.cards]
        pairs += [("exclude_card", n) for n in self.exclude]
        if self.legal_today:
            pairs.append(("legal", "today"))
        if self.since:
            pairs.append(("since", self.since.isoformat()))
        if self.sort != "popular":
            pairs.append(("sort", self.sort))
        return urlencode(pairs)


def _values(params: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(params, "getlist", None)
    raw = getlist(key) if getlist else ([params[key]] if key in params else [])
    return [str(v) for v in raw]


#: Parameters that, given, must say something (an empty one is a 400, not "any").
NOT_EMPTY = ("game", "format", "faction", "legal", "since", "sort")


def _one(params: Mapping[str, Any], key: str, errors: dict[str, list[str]]) -> str:
    values = _values(params, key)
    if len(values) > 1:
        errors.setdefault(key, []).append(f"give {key} once")
    if values and key in NOT_EMPTY and not values[0].strip():
        errors.setdefault(key, []).append(f"{key} is empty: give a value, or leave it out")
    return values[0].strip() if values else ""


def _card_arg(value: str, key: str, errors: dict[str, list[str]]) -> tuple[str, int] | None:
    name, sep, tail = value.rpartition(":")
    minimum = 1
    if sep and tail.strip().isascii() and tail.strip().isdigit():
        minimum = int(tail.strip())
        value = name
    value = " ".join(value.split())
    if not value:
        errors.setdefault(key, []).append("a card's name is empty")
        return None
    if len(value) > MAX_NAME:
        errors.setdefault(key, []).append(
            f"a card name of {len(value)} letters; at most {MAX_NAME}"
        )
        return None
    if not 1 <= minimum <= MAX_MIN:
        errors.setdefault(key, []).append(
            f"{value}: at least {minimum} copies; give 1 to {MAX_MIN}"
        )
        return None
    return value, minimum


def search_read(params: Mapping[str, Any], *, game: str = "") -> Search:
    """The search the parameters ask for (`game` from the page's address wins over the
    parameter). DecklistInvalid names every bad parameter at once."""
    errors: dict[str, list[str]] = {}
    s = Search()
    s.game = game or _one(params, "game", errors)
    if s.game and s.game not in registry:
        errors.setdefault("game", []).append(
            f"no game {s.game!r}; use one of {', '.join(registry.slugs())}"
        )
        s.game = ""
    games = [registry.get(s.game)] if s.game else registry.all()
    s.format = _one(params, "format", errors)
    formats = sorted({f for g in games for f in g.formats})
    if s.format and s.format not in formats:
        errors["format"] = [f"no format {s.format!r}; use one of {', '.join(formats)}"]
    s.faction = _one(params, "faction", errors)
    factions = sorted({f for g in games for f in g.factions})
    if s.faction and s.faction not in factions:
        errors["faction"] = [
            f"no faction {s.faction!r}; use one of {', '.join(factions) or '(none: no faction)'}"
        ]
    raw_q = (_values(params, "q") or [""])[0]
    s.q = _one(params, "q", errors)
    if len(raw_q) > MAX_Q:
        errors["q"] = [f"{len(raw_q)} characters; at most {MAX_Q}"]
    s.author = _one(params, "author", errors)
    legal = _one(params, "legal", errors)
    if legal not in ("", "today"):
        errors["legal"] = ["give legal=today (or leave it out)"]
    s.legal_today = legal == "today"
    since = _one(params, "since", errors)
    if since:
        try:
            s.since = dt.date.fromisoformat(since)
        except ValueError:
            errors["since"] = [f"{since!r} is not a date; write YYYY-MM-DD"]
    s.sort = _one(params, "sort", errors) or "popular"
    if s.sort not in SORTS:
        errors["sort"] = [f"no sort {s.sort!r}; use one of {', '.join(SORTS)}"]
        s.sort = "popular"
    for key in ("card", "exclude_card"):
        values = _values(params, key)
        if len(values) > MAX_CARDS:
            errors[key] = [f"{len(values)} cards; at most {MAX_CARDS}"]
            continue
        for value in values:
            read = _card_arg(value, key, errors)
            if read is None:
                continue
            if key == "card":
                s.cards.append(read)
            else:
                if read[1] != 1:
                    errors.setdefault(key, []).append(f"{read[0]}: an excluded card takes no count")
                    continue
                s.exclude.append(read[0])
    both = sorted({n.lower() for n, _ in s.cards} & {n.lower() for n in s.exclude})
    if both:
        names = ", ".join(next(n for n, _ in s.cards if n.lower() == b) for b in both)
        message = f"{names} is both included (card) and excluded (exclude_card); give it once"
        errors.setdefault("card", []).append(message)
        errors.setdefault("exclude_card", []).append(message)
    if errors:
        raise DecklistInvalid(errors)
    _resolve_cards(s)
    if s.author:
        s.author_id = (
            get_user_model().objects.filter(username=s.author).values_list("pk", flat=True).first()
        )
        if s.author_id is None:
            raise DecklistInvalid({"author": [f"no author {s.author!r}"]})
    return s


def _resolve_cards(s: Search) -> None:
    """The card ids of every named card (one query); unknown names raise DecklistInvalid
    with the closest names of each game searched."""
    names = [n for n, _ in s.cards] + s.exclude
    if not names:
        return
    rows = Card.objects.annotate(lname=Lower("name")).filter(lname__in={n.lower() for n in names})
    if s.game:
        rows = rows.filter(game__slug=s.game)
    found: dict[str, list[int]] = {}
    for lname, pk in rows.values_list("lname", "pk"):
        found.setdefault(lname, []).append(pk)
    errors: dict[str, list[str]] = {}
    suggestions: dict[str, list[str]] = {}
    for key, wanted in (("card", [n for n, _ in s.cards]), ("exclude_card", s.exclude)):
        unknown = [n for n in wanted if n.lower() not in found]
        if not unknown:
            continue
        slugs = [s.game] if s.game else list(registry.slugs())
        near: dict[str, list[str]] = {n: [] for n in unknown}
        for slug in slugs:
            for name, close in closest_card_names(game_slug=slug, names=unknown).items():
                near[name] += [c for c in close if c not in near[name]]
        for name in unknown:
            nearest = near[name][:3]
            hint = f"; did you mean {', '.join(nearest)}?" if nearest else ""
            where = f" in {registry.get(s.game).name}" if s.game else ""
            errors.setdefault(key, []).append(f"unknown card {name!r}{where}{hint}")
            suggestions.setdefault(key, []).extend(nearest)
    if errors:
        raise DecklistInvalid(errors, suggestions)
    s.card_ids = {n.lower(): found[n.lower()] for n in names}


#: What a list of decklists does not show (read only for a decklist's own page).
LIST_DEFERRED = (
    "entries",
    "list_text",
    "options",
    "published_report",
    "description",
    "description_html",
)


def decklist_search(s: Search) -> QuerySet[Decklist]:
    """The listed decklists the search finds, in its order (a queryset, for paging), without
    the fields a list does not show."""
    qs = Decklist.objects.listed().defer(*LIST_DEFERRED)
    if s.game:
        qs = qs.filter(game__slug=s.game)
    if s.format and not s.legal_today:
        qs = qs.filter(format=s.format)
    if s.faction:
        qs = qs.filter(faction=s.faction)
    if s.author_id is not None:
        qs = qs.filter(author_id=s.author_id)
    if s.q:
        qs = qs.filter(name__icontains=s.q)
    if s.since:
        start = timezone.make_aware(dt.datetime.combine(s.since, dt.time.min))
        qs = qs.filter(published_at__gte=start)
    included = [(s.card_ids[n.lower()], m) for n, m in s.cards]
    excluded = [s.card_ids[n.lower()] for n in s.exclude]
    if included:
        qs = qs.filter(pk__in=_holding(included, excluded))
    elif excluded:
        # Without a card to hold: every decklist but those holding any excluded card.
        qs = qs.exclude(pk__in=_holding([([pk for ids in excluded for pk in ids], 1)], []))
    if s.legal_today:
        qs = qs.filter(_legal_today_q(s))
    return qs.order_by(*SORTS[s.sort])


def _holding(included: list[tuple[list[int], int]], excluded: list[list[int]]) -> RawSQL:
    """The ids of the decklists holding every included card (at least its count of copies)
    and none of the excluded ones: one set operation on the card index (`decklistcard_card`,
    card → decklists), computed once (a hashed subplan) instead of probed decklist by
    decklist."""
    table = DecklistCard._meta.db_table
    parts, params = [], []
    for ids, minimum in included:
        marks = ", ".join(["%s"] * len(ids))
        parts.append(f"SELECT decklist_id FROM {table} WHERE card_id IN ({marks}) AND count >= %s")
        params += [*ids, minimum]
    sql = " INTERSECT ".join(parts)
    for ids in excluded:
        marks = ", ".join(["%s"] * len(ids))
        sql += f" EXCEPT SELECT decklist_id FROM {table} WHERE card_id IN ({marks})"
        params += ids
    return RawSQL(sql, params)


def _legal_today_q(s: Search) -> Q:
    """Legal today in `s.format` (or each decklist's own format), under the rule set in
    effect today in its game and that format."""
    codes = in_force_codes()
    games = (
        {g.slug: g.pk for g in Game.objects.all()}
        if not s.game
        else dict(Game.objects.filter(slug=s.game).values_list("slug", "pk"))
    )
    q = Q(pk__in=[])
    for slug, game_id in games.items():
        if slug not in registry:
            continue
        fmts = [s.format] if s.format else list(registry.get(slug).formats)
        for fmt in fmts:
            if fmt not in registry.get(slug).formats:
                continue
            rows = DecklistLegality.objects.filter(
                decklist=OuterRef("pk"),
                format=fmt,
                legal=True,
                rule_set_code=codes.get((game_id, fmt), ""),
            )
            pair = cast(Q, Q(game_id=game_id) & Exists(rows))
            if not s.format:
                pair &= Q(format=fmt)
            q |= pair
    return q
