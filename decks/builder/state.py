"""What the builder hands to its templates: a typed `BuilderState`.

The deck panel, the live panel and a game's own panel (`games/<slug>/builder_extra.html` in
the game's package) read these fields by name, each one a template variable of the same
name (and the whole as `state`). A field renamed here is renamed for every template at
once, and a template asking for a name that is not a field fails in the tests
(tests/decks/test_builder_state.py renders every game's builder with a template engine
that refuses a missing variable), not silently as an empty spot on a page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decks.models import Deck, DeckVersion
    from validation.registry import FormatDef, GameDef
    from validation.runner import Report


@dataclass
class BuilderState:
    """The builder's panels for one version of a deck.

    - `deck`, `game` (its GameDef), `fmt` (its FormatDef), `version` (None for a deck
      without one) and `base`, the version number the page edits from ("" for none).
    - `report`, the verdict as stored (a `Report`); `violations`, its problems with their rulebook
      sentence; `totals`, the game's figures as rows; `totals_map`, the same by key (the
      game's panel reads them: `totals_map.points`).
    - `sections`, each section's panel (rows grouped by kind, count, target, placement),
      also `sections_by_name`, and the `required_sections`.
    - `stats` (cost curve, copies by kind and faction) and `curve_of`, the sections it is
      drawn over; `meters`, the format's points limits against the list.
    - `placement_maps`, the placement areas drawn by the game's grid (`placement_map`, the
      first, or None); `layout`, the dealt map drawn by the game's map layout, or None.
    - `options`, the version's format options; `adjustable`, those a deck may change with
      their labels and choices.
    - `cards_by_kind`, the game's cards of a kind on first use (a game panel's pickers);
      `extra_template`, the game's own panel (or an empty one).
    - `conflict`, `error`, `notice`: what the last change answered; `owned`, whether the
      list is restricted to the collection, and `missing`, the cards it lacks then.
    - `urls`, the builder's addresses for this deck.
    - `quick_into`, the section quick-add's card lines go to since a header line was typed
      ("" for the section that takes each card), and its label `quick_into_label`.
    """

    deck: Deck
    game: GameDef
    fmt: FormatDef
    version: DeckVersion | None
    base: int | str
    report: Report
    violations: dict[str, list[Any]]
    totals: list[Any]
    totals_map: dict[str, Any]
    sections: list[dict[str, Any]]
    sections_by_name: dict[str, dict[str, Any]]
    required_sections: list[dict[str, Any]]
    stats: dict[str, Any]
    curve_of: str
    meters: list[dict[str, Any]]
    placement_maps: list[dict[str, Any]]
    placement_map: dict[str, Any] | None
    layout: dict[str, Any] | None
    options: dict[str, Any]
    adjustable: list[dict[str, Any]]
    cards_by_kind: Mapping[str, list[dict[str, Any]]]
    extra_template: str
    conflict: str
    error: str
    notice: str
    owned: bool
    missing: Any
    urls: dict[str, str]
    quick_into: str
    quick_into_label: str

    def context(self) -> dict[str, Any]:
        """The template context: every field under its name, and the state as `state`."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["state"] = self
        return out
