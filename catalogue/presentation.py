"""How cards are shown: labelled attributes and the stat line of a drawn card face."""

from __future__ import annotations

import difflib
import re
from typing import Any

from validation.faces import face_of
from validation.registry import registry


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and isinstance(value[0], dict):
            return "; ".join(", ".join(f"{k} {v}" for k, v in item.items()) for item in value)
        return ", ".join(str(v).replace("_", " ") for v in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) if value else "—"
    if value in (None, ""):
        return "—"
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def labelled_attributes(card) -> list[tuple[str, str]]:
    """Every attribute of the card's kind with its label, in schema order."""
    schema = registry.get(card.game.slug).kinds.get(card.kind)
    if schema is None:
        return [(k, format_value(v)) for k, v in sorted(card.attributes.items())]
    return [(a.label, format_value(card.attributes.get(a.key))) for a in schema.attrs]


def stat_line(card, game_slug: str, limit: int = 4) -> str:
    """The few numbers worth printing on a drawn face (the kind's int attributes)."""
    schema = registry.get(game_slug).kinds.get(card.kind)
    if schema is None:
        return ""
    parts = []
    for a in schema.attrs:
        if a.type in ("int", "choice") and a.key in card.attributes:
            parts.append(f"{a.label} {format_value(card.attributes[a.key])}")
        if len(parts) >= limit:
            break
    return " · ".join(parts)


# --- Card faces ------------------------------------------------------------------------------


def face_context(game_slug: str, card) -> dict[str, Any]:
    """What a drawn card face shows, from the game's own face function or the kind's schema
    (validation.faces): stats, badges and a figure ready for the shared figure partials."""
    game = registry.get(game_slug)
    face = face_of(game, card.facts())
    figure = dict(face.figure) if face.figure else None
    if figure and figure.get("type") == "icons":
        figure["items"] = [
            {**item, "symbol": item.get("symbol") or "◆"} for item in figure.get("items", ())
        ]
    return {
        "card": card,
        "game": game,
        "kind_label": game.kinds[card.kind].label if card.kind in game.kinds else card.kind,
        "faction_label": game.factions.get(card.faction, card.faction),
        "stats": list(face.stats),
        "badges": list(face.badges),
        "figure": figure,
        "has_cost": game.has_cost(card.kind),
    }


_KEY_TERM = re.compile(r"[:<>=]")
_OPERATORS = {"and", "or", "not"}


def search_reading(query: str, result, cards) -> dict[str, str]:
    """What a results page says about how a query was read.

    `corrected`: the name of the best match among `cards` (the page's, best first when the
    search ranked them, else the closest name), as the catalogue spells it, when a word of
    the query is neither in its name nor in its text: a typo the name match forgave (a
    name typed with a letter left out shows the name as spelt). `read_as`: the query as
    the search read it, only when that says more than the query itself (keys and values
    normalised, terms dropped). At most one query (the best match's text)."""
    out = {"corrected": "", "read_as": ""}
    read_as = getattr(result, "read_as", "") or ""
    typed = " ".join(query.split()).lower()
    plain = " ".join(re.sub(r"\bAND\b", " ", read_as).split()).lower()
    if read_as and plain != typed:
        out["read_as"] = read_as
    cards = list(cards)
    if not cards or '"' in query:
        return out
    words = [
        w.lower()
        for w in query.split()
        if not _KEY_TERM.search(w) and not w.startswith("-") and w.lower() not in _OPERATORS
    ]
    words = [w for w in words if len(re.sub(r"[\W_]", "", w)) >= 3]
    if not words:
        return out
    top = cards[0]
    if not getattr(result, "ranked", False):
        joined = " ".join(words)
        top = max(
            cards[:100],
            key=lambda c: difflib.SequenceMatcher(a=joined, b=c.name.lower()).ratio(),
        )
    name = top.name.lower()
    unseen = [w for w in words if w not in name]
    if unseen and any(w not in (top.text or "").lower() for w in unseen):
        out["corrected"] = top.name
        out["read_as"] = ""
    return out
