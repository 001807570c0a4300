"""Example queries of a game, written from its schema: the search help and the search box
show real keys and values of the game at hand instead of one game's words everywhere."""

from __future__ import annotations

from dataclasses import astuple, dataclass

from validation.registry import GameDef
from validation.schema import Attr, label_key


def _first(game: GameDef, *types: str) -> Attr | None:
    for schema in game.kinds.values():
        for attr in schema.attrs:
            if attr.type in types and (attr.choices or attr.type not in ("choice",)):
                return attr
    return None


@dataclass(frozen=True, slots=True)
class Examples:
    """Terms of one game: `word` and `phrase` from a card name, then one term of each key
    type the game's schema has ("" when it has none)."""

    word: str
    phrase: str
    name: str
    kind: str
    faction: str
    number: str
    choice: str
    rating: str
    flag: str
    listed: str
    combined: str


def examples(game: GameDef, card_name: str = "") -> Examples:
    """Example terms of `game`; `card_name` (a card of the catalogue, when there is one)
    gives the words."""
    words = card_name.lower().split() or ["word"]
    kind = next(iter(game.kinds), "")
    factions = [f for f in game.factions if f != "neutral"]
    faction = factions[0] if factions else ""
    number = _first(game, "int")
    choice = _first(game, "choice")
    flag = _first(game, "bool")
    listed = _first(game, "choice_list", "list")
    number_term = f"{number.key}>={max(number.minimum or 0, 2)}" if number else ""
    rating = ""
    if choice is not None and len(choice.choices) > 2:
        rating = f"{choice.key}>={choice.choices[len(choice.choices) // 2]}"
    listed_term = ""
    if listed is not None:
        listed_term = f"{listed.key}:{listed.choices[0] if listed.choices else words[0]}"
    combined = " ".join(
        t
        for t in (
            f"kind:{kind}" if kind else "",
            f"({number_term} or cost<=2)" if number_term else "cost<=2",
            f"-faction:{faction}" if faction else "",
        )
        if t
    )
    return Examples(
        word=words[0],
        phrase=" ".join(words[:2]),
        name=card_name.lower(),
        kind=kind,
        faction=faction,
        number=number_term,
        choice=f"{choice.key}:{choice.choices[0]}" if choice else "",
        rating=rating,
        flag=f"{flag.key}:true" if flag else "",
        listed=listed_term,
        combined=combined,
    )


def vars_of(ex: Examples) -> tuple[str, ...]:
    """The example terms as a tuple (to count how many keys a game can show)."""
    return astuple(ex)


def keys_of(game: GameDef) -> list[dict[str, object]]:
    """The game's kinds and their keys as the search help lists them: each kind's `label`,
    `kind` and the `kind_alias` its label is read as (when it is not the kind itself), and
    its attributes' `key`, `alias` (the label as a key, when it differs from every key)
    and `choices`."""
    keys = {a.key for schema in game.kinds.values() for a in schema.attrs}
    out: list[dict[str, object]] = []
    for kind, schema in game.kinds.items():
        kind_alias = label_key(schema.label)
        out.append(
            {
                "label": schema.label,
                "kind": kind,
                "kind_alias": kind_alias if kind_alias not in game.kinds else "",
                "attrs": [
                    {
                        "key": a.key,
                        "alias": label_key(a.label) if label_key(a.label) not in keys else "",
                        "choices": a.choices,
                    }
                    for a in schema.attrs
                ],
            }
        )
    return out
