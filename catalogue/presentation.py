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


#: How alike a word typed and a word of a card's name must be for the name to be the word
#: corrected (difflib's ratio): "wizrd" and "Wizard", not "shielded" and "Anti-Shield".
CORRECTED_CUTOFF = 0.75
_SUFFIXES = ("'s", "ies", "es", "s", "ed", "ing", "er")


def _forms(word: str) -> set[str]:
    """A word and its stems without a common English ending ("wizards" -> "wizard",
    "shielded" -> "shield"): the search's full-text match reads it so."""
    forms = {word}
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms.add(word[: -len(suffix)])
    return forms


def _edits_allowed(word: str) -> int:
    """How many edits a corrected word may be from the name's word (a letter changed, added
    or dropped, or two swapped, is one): one up to five letters, two from six, so that a
    long name with a letter dropped is still found and a short word two letters off is not."""
    return 1 if len(word) <= 5 else 2


#: How many names a search that matched only by a loose likeness offers as links.
SUGGESTIONS = 5


def _edits(a: str, b: str) -> int:
    """The edits from `a` to `b`: letters changed, added or dropped, two neighbours swapped."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


def bare_words(query: str) -> list[str]:
    """The words of a query searched as words of a name or text (no key term, no negated
    term, no operator, no quoted phrase), lower-cased, of three letters or more."""
    if '"' in query:
        return []
    words = [
        w.lower()
        for w in query.split()
        if not _KEY_TERM.search(w) and not w.startswith("-") and w.lower() not in _OPERATORS
    ]
    return [w for w in words if len(re.sub(r"[\W_]", "", w)) >= 3]


def search_reading(query: str, result, cards) -> dict[str, Any]:
    """What a results page says about how a query was read.

    `corrected`: the name of the best match among `cards` (the page's, best first when the
    search ranked them, else the closest name), as the catalogue spells it, only when the
    name is what a word of the query was corrected to: no card of the page holds the word
    as typed (or a form of it: "wizards" is found as "wizard") in its name or text, and a
    word of that name is a close spelling of it (a name typed with a letter left out shows
    the name as spelt: at most one letter off up to five letters, two from six).
    `suggestions`: when such a word is in no card of the page and no name is close enough
    to be what was meant ("rally" and "Thieves' Alley"), the names of the page's first cards,
    for the page to offer as links in place of the cards (not for a query with OR, whose
    other words may hold). `read_as`: the query as the search read it, only when that says
    more than the query itself (keys and values normalised, terms dropped). At most one
    query (the texts of the page's cards, when a word is in none of their names)."""
    out: dict[str, Any] = {"corrected": "", "read_as": "", "suggestions": []}
    read_as = getattr(result, "read_as", "") or ""
    typed = " ".join(query.split()).lower()
    plain = " ".join(re.sub(r"\bAND\b", " ", read_as).split()).lower()
    if read_as and plain != typed:
        out["read_as"] = read_as
    cards = list(cards)
    if not cards or '"' in query:
        return out
    words = bare_words(query)
    if not words:
        return out
    names = " ".join(c.name.lower() for c in cards)
    unseen = [w for w in words if not any(f in names for f in _forms(w))]
    if not unseen:
        return out
    texts = " ".join(
        (t or "").lower()
        for t in type(cards[0])
        .objects.filter(pk__in=[c.pk for c in cards])
        .values_list("text", flat=True)
    )
    unseen = [w for w in unseen if not any(f in texts for f in _forms(w))]
    if not unseen:
        return out
    top = cards[0]
    if not getattr(result, "ranked", False):
        joined = " ".join(words)
        top = max(
            cards[:100],
            key=lambda c: difflib.SequenceMatcher(a=joined, b=c.name.lower()).ratio(),
        )
    name_words = re.findall(r"[^\W_]+", top.name.lower())
    name_words.append("".join(name_words))

    def corrected(word: str) -> bool:
        letters = "".join(re.findall(r"[^\W_]+", word))
        return any(
            difflib.SequenceMatcher(a=letters, b=n).ratio() >= CORRECTED_CUTOFF
            and _edits(letters, n) <= _edits_allowed(letters)
            for n in name_words
        )

    if all(corrected(w) for w in unseen):
        out["corrected"] = top.name
        out["read_as"] = ""
    elif not any(w.lower() == "or" for w in query.split()):
        out["suggestions"] = list(dict.fromkeys(c.name for c in cards))[:SUGGESTIONS]
    return out
