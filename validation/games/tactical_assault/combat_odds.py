"""Tactical Assault: Combat Cards — exact combat odds and a close-combat Monte Carlo.

Rules followed (rules/tactical-assault-combat-cards.txt, Part V and the Quick Reference):

- An attack reveals the top card of the attacking player's 72-card deck; its printed
  `combat_result` is shifted along Table 6, the *Combat Results Scale*, whose order from the
  top is eliminated, out_of_action, shaken, fall_back, no_effect. "Up one" moves one step
  towards eliminated, "down one" one step towards no_effect; all shifts are cumulative.
- Firepower attacks use Table 4: attacker's firepower higher than the target's protection
  (up one) or lower (down one); Extreme Range (down one); LOS drawn outside the target's LOS
  arc (up one); target Obstructed or In Cover (down one, once: it is one row of the table);
  target's elevation higher than the attacker's (down one).
- Close combat attacks use Table 5: attacker's close combat rating higher than the target's
  protection (up one) or lower (down one); target Shaken or Out Of Action (up one, once);
  attacker contacts the target outside its LOS arc (up one); target In Cover (down one).
- A unit in a Bunker is attacked with the Bunker's protection (very_heavy, Part III).
- Close combat (Part V, steps 1-7): both units attack simultaneously each round, each with a
  card from its own player's deck; results are applied together; the combat goes on until
  one or both units are eliminated or they are no longer in contact.

Decisions and simplifications (the rulebook is silent or the tool cannot know):

- Ratings are ordered none < very_light < light < moderate < heavy < very_heavy; a "-" in
  Table 3 is `none`, lower than every rating (Infantry's missing protection is beaten by
  any firepower).
- Shifts past either end of the scale stop there (eliminated stays eliminated, no_effect
  stays no_effect).
- A unit whose rating for the attack is `none` has no such attack: `combat_odds` answers
  `possible: false`; in the Monte Carlo such a unit's attacks are always no_effect.
  Range "beyond" (the target cannot be reached even at Extreme Range) also makes the attack
  impossible (the card goes back to the hand).
- `combat_odds` counts printed results over the whole deck: with no knowledge of the other
  cards in hand or in the discard pile, the top card is equally likely to be any of them.
- Monte Carlo: each side's deck is freshly shuffled when the close combat starts and is
  reshuffled after every card of it has been revealed (the cards held in hand are ignored).
  Fall Back always breaks contact (the unit moves a Short Distance away), so a round in
  which either unit falls back and neither is eliminated ends the combat "out of contact".
  Shaken and Out Of Action units keep fighting (the close combat procedure repeats "until
  one, or both, units have been eliminated or the units are no longer in physical
  contact"); their status only gives the enemy the Table 5 "Shaken or Out Of Action" shift.
  No Situations or Actions are played during the combat (no Recover, no Back In Action).
  A combat still going after `max_rounds` rounds is reported as "unresolved".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from validation.capabilities import ToolInputError
from validation.types import CardFacts

RATINGS: tuple[str, ...] = ("none", "very_light", "light", "moderate", "heavy", "very_heavy")
RANGES: tuple[str, ...] = ("none", "very_short", "short", "medium", "long", "very_long")
# Table 6, from the top of the scale ("up" = towards index 0).
RESULTS: tuple[str, ...] = ("eliminated", "out_of_action", "shaken", "fall_back", "no_effect")
ATTACKS: tuple[str, ...] = ("firepower", "close_combat")
BUNKER_PROTECTION = "very_heavy"
#: The Combat Cards deck "as the rulebook builds it": one card of each number 1 to 72.
DECK_NUMBERS = range(1, 73)

#: Why a unit type may not be the target of an attack (Part III, Unit Types), by name; any
#: other `immobile` unit type is refused with the generic reason.
NOT_ATTACKABLE = {
    "bunker": 'Bunkers may not be attacked (Part III, Bunker: "nor may the Bunker itself be '
    'attacked"); attack the unit in it with "Target is in a Bunker"',
    "obstacle": 'Obstacles may not be attacked (Part III, Obstacle: "Obstacles may not have '
    "any Actions or Situations played on them, they do not have an LOS Arc, nor may they be "
    'attacked")',
}


def attack_refused(target: CardFacts) -> str | None:
    """Why `target` may not be attacked, in fire or close combat (None when it may): the
    Bunker and the Obstacle, the `immobile` unit types, may not be attacked."""
    if not target.attributes.get("immobile") and target.name.lower() not in NOT_ATTACKABLE:
        return None
    return NOT_ATTACKABLE.get(
        target.name.lower(),
        f"{target.name} is immobile, like Bunkers and Obstacles, which "
        "may not be attacked (Part III)",
    )


def catalogue_deck(cards: Mapping[str, Sequence[CardFacts]], kind: str) -> list[CardFacts]:
    """The standard deck (`standard_deck`) from a tool's catalogue cards, `kind` the kind of
    the combat cards; ToolInputError when the catalogue cannot make it."""
    if not cards.get(kind):
        raise ToolInputError("the catalogue holds no Tactical Assault combat cards")
    try:
        return standard_deck(cards[kind])
    except ValueError as exc:
        raise ToolInputError(str(exc)) from exc


def standard_deck(combat_cards: Sequence[CardFacts]) -> list[CardFacts]:
    """The 72-card Combat Cards deck of the rulebook from the catalogue's combat cards: one
    card of each number 1 to 72, whatever other printings the catalogue holds (a reprint of
    a number, or an added card, never changes the odds). Of several cards of one number the
    first by name is taken. ValueError names the numbers the catalogue lacks."""
    by_number: dict[int, CardFacts] = {}
    for card in sorted(combat_cards, key=lambda c: c.name.lower()):
        number = card.attributes.get("number")
        if isinstance(number, int) and number in DECK_NUMBERS:
            by_number.setdefault(number, card)
    missing = [n for n in DECK_NUMBERS if n not in by_number]
    if missing:
        shown = ", ".join(str(n) for n in missing[:10]) + (" …" if len(missing) > 10 else "")
        raise ValueError(f"the catalogue lacks combat card number(s) {shown} of the 72-card deck")
    return [by_number[n] for n in DECK_NUMBERS]


_ELIMINATED, _OUT_OF_ACTION, _SHAKEN, _FALL_BACK, _NO_EFFECT = range(5)

# The modifiers a form may offer. `shift` is the Combat Results shift (+1 = up one);
# `attacks` the attack kinds whose table lists the row; modifiers sharing a `row` are one
# table row and shift once even when several are set. The rating comparison rows are not
# here: they are computed from the cards.
MODIFIERS: tuple[dict[str, Any], ...] = (
    {
        "name": "attack",
        "label": "Attack",
        "type": "choice",
        "default": "firepower",
        "choices": [
            {"value": "firepower", "label": "Firepower attack (Table 4)", "shift": 0},
            {"value": "close_combat", "label": "Close combat attack (Table 5)", "shift": 0},
        ],
        "attacks": list(ATTACKS),
        "row": "",
    },
    {
        "name": "range",
        "label": "Range",
        "type": "choice",
        "default": "within",
        "choices": [
            {"value": "within", "label": "Within the attacker's Range Distance", "shift": 0},
            {"value": "extreme", "label": "Extreme Range", "shift": -1},
            {
                "value": "beyond",
                "label": "Beyond Extreme Range (no attack; the card returns to the hand)",
                "shift": 0,
            },
        ],
        "attacks": ["firepower"],
        "row": "extreme_range",
    },
    {
        "name": "outside_arc",
        "label": "LOS drawn to / contact made outside the target's Line Of Sight Arc",
        "type": "bool",
        "default": False,
        "shift": 1,
        "attacks": list(ATTACKS),
        "row": "outside_arc",
    },
    {
        "name": "obstructed",
        "label": "Target is Obstructed",
        "type": "bool",
        "default": False,
        "shift": -1,
        "attacks": ["firepower"],
        "row": "obstructed_or_in_cover",
    },
    {
        "name": "in_cover",
        "label": "Target is In Cover",
        "type": "bool",
        "default": False,
        "shift": -1,
        "attacks": list(ATTACKS),
        "row": "obstructed_or_in_cover",
    },
    {
        "name": "target_higher",
        "label": "Target's elevation is higher than the attacker's",
        "type": "bool",
        "default": False,
        "shift": -1,
        "attacks": ["firepower"],
        "row": "target_higher",
    },
    {
        "name": "target_shaken",
        "label": "Target is Shaken",
        "type": "bool",
        "default": False,
        "shift": 1,
        "attacks": ["close_combat"],
        "row": "shaken_or_out_of_action",
    },
    {
        "name": "target_out_of_action",
        "label": "Target is Out Of Action",
        "type": "bool",
        "default": False,
        "shift": 1,
        "attacks": ["close_combat"],
        "row": "shaken_or_out_of_action",
    },
    {
        "name": "target_in_bunker",
        "label": "Target is in a Bunker (attacked with the Bunker's very heavy protection)",
        "type": "bool",
        "default": False,
        "shift": 0,
        "attacks": list(ATTACKS),
        "row": "",
    },
)

_BY_NAME: dict[str, dict[str, Any]] = {m["name"]: m for m in MODIFIERS}

_ROW_LABELS = {
    "extreme_range": "Extreme Range",
    "outside_arc": "Outside the target's Line Of Sight Arc",
    "obstructed_or_in_cover": "Target is Obstructed or In Cover",
    "target_higher": "Target's elevation is higher than the attacker's",
    "shaken_or_out_of_action": "Target is Shaken or Out Of Action",
}


def rating(card: CardFacts, key: str) -> str:
    """The card's rating `key` normalised to one of `RATINGS` ("-", "" and None are none)."""
    value = card.attr(key)
    if value in (None, "", "-"):
        return "none"
    norm = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if norm not in RATINGS:
        raise ValueError(f"{card.name}: {key} {value!r} is not one of {', '.join(RATINGS)}")
    return norm


def _result_index(card: CardFacts) -> int:
    value = card.attr("combat_result")
    if value not in RESULTS:
        raise ValueError(
            f"combat card {card.name}: combat_result {value!r} is not one of {', '.join(RESULTS)}"
        )
    return RESULTS.index(value)


def _check_modifiers(modifiers: Mapping[str, Any], attack: str) -> dict[str, Any]:
    """Validate `modifiers` for `attack`; return them with defaults filled in.

    Unknown names, bad choices and a set modifier that the attack's table does not list are
    errors (a silently ignored modifier would give wrong odds)."""
    clean: dict[str, Any] = {}
    for name, value in modifiers.items():
        spec = _BY_NAME.get(name)
        if spec is None:
            raise ValueError(f"unknown modifier {name!r}; expected {', '.join(_BY_NAME)}")
        if name == "attack":
            continue
        if spec["type"] == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"modifier {name}: expected true or false, got {value!r}")
            if value and attack not in spec["attacks"]:
                raise ValueError(f"modifier {name} does not apply to a {attack} attack")
        else:
            allowed = [c["value"] for c in spec["choices"]]
            if value not in allowed:
                raise ValueError(f"modifier {name}: {value!r} is not one of {', '.join(allowed)}")
            if value != spec["default"] and attack not in spec["attacks"]:
                raise ValueError(f"modifier {name} does not apply to a {attack} attack")
        clean[name] = value
    for spec in MODIFIERS:
        if spec["name"] != "attack":
            clean.setdefault(spec["name"], spec["default"])
    return clean


def attack_shift(
    attacker: CardFacts, target: CardFacts, modifiers: Mapping[str, Any]
) -> dict[str, Any]:
    """The net Combat Results shift of one attack and the table rows that make it.

    Returns {"attack", "possible", "reason", "attacker_rating", "target_protection",
    "rows": [{"row", "label", "shift"}], "net_shift"}."""
    attack = modifiers.get("attack", "firepower")
    if attack not in ATTACKS:
        raise ValueError(f"attack {attack!r} is not one of {', '.join(ATTACKS)}")
    mods = _check_modifiers(modifiers, attack)
    rating_key = "firepower" if attack == "firepower" else "close_combat"
    attacker_rating = rating(attacker, rating_key)
    protection = BUNKER_PROTECTION if mods["target_in_bunker"] else rating(target, "protection")
    possible, reason = True, ""
    if attacker_rating == "none":
        possible, reason = False, f"{attacker.name} has no {rating_key.replace('_', ' ')} rating"
    elif attack == "firepower" and mods["range"] == "beyond":
        possible, reason = False, "the target is beyond Extreme Range"

    table = "Firepower" if attack == "firepower" else "Close Combat"
    rows: list[dict[str, Any]] = []
    a, p = RATINGS.index(attacker_rating), RATINGS.index(protection)
    if a > p:
        rows.append({"row": "rating_higher", "label": f"Attacker's {table} higher", "shift": 1})
    elif p > a:
        rows.append(
            {"row": "protection_higher", "label": "Target's Protection higher", "shift": -1}
        )
    seen: set[str] = set()
    for spec in MODIFIERS:
        name, row = spec["name"], spec["row"]
        if not row or attack not in spec["attacks"] or row in seen:
            continue
        if spec["type"] == "bool":
            shift = spec["shift"] if mods[name] else 0
        else:
            shift = next(c["shift"] for c in spec["choices"] if c["value"] == mods[name])
        if shift:
            seen.add(row)
            rows.append({"row": row, "label": _ROW_LABELS[row], "shift": shift})
    return {
        "attack": attack,
        "attack_label": attack.replace("_", " "),
        "possible": possible,
        "reason": reason,
        "attacker_rating": attacker_rating,
        "target_protection": protection,
        "rows": rows,
        "net_shift": sum(r["shift"] for r in rows),
    }


def shift_result(printed: int, shift: int) -> int:
    """Index in `RESULTS` of a printed result index shifted up (`shift` > 0) or down."""
    return min(max(printed - shift, 0), len(RESULTS) - 1)


def combat_odds(
    attacker: CardFacts,
    target: CardFacts,
    combat_cards: Sequence[CardFacts],
    modifiers: Mapping[str, Any],
) -> dict[str, Any]:
    """Exact probability of each combat result of one attack.

    The top card of `combat_cards` (the standard deck holds 72) is revealed; its printed
    `combat_result` is shifted by the rating comparison and the `modifiers` (names from
    `MODIFIERS`; "attack" picks Table 4 or 5). Each result's probability is the number of
    cards that end on it over the deck size, as an exact fraction string and a float.
    """
    if not combat_cards:
        raise ValueError("the combat card deck is empty")
    info = attack_shift(attacker, target, modifiers)
    printed = [0] * len(RESULTS)
    for card in combat_cards:
        printed[_result_index(card)] += 1
    final = [0] * len(RESULTS)
    if info["possible"]:
        for index, count in enumerate(printed):
            final[shift_result(index, info["net_shift"])] += count
    n = len(combat_cards)
    results = {}
    for index, name in enumerate(RESULTS):
        frac = Fraction(final[index], n)
        results[name] = {"count": final[index], "fraction": str(frac), "probability": float(frac)}
    return {
        "attacker": attacker.name,
        "target": target.name,
        **info,
        "deck_size": n,
        "printed": dict(zip(RESULTS, printed, strict=True)),
        "results_order": list(RESULTS),
        "results": results,
    }


def _close_combat_side(
    attacker: CardFacts, target: CardFacts, modifiers: Mapping[str, Any] | None
) -> tuple[bool, int, bool, bool]:
    """(can attack, static shift without the status row, target starts shaken, starts OOA)."""
    mods = dict(modifiers or {})
    if mods.get("attack", "close_combat") != "close_combat":
        raise ValueError("close combat modifiers must not set attack to firepower")
    mods["attack"] = "close_combat"
    start_shaken = bool(mods.pop("target_shaken", False))
    start_ooa = bool(mods.pop("target_out_of_action", False))
    info = attack_shift(attacker, target, mods)
    return info["possible"], info["net_shift"], start_shaken, start_ooa


def _deck_draws(
    rng: np.random.Generator, results: np.ndarray, games: int, rounds: int
) -> np.ndarray:
    """(games, rounds) printed result indices: each row a shuffled deck, reshuffled after
    every card has been revealed."""
    n = len(results)
    chunks, need = [], rounds
    while need > 0:
        deck = rng.permuted(np.broadcast_to(results, (games, n)), axis=1)
        chunks.append(deck[:, : min(n, need)])
        need -= n
    return np.concatenate(chunks, axis=1)


def _check_montecarlo_arguments(
    games: int, max_rounds: int, combat_cards: Sequence[CardFacts]
) -> np.ndarray:
    """Refuse impossible arguments; return the deck's printed result indices (int8)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    if not combat_cards:
        raise ValueError("the combat card deck is empty")
    return np.array([_result_index(c) for c in combat_cards], dtype=np.int8)


def _draw_both_decks(
    seed: int, results: np.ndarray, games: int, max_rounds: int
) -> tuple[np.ndarray, np.ndarray]:
    """Both players' (games, max_rounds) draws, each player from an own stream spawned from
    `seed`; A's deck is drawn in full before B's."""
    seq = np.random.SeedSequence(seed)
    rng_a, rng_b = (np.random.default_rng(s) for s in seq.spawn(2))
    draws_a = _deck_draws(rng_a, results, games, max_rounds)
    draws_b = _deck_draws(rng_b, results, games, max_rounds)
    return draws_a, draws_b


@dataclass(slots=True)
class _Fighter:
    """One unit of the close combat in every game: how it attacks and, per game, what the
    enemy's attacks have done to it so far."""

    can_attack: bool
    shift: int  # static shift of its attacks, without the target's status row
    draws: np.ndarray  # (games, max_rounds) printed results of its player's deck
    shaken: np.ndarray
    out_of_action: np.ndarray
    eliminated: np.ndarray
    fell_back: np.ndarray

    @classmethod
    def start(
        cls, can_attack: bool, shift: int, draws: np.ndarray, shaken: bool, out_of_action: bool
    ) -> _Fighter:
        """A fighter at the start of the combat, with its starting status in every game."""
        games = len(draws)
        return cls(
            can_attack=can_attack,
            shift=shift,
            draws=draws,
            shaken=np.full(games, shaken),
            out_of_action=np.full(games, out_of_action),
            eliminated=np.zeros(games, dtype=bool),
            fell_back=np.zeros(games, dtype=bool),
        )

    def attack(self, target: _Fighter, r: int, live: np.ndarray) -> np.ndarray:
        """The result index of this fighter's round-`r` attack on `target` in every game
        (no_effect where the combat is over), from `target`'s status at the round's start."""
        shift = self.shift + (target.shaken | target.out_of_action)
        if self.can_attack:
            hit = np.clip(self.draws[:, r] - shift, 0, 4)
        else:
            hit = np.full(len(live), _NO_EFFECT)
        return np.where(live, hit, _NO_EFFECT)

    def suffer(self, hit: np.ndarray) -> None:
        """Apply the enemy's results `hit` to this fighter (statuses are never lost)."""
        self.eliminated |= hit == _ELIMINATED
        self.out_of_action |= hit == _OUT_OF_ACTION
        self.shaken |= hit == _SHAKEN
        self.fell_back |= hit == _FALL_BACK


def _fight(a: _Fighter, b: _Fighter, max_rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """Play up to `max_rounds` simultaneous rounds in every game, updating `a` and `b`.

    Returns (done, rounds): whether each game's combat ended (an elimination or a fall
    back) and the round it ended in (`max_rounds` for the unresolved ones)."""
    games = len(a.draws)
    done = np.zeros(games, dtype=bool)
    rounds = np.full(games, max_rounds, dtype=np.int64)
    for r in range(max_rounds):
        live = ~done
        if not live.any():
            break
        # A attacks B, B attacks A, simultaneously (statuses as at the start of the round).
        on_b = a.attack(b, r, live)
        on_a = b.attack(a, r, live)
        b.suffer(on_b)
        a.suffer(on_a)
        ends = live & (a.eliminated | b.eliminated | a.fell_back | b.fell_back)
        rounds[ends] = r + 1
        done |= ends
    return done, rounds


def _tally(
    a: _Fighter, b: _Fighter, done: np.ndarray
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """(outcomes, who fell back, statuses at the end) counted over the games."""
    any_elim = a.eliminated | b.eliminated
    outcomes = {
        "a_eliminated": int((a.eliminated & ~b.eliminated).sum()),
        "b_eliminated": int((b.eliminated & ~a.eliminated).sum()),
        "both_eliminated": int((a.eliminated & b.eliminated).sum()),
        "out_of_contact": int((done & ~any_elim).sum()),
        "unresolved": int((~done).sum()),
    }
    contact = done & ~any_elim
    fell_back = {
        "a_fell_back": int((contact & a.fell_back & ~b.fell_back).sum()),
        "b_fell_back": int((contact & b.fell_back & ~a.fell_back).sum()),
        "both_fell_back": int((contact & a.fell_back & b.fell_back).sum()),
    }
    statuses = {
        "a_shaken": int((a.shaken & ~a.eliminated).sum()),
        "a_out_of_action": int((a.out_of_action & ~a.eliminated).sum()),
        "b_shaken": int((b.shaken & ~b.eliminated).sum()),
        "b_out_of_action": int((b.out_of_action & ~b.eliminated).sum()),
    }
    return outcomes, fell_back, statuses


def _rounds_fought(
    rounds: np.ndarray, done: np.ndarray, max_rounds: int, unresolved: int
) -> dict[str, Any]:
    """The distribution of the rounds fought in the resolved games."""
    resolved = rounds[done]
    hist = np.bincount(resolved, minlength=max_rounds + 1)
    return {
        "histogram": {str(i): int(hist[i]) for i in range(1, max_rounds + 1) if hist[i]},
        "mean_resolved": float(resolved.mean()) if resolved.size else None,
        "unresolved": unresolved,
    }


def close_combat_montecarlo(
    unit_a: CardFacts,
    unit_b: CardFacts,
    combat_cards: Sequence[CardFacts],
    games: int,
    seed: int,
    max_rounds: int = 20,
    a_modifiers: Mapping[str, Any] | None = None,
    b_modifiers: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Repeat the close combat procedure between `unit_a` and `unit_b` over `games` games.

    Every game is one close combat, vectorised with numpy over the games. `a_modifiers` are
    the Table 5 modifiers of A's attacks on B (`outside_arc`, `in_cover`,
    `target_in_bunker`; `target_shaken`/`target_out_of_action` mean B starts with that
    status), `b_modifiers` those of B's attacks on A. Both players use a copy of
    `combat_cards` as their own deck. Reproducible from `seed` (numpy SeedSequence).

    Returns outcome counts and frequencies (a_eliminated, b_eliminated, both_eliminated,
    out_of_contact, unresolved), who fell back, the statuses at the end, and the
    distribution of the number of rounds fought.
    """
    results = _check_montecarlo_arguments(games, max_rounds, combat_cards)
    a_can, a_shift, b_shaken0, b_ooa0 = _close_combat_side(unit_a, unit_b, a_modifiers)
    b_can, b_shift, a_shaken0, a_ooa0 = _close_combat_side(unit_b, unit_a, b_modifiers)
    draws_a, draws_b = _draw_both_decks(seed, results, games, max_rounds)
    a = _Fighter.start(a_can, a_shift, draws_a, a_shaken0, a_ooa0)
    b = _Fighter.start(b_can, b_shift, draws_b, b_shaken0, b_ooa0)
    done, rounds = _fight(a, b, max_rounds)
    outcomes, fell_back, statuses = _tally(a, b, done)
    return {
        "unit_a": unit_a.name,
        "unit_b": unit_b.name,
        "games": games,
        "seed": seed,
        "max_rounds": max_rounds,
        "shift_a_on_b": a_shift,
        "shift_b_on_a": b_shift,
        "a_can_attack": a_can,
        "b_can_attack": b_can,
        "outcomes": outcomes,
        "frequencies": {k: v / games for k, v in outcomes.items()},
        "fell_back": fell_back,
        "statuses_at_end": statuses,
        "rounds": _rounds_fought(rounds, done, max_rounds, outcomes["unresolved"]),
    }
