"""The interactive deck builder (htmx): search on the left, the deck by section in the
middle, the live verdict and stats on the right.

The server keeps the working list: every change (add, remove, set a count, pick a general,
place a unit on a hex, change a format option, deal a new map) is applied to the version the
page was based on and autosaved as a new `DeckVersion` through `services.deck_save_version`;
a stale base is refused (VersionConflict) and the page says so instead of overwriting.

Nothing here knows a game by name. What differs between games is read from the rules core
(the format's sections, size and kind rules, placement areas, adjustable options) or looked
up by convention: the partial `games/<slug>/builder_extra.html` when it exists, and the
game definition's `map_layout` for games whose matches deal a map from their cards.

Query budget (pinned in tests/decks/test_builder.py): a page or a change costs a constant
number of queries whatever the number of cards: one for the deck (with its game and current
version), one for the card facts of the list, one for search results, one per card kind a
game partial lists (e.g. REDLINE's generals), and the save's own fixed handful.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Case, Exists, IntegerField, OuterRef, When
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from catalogue.models import Card
from catalogue.presentation import stat_line
from catalogue.search import search_cards
from catalogue.services import card_facts_by_names
from validation import decklist
from validation.registry import FormatDef, GameDef, MapLayout, registry
from validation.rules import ExactlyOne, ExactSize, KindAllowed, KindForbidden, MinSize
from validation.runner import validate
from validation.types import Deck as RulesDeck

from . import services
from .models import CollectionEntry, Deck, DeckVersion, Visibility
from .presentation import totals_rows

SEARCH_LIMIT = 40
#: Deeper pages are refused: narrowing the search is the way there.
MAX_SEARCH_PAGE = 250
MAX_COUNT = 99
MAX_ENTRIES = decklist.MAX_ENTRIES
CONFLICT_MESSAGE = (
    "This deck was saved elsewhere since you opened it (version {n}). Your change was not "
    "saved: reload the builder to continue from version {n}."
)
#: The highest cost with its own bar in the cost curve; dearer cards share the last bar.
CURVE_MAX = 7


# --- What the rules core tells the builder -----------------------------------------------


def section_kinds(game: GameDef, fmt: FormatDef) -> dict[str, frozenset[str]]:
    """For each section of the format, the card kinds that belong in it, read from the
    format's rules: kinds a section is limited to (KindAllowed, ExactlyOne, size rules that
    reject other kinds, a unique attribute only some kinds have), minus forbidden ones; when
    no rule says, a kind named like the section (`orders` holds `order`), else every kind."""
    out: dict[str, frozenset[str]] = {}
    for section in fmt.sections:
        allowed: set[str] = set()
        forbidden: set[str] = set()
        for rule in fmt.rules:
            if getattr(rule, "section", None) != section:
                continue
            if isinstance(rule, KindForbidden):
                forbidden |= rule.kinds
            elif isinstance(rule, KindAllowed):
                allowed |= rule.kinds
            elif isinstance(rule, ExactlyOne):
                allowed.add(rule.kind)
            elif getattr(rule, "strays", False) and getattr(rule, "kinds", None):
                allowed |= rule.kinds
            elif hasattr(rule, "attr") and isinstance(rule.attr, str):
                allowed |= {
                    k
                    for k, schema in game.kinds.items()
                    if any(a.key == rule.attr for a in schema.attrs)
                }
        if not allowed:
            singular = section[:-1] if section.endswith("s") else section
            allowed = {k for k in game.kinds if k in (section, singular)}
        if not allowed:
            allowed = set(game.kinds)
        out[section] = frozenset(allowed - forbidden)
    return out


def sections_for(
    card: Any, kinds_by_section: Mapping[str, frozenset[str]], factions: Mapping[str, str]
) -> list[str]:
    """The sections `card` can go in: its kind belongs there, and a section named after a
    faction (Red Code's blue and red sides) takes only cards of that faction."""
    return [
        s
        for s, kinds in kinds_by_section.items()
        if card.kind in kinds and (s not in factions or card.faction == s)
    ]


def section_targets(fmt: FormatDef) -> dict[str, tuple[str, int]]:
    """The size each section aims at, from the format's size rules: ("exact", 60) or
    ("min", 20)."""
    out: dict[str, tuple[str, int]] = {}
    for rule in fmt.rules:
        section = getattr(rule, "section", None)
        if section is None or section in out:
            continue
        if isinstance(rule, ExactSize):
            out[section] = ("exact", rule.size)
        elif isinstance(rule, MinSize):
            out[section] = ("min", rule.minimum)
        elif isinstance(rule, ExactlyOne):
            out[section] = ("exact", 1)
    return out


def placement_area(fmt: FormatDef, section: str) -> tuple[int, int] | None:
    """(columns, rows) of the deployment area of a placement section, from the format's
    placement rule (Hex Skirmish: the own 8 × 8 half)."""
    for rule in fmt.rules:
        if getattr(rule, "section", None) == section and hasattr(rule, "columns"):
            return int(rule.columns), int(rule.rows)
    return None


def extra_template(game_slug: str, name: str = "builder_extra") -> str:
    """The game's own partial `games/<slug>/<name>.html`, or an empty fallback."""
    candidate = f"games/{game_slug}/{name}.html"
    try:
        get_template(candidate)
    except TemplateDoesNotExist:
        return "decks/builder/_no_extra.html"
    return candidate


class CardsByKind(Mapping):
    """kind -> the game's cards of that kind (name, faction, cost), each kind loaded with
    one query on first use; game partials use it for pickers (`cards_by_kind.general`)."""

    def __init__(self, game_id: int, kinds: Mapping[str, Any]):
        self.game_id = game_id
        self.kinds = kinds
        self._loaded: dict[str, list[dict[str, Any]]] = {}

    def __getitem__(self, kind: str) -> list[dict[str, Any]]:
        if kind not in self.kinds:
            raise KeyError(kind)
        if kind not in self._loaded:
            self._loaded[kind] = list(
                Card.objects.filter(game_id=self.game_id, kind=kind)
                .order_by("faction", "name")
                .values("name", "faction", "cost")
            )
        return self._loaded[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def __len__(self) -> int:
        return len(self.kinds)


# --- The working list ----------------------------------------------------------------------


def _hex(value: str | None) -> list[int] | None:
    """ "3,1" -> [3, 1]; empty -> None; ValueError when malformed."""
    if value in (None, ""):
        return None
    c, r = str(value).split(",")
    return [int(c), int(r)]


def _find(entries: list[dict], section: str, card: str, hex_: list[int] | None) -> dict | None:
    for e in entries:
        if e["section"] == section and e["card"].lower() == card.lower() and e.get("hex") == hex_:
            return e
    return None


def _add(entries: list[dict], section: str, card: str, n: int, hex_=None) -> None:
    e = _find(entries, section, card, hex_)
    if e is not None:
        e["count"] = min(MAX_COUNT, e["count"] + n)
        return
    row: dict[str, Any] = {"section": section, "card": card, "count": min(MAX_COUNT, n)}
    if hex_ is not None:
        row["hex"] = hex_
    entries.append(row)


def _take(entries: list[dict], section: str, card: str, n: int, hex_=None) -> bool:
    """Remove n copies from a line (the unplaced line first when no hex is named)."""
    e = _find(entries, section, card, hex_)
    if e is None and hex_ is None:
        placed = [
            x for x in entries if x["section"] == section and x["card"].lower() == card.lower()
        ]
        e = placed[-1] if placed else None
    if e is None:
        return False
    e["count"] -= n
    if e["count"] <= 0:
        entries.remove(e)
    return True


def apply_change(entries: list[dict], data: Mapping[str, Any], sections: Sequence[str]) -> list:
    """A copy of `entries` with one change applied. `data` holds `op` and its fields:

    - add / remove: `section`, `card`, optional `n` (1) and `hex` ("c,r")
    - set: `section`, `card`, `count` (0 removes the line), optional `hex`
    - replace: `section` and `cards` (a list, in order; blanks skipped), one copy each
    - place: `section`, `card`, `from` (a hex or blank for an unplaced copy), `to` (a hex)

    Raises ValueError for a malformed change.
    """
    out = [dict(e) for e in entries]
    op = data.get("op")
    section = data.get("section", "")
    if section not in sections:
        raise ValueError(f"no section {section!r} in this format")
    if op == "replace":
        names = [n.strip() for n in data.get("cards", []) if n and n.strip()]
        if len(names) > MAX_ENTRIES:
            raise ValueError(f"cards: {len(names):,} given; at most {MAX_ENTRIES} are read")
        out = [e for e in out if e["section"] != section]
        for name in names:
            _add(out, section, name[:200], 1)
        return out
    card = " ".join(str(data.get("card", "")).split())[:200]
    if not card:
        raise ValueError("no card named")
    hex_ = _hex(data.get("hex"))
    if op == "add":
        _add(out, section, card, max(1, min(MAX_COUNT, _number(data, "n", 1))), hex_)
    elif op == "remove":
        _take(out, section, card, max(1, _number(data, "n", 1)), hex_)
    elif op == "set":
        count = max(0, min(MAX_COUNT, _number(data, "count", 0)))
        e = _find(out, section, card, hex_)
        if e is None and count:
            _add(out, section, card, count, hex_)
        elif e is not None and count:
            e["count"] = count
        elif e is not None:
            out.remove(e)
    elif op == "place":
        to = _hex(data.get("to"))
        if not _take(out, section, card, 1, _hex(data.get("from"))):
            raise ValueError(f"no {card} to place")
        _add(out, section, card, 1, to)
    else:
        raise ValueError(f"unknown change {op!r}")
    if len(out) > MAX_ENTRIES:
        raise ValueError(f"a deck has at most {MAX_ENTRIES} entries")
    return out


def _number(data: Mapping[str, Any], key: str, default: int) -> int:
    """A small whole number of the change, or a ValueError naming the field."""
    raw = data.get(key)
    if raw in (None, ""):
        return default
    text = str(raw).strip()
    if not text.lstrip("+-").isdigit() or len(text) > 6:
        raise ValueError(f"{key}: {text[:12]!r} is not a whole number up to {MAX_COUNT}")
    return int(text)


def _change_data(request) -> dict[str, Any]:
    data: dict[str, Any] = {k: request.POST.get(k) for k in request.POST if k != "cards"}
    data["cards"] = request.POST.getlist("cards")
    return data


# --- Rendering -----------------------------------------------------------------------------


def _owned_deck(request, pk: int) -> Deck:
    """The user's own deck (with its game and current version), else 404."""
    qs = Deck.objects.owned_by(request.user).select_related("game", "owner", "current_version")
    return get_object_or_404(qs, pk=pk)


def _revision(request) -> int | None:
    """The working version's revision the page holds (None when the client sends none)."""
    try:
        return max(0, int(request.POST.get("rev", "")))
    except ValueError:
        return None


def _base_version(deck: Deck, base: str | None) -> DeckVersion | None:
    """The version the page is based on: the current one unless the page names another."""
    current = deck.current_version
    if base is None:
        return current
    if base == "":
        return None  # the page had no version yet; saving will tell if one appeared since
    try:
        number = int(base)
    except ValueError:
        return current
    if current is not None and current.number == number:
        return current
    return DeckVersion.objects.filter(deck=deck, number=number).first()


def _cost_curve(counts: dict[int, int]) -> dict[str, Any]:
    """Bars of a cost curve as SVG geometry (costs 0 … CURVE_MAX+, copies per cost)."""
    width, height, top, bottom = 280, 130, 14, 18
    n_bars = CURVE_MAX + 1
    slot = width / n_bars
    peak = max(counts.values(), default=0) or 1
    bars = []
    for cost in range(n_bars):
        n = counts.get(cost, 0)
        h = (height - top - bottom) * n / peak
        bars.append(
            {
                "label": f"{cost}+" if cost == CURVE_MAX else str(cost),
                "count": n,
                "x": round(cost * slot + 3, 1),
                "w": round(slot - 6, 1),
                "y": round(height - bottom - h, 1),
                "h": round(h, 1),
                "tx": round(cost * slot + slot / 2, 1),
                "ty": round(height - bottom - h - 3, 1),
            }
        )
    return {
        "width": width,
        "height": height,
        "bars": bars,
        "base": height - bottom,
        "label_y": height - 4,
    }


def curve_sections(game: GameDef, fmt: FormatDef) -> tuple[str, ...]:
    """The sections a cost curve is drawn over: those drawn turn by turn (REDLINE's arsenal,
    Hex Skirmish's command cards). None for a force, a match of ships, or decks drawn by
    dice, where a curve of costs means nothing."""
    return tuple(r.section for r in game.draws if r.turn_by_turn and r.section in fmt.sections)


def _stats(game: GameDef, fmt: FormatDef, rows: list[dict]) -> dict[str, Any]:
    """Cost curve over the sections drawn turn by turn; copies by kind and by faction."""
    curved = curve_sections(game, fmt)
    curve: dict[int, int] = {}
    kinds: dict[str, int] = {}
    factions: dict[str, int] = {}
    total_cost = 0
    for row in rows:
        facts, n = row["facts"], row["count"]
        if facts is None:
            continue
        kinds[facts.kind] = kinds.get(facts.kind, 0) + n
        if facts.faction:
            factions[facts.faction] = factions.get(facts.faction, 0) + n
        if row["section"] in curved:
            cost = max(0, min(CURVE_MAX, facts.cost))
            curve[cost] = curve.get(cost, 0) + n
            total_cost += facts.cost * n
    return {
        "curve": _cost_curve(curve) if curved else None,
        "kinds": [
            (game.kinds[k].label if k in game.kinds else k, n) for k, n in sorted(kinds.items())
        ],
        "factions": [(game.factions.get(f, f), n) for f, n in sorted(factions.items())],
        "total_cost": total_cost,
    }


def _short(name: str) -> str:
    """A label that fits in a hex: initials of a long name, or its first letters."""
    words = name.split()
    return "".join(w[0] for w in words[:3]) if len(words) > 1 else name[:3]


def _hexmap(section: str, area: tuple[int, int], rows: list[dict]) -> dict[str, Any]:
    """Pointy-top hexagons in offset rows (odd rows shifted half a hex right), with the
    unit standing on each."""
    columns, n_rows = area
    size = 24.0
    w = math.sqrt(3) * size
    occupants: dict[tuple[int, int], list[str]] = {}
    for row in rows:
        if row["hex"] is not None:
            occupants.setdefault(tuple(row["hex"]), []).append(row["card"])
    hexes = []
    for r in range(n_rows):
        for c in range(columns):
            cx = w * (c + 0.5 * (r % 2)) + w / 2 + 2
            cy = size * 1.5 * r + size + 2
            points = " ".join(
                f"{cx + size * math.cos(math.radians(60 * k - 30)):.1f},"
                f"{cy + size * math.sin(math.radians(60 * k - 30)):.1f}"
                for k in range(6)
            )
            names = occupants.get((c, r), [])
            hexes.append(
                {
                    "c": c,
                    "r": r,
                    "points": points,
                    "cx": round(cx, 1),
                    "cy": round(cy, 1),
                    "occupant": " & ".join(names),
                    "short": _short(names[0]) if names else "",
                    "clash": len(names) > 1,
                }
            )
    return {
        "section": section,
        "columns": columns,
        "rows": n_rows,
        "hexes": hexes,
        "width": round(w * (columns + 0.5) + 4, 1),
        "height": round(size * 1.5 * (n_rows - 1) + 2 * size + 4, 1),
    }


def _layout_view(hook: MapLayout, game_id: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The stored map as rows of cards with their boxes, for the SVG grid (one query)."""
    layout = options.get(hook.option)
    view: dict[str, Any] = {"option": hook.option, "layout": layout, "rows": []}
    if not isinstance(layout, dict) or not isinstance(layout.get("rows"), list):
        return view
    cards = {
        c.name: c
        for c in Card.objects.filter(game_id=game_id, kind=hook.kind).only("name", "attributes")
    }
    box_w, box_h, gap = 34, 30, 8
    for r, row in enumerate(layout["rows"]):
        out_row = []
        for c, name in enumerate(row if isinstance(row, list) else []):
            card = cards.get(name)
            attrs = card.attributes if card else {}
            x, y = c * (2 * box_w + gap), r * (2 * box_h + gap)
            boxes = [
                {"kind": kind, "x": x + (i % 2) * box_w, "y": y + (i // 2) * box_h}
                for i, kind in enumerate((attrs.get("boxes") or [])[:4])
            ]
            out_row.append(
                {"name": name, "start": bool(attrs.get("start")), "x": x, "y": y, "boxes": boxes}
            )
        view["rows"].append(out_row)
    view["box_w"], view["box_h"] = box_w, box_h
    view["width"] = 4 * (2 * box_w + gap)
    view["height"] = len(layout["rows"]) * (2 * box_h + gap)
    view["card_w"], view["card_h"] = 2 * box_w, 2 * box_h
    return view


def group_rows(game: GameDef, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A section's rows grouped by card kind (in the game's kind order), each group with
    its copies counted and its cards sorted by cost, then name; cards the catalogue no
    longer has come last."""
    order = {kind: i for i, kind in enumerate(game.kinds)}
    buckets: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        kind = row["facts"].kind if row["facts"] is not None else ""
        buckets.setdefault(kind, []).append(row)
    groups = []
    for kind in sorted(buckets, key=lambda k: order.get(k, len(order))):
        members = sorted(
            buckets[kind],
            key=lambda r: (r["cost"] is None, r["cost"] or 0, r["card"].lower()),
        )
        groups.append(
            {
                "kind": kind,
                "label": game.kinds[kind].label if kind in game.kinds else "Not in the catalogue",
                "total": sum(r["count"] for r in members),
                "rows": members,
            }
        )
    return groups


def main_section(fmt: FormatDef) -> str | None:
    """The section a deck is mostly made of: the required section with the largest size
    target (REDLINE's arsenal, not its single general), else the first required one."""
    targets = section_targets(fmt)
    required = [s for s in fmt.sections if s in fmt.required_sections] or list(fmt.sections)
    if not required:
        return None
    return max(required, key=lambda s: (targets.get(s, ("", 0))[1], -required.index(s)))


def _vals(**kw: Any) -> str:
    return json.dumps(kw, ensure_ascii=False)


def state_context(
    request,
    deck: Deck,
    version: DeckVersion | None,
    *,
    conflict: str = "",
    error: str = "",
    notice: str = "",
) -> dict[str, Any]:
    """Everything the deck and live panels show for `version` of `deck`."""
    game = deck.game.definition
    fmt = game.format(deck.format)
    entries = list(version.entries) if version else []
    options = dict(version.options) if version else {}
    facts = card_facts_by_names(game_slug=deck.game.slug, names=[e["card"] for e in entries])
    if version is None:
        report = validate(game, deck.format, RulesDeck(options=options)).as_dict()
    elif version.pk == deck.current_version_id and deck.report:
        report = deck.report
    else:
        report = version.report
    errors_by_card: dict[str, list[str]] = {}
    warned: set[str] = set()
    for v in report.get("errors", []):
        for name in v.get("cards", []):
            errors_by_card.setdefault(name, []).append(v["code"])
    for v in report.get("warnings", []):
        warned.update(v.get("cards", []))

    kinds_by_section = section_kinds(game, fmt)
    targets = section_targets(fmt)
    order = list(fmt.sections) + [
        s for s in dict.fromkeys(e["section"] for e in entries) if s not in fmt.sections
    ]
    rows: list[dict[str, Any]] = []
    by_section: dict[str, list[dict]] = {s: [] for s in order}
    for e in entries:
        f = facts.get(e["card"].lower())
        hex_ = e.get("hex")
        row = {
            "section": e["section"],
            "card": e["card"],
            "count": e["count"],
            "hex": hex_,
            "hex_text": f"{hex_[0]},{hex_[1]}" if hex_ else "",
            "facts": f,
            "kind": (game.kinds[f.kind].label if f and f.kind in game.kinds else ""),
            "faction": game.factions.get(f.faction, f.faction) if f else "",
            "cost": f.cost if f else None,
            "errors": errors_by_card.get(e["card"], []),
            "warned": e["card"] in warned,
        }
        key = {"section": e["section"], "card": e["card"]}
        if hex_:
            key["hex"] = row["hex_text"]
        row["vals_add"] = _vals(op="add", **key)
        row["vals_remove"] = _vals(op="remove", **key)
        row["vals_set"] = _vals(op="set", **key)
        rows.append(row)
        by_section.setdefault(e["section"], []).append(row)
    sections = []
    for s in order:
        total = sum(r["count"] for r in by_section[s])
        groups = group_rows(game, by_section[s])
        how, size = targets.get(s, ("", 0))
        sections.append(
            {
                "name": s,
                "label": game.section_label(s),
                "rows": by_section[s],
                "groups": groups,
                "total": total,
                "target": {"exact": str(size), "min": f"≥ {size}"}.get(how, ""),
                "met": (how == "exact" and total == size) or (how == "min" and total >= size),
                "required": s in fmt.required_sections,
                "kinds": ", ".join(
                    game.kinds[k].label
                    for k in sorted(kinds_by_section.get(s, ()))
                    if k in game.kinds
                ),
                "placement": s in game.placement_sections,
            }
        )
    hexmaps = []
    for s in game.placement_sections:
        area = placement_area(fmt, s)
        if s in fmt.sections and area:
            hexmaps.append(_hexmap(s, area, by_section.get(s, [])))
    hook = registry.get(deck.game.slug).map_layout
    owned = (
        request.POST.get("owned") == "1"
        or request.GET.get("owned") == "1"
        or bool(version and _restricted(version.options))
    )
    raw_totals = report.get("totals", {})
    return {
        "deck": deck,
        "game": game,
        "fmt": fmt,
        "version": version,
        "base": version.number if version else "",
        "report": report,
        "totals": totals_rows(raw_totals, game, sections=False),
        "totals_map": {
            k: game.factions.get(v, v) if isinstance(v, str) else v
            for k, v in raw_totals.items()
            if k != "sections"
        },
        "sections": sections,
        "sections_by_name": {s["name"]: s for s in sections},
        "required_sections": [s for s in sections if s["required"]],
        "stats": _stats(game, fmt, rows),
        "curve_of": " and ".join(game.section_label(s).lower() for s in curve_sections(game, fmt)),
        "hexmaps": hexmaps,
        "hexmap": hexmaps[0] if hexmaps else None,
        "layout": _layout_view(hook, deck.game_id, options) if hook else None,
        "options": options,
        "adjustable": [
            {"key": k, "label": k.replace("_", " ").capitalize(), "value": options.get(k, v)}
            for k, v in fmt.options.items()
            if k in fmt.adjustable
        ],
        "cards_by_kind": CardsByKind(deck.game_id, game.kinds),
        "extra_template": extra_template(deck.game.slug),
        "conflict": conflict,
        "error": error,
        "notice": notice,
        "owned": owned,
        "missing": (
            services.collection_missing(owner=request.user, deck=deck, version=version)
            if owned and version is not None
            else None
        ),
        "urls": _urls(deck),
    }


def _urls(deck: Deck) -> dict[str, str]:
    return {
        name: reverse(f"builder:{name}", args=[deck.pk])
        for name in ("deck", "search", "change", "quick", "seal", "options", "meta")
    }


def _render_state(request, deck, version, **kw):
    return render(request, "decks/builder/_state.html", state_context(request, deck, version, **kw))


def _restricted(options: Mapping[str, Any]) -> bool:
    """Whether the deck is restricted to its owner's collection (the "Only cards in my
    collection" box, saved as the option `collection: true`)."""
    return options.get(services.COLLECTION_OPTION) is True


def _with_restriction(request, options: dict) -> dict:
    """The options with the collection box as the page sent it: every htmx request of the
    builder includes the box (`owned=1` when ticked), so an htmx request without it means
    the box is clear. A plain form post does not carry the box and changes nothing."""
    if not request.htmx:
        return options
    options = dict(options)
    if request.POST.get("owned") == "1":
        options[services.COLLECTION_OPTION] = True
    elif _restricted(options):
        del options[services.COLLECTION_OPTION]
    return options


def _save(
    request, deck: Deck, base: DeckVersion | None, entries: list, options: dict, added: str = ""
):
    """Autosave a version from `base`; re-render the panels with the outcome (`added` says
    what a quick-add did)."""
    options = _with_restriction(request, options)
    if base is not None and entries == list(base.entries) and options == dict(base.options):
        return _render_state(request, deck, base)
    if base is None and not entries and not options:
        return _render_state(request, deck, base)
    try:
        version = services.deck_autosave(
            deck=deck,
            author=request.user,
            sections=services.entries_as_sections(entries),
            options=options,
            based_on=base.number if base else None,
            revision=_revision(request),
        )
    except services.VersionConflict as exc:
        return _render_state(
            request, deck, base, conflict=CONFLICT_MESSAGE.format(n=exc.current_number)
        )
    except services.ListInvalid as exc:
        message = "; ".join(e["message"] for e in exc.errors)
        return _render_state(request, deck, base, error=f"Not saved: {message}")
    version.deck = deck
    saved = (
        f"Saved version {version.number}."
        if version.revision == 0
        else f"Saved (working version {version.number})."
    )
    notice = f"{added} {saved}" if added else saved
    return _render_state(request, deck, version, notice=notice)


# --- Views ---------------------------------------------------------------------------------


def _search_queryset(request, deck: Deck, game: GameDef, owned: bool):
    qs = Card.objects.filter(game_id=deck.game_id)
    kind = request.GET.get("kind", "")
    faction = request.GET.get("faction", "")
    if kind in game.kinds:
        qs = qs.filter(kind=kind)
    if faction and faction in game.factions:
        qs = qs.filter(faction=faction)
    if owned:
        qs = qs.filter(
            Exists(CollectionEntry.objects.filter(owner=request.user, card=OuterRef("pk")))
        )
    result = search_cards(query=request.GET.get("q", ""), queryset=qs, game_slug=deck.game.slug)
    return result


def _page_number(request) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), MAX_SEARCH_PAGE))
    except ValueError:
        return 1


def _search_context(request, deck: Deck, *, owned: bool | None = None) -> dict[str, Any]:
    game = deck.game.definition
    fmt = game.format(deck.format)
    if owned is None:
        owned = request.GET.get("owned") == "1"
    result = _search_queryset(request, deck, game, owned)
    kinds_by_section = section_kinds(game, fmt)
    main = main_section(fmt)
    qs = result.queryset
    if not qs.query.order_by and not result.read_as:
        # The kinds of the deck's main section first (REDLINE opens on efreets and
        # resources, not on critical hits), then by cost and name.
        main_kinds = sorted(kinds_by_section.get(main, ())) if main else []
        qs = qs.annotate(
            main_first=Case(
                When(kind__in=main_kinds, then=0), default=1, output_field=IntegerField()
            )
        ).order_by("main_first", "cost", "name")
    page = _page_number(request)
    start = (page - 1) * SEARCH_LIMIT
    cards = list(
        qs.only("id", "name", "kind", "faction", "cost", "attributes")[
            start : start + SEARCH_LIMIT + 1
        ]
    )
    rows = []
    for card in cards[:SEARCH_LIMIT]:
        rows.append(
            {
                "card": card,
                "kind": game.kinds[card.kind].label if card.kind in game.kinds else card.kind,
                "faction": game.factions.get(card.faction, card.faction),
                "stats": stat_line(card, deck.game.slug, limit=len(game.kinds[card.kind].attrs))
                if card.kind in game.kinds
                else "",
                "targets": [
                    {
                        "section": s,
                        "label": game.section_label(s),
                        "add": _vals(op="add", section=s, card=card.name),
                        "remove": _vals(op="remove", section=s, card=card.name),
                    }
                    for s in sections_for(card, kinds_by_section, game.factions)
                ],
            }
        )
    return {
        "deck": deck,
        "game": game,
        "results": rows,
        "more": len(cards) > SEARCH_LIMIT,
        "page": page,
        "first": start + 1,
        "last": start + len(rows),
        "search": result,
        "q": request.GET.get("q", ""),
        "kind": request.GET.get("kind", ""),
        "faction": request.GET.get("faction", ""),
        "owned": owned,
        "urls": _urls(deck),
    }


@login_required
def builder_start(request):
    """Choose a game and format for a new deck."""
    return render(request, "decks/builder/start.html", {"games": registry.all()})


@login_required
@require_http_methods(["GET", "POST"])
def builder_new(request, game: str, format: str):
    """Name a new deck of `game`/`format` and open it in the builder."""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    game_def = registry.get(game)
    if format not in game_def.formats:
        raise Http404(f"no format {format!r}")
    fmt = game_def.format(format)
    name = f"My {game_def.name.split(':')[0]} {fmt.name.lower()} deck"
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()[:200]
        if not name:
            error = "Give the deck a name."
        else:
            deck = services.deck_create(
                owner=request.user, game_slug=game, format=format, name=name
            )
            return redirect("builder:deck", deck.pk)
    return render(
        request,
        "decks/builder/new.html",
        {"game": game_def, "fmt": fmt, "name": name, "error": error},
        status=400 if error else 200,
    )


@login_required
def builder_deck(request, pk: int):
    """The builder page of one of the user's decks."""
    deck = _owned_deck(request, pk)
    context = state_context(request, deck, deck.current_version)
    # A deck restricted to the collection opens with the box ticked.
    version = deck.current_version
    owned = request.GET.get("owned") == "1" or bool(version and _restricted(version.options))
    search = _search_context(request, deck, owned=owned)
    context.update({"search_" + k: v for k, v in search.items()})
    context["visibilities"] = Visibility.choices
    context["share_url"] = request.build_absolute_uri(deck.get_share_url())
    return render(request, "decks/builder/builder.html", context)


@login_required
def builder_search(request, pk: int):
    """Search results for the left panel (and, with `owned`, the collection's gaps)."""
    deck = _owned_deck(request, pk)
    context = _search_context(request, deck)
    if context["owned"] and deck.current_version is not None:
        context["missing"] = services.collection_missing(owner=request.user, deck=deck)
    context["oob_missing"] = True
    return render(request, "decks/builder/_results.html", context)


@login_required
@require_POST
def builder_change(request, pk: int):
    """Apply one change to the working list and autosave it."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    fmt = deck.game.definition.format(deck.format)
    try:
        entries = apply_change(
            list(base.entries) if base else [], _change_data(request), fmt.sections
        )
    except (ValueError, TypeError) as exc:
        return HttpResponseBadRequest(str(exc))
    response = _save(request, deck, base, entries, dict(base.options) if base else {})
    return response if request.htmx else redirect("builder:deck", deck.pk)


def quick_match(deck: Deck, name: str) -> Card | None:
    """The card a quick-add means: the exact name (any case), else the best match of the
    typo-forgiving search over the deck's game."""
    name = " ".join(name.split())[:200]
    if not name:
        return None
    exact = Card.objects.filter(game_id=deck.game_id, name__iexact=name).first()
    if exact is not None:
        return exact
    result = search_cards(
        query=name, queryset=Card.objects.filter(game_id=deck.game_id), game_slug=deck.game.slug
    )
    qs = result.queryset
    if not qs.query.order_by:
        qs = qs.order_by("name")
    return qs.first()


@login_required
@require_POST
def builder_quick_add(request, pk: int):
    """Keyboard quick-add: one copy of the card the typed name means, in the first section
    that takes it (the deck's main section when it does)."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    typed = request.POST.get("name", "")
    card = quick_match(deck, typed)
    if card is None:
        shown = " ".join(typed.split())[:80]
        error = f"No card of {game.name} matches “{shown}”." if shown else "Type a card name."
        return _render_state(request, deck, base, error=error)
    targets = sections_for(card, section_kinds(game, fmt), game.factions)
    if not targets:
        return _render_state(
            request, deck, base, error=f"{card.name} has no section in {fmt.name} decks."
        )
    main = main_section(fmt)
    section = main if main in targets else targets[0]
    entries = apply_change(
        list(base.entries) if base else [],
        {"op": "add", "section": section, "card": card.name},
        fmt.sections,
    )
    response = _save(
        request,
        deck,
        base,
        entries,
        dict(base.options) if base else {},
        added=f"Added 1 {card.name} to {game.section_label(section)}.",
    )
    return response if request.htmx else redirect("builder:deck", deck.pk)


@login_required
@require_POST
def builder_seal(request, pk: int):
    """Seal the current version with an optional note ("Save version", or the page being
    left): the next change starts a new version."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    if base is None or base.pk != deck.current_version_id:
        current = deck.current_version.number if deck.current_version else None
        return _render_state(request, deck, base, conflict=CONFLICT_MESSAGE.format(n=current))
    version = services.deck_seal_version(deck=deck, note=request.POST.get("note", ""))
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    note = f" ({version.note})" if version.note else ""
    return _render_state(request, deck, version, notice=f"Version {version.number} saved{note}.")


@login_required
@require_POST
def builder_options(request, pk: int):
    """Change the format's adjustable options, or deal a new map (`layout`), and autosave."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    options = dict(base.options) if base else {}
    for key in fmt.adjustable:
        if key in request.POST:
            try:
                value = int(request.POST[key])
            except ValueError:
                return HttpResponseBadRequest(f"{key} must be a whole number")
            if value <= 0:
                return HttpResponseBadRequest(f"{key} must be positive")
            options[key] = value
    hook = registry.get(deck.game.slug).map_layout
    if hook is not None and "layout" in request.POST:
        raw = request.POST.get("seed", "").strip()
        try:
            seed = int(raw) if raw else random.SystemRandom().randrange(1, 10**6)
        except ValueError:
            return HttpResponseBadRequest("the seed must be a whole number")
        cards = [
            c.facts()
            for c in Card.objects.filter(game_id=deck.game_id, kind=hook.kind).only(
                "name", "kind", "faction", "cost", "text", "attributes"
            )
        ]
        try:
            options[hook.option] = hook.generate(cards, seed)
        except ValueError as exc:
            return _render_state(request, deck, base, error=f"No map: {exc}")
    entries = list(base.entries) if base else []
    response = _save(request, deck, base, entries, options)
    return response if request.htmx else redirect("builder:deck", deck.pk)


@login_required
@require_POST
def builder_meta(request, pk: int):
    """Save the deck's name and visibility (its list is autosaved already)."""
    deck = _owned_deck(request, pk)
    name = request.POST.get("name", "").strip()[:200] or deck.name
    visibility = request.POST.get("visibility", deck.visibility)
    if visibility not in Visibility.values:
        return HttpResponseBadRequest("unknown visibility")
    services.deck_update(deck=deck, name=name, visibility=visibility)
    context = {
        "deck": deck,
        "visibilities": Visibility.choices,
        "share_url": request.build_absolute_uri(deck.get_share_url()),
        "urls": _urls(deck),
        "saved": True,
    }
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    return render(request, "decks/builder/_meta.html", context)
