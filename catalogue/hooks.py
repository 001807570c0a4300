"""The catalogue's hooks (cardsite.hooks): what other apps hear of its changes and add to its
pages, each a `Hook` of a protocol, called by the function of the same name here, which
calls every listener and combines their answers.

- `CATALOGUE_CHANGED`: `fn(*, game_slug)`, after an import or an admin edit changed a
  game's cards (catalogue.services.catalogue_changed; the decks app re-validates that
  game's saved decks, the decklists app re-checks its decklists). Called after the write;
  a listener defers its work until the transaction commits.
- `RULE_SET_CHANGED`: `fn(*, game_slug, format, code)`, after a rule set was written
  (catalogue.rulesets.rule_set_changed; the decks and decklists apps re-check once it
  commits).
- `RULE_SET_DELETING`: `fn(*, rule_set)`, before a rule set is deleted, INSIDE the deleting
  transaction of catalogue.rulesets.rule_set_delete (`within`, checked when called): a
  listener's writes commit or roll back with the delete (the decks app starts the re-check
  of the decks that followed or were pinned to it, sent once it commits, and tells the
  pinned decks' owners).
- `RULE_SET_PREVIEW`: `fn(*, game_slug, format, code, facts, following, when) ->
  DeckVerdicts`, asked by a rule set file's preview: what the rule set (its `facts`, not
  yet written) would do to the saved decks' verdicts (the decks app checks them in
  memory); the answers are summed.
- `CARD_PANELS`: `fn(card, user) -> [Panel]`, panels of a card's page for `user` (the
  decklists app's "in N decklists"; the decks app's "your decks using it").
- `CARD_USES`: `fn(card) -> {name: count}`, how many of an app's public things use a card
  (the decklists app's `decklists`), for GET /api/cards/<id>/decks/.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import ngettext

from cardsite.hooks import Hook, Panel, merged
from validation.types import RuleSetFacts

if TYPE_CHECKING:
    # Only named in the protocols: the apps' `ready()` imports this module before the
    # models are loaded.
    from .models import Card, RuleSet


@dataclass(frozen=True)
class DeckVerdicts:
    """What importing a rule set would do to the saved decks it governs (its format's decks
    that follow the format, when it is or will be the rule set in force, and those pinned
    to its code), found by checking them in memory, nothing written: `changed` of the
    `checked` decks would change verdict (legal ↔ not legal) against their saved one,
    `names` a few of them; `total` decks were in scope (at most `checked` are checked)."""

    total: int
    checked: int
    changed: int
    names: tuple[str, ...] = ()
    made_illegal: int = 0
    made_legal: int = 0
    when: str = ""

    @property
    def more(self) -> int:
        """Decks whose verdict would change beyond those named."""
        return self.changed - len(self.names)

    @property
    def text(self) -> str:
        if not self.total:
            return "no saved deck follows it"
        said = ngettext(
            "%(changed)d of %(checked)d saved deck it governs would change verdict",
            "%(changed)d of %(checked)d saved decks it governs would change verdict",
            self.checked,
        ) % {"changed": self.changed, "checked": self.checked} + (
            f" {self.when}" if self.when else ""
        )
        if self.changed:
            said += f" ({self.made_illegal} made not legal, {self.made_legal} made legal)"
        if self.checked < self.total:
            said += f"; {self.total - self.checked} more not checked"
        return said

    @classmethod
    def summed(cls, answers: list[DeckVerdicts]) -> DeckVerdicts:
        """Several apps' answers as one: the counts added, the names joined, the first
        `when` given."""
        if len(answers) == 1:
            return answers[0]
        return cls(
            total=sum(a.total for a in answers),
            checked=sum(a.checked for a in answers),
            changed=sum(a.changed for a in answers),
            names=tuple(name for a in answers for name in a.names),
            made_illegal=sum(a.made_illegal for a in answers),
            made_legal=sum(a.made_legal for a in answers),
            when=next((a.when for a in answers if a.when), ""),
        )


class CatalogueChanged(Protocol):
    def __call__(self, *, game_slug: str) -> None: ...


class RuleSetChanged(Protocol):
    def __call__(self, *, game_slug: str, format: str, code: str) -> None: ...


class RuleSetDeleting(Protocol):
    def __call__(self, *, rule_set: RuleSet) -> object: ...


class RuleSetPreview(Protocol):
    def __call__(
        self,
        *,
        game_slug: str,
        format: str,
        code: str,
        facts: RuleSetFacts,
        following: bool,
        when: str,
    ) -> DeckVerdicts: ...


class CardPanels(Protocol):
    def __call__(self, card: Card, user: Any = None) -> list[Panel]: ...


class CardUses(Protocol):
    def __call__(self, card: Card) -> dict[str, int]: ...


CATALOGUE_CHANGED: Hook[CatalogueChanged] = Hook("catalogue_changed")
RULE_SET_CHANGED: Hook[RuleSetChanged] = Hook("rule_set_changed")
RULE_SET_DELETING: Hook[RuleSetDeleting] = Hook(
    "rule_set_deleting",
    within="the deleting transaction of catalogue.rulesets.rule_set_delete, before the delete",
)
RULE_SET_PREVIEW: Hook[RuleSetPreview] = Hook("rule_set_preview")
CARD_PANELS: Hook[CardPanels] = Hook("card_panels")
CARD_USES: Hook[CardUses] = Hook("card_uses")


def catalogue_changed(*, game_slug: str) -> None:
    for fn in CATALOGUE_CHANGED.listeners:
        fn(game_slug=game_slug)


def rule_set_changed(*, game_slug: str, format: str, code: str) -> None:
    for fn in RULE_SET_CHANGED.listeners:
        fn(game_slug=game_slug, format=format, code=code)


def rule_set_deleting(*, rule_set: RuleSet) -> None:
    for fn in RULE_SET_DELETING.listeners:
        fn(rule_set=rule_set)


def rule_set_preview(
    *, game_slug: str, format: str, code: str, facts: RuleSetFacts, following: bool, when: str
) -> DeckVerdicts | None:
    """Every listener's answer, summed (None when nobody listens)."""
    answers = [
        fn(
            game_slug=game_slug,
            format=format,
            code=code,
            facts=facts,
            following=following,
            when=when,
        )
        for fn in RULE_SET_PREVIEW.listeners
    ]
    return DeckVerdicts.summed(answers) if answers else None


def card_panels(card: Card, user: Any = None) -> list[Panel]:
    """The panels every app adds to a card's page, as `user` sees it."""
    return [panel for fn in CARD_PANELS.listeners for panel in fn(card, user)]


def card_uses(card: Card) -> dict[str, int]:
    """How many public things of every app use a card."""
    return merged(CARD_USES.name, (fn(card) for fn in CARD_USES.listeners))
