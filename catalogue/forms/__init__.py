"""Admin forms built from the rules core's schemas, and the card image check.

One module per job: `showing` (`KeepsWhatItShows`, the forms saving what they showed),
`attributes` (a typed field per attribute of a card's kind), `cards` (cards, printings
and expansions), `files` (the file uploads) and `rule_sets` (rule sets and their cards).
"""

from .attributes import ATTR_PREFIX, expects, expects_choices, field_for, initial_for, value_from
from .cards import CardAdminForm, ExpansionAdminForm, PrintingAdminForm
from .files import ExpansionImportForm, RuleSetImportForm
from .rule_sets import RuleSetAdminForm, RuleSetCardForm, RuleSetCardFormSet, format_choices
from .showing import KeepsWhatItShows

__all__ = [
    "ATTR_PREFIX",
    "CardAdminForm",
    "ExpansionAdminForm",
    "ExpansionImportForm",
    "KeepsWhatItShows",
    "PrintingAdminForm",
    "RuleSetAdminForm",
    "RuleSetCardForm",
    "RuleSetCardFormSet",
    "RuleSetImportForm",
    "expects",
    "expects_choices",
    "field_for",
    "format_choices",
    "initial_for",
    "value_from",
]
